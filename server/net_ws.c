/*
 * net_ws.c — WebSocket connections (net_int.h): the handshake, the send
 * queue and its slow-reader rule, closing (our close frame after the queued
 * frames, then the peer's close or a grace period), receiving (ws.h's
 * parser, whole text messages to the app), the rate limit over messages and
 * pings with its strikes, and lws's raw-socket callbacks for a conn.
 */
#include "net_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "../common/log.h"
#include "json_peek.h"
#include "origin.h"

/* ---- the send queue and closing ---------------------------------------- */

void net_conn_queue_free(conn *c)
{
	struct qmsg *m = c->q_head;
	while (m) {
		struct qmsg *next = m->next;
		free(m);
		m = next;
	}
	c->q_head = c->q_tail = NULL;
	c->q_bytes = c->q_off = 0;
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

static bool write_would_block(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
}

/* w bytes of the queue are on the wire: whole frames leave it (our close
 * frame, once whole, is sent), a frame cut short keeps its rest. waited:
 * written in RAW_WRITEABLE, once a full socket had room again. */
static void queue_written(net *n, conn *c, size_t w, bool waited)
{
	n->bytes_out += w;
	c->q_bytes -= w;
	while (w && c->q_head) {
		struct qmsg *m = c->q_head;
		size_t left = m->len - c->q_off;
		if (w < left) {
			c->q_off += w;
			return;
		}
		w -= left;
		c->q_off = 0;
		c->q_head = m->next;
		if (!c->q_head)
			c->q_tail = NULL;
		if (m->is_close) {
			c->close_sent = true;
			c->close_deadline_ms = now_ms() + CLOSE_GRACE_MS;
		}
		n->msgs_out += m->counted;
		n->msgs_queued += m->counted && waited;
		free(m);
	}
}

/* Writes what the socket takes of the queue, up to WRITE_IOV frames a
 * sendmsg(). -1: the socket failed; else what is left waits for the next
 * RAW_WRITEABLE. waited: as queue_written's. */
static int queue_flush(net *n, conn *c, bool waited)
{
	while (c->q_head) {
		struct iovec iov[WRITE_IOV];
		size_t k = 0, want = 0, off = c->q_off;
		for (struct qmsg *m = c->q_head; m && k < WRITE_IOV; m = m->next, off = 0) {
			iov[k++] = (struct iovec){m->data + off, m->len - off};
			want += m->len - off;
		}
		struct msghdr mh = {.msg_iov = iov, .msg_iovlen = k};
		ssize_t w = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0)
			return write_would_block(errno) ? 0 : -1;
		queue_written(n, c, (size_t)w, waited);
		if ((size_t)w < want)
			return 0; /* the socket is full */
	}
	return 0;
}

/* What was gathered for c while its bytes were read goes out. */
static void batch_flush(net *n, conn *c)
{
	if (!c->q_head || !c->wsi || c->lws_closed || c->write_failed)
		return;
	if (queue_flush(n, c, false) < 0)
		c->write_failed = true; /* RAW_WRITEABLE drops the socket */
	if (c->q_head || c->write_failed || (c->close_sent && c->peer_closed))
		want_write(c);
}

/* One frame out. While nothing waits before it, straight to the socket:
 * no queue, so no write interest and none of the epoll_ctl calls that
 * asking lws for RAW_WRITEABLE costs (docs/libwebsockets.md §5). What the
 * socket does not take, and every frame behind a waiting one, is queued
 * and written in RAW_WRITEABLE, in order. Frames to a connection whose
 * bytes are being read (its replies, its own updates) are gathered and
 * written together once the read is handled: one sendmsg(). */
static void send_frame(conn *c, enum ws_opcode op, const void *p, size_t len, bool counted)
{
	net *n = c->n;
	if (n->batch == c) {
		queue_frame(c, op, p, len)->counted = counted; /* written after the read */
		if (c->q_bytes >= WRITE_CHUNK)
			batch_flush(n, c); /* a long burst: the kernel takes its share first */
		return;
	}
	if (c->q_head || !c->wsi || c->lws_closed || c->write_failed || c->kill_sent) {
		queue_frame(c, op, p, len)->counted = counted;
		want_write(c);
		return;
	}
	uint8_t h[WS_HEADER_MAX];
	size_t hl = ws_frame_header(h, op, len);
	struct iovec iov[2] = {{h, hl}, {(void *)p, len}};
	struct msghdr mh = {.msg_iov = iov, .msg_iovlen = len ? 2 : 1};
	ssize_t w = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
	int err = errno;
	if (w == (ssize_t)(hl + len)) {
		n->bytes_out += hl + len;
		n->msgs_out += counted;
		return;
	}
	queue_frame(c, op, p, len)->counted = counted;
	if (w > 0) {
		c->q_off = (size_t)w;
		c->q_bytes -= (size_t)w;
		n->bytes_out += (size_t)w;
	} else if (!write_would_block(err)) {
		c->write_failed = true; /* RAW_WRITEABLE drops the socket */
	}
	want_write(c);
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
void net_conn_kill(conn *c)
{
	if (c->kill_sent || c->lws_closed || !c->wsi)
		return;
	c->kill_sent = true;
	lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
}

/* Drops the frames not yet begun; a frame partly written stays, as the
 * peer must get it whole before the close frame. */
static void queue_drop_unsent(conn *c)
{
	struct qmsg *keep = c->q_off ? c->q_head : NULL;
	if (keep) {
		c->q_head = keep->next;
		keep->next = NULL;
	}
	size_t off = c->q_off;
	net_conn_queue_free(c);
	if (keep) {
		c->q_head = c->q_tail = keep;
		c->q_off = off;
		c->q_bytes = keep->len - off;
	}
}

/* Begins closing c with code/reason: no more messages in or out; the close
 * frame goes after the frames already queued (flush) or instead of them. */
void net_conn_close(conn *c, int code, const char *reason, bool flush)
{
	if (c->closing || c->lws_closed)
		return;
	c->closing = true;
	c->close_code = code;
	c->close_deadline_ms = now_ms() + CLOSE_GRACE_MS;
	if (!flush)
		queue_drop_unsent(c);
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
		net_conn_close(c, NET_CLOSE_POLICY, "send queue overflow (slow reader)", false);
		return -1;
	}
	send_frame(c, WS_OP_TEXT, text, len, true);
	if (c->q_bytes > limit && !c->over_since_ms)
		c->over_since_ms = now_ms();
	return 0;
}

void conn_close(conn *c, int code, const char *reason)
{
	net_conn_close(c, code, reason, true);
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
		net_conn_close(c, NET_CLOSE_POLICY, "message rate limit exceeded", true);
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
			net_conn_close(c, reply, "", false);
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
	if (op == WS_OP_PING)
		send_frame(c, WS_OP_PONG, p, len, false);
	return 0;
}

static const ws_events ws_handlers = {ev_data, ev_message_end, ev_control};

/* Returns -1 to drop the socket. */
int net_conn_rx(net *n, conn *c, uint8_t *in, size_t len)
{
	if (!c)
		return -1;
	c->last_rx_ms = now_ms();
	n->bytes_in += len;
	n->batch = c;
	int rc = ws_parse(&c->parser, in, len, &ws_handlers, c);
	n->batch = NULL;
	batch_flush(n, c);
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
		net_conn_close(c, rc, reason, true);
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

/* The queue goes out as the socket takes it; lws holds no byte of ours
 * (every write is laird's own sendmsg()), so an empty queue is everything
 * written. Returns -1 to drop the socket. */
int net_conn_writeable(net *n, conn *c)
{
	if (!c || c->write_failed || queue_flush(n, c, true) < 0)
		return -1;
	if (c->q_bytes <= n->cfg->max_send_queue)
		c->over_since_ms = 0;
	if (c->q_head)
		lws_callback_on_writable(c->wsi);
	else if (c->close_sent && c->peer_closed)
		return -1; /* the closing handshake is over and every byte out */
	if (c->rx_paused && !c->closing && c->q_bytes < n->cfg->max_send_queue / 4)
		rx_resume(c);
	return 0;
}

/* ---- a WebSocket connection's life ------------------------------------ */

void net_conn_deliver_close(conn *c)
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
void net_conn_adopt(net *n, struct lws *wsi, struct pss *p)
{
	conn *c = lws_get_opaque_user_data(wsi);
	if (!c || c != n->adopting)
		return;
	n->adopt_seen = true;
	p->c = c;
	c->wsi = wsi;
	c->fd = (int)lws_get_socket_fd(wsi);
	c->next = n->conns;
	if (n->conns)
		n->conns->prev = c;
	n->conns = c;
	n->n_conns++;
	const laird_config *cfg = n->cfg;
	struct ip_entry *e = net_ip_get(n, c->peer, false);
	if (n->draining) {
		n->refused[REFUSED_DRAINING]++;
		net_conn_close(c, NET_CLOSE_GOING_AWAY, SHUTDOWN_REASON, true);
	} else if (n->n_accepted >= (size_t)cfg->max_connections) {
		n->refused[REFUSED_FULL]++;
		uint64_t now = now_ms();
		if (now - n->last_full_log_ms >= 1000) { /* one line a second, not a flood */
			n->last_full_log_ms = now;
			log_warn("net", "refusing %s: %d connections (max_connections); %llu "
				 "refused so far", c->peer, cfg->max_connections,
				 (unsigned long long)n->refused[REFUSED_FULL]);
		}
		net_conn_close(c, NET_CLOSE_TRY_LATER, "server full, try again later", true);
	} else if (cfg->max_conns_per_ip > 0 && e && e->count >= cfg->max_conns_per_ip) {
		n->refused[REFUSED_PER_IP]++;
		net_conn_close(c, NET_CLOSE_TRY_LATER, "too many connections from your address", true);
	} else {
		c->ip = net_ip_get(n, c->peer, true);
		c->ip->count++;
		n->n_accepted++;
		n->accepted++;
		c->opened = true;
		if (n->cb.on_open)
			n->cb.on_open(n->cb.ud, c);
	}
	want_write(c);
}

void net_conn_destroy(net *n, struct pss *p)
{
	conn *c = p->c;
	if (!c)
		return;
	p->c = NULL;
	net_conn_deliver_close(c);
	if (c->prev)
		c->prev->next = c->next;
	else if (n->conns == c)
		n->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	n->n_conns--;
	if (c->ip) {
		n->n_accepted--;
		net_ip_release(n, c->ip);
	}
	net_conn_queue_free(c);
	buf_free(&c->msg);
	free(c);
}

/* ---- the handshake ----------------------------------------------------- */

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
void net_ws_start(struct pending *pd, const http_head *h, char *head_bytes)
{
	net *n = pd->n;
	char accept[29];
	if (h->minor != 1 || !http_list_has(h->connection, "upgrade") || !h->host.n) {
		n->refused[REFUSED_HANDSHAKE]++;
		net_pending_reply(pd, "400 Bad Request", NULL);
		return;
	}
	if (!http_str_is(h->ws_version, "13")) {
		n->refused[REFUSED_HANDSHAKE]++;
		net_pending_reply(pd, "426 Upgrade Required", "Sec-WebSocket-Version: 13\r\n");
		return;
	}
	if (h->n_ws_key != 1 || !ws_accept_key(h->ws_key.p, h->ws_key.n, accept)) {
		n->refused[REFUSED_HANDSHAKE]++;
		net_pending_reply(pd, "400 Bad Request", NULL);
		return;
	}
	if (!origin_ok(n, h)) {
		/* Another site must not drive a visitor's socket (origin.h). */
		n->refused[REFUSED_ORIGIN]++;
		log_info("net", "refusing a WebSocket from origin \"%.*s\" (host \"%.*s\"): "
			 "not in allowed_origins", (int)MIN(h->origin.n, 80), h->origin.p,
			 (int)MIN(h->host.n, 80), h->host.p);
		net_pending_reply(pd, "403 Forbidden", NULL);
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
	net_pending_end(pd, got == (ssize_t)head);
	if (got != (ssize_t)head) {
		net_conn_queue_free(c);
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
		net_conn_queue_free(c);
		free(c);
	}
}
