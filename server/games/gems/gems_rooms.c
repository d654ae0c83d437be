/*
 * gems_rooms.c — the flow of a dungeon (G2, G3): entering rooms and their
 * automatic effects, the decision, leaving together (G14), bravery (G13),
 * the lair (G24), the end of a dungeon and of the game. Adventure-specific
 * effects live in gems_adventures.c, the odds in gems_odds.c.
 */
#include <stdio.h>
#include <string.h>

#include "gems_int.h"

static uint32_t inside_mask(const gems_game *g)
{
	uint32_t m = 0;
	for (int i = 0; i < g->seats; i++)
		if (g->seat[i].inside)
			m |= 1u << i;
	return m;
}

void gems_begin_dungeon(gems_game *g, const gems_room *fixed, int n_fixed, game_events *out)
{
	g->bars_undiscovered++; /* G5 */
	gems_build_dungeon(g, fixed, n_fixed, out); /* and counts its unseen rooms */
	g->cur = -1;
	g->depth = 0;
	g->bravery = g->seats;
	g->adv_met = g->warnings_met = g->poisons_unused = 0;
	g->types_seen = 0;
	g->first_warning_depth = 0;
	g->rumor_leave2 = GEMS_NO_RUMOR_LEAVE;
	g->floor_gems = g->n_floor_bars = 0;
	memset(g->coin_rem, 0, sizeof g->coin_rem);
	g->sphinx_met = 0;
	g->adv_known = 0;
	g->people_carried = 0;
	g->monte_third = g->monte_swaps = 0;
	g->scout_r = g->scout_x = 0;
	g->sphinx_double = -1;
	for (int i = 0; i < g->seats; i++) {
		gems_seat *s = &g->seat[i];
		s->inside = 1;
		s->size = 2; /* G19: regular size, weight 4 */
		s->owed = s->path = s->queens = s->changelings = s->coin_mask = 0;
		s->queen_bits = 0;
		s->depth = 0;
	}
	gems_emit(out, GEMS_EV_DUNGEON_START, -1, g->dungeon + 1, g->bravery,
		  g->bars_undiscovered);
}

/* G19: shares by weight, the remainder on the floor. */
static void split_gems(gems_game *g, int gems, game_events *out)
{
	int idx[GAME_MAX_SEATS], w[GAME_MAX_SEATS], sh[GAME_MAX_SEATS], n = 0;
	for (int i = 0; i < g->seats; i++)
		if (g->seat[i].inside) {
			idx[n] = i;
			w[n++] = 1 << g->seat[i].size;
		}
	int rest = gems_split(gems, w, n, sh);
	g->floor_gems += rest;
	g->ledger.found += gems;
	g->met_value[g->cur] = (uint8_t)gems;
	gems_emit(out, GEMS_EV_GEMS, -1, gems, rest, 0);
	for (int k = 0; k < n; k++) {
		g->seat[idx[k]].hand += sh[k];
		gems_emit(out, GEMS_EV_SHARE, idx[k], sh[k], 0, 0);
	}
}

static void found_bar(gems_game *g, game_events *out)
{
	int chest_bars = 0;
	for (int i = 0; i < g->seats; i++)
		chest_bars += g->seat[i].bars;
	int size = gems_bar_size(chest_bars); /* G6: fixed when revealed */
	int value = gems_bar_value(size, g->seats);
	g->met_value[g->cur] = (uint8_t)value;
	if (g->n_floor_bars < GEMS_MAX_FLOOR_BARS)
		g->floor_bars[g->n_floor_bars++] = value;
	gems_emit(out, GEMS_EV_BAR, -1, value, size, 0);
}

static void warning(gems_game *g, int type, game_events *out)
{
	int msg = g->warnings_met < 4 ? g->warnings_met : 4;
	g->met_value[g->cur] = (uint8_t)msg;
	g->warnings_met++;
	g->types_seen |= 1u << type;
	if (!g->first_warning_depth)
		g->first_warning_depth = g->depth;
	gems_emit(out, GEMS_EV_WARNING, -1, msg, 0, 0);
}

static void dead_spider(gems_game *g, game_events *out)
{
	g->poisons_unused--;
	g->spiders_killed++;
	for (int i = 0; i < g->seats; i++)
		if (g->seat[i].inside)
			g->seat[i].t.spiders_killed++;
	gems_emit(out, GEMS_EV_DEAD_SPIDER, -1, g->poisons_unused, 0, 0);
}

/* G24: hands and carried people are lost, obligations end. */
static void scare_out(gems_game *g, game_events *out)
{
	g->lairs++;
	gems_emit(out, GEMS_EV_LAIR, -1, g->depth, 0, 0);
	for (int i = 0; i < g->seats; i++) {
		gems_seat *s = &g->seat[i];
		if (!s->inside)
			continue;
		g->ledger.spider += s->hand;
		s->t.spider_stolen += s->hand;
		s->t.scared++;
		gems_emit(out, GEMS_EV_SCARED, i, s->hand, s->queens + s->changelings, 0);
		s->hand = 0;
		s->queens = s->changelings = s->owed = s->queen_bits = 0;
		s->inside = 0;
	}
}

/* G14: bars are whole; highest value first, dealt round a random seat order. */
static void deal_bars(gems_game *g, const int *who, int n, game_events *out)
{
	int per = g->n_floor_bars / n;
	if (per == 0)
		return;
	int *b = g->floor_bars, nb = g->n_floor_bars;
	for (int i = 1; i < nb; i++) { /* descending */
		int v = b[i], j = i;
		for (; j > 0 && b[j - 1] < v; j--)
			b[j] = b[j - 1];
		b[j] = v;
	}
	int order[GAME_MAX_SEATS];
	memcpy(order, who, (size_t)n * sizeof *who);
	rng_shuffle(&g->rules, order, (uint32_t)n, sizeof *order);
	int dealt = per * n;
	for (int k = 0; k < dealt; k++) {
		gems_seat *s = &g->seat[order[k % n]];
		s->chest += b[k];
		s->bars++;
		s->t.bars_looted++;
		s->t.bars_sold_for += b[k];
		g->bars_undiscovered--; /* G5: carried out */
		gems_emit(out, GEMS_EV_LEAVE_BAR, order[k % n], b[k], 0, 0);
	}
	memmove(b, b + dealt, (size_t)(nb - dealt) * sizeof *b);
	g->n_floor_bars = nb - dealt;
}

/* Coin-room remainders go only to leavers who came through that room (G15). */
static void share_coins(gems_game *g, uint32_t leavers, int *coins)
{
	for (int c = 0; c < GEMS_COIN_ROOMS; c++) {
		if (!g->coin_rem[c])
			continue;
		uint32_t m = 0;
		for (int i = 0; i < g->seats; i++)
			if ((leavers >> i & 1) && (g->seat[i].coin_mask >> c & 1))
				m |= 1u << i;
		int cnt = gems_popcount(m);
		if (!cnt)
			continue;
		int each = g->coin_rem[c] / cnt;
		g->coin_rem[c] -= each * cnt;
		for (int i = 0; i < g->seats; i++)
			if (m >> i & 1)
				coins[i] += each;
	}
}

/* Leaving together: floor gems shared equally (the rest stays), bars, coin
 * remainders; everything goes to the chest. */
static void leave_group(gems_game *g, uint32_t leavers, bool voluntary, game_events *out)
{
	if (!leavers)
		return;
	int who[GAME_MAX_SEATS], n = 0, coins[GAME_MAX_SEATS] = {0};
	for (int i = 0; i < g->seats; i++)
		if (leavers >> i & 1)
			who[n++] = i;
	int share = g->floor_gems / n;
	g->floor_gems -= share * n;
	share_coins(g, leavers, coins);
	deal_bars(g, who, n, out);
	for (int k = 0; k < n; k++) {
		int i = who[k];
		gems_seat *s = &g->seat[i];
		gems_emit(out, GEMS_EV_LEAVE, i, s->hand, share, coins[i]);
		s->chest += s->hand + share + coins[i];
		s->t.gems_looted += s->hand + share;
		s->t.coins_looted += coins[i];
		s->hand = 0;
		s->inside = 0;
		s->queens = s->changelings = s->owed = s->queen_bits = 0; /* G22, G38 */
		if (voluntary && g->cur + 1 == g->lair_at)
			s->t.psychic_leaves++;
		if (voluntary && n == 1)
			s->t.lone_leaves++;
	}
}

static void end_dungeon(gems_game *g, int end, game_events *out)
{
	int d = g->dungeon;
	g->dungeon_depth[d] = g->depth;
	g->dungeon_end[d] = (uint8_t)end;
	for (int i = 0; i < g->seats; i++) {
		gems_tally *t = &g->seat[i].t;
		int depth = g->seat[i].depth;
		if (t->min_depth < 0 || depth < t->min_depth)
			t->min_depth = depth;
		if (depth > t->max_depth)
			t->max_depth = depth;
		g->seat[i].inside = 0;
	}
	g->ledger.floor_lost += g->floor_gems;
	g->floor_gems = 0;
	g->n_floor_bars = 0; /* G5: bars left behind count as undiscovered again */
	g->pending = 0;
	gems_emit(out, GEMS_EV_DUNGEON_END, -1, d + 1, end, g->depth);
	if (!g->adv_known)
		gems_emit(out, GEMS_EV_REVEAL_ADV, -1, g->adv[d], 0, 0);
	g->adv_known = 1;
	if (end != GEMS_END_ALL_LEFT)
		return;
	/* G24: after a voluntary full exit the rest of the list is shown,
	 * up to and including the lair. */
	int last = g->lair_at >= 0 ? g->lair_at : g->n_rooms - 1;
	for (int i = g->cur + 1; i <= last; i++) {
		gems_room r = g->rooms[i];
		int kind = gems_met_kind(r);
		int arg = kind == GEMS_ROOM_GEM || kind == GEMS_ROOM_ADV ? r.arg : 0;
		gems_emit(out, GEMS_EV_REVEAL_ROOM, -1, i + 1, kind, arg);
	}
}

void gems_open_decision(gems_game *g, int phase)
{
	g->phase = phase;
	g->pending = inside_mask(g);
	g->inside = gems_popcount(g->pending);
	gems_odds_update(g);
}

/* Enters the next room; returns -1 when a decision is pending, else how the
 * dungeon ended. */
static int enter_room(gems_game *g, game_events *out)
{
	g->cur++;
	if (g->cur >= g->n_rooms) { /* G9: the list ran out, all leave safely */
		leave_group(g, inside_mask(g), false, out);
		return GEMS_END_EXHAUSTED;
	}
	g->depth++;
	for (int i = 0; i < g->seats; i++)
		g->seat[i].depth += g->seat[i].inside;
	gems_room r = g->rooms[g->cur];
	gems_unseen_remove(g, r);
	int kind = gems_met_kind(r);
	gems_emit(out, GEMS_EV_ROOM, -1, g->depth, kind,
		  kind == GEMS_ROOM_GEM || kind == GEMS_ROOM_ADV ? r.arg : 0);
	if (g->depth % 5 == 0) /* G23 */
		gems_emit(out, GEMS_EV_BATS, -1, g->depth, 0, 0);
	switch (kind) {
	case GEMS_ROOM_GEM:
		split_gems(g, gems_room_gems(g->bravery, r.arg), out);
		break;
	case GEMS_ROOM_BAR:
		found_bar(g, out);
		break;
	case GEMS_ROOM_WARNING:
		warning(g, r.arg, out);
		break;
	case GEMS_ROOM_DEAD:
		dead_spider(g, out);
		break;
	case GEMS_ROOM_LAIR:
		scare_out(g, out);
		return GEMS_END_LAIR;
	case GEMS_ROOM_ADV:
		g->adv_known = 1;
		g->adv_met++;
		gems_emit(out, GEMS_EV_ADVENTURE, -1, r.arg, g->adv_met, 0);
		gems_adv_enter(g, r.arg, g->adv_met, out);
		break;
	}
	if (g->people_carried)
		gems_people_effect(g, out);
	gems_open_decision(g, GEMS_PH_DECIDE);
	return -1;
}

/* After a dungeon: the next one, or the end of the game. */
static bool next_dungeon(gems_game *g, game_events *out)
{
	if (g->dungeon + 1 >= GEMS_DUNGEONS) {
		gems_finish(g, out);
		return false;
	}
	g->dungeon++;
	gems_begin_dungeon(g, NULL, 0, out);
	return true;
}

void gems_advance(gems_game *g, game_events *out)
{
	for (;;) {
		int end = enter_room(g, out);
		if (end < 0)
			return;
		end_dungeon(g, end, out);
		if (!next_dungeon(g, out))
			return;
	}
}

uint32_t gems_options_mask(const gems_game *g, int seat) { return gems_options_of(g, seat); }

bool gems_is_legal(const gems_game *g, int seat, game_choice c)
{
	return c >= 0 && c < GEMS_N_CHOICES && (gems_options_of(g, seat) >> c & 1);
}

static int devil_rooms(game_choice c)
{
	return c == GEMS_C_DEVIL3 ? 3 : c == GEMS_C_DEVIL4 ? 4 : c == GEMS_C_DEVIL5 ? 5 : 0;
}

/* G21: an offer of k adds k stays owed; staying pays one. */
static void pay_stays(gems_game *g, const game_choice *choices, uint32_t stayers)
{
	for (int i = 0; i < g->seats; i++) {
		if (!(stayers >> i & 1))
			continue;
		int owed = g->seat[i].owed + devil_rooms(choices[i]);
		g->seat[i].owed = (uint8_t)(owed > 0 ? owed - 1 : 0);
	}
}

static void finish_decision(gems_game *g, uint32_t leavers, uint32_t stayers, bool sphinx,
			    game_events *out)
{
	int n = gems_popcount(leavers);
	leave_group(g, leavers, true, out);
	if (gems_bravery_drop(g->seats, n)) { /* G13: from the next room on */
		g->bravery--;
		gems_emit(out, GEMS_EV_BRAVERY, -1, g->bravery, 0, 0);
	}
	if (!stayers) {
		end_dungeon(g, GEMS_END_ALL_LEFT, out);
		if (!next_dungeon(g, out))
			return;
	} else if (sphinx) {
		gems_sphinx_coins(g, stayers, out);
		gems_open_decision(g, GEMS_PH_COIN);
		return;
	}
	gems_advance(g, out);
}

static int validate(const gems_game *g, const game_choice *choices, char *err, size_t errlen)
{
	if (g->phase == GEMS_PH_OVER) {
		snprintf(err, errlen, "the game is over");
		return GAME_ERR_OVER;
	}
	for (int i = 0; i < g->seats; i++) {
		int rc = game_choice_expected(g->pending, i, choices[i], err, errlen);
		if (rc != GAME_OK)
			return rc;
		if (g->pending >> i & 1 && !gems_is_legal(g, i, choices[i])) {
			snprintf(err, errlen, "seat %d: '%s' is not a legal choice now", i,
				 gems_choice_key(choices[i]));
			return GAME_ERR_ILLEGAL;
		}
	}
	return GAME_OK;
}

int gems_apply(gems_game *g, const game_choice *choices, game_events *out, char *err,
	       size_t errlen)
{
	int rc = validate(g, choices, err, errlen);
	if (rc != GAME_OK)
		return rc;
	gems_resolve(g, choices, out);
	return GAME_OK;
}

void gems_resolve(gems_game *g, const game_choice *choices, game_events *out)
{
	uint32_t leavers = 0, stayers = 0;
	for (int i = 0; i < g->seats; i++) {
		if (!(g->pending >> i & 1))
			continue;
		gems_emit(out, GEMS_EV_CHOICE, i, choices[i], 0, 0);
		if (choices[i] == GEMS_C_LEAVE)
			leavers |= 1u << i;
		else
			stayers |= 1u << i;
	}
	g->pending = 0;
	pay_stays(g, choices, stayers);
	bool sphinx = false;
	if (g->phase == GEMS_PH_DECIDE && g->rooms[g->cur].kind == GEMS_ROOM_ADV) {
		int adv = g->rooms[g->cur].arg;
		gems_adv_resolve(g, adv, g->adv_met, choices, stayers, out);
		sphinx = adv == GEMS_ADV_SPHINX;
	}
	finish_decision(g, leavers, stayers, sphinx, out);
	g->decisions++;
}
