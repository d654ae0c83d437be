/*
 * bench_deepfall.c — 4-seat all-AI DEEPFALL games per second on one core, by
 * this thread's CPU time (steadier than the wall clock on a shared
 * machine): on the native API reusing one df_game (the simulator's path: no
 * allocation per game; target 50,000 games/s), then with every event
 * recorded, then through the game_kind vtable (the server's path, JSON left
 * out). The strategies rotate over the seats as in `lair sim deepfall`.
 * Prints figures and the load average; asserts nothing. The games it plays
 * are pinned by tests/unit/test_deepfall_golden.c: a speed-up must leave
 * them as they are.
 *
 * Where the time goes (perf record -e cpu-clock on this loop; the
 * instructions and simulated branch misses from valgrind --tool=callgrind
 * --branch-sim=yes on a -march=x86-64-v3 build, per game):
 *
 *   before (the rules of docs/rules/deepfall.md DF56-DF57 in, no tuning):
 *   203,000 instructions, 3,150 mispredicted branches; 37,500-38,300
 *   games/s at a load average near 10. The bots' floor choice 20%
 *   (best_floor), the turn's totals 12% (called afresh by every bot step
 *   and every resolution), the claim 10%, the bots' step 7%, rolling 7%,
 *   the press rule 6% (counting the piles' faces), apply 6%, resolution
 *   6%, the Maw's reckoning and the cautious press rule 4% each.
 *
 *   after: 207,000 instructions, 2,150 mispredicted branches; 50,700-52,600
 *   games/s at load averages of 2.1-5.8 (47,700-49,900 at 4.3-8.1 on a
 *   busier afternoon: the machine's other work moves it by some 5%). The instruction count hardly moved: the time went into
 *   branches on dice outcomes, now selects (the totals, the claim, the
 *   bots' weighing of rooms), and into work done twice or for nothing: the
 *   totals are kept per party from the roll to the act (DF34), the piles'
 *   Dread and Faith summed with the piles, the floors weighed from the
 *   deepest up passing over those that cannot beat the best found (each
 *   floor's richest room kept), a standing party reckons no Maw. Now the
 *   floor choice 20%, the totals 10%, the claim 9%, rolling 8%, resolution
 *   8%, apply 7%, the bots' step 6%, the collapse, the Maw's reckoning and
 *   the cautious press rule 4% each, the press rule and shuffling 3% each:
 *   flat, no one place left to win.
 */
#include <stdio.h>
#include <time.h>

#include "../../common/rng.h"
#include "../../common/util.h"
#include "../../server/games/deepfall/deepfall.h"
#include "bench.h"

#define GAMES 200000

static double run_native(df_game *g, const df_config *cfg, long games, game_events *evs,
			 double *rounds, double *decisions, double *events)
{
	char err[128];
	uint64_t t0 = bench_cpu_ns(), nr = 0, nd = 0, nev = 0;
	for (long i = 0; i < games; i++) {
		if (evs)
			game_events_clear(evs);
		df_game_init(g, cfg, 4, rng_derive_seed(42, (uint64_t)i), evs);
		while (!g->over) {
			game_choice ch[DF_MAX_SEATS];
			uint32_t p = df_pending(g);
			for (int s = 0; s < 4; s++)
				ch[s] = p >> s & 1 ? df_ai_choose(g, s, (int)((s + i) % DF_NSTRAT))
						   : GAME_NO_CHOICE;
			df_apply(g, ch, evs, err, sizeof err);
			nd++;
		}
		nr += (uint64_t)g->rounds_played;
		nev += evs ? evs->len : 0;
	}
	double secs = (double)(bench_cpu_ns() - t0) / 1e9;
	*rounds = (double)nr / (double)games;
	*decisions = (double)nd / (double)games;
	*events = (double)nev / (double)games;
	return (double)games / secs;
}

int main(void)
{
	static df_game g;
	df_config cfg;
	df_config_defaults(&cfg);
	double rounds, decisions, events;
	run_native(&g, &cfg, 10000, NULL, &rounds, &decisions, &events); /* warm up */
	double fast = run_native(&g, &cfg, GAMES, NULL, &rounds, &decisions, &events);
	printf("deepfall: %.0f games/s per core by CPU time (4 seats, AI; target 50000) "
	       "[load %s]\n", fast, bench_loadavg());
	printf("deepfall: %.2f rounds, %.2f decisions per game\n", rounds, decisions);
	game_events evs = {0};
	double with_events = run_native(&g, &cfg, GAMES / 4, &evs, &rounds, &decisions, &events);
	printf("deepfall: %.0f games/s with every event recorded (%.0f events per game)\n",
	       with_events, events);
	game_events_free(&evs);
	printf("deepfall: %.0f games/s through the game_kind vtable (create/apply/ai/destroy)\n",
	       bench_vtable_games(&deepfall_kind, 4, GAMES / 8));
	printf("deepfall: sizeof(df_game) = %zu bytes, no allocation per game\n", sizeof(df_game));
	return 0;
}
