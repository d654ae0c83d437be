/*
 * test_deepfall.c — DEEPFALL's turn, exits and Maw, one test per rule of
 * docs/rules/deepfall.md (each test names its id): dice and bags, a turn's
 * symbols, Dread and Setbacks, Lineage/Calling hooks, claims and assault
 * progress, loot, the exits, the Maw, collapses and scoring. Each test
 * builds a game from a seed, then sets up the exact position it needs
 * (deepfall_setup.h). The round engine, determinism, the bots and the
 * config are in test_deepfall_round.c.
 * Long (1,000 lines) on purpose: one test per rule, each setting up its
 * whole position, so that a test reads (and fails) alone.
 */
#include <string.h>

#include "../test.h"
#include "deepfall_setup.h"

/* ---- content and numbers ---------------------------------------------- */

TEST(deepfall_DF24_recruit_die_has_one_of_each_face)
{
	int seen[DF_NFACES] = {0};
	for (int k = 0; k < 6; k++)
		seen[df_dice[DF_DIE_RECRUIT].face[k]]++;
	for (int f = 0; f < DF_NFACES; f++)
		CHECK_EQ(seen[f], 1);
}

TEST(deepfall_DF24_every_die_counts_its_faces_as_its_sides_show)
{
	for (int d = 0; d < DF_NDIE; d++) {
		int seen[DF_NFACES] = {0}, sides = 0;
		for (int k = 0; k < 6; k++)
			seen[df_dice[d].face[k]]++;
		for (int f = 0; f < DF_NFACES; f++) {
			CHECK_EQ(df_dice[d].count[f], seen[f]);
			sides += df_dice[d].count[f];
		}
		CHECK_EQ(sides, 6);
	}
}

TEST(deepfall_DF3_DF11_room_glory_is_sublinear_in_depth_and_whole)
{
	df_config c = cfg_default();
	c.depth_coeff = 500; /* base * (1 + 0.5 * (depth - 1)) */
	CHECK_EQ(df_room_value(&c, DF_VAULT, 1), 6);
	CHECK_EQ(df_room_value(&c, DF_VAULT, 6), 21); /* 6 * 3.5 */
	c.depth_coeff = 1000;                         /* base * depth */
	CHECK_EQ(df_room_value(&c, DF_VAULT, 6), 36);
}

TEST(deepfall_DF25_bag_draws_without_replacement_then_reshuffles_discard)
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

TEST(deepfall_DF22_golem_born_cancels_prospector_hand_bonus)
{
	df_game g;
	setup(&g, 4, (int[]){DF_GOLEM, DF_GOLEM, DF_DVERGAR, DF_WISP},
	      (int[]){DF_PROSPECTOR, DF_REAVER, DF_PROSPECTOR, DF_REAVER});
	int h = g.cfg.hand_size;
	CHECK_EQ(df_hand_size(&g, 0), h);     /* -1 + 1 */
	CHECK_EQ(df_hand_size(&g, 1), h - 1); /* Golem-born's cost */
	CHECK_EQ(df_hand_size(&g, 2), h + 1); /* Prospector's bigger hand */
	CHECK_EQ(df_hand_size(&g, 3), h + 1); /* Wisp's nimble hand */
}

TEST(deepfall_DF21_moves_by_lineage_sylphid_plus_one)
{
	df_game g;
	setup(&g, 3, (int[]){DF_DVERGAR, DF_SYLPHID, DF_GNOLL},
	      (int[]){DF_REAVER, DF_REAVER, DF_REAVER});
	CHECK_EQ(df_moves(&g, 0), g.cfg.base_moves - 1);
	CHECK_EQ(df_moves(&g, 1), g.cfg.base_moves + 1);
	CHECK_EQ(df_moves(&g, 2), g.cfg.base_moves);
}

/* ---- a turn's symbols, Dread and Setbacks ------------------------------ */

TEST(deepfall_DF43_setback_takes_the_last_die_drawn_to_the_wound_pile)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	df_party *pa = &g.pl[0].party;
	pa->hand[0] = DF_DIE_RECRUIT;
	pa->hand[1] = DF_DIE_WARRIOR;
	pa->n_hand = 2;
	pa->unbanked = 10;
	df_setback(&g, 0, NULL);
	CHECK_EQ(pa->n_hand, 1);
	CHECK_EQ(pa->n_wound, 1);
	CHECK_EQ(pa->wound[0], DF_DIE_WARRIOR);
	CHECK_EQ(pa->unbanked, 10);
	CHECK_EQ(g.pl[0].setbacks, 1);
}

TEST(deepfall_DF43_setback_from_a_minimal_bag_takes_loot)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	df_party *pa = &g.pl[0].party;
	pa->n_draw = (uint8_t)(g.cfg.min_bag - 1); /* plus one in hand = min_bag */
	pa->n_disc = 0;
	pa->hand[0] = DF_DIE_RECRUIT;
	pa->n_hand = 1;
	pa->unbanked = 10;
	df_setback(&g, 0, NULL);
	CHECK_EQ(pa->n_hand, 1);
	CHECK_EQ(pa->n_wound, 0);
	CHECK_EQ(pa->unbanked, 10 - g.cfg.setback_loot);
}

TEST(deepfall_DF43_wisp_setback_hits_double_golem_shrugs_every_other)
{
	df_game g;
	setup(&g, 2, (int[]){DF_WISP, DF_GOLEM}, (int[]){DF_REAVER, DF_REAVER});
	for (int s = 0; s < 2; s++)
		g.pl[s].party.n_hand = 4;
	df_setback(&g, 0, NULL);
	CHECK_EQ(g.pl[0].party.n_hand, 2);
	CHECK_EQ(g.pl[0].party.n_wound, 2);
	df_setback(&g, 1, NULL); /* first: shrugged off */
	CHECK_EQ(g.pl[1].party.n_hand, 4);
	CHECK_EQ(g.pl[1].party.n_wound, 0);
	df_setback(&g, 1, NULL); /* second: a die */
	CHECK_EQ(g.pl[1].party.n_hand, 3);
	CHECK_EQ(g.pl[1].party.n_wound, 1);
}

TEST(deepfall_DF42_faith_cancels_dread_and_each_threshold_is_a_setback)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	g.cfg.dread_threshold = 2;
	set_turn(&g, 0, 1, 0, 0, 1, 0, 0, 5);
	df_totals t;
	df_turn_totals(&g, 0, &t);
	CHECK_EQ(t.sym[DF_FAITH], 0);
	CHECK_EQ(t.sym[DF_DREAD], 4);
	CHECK_EQ(t.cancelled, 1);
	CHECK_EQ(t.setbacks, 2); /* 4 standing / threshold 2 */
	g.pl[0].party.n_hand = 6;
	df_resolve(&g, 0, (df_act){1, 0, DF_PERSIST}, 0, NULL);
	CHECK_EQ(g.pl[0].setbacks, 2);
	CHECK_EQ(g.pl[0].party.n_wound, 2);
}

TEST(deepfall_DF42_revenant_turns_dread_into_mettle)
{
	df_game g;
	setup(&g, 1, (int[]){DF_REVENANT}, (int[]){DF_REAVER});
	g.cfg.revenant_convert = 2;
	g.cfg.dread_threshold = 1;
	set_turn(&g, 0, 1, 0, 0, 0, 0, 1, 2);
	df_totals t;
	df_turn_totals(&g, 0, &t);
	CHECK_EQ(t.sym[DF_METTLE], 3);
	CHECK_EQ(t.sym[DF_DREAD], 0);
	CHECK_EQ(t.to_mettle, 2);
	CHECK_EQ(t.setbacks, 0);
}

TEST(deepfall_DF42_hierophant_cancels_one_more_dread)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_HIEROPHANT});
	g.cfg.dread_threshold = 1;
	set_turn(&g, 0, 1, 0, 0, 0, 0, 0, 1);
	df_totals t;
	df_turn_totals(&g, 0, &t);
	CHECK_EQ(t.setbacks, 0);
	CHECK_EQ(t.cancelled, 1);
}

TEST(deepfall_DF40_each_pressed_hand_adds_press_dread)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	g.cfg.press_dread = 2;
	g.cfg.dread_threshold = 3;
	set_turn(&g, 0, 1, 0, 0, 0, 0, 0, 0);
	df_totals t;
	df_turn_totals(&g, 0, &t);
	CHECK_EQ(t.rolled_dread, 0);
	set_turn(&g, 0, 4, 0, 0, 0, 0, 0, 1); /* three presses */
	df_turn_totals(&g, 0, &t);
	CHECK_EQ(t.rolled_dread, 1 + 3 * 2);
	CHECK_EQ(t.setbacks, 2);
}

TEST(deepfall_DF40_lineage_costs_take_one_symbol_each_turn_never_below_zero)
{
	df_game g;
	setup(&g, 4, (int[]){DF_SYLPHID, DF_GNOLL, DF_REVENANT, DF_DVERGAR},
	      (int[]){DF_REAVER, DF_REAVER, DF_REAVER, DF_REAVER});
	for (int s = 0; s < 4; s++)
		set_turn(&g, s, 1, 2, 2, 2, 1, 1, 0);
	df_totals t[4];
	for (int s = 0; s < 4; s++)
		df_turn_totals(&g, s, &t[s]);
	CHECK_EQ(t[0].sym[DF_STEEL], 1);
	CHECK_EQ(t[1].sym[DF_CUNNING], 1);
	CHECK_EQ(t[2].sym[DF_FAITH], 1);
	CHECK_EQ(t[3].sym[DF_STEEL] + t[3].sym[DF_CUNNING] + t[3].sym[DF_FAITH], 6);
	set_turn(&g, 0, 1, 0, 1, 1, 0, 0, 0);
	df_turn_totals(&g, 0, &t[0]);
	CHECK_EQ(t[0].sym[DF_STEEL], 0);
}

TEST(deepfall_DF41_held_rooms_produce_their_symbol_when_it_is_rolled)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	df_room *forge = plain_room(&g, 2, 0, DF_FORGE); /* produces Steel */
	forge->act[0] = 1;
	df_mark_claim(&g.pl[0].party, (2 - 1) * g.cfg.rooms + 0);
	set_turn(&g, 0, 1, 1, 1, 0, 0, 0, 0);
	df_totals t;
	df_turn_totals(&g, 0, &t);
	CHECK_EQ(t.sym[DF_STEEL], 1 + g.cfg.production);
	CHECK_EQ(t.sym[DF_CUNNING], 1);
	set_turn(&g, 0, 1, 0, 1, 0, 0, 0, 0); /* no Steel rolled: nothing */
	df_turn_totals(&g, 0, &t);
	CHECK_EQ(t.sym[DF_STEEL], 0);
}

/* ---- claims ------------------------------------------------------------ */

TEST(deepfall_DF45_dvergar_ignores_threat)
{
	df_game g;
	setup(&g, 2, (int[]){DF_DVERGAR, DF_GNOLL}, (int[]){DF_WARDEN, DF_WARDEN});
	for (int s = 0; s < 2; s++)
		g.pl[s].party.floor = 2;
	empty_floor(&g, 2);
	df_room *den = plain_room(&g, 2, 0, DF_DEN); /* threat 3, lock 0 */
	CHECK_EQ(df_threat_for(&g, 0, den), 0);
	CHECK_EQ(df_threat_for(&g, 1, den), 3);
	int tot[DF_NFACES] = {0};
	df_claim(&g, 0, tot, false, NULL); /* no Steel at all */
	CHECK_EQ(den->act[0], 1);
	int tot2[DF_NFACES] = {[DF_STEEL] = 2};
	df_claim(&g, 1, tot2, false, NULL); /* the Gnoll falls short */
	CHECK_EQ(den->act[1], 0);
	CHECK_EQ(den->prog_s[1], 2);
}

TEST(deepfall_DF46_DF47_claim_strength_is_one_plus_all_invested_with_progress)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_WARDEN});
	g.pl[0].party.floor = 3;
	empty_floor(&g, 3);
	df_room *forge = plain_room(&g, 3, 1, DF_FORGE); /* threat 4, lock 1 */
	int tot[DF_NFACES] = {[DF_STEEL] = 3};
	df_claim(&g, 0, tot, false, NULL);
	CHECK_EQ(forge->act[0], 0);
	CHECK_EQ(forge->prog_s[0], 3); /* a near miss is kept */
	CHECK_EQ(tot[DF_STEEL], 0);
	int tot2[DF_NFACES] = {[DF_STEEL] = 3, [DF_CUNNING] = 2};
	df_claim(&g, 0, tot2, false, NULL);
	CHECK_EQ(forge->act[0], 1 + 3 + 2 + 3); /* this turn's 5 and the 3 kept */
	CHECK_EQ(forge->prog_s[0], 0);
	CHECK_EQ(forge->claimed, 1u);
	CHECK_EQ(g.pl[0].claims, 1);
}

TEST(deepfall_DF46_strength_surplus_knob_counts_only_beyond_the_need)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_WARDEN});
	g.cfg.strength_surplus = 1;
	g.pl[0].party.floor = 3;
	empty_floor(&g, 3);
	df_room *forge = plain_room(&g, 3, 1, DF_FORGE); /* threat 4, lock 1 */
	int tot[DF_NFACES] = {[DF_STEEL] = 6, [DF_CUNNING] = 2};
	df_claim(&g, 0, tot, false, NULL);
	CHECK_EQ(forge->act[0], 1 + (6 - 4) + (2 - 1));
}

TEST(deepfall_DF45_vault_needs_the_trinity_unless_lorekeeper)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_LOREKEEPER});
	for (int s = 0; s < 2; s++)
		g.pl[s].party.floor = 5;
	empty_floor(&g, 5);
	df_room *v = plain_room(&g, 5, 0, DF_VAULT); /* threat 2, lock 3 */
	int tot[DF_NFACES] = {[DF_STEEL] = 2, [DF_CUNNING] = 3};
	df_claim(&g, 0, tot, false, NULL);
	CHECK_EQ(v->act[0], 0);
	int tot2[DF_NFACES] = {[DF_STEEL] = 2, [DF_CUNNING] = 3};
	df_claim(&g, 0, tot2, true, NULL);
	/* The first try waited as assault progress and counts too. */
	CHECK_EQ(v->act[0], 1 + 5 + 5);
	int tot3[DF_NFACES] = {[DF_STEEL] = 2, [DF_CUNNING] = 2}; /* +1 at locks */
	df_claim(&g, 1, tot3, false, NULL);
	CHECK_EQ(v->act[1], 1 + 4);
	CHECK_EQ(v->claimed, 3u); /* contested: two seats claimed it */
}

TEST(deepfall_DF47_claim_reinforces_the_weakest_held_room_when_all_are_held)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.pl[0].party.floor = 2;
	empty_floor(&g, 2);
	plain_room(&g, 2, 0, DF_STONE)->act[0] = 5;
	plain_room(&g, 2, 1, DF_STONE)->act[0] = 2;
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

TEST(deepfall_DF48_reaver_and_gnoll_claim_loot_depth_scaled)
{
	df_game g;
	setup(&g, 3, (int[]){DF_DVERGAR, DF_GNOLL, DF_GNOLL},
	      (int[]){DF_REAVER, DF_WARDEN, DF_WARDEN});
	g.cfg.depth_coeff = 500;
	empty_floor(&g, 3);
	df_room *den = plain_room(&g, 3, 0, DF_DEN);
	for (int s = 0; s < 3; s++)
		g.pl[s].party.floor = 3;
	int tot[DF_NFACES] = {0};
	df_claim(&g, 0, tot, false, NULL); /* the Dvergar smashes in */
	CHECK_EQ(g.pl[0].party.unbanked, df_depth_scale(&g.cfg, 3, g.cfg.reaver_loot));
	int tot1[DF_NFACES] = {[DF_STEEL] = 3};
	df_claim(&g, 1, tot1, false, NULL);
	CHECK_EQ(den->act[1], 1 + 3);
	CHECK_EQ(g.pl[1].party.unbanked, df_depth_scale(&g.cfg, 3, g.cfg.gnoll_loot));
	CHECK(df_depth_scale(&g.cfg, 3, g.cfg.gnoll_loot) > g.cfg.gnoll_loot);
	den->alive = 0;
	df_room *hall = plain_room(&g, 3, 1, DF_HALL);
	int tot2[DF_NFACES] = {[DF_STEEL] = 1, [DF_CUNNING] = 1};
	df_claim(&g, 2, tot2, false, NULL);
	CHECK_EQ(hall->act[2], 1 + 2);
	CHECK_EQ(g.pl[2].party.unbanked, 0); /* not a combat room */
}

TEST(deepfall_DF55_denizen_anger_raises_threat_capped_and_hierophants_calm)
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
	empty_floor(&g, 2);
	crypt->alive = 1;
	g.pl[0].party.anger[court] = 0;
	g.pl[1].party.anger[court] = 0;
	for (int s = 0; s < 2; s++) {
		g.pl[s].party.floor = 2;
		int tot[DF_NFACES] = {[DF_STEEL] = 2, [DF_CUNNING] = 1};
		df_claim(&g, s, tot, false, NULL);
		CHECK(crypt->act[s] > 0);
	}
	CHECK_EQ(g.pl[0].party.anger[court], 1);
	CHECK_EQ(g.pl[1].party.anger[court], 0);
}

/* ---- moving, recruiting, the resolution order -------------------------- */

TEST(deepfall_DF44_free_steps_then_mettle_then_cunning)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.cfg.base_moves = 1; /* one free step */
	g.cfg.move_cost = 2;
	df_party *pa = &g.pl[0].party;
	pa->floor = 1;
	set_turn(&g, 0, 1, 0, 3, 0, 0, 1, 0); /* 1 Mettle + 3 Cunning (-1 Gnoll) */
	game_events evs = {0};
	df_resolve(&g, 0, (df_act){5, 0, DF_PERSIST}, 0, &evs);
	/* free to 2; 1 Mettle + 1 Cunning to 3; 2 Cunning... only 1 left: stop */
	CHECK_EQ(pa->floor, 3);
	CHECK_EQ(pa->deepest, 3);
	bool moved = false;
	for (size_t i = 0; i < evs.len; i++)
		if (evs.v[i].type == DF_EV_MOVE) {
			CHECK_EQ(evs.v[i].a, 1);
			CHECK_EQ(evs.v[i].b, 3);
			CHECK_EQ(evs.v[i].c, 1); /* one step bought */
			moved = true;
		}
	CHECK(moved);
	game_events_free(&evs);
}

TEST(deepfall_DF49_bag_max_counts_wounded_dice)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	df_party *pa = &g.pl[0].party;
	g.cfg.bag_max = df_dice_owned(pa) + 1;
	g.cfg.recruit_cost = 4;
	set_turn(&g, 0, 1, 0, 0, 0, 0, 9, 0);
	df_resolve(&g, 0, (df_act){pa->floor, 1, DF_PERSIST}, 0, NULL);
	CHECK_EQ(df_dice_owned(pa), g.cfg.bag_max); /* one recruit */
	pa->wound[pa->n_wound++] = pa->draw[--pa->n_draw]; /* a die wounded */
	set_turn(&g, 0, 1, 0, 0, 0, 0, 9, 0);
	df_resolve(&g, 0, (df_act){pa->floor, 1, DF_PERSIST}, 0, NULL);
	CHECK_EQ(df_dice_owned(pa), g.cfg.bag_max); /* the wounded one counts */
}

TEST(deepfall_DF49_hierophant_heals_then_spare_faith_pays_the_recruit)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_HIEROPHANT});
	df_party *pa = &g.pl[0].party;
	pa->wound[pa->n_wound++] = DF_DIE_WARRIOR;
	g.cfg.recruit_cost = 4;
	set_turn(&g, 0, 1, 0, 0, 4, 0, 1, 0); /* Faith 4: heal 1, 3 + 1 Mettle */
	int owned = df_dice_owned(pa);
	df_resolve(&g, 0, (df_act){pa->floor, 1, DF_PERSIST}, 0, NULL);
	CHECK_EQ(pa->n_wound, 0);
	CHECK_EQ(df_dice_owned(pa), owned + 1); /* recruited with 3 Faith + 1 */
}

TEST(deepfall_DF34_DF52_resolution_discards_the_hand_and_clears_the_turn)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	df_party *pa = &g.pl[0].party;
	uint8_t d;
	for (int i = 0; i < 4; i++)
		if (df_bag_draw(&g, pa, &d))
			pa->hand[pa->n_hand++] = d;
	set_turn(&g, 0, 1, 0, 0, 0, 0, 0, 0);
	int disc = pa->n_disc;
	df_resolve(&g, 0, (df_act){pa->floor, 0, DF_PERSIST}, 0, NULL);
	CHECK_EQ(pa->n_disc, disc + 4);
	CHECK_EQ(pa->n_hand, 0);
	CHECK_EQ(pa->hands, 0);
	CHECK_EQ(pa->rolled[DF_STEEL] + pa->rolled[DF_DREAD], 0);
	CHECK(pa->active); /* persisted */
}

/* ---- exits ------------------------------------------------------------- */

TEST(deepfall_DF50_DF53_cash_out_banks_loot_and_dividend_and_leaves_fallen_markers)
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
	df_cash_out(&g, 0, false, NULL);
	CHECK_EQ(g.pl[0].glory, 7 + 2 * (5 - 2)); /* dividend for floors delved */
	CHECK_EQ(rm->act[0], 0);
	CHECK_EQ(rm->fallen[0], 3); /* Fallen: counted, never doubled */
	CHECK_EQ(df_room_strength(&g, rm, 0), 3);
	CHECK(!pa->active);
	CHECK_EQ(g.pl[0].cash_outs, 1);
	CHECK_EQ(g.pl[0].cash_forced, 0);
	CHECK_EQ(g.pl[0].cash_depth[0], 5);
}

TEST(deepfall_DF50_DF53_fallen_strength_zero_keeps_one_and_dividend_formulas)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.cfg.fallen_strength = 0;
	df_room *rm = plain_room(&g, 2, 0, DF_HALL);
	rm->act[0] = 4;
	df_cash_out(&g, 0, false, NULL);
	CHECK_EQ(rm->fallen[0], 1);
	g.cfg.dividend_delved = 0; /* deepest x factor */
	df_draft(&g, 0, NULL);
	g.pl[0].party.deepest = 4;
	g.pl[0].party.entry = 3;
	CHECK_EQ(df_dividend(&g, 0), g.cfg.cash_dividend * 4);
	g.cfg.dividend_delved = 1;
	CHECK_EQ(df_dividend(&g, 0), g.cfg.cash_dividend * 1);
}

TEST(deepfall_DF51_last_stand_is_offered_only_when_free_or_paid_and_paid_first)
{
	df_game g;
	setup(&g, 3, (int[]){DF_GNOLL, DF_GNOLL, DF_GNOLL},
	      (int[]){DF_REAVER, DF_WARDANCER, DF_REAVER});
	g.cfg.last_stand_cost = 2;
	set_turn(&g, 0, 1, 0, 0, 0, 0, 1, 0); /* 1 Mettle: not enough */
	set_turn(&g, 1, 1, 0, 0, 0, 0, 0, 0); /* Wardancer: free */
	set_turn(&g, 2, 1, 0, 0, 0, 0, 0, 0);
	CHECK(!df_stand_offered(&g, 0));
	CHECK(df_stand_offered(&g, 1));
	CHECK(!df_stand_offered(&g, 2));
	plain_room(&g, 2, 0, DF_VAULT)->act[2] = 1; /* a Vault held: free */
	df_mark_claim(&g.pl[2].party, (2 - 1) * g.cfg.rooms + 0);
	CHECK(df_holds_stand_room(&g, 2));
	CHECK(df_stand_offered(&g, 2));
	set_turn(&g, 0, 1, 0, 0, 0, 0, 2, 0);
	CHECK(df_stand_offered(&g, 0));
	/* Paid before the recruit: 2 Mettle buy the stand, none is left. */
	g.cfg.recruit_cost = 2;
	int owned = df_dice_owned(&g.pl[0].party);
	game_events evs = {0};
	df_resolve(&g, 0, (df_act){g.pl[0].party.floor, 1, DF_LAST_STAND}, 0, &evs);
	CHECK(g.pl[0].party.last_stand);
	CHECK_EQ(df_dice_owned(&g.pl[0].party), owned);
	CHECK(evs.len >= 1 && evs.v[0].type == DF_EV_LAST_STAND && evs.v[0].a == 2);
	CHECK(!df_stand_offered(&g, 0)); /* never twice */
	game_events_free(&evs);
}

TEST(deepfall_DF54_a_cash_out_is_forced_when_the_party_cannot_escape_the_maw)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	g.cfg.base_moves = 1; /* the Dvergar: no free step */
	g.cfg.move_cost = 2;
	df_party *pa = &g.pl[0].party;
	pa->floor = (uint8_t)g.frontier;
	set_turn(&g, 0, 1, 0, 0, 0, 0, 1, 0); /* 1 Mettle: no step bought */
	df_totals t;
	df_turn_totals(&g, 0, &t);
	CHECK(!df_must_leave(&g, 0, &t, 0)); /* nothing falls */
	CHECK(df_must_leave(&g, 0, &t, 1));
	set_turn(&g, 0, 1, 0, 0, 0, 0, 2, 0); /* 2 Mettle buy the step up */
	df_turn_totals(&g, 0, &t);
	CHECK(!df_must_leave(&g, 0, &t, 1));
	CHECK(df_must_leave(&g, 0, &t, 2)); /* two floors fall: one step short */
	pa->floor = 1;
	g.frontier = 1;
	CHECK(df_must_leave(&g, 0, &t, 1)); /* the last round: always */
	set_turn(&g, 0, 1, 0, 0, 0, 0, 0, 0);
	df_resolve(&g, 0, (df_act){1, 0, DF_CASH_OUT}, 1, NULL);
	CHECK_EQ(g.pl[0].cash_outs, 1);
	CHECK_EQ(g.pl[0].cash_forced, 1);
}

/* ---- the Maw and scoring ------------------------------------------------ */

TEST(deepfall_DF64_collapse_scores_majority_ties_split_rounding_down)
{
	df_game g;
	setup(&g, 3, (int[]){DF_GNOLL, DF_GNOLL, DF_GNOLL},
	      (int[]){DF_REAVER, DF_REAVER, DF_REAVER});
	g.cfg.held_rise = 0; /* DF56 aside: a room pays its whole value */
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
	CHECK_EQ(g.collapse_glory[f], 45);
	CHECK_EQ(g.frontier, f - 1);
	CHECK(!a->alive && !b->alive);
}

TEST(deepfall_DF64_warden_markers_count_double)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_WARDEN, DF_REAVER});
	g.cfg.held_rise = 0; /* DF56 aside: a room pays its whole value */
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

TEST(deepfall_DF63_DF65_worthy_end_pays_burst_first_and_denies_its_rooms)
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
	CHECK_EQ(g.collapse_glory[f], g.cfg.worthy_factor * f);
}

TEST(deepfall_DF65_wardancer_worthy_end_is_x1_5)
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

TEST(deepfall_DF65_worthy_end_pays_the_deepest_floor_reached_not_the_floor_taken)
{
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

TEST(deepfall_DF65_worthy_held_bonus_knob_adds_a_share_of_the_consumed_rooms)
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

TEST(deepfall_DF66_taken_without_last_stand_loses_loot_and_markers)
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

TEST(deepfall_DF67_value_of_unclaimed_rooms_rises_to_the_floor_above)
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

/* The live rooms of floor f summed: their value and their risen plunder. */
static int floor_value_sum(df_game *g, int f, int *risen)
{
	int v = 0, k = 0;
	for (int r = 0; r < g->cfg.rooms; r++) {
		df_room *rm = df_room_at(g, f, r);
		if (rm->alive) {
			v += rm->value;
			k += rm->risen;
		}
	}
	if (risen)
		*risen = k;
	return v;
}

TEST(deepfall_DF56_a_held_rooms_share_rises_and_the_last_collapse_pays_all)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_REAVER});
	g.cfg.held_rise = 750;
	g.cfg.value_rise = 1000;
	g.cfg.rise_extra = 0;
	g.cfg.collapse_ramp = 0;
	g.pl[0].party.floor = g.pl[1].party.floor = 1;
	int f = 3;
	g.frontier = f;
	df_room *a = plain_room(&g, f, 0, DF_VAULT);
	a->value = 21;
	a->act[0] = 2;
	a->act[1] = 2; /* tied: each takes half of what the room pays */
	for (int r = 1; r < g.cfg.rooms; r++)
		df_room_at(&g, f, r)->alive = 0;
	int above = floor_value_sum(&g, f - 1, NULL);
	CHECK_EQ(df_room_pays(&g.cfg, 21, f), 21 - 21 * 750 / 1000); /* 6 */
	df_collapse(&g, f, NULL);
	CHECK_EQ(g.pl[0].glory, 3);
	CHECK_EQ(g.pl[1].glory, 3);
	int risen;
	CHECK_EQ(floor_value_sum(&g, f - 1, &risen), above + 15); /* 21 * 0.75 */
	CHECK_EQ(risen, 15);
	/* Floor 1, the last collapse: nothing rises, the room pays it all. */
	df_collapse(&g, 2, NULL);
	df_room *top = df_room_at(&g, 1, 1);
	top->value = 40;
	top->act[0] = 1;
	int before = g.pl[0].glory;
	for (int r = 0; r < g.cfg.rooms; r++)
		if (r != 1)
			df_room_at(&g, 1, r)->alive = 0;
	CHECK_EQ(df_room_pays(&g.cfg, 40, 1), 40);
	df_collapse(&g, 1, NULL);
	CHECK_EQ(g.pl[0].glory - before, 40);
}

TEST(deepfall_DF57_plunder_flees_a_worthy_end_to_its_floors_rooms_or_waits)
{
	for (int flees = 0; flees <= 1; flees++) {
		df_game g;
		setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_REAVER});
		g.cfg.plunder_flees = flees;
		g.cfg.value_rise = 1000;
		g.cfg.held_rise = 0;
		int f = g.frontier;
		df_party *pa = &g.pl[0].party;
		pa->floor = pa->deepest = (uint8_t)f;
		pa->last_stand = 1;
		g.pl[1].party.floor = 1;
		/* Floor f: the standing party holds room 0, which carries 12 of
		 * refugee plunder; room 1 is the rival's. */
		empty_floor(&g, f);
		df_room *held = plain_room(&g, f, 0, DF_VAULT);
		df_room *rival = plain_room(&g, f, 1, DF_HALL);
		held->value = (int16_t)(held->value + 12);
		held->risen = 12;
		held->act[0] = 1;
		rival->act[1] = 1;
		/* Floor f-1: a held room with 8 of plunder, the only live one. */
		empty_floor(&g, f - 1);
		df_room *up = plain_room(&g, f - 1, 2, DF_FORGE);
		up->value = (int16_t)(up->value + 8);
		up->risen = 8;
		up->act[0] = 1;
		int rival_value = rival->value;
		game_events evs = {0};
		df_collapse(&g, f, &evs);
		CHECK(!held->alive && !up->alive); /* the denial stands */
		if (flees) {
			/* 12 fled to the rival's room, which scored with it. */
			CHECK_EQ(g.pl[1].glory, df_room_pays(&g.cfg, rival_value + 12, f));
			/* 8 had no live room on f-1: it waits there... */
			int n = 0;
			for (size_t i = 0; i < evs.len; i++)
				if (evs.v[i].type == DF_EV_PLUNDER_FLED) {
					n++;
					CHECK(evs.v[i].b == 12 || evs.v[i].b == 8);
					CHECK_EQ(evs.v[i].c, evs.v[i].b == 8);
				}
			CHECK_EQ(n, 2);
			CHECK_EQ(g.pile[f - 1], 8);
			/* ...and rises with its floor's collapse (value_rise). */
			int above = floor_value_sum(&g, f - 2, NULL);
			df_collapse(&g, f - 1, NULL);
			CHECK_EQ(g.pile[f - 1], 0);
			CHECK_EQ(floor_value_sum(&g, f - 2, NULL), above + 8);
		} else {
			CHECK_EQ(g.pl[1].glory, df_room_pays(&g.cfg, rival_value, f));
			CHECK_EQ(g.pile[f - 1], 0); /* consumed with the rooms */
		}
		game_events_free(&evs);
	}
}

TEST(deepfall_DF58_rise_extra_adds_plunder_on_top_of_the_full_pay)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.cfg.held_rise = 0;
	g.cfg.rise_extra = 500;
	g.cfg.collapse_ramp = 0;
	g.pl[0].party.floor = 1;
	int f = g.frontier;
	empty_floor(&g, f);
	df_room *a = plain_room(&g, f, 0, DF_THRONE);
	a->value = 30;
	a->act[0] = 1;
	int above = floor_value_sum(&g, f - 1, NULL);
	df_collapse(&g, f, NULL);
	CHECK_EQ(g.pl[0].glory, 30);                            /* paid in full */
	CHECK_EQ(floor_value_sum(&g, f - 1, NULL), above + 15); /* and half rises */
}

TEST(deepfall_DF59_collapse_ramp_grows_majorities_with_the_floors_eaten)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.cfg.held_rise = 0;
	g.cfg.collapse_ramp = 500; /* x (1 + 0.5 x floors eaten before) */
	g.pl[0].party.floor = 1;
	int F = g.cfg.floors;
	CHECK_EQ(df_room_pays(&g.cfg, 10, F), 10);        /* the first collapse */
	CHECK_EQ(df_room_pays(&g.cfg, 10, 1), 10 + 5 * (F - 1)); /* the last */
	g.frontier = 2;
	empty_floor(&g, 2);
	df_room *a = plain_room(&g, 2, 0, DF_HALL);
	a->value = 8;
	a->act[0] = 1;
	df_collapse(&g, 2, NULL);
	CHECK_EQ(g.pl[0].glory, 8 * (1000 + 500 * (F - 2)) / 1000);
}

TEST(deepfall_DF61_one_collapse_per_round_and_the_rest_carries_over)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.pl[0].party.floor = 1;
	g.accum = 1800;
	g.round = 3;
	int speed = g.cfg.maw_base + g.cfg.maw_accel * 3;
	int f = g.frontier;
	CHECK_EQ(df_maw_falls(&g, 0, NULL), 1);
	df_maw_advance(&g, NULL);
	CHECK_EQ(g.frontier, f - 1);
	CHECK_EQ(g.accum, 1800 + speed - 1000);
	g.cfg.max_collapses = 2;
	g.accum = 2000 - speed;
	CHECK_EQ(df_maw_falls(&g, 0, NULL), 2);
	df_maw_advance(&g, NULL);
	CHECK_EQ(g.frontier, f - 3); /* with the knob raised, two fall */
}

TEST(deepfall_DF60_maw_speed_ramps_and_is_pushed_by_dread_and_presses)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.round = 5;
	g.round_dread = 7;
	g.round_press = 3;
	g.accum = 0;
	int want = g.cfg.maw_base + 5 * g.cfg.maw_accel + 7 * g.cfg.dread_push +
		   3 * g.cfg.press_push;
	int speed;
	df_maw_falls(&g, 0, &speed);
	CHECK_EQ(speed, want);
	df_maw_advance(&g, NULL);
	CHECK_EQ(g.last_speed, want);
	CHECK_EQ(g.round_dread, 0);
}

TEST(deepfall_DF62_past_max_rounds_a_floor_falls_every_round)
{
	df_game g;
	setup(&g, 1, (int[]){DF_GNOLL}, (int[]){DF_REAVER});
	g.cfg.maw_base = 0;
	g.cfg.maw_accel = 1;
	g.cfg.dread_push = 0;
	g.round = g.cfg.max_rounds - 1;
	int f = g.frontier;
	CHECK_EQ(df_maw_falls(&g, 0, NULL), 0);
	df_maw_advance(&g, NULL);
	CHECK_EQ(g.frontier, f);
	g.round = g.cfg.max_rounds;
	CHECK_EQ(df_maw_falls(&g, 0, NULL), 1);
	df_maw_advance(&g, NULL);
	CHECK_EQ(g.frontier, f - 1);
	CHECK(g.accum < 1000); /* the slow Maw's own progress is kept */
}

TEST(deepfall_DF20_DF23_drafts_and_reentry_at_max_one_frontier_minus_gap)
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
	int n = 0;
	for (int c = 0; c < DF_NCOMPANY; c++)
		n += g.pl[0].companies[c];
	CHECK_EQ(n, 3); /* every party fielded is counted by company */
}

TEST(deepfall_DF68_comeback_scales_trailing_payouts)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_REAVER});
	g.cfg.comeback_bp = 5000;
	g.pl[1].glory = 100;
	g.pl[0].glory = 50; /* 50% behind: +25% */
	CHECK_EQ(df_comeback(&g, 0, 40), 50);
	CHECK_EQ(df_comeback(&g, 1, 40), 40); /* the leader gets nothing */
}

TEST(deepfall_DF10_DF12_the_threshold_tops_the_dungeon_and_themes_follow_depth)
{
	static df_game g;
	df_config c = cfg_default();
	long deep_rich = 0, top_rich = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		df_game_init(&g, &c, 1, seed, NULL);
		CHECK_EQ(df_room_at(&g, 1, 0)->theme, DF_THRESHOLD);
		for (int f = 1; f <= c.floors; f++)
			for (int r = 0; r < c.rooms; r++) {
				int t = df_room_at(&g, f, r)->theme;
				if (f == 1 && r == 0)
					continue;
				CHECK(t != DF_THRESHOLD);
				CHECK(df_theme_weight(t, f, c.floors) > 0); /* only themes at home */
				deep_rich += f == c.floors && df_themes[t].base >= 5;
				top_rich += f == 1 && df_themes[t].base >= 5;
			}
	}
	CHECK(df_theme_weight(DF_THRONE, c.floors - 2, c.floors) == 0); /* two deepest only */
	CHECK(deep_rich > 10 * (top_rich + 1)); /* richer themes deeper */
}
