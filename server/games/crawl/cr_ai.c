/*
 * cr_ai.c — the crawl AI (docs/rules/crawl.md C48), for AI seats, players
 * who are away and the simulator. It plays from what the party knows — the
 * tiles seen, the monsters in view, what each scoundrel is doing — and like
 * an expert who has learned what every potion and scroll does (their
 * identities never change, C30). In order: vote or choose in events by the
 * value of the effects; shop for healing and better gear; wait in a gateway
 * unless the party is split; heal when low; step out of the awake devil's
 * reach when low; attack what is next to it; wear better gear and use the
 * lasting potions and scrolls; close in on monsters in view; follow a
 * scoundrel who went into a gateway; keep with the party (followers go to
 * the leader, who waits for them); rest when the party needs it; go back
 * up from the last act to stand the fallen again, or to grow stronger
 * before the devil; explore, the ? tiles last and away from the sleeping
 * devil; and when nothing is left, take the portal down, or go for the
 * devil rested. Every seat reaches the party's conclusions from the same
 * state, so the AI seats of a party agree without talking.
 *
 * Its few random draws (a small jitter between options of equal worth)
 * come from a generator derived from (seed, decision, seat), so replaying a
 * run's choices without asking the AI leaves it choosing the same.
 *
 * Long (800 lines) on purpose: one scoundrel's judgement, its sections
 * (worth, items, moving, the party, the devil) small helpers of the one
 * decision at the bottom; split, they would become an interface with a
 * single caller.
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

/* ---- the party (C48) ------------------------------------------------------------------------ */

static bool on_the_map(const cr_hero *h) { return h->alive && !h->gate; }

/* The scoundrel the party gathers on: the first living one on the map. */
static int leader(const cr_game *g)
{
	for (int s = 0; s < g->seats; s++)
		if (on_the_map(&g->h[s]))
			return s;
	return -1;
}

/* Steps over seen tiles from seat a to seat b, or CR_FAR. */
static int apart(const cr_game *g, int a, int b)
{
	const cr_hero *ha = &g->h[a], *hb = &g->h[b];
	if (ha->x == hb->x && ha->y == hb->y)
		return 0;
	uint16_t dist[CR_MAX_H][CR_MAX_W];
	cr_bfs_seen_to(g, ha->x, ha->y, hb->x, hb->y, dist);
	return dist[hb->y][hb->x];
}

/* The party is together: nobody on the map is inside a room (an event or a
 * shop of their own), and everyone within GATHER steps of the leader over
 * seen tiles stands on its tile (one cut off, by a teleport say, or gone
 * far, is not waited for: a human may have other plans). */
#define GATHER 12
#define PATIENCE 800 /* rounds on a level */

static bool gathered(const cr_game *g, int lead)
{
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		if (!on_the_map(h))
			continue;
		if (h->screen != CR_SC_NONE)
			return false;
		int d = s == lead ? 0 : apart(g, lead, s);
		if (d > 0 && d <= GATHER)
			return false;
	}
	return true;
}

/* Expected damage of one blow (C34): a uniform draw in [lo, hi], plus the
 * bonus, minus the defense, at least 1. */
static double blow(int lo, int hi, int bonus, int def)
{
	double sum = 0;
	for (int v = lo; v <= hi; v++) {
		int d = v + bonus - def;
		sum += d < 1 ? 1 : d;
	}
	return sum / (hi - lo + 1);
}

/* HP a scoundrel can count on in a fight: its own and what its pack heals
 * (each potion up to its maximum). */
static int reserve(const cr_game *g, int s)
{
	const cr_hero *h = &g->h[s];
	int v = h->hp;
	for (int i = 0; i < CR_INV_MAX; i++)
		if (h->inv[i] >= 0) {
			int n = heals(g, h->inv[i]);
			v += n < h->max_hp ? n : h->max_hp;
		}
	return v;
}

/* Whether the living party, all at once, should beat monster m: the rounds
 * its blows need to kill it, times the blows it takes meanwhile (on its
 * weakest armour), within `share` of what the party can take. */
static bool can_beat(const cr_game *g, int m, double share)
{
	const cr_monster *mo = &g->mon[m];
	const cr_monster_kind *k = &CT(g)->monster[mo->kind];
	double dps = 0, pool = 0;
	int def = 1000;
	for (int s = 0; s < g->seats; s++) {
		if (!g->h[s].alive)
			continue;
		dps += blow(CR_HERO_ATK_LO, CR_HERO_ATK_HI, cr_attack_bonus(g, s), k->def);
		pool += reserve(g, s);
		if (cr_defense(g, s) < def)
			def = cr_defense(g, s);
	}
	if (dps <= 0)
		return false;
	double taken = mo->hp / dps * blow(k->atk_lo, k->atk_hi, 0, def) * k->speed;
	return taken <= share * pool;
}

/* The devil sleeps on its lair (C40) and wakes at its sight: the AI keeps
 * this far (squared) from the lair while it explores. */
#define DEVIL_BERTH 25

static bool wary_of_devil(const cr_game *g)
{
	return g->devil >= 0 && g->mon[g->devil].alive && !g->mon[g->devil].awake &&
	       (g->flag[g->lv.lair.y][g->lv.lair.x] & CR_F_SEEN);
}

static bool near_the_devil(const cr_game *g, int x, int y)
{
	int dx = x - g->lv.lair.x, dy = y - g->lv.lair.y;
	return wary_of_devil(g) && dx * dx + dy * dy <= DEVIL_BERTH;
}

/* What exploring leaves out now: the sleeping devil's surroundings once
 * its lair is seen; the ? tiles if asked. */
static cr_avoid avoidance(const cr_game *g, bool qmarks)
{
	cr_avoid av = {.qmarks = qmarks};
	if (wary_of_devil(g)) {
		av.at = g->lv.lair;
		av.r2 = DEVIL_BERTH;
	}
	return av;
}

/* The way travel takes from the seat to t (C36: at each step the first
 * direction, N, E, S, W, along a shortest path over seen tiles) crosses
 * nothing av leaves out. */
static bool clear_way(const cr_game *g, int seat, cr_pos t, const cr_avoid *av)
{
	uint16_t dist[CR_MAX_H][CR_MAX_W];
	int x = g->h[seat].x, y = g->h[seat].y;
	cr_bfs_seen_to(g, t.x, t.y, x, y, dist);
	if (dist[y][x] == CR_FAR)
		return false;
	while (dist[y][x] > 0) {
		int d = 0;
		while (d < 4 && dist[y + cr_dy[d]][x + cr_dx[d]] != dist[y][x] - 1)
			d++;
		if (d == 4)
			return false;
		x += cr_dx[d];
		y += cr_dy[d];
		int dx = x - av->at.x, dy = y - av->at.y;
		if (dist[y][x] > 0 && /* the target itself may be a ? */
		    ((av->qmarks && (g->flag[y][x] & CR_F_QMARK)) ||
		     (av->r2 && dx * dx + dy * dy <= av->r2)))
			return false;
	}
	return true;
}

/* C48: the party goes back up an act from the last one (there is no way
 * down from it) — the same conclusion for every seat, from what all can
 * see — when somebody has fallen and the level is explored or half the
 * party is down (a new level stands them up again, C39; in an earlier act
 * the way down does it); or when the level is explored and the sleeping
 * devil looks too strong for the party (a level of the act above, then a
 * new one of this act: experience, gold and things), twice at most; while
 * the round cap leaves time for it. */
static bool party_goes_up(const cr_game *g, bool explored)
{
	if (g->act <= 1 || g->lv.has_down)
		return false;
	int left = g->cfg.max_rounds - g->rounds, living = cr_living(g);
	if (living < g->seats && left > 700 && (explored || living * 2 <= g->seats))
		return true;
	return g->devil >= 0 && g->mon[g->devil].alive && !g->mon[g->devil].awake &&
	       left > 1000 && g->visits[g->act] < 3 && explored &&
	       !can_beat(g, g->devil, 0.6);
}

/* To the seen portal that leads to act `to` and into it; nothing when this
 * level's portals lead elsewhere or that one is not seen yet. */
static game_choice portal_to(const cr_game *g, int seat, int to)
{
	const cr_level *lv = &g->lv;
	const cr_hero *h = &g->h[seat];
	const cr_pos *p = to == g->act + 1 && lv->has_down   ? &lv->down
			  : to == g->act - 1 && lv->has_up ? &lv->up
							   : NULL;
	if (!p || !(g->flag[p->y][p->x] & CR_F_SEEN))
		return GAME_NO_CHOICE;
	if (h->x == p->x && h->y == p->y)
		return CR_C_PORTAL;
	game_choice c = go_to(g, seat, p->x, p->y);
	return c != CR_C_WAIT ? c : GAME_NO_CHOICE;
}

/* The way up: the portal when the party has seen it, else the quick jump
 * when every living scoundrel can pay it (C37), else nothing (explore on). */
static game_choice go_up(const cr_game *g, int seat)
{
	int to = g->act - 1;
	game_choice c = portal_to(g, seat, to);
	if (c != GAME_NO_CHOICE)
		return c;
	int fee = cr_jump_fee(g, to);
	for (int s = 0; s < g->seats; s++)
		if (g->h[s].alive && g->h[s].gold < fee)
			return GAME_NO_CHOICE;
	return CR_C_JUMP + to;
}

/* A rest until everyone on the map is healed (1 HP every 8 rounds, C43)
 * would end within two thirds of the round cap. */
static bool time_to_rest(const cr_game *g)
{
	int missing = 0;
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		if (on_the_map(h) && h->max_hp - h->hp > missing)
			missing = h->max_hp - h->hp;
	}
	return g->rounds + 8 * missing <= g->cfg.max_rounds * 2 / 3;
}

/* C48: the party rests while someone on the map is below half HP with
 * nothing to heal, nothing is in view and the round cap leaves time. */
static bool party_rests(const cr_game *g)
{
	if (cr_monster_in_view(g) || !time_to_rest(g))
		return false;
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		if (on_the_map(h) && h->hp * 2 < h->max_hp && reserve(g, s) == h->hp)
			return true;
	}
	return false;
}

/* Rest (C36: no decision until the party on the map is healed or
 * something turns up) where it is offered, else wait a round. */
static game_choice rest(const cr_game *g, int seat)
{
	char err[8];
	return cr_choice_check(g, seat, CR_C_REST, err, sizeof err) == 0 ? CR_C_REST : CR_C_WAIT;
}

/* Everyone on the map at `pct` percent of their HP or more. */
static bool rested(const cr_game *g, int pct)
{
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		if (on_the_map(h) && h->hp * 100 < h->max_hp * pct)
			return false;
	}
	return true;
}

/* The devil, awake, never strays more than 3 steps from its lair (C40) and
 * does not heal: a scoundrel 5 steps or more from the lair is out of its
 * reach. */
static int from_lair(const cr_game *g, int x, int y)
{
	return abs(x - g->lv.lair.x) + abs(y - g->lv.lair.y);
}

/* Whether to go for the awake devil: from within its reach, or once the
 * party on the map is rested (90% of HP), or when the round cap is near. */
static bool devil_go(const cr_game *g, int seat)
{
	const cr_hero *h = &g->h[seat];
	return from_lair(g, h->x, h->y) <= 4 || rested(g, 90) ||
	       g->rounds >= g->cfg.max_rounds * 3 / 4;
}

static game_choice step_from_lair(const cr_game *g, int seat);

/* C48: below 40% of its HP with nothing to heal, a scoundrel within the
 * awake devil's reach steps out of it (a step it cannot follow for long:
 * each round a monster either strikes or steps), to come back rested. */
static game_choice away_from_the_devil(const cr_game *g, int seat)
{
	const cr_hero *h = &g->h[seat];
	if (g->devil < 0 || !g->mon[g->devil].alive || !g->mon[g->devil].awake ||
	    h->hp * 5 >= h->max_hp * 2 || g->rounds >= g->cfg.max_rounds * 3 / 4)
		return GAME_NO_CHOICE;
	if (from_lair(g, h->x, h->y) > 4)
		return GAME_NO_CHOICE;
	return step_from_lair(g, seat);
}

/* A step that takes the seat farther from the devil's lair, or
 * GAME_NO_CHOICE. */
static game_choice step_from_lair(const cr_game *g, int seat)
{
	const cr_hero *h = &g->h[seat];
	int best = -1, best_d = from_lair(g, h->x, h->y);
	for (int d = 0; d < 4; d++) {
		int x = h->x + cr_dx[d], y = h->y + cr_dy[d];
		if (!cr_passable(g->lv.tile[y][x]) || cr_monster_at(g, x, y) >= 0)
			continue;
		if (from_lair(g, x, y) > best_d) {
			best = d;
			best_d = from_lair(g, x, y);
		}
	}
	return best < 0 ? GAME_NO_CHOICE : CR_C_N + best;
}

/* A follower keeps to the leader: the leader's travel when close (so that
 * a travelling party makes no more decisions than one scoundrel), else
 * to the leader's tile. GAME_NO_CHOICE when on it, or when no known path
 * leads there. */
static game_choice follow(const cr_game *g, int seat, int lead)
{
	const cr_hero *h = &g->h[seat], *l = &g->h[lead];
	int d = apart(g, seat, lead);
	if (d == 0 || d == CR_FAR)
		return GAME_NO_CHOICE;
	char err[8];
	if (d <= 2 && l->travel == CR_TR_EXPLORE &&
	    cr_choice_check(g, seat, CR_C_EXPLORE, err, sizeof err) == 0)
		return CR_C_EXPLORE;
	if (d <= 2 && l->travel == CR_TR_TO && !(l->tx == h->x && l->ty == h->y)) {
		game_choice c = CR_C_TRAVEL + l->ty * 256 + l->tx;
		if (cr_choice_check(g, seat, c, err, sizeof err) == 0)
			return c;
	}
	return go_to(g, seat, l->x, l->y);
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
	game_choice back = away_from_the_devil(g, seat);
	if (back != GAME_NO_CHOICE)
		return back;
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
	 * of sight would undo every step exploring makes); the devil only
	 * once it is awake (the party goes for it together, below) */
	int near = -1, nd = 0;
	for (int m = 0; m < g->n_mon; m++) {
		const cr_monster *mo = &g->mon[m];
		if (!mo->alive || !(g->flag[mo->y][mo->x] & CR_F_VISIBLE))
			continue;
		int d = abs(mo->x - h->x) + abs(mo->y - h->y);
		if (!mo->awake && (d > 4 || m == g->devil))
			continue;
		if (near_the_devil(g, mo->x, mo->y))
			continue; /* fought with the devil, if it does not come out */
		if (m == g->devil && mo->awake && !devil_go(g, seat))
			continue;
		if (near < 0 || d < nd) {
			near = m;
			nd = d;
		}
	}
	if (near >= 0) {
		game_choice c = go_to(g, seat, g->mon[near].x, g->mon[near].y);
		/* not into the sleeping devil's reach: an awake monster comes */
		if (c >= CR_C_N && c <= CR_C_W && near_the_devil(g, h->x + cr_dx[c - CR_C_N],
								 h->y + cr_dy[c - CR_C_N]))
			return CR_C_WAIT;
		if (c != CR_C_WAIT)
			return c;
	}
	/* out of the awake devil's reach, not ready: rest */
	if (g->devil >= 0 && g->mon[g->devil].alive && g->mon[g->devil].awake && !devil_go(g, seat)) {
		/* out of its sight too, where resting is offered (C36) */
		const cr_monster *dv = &g->mon[g->devil];
		if (g->flag[dv->y][dv->x] & CR_F_VISIBLE) {
			game_choice c = step_from_lair(g, seat);
			return c != GAME_NO_CHOICE ? c : CR_C_WAIT;
		}
		return rest(g, seat);
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
			/* else by the portal to that act, when it is known: a
			 * gateway is a gateway (C37) */
			c = portal_to(g, seat, o->gate);
			if (c != GAME_NO_CHOICE)
				return c;
			continue;
		}
		if (h->x == o->x && h->y == o->y)
			return CR_C_PORTAL;
		return go_to(g, seat, o->x, o->y);
	}
	/* the party keeps together: a follower goes to the leader; the leader
	 * (and whoever stands with it) waits until all are there — for
	 * PATIENCE rounds of a level: a party that has not moved on by then
	 * (a leader with other plans) is left to each scoundrel's own */
	int lead = leader(g);
	bool patient = g->rounds - g->arrived_round < PATIENCE;
	if (lead != seat && patient) {
		game_choice c = follow(g, seat, lead);
		if (c != GAME_NO_CHOICE)
			return c;
	}
	if (patient && !gathered(g, lead))
		return CR_C_WAIT;
	if (party_rests(g))
		return rest(g, seat);
	/* what is left to explore (C48): the ? tiles last, once the party is
	 * rested (what they hold may be a fight); away from the sleeping devil
	 * once its lair is seen (it wakes at 4 tiles: the party goes in when
	 * it is ready, below) */
	const cr_level *lv = &g->lv;
	cr_avoid av = avoidance(g, true);
	cr_pos t;
	int d;
	bool qmark;
	bool found = cr_explore_avoiding(g, seat, &av, &t, &d, &qmark);
	if (party_goes_up(g, !found)) {
		game_choice c = go_up(g, seat);
		if (c != GAME_NO_CHOICE)
			return c;
	}
	/* half the party down before the last act: on to the way down, which
	 * stands them up again (C39) */
	if (cr_living(g) * 2 <= g->seats) {
		game_choice c = portal_to(g, seat, g->act + 1);
		if (c != GAME_NO_CHOICE)
			return c;
	}
	if (found && qmark && !rested(g, 75) && time_to_rest(g) &&
	    !cr_monster_in_view(g))
		return rest(g, seat);
	if (found) {
		/* travel there in one choice when the way travel takes is clear
		 * of what is avoided, else step by step */
		int far = abs(t.x - h->x) + abs(t.y - h->y);
		if (far > 2 && !cr_monster_in_view(g) && clear_way(g, seat, t, &av))
			return CR_C_TRAVEL + t.y * 256 + t.x; /* seen, and reached */
		return CR_C_N + d;
	}
	/* all explored: down, or to the devil */
	if (lv->has_down && (g->flag[lv->down.y][lv->down.x] & CR_F_SEEN)) {
		if (h->x == lv->down.x && h->y == lv->down.y)
			return CR_C_PORTAL;
		return go_to(g, seat, lv->down.x, lv->down.y);
	}
	if (g->devil >= 0 && g->mon[g->devil].alive) {
		/* the devil is fought together and rested (at 90% of HP, while
		 * the round cap leaves time) */
		const cr_monster *dv = &g->mon[g->devil];
		if (!dv->awake && !rested(g, 90) && time_to_rest(g))
			return rest(g, seat);
		return go_to(g, seat, dv->x, dv->y);
	}
	return CR_C_WAIT;
}

game_choice cr_ai_choose(const cr_game *g, int seat)
{
	if (g->over || !game_seat_asked(cr_pending(g), g->seats, seat))
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
