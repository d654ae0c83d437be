/*
 * lconn.h — lair's WebSocket client connection: one ws:// (or wss://) URL, on
 * a libuv loop the caller owns, through libwebsockets' client API.
 *
 * Text frames go out through a bounded queue, one per WRITEABLE callback (lws
 * may only write there); incoming frames are reassembled from fragments and
 * handed over whole. A dropped connection is retried with exponential
 * backoff when the caller asked for it. Everything runs on the loop thread.
 *
 * Lifecycle (lws on a foreign loop needs its context destroyed twice: the
 * first call closes lws's own loop handles, which libuv finishes closing
 * while the loop runs; only the second call, after uv_run() returned,
 * frees the context):
 *   lconn_open()      creates the lws context and starts connecting;
 *   lconn_shutdown()  may be called anywhere, even inside a handler: it closes
 *                     the socket (close frame 1000) and releases every loop
 *                     handle of the connection from a deferred callback;
 *   uv_run() then returns once the caller's own handles are closed too;
 *   lconn_free()      after uv_run() returned: frees everything.
 * The lconn owns its lws context, its queue and its buffers.
 */
#ifndef LAIR_LCONN_H
#define LAIR_LCONN_H

#include <stddef.h>

#include <uv.h>

/* Largest frame we accept; a bigger one closes the connection (1009). */
#define LCONN_MAX_FRAME (1u << 20)
/* Bounded send queue: lconn_send refuses beyond these. */
#define LCONN_MAX_QUEUED 512
#define LCONN_MAX_QUEUED_BYTES (4u << 20)

struct lconn;

/* The caller's callbacks; ud is the pointer given to lconn_open. */
struct lconn_handler {
	/* The WebSocket handshake completed (first time or after a reconnect). */
	void (*on_open)(void *ud);
	/* One whole text frame; text is NUL-terminated and lives only during
	 * the call. */
	void (*on_message)(void *ud, const char *text, size_t len);
	/* The connection failed or dropped. will_retry says whether a reconnect
	 * is scheduled; when 0 the connection stays down until lconn_shutdown.
	 * Not called after lconn_shutdown. Delivered outside lws callbacks. */
	void (*on_down)(void *ud, const char *why, int will_retry);
};

/* Splits a ws:// or wss:// URL. host and path are written NUL-terminated
 * (path always starts with '/'); the port defaults to 80 / 443. Returns 0, or
 * -1 with a message in err. Pure: used by lconn_open and the unit tests. */
int lconn_parse_url(const char *url, int *tls, char *host, size_t host_len, int *port,
		    char *path, size_t path_len, char *err, size_t err_len);

/* Starts connecting to url on loop. Returns NULL with a message in err when
 * the URL is malformed or lws cannot start (a refused connection is reported
 * later through on_down). */
struct lconn *lconn_open(uv_loop_t *loop, const char *url, const struct lconn_handler *h,
			 void *ud, char *err, size_t err_len);

/* Reconnect policy: after a drop (or a failed attempt), retry up to
 * max_attempts consecutive times (0 = never retry, the default), waiting 250 ms
 * doubling to 4 s between attempts. A successful handshake resets the count. */
void lconn_set_retry(struct lconn *c, int max_attempts);

/* Queues one text frame (copied). Returns 0, or -1 when the connection is not
 * open or the queue is full. */
int lconn_send(struct lconn *c, const char *text, size_t len);

/* 1 while the WebSocket is established. */
int lconn_is_open(const struct lconn *c);

/* Drops the current socket as if the network failed (for tests and for the
 * "resume" path); the retry policy applies. */
void lconn_drop(struct lconn *c);

/* See the lifecycle above. Queued frames not yet written are dropped. */
void lconn_shutdown(struct lconn *c);
void lconn_free(struct lconn *c);

#endif
