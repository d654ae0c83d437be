/*
 * cr_level.h — crawl's level generator (docs/rules/crawl.md C1–C10): a pure,
 * seeded function from (run seed, act, visit, size) to one level: the
 * drunkard's walk (C2), doors and grown rooms at dead ends (C3), diagonal-only
 * exits filled in until none is left (C4), then the start, the portals (or the
 * devil's lair), monster spawns, chests and the act's ? tiles drawn from the
 * open tiles (C5–C7), a level rejected and made again while anything placed is
 * unreachable or the start is too close to a portal (C6), and the ? count of
 * the act (C9).
 *
 * No allocation, no globals: a cr_level is one fixed-size struct the caller
 * owns (the game keeps the current one; the simulator and the benchmark reuse
 * one). Every draw comes from one generator seeded from (run seed, act,
 * visit) (C8), so the same triple and size always give the same level.
 */
#ifndef LAIR_CR_LEVEL_H
#define LAIR_CR_LEVEL_H

#include <stdbool.h>
#include <stdint.h>

#include "../../../common/rng.h"

#define CR_MIN_W 24
#define CR_MAX_W 120
#define CR_MIN_H 12
#define CR_MAX_H 60
#define CR_DEF_W 56
#define CR_DEF_H 17
#define CR_MAX_ACTS 3
#define CR_MAX_SPAWNS 24
#define CR_MAX_CHESTS 8
#define CR_MAX_QMARKS 16
#define CR_GEN_RETRIES 64 /* C6: attempts before the fallback */
#define CR_SPAWN_CLEAR 5   /* C5: no spawn this close to the start */
#define CR_OPEN_PCT 40    /* C2: the walk stops at this share of the interior */
#define CR_FORWARD_PCT 60 /* C2: chance to keep the heading */

/* Tiles. Doors are passable; a closed door blocks sight (C38). */
enum cr_tile { CR_T_WALL, CR_T_FLOOR, CR_T_DOOR, CR_T_DOOR_OPEN };

/* Directions, in the order every rule that loops over them uses. */
enum cr_dir { CR_N, CR_E, CR_S, CR_W };
extern const int cr_dx[4], cr_dy[4];

typedef struct cr_pos {
	uint8_t x, y;
} cr_pos;

typedef struct cr_level {
	int w, h;
	int act, acts, visit;
	uint64_t seed;           /* the level's own seed, derived per C8 */
	uint8_t tile[CR_MAX_H][CR_MAX_W];
	cr_pos start;
	bool has_up, has_down, has_lair;
	cr_pos up, down, lair;   /* portals; the devil's lair in the last act (C40) */
	int n_spawn, n_chest, n_qmark;
	cr_pos spawn[CR_MAX_SPAWNS], chest[CR_MAX_CHESTS], qmark[CR_MAX_QMARKS];
	/* how it was made (the simulator reports these) */
	int rejections;          /* attempts thrown away (C6) */
	bool fallback;           /* the retry cap was hit (C6) */
	int rooms, dead_ends_kept; /* rooms grown; dead-end tiles filled back (C3) */
	int filled;              /* tiles filled by the diagonal fix (C4) */
	int start_dist;          /* the start's path distance to its nearest portal */
} cr_level;

/* The minimum path distance from the start to every portal and the lair
 * (C5): (w + h) / 3. */
int cr_level_min_start_dist(int w, int h);

/* The seed of the level of (run seed, act, visit) (C8). */
uint64_t cr_level_seed(uint64_t run_seed, int act, int visit);

/* The number of ? tiles of an act (C9): a Gaussian of mean 12 and sd 1,
 * rounded, drawn again while outside 10..14; acts after the first take one
 * fewer. Draws from r. */
int cr_qmark_count(rng *r, int act);
/* The exact probability of each count the rule above gives (k = 9..14),
 * for the simulator's comparison; 0 outside. */
double cr_qmark_count_prob(int act, int k);

/* Makes the level of (run seed, act of acts, visit) at w x h (within the
 * CR_MIN/CR_MAX bounds; the caller checks). Always succeeds (C6). */
void cr_level_generate(cr_level *lv, uint64_t run_seed, int act, int acts, int visit, int w,
		       int h);
/* The same with the retry cap given: after `retries` rejections the next
 * attempt is C6's fallback. cr_level_generate passes CR_GEN_RETRIES; the
 * tests pass 0 to make the fallback, which real sizes never need. */
void cr_level_generate_capped(cr_level *lv, uint64_t run_seed, int act, int acts, int visit,
			      int w, int h, int retries);

/* The walk alone (C2), exposed for the tests: it opens tiles of lv (which
 * must be all wall, w and h set) and counts its steps. */
typedef struct cr_walk_stats {
	long steps;   /* moves made */
	long free;    /* steps where the heading could be kept (not at the edge) */
	long kept;    /* ... and was */
	long forced;  /* steps at the edge: always a turn */
	long forced_turned;
} cr_walk_stats;
void cr_level_walk(cr_level *lv, rng *r, cr_walk_stats *st);

/* Tile helpers. */
static inline bool cr_passable(int t) { return t != CR_T_WALL; }
static inline bool cr_in(const cr_level *lv, int x, int y)
{
	return x >= 0 && y >= 0 && x < lv->w && y < lv->h;
}

/* Breadth-first path distances over passable tiles from one tile; unreached
 * tiles get CR_FAR. dist is [CR_MAX_H][CR_MAX_W]. Returns tiles reached. */
#define CR_FAR 0xffff
int cr_level_bfs(const cr_level *lv, cr_pos from, uint16_t dist[CR_MAX_H][CR_MAX_W]);

/* The level as ASCII, one row per line (C10's legend: # . + ' @ < > D ? $ m):
 * writes at most cap bytes (rows end with '\n'); returns the length needed. */
int cr_level_ascii(const cr_level *lv, char *out, int cap);

/* Counts of what the property tests check, for tests and the simulator:
 * diagonal-only exits left (C4: always 0). */
int cr_level_diagonal_exits(const cr_level *lv);

#endif
