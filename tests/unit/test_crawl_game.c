/*
 * test_crawl_game.c — the rules of a crawl run (docs/rules/crawl.md C19–C20,
 * C30–C45) on hand-made situations: the level is replaced by an open arena
 * (a crawl state is a plain struct, so a test may set any of it), monsters
 * and things are put where the rule needs them, and one decision is applied.
 * Long (950 lines) on purpose: one test per rule, each setting up its whole
 * situation, so that a test reads (and fails) alone.
 */
#include <stdlib.h>
#include <string.h>

#include "../../server/games/crawl/crawl.h"
#include "../test.h"

static cr_config cfg;
static cr_game g;
static game_events evs;

/* A fresh run of `seats`, its level an empty 30 x 12 room, no monsters,
 * every scoundrel at (5 + seat, 5), all of it seen. */
static void arena(int seats, uint64_t seed)
{
	char err[200];
	if (cr_config_parse(&cfg, NULL, err, sizeof err) != 0)
		test_fail(__FILE__, __LINE__, "config: %s", err);
	game_events_clear(&evs);
	cr_game_init(&g, &cfg, seats, seed, NULL);
	memset(g.lv.tile, CR_T_WALL, sizeof g.lv.tile);
	memset(g.flag, 0, sizeof g.flag);
	g.lv.w = 30;
	g.lv.h = 12;
	for (int y = 1; y < 11; y++)
		for (int x = 1; x < 29; x++)
			g.lv.tile[y][x] = CR_T_FLOOR;
	for (int y = 0; y < 12; y++)
		for (int x = 0; x < 30; x++)
			g.flag[y][x] = CR_F_SEEN;
	g.n_mon = 0;
	g.devil = -1;
	g.lv.has_down = g.lv.has_up = g.lv.has_lair = false;
	for (int s = 0; s < seats; s++) {
		g.h[s].x = (uint8_t)(5 + s);
		g.h[s].y = 5;
	}
	cr_fov_update(&g);
}

static int put_monster(const char *id, int x, int y, bool awake)
{
	int k = cr_monster_find(cfg.ct, id);
	cr_monster *m = &g.mon[g.n_mon];
	*m = (cr_monster){.kind = (uint8_t)k, .x = (uint8_t)x, .y = (uint8_t)y, .alive = true,
			  .awake = awake};
	m->hp = m->max_hp = cfg.ct->monster[k].hp;
	return g.n_mon++;
}

/* One decision: seat s chooses c, every other pending seat waits. */
static int act(int s, game_choice c)
{
	char err[200];
	game_choice ch[GAME_MAX_SEATS];
	uint32_t p = cr_pending(&g);
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		ch[i] = i < g.seats && (p >> i & 1) ? (i == s ? c : CR_C_WAIT) : GAME_NO_CHOICE;
	if (g.n_vote)
		for (int i = 0; i < g.seats; i++)
			if (p >> i & 1 && i != s)
				ch[i] = CR_C_EVENT + 0;
	game_events_clear(&evs);
	int rc = cr_apply(&g, ch, &evs, err, sizeof err);
	if (rc)
		test_fail(__FILE__, __LINE__, "apply: %s", err);
	return rc;
}

static int count_ev(int type)
{
	int n = 0;
	for (size_t i = 0; i < evs.len; i++)
		n += evs.v[i].type == type;
	return n;
}

static const game_event *find_ev(int type)
{
	for (size_t i = 0; i < evs.len; i++)
		if (evs.v[i].type == type)
			return &evs.v[i];
	return NULL;
}

static int item(const char *id) { return cr_item_find(cfg.ct, id); }

/* Makes the next ? roll `type` for certain. */
static void force_room(int type)
{
	for (int i = 0; i < CR_NODDS; i++)
		g.odds.cur[i] = 0;
	if (type < CR_NODDS)
		g.odds.cur[type] = CR_BP;
}

TEST(crawl_C31_a_scoundrel_starts_with)
{
	arena(2, 1);
	for (int s = 0; s < 2; s++) {
		const cr_hero *h = &g.h[s];
		CHECK(h->alive);
		CHECK_EQ(h->hp, 30);
		CHECK_EQ(h->max_hp, 30);
		CHECK_EQ(h->gold, 15);
		CHECK_EQ(h->level, 1);
		CHECK_EQ(cr_attack_bonus(&g, s), 0);
		CHECK_EQ(cr_defense(&g, s), 0);
		CHECK_EQ(cr_sight(&g, s), 7);
		CHECK_EQ(cr_inv_slots(&g, s), 8);
	}
	/* the real first level: everyone on its start, act 1, visit 0 */
	cr_game_init(&g, &cfg, 3, 5, NULL);
	CHECK_EQ(g.act, 1);
	CHECK_EQ(g.lv.visit, 0);
	for (int s = 0; s < 3; s++)
		CHECK(g.h[s].x == g.lv.start.x && g.h[s].y == g.lv.start.y);
	CHECK_EQ(cr_pending(&g), 7u);
}

TEST(crawl_C19_planisphere_heals_5_on_entering_a_question_mark)
{
	arena(1, 2);
	g.h[0].relics |= (uint16_t)(1u << cfg.ct->planisphere);
	g.h[0].hp = 10;
	g.flag[5][6] |= CR_F_QMARK;
	force_room(CR_ROOM_EVENT);
	cr_odds before = g.odds;
	act(0, CR_C_E);
	const game_event *hp = find_ev(CR_EV_HP), *q = find_ev(CR_EV_QMARK);
	REQUIRE(hp && q);
	CHECK(hp < q); /* healed first, then the tile resolved */
	CHECK_EQ(hp->a, 5);
	CHECK_EQ(g.h[0].hp, 15);
	/* the odds moved as for any Event, no differently */
	cr_odds plain = before;
	cr_odds_roll(&plain, CR_BP - 1);
	CHECK(memcmp(&plain, &g.odds, sizeof plain) == 0);
	/* without it, no heal */
	arena(1, 2);
	g.h[0].hp = 10;
	g.flag[5][6] |= CR_F_QMARK;
	force_room(CR_ROOM_EVENT);
	act(0, CR_C_E);
	CHECK_EQ(g.h[0].hp, 10);
}

TEST(crawl_C20_what_each_room_type_does)
{
	/* Normal Combat: 1-2 awake monsters of the act next to the scoundrel */
	arena(1, 3);
	g.flag[5][6] |= CR_F_QMARK;
	force_room(CR_ROOM_NORMAL);
	act(0, CR_C_E);
	CHECK(!(g.flag[5][6] & CR_F_QMARK));
	int n = count_ev(CR_EV_AMBUSH);
	CHECK(n >= 1 && n <= 2);
	for (int m = 0; m < g.n_mon; m++) {
		const cr_monster_kind *k = &cfg.ct->monster[g.mon[m].kind];
		CHECK(g.mon[m].awake && !k->elite && (k->acts >> 1 & 1));
		CHECK(abs(g.mon[m].x - 6) + abs(g.mon[m].y - 5) <= 2);
	}
	/* Elite: one elite */
	arena(1, 3);
	g.flag[5][6] |= CR_F_QMARK;
	force_room(CR_ROOM_ELITE);
	act(0, CR_C_E);
	CHECK_EQ(count_ev(CR_EV_AMBUSH), 1);
	CHECK(cfg.ct->monster[g.mon[0].kind].elite);
	/* Treasure: gold, and a relic or an item */
	arena(1, 3);
	g.flag[5][6] |= CR_F_QMARK;
	force_room(CR_ROOM_TREASURE);
	act(0, CR_C_E);
	const game_event *t = find_ev(CR_EV_TREASURE);
	REQUIRE(t);
	CHECK(t->a >= 15 && t->a <= 30);
	CHECK_EQ(g.h[0].gold, 15 + t->a);
	CHECK(count_ev(CR_EV_RELIC) + count_ev(CR_EV_ITEM) == 1);
	/* Shop: the scoundrel's own screen */
	arena(2, 3);
	g.flag[5][4] |= CR_F_QMARK;
	force_room(CR_ROOM_SHOP);
	act(0, CR_C_W);
	CHECK_EQ(g.h[0].screen, CR_SC_SHOP);
	CHECK_EQ(g.h[1].screen, CR_SC_NONE);
	/* Event: a screen (or the party's vote) */
	arena(1, 3);
	g.flag[5][6] |= CR_F_QMARK;
	force_room(CR_ROOM_EVENT);
	act(0, CR_C_E);
	CHECK_EQ(count_ev(CR_EV_EVENT), 1);
	CHECK(g.h[0].screen == CR_SC_EVENT);
}

TEST(crawl_C30_using_an_unknown_item_identifies_its_kind)
{
	arena(2, 4);
	int heal = item("potion_healing");
	g.h[0].inv[0] = (int8_t)heal;
	g.h[1].inv[3] = (int8_t)heal;
	g.h[0].hp = 10;
	CHECK(!(g.identified >> heal & 1));
	act(0, CR_C_USE + 0);
	CHECK(g.identified >> heal & 1);
	CHECK_EQ(g.h[0].hp, 25);
	CHECK_EQ(g.h[0].inv[0], -1);
	const game_event *u = find_ev(CR_EV_USE);
	REQUIRE(u);
	CHECK_EQ(u->b, 1); /* this use identified it */
	CHECK_EQ(count_ev(CR_EV_IDENTIFY), 1);
	/* the second use: already known */
	g.h[1].hp = 20;
	act(1, CR_C_USE + 3);
	CHECK_EQ(find_ev(CR_EV_USE)->b, 0);
	CHECK_EQ(count_ev(CR_EV_IDENTIFY), 0);
	/* known items (gear, food) are never "identified" */
	CHECK(!cfg.ct->item[item("dagger")].appearance[0]);
	CHECK(cfg.ct->item[item("scroll_teleport")].appearance[0]);
}

TEST(crawl_C32_who_is_asked)
{
	arena(3, 5);
	CHECK_EQ(cr_pending(&g), 7u);
	/* a scoundrel in a gateway is asked only while someone else is */
	g.h[0].gate = 2;
	CHECK_EQ(cr_pending(&g), 7u);
	g.h[1].travel = CR_TR_EXPLORE;
	CHECK_EQ(cr_pending(&g), 5u); /* the traveller is not asked */
	g.h[2].gate = 2;
	CHECK_EQ(cr_pending(&g), 0u); /* the round runs on its own */
	g.h[1].travel = CR_TR_NONE;
	g.h[1].gate = 3;
	CHECK_EQ(cr_pending(&g), 7u); /* split gateways, nobody else: they decide */
	/* a screen is always asked; a fallen scoundrel never */
	g.h[0].gate = g.h[1].gate = g.h[2].gate = 0;
	g.h[2].alive = false;
	g.h[1].screen = CR_SC_SHOP;
	g.h[1].travel = CR_TR_NONE;
	CHECK_EQ(cr_pending(&g), 3u);
	/* a vote asks every living scoundrel */
	g.vote[0] = 0;
	g.n_vote = 1;
	g.h[0].travel = CR_TR_TO;
	CHECK_EQ(cr_pending(&g), 3u);
}

TEST(crawl_C33_moving_doors_and_bumping)
{
	arena(2, 6);
	/* walls refuse, scoundrels share tiles */
	g.h[0].x = 1;
	CHECK(cr_choice_check(&g, 0, CR_C_W, (char[8]){0}, 8) != 0);
	g.h[0].x = 5;
	act(0, CR_C_E);
	CHECK(g.h[0].x == 6 && g.h[1].x == 6);
	/* a door opens when walked through */
	g.lv.tile[5][7] = CR_T_DOOR;
	act(0, CR_C_E);
	CHECK_EQ(g.lv.tile[5][7], CR_T_DOOR_OPEN);
	CHECK_EQ(g.h[0].x, 7);
	/* walking into a monster attacks it and does not move */
	int m = put_monster("kobold", 8, 5, false);
	act(0, CR_C_E);
	CHECK_EQ(g.h[0].x, 7);
	CHECK_EQ(count_ev(CR_EV_ATTACK), 1);
	CHECK(g.mon[m].hp < g.mon[m].max_hp);
}

TEST(crawl_C34_damage_is_the_range_plus_bonus_minus_defense_at_least_1)
{
	int lo = 100, hi = -1;
	for (uint64_t seed = 1; seed < 200; seed++) {
		arena(1, seed);
		g.h[0].atk = 3;
		g.h[0].weapon = (int8_t)item("short_sword"); /* +2 */
		int m = put_monster("skeleton", 6, 5, true);   /* defense 2 */
		g.mon[m].hp = g.mon[m].max_hp = 200;
		act(0, CR_C_E);
		const game_event *a = find_ev(CR_EV_ATTACK);
		REQUIRE(a);
		lo = a->b < lo ? a->b : lo;
		hi = a->b > hi ? a->b : hi;
	}
	CHECK_EQ(lo, 2 + 5 - 2);
	CHECK_EQ(hi, 4 + 5 - 2);
	/* a blow never does less than 1 */
	arena(1, 9);
	int m = put_monster("wraith", 6, 5, true);
	static cr_content armoured; /* the process's content is read-only: a copy */
	armoured = *cfg.ct;
	armoured.monster[g.mon[m].kind].def = 50;
	g.cfg.ct = &armoured;
	act(0, CR_C_E);
	CHECK_EQ(find_ev(CR_EV_ATTACK)->b, 1);
	/* a kill pays xp and gold to the killer; a Lucky Coin adds half */
	arena(1, 10);
	g.h[0].relics |= (uint16_t)(1u << cr_relic_find(cfg.ct, "lucky_coin"));
	m = put_monster("gnoll_chief", 6, 5, true);
	g.mon[m].hp = 1;
	act(0, CR_C_E);
	const game_event *k = find_ev(CR_EV_KILL);
	REQUIRE(k);
	CHECK(k->c >= 15 * 3 / 2 && k->c <= 30 * 3 / 2);
	CHECK_EQ(g.h[0].kills, 1);
	CHECK_EQ(g.h[0].elite_kills, 1);
	CHECK_EQ(g.h[0].gold, 15 + k->c);
}

TEST(crawl_C35_monsters_wake_chase_and_strike_the_weakest)
{
	arena(2, 11);
	int far = put_monster("orc", 27, 9, false); /* out of its sight of 6 */
	int near = put_monster("orc", 9, 5, false);
	act(0, CR_C_WAIT);
	CHECK(!g.mon[far].awake);
	CHECK(g.mon[near].awake);
	CHECK_EQ(g.mon[near].x, 8); /* one step toward the nearest */
	/* next to two scoundrels: it strikes the one with fewer HP */
	g.h[0].x = 7;
	g.h[1].x = 7;
	g.h[1].y = 4;
	g.mon[near].x = 7;
	g.mon[near].y = 6; /* touches seat 0 only */
	g.h[0].hp = 9;
	act(0, CR_C_WAIT);
	CHECK_EQ(find_ev(CR_EV_HIT)->seat, 0);
	g.mon[near].x = 8;
	g.mon[near].y = 5;
	g.h[0].x = 8;
	g.h[0].y = 4;
	g.h[1].x = 8;
	g.h[1].y = 6;
	g.h[0].hp = 25;
	g.h[1].hp = 12;
	act(0, CR_C_WAIT);
	CHECK_EQ(find_ev(CR_EV_HIT)->seat, 1);
	/* a scoundrel inside a room (its own shop, buying) is left alone */
	g.h[1].screen = CR_SC_SHOP;
	g.h[1].shop[0] = (int8_t)item("ration");
	g.h[1].shop[1] = g.h[1].shop[2] = -1;
	g.h[1].shop_relic = -1;
	g.h[1].gold = 100;
	int hp1 = g.h[1].hp;
	game_choice ch[GAME_MAX_SEATS] = {CR_C_WAIT, CR_C_BUY + 0};
	char err[200];
	game_events_clear(&evs);
	REQUIRE(cr_apply(&g, ch, &evs, err, sizeof err) == 0);
	CHECK_EQ(g.h[1].hp, hp1);
	CHECK_EQ(g.h[1].screen, CR_SC_SHOP);
	CHECK_EQ(find_ev(CR_EV_HIT)->seat, 0); /* seat 0 took the blow instead */
	/* speed 2 acts twice */
	arena(1, 12);
	int bat = put_monster("bat", 10, 5, true);
	act(0, CR_C_WAIT);
	CHECK_EQ(g.mon[bat].x, 8);
}

TEST(crawl_C36_travel_runs_on_its_own_and_stops_on_a_monster)
{
	arena(2, 13);
	game_choice c = CR_C_TRAVEL + 5 * 256 + 20;
	CHECK(cr_choice_check(&g, 0, c, (char[8]){0}, 8) == 0);
	act(0, c);
	CHECK_EQ(g.h[0].x, 6); /* the first step at once */
	CHECK_EQ(cr_pending(&g), 2u); /* the traveller is not asked */
	int before = g.decision;
	for (int i = 0; i < 20 && g.h[0].travel; i++)
		act(1, CR_C_WAIT);
	CHECK_EQ(g.h[0].x, 20);
	CHECK_EQ(g.decision, before + 14); /* one step a decision of seat 1 */
	/* alone, a traveller's rounds run inside one decision */
	arena(1, 13);
	act(0, CR_C_TRAVEL + 5 * 256 + 20);
	CHECK_EQ(g.h[0].x, 20);
	CHECK_EQ(g.decision, 2);
	CHECK_EQ(find_ev(CR_EV_TRAVEL + 0)->a, 1);
	/* a monster coming into view stops it, and explore/travel are refused
	 * while one is in view */
	arena(1, 14);
	g.lv.tile[5][14] = CR_T_DOOR; /* a closed door hides what is behind */
	for (int y = 1; y < 11; y++)
		if (y != 5)
			g.lv.tile[y][14] = CR_T_WALL;
	put_monster("rat", 18, 5, false);
	cr_fov_update(&g);
	CHECK(!cr_monster_in_view(&g));
	act(0, CR_C_TRAVEL + 5 * 256 + 25);
	CHECK(g.h[0].x == 14 || g.h[0].x == 15);
	CHECK_EQ(g.h[0].travel, CR_TR_NONE);
	CHECK(cr_monster_in_view(&g));
	CHECK(cr_choice_check(&g, 0, CR_C_TRAVEL + 5 * 256 + 25, (char[8]){0}, 8) != 0);
	CHECK(cr_choice_check(&g, 0, CR_C_EXPLORE, (char[8]){0}, 8) != 0);
}

TEST(crawl_C36_explore_goes_on_until_something_new)
{
	cr_config c;
	char err[200];
	REQUIRE(cr_config_parse(&c, NULL, err, sizeof err) == 0);
	/* from the real start: explore until it stops; each stop has a reason */
	cr_game_init(&g, &c, 1, 21, NULL);
	int stops = 0;
	for (int i = 0; i < 40 && !g.over; i++) {
		game_choice ch = cr_choice_check(&g, 0, CR_C_EXPLORE, err, sizeof err) == 0
					 ? CR_C_EXPLORE
					 : cr_ai_choose(&g, 0);
		game_choice set[GAME_MAX_SEATS] = {ch};
		game_events_clear(&evs);
		REQUIRE(cr_apply(&g, set, &evs, err, sizeof err) == 0);
		for (size_t k = 0; k < evs.len; k++)
			if (evs.v[k].type == CR_EV_TRAVEL && evs.v[k].a == 0)
				stops++;
	}
	CHECK(stops > 5);
	CHECK(g.rounds > 40); /* more rounds than decisions */
}

TEST(crawl_C37_portals_take_the_party_when_all_are_in)
{
	char err[200];
	REQUIRE(cr_config_parse(&cfg, NULL, err, sizeof err) == 0);
	cr_game_init(&g, &cfg, 2, 31, NULL);
	/* both walk onto the portal down (teleported there for the test) */
	for (int s = 0; s < 2; s++) {
		g.h[s].x = g.lv.down.x;
		g.h[s].y = g.lv.down.y;
	}
	game_choice ch[GAME_MAX_SEATS] = {CR_C_PORTAL, CR_C_WAIT};
	REQUIRE(cr_apply(&g, ch, NULL, err, sizeof err) == 0);
	CHECK_EQ(g.h[0].gate, 2);
	CHECK_EQ(g.act, 1); /* seat 1 is not in: nobody goes */
	CHECK_EQ(cr_pending(&g), 3u);
	ch[0] = CR_C_WAIT;
	ch[1] = CR_C_PORTAL;
	REQUIRE(cr_apply(&g, ch, NULL, err, sizeof err) == 0);
	CHECK_EQ(g.act, 2);
	CHECK_EQ(g.lv.visit, 0);
	CHECK_EQ(g.max_act, 2);
	CHECK(g.h[0].gate == 0 && g.h[1].gate == 0);
	CHECK(g.h[0].x == g.lv.start.x && g.h[1].y == g.lv.start.y);
	/* back up: act 1 again, as a new level (its second visit) */
	static cr_level first;
	cr_level_generate(&first, 31, 1, 3, 0, cfg.width, cfg.height);
	for (int s = 0; s < 2; s++) {
		g.h[s].x = g.lv.up.x;
		g.h[s].y = g.lv.up.y;
	}
	ch[0] = ch[1] = CR_C_PORTAL;
	REQUIRE(cr_apply(&g, ch, NULL, err, sizeof err) == 0);
	CHECK_EQ(g.act, 1);
	CHECK_EQ(g.lv.visit, 1);
	CHECK(memcmp(first.tile, g.lv.tile, sizeof first.tile) != 0);
	/* the quick jump to act 2: 25 gold each, given back on stepping out */
	g.h[0].gold = 30;
	g.h[1].gold = 10;
	CHECK_EQ(cr_jump_fee(&g, 2), 25);
	CHECK(cr_choice_check(&g, 1, CR_C_JUMP + 2, err, sizeof err) != 0); /* too poor */
	CHECK(cr_choice_check(&g, 0, CR_C_JUMP + 3, err, sizeof err) != 0); /* not reached */
	ch[0] = CR_C_JUMP + 2;
	ch[1] = CR_C_WAIT;
	REQUIRE(cr_apply(&g, ch, NULL, err, sizeof err) == 0);
	CHECK_EQ(g.h[0].gold, 5);
	CHECK_EQ(g.h[0].gate, 2);
	ch[0] = CR_C_OUT;
	REQUIRE(cr_apply(&g, ch, NULL, err, sizeof err) == 0);
	CHECK_EQ(g.h[0].gold, 30);
	CHECK_EQ(g.h[0].gate, 0);
	/* both jump: the party goes to act 2's second visit */
	g.h[1].gold = 40;
	ch[0] = ch[1] = CR_C_JUMP + 2;
	REQUIRE(cr_apply(&g, ch, NULL, err, sizeof err) == 0);
	CHECK_EQ(g.act, 2);
	CHECK_EQ(g.lv.visit, 1);
	CHECK(g.h[0].gold == 5 && g.h[1].gold == 15);
}

TEST(crawl_C38_sight_radius_and_walls)
{
	arena(1, 40);
	/* a wall column with no gap hides everything east of it */
	for (int y = 1; y < 11; y++)
		g.lv.tile[y][8] = CR_T_WALL;
	for (int y = 0; y < 12; y++)
		for (int x = 0; x < 30; x++)
			g.flag[y][x] = 0;
	cr_fov_update(&g);
	CHECK(g.flag[5][7] & CR_F_VISIBLE);
	CHECK(g.flag[5][8] & CR_F_VISIBLE); /* the wall itself is seen */
	CHECK(!(g.flag[5][9] & CR_F_SEEN));
	/* a wide room: seen within radius 7, not at 10 */
	arena(1, 40);
	for (int y = 0; y < 12; y++)
		for (int x = 0; x < 30; x++)
			g.flag[y][x] = 0;
	cr_fov_update(&g);
	CHECK(g.flag[5][12] & CR_F_SEEN);
	CHECK(!(g.flag[5][15] & CR_F_SEEN));
	/* a Hooded Lantern adds 2 */
	g.h[0].relics |= (uint16_t)(1u << cr_relic_find(cfg.ct, "lantern"));
	cr_fov_update(&g);
	CHECK(g.flag[5][14] & CR_F_SEEN);
	/* what was seen stays seen, what is out of sight is no longer visible */
	g.h[0].x = 20;
	cr_fov_update(&g);
	CHECK((g.flag[5][5] & CR_F_SEEN) && !(g.flag[5][5] & CR_F_VISIBLE));
}

TEST(crawl_C39_falling_and_standing_again_on_the_next_level)
{
	char err[200];
	REQUIRE(cr_config_parse(&cfg, NULL, err, sizeof err) == 0);
	cr_game_init(&g, &cfg, 2, 41, NULL);
	/* seat 1 falls to a monster */
	g.n_mon = 0;
	int hx = g.h[1].x, hy = g.h[1].y;
	int d = 0;
	while (!cr_passable(g.lv.tile[hy + cr_dy[d]][hx + cr_dx[d]]))
		d++;
	put_monster("gnoll_chief", hx + cr_dx[d], hy + cr_dy[d], true);
	g.h[1].hp = 1;
	g.h[0].x = g.lv.down.x;
	g.h[0].y = g.lv.down.y;
	game_choice ch[GAME_MAX_SEATS] = {CR_C_WAIT, CR_C_WAIT};
	game_events_clear(&evs);
	REQUIRE(cr_apply(&g, ch, &evs, err, sizeof err) == 0);
	CHECK(!g.h[1].alive);
	CHECK_EQ(count_ev(CR_EV_FALL), 1);
	CHECK_EQ(cr_pending(&g), 1u);
	CHECK(!g.over);
	/* the one standing takes the portal: the party goes, seat 1 stands up */
	ch[0] = CR_C_PORTAL;
	ch[1] = GAME_NO_CHOICE;
	game_events_clear(&evs);
	REQUIRE(cr_apply(&g, ch, &evs, err, sizeof err) == 0);
	CHECK_EQ(g.act, 2);
	CHECK(g.h[1].alive);
	CHECK_EQ(g.h[1].hp, (g.h[1].max_hp + 1) / 2);
	CHECK_EQ(count_ev(CR_EV_REVIVE), 1);
	/* everyone down: the run is lost */
	arena(1, 42);
	put_monster("gnoll_chief", 6, 5, true);
	g.h[0].hp = 1;
	act(0, CR_C_WAIT);
	CHECK(g.over);
	CHECK(!g.won);
	CHECK_EQ(g.end_reason, CR_END_FALLEN);
}

TEST(crawl_C40_the_devil_keeps_to_its_lair_and_its_death_wins)
{
	arena(2, 50);
	g.lv.lair = (cr_pos){20, 5};
	g.lv.has_lair = true;
	g.devil = put_monster("devil", 20, 5, true);
	/* it chases, but never 3 steps from its lair */
	for (int i = 0; i < 10; i++)
		act(0, CR_C_WAIT);
	CHECK_EQ(abs(g.mon[g.devil].x - 20) + abs(g.mon[g.devil].y - 5), 3);
	/* slain: the run is won by the whole party */
	g.h[0].x = (uint8_t)(g.mon[g.devil].x - 1);
	g.h[0].y = g.mon[g.devil].y;
	g.mon[g.devil].hp = 1;
	act(0, CR_C_E);
	CHECK(g.over && g.won);
	CHECK_EQ(g.end_reason, CR_END_WON);
	CHECK_EQ(cr_pending(&g), 0u);
	/* the last act's level has the lair and no portal down */
	char err[200];
	REQUIRE(cr_config_parse(&cfg, NULL, err, sizeof err) == 0);
	cr_game_init(&g, &cfg, 1, 51, NULL);
	g.act = 3;
	CHECK(cfg.ct->devil >= 0 && cfg.ct->monster[cfg.ct->devil].boss);
}

TEST(crawl_C41_items_chests_and_a_full_pack)
{
	arena(1, 60);
	/* wielding swaps with what was worn */
	int dagger = item("dagger"), sword = item("short_sword");
	g.h[0].inv[2] = (int8_t)dagger;
	act(0, CR_C_USE + 2);
	CHECK_EQ(g.h[0].weapon, dagger);
	CHECK_EQ(g.h[0].inv[2], -1);
	g.h[0].inv[4] = (int8_t)sword;
	act(0, CR_C_USE + 4);
	CHECK_EQ(g.h[0].weapon, sword);
	CHECK_EQ(g.h[0].inv[4], dagger);
	CHECK_EQ(cr_attack_bonus(&g, 0), 2);
	/* dropping destroys */
	act(0, CR_C_DROP + 4);
	CHECK_EQ(g.h[0].inv[4], -1);
	/* a chest: (5-15) x act gold, sometimes an item */
	g.flag[5][6] |= CR_F_CHEST;
	act(0, CR_C_E);
	const game_event *c = find_ev(CR_EV_CHEST);
	REQUIRE(c);
	CHECK(c->a >= 5 && c->a <= 15);
	CHECK(!(g.flag[5][6] & CR_F_CHEST));
	/* no free slot: the item is left behind */
	for (int i = 0; i < CR_INV_MAX; i++)
		g.h[0].inv[i] = (int8_t)dagger;
	CHECK_EQ(cr_give_item(&g, 0, sword, NULL), -1);
	/* a Bandolier opens two more slots */
	g.h[0].relics |= (uint16_t)(1u << cr_relic_find(cfg.ct, "bandolier"));
	CHECK_EQ(cr_inv_slots(&g, 0), 10);
}

TEST(crawl_C42_a_shop_sells_until_left)
{
	arena(1, 70);
	g.flag[5][6] |= CR_F_QMARK;
	force_room(CR_ROOM_SHOP);
	act(0, CR_C_E);
	REQUIRE(g.h[0].screen == CR_SC_SHOP);
	g.h[0].gold = 1000;
	int k = g.h[0].shop[1];
	int price = cfg.ct->item[k].value;
	act(0, CR_C_BUY + 1);
	CHECK_EQ(g.h[0].gold, 1000 - price);
	CHECK_EQ(g.h[0].shop[1], -1);
	CHECK(cr_choice_check(&g, 0, CR_C_BUY + 1, (char[8]){0}, 8) != 0); /* sold */
	bool has = false;
	for (int i = 0; i < CR_INV_MAX; i++)
		has |= g.h[0].inv[i] == k;
	CHECK(has);
	/* the relic costs 70 + 20 x act */
	int r = g.h[0].shop_relic;
	REQUIRE(r >= 0);
	act(0, CR_C_BUY + 3);
	CHECK_EQ(g.h[0].gold, 1000 - price - 90);
	CHECK(g.h[0].relics >> r & 1);
	CHECK(!(g.relic_pool >> r & 1));
	/* too poor: refused; leave closes it */
	g.h[0].gold = 0;
	CHECK(cr_choice_check(&g, 0, CR_C_BUY + 0, (char[8]){0}, 8) != 0);
	CHECK_EQ(g.h[0].screen, CR_SC_SHOP);
	act(0, CR_C_LEAVE);
	CHECK_EQ(g.h[0].screen, CR_SC_NONE);
}

TEST(crawl_C43_levels_and_rest)
{
	CHECK_EQ(cr_xp_next(1), 10);
	CHECK_EQ(cr_xp_next(2), 25);
	CHECK_EQ(cr_xp_next(3), 45);
	CHECK_EQ(cr_xp_next(4), 70);
	CHECK_EQ(cr_xp_next(5), 100);
	arena(1, 80);
	cr_gain_xp(&g, 0, 36, NULL); /* 10 + 25, 1 over */
	CHECK_EQ(g.h[0].level, 3);
	CHECK_EQ(g.h[0].xp, 1);
	CHECK_EQ(g.h[0].max_hp, 38);
	CHECK_EQ(g.h[0].atk, 1); /* level 2 is even */
	/* 1 HP every 8 rounds */
	g.h[0].hp = 10;
	int r0 = g.rounds;
	while (g.rounds < r0 + 16 - (r0 % 8))
		act(0, CR_C_WAIT);
	CHECK_EQ(g.h[0].hp, 12);
}

TEST(crawl_C44_the_round_cap_ends_the_run)
{
	cr_config c;
	char err[200];
	cJSON *j = cJSON_Parse("{\"max_rounds\": 100}");
	REQUIRE(cr_config_parse(&c, j, err, sizeof err) == 0);
	cJSON_Delete(j);
	cr_game_init(&g, &c, 1, 90, NULL);
	g.n_mon = 0;
	game_choice ch[GAME_MAX_SEATS] = {CR_C_WAIT};
	int n = 0;
	while (!g.over && n < 200) {
		REQUIRE(cr_apply(&g, ch, NULL, err, sizeof err) == 0);
		n++;
	}
	CHECK(g.over && !g.won);
	CHECK_EQ(g.end_reason, CR_END_TIME);
	CHECK_EQ(g.rounds, 100);
	CHECK(cr_apply(&g, ch, NULL, err, sizeof err) != 0);
}

/* C18: with DeadlyEvents the Juzu Bracelet is not in the relic pool, so no
 * relic effect, treasure or shop ever hands it out. */
TEST(crawl_C18_deadly_events_takes_the_juzu_bracelet_out_of_the_pool)
{
	cr_config c;
	char err[200];
	cJSON *j = cJSON_Parse("{\"deadly_events\": true}");
	REQUIRE(cr_config_parse(&c, j, err, sizeof err) == 0);
	cJSON_Delete(j);
	cr_game_init(&g, &c, 1, 3, NULL);
	CHECK(!(g.relic_pool >> c.ct->juzu & 1));
	CHECK(g.relic_pool >> c.ct->compass & 1);
	int got = 0;
	for (int i = 0; i < c.ct->n_relics; i++) /* draw until the pool is empty */
		cr_give_relic(&g, 0, CR_PICK_ANY, &g.rules, NULL);
	got = __builtin_popcount(g.h[0].relics);
	CHECK_EQ(got, c.ct->n_relics - 1);
	CHECK(!(g.h[0].relics >> c.ct->juzu & 1));
	CHECK_EQ(g.odds.base[CR_ROOM_ELITE], 1000);
	/* without the modifier it is in the pool */
	cr_config plain;
	REQUIRE(cr_config_parse(&plain, NULL, err, sizeof err) == 0);
	cr_game_init(&g, &plain, 1, 3, NULL);
	CHECK(g.relic_pool >> plain.ct->juzu & 1);
}

/* C15: the party is on its first run when any of its seats is listed in
 * the config's first_run (the server lists the humans who are); seats past
 * the table's are ignored. */
TEST(crawl_C15_the_party_is_on_a_first_run_when_any_seat_is)
{
	cr_config c;
	char err[200];
	const struct {
		const char *json;
		int seats;
		bool first;
	} cases[] = {
		{"{\"first_run\": []}", 3, false},
		{"{\"first_run\": [2]}", 3, true},
		{"{\"first_run\": [0, 1]}", 2, true},
		{"{\"first_run\": [3]}", 2, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cJSON *j = cJSON_Parse(cases[i].json);
		REQUIRE(cr_config_parse(&c, j, err, sizeof err) == 0);
		cJSON_Delete(j);
		cr_game_init(&g, &c, cases[i].seats, 9, NULL);
		CHECK_MSG(g.first_run == cases[i].first, "%s", cases[i].json);
	}
}

/* C36: rest waits without being asked until the party on the map is
 * healed; a monster coming into view stops it; it is offered only while
 * someone is hurt and nothing is in view. */
TEST(crawl_C36_rest_until_the_party_is_healed)
{
	arena(2, 70);
	char err[8];
	CHECK(cr_choice_check(&g, 0, CR_C_REST, err, sizeof err) != 0); /* nobody hurt */
	g.h[1].hp = 26;
	CHECK(cr_choice_check(&g, 0, CR_C_REST, err, sizeof err) == 0); /* for the party */
	act(0, CR_C_REST);
	CHECK_EQ(g.h[0].travel, CR_TR_REST);
	CHECK_EQ(cr_pending(&g), 2u); /* the resting seat is not asked */
	CHECK_EQ(g.h[0].x, 5);
	cJSON *v = crawl_kind.view((const game_state *)&g, 0);
	cJSON *p0 = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "party"), 0);
	CHECK_STR(cJSON_GetObjectItem(p0, "state")->valuestring, "resting");
	CHECK_STR(cJSON_GetObjectItem(p0, "travel")->valuestring, "rest");
	cJSON_Delete(v);
	/* both resting: the rounds run inside one decision, to full HP */
	act(1, CR_C_REST);
	CHECK_EQ(g.h[1].hp, g.h[1].max_hp);
	CHECK(!g.h[0].travel && !g.h[1].travel);
	const game_event *stop = NULL;
	for (size_t i = 0; i < evs.len; i++)
		if (evs.v[i].type == CR_EV_TRAVEL && evs.v[i].a == 0)
			stop = &evs.v[i];
	REQUIRE(stop);
	CHECK_EQ(stop->b, CR_STOP_RESTED);
	CHECK(g.rounds >= 4 * 8);
	/* a monster behind a door comes through it: the rest stops, and is
	 * not offered with it in view */
	arena(1, 71);
	g.lv.tile[5][14] = CR_T_DOOR;
	for (int y = 1; y < 11; y++)
		if (y != 5)
			g.lv.tile[y][14] = CR_T_WALL;
	put_monster("rat", 18, 5, true);
	cr_fov_update(&g);
	g.h[0].hp = 10;
	act(0, CR_C_REST);
	CHECK(g.h[0].travel == CR_TR_NONE && g.h[0].hp < 30);
	CHECK(cr_monster_in_view(&g));
	CHECK(cr_choice_check(&g, 0, CR_C_REST, err, sizeof err) != 0);
	CHECK(find_ev(CR_EV_TRAVEL) != NULL);
}

/* ---- the AI (C48), on hand-made situations -------------------------------- */

/* Tiles from column x0 on are unseen: something to explore. */
static void unseen_from(int x0)
{
	for (int y = 0; y < 12; y++)
		for (int x = x0; x < 30; x++)
			g.flag[y][x] = 0;
}

static bool is_step(game_choice c) { return c >= CR_C_N && c <= CR_C_W; }

/* The tile a choice heads for: a step's, or a travel's target. */
static cr_pos heads_for(int seat, game_choice c)
{
	if (is_step(c))
		return (cr_pos){(uint8_t)(g.h[seat].x + cr_dx[c - CR_C_N]),
				(uint8_t)(g.h[seat].y + cr_dy[c - CR_C_N])};
	if (c >= CR_C_TRAVEL)
		return (cr_pos){(uint8_t)((c - CR_C_TRAVEL) & 0xff),
				(uint8_t)((c - CR_C_TRAVEL) >> 8)};
	return (cr_pos){g.h[seat].x, g.h[seat].y};
}

/* The party keeps together: a follower goes to the first scoundrel's tile,
 * which waits for it; together, everyone heads the same way. */
TEST(crawl_C48_the_party_keeps_together)
{
	arena(3, 80);
	unseen_from(25);
	g.h[2].x = 12;
	CHECK_EQ(cr_ai_choose(&g, 0), CR_C_WAIT); /* the leader waits */
	CHECK_EQ(cr_ai_choose(&g, 1), CR_C_W);    /* one step from it */
	game_choice c2 = cr_ai_choose(&g, 2);
	CHECK_EQ(c2, CR_C_TRAVEL + 5 * 256 + 5); /* far: travels to it */
	for (int s = 1; s < 3; s++)
		g.h[s].x = 5;
	game_choice c0 = cr_ai_choose(&g, 0);
	CHECK(c0 != CR_C_WAIT);
	CHECK(heads_for(0, c0).x > 5); /* east, to the unseen */
	CHECK_EQ(cr_ai_choose(&g, 1), c0);
	CHECK_EQ(cr_ai_choose(&g, 2), c0);
	/* a leader travelling: a follower close by takes the same travel */
	g.h[0].travel = CR_TR_TO;
	g.h[0].tx = 20;
	g.h[0].ty = 5;
	g.h[0].x = 6;
	CHECK_EQ(cr_ai_choose(&g, 1), CR_C_TRAVEL + 5 * 256 + 20);
}

/* The party rests when someone is below half HP with nothing to heal; the
 * ? tiles wait until it is at 75%, the rest is explored first. */
TEST(crawl_C48_rests_and_leaves_the_question_marks_for_last)
{
	arena(2, 81);
	unseen_from(25);
	g.h[1].x = 5;
	g.h[1].hp = 12;
	CHECK_EQ(cr_ai_choose(&g, 0), CR_C_REST);
	CHECK_EQ(cr_ai_choose(&g, 1), CR_C_REST);
	g.h[1].inv[0] = (int8_t)item("potion_healing"); /* it can heal itself */
	CHECK(cr_ai_choose(&g, 0) != CR_C_REST);
	/* a ? nearer than the unexplored: the unexplored first */
	arena(1, 82);
	unseen_from(25);
	g.flag[5][8] |= CR_F_QMARK;
	game_choice c = cr_ai_choose(&g, 0);
	cr_pos to = heads_for(0, c);
	CHECK(to.x > 8 && !(to.x == 8 && to.y == 5));
	CHECK(c >= CR_C_TRAVEL || (c != CR_C_E && is_step(c))); /* around it */
	/* only the ? left: rested first, then in */
	arena(1, 83);
	g.flag[5][8] |= CR_F_QMARK;
	g.h[0].hp = 20;
	CHECK_EQ(cr_ai_choose(&g, 0), CR_C_REST);
	g.h[0].hp = 30;
	CHECK_EQ(cr_ai_choose(&g, 0), CR_C_TRAVEL + 5 * 256 + 8);
}

/* The last act: a place with its sleeping devil, a portal up, part unseen. */
static void last_act(int seats, uint64_t seed)
{
	arena(seats, seed);
	g.act = g.max_act = 3;
	g.lv.has_up = g.lv.has_lair = true;
	g.lv.up = (cr_pos){2, 2};
	g.flag[2][2] |= CR_F_UP;
	g.lv.lair = (cr_pos){24, 5};
	g.flag[5][24] |= CR_F_LAIR;
	g.devil = put_monster("devil", 24, 5, false);
	cr_fov_update(&g);
}

/* Somebody fallen in the last act, the level explored: back up to stand
 * them again — by the portal up when seen, else the quick jump when all
 * can pay it. */
TEST(crawl_C48_goes_back_up_for_the_fallen)
{
	last_act(2, 84);
	g.h[1].alive = false;
	g.h[1].hp = 0;
	CHECK_EQ(cr_ai_choose(&g, 0), CR_C_TRAVEL + 2 * 256 + 2);
	g.h[0].x = 2;
	g.h[0].y = 2;
	CHECK_EQ(cr_ai_choose(&g, 0), CR_C_PORTAL);
	/* the portal up not seen: the quick jump to act 2, if it can be paid */
	last_act(2, 85);
	g.h[1].alive = false;
	g.flag[2][2] &= (uint8_t)~CR_F_SEEN;
	g.h[0].gold = 30;
	CHECK_EQ(cr_ai_choose(&g, 0), CR_C_JUMP + 2);
	g.h[0].gold = 10;
	CHECK(cr_ai_choose(&g, 0) != CR_C_JUMP + 2);
	/* nobody fallen, the devil within reach of a fresh party: no trip */
	last_act(1, 86);
	g.h[0].atk = 20;
	CHECK(cr_ai_choose(&g, 0) != CR_C_TRAVEL + 2 * 256 + 2);
}

/* A human jumps to the act above; the AI seat that cannot pay the fee
 * follows by the portal up, which leads to the same act (a gateway is a
 * gateway, C37), and the party goes together. One that can pay jumps too. */
TEST(crawl_C48_follows_a_jump_by_the_portal_when_it_cannot_pay)
{
	last_act(2, 89);
	g.h[0].gold = 10; /* the AI seat, strong enough for the devil: */
	g.h[0].atk = 20;  /* it has no reason of its own to go up */
	g.h[1].gold = 40; /* a human */
	act(1, CR_C_JUMP + 2);
	REQUIRE(g.h[1].gate == 2 && g.h[1].gate_fee == 25);
	int n = 0;
	while (g.act == 3 && n++ < 100) {
		game_choice c = cr_ai_choose(&g, 0);
		CHECK(c != CR_C_JUMP + 2 && c != CR_C_WAIT);
		if (cr_pending(&g) & 1)
			act(0, c);
	}
	CHECK_EQ(g.act, 2); /* the party went up, together */
	CHECK_EQ(g.h[0].gold, 10);
	CHECK_EQ(g.h[1].gold, 15);
	CHECK(g.h[0].alive && !g.h[0].gate && !g.h[1].gate);
	/* with the fee in hand it jumps after the human */
	last_act(2, 90);
	g.h[0].gold = g.h[1].gold = 40;
	act(1, CR_C_JUMP + 2);
	CHECK_EQ(cr_ai_choose(&g, 0), CR_C_JUMP + 2);
}

/* Exploring keeps away from the sleeping devil (nearer unexplored tiles by
 * its lair are left); once awake, a scoundrel low on HP steps out of its
 * reach. */
TEST(crawl_C48_keeps_away_from_the_sleeping_devil)
{
	last_act(1, 87);
	unseen_from(27); /* by the lair */
	for (int y = 0; y < 12; y++)
		g.flag[y][0] = 0; /* and far west */
	g.h[0].x = 16;
	cr_fov_update(&g);
	REQUIRE(!cr_monster_in_view(&g));
	cr_pos near;
	REQUIRE(cr_explore_target(&g, 0, &near));
	CHECK(near.x > 16); /* what explore would take */
	game_choice c = cr_ai_choose(&g, 0);
	CHECK(heads_for(0, c).x < 16); /* west, though east is nearer */
	/* awake, next to a scoundrel low on HP: it steps away from the lair */
	last_act(1, 88);
	g.mon[g.devil].awake = true;
	g.mon[g.devil].x = 22;
	g.h[0].x = 21;
	g.h[0].hp = 8;
	c = cr_ai_choose(&g, 0);
	REQUIRE(is_step(c));
	cr_pos to = heads_for(0, c);
	CHECK(abs(to.x - 24) + abs(to.y - 5) > 3);
	g.h[0].hp = 30; /* healthy: it fights */
	CHECK_EQ(cr_ai_choose(&g, 0), CR_C_E);
}
