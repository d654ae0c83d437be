/*
 * test_table_gems.c — the real `gems` kind at real tables: all-AI tables of
 * 1, 5 and 9 seats play whole games to the result on one loop; a human
 * seat plays a whole game by answering each `options` message it is sent
 * with an option id (the JSON path a client takes); each game's record
 * replays to the same result.
 */
#include "table_harness.h"

static char err[256];

/* Replays the table's record through table_replay and compares results. */
static void check_replay(const table *t)
{
	const game_kind *k = table_get_settings(t)->kind;
	cJSON *rec = table_record_json(t);
	char *text = cJSON_PrintUnformatted(rec);
	cJSON_Delete(rec);
	rec = cJSON_Parse(text);
	free(text);
	REQUIRE(rec);
	int seats = (int)h_num(rec, "seats");
	game_choice *log = NULL;
	size_t n = 0;
	REQUIRE(table_log_parse(cJSON_GetObjectItemCaseSensitive(rec, "log"), seats, &log, &n,
				err, sizeof err) == 0);
	const cJSON *seed = cJSON_GetObjectItemCaseSensitive(rec, "seed");
	game_state *g = table_replay(k, cJSON_GetObjectItemCaseSensitive(rec, "config"), seats,
				     strtoull(seed->valuestring, NULL, 10),
				     cJSON_GetObjectItemCaseSensitive(rec, "shared"), log, n, NULL,
				     err, sizeof err);
	CHECK_MSG(g != NULL, "replay: %s", err);
	if (g) {
		CHECK(k->is_over(g));
		cJSON *r = k->result_json(g, (uint32_t)h_num(rec, "ai_mask"));
		char *a = cJSON_PrintUnformatted(r);
		char *b = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(rec, "result"));
		CHECK_STR(a, b);
		free(a);
		free(b);
		cJSON_Delete(r);
		k->destroy(g);
	}
	free(log);
	cJSON_Delete(rec);
}

TEST(table_gems_all_ai_tables_play_to_the_end)
{
	const game_kind *k = game_kind_find("gems");
	REQUIRE(k);
	h_init(k);
	void *shared = k->shared_new ? k->shared_new(NULL, err, sizeof err) : NULL;
	H.shared = shared;
	const int sizes[3] = {1, 5, 9};
	table *ts[3];
	for (int i = 0; i < 3; i++) {
		table_settings s = h_settings(k, sizes[i]);
		s.id = (uint64_t)(10 + i);
		s.seed = 1000 + (uint64_t)i;
		ts[i] = table_new(&H.loop, &h_host, &s, err, sizeof err);
		REQUIRE(ts[i]);
		CHECK_EQ(table_spectate(ts[i], 1, "p1", NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	}
	for (int i = 0; i < 3; i++) {
		H.t = ts[i]; /* the harness persists decisions of H.t only */
		CHECK_EQ(table_start(ts[i], 1), TABLE_OK);
	}
	/* the three run side by side on the one loop */
	RUN_UNTIL(H.finished == 3);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(table_get_state(ts[i]), TABLE_FINISHED);
		size_t n;
		table_log(ts[i], &n);
		CHECK(n > 0);
		CHECK_EQ(n, table_decision_no(ts[i]));
		check_replay(ts[i]);
	}
	CHECK_EQ(h_count(1, "result"), 3);
	CHECK_EQ(h_count(1, "window"), 0);
	for (int i = 0; i < 2; i++)
		table_free(ts[i]);
	H.t = ts[2];
	h_close();
	if (shared)
		k->shared_free(shared);
}

/* The option ids of the last options message to player 1, if pending. */
static const char *first_option_id(const cJSON *opts, int pick)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(opts, "options");
	int n = cJSON_GetArraySize(list);
	if (n == 0)
		return NULL;
	const cJSON *o = cJSON_GetArrayItem(list, pick % n);
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "id");
	return cJSON_IsString(id) ? id->valuestring : NULL;
}

TEST(table_gems_human_plays_whole_game_by_option_ids)
{
	const game_kind *k = game_kind_find("gems");
	REQUIRE(k);
	table_settings s = h_settings(k, 3);
	s.window_ms = 1;
	s.seed = 77;
	h_open(&s);
	CHECK_EQ(table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_add_ai(H.t, 1, -1, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_add_ai(H.t, 1, -1, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	int answered = 0, guard = 0;
	uint64_t last_decision = 0;
	while (table_get_state(H.t) == TABLE_PLAYING && guard++ < 5000) {
		RUN_UNTIL(table_decision_no(H.t) > last_decision ||
			  table_get_state(H.t) != TABLE_PLAYING);
		if (table_get_state(H.t) != TABLE_PLAYING)
			break;
		last_decision = table_decision_no(H.t);
		const cJSON *o = h_last(1, "options");
		REQUIRE(o);
		CHECK_EQ(h_num(o, "decision"), last_decision);
		const char *id = first_option_id(o, answered);
		if (id) {
			/* an id that is not offered is refused */
			cJSON *bad = cJSON_CreateString("no_such_option");
			CHECK_EQ(table_choose(H.t, 1, -1, last_decision, bad, err, sizeof err),
				 TABLE_ERR_ILLEGAL);
			cJSON_Delete(bad);
			cJSON *c = cJSON_CreateString(id);
			CHECK_EQ(table_choose(H.t, 1, -1, last_decision, c, err, sizeof err),
				 TABLE_OK);
			cJSON_Delete(c);
			answered++;
		}
	}
	CHECK_EQ(table_get_state(H.t), TABLE_FINISHED);
	CHECK(answered > 0);
	CHECK_EQ(H.finished, 1);
	const cJSON *res = h_last(1, "result");
	REQUIRE(res);
	CHECK(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(res, "result")));
	check_replay(H.t);
	/* the human's reveals show its choices as not the AI's */
	int human_reveals = 0;
	for (int i = 0; i < H.n; i++) {
		if (strcmp(h_type(&H.m[i]), "reveal") != 0)
			continue;
		bool ai = true;
		const cJSON *c;
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(H.m[i].obj, "choices")) {
			if (h_num(c, "seat") != 0)
				continue;
			ai = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "ai"));
			human_reveals++;
			CHECK(!ai);
		}
	}
	CHECK_EQ(human_reveals, answered);
	h_close();
}

/* Compares two JSON values by their printed form. */
static void check_same_json(const cJSON *a, const cJSON *b, const char *what)
{
	char *x = cJSON_PrintUnformatted(a), *y = cJSON_PrintUnformatted(b);
	CHECK_MSG(x && y && strcmp(x, y) == 0, "%s differs:\n  %s\n  %s", what, x ? x : "-",
		  y ? y : "-");
	free(x);
	free(y);
}

/* proto/kinds/gems.md: an over view's `result` is the table's result, the
 * one the `result` message carries: with AI seats at the end, its
 * games_with_ais is 1 and an AI winner earns skynet (G35) in both. */
TEST(table_gems_final_view_result_is_the_result_message)
{
	const game_kind *k = game_kind_find("gems");
	REQUIRE(k);
	table_settings s = h_settings(k, 2);
	s.seed = 5;
	h_open(&s);
	CHECK_EQ(table_spectate(H.t, 1, "p1", NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	RUN_UNTIL(H.finished == 1);
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(h_last(1, "result"), "result");
	const cJSON *rev = h_last(1, "reveal");
	REQUIRE(res && rev);
	const cJSON *view = cJSON_GetObjectItemCaseSensitive(rev, "view");
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(view, "phase")->valuestring, "over");
	check_same_json(cJSON_GetObjectItemCaseSensitive(view, "result"), res,
			"the final reveal's view.result");
	const cJSON *stats = cJSON_GetObjectItemCaseSensitive(res, "stats");
	CHECK_EQ(h_num(stats, "games_with_ais"), 1);
	/* gems.md "Keys by phase": what an over view keeps */
	static const char *const over_keys[] = {"kind", "viewer", "seat_count", "phase",
						"dungeon", "dungeons", "history", "players",
						"result"};
	int n_keys = 0;
	const cJSON *key;
	cJSON_ArrayForEach(key, view) {
		bool known = false;
		for (size_t i = 0; i < sizeof over_keys / sizeof *over_keys; i++)
			known |= strcmp(key->string, over_keys[i]) == 0;
		CHECK_MSG(known, "over view has '%s'", key->string);
		n_keys++;
	}
	CHECK_EQ(n_keys, (int)(sizeof over_keys / sizeof *over_keys));
	/* and a snapshot of the finished table says the same */
	cJSON *snap = table_snapshot_json(H.t, 1);
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(snap, "game");
	check_same_json(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(g, "view"),
							 "result"),
			res, "the snapshot's view.result");
	cJSON_Delete(snap);
	h_close();
}
