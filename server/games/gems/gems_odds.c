/*
 * gems_odds.c — what players may know about the next room (G25–G28): the
 * odds of the lair, the rumored gems, a seat's expected value (the design's
 * "hand icon" number) and its take. Computed once per decision point into
 * the game (g->odds, g->rumor, g->floor_value) and shared by views and AI.
 * Only the multiset of unseen rooms matters, never their order.
 */
#include <math.h>
#include <string.h>

#include "gems_int.h"

int gems_current_bar_value(const gems_game *g)
{
	int bars = 0;
	for (int i = 0; i < g->seats; i++)
		bars += g->seat[i].bars;
	return gems_bar_value(gems_bar_size(bars), g->seats);
}

static void count_room(gems_game *g, gems_room r, int delta)
{
	switch (r.kind) {
	case GEMS_ROOM_GEM:
		if (delta > 0)
			g->unseen_levels |= (uint16_t)(1u << r.arg);
		else
			g->unseen_levels &= (uint16_t)~(1u << r.arg);
		break;
	case GEMS_ROOM_BAR:
		g->unseen_bars = (uint8_t)(g->unseen_bars + delta);
		break;
	case GEMS_ROOM_WARNING:
		/* G25: a dead spider is an empty room, never a lair candidate */
		if (r.spider != GEMS_SPIDER_DEAD)
			g->unseen_warn[r.arg] = (uint8_t)(g->unseen_warn[r.arg] + delta);
		break;
	default:
		g->unseen_adv = (uint8_t)(g->unseen_adv + delta);
		break;
	}
}

void gems_unseen_reset(gems_game *g)
{
	g->unseen_levels = 0;
	g->unseen_bars = g->unseen_adv = 0;
	memset(g->unseen_warn, 0, sizeof g->unseen_warn);
	for (int i = 0; i < g->n_rooms; i++)
		count_room(g, g->rooms[i], +1);
	g->gem_sum_levels = UINT32_MAX;
}

/* A gem room entered leaves the cached sum (unseen_gems) valid: its gems at
 * the cached bravery come off it, instead of a new sum over the levels. */
void gems_unseen_remove(gems_game *g, gems_room r)
{
	bool cached = r.kind == GEMS_ROOM_GEM && g->gem_sum_levels == g->unseen_levels;
	count_room(g, r, -1);
	if (cached) {
		g->gem_sum -= gems_room_gems(g->gem_sum_bravery, r.arg);
		g->gem_sum_levels = g->unseen_levels;
	}
}

/* G25: unseen warnings of a type already met, over the unseen rooms. The
 * warnings G9 made dead spiders are not in unseen_warn (count_room): they
 * are empty rooms, in the denominator only, even before their poison. */
double gems_lair_odds(const gems_game *g)
{
	int unseen = g->n_rooms - g->cur - 1;
	if (unseen <= 0 || g->poisons_unused > 0)
		return 0.0;
	int lairish = 0;
	for (int t = 0; t < 5; t++)
		if (g->types_seen >> t & 1)
			lairish += g->unseen_warn[t];
	return (double)lairish / unseen;
}

static int gem_sum_of(const gems_game *g)
{
	int sum = 0;
	for (uint32_t m = g->unseen_levels; m; m &= m - 1)
		sum += gems_room_gems(g->bravery, __builtin_ctz(m));
	return sum;
}

/* Σ of the unseen gem rooms at the current bravery, cached: it changes only
 * when a gem room is entered or bravery drops. */
static int unseen_gems(gems_game *g)
{
	if (g->gem_sum_levels != g->unseen_levels || g->gem_sum_bravery != g->bravery) {
		g->gem_sum = gem_sum_of(g);
		g->gem_sum_levels = g->unseen_levels;
		g->gem_sum_bravery = g->bravery;
	}
	return g->gem_sum;
}

/* G26: an unseen Ferryman or Monte room counts at the part it will have. */
static double rumor_with(const gems_game *g, int gem_sum)
{
	int unseen = g->n_rooms - g->cur - 1;
	if (unseen <= 0)
		return 0.0;
	double sum = gem_sum + g->unseen_bars * gems_current_bar_value(g);
	int adv = g->adv[g->dungeon];
	for (int k = 1; k <= g->unseen_adv; k++) {
		int part = g->adv_met + k;
		if (adv == GEMS_ADV_FERRY)
			sum += gems_ferry_toll(part) * g->seats;
		else if (adv == GEMS_ADV_MONTE) /* mean card (2 + 1 + third) / 3 */
			sum += (3 + gems_monte_third(part)) * g->seats / 3.0;
	}
	return sum / unseen;
}

double gems_rumor(const gems_game *g) { return rumor_with(g, gem_sum_of(g)); }

void gems_odds_update(gems_game *g)
{
	g->odds = gems_lair_odds(g);
	g->rumor = rumor_with(g, unseen_gems(g));
	int value = g->floor_gems;
	for (int i = 0; i < g->n_floor_bars; i++)
		value += g->floor_bars[i];
	g->floor_value = value;
	int inside = g->inside > 0 ? g->inside : 1;
	if (inside != g->inv_sqrt_of) { /* changes only when someone leaves */
		g->inv_sqrt_inside = 1.0 / sqrt((double)inside);
		g->inv_sqrt_of = inside;
	}
	g->ev_base = (1.0 - g->odds) * g->rumor / inside;
}

double gems_ev_formula(double lair, double rumor, int inside, int hand)
{
	return (1.0 - lair) * rumor / (inside > 0 ? inside : 1) - lair * hand;
}
