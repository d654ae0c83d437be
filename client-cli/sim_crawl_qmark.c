/*
 * sim_crawl_qmark.c — `lair sim crawl --question-marks N` (sim_crawl.h): the
 * ? tile rule proven, not assumed. For each relic/modifier combination it
 * plays acts of ? tiles as a run meets them (acts 1, 2, 3 in turn, each with
 * its count drawn per C9 and the table from its base per C14), about N tiles
 * in all, and prints each room type's observed share next to the exact share
 * cr_qmark_expected() computes from the rule, and the difference in standard
 * errors.
 *
 * The standard error: tiles of one act are not independent (the odds
 * accumulate), so the share is a ratio of sums over acts, R = sum X / sum Y
 * (X the act's tiles of the type, Y its tiles), and its standard error is
 * the ratio estimator's, sqrt(sum (X - R Y)^2) / sum Y. The computed share is
 * E[X] / E[Y] over the three acts, which R converges to.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/rng.h"
#include "../server/games/crawl/cr_level.h"
#include "sim_crawl.h"

const char *const sq_combo_names[SQ_NCOMBO] = {
	"none",		"juzu_bracelet",	 "golden_compass",
	"planisphere",	"deadly_events",	 "deadly_events+golden_compass",
	"deadly_events+planisphere", "first_run_first_act",
};

static void combo_flags(int c, bool *deadly, bool *juzu, bool *compass, bool *first)
{
	*deadly = c == SQ_DEADLY || c == SQ_DEADLY_COMPASS || c == SQ_DEADLY_PLANISPHERE;
	*juzu = c == SQ_JUZU;
	*compass = c == SQ_COMPASS || c == SQ_DEADLY_COMPASS;
	*first = c == SQ_FIRST_RUN;
}

static void run_combo(int c, long n, uint64_t seed, sq_row *row, sq_result *res)
{
	bool deadly, juzu, compass, first;
	combo_flags(c, &deadly, &juzu, &compass, &first);
	memset(row, 0, sizeof *row);
	rng r;
	rng_seed(&r, rng_derive_seed(seed, (uint64_t)c), 5);
	cr_odds o;
	cr_odds_init(&o, deadly);
	/* per-act sums for the ratio estimator's variance */
	double sx[CR_NROOM] = {0}, sxx[CR_NROOM] = {0}, sxy[CR_NROOM] = {0}, sy = 0, syy = 0;
	for (long a = 0; row->tiles < n; a++) {
		/* a first run's first act is always act 1; else acts in turn */
		int act = first ? 1 : 1 + (int)(a % 3);
		int k = cr_qmark_count(&r, act);
		res->count_seen[act][k]++;
		res->acts_seen[act]++;
		cr_odds_reset(&o);
		long x[CR_NROOM] = {0};
		cr_qctx q = {.first_run = first, .juzu = juzu, .compass_here = compass};
		for (int i = 0; i < k; i++) {
			q.entered = i;
			int t = cr_qmark_resolve(&o, &r, &q, NULL);
			x[t]++;
		}
		row->tiles += k;
		row->acts++;
		for (int t = 0; t < CR_NROOM; t++) {
			row->count[t] += x[t];
			sx[t] += (double)x[t];
			sxx[t] += (double)x[t] * (double)x[t];
			sxy[t] += (double)x[t] * k;
		}
		sy += k;
		syy += (double)k * k;
	}
	/* computed: E[X] / E[Y] with acts 1, 2, 3 equally often */
	double ex[CR_NROOM] = {0}, ey = 0;
	for (int act = 1; act <= 3; act++) {
		if (first && act > 1)
			break;
		double e[CR_NROOM];
		ey += cr_qmark_expected(act, deadly, juzu, compass, first, e);
		for (int t = 0; t < CR_NROOM; t++)
			ex[t] += e[t];
	}
	for (int t = 0; t < CR_NROOM; t++) {
		double R = (double)row->count[t] / (double)row->tiles;
		row->observed[t] = R;
		row->computed[t] = ex[t] / ey;
		/* sum (X - R Y)^2 = sxx - 2 R sxy + R^2 syy */
		double v = sxx[t] - 2 * R * sxy[t] + R * R * syy;
		row->se[t] = v > 0 ? sqrt(v) / sy : 0;
		double d = row->observed[t] - row->computed[t];
		row->z[t] = row->se[t] > 0 ? d / row->se[t] : (fabs(d) < 1e-12 ? 0 : INFINITY);
		if (fabs(row->z[t]) > res->max_abs_z)
			res->max_abs_z = fabs(row->z[t]);
	}
}

void sq_run(long n, uint64_t seed, sq_result *res)
{
	memset(res, 0, sizeof *res);
	res->n = n;
	res->seed = seed;
	for (int c = 0; c < SQ_NCOMBO; c++)
		run_combo(c, n, seed, &res->row[c], res);
	for (int act = 1; act <= 3; act++)
		for (int k = 0; k < 16; k++)
			res->count_prob[act][k] = cr_qmark_count_prob(act, k);
}

cJSON *sq_json(const sq_result *res)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "tiles_per_combination", (double)res->n);
	char s[24];
	snprintf(s, sizeof s, "%llu", (unsigned long long)res->seed);
	cJSON_AddStringToObject(o, "seed", s);
	cJSON *rows = cJSON_AddArrayToObject(o, "combinations");
	for (int c = 0; c < SQ_NCOMBO; c++) {
		const sq_row *r = &res->row[c];
		cJSON *ro = cJSON_CreateObject();
		cJSON_AddStringToObject(ro, "combination", sq_combo_names[c]);
		cJSON_AddNumberToObject(ro, "tiles", (double)r->tiles);
		cJSON_AddNumberToObject(ro, "acts", (double)r->acts);
		cJSON *types = cJSON_AddObjectToObject(ro, "types");
		for (int t = 0; t < CR_NROOM; t++) {
			cJSON *to = cJSON_AddObjectToObject(types, cr_room_names[t]);
			cJSON_AddNumberToObject(to, "count", (double)r->count[t]);
			cJSON_AddNumberToObject(to, "observed", r->observed[t]);
			cJSON_AddNumberToObject(to, "computed", r->computed[t]);
			cJSON_AddNumberToObject(to, "se", r->se[t]);
			cJSON_AddNumberToObject(to, "z", isfinite(r->z[t]) ? r->z[t] : 1e9);
		}
		cJSON_AddItemToArray(rows, ro);
	}
	cJSON *counts = cJSON_AddArrayToObject(o, "count_per_act");
	for (int act = 1; act <= 3; act++) {
		cJSON *ao = cJSON_CreateObject();
		cJSON_AddNumberToObject(ao, "act", act);
		cJSON_AddNumberToObject(ao, "acts", (double)res->acts_seen[act]);
		cJSON *d = cJSON_AddObjectToObject(ao, "distribution");
		for (int k = 0; k < 16; k++) {
			if (res->count_prob[act][k] == 0 && res->count_seen[act][k] == 0)
				continue;
			char key[16];
			snprintf(key, sizeof key, "%d", k);
			cJSON *ko = cJSON_AddObjectToObject(d, key);
			double seen = res->acts_seen[act]
					      ? (double)res->count_seen[act][k] / res->acts_seen[act]
					      : 0;
			cJSON_AddNumberToObject(ko, "observed", seen);
			cJSON_AddNumberToObject(ko, "computed", res->count_prob[act][k]);
		}
		cJSON_AddItemToArray(counts, ao);
	}
	cJSON_AddNumberToObject(o, "max_abs_z", res->max_abs_z);
	return o;
}

void sq_print(FILE *f, const sq_result *res)
{
	fprintf(f, "? tiles: about %ld rolled per combination, acts 1-3 in turn, the table\n"
		   "reset each act (C14); computed = the exact share by the accumulation rule\n"
		   "(C11-C18); z = (observed - computed) / standard error\n\n",
		res->n);
	fprintf(f, "%-30s %-14s %9s %9s %7s\n", "combination", "room type", "observed",
		"computed", "z");
	for (int c = 0; c < SQ_NCOMBO; c++) {
		const sq_row *r = &res->row[c];
		for (int t = 0; t < CR_NROOM; t++) {
			fprintf(f, "%-30s %-14s %9.5f %9.5f ", t ? "" : sq_combo_names[c],
				cr_room_names[t], r->observed[t], r->computed[t]);
			if (isfinite(r->z[t]))
				fprintf(f, "%+7.2f\n", r->z[t]);
			else
				fprintf(f, "    inf\n");
		}
	}
	fprintf(f, "\nlargest |z|: %.2f\n\n? tiles per act (C9: Gaussian 12, sd 1, redrawn outside "
		   "10-14; acts 2-3 one fewer)\n",
		res->max_abs_z);
	for (int act = 1; act <= 3; act++) {
		fprintf(f, "act %d (%ld acts):", act, res->acts_seen[act]);
		for (int k = 8; k <= 15; k++) {
			double p = res->count_prob[act][k];
			long seen = res->count_seen[act][k];
			if (p == 0 && seen == 0)
				continue;
			fprintf(f, "  %d: %.4f/%.4f", k,
				res->acts_seen[act] ? (double)seen / res->acts_seen[act] : 0, p);
		}
		fputc('\n', f);
	}
	fprintf(f, "(observed/computed)\n");
}
