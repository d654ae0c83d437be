/*
 * net.c — see net.h. libwebsockets 4.1 runs on our libuv loop as a foreign
 * loop; everything below follows /work/shared/NOTES-lws.md (keep them side
 * by side when changing this file):
 *   - writes happen only in SERVER_WRITEABLE, queued frames while the
 *     socket is not choked (at most WRITES_PER_CALLBACK);
 *   - closes never happen from inside WRITEABLE (lws 4.1.6 + _DEBUG drops the
 *     close frame, #3569): every close goes through the "closer", a 0 ms uv
 *     timer that runs outside lws callbacks and does lws_close_reason() +
 *     lws_set_timeout(PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
 *   - a conn is counted live until LWS_CALLBACK_WSI_DESTROY (after its uv
 *     handle closed), which is what the shutdown waits for;
 *   - the context is destroyed twice: once when no conn is left, once after
 *     uv_run returned.
 * net allocates its own struct conn; the lws per-session data holds only a
 * pointer to it (and an HTTP reply in flight), so a conn can outlive lws's
 * user space while it sits on the closer's list.
 */
#include <uv.h>

#include <libwebsockets.h>

#include "net.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../common/log.h"
#include "http_static.h"
#include "listener.h"
#include "metrics.h"
#include "netaddr.h"
#include "origin.h"

#define RX_BUFFER_SIZE 1024     /* chunk size; ~2.9 KB per idle conn (NOTES-lws) */
#define TICK_MS 250             /* loop-lag probe; every 4th tick sweeps timeouts */
#define LAG_WINDOW_TICKS 40     /* lag max is over the last 10-20 s */
#define CLOSE_GRACE_MS 2000     /* queued frames get this long before a close */
#define SHUTDOWN_POLL_MS 10
#define SHUTDOWN_WAIT_MS 5000   /* then the context is destroyed regardless */
#define IP_BUCKETS 4096
#define WRITES_PER_CALLBACK 16  /* frames written in one WRITEABLE, pipe permitting */

enum net_err {
	ERR_RATE_LIMITED,
	ERR_RATE_ABUSE,
	ERR_FRAME_TOO_BIG,
	ERR_BINARY_FRAME,
	ERR_SLOW_READER,
	ERR_IDLE_TIMEOUT,
	ERR_COUNT
};
static const char *const err_names[ERR_COUNT] = {
	"rate_limited", "rate_abuse", "frame_too_big", "binary_frame", "slow_reader",
	"idle_timeout",
};

enum refusal { REFUSED_FULL, REFUSED_PER_IP, REFUSED_DRAINING, REFUSED_ORIGIN, REFUSED_COUNT };
static const char *const refusal_names[REFUSED_COUNT] = {"full", "per_ip", "draining",
							 "origin"};

struct ip_entry {
	struct ip_entry *next;
	int count; /* accepted, not yet destroyed */
	char ip[48];
};

struct qmsg {
	struct qmsg *next;
	size_t len;
	unsigned char data[]; /* LWS_PRE headroom, then len bytes */
};

struct conn {
	net *n;
	struct lws *wsi;       /* NULL once lws destroyed it */
	uint64_t id;
	void *user;
	struct conn *prev, *next;  /* n->conns: every conn lws has not destroyed */
	struct conn *kill_next;    /* n->kill_head */
	struct ip_entry *ip;       /* set when accepted */
	char peer[48];
	/* receiving */
	buf frag;                  /* a message arriving in several fragments */
	uint64_t last_rx_ms;
	double tokens;
	uint64_t tokens_ms;
	int strikes;
	/* sending */
	struct qmsg *q_head, *q_tail;
	size_t q_bytes;
	/* state */
	bool opened;      /* on_open delivered */
	bool closed;      /* on_close delivered */
	bool closing;     /* no more frames in or out */
	bool kill_queued; /* on the closer's list */
	bool kill_sent;   /* the closer asked lws to close it: never twice, as a
			   * second request cuts the close handshake (1006) */
	bool lws_closed;  /* LWS_CALLBACK_CLOSED seen: lws is closing it itself */
	bool rx_paused;
	int close_code;
	int peer_close_code; /* from the peer's close frame (1005: it had none) */
	uint64_t close_deadline_ms; /* graceful close: kill when the queue drained or then */
	char close_reason[124];
};

/* lws per-session data, for WebSocket and plain HTTP connections alike. */
struct pss {
	conn *c;
	char *http_reply;  /* LWS_PRE headroom + body, owned */
	size_t http_len;
	char fwd_ip[48];   /* X-Forwarded-For client (trust_proxy) */
	struct static_reply *sr; /* a web client file being sent (http_static.h) */
};

struct net {
	uv_loop_t *loop;
	const laird_config *cfg;
	net_callbacks cb;
	struct lws_context *ctx;
	struct lws_vhost *vh;
	http_static *statics;   /* the browser client's files at / */
	listener *pub;          /* the public port (WebSocket and HTTP) */
	netaddr_list trusted;   /* proxies whose X-Forwarded-For is believed */
	int port;
	bool draining, shutting_down, finished;
	uint64_t next_id;

	conn *conns;            /* list of live WebSocket conns */
	size_t n_conns;         /* live, including closing ones */
	size_t n_accepted;      /* opened and not yet destroyed */
	conn *kill_head;
	struct ip_entry *ips[IP_BUCKETS];
	buf scratch;            /* NUL-terminated copy of a one-fragment message */

	uv_timer_t tick, closer, shutdown_timer;
	uint64_t last_tick_ns, shutdown_started_ms, last_full_log_ms;
	unsigned ticks;
	double lag_last_ms, lag_max_cur, lag_max_prev;
	void (*done)(void *ud);
	void *done_ud;

	/* counters for /metrics */
	uint64_t accepted, refused[REFUSED_COUNT], errors[ERR_COUNT];
	uint64_t msgs_in, msgs_out, bytes_in, bytes_out, http_requests;
};

static const char *const shutdown_reason = "server shutting down";

/* ---- per-IP counts ---------------------------------------------------- */

/* The address at the other end of the TCP connection (a proxy, perhaps). */
static bool peer_of(struct lws *wsi, netaddr *out)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	int fd = lws_get_socket_fd(wsi);
	return fd >= 0 && getpeername(fd, (struct sockaddr *)&ss, &len) == 0 &&
	       netaddr_from_sockaddr((struct sockaddr *)&ss, out, NULL);
}


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

/* ---- send queue and closing -------------------------------------------- */

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

static void closer_cb(uv_timer_t *t);

static void kill_enqueue(conn *c)
{
	net *n = c->n;
	if (c->kill_queued || c->kill_sent)
		return;
	c->kill_queued = true;
	c->kill_next = n->kill_head;
	n->kill_head = c;
	if (!uv_is_active((uv_handle_t *)&n->closer) && !uv_is_closing((uv_handle_t *)&n->closer))
		uv_timer_start(&n->closer, closer_cb, 0, 0);
}

/* Marks c closing with code/reason. graceful: queued frames go first. */
static void close_conn(conn *c, int code, const char *reason, bool graceful)
{
	if (c->closing || !c->wsi)
		return;
	c->closing = true;
	c->close_code = code;
	strlcpy_safe(c->close_reason, reason ? reason : "", sizeof c->close_reason);
	if (graceful && c->q_head) {
		c->close_deadline_ms = now_ms() + CLOSE_GRACE_MS;
		lws_callback_on_writable(c->wsi);
		return;
	}
	queue_free(c);
	kill_enqueue(c);
}

/* Runs outside lws callbacks: sends each queued close frame. */
static void closer_cb(uv_timer_t *t)
{
	net *n = t->data;
	while (n->kill_head) {
		conn *c = n->kill_head;
		n->kill_head = c->kill_next;
		c->kill_queued = false;
		if (!c->wsi) { /* lws destroyed it while it waited here */
			free(c);
			continue;
		}
		if (c->lws_closed)
			continue;
		c->kill_sent = true;
		lws_close_reason(c->wsi, (enum lws_close_status)c->close_code,
				 (unsigned char *)c->close_reason, strlen(c->close_reason));
		/* May destroy c synchronously: do not touch it after this. */
		lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
	}
}

int conn_send(conn *c, const char *text, size_t len)
{
	if (c->closing || !c->wsi)
		return -1;
	net *n = c->n;
	if (c->q_bytes + len > n->cfg->max_send_queue) {
		n->errors[ERR_SLOW_READER]++;
		log_info("net", "conn %llu (%s): send queue over %zu bytes, closing",
			 (unsigned long long)c->id, c->peer, n->cfg->max_send_queue);
		close_conn(c, NET_CLOSE_POLICY, "send queue overflow (slow reader)", false);
		return -1;
	}
	struct qmsg *m = xmalloc(sizeof *m + LWS_PRE + len);
	m->next = NULL;
	m->len = len;
	memcpy(m->data + LWS_PRE, text, len);
	if (c->q_tail)
		c->q_tail->next = m;
	else
		c->q_head = m;
	c->q_tail = m;
	c->q_bytes += len;
	lws_callback_on_writable(c->wsi);
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
void net_set_draining(net *n) { n->draining = true; }

static void send_error(conn *c, const char *code, const char *message)
{
	char text[256];
	int len = snprintf(text, sizeof text,
			   "{\"type\":\"error\",\"code\":\"%s\",\"message\":\"%s\"}", code,
			   message);
	conn_send(c, text, (size_t)len);
}

/* ---- lifecycle of one WebSocket connection ----------------------------- */

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

static void on_established(net *n, struct lws *wsi, struct pss *p)
{
	conn *c = xcalloc(1, sizeof *c);
	c->n = n;
	c->wsi = wsi;
	c->id = ++n->next_id;
	netaddr direct;
	if (p->fwd_ip[0])
		strlcpy_safe(c->peer, p->fwd_ip, sizeof c->peer);
	else if (peer_of(wsi, &direct))
		netaddr_format(&direct, c->peer, sizeof c->peer);
	else
		strlcpy_safe(c->peer, "?", sizeof c->peer);
	c->last_rx_ms = c->tokens_ms = now_ms();
	c->tokens = n->cfg->rate_burst;
	c->next = n->conns;
	if (n->conns)
		n->conns->prev = c;
	n->conns = c;
	n->n_conns++;
	p->c = c;

	const laird_config *cfg = n->cfg;
	struct ip_entry *e = ip_get(n, c->peer, false);
	if (n->draining) {
		n->refused[REFUSED_DRAINING]++;
		close_conn(c, NET_CLOSE_GOING_AWAY, shutdown_reason, false);
	} else if (n->n_accepted >= (size_t)cfg->max_connections) {
		n->refused[REFUSED_FULL]++;
		uint64_t now = now_ms();
		if (now - n->last_full_log_ms >= 1000) { /* one line a second, not a flood */
			n->last_full_log_ms = now;
			log_warn("net", "refusing %s: %d connections (max_connections); %llu "
				 "refused so far", c->peer, cfg->max_connections,
				 (unsigned long long)n->refused[REFUSED_FULL]);
		}
		close_conn(c, NET_CLOSE_TRY_LATER, "server full, try again later", false);
	} else if (cfg->max_conns_per_ip > 0 && e && e->count >= cfg->max_conns_per_ip) {
		n->refused[REFUSED_PER_IP]++;
		log_info("net", "refusing %s: %d connections from it (max_conns_per_ip)",
			 c->peer, e->count);
		close_conn(c, NET_CLOSE_TRY_LATER, "too many connections from your address",
			   false);
	} else {
		c->ip = e ? e : ip_get(n, c->peer, true);
		c->ip->count++;
		n->n_accepted++;
		n->accepted++;
		c->opened = true;
		if (n->cb.on_open)
			n->cb.on_open(n->cb.ud, c);
	}
}

static void on_destroy(net *n, struct pss *p)
{
	conn *c = p->c;
	if (!c)
		return;
	p->c = NULL;
	deliver_close(c);
	queue_free(c);
	buf_free(&c->frag);
	if (c->prev)
		c->prev->next = c->next;
	else
		n->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	n->n_conns--;
	if (c->ip) {
		ip_release(n, c->ip);
		n->n_accepted--;
	}
	c->wsi = NULL;
	if (!c->kill_queued)
		free(c); /* else the closer frees it */
}

/* The token bucket: true if one more message may pass now. */
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

static void deliver_message(net *n, conn *c, const char *text, size_t len)
{
	if (!rate_take(n, c, now_ms())) {
		n->errors[ERR_RATE_LIMITED]++;
		if (++c->strikes >= n->cfg->rate_abuse_strikes) {
			n->errors[ERR_RATE_ABUSE]++;
			log_info("net", "conn %llu (%s): flooding, closing",
				 (unsigned long long)c->id, c->peer);
			close_conn(c, NET_CLOSE_POLICY, "message rate limit exceeded", false);
		} else {
			send_error(c, "rate_limited", "too many messages: this one was dropped");
		}
		return;
	}
	n->msgs_in++;
	if (n->cb.on_message)
		n->cb.on_message(n->cb.ud, c, text, len);
}

static void on_receive(net *n, struct lws *wsi, conn *c, const char *in, size_t len)
{
	if (!c || c->closing)
		return; /* frames after a close request are dropped */
	c->last_rx_ms = now_ms();
	n->bytes_in += len;
	if (lws_frame_is_binary(wsi)) {
		n->errors[ERR_BINARY_FRAME]++;
		close_conn(c, NET_CLOSE_UNSUPPORTED, "text frames only (JSON)", false);
		return;
	}
	size_t total = c->frag.len + len + lws_remaining_packet_payload(wsi);
	if (total > n->cfg->max_frame_bytes) {
		char reason[96];
		snprintf(reason, sizeof reason, "message larger than %zu bytes",
			 n->cfg->max_frame_bytes);
		n->errors[ERR_FRAME_TOO_BIG]++;
		close_conn(c, NET_CLOSE_TOO_BIG, reason, false);
		return;
	}
	bool final = lws_is_final_fragment(wsi);
	if (final && c->frag.len == 0) {
		buf_clear(&n->scratch);
		buf_append(&n->scratch, in, len);
		deliver_message(n, c, n->scratch.data, len);
	} else {
		buf_append(&c->frag, in, len);
		if (final) {
			/* Move it out first: the app may close c while handling it. */
			buf msg = c->frag;
			c->frag = (buf){0};
			deliver_message(n, c, msg.data, msg.len);
			buf_free(&msg);
		}
	}
	/* Back-pressure: stop reading a peer whose replies pile up. */
	if (!c->closing && !c->rx_paused && c->q_bytes > n->cfg->max_send_queue / 2) {
		c->rx_paused = true;
		lws_rx_flow_control(wsi, 0);
	}
}

/* One queued frame per WRITEABLE (NOTES-lws). Returns -1 to drop the socket. */
static int on_writeable(net *n, struct lws *wsi, conn *c)
{
	if (!c)
		return 0;
	/* Several frames per callback while the socket takes them: asking
	 * lws for WRITEABLE again costs an epoll DEL + ADD in its libuv
	 * backend, once per frame otherwise (measured: a sixth of laird's CPU
	 * under the load benchmark). A partial write makes the pipe choked,
	 * and lws then holds the rest itself. */
	for (int sent = 0; c->q_head && sent < WRITES_PER_CALLBACK; sent++) {
		if (sent > 0 && lws_send_pipe_choked(wsi))
			break;
		struct qmsg *m = c->q_head;
		c->q_head = m->next;
		if (!c->q_head)
			c->q_tail = NULL;
		c->q_bytes -= m->len;
		int w = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
		n->msgs_out++;
		n->bytes_out += m->len;
		free(m);
		if (w < 0)
			return -1;
	}
	if (c->q_head) {
		lws_callback_on_writable(wsi);
	} else if (c->closing) {
		kill_enqueue(c); /* the graceful close can go now (not from here) */
	}
	if (c->rx_paused && c->q_bytes < n->cfg->max_send_queue / 4 && !c->closing) {
		c->rx_paused = false;
		lws_rx_flow_control(wsi, 1);
	}
	return 0;
}

/* ---- plain HTTP: /healthz, /metrics ------------------------------------ */

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
	metrics_counter(b, "lair_bytes_in_total", "WebSocket payload bytes received.",
			(double)n->bytes_in);
	metrics_counter(b, "lair_bytes_out_total", "WebSocket payload bytes sent.",
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
	    lws_finalize_write_http_header(wsi, start, &pos, end)) {
		buf_free(body);
		return 1;
	}
	free(p->http_reply);
	p->http_reply = body->data;
	p->http_len = len;
	*body = (buf){0};
	lws_callback_on_writable(wsi);
	return 0;
}

static int on_http(net *n, struct lws *wsi, struct pss *p, const char *uri, size_t len)
{
	n->http_requests++;
	if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0) {
		/* Only GET is served; anything else gets a status and a close. */
		lws_return_http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, NULL);
		return -1;
	}
	static const char pad[LWS_PRE];
	buf body = {0};
	buf_append(&body, pad, LWS_PRE);
	unsigned status = HTTP_STATUS_OK;
	const char *ctype = "text/plain; charset=utf-8";
	if (!strcmp(uri, "/healthz")) {
		if (n->draining) {
			status = HTTP_STATUS_SERVICE_UNAVAILABLE;
			buf_puts(&body, "draining\n");
		} else {
			buf_puts(&body, "ok\n");
		}
	} else if (!strcmp(uri, "/metrics")) {
		ctype = "text/plain; version=0.0.4; charset=utf-8";
		net_metrics(n, &body);
		if (n->cb.metrics)
			n->cb.metrics(n->cb.ud, &body);
	} else {
		buf_free(&body);
		return http_static_serve(n->statics, wsi, uri, len, &p->sr);
	}
	return http_reply(wsi, p, status, ctype, &body);
}

static int on_http_writeable(struct lws *wsi, struct pss *p)
{
	if (!p->http_reply)
		return 0;
	int w = lws_write(wsi, (unsigned char *)p->http_reply + LWS_PRE, p->http_len,
			  LWS_WRITE_HTTP_FINAL);
	free(p->http_reply);
	p->http_reply = NULL;
	if (w < 0)
		return -1;
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* The client address behind trusted proxies. X-Forwarded-For is believed
 * only when the TCP peer is one of the trusted proxies; it is then read
 * from its end (each proxy appends the address it saw), skipping trusted
 * proxies: the first other address is the client. Anything a client wrote
 * itself sits further left and is never reached. A malformed entry where
 * the walk stops leaves the TCP peer as the address. The header is copied
 * whole (bounded by max_http_header_data). */
static void read_forwarded(net *n, struct lws *wsi, struct pss *p)
{
	netaddr direct;
	if (!peer_of(wsi, &direct) || !netaddr_list_match(&n->trusted, &direct))
		return;
	char h[4096 + 1];
	int total = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR);
	if (total <= 0 || total >= (int)sizeof h)
		return;
	int len = lws_hdr_copy(wsi, h, sizeof h, WSI_TOKEN_X_FORWARDED_FOR);
	if (len <= 0)
		return;
	for (;;) {
		char *comma = strrchr(h, ',');
		char *entry = comma ? comma + 1 : h;
		entry += strspn(entry, " \t");
		entry[strcspn(entry, " \t")] = 0;
		netaddr a;
		if (!netaddr_parse(entry, &a))
			return;
		if (!netaddr_list_match(&n->trusted, &a) || !comma) {
			netaddr_format(&a, p->fwd_ip, sizeof p->fwd_ip);
			return;
		}
		*comma = 0;
	}
}

/* A WebSocket upgrade from a web page of another origin is refused before
 * it opens (origin.h): another site must not drive a visitor's socket. */
static bool origin_ok(net *n, struct lws *wsi)
{
	char origin[257], host[257];
	int ol = lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN);
	if (ol <= 0)
		return true;
	if (ol >= (int)sizeof origin || lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0)
		origin[0] = 0; /* too long to be an origin of ours: refused below */
	int hl = lws_hdr_total_length(wsi, WSI_TOKEN_HOST);
	if (hl <= 0 || hl >= (int)sizeof host || lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) < 0)
		host[0] = 0;
	if (origin[0] && origin_allowed(origin, host, n->cfg->allowed_origins))
		return true;
	n->refused[REFUSED_ORIGIN]++;
	log_info("net", "refusing a WebSocket from origin \"%.80s\" (host \"%.80s\"): "
		 "not in allowed_origins", origin, host);
	return false;
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
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		if (!origin_ok(n, wsi)) {
			/* A status the browser's console shows, then the close. */
			lws_return_http_status(wsi, HTTP_STATUS_FORBIDDEN, NULL);
			return -1;
		}
		if (p && n->cfg->trust_proxy)
			read_forwarded(n, wsi, p);
		return 0;
	case LWS_CALLBACK_ESTABLISHED:
		if (p)
			on_established(n, wsi, p);
		return 0;
	case LWS_CALLBACK_RECEIVE:
		if (p)
			on_receive(n, wsi, p->c, in, len);
		return 0;
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		if (p && p->c && !p->c->peer_close_code)
			p->c->peer_close_code = len >= 2 ? ((const unsigned char *)in)[0] << 8 |
								  ((const unsigned char *)in)[1]
							 : 1005;
		return 0;
	case LWS_CALLBACK_RECEIVE_PONG:
		if (p && p->c)
			p->c->last_rx_ms = now_ms();
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return p ? on_writeable(n, wsi, p->c) : 0;
	case LWS_CALLBACK_CLOSED:
		if (p && p->c) {
			p->c->lws_closed = true;
			deliver_close(p->c);
			queue_free(p->c);
		}
		return 0;
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
	{"lair", callback, sizeof(struct pss), RX_BUFFER_SIZE, 0, NULL, 0},
	{NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- timers: loop lag, timeouts, shutdown ------------------------------- */

static void sweep(net *n, uint64_t now)
{
	int idle = n->cfg->idle_timeout_sec;
	for (conn *c = n->conns, *next; c; c = next) {
		next = c->next;
		if (c->closing) {
			if (!c->kill_queued && !c->lws_closed && c->close_deadline_ms &&
			    now >= c->close_deadline_ms) {
				queue_free(c); /* the peer does not read: stop waiting */
				kill_enqueue(c);
			}
		} else if (idle > 0 && now - c->last_rx_ms >= (uint64_t)idle * 1000) {
			n->errors[ERR_IDLE_TIMEOUT]++;
			close_conn(c, NET_CLOSE_NORMAL, "idle timeout", true);
		}
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
	/* Anything still waiting for the closer goes now; then the app hears of
	 * every conn lws has not destroyed yet, so no callback follows done. */
	closer_cb(&n->closer);
	for (conn *c = n->conns; c; c = c->next)
		deliver_close(c);
	uv_close((uv_handle_t *)&n->tick, NULL);
	uv_close((uv_handle_t *)&n->closer, NULL);
	uv_close((uv_handle_t *)&n->shutdown_timer, NULL);
	listener_close(n->pub);
	n->pub = NULL;
	if (n->ctx)
		lws_context_destroy(n->ctx); /* first of two (NOTES-lws step 3) */
	if (n->done)
		n->done(n->done_ud);
}

static void shutdown_cb(uv_timer_t *t)
{
	net *n = t->data;
	uint64_t now = now_ms();
	sweep(n, now); /* enforce close grace periods */
	if (n->n_conns == 0 && !n->kill_head) {
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

/* A connection accepted on the public port goes to lws as if lws had
 * accepted it: HTTP first, then perhaps the WebSocket upgrade. */
static void on_accept(void *ud, listener *l, int fd, const netaddr *peer)
{
	net *n = ud;
	(void)l;
	(void)peer;
	lws_sock_file_fd_type desc;
	desc.sockfd = fd;
	/* On failure lws has closed fd itself. */
	if (!lws_adopt_descriptor_vhost(n->vh, LWS_ADOPT_SOCKET | LWS_ADOPT_HTTP, desc, NULL, NULL))
		log_debug("net", "lws refused an accepted connection");
}

static void lws_log(int level, const char *line)
{
	size_t len = strlen(line);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	log_msg(level & LLL_ERR ? LOG_ERROR : LOG_WARN, "lws", "%.*s", (int)len, line);
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
	if (!origin_list_valid(cfg->allowed_origins, err, errlen))
		goto fail;
	if (netaddr_list_parse(cfg->trusted_proxies, &n->trusted, lerr, sizeof lerr) != 0) {
		snprintf(err, errlen, "trusted_proxies: %s", lerr);
		goto fail;
	}
	if (!(n->statics = http_static_new(loop, cfg->web_root, err, errlen))) {
	fail:
		netaddr_list_free(&n->trusted);
		free(n);
		return NULL;
	}

	/* lws's warnings are mostly noise at shutdown; errors always show. */
	lws_set_log_level(log_get_level() <= LOG_DEBUG ? LLL_ERR | LLL_WARN : LLL_ERR, lws_log);

	void *foreign[1] = {loop};
	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_EXPLICIT_VHOSTS |
		       LWS_SERVER_OPTION_VALIDATE_UTF8;
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
		http_static_free(n->statics);
		netaddr_list_free(&n->trusted);
		free(n);
		return NULL;
	}

	struct lws_context_creation_info vi;
	memset(&vi, 0, sizeof vi);
	vi.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND |
		     LWS_SERVER_OPTION_VALIDATE_UTF8;
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
	if (!n->pub) {
		/* Release lws's uv handles: destroy, let them close, destroy again. */
		lws_context_destroy(n->ctx);
		for (int i = 0; i < 100 && n->ctx; i++)
			uv_run(loop, UV_RUN_NOWAIT);
		if (n->ctx)
			lws_context_destroy(n->ctx);
		http_static_free(n->statics);
		netaddr_list_free(&n->trusted);
		free(n);
		return NULL;
	}
	n->port = listener_port(n->pub);
	log_info("net", "listening on %s", listener_name(n->pub));

	uv_timer_init(loop, &n->tick);
	uv_timer_init(loop, &n->closer);
	uv_timer_init(loop, &n->shutdown_timer);
	n->tick.data = n->closer.data = n->shutdown_timer.data = n;
	uv_timer_start(&n->tick, tick_cb, TICK_MS, TICK_MS);
	return n;
}

void net_free(net *n)
{
	if (!n)
		return;
	if (n->ctx)
		lws_context_destroy(n->ctx); /* the second (NOTES-lws step 5) */
	while (n->kill_head) {
		conn *c = n->kill_head;
		n->kill_head = c->kill_next;
		if (!c->wsi)
			free(c);
	}
	for (conn *c = n->conns, *next; c; c = next) {
		next = c->next;
		queue_free(c);
		buf_free(&c->frag);
		free(c);
	}
	for (int i = 0; i < IP_BUCKETS; i++)
		for (struct ip_entry *e = n->ips[i], *next; e; e = next) {
			next = e->next;
			free(e);
		}
	buf_free(&n->scratch);
	http_static_free(n->statics);
	netaddr_list_free(&n->trusted);
	free(n);
}
