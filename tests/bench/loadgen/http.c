/*
 * http.c — see http.h. HTTP/1.1 with "Connection: close": the body is
 * everything after the headers until the server closes.
 */
#include "http.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct get {
	uv_tcp_t tcp;
	uv_connect_t conn;
	uv_write_t wr;
	char req[256];
	buf *out;
	bool done, closed, failed;
} get;

static void on_closed(uv_handle_t *h)
{
	get *g = h->data;
	g->closed = true;
}

static void finish(get *g, bool failed, const char *why)
{
	if (g->done)
		return;
	g->done = true;
	g->failed = failed;
	if (failed) {
		buf_clear(g->out);
		buf_puts(g->out, why);
	}
	uv_close((uv_handle_t *)&g->tcp, on_closed);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
	(void)h, (void)suggested;
	static char chunk[16384];
	*b = uv_buf_init(chunk, sizeof chunk);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	get *g = s->data;
	if (n > 0) {
		buf_append(g->out, b->base, (size_t)n);
		return;
	}
	if (n == 0)
		return;
	if (n != UV_EOF) {
		finish(g, true, uv_strerror((int)n));
		return;
	}
	char *body = g->out->data ? strstr(g->out->data, "\r\n\r\n") : NULL;
	if (!body || strncmp(g->out->data, "HTTP/1.1 200", 12) != 0) {
		finish(g, true, "not a 200 reply");
		return;
	}
	size_t skip = (size_t)(body + 4 - g->out->data);
	memmove(g->out->data, g->out->data + skip, g->out->len - skip + 1);
	g->out->len -= skip;
	finish(g, false, NULL);
}

static void on_written(uv_write_t *w, int status)
{
	get *g = w->data;
	if (status != 0)
		finish(g, true, uv_strerror(status));
}

static void on_connect(uv_connect_t *c, int status)
{
	get *g = c->data;
	if (status != 0) {
		if (status != UV_ECANCELED)
			finish(g, true, uv_strerror(status));
		return;
	}
	uv_buf_t b = uv_buf_init(g->req, (unsigned)strlen(g->req));
	g->wr.data = g;
	if (uv_write(&g->wr, (uv_stream_t *)&g->tcp, &b, 1, on_written) != 0 ||
	    uv_read_start((uv_stream_t *)&g->tcp, on_alloc, on_read) != 0)
		finish(g, true, "write failed");
}

static bool is_done(void *ud) { return ((get *)ud)->done; }
static bool is_closed(void *ud) { return ((get *)ud)->closed; }

int lg_http_get(lg_ctx *ctx, const char *path, double seconds, buf *out)
{
	get *g = xcalloc(1, sizeof *g);
	g->out = out;
	buf_clear(out);
	snprintf(g->req, sizeof g->req,
		 "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, ctx->host);
	uv_tcp_init(ctx->loop, &g->tcp);
	g->tcp.data = g->conn.data = g;
	if (uv_tcp_connect(&g->conn, &g->tcp, (const struct sockaddr *)&ctx->dst, on_connect) != 0)
		finish(g, true, "connect failed");
	if (!lg_run_until(ctx, is_done, g, seconds))
		finish(g, true, "timed out");
	lg_run_until(ctx, is_closed, g, 5);
	int rc = g->failed ? -1 : 0;
	free(g);
	return rc;
}

double lg_metric(const char *text, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, name, nl) != 0 || (p[nl] != ' ' && p[nl] != '{'))
			continue;
		const char *v = p + nl;
		if (*v == '{') {
			v = strchr(v, '}');
			if (!v)
				return NAN;
			v++;
		}
		return strtod(v, NULL);
	}
	return NAN;
}

bool lg_histogram(const char *text, const char *name, lg_hist *h)
{
	memset(h, 0, sizeof *h);
	char bucket[128], key[160];
	snprintf(bucket, sizeof bucket, "%s_bucket{le=\"", name);
	size_t bl = strlen(bucket);
	for (const char *p = strstr(text, bucket); p && h->n < LG_HIST_MAX; p = strstr(p + 1, bucket)) {
		if (p != text && p[-1] != '\n')
			continue;
		const char *v = p + bl;
		h->le[h->n] = strncmp(v, "+Inf", 4) == 0 ? INFINITY : strtod(v, NULL);
		const char *close = strstr(v, "} ");
		if (!close)
			return false;
		h->cum[h->n++] = strtod(close + 2, NULL);
	}
	snprintf(key, sizeof key, "%s_sum", name);
	h->sum = lg_metric(text, key);
	snprintf(key, sizeof key, "%s_count", name);
	h->count = lg_metric(text, key);
	return h->n > 0 && !isnan(h->count);
}

double lg_hist_quantile(const lg_hist *a, const lg_hist *b, double q)
{
	if (a->n != b->n || !b->n)
		return NAN;
	double total = b->cum[b->n - 1] - a->cum[a->n - 1];
	if (total <= 0)
		return NAN;
	double rank = q * total, below = 0, lower = 0;
	for (int i = 0; i < b->n; i++) {
		double cum = b->cum[i] - a->cum[i];
		if (cum >= rank) {
			if (isinf(b->le[i])) /* beyond the last bound: that bound */
				return lower;
			double in = cum - below;
			return in > 0 ? lower + (b->le[i] - lower) * (rank - below) / in : b->le[i];
		}
		below = cum;
		lower = b->le[i];
	}
	return lower;
}
