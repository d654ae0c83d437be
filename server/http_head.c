/*
 * http_head.c — see http_head.h. Strict where laxness would let two
 * readers disagree: CRLF or LF line ends, no folded header lines, no
 * control characters, a method of capital letters, a target of visible
 * ASCII whose %-escapes are two hex digits and never %00, HTTP/1.0 or 1.1.
 */
#include "http_head.h"

#include <string.h>
#include <strings.h>

static bool tchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* One line of [p, end): its length without the line end, and where the
 * next one starts; false when no line end is in reach. */
static bool next_line(const char *p, const char *end, size_t *len, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		return false;
	*len = (size_t)(nl - p) - (nl > p && nl[-1] == '\r');
	*next = nl + 1;
	return true;
}

/* Why the target is refused, or NULL. An escape that is not two hex
 * digits is malformed (RFC 3986 §2.1); %00 is a NUL, which a reader that
 * decodes the path would cut it at (libwebsockets hung up without a word). */
static const char *target_flaw(http_str t)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	for (size_t i = 0; i < t.n; i++) {
		if (t.p[i] != '%')
			continue;
		if (t.n - i < 3 || !strchr(hex, t.p[i + 1]) || !strchr(hex, t.p[i + 2]))
			return "a %-escape in the target is not two hex digits";
		if (t.p[i + 1] == '0' && t.p[i + 2] == '0')
			return "the target holds %00, an encoded NUL";
		i += 2;
	}
	return NULL;
}

static bool request_line(const char *p, size_t n, http_head *h)
{
	size_t i = 0;
	while (i < n && p[i] >= 'A' && p[i] <= 'Z')
		i++;
	if (i == 0 || i > 16 || i >= n || p[i] != ' ')
		return false;
	h->method = (http_str){p, i};
	size_t t = ++i;
	while (i < n && p[i] > ' ' && p[i] < 0x7f)
		i++;
	if (i == t || i >= n || p[i] != ' ')
		return false;
	h->target = (http_str){p + t, i - t};
	i++;
	if (n - i != 8 || memcmp(p + i, "HTTP/1.", 7) || (p[i + 7] != '0' && p[i + 7] != '1'))
		return false;
	h->minor = p[i + 7] - '0';
	return true;
}

static bool name_is(const char *p, size_t n, const char *name)
{
	return strlen(name) == n && !strncasecmp(p, name, n);
}

static bool header_line(const char *p, size_t n, http_head *h)
{
	size_t i = 0;
	while (i < n && tchar(p[i]))
		i++;
	if (i == 0 || i >= n || p[i] != ':')
		return false; /* also a folded line, which starts with a space */
	size_t nl = i++;
	for (size_t k = i; k < n; k++) {
		unsigned char c = (unsigned char)p[k];
		if ((c < ' ' && c != '\t') || c == 0x7f)
			return false;
	}
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	size_t e = n;
	while (e > i && (p[e - 1] == ' ' || p[e - 1] == '\t'))
		e--;
	http_str v = {p + i, e - i};
	if (name_is(p, nl, "upgrade"))
		h->upgrade = v;
	else if (name_is(p, nl, "connection"))
		h->connection = v;
	else if (name_is(p, nl, "sec-websocket-key"))
		h->ws_key = v, h->n_ws_key++;
	else if (name_is(p, nl, "sec-websocket-version"))
		h->ws_version = v;
	else if (name_is(p, nl, "origin"))
		h->origin = v;
	else if (name_is(p, nl, "host"))
		h->host = v;
	else if (name_is(p, nl, "x-forwarded-for"))
		h->xff = v;
	return true;
}

enum http_head_rc http_head_parse(const char *data, size_t len, http_head *out)
{
	memset(out, 0, sizeof *out);
	const char *p = data, *end = data + len, *next;
	size_t n;
	if (!next_line(p, end, &n, &next)) {
		/* No line yet: refuse early what cannot become a request line
		 * (a TLS hello, binary), so it is not waited for. */
		for (size_t i = 0; i < len; i++) {
			unsigned char c = (unsigned char)data[i];
			if ((c < ' ' && c != '\r') || c >= 0x7f) {
				out->bad = "not an HTTP/1.x request";
				return HTTP_HEAD_BAD;
			}
		}
		return HTTP_HEAD_INCOMPLETE;
	}
	if (!request_line(p, n, out)) {
		out->bad = "the request line is not METHOD TARGET HTTP/1.x";
		return HTTP_HEAD_BAD;
	}
	if ((out->bad = target_flaw(out->target)))
		return HTTP_HEAD_BAD;
	for (p = next;;) {
		if (!next_line(p, end, &n, &next))
			return HTTP_HEAD_INCOMPLETE;
		if (n == 0) {
			out->len = (size_t)(next - data);
			return HTTP_HEAD_OK;
		}
		if (!header_line(p, n, out)) {
			out->bad = "a header line is malformed";
			return HTTP_HEAD_BAD;
		}
		p = next;
	}
}

http_str http_target_path(const http_head *h)
{
	const char *q = memchr(h->target.p, '?', h->target.n);
	return (http_str){h->target.p, q ? (size_t)(q - h->target.p) : h->target.n};
}

bool http_str_is(http_str s, const char *lit)
{
	return strlen(lit) == s.n && !memcmp(s.p, lit, s.n);
}

bool http_list_has(http_str v, const char *token)
{
	size_t tl = strlen(token), i = 0;
	while (i < v.n) {
		while (i < v.n && (v.p[i] == ' ' || v.p[i] == '\t' || v.p[i] == ','))
			i++;
		size_t s = i;
		while (i < v.n && v.p[i] != ',')
			i++;
		size_t e = i;
		while (e > s && (v.p[e - 1] == ' ' || v.p[e - 1] == '\t'))
			e--;
		if (e - s == tl && !strncasecmp(v.p + s, token, tl))
			return true;
	}
	return false;
}
