/*
 * bench.h — what the benchmarks share: this thread's CPU time (steadier than
 * the wall clock on a shared machine), the machine's load average, and
 * bench_figure(), which prints one headline figure in the form
 *
 *   figure KEY VALUE UNIT (load 1.02 0.87 0.66)
 *
 * that tests/bench/run collects into build-bench/bench.json. Every figure
 * carries the load average of the moment it was taken: on a busy machine a
 * figure means little without it.
 */
#ifndef LAIR_BENCH_H
#define LAIR_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* CPU time of the calling thread: the figure is per core even when other
 * processes share it. */
static inline uint64_t bench_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The first three fields of /proc/loadavg ("1.02 0.87 0.66"), or "?". */
static inline const char *bench_loadavg(void)
{
	static char load[64];
	FILE *f = fopen("/proc/loadavg", "r");
	double a, b, c;
	if (f && fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3)
		snprintf(load, sizeof load, "%.2f %.2f %.2f", a, b, c);
	else
		snprintf(load, sizeof load, "?");
	if (f)
		fclose(f);
	return load;
}

static inline void bench_figure(const char *key, double value, const char *unit)
{
	if (value == (double)(int64_t)value)
		printf("figure %s %lld %s (load %s)\n", key, (long long)value, unit, bench_loadavg());
	else
		printf("figure %s %.3f %s (load %s)\n", key, value, unit, bench_loadavg());
	fflush(stdout);
}

#endif
