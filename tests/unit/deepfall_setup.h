/*
 * deepfall_setup.h — positions for the DEEPFALL rule tests
 * (test_deepfall.c, test_deepfall_round.c): a game from a fixed seed whose
 * parties are set to chosen companies with their opening hands put back,
 * so that a test sets up exactly the turn it needs. Header-only: each
 * unit-test binary links just its own file and main.c.
 */
#ifndef LAIR_TEST_DEEPFALL_SETUP_H
#define LAIR_TEST_DEEPFALL_SETUP_H

#include <string.h>

#include "../../server/games/deepfall/deepfall.h"

static inline df_config cfg_default(void)
{
	df_config c;
	df_config_defaults(&c);
	return c;
}

/* Puts every party's opening hand back in its draw pile: no turn yet. */
static inline void clear_turns(df_game *g)
{
	for (int s = 0; s < g->seats; s++) {
		df_party *pa = &g->pl[s].party;
		memcpy(pa->draw + pa->n_draw, pa->hand, pa->n_hand);
		pa->n_draw = (uint8_t)(pa->n_draw + pa->n_hand);
		for (int i = 0; i < pa->n_hand; i++)
			pa->draw_df = (uint16_t)(pa->draw_df + df_die_df(pa->hand[i]));
		pa->n_hand = 0;
		pa->hands = 0;
		pa->acted = 0;
		memset(pa->rolled, 0, sizeof pa->rolled);
		df_turn_totals(g, s, &pa->tot);
	}
	g->round_dread = g->round_press = 0;
}

/* A game with `seats` seats whose parties are the given companies, with no
 * turn rolled and no marker on the board. */
static inline void setup(df_game *g, int seats, const int *lin, const int *cal)
{
	df_config c = cfg_default();
	df_game_init(g, &c, seats, 42, NULL);
	clear_turns(g);
	for (int s = 0; s < seats; s++) {
		g->pl[s].party.lineage = (uint8_t)lin[s];
		g->pl[s].party.calling = (uint8_t)cal[s];
		df_turn_totals(g, s, &g->pl[s].party.tot);
	}
}

/* Sets seat's turn: `hands` hands rolled showing these faces. */
static inline void set_turn(df_game *g, int seat, int hands, int steel, int cunning, int faith,
		     int greed, int mettle, int dread)
{
	df_party *pa = &g->pl[seat].party;
	const int f[DF_NFACES] = {steel, cunning, faith, greed, mettle, dread};
	for (int i = 0; i < DF_NFACES; i++)
		pa->rolled[i] = (uint8_t)f[i];
	pa->hands = (uint8_t)hands;
	df_turn_totals(g, seat, &pa->tot); /* as a roll leaves them */
}

static inline df_room *plain_room(df_game *g, int f, int r, int theme)
{
	df_room *rm = df_room_at(g, f, r);
	rm->theme = (uint8_t)theme;
	rm->value = (int16_t)df_room_value(&g->cfg, theme, f);
	rm->alive = 1;
	g->top[f] = rm->value > g->top[f] ? rm->value : g->top[f];
	return rm;
}

/* Kills every room of floor f (then plain_room revives the ones wanted). */
static inline void empty_floor(df_game *g, int f)
{
	for (int r = 0; r < g->cfg.rooms; r++)
		df_room_at(g, f, r)->alive = 0;
}

/* Every pending seat's AI choice, GAME_NO_CHOICE elsewhere. */
static inline void ai_set(const df_game *g, game_choice *ch, const int *strat)
{
	uint32_t p = df_pending(g);
	for (int s = 0; s < DF_MAX_SEATS; s++)
		ch[s] = s < g->seats && (p >> s & 1)
				? df_ai_choose(g, s, strat ? strat[s] : s % DF_NSTRAT)
				: GAME_NO_CHOICE;
}

/* A whole 4-seat AI game (the strategies by seat). */
static inline void play(df_game *g, uint64_t seed, game_events *evs)
{
	df_config c = cfg_default();
	char err[128];
	df_game_init(g, &c, 4, seed, evs);
	while (!g->over) {
		game_choice ch[DF_MAX_SEATS];
		ai_set(g, ch, NULL);
		if (df_apply(g, ch, evs, err, sizeof err) != GAME_OK)
			break;
	}
}

#endif
