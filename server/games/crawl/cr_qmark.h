/*
 * cr_qmark.h — what a ? tile becomes (docs/rules/crawl.md C11–C19): the
 * room-type table with its base odds and the accumulation rule, the first
 * run's forced results, the three relics that touch it and the DeadlyEvents
 * modifier; and, for the simulator, the exact expected frequencies the rule
 * gives (a Markov chain over the misses of each type).
 *
 * Pure and small: a cr_odds is a plain value the game keeps per party; the
 * roll takes its uniform draw from the caller's generator.
 */
#ifndef LAIR_CR_QMARK_H
#define LAIR_CR_QMARK_H

#include <stdbool.h>
#include <stdint.h>

#include "../../../common/rng.h"

/* Room types, in the fixed order of the roll (C12); Event is the rest. */
enum cr_room { CR_ROOM_NORMAL, CR_ROOM_ELITE, CR_ROOM_TREASURE, CR_ROOM_SHOP, CR_ROOM_EVENT,
	       CR_NROOM };
#define CR_NODDS 4 /* the types with odds of their own (all but Event) */
#define CR_BP 10000 /* odds are in basis points: 1000 = 10% */

extern const char *const cr_room_names[CR_NROOM]; /* "normal_combat", ... */

typedef struct cr_odds {
	int16_t base[CR_NODDS]; /* C11: 1000, -100, 200, 300 (DeadlyEvents: elite 1000) */
	int16_t gain[CR_NODDS]; /* C13: what a miss adds (DeadlyEvents: treasure x2) */
	int16_t cur[CR_NODDS];
} cr_odds;

/* C11, C18: the table at its base for the modifier. */
void cr_odds_init(cr_odds *o, bool deadly_events);
/* C14: back to the base (each level the party arrives on). */
void cr_odds_reset(cr_odds *o);
/* C11: Event's odds now: CR_BP minus the positive odds of the others (0 if
 * they reach CR_BP). */
int cr_odds_event_bp(const cr_odds *o);
/* C12, C13: the type of a uniform draw u in [0, CR_BP) against the current
 * odds, then the accumulation: the chosen type back to its base, every
 * other enabled type up by its gain (capped at CR_BP); Event has no odds of
 * its own, so choosing it raises all four. */
int cr_odds_roll(cr_odds *o, uint32_t u);

/* Everything that decides one ? tile besides the table. */
typedef struct cr_qctx {
	bool first_run;    /* C15: the party's first run */
	int entered;       /* ? tiles the party entered before this one, this run */
	bool juzu;         /* C16: Juzu Bracelet in the party */
	bool compass_here; /* C17: Golden Compass acquired in this act */
} cr_qctx;

/* C15–C17 around C12: Golden Compass -> Event, no roll; a first run's
 * first three -> Event, Event, Normal Combat, no roll; else the roll (one
 * draw from r). Then Juzu Bracelet turns Normal Combat into an Event (the
 * table has moved as for Normal Combat). *rolled (may be NULL) says whether
 * the table was used. */
int cr_qmark_resolve(cr_odds *o, rng *r, const cr_qctx *q, bool *rolled);

/* Expected frequencies the rule gives (the simulator's "computed" column):
 * out[type] = expected tiles of each type in one act of act `act` (its ?
 * count drawn per C9, the table from its base), exactly, by a Markov chain
 * over the misses of each enabled type. first_run: the act is the first of
 * a first run. Returns the expected number of tiles. */
/* The same per tile: at[k][type] = P(tile k of an act is of that type),
 * k = 1..CR_MAX_QMARKS (at[0] unused). */
void cr_qmark_tile_probs(bool deadly_events, bool juzu, bool compass, bool first_run,
			 double at[][CR_NROOM]);
double cr_qmark_expected(int act, bool deadly_events, bool juzu, bool compass, bool first_run,
			 double out[CR_NROOM]);

#endif
