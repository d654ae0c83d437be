/*
 * ws.h — a minimal WebSocket client (RFC 6455) on a libuv TCP handle, for
 * the load generator: thousands of connections in one process, each costing
 * a few hundred bytes when idle.
 *
 * What it does: connects (optionally from a chosen source address, so that
 * one machine can open more connections than one address has ports),
 * upgrades with a random key and checks the server's accept value, sends
 * masked text frames (whole or in fragments), pings and close frames,
 * parses the server's frames as they stream in (any split across reads),
 * reassembles fragmented messages, answers pings with pongs, and answers a
 * close with a close. What it does not: extensions, subprotocols, TLS,
 * binary messages (a binary frame is a protocol error here: lair speaks
 * text).
 *
 * Reads go into one buffer shared by every connection (the callbacks run
 * one at a time on the loop); a connection keeps bytes of its own only
 * while a frame or a message is incomplete. Each message is handed over
 * with the CLOCK_MONOTONIC time at which the read that completed it
 * returned: the time the bytes reached this process, before any work on
 * them.
 *
 * Ownership: lg_ws is embedded in the caller's struct; it must stay put
 * from lg_ws_connect until the `closed` callback, after which the caller may
 * free it. Message text is valid during the callback only.
 */
#ifndef LAIR_LG_WS_H
#define LAIR_LG_WS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netinet/in.h>
#include <uv.h>

typedef struct lg_ws lg_ws;

typedef struct lg_ws_handlers {
	/* The upgrade succeeded. */
	void (*open)(lg_ws *ws);
	/* One complete text message (fragments joined). */
	void (*message)(lg_ws *ws, const char *text, size_t len, uint64_t stamp_ns);
	/* A pong arrived (answer to lg_ws_ping). May be NULL. */
	void (*pong)(lg_ws *ws, const char *data, size_t len);
	/* The connection is gone and the handle closed. code: the close
	 * status the server sent (0 when there was no close frame); why: a
	 * short description ("closed by server", "connect: ...", ...). */
	void (*closed)(lg_ws *ws, int code, const char *why);
} lg_ws_handlers;

enum lg_ws_state { LG_WS_IDLE, LG_WS_CONNECTING, LG_WS_UPGRADING, LG_WS_OPEN, LG_WS_CLOSING,
		   LG_WS_CLOSED };

struct lg_ws {
	uv_tcp_t tcp;
	const lg_ws_handlers *h;
	void *data; /* the caller's */
	uint8_t state;
	uint8_t msg_open;  /* a fragmented message is being reassembled */
	uint16_t close_code;
	char accept[29]; /* the Sec-WebSocket-Accept the server must answer */
	const char *why; /* why it closed (a static string) */
	char *carry;     /* bytes of an incomplete frame (or of the upgrade reply) */
	uint32_t carry_len, carry_cap;
	char *msg; /* fragments of the current message */
	uint32_t msg_len, msg_cap;
	/* counted since lg_ws_connect */
	uint64_t rx_bytes;  /* every byte read, headers included */
	uint64_t rx_frames; /* data frames (text and continuation) */
	uint64_t rx_msgs;
	uint64_t rx_payload; /* bytes of complete messages */
	uint64_t tx_bytes, tx_msgs;
};

/* Connects to dst (from src's address when src is not NULL; its port is
 * ignored) and upgrades with "GET path". 0, or a libuv error code when not
 * even a handle could be made (no callback then); every later failure ends
 * in the `closed` callback. */
int lg_ws_connect(lg_ws *ws, uv_loop_t *loop, const struct sockaddr_in *src,
		  const struct sockaddr_in *dst, const char *host, const char *path,
		  const lg_ws_handlers *h, void *data);

/* Sends one text message, masked, in one frame. 0, or -1 when not open or
 * the socket refused it (the connection is then being closed). */
int lg_ws_send(lg_ws *ws, const char *text, size_t len);
/* The same message in `parts` frames of about equal size (a text frame and
 * continuations): the server must join them. */
int lg_ws_send_fragmented(lg_ws *ws, const char *text, size_t len, int parts);
int lg_ws_ping(lg_ws *ws, const char *data, size_t len); /* len <= 125 */
/* Starts the closing handshake; `closed` follows when the server closed. */
int lg_ws_close(lg_ws *ws, int code, const char *reason);
/* Closes the socket now, without a handshake; `closed` follows. why must
 * be a string that outlives the connection (a literal). */
void lg_ws_abort(lg_ws *ws, const char *why);

/* ---- exposed for the unit test (tests/unit/test_loadgen_ws.c) ---- */

/* Sec-WebSocket-Accept for a key: base64(SHA-1(key + the RFC's GUID)). */
void lg_ws_accept_of(const char *key, char out[29]);
/* Writes a client frame (FIN when fin, masked with mask) of opcode op
 * into out, which must hold len + 14 bytes; returns its size. */
size_t lg_ws_frame(uint8_t *out, int op, bool fin, uint32_t mask, const void *payload,
		   size_t len);

/* Parses one server frame at p[0..n): 0 when incomplete, -1 when it is not
 * a valid server frame (masked, reserved bits, a control frame too long or
 * fragmented, a length over 2^31), else its size, with its fields set. */
typedef struct lg_ws_frame_info {
	int op;
	bool fin;
	const uint8_t *payload;
	size_t len;
} lg_ws_frame_info;
long lg_ws_parse(const uint8_t *p, size_t n, lg_ws_frame_info *f);

#endif
