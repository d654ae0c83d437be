/*
 * cr_ai.c — the crawl AI (docs/rules/crawl.md C48), for AI seats, players
 * who are away and the simulator. It plays from what the party knows — the
 * tiles seen, the monsters in view — and like an expert who has learned what
 * every potion and scroll does (their identities never change, C30). In
 * order: vote or choose in events by the value of the effects; shop for
 * healing and better gear; wait in a gateway unless the party is split;
 * heal when low; attack what is next to it; wear better gear and use the
 * lasting potions and scrolls; close in on monsters in view; follow a
 * scoundrel who went into a gateway; explore; and when nothing is left to
 * explore, take the portal down, or in the last act go for the devil.
 *
 * Its few random draws (a small jitter between options of equal worth)
 * come from a generator derived from (seed, decision, seat), so replaying a
 * run's choices without asking the AI leaves it choosing the same.
 */
#include <stdlib.h>
#include <string.h>

#include "crawl.h"

static const cr_content *CT(const cr_game *g) { return g->cfg.ct; }

/* ---- what effects are worth (C28) ------------------------------------------------ */

static double hp_worth(const cr_hero *h, int n)
{
	if (n > 0) {
		int room = h->max_hp - h->hp;
		return 1.2 * (n < room ? n : room);
	}
	return n * (h->hp * 3 < h->max_hp ? 5.0 : 1.5);
}

static double effects_worth(const cr_game *g, int seat, cr_range r, int depth)
{
	const cr_hero *h = &g->h[seat];
	double v = 0;
	for (int i = 0; i < r.n; i++) {
		const cr_effect *e = &CT(g)->effect[r.at + i];
		switch (e->op) {
		case CR_E_GOLD:
			v += 0.3 * (e->n < -h->gold ? -h->gold : e->n);
			break;
		case CR_E_HP:
			v += hp_worth(h, e->n);
			break;
		case CR_E_HEAL_FULL:
			v += hp_worth(h, h->max_hp);
			break;
		case CR_E_MAX_HP:
			v += 3.0 * e->n;
			break;
		case CR_E_ATTACK:
			v += 15.0 * e->n;
			break;
		case CR_E_DEFENSE:
			v += 12.0 * e->n;
			break;
		case CR_E_XP:
			v += 0.5 * e->n;
			break;
		case CR_E_ITEM:
			v += 12;
			break;
		case CR_E_LOSE_ITEM:
			v -= 10;
			break;
		case CR_E_RELIC:
			v += 40;
			break;
		case CR_E_PET:
			v += 12;
			break;
		case CR_E_IDENTIFY:
		case CR_E_MAP:
			v += 6;
			break;
		case CR_E_FIGHT: {
			bool strong = h->hp * 2 > h->max_hp;
			v += e->arg ? (strong ? -5 : -40) : (strong ? 4 : -15);
			break;
		}
		case CR_E_FIRE:
			v += 2;
			break;
		case CR_E_CHANCE:
			if (depth == 0) {
				double p = e->n / 100.0;
				v += p * effects_worth(g, seat, (cr_range){e->then_at, e->then_n}, 1) +
				     (1 - p) *
					     effects_worth(g, seat, (cr_range){e->else_at, e->else_n}, 1);
			}
			break;
		}
	}
	return v;
}

static game_choice pick_option(const cr_game *g, int seat, int e, rng *r)
{
	const cr_event *ev = &CT(g)->event[e];
	int best = -1;
	double best_v = 0;
	for (int k = 0; k < ev->n_options; k++) {
		if (!cr_option_open(g, seat, e, k))
			continue;
		double v = 0;
		/* a vote weighs the option for the whole party */
		if (g->n_vote) {
			for (int s = 0; s < g->seats; s++)
				if (g->h[s].alive)
					v += effects_worth(g, s, ev->option[k].effects, 0);
		} else {
			v = effects_worth(g, seat, ev->option[k].effects, 0);
		}
		v += rng_unit(r) * 0.5; /* between near equals, a coin */
		if (best < 0 || v > best_v) {
			best = k;
			best_v = v;
		}
	}
	return CR_C_EVENT + best;
}

/* ---- items -------------------------------------------------------------------------- */

/* HP an item of kind k gives back, or 0. */
static int heals(const cr_game *g, int k)
{
	const cr_item_kind *it = &CT(g)->item[k];
	int v = 0;
	for (int i = 0; i < it->effects.n; i++) {
		const cr_effect *e = &CT(g)->effect[it->effects.at + i];
		if (e->op == CR_E_HP && e->n > 0)
			v += e->n;
		if (e->op == CR_E_HEAL_FULL)
			v += 100;
	}
	return v;
}

/* Worth using at once, whenever: lasting gains. */
static bool lasting(const cr_game *g, int k)
{
	const cr_item_kind *it = &CT(g)->item[k];
	for (int i = 0; i < it->effects.n; i++) {
		int op = CT(g)->effect[it->effects.at + i].op;
		if (op == CR_E_ATTACK || op == CR_E_DEFENSE || op == CR_E_MAX_HP)
			return true;
	}
	return false;
}

/* Harmful to use (poison, summoning): dropped when room is needed. */
static bool harmful(const cr_game *g, int k)
{
	const cr_item_kind *it = &CT(g)->item[k];
	for (int i = 0; i < it->effects.n; i++) {
		const cr_effect *e = &CT(g)->effect[it->effects.at + i];
		if ((e->op == CR_E_HP && e->n < 0) || e->op == CR_E_FIGHT)
			return true;
	}
	return false;
}

static bool has_op(const cr_game *g, int k, int op)
{
	const cr_item_kind *it = &CT(g)->item[k];
	for (int i = 0; i < it->effects.n; i++)
		if (CT(g)->effect[it->effects.at + i].op == op)
			return true;
	return false;
}

static int gear_bonus(const cr_game *g, int k) { return k < 0 ? 0 : CT(g)->item[k].bonus; }

/* ---- moving ---------------------------------------------------------------------------- */

/* The first step of a shortest path over seen tiles to (tx, ty), or -1. */
static int step_to(const cr_game *g, int seat, int tx, int ty)
{
	uint16_t dist[CR_MAX_H][CR_MAX_W];
	const cr_hero *h = &g->h[seat];
	cr_bfs_seen_to(g, tx, ty, h->x, h->y, dist);
	/* the target's own tile may hold a monster or be unseen: start there */
	int here = dist[h->y][h->x], best = -1, best_d = 0, best_e = 0;
	for (int d = 0; d < 4; d++) {
		int nx = h->x + cr_dx[d], ny = h->y + cr_dy[d];
		if (nx == tx && ny == ty)
			return d;
		int nd = dist[ny][nx];
		/* among the shortest, the step nearest as the crow flies: it keeps
		 * a monster in sight rather than turning a corner away from it */
		int ne = (tx - nx) * (tx - nx) + (ty - ny) * (ty - ny);
		if (nd < here && (best < 0 || nd < best_d || (nd == best_d && ne < best_e))) {
			best = d;
			best_d = nd;
			best_e = ne;
		}
	}
	if (best >= 0)
		return best;
	/* no known path: the passable neighbour closest as the crow flies */
	int bd = abs(tx - h->x) + abs(ty - h->y);
	for (int d = 0; d < 4; d++) {
		int nx = h->x + cr_dx[d], ny = h->y + cr_dy[d];
		int nd = abs(tx - nx) + abs(ty - ny);
		if (cr_passable(g->lv.tile[ny][nx]) && nd < bd) {
			bd = nd;
			best = d;
		}
	}
	return best;
}

static game_choice go_to(const cr_game *g, int seat, int tx, int ty)
{
	const cr_hero *h = &g->h[seat];
	if (h->x == tx && h->y == ty)
		return CR_C_WAIT;
	/* far, and nothing in view: travel there in one choice */
	int far = abs(tx - h->x) + abs(ty - h->y);
	if (far > 2 && !cr_monster_in_view(g) && (g->flag[ty][tx] & CR_F_SEEN)) {
		game_choice c = CR_C_TRAVEL + ty * 256 + tx;
		char err[8];
		if (cr_choice_check(g, seat, c, err, sizeof err) == 0)
			return c;
	}
	int d = step_to(g, seat, tx, ty);
	return d < 0 ? CR_C_WAIT : CR_C_N + d;
}

/* ---- the decision ------------------------------------------------------------------------ */

static game_choice shop(const cr_game *g, int seat)
{
	const cr_hero *h = &g->h[seat];
	char err[8];
	for (int k = 0; k <= CR_SHOP_ITEMS; k++) {
		game_choice c = CR_C_BUY + k;
		if (cr_choice_check(g, seat, c, err, sizeof err) != 0)
			continue;
		if (k == CR_SHOP_ITEMS)
			return c; /* a relic, always */
		int it = h->shop[k];
		const cr_item_kind *ik = &CT(g)->item[it];
		bool better = (ik->cls == CR_IC_WEAPON && ik->bonus > gear_bonus(g, h->weapon)) ||
			      (ik->cls == CR_IC_ARMOR && ik->bonus > gear_bonus(g, h->armor));
		if (better || lasting(g, it) || (heals(g, it) >= 10 && h->gold >= ik->value + 20))
			return c;
	}
	return CR_C_LEAVE;
}

static game_choice in_gateway(const cr_game *g, int seat)
{
	/* split between gateways: whoever's does not lead where the first
	 * scoundrel's does steps out */
	int first = 0;
	for (int s = 0; s < g->seats; s++)
		if (g->h[s].alive && g->h[s].gate && !first)
			first = g->h[s].gate;
	return g->h[seat].gate == first ? CR_C_WAIT : CR_C_OUT;
}

/* The weakest monster next to the seat, or -1. */
static int adjacent_monster(const cr_game *g, int seat, int *dir)
{
	const cr_hero *h = &g->h[seat];
	int best = -1;
	for (int d = 0; d < 4; d++) {
		int m = cr_monster_at(g, h->x + cr_dx[d], h->y + cr_dy[d]);
		if (m >= 0 && (best < 0 || g->mon[m].hp < g->mon[best].hp)) {
			best = m;
			*dir = d;
		}
	}
	return best;
}

static game_choice on_map(const cr_game *g, int seat, rng *r)
{
	const cr_hero *h = &g->h[seat];
	(void)r;
	/* heal when low */
	if (h->hp * 5 < h->max_hp * 2) {
		int best = -1, best_v = 0;
		for (int i = 0; i < CR_INV_MAX; i++)
			if (h->inv[i] >= 0 && heals(g, h->inv[i]) > best_v) {
				best = i;
				best_v = heals(g, h->inv[i]);
			}
		if (best >= 0)
			return CR_C_USE + best;
	}
	int dir = 0;
	int adj = adjacent_monster(g, seat, &dir);
	/* a fire potion when two or more are close */
	int close = 0;
	for (int m = 0; m < g->n_mon; m++)
		close += g->mon[m].alive && abs(g->mon[m].x - h->x) <= 2 &&
			 abs(g->mon[m].y - h->y) <= 2;
	for (int i = 0; i < CR_INV_MAX && close >= 2; i++)
		if (h->inv[i] >= 0 && has_op(g, h->inv[i], CR_E_FIRE))
			return CR_C_USE + i;
	if (adj >= 0)
		return CR_C_N + dir;
	/* better gear, lasting potions and scrolls; identify what is carried */
	for (int i = 0; i < CR_INV_MAX; i++) {
		int k = h->inv[i];
		if (k < 0)
			continue;
		const cr_item_kind *it = &CT(g)->item[k];
		if ((it->cls == CR_IC_WEAPON && it->bonus > gear_bonus(g, h->weapon)) ||
		    (it->cls == CR_IC_ARMOR && it->bonus > gear_bonus(g, h->armor)) ||
		    lasting(g, k))
			return CR_C_USE + i;
	}
	/* room in the pack: drop what is harmful, or gear no better than worn */
	int used = cr_count_class(g, seat, -1);
	if (used >= cr_inv_slots(g, seat) - 1)
		for (int i = 0; i < CR_INV_MAX; i++) {
			int k = h->inv[i];
			if (k < 0)
				continue;
			const cr_item_kind *it = &CT(g)->item[k];
			if (harmful(g, k) || it->cls == CR_IC_WEAPON || it->cls == CR_IC_ARMOR)
				return CR_C_DROP + i;
		}
	/* the nearest monster in view that is awake, or asleep close by: close
	 * in (a far sleeper is left alone: chasing it as it drops in and out
	 * of sight would undo every step exploring makes) */
	int near = -1, nd = 0;
	for (int m = 0; m < g->n_mon; m++) {
		const cr_monster *mo = &g->mon[m];
		if (!mo->alive || !(g->flag[mo->y][mo->x] & CR_F_VISIBLE))
			continue;
		int d = abs(mo->x - h->x) + abs(mo->y - h->y);
		if (!mo->awake && d > 4)
			continue;
		if (near < 0 || d < nd) {
			near = m;
			nd = d;
		}
	}
	if (near >= 0) {
		game_choice c = go_to(g, seat, g->mon[near].x, g->mon[near].y);
		if (c != CR_C_WAIT)
			return c;
	}
	/* follow a scoundrel who went into a gateway */
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *o = &g->h[s];
		if (s == seat || !o->alive || !o->gate)
			continue;
		if (o->gate_fee) { /* a jump: follow if it can be paid */
			game_choice c = CR_C_JUMP + o->gate;
			char err[8];
			if (cr_choice_check(g, seat, c, err, sizeof err) == 0)
				return c;
			continue;
		}
		if (h->x == o->x && h->y == o->y)
			return CR_C_PORTAL;
		return go_to(g, seat, o->x, o->y);
	}
	/* explore what is left */
	cr_pos t;
	if (cr_explore_target(g, seat, &t)) {
		if (!cr_monster_in_view(g))
			return CR_C_EXPLORE;
		return go_to(g, seat, t.x, t.y);
	}
	/* all explored: down, or to the devil */
	const cr_level *lv = &g->lv;
	if (lv->has_down && (g->flag[lv->down.y][lv->down.x] & CR_F_SEEN)) {
		if (h->x == lv->down.x && h->y == lv->down.y)
			return CR_C_PORTAL;
		return go_to(g, seat, lv->down.x, lv->down.y);
	}
	if (g->devil >= 0 && g->mon[g->devil].alive) {
		/* the devil is fought together and rested: wait six steps from it
		 * until the others have come and HP is back to 80% (for at most
		 * 600 rounds of the level) */
		const cr_monster *dv = &g->mon[g->devil];
		int mine = abs(dv->x - h->x) + abs(dv->y - h->y);
		bool all_here = true;
		for (int s = 0; s < g->seats; s++) {
			const cr_hero *o = &g->h[s];
			if (o->alive && !o->gate && abs(dv->x - o->x) + abs(dv->y - o->y) > 6)
				all_here = false;
		}
		bool rested = h->hp * 5 >= h->max_hp * 4;
		if (!dv->awake && mine <= 6 && (!all_here || !rested) &&
		    g->rounds - g->arrived_round < 600)
			return CR_C_WAIT;
		return go_to(g, seat, dv->x, dv->y);
	}
	return CR_C_WAIT;
}

game_choice cr_ai_choose(const cr_game *g, int seat)
{
	if (g->over || seat < 0 || seat >= g->seats || !(cr_pending(g) >> seat & 1))
		return GAME_NO_CHOICE;
	rng r;
	rng_seed(&r, rng_derive_seed(rng_derive_seed(g->seed, (uint64_t)g->decision), (uint64_t)seat),
		 7);
	const cr_hero *h = &g->h[seat];
	game_choice c;
	if (g->n_vote)
		c = pick_option(g, seat, g->vote[0], &r);
	else if (h->screen == CR_SC_EVENT)
		c = pick_option(g, seat, h->event, &r);
	else if (h->screen == CR_SC_SHOP)
		c = shop(g, seat);
	else if (h->gate)
		c = in_gateway(g, seat);
	else
		c = on_map(g, seat, &r);
	char err[8];
	if (cr_choice_check(g, seat, c, err, sizeof err) != 0)
		c = CR_C_WAIT; /* never an illegal choice: wait is always open on the map */
	if (cr_choice_check(g, seat, c, err, sizeof err) != 0) {
		game_choice any[1];
		c = cr_options(g, seat, any, 1) ? any[0] : GAME_NO_CHOICE;
	}
	return c;
}
