/*
 * test_client_view.c — lair's pure parts: the 80×24 screen grid and its
 * colour policy, option parsing, the table model folding table messages
 * (proto/table.md shapes), the gems view's option keys, the Monte shuffle
 * a human follows, and the rendering of a gems view into screen lines.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include <cJSON.h>

#include "../../client-cli/args.h"
#include "../../client-cli/screen.h"
#include "../../client-cli/tview.h"
#include "../../client-cli/view_deepfall.h"
#include "../../client-cli/view_gems.h"
#include "../test.h"

/* The view of proto/kinds/gems.md's example (a Monte decision), as a
 * snapshot for seat 0 of a 3-seat table with two AI seats; names as in
 * gems.md since 886c382 (bars, size, owed, floor.bars, path kind "bar"). */
static const char *SNAPSHOT =
	"{\"type\":\"table\",\"id\":3,\"table\":7,\"seq\":12,\"name\":\"alice's table\",\"k"
	"ind\":\"gems\",\"state\":\"playing\",\"host\":4,\"you\":0,\"seats\":[{\"seat\":0,"
	"\"kind\":\"human\",\"player\":4,\"name\":\"alice\",\"status\":\"waiting\"},{\"seat"
	"\":1,\"kind\":\"ai\",\"player\":null,\"name\":null,\"status\":\"chosen\"},{\"seat"
	"\":2,\"kind\":\"ai\",\"player\":null,\"name\":null,\"status\":\"chosen\"}],\"spect"
	"ators\":0,\"game\":{\"decision\":5,\"phase\":\"choosing\",\"pending\":[0,1,2],\"de"
	"adline\":12000,\"status\":[\"waiting\",\"chosen\",\"chosen\"],\"options\":[{\"id\""
	":\"leave\",\"label\":\"Leave\"},{\"id\":\"card1\",\"label\":\"Pick Card #1 and Sta"
	"y\"},{\"id\":\"card2\",\"label\":\"Pick Card #2 and Stay\"},{\"id\":\"card3\",\"la"
	"bel\":\"Pick Card #3 and Stay\"}],\"view\":{\"kind\":\"gems\",\"viewer\":0,\"seat_"
	"count\":3,\"phase\":\"decide\",\"dungeon\":1,\"dungeons\":5,\"history\":[],\"playe"
	"rs\":[{\"seat\":0,\"inside\":true,\"pending\":true,\"hand\":2,\"chest\":0,\"bars\""
	":0,\"size\":4,\"owed\":0,\"queens\":0,\"changelings\":0,\"ev\":-0.148,\"take\":0},"
	"{\"seat\":1,\"inside\":true,\"pending\":true,\"hand\":2,\"chest\":5,\"bars\":3,\"s"
	"ize\":8,\"owed\":2,\"queens\":1,\"changelings\":0},{\"seat\":2,\"inside\":false,\""
	"pending\":false,\"hand\":0,\"chest\":9,\"bars\":0,\"size\":4,\"owed\":0,\"queens\""
	":0,\"changelings\":0}],\"depth\":4,\"bravery\":3,\"gold_bars_undiscovered\":4,\"ad"
	"venture\":\"monte\",\"poisons_unused\":0,\"path\":[{\"depth\":1,\"kind\":\"gem\","
	"\"gems\":6},{\"depth\":2,\"kind\":\"bar\",\"value\":3},{\"depth\":3,\"kind\":\"war"
	"ning\",\"warning\":0,\"message\":\"Beware! A gem-stealing spider lies ahead.\"},{"
	"\"depth\":4,\"kind\":\"adventure\",\"adventure\":\"monte\"}],\"room\":{\"depth\":4"
	",\"kind\":\"adventure\",\"adventure\":\"monte\",\"part\":1,\"cards\":[2,1,0],\"swa"
	"ps\":[[0,1],[1,2],[1,2],[1,2],[0,2],[0,1],[0,1]]},\"floor\":{\"gems\":1,\"bars\":["
	"8]},\"odds\":{\"lair\":0.3333333333333333,\"rumor\":2.3333333333333335,\"ev\":-0.1"
	"48,\"take\":0}}}}";

static cJSON *parse(const char *s)
{
	cJSON *j = cJSON_Parse(s);
	if (!j)
		fprintf(stderr, "bad test JSON: %s\n", s);
	return j;
}

static int apply_text(struct tv *tv, const char *text, uint64_t now)
{
	cJSON *m = parse(text);
	int f = tv_apply(tv, m, now, view_gems_event_line);
	cJSON_Delete(m);
	return f;
}

/* ---- screen ---- */

TEST(client_screen_color_policy_no_color_wins)
{
	CHECK_EQ(scr_color_wanted(NULL, "xterm-256color", 1), 1);
	CHECK_EQ(scr_color_wanted("", "xterm-256color", 1), 0); /* no-color.org: any value */
	CHECK_EQ(scr_color_wanted("1", "xterm", 1), 0);
	CHECK_EQ(scr_color_wanted(NULL, "dumb", 1), 0);
	CHECK_EQ(scr_color_wanted(NULL, NULL, 1), 0);
	CHECK_EQ(scr_color_wanted(NULL, "xterm", 0), 0); /* not a terminal */
}

TEST(client_screen_put_clips_to_80x24)
{
	struct scr s;
	scr_init(&s, -1, 0);
	char wide[200];
	memset(wide, 'x', sizeof wide - 1);
	wide[sizeof wide - 1] = '\0';
	CHECK_EQ(scr_put(&s, 0, 70, 0, wide), SCR_W);
	CHECK_EQ(strlen(scr_row(&s, 0)), 80);
	scr_put(&s, 24, 0, 0, "off the screen");
	scr_put(&s, -1, 0, 0, "off the screen");
	CHECK(!scr_contains(&s, "off"));
	scr_put(&s, 5, -3, 0, "abcdef");
	CHECK_STR(scr_row(&s, 5), "def");
	scr_put(&s, 6, 0, 0, "a\tb\x01" "c");
	CHECK_STR(scr_row(&s, 6), "a?b?c");
}

static size_t drain(int fd, char *out, size_t cap)
{
	size_t n = 0;
	ssize_t r;
	while (n + 1 < cap && (r = read(fd, out + n, cap - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	return n;
}

TEST(client_screen_flush_writes_only_changes_and_colour_when_asked)
{
	int p[2];
	REQUIRE(pipe(p) == 0);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	char out[16384];
	for (int color = 0; color <= 1; color++) {
		struct scr s;
		scr_init(&s, p[1], color);
		scr_put(&s, 2, 0, SC_RED | SA_BOLD, "danger");
		scr_flush(&s);
		drain(p[0], out, sizeof out);
		CHECK(strstr(out, "danger") != NULL);
		CHECK_EQ(strstr(out, "\033[0;31;1m") != NULL, color);
		scr_flush(&s); /* nothing changed: nothing written */
		CHECK_EQ(drain(p[0], out, sizeof out), 0);
		scr_put(&s, 7, 0, 0, "tick");
		scr_flush(&s);
		drain(p[0], out, sizeof out);
		CHECK(strstr(out, "\033[8;1H") != NULL); /* row 7 only */
		CHECK(strstr(out, "\033[3;1H") == NULL);
	}
	close(p[0]);
	close(p[1]);
}

/* A terminal that does not take a frame (full, its file description
 * non-blocking as lair's is): the frame is not taken for shown, and the
 * next flush, once the terminal reads again, redraws the whole screen. It
 * stayed stale before (lair play under load: the result never drawn). */
TEST(client_screen_a_frame_the_terminal_did_not_take_is_drawn_again)
{
	int p[2];
	REQUIRE(pipe(p) == 0);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	char junk[4096];
	memset(junk, 'j', sizeof junk);
	while (write(p[1], junk, sizeof junk) > 0) {
	} /* the pipe is full */
	struct scr s;
	scr_init(&s, p[1], 0);
	s.out_wait_ms = 0;
	scr_put(&s, 3, 0, 0, "GAME OVER");
	scr_flush(&s); /* EAGAIN: nothing of it written */
	static char out[1 << 20];
	while (drain(p[0], out, sizeof out) > 0) {
	}
	scr_flush(&s); /* nothing changed since, but the frame is not on screen */
	drain(p[0], out, sizeof out);
	CHECK(strstr(out, "GAME OVER") != NULL);
	CHECK(strstr(out, "\033[2J") != NULL); /* whole */
	scr_flush(&s); /* now it is */
	CHECK_EQ(drain(p[0], out, sizeof out), 0);
	close(p[0]);
	close(p[1]);
}

/* A terminal read on another thread, at times slower than frames come:
 * every frame gets there whole (a write that falls short with EAGAIN waits
 * for the reader). */
struct slow_reader {
	int fd;
	size_t got;
	int saw_last;
};

static void *slow_read(void *arg)
{
	struct slow_reader *r = arg;
	char buf[512], tail[16] = "";
	ssize_t n;
	while ((n = read(r->fd, buf, sizeof buf)) != 0) {
		if (n < 0) {
			struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
			poll(&pfd, 1, 1000);
			continue;
		}
		r->got += (size_t)n;
		/* "frame 49" may straddle two reads */
		char joined[16 + sizeof buf + 1];
		size_t t = strlen(tail);
		memcpy(joined, tail, t);
		memcpy(joined + t, buf, (size_t)n);
		joined[t + (size_t)n] = '\0';
		if (strstr(joined, "frame 49"))
			r->saw_last = 1;
		size_t keep = (size_t)n < 8 ? (size_t)n : 8;
		memcpy(tail, buf + n - keep, keep);
		tail[keep] = '\0';
	}
	return NULL;
}

TEST(client_screen_frames_reach_a_slow_terminal_whole)
{
	int p[2];
	REQUIRE(pipe(p) == 0);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	fcntl(p[1], F_SETPIPE_SZ, 4096);
	struct slow_reader r = {.fd = p[0]};
	pthread_t th;
	REQUIRE(pthread_create(&th, NULL, slow_read, &r) == 0);
	struct scr s;
	scr_init(&s, p[1], 1);
	for (int f = 0; f < 50; f++) { /* every row changes: ~3 KB a frame */
		for (int row = 0; row < SCR_H; row++)
			scr_printf(&s, row, 0, (uint8_t)(row % 7 + 1), "frame %d row %d %060d", f,
				   row, f);
		scr_flush(&s);
		CHECK_EQ(s.full, 0); /* all of it written */
	}
	close(p[1]);
	pthread_join(th, NULL);
	close(p[0]);
	CHECK(r.saw_last);
	CHECK(r.got > 50 * 24 * 80);
}

/* Below 80x24 the terminal gets a "too small" notice (once per size), never
 * a garbled frame; enlarged, the whole frame comes back. */
TEST(client_screen_too_small_says_so_instead_of_drawing)
{
	int p[2];
	REQUIRE(pipe(p) == 0);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	char out[16384];
	struct scr s;
	scr_init(&s, p[1], 0);
	scr_put(&s, 2, 0, 0, "the game");
	scr_set_size(&s, 60, 20);
	scr_flush(&s);
	drain(p[0], out, sizeof out);
	CHECK(strstr(out, "terminal too small") != NULL);
	CHECK(strstr(out, "this one is 60x20") != NULL);
	CHECK(strstr(out, "the game") == NULL);
	scr_put(&s, 3, 0, 0, "a tick");
	scr_flush(&s); /* the same size: nothing more */
	CHECK_EQ(drain(p[0], out, sizeof out), 0);
	scr_set_size(&s, 79, 30); /* one column short is too small */
	scr_flush(&s);
	drain(p[0], out, sizeof out);
	CHECK(strstr(out, "this one is 79x30") != NULL);
	scr_set_size(&s, 80, 24);
	scr_flush(&s);
	drain(p[0], out, sizeof out);
	CHECK(strstr(out, "\033[2J") != NULL); /* redrawn whole */
	CHECK(strstr(out, "the game") != NULL && strstr(out, "a tick") != NULL);
	CHECK(strstr(out, "too small") == NULL);
	close(p[0]);
	close(p[1]);
}

/* ---- args ---- */

TEST(client_args_options_flags_positionals)
{
	const char *server = NULL, *pos[2];
	int json = 0, n = 0;
	struct arg_opt o[] = {{"server", &server, NULL}, {"json", NULL, &json}};
	char err[128];
	char *a1[] = {"stats", "bob", "--server", "ws://h:1/", "--json"};
	CHECK_EQ(args_parse(5, a1, o, 2, pos, 1, &n, err, sizeof err), ARGS_OK);
	CHECK_STR(server, "ws://h:1/");
	CHECK_EQ(json, 1);
	CHECK_EQ(n, 1);
	CHECK_STR(pos[0], "bob");
	char *a2[] = {"stats", "--server=ws://x:2/", "--", "--json"};
	json = 0;
	CHECK_EQ(args_parse(4, a2, o, 2, pos, 1, &n, err, sizeof err), ARGS_OK);
	CHECK_STR(server, "ws://x:2/");
	CHECK_EQ(json, 0);
	CHECK_STR(pos[0], "--json");
	char *a3[] = {"stats", "-h"};
	CHECK_EQ(args_parse(2, a3, o, 2, pos, 1, &n, err, sizeof err), ARGS_HELP);
	char *a4[] = {"stats", "--bogus"};
	CHECK_EQ(args_parse(2, a4, o, 2, pos, 1, &n, err, sizeof err), ARGS_ERROR);
	CHECK(strstr(err, "--bogus") != NULL);
	char *a5[] = {"stats", "--server"};
	CHECK_EQ(args_parse(2, a5, o, 2, pos, 1, &n, err, sizeof err), ARGS_ERROR);
	char *a6[] = {"stats", "a", "b"};
	CHECK_EQ(args_parse(3, a6, o, 2, pos, 1, &n, err, sizeof err), ARGS_ERROR);
	char *a7[] = {"stats", "--json=1"};
	CHECK_EQ(args_parse(2, a7, o, 2, pos, 1, &n, err, sizeof err), ARGS_ERROR);
	char *a8[] = {"stats", "-x"};
	CHECK_EQ(args_parse(2, a8, o, 2, pos, 1, &n, err, sizeof err), ARGS_ERROR);
}

TEST(client_args_ids)
{
	long long id = 0;
	CHECK_EQ(args_id("42", &id), 0);
	CHECK_EQ(id, 42);
	CHECK_EQ(args_id("0", &id), -1);
	CHECK_EQ(args_id("-1", &id), -1);
	CHECK_EQ(args_id("4x", &id), -1);
	CHECK_EQ(args_id("", &id), -1);
	CHECK_EQ(args_id("99999999999999999999", &id), -1);
}

/* ---- table model ---- */

TEST(client_tview_snapshot_then_updates_in_seq_order)
{
	struct tv tv;
	tv_init(&tv);
	int f = apply_text(&tv, SNAPSHOT, 1000);
	CHECK(f & TV_CHANGED);
	CHECK(f & TV_OPTIONS);
	CHECK_EQ(tv.table, 7);
	CHECK_EQ(tv.seq, 12);
	CHECK_EQ(tv.seat, 0);
	CHECK_STR(tv.kind, "gems");
	CHECK_STR(tv.state, "playing");
	CHECK_EQ(tv.n_seats, 3);
	CHECK_EQ(tv.decision, 5);
	CHECK_EQ(tv.deadline_at, 13000);
	CHECK_EQ(tv_n_options(&tv), 4);
	CHECK_STR(tv_option_key(&tv, 1), "card1");
	CHECK_STR(tv_option_label(&tv, 1), "Pick Card #1 and Stay");
	CHECK(cJSON_IsString(tv_option_choice(&tv, 1))); /* gems.md: answer with the id */
	CHECK_STR(tv.status[0], "waiting");
	CHECK_STR(tv.status[1], "chosen");
	char tmp[32];
	CHECK_STR(tv_seat_name(&tv, 0, tmp, sizeof tmp), "alice");
	CHECK_STR(tv_seat_name(&tv, 1, tmp, sizeof tmp), "AI 2");
	CHECK(tv_seat_is_ai(&tv, 2));

	/* our own choice comes back in status: the key shows as chosen */
	f = apply_text(&tv, "{\"type\":\"status\",\"table\":7,\"seq\":13,\"decision\":5,"
			    "\"status\":[\"chosen\",\"chosen\",\"chosen\"],\"choice\":\"card2\"}",
		       2000);
	CHECK(f & TV_CHANGED);
	CHECK_EQ(tv.chosen, 2);
	/* the window: a countdown from the local clock */
	apply_text(&tv, "{\"type\":\"window\",\"table\":7,\"seq\":14,\"closes_in_ms\":1000,"
			"\"status\":[\"chosen\",\"chosen\",\"chosen\"]}",
		   3000);
	CHECK_EQ(tv.window_at, 4000);
	/* an old seq (a resume resending) changes nothing */
	CHECK_EQ(apply_text(&tv, "{\"type\":\"window\",\"table\":7,\"seq\":14}", 9000), 0);
	CHECK_EQ(tv.window_at, 4000);
	/* another table's message is not ours */
	CHECK_EQ(apply_text(&tv, "{\"type\":\"window\",\"table\":8,\"seq\":15}", 9000), 0);
	/* the reveal ends the decision and logs the events */
	f = apply_text(&tv, "{\"type\":\"reveal\",\"table\":7,\"seq\":15,\"decision\":5,"
			    "\"choices\":[{\"seat\":0,\"choice\":\"card2\",\"ai\":false}],"
			    "\"events\":[{\"type\":\"monte_seat\",\"seat\":0,\"card\":2,"
			    "\"gems\":1},"
			    "{\"type\":\"gems\",\"gems\":9,\"floor\":0}]}",
		       4000);
	CHECK(f & TV_REVEAL);
	CHECK_EQ(tv_n_options(&tv), 0);
	CHECK_EQ(tv.window_at, 0);
	CHECK_EQ(tv.log_len, 2);
	CHECK_STR(tv.log[0], "You picked card #2: +1 gems.");
	/* a gap is reported and not folded (table_sync since 15 resends it) */
	f = apply_text(&tv, "{\"type\":\"status\",\"table\":7,\"seq\":18,"
			    "\"status\":[\"idle\",\"idle\",\"idle\"]}", 5000);
	CHECK_EQ(f, TV_GAP);
	CHECK_EQ(tv.seq, 15);
	CHECK_STR(tv.status[0], "chosen");
	/* the sync's updates then fold in order */
	CHECK(apply_text(&tv, "{\"type\":\"status\",\"table\":7,\"seq\":16}", 5000) & TV_CHANGED);
	CHECK_EQ(tv.seq, 16);
	tv_free(&tv);
}

/* A reveal with view_patch (lair asks for it in hello) patches the view it
 * holds; one that does not apply is not folded: a gap, so table_sync
 * resends it (whole). */
TEST(client_tview_reveal_with_view_patch)
{
	struct tv tv;
	tv_init(&tv);
	apply_text(&tv, SNAPSHOT, 1000);
	REQUIRE(tv.view != NULL);
	cJSON *want = cJSON_Duplicate(tv.view, 1);
	cJSON_ReplaceItemInObjectCaseSensitive(want, "depth", cJSON_CreateNumber(5));
	cJSON_ReplaceItemInObjectCaseSensitive(
		cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(want, "players"), 0), "hand",
		cJSON_CreateNumber(7));
	/* a patch that leads nowhere: nothing changes, a gap */
	int f = apply_text(&tv, "{\"type\":\"reveal\",\"table\":7,\"seq\":13,\"decision\":5,"
				"\"choices\":[],\"events\":[],"
				"\"view_patch\":[[[\"players\",9,\"hand\"],7]]}",
			   2000);
	CHECK_EQ(f, TV_GAP);
	CHECK_EQ(tv.seq, 12);
	CHECK(tv.reveal == NULL);
	f = apply_text(&tv, "{\"type\":\"reveal\",\"table\":7,\"seq\":13,\"decision\":5,"
			    "\"choices\":[],\"events\":[],"
			    "\"view_patch\":[[[\"depth\"],5],[[\"players\",0,\"hand\"],7]]}",
		       2000);
	CHECK(f & TV_REVEAL);
	CHECK_EQ(tv.seq, 13);
	CHECK(cJSON_Compare(tv.view, want, 1));
	/* without a view to patch (none yet): a gap */
	cJSON_Delete(tv.view);
	tv.view = NULL;
	CHECK_EQ(apply_text(&tv, "{\"type\":\"reveal\",\"table\":7,\"seq\":14,"
				 "\"view_patch\":[]}",
			    3000),
		 TV_GAP);
	cJSON_Delete(want);
	tv_free(&tv);
}

TEST(client_tview_monte_deal_result_and_close)
{
	struct tv tv;
	tv_init(&tv);
	apply_text(&tv, SNAPSHOT, 0);
	int f = apply_text(&tv, "{\"type\":\"reveal\",\"table\":7,\"seq\":13,\"choices\":[],"
				"\"events\":[{\"type\":\"monte_deal\",\"cards\":[2,1,-2],"
				"\"swaps\":[[0,1],[1,2]]}]}",
			   0);
	CHECK(f & TV_MONTE);
	CHECK_EQ(tv.monte_n, 2);
	CHECK_EQ(tv.monte_cards[2], -2);
	f = apply_text(&tv, "{\"type\":\"result\",\"table\":7,\"seq\":14,\"result\":{\"seats\":"
			    "[{\"seat\":0,\"score\":43,\"gold_bars\":4,\"winner\":true,"
			    "\"achievements\":[\"highest_score\",\"timid\"]}],"
			    "\"winning_score\":43,\"winners\":[0],\"dungeons\":[]}}",
		       0);
	CHECK(f & TV_RESULT);
	CHECK(tv.result != NULL);
	CHECK_STR(tv.state, "finished");
	f = apply_text(&tv, "{\"type\":\"table_closed\",\"table\":7}", 0);
	CHECK(f & TV_CLOSED);
	tv_free(&tv);
}

/* lean (lair asks for it): a result without `result` takes the one the
 * view we hold carries (proto/table.md §5.7); without either, no result. */
TEST(client_tview_lean_result_from_the_view)
{
	struct tv tv;
	tv_init(&tv);
	apply_text(&tv, SNAPSHOT, 0);
	REQUIRE(tv.view != NULL);
	cJSON *r = cJSON_Parse("{\"seats\":[{\"seat\":0,\"score\":7,\"winner\":true}],"
			       "\"winners\":[0]}");
	cJSON_AddItemToObject(tv.view, "result", cJSON_Duplicate(r, 1));
	int f = apply_text(&tv, "{\"type\":\"result\",\"table\":7,\"seq\":13,\"decisions\":9,"
				"\"seed\":\"5\"}",
			   0);
	CHECK(f & TV_RESULT);
	CHECK(tv.result && cJSON_Compare(tv.result, r, 1));
	CHECK_STR(tv.state, "finished");
	tv_free(&tv);
	cJSON_Delete(r);
	/* a view without one: nothing to show, the state stays */
	tv_init(&tv);
	apply_text(&tv, SNAPSHOT, 0);
	apply_text(&tv, "{\"type\":\"result\",\"table\":7,\"seq\":13,\"decisions\":9}", 0);
	CHECK(tv.result == NULL);
	CHECK(strcmp(tv.state, "finished") != 0);
	tv_free(&tv);
}

/* ---- gems view ---- */

TEST(client_view_gems_option_keys_are_distinct_single_keys)
{
	struct tv tv;
	tv_init(&tv);
	apply_text(&tv, SNAPSHOT, 0);
	char keys[8];
	CHECK_EQ(view_gems_option_keys(&tv, keys, 8), 4);
	CHECK_EQ(keys[0], 'L');
	CHECK_EQ(keys[1], '1');
	CHECK_EQ(keys[2], '2');
	CHECK_EQ(keys[3], '3');
	CHECK_EQ(view_gems_option_for_key(&tv, 'l'), 0); /* case does not matter */
	CHECK_EQ(view_gems_option_for_key(&tv, '3'), 3);
	CHECK_EQ(view_gems_option_for_key(&tv, 'S'), -1); /* not offered now */
	/* every gems id has its own key */
	const char *ids[] = {"leave", "stay",  "bank4", "bank8",  "bank12", "sun",
			     "moon",  "pay",   "card1", "card2",  "card3",  "left",
			     "right", "eat",   "devil3", "devil4", "devil5", "carry"};
	char seen[128] = {0};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		char k = view_gems_choice_key(ids[i]);
		CHECK_MSG(k != 0, "no key for %s", ids[i]);
		CHECK_MSG(!seen[(int)k], "key %c used twice", k);
		CHECK_MSG(k != 'H' && k != 'Q' && k != 'R', "%s takes a screen key", ids[i]);
		seen[(int)k] = 1;
	}
	/* an id this client does not know gets a free letter of its label */
	cJSON_Delete(tv.options);
	tv.options = parse("[{\"id\":\"leave\",\"label\":\"Leave\"},"
			   "{\"id\":\"hide\",\"label\":\"Hide in a barrel\"}]");
	CHECK_EQ(view_gems_option_keys(&tv, keys, 8), 2);
	CHECK_EQ(keys[1], 'I'); /* H is the hand icon */
	tv_free(&tv);
}

TEST(client_view_gems_monte_layout_follows_the_swaps)
{
	struct tv tv;
	tv_init(&tv);
	apply_text(&tv, SNAPSHOT, 0);
	cJSON *ev = parse("[{\"type\":\"monte_deal\",\"cards\":[2,1,0],"
			  "\"swaps\":[[0,1],[1,2],[1,2],[1,2],[0,2],[0,1],[0,1]]}]");
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "type", "reveal");
	cJSON_AddNumberToObject(m, "table", 7);
	cJSON_AddNumberToObject(m, "seq", 13);
	cJSON_AddItemToObject(m, "events", ev);
	CHECK(tv_apply(&tv, m, 0, view_gems_event_line) & TV_MONTE);
	cJSON_Delete(m);
	int pos[3];
	view_gems_monte_layout(&tv, 0, pos);
	CHECK(pos[0] == 0 && pos[1] == 1 && pos[2] == 2);
	view_gems_monte_layout(&tv, 1, pos); /* [0,1]: the valuable card moves to #2 */
	CHECK(pos[0] == 1 && pos[1] == 0 && pos[2] == 2);
	view_gems_monte_layout(&tv, 2, pos); /* [1,2]: then to #3 */
	CHECK_EQ(pos[2], 0);
	view_gems_monte_layout(&tv, 7, pos); /* all seven swaps: back at #1 */
	CHECK(pos[0] == 0 && pos[1] == 2 && pos[2] == 1);

	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.now = 0, .monte_step = 0};
	view_gems_draw(&s, &tv, &ui);
	CHECK(scr_contains(&s, "[+2]  [+1]  [+0]"));
	ui.monte_step = 2;
	view_gems_draw(&s, &tv, &ui);
	CHECK(scr_contains(&s, "swap 2 of 7: #2 <-> #3"));
	tv_free(&tv);
}

TEST(client_view_gems_draws_the_table_in_80x24)
{
	struct tv tv;
	tv_init(&tv);
	apply_text(&tv, SNAPSHOT, 1000);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.now = 2500, .show_hand = 0, .monte_step = -1};
	view_gems_draw(&s, &tv, &ui);
	CHECK(strstr(scr_row(&s, 0), "table 7") != NULL);
	CHECK(strstr(scr_row(&s, 0), "dungeon 1/5") != NULL);
	CHECK(strstr(scr_row(&s, 0), "room 4") != NULL);
	CHECK(strstr(scr_row(&s, 0), "bravery 3") != NULL);
	CHECK_STR(scr_row(&s, 1), "Dungeon: G6 $3 Beware! Monte");
	CHECK(strstr(scr_row(&s, 3), "Floor: 1 gem, bars $8") != NULL);
	CHECK(strstr(scr_row(&s, 4), "Monte (part 1)") != NULL);
	CHECK(strstr(scr_row(&s, 6), ">1 alice") != NULL);
	CHECK(strstr(scr_row(&s, 6), "inside") != NULL);
	CHECK(strstr(scr_row(&s, 6), "waiting") != NULL);
	CHECK(strstr(scr_row(&s, 7), "AI 2") != NULL);
	CHECK(strstr(scr_row(&s, 7), "owes 2 big Q1") != NULL);
	CHECK(strstr(scr_row(&s, 7), "      5     3") != NULL); /* chest 5, 3 bars */
	CHECK(strstr(scr_row(&s, 8), "out") != NULL);
	CHECK(strstr(scr_row(&s, 8), "     9") != NULL); /* AI 3's chest */
	CHECK(strstr(scr_row(&s, 21), "[L] Leave  [1] Pick Card #1 and Stay") != NULL);
	CHECK(scr_contains(&s, "[3] Pick Card #3 and Stay"));
	CHECK(strstr(scr_row(&s, 23), "Choose: 11s left") != NULL); /* 13000 - 2500, rounded up */
	CHECK(!scr_contains(&s, "EV "));
	ui.show_hand = 1; /* the hand icon */
	view_gems_draw(&s, &tv, &ui);
	CHECK(strstr(scr_row(&s, 3), "Hand: lair 33%  rumor 2.3  EV -0.1") != NULL);
	/* the window countdown replaces the deadline */
	apply_text(&tv, "{\"type\":\"window\",\"table\":7,\"seq\":13,\"closes_in_ms\":1000}", 3000);
	ui.now = 3400;
	view_gems_draw(&s, &tv, &ui);
	CHECK(strstr(scr_row(&s, 23), "0.6s to change your mind") != NULL);
	tv_free(&tv);
}

TEST(client_view_gems_draws_the_result)
{
	struct tv tv;
	tv_init(&tv);
	apply_text(&tv, SNAPSHOT, 0);
	apply_text(&tv, "{\"type\":\"result\",\"table\":7,\"seq\":13,\"result\":{\"seats\":["
			"{\"seat\":0,\"score\":21,\"bars\":1,\"winner\":false,"
			"\"achievements\":[\"timid\"]},"
			"{\"seat\":1,\"score\":43,\"bars\":4,\"winner\":true,"
			"\"achievements\":[\"highest_score\",\"skynet\"]},"
			"{\"seat\":2,\"score\":9,\"gold_bars\":0,\"winner\":false,"
			"\"achievements\":[]}],\"winning_score\":43,\"winners\":[1],"
			"\"dungeons\":[{\"adventure\":\"monte\",\"depth\":4,"
			"\"end\":\"all_left\"}]}}",
		   0);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.monte_step = -1};
	view_gems_draw(&s, &tv, &ui);
	CHECK(scr_contains(&s, "GAME OVER"));
	CHECK(scr_contains(&s, "winning score $43"));
	CHECK(strstr(scr_row(&s, 7), "AI 2") != NULL);
	CHECK(strstr(scr_row(&s, 7), "WINNER") != NULL);
	CHECK(strstr(scr_row(&s, 7), "$43    4 bars") != NULL);
	CHECK(strstr(scr_row(&s, 7), "Highest Score, Skynet") != NULL);
	CHECK(strstr(scr_row(&s, 6), ">1 alice") != NULL);
	CHECK(strstr(scr_row(&s, 6), "Timid") != NULL);
	CHECK(scr_contains(&s, "dungeon 1: Monte"));
	CHECK(scr_contains(&s, "everyone left"));
	tv_free(&tv);
}

/* Nine seats, each with every achievement it can hold, and five dungeons:
 * every row fits the 80 columns (the last name is whole, not "Skyn..."),
 * all five dungeons are on the screen. */
TEST(client_view_gems_result_fits_80_columns_with_nine_seats)
{
	struct tv tv;
	tv_init(&tv);
	apply_text(&tv, SNAPSHOT, 0);
	char msg[8192];
	int n = snprintf(msg, sizeof msg, "{\"type\":\"result\",\"table\":7,\"seq\":13,"
					  "\"result\":{\"seats\":[");
	for (int i = 0; i < 9; i++)
		n += snprintf(msg + n, sizeof msg - (size_t)n,
			      "%s{\"seat\":%d,\"score\":1234,\"bars\":12,\"winner\":true,"
			      "\"achievements\":[\"highest_score\",\"deepest_explorer\","
			      "\"most_gems_lost\",\"%s\",\"psychic\",\"skynet\"]}",
			      i ? "," : "", i, i % 2 ? "bold" : "timid");
	n += snprintf(msg + n, sizeof msg - (size_t)n, "],\"winning_score\":1234,\"dungeons\":[");
	static const char *const advs[] = {"little_people", "sun_moon", "ferryman", "mushroom",
					   "scout"};
	for (int d = 0; d < 5; d++)
		n += snprintf(msg + n, sizeof msg - (size_t)n,
			      "%s{\"adventure\":\"%s\",\"depth\":%d,\"end\":\"%s\"}", d ? "," : "",
			      advs[d], 10 + d, d % 2 ? "lair" : "all_left");
	snprintf(msg + n, sizeof msg - (size_t)n, "]}}");
	apply_text(&tv, msg, 0);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.monte_step = -1};
	view_gems_draw(&s, &tv, &ui);
	for (int r = 6; r <= 14; r++) {
		const char *row = scr_row(&s, r);
		CHECK_MSG(strstr(row, "Skynet") != NULL, "row %d: %s", r, row);
		CHECK_MSG(strstr(row, "WINNER") != NULL, "row %d: %s", r, row);
		CHECK(strlen(row) <= SCR_W);
	}
	for (int d = 1; d <= 5; d++) {
		char want[16];
		snprintf(want, sizeof want, "%d: ", d);
		CHECK_MSG(scr_contains(&s, want), "dungeon %d missing", d);
	}
	CHECK(scr_contains(&s, "Little People"));
	CHECK(scr_contains(&s, "14 rooms, all left"));
	tv_free(&tv);
}

/* ---- the kind registry and the generic view ---- */

TEST(client_view_registry_finds_gems_and_falls_back)
{
	CHECK(kind_view_find("gems")->draw == view_gems_draw);
	CHECK(kind_view_find("gems")->option_for_key == view_gems_option_for_key);
	CHECK(kind_view_find("gems")->form_key == NULL);
	CHECK(kind_view_find("deepfall")->draw == view_deepfall_draw);
	CHECK(kind_view_find("deepfall")->form_key == view_deepfall_form_key);
	CHECK(kind_view_find("tarot")->draw == view_generic_draw);
	CHECK(kind_view_find("tarot")->form_key == NULL);
	CHECK(kind_view_find(NULL)->draw == view_generic_draw);
}

TEST(client_view_generic_shows_seats_events_and_form_choices_honestly)
{
	struct tv tv;
	tv_init(&tv);
	/* A kind lair has no screen for (deepfall's form shape, another name). */
	apply_text(&tv, "{\"type\":\"table\",\"table\":3,\"seq\":4,\"name\":\"deep\","
			"\"kind\":\"tarot\",\"state\":\"playing\",\"you\":1,"
			"\"seats\":[{\"seat\":0,\"kind\":\"ai\",\"status\":\"chosen\"},"
			"{\"seat\":1,\"kind\":\"human\",\"name\":\"dee\",\"status\":\"waiting\"}],"
			"\"game\":{\"decision\":1,\"deadline\":5000,"
			"\"status\":[\"chosen\",\"waiting\"],"
			"\"options\":[{\"target\":{\"min\":1,\"max\":6},"
			"\"press\":{\"min\":0,\"max\":3},\"recruit\":[false,true],"
			"\"exit\":[\"persist\",\"cash_out\"]}],\"view\":{}}}",
		   0);
	const struct kind_view *kv = kind_view_find(tv.kind);
	cJSON *m = parse("{\"type\":\"reveal\",\"table\":3,\"seq\":5,\"events\":"
			 "[{\"type\":\"collapse\",\"floor\":6,\"glory\":12}]}");
	tv_apply(&tv, m, 0, kv->event_line);
	cJSON_Delete(m);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.now = 1000, .monte_step = -1};
	/* a fresh decision with a choice form: not playable by keys */
	apply_text(&tv, "{\"type\":\"options\",\"table\":3,\"seq\":6,\"decision\":2,"
			"\"deadline\":5000,\"options\":[{\"target\":{\"min\":1,\"max\":6}}]}",
		   0);
	kv->draw(&s, &tv, &ui);
	CHECK(strstr(scr_row(&s, 0), "tarot") != NULL);
	CHECK(strstr(scr_row(&s, 4), ">2 dee") != NULL);
	CHECK(strstr(scr_row(&s, 4), "waiting") != NULL);
	CHECK(strstr(scr_row(&s, 3), "AI") != NULL);
	CHECK(scr_contains(&s, "collapse floor=6 glory=12"));
	CHECK(scr_contains(&s, "the AI plays your seat"));
	CHECK_EQ(kv->option_for_key(&tv, 'T'), -1);
	CHECK(strstr(scr_row(&s, 23), "4s left") != NULL);
	/* plain {id, label} options of an unknown kind still get keys */
	cJSON_Delete(tv.options);
	tv.options = parse("[{\"id\":\"go\",\"label\":\"Go on\"},"
			   "{\"id\":\"rest\",\"label\":\"Rest\"}]");
	kv->draw(&s, &tv, &ui);
	CHECK(scr_contains(&s, "[G] Go on  [E] Rest"));
	CHECK_EQ(kv->option_for_key(&tv, 'g'), 0);
	CHECK_EQ(kv->option_for_key(&tv, 'E'), 1);
	/* the result: scores and winners */
	apply_text(&tv, "{\"type\":\"result\",\"table\":3,\"seq\":7,\"result\":"
			"{\"scores\":[212,62],\"winners\":[0]}}",
		   0);
	kv->draw(&s, &tv, &ui);
	CHECK(scr_contains(&s, "GAME OVER"));
	CHECK(strstr(scr_row(&s, 3), "212  WINNER") != NULL);
	CHECK(strstr(scr_row(&s, 4), ">2 dee") != NULL);
	tv_free(&tv);
}
