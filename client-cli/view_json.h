/*
 * view_json.h — how the kinds' screens read the JSON a server sends:
 * tolerantly, since a server may be newer, older or hostile. A field that
 * is absent, of another type or out of bounds reads as the caller's
 * default, never as an error. Short names on purpose: nearly every line of
 * a view_<kind>.c reads a field.
 */
#ifndef LAIR_VIEW_JSON_H
#define LAIR_VIEW_JSON_H

#include <stdint.h>

#include <cJSON.h>

#include "../proto/proto_msg.h"

#define VIEW_NUM_MAX 1000000000LL /* the largest count shown */

/* o[k], or NULL (o may be NULL too). */
static inline const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* An integer field of o within [lo, hi]; dflt when absent or unreadable. */
static inline int ival(const cJSON *o, const char *k, int lo, int hi, int dflt)
{
	int64_t v;
	return proto_json_int(get(o, k), lo, hi, &v) ? (int)v : dflt;
}

/* A count to show: within ±VIEW_NUM_MAX, else 0. */
static inline int count(const cJSON *o, const char *k)
{
	return ival(o, k, (int)-VIEW_NUM_MAX, (int)VIEW_NUM_MAX, 0);
}

/* A string field of o, or dflt. */
static inline const char *sval(const cJSON *o, const char *k, const char *dflt)
{
	const cJSON *v = get(o, k);
	return cJSON_IsString(v) ? v->valuestring : dflt;
}

#endif
