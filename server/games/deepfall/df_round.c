/*
 * df_round.c — DEEPFALL's round engine (docs/rules/deepfall.md DF30-DF36):
 * which seats choose now, what each may choose, and how a complete set of
 * simultaneous choices moves the game on.
 *
 * A round is: the opening roll (no decision: every party draws and rolls a
 * hand, in seat order from the round's start seat); then turn steps, one
 * decision each, among the parties still in their turn: each either
 * presses (draws and rolls one more hand; all pressed hands of a step are
 * rolled together, after the choices are revealed) or stops and acts
 * (target floor, recruit, exit), with every hand of its own turn seen.
 * A party that pressed max_press times, or whose bag is empty, can only
 * act. Once every party has acted, the acts resolve in seat order
 * (df_resolve), the Maw advances (df_maw.c) and the next round drafts fresh
 * parties and rolls. A party that stops early does not know how much more
 * Dread the others will roll, and so how far the Maw will climb: pressing
 * longer buys symbols and knowledge, at the price of Dread and a faster Maw.
 *
 * A choice is a game_choice code: DF_PRESS, or an act code (DF_ACT_TAG
 * set). The turn rules are in df_rules.c, the Maw and scoring in df_maw.c.
 */
#include "deepfall.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* DF51: free with a Vault or Throne held or as a Wardancer, else paid with
 * the turn's Mettle; never twice. */
bool df_stand_free(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	return (df_callings[pa->calling].flags & DF_C_FREE_STAND) || df_holds_stand_room(g, seat);
}

bool df_stand_offered_t(const df_game *g, int seat, const df_totals *t)
{
	const df_party *pa = &g->pl[seat].party;
	if (!pa->active || pa->last_stand)
		return false;
	return t->sym[DF_METTLE] >= g->cfg.last_stand_cost || df_stand_free(g, seat);
}

bool df_stand_offered(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	if (!pa->active || pa->last_stand)
		return false;
	if (df_stand_free(g, seat))
		return true;
	df_totals t;
	df_turn_totals(g, seat, &t);
	return t.sym[DF_METTLE] >= g->cfg.last_stand_cost;
}

/* The checks of a pending seat's choice (df_choice_check without the
 * pending test, which df_apply makes once for every seat). */
static int check_pending(const df_game *g, int seat, game_choice code, char *err, size_t errlen)
{
	if (code == DF_PRESS) {
		if (!df_can_press(g, seat)) {
			snprintf(err, errlen,
				 "seat %d: no more hands to press (max_press %d or an empty bag)",
				 seat, g->cfg.max_press);
			return GAME_ERR_ILLEGAL;
		}
		return GAME_OK;
	}
	df_act a;
	if (df_act_unpack(code, &a) != 0) {
		snprintf(err, errlen, "seat %d: malformed choice code %d", seat, (int)code);
		return GAME_ERR_ILLEGAL;
	}
	if (a.target < 1 || a.target > g->frontier) {
		snprintf(err, errlen, "seat %d: target floor %d is not within 1..%d", seat,
			 a.target, g->frontier);
		return GAME_ERR_ILLEGAL;
	}
	if (a.exit >= DF_NEXIT) {
		snprintf(err, errlen, "seat %d: unknown exit", seat);
		return GAME_ERR_ILLEGAL;
	}
	if (a.exit == DF_LAST_STAND && !df_stand_offered(g, seat)) {
		snprintf(err, errlen,
			 g->pl[seat].party.last_stand
				 ? "seat %d: the party already stands"
				 : "seat %d: a Last Stand needs a Vault or Throne held, a Wardancer "
				   "or %d Mettle",
			 seat, g->cfg.last_stand_cost);
		return GAME_ERR_ILLEGAL;
	}
	return GAME_OK;
}

int df_choice_check(const df_game *g, int seat, game_choice code, char *err, size_t errlen)
{
	if (g->over) {
		snprintf(err, errlen, "the game is over");
		return GAME_ERR_OVER;
	}
	if (!game_seat_asked(df_pending(g), g->seats, seat)) {
		snprintf(err, errlen, "seat %d is not asked to choose now", seat);
		return GAME_ERR_NOT_PENDING;
	}
	return check_pending(g, seat, code, err, errlen);
}

/* ---- the round ------------------------------------------------------------ */

/* The i-th seat in this round's order, from the start seat (DF35); no
 * division: the round engine asks for every seat at every step. */
static int seat_in_order(const df_game *g, int i)
{
	int s = g->start_seat + i;
	return s < g->seats ? s : s - g->seats;
}

/* DF31: every party draws and rolls its opening hand. */
static void open_round(df_game *g, game_events *evs)
{
	for (int i = 0; i < g->seats; i++) {
		int s = seat_in_order(g, i);
		if (g->pl[s].party.active)
			df_roll_hand(g, s, evs);
	}
}

/* DF10: a theme drawn by the floor's weights (w, with their total). */
static int pick_theme(df_game *g, const int *w, int total)
{
	if (total == 0)
		return DF_STONE;
	int x = (int)rng_below(&g->rules, (uint32_t)total);
	for (int t = 0; t < DF_NTHEME; t++) {
		if (x < w[t])
			return t;
		x -= w[t];
	}
	return DF_STONE;
}

void df_game_init(df_game *g, const df_config *cfg, int seats, uint64_t seed, game_events *evs)
{
	/* Clears what this game uses: the simulator reuses one df_game, and
	 * a game touches only floors x rooms rooms and `seats` players. */
	memset(g, 0, offsetof(df_game, rooms));
	memset(g->rooms, 0, (size_t)cfg->floors * (size_t)cfg->rooms * sizeof g->rooms[0]);
	memset(g->pl, 0, (size_t)seats * sizeof g->pl[0]);
	g->cfg = *cfg;
	g->seats = seats;
	rng_seed(&g->rules, seed, 1);
	g->seed = seed; /* DF4: the AI's draws derive from it on a stream of their own */
	g->frontier = cfg->floors;
	g->round = 1;
	for (int f = 1; f <= cfg->floors; f++) {
		int w[DF_NTHEME], total = df_theme_weights(f, cfg->floors, w);
		for (int r = 0; r < cfg->rooms; r++) {
			df_room *rm = df_room_at(g, f, r);
			rm->theme = (uint8_t)(f == 1 && r == 0 ? DF_THRESHOLD
							       : pick_theme(g, w, total));
			rm->value = (int16_t)df_room_value(cfg, rm->theme, f);
			rm->alive = 1;
			g->top[f] = rm->value > g->top[f] ? rm->value : g->top[f];
		}
	}
	for (int s = 0; s < seats; s++)
		df_draft(g, s, evs);
	game_emit(evs, DF_EV_ROUND, -1, g->round, g->start_seat, 0);
	open_round(g, evs);
}

/* DF33-DF36: resolve every act, advance the Maw, open the next round. */
static void end_round(df_game *g, game_events *evs)
{
	int falls = df_maw_falls(g, 0, NULL);
	for (int i = 0; i < g->seats; i++) {
		int s = seat_in_order(g, i);
		df_act a;
		if (g->pl[s].party.acted && df_act_unpack(g->pl[s].party.act, &a) == 0)
			df_resolve(g, s, a, falls, evs);
	}
	df_maw_advance(g, evs);
	g->rounds_played = g->round;
	if (g->frontier < 1) {
		df_finish(g, evs);
		return;
	}
	g->round++;
	g->start_seat = (g->round - 1) % g->seats; /* DF35 */
	for (int s = 0; s < g->seats; s++)
		if (!g->pl[s].party.active)
			df_draft(g, s, evs);
	game_emit(evs, DF_EV_ROUND, -1, g->round, g->start_seat, 0);
	open_round(g, evs);
}

int df_apply(df_game *g, const game_choice *choices, game_events *evs, char *err,
	     size_t errlen)
{
	if (g->over) {
		snprintf(err, errlen, "the game is over");
		return GAME_ERR_OVER;
	}
	uint32_t pend = df_pending(g);
	for (int s = 0; s < g->seats; s++) {
		int rc = game_choice_expected(pend, s, choices[s], err, errlen);
		if (rc == GAME_OK && pend >> s & 1)
			rc = check_pending(g, s, choices[s], err, errlen);
		if (rc != GAME_OK)
			return rc;
	}
	g->decision++;
	/* DF32, DF33: the acts are kept for the end of the round; the pressed
	 * hands are rolled now, in seat order from the start seat. */
	for (int i = 0; i < g->seats; i++) {
		int s = seat_in_order(g, i);
		df_party *pa = &g->pl[s].party;
		if (!(pend >> s & 1))
			continue;
		if (choices[s] == DF_PRESS) {
			df_roll_hand(g, s, evs);
			g->round_press++;
		} else {
			pa->act = choices[s];
			pa->acted = 1;
		}
	}
	if (!df_pending(g))
		end_round(g, evs);
	return GAME_OK;
}
