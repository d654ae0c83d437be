/*
 * test_table_round.c — the round engine without a loop: a table made with
 * no loop keeps no timers, and the test moves its time (table_advance), so
 * every deadline, window, pause and pacing is checked to the millisecond,
 * with no waiting and nothing left to the machine's load. The same engine
 * on a real loop is test_table.c.
 */
#include "table_coin.h"

#include "../../common/util.h"
#include "../../server/table.h"
#include "../test.h"

/* What the table sent, by player: the types in order, and the last
 * message of each player. */
#define R_PLAYERS 8
static struct {
	char types[R_PLAYERS][4096];
	cJSON *last[R_PLAYERS];
	int reveals, results, decisions, records;
	bool hold;      /* decisions wait for r_durable() */
	uint64_t held;
} R;

static void r_send(void *ud, uint64_t player, const char *json, size_t len)
{
	(void)ud, (void)len;
	if (player >= R_PLAYERS)
		return;
	cJSON *m = cJSON_Parse(json);
	const char *type = cJSON_GetObjectItemCaseSensitive(m, "type")->valuestring;
	strcat(R.types[player], type);
	strcat(R.types[player], " ");
	if (player == 1 && strcmp(type, "reveal") == 0)
		R.reveals++;
	if (player == 1 && strcmp(type, "result") == 0)
		R.results++;
	cJSON_Delete(R.last[player]);
	R.last[player] = m;
}

static void r_decision(void *ud, table *t, uint64_t n, const game_choice *c, int seats)
{
	(void)ud, (void)c, (void)seats;
	R.decisions++;
	if (R.hold)
		R.held = n;
	else
		table_decision_durable(t, n);
}

static const table_host r_host = {.send = r_send, .decision = r_decision};

static char err[200];

/* A table without a loop at time 1000: seats humans (players 1..humans)
 * and AI for the rest, started. */
static table *r_open(int seats, int humans, int window_ms, int timeout_ms, int pause_ms,
		     int pacing_ms)
{
	for (int i = 0; i < R_PLAYERS; i++)
		cJSON_Delete(R.last[i]);
	memset(&R, 0, sizeof R);
	table_settings s = {
		.id = 9,
		.kind = &coin_kind,
		.seats = seats,
		.host = 1,
		.turn_timeout_ms = timeout_ms,
		.window_ms = window_ms,
		.pacing_ms = pacing_ms,
		.reveal_pause_ms = pause_ms,
		.fixed_seed = true,
		.seed = 42,
	};
	table *t = table_new(NULL, &r_host, &s, err, sizeof err);
	if (!t)
		return NULL;
	CHECK_EQ(table_next_wake(t), TABLE_NO_WAKE);
	table_advance(t, 1000);
	if (humans == 0)
		CHECK_EQ(table_spectate(t, 1, "p1", NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	for (int i = 0; i < seats; i++) {
		if (i < humans)
			CHECK_EQ(table_join(t, (uint64_t)i + 1, "p", i, NULL, NULL, TABLE_NOTIFY_ALL),
				 TABLE_OK);
		else
			CHECK_EQ(table_add_ai(t, 1, i, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	}
	CHECK_EQ(table_start(t, 1), TABLE_OK);
	return t;
}

static void r_close(table *t)
{
	table_free(t);
	for (int i = 0; i < R_PLAYERS; i++) {
		cJSON_Delete(R.last[i]);
		R.last[i] = NULL;
	}
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* The snapshot's game.<k> for player 1. */
static double snap_num(const table *t, const char *k)
{
	cJSON *s = table_snapshot_json(t, 1);
	double v = num(cJSON_GetObjectItemCaseSensitive(s, "game"), k);
	cJSON_Delete(s);
	return v;
}

TEST(round_deadline_is_exact_and_final)
{
	table *t = r_open(2, 2, 500, 5000, 0, 0);
	REQUIRE(t);
	/* options at 1000 with a 5000 ms deadline */
	CHECK_EQ(num(R.last[1], "deadline"), 5000);
	CHECK_EQ(table_next_wake(t), 6000);
	CHECK_EQ(table_choose_code(t, 1, -1, 1, COIN_HEADS, err, sizeof err), TABLE_OK);
	/* a choice does not move the deadline */
	CHECK_EQ(table_next_wake(t), 6000);
	CHECK_EQ(table_advance(t, 2500), 6000);
	CHECK_EQ(snap_num(t, "deadline"), 3500);
	CHECK_EQ(table_advance(t, 5999), 6000);
	CHECK_EQ(R.reveals, 0);
	/* the deadline: seat 1's choice is the AI's, the set resolves at once
	 * (no window after a deadline), the reveal goes out */
	table_advance(t, 6000);
	CHECK_EQ(R.decisions, 1);
	CHECK_EQ(R.reveals, 1);
	CHECK(strstr(R.types[2], "status reveal"));
	CHECK(!strstr(R.types[2], "window"));
	r_close(t);
}

TEST(round_window_runs_from_the_last_choice_and_does_not_restart)
{
	table *t = r_open(2, 2, 500, 5000, 0, 0);
	REQUIRE(t);
	table_advance(t, 1200);
	CHECK_EQ(table_choose_code(t, 1, -1, 1, COIN_HEADS, err, sizeof err), TABLE_OK);
	table_advance(t, 1300);
	CHECK_EQ(table_choose_code(t, 2, -1, 1, COIN_TAILS, err, sizeof err), TABLE_OK);
	/* everyone has chosen: the window closes 500 ms from now; the deadline
	 * is gone */
	CHECK_EQ(table_next_wake(t), 1800);
	CHECK_EQ(num(R.last[1], "closes_in_ms"), 500);
	table_advance(t, 1700);
	CHECK_EQ(snap_num(t, "closes_in_ms"), 100);
	CHECK_EQ(table_choose_code(t, 1, -1, 1, COIN_TAILS, err, sizeof err), TABLE_OK);
	CHECK_EQ(table_next_wake(t), 1800);
	CHECK_EQ(table_advance(t, 1799), 1800);
	CHECK_EQ(R.reveals, 0);
	table_advance(t, 1800);
	CHECK_EQ(R.reveals, 1);
	r_close(t);
}

TEST(round_reveal_pause_with_humans_pacing_without)
{
	/* humans: the reveal pause (300) before the next options */
	table *t = r_open(1, 1, 0, 5000, 300, 50);
	REQUIRE(t);
	CHECK_EQ(table_choose_code(t, 1, -1, 1, COIN_HEADS, err, sizeof err), TABLE_OK);
	CHECK_EQ(R.reveals, 1); /* no window: nobody else to wait for */
	CHECK_EQ(table_next_wake(t), 1300);
	table_advance(t, 1299);
	CHECK_EQ(table_decision_no(t), 1);
	table_advance(t, 1300);
	CHECK_EQ(table_decision_no(t), 2);
	CHECK_EQ(table_next_wake(t), 6300);
	r_close(t);
	/* no human seated: the pacing (50) between decisions */
	t = r_open(2, 0, 0, 5000, 300, 50);
	REQUIRE(t);
	CHECK_EQ(R.decisions, 1);
	CHECK_EQ(table_next_wake(t), 1050);
	uint64_t w = table_advance(t, 1050);
	CHECK_EQ(R.decisions, 2);
	CHECK_EQ(w, 1100);
	r_close(t);
}

TEST(round_without_pause_one_step_per_turn)
{
	/* pacing 0: the next decision waits for the loop's next turn (a wake
	 * at the time it was set), one decision per turn, to the end */
	table *t = r_open(3, 0, 0, 5000, 0, 0);
	REQUIRE(t);
	CHECK_EQ(R.decisions, 1);
	uint64_t w = table_next_wake(t);
	CHECK_EQ(w, 1000);
	int turns = 0;
	while (w != TABLE_NO_WAKE && turns < 100) {
		int before = R.decisions;
		w = table_advance(t, 1000);
		turns++;
		CHECK(R.decisions - before <= 1);
	}
	CHECK_EQ(table_get_state(t), TABLE_FINISHED);
	CHECK_EQ(R.results, 1);
	CHECK_EQ(R.decisions, 3); /* coin's 3 rounds */
	CHECK_EQ(turns, 2);       /* the steps to decisions 2 and 3 (its reveal ends it) */
	r_close(t);
}

TEST(round_waits_for_the_store_without_a_wake)
{
	table *t = r_open(1, 1, 0, 5000, 0, 0);
	REQUIRE(t);
	R.hold = true;
	CHECK_EQ(table_choose_code(t, 1, -1, 1, COIN_HEADS, err, sizeof err), TABLE_OK);
	CHECK_EQ(R.held, 1);
	/* resolved, not durable: nothing timed, however late it gets */
	CHECK_EQ(table_next_wake(t), TABLE_NO_WAKE);
	table_advance(t, 999999);
	CHECK_EQ(R.reveals, 0);
	table_decision_durable(t, 1);
	CHECK_EQ(R.reveals, 1);
	CHECK_EQ(table_next_wake(t), 999999);
	r_close(t);
}

TEST(round_time_never_goes_back)
{
	table *t = r_open(2, 2, 500, 5000, 0, 0);
	REQUIRE(t);
	table_advance(t, 3000);
	CHECK_EQ(table_advance(t, 10), 6000);
	CHECK_EQ(snap_num(t, "deadline"), 3000);
	r_close(t);
}
