/*
 * sim_gems.h — `lair sim gems`: plays N all-AI games of the gems kind with
 * the native API (no JSON on the way) and sums up what happened. The run
 * (sim_gems_run.c) is separate from the command line (sim_gems.c) so that
 * tests can drive both.
 */
#ifndef LAIR_SIM_GEMS_H
#define LAIR_SIM_GEMS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cJSON.h>

#include "../server/games/gems/gems.h"

#define SIM_GEMS_SCORE_HIST 4096 /* winning scores above count in the last bucket */

typedef struct sim_gems_opts {
	uint64_t games, seed;
	int seats;
	bool progress; /* draw a progress bar on stderr after the first second */
} sim_gems_opts;

/* Totals over the run; the caller owns it (it is a plain value, ~20 KB). */
typedef struct sim_gems_totals {
	uint64_t games;
	uint64_t wins[GAME_MAX_SEATS];  /* shared wins count for every winner */
	uint64_t shared_wins;           /* games with more than one winner */
	uint64_t score_hist[SIM_GEMS_SCORE_HIST];
	double score_sum;
	int64_t score_min, score_max;
	uint64_t depth_sum[GEMS_DUNGEONS];
	uint64_t ends[3];               /* by gems_end */
	int64_t stats[GEMS_N_STATS];    /* aggregated by each stat's agg */
	uint64_t achievements[GEMS_N_ACH];
	double seconds;
	gems_shared shared;             /* the server-wide state after the run */
} sim_gems_totals;

/* Plays the games into *t (initialised here). */
void sim_gems_run(const sim_gems_opts *o, sim_gems_totals *t);
/* The median winning score from the histogram. */
double sim_gems_median(const sim_gems_totals *t);
cJSON *sim_gems_json(const sim_gems_opts *o, const sim_gems_totals *t);
void sim_gems_print(FILE *out, const sim_gems_opts *o, const sim_gems_totals *t);

/* The command line: argv[0] is "gems". Returns lair's exit code (0, or 2 on
 * a usage error). */
int sim_gems_cli(int argc, char **argv, FILE *out, FILE *err);

#endif
