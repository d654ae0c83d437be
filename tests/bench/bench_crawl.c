/*
 * bench_crawl.c — crawl's costs on one core: levels generated per second
 * (the default 56 x 17, acts in turn; and the largest, 120 x 60), whole
 * all-AI runs per second on the native API (one seat and four; the
 * simulator's path, one cr_game reused), and runs through the game_kind
 * vtable (the server's path, JSON left out). CPU time of the thread
 * (steadier than wall time on a shared machine) and the load average are
 * printed beside the figures. Prints figures; asserts nothing.
 */
#include <stdio.h>
#include <time.h>

#include "../../common/rng.h"
#include "../../common/util.h"
#include "../../server/games/crawl/crawl.h"

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

static double vtable_runs(int seats, int n)
{
	const game_kind *k = &crawl_kind;
	char err[200];
	void *cfg = k->config_new(NULL, err, sizeof err);
	game_events evs = {0};
	double t0 = cpu_s();
	for (int i = 0; i < n; i++) {
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
	game_events_free(&evs);
	k->config_free(cfg);
	return n / (cpu_s() - t0);
}

int main(void)
{
	char load[64] = "?";
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (!fgets(load, sizeof load, f))
			load[0] = '\0';
		fclose(f);
		for (char *c = load; *c; c++)
			if (*c == '\n')
				*c = '\0';
	}
	printf("crawl: load average %s (CPU time of this thread below)\n", load);
	double rej;
	levels(2000, CR_DEF_W, CR_DEF_H, &rej); /* warm up */
	printf("crawl: %.0f levels/s at %dx%d (acts in turn; %.3f rejections per level)\n",
	       levels(20000, CR_DEF_W, CR_DEF_H, &rej), CR_DEF_W, CR_DEF_H, rej);
	printf("crawl: %.0f levels/s at %dx%d\n", levels(2000, CR_MAX_W, CR_MAX_H, &rej),
	       CR_MAX_W, CR_MAX_H);
	static cr_config cfg;
	char err[200];
	if (cr_config_parse(&cfg, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "crawl: %s\n", err);
		return 1;
	}
	double rounds, decisions;
	for (int seats = 1; seats <= 4; seats += 3) {
		double rs = runs(&cfg, seats, 1000, &rounds, &decisions);
		printf("crawl: %.0f AI runs/s, %d seat%s (%.0f rounds, %.0f decisions a run)\n", rs,
		       seats, seats == 1 ? "" : "s", rounds, decisions);
	}
	printf("crawl: %.0f AI runs/s through the game_kind vtable, 3 seats, every event kept\n",
	       vtable_runs(3, 300));
	printf("crawl: sizeof(cr_game) = %zu bytes, no allocation per run\n", sizeof(cr_game));
	return 0;
}
