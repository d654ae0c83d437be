/*
 * bench_gems.c — full 5-seat all-AI gems games per second on one core, on
 * the native API into caller-owned memory (the simulator's path), then the
 * same with every event recorded, and through the game_kind vtable (the
 * server's path, JSON left out). Prints "gems: N games/s (5 seats, AI)",
 * measured in this thread's CPU time (one core), the wall-clock rate, and
 * the headline as "figure gems_games_per_s" (bench.h) with the load average.
 *
 *   bench_gems              the figures (about 5 s)
 *   bench_gems --profile N  N games on the native path and nothing else: for
 *                           valgrind --tool=callgrind (instructions are
 *                           repeatable on a shared machine, time is not)
 *
 * Where the time goes. Measured with
 *   make BUILD=build-prof OPT="-O3 -march=x86-64-v3 -g -DNDEBUG" build-prof/bench/bench_gems
 *   valgrind --tool=callgrind build-prof/bench/bench_gems --profile 5000
 * (x86-64-v3: valgrind cannot run AVX-512; the counts are per game, a game
 * being ~47 decisions, ~186 AI choices, 5 dungeons built; `perf record -e
 * cpu-clock` gives the same ranking by time).
 *
 * Before tuning: 114,500 instructions a game, 90,100 games/s (load 9 on the
 * 2-core machine). Self cost: gems_ai_choose 17% (224 instructions a choice:
 * a generator seeded for every choice, through out-of-line rng calls:
 * rng_below 6%, splitmix 3%, rng_seed 1%), gems_apply 15% (validating the
 * AI's own choices again), gems_advance 7%, gems_odds_update 6% (a sum over
 * the unseen gem levels, 1/sqrt(inside) and two divisions per decision),
 * gems_room_gems 6% (called per level for that sum), gems_options_mask 5%,
 * leave_group 4% (walked the seats when nobody left), gems_take 3% (six coin
 * rooms tested one by one), gems_people_effect 3% (every room, every seat),
 * dungeon building 9% (the unseen count over the shuffled list: a switch
 * that mispredicts; by time the largest single item, 6.5%).
 *
 * After: 76,700 instructions a game (-33%; the command above counts 78,000
 * with the process start), 125,200 games/s at load 13
 * (111,100 at load 9), same results: tests/unit/test_gems_pin.c pins every
 * AI choice, event, final state and JSON of thousands of seeded games, and
 * held from the first change to the last. What changed: the rng draws are
 * inline (common/rng.h); the AI seeds its per-decision generator only when
 * it draws, and a lone stay option needs no draw (a draw below 1 is 0);
 * gems_play_ai resolves without re-validating; the unseen rooms are counted
 * on the set before its shuffle and the unseen gem sum is kept by
 * subtraction; 1/sqrt(inside) is recomputed only when someone leaves; the
 * gem table, bar formulas and options mask are inline; the people effect
 * runs only in a dungeon where someone carried people. What is left, by
 * inclusive cost: gems_ai_choose 33% (137 a choice: the leave checks, the
 * generator when drawn), gems_advance 36% of which building dungeons 14%
 * (the shuffle's 40 bounded draws, move-up, the unseen count) and
 * gems_odds_update 13% (its divisions are the rule's own).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/rng.h"
#include "../../common/util.h"
#include "../../server/games/gems/gems.h"
#include "bench.h"

#define GAMES 200000

static double wall_rate;

static double run_native(uint64_t games, game_events *evs, double *rooms, double *events)
{
	gems_shared sh;
	gems_shared_init(&sh);
	gems_game g;
	uint64_t t0 = bench_cpu_ns(), w0 = now_ns(), depth = 0, nev = 0;
	for (uint64_t i = 0; i < games; i++) {
		uint64_t x = 42 + i;
		if (evs)
			game_events_clear(evs);
		gems_init(&g, 5, rng_splitmix64(&x), &sh, NULL, evs);
		gems_play_ai(&g, evs);
		gems_shared_fold_game(&sh, &g);
		for (int d = 0; d < GEMS_DUNGEONS; d++)
			depth += (uint64_t)g.dungeon_depth[d];
		nev += evs ? evs->len : 0;
	}
	double secs = (double)(bench_cpu_ns() - t0) / 1e9;
	wall_rate = (double)games / ((double)(now_ns() - w0) / 1e9);
	*rooms = (double)depth / (double)games;
	*events = (double)nev / (double)games;
	return (double)games / secs;
}

int main(int argc, char **argv)
{
	double rooms, events;
	if (argc == 3 && strcmp(argv[1], "--profile") == 0) {
		run_native(strtoull(argv[2], NULL, 10), NULL, &rooms, &events);
		return 0;
	}
	run_native(20000, NULL, &rooms, &events); /* warm up */
	double fast = run_native(GAMES, NULL, &rooms, &events);
	printf("gems: %.0f games/s (5 seats, AI)\n", fast);
	printf("gems: %.0f games/s by the wall clock (lower when other processes share the core)\n",
	       wall_rate);
	printf("gems: %.2f rooms entered per game (5 dungeons)\n", rooms);
	game_events evs = {0};
	double with_events = run_native(GAMES / 2, &evs, &rooms, &events);
	printf("gems: %.0f games/s with every event recorded (%.0f events per game)\n",
	       with_events, events);
	game_events_free(&evs);
	printf("gems: %.0f games/s through the game_kind vtable (create/apply/ai/destroy)\n",
	       bench_vtable_games(&gems_kind, 5, GAMES / 4));
	printf("gems: sizeof(gems_game) = %zu bytes, no allocation per game\n", sizeof(gems_game));
	printf("gems: target 100000 games/s per core (on a quiet machine): %s\n",
	       fast >= 100000 ? "met" : "NOT MET");
	bench_figure("gems_games_per_s", (double)(int64_t)fast, "games/s");
	return 0;
}
