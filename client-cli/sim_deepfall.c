/*
 * sim_deepfall.c — `lair sim deepfall`: plays many all-AI DEEPFALL games
 * headless, through the same round engine and bots as a laird table (press
 * steps, then the act step), and reports the balance figures: win rate by
 * strategy, Lineage, Calling and company (the 36 Lineage x Calling cells),
 * game length and its spread, victory margin, comeback rate, feel-bad rate,
 * glory per collapse by floor and how often the final collapse is the
 * biggest, deep-room claims and contests, how the winners' parties ended
 * and cash-out timing. --sweep runs one knob over a range; --report writes
 * an HTML page of SVG plots (sim_deepfall_report.c).
 *
 * Game i is seeded with rng_derive_seed(seed, i); seat s of game i plays
 * mix[(s + i) % |mix|], so every strategy rotates through every seat. The
 * loop reuses one df_game and allocates nothing per game. Every figure's
 * definition is in docs/rules/deepfall.md (DF80-DF89).
 * Long (800 lines) on purpose: each figure is counted, derived and printed
 * (JSON, CSV, the summary) here, next to the others of its batch; only the
 * HTML report is apart (sim_deepfall_report.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* This thread's CPU time: steadier than the wall clock on a shared machine. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The figures of one finished game into st (DF80-DF89). */
static void add_game(const df_game *g, const int *strat, int32_t hist[][DF_MAX_SEATS],
		     sim_deepfall_stats *st)
{
	int seats = g->seats;
	int L = g->rounds_played, nw = __builtin_popcount(g->winners);
	double share = 1.0 / nw;
	st->games++;
	st->len_hist[L < SIM_DEEPFALL_MAXLEN ? L : SIM_DEEPFALL_MAXLEN - 1]++;
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
		for (int k = 0; k < DF_NSRC; k++)
			st->strat_glory[strat[s]][k] += pl->src[k];
		st->strat_parties[strat[s]] += pl->parties;
		st->strat_claims[strat[s]] += pl->claims;
		st->strat_taken[strat[s]] += pl->taken;
		bool won = g->winners >> s & 1;
		for (int c = 0; c < DF_NCOMPANY; c++) {
			int n = pl->companies[c];
			if (!n)
				continue;
			st->lin_parties[c / DF_NCALLING] += n;
			st->cal_parties[c % DF_NCALLING] += n;
			st->comp_parties[c] += n;
			st->comp_games[c]++;
			st->comp_glory[c] += (double)n * v;
			if (won) {
				st->lin_wins[c / DF_NCALLING] += share * n;
				st->cal_wins[c % DF_NCALLING] += share * n;
				st->comp_wins[c] += share * n;
			}
		}
		if (!won)
			continue;
		st->strat_wins[strat[s]] += share;
		for (int k = 0; k < DF_NSRC; k++)
			st->src_glory[k] += share * pl->src[k];
		st->end_cash += share * (pl->cash_outs - pl->cash_forced);
		st->end_forced += share * pl->cash_forced;
		st->end_worthy += share * pl->worthy_ends;
		st->end_taken += share * pl->taken;
		for (int k = 0; k < pl->n_cash_rec; k++) {
			double r = pl->cash_round[k], d = pl->cash_depth[k];
			st->cash_n++;
			st->cash_round_sum += r;
			st->cash_round_sq += r * r;
			st->cash_depth_sum += d;
			st->cash_depth_sq += d * d;
			int bin = (int)((r - 1) * SIM_DEEPFALL_BINS / L);
			st->cash_rel_hist[bin < SIM_DEEPFALL_BINS ? bin : SIM_DEEPFALL_BINS - 1]++;
			st->cash_depth_hist[pl->cash_depth[k] <= DF_MAX_FLOORS ? pl->cash_depth[k]
									   : DF_MAX_FLOORS]++;
		}
		int h = L / 2;
		if (h >= 1 && h <= SIM_DEEPFALL_MAXLEN && seats > 1) {
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
	double mf = best > 0 ? (double)(best - second) / best : 0; /* DF82 */
	st->margin_sum += mf;
	int mb = (int)(mf * SIM_DEEPFALL_BINS);
	st->margin_hist[mb < SIM_DEEPFALL_BINS ? mb : SIM_DEEPFALL_BINS - 1]++;
	st->feel_bads += fb;
	st->games_with_feel_bad += fb > 0;

	const df_config *c = &g->cfg;
	int32_t top = INT32_MIN;
	for (int f = 1; f <= c->floors; f++) {
		st->collapse_glory[f] += g->collapse_glory[f];
		st->collapse_worthy[f] += g->collapse_worthy[f];
		st->collapse_n[f]++;
		if (f > 1 && g->collapse_glory[f] > top)
			top = g->collapse_glory[f];
	}
	st->final_biggest += g->collapse_glory[1] > top;
	long contested = 0;
	for (int f = c->floors > 1 ? c->floors - 1 : 1; f <= c->floors; f++)
		for (int r = 0; r < c->rooms; r++) {
			int n = __builtin_popcount(g->rooms[(f - 1) * c->rooms + r].claimed);
			st->deep_rooms++;
			st->deep_claimed += n >= 1;
			contested += n >= 2;
		}
	st->deep_contested += contested;
	st->deep_games_contested += contested > 0;
}

static void run_batch(df_game *g, const df_config *cfg, int seats, const int *mix, int nmix,
		      uint64_t seed, long games, sim_deepfall_stats *st, progress *prog)
{
	static int32_t hist[SIM_DEEPFALL_MAXLEN][DF_MAX_SEATS];
	char err[160];
	uint64_t t0 = now_ns(), c0 = cpu_ns();
	st->seats = seats;
	for (long i = 0; i < games; i++) {
		df_game_init(g, cfg, seats, rng_derive_seed(seed, (uint64_t)i), NULL);
		int strat[DF_MAX_SEATS];
		for (int s = 0; s < seats; s++)
			strat[s] = mix[(s + i) % nmix];
		while (!g->over) {
			game_choice ch[DF_MAX_SEATS];
			uint32_t p = df_pending(g);
			for (int s = 0; s < seats; s++)
				ch[s] = p >> s & 1 ? df_ai_choose(g, s, strat[s]) : GAME_NO_CHOICE;
			int played = g->rounds_played;
			if (df_apply(g, ch, NULL, err, sizeof err) != GAME_OK) {
				/* The bots only make legal choices (a unit test pins it). */
				fprintf(stderr, "lair sim deepfall: %s\n", err);
				abort();
			}
			if (g->rounds_played != played && g->rounds_played <= SIM_DEEPFALL_MAXLEN)
				for (int s = 0; s < seats; s++)
					hist[g->rounds_played - 1][s] = g->pl[s].glory;
		}
		add_game(g, strat, hist, st);
		if ((i & 255) == 255)
			progress_tick(prog, 256);
	}
	progress_tick(prog, games & 255);
	st->elapsed_s = (now_ns() - t0) / 1e9;
	st->cpu_s = (cpu_ns() - c0) / 1e9;
}

/* ---- derived figures and JSON ------------------------------------------ */

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

double sim_deepfall_strat_rate(const sim_deepfall_stats *st, int s)
{
	return ratio(st->strat_wins[s], (double)st->strat_seats[s]);
}
double sim_deepfall_lin_rate(const sim_deepfall_stats *st, int l)
{
	return ratio(st->lin_wins[l], (double)st->lin_parties[l]);
}
double sim_deepfall_cal_rate(const sim_deepfall_stats *st, int c)
{
	return ratio(st->cal_wins[c], (double)st->cal_parties[c]);
}

double sim_deepfall_mean_len(const sim_deepfall_stats *st)
{
	double s = 0;
	for (int r = 0; r < SIM_DEEPFALL_MAXLEN; r++)
		s += (double)r * st->len_hist[r];
	return ratio(s, (double)st->games);
}

double sim_deepfall_len_in_band(const sim_deepfall_stats *st, int lo, int hi)
{
	long n = 0;
	for (int r = lo; r <= hi && r < SIM_DEEPFALL_MAXLEN; r++)
		n += st->len_hist[r];
	return ratio((double)n, (double)st->games);
}

double sim_deepfall_len_sd(const sim_deepfall_stats *st)
{
	double m = sim_deepfall_mean_len(st), s = 0;
	for (int r = 0; r < SIM_DEEPFALL_MAXLEN; r++)
		s += (r - m) * (r - m) * st->len_hist[r];
	return sqrt(ratio(s, (double)st->games));
}

double sim_deepfall_comp_rate(const sim_deepfall_stats *st, int c)
{
	return ratio(st->comp_wins[c], (double)st->comp_parties[c]);
}

double sim_deepfall_comp_mean(const sim_deepfall_stats *st)
{
	double m = 0;
	int n = 0;
	for (int c = 0; c < DF_NCOMPANY; c++)
		if (st->comp_parties[c]) {
			m += sim_deepfall_comp_rate(st, c);
			n++;
		}
	return n ? m / n : 0;
}

double sim_deepfall_end_share(const sim_deepfall_stats *st, int end)
{
	double v[SIM_DEEPFALL_NEND] = {st->end_cash, st->end_forced, st->end_taken, st->end_worthy};
	return ratio(v[end], v[0] + v[1] + v[2] + v[3]);
}

double sim_deepfall_triangle_share(const sim_deepfall_stats *st, int src)
{
	switch (src) {
	case DF_SRC_CASH:
		return sim_deepfall_end_share(st, SIM_DEEPFALL_END_CHOSEN);
	case DF_SRC_PRESS:
		return sim_deepfall_end_share(st, SIM_DEEPFALL_END_FORCED) +
		       sim_deepfall_end_share(st, SIM_DEEPFALL_END_TAKEN);
	default:
		return sim_deepfall_end_share(st, SIM_DEEPFALL_END_WORTHY);
	}
}

double sim_deepfall_src_share(const sim_deepfall_stats *st, int src)
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

cJSON *sim_deepfall_json(const sim_deepfall_stats *st, const int *mix, int nmix)
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
		double r = sim_deepfall_strat_rate(st, s);
		cJSON *so = cJSON_CreateObject();
		cJSON_AddStringToObject(so, "name", strat_id(s));
		cJSON_AddNumberToObject(so, "seat_games", (double)st->strat_seats[s]);
		cJSON_AddNumberToObject(so, "wins", st->strat_wins[s]);
		cJSON_AddNumberToObject(so, "win_rate", r);
		double n = (double)st->strat_seats[s];
		cJSON *sg = cJSON_AddObjectToObject(so, "mean_glory_by_source");
		static const char *const srcn[DF_NSRC] = {"cash_out", "press_on", "worthy_end"};
		for (int k = 0; k < DF_NSRC; k++)
			cJSON_AddNumberToObject(sg, srcn[k], st->strat_glory[s][k] / n);
		cJSON_AddNumberToObject(so, "parties_per_game", st->strat_parties[s] / n);
		cJSON_AddNumberToObject(so, "claims_per_game", st->strat_claims[s] / n);
		cJSON_AddNumberToObject(so, "taken_per_game", st->strat_taken[s] / n);
		cJSON_AddItemToArray(strats, so);
		smax = r > smax ? r : smax;
		smin = r < smin ? r : smin;
	}
	double lworst = 0, cworst_cal = 0;
	cJSON_AddItemToObject(o, "lineages",
			      rates_json(DF_NLINEAGE, df_lineage_id, st->lin_wins,
					 st->lin_parties, &lworst));
	cJSON_AddItemToObject(o, "callings",
			      rates_json(DF_NCALLING, df_calling_id, st->cal_wins,
					 st->cal_parties, &cworst_cal));

	cJSON *len = cJSON_AddObjectToObject(o, "length");
	int lo = -1, hi = 0;
	cJSON *lh = cJSON_CreateObject();
	for (int r = 0; r < SIM_DEEPFALL_MAXLEN; r++)
		if (st->len_hist[r]) {
			char k[16];
			snprintf(k, sizeof k, "%d", r);
			cJSON_AddNumberToObject(lh, k, (double)st->len_hist[r]);
			lo = lo < 0 ? r : lo;
			hi = r;
		}
	cJSON_AddNumberToObject(len, "mean", sim_deepfall_mean_len(st));
	cJSON_AddNumberToObject(len, "sd", sim_deepfall_len_sd(st));
	cJSON_AddNumberToObject(len, "min", lo);
	cJSON_AddNumberToObject(len, "max", hi);
	cJSON_AddNumberToObject(len, "share_8_14", sim_deepfall_len_in_band(st, 8, 14));
	cJSON_AddItemToObject(o, "rounds_histogram", lh);

	cJSON *m = cJSON_AddObjectToObject(o, "margin_fraction");
	cJSON_AddNumberToObject(m, "mean", ratio(st->margin_sum, g));
	cJSON *mh = cJSON_AddArrayToObject(m, "histogram_tenths");
	for (int b = 0; b < SIM_DEEPFALL_BINS; b++)
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
	for (int b = 0; b < SIM_DEEPFALL_BINS; b++)
		cJSON_AddItemToArray(rh, cJSON_CreateNumber((double)st->cash_rel_hist[b]));
	cJSON *dh = cJSON_AddArrayToObject(ct, "by_depth");
	for (int d = 1; d <= DF_MAX_FLOORS; d++)
		cJSON_AddItemToArray(dh, cJSON_CreateNumber((double)st->cash_depth_hist[d]));

	cJSON *ex = cJSON_AddObjectToObject(o, "exit_share_of_winners_choices");
	static const char *const ends[SIM_DEEPFALL_NEND] = {"cash_out_chosen", "cash_out_forced",
							    "press_on", "worthy_end"};
	for (int k = 0; k < SIM_DEEPFALL_NEND; k++)
		cJSON_AddNumberToObject(ex, ends[k], sim_deepfall_end_share(st, k));
	static const char *const src[DF_NSRC] = {"cash_out", "press_on", "worthy_end"};
	cJSON *tri = cJSON_AddObjectToObject(o, "exit_triangle");
	double emax = 0;
	for (int k = 0; k < DF_NSRC; k++) {
		double sh = sim_deepfall_triangle_share(st, k);
		cJSON_AddNumberToObject(tri, src[k], sh);
		emax = sh > emax ? sh : emax;
	}
	cJSON *gs = cJSON_AddObjectToObject(o, "winners_glory_by_exit");
	for (int k = 0; k < DF_NSRC; k++)
		cJSON_AddNumberToObject(gs, src[k], sim_deepfall_src_share(st, k));
	cJSON *pe = cJSON_AddObjectToObject(o, "winners_party_endings_per_game");
	cJSON_AddNumberToObject(pe, "cash_out_chosen", ratio(st->end_cash, g));
	cJSON_AddNumberToObject(pe, "cash_out_forced", ratio(st->end_forced, g));
	cJSON_AddNumberToObject(pe, "worthy_end", ratio(st->end_worthy, g));
	cJSON_AddNumberToObject(pe, "taken", ratio(st->end_taken, g));
	cJSON_AddNumberToObject(o, "mean_glory", ratio(st->glory_sum, g * st->seats));

	cJSON *cg = cJSON_AddArrayToObject(o, "collapse_glory_by_floor");
	int floors = 0;
	for (int f = 1; f <= DF_MAX_FLOORS; f++)
		if (st->collapse_n[f]) {
			floors = f;
			cJSON_AddItemToArray(cg, cJSON_CreateNumber(ratio(
				st->collapse_glory[f], (double)st->collapse_n[f])));
		}
	cJSON *cw = cJSON_AddArrayToObject(o, "collapse_worthy_by_floor");
	for (int f = 1; f <= floors; f++)
		cJSON_AddItemToArray(cw, cJSON_CreateNumber(ratio(st->collapse_worthy[f],
								  (double)st->collapse_n[f])));
	double fbig = ratio((double)st->final_biggest, g);
	cJSON_AddNumberToObject(o, "final_collapse_biggest_share", fbig);
	cJSON *dr = cJSON_AddObjectToObject(o, "deep_rooms");
	double dcl = ratio((double)st->deep_claimed, (double)st->deep_rooms);
	double dco = ratio((double)st->deep_contested, (double)st->deep_rooms);
	cJSON_AddNumberToObject(dr, "rooms", (double)st->deep_rooms);
	cJSON_AddNumberToObject(dr, "claimed_share", dcl);
	cJSON_AddNumberToObject(dr, "contested_share", dco);
	double dgc = ratio((double)st->deep_games_contested, g);
	cJSON_AddNumberToObject(dr, "games_with_a_contest", dgc);

	double cmean = sim_deepfall_comp_mean(st), gmean = 0, cworst = 0;
	int nc = 0;
	for (int c = 0; c < DF_NCOMPANY; c++)
		if (st->comp_parties[c]) {
			gmean += st->comp_glory[c] / st->comp_parties[c];
			nc++;
		}
	gmean = nc ? gmean / nc : 0;
	cJSON *comps = cJSON_AddArrayToObject(o, "companies");
	for (int c = 0; c < DF_NCOMPANY; c++) {
		double r = sim_deepfall_comp_rate(st, c), q = ratio(r, cmean);
		cJSON *co = cJSON_CreateObject();
		cJSON_AddStringToObject(co, "lineage", df_lineage_id(c / DF_NCALLING));
		cJSON_AddStringToObject(co, "calling", df_calling_id(c % DF_NCALLING));
		cJSON_AddNumberToObject(co, "games", (double)st->comp_games[c]);
		cJSON_AddNumberToObject(co, "parties", (double)st->comp_parties[c]);
		cJSON_AddNumberToObject(co, "win_rate", r);
		cJSON_AddNumberToObject(co, "win_vs_mean", q);
		cJSON_AddNumberToObject(co, "glory_vs_mean",
					ratio(ratio(st->comp_glory[c], (double)st->comp_parties[c]),
					      gmean));
		cJSON_AddBoolToObject(co, "solved", q > SIM_DEEPFALL_SOLVED);
		cJSON_AddItemToArray(comps, co);
		cworst = q > cworst ? q : cworst;
	}

	cJSON *t = cJSON_AddObjectToObject(o, "targets");
	cJSON_AddBoolToObject(t, "strategy_max_le_40", smax <= 0.40);
	cJSON_AddBoolToObject(t, "strategy_min_ge_12", smin >= 0.12);
	cJSON_AddBoolToObject(t, "lineage_le_1_6x_mean", lworst <= 1.6);
	cJSON_AddBoolToObject(t, "calling_le_1_6x_mean", cworst_cal <= 1.6);
	cJSON_AddBoolToObject(t, "no_company_solved", cworst <= SIM_DEEPFALL_SOLVED);
	cJSON_AddBoolToObject(t, "length_mostly_8_14", sim_deepfall_len_in_band(st, 8, 14) >= 0.5);
	cJSON_AddBoolToObject(t, "length_spread", sim_deepfall_len_sd(st) >= SIM_DEEPFALL_LEN_SD);
	cJSON_AddBoolToObject(t, "exit_le_45_of_winners_choices", emax <= 0.45);
	cJSON_AddBoolToObject(t, "final_collapse_biggest_in_most", fbig > 0.5);
	cJSON_AddBoolToObject(t, "deep_rooms_contestable_not_free",
			      dgc > SIM_DEEPFALL_DEEP_GAMES_CONTESTED && dcl <= SIM_DEEPFALL_DEEP_CLAIMED_MAX);
	cJSON_AddBoolToObject(t, "feel_bad_rare", ratio((double)st->feel_bads, g) <= 0.10);

	cJSON_AddNumberToObject(o, "elapsed_s", st->elapsed_s);
	cJSON_AddNumberToObject(o, "cpu_s", st->cpu_s);
	cJSON_AddNumberToObject(o, "games_per_cpu_s", ratio(g, st->cpu_s));
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
	fprintf(f, ",length_mean,length_sd,length_share_8_14,margin_fraction_mean,"
		   "comeback_rate,feel_bad_per_game,cash_round_mean,cash_round_sd,"
		   "cash_depth_mean,cash_depth_sd,end_cash_out_chosen,end_cash_out_forced,"
		   "end_press_on,end_worthy_end,final_collapse_biggest,deep_claimed,"
		   "deep_contested,deep_games_contested\n");
}

static void csv_row(FILE *f, const sim_deepfall_stats *st, double point)
{
	double g = (double)st->games, n = (double)st->cash_n;
	double rm = ratio(st->cash_round_sum, n), dm = ratio(st->cash_depth_sum, n);
	fprintf(f, "%g,%ld,%d", point, st->games, st->seats);
	for (int s = 0; s < DF_NSTRAT; s++)
		fprintf(f, ",%.4f", sim_deepfall_strat_rate(st, s));
	for (int l = 0; l < DF_NLINEAGE; l++)
		fprintf(f, ",%.4f", sim_deepfall_lin_rate(st, l));
	for (int c = 0; c < DF_NCALLING; c++)
		fprintf(f, ",%.4f", sim_deepfall_cal_rate(st, c));
	fprintf(f, ",%.3f,%.3f,%.4f,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,%.3f", sim_deepfall_mean_len(st),
		sim_deepfall_len_sd(st), sim_deepfall_len_in_band(st, 8, 14), ratio(st->margin_sum, g),
		ratio(st->comeback_last, g), ratio((double)st->feel_bads, g), rm,
		sqrt(fmax(0, ratio(st->cash_round_sq, n) - rm * rm)), dm,
		sqrt(fmax(0, ratio(st->cash_depth_sq, n) - dm * dm)));
	for (int k = 0; k < SIM_DEEPFALL_NEND; k++)
		fprintf(f, ",%.4f", sim_deepfall_end_share(st, k));
	fprintf(f, ",%.4f,%.4f,%.4f,%.4f\n", ratio((double)st->final_biggest, g),
		ratio((double)st->deep_claimed, (double)st->deep_rooms),
		ratio((double)st->deep_contested, (double)st->deep_rooms),
		ratio((double)st->deep_games_contested, g));
}

/* ---- the human summary (stderr) ---------------------------------------- */

static void summary(FILE *f, const sim_deepfall_stats *st, const char *knob)
{
	double g = st->games ? (double)st->games : 1;
	if (knob)
		fprintf(f, "%s=%g: ", knob, st->value);
	fprintf(f, "%ld games, %.0f games/s (CPU); wins:", st->games,
		st->cpu_s > 0 ? g / st->cpu_s : 0);
	for (int s = 0; s < DF_NSTRAT; s++)
		if (st->strat_seats[s])
			fprintf(f, " %s %.1f%%", df_strategy_names[s], 100 * sim_deepfall_strat_rate(st, s));
	fprintf(f, "; length %.1f sd %.2f; margin %.2f; feel-bad %.3f/game; winners' exits "
		   "cash %.0f%% press %.0f%% (forced %.0f%%) worthy %.0f%%; final collapse "
		   "biggest %.0f%%; deep rooms claimed %.0f%% contested %.0f%% (in %.0f%% of games)\n",
		sim_deepfall_mean_len(st), sim_deepfall_len_sd(st), st->margin_sum / g, st->feel_bads / g,
		100 * sim_deepfall_triangle_share(st, DF_SRC_CASH),
		100 * sim_deepfall_triangle_share(st, DF_SRC_PRESS),
		100 * sim_deepfall_end_share(st, SIM_DEEPFALL_END_FORCED),
		100 * sim_deepfall_triangle_share(st, DF_SRC_WORTHY),
		100 * st->final_biggest / g, 100 * ratio((double)st->deep_claimed, (double)st->deep_rooms),
		100 * ratio((double)st->deep_contested, (double)st->deep_rooms),
		100 * st->deep_games_contested / g);
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

	sim_deepfall_stats *pts = xcalloc((size_t)points, sizeof *pts);
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
			cJSON *pt = sim_deepfall_json(&pts[p], mix, nmix);
			cJSON_AddNumberToObject(pt, "value", pts[p].value);
			cJSON_AddItemToArray(arr, pt);
		}
	} else {
		cJSON_AddItemToObject(root, "results", sim_deepfall_json(&pts[0], mix, nmix));
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
	if (o_report && sim_deepfall_report(o_report, pts, points, o_sweep ? knob : NULL, mix, nmix,
					    &cfg, seed, err, sizeof err) != 0) {
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
