/*
 * json_peek.c — see json_peek.h. A scanner over the object's members: keys
 * are compared, other values are skipped by their shape (strings with
 * their escapes, numbers and literals by their characters, nested objects
 * and arrays by depth). Any malformation ends the scan with false: the
 * full parser, if the message gets that far, says what is wrong.
 */
#include "json_peek.h"

#include <string.h>

#define ID_STRING_MAX 64
#define ID_DIGITS_MAX 16 /* 2^53 has 16 digits */

typedef struct scan {
	const char *s;
	size_t i, end;
} scan;

static void ws(scan *c)
{
	while (c->i < c->end && strchr(" \t\r\n", c->s[c->i]) && c->s[c->i])
		c->i++;
}

/* Skips a string at c->i (its opening quote); false if malformed or cut. */
static bool skip_string(scan *c, bool *escaped)
{
	*escaped = false;
	for (c->i++; c->i < c->end; c->i++) {
		char ch = c->s[c->i];
		if (ch == '"') {
			c->i++;
			return true;
		}
		if ((unsigned char)ch < ' ')
			return false;
		if (ch == '\\') {
			*escaped = true;
			c->i++;
		}
	}
	return false;
}

/* Skips any value; nested containers by depth. */
static bool skip_value(scan *c)
{
	int depth = 0;
	do {
		ws(c);
		if (c->i >= c->end)
			return false;
		char ch = c->s[c->i];
		bool esc;
		if (ch == '"') {
			if (!skip_string(c, &esc))
				return false;
		} else if (ch == '{' || ch == '[') {
			depth++;
			c->i++;
		} else if (ch == '}' || ch == ']') {
			if (depth == 0)
				return false;
			depth--;
			c->i++;
		} else if (ch == ',' || ch == ':') {
			if (depth == 0)
				return false;
			c->i++;
		} else {
			size_t start = c->i;
			while (c->i < c->end && strchr("+-.0123456789eEtrufalsn", c->s[c->i]) &&
			       c->s[c->i])
				c->i++;
			if (c->i == start)
				return false;
		}
	} while (depth > 0);
	return true;
}

static bool id_value(scan *c, size_t *at, size_t *n)
{
	size_t start = c->i;
	if (c->i < c->end && c->s[c->i] == '"') {
		bool esc;
		if (!skip_string(c, &esc) || esc || c->i - start - 2 > ID_STRING_MAX)
			return false;
	} else {
		if (c->i < c->end && c->s[c->i] == '-')
			c->i++;
		size_t d = c->i;
		while (c->i < c->end && c->s[c->i] >= '0' && c->s[c->i] <= '9')
			c->i++;
		size_t digits = c->i - d;
		if (digits == 0 || digits > ID_DIGITS_MAX || (digits > 1 && c->s[d] == '0'))
			return false;
		if (c->i < c->end && strchr(".eE", c->s[c->i]) && c->s[c->i])
			return false;
		if (digits == ID_DIGITS_MAX && memcmp(c->s + d, "9007199254740992", 16) >= 0)
			return false;
	}
	size_t vend = c->i;
	/* The value must end where a member ends, not run on. */
	ws(c);
	if (c->i >= c->end || (c->s[c->i] != ',' && c->s[c->i] != '}'))
		return false;
	*at = start;
	*n = vend - start;
	return true;
}

bool json_peek_id(const char *s, size_t len, size_t max, size_t *at, size_t *n)
{
	scan c = {s, 0, len < max ? len : max};
	ws(&c);
	if (c.i >= c.end || s[c.i] != '{')
		return false;
	c.i++;
	for (;;) {
		ws(&c);
		if (c.i >= c.end || s[c.i] != '"')
			return false;
		size_t k = c.i;
		bool esc;
		if (!skip_string(&c, &esc))
			return false;
		bool is_id = !esc && c.i - k == 4 && !memcmp(s + k, "\"id\"", 4);
		ws(&c);
		if (c.i >= c.end || s[c.i] != ':')
			return false;
		c.i++;
		ws(&c);
		if (is_id)
			return id_value(&c, at, n);
		if (!skip_value(&c))
			return false;
		ws(&c);
		if (c.i >= c.end || s[c.i] != ',')
			return false;
		c.i++;
	}
}
