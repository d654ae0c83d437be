/*
 * game.c — event buffers, the checks of a seat and its choice every kind
 * makes first, and the registry of built-in game kinds.
 */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"

int game_choice_expected(uint32_t pending, int seat, game_choice choice, char *err,
			 size_t errlen)
{
	bool asked = pending >> seat & 1;
	if (!asked && choice != GAME_NO_CHOICE) {
		snprintf(err, errlen, "seat %d is not asked to choose now", seat);
		return GAME_ERR_NOT_PENDING;
	}
	if (asked && choice == GAME_NO_CHOICE) {
		snprintf(err, errlen, "seat %d has not chosen", seat);
		return GAME_ERR_MISSING;
	}
	return GAME_OK;
}

bool game_seat_asked(uint32_t pending, int seats, int seat)
{
	return seat >= 0 && seat < seats && (pending >> seat & 1);
}

/* Each kind adds itself here: one extern and one entry. */
extern const game_kind crawl_kind;
extern const game_kind deepfall_kind;
extern const game_kind gems_kind;

static const game_kind *const kinds[] = {
	&deepfall_kind,
	&gems_kind,
	&crawl_kind,
	NULL,
};

void game_events_push(game_events *evs, uint16_t type, int seat, int32_t a, int32_t b,
		      int32_t c)
{
	if (evs->len == evs->cap) {
		evs->cap = evs->cap ? evs->cap * 2 : 64;
		evs->v = xrealloc(evs->v, evs->cap * sizeof *evs->v);
	}
	evs->v[evs->len++] = (game_event){.type = type, .seat = (int16_t)seat, .a = a, .b = b, .c = c};
}

void game_events_clear(game_events *evs) { evs->len = 0; }

void game_events_free(game_events *evs)
{
	free(evs->v);
	evs->v = NULL;
	evs->len = evs->cap = 0;
}

int game_kind_count(void) { return (int)ARRAY_LEN(kinds) - 1; }

const game_kind *game_kind_at(int i)
{
	return i >= 0 && i < game_kind_count() ? kinds[i] : NULL;
}

const game_kind *game_kind_find(const char *name)
{
	for (int i = 0; kinds[i]; i++)
		if (strcmp(kinds[i]->name, name) == 0)
			return kinds[i];
	return NULL;
}
