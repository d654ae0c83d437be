/*
 * test_metrics.c — server/metrics.c: the Prometheus text format lines that
 * /metrics serves (HELP/TYPE once per family, values, label escaping).
 */
#include <math.h>
#include <string.h>

#include "../../server/metrics.h"
#include "../test.h"

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
