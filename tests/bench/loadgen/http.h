/*
 * http.h — GET a page of the server (its /metrics) on the loop, so that
 * sampling it never stalls the bots' reads, and read one metric from the
 * Prometheus text.
 */
#ifndef LAIR_LG_HTTP_H
#define LAIR_LG_HTTP_H

#include "../../../common/util.h"
#include "lg.h"

/* GETs path from ctx's server within `seconds`; the body into out (which
 * is cleared). 0, or -1 (out then holds a reason). */
int lg_http_get(lg_ctx *ctx, const char *path, double seconds, buf *out);

/* The value of the first sample of metric `name` (any labels) in text, or
 * NAN. */
double lg_metric(const char *text, const char *name);

#endif
