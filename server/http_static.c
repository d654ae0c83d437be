/*
 * http_static.c — see http_static.h.
 *
 * One answer per connection at a time (HTTP/1.1 runs its transactions in
 * order): LWS_CALLBACK_HTTP reads the request headers into a static_reply
 * and asks for WRITEABLE; the first WRITEABLE writes the headers, the next
 * ones the body in CHUNK-sized writes (one lws_write per callback), and the
 * last completes the transaction (keep-alive). A file from a web root is read
 * on the thread pool first; the reply waits in state `loading` meanwhile and
 * is freed by whichever ends last, the read or the connection.
 */
#include <uv.h>

#include <libwebsockets.h>

#include "http_static.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/util.h"

#define CHUNK 16384
#define ETAG_MAX 48
#define HEADER_VALUE_MAX 512 /* longer If-None-Match & co. are ignored */

/* default-src 'none': everything not listed is refused. connect-src 'self'
 * covers ws:/wss: to the page's own host (CSP Level 3). No 'unsafe-inline'
 * anywhere: an injected <script> or style attribute does nothing. */
const char static_csp[] =
	"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
	"connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
	"form-action 'none'; frame-ancestors 'none'";

struct http_static {
	uv_loop_t *loop;
	char *root;             /* real path of the web root, or NULL: embedded */
	char (*etags)[ETAG_MAX]; /* embedded: one per file, from its content */
};

struct static_reply {
	struct lws *wsi;
	uv_work_t work;
	bool loading, dropped, headers_sent;
	/* the request */
	bool want_gzip;
	char inm[HEADER_VALUE_MAX];  /* If-None-Match, "" if none */
	int64_t ims;                 /* If-Modified-Since, -1 if none */
	char rel[STATIC_PATH_MAX + 1];
	char *root;                  /* web root (copied: the read outlives nothing) */
	/* the answer */
	unsigned status;
	const char *ctype;
	bool gzip;
	char etag[ETAG_MAX];
	int64_t mtime;               /* seconds */
	const unsigned char *body;
	size_t body_len, off;
	unsigned char *owned;        /* body read from a web root */
	int64_t mtime_ns;
};

/* ---- the parts ------------------------------------------------------- */

static bool safe_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

bool static_path_rel(const char *uri, size_t len, char *rel, size_t reln)
{
	if (!uri || len == 0 || uri[0] != '/' || strnlen(uri, len + 1) != len ||
	    len > STATIC_PATH_MAX)
		return false;
	const char *p = uri + 1;
	size_t out = 0;
	/* Every segment: [A-Za-z0-9._-]+, not starting with '.' (this refuses
	 * ".", ".." and hidden files); only the last may be empty (a directory:
	 * its index.html). */
	for (;;) {
		const char *seg = p;
		while (*p && *p != '/') {
			if (!safe_char(*p))
				return false;
			p++;
		}
		size_t n = (size_t)(p - seg);
		if (n > 0 && seg[0] == '.')
			return false;
		if (n == 0 && *p == '/')
			return false; /* "//" */
		if (n == 0) {
			static const char idx[] = "index.html";
			if (out + sizeof idx > reln)
				return false;
			memcpy(rel + out, idx, sizeof idx);
			return true;
		}
		if (out + n + 2 > reln)
			return false;
		memcpy(rel + out, seg, n);
		out += n;
		if (!*p) {
			rel[out] = 0;
			return true;
		}
		rel[out++] = '/';
		p++;
	}
}

const char *static_content_type(const char *rel)
{
	static const struct {
		const char *ext, *type;
	} types[] = {
		{".html", "text/html; charset=utf-8"},
		{".js", "text/javascript; charset=utf-8"},
		{".mjs", "text/javascript; charset=utf-8"},
		{".css", "text/css; charset=utf-8"},
		{".svg", "image/svg+xml"},
		{".png", "image/png"},
		{".ico", "image/x-icon"},
		{".json", "application/json"},
		{".webmanifest", "application/manifest+json"},
		{".txt", "text/plain; charset=utf-8"},
		{".md", "text/plain; charset=utf-8"},
		{".woff2", "font/woff2"},
	};
	const char *dot = strrchr(rel, '.');
	if (dot && !strchr(dot, '/'))
		for (size_t i = 0; i < ARRAY_LEN(types); i++)
			if (!strcmp(dot, types[i].ext))
				return types[i].type;
	return "application/octet-stream";
}

/* The next comma-separated element of a header list: its token (before any
 * ';', trimmed) in tok; the parameters' start in *params. */
static const char *next_element(const char *s, char *tok, size_t tokn, const char **params)
{
	while (*s == ' ' || *s == '\t' || *s == ',')
		s++;
	if (!*s)
		return NULL;
	size_t n = 0;
	while (*s && *s != ',' && *s != ';' && *s != ' ' && *s != '\t') {
		if (n + 1 < tokn)
			tok[n++] = *s;
		s++;
	}
	tok[n] = 0;
	*params = s;
	while (*s && *s != ',')
		s++;
	return s;
}

bool static_accepts_gzip(const char *ae)
{
	if (!ae)
		return false;
	char tok[32];
	const char *params;
	for (const char *s = ae; (s = next_element(s, tok, sizeof tok, &params));) {
		if (strcasecmp(tok, "gzip") != 0 && strcmp(tok, "*") != 0)
			continue;
		/* ";q=0" (or 0.0, 0.000) refuses it. */
		const char *q = params;
		while (*q == ' ' || *q == ';' || *q == '\t')
			q++;
		if ((q[0] == 'q' || q[0] == 'Q') && q[1] == '=') {
			char *end;
			double v = strtod(q + 2, &end);
			if (end != q + 2 && v <= 0)
				continue;
		}
		return true;
	}
	return false;
}

bool static_etag_listed(const char *inm, const char *etag)
{
	if (!inm || !*inm)
		return false;
	char tok[ETAG_MAX + 8];
	const char *params;
	for (const char *s = inm; (s = next_element(s, tok, sizeof tok, &params));) {
		const char *t = tok;
		if (!strcmp(t, "*"))
			return true;
		if (!strncmp(t, "W/", 2))
			t += 2;
		if (!strcmp(t, etag))
			return true;
	}
	return false;
}

int64_t static_http_date_parse(const char *s)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	const char *end = s ? strptime(s, "%a, %d %b %Y %H:%M:%S GMT", &tm) : NULL;
	if (!end || *end)
		return -1;
	return (int64_t)timegm(&tm);
}

static void http_date(int64_t t, char *out, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(out, n, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

static uint64_t fnv1a64(const unsigned char *p, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

int static_load(const char *root_real, const char *rel, unsigned char **data, size_t *len,
		int64_t *mtime_ns)
{
	*data = NULL;
	*len = 0;
	char path[PATH_MAX], real[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s", root_real, rel) >= (int)sizeof path)
		return -1;
	/* The real path must stay under the root: a symlink may point anywhere. */
	if (!realpath(path, real))
		return -1;
	size_t rl = strlen(root_real);
	if (strncmp(real, root_real, rl) != 0 || (real[rl] != '/' && rl != 1))
		return -1;
	int fd = open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)STATIC_FILE_MAX) {
		close(fd);
		return -1;
	}
	size_t size = (size_t)st.st_size;
	unsigned char *p = xmalloc(size ? size : 1);
	size_t got = 0;
	while (got < size) {
		ssize_t r = read(fd, p + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break; /* shrank meanwhile: serve what is there */
		got += (size_t)r;
	}
	close(fd);
	*data = p;
	*len = got;
	*mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	return 0;
}

/* ---- the server -------------------------------------------------------- */

http_static *http_static_new(uv_loop_t *loop, const char *web_root, char *err, size_t errlen)
{
	http_static *hs = xcalloc(1, sizeof *hs);
	hs->loop = loop;
	if (web_root && *web_root) {
		char real[PATH_MAX];
		struct stat st;
		if (!realpath(web_root, real) || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "--web-root %s: not a directory", web_root);
			free(hs);
			return NULL;
		}
		hs->root = xstrdup(real);
		log_info("http", "serving the web client from %s", hs->root);
		return hs;
	}
	hs->etags = xcalloc((size_t)(static_n_files ? static_n_files : 1), sizeof *hs->etags);
	for (int i = 0; i < static_n_files; i++)
		snprintf(hs->etags[i], ETAG_MAX, "\"%016llx\"",
			 (unsigned long long)fnv1a64(static_files[i].data, static_files[i].len));
	return hs;
}

void http_static_free(http_static *hs)
{
	if (!hs)
		return;
	free(hs->root);
	free(hs->etags);
	free(hs);
}

static void reply_free(struct static_reply *r)
{
	free(r->owned);
	free(r->root);
	free(r);
}

/* 304 when the client's copy is current: If-None-Match decides when sent,
 * else If-Modified-Since. etag_gz is the gzip form's tag. */
static bool not_modified(const struct static_reply *r, const char *etag_gz)
{
	if (r->inm[0])
		return static_etag_listed(r->inm, r->etag) || static_etag_listed(r->inm, etag_gz);
	return r->ims >= 0 && r->mtime <= r->ims;
}

/* Fills in the answer for a found file: data (+ gzip form) and its tag. */
static void answer_file(struct static_reply *r, const unsigned char *data, size_t len,
			const unsigned char *gz, size_t gz_len)
{
	r->ctype = static_content_type(r->rel);
	char etag_gz[ETAG_MAX + 4];
	snprintf(etag_gz, sizeof etag_gz, "%.*s-gz\"", (int)strlen(r->etag) - 1, r->etag);
	r->gzip = gz && r->want_gzip;
	if (not_modified(r, etag_gz)) {
		r->status = 304;
	} else {
		r->status = 200;
		r->body = r->gzip ? gz : data;
		r->body_len = r->gzip ? gz_len : len;
	}
	if (r->gzip)
		strlcpy_safe(r->etag, etag_gz, sizeof r->etag);
}

static void answer_missing(struct static_reply *r)
{
	static const char msg[] = "not found\n";
	r->status = 404;
	r->ctype = "text/plain; charset=utf-8";
	r->body = (const unsigned char *)msg;
	r->body_len = sizeof msg - 1;
}

static void load_work(uv_work_t *w)
{
	struct static_reply *r = w->data;
	if (static_load(r->root, r->rel, &r->owned, &r->body_len, &r->mtime_ns) != 0)
		r->status = 404;
}

static void load_done(uv_work_t *w, int status)
{
	struct static_reply *r = w->data;
	r->loading = false;
	if (r->dropped) {
		reply_free(r);
		return;
	}
	if (status != 0 || r->status == 404) {
		answer_missing(r);
	} else {
		size_t len = r->body_len;
		r->mtime = r->mtime_ns / 1000000000;
		snprintf(r->etag, sizeof r->etag, "\"%llx-%zx\"",
			 (unsigned long long)r->mtime_ns, len);
		answer_file(r, r->owned, len, NULL, 0);
	}
	lws_callback_on_writable(r->wsi);
}

static void header_copy(struct lws *wsi, enum lws_token_indexes tok, char *out, size_t n)
{
	out[0] = 0;
	int len = lws_hdr_total_length(wsi, tok);
	if (len <= 0 || (size_t)len >= n || lws_hdr_copy(wsi, out, (int)n, tok) < 0)
		out[0] = 0;
}

int http_static_serve(http_static *hs, struct lws *wsi, const char *uri, size_t len,
		      struct static_reply **slot)
{
	if (*slot)
		http_static_drop(slot); /* a reply still in progress: never two */
	struct static_reply *r = xcalloc(1, sizeof *r);
	r->wsi = wsi;
	r->ims = -1;
	char v[HEADER_VALUE_MAX];
	header_copy(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING, v, sizeof v);
	r->want_gzip = static_accepts_gzip(v);
	header_copy(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH, r->inm, sizeof r->inm);
	header_copy(wsi, WSI_TOKEN_HTTP_IF_MODIFIED_SINCE, v, sizeof v);
	if (v[0])
		r->ims = static_http_date_parse(v);
	*slot = r;

	if (!static_path_rel(uri, len, r->rel, sizeof r->rel)) {
		answer_missing(r);
	} else if (hs->root) {
		r->root = xstrdup(hs->root);
		r->loading = true;
		r->work.data = r;
		if (uv_queue_work(hs->loop, &r->work, load_work, load_done) != 0) {
			r->loading = false;
			answer_missing(r);
		} else {
			return 0; /* load_done asks for WRITEABLE */
		}
	} else {
		int i = 0;
		while (i < static_n_files && strcmp(static_files[i].path, r->rel) != 0)
			i++;
		if (i == static_n_files) {
			answer_missing(r);
		} else {
			const struct static_file *f = &static_files[i];
			strlcpy_safe(r->etag, hs->etags[i], sizeof r->etag);
			r->mtime = f->mtime;
			answer_file(r, f->data, f->len, f->gz, f->gz_len);
		}
	}
	lws_callback_on_writable(wsi);
	return 0;
}

static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **p,
		      unsigned char *end)
{
	return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
					   (const unsigned char *)value, (int)strlen(value), p,
					   end);
}

static int write_headers(struct lws *wsi, struct static_reply *r)
{
	unsigned char hdr[LWS_PRE + 2048];
	unsigned char *start = hdr + LWS_PRE, *p = start, *end = hdr + sizeof hdr - 1;
	bool ok;
	if (r->status == 304)
		ok = !lws_add_http_header_status(wsi, 304, &p, end);
	else
		ok = !lws_add_http_common_headers(wsi, r->status, r->ctype, r->body_len, &p, end);
	ok = ok && !add_header(wsi, "content-security-policy:", static_csp, &p, end) &&
	     !add_header(wsi, "x-content-type-options:", "nosniff", &p, end) &&
	     !add_header(wsi, "referrer-policy:", "no-referrer", &p, end) &&
	     !add_header(wsi, "cross-origin-opener-policy:", "same-origin", &p, end);
	if (ok && r->status != 404) {
		char date[64];
		http_date(r->mtime, date, sizeof date);
		/* no-cache: reuse only after asking (a 304 is cheap); the
		 * files have no versioned names, so a longer life would keep a
		 * stale client after an upgrade. */
		ok = !add_header(wsi, "etag:", r->etag, &p, end) &&
		     !add_header(wsi, "last-modified:", date, &p, end) &&
		     !add_header(wsi, "cache-control:", "no-cache", &p, end) &&
		     !add_header(wsi, "vary:", "Accept-Encoding", &p, end) &&
		     (!r->gzip || !add_header(wsi, "content-encoding:", "gzip", &p, end));
	} else if (ok) {
		ok = !add_header(wsi, "cache-control:", "no-store", &p, end);
	}
	if (!ok || lws_finalize_write_http_header(wsi, start, &p, end))
		return -1;
	return 0;
}

int http_static_writeable(struct lws *wsi, struct static_reply **slot)
{
	struct static_reply *r = *slot;
	if (!r || r->loading)
		return 0;
	if (!r->headers_sent) {
		r->headers_sent = true;
		if (write_headers(wsi, r) < 0)
			return -1;
		if (r->body_len > 0 && r->status != 304) {
			lws_callback_on_writable(wsi);
			return 0;
		}
	} else {
		static unsigned char chunk[LWS_PRE + CHUNK];
		size_t n = MIN(CHUNK, r->body_len - r->off);
		bool last = r->off + n == r->body_len;
		memcpy(chunk + LWS_PRE, r->body + r->off, n);
		if (lws_write(wsi, chunk + LWS_PRE, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) <
		    (int)n)
			return -1;
		r->off += n;
		if (!last) {
			lws_callback_on_writable(wsi);
			return 0;
		}
	}
	reply_free(r);
	*slot = NULL;
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

void http_static_drop(struct static_reply **slot)
{
	struct static_reply *r = *slot;
	if (!r)
		return;
	*slot = NULL;
	if (r->loading)
		r->dropped = true; /* load_done frees it */
	else
		reply_free(r);
}
