/*
 * test_crawl_view.c — lair's crawl screen (client-cli/view_crawl.c) fed with
 * what the crawl kind really sends (its view and options, wrapped in a
 * table snapshot): the level and the party in 80×24, single keys turned into
 * the option ids of proto/kinds/crawl.md, a vote and a shop as boxes, the
 * events as log lines, the result, and a hostile view drawn without harm.
 */
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../client-cli/screen.h"
#include "../../client-cli/tview.h"
#include "../../client-cli/view.h"
#include "../../client-cli/view_crawl.h"
#include "../../server/games/crawl/crawl.h"
#include "../test.h"

static const game_kind *K = &crawl_kind;

/* A table snapshot for seat 0 of the state st, as laird would send it. */
static cJSON *snapshot(game_state *st, int seats, uint64_t decision)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "type", "table");
	cJSON_AddNumberToObject(m, "table", 4);
	cJSON_AddNumberToObject(m, "seq", (double)(10 + decision));
	cJSON_AddStringToObject(m, "name", "delve");
	cJSON_AddStringToObject(m, "kind", "crawl");
	cJSON_AddStringToObject(m, "state", "playing");
	cJSON_AddNumberToObject(m, "you", 0);
	cJSON *ss = cJSON_AddArrayToObject(m, "seats");
	for (int s = 0; s < seats; s++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "seat", s);
		cJSON_AddStringToObject(o, "kind", s ? "ai" : "human");
		if (!s)
			cJSON_AddStringToObject(o, "name", "rogue");
		cJSON_AddStringToObject(o, "status", "waiting");
		cJSON_AddItemToArray(ss, o);
	}
	cJSON *g = cJSON_AddObjectToObject(m, "game");
	cJSON_AddNumberToObject(g, "decision", (double)decision);
	cJSON_AddNumberToObject(g, "deadline", 30000);
	if (K->pending(st) & 1)
		cJSON_AddItemToObject(g, "options", K->options_json(st, 0));
	cJSON_AddItemToObject(g, "view", K->view(st, 0));
	return m;
}

static void load(struct tv *tv, game_state *st, int seats)
{
	const cr_game *cg = (const cr_game *)st;
	cJSON *m = snapshot(st, seats, (uint64_t)cg->decision);
	tv_apply(tv, m, 0, view_crawl_event_line);
	cJSON_Delete(m);
}

/* Draws tv's table on a fresh 80×24 screen s, as lair does; ui is the
 * screen's state (its form) for the keys that follow. */
static void draw_fresh(struct scr *s, struct tv *tv, struct view_ui *ui)
{
	scr_init(s, -1, 0);
	*ui = (struct view_ui){.now = 0, .monte_step = -1};
	view_crawl_draw(s, tv, ui);
}

/* A new table view of st (as seat 0 of `seats`), drawn fresh. */
static void show(struct tv *tv, struct scr *s, struct view_ui *ui, game_state *st, int seats)
{
	tv_init(tv);
	load(tv, st, seats);
	draw_fresh(s, tv, ui);
}

static game_state *new_game(int seats, uint64_t seed)
{
	char err[200];
	cJSON *cj = cJSON_Parse("{\"width\": 40, \"height\": 14}");
	void *c = K->config_new(cj, err, sizeof err);
	cJSON_Delete(cj);
	game_state *st = K->create(c, seats, seed, NULL, NULL, err, sizeof err);
	K->config_free(c);
	return st;
}

static char key_id_buf[40];
static const char *key_id(const struct tv *tv, int key)
{
	struct view_form f = {0};
	return view_crawl_key_choice(tv, &f, key, key_id_buf, sizeof key_id_buf);
}

TEST(crawl_C38_lair_draws_the_level_and_the_party_in_80x24)
{
	game_state *st = new_game(2, 3);
	REQUIRE(st);
	cr_game *g = (cr_game *)st;
	g->h[0].inv[0] = (int8_t)cr_item_find(g->cfg.ct, "potion_healing");
	g->n_mon = 0; /* nothing in view: explore and travel are open */
	struct tv tv;
	struct scr s;
	struct view_ui ui;
	show(&tv, &s, &ui, st, 2);
	CHECK_STR(scr_row(&s, 0), " lair  table 4 \"delve\"  crawl  act 1/3  round 0  playing");
	/* you are drawn at your place on the map */
	const cr_hero *h = &g->h[0];
	CHECK_EQ(s.cur[1 + h->y][h->x].ch, '@');
	/* a remembered-or-seen wall is a '#', an unseen tile blank */
	for (int y = 0; y < g->lv.h; y++)
		for (int x = 0; x < g->lv.w; x++) {
			char c = s.cur[1 + y][x].ch;
			if (!(g->flag[y][x] & CR_F_SEEN))
				CHECK(c == ' ');
		}
	CHECK(scr_contains(&s, "@1 you"));
	CHECK(scr_contains(&s, " 2 AI"));
	CHECK(scr_contains(&s, "1 effervescent potion")); /* unknown: its appearance */
	CHECK(!scr_contains(&s, "healing"));
	CHECK(scr_contains(&s, "WASD move . wait O explore R rest"));
	CHECK(scr_contains(&s, "[Q]uit"));
	/* keys: each to an option of this decision, or nothing */
	CHECK_STR(key_id(&tv, 'O'), "explore");
	CHECK_STR(key_id(&tv, '.'), "wait");
	CHECK_STR(key_id(&tv, '1'), "use:0");
	CHECK(key_id(&tv, '2') == NULL); /* an empty slot */
	CHECK(key_id(&tv, 'P') == NULL); /* not on a portal */
	const char *t = key_id(&tv, 'T');
	CHECK(t && !strncmp(t, "travel:", 7));
	for (int d = 0; d < 4; d++) {
		static const char keys[] = "WDSA", *ids[] = {"n", "e", "s", "w"};
		bool open = cr_passable(g->lv.tile[h->y + cr_dy[d]][h->x + cr_dx[d]]);
		const char *id = key_id(&tv, keys[d]);
		CHECK(open ? id && !strcmp(id, ids[d]) : id == NULL);
	}
	/* the form: X then a digit drops; a key sends its choice at once */
	cJSON *choice = NULL;
	CHECK_EQ(view_crawl_form_key(&tv, &ui.form, 'X', &choice), 1);
	CHECK(choice == NULL);
	CHECK_EQ(view_crawl_form_key(&tv, &ui.form, '1', &choice), 1);
	REQUIRE(choice);
	CHECK_STR(choice->valuestring, "drop:0");
	cJSON_Delete(choice);
	CHECK_EQ(view_crawl_form_key(&tv, &ui.form, 'O', &choice), 1);
	REQUIRE(choice);
	CHECK_STR(choice->valuestring, "explore");
	cJSON_Delete(choice);
	view_crawl_draw(&s, &tv, &ui);
	CHECK(scr_contains(&s, "Chosen: Explore"));
	CHECK_EQ(view_crawl_form_key(&tv, &ui.form, 'Q' + 100, &choice), 0);
	/* R rests (C36): only while someone on the map is hurt */
	CHECK(key_id(&tv, 'R') == NULL);
	g->h[1].hp = g->h[1].max_hp - 5;
	load(&tv, st, 2);
	CHECK_STR(key_id(&tv, 'R'), "rest");
	tv_free(&tv);
	K->destroy(st);
}

TEST(crawl_C24_lair_shows_a_vote_and_a_shop_as_a_box)
{
	game_state *st = new_game(2, 4);
	REQUIRE(st);
	cr_game *g = (cr_game *)st;
	int altar = -1;
	for (int e = 0; e < g->cfg.ct->n_events; e++)
		if (!strcmp(g->cfg.ct->event[e].id, "altar_of_blood"))
			altar = e;
	g->vote[0] = altar;
	g->n_vote = 1;
	struct tv tv;
	struct scr s;
	struct view_ui ui;
	show(&tv, &s, &ui, st, 2);
	CHECK(scr_contains(&s, "The Altar of Blood  (the party votes)"));
	CHECK(scr_contains(&s, "1 Everyone bleeds on it"));
	CHECK(scr_contains(&s, "1-4 choose an option"));
	CHECK_STR(key_id(&tv, '2'), "event:1");
	CHECK(key_id(&tv, '4') == NULL);
	CHECK(key_id(&tv, 'W') == NULL);
	tv_free(&tv);
	/* a shop */
	g->n_vote = 0;
	g->h[0].screen = CR_SC_SHOP;
	g->h[0].shop[0] = (int8_t)cr_item_find(g->cfg.ct, "dagger");
	g->h[0].shop[1] = -1;
	g->h[0].shop[2] = (int8_t)cr_item_find(g->cfg.ct, "scroll_identify");
	g->h[0].shop_relic = (int8_t)cr_relic_find(g->cfg.ct, "lantern");
	tv_init(&tv);
	load(&tv, st, 2);
	view_crawl_draw(&s, &tv, &ui);
	CHECK(scr_contains(&s, "1 dagger +1"));
	CHECK(scr_contains(&s, "2 (sold)"));
	CHECK(scr_contains(&s, "3 crumpled scroll"));
	CHECK(scr_contains(&s, "4 Hooded Lantern"));
	CHECK_STR(key_id(&tv, 'L'), "leave");
	CHECK_STR(key_id(&tv, '1'), "buy:0");
	CHECK(key_id(&tv, '2') == NULL); /* sold */
	tv_free(&tv);
	K->destroy(st);
}

TEST(crawl_C47_lair_event_lines_and_the_result)
{
	struct tv tv;
	tv_init(&tv);
	tv.seat = 0;
	char line[120];
	struct {
		const char *ev, *want;
	} cases[] = {
		{"{\"event\":\"level\",\"act\":2,\"visit\":1,\"question_marks\":11}",
		 "-- act 2 (again): 11 ? tiles here --"},
		{"{\"event\":\"attack\",\"seat\":0,\"monster\":3,\"name\":\"orc\",\"damage\":4,\"hp\":8}",
		 "You hit the orc for 4 (8 left)"},
		{"{\"event\":\"question_mark\",\"seat\":0,\"room\":\"treasure\",\"rolled\":true}",
		 "You enter a ?: treasure"},
		{"{\"event\":\"vote\",\"id\":\"x\",\"option\":1,\"votes\":1,\"tied\":true}",
		 "The vote: option 2 (1 vote, a tie drawn)"},
		{"{\"event\":\"identify\",\"item\":{\"class\":\"potion\",\"known\":true,\"name\":"
		 "\"potion of fire\"}}",
		 "It was a potion of fire!"},
		{"{\"event\":\"gateway\",\"seat\":0,\"to_act\":2,\"fee\":0}",
		 "You step a gateway to act 2"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cJSON *e = cJSON_Parse(cases[i].ev);
		REQUIRE(e);
		CHECK_EQ(view_crawl_event_line(e, &tv, line, sizeof line), 1);
		CHECK_STR(line, cases[i].want);
		cJSON_Delete(e);
	}
	cJSON *step = cJSON_Parse("{\"event\":\"step\",\"seat\":0,\"x\":1,\"y\":2}");
	CHECK_EQ(view_crawl_event_line(step, &tv, line, sizeof line), 0);
	cJSON_Delete(step);
	/* a finished run: its result on the screen */
	game_state *st = new_game(1, 5);
	REQUIRE(st);
	char err[200];
	while (!K->is_over(st)) {
		game_choice ch[GAME_MAX_SEATS] = {K->ai_choose(st, 0)};
		REQUIRE(K->apply(st, ch, NULL, err, sizeof err) == GAME_OK);
	}
	cJSON *res = cJSON_CreateObject();
	cJSON_AddStringToObject(res, "type", "result");
	cJSON_AddNumberToObject(res, "table", 4);
	cJSON_AddNumberToObject(res, "seq", 10 + ((const cr_game *)st)->decision + 1);
	cJSON_AddItemToObject(res, "result", K->result_json(st, 0));
	load(&tv, st, 1);
	tv_apply(&tv, res, 0, view_crawl_event_line);
	cJSON_Delete(res);
	struct scr s;
	struct view_ui ui;
	draw_fresh(&s, &tv, &ui);
	const cr_game *g = (const cr_game *)st;
	CHECK(scr_contains(&s, g->won ? "THE DEVIL IS SLAIN" : "THE PARTY HAS FALLEN") ||
	      scr_contains(&s, "THE TORCHES GUTTER OUT"));
	CHECK(scr_contains(&s, "SCORE   GOLD LEVEL KILLS FALLS"));
	CHECK(scr_contains(&s, "[R]ematch"));
	tv_free(&tv);
	K->destroy(st);
}

/* A hostile server: absurd numbers, wrong types, huge strings: drawn without
 * harm and clipped to the screen. */
TEST(crawl_C47_lair_draws_a_hostile_view_without_harm)
{
	static char big[5000];
	memset(big, 'x', sizeof big - 1);
	char *text = malloc(20000);
	snprintf(text, 20000,
		 "{\"type\":\"table\",\"table\":4,\"seq\":3,\"name\":\"%.60s\",\"kind\":\"crawl\","
		 "\"state\":\"playing\",\"you\":0,\"seats\":[{\"seat\":0,\"kind\":\"human\"}],"
		 "\"game\":{\"decision\":1,\"options\":[{\"id\":\"n\",\"label\":\"%.200s\"},7,"
		 "{\"id\":\"event:0\"}],"
		 "\"view\":{\"act\":1e300,\"acts\":\"x\",\"map\":[\"%.3000s\",7,null,\"#\"],"
		 "\"visible\":[\"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\"],"
		 "\"monsters\":[{\"x\":-5,\"y\":1e9,\"glyph\":\"\"},{\"x\":2,\"y\":0,\"glyph\":7}],"
		 "\"party\":[{\"seat\":0,\"x\":1e20,\"y\":-1,\"hp\":\"q\",\"attack\":[1e99],"
		 "\"inventory\":[{\"name\":\"%.500s\"},5,{}],\"event\":{\"name\":7,"
		 "\"options\":[{\"index\":99,\"label\":null}]}},{\"seat\":99}],"
		 "\"vote\":{\"event\":{\"options\":7}}}}}",
		 big, big, big, big);
	cJSON *m = cJSON_Parse(text);
	free(text);
	REQUIRE(m);
	struct tv tv;
	tv_init(&tv);
	tv_apply(&tv, m, 0, view_crawl_event_line);
	cJSON_Delete(m);
	struct scr s;
	struct view_ui ui;
	draw_fresh(&s, &tv, &ui);
	CHECK(strlen(scr_row(&s, 1)) <= SCR_W);
	cJSON *choice = NULL;
	view_crawl_form_key(&tv, &ui.form, '1', &choice);
	cJSON_Delete(choice);
	tv_free(&tv);
}
