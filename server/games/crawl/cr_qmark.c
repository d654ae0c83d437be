/*
 * cr_qmark.c — the ? tile's room type (cr_qmark.h; docs/rules/crawl.md
 * C11–C18) and the exact expected frequencies of the rule for the simulator.
 */
#include "cr_qmark.h"

#include <stdlib.h>
#include <string.h>

#include "cr_level.h"

const char *const cr_room_names[CR_NROOM] = {"normal_combat", "elite_combat", "treasure",
					      "shop", "event"};

/* C11: Normal Combat 10%, Elite Combat -1% (a disabled sentinel), Treasure
 * 2%, Shop 3%; C18: DeadlyEvents makes Elite 10% and doubles Treasure's
 * accumulation. */
void cr_odds_init(cr_odds *o, bool deadly_events)
{
	static const int16_t base[CR_NODDS] = {1000, -100, 200, 300};
	memcpy(o->base, base, sizeof o->base);
	memcpy(o->gain, base, sizeof o->gain);
	if (deadly_events) {
		o->base[CR_ROOM_ELITE] = o->gain[CR_ROOM_ELITE] = 1000;
		o->gain[CR_ROOM_TREASURE] = 2 * o->base[CR_ROOM_TREASURE];
	}
	cr_odds_reset(o);
}

void cr_odds_reset(cr_odds *o) { memcpy(o->cur, o->base, sizeof o->cur); }

int cr_odds_event_bp(const cr_odds *o)
{
	int sum = 0;
	for (int i = 0; i < CR_NODDS; i++)
		sum += o->cur[i] > 0 ? o->cur[i] : 0;
	return sum >= CR_BP ? 0 : CR_BP - sum;
}

/* C12: the types in their fixed order take consecutive slices of
 * [0, CR_BP): a type with odds <= 0 takes none; a slice past CR_BP is cut
 * (the order decides who loses when the odds add up to more than 100%);
 * Event takes what is left. */
static int pick(const int16_t cur[CR_NODDS], uint32_t u)
{
	int edge = 0;
	for (int i = 0; i < CR_NODDS; i++) {
		if (cur[i] > 0)
			edge += cur[i];
		if ((int)u < edge)
			return i;
	}
	return CR_ROOM_EVENT;
}

/* C13 */
static void accumulate(int16_t cur[CR_NODDS], const cr_odds *o, int chosen)
{
	for (int i = 0; i < CR_NODDS; i++) {
		if (o->base[i] <= 0)
			continue; /* a disabled type stays at its sentinel */
		if (i == chosen) {
			cur[i] = o->base[i];
		} else {
			int v = cur[i] + o->gain[i];
			cur[i] = (int16_t)(v > CR_BP ? CR_BP : v);
		}
	}
}

int cr_odds_roll(cr_odds *o, uint32_t u)
{
	int t = pick(o->cur, u);
	accumulate(o->cur, o, t);
	return t;
}

int cr_qmark_resolve(cr_odds *o, rng *r, const cr_qctx *q, bool *rolled)
{
	bool roll = false;
	int t;
	if (q->compass_here) {
		t = CR_ROOM_EVENT; /* C17 */
	} else if (q->first_run && q->entered < 3) {
		t = q->entered < 2 ? CR_ROOM_EVENT : CR_ROOM_NORMAL; /* C15 */
	} else {
		t = cr_odds_roll(o, rng_below(r, CR_BP));
		roll = true;
	}
	if (q->juzu && t == CR_ROOM_NORMAL)
		t = CR_ROOM_EVENT; /* C16: after the table moved */
	if (rolled)
		*rolled = roll;
	return t;
}

/* ---- the exact expectation ------------------------------------------------- */

/* A state of the chain is how many tiles in a row each enabled type has
 * missed; M bounds it (an act has at most 14 tiles). */
#define M 16
#define NSTATE (M * M * M * M)

static void state_odds(const cr_odds *o, int s, int16_t cur[CR_NODDS])
{
	for (int i = 0; i < CR_NODDS; i++) {
		int miss = s % M;
		s /= M;
		int v = o->base[i] > 0 ? o->base[i] + miss * o->gain[i] : o->base[i];
		cur[i] = (int16_t)(v > CR_BP ? CR_BP : v);
	}
}

static int state_after(const cr_odds *o, int s, int chosen)
{
	int next = 0, mul = 1;
	for (int i = 0; i < CR_NODDS; i++) {
		int miss = s % M;
		s /= M;
		if (o->base[i] > 0)
			miss = i == chosen ? 0 : (miss + 1 < M ? miss + 1 : M - 1);
		next += miss * mul;
		mul *= M;
	}
	return next;
}

/* The exact chance of each type from one state: the width of its slice. */
static void type_probs(const int16_t cur[CR_NODDS], double p[CR_NROOM])
{
	int edge = 0, prev = 0;
	for (int i = 0; i < CR_NODDS; i++) {
		if (cur[i] > 0)
			edge += cur[i];
		int e = edge > CR_BP ? CR_BP : edge;
		p[i] = (double)(e - prev) / CR_BP;
		prev = e;
	}
	p[CR_ROOM_EVENT] = (double)(CR_BP - prev) / CR_BP;
}

void cr_qmark_tile_probs(bool deadly_events, bool juzu, bool compass, bool first_run,
			 double at[][CR_NROOM])
{
	cr_odds o;
	cr_odds_init(&o, deadly_events);
	double *dist = calloc(NSTATE, sizeof *dist), *next = calloc(NSTATE, sizeof *next);
	memset(at, 0, sizeof(double) * (CR_MAX_QMARKS + 1) * CR_NROOM);
	dist[0] = 1;
	for (int k = 1; k <= CR_MAX_QMARKS; k++) {
		if (compass) {
			at[k][CR_ROOM_EVENT] = 1;
			continue;
		}
		if (first_run && k <= 3) {
			at[k][k <= 2 ? CR_ROOM_EVENT : CR_ROOM_NORMAL] = 1;
			continue;
		}
		memset(next, 0, NSTATE * sizeof *next);
		for (int s = 0; s < NSTATE; s++) {
			if (dist[s] == 0)
				continue;
			int16_t cur[CR_NODDS];
			double p[CR_NROOM];
			state_odds(&o, s, cur);
			type_probs(cur, p);
			for (int t = 0; t < CR_NROOM; t++) {
				if (p[t] == 0)
					continue;
				at[k][t] += dist[s] * p[t];
				next[state_after(&o, s, t)] += dist[s] * p[t];
			}
		}
		double *tmp = dist;
		dist = next;
		next = tmp;
	}
	free(dist);
	free(next);
	if (juzu)
		for (int k = 1; k <= CR_MAX_QMARKS; k++) {
			at[k][CR_ROOM_EVENT] += at[k][CR_ROOM_NORMAL];
			at[k][CR_ROOM_NORMAL] = 0;
		}
}

double cr_qmark_expected(int act, bool deadly_events, bool juzu, bool compass, bool first_run,
			 double out[CR_NROOM])
{
	double at[CR_MAX_QMARKS + 1][CR_NROOM]; /* P(type) at tile k of the act */
	cr_qmark_tile_probs(deadly_events, juzu, compass, first_run, at);
	/* weight tile k by the chance the act has at least k tiles (C9) */
	double tiles = 0;
	for (int t = 0; t < CR_NROOM; t++)
		out[t] = 0;
	for (int k = 1; k <= CR_MAX_QMARKS; k++) {
		double reach = 0;
		for (int n = k; n <= CR_MAX_QMARKS; n++)
			reach += cr_qmark_count_prob(act, n);
		tiles += reach;
		for (int t = 0; t < CR_NROOM; t++)
			out[t] += reach * at[k][t];
	}
	return tiles;
}
