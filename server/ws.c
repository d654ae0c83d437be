/*
 * ws.c — see ws.h. The parser is a byte-at-a-time state machine for frame
 * headers (at most 14 bytes) and works on whole runs of payload bytes, which
 * it unmasks in place and passes on.
 */
#include <uv.h>

#include <libwebsockets.h>

#include "ws.h"

#include <string.h>

#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

static bool b64_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '+' || c == '/';
}

bool ws_accept_key(const char *key, size_t len, char out[29])
{
	/* 16 bytes in base64: 22 characters, the last of which carries only 2
	 * bits (so it is one of A Q g w), then "==". */
	if (len != 24 || key[22] != '=' || key[23] != '=' || !strchr("AQgw", key[21]))
		return false;
	for (size_t i = 0; i < 22; i++)
		if (!b64_char(key[i]))
			return false;
	unsigned char in[24 + sizeof WS_GUID - 1], md[20];
	memcpy(in, key, 24);
	memcpy(in + 24, WS_GUID, sizeof WS_GUID - 1);
	lws_SHA1(in, sizeof in, md);
	char b64[32]; /* lws wants room to spare beyond the 28 characters */
	if (lws_b64_encode_string((const char *)md, 20, b64, sizeof b64) != 28)
		return false;
	memcpy(out, b64, 29);
	return true;
}

size_t ws_frame_header(uint8_t out[WS_HEADER_MAX], enum ws_opcode op, uint64_t len)
{
	out[0] = (uint8_t)(0x80 | op);
	if (len < 126) {
		out[1] = (uint8_t)len;
		return 2;
	}
	if (len <= 0xffff) {
		out[1] = 126;
		out[2] = (uint8_t)(len >> 8);
		out[3] = (uint8_t)len;
		return 4;
	}
	out[1] = 127;
	for (int i = 0; i < 8; i++)
		out[2 + i] = (uint8_t)(len >> (56 - 8 * i));
	return 10;
}

/* ---- UTF-8, incrementally ----
 * The state packs how many continuation bytes are still due (bits 0-1) and
 * the range the next one must fall in (lo in bits 8-15, hi in 16-23): only
 * the first continuation of some lead bytes is narrower than 80..BF
 * (overlong forms, surrogates, beyond U+10FFFF). 0: between characters. */

static uint32_t utf8_state(int need, uint8_t lo, uint8_t hi)
{
	return (uint32_t)need | (uint32_t)lo << 8 | (uint32_t)hi << 16;
}

/* Returns false at the first invalid byte. */
static bool utf8_feed(uint32_t *state, const uint8_t *s, size_t n)
{
	uint32_t st = *state;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = s[i];
		if (st == 0) {
			if (c < 0x80)
				continue;
			if (c >= 0xc2 && c <= 0xdf)
				st = utf8_state(1, 0x80, 0xbf);
			else if (c == 0xe0)
				st = utf8_state(2, 0xa0, 0xbf);
			else if (c == 0xed)
				st = utf8_state(2, 0x80, 0x9f);
			else if (c >= 0xe1 && c <= 0xef)
				st = utf8_state(2, 0x80, 0xbf);
			else if (c == 0xf0)
				st = utf8_state(3, 0x90, 0xbf);
			else if (c >= 0xf1 && c <= 0xf3)
				st = utf8_state(3, 0x80, 0xbf);
			else if (c == 0xf4)
				st = utf8_state(3, 0x80, 0x8f);
			else
				return false;
			continue;
		}
		if (c < ((st >> 8) & 0xff) || c > ((st >> 16) & 0xff))
			return false;
		int need = (int)(st & 3) - 1;
		st = need ? utf8_state(need, 0x80, 0xbf) : 0;
	}
	*state = st;
	return true;
}

bool ws_utf8_valid(const uint8_t *s, size_t n)
{
	uint32_t st = 0;
	return utf8_feed(&st, s, n) && st == 0;
}

/* ---- the parser ---- */

void ws_parser_init(ws_parser *p, size_t max_message)
{
	memset(p, 0, sizeof *p);
	p->max_message = max_message;
	p->hdr_need = 2;
}

static int fail(ws_parser *p, int code, const char *why)
{
	p->error = why;
	return code;
}

/* A close code a peer may send (RFC 6455 §7.4: 1004-1006, 1015 and the
 * unassigned 1016-2999 never appear on the wire). */
static bool close_code_ok(int code)
{
	return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) ||
	       (code >= 3000 && code <= 4999);
}

/* The frame header is complete: check it. 0 or a close code. */
static int header_done(ws_parser *p)
{
	const uint8_t *h = p->hdr;
	p->fin = h[0] & 0x80;
	p->op = (enum ws_opcode)(h[0] & 0x0f);
	if (h[0] & 0x70)
		return fail(p, WS_CLOSE_PROTOCOL, "reserved bits set"); /* no extension agreed */
	uint64_t len = h[1] & 0x7f;
	int at = 2;
	if (len == 126) {
		len = (uint64_t)h[2] << 8 | h[3];
		at = 4;
	} else if (len == 127) {
		len = 0;
		for (int i = 0; i < 8; i++)
			len = len << 8 | h[2 + i];
		if (len >> 63)
			return fail(p, WS_CLOSE_PROTOCOL, "frame length out of range");
		at = 10;
	}
	memcpy(p->mask, h + at, 4);
	p->mask_i = 0;
	p->left = len;
	switch (p->op) {
	case WS_OP_PING:
	case WS_OP_PONG:
	case WS_OP_CLOSE:
		if (!p->fin || len > WS_CONTROL_MAX)
			return fail(p, WS_CLOSE_PROTOCOL, "fragmented or long control frame");
		p->ctl_len = 0;
		return 0;
	case WS_OP_BINARY:
		if (p->in_message)
			return fail(p, WS_CLOSE_PROTOCOL, "new message inside a fragmented one");
		return fail(p, WS_CLOSE_UNSUPPORTED, "text frames only (JSON)");
	case WS_OP_TEXT:
		if (p->in_message)
			return fail(p, WS_CLOSE_PROTOCOL, "new message inside a fragmented one");
		p->in_message = true;
		p->message_len = 0;
		p->utf8 = 0;
		break;
	case WS_OP_CONT:
		if (!p->in_message)
			return fail(p, WS_CLOSE_PROTOCOL, "continuation without a message");
		break;
	default:
		return fail(p, WS_CLOSE_PROTOCOL, "unknown opcode");
	}
	/* Refused before its payload is read. */
	if (len > p->max_message || p->message_len + len > p->max_message)
		return fail(p, WS_CLOSE_TOO_BIG, "message too large");
	p->message_len += len;
	return 0;
}

/* The bytes of the header still missing, once its second byte is known. */
static int header_size(const uint8_t *h)
{
	int len7 = h[1] & 0x7f;
	return 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + 4;
}

static void unmask(ws_parser *p, uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		s[i] ^= p->mask[(p->mask_i + i) & 3];
	p->mask_i = (int)((p->mask_i + n) & 3);
}

/* The current frame's payload is complete. 0, a close code or -1. */
static int frame_done(ws_parser *p, const ws_events *ev, void *ud)
{
	if (p->op == WS_OP_TEXT || p->op == WS_OP_CONT) {
		if (!p->fin)
			return 0;
		p->in_message = false;
		if (p->utf8 != 0) /* a character cut at the end */
			return fail(p, WS_CLOSE_BAD_DATA, "invalid UTF-8");
		return ev->message_end && ev->message_end(ud) ? -1 : 0;
	}
	int code = 0;
	const uint8_t *reason = p->ctl;
	size_t rlen = p->ctl_len;
	if (p->op == WS_OP_CLOSE) {
		p->closed = true;
		if (p->ctl_len == 1)
			return fail(p, WS_CLOSE_PROTOCOL, "close frame of 1 byte");
		code = WS_CLOSE_NO_STATUS;
		if (p->ctl_len >= 2) {
			code = p->ctl[0] << 8 | p->ctl[1];
			if (!close_code_ok(code))
				return fail(p, WS_CLOSE_PROTOCOL, "invalid close code");
			reason += 2;
			rlen -= 2;
			if (!ws_utf8_valid(reason, rlen))
				return fail(p, WS_CLOSE_BAD_DATA, "invalid UTF-8");
		}
	}
	return ev->control && ev->control(ud, p->op, code, reason, rlen) ? -1 : 0;
}

int ws_parse(ws_parser *p, uint8_t *in, size_t len, const ws_events *ev, void *ud)
{
	size_t i = 0;
	while (i < len && !p->closed) {
		if (p->hdr_need) {
			p->hdr[p->hdr_len++] = in[i++];
			if (p->hdr_len == 2) {
				/* §5.1: a client MUST mask every frame. Refused
				 * now: an unmasked header is shorter and would
				 * otherwise be waited for. */
				if (!(p->hdr[1] & 0x80)) {
					p->closed = true;
					return fail(p, WS_CLOSE_PROTOCOL,
						    "unmasked frame (RFC 6455 5.1)");
				}
				p->hdr_need = header_size(p->hdr);
			}
			if (p->hdr_len < p->hdr_need)
				continue;
			p->hdr_need = 0;
			int rc = header_done(p);
			if (rc) {
				p->closed = true;
				return rc;
			}
		} else {
			size_t n = len - i;
			if (n > p->left)
				n = (size_t)p->left;
			uint8_t *s = in + i;
			unmask(p, s, n);
			i += n;
			p->left -= n;
			if (p->op == WS_OP_TEXT || p->op == WS_OP_CONT) {
				if (!utf8_feed(&p->utf8, s, n)) {
					p->closed = true;
					return fail(p, WS_CLOSE_BAD_DATA, "invalid UTF-8");
				}
				if (n && ev->data && ev->data(ud, s, n))
					return -1;
			} else {
				memcpy(p->ctl + p->ctl_len, s, n);
				p->ctl_len += n;
			}
		}
		if (!p->hdr_need && p->left == 0) {
			/* the frame is complete; the next one starts */
			p->hdr_len = 0;
			p->hdr_need = 2;
			int rc = frame_done(p, ev, ud);
			if (rc) {
				if (rc > 0)
					p->closed = true;
				return rc;
			}
		}
	}
	return 0;
}
