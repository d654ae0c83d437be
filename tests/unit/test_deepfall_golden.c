/*
 * test_deepfall_golden.c — the results of many seeded all-AI DEEPFALL games,
 * hashed and pinned: every seat's glory and statistics, the winners, the
 * rounds, the decisions, the glory of each collapse, who claimed each room,
 * and in some games every event. A change of the rules or of the bots
 * changes these hashes and re-pins them in its own commit, saying why; a
 * change meant to make the code faster must leave them exactly as they
 * are (the benchmark's speed-ups are checked against this file).
 *
 * The games are the simulator's (seat s of game i plays strategy
 * (s + i) mod 4, game i seeded with rng_derive_seed(seed, i)) at 2, 4 and
 * 7 seats, at the default config and at one that turns every optional
 * rule branch on (docs/rules/deepfall.md DF4: the config, the seed and the
 * choices reproduce a game).
 */
#include <stdio.h>
#include <string.h>

#include "../../common/rng.h"
#include "../test.h"
#include "deepfall_setup.h"
#include "pin_hash.h"

static void mix_results(uint64_t *h, const df_game *g)
{
	mix(h, g->rounds_played);
	mix(h, g->winners);
	mix(h, g->decision);
	mix(h, g->frontier);
	mix(h, g->accum);
	for (int f = 1; f <= g->cfg.floors; f++)
		mix(h, g->collapse_glory[f]);
	for (int i = 0; i < g->cfg.floors * g->cfg.rooms; i++) {
		const df_room *rm = &g->rooms[i];
		mix(h, rm->claimed);
		mix(h, rm->value);
	}
	for (int s = 0; s < g->seats; s++) {
		const df_player *pl = &g->pl[s];
		const int32_t v[] = {pl->glory,	      pl->parties,  pl->cash_outs, pl->cash_forced,
				     pl->worthy_ends, pl->taken,    pl->setbacks,  pl->claims,
				     pl->deepest,     pl->rooms_scored, pl->src[0], pl->src[1],
				     pl->src[2],      pl->n_cash_rec};
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			mix(h, v[k]);
		for (int c = 0; c < DF_NCOMPANY; c++)
			mix(h, pl->companies[c]);
		for (int k = 0; k < pl->n_cash_rec; k++) {
			mix(h, pl->cash_round[k]);
			mix(h, pl->cash_depth[k]);
		}
	}
}

/* Plays `games` games; the first `with_events` of them record their events,
 * which go into *evh. Returns the hash of the results. */
static uint64_t play_pinned(const df_config *cfg, int seats, uint64_t seed, long games,
		     long with_events, uint64_t *evh)
{
	static df_game g;
	game_events evs = {0};
	char err[160];
	uint64_t h = FNV0;
	*evh = FNV0;
	for (long i = 0; i < games; i++) {
		game_events *e = i < with_events ? &evs : NULL;
		game_events_clear(&evs);
		df_game_init(&g, cfg, seats, rng_derive_seed(seed, (uint64_t)i), e);
		while (!g.over) {
			game_choice ch[DF_MAX_SEATS];
			uint32_t p = df_pending(&g);
			for (int s = 0; s < seats; s++)
				ch[s] = p >> s & 1 ? df_ai_choose(&g, s, (int)((s + i) % DF_NSTRAT))
						   : GAME_NO_CHOICE;
			if (df_apply(&g, ch, e, err, sizeof err) != GAME_OK) {
				CHECK_MSG(0, "game %ld: %s", i, err);
				game_events_free(&evs);
				return 0;
			}
		}
		mix_results(&h, &g);
		for (size_t k = 0; e && k < evs.len; k++) {
			const game_event *ev = &evs.v[k];
			mix(evh, ev->type);
			mix(evh, ev->seat);
			mix(evh, ev->a);
			mix(evh, ev->b);
			mix(evh, ev->c);
		}
	}
	game_events_free(&evs);
	return h;
}

/* Every optional branch on: a steeper depth, surplus strength, the
 * deepest-floor dividend, press Dread, a comeback, more production, a
 * base speed and two collapses a round, held value in a Worthy End, the
 * extra rise and the collapse ramp. */
static df_config cfg_branches(void)
{
	df_config c = cfg_default();
	c.depth_coeff = 400;
	c.strength_surplus = 1;
	c.dividend_delved = 0;
	c.press_dread = 1;
	c.comeback_bp = 5000;
	c.production = 2;
	c.maw_base = 50;
	c.max_collapses = 2;
	c.worthy_held_bonus = 500;
	c.rise_extra = 250;
	c.collapse_ramp = 200;
	c.floors = 8;
	c.rooms = 5;
	return c;
}

/* DF4: the pinned games. The events of the first games and the results of
 * all of them; recording events never changes a game (the results of a run
 * with events equal those of a run without). */
TEST(deepfall_DF4_golden_games_are_pinned)
{
	df_config def = cfg_default(), br = cfg_branches();
	static const struct {
		const char *what;
		bool branches; /* cfg_branches(), else the defaults */
		int seats;
		uint64_t seed;
		long games, with_events;
		uint64_t results, events; /* the pinned hashes */
	} pins[] = {
		{"default, 4 seats", false, 4, 1, 1500, 200, 0x5b39a4b2260b1c69ull, 0x1f34fadd88514a4eull},
		{"default, 2 seats", false, 2, 2, 300, 50, 0xe1873e0136551723ull, 0xcc53e7aa5c6294e4ull},
		{"default, 7 seats", false, 7, 3, 300, 50, 0xa31cd800b89cbc54ull, 0xc49929167601b4baull},
		{"every branch, 4 seats", true, 4, 4, 500, 50, 0x9e6c2cb426eb7f3full, 0x3ddb9057d5700273ull},
	};
	for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
		const df_config *cfg = pins[i].branches ? &br : &def;
		uint64_t ev, ev0;
		uint64_t h = play_pinned(cfg, pins[i].seats, pins[i].seed, pins[i].games,
					 pins[i].with_events, &ev);
		if (i == 0) /* events change nothing */
			CHECK_EQ(play_pinned(cfg, pins[i].seats, pins[i].seed, pins[i].games, 0, &ev0), h);
		CHECK_MSG(h == pins[i].results, "%s, results: hash %#018llx, pinned %#018llx",
			  pins[i].what, (unsigned long long)h, (unsigned long long)pins[i].results);
		CHECK_MSG(ev == pins[i].events, "%s, events: hash %#018llx, pinned %#018llx",
			  pins[i].what, (unsigned long long)ev, (unsigned long long)pins[i].events);
	}
}
