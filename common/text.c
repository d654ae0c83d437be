/*
 * text.c — plain-text checks and terminal-safe escaping of untrusted
 * strings (see text.h for the list of characters that are not plain).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

/* Decodes one UTF-8 character at s (strict: no overlongs, no surrogates, at
 * most U+10FFFF). Returns its length and sets *cp, or 0 when invalid. */
static size_t utf8_next(const unsigned char *s, unsigned *cp)
{
	unsigned c = s[0];
	size_t n;
	unsigned min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		n = 2, min = 0x80, c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, min = 0x800, c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, min = 0x10000, c &= 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also stops at the NUL */
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
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
		size_t n = utf8_next(p, &c);
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
		size_t n = utf8_next(p, &c);
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

char *text_json_safe(const char *json)
{
	const unsigned char *p = (const unsigned char *)json;
	buf b = {0};
	bool in_str = false;
	while (*p) {
		unsigned c;
		size_t n = utf8_next(p, &c);
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
