/*
 * sim_deepfall.h — the DEEPFALL balance simulator's aggregate figures (seed
 * 001 B7 and Part C), shared by the runner (sim_deepfall.c) and the HTML/SVG
 * report writer (sim_deepfall_report.c). One dfs_stats holds one batch of
 * games (one point of a sweep); it is plain data, no pointers.
 */
#ifndef LAIR_SIM_DEEPFALL_H
#define LAIR_SIM_DEEPFALL_H

#include <cJSON.h>

#include "../server/games/deepfall/deepfall.h"

#define DFS_MAXLEN 128 /* rounds kept in the length histogram */
#define DFS_BINS 10

typedef struct dfs_stats {
	double value; /* the swept knob's value (sweeps only) */
	long games;
	int seats;
	/* wins are split between tied winners */
	double strat_wins[DF_NSTRAT];
	long strat_seats[DF_NSTRAT];
	double lin_wins[DF_NLINEAGE], cal_wins[DF_NCALLING];
	long lin_parties[DF_NLINEAGE], cal_parties[DF_NCALLING];
	long len_hist[DFS_MAXLEN];
	double margin_sum;
	long margin_hist[DFS_BINS]; /* (winner - runner-up) / winner in tenths */
	double comeback_last, comeback_behind;
	long feel_bads, games_with_feel_bad;
	long cash_n;
	double cash_round_sum, cash_round_sq, cash_depth_sum, cash_depth_sq;
	long cash_rel_hist[DFS_BINS]; /* winners' cash-outs by tenth of the game */
	long cash_depth_hist[DF_MAX_FLOORS + 1];
	double src_glory[DF_NSRC]; /* winners' glory by exit */
	double end_cash, end_worthy, end_taken; /* winners' parties by ending */
	double glory_sum;
	double elapsed_s;
} dfs_stats;

/* Derived figures. */
double dfs_strat_rate(const dfs_stats *st, int s);
double dfs_lin_rate(const dfs_stats *st, int l);
double dfs_cal_rate(const dfs_stats *st, int c);
double dfs_mean_len(const dfs_stats *st);
double dfs_len_in_band(const dfs_stats *st, int lo, int hi);
double dfs_src_share(const dfs_stats *st, int src);

/* The figures as JSON (caller owns); mix: the strategies' names in use. */
cJSON *dfs_json(const dfs_stats *st, const int *mix, int nmix);

/* Writes DIR/index.html (created if missing): plots of one batch, or of a
 * sweep's points when n > 1. 0, or -1 with a message. */
int dfs_report(const char *dir, const dfs_stats *pts, int n, const char *knob,
	       const int *mix, int nmix, const df_config *cfg, uint64_t seed, char *err,
	       size_t errlen);

#endif
