/*
 * sim_deepfall.h — the DEEPFALL balance simulator's aggregate figures (their
 * definitions: docs/rules/deepfall.md DF80-DF89), shared by the runner
 * (sim_deepfall.c) and the HTML/SVG report writer (sim_deepfall_report.c).
 * One sim_deepfall_stats holds one batch of games (one point of a sweep); it is
 * plain data, no pointers.
 */
#ifndef LAIR_SIM_DEEPFALL_H
#define LAIR_SIM_DEEPFALL_H

#include <cJSON.h>

#include "../server/games/deepfall/deepfall.h"

#define SIM_DEEPFALL_MAXLEN 128 /* rounds kept in the length histogram */
#define SIM_DEEPFALL_BINS 10

typedef struct sim_deepfall_stats {
	double value; /* the swept knob's value (sweeps only) */
	long games;
	int seats;
	/* wins are split between tied winners */
	double strat_wins[DF_NSTRAT];
	long strat_seats[DF_NSTRAT];
	double strat_glory[DF_NSTRAT][DF_NSRC]; /* glory by source, summed */
	double strat_parties[DF_NSTRAT], strat_claims[DF_NSTRAT], strat_taken[DF_NSTRAT];
	double lin_wins[DF_NLINEAGE], cal_wins[DF_NCALLING];
	long lin_parties[DF_NLINEAGE], cal_parties[DF_NCALLING];
	/* companies (lineage * 6 + calling): wins and glory per party fielded */
	double comp_wins[DF_NCOMPANY], comp_glory[DF_NCOMPANY];
	long comp_parties[DF_NCOMPANY], comp_games[DF_NCOMPANY];
	/* glory paid by each floor's collapse, and games whose floor-1
	 * collapse paid more than any other */
	double collapse_glory[DF_MAX_FLOORS + 1];
	double collapse_worthy[DF_MAX_FLOORS + 1]; /* the Worthy Ends' part */
	long collapse_n[DF_MAX_FLOORS + 1];
	long final_biggest;
	/* rooms of the two deepest floors: how many, claimed, by two or more;
	 * games with at least one of them contested */
	long deep_rooms, deep_claimed, deep_contested, deep_games_contested;
	long len_hist[SIM_DEEPFALL_MAXLEN];
	double margin_sum;
	long margin_hist[SIM_DEEPFALL_BINS]; /* (winner - runner-up) / winner in tenths */
	double comeback_last, comeback_behind;
	long feel_bads, games_with_feel_bad;
	long cash_n;
	double cash_round_sum, cash_round_sq, cash_depth_sum, cash_depth_sq;
	long cash_rel_hist[SIM_DEEPFALL_BINS]; /* winners' cash-outs by tenth of the game */
	long cash_depth_hist[DF_MAX_FLOORS + 1];
	double src_glory[DF_NSRC]; /* winners' glory by exit */
	/* winners' parties by ending (DF84) */
	double end_cash, end_forced, end_worthy, end_taken;
	double glory_sum;
	double elapsed_s, cpu_s;
} sim_deepfall_stats;

/* Derived figures. */
double sim_deepfall_strat_rate(const sim_deepfall_stats *st, int s);
double sim_deepfall_lin_rate(const sim_deepfall_stats *st, int l);
double sim_deepfall_cal_rate(const sim_deepfall_stats *st, int c);
double sim_deepfall_mean_len(const sim_deepfall_stats *st);
double sim_deepfall_len_in_band(const sim_deepfall_stats *st, int lo, int hi);
double sim_deepfall_src_share(const sim_deepfall_stats *st, int src);
double sim_deepfall_len_sd(const sim_deepfall_stats *st);
double sim_deepfall_comp_rate(const sim_deepfall_stats *st, int c);
/* The mean of the fielded companies' win rates (DF83). */
double sim_deepfall_comp_mean(const sim_deepfall_stats *st);
/* Winners' party endings (DF84): shares of chosen Cash-Outs, forced
 * Cash-Outs, Takens and Worthy Ends; and the triangle's three exits
 * (Cash Out chosen, Press On = forced + Taken, Worthy End). */
enum {
	SIM_DEEPFALL_END_CHOSEN,
	SIM_DEEPFALL_END_FORCED,
	SIM_DEEPFALL_END_TAKEN,
	SIM_DEEPFALL_END_WORTHY,
	SIM_DEEPFALL_NEND
};
double sim_deepfall_end_share(const sim_deepfall_stats *st, int end);
double sim_deepfall_triangle_share(const sim_deepfall_stats *st, int src);
/* The company threshold of DF83: a company is "solved" above this many
 * times the mean company win rate. */
#define SIM_DEEPFALL_SOLVED 2.0
/* DF85, DF86: a real spread of game length (standard deviation in rounds);
 * deep rooms "contestable but not free": one contested in most games, and
 * not every one claimed (at most this share). */
#define SIM_DEEPFALL_LEN_SD 1.0
#define SIM_DEEPFALL_DEEP_GAMES_CONTESTED 0.5
#define SIM_DEEPFALL_DEEP_CLAIMED_MAX 0.75

/* The figures as JSON (caller owns); mix: the strategies' names in use. */
cJSON *sim_deepfall_json(const sim_deepfall_stats *st, const int *mix, int nmix);

/* Writes DIR/index.html (created if missing): plots of one batch, or of a
 * sweep's points when n > 1. 0, or -1 with a message. */
int sim_deepfall_report(const char *dir, const sim_deepfall_stats *pts, int n, const char *knob,
			const int *mix, int nmix, const df_config *cfg, uint64_t seed, char *err,
			size_t errlen);

#endif
