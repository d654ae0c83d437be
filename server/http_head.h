/*
 * http_head.h — the head of an HTTP/1.x request as laird reads it itself,
 * before libwebsockets sees the connection: the request line (its target
 * exactly as sent: lws normalises it, so "/metrics;x" and "/metrics/x/.."
 * would read as "/metrics") and the headers a WebSocket upgrade needs.
 *
 * Pure: bytes in, fields out. Every string points into the caller's bytes
 * (not NUL-terminated) and lives as long as they do.
 */
#ifndef LAIR_HTTP_HEAD_H
#define LAIR_HTTP_HEAD_H

#include <stdbool.h>
#include <stddef.h>

typedef struct http_str {
	const char *p;
	size_t n;
} http_str;

typedef struct http_head {
	size_t len;       /* bytes of the head, the blank line included */
	http_str method;  /* "GET" */
	http_str target;  /* "/metrics?x=1": as sent */
	int minor;        /* HTTP/1.minor */
	/* the last of each header (empty when absent) */
	http_str upgrade, connection, ws_key, ws_version, origin, host, xff;
	int n_ws_key;     /* Sec-WebSocket-Key headers seen */
	const char *bad;  /* HTTP_HEAD_BAD: why, in a few words (a constant) */
} http_head;

enum http_head_rc {
	HTTP_HEAD_INCOMPLETE, /* no blank line yet (and nothing wrong so far) */
	HTTP_HEAD_OK,
	HTTP_HEAD_BAD,        /* not an HTTP/1.x request we read alike (out->bad) */
};

enum http_head_rc http_head_parse(const char *data, size_t len, http_head *out);

/* The target's path: up to '?' (a query string is not part of it). */
http_str http_target_path(const http_head *h);

/* s is exactly lit (case-sensitive). */
bool http_str_is(http_str s, const char *lit);

/* A comma-separated list header (Connection, Upgrade) holds token,
 * compared without regard to case. */
bool http_list_has(http_str value, const char *token);

#endif
