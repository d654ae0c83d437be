/*
 * gems_ai.c — the computer player exactly as the design's A.I. section says
 * (G29–G32): the stay/leave checks in their order, then a uniform pick
 * among the stay options, except at Three Card Monte where it follows the
 * valuable card with probability Attention.
 *
 * Randomness: each call draws from its own generator, seeded with
 * splitmix64(seed + (decision << 8 | seat)) on the AI stream. splitmix64 is
 * a bijection that mixes well, so every (decision, seat) of a game gets a
 * distinct, unrelated seed, and the rules stream (the raw seed on another
 * stream) never meets it. A choice is thus a pure function of the state:
 * a game rebuilt from its logged choices (crash recovery replays them
 * without asking the AI) makes the same AI choices from then on, and the
 * AI never moves g->rules (nor anything else in g).
 */
#include "gems_int.h"

static game_choice nth_bit(uint32_t mask, uint32_t n)
{
	while (n--)
		mask &= mask - 1;
	return (game_choice)__builtin_ctz(mask);
}

static int best_other_chest(const gems_game *g, int seat)
{
	int best = 0;
	for (int i = 0; i < g->seats; i++)
		if (i != seat && g->seat[i].chest > best)
			best = g->seat[i].chest;
	return best;
}

/* The generator of this decision's draws for a seat (see the top), seeded
 * only when a draw is needed: most decisions need none, and since each
 * decision has a generator of its own, one never drawn changes nothing. */
typedef struct decision_rng {
	rng r;
	bool seeded;
	const gems_game *g;
	int seat;
} decision_rng;

static rng *draws(decision_rng *d)
{
	if (!d->seeded) {
		uint64_t x = d->g->seed + ((uint64_t)d->g->decisions << 8 | (uint64_t)d->seat);
		rng_seed(&d->r, rng_splitmix64(&x), GEMS_STREAM_AI);
		d->seeded = true;
	}
	return &d->r;
}

/* The design's stay/leave checks, in order (G30, G31). */
static bool wants_to_leave(const gems_game *g, int seat, decision_rng *r)
{
	const gems_seat *s = &g->seat[seat];
	const gems_persona *p = &s->ai;
	bool last = g->dungeon == GEMS_DUNGEONS - 1;
	double odds_leave = 0.5 * g->odds + p->leave_extra;
	double good_take = p->good_take;
	if (last) {
		odds_leave *= 0.02;
		good_take *= 4;
	}
	if (gems_ev(g, seat) <= p->ev_cutoff)
		return true;
	double take = gems_take(g, seat);
	if (take >= good_take)
		return true;
	if (last && s->hand + s->chest + take > best_other_chest(g, seat) + g->inside - 1)
		return true;
	if (g->rumor_leave2 != GEMS_NO_RUMOR_LEAVE && 2 * g->depth >= g->rumor_leave2)
		return true;
	if (g->first_warning_depth && g->depth - g->first_warning_depth >= p->post_warning_delay &&
	    s->hand >= 1 && rng_unit(draws(r)) < odds_leave)
		return true;
	return false;
}

static bool at_monte(const gems_game *g)
{
	gems_room r = g->rooms[g->cur];
	return g->phase == GEMS_PH_DECIDE && r.kind == GEMS_ROOM_ADV && r.arg == GEMS_ADV_MONTE;
}

game_choice gems_ai_choose(const gems_game *g, int seat)
{
	uint32_t mask = gems_options_of(g, seat);
	if (!mask)
		return GAME_NO_CHOICE;
	if (!(mask & (mask - 1)))
		return (game_choice)__builtin_ctz(mask);
	decision_rng r = {.g = g, .seat = seat};
	if ((mask & 1u << GEMS_C_LEAVE) && wants_to_leave(g, seat, &r))
		return GEMS_C_LEAVE;
	mask &= ~(1u << GEMS_C_LEAVE);
	if (at_monte(g) && rng_unit(draws(&r)) < g->seat[seat].ai.attention) {
		for (int p = 0; p < 3; p++)
			if (g->monte_layout[p] == 2)
				return GEMS_C_CARD1 + p;
	}
	if (!(mask & (mask - 1))) /* one stay option: a draw below 1 is always 0 */
		return (game_choice)__builtin_ctz(mask);
	return nth_bit(mask, rng_below(draws(&r), (uint32_t)__builtin_popcount(mask)));
}

void gems_play_ai(gems_game *g, game_events *out)
{
	game_choice ch[GAME_MAX_SEATS];
	while (!gems_over(g)) {
		for (int i = 0; i < g->seats; i++)
			ch[i] = g->pending >> i & 1 ? gems_ai_choose(g, i) : GAME_NO_CHOICE;
		/* The AI picks only legal options (test_gems_pin plays the same
		 * games through gems_apply's validation, with the same result). */
		gems_resolve(g, ch, out);
	}
}
