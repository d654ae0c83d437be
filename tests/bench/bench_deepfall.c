/*
 * bench_deepfall.c — 4-seat all-AI DEEPFALL games per second on one core, by
 * this thread's CPU time (steadier than the wall clock on a shared
 * machine): on the native API reusing one df_game (the simulator's path: no
 * allocation per game; target 50,000 games/s), then with every event
 * recorded, then through the game_kind vtable (the server's path, JSON left
 * out). The strategies rotate over the seats as in `lair sim deepfall`.
 * Prints figures and the load average; asserts nothing.
 */
#include <stdio.h>
#include <time.h>

#include "../../common/rng.h"
#include "../../common/util.h"
#include "../../server/games/deepfall/deepfall.h"

#define GAMES 200000

static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double run_native(df_game *g, const df_config *cfg, long games, game_events *evs,
			 double *rounds, double *decisions, double *events)
{
	char err[128];
	uint64_t t0 = cpu_ns(), nr = 0, nd = 0, nev = 0;
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
	double secs = (double)(cpu_ns() - t0) / 1e9;
	*rounds = (double)nr / (double)games;
	*decisions = (double)nd / (double)games;
	*events = (double)nev / (double)games;
	return (double)games / secs;
}

static double run_vtable(long games)
{
	const game_kind *k = &deepfall_kind;
	char err[128];
	void *cfg = k->config_new(NULL, err, sizeof err);
	game_events evs = {0};
	uint64_t t0 = cpu_ns();
	for (long i = 0; i < games; i++) {
		game_events_clear(&evs);
		game_state *st = k->create(cfg, 4, (uint64_t)i, NULL, &evs, err, sizeof err);
		game_choice ch[GAME_MAX_SEATS];
		while (!k->is_over(st)) {
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
	return (double)games / ((double)(cpu_ns() - t0) / 1e9);
}

int main(void)
{
	static df_game g;
	df_config cfg;
	df_config_defaults(&cfg);
	double rounds, decisions, events;
	char load[64] = "?";
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (!fgets(load, sizeof load, f))
			load[0] = 0;
		fclose(f);
		for (char *p = load; *p; p++)
			if (*p == '\n')
				*p = 0;
	}
	run_native(&g, &cfg, 10000, NULL, &rounds, &decisions, &events); /* warm up */
	double fast = run_native(&g, &cfg, GAMES, NULL, &rounds, &decisions, &events);
	printf("deepfall: %.0f games/s per core by CPU time (4 seats, AI; target 50000) "
	       "[load %s]\n", fast, load);
	printf("deepfall: %.2f rounds, %.2f decisions per game\n", rounds, decisions);
	game_events evs = {0};
	double with_events = run_native(&g, &cfg, GAMES / 4, &evs, &rounds, &decisions, &events);
	printf("deepfall: %.0f games/s with every event recorded (%.0f events per game)\n",
	       with_events, events);
	game_events_free(&evs);
	printf("deepfall: %.0f games/s through the game_kind vtable (create/apply/ai/destroy)\n",
	       run_vtable(GAMES / 8));
	printf("deepfall: sizeof(df_game) = %zu bytes, no allocation per game\n", sizeof(df_game));
	return 0;
}
