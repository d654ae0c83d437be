/*
 * test_gems_sim.c — `lair sim gems` end to end through its command line:
 * the JSON it prints for a few games, its determinism, its usage errors;
 * and the fast shared-state fold it uses equals folding the events.
 */
#include <stdlib.h>
#include <string.h>

#include "../../client-cli/sim_gems.h"
#include "../../server/games/gems/gems_int.h"
#include "../test.h"

/* Runs the command line; returns its exit code and what it printed. */
static int run_cli(const char *const *args, int n, char **out_text)
{
	char *argv[16];
	for (int i = 0; i < n; i++)
		argv[i] = (char *)args[i];
	char *text = NULL, *etext = NULL;
	size_t len = 0, elen = 0;
	FILE *out = open_memstream(&text, &len), *err = open_memstream(&etext, &elen);
	int rc = sim_gems_cli(n, argv, out, err);
	fclose(out);
	fclose(err);
	free(etext);
	*out_text = text;
	return rc;
}

static double num(const cJSON *o, const char *k) { return cJSON_GetObjectItem(o, k)->valuedouble; }

TEST(gems_sim_json_for_a_few_games)
{
	const char *args[] = {"gems", "--games", "40", "--seats", "4", "--seed", "9", "--json"};
	char *text;
	REQUIRE(run_cli(args, 8, &text) == 0);
	cJSON *j = cJSON_Parse(text);
	REQUIRE(j != NULL);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(j, "kind")), "gems");
	CHECK_EQ(num(j, "games"), 40);
	CHECK_EQ(num(j, "seats"), 4);
	cJSON *wins = cJSON_GetObjectItem(j, "wins_by_seat");
	REQUIRE(cJSON_GetArraySize(wins) == 4);
	double sum = 0;
	for (int i = 0; i < 4; i++)
		sum += cJSON_GetArrayItem(wins, i)->valuedouble;
	CHECK(sum >= 40 && sum <= 40 + num(j, "shared_wins") * 3);
	cJSON *ws = cJSON_GetObjectItem(j, "winning_score");
	CHECK(num(ws, "min") <= num(ws, "median") && num(ws, "median") <= num(ws, "max"));
	CHECK(num(ws, "min") <= num(ws, "mean") && num(ws, "mean") <= num(ws, "max"));
	cJSON *ends = cJSON_GetObjectItem(j, "dungeon_ends");
	CHECK_EQ(num(ends, "all_left") + num(ends, "lair") + num(ends, "exhausted"), 40 * 5);
	cJSON *rooms = cJSON_GetObjectItem(j, "rooms_per_dungeon");
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(rooms, "by_dungeon")), 5);
	CHECK(num(rooms, "mean") >= 1);
	cJSON *st = cJSON_GetObjectItem(j, "stats");
	CHECK_EQ(cJSON_GetArraySize(st), GEMS_N_STATS);
	CHECK_EQ(num(st, "games_played"), 40);
	CHECK_EQ(num(st, "number_of_players"), 160);
	CHECK_EQ(num(st, "games_won_by_ais"), 40);
	CHECK_EQ(num(st, "highest_winning_score"), num(ws, "max"));
	CHECK_EQ(num(st, "lowest_winning_score"), num(ws, "min"));
	cJSON *ach = cJSON_GetObjectItem(j, "achievements");
	CHECK_EQ(cJSON_GetArraySize(ach), GEMS_N_ACH);
	CHECK(num(ach, "skynet") >= 40); /* every game is won by an AI */
	CHECK(num(ach, "highest_score") >= 1);
	cJSON_Delete(j);
	free(text);
}

TEST(gems_sim_same_seed_same_output)
{
	const char *args[] = {"gems", "--games", "25", "--seed", "3"};
	char *a, *b;
	REQUIRE(run_cli(args, 5, &a) == 0);
	REQUIRE(run_cli(args, 5, &b) == 0);
	/* the first line holds the timing; the rest must match */
	CHECK_STR(strchr(a, '\n'), strchr(b, '\n'));
	CHECK(strstr(a, "win rate by seat") != NULL);
	CHECK(strstr(a, "Gems Stolen by the Spider") != NULL);
	free(a);
	free(b);
}

TEST(gems_sim_usage_errors_exit_2)
{
	const char *bad[][3] = {{"gems", "--games", "x"},	{"gems", "--seats", "10"},
				{"gems", "--seats", "0"},	{"gems", "--frobnicate", ""},
				{"gems", "--seed", "-1"},	{"gems", "--games", "0"},
				{"gems", "--games", " 5"},	{"gems", "--games", "+5"},
				{"gems", "--games", "100000001"}, {"gems", "--seats", " 5"}};
	for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
		char *t;
		int n = bad[i][2][0] ? 3 : 2;
		CHECK_EQ(run_cli(bad[i], n, &t), 2);
		free(t);
	}
	/* with --json the error is a JSON object on stdout, with the exit code */
	const char *bad_json[] = {"gems", "--json", "--games", "0"};
	char *j;
	CHECK_EQ(run_cli(bad_json, 4, &j), 2);
	cJSON *e = cJSON_Parse(j);
	REQUIRE(e != NULL);
	CHECK_STR(cJSON_GetObjectItem(e, "code")->valuestring, "usage");
	CHECK_EQ(num(e, "exit"), 2);
	cJSON_Delete(e);
	free(j);
	const char *help[] = {"gems", "--help"};
	char *t;
	CHECK_EQ(run_cli(help, 2, &t), 0);
	CHECK(strstr(t, "usage: lair sim gems") != NULL);
	free(t);
	const char *missing[] = {"gems", "--games"};
	CHECK_EQ(run_cli(missing, 2, &t), 2);
	free(t);
}

TEST(gems_G10_fast_fold_equals_folding_the_events)
{
	gems_shared fast, slow;
	gems_shared_init(&fast);
	gems_shared_init(&slow);
	game_events evs = {0};
	for (uint64_t s = 0; s < 300; s++) {
		gems_game g;
		game_events_clear(&evs);
		gems_init(&g, 1 + (int)(s % 9), s, &slow, NULL, &evs);
		gems_play_ai(&g, &evs);
		gems_shared_fold(&slow, evs.v, evs.len);
		gems_shared_fold_game(&fast, &g);
		CHECK(memcmp(&fast, &slow, sizeof fast) == 0);
	}
	/* the rotation keeps counts small: some adventure is always at zero */
	int zeros = 0;
	for (int i = 0; i < GEMS_N_ADV; i++)
		zeros += slow.uses[i] == 0;
	CHECK(zeros >= 1);
	game_events_free(&evs);
}
