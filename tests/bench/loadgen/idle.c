/*
 * idle.c — the idle scenario (scenario.h): many connections that said
 * hello and stay, what each costs the server in memory and CPU, and
 * whether every one of them still answers at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../../../common/util.h"
#include "jscan.h"
#include "laird.h"
#include "ramp.h"
#include "scenario.h"
#include "ws.h"

typedef struct idle_bot {
	lg_ws ws;
	uint32_t idx;
	uint8_t started, welcomed, pong, ws_pong, closed;
} idle_bot;

typedef struct idle_run {
	lg_ctx *ctx;
	const lg_idle_opts *o;
	idle_bot *bots;
	size_t next, welcomed, pongs, ws_pongs;
	lg_ramp ramp;
} idle_run;

static idle_run R;

static void start_more(void);

static void bot_open(lg_ws *ws)
{
	idle_bot *b = ws->data;
	char msg[128];
	int n = snprintf(msg, sizeof msg, "{\"type\":\"hello\",\"id\":1,\"protocol\":1,\"name\":\"i%sx%u\"}",
			 R.ctx->tag, b->idx);
	lg_ws_send(ws, msg, (size_t)n);
}

static void bot_message(lg_ws *ws, const char *text, size_t len, uint64_t stamp)
{
	(void)stamp;
	idle_bot *b = ws->data;
	static const char *const keys[] = {"type", "code"};
	lg_jspan f[2];
	char type[32], code[40];
	lg_jscan(text, len, keys, 2, f);
	if (!lg_jstr(f[0], type, sizeof type))
		return;
	if (!strcmp(type, "welcome") && !b->welcomed) {
		b->welcomed = 1;
		R.welcomed++;
		R.ramp.in_flight--;
		start_more();
	} else if (!strcmp(type, "pong") && !b->pong) {
		b->pong = 1;
		R.pongs++;
	} else if (!strcmp(type, "error")) {
		lg_tally_add(&R.ramp.errors, lg_jstr(f[1], code, sizeof code) ? code : "error");
	}
}

static void bot_pong(lg_ws *ws, const char *data, size_t len)
{
	(void)data, (void)len;
	idle_bot *b = ws->data;
	if (!b->ws_pong) {
		b->ws_pong = 1;
		R.ws_pongs++;
	}
}

static void bot_closed(lg_ws *ws, int code, const char *why)
{
	idle_bot *b = ws->data;
	b->closed = 1;
	if (lg_ramp_closed(&R.ramp, code, why, b->welcomed))
		start_more();
}

static const lg_ws_handlers handlers = {bot_open, bot_message, bot_pong, bot_closed};

static void start_more(void)
{
	while (!R.ramp.ending && R.next < R.o->n && R.ramp.in_flight < (size_t)R.o->in_flight) {
		idle_bot *b = &R.bots[R.next];
		b->idx = (uint32_t)R.next;
		b->started = 1;
		R.next++;
		if (!lg_ramp_connect(&R.ramp, R.ctx, &b->ws, b->idx, &handlers, b))
			b->closed = 1;
	}
}

static bool all_settled(void *ud)
{
	(void)ud;
	return R.next == R.o->n && R.ramp.in_flight == 0;
}

static bool all_answered(void *ud)
{
	(void)ud;
	size_t live = R.o->n - R.ramp.closed;
	return R.pongs >= live && R.ws_pongs >= live;
}

static bool all_closed(void *ud)
{
	(void)ud;
	size_t started = 0;
	for (size_t i = 0; i < R.o->n; i++)
		started += R.bots[i].started;
	return R.ramp.closed == started;
}

static uint64_t self_cpu_ns(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

int lg_idle_run(lg_ctx *ctx, const lg_idle_opts *o)
{
	memset(&R, 0, sizeof R);
	R.ctx = ctx;
	R.o = o;
	R.bots = xcalloc(o->n ? o->n : 1, sizeof *R.bots);
	long rss0 = lg_proc_rss_kb(ctx->pid);
	uint64_t t0 = now_ns();
	start_more();
	bool ramped = lg_run_until(ctx, all_settled, NULL, o->ramp_sec);
	double ramp = (double)(now_ns() - t0) / 1e9;
	printf("idle: %zu of %zu connections welcomed in %.1f s%s\n", R.welcomed, o->n, ramp,
	       ramped ? "" : " (ramp bound reached)");

	/* A quiet hold: what the server spends on idle connections, then its
	 * memory (after the hold, so that the hellos' work has settled). */
	uint64_t c0 = lg_proc_cpu_ns(ctx->pid), s0 = self_cpu_ns(), w0 = now_ns();
	lg_run_for(ctx, o->hold_sec);
	double wall = (double)(now_ns() - w0) / 1e9;
	double cpu = (double)(lg_proc_cpu_ns(ctx->pid) - c0) / 1e9 / wall * 100;
	double self = (double)(self_cpu_ns() - s0) / 1e9 / wall * 100;
	long rss1 = lg_proc_rss_kb(ctx->pid);
	size_t held = 0;
	for (size_t i = 0; i < R.next; i++)
		held += R.bots[i].welcomed && !R.bots[i].closed;
	size_t live = o->n - R.ramp.closed;

	/* Every connection answers a ping, of both kinds. */
	uint64_t p0 = now_ns();
	for (size_t i = 0; i < R.next; i++) {
		idle_bot *b = &R.bots[i];
		if (b->closed || b->ws.state != LG_WS_OPEN)
			continue;
		char msg[64];
		int n = snprintf(msg, sizeof msg, "{\"type\":\"ping\",\"id\":%u}", b->idx);
		lg_ws_send(&b->ws, msg, (size_t)n);
		lg_ws_ping(&b->ws, "lg", 2);
	}
	lg_run_until(ctx, all_answered, NULL, o->answer_sec);
	double answer = (double)(now_ns() - p0) / 1e9;

	double per_conn = held ? (double)(rss1 - rss0) * 1024.0 / (double)held : 0;
	printf("idle: server RSS %.1f MB empty, %.1f MB with %zu connections: %.0f bytes each\n",
	       rss0 / 1024.0, rss1 / 1024.0, held, per_conn);
	printf("idle: server CPU %.2f%% of a core while idle (%.0f s); the generator %.2f%%\n", cpu,
	       wall, self);
	printf("idle: %zu/%zu answered a ping, %zu/%zu a WebSocket ping, in %.1f s\n", R.pongs,
	       live, R.ws_pongs, live, answer);
	char errs[512];
	lg_tally_str(&R.ramp.errors, errs, sizeof errs);
	printf("idle: errors and early closes: %s\n", errs);

	lg_figure("idle_connections", (double)live, "connections");
	lg_figure("idle_bytes_per_conn", per_conn, "bytes");
	lg_figure("idle_rss_empty_mb", rss0 / 1024.0, "MB");
	lg_figure("idle_rss_mb", rss1 / 1024.0, "MB");
	lg_figure("idle_ramp_s", ramp, "s");
	lg_figure("idle_laird_cpu_percent", cpu, "%");
	lg_figure("idle_pings_answered", (double)(R.pongs < R.ws_pongs ? R.pongs : R.ws_pongs),
		  "connections");
	lg_figure("idle_errors", (double)R.ramp.errors.total, "errors");

	int rc = R.welcomed == o->n && R.ramp.closed_early == 0 && R.pongs == o->n &&
			 R.ws_pongs == o->n && R.ramp.errors.total == 0
		 ? 0
		 : 1;
	R.ramp.ending = true;
	for (size_t i = 0; i < R.next; i++)
		if (!R.bots[i].closed)
			lg_ws_abort(&R.bots[i].ws, "end of run");
	lg_run_until(ctx, all_closed, NULL, 30);
	free(R.bots);
	return rc;
}
