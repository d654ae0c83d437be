/*
 * gems_adventures.c — the ten adventures (G11, G15–G22): what happens when
 * a room of one is entered, which "…and Stay" options it offers, and what
 * those options do once the choices are revealed. Draws that decide an
 * outcome (Sun or Moon, the Sphinx's double path, the mushroom, Queens or
 * Changelings) are made only when the outcome is revealed, so no state a
 * view could leak holds them before.
 */
#include "gems_int.h"

#define BIT(c) (1u << (c))

/* ---- entering ---------------------------------------------------------- */

/* G16: entering grants the toll to every hand inside. */
static void ferry_grant(gems_game *g, int part, game_events *out)
{
	int toll = gems_ferry_toll(part);
	for (int i = 0; i < g->seats; i++)
		if (g->seat[i].inside) {
			g->seat[i].hand += toll;
			g->ledger.granted += toll;
		}
	gems_emit(out, GEMS_EV_FERRY_GRANT, -1, toll, 0, 0);
}

/* G17: one shared shuffle per room, as a swap sequence. A swap is coded by
 * the position it leaves out (0: swap 1–2, 1: swap 0–2, 2: swap 0–1). */
static void monte_deal(gems_game *g, int part, game_events *out)
{
	int *lay = g->monte_layout;
	g->monte_third = gems_monte_third(part);
	lay[0] = 2;
	lay[1] = 1;
	lay[2] = g->monte_third;
	uint32_t swaps = 0;
	for (int k = 0; k < GEMS_MONTE_SWAPS; k++) {
		uint32_t out_pos = rng_below(&g->rules, 3);
		int a = out_pos == 0 ? 1 : 0, b = out_pos == 2 ? 1 : 2;
		int t = lay[a];
		lay[a] = lay[b];
		lay[b] = t;
		swaps |= out_pos << (2 * k);
	}
	g->monte_swaps = (int32_t)swaps;
	gems_emit(out, GEMS_EV_MONTE_DEAL, -1, g->monte_third, (int32_t)swaps, GEMS_MONTE_SWAPS);
}

/* G18: S is the live lair's position (G37: one past the list when there is
 * none), R uniform in [S−X, S+X]. */
static void scout_report(gems_game *g, int part, game_events *out)
{
	int s = g->lair_at >= 0 ? g->lair_at + 1 : g->n_rooms + 1;
	int x = gems_scout_radius(part);
	int r = s + rng_range(&g->rules, -x, x);
	g->scout_r = r;
	g->scout_x = x;
	int leave2 = 2 * r - x; /* G30: RumorLeave = R − X/2, never lower */
	if (g->rumor_leave2 == GEMS_NO_RUMOR_LEAVE || leave2 > g->rumor_leave2)
		g->rumor_leave2 = leave2;
	for (int i = 0; i < g->seats; i++)
		g->seat[i].t.reports += g->seat[i].inside;
	gems_emit(out, GEMS_EV_SCOUT, -1, r, x, g->depth);
}

void gems_adv_enter(gems_game *g, int adv, int part, game_events *out)
{
	switch (adv) {
	case GEMS_ADV_FERRY:
		ferry_grant(g, part, out);
		break;
	case GEMS_ADV_MONTE:
		monte_deal(g, part, out);
		break;
	case GEMS_ADV_SCOUT:
		scout_report(g, part, out);
		break;
	case GEMS_ADV_POISON:
		g->poisons_unused++;
		gems_emit(out, GEMS_EV_POISON, -1, g->poisons_unused, 0, 0);
		break;
	case GEMS_ADV_SPHINX:
		g->sphinx_met++;
		g->sphinx_double = -1;
		break;
	default: /* Banker, Sun & Moon, Mushroom, Devil, Little People: choices only */
		break;
	}
}

/* G22: every carried person pays or steals one gem per room entered, after
 * the room's split, one at a time in the order they were carried: a
 * Changeling carried before a Queen finds the hand as it was before her. */
void gems_people_effect(gems_game *g, game_events *out)
{
	for (int i = 0; i < g->seats; i++) {
		gems_seat *s = &g->seat[i];
		int people = s->queens + s->changelings;
		if (!s->inside || !people)
			continue;
		int paid = 0, stolen = 0;
		for (int k = 0; k < people; k++) {
			if (s->queen_bits >> k & 1) {
				s->hand++;
				paid++;
			} else if (s->hand > 0) {
				s->hand--;
				stolen++;
			}
		}
		g->ledger.granted += paid;
		g->ledger.changeling += stolen;
		gems_emit(out, GEMS_EV_PEOPLE, i, paid, stolen, 0);
	}
}

/* ---- options ----------------------------------------------------------- */

uint32_t gems_adv_options(const gems_game *g, int adv, int seat)
{
	int hand = g->seat[seat].hand;
	switch (adv) {
	case GEMS_ADV_BANKER: /* G20: an exchange only with enough gems */
		return BIT(GEMS_C_STAY) | (hand >= 4 ? BIT(GEMS_C_BANK4) : 0) |
		       (hand >= 8 ? BIT(GEMS_C_BANK8) : 0) | (hand >= 12 ? BIT(GEMS_C_BANK12) : 0);
	case GEMS_ADV_SUNMOON:
		return BIT(GEMS_C_SUN) | BIT(GEMS_C_MOON);
	case GEMS_ADV_FERRY:
		return BIT(GEMS_C_PAY);
	case GEMS_ADV_MONTE:
		return BIT(GEMS_C_CARD1) | BIT(GEMS_C_CARD2) | BIT(GEMS_C_CARD3);
	case GEMS_ADV_SPHINX:
		return BIT(GEMS_C_LEFT) | BIT(GEMS_C_RIGHT);
	case GEMS_ADV_MUSHROOM:
		return BIT(GEMS_C_STAY) | BIT(GEMS_C_EAT);
	case GEMS_ADV_DEVIL:
		return BIT(GEMS_C_STAY) | BIT(GEMS_C_DEVIL3) | BIT(GEMS_C_DEVIL4) |
		       BIT(GEMS_C_DEVIL5);
	case GEMS_ADV_PEOPLE:
		return BIT(GEMS_C_STAY) | BIT(GEMS_C_CARRY);
	default: /* Scout, Poison */
		return BIT(GEMS_C_STAY);
	}
}

/* ---- resolving the "…and Stay" options ---------------------------------- */

static void bank(gems_game *g, const game_choice *ch, uint32_t stayers, game_events *out)
{
	for (int i = 0; i < g->seats; i++) {
		if (!(stayers >> i & 1) || ch[i] < GEMS_C_BANK4 || ch[i] > GEMS_C_BANK12)
			continue;
		int k = ch[i] - GEMS_C_BANK4 + 1, gems = 4 * k, cash = 3 * k;
		gems_seat *s = &g->seat[i];
		s->hand -= gems;
		s->chest += cash;
		g->ledger.banker += gems;
		s->t.banker_profit += gems - cash;
		s->t.bank_cash += cash;
		gems_emit(out, GEMS_EV_BANK, i, gems, cash, 0);
	}
}

/* G16: one fair draw; the other side takes, never more than the hand. */
static void sun_moon(gems_game *g, int part, const game_choice *ch, uint32_t stayers,
		     game_events *out)
{
	int amount = gems_sunmoon_amount(part);
	int moon_pays = (int)rng_below(&g->rules, 2);
	gems_emit(out, GEMS_EV_SUNMOON, -1, moon_pays, amount, 0);
	for (int i = 0; i < g->seats; i++) {
		if (!(stayers >> i & 1))
			continue;
		gems_seat *s = &g->seat[i];
		int on_moon = ch[i] == GEMS_C_MOON;
		if (on_moon)
			s->t.moon++;
		else
			s->t.sun++;
		int delta;
		if (on_moon == moon_pays) {
			delta = amount;
			g->ledger.granted += amount;
		} else {
			delta = -(amount < s->hand ? amount : s->hand);
			g->ledger.moon -= delta;
		}
		s->hand += delta;
		gems_emit(out, GEMS_EV_SUNMOON_SEAT, i, delta, 0, 0);
	}
}

static void ferry_pay(gems_game *g, int part, uint32_t stayers, game_events *out)
{
	int toll = gems_ferry_toll(part);
	for (int i = 0; i < g->seats; i++) {
		if (!(stayers >> i & 1))
			continue;
		gems_seat *s = &g->seat[i];
		int paid = toll < s->hand ? toll : s->hand; /* a Changeling may have taken one */
		s->hand -= paid;
		g->ledger.ferryman += paid;
		s->t.lava++;
		gems_emit(out, GEMS_EV_FERRY_PAY, i, paid, 0, 0);
	}
}

static void monte_pick(gems_game *g, const game_choice *ch, uint32_t stayers, game_events *out)
{
	int32_t lay = 0;
	for (int p = 0; p < 3; p++)
		lay |= (g->monte_layout[p] + 4) << (4 * p);
	gems_emit(out, GEMS_EV_MONTE_REVEAL, -1, lay, 0, 0);
	for (int i = 0; i < g->seats; i++) {
		if (!(stayers >> i & 1))
			continue;
		gems_seat *s = &g->seat[i];
		int pos = ch[i] - GEMS_C_CARD1, v = g->monte_layout[pos];
		if (v > 0) {
			g->ledger.granted += v;
		} else if (v < 0) {
			v = -v < s->hand ? v : -s->hand; /* never below zero */
			g->ledger.monte -= v;
			s->t.monte_losses -= v;
		}
		s->hand += v;
		gems_emit(out, GEMS_EV_MONTE_SEAT, i, pos + 1, v, 0);
	}
}

static void set_size(gems_game *g, int i, int size, game_events *out)
{
	if (g->seat[i].size == size)
		return;
	g->seat[i].size = (uint8_t)size;
	gems_emit(out, GEMS_EV_SIZE, i, 1 << size, 0, 0);
}

/* G19: all eaters grow or all shrink; an eater at the largest size stays and
 * every non-eater still inside shrinks instead. */
static void mushroom(gems_game *g, const game_choice *ch, uint32_t stayers, game_events *out)
{
	uint32_t eaters = 0;
	for (int i = 0; i < g->seats; i++)
		if ((stayers >> i & 1) && ch[i] == GEMS_C_EAT) {
			eaters |= 1u << i;
			g->seat[i].t.mushrooms++;
		}
	if (!eaters)
		return;
	int grow = (int)rng_below(&g->rules, 2);
	gems_emit(out, GEMS_EV_MUSHROOM, -1, grow, 0, 0);
	bool capped = false;
	for (int i = 0; i < g->seats; i++) {
		if (!(eaters >> i & 1))
			continue;
		int size = g->seat[i].size;
		if (grow && size == 4)
			capped = true;
		set_size(g, i, grow ? (size < 4 ? size + 1 : 4) : (size > 0 ? size - 1 : 0), out);
	}
	if (!capped)
		return;
	for (int i = 0; i < g->seats; i++)
		if ((stayers >> i & 1) && !(eaters >> i & 1) && g->seat[i].size > 0)
			set_size(g, i, g->seat[i].size - 1, out);
}

/* G21: cash to the chest at once; the stays owed were counted already. */
static void devil(gems_game *g, const game_choice *ch, uint32_t stayers, game_events *out)
{
	for (int i = 0; i < g->seats; i++) {
		if (!(stayers >> i & 1) || ch[i] < GEMS_C_DEVIL3 || ch[i] > GEMS_C_DEVIL5)
			continue;
		int rooms = ch[i] - GEMS_C_DEVIL3 + 3, cash = rooms - 2;
		gems_seat *s = &g->seat[i];
		s->chest += cash;
		s->t.devil_cash += cash;
		s->t.devil_deals++;
		gems_emit(out, GEMS_EV_DEVIL, i, rooms, cash, s->owed);
	}
}

/* G22: the group is Queens with probability 2/3, revealed when carried. */
static void carry(gems_game *g, const game_choice *ch, uint32_t stayers, game_events *out)
{
	uint32_t carriers = 0;
	for (int i = 0; i < g->seats; i++)
		if ((stayers >> i & 1) && ch[i] == GEMS_C_CARRY)
			carriers |= 1u << i;
	if (!carriers)
		return;
	g->people_carried = 1;
	int queens = rng_below(&g->rules, 3) < 2;
	gems_emit(out, GEMS_EV_CARRY, -1, queens, gems_popcount(carriers), 0);
	for (int i = 0; i < g->seats; i++) {
		if (!(carriers >> i & 1))
			continue;
		gems_seat *s = &g->seat[i];
		int k = s->queens + s->changelings; /* the carry order (G22) */
		if (queens) {
			s->queen_bits |= (uint8_t)(1u << k);
			s->queens++;
		} else {
			s->changelings++;
		}
		s->t.people_helped++;
	}
}

static void sphinx_paths(gems_game *g, const game_choice *ch, uint32_t stayers)
{
	for (int i = 0; i < g->seats; i++)
		if (stayers >> i & 1)
			g->seat[i].path = ch[i] == GEMS_C_RIGHT;
}

void gems_adv_resolve(gems_game *g, int adv, int part, const game_choice *choices,
		      uint32_t stayers, game_events *out)
{
	switch (adv) {
	case GEMS_ADV_BANKER:
		bank(g, choices, stayers, out);
		break;
	case GEMS_ADV_SUNMOON:
		if (stayers)
			sun_moon(g, part, choices, stayers, out);
		break;
	case GEMS_ADV_FERRY:
		ferry_pay(g, part, stayers, out);
		break;
	case GEMS_ADV_MONTE:
		monte_pick(g, choices, stayers, out);
		break;
	case GEMS_ADV_SPHINX:
		sphinx_paths(g, choices, stayers);
		break;
	case GEMS_ADV_MUSHROOM:
		mushroom(g, choices, stayers, out);
		break;
	case GEMS_ADV_DEVIL:
		devil(g, choices, stayers, out);
		break;
	case GEMS_ADV_PEOPLE:
		carry(g, choices, stayers, out);
		break;
	default:
		break;
	}
}

/* G15: each path leads to its coin room; one holds N coins, the other 2N,
 * split equally among who came, straight to the chest, the rest left there. */
void gems_sphinx_coins(gems_game *g, uint32_t stayers, game_events *out)
{
	int n = g->seats < 6 ? g->seats : 6;
	int doubled = (int)rng_below(&g->rules, 2);
	g->sphinx_double = doubled;
	gems_emit(out, GEMS_EV_SPHINX, -1, doubled, n, 0);
	for (int path = 0; path < 2; path++) {
		uint32_t m = 0;
		for (int i = 0; i < g->seats; i++)
			if ((stayers >> i & 1) && g->seat[i].path == path)
				m |= 1u << i;
		int cnt = gems_popcount(m);
		if (!cnt)
			continue;
		int coins = path == doubled ? 2 * n : n, each = coins / cnt;
		int room = (g->sphinx_met - 1) * 2 + path;
		if (room < 0 || room >= GEMS_COIN_ROOMS)
			room = GEMS_COIN_ROOMS - 2 + path;
		g->coin_rem[room] += coins - each * cnt;
		for (int i = 0; i < g->seats; i++) {
			if (!(m >> i & 1))
				continue;
			gems_seat *s = &g->seat[i];
			s->chest += each;
			s->t.coins_looted += each;
			s->coin_mask |= (uint8_t)(1u << room);
			gems_emit(out, GEMS_EV_COINS, i, each, path, g->coin_rem[room]);
		}
	}
}
