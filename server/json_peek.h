/*
 * json_peek.h — the `id` of a request found without parsing it: a message
 * dropped by the rate limit is answered with its id (PROTOCOL.md §2) at the
 * cost of a bounded scan, not of the full parse the limit exists to spare.
 */
#ifndef LAIR_JSON_PEEK_H
#define LAIR_JSON_PEEK_H

#include <stdbool.h>
#include <stddef.h>

/* Scans the first max bytes of the JSON text s (len bytes) for the
 * top-level member "id" of an object. True when it is found there and is
 * an id the protocol accepts as one: an integer written without fraction or
 * exponent, |id| < 2^53, or a string of at most 64 bytes without escapes.
 * *at and *n then span its JSON text as written ("12", "\"a-1\""), ready
 * to be echoed. Builds nothing, allocates nothing. */
bool json_peek_id(const char *s, size_t len, size_t max, size_t *at, size_t *n);

#endif
