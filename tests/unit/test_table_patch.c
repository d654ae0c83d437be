/*
 * test_table_patch.c — what a table sends to save bytes and frames
 * (proto/table.md §3 and §5.6): a seat whose player asked for view_patch
 * gets reveals with the changes to its view, which applied to the view it
 * had are the view a snapshot shows, while the other seats and every
 * resume get the whole view; a seat whose player asked for lean gets the
 * reveal, the start and the result without what they say twice, resume
 * still the whole; and the status changes of one loop iteration
 * go out as one `status` update. Real gems tables on a real uv loop.
 */
#include "../../proto/view_patch.h"
#include "table_harness.h"

static char err[256];
static uint32_t patch_players; /* bit p: player p asked for view_patch */
static uint32_t player_caps[8]; /* what else player p asked for (PROTO_CAP_*) */

static uint32_t h_caps(void *ud, uint64_t player)
{
	(void)ud;
	if (player >= 8)
		return 0;
	return player_caps[player] | (patch_players >> player & 1 ? PROTO_CAP_VIEW_PATCH : 0);
}

static table_host patch_host(void)
{
	table_host h = h_host;
	h.caps = h_caps;
	return h;
}

static table_host host;

/* A gems table of `seats` seats, players 1..humans seated, started. */
static void open_gems(int seats, int humans, int window_ms, uint64_t seed)
{
	table_settings s = h_settings(game_kind_find("gems"), seats);
	s.seed = seed;
	s.window_ms = window_ms;
	s.turn_timeout_ms = 600000;
	h_init(s.kind);
	host = patch_host();
	H.t = table_new(&H.loop, &host, &s, err, sizeof err);
	REQUIRE(H.t != NULL);
	for (int i = 0; i < humans; i++)
		CHECK_EQ(table_join(H.t, (uint64_t)i + 1, "p", i, NULL, NULL, TABLE_NOTIFY_ALL),
			 TABLE_OK);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
}

/* Every human seat pending now chooses its first legal option. */
static void humans_choose(int humans)
{
	const game_state *g = table_game(H.t);
	const game_kind *k = table_get_settings(H.t)->kind;
	for (int i = 0; i < humans; i++) {
		if (!(k->pending(g) >> i & 1))
			continue;
		game_choice opts[64];
		REQUIRE(k->options(g, i, opts, 64) > 0);
		CHECK_EQ(table_choose_code(H.t, (uint64_t)i + 1, -1, 0, opts[0], err, sizeof err),
			 TABLE_OK);
	}
}

static const cJSON *field(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The view in player p's snapshot now. */
static cJSON *snapshot_view(uint64_t p)
{
	cJSON *snap = table_snapshot_json(H.t, p);
	cJSON *v = cJSON_Duplicate(field(field(snap, "game"), "view"), true);
	cJSON_Delete(snap);
	return v;
}

static int replayed; /* reveals check_reveal saw replayed whole */

/* Player 1's reveal H.m[i]: its patch applied to *held is the view of
 * its snapshot (the table has run no decision since); a resume from just
 * before it replays the reveal whole. */
static void check_reveal(int i, cJSON **held, uint64_t seed)
{
	const cJSON *mine = H.m[i].obj;
	CHECK(field(mine, "view_patch") && !field(mine, "view"));
	CHECK(field(mine, "events") && field(mine, "choices") && field(mine, "t_close_us"));
	REQUIRE(view_patch_apply(held, field(mine, "view_patch")));
	cJSON *want = snapshot_view(1);
	CHECK_MSG(cJSON_Compare(*held, want, true), "seed %llu decision %.0f",
		  (unsigned long long)seed, h_num(mine, "decision"));
	cJSON_Delete(want);
	int n = H.n;
	bool snap = true;
	CHECK_EQ(table_resume(H.t, 1, (uint64_t)h_num(mine, "seq") - 1, &snap), TABLE_OK);
	REQUIRE(H.n > n);
	if (!snap) {
		CHECK_STR(h_type(&H.m[n]), "reveal");
		CHECK(field(H.m[n].obj, "view") && !field(H.m[n].obj, "view_patch"));
		/* the whole reveal, written in the same walk as the patch, is
		 * the patched one with the view the patch leads to */
		CHECK(cJSON_Compare(field(H.m[n].obj, "view"), *held, true));
		cJSON *whole = cJSON_Duplicate(H.m[n].obj, true), *patched = cJSON_Duplicate(mine, true);
		cJSON_DeleteItemFromObjectCaseSensitive(whole, "view");
		cJSON_DeleteItemFromObjectCaseSensitive(patched, "view_patch");
		CHECK(cJSON_Compare(whole, patched, true));
		replayed++;
		cJSON_Delete(whole);
		cJSON_Delete(patched);
	}
}

TEST(table_view_patch_reveals_apply_to_the_view_held)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		patch_players = 1u << 1; /* player 1 asked, player 2 did not */
		open_gems(4, 2, 0, seed);
		RUN_UNTIL(h_count(1, "options") == 1);
		cJSON *held = cJSON_Duplicate(field(h_last(1, "start"), "view"), true);
		REQUIRE(held != NULL);
		int seen = 0, reveals = 0, whole = 0;
		double chosen = 0;
		for (int turns = 0; turns < 20000 && table_get_state(H.t) == TABLE_PLAYING;
		     turns++) {
			/* What came since the last look: a table runs one decision
			 * a turn, so at most one reveal. */
			int fresh = 0, n = H.n;
			for (; seen < n; seen++) {
				if (H.m[seen].player == 2 && !strcmp(h_type(&H.m[seen]), "reveal"))
					whole += field(H.m[seen].obj, "view") &&
						 !field(H.m[seen].obj, "view_patch");
				if (H.m[seen].player != 1 || strcmp(h_type(&H.m[seen]), "reveal"))
					continue;
				fresh++;
				reveals++;
				check_reveal(seen, &held, seed);
			}
			seen = H.n; /* the resume's replays are not news */
			CHECK(fresh <= 1);
			const cJSON *o = h_last(1, "options");
			if (o && h_num(o, "decision") > chosen &&
			    h_num(o, "decision") > (double)reveals) {
				chosen = h_num(o, "decision");
				humans_choose(2);
			} else {
				uv_run(&H.loop, UV_RUN_ONCE);
			}
		}
		CHECK(reveals > 5);
		CHECK_EQ(replayed, reveals);
		replayed = 0;
		CHECK_EQ(whole, reveals); /* player 2 asked for nothing: whole views */
		CHECK(table_get_state(H.t) == TABLE_FINISHED);
		cJSON_Delete(held);
		h_close();
	}
	patch_players = 0;
}

/* Two seats choosing in one turn of the loop: one `status` to each seat,
 * with both chosen; before the end of the turn, none. */
TEST(table_status_changes_of_one_iteration_are_one_update)
{
	open_gems(3, 3, 60000, 42);
	RUN_UNTIL(h_count(1, "options") == 1);
	const game_state *g = table_game(H.t);
	const game_kind *k = table_get_settings(H.t)->kind;
	REQUIRE(k->pending(g) == 7);
	game_choice opts[64];
	REQUIRE(k->options(g, 0, opts, 64) > 0);
	uint64_t seq = table_seq(H.t);
	CHECK_EQ(table_choose_code(H.t, 1, -1, 0, opts[0], err, sizeof err), TABLE_OK);
	CHECK_EQ(table_choose_code(H.t, 2, -1, 0, opts[0], err, sizeof err), TABLE_OK);
	CHECK_EQ(h_count(3, "status"), 0);
	CHECK_EQ(table_seq(H.t), seq);
	h_turn();
	CHECK_EQ(table_seq(H.t), seq + 1);
	for (uint64_t p = 1; p <= 3; p++) {
		CHECK_EQ(h_count(p, "status"), 1);
		CHECK_STR(h_status(h_last(p, "status"), 0), "chosen");
		CHECK_STR(h_status(h_last(p, "status"), 1), "chosen");
		CHECK_STR(h_status(h_last(p, "status"), 2), "waiting");
	}
	/* seat 0's own rendering carries its choice, the others' do not */
	CHECK(field(h_last(1, "status"), "choice"));
	CHECK(!field(h_last(3, "status"), "choice"));
	/* a change then the set completed in one turn: the window stands for
	 * the status (it carries every seat's) */
	CHECK_EQ(table_choose_code(H.t, 1, -1, 0, opts[1], err, sizeof err), TABLE_OK);
	CHECK_EQ(table_choose_code(H.t, 3, -1, 0, opts[0], err, sizeof err), TABLE_OK);
	h_turn();
	CHECK_EQ(h_count(3, "status"), 1);
	CHECK_EQ(h_count(3, "window"), 1);
	CHECK_STR(h_status(h_last(3, "window"), 0), "chosen");
	CHECK_EQ(table_seq(H.t), seq + 2);
	h_close();
}

/* A status waiting for the end of the turn goes before any other update
 * (here the seats update of a player leaving): seq order is the order of
 * what happened. */
TEST(table_status_waiting_goes_before_the_next_update)
{
	open_gems(3, 3, 60000, 42);
	RUN_UNTIL(h_count(1, "options") == 1);
	game_choice opts[64];
	const game_kind *k = table_get_settings(H.t)->kind;
	REQUIRE(k->options(table_game(H.t), 0, opts, 64) > 0);
	CHECK_EQ(table_choose_code(H.t, 1, -1, 0, opts[0], err, sizeof err), TABLE_OK);
	int n = H.n;
	CHECK_EQ(table_leave(H.t, 2), TABLE_OK); /* seat 1 to the AI: it chooses */
	REQUIRE(H.n > n);
	CHECK_STR(h_type(&H.m[n]), "status");
	CHECK_STR(h_status(H.m[n].obj, 0), "chosen");
	uint64_t last = 0;
	for (int i = n; i < H.n; i++) {
		if (H.m[i].player != 1)
			continue;
		CHECK(h_num(H.m[i].obj, "seq") > (double)last);
		last = (uint64_t)h_num(H.m[i].obj, "seq");
	}
	h_turn(); /* the AI's choice for seat 1: a status at the end of the turn */
	CHECK_STR(h_status(h_last(1, "status"), 1), "chosen");
	h_close();
}

static const char *str_of(const cJSON *o, const char *k)
{
	const cJSON *v = field(o, k);
	return cJSON_IsString(v) ? v->valuestring : "";
}

/* The whole reveal `whole` as a lean seat with caps gets it, but for its
 * view: no events that restate a choice (gems `choice`), `ai` only when
 * true, t_close_us only with timing. */
static cJSON *lean_of(const cJSON *whole, uint32_t caps)
{
	cJSON *o = cJSON_Duplicate(whole, true);
	cJSON_DeleteItemFromObjectCaseSensitive(o, "view");
	cJSON *evs = cJSON_GetObjectItemCaseSensitive(o, "events");
	for (int i = cJSON_GetArraySize(evs) - 1; i >= 0; i--)
		if (!strcmp(str_of(cJSON_GetArrayItem(evs, i), "type"), "choice"))
			cJSON_DeleteItemFromArray(evs, i);
	cJSON *c;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(o, "choices"))
	if (cJSON_IsFalse(field(c, "ai")))
		cJSON_DeleteItemFromObjectCaseSensitive(c, "ai");
	if (!(caps & PROTO_CAP_TIMING))
		cJSON_DeleteItemFromObjectCaseSensitive(o, "t_close_us");
	return o;
}

/* Decision: `lean` leaves out only what is said again elsewhere (and
 * t_close_us, which only benchmarks read): player 1 asks view_patch and
 * lean, player 2 lean and timing, player 3 nothing; seat 3 is the AI's.
 * Each lean reveal is its player's whole reveal (as resume replays it)
 * less exactly those parts; the start to a lean seat has no `seats`, which
 * the seats update right before it (seq one below, sent to everyone: no
 * gap) has; the result has no `result`, which the view held has. */
TEST(table_lean_reveals_leave_out_only_what_is_said_twice)
{
	int lean_reveals = 0, restated = 0, ai_true = 0;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		patch_players = 1u << 1;
		player_caps[1] = PROTO_CAP_LEAN;
		player_caps[2] = PROTO_CAP_LEAN | PROTO_CAP_TIMING;
		open_gems(4, 3, 0, seed);
		RUN_UNTIL(h_count(1, "options") == 1);
		/* the seats update as the game starts, to everyone; then the
		 * start, to the lean players without the seats it repeats */
		for (uint64_t p = 1; p <= 3; p++) {
			const cJSON *st = h_last(p, "start"), *se = h_last(p, "seats");
			REQUIRE(st && se);
			CHECK_STR(str_of(se, "state"), "playing");
			CHECK_EQ(h_num(se, "seq"), h_num(st, "seq") - 1);
			CHECK(cJSON_IsArray(field(se, "seats")));
			if (p == 3)
				CHECK(cJSON_Compare(field(st, "seats"), field(se, "seats"), true));
			else
				CHECK(!field(st, "seats"));
		}
		const cJSON *start = h_last(1, "start");
		REQUIRE(field(start, "view") && field(start, "events"));
		int n = H.n;
		bool snap = true;
		CHECK_EQ(table_resume(H.t, 1, (uint64_t)h_num(start, "seq") - 1, &snap), TABLE_OK);
		CHECK(!snap);
		REQUIRE(H.n > n);
		CHECK_STR(h_type(&H.m[n]), "start"); /* resume: whole */
		CHECK(cJSON_Compare(field(H.m[n].obj, "seats"), field(h_last(3, "start"), "seats"),
				    true));
		CHECK(cJSON_Compare(field(H.m[n].obj, "view"), field(start, "view"), true));
		cJSON *held = cJSON_Duplicate(field(start, "view"), true);
		int seen = H.n, reveals = 0;
		double chosen = 0;
		for (int turns = 0; turns < 20000; turns++) {
			for (int end = H.n; seen < end; seen++) {
				uint64_t p = H.m[seen].player;
				if (p > 2 || strcmp(h_type(&H.m[seen]), "reveal"))
					continue;
				const cJSON *mine = H.m[seen].obj;
				if (p == 1)
					reveals++;
				int at = H.n;
				CHECK_EQ(table_resume(H.t, p, (uint64_t)h_num(mine, "seq") - 1, &snap),
					 TABLE_OK);
				REQUIRE(H.n > at && !snap);
				const cJSON *whole = H.m[at].obj;
				CHECK_STR(h_type(&H.m[at]), "reveal");
				cJSON *want = lean_of(whole, player_caps[p]);
				cJSON *got = cJSON_Duplicate(mine, true);
				const cJSON *wv = field(whole, "view");
				if (p == 1) {
					REQUIRE(view_patch_apply(&held, field(mine, "view_patch")));
					CHECK(cJSON_Compare(held, wv, true));
					cJSON_DeleteItemFromObjectCaseSensitive(got, "view_patch");
				} else {
					CHECK(cJSON_Compare(field(mine, "view"), wv, true));
					cJSON_DeleteItemFromObjectCaseSensitive(got, "view");
				}
				CHECK_MSG(cJSON_Compare(got, want, true), "seed %llu player %llu: %s",
					  (unsigned long long)seed, (unsigned long long)p,
					  H.m[seen].json);
				/* what was left out was there to leave out */
				const cJSON *e;
				cJSON_ArrayForEach(e, field(whole, "events"))
				restated += !strcmp(str_of(e, "type"), "choice");
				cJSON_ArrayForEach(e, field(mine, "choices"))
				ai_true += cJSON_IsTrue(field(e, "ai"));
				lean_reveals++;
				cJSON_Delete(want);
				cJSON_Delete(got);
			}
			seen = H.n; /* the resumes' replays are not news */
			if (table_get_state(H.t) != TABLE_PLAYING)
				break; /* what came before the end is checked */
			const cJSON *o = h_last(1, "options");
			if (o && h_num(o, "decision") > chosen &&
			    h_num(o, "decision") > (double)reveals) {
				chosen = h_num(o, "decision");
				humans_choose(3);
			} else {
				uv_run(&H.loop, UV_RUN_ONCE);
			}
		}
		/* player 3 asked for nothing: its reveals are whole */
		const cJSON *r3 = h_last(3, "reveal");
		REQUIRE(r3 != NULL);
		CHECK(field(r3, "view") && field(r3, "t_close_us"));
		CHECK(cJSON_IsFalse(field(cJSON_GetArrayItem(field(r3, "choices"), 0), "ai")));
		CHECK(table_get_state(H.t) == TABLE_FINISHED);
		/* the result: whole to player 3; to the lean players without
		 * `result`, which the view each holds has, the same */
		const cJSON *res3 = h_last(3, "result");
		REQUIRE(res3 && cJSON_IsObject(field(res3, "result")));
		for (uint64_t p = 1; p <= 2; p++) {
			const cJSON *res = NULL; /* the live one: a resume's replay comes after */
			for (int i = 0; i < H.n && !res; i++)
				if (H.m[i].player == p && !strcmp(h_type(&H.m[i]), "result"))
					res = H.m[i].obj;
			REQUIRE(res != NULL);
			CHECK(!field(res, "result"));
			CHECK(field(res, "seed") && field(res, "decisions"));
		}
		CHECK(cJSON_Compare(field(held, "result"), field(res3, "result"), true));
		CHECK(cJSON_Compare(field(field(h_last(2, "reveal"), "view"), "result"),
				    field(res3, "result"), true));
		cJSON_Delete(held);
		h_close();
	}
	CHECK(lean_reveals > 20);
	CHECK(restated >= lean_reveals); /* at least one choice event each */
	CHECK(ai_true > 0);		  /* the AI seat's choices say so */
	patch_players = 0;
	memset(player_caps, 0, sizeof player_caps);
}

static int records_held;
static void hold_record(void *ud, table *t, uint64_t game)
{
	(void)ud, (void)t, (void)game;
	records_held++;
}

/* Decision: the result is fixed when the game ends. While its record is
 * written a seat may change hands (player 2 leaves: the AI's), yet every
 * view shows the result the `result` message then carries — a lean seat
 * reads it from its view. */
TEST(table_result_in_views_is_fixed_when_the_game_ends)
{
	player_caps[1] = PROTO_CAP_LEAN;
	table_settings s = h_settings(game_kind_find("gems"), 3);
	s.seed = 5;
	s.window_ms = 0;
	s.turn_timeout_ms = 600000;
	h_init(s.kind);
	host = patch_host();
	host.record = hold_record;
	records_held = 0;
	H.t = table_new(&H.loop, &host, &s, err, sizeof err);
	REQUIRE(H.t != NULL);
	for (uint64_t p = 1; p <= 3; p++)
		CHECK_EQ(table_join(H.t, p, "p", (int)p - 1, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
	double chosen = 0;
	for (int turns = 0; turns < 20000 && !records_held; turns++) {
		const cJSON *o = h_last(1, "options");
		if (o && h_num(o, "decision") > chosen) {
			chosen = h_num(o, "decision");
			humans_choose(3);
		} else {
			uv_run(&H.loop, UV_RUN_ONCE);
		}
	}
	REQUIRE(records_held == 1);
	CHECK_EQ(h_count(0, "result"), 0);
	cJSON *before = cJSON_Duplicate(field(field(h_last(1, "reveal"), "view"), "result"), true);
	REQUIRE(cJSON_IsObject(before));
	CHECK_EQ(table_leave(H.t, 2), TABLE_OK); /* seat 1: the AI's now */
	cJSON *snap = table_snapshot_json(H.t, 1);
	const cJSON *shown = field(field(field(snap, "game"), "view"), "result");
	CHECK(cJSON_Compare(shown, before, true));
	table_finished_durable(H.t, 1);
	const cJSON *r3 = h_last(3, "result"), *r1 = h_last(1, "result");
	REQUIRE(r3 && r1);
	CHECK(cJSON_Compare(field(r3, "result"), before, true));
	CHECK(!field(r1, "result")); /* lean: its view has it */
	cJSON_Delete(snap);
	cJSON_Delete(before);
	h_close();
	memset(player_caps, 0, sizeof player_caps);
}
