/*
 * test_client_hostile.c — lair reads numbers from an untrusted server:
 * every number goes through proto_json_int (or a bounded double), so a
 * huge (1e300, -1e300), fractional (2.5) or mistyped ("7") field is treated
 * as missing: no undefined cast (the sanitizer build runs these too), no
 * crash, and the value is ignored. The table model, the gems and generic
 * screens and oneshot_str (stats, admin listings) are fed hostile JSON.
 */
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../client-cli/oneshot.h"
#include "../../client-cli/screen.h"
#include "../../client-cli/tview.h"
#include "../../client-cli/view.h"
#include "../../client-cli/view_gems.h"
#include "../../proto/proto_msg.h"
#include "../test.h"

static int apply(struct tv *tv, const char *text, uint64_t now)
{
	cJSON *m = cJSON_Parse(text);
	if (!m)
		fprintf(stderr, "bad test JSON: %s\n", text);
	int f = tv_apply(tv, m, now, view_gems_event_line);
	cJSON_Delete(m);
	return f;
}

/* Every screen draws a model without crashing, within the grid. */
static void draw_all(struct tv *tv)
{
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.now = 1000, .show_hand = 1, .monte_step = 2};
	const char *kinds[] = {"gems", "deepfall", ""};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		kind_view_find(kinds[k])->draw(&s, tv, &ui);
		for (int r = 0; r < SCR_H; r++)
			CHECK(strlen(scr_row(&s, r)) <= SCR_W);
	}
}

TEST(client_hostile_proto_json_int_rejects_what_is_not_an_integer_in_range)
{
	const char *bad[] = {"1e300", "-1e300", "2.5", "\"7\"", "true", "null", "[]", "{}",
			     "9007199254740993", "11", "-1"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cJSON *v = cJSON_Parse(bad[i]);
		int64_t out = 42;
		CHECK(!proto_json_int(v, 0, 10, &out));
		CHECK_EQ(out, 42); /* untouched */
		cJSON_Delete(v);
	}
	cJSON *v = cJSON_Parse("7");
	int64_t out = 0;
	CHECK(proto_json_int(v, 0, 10, &out));
	CHECK_EQ(out, 7);
	CHECK(!proto_json_int(NULL, 0, 10, &out));
	cJSON_Delete(v);
}

TEST(client_hostile_snapshot_numbers_are_ignored)
{
	struct tv tv;
	tv_init(&tv);
	/* A snapshot whose table id is unreadable is not folded at all. */
	CHECK_EQ(apply(&tv, "{\"type\":\"table\",\"table\":1e300,\"seq\":1,\"kind\":\"gems\"}", 0),
		 0);
	CHECK_EQ(tv.table, 0);
	CHECK_EQ(apply(&tv, "{\"type\":\"table\",\"table\":2.5,\"seq\":1}", 0), 0);
	/* A readable one with every other number hostile. */
	int f = apply(&tv,
		      "{\"type\":\"table\",\"table\":7,\"seq\":-1e300,\"kind\":\"gems\","
		      "\"state\":\"playing\",\"you\":1e300,"
		      "\"seats\":[{\"seat\":0,\"kind\":\"human\",\"name\":\"a\"},"
		      "{\"seat\":1,\"kind\":\"ai\"}],"
		      "\"game\":{\"decision\":1e300,\"deadline\":1e300,\"closes_in_ms\":-1e300,"
		      "\"options\":[\"stay\",\"leave\"],"
		      "\"view\":{\"dungeon\":1e300,\"depth\":-1e300,\"bravery\":2.5,"
		      "\"path\":[{\"kind\":\"gem\",\"gems\":1e300},{\"kind\":\"bar\","
		      "\"value\":\"8\"}],\"floor\":{\"gems\":-1e300,\"bars\":[1e300,2.5,{"
		      "\"value\":1e300}]},\"odds\":{\"lair\":1e300,\"rumor\":-1e300,"
		      "\"ev\":\"x\"},\"room\":{\"kind\":\"adventure\",\"adventure\":\"monte\","
		      "\"part\":1e300,\"cards\":[1e300,2.5,\"1\"],"
		      "\"swaps\":[[1e300,0],[0,2.5],[\"1\",2],[0,1]]},"
		      "\"players\":[{\"seat\":1e300,\"inside\":true,\"hand\":1e300,"
		      "\"chest\":-1e300,\"bars\":2.5,\"size\":1e300,\"owed\":\"3\","
		      "\"queens\":-1e300,\"changelings\":1e300}]}}}",
		      0);
	CHECK(f & TV_CHANGED);
	CHECK_EQ(tv.table, 7);
	CHECK_EQ(tv.seq, 0);        /* -1e300: ignored */
	CHECK_EQ(tv.seat, -1);      /* 1e300: not a seat, we watch */
	CHECK_EQ(tv.decision, 0);   /* ignored */
	CHECK_EQ(tv.deadline_at, 0); /* no deadline */
	CHECK_EQ(tv.window_at, 0);
	draw_all(&tv);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.now = 0, .show_hand = 1, .monte_step = -1};
	view_gems_draw(&s, &tv, &ui);
	CHECK(!scr_contains(&s, "dungeon "));  /* 1e300 read as absent */
	CHECK(!scr_contains(&s, "bravery"));   /* 2.5 read as absent */
	CHECK(scr_contains(&s, "Floor: 0 gems"));
	CHECK(scr_contains(&s, "Hand: lair -  rumor -  EV -"));
	tv_free(&tv);
}

TEST(client_hostile_updates_numbers_are_ignored)
{
	struct tv tv;
	tv_init(&tv);
	apply(&tv, "{\"type\":\"table\",\"table\":7,\"seq\":3,\"kind\":\"gems\",\"you\":0,"
		   "\"state\":\"playing\",\"seats\":[{\"seat\":0,\"kind\":\"human\"}]}", 0);
	CHECK_EQ(tv.seq, 3);
	/* Another table's id, unreadable: not ours. */
	CHECK_EQ(apply(&tv, "{\"type\":\"status\",\"table\":1e300,\"seq\":4}", 0), 0);
	CHECK_EQ(apply(&tv, "{\"type\":\"status\",\"table\":\"7\",\"seq\":4}", 0), 0);
	/* An unreadable seq is not a step in the sequence. */
	apply(&tv, "{\"type\":\"status\",\"table\":7,\"seq\":3.5}", 0);
	CHECK_EQ(tv.seq, 3);
	CHECK(apply(&tv, "{\"type\":\"options\",\"table\":7,\"seq\":4,\"decision\":-1e300,"
			 "\"deadline\":2.5,\"options\":[\"stay\"]}", 100) & TV_OPTIONS);
	CHECK_EQ(tv.seq, 4);
	CHECK_EQ(tv.decision, 0);
	CHECK_EQ(tv.deadline_at, 0);
	apply(&tv, "{\"type\":\"window\",\"table\":7,\"seq\":5,\"closes_in_ms\":1e300}", 100);
	CHECK_EQ(tv.window_at, 1100); /* the default second */
	apply(&tv, "{\"type\":\"reveal\",\"table\":7,\"seq\":6,\"events\":["
		   "{\"type\":\"monte\",\"swaps\":[[1e300,1],[-1e300,0]],\"cards\":[1e300]},"
		   "{\"type\":\"gem_room\",\"seat\":1e300,\"gems\":1e300,\"floor\":-1e300},"
		   "{\"type\":\"bar\",\"seat\":2.5,\"value\":\"x\"}]}",
	      100);
	CHECK_EQ(tv.monte_n, 0);
	CHECK_EQ(tv.seq, 6);
	apply(&tv, "{\"type\":\"result\",\"table\":7,\"seq\":7,\"result\":{"
		   "\"scores\":[1e300,-1e300],\"winners\":[1e300,2.5,-1,0],"
		   "\"winning_score\":1e300,\"seats\":[{\"seat\":1e300,\"score\":-1e300,"
		   "\"bars\":2.5}]}}",
	      200);
	CHECK(tv.result != NULL);
	draw_all(&tv);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.monte_step = -1};
	view_generic_draw(&s, &tv, &ui);
	CHECK(strstr(scr_row(&s, 3), "     0  WINNER") != NULL); /* 1e300 unread; seat 0 won */
	tv_free(&tv);
}

TEST(client_hostile_oneshot_str_formats_without_casting_huge_numbers)
{
	cJSON *o = cJSON_Parse("{\"a\":1e300,\"b\":-1e300,\"c\":2.5,\"d\":12,\"e\":\"x\"}");
	char tmp[64];
	CHECK_STR(oneshot_str(o, "d", tmp, sizeof tmp), "12");
	CHECK_STR(oneshot_str(o, "c", tmp, sizeof tmp), "2.50");
	CHECK_STR(oneshot_str(o, "e", tmp, sizeof tmp), "x");
	CHECK_STR(oneshot_str(o, "z", tmp, sizeof tmp), "-");
	/* Printed as a (truncated) number, never cast to an integer. */
	CHECK(strlen(oneshot_str(o, "a", tmp, sizeof tmp)) < sizeof tmp);
	CHECK(oneshot_str(o, "b", tmp, sizeof tmp)[0] == '-');
	cJSON_Delete(o);
}

/* Peer text (a table name, seat names, a reveal's events) never reaches
 * the terminal raw: the play screens' cells are printable ASCII whatever
 * the server sends, and the one-shot printers spell it out (common/text.h). */
TEST(client_hostile_peer_text_is_never_raw_on_the_terminal)
{
	struct tv tv;
	tv_init(&tv);
	apply(&tv,
	      "{\"type\":\"table\",\"table\":7,\"seq\":3,\"kind\":\"gems\",\"state\":\"playing\","
	      "\"name\":\"\\u001b]52;c;aGk=\\u0007\\u001b[2J\\u202etable\",\"you\":0,"
	      "\"seats\":[{\"seat\":0,\"kind\":\"human\",\"name\":\"\\u001b]0;pwn\\u0007\"},"
	      "{\"seat\":1,\"kind\":\"human\",\"name\":\"b\\u009b2J\\u2066\"}],"
	      "\"game\":{\"decision\":1,\"options\":[{\"id\":\"stay\",\"label\":\"\\u001b[31mStay\"}],"
	      "\"view\":{\"kind\":\"gems\",\"dungeon\":1,\"players\":[{\"seat\":0},{\"seat\":1}],"
	      "\"path\":[{\"kind\":\"warning\",\"message\":\"\\u001b[2J\"}]}}}",
	      0);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.now = 1000, .show_hand = 1, .monte_step = -1};
	const char *kinds[] = {"gems", "deepfall", ""};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		scr_clear(&s);
		kind_view_find(kinds[k])->draw(&s, &tv, &ui);
		for (int r = 0; r < SCR_H; r++)
			for (int c = 0; c < SCR_W; c++)
				CHECK(s.cur[r][c].ch >= 32 && s.cur[r][c].ch < 127);
	}
	tv_free(&tv);
	cJSON *o = cJSON_Parse("{\"name\":\"a\\u001b]0;t\\u0007\\u202eb\"}");
	char tmp[64];
	CHECK_STR(oneshot_str(o, "name", tmp, sizeof tmp), "a\\x1b]0;t\\x07\\u{202E}b");
	char *j = oneshot_json(cJSON_GetObjectItem(o, "name"));
	CHECK_STR(j, "\"a\\u001b]0;t\\u0007\\u202eb\"");
	free(j);
	cJSON_Delete(o);
}
