/*
 * sim_crawl.h — `lair sim crawl`: whole all-AI crawl runs (sim_crawl_run.c)
 * and, with --question-marks N, the study of the ? tile rule
 * (sim_crawl_qmark.c): N tiles rolled under every relic and modifier
 * combination, the observed frequency of each room type beside the exact
 * value the accumulation rule gives and the difference in standard errors,
 * and the ? count per act beside its computed distribution
 * (docs/rules/crawl.md C9, C11–C18).
 */
#ifndef LAIR_SIM_CRAWL_H
#define LAIR_SIM_CRAWL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cJSON.h>

#include "../server/games/crawl/crawl.h"

/* ---- the ? tile study --------------------------------------------------- */

enum { SQ_NONE, SQ_JUZU, SQ_COMPASS, SQ_PLANISPHERE, SQ_DEADLY, SQ_DEADLY_COMPASS,
       SQ_DEADLY_PLANISPHERE, SQ_FIRST_RUN, SQ_NCOMBO };
extern const char *const sq_combo_names[SQ_NCOMBO];

typedef struct sq_row {
	long tiles, acts;
	long count[CR_NROOM];
	double observed[CR_NROOM], computed[CR_NROOM];
	double se[CR_NROOM];   /* standard error of observed */
	double z[CR_NROOM];    /* (observed - computed) / se; 0 where se is 0 */
} sq_row;

typedef struct sq_result {
	long n;                 /* tiles asked for per combination */
	uint64_t seed;
	sq_row row[SQ_NCOMBO];
	/* C9: ? count per act, observed over the acts rolled, and computed */
	long count_seen[4][16];
	long acts_seen[4];
	double count_prob[4][16];
	double max_abs_z;
} sq_result;

/* Rolls about n tiles (whole acts) per combination. */
void sq_run(long n, uint64_t seed, sq_result *res);
cJSON *sq_json(const sq_result *res);
void sq_print(FILE *f, const sq_result *res);

/* ---- whole runs (sim_crawl_run.c) ---------------------------------------- */

typedef struct sr_opts {
	long games;
	int seats;
	uint64_t seed;
	bool deadly_events;
	int width, height, acts; /* 0: the default */
} sr_opts;

typedef struct sr_result {
	long games;
	int seats;
	long wins, ends[4], acts[CR_MAX_ACTS + 1];
	long rounds_sum, decisions_sum;
	int rounds_median, rounds_p90;
	long room[CR_MAX_ACTS + 1][CR_NROOM];
	int n_events;
	char event_id[CR_MAX_EVENTS][24];
	long served[CR_MAX_EVENTS];
	long votes;
	long levels, rejections, fallbacks;
	int max_rejections;
	long kills, falls;
	long ups, jumps, revives, rests; /* the AI's trips up, quick jumps, fallen stood again, rests */
	double seconds;
} sr_result;

/* Plays o->games runs; 0, or -1 with a message. */
int sr_run(const sr_opts *o, sr_result *res, char *err, size_t errlen);
cJSON *sr_json(const sr_opts *o, const sr_result *r);
void sr_print(FILE *f, const sr_opts *o, const sr_result *r);

/* The whole `lair sim crawl` command with its streams (tests). */
int sim_crawl_cli(int argc, char **argv, FILE *out, FILE *err);

#endif
