/*
 * test_game_json.c — the helpers every game kind shares (game_json.h and
 * game.h): a choice's option id in both forms, a saved count (absent, null,
 * a count, and each way to be wrong, with its message), a record not set
 * yet, an event's head, achievements as keys or labels, and whether a seat
 * is asked (any int a client may send). The kinds' own tests and pins
 * check the JSON they build with them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../server/games/game_json.h"
#include "../test.h"

TEST(game_choice_id_bare_or_in_an_object)
{
	cJSON *bare = cJSON_CreateString("stay");
	cJSON *obj = cJSON_Parse("{\"id\": \"use:2\"}");
	cJSON *no_id = cJSON_Parse("{\"press\": true}");
	cJSON *num = cJSON_CreateNumber(3);
	cJSON *not_str = cJSON_Parse("{\"id\": 7}");
	CHECK_STR(game_choice_id(bare), "stay");
	CHECK_STR(game_choice_id(obj), "use:2");
	CHECK(game_choice_id(no_id) == NULL);
	CHECK(game_choice_id(num) == NULL);
	CHECK(game_choice_id(not_str) == NULL);
	CHECK(game_choice_id(NULL) == NULL);
	cJSON_Delete(bare);
	cJSON_Delete(obj);
	cJSON_Delete(no_id);
	cJSON_Delete(num);
	cJSON_Delete(not_str);
}

TEST(game_json_count_reads_a_count_or_says_why_not)
{
	cJSON *o = cJSON_Parse("{\"runs\": 12, \"none\": null, \"neg\": -1, \"half\": 1.5,"
			       " \"big\": 2e15, \"text\": \"3\"}");
	cJSON_AddNumberToObject(o, "nan", NAN);
	char err[128] = "";
	int64_t v = 99;
	CHECK_EQ(game_json_count(o, "absent", 1e15, &v, "crawl records", err, sizeof err), 0);
	CHECK_EQ(v, 99); /* absent and null leave the value as it was */
	CHECK_EQ(game_json_count(o, "none", 1e15, &v, "crawl records", err, sizeof err), 0);
	CHECK_EQ(v, 99);
	CHECK_EQ(game_json_count(o, "runs", 1e15, &v, "crawl records", err, sizeof err), 0);
	CHECK_EQ(v, 12);
	const char *bad[] = {"neg", "half", "big", "text", "nan"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		v = 5;
		err[0] = 0;
		CHECK_EQ(game_json_count(o, bad[i], 1e15, &v, "gems shared state", err, sizeof err),
			 -1);
		CHECK_EQ(v, 5);
		char want[128];
		snprintf(want, sizeof want, "gems shared state: '%s' must be a count", bad[i]);
		CHECK_STR(err, want);
	}
	/* the bound is the caller's: 12 is over a max of 10 */
	CHECK_EQ(game_json_count(o, "runs", 10, &v, "x", err, sizeof err), -1);
	cJSON_Delete(o);
}

TEST(game_json_add_record_writes_null_until_set)
{
	cJSON *o = cJSON_CreateObject();
	game_json_add_record(o, "best", -1);
	game_json_add_record(o, "fastest", 0);
	game_json_add_record(o, "runs", 1234567890123);
	char *s = cJSON_PrintUnformatted(o);
	CHECK_STR(s, "{\"best\":null,\"fastest\":0,\"runs\":1234567890123}");
	free(s);
	cJSON_Delete(o);
}

TEST(game_event_json_head_has_a_seat_unless_table_wide)
{
	game_event seat = {.type = 3, .seat = 2}, wide = {.type = 4, .seat = -1};
	cJSON *a = game_event_json_head(&seat, "event", "hit");
	cJSON *b = game_event_json_head(&wide, "type", "dungeon_start");
	char *sa = cJSON_PrintUnformatted(a), *sb = cJSON_PrintUnformatted(b);
	CHECK_STR(sa, "{\"event\":\"hit\",\"seat\":2}");
	CHECK_STR(sb, "{\"type\":\"dungeon_start\"}");
	free(sa);
	free(sb);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

TEST(game_achievements_json_lists_keys_or_labels_in_order)
{
	static const game_achievement_def defs[] = {
		{"first", "The First"}, {"second", "The Second"}, {"third", "The Third"}};
	cJSON *keys = game_achievements_json(defs, 3, 1u << 0 | 1u << 2, false);
	cJSON *labels = game_achievements_json(defs, 3, 1u << 1, true);
	cJSON *none = game_achievements_json(defs, 3, 1u << 5, false); /* not a def: ignored */
	char *k = cJSON_PrintUnformatted(keys), *l = cJSON_PrintUnformatted(labels),
	     *n = cJSON_PrintUnformatted(none);
	CHECK_STR(k, "[\"first\",\"third\"]");
	CHECK_STR(l, "[\"The Second\"]");
	CHECK_STR(n, "[]");
	free(k);
	free(l);
	free(n);
	cJSON_Delete(keys);
	cJSON_Delete(labels);
	cJSON_Delete(none);
}

TEST(game_seat_asked_takes_any_int)
{
	uint32_t pending = 1u << 0 | 1u << 2;
	CHECK(game_seat_asked(pending, 3, 0));
	CHECK(!game_seat_asked(pending, 3, 1));
	CHECK(game_seat_asked(pending, 3, 2));
	CHECK(!game_seat_asked(pending, 3, 3));
	CHECK(!game_seat_asked(pending, 3, -1));
	CHECK(!game_seat_asked(pending, 3, 40)); /* beyond the mask's width: no shift */
	CHECK(!game_seat_asked(0xffffffffu, 2, 2)); /* a bit past the seats is not a seat */
}

TEST(game_stat_max_starts_from_none)
{
	CHECK_EQ(game_stat_max(GAME_STAT_NONE, -5), -5);
	CHECK_EQ(game_stat_max(-5, 3), 3);
	CHECK_EQ(game_stat_max(3, -5), 3);
}
