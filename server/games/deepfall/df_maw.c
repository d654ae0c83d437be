/*
 * df_maw.c — the doom clock and scoring (docs/rules/deepfall.md DF60-DF69):
 * the Maw's speed and carried progress, at most max_collapses collapses per
 * round, a collapse's Worthy Ends (burst + denial), its majority scoring
 * with ties split, its Takes, the unclaimed plunder rising to the floor
 * above, the comeback rubber-band on exit payouts, and the game's end.
 *
 * Order inside collapse(f) (DF63): first every Last-Stand party on f makes
 * its Worthy End and the rooms it holds leave the board, those on f too, so
 * no rival inherits them (denial: a leader can deny a chaser the floor's
 * Vault); then the floor's remaining rooms score to their majority holders
 * (a party still standing there counts); then the other parties on f are
 * Taken (the feel-bad); then the floor's unclaimed plunder rises.
 *
 * Refugee plunder (DF67) lands on the live rooms of the floor above, split
 * evenly, and is counted in a room's value and, apart, in its `risen`. The
 * scoring variants (DF56-DF59, each a knob, off unless CONFIG.md says
 * otherwise) move value up with it: a share of every scoring room's value
 * rises too (DF56, DF58), plunder flees a Worthy End instead of vanishing
 * with the rooms it consumes (DF57), and majorities grow with the floors
 * already eaten (DF59).
 */
#include "deepfall.h"

/* Splits `amount` of refugee plunder over the live rooms of floor f, evenly,
 * the remainder one point at a time from the first room. False, and nothing
 * placed, when no room there is alive. */
static bool spread(df_game *g, int f, int amount)
{
	const int R = g->cfg.rooms;
	int alive = 0;
	for (int r = 0; r < R; r++)
		alive += df_room_at(g, f, r)->alive;
	if (!alive)
		return false;
	int each = amount / alive, extra = amount % alive;
	for (int r = 0; r < R; r++) {
		df_room *rm = df_room_at(g, f, r);
		if (!rm->alive)
			continue;
		int add = each + (extra > 0);
		extra -= extra > 0;
		int v = rm->value + add, k = rm->risen + add;
		rm->value = (int16_t)(v > 30000 ? 30000 : v);
		rm->risen = (int16_t)(k > 30000 ? 30000 : k);
		g->top[f] = rm->value > g->top[f] ? rm->value : g->top[f];
	}
	return true;
}

/* The rooms in `gone` left the board: no party's claimed set keeps them
 * (a party's production and Last Stand look only at its claimed rooms;
 * fewer of them, less to look at). */
static void forget(df_game *g, const uint64_t *gone)
{
	for (int s = 0; s < g->seats; s++) {
		df_party *pa = &g->pl[s].party;
		for (int w = 0; w < (int)(sizeof pa->claimed / sizeof pa->claimed[0]); w++)
			pa->claimed[w] &= ~gone[w];
	}
}

/* DF57: the refugee plunder on a room a Worthy End consumed flees to the
 * live rooms of its floor, or waits on the floor when none is left. */
static void flee(df_game *g, int i, game_events *evs)
{
	df_room *rm = &g->rooms[i];
	int f = i / g->cfg.rooms + 1, amount = rm->risen;
	rm->risen = 0;
	if (amount <= 0)
		return;
	bool waits = !spread(g, f, amount);
	if (waits)
		g->pile[f] += amount;
	game_emit(evs, DF_EV_PLUNDER_FLED, -1, f, amount, waits);
}

/* DF68: a trailing player's exit payout grows with its glory deficit. */
int df_comeback(const df_game *g, int seat, int payout)
{
	if (g->cfg.comeback_bp <= 0 || payout <= 0)
		return payout;
	int32_t mine = g->pl[seat].glory, lead = 0;
	for (int s = 0; s < g->seats; s++)
		if (s != seat && g->pl[s].glory > lead)
			lead = g->pl[s].glory;
	if (lead <= mine || lead <= 0)
		return payout;
	int64_t add = (int64_t)payout * g->cfg.comeback_bp * (lead - mine) / (10000LL * lead);
	return payout + (int)add;
}

/* DF65: the burst, and the held rooms leave the board. */
static void worthy_end(df_game *g, int seat, int floor, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	int held = 0, consumed = 0;
	uint64_t gone[sizeof pa->claimed / sizeof pa->claimed[0]] = {0};
	for (int i = 0; i < g->frontier * g->cfg.rooms; i++) {
		df_room *rm = &g->rooms[i];
		if (!rm->alive || !rm->act[seat])
			continue;
		held += rm->value;
		rm->alive = 0; /* consumed clean: nobody scores it, nothing rises */
		gone[i >> 6] |= 1ull << (i & 63);
		consumed++;
	}
	forget(g, gone);
	if (g->cfg.plunder_flees) /* DF57: but its refugees flee */
		for (int w = 0; w < (int)(sizeof gone / sizeof gone[0]); w++)
			for (uint64_t m = gone[w]; m; m &= m - 1)
				flee(g, w * 64 + __builtin_ctzll(m), evs);
	int payout = g->cfg.worthy_factor * pa->deepest +
		     (int)((int64_t)held * g->cfg.worthy_held_bonus / 1000);
	if (df_callings[pa->calling].flags & DF_C_WORTHY_BONUS)
		payout = payout * 3 / 2;
	payout = df_comeback(g, seat, payout);
	pl->glory += payout;
	pl->src[DF_SRC_WORTHY] += payout;
	g->collapse_glory[floor] += payout;
	g->collapse_worthy[floor] += payout;
	pl->worthy_ends++;
	game_emit(evs, DF_EV_WORTHY_END, seat, payout, floor, consumed);
	pa->active = 0;
	pa->unbanked = 0;
}

/* DF66: unbanked loot and active markers lost. */
static void taken(df_game *g, int seat, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	int lost = 0;
	for (int i = 0; i < g->frontier * g->cfg.rooms; i++) {
		df_room *rm = &g->rooms[i];
		if (rm->act[seat]) {
			lost += rm->alive;
			rm->act[seat] = 0;
		}
	}
	pl->taken++;
	game_emit(evs, DF_EV_TAKEN, seat, pa->unbanked, lost, 0);
	pa->active = 0;
	pa->unbanked = 0;
}

void df_collapse(df_game *g, int f, game_events *evs)
{
	const int R = g->cfg.rooms;
	game_emit(evs, DF_EV_COLLAPSE, -1, f, 0, 0);
	for (int s = 0; s < g->seats; s++) {
		df_party *pa = &g->pl[s].party;
		if (pa->active && pa->floor == f && pa->last_stand)
			worthy_end(g, s, f, evs);
	}
	int rise = g->pile[f] * g->cfg.value_rise / 1000; /* DF57: plunder waiting here */
	g->pile[f] = 0;
	for (int r = 0; r < R; r++) {
		df_room *rm = df_room_at(g, f, r);
		if (!rm->alive)
			continue;
		int best = 0, n = 0;
		uint32_t mask = 0;
		for (int s = 0; s < g->seats; s++) {
			int st = df_room_strength(g, rm, s);
			if (st > best) {
				best = st;
				mask = 1u << s;
				n = 1;
			} else if (st == best && st > 0) {
				mask |= 1u << s;
				n++;
			}
		}
		int idx = (f - 1) * R + r;
		if (n == 0) {
			rise += rm->value * g->cfg.value_rise / 1000;
			game_emit(evs, DF_EV_ROOM_SCORED, -1, idx, 0, 0);
		} else {
			if (f > 1) /* DF56, DF58: part of a scoring room's value rises too */
				rise += rm->value * g->cfg.held_rise / 1000 +
					rm->value * g->cfg.rise_extra / 1000;
			/* DF64: ties split, rounding down */
			int share = df_room_pays(&g->cfg, rm->value, f) / n;
			for (int s = 0; s < g->seats; s++) {
				if (!(mask & (1u << s)))
					continue;
				df_player *pl = &g->pl[s];
				pl->glory += share;
				g->collapse_glory[f] += share;
				int act = df_room_strength(g, rm, s) - rm->fallen[s];
				pl->src[act >= rm->fallen[s] ? DF_SRC_PRESS : DF_SRC_CASH] += share;
				pl->rooms_scored++;
				game_emit(evs, DF_EV_ROOM_SCORED, s, idx, share, n);
			}
		}
		rm->alive = 0;
	}
	for (int s = 0; s < g->seats; s++) {
		df_party *pa = &g->pl[s].party;
		if (pa->active && pa->floor == f)
			taken(g, s, evs);
	}
	uint64_t gone[sizeof g->pl[0].party.claimed / sizeof g->pl[0].party.claimed[0]] = {0};
	for (int r = 0; r < R; r++) {
		int i = (f - 1) * R + r;
		gone[i >> 6] |= 1ull << (i & 63);
	}
	forget(g, gone);
	g->frontier = f - 1;
	/* DF67: refugee plunder rises to the floor above, split evenly; where
	 * no room is left alive it is lost, or with DF57 waits on the floor. */
	if (f > 1 && rise > 0) {
		if (spread(g, f - 1, rise))
			game_emit(evs, DF_EV_VALUE_RISE, -1, f - 1, rise, 0);
		else if (g->cfg.plunder_flees) {
			g->pile[f - 1] += rise;
			game_emit(evs, DF_EV_VALUE_RISE, -1, f - 1, rise, 1);
		}
	}
}

/* DF60: the Maw's speed this round, with the Dread and presses so far. */
static int maw_speed(const df_game *g)
{
	const df_config *c = &g->cfg;
	return c->maw_base + c->maw_accel * g->round + c->dread_push * g->round_dread +
	       c->press_push * g->round_press;
}

/* DF61, DF62: at most max_collapses a round, the rest carried over; from
 * max_rounds on a floor falls every round even when the Maw is slow. */
static int collapses(const df_game *g, int accum)
{
	int n = 0;
	while (accum >= 1000 && n < g->cfg.max_collapses && n < g->frontier) {
		accum -= 1000;
		n++;
	}
	if (n == 0 && g->round >= g->cfg.max_rounds && g->frontier >= 1)
		n = 1;
	return n;
}

int df_maw_falls(const df_game *g, int extra, int *speed)
{
	int sp = maw_speed(g);
	if (speed)
		*speed = sp;
	return collapses(g, g->accum + sp + extra);
}

void df_maw_advance(df_game *g, game_events *evs)
{
	int speed = maw_speed(g);
	g->accum += speed;
	g->last_speed = speed;
	int n = collapses(g, g->accum);
	for (int i = 0; i < n; i++) {
		if (g->accum >= 1000)
			g->accum -= 1000; /* the hard stop's collapse costs nothing */
		df_collapse(g, g->frontier, evs);
	}
	g->round_dread = g->round_press = 0;
	game_emit(evs, DF_EV_MAW, -1, speed, g->accum, g->frontier);
}

void df_finish(df_game *g, game_events *evs)
{
	g->over = 1;
	int32_t best = INT32_MIN;
	for (int s = 0; s < g->seats; s++)
		if (g->pl[s].glory > best)
			best = g->pl[s].glory;
	g->winners = 0;
	for (int s = 0; s < g->seats; s++)
		if (g->pl[s].glory == best)
			g->winners |= 1u << s;
	game_emit(evs, DF_EV_GAME_OVER, -1, g->rounds_played, (int32_t)g->winners, 0);
}
