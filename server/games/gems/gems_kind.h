/*
 * gems_kind.h — the JSON side of the gems kind (gems_kind.c, gems_view.c):
 * views, events, options, results, config and shared state. Every function
 * returns a new cJSON tree the caller owns (cJSON_Delete).
 */
#ifndef LAIR_GEMS_KIND_H
#define LAIR_GEMS_KIND_H

#include "gems.h"

cJSON *gems_view_json(const gems_game *g, int viewer);
cJSON *gems_event_to_json(const game_event *e, int viewer); /* NULL: hidden */
cJSON *gems_options_json(const gems_game *g, int seat);
cJSON *gems_result_json(const gems_game *g, uint32_t ai_mask);
const char *gems_room_kind_key(int kind);
const char *gems_end_key(int end);

/* Shared state <-> JSON; returns 0, or -1 with a message. */
int gems_shared_from_json(gems_shared *sh, const cJSON *saved, char *err, size_t errlen);
cJSON *gems_shared_to_json(const gems_shared *sh);

/* Config {"adventures": [five keys]} (NULL or {} for the default pick). */
int gems_opts_from_json(gems_opts *o, const cJSON *json, char *err, size_t errlen);

/* Parses a choice ("leave" or {"id": "leave"}) for a seat; GAME_OK or an
 * error code with the reason. */
int gems_choice_from_json(const gems_game *g, int seat, const cJSON *json, game_choice *out,
			  char *err, size_t errlen);

#endif
