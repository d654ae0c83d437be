/*
 * net.c — see net.h. libwebsockets 4.1 runs on our libuv loop as a foreign
 * loop, as docs/libwebsockets.md describes; laird does three things around
 * it itself:
 *
 *   - it listens and accepts (listener.h): lws would not bind exactly the
 *     address asked;
 *   - it reads each new connection's request head before lws does (peeking,
 *     so the bytes stay in the socket): the request target exactly as sent
 *     (lws normalises it, and /healthz and /metrics must match exactly), and
 *     whether it is a WebSocket upgrade;
 *   - it speaks WebSocket itself (ws.h) on an lws raw socket: lws 4.1 takes
 *     unmasked frames and answers pings without a word to its user. Plain
 *     HTTP (health, metrics, the web client's files) stays lws's.
 *
 * A WebSocket connection's life: accepted → pending (head peeked, waiting
 * for the rest of it if need be) → handshake checked, head consumed, the
 * socket adopted by lws as raw → 101 queued, limits checked, on_open → text
 * messages in; frames out through the send queue, written in RAW_WRITEABLE
 * → a close: ours (a close frame after the queued frames, then the peer's
 * close or a grace period) or the peer's (answered) → RAW_CLOSE (on_close)
 * → WSI_DESTROY (counted down, freed).
 *
 * Closes never need lws's WebSocket close path (which drops the close frame
 * when asked from a WRITEABLE callback in 4.1.6): the close frame is just
 * bytes on the raw socket, and the TCP close is a -1 returned from a raw
 * callback, or lws_set_timeout(LWS_TO_KILL_SYNC) from a uv timer.
 */
#include <uv.h>

#include <libwebsockets.h>

#include "net.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/log.h"
#include "http_head.h"
#include "http_static.h"
#include "json_peek.h"
#include "listener.h"
#include "metrics.h"
#include "netaddr.h"
#include "origin.h"
#include "ws.h"

#define TICK_MS 250             /* loop-lag probe; every 4th tick sweeps timeouts */
#define LAG_WINDOW_TICKS 40     /* lag max is over the last 10-20 s */
#define CLOSE_GRACE_MS 2000     /* a closing connection's queue and close reply */
#define SHUTDOWN_POLL_MS 10
#define SHUTDOWN_WAIT_MS 5000   /* then the context is destroyed regardless */
#define IP_BUCKETS 4096
#define HEAD_MAX 8192           /* a longer request head: 431 */
#define HEAD_TIMEOUT_MS 10000   /* a connection that sends no whole head in this */
#define WRITE_CHUNK 65536       /* bytes of frames handed to lws in one write */
#define SLOW_READER_MS 5000     /* over max_send_queue this long: a slow reader */
#define SEND_QUEUE_HARD 16      /* ...or over this many times max_send_queue */
#define MSG_KEEP 4096           /* a message buffer larger is freed after use */
#define ID_PEEK_MAX 256         /* bytes scanned for a dropped message's id */

enum net_err {
	ERR_RATE_LIMITED,
	ERR_RATE_ABUSE,
	ERR_FRAME_TOO_BIG,
	ERR_BINARY_FRAME,
	ERR_PROTOCOL,
	ERR_BAD_UTF8,
	ERR_SLOW_READER,
	ERR_IDLE_TIMEOUT,
	ERR_COUNT
};
static const char *const err_names[ERR_COUNT] = {
	"rate_limited", "rate_abuse", "frame_too_big", "binary_frame", "protocol_error",
	"bad_utf8", "slow_reader", "idle_timeout",
};

enum refusal {
	REFUSED_FULL,
	REFUSED_PER_IP,
	REFUSED_DRAINING,
	REFUSED_ORIGIN,
	REFUSED_HANDSHAKE,
	REFUSED_COUNT
};
static const char *const refusal_names[REFUSED_COUNT] = {"full", "per_ip", "draining",
							 "origin", "handshake"};

/* What the pre-stage learnt of a plain HTTP connection's first request,
 * handed to lws as the connection's opaque user data. */
enum {
	HTTP_METRICS_PORT = 1,  /* accepted on the --metrics-bind listener */
	HTTP_EXACT_HEALTHZ = 2, /* the first request's path is exactly /healthz */
	HTTP_EXACT_METRICS = 4, /* ...exactly /metrics */
};

struct ip_entry {
	struct ip_entry *next;
	int count; /* accepted, not yet destroyed */
	char ip[48];
};

/* One frame (or the handshake's 101) ready for the wire. */
struct qmsg {
	struct qmsg *next;
	size_t len;
	bool is_close;        /* our close frame */
	bool counted;         /* a message (msgs_out) rather than a control frame */
	unsigned char data[];
};

struct conn {
	net *n;
	struct lws *wsi;       /* NULL until adopted, and once lws destroyed it */
	uint64_t id;
	void *user;
	struct conn *prev, *next;  /* n->conns: every conn lws has not destroyed */
	struct ip_entry *ip;       /* set when accepted */
	char peer[48];
	/* receiving */
	ws_parser parser;
	buf msg;                   /* the text message being received */
	uint64_t last_rx_ms;
	double tokens;
	uint64_t tokens_ms;
	int strikes;
	/* sending */
	struct qmsg *q_head, *q_tail;
	size_t q_bytes;
	uint64_t over_since_ms;    /* when the queue went over max_send_queue, or 0 */
	/* state */
	bool opened;      /* on_open delivered */
	bool closed;      /* on_close delivered */
	bool closing;     /* a close began: no more messages in or out */
	bool close_sent;  /* our close frame is on the wire */
	bool peer_closed; /* the peer's close frame arrived */
	bool kill_sent;   /* lws was asked to drop the socket */
	bool lws_closed;  /* LWS_CALLBACK_RAW_CLOSE seen */
	bool rx_paused;
	int close_code;       /* ours, or 0 */
	int peer_close_code;  /* from the peer's close frame (1005: it had none) */
	uint64_t close_deadline_ms; /* a closing conn is dropped at this time */
};

/* lws per-session data, for WebSocket and plain HTTP connections alike. */
struct pss {
	conn *c;
	char *http_reply;  /* LWS_PRE headroom + body, owned */
	size_t http_len;
	bool http_close;   /* close the connection once the reply is out */
	struct static_reply *sr; /* a web client file being sent (http_static.h) */
};

/* An accepted connection whose request head has not arrived whole yet. */
struct pending {
	uv_poll_t poll;
	net *n;
	int fd;
	bool metrics_port;
	int lowat;              /* SO_RCVLOWAT set while part of a head waits */
	netaddr peer;
	uint64_t deadline_ms;
	struct pending *prev, *next;
};

struct net {
	uv_loop_t *loop;
	const laird_config *cfg;
	net_callbacks cb;
	struct lws_context *ctx;
	struct lws_vhost *vh;
	http_static *statics;   /* the browser client's files at / */
	listener *pub;          /* the public port (WebSocket and HTTP) */
	listener *mon;          /* --metrics-bind: /metrics and /healthz only, or NULL */
	netaddr_list trusted;   /* proxies whose X-Forwarded-For is believed */
	int port;
	bool draining, shutting_down, finished;
	uint64_t next_id;

	conn *conns;            /* list of live WebSocket conns */
	size_t n_conns;         /* live, including closing ones */
	size_t n_accepted;      /* opened and not yet destroyed */
	struct pending *pending;
	conn *adopting;         /* the conn lws_adopt_* is called for */
	bool adopt_seen;        /* ...and its RAW_ADOPT arrived */
	struct ip_entry *ips[IP_BUCKETS];
	unsigned char wbuf[WRITE_CHUNK]; /* frames gathered for one write */

	uv_timer_t tick, shutdown_timer;
	uint64_t last_tick_ns, shutdown_started_ms, last_full_log_ms;
	unsigned ticks;
	double lag_last_ms, lag_max_cur, lag_max_prev;
	void (*done)(void *ud);
	void *done_ud;

	/* counters for /metrics */
	uint64_t accepted, refused[REFUSED_COUNT], errors[ERR_COUNT];
	uint64_t msgs_in, msgs_out, bytes_in, bytes_out, http_requests, control_in;
};

static const char *const shutdown_reason = "server shutting down";

/* ---- per-IP counts ---------------------------------------------------- */

static unsigned ip_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % IP_BUCKETS;
}

static struct ip_entry *ip_get(net *n, const char *ip, bool create)
{
	unsigned h = ip_hash(ip);
	for (struct ip_entry *e = n->ips[h]; e; e = e->next)
		if (!strcmp(e->ip, ip))
			return e;
	if (!create)
		return NULL;
	struct ip_entry *e = xcalloc(1, sizeof *e);
	strlcpy_safe(e->ip, ip, sizeof e->ip);
	e->next = n->ips[h];
	n->ips[h] = e;
	return e;
}

static void ip_release(net *n, struct ip_entry *e)
{
	if (--e->count > 0)
		return;
	struct ip_entry **pp = &n->ips[ip_hash(e->ip)];
	while (*pp != e)
		pp = &(*pp)->next;
	*pp = e->next;
	free(e);
}

/* ---- the send queue and closing ---------------------------------------- */

static void queue_free(conn *c)
{
	struct qmsg *m = c->q_head;
	while (m) {
		struct qmsg *next = m->next;
		free(m);
		m = next;
	}
	c->q_head = c->q_tail = NULL;
	c->q_bytes = 0;
}

static struct qmsg *queue_push(conn *c, size_t len)
{
	struct qmsg *m = xmalloc(sizeof *m + len);
	m->next = NULL;
	m->len = len;
	m->is_close = m->counted = false;
	if (c->q_tail)
		c->q_tail->next = m;
	else
		c->q_head = m;
	c->q_tail = m;
	c->q_bytes += len;
	return m;
}

/* Queues one frame: header then payload. */
static struct qmsg *queue_frame(conn *c, enum ws_opcode op, const void *p, size_t len)
{
	uint8_t h[WS_HEADER_MAX];
	size_t hl = ws_frame_header(h, op, len);
	struct qmsg *m = queue_push(c, hl + len);
	memcpy(m->data, h, hl);
	if (len)
		memcpy(m->data + hl, p, len);
	return m;
}

static void want_write(conn *c)
{
	if (c->wsi && !c->lws_closed)
		lws_callback_on_writable(c->wsi);
}

static void rx_resume(conn *c)
{
	if (c->rx_paused && c->wsi && !c->lws_closed) {
		c->rx_paused = false;
		lws_rx_flow_control(c->wsi, 1);
	}
}

/* Drops the socket now (the close frame, if any, is out or given up on).
 * Only from outside lws callbacks (a uv timer): the kill is synchronous,
 * as lws's own asynchronous kill waits for its next timer, which on a
 * quiet foreign loop may be far away. c may be freed before it returns. */
static void kill_conn(conn *c)
{
	if (c->kill_sent || c->lws_closed || !c->wsi)
		return;
	c->kill_sent = true;
	lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
}

/* Begins closing c with code/reason: no more messages in or out; the close
 * frame goes after the frames already queued (flush) or instead of them. */
static void close_conn(conn *c, int code, const char *reason, bool flush)
{
	if (c->closing || c->lws_closed)
		return;
	c->closing = true;
	c->close_code = code;
	c->close_deadline_ms = now_ms() + CLOSE_GRACE_MS;
	if (!flush)
		queue_free(c);
	uint8_t payload[2 + 123];
	payload[0] = (uint8_t)(code >> 8);
	payload[1] = (uint8_t)code;
	size_t rl = utf8_prefix(reason ? reason : "", 123);
	memcpy(payload + 2, reason, rl);
	queue_frame(c, WS_OP_CLOSE, payload, 2 + rl)->is_close = true;
	buf_free(&c->msg);
	rx_resume(c); /* the peer's close reply must be read */
	want_write(c);
}

int conn_send(conn *c, const char *text, size_t len)
{
	if (c->closing || c->lws_closed || !c->wsi)
		return -1;
	net *n = c->n;
	size_t limit = n->cfg->max_send_queue;
	if (c->q_bytes + len > limit * SEND_QUEUE_HARD) {
		n->errors[ERR_SLOW_READER]++;
		log_info("net", "conn %llu (%s): send queue over %zu bytes, closing",
			 (unsigned long long)c->id, c->peer, limit * SEND_QUEUE_HARD);
		close_conn(c, NET_CLOSE_POLICY, "send queue overflow (slow reader)", false);
		return -1;
	}
	queue_frame(c, WS_OP_TEXT, text, len)->counted = true;
	if (c->q_bytes > limit && !c->over_since_ms)
		c->over_since_ms = now_ms();
	want_write(c);
	return 0;
}

void conn_close(conn *c, int code, const char *reason)
{
	close_conn(c, code, reason, true);
}

void conn_set_user(conn *c, void *p) { c->user = p; }
void *conn_user(const conn *c) { return c->user; }
const char *conn_peer_ip(const conn *c) { return c->peer; }
uint64_t conn_id(const conn *c) { return c->id; }

int conn_close_code(const conn *c, bool *by_peer)
{
	*by_peer = !c->close_code;
	if (c->close_code)
		return c->close_code;
	return c->peer_close_code ? c->peer_close_code : 1006;
}
size_t net_connections(const net *n) { return n->n_conns; }
int net_port(const net *n) { return n->port; }
const char *net_address(const net *n) { return n->pub ? listener_name(n->pub) : ""; }
const char *net_metrics_address(const net *n) { return n->mon ? listener_name(n->mon) : NULL; }
void net_set_draining(net *n) { n->draining = true; }
uint64_t net_rate_limited(const net *n) { return n->errors[ERR_RATE_LIMITED]; }

/* A rate_limited error, with the dropped request's id when a short scan
 * finds it (json_peek.h). */
static void send_rate_limited(conn *c, const char *text, size_t len)
{
	char out[160 + 64 + 8];
	size_t at, n;
	const char *msg = "too many messages: this one was dropped";
	int w;
	if (text && json_peek_id(text, len, ID_PEEK_MAX, &at, &n))
		w = snprintf(out, sizeof out,
			     "{\"type\":\"error\",\"id\":%.*s,\"code\":\"rate_limited\","
			     "\"message\":\"%s\"}", (int)n, text + at, msg);
	else
		w = snprintf(out, sizeof out,
			     "{\"type\":\"error\",\"code\":\"rate_limited\",\"message\":\"%s\"}", msg);
	conn_send(c, out, (size_t)w);
}

/* ---- receiving: rate, messages, control frames ------------------------- */

/* Token bucket: true when one more message (or ping/pong) may pass now. */
static bool rate_take(net *n, conn *c, uint64_t now)
{
	const laird_config *cfg = n->cfg;
	c->tokens += (double)(now - c->tokens_ms) * cfg->rate_msgs_per_sec / 1000.0;
	c->tokens_ms = now;
	if (c->tokens >= cfg->rate_burst) {
		c->tokens = cfg->rate_burst;
		c->strikes = 0; /* calm for a whole bucket: forgiven */
	}
	if (c->tokens < 1.0)
		return false;
	c->tokens -= 1.0;
	return true;
}

/* Over the rate: the frame is dropped with a rate_limited error (text is
 * the dropped message, NULL for a control frame); the strike that reaches
 * rate_abuse_strikes gets its error too, then the close. */
static void strike(net *n, conn *c, const char *text, size_t len)
{
	n->errors[ERR_RATE_LIMITED]++;
	send_rate_limited(c, text, len);
	if (++c->strikes >= n->cfg->rate_abuse_strikes) {
		n->errors[ERR_RATE_ABUSE]++;
		log_info("net", "conn %llu (%s): flooding, closing", (unsigned long long)c->id,
			 c->peer);
		close_conn(c, NET_CLOSE_POLICY, "message rate limit exceeded", true);
	}
}

static int ev_data(void *ud, const uint8_t *p, size_t n)
{
	conn *c = ud;
	if (!c->closing)
		buf_append(&c->msg, p, n);
	return 0;
}

static int ev_message_end(void *ud)
{
	conn *c = ud;
	net *n = c->n;
	if (c->closing || !c->opened)
		return 0;
	/* Moved out first: the app may close c while handling it. */
	buf m = c->msg;
	c->msg = (buf){0};
	const char *text = m.data ? m.data : "";
	if (!rate_take(n, c, now_ms())) {
		strike(n, c, text, m.len);
	} else {
		n->msgs_in++;
		if (n->cb.on_message)
			n->cb.on_message(n->cb.ud, c, text, m.len);
	}
	if (m.cap <= MSG_KEEP && !c->closing && !c->msg.data) {
		buf_clear(&m);
		c->msg = m; /* kept for the next message */
	} else {
		buf_free(&m);
	}
	return 0;
}

static int ev_control(void *ud, enum ws_opcode op, int code, const uint8_t *p, size_t len)
{
	conn *c = ud;
	net *n = c->n;
	if (op == WS_OP_CLOSE) {
		c->peer_closed = true;
		if (!c->peer_close_code)
			c->peer_close_code = code;
		if (c->close_sent)
			return 1; /* the closing handshake is complete: drop the socket */
		if (!c->closing) {
			/* Answered with the peer's own code (RFC 6455 §5.5.1); the
			 * close is the peer's, not laird's. */
			int reply = code == WS_CLOSE_NO_STATUS ? WS_CLOSE_NORMAL : code;
			close_conn(c, reply, "", false);
			c->close_code = 0;
		}
		return 0;
	}
	n->control_in++;
	if (c->closing || !c->opened)
		return 0;
	/* Pings and pongs cost like messages: they take from the same bucket. */
	if (!rate_take(n, c, now_ms())) {
		strike(n, c, NULL, 0);
		return 0;
	}
	if (op == WS_OP_PING) {
		queue_frame(c, WS_OP_PONG, p, len);
		want_write(c);
	}
	return 0;
}

static const ws_events ws_handlers = {ev_data, ev_message_end, ev_control};

/* Returns -1 to drop the socket. */
static int on_raw_rx(net *n, conn *c, uint8_t *in, size_t len)
{
	if (!c)
		return -1;
	c->last_rx_ms = now_ms();
	n->bytes_in += len;
	int rc = ws_parse(&c->parser, in, len, &ws_handlers, c);
	if (rc < 0)
		return c->peer_closed && c->close_sent ? -1 : 0;
	if (rc > 0) {
		int e = rc == WS_CLOSE_TOO_BIG	   ? ERR_FRAME_TOO_BIG
			: rc == WS_CLOSE_UNSUPPORTED ? ERR_BINARY_FRAME
			: rc == WS_CLOSE_BAD_DATA    ? ERR_BAD_UTF8
						     : ERR_PROTOCOL;
		n->errors[e]++;
		char reason[96];
		if (rc == WS_CLOSE_TOO_BIG)
			snprintf(reason, sizeof reason, "message larger than %zu bytes",
				 n->cfg->max_frame_bytes);
		else if (rc == WS_CLOSE_UNSUPPORTED)
			snprintf(reason, sizeof reason, "text frames only (JSON)");
		else
			snprintf(reason, sizeof reason, "%s", c->parser.error);
		log_debug("net", "conn %llu (%s): %s, closing with %d", (unsigned long long)c->id,
			  c->peer, reason, rc);
		close_conn(c, rc, reason, true);
		return 0;
	}
	/* Back-pressure: stop reading a peer whose replies pile up. */
	if (!c->closing && !c->rx_paused && c->q_bytes > n->cfg->max_send_queue / 2) {
		c->rx_paused = true;
		lws_rx_flow_control(c->wsi, 0);
	}
	return 0;
}

/* ---- sending: RAW_WRITEABLE -------------------------------------------- */

/* Frames go out gathered into writes of up to WRITE_CHUNK bytes while the
 * socket takes them; lws holds the rest of a partial write itself (the
 * pipe is then "choked"). Returns -1 to drop the socket. */
static int on_raw_writeable(net *n, conn *c)
{
	if (!c)
		return -1;
	struct lws *wsi = c->wsi;
	while (c->q_head && !lws_send_pipe_choked(wsi)) {
		size_t len = 0;
		unsigned char *out = n->wbuf;
		if (c->q_head->len >= WRITE_CHUNK) {
			struct qmsg *m = c->q_head; /* a large frame goes alone, uncopied */
			out = m->data;
			len = m->len;
		}
		/* Take the frames that fit (or the large one) off the queue. */
		struct qmsg *taken = NULL, **tail = &taken;
		while (c->q_head && (out != n->wbuf ? !taken : len + c->q_head->len <= WRITE_CHUNK)) {
			struct qmsg *m = c->q_head;
			c->q_head = m->next;
			if (!c->q_head)
				c->q_tail = NULL;
			c->q_bytes -= m->len;
			if (out == n->wbuf) {
				memcpy(n->wbuf + len, m->data, m->len);
				len += m->len;
			}
			m->next = NULL;
			*tail = m;
			tail = &m->next;
		}
		int w = lws_write(wsi, out, len, LWS_WRITE_RAW);
		for (struct qmsg *m = taken, *next; m; m = next) {
			next = m->next;
			if (m->is_close) {
				c->close_sent = true;
				c->close_deadline_ms = now_ms() + CLOSE_GRACE_MS;
			}
			if (m->counted)
				n->msgs_out++;
			free(m);
		}
		if (w < 0)
			return -1;
		n->bytes_out += len;
	}
	if (c->q_bytes <= n->cfg->max_send_queue)
		c->over_since_ms = 0;
	if (c->q_head || (c->close_sent && c->peer_closed)) {
		/* More to write, or the closing handshake is over and only the
		 * bytes lws still holds stand between us and the TCP close. */
		if (!c->q_head && !lws_send_pipe_choked(wsi))
			return -1;
		lws_callback_on_writable(wsi);
	}
	if (c->rx_paused && !c->closing && c->q_bytes < n->cfg->max_send_queue / 4)
		rx_resume(c);
	return 0;
}

/* ---- a WebSocket connection's life ------------------------------------ */

static void deliver_close(conn *c)
{
	if (c->opened && !c->closed) {
		c->closed = true;
		c->closing = true;
		if (c->n->cb.on_close)
			c->n->cb.on_close(c->n->cb.ud, c);
	}
	c->closed = true;
}

/* RAW_ADOPT: the socket is lws's now; the 101 is queued already. */
static void on_raw_adopt(net *n, struct lws *wsi, struct pss *p)
{
	conn *c = lws_get_opaque_user_data(wsi);
	if (!c || c != n->adopting)
		return;
	n->adopt_seen = true;
	p->c = c;
	c->wsi = wsi;
	c->next = n->conns;
	if (n->conns)
		n->conns->prev = c;
	n->conns = c;
	n->n_conns++;
	const laird_config *cfg = n->cfg;
	struct ip_entry *e = ip_get(n, c->peer, false);
	if (n->draining) {
		n->refused[REFUSED_DRAINING]++;
		close_conn(c, NET_CLOSE_GOING_AWAY, shutdown_reason, true);
	} else if (n->n_accepted >= (size_t)cfg->max_connections) {
		n->refused[REFUSED_FULL]++;
		uint64_t now = now_ms();
		if (now - n->last_full_log_ms >= 1000) { /* one line a second, not a flood */
			n->last_full_log_ms = now;
			log_warn("net", "refusing %s: %d connections (max_connections); %llu "
				 "refused so far", c->peer, cfg->max_connections,
				 (unsigned long long)n->refused[REFUSED_FULL]);
		}
		close_conn(c, NET_CLOSE_TRY_LATER, "server full, try again later", true);
	} else if (cfg->max_conns_per_ip > 0 && e && e->count >= cfg->max_conns_per_ip) {
		n->refused[REFUSED_PER_IP]++;
		close_conn(c, NET_CLOSE_TRY_LATER, "too many connections from your address", true);
	} else {
		c->ip = ip_get(n, c->peer, true);
		c->ip->count++;
		n->n_accepted++;
		n->accepted++;
		c->opened = true;
		if (n->cb.on_open)
			n->cb.on_open(n->cb.ud, c);
	}
	want_write(c);
}

static void on_destroy(net *n, struct pss *p)
{
	conn *c = p->c;
	if (!c)
		return;
	p->c = NULL;
	deliver_close(c);
	if (c->prev)
		c->prev->next = c->next;
	else if (n->conns == c)
		n->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	n->n_conns--;
	if (c->ip) {
		n->n_accepted--;
		ip_release(n, c->ip);
	}
	queue_free(c);
	buf_free(&c->msg);
	free(c);
}

/* ---- the pre-stage: a new connection's request head --------------------- */

static void pending_closed(uv_handle_t *h) { free(h->data); }

/* Ends the pre-stage; the descriptor is closed unless keep_fd. */
static void pending_end(struct pending *pd, bool keep_fd)
{
	net *n = pd->n;
	if (pd->prev)
		pd->prev->next = pd->next;
	else
		n->pending = pd->next;
	if (pd->next)
		pd->next->prev = pd->prev;
	/* uv_close takes the descriptor out of epoll at once, before lws
	 * watches it. */
	uv_close((uv_handle_t *)&pd->poll, pending_closed);
	if (!keep_fd)
		close(pd->fd);
}

/* A short answer written straight to the socket (it is empty: a few
 * hundred bytes always fit), then the close. */
static void direct_reply(struct pending *pd, const char *status, const char *extra)
{
	char out[512];
	int len = snprintf(out, sizeof out,
			   "HTTP/1.1 %s\r\n%sContent-Type: text/plain; charset=utf-8\r\n"
			   "Content-Length: %zu\r\nConnection: close\r\n\r\n%s\n",
			   status, extra ? extra : "", strlen(status) + 1, status);
	if (send(pd->fd, out, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		log_debug("net", "reply to %s: %s", status, strerror(errno));
	pending_end(pd, false);
}

/* The client address: X-Forwarded-For is believed only when the TCP peer
 * is a trusted proxy; it is then read from its end (each proxy appends the
 * address it saw), skipping trusted proxies: the first other address is the
 * client. What a client wrote itself sits further left and is never
 * reached. A malformed entry where the walk stops leaves the TCP peer. */
static void client_address(net *n, const netaddr *direct, http_str xff, char *out,
			   size_t outlen)
{
	netaddr_format(direct, out, outlen);
	if (!n->cfg->trust_proxy || !xff.n || !netaddr_list_match(&n->trusted, direct))
		return;
	size_t end = xff.n;
	for (;;) {
		size_t start = end;
		while (start > 0 && xff.p[start - 1] != ',')
			start--;
		size_t s = start, e = end;
		while (s < e && (xff.p[s] == ' ' || xff.p[s] == '\t'))
			s++;
		while (e > s && (xff.p[e - 1] == ' ' || xff.p[e - 1] == '\t'))
			e--;
		char entry[NETADDR_TEXT];
		netaddr a;
		if (e - s >= sizeof entry)
			return;
		memcpy(entry, xff.p + s, e - s);
		entry[e - s] = 0;
		if (!netaddr_parse(entry, &a))
			return;
		if (!netaddr_list_match(&n->trusted, &a) || start == 0) {
			netaddr_format(&a, out, outlen);
			return;
		}
		end = start - 1;
	}
}

static bool origin_ok(net *n, const http_head *h)
{
	if (!h->origin.n)
		return true; /* not a browser */
	char origin[257] = "", host[257] = "";
	if (h->origin.n < sizeof origin)
		memcpy(origin, h->origin.p, h->origin.n);
	if (h->host.n < sizeof host)
		memcpy(host, h->host.p, h->host.n);
	return origin[0] && origin_allowed(origin, host, n->cfg->allowed_origins);
}

/* A WebSocket upgrade: checked, its head consumed, the socket adopted by
 * lws as a raw socket with a new conn. */
static void websocket_start(struct pending *pd, const http_head *h, char *head_bytes)
{
	net *n = pd->n;
	char accept[29];
	if (h->minor != 1 || !http_list_has(h->connection, "upgrade") || !h->host.n) {
		n->refused[REFUSED_HANDSHAKE]++;
		direct_reply(pd, "400 Bad Request", NULL);
		return;
	}
	if (!http_str_is(h->ws_version, "13")) {
		n->refused[REFUSED_HANDSHAKE]++;
		direct_reply(pd, "426 Upgrade Required", "Sec-WebSocket-Version: 13\r\n");
		return;
	}
	if (h->n_ws_key != 1 || !ws_accept_key(h->ws_key.p, h->ws_key.n, accept)) {
		n->refused[REFUSED_HANDSHAKE]++;
		direct_reply(pd, "400 Bad Request", NULL);
		return;
	}
	if (!origin_ok(n, h)) {
		/* Another site must not drive a visitor's socket (origin.h). */
		n->refused[REFUSED_ORIGIN]++;
		log_info("net", "refusing a WebSocket from origin \"%.*s\" (host \"%.*s\"): "
			 "not in allowed_origins", (int)MIN(h->origin.n, 80), h->origin.p,
			 (int)MIN(h->host.n, 80), h->host.p);
		direct_reply(pd, "403 Forbidden", NULL);
		return;
	}
	conn *c = xcalloc(1, sizeof *c);
	c->n = n;
	c->id = ++n->next_id;
	client_address(n, &pd->peer, h->xff, c->peer, sizeof c->peer);
	c->last_rx_ms = c->tokens_ms = now_ms();
	c->tokens = n->cfg->rate_burst;
	ws_parser_init(&c->parser, n->cfg->max_frame_bytes);
	char resp[160];
	int rl = snprintf(resp, sizeof resp,
			  "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
			  "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", accept);
	memcpy(queue_push(c, (size_t)rl)->data, resp, (size_t)rl);
	/* The head leaves the socket; what follows it is the first frames. */
	size_t head = h->len;
	int fd = pd->fd;
	ssize_t got = recv(fd, head_bytes, head, 0);
	pending_end(pd, got == (ssize_t)head);
	if (got != (ssize_t)head) {
		queue_free(c);
		free(c);
		return;
	}
	lws_adopt_desc_t ad;
	memset(&ad, 0, sizeof ad);
	ad.vh = n->vh;
	ad.type = LWS_ADOPT_SOCKET; /* no LWS_ADOPT_HTTP: a raw socket */
	ad.fd.sockfd = fd;
	ad.vh_prot_name = "lair";
	ad.opaque = c;
	n->adopting = c;
	n->adopt_seen = false;
	struct lws *wsi = lws_adopt_descriptor_vhost_via_info(&ad);
	n->adopting = NULL;
	/* lws closed fd itself on failure; c is lws's (and freed at its
	 * destroy) once RAW_ADOPT has run. */
	if (!wsi && !n->adopt_seen) {
		queue_free(c);
		free(c);
	}
}

/* Plain HTTP: lws serves it, told what the first request's target was. */
static void http_start(struct pending *pd, const http_head *h)
{
	net *n = pd->n;
	http_str path = http_target_path(h);
	uintptr_t flags = pd->metrics_port ? HTTP_METRICS_PORT : 0;
	if (http_str_is(path, "/healthz"))
		flags |= HTTP_EXACT_HEALTHZ;
	else if (http_str_is(path, "/metrics"))
		flags |= HTTP_EXACT_METRICS;
	int fd = pd->fd;
	pending_end(pd, true);
	lws_adopt_desc_t ad;
	memset(&ad, 0, sizeof ad);
	ad.vh = n->vh;
	ad.type = LWS_ADOPT_SOCKET | LWS_ADOPT_HTTP;
	ad.fd.sockfd = fd;
	ad.opaque = (void *)flags;
	if (!lws_adopt_descriptor_vhost_via_info(&ad))
		log_debug("net", "lws refused an HTTP connection");
}

static void on_pending_readable(uv_poll_t *poll, int status, int what)
{
	struct pending *pd = poll->data;
	net *n = pd->n;
	(void)what;
	if (status < 0) {
		pending_end(pd, false);
		return;
	}
	char head[HEAD_MAX];
	ssize_t r = recv(pd->fd, head, sizeof head, MSG_PEEK);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (r <= 0) {
		pending_end(pd, false); /* gone before it said anything */
		return;
	}
	http_head h;
	switch (http_head_parse(head, (size_t)r, &h)) {
	case HTTP_HEAD_INCOMPLETE:
		if (r == (ssize_t)sizeof head) {
			direct_reply(pd, "431 Request Header Fields Too Large", NULL);
			return;
		}
		/* Wake again only when more has come: the peeked bytes stay
		 * readable, so a plain poll would spin. */
		pd->lowat = (int)r + 1;
		setsockopt(pd->fd, SOL_SOCKET, SO_RCVLOWAT, &pd->lowat, sizeof pd->lowat);
		return;
	case HTTP_HEAD_BAD:
		direct_reply(pd, "400 Bad Request", NULL);
		return;
	case HTTP_HEAD_OK:
		break;
	}
	if (pd->lowat) {
		int one = 1;
		setsockopt(pd->fd, SOL_SOCKET, SO_RCVLOWAT, &one, sizeof one);
	}
	if (!http_str_is(h.method, "GET")) {
		n->http_requests++;
		direct_reply(pd, "405 Method Not Allowed", "Allow: GET\r\n");
	} else if (!h.upgrade.n) {
		http_start(pd, &h);
	} else if (!pd->metrics_port && http_list_has(h.upgrade, "websocket")) {
		websocket_start(pd, &h, head);
	} else {
		/* h2c and any other protocol: never switched to. */
		n->http_requests++;
		direct_reply(pd, "400 Bad Request", NULL);
	}
}

static void on_accept(void *ud, listener *l, int fd, const netaddr *peer)
{
	net *n = ud;
	if (n->shutting_down) {
		close(fd);
		return;
	}
	struct pending *pd = xcalloc(1, sizeof *pd);
	pd->n = n;
	pd->fd = fd;
	pd->metrics_port = l == n->mon;
	pd->peer = *peer;
	pd->deadline_ms = now_ms() + HEAD_TIMEOUT_MS;
	if (uv_poll_init_socket(n->loop, &pd->poll, fd) != 0) {
		close(fd);
		free(pd);
		return;
	}
	pd->poll.data = pd;
	pd->next = n->pending;
	if (n->pending)
		n->pending->prev = pd;
	n->pending = pd;
	uv_poll_start(&pd->poll, UV_READABLE, on_pending_readable);
}

/* ---- plain HTTP: /healthz, /metrics, the web client --------------------- */

static void net_metrics(net *n, buf *b)
{
	metrics_gauge(b, "lair_connections", "Open WebSocket connections.", (double)n->n_accepted);
	metrics_counter(b, "lair_connections_accepted_total",
			"WebSocket connections accepted.", (double)n->accepted);
	metrics_family(b, "lair_connections_refused_total", "counter",
		       "WebSocket connections refused, by reason.");
	for (int i = 0; i < REFUSED_COUNT; i++)
		metrics_sample_l(b, "lair_connections_refused_total", "reason", refusal_names[i],
				 (double)n->refused[i]);
	metrics_counter(b, "lair_messages_in_total", "Client messages passed to the app.",
			(double)n->msgs_in);
	metrics_counter(b, "lair_messages_out_total", "Messages sent to clients.",
			(double)n->msgs_out);
	metrics_counter(b, "lair_control_frames_in_total",
			"WebSocket pings and pongs received.", (double)n->control_in);
	metrics_counter(b, "lair_bytes_in_total", "WebSocket bytes received (frames).",
			(double)n->bytes_in);
	metrics_counter(b, "lair_bytes_out_total", "WebSocket bytes sent (frames).",
			(double)n->bytes_out);
	metrics_counter(b, "lair_http_requests_total", "Plain HTTP requests.",
			(double)n->http_requests);
	metrics_family(b, "lair_net_errors_total", "counter",
		       "Connection-level errors enforced by the network layer, by code.");
	for (int i = 0; i < ERR_COUNT; i++)
		metrics_sample_l(b, "lair_net_errors_total", "code", err_names[i],
				 (double)n->errors[i]);
	metrics_gauge(b, "lair_event_loop_lag_seconds",
		      "Event-loop lag: latest delay of a 250 ms timer.", n->lag_last_ms / 1000.0);
	metrics_gauge(b, "lair_event_loop_lag_max_seconds",
		      "Event-loop lag: worst delay over the last 10-20 s.",
		      MAX(n->lag_max_cur, n->lag_max_prev) / 1000.0);
	metrics_gauge(b, "lair_draining", "1 while shutting down.", n->draining ? 1 : 0);
}

static int http_reply(struct lws *wsi, struct pss *p, unsigned status, const char *ctype,
		      buf *body)
{
	unsigned char hdr[LWS_PRE + 512];
	unsigned char *start = hdr + LWS_PRE, *pos = start, *end = hdr + sizeof hdr - 1;
	size_t len = body->len - LWS_PRE;
	if (lws_add_http_common_headers(wsi, status, ctype, len, &pos, end) ||
	    lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
					 (const unsigned char *)"no-store", 8, &pos, end) ||
	    lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION,
					 (const unsigned char *)"close", 5, &pos, end) ||
	    lws_finalize_write_http_header(wsi, start, &pos, end)) {
		buf_free(body);
		return 1;
	}
	free(p->http_reply);
	p->http_reply = body->data;
	p->http_len = len;
	p->http_close = true;
	*body = (buf){0};
	lws_callback_on_writable(wsi);
	return 0;
}

/* Only a connection's first request was read by the pre-stage, so only it
 * can be known to have asked for exactly /healthz or /metrics; lws reads
 * "/metrics;x" or "/x/../metrics" as "/metrics" too. Those answers close
 * the connection, so a well-behaved client never asks twice on one. */
static int on_http(net *n, struct lws *wsi, struct pss *p, const char *uri, size_t len)
{
	n->http_requests++;
	uintptr_t f = (uintptr_t)lws_get_opaque_user_data(wsi);
	lws_set_opaque_user_data(wsi, (void *)(f & HTTP_METRICS_PORT));
	bool metrics_port = f & HTTP_METRICS_PORT;
	if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0) {
		/* A later request on the connection: only GET is served. */
		lws_return_http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, NULL);
		return -1;
	}
	static const char pad[LWS_PRE];
	buf body = {0};
	buf_append(&body, pad, LWS_PRE);
	unsigned status = HTTP_STATUS_OK;
	const char *ctype = "text/plain; charset=utf-8";
	bool healthz = !strcmp(uri, "/healthz") && (f & HTTP_EXACT_HEALTHZ);
	bool metrics = !strcmp(uri, "/metrics") && (f & HTTP_EXACT_METRICS) &&
		       (metrics_port || !n->mon);
	if (healthz) {
		if (n->draining) {
			status = HTTP_STATUS_SERVICE_UNAVAILABLE;
			buf_puts(&body, "draining\n");
		} else {
			buf_puts(&body, "ok\n");
		}
	} else if (metrics) {
		ctype = "text/plain; version=0.0.4; charset=utf-8";
		net_metrics(n, &body);
		if (n->cb.metrics)
			n->cb.metrics(n->cb.ud, &body);
	} else if (metrics_port || !strcmp(uri, "/healthz") || !strcmp(uri, "/metrics")) {
		status = HTTP_STATUS_NOT_FOUND;
		buf_puts(&body, "not found\n");
	} else {
		buf_free(&body);
		return http_static_serve(n->statics, wsi, uri, len, &p->sr);
	}
	return http_reply(wsi, p, status, ctype, &body);
}

static int on_http_writeable(struct lws *wsi, struct pss *p)
{
	if (!p->http_reply) {
		/* The reply is out; lws may still hold part of it. */
		if (p->http_close && lws_partial_buffered(wsi)) {
			lws_callback_on_writable(wsi);
			return 0;
		}
		return p->http_close ? -1 : 0;
	}
	int w = lws_write(wsi, (unsigned char *)p->http_reply + LWS_PRE, p->http_len,
			  LWS_WRITE_HTTP_FINAL);
	free(p->http_reply);
	p->http_reply = NULL;
	if (w < 0)
		return -1;
	if (p->http_close) {
		lws_callback_on_writable(wsi);
		return 0;
	}
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		    size_t len)
{
	struct lws_context *ctx = lws_get_context(wsi);
	net *n = ctx ? lws_context_user(ctx) : NULL;
	struct pss *p = user;
	if (!n)
		return lws_callback_http_dummy(wsi, reason, user, in, len);

	switch (reason) {
	case LWS_CALLBACK_RAW_ADOPT:
		if (p)
			on_raw_adopt(n, wsi, p);
		return 0;
	case LWS_CALLBACK_RAW_RX:
		return p ? on_raw_rx(n, p->c, in, len) : -1;
	case LWS_CALLBACK_RAW_WRITEABLE:
		return p ? on_raw_writeable(n, p->c) : -1;
	case LWS_CALLBACK_RAW_CLOSE:
		if (p && p->c) {
			p->c->lws_closed = true;
			deliver_close(p->c);
			queue_free(p->c);
		}
		return 0;
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		/* Upgrades are laird's own, on a connection's first request
		 * (the pre-stage): lws's are refused, h2c above all. */
		return -1;
	case LWS_CALLBACK_HTTP:
		return p ? on_http(n, wsi, p, in ? (const char *)in : "", in ? len : 0) : -1;
	case LWS_CALLBACK_HTTP_WRITEABLE:
		if (p && p->sr)
			return http_static_writeable(wsi, &p->sr);
		return p ? on_http_writeable(wsi, p) : -1;
	case LWS_CALLBACK_WSI_DESTROY:
		if (p) {
			on_destroy(n, p);
			free(p->http_reply);
			p->http_reply = NULL;
			http_static_drop(&p->sr);
		}
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static const struct lws_protocols protocols[] = {
	/* tx_packet_size: what lws sends of a write at once (it holds the rest). */
	{"lair", callback, sizeof(struct pss), 0, 0, NULL, WRITE_CHUNK},
	{NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- timers: loop lag, timeouts, shutdown ------------------------------- */

static void sweep(net *n, uint64_t now)
{
	int idle = n->cfg->idle_timeout_sec;
	for (conn *c = n->conns, *next; c; c = next) {
		next = c->next;
		if (c->closing) {
			/* The peer neither read the queue out nor answered the
			 * close in time: stop waiting. */
			if (now >= c->close_deadline_ms)
				kill_conn(c);
		} else if (c->over_since_ms && now - c->over_since_ms >= SLOW_READER_MS) {
			n->errors[ERR_SLOW_READER]++;
			log_info("net", "conn %llu (%s): send queue over %zu bytes for %d ms, "
				 "closing", (unsigned long long)c->id, c->peer,
				 n->cfg->max_send_queue, SLOW_READER_MS);
			close_conn(c, NET_CLOSE_POLICY, "send queue overflow (slow reader)", false);
		} else if (idle > 0 && now - c->last_rx_ms >= (uint64_t)idle * 1000) {
			n->errors[ERR_IDLE_TIMEOUT]++;
			close_conn(c, NET_CLOSE_NORMAL, "idle timeout", true);
		}
	}
	for (struct pending *pd = n->pending, *next; pd; pd = next) {
		next = pd->next;
		if (now >= pd->deadline_ms)
			pending_end(pd, false);
	}
}

static void tick_cb(uv_timer_t *t)
{
	net *n = t->data;
	uint64_t now_n = now_ns(), now = now_n / 1000000;
	double lag = (double)(now_n - n->last_tick_ns) / 1e6 - TICK_MS;
	n->last_tick_ns = now_n;
	n->lag_last_ms = lag > 0 ? lag : 0;
	if (n->lag_last_ms > n->lag_max_cur)
		n->lag_max_cur = n->lag_last_ms;
	if (++n->ticks % LAG_WINDOW_TICKS == 0) {
		n->lag_max_prev = n->lag_max_cur;
		n->lag_max_cur = 0;
	}
	if (n->ticks % 4 == 0)
		sweep(n, now);
}

static void finish_shutdown(net *n)
{
	n->finished = true;
	uv_timer_stop(&n->shutdown_timer);
	/* The app hears of every conn lws has not destroyed yet, so no
	 * callback follows done. */
	for (conn *c = n->conns; c; c = c->next)
		deliver_close(c);
	while (n->pending)
		pending_end(n->pending, false);
	uv_close((uv_handle_t *)&n->tick, NULL);
	uv_close((uv_handle_t *)&n->shutdown_timer, NULL);
	listener_close(n->pub);
	listener_close(n->mon);
	n->pub = n->mon = NULL;
	if (n->ctx)
		lws_context_destroy(n->ctx); /* first of two (docs/libwebsockets.md §7) */
	if (n->done)
		n->done(n->done_ud);
}

static void shutdown_cb(uv_timer_t *t)
{
	net *n = t->data;
	uint64_t now = now_ms();
	sweep(n, now); /* enforce close grace periods */
	if (n->n_conns == 0) {
		finish_shutdown(n);
	} else if (now - n->shutdown_started_ms >= SHUTDOWN_WAIT_MS) {
		log_warn("net", "%zu connections still open after %d ms; closing anyway",
			 n->n_conns, SHUTDOWN_WAIT_MS);
		finish_shutdown(n);
	}
}

void net_shutdown(net *n, void (*done)(void *ud), void *ud)
{
	if (n->shutting_down)
		return;
	n->shutting_down = true;
	n->draining = true;
	n->done = done;
	n->done_ud = ud;
	n->shutdown_started_ms = now_ms();
	uv_timer_stop(&n->tick);
	for (conn *c = n->conns, *next; c; c = next) {
		next = c->next;
		close_conn(c, NET_CLOSE_GOING_AWAY, shutdown_reason, true);
	}
	uv_timer_start(&n->shutdown_timer, shutdown_cb, SHUTDOWN_POLL_MS, SHUTDOWN_POLL_MS);
}

/* ---- creation and the final free ------------------------------------- */

static void lws_log(int level, const char *line)
{
	size_t len = strlen(line);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	log_msg(level & LLL_ERR ? LOG_ERROR : LOG_WARN, "lws", "%.*s", (int)len, line);
}

/* Frees what net_new made before the lws context. */
static void free_parts(net *n)
{
	http_static_free(n->statics);
	netaddr_list_free(&n->trusted);
	free(n);
}

net *net_new(uv_loop_t *loop, const laird_config *cfg, const net_callbacks *cb, char *err,
	     size_t errlen)
{
	net *n = xcalloc(1, sizeof *n);
	n->loop = loop;
	n->cfg = cfg;
	n->cb = *cb;
	n->last_tick_ns = now_ns();
	char lerr[200];
	netaddr maddr;
	int mport;
	if (!origin_list_valid(cfg->allowed_origins, err, errlen)) {
		free_parts(n);
		return NULL;
	}
	if (netaddr_list_parse(cfg->trusted_proxies, &n->trusted, lerr, sizeof lerr) != 0) {
		snprintf(err, errlen, "trusted_proxies: %s", lerr);
		free_parts(n);
		return NULL;
	}
	if (cfg->metrics_bind[0] && !netaddr_parse_hostport(cfg->metrics_bind, &maddr, &mport)) {
		snprintf(err, errlen, "metrics_bind: \"%s\" is not ADDR:PORT (e.g. "
			 "127.0.0.1:9100, [::1]:9100)", cfg->metrics_bind);
		free_parts(n);
		return NULL;
	}
	if (!(n->statics = http_static_new(loop, cfg->web_root, err, errlen))) {
		free_parts(n);
		return NULL;
	}

	/* lws's warnings are mostly noise at shutdown; errors always show. */
	lws_set_log_level(log_get_level() <= LOG_DEBUG ? LLL_ERR | LLL_WARN : LLL_ERR, lws_log);

	void *foreign[1] = {loop};
	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
	info.foreign_loops = foreign;
	info.pcontext = &n->ctx;
	info.user = n;
	/* fd_limit_per_thread stays 0: lws sizes its fd tables from
	 * RLIMIT_NOFILE, which main sets to max_connections + a margin. A
	 * smaller limit here would switch lws to a linear fd lookup. */
	info.max_http_header_data = 4096;
	n->ctx = lws_create_context(&info);
	if (!n->ctx) {
		snprintf(err, errlen, "cannot create the libwebsockets context "
			 "(is libwebsockets-evlib-uv installed?)");
		free_parts(n);
		return NULL;
	}

	struct lws_context_creation_info vi;
	memset(&vi, 0, sizeof vi);
	vi.options = LWS_SERVER_OPTION_LIBUV;
	/* The vhost listens on nothing: laird accepts itself (listener.h) and
	 * hands lws each connection. */
	vi.port = CONTEXT_PORT_NO_LISTEN_SERVER;
	vi.protocols = protocols;
	vi.vhost_name = "lair";
	vi.user = n;
	n->vh = lws_create_vhost(n->ctx, &vi);
	if (n->vh)
		n->pub = listener_new(loop, cfg->bind, cfg->port, on_accept, n, err, errlen);
	else
		snprintf(err, errlen, "cannot create the libwebsockets vhost");
	if (n->pub && cfg->metrics_bind[0]) {
		char addr[NETADDR_TEXT];
		netaddr_format(&maddr, addr, sizeof addr);
		n->mon = listener_new(loop, addr, mport, on_accept, n, lerr, sizeof lerr);
		if (!n->mon) {
			snprintf(err, errlen, "metrics_bind: %s", lerr);
			listener_close(n->pub);
			n->pub = NULL;
		}
	}
	if (!n->pub) {
		/* Release lws's uv handles: destroy, let them close, destroy again. */
		lws_context_destroy(n->ctx);
		for (int i = 0; i < 100 && n->ctx; i++)
			uv_run(loop, UV_RUN_NOWAIT);
		if (n->ctx)
			lws_context_destroy(n->ctx);
		free_parts(n);
		return NULL;
	}
	n->port = listener_port(n->pub);
	log_info("net", "listening on %s", listener_name(n->pub));
	if (n->mon)
		log_info("net", "metrics on %s", listener_name(n->mon));

	uv_timer_init(loop, &n->tick);
	uv_timer_init(loop, &n->shutdown_timer);
	n->tick.data = n->shutdown_timer.data = n;
	uv_timer_start(&n->tick, tick_cb, TICK_MS, TICK_MS);
	return n;
}

void net_free(net *n)
{
	if (!n)
		return;
	if (n->ctx)
		lws_context_destroy(n->ctx); /* the second (docs/libwebsockets.md §7) */
	for (conn *c = n->conns, *next; c; c = next) {
		next = c->next;
		queue_free(c);
		buf_free(&c->msg);
		free(c);
	}
	for (int i = 0; i < IP_BUCKETS; i++)
		for (struct ip_entry *e = n->ips[i], *next; e; e = next) {
			next = e->next;
			free(e);
		}
	free_parts(n);
}
