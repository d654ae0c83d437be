/*
 * metrics.c — see metrics.h.
 */
#include "metrics.h"

#include <math.h>

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
		buf_printf(out, "%.9g", v);
	buf_puts(out, "\n");
}

void metrics_sample(buf *out, const char *name, double value)
{
	buf_printf(out, "%s ", name);
	put_value(out, value);
}

void metrics_sample_l(buf *out, const char *name, const char *label, const char *lvalue,
		      double value)
{
	buf_printf(out, "%s{%s=\"", name, label);
	for (const char *p = lvalue; *p; p++) {
		if (*p == '\\' || *p == '"')
			buf_printf(out, "\\%c", *p);
		else if (*p == '\n')
			buf_puts(out, "\\n");
		else
			buf_append(out, p, 1);
	}
	buf_puts(out, "\"} ");
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
