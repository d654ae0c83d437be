/*
 * lg.h — what the load generator's modules share: the run's context (its
 * loop, the server's address, the source addresses to connect from), a
 * growable list of latencies, error tallies, and lg_run_until(), which runs
 * the loop until a condition holds or a deadline passes. The scenarios are
 * written as plain sequences ("connect N, wait until all are welcomed or
 * 60 s passed, sample, ...") on top of it: the loop does the waiting.
 *
 *   laird.c   starts and stops laird, samples its /proc figures
 *   http.c    GET /metrics on the loop, and reading a metric from it
 *   idle.c    the idle scenario: N connections say hello and stay
 *   play.c    the play scenario: N bots at N/5 five-seat gems tables
 *   ramp.c    the connection ramp both scenarios share
 *   ws.c      the WebSocket client, jscan.c the JSON field reader
 *   main.c    options, limits, the report
 */
#ifndef LAIR_LG_H
#define LAIR_LG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netinet/in.h>
#include <uv.h>

#define LG_MAX_SOURCES 64
#define LG_CONNS_PER_SOURCE 20000 /* well inside one address's 28,232 ephemeral ports */

typedef struct lg_ctx {
	uv_loop_t *loop;
	struct sockaddr_in dst;
	char host[64]; /* "127.0.0.1:PORT", the Host header */
	struct sockaddr_in src[LG_MAX_SOURCES];
	int n_src;
	int pid;       /* the server's, for /proc (0: unknown) */
	uint64_t seed; /* the bots' seeded randomness */
	char tag[8];   /* this run's mark in player names */
	bool quiet;
} lg_ctx;

/* Runs ctx's loop until done(ud) is true (returns true) or `seconds` pass
 * (false). A 20 ms timer keeps the loop waking while it waits. */
bool lg_run_until(lg_ctx *ctx, bool (*done)(void *ud), void *ud, double seconds);
/* Runs the loop for `seconds` (the bots play meanwhile). */
void lg_run_for(lg_ctx *ctx, double seconds);
/* The source address for the i-th connection: LG_CONNS_PER_SOURCE each. */
const struct sockaddr_in *lg_source(lg_ctx *ctx, size_t i);

/* Latencies in microseconds. */
typedef struct lg_lat {
	uint32_t *v;
	size_t n, cap;
} lg_lat;
void lg_lat_add(lg_lat *l, uint64_t us);
/* Sorts, then the p-quantile (0..1) in ms; NAN when empty. */
double lg_lat_ms(lg_lat *l, double p);
void lg_lat_free(lg_lat *l);

/* Error codes and close reasons seen, counted by name. */
typedef struct lg_tally {
	struct {
		char name[40];
		uint64_t n;
	} e[32];
	int len;
	uint64_t total;
} lg_tally;
void lg_tally_add(lg_tally *t, const char *name);
/* "code=n code=n" or "none". */
void lg_tally_str(const lg_tally *t, char *out, size_t cap);

/* Prints a figure line (tests/bench/bench.h's form) and adds it to the
 * run's JSON report. */
void lg_figure(const char *key, double value, const char *unit);
/* Every figure so far as one JSON object (with the load average). */
const char *lg_report_json(void);
void lg_report_free(void);

#endif
