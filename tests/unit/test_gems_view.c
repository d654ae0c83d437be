/*
 * test_gems_view.c — what each viewer sees (proto/kinds/gems.md): options
 * only for a pending seat, the Sphinx's double path only once entered, the
 * adventure only once met, the result once over; the reasons given for an
 * illegal choice; events for every viewer; fractions rounded (G39).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/games/gems/gems_int.h"
#include "../../proto/json_out.h"
#include "../../server/games/gems/gems_kind.h"
#include "../test.h"

#define GEM(l) ((gems_room){.kind = GEMS_ROOM_GEM, .arg = (l)})
#define ADV(a) ((gems_room){.kind = GEMS_ROOM_ADV, .arg = (a)})

static void start(gems_game *g, int seats, int adv, const gems_room *rooms, int n)
{
	gems_opts o = {.fixed_adventures = true, .adv = {(uint8_t)adv, 0, 0, 0, 0}};
	for (int d = 1, a = 0; d < GEMS_DUNGEONS; a++)
		if (a != adv)
			o.adv[d++] = (uint8_t)a;
	CHECK_EQ(gems_init_fixed(g, seats, 21, NULL, &o, rooms, n, NULL), GAME_OK);
}

static int apply(gems_game *g, game_choice a, game_choice b)
{
	game_choice ch[GAME_MAX_SEATS] = {a, b, -1, -1, -1, -1, -1, -1, -1};
	char err[128];
	return gems_apply(g, ch, NULL, err, sizeof err);
}

TEST(gems_view_options_only_for_a_pending_seat)
{
	gems_room r[4] = {GEM(0), GEM(1), GEM(2), GEM(3)};
	gems_game g;
	start(&g, 2, GEMS_ADV_SCOUT, r, 4);
	cJSON *v0 = gems_view_json(&g, 0), *vs = gems_view_json(&g, -1);
	cJSON *opts = cJSON_GetObjectItem(v0, "options");
	REQUIRE(cJSON_GetArraySize(opts) == 2);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(opts, 0), "id")),
		  "leave");
	CHECK(cJSON_GetObjectItem(vs, "options") == NULL);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(v0, "adventure"))); /* not met yet */
	CHECK_EQ(cJSON_GetObjectItem(v0, "seat_count")->valueint, 2);
	cJSON *odds = cJSON_GetObjectItem(v0, "odds");
	CHECK(cJSON_IsNumber(cJSON_GetObjectItem(odds, "ev"))); /* the hand icon */
	CHECK(cJSON_GetObjectItem(cJSON_GetObjectItem(vs, "odds"), "ev") == NULL);
	cJSON *p1 = cJSON_GetArrayItem(cJSON_GetObjectItem(v0, "players"), 1);
	CHECK_EQ(cJSON_GetObjectItem(p1, "size")->valueint, 4);
	CHECK_EQ(cJSON_GetObjectItem(p1, "owed")->valueint, 0);
	CHECK_EQ(cJSON_GetObjectItem(p1, "bars")->valueint, 0);
	cJSON_Delete(v0);
	cJSON_Delete(vs);
	REQUIRE(apply(&g, GEMS_C_LEAVE, GEMS_C_STAY) == GAME_OK);
	cJSON *v = gems_view_json(&g, 0); /* seat 0 is out: no options */
	CHECK(cJSON_GetObjectItem(v, "options") == NULL);
	cJSON *p0 = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "players"), 0);
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(p0, "inside")));
	CHECK(cJSON_GetObjectItem(p0, "ev") == NULL);
	cJSON_Delete(v);
}

TEST(gems_view_sphinx_double_path_only_in_the_coin_room)
{
	gems_room r[3] = {ADV(GEMS_ADV_SPHINX), GEM(0), GEM(1)};
	gems_game g;
	start(&g, 2, GEMS_ADV_SPHINX, r, 3);
	cJSON *v = gems_view_json(&g, 0);
	cJSON *room = cJSON_GetObjectItem(v, "room");
	CHECK(cJSON_GetObjectItem(room, "double_path") == NULL);
	CHECK_EQ(cJSON_GetObjectItem(room, "coins_low")->valueint, 2);
	CHECK_EQ(cJSON_GetObjectItem(room, "coins_high")->valueint, 4);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(v, "adventure")), "sphinx");
	cJSON_Delete(v);
	REQUIRE(apply(&g, GEMS_C_LEFT, GEMS_C_RIGHT) == GAME_OK);
	v = gems_view_json(&g, -1);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(v, "phase")), "coin_room");
	room = cJSON_GetObjectItem(v, "room");
	const char *dp = cJSON_GetStringValue(cJSON_GetObjectItem(room, "double_path"));
	REQUIRE(dp != NULL);
	CHECK_STR(dp, g.sphinx_double ? "right" : "left");
	cJSON *p1 = cJSON_GetArrayItem(cJSON_GetObjectItem(v, "players"), 1);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(p1, "path")), "right");
	cJSON_Delete(v);
}

TEST(gems_view_over_has_the_result_and_history)
{
	gems_game g;
	REQUIRE(gems_init(&g, 3, 4, NULL, NULL, NULL) == GAME_OK);
	gems_play_ai(&g, NULL);
	cJSON *v = gems_view_json(&g, 1);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(v, "phase")), "over");
	CHECK(cJSON_GetObjectItem(v, "room") == NULL);
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(v, "history")), 5);
	cJSON *res = cJSON_GetObjectItem(v, "result");
	CHECK_EQ(cJSON_GetObjectItem(res, "winning_score")->valueint, g.win_score);
	cJSON *scores = cJSON_GetObjectItem(res, "scores");
	REQUIRE(cJSON_GetArraySize(scores) == 3);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(cJSON_GetArrayItem(scores, i)->valueint, g.seat[i].chest);
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(res, "achievements")), 3);
	cJSON_Delete(v);
}

static void check_reason(gems_game *g, int seat, const char *id, int code, const char *words)
{
	cJSON *j = cJSON_CreateString(id);
	game_choice c = -1;
	char err[160] = "";
	CHECK_EQ(gems_choice_from_json(g, seat, j, &c, err, sizeof err), code);
	CHECK_MSG(strstr(err, words) != NULL, "'%s' lacks '%s'", err, words);
	cJSON_Delete(j);
}

TEST(gems_choice_reasons)
{
	gems_room r[4] = {ADV(GEMS_ADV_BANKER), GEM(0), ADV(GEMS_ADV_DEVIL), GEM(1)};
	gems_game g;
	start(&g, 2, GEMS_ADV_BANKER, r, 4);
	g.seat[0].hand = 5;
	check_reason(&g, 0, "bank8", GAME_ERR_ILLEGAL, "needs 8 gems in hand; you have 5");
	check_reason(&g, 0, "eat", GAME_ERR_ILLEGAL, "not an option in this room");
	check_reason(&g, 0, "dance", GAME_ERR_MALFORMED, "unknown gems choice");
	check_reason(&g, 5, "stay", GAME_ERR_NOT_PENDING, "not asked");
	g.seat[0].owed = 2;
	check_reason(&g, 0, "leave", GAME_ERR_ILLEGAL, "owe the Devil 2 more rooms");
	cJSON *num = cJSON_CreateNumber(1);
	game_choice c;
	char err[80];
	CHECK_EQ(gems_choice_from_json(&g, 0, num, &c, err, sizeof err), GAME_ERR_MALFORMED);
	cJSON_Delete(num);
}

TEST(gems_events_render_for_every_viewer_and_hide_adventure_use)
{
	game_events evs = {0};
	gems_game g;
	REQUIRE(gems_init(&g, 4, 8, NULL, NULL, &evs) == GAME_OK);
	gems_play_ai(&g, &evs);
	int used = 0, shown = 0;
	for (size_t k = 0; k < evs.len; k++) {
		for (int viewer = -1; viewer < 4; viewer++) {
			cJSON *e = gems_event_to_json(&evs.v[k], viewer);
			if (evs.v[k].type == GEMS_EV_ADV_USED) {
				used++;
				CHECK(e == NULL);
				continue;
			}
			REQUIRE(e != NULL);
			const char *t = cJSON_GetStringValue(cJSON_GetObjectItem(e, "type"));
			CHECK(t && strcmp(t, "?") != 0);
			if (evs.v[k].seat >= 0)
				CHECK_EQ(cJSON_GetObjectItem(e, "seat")->valueint, evs.v[k].seat);
			shown++;
			cJSON_Delete(e);
		}
	}
	CHECK(used > 0 && shown > 100);
	CHECK_EQ(evs.v[evs.len - 1].type, GEMS_EV_GAME_OVER);
	game_events_free(&evs);
}

TEST(gems_G18_G37_scout_report_minimum_or_none)
{
	gems_room r[6] = {GEM(0), ADV(GEMS_ADV_SCOUT), GEM(1), GEM(2), GEM(3), GEM(4)};
	int with = 0, without = 0;
	for (uint64_t s = 0; s < 60; s++) {
		gems_opts o = {.fixed_adventures = true, .adv = {GEMS_ADV_SCOUT, 0, 1, 2, 3}};
		gems_game g;
		REQUIRE(gems_init_fixed(&g, 1, s, NULL, &o, r, 6, NULL) == GAME_OK);
		REQUIRE(apply(&g, GEMS_C_STAY, GAME_NO_CHOICE) == GAME_OK);
		cJSON *v = gems_view_json(&g, 0);
		cJSON *room = cJSON_GetObjectItem(v, "room");
		/* G37: no lair, the spider is one past the list, position 7 */
		int at = cJSON_GetObjectItem(room, "spider_at")->valueint;
		CHECK(at >= 7 - 8 && at <= 7 + 8);
		cJSON *min = cJSON_GetObjectItem(room, "minimum");
		if (at - 8 > 3) {
			CHECK_EQ(min->valueint, at - 8);
			with++;
		} else {
			CHECK(cJSON_IsNull(min));
			without++;
		}
		cJSON_Delete(v);
	}
	CHECK(with > 0 && without > 0);
}

/* One number of a view: the member `key` of `o` (NaN when missing, which
 * no comparison accepts). */
static double view_num(const cJSON *o, const char *key)
{
	const cJSON *n = cJSON_GetObjectItem(o, key);
	return cJSON_IsNumber(n) ? n->valuedouble : NAN;
}

static double four_decimals(double x)
{
	double r = nearbyint(x * 1e4) / 1e4;
	return r == 0 ? 0 : r;
}

/* G39: the view's fractions (odds.lair, odds.rumor, every ev and take) are
 * the rules' values rounded to 4 decimals, so they print short ("0.3333",
 * not "0.33333333333333331"); seeded AI games of 2-5 seats, every viewer at
 * every decision. */
TEST(gems_G39_view_fractions_rounded_to_four_decimals)
{
	int rounded = 0;
	for (uint64_t seed = 1; seed <= 12; seed++) {
		gems_game g;
		int seats = 2 + (int)(seed % 4);
		REQUIRE(gems_init(&g, seats, seed, NULL, NULL, NULL) == GAME_OK);
		while (!gems_over(&g)) {
			for (int viewer = -1; viewer < seats; viewer++) {
				cJSON *v = gems_view_json(&g, viewer);
				const cJSON *odds = cJSON_GetObjectItem(v, "odds");
				CHECK(view_num(odds, "lair") == four_decimals(gems_lair_odds(&g)));
				CHECK(view_num(odds, "rumor") == four_decimals(gems_rumor(&g)));
				rounded += view_num(odds, "rumor") != gems_rumor(&g);
				const cJSON *p;
				int i = 0;
				cJSON_ArrayForEach(p, cJSON_GetObjectItem(v, "players"))
				{
					if (g.seat[i].inside) {
						CHECK(view_num(p, "ev") == four_decimals(gems_ev(&g, i)));
						CHECK(view_num(p, "take") == four_decimals(gems_take(&g, i)));
					}
					i++;
				}
				/* the printed view: no number with more than 4 decimals */
				char *text = json_print(v, NULL);
				for (const char *d = strchr(text, '.'); d; d = strchr(d + 1, '.')) {
					size_t digits = strspn(d + 1, "0123456789");
					CHECK_MSG(digits <= 4 || d[-1] < '0' || d[-1] > '9',
						  "%.*s", (int)(digits + 8), d - 3);
				}
				free(text);
				cJSON_Delete(v);
			}
			game_choice ch[GAME_MAX_SEATS];
			for (int s = 0; s < GAME_MAX_SEATS; s++)
				ch[s] = s < seats && (gems_pending(&g) >> s & 1) ? gems_ai_choose(&g, s)
										: GAME_NO_CHOICE;
			char err[128];
			REQUIRE(gems_apply(&g, ch, NULL, err, sizeof err) == GAME_OK);
		}
	}
	CHECK(rounded > 0); /* the rules' values needed the rounding */
}
