/*
 * util.h — small helpers both programs need: checked allocation, a growable
 * byte buffer (and reading a whole small file into one), a file's directory
 * made, and bounded string copies.
 *
 * Allocation failure is not a recoverable condition for lair (a server that
 * cannot allocate a few bytes cannot report it either), so the x* functions
 * abort() with a message instead of returning NULL.
 */
#ifndef LAIR_UTIL_H
#define LAIR_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
/* <sys/param.h> (pulled in by uv.h) defines the same two macros. */
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A heap copy of n bytes at p (e.g. a parsed struct handed to its owner). */
void *xmemdup(const void *p, size_t n);

/* Growable byte buffer; always NUL-terminated after any append. The caller
 * owns data and releases it with buf_free. */
typedef struct buf {
	char *data;
	size_t len, cap;
} buf;

void buf_reserve(buf *b, size_t extra);
void buf_append(buf *b, const void *p, size_t n);
void buf_puts(buf *b, const char *s);
void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_clear(buf *b);
void buf_free(buf *b);

/* Appends the whole file at path to b, refusing files larger than max bytes
 * (config files and the like: a blocking read, never on the event loop).
 * 0, or -1 with "PATH: reason" in err; b may then hold part of the file. */
int buf_read_file(buf *b, const char *path, size_t max, char *err, size_t errlen);

/* Creates the directory holding the file at path (one level, mode 0750; e.g.
 * ./var for ./var/lair.db): 1 when it made it, 0 when it existed (or path
 * has no directory part), -1 with "cannot create DIR: reason" in err. */
int mkdir_parent(const char *path, char *err, size_t errlen);

/* Tables of names indexed by an enum (the words of the protocol):
 * names[i] when 0 <= i < n and it is set, else "?"; and the index of key
 * in names[0..n), or -1 (also for a NULL key). */
const char *name_at(const char *const *names, int n, int i);
int name_index(const char *const *names, int n, const char *key);

/* Copies at most size-1 bytes and always terminates; returns strlen(src).
 * A cut never splits a UTF-8 character: text copied from a client is often
 * echoed back in a message, and a WebSocket text frame must be valid UTF-8. */
size_t strlcpy_safe(char *dst, const char *src, size_t size);

/* The length of the longest prefix of s, at most max bytes, that ends on a
 * UTF-8 character boundary (for "%.*s" of text that may be cut). */
size_t utf8_prefix(const char *s, size_t max);

/* Monotonic time in milliseconds and nanoseconds (for benchmarks and lag). */
uint64_t now_ms(void);
uint64_t now_ns(void);

#endif
