/*
 * bench.h — what the benchmarks share: this thread's CPU time (steadier than
 * the wall clock on a shared machine), the machine's load average, and
 * bench_figure(), which prints one headline figure in the form
 *
 *   figure KEY VALUE UNIT (load 1.02 0.87 0.66)
 *
 * that tests/bench/run collects into build-bench/bench.json. Every figure
 * carries the load average of the moment it was taken: on a busy machine a
 * figure means little without it. The kinds' benchmarks also share
 * bench_vtable_games(), the server's path through a kind.
 */
#ifndef LAIR_BENCH_H
#define LAIR_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../server/games/game.h"

/* CPU time of the calling thread: the figure is per core even when other
 * processes share it. */
static inline uint64_t bench_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The first three fields of /proc/loadavg ("1.02 0.87 0.66"), or "?". */
static inline const char *bench_loadavg(void)
{
	static char load[64];
	FILE *f = fopen("/proc/loadavg", "r");
	double a, b, c;
	if (f && fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3)
		snprintf(load, sizeof load, "%.2f %.2f %.2f", a, b, c);
	else
		snprintf(load, sizeof load, "?");
	if (f)
		fclose(f);
	return load;
}

static inline void bench_figure(const char *key, double value, const char *unit)
{
	if (value == (double)(int64_t)value)
		printf("figure %s %lld %s (load %s)\n", key, (long long)value, unit, bench_loadavg());
	else
		printf("figure %s %.3f %s (load %s)\n", key, value, unit, bench_loadavg());
	fflush(stdout);
}

/* `games` all-AI games of kind k (its default config, `seats` seats, game
 * i seeded i) through the game_kind vtable, every event kept: the server's
 * path, JSON left out. Games per CPU second. */
static inline double bench_vtable_games(const game_kind *k, int seats, long games)
{
	char err[200];
	void *cfg = k->config_new(NULL, err, sizeof err);
	game_events evs = {0};
	uint64_t t0 = bench_cpu_ns();
	for (long i = 0; i < games; i++) {
		game_events_clear(&evs);
		game_state *st = k->create(cfg, seats, (uint64_t)i, NULL, &evs, err, sizeof err);
		while (!k->is_over(st)) {
			game_choice ch[GAME_MAX_SEATS];
			uint32_t p = k->pending(st);
			for (int s = 0; s < GAME_MAX_SEATS; s++)
				ch[s] = p >> s & 1 ? k->ai_choose(st, s) : GAME_NO_CHOICE;
			game_events_clear(&evs);
			k->apply(st, ch, &evs, err, sizeof err);
		}
		k->destroy(st);
	}
	double secs = (double)(bench_cpu_ns() - t0) / 1e9;
	game_events_free(&evs);
	k->config_free(cfg);
	return (double)games / secs;
}

#endif
