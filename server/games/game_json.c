/*
 * game_json.c — the JSON conventions every kind's translation shares
 * (game_json.h).
 */
#include "game_json.h"

#include <math.h>
#include <stdio.h>

const char *game_choice_id(const cJSON *json)
{
	const cJSON *id = json;
	if (cJSON_IsObject(json))
		id = cJSON_GetObjectItemCaseSensitive(json, "id");
	return cJSON_IsString(id) ? id->valuestring : NULL;
}

int game_json_count(const cJSON *o, const char *key, double max, int64_t *out,
		    const char *what, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v || cJSON_IsNull(v))
		return 0;
	/* Written so that NaN fails too: casting it (or an infinity) is undefined. */
	double d = cJSON_IsNumber(v) ? v->valuedouble : -1;
	if (!(d >= 0 && d <= max) || d != floor(d)) {
		snprintf(err, errlen, "%s: '%s' must be a count", what, key);
		return -1;
	}
	*out = (int64_t)d;
	return 0;
}

void game_json_add_record(cJSON *o, const char *key, int64_t v)
{
	if (v >= 0)
		cJSON_AddNumberToObject(o, key, (double)v);
	else
		cJSON_AddNullToObject(o, key);
}

cJSON *game_event_json_head(const game_event *ev, const char *name_key, const char *name)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, name_key, name);
	if (ev->seat >= 0)
		cJSON_AddNumberToObject(o, "seat", ev->seat);
	return o;
}

cJSON *game_achievements_json(const game_achievement_def *defs, int n, uint32_t got,
			      bool labels)
{
	cJSON *a = cJSON_CreateArray();
	for (int k = 0; k < n; k++)
		if (got >> k & 1)
			cJSON_AddItemToArray(a, cJSON_CreateString(labels ? defs[k].label
									 : defs[k].key));
	return a;
}
