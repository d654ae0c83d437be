/*
 * test_ws.c — laird's own WebSocket and HTTP-head reading, without sockets:
 * the RFC 6455 example key, frame headers, the frame parser over every way
 * a stream can be cut (one byte at a time), each violation with its close
 * code (an unmasked frame is 1002, RFC 6455 §5.1), UTF-8 across fragments;
 * the request head (exact targets, folded or binary heads refused); the id
 * of a dropped request found by a bounded scan.
 */
#include <stdlib.h>
#include <string.h>

#include "../../server/http_head.h"
#include "../../server/json_peek.h"
#include "../../server/ws.h"
#include "../test.h"

TEST(ws_accept_key_is_the_rfc_example)
{
	char out[29];
	/* RFC 6455 §1.3 */
	CHECK(ws_accept_key("dGhlIHNhbXBsZSBub25jZQ==", 24, out));
	CHECK_STR(out, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
	CHECK(!ws_accept_key("dGhlIHNhbXBsZSBub25jZQ=", 23, out));
	CHECK(!ws_accept_key("dGhlIHNhbXBsZSBub25jZR==", 24, out)); /* not 16 bytes */
	CHECK(!ws_accept_key("dGhlIHNhbXBsZSBub25j*Q==", 24, out));
}

TEST(ws_frame_header_lengths)
{
	uint8_t h[WS_HEADER_MAX];
	CHECK_EQ(ws_frame_header(h, WS_OP_TEXT, 5), 2);
	CHECK(h[0] == 0x81 && h[1] == 5);
	CHECK_EQ(ws_frame_header(h, WS_OP_TEXT, 126), 4);
	CHECK(h[1] == 126 && h[2] == 0 && h[3] == 126);
	CHECK_EQ(ws_frame_header(h, WS_OP_CLOSE, 70000), 10);
	CHECK(h[0] == 0x88 && h[1] == 127 && h[7] == 1 && h[8] == 0x11 && h[9] == 0x70);
}

/* ---- the parser, fed by a recorder ---- */

struct rec {
	char text[4096];
	size_t len;
	int messages, pings, pongs, closes, close_code;
	char last[4096]; /* the last whole message (its first 4 KB) */
	size_t last_len;
	char ctl[200];
};

/* Keeps the first 4 KB of each message; counts all of it. */
static int r_data(void *ud, const uint8_t *p, size_t n)
{
	struct rec *r = ud;
	for (size_t i = 0; i < n; i++, r->len++)
		if (r->len < sizeof r->text - 1)
			r->text[r->len] = (char)p[i];
	return 0;
}

static int r_end(void *ud)
{
	struct rec *r = ud;
	size_t kept = r->len < sizeof r->text - 1 ? r->len : sizeof r->text - 1;
	r->text[kept] = 0;
	memcpy(r->last, r->text, kept + 1);
	r->last_len = r->len;
	r->len = 0;
	r->messages++;
	return 0;
}

static int r_ctl(void *ud, enum ws_opcode op, int code, const uint8_t *p, size_t n)
{
	struct rec *r = ud;
	memcpy(r->ctl, p, n);
	r->ctl[n] = 0;
	if (op == WS_OP_PING)
		r->pings++;
	else if (op == WS_OP_PONG)
		r->pongs++;
	else
		r->closes++, r->close_code = code;
	return 0;
}

static const ws_events rec_ev = {r_data, r_end, r_ctl};

/* A client frame: masked with a fixed key unless unmasked. */
static size_t frame(uint8_t *out, int first_byte, const char *payload, size_t n, bool masked)
{
	static const uint8_t key[4] = {0x37, 0xfa, 0x21, 0x3d};
	size_t at = 0;
	out[at++] = (uint8_t)first_byte;
	uint8_t m = masked ? 0x80 : 0;
	if (n < 126) {
		out[at++] = (uint8_t)(m | n);
	} else if (n <= 0xffff) {
		out[at++] = m | 126;
		out[at++] = (uint8_t)(n >> 8);
		out[at++] = (uint8_t)n;
	} else {
		out[at++] = m | 127;
		for (int i = 0; i < 8; i++)
			out[at++] = (uint8_t)((uint64_t)n >> (56 - 8 * i));
	}
	if (masked) {
		memcpy(out + at, key, 4);
		at += 4;
	}
	for (size_t i = 0; i < n; i++)
		out[at + i] = (uint8_t)payload[i] ^ (masked ? key[i & 3] : 0);
	return at + n;
}

/* Parses the stream whole, then again one byte at a time: same result. */
static int parse_both(const uint8_t *stream, size_t len, size_t max, struct rec *whole)
{
	uint8_t *copy = malloc(len ? len : 1);
	ws_parser p;
	memset(whole, 0, sizeof *whole);
	ws_parser_init(&p, max);
	memcpy(copy, stream, len);
	int rc = ws_parse(&p, copy, len, &rec_ev, whole);

	struct rec bytes;
	memset(&bytes, 0, sizeof bytes);
	ws_parser_init(&p, max);
	memcpy(copy, stream, len);
	int rc2 = 0;
	for (size_t i = 0; i < len && !rc2; i++)
		rc2 = ws_parse(&p, copy + i, 1, &rec_ev, &bytes);
	CHECK_EQ(rc, rc2);
	CHECK_EQ(whole->messages, bytes.messages);
	CHECK_STR(whole->last, bytes.last);
	CHECK_EQ(whole->pings, bytes.pings);
	free(copy);
	return rc;
}

TEST(ws_parser_messages_fragments_and_control_frames)
{
	uint8_t s[512];
	size_t n = 0;
	n += frame(s + n, 0x81, "{\"type\":\"ping\"}", 15, true);
	n += frame(s + n, 0x01, "hel", 3, true);          /* a fragmented message... */
	n += frame(s + n, 0x89, "abc", 3, true);          /* ...with a ping inside */
	n += frame(s + n, 0x80, "lo \xc3\xa9", 5, true);  /* é across no boundary */
	n += frame(s + n, 0x8a, "", 0, true);
	n += frame(s + n, 0x88, "\x03\xe8" "bye", 5, true);
	n += frame(s + n, 0x81, "after close", 11, true); /* ignored */
	struct rec r;
	CHECK_EQ(parse_both(s, n, 1000, &r), 0);
	CHECK_EQ(r.messages, 2);
	CHECK_STR(r.last, "hello \xc3\xa9");
	CHECK_EQ(r.pings, 1);
	CHECK_EQ(r.pongs, 1);
	CHECK_EQ(r.closes, 1);
	CHECK_EQ(r.close_code, 1000);
	CHECK_STR(r.ctl, "bye");
}

TEST(ws_parser_lengths_16_and_64_bit)
{
	static uint8_t s[70400];
	static char big[70000];
	memset(big, 'x', sizeof big);
	size_t n = frame(s, 0x81, big, 300, true);
	n += frame(s + n, 0x81, big, sizeof big, true);
	struct rec r;
	CHECK_EQ(parse_both(s, n, 100000, &r), 0);
	CHECK_EQ(r.messages, 2);
	CHECK_EQ(r.last_len, sizeof big);
}

static int code_of(int first_byte, const char *payload, size_t n, bool masked, size_t max)
{
	uint8_t s[300];
	size_t len = frame(s, first_byte, payload, n, masked);
	struct rec r;
	return parse_both(s, len, max, &r);
}

TEST(ws_parser_violations_and_their_close_codes)
{
	/* RFC 6455 §5.1: the server MUST close on an unmasked frame, even an
	 * empty one (its header is only 2 bytes). */
	CHECK_EQ(code_of(0x81, "hi", 2, false, 100), WS_CLOSE_PROTOCOL);
	CHECK_EQ(code_of(0x89, "", 0, false, 100), WS_CLOSE_PROTOCOL);
	CHECK_EQ(code_of(0xc1, "hi", 2, true, 100), WS_CLOSE_PROTOCOL); /* RSV1 */
	CHECK_EQ(code_of(0x83, "hi", 2, true, 100), WS_CLOSE_PROTOCOL); /* opcode 3 */
	CHECK_EQ(code_of(0x80, "hi", 2, true, 100), WS_CLOSE_PROTOCOL); /* lone cont */
	CHECK_EQ(code_of(0x09, "hi", 2, true, 100), WS_CLOSE_PROTOCOL); /* ping, no FIN */
	char long_ping[126];
	memset(long_ping, 'p', sizeof long_ping);
	CHECK_EQ(code_of(0x89, long_ping, 126, true, 1000), WS_CLOSE_PROTOCOL);
	CHECK_EQ(code_of(0x82, "\x01", 1, true, 100), WS_CLOSE_UNSUPPORTED);
	CHECK_EQ(code_of(0x81, "\xc3\x28", 2, true, 100), WS_CLOSE_BAD_DATA);
	CHECK_EQ(code_of(0x81, "\xed\xa0\x80", 3, true, 100), WS_CLOSE_BAD_DATA); /* surrogate */
	CHECK_EQ(code_of(0x81, "\xc0\xaf", 2, true, 100), WS_CLOSE_BAD_DATA);     /* overlong */
	CHECK_EQ(code_of(0x81, "\xf4\x90\x80\x80", 4, true, 100), WS_CLOSE_BAD_DATA);
	CHECK_EQ(code_of(0x81, "\xc3", 1, true, 100), WS_CLOSE_BAD_DATA); /* cut at the end */
	CHECK_EQ(code_of(0x81, "12345", 5, true, 4), WS_CLOSE_TOO_BIG);
	CHECK_EQ(code_of(0x81, "1234", 4, true, 4), 0);
	CHECK_EQ(code_of(0x88, "\x03", 1, true, 100), WS_CLOSE_PROTOCOL);      /* 1 byte */
	CHECK_EQ(code_of(0x88, "\x03\xed", 2, true, 100), WS_CLOSE_PROTOCOL);  /* 1005 */
	CHECK_EQ(code_of(0x88, "\x0b\xb8", 2, true, 100), 0);                  /* 3000 */
	CHECK_EQ(code_of(0x88, "\x03\xe8\xff", 3, true, 100), WS_CLOSE_BAD_DATA);

	/* A 64-bit length with its top bit set. */
	uint8_t s[20] = {0x81, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
	struct rec r;
	CHECK_EQ(parse_both(s, 14, 100, &r), WS_CLOSE_PROTOCOL);

	/* Fragments count together against the limit; a new message inside a
	 * fragmented one is an error. */
	uint8_t t[100];
	size_t n = frame(t, 0x01, "123", 3, true);
	n += frame(t + n, 0x80, "45", 2, true);
	CHECK_EQ(parse_both(t, n, 4, &r), WS_CLOSE_TOO_BIG);
	n = frame(t, 0x01, "123", 3, true);
	n += frame(t + n, 0x81, "45", 2, true);
	CHECK_EQ(parse_both(t, n, 100, &r), WS_CLOSE_PROTOCOL);
	/* UTF-8 split across fragments is fine. */
	n = frame(t, 0x01, "\xe2\x82", 2, true);
	n += frame(t + n, 0x80, "\xac", 1, true);
	CHECK_EQ(parse_both(t, n, 100, &r), 0);
	CHECK_STR(r.last, "\xe2\x82\xac");
}

/* ---- the request head ---- */

static const char ws_head[] =
	"GET /play?x=1 HTTP/1.1\r\n"
	"Host: lair.example.org\r\n"
	"Upgrade: websocket\r\n"
	"Connection: keep-alive, Upgrade\r\n"
	"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
	"Sec-WebSocket-Version: 13\r\n"
	"X-Forwarded-For: 1.2.3.4, 5.6.7.8\r\n"
	"\r\n"
	"\x81\x85"; /* the first frame may follow at once */

TEST(http_head_reads_an_upgrade_exactly)
{
	http_head h;
	REQUIRE(http_head_parse(ws_head, sizeof ws_head - 1, &h) == HTTP_HEAD_OK);
	CHECK_EQ(h.len, sizeof ws_head - 1 - 2);
	CHECK(http_str_is(h.method, "GET"));
	CHECK(http_str_is(h.target, "/play?x=1"));
	CHECK(http_str_is(http_target_path(&h), "/play"));
	CHECK_EQ(h.minor, 1);
	CHECK(http_list_has(h.upgrade, "WebSocket"));
	CHECK(http_list_has(h.connection, "upgrade"));
	CHECK(!http_list_has(h.connection, "close"));
	CHECK(http_str_is(h.ws_key, "dGhlIHNhbXBsZSBub25jZQ=="));
	CHECK(http_str_is(h.ws_version, "13"));
	CHECK(http_str_is(h.xff, "1.2.3.4, 5.6.7.8"));
	CHECK_EQ(h.n_ws_key, 1);
	/* Every prefix is incomplete, never bad. */
	for (size_t i = 0; i < h.len; i++)
		CHECK_MSG(http_head_parse(ws_head, i, &h) == HTTP_HEAD_INCOMPLETE, "prefix %zu", i);
}

TEST(http_head_targets_are_as_sent)
{
	const char *targets[] = {"/metrics;x", "/metrics;", "/metrics/x/..", "//metrics",
				 "/%6detrics", "/./metrics"};
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
		char req[200];
		snprintf(req, sizeof req, "GET %s HTTP/1.1\nHost: x\n\n", targets[i]);
		http_head h;
		REQUIRE(http_head_parse(req, strlen(req), &h) == HTTP_HEAD_OK);
		CHECK(http_str_is(h.target, targets[i]));
		CHECK(!http_str_is(http_target_path(&h), "/metrics"));
	}
}

TEST(http_head_refuses_what_two_readers_could_read_apart)
{
	const char *bad[] = {
		"get / HTTP/1.1\r\n\r\n",
		"GET  / HTTP/1.1\r\n\r\n",
		"GET / HTTP/2.0\r\n\r\n",
		"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: x\r\n folded: y\r\n\r\n",
		"GET / HTTP/1.1\r\nBad Name: y\r\n\r\n",
		("GET / HTTP/1.1\r\nX: a\x01" "b\r\n\r\n"),
		"GET /\x7f HTTP/1.1\r\n\r\n",
		"\x16\x03\x01\x02\x00", /* a TLS hello: refused before any line end */
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		http_head h;
		CHECK_MSG(http_head_parse(bad[i], strlen(bad[i]), &h) == HTTP_HEAD_BAD, "#%zu", i);
		CHECK_MSG(h.bad && *h.bad, "#%zu says why", i);
	}
}

/* A %-escape is two hex digits and never %00 (libwebsockets, which decodes
 * the path, hung up on "/a%00b" without an answer): refused at once, from
 * the request line, with the reason the 400 carries. */
TEST(http_head_refuses_nul_and_malformed_escapes_saying_why)
{
	static const struct {
		const char *target, *why;
	} bad[] = {
		{"/a%00b", "the target holds %00, an encoded NUL"},
		{"/%00", "the target holds %00, an encoded NUL"},
		{"/x?q=%00", "the target holds %00, an encoded NUL"},
		{"/%zz", "a %-escape in the target is not two hex digits"},
		{"/a%0", "a %-escape in the target is not two hex digits"},
		{"/a%", "a %-escape in the target is not two hex digits"},
		{"/a%%41", "a %-escape in the target is not two hex digits"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char req[100];
		/* the request line alone: no need to wait for the headers */
		snprintf(req, sizeof req, "GET %s HTTP/1.1\r\n", bad[i].target);
		http_head h;
		CHECK_MSG(http_head_parse(req, strlen(req), &h) == HTTP_HEAD_BAD, "%s", bad[i].target);
		CHECK_MSG(h.bad && !strcmp(h.bad, bad[i].why), "%s: %s", bad[i].target,
			  h.bad ? h.bad : "(none)");
	}
	static const char *const good[] = {"/a%01b", "/%2e%2e/x", "/%6Detrics", "/x?q=%41%0a"};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		char req[100];
		snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", good[i]);
		http_head h;
		CHECK_MSG(http_head_parse(req, strlen(req), &h) == HTTP_HEAD_OK, "%s", good[i]);
		CHECK(h.bad == NULL);
	}
}

/* ---- the id of a dropped request ---- */

static const char *peek(const char *json)
{
	static char out[100];
	size_t at, n;
	if (!json_peek_id(json, strlen(json), 256, &at, &n))
		return NULL;
	snprintf(out, sizeof out, "%.*s", (int)n, json + at);
	return out;
}

TEST(json_peek_id_finds_cheap_ids_only)
{
	CHECK_STR(peek("{\"type\":\"ping\",\"id\":12}"), "12");
	CHECK_STR(peek(" { \"id\" : \"a-1\" , \"type\":\"ping\"}"), "\"a-1\"");
	CHECK_STR(peek("{\"x\":{\"id\":5,\"y\":[1,{\"id\":6}]},\"s\":\"}\\\"\",\"id\":-7}"), "-7");
	CHECK_STR(peek("{\"id\":9007199254740991}"), "9007199254740991");
	CHECK(peek("{\"id\":9007199254740992}") == NULL);
	CHECK(peek("{\"id\":1.5}") == NULL);
	CHECK(peek("{\"id\":1e3}") == NULL);
	CHECK(peek("{\"id\":012}") == NULL);
	CHECK(peek("{\"id\":true}") == NULL);
	CHECK(peek("{\"id\":\"has\\\"escape\"}") == NULL);
	CHECK(peek("{\"id\":\"0123456789012345678901234567890123456789012345678901234567890123"
		   "4\"}") == NULL); /* 65 bytes */
	CHECK(peek("[{\"id\":1}]") == NULL);
	CHECK(peek("{\"type\":\"ping\"}") == NULL);
	CHECK(peek("{\"id\":12") == NULL);     /* cut */
	CHECK(peek("{\"id\":12 34}") == NULL); /* runs on */
	/* Only the first 256 bytes are read. */
	char late[400];
	snprintf(late, sizeof late, "{\"pad\":\"%0300d\",\"id\":1}", 0);
	CHECK(peek(late) == NULL);
}
