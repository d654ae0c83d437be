/*
 * test_deepfall_kind.c — DEEPFALL through the game-kind contract (game.h)
 * and proto/kinds/deepfall.md: registry, config, the two choice shapes
 * ({"press": true} and the act {target, recruit, exit}) with their parsing
 * and errors, the options form, apply's all-or-nothing validation, the view
 * (the turn's hands and symbols, no bag order ever shown), events, and a
 * whole AI game to its result.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/games/deepfall/deepfall.h"
#include "../../server/games/game.h"
#include "../kind_checks.h"
#include "../test.h"

static game_state *new_game(const game_kind *k, void **cfg, int seats, uint64_t seed,
			    game_events *evs)
{
	char err[160];
	*cfg = k->config_new(NULL, err, sizeof err);
	return k->create(*cfg, seats, seed, NULL, evs, err, sizeof err);
}

TEST(deepfall_kind_is_registered)
{
	const game_kind *k = game_kind_find("deepfall");
	REQUIRE(k == &deepfall_kind);
	CHECK_STR(k->name, "deepfall");
	CHECK(k->max_seats >= 4);
}

TEST(deepfall_kind_choice_parse_roundtrip_and_errors)
{
	const game_kind *k = &deepfall_kind;
	void *cfg;
	game_state *st = new_game(k, &cfg, 2, 1, NULL);
	REQUIRE(st);
	CHECK_EQ(k->pending(st), 3u);
	char err[160];
	game_choice c = GAME_NO_CHOICE;
	const char *good[] = {"{\"press\": true}",
			      "{\"target\": 2, \"recruit\": true, \"exit\": \"cash_out\"}"};
	for (int i = 0; i < 2; i++) {
		cJSON *j = cJSON_Parse(good[i]);
		CHECK_EQ(k->choice_parse(st, 0, j, &c, err, sizeof err), GAME_OK);
		cJSON *back = k->choice_json(st, 0, c);
		CHECK(cJSON_Compare(j, back, true));
		cJSON_Delete(back);
		cJSON_Delete(j);
	}
	/* "press": false with an act, and the defaults (recruit no, persist) */
	cJSON *j = cJSON_Parse("{\"press\": false, \"target\": 3}");
	CHECK_EQ(k->choice_parse(st, 0, j, &c, err, sizeof err), GAME_OK);
	CHECK_EQ(c, df_act_pack((df_act){3, 0, DF_PERSIST}));
	cJSON_Delete(j);
	game_choice all[128];
	int n = k->options(st, 0, all, 128);
	bool stand = df_stand_offered((const df_game *)st, 0);
	CHECK_EQ(n, 1 + 6 * 2 * (stand ? 3 : 2)); /* press, floors x recruit x exits */
	CHECK_EQ(all[0], DF_PRESS);
	for (int i = 0; i < n && i < 128; i++)
		CHECK_EQ(df_choice_check((const df_game *)st, 0, all[i], err, sizeof err),
			 GAME_OK);

	struct {
		const char *text;
		int code;
	} bad[] = {
		{"{\"target\": 9}", GAME_ERR_ILLEGAL},
		{"{\"target\": 0}", GAME_ERR_ILLEGAL},
		{"{\"press\": true, \"target\": 1}", GAME_ERR_MALFORMED},
		{"{\"press\": 1}", GAME_ERR_MALFORMED},
		{"{\"press\": false}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"exit\": \"flee\"}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"recruit\": 1}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"bribe\": 1}", GAME_ERR_MALFORMED},
		{"{\"target\": 1.5}", GAME_ERR_MALFORMED},
		{"\"stay\"", GAME_ERR_MALFORMED},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		j = cJSON_Parse(bad[i].text);
		err[0] = 0;
		CHECK_MSG(k->choice_parse(st, 0, j, &c, err, sizeof err) == bad[i].code, "%s",
			  bad[i].text);
		CHECK(err[0] != 0);
		cJSON_Delete(j);
	}
	k->destroy(st);
	k->config_free(cfg);
}

/* The options form follows the turn: "press" false once no press is left,
 * "last_stand" offered only when the turn can pay for it (DF32, DF51). */
TEST(deepfall_kind_options_form_follows_the_turn)
{
	const game_kind *k = &deepfall_kind;
	char err[160];
	cJSON *cj = cJSON_Parse("{\"max_press\": 1, \"last_stand_cost\": 20}");
	void *cfg = k->config_new(cj, err, sizeof err);
	cJSON_Delete(cj);
	REQUIRE(cfg);
	game_state *st = k->create(cfg, 1, 9, NULL, NULL, err, sizeof err);
	REQUIRE(st);
	const df_game *g = (const df_game *)st;
	cJSON *arr = k->options_json(st, 0);
	cJSON *o = cJSON_GetArrayItem(arr, 0);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(o, "press")));
	CHECK_EQ(cJSON_GetObjectItem(o, "hands")->valueint, 1);
	CHECK_EQ(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "target"), "max")->valueint, 6);
	int nexit = cJSON_GetArraySize(cJSON_GetObjectItem(o, "exit"));
	CHECK_EQ(nexit, df_stand_offered(g, 0) ? 3 : 2);
	cJSON_Delete(arr);
	game_choice ch[GAME_MAX_SEATS] = {DF_PRESS};
	REQUIRE(k->apply(st, ch, NULL, err, sizeof err) == GAME_OK);
	arr = k->options_json(st, 0);
	o = cJSON_GetArrayItem(arr, 0);
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(o, "press")));
	CHECK_EQ(cJSON_GetObjectItem(o, "hands")->valueint, 2);
	cJSON_Delete(arr);
	game_choice all[64];
	int n = k->options(st, 0, all, 64);
	for (int i = 0; i < n && i < 64; i++)
		CHECK(all[i] != DF_PRESS);
	cJSON *p = cJSON_Parse("{\"press\": true}");
	game_choice c;
	CHECK_EQ(k->choice_parse(st, 0, p, &c, err, sizeof err), GAME_ERR_ILLEGAL);
	cJSON_Delete(p);
	k->destroy(st);
	k->config_free(cfg);
}

TEST(deepfall_kind_apply_checks_everything_first)
{
	const game_kind *k = &deepfall_kind;
	void *cfg;
	game_events evs = {0};
	game_state *st = new_game(k, &cfg, 2, 3, &evs);
	REQUIRE(st);
	cJSON *v0 = k->view(st, 0);
	char err[160];
	game_choice ch[GAME_MAX_SEATS];
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		ch[s] = GAME_NO_CHOICE;
	ch[0] = df_act_pack((df_act){1, 1, DF_PERSIST});
	size_t before = evs.len;
	CHECK_EQ(k->apply(st, ch, &evs, err, sizeof err), GAME_ERR_MISSING);
	ch[1] = df_act_pack((df_act){7, 1, DF_PERSIST});
	CHECK_EQ(k->apply(st, ch, &evs, err, sizeof err), GAME_ERR_ILLEGAL);
	CHECK_EQ(evs.len, before);
	cJSON *v1 = k->view(st, 0);
	CHECK(cJSON_Compare(v0, v1, true));
	cJSON_Delete(v1);
	ch[1] = k->ai_choose(st, 1);
	CHECK_EQ(k->apply(st, ch, &evs, err, sizeof err), GAME_OK);
	CHECK(evs.len > before || ch[1] != DF_PRESS);
	cJSON_Delete(v0);
	game_events_free(&evs);
	k->destroy(st);
	k->config_free(cfg);
}

TEST(deepfall_kind_DF2_view_shows_bag_counts_never_order)
{
	const game_kind *k = &deepfall_kind;
	void *cfg;
	game_state *st = new_game(k, &cfg, 2, 11, NULL);
	REQUIRE(st);
	cJSON *v = k->view(st, 1);
	char *text = cJSON_PrintUnformatted(v);
	CHECK(strstr(text, "\"floors\"") != NULL);
	CHECK(strstr(text, "\"frontier\":6") != NULL);
	cJSON *players = cJSON_GetObjectItem(v, "players");
	REQUIRE(cJSON_GetArraySize(players) == 2);
	cJSON *bag = cJSON_GetObjectItem(
		cJSON_GetObjectItem(cJSON_GetArrayItem(players, 0), "party"), "bag");
	REQUIRE(cJSON_IsObject(bag)); /* {"recruit": 6, "warrior": 2}: counts */
	int total = 0;
	cJSON *it;
	cJSON_ArrayForEach(it, bag) total += it->valueint;
	/* The turn: the opening hand as counts, its faces, what stands. */
	cJSON *turn = cJSON_GetObjectItem(
		cJSON_GetObjectItem(cJSON_GetArrayItem(players, 0), "party"), "turn");
	REQUIRE(cJSON_IsObject(turn));
	CHECK_EQ(cJSON_GetObjectItem(turn, "hands")->valueint, 1);
	int dice = cJSON_GetObjectItem(turn, "dice")->valueint, in_hand = 0, faces = 0;
	cJSON_ArrayForEach(it, cJSON_GetObjectItem(turn, "hand")) in_hand += it->valueint;
	cJSON_ArrayForEach(it, cJSON_GetObjectItem(turn, "rolled")) faces += it->valueint;
	CHECK_EQ(in_hand, dice);
	CHECK_EQ(faces, dice);
	CHECK(total + dice >= 8);
	CHECK(cJSON_IsObject(cJSON_GetObjectItem(turn, "symbols")));
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(turn, "acted")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(turn, "act")));
	cJSON *maw = cJSON_GetObjectItem(v, "maw");
	CHECK(cJSON_IsNumber(cJSON_GetObjectItem(maw, "speed")));
	CHECK(cJSON_IsNumber(cJSON_GetObjectItem(maw, "falls")));
	free(text);
	cJSON_Delete(v);
	k->destroy(st);
	k->config_free(cfg);
}

/* DF56, DF57: a room shows what its majority takes at its floor's collapse
 * (`pays`, beside its `value`) and a floor the plunder waiting on it;
 * plunder_fled and a waiting value_rise reach the client. */
TEST(deepfall_kind_DF56_DF57_view_shows_pays_and_waiting_plunder)
{
	const game_kind *k = &deepfall_kind;
	void *cfg;
	game_state *st = new_game(k, &cfg, 2, 11, NULL);
	REQUIRE(st);
	df_game *g = (df_game *)st; /* the kind's state is the native game */
	g->cfg.held_rise = 500;
	g->pile[3] = 7;
	cJSON *v = k->view(st, -1);
	cJSON *floors = cJSON_GetObjectItem(v, "floors");
	REQUIRE(cJSON_GetArraySize(floors) == g->cfg.floors);
	for (int f = 1; f <= g->cfg.floors; f++) {
		cJSON *fo = cJSON_GetArrayItem(floors, f - 1);
		CHECK_EQ(cJSON_GetObjectItem(fo, "plunder")->valueint, f == 3 ? 7 : 0);
		cJSON *ro = cJSON_GetArrayItem(cJSON_GetObjectItem(fo, "rooms"), 0);
		int value = cJSON_GetObjectItem(ro, "value")->valueint;
		int pays = cJSON_GetObjectItem(ro, "pays")->valueint;
		CHECK_EQ(pays, f == 1 ? value : value - value / 2);
	}
	cJSON_Delete(v);
	game_event fled = {DF_EV_PLUNDER_FLED, -1, 4, 12, 0};
	cJSON *e = k->event_json(st, &fled, 0);
	char *text = cJSON_PrintUnformatted(e);
	CHECK_STR(text, "{\"event\":\"plunder_fled\",\"floor\":4,\"glory\":12,\"waits\":false}");
	free(text);
	cJSON_Delete(e);
	game_event waits = {DF_EV_VALUE_RISE, -1, 2, 9, 1};
	e = k->event_json(st, &waits, 0);
	text = cJSON_PrintUnformatted(e);
	CHECK_STR(text, "{\"event\":\"value_rise\",\"floor\":2,\"glory\":9,\"waits\":true}");
	free(text);
	cJSON_Delete(e);
	k->destroy(st);
	k->config_free(cfg);
}

TEST(deepfall_kind_full_ai_game_to_result)
{
	const game_kind *k = &deepfall_kind;
	char err[160];
	cJSON *cj =
		cJSON_Parse("{\"ai\": [\"cashout\", \"presson\", \"worthyend\", \"balanced\"]}");
	void *cfg = k->config_new(cj, err, sizeof err);
	cJSON_Delete(cj);
	REQUIRE(cfg);
	game_events evs = {0};
	game_state *st = k->create(cfg, 4, 2024, NULL, &evs, err, sizeof err);
	REQUIRE(st);
	int rounds = 0, decisions = 0;
	bool saw_collapse = false, all_json = true;
	while (!k->is_over(st) && decisions < 2000) {
		game_choice ch[GAME_MAX_SEATS];
		uint32_t p = k->pending(st);
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			ch[s] = p >> s & 1 ? k->ai_choose(st, s) : GAME_NO_CHOICE;
		game_events_clear(&evs);
		REQUIRE(k->apply(st, ch, &evs, err, sizeof err) == GAME_OK);
		for (size_t i = 0; i < evs.len; i++) {
			cJSON *e = k->event_json(st, &evs.v[i], 0);
			all_json &= e != NULL;
			saw_collapse |= evs.v[i].type == DF_EV_COLLAPSE;
			rounds += evs.v[i].type == DF_EV_MAW;
			cJSON_Delete(e);
		}
		decisions++;
	}
	CHECK(k->is_over(st));
	CHECK(all_json);
	CHECK(saw_collapse);
	CHECK_EQ(k->pending(st), 0u);
	int64_t scores[GAME_MAX_SEATS];
	uint32_t winners = 0;
	k->result(st, scores, &winners);
	CHECK(winners != 0);
	cJSON *r = k->result_json(st, 0xf);
	CHECK_EQ(cJSON_GetObjectItem(r, "rounds")->valueint, rounds);
	CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(r, "players")) == 4);
	cJSON_Delete(r);
	int64_t stats[32];
	REQUIRE(k->n_stats <= 32);
	k->stats(st, 0, 0xf, stats);
	CHECK_EQ(stats[0], 1);
	CHECK_EQ(stats[2], scores[0]);
	/* by name: per seat and game-wide figures agree with the result */
	int64_t seat[GAME_MAX_SEATS][32], all[32];
	for (int s = 0; s < 4; s++)
		k->stats(st, s, 0xf, seat[s]);
	k->stats(st, -1, 0xf, all);
	int64_t glory = 0, best = INT64_MIN;
	for (int s = 0; s < 4; s++) {
		glory += scores[s];
		best = scores[s] > best ? scores[s] : best;
	}
	for (int i = 0; i < k->n_stats; i++) {
		const char *key = k->stat_defs[i].key;
		int64_t sum = 0, max = INT64_MIN;
		for (int s = 0; s < 4; s++) {
			sum += seat[s][i];
			max = seat[s][i] > max ? seat[s][i] : max;
		}
		if (strcmp(key, "deepfall_wins") == 0) {
			for (int s = 0; s < 4; s++)
				CHECK_EQ(seat[s][i], (int64_t)(winners >> s & 1));
			CHECK_EQ(all[i], 1);
		} else if (strcmp(key, "deepfall_glory") == 0) {
			CHECK_EQ(all[i], glory);
		} else if (strcmp(key, "deepfall_best_glory") == 0) {
			CHECK_EQ(all[i], best);
		} else if (strcmp(key, "deepfall_rounds") == 0) {
			CHECK_EQ(all[i], rounds);
		}
		if (k->stat_defs[i].agg == GAME_STAT_SUM && strcmp(key, "deepfall_wins") != 0 &&
		    strcmp(key, "deepfall_games") != 0 && strcmp(key, "deepfall_rounds") != 0)
			CHECK_MSG(all[i] == sum, "%s", key);
		if (k->stat_defs[i].agg == GAME_STAT_MAX)
			CHECK_MSG(all[i] == max, "%s", key);
	}
	game_events_free(&evs);
	k->destroy(st);
	k->config_free(cfg);
}

TEST(deepfall_kind_ai_chooses_the_same_after_a_replay)
{
	const game_kind *k = &deepfall_kind;
	char err[160];
	/* CashOut and Balanced draw jitter; the other two are deterministic */
	cJSON *cj = cJSON_Parse("{\"ai\": [\"balanced\", \"cashout\", \"balanced\", "
				"\"cashout\"]}");
	void *cfg = k->config_new(cj, err, sizeof err);
	cJSON_Delete(cj);
	REQUIRE(cfg != NULL);
	int decisions = 0;
	for (uint64_t seed = 1; seed <= 8; seed++)
		check_ai_after_replay(k, cfg, seed % 2 ? 4 : 3, seed * 7919, &decisions);
	CHECK(decisions > 40); /* whole games were checked, round by round */
	k->config_free(cfg);
}


/* Untrusted input: every shape of choice a client can send is
 * refused with a code and a message before anything is cast or packed, and
 * a refusal changes nothing. */
TEST(deepfall_kind_untrusted_choices_are_refused_and_change_nothing)
{
	const game_kind *k = &deepfall_kind;
	void *cfg;
	game_state *st = new_game(k, &cfg, 2, 5, NULL);
	REQUIRE(st);
	cJSON *before = k->view(st, 0);
	char err[160];
	struct {
		const char *text;
		int code;
	} bad[] = {
		{"null", GAME_ERR_MALFORMED},
		{"[1, 0, false, \"persist\"]", GAME_ERR_MALFORMED},
		{"7", GAME_ERR_MALFORMED},
		{"{}", GAME_ERR_MALFORMED},
		{"{\"target\": -1}", GAME_ERR_MALFORMED},
		{"{\"target\": -0.5}", GAME_ERR_MALFORMED},
		{"{\"target\": 1e999}", GAME_ERR_MALFORMED},
		{"{\"target\": -1e999}", GAME_ERR_MALFORMED},
		{"{\"target\": 1e300}", GAME_ERR_MALFORMED},
		{"{\"target\": 4294967297}", GAME_ERR_MALFORMED},
		{"{\"target\": 256}", GAME_ERR_MALFORMED},
		{"{\"target\": 255}", GAME_ERR_ILLEGAL},
		{"{\"target\": \"1\"}", GAME_ERR_MALFORMED},
		{"{\"target\": true}", GAME_ERR_MALFORMED},
		{"{\"target\": null}", GAME_ERR_MALFORMED},
		{"{\"target\": [1]}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"press\": -1}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"press\": 0.5}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"press\": 4}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"press\": true}", GAME_ERR_MALFORMED},
		{"{\"press\": null}", GAME_ERR_MALFORMED},
		{"{\"press\": \"true\"}", GAME_ERR_MALFORMED},
		{"{\"press\": true, \"press\": false}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"press\": 1e999}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"recruit\": null}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"recruit\": \"true\"}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"exit\": 1}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"exit\": \"Persist\"}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"exit\": null}", GAME_ERR_MALFORMED},
		{"{\"target\": 1, \"Target\": 1}", GAME_ERR_MALFORMED},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cJSON *j = cJSON_Parse(bad[i].text);
		REQUIRE(j != NULL);
		game_choice c = 12345;
		err[0] = 0;
		int rc = k->choice_parse(st, 0, j, &c, err, sizeof err);
		CHECK_MSG(rc == bad[i].code, "%s gave %d", bad[i].text, rc);
		CHECK(err[0] != 0);
		CHECK_EQ(c, 12345);
		cJSON_Delete(j);
	}
	/* values no JSON text carries but a cJSON tree built in code can */
	game_choice c = 12345;
	CHECK_EQ(k->choice_parse(st, 0, NULL, &c, err, sizeof err), GAME_ERR_MALFORMED);
	cJSON *nan = cJSON_CreateObject();
	cJSON_AddNumberToObject(nan, "target", NAN);
	CHECK_EQ(k->choice_parse(st, 0, nan, &c, err, sizeof err), GAME_ERR_MALFORMED);
	cJSON_Delete(nan);
	cJSON *ok = cJSON_Parse("{\"target\": 1}");
	CHECK_EQ(k->choice_parse(st, -1, ok, &c, err, sizeof err), GAME_ERR_NOT_PENDING);
	CHECK_EQ(k->choice_parse(st, 2, ok, &c, err, sizeof err), GAME_ERR_NOT_PENDING);
	CHECK_EQ(c, 12345);
	cJSON_Delete(ok);
	/* apply refuses codes no parse produces (negative, high bits, out of range) */
	game_choice ch[GAME_MAX_SEATS];
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		ch[s] = s < 2 ? df_act_pack((df_act){1, 0, DF_PERSIST}) : GAME_NO_CHOICE;
	game_choice odd[] = {-2,
			     INT32_MIN,
			     INT32_MAX,
			     1 << 15,
			     0,
			     2,
			     DF_ACT_TAG,
			     DF_ACT_TAG | 0xff,
			     DF_ACT_TAG | 1 << 11 | 1,
			     df_act_pack((df_act){1, 0, 3})};
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
		ch[1] = odd[i];
		CHECK_MSG(k->apply(st, ch, NULL, err, sizeof err) == GAME_ERR_ILLEGAL, "code %d",
			  (int)odd[i]);
	}
	cJSON *after = k->view(st, 0);
	CHECK(cJSON_Compare(before, after, true));
	cJSON_Delete(before);
	cJSON_Delete(after);
	k->destroy(st);
	k->config_free(cfg);
}

TEST(deepfall_kind_untrusted_configs_are_refused)
{
	const game_kind *k = &deepfall_kind;
	char err[160];
	const char *bad[] = {
		"null",
		"[]",
		"{\"floors\": -1}",
		"{\"floors\": 0}",
		"{\"floors\": 13}",
		"{\"floors\": 1e999}",
		"{\"floors\": -1e999}",
		"{\"floors\": 1e300}",
		"{\"floors\": 6.000001}",
		"{\"floors\": null}",
		"{\"floors\": true}",
		"{\"floors\": [6]}",
		"{\"maw_base\": -0.001}",
		"{\"maw_base\": 5.001}",
		"{\"value_rise\": 1.5}",
		"{\"max_rounds\": 5}",
		"{\"min_bag\": 30, \"bag_max\": 10}",
		"{\"ai\": \"presson\"}",
		"{\"ai\": [1]}",
		"{\"ai\": [null]}",
		"{\"ai\": [\"PressOn\"]}",
		"{\"ai\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\", \"j\"]}",
		("{\"ai\": [\"balanced\", \"balanced\", \"balanced\", \"balanced\", \"balanced\", "
		 "\"balanced\", \"balanced\", \"balanced\", \"balanced\", \"balanced\"]}"),
		"{\"seed\": 3}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cJSON *j = cJSON_Parse(bad[i]);
		REQUIRE(j != NULL);
		err[0] = 0;
		void *cfg = k->config_new(j, err, sizeof err);
		CHECK_MSG(cfg == NULL, "accepted %s", bad[i]);
		if (cfg)
			k->config_free(cfg);
		CHECK(err[0] != 0);
		cJSON_Delete(j);
	}
	/* the knob setter the simulator's --sweep uses refuses what JSON cannot carry */
	df_config c;
	df_config_defaults(&c);
	df_config before = c;
	double odd[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300};
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
		CHECK(df_config_set(&c, "maw_base", odd[i], err, sizeof err) == -1);
		CHECK(df_config_set(&c, "floors", odd[i], err, sizeof err) == -1);
	}
	CHECK(df_config_set(&c, "no_such_knob", 1, err, sizeof err) == -1);
	CHECK(memcmp(&c, &before, sizeof c) == 0);
}

/* A set of choices that does not fit who is asked changes nothing
 * (game.h, game_choice_expected). */
TEST(deepfall_kind_apply_refuses_a_set_that_does_not_fit_who_is_asked)
{
	const game_kind *k = game_kind_find("deepfall");
	REQUIRE(k != NULL);
	char err[128];
	void *cfg = k->config_new(NULL, err, sizeof err);
	REQUIRE(cfg != NULL);
	int refused = 0;
	check_apply_refuses_wrong_seats(k, cfg, 4, 11, &refused);
	CHECK_MSG(refused > 100, "%d refused", refused);
	refused = 0;
	check_apply_refuses_wrong_seats(k, cfg, 2, 12, &refused);
	CHECK_MSG(refused > 40, "%d refused", refused);
	k->config_free(cfg);
}
