/*
 * test_table.c — the table and its round engine on a real uv loop with the
 * tiny "coin" kind (table_coin.h): seats and life, the change-your-mind
 * window, deadlines and the AI, takeover and leaving, hidden information,
 * sequence numbers and resume, bad choices, the pacer, the error table.
 * What a table waits for from its host: test_table_durable.c; records,
 * replay and recovery: test_table_replay.c; the round without a loop:
 * test_table_round.c. No sockets: the harness records what the table
 * sends.
 */
#include "table_coin.h"
#include "table_harness.h"

static char err[256];

/* Does the JSON of obj contain needle? */
static bool h_has(const cJSON *obj, const char *needle)
{
	char *s = obj ? cJSON_PrintUnformatted(obj) : NULL;
	bool r = s && strstr(s, needle);
	free(s);
	return r;
}

TEST(table_window_change_inside_applies_and_nothing_revealed_before_close)
{
	h_two_humans(&coin_kind, 40, 60000);
	CHECK_EQ(h_count(1, "options"), 1);
	CHECK_EQ(table_choose_code(H.t, 1, -1, 1, COIN_HEADS, err, sizeof err), TABLE_OK);
	h_turn();
	/* p2 sees p1 as "chosen", never what */
	const cJSON *st = h_last(2, "status");
	REQUIRE(st);
	CHECK_STR(h_status(st, 0), "chosen");
	CHECK_STR(h_status(st, 1), "waiting");
	for (int i = 0; i < H.n; i++)
		if (H.m[i].player == 2)
			CHECK_MSG(!strstr(H.m[i].json, "\"call\""), "p2 saw a call: %s",
				  H.m[i].json);
	/* p1's own copy says what it chose */
	CHECK(h_has(h_last(1, "status"), "heads"));
	CHECK_EQ(h_count(0, "window"), 0);
	CHECK_EQ(table_choose_code(H.t, 2, -1, 1, COIN_TAILS, err, sizeof err), TABLE_OK);
	/* every pending seat has chosen: the window opens, nothing revealed */
	CHECK_EQ(h_count(1, "window"), 1);
	CHECK_EQ(h_count(2, "window"), 1);
	CHECK_EQ(h_count(0, "reveal"), 0);
	CHECK(h_num(h_last(1, "window"), "closes_in_ms") <= 40);
	/* p1 changes its mind inside the window; the window does not restart */
	CHECK_EQ(table_choose_code(H.t, 1, 0, 1, COIN_TAILS, err, sizeof err), TABLE_OK);
	CHECK_EQ(h_count(0, "window"), 2);
	CHECK_EQ(h_count(0, "reveal"), 0);
	cJSON *snap = table_snapshot_json(H.t, 2);
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(snap, "game");
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(g, "phase")->valuestring, "window");
	char *ss = cJSON_PrintUnformatted(snap);
	CHECK(strstr(ss, "heads") == NULL || strstr(ss, "\"options\"")); /* no p1 call */
	CHECK(!strstr(ss, "\"choice\":{\"call\":\"tails\"}") ||
	      strstr(ss, "\"you\":1")); /* only its own */
	free(ss);
	cJSON_Delete(snap);
	RUN_UNTIL(h_count(1, "reveal") == 1);
	const cJSON *rv = h_last(2, "reveal");
	bool ai = true;
	CHECK_STR(h_revealed(rv, 0, &ai), "tails"); /* the changed choice applied */
	CHECK(!ai);
	CHECK_STR(h_revealed(rv, 1, NULL), "tails");
	size_t n;
	const game_choice *log = table_log(H.t, &n);
	REQUIRE(n == 1);
	CHECK_EQ(log[0], COIN_TAILS);
	CHECK_EQ(log[1], COIN_TAILS);
	/* then the next decision */
	RUN_UNTIL(h_count(1, "options") == 2);
	CHECK_EQ(h_num(h_last(1, "options"), "decision"), 2);
	h_close();
}

TEST(table_reveal_only_after_window_closes)
{
	h_two_humans(&coin_kind, 30, 60000);
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err);
	/* turn the loop while the window runs: no reveal until its timer */
	uint64_t opened = uv_now(&H.loop);
	RUN_UNTIL(h_count(0, "reveal") > 0);
	CHECK(uv_now(&H.loop) >= opened + 30);
	h_close();
}

TEST(table_choice_after_window_is_next_decision_or_not_pending)
{
	h_two_humans(&coin_kind, 10, 60000);
	H.hold = true;
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err);
	RUN_UNTIL(H.held == 1);
	/* resolved, not yet durable: choices are closed, nothing is revealed */
	CHECK_EQ(table_choose_code(H.t, 1, -1, 0, COIN_TAILS, err, sizeof err),
		 TABLE_ERR_NOT_PENDING);
	CHECK_EQ(h_count(0, "reveal"), 0);
	cJSON *snap = table_snapshot_json(H.t, 1);
	const cJSON *view = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(snap, "game"), "view");
	CHECK_EQ(h_num(view, "round"), 0); /* not applied before durable */
	cJSON_Delete(snap);
	table_decision_durable(H.t, 7); /* stale: ignored */
	CHECK_EQ(h_count(0, "reveal"), 0);
	table_decision_durable(H.t, 1);
	CHECK_EQ(h_count(1, "reveal"), 1);
	CHECK_EQ(h_count(2, "reveal"), 1);
	h_close();
}

TEST(table_deadline_passes_ai_chooses_no_window)
{
	h_two_humans(&coin_kind, 1000, 25);
	CHECK_EQ(table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err), TABLE_OK);
	CHECK_EQ(h_count(0, "window"), 0);
	RUN_UNTIL(h_count(1, "reveal") == 1);
	bool ai = false;
	CHECK(h_revealed(h_last(1, "reveal"), 1, &ai) != NULL);
	CHECK(ai);
	CHECK_EQ(h_count(0, "window"), 0); /* the deadline is final */
	/* p2 is connected: it is not "away", and the next decision waits for it */
	RUN_UNTIL(h_count(2, "options") == 2);
	CHECK_STR(h_status(h_last(2, "options"), 1), "waiting");
	h_close();
}

TEST(table_disconnected_seat_waits_deadline_then_ai_until_back)
{
	h_two_humans(&coin_kind, 5, 25);
	table_set_connected(H.t, 2, false);
	H.offline[2] = true;
	/* not instantly: p2's seat is still waiting */
	CHECK_STR(h_status(h_last(1, "options"), 1), "waiting");
	CHECK_STR(h_status(h_last(1, "status") ? h_last(1, "status") : h_last(1, "options"), 1),
		  "waiting");
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	RUN_UNTIL(h_count(1, "reveal") == 1);
	/* the deadline passed while away: the AI now plays it at once */
	RUN_UNTIL(h_count(1, "options") == 2);
	CHECK_STR(h_status(h_last(1, "options"), 1), "chosen");
	const cJSON *seats = cJSON_GetObjectItemCaseSensitive(h_last(1, "seats"), "seats");
	CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(seats, 1), "away")));
	/* back: the seat is its own again */
	H.offline[2] = false;
	table_set_connected(H.t, 2, true);
	seats = cJSON_GetObjectItemCaseSensitive(h_last(2, "seats"), "seats");
	const cJSON *s1 = cJSON_GetArrayItem(seats, 1);
	CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(s1, "away")));
	/* its choice replaces the AI's pending one */
	CHECK_EQ(table_choose_code(H.t, 2, -1, 0, COIN_LEAVE, err, sizeof err), TABLE_OK);
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	RUN_UNTIL(h_count(1, "reveal") == 2);
	bool ai = true;
	CHECK_STR(h_revealed(h_last(1, "reveal"), 1, &ai), "leave");
	CHECK(!ai);
	h_close();
}

TEST(table_all_ai_runs_to_end_one_decision_per_iteration)
{
	table_settings s = h_settings(&coin_kind, 4);
	cJSON *cfg = cJSON_Parse("{\"rounds\": 40}");
	s.config = cfg;
	h_open(&s);
	cJSON_Delete(cfg);
	CHECK_EQ(table_spectate(H.t, 1, "p1", NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(table_add_ai(H.t, 1, -1, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_add_ai(H.t, 1, -1, NULL, TABLE_NOTIFY_ALL), TABLE_ERR_FULL);
	uint64_t it0 = H.iterations;
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	/* start posts decision 1 and the AIs resolve it; the next waits */
	CHECK_EQ(H.decisions, 1);
	RUN_UNTIL(H.finished == 1);
	CHECK_EQ(table_get_state(H.t), TABLE_FINISHED);
	CHECK(H.decisions >= 2);
	CHECK_EQ(h_count(1, "result"), 1);
	CHECK_EQ(h_count(1, "window"), 0); /* nobody to wait for */
	CHECK(H.iterations - it0 >= (uint64_t)H.decisions - 1);
	size_t n;
	table_log(H.t, &n);
	CHECK_EQ(n, (size_t)H.decisions);
	/* the spectator saw every reveal, and no hand */
	CHECK_EQ(h_count(1, "reveal"), H.decisions);
	for (int i = 0; i < H.n; i++)
		CHECK(!strstr(H.m[i].json, "HIDDEN"));
	h_close();
}

TEST(table_all_ai_pacing_uses_timer)
{
	table_settings s = h_settings(&coin_kind, 2);
	s.pacing_ms = 5;
	h_open(&s);
	table_add_ai(H.t, 1, 0, NULL, TABLE_NOTIFY_ALL);
	table_add_ai(H.t, 1, 1, NULL, TABLE_NOTIFY_ALL);
	uint64_t t0 = uv_now(&H.loop);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	RUN_UNTIL(H.finished == 1);
	CHECK(uv_now(&H.loop) >= t0 + (uint64_t)(H.decisions - 1) * 5);
	h_close();
}

TEST(table_takeover_ai_seat_by_choosing)
{
	table_settings s = h_settings(&coin_kind, 2);
	h_open(&s);
	table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL);
	table_add_ai(H.t, 1, 1, NULL, TABLE_NOTIFY_ALL);
	CHECK_EQ(table_spectate(H.t, 3, "p3", NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	/* the AI seat chose at once (status only) */
	CHECK_STR(h_status(h_last(3, "options"), 1), "chosen");
	/* someone not at the table cannot */
	CHECK_EQ(table_choose_code(H.t, 9, 1, 0, COIN_HEADS, err, sizeof err),
		 TABLE_ERR_NOT_SEATED);
	/* p1 already holds a seat */
	CHECK_EQ(table_choose_code(H.t, 1, 1, 0, COIN_HEADS, err, sizeof err),
		 TABLE_ERR_NOT_YOUR_SEAT);
	CHECK_EQ(table_choose_code(H.t, 3, 1, 0, COIN_LEAVE, err, sizeof err), TABLE_OK);
	CHECK_EQ(table_seat_of(H.t, 3), 1);
	CHECK_EQ(table_seat_kind_of(H.t, 1), SEAT_HUMAN);
	CHECK_STR(table_seat_name(H.t, 1), "p3");
	CHECK(!table_is_spectator(H.t, 3));
	const cJSON *snap = h_last(3, "table");
	REQUIRE(snap);
	CHECK_EQ(h_num(snap, "you"), 1);
	CHECK(h_has(snap, "HIDDEN-1-"));
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	RUN_UNTIL(h_count(1, "reveal") == 1);
	bool ai = true;
	CHECK_STR(h_revealed(h_last(1, "reveal"), 1, &ai), "leave");
	CHECK(!ai);
	h_close();
}

TEST(table_join_ai_seat_mid_game_keeps_its_choice)
{
	table_settings s = h_settings(&coin_kind, 2);
	h_open(&s);
	table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL);
	table_add_ai(H.t, 1, 1, NULL, TABLE_NOTIFY_ALL);
	table_start(H.t, 1);
	int seat = -1;
	/* table.md §4: mid-game, only a watcher may take an AI seat */
	CHECK_EQ(table_join(H.t, 4, "p4", -1, NULL, &seat, TABLE_NOTIFY_ALL), TABLE_ERR_NOT_SEATED);
	CHECK_EQ(table_join(H.t, 4, "p4", 1, NULL, &seat, TABLE_NOTIFY_ALL), TABLE_ERR_NOT_SEATED);
	CHECK_EQ(table_spectate(H.t, 4, "p4", NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_join(H.t, 4, "p4", -1, NULL, &seat, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(seat, 1);
	CHECK_EQ(table_spectate(H.t, 5, "p5", NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_join(H.t, 5, "p5", -1, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_ERR_FULL);
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	RUN_UNTIL(h_count(1, "reveal") == 1);
	bool ai = false;
	CHECK(h_revealed(h_last(1, "reveal"), 1, &ai));
	CHECK(ai); /* the AI's choice stood */
	h_close();
}

TEST(table_leave_mid_game_hands_seat_to_ai)
{
	h_two_humans(&coin_kind, 10, 60000);
	int n2 = 0;
	for (int i = 0; i < H.n; i++)
		n2 += H.m[i].player == 2;
	CHECK_EQ(table_leave(H.t, 2), TABLE_OK);
	CHECK_EQ(table_seat_kind_of(H.t, 1), SEAT_AI);
	h_turn();
	/* the AI chose for it at once */
	CHECK_STR(h_status(h_last(1, "status"), 1), "chosen");
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	RUN_UNTIL(h_count(1, "reveal") == 1);
	bool ai = false;
	CHECK(h_revealed(h_last(1, "reveal"), 1, &ai));
	CHECK(ai);
	int n2b = 0;
	for (int i = 0; i < H.n; i++)
		n2b += H.m[i].player == 2;
	CHECK_EQ(n2b, n2); /* the leaver hears nothing more */
	CHECK_EQ(table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err),
		 TABLE_ERR_NOT_SEATED);
	h_close();
}

TEST(table_hidden_fields_never_reach_others)
{
	table_settings s = h_settings(&coin_kind, 3);
	cJSON *cfg = cJSON_Parse("{\"rounds\": 6}");
	s.config = cfg;
	s.window_ms = 1;
	h_open(&s);
	cJSON_Delete(cfg);
	table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL);
	table_join(H.t, 2, "p2", 1, NULL, NULL, TABLE_NOTIFY_ALL);
	table_add_ai(H.t, 1, 2, NULL, TABLE_NOTIFY_ALL);
	table_spectate(H.t, 3, "p3", NULL, TABLE_NOTIFY_ALL);
	table_start(H.t, 1);
	int guard = 0;
	while (table_get_state(H.t) == TABLE_PLAYING && guard++ < 100) {
		uint64_t d = table_decision_no(H.t);
		table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
		table_choose_code(H.t, 2, -1, 0, COIN_TAILS, err, sizeof err);
		RUN_UNTIL(table_decision_no(H.t) > d || table_get_state(H.t) != TABLE_PLAYING);
		cJSON *sn = table_snapshot_json(H.t, 3);
		char *js = cJSON_PrintUnformatted(sn);
		h_send(NULL, 3, js, strlen(js));
		free(js);
		cJSON_Delete(sn);
	}
	CHECK_EQ(table_get_state(H.t), TABLE_FINISHED);
	int mine[4] = {0};
	for (int i = 0; i < H.n; i++) {
		const hmsg *m = &H.m[i];
		int seat = m->player == 1 ? 0 : m->player == 2 ? 1 : -1;
		for (int j = 0; j < 3; j++) {
			char needle[32];
			snprintf(needle, sizeof needle, "HIDDEN-%d-", j);
			if (strstr(m->json, needle)) {
				CHECK_MSG(j == seat, "player %llu saw %s: %s",
					  (unsigned long long)m->player, needle, m->json);
				mine[m->player]++;
			}
		}
	}
	CHECK(mine[1] > 0 && mine[2] > 0); /* each sees its own */
	h_close();
}

TEST(table_coin_never_shown_before_reveal)
{
	/* The flip of the round being decided is in no message before the
	 * reveal: check that each reveal's coin is not guessable from earlier
	 * messages by asserting no message but a reveal mentions "coin". */
	h_two_humans(&coin_kind, 1, 60000);
	for (int r = 0; r < 3 && table_get_state(H.t) == TABLE_PLAYING; r++) {
		RUN_UNTIL(h_count(1, "options") == r + 1);
		table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
		table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err);
		RUN_UNTIL(h_count(1, "reveal") == r + 1);
	}
	for (int i = 0; i < H.n; i++)
		if (strstr(H.m[i].json, "\"coin\""))
			CHECK_STR(h_type(&H.m[i]), "reveal");
	h_close();
}

TEST(table_seq_strictly_increases_per_player)
{
	table_settings s = h_settings(&coin_kind, 3);
	s.window_ms = 1;
	s.turn_timeout_ms = 10;
	h_open(&s);
	table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL);
	table_join(H.t, 2, "p2", 1, NULL, NULL, TABLE_NOTIFY_ALL);
	table_spectate(H.t, 3, "p3", NULL, TABLE_NOTIFY_ALL);
	table_start(H.t, 1);
	RUN_UNTIL(H.finished == 1);
	for (uint64_t p = 1; p <= 3; p++) {
		double last = 0;
		int seen = 0;
		for (int i = 0; i < H.n; i++) {
			if (H.m[i].player != p)
				continue;
			double q = h_num(H.m[i].obj, "seq");
			CHECK_MSG(q > last, "player %llu: seq %.0f after %.0f",
				  (unsigned long long)p, q, last);
			last = q;
			seen++;
		}
		CHECK(seen > 5);
	}
	h_close();
}

TEST(table_resume_gets_missed_updates_or_snapshot)
{
	h_two_humans(&coin_kind, 1, 15);
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err);
	RUN_UNTIL(h_count(2, "reveal") == 1);
	uint64_t since = (uint64_t)h_num(H.m[H.n - 1].obj, "seq");
	for (int i = H.n - 1; i >= 0; i--)
		if (H.m[i].player == 2) {
			since = (uint64_t)h_num(H.m[i].obj, "seq");
			break;
		}
	H.offline[2] = true;
	table_set_connected(H.t, 2, false);
	RUN_UNTIL(h_count(1, "reveal") == 2); /* p2's seat played at its deadline */
	H.offline[2] = false;
	table_set_connected(H.t, 2, true);
	int first = H.n;
	bool snap = true;
	CHECK_EQ(table_resume(H.t, 2, since, &snap), TABLE_OK);
	CHECK(!snap);
	/* exactly since+1 .. seq, in order, as p2's seat sees them */
	uint64_t want = since + 1;
	for (int i = first; i < H.n; i++) {
		CHECK_EQ(H.m[i].player, 2);
		CHECK_EQ(h_num(H.m[i].obj, "seq"), want);
		want++;
	}
	CHECK_EQ(want, table_seq(H.t) + 1);
	bool saw_reveal = false, saw_own = false;
	for (int i = first; i < H.n; i++) {
		saw_reveal |= strcmp(h_type(&H.m[i]), "reveal") == 0;
		saw_own |= strstr(H.m[i].json, "HIDDEN-1-") != NULL;
		CHECK(!strstr(H.m[i].json, "HIDDEN-0-"));
	}
	CHECK(saw_reveal);
	CHECK(saw_own);
	/* up to date: nothing */
	int n0 = H.n;
	CHECK_EQ(table_resume(H.t, 2, table_seq(H.t), &snap), TABLE_OK);
	CHECK_EQ(H.n, n0);
	/* no seq, or from the future: a snapshot */
	CHECK_EQ(table_resume(H.t, 2, 0, &snap), TABLE_OK);
	CHECK(snap);
	CHECK_STR(h_type(&H.m[H.n - 1]), "table");
	CHECK_EQ(h_num(H.m[H.n - 1].obj, "seq"), table_seq(H.t));
	CHECK_EQ(h_num(H.m[H.n - 1].obj, "you"), 1);
	CHECK_EQ(table_resume(H.t, 9, 1, &snap), TABLE_ERR_NOT_SEATED);
	h_close();
}

TEST(table_resume_too_old_gets_snapshot)
{
	table_settings s = h_settings(&coin_kind, 2);
	s.window_ms = 1;
	s.history_max = 3;
	h_open(&s);
	table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL);
	table_join(H.t, 2, "p2", 1, NULL, NULL, TABLE_NOTIFY_ALL);
	table_start(H.t, 1);
	for (int r = 0; r < 2; r++) {
		RUN_UNTIL(h_count(1, "options") == r + 1);
		table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
		table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err);
		RUN_UNTIL(h_count(2, "reveal") == r + 1 || table_get_state(H.t) != TABLE_PLAYING);
	}
	bool snap = false;
	CHECK_EQ(table_resume(H.t, 2, 1, &snap), TABLE_OK);
	CHECK(snap);
	/* within the last three: the updates */
	CHECK_EQ(table_resume(H.t, 2, table_seq(H.t) - 2, &snap), TABLE_OK);
	CHECK(!snap);
	h_close();
}

TEST(table_illegal_choice_errors_and_changes_nothing)
{
	h_two_humans(&coin_kind, 20, 60000);
	uint64_t seq = table_seq(H.t);
	int n = H.n;
	CHECK_EQ(table_choose_code(H.t, 1, -1, 0, 7, err, sizeof err), TABLE_ERR_ILLEGAL);
	cJSON *bad = cJSON_Parse("{\"call\":\"sideways\"}");
	CHECK_EQ(table_choose(H.t, 1, -1, 0, bad, err, sizeof err), TABLE_ERR_ILLEGAL);
	CHECK(strstr(err, "sideways") != NULL);
	cJSON_Delete(bad);
	bad = cJSON_Parse("[1]");
	CHECK_EQ(table_choose(H.t, 1, -1, 0, bad, err, sizeof err), TABLE_ERR_ILLEGAL);
	cJSON_Delete(bad);
	CHECK_EQ(table_choose(H.t, 1, -1, 0, NULL, err, sizeof err), TABLE_ERR_ILLEGAL);
	CHECK_EQ(table_choose_code(H.t, 1, 1, 0, COIN_HEADS, err, sizeof err),
		 TABLE_ERR_NOT_YOUR_SEAT);
	CHECK_EQ(table_choose_code(H.t, 1, 5, 0, COIN_HEADS, err, sizeof err),
		 TABLE_ERR_NOT_FOUND);
	CHECK_EQ(table_choose_code(H.t, 1, -1, 3, COIN_HEADS, err, sizeof err),
		 TABLE_ERR_WRONG_PHASE);
	CHECK_EQ(table_choose_code(H.t, 8, -1, 0, COIN_HEADS, err, sizeof err),
		 TABLE_ERR_NOT_SEATED);
	CHECK_EQ(table_seq(H.t), seq);
	CHECK_EQ(H.n, n);
	cJSON *snap = table_snapshot_json(H.t, 1);
	CHECK(!cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(snap, "game"),
						"choice"));
	CHECK_STR(h_status(cJSON_GetObjectItemCaseSensitive(snap, "game"), 0), "waiting");
	cJSON_Delete(snap);
	/* a good JSON choice goes through */
	cJSON *good = cJSON_Parse("{\"call\":\"leave\"}");
	CHECK_EQ(table_choose(H.t, 1, -1, 1, good, err, sizeof err), TABLE_OK);
	cJSON_Delete(good);
	table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err);
	RUN_UNTIL(h_count(1, "reveal") == 1);
	/* p1 left the game: no longer pending */
	RUN_UNTIL(h_count(1, "options") == 2 || table_get_state(H.t) != TABLE_PLAYING);
	if (table_get_state(H.t) == TABLE_PLAYING)
		CHECK_EQ(table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err),
			 TABLE_ERR_NOT_PENDING);
	h_close();
}

/* table.md §3 step 2: the choice that completes the set and opens the
 * window sends the window (with every status and the chooser's choice)
 * and no status before it; a change of mind inside it is a status. */
TEST(table_the_choice_opening_the_window_sends_the_window_instead_of_a_status)
{
	h_two_humans(&coin_kind, 60000, 600000);
	CHECK_EQ(table_choose_code(H.t, 1, -1, 1, COIN_HEADS, err, sizeof err), TABLE_OK);
	CHECK_EQ(h_count(2, "status"), 0); /* at the end of the loop's iteration: */
	h_turn();
	CHECK_EQ(h_count(2, "status"), 1); /* not the last choice: a status */
	int before = H.n;
	CHECK_EQ(table_choose_code(H.t, 2, -1, 1, COIN_TAILS, err, sizeof err), TABLE_OK);
	CHECK_EQ(H.n, before + 2); /* one message to each seat: */
	CHECK_STR(h_type(&H.m[before]), "window");
	CHECK_STR(h_type(&H.m[before + 1]), "window");
	const cJSON *w = h_last(2, "window");
	CHECK_STR(h_status(w, 0), "chosen");
	CHECK_STR(h_status(w, 1), "chosen");
	CHECK(h_has(w, "tails")); /* p2's own choice */
	CHECK(!h_has(h_last(1, "window"), "tails"));
	CHECK_EQ(table_choose_code(H.t, 2, -1, 1, COIN_HEADS, err, sizeof err), TABLE_OK);
	h_turn();
	CHECK_EQ(h_count(1, "status"), 2); /* the change: a status */
	CHECK_EQ(h_count(1, "window"), 1);
	CHECK(h_has(h_last(2, "status"), "heads"));
	h_close();
}

TEST(table_selecting_status)
{
	h_two_humans(&coin_kind, 20, 60000);
	CHECK_EQ(table_selecting(H.t, 1), TABLE_OK);
	h_turn();
	CHECK_STR(h_status(h_last(2, "status"), 0), "selecting");
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	h_turn();
	int n = H.n;
	CHECK_EQ(table_selecting(H.t, 1), TABLE_OK); /* chosen stays chosen */
	CHECK_EQ(H.n, n);
	CHECK_EQ(table_selecting(H.t, 9), TABLE_ERR_NOT_SEATED);
	h_close();
}

TEST(table_seats_life_password_host_rematch)
{
	table_settings s = h_settings(&coin_kind, 3);
	s.private_table = true;
	strcpy(s.password, "sesame");
	s.window_ms = 1;
	h_open(&s);
	CHECK_EQ(table_join(H.t, 2, "p2", 0, "wrong", NULL, TABLE_NOTIFY_ALL), TABLE_ERR_PASSWORD);
	CHECK_EQ(table_join(H.t, 2, "p2", 0, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_ERR_PASSWORD);
	CHECK_EQ(table_spectate(H.t, 2, "p2", "sesam", TABLE_NOTIFY_ALL), TABLE_ERR_PASSWORD);
	CHECK_EQ(table_humans(H.t), 0);
	CHECK_EQ(table_join(H.t, 1, "p1", -1, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK); /* the host */
	CHECK_EQ(table_spectate(H.t, 2, "p2", "sesame", TABLE_NOTIFY_ALL), TABLE_OK);
	int seat = -1;
	CHECK_EQ(table_join(H.t, 2, "p2", -1, NULL, &seat, TABLE_NOTIFY_ALL), TABLE_OK); /* watching: admitted */
	CHECK_EQ(seat, 1);
	CHECK(!table_is_spectator(H.t, 2));
	CHECK_EQ(table_join(H.t, 2, "p2", 2, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_ERR_FORBIDDEN);
	CHECK_EQ(table_join(H.t, 3, "p3", 0, "sesame", NULL, TABLE_NOTIFY_ALL), TABLE_ERR_FULL);
	CHECK_EQ(table_join(H.t, 3, "p3", 3, "sesame", NULL, TABLE_NOTIFY_ALL), TABLE_ERR_NOT_FOUND);
	CHECK_EQ(table_add_ai(H.t, 2, 2, NULL, TABLE_NOTIFY_ALL), TABLE_ERR_FORBIDDEN);
	CHECK_EQ(table_add_ai(H.t, 1, 1, NULL, TABLE_NOTIFY_ALL), TABLE_ERR_FULL);
	CHECK_EQ(table_remove_ai(H.t, 1, 2), TABLE_ERR_NOT_FOUND);
	CHECK_EQ(table_start(H.t, 2), TABLE_ERR_FORBIDDEN);
	CHECK_EQ(table_rematch(H.t, 1), TABLE_ERR_WRONG_PHASE);
	cJSON *sum = table_summary_json(H.t);
	char *ss = cJSON_PrintUnformatted(sum);
	CHECK(strstr(ss, "\"humans\":[\"p1\",\"p2\",null]") != NULL);
	CHECK(strstr(ss, "\"private\":true") != NULL);
	CHECK(!strstr(ss, "sesame"));
	free(ss);
	cJSON_Delete(sum);
	/* the host leaves: p2 becomes host */
	CHECK_EQ(table_leave(H.t, 1), TABLE_OK);
	CHECK_EQ(table_host_player(H.t), 2);
	CHECK_EQ(table_leave(H.t, 1), TABLE_ERR_NOT_SEATED);
	CHECK_EQ(table_start(H.t, 2), TABLE_OK);
	/* empty seats were filled by AIs */
	CHECK_EQ(table_seat_kind_of(H.t, 0), SEAT_AI);
	CHECK_EQ(table_seat_kind_of(H.t, 2), SEAT_AI);
	CHECK_EQ(table_start(H.t, 2), TABLE_ERR_WRONG_PHASE);
	CHECK_EQ(table_add_ai(H.t, 2, -1, NULL, TABLE_NOTIFY_ALL), TABLE_ERR_WRONG_PHASE);
	while (table_get_state(H.t) == TABLE_PLAYING) {
		uint64_t d = table_decision_no(H.t);
		table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err);
		RUN_UNTIL(table_decision_no(H.t) > d || table_get_state(H.t) != TABLE_PLAYING);
	}
	CHECK_EQ(H.finished, 1);
	CHECK_EQ(table_join(H.t, 5, "p5", -1, "sesame", NULL, TABLE_NOTIFY_ALL), TABLE_ERR_WRONG_PHASE);
	cJSON *snap = table_snapshot_json(H.t, 2);
	CHECK(cJSON_GetObjectItemCaseSensitive(snap, "result") != NULL);
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(snap, "seed")->valuestring, "42");
	cJSON_Delete(snap);
	CHECK_EQ(table_rematch(H.t, 2), TABLE_OK);
	CHECK_EQ(table_get_state(H.t), TABLE_WAITING);
	CHECK_EQ(table_seat_of(H.t, 2), 1);
	CHECK_EQ(table_remove_ai(H.t, 2, 0), TABLE_OK);
	CHECK_EQ(table_seat_kind_of(H.t, 0), SEAT_EMPTY);
	CHECK_EQ(table_start(H.t, 2), TABLE_OK);
	CHECK_EQ(H.started, 2);
	CHECK(H.changed > 5);
	h_close();
}

TEST(table_new_rejects_bad_settings)
{
	h_init(&coin_kind);
	table_settings s = h_settings(&coin_kind, 0);
	CHECK(table_new(&H.loop, &h_host, &s, err, sizeof err) == NULL);
	s.seats = 10;
	CHECK(table_new(&H.loop, &h_host, &s, err, sizeof err) == NULL);
	s.seats = 2;
	s.turn_timeout_ms = 0;
	CHECK(table_new(&H.loop, &h_host, &s, err, sizeof err) == NULL);
	s.turn_timeout_ms = 100;
	s.private_table = true;
	CHECK(table_new(&H.loop, &h_host, &s, err, sizeof err) == NULL);
	s.private_table = false;
	cJSON *cfg = cJSON_Parse("{\"rounds\": 0}");
	s.config = cfg;
	CHECK(table_new(&H.loop, &h_host, &s, err, sizeof err) == NULL);
	CHECK(strstr(err, "rounds") != NULL);
	cJSON_Delete(cfg);
	h_close();
}

TEST(table_getrandom_seed_when_not_fixed)
{
	table_settings s = h_settings(&coin_kind, 1);
	s.fixed_seed = false;
	h_open(&s);
	table_add_ai(H.t, 1, 0, NULL, TABLE_NOTIFY_ALL);
	table_start(H.t, 1);
	uint64_t a = table_seed(H.t);
	RUN_UNTIL(H.finished == 1);
	table_rematch(H.t, 1);
	table_start(H.t, 1);
	CHECK(table_seed(H.t) != a); /* 2^-64 to fail */
	RUN_UNTIL(H.finished == 2);
	h_close();
}

TEST(table_free_mid_window_and_mid_commit_no_leak)
{
	h_two_humans(&coin_kind, 1000, 60000);
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err);
	CHECK_EQ(h_count(1, "window"), 1);
	h_close(); /* the loop closes with no handle left (checked in h_close) */
	h_two_humans(&coin_kind, 1, 60000);
	H.hold = true;
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err);
	RUN_UNTIL(H.held == 1);
	h_close();
}

TEST(table_resume_class_not_rendered_gets_snapshot)
{
	/* Without watchers the spectators' rendering is not made: a watcher
	 * arriving later and asking from an old seq gets a snapshot; seated
	 * players still get their missed updates. */
	h_two_humans(&coin_kind, 1, 60000);
	uint64_t since = table_seq(H.t);
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	h_turn(); /* its status goes out before anyone watches */
	CHECK_EQ(table_spectate(H.t, 3, "p3", NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	bool snap = false;
	CHECK_EQ(table_resume(H.t, 3, since, &snap), TABLE_OK);
	CHECK(snap);
	CHECK_STR(h_type(&H.m[H.n - 1]), "table");
	CHECK(!h_has(H.m[H.n - 1].obj, "HIDDEN"));
	CHECK_EQ(table_resume(H.t, 2, since, &snap), TABLE_OK);
	CHECK(!snap);
	CHECK_STR(h_type(&H.m[H.n - 1]), "seats");
	CHECK_EQ(h_num(H.m[H.n - 1].obj, "seq"), table_seq(H.t));
	h_close();
}

/* Decisions resolved in the loop iteration being counted, and the most in
 * any one iteration (a check handle closes each iteration's count). */
static int iter_decisions, iter_max, iter_last;
static void count_iteration(uv_check_t *c)
{
	(void)c;
	int d = H.decisions - iter_last;
	iter_last = H.decisions;
	if (d > iter_max)
		iter_max = d;
	iter_decisions += d;
}

static void run_ai_tables(table_pacer *pacer, int n_tables, table **ts)
{
	for (int i = 0; i < n_tables; i++) {
		table_settings s = h_settings(&coin_kind, 2);
		cJSON *cfg = cJSON_Parse("{\"rounds\": 20}");
		s.config = cfg;
		s.id = (uint64_t)(100 + i);
		s.pacer = pacer;
		ts[i] = table_new(&H.loop, &h_host, &s, err, sizeof err);
		cJSON_Delete(cfg);
		table_add_ai(ts[i], 1, 0, NULL, TABLE_NOTIFY_ALL);
		table_add_ai(ts[i], 1, 1, NULL, TABLE_NOTIFY_ALL);
	}
	for (int i = 0; i < n_tables; i++)
		table_start(ts[i], 1);
	iter_last = H.decisions;
	iter_max = 0;
	uv_check_t c;
	uv_check_init(&H.loop, &c);
	uv_check_start(&c, count_iteration);
	RUN_UNTIL(H.finished == n_tables);
	uv_close((uv_handle_t *)&c, NULL);
	for (int i = 0; i < n_tables; i++)
		table_free(ts[i]);
	uv_run(&H.loop, UV_RUN_NOWAIT);
}

TEST(table_pacer_bounds_decisions_per_loop_iteration)
{
	table *ts[40];
	/* without a pacer: one decision per table per iteration, 40 at once */
	h_init(&coin_kind);
	run_ai_tables(NULL, 40, ts);
	CHECK_EQ(iter_max, 40);
	h_close();
	/* with one: at most 3 per iteration, and every game still ends */
	h_init(&coin_kind);
	table_pacer *p = table_pacer_new(&H.loop, 3);
	run_ai_tables(p, 40, ts);
	CHECK(iter_max <= 3);
	CHECK(iter_max >= 1);
	CHECK_EQ(H.finished, 40);
	CHECK_EQ(table_pacer_waiting(p), 0);
	table_pacer_free(p);
	h_close();
}

TEST(table_pacer_free_table_while_waiting)
{
	h_init(&coin_kind);
	table_pacer *p = table_pacer_new(&H.loop, 1);
	table *ts[3];
	for (int i = 0; i < 3; i++) {
		table_settings s = h_settings(&coin_kind, 1);
		s.pacer = p;
		s.id = (uint64_t)(200 + i);
		ts[i] = table_new(&H.loop, &h_host, &s, err, sizeof err);
		table_add_ai(ts[i], 1, 0, NULL, TABLE_NOTIFY_ALL);
		table_start(ts[i], 1);
	}
	CHECK_EQ(table_pacer_waiting(p), 3); /* each resolved its first decision */
	table_free(ts[1]);
	CHECK_EQ(table_pacer_waiting(p), 2);
	RUN_UNTIL(H.finished == 2);
	table_free(ts[0]);
	table_free(ts[2]);
	table_pacer_free(p);
	h_close();
}

TEST(table_errors_have_one_protocol_code_and_message_each)
{
	static const char *const codes[TABLE_ERR_COUNT] = {
		[TABLE_OK] = "ok",
		[TABLE_ERR_NOT_FOUND] = "not_found",
		[TABLE_ERR_FORBIDDEN] = "forbidden",
		[TABLE_ERR_FULL] = "full",
		[TABLE_ERR_PASSWORD] = "wrong_password",
		[TABLE_ERR_NOT_SEATED] = "not_seated",
		[TABLE_ERR_NOT_YOUR_SEAT] = "not_your_seat",
		[TABLE_ERR_NOT_PENDING] = "not_pending",
		[TABLE_ERR_ILLEGAL] = "illegal_choice",
		[TABLE_ERR_WRONG_PHASE] = "wrong_phase",
		[TABLE_ERR_BAD] = "bad_message",
		[TABLE_ERR_INTERNAL] = "internal",
	};
	for (int e = 0; e < TABLE_ERR_COUNT; e++) {
		CHECK_STR(table_err_code((enum table_err)e), codes[e]);
		CHECK_STR(proto_err_code(table_err_proto((enum table_err)e)), codes[e]);
		const char *msg = table_err_message((enum table_err)e);
		CHECK(msg && msg[0]);
		for (int f = 0; f < e; f++)
			CHECK(strcmp(msg, table_err_message((enum table_err)f)) != 0);
	}
	/* out of range: internal, never a crash */
	CHECK_EQ(table_err_proto(TABLE_ERR_COUNT), PROTO_E_INTERNAL);
	CHECK_STR(table_err_message(TABLE_ERR_COUNT), table_err_message(TABLE_ERR_INTERNAL));
}
