/*
 * cr_fov.c — sight and the fog of war (docs/rules/crawl.md C38): what every
 * scoundrel on the map sees now (a disc of its sight radius, each tile in
 * line of sight: a Bresenham line whose inner tiles are neither wall nor a
 * closed door), marked visible, and everything ever visible marked seen —
 * the party's shared memory of the level.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "crawl.h"

static bool blocks(const cr_game *g, int x, int y)
{
	int t = g->lv.tile[y][x];
	return t == CR_T_WALL || t == CR_T_DOOR;
}

/* Runs VISIT with (x, y) on each tile strictly between (x0, y0) and
 * (x1, y1), in order; a `break` in VISIT ends the walk. */
#define BRESENHAM(x0, y0, x1, y1, VISIT)                                                  \
	do {                                                                              \
		int dx_ = abs((x1) - (x0)), dy_ = -abs((y1) - (y0));                      \
		int sx_ = (x0) < (x1) ? 1 : -1, sy_ = (y0) < (y1) ? 1 : -1;               \
		int e_ = dx_ + dy_, x = (x0), y = (y0);                                   \
		for (;;) {                                                                \
			if (x == (x1) && y == (y1))                                       \
				break;                                                    \
			if (x != (x0) || y != (y0)) {                                     \
				VISIT;                                                    \
			}                                                                 \
			int e2_ = 2 * e_;                                                 \
			if (e2_ >= dy_) {                                                 \
				e_ += dy_;                                                \
				x += sx_;                                                 \
			}                                                                 \
			if (e2_ <= dx_) {                                                 \
				e_ += dx_;                                                \
				y += sy_;                                                 \
			}                                                                 \
		}                                                                         \
	} while (0)

bool cr_los(const cr_game *g, int x0, int y0, int x1, int y1)
{
	bool clear = true;
	BRESENHAM(x0, y0, x1, y1, {
		if (blocks(g, x, y)) {
			clear = false;
			break;
		}
	});
	return clear;
}

/* The line depends only on the offset between its ends, so for sight each
 * offset of a disc of radius up to LOS_R (sight is 7, 9 with a lantern;
 * farther sight is walked) is tabled once per process with the tiles
 * strictly between, as offsets into the level's rows. The cells are sorted
 * by dx^2 + dy^2, so the disc of radius r (C38: a tile within r^2 + r) is a
 * prefix of them. Built once (pthread_once) and only read after: the kind
 * keeps no mutable state between games. */
#define LOS_R 12

typedef struct sight_cell {
	int8_t dx, dy;
	uint8_t n;
	int16_t at[LOS_R]; /* dy * CR_MAX_W + dx of each tile in between */
} sight_cell;

static struct {
	int n_cells;
	int disc[LOS_R + 1]; /* cells within radius r: disc[r] */
	sight_cell cell[(2 * LOS_R + 1) * (2 * LOS_R + 1)];
} sight;
static pthread_once_t sight_once = PTHREAD_ONCE_INIT;

static int cell_key(const sight_cell *c) { return c->dx * c->dx + c->dy * c->dy; }

static int cell_cmp(const void *a, const void *b)
{
	return cell_key(a) - cell_key(b);
}

static void sight_build(void)
{
	int n = 0;
	for (int oy = -LOS_R; oy <= LOS_R; oy++)
		for (int ox = -LOS_R; ox <= LOS_R; ox++) {
			if (ox * ox + oy * oy > LOS_R * LOS_R + LOS_R)
				continue;
			sight_cell *c = &sight.cell[n++];
			c->dx = (int8_t)ox;
			c->dy = (int8_t)oy;
			c->n = 0;
			BRESENHAM(0, 0, ox, oy, c->at[c->n++] = (int16_t)(y * CR_MAX_W + x));
		}
	qsort(sight.cell, (size_t)n, sizeof sight.cell[0], cell_cmp);
	sight.n_cells = n;
	for (int r = 0; r <= LOS_R; r++) {
		int k = 0;
		while (k < n && cell_key(&sight.cell[k]) <= r * r + r)
			k++;
		sight.disc[r] = k;
	}
}

/* Marks what one scoundrel sees; returns the things first seen. */
static int sight_of(cr_game *g, const cr_hero *h, int r)
{
	const cr_level *lv = &g->lv;
	int found = 0;
	if (r > LOS_R) { /* beyond the table: every line walked */
		int x0 = h->x - r < 0 ? 0 : h->x - r, x1 = h->x + r >= lv->w ? lv->w - 1 : h->x + r;
		int y0 = h->y - r < 0 ? 0 : h->y - r, y1 = h->y + r >= lv->h ? lv->h - 1 : h->y + r;
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++) {
				int dx = x - h->x, dy = y - h->y;
				uint8_t *f = &g->flag[y][x];
				if (dx * dx + dy * dy > r * r + r || (*f & CR_F_VISIBLE) ||
				    !cr_los(g, h->x, h->y, x, y))
					continue;
				if (!(*f & CR_F_SEEN) &&
				    (*f & (CR_F_QMARK | CR_F_CHEST | CR_F_UP | CR_F_DOWN | CR_F_LAIR)))
					found++;
				*f |= CR_F_VISIBLE | CR_F_SEEN;
			}
		return found;
	}
	pthread_once(&sight_once, sight_build);
	/* a tile blocks sight when it is a wall or a closed door: the tile
	 * values with bit 0 clear (cr_level.h) */
	_Static_assert(!(CR_T_WALL & 1) && !(CR_T_DOOR & 1) && (CR_T_FLOOR & 1) &&
			       (CR_T_DOOR_OPEN & 1),
		       "bit 0 of a tile: it lets sight through");
	const uint8_t *here = &lv->tile[h->y][h->x];
	for (int k = 0; k < sight.disc[r]; k++) {
		const sight_cell *c = &sight.cell[k];
		int x = h->x + c->dx, y = h->y + c->dy;
		if ((unsigned)x >= (unsigned)lv->w || (unsigned)y >= (unsigned)lv->h)
			continue;
		uint8_t *f = &g->flag[y][x];
		if (*f & CR_F_VISIBLE)
			continue;
		int i = 0;
		while (i < c->n && (here[c->at[i]] & 1))
			i++;
		if (i < c->n)
			continue;
		if (!(*f & CR_F_SEEN) &&
		    (*f & (CR_F_QMARK | CR_F_CHEST | CR_F_UP | CR_F_DOWN | CR_F_LAIR)))
			found++;
		*f |= CR_F_VISIBLE | CR_F_SEEN;
	}
	return found;
}

/* What sight depends on besides the level's walls: who is on the map,
 * where, and how far they see. */
static uint32_t sight_key(const cr_game *g, int s)
{
	const cr_hero *h = &g->h[s];
	if (!h->alive || h->gate)
		return 0;
	return 1u << 31 | (uint32_t)cr_sight(g, s) << 16 | (uint32_t)h->y << 8 | h->x;
}

int cr_fov_update(cr_game *g)
{
	const cr_level *lv = &g->lv;
	/* clear last round's sight, eight tiles at a time (rows are
	 * CR_MAX_W long: the last word of a row stays inside it) */
	_Static_assert(CR_MAX_W % 8 == 0, "a row is whole words");
	const uint64_t keep = ~(0x0101010101010101ULL * CR_F_VISIBLE);
	for (int y = 0; y < lv->h; y++)
		for (int x = 0; x < lv->w; x += 8) {
			uint64_t v;
			memcpy(&v, &g->flag[y][x], 8);
			v &= keep;
			memcpy(&g->flag[y][x], &v, 8);
		}
	int found = 0;
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		g->fov_key[s] = sight_key(g, s);
		if (h->alive && !h->gate)
			found += sight_of(g, h, cr_sight(g, s));
	}
	g->fov_doors = g->doors_opened;
	return found;
}

int cr_fov_refresh(cr_game *g)
{
	bool same = g->fov_doors == g->doors_opened;
	for (int s = 0; s < g->seats && same; s++)
		same = g->fov_key[s] == sight_key(g, s);
	/* the same sight as last time: every tile in it is seen already, so
	 * nothing is found */
	return same ? 0 : cr_fov_update(g);
}
