/*
 * cr_level.c — the level generator (cr_level.h; docs/rules/crawl.md C1–C10).
 *
 * One attempt: clear to walls (C1), walk (C2), doors and rooms at dead ends
 * (C3), fill diagonal-only exits until none is left (C4), place the portals,
 * the start, the spawns, the chests and the ? tiles (C5), check that all of it
 * is reachable from the start (C6). A failed attempt is counted and the next
 * one draws on from the same generator; after CR_GEN_RETRIES failures the
 * fallback attempt fills every pocket before placing and relaxes the start's
 * distance to what the level allows, so generation always ends (C6). Open
 * tiles the start cannot reach are filled at the end (C7).
 */
#include "cr_level.h"

#include <string.h>

const int cr_dx[4] = {0, 1, 0, -1}, cr_dy[4] = {-1, 0, 1, 0};

/* C5 */
int cr_level_min_start_dist(int w, int h) { return (w + h) / 3; }

/* C8: the run seed is mixed on its own first, then the act, then the visit,
 * so (seed, act, visit) triples never share a level by accident. */
uint64_t cr_level_seed(uint64_t run_seed, int act, int visit)
{
	return rng_derive_seed(rng_derive_seed(run_seed, (uint64_t)act), (uint64_t)visit);
}

/* ---- C9: the ? count --------------------------------------------------- */

/* Phi(z) * 2^32 at z = -2.5, -1.5, ..., 2.5: a uniform 32-bit draw below the
 * first or at/above the last is a Gaussian outside 9.5..14.5 (drawn again);
 * between two of them, the Gaussian rounds to 10, 11, ... 14. This is the
 * inverse-CDF draw of N(12, 1) at the resolution rounding needs, in integers
 * only, so every machine draws the same count (test_crawl_level checks the
 * constants against erfc). */
static const uint32_t phi_cut[6] = {26670309u,   286934745u,  1325158638u,
				    2969808658u, 4008032551u, 4268296987u};

int cr_qmark_count(rng *r, int act)
{
	for (;;) {
		uint32_t u = rng_u32(r);
		if (u < phi_cut[0] || u >= phi_cut[5])
			continue; /* outside 10..14: drawn again (C9) */
		int k = 10;
		for (int i = 1; i < 5 && u >= phi_cut[i]; i++)
			k++;
		return act > 1 ? k - 1 : k;
	}
}

double cr_qmark_count_prob(int act, int k)
{
	int base = act > 1 ? k + 1 : k;
	if (base < 10 || base > 14)
		return 0;
	double in = (double)(phi_cut[5] - phi_cut[0]);
	return (double)(phi_cut[base - 9] - phi_cut[base - 10]) / in;
}

/* ---- helpers -------------------------------------------------------------- */

static bool open_at(const cr_level *lv, int x, int y)
{
	return cr_in(lv, x, y) && cr_passable(lv->tile[y][x]);
}

/* Open neighbours of a tile inside the ring: the outer ring is always wall
 * (C1: nothing is ever carved there), so every open tile and each of its
 * neighbours is on the level and no bounds are checked. */
static int open_nbrs(const cr_level *lv, int x, int y)
{
	return cr_passable(lv->tile[y - 1][x]) + cr_passable(lv->tile[y][x + 1]) +
	       cr_passable(lv->tile[y + 1][x]) + cr_passable(lv->tile[y][x - 1]);
}

int cr_level_bfs(const cr_level *lv, cr_pos from, uint16_t dist[CR_MAX_H][CR_MAX_W])
{
	for (int y = 0; y < lv->h; y++)
		memset(dist[y], 0xff, (size_t)lv->w * sizeof dist[0][0]);
	if (!open_at(lv, from.x, from.y))
		return 0;
	/* flat indexes (y * CR_MAX_W + x); an open tile's neighbours are all on
	 * the level (the ring is wall) */
	static const int step[4] = {-CR_MAX_W, 1, CR_MAX_W, -1};
	const uint8_t *tile = &lv->tile[0][0];
	uint16_t *d = &dist[0][0];
	uint16_t q[CR_MAX_W * CR_MAX_H];
	int head = 0, tail = 0;
	int at = from.y * CR_MAX_W + from.x;
	d[at] = 0;
	q[tail++] = (uint16_t)at;
	while (head < tail) {
		at = q[head++];
		uint16_t next = (uint16_t)(d[at] + 1);
		for (int k = 0; k < 4; k++) {
			int n = at + step[k];
			if (!cr_passable(tile[n]) || d[n] != CR_FAR)
				continue;
			d[n] = next;
			q[tail++] = (uint16_t)n;
		}
	}
	return tail;
}

/* ---- C2: the drunkard's walk ---------------------------------------------- */

static bool interior(const cr_level *lv, int x, int y)
{
	return x >= 1 && y >= 1 && x <= lv->w - 2 && y <= lv->h - 2;
}

void cr_level_walk(cr_level *lv, rng *r, cr_walk_stats *st)
{
	int x = lv->w / 2, y = lv->h / 2;
	int dir = (int)rng_below(r, 4);
	int target = CR_OPEN_PCT * (lv->w - 2) * (lv->h - 2) / 100;
	int opened = 1;
	long cap = 20L * lv->w * lv->h;
	lv->tile[y][x] = CR_T_FLOOR;
	for (long step = 0; step < cap && opened < target; step++) {
		bool keep = rng_below(r, 100) < CR_FORWARD_PCT;
		bool edge = !interior(lv, x + cr_dx[dir], y + cr_dy[dir]);
		int was = dir;
		if (!keep || edge) {
			/* a turn: any other heading that stays inside, uniformly */
			int cand[3], n = 0;
			for (int d = 0; d < 4; d++)
				if (d != dir && interior(lv, x + cr_dx[d], y + cr_dy[d]))
					cand[n++] = d;
			dir = cand[rng_below(r, (uint32_t)n)];
		}
		if (st) {
			st->steps++;
			st->forced += edge;
			st->forced_turned += edge && dir != was;
			st->free += !edge;
			st->kept += !edge && dir == was;
		}
		x += cr_dx[dir];
		y += cr_dy[dir];
		if (lv->tile[y][x] == CR_T_WALL) {
			lv->tile[y][x] = CR_T_FLOOR;
			opened++;
		}
	}
}

/* ---- C3: doors and grown rooms at dead ends --------------------------------- */

typedef struct rect {
	int x0, y0, x1, y1; /* inclusive */
} rect;

/* Every tile of r is wall, and so is its ring (the 8-neighbourhood), but
 * for the door: the room touches nothing else. */
static bool room_fits(const cr_level *lv, rect r, int door_x, int door_y)
{
	if (r.x0 < 1 || r.y0 < 1 || r.x1 > lv->w - 2 || r.y1 > lv->h - 2)
		return false;
	for (int y = r.y0 - 1; y <= r.y1 + 1; y++)
		for (int x = r.x0 - 1; x <= r.x1 + 1; x++) {
			if (x == door_x && y == door_y)
				continue;
			if (cr_passable(lv->tile[y][x]))
				return false;
		}
	return true;
}

/* Grows a room from the tile beyond the door in direction d: one side at a
 * time, chosen at random, while it fits, up to a drawn size of 3-7 x 3-5.
 * Returns true (and carves it) when it reached at least 2 x 2. */
static bool grow_room(cr_level *lv, rng *r, int door_x, int door_y, int d)
{
	int ex = door_x + cr_dx[d], ey = door_y + cr_dy[d];
	rect rm = {ex, ey, ex, ey};
	if (!room_fits(lv, rm, door_x, door_y))
		return false;
	int want_w = 3 + (int)rng_below(r, 5), want_h = 3 + (int)rng_below(r, 3);
	bool side_ok[4] = {true, true, true, true};
	side_ok[(d + 2) % 4] = false; /* never back over the door */
	for (;;) {
		int cand[4], n = 0;
		for (int s = 0; s < 4; s++) {
			bool horiz = s == CR_E || s == CR_W;
			int have = horiz ? rm.x1 - rm.x0 + 1 : rm.y1 - rm.y0 + 1;
			if (side_ok[s] && have < (horiz ? want_w : want_h))
				cand[n++] = s;
		}
		if (!n)
			break;
		int s = cand[rng_below(r, (uint32_t)n)];
		rect next = rm;
		if (s == CR_N)
			next.y0--;
		else if (s == CR_S)
			next.y1++;
		else if (s == CR_E)
			next.x1++;
		else
			next.x0--;
		if (room_fits(lv, next, door_x, door_y))
			rm = next;
		else
			side_ok[s] = false;
	}
	if (rm.x1 - rm.x0 < 1 || rm.y1 - rm.y0 < 1)
		return false;
	for (int y = rm.y0; y <= rm.y1; y++)
		for (int x = rm.x0; x <= rm.x1; x++)
			lv->tile[y][x] = CR_T_FLOOR;
	lv->tile[door_y][door_x] = CR_T_DOOR;
	return true;
}

/* Every dead end gets a door and a grown room; where no room fits, the
 * corridor is filled back one tile and the tile behind it, if that is now a
 * dead end, is handled the same way. So no open tile is left with exactly
 * one open neighbour (a door has two: its corridor and its room). Filling a
 * dead end never makes a diagonal-only exit (the tile had one open
 * neighbour, and such an exit needs it to have had two). */
static void dead_ends(cr_level *lv, rng *r)
{
	/* Found first in reading order, then handled: a room never touches
	 * another dead end, so the order of the list is the order of play. */
	cr_pos work[CR_MAX_W * CR_MAX_H];
	int n = 0;
	for (int y = 1; y < lv->h - 1; y++)
		for (int x = 1; x < lv->w - 1; x++)
			if (lv->tile[y][x] == CR_T_FLOOR && open_nbrs(lv, x, y) == 1)
				work[n++] = (cr_pos){(uint8_t)x, (uint8_t)y};
	for (int i = 0; i < n; i++) {
		int x = work[i].x, y = work[i].y;
		if (lv->tile[y][x] != CR_T_FLOOR || open_nbrs(lv, x, y) != 1)
			continue;
		int back = 0;
		for (int d = 0; d < 4; d++)
			if (cr_passable(lv->tile[y + cr_dy[d]][x + cr_dx[d]]))
				back = d;
		int fwd = (back + 2) % 4;
		/* forward first, then left, then right of the corridor's heading */
		int tries[3] = {fwd, (fwd + 3) % 4, (fwd + 1) % 4};
		bool done = false;
		for (int t = 0; t < 3 && !done; t++)
			done = grow_room(lv, r, x, y, tries[t]);
		if (done) {
			lv->rooms++;
			continue;
		}
		lv->tile[y][x] = CR_T_WALL;
		lv->dead_ends_kept++;
		int bx = x + cr_dx[back], by = y + cr_dy[back];
		if (lv->tile[by][bx] == CR_T_FLOOR && open_nbrs(lv, bx, by) == 1 &&
		    n < (int)(sizeof work / sizeof work[0]))
			work[n++] = (cr_pos){(uint8_t)bx, (uint8_t)by};
	}
}

/* ---- C4: diagonal-only exits -------------------------------------------------- */

/* Which of two diagonal open tiles to fill: never a door when the other is
 * not; then the one with fewer open neighbours (a corridor's tip before a
 * room's edge); then the first in reading order. */
static void fill_one(cr_level *lv, int ax, int ay, int bx, int by)
{
	int ta = lv->tile[ay][ax], tb = lv->tile[by][bx];
	bool pick_b;
	if ((ta == CR_T_DOOR) != (tb == CR_T_DOOR))
		pick_b = ta == CR_T_DOOR;
	else
		pick_b = open_nbrs(lv, bx, by) < open_nbrs(lv, ax, ay);
	if (pick_b)
		lv->tile[by][bx] = CR_T_WALL;
	else
		lv->tile[ay][ax] = CR_T_WALL;
	lv->filled++;
}

/* A 2x2 block whose open tiles are exactly one diagonal pair (x + 1 < w
 * and y + 1 < h: the block is on the level). */
static int diag_at(const cr_level *lv, int x, int y)
{
	bool a = cr_passable(lv->tile[y][x]), b = cr_passable(lv->tile[y][x + 1]);
	bool c = cr_passable(lv->tile[y + 1][x]), d = cr_passable(lv->tile[y + 1][x + 1]);
	if (a && d && !b && !c)
		return 1;
	if (b && c && !a && !d)
		return 2;
	return 0;
}

int cr_level_diagonal_exits(const cr_level *lv)
{
	int n = 0;
	for (int y = 0; y + 1 < lv->h; y++)
		for (int x = 0; x + 1 < lv->w; x++)
			n += diag_at(lv, x, y) != 0;
	return n;
}

/* Repeats whole passes until one finds nothing: a fill can make a new
 * diagonal exit next to it, which a single pass would miss (C4). */
static void fix_diagonals(cr_level *lv)
{
	bool changed = true;
	while (changed) {
		changed = false;
		for (int y = 0; y + 1 < lv->h; y++)
			for (int x = 0; x + 1 < lv->w; x++) {
				int k = diag_at(lv, x, y);
				if (k == 1)
					fill_one(lv, x, y, x + 1, y + 1);
				else if (k == 2)
					fill_one(lv, x + 1, y, x, y + 1);
				changed |= k != 0;
			}
	}
}

/* ---- C5, C6: placements ------------------------------------------------------ */

typedef struct gen_ctx {
	uint16_t dist[CR_MAX_H][CR_MAX_W];
	uint16_t near[CR_MAX_H][CR_MAX_W]; /* path distance to the nearest portal */
	uint8_t used[CR_MAX_H][CR_MAX_W];
	cr_pos floor[CR_MAX_W * CR_MAX_H];
	int n_floor;
} gen_ctx;

/* Floor tiles (doors excluded: nothing stands in a doorway), shuffled. */
static void collect_floor(const cr_level *lv, gen_ctx *g, rng *r)
{
	g->n_floor = 0;
	for (int y = 0; y < lv->h; y++)
		for (int x = 0; x < lv->w; x++)
			if (lv->tile[y][x] == CR_T_FLOOR)
				g->floor[g->n_floor++] = (cr_pos){(uint8_t)x, (uint8_t)y};
	/* rng_shuffle's Fisher-Yates, the same draws and swaps, typed: its
	 * byte-wise swap cost more than the draws on a few hundred tiles */
	for (uint32_t i = (uint32_t)g->n_floor; i > 1; i--) {
		uint32_t j = rng_below(r, i);
		cr_pos t = g->floor[j];
		g->floor[j] = g->floor[i - 1];
		g->floor[i - 1] = t;
	}
}

/* The next unused floor tile of the shuffled list (its order is the
 * uniform draw without replacement), or false when none is left. */
static bool take(gen_ctx *g, int *next, cr_pos *out)
{
	while (*next < g->n_floor) {
		cr_pos p = g->floor[(*next)++];
		if (!g->used[p.y][p.x]) {
			g->used[p.y][p.x] = 1;
			*out = p;
			return true;
		}
	}
	return false;
}

static void min_into(const cr_level *lv, gen_ctx *g)
{
	for (int y = 0; y < lv->h; y++)
		for (int x = 0; x < lv->w; x++)
			if (g->dist[y][x] < g->near[y][x])
				g->near[y][x] = g->dist[y][x];
}

/* Places everything; false when the attempt must be thrown away (C6).
 * min_dist < 0: the fallback's "as far as the level allows". */
static bool place(cr_level *lv, gen_ctx *g, rng *r, int n_spawn, int n_chest, int n_qmark,
		  int min_dist)
{
	memset(g->used, 0, sizeof g->used);
	collect_floor(lv, g, r);
	int next = 0;
	cr_pos *targets[3];
	int nt = 0;
	if (lv->has_down)
		targets[nt++] = &lv->down;
	if (lv->has_up)
		targets[nt++] = &lv->up;
	if (lv->has_lair)
		targets[nt++] = &lv->lair;
	for (int i = 0; i < nt; i++)
		if (!take(g, &next, targets[i]))
			return false;
	/* C5: the start is drawn among the floor tiles at least min_dist steps
	 * from every portal (and the lair): never next to the way out. */
	for (int y = 0; y < lv->h; y++)
		memset(g->near[y], 0xff, (size_t)lv->w * sizeof g->near[0][0]);
	for (int i = 0; i < nt; i++) {
		cr_level_bfs(lv, *targets[i], g->dist);
		min_into(lv, g);
	}
	if (min_dist < 0) {
		min_dist = 0;
		for (int i = 0; i < g->n_floor; i++) {
			cr_pos p = g->floor[i];
			int d = g->near[p.y][p.x];
			if (!g->used[p.y][p.x] && d != CR_FAR && d > min_dist)
				min_dist = d;
		}
		int want = cr_level_min_start_dist(lv->w, lv->h);
		if (min_dist > want)
			min_dist = want;
	}
	bool found = false;
	for (int i = 0; i < g->n_floor && !found; i++) {
		cr_pos p = g->floor[i];
		int d = g->near[p.y][p.x];
		if (!g->used[p.y][p.x] && d != CR_FAR && d >= min_dist) {
			lv->start = p;
			g->used[p.y][p.x] = 1;
			lv->start_dist = d;
			found = true;
		}
	}
	if (!found)
		return false;
	lv->n_spawn = lv->n_chest = lv->n_qmark = 0;
	cr_level_bfs(lv, lv->start, g->dist);
	/* C5: no monster starts within CR_SPAWN_CLEAR steps of the start; the
	 * tiles skipped stay in the draw for what comes next. */
	for (int i = 0; i < g->n_floor && lv->n_spawn < n_spawn; i++) {
		cr_pos p = g->floor[i];
		if (g->used[p.y][p.x] || g->dist[p.y][p.x] < CR_SPAWN_CLEAR)
			continue;
		g->used[p.y][p.x] = 1;
		lv->spawn[lv->n_spawn++] = p;
	}
	for (int i = 0; i < n_chest; i++)
		if (take(g, &next, &lv->chest[lv->n_chest]))
			lv->n_chest++;
	for (int i = 0; i < n_qmark; i++)
		if (take(g, &next, &lv->qmark[lv->n_qmark]))
			lv->n_qmark++;
	if (lv->n_spawn < n_spawn || lv->n_chest < n_chest || lv->n_qmark < n_qmark)
		return false;
	/* C6: everything placed must be reachable from the start. */
	for (int i = 0; i < nt; i++)
		if (g->dist[targets[i]->y][targets[i]->x] == CR_FAR)
			return false;
	for (int y = 0; y < lv->h; y++)
		for (int x = 0; x < lv->w; x++)
			if (g->used[y][x] && g->dist[y][x] == CR_FAR)
				return false;
	return true;
}

/* C7: open tiles the start cannot reach are filled (g->dist is the
 * start's). With `keep_largest` (the fallback, before placing) the largest
 * open region is kept instead. */
static void fill_pockets(cr_level *lv, gen_ctx *g, bool keep_largest)
{
	if (keep_largest) {
		/* the open region with the most tiles, found from its first tile */
		cr_pos best = {0, 0};
		int best_n = 0;
		uint8_t seen[CR_MAX_H][CR_MAX_W];
		memset(seen, 0, sizeof seen);
		for (int y = 0; y < lv->h; y++)
			for (int x = 0; x < lv->w; x++) {
				if (seen[y][x] || !cr_passable(lv->tile[y][x]))
					continue;
				cr_pos p = {(uint8_t)x, (uint8_t)y};
				int n = cr_level_bfs(lv, p, g->dist);
				for (int yy = 0; yy < lv->h; yy++)
					for (int xx = 0; xx < lv->w; xx++)
						if (g->dist[yy][xx] != CR_FAR)
							seen[yy][xx] = 1;
				if (n > best_n) {
					best_n = n;
					best = p;
				}
			}
		cr_level_bfs(lv, best, g->dist);
	}
	for (int y = 0; y < lv->h; y++)
		for (int x = 0; x < lv->w; x++)
			if (cr_passable(lv->tile[y][x]) && g->dist[y][x] == CR_FAR)
				lv->tile[y][x] = CR_T_WALL;
}

/* C10: chests and spawns per act (the ? count is C9's). */
static int chests_for(rng *r, int act) { return 3 + (int)rng_below(r, 2) + (act > 1); }
static int spawns_for(rng *r, int act) { return 3 + 2 * act + (int)rng_below(r, 3); }

static void attempt_map(cr_level *lv, rng *r)
{
	memset(lv->tile, CR_T_WALL, sizeof lv->tile);
	cr_level_walk(lv, r, NULL);
	dead_ends(lv, r);
	fix_diagonals(lv);
	/* C4's fills can leave new dead ends; C3 again (it makes no diagonal
	 * exit, so C4 need not run after it). */
	dead_ends(lv, r);
}

void cr_level_generate(cr_level *lv, uint64_t run_seed, int act, int acts, int visit, int w,
		       int h)
{
	cr_level_generate_capped(lv, run_seed, act, acts, visit, w, h, CR_GEN_RETRIES);
}

void cr_level_generate_capped(cr_level *lv, uint64_t run_seed, int act, int acts, int visit,
			      int w, int h, int retries)
{
	gen_ctx g;
	memset(lv, 0, sizeof *lv);
	lv->w = w;
	lv->h = h;
	lv->act = act;
	lv->acts = acts;
	lv->visit = visit;
	lv->seed = cr_level_seed(run_seed, act, visit);
	lv->has_down = act < acts;
	lv->has_up = act > 1;
	lv->has_lair = act == acts;
	rng r;
	rng_seed(&r, lv->seed, 1);
	int n_qmark = cr_qmark_count(&r, act);
	int n_chest = chests_for(&r, act);
	int n_spawn = spawns_for(&r, act);
	int min_dist = cr_level_min_start_dist(w, h);
	for (int a = 0; a <= retries; a++) {
		int rooms = lv->rooms, kept = lv->dead_ends_kept, filled = lv->filled;
		attempt_map(lv, &r);
		bool fallback = a == retries;
		if (fallback) {
			/* one region only, and no more things than it has room for */
			fill_pockets(lv, &g, true);
			int room = -4;
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					room += lv->tile[y][x] == CR_T_FLOOR;
			while (n_spawn + n_chest + n_qmark > (room > 0 ? room : 0)) {
				if (n_qmark >= n_spawn && n_qmark >= n_chest)
					n_qmark--;
				else if (n_spawn >= n_chest)
					n_spawn--;
				else
					n_chest--;
			}
		}
		if (place(lv, &g, &r, n_spawn, n_chest, n_qmark, fallback ? -1 : min_dist)) {
			lv->fallback = fallback;
			/* the figures of the attempt kept, not of the rejected ones */
			lv->rooms -= rooms;
			lv->dead_ends_kept -= kept;
			lv->filled -= filled;
			fill_pockets(lv, &g, false);
			return;
		}
		lv->rejections++;
	}
	/* Not reached: the fallback keeps only one region, so everything is
	 * reachable, and its start distance is one some tile has. */
}

/* ---- lair map: the ASCII form (C10) ------------------------------------------ */

int cr_level_ascii(const cr_level *lv, char *out, int cap)
{
	int need = (lv->w + 1) * lv->h;
	if (cap < need + 1)
		return need;
	char *p = out;
	for (int y = 0; y < lv->h; y++) {
		for (int x = 0; x < lv->w; x++) {
			static const char tc[] = {'#', '.', '+', '\''};
			p[x] = tc[lv->tile[y][x] & 3];
		}
		p += lv->w;
		*p++ = '\n';
	}
	*p = '\0';
#define MARK(pos, c) out[(pos).y * (lv->w + 1) + (pos).x] = (c)
	for (int i = 0; i < lv->n_spawn; i++)
		MARK(lv->spawn[i], 'm');
	for (int i = 0; i < lv->n_chest; i++)
		MARK(lv->chest[i], '$');
	for (int i = 0; i < lv->n_qmark; i++)
		MARK(lv->qmark[i], '?');
	if (lv->has_up)
		MARK(lv->up, '<');
	if (lv->has_down)
		MARK(lv->down, '>');
	if (lv->has_lair)
		MARK(lv->lair, 'D');
	MARK(lv->start, '@');
#undef MARK
	return need;
}
