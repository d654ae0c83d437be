/*
 * kind_checks.h — checks any game kind must pass, written once against the
 * game.h contract and included by each kind's tests (test_<kind>_kind.c).
 * Header-only: each unit-test binary links just its own file and main.c.
 */
#ifndef LAIR_TEST_KIND_CHECKS_H
#define LAIR_TEST_KIND_CHECKS_H

#include <stdio.h>
#include <string.h>

#include "../server/games/game.h"
#include "test.h"

/* Crash recovery rebuilds a table by replaying its logged choice sets
 * through the kind without asking the AI. For every decision k of an AI
 * game: a fresh state from the same seed, given only the choices of
 * decisions 1..k-1, must have the same seats pending and its AI must choose
 * exactly what the AI chose at k in the uninterrupted game (each AI draw is
 * a function of seed, decision number and seat, not of a running stream).
 * Adds the number of decisions checked to *checked. */
#define REPLAY_MAX_DECISIONS 400
static void check_ai_after_replay(const game_kind *k, const void *cfg, int seats, uint64_t seed,
				  int *checked)
{
	static game_choice log[REPLAY_MAX_DECISIONS][GAME_MAX_SEATS];
	static uint32_t pend[REPLAY_MAX_DECISIONS];
	char err[160];
	game_state *st = k->create(cfg, seats, seed, NULL, NULL, err, sizeof err);
	REQUIRE(st != NULL);
	int n = 0;
	while (!k->is_over(st) && n < REPLAY_MAX_DECISIONS) {
		pend[n] = k->pending(st);
		for (int i = 0; i < GAME_MAX_SEATS; i++)
			log[n][i] = i < seats && (pend[n] >> i & 1) ? k->ai_choose(st, i)
								     : GAME_NO_CHOICE;
		REQUIRE(k->apply(st, log[n], NULL, err, sizeof err) == GAME_OK);
		n++;
	}
	REQUIRE(k->is_over(st));
	k->destroy(st);
	int mismatches = 0;
	for (int d = 0; d < n; d++) {
		game_state *re = k->create(cfg, seats, seed, NULL, NULL, err, sizeof err);
		REQUIRE(re != NULL);
		for (int j = 0; j < d; j++) /* replay: the AI is not asked */
			REQUIRE(k->apply(re, log[j], NULL, err, sizeof err) == GAME_OK);
		CHECK_EQ(k->pending(re), pend[d]);
		for (int i = 0; i < seats; i++)
			if (pend[d] >> i & 1)
				mismatches += k->ai_choose(re, i) != log[d][i];
		k->destroy(re);
	}
	CHECK_EQ(mismatches, 0);
	*checked += n;
}

/* apply refuses a set of choices that does not fit who is asked
 * (game_choice_expected): a pending seat without a choice is
 * GAME_ERR_MISSING, a choice from a seat not asked GAME_ERR_NOT_PENDING,
 * the seat named in err, and the game is left as it was (the same seats
 * asked; the right set applies after). Tries each seat of each decision of
 * an AI game, up to 60 decisions; adds how many wrong sets were refused to
 * *refused. */
static void check_apply_refuses_wrong_seats(const game_kind *k, const void *cfg, int seats,
					    uint64_t seed, int *refused)
{
	char err[160], want[64];
	game_state *st = k->create(cfg, seats, seed, NULL, NULL, err, sizeof err);
	REQUIRE(st != NULL);
	for (int d = 0; d < 60 && !k->is_over(st); d++) {
		uint32_t pend = k->pending(st);
		game_choice set[GAME_MAX_SEATS], any = GAME_NO_CHOICE;
		for (int i = 0; i < GAME_MAX_SEATS; i++) {
			set[i] = i < seats && (pend >> i & 1) ? k->ai_choose(st, i) : GAME_NO_CHOICE;
			if (any == GAME_NO_CHOICE)
				any = set[i];
		}
		REQUIRE(any != GAME_NO_CHOICE); /* a game not over asks someone */
		for (int i = 0; i < seats; i++) {
			bool asked = pend >> i & 1;
			game_choice keep = set[i];
			set[i] = asked ? GAME_NO_CHOICE : any;
			snprintf(want, sizeof want, asked ? "seat %d has not chosen"
							  : "seat %d is not asked to choose now", i);
			err[0] = '\0';
			CHECK_EQ(k->apply(st, set, NULL, err, sizeof err),
				 asked ? GAME_ERR_MISSING : GAME_ERR_NOT_PENDING);
			CHECK_MSG(strstr(err, want) != NULL, "\"%s\", not \"%s\"", err, want);
			CHECK_EQ(k->pending(st), pend);
			set[i] = keep;
			(*refused)++;
		}
		REQUIRE(k->apply(st, set, NULL, err, sizeof err) == GAME_OK);
	}
	k->destroy(st);
}


#endif
