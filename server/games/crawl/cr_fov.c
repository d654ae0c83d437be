/*
 * cr_fov.c — sight and the fog of war (docs/rules/crawl.md C38): what every
 * scoundrel on the map sees now (a disc of its sight radius, each tile in
 * line of sight: a Bresenham line whose inner tiles are neither wall nor a
 * closed door), marked visible, and everything ever visible marked seen —
 * the party's shared memory of the level.
 */
#include <stdlib.h>

#include "crawl.h"

static bool blocks(const cr_game *g, int x, int y)
{
	int t = g->lv.tile[y][x];
	return t == CR_T_WALL || t == CR_T_DOOR;
}

bool cr_los(const cr_game *g, int x0, int y0, int x1, int y1)
{
	int dx = abs(x1 - x0), dy = -abs(y1 - y0);
	int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
	int e = dx + dy;
	int x = x0, y = y0;
	for (;;) {
		if (x == x1 && y == y1)
			return true;
		if ((x != x0 || y != y0) && blocks(g, x, y))
			return false;
		int e2 = 2 * e;
		if (e2 >= dy) {
			e += dy;
			x += sx;
		}
		if (e2 <= dx) {
			e += dx;
			y += sy;
		}
	}
}

int cr_fov_update(cr_game *g)
{
	const cr_level *lv = &g->lv;
	for (int y = 0; y < lv->h; y++)
		for (int x = 0; x < lv->w; x++)
			g->flag[y][x] &= (uint8_t)~CR_F_VISIBLE;
	int found = 0;
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		if (!h->alive || h->gate)
			continue;
		int r = cr_sight(g, s);
		int x0 = h->x - r < 0 ? 0 : h->x - r, x1 = h->x + r >= lv->w ? lv->w - 1 : h->x + r;
		int y0 = h->y - r < 0 ? 0 : h->y - r, y1 = h->y + r >= lv->h ? lv->h - 1 : h->y + r;
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++) {
				int dx = x - h->x, dy = y - h->y;
				if (dx * dx + dy * dy > r * r + r)
					continue;
				uint8_t *f = &g->flag[y][x];
				if ((*f & CR_F_VISIBLE) || !cr_los(g, h->x, h->y, x, y))
					continue;
				if (!(*f & CR_F_SEEN) &&
				    (*f & (CR_F_QMARK | CR_F_CHEST | CR_F_UP | CR_F_DOWN | CR_F_LAIR)))
					found++;
				*f |= CR_F_VISIBLE | CR_F_SEEN;
			}
	}
	return found;
}
