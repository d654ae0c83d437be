/*
 * test_gems_pin.c — the gems engine's behaviour pinned as hashes, so that
 * work on its speed cannot change a single result: every AI choice, every
 * event, every final state, statistic and achievement of thousands of seeded
 * games, and the views and events the server renders from them, hash to the
 * values the engine gave before it was tuned (tests/bench/bench_gems.c says
 * how it was tuned). A hash that moves means a game changed: find out why
 * before touching the pin. Three runs:
 *   - 10,000 five-seat all-AI games on the simulator's path (gems_play_ai
 *     without events), the server-wide shared state carried from game to
 *     game as the simulator does;
 *   - 2,700 games of 1–9 seats played step by step, hashing each decision's
 *     AI choices and every event, each game checked against the fast path;
 *   - 90 games through the game_kind vtable, hashing the JSON the server
 *     sends: options, views for a seat and a spectator, events, result.
 */
#include <stdlib.h>
#include <string.h>

#include "../../server/games/gems/gems_int.h"
#include "../test.h"
#include "pin_hash.h"

/* Everything a finished game leaves: per seat its money, tallies,
 * statistics and achievements; the dungeons; the winners; the ledger. */
static void mix_final(uint64_t *h, const gems_game *g)
{
	mix(h, g->decisions);
	mix(h, g->phase);
	for (int d = 0; d < GEMS_DUNGEONS; d++) {
		mix(h, g->adv[d]);
		mix(h, g->dungeon_depth[d]);
		mix(h, g->dungeon_end[d]);
	}
	mix(h, g->spiders_killed);
	mix(h, g->lairs);
	mix(h, g->win_score);
	mix(h, g->deepest);
	mix(h, g->winners);
	const int64_t *led = &g->ledger.found;
	for (size_t i = 0; i < sizeof g->ledger / sizeof *led; i++)
		mix(h, led[i]);
	for (int s = 0; s < g->seats; s++) {
		const gems_seat *st = &g->seat[s];
		mix(h, st->hand);
		mix(h, st->chest);
		mix(h, st->bars);
		const int32_t *t = &st->t.gems_looted;
		for (size_t i = 0; i < sizeof st->t / sizeof *t; i++)
			mix(h, t[i]);
		int64_t v[GEMS_N_STATS];
		gems_stats(g, s, (1u << g->seats) - 1, v);
		for (int i = 0; i < GEMS_N_STATS; i++)
			mix(h, v[i]);
		mix(h, gems_achievements(g, s, (1u << g->seats) - 1));
	}
}

static void mix_shared(uint64_t *h, const gems_shared *sh)
{
	for (int i = 0; i < GEMS_N_ADV; i++)
		mix(h, sh->uses[i]);
	mix(h, sh->best_score);
	mix(h, sh->deepest);
}

static uint64_t fast_path_hash(int games)
{
	uint64_t h = FNV0;
	gems_shared sh;
	gems_shared_init(&sh);
	for (int i = 0; i < games; i++) {
		uint64_t x = 42 + (uint64_t)i;
		gems_game g;
		gems_init(&g, 5, rng_splitmix64(&x), &sh, NULL, NULL);
		gems_play_ai(&g, NULL);
		gems_shared_fold_game(&sh, &g);
		mix_final(&h, &g);
	}
	mix_shared(&h, &sh);
	return h;
}

TEST(gems_pin_10000_ai_games_fast_path)
{
	CHECK_HASH(fast_path_hash(10000), 0x26623cfa358f037dULL);
}

/* Step by step: the AI's choice for each pending seat, then every event;
 * the finished game must equal the one gems_play_ai makes from the seed. */
TEST(gems_pin_ai_choices_and_events_1_to_9_seats)
{
	uint64_t h = FNV0;
	game_events evs = {0};
	int differ = 0;
	for (int n = 0; n < 2700; n++) {
		int seats = 1 + n % 9;
		uint64_t seed = 7000 + (uint64_t)n;
		gems_game g, fast;
		game_events_clear(&evs);
		gems_init(&g, seats, seed, NULL, NULL, &evs);
		while (!gems_over(&g)) {
			game_choice ch[GAME_MAX_SEATS];
			for (int s = 0; s < seats; s++) {
				ch[s] = g.pending >> s & 1 ? gems_ai_choose(&g, s) : GAME_NO_CHOICE;
				mix(&h, ch[s]);
			}
			char err[128];
			if (gems_apply(&g, ch, &evs, err, sizeof err) != GAME_OK) {
				differ++;
				break;
			}
		}
		for (size_t k = 0; k < evs.len; k++) {
			const game_event *e = &evs.v[k];
			mix(&h, (int64_t)e->type << 16 | (uint16_t)e->seat);
			mix(&h, e->a);
			mix(&h, e->b);
			mix(&h, e->c);
		}
		mix_final(&h, &g);
		gems_init(&fast, seats, seed, NULL, NULL, NULL);
		gems_play_ai(&fast, NULL);
		uint64_t a = 0, b = 0;
		mix_final(&a, &g);
		mix_final(&b, &fast);
		differ += a != b;
	}
	game_events_free(&evs);
	CHECK_EQ(differ, 0);
	CHECK_HASH(h, 0x7bd9a5350682815bULL);
}

/* The server's path: what each seat and a spectator are shown. */
TEST(gems_pin_kind_json_views_events_results)
{
	const game_kind *k = &gems_kind;
	uint64_t h = FNV0;
	game_events evs = {0};
	char err[128];
	for (int n = 0; n < 90; n++) {
		int seats = 1 + n % 9;
		game_events_clear(&evs);
		game_state *st = k->create(NULL, seats, 900 + (uint64_t)n, NULL, &evs, err,
					   sizeof err);
		REQUIRE(st != NULL);
		while (!k->is_over(st))
			REQUIRE(mix_kind_decision(&h, k, st, seats, n % seats, true, &evs));
		mix_json(&h, k->result_json(st, (1u << seats) - 1));
		k->destroy(st);
	}
	game_events_free(&evs);
	/* Moved once on purpose: the views' fractions rounded to 4 decimals
	 * (G39); the two pins above, every choice and event, did not move. */
	CHECK_HASH(h, 0x2941e443eaf3ab80ULL);
}
