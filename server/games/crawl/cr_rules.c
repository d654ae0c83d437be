/*
 * cr_rules.c — a crawl run (docs/rules/crawl.md C19–C20, C31–C45): arriving
 * on a level, who chooses when, the round (every active scoundrel acts in
 * seat order, then the monsters), moving and fighting, ? tiles, chests,
 * shops, items, gateways (portals and the quick jump), travel and explore,
 * falling and reviving, the devil, experience and the end of the run.
 * Long (1,400 lines) on purpose: one run's rules act on one cr_game and
 * call each other across its sections (an act moves monsters, a monster
 * ends a run); each section is one part of docs/rules/crawl.md, headed by
 * its ids.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crawl.h"

#define HERO_HP 30
#define HERO_GOLD 15
#define HERO_SIGHT 7
#define REGEN_EVERY 8
#define JUMP_FEE 25
#define RELIC_PRICE(act) (70 + 20 * (act))

/* ---- derived figures ---------------------------------------------------------- */

static const cr_content *CT(const cr_game *g) { return g->cfg.ct; }

static int relic_sum(const cr_game *g, int seat, size_t off)
{
	int v = 0;
	for (int r = 0; r < CT(g)->n_relics; r++)
		if (g->h[seat].relics >> r & 1)
			v += *(const int16_t *)((const char *)&CT(g)->relic[r] + off);
	return v;
}

/* C34: permanent bonuses, the weapon, relics and a pet's bite */
int cr_attack_bonus(const cr_game *g, int seat)
{
	const cr_hero *h = &g->h[seat];
	int v = h->atk + relic_sum(g, seat, offsetof(cr_relic, attack)) + (h->pet ? 1 : 0);
	if (h->weapon >= 0)
		v += CT(g)->item[h->weapon].bonus;
	return v;
}

int cr_defense(const cr_game *g, int seat)
{
	const cr_hero *h = &g->h[seat];
	int v = h->def + relic_sum(g, seat, offsetof(cr_relic, defense));
	if (h->armor >= 0)
		v += CT(g)->item[h->armor].bonus;
	return v;
}

int cr_sight(const cr_game *g, int seat)
{
	return HERO_SIGHT + relic_sum(g, seat, offsetof(cr_relic, sight));
}

int cr_inv_slots(const cr_game *g, int seat)
{
	int n = CR_INV_BASE + relic_sum(g, seat, offsetof(cr_relic, slots));
	return n > CR_INV_MAX ? CR_INV_MAX : n;
}

/* C37 */
int cr_jump_fee(const cr_game *g, int act) { return JUMP_FEE * abs(act - g->act); }

/* C43: 10, 25, 45, 70, 100, ... */
int cr_xp_next(int level) { return 5 * level * (level + 3) / 2; }

bool cr_has_special(const cr_game *g, int special)
{
	for (int r = 0; r < CT(g)->n_relics; r++) {
		if (CT(g)->relic[r].special != special)
			continue;
		for (int s = 0; s < g->seats; s++)
			if (g->h[s].alive && (g->h[s].relics >> r & 1))
				return true;
	}
	return false;
}

bool cr_party_hurt(const cr_game *g)
{
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		if (h->alive && !h->gate && h->hp < h->max_hp)
			return true;
	}
	return false;
}

int cr_living(const cr_game *g)
{
	int n = 0;
	for (int s = 0; s < g->seats; s++)
		n += g->h[s].alive;
	return n;
}

int cr_monster_at(const cr_game *g, int x, int y)
{
	for (int m = 0; m < g->n_mon; m++)
		if (g->mon[m].alive && g->mon[m].x == x && g->mon[m].y == y)
			return m;
	return -1;
}

bool cr_monster_in_view(const cr_game *g)
{
	for (int m = 0; m < g->n_mon; m++)
		if (g->mon[m].alive && (g->flag[g->mon[m].y][g->mon[m].x] & CR_F_VISIBLE))
			return true;
	return false;
}

/* C45 */
int64_t cr_score(const cr_game *g, int seat)
{
	const cr_hero *h = &g->h[seat];
	return (int64_t)h->gold + 10 * h->kills + 100 * g->max_act + (g->won ? 500 : 0);
}

static int gold_scaled(const cr_game *g, int seat, int gold)
{
	return gold * (100 + relic_sum(g, seat, offsetof(cr_relic, gold_pct))) / 100;
}

/* ---- the end -------------------------------------------------------------------- */

static void end_run(cr_game *g, int why, game_events *evs)
{
	if (g->over)
		return;
	g->over = true;
	g->won = why == CR_END_WON;
	g->end_reason = why;
	for (int s = 0; s < g->seats; s++) {
		g->h[s].travel = CR_TR_NONE;
		g->h[s].screen = CR_SC_NONE;
	}
	g->n_vote = 0;
	int64_t best = 0;
	for (int s = 0; s < g->seats; s++)
		if (cr_score(g, s) > best)
			best = cr_score(g, s);
	game_emit(evs, CR_EV_GAME_OVER, -1, why, g->rounds, (int32_t)best);
}

/* ---- gold, experience, items, relics ------------------------------------------- */

void cr_gain_gold(cr_game *g, int seat, int gold, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	int before = h->gold;
	long v = (long)h->gold + gold;
	h->gold = (int32_t)(v < 0 ? 0 : v > 1000000000L ? 1000000000L : v);
	if (gold > 0)
		h->gold_earned += h->gold - before;
	game_emit(evs, CR_EV_GOLD, seat, h->gold - before, h->gold, 0);
}

void cr_gain_xp(cr_game *g, int seat, int xp, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	h->xp += xp;
	while (h->xp >= cr_xp_next(h->level) && h->level < 50) {
		h->xp -= cr_xp_next(h->level);
		h->level++;
		h->max_hp = (int16_t)(h->max_hp + 4);
		h->hp = (int16_t)(h->hp + 4);
		if (h->level % 2 == 0)
			h->atk++;
		game_emit(evs, CR_EV_LEVEL_UP, seat, h->level, 0, 0);
	}
}

int cr_give_item(cr_game *g, int seat, int kind, game_events *evs)
{
	if (kind < 0 || kind >= CT(g)->n_items)
		return -1; /* nothing was drawn */
	cr_hero *h = &g->h[seat];
	int slots = cr_inv_slots(g, seat);
	for (int i = 0; i < slots; i++)
		if (h->inv[i] < 0) {
			h->inv[i] = (int8_t)kind;
			game_emit(evs, CR_EV_ITEM, seat, kind, i, 0);
			return i;
		}
	game_emit(evs, CR_EV_ITEM, seat, kind, -1, 0); /* C41: no room: left behind */
	return -1;
}

/* C41: by weight among the kinds found in this act (and of the class asked). */
int cr_pick_item(cr_game *g, rng *r, int pick)
{
	const cr_content *ct = CT(g);
	int total = 0;
	for (int pass = 0; pass < 2; pass++) {
		int roll = pass ? (int)rng_below(r, (uint32_t)total) : 0;
		for (int k = 0; k < ct->n_items; k++) {
			const cr_item_kind *it = &ct->item[k];
			if (it->min_act > g->act)
				continue;
			if ((pick == CR_PICK_POTION && it->cls != CR_IC_POTION) ||
			    (pick == CR_PICK_SCROLL && it->cls != CR_IC_SCROLL) ||
			    (pick == CR_PICK_GEAR && it->cls != CR_IC_WEAPON && it->cls != CR_IC_ARMOR))
				continue;
			if (!pass)
				total += it->weight;
			else if ((roll -= it->weight) < 0)
				return k;
		}
		if (!total)
			return -1;
	}
	return -1;
}

/* C37's relic pool: a given relic if still in it, else a random one; an
 * empty pool (or a relic already found) gives 50 gold instead. */
void cr_give_relic(cr_game *g, int seat, int relic, rng *r, game_events *evs)
{
	if (relic == CR_PICK_ANY) {
		int n = __builtin_popcount(g->relic_pool);
		relic = -1;
		if (n) {
			int pick = (int)rng_below(r, (uint32_t)n);
			for (int i = 0; i < CT(g)->n_relics && relic < 0; i++)
				if ((g->relic_pool >> i & 1) && pick-- == 0)
					relic = i;
		}
	} else if (relic >= 0 && !(g->relic_pool >> relic & 1)) {
		relic = -1;
	}
	if (relic < 0) {
		cr_gain_gold(g, seat, 50, evs);
		return;
	}
	cr_hero *h = &g->h[seat];
	g->relic_pool &= (uint16_t)~(1u << relic);
	h->relics |= (uint16_t)(1u << relic);
	const cr_relic *rl = &CT(g)->relic[relic];
	if (rl->max_hp) {
		h->max_hp = (int16_t)(h->max_hp + rl->max_hp);
		h->hp = (int16_t)(h->hp + rl->max_hp);
	}
	if (rl->special == CR_SP_COMPASS)
		g->compass_act = g->act; /* C17 */
	game_emit(evs, CR_EV_RELIC, seat, relic, 0, 0);
}

void cr_identify(cr_game *g, int kind, game_events *evs)
{
	if (g->identified >> kind & 1)
		return;
	g->identified |= 1u << kind;
	game_emit(evs, CR_EV_IDENTIFY, -1, kind, 0, 0);
}

void cr_reveal_map(cr_game *g)
{
	const cr_level *lv = &g->lv;
	for (int y = 0; y < lv->h; y++)
		for (int x = 0; x < lv->w; x++) {
			bool near_open = false;
			for (int dy = -1; dy <= 1 && !near_open; dy++)
				for (int dx = -1; dx <= 1 && !near_open; dx++)
					near_open = cr_in(lv, x + dx, y + dy) &&
						    cr_passable(lv->tile[y + dy][x + dx]);
			if (near_open)
				g->flag[y][x] |= CR_F_SEEN;
		}
}

/* ---- monsters ------------------------------------------------------------------- */

/* C35: the devil, whom the whole party fights at once, has +35% HP a seat
 * past the first; other monsters meet scoundrels one or two at a time. */
static int scaled_hp(const cr_game *g, const cr_monster_kind *k)
{
	return k->boss ? k->hp * (100 + 35 * (g->seats - 1)) / 100 : k->hp;
}

static int add_monster(cr_game *g, int kind, int x, int y, bool awake)
{
	if (g->n_mon == CR_MAX_MONSTERS)
		return -1;
	cr_monster *m = &g->mon[g->n_mon];
	const cr_monster_kind *k = &CT(g)->monster[kind];
	*m = (cr_monster){.kind = (uint8_t)kind, .x = (uint8_t)x, .y = (uint8_t)y,
			  .alive = true, .awake = awake};
	m->hp = m->max_hp = (int16_t)scaled_hp(g, k);
	return g->n_mon++;
}

/* A monster kind of the act: plain or elite, uniformly. */
static int pick_monster(cr_game *g, rng *r, bool elite)
{
	const cr_content *ct = CT(g);
	int n = 0, cand[CR_MAX_MONSTER_KINDS];
	for (int i = 0; i < ct->n_monsters; i++) {
		const cr_monster_kind *k = &ct->monster[i];
		if ((k->acts >> g->act & 1) && !k->boss && k->elite == elite)
			cand[n++] = i;
	}
	return n ? cand[rng_below(r, (uint32_t)n)] : -1;
}

static bool hero_at(const cr_game *g, int x, int y)
{
	for (int s = 0; s < g->seats; s++)
		if (g->h[s].alive && !g->h[s].gate && g->h[s].x == x && g->h[s].y == y)
			return true;
	return false;
}

/* The nearest free floor tile around (x, y) by path distance, or false. */
static bool free_near(const cr_game *g, int x, int y, cr_pos *out)
{
	uint16_t dist[CR_MAX_H][CR_MAX_W];
	cr_level_bfs(&g->lv, (cr_pos){(uint8_t)x, (uint8_t)y}, dist);
	int best = CR_FAR;
	for (int yy = 0; yy < g->lv.h; yy++)
		for (int xx = 0; xx < g->lv.w; xx++) {
			int d = dist[yy][xx];
			if (d == 0 || d >= best || g->lv.tile[yy][xx] != CR_T_FLOOR)
				continue;
			if (cr_monster_at(g, xx, yy) >= 0 || hero_at(g, xx, yy) ||
			    (g->flag[yy][xx] & (CR_F_UP | CR_F_DOWN | CR_F_LAIR)))
				continue;
			best = d;
			*out = (cr_pos){(uint8_t)xx, (uint8_t)yy};
		}
	return best != CR_FAR;
}

/* C20: a Normal Combat is 1-2 monsters of the act, an Elite one elite,
 * awake, on the free tiles nearest the scoundrel. */
void cr_ambush(cr_game *g, int seat, bool elite, rng *r, game_events *evs)
{
	int n = elite ? 1 : 1 + (int)rng_below(r, 2);
	const cr_hero *h = &g->h[seat];
	for (int i = 0; i < n; i++) {
		int kind = pick_monster(g, r, elite);
		cr_pos p;
		if (kind < 0 || !free_near(g, h->x, h->y, &p))
			return;
		int m = add_monster(g, kind, p.x, p.y, true);
		if (m >= 0)
			game_emit(evs, CR_EV_AMBUSH, seat, CR_MON_REF(g, m), 0, 0);
	}
}

static void hero_falls(cr_game *g, int seat, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	h->alive = false;
	h->hp = 0;
	h->falls++;
	h->travel = CR_TR_NONE;
	h->screen = CR_SC_NONE;
	h->gate = 0;
	game_emit(evs, CR_EV_FALL, seat, 0, 0, 0);
	if (!cr_living(g))
		end_run(g, CR_END_FALLEN, evs);
}

void cr_hurt_monster(cr_game *g, int seat, int m, int dmg, game_events *evs)
{
	cr_monster *mo = &g->mon[m];
	if (!mo->alive)
		return;
	mo->awake = true;
	mo->hp = (int16_t)(mo->hp - dmg);
	game_emit(evs, CR_EV_ATTACK, seat, CR_MON_REF(g, m), dmg, mo->hp > 0 ? mo->hp : 0);
	if (mo->hp > 0)
		return;
	mo->alive = false;
	const cr_monster_kind *k = &CT(g)->monster[mo->kind];
	cr_hero *h = &g->h[seat];
	h->kills++;
	if (k->elite)
		h->elite_kills++;
	int gold = k->gold_lo + (int)rng_below(&g->rules, (uint32_t)(k->gold_hi - k->gold_lo + 1));
	gold = gold_scaled(g, seat, gold);
	game_emit(evs, CR_EV_KILL, seat, CR_MON_REF(g, m), k->xp, gold);
	if (gold)
		cr_gain_gold(g, seat, gold, evs);
	int heal = relic_sum(g, seat, offsetof(cr_relic, heal_on_kill));
	if (heal && h->hp < h->max_hp) {
		int before = h->hp;
		h->hp = (int16_t)(h->hp + heal > h->max_hp ? h->max_hp : h->hp + heal);
		game_emit(evs, CR_EV_HP, seat, h->hp - before, h->hp, 0);
	}
	cr_gain_xp(g, seat, k->xp, evs);
	if (k->boss)
		end_run(g, CR_END_WON, evs); /* C40 */
}

/* C34: damage is the attack's range plus bonuses minus defense, at least 1;
 * every blow lands. */
static void hero_attacks(cr_game *g, int seat, int m, game_events *evs)
{
	int dmg = rng_range(&g->rules, CR_HERO_ATK_LO, CR_HERO_ATK_HI) + cr_attack_bonus(g, seat) -
		  CT(g)->monster[g->mon[m].kind].def;
	cr_hurt_monster(g, seat, m, dmg < 1 ? 1 : dmg, evs);
}

static void monster_attacks(cr_game *g, int m, int seat, game_events *evs)
{
	const cr_monster_kind *k = &CT(g)->monster[g->mon[m].kind];
	cr_hero *h = &g->h[seat];
	int dmg = rng_range(&g->rules, k->atk_lo, k->atk_hi) - cr_defense(g, seat);
	if (dmg < 1)
		dmg = 1;
	h->hp = (int16_t)(h->hp - dmg);
	h->damage_taken += dmg;
	game_emit(evs, CR_EV_HIT, seat, CR_MON_REF(g, m), dmg, h->hp > 0 ? h->hp : 0);
	if (h->hp <= 0)
		hero_falls(g, seat, evs);
}

/* Whom monsters go for: living, on the map, not inside a room (C25). */
static bool target(const cr_hero *h) { return h->alive && !h->gate && h->screen == CR_SC_NONE; }

/* C35: a sleeping monster wakes when a scoundrel comes within its sight
 * (in line of sight); an awake one attacks the weakest scoundrel next to it
 * or steps along the shortest path toward the nearest; speed 2 does it
 * twice. C40: the devil never strays more than 3 steps from its lair. */
/* Path distances from the scoundrels monsters go for, over passable tiles:
 * the sources are taken when the monsters' turn begins (one who falls during
 * it still draws them), the search is made when a monster first needs to
 * step (most rounds none does). */
typedef struct hunt {
	bool done;
	int n_src;
	uint16_t src[CR_MAX_SEATS];
	uint16_t dist[CR_MAX_H][CR_MAX_W];
} hunt;

static void hunt_begin(const cr_game *g, hunt *t)
{
	t->done = false;
	t->n_src = 0;
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		uint16_t at = (uint16_t)(h->y * CR_MAX_W + h->x);
		bool dup = false;
		for (int i = 0; i < t->n_src; i++)
			dup |= t->src[i] == at;
		if (target(h) && !dup)
			t->src[t->n_src++] = at;
	}
}

static void hunt_search(const cr_game *g, hunt *t)
{
	const cr_level *lv = &g->lv;
	uint16_t q[CR_MAX_W * CR_MAX_H];
	int head = 0, tail = 0;
	t->done = true;
	for (int y = 0; y < lv->h; y++)
		memset(t->dist[y], 0xff, (size_t)lv->w * sizeof t->dist[0][0]);
	for (int i = 0; i < t->n_src; i++) {
		t->dist[t->src[i] / CR_MAX_W][t->src[i] % CR_MAX_W] = 0;
		q[tail++] = t->src[i];
	}
	while (head < tail) {
		int x = q[head] % CR_MAX_W, y = q[head] / CR_MAX_W;
		head++;
		for (int d = 0; d < 4; d++) {
			int nx = x + cr_dx[d], ny = y + cr_dy[d];
			if (!cr_passable(lv->tile[ny][nx]) || t->dist[ny][nx] != CR_FAR)
				continue;
			t->dist[ny][nx] = (uint16_t)(t->dist[y][x] + 1);
			q[tail++] = (uint16_t)(ny * CR_MAX_W + nx);
		}
	}
}

static void monsters_act(cr_game *g, game_events *evs)
{
	const cr_level *lv = &g->lv;
	const uint16_t none = CR_FAR;
	hunt hu;
	uint16_t (*dist)[CR_MAX_W] = hu.dist;
	hunt_begin(g, &hu);
	for (int m = 0; m < g->n_mon && !g->over; m++) {
		cr_monster *mo = &g->mon[m];
		if (!mo->alive)
			continue;
		const cr_monster_kind *k = &CT(g)->monster[mo->kind];
		if (!mo->awake) {
			for (int s = 0; s < g->seats && !mo->awake; s++) {
				const cr_hero *h = &g->h[s];
				int dx = h->x - mo->x, dy = h->y - mo->y;
				if (target(h) && dx * dx + dy * dy <= k->sight * k->sight &&
				    cr_los(g, mo->x, mo->y, h->x, h->y))
					mo->awake = true;
			}
			if (!mo->awake)
				continue;
			if (k->boss)
				game_emit(evs, CR_EV_DEVIL, -1, CR_MON_REF(g, m), 0, 0);
		}
		for (int act = 0; act < k->speed && mo->alive && !g->over; act++) {
			int victim = -1;
			for (int s = 0; s < g->seats; s++) {
				const cr_hero *h = &g->h[s];
				if (!target(h) || abs(h->x - mo->x) + abs(h->y - mo->y) != 1)
					continue;
				if (victim < 0 || h->hp < g->h[victim].hp)
					victim = s;
			}
			if (victim >= 0) {
				monster_attacks(g, m, victim, evs);
				continue;
			}
			if (!hu.done)
				hunt_search(g, &hu);
			int here = dist[mo->y][mo->x], best = -1;
			for (int d = 0; d < 4; d++) {
				int nx = mo->x + cr_dx[d], ny = mo->y + cr_dy[d];
				int nd = dist[ny][nx];
				if (nd == none || nd >= here || cr_monster_at(g, nx, ny) >= 0 ||
				    hero_at(g, nx, ny))
					continue;
				/* the devil keeps to its lair: never 3 steps from it */
				if (k->boss && abs(nx - lv->lair.x) + abs(ny - lv->lair.y) > 3)
					continue;
				if (best < 0 || nd < dist[mo->y + cr_dy[best]][mo->x + cr_dx[best]])
					best = d;
			}
			if (best < 0)
				break;
			mo->x = (uint8_t)(mo->x + cr_dx[best]);
			mo->y = (uint8_t)(mo->y + cr_dy[best]);
			if (lv->tile[mo->y][mo->x] == CR_T_DOOR) {
				g->lv.tile[mo->y][mo->x] = CR_T_DOOR_OPEN;
				g->doors_opened++;
			}
		}
	}
}

/* ---- arriving on a level (C8, C14, C21, C37, C39) --------------------------------- */

static void arrive(cr_game *g, int act, game_events *evs)
{
	int visit = g->visits[act]++;
	g->act = act;
	g->arrived_round = g->rounds;
	if (act > g->max_act)
		g->max_act = act;
	g->floors++;
	cr_level_generate(&g->lv, g->seed, act, g->cfg.acts, visit, g->cfg.width,
			  g->cfg.height);
	const cr_level *lv = &g->lv;
	g->gen_levels++;
	g->gen_rejections += lv->rejections;
	g->gen_fallbacks += lv->fallback;
	if (lv->rejections > g->gen_max_rejections)
		g->gen_max_rejections = lv->rejections;
	memset(g->flag, 0, sizeof g->flag);
	for (int i = 0; i < lv->n_qmark; i++)
		g->flag[lv->qmark[i].y][lv->qmark[i].x] |= CR_F_QMARK;
	for (int i = 0; i < lv->n_chest; i++)
		g->flag[lv->chest[i].y][lv->chest[i].x] |= CR_F_CHEST;
	if (lv->has_up)
		g->flag[lv->up.y][lv->up.x] |= CR_F_UP;
	if (lv->has_down)
		g->flag[lv->down.y][lv->down.x] |= CR_F_DOWN;
	if (lv->has_lair)
		g->flag[lv->lair.y][lv->lair.x] |= CR_F_LAIR;
	/* the monsters: one a spawn, kinds drawn from the level's own generator */
	rng r;
	rng_seed(&r, lv->seed, 3);
	g->n_mon = 0;
	g->devil = -1;
	for (int i = 0; i < lv->n_spawn; i++) {
		int kind = pick_monster(g, &r, false);
		if (kind >= 0)
			add_monster(g, kind, lv->spawn[i].x, lv->spawn[i].y, false);
	}
	if (lv->has_lair)
		g->devil = add_monster(g, CT(g)->devil, lv->lair.x, lv->lair.y, false);
	for (int s = 0; s < g->seats; s++) {
		cr_hero *h = &g->h[s];
		if (!h->alive) { /* C39: carried along, back on their feet */
			h->alive = true;
			h->hp = (int16_t)((h->max_hp + 1) / 2);
			g->revives++;
			game_emit(evs, CR_EV_REVIVE, s, h->hp, 0, 0);
		}
		h->x = lv->start.x;
		h->y = lv->start.y;
		h->gate = 0;
		h->gate_fee = 0;
		h->screen = CR_SC_NONE;
		h->travel = CR_TR_NONE;
	}
	cr_odds_reset(&g->odds); /* C14 */
	cr_pool_shuffle(g);	 /* C21 */
	g->n_vote = 0;
	game_emit(evs, CR_EV_LEVEL, -1, act, visit, lv->n_qmark);
	cr_fov_update(g);
}

void cr_game_init(cr_game *g, const cr_config *cfg, int seats, uint64_t seed, game_events *evs)
{
	memset(g, 0, sizeof *g);
	g->cfg = *cfg;
	g->seats = seats;
	g->seed = seed;
	rng_seed(&g->rules, seed, 1);
	rng_seed(&g->qrng, seed, 2);
	rng_seed(&g->shared_rng, seed, 3);
	for (int s = 0; s < seats; s++) {
		cr_hero *h = &g->h[s];
		h->alive = true;
		h->hp = h->max_hp = HERO_HP;
		h->level = 1;
		h->gold = HERO_GOLD;
		h->weapon = h->armor = -1;
		memset(h->inv, -1, sizeof h->inv);
		h->event = -1;
		rng_seed(&h->erng, seed, 10 + (uint64_t)s); /* C25: each its own */
	}
	/* C15: a party is on its first run when any seated human is */
	g->first_run = (cfg->first_run & ((1u << seats) - 1)) != 0;
	cr_odds_init(&g->odds, cfg->deadly_events);
	g->relic_pool = (uint16_t)((1u << cfg->ct->n_relics) - 1);
	if (cfg->deadly_events) /* C18 */
		g->relic_pool &= (uint16_t)~(1u << cfg->ct->juzu);
	g->decision = 1;
	arrive(g, 1, evs);
}

/* ---- who chooses (C32, C36, C37) ---------------------------------------------------- */

static uint32_t pending_raw(const cr_game *g, bool *travelers)
{
	*travelers = false;
	if (g->over)
		return 0;
	uint32_t active = 0, gates = 0, living = 0;
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		if (!h->alive)
			continue;
		living |= 1u << s;
		if (h->screen != CR_SC_NONE)
			active |= 1u << s;
		else if (h->gate)
			gates |= 1u << s;
		else if (h->travel)
			*travelers = true;
		else
			active |= 1u << s;
	}
	if (g->n_vote)
		return living; /* C24: the whole party votes */
	if (active)
		return active | gates;
	return *travelers ? 0 : gates;
}

uint32_t cr_pending(const cr_game *g)
{
	bool t;
	return pending_raw(g, &t);
}

/* ---- travel and explore (C36) --------------------------------------------------------- */

/* Path distances over tiles the party has seen, from (x0, y0). With a stop
 * tile (sx >= 0) the search ends as soon as that tile has its distance D:
 * breadth first, every tile nearer than D has its own by then, and those
 * left at CR_FAR are at least D away — all a step toward the start tile
 * from the stop tile needs (C36), at a fraction of a whole search. */
static void bfs_seen(const cr_game *g, int x0, int y0, int sx, int sy,
		     uint16_t dist[CR_MAX_H][CR_MAX_W])
{
	const cr_level *lv = &g->lv;
	uint16_t q[CR_MAX_W * CR_MAX_H];
	int head = 0, tail = 0;
	for (int y = 0; y < lv->h; y++)
		memset(dist[y], 0xff, (size_t)lv->w * sizeof dist[0][0]);
	dist[y0][x0] = 0;
	if (x0 == sx && y0 == sy)
		return;
	q[tail++] = (uint16_t)(y0 * CR_MAX_W + x0);
	while (head < tail) {
		int x = q[head] % CR_MAX_W, y = q[head] / CR_MAX_W;
		head++;
		for (int d = 0; d < 4; d++) {
			int nx = x + cr_dx[d], ny = y + cr_dy[d];
			if (dist[ny][nx] != CR_FAR || !cr_passable(lv->tile[ny][nx]) ||
			    !(g->flag[ny][nx] & CR_F_SEEN))
				continue;
			dist[ny][nx] = (uint16_t)(dist[y][x] + 1);
			if (nx == sx && ny == sy)
				return;
			q[tail++] = (uint16_t)(ny * CR_MAX_W + nx);
		}
	}
}

void cr_bfs_seen(const cr_game *g, int x0, int y0, uint16_t dist[CR_MAX_H][CR_MAX_W])
{
	bfs_seen(g, x0, y0, -1, -1, dist);
}

void cr_bfs_seen_to(const cr_game *g, int x0, int y0, int sx, int sy,
		    uint16_t dist[CR_MAX_H][CR_MAX_W])
{
	bfs_seen(g, x0, y0, sx, sy, dist);
}

/* Flat indexes into a level's rows: tile (x, y) is y * CR_MAX_W + x. */
static const int flat_step[4] = {-CR_MAX_W, 1, CR_MAX_W, -1}; /* N, E, S, W */

static bool frontier(const uint8_t *flag, int at)
{
	if (flag[at] & (CR_F_QMARK | CR_F_CHEST))
		return true;
	for (int d = 0; d < 4; d++)
		if (!(flag[at + flat_step[d]] & CR_F_SEEN))
			return true;
	return false;
}

/* The nearest seen tile with something to explore (an unseen neighbour, an
 * unentered ? or an unopened chest), reading order among the nearest. The
 * search goes breadth first from the seat over seen passable tiles and ends
 * with the first distance at which it finds one. With dir, it also gives the
 * first step toward it that step_toward would take — of the seat's
 * neighbours on a shortest path to it, the first in N, E, S, W order — by
 * carrying with each tile the first steps of every shortest path to it (a
 * tile's predecessors are all done before it is taken: the graph is
 * undirected, so this is the search from the target back). */
static bool explore_search(const cr_game *g, int seat, cr_pos *out, int *dir,
			   const cr_avoid *av, bool *qmark)
{
	const cr_level *lv = &g->lv;
	const cr_hero *h = &g->h[seat];
	const uint8_t *tile = &lv->tile[0][0], *flag = &g->flag[0][0];
	uint16_t dist[CR_MAX_H * CR_MAX_W];
	uint8_t first[CR_MAX_H * CR_MAX_W]; /* bit d: a shortest path starts with d */
	uint16_t q[CR_MAX_W * CR_MAX_H];
	for (int y = 0; y < lv->h; y++)
		memset(&dist[y * CR_MAX_W], 0xff, (size_t)lv->w * sizeof dist[0]);
	int head = 0, tail = 0, best_d = CR_FAR, best = -1;
	int q_at = -1, q_dir = 0; /* the nearest ? left out (av->qmarks) */
	int from = h->y * CR_MAX_W + h->x;
	dist[from] = 0;
	first[from] = 0;
	q[tail++] = (uint16_t)from;
	while (head < tail) {
		int at = q[head++], d = dist[at];
		if (d > best_d)
			break; /* the nearest distance is done */
		if (d > 0 && (best < 0 || at < best) && frontier(flag, at)) {
			best_d = d;
			best = at; /* reading order: y, then x */
		}
		for (int k = 0; k < 4; k++) {
			int n = at + flat_step[k];
			if (dist[n] != CR_FAR) {
				if (dist[n] == d + 1)
					first[n] |= first[at];
				continue;
			}
			if (!cr_passable(tile[n]) || !(flag[n] & CR_F_SEEN))
				continue;
			if (av && av->qmarks && (flag[n] & CR_F_QMARK)) {
				if (q_at < 0) { /* breadth first: the nearest */
					q_at = n;
					q_dir = d ? __builtin_ctz(first[at]) : k;
				}
				continue;
			}
			if (av && av->r2) {
				int dx = n % CR_MAX_W - av->at.x, dy = n / CR_MAX_W - av->at.y;
				if (dx * dx + dy * dy <= av->r2)
					continue;
			}
			dist[n] = (uint16_t)(d + 1);
			first[n] = d ? first[at] : (uint8_t)(1u << k);
			q[tail++] = (uint16_t)n;
		}
	}
	if (qmark)
		*qmark = best < 0 && q_at >= 0;
	if (best < 0 && q_at >= 0) {
		*out = (cr_pos){(uint8_t)(q_at % CR_MAX_W), (uint8_t)(q_at / CR_MAX_W)};
		*dir = q_dir;
		return true;
	}
	if (best < 0)
		return false;
	*out = (cr_pos){(uint8_t)(best % CR_MAX_W), (uint8_t)(best / CR_MAX_W)};
	if (dir)
		*dir = __builtin_ctz(first[best]);
	return true;
}

bool cr_explore_target(const cr_game *g, int seat, cr_pos *out)
{
	return explore_search(g, seat, out, NULL, NULL, NULL);
}

bool cr_explore_avoiding(const cr_game *g, int seat, const cr_avoid *av, cr_pos *out, int *dir,
			 bool *qmark)
{
	return explore_search(g, seat, out, dir, av, qmark);
}

static void stop_travel(cr_game *g, int seat, int why, game_events *evs)
{
	if (!g->h[seat].travel)
		return;
	g->h[seat].travel = CR_TR_NONE;
	game_emit(evs, CR_EV_TRAVEL, seat, 0, why, 0);
}

/* The step toward (tx, ty) along seen tiles, or -1. */
static int step_toward(const cr_game *g, int seat, int tx, int ty)
{
	uint16_t dist[CR_MAX_H][CR_MAX_W];
	const cr_hero *h = &g->h[seat];
	bfs_seen(g, tx, ty, h->x, h->y, dist);
	int here = dist[h->y][h->x], best = -1;
	for (int d = 0; d < 4; d++) {
		int nd = dist[h->y + cr_dy[d]][h->x + cr_dx[d]];
		if (nd < here && (best < 0 || nd < dist[h->y + cr_dy[best]][h->x + cr_dx[best]]))
			best = d;
	}
	return best;
}

/* What a traveller does this round: a step, or it stops and waits. */
static game_choice travel_step(cr_game *g, int seat, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	cr_pos t = {h->tx, h->ty};
	int d;
	if (h->travel == CR_TR_REST)
		return CR_C_WAIT; /* map_round says when it ends */
	if (h->travel == CR_TR_EXPLORE) {
		/* the target is never the seat's own tile: the step comes with it */
		if (!explore_search(g, seat, &t, &d, NULL, NULL)) {
			stop_travel(g, seat, CR_STOP_DONE, evs);
			return CR_C_WAIT;
		}
	} else {
		if (h->x == t.x && h->y == t.y) {
			stop_travel(g, seat, CR_STOP_ARRIVED, evs);
			return CR_C_WAIT;
		}
		d = step_toward(g, seat, t.x, t.y);
	}
	if (d < 0 || cr_monster_at(g, h->x + cr_dx[d], h->y + cr_dy[d]) >= 0) {
		stop_travel(g, seat, CR_STOP_BLOCKED, evs);
		return CR_C_WAIT;
	}
	return CR_C_N + d;
}

/* ---- legality (C32) ---------------------------------------------------------------------- */


static bool can_travel_to(const cr_game *g, int seat, int x, int y)
{
	const cr_hero *h = &g->h[seat];
	if (x >= g->lv.w || y >= g->lv.h || (x == h->x && y == h->y))
		return false;
	if (!cr_passable(g->lv.tile[y][x]) || !(g->flag[y][x] & CR_F_SEEN))
		return false;
	uint16_t dist[CR_MAX_H][CR_MAX_W];
	bfs_seen(g, h->x, h->y, x, y, dist);
	return dist[y][x] != CR_FAR;
}

static int shop_price(const cr_game *g, const cr_hero *h, int k)
{
	return k < CR_SHOP_ITEMS ? CT(g)->item[h->shop[k]].value : RELIC_PRICE(g->act);
}

static int free_slot(const cr_game *g, int seat)
{
	for (int i = 0; i < cr_inv_slots(g, seat); i++)
		if (g->h[seat].inv[i] < 0)
			return i;
	return -1;
}

static bool legal(const cr_game *g, int seat, game_choice c)
{
	const cr_hero *h = &g->h[seat];
	if (g->n_vote)
		return c >= CR_C_EVENT && cr_option_open(g, seat, g->vote[0], c - CR_C_EVENT);
	if (h->screen == CR_SC_EVENT)
		return c >= CR_C_EVENT && cr_option_open(g, seat, h->event, c - CR_C_EVENT);
	if (h->screen == CR_SC_SHOP) {
		if (c == CR_C_LEAVE)
			return true;
		int k = c - CR_C_BUY;
		if (k < 0 || k > CR_SHOP_ITEMS)
			return false;
		if (k < CR_SHOP_ITEMS ? h->shop[k] < 0 || free_slot(g, seat) < 0 : h->shop_relic < 0)
			return false;
		return h->gold >= shop_price(g, h, k);
	}
	if (h->gate)
		return c == CR_C_WAIT || c == CR_C_OUT;
	if (c == CR_C_WAIT)
		return true;
	if (c >= CR_C_N && c <= CR_C_W) {
		int d = c - CR_C_N;
		return cr_passable(g->lv.tile[h->y + cr_dy[d]][h->x + cr_dx[d]]);
	}
	if (c == CR_C_PORTAL)
		return g->flag[h->y][h->x] & (CR_F_UP | CR_F_DOWN);
	if ((c & ~0xff) == CR_C_USE || (c & ~0xff) == CR_C_DROP) {
		int i = c & 0xff;
		return i < CR_INV_MAX && h->inv[i] >= 0;
	}
	if ((c & ~0xff) == CR_C_JUMP) {
		int a = c & 0xff;
		return a >= 1 && a <= g->max_act && a != g->act && h->gold >= cr_jump_fee(g, a);
	}
	if (c == CR_C_REST)
		return !cr_monster_in_view(g) && cr_party_hurt(g);
	if (c == CR_C_EXPLORE) {
		cr_pos t;
		return !cr_monster_in_view(g) && cr_explore_target(g, seat, &t);
	}
	if (c >= CR_C_TRAVEL && c < CR_C_TRAVEL + 0x10000)
		return !cr_monster_in_view(g) &&
		       can_travel_to(g, seat, (c - CR_C_TRAVEL) & 0xff, (c - CR_C_TRAVEL) >> 8);
	return false;
}

int cr_choice_check(const cr_game *g, int seat, game_choice c, char *err, size_t errlen)
{
	if (!game_seat_asked(cr_pending(g), g->seats, seat)) {
		snprintf(err, errlen, "seat %d is not asked to choose now", seat);
		return -1;
	}
	if (!legal(g, seat, c)) {
		char id[32];
		if (!cr_choice_id(c, id, sizeof id))
			snprintf(id, sizeof id, "%d", (int)c);
		snprintf(err, errlen, "'%s' is not one of seat %d's options now", id, seat);
		return -1;
	}
	return 0;
}

int cr_options(const cr_game *g, int seat, game_choice *out, int max)
{
	if (!game_seat_asked(cr_pending(g), g->seats, seat))
		return 0;
	int n = 0;
#define ADD(c)                                                                                \
	do {                                                                                  \
		if (legal(g, seat, (c))) {                                                    \
			if (n < max)                                                          \
				out[n] = (c);                                                 \
			n++;                                                                  \
		}                                                                             \
	} while (0)
	const cr_hero *h = &g->h[seat];
	if (g->n_vote || h->screen == CR_SC_EVENT) {
		for (int k = 0; k < CR_MAX_OPTIONS; k++)
			ADD(CR_C_EVENT + k);
		return n;
	}
	if (h->screen == CR_SC_SHOP) {
		for (int k = 0; k <= CR_SHOP_ITEMS; k++)
			ADD(CR_C_BUY + k);
		ADD(CR_C_LEAVE);
		return n;
	}
	ADD(CR_C_WAIT);
	if (h->gate) {
		ADD(CR_C_OUT);
		return n;
	}
	for (int c = CR_C_N; c <= CR_C_W; c++)
		ADD(c);
	ADD(CR_C_EXPLORE);
	ADD(CR_C_REST);
	ADD(CR_C_PORTAL);
	for (int i = 0; i < CR_INV_MAX; i++)
		ADD(CR_C_USE + i);
	for (int i = 0; i < CR_INV_MAX; i++)
		ADD(CR_C_DROP + i);
	for (int a = 1; a <= CR_MAX_ACTS; a++)
		ADD(CR_C_JUMP + a);
#undef ADD
	if (!cr_monster_in_view(g)) {
		uint16_t dist[CR_MAX_H][CR_MAX_W];
		cr_bfs_seen(g, h->x, h->y, dist);
		for (int y = 0; y < g->lv.h; y++)
			for (int x = 0; x < g->lv.w; x++)
				if (dist[y][x] != CR_FAR && dist[y][x] > 0) {
					if (n < max)
						out[n] = CR_C_TRAVEL + y * 256 + x;
					n++;
				}
	}
	return n;
}

/* ---- acting (C33, C37, C41, C42) ------------------------------------------------------------ */

static void open_chest(cr_game *g, int seat, game_events *evs)
{
	g->flag[g->h[seat].y][g->h[seat].x] &= (uint8_t)~CR_F_CHEST;
	int gold = gold_scaled(g, seat, (5 + (int)rng_below(&g->rules, 11)) * g->act);
	int item = rng_below(&g->rules, 2) ? cr_pick_item(g, &g->rules, CR_PICK_ANY) : -1;
	game_emit(evs, CR_EV_CHEST, seat, gold, item, 0);
	cr_gain_gold(g, seat, gold, evs);
	if (item >= 0)
		cr_give_item(g, seat, item, evs);
}

static void treasure(cr_game *g, int seat, game_events *evs)
{
	int gold = gold_scaled(g, seat, (15 + (int)rng_below(&g->rules, 16)) * g->act);
	bool relic = g->relic_pool && rng_below(&g->rules, 100) < 40;
	game_emit(evs, CR_EV_TREASURE, seat, gold, 0, relic);
	cr_gain_gold(g, seat, gold, evs);
	if (relic)
		cr_give_relic(g, seat, CR_PICK_ANY, &g->rules, evs);
	else
		cr_give_item(g, seat, cr_pick_item(g, &g->rules, CR_PICK_ANY), evs);
}

static void open_shop(cr_game *g, int seat, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	h->screen = CR_SC_SHOP;
	for (int i = 0; i < CR_SHOP_ITEMS; i++)
		h->shop[i] = (int8_t)cr_pick_item(g, &g->rules, CR_PICK_ANY);
	h->shop_relic = -1;
	int n = __builtin_popcount(g->relic_pool);
	if (n) {
		int pick = (int)rng_below(&g->rules, (uint32_t)n);
		for (int i = 0; i < CT(g)->n_relics && h->shop_relic < 0; i++)
			if ((g->relic_pool >> i & 1) && pick-- == 0)
				h->shop_relic = (int8_t)i;
	}
	game_emit(evs, CR_EV_SHOP, seat, 0, 0, 0);
}

/* C19, C20: a scoundrel steps on a ? tile. */
static void enter_qmark(cr_game *g, int seat, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	g->flag[h->y][h->x] &= (uint8_t)~CR_F_QMARK;
	if (CT(g)->planisphere >= 0 && (h->relics >> CT(g)->planisphere & 1) && h->hp < h->max_hp) {
		int before = h->hp; /* C19 */
		h->hp = (int16_t)(h->hp + 5 > h->max_hp ? h->max_hp : h->hp + 5);
		game_emit(evs, CR_EV_HP, seat, h->hp - before, h->hp, 0);
	}
	cr_qctx q = {.first_run = g->first_run,
		     .entered = g->qm_entered,
		     .juzu = cr_has_special(g, CR_SP_JUZU),
		     .compass_here = g->compass_act == g->act};
	bool rolled;
	int t = cr_qmark_resolve(&g->odds, &g->qrng, &q, &rolled);
	g->qm_entered++;
	h->qmarks++;
	g->room_count[g->act][t]++;
	game_emit(evs, CR_EV_QMARK, seat, t, rolled, g->qm_entered);
	switch (t) {
	case CR_ROOM_NORMAL:
	case CR_ROOM_ELITE:
		cr_ambush(g, seat, t == CR_ROOM_ELITE, &g->rules, evs);
		break;
	case CR_ROOM_TREASURE:
		treasure(g, seat, evs);
		break;
	case CR_ROOM_SHOP:
		open_shop(g, seat, evs);
		break;
	default:
		cr_event_open(g, seat, evs);
		break;
	}
}

static void step(cr_game *g, int seat, int d, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	int nx = h->x + cr_dx[d], ny = h->y + cr_dy[d];
	int m = cr_monster_at(g, nx, ny);
	if (m >= 0) {
		hero_attacks(g, seat, m, evs); /* C33: walking into a monster attacks it */
		return;
	}
	h->x = (uint8_t)nx;
	h->y = (uint8_t)ny;
	h->steps++;
	if (g->lv.tile[ny][nx] == CR_T_DOOR) {
		g->lv.tile[ny][nx] = CR_T_DOOR_OPEN;
		g->doors_opened++;
	}
	game_emit(evs, CR_EV_STEP, seat, nx, ny, 0);
	if (g->flag[ny][nx] & CR_F_CHEST) {
		open_chest(g, seat, evs);
		stop_travel(g, seat, CR_STOP_FOUND, evs);
	}
	if (g->flag[ny][nx] & CR_F_QMARK) {
		enter_qmark(g, seat, evs);
		stop_travel(g, seat, CR_STOP_FOUND, evs);
	}
}

static void use_item(cr_game *g, int seat, int slot, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	int k = h->inv[slot];
	const cr_item_kind *it = &CT(g)->item[k];
	h->items_used++;
	if (it->cls == CR_IC_WEAPON || it->cls == CR_IC_ARMOR) {
		int8_t *worn = it->cls == CR_IC_WEAPON ? &h->weapon : &h->armor;
		h->inv[slot] = *worn; /* what was worn goes back in its place */
		*worn = (int8_t)k;
		game_emit(evs, CR_EV_EQUIP, seat, k, 0, 0);
		return;
	}
	h->inv[slot] = -1;
	bool fresh = it->appearance[0] && !(g->identified >> k & 1);
	if (it->cls == CR_IC_POTION)
		h->potions++;
	game_emit(evs, CR_EV_USE, seat, k, fresh, 0);
	if (fresh) /* C30: trying one tells the party what the kind is */
		cr_identify(g, k, evs);
	cr_effects_run(g, seat, it->effects, NULL, &g->rules, CR_EFF_ALL, evs);
}

void cr_teleport(cr_game *g, int seat, rng *r, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	int n = 0;
	for (int y = 0; y < g->lv.h; y++)
		for (int x = 0; x < g->lv.w; x++)
			n += g->lv.tile[y][x] == CR_T_FLOOR && cr_monster_at(g, x, y) < 0;
	if (!n)
		return;
	int pick = (int)rng_below(r, (uint32_t)n);
	for (int y = 0; y < g->lv.h; y++)
		for (int x = 0; x < g->lv.w; x++)
			if (g->lv.tile[y][x] == CR_T_FLOOR && cr_monster_at(g, x, y) < 0 &&
			    pick-- == 0) {
				h->x = (uint8_t)x;
				h->y = (uint8_t)y;
			}
	h->travel = CR_TR_NONE;
	game_emit(evs, CR_EV_TELEPORT, seat, h->x, h->y, 0);
}

static void act_one(cr_game *g, int seat, game_choice c, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	if (c == CR_C_WAIT)
		return;
	if (c >= CR_C_N && c <= CR_C_W) {
		step(g, seat, c - CR_C_N, evs);
		return;
	}
	if (c == CR_C_REST) { /* C36: a traveller that does not move */
		h->travel = CR_TR_REST;
		h->travel_hp = h->hp;
		game_emit(evs, CR_EV_TRAVEL, seat, 1, h->travel, 0);
		return;
	}
	if (c == CR_C_EXPLORE || (c >= CR_C_TRAVEL && c < CR_C_TRAVEL + 0x10000)) {
		h->travel = c == CR_C_EXPLORE ? CR_TR_EXPLORE : CR_TR_TO;
		h->tx = (uint8_t)((c - CR_C_TRAVEL) & 0xff);
		h->ty = (uint8_t)((c - CR_C_TRAVEL) >> 8);
		h->travel_hp = h->hp;
		game_emit(evs, CR_EV_TRAVEL, seat, 1, h->travel, 0);
		game_choice s = travel_step(g, seat, evs);
		if (s != CR_C_WAIT)
			step(g, seat, s - CR_C_N, evs);
		return;
	}
	if (c == CR_C_PORTAL) {
		h->gate = (uint8_t)(g->flag[h->y][h->x] & CR_F_DOWN ? g->act + 1 : g->act - 1);
		game_emit(evs, CR_EV_GATE, seat, h->gate, 0, 0);
		return;
	}
	if (c == CR_C_OUT) {
		if (h->gate_fee)
			cr_gain_gold(g, seat, h->gate_fee, evs); /* C37: the fee comes back */
		h->gate = 0;
		h->gate_fee = 0;
		game_emit(evs, CR_EV_GATE, seat, 0, 0, 0);
		return;
	}
	if (c == CR_C_LEAVE) {
		h->screen = CR_SC_NONE;
		return;
	}
	int arg = c & 0xff;
	switch (c & ~0xff) {
	case CR_C_USE:
		use_item(g, seat, arg, evs);
		break;
	case CR_C_DROP:
		game_emit(evs, CR_EV_LOSE_ITEM, seat, h->inv[arg], 1, 0);
		h->inv[arg] = -1;
		break;
	case CR_C_JUMP: {
		int fee = cr_jump_fee(g, arg);
		cr_gain_gold(g, seat, -fee, evs);
		h->gate = (uint8_t)arg;
		h->gate_fee = (int16_t)fee;
		game_emit(evs, CR_EV_GATE, seat, arg, fee, 0);
		break;
	}
	case CR_C_EVENT: {
		int e = h->event;
		h->screen = CR_SC_NONE; /* C25: out of the room first, then what it does */
		h->event = -1;
		game_emit(evs, CR_EV_CHOICE, seat, e, arg, 0);
		cr_effects_run(g, seat, CT(g)->event[e].option[arg].effects, NULL, &h->erng,
			       CR_EFF_ALL, evs);
		break;
	}
	case CR_C_BUY: {
		int price = shop_price(g, h, arg);
		cr_gain_gold(g, seat, -price, evs);
		h->bought++;
		if (arg < CR_SHOP_ITEMS) {
			game_emit(evs, CR_EV_BUY, seat, h->shop[arg], -1, price);
			cr_give_item(g, seat, h->shop[arg], evs);
			h->shop[arg] = -1;
		} else {
			int r = h->shop_relic;
			h->shop_relic = -1;
			game_emit(evs, CR_EV_BUY, seat, -1, r, price);
			cr_give_relic(g, seat, r, &g->rules, evs);
		}
		break;
	}
	}
}

/* ---- the round (C32) ---------------------------------------------------------------------- */

/* C37: every living scoundrel inside a gateway to the same act: the party
 * goes. Returns true when it went. */
static bool party_departs(cr_game *g, game_events *evs)
{
	int dest = 0;
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		if (!h->alive)
			continue;
		if (!h->gate || (dest && h->gate != dest))
			return false;
		dest = h->gate;
	}
	if (!dest)
		return false;
	g->ups += dest < g->act;
	for (int s = 0; s < g->seats; s++)
		if (g->h[s].alive && g->h[s].gate_fee) {
			g->jumps++;
			break;
		}
	arrive(g, dest, evs);
	return true;
}

static void map_round(cr_game *g, const game_choice *choices, uint32_t pend, game_events *evs)
{
	g->rounds++;
	int16_t hp_before[CR_MAX_SEATS];
	for (int s = 0; s < g->seats; s++)
		hp_before[s] = g->h[s].hp;
	for (int s = 0; s < g->seats && !g->over; s++) {
		cr_hero *h = &g->h[s];
		if (!h->alive)
			continue;
		game_choice c = CR_C_WAIT;
		if (pend >> s & 1)
			c = choices[s];
		else if (h->travel)
			c = travel_step(g, s, evs);
		if (h->alive)
			act_one(g, s, c, evs);
	}
	if (g->over || party_departs(g, evs))
		return;
	monsters_act(g, evs);
	if (g->over)
		return;
	if (g->rounds % REGEN_EVERY == 0) /* C43 */
		for (int s = 0; s < g->seats; s++)
			if (g->h[s].alive && g->h[s].hp < g->h[s].max_hp)
				g->h[s].hp++;
	int found = cr_fov_refresh(g);
	bool monster = cr_monster_in_view(g), hurt = cr_party_hurt(g);
	for (int s = 0; s < g->seats; s++) {
		cr_hero *h = &g->h[s];
		if (!h->travel)
			continue;
		if (h->travel == CR_TR_TO && h->x == h->tx && h->y == h->ty)
			stop_travel(g, s, CR_STOP_ARRIVED, evs);
		else if (h->travel == CR_TR_REST && !hurt)
			stop_travel(g, s, CR_STOP_RESTED, evs);
		else if (g->n_vote || h->screen)
			stop_travel(g, s, CR_STOP_SCREEN, evs);
		else if (monster)
			stop_travel(g, s, CR_STOP_MONSTER, evs);
		else if (h->hp < hp_before[s])
			stop_travel(g, s, CR_STOP_HURT, evs);
		else if (found && h->travel != CR_TR_REST)
			stop_travel(g, s, CR_STOP_FOUND, evs);
	}
	if (g->rounds >= g->cfg.max_rounds)
		end_run(g, CR_END_TIME, evs); /* C44 */
}

int cr_apply(cr_game *g, const game_choice *choices, game_events *evs, char *err,
	     size_t errlen)
{
	if (g->over) {
		snprintf(err, errlen, "the run is over");
		return GAME_ERR_OVER;
	}
	uint32_t pend = cr_pending(g);
	for (int s = 0; s < g->seats; s++) {
		int rc = game_choice_expected(pend, s, choices[s], err, errlen);
		if (rc != GAME_OK)
			return rc;
		if (pend >> s & 1 && cr_choice_check(g, s, choices[s], err, errlen) != 0)
			return GAME_ERR_ILLEGAL;
	}
	if (g->n_vote)
		cr_vote_resolve(g, choices, evs); /* C24: no time passes on the map */
	else
		map_round(g, choices, pend, evs);
	/* C36: rounds where nobody is asked (everyone travelling or waiting in
	 * a gateway) run on their own, up to the next decision */
	bool travelers;
	while (!g->over && pending_raw(g, &travelers) == 0) {
		if (!travelers) {
			end_run(g, CR_END_FALLEN, evs);
			break;
		}
		map_round(g, NULL, 0, evs);
	}
	g->decision++;
	return 0;
}
