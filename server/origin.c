/*
 * origin.c — see origin.h. Origins are compared in a normal form:
 * lower case, "scheme://host[:port]" with the scheme's default port
 * dropped.
 */
#include "origin.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define ORIGIN_MAX 256

/* The normal form of s[0..n) as an origin, in out; false if it is not one
 * (scheme other than http/https, no host, a path, user info, spaces). */
static bool normalize(const char *s, size_t n, char *out, size_t outn)
{
	if (n + 1 > outn || n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c <= ' ' || c >= 127)
			return false;
		out[i] = (char)tolower(c);
	}
	out[n] = 0;
	const char *hp;
	const char *dflt;
	if (!strncmp(out, "http://", 7)) {
		hp = out + 7;
		dflt = ":80";
	} else if (!strncmp(out, "https://", 8)) {
		hp = out + 8;
		dflt = ":443";
	} else {
		return false;
	}
	if (!*hp || *hp == ':' || strpbrk(hp, "/@?#\\"))
		return false;
	size_t hl = strlen(hp), dl = strlen(dflt);
	if (hl > dl && !strcmp(hp + hl - dl, dflt))
		out[(size_t)(hp - out) + hl - dl] = 0;
	return true;
}

/* The same origin as the Host the browser used, over scheme. */
static bool same_as_host(const char *norm_origin, const char *host)
{
	const char *hp = strstr(norm_origin, "://") + 3;
	char own[ORIGIN_MAX];
	int n = snprintf(own, sizeof own, "%.*s%s", (int)(hp - norm_origin), norm_origin,
			 host);
	if (n < 0 || (size_t)n >= sizeof own)
		return false;
	char own_norm[ORIGIN_MAX];
	return normalize(own, (size_t)n, own_norm, sizeof own_norm) &&
	       !strcmp(own_norm, norm_origin);
}

bool origin_allowed(const char *origin, const char *host, const char *allowed)
{
	if (!origin)
		return true; /* not a browser */
	if (allowed && !strcmp(allowed, "*"))
		return true;
	char norm[ORIGIN_MAX];
	if (!normalize(origin, strlen(origin), norm, sizeof norm))
		return false; /* "null" (a sandboxed or file: page) and garbage */
	if (!allowed || !*allowed)
		return host && *host && same_as_host(norm, host);
	for (const char *p = allowed; *p;) {
		while (*p == ',' || *p == ' ')
			p++;
		size_t n = strcspn(p, ", ");
		char item[ORIGIN_MAX];
		if (n && normalize(p, n, item, sizeof item) && !strcmp(item, norm))
			return true;
		p += n;
	}
	return false;
}

bool origin_list_valid(const char *allowed, char *err, size_t errlen)
{
	if (!allowed || !*allowed || !strcmp(allowed, "*"))
		return true;
	for (const char *p = allowed; *p;) {
		while (*p == ',' || *p == ' ')
			p++;
		size_t n = strcspn(p, ", ");
		char item[ORIGIN_MAX];
		if (n && !normalize(p, n, item, sizeof item)) {
			snprintf(err, errlen, "allowed_origins: \"%.*s\" is not an origin like "
				 "https://lair.example.org", (int)(n > 80 ? 80 : n), p);
			return false;
		}
		p += n;
	}
	return true;
}
