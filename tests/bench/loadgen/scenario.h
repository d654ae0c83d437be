/*
 * scenario.h — the two loads the generator drives against one laird:
 *
 * idle: n connections open (at most in_flight upgrading at once), each says
 *   hello with a new name, then stays silent; the server's resident memory
 *   is sampled before the first and once all are welcomed (and settled);
 *   its CPU over a quiet hold; at the end every connection sends a protocol
 *   `ping` and a WebSocket ping frame, and each must be answered.
 *
 * play: n bots (a multiple of 5) at n/5 five-seat gems tables: seat 0
 *   creates the table, the others join, the host starts it and rematches
 *   after each result. Every bot answers its options after a think time
 *   drawn from the run's seed (uniform in think_min..think_max ms), leaves
 *   with probability leave_p when it may, and with probability change_p
 *   changes its mind inside the window (after `window` arrives, at a random
 *   point of its first 60%). Measured over measure_sec once every table has
 *   started: the time from the window's close (the reveal's t_close_us) to
 *   the moment the last of the five seats read the reveal (p50/p99/max), the
 *   server's decisions per second, bytes and frames received per decision
 *   (all five seats), the server's and the generator's CPU, errors.
 */
#ifndef LAIR_LG_SCENARIO_H
#define LAIR_LG_SCENARIO_H

#include "lg.h"

typedef struct lg_idle_opts {
	size_t n;
	int in_flight;     /* connections upgrading or awaiting welcome at once */
	double ramp_sec;   /* bound on opening them all */
	double hold_sec;   /* quiet hold: the server's idle CPU */
	double answer_sec; /* bound on every ping being answered */
} lg_idle_opts;

typedef struct lg_play_opts {
	size_t n; /* bots; n/5 tables */
	int in_flight;
	double ramp_sec, measure_sec;
	int think_min_ms, think_max_ms;
	int window_ms; /* the server's, for the change-of-mind timing */
	double leave_p, change_p;
	bool full_views; /* no caps in hello: whole views, as an old client */
} lg_play_opts;

/* Each prints its figures (lg_figure) and returns 0 when the run held (all
 * connected, every ping or reveal arrived, no error), else 1. */
int lg_idle_run(lg_ctx *ctx, const lg_idle_opts *o);
/* check.c: the WebSocket client's behaviours, one by one, against the
 * server; 0 when each held. */
int lg_check_run(lg_ctx *ctx);
int lg_play_run(lg_ctx *ctx, const lg_play_opts *o);

#endif
