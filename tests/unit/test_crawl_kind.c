/*
 * test_crawl_kind.c — crawl through the game-kind contract (game.h): the
 * registry, the config and its errors, choice ids and what a hostile client
 * may send, apply's all-or-nothing check, a whole AI run to its result with
 * statistics that add up (and an achievement earned exactly when its rule
 * holds), replay identity (what crash recovery relies on),
 * the AI choosing the same after a replay, an unknown item's appearance
 * meaning the same kind in every game (C30), and the hidden information of
 * docs/rules/crawl.md C47.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/games/crawl/crawl.h"
#include "../../server/games/game.h"
#include "../../server/table.h"
#include "../kind_checks.h"
#include "../test.h"

static const game_kind *K = &crawl_kind;

static void *cfg_of(const char *json)
{
	char err[200];
	cJSON *j = json ? cJSON_Parse(json) : NULL;
	void *c = K->config_new(j, err, sizeof err);
	cJSON_Delete(j);
	return c;
}

/* Plays the AI on every pending seat until the end (or max decisions);
 * the choices go to log[] when given. Returns the decisions made. */
static int play_ai(game_state *st, int seats, game_choice (*log)[GAME_MAX_SEATS], int max,
		   game_events *evs)
{
	char err[200];
	int n = 0;
	while (!K->is_over(st) && n < max) {
		game_choice ch[GAME_MAX_SEATS];
		uint32_t p = K->pending(st);
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			ch[s] = s < seats && (p >> s & 1) ? K->ai_choose(st, s) : GAME_NO_CHOICE;
		if (log)
			memcpy(log[n], ch, sizeof ch);
		if (K->apply(st, ch, evs, err, sizeof err) != GAME_OK) {
			test_fail(__FILE__, __LINE__, "apply: %s", err);
			return n;
		}
		n++;
	}
	return n;
}

TEST(crawl_kind_is_registered)
{
	REQUIRE(game_kind_find("crawl") == &crawl_kind);
	CHECK_EQ(K->min_seats, 1);
	CHECK_EQ(K->max_seats, CR_MAX_SEATS);
}

/* Config: defaults in full; every bad value refused with a message. */
TEST(crawl_C44_config_defaults_and_refusals)
{
	void *c = cfg_of(NULL);
	REQUIRE(c);
	cJSON *j = K->config_json(c);
	char *t = cJSON_PrintUnformatted(j);
	CHECK_STR(t, "{\"acts\":3,\"width\":56,\"height\":17,\"max_rounds\":3000,"
		     "\"deadly_events\":false,\"first_run\":[]}");
	free(t);
	cJSON_Delete(j);
	K->config_free(c);
	c = cfg_of("{\"acts\":1,\"width\":30,\"height\":12,\"max_rounds\":100,"
		   "\"deadly_events\":true,\"first_run\":[2,0]}");
	REQUIRE(c);
	const cr_config *cc = c;
	CHECK_EQ(cc->acts, 1);
	CHECK(cc->deadly_events);
	CHECK_EQ(cc->first_run, 5);
	K->config_free(c);
	const char *bad[] = {
		"[]",		       "7",			  "{\"acts\":0}",
		"{\"acts\":4}",	       "{\"acts\":1.5}",	  "{\"acts\":\"3\"}",
		"{\"width\":23}",      "{\"width\":121}",	  "{\"height\":61}",
		"{\"height\":1e999}", "{\"max_rounds\":99}",	  "{\"max_rounds\":20001}",
		"{\"deadly_events\":1}", "{\"first_run\":[4]}",   "{\"first_run\":[0,0]}",
		"{\"first_run\":0}",   "{\"first_run\":[-1]}",	  "{\"first_run\":[0.5]}",
		"{\"first_run\":[0,1,2,3,0]}", "{\"seed\":3}",	  "{\"Acts\":3}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char err[200] = "";
		cJSON *bj = cJSON_Parse(bad[i]);
		REQUIRE(bj);
		void *x = K->config_new(bj, err, sizeof err);
		CHECK_MSG(x == NULL, "accepted %s", bad[i]);
		CHECK(err[0] != 0);
		if (x)
			K->config_free(x);
		cJSON_Delete(bj);
	}
}

/* Every option's id parses back to itself; ids are strings. */
TEST(crawl_C32_choice_ids_round_trip)
{
	game_choice codes[] = {CR_C_WAIT,     CR_C_N,	       CR_C_W,	       CR_C_EXPLORE,
			       CR_C_PORTAL,   CR_C_OUT,	       CR_C_LEAVE,     CR_C_REST,
			       CR_C_USE + 0,
			       CR_C_USE + 11, CR_C_DROP + 3,   CR_C_JUMP + 1,  CR_C_JUMP + 3,
			       CR_C_EVENT + 0, CR_C_EVENT + 3, CR_C_BUY + 3,   CR_C_TRAVEL,
			       CR_C_TRAVEL + 59 * 256 + 119};
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		char id[32];
		REQUIRE(cr_choice_id(codes[i], id, sizeof id));
		CHECK_MSG(cr_choice_parse_id(id) == codes[i], "%s", id);
	}
	const char *bad[] = {"", "N", "north", "use:", "use:12", "use:-1", "use:01x", "jump:0",
			     "jump:4", "event:4", "buy:4", "travel:1", "travel:1,", "travel:120,0",
			     "travel:0,60", "travel:1,2,3", "travel:1000,1", "wait ", "use:1000"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_MSG(cr_choice_parse_id(bad[i]) == GAME_NO_CHOICE, "%s", bad[i]);
	char id[32];
	CHECK(!cr_choice_id(CR_C_JUMP, id, sizeof id));
	CHECK(!cr_choice_id(-5, id, sizeof id));
	CHECK(!cr_choice_id(10, id, sizeof id));
}

/* What a hostile client may send is refused with a code and a message, and
 * changes nothing. */
TEST(crawl_C47_untrusted_choices_are_refused_and_change_nothing)
{
	void *c = cfg_of(NULL);
	char err[200];
	game_state *st = K->create(c, 2, 9, NULL, NULL, err, sizeof err);
	REQUIRE(st);
	cJSON *before = K->view(st, 0);
	struct {
		const char *text;
		int code;
	} bad[] = {
		{"null", GAME_ERR_MALFORMED},	       {"7", GAME_ERR_MALFORMED},
		{"[\"n\"]", GAME_ERR_MALFORMED},       {"{}", GAME_ERR_MALFORMED},
		{"{\"id\": 1}", GAME_ERR_MALFORMED},   {"\"fly\"", GAME_ERR_MALFORMED},
		{"\"use:99\"", GAME_ERR_MALFORMED},    {"\"use:0\"", GAME_ERR_ILLEGAL},
		{"\"portal\"", GAME_ERR_ILLEGAL},      {"\"jump:2\"", GAME_ERR_ILLEGAL},
		{"\"event:0\"", GAME_ERR_ILLEGAL},     {"\"buy:0\"", GAME_ERR_ILLEGAL},
		{"\"leave\"", GAME_ERR_ILLEGAL},       {"\"out\"", GAME_ERR_ILLEGAL},
		{"\"travel:0,0\"", GAME_ERR_ILLEGAL},  {"\"travel:119,59\"", GAME_ERR_ILLEGAL},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cJSON *j = cJSON_Parse(bad[i].text);
		game_choice out = 12345;
		err[0] = 0;
		int rc = K->choice_parse(st, 0, j, &out, err, sizeof err);
		CHECK_MSG(rc == bad[i].code, "%s gave %d", bad[i].text, rc);
		CHECK(err[0] != 0);
		CHECK_EQ(out, 12345);
		cJSON_Delete(j);
	}
	game_choice out;
	cJSON *ok = cJSON_CreateString("wait");
	CHECK_EQ(K->choice_parse(st, 2, ok, &out, err, sizeof err), GAME_ERR_NOT_PENDING);
	CHECK_EQ(K->choice_parse(st, -1, ok, &out, err, sizeof err), GAME_ERR_NOT_PENDING);
	CHECK_EQ(K->choice_parse(st, 0, ok, &out, err, sizeof err), GAME_OK);
	CHECK_EQ(out, CR_C_WAIT);
	cJSON *obj = cJSON_Parse("{\"id\": \"wait\", \"label\": \"Wait\"}");
	CHECK_EQ(K->choice_parse(st, 1, obj, &out, err, sizeof err), GAME_OK);
	cJSON_Delete(obj);
	cJSON_Delete(ok);
	/* apply refuses sets with a missing, extra or forged choice */
	game_choice ch[GAME_MAX_SEATS];
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		ch[s] = GAME_NO_CHOICE;
	ch[0] = CR_C_WAIT;
	CHECK_EQ(K->apply(st, ch, NULL, err, sizeof err), GAME_ERR_MISSING);
	ch[1] = CR_C_WAIT;
	game_choice forged[] = {-7, INT32_MIN, INT32_MAX, CR_C_JUMP, CR_C_USE + 200, 9,
				CR_C_TRAVEL + 0xffff, CR_C_BUY + 2};
	for (size_t i = 0; i < sizeof forged / sizeof forged[0]; i++) {
		ch[1] = forged[i];
		CHECK_MSG(K->apply(st, ch, NULL, err, sizeof err) == GAME_ERR_ILLEGAL, "%d",
			  forged[i]);
	}
	cJSON *after = K->view(st, 0);
	CHECK(cJSON_Compare(before, after, true));
	cJSON_Delete(before);
	cJSON_Delete(after);
	K->destroy(st);
	K->config_free(c);
}

/* A whole AI run to its result; every event renders; the statistics add
 * up; every seat wins or none does (C45). */
TEST(crawl_C45_C46_whole_ai_run_to_the_result)
{
	void *c = cfg_of(NULL);
	char err[200];
	game_events evs = {0};
	game_state *st = K->create(c, 3, 2024, NULL, &evs, err, sizeof err);
	REQUIRE(st);
	int n = play_ai(st, 3, NULL, 5000, &evs);
	CHECK(K->is_over(st));
	CHECK_EQ(K->pending(st), 0u);
	bool all_json = true, game_over = false;
	for (size_t i = 0; i < evs.len; i++) {
		cJSON *e = K->event_json(st, &evs.v[i], 0);
		all_json &= e != NULL;
		game_over |= evs.v[i].type == CR_EV_GAME_OVER;
		cJSON_Delete(e);
	}
	CHECK(all_json);
	CHECK(game_over);
	const cr_game *g = (const cr_game *)st;
	int64_t scores[GAME_MAX_SEATS];
	uint32_t winners;
	K->result(st, scores, &winners);
	CHECK(winners == 0 || winners == 7);
	CHECK_EQ(winners == 7, g->won);
	for (int s = 0; s < 3; s++)
		CHECK_EQ(scores[s], g->h[s].gold + 10 * g->h[s].kills + 100 * g->max_act +
					    (g->won ? 500 : 0));
	cJSON *r = K->result_json(st, 2);
	CHECK_EQ(cJSON_GetObjectItem(r, "rounds")->valueint, g->rounds);
	CHECK_EQ(cJSON_GetObjectItem(r, "decisions")->valueint, n);
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(r, "players")), 3);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(
		cJSON_GetArrayItem(cJSON_GetObjectItem(r, "players"), 1), "ai")));
	cJSON_Delete(r);
	int64_t seat[3][32], all[32];
	REQUIRE(K->n_stats <= 32);
	for (int s = 0; s < 3; s++)
		K->stats(st, s, 0, seat[s]);
	K->stats(st, -1, 0, all);
	for (int i = 0; i < K->n_stats; i++) {
		const game_stat_def *d = &K->stat_defs[i];
		int64_t sum = 0, max = INT64_MIN;
		for (int s = 0; s < 3; s++) {
			if (d->agg == GAME_STAT_SUM)
				sum += seat[s][i];
			max = seat[s][i] > max ? seat[s][i] : max;
		}
		if (!strcmp(d->key, "crawl_runs") || !strcmp(d->key, "crawl_wins") ||
		    !strcmp(d->key, "crawl_rounds") || !strcmp(d->key, "crawl_fastest_win"))
			CHECK_MSG(all[i] == seat[0][i], "%s", d->key);
		else if (d->agg == GAME_STAT_SUM)
			CHECK_MSG(all[i] == sum, "%s", d->key);
		else if (d->agg == GAME_STAT_MAX)
			CHECK_MSG(all[i] == max, "%s", d->key);
	}
	CHECK_EQ(all[0], 1);
	/* the records fold the end of the run */
	void *rec = K->shared_new(NULL, err, sizeof err);
	REQUIRE(rec);
	K->shared_fold(rec, evs.v, evs.len);
	cJSON *rj = K->shared_json(rec);
	CHECK_EQ(cJSON_GetObjectItem(rj, "runs")->valueint, 1);
	CHECK_EQ(cJSON_GetObjectItem(rj, "wins")->valueint, g->won);
	int64_t best = 0;
	for (int s = 0; s < 3; s++)
		best = scores[s] > best ? scores[s] : best;
	CHECK_EQ(cJSON_GetObjectItem(rj, "best_score")->valuedouble, (double)best);
	void *back = K->shared_new(rj, err, sizeof err);
	REQUIRE(back);
	cJSON *rj2 = K->shared_json(back);
	CHECK(cJSON_Compare(rj, rj2, true));
	cJSON_Delete(rj);
	cJSON_Delete(rj2);
	K->shared_free(rec);
	K->shared_free(back);
	game_events_free(&evs);
	K->destroy(st);
	K->config_free(c);
}

/* C49: (kind, config, seats, seed, choices) reproduces a run exactly: a
 * replay through table_replay (crash recovery's path) ends with the same
 * view and the same events. */
TEST(crawl_C49_replay_reproduces_the_run)
{
	static game_choice log[6000][GAME_MAX_SEATS];
	cJSON *cj = cJSON_Parse("{\"width\": 40, \"height\": 14}");
	void *c = K->config_new(cj, NULL, 0);
	REQUIRE(c);
	for (int seats = 1; seats <= 4; seats += 3) {
		char err[200];
		game_events evs = {0}, evs2 = {0};
		game_state *st = K->create(c, seats, 77 + (uint64_t)seats, NULL, &evs, err,
					   sizeof err);
		REQUIRE(st);
		int n = play_ai(st, seats, log, 6000, &evs);
		REQUIRE(K->is_over(st));
		game_choice *flat = malloc((size_t)n * (size_t)seats * sizeof *flat);
		for (int i = 0; i < n; i++)
			for (int s = 0; s < seats; s++)
				flat[i * seats + s] = log[i][s];
		cJSON *full = K->config_json(c);
		game_state *re = table_replay(K, full, seats, 77 + (uint64_t)seats, NULL, flat,
					      (size_t)n, &evs2, err, sizeof err);
		CHECK_MSG(re != NULL, "replay: %s", err);
		REQUIRE(re);
		CHECK_EQ(evs.len, evs2.len);
		CHECK(memcmp(evs.v, evs2.v, evs.len * sizeof evs.v[0]) == 0);
		for (int v = -1; v < seats; v++) {
			cJSON *a = K->view(st, v), *b = K->view(re, v);
			CHECK(cJSON_Compare(a, b, true));
			cJSON_Delete(a);
			cJSON_Delete(b);
		}
		CHECK(memcmp(st, re, sizeof(cr_game)) == 0);
		cJSON_Delete(full);
		free(flat);
		K->destroy(re);
		K->destroy(st);
		game_events_free(&evs);
		game_events_free(&evs2);
	}
	K->config_free(c);
	cJSON_Delete(cj);
}

/* C48, C49: after a replay without the AI, the AI chooses as it did. */
TEST(crawl_C48_ai_chooses_the_same_after_a_replay)
{
	/* one act, a small level and a round cap: a few hundred decisions each
	 * (the check replays every prefix) */
	void *c = cfg_of("{\"acts\": 1, \"width\": 28, \"height\": 12, \"max_rounds\": 600}");
	REQUIRE(c);
	int decisions = 0;
	for (uint64_t seed = 1; seed <= 3; seed++)
		check_ai_after_replay(K, c, (int)seed, seed * 31, &decisions);
	CHECK(decisions > 30);
	K->config_free(c);
}

/* A view's map holds exactly the seen tiles, the monsters exactly those in
 * sight, and unknown items only by appearance (C38, C47). */
static void check_view_hides(const cr_game *g, const cJSON *v, int *unknown_seen)
{
	const cJSON *map = cJSON_GetObjectItem(v, "map");
	for (int y = 0; y < g->lv.h; y++) {
		const char *row = cJSON_GetArrayItem(map, y)->valuestring;
		for (int x = 0; x < g->lv.w; x++)
			if ((row[x] == ' ') != !(g->flag[y][x] & CR_F_SEEN)) {
				test_fail(__FILE__, __LINE__, "tile %d,%d '%c'", x, y, row[x]);
				return;
			}
	}
	int in_sight = 0;
	for (int m = 0; m < g->n_mon; m++)
		in_sight += g->mon[m].alive && (g->flag[g->mon[m].y][g->mon[m].x] & CR_F_VISIBLE);
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(v, "monsters")), in_sight);
	char *text = cJSON_PrintUnformatted(v);
	const cr_content *ct = g->cfg.ct;
	for (int k = 0; k < ct->n_items; k++) {
		if (!ct->item[k].appearance[0] || (g->identified >> k & 1))
			continue;
		/* nothing names an unknown kind or its id */
		CHECK_MSG(!strstr(text, ct->item[k].name), "%s", ct->item[k].name);
		char id[40];
		snprintf(id, sizeof id, "\"%s\"", ct->item[k].id);
		CHECK_MSG(!strstr(text, id), "%s", id);
		*unknown_seen += strstr(text, ct->item[k].appearance) != NULL;
	}
	CHECK(!strstr(text, "odds") && !strstr(text, "pool") && !strstr(text, "seed"));
	free(text);
}

TEST(crawl_C47_C38_views_and_events_hide_what_the_party_does_not_know)
{
	void *c = cfg_of(NULL);
	char err[200];
	int unknown_seen = 0, identified_later = 0, checked = 0;
	for (uint64_t seed = 5; seed < 8; seed++) {
		game_events evs = {0};
		game_state *st = K->create(c, 2, seed, NULL, &evs, err, sizeof err);
		REQUIRE(st);
		const cr_game *g = (const cr_game *)st;
		while (!K->is_over(st)) {
			game_choice ch[GAME_MAX_SEATS];
			uint32_t p = K->pending(st);
			for (int s = 0; s < GAME_MAX_SEATS; s++)
				ch[s] = s < 2 && (p >> s & 1) ? K->ai_choose(st, s) : GAME_NO_CHOICE;
			game_events_clear(&evs);
			REQUIRE(K->apply(st, ch, &evs, err, sizeof err) == GAME_OK);
			if (g->decision % 7)
				continue;
			checked++;
			for (int v = -1; v < 2; v++) {
				cJSON *view = K->view(st, v);
				check_view_hides(g, view, &unknown_seen);
				cJSON_Delete(view);
			}
			/* events of this decision name no unknown kind either */
			for (size_t i = 0; i < evs.len; i++) {
				cJSON *e = K->event_json(st, &evs.v[i], 0);
				char *t = cJSON_PrintUnformatted(e);
				for (int k = 0; k < g->cfg.ct->n_items; k++)
					if (g->cfg.ct->item[k].appearance[0] &&
					    !(g->identified >> k & 1))
						CHECK(!strstr(t, g->cfg.ct->item[k].name));
				free(t);
				cJSON_Delete(e);
			}
		}
		identified_later += __builtin_popcount(g->identified);
		game_events_free(&evs);
		K->destroy(st);
	}
	CHECK(checked > 20);
	CHECK(unknown_seen > 0);    /* unknown items were on show, by appearance */
	CHECK(identified_later > 0); /* and some became known */
	K->config_free(c);
}

/* An event names its monster by the kind it carries, so a reveal whose
 * events span a departure still names the monsters of the level left. */
TEST(crawl_C47_events_name_their_monsters_after_the_level_is_gone)
{
	void *c = cfg_of(NULL);
	char err[200];
	game_state *st = K->create(c, 1, 8, NULL, NULL, err, sizeof err);
	REQUIRE(st);
	cr_game *g = (cr_game *)st;
	REQUIRE(g->n_mon > 0);
	int kind = g->mon[0].kind;
	game_event ev = {.type = CR_EV_KILL, .seat = 0, .a = CR_MON_REF(g, 0), .b = 3, .c = 2};
	g->n_mon = 0; /* the party left: the level's monsters are gone */
	cJSON *j = K->event_json(st, &ev, 0);
	REQUIRE(j);
	CHECK_STR(cJSON_GetObjectItem(j, "name")->valuestring, g->cfg.ct->monster[kind].name);
	CHECK_EQ(cJSON_GetObjectItem(j, "monster")->valueint, 0);
	cJSON_Delete(j);
	/* an item event for a kind no drawing produced is not rendered with one */
	game_event bad = {.type = CR_EV_ITEM, .seat = 0, .a = -1, .b = 0};
	j = K->event_json(st, &bad, 0);
	REQUIRE(j);
	CHECK(cJSON_GetObjectItem(j, "item") == NULL);
	cJSON_Delete(j);
	CHECK_EQ(cr_give_item(g, 0, -1, NULL), -1);
	K->destroy(st);
	K->config_free(c);
}

/* Whether two JSON trees print the same (both are freed). */
static bool same_json(cJSON *a, cJSON *b)
{
	char *x = cJSON_PrintUnformatted(a), *y = cJSON_PrintUnformatted(b);
	bool same = x && y && !strcmp(x, y);
	free(x);
	free(y);
	cJSON_Delete(a);
	cJSON_Delete(b);
	return same;
}

/* The state with what the party does not know changed (C47): the tiles it
 * has not seen (walls and floors swapped, what lies on them moved), the
 * monsters nobody sees (another kind, HP, sleep, place), the order of the
 * events left, the ? odds and every generator; and, through a copy of the
 * content, what two unknown kinds of potion are (names, ids, effects
 * swapped: their appearances stay). */
static void scramble_hidden(cr_game *p, cr_content *ct, rng *r)
{
	for (int y = 1; y < p->lv.h - 1; y++)
		for (int x = 1; x < p->lv.w - 1; x++) {
			if (p->flag[y][x] & CR_F_SEEN)
				continue;
			p->lv.tile[y][x] = p->lv.tile[y][x] == CR_T_WALL ? CR_T_FLOOR : CR_T_WALL;
			p->flag[y][x] = (uint8_t)(rng_below(r, 4) ? 0 : CR_F_QMARK | CR_F_CHEST);
		}
	for (int m = 0; m < p->n_mon; m++) {
		cr_monster *mo = &p->mon[m];
		if (!mo->alive || (p->flag[mo->y][mo->x] & CR_F_VISIBLE) || m == p->devil)
			continue;
		mo->kind = (uint8_t)rng_below(r, (uint32_t)ct->devil);
		mo->hp = (int16_t)(1 + rng_below(r, 30));
		mo->awake = !mo->awake;
		if (mo->x + 1 < p->lv.w - 1 && !(p->flag[mo->y][mo->x + 1] & CR_F_VISIBLE))
			mo->x++;
	}
	rng_shuffle(r, p->pool, (uint32_t)p->n_pool, sizeof p->pool[0]);
	p->repeat_at = (int)rng_below(r, (uint32_t)p->n_pool);
	for (int i = 0; i < CR_NODDS; i++)
		p->odds.cur[i] = (int16_t)rng_below(r, 3000);
	rng_seed(&p->rules, rng_u64(r), 1);
	rng_seed(&p->qrng, rng_u64(r), 2);
	rng_seed(&p->shared_rng, rng_u64(r), 3);
	for (int s = 0; s < p->seats; s++)
		rng_seed(&p->h[s].erng, rng_u64(r), 10);
	*ct = *p->cfg.ct;
	int a = -1, b = -1;
	for (int k = 0; k < ct->n_items; k++)
		if (ct->item[k].cls == CR_IC_POTION && !(p->identified >> k & 1)) {
			if (a < 0)
				a = k;
			else if (b < 0)
				b = k;
		}
	if (b >= 0) {
		cr_item_kind ka = ct->item[a], kb = ct->item[b];
		memcpy(ct->item[a].id, kb.id, sizeof ka.id);
		memcpy(ct->item[a].name, kb.name, sizeof ka.name);
		ct->item[a].effects = kb.effects;
		memcpy(ct->item[b].id, ka.id, sizeof ka.id);
		memcpy(ct->item[b].name, ka.name, sizeof ka.name);
		ct->item[b].effects = ka.effects;
	}
	p->cfg.ct = ct;
}

/* C47: no view and no option shows anything of what is hidden: every
 * seat's and a spectator's view, and every pending seat's options, are the
 * same with all of it scrambled, at decisions throughout whole AI runs. */
TEST(crawl_C47_what_is_hidden_changes_no_view)
{
	void *c = cfg_of(NULL);
	char err[200];
	static cr_game scrambled;
	static cr_content ct;
	rng r;
	rng_seed(&r, 99, 1);
	int compared = 0, differ = 0;
	for (uint64_t seed = 21; seed < 25; seed++) {
		int seats = 1 + (int)(seed % 3);
		game_state *st = K->create(c, seats, seed, NULL, NULL, err, sizeof err);
		REQUIRE(st);
		const cr_game *g = (const cr_game *)st;
		while (!K->is_over(st)) {
			if (g->decision % 5 == 0) {
				scrambled = *g;
				scramble_hidden(&scrambled, &ct, &r);
				const game_state *sc = (const game_state *)&scrambled;
				for (int v = -1; v < seats; v++) {
					differ += !same_json(K->view(st, v), K->view(sc, v));
					if (v >= 0 && (K->pending(st) >> v & 1))
						differ += !same_json(K->options_json(st, v),
								     K->options_json(sc, v));
					compared++;
				}
			}
			game_choice ch[GAME_MAX_SEATS];
			uint32_t p = K->pending(st);
			for (int s = 0; s < GAME_MAX_SEATS; s++)
				ch[s] = s < seats && (p >> s & 1) ? K->ai_choose(st, s) : GAME_NO_CHOICE;
			REQUIRE(K->apply(st, ch, NULL, err, sizeof err) == GAME_OK);
		}
		K->destroy(st);
	}
	CHECK(compared > 200);
	CHECK_EQ(differ, 0);
	K->config_free(c);
}

/* C30, the seed's answer to the potion chore: an appearance means the same
 * kind in every game. Over many runs, each unknown kind shows one
 * appearance, the same in every run and no other kind's, and using it
 * reveals the same name under it — whatever the seed. */
TEST(crawl_C30_an_appearance_means_the_same_in_every_game)
{
	void *c = cfg_of(NULL);
	REQUIRE(c);
	const cr_content *ct = ((const cr_config *)c)->ct;
	char first[CR_MAX_ITEM_KINDS][40] = {{0}};
	char err[200];
	int unknown = 0, checked = 0;
	for (uint64_t seed = 1; seed <= 30; seed++) {
		for (int k = 0; k < ct->n_items; k++) {
			if (!ct->item[k].appearance[0])
				continue;
			game_state *st = K->create(c, 1, seed * 7919, NULL, NULL, err, sizeof err);
			REQUIRE(st);
			cr_game *g = (cr_game *)st;
			REQUIRE(!(g->identified >> k & 1));
			g->h[0].inv[0] = (int8_t)k;
			/* the view: the appearance only */
			cJSON *v = K->view(st, 0);
			const cJSON *it = cJSON_GetArrayItem(
				cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(v, "party"), 0),
						    "inventory"),
				0);
			const char *shown = cJSON_GetStringValue(cJSON_GetObjectItem(it, "name"));
			REQUIRE(shown);
			CHECK(cJSON_IsFalse(cJSON_GetObjectItem(it, "known")));
			CHECK(!cJSON_GetObjectItem(it, "id"));
			if (seed == 1) {
				snprintf(first[k], sizeof first[k], "%s", shown);
				unknown++;
				for (int o = 0; o < k; o++)
					CHECK_MSG(strcmp(first[o], shown) != 0, "%s twice", shown);
			} else {
				CHECK_STR(shown, first[k]);
			}
			cJSON_Delete(v);
			/* used: the identify event names the same kind under it */
			game_choice ch[GAME_MAX_SEATS];
			for (int s = 0; s < GAME_MAX_SEATS; s++)
				ch[s] = GAME_NO_CHOICE;
			ch[0] = CR_C_USE + 0;
			game_events evs = {0};
			REQUIRE(K->apply(st, ch, &evs, err, sizeof err) == GAME_OK);
			int named = 0;
			for (size_t i = 0; i < evs.len; i++) {
				cJSON *e = K->event_json(st, &evs.v[i], 0);
				const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(e, "event"));
				const cJSON *item = cJSON_GetObjectItem(e, "item");
				if (type && !strcmp(type, "identify")) {
					CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(item, "name")),
						  ct->item[k].name);
					CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(item, "appearance")),
						  first[k]);
					named++;
				}
				cJSON_Delete(e);
			}
			CHECK_EQ(named, 1);
			checked++;
			game_events_free(&evs);
			K->destroy(st);
		}
	}
	CHECK(unknown >= 6);
	CHECK_EQ(checked, 30 * unknown);
	K->config_free(c);
}

/* A set of choices that does not fit who is asked changes nothing
 * (game.h's contract for apply). */
TEST(crawl_kind_apply_refuses_a_set_that_does_not_fit_who_is_asked)
{
	void *c = cfg_of("{\"acts\": 1, \"width\": 28, \"height\": 12, \"max_rounds\": 600}");
	REQUIRE(c);
	int refused = 0;
	check_apply_refuses_wrong_seats(K, c, 3, 11, &refused);
	CHECK_MSG(refused > 60, "%d refused", refused);
	K->config_free(c);
}

/* C46: the_long_way_round is earned by every seat of a run in which the
 * party arrived in an act a second time — back up a portal or by the quick
 * jump — and by no seat of a run without one. Whole AI runs (four seats,
 * DeadlyEvents: the AI goes back up for its fallen), read from the events. */
TEST(crawl_C46_the_long_way_round_is_an_act_visited_twice)
{
	void *c = cfg_of("{\"deadly_events\": true}");
	REQUIRE(c);
	int bit = -1;
	for (int i = 0; i < K->n_achievements; i++)
		if (!strcmp(K->achievement_defs[i].key, "the_long_way_round"))
			bit = i;
	REQUIRE(bit >= 0);
	char err[200];
	int by_jump = 0, by_portal = 0, plain = 0;
	game_events evs = {0};
	for (uint64_t seed = 1; seed <= 300 && !(by_jump && by_portal && plain >= 5); seed++) {
		game_state *st = K->create(c, 4, seed, NULL, NULL, err, sizeof err);
		REQUIRE(st);
		const cr_game *g = (const cr_game *)st;
		bool again = false, jumped_up = false;
		while (!K->is_over(st)) {
			game_choice ch[GAME_MAX_SEATS];
			uint32_t p = K->pending(st);
			for (int s = 0; s < GAME_MAX_SEATS; s++)
				ch[s] = s < 4 && (p >> s & 1) ? K->ai_choose(st, s) : GAME_NO_CHOICE;
			int act = g->act;
			game_events_clear(&evs);
			REQUIRE(K->apply(st, ch, &evs, err, sizeof err) == GAME_OK);
			for (size_t i = 0; i < evs.len; i++) {
				const game_event *e = &evs.v[i];
				again |= e->type == CR_EV_LEVEL && e->b > 0; /* a visit past the first */
				jumped_up |= e->type == CR_EV_GATE && e->b > 0 && e->a < act;
			}
		}
		for (int s = 0; s < 4; s++)
			CHECK_EQ(K->achievements(st, s, 0) >> bit & 1, (uint32_t)again);
		by_jump += again && jumped_up;
		by_portal += again && !jumped_up;
		plain += !again;
		K->destroy(st);
	}
	game_events_free(&evs);
	CHECK(by_jump > 0);
	CHECK(by_portal > 0);
	CHECK(plain >= 5);
	K->config_free(c);
}
