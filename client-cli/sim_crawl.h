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

#include <stdint.h>
#include <stdio.h>

#include <cJSON.h>

#include "../server/games/crawl/cr_qmark.h"

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

/* The whole `lair sim crawl` command with its streams (tests). */
int sim_crawl_cli(int argc, char **argv, FILE *out, FILE *err);

#endif
