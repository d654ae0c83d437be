/*
 * test_crawl_level.c — the crawl level generator (docs/rules/crawl.md
 * C1–C10): the walk's 60% and its turns at the edge, doors and rooms at dead
 * ends, no diagonal-only exit left, the start's distance from the portals,
 * reachability of everything placed, the rejection counter and the retry
 * cap's fallback, the ? count of each act, same (seed, act, visit) -> same
 * level, and `lair map`. Diagonal-only exits are counted here, not with the
 * generator's own check (a single pass of the fix, as the original made,
 * leaves some 58 over the 10,000 seeds).
 *
 * The properties are checked over 10,000 seeds in one pass (a level takes
 * some 60 us; the pass is well under a second, a few under ASan).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "../../client-cli/cmd.h"
#include "../../server/games/crawl/cr_level.h"
#include "../test.h"

#define SEEDS 10000

static cr_level lv; /* 10 KB: off the stack */

static bool open_t(const cr_level *l, int x, int y)
{
	return cr_in(l, x, y) && cr_passable(l->tile[y][x]);
}

static int nbrs(const cr_level *l, int x, int y)
{
	int n = 0;
	for (int d = 0; d < 4; d++)
		n += open_t(l, x + cr_dx[d], y + cr_dy[d]);
	return n;
}

/* The open tiles reached from p without passing the tile (bx, by). */
static int region(const cr_level *l, cr_pos p, int bx, int by, int *x0, int *y0, int *x1,
		  int *y1)
{
	static uint8_t seen[CR_MAX_H][CR_MAX_W];
	static cr_pos q[CR_MAX_W * CR_MAX_H];
	memset(seen, 0, sizeof seen);
	int h = 0, t = 0;
	q[t++] = p;
	seen[p.y][p.x] = 1;
	*x0 = *x1 = p.x;
	*y0 = *y1 = p.y;
	while (h < t) {
		cr_pos c = q[h++];
		*x0 = c.x < *x0 ? c.x : *x0;
		*x1 = c.x > *x1 ? c.x : *x1;
		*y0 = c.y < *y0 ? c.y : *y0;
		*y1 = c.y > *y1 ? c.y : *y1;
		for (int d = 0; d < 4; d++) {
			int nx = c.x + cr_dx[d], ny = c.y + cr_dy[d];
			if (!open_t(l, nx, ny) || seen[ny][nx] || (nx == bx && ny == by))
				continue;
			seen[ny][nx] = 1;
			q[t++] = (cr_pos){(uint8_t)nx, (uint8_t)ny};
		}
	}
	return t;
}

/* C3: a door has two open neighbours, one side of it is a whole rectangle
 * of 2x2 to 7x5 that nothing but the door reaches. */
static bool door_ok(const cr_level *l, int x, int y)
{
	if (nbrs(l, x, y) != 2)
		return false;
	for (int d = 0; d < 4; d++) {
		int nx = x + cr_dx[d], ny = y + cr_dy[d];
		if (!open_t(l, nx, ny))
			continue;
		int x0, y0, x1, y1;
		int n = region(l, (cr_pos){(uint8_t)nx, (uint8_t)ny}, x, y, &x0, &y0, &x1, &y1);
		int rw = x1 - x0 + 1, rh = y1 - y0 + 1;
		if (n == rw * rh && rw >= 2 && rh >= 2 && rw <= 7 && rh <= 7 && n <= 35)
			return true;
	}
	return false;
}

/* C4, counted here and not by the generator's own check: two open tiles
 * that touch only at a corner, wall on both other tiles of their 2x2. */
static int diagonal_only(const cr_level *l)
{
	int n = 0;
	for (int y = 0; y + 1 < l->h; y++)
		for (int x = 0; x + 1 < l->w; x++) {
			bool a = open_t(l, x, y), b = open_t(l, x + 1, y), c = open_t(l, x, y + 1),
			     d = open_t(l, x + 1, y + 1);
			n += (a && d && !b && !c) || (b && c && !a && !d);
		}
	return n;
}

/* What every level must be, counted over many (C1, C3-C7). */
typedef struct props {
	long levels, rejections, fallbacks, doors, bad_border, dead, diag, bad_doors;
	long close_start, unreachable, pockets, wrong_portals, rooms, kept;
} props;

/* need: the start's distance from every portal and the lair (C5); -1: the
 * fallback's, as far as any floor tile is from them (at most C5's). */
static void check_props(const cr_level *l, int need, props *p)
{
	static uint16_t dist[CR_MAX_H][CR_MAX_W], from[CR_MAX_H][CR_MAX_W];
	static uint16_t near[CR_MAX_H][CR_MAX_W];
	p->levels++;
	p->rejections += l->rejections;
	p->fallbacks += l->fallback;
	p->rooms += l->rooms;
	p->kept += l->dead_ends_kept;
	/* C1: the outer ring is wall */
	for (int x = 0; x < l->w; x++)
		p->bad_border += l->tile[0][x] != CR_T_WALL || l->tile[l->h - 1][x] != CR_T_WALL;
	for (int y = 0; y < l->h; y++)
		p->bad_border += l->tile[y][0] != CR_T_WALL || l->tile[y][l->w - 1] != CR_T_WALL;
	/* C8's portals: act 1 has no up portal, the last act the lair */
	p->wrong_portals += l->has_up != (l->act > 1) || l->has_down != (l->act < l->acts) ||
			    l->has_lair != (l->act == l->acts);
	/* C4 */
	p->diag += diagonal_only(l);
	cr_level_bfs(l, l->start, dist);
	for (int y = 0; y < l->h; y++)
		for (int x = 0; x < l->w; x++) {
			int t = l->tile[y][x];
			if (!cr_passable(t))
				continue;
			/* C7: every open tile is reachable */
			p->pockets += dist[y][x] == CR_FAR;
			/* C3: no dead end anywhere; doors lead to a closed room */
			p->dead += nbrs(l, x, y) <= 1;
			if (t == CR_T_DOOR) {
				p->doors++;
				p->bad_doors += !door_ok(l, x, y);
			}
		}
	/* C6: everything placed is reachable (and stands on floor) */
	cr_pos all[CR_MAX_SPAWNS + CR_MAX_CHESTS + CR_MAX_QMARKS + 3];
	int n = 0;
	for (int i = 0; i < l->n_spawn; i++)
		all[n++] = l->spawn[i];
	for (int i = 0; i < l->n_chest; i++)
		all[n++] = l->chest[i];
	for (int i = 0; i < l->n_qmark; i++)
		all[n++] = l->qmark[i];
	if (l->has_up)
		all[n++] = l->up;
	if (l->has_down)
		all[n++] = l->down;
	if (l->has_lair)
		all[n++] = l->lair;
	for (int i = 0; i < n; i++)
		p->unreachable += dist[all[i].y][all[i].x] == CR_FAR ||
				  l->tile[all[i].y][all[i].x] != CR_T_FLOOR;
	/* C5: the start is at least `need` steps from every portal */
	cr_pos ways[3];
	int nw = 0;
	if (l->has_up)
		ways[nw++] = l->up;
	if (l->has_down)
		ways[nw++] = l->down;
	if (l->has_lair)
		ways[nw++] = l->lair;
	memset(near, 0xff, sizeof near);
	for (int i = 0; i < nw; i++) {
		cr_level_bfs(l, ways[i], from);
		for (int y = 0; y < l->h; y++)
			for (int x = 0; x < l->w; x++)
				near[y][x] = from[y][x] < near[y][x] ? from[y][x] : near[y][x];
	}
	if (need < 0) {
		int want = cr_level_min_start_dist(l->w, l->h), far = 0;
		for (int y = 0; y < l->h; y++)
			for (int x = 0; x < l->w; x++)
				if (l->tile[y][x] == CR_T_FLOOR && near[y][x] != CR_FAR &&
				    near[y][x] > far)
					far = near[y][x];
		need = far < want ? far : want;
	}
	p->close_start += near[l->start.y][l->start.x] < need || need < 1 ||
			  near[l->start.y][l->start.x] != l->start_dist;
	/* C5: no spawn within CR_SPAWN_CLEAR steps of the start */
	for (int i = 0; i < l->n_spawn; i++)
		p->close_start += dist[l->spawn[i].y][l->spawn[i].x] < CR_SPAWN_CLEAR;
}

TEST(crawl_C1_C3_C4_C5_C6_C7_level_properties_over_10000_seeds)
{
	props p = {0};
	for (uint64_t s = 0; s < SEEDS; s++) {
		int act = 1 + (int)(s % 3);
		cr_level_generate(&lv, s * 7919 + 13, act, 3, (int)(s % 4), CR_DEF_W, CR_DEF_H);
		check_props(&lv, cr_level_min_start_dist(lv.w, lv.h), &p);
		CHECK_EQ(cr_level_diagonal_exits(&lv), 0); /* the generator's count agrees */
	}
	CHECK_EQ(p.bad_border, 0);
	CHECK_EQ(p.wrong_portals, 0);
	CHECK_EQ(p.diag, 0);
	CHECK_EQ(p.dead, 0);
	CHECK_EQ(p.bad_doors, 0);
	CHECK(p.doors > SEEDS); /* rooms are common: more than one a level */
	CHECK(p.doors <= p.rooms); /* a room C4 cut off is filled with its pocket (C7) */
	CHECK(p.kept > 0);
	CHECK_EQ(p.pockets, 0);
	CHECK_EQ(p.unreachable, 0);
	CHECK_EQ(p.close_start, 0);
	CHECK_EQ(p.fallbacks, 0);
	/* C6: levels are thrown away now and then, never most of them */
	CHECK(p.rejections > 0);
	CHECK(p.rejections < SEEDS);
}

/* C6's retry cap: the fallback (forced here at the first attempt; real
 * sizes never need it) keeps the largest open region, places what fits and
 * puts the start as far from the portals as that region allows, up to C5's
 * distance — at the smallest, the default and the largest size, every act. */
TEST(crawl_C6_the_fallback_always_ends_with_a_playable_level)
{
	int sizes[][2] = {{CR_MIN_W, CR_MIN_H}, {CR_DEF_W, CR_DEF_H}, {CR_MAX_W, CR_MAX_H}};
	for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
		props p = {0};
		long placed = 0, asked = 0;
		int n = z == 2 ? 300 : 2000;
		for (uint64_t s = 0; s < (uint64_t)n; s++) {
			int act = 1 + (int)(s % 3);
			cr_level_generate_capped(&lv, s * 104729 + 5, act, 3, 0, sizes[z][0],
						 sizes[z][1], 0);
			check_props(&lv, -1, &p);
			placed += lv.n_spawn + lv.n_chest + lv.n_qmark;
			asked += lv.n_qmark > 0 && lv.n_chest > 0 && lv.n_spawn > 0;
		}
		CHECK_MSG(p.fallbacks == n, "%dx%d: %ld fallbacks of %d", sizes[z][0], sizes[z][1],
			  p.fallbacks, n);
		CHECK_EQ(p.rejections, 0);
		CHECK_EQ(p.bad_border + p.wrong_portals + p.diag + p.dead + p.bad_doors, 0);
		CHECK_EQ(p.pockets, 0);
		CHECK_EQ(p.unreachable, 0);
		CHECK_MSG(p.close_start == 0, "%dx%d: %ld", sizes[z][0], sizes[z][1], p.close_start);
		CHECK_EQ(asked, n); /* something of each is placed */
		CHECK(placed > 0);
	}
}

/* C2: 60% forward where the heading can be kept; at the edge a turn,
 * always, and the walker never leaves the interior. */
TEST(crawl_C2_walk_keeps_its_heading_60_percent_and_turns_at_the_edge)
{
	cr_walk_stats st = {0};
	for (uint64_t s = 1; s <= 2000; s++) {
		memset(&lv, 0, sizeof lv);
		lv.w = 40 + (int)(s % 30);
		lv.h = 12 + (int)(s % 20);
		rng r;
		rng_seed(&r, s, 9);
		cr_level_walk(&lv, &r, &st);
		int open = 0;
		for (int y = 0; y < lv.h; y++)
			for (int x = 0; x < lv.w; x++) {
				bool edge = x == 0 || y == 0 || x == lv.w - 1 || y == lv.h - 1;
				if (lv.tile[y][x] != CR_T_WALL) {
					open++;
					CHECK(!edge);
				}
			}
		/* it stops at 40% of the interior */
		CHECK_EQ(open, CR_OPEN_PCT * (lv.w - 2) * (lv.h - 2) / 100);
	}
	double share = (double)st.kept / (double)st.free;
	/* binomial sd at ~10^6 steps is about 0.0005 */
	CHECK_MSG(fabs(share - 0.60) < 0.005, "kept %.4f of %ld", share, st.free);
	CHECK(st.forced > 1000);
	CHECK_EQ(st.forced_turned, st.forced);
}

/* C8: the level is a function of (run seed, act, visit) and the size. */
TEST(crawl_C8_same_seed_act_visit_same_level)
{
	static cr_level a, b;
	for (uint64_t s = 1; s < 200; s++) {
		int act = 1 + (int)(s % 3), visit = (int)(s % 5);
		cr_level_generate(&a, s, act, 3, visit, CR_DEF_W, CR_DEF_H);
		cr_level_generate(&b, s, act, 3, visit, CR_DEF_W, CR_DEF_H);
		CHECK(memcmp(&a, &b, sizeof a) == 0);
		cr_level_generate(&b, s, act, 3, visit + 1, CR_DEF_W, CR_DEF_H);
		CHECK(memcmp(a.tile, b.tile, sizeof a.tile) != 0);
		cr_level_generate(&b, s + 1, act, 3, visit, CR_DEF_W, CR_DEF_H);
		CHECK(memcmp(a.tile, b.tile, sizeof a.tile) != 0);
		CHECK(a.seed == cr_level_seed(s, act, visit));
	}
}

/* C1: every size within the bounds makes a valid level. */
TEST(crawl_C1_every_size_within_bounds)
{
	static uint16_t dist[CR_MAX_H][CR_MAX_W];
	int sizes[][2] = {{CR_MIN_W, CR_MIN_H}, {CR_MAX_W, CR_MAX_H}, {CR_MIN_W, CR_MAX_H},
			  {CR_MAX_W, CR_MIN_H}, {33, 19}};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		for (uint64_t s = 0; s < 300; s++) {
			cr_level_generate(&lv, s, 3, 3, 0, sizes[i][0], sizes[i][1]);
			CHECK_EQ(cr_level_diagonal_exits(&lv), 0);
			cr_level_bfs(&lv, lv.start, dist);
			CHECK(dist[lv.lair.y][lv.lair.x] != CR_FAR);
			CHECK(dist[lv.up.y][lv.up.x] != CR_FAR);
			CHECK_EQ(lv.n_qmark, cr_qmark_count_prob(3, lv.n_qmark) > 0 ? lv.n_qmark
										    : -1);
		}
}

/* C9: N(12, 1) rounded, drawn again outside 10..14; acts 2 and 3 one
 * fewer. The cut points are Phi at +-0.5, 1.5, 2.5 (checked with erfc), and
 * a million draws land within 4 standard errors of each probability. */
TEST(crawl_C9_question_mark_count_per_act)
{
	double phi[6];
	for (int i = 0; i < 6; i++)
		phi[i] = 0.5 * erfc(-(-2.5 + i) / sqrt(2.0));
	double in = phi[5] - phi[0];
	for (int k = 10; k <= 14; k++) {
		double p = (phi[k - 9] - phi[k - 10]) / in;
		CHECK_MSG(fabs(cr_qmark_count_prob(1, k) - p) < 1e-8, "k=%d", k);
		CHECK_MSG(fabs(cr_qmark_count_prob(2, k - 1) - p) < 1e-8, "k=%d", k);
	}
	CHECK(cr_qmark_count_prob(1, 9) == 0 && cr_qmark_count_prob(1, 15) == 0);
	CHECK(cr_qmark_count_prob(3, 14) == 0 && cr_qmark_count_prob(3, 8) == 0);
	for (int act = 1; act <= 3; act++) {
		long count[20] = {0};
		rng r;
		rng_seed(&r, 77 + (uint64_t)act, 3);
		const long n = 1000000;
		for (long i = 0; i < n; i++) {
			int k = cr_qmark_count(&r, act);
			REQUIRE(k >= 0 && k < 20);
			count[k]++;
		}
		int lo = act == 1 ? 10 : 9, hi = lo + 4;
		for (int k = 0; k < 20; k++) {
			double p = cr_qmark_count_prob(act, k);
			if (k < lo || k > hi) {
				CHECK_EQ(count[k], 0);
				continue;
			}
			double se = sqrt(p * (1 - p) / n);
			double got = (double)count[k] / n;
			CHECK_MSG(fabs(got - p) < 4 * se, "act %d k %d: %.5f vs %.5f", act, k, got,
				  p);
		}
	}
}

/* C10: lair map prints the generator's level with the legend, as ASCII or
 * JSON, and refuses what is out of range. */
TEST(crawl_C10_lair_map_ascii_and_json)
{
	char path[] = "/tmp/lair_map_XXXXXX";
	int fd = mkstemp(path);
	REQUIRE(fd >= 0);
	FILE *out = fdopen(fd, "w+");
	FILE *err = tmpfile();
	REQUIRE(out && err);
	char *argv1[] = {"map", "--seed", "42", "--act", "3", "--visit", "2", NULL};
	CHECK_EQ(cmd_map_to(7, argv1, out, err), 0);
	char *argv2[] = {"map", "--seed", "42", "--act", "3", "--visit", "2", "--json", NULL};
	CHECK_EQ(cmd_map_to(8, argv2, out, err), 0);
	fflush(out);
	rewind(out);
	static char text[20000];
	size_t n = fread(text, 1, sizeof text - 1, out);
	text[n] = 0;
	cr_level_generate(&lv, 42, 3, 3, 2, CR_DEF_W, CR_DEF_H);
	static char want[20000];
	cr_level_ascii(&lv, want, sizeof want);
	CHECK(strncmp(text, want, strlen(want)) == 0);
	CHECK(strchr(want, '@') && strchr(want, '<') && strchr(want, 'D') && strchr(want, '?'));
	CHECK(strchr(want, '$') && strchr(want, 'm') && strchr(want, '#') && !strchr(want, '>'));
	cJSON *j = cJSON_Parse(text + strlen(want));
	REQUIRE(j != NULL);
	CHECK_EQ(cJSON_GetObjectItem(j, "width")->valueint, CR_DEF_W);
	CHECK_EQ(cJSON_GetObjectItem(j, "height")->valueint, CR_DEF_H);
	cJSON *rows = cJSON_GetObjectItem(j, "rows");
	REQUIRE(cJSON_GetArraySize(rows) == CR_DEF_H);
	for (int y = 0; y < CR_DEF_H; y++)
		CHECK(strncmp(cJSON_GetArrayItem(rows, y)->valuestring, want + y * (CR_DEF_W + 1),
			      CR_DEF_W) == 0);
	cJSON_Delete(j);
	const char *bad[][3] = {{"--act", "4", NULL},	  {"--act", "0", NULL},
				{"--width", "23", NULL},  {"--height", "61", NULL},
				{"--seed", "-1", NULL},	  {"--seed", "1x", NULL},
				{"--acts", "1", "--act"}, {"stray", NULL, NULL}};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *argv[6] = {"map"};
		int argc = 1;
		for (int k = 0; k < 3 && bad[i][k]; k++)
			argv[argc++] = (char *)bad[i][k];
		if (argc == 4) /* --acts 1 --act 2: past the run's acts */
			argv[argc++] = "2";
		CHECK_MSG(cmd_map_to(argc, argv, out, err) == 2, "%s", bad[i][0]);
	}
	fclose(out);
	fclose(err);
	unlink(path);
}
