/*
 * test_deepfall_round.c — DEEPFALL's round engine and what rests on it
 * (docs/rules/deepfall.md DF30-DF36, DF4, DF70-DF75): the opening roll,
 * pressing one hand at a time with every hand seen, acting when stopping,
 * resolution once all acted, illegal choices refused with nothing changed,
 * determinism and replay, the bots deciding on what they see, the config
 * and the invariants under random legal play.
 */
#include <string.h>

#include "../test.h"
#include "deepfall_setup.h"

static game_choice act(int target, int recruit, int exit)
{
	return df_act_pack((df_act){target, recruit, exit});
}

static int count_events(const game_events *evs, int type, int seat)
{
	int n = 0;
	for (size_t i = 0; i < evs->len; i++)
		n += evs->v[i].type == type && (seat < 0 || evs->v[i].seat == seat);
	return n;
}

TEST(deepfall_DF31_every_party_rolls_its_opening_hand_in_seat_order)
{
	static df_game g;
	df_config c = cfg_default();
	game_events evs = {0};
	df_game_init(&g, &c, 3, 12, &evs);
	CHECK_EQ(df_pending(&g), 7u);
	int order[3], n = 0;
	for (size_t i = 0; i < evs.len && n < 3; i++)
		if (evs.v[i].type == DF_EV_ROLL) {
			order[n++] = evs.v[i].seat;
			CHECK_EQ(evs.v[i].b, 1); /* the first hand */
			CHECK_EQ(evs.v[i].c, df_hand_size(&g, evs.v[i].seat));
		}
	REQUIRE(n == 3);
	for (int k = 0; k < 3; k++)
		CHECK_EQ(order[k], k); /* round 1 starts at seat 0 */
	for (int s = 0; s < 3; s++) {
		CHECK_EQ(g.pl[s].party.hands, 1);
		CHECK_EQ(g.pl[s].party.n_hand, df_hand_size(&g, s));
	}
	game_events_free(&evs);
}

/* The heart of the turn: press one hand at a time, each seen before the
 * next choice; the act comes when stopping, and waits for the others. */
TEST(deepfall_DF30_DF32_DF33_DF34_press_twice_see_each_hand_then_act)
{
	static df_game g;
	df_config c = cfg_default();
	char err[160];
	game_events evs = {0};
	c.hand_size = 2; /* small hands: an 8-die bag lasts several hands */
	df_game_init(&g, &c, 2, 21, NULL);
	df_party *p0 = &g.pl[0].party, *p1 = &g.pl[1].party;
	uint8_t seen[DF_NFACES];
	memcpy(seen, p0->rolled, sizeof seen);
	/* Step 1: seat 0 presses, seat 1 stops and acts. */
	game_choice ch[DF_MAX_SEATS] = {DF_PRESS, act(1, 0, DF_PERSIST)};
	REQUIRE(df_apply(&g, ch, &evs, err, sizeof err) == GAME_OK);
	CHECK_EQ(count_events(&evs, DF_EV_ROLL, 0), 1);
	CHECK_EQ(count_events(&evs, DF_EV_ROLL, 1), 0);
	CHECK_EQ(p0->hands, 2);
	CHECK(p1->acted);
	CHECK_EQ(df_pending(&g), 1u); /* only seat 0 still rolls */
	int second = 0;
	for (int f = 0; f < DF_NFACES; f++)
		second += p0->rolled[f] - seen[f];
	CHECK_EQ(second, evs.v[0].c); /* the new hand's dice, now in the view */
	CHECK_EQ(g.round_press, 1);
	/* Seat 1 is not asked again this round. */
	game_choice bad[DF_MAX_SEATS] = {DF_PRESS, act(1, 0, DF_PERSIST)};
	CHECK_EQ(df_apply(&g, bad, NULL, err, sizeof err), GAME_ERR_NOT_PENDING);
	/* Step 2: seat 0 presses again; step 3: it stops after seeing that roll. */
	game_events_clear(&evs);
	game_choice ch2[DF_MAX_SEATS] = {DF_PRESS, GAME_NO_CHOICE};
	REQUIRE(df_apply(&g, ch2, &evs, err, sizeof err) == GAME_OK);
	CHECK_EQ(p0->hands, 3);
	CHECK_EQ(evs.v[0].type, DF_EV_ROLL);
	CHECK_EQ(evs.v[0].b, 3);
	CHECK_EQ(g.round, 1);
	game_events_clear(&evs);
	game_choice ch3[DF_MAX_SEATS] = {act(1, 0, DF_PERSIST), GAME_NO_CHOICE};
	REQUIRE(df_apply(&g, ch3, &evs, err, sizeof err) == GAME_OK);
	/* Everyone acted: the round resolved, the Maw moved, round 2 rolled. */
	CHECK_EQ(g.round, 2);
	CHECK_EQ(count_events(&evs, DF_EV_MAW, -1), 1);
	CHECK_EQ(count_events(&evs, DF_EV_ROUND, -1), 1);
	CHECK_EQ(count_events(&evs, DF_EV_ROLL, -1), 2); /* the new opening hands */
	CHECK_EQ(p0->hands, 1);
	CHECK(!p0->acted && !p1->acted);
	CHECK_EQ(g.round_press, 0);
	game_events_free(&evs);
}

TEST(deepfall_DF32_pressing_stops_at_max_press_and_at_an_empty_bag)
{
	static df_game g;
	df_config c = cfg_default();
	c.max_press = 2;
	c.hand_size = 2;
	char err[160];
	df_game_init(&g, &c, 1, 3, NULL);
	game_choice ch[DF_MAX_SEATS] = {DF_PRESS};
	REQUIRE(df_apply(&g, ch, NULL, err, sizeof err) == GAME_OK);
	REQUIRE(df_apply(&g, ch, NULL, err, sizeof err) == GAME_OK);
	CHECK_EQ(g.pl[0].party.hands, 3);
	CHECK(!df_can_press(&g, 0));
	CHECK_EQ(df_choice_check(&g, 0, DF_PRESS, err, sizeof err), GAME_ERR_ILLEGAL);
	CHECK(strstr(err, "max_press") != NULL);
	CHECK_EQ(df_apply(&g, ch, NULL, err, sizeof err), GAME_ERR_ILLEGAL);
	/* An empty bag: every die in hand, nothing to draw. */
	df_party *pa = &g.pl[0].party;
	pa->hands = 1;
	memcpy(pa->hand + pa->n_hand, pa->draw, pa->n_draw);
	pa->n_hand = (uint8_t)(pa->n_hand + pa->n_draw);
	pa->n_draw = 0;
	memcpy(pa->hand + pa->n_hand, pa->disc, pa->n_disc);
	pa->n_hand = (uint8_t)(pa->n_hand + pa->n_disc);
	pa->n_disc = 0;
	pa->draw_df = pa->disc_df = 0;
	CHECK(!df_can_press(&g, 0));
}

TEST(deepfall_DF33_DF35_DF36_an_act_is_checked_when_given)
{
	static df_game g, before;
	df_config c = cfg_default();
	char err[160];
	df_game_init(&g, &c, 3, 5, NULL);
	before = g;
	game_choice ch[DF_MAX_SEATS] = {act(1, 1, DF_PERSIST), act(1, 0, DF_CASH_OUT),
					act(g.frontier + 1, 0, DF_PERSIST)};
	CHECK_EQ(df_apply(&g, ch, NULL, err, sizeof err), GAME_ERR_ILLEGAL);
	CHECK(strstr(err, "target floor") != NULL);
	CHECK(memcmp(&g, &before, sizeof g) == 0);
	ch[2] = DF_ACT_TAG | 1 | 3 << 9; /* exit 3 */
	CHECK_EQ(df_apply(&g, ch, NULL, err, sizeof err), GAME_ERR_ILLEGAL);
	ch[2] = 1 << 12 | 1 << 11 | 1; /* a stray bit */
	CHECK_EQ(df_apply(&g, ch, NULL, err, sizeof err), GAME_ERR_ILLEGAL);
	ch[2] = 7; /* neither a press nor an act */
	CHECK_EQ(df_apply(&g, ch, NULL, err, sizeof err), GAME_ERR_ILLEGAL);
	ch[2] = GAME_NO_CHOICE;
	CHECK_EQ(df_apply(&g, ch, NULL, err, sizeof err), GAME_ERR_MISSING);
	ch[2] = act(1, 0, DF_LAST_STAND);
	if (!df_stand_offered(&g, 2)) {
		CHECK_EQ(df_apply(&g, ch, NULL, err, sizeof err), GAME_ERR_ILLEGAL);
		CHECK(strstr(err, "Last Stand") != NULL);
	}
	CHECK(memcmp(&g, &before, sizeof g) == 0);
	ch[2] = act(1, 0, DF_PERSIST);
	CHECK_EQ(df_apply(&g, ch, NULL, err, sizeof err), GAME_OK);
	CHECK_EQ(g.round, 2);
	CHECK_EQ(g.start_seat, 1); /* DF35: the first seat rotates each round */
	CHECK_EQ(g.pl[1].cash_outs, 1);
	CHECK(g.pl[1].party.active); /* DF36: a fresh party drafted */
	CHECK_EQ(g.pl[1].parties, 2);
}

TEST(deepfall_DF34_acts_resolve_in_seat_order_from_the_start_seat)
{
	static df_game g;
	df_config c = cfg_default();
	char err[128];
	game_events evs = {0};
	df_game_init(&g, &c, 3, 12, NULL);
	for (int round = 1; round <= 4 && !g.over; round++) {
		CHECK_EQ(g.start_seat, (round - 1) % 3);
		game_choice ch[DF_MAX_SEATS];
		for (int s = 0; s < 3; s++)
			ch[s] = act(g.pl[s].party.floor, 0, DF_CASH_OUT);
		game_events_clear(&evs);
		REQUIRE(df_apply(&g, ch, &evs, err, sizeof err) == GAME_OK);
		int order[3], n = 0;
		for (size_t i = 0; i < evs.len && n < 3; i++)
			if (evs.v[i].type == DF_EV_CASH_OUT)
				order[n++] = evs.v[i].seat;
		REQUIRE(n == 3);
		for (int k = 0; k < 3; k++)
			CHECK_EQ(order[k], (round - 1 + k) % 3);
	}
	game_events_free(&evs);
}

/* DF33, DF60: a party that stops early does not see the Dread others roll
 * after; the Maw counts every hand of the round. */
TEST(deepfall_DF60_presses_after_an_act_still_push_the_maw)
{
	static df_game g;
	df_config c = cfg_default();
	char err[160];
	df_game_init(&g, &c, 2, 8, NULL);
	int dread0 = g.round_dread;
	game_choice ch[DF_MAX_SEATS] = {act(1, 0, DF_PERSIST), DF_PRESS};
	game_events evs = {0};
	REQUIRE(df_apply(&g, ch, &evs, err, sizeof err) == GAME_OK);
	int added = 0;
	for (size_t i = 0; i < evs.len; i++)
		if (evs.v[i].type == DF_EV_ROLL)
			added += (evs.v[i].a >> (5 * DF_DREAD)) & 31;
	CHECK_EQ(g.round_dread, dread0 + added);
	int speed;
	df_maw_falls(&g, 0, &speed);
	CHECK_EQ(speed, c.maw_base + c.maw_accel * 1 + c.dread_push * g.round_dread +
				c.press_push * 1);
	game_events_free(&evs);
}

/* ---- determinism and replay (DF4) ------------------------------------- */

TEST(deepfall_DF4_same_seed_same_game)
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

TEST(deepfall_DF4_replay_of_the_choices_alone_reproduces_the_game)
{
	static df_game a, b;
	static game_choice log[400][DF_MAX_SEATS];
	df_config c = cfg_default();
	char err[128];
	df_game_init(&a, &c, 4, 31337, NULL);
	int n = 0;
	while (!a.over && n < 400) {
		ai_set(&a, log[n], (int[]){1, 2, 3, 0});
		REQUIRE(df_apply(&a, log[n], NULL, err, sizeof err) == GAME_OK);
		n++;
	}
	REQUIRE(a.over);
	df_game_init(&b, &c, 4, 31337, NULL);
	for (int i = 0; i < n; i++)
		REQUIRE(df_apply(&b, log[i], NULL, err, sizeof err) == GAME_OK);
	CHECK(b.over);
	CHECK(memcmp(a.rooms, b.rooms, sizeof a.rooms) == 0);
	CHECK(memcmp(a.pl, b.pl, sizeof a.pl) == 0);
	CHECK_EQ(a.winners, b.winners);
}

TEST(deepfall_DF1_DF69_game_ends_when_floor_one_collapses)
{
	static df_game g;
	play(&g, 7, NULL);
	CHECK(g.over);
	CHECK_EQ(g.frontier, 0);
	CHECK(g.winners != 0);
	int32_t best = 0;
	for (int s = 0; s < 4; s++)
		best = g.pl[s].glory > best ? g.pl[s].glory : best;
	for (int s = 0; s < 4; s++) /* most glory wins, ties share */
		CHECK_EQ(g.winners >> s & 1, g.pl[s].glory == best);
	CHECK(g.rounds_played >= g.cfg.floors); /* at most one floor a round */
	CHECK_EQ(df_pending(&g), 0u);
	for (int s = 0; s < 4; s++)
		CHECK(!g.pl[s].party.active); /* everyone left the board */
}

/* ---- the bots ------------------------------------------------------------ */

TEST(deepfall_DF70_ai_choices_are_always_legal_and_pressing_happens)
{
	static df_game g;
	df_config c = cfg_default();
	char err[128];
	long presses = 0, acts = 0;
	for (uint64_t seed = 1; seed <= 30; seed++) {
		df_game_init(&g, &c, 4, seed, NULL);
		while (!g.over) {
			game_choice ch[DF_MAX_SEATS];
			int strat[4];
			for (int s = 0; s < 4; s++)
				strat[s] = (int)((s + seed) % DF_NSTRAT);
			ai_set(&g, ch, strat);
			for (int s = 0; s < 4; s++) {
				if (ch[s] == GAME_NO_CHOICE)
					continue;
				REQUIRE(df_choice_check(&g, s, ch[s], err, sizeof err) == GAME_OK);
				presses += ch[s] == DF_PRESS;
				acts += ch[s] != DF_PRESS;
			}
			REQUIRE(df_apply(&g, ch, NULL, err, sizeof err) == GAME_OK);
		}
	}
	CHECK(presses > 0 && acts > 0);
}

/* DF71: the risk appetite reads the hands already rolled. The same party
 * with nothing standing presses; with Dread right at the next Setback it
 * stops; the cautious CashOut stops sooner than PressOn. */
TEST(deepfall_DF71_bots_press_or_stop_on_the_dread_they_see)
{
	df_game g;
	setup(&g, 2, (int[]){DF_GNOLL, DF_GNOLL}, (int[]){DF_REAVER, DF_REAVER});
	g.cfg.dread_threshold = 3;
	g.cfg.press_dread = 1; /* a press adds a Dread of its own */
	for (int s = 0; s < 2; s++)
		set_turn(&g, s, 1, 0, 0, 0, 0, 0, 0);
	CHECK_EQ(df_ai_choose(&g, 0, DF_AI_PRESSON), DF_PRESS);
	CHECK_EQ(df_ai_choose(&g, 0, DF_AI_WORTHYEND), DF_PRESS);
	set_turn(&g, 0, 1, 0, 0, 0, 0, 0, 2); /* two Dread standing, no Faith */
	CHECK(df_ai_choose(&g, 0, DF_AI_PRESSON) != DF_PRESS);
	CHECK(df_ai_choose(&g, 0, DF_AI_CASHOUT) != DF_PRESS);
	set_turn(&g, 0, 1, 5, 5, 0, 0, 0, 1); /* plenty of symbols, some Dread */
	CHECK(df_ai_choose(&g, 0, DF_AI_CASHOUT) != DF_PRESS);
}

/* DF72-DF75: a party that cannot get off the falling floor leaves by an
 * exit, whichever strategy plays it; nobody is Taken by choice. */
TEST(deepfall_DF54_DF72_DF73_DF74_DF75_bots_leave_a_floor_they_cannot_escape)
{
	df_game g;
	setup(&g, 1, (int[]){DF_DVERGAR}, (int[]){DF_REAVER});
	g.cfg.base_moves = 1; /* the Dvergar has no free step */
	g.frontier = 1;
	g.pl[0].party.floor = 1;
	g.pl[0].party.unbanked = 5;
	g.accum = 1000; /* floor 1 falls this round, for sure */
	set_turn(&g, 0, 1 + g.cfg.max_press, 0, 0, 0, 0, 0, 0); /* no press left */
	for (int st = 0; st < DF_NSTRAT; st++) {
		df_act a;
		REQUIRE(df_act_unpack(df_ai_choose(&g, 0, st), &a) == 0);
		CHECK_MSG(a.exit != DF_PERSIST, "strategy %d persists into the Maw", st);
	}
}

/* ---- the config ----------------------------------------------------------- */

TEST(deepfall_config_defaults_and_rejections)
{
	df_config c;
	char err[160];
	CHECK_EQ(df_config_parse(&c, NULL, err, sizeof err), 0);
	CHECK_EQ(c.floors, 6);
	CHECK_EQ(c.rooms, 4);
	CHECK_EQ(c.worthy_held_bonus, 0);
	CHECK_EQ(c.max_collapses, 1);
	CHECK_EQ(c.strength_surplus, 0); /* DF46: 1 + all invested by default */
	cJSON *j = cJSON_Parse("{\"floors\": 8, \"value_rise\": 0.25, \"ai\": [\"presson\"]}");
	CHECK_EQ(df_config_parse(&c, j, err, sizeof err), 0);
	CHECK_EQ(c.floors, 8);
	CHECK_EQ(c.value_rise, 250);
	CHECK_EQ(c.ai[0], DF_AI_PRESSON);
	CHECK_EQ(c.ai[1], DF_AI_BALANCED);
	cJSON_Delete(j);
	const char *bad[] = {"{\"flors\": 3}", "{\"floors\": 99}", "{\"floors\": 2.5}",
			     "{\"floors\": \"6\"}", "{\"ai\": [\"reckless\"]}", "[1]",
			     "{\"maw_base\": 0, \"maw_accel\": 0}", "{\"safe_margin\": 1}"};
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

/* ---- invariants under random legal play ----------------------------------- */

TEST(deepfall_random_legal_choices_keep_the_invariants)
{
	static df_game g;
	df_config c = cfg_default();
	char err[160];
	rng r;
	rng_seed(&r, 77, 9);
	for (uint64_t seed = 1; seed <= 40; seed++) {
		int seats = 1 + (int)(seed % DF_MAX_SEATS);
		df_game_init(&g, &c, seats, seed, NULL);
		int prev_frontier = g.frontier, steps = 0;
		while (!g.over) {
			game_choice ch[DF_MAX_SEATS];
			uint32_t p = df_pending(&g);
			REQUIRE(p != 0);
			for (int s = 0; s < seats; s++) {
				ch[s] = GAME_NO_CHOICE;
				if (!(p >> s & 1))
					continue;
				if (df_can_press(&g, s) && rng_below(&r, 2)) {
					ch[s] = DF_PRESS;
					continue;
				}
				df_act a = {1 + (int)rng_below(&r, (uint32_t)g.frontier),
					    (int)rng_below(&r, 2), (int)rng_below(&r, DF_NEXIT)};
				if (a.exit == DF_LAST_STAND && !df_stand_offered(&g, s))
					a.exit = DF_PERSIST;
				ch[s] = df_act_pack(a);
			}
			REQUIRE(df_apply(&g, ch, NULL, err, sizeof err) == GAME_OK);
			REQUIRE(++steps < 2000);
			/* at most one floor a round; nothing lives below the frontier */
			CHECK(g.frontier == prev_frontier || g.frontier == prev_frontier - 1);
			prev_frontier = g.frontier;
			for (int i = g.frontier * c.rooms; i < c.floors * c.rooms; i++)
				CHECK(!g.rooms[i].alive);
			for (int s = 0; s < seats; s++) {
				const df_player *pl = &g.pl[s];
				const df_party *pa = &pl->party;
				int32_t sum = pl->src[DF_SRC_CASH] + pl->src[DF_SRC_PRESS] +
					      pl->src[DF_SRC_WORTHY];
				CHECK_EQ(pl->glory, sum);
				CHECK(pl->glory >= 0);
				CHECK(df_dice_owned(pa) <= c.bag_max);
				CHECK(pa->hands <= 1 + c.max_press);
				if (!g.over) {
					CHECK(pa->active); /* every seat has a party */
					CHECK(pa->floor >= 1);
					CHECK(pa->floor <= g.frontier);
					CHECK(pa->unbanked >= 0);
				}
				/* what the rules keep for speed is what they would
				 * work out afresh: the turn's totals, the piles'
				 * Dread and Faith, the floors' richest room */
				df_totals t;
				df_turn_totals(&g, s, &t);
				for (int f = 0; f < DF_NFACES; f++)
					CHECK_EQ(t.sym[f], pa->tot.sym[f]);
				CHECK_EQ(t.rolled_dread, pa->tot.rolled_dread);
				CHECK_EQ(t.cancelled, pa->tot.cancelled);
				CHECK_EQ(t.to_mettle, pa->tot.to_mettle);
				CHECK_EQ(t.setbacks, pa->tot.setbacks);
				CHECK_EQ(t.trinity, pa->tot.trinity);
				unsigned draw = 0, disc = 0;
				for (int i = 0; i < pa->n_draw; i++)
					draw += df_die_df(pa->draw[i]);
				for (int i = 0; i < pa->n_disc; i++)
					disc += df_die_df(pa->disc[i]);
				CHECK_EQ(pa->draw_df, draw);
				CHECK_EQ(pa->disc_df, disc);
			}
			for (int f = 1; f <= g.frontier; f++)
				for (int k = 0; k < c.rooms; k++) {
					const df_room *rm = df_room_at(&g, f, k);
					CHECK(!rm->alive || rm->value <= g.top[f]);
				}
			if (test_failed())
				return;
		}
		CHECK(g.rounds_played >= c.floors);
	}
}

/* Regression: recruiting counted the bag and the hand but not the wounded
 * dice, so a party that kept recruiting while Setbacks wounded it owned
 * more than DF_MAX_BAG dice and the wound pile overran its array (seen as a
 * corrupt lineage). Every knob here is within its documented range and the
 * choices are legal ones a client may send. */
TEST(deepfall_DF49_bag_max_counts_wounded_dice_so_the_piles_never_overflow)
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
				ch[s] = df_can_press(&g, s)
						? DF_PRESS
						: act(g.pl[s].party.floor, 1, DF_PERSIST);
			for (int s = 0; s < 4; s++)
				if (!(df_pending(&g) >> s & 1))
					ch[s] = GAME_NO_CHOICE;
			REQUIRE(df_apply(&g, ch, NULL, err, sizeof err) == GAME_OK);
			for (int s = 0; s < 4; s++) {
				const df_party *pa = &g.pl[s].party;
				CHECK(df_dice_owned(pa) <= c.bag_max);
				CHECK(pa->lineage < DF_NLINEAGE && pa->calling < DF_NCALLING);
			}
			if (test_failed())
				return;
		}
	}
}
