/*
 * util.c — see util.h.
 */
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void oom(size_t n)
{
	fprintf(stderr, "lair: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		oom(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xmalloc(n);
	memcpy(d, s, n);
	return d;
}

void *xmemdup(const void *p, size_t n)
{
	void *d = xmalloc(n);
	memcpy(d, p, n);
	return d;
}

void buf_reserve(buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void buf_append(buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_puts(buf *b, const char *s) { buf_append(b, s, strlen(s)); }

void buf_printf(buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void buf_clear(buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void buf_free(buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

int buf_read_file(buf *b, const char *path, size_t max, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char chunk[4096];
	size_t got, total = 0;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0 && total <= max) {
		buf_append(b, chunk, got);
		total += got;
	}
	int read_err = ferror(f);
	fclose(f);
	if (read_err || total > max) {
		if (read_err)
			snprintf(err, errlen, "%s: read error", path);
		else
			snprintf(err, errlen, "%s: larger than %zu bytes", path, max);
		return -1;
	}
	return 0;
}

int mkdir_parent(const char *path, char *err, size_t errlen)
{
	char dir[4096];
	if (strlen(path) >= sizeof dir) {
		snprintf(err, errlen, "path too long: %.100s...", path);
		return -1;
	}
	strcpy(dir, path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = 0;
	if (mkdir(dir, 0750) == 0)
		return 1;
	if (errno == EEXIST)
		return 0;
	snprintf(err, errlen, "cannot create %.400s: %s", dir, strerror(errno));
	return -1;
}

const char *name_at(const char *const *names, int n, int i)
{
	return i >= 0 && i < n && names[i] ? names[i] : "?";
}

int name_index(const char *const *names, int n, const char *key)
{
	for (int i = 0; key && i < n; i++)
		if (names[i] && strcmp(names[i], key) == 0)
			return i;
	return -1;
}

size_t strlcpy_safe(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);
	if (size) {
		size_t c = utf8_prefix(src, n < size - 1 ? n : size - 1);
		memcpy(dst, src, c);
		dst[c] = '\0';
	}
	return n;
}

static bool utf8_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

size_t utf8_prefix(const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strnlen(s, max);
	if (n < max || u[n] == '\0' || !utf8_continuation(u[n]))
		return n; /* the whole string, or the cut falls before a lead byte */
	while (n > 0 && utf8_continuation(u[n]))
		n--; /* back off to the lead byte of the character being cut */
	return n;
}

uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t now_ms(void) { return now_ns() / 1000000ULL; }
