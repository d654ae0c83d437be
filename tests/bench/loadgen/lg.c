/*
 * lg.c — see lg.h.
 */
#include "lg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/util.h"
#include "../bench.h"

static void on_tick(uv_timer_t *t) { (void)t; }

bool lg_run_until(lg_ctx *ctx, bool (*done)(void *ud), void *ud, double seconds)
{
	uint64_t end = now_ns() + (uint64_t)(seconds * 1e9);
	uv_timer_t tick;
	uv_timer_init(ctx->loop, &tick);
	uv_timer_start(&tick, on_tick, 20, 20);
	bool ok;
	while (!(ok = done && done(ud)) && now_ns() < end)
		uv_run(ctx->loop, UV_RUN_ONCE);
	uv_close((uv_handle_t *)&tick, NULL);
	uv_run(ctx->loop, UV_RUN_NOWAIT); /* lets the tick's close complete */
	return ok;
}

void lg_run_for(lg_ctx *ctx, double seconds) { lg_run_until(ctx, NULL, NULL, seconds); }

const struct sockaddr_in *lg_source(lg_ctx *ctx, size_t i)
{
	if (ctx->n_src <= 0)
		return NULL;
	return &ctx->src[(i / LG_CONNS_PER_SOURCE) % (size_t)ctx->n_src];
}

void lg_lat_add(lg_lat *l, uint64_t us)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4096;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

double lg_lat_ms(lg_lat *l, double p)
{
	if (!l->n)
		return NAN;
	qsort(l->v, l->n, sizeof *l->v, cmp_u32);
	size_t i = (size_t)(p * (double)l->n);
	return l->v[i < l->n ? i : l->n - 1] / 1000.0;
}

void lg_lat_free(lg_lat *l)
{
	free(l->v);
	*l = (lg_lat){0};
}

void lg_tally_add(lg_tally *t, const char *name)
{
	t->total++;
	for (int i = 0; i < t->len; i++)
		if (strcmp(t->e[i].name, name) == 0) {
			t->e[i].n++;
			return;
		}
	if (t->len == (int)ARRAY_LEN(t->e))
		name = "other";
	int i = t->len < (int)ARRAY_LEN(t->e) ? t->len++ : t->len - 1;
	strlcpy_safe(t->e[i].name, name, sizeof t->e[i].name);
	t->e[i].n++;
}

void lg_tally_str(const lg_tally *t, char *out, size_t cap)
{
	size_t o = 0;
	out[0] = 0;
	for (int i = 0; i < t->len && o < cap; i++)
		o += (size_t)snprintf(out + o, cap - o, "%s%s=%llu", i ? " " : "", t->e[i].name,
				      (unsigned long long)t->e[i].n);
	if (!t->len)
		snprintf(out, cap, "none");
}

/* ---- the report ---------------------------------------------------------- */

static buf report; /* the members of the JSON report so far */

void lg_figure(const char *key, double value, const char *unit)
{
	if (isnan(value) || isinf(value)) {
		printf("figure %s null %s (load %s)\n", key, unit, bench_loadavg());
		buf_printf(&report, "%s\"%s\":null", report.len ? "," : "", key);
	} else {
		bench_figure(key, value, unit);
		buf_printf(&report, "%s\"%s\":%.6g", report.len ? "," : "", key, value);
	}
	fflush(stdout);
}

const char *lg_report_json(void)
{
	static buf out;
	buf_clear(&out);
	buf_printf(&out, "{%s,\"load_average\":\"%s\"}\n", report.len ? report.data : "\"empty\":true",
		   bench_loadavg());
	return out.data;
}

void lg_report_free(void) { buf_free(&report); }
