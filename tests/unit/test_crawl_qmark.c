/*
 * test_crawl_qmark.c — what a ? tile becomes (docs/rules/crawl.md C11–C18):
 * the table and its base odds, the roll's fixed order, the seed's worked
 * example of the accumulation, the reset per level, the first run's table,
 * each relic and the DeadlyEvents modifier; and `lair sim crawl
 * --question-marks`, whose observed shares must agree with the exact ones.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../client-cli/sim_crawl.h"
#include "../../server/games/crawl/cr_level.h"
#include "../../server/games/crawl/cr_qmark.h"
#include "../test.h"

/* C11: 10%, -1% (disabled), 2%, 3%, and Event the rest: 85%. */
TEST(crawl_C11_base_odds_and_event_is_the_rest)
{
	cr_odds o;
	cr_odds_init(&o, false);
	CHECK_EQ(o.cur[CR_ROOM_NORMAL], 1000);
	CHECK_EQ(o.cur[CR_ROOM_ELITE], -100);
	CHECK_EQ(o.cur[CR_ROOM_TREASURE], 200);
	CHECK_EQ(o.cur[CR_ROOM_SHOP], 300);
	CHECK_EQ(cr_odds_event_bp(&o), 8500);
	/* a negative type does not count against Event */
	o.cur[CR_ROOM_NORMAL] = 9000;
	CHECK_EQ(cr_odds_event_bp(&o), 500);
	o.cur[CR_ROOM_SHOP] = 2000;
	CHECK_EQ(cr_odds_event_bp(&o), 0);
}

/* C12: one draw in [0, 10000) against slices in the fixed order Normal,
 * Elite, Treasure, Shop, then Event; a disabled type takes no slice; when
 * the odds pass 100% the types late in the order lose. */
TEST(crawl_C12_one_roll_in_a_fixed_order)
{
	struct {
		uint32_t u;
		int type;
	} cases[] = {{0, CR_ROOM_NORMAL},      {999, CR_ROOM_NORMAL},
		     {1000, CR_ROOM_TREASURE}, {1199, CR_ROOM_TREASURE},
		     {1200, CR_ROOM_SHOP},     {1499, CR_ROOM_SHOP},
		     {1500, CR_ROOM_EVENT},    {9999, CR_ROOM_EVENT}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cr_odds o;
		cr_odds_init(&o, false);
		CHECK_MSG(cr_odds_roll(&o, cases[i].u) == cases[i].type, "u=%u", cases[i].u);
	}
	cr_odds o;
	cr_odds_init(&o, false);
	o.cur[CR_ROOM_NORMAL] = 9900;
	o.cur[CR_ROOM_TREASURE] = 200; /* 9900..10099: cut at 10000 */
	CHECK_EQ(cr_odds_roll(&o, 9950), CR_ROOM_TREASURE);
	o.cur[CR_ROOM_NORMAL] = 9900;
	o.cur[CR_ROOM_TREASURE] = 200;
	o.cur[CR_ROOM_SHOP] = 300;
	/* Shop's slice starts past 10000: it cannot happen, nor can Event */
	for (uint32_t u = 0; u < CR_BP; u += 7) {
		cr_odds c = o;
		int t = cr_odds_roll(&c, u);
		CHECK(t == CR_ROOM_NORMAL || t == CR_ROOM_TREASURE);
	}
}

/* C13: the seed's example: Normal Combat missed on three tiles in a row is
 * at 10%, 20%, 30%, 40%, and back at 10% when chosen; the chosen type goes
 * back to its base, every other gains its base; Elite, disabled, stays. */
TEST(crawl_C13_accumulation_the_seeds_worked_example)
{
	cr_odds o;
	cr_odds_init(&o, false);
	int want[] = {1000, 2000, 3000, 4000};
	CHECK_EQ(o.cur[CR_ROOM_NORMAL], want[0]);
	for (int miss = 1; miss <= 3; miss++) {
		CHECK_EQ(cr_odds_roll(&o, CR_BP - 1), CR_ROOM_EVENT);
		CHECK_EQ(o.cur[CR_ROOM_NORMAL], want[miss]);
		CHECK_EQ(o.cur[CR_ROOM_TREASURE], 200 * (miss + 1));
		CHECK_EQ(o.cur[CR_ROOM_SHOP], 300 * (miss + 1));
		CHECK_EQ(o.cur[CR_ROOM_ELITE], -100);
	}
	CHECK_EQ(cr_odds_event_bp(&o), CR_BP - 4000 - 800 - 1200);
	CHECK_EQ(cr_odds_roll(&o, 0), CR_ROOM_NORMAL);
	CHECK_EQ(o.cur[CR_ROOM_NORMAL], 1000);  /* reset to its base */
	CHECK_EQ(o.cur[CR_ROOM_TREASURE], 1000); /* 800 + 200 */
	CHECK_EQ(o.cur[CR_ROOM_SHOP], 1500);
	/* a type's odds never pass 100% */
	for (int i = 0; i < 200; i++)
		cr_odds_roll(&o, CR_BP - 1);
	for (int i = 0; i < CR_NODDS; i++)
		CHECK(o.cur[i] <= CR_BP);
}

/* C14: back to the base on every level the party arrives on. */
TEST(crawl_C14_odds_reset_at_each_level)
{
	cr_odds o, fresh;
	cr_odds_init(&o, false);
	cr_odds_init(&fresh, false);
	for (int i = 0; i < 5; i++)
		cr_odds_roll(&o, 9999);
	CHECK(memcmp(&o, &fresh, sizeof o) != 0);
	cr_odds_reset(&o);
	CHECK(memcmp(&o, &fresh, sizeof o) == 0);
}

/* C15: a first run's first three ? are Event, Event, Normal Combat, without
 * a roll (the table and the generator untouched); the fourth uses the table
 * from its base. A run that is not a first run rolls from the first. */
TEST(crawl_C15_first_run_event_event_combat_then_the_table)
{
	cr_odds o, base;
	cr_odds_init(&o, false);
	base = o;
	rng r, r0;
	rng_seed(&r, 5, 1);
	r0 = r;
	cr_qctx q = {.first_run = true};
	int want[3] = {CR_ROOM_EVENT, CR_ROOM_EVENT, CR_ROOM_NORMAL};
	for (int i = 0; i < 3; i++) {
		bool rolled = true;
		q.entered = i;
		CHECK_EQ(cr_qmark_resolve(&o, &r, &q, &rolled), want[i]);
		CHECK(!rolled);
	}
	CHECK(memcmp(&o, &base, sizeof o) == 0);
	CHECK(r.state == r0.state);
	q.entered = 3;
	bool rolled = false;
	cr_qmark_resolve(&o, &r, &q, &rolled);
	CHECK(rolled);
	CHECK(r.state != r0.state);
	/* not a first run: the first tile already rolls */
	cr_qctx vet = {.first_run = false, .entered = 0};
	cr_odds_init(&o, false);
	cr_qmark_resolve(&o, &r, &vet, &rolled);
	CHECK(rolled);
}

/* C16: with the Juzu Bracelet no ? is a Normal Combat: the roll's Normal
 * Combat (the table moved as for one) and a first run's third tile are
 * Events. */
TEST(crawl_C16_juzu_bracelet_no_normal_combat)
{
	cr_odds a, b;
	cr_odds_init(&a, false);
	cr_odds_init(&b, false);
	rng ra, rb;
	rng_seed(&ra, 9, 1);
	rng_seed(&rb, 9, 1);
	cr_qctx with = {.juzu = true}, without = {0};
	int normals = 0;
	for (int i = 0; i < 20000; i++) {
		int t = cr_qmark_resolve(&a, &ra, &with, NULL);
		int u = cr_qmark_resolve(&b, &rb, &without, NULL);
		CHECK(t != CR_ROOM_NORMAL);
		CHECK(t == u || (u == CR_ROOM_NORMAL && t == CR_ROOM_EVENT));
		normals += u == CR_ROOM_NORMAL;
		CHECK(memcmp(&a, &b, sizeof a) == 0);
	}
	CHECK(normals > 2000);
	cr_qctx first = {.first_run = true, .entered = 2, .juzu = true};
	CHECK_EQ(cr_qmark_resolve(&a, &ra, &first, NULL), CR_ROOM_EVENT);
}

/* C17: Golden Compass: every ? of the act it was acquired in is an Event,
 * with no roll and the table unchanged; first-run forcing gives way to it. */
TEST(crawl_C17_golden_compass_fixed_events)
{
	cr_odds o, base;
	cr_odds_init(&o, true);
	base = o;
	rng r, r0;
	rng_seed(&r, 11, 1);
	r0 = r;
	cr_qctx q = {.compass_here = true, .first_run = true, .entered = 2};
	for (int i = 0; i < 100; i++) {
		bool rolled = true;
		CHECK_EQ(cr_qmark_resolve(&o, &r, &q, &rolled), CR_ROOM_EVENT);
		CHECK(!rolled);
	}
	CHECK(memcmp(&o, &base, sizeof o) == 0);
	CHECK(r.state == r0.state);
}

/* C18: DeadlyEvents: Elite at 10% (so Event starts at 75%), Treasure gains
 * 4% a miss instead of 2% and still resets to 2%. */
TEST(crawl_C18_deadly_events_modifier)
{
	cr_odds o;
	cr_odds_init(&o, true);
	CHECK_EQ(o.cur[CR_ROOM_ELITE], 1000);
	CHECK_EQ(cr_odds_event_bp(&o), 7500);
	CHECK_EQ(cr_odds_roll(&o, 1000), CR_ROOM_ELITE); /* 1000..1999 */
	CHECK_EQ(o.cur[CR_ROOM_ELITE], 1000);
	CHECK_EQ(o.cur[CR_ROOM_NORMAL], 2000);
	CHECK_EQ(o.cur[CR_ROOM_TREASURE], 600);
	CHECK_EQ(cr_odds_roll(&o, 3000), CR_ROOM_TREASURE); /* 3000..3599 */
	CHECK_EQ(o.cur[CR_ROOM_TREASURE], 200);
	CHECK_EQ(o.cur[CR_ROOM_ELITE], 2000);
	cr_odds plain;
	cr_odds_init(&plain, false);
	cr_odds_roll(&plain, 9999);
	CHECK_EQ(plain.cur[CR_ROOM_TREASURE], 400);
}

/* The exact expectation agrees with a hand computation of the first two
 * tiles, and the simulator's observed shares agree with it within a few
 * standard errors under every combination (C11-C18 proven, not assumed). */
TEST(crawl_C13_sim_question_marks_agree_with_the_rule)
{
	/* tile 1 from base: N .10 T .02 S .03 E .85. Tile 2: after N (N .10,
	 * T .04, S .06), after T (N .20, T .02, S .06), after S (N .20, T .04,
	 * S .03), after E (N .20, T .04, S .06). */
	double p2n = .10 * .10 + .02 * .20 + .03 * .20 + .85 * .20;
	double e[CR_NROOM];
	/* expected tiles per act of 10-14 tiles; every act reaches tile 2 */
	double tiles = cr_qmark_expected(1, false, false, false, false, e);
	CHECK(fabs(tiles - 12.0) < 1e-9);
	/* the first run's first act: tiles 1-3 forced, tile 4 from the base */
	double f[CR_NROOM];
	cr_qmark_expected(1, false, false, false, true, f);
	CHECK(f[CR_ROOM_NORMAL] > 1.0 && f[CR_ROOM_EVENT] > 2.0);
	double at[CR_MAX_QMARKS + 1][CR_NROOM];
	cr_qmark_tile_probs(false, false, false, false, at);
	CHECK(fabs(at[1][CR_ROOM_NORMAL] - .10) < 1e-12 && fabs(at[1][CR_ROOM_EVENT] - .85) < 1e-12);
	CHECK(fabs(at[2][CR_ROOM_NORMAL] - p2n) < 1e-12);
	CHECK(fabs(at[2][CR_ROOM_TREASURE] - (.10 * .04 + .02 * .02 + .03 * .04 + .85 * .04)) <
	      1e-12);
	cr_qmark_tile_probs(false, false, false, true, at);
	CHECK(at[3][CR_ROOM_NORMAL] == 1 && fabs(at[4][CR_ROOM_NORMAL] - .10) < 1e-12);
	sq_result *res = malloc(sizeof *res);
	REQUIRE(res);
	sq_run(200000, 3, res);
	for (int c = 0; c < SQ_NCOMBO; c++) {
		const sq_row *r = &res->row[c];
		CHECK(r->tiles >= 200000);
		double sum = 0;
		for (int t = 0; t < CR_NROOM; t++) {
			sum += r->computed[t];
			CHECK_MSG(fabs(r->z[t]) < 5, "%s %s z %.2f", sq_combo_names[c],
				  cr_room_names[t], r->z[t]);
		}
		CHECK(fabs(sum - 1) < 1e-9);
	}
	/* Juzu: Normal's share becomes Event's; Compass: all Events; Elite only
	 * with DeadlyEvents */
	CHECK_EQ(res->row[SQ_JUZU].count[CR_ROOM_NORMAL], 0);
	CHECK(fabs(res->row[SQ_JUZU].computed[CR_ROOM_EVENT] -
		   res->row[SQ_NONE].computed[CR_ROOM_EVENT] -
		   res->row[SQ_NONE].computed[CR_ROOM_NORMAL]) < 1e-12);
	CHECK_EQ(res->row[SQ_COMPASS].count[CR_ROOM_EVENT], res->row[SQ_COMPASS].tiles);
	CHECK_EQ(res->row[SQ_NONE].count[CR_ROOM_ELITE], 0);
	CHECK(res->row[SQ_DEADLY].count[CR_ROOM_ELITE] > 0);
	/* Planisphere changes nothing in the odds */
	for (int t = 0; t < CR_NROOM; t++)
		CHECK(res->row[SQ_PLANISPHERE].computed[t] == res->row[SQ_NONE].computed[t]);
	free(res);
}

/* The command line: --question-marks with --json prints one object. */
TEST(crawl_C9_sim_question_marks_command_line)
{
	FILE *out = tmpfile(), *err = tmpfile();
	REQUIRE(out && err);
	char *argv[] = {"crawl", "--question-marks", "20000", "--seed", "4", "--json", NULL};
	CHECK_EQ(sim_crawl_cli(6, argv, out, err), 0);
	rewind(out);
	static char text[65536];
	size_t n = fread(text, 1, sizeof text - 1, out);
	text[n] = 0;
	cJSON *j = cJSON_Parse(text);
	REQUIRE(j);
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(j, "combinations")), SQ_NCOMBO);
	cJSON *acts = cJSON_GetObjectItem(j, "count_per_act");
	CHECK_EQ(cJSON_GetArraySize(acts), 3);
	cJSON_Delete(j);
	char *bad[][3] = {{"crawl", "--question-marks", "0"},
			  {"crawl", "--question-marks", "-5"},
			  {"crawl", "--seed", "x"}};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_EQ(sim_crawl_cli(3, bad[i], out, err), 2);
	fclose(out);
	fclose(err);
}
