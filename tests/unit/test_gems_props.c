/*
 * test_gems_props.c — properties over many seeded games, with random legal
 * choices and with the AI: gems are conserved (the ledger balances after
 * every decision and every chest is explained), every game ends, the same
 * seed and choices replay to the identical state, an illegal choice is
 * rejected with a reason and changes nothing, and no view or event shows a
 * hidden field (permuting the unseen rooms never changes a view).
 */
#include <stdlib.h>
#include <string.h>

#include "../../server/games/gems/gems_int.h"
#include "../../server/games/gems/gems_kind.h"
#include "../test.h"

#define N_GAMES 10000
#define MAX_STEPS 2000

static bool ledger_balances(const gems_game *g)
{
	const gems_ledger *l = &g->ledger;
	int64_t held = g->floor_gems + l->floor_lost + l->spider + l->banker + l->monte + l->moon +
		       l->changeling + l->ferryman;
	for (int i = 0; i < g->seats; i++)
		held += g->seat[i].hand + g->seat[i].t.gems_looted;
	return held == l->found + l->granted;
}

static bool chests_explained(const gems_game *g)
{
	for (int i = 0; i < g->seats; i++) {
		const gems_tally *t = &g->seat[i].t;
		if (g->seat[i].chest != t->gems_looted + t->bars_sold_for + t->coins_looted +
						t->bank_cash + t->devil_cash)
			return false;
		if (g->seat[i].hand < 0)
			return false;
	}
	return true;
}

static game_choice random_legal(const gems_game *g, int seat, rng *r)
{
	uint32_t m = gems_options_mask(g, seat);
	int n = __builtin_popcount(m), k = (int)rng_below(r, (uint32_t)n);
	while (k--)
		m &= m - 1;
	return __builtin_ctz(m);
}

static void random_choices(const gems_game *g, rng *r, game_choice *ch)
{
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		ch[i] = i < g->seats && (g->pending >> i & 1) ? random_legal(g, i, r)
							       : GAME_NO_CHOICE;
}

static void ai_choices(gems_game *g, game_choice *ch)
{
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		ch[i] = i < g->seats && (g->pending >> i & 1) ? gems_ai_choose(g, i)
							       : GAME_NO_CHOICE;
}

/* Plays one game; random choices when r != NULL, else the AI. Records the
 * choice sets into log (MAX_STEPS × 9) and returns the number of steps, or
 * -1 on a broken property. */
static int play_game(gems_game *g, int seats, uint64_t seed, rng *r, game_choice *log)
{
	if (gems_init(g, seats, seed, NULL, NULL, NULL) != GAME_OK)
		return -1;
	int steps = 0;
	char err[128];
	while (!gems_over(g)) {
		if (steps >= MAX_STEPS || !g->pending)
			return -1;
		game_choice *ch = log ? log + steps * GAME_MAX_SEATS : (game_choice[9]){0};
		for (int i = 0; i < GAME_MAX_SEATS; i++)
			ch[i] = i < seats && (g->pending >> i & 1)
					? (r ? random_legal(g, i, r) : gems_ai_choose(g, i))
					: GAME_NO_CHOICE;
		if (gems_apply(g, ch, NULL, err, sizeof err) != GAME_OK)
			return -1;
		if (!ledger_balances(g) || !chests_explained(g))
			return -1;
		steps++;
	}
	return steps;
}

TEST(gems_property_random_games_conserve_end_and_replay)
{
	game_choice *log = malloc(sizeof(game_choice) * MAX_STEPS * GAME_MAX_SEATS);
	REQUIRE(log != NULL);
	int bad = 0, replays_bad = 0;
	for (int n = 0; n < N_GAMES; n++) {
		int seats = 1 + n % 9;
		rng r;
		rng_seed(&r, (uint64_t)n, 77);
		gems_game g;
		int steps = play_game(&g, seats, 1000 + (uint64_t)n, &r, log);
		if (steps < 0) {
			bad++;
			continue;
		}
		if (n % 10 != 0)
			continue;
		/* replay the recorded choices */
		gems_game h;
		char err[64];
		gems_init(&h, seats, 1000 + (uint64_t)n, NULL, NULL, NULL);
		for (int s = 0; s < steps; s++)
			if (gems_apply(&h, log + s * GAME_MAX_SEATS, NULL, err, sizeof err) !=
			    GAME_OK)
				break;
		replays_bad += memcmp(&g, &h, sizeof g) != 0;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(replays_bad, 0);
	free(log);
}

TEST(gems_property_ai_games_conserve_and_end)
{
	int bad = 0, lairs = 0, all_left = 0;
	for (int n = 0; n < N_GAMES; n++) {
		gems_game g;
		if (play_game(&g, 1 + n % 9, 5000 + (uint64_t)n, NULL, NULL) < 0) {
			bad++;
			continue;
		}
		for (int d = 0; d < GEMS_DUNGEONS; d++) {
			lairs += g.dungeon_end[d] == GEMS_END_LAIR;
			all_left += g.dungeon_end[d] == GEMS_END_ALL_LEFT;
		}
	}
	CHECK_EQ(bad, 0);
	CHECK(lairs > 0 && all_left > 0); /* both endings happen */
}

TEST(gems_property_ai_same_seed_same_game)
{
	for (uint64_t s = 0; s < 200; s++) {
		gems_game a, b;
		game_events ea = {0}, eb = {0};
		gems_init(&a, 5, s, NULL, NULL, &ea);
		gems_play_ai(&a, &ea);
		gems_init(&b, 5, s, NULL, NULL, &eb);
		gems_play_ai(&b, &eb);
		CHECK(memcmp(&a, &b, sizeof a) == 0);
		CHECK(ea.len == eb.len && memcmp(ea.v, eb.v, ea.len * sizeof *ea.v) == 0);
		game_events_free(&ea);
		game_events_free(&eb);
	}
}

/* An illegal choice set: a wrong code for a pending seat, a missing one, or
 * one for a seat that is not asked. */
static int try_illegal(gems_game *g, rng *r)
{
	game_choice ch[GAME_MAX_SEATS];
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		ch[i] = i < g->seats && (g->pending >> i & 1) ? random_legal(g, i, r)
							       : GAME_NO_CHOICE;
	int kind = (int)rng_below(r, 3), seat = __builtin_ctz(g->pending);
	int want = GAME_ERR_ILLEGAL;
	if (kind == 0) {
		uint32_t m = gems_options_mask(g, seat);
		game_choice c = (game_choice)rng_below(r, GEMS_N_CHOICES + 3);
		if (c < GEMS_N_CHOICES && (m >> c & 1))
			c = GEMS_N_CHOICES + 7;
		ch[seat] = c;
	} else if (kind == 1) {
		ch[seat] = GAME_NO_CHOICE;
		want = GAME_ERR_MISSING;
	} else {
		int other = -1;
		for (int i = 0; i < g->seats; i++)
			if (!(g->pending >> i & 1))
				other = i;
		if (other < 0)
			return -2; /* everyone is asked: nothing to test here */
		ch[other] = GEMS_C_STAY;
		want = GAME_ERR_NOT_PENDING;
	}
	gems_game before = *g;
	char err[128] = "";
	int rc = gems_apply(g, ch, NULL, err, sizeof err);
	if (rc != want || err[0] == 0 || memcmp(&before, g, sizeof *g) != 0)
		return -1;
	return 0;
}

TEST(gems_property_illegal_choices_rejected_and_change_nothing)
{
	int bad = 0, tried = 0;
	for (int n = 0; n < 2000; n++) {
		rng r;
		rng_seed(&r, (uint64_t)n, 99);
		gems_game g;
		gems_init(&g, 1 + n % 9, (uint64_t)n, NULL, NULL, NULL);
		char err[64];
		while (!gems_over(&g)) {
			int rc = try_illegal(&g, &r);
			bad += rc == -1;
			tried += rc == 0;
			game_choice ch[GAME_MAX_SEATS];
			random_choices(&g, &r, ch);
			if (gems_apply(&g, ch, NULL, err, sizeof err) != GAME_OK) {
				bad++;
				break;
			}
		}
		/* and once over */
		game_choice none[GAME_MAX_SEATS] = {-1, -1, -1, -1, -1, -1, -1, -1, -1};
		bad += gems_apply(&g, none, NULL, err, sizeof err) != GAME_ERR_OVER;
	}
	CHECK_EQ(bad, 0);
	CHECK(tried > 10000);
}

static char *view_string(const gems_game *g, int viewer)
{
	cJSON *v = gems_view_json(g, viewer);
	char *s = cJSON_PrintUnformatted(v);
	cJSON_Delete(v);
	return s;
}

static bool has_hidden_key(const char *s)
{
	static const char *const hidden[] = {"\"lair_at\"", "\"layout\"", "\"n_rooms\"",
					     "\"ahead\"", "\"attention\"", "\"spider\":"};
	for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++)
		if (strstr(s, hidden[i]))
			return true;
	return false;
}

/* The unseen rooms in another order: the views must not change. */
static void permute_unseen(gems_game *g, rng *r)
{
	int first = g->cur + 1, n = g->n_rooms - first;
	for (int i = n; i > 1; i--) {
		int j = (int)rng_below(r, (uint32_t)i);
		gems_room t = g->rooms[first + j];
		g->rooms[first + j] = g->rooms[first + i - 1];
		g->rooms[first + i - 1] = t;
	}
	gems_odds_update(g);
}

TEST(gems_property_views_and_events_hide_what_is_hidden)
{
	int leaks = 0, keys = 0, checked = 0, adv_used_shown = 0;
	game_events evs = {0};
	for (int n = 0; n < 120; n++) {
		rng r;
		rng_seed(&r, (uint64_t)n, 5);
		gems_game g;
		game_events_clear(&evs);
		gems_init(&g, 2 + n % 6, 7000 + (uint64_t)n, NULL, NULL, &evs);
		char err[64];
		while (!gems_over(&g)) {
			for (size_t k = 0; k < evs.len; k++)
				for (int viewer = -1; viewer < 2; viewer++) {
					cJSON *e = gems_event_to_json(&evs.v[k], viewer);
					if (evs.v[k].type == GEMS_EV_ADV_USED)
						adv_used_shown += e != NULL;
					cJSON_Delete(e);
				}
			gems_game other = g;
			permute_unseen(&other, &r);
			for (int viewer = -1; viewer < 2; viewer++) {
				char *a = view_string(&g, viewer), *b = view_string(&other, viewer);
				leaks += strcmp(a, b) != 0;
				keys += has_hidden_key(a);
				checked++;
				free(a);
				free(b);
			}
			game_choice ch[GAME_MAX_SEATS];
			if (n % 2)
				random_choices(&g, &r, ch);
			else
				ai_choices(&g, ch);
			game_events_clear(&evs);
			REQUIRE(gems_apply(&g, ch, &evs, err, sizeof err) == GAME_OK);
		}
	}
	game_events_free(&evs);
	CHECK_EQ(leaks, 0);
	CHECK_EQ(keys, 0);
	CHECK_EQ(adv_used_shown, 0);
	CHECK(checked > 1000);
}

/* The same checks over 10,000 games, at one random decision of each (a full
 * check of every decision is above, on fewer games, to stay fast under ASan). */
TEST(gems_property_views_hide_unseen_rooms_over_10000_games)
{
	int leaks = 0, keys = 0, checked = 0;
	game_events evs = {0};
	for (int n = 0; n < N_GAMES; n++) {
		rng r;
		rng_seed(&r, (uint64_t)n, 6);
		gems_game g;
		gems_init(&g, 1 + n % 9, 90000 + (uint64_t)n, NULL, NULL, NULL);
		int when = (int)rng_below(&r, 40), step = 0;
		char err[64];
		while (!gems_over(&g)) {
			game_choice ch[GAME_MAX_SEATS];
			if (n % 2)
				random_choices(&g, &r, ch);
			else
				ai_choices(&g, ch);
			bool look = step++ == when;
			game_events_clear(&evs);
			REQUIRE(gems_apply(&g, ch, look ? &evs : NULL, err, sizeof err) == GAME_OK);
			if (!look || gems_over(&g))
				continue;
			int viewer = (int)rng_below(&r, (uint32_t)g.seats + 1) - 1;
			gems_game other = g;
			permute_unseen(&other, &r);
			char *a = view_string(&g, viewer), *b = view_string(&other, viewer);
			leaks += strcmp(a, b) != 0;
			keys += has_hidden_key(a);
			free(a);
			free(b);
			for (size_t k = 0; k < evs.len; k++) {
				cJSON *e = gems_event_to_json(&evs.v[k], viewer);
				leaks += (evs.v[k].type == GEMS_EV_ADV_USED) != (e == NULL);
				cJSON_Delete(e);
			}
			checked++;
		}
	}
	game_events_free(&evs);
	CHECK_EQ(leaks, 0);
	CHECK_EQ(keys, 0);
	CHECK(checked > N_GAMES / 2);
}

TEST(gems_view_monte_sends_swaps_not_the_layout)
{
	gems_room r[3] = {{.kind = GEMS_ROOM_ADV, .arg = GEMS_ADV_MONTE},
			  {.kind = GEMS_ROOM_GEM, .arg = 0},
			  {.kind = GEMS_ROOM_GEM, .arg = 1}};
	gems_opts o = {.fixed_adventures = true, .adv = {GEMS_ADV_MONTE, 0, 1, 2, 4}};
	int differs = 0;
	char *first = NULL;
	for (uint64_t s = 0; s < 20; s++) {
		gems_game g;
		REQUIRE(gems_init_fixed(&g, 2, s, NULL, &o, r, 3, NULL) == GAME_OK);
		cJSON *v = gems_view_json(&g, 0);
		cJSON *room = cJSON_GetObjectItem(v, "room");
		cJSON *cards = cJSON_GetObjectItem(room, "cards");
		REQUIRE(cJSON_GetArraySize(cards) == 3);
		/* always the face-up order before the shuffle */
		CHECK_EQ(cJSON_GetArrayItem(cards, 0)->valueint, 2);
		CHECK_EQ(cJSON_GetArrayItem(cards, 1)->valueint, 1);
		CHECK_EQ(cJSON_GetArrayItem(cards, 2)->valueint, 0);
		CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(room, "swaps")), GEMS_MONTE_SWAPS);
		char *sw = cJSON_PrintUnformatted(cJSON_GetObjectItem(room, "swaps"));
		if (!first)
			first = sw;
		else {
			differs += strcmp(first, sw) != 0;
			free(sw);
		}
		cJSON_Delete(v);
	}
	free(first);
	CHECK(differs > 0);
}

TEST(gems_G22_little_people_type_hidden_until_carried_then_public)
{
	gems_room r[3] = {{.kind = GEMS_ROOM_ADV, .arg = GEMS_ADV_PEOPLE},
			  {.kind = GEMS_ROOM_GEM, .arg = 0},
			  {.kind = GEMS_ROOM_GEM, .arg = 1}};
	gems_opts o = {.fixed_adventures = true, .adv = {GEMS_ADV_PEOPLE, 0, 1, 2, 4}};
	gems_game g;
	REQUIRE(gems_init_fixed(&g, 2, 3, NULL, &o, r, 3, NULL) == GAME_OK);
	/* before the choice the state holds no type at all: two seeds whose
	 * rules stream differs show the same views */
	char *a = view_string(&g, 0);
	CHECK(strstr(a, "queen\"") == NULL && strstr(a, "changeling\"") == NULL);
	free(a);
	game_events evs = {0};
	game_choice ch[GAME_MAX_SEATS] = {GEMS_C_CARRY, GEMS_C_STAY, -1, -1, -1, -1, -1, -1, -1};
	char err[64];
	REQUIRE(gems_apply(&g, ch, &evs, err, sizeof err) == GAME_OK);
	/* once carried, every viewer (the other seat and spectators too) sees it */
	int seen = 0;
	for (size_t k = 0; k < evs.len; k++)
		if (evs.v[k].type == GEMS_EV_CARRY)
			for (int viewer = -1; viewer < 2; viewer++) {
				cJSON *e = gems_event_to_json(&evs.v[k], viewer);
				cJSON *people = cJSON_GetObjectItem(e, "people");
				const char *p = cJSON_GetStringValue(people);
				seen += p && (!strcmp(p, "queens") || !strcmp(p, "changelings"));
				cJSON_Delete(e);
			}
	CHECK_EQ(seen, 3);
	cJSON *v = gems_view_json(&g, 1);
	cJSON *p0 = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "players"), 0);
	CHECK_EQ(cJSON_GetObjectItem(p0, "queens")->valueint +
			 cJSON_GetObjectItem(p0, "changelings")->valueint,
		 1);
	cJSON_Delete(v);
	game_events_free(&evs);
}
