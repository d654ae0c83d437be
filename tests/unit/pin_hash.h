/*
 * pin_hash.h — the hash the pin tests (test_crawl_pin.c, test_gems_pin.c,
 * test_deepfall_golden.c) fold a game's behaviour into, and the check that
 * compares it with the pinned value. FNV-1a over 64-bit words and strings:
 * order-sensitive, no dependency, plenty to notice one changed result.
 * Changing anything here moves every pin: don't. Header-only: each
 * unit-test binary links just its own file and main.c.
 */
#ifndef LAIR_TEST_PIN_HASH_H
#define LAIR_TEST_PIN_HASH_H

#include <stdint.h>
#include <stdlib.h>

#include <cJSON.h>

#include "../../server/games/game.h"
#include "../test.h"

/* The hash of nothing: where every pinned hash starts. */
#define FNV0 0xcbf29ce484222325ULL

/* Folds the 8 bytes of v, lowest first. */
static inline void mix(uint64_t *h, int64_t v)
{
	uint64_t x = (uint64_t)v;
	for (int i = 0; i < 8; i++) {
		*h ^= x & 0xff;
		*h *= 0x100000001b3ULL;
		x >>= 8;
	}
}

/* Folds a string's bytes, then a 0 word (so "ab","c" differs from "a","bc"). */
static inline void mix_str(uint64_t *h, const char *s)
{
	for (; *s; s++) {
		*h ^= (unsigned char)*s;
		*h *= 0x100000001b3ULL;
	}
	mix(h, 0);
}

/* Folds the JSON's compact text and frees it (NULL folds as "(null)"). */
static inline void mix_json(uint64_t *h, cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);
	mix_str(h, s ? s : "(null)");
	free(s);
	cJSON_Delete(j);
}

/* Plays one decision through the kind's vtable, folding what the server
 * sends: each pending seat's options and the AI's choice, the views of
 * `seat` and of a spectator, then the decision's events as `seat` sees
 * them (and as a spectator does, with spectator_events). False if the
 * decision is refused. */
static inline bool mix_kind_decision(uint64_t *h, const game_kind *k, game_state *st,
				     int seats, int seat, bool spectator_events,
				     game_events *evs)
{
	uint32_t p = k->pending(st);
	game_choice ch[GAME_MAX_SEATS];
	for (int s = 0; s < GAME_MAX_SEATS; s++) {
		ch[s] = GAME_NO_CHOICE;
		if (s >= seats || !(p >> s & 1))
			continue;
		mix_json(h, k->options_json(st, s));
		ch[s] = k->ai_choose(st, s);
		mix_json(h, k->choice_json(st, s, ch[s]));
	}
	mix_json(h, k->view(st, seat));
	mix_json(h, k->view(st, -1));
	game_events_clear(evs);
	char err[200];
	if (k->apply(st, ch, evs, err, sizeof err) != GAME_OK)
		return false;
	for (size_t e = 0; e < evs->len; e++) {
		cJSON *j = k->event_json(st, &evs->v[e], seat);
		if (j)
			mix_json(h, j);
		j = spectator_events ? k->event_json(st, &evs->v[e], -1) : NULL;
		if (j)
			mix_json(h, j);
	}
	return true;
}

#define CHECK_HASH(got, want)                                                             \
	do {                                                                              \
		uint64_t got_ = (got);                                                    \
		CHECK_MSG(got_ == (want), "hash %#018llx, pinned %#018llx",               \
			  (unsigned long long)got_, (unsigned long long)(want));         \
	} while (0)

#endif
