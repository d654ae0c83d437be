/*
 * game_json.h — the JSON conventions every kind's translation shares (the
 * pages of proto/kinds/ write them alike for each kind): a choice given as
 * an option id, counts in saved shared state, records that may not exist
 * yet, an event's common head, and a seat's achievements as a list.
 *
 * Pure helpers over cJSON, like the kinds that call them: no state, no I/O.
 */
#ifndef LAIR_GAME_JSON_H
#define LAIR_GAME_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

#include "game.h"

/* A choice written as an option id: the string itself, or an object's "id"
 * (both forms the protocol accepts). NULL when it is neither. */
const char *game_choice_id(const cJSON *json);

/* A non-negative whole count at o[key], at most max, into *out; absent or
 * null leaves *out as it is. -1 with "<what>: '<key>' must be a count" when
 * it is anything else (NaN and infinities included). */
int game_json_count(const cJSON *o, const char *key, double max, int64_t *out,
		    const char *what, char *err, size_t errlen);

/* o[key] = v, or null when v < 0: a record no game has set yet. */
void game_json_add_record(cJSON *o, const char *key, int64_t v);

/* An event's object with its common head: {name_key: name}, and "seat"
 * unless the event is table-wide; the kind adds its own fields. */
cJSON *game_event_json_head(const game_event *ev, const char *name_key, const char *name);

/* The achievements set in `got` (bit k: defs[k]) as an array of their keys,
 * or of their labels when `labels`. */
cJSON *game_achievements_json(const game_achievement_def *defs, int n, uint32_t got,
			      bool labels);

#endif
