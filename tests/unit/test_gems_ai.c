/*
 * test_gems_ai.c — the computer player as the design's A.I. section says
 * (docs/rules/gems.md, G29–G32): personality ranges, each stay/leave check in its
 * order, the last-dungeon changes, RumorLeave, the uniform stay pick, Monte
 * attention, and the AI drawing only from its own stream.
 */
#include <string.h>

#include "../../server/games/gems/gems_int.h"
#include "../test.h"

#define GEM(l) ((gems_room){.kind = GEMS_ROOM_GEM, .arg = (l)})
#define WARN(t) ((gems_room){.kind = GEMS_ROOM_WARNING, .arg = (t)})
#define ADV(a) ((gems_room){.kind = GEMS_ROOM_ADV, .arg = (a)})

/* A persona that never leaves on its own: every check is off. */
static const gems_persona calm = {
	.post_warning_delay = 3, .good_take = 1000, .leave_extra = 0,
	.ev_cutoff = -1000, .attention = 0.5,
};

#define REQUIRE_OK(x)                                                                     \
	do {                                                                              \
		if ((x) != GAME_OK) {                                                     \
			test_fail(__FILE__, __LINE__, "%s", #x);                          \
			return;                                                           \
		}                                                                         \
	} while (0)

static void start(gems_game *g, int seats, int adv, const gems_room *rooms, int n, uint64_t s)
{
	gems_opts o = {.fixed_adventures = true, .adv = {(uint8_t)adv, 0, 0, 0, 0}};
	for (int d = 1, a = 0; d < GEMS_DUNGEONS; a++)
		if (a != adv)
			o.adv[d++] = (uint8_t)a;
	REQUIRE_OK(gems_init_fixed(g, seats, s, NULL, &o, rooms, n, NULL));
	for (int i = 0; i < seats; i++)
		g->seat[i].ai = calm;
}


TEST(gems_G29_personality_ranges)
{
	int delays[4] = {0}, take_lo = 0, take_hi = 0;
	for (uint64_t s = 0; s < 2000; s++) {
		gems_game g;
		int seats = 1 + (int)(s % 9);
		REQUIRE(gems_init(&g, seats, s, NULL, NULL, NULL) == GAME_OK);
		for (int i = 0; i < seats; i++) {
			const gems_persona *p = &g.seat[i].ai;
			REQUIRE(p->post_warning_delay >= 0 && p->post_warning_delay <= 3);
			delays[p->post_warning_delay]++;
			CHECK(p->leave_extra >= 0 && p->leave_extra <= 0.16);
			CHECK(p->ev_cutoff >= -1.5 && p->ev_cutoff <= -0.1);
			CHECK(p->attention >= 0.45 && p->attention <= 0.95);
			CHECK(p->good_take >= seats && p->good_take <= 4 * seats + 1);
			take_lo += p->good_take == seats;
			take_hi += p->good_take == 4 * seats + 1;
		}
	}
	for (int d = 0; d < 4; d++)
		CHECK(delays[d] > 500);
	CHECK(take_lo > 0 && take_hi > 0);
}

TEST(gems_G30_only_one_option_is_taken)
{
	gems_room r[4] = {ADV(GEMS_ADV_FERRY), GEM(0), GEM(1), GEM(2)};
	gems_game g;
	start(&g, 1, GEMS_ADV_FERRY, r, 4, 1);
	g.seat[0].owed = 2; /* obliged: only "pay" */
	g.seat[0].ai.ev_cutoff = 1000; /* would leave at once if it could */
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_PAY);
}

TEST(gems_G30_hard_ev_cutoff_leaves)
{
	gems_room r[5] = {WARN(0), GEM(0), WARN(0), GEM(1), GEM(2)};
	gems_game g;
	start(&g, 2, GEMS_ADV_SCOUT, r, 5, 2);
	CHECK(g.odds > 0.24 && g.odds < 0.26);
	g.seat[0].hand = 100;
	g.seat[0].ai.ev_cutoff = -1.5;
	g.seat[1].ai.ev_cutoff = -1.5;
	CHECK(gems_ev(&g, 0) <= -1.5);
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_LEAVE);
	CHECK(gems_ev(&g, 1) > -1.5); /* empty hand */
	CHECK_EQ(gems_ai_choose(&g, 1), GEMS_C_STAY);
}

TEST(gems_G30_good_take_leaves)
{
	gems_room r[4] = {GEM(0), GEM(1), GEM(2), GEM(3)};
	gems_game g;
	start(&g, 1, GEMS_ADV_SCOUT, r, 4, 3);
	g.floor_gems = 10;
	gems_odds_update(&g);
	CHECK(gems_take(&g, 0) > 9.99 && gems_take(&g, 0) < 10.01);
	g.seat[0].ai.good_take = 10;
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_LEAVE);
	g.seat[0].ai.good_take = 11;
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_STAY);
}

TEST(gems_G31_last_dungeon_good_take_times_four_and_score_check)
{
	gems_room r[4] = {GEM(0), GEM(1), GEM(2), GEM(3)};
	gems_game g;
	start(&g, 2, GEMS_ADV_SCOUT, r, 4, 4);
	g.floor_gems = 10;
	gems_odds_update(&g); /* take = 10 / √2 ≈ 7.07 */
	g.seat[0].ai.good_take = 3;
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_LEAVE); /* not the last dungeon: 7.07 ≥ 3 */
	g.dungeon = GEMS_DUNGEONS - 1;
	/* 4 × 3 = 12 > 7.07; but I'd beat the best other chest: leave */
	g.seat[0].hand = 0;
	g.seat[0].chest = 50;
	g.seat[1].chest = 40;
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_LEAVE);
	/* behind: (0 + 30 + 7.07) > 40 + 2 − 1 is false: stay */
	g.seat[0].chest = 30;
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_STAY);
	/* the hand counts: 5 + 30 + 7.07 > 41 */
	g.seat[0].hand = 5;
	gems_odds_update(&g);
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_LEAVE);
}

TEST(gems_G30_rumor_leave_point)
{
	gems_room r[4] = {GEM(0), GEM(1), GEM(2), GEM(3)};
	gems_game g;
	start(&g, 1, GEMS_ADV_SCOUT, r, 4, 5);
	CHECK_EQ(g.rumor_leave2, GEMS_NO_RUMOR_LEAVE); /* none before a scout */
	g.rumor_leave2 = 2 * g.depth + 1;          /* depth 1 < 1.5 */
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_STAY);
	g.rumor_leave2 = 2 * g.depth; /* at it */
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_LEAVE);
}

TEST(gems_G30_rumor_leave_never_lower_than_before)
{
	gems_room r[9] = {ADV(GEMS_ADV_SCOUT), GEM(0), ADV(GEMS_ADV_SCOUT), GEM(1),
			  ADV(GEMS_ADV_SCOUT), WARN(0), GEM(2), WARN(0), GEM(3)};
	for (uint64_t s = 0; s < 40; s++) {
		gems_game g;
		start(&g, 1, GEMS_ADV_SCOUT, r, 9, s);
		int prev = g.rumor_leave2;
		CHECK_EQ(prev, 2 * g.scout_r - g.scout_x);
		for (int k = 0; k < 4 && !gems_over(&g); k++) {
			game_choice ch[GAME_MAX_SEATS] = {GEMS_C_STAY, -1, -1, -1, -1,
							  -1, -1, -1, -1};
			char err[64];
			REQUIRE(gems_apply(&g, ch, NULL, err, sizeof err) == GAME_OK);
			if (g.dungeon == 0) {
				CHECK(g.rumor_leave2 >= prev);
				prev = g.rumor_leave2;
			}
		}
	}
}

TEST(gems_G30_odds_to_leave_after_the_warning_delay)
{
	gems_room r[6] = {WARN(0), GEM(0), WARN(0), GEM(1), GEM(2), GEM(3)};
	gems_game g;
	start(&g, 1, GEMS_ADV_SCOUT, r, 6, 6);
	g.seat[0].ai.leave_extra = 1.0; /* odds to leave ≥ 1: always, when the check runs */
	g.seat[0].ai.post_warning_delay = 0;
	g.seat[0].hand = 1;
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_LEAVE);
	g.seat[0].hand = 0; /* needs at least one gem */
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_STAY);
	g.seat[0].hand = 1;
	g.seat[0].ai.post_warning_delay = 1; /* standing on the first warning: distance 0 */
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_STAY);
	/* before any warning the check is skipped */
	gems_room q[3] = {GEM(0), GEM(1), GEM(2)};
	start(&g, 1, GEMS_ADV_SCOUT, q, 3, 6);
	g.seat[0].ai.leave_extra = 1.0;
	g.seat[0].ai.post_warning_delay = 0;
	g.seat[0].hand = 5;
	CHECK_EQ(gems_ai_choose(&g, 0), GEMS_C_STAY);
}

TEST(gems_G31_last_dungeon_odds_shrink_by_98_percent)
{
	gems_room r[6] = {WARN(0), GEM(0), WARN(0), GEM(1), GEM(2), GEM(3)};
	int leaves = 0, n = 2000;
	for (int k = 0; k < n; k++) {
		gems_game g;
		start(&g, 1, GEMS_ADV_SCOUT, r, 6, (uint64_t)k);
		g.dungeon = GEMS_DUNGEONS - 1;
		g.seat[0].ai.leave_extra = 0.5; /* 0.5·0.2 + 0.5 = 0.6, × 0.02 = 0.012 */
		g.seat[0].ai.post_warning_delay = 0;
		g.seat[0].ai.good_take = 1000;
		g.seat[0].hand = 1;
		g.seat[0].chest = -100; /* keep the final-score check quiet */
		leaves += gems_ai_choose(&g, 0) == GEMS_C_LEAVE;
	}
	CHECK(leaves > 5 && leaves < 60); /* about 24 */
}

TEST(gems_G32_stay_pick_uniform_among_non_leave_options)
{
	gems_room r[3] = {ADV(GEMS_ADV_DEVIL), GEM(0), GEM(1)};
	int seen[GEMS_N_CHOICES] = {0};
	for (uint64_t s = 0; s < 800; s++) {
		gems_game g;
		start(&g, 1, GEMS_ADV_DEVIL, r, 3, s);
		seen[gems_ai_choose(&g, 0)]++;
	}
	CHECK_EQ(seen[GEMS_C_LEAVE], 0);
	CHECK(seen[GEMS_C_STAY] > 120 && seen[GEMS_C_DEVIL3] > 120 && seen[GEMS_C_DEVIL4] > 120 &&
	      seen[GEMS_C_DEVIL5] > 120);
}

TEST(gems_G32_monte_follows_the_valuable_card_with_attention)
{
	gems_room r[3] = {ADV(GEMS_ADV_MONTE), GEM(0), GEM(1)};
	int right = 0, cards[3] = {0};
	for (uint64_t s = 0; s < 600; s++) {
		gems_game g;
		start(&g, 1, GEMS_ADV_MONTE, r, 3, s);
		g.seat[0].ai.attention = 1.0;
		game_choice c = gems_ai_choose(&g, 0);
		right += g.monte_layout[c - GEMS_C_CARD1] == 2;
		g.seat[0].ai.attention = 0.0;
		c = gems_ai_choose(&g, 0);
		REQUIRE(c >= GEMS_C_CARD1 && c <= GEMS_C_CARD3);
		cards[c - GEMS_C_CARD1]++;
	}
	CHECK_EQ(right, 600);
	for (int p = 0; p < 3; p++)
		CHECK(cards[p] > 120);
}

TEST(gems_ai_draws_only_from_its_own_stream)
{
	for (uint64_t s = 0; s < 100; s++) {
		gems_game g;
		REQUIRE(gems_init(&g, 5, s, NULL, NULL, NULL) == GAME_OK);
		gems_game before = g;
		for (int i = 0; i < 5; i++)
			gems_ai_choose(&g, i);
		CHECK(memcmp(&before.rules, &g.rules, sizeof g.rules) == 0);
		/* nothing moved at all: each decision derives its own generator */
		CHECK(memcmp(&before, &g, sizeof g) == 0);
	}
}
