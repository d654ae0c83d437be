/*
 * http_static.h — the browser client's files at `/` on laird's one port.
 *
 * The files of web/ are embedded in laird at build time (web/embed.sh writes
 * them, and their gzip forms, into $(BUILD)/gen/web_files.c), so an installed
 * laird needs no web directory. With --web-root DIR laird serves that
 * directory instead (development, or an operator's own client); its files are
 * read on libuv's thread pool, never on the event loop.
 *
 * Every answer carries a strict Content-Security-Policy (scripts, styles and
 * connections only from the page's own origin, no inline script), an ETag and
 * Last-Modified (a matching If-None-Match / If-Modified-Since gets 304), and
 * the gzip form when the client accepts it and it is smaller (embedded files
 * only). A path that is not plainly a file under the root — "..", ".", hidden
 * names, percent-escapes lws left, NUL, backslashes, anything outside
 * [A-Za-z0-9._-/], longer than STATIC_PATH_MAX, or (web root) a symlink that
 * leads outside it — is answered 404 like a missing file.
 *
 * net.c calls the three hooks below from its lws callback; everything runs on
 * the loop thread except static_load, which the thread pool runs.
 */
#ifndef LAIR_HTTP_STATIC_H
#define LAIR_HTTP_STATIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#define STATIC_PATH_MAX 200          /* longest path served, bytes */
#define STATIC_FILE_MAX (8u << 20)   /* largest file served from a web root */

/* One embedded file (the generated web_files.c holds the table). */
struct static_file {
	const char *path;              /* "index.html", "js/main.js": no leading '/' */
	const unsigned char *data;
	size_t len;
	const unsigned char *gz;       /* gzip form, or NULL when it is not smaller */
	size_t gz_len;
	int64_t mtime;                 /* Unix seconds: Last-Modified */
};
extern const struct static_file static_files[];
extern const int static_n_files;

typedef struct http_static http_static;
struct static_reply;               /* one HTTP answer in progress (per connection) */
struct lws;

/* web_root NULL or "": the embedded files; else that directory (it must
 * exist; its real path is taken once here). NULL with err on failure. */
http_static *http_static_new(uv_loop_t *loop, const char *web_root, char *err,
			     size_t errlen);
void http_static_free(http_static *hs);

/* LWS_CALLBACK_HTTP for a path net does not serve itself: uri and its
 * length as lws passed them. *slot is the connection's reply state (NULL
 * when idle); the answer is written from http_static_writeable. Returns
 * what the lws callback returns (0, or -1 to close). */
int http_static_serve(http_static *hs, struct lws *wsi, const char *uri, size_t len,
		      struct static_reply **slot);

/* LWS_CALLBACK_HTTP_WRITEABLE with *slot set: headers, then the body in
 * chunks. Returns what the lws callback returns. */
int http_static_writeable(struct lws *wsi, struct static_reply **slot);

/* The connection is gone (LWS_CALLBACK_WSI_DESTROY): frees *slot; a file
 * still being read is dropped when the read ends. */
void http_static_drop(struct static_reply **slot);

/* ---- the parts, for tests ---- */

/* The file a request path names, relative to the root ("/" and "/x/" name
 * their index.html), in rel; false when the path is not plainly a file
 * under the root (see the top of this file). len is the path's length as
 * received: a NUL inside it is refused. */
bool static_path_rel(const char *uri, size_t len, char *rel, size_t reln);

/* The Content-Type for a file name, by its extension. */
const char *static_content_type(const char *rel);

/* True when an Accept-Encoding value accepts gzip (q > 0). */
bool static_accepts_gzip(const char *accept_encoding);

/* True when an If-None-Match value lists etag (or is "*"); W/ ignored. */
bool static_etag_listed(const char *if_none_match, const char *etag);

/* An HTTP date (IMF-fixdate) as Unix seconds; -1 when it is not one. */
int64_t static_http_date_parse(const char *s);

/* A file read from a web root: the blocking part, run on the thread pool.
 * root_real is the root's real path. 0 and *data (malloc'ed) / *len /
 * *mtime_ns, or -1 when it is missing, not a regular file, too large, or
 * resolves outside the root. */
int static_load(const char *root_real, const char *rel, unsigned char **data, size_t *len,
		int64_t *mtime_ns);

/* The Content-Security-Policy every answer carries. */
extern const char static_csp[];

#endif
