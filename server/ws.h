/*
 * ws.h — the WebSocket protocol (RFC 6455), server side: the handshake's
 * accept key, an incremental frame parser and the frame header writer.
 *
 * laird speaks WebSocket itself on top of libwebsockets' raw sockets
 * (docs/libwebsockets.md §4): lws 4.1 accepts unmasked client frames and
 * answers pings without telling its user, so neither could be refused or
 * rate-limited through it. This module is pure (bytes in, events out); net.c
 * drives it.
 *
 * What the parser refuses, with the close code net.c then sends:
 *   1002  an unmasked frame (§5.1), RSV bits set (no extension is
 *         negotiated), an unknown opcode, a fragmented or longer than 125
 *         bytes control frame, a continuation with no message started, a new
 *         message inside a fragmented one, a 64-bit length with its top bit
 *         set, a close frame of 1 byte or with a code no endpoint may send
 *   1003  a binary frame (lair speaks JSON)
 *   1007  a text message or close reason that is not UTF-8
 *   1009  a message longer than max_message bytes (known from the frame
 *         header, before its payload is read)
 */
#ifndef LAIR_WS_H
#define LAIR_WS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ws_opcode {
	WS_OP_CONT = 0x0,
	WS_OP_TEXT = 0x1,
	WS_OP_BINARY = 0x2,
	WS_OP_CLOSE = 0x8,
	WS_OP_PING = 0x9,
	WS_OP_PONG = 0xa,
};

enum ws_close {
	WS_CLOSE_NORMAL = 1000,
	WS_CLOSE_PROTOCOL = 1002,
	WS_CLOSE_UNSUPPORTED = 1003,
	WS_CLOSE_NO_STATUS = 1005, /* a close frame without a code (never sent) */
	WS_CLOSE_BAD_DATA = 1007,
	WS_CLOSE_TOO_BIG = 1009,
};

#define WS_CONTROL_MAX 125
#define WS_HEADER_MAX 10 /* a server frame's header: no mask */

/* Sec-WebSocket-Accept for a Sec-WebSocket-Key (which must be the base64
 * form of 16 bytes: 24 characters). false for a malformed key. */
bool ws_accept_key(const char *key, size_t len, char out[29]);

/* Writes the header of an unmasked, final frame of len bytes; returns its
 * size (2, 4 or 10). */
size_t ws_frame_header(uint8_t out[WS_HEADER_MAX], enum ws_opcode op, uint64_t len);

/* What the parser reports. Each returns 0 to go on, non-zero to stop
 * parsing at once (ws_parse then returns -1). */
typedef struct ws_events {
	/* The next bytes of the text message being received, unmasked. */
	int (*data)(void *ud, const uint8_t *p, size_t n);
	/* The message is complete (and valid UTF-8). */
	int (*message_end)(void *ud);
	/* A whole ping, pong or close frame. For close, code is its status
	 * (WS_CLOSE_NO_STATUS when it had none) and p/n its reason. */
	int (*control)(void *ud, enum ws_opcode op, int code, const uint8_t *p, size_t n);
} ws_events;

typedef struct ws_parser {
	size_t max_message;   /* a longer text message: 1009 */
	/* the frame being read */
	uint8_t hdr[14];
	int hdr_len, hdr_need;
	enum ws_opcode op;
	bool fin;
	uint8_t mask[4];
	int mask_i;
	uint64_t left;        /* payload bytes still to come */
	/* the message being read (data frames) */
	bool in_message;
	uint64_t message_len;
	uint32_t utf8;        /* validator state (0: between characters) */
	/* a control frame's payload */
	uint8_t ctl[WS_CONTROL_MAX];
	size_t ctl_len;
	bool closed;          /* a close frame or an error: nothing more */
	const char *error;    /* why ws_parse returned a close code (a close reason) */
} ws_parser;

void ws_parser_init(ws_parser *p, size_t max_message);

/* Parses the next len bytes of the client's stream, unmasking in place.
 * Returns 0 when every byte was consumed, a close code (1002, 1003, 1007,
 * 1009) when the stream breaks the protocol, or -1 when a callback asked to
 * stop. After a close frame or an error every later byte is ignored. */
int ws_parse(ws_parser *p, uint8_t *in, size_t len, const ws_events *ev, void *ud);

/* True when the n bytes are valid UTF-8 on their own. */
bool ws_utf8_valid(const uint8_t *s, size_t n);

#endif
