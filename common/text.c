/*
 * text.c — plain-text checks and terminal-safe escaping of untrusted
 * strings (see text.h for the list of characters that are not plain).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

/* The one UTF-8 decoder: the character at s, strictly (RFC 3629: no
 * overlongs, no surrogates, nothing above U+10FFFF). Returns its length
 * and sets *cp, or 0 when it is not one. *cut (may be NULL) says the bytes
 * are a valid start that the end of the string cuts short (what a
 * byte-count cut leaves). */
static size_t utf8_next(const unsigned char *s, unsigned *cp, bool *cut)
{
	unsigned c = s[0];
	if (cut)
		*cut = false;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
		 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (!n)
		return 0;
	/* The second byte's bounds rule out overlongs (E0, F0), surrogates
	 * (ED) and what lies above U+10FFFF (F4). */
	unsigned lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
	unsigned hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
	c &= n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07;
	for (size_t i = 1; i < n; i++) {
		if (s[i] == '\0') {
			if (cut)
				*cut = true;
			return 0;
		}
		if (i == 1 ? s[i] < lo || s[i] > hi : (s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	*cp = c;
	return n;
}

/* The characters text.h calls not plain. */
static bool hidden(unsigned c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0xad || c == 0x61c ||
	       (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) ||
	       (c >= 0x2060 && c <= 0x2064) || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff ||
	       c == 0xfffe || c == 0xffff;
}

bool text_plain(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c;
		size_t n = utf8_next(p, &c, NULL);
		if (!n || hidden(c))
			return false;
		p += n;
	}
	return true;
}

size_t text_escape(char *out, size_t cap, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = 0;
	if (!cap)
		return 0;
	while (*p) {
		unsigned c;
		size_t n = utf8_next(p, &c, NULL);
		char esc[16];
		const char *piece = esc;
		size_t k;
		if (!n) {
			k = (size_t)snprintf(esc, sizeof esc, "\\x%02x", *p);
			n = 1;
		} else if (c < 0x80 && hidden(c)) {
			k = (size_t)snprintf(esc, sizeof esc, "\\x%02x", c);
		} else if (hidden(c)) {
			k = (size_t)snprintf(esc, sizeof esc, "\\u{%04X}", c);
		} else if (c == '\\') {
			piece = "\\\\", k = 2;
		} else {
			piece = (const char *)p, k = n;
		}
		if (len + k >= cap)
			break; /* cut at a whole piece */
		memcpy(out + len, piece, k);
		len += k;
		p += n;
	}
	out[len] = '\0';
	return len;
}

char *text_escaped(const char *s)
{
	/* the longest escape, \u{XXXX} (8 bytes), stands for at least 2 bytes;
	 * \xNN (4) for 1 */
	size_t cap = strlen(s) * 4 + 1;
	char *out = xmalloc(cap);
	text_escape(out, cap, s);
	return out;
}

void text_scrub(char *s)
{
	unsigned char *r = (unsigned char *)s, *w = r;
	while (*r) {
		bool cut;
		unsigned c;
		size_t len = utf8_next(r, &c, &cut);
		if (cut)
			break; /* a character cut by a bounded copy: drop it */
		if (len == 0 || c < 0x20 || c == 0x7f) {
			*w++ = '?'; /* a stray byte or a control character */
			r++;
			continue;
		}
		memmove(w, r, len);
		w += len;
		r += len;
	}
	*w = '\0';
}

char *text_json_safe(const char *json)
{
	const unsigned char *p = (const unsigned char *)json;
	buf b = {0};
	bool in_str = false;
	while (*p) {
		unsigned c;
		size_t n = utf8_next(p, &c, NULL);
		if (!in_str || (n && !hidden(c))) {
			if (!n)
				n = 1; /* outside strings cJSON writes ASCII only */
			if (*p == '"')
				in_str = !in_str;
			else if (*p == '\\' && in_str && p[1])
				n = 2; /* an escape: its second byte is not a quote */
			buf_append(&b, p, n);
		} else {
			buf_printf(&b, "\\u%04x", n ? c : 0xfffd);
			if (!n)
				n = 1;
		}
		p += n;
	}
	if (!b.data)
		buf_append(&b, "", 0);
	return b.data;
}
