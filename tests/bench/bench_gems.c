/*
 * bench_gems.c — full 5-seat all-AI gems games per second on one core, on
 * the native API into caller-owned memory (the simulator's path), then the
 * same with every event recorded, and through the game_kind vtable (the
 * server's path, JSON left out). Prints "gems: N games/s (5 seats, AI)",
 * measured in this thread's CPU time (one core), and the wall-clock rate.
 */
#include <stdio.h>
#include <time.h>

#include "../../common/rng.h"
#include "../../common/util.h"
#include "../../server/games/gems/gems.h"

#define GAMES 200000

/* CPU time of this thread: the figure is per core even on a busy machine. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double wall_rate;

static double run_native(uint64_t games, game_events *evs, double *rooms, double *events)
{
	gems_shared sh;
	gems_shared_init(&sh);
	gems_game g;
	uint64_t t0 = cpu_ns(), w0 = now_ns(), depth = 0, nev = 0;
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
	double secs = (double)(cpu_ns() - t0) / 1e9;
	wall_rate = (double)games / ((double)(now_ns() - w0) / 1e9);
	*rooms = (double)depth / (double)games;
	*events = (double)nev / (double)games;
	return (double)games / secs;
}

static double run_vtable(uint64_t games)
{
	const game_kind *k = &gems_kind;
	char err[128];
	game_events evs = {0};
	uint64_t t0 = cpu_ns();
	for (uint64_t i = 0; i < games; i++) {
		game_events_clear(&evs);
		game_state *st = k->create(NULL, 5, i, NULL, &evs, err, sizeof err);
		game_choice ch[GAME_MAX_SEATS];
		while (!k->is_over(st)) {
			uint32_t p = k->pending(st);
			for (int s = 0; s < 5; s++)
				ch[s] = p >> s & 1 ? k->ai_choose(st, s) : GAME_NO_CHOICE;
			game_events_clear(&evs);
			k->apply(st, ch, &evs, err, sizeof err);
		}
		k->destroy(st);
	}
	game_events_free(&evs);
	return (double)games / ((double)(cpu_ns() - t0) / 1e9);
}

int main(void)
{
	double rooms, events;
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
	       run_vtable(GAMES / 4));
	printf("gems: sizeof(gems_game) = %zu bytes, no allocation per game\n", sizeof(gems_game));
	printf("gems: target 50000 games/s per core: %s\n", fast >= 50000 ? "met" : "NOT MET");
	return 0;
}
