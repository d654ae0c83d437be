/*
 * cr_events.c — events (docs/rules/crawl.md C21–C28): each level's pool
 * (its act's events and the 18 shared ones, shuffled when the level is
 * made), the selection flow (the first allowed event not seen this run, then
 * repeats from the top), IsAllowed() conditions that every living scoundrel
 * must meet, an option's requirements, the party's vote on a shared event,
 * and the effect language.
 */
#include <string.h>

#include "crawl.h"

/* ---- the pool (C21) and the selection flow (C22) --------------------------- */

void cr_pool_shuffle(cr_game *g)
{
	const cr_content *ct = g->cfg.ct;
	g->n_pool = 0;
	g->repeat_at = 0;
	for (int e = 0; e < ct->n_events; e++)
		if (ct->event[e].act == 0 || ct->event[e].act == g->act)
			g->pool[g->n_pool++] = (uint8_t)e;
	/* its own generator, from (run seed, act, visit): the order is a fact of
	 * the level, like its map */
	rng r;
	rng_seed(&r, cr_level_seed(g->seed, g->act, g->lv.visit), 2);
	rng_shuffle(&r, g->pool, (uint32_t)g->n_pool, sizeof g->pool[0]);
}

int cr_event_pick(cr_game *g)
{
	for (int i = 0; i < g->n_pool; i++) {
		int e = g->pool[i];
		if (!(g->seen_events >> e & 1) && cr_event_allowed(g, e)) {
			g->seen_events |= 1ull << e;
			return e;
		}
	}
	/* every event of the list seen (or not allowed): from the top again,
	 * repeats allowed, going on down the list from the last one served */
	for (int j = 0; j < g->n_pool; j++) {
		int i = (g->repeat_at + j) % g->n_pool;
		int e = g->pool[i];
		if (cr_event_allowed(g, e)) {
			g->repeat_at = i + 1;
			return e;
		}
	}
	return -1;
}

/* ---- conditions (C23) and requirements (C26) -------------------------------- */

int cr_count_class(const cr_game *g, int seat, int cls)
{
	const cr_hero *h = &g->h[seat];
	int n = 0;
	for (int i = 0; i < CR_INV_MAX; i++)
		if (h->inv[i] >= 0 && (cls < 0 || g->cfg.ct->item[h->inv[i]].cls == cls))
			n++;
	return n;
}

static bool carries(const cr_hero *h, int kind)
{
	for (int i = 0; i < CR_INV_MAX; i++)
		if (h->inv[i] == kind)
			return true;
	return h->weapon == kind || h->armor == kind;
}

bool cr_cond_met(const cr_game *g, int seat, const cr_cond *c)
{
	const cr_hero *h = &g->h[seat];
	if (c->acts && !(c->acts >> g->act & 1))
		return false;
	if (h->gold < c->gold_min || h->hp < c->hp_min)
		return false;
	if (c->damaged && h->hp >= h->max_hp)
		return false;
	if (c->items_min && cr_count_class(g, seat, -1) < c->items_min)
		return false;
	if (c->potions_min && cr_count_class(g, seat, CR_IC_POTION) < c->potions_min)
		return false;
	if (g->floors - 1 < c->floors_min) /* levels left behind */
		return false;
	if (c->item >= 0 && !carries(h, c->item))
		return false;
	if (c->relic >= 0 && !(h->relics >> c->relic & 1))
		return false;
	if (c->no_relic >= 0 && (h->relics >> c->no_relic & 1))
		return false;
	if (c->no_pet && h->pet)
		return false;
	return true;
}

/* C23: in a party, every living scoundrel must meet them. */
bool cr_event_allowed(const cr_game *g, int e)
{
	const cr_event *ev = &g->cfg.ct->event[e];
	for (int s = 0; s < g->seats; s++)
		if (g->h[s].alive && !cr_cond_met(g, s, &ev->cond))
			return false;
	return true;
}

bool cr_option_open(const cr_game *g, int seat, int e, int k)
{
	const cr_event *ev = &g->cfg.ct->event[e];
	if (k < 0 || k >= ev->n_options)
		return false;
	const cr_cond *r = &ev->option[k].requires;
	if (!ev->shared || g->seats == 1)
		return cr_cond_met(g, seat, r);
	for (int s = 0; s < g->seats; s++)
		if (g->h[s].alive && !cr_cond_met(g, s, r))
			return false;
	return true;
}

/* ---- opening an Event room (C22, C24, C25) ----------------------------------- */

void cr_event_open(cr_game *g, int seat, game_events *evs)
{
	int e = cr_event_pick(g);
	if (e < 0) {
		game_emit(evs, CR_EV_NOTHING, seat, 0, 0, 0);
		return;
	}
	const cr_event *ev = &g->cfg.ct->event[e];
	if (g->served[e] < UINT16_MAX)
		g->served[e]++;
	/* C24: a shared event is the party's vote (in a party: with one seat
	 * the flag makes no difference and the seat's own screen serves) */
	if (ev->shared && g->seats > 1) {
		if (g->n_vote == CR_VOTE_QUEUE) {
			game_emit(evs, CR_EV_NOTHING, seat, 0, 0, 0);
			return;
		}
		if (g->n_vote == 0)
			g->vote_seat = seat;
		g->vote[g->n_vote++] = e;
		g->votes++;
		for (int s = 0; s < g->seats; s++)
			if (g->h[s].alive)
				g->h[s].events_seen++;
		game_emit(evs, CR_EV_EVENT, -1, e, 1, 0);
		return;
	}
	cr_hero *h = &g->h[seat];
	h->screen = CR_SC_EVENT;
	h->event = (int8_t)e;
	h->events_seen++;
	game_emit(evs, CR_EV_EVENT, seat, e, 0, 0);
}

/* ---- the vote (C24) ------------------------------------------------------------ */

void cr_vote_resolve(cr_game *g, const game_choice *choices, game_events *evs)
{
	int e = g->vote[0];
	const cr_event *ev = &g->cfg.ct->event[e];
	int votes[CR_MAX_OPTIONS] = {0};
	for (int s = 0; s < g->seats; s++)
		if (g->h[s].alive && choices[s] >= CR_C_EVENT &&
		    choices[s] < CR_C_EVENT + ev->n_options)
			votes[choices[s] - CR_C_EVENT]++;
	int best = -1, tied[CR_MAX_OPTIONS], n_tied = 0;
	for (int k = 0; k < ev->n_options; k++) {
		if (votes[k] > best) {
			best = votes[k];
			n_tied = 0;
		}
		if (votes[k] == best)
			tied[n_tied++] = k;
	}
	/* a tie is settled by the party's shared generator, uniformly */
	int pick = n_tied == 1 ? tied[0] : tied[rng_below(&g->shared_rng, (uint32_t)n_tied)];
	game_emit(evs, CR_EV_VOTE, -1, e, pick, best | (n_tied > 1) << 8);
	game_emit(evs, CR_EV_CHOICE, -1, e, pick, 0);
	for (int i = 1; i < g->n_vote; i++)
		g->vote[i - 1] = g->vote[i];
	g->n_vote--;
	cr_range r = ev->option[pick].effects;
	int8_t outcome[16];
	cr_effects_draw(g, r, &g->shared_rng, outcome, -1, evs);
	for (int s = 0; s < g->seats; s++)
		if (g->h[s].alive)
			cr_effects_run(g, s, r, outcome, &g->shared_rng, CR_EFF_EACH, evs);
	int at = g->h[g->vote_seat].alive ? g->vote_seat : -1;
	for (int s = 0; at < 0 && s < g->seats; s++)
		if (g->h[s].alive)
			at = s;
	if (at >= 0)
		cr_effects_run(g, at, r, outcome, &g->shared_rng, CR_EFF_ONCE, evs);
}

/* ---- the effect language (C28) --------------------------------------------------- */

/* Effects the party gets once in a shared event (the rest: each scoundrel). */
static bool once_only(int op)
{
	return op == CR_E_FIGHT || op == CR_E_MAP || op == CR_E_IDENTIFY || op == CR_E_FIRE;
}

void cr_effects_draw(cr_game *g, cr_range r, rng *gen, int8_t *out, int seat,
		     game_events *evs)
{
	for (int i = 0; i < r.n && i < 16; i++) {
		const cr_effect *e = &g->cfg.ct->effect[r.at + i];
		out[i] = -1;
		if (e->op == CR_E_CHANCE) {
			out[i] = rng_below(gen, 100) < (uint32_t)e->n;
			game_emit(evs, CR_EV_CHANCE, seat, e->n, out[i], 0);
		}
	}
}

static void run_one(cr_game *g, int seat, const cr_effect *e, rng *gen, game_events *evs)
{
	cr_hero *h = &g->h[seat];
	switch (e->op) {
	case CR_E_GOLD:
		cr_gain_gold(g, seat, e->n, evs);
		break;
	case CR_E_HP: {
		int before = h->hp;
		if (e->n > 0)
			h->hp = (int16_t)(h->hp + e->n > h->max_hp ? h->max_hp : h->hp + e->n);
		else /* it hurts, but nobody dies of an event or a potion */
			h->hp = (int16_t)(h->hp + e->n < 1 ? (h->hp < 1 ? h->hp : 1) : h->hp + e->n);
		if (h->hp < before)
			h->damage_taken += before - h->hp;
		game_emit(evs, CR_EV_HP, seat, h->hp - before, h->hp, 0);
		break;
	}
	case CR_E_HEAL_FULL: {
		int before = h->hp;
		h->hp = h->max_hp;
		game_emit(evs, CR_EV_HP, seat, h->hp - before, h->hp, 0);
		break;
	}
	case CR_E_MAX_HP: {
		int m = h->max_hp + e->n;
		h->max_hp = (int16_t)(m < 1 ? 1 : m);
		if (e->n > 0)
			h->hp = (int16_t)(h->hp + e->n);
		if (h->hp > h->max_hp)
			h->hp = h->max_hp;
		game_emit(evs, CR_EV_STAT, seat, 0, e->n, 0);
		break;
	}
	case CR_E_ATTACK:
		h->atk = (int16_t)(h->atk + e->n);
		game_emit(evs, CR_EV_STAT, seat, 1, e->n, 0);
		break;
	case CR_E_DEFENSE:
		h->def = (int16_t)(h->def + e->n);
		game_emit(evs, CR_EV_STAT, seat, 2, e->n, 0);
		break;
	case CR_E_XP:
		game_emit(evs, CR_EV_STAT, seat, 3, e->n, 0);
		cr_gain_xp(g, seat, e->n, evs);
		break;
	case CR_E_ITEM: {
		int k = e->arg >= 0 ? e->arg : cr_pick_item(g, gen, e->arg);
		if (k >= 0)
			cr_give_item(g, seat, k, evs);
		break;
	}
	case CR_E_LOSE_ITEM: {
		int cls = e->arg == CR_PICK_POTION ? CR_IC_POTION : -1;
		int n = cr_count_class(g, seat, cls);
		if (!n)
			break;
		int pick = (int)rng_below(gen, (uint32_t)n);
		for (int i = 0; i < CR_INV_MAX; i++) {
			int k = h->inv[i];
			if (k < 0 || (cls >= 0 && g->cfg.ct->item[k].cls != cls) || pick--)
				continue;
			h->inv[i] = -1;
			game_emit(evs, CR_EV_LOSE_ITEM, seat, k, 0, 0);
			break;
		}
		break;
	}
	case CR_E_RELIC:
		cr_give_relic(g, seat, e->arg, gen, evs);
		break;
	case CR_E_PET:
		h->pet = true;
		game_emit(evs, CR_EV_PET, seat, 0, 0, 0);
		break;
	case CR_E_IDENTIFY: {
		/* the first unknown kinds the party carries, seat and slot order */
		int left = e->n;
		for (int s = 0; s < g->seats && left; s++)
			for (int i = 0; i < CR_INV_MAX && left; i++) {
				int k = g->h[s].inv[i];
				if (k >= 0 && g->cfg.ct->item[k].appearance[0] &&
				    !(g->identified >> k & 1)) {
					cr_identify(g, k, evs);
					left--;
				}
			}
		break;
	}
	case CR_E_MAP:
		cr_reveal_map(g);
		game_emit(evs, CR_EV_MAP, seat, 0, 0, 0);
		break;
	case CR_E_TELEPORT:
		cr_teleport(g, seat, gen, evs);
		break;
	case CR_E_FIGHT:
		cr_ambush(g, seat, e->arg == 1, gen, evs);
		break;
	case CR_E_FIRE: {
		int hit = 0;
		for (int m = 0; m < g->n_mon; m++) {
			cr_monster *mo = &g->mon[m];
			int dx = mo->x - h->x, dy = mo->y - h->y;
			if (!mo->alive || dx < -2 || dx > 2 || dy < -2 || dy > 2)
				continue;
			hit++;
			cr_hurt_monster(g, seat, m, e->n, evs);
		}
		game_emit(evs, CR_EV_FIRE, seat, e->n, hit, 0);
		break;
	}
	}
}

void cr_effects_run(cr_game *g, int seat, cr_range r, const int8_t *outcome, rng *gen,
		    int mode, game_events *evs)
{
	const cr_content *ct = g->cfg.ct;
	for (int i = 0; i < r.n; i++) {
		if (g->over || !g->h[seat].alive)
			return;
		const cr_effect *e = &ct->effect[r.at + i];
		if (e->op == CR_E_CHANCE) {
			int8_t hit;
			if (outcome) {
				hit = outcome[i];
			} else {
				hit = rng_below(gen, 100) < (uint32_t)e->n;
				game_emit(evs, CR_EV_CHANCE, seat, e->n, hit, 0);
			}
			cr_range b = hit ? (cr_range){e->then_at, e->then_n}
					 : (cr_range){e->else_at, e->else_n};
			/* the branches hold no chance (C28): nothing more to draw */
			cr_effects_run(g, seat, b, NULL, gen, mode, evs);
			continue;
		}
		if (mode == CR_EFF_EACH && once_only(e->op))
			continue;
		if (mode == CR_EFF_ONCE && !once_only(e->op))
			continue;
		run_one(g, seat, e, gen, evs);
	}
}
