/*
 * test_net.c — net.h's contract as the app sees it, on a real loop with a
 * real lws context, driven by a minimal hand-written WebSocket client on a
 * plain socket (RFC 6455 framing, no library): on_open/on_message/on_close
 * once each, NUL-terminated text, conn_send order, conn_close from inside
 * on_message after a reply (reply first, then the close frame with our
 * code), the slow-reader limit of conn_send, a busy port, and the shutdown
 * (1001 to everyone, done once, loop closes cleanly: no handle left).
 */
#include <uv.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../common/log.h"
#include "../../common/util.h"
#include "../../server/config.h"
#include "../../server/net.h"
#include "../test.h"

enum mode { M_ECHO, M_REPLY_CLOSE, M_FLOOD };

struct h {
	uv_loop_t loop;
	laird_config cfg;
	net *n;
	enum mode mode;
	int opens, closes, msgs, done_calls;
	int flood_n;          /* M_FLOOD: frames of 1000 bytes sent at once */
	int flood_refused_at; /* index of the first conn_send that said -1 */
	conn *last;
	char last_text[256];
	bool last_nul;
};

static void h_open(void *ud, conn *c)
{
	struct h *h = ud;
	h->opens++;
	h->last = c;
	CHECK(conn_user(c) == NULL);
	conn_set_user(c, h);
}

static void h_message(void *ud, conn *c, const char *text, size_t len)
{
	struct h *h = ud;
	h->msgs++;
	CHECK(conn_user(c) == h);
	h->last_nul = text[len] == 0;
	strlcpy_safe(h->last_text, text, sizeof h->last_text);
	if (h->mode == M_ECHO) {
		CHECK_EQ(conn_send(c, text, len), 0);
	} else if (h->mode == M_REPLY_CLOSE) {
		CHECK_EQ(conn_send(c, "reply", 5), 0);
		conn_close(c, 4000, "bye now");
		CHECK_EQ(conn_send(c, "late", 4), -1); /* closing: refused */
		conn_close(c, 4001, "second"); /* the first code stays */
	} else {
		static char big[1000];
		memset(big, 'b', sizeof big);
		for (int i = 0; i < h->flood_n; i++)
			if (conn_send(c, big, sizeof big) < 0) {
				h->flood_refused_at = i;
				break;
			}
	}
}

static void h_close(void *ud, conn *c)
{
	struct h *h = ud;
	h->closes++;
	CHECK_EQ(conn_send(c, "x", 1), -1);
}

static void h_done(void *ud)
{
	struct h *h = ud;
	h->done_calls++;
}

static void pump(struct h *h, int fd, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	do {
		uv_run(&h->loop, UV_RUN_NOWAIT);
		struct pollfd p = {.fd = fd, .events = POLLIN};
		poll(&p, fd >= 0 ? 1 : 0, 1);
	} while (now_ms() < end);
}

static int h_setup(struct h *h, enum mode mode)
{
	memset(h, 0, sizeof *h);
	h->mode = mode;
	h->flood_refused_at = -1;
	config_defaults(&h->cfg);
	h->cfg.port = 0;
	h->cfg.max_send_queue = 4096;
	if (uv_loop_init(&h->loop) != 0)
		return -1;
	net_callbacks cb = {.ud = h, .on_open = h_open, .on_message = h_message,
			    .on_close = h_close};
	char err[256];
	h->n = net_new(&h->loop, &h->cfg, &cb, err, sizeof err);
	CHECK_MSG(h->n != NULL, "net_new: %s", err);
	return h->n ? 0 : -1;
}

/* The documented shutdown: net_shutdown, loop runs dry, net_free. */
static void h_teardown(struct h *h)
{
	net_shutdown(h->n, h_done, h);
	uint64_t end = now_ms() + 5000;
	while (uv_loop_alive(&h->loop) && now_ms() < end)
		uv_run(&h->loop, UV_RUN_ONCE);
	CHECK_EQ(h->done_calls, 1);
	CHECK(!uv_loop_alive(&h->loop));
	net_free(h->n);
	CHECK_EQ(uv_loop_close(&h->loop), 0);
}

/* ---- a minimal WebSocket client --------------------------------------- */

struct cli {
	int fd;
	char in[1 << 16];
	size_t in_len;
};

static int cli_fill(struct h *h, struct cli *c, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	while (now_ms() < end) {
		ssize_t r = recv(c->fd, c->in + c->in_len, sizeof c->in - c->in_len, MSG_DONTWAIT);
		if (r > 0) {
			c->in_len += (size_t)r;
			return 0;
		}
		if (r == 0)
			return -1; /* EOF */
		pump(h, c->fd, 1);
	}
	return -1;
}

static int cli_connect_rcvbuf(struct h *h, struct cli *c, int rcvbuf)
{
	memset(c, 0, sizeof *c);
	c->fd = socket(AF_INET, SOCK_STREAM, 0);
	if (rcvbuf > 0)
		setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)net_port(h->n))};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(c->fd, (struct sockaddr *)&a, sizeof a) != 0)
		return -1;
	const char *req = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
			  "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
			  "Sec-WebSocket-Version: 13\r\n\r\n";
	if (send(c->fd, req, strlen(req), 0) != (ssize_t)strlen(req))
		return -1;
	char *eoh;
	while (!(c->in[c->in_len] = 0, eoh = strstr(c->in, "\r\n\r\n")))
		if (cli_fill(h, c, 3000) < 0)
			return -1;
	if (strncmp(c->in, "HTTP/1.1 101", 12) != 0)
		return -1;
	size_t hl = (size_t)(eoh + 4 - c->in);
	memmove(c->in, c->in + hl, c->in_len - hl);
	c->in_len -= hl;
	return 0;
}

static int cli_connect(struct h *h, struct cli *c)
{
	return cli_connect_rcvbuf(h, c, 0);
}

static void cli_send(struct cli *c, int opcode, const char *p, size_t len)
{
	unsigned char f[16 + 1024];
	size_t k = 0;
	f[k++] = (unsigned char)(0x80 | opcode);
	if (len < 126) {
		f[k++] = (unsigned char)(0x80 | len);
	} else {
		f[k++] = 0x80 | 126;
		f[k++] = (unsigned char)(len >> 8);
		f[k++] = (unsigned char)len;
	}
	static const unsigned char mask[4] = {0x11, 0x22, 0x33, 0x44};
	memcpy(f + k, mask, 4);
	k += 4;
	for (size_t i = 0; i < len && k < sizeof f; i++)
		f[k++] = (unsigned char)p[i] ^ mask[i % 4];
	CHECK_EQ(send(c->fd, f, k, 0), (long long)k);
}

/* A whole frame already received (short payloads only): its opcode, or 0. */
static int cli_take(struct cli *c, char *out, size_t outlen)
{
	const unsigned char *b = (const unsigned char *)c->in;
	if (c->in_len < 2 || (b[1] & 0x7f) >= 126 || c->in_len < 2 + (size_t)(b[1] & 0x7f))
		return 0;
	size_t plen = b[1] & 0x7f, n = MIN(plen, outlen - 1);
	memcpy(out, c->in + 2, n);
	out[n] = 0;
	memmove(c->in, c->in + 2 + plen, c->in_len - 2 - plen);
	c->in_len -= 2 + plen;
	return b[0] & 0x0f;
}

/* Reads one server frame: returns its opcode (-1 on timeout/EOF). */
static int cli_frame(struct h *h, struct cli *c, char *out, size_t outlen, size_t *len)
{
	for (;;) {
		if (c->in_len >= 2) {
			const unsigned char *b = (const unsigned char *)c->in;
			size_t plen = b[1] & 0x7f, hl = 2;
			if (plen == 126) {
				if (c->in_len < 4)
					goto more;
				plen = (size_t)b[2] << 8 | b[3];
				hl = 4;
			} else if (plen == 127) {
				return -1; /* not needed by these tests */
			}
			if (c->in_len >= hl + plen) {
				int op = b[0] & 0x0f;
				size_t n = MIN(plen, outlen - 1);
				memcpy(out, c->in + hl, n);
				out[n] = 0;
				*len = plen;
				memmove(c->in, c->in + hl + plen, c->in_len - hl - plen);
				c->in_len -= hl + plen;
				return op;
			}
		}
	more:
		if (cli_fill(h, c, 3000) < 0)
			return -1;
	}
}

static int close_code(const char *payload, size_t len)
{
	return len >= 2 ? ((unsigned char)payload[0] << 8 | (unsigned char)payload[1]) : -1;
}

/* ---- tests ------------------------------------------------------------- */

TEST(net_open_message_echo_close_once_each)
{
	struct h h;
	REQUIRE(h_setup(&h, M_ECHO) == 0);
	struct cli c;
	REQUIRE(cli_connect(&h, &c) == 0);
	pump(&h, c.fd, 20);
	CHECK_EQ(h.opens, 1);
	CHECK_EQ(net_connections(h.n), 1);
	REQUIRE(h.last != NULL);
	CHECK(conn_id(h.last) >= 1);
	CHECK_STR(conn_peer_ip(h.last), "127.0.0.1");

	cli_send(&c, 1, "{\"type\":\"ping\"}", 15);
	cli_send(&c, 1, "second", 6);
	char fb[2048];
	size_t len;
	CHECK_EQ(cli_frame(&h, &c, fb, sizeof fb, &len), 1);
	CHECK_STR(fb, "{\"type\":\"ping\"}");
	CHECK_EQ(cli_frame(&h, &c, fb, sizeof fb, &len), 1);
	CHECK_STR(fb, "second"); /* in order */
	CHECK_EQ(h.msgs, 2);
	CHECK(h.last_nul);
	/* A socket with room takes each reply at once: nothing waited in the
	 * send queue for a RAW_WRITEABLE. */
	CHECK_EQ(net_messages_queued(h.n), 0);

	cli_send(&c, 8, "\x03\xe8", 2); /* the client closes: 1000 */
	CHECK_EQ(cli_frame(&h, &c, fb, sizeof fb, &len), 8);
	uint64_t end = now_ms() + 3000;
	while (net_connections(h.n) > 0 && now_ms() < end)
		pump(&h, c.fd, 5);
	CHECK_EQ(net_connections(h.n), 0);
	CHECK_EQ(h.closes, 1);
	close(c.fd);
	h_teardown(&h);
	CHECK_EQ(h.closes, 1); /* not again at shutdown */
}

TEST(net_conn_close_inside_on_message_sends_the_reply_then_our_code)
{
	struct h h;
	REQUIRE(h_setup(&h, M_REPLY_CLOSE) == 0);
	struct cli c;
	REQUIRE(cli_connect(&h, &c) == 0);
	cli_send(&c, 1, "hi", 2);
	char fb[256];
	size_t len;
	CHECK_EQ(cli_frame(&h, &c, fb, sizeof fb, &len), 1);
	CHECK_STR(fb, "reply");
	CHECK_EQ(cli_frame(&h, &c, fb, sizeof fb, &len), 8);
	CHECK_EQ(close_code(fb, len), 4000);
	CHECK(len == 9 && memcmp(fb + 2, "bye now", 7) == 0);
	cli_send(&c, 8, fb, 2); /* complete the handshake */
	uint64_t end = now_ms() + 3000;
	while (h.closes == 0 && now_ms() < end)
		pump(&h, c.fd, 5);
	CHECK_EQ(h.closes, 1);
	close(c.fd);
	h_teardown(&h);
}

/* A frame of 1000 bytes takes 1004 in the queue (4 bytes of header). */
#define FLOOD_FRAME 1004

/* Drives a slow reader test: the client says "go", the app queues
 * flood_n frames at once. A reader reads them all (and returns -1 if no
 * close follows); a stuck reader reads nothing until net has closed the
 * connection, then what reached it: returns 0 when the close frame could
 * not get through the full buffers (the socket was simply dropped), else
 * the close code. */
static int flood(struct h *h, struct cli *c, bool read)
{
	cli_send(c, 1, "go", 2);
	char fb[256];
	size_t len;
	int op, frames = 0;
	if (!read) {
		uint64_t end = now_ms() + 15000;
		while (h->closes == 0 && now_ms() < end)
			pump(h, -1, 5);
	}
	while ((op = cli_frame(h, c, fb, sizeof fb, &len)) == 1)
		frames++;
	if (read) {
		CHECK_EQ(frames, h->flood_n);
		return op == 8 ? close_code(fb, len) : -1;
	}
	return op == 8 ? close_code(fb, len) : 0;
}

/* The most the kernel may hold of a connection's frames before they wait
 * in net's queue: tcp_wmem's maximum. */
static long tcp_wmem_max(void)
{
	long a, b, max = 4194304;
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_wmem", "r");
	if (f) {
		if (fscanf(f, "%ld %ld %ld", &a, &b, &max) != 3)
			max = 4194304;
		fclose(f);
	}
	return max;
}

TEST(net_conn_send_past_the_hard_cap_closes_a_slow_reader_at_once)
{
	struct h h;
	REQUIRE(h_setup(&h, M_FLOOD) == 0); /* max_send_queue 4096 */
	/* Frames go straight into the socket while it has room: more than
	 * the kernel can hold, so that the rest waits in net's queue. */
	long wmem = tcp_wmem_max();
	h.flood_n = (int)((wmem + 32 * 4096) / 1000);
	struct cli c;
	REQUIRE(cli_connect_rcvbuf(&h, &c, 4096) == 0);
	uint64_t t0 = now_ms();
	int code = flood(&h, &c, false);
	CHECK(code == NET_CLOSE_POLICY || code == 0);
	/* 16 x max_send_queue is the most one connection may have queued:
	 * refused once the kernel's part and that much are taken. */
	CHECK(h.flood_refused_at >= 16 * 4096 / FLOOD_FRAME);
	CHECK(h.flood_refused_at <= (wmem + 16 * 4096) / FLOOD_FRAME + 1);
	CHECK_EQ(h.closes, 1);
	CHECK(now_ms() - t0 < 5000); /* at once, not after SLOW_READER_MS */
	close(c.fd);
	h_teardown(&h);
}

TEST(net_a_burst_over_max_send_queue_to_a_reader_keeping_up_is_delivered)
{
	struct h h;
	REQUIRE(h_setup(&h, M_FLOOD) == 0);
	h.flood_n = 60; /* 60 KB queued at once: 15 x max_send_queue */
	struct cli c;
	REQUIRE(cli_connect(&h, &c) == 0);
	CHECK_EQ(flood(&h, &c, true), -1);
	CHECK_EQ(h.flood_refused_at, -1);
	CHECK_EQ(h.closes, 0);
	close(c.fd);
	h_teardown(&h);
}

TEST(net_a_reader_stuck_over_max_send_queue_is_closed_after_a_while)
{
	struct h h;
	REQUIRE(h_setup(&h, M_FLOOD) == 0);
	/* The kernel takes up to tcp_wmem's maximum into the socket first
	 * (4 MB by default); 1.5 MB more stay queued in net: over
	 * max_send_queue (1 MB), under the hard cap (16 MB): only time closes
	 * it. One burst, so that the reads paused for the queue cannot stop
	 * it halfway. */
	h.cfg.max_send_queue = 1024 * 1024;
	h.flood_n = (int)((tcp_wmem_max() + 1500 * 1000) / 1000);
	struct cli c;
	REQUIRE(cli_connect_rcvbuf(&h, &c, 4096) == 0);
	uint64_t t0 = now_ms();
	cli_send(&c, 1, "go", 2);
	uint64_t end = now_ms() + 15000;
	while (h.closes == 0 && now_ms() < end)
		pump(&h, -1, 5);
	CHECK_EQ(h.flood_refused_at, -1);
	CHECK(now_ms() - t0 >= 5000); /* SLOW_READER_MS */
	CHECK_EQ(h.closes, 1);
	close(c.fd);
	h_teardown(&h);
}

TEST(net_flow_control_backpressures_a_flooding_slow_reader_without_loss)
{
	/* 40,000 echoes of 100 bytes (4 MB each way) to a client with a tiny
	 * receive buffer that reads only when it cannot send: the server's
	 * kernel buffer fills, and without rx flow control the echo queue
	 * would pass max_send_queue (4096) and close the client as a slow
	 * reader. With it, net stops reading instead: nothing lost, no close. */
	struct h h;
	REQUIRE(h_setup(&h, M_ECHO) == 0);
	h.cfg.rate_msgs_per_sec = h.cfg.rate_burst = 1000000;
	struct cli c;
	REQUIRE(cli_connect_rcvbuf(&h, &c, 4096) == 0);
	enum { N = 40000, LEN = 100 };
	int sent = 0, got = 0, bad = 0;
	unsigned char frame[LEN + 16];
	size_t flen = 0, foff = 0;
	uint64_t end = now_ms() + 20000;
	while (got < N && h.closes == 0 && now_ms() < end) {
		if (foff == flen && sent < N) { /* the next masked frame (mask 0) */
			frame[0] = 0x81;
			frame[1] = 0x80 | LEN;
			memset(frame + 2, 0, 4);
			memset(frame + 6, '.', LEN);
			snprintf((char *)frame + 6, 16, "m%09u", (unsigned)sent % 1000000000u);
			frame[6 + 10] = '.';
			flen = 6 + LEN;
			foff = 0;
		}
		ssize_t w = foff < flen ? send(c.fd, frame + foff, flen - foff, MSG_DONTWAIT) : -1;
		if (w > 0) {
			foff += (size_t)w;
			if (foff == flen)
				sent++;
		}
		uv_run(&h.loop, UV_RUN_NOWAIT);
		if (w <= 0 || sent == N) { /* cannot send: read what is there */
			ssize_t r = recv(c.fd, c.in + c.in_len, sizeof c.in - c.in_len,
					 MSG_DONTWAIT);
			if (r > 0)
				c.in_len += (size_t)r;
			char text[LEN + 1], want[16];
			while (cli_take(&c, text, sizeof text) == 1) {
				snprintf(want, sizeof want, "m%09d", got++);
				bad += strncmp(text, want, 10) != 0;
			}
		}
	}
	CHECK_EQ(h.closes, 0);
	CHECK_EQ(got, N);
	CHECK_EQ(bad, 0); /* in order, none lost */
	CHECK_EQ(h.msgs, N);
	close(c.fd);
	h_teardown(&h);
}

TEST(net_shutdown_sends_1001_to_everyone_then_done_once)
{
	struct h h;
	REQUIRE(h_setup(&h, M_ECHO) == 0);
	struct cli a, b;
	REQUIRE(cli_connect(&h, &a) == 0);
	REQUIRE(cli_connect(&h, &b) == 0);
	pump(&h, a.fd, 20);
	CHECK_EQ(h.opens, 2);
	net_shutdown(h.n, h_done, &h);
	char fb[256];
	size_t len;
	CHECK_EQ(cli_frame(&h, &a, fb, sizeof fb, &len), 8);
	CHECK_EQ(close_code(fb, len), 1001);
	CHECK(len == 22 && memcmp(fb + 2, "server shutting down", 20) == 0);
	CHECK_EQ(cli_frame(&h, &b, fb, sizeof fb, &len), 8);
	CHECK_EQ(close_code(fb, len), 1001);
	cli_send(&a, 8, fb, 2);
	cli_send(&b, 8, fb, 2);
	h_teardown(&h); /* a second net_shutdown is a no-op */
	CHECK_EQ(h.closes, 2);
	close(a.fd);
	close(b.fd);
}

TEST(net_busy_port_is_a_clean_error)
{
	struct h h;
	REQUIRE(h_setup(&h, M_ECHO) == 0);
	laird_config cfg2 = h.cfg;
	cfg2.port = net_port(h.n);
	uv_loop_t loop2;
	REQUIRE(uv_loop_init(&loop2) == 0);
	net_callbacks cb = {0};
	char err[256] = "";
	net *n2 = net_new(&loop2, &cfg2, &cb, err, sizeof err);
	CHECK(n2 == NULL);
	CHECK(strstr(err, "cannot listen on 127.0.0.1:") != NULL);
	uv_run(&loop2, UV_RUN_DEFAULT);
	CHECK_EQ(uv_loop_close(&loop2), 0);
	h_teardown(&h);
}
