/*
 * jscan.h — reads the few fields a load-generating bot needs from a server
 * message without building a tree: the top-level members of a JSON object
 * are walked once, nested values skipped (strings, escapes and brackets
 * respected), and the wanted ones returned as spans of the text. A bot
 * reads every message it gets (a reveal is a few KB of which it needs two
 * numbers), so this keeps the bots' CPU a small fraction of the server's.
 *
 * It trusts the text to be JSON (the server's); on text that is not, it
 * finds less, never reads outside the span it was given.
 */
#ifndef LAIR_LG_JSCAN_H
#define LAIR_LG_JSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lg_jspan {
	const char *p; /* NULL: absent */
	size_t n;
} lg_jspan;

/* Finds the top-level members keys[0..n) of the object in js[0..len) into
 * out[0..n) (absent ones get p NULL); returns how many were found. Keys
 * are matched as written (no escapes in the wanted keys). */
int lg_jscan(const char *js, size_t len, const char *const *keys, int n, lg_jspan *out);

/* The value as an integer (true), if it is one. */
bool lg_jint(lg_jspan v, int64_t *out);
/* The value as a string without escapes into out (true), if it is one and
 * fits. */
bool lg_jstr(lg_jspan v, char *out, size_t cap);
/* Walks the elements of an array value: *pos starts at 0; each call gives
 * the next element and returns true, false at the end. */
bool lg_jarray_next(lg_jspan arr, size_t *pos, lg_jspan *elem);

#endif
