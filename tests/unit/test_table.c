/*
 * test_table.c — the table and its round engine on a real uv loop with the
 * tiny "coin" kind (table_coin.h): seats and life, the change-your-mind
 * window, deadlines and the AI, takeover and leaving, hidden information,
 * sequence numbers and resume, bad choices, durability, replay and
 * recovery. No sockets: the harness records what the table sends.
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

/* Two humans (players 1 and 2) seated, started. */
static void two_humans(int window_ms, int timeout_ms)
{
	table_settings s = h_settings(&coin_kind, 2);
	s.window_ms = window_ms;
	s.turn_timeout_ms = timeout_ms;
	h_open(&s);
	CHECK_EQ(table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_join(H.t, 2, "p2", 1, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
}

TEST(table_window_change_inside_applies_and_nothing_revealed_before_close)
{
	two_humans(40, 60000);
	CHECK_EQ(h_count(1, "options"), 1);
	CHECK_EQ(table_choose_code(H.t, 1, -1, 1, COIN_HEADS, err, sizeof err), TABLE_OK);
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
	two_humans(30, 60000);
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
	two_humans(10, 60000);
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
	two_humans(1000, 25);
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
	two_humans(5, 25);
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
	two_humans(10, 60000);
	int n2 = 0;
	for (int i = 0; i < H.n; i++)
		n2 += H.m[i].player == 2;
	CHECK_EQ(table_leave(H.t, 2), TABLE_OK);
	CHECK_EQ(table_seat_kind_of(H.t, 1), SEAT_AI);
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
	two_humans(1, 60000);
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
	two_humans(1, 15);
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
	two_humans(20, 60000);
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

TEST(table_selecting_status)
{
	two_humans(20, 60000);
	CHECK_EQ(table_selecting(H.t, 1), TABLE_OK);
	CHECK_STR(h_status(h_last(2, "status"), 0), "selecting");
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
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

TEST(table_free_mid_window_and_mid_commit_no_leak)
{
	two_humans(1000, 60000);
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
	table_choose_code(H.t, 2, -1, 0, COIN_HEADS, err, sizeof err);
	CHECK_EQ(h_count(1, "window"), 1);
	h_close(); /* the loop closes with no handle left (checked in h_close) */
	two_humans(1, 60000);
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
	two_humans(1, 60000);
	uint64_t since = table_seq(H.t);
	table_choose_code(H.t, 1, -1, 0, COIN_HEADS, err, sizeof err);
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
	two_humans(1, 60000);
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
