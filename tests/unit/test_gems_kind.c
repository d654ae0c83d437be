/*
 * test_gems_kind.c — the gems game through the game_kind contract (game.h)
 * as the server uses it: registry, config, shared state JSON and folding,
 * create/apply/AI to the end, options and choices as JSON with their error
 * codes, views, events, result, statistics and achievements.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/games/gems/gems_int.h"
#include "../../server/games/gems/gems_kind.h"
#include "../kind_checks.h"
#include "../test.h"

static const game_kind *kind(void) { return game_kind_find("gems"); }

TEST(gems_kind_registered)
{
	const game_kind *k = kind();
	REQUIRE(k != NULL);
	CHECK_STR(k->name, "gems");
	CHECK_EQ(k->min_seats, 1);
	CHECK_EQ(k->max_seats, 9);
	CHECK_EQ(k->n_stats, GEMS_N_STATS);
	CHECK_EQ(k->n_achievements, GEMS_N_ACH);
}

TEST(gems_kind_config_parse_and_errors)
{
	const game_kind *k = kind();
	char err[128];
	void *c = k->config_new(NULL, err, sizeof err);
	REQUIRE(c != NULL);
	cJSON *j = k->config_json(c);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(j, "adventures")));
	cJSON_Delete(j);
	k->config_free(c);

	cJSON *in = cJSON_Parse("{\"adventures\":[\"monte\",\"devil\",\"sphinx\",\"banker\","
				"\"little_people\"]}");
	c = k->config_new(in, err, sizeof err);
	REQUIRE(c != NULL);
	j = k->config_json(c);
	char *s = cJSON_PrintUnformatted(j);
	CHECK(strstr(s, "\"monte\",\"devil\",\"sphinx\",\"banker\",\"little_people\"") != NULL);
	free(s);
	cJSON_Delete(j);
	k->config_free(c);
	cJSON_Delete(in);

	const char *bad[] = {
		"[1]", "{\"speed\":3}", "{\"adventures\":[\"monte\"]}",
		"{\"adventures\":[\"monte\",\"monte\",\"sphinx\",\"banker\",\"devil\"]}",
		"{\"adventures\":[\"monte\",\"x\",\"sphinx\",\"banker\",\"devil\"]}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		in = cJSON_Parse(bad[i]);
		err[0] = 0;
		CHECK(k->config_new(in, err, sizeof err) == NULL);
		CHECK(err[0] != 0);
		cJSON_Delete(in);
	}
}

TEST(gems_kind_shared_json_round_trip)
{
	const game_kind *k = kind();
	char err[128];
	void *sh = k->shared_new(NULL, err, sizeof err);
	REQUIRE(sh != NULL);
	game_event evs[2] = {{.type = GEMS_EV_ADV_USED, .seat = -1, .a = GEMS_ADV_DEVIL},
			     {.type = GEMS_EV_GAME_OVER, .seat = -1, .a = 61, .b = 17}};
	k->shared_fold(sh, evs, 2);
	cJSON *j = k->shared_json(sh);
	CHECK_EQ(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "adventure_uses"), "devil")->valueint,
		 1);
	CHECK_EQ(cJSON_GetObjectItem(j, "best_winning_score")->valueint, 61);
	CHECK_EQ(cJSON_GetObjectItem(j, "deepest_depth")->valueint, 17);
	void *back = k->shared_new(j, err, sizeof err);
	REQUIRE(back != NULL);
	CHECK(memcmp(back, sh, sizeof(gems_shared)) == 0);
	k->shared_free(back);
	cJSON_Delete(j);
	k->shared_free(sh);

	cJSON *bad = cJSON_Parse("{\"adventure_uses\":{\"devil\":\"x\"}}");
	CHECK(k->shared_new(bad, err, sizeof err) == NULL);
	cJSON_Delete(bad);
}

static int count_json_events(const game_kind *k, game_state *st, const game_events *evs,
			     int viewer)
{
	int n = 0;
	for (size_t i = 0; i < evs->len; i++) {
		cJSON *e = k->event_json(st, &evs->v[i], viewer);
		if (!e)
			continue;
		CHECK(cJSON_IsString(cJSON_GetObjectItem(e, "type")));
		n++;
		cJSON_Delete(e);
	}
	return n;
}

TEST(gems_kind_full_game_through_the_vtable)
{
	const game_kind *k = kind();
	char err[128];
	void *sh = k->shared_new(NULL, err, sizeof err);
	game_events evs = {0};
	game_state *st = k->create(NULL, 5, 99, sh, &evs, err, sizeof err);
	REQUIRE(st != NULL);
	int steps = 0;
	while (!k->is_over(st) && steps < 10000) {
		uint32_t p = k->pending(st);
		REQUIRE(p != 0);
		game_choice ch[GAME_MAX_SEATS];
		for (int i = 0; i < 5; i++) {
			ch[i] = GAME_NO_CHOICE;
			if (!(p >> i & 1))
				continue;
			game_choice opts[GEMS_N_CHOICES];
			int n = k->options(st, i, opts, GEMS_N_CHOICES);
			CHECK(n >= 1);
			ch[i] = k->ai_choose(st, i);
			cJSON *cj = k->choice_json(st, i, ch[i]);
			game_choice back;
			CHECK_EQ(k->choice_parse(st, i, cj, &back, err, sizeof err), GAME_OK);
			CHECK_EQ(back, ch[i]);
			cJSON_Delete(cj);
		}
		cJSON *v = k->view(st, 0);
		cJSON_Delete(v);
		k->shared_fold(sh, evs.v, evs.len);
		count_json_events(k, st, &evs, -1);
		game_events_clear(&evs);
		REQUIRE(k->apply(st, ch, &evs, err, sizeof err) == GAME_OK);
		steps++;
	}
	k->shared_fold(sh, evs.v, evs.len);
	REQUIRE(k->is_over(st));
	CHECK_EQ(k->pending(st), 0u);
	int64_t scores[GAME_MAX_SEATS];
	uint32_t winners = 0;
	k->result(st, scores, &winners);
	CHECK(winners != 0);
	cJSON *r = k->result_json(st, 0x1f);
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(r, "seats")), 5);
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(r, "dungeons")), 5);
	cJSON_Delete(r);
	/* the fold saw the game over: records hold the winning score */
	const gems_shared *gs = sh;
	int64_t best = 0;
	for (int i = 0; i < 5; i++)
		best = scores[i] > best ? scores[i] : best;
	CHECK_EQ(gs->best_score, best);
	int64_t vals[GEMS_N_STATS];
	k->stats(st, -1, 0x1f, vals);
	CHECK_EQ(vals[GEMS_ST_GAMES_PLAYED], 1);
	CHECK_EQ(vals[GEMS_ST_PLAYERS], 5);
	CHECK_EQ(vals[GEMS_ST_GAMES_WON_BY_AIS], 1);
	k->destroy(st);
	k->shared_free(sh);
	game_events_free(&evs);
}

TEST(gems_kind_choice_parse_errors)
{
	const game_kind *k = kind();
	char err[128];
	game_state *st = k->create(NULL, 3, 5, NULL, NULL, err, sizeof err);
	REQUIRE(st != NULL);
	game_choice c;
	cJSON *j = cJSON_CreateNumber(3);
	CHECK_EQ(k->choice_parse(st, 0, j, &c, err, sizeof err), GAME_ERR_MALFORMED);
	cJSON_Delete(j);
	j = cJSON_CreateString("fly");
	CHECK_EQ(k->choice_parse(st, 0, j, &c, err, sizeof err), GAME_ERR_MALFORMED);
	CHECK(strstr(err, "fly") != NULL);
	cJSON_Delete(j);
	j = cJSON_CreateString("stay");
	CHECK_EQ(k->choice_parse(st, 7, j, &c, err, sizeof err), GAME_ERR_NOT_PENDING);
	cJSON_Delete(j);
	j = cJSON_Parse("{\"id\":\"leave\"}");
	CHECK_EQ(k->choice_parse(st, 1, j, &c, err, sizeof err), GAME_OK);
	CHECK_EQ(c, GEMS_C_LEAVE);
	cJSON_Delete(j);
	k->destroy(st);
	CHECK(k->create(NULL, 0, 1, NULL, NULL, err, sizeof err) == NULL);
	CHECK(k->create(NULL, 10, 1, NULL, NULL, err, sizeof err) == NULL);
}

/* game.h: (kind, config, seed, shared snapshot, choice sets) reproduce a
 * game exactly: replaying the log through the vtable gives the same result,
 * whoever (human or AI) made the choices. */
TEST(gems_kind_replay_from_the_choice_log)
{
	const game_kind *k = kind();
	char err[128];
	cJSON *cfg_json = cJSON_Parse("{\"adventures\":[\"sphinx\",\"devil\",\"monte\","
				      "\"little_people\",\"mushroom\"]}");
	void *cfg = k->config_new(cfg_json, err, sizeof err);
	cJSON *saved = cJSON_Parse("{\"adventure_uses\":{\"banker\":3},"
				   "\"best_winning_score\":40,\"deepest_depth\":12}");
	void *sh = k->shared_new(saved, err, sizeof err);
	REQUIRE(cfg && sh);
	game_choice log[4000];
	int n = 0;
	game_state *st = k->create(cfg, 4, 777, sh, NULL, err, sizeof err);
	REQUIRE(st != NULL);
	while (!k->is_over(st) && n + 4 <= 4000) {
		uint32_t p = k->pending(st);
		for (int i = 0; i < 4; i++)
			log[n + i] = p >> i & 1 ? k->ai_choose(st, i) : GAME_NO_CHOICE;
		REQUIRE(k->apply(st, log + n, NULL, err, sizeof err) == GAME_OK);
		n += 4;
	}
	REQUIRE(k->is_over(st));
	game_state *re = k->create(cfg, 4, 777, sh, NULL, err, sizeof err);
	for (int i = 0; i < n; i += 4)
		REQUIRE(k->apply(re, log + i, NULL, err, sizeof err) == GAME_OK);
	cJSON *a = k->result_json(st, 0x3), *b = k->result_json(re, 0x3);
	char *sa = cJSON_PrintUnformatted(a), *sb = cJSON_PrintUnformatted(b);
	CHECK_STR(sa, sb);
	CHECK(strstr(sa, "\"sphinx\"") != NULL); /* the config's adventures were used */
	free(sa);
	free(sb);
	cJSON_Delete(a);
	cJSON_Delete(b);
	k->destroy(st);
	k->destroy(re);
	k->shared_free(sh);
	k->config_free(cfg);
	cJSON_Delete(cfg_json);
	cJSON_Delete(saved);
}

TEST(gems_kind_ai_chooses_the_same_after_a_replay)
{
	const game_kind *k = kind();
	char err[128];
	void *cfg = k->config_new(NULL, err, sizeof err);
	REQUIRE(cfg != NULL);
	int decisions = 0;
	for (uint64_t seed = 1; seed <= 6; seed++)
		check_ai_after_replay(k, cfg, seed % 2 ? 5 : 3, seed * 7919, &decisions);
	CHECK(decisions > 100); /* whole games were checked, decision by decision */
	k->config_free(cfg);
}

/* Untrusted input (PROTOCOL.md §3): every shape a client can send for a choice
 * or a config is refused with a code and a message, and a refused choice
 * changes nothing. */
TEST(gems_kind_untrusted_choices_and_configs_are_refused)
{
	const game_kind *k = kind();
	char err[128];
	game_state *st = k->create(NULL, 3, 9, NULL, NULL, err, sizeof err);
	REQUIRE(st != NULL);
	cJSON *before = k->view(st, 0);
	char long_id[4096];
	memset(long_id, 'x', sizeof long_id - 1);
	long_id[sizeof long_id - 1] = 0;
	cJSON *shapes[] = {
		NULL,
		cJSON_CreateNull(),
		cJSON_CreateTrue(),
		cJSON_CreateNumber(0),
		cJSON_CreateNumber(NAN),
		cJSON_CreateArray(),
		cJSON_Parse("[\"stay\"]"),
		cJSON_Parse("{}"),
		cJSON_Parse("{\"id\": 1}"),
		cJSON_Parse("{\"id\": null}"),
		cJSON_Parse("{\"id\": [\"stay\"]}"),
		cJSON_CreateString(""),
		cJSON_CreateString("STAY"),
		cJSON_CreateString("stay "),
		cJSON_CreateString(long_id),
	};
	for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
		game_choice c = 12345;
		err[0] = 0;
		CHECK_MSG(k->choice_parse(st, 0, shapes[i], &c, err, sizeof err) ==
				  GAME_ERR_MALFORMED,
			  "shape %zu", i);
		CHECK(err[0] != 0 && strlen(err) < sizeof err);
		CHECK_EQ(c, 12345); /* *out untouched */
		cJSON_Delete(shapes[i]);
	}
	/* well-formed but not legal now, or not this seat's turn */
	cJSON *bank = cJSON_CreateString("bank12"), *stay = cJSON_CreateString("stay");
	game_choice c;
	CHECK_EQ(k->choice_parse(st, 0, bank, &c, err, sizeof err), GAME_ERR_ILLEGAL);
	CHECK_EQ(k->choice_parse(st, -1, stay, &c, err, sizeof err), GAME_ERR_NOT_PENDING);
	CHECK_EQ(k->choice_parse(st, 3, stay, &c, err, sizeof err), GAME_ERR_NOT_PENDING);
	CHECK_EQ(k->choice_parse(st, GAME_MAX_SEATS, stay, &c, err, sizeof err),
		 GAME_ERR_NOT_PENDING);
	cJSON_Delete(bank);
	cJSON_Delete(stay);
	/* apply refuses codes out of range without touching the state */
	game_choice ch[GAME_MAX_SEATS];
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		ch[i] = i < 3 ? GEMS_C_STAY : GAME_NO_CHOICE;
	int odd[] = {-2, GEMS_N_CHOICES, 31, 32, INT32_MAX, INT32_MIN};
	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
		ch[1] = odd[i];
		CHECK_EQ(k->apply(st, ch, NULL, err, sizeof err), GAME_ERR_ILLEGAL);
	}
	cJSON *after = k->view(st, 0);
	CHECK(cJSON_Compare(before, after, true));
	cJSON_Delete(before);
	cJSON_Delete(after);
	k->destroy(st);

	const char *bad[] = {
		"\"banker\"",
		"{\"adventures\": 5}",
		"{\"adventures\": \"monte\"}",
		"{\"adventures\": {}}",
		"{\"adventures\": [1, 2, 3, 4, 5]}",
		"{\"adventures\": [\"monte\", \"devil\", \"sphinx\", \"banker\", null]}",
		("{\"adventures\": [\"monte\", \"devil\", \"sphinx\", \"banker\", \"scout\", "
		 "\"poison\"]}"),
		"{\"adventures\": [\"Monte\", \"devil\", \"sphinx\", \"banker\", \"scout\"]}",
		"{\"adventures\": [[\"monte\"], \"devil\", \"sphinx\", \"banker\", \"scout\"]}",
		"{\"adventures\": null, \"seats\": 3}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cJSON *in = cJSON_Parse(bad[i]);
		REQUIRE(in != NULL);
		err[0] = 0;
		CHECK_MSG(k->config_new(in, err, sizeof err) == NULL, "accepted %s", bad[i]);
		CHECK(err[0] != 0);
		cJSON_Delete(in);
	}
	/* null and {} both mean the default pick */
	const char *ok[] = {"null", "{}", "{\"adventures\": null}"};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
		cJSON *in = cJSON_Parse(ok[i]);
		void *cfg = k->config_new(in, err, sizeof err);
		CHECK_MSG(cfg != NULL, "refused %s", ok[i]);
		if (cfg)
			k->config_free(cfg);
		cJSON_Delete(in);
	}
}

/* The shared state comes from our own database, but a damaged row must be
 * refused, not cast: NaN, infinities and fractions are not counts. */
TEST(gems_kind_shared_state_refuses_non_finite_and_out_of_range_counts)
{
	const game_kind *k = kind();
	char err[128];
	double odd[] = {NAN, INFINITY, -INFINITY, -1, 1e13, 2.5};
	const char *where[] = {"best_winning_score", "deepest_depth", "adventure_uses"};
	for (size_t w = 0; w < 3; w++)
		for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
			cJSON *j = cJSON_CreateObject();
			if (w < 2) {
				cJSON_AddNumberToObject(j, where[w], odd[i]);
			} else {
				cJSON *u = cJSON_AddObjectToObject(j, "adventure_uses");
				cJSON_AddNumberToObject(u, "monte", odd[i]);
			}
			err[0] = 0;
			void *sh = k->shared_new(j, err, sizeof err);
			CHECK_MSG(sh == NULL, "%s = %g accepted", where[w], odd[i]);
			if (sh)
				k->shared_free(sh);
			CHECK(err[0] != 0);
			cJSON_Delete(j);
		}
}

/* A set of choices that does not fit who is asked changes nothing
 * (game.h, game_choice_expected). */
TEST(gems_kind_apply_refuses_a_set_that_does_not_fit_who_is_asked)
{
	const game_kind *k = kind();
	char err[128];
	void *cfg = k->config_new(NULL, err, sizeof err);
	REQUIRE(cfg != NULL);
	int refused = 0;
	check_apply_refuses_wrong_seats(k, cfg, 4, 11, &refused);
	CHECK_MSG(refused > 100, "%d refused", refused);
	refused = 0;
	check_apply_refuses_wrong_seats(k, cfg, 1, 12, &refused);
	CHECK_MSG(refused > 10, "%d refused", refused);
	k->config_free(cfg);
}
