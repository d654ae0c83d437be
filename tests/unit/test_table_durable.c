/*
 * test_table_durable.c — what a table waits for from its host, on a real uv
 * loop with the "coin" kind (table_coin.h): the result held until the
 * game's record is durable, the game begun only once its start record is,
 * and the pause while the store fails. The rest of the table:
 * test_table.c; its round without a loop: test_table_round.c.
 */
#include "table_coin.h"
#include "table_harness.h"

static char err[256];

/* --- the result waits for the durable record ------------------------------- */

static struct {
	int calls;
	uint64_t game;       /* the number record() was given last */
	bool playing;        /* the table was still PLAYING when asked */
	bool had_result;     /* its record held the result already */
	int results_before;  /* results sent before record() returned to us */
	bool immediate;      /* call table_finished_durable from record() itself */
} R;

static void r_record(void *ud, table *t, uint64_t game)
{
	(void)ud;
	R.calls++;
	R.game = game;
	R.playing = table_get_state(t) == TABLE_PLAYING;
	cJSON *rec = table_record_json(t);
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(rec, "result");
	R.had_result = res && !cJSON_IsNull(res);
	cJSON_Delete(rec);
	R.results_before = h_count(0, "result");
	if (R.immediate)
		table_finished_durable(t, game);
}

/* Two humans at a one-round coin table whose host persists records. */
static void record_table(void)
{
	memset(&R, 0, sizeof R);
	h_init(&coin_kind);
	table_host host = h_host;
	host.record = r_record;
	table_settings s = h_settings(&coin_kind, 2);
	cJSON *cfg = cJSON_Parse("{\"rounds\": 1}");
	s.config = cfg;
	s.window_ms = 1;
	H.t = table_new(&H.loop, &host, &s, err, sizeof err);
	cJSON_Delete(cfg);
	REQUIRE(H.t);
	CHECK_EQ(table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_join(H.t, 2, "p2", 1, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
}

/* Plays the one round and waits for record(). */
static void play_to_record(int calls)
{
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	table_choose_code(H.t, 2, -1, 0, COIN_TAILS, err, sizeof err);
	RUN_UNTIL(R.calls == calls);
}

TEST(table_result_sent_only_after_record_durable_once)
{
	record_table();
	play_to_record(1);
	CHECK(R.playing);
	CHECK(R.had_result);
	CHECK_EQ(R.game, 1);
	/* the last reveal is out, the result is not */
	CHECK_EQ(h_count(1, "reveal"), 1);
	CHECK_EQ(h_count(0, "result"), 0);
	CHECK_EQ(H.finished, 0);
	CHECK_EQ(table_get_state(H.t), TABLE_PLAYING);
	/* waiting longer changes nothing: only the host ends the wait */
	for (int i = 0; i < 5; i++)
		uv_run(&H.loop, UV_RUN_NOWAIT);
	CHECK_EQ(h_count(0, "result"), 0);
	/* a snapshot now shows the last reveal, no result */
	cJSON *snap = table_snapshot_json(H.t, 1);
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(snap, "state")->valuestring, "playing");
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(snap, "game");
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(g, "phase")->valuestring, "between");
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(g, "pending")), 0);
	CHECK(cJSON_GetObjectItemCaseSensitive(snap, "result") == NULL);
	cJSON_Delete(snap);
	/* a resume from the reveal is up to date: nothing pending to send */
	int n0 = H.n;
	bool snapped = true;
	CHECK_EQ(table_resume(H.t, 1, table_seq(H.t), &snapped), TABLE_OK);
	CHECK(!snapped);
	CHECK_EQ(H.n, n0);
	/* nothing to choose, no rematch yet */
	CHECK_EQ(table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err),
		 TABLE_ERR_NOT_PENDING);
	CHECK_EQ(table_rematch(H.t, 1), TABLE_ERR_WRONG_PHASE);
	/* stale calls (another game's number) are ignored */
	table_finished_durable(H.t, 0);
	table_finished_durable(H.t, 2);
	CHECK_EQ(h_count(0, "result"), 0);
	CHECK_EQ(table_get_state(H.t), TABLE_PLAYING);
	/* durable: the result goes out once, to each player */
	table_finished_durable(H.t, 1);
	CHECK_EQ(table_get_state(H.t), TABLE_FINISHED);
	CHECK_EQ(h_count(1, "result"), 1);
	CHECK_EQ(h_count(2, "result"), 1);
	CHECK_EQ(H.finished, 1);
	snap = table_snapshot_json(H.t, 2);
	CHECK(cJSON_GetObjectItemCaseSensitive(snap, "result") != NULL);
	cJSON_Delete(snap);
	/* a repeated call is ignored */
	table_finished_durable(H.t, 1);
	CHECK_EQ(h_count(1, "result"), 1);
	CHECK_EQ(H.finished, 1);
	/* the rematch's game is number 2; game 1's call does not end it */
	CHECK_EQ(table_rematch(H.t, 1), TABLE_OK);
	play_to_record(2);
	CHECK_EQ(R.game, 2);
	table_finished_durable(H.t, 1);
	CHECK_EQ(h_count(1, "result"), 1);
	table_finished_durable(H.t, 2);
	CHECK_EQ(h_count(1, "result"), 2);
	CHECK_EQ(H.finished, 2);
	h_close();
}

TEST(table_record_durable_at_once_from_the_callback)
{
	record_table();
	R.immediate = true; /* re-entrant: record() may call it at once */
	play_to_record(1);
	CHECK_EQ(R.results_before, 0); /* asked before any result went out */
	CHECK_EQ(h_count(1, "result"), 1);
	CHECK_EQ(H.finished, 1);
	CHECK_EQ(table_get_state(H.t), TABLE_FINISHED);
	h_close();
}

TEST(table_freed_while_waiting_for_record_no_leak)
{
	record_table();
	play_to_record(1);
	CHECK_EQ(h_count(0, "result"), 0);
	/* the app drops the table (closed, shutdown) before the store answers:
	 * the result is held in the table and freed with it (ASan/LSan check) */
	h_close();
	CHECK_EQ(R.calls, 1);
}

TEST(table_restore_of_an_ended_log_records_then_sends_result_once)
{
	/* Decision: the crash came after the last decision was durable, before
	 * the record committed. The restored table replays to the end, asks
	 * for the record once, after table_restore has returned, and sends the
	 * result only when that is durable. */
	record_table();
	play_to_record(1);
	REQUIRE(H.n_plog == 1);
	cJSON *rec = cJSON_Parse(H.record_at_start);
	table_settings s = *table_get_settings(H.t);
	cJSON *cfg = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(rec, "config"), 1);
	s.config = cfg;
	game_choice log[2];
	memcpy(log, H.plog, sizeof log);
	uint64_t seq = table_seq(H.t);
	const game_state before = *table_game(H.t);
	table_free(H.t);
	int live = H.events_live;
	table_restore_info info = {
		.seed = strtoull(cJSON_GetObjectItemCaseSensitive(rec, "seed")->valuestring, NULL,
				 10),
		.log = log,
		.n = 1,
		.seq = seq,
		.seat_kind = {SEAT_HUMAN, SEAT_HUMAN},
		.seat_player = {1, 2},
		.seat_name = {"p1", "p2"},
	};
	table_host host = h_host;
	host.record = r_record;
	R.calls = 0;
	H.t = table_restore(&H.loop, &host, &s, &info, err, sizeof err);
	REQUIRE(H.t);
	CHECK_EQ(R.calls, 0); /* not from inside table_restore */
	CHECK_EQ(table_get_state(H.t), TABLE_PLAYING);
	CHECK_EQ(H.events_live, live); /* replayed events are not folded again */
	CHECK(H.events_replayed > 0);
	RUN_UNTIL(R.calls == 1);
	CHECK_EQ(R.game, 1);
	CHECK(R.had_result);
	CHECK_EQ(table_game(H.t)->score[0], before.score[0]);
	CHECK_EQ(table_game(H.t)->score[1], before.score[1]);
	table_set_connected(H.t, 1, true);
	CHECK_EQ(h_count(0, "result"), 0);
	table_finished_durable(H.t, R.game);
	CHECK_EQ(h_count(1, "result"), 1);
	CHECK_EQ(H.finished, 1);
	/* it asks no more */
	for (int i = 0; i < 5; i++)
		uv_run(&H.loop, UV_RUN_NOWAIT);
	CHECK_EQ(R.calls, 1);
	cJSON_Delete(cfg);
	cJSON_Delete(rec);
	h_close();
}

/* --- the start waits for its durable start record ------------------------------ */

static struct {
	int calls;
	uint64_t game;     /* the number start() was given last */
	char *record;      /* table_record_json at that moment */
	int ok;            /* 1: make it durable at once, -1: fail at once, 0: hold */
	int sent_before;   /* messages sent when start() was called */
} S;

static void s_start(void *ud, table *t, uint64_t game)
{
	(void)ud;
	S.calls++;
	S.game = game;
	S.sent_before = H.n;
	free(S.record);
	cJSON *r = table_record_json(t);
	S.record = cJSON_PrintUnformatted(r);
	cJSON_Delete(r);
	if (S.ok)
		table_start_durable(t, game, S.ok > 0);
}

/* A three-seat coin table whose host persists starts: p1 in seat 0, p3
 * watching, seats 1 and 2 empty. */
static void start_table(int ok)
{
	free(S.record);
	memset(&S, 0, sizeof S);
	S.ok = ok;
	h_init(&coin_kind);
	table_host host = h_host;
	host.start = s_start;
	table_settings s = h_settings(&coin_kind, 3);
	H.t = table_new(&H.loop, &host, &s, err, sizeof err);
	REQUIRE(H.t);
	CHECK_EQ(table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_spectate(H.t, 3, "p3", NULL, TABLE_NOTIFY_ALL), TABLE_OK);
}

static const char *seat_kind_in(const cJSON *msg, int seat)
{
	const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(msg, "seats"), seat);
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(e, "kind");
	return cJSON_IsString(k) ? k->valuestring : "?";
}

TEST(table_game_begins_only_once_its_start_is_durable)
{
	start_table(0);
	int n0 = H.n;
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	CHECK_EQ(S.calls, 1);
	CHECK_EQ(S.game, 1);
	/* its record has every seat filled; nothing was sent, nothing folded */
	CHECK(S.record && strstr(S.record, "\"players\":[{\"seat\":0,\"player\":1"));
	CHECK(S.record && !strstr(S.record, "\"kind\":\"empty\""));
	CHECK_EQ(S.sent_before, n0);
	CHECK_EQ(H.n, n0);
	CHECK_EQ(H.events_live, 0);
	CHECK_EQ(H.started, 0);
	CHECK_EQ(table_get_state(H.t), TABLE_WAITING);
	cJSON *snap = table_snapshot_json(H.t, 3);
	CHECK(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(snap, "game")));
	CHECK_STR(seat_kind_in(snap, 1), "empty"); /* not shown filled yet */
	cJSON_Delete(snap);
	/* no second start meanwhile; a player may still take a seat */
	CHECK_EQ(table_start(H.t, 1), TABLE_ERR_WRONG_PHASE);
	CHECK_EQ(table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err),
		 TABLE_ERR_WRONG_PHASE);
	CHECK_EQ(table_join(H.t, 2, "p2", 1, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	/* stale numbers are ignored */
	table_start_durable(H.t, 0, true);
	table_start_durable(H.t, 2, true);
	CHECK_EQ(h_count(0, "start"), 0);
	/* durable: the game begins, with the seats as they are now */
	table_start_durable(H.t, 1, true);
	CHECK_EQ(table_get_state(H.t), TABLE_PLAYING);
	CHECK_EQ(h_count(1, "start"), 1);
	CHECK_EQ(h_count(2, "start"), 1);
	CHECK_EQ(h_count(3, "start"), 1);
	CHECK_EQ(h_count(1, "options"), 1);
	CHECK_EQ(H.started, 1);
	CHECK(H.events_live > 0);
	const cJSON *seats = h_last(3, "seats");
	CHECK_STR(seat_kind_in(seats, 1), "human");
	CHECK_STR(seat_kind_in(seats, 2), "ai");
	table_start_durable(H.t, 1, true); /* repeated: ignored */
	CHECK_EQ(h_count(1, "start"), 1);
	free(S.record);
	S.record = NULL;
	h_close();
}

TEST(table_start_not_durable_drops_the_game_and_says_so)
{
	start_table(0);
	uint64_t seq0 = table_seq(H.t);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	table_start_durable(H.t, 1, false);
	/* everyone at the table is told; nothing of the game was shown */
	CHECK_EQ(h_count(1, "start_failed"), 1);
	CHECK_EQ(h_count(3, "start_failed"), 1);
	const cJSON *f = h_last(1, "start_failed");
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(f, "reason")->valuestring, "store");
	CHECK_EQ(h_num(f, "seq"), (double)seq0 + 1);
	CHECK_EQ(h_count(0, "start"), 0);
	CHECK_EQ(h_count(0, "options"), 0);
	CHECK_EQ(H.events_live, 0);
	CHECK_EQ(table_get_state(H.t), TABLE_WAITING);
	CHECK_EQ(table_seat_kind_of(H.t, 1), SEAT_EMPTY);
	CHECK_EQ(table_seat_kind_of(H.t, 2), SEAT_EMPTY);
	/* the host may try again: the same game number, and this time it begins */
	CHECK_EQ(table_remove_ai(H.t, 1, 1), TABLE_ERR_NOT_FOUND);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	CHECK_EQ(S.game, 1);
	table_start_durable(H.t, 1, true);
	CHECK_EQ(h_count(1, "start"), 1);
	CHECK_EQ(table_seat_kind_of(H.t, 2), SEAT_AI);
	free(S.record);
	S.record = NULL;
	h_close();
}

TEST(table_start_durable_or_failed_at_once_from_the_callback)
{
	start_table(1); /* re-entrant: start() may answer at once */
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	CHECK_EQ(h_count(1, "start"), 1);
	CHECK_EQ(table_seat_kind_of(H.t, 2), SEAT_AI);
	free(S.record);
	S.record = NULL;
	h_close();

	start_table(-1);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	CHECK_EQ(h_count(1, "start_failed"), 1);
	CHECK_EQ(h_count(1, "start"), 0);
	CHECK_EQ(table_get_state(H.t), TABLE_WAITING);
	CHECK_EQ(table_seat_kind_of(H.t, 1), SEAT_EMPTY);
	CHECK_EQ(table_seat_kind_of(H.t, 2), SEAT_EMPTY);
	free(S.record);
	S.record = NULL;
	h_close();
}

TEST(table_freed_while_its_start_is_written_no_leak)
{
	start_table(0);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	h_close(); /* the created game goes with the table (ASan/LSan check) */
	free(S.record);
	S.record = NULL;
}

/* --- pauses while the store fails ----------------------------------------------- */

TEST(table_paused_for_the_store_until_the_decision_is_durable)
{
	h_two_humans(&coin_kind, 1, 60000);
	REQUIRE(table_spectate(H.t, 3, "p3", NULL, TABLE_NOTIFY_ALL) == TABLE_OK);
	H.hold = true;
	table_store_failed(H.t); /* nothing waits for the store yet: ignored */
	CHECK_EQ(h_count(0, "paused"), 0);
	CHECK_EQ(table_choose_code(H.t, 1, -1, 1, COIN_HEADS, err, sizeof err), TABLE_OK);
	CHECK_EQ(table_choose_code(H.t, 2, -1, 1, COIN_TAILS, err, sizeof err), TABLE_OK);
	RUN_UNTIL(H.held == 1);
	/* the store refused decision 1: everyone is told, once */
	table_store_failed(H.t);
	table_store_failed(H.t);
	CHECK_EQ(h_count(1, "paused"), 1);
	CHECK_EQ(h_count(2, "paused"), 1);
	CHECK_EQ(h_count(3, "paused"), 1);
	const cJSON *p = h_last(3, "paused");
	CHECK_EQ(h_num(p, "decision"), 1);
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(p, "reason")->valuestring, "store");
	cJSON *snap = table_snapshot_json(H.t, 3);
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(snap, "game");
	CHECK(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(g, "paused")));
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(g, "phase")->valuestring, "revealing");
	cJSON_Delete(snap);
	CHECK_EQ(h_count(0, "reveal"), 0);
	/* nothing moves while paused */
	for (int i = 0; i < 5; i++)
		uv_run(&H.loop, UV_RUN_NOWAIT);
	CHECK_EQ(h_count(0, "reveal"), 0);
	CHECK_EQ(table_choose_code(H.t, 1, -1, 1, COIN_TAILS, err, sizeof err),
		 TABLE_ERR_NOT_PENDING);
	/* durable at last: resumed, then the reveal, in that order */
	double paused_seq = h_num(h_last(3, "paused"), "seq");
	table_decision_durable(H.t, 1);
	CHECK_EQ(h_count(3, "resumed"), 1);
	CHECK_EQ(h_num(h_last(3, "resumed"), "seq"), paused_seq + 1);
	CHECK_EQ(h_num(h_last(3, "reveal"), "seq"), paused_seq + 2);
	snap = table_snapshot_json(H.t, 3);
	g = cJSON_GetObjectItemCaseSensitive(snap, "game");
	CHECK(cJSON_GetObjectItemCaseSensitive(g, "paused") == NULL);
	cJSON_Delete(snap);
	h_close();
}

TEST(table_paused_for_the_store_until_the_record_is_durable)
{
	record_table();
	play_to_record(1);
	table_store_failed(H.t);
	CHECK_EQ(h_count(1, "paused"), 1);
	CHECK_EQ(h_count(0, "result"), 0);
	table_finished_durable(H.t, 1);
	CHECK_EQ(h_count(1, "resumed"), 1);
	CHECK_EQ(h_num(h_last(1, "result"), "seq"), h_num(h_last(1, "resumed"), "seq") + 1);
	/* a finished table is not paused by a late failure */
	table_store_failed(H.t);
	CHECK_EQ(h_count(1, "paused"), 1);
	h_close();
}
