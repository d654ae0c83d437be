/*
 * net.h — laird's network layer: libwebsockets 4.1 on our own libuv loop
 * (docs/libwebsockets.md), one public port for the WebSocket protocol and
 * plain HTTP (GET /healthz, GET /metrics, the web client's files), and an
 * optional second listener for /metrics alone (metrics_bind).
 *
 * net hands the application whole text messages and enforces, before the
 * app sees anything: the WebSocket protocol itself (an unmasked or
 * malformed frame closes with 1002, invalid UTF-8 with 1007), the message
 * size limit (close 1009), text only (binary closes with 1003), the
 * per-connection rate limit over messages and pings alike (a dropped frame
 * is answered by net itself with {"type":"error","code":"rate_limited",
 * "id":...}; the rate_abuse_strikes-th strike gets its error, then the
 * close 1008), connections per IP and in total (closed with 1013 right
 * after the upgrade, before on_open), the idle timeout (close 1000 "idle
 * timeout") and a bounded send queue per connection (a reader stuck over
 * max_send_queue closes with 1008: see conn_send). /healthz and /metrics
 * answer their exact path only.
 *
 * Everything here runs on the loop thread; nothing is thread-safe.
 *
 * Memory: net owns every conn. A conn pointer is valid from on_open until
 * on_close returns; on_close is called exactly once for every conn that got
 * on_open (also at shutdown), and never for one that did not.
 */
#ifndef LAIR_NET_H
#define LAIR_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "../common/util.h"
#include "config.h"

typedef struct net net;
typedef struct conn conn;

/* WebSocket close codes net uses (RFC 6455 §7.4.1). */
enum {
	NET_CLOSE_NORMAL = 1000,
	NET_CLOSE_GOING_AWAY = 1001,   /* server shutting down */
	NET_CLOSE_UNSUPPORTED = 1003,  /* binary frame */
	NET_CLOSE_POLICY = 1008,       /* abuse: flooding, slow reader */
	NET_CLOSE_TOO_BIG = 1009,      /* frame over max_frame_bytes */
	NET_CLOSE_TRY_LATER = 1013,    /* connection limits */
};

typedef struct net_callbacks {
	void *ud; /* passed back to every callback */
	/* A WebSocket connection passed every limit and is open. */
	void (*on_open)(void *ud, conn *c);
	/* One whole text frame (reassembled, size-checked, valid UTF-8, within
	 * the rate). text is NUL-terminated (text[len] == 0) and borrowed: it is
	 * valid only during the call. */
	void (*on_message)(void *ud, conn *c, const char *text, size_t len);
	/* Once per opened conn; c is invalid after it returns. conn_send and
	 * conn_close on c inside on_close are harmless no-ops. */
	void (*on_close)(void *ud, conn *c);
	/* Appends more /metrics lines (Prometheus text format) after net's own
	 * (app metrics, store queue depth). May be NULL. */
	void (*metrics)(void *ud, buf *out);
} net_callbacks;

/* Creates the lws context and the listening vhost on cfg->bind:cfg->port
 * (port 0 picks a free one: see net_port). Borrows loop and cfg for net's
 * whole life; copies cb. Returns NULL with a message in err when the port
 * cannot be bound or lws cannot start. */
net *net_new(uv_loop_t *loop, const laird_config *cfg, const net_callbacks *cb, char *err,
	     size_t errlen);

/* The port, and "ADDR:PORT" ("127.0.0.1:7777", "[::1]:7777"), actually
 * listened on: what the kernel bound, not what was asked. */
int net_port(const net *n);
const char *net_address(const net *n);
/* The --metrics-bind listener's "ADDR:PORT", or NULL without one. */
const char *net_metrics_address(const net *n);

/* Messages (and pings) dropped by the rate limit so far. */
uint64_t net_rate_limited(const net *n);
/* Messages that waited for a full socket to take them, rather than going
 * straight to it. */
uint64_t net_messages_queued(const net *n);

/* Queues one text frame (copied) for c. Returns 0, or -1 when c is closing
 * or the frame would push c's queue past 16 times max_send_queue — c is then
 * closed as a slow reader (1008). A queue that stays over max_send_queue
 * for 5 seconds closes c the same way; a burst to a reader that keeps up
 * does not. */
int conn_send(conn *c, const char *text, size_t len);

/* Closes c with a close frame carrying code and reason (reason is copied,
 * truncated to 123 bytes). Frames queued before are sent first (bounded by a
 * short grace period). Safe anywhere on the loop thread, including inside
 * on_message; repeated calls keep the first code. on_close follows later. */
void conn_close(conn *c, int code, const char *reason);

/* An opaque pointer for the app (its session); NULL at on_open. */
void conn_set_user(conn *c, void *p);
void *conn_user(const conn *c);
/* The peer's address (the X-Forwarded-For client with cfg trust_proxy). */
const char *conn_peer_ip(const conn *c);
/* Unique for the process's life, starting at 1. */
uint64_t conn_id(const conn *c);
/* How c ended (for the log, in on_close): the code laird closed it with,
 * else the peer's (1005: its close frame had no code; 1006: it dropped
 * without one); *by_peer when laird did not close it. */
int conn_close_code(const conn *c, bool *by_peer);

/* /healthz answers 503 from now on and new WebSocket connections are
 * closed with 1001 straight away. */
void net_set_draining(net *n);

/* Shutdown, steps 1–3 of docs/libwebsockets.md §7: stops net's timers,
 * sets draining, closes every connection with 1001 "server shutting
 * down", waits until
 * none is left (at most a few seconds), destroys the lws context once and
 * then calls done(ud) from a loop callback. After done, no net callback
 * runs again; the caller closes its own handles and lets uv_run return. */
void net_shutdown(net *n, void (*done)(void *ud), void *ud);

/* After net_shutdown's done and uv_run has returned: the second
 * lws_context_destroy (docs/libwebsockets.md §7, step 5), then frees n. */
void net_free(net *n);

/* Open WebSocket connections (including ones being closed). */
size_t net_connections(const net *n);

#endif
