/*
 * sim_deepfall.c — `lair sim deepfall`: plays many all-AI DEEPFALL games
 * headless and reports the balance figures of seed 001 B7 and Part C: win
 * rate by strategy, Lineage and Calling (flagged above 1.6x the mean), game
 * length, victory margin, comeback rate, feel-bad rate, cash-out timing and
 * the share of each exit in the winners' glory. --sweep runs one knob over a
 * range; --report writes an HTML page of SVG plots (sim_deepfall_report.c).
 *
 * Game i is seeded with rng_derive_seed(seed, i); seat s of game i plays
 * mix[(s + i) % |mix|], so every strategy rotates through every seat. The
 * loop reuses one df_game and allocates nothing per game.
 *
 * Definitions used in the figures:
 *  - a strategy's / Lineage's / Calling's win rate: wins over appearances
 *    (seat-games for strategies, parties fielded for Lineages and Callings,
 *    since a player fields several companies a game); tied winners split a win;
 *  - comeback: the winner had the lowest glory after the half-way round
 *    (round L/2 of L) while the others were not all tied with it;
 *  - feel-bad: a party Taken by the Maw without a Last Stand;
 *  - cash-out timing: the round (as a tenth of the game) and the deepest
 *    floor of each of the winners' Cash-Outs;
 *  - exit share: the winners' glory by exit — Cash Out (banks and majorities
 *    won by Fallen markers), Press On (majorities won by active parties),
 *    Worthy End (bursts) — and how the winners' parties ended.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/util.h"
#include "args.h"
#include "sim.h"
#include "sim_deepfall.h"

#define MAX_POINTS 201

static void usage(FILE *out)
{
	fprintf(out,
		"usage: lair sim deepfall [options]\n"
		"  --games N        games per point (default 1000)\n"
		"  --seats N        seats per game, 1..%d (default 4)\n"
		"  --mix LIST       strategies rotated over the seats, comma-separated from\n"
		"                   cashout,presson,worthyend,balanced (default: all four)\n"
		"  --config FILE    a JSON config (default: built-in, see\n"
		"                   server/games/deepfall/CONFIG.md)\n"
		"  --seed X         base seed (default 1); game i uses rng_derive_seed(X, i)\n"
		"  --out FILE       write the figures: .csv as CSV, else JSON ('-': stdout)\n"
		"  --sweep K=A:B:S  run every value of knob K from A to B by step S\n"
		"  --report DIR     write DIR/index.html with SVG plots\n"
		"  --quiet          no progress bar (shown on a terminal for >= 20000 games)\n"
		"                   and no summary on stderr\n"
		"Without --out the JSON goes to stdout. Exit: 0 ok, 2 usage error.\n",
		DF_MAX_SEATS);
}

/* ---- one batch --------------------------------------------------------- */

typedef struct progress {
	long done, total;
	int shown; /* per mille shown */
	bool on;
} progress;

static void progress_tick(progress *p, long n)
{
	p->done += n;
	if (!p->on)
		return;
	int pm = (int)(p->done * 1000 / (p->total ? p->total : 1));
	if (pm / 10 == p->shown / 10 && p->done != p->total)
		return;
	p->shown = pm;
	int w = 40, fill = pm * w / 1000;
	fprintf(stderr, "\r[");
	for (int i = 0; i < w; i++)
		fputc(i < fill ? '#' : '.', stderr);
	fprintf(stderr, "] %3d%% %ld/%ld games", pm / 10, p->done, p->total);
	if (p->done == p->total)
		fputc('\n', stderr);
	fflush(stderr);
}

static void run_batch(df_game *g, const df_config *cfg, int seats, const int *mix, int nmix,
		      uint64_t seed, long games, dfs_stats *st, progress *prog)
{
	static int32_t hist[DFS_MAXLEN][DF_MAX_SEATS];
	char err[160];
	uint64_t t0 = now_ns();
	st->seats = seats;
	for (long i = 0; i < games; i++) {
		df_game_init(g, cfg, seats, rng_derive_seed(seed, (uint64_t)i), NULL);
		int strat[DF_MAX_SEATS];
		for (int s = 0; s < seats; s++)
			strat[s] = mix[(s + i) % nmix];
		while (!g->over) {
			game_choice ch[DF_MAX_SEATS];
			for (int s = 0; s < seats; s++)
				ch[s] = df_ai_choose(g, s, strat[s]);
			if (df_round(g, ch, NULL, err, sizeof err) != 0) {
				/* The bots only make legal choices (a unit test pins it). */
				fprintf(stderr, "lair sim deepfall: %s\n", err);
				abort();
			}
			if (g->rounds_played <= DFS_MAXLEN)
				for (int s = 0; s < seats; s++)
					hist[g->rounds_played - 1][s] = g->pl[s].glory;
		}
		int L = g->rounds_played, nw = __builtin_popcount(g->winners);
		double share = 1.0 / nw;
		st->games++;
		st->len_hist[L < DFS_MAXLEN ? L : DFS_MAXLEN - 1]++;
		int32_t best = INT32_MIN, second = INT32_MIN;
		long fb = 0;
		for (int s = 0; s < seats; s++) {
			const df_player *pl = &g->pl[s];
			int32_t v = pl->glory;
			st->glory_sum += v;
			if (v > best) {
				second = best;
				best = v;
			} else if (v > second) {
				second = v;
			}
			fb += pl->taken;
			st->strat_seats[strat[s]]++;
			for (int l = 0; l < DF_NLINEAGE; l++)
				st->lin_parties[l] += pl->lin_parties[l];
			for (int c = 0; c < DF_NCALLING; c++)
				st->cal_parties[c] += pl->cal_parties[c];
			if (!(g->winners & (1u << s)))
				continue;
			st->strat_wins[strat[s]] += share;
			for (int l = 0; l < DF_NLINEAGE; l++)
				st->lin_wins[l] += share * pl->lin_parties[l];
			for (int c = 0; c < DF_NCALLING; c++)
				st->cal_wins[c] += share * pl->cal_parties[c];
			for (int k = 0; k < DF_NSRC; k++)
				st->src_glory[k] += share * pl->src[k];
			st->end_cash += share * pl->cash_outs;
			st->end_worthy += share * pl->worthy_ends;
			st->end_taken += share * pl->taken;
			for (int k = 0; k < pl->n_cash_rec; k++) {
				double r = pl->cash_round[k], d = pl->cash_depth[k];
				st->cash_n++;
				st->cash_round_sum += r;
				st->cash_round_sq += r * r;
				st->cash_depth_sum += d;
				st->cash_depth_sq += d * d;
				int bin = (int)((r - 1) * DFS_BINS / L);
				st->cash_rel_hist[bin < DFS_BINS ? bin : DFS_BINS - 1]++;
				st->cash_depth_hist[pl->cash_depth[k] <= DF_MAX_FLOORS
							    ? pl->cash_depth[k]
							    : DF_MAX_FLOORS]++;
			}
			int h = L / 2;
			if (h >= 1 && h <= DFS_MAXLEN && seats > 1) {
				int32_t mine = hist[h - 1][s], lo = mine, hi = mine;
				for (int o = 0; o < seats; o++) {
					lo = hist[h - 1][o] < lo ? hist[h - 1][o] : lo;
					hi = hist[h - 1][o] > hi ? hist[h - 1][o] : hi;
				}
				if (mine == lo && hi > lo)
					st->comeback_last += share;
				if (mine < hi)
					st->comeback_behind += share;
			}
		}
		if (second == INT32_MIN)
			second = best;
		double mf = best > 0 ? (double)(best - second) / best : 0;
		st->margin_sum += mf;
		int mb = (int)(mf * DFS_BINS);
		st->margin_hist[mb < DFS_BINS ? mb : DFS_BINS - 1]++;
		st->feel_bads += fb;
		st->games_with_feel_bad += fb > 0;
		if ((i & 255) == 255)
			progress_tick(prog, 256);
	}
	progress_tick(prog, games & 255);
	st->elapsed_s = (now_ns() - t0) / 1e9;
}

/* ---- derived figures and JSON ------------------------------------------ */

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

double dfs_strat_rate(const dfs_stats *st, int s)
{
	return ratio(st->strat_wins[s], (double)st->strat_seats[s]);
}
double dfs_lin_rate(const dfs_stats *st, int l)
{
	return ratio(st->lin_wins[l], (double)st->lin_parties[l]);
}
double dfs_cal_rate(const dfs_stats *st, int c)
{
	return ratio(st->cal_wins[c], (double)st->cal_parties[c]);
}

double dfs_mean_len(const dfs_stats *st)
{
	double s = 0;
	for (int r = 0; r < DFS_MAXLEN; r++)
		s += (double)r * st->len_hist[r];
	return ratio(s, (double)st->games);
}

double dfs_len_in_band(const dfs_stats *st, int lo, int hi)
{
	long n = 0;
	for (int r = lo; r <= hi && r < DFS_MAXLEN; r++)
		n += st->len_hist[r];
	return ratio((double)n, (double)st->games);
}

double dfs_src_share(const dfs_stats *st, int src)
{
	double t = 0;
	for (int k = 0; k < DF_NSRC; k++)
		t += st->src_glory[k];
	return ratio(st->src_glory[src], t);
}

static cJSON *rates_json(int n, const char *(*id)(int), const double *wins, const long *apps,
			 double *worst_ratio)
{
	double mean = 0;
	int k = 0;
	for (int i = 0; i < n; i++)
		if (apps[i]) {
			mean += wins[i] / apps[i];
			k++;
		}
	mean = k ? mean / k : 0;
	cJSON *arr = cJSON_CreateArray();
	for (int i = 0; i < n; i++) {
		double r = ratio(wins[i], (double)apps[i]), q = ratio(r, mean);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", id(i));
		cJSON_AddNumberToObject(o, "appearances", (double)apps[i]);
		cJSON_AddNumberToObject(o, "wins", wins[i]);
		cJSON_AddNumberToObject(o, "win_rate", r);
		cJSON_AddNumberToObject(o, "ratio_to_mean", q);
		cJSON_AddBoolToObject(o, "flag", q > 1.6);
		cJSON_AddItemToArray(arr, o);
		if (q > *worst_ratio)
			*worst_ratio = q;
	}
	return arr;
}

static const char *strat_id(int s) { return df_strategy_names[s]; }

cJSON *dfs_json(const dfs_stats *st, const int *mix, int nmix)
{
	cJSON *o = cJSON_CreateObject();
	double g = (double)st->games;
	cJSON_AddNumberToObject(o, "games", g);
	cJSON_AddNumberToObject(o, "seats", st->seats);
	cJSON *mx = cJSON_AddArrayToObject(o, "mix");
	for (int i = 0; i < nmix; i++)
		cJSON_AddItemToArray(mx, cJSON_CreateString(df_strategy_names[mix[i]]));

	cJSON *strats = cJSON_AddArrayToObject(o, "strategies");
	double smax = 0, smin = 1;
	for (int s = 0; s < DF_NSTRAT; s++) {
		if (!st->strat_seats[s])
			continue;
		double r = dfs_strat_rate(st, s);
		cJSON *so = cJSON_CreateObject();
		cJSON_AddStringToObject(so, "name", strat_id(s));
		cJSON_AddNumberToObject(so, "seat_games", (double)st->strat_seats[s]);
		cJSON_AddNumberToObject(so, "wins", st->strat_wins[s]);
		cJSON_AddNumberToObject(so, "win_rate", r);
		cJSON_AddItemToArray(strats, so);
		smax = r > smax ? r : smax;
		smin = r < smin ? r : smin;
	}
	double lworst = 0, cworst = 0;
	cJSON_AddItemToObject(o, "lineages",
			      rates_json(DF_NLINEAGE, df_lineage_id, st->lin_wins,
					 st->lin_parties, &lworst));
	cJSON_AddItemToObject(o, "callings",
			      rates_json(DF_NCALLING, df_calling_id, st->cal_wins,
					 st->cal_parties, &cworst));

	cJSON *len = cJSON_AddObjectToObject(o, "length");
	int lo = -1, hi = 0;
	cJSON *lh = cJSON_CreateObject();
	for (int r = 0; r < DFS_MAXLEN; r++)
		if (st->len_hist[r]) {
			char k[16];
			snprintf(k, sizeof k, "%d", r);
			cJSON_AddNumberToObject(lh, k, (double)st->len_hist[r]);
			lo = lo < 0 ? r : lo;
			hi = r;
		}
	cJSON_AddNumberToObject(len, "mean", dfs_mean_len(st));
	cJSON_AddNumberToObject(len, "min", lo);
	cJSON_AddNumberToObject(len, "max", hi);
	cJSON_AddNumberToObject(len, "share_8_14", dfs_len_in_band(st, 8, 14));
	cJSON_AddItemToObject(len, "histogram", lh);

	cJSON *m = cJSON_AddObjectToObject(o, "margin_fraction");
	cJSON_AddNumberToObject(m, "mean", ratio(st->margin_sum, g));
	cJSON *mh = cJSON_AddArrayToObject(m, "histogram_tenths");
	for (int b = 0; b < DFS_BINS; b++)
		cJSON_AddItemToArray(mh, cJSON_CreateNumber((double)st->margin_hist[b]));

	cJSON *cb = cJSON_AddObjectToObject(o, "comeback");
	cJSON_AddStringToObject(cb, "definition",
				"winner had the lowest glory after round L/2 of L");
	cJSON_AddNumberToObject(cb, "rate", ratio(st->comeback_last, g));
	cJSON_AddNumberToObject(cb, "winner_behind_at_half", ratio(st->comeback_behind, g));

	cJSON *fb = cJSON_AddObjectToObject(o, "feel_bad");
	cJSON_AddNumberToObject(fb, "per_game", ratio((double)st->feel_bads, g));
	cJSON_AddNumberToObject(fb, "games_with_any", ratio((double)st->games_with_feel_bad, g));

	cJSON *ct = cJSON_AddObjectToObject(o, "cash_out_timing");
	double n = (double)st->cash_n;
	double rm = ratio(st->cash_round_sum, n), dm = ratio(st->cash_depth_sum, n);
	cJSON_AddNumberToObject(ct, "winner_cash_outs", n);
	cJSON_AddNumberToObject(ct, "round_mean", rm);
	cJSON_AddNumberToObject(ct, "round_sd",
				sqrt(fmax(0, ratio(st->cash_round_sq, n) - rm * rm)));
	cJSON_AddNumberToObject(ct, "depth_mean", dm);
	cJSON_AddNumberToObject(ct, "depth_sd",
				sqrt(fmax(0, ratio(st->cash_depth_sq, n) - dm * dm)));
	cJSON *rh = cJSON_AddArrayToObject(ct, "by_tenth_of_game");
	for (int b = 0; b < DFS_BINS; b++)
		cJSON_AddItemToArray(rh, cJSON_CreateNumber((double)st->cash_rel_hist[b]));
	cJSON *dh = cJSON_AddArrayToObject(ct, "by_depth");
	for (int d = 1; d <= DF_MAX_FLOORS; d++)
		cJSON_AddItemToArray(dh, cJSON_CreateNumber((double)st->cash_depth_hist[d]));

	cJSON *ex = cJSON_AddObjectToObject(o, "winner_exits");
	cJSON *gs = cJSON_AddObjectToObject(ex, "glory_share");
	static const char *const src[DF_NSRC] = {"cash_out", "press_on", "worthy_end"};
	double emax = 0;
	for (int k = 0; k < DF_NSRC; k++) {
		double sh = dfs_src_share(st, k);
		cJSON_AddNumberToObject(gs, src[k], sh);
		emax = sh > emax ? sh : emax;
	}
	cJSON *pe = cJSON_AddObjectToObject(ex, "party_endings_per_game");
	cJSON_AddNumberToObject(pe, "cash_out", ratio(st->end_cash, g));
	cJSON_AddNumberToObject(pe, "worthy_end", ratio(st->end_worthy, g));
	cJSON_AddNumberToObject(pe, "taken", ratio(st->end_taken, g));
	cJSON_AddNumberToObject(o, "mean_glory", ratio(st->glory_sum, g * st->seats));

	cJSON *t = cJSON_AddObjectToObject(o, "targets");
	cJSON_AddBoolToObject(t, "strategy_max_le_40", smax <= 0.40);
	cJSON_AddBoolToObject(t, "strategy_min_ge_12", smin >= 0.12);
	cJSON_AddBoolToObject(t, "lineage_le_1_6x_mean", lworst <= 1.6);
	cJSON_AddBoolToObject(t, "calling_le_1_6x_mean", cworst <= 1.6);
	cJSON_AddBoolToObject(t, "length_mostly_8_14", dfs_len_in_band(st, 8, 14) >= 0.5);
	cJSON_AddBoolToObject(t, "exit_share_le_45", emax <= 0.45);
	cJSON_AddBoolToObject(t, "feel_bad_rare", ratio((double)st->feel_bads, g) <= 0.10);

	cJSON_AddNumberToObject(o, "elapsed_s", st->elapsed_s);
	cJSON_AddNumberToObject(o, "games_per_s", ratio(g, st->elapsed_s));
	return o;
}

/* ---- CSV ---------------------------------------------------------------- */

static void csv_header(FILE *f, const char *knob)
{
	fprintf(f, "%s,games,seats", knob ? knob : "point");
	for (int s = 0; s < DF_NSTRAT; s++)
		fprintf(f, ",win_%s", df_strategy_names[s]);
	for (int l = 0; l < DF_NLINEAGE; l++)
		fprintf(f, ",win_%s", df_lineage_id(l));
	for (int c = 0; c < DF_NCALLING; c++)
		fprintf(f, ",win_%s", df_calling_id(c));
	fprintf(f, ",length_mean,length_share_8_14,margin_fraction_mean,comeback_rate,"
		   "feel_bad_per_game,cash_round_mean,cash_round_sd,cash_depth_mean,"
		   "cash_depth_sd,share_cash_out,share_press_on,share_worthy_end\n");
}

static void csv_row(FILE *f, const dfs_stats *st, double point)
{
	double g = (double)st->games, n = (double)st->cash_n;
	double rm = ratio(st->cash_round_sum, n), dm = ratio(st->cash_depth_sum, n);
	fprintf(f, "%g,%ld,%d", point, st->games, st->seats);
	for (int s = 0; s < DF_NSTRAT; s++)
		fprintf(f, ",%.4f", dfs_strat_rate(st, s));
	for (int l = 0; l < DF_NLINEAGE; l++)
		fprintf(f, ",%.4f", dfs_lin_rate(st, l));
	for (int c = 0; c < DF_NCALLING; c++)
		fprintf(f, ",%.4f", dfs_cal_rate(st, c));
	fprintf(f, ",%.3f,%.4f,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f\n",
		dfs_mean_len(st), dfs_len_in_band(st, 8, 14), ratio(st->margin_sum, g),
		ratio(st->comeback_last, g), ratio((double)st->feel_bads, g), rm,
		sqrt(fmax(0, ratio(st->cash_round_sq, n) - rm * rm)), dm,
		sqrt(fmax(0, ratio(st->cash_depth_sq, n) - dm * dm)), dfs_src_share(st, 0),
		dfs_src_share(st, 1), dfs_src_share(st, 2));
}

/* ---- the human summary (stderr) ---------------------------------------- */

static void summary(FILE *f, const dfs_stats *st, const char *knob)
{
	double g = st->games ? (double)st->games : 1;
	if (knob)
		fprintf(f, "%s=%g: ", knob, st->value);
	fprintf(f, "%ld games, %.0f games/s; wins:", st->games,
		st->elapsed_s > 0 ? g / st->elapsed_s : 0);
	for (int s = 0; s < DF_NSTRAT; s++)
		if (st->strat_seats[s])
			fprintf(f, " %s %.1f%%", df_strategy_names[s], 100 * dfs_strat_rate(st, s));
	fprintf(f, "; length %.1f (%.0f%% in 8-14); margin %.2f; comeback %.1f%%; "
		   "feel-bad %.3f/game; winners' glory cash %.0f%% press %.0f%% worthy %.0f%%\n",
		dfs_mean_len(st), 100 * dfs_len_in_band(st, 8, 14), st->margin_sum / g,
		100 * st->comeback_last / g, st->feel_bads / g, 100 * dfs_src_share(st, 0),
		100 * dfs_src_share(st, 1), 100 * dfs_src_share(st, 2));
}

/* ---- the command -------------------------------------------------------- */

static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_mix(const char *s, int *mix, int *n)
{
	char tmp[256];
	if (strlen(s) >= sizeof tmp)
		return -1;
	strcpy(tmp, s);
	*n = 0;
	for (char *save = NULL, *tok = strtok_r(tmp, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int st = df_strategy_parse(tok);
		if (st < 0 || *n >= DF_MAX_SEATS)
			return -1;
		mix[(*n)++] = st;
	}
	return *n > 0 ? 0 : -1;
}

static cJSON *read_json_file(const char *path, char *err, size_t errlen)
{
	buf b = {0};
	cJSON *j = NULL;
	if (buf_read_file(&b, path, 1 << 20, err, errlen) == 0) {
		j = b.data ? cJSON_ParseWithLength(b.data, b.len) : NULL;
		if (!j)
			snprintf(err, errlen, "%s is not valid JSON", path);
	}
	buf_free(&b);
	return j;
}

static int fail_usage(const char *fmt, const char *what)
{
	fprintf(stderr, "lair sim deepfall: ");
	fprintf(stderr, fmt, what);
	fprintf(stderr, "\n(lair sim deepfall --help)\n");
	return 2;
}

int sim_deepfall_main(int argc, char **argv)
{
	const char *o_games = NULL, *o_seats = NULL, *o_mix = NULL, *o_config = NULL;
	const char *o_seed = NULL, *o_out = NULL, *o_sweep = NULL, *o_report = NULL;
	int quiet = 0;
	const struct arg_opt opts[] = {
		{"games", &o_games, NULL},   {"seats", &o_seats, NULL},
		{"mix", &o_mix, NULL},       {"config", &o_config, NULL},
		{"seed", &o_seed, NULL},     {"out", &o_out, NULL},
		{"sweep", &o_sweep, NULL},   {"report", &o_report, NULL},
		{"quiet", NULL, &quiet},
	};
	char err[256];
	int n_pos = 0;
	int rc = args_parse(argc, argv, opts, ARRAY_LEN(opts), NULL, 0, &n_pos, err, sizeof err);
	if (rc == ARGS_HELP) {
		usage(stdout);
		return 0;
	}
	if (rc != ARGS_OK)
		return fail_usage("%s", err);

	long games = 1000, seats = 4;
	uint64_t seed = 1;
	int mix[DF_MAX_SEATS] = {DF_AI_CASHOUT, DF_AI_PRESSON, DF_AI_WORTHYEND, DF_AI_BALANCED};
	int nmix = 4;
	if (o_games && parse_long(o_games, 1, 100000000, &games) != 0)
		return fail_usage("--games must be 1..100000000, not '%s'", o_games);
	if (o_seats && parse_long(o_seats, 1, DF_MAX_SEATS, &seats) != 0)
		return fail_usage("--seats must be 1..9, not '%s'", o_seats);
	if (o_mix && parse_mix(o_mix, mix, &nmix) != 0)
		return fail_usage("--mix takes names from cashout,presson,worthyend,balanced: '%s'",
				  o_mix);
	if (o_seed) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(o_seed, &end, 0);
		if (errno || *end || o_seed[0] < '0' || o_seed[0] > '9') /* no blank, no sign */
			return fail_usage("--seed must be a non-negative integer, not '%s'",
					  o_seed);
		seed = v;
	}
	df_config cfg;
	cJSON *cj = NULL;
	if (o_config && !(cj = read_json_file(o_config, err, sizeof err)))
		return fail_usage("%s", err);
	int bad = df_config_parse(&cfg, cj, err, sizeof err);
	cJSON_Delete(cj);
	if (bad)
		return fail_usage("%s", err);

	char knob[64] = "";
	double from = 0, to = 0, step = 1;
	int points = 1;
	if (o_sweep) {
		const char *eq = strchr(o_sweep, '=');
		if (!eq || eq == o_sweep || (size_t)(eq - o_sweep) >= sizeof knob ||
		    sscanf(eq + 1, "%lf:%lf:%lf", &from, &to, &step) != 3 || !(step > 0) ||
		    !(to >= from)) /* written so that NaN fails too */
			return fail_usage("--sweep wants knob=from:to:step (step > 0), not '%s'",
					  o_sweep);
		memcpy(knob, o_sweep, (size_t)(eq - o_sweep));
		df_config probe = cfg;
		if (df_config_set(&probe, knob, from, err, sizeof err) != 0 ||
		    df_config_set(&probe, knob, to, err, sizeof err) != 0)
			return fail_usage("%s", err);
		/* from and to are finite (df_config_set): count in double, cast
		 * only once it is known to fit (a tiny step would overflow int) */
		double n = floor((to - from) / step + 1e-9) + 1;
		if (!(n <= MAX_POINTS))
			return fail_usage("--sweep has too many points (%s)", "at most 201");
		points = (int)n;
	}

	dfs_stats *pts = xcalloc((size_t)points, sizeof *pts);
	df_game *g = xmalloc(sizeof *g);
	progress prog = {0, games * points, -10, !quiet && isatty(2) && games * points >= 20000};
	for (int p = 0; p < points; p++) {
		df_config c = cfg;
		if (o_sweep) {
			pts[p].value = from + p * step;
			if (df_config_set(&c, knob, pts[p].value, err, sizeof err) != 0) {
				free(pts);
				free(g);
				return fail_usage("%s", err);
			}
			char e2[256];
			df_config probe;
			cJSON *cjs = df_config_json(&c);
			int ok = df_config_parse(&probe, cjs, e2, sizeof e2);
			cJSON_Delete(cjs);
			if (ok != 0) {
				free(pts);
				free(g);
				return fail_usage("%s", e2);
			}
		}
		run_batch(g, &c, (int)seats, mix, nmix, seed, games, &pts[p], &prog);
	}
	free(g);

	int status = 0;
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "kind", "deepfall");
	cJSON_AddNumberToObject(root, "seed", (double)seed);
	cJSON_AddItemToObject(root, "config", df_config_json(&cfg));
	if (o_sweep) {
		cJSON *sw = cJSON_AddObjectToObject(root, "sweep");
		cJSON_AddStringToObject(sw, "knob", knob);
		cJSON *arr = cJSON_AddArrayToObject(sw, "points");
		for (int p = 0; p < points; p++) {
			cJSON *pt = dfs_json(&pts[p], mix, nmix);
			cJSON_AddNumberToObject(pt, "value", pts[p].value);
			cJSON_AddItemToArray(arr, pt);
		}
	} else {
		cJSON_AddItemToObject(root, "results", dfs_json(&pts[0], mix, nmix));
	}
	size_t ol = o_out ? strlen(o_out) : 0;
	if (ol >= 4 && strcmp(o_out + ol - 4, ".csv") == 0) {
		FILE *f = fopen(o_out, "w");
		if (!f) {
			fprintf(stderr, "lair sim deepfall: cannot write %s: %s\n", o_out,
				strerror(errno));
			status = 1;
		} else {
			csv_header(f, o_sweep ? knob : NULL);
			for (int p = 0; p < points; p++)
				csv_row(f, &pts[p], o_sweep ? pts[p].value : p);
			fclose(f);
		}
	} else {
		char *text = cJSON_Print(root);
		FILE *f = !o_out || strcmp(o_out, "-") == 0 ? stdout : fopen(o_out, "w");
		if (!f) {
			fprintf(stderr, "lair sim deepfall: cannot write %s: %s\n", o_out,
				strerror(errno));
			status = 1;
		} else {
			fprintf(f, "%s\n", text);
			if (f != stdout)
				fclose(f);
		}
		free(text);
	}
	if (o_report && dfs_report(o_report, pts, points, o_sweep ? knob : NULL, mix, nmix, &cfg,
				   seed, err, sizeof err) != 0) {
		fprintf(stderr, "lair sim deepfall: %s\n", err);
		status = 1;
	}
	if (!quiet) {
		for (int p = 0; p < points; p++)
			summary(stderr, &pts[p], o_sweep ? knob : NULL);
		if (o_out)
			fprintf(stderr, "wrote %s\n", o_out);
	}
	cJSON_Delete(root);
	free(pts);
	return status;
}
