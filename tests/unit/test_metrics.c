/*
 * test_metrics.c — server/metrics.c: the Prometheus text format lines that
 * /metrics serves (HELP/TYPE once per family, values, label escaping,
 * histograms, build info and the process_* families).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/metrics.h"
#include "../test.h"
#include "metric_sample.h"

static const char *sample(buf *b, double v)
{
	buf_clear(b);
	metrics_sample(b, "lair_x", v);
	return b->data;
}

TEST(metrics_values_whole_fraction_huge_and_special)
{
	buf b = {0};
	CHECK_STR(sample(&b, 0), "lair_x 0\n");
	CHECK_STR(sample(&b, 42), "lair_x 42\n");
	CHECK_STR(sample(&b, -7), "lair_x -7\n");
	CHECK_STR(sample(&b, 0.25), "lair_x 0.25\n");
	CHECK_STR(sample(&b, 123456789012345.0), "lair_x 123456789012345\n");
	/* beyond long long: printed, never cast (UBSan's float-cast-overflow) */
	CHECK_STR(sample(&b, 1e20), "lair_x 1e+20\n");
	CHECK_STR(sample(&b, -1e300), "lair_x -1e+300\n");
	CHECK_STR(sample(&b, NAN), "lair_x NaN\n");
	CHECK_STR(sample(&b, INFINITY), "lair_x +Inf\n");
	CHECK_STR(sample(&b, -INFINITY), "lair_x -Inf\n");
	buf_free(&b);
}

TEST(metrics_family_and_escaped_labels)
{
	buf b = {0};
	metrics_counter(&b, "lair_msgs_total", "messages", 3);
	CHECK_STR(b.data, "# HELP lair_msgs_total messages\n# TYPE lair_msgs_total counter\n"
			  "lair_msgs_total 3\n");
	buf_clear(&b);
	metrics_sample_l(&b, "lair_err_total", "code", "a\"b\\c\nd", 1);
	CHECK_STR(b.data, "lair_err_total{code=\"a\\\"b\\\\c\\nd\"} 1\n");
	buf_free(&b);
}

TEST(metrics_histogram_buckets_are_cumulative_with_inf_sum_and_count)
{
	metrics_hist h = {0};
	metrics_hist_observe(&h, 0.0001); /* first bucket */
	metrics_hist_observe(&h, 0.001);  /* a bound belongs to its bucket (le) */
	metrics_hist_observe(&h, 0.003);
	metrics_hist_observe(&h, 60);     /* above every bound: +Inf only */
	buf b = {0};
	metrics_histogram(&b, "lair_wait_seconds", "waits", &h);
	CHECK(strncmp(b.data, "# HELP lair_wait_seconds waits\n# TYPE lair_wait_seconds histogram\n",
		      66) == 0);
	CHECK(strstr(b.data, "\nlair_wait_seconds_bucket{le=\"0.0005\"} 1\n") != NULL);
	CHECK(strstr(b.data, "\nlair_wait_seconds_bucket{le=\"0.001\"} 2\n") != NULL);
	CHECK(strstr(b.data, "\nlair_wait_seconds_bucket{le=\"0.002\"} 2\n") != NULL);
	CHECK(strstr(b.data, "\nlair_wait_seconds_bucket{le=\"0.005\"} 3\n") != NULL);
	CHECK(strstr(b.data, "\nlair_wait_seconds_bucket{le=\"5\"} 3\n") != NULL);
	CHECK(strstr(b.data, "\nlair_wait_seconds_bucket{le=\"+Inf\"} 4\n") != NULL);
	CHECK(strstr(b.data, "\nlair_wait_seconds_sum 60.0041\n") != NULL);
	CHECK(strstr(b.data, "\nlair_wait_seconds_count 4\n") != NULL);
	/* +Inf is the last bucket line; sum and count follow */
	const char *inf = strstr(b.data, "le=\"+Inf\"");
	REQUIRE(inf);
	CHECK(strstr(inf, "_bucket") == NULL);
	buf_free(&b);
}

TEST(metrics_build_info_escapes_and_process_metrics_read_proc)
{
	buf b = {0};
	metrics_build_info(&b, "0.1.0", "4.1.6-", "3.\"x\"");
	CHECK(strstr(b.data, "# TYPE lair_build_info gauge\n") != NULL);
	CHECK(strstr(b.data, "lair_build_info{version=\"0.1.0\",libwebsockets=\"4.1.6-\","
			     "sqlite=\"3.\\\"x\\\"\"} 1\n") != NULL);
	buf_clear(&b);
	metrics_process(&b, 1700000000.25, metrics_open_fds_dir());
	static const char *const names[] = {
		"process_cpu_seconds_total", "process_resident_memory_bytes",
		"process_virtual_memory_bytes", "process_open_fds", "process_max_fds",
		"process_start_time_seconds",
	};
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		double v = metric_sample(b.data, names[i]);
		/* CPU time may still round to 0 this early */
		CHECK_MSG(i == 0 ? v >= 0 : v > 0, "%s = %g", names[i], v);
	}
	CHECK(strstr(b.data, "\nprocess_start_time_seconds 1700000000.25\n") != NULL);
	/* one more open descriptor is counted */
	double before = metric_sample(b.data, "process_open_fds");
	FILE *extra = fopen("/dev/null", "r");
	REQUIRE(extra);
	buf_clear(&b);
	metrics_process(&b, 0, metrics_open_fds_dir());
	CHECK_EQ(metric_sample(b.data, "process_open_fds"), before + 1);
	fclose(extra);
	/* a count that cannot be read is left out */
	buf_clear(&b);
	metrics_process(&b, 0, -1);
	CHECK(strstr(b.data, "process_open_fds") == NULL);
	buf_free(&b);
}

/* process_open_fds never reads the directory on the loop but the first
 * time: the kernel's count (one stat) when it gives one, else the last
 * reading made on the thread pool, at most one scrape old. */
TEST(metrics_open_fds_counts_off_the_loop)
{
	long dir = metrics_open_fds_dir();
	REQUIRE(dir > 2);
	long st = metrics_open_fds_stat();
	if (st >= 0) /* Linux 6.2 and later */
		CHECK_EQ(st, dir);
	uv_loop_t loop;
	REQUIRE(uv_loop_init(&loop) == 0);
	uv_run(&loop, UV_RUN_NOWAIT);
	long first = metrics_open_fds_counted(&loop); /* read at once */
	CHECK(first > 2);
	uv_run(&loop, UV_RUN_DEFAULT); /* the pool's reading lands */
	FILE *extra = fopen("/dev/null", "r");
	REQUIRE(extra);
	long stale = metrics_open_fds_counted(&loop); /* the last reading */
	uv_run(&loop, UV_RUN_DEFAULT);
	long fresh = metrics_open_fds_counted(&loop);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_EQ(fresh, stale + 1);
	fclose(extra);
	CHECK(metrics_open_fds(&loop) > 2);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_EQ(uv_loop_close(&loop), 0);
}
