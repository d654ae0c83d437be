/*
 * test_gems_rules.c — the design's formulas and worked examples, each named
 * after the rule decision it pins (docs/rules/gems.md): the gem count (G12), shares with
 * mushrooms (G19), gold bars (G6), bravery (G13), the take (G28), the warning
 * table (G7), the move-up (G8), the lair and poisons (G9), adventure use
 * counts and the pick (G10), the adventure parts (G11).
 */
#include <math.h>
#include <string.h>

#include "../../server/games/gems/gems_int.h"
#include "../test.h"

/* The expected gem count computed independently: exact rational arithmetic
 * in hundred-thousandths, round half up (all values are positive). */
static int expected_gems(int b, int level)
{
	long n = (long)b * (29000 - 1200 * b) * (level + 1); /* ×100000 */
	long q = n / 100000, r = n % 100000;
	if (2 * r >= 100000)
		q++;
	long g = 1 + q;
	return g < 1 ? 1 : g > 25 ? 25 : (int)g;
}

TEST(gems_G12_gem_count_table_bravery_2_to_9_levels_0_to_14)
{
	for (int b = 2; b <= 9; b++)
		for (int level = 0; level <= 14; level++)
			CHECK_MSG(gems_room_gems(b, level) == expected_gems(b, level) &&
					  gems_room_gems_formula(b, level) == expected_gems(b, level),
				  "b=%d L=%d: table %d, formula %d, expected %d", b, level,
				  gems_room_gems(b, level), gems_room_gems_formula(b, level),
				  expected_gems(b, level));
}

TEST(gems_G12_known_values)
{
	/* a few by hand: b=2, L=0: 1 + round(0.532) = 2; b=9, L=14: clamp 25 */
	CHECK_EQ(gems_room_gems(2, 0), 2);
	CHECK_EQ(gems_room_gems(9, 14), 25);
	CHECK_EQ(gems_room_gems(4, 4), 1 + 5); /* 4·0.242·5 = 4.84 → 5 */
	CHECK_EQ(gems_room_gems(3, 0), 2);     /* 3·0.254 = 0.762 → 1 */
}

TEST(gems_G12_exact_half_b5_L9_is_13)
{
	CHECK_EQ(gems_room_gems(5, 9), 13);
	/* neighbours of the half round as expected: 5·0.23·9 = 10.35, ·11 = 12.65 */
	CHECK_EQ(gems_room_gems(5, 8), 1 + 10);
	CHECK_EQ(gems_room_gems(5, 10), 1 + 13);
}

TEST(gems_G12_bravery_below_two_counts_as_two)
{
	for (int level = 0; level <= 14; level++) {
		CHECK_EQ(gems_room_gems(1, level), expected_gems(2, level));
		CHECK_EQ(gems_room_gems(0, level), expected_gems(2, level));
	}
}

TEST(gems_G12_clamped_to_25)
{
	for (int b = 2; b <= 20; b++)
		for (int level = 0; level <= 14; level++) {
			int g = gems_room_gems(b, level);
			CHECK(g >= 1 && g <= 25);
		}
}

TEST(gems_G19_mushroom_example_1_sixteen_gems)
{
	int w[8] = {8, 8, 4, 4, 2, 2, 2, 2}, sh[8];
	CHECK_EQ(gems_split(16, w, 8, sh), 0);
	int want[8] = {4, 4, 2, 2, 1, 1, 1, 1};
	for (int i = 0; i < 8; i++)
		CHECK_EQ(sh[i], want[i]);
}

TEST(gems_G19_mushroom_example_2_ten_gems_one_on_floor)
{
	int w[3] = {4, 2, 2}, sh[3];
	CHECK_EQ(gems_split(10, w, 3, sh), 1);
	CHECK_EQ(sh[0], 5);
	CHECK_EQ(sh[1], 2);
	CHECK_EQ(sh[2], 2);
}

TEST(gems_G19_mushroom_example_3_twenty_five_gems)
{
	int w[6] = {16, 16, 4, 2, 2, 1}, sh[6];
	int rest = gems_split(25, w, 6, sh);
	int want[6] = {9, 9, 2, 1, 1, 0};
	for (int i = 0; i < 6; i++)
		CHECK_EQ(sh[i], want[i]);
	CHECK_EQ(rest, 25 - 22);
}

TEST(gems_seed_equal_shares_ten_gems_five_and_six_players)
{
	int w[6] = {4, 4, 4, 4, 4, 4}, sh[6];
	CHECK_EQ(gems_split(10, w, 5, sh), 0);
	CHECK_EQ(sh[0], 2);
	CHECK_EQ(gems_split(10, w, 6, sh), 4);
	CHECK_EQ(sh[5], 1);
}

TEST(gems_G6_gold_bar_examples)
{
	CHECK_EQ(gems_bar_value(3, 7), 18); /* large bar, 7 players: 3 × 6 */
	CHECK_EQ(gems_bar_value(2, 4), 8);  /* medium bar, 4 players */
	CHECK_EQ(gems_bar_size(0), 1);
	CHECK_EQ(gems_bar_size(2), 1);
	CHECK_EQ(gems_bar_size(3), 2);
	CHECK_EQ(gems_bar_size(5), 2);
	CHECK_EQ(gems_bar_size(6), 3);
	CHECK_EQ(gems_bar_size(40), 3);
	CHECK_EQ(gems_bar_value(1, 1), 1);
	CHECK_EQ(gems_bar_value(1, 9), 6);
}

TEST(gems_G13_bravery_after_0_to_9_leavers_at_1_to_9_seats)
{
	for (int seats = 1; seats <= 9; seats++)
		for (int leavers = 0; leavers <= 9; leavers++) {
			int want = leavers == 1 || (leavers == 2 && seats >= 7) ? 1 : 0;
			CHECK_MSG(gems_bravery_drop(seats, leavers) == want, "seats %d leavers %d",
				  seats, leavers);
		}
	/* the design's "unchanged" list */
	CHECK_EQ(gems_bravery_drop(5, 0), 0);
	CHECK_EQ(gems_bravery_drop(9, 3), 0);
	CHECK_EQ(gems_bravery_drop(6, 2), 0);
	CHECK_EQ(gems_bravery_drop(7, 2), 1);
}

TEST(gems_G28_take_example_four_inside_bar_10_and_2_gems)
{
	gems_game g;
	REQUIRE(gems_init(&g, 4, 1, NULL, NULL, NULL) == GAME_OK);
	g.floor_gems = 2;
	g.n_floor_bars = 1;
	g.floor_bars[0] = 10;
	for (int i = 0; i < 4; i++)
		g.seat[i].coin_mask = 0;
	g.inside = 4;
	gems_odds_update(&g);
	CHECK(fabs(gems_take(&g, 0) - 6.0) < 1e-9);
}

TEST(gems_G27_expected_value_formula)
{
	CHECK(fabs(gems_ev_formula(0.25, 8.0, 2, 4) - (0.75 * 8.0 / 2 - 0.25 * 4)) < 1e-12);
	CHECK(fabs(gems_ev_formula(0.0, 6.0, 3, 100) - 2.0) < 1e-12);
	CHECK(fabs(gems_ev_formula(1.0, 6.0, 3, 10) + 10.0) < 1e-12);
	/* a game's number is the formula on its current odds */
	for (uint64_t s = 0; s < 50; s++) {
		gems_game g;
		REQUIRE(gems_init(&g, 5, s, NULL, NULL, NULL) == GAME_OK);
		for (int i = 0; i < 5; i++)
			CHECK(fabs(gems_ev(&g, i) - gems_ev_formula(g.odds, g.rumor, g.inside,
								  g.seat[i].hand)) < 1e-9);
	}
}

TEST(gems_G7_warning_table)
{
	int want[5][5] = {{3, 3, 3, 3, 0}, {2, 3, 3, 3, 3}, {2, 2, 3, 3, 0},
			  {2, 2, 2, 3, 3}, {2, 2, 2, 2, 0}};
	int totals[5] = {12, 14, 10, 12, 8}, types[5] = {4, 5, 4, 5, 4};
	for (int d = 0; d < 5; d++) {
		int c[5], sum = 0;
		CHECK_EQ(gems_warning_counts(d, c), types[d]);
		for (int t = 0; t < 5; t++) {
			CHECK_EQ(c[t], want[d][t]);
			sum += c[t];
		}
		CHECK_EQ(sum, totals[d]);
	}
}

TEST(gems_building_room_set_sizes)
{
	gems_room r[GEMS_MAX_ROOMS];
	/* dungeon 1: 15 gems + 4 bars + 12 warnings + 3 adventure rooms */
	CHECK_EQ(gems_dungeon_set(0, 4, GEMS_ADV_MONTE, r), 15 + 4 + 12 + 3);
	/* mushroom and little people have 6 rooms */
	CHECK_EQ(gems_dungeon_set(1, 5, GEMS_ADV_MUSHROOM, r), 15 + 5 + 14 + 6);
	CHECK_EQ(gems_dungeon_set(4, 8, GEMS_ADV_PEOPLE, r), 15 + 8 + 8 + 6);
	int levels = 0;
	int n = gems_dungeon_set(2, 6, GEMS_ADV_BANKER, r);
	for (int i = 0; i < n; i++)
		if (r[i].kind == GEMS_ROOM_GEM)
			levels |= 1 << r[i].arg;
	CHECK_EQ(levels, 0x7fff);
}

#define GEM(l) ((gems_room){.kind = GEMS_ROOM_GEM, .arg = (l)})
#define WARN(t) ((gems_room){.kind = GEMS_ROOM_WARNING, .arg = (t)})
#define ADV(a) ((gems_room){.kind = GEMS_ROOM_ADV, .arg = (a)})

static bool same_rooms(const gems_room *a, const gems_room *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].kind != b[i].kind || a[i].arg != b[i].arg)
			return false;
	return true;
}

TEST(gems_G8_move_up_last_room_rises_three_places)
{
	gems_room r[5] = {GEM(0), GEM(1), GEM(2), GEM(3), ADV(GEMS_ADV_MONTE)};
	gems_room want[5] = {GEM(0), ADV(GEMS_ADV_MONTE), GEM(1), GEM(2), GEM(3)};
	gems_move_up(r, 5);
	CHECK(same_rooms(r, want, 5));
}

TEST(gems_G8_move_up_two_adventures_and_first_room)
{
	gems_room r[5] = {GEM(0), ADV(GEMS_ADV_DEVIL), GEM(1), ADV(GEMS_ADV_DEVIL), GEM(2)};
	gems_room want[5] = {ADV(GEMS_ADV_DEVIL), ADV(GEMS_ADV_DEVIL), GEM(0), GEM(1), GEM(2)};
	gems_move_up(r, 5);
	CHECK(same_rooms(r, want, 5));
}

TEST(gems_G8_banker_does_not_move_up)
{
	gems_room r[4] = {GEM(0), GEM(1), GEM(2), ADV(GEMS_ADV_BANKER)};
	gems_room want[4] = {GEM(0), GEM(1), GEM(2), ADV(GEMS_ADV_BANKER)};
	gems_move_up(r, 4);
	CHECK(same_rooms(r, want, 4));
}

/* G8 literally: three passes, room by room from the second. */
static void naive_move_up(gems_room *r, int n)
{
	for (int pass = 0; pass < 3; pass++)
		for (int i = 1; i < n; i++)
			if (r[i].kind == GEMS_ROOM_ADV && r[i].arg != GEMS_ADV_BANKER) {
				gems_room t = r[i - 1];
				r[i - 1] = r[i];
				r[i] = t;
			}
}

TEST(gems_G8_move_up_equals_the_literal_passes_on_random_lists)
{
	rng r;
	rng_seed(&r, 8, 8);
	for (int k = 0; k < 3000; k++) {
		gems_room a[GEMS_MAX_ROOMS], b[GEMS_MAX_ROOMS];
		int adv = (int)rng_below(&r, GEMS_N_ADV);
		int n = gems_dungeon_set(k % 5, 4 + k % 5, adv, a);
		rng_shuffle(&r, a, (uint32_t)n, sizeof *a);
		if (k % 3 == 0) { /* short lists crowded with adventures */
			n = 2 + (int)rng_below(&r, 9);
			for (int i = 0; i < n; i++)
				a[i] = rng_below(&r, 2) ? ADV(adv) : GEM(i);
		}
		memcpy(b, a, sizeof a);
		gems_move_up(a, n);
		naive_move_up(b, n);
		REQUIRE(same_rooms(a, b, n));
	}
}

TEST(gems_G9_second_warning_of_a_type_is_the_lair)
{
	gems_room r[6] = {WARN(0), GEM(0), WARN(1), WARN(2), WARN(1), WARN(0)};
	CHECK_EQ(gems_mark_spiders(r, 6), 4);
	CHECK_EQ(r[4].spider, GEMS_SPIDER_LAIR);
	CHECK_EQ(r[5].spider, GEMS_SPIDER_NONE); /* the scan stops at the lair */
	gems_room none[3] = {WARN(0), WARN(1), WARN(2)};
	CHECK_EQ(gems_mark_spiders(none, 3), -1);
}

TEST(gems_G9_poison_kills_the_next_spider)
{
	gems_room r[4] = {ADV(GEMS_ADV_POISON), WARN(0), WARN(0), WARN(0)};
	CHECK_EQ(gems_mark_spiders(r, 4), 3);
	CHECK_EQ(r[2].spider, GEMS_SPIDER_DEAD);
	CHECK_EQ(r[3].spider, GEMS_SPIDER_LAIR);
}

TEST(gems_G9_poison_after_the_lair_does_not_help)
{
	gems_room r[4] = {WARN(0), WARN(0), ADV(GEMS_ADV_POISON), WARN(0)};
	CHECK_EQ(gems_mark_spiders(r, 4), 1);
}

TEST(gems_G9_two_poisons_two_dead_spiders)
{
	gems_room r[7] = {ADV(GEMS_ADV_POISON), ADV(GEMS_ADV_POISON), WARN(0), WARN(0),
			  WARN(1), WARN(0), WARN(1)};
	CHECK_EQ(gems_mark_spiders(r, 7), 6);
	CHECK_EQ(r[3].spider, GEMS_SPIDER_DEAD);
	CHECK_EQ(r[5].spider, GEMS_SPIDER_DEAD);
}

TEST(gems_G10_adventure_counts_only_before_the_live_lair)
{
	gems_room r[4] = {WARN(0), WARN(0), ADV(GEMS_ADV_MONTE), GEM(0)};
	int lair = gems_mark_spiders(r, 4);
	CHECK(!gems_adv_before_lair(r, 4, lair));
	gems_room s[4] = {WARN(0), ADV(GEMS_ADV_MONTE), WARN(0), GEM(0)};
	CHECK(gems_adv_before_lair(s, 4, gems_mark_spiders(s, 4)));
	gems_room t[3] = {GEM(0), GEM(1), ADV(GEMS_ADV_SCOUT)};
	CHECK(gems_adv_before_lair(t, 3, gems_mark_spiders(t, 3))); /* no lair */
}

static game_event used(int adv)
{
	return (game_event){.type = GEMS_EV_ADV_USED, .seat = -1, .a = adv};
}

TEST(gems_G10_fold_adds_one_then_subtracts_when_all_used)
{
	gems_shared sh;
	gems_shared_init(&sh);
	game_event e = used(GEMS_ADV_MONTE);
	gems_shared_fold(&sh, &e, 1);
	CHECK_EQ(sh.uses[GEMS_ADV_MONTE], 1);
	for (int i = 0; i < GEMS_N_ADV; i++)
		sh.uses[i] = i == 9 ? 0 : (i == 0 ? 2 : 1);
	e = used(9);
	gems_shared_fold(&sh, &e, 1);
	CHECK_EQ(sh.uses[9], 0);
	CHECK_EQ(sh.uses[0], 1);
	CHECK_EQ(sh.uses[5], 0);
}

TEST(gems_G10_fold_records_and_ignores_other_events)
{
	gems_shared sh, before;
	gems_shared_init(&sh);
	game_event evs[3] = {
		{.type = GEMS_EV_ROOM, .a = 3, .b = 1},
		{.type = GEMS_EV_GAME_OVER, .a = 70, .b = 12},
		{.type = GEMS_EV_GAME_OVER, .a = 50, .b = 20},
	};
	gems_shared_fold(&sh, evs, 1);
	gems_shared_init(&before);
	CHECK(memcmp(&sh, &before, sizeof sh) == 0);
	gems_shared_fold(&sh, evs + 1, 2);
	CHECK_EQ(sh.best_score, 70);
	CHECK_EQ(sh.deepest, 20);
	/* pure: folding the same events into equal states gives equal states */
	gems_shared a, b;
	gems_shared_init(&a);
	gems_shared_init(&b);
	gems_shared_fold(&a, evs, 3);
	gems_shared_fold(&b, evs, 3);
	CHECK(memcmp(&a, &b, sizeof a) == 0);
}

TEST(gems_G10_pick_least_used_first)
{
	int32_t uses[GEMS_N_ADV] = {5, 5, 5, 5, 5, 0, 0, 0, 0, 0};
	for (uint64_t seed = 0; seed < 50; seed++) {
		rng r;
		rng_seed(&r, seed, 1);
		uint8_t out[5];
		gems_pick_adventures(&r, uses, out);
		uint32_t set = 0;
		for (int d = 0; d < 5; d++)
			set |= 1u << out[d];
		CHECK_EQ(set, 0x3e0u);
	}
	int32_t ladder[GEMS_N_ADV] = {0, 1, 1, 2, 9, 9, 9, 9, 9, 3};
	rng r;
	rng_seed(&r, 7, 1);
	uint8_t out[5];
	gems_pick_adventures(&r, ladder, out);
	uint32_t set = 0;
	for (int d = 0; d < 5; d++)
		set |= 1u << out[d];
	CHECK_EQ(set, (1u << 0) | (1u << 1) | (1u << 2) | (1u << 3) | (1u << 9));
}

TEST(gems_G10_ties_broken_at_random_and_order_shuffled)
{
	int32_t uses[GEMS_N_ADV] = {0};
	int picked[GEMS_N_ADV] = {0}, first[GEMS_N_ADV] = {0};
	for (uint64_t seed = 0; seed < 400; seed++) {
		rng r;
		rng_seed(&r, seed, 3);
		uint8_t out[5];
		gems_pick_adventures(&r, uses, out);
		for (int d = 0; d < 5; d++)
			picked[out[d]]++;
		first[out[0]]++;
	}
	for (int i = 0; i < GEMS_N_ADV; i++) {
		CHECK(picked[i] > 100 && picked[i] < 300);
		CHECK(first[i] > 10);
	}
}

TEST(gems_G11_adventure_parts)
{
	CHECK_EQ(gems_ferry_toll(1), 4);
	CHECK_EQ(gems_ferry_toll(2), 3);
	CHECK_EQ(gems_ferry_toll(3), 2);
	CHECK_EQ(gems_sunmoon_amount(1), 2);
	CHECK_EQ(gems_sunmoon_amount(2), 4);
	CHECK_EQ(gems_sunmoon_amount(3), 6);
	CHECK_EQ(gems_monte_third(1), 0);
	CHECK_EQ(gems_monte_third(2), -2);
	CHECK_EQ(gems_monte_third(3), -4);
	CHECK_EQ(gems_scout_radius(1), 8);
	CHECK_EQ(gems_scout_radius(2), 5);
	CHECK_EQ(gems_scout_radius(3), 2);
	CHECK_EQ(gems_adv_rooms(GEMS_ADV_MUSHROOM), 6);
	CHECK_EQ(gems_adv_rooms(GEMS_ADV_PEOPLE), 6);
	CHECK_EQ(gems_adv_rooms(GEMS_ADV_SPHINX), 3);
}

TEST(gems_names_round_trip)
{
	for (int i = 0; i < GEMS_N_ADV; i++)
		CHECK_EQ(gems_adv_parse(gems_adv_key(i)), i);
	for (int c = 0; c < GEMS_N_CHOICES; c++)
		CHECK_EQ(gems_choice_parse_key(gems_choice_key(c)), c);
	CHECK_EQ(gems_adv_parse("dragon"), -1);
	CHECK_STR(gems_warning_text(0), "Beware! A gem-stealing spider lies ahead.");
	CHECK_STR(gems_warning_text(4), "Abandon hope all who continue ahead!");
	for (int t = 1; t < GEMS_N_EVENTS; t++)
		CHECK(strcmp(gems_event_key(t), "?") != 0);
}
