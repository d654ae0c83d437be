/*
 * test_table_replay.c — a table's game as data, on a real uv loop with the
 * "coin" kind (table_coin.h): its record replays to the same result, its
 * events fold into the shared state, and a table rebuilt from its log
 * after a crash holds the same hidden state and plays on.
 */
#include "table_coin.h"
#include "table_harness.h"

static char err[256];

/* Plays a mixed table to the end: humans 1 (seat 0) and 2 (seat 2) call
 * by a fixed pattern, seat 1 is AI. */
static void play_mixed(int rounds)
{
	table_settings s = h_settings(&coin_kind, 3);
	char c[40];
	snprintf(c, sizeof c, "{\"rounds\": %d}", rounds);
	cJSON *cfg = cJSON_Parse(c);
	s.config = cfg;
	s.window_ms = 1;
	s.seed = 1234567;
	h_open(&s);
	cJSON_Delete(cfg);
	table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL);
	table_add_ai(H.t, 1, 1, NULL, TABLE_NOTIFY_ALL);
	table_join(H.t, 2, "p2", 2, NULL, NULL, TABLE_NOTIFY_ALL);
}

static void play_on(void)
{
	int guard = 0;
	while (table_get_state(H.t) == TABLE_PLAYING && guard++ < 1000) {
		uint64_t d = table_decision_no(H.t);
		table_choose_code(H.t, 1, -1, 0, (game_choice)(d % 2), err, sizeof err);
		table_choose_code(H.t, 2, -1, 0, (game_choice)((d / 3) % 2), err, sizeof err);
		RUN_UNTIL(table_decision_no(H.t) > d || table_get_state(H.t) != TABLE_PLAYING);
	}
}

TEST(table_replay_of_log_gives_same_result)
{
	coin_shared shared = {.games = 5};
	play_mixed(12);
	H.shared = &shared;
	table_start(H.t, 1);
	play_on();
	REQUIRE(table_get_state(H.t) == TABLE_FINISHED);
	cJSON *rec = table_record_json(H.t);
	/* through JSON, as a store would keep it */
	char *text = cJSON_PrintUnformatted(rec);
	cJSON_Delete(rec);
	rec = cJSON_Parse(text);
	free(text);
	const cJSON *seed = cJSON_GetObjectItemCaseSensitive(rec, "seed");
	CHECK_STR(seed->valuestring, "1234567");
	game_choice *log = NULL;
	size_t n = 0;
	REQUIRE(table_log_parse(cJSON_GetObjectItemCaseSensitive(rec, "log"), 3, &log, &n, err,
				sizeof err) == 0);
	CHECK_EQ(n, table_decision_no(H.t));
	game_state *g = table_replay(&coin_kind, cJSON_GetObjectItemCaseSensitive(rec, "config"),
				     3, strtoull(seed->valuestring, NULL, 10),
				     cJSON_GetObjectItemCaseSensitive(rec, "shared"), log, n, NULL,
				     err, sizeof err);
	REQUIRE(g);
	CHECK(coin_is_over(g));
	cJSON *r = coin_result_json(g, (uint32_t)h_num(rec, "ai_mask"));
	char *a = cJSON_PrintUnformatted(r);
	char *b = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(rec, "result"));
	CHECK_STR(a, b);
	/* the hidden hands too: the shared snapshot was used */
	for (int i = 0; i < 3; i++)
		CHECK_EQ(g->hand[i], table_game(H.t)->hand[i]);
	CHECK(g->hand[0] >= 5000);
	free(a);
	free(b);
	cJSON_Delete(r);
	coin_destroy(g);
	/* a log that does not apply is refused with a message */
	log[0] = 9;
	CHECK(table_replay(&coin_kind, NULL, 3, 1234567, NULL, log, n, NULL, err, sizeof err) ==
	      NULL);
	CHECK(strstr(err, "decision 1") != NULL);
	free(log);
	/* malformed logs */
	cJSON *badlog = cJSON_Parse("[[0,1],[0,1,2]]");
	CHECK_EQ(table_log_parse(badlog, 3, &log, &n, err, sizeof err), -1);
	cJSON_Delete(badlog);
	badlog = cJSON_Parse("[[0,1,-2]]");
	CHECK_EQ(table_log_parse(badlog, 3, &log, &n, err, sizeof err), -1);
	cJSON_Delete(badlog);
	badlog = cJSON_Parse("[[0,1.5,1]]");
	CHECK_EQ(table_log_parse(badlog, 3, &log, &n, err, sizeof err), -1);
	cJSON_Delete(badlog);
	cJSON_Delete(rec);
	h_close();
}

TEST(table_shared_state_folded_from_events)
{
	coin_shared shared = {.games = 0};
	play_mixed(2);
	H.shared = &shared;
	H.fold = &shared;
	table_start(H.t, 1);
	play_on();
	CHECK_EQ(shared.games, 1);
	CHECK(H.events_live > 0);
	h_close();
}

TEST(table_restore_after_crash_same_hidden_state)
{
	coin_shared shared = {.games = 2};
	play_mixed(10);
	H.shared = &shared;
	table_start(H.t, 1);
	/* play four decisions, then "crash" while the fifth is open */
	for (int r = 0; r < 4; r++) {
		uint64_t d = table_decision_no(H.t);
		table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
		table_choose_code(H.t, 2, -1, 0, COIN_TAILS, err, sizeof err);
		RUN_UNTIL(table_decision_no(H.t) > d);
	}
	REQUIRE(table_get_state(H.t) == TABLE_PLAYING);
	game_state before = *table_game(H.t);
	uint64_t seq = table_seq(H.t);
	cJSON *rec = cJSON_Parse(H.record_at_start);
	table_settings s = *table_get_settings(H.t);
	cJSON *cfg = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(rec, "config"), 1);
	s.config = cfg;
	size_t n_log = H.n_plog;
	game_choice *log = xmalloc(n_log * 3 * sizeof *log);
	memcpy(log, H.plog, n_log * 3 * sizeof *log);
	table_free(H.t);
	H.t = NULL;
	const cJSON *seed = cJSON_GetObjectItemCaseSensitive(rec, "seed");
	table_restore_info info = {
		.seed = strtoull(seed->valuestring, NULL, 10),
		.shared = cJSON_GetObjectItemCaseSensitive(rec, "shared"),
		.log = log,
		.n = n_log,
		.seq = seq,
		.seat_kind = {SEAT_HUMAN, SEAT_AI, SEAT_HUMAN},
		.seat_player = {1, 0, 2},
		.seat_name = {"p1", NULL, "p2"},
	};
	H.decisions = 0;
	H.t = table_restore(&H.loop, &h_host, &s, &info, err, sizeof err);
	REQUIRE(H.t);
	CHECK(H.events_replayed > 0);
	const game_state *after = table_game(H.t);
	CHECK_EQ(after->round, before.round);
	CHECK_EQ(after->coin, before.coin); /* the secret of the open decision */
	CHECK_EQ(after->in, before.in);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(after->hand[i], before.hand[i]);
		CHECK_EQ(after->score[i], before.score[i]);
	}
	CHECK_EQ(table_decision_no(H.t), n_log + 1);
	CHECK(table_seq(H.t) > seq);
	CHECK_EQ(table_seat_of(H.t, 1), 0);
	CHECK_EQ(table_seat_of(H.t, 2), 2);
	/* the players come back and play on to the end */
	bool snap = false;
	table_set_connected(H.t, 1, true);
	table_set_connected(H.t, 2, true);
	CHECK_EQ(table_resume(H.t, 1, seq, &snap), TABLE_OK);
	CHECK(snap);
	H.n_plog = n_log;
	play_on();
	CHECK_EQ(table_get_state(H.t), TABLE_FINISHED);
	CHECK_EQ(H.finished, 1);
	/* a log that does not apply: no table */
	table_settings s2 = s;
	s2.id = 8;
	log[0] = 9;
	CHECK(table_restore(&H.loop, &h_host, &s2, &info, err, sizeof err) == NULL);
	free(log);
	cJSON_Delete(cfg);
	cJSON_Delete(rec);
	h_close();
}
