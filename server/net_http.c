/*
 * net_http.c — before lws (net_int.h): a new connection waits, peeked at,
 * until its request head is whole; then it is a WebSocket (net_ws.c), plain
 * HTTP for lws, or refused with a short answer. Then plain HTTP itself:
 * /healthz, /metrics (their exact path only, as the pre-stage read it) and
 * the web client's files (http_static.h).
 */
#include "net_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/log.h"

/* ---- the pre-stage: a new connection's request head --------------------- */

static void pending_closed(uv_handle_t *h) { free(h->data); }

/* Ends the pre-stage; the descriptor is closed unless keep_fd. */
void net_pending_end(struct pending *pd, bool keep_fd)
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
 * hundred bytes always fit), then the close. Its body is the status line,
 * and why when given. */
static void pending_reply_why(struct pending *pd, const char *status, const char *extra,
			      const char *why)
{
	char body[256], out[768];
	snprintf(body, sizeof body, "%s%s%s\n", status, why ? ": " : "", why ? why : "");
	int len = snprintf(out, sizeof out,
			   "HTTP/1.1 %s\r\n%sContent-Type: text/plain; charset=utf-8\r\n"
			   "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
			   status, extra ? extra : "", strlen(body), body);
	if (send(pd->fd, out, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		log_debug("net", "reply to %s: %s", status, strerror(errno));
	net_pending_end(pd, false);
}

void net_pending_reply(struct pending *pd, const char *status, const char *extra)
{
	pending_reply_why(pd, status, extra, NULL);
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
	net_pending_end(pd, true);
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
		net_pending_end(pd, false);
		return;
	}
	char head[HEAD_MAX];
	ssize_t r = recv(pd->fd, head, sizeof head, MSG_PEEK);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (r <= 0) {
		net_pending_end(pd, false); /* gone before it said anything */
		return;
	}
	http_head h;
	switch (http_head_parse(head, (size_t)r, &h)) {
	case HTTP_HEAD_INCOMPLETE:
		if (r == (ssize_t)sizeof head) {
			net_pending_reply(pd, "431 Request Header Fields Too Large", NULL);
			return;
		}
		/* Wake again only when more has come: the peeked bytes stay
		 * readable, so a plain poll would spin. */
		pd->lowat = (int)r + 1;
		setsockopt(pd->fd, SOL_SOCKET, SO_RCVLOWAT, &pd->lowat, sizeof pd->lowat);
		return;
	case HTTP_HEAD_BAD:
		pending_reply_why(pd, "400 Bad Request", NULL, h.bad);
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
		net_pending_reply(pd, "405 Method Not Allowed", "Allow: GET\r\n");
	} else if (!h.upgrade.n) {
		http_start(pd, &h);
	} else if (!pd->metrics_port && http_list_has(h.upgrade, "websocket")) {
		net_ws_start(pd, &h, head);
	} else {
		/* h2c and any other protocol: never switched to. */
		n->http_requests++;
		net_pending_reply(pd, "400 Bad Request", NULL);
	}
}

void net_accept(void *ud, listener *l, int fd, const netaddr *peer)
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
int net_http_request(net *n, struct lws *wsi, struct pss *p, const char *uri, size_t len)
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
		net_metrics_text(n, &body);
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

int net_http_writeable(struct lws *wsi, struct pss *p)
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
