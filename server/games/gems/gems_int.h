/*
 * gems_int.h — what the gems_*.c files share with each other and with the
 * unit tests: the rule formulas as pure functions, dungeon building, the
 * room flow, adventures and odds. Not part of the public API (gems.h).
 */
#ifndef LAIR_GEMS_INT_H
#define LAIR_GEMS_INT_H

#include "gems.h"

#define GEMS_NO_RUMOR_LEAVE INT32_MAX

/* Rules stream and AI stream of a game (game.h: separate so that the AI
 * never shifts the dungeon). */
#define GEMS_STREAM_RULES 0x67656d73u /* "gems" */
#define GEMS_STREAM_AI 0x61692121u

/* gems_rules.c — formulas; the few the engine needs at every room are
 * inline here. */
extern const int8_t gems_gem_table[10][15]; /* G12 for bravery 0..9 (below 2 as 2) */
int gems_room_gems_formula(int bravery, int level);

/* G12: gems in a room of level 0–14 at this bravery. */
static inline int gems_room_gems(int bravery, int level)
{
	if (bravery <= 9 && level >= 0 && level < 15)
		return gems_gem_table[bravery < 0 ? 0 : bravery][level];
	return gems_room_gems_formula(bravery, level);
}

/* 1 small, 2 medium, 3 large, by the bars already in chests. */
static inline int gems_bar_size(int bars_in_chests)
{
	if (bars_in_chests < 3)
		return 1;
	return bars_in_chests <= 5 ? 2 : 3;
}

static inline int gems_bar_value(int size, int seats) /* G6 */
{
	return size * (seats < 6 ? seats : 6);
}

static inline int gems_bravery_drop(int seats, int leavers) /* G13: 1 or 0 */
{
	return leavers == 1 || (leavers == 2 && seats >= 7);
}

static inline int gems_popcount(uint32_t x) { return __builtin_popcount(x); }

/* G19 weighted split: shares[i] = gems·w[i] / Σw (floor); returns the rest. */
int gems_split(int gems, const int *weights, int n, int *shares);
int gems_ferry_toll(int part);                         /* G11: 4/3/2 */
int gems_sunmoon_amount(int part);                     /* 2/4/6 */
int gems_monte_third(int part);                        /* 0/-2/-4 */
int gems_scout_radius(int part);                       /* 8/5/2 */
int gems_adv_rooms(int adv);                           /* 3, or 6 */

/* gems_build.c — set-up and dungeon building */
/* G7: counts[t] rooms of warning type t for dungeon 0–4; returns the types. */
int gems_warning_counts(int dungeon, int counts[5]);
/* The unordered room set of a dungeon; returns its size. */
int gems_dungeon_set(int dungeon, int bars, int adv, gems_room *out);
void gems_move_up(gems_room *rooms, int n);            /* G8 */
int gems_mark_spiders(gems_room *rooms, int n);        /* G9: lair index or -1 */
bool gems_adv_before_lair(const gems_room *rooms, int n, int lair_at); /* G10 */
/* G10: five distinct adventures, least used first (ties random), shuffled. */
void gems_pick_adventures(rng *r, const int32_t uses[GEMS_N_ADV], uint8_t out[GEMS_DUNGEONS]);
/* Builds the current dungeon's list (or takes `fixed`), counts its unseen
 * rooms (gems_unseen_reset), emits G10's use. */
void gems_build_dungeon(gems_game *g, const gems_room *fixed, int n_fixed, game_events *out);
/* gems_init with dungeon 1's list given verbatim (no shuffle, no move-up;
 * G9 still applies): for tests that need a known room order. */
int gems_init_fixed(gems_game *g, int seats, uint64_t seed, const gems_shared *shared,
		    const gems_opts *opts, const gems_room *rooms, int n_rooms, game_events *out);

/* gems_rooms.c — the flow of a dungeon */
void gems_begin_dungeon(gems_game *g, const gems_room *fixed, int n_fixed, game_events *out);
/* Enters rooms until a decision is pending or the game is over. */
void gems_advance(gems_game *g, game_events *out);
void gems_open_decision(gems_game *g, int phase);
bool gems_is_legal(const gems_game *g, int seat, game_choice c);
uint32_t gems_adv_options(const gems_game *g, int adv, int seat);

/* gems_options_mask (gems.h), inline for the AI and the validation. */
static inline uint32_t gems_options_of(const gems_game *g, int seat)
{
	if (g->phase == GEMS_PH_OVER || !game_seat_asked(g->pending, g->seats, seat))
		return 0;
	uint32_t leave = g->seat[seat].owed ? 0 : 1u << GEMS_C_LEAVE; /* G21 */
	if (g->phase == GEMS_PH_COIN)
		return leave | 1u << GEMS_C_STAY;
	gems_room r = g->rooms[g->cur];
	if (r.kind == GEMS_ROOM_ADV)
		return leave | gems_adv_options(g, r.arg, seat);
	return leave | 1u << GEMS_C_STAY;
}
/* gems_apply without the validation: for choices known to be legal (the
 * AI's own, in gems_play_ai). */
void gems_resolve(gems_game *g, const game_choice *choices, game_events *out);

/* gems_adventures.c */
void gems_adv_enter(gems_game *g, int adv, int part, game_events *out);
void gems_adv_resolve(gems_game *g, int adv, int part, const game_choice *choices,
		      uint32_t stayers, game_events *out);
void gems_sphinx_coins(gems_game *g, uint32_t stayers, game_events *out);
void gems_people_effect(gems_game *g, game_events *out);

/* gems_odds.c — G25–G28 */
void gems_odds_update(gems_game *g);
void gems_unseen_reset(gems_game *g);               /* the whole list, unseen */
void gems_unseen_remove(gems_game *g, gems_room r);  /* as a room is entered */
double gems_lair_odds(const gems_game *g);
double gems_rumor(const gems_game *g);
double gems_ev_formula(double lair, double rumor, int inside, int hand); /* G27 */
int gems_current_bar_value(const gems_game *g);

/* gems_stats.c */
void gems_finish(gems_game *g, game_events *out); /* G33 winners, game-over event */

/* The room kind as players meet it: a warning that G9 made a dead spider or
 * the lair shows as GEMS_ROOM_DEAD or GEMS_ROOM_LAIR. */
static inline int gems_met_kind(gems_room r)
{
	if (r.kind != GEMS_ROOM_WARNING)
		return r.kind;
	return r.spider == GEMS_SPIDER_LAIR  ? GEMS_ROOM_LAIR
	       : r.spider == GEMS_SPIDER_DEAD ? GEMS_ROOM_DEAD
					      : GEMS_ROOM_WARNING;
}

/* G27, from the numbers of the current decision (gems_odds_update), so that
 * it is gems_ev_formula(odds, rumor, inside, hand) with one multiply. Inline
 * with gems_take: the AI asks for both at every decision of every seat. */
static inline double gems_ev(const gems_game *g, int seat)
{
	return g->ev_base - g->odds * g->seat[seat].hand;
}

/* G28: the floor and the seat's coin-room remainders, over sqrt(inside). */
static inline double gems_take(const gems_game *g, int seat)
{
	double v = g->floor_value;
	for (uint32_t m = g->seat[seat].coin_mask; m; m &= m - 1)
		v += g->coin_rem[__builtin_ctz(m)];
	return v * g->inv_sqrt_inside;
}

static inline void gems_emit(game_events *out, int type, int seat, int32_t a, int32_t b,
			     int32_t c)
{
	if (out)
		game_events_push(out, (uint16_t)type, seat, a, b, c);
}

#endif
