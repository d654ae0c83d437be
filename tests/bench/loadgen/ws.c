/*
 * ws.c — see ws.h. The frame layout is RFC 6455 §5.2; the upgrade §4.1.
 * SHA-1 and base64 for the upgrade key come from libwebsockets (linked by
 * every program of the project): the client itself is ours.
 */
#include <uv.h>

#include <libwebsockets.h>

#include "ws.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../../common/rng.h"
#include "../../../common/util.h"

#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11" /* RFC 6455 §1.3 */
#define UPGRADE_MAX 8192          /* the server's 101 reply, headers included */
#define MESSAGE_MAX (64u << 20)   /* a server message larger than this is an error */
#define STACK_FRAME 4096          /* frames this small are built on the stack */

enum { OP_CONT = 0, OP_TEXT = 1, OP_BINARY = 2, OP_CLOSE = 8, OP_PING = 9, OP_PONG = 10 };

/* One read buffer for every connection: read callbacks run one at a time. */
static char read_buf[64 * 1024];
static rng mask_rng;
static bool mask_rng_ready;

static rng *masks(void)
{
	if (!mask_rng_ready) {
		uint64_t seed = 0;
		if (rng_os_seed(&seed) != 0)
			seed = now_ns();
		rng_seed(&mask_rng, seed, 0x7773);
		mask_rng_ready = true;
	}
	return &mask_rng;
}

void lg_ws_accept_of(const char *key, char out[29])
{
	char in[64 + sizeof WS_GUID];
	unsigned char sha[20];
	char b64[40]; /* lws wants room beyond the 28 characters and the NUL */
	int n = snprintf(in, sizeof in, "%s%s", key, WS_GUID);
	lws_SHA1((const unsigned char *)in, (size_t)n, sha);
	if (lws_b64_encode_string((const char *)sha, 20, b64, sizeof b64) != 28)
		b64[0] = 0;
	strlcpy_safe(out, b64, 29);
}

size_t lg_ws_frame(uint8_t *out, int op, bool fin, uint32_t mask, const void *payload,
		   size_t len)
{
	size_t h = 0;
	out[h++] = (uint8_t)((fin ? 0x80 : 0) | op);
	if (len < 126) {
		out[h++] = (uint8_t)(0x80 | len);
	} else if (len < 65536) {
		out[h++] = 0x80 | 126;
		out[h++] = (uint8_t)(len >> 8);
		out[h++] = (uint8_t)len;
	} else {
		out[h++] = 0x80 | 127;
		for (int i = 7; i >= 0; i--)
			out[h++] = (uint8_t)((uint64_t)len >> (8 * i));
	}
	uint8_t k[4] = {(uint8_t)(mask >> 24), (uint8_t)(mask >> 16), (uint8_t)(mask >> 8),
			(uint8_t)mask};
	memcpy(out + h, k, 4);
	h += 4;
	const uint8_t *p = payload;
	for (size_t i = 0; i < len; i++)
		out[h + i] = p[i] ^ k[i & 3];
	return h + len;
}

long lg_ws_parse(const uint8_t *p, size_t n, lg_ws_frame_info *f)
{
	if (n < 2)
		return 0;
	uint8_t b0 = p[0], b1 = p[1];
	if ((b0 & 0x70) || (b1 & 0x80)) /* reserved bits (no extension), a masked frame */
		return -1;
	int op = b0 & 0x0f;
	bool fin = b0 & 0x80;
	uint64_t len = b1 & 0x7f;
	size_t h = 2;
	if (len == 126) {
		if (n < 4)
			return 0;
		len = (uint64_t)p[2] << 8 | p[3];
		h = 4;
	} else if (len == 127) {
		if (n < 10)
			return 0;
		len = 0;
		for (int i = 0; i < 8; i++)
			len = len << 8 | p[2 + i];
		if (len > (1u << 31))
			return -1;
		h = 10;
	}
	if (op >= OP_CLOSE) {
		if (op > OP_PONG || !fin || len > 125)
			return -1;
	} else if (op > OP_BINARY) {
		return -1;
	}
	if (n - h < len)
		return 0;
	f->op = op;
	f->fin = fin;
	f->payload = p + h;
	f->len = (size_t)len;
	return (long)(h + len);
}

/* ---- writing ----------------------------------------------------------- */

typedef struct write_req {
	uv_write_t req;
	size_t len;
	uint8_t data[];
} write_req;

static void on_written(uv_write_t *req, int status)
{
	(void)status; /* a failed write shows as a read error or EOF */
	free(req);
}

/* Writes bytes in order: straight to the socket when nothing is queued,
 * else (or for what the socket did not take) through a queued request. */
static int write_bytes(lg_ws *ws, const uint8_t *data, size_t len)
{
	if (ws->state == LG_WS_CLOSED || ws->state == LG_WS_IDLE)
		return -1;
	uv_buf_t b = uv_buf_init((char *)data, (unsigned)len);
	int n = uv_try_write((uv_stream_t *)&ws->tcp, &b, 1);
	if (n == (int)len)
		return 0;
	if (n < 0 && n != UV_EAGAIN) {
		lg_ws_abort(ws, "write failed");
		return -1;
	}
	size_t done = n > 0 ? (size_t)n : 0;
	write_req *w = xmalloc(sizeof *w + len - done);
	w->len = len - done;
	memcpy(w->data, data + done, w->len);
	b = uv_buf_init((char *)w->data, (unsigned)w->len);
	if (uv_write(&w->req, (uv_stream_t *)&ws->tcp, &b, 1, on_written) != 0) {
		free(w);
		lg_ws_abort(ws, "write failed");
		return -1;
	}
	return 0;
}

static int send_frame(lg_ws *ws, int op, bool fin, const void *payload, size_t len)
{
	uint8_t stack[STACK_FRAME + 14];
	uint8_t *f = len <= STACK_FRAME ? stack : xmalloc(len + 14);
	size_t n = lg_ws_frame(f, op, fin, rng_u32(masks()), payload, len);
	int rc = write_bytes(ws, f, n);
	if (f != stack)
		free(f);
	if (rc == 0)
		ws->tx_bytes += n;
	return rc;
}

int lg_ws_send(lg_ws *ws, const char *text, size_t len)
{
	if (ws->state != LG_WS_OPEN)
		return -1;
	ws->tx_msgs++;
	return send_frame(ws, OP_TEXT, true, text, len);
}

int lg_ws_send_fragmented(lg_ws *ws, const char *text, size_t len, int parts)
{
	if (ws->state != LG_WS_OPEN || parts < 1)
		return -1;
	ws->tx_msgs++;
	size_t step = (len + (size_t)parts - 1) / (size_t)parts, off = 0;
	for (int i = 0; i < parts; i++) {
		size_t n = MIN(step, len - off);
		bool last = i == parts - 1;
		if (send_frame(ws, i == 0 ? OP_TEXT : OP_CONT, last, text + off, last ? len - off : n))
			return -1;
		off += n;
	}
	return 0;
}

int lg_ws_ping(lg_ws *ws, const char *data, size_t len)
{
	if (ws->state != LG_WS_OPEN || len > 125)
		return -1;
	return send_frame(ws, OP_PING, true, data, len);
}

int lg_ws_close(lg_ws *ws, int code, const char *reason)
{
	if (ws->state != LG_WS_OPEN)
		return -1;
	uint8_t p[125];
	size_t rl = reason ? MIN(strlen(reason), sizeof p - 2) : 0;
	p[0] = (uint8_t)(code >> 8);
	p[1] = (uint8_t)code;
	memcpy(p + 2, reason, rl);
	int rc = send_frame(ws, OP_CLOSE, true, p, rl + 2);
	if (ws->state == LG_WS_OPEN)
		ws->state = LG_WS_CLOSING;
	return rc;
}

/* ---- closing ----------------------------------------------------------- */

static void on_handle_closed(uv_handle_t *h)
{
	lg_ws *ws = h->data;
	free(ws->carry);
	free(ws->msg);
	ws->carry = ws->msg = NULL;
	ws->carry_len = ws->carry_cap = ws->msg_len = ws->msg_cap = 0;
	if (ws->h->closed)
		ws->h->closed(ws, ws->close_code ? ws->close_code : 1006, ws->why);
}

void lg_ws_abort(lg_ws *ws, const char *why)
{
	if (ws->state == LG_WS_CLOSED || ws->state == LG_WS_IDLE ||
	    uv_is_closing((uv_handle_t *)&ws->tcp))
		return;
	ws->state = LG_WS_CLOSED;
	ws->why = why ? why : "closed";
	uv_close((uv_handle_t *)&ws->tcp, on_handle_closed);
}

/* ---- reading ----------------------------------------------------------- */

static void append(char **data, uint32_t *len, uint32_t *cap, const void *p, size_t n)
{
	if (*len + n > *cap) {
		uint32_t c = *cap ? *cap : 256;
		while (c < *len + n)
			c *= 2;
		*data = xrealloc(*data, c);
		*cap = c;
	}
	memcpy(*data + *len, p, n);
	*len += (uint32_t)n;
}

/* Handles one frame; false when the connection is going away. */
static bool on_frame(lg_ws *ws, const lg_ws_frame_info *f, uint64_t stamp)
{
	switch (f->op) {
	case OP_TEXT:
	case OP_CONT:
		if ((f->op == OP_TEXT) == (bool)ws->msg_open) {
			lg_ws_close(ws, 1002, "bad fragment sequence");
			lg_ws_abort(ws, "bad fragment sequence");
			return false;
		}
		ws->rx_frames++;
		if (f->fin && !ws->msg_open) {
			ws->rx_msgs++;
			ws->rx_payload += f->len;
			ws->h->message(ws, (const char *)f->payload, f->len, stamp);
			return ws->state == LG_WS_OPEN || ws->state == LG_WS_CLOSING;
		}
		if (ws->msg_len + f->len > MESSAGE_MAX) {
			lg_ws_abort(ws, "message too large");
			return false;
		}
		append(&ws->msg, &ws->msg_len, &ws->msg_cap, f->payload, f->len);
		ws->msg_open = !f->fin;
		if (f->fin) {
			ws->rx_msgs++;
			ws->rx_payload += ws->msg_len;
			ws->h->message(ws, ws->msg, ws->msg_len, stamp);
			if (ws->state == LG_WS_CLOSED)
				return false;
			/* Fragmented messages are rare: give the memory back. */
			free(ws->msg);
			ws->msg = NULL;
			ws->msg_len = ws->msg_cap = 0;
		}
		return ws->state == LG_WS_OPEN || ws->state == LG_WS_CLOSING;
	case OP_BINARY:
		lg_ws_close(ws, 1003, "binary frame");
		lg_ws_abort(ws, "binary frame");
		return false;
	case OP_PING:
		send_frame(ws, OP_PONG, true, f->payload, f->len);
		return ws->state != LG_WS_CLOSED;
	case OP_PONG:
		if (ws->h->pong)
			ws->h->pong(ws, (const char *)f->payload, f->len);
		return ws->state != LG_WS_CLOSED;
	case OP_CLOSE:
		ws->close_code = f->len >= 2 ? (uint16_t)(f->payload[0] << 8 | f->payload[1]) : 1005;
		if (ws->state == LG_WS_OPEN) { /* echo it; the server then closes the TCP */
			uint8_t p[2] = {(uint8_t)(ws->close_code >> 8), (uint8_t)ws->close_code};
			send_frame(ws, OP_CLOSE, true, p, f->len >= 2 ? 2 : 0);
			if (ws->state == LG_WS_OPEN)
				ws->state = LG_WS_CLOSING;
		}
		return ws->state != LG_WS_CLOSED;
	default:
		return false;
	}
}

/* Parses the frames in p[0..n); returns the bytes consumed (an incomplete
 * frame is left), or -1 when the connection is going away. */
static long frames(lg_ws *ws, const uint8_t *p, size_t n, uint64_t stamp)
{
	size_t off = 0;
	for (;;) {
		lg_ws_frame_info f;
		long r = lg_ws_parse(p + off, n - off, &f);
		if (r == 0)
			return (long)off;
		if (r < 0) {
			lg_ws_close(ws, 1002, "protocol error");
			lg_ws_abort(ws, "protocol error from server");
			return -1;
		}
		if (!on_frame(ws, &f, stamp))
			return -1;
		off += (size_t)r;
	}
}

/* The server's reply to the upgrade in ws->carry: -1 bad, 0 incomplete,
 * else the length of its headers. */
static long upgrade_reply(lg_ws *ws)
{
	char *c = ws->carry;
	char *end = memmem(c, ws->carry_len, "\r\n\r\n", 4);
	if (!end)
		return ws->carry_len > UPGRADE_MAX ? -1 : 0;
	*end = 0;
	if (strncmp(c, "HTTP/1.1 101", 12) != 0)
		return -1;
	bool ok = false;
	for (char *line = strstr(c, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n")) {
		char *v = line + 2;
		if (strncasecmp(v, "Sec-WebSocket-Accept:", 21) == 0) {
			v += 21;
			while (*v == ' ')
				v++;
			ok = strncmp(v, ws->accept, 28) == 0 && (v[28] == '\r' || v[28] == 0);
		}
	}
	return ok ? (long)(end - c + 4) : -1;
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
	(void)h, (void)suggested;
	*b = uv_buf_init(read_buf, sizeof read_buf);
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *b)
{
	lg_ws *ws = s->data;
	if (nread == 0)
		return;
	if (nread < 0) {
		lg_ws_abort(ws, nread == UV_EOF ? (ws->close_code ? "closed by server"
								 : "closed without a close frame")
						: uv_strerror((int)nread));
		return;
	}
	uint64_t stamp = now_ns();
	ws->rx_bytes += (uint64_t)nread;
	if (ws->state == LG_WS_UPGRADING) {
		append(&ws->carry, &ws->carry_len, &ws->carry_cap, b->base, (size_t)nread);
		long h = upgrade_reply(ws);
		if (h < 0) {
			lg_ws_abort(ws, "upgrade refused");
			return;
		}
		if (h == 0)
			return;
		ws->carry_len -= (uint32_t)h;
		memmove(ws->carry, ws->carry + h, ws->carry_len);
		ws->state = LG_WS_OPEN;
		ws->h->open(ws);
		if (ws->state != LG_WS_OPEN)
			return;
		if (!ws->carry_len) {
			free(ws->carry);
			ws->carry = NULL;
			ws->carry_cap = 0;
			return;
		}
		nread = 0; /* the rest of the reply is in carry: parse it below */
	}
	if (ws->state != LG_WS_OPEN && ws->state != LG_WS_CLOSING)
		return;
	if (!ws->carry_len) {
		long used = frames(ws, (const uint8_t *)b->base, (size_t)nread, stamp);
		if (used >= 0 && used < nread)
			append(&ws->carry, &ws->carry_len, &ws->carry_cap, b->base + used,
			       (size_t)(nread - used));
		return;
	}
	if (nread > 0)
		append(&ws->carry, &ws->carry_len, &ws->carry_cap, b->base, (size_t)nread);
	long used = frames(ws, (const uint8_t *)ws->carry, ws->carry_len, stamp);
	if (used < 0)
		return;
	ws->carry_len -= (uint32_t)used;
	if (ws->carry_len) {
		memmove(ws->carry, ws->carry + used, ws->carry_len);
	} else {
		free(ws->carry);
		ws->carry = NULL;
		ws->carry_cap = 0;
	}
}

/* ---- connecting -------------------------------------------------------- */

typedef struct connect_req {
	uv_connect_t req;
	char request[]; /* the upgrade request to send */
} connect_req;

static void on_connect(uv_connect_t *req, int status)
{
	connect_req *c = (connect_req *)req;
	lg_ws *ws = req->handle->data;
	if (status != 0 || ws->state != LG_WS_CONNECTING) {
		if (status != UV_ECANCELED)
			lg_ws_abort(ws, status ? uv_strerror(status) : "aborted");
		free(c);
		return;
	}
	ws->state = LG_WS_UPGRADING;
	write_bytes(ws, (const uint8_t *)c->request, strlen(c->request));
	free(c);
	if (ws->state == LG_WS_UPGRADING &&
	    uv_read_start((uv_stream_t *)&ws->tcp, on_alloc, on_read) != 0)
		lg_ws_abort(ws, "read_start failed");
}

int lg_ws_connect(lg_ws *ws, uv_loop_t *loop, const struct sockaddr_in *src,
		  const struct sockaddr_in *dst, const char *host, const char *path,
		  const lg_ws_handlers *h, void *data)
{
	memset(ws, 0, sizeof *ws);
	ws->h = h;
	ws->data = data;
	int rc = uv_tcp_init_ex(loop, &ws->tcp, AF_INET);
	if (rc != 0)
		return rc;
	ws->tcp.data = ws;
	ws->state = LG_WS_CONNECTING;

	unsigned char raw[16];
	for (int i = 0; i < 4; i++) {
		uint32_t r = rng_u32(masks());
		memcpy(raw + 4 * i, &r, 4);
	}
	char key[40];
	lws_b64_encode_string((const char *)raw, 16, key, sizeof key);
	lg_ws_accept_of(key, ws->accept);

	size_t cap = strlen(host) + strlen(path) + strlen(key) + 160;
	connect_req *c = xmalloc(sizeof *c + cap);
	snprintf(c->request, cap,
		 "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
		 "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n",
		 path, host, key);
	uv_tcp_nodelay(&ws->tcp, 1);
	if (src) {
		/* Ports are then picked at connect() for the whole 4-tuple, so
		 * each source address has the full ephemeral range. */
		uv_os_fd_t fd;
		int one = 1;
		if (uv_fileno((uv_handle_t *)&ws->tcp, &fd) == 0)
			setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
		struct sockaddr_in a = *src;
		a.sin_port = 0;
		rc = uv_tcp_bind(&ws->tcp, (const struct sockaddr *)&a, 0);
	}
	if (rc == 0)
		rc = uv_tcp_connect(&c->req, &ws->tcp, (const struct sockaddr *)dst, on_connect);
	if (rc != 0) {
		free(c);
		lg_ws_abort(ws, uv_strerror(rc));
	}
	return 0;
}
