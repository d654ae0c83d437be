/*
 * lconn.c — lair's WebSocket client connection (see lconn.h for the contract).
 *
 * One lws context per connection, running on the caller's libuv loop as a
 * foreign loop. lws callbacks only change state and queue work; anything the
 * caller might react to by tearing the connection down (a drop, the end of
 * a retry policy) is delivered from a zero-delay uv timer instead, because
 * lws_context_destroy() must never run inside an lws callback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <uv.h>
#include <libwebsockets.h>

#include "../common/log.h"
#include "../common/text.h"
#include "../common/util.h"
#include "lconn.h"

enum lconn_state { LC_DOWN, LC_CONNECTING, LC_OPEN };

struct lconn_msg {
	struct lconn_msg *next;
	size_t len;
	unsigned char data[]; /* LWS_PRE headroom, then the text */
};

struct lconn {
	uv_loop_t *loop;
	struct lws_context *ctx; /* NULLed by lws (pcontext) once fully freed */
	struct lws *wsi;
	enum lconn_state state;
	struct lconn_handler h;
	void *ud;

	int tls, port;
	char host[256], path[512], host_hdr[300];

	struct lconn_msg *q_head, *q_tail;
	size_t q_count, q_bytes;

	buf rx;
	int rx_fresh; /* the next fragment starts a new message */

	int max_attempts, attempts;
	uv_timer_t retry;
	uv_timer_t defer;
	int handles_open;

	/* A pending on_down notification for the deferred callback. */
	int down_pending, down_retry;
	char down_why[400];

	int shutting, torn_down;
};

static const char *MOD = "conn";

static void queue_clear(struct lconn *c)
{
	struct lconn_msg *m = c->q_head;
	while (m) {
		struct lconn_msg *next = m->next;
		free(m);
		m = next;
	}
	c->q_head = c->q_tail = NULL;
	c->q_count = c->q_bytes = 0;
}

static unsigned backoff_ms(int attempt)
{
	unsigned ms = 250;
	for (int i = 1; i < attempt && ms < 4000; i++)
		ms *= 2;
	return ms > 4000 ? 4000 : ms;
}

static void retry_cb(uv_timer_t *t);
static void defer_cb(uv_timer_t *t);

/* The socket is gone (failed attempt, peer close, network error). */
static void went_down(struct lconn *c, const char *why)
{
	if (c->state == LC_DOWN)
		return;
	c->state = LC_DOWN;
	c->wsi = NULL;
	queue_clear(c);
	buf_clear(&c->rx);
	c->rx_fresh = 1;
	if (c->shutting)
		return;
	int retry = c->attempts < c->max_attempts;
	if (retry) {
		c->attempts++;
		uv_timer_start(&c->retry, retry_cb, backoff_ms(c->attempts), 0);
	}
	c->down_pending = 1;
	c->down_retry = retry;
	text_escape(c->down_why, sizeof c->down_why, why ? why : "connection lost");
	uv_timer_start(&c->defer, defer_cb, 0, 0);
}

static int lws_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		  size_t len)
{
	(void)user;
	struct lws_context *ctx = lws_get_context(wsi);
	struct lconn *c = ctx ? lws_context_user(ctx) : NULL;
	if (!c)
		return lws_callback_http_dummy(wsi, reason, user, in, len);

	switch (reason) {
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		c->wsi = wsi;
		c->state = LC_OPEN;
		c->attempts = 0;
		c->rx_fresh = 1;
		log_debug(MOD, "connected to %s:%d", c->host, c->port);
		if (c->h.on_open && !c->shutting)
			c->h.on_open(c->ud);
		break;

	case LWS_CALLBACK_CLIENT_RECEIVE:
		if (c->rx_fresh) {
			buf_clear(&c->rx);
			c->rx_fresh = 0;
		}
		if (c->rx.len + len > LCONN_MAX_FRAME) {
			lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE,
					 (unsigned char *)"frame too large", 15);
			return -1;
		}
		buf_append(&c->rx, in, len);
		if (lws_is_final_fragment(wsi)) {
			c->rx_fresh = 1;
			if (lws_frame_is_binary(wsi))
				log_warn(MOD, "ignoring a binary frame");
			else if (c->h.on_message && !c->shutting)
				c->h.on_message(c->ud, c->rx.data ? c->rx.data : "", c->rx.len);
		}
		break;

	case LWS_CALLBACK_CLIENT_WRITEABLE: {
		struct lconn_msg *m = c->q_head;
		if (!m || c->state != LC_OPEN)
			break;
		c->q_head = m->next;
		if (!c->q_head)
			c->q_tail = NULL;
		c->q_count--;
		c->q_bytes -= m->len;
		int n = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
		int short_write = n < (int)m->len;
		free(m);
		if (short_write)
			return -1;
		if (c->q_head)
			lws_callback_on_writable(wsi);
		break;
	}

	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR: {
		char why[400];
		snprintf(why, sizeof why, "cannot connect to %s:%d: %s", c->host, c->port,
			 in ? (const char *)in : "connection failed");
		went_down(c, why);
		break;
	}

	case LWS_CALLBACK_CLIENT_CLOSED:
		went_down(c, "connection closed by the server");
		break;

	case LWS_CALLBACK_WSI_DESTROY:
		if (c->state != LC_DOWN && wsi == c->wsi)
			went_down(c, "connection lost");
		break;

	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{"lair-client", lws_cb, 0, 4096, 0, NULL, 0},
	{NULL, NULL, 0, 0, 0, NULL, 0},
};

static void start_attempt(struct lconn *c)
{
	struct lws_client_connect_info ci;
	memset(&ci, 0, sizeof ci);
	ci.context = c->ctx;
	ci.address = c->host;
	ci.port = c->port;
	ci.path = c->path;
	ci.host = c->host_hdr;
	/* No Origin: lair is not a web page (laird's allowed_origins is about
	 * browsers), and lws would send "http://HOST:PORT" even over TLS,
	 * which a proxy's Host ("HOST", no port) never matches. */
	ci.ssl_connection = c->tls ? LCCSCF_USE_SSL : 0;
	ci.local_protocol_name = protocols[0].name;
	ci.pwsi = &c->wsi;
	c->state = LC_CONNECTING;
	c->rx_fresh = 1;
	if (!lws_client_connect_via_info(&ci) && c->state == LC_CONNECTING) {
		char why[400];
		snprintf(why, sizeof why, "cannot connect to %s:%d", c->host, c->port);
		went_down(c, why);
	}
}

static void retry_cb(uv_timer_t *t)
{
	struct lconn *c = t->data;
	if (!c->shutting && c->state == LC_DOWN)
		start_attempt(c);
}

static void handle_closed(uv_handle_t *h)
{
	struct lconn *c = h->data;
	c->handles_open--;
}

static void teardown(struct lconn *c)
{
	c->torn_down = 1;
	if (c->wsi && c->state != LC_DOWN) {
		struct lws *wsi = c->wsi;
		if (c->state == LC_OPEN)
			lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, (unsigned char *)"bye", 3);
		lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
	}
	c->state = LC_DOWN;
	c->wsi = NULL;
	queue_clear(c);
	uv_timer_stop(&c->retry);
	uv_timer_stop(&c->defer);
	uv_close((uv_handle_t *)&c->retry, handle_closed);
	uv_close((uv_handle_t *)&c->defer, handle_closed);
	if (c->ctx)
		lws_context_destroy(c->ctx); /* first of two: closes lws's loop handles (lconn.h) */
}

static void defer_cb(uv_timer_t *t)
{
	struct lconn *c = t->data;
	if (c->shutting) {
		if (!c->torn_down)
			teardown(c);
		return;
	}
	if (c->down_pending) {
		c->down_pending = 0;
		if (c->h.on_down)
			c->h.on_down(c->ud, c->down_why, c->down_retry);
	}
}

int lconn_parse_url(const char *url, int *tls, char *host, size_t host_len, int *port,
		    char *path, size_t path_len, char *err, size_t err_len)
{
	const char *p;
	if (strncmp(url, "ws://", 5) == 0) {
		*tls = 0;
		*port = 80;
		p = url + 5;
	} else if (strncmp(url, "wss://", 6) == 0) {
		*tls = 1;
		*port = 443;
		p = url + 6;
	} else {
		snprintf(err, err_len, "bad server URL '%s': it must start with ws:// or wss://",
			 url);
		return -1;
	}
	const char *end = p + strcspn(p, "/?#");
	const char *hs = p, *he;
	if (*p == '[') { /* [v6]:port */
		const char *rb = memchr(p, ']', (size_t)(end - p));
		if (!rb) {
			snprintf(err, err_len, "bad server URL '%s': unclosed '['", url);
			return -1;
		}
		hs = p + 1;
		he = rb;
		p = rb + 1;
	} else {
		he = memchr(p, ':', (size_t)(end - p));
		if (!he)
			he = end;
		p = he;
	}
	if (he == hs || (size_t)(he - hs) >= host_len) {
		snprintf(err, err_len, "bad server URL '%s': no host", url);
		return -1;
	}
	memcpy(host, hs, (size_t)(he - hs));
	host[he - hs] = '\0';
	if (p < end && *p == ':') {
		long v = 0;
		const char *d = p + 1;
		if (d == end) {
			snprintf(err, err_len, "bad server URL '%s': empty port", url);
			return -1;
		}
		for (; d < end; d++) {
			if (*d < '0' || *d > '9' || (v = v * 10 + (*d - '0')) > 65535) {
				snprintf(err, err_len, "bad server URL '%s': bad port", url);
				return -1;
			}
		}
		if (v == 0) {
			snprintf(err, err_len, "bad server URL '%s': bad port", url);
			return -1;
		}
		*port = (int)v;
	} else if (p != end) {
		snprintf(err, err_len, "bad server URL '%s'", url);
		return -1;
	}
	const char *rest = *end ? end : "/";
	if (*rest != '/') { /* "?x" or "#x" with no path */
		if (path_len < 2 + strlen(rest)) {
			snprintf(err, err_len, "bad server URL '%s': path too long", url);
			return -1;
		}
		snprintf(path, path_len, "/%s", rest);
	} else if (strlcpy_safe(path, rest, path_len) >= path_len) {
		snprintf(err, err_len, "bad server URL '%s': path too long", url);
		return -1;
	}
	return 0;
}

struct lconn *lconn_open(uv_loop_t *loop, const char *url, const struct lconn_handler *h,
			 void *ud, char *err, size_t err_len)
{
	struct lconn *c = xcalloc(1, sizeof *c);
	if (lconn_parse_url(url, &c->tls, c->host, sizeof c->host, &c->port, c->path,
			    sizeof c->path, err, err_len) < 0) {
		free(c);
		return NULL;
	}
	snprintf(c->host_hdr, sizeof c->host_hdr, "%s:%d", c->host, c->port);
	c->loop = loop;
	c->h = *h;
	c->ud = ud;
	c->rx_fresh = 1;

	/* lws logs to stderr, which is our screen: only when debugging. */
	lws_set_log_level(log_get_level() <= LOG_DEBUG ? LLL_ERR | LLL_WARN : 0, NULL);

	void *loops[1] = {loop};
	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.options = LWS_SERVER_OPTION_LIBUV;
	if (c->tls)
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	info.foreign_loops = loops;
	info.pcontext = &c->ctx;
	info.user = c;
	info.gid = -1;
	info.uid = -1;
	info.fd_limit_per_thread = 64;
	c->ctx = lws_create_context(&info);
	if (!c->ctx) {
		snprintf(err, err_len, "cannot create the WebSocket context");
		buf_free(&c->rx);
		free(c);
		return NULL;
	}
	uv_timer_init(loop, &c->retry);
	uv_timer_init(loop, &c->defer);
	c->retry.data = c->defer.data = c;
	c->handles_open = 2;
	start_attempt(c);
	return c;
}

void lconn_set_retry(struct lconn *c, int max_attempts)
{
	c->max_attempts = max_attempts < 0 ? 0 : max_attempts;
}

int lconn_send(struct lconn *c, const char *text, size_t len)
{
	if (c->state != LC_OPEN || c->shutting || !c->wsi)
		return -1;
	if (c->q_count >= LCONN_MAX_QUEUED || c->q_bytes + len > LCONN_MAX_QUEUED_BYTES)
		return -1;
	struct lconn_msg *m = xmalloc(sizeof *m + LWS_PRE + len + 1);
	m->next = NULL;
	m->len = len;
	memcpy(m->data + LWS_PRE, text, len);
	m->data[LWS_PRE + len] = '\0';
	if (c->q_tail)
		c->q_tail->next = m;
	else
		c->q_head = m;
	c->q_tail = m;
	c->q_count++;
	c->q_bytes += len;
	lws_callback_on_writable(c->wsi);
	return 0;
}

int lconn_is_open(const struct lconn *c)
{
	return c->state == LC_OPEN && !c->shutting;
}

void lconn_drop(struct lconn *c)
{
	if (c->state != LC_OPEN || !c->wsi)
		return;
	/* Cut the TCP stream under lws: it then sees the peer vanish, exactly as
	 * when the network fails, and goes through its normal close path. */
	int fd = (int)lws_get_socket_fd(c->wsi);
	if (fd >= 0)
		shutdown(fd, SHUT_RDWR);
}

void lconn_shutdown(struct lconn *c)
{
	if (c->shutting)
		return;
	c->shutting = 1;
	uv_timer_start(&c->defer, defer_cb, 0, 0);
}

void lconn_free(struct lconn *c)
{
	if (!c)
		return;
	if (c->ctx)
		lws_context_destroy(c->ctx); /* second: frees it (lconn.h) */
	queue_clear(c);
	buf_free(&c->rx);
	free(c);
}
