/*
 * metrics.h — helpers for the Prometheus text exposition format (0.0.4)
 * that /metrics serves. Anyone appending metrics (net, app, store hooks)
 * uses these so every family gets exactly one HELP and TYPE line.
 *
 * Names are lair_<what>[_total]; counters end in _total, and no other
 * family ends in a suffix a histogram or counter reserves (_sum, _count,
 * _bucket, _total): `promtool check metrics` holds laird to this (the e2e
 * metrics test). Label values are escaped here; label names and metric
 * names are trusted constants.
 */
#ifndef LAIR_METRICS_H
#define LAIR_METRICS_H

#include <stdint.h>

#include <uv.h>

#include "../common/util.h"

/* "# HELP name help" and "# TYPE name type" (counter, gauge, histogram). */
void metrics_family(buf *out, const char *name, const char *type, const char *help);

/* One sample without labels: "name value". */
void metrics_sample(buf *out, const char *name, double value);

/* One sample with one label: name{label="value"} v. */
void metrics_sample_l(buf *out, const char *name, const char *label, const char *lvalue,
		      double value);

/* Shorthand: a family with a single unlabelled sample. */
void metrics_gauge(buf *out, const char *name, const char *help, double value);
void metrics_counter(buf *out, const char *name, const char *help, double value);

/* A latency histogram in seconds over fixed buckets (METRICS_BOUNDS: 0.5 ms
 * to 5 s). Zero-initialised is empty; observed and written on one thread.
 * bucket[i] counts observations in (bound[i-1], bound[i]]; the last one
 * those above every bound (+Inf). */
#define METRICS_NBOUNDS 13
typedef struct metrics_hist {
	uint64_t bucket[METRICS_NBOUNDS + 1];
	uint64_t count;
	double sum;
} metrics_hist;

void metrics_hist_observe(metrics_hist *h, double seconds);

/* The family: HELP, TYPE histogram, name_bucket{le=...} (cumulative, le="+Inf"
 * last), name_sum, name_count. */
void metrics_histogram(buf *out, const char *name, const char *help, const metrics_hist *h);

/* lair_build_info{version,libwebsockets,sqlite} 1. */
void metrics_build_info(buf *out, const char *version, const char *lws_version,
			const char *sqlite_version);

/* The standard process_* families of Prometheus client libraries, read from
 * /proc/self (memory, never disk; the unit's ProcSubset=pid leaves it):
 * process_cpu_seconds_total, process_resident_memory_bytes,
 * process_virtual_memory_bytes, process_open_fds (open_fds, from
 * metrics_open_fds below), process_max_fds, and process_start_time_seconds,
 * which is start_unix (the caller's clock at start-up). A value that cannot
 * be read (open_fds < 0) is left out. */
void metrics_process(buf *out, double start_unix, long open_fds);

/* ---- metrics_fds.c: the open descriptors, without stalling the loop ---- */

/* The count: by one stat of /proc/self/fd where the kernel gives it (Linux
 * 6.2 and later), else the last count metrics_open_fds_counted made. */
long metrics_open_fds(uv_loop_t *loop);
/* The stat's answer, or -1 where the kernel gives none. */
long metrics_open_fds_stat(void);
/* Reads /proc/self/fd: one entry per descriptor (O(n), for a pool thread,
 * or when the count is small). -1 when it cannot. */
long metrics_open_fds_dir(void);
/* The last reading, and a new one started on loop's thread pool (unless one
 * is running); the first call reads at once. */
long metrics_open_fds_counted(uv_loop_t *loop);

#endif
