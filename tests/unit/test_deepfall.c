/*
 * test_deepfall.c — DEEPFALL's rules (seed 001 B3–B5 with Part C v2), one
 * test per rule: bags, Dread and Setbacks, Lineage/Calling hooks, claims
 * and assault progress, the exits, the Maw, scoring and determinism. Each
 * test builds a game from a seed, then sets up the exact position it needs.
 */
#include <string.h>

#include "../../server/games/deepfall/deepfall.h"
#include "../test.h"

static df_config cfg_default(void)
{
	df_config c;
	char err[128];
	df_config_parse(&c, NULL, err, sizeof err);
	return c;
}

/* A game with `seats` seats whose parties are set to the given companies
 * and whose board holds no markers. */
static void setup(df_game *g, int seats, const int *lin, const int *cal)
{
	df_config c = cfg_default();
	df_game_init(g, &c, seats, 42, NULL);
	for (int s = 0; s < seats; s++) {
		g->pl[s].party.lineage = (uint8_t)lin[s];
		g->pl[s].party.calling = (uint8_t)cal[s];
	}
}

static df_room *plain_room(df_game *g, int f, int r, int theme)
{
	df_room *rm = df_room_at(g, f, r);
	rm->theme = (uint8_t)theme;
	rm->value = (int16_t)df_room_value(&g->cfg, theme, f);
	return rm;
}

TEST(deepfall_recruit_die_has_one_of_each_face)
{
	int seen[DF_NFACES] = {0};
	for (int k = 0; k < 6; k++)
		seen[df_dice[DF_DIE_RECRUIT].face[k]]++;
	for (int f = 0; f < DF_NFACES; f++)
		CHECK_EQ(seen[f], 1);
}

TEST(deepfall_room_glory_is_sublinear_in_depth)
{
	df_config c = cfg_default();
	c.depth_coeff = 500; /* v2 §7: base * (1 + 0.5 * (depth - 1)) */
	CHECK_EQ(df_room_value(&c, DF_VAULT, 1), 6);
	CHECK_EQ(df_room_value(&c, DF_VAULT, 6), 21); /* 6 * 3.5 */
	c.depth_coeff = 1000;                         /* v1: base * depth */
	CHECK_EQ(df_room_value(&c, DF_VAULT, 6), 36);
}

TEST(deepfall_bag_draws_without_replacement_then_reshuffles_discard)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	df_party *pa = &g.pl[0].party;
	int start[DF_NDIE] = {0}, drawn[DF_NDIE] = {0};
	for (int i = 0; i < pa->n_draw; i++)
		start[pa->draw[i]]++;
	int n = pa->n_draw;
	uint8_t d;
	for (int i = 0; i < n; i++) {
		REQUIRE(df_bag_draw(&g, pa, &d));
		drawn[d]++;
	}
	for (int k = 0; k < DF_NDIE; k++)
		CHECK_EQ(drawn[k], start[k]); /* every die once: no replacement */
	CHECK_EQ(df_bag_draw(&g, pa, &d), 0); /* all in hand, nothing to draw */
	pa->disc[pa->n_disc++] = DF_DIE_RELIC;
	pa->disc[pa->n_disc++] = DF_DIE_RELIC;
	REQUIRE(df_bag_draw(&g, pa, &d)); /* the discard became the draw pile */
	CHECK_EQ(d, DF_DIE_RELIC);
	CHECK_EQ(pa->n_disc, 0);
	CHECK_EQ(pa->n_draw, 1);
}

TEST(deepfall_setback_takes_a_die_to_the_wound_slot)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	df_party *pa = &g.pl[0].party;
	uint8_t hand[8] = {DF_DIE_RECRUIT, DF_DIE_WARRIOR};
	int nh = 2;
	pa->unbanked = 10;
	df_setback(&g, 0, hand, &nh, NULL);
	CHECK_EQ(nh, 1);
	CHECK_EQ(pa->n_wound, 1);
	CHECK_EQ(pa->wound[0], DF_DIE_WARRIOR);
	CHECK_EQ(pa->unbanked, 10);
	CHECK_EQ(g.pl[0].setbacks, 1);
}

TEST(deepfall_setback_from_minimal_bag_takes_loot)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	df_party *pa = &g.pl[0].party;
	pa->n_draw = (uint8_t)(g.cfg.min_bag - 1); /* plus one in hand = min_bag */
	pa->n_disc = 0;
	uint8_t hand[2] = {DF_DIE_RECRUIT};
	int nh = 1;
	pa->unbanked = 10;
	df_setback(&g, 0, hand, &nh, NULL);
	CHECK_EQ(nh, 1);
	CHECK_EQ(pa->n_wound, 0);
	CHECK_EQ(pa->unbanked, 10 - g.cfg.setback_loot);
}

TEST(deepfall_wisp_setback_hits_double_golem_shrugs_every_other)
{
	df_game g;
	setup(&g, 2, (int[]){DF_WISP, DF_GOLEM}, (int[]){DF_REAVER, DF_REAVER});
	uint8_t hand[8] = {0, 0, 0, 0};
	int nh = 4;
	df_setback(&g, 0, hand, &nh, NULL);
	CHECK_EQ(nh, 2);
	CHECK_EQ(g.pl[0].party.n_wound, 2);
	nh = 4;
	df_setback(&g, 1, hand, &nh, NULL); /* first: shrugged off */
	CHECK_EQ(nh, 4);
	CHECK_EQ(g.pl[1].party.n_wound, 0);
	df_setback(&g, 1, hand, &nh, NULL); /* second: a die */
	CHECK_EQ(nh, 3);
	CHECK_EQ(g.pl[1].party.n_wound, 1);
}

TEST(deepfall_faith_cancels_dread_and_threshold_triggers_setbacks)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	g.cfg.dread_threshold = 2;
	uint8_t hand[8] = {0, 0, 0, 0, 0, 0};
	int nh = 6;
	int tot[DF_NFACES] = {0};
	tot[DF_DREAD] = 5;
	tot[DF_FAITH] = 1;
	df_resolve_dread(&g, 0, tot, hand, &nh, NULL);
	CHECK_EQ(tot[DF_FAITH], 0);
	CHECK_EQ(tot[DF_DREAD], 4);
	CHECK_EQ(g.pl[0].setbacks, 2); /* 4 standing / threshold 2 */
	CHECK_EQ(nh, 4);
}

TEST(deepfall_revenant_turns_dread_into_mettle)
{
	df_game g;
	setup(&g, 1, (int[]){DF_REVENANT}, (int[]){DF_REAVER});
	g.cfg.revenant_convert = 2;
	g.cfg.dread_threshold = 1;
	uint8_t hand[8] = {0, 0, 0, 0};
	int nh = 4;
	int tot[DF_NFACES] = {0};
	tot[DF_DREAD] = 2;
	tot[DF_METTLE] = 1;
	df_resolve_dread(&g, 0, tot, hand, &nh, NULL);
	CHECK_EQ(tot[DF_METTLE], 3);
	CHECK_EQ(tot[DF_DREAD], 0);
	CHECK_EQ(g.pl[0].setbacks, 0);
}

TEST(deepfall_hierophant_cancels_one_more_dread)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_HIEROPHANT});
	g.cfg.dread_threshold = 1;
	uint8_t hand[8] = {0, 0, 0, 0};
	int nh = 4;
	int tot[DF_NFACES] = {0};
	tot[DF_DREAD] = 1;
	df_resolve_dread(&g, 0, tot, hand, &nh, NULL);
	CHECK_EQ(g.pl[0].setbacks, 0);
}

TEST(deepfall_golem_born_cancels_prospector_hand_bonus)
{
	df_game g;
	setup(&g, 4, (int[]){DF_GOLEM, DF_GOLEM, DF_DVERGAR, DF_WISP},
	      (int[]){DF_PROSPECTOR, DF_REAVER, DF_PROSPECTOR, DF_REAVER});
	int h = g.cfg.hand_size;
	CHECK_EQ(df_hand_size(&g, 0), h);     /* -1 + 1 */
	CHECK_EQ(df_hand_size(&g, 1), h - 1); /* Golem-born's v2 cost */
	CHECK_EQ(df_hand_size(&g, 2), h + 1); /* Prospector's bigger hand */
	CHECK_EQ(df_hand_size(&g, 3), h + 1); /* Wisp's nimble hand */
}

TEST(deepfall_moves_by_lineage)
{
	df_game g;
	setup(&g, 3, (int[]){DF_DVERGAR, DF_SYLPHID, DF_GNOLL},
	      (int[]){DF_REAVER, DF_REAVER, DF_REAVER});
	CHECK_EQ(df_moves(&g, 0), g.cfg.base_moves - 1);
	CHECK_EQ(df_moves(&g, 1), g.cfg.base_moves + 2); /* fleet: +2 (CONFIG.md) */
	CHECK_EQ(df_moves(&g, 2), g.cfg.base_moves);
}

TEST(deepfall_dvergar_ignores_threat)
{
	df_game g;
	setup(&g, 2, (int[]){DF_DVERGAR, DF_GNOLL}, (int[]){DF_WARDEN, DF_WARDEN});
	for (int s = 0; s < 2; s++)
		g.pl[s].party.floor = 2;
	for (int r = 0; r < g.cfg.rooms; r++)
		df_room_at(&g, 2, r)->alive = 0;
	df_room *den = plain_room(&g, 2, 0, DF_DEN); /* threat 3, lock 0 */
	den->alive = 1;
	CHECK_EQ(df_threat_for(&g, 0, den), 0);
	CHECK_EQ(df_threat_for(&g, 1, den), 3);
	int tot[DF_NFACES] = {0};
	df_claim(&g, 0, tot, false, NULL); /* no Steel at all */
	CHECK_EQ(den->act[0], 1);
	int tot2[DF_NFACES] = {0};
	tot2[DF_STEEL] = 2;
	df_claim(&g, 1, tot2, false, NULL); /* the Gnoll falls short */
	CHECK_EQ(den->act[1], 0);
	CHECK_EQ(den->prog_s[1], 2);
}

TEST(deepfall_claim_strength_is_one_plus_surplus_and_assault_progress_accumulates)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_WARDEN});
	g.pl[0].party.floor = 3;
	for (int r = 0; r < g.cfg.rooms; r++)
		df_room_at(&g, 3, r)->alive = 0;
	df_room *forge = plain_room(&g, 3, 1, DF_FORGE); /* threat 4, lock 1 */
	forge->alive = 1;
	int tot[DF_NFACES] = {0};
	tot[DF_STEEL] = 3;
	tot[DF_CUNNING] = 0;
	df_claim(&g, 0, tot, false, NULL);
	CHECK_EQ(forge->act[0], 0);
	CHECK_EQ(forge->prog_s[0], 3); /* a near miss is kept */
	CHECK_EQ(tot[DF_STEEL], 0);
	int tot2[DF_NFACES] = {0};
	tot2[DF_STEEL] = 3; /* 3 + 3 progress = 6 >= 4: 2 surplus */
	tot2[DF_CUNNING] = 2; /* 2 >= 1: 1 surplus */
	df_claim(&g, 0, tot2, false, NULL);
	CHECK_EQ(forge->act[0], 1 + 2 + 1);
	CHECK_EQ(forge->prog_s[0], 0);
	CHECK_EQ(g.pl[0].claims, 1);
}

TEST(deepfall_vault_needs_trinity_unless_lorekeeper)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_LOREKEEPER});
	for (int s = 0; s < 2; s++)
		g.pl[s].party.floor = 5;
	for (int r = 0; r < g.cfg.rooms; r++)
		df_room_at(&g, 5, r)->alive = 0;
	df_room *v = plain_room(&g, 5, 0, DF_VAULT); /* threat 2, lock 3 */
	v->alive = 1;
	int tot[DF_NFACES] = {[DF_STEEL] = 2, [DF_CUNNING] = 3};
	df_claim(&g, 0, tot, false, NULL);
	CHECK_EQ(v->act[0], 0);
	int tot2[DF_NFACES] = {[DF_STEEL] = 2, [DF_CUNNING] = 3};
	df_claim(&g, 0, tot2, true, NULL);
	/* The first try's symbols waited as assault progress and now count as
	 * invested surplus: 1 + (2 + 2 - 2) + (3 + 3 - 3). */
	CHECK_EQ(v->act[0], 6);
	int tot3[DF_NFACES] = {[DF_STEEL] = 2, [DF_CUNNING] = 2}; /* +1 at locks */
	df_claim(&g, 1, tot3, false, NULL);
	CHECK_EQ(v->act[1], 1);
}

TEST(deepfall_collapse_scores_majority_ties_split_rounding_down)
{
	df_game g;
	setup(&g, 3, (int[]){DF_GNOLL, DF_GNOLL, DF_GNOLL},
	      (int[]){DF_REAVER, DF_REAVER, DF_REAVER});
	int f = g.frontier;
	for (int s = 0; s < 3; s++)
		g.pl[s].party.floor = 1;
	df_room *a = plain_room(&g, f, 0, DF_VAULT);
	df_room *b = plain_room(&g, f, 1, DF_THRONE);
	a->value = 21;
	b->value = 25;
	a->act[0] = 2;
	a->act[1] = 2; /* tie: 21 / 2 = 10 each */
	b->act[0] = 1;
	b->fallen[2] = 3; /* Fallen markers count: seat 2 takes it */
	df_collapse(&g, f, NULL);
	CHECK_EQ(g.pl[0].glory, 10);
	CHECK_EQ(g.pl[1].glory, 10);
	CHECK_EQ(g.pl[2].glory, 25);
	CHECK_EQ(g.pl[2].src[DF_SRC_CASH], 25); /* won by Fallen strength */
	CHECK_EQ(g.pl[0].src[DF_SRC_PRESS], 10);
	CHECK_EQ(g.frontier, f - 1);
	CHECK(!a->alive && !b->alive);
}

TEST(deepfall_warden_markers_count_double)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_WARDEN, DF_REAVER});
	int f = g.frontier;
	for (int s = 0; s < 2; s++)
		g.pl[s].party.floor = 1;
	df_room *a = plain_room(&g, f, 0, DF_HALL);
	a->act[0] = 3; /* x2 = 6 */
	a->act[1] = 5;
	CHECK_EQ(df_room_strength(&g, a, 0), 6);
	df_collapse(&g, f, NULL);
	CHECK_EQ(g.pl[0].glory, a->value);
	CHECK_EQ(g.pl[1].glory, 0);
}

TEST(deepfall_worthy_end_pays_burst_and_removes_held_rooms)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_REAVER});
	int f = g.frontier;
	df_party *pa = &g.pl[0].party;
	pa->floor = (uint8_t)f;
	pa->deepest = (uint8_t)f;
	pa->last_stand = 1;
	pa->unbanked = 9;
	g.pl[1].party.floor = 1;
	df_room *deep = plain_room(&g, f, 0, DF_VAULT);
	df_room *up = plain_room(&g, f - 1, 0, DF_FORGE);
	deep->act[0] = 1;
	deep->fallen[1] = 5; /* the chaser would have won it */
	up->act[0] = 2;
	up->fallen[1] = 1;
	df_collapse(&g, f, NULL);
	CHECK_EQ(g.pl[0].glory, g.cfg.worthy_factor * f); /* held bonus 0 */
	CHECK_EQ(g.pl[0].src[DF_SRC_WORTHY], g.cfg.worthy_factor * f);
	CHECK_EQ(g.pl[1].glory, 0); /* denied: the Vault left the board */
	CHECK(!deep->alive);
	CHECK(!up->alive); /* held rooms on other floors go too */
	CHECK(!pa->active);
	CHECK_EQ(pa->unbanked, 0);
	CHECK_EQ(g.pl[0].worthy_ends, 1);
	CHECK_EQ(g.pl[0].taken, 0);
}

TEST(deepfall_wardancer_worthy_end_is_x1_5)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_WARDANCER});
	int f = g.frontier;
	df_party *pa = &g.pl[0].party;
	pa->floor = (uint8_t)f;
	pa->deepest = (uint8_t)f;
	pa->last_stand = 1;
	df_collapse(&g, f, NULL);
	CHECK_EQ(g.pl[0].glory, g.cfg.worthy_factor * f * 3 / 2);
}

TEST(deepfall_taken_without_last_stand_loses_loot_and_markers)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	int f = g.frontier;
	df_party *pa = &g.pl[0].party;
	pa->floor = (uint8_t)f;
	pa->unbanked = 12;
	df_room *up = plain_room(&g, f - 1, 2, DF_HALL);
	up->act[0] = 3;
	df_collapse(&g, f, NULL);
	CHECK_EQ(g.pl[0].taken, 1);
	CHECK_EQ(pa->unbanked, 0);
	CHECK_EQ(up->act[0], 0);
	CHECK(up->alive); /* the room stays; only the markers are lost */
	CHECK_EQ(g.pl[0].glory, 0);
}

TEST(deepfall_cash_out_banks_loot_and_dividend_and_leaves_fallen_markers)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_WARDEN});
	df_party *pa = &g.pl[0].party;
	g.cfg.cash_dividend = 2;
	g.cfg.fallen_strength = 1000; /* keep the whole strength */
	pa->entry = 2;
	pa->deepest = 5;
	pa->unbanked = 7;
	df_room *rm = plain_room(&g, 3, 1, DF_HALL);
	rm->act[0] = 3;
	CHECK_EQ(df_room_strength(&g, rm, 0), 6); /* Warden, active */
	df_cash_out(&g, 0, NULL);
	CHECK_EQ(g.pl[0].glory, 7 + 2 * (5 - 2)); /* dividend for floors delved */
	CHECK_EQ(rm->act[0], 0);
	CHECK_EQ(rm->fallen[0], 3); /* Fallen: counted, never doubled */
	CHECK_EQ(df_room_strength(&g, rm, 0), 3);
	CHECK(!pa->active);
	CHECK_EQ(g.pl[0].cash_outs, 1);
	CHECK_EQ(g.pl[0].cash_depth[0], 5);
}

TEST(deepfall_fallen_markers_default_to_strength_one_b1)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.cfg.fallen_strength = 0; /* B1: Fallen strength = 1 */
	df_room *rm = plain_room(&g, 2, 0, DF_HALL);
	rm->act[0] = 4;
	df_cash_out(&g, 0, NULL);
	CHECK_EQ(rm->fallen[0], 1);
	g.cfg.dividend_delved = 0; /* the seed's formula: deepest x factor */
	df_draft(&g, 0, NULL);
	g.pl[0].party.deepest = 4;
	g.pl[0].party.entry = 3;
	CHECK_EQ(df_dividend(&g, 0), g.cfg.cash_dividend * 4);
	g.cfg.dividend_delved = 1;
	CHECK_EQ(df_dividend(&g, 0), g.cfg.cash_dividend * 1);
}

TEST(deepfall_press_stacks_dread)
{
	/* Pressing adds press_dread Dread per extra hand ("stacks more Dread
	 * risk"): with no Faith at all a Setback follows from pressing alone. */
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	df_party *pa = &g.pl[0].party;
	g.cfg.press_dread = 3;
	g.cfg.dread_threshold = 3;
	for (int i = 0; i < pa->n_draw; i++)
		pa->draw[i] = DF_DIE_CHAMPION; /* no Dread face; one Faith */
	g.cfg.hand_size = 1;
	int before = g.pl[0].setbacks;
	df_turn(&g, 0, (df_choice){1, 3, 0, DF_PERSIST}, NULL);
	/* 9 Dread from pressing, at most 4 Faith rolled: at least one Setback. */
	CHECK(g.pl[0].setbacks >= before + 1);
}

TEST(deepfall_value_of_unclaimed_rooms_rises_to_the_floor_above)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.cfg.value_rise = 500;
	int f = g.frontier, R = g.cfg.rooms;
	g.pl[0].party.floor = 1;
	int before[DF_MAX_ROOMS], rise = 0;
	for (int r = 0; r < R; r++) {
		df_room *rm = df_room_at(&g, f, r);
		rm->value = (int16_t)(10 + r); /* all unclaimed */
		rise += rm->value / 2;
		before[r] = df_room_at(&g, f - 1, r)->value;
	}
	df_room_at(&g, f - 1, 0)->alive = 0; /* a consumed room takes no share */
	df_collapse(&g, f, NULL);
	int got = 0;
	for (int r = 1; r < R; r++) {
		int d = df_room_at(&g, f - 1, r)->value - before[r];
		CHECK(d == rise / (R - 1) || d == rise / (R - 1) + 1);
		got += d;
	}
	CHECK_EQ(got, rise);
	CHECK_EQ(df_room_at(&g, f - 1, 0)->value, before[0]);
}

TEST(deepfall_one_collapse_per_round_and_the_rest_carries_over)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.pl[0].party.floor = 1;
	g.accum = 1800;
	g.round = 3;
	int speed = g.cfg.maw_base + g.cfg.maw_accel * 3;
	int f = g.frontier;
	df_maw_advance(&g, NULL);
	CHECK_EQ(g.frontier, f - 1);
	CHECK_EQ(g.accum, 1800 + speed - 1000);
	g.cfg.max_collapses = 2;
	g.accum = 1800;
	df_maw_advance(&g, NULL);
	CHECK_EQ(g.frontier, f - 3); /* with the knob raised, two fall */
}

TEST(deepfall_maw_speed_ramps_and_is_pushed_by_dread_and_presses)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.round = 5;
	g.round_dread = 7;
	g.round_press = 3;
	g.accum = 0;
	df_maw_advance(&g, NULL);
	CHECK_EQ(g.last_speed, g.cfg.maw_base + 5 * g.cfg.maw_accel + 7 * g.cfg.dread_push +
				       3 * g.cfg.press_push);
	CHECK_EQ(g.round_dread, 0);
}

TEST(deepfall_reentry_at_max_one_frontier_minus_gap)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	CHECK_EQ(g.pl[0].party.floor, 1); /* the first party starts at 1 */
	g.cfg.reentry_gap = 2;
	g.frontier = 5;
	df_draft(&g, 0, NULL);
	CHECK_EQ(g.pl[0].party.floor, 3);
	g.frontier = 2;
	df_draft(&g, 0, NULL);
	CHECK_EQ(g.pl[0].party.floor, 1);
	CHECK_EQ(g.pl[0].parties, 3);
}

TEST(deepfall_comeback_scales_trailing_payouts)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_REAVER});
	g.cfg.comeback_bp = 5000;
	g.pl[1].glory = 100;
	g.pl[0].glory = 50; /* 50% behind: +25% */
	CHECK_EQ(df_comeback(&g, 0, 40), 50);
	CHECK_EQ(df_comeback(&g, 1, 40), 40); /* the leader gets nothing */
}

TEST(deepfall_last_stand_free_with_vault_else_costs_mettle)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_REAVER});
	df_room *v = plain_room(&g, 2, 0, DF_VAULT);
	v->act[0] = 1;
	CHECK(df_holds_stand_room(&g, 0));
	CHECK(!df_holds_stand_room(&g, 1));
}

static void play(df_game *g, uint64_t seed, game_events *evs)
{
	df_config c = cfg_default();
	char err[128];
	df_game_init(g, &c, 4, seed, evs);
	while (!g->over) {
		game_choice ch[DF_MAX_SEATS];
		for (int s = 0; s < 4; s++)
			ch[s] = df_ai_choose(g, s, s % DF_NSTRAT);
		if (df_round(g, ch, evs, err, sizeof err) != 0)
			break;
	}
}

TEST(deepfall_same_seed_same_game)
{
	static df_game a, b;
	game_events ea = {0}, eb = {0};
	play(&a, 99, &ea);
	play(&b, 99, &eb);
	REQUIRE(a.over && b.over);
	CHECK_EQ(ea.len, eb.len);
	CHECK(ea.len == eb.len && memcmp(ea.v, eb.v, ea.len * sizeof *ea.v) == 0);
	for (int s = 0; s < 4; s++)
		CHECK_EQ(a.pl[s].glory, b.pl[s].glory);
	static df_game c;
	game_events ec = {0};
	play(&c, 100, &ec);
	CHECK(ec.len != ea.len || memcmp(ec.v, ea.v, ea.len * sizeof *ea.v) != 0);
	game_events_free(&ea);
	game_events_free(&eb);
	game_events_free(&ec);
}

TEST(deepfall_game_ends_when_floor_one_collapses)
{
	static df_game g;
	play(&g, 7, NULL);
	CHECK(g.over);
	CHECK_EQ(g.frontier, 0);
	CHECK(g.winners != 0);
	CHECK(g.rounds_played >= g.cfg.floors); /* at most one floor a round */
	for (int s = 0; s < 4; s++)
		CHECK(!g.pl[s].party.active); /* everyone left the board */
}

TEST(deepfall_illegal_choice_rejected_nothing_changes)
{
	static df_game g, before;
	df_config c = cfg_default();
	char err[128];
	df_game_init(&g, &c, 3, 5, NULL);
	before = g;
	game_choice ch[3];
	for (int s = 0; s < 3; s++)
		ch[s] = df_choice_pack((df_choice){1, 0, 1, DF_PERSIST});
	ch[2] = df_choice_pack((df_choice){g.frontier + 1, 0, 0, DF_PERSIST});
	CHECK_EQ(df_round(&g, ch, NULL, err, sizeof err), -1);
	CHECK(strstr(err, "target floor") != NULL);
	CHECK(memcmp(&g, &before, sizeof g) == 0);
	ch[2] = df_choice_pack((df_choice){1, c.max_press + 1, 0, DF_PERSIST});
	CHECK_EQ(df_round(&g, ch, NULL, err, sizeof err), -1);
	ch[2] = df_choice_pack((df_choice){1, 0, 0, 3});
	CHECK_EQ(df_round(&g, ch, NULL, err, sizeof err), -1);
	CHECK(memcmp(&g, &before, sizeof g) == 0);
	ch[2] = df_choice_pack((df_choice){1, 0, 0, DF_PERSIST});
	CHECK_EQ(df_round(&g, ch, NULL, err, sizeof err), 0);
	CHECK_EQ(g.round, 2);
	CHECK_EQ(g.start_seat, 1); /* the first seat rotates each round */
}

TEST(deepfall_ai_choices_are_always_legal)
{
	static df_game g;
	df_config c = cfg_default();
	char err[128];
	for (uint64_t seed = 1; seed <= 30; seed++) {
		df_game_init(&g, &c, 4, seed, NULL);
		while (!g.over) {
			game_choice ch[DF_MAX_SEATS];
			for (int s = 0; s < 4; s++) {
				ch[s] = df_ai_choose(&g, s, (int)((s + seed) % DF_NSTRAT));
				REQUIRE(df_choice_check(&g, s, ch[s], err, sizeof err) == 0);
			}
			REQUIRE(df_round(&g, ch, NULL, err, sizeof err) == 0);
		}
	}
}

TEST(deepfall_config_defaults_and_rejections)
{
	df_config c;
	char err[160];
	CHECK_EQ(df_config_parse(&c, NULL, err, sizeof err), 0);
	CHECK_EQ(c.floors, 6);
	CHECK_EQ(c.rooms, 4);
	CHECK_EQ(c.worthy_held_bonus, 0);
	CHECK_EQ(c.max_collapses, 1);
	cJSON *j = cJSON_Parse("{\"floors\": 8, \"value_rise\": 0.25, \"ai\": [\"presson\"]}");
	CHECK_EQ(df_config_parse(&c, j, err, sizeof err), 0);
	CHECK_EQ(c.floors, 8);
	CHECK_EQ(c.value_rise, 250);
	CHECK_EQ(c.ai[0], DF_AI_PRESSON);
	CHECK_EQ(c.ai[1], DF_AI_BALANCED);
	cJSON_Delete(j);
	const char *bad[] = {"{\"flors\": 3}", "{\"floors\": 99}", "{\"floors\": 2.5}",
			     "{\"floors\": \"6\"}", "{\"ai\": [\"reckless\"]}", "[1]",
			     "{\"maw_base\": 0, \"maw_accel\": 0}"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		j = cJSON_Parse(bad[i]);
		err[0] = 0;
		CHECK_MSG(df_config_parse(&c, j, err, sizeof err) == -1, "accepted %s", bad[i]);
		CHECK(err[0] != 0);
		cJSON_Delete(j);
	}
}

TEST(deepfall_default_json_matches_the_built_in_defaults)
{
	FILE *f = fopen("server/games/deepfall/default.json", "rb");
	REQUIRE(f);
	char text[8192];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	cJSON *j = cJSON_Parse(text);
	REQUIRE(j);
	df_config a, b;
	char err[160];
	CHECK_EQ(df_config_parse(&a, j, err, sizeof err), 0);
	df_config_defaults(&b);
	CHECK(memcmp(&a, &b, sizeof a) == 0);
	cJSON_Delete(j);
}

TEST(deepfall_replay_of_the_choices_alone_reproduces_the_game)
{
	/* DESIGN §1: (config, seed, choice sets) is the record. The AI draws
	 * from its own stream, so replaying the choices without calling it
	 * must give the same game. */
	static df_game a, b;
	static game_choice log[64][DF_MAX_SEATS];
	df_config c = cfg_default();
	char err[128];
	df_game_init(&a, &c, 4, 31337, NULL);
	int n = 0;
	while (!a.over && n < 64) {
		for (int s = 0; s < 4; s++)
			log[n][s] = df_ai_choose(&a, s, (s + 1) % DF_NSTRAT);
		REQUIRE(df_round(&a, log[n], NULL, err, sizeof err) == 0);
		n++;
	}
	REQUIRE(a.over);
	df_game_init(&b, &c, 4, 31337, NULL);
	for (int i = 0; i < n; i++)
		REQUIRE(df_round(&b, log[i], NULL, err, sizeof err) == 0);
	CHECK(b.over);
	CHECK(memcmp(a.rooms, b.rooms, sizeof a.rooms) == 0);
	CHECK(memcmp(a.pl, b.pl, sizeof a.pl) == 0);
	CHECK_EQ(a.winners, b.winners);
}

TEST(deepfall_random_legal_choices_keep_the_invariants)
{
	static df_game g;
	df_config c = cfg_default();
	char err[128];
	rng r;
	rng_seed(&r, 77, 9);
	for (uint64_t seed = 1; seed <= 40; seed++) {
		int seats = 1 + (int)(seed % DF_MAX_SEATS);
		df_game_init(&g, &c, seats, seed, NULL);
		int prev_frontier = g.frontier;
		while (!g.over) {
			game_choice ch[DF_MAX_SEATS];
			for (int s = 0; s < seats; s++) {
				df_choice x = {1 + (int)rng_below(&r, (uint32_t)g.frontier),
					       (int)rng_below(&r, (uint32_t)c.max_press + 1),
					       (int)rng_below(&r, 2), (int)rng_below(&r, DF_NEXIT)};
				ch[s] = df_choice_pack(x);
			}
			REQUIRE(df_round(&g, ch, NULL, err, sizeof err) == 0);
			/* at most one floor a round; nothing lives above... below it */
			CHECK(g.frontier == prev_frontier || g.frontier == prev_frontier - 1);
			prev_frontier = g.frontier;
			for (int i = g.frontier * c.rooms; i < c.floors * c.rooms; i++)
				CHECK(!g.rooms[i].alive);
			for (int s = 0; s < seats; s++) {
				const df_player *pl = &g.pl[s];
				int32_t sum = pl->src[DF_SRC_CASH] + pl->src[DF_SRC_PRESS] +
					      pl->src[DF_SRC_WORTHY];
				CHECK_EQ(pl->glory, sum);
				CHECK(pl->glory >= 0);
				if (!g.over) {
					CHECK(pl->party.active); /* every seat has a party */
					CHECK(pl->party.floor >= 1);
					CHECK(pl->party.floor <= g.frontier);
					CHECK(pl->party.unbanked >= 0);
				}
			}
			if (test_failed())
				return;
		}
		CHECK(g.rounds_played >= c.floors);
	}
}

TEST(deepfall_turns_resolve_in_seat_order_from_a_rotating_start)
{
	static df_game g;
	df_config c = cfg_default();
	char err[128];
	game_events evs = {0};
	df_game_init(&g, &c, 3, 12, NULL);
	for (int round = 1; round <= 4 && !g.over; round++) {
		CHECK_EQ(g.start_seat, (round - 1) % 3);
		game_choice ch[3];
		for (int s = 0; s < 3; s++)
			ch[s] = df_choice_pack((df_choice){1, 0, 0, DF_PERSIST});
		game_events_clear(&evs);
		REQUIRE(df_round(&g, ch, &evs, err, sizeof err) == 0);
		int order[3], n = 0;
		for (size_t i = 0; i < evs.len && n < 3; i++)
			if (evs.v[i].type == DF_EV_ROLL)
				order[n++] = evs.v[i].seat;
		REQUIRE(n == 3);
		for (int k = 0; k < 3; k++)
			CHECK_EQ(order[k], (round - 1 + k) % 3);
	}
	game_events_free(&evs);
}

TEST(deepfall_worthy_end_pays_the_deepest_floor_reached_not_the_floor_taken)
{
	/* Part A §6 / v2 §4: worthy_factor x deepest floor (B4's f differs). */
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_REAVER});
	df_party *pa = &g.pl[0].party;
	g.frontier = 3; /* floors 4..6 already eaten */
	pa->floor = 3;
	pa->deepest = 6;
	pa->last_stand = 1;
	df_party *other = &g.pl[1].party;
	other->floor = 2;
	other->last_stand = 1; /* standing, but not on the falling floor */
	df_collapse(&g, 3, NULL);
	CHECK_EQ(g.pl[0].glory, g.cfg.worthy_factor * 6);
	CHECK(other->active); /* keeps playing */
	CHECK_EQ(g.pl[1].worthy_ends, 0);
}

/* Regression: recruiting counted the bag and the hand but not the wounded
 * dice, so a party that kept recruiting while Setbacks wounded it owned
 * more than DF_MAX_BAG dice and the wound pile overran its array (seen as a
 * corrupt lineage). Every knob here is within its documented range and the
 * choices are legal ones a client may send. */
TEST(deepfall_bag_max_counts_wounded_dice_so_the_piles_never_overflow)
{
	static df_game g;
	df_config c = cfg_default();
	char err[128];
	REQUIRE(df_config_set(&c, "bag_max", 40, err, sizeof err) == 0);
	REQUIRE(df_config_set(&c, "min_bag", 1, err, sizeof err) == 0);
	REQUIRE(df_config_set(&c, "max_rounds", 500, err, sizeof err) == 0);
	REQUIRE(df_config_set(&c, "maw_base", 0, err, sizeof err) == 0);
	REQUIRE(df_config_set(&c, "maw_accel", 0.001, err, sizeof err) == 0);
	REQUIRE(df_config_set(&c, "dread_push", 0, err, sizeof err) == 0);
	REQUIRE(df_config_set(&c, "press_push", 0, err, sizeof err) == 0);
	REQUIRE(df_config_set(&c, "floors", 12, err, sizeof err) == 0);
	REQUIRE(df_config_set(&c, "max_press", 5, err, sizeof err) == 0);
	REQUIRE(df_config_set(&c, "recruit_cost", 1, err, sizeof err) == 0);
	REQUIRE(df_config_set(&c, "dread_threshold", 1, err, sizeof err) == 0);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		df_game_init(&g, &c, 4, seed, NULL);
		while (!g.over) {
			game_choice ch[DF_MAX_SEATS];
			for (int s = 0; s < 4; s++)
				ch[s] = df_choice_pack(
					(df_choice){g.pl[s].party.floor, 5, 1, DF_PERSIST});
			REQUIRE(df_round(&g, ch, NULL, err, sizeof err) == 0);
			for (int s = 0; s < 4; s++) {
				const df_party *pa = &g.pl[s].party;
				CHECK(pa->n_draw + pa->n_disc + pa->n_wound <= c.bag_max);
				CHECK(pa->lineage < DF_NLINEAGE && pa->calling < DF_NCALLING);
			}
			if (test_failed())
				return;
		}
	}
}

/* The ROLL event of seat 0's turn (symbols after the per-turn modifiers and
 * production), unpacked into tot. */
static void turn_roll(df_game *g, int *tot)
{
	game_events evs = {0};
	df_party *pa = &g->pl[0].party;
	df_turn(g, 0, (df_choice){pa->floor, 0, 0, DF_PERSIST}, &evs);
	memset(tot, 0, DF_NFACES * sizeof *tot);
	for (size_t i = 0; i < evs.len; i++)
		if (evs.v[i].type == DF_EV_ROLL && evs.v[i].seat == 0)
			for (int f = 0; f < DF_NFACES; f++)
				tot[f] = (evs.v[i].a >> (5 * f)) & 31;
	game_events_free(&evs);
}

/* Part A §2 costs: Sylphid Steel −1, Gnoll Cunning −1, Revenant Faith −1 a
 * turn (never below 0). The same seed rolls the same dice for a Dvergar (no
 * symbol cost, same hand size), so the difference is the cost alone. */
TEST(deepfall_lineage_costs_take_one_symbol_each_turn)
{
	static df_game base, g;
	int tried = 0, face[3] = {DF_STEEL, DF_CUNNING, DF_FAITH};
	int lin[3] = {DF_SYLPHID, DF_GNOLL, DF_REVENANT};
	for (uint64_t seed = 1; seed < 200 && tried < 3; seed++) {
		df_config c = cfg_default();
		df_game_init(&base, &c, 1, seed, NULL);
		base.pl[0].party.lineage = DF_DVERGAR;
		base.pl[0].party.calling = DF_REAVER;
		g = base;
		int want[DF_NFACES];
		turn_roll(&base, want);
		if (!want[DF_STEEL] || !want[DF_CUNNING] || !want[DF_FAITH] || want[DF_DREAD])
			continue; /* wanted: every cost visible, no Dread to convert */
		for (int k = 0; k < 3; k++) {
			df_game t = g;
			t.pl[0].party.lineage = (uint8_t)lin[k];
			int got[DF_NFACES];
			turn_roll(&t, got);
			for (int f = 0; f < DF_NFACES; f++)
				CHECK_EQ(got[f], want[f] - (f == face[k]));
		}
		tried = 3;
	}
	CHECK_EQ(tried, 3);
}

/* Part A §4: a held room adds `production` of its symbol to a turn that
 * rolled at least one of it (Catan). */
TEST(deepfall_held_rooms_produce_their_symbol_when_it_is_rolled)
{
	static df_game base, g;
	bool seen = false;
	for (uint64_t seed = 1; seed < 200 && !seen; seed++) {
		df_config c = cfg_default();
		df_game_init(&base, &c, 1, seed, NULL);
		base.pl[0].party.lineage = DF_DVERGAR;
		base.pl[0].party.calling = DF_REAVER;
		df_room *forge = plain_room(&base, 2, 0, DF_FORGE); /* produces Steel */
		forge->alive = 1;
		g = base;
		forge->act[0] = 0;
		df_room_at(&g, 2, 0)->act[0] = 1; /* g holds the Forge */
		int without[DF_NFACES], with[DF_NFACES];
		turn_roll(&base, without);
		turn_roll(&g, with);
		CHECK_EQ(with[DF_STEEL], without[DF_STEEL] + (without[DF_STEEL] > 0 ? 1 : 0));
		CHECK_EQ(with[DF_CUNNING], without[DF_CUNNING]);
		seen = without[DF_STEEL] > 0;
	}
	CHECK(seen);
}

/* Reaver's Pillage and the Gnoll's scavenging pay loot on a claim, scaled by
 * the floor's depth (v2 §7); the Gnoll's only in a Den or a Forge. */
TEST(deepfall_reaver_and_gnoll_claim_loot_depth_scaled)
{
	df_game g;
	setup(&g, 3, (int[]){DF_DVERGAR, DF_GNOLL, DF_GNOLL},
	      (int[]){DF_REAVER, DF_WARDEN, DF_WARDEN});
	for (int r = 0; r < g.cfg.rooms; r++)
		df_room_at(&g, 3, r)->alive = 0;
	df_room *den = plain_room(&g, 3, 0, DF_DEN);
	den->alive = 1;
	for (int s = 0; s < 3; s++)
		g.pl[s].party.floor = 3;
	int tot[DF_NFACES] = {0};
	df_claim(&g, 0, tot, false, NULL); /* the Dvergar smashes in */
	CHECK_EQ(g.pl[0].party.unbanked, df_depth_scale(&g.cfg, 3, g.cfg.reaver_loot));
	int tot1[DF_NFACES] = {[DF_STEEL] = 3};
	df_claim(&g, 1, tot1, false, NULL);
	CHECK_EQ(den->act[1], 1);
	CHECK_EQ(g.pl[1].party.unbanked, df_depth_scale(&g.cfg, 3, g.cfg.gnoll_loot));
	CHECK(df_depth_scale(&g.cfg, 3, g.cfg.gnoll_loot) > g.cfg.gnoll_loot);
	den->alive = 0;
	df_room *hall = plain_room(&g, 3, 1, DF_HALL);
	hall->alive = 1;
	int tot2[DF_NFACES] = {[DF_STEEL] = 1, [DF_CUNNING] = 1};
	df_claim(&g, 2, tot2, false, NULL);
	CHECK_EQ(hall->act[2], 1);
	CHECK_EQ(g.pl[2].party.unbanked, 0); /* not a combat room */
}

/* Part A §7 folded into threat (B8): each denizen_step claims of a faction's
 * rooms add 1 threat there for that party, at most denizen_cap; a
 * Hierophant never angers them. */
TEST(deepfall_denizen_anger_raises_threat_capped_and_hierophants_calm)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_HIEROPHANT});
	df_room *crypt = plain_room(&g, 2, 0, DF_CRYPT); /* Revenant Court, threat 2 */
	int court = df_themes[DF_CRYPT].denizen;
	REQUIRE(court >= 0);
	CHECK_EQ(df_threat_for(&g, 0, crypt), 2);
	g.pl[0].party.anger[court] = (uint8_t)g.cfg.denizen_step;
	CHECK_EQ(df_threat_for(&g, 0, crypt), 3);
	g.pl[0].party.anger[court] = 200;
	CHECK_EQ(df_threat_for(&g, 0, crypt), 2 + g.cfg.denizen_cap);
	g.pl[1].party.anger[court] = 200;
	CHECK_EQ(df_threat_for(&g, 1, crypt), 2);
	/* a claim angers the faction, a Hierophant's does not */
	for (int r = 0; r < g.cfg.rooms; r++)
		df_room_at(&g, 2, r)->alive = 0;
	crypt->alive = 1;
	g.pl[0].party.anger[court] = 0;
	g.pl[1].party.anger[court] = 0;
	for (int s = 0; s < 2; s++) {
		g.pl[s].party.floor = 2;
		int tot[DF_NFACES] = {[DF_STEEL] = 2, [DF_CUNNING] = 1};
		df_claim(&g, s, tot, false, NULL);
		CHECK_EQ(crypt->act[s], 1);
	}
	CHECK_EQ(g.pl[0].party.anger[court], 1);
	CHECK_EQ(g.pl[1].party.anger[court], 0);
}

/* max_rounds (CONFIG.md): from that round on a floor falls every round even
 * when the Maw is too slow, so every config ends. */
TEST(deepfall_past_max_rounds_a_floor_falls_every_round)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.cfg.maw_base = 0;
	g.cfg.maw_accel = 1;
	g.round = g.cfg.max_rounds - 1;
	int f = g.frontier;
	df_maw_advance(&g, NULL);
	CHECK_EQ(g.frontier, f);
	g.round = g.cfg.max_rounds;
	df_maw_advance(&g, NULL);
	CHECK_EQ(g.frontier, f - 1);
	CHECK(g.accum < 1000); /* the slow Maw's own progress is kept */
}

/* v2 §4: worthy_held_bonus is a separate knob (0 by default, no double
 * count); set, it adds that share of the consumed rooms' value. */
TEST(deepfall_worthy_held_bonus_knob_adds_a_share_of_the_consumed_rooms)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.cfg.worthy_held_bonus = 500; /* half */
	int f = g.frontier;
	df_party *pa = &g.pl[0].party;
	pa->floor = pa->deepest = (uint8_t)f;
	pa->last_stand = 1;
	df_room *a = plain_room(&g, f, 0, DF_VAULT);
	df_room *b = plain_room(&g, f - 1, 1, DF_HALL);
	a->value = 20;
	b->value = 7;
	a->act[0] = b->act[0] = 1;
	df_collapse(&g, f, NULL);
	CHECK_EQ(g.pl[0].glory, g.cfg.worthy_factor * f + (20 + 7) / 2);
}

/* CONFIG.md "Claims": when the party already holds every live room of its
 * floor, the turn's Steel and Cunning reinforce its weakest marker there (a
 * live bid for the majority). */
TEST(deepfall_claim_reinforces_the_weakest_held_room_when_all_are_held)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.pl[0].party.floor = 2;
	for (int r = 0; r < g.cfg.rooms; r++) {
		df_room *rm = plain_room(&g, 2, r, DF_STONE);
		rm->alive = r < 2;
		rm->act[0] = 0;
	}
	df_room_at(&g, 2, 0)->act[0] = 5;
	df_room_at(&g, 2, 1)->act[0] = 2;
	int tot[DF_NFACES] = {[DF_STEEL] = 3, [DF_CUNNING] = 1};
	game_events evs = {0};
	df_claim(&g, 0, tot, false, &evs);
	CHECK_EQ(df_room_at(&g, 2, 1)->act[0], 2 + 3 + 1);
	CHECK_EQ(df_room_at(&g, 2, 0)->act[0], 5);
	CHECK_EQ(tot[DF_STEEL] + tot[DF_CUNNING], 0);
	CHECK_EQ(g.pl[0].claims, 0); /* not a new claim */
	REQUIRE(evs.len == 1);
	CHECK_EQ(evs.v[0].type, DF_EV_CLAIM);
	CHECK_EQ(evs.v[0].b, 6);
	CHECK_EQ(evs.v[0].c, 0); /* no claim loot for a reinforcement */
	game_events_free(&evs);
}
