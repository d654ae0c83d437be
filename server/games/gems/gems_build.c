/*
 * gems_build.c — setting up a game and building each dungeon: picking the
 * five adventures from the server-wide use counts (G10), the room set with
 * its warnings (G7), the shuffle, the move-up (G8), the lair and poisons
 * (G9), and the adventure-use event the server folds into its counts.
 */
#include <string.h>

#include "gems_int.h"

static const uint8_t warning_table[GEMS_DUNGEONS][5] = {
	{3, 3, 3, 3, 0}, {2, 3, 3, 3, 3}, {2, 2, 3, 3, 0}, {2, 2, 2, 3, 3}, {2, 2, 2, 2, 0},
};

int gems_warning_counts(int dungeon, int counts[5])
{
	int types = 0;
	for (int t = 0; t < 5; t++) {
		counts[t] = warning_table[dungeon][t];
		types += counts[t] > 0;
	}
	return types;
}

int gems_dungeon_set(int dungeon, int bars, int adv, gems_room *out)
{
	int n = 0, counts[5];
	for (int level = 0; level < 15; level++)
		out[n++] = (gems_room){.kind = GEMS_ROOM_GEM, .arg = (uint8_t)level};
	for (int i = 0; i < bars && n < GEMS_MAX_ROOMS; i++)
		out[n++] = (gems_room){.kind = GEMS_ROOM_BAR};
	gems_warning_counts(dungeon, counts);
	for (int t = 0; t < 5; t++)
		for (int i = 0; i < counts[t] && n < GEMS_MAX_ROOMS; i++)
			out[n++] = (gems_room){.kind = GEMS_ROOM_WARNING, .arg = (uint8_t)t};
	for (int i = 0; i < gems_adv_rooms(adv) && n < GEMS_MAX_ROOMS; i++)
		out[n++] = (gems_room){.kind = GEMS_ROOM_ADV, .arg = (uint8_t)adv};
	return n;
}

/* G8: three passes from the second room on; an adventure (not the Banker)
 * swaps with the room before it. Only adventure rooms ever move, so each
 * pass walks their positions in ascending order: one at p moves to p−1
 * unless p is 0 or p−1 holds an adventure (then the swap changes nothing),
 * exactly as the room-by-room pass would. */
void gems_move_up(gems_room *rooms, int n)
{
	int pos[GEMS_MAX_ROOMS], k = 0;
	for (int i = 0; i < n; i++)
		if (rooms[i].kind == GEMS_ROOM_ADV && rooms[i].arg != GEMS_ADV_BANKER)
			pos[k++] = i;
	for (int pass = 0; pass < 3; pass++)
		for (int j = 0; j < k; j++) {
			int p = pos[j];
			if (p == 0 || (j > 0 && pos[j - 1] == p - 1))
				continue;
			gems_room t = rooms[p - 1];
			rooms[p - 1] = rooms[p];
			rooms[p] = t;
			pos[j] = p - 1;
		}
}

/* G9: a warning of an already seen type kills a spider if a poison before
 * it is unused, else it is the lair and the scan stops. The rooms come with
 * spider = GEMS_SPIDER_NONE. */
int gems_mark_spiders(gems_room *rooms, int n)
{
	int poisons = 0;
	uint32_t seen = 0;
	for (int i = 0; i < n; i++) {
		gems_room *r = &rooms[i];
		if (r->kind == GEMS_ROOM_ADV && r->arg == GEMS_ADV_POISON)
			poisons++;
		if (r->kind != GEMS_ROOM_WARNING)
			continue;
		uint32_t bit = 1u << r->arg;
		if (seen & bit) {
			if (poisons == 0) {
				r->spider = GEMS_SPIDER_LAIR;
				return i;
			}
			r->spider = GEMS_SPIDER_DEAD;
			poisons--;
		}
		seen |= bit;
	}
	return -1;
}

bool gems_adv_before_lair(const gems_room *rooms, int n, int lair_at)
{
	int end = lair_at >= 0 ? lair_at : n;
	for (int i = 0; i < end; i++)
		if (rooms[i].kind == GEMS_ROOM_ADV)
			return true;
	return false;
}

void gems_pick_adventures(rng *r, const int32_t uses[GEMS_N_ADV], uint8_t out[GEMS_DUNGEONS])
{
	uint8_t ids[GEMS_N_ADV];
	for (int i = 0; i < GEMS_N_ADV; i++)
		ids[i] = (uint8_t)i;
	rng_shuffle(r, ids, GEMS_N_ADV, 1); /* random order breaks ties ... */
	for (int i = 1; i < GEMS_N_ADV; i++) { /* ... that a stable sort keeps */
		uint8_t id = ids[i];
		int j = i;
		for (; j > 0 && uses[ids[j - 1]] > uses[id]; j--)
			ids[j] = ids[j - 1];
		ids[j] = id;
	}
	memcpy(out, ids, GEMS_DUNGEONS);
	rng_shuffle(r, out, GEMS_DUNGEONS, 1);
}

/* Fisher–Yates, as rng_shuffle but on whole rooms (the hot path). */
static void shuffle_rooms(rng *r, gems_room *rooms, int n)
{
	for (int i = n; i > 1; i--) {
		int j = (int)rng_below(r, (uint32_t)i);
		gems_room t = rooms[j];
		rooms[j] = rooms[i - 1];
		rooms[i - 1] = t;
	}
}

void gems_build_dungeon(gems_game *g, const gems_room *fixed, int n_fixed, game_events *out)
{
	int adv = g->adv[g->dungeon];
	if (fixed) {
		g->n_rooms = n_fixed < GEMS_MAX_ROOMS ? n_fixed : GEMS_MAX_ROOMS;
		memcpy(g->rooms, fixed, (size_t)g->n_rooms * sizeof *fixed);
		for (int i = 0; i < g->n_rooms; i++)
			g->rooms[i].spider = GEMS_SPIDER_NONE;
	} else {
		g->n_rooms = gems_dungeon_set(g->dungeon, g->bars_undiscovered, adv, g->rooms);
		/* The unseen multiset is counted on the set in its built order,
		 * kind by kind, where the loop's branches are predictable: the
		 * shuffle does not change it. */
		gems_unseen_reset(g);
		shuffle_rooms(&g->rules, g->rooms, g->n_rooms);
		gems_move_up(g->rooms, g->n_rooms);
	}
	g->lair_at = gems_mark_spiders(g->rooms, g->n_rooms);
	if (fixed)
		gems_unseen_reset(g);
	else if (adv == GEMS_ADV_POISON) /* only a poison makes dead spiders (G9, G25) */
		for (int i = 0; i < g->n_rooms; i++)
			if (g->rooms[i].spider == GEMS_SPIDER_DEAD)
				g->unseen_warn[g->rooms[i].arg]--;
	if (gems_adv_before_lair(g->rooms, g->n_rooms, g->lair_at)) {
		g->adv_used |= (uint8_t)(1u << g->dungeon);
		gems_emit(out, GEMS_EV_ADV_USED, -1, adv, g->dungeon + 1, 0);
	}
}

static void draw_persona(gems_game *g, gems_persona *p)
{
	int n = g->seats;
	p->post_warning_delay = rng_range(&g->ai, 0, 3);
	p->leave_extra = rng_unit(&g->ai) * 0.16;
	p->ev_cutoff = -1.5 + rng_unit(&g->ai) * 1.4;
	p->good_take = rng_range(&g->ai, n, 4 * n + 1);
	p->attention = 0.45 + rng_unit(&g->ai) * 0.5;
}

static bool opts_valid(const gems_opts *opts)
{
	if (!opts || !opts->fixed_adventures)
		return true;
	uint32_t seen = 0;
	for (int d = 0; d < GEMS_DUNGEONS; d++) {
		if (opts->adv[d] >= GEMS_N_ADV || (seen & (1u << opts->adv[d])))
			return false;
		seen |= 1u << opts->adv[d];
	}
	return true;
}

int gems_init_fixed(gems_game *g, int seats, uint64_t seed, const gems_shared *shared,
		    const gems_opts *opts, const gems_room *rooms, int n_rooms, game_events *out)
{
	if (seats < 1 || seats > GAME_MAX_SEATS || !opts_valid(opts)) /* G1: 1–9 seats */
		return GAME_ERR_CONFIG;
	memset(g, 0, sizeof *g);
	rng_seed(&g->rules, seed, GEMS_STREAM_RULES);
	rng_seed(&g->ai, seed, GEMS_STREAM_AI);
	g->seed = seed;
	g->seats = seats;
	g->bars_undiscovered = 3; /* G5 */
	g->record_score = shared ? shared->best_score : -1;
	g->record_depth = shared ? shared->deepest : -1;
	if (opts && opts->fixed_adventures) {
		memcpy(g->adv, opts->adv, GEMS_DUNGEONS);
	} else {
		gems_shared fresh;
		gems_shared_init(&fresh);
		gems_pick_adventures(&g->rules, shared ? shared->uses : fresh.uses, g->adv);
	}
	for (int i = 0; i < seats; i++) {
		draw_persona(g, &g->seat[i].ai);
		g->seat[i].t.min_depth = g->seat[i].t.max_depth = -1;
	}
	gems_emit(out, GEMS_EV_GAME_START, -1, seats, 0, 0);
	gems_begin_dungeon(g, rooms, n_rooms, out);
	gems_advance(g, out);
	return GAME_OK;
}

int gems_init(gems_game *g, int seats, uint64_t seed, const gems_shared *shared,
	      const gems_opts *opts, game_events *out)
{
	return gems_init_fixed(g, seats, seed, shared, opts, NULL, 0, out);
}
