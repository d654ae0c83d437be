/*
 * json_out.h — a fast compact printer for cJSON trees.
 *
 * cJSON_PrintUnformatted formats every number with sprintf("%1.15g") and
 * checks it back with sscanf, which makes numbers the dominant cost of
 * printing game views (a reveal holds hundreds of them, printed once per
 * viewer). This printer writes integers (|v| < 2^53) digit by digit and
 * falls back to cJSON's formatting for other numbers; everything else is
 * byte for byte what cJSON_PrintUnformatted writes (same key order, same
 * string escapes).
 *
 * Memory: the returned string is malloc'd; the caller frees it.
 */
#ifndef LAIR_JSON_OUT_H
#define LAIR_JSON_OUT_H

#include <stddef.h>

#include <cJSON.h>

/* Compact JSON text of item; *len (may be NULL) gets its length. */
char *json_print(const cJSON *item, size_t *len);

#endif
