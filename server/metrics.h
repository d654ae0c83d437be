/*
 * metrics.h — helpers for the Prometheus text exposition format (0.0.4)
 * that /metrics serves. Anyone appending metrics (net, app, store hooks)
 * uses these so every family gets exactly one HELP and TYPE line.
 *
 * Names are lair_<what>[_total]; counters end in _total. Label values are
 * escaped here; label names and metric names are trusted constants.
 */
#ifndef LAIR_METRICS_H
#define LAIR_METRICS_H

#include "../common/util.h"

/* "# HELP name help" and "# TYPE name type" (type: counter, gauge). */
void metrics_family(buf *out, const char *name, const char *type, const char *help);

/* One sample without labels: "name value". */
void metrics_sample(buf *out, const char *name, double value);

/* One sample with one label: name{label="value"} v. */
void metrics_sample_l(buf *out, const char *name, const char *label, const char *lvalue,
		      double value);

/* Shorthand: a family with a single unlabelled sample. */
void metrics_gauge(buf *out, const char *name, const char *help, double value);
void metrics_counter(buf *out, const char *name, const char *help, double value);

#endif
