/*
 * json_out.h — a fast compact printer for cJSON trees.
 *
 * cJSON_PrintUnformatted formats every number with sprintf("%1.15g") and
 * checks it back with sscanf, which makes numbers the dominant cost of
 * printing game views (a reveal holds hundreds of them, printed once per
 * viewer). This printer writes integers (|v| < 2^53) digit by digit.
 *
 * All but numbers is byte for byte what cJSON_PrintUnformatted writes (the
 * same key order, the same string escapes). A number reads back to the
 * very same double, but its text may differ from cJSON's, which only reads
 * back nearly: integers from 1e15 to 2^53 are written in digits (cJSON:
 * 1e+15), and any other number in 15 significant digits when they read
 * back exactly, else 17 (cJSON keeps 15 when they read back within its
 * tolerance: 0.1 + 0.2 is 0.30000000000000004 here and 0.3 there, the
 * largest double 1.7976931348623157e+308 here and 1.79769313486232e+308,
 * which reads back as infinity, there). NaN and the infinities are null and
 * -0 is -0, as in cJSON. test_proto.c pins each of these.
 *
 * Memory: the returned string is malloc'd; the caller frees it.
 *
 * Hot messages are also written as text directly, without a tree (the
 * table's updates: json_put_*): the caller writes the braces, commas and
 * keys, these write one value each exactly as json_print would.
 */
#ifndef LAIR_JSON_OUT_H
#define LAIR_JSON_OUT_H

#include <stddef.h>

#include <cJSON.h>

#include "../common/util.h"

/* Compact JSON text of item; *len (may be NULL) gets its length. */
char *json_print(const cJSON *item, size_t *len);

/* One value appended to b: a tree (NULL: null), a string (escaped and
 * quoted), an integer. */
void json_put_item(buf *b, const cJSON *item);
void json_put_string(buf *b, const char *s);
void json_put_int(buf *b, long long v);

#endif
