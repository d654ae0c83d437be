/*
 * table_coin.h — a tiny game kind for the table's tests (included by
 * tests/unit/test_table*.c only; everything here is static).
 *
 * "coin": each round a coin is flipped in secret (the rules stream); every
 * seat still in calls "heads", "tails" or "leave"; a right call scores 1,
 * "leave" takes the seat out for good. After `rounds` rounds, or when
 * nobody is in, the game is over. Hidden information to check leaks:
 *   - the coin of the round being decided: never in any message before
 *     the reveal (views never show it; the flip event shows it after);
 *   - each seat's "hand": the string "HIDDEN-<seat>-<n>" in its own view
 *     and its own hand event only.
 * Shared state: {"games": n}, the number of finished games folded in; a
 * game's hands depend on it, so a replay must use the record's snapshot.
 */
#ifndef LAIR_TABLE_COIN_H
#define LAIR_TABLE_COIN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/rng.h"
#include "../../server/games/game.h"

enum { COIN_HEADS, COIN_TAILS, COIN_LEAVE };
enum { EV_FLIP = 1, EV_SCORE, EV_HAND, EV_END };

typedef struct coin_cfg {
	int rounds;
} coin_cfg;

typedef struct coin_shared {
	int games;
} coin_shared;

struct game_state {
	int seats, rounds, round;
	int coin; /* this round's secret */
	uint32_t in;
	int score[GAME_MAX_SEATS];
	int hand[GAME_MAX_SEATS];
	rng rules, ai;
};

static void *coin_config_new(const cJSON *json, char *err, size_t errlen)
{
	coin_cfg c = {.rounds = 3};
	if (json) {
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(json, "rounds");
		if (r && (!cJSON_IsNumber(r) || r->valueint < 1 || r->valueint > 1000)) {
			snprintf(err, errlen, "rounds: 1..1000");
			return NULL;
		}
		if (r)
			c.rounds = r->valueint;
	}
	coin_cfg *p = malloc(sizeof *p);
	*p = c;
	return p;
}

static void coin_config_free(void *c) { free(c); }

static cJSON *coin_config_json(const void *c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "rounds", ((const coin_cfg *)c)->rounds);
	return o;
}

static void *coin_shared_new(const cJSON *saved, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	coin_shared *s = calloc(1, sizeof *s);
	const cJSON *g = saved ? cJSON_GetObjectItemCaseSensitive(saved, "games") : NULL;
	if (cJSON_IsNumber(g))
		s->games = g->valueint;
	return s;
}

static void coin_shared_free(void *s) { free(s); }

static cJSON *coin_shared_json(const void *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "games", ((const coin_shared *)s)->games);
	return o;
}

static void coin_shared_fold(void *s, const game_event *evs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (evs[i].type == EV_END)
			((coin_shared *)s)->games++;
}

static void coin_flip(game_state *st) { st->coin = (int)rng_below(&st->rules, 2); }

static game_state *coin_create(const void *config, int seats, uint64_t seed, const void *shared,
			       game_events *out, char *err, size_t errlen)
{
	if (seats < 1 || seats > GAME_MAX_SEATS) {
		snprintf(err, errlen, "seats");
		return NULL;
	}
	game_state *st = calloc(1, sizeof *st);
	st->seats = seats;
	st->rounds = ((const coin_cfg *)config)->rounds;
	st->in = (1u << seats) - 1;
	rng_seed(&st->rules, seed, 1);
	rng_seed(&st->ai, seed, 2);
	int games = shared ? ((const coin_shared *)shared)->games : 0;
	for (int i = 0; i < seats; i++) {
		st->hand[i] = (int)rng_below(&st->rules, 1000) + 1000 * games;
		game_events_push(out, EV_HAND, i, st->hand[i], 0, 0);
	}
	coin_flip(st);
	return st;
}

static void coin_destroy(game_state *st) { free(st); }

static bool coin_is_over(const game_state *st) { return st->round >= st->rounds || !st->in; }

static uint32_t coin_pending(const game_state *st) { return coin_is_over(st) ? 0 : st->in; }

static int coin_options(const game_state *st, int seat, game_choice *out, int max)
{
	if (!(coin_pending(st) & (1u << seat)))
		return 0;
	for (int i = 0; i < 3 && i < max; i++)
		out[i] = i;
	return 3;
}

static const char *const coin_names[3] = {"heads", "tails", "leave"};

static cJSON *coin_options_json(const game_state *st, int seat)
{
	(void)st, (void)seat;
	return cJSON_CreateStringArray(coin_names, 3);
}

static int coin_choice_parse(const game_state *st, int seat, const cJSON *json, game_choice *out,
			     char *err, size_t errlen)
{
	if (!(coin_pending(st) & (1u << seat))) {
		snprintf(err, errlen, "not pending");
		return GAME_ERR_NOT_PENDING;
	}
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(json, "call");
	if (!cJSON_IsString(c)) {
		snprintf(err, errlen, "choice: {\"call\": \"heads\"|\"tails\"|\"leave\"}");
		return GAME_ERR_MALFORMED;
	}
	for (int i = 0; i < 3; i++)
		if (strcmp(c->valuestring, coin_names[i]) == 0) {
			*out = i;
			return GAME_OK;
		}
	snprintf(err, errlen, "no such call: %s", c->valuestring);
	return GAME_ERR_ILLEGAL;
}

static cJSON *coin_choice_json(const game_state *st, int seat, game_choice c)
{
	(void)st, (void)seat;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "call", c >= 0 && c < 3 ? coin_names[c] : "?");
	return o;
}

static int coin_apply(game_state *st, const game_choice *ch, game_events *out, char *err,
		      size_t errlen)
{
	if (coin_is_over(st)) {
		snprintf(err, errlen, "over");
		return GAME_ERR_OVER;
	}
	for (int i = 0; i < st->seats; i++) {
		bool p = st->in & (1u << i);
		if (p && ch[i] == GAME_NO_CHOICE) {
			snprintf(err, errlen, "seat %d missing", i);
			return GAME_ERR_MISSING;
		}
		if (!p && ch[i] != GAME_NO_CHOICE) {
			snprintf(err, errlen, "seat %d not pending", i);
			return GAME_ERR_NOT_PENDING;
		}
		if (p && (ch[i] < 0 || ch[i] > 2)) {
			snprintf(err, errlen, "seat %d illegal", i);
			return GAME_ERR_ILLEGAL;
		}
	}
	game_events_push(out, EV_FLIP, -1, st->coin, st->round, 0);
	for (int i = 0; i < st->seats; i++) {
		if (!(st->in & (1u << i)))
			continue;
		if (ch[i] == COIN_LEAVE)
			st->in &= ~(1u << i);
		else if (ch[i] == st->coin)
			game_events_push(out, EV_SCORE, i, ++st->score[i], 0, 0);
	}
	st->round++;
	if (coin_is_over(st))
		game_events_push(out, EV_END, -1, 0, 0, 0);
	else
		coin_flip(st);
	return GAME_OK;
}

static game_choice coin_ai_choose(game_state *st, int seat)
{
	(void)seat;
	uint32_t r = rng_below(&st->ai, 10);
	return r == 0 ? COIN_LEAVE : (game_choice)(r & 1);
}

static cJSON *coin_view(const game_state *st, int viewer)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "round", st->round);
	cJSON *sc = cJSON_AddArrayToObject(o, "scores");
	cJSON *in = cJSON_AddArrayToObject(o, "in");
	for (int i = 0; i < st->seats; i++) {
		cJSON_AddItemToArray(sc, cJSON_CreateNumber(st->score[i]));
		cJSON_AddItemToArray(in, cJSON_CreateBool(st->in & (1u << i)));
	}
	if (viewer >= 0) {
		char h[48];
		snprintf(h, sizeof h, "HIDDEN-%d-%d", viewer, st->hand[viewer]);
		cJSON_AddStringToObject(o, "hand", h);
	}
	return o;
}

static cJSON *coin_event_json(const game_state *st, const game_event *ev, int viewer)
{
	(void)st;
	cJSON *o = cJSON_CreateObject();
	char h[48];
	switch (ev->type) {
	case EV_FLIP:
		cJSON_AddStringToObject(o, "type", "flip");
		cJSON_AddStringToObject(o, "coin", coin_names[ev->a]);
		break;
	case EV_SCORE:
		cJSON_AddStringToObject(o, "type", "score");
		cJSON_AddNumberToObject(o, "seat", ev->seat);
		cJSON_AddNumberToObject(o, "score", ev->a);
		break;
	case EV_HAND:
		if (viewer != ev->seat) {
			cJSON_Delete(o);
			return NULL;
		}
		cJSON_AddStringToObject(o, "type", "hand");
		snprintf(h, sizeof h, "HIDDEN-%d-%d", ev->seat, ev->a);
		cJSON_AddStringToObject(o, "hand", h);
		break;
	default:
		cJSON_AddStringToObject(o, "type", "end");
	}
	return o;
}

static void coin_result(const game_state *st, int64_t *scores, uint32_t *winners)
{
	int best = -1;
	*winners = 0;
	for (int i = 0; i < st->seats; i++) {
		scores[i] = st->score[i];
		if (st->score[i] > best) {
			best = st->score[i];
			*winners = 0;
		}
		if (st->score[i] == best)
			*winners |= 1u << i;
	}
}

static cJSON *coin_result_json(const game_state *st, uint32_t ai_mask)
{
	int64_t sc[GAME_MAX_SEATS];
	uint32_t w;
	coin_result(st, sc, &w);
	cJSON *o = cJSON_CreateObject();
	cJSON *a = cJSON_AddArrayToObject(o, "scores");
	for (int i = 0; i < st->seats; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)sc[i]));
	cJSON_AddNumberToObject(o, "winners", w);
	cJSON_AddNumberToObject(o, "ai_mask", ai_mask);
	return o;
}

static const game_kind coin_kind = {
	.name = "coin",
	.min_seats = 1,
	.max_seats = 9,
	.config_new = coin_config_new,
	.config_free = coin_config_free,
	.config_json = coin_config_json,
	.shared_new = coin_shared_new,
	.shared_free = coin_shared_free,
	.shared_json = coin_shared_json,
	.shared_fold = coin_shared_fold,
	.create = coin_create,
	.destroy = coin_destroy,
	.pending = coin_pending,
	.is_over = coin_is_over,
	.options = coin_options,
	.options_json = coin_options_json,
	.choice_parse = coin_choice_parse,
	.choice_json = coin_choice_json,
	.apply = coin_apply,
	.ai_choose = coin_ai_choose,
	.view = coin_view,
	.event_json = coin_event_json,
	.result = coin_result,
	.result_json = coin_result_json,
};

#endif
