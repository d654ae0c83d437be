/*
 * check.c — `loadgen --check`: the WebSocket client against a real laird,
 * one behaviour at a time, before its figures are believed. Each line says
 * what was checked and "ok" or what went wrong:
 *   - the upgrade (our key, the server's accept value) and a masked text
 *     frame (the server refuses unmasked client frames);
 *   - a message sent in three fragments, reassembled by the server;
 *   - a reply of more than 125 bytes (the 16-bit length form);
 *   - a WebSocket ping answered by a pong with the same payload, and the
 *     protocol's own ping;
 *   - the closing handshake we start (the server echoes 1000);
 *   - the closing handshake the server starts (a message over its limit
 *     gets close 1009; the client echoes it and sees the server close).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/util.h"
#include "jscan.h"
#include "scenario.h"
#include "ws.h"

typedef struct probe {
	lg_ws ws;
	bool open, closed, got_pong;
	int close_code;
	char last_type[32];
	size_t last_len;
	char pong[16];
	int msgs;
} probe;

static void p_open(lg_ws *ws) { ((probe *)ws->data)->open = true; }

static void p_message(lg_ws *ws, const char *text, size_t len, uint64_t stamp)
{
	(void)stamp;
	probe *p = ws->data;
	static const char *const keys[] = {"type"};
	lg_jspan t;
	lg_jscan(text, len, keys, 1, &t);
	if (!lg_jstr(t, p->last_type, sizeof p->last_type))
		strcpy(p->last_type, "?");
	p->last_len = len;
	p->msgs++;
}

static void p_pong(lg_ws *ws, const char *data, size_t len)
{
	probe *p = ws->data;
	p->got_pong = true;
	snprintf(p->pong, sizeof p->pong, "%.*s", (int)MIN(len, sizeof p->pong - 1), data);
}

static void p_closed(lg_ws *ws, int code, const char *why)
{
	(void)why;
	probe *p = ws->data;
	p->closed = true;
	p->close_code = code;
}

static const lg_ws_handlers probe_handlers = {p_open, p_message, p_pong, p_closed};

static bool is_open(void *ud) { return ((probe *)ud)->open || ((probe *)ud)->closed; }
static bool is_closed(void *ud) { return ((probe *)ud)->closed; }
static bool has_pong(void *ud) { return ((probe *)ud)->got_pong || ((probe *)ud)->closed; }

static int want_msgs;
static bool has_msgs(void *ud) { return ((probe *)ud)->msgs >= want_msgs || ((probe *)ud)->closed; }

static int failures;

static void result(bool ok, const char *what, const char *detail)
{
	printf("check: %-58s %s%s%s\n", what, ok ? "ok" : "FAILED", detail ? ": " : "",
	       detail ? detail : "");
	failures += !ok;
}

/* Waits for the next message; true when it is of `type`. */
static bool next_is(lg_ctx *ctx, probe *p, const char *type)
{
	want_msgs = p->msgs + 1;
	return lg_run_until(ctx, has_msgs, p, 10) && !p->closed && !strcmp(p->last_type, type);
}

int lg_check_run(lg_ctx *ctx)
{
	failures = 0;
	probe *p = xcalloc(1, sizeof *p);
	char detail[128];
	lg_ws_connect(&p->ws, ctx->loop, NULL, &ctx->dst, ctx->host, "/", &probe_handlers, p);
	result(lg_run_until(ctx, is_open, p, 10) && p->open, "upgrade: 101 with the right accept",
	       p->closed ? p->ws.why : NULL);

	char hello[128];
	int n = snprintf(hello, sizeof hello,
			 "{\"type\":\"hello\",\"id\":1,\"protocol\":1,\"name\":\"check%s\"}", ctx->tag);
	lg_ws_send_fragmented(&p->ws, hello, (size_t)n, 3);
	result(next_is(ctx, p, "welcome"), "a hello in 3 fragments is welcomed", p->last_type);
	snprintf(detail, sizeof detail, "%zu bytes", p->last_len);
	result(p->last_len > 125, "a reply over 125 bytes (16-bit length) is read", detail);

	lg_ws_send(&p->ws, "{\"type\":\"ping\",\"id\":2}", 22);
	result(next_is(ctx, p, "pong"), "a masked text frame: the protocol's ping -> pong",
	       p->last_type);
	lg_ws_ping(&p->ws, "probe-7", 7);
	result(lg_run_until(ctx, has_pong, p, 10) && !strcmp(p->pong, "probe-7"),
	       "a WebSocket ping -> pong with its payload", p->pong);

	lg_ws_close(&p->ws, 1000, "done");
	result(lg_run_until(ctx, is_closed, p, 10) && p->close_code == 1000,
	       "our close 1000 is echoed, then the server closes", p->ws.why);

	/* The server starts the close: a message over its 16 KB limit. */
	memset(p, 0, sizeof *p);
	lg_ws_connect(&p->ws, ctx->loop, NULL, &ctx->dst, ctx->host, "/", &probe_handlers, p);
	lg_run_until(ctx, is_open, p, 10);
	size_t big = 20000;
	char *text = xmalloc(big);
	memset(text, ' ', big);
	memcpy(text, "{\"type\":\"ping\"}", 15);
	lg_ws_send_fragmented(&p->ws, text, big, 4);
	free(text);
	bool closed = lg_run_until(ctx, is_closed, p, 10);
	snprintf(detail, sizeof detail, "close %d (%s)", p->close_code, p->ws.why ? p->ws.why : "");
	result(closed && p->close_code == 1009, "the server's close 1009 (message too large) is read",
	       detail);
	free(p);
	printf("check: %s\n", failures ? "FAILED" : "every check passed");
	return failures ? 1 : 0;
}
