/*
 * metrics.c — see metrics.h.
 */
#include "metrics.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

void metrics_family(buf *out, const char *name, const char *type, const char *help)
{
	buf_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Whole numbers print without an exponent or decimals. The range test
 * comes first: casting a double beyond long long is undefined. */
static void put_value(buf *out, double v)
{
	if (isnan(v))
		buf_puts(out, "NaN");
	else if (isinf(v))
		buf_puts(out, v > 0 ? "+Inf" : "-Inf");
	else if (fabs(v) < 1e15 && v == (double)(long long)v)
		buf_printf(out, "%lld", (long long)v);
	else
		buf_printf(out, "%.15g", v); /* a unix time keeps its ms */
	buf_puts(out, "\n");
}

void metrics_sample(buf *out, const char *name, double value)
{
	buf_printf(out, "%s ", name);
	put_value(out, value);
}

/* label="value", escaped; a comma first unless first. */
static void put_label(buf *out, const char *label, const char *value, bool first)
{
	buf_printf(out, "%s%s=\"", first ? "" : ",", label);
	for (const char *p = value; *p; p++) {
		if (*p == '\\' || *p == '"')
			buf_printf(out, "\\%c", *p);
		else if (*p == '\n')
			buf_puts(out, "\\n");
		else
			buf_append(out, p, 1);
	}
	buf_puts(out, "\"");
}

void metrics_sample_l(buf *out, const char *name, const char *label, const char *lvalue,
		      double value)
{
	buf_printf(out, "%s{", name);
	put_label(out, label, lvalue, true);
	buf_puts(out, "} ");
	put_value(out, value);
}

void metrics_gauge(buf *out, const char *name, const char *help, double value)
{
	metrics_family(out, name, "gauge", help);
	metrics_sample(out, name, value);
}

void metrics_counter(buf *out, const char *name, const char *help, double value)
{
	metrics_family(out, name, "counter", help);
	metrics_sample(out, name, value);
}

/* ---- histograms ---- */

static const double bounds[METRICS_NBOUNDS] = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05,
					       0.1,    0.25,  0.5,   1,     2.5,  5};

void metrics_hist_observe(metrics_hist *h, double seconds)
{
	int i = 0;
	while (i < METRICS_NBOUNDS && seconds > bounds[i])
		i++;
	h->bucket[i]++;
	h->count++;
	h->sum += seconds;
}

void metrics_histogram(buf *out, const char *name, const char *help, const metrics_hist *h)
{
	metrics_family(out, name, "histogram", help);
	uint64_t cum = 0;
	for (int i = 0; i <= METRICS_NBOUNDS; i++) {
		cum += h->bucket[i];
		if (i < METRICS_NBOUNDS)
			buf_printf(out, "%s_bucket{le=\"%g\"} ", name, bounds[i]);
		else
			buf_printf(out, "%s_bucket{le=\"+Inf\"} ", name);
		put_value(out, (double)cum);
	}
	buf_printf(out, "%s_sum ", name);
	put_value(out, h->sum);
	buf_printf(out, "%s_count ", name);
	put_value(out, (double)h->count);
}

/* ---- build and process ---- */

void metrics_build_info(buf *out, const char *version, const char *lws_version,
			const char *sqlite_version)
{
	metrics_family(out, "lair_build_info", "gauge",
		       "Always 1; the labels say which laird and libraries are running.");
	buf_puts(out, "lair_build_info{");
	put_label(out, "version", version, true);
	put_label(out, "libwebsockets", lws_version, false);
	put_label(out, "sqlite", sqlite_version, false);
	buf_puts(out, "} ");
	put_value(out, 1);
}

/* The fields of /proc/self/stat after the command name (which may hold
 * spaces and parentheses): fields[0] is field 3 (state) of proc(5). */
static int self_stat(unsigned long long *fields, int n)
{
	char line[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	if (!f)
		return -1;
	char *ok = fgets(line, sizeof line, f);
	fclose(f);
	char *p = ok ? strrchr(line, ')') : NULL;
	if (!p)
		return -1;
	p += 2; /* ") " */
	for (int i = 0; i < n; i++) {
		while (*p == ' ')
			p++;
		if (i == 0) { /* the state is a letter */
			fields[i] = (unsigned char)*p;
			p++;
			continue;
		}
		char *end;
		fields[i] = strtoull(p, &end, 10);
		if (end == p)
			return -1;
		p = end;
	}
	return 0;
}

void metrics_process(buf *out, double start_unix, long open_fds)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		metrics_counter(out, "process_cpu_seconds_total",
				"Total user and system CPU time spent in seconds.",
				(double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
					(double)ru.ru_stime.tv_sec +
					(double)ru.ru_stime.tv_usec / 1e6);
	/* proc(5): 23 vsize (bytes), 24 rss (pages) */
	unsigned long long st[22];
	if (self_stat(st, 22) == 0) {
		long page = sysconf(_SC_PAGESIZE);
		metrics_gauge(out, "process_resident_memory_bytes", "Resident memory size in bytes.",
			      (double)st[21] * (double)(page > 0 ? page : 4096));
		metrics_gauge(out, "process_virtual_memory_bytes", "Virtual memory size in bytes.",
			      (double)st[20]);
	}
	metrics_gauge(out, "process_start_time_seconds",
		      "Start time of the process since unix epoch in seconds.", start_unix);
	if (open_fds >= 0)
		metrics_gauge(out, "process_open_fds", "Number of open file descriptors.",
			      (double)open_fds);
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		metrics_gauge(out, "process_max_fds", "Maximum number of open file descriptors.",
			      rl.rlim_cur == RLIM_INFINITY ? -1 : (double)rl.rlim_cur);
}
