/*
 * bench_crawl.c — crawl's costs on one core: levels generated per second
 * (the default 56 x 17, acts in turn; and the largest, 120 x 60), a config
 * and a new run through the game_kind vtable (what a table pays at each
 * start), whole all-AI runs per second on the native API (1 to 4 seats; the
 * simulator's path, one cr_game reused), and runs through the vtable (the
 * server's path, JSON left out). CPU time of the thread (steadier than wall
 * time on a shared machine) and the load average are printed beside the
 * figures; the headlines are 'figure' lines (bench.h). Asserts nothing.
 *
 *   bench_crawl                      the figures (about 20 s)
 *   bench_crawl --profile WHAT N [S] only N of one thing, for callgrind:
 *                                    runs (S seats), create, config
 *   valgrind --tool=callgrind build/bench/bench_crawl --profile runs 30 4
 *
 * Where the time went (callgrind, instructions; a 4-seat run at the default
 * size on the simulator's path, --profile runs 30 4):
 *   before: 168 M a run — the seen-tile search (cr_bfs_seen) 53% (explore
 *   searched the whole level for its target, then again from the target for
 *   the step; travel, legality and the AI again), line of sight 27%, the
 *   monsters' search of the whole level every round 11%. config_new parsed
 *   the embedded JSON each time: 2.2 M; create 0.8 M.
 *   after: the content is parsed once per process (config_new: a few hundred
 *   instructions); explore is one search from the seat that ends at the
 *   nearest distance with a target and carries the first step with it;
 *   step and reachability searches end at their tile; sight walks tabled
 *   lines over a tabled disc; the monsters search only when one must step.
 *   The results are the same, run for run (test_crawl_pin).
 *   now (the party AI and rest, C48, whose runs are longer): 92 M a run —
 *   the seen-tile search 35%, sight 26%, explore's search 19%, the
 *   monsters 7% (the -O2 build in build/: callgrind stops at an
 *   instruction of the -march=native one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/rng.h"
#include "../../common/util.h"
#include "../../server/games/crawl/crawl.h"
#include "bench.h"

static double cpu_s(void) { return (double)bench_cpu_ns() / 1e9; }

static double levels(int n, int w, int h, double *rejections)
{
	static cr_level lv;
	long rej = 0;
	double t0 = cpu_s();
	for (int i = 0; i < n; i++) {
		cr_level_generate(&lv, rng_derive_seed(7, (uint64_t)i), 1 + i % 3, 3, 0, w, h);
		rej += lv.rejections;
	}
	*rejections = (double)rej / n;
	return n / (cpu_s() - t0);
}

static double runs(const cr_config *cfg, int seats, int n, double *rounds, double *decisions)
{
	static cr_game g;
	char err[200];
	long r = 0, d = 0;
	double t0 = cpu_s();
	for (int i = 0; i < n; i++) {
		cr_game_init(&g, cfg, seats, rng_derive_seed(11, (uint64_t)i), NULL);
		while (!g.over) {
			game_choice ch[GAME_MAX_SEATS];
			uint32_t p = cr_pending(&g);
			for (int s = 0; s < GAME_MAX_SEATS; s++)
				ch[s] = s < seats && (p >> s & 1) ? cr_ai_choose(&g, s) : GAME_NO_CHOICE;
			cr_apply(&g, ch, NULL, err, sizeof err);
		}
		r += g.rounds;
		d += g.decision - 1;
	}
	*rounds = (double)r / n;
	*decisions = (double)d / n;
	return n / (cpu_s() - t0);
}

/* config_new and config_free, n times: per second */
static double configs(int n)
{
	const game_kind *k = &crawl_kind;
	char err[200];
	cJSON *j = cJSON_Parse("{\"deadly_events\": true, \"width\": 60}");
	double t0 = cpu_s();
	for (int i = 0; i < n; i++)
		k->config_free(k->config_new(j, err, sizeof err));
	double t = cpu_s() - t0;
	cJSON_Delete(j);
	return n / t;
}

/* create (with its events) and destroy, n times: per second */
static double creates(int n, int seats)
{
	const game_kind *k = &crawl_kind;
	char err[200];
	void *cfg = k->config_new(NULL, err, sizeof err);
	game_events evs = {0};
	double t0 = cpu_s();
	for (int i = 0; i < n; i++) {
		game_events_clear(&evs);
		k->destroy(k->create(cfg, seats, (uint64_t)i, NULL, &evs, err, sizeof err));
	}
	double t = cpu_s() - t0;
	game_events_free(&evs);
	k->config_free(cfg);
	return n / t;
}

static int profile(int argc, char **argv, const cr_config *cfg)
{
	int n = argc > 3 ? atoi(argv[3]) : 0, seats = argc > 4 ? atoi(argv[4]) : 1;
	double a, b;
	if (n < 1 || seats < 1 || seats > CR_MAX_SEATS) {
		fprintf(stderr, "usage: bench_crawl --profile runs|create|config N [SEATS]\n");
		return 2;
	}
	if (!strcmp(argv[2], "runs"))
		runs(cfg, seats, n, &a, &b);
	else if (!strcmp(argv[2], "create"))
		creates(n, seats);
	else if (!strcmp(argv[2], "config"))
		configs(n);
	else
		return profile(0, argv, cfg);
	return 0;
}

int main(int argc, char **argv)
{
	static cr_config cfg;
	char err[200];
	if (cr_config_parse(&cfg, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "crawl: %s\n", err);
		return 1;
	}
	if (argc >= 2 && !strcmp(argv[1], "--profile"))
		return profile(argc, argv, &cfg);
	printf("crawl: load average %s (CPU time of this thread below)\n", bench_loadavg());
	double rej;
	levels(2000, CR_DEF_W, CR_DEF_H, &rej); /* warm up */
	double lps = levels(20000, CR_DEF_W, CR_DEF_H, &rej);
	printf("crawl: %.0f levels/s at %dx%d (acts in turn; %.3f rejections per level)\n", lps,
	       CR_DEF_W, CR_DEF_H, rej);
	bench_figure("crawl_levels_per_s", (double)(int64_t)(lps + 0.5), "levels/s");
	printf("crawl: %.0f levels/s at %dx%d\n", levels(2000, CR_MAX_W, CR_MAX_H, &rej),
	       CR_MAX_W, CR_MAX_H);
	double cps = configs(20000);
	printf("crawl: %.0f config_new/s (a table's start parses its options)\n", cps);
	bench_figure("crawl_config_new_per_s", (double)(int64_t)(cps + 0.5), "configs/s");
	double nps = creates(5000, 4);
	printf("crawl: %.0f create/s (4 seats: the first level, its monsters, sight)\n", nps);
	bench_figure("crawl_create_per_s", (double)(int64_t)(nps + 0.5), "creates/s");
	double rounds, decisions;
	for (int seats = 1; seats <= 4; seats++) {
		double rs = runs(&cfg, seats, 1000, &rounds, &decisions);
		printf("crawl: %.0f AI runs/s, %d seat%s (%.0f rounds, %.0f decisions a run)\n", rs,
		       seats, seats == 1 ? "" : "s", rounds, decisions);
		if (seats == 1 || seats == 4) {
			char key[40];
			snprintf(key, sizeof key, "crawl_ai_runs_per_s_%d_seat%s", seats,
				 seats == 1 ? "" : "s");
			bench_figure(key, (double)(int64_t)(rs + 0.5), "runs/s");
		}
	}
	printf("crawl: %.0f AI runs/s through the game_kind vtable, 3 seats, every event kept\n",
	       bench_vtable_games(&crawl_kind, 3, 300));
	printf("crawl: sizeof(cr_game) = %zu bytes, no allocation per run\n", sizeof(cr_game));
	return 0;
}
