/*
 * http.h — GET a page of the server (its /metrics) on the loop, so that
 * sampling it never stalls the bots' reads, and read one metric from the
 * Prometheus text.
 */
#ifndef LAIR_LG_HTTP_H
#define LAIR_LG_HTTP_H

#include <stdbool.h>

#include "../../../common/util.h"
#include "lg.h"

/* GETs path from ctx's server within `seconds`; the body into out (which
 * is cleared). 0, or -1 (out then holds a reason). */
int lg_http_get(lg_ctx *ctx, const char *path, double seconds, buf *out);

/* The value of the first sample of metric `name` (any labels) in text, or
 * NAN. */
double lg_metric(const char *text, const char *name);

/* A Prometheus histogram as laird exposes it: cumulative counts by upper
 * bound (seconds; the last is +Inf), its sum and count. */
#define LG_HIST_MAX 32
typedef struct lg_hist {
	int n;
	double le[LG_HIST_MAX], cum[LG_HIST_MAX];
	double sum, count;
} lg_hist;
/* Reads histogram `name` from text; false when it is not there. */
bool lg_histogram(const char *text, const char *name, lg_hist *h);
/* The q-quantile (0..1, seconds) of what was observed between two reads a
 * and b of the same histogram, interpolated within its bucket as
 * Prometheus' histogram_quantile does; NAN when nothing was. */
double lg_hist_quantile(const lg_hist *a, const lg_hist *b, double q);

#endif
