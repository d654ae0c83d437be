/*
 * fuzz_http.c — the HTTP header fuzz target (fuzz.h): any bytes as what a
 * browser or anyone sends laird's HTTP side before a WebSocket exists: the
 * request path of a static file (server/http_static.h), its Accept-Encoding,
 * If-None-Match and If-Modified-Since headers, and the Origin and Host of a
 * WebSocket upgrade against an allowed_origins setting (server/origin.h).
 *
 * Byte layout: up to eight fields separated by NUL bytes, in the order
 * path, Accept-Encoding, If-None-Match, an ETag, If-Modified-Since, Origin,
 * Host, allowed_origins; a missing field is absent (NULL) where the API
 * takes NULL, else empty. Each field is NUL-terminated, as lws hands them.
 *
 * Invariants: a path is served only as a plain file under the root — the
 * name it maps to is the path without its leading '/' (plus index.html
 * for a directory), made of [A-Za-z0-9._-] segments none of which starts
 * with '.', so no "..", no hidden file, no absolute path; it has a content
 * type. An ETag of the server's form is listed by an If-None-Match of "*",
 * of itself, of W/ itself, and of any list that ends with it. Origins:
 * a request without one (not a browser) and any origin under "*" pass; a
 * valid allowed list admits each origin it names, whatever the letter
 * case, and the answer never depends on the case of the Origin.
 */
#include "fuzz.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "../../server/http_static.h"
#include "../../server/origin.h"

enum { F_PATH, F_ACCEPT, F_INM, F_ETAG, F_DATE, F_ORIGIN, F_HOST, F_ALLOWED, N_FIELDS };

static bool plain_name(const char *rel)
{
	if (!*rel || *rel == '/')
		return false;
	for (const char *seg = rel; *seg;) {
		size_t n = strspn(seg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "0123456789._-");
		if (n == 0 || seg[0] == '.' || (seg[n] && seg[n] != '/'))
			return false;
		seg += n + (seg[n] == '/');
	}
	return true;
}

static void check_path(const char *path, size_t len)
{
	char rel[512];
	memset(rel, 'x', sizeof rel);
	if (!static_path_rel(path, len, rel, sizeof rel))
		return;
	FUZZ_CHECK(memchr(rel, 0, sizeof rel), "an accepted path's file name is unterminated");
	FUZZ_CHECK(plain_name(rel), "path '%.200s' maps to '%.200s'", path, rel);
	/* Exactly the path, less its '/', a directory naming its index. */
	size_t n = strlen(rel);
	bool dir = path[len - 1] == '/';
	size_t want = len - 1 + (dir ? strlen("index.html") : 0);
	FUZZ_CHECK(n == want && !memcmp(rel, path + 1, len - 1) &&
		   (!dir || !strcmp(rel + len - 1, "index.html")),
		   "path '%.200s' maps to '%.200s'", path, rel);
	FUZZ_CHECK(static_content_type(rel), "no content type for '%.200s'", rel);
}

/* If-None-Match against an ETag of the server's form ("hex" or "hex-hex",
 * quoted; the field's hex digits and dashes make one). */
static void check_etag(const char *inm, const char *field)
{
	static_etag_listed(inm, field);
	size_t n = strlen(field);
	if (n == 0 || n > 32 || strspn(field, "0123456789abcdef-") != n)
		return;
	char etag[40], list[4096 + 48];
	snprintf(etag, sizeof etag, "\"%s\"", field);
	FUZZ_CHECK(static_etag_listed(etag, etag) && static_etag_listed("*", etag),
		   "ETag %s not found in itself or in *", etag);
	snprintf(list, sizeof list, "W/%s", etag);
	FUZZ_CHECK(static_etag_listed(list, etag), "ETag %s not found in W/ itself", etag);
	if (strlen(inm) < 4096) {
		snprintf(list, sizeof list, "%s, %s", inm, etag);
		FUZZ_CHECK(static_etag_listed(list, etag), "ETag %s not found at the end of "
			   "'%.200s'", etag, list);
	}
}

static void upper(char *dst, const char *src, size_t size)
{
	strlcpy_safe(dst, src, size);
	for (char *p = dst; *p; p++)
		*p = (char)toupper((unsigned char)*p);
}

static void check_origin(const char *origin, const char *host, const char *allowed)
{
	FUZZ_CHECK(origin_allowed(NULL, host, allowed), "a request without Origin refused");
	FUZZ_CHECK(origin_allowed(origin, host, "*"), "an origin refused under \"*\"");
	bool ok = origin_allowed(origin, host, allowed);
	if (origin) {
		char up[512];
		upper(up, origin, sizeof up);
		if (strlen(origin) < sizeof up)
			FUZZ_CHECK(origin_allowed(up, host, allowed) == ok, "Origin '%.200s': the "
				   "answer depends on letter case", origin);
	}
	char err[256] = "";
	if (!allowed || !origin_list_valid(allowed, err, sizeof err))
		return;
	/* Each origin a valid list names is admitted, in any case. */
	for (const char *p = allowed; *p;) {
		while (*p == ',' || *p == ' ')
			p++;
		size_t n = strcspn(p, ", ");
		if (n && n < 256) {
			char item[256], up[256];
			memcpy(item, p, n);
			item[n] = 0;
			upper(up, item, sizeof up);
			FUZZ_CHECK(origin_allowed(item, host, allowed) &&
				   origin_allowed(up, host, allowed),
				   "'%s' is listed in '%.200s' but refused", item, allowed);
		}
		p += n;
	}
}

int fuzz_http_one(const uint8_t *data, size_t size)
{
	/* The fields, each a NUL-terminated copy (lws hands headers so). */
	char *copy = xmalloc(size + 1);
	memcpy(copy, data, size);
	copy[size] = 0;
	const char *f[N_FIELDS] = {0};
	size_t len[N_FIELDS] = {0};
	char *p = copy, *end = copy + size;
	for (int i = 0; i < N_FIELDS && p <= end; i++) {
		f[i] = p;
		len[i] = strlen(p);
		p += len[i] + 1;
	}
	if (f[F_PATH])
		check_path(f[F_PATH], len[F_PATH]);
	static_accepts_gzip(f[F_ACCEPT] ? f[F_ACCEPT] : "");
	if (f[F_INM] && f[F_ETAG])
		check_etag(f[F_INM], f[F_ETAG]);
	static_http_date_parse(f[F_DATE] ? f[F_DATE] : "");
	check_origin(f[F_ORIGIN], f[F_HOST], f[F_ALLOWED]);
	free(copy);
	return 0;
}

FUZZ_ENTRY(fuzz_http_one)
