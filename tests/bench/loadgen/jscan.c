/*
 * jscan.c — see jscan.h.
 */
#include "jscan.h"

#include <string.h>

static size_t skip_ws(const char *s, size_t i, size_t n)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/* s[i] is '"': the index just past the closing quote (n if none). */
static size_t skip_string(const char *s, size_t i, size_t n)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return n;
}

/* The index just past the value starting at s[i]. */
static size_t skip_value(const char *s, size_t i, size_t n)
{
	if (i >= n)
		return n;
	if (s[i] == '"')
		return skip_string(s, i, n);
	if (s[i] == '{' || s[i] == '[') {
		int depth = 0;
		while (i < n) {
			char c = s[i];
			if (c == '"') {
				i = skip_string(s, i, n);
				continue;
			}
			if (c == '{' || c == '[')
				depth++;
			else if ((c == '}' || c == ']') && --depth == 0)
				return i + 1;
			i++;
		}
		return n;
	}
	while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n')
		i++;
	return i;
}

int lg_jscan(const char *js, size_t len, const char *const *keys, int nkeys, lg_jspan *out)
{
	for (int k = 0; k < nkeys; k++)
		out[k] = (lg_jspan){0};
	size_t i = skip_ws(js, 0, len);
	if (i >= len || js[i] != '{')
		return 0;
	int found = 0;
	i++;
	while (found < nkeys) {
		i = skip_ws(js, i, len);
		if (i >= len || js[i] != '"')
			break;
		size_t ks = i + 1, ke = skip_string(js, i, len) - 1;
		i = skip_ws(js, ke + 1, len);
		if (i >= len || js[i] != ':')
			break;
		i = skip_ws(js, i + 1, len);
		size_t vs = i;
		i = skip_value(js, i, len);
		for (int k = 0; k < nkeys; k++) {
			size_t kl = strlen(keys[k]);
			if (!out[k].p && kl == ke - ks && memcmp(js + ks, keys[k], kl) == 0) {
				out[k] = (lg_jspan){js + vs, i - vs};
				found++;
				break;
			}
		}
		i = skip_ws(js, i, len);
		if (i >= len || js[i] != ',')
			break;
		i++;
	}
	return found;
}

bool lg_jint(lg_jspan v, int64_t *out)
{
	if (!v.p || !v.n)
		return false;
	size_t i = 0;
	bool neg = v.p[0] == '-';
	if (neg)
		i++;
	if (i >= v.n)
		return false;
	int64_t x = 0;
	for (; i < v.n; i++) {
		if (v.p[i] < '0' || v.p[i] > '9' || x > (INT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (v.p[i] - '0');
	}
	*out = neg ? -x : x;
	return true;
}

bool lg_jstr(lg_jspan v, char *out, size_t cap)
{
	if (!v.p || v.n < 2 || v.p[0] != '"' || v.p[v.n - 1] != '"' || v.n - 2 >= cap ||
	    memchr(v.p, '\\', v.n))
		return false;
	memcpy(out, v.p + 1, v.n - 2);
	out[v.n - 2] = 0;
	return true;
}

bool lg_jarray_next(lg_jspan arr, size_t *pos, lg_jspan *elem)
{
	if (!arr.p || arr.n < 2 || arr.p[0] != '[')
		return false;
	size_t i = *pos ? *pos : 1, n = arr.n - 1; /* up to the closing bracket */
	i = skip_ws(arr.p, i, n);
	if (i < n && arr.p[i] == ',')
		i = skip_ws(arr.p, i + 1, n);
	if (i >= n)
		return false;
	size_t e = skip_value(arr.p, i, n);
	if (e == i)
		return false;
	*elem = (lg_jspan){arr.p + i, e - i};
	*pos = e;
	return true;
}
