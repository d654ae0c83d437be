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
 * messages in; frames out straight to the socket, or through the send
 * queue (written in RAW_WRITEABLE) when the socket is full → a close: ours (a close frame after the queued frames, then the peer's
 * close or a grace period) or the peer's (answered) → RAW_CLOSE (on_close)
 * → WSI_DESTROY (counted down, freed).
 *
 * Closes never need lws's WebSocket close path (which drops the close frame
 * when asked from a WRITEABLE callback in 4.1.6): the close frame is just
 * bytes on the raw socket, and the TCP close is a -1 returned from a raw
 * callback, or lws_set_timeout(LWS_TO_KILL_SYNC) from a uv timer.
 *
 * Three files (net_int.h): this one holds the lws context and vhost, the
 * listeners, lws's one callback, the per-address counts, the timers
 * (timeouts, slow readers, loop lag), the shutdown and the metrics;
 * net_http.c the pre-stage and plain HTTP; net_ws.c the WebSocket
 * connections.
 */
#include "net_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "metrics.h"
#include "origin.h"

static const char *const err_names[ERR_COUNT] = {
	"rate_limited", "rate_abuse", "frame_too_big", "binary_frame", "protocol_error",
	"bad_utf8", "slow_reader", "idle_timeout",
};
static const char *const refusal_names[REFUSED_COUNT] = {"full", "per_ip", "draining",
							 "origin", "handshake"};

/* ---- per-IP counts ---------------------------------------------------- */

static unsigned ip_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % IP_BUCKETS;
}

struct ip_entry *net_ip_get(net *n, const char *ip, bool create)
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

void net_ip_release(net *n, struct ip_entry *e)
{
	if (--e->count > 0)
		return;
	struct ip_entry **pp = &n->ips[ip_hash(e->ip)];
	while (*pp != e)
		pp = &(*pp)->next;
	*pp = e->next;
	free(e);
}

size_t net_connections(const net *n) { return n->n_conns; }
int net_port(const net *n) { return n->port; }
const char *net_address(const net *n) { return n->pub ? listener_name(n->pub) : ""; }
const char *net_metrics_address(const net *n) { return n->mon ? listener_name(n->mon) : NULL; }
void net_set_draining(net *n) { n->draining = true; }
uint64_t net_rate_limited(const net *n) { return n->errors[ERR_RATE_LIMITED]; }
uint64_t net_messages_queued(const net *n) { return n->msgs_queued; }

/* ---- /metrics ---------------------------------------------------------- */

void net_metrics_text(net *n, buf *b)
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
	metrics_counter(b, "lair_messages_queued_total",
			"Messages that waited for a full socket to take them (written once "
			"it had room again); the rest went straight to the socket.",
			(double)n->msgs_queued);
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

/* ---- lws's callback ---------------------------------------------------- */

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
			net_conn_adopt(n, wsi, p);
		return 0;
	case LWS_CALLBACK_RAW_RX:
		return p ? net_conn_rx(n, p->c, in, len) : -1;
	case LWS_CALLBACK_RAW_WRITEABLE:
		return p ? net_conn_writeable(n, p->c) : -1;
	case LWS_CALLBACK_RAW_CLOSE:
		if (p && p->c) {
			p->c->lws_closed = true;
			net_conn_deliver_close(p->c);
			net_conn_queue_free(p->c);
		}
		return 0;
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		/* Upgrades are laird's own, on a connection's first request
		 * (the pre-stage): lws's are refused, h2c above all. */
		return -1;
	case LWS_CALLBACK_HTTP:
		return p ? net_http_request(n, wsi, p, in ? (const char *)in : "", in ? len : 0) : -1;
	case LWS_CALLBACK_HTTP_WRITEABLE:
		if (p && p->sr)
			return http_static_writeable(wsi, &p->sr);
		return p ? net_http_writeable(wsi, p) : -1;
	case LWS_CALLBACK_WSI_DESTROY:
		if (p) {
			net_conn_destroy(n, p);
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
				net_conn_kill(c);
		} else if (c->over_since_ms && now - c->over_since_ms >= SLOW_READER_MS) {
			n->errors[ERR_SLOW_READER]++;
			log_info("net", "conn %llu (%s): send queue over %zu bytes for %d ms, "
				 "closing", (unsigned long long)c->id, c->peer,
				 n->cfg->max_send_queue, SLOW_READER_MS);
			net_conn_close(c, NET_CLOSE_POLICY, "send queue overflow (slow reader)", false);
		} else if (idle > 0 && now - c->last_rx_ms >= (uint64_t)idle * 1000) {
			n->errors[ERR_IDLE_TIMEOUT]++;
			net_conn_close(c, NET_CLOSE_NORMAL, "idle timeout", true);
		}
	}
	for (struct pending *pd = n->pending, *next; pd; pd = next) {
		next = pd->next;
		if (now >= pd->deadline_ms)
			net_pending_end(pd, false);
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
		net_conn_deliver_close(c);
	while (n->pending)
		net_pending_end(n->pending, false);
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
		net_conn_close(c, NET_CLOSE_GOING_AWAY, SHUTDOWN_REASON, true);
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
		n->pub = listener_new(loop, cfg->bind, cfg->port, net_accept, n, err, errlen);
	else
		snprintf(err, errlen, "cannot create the libwebsockets vhost");
	if (n->pub && cfg->metrics_bind[0]) {
		char addr[NETADDR_TEXT];
		netaddr_format(&maddr, addr, sizeof addr);
		n->mon = listener_new(loop, addr, mport, net_accept, n, lerr, sizeof lerr);
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
		net_conn_queue_free(c);
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
