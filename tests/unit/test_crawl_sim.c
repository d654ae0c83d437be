/*
 * test_crawl_sim.c — `lair sim crawl` over whole all-AI runs: its figures add
 * up (runs end one way each, ? tiles counted per act, levels made and their
 * rejections reported, C6), the same seed gives the same figures, and the
 * AI plays runs to their end (C48): no run of a few dozen is stopped by the
 * round cap.
 */
#include <stdlib.h>
#include <string.h>

#include "../../client-cli/sim_crawl.h"
#include "../test.h"

static cJSON *run_cli(char **argv, int argc)
{
	FILE *out = tmpfile(), *err = tmpfile();
	if (!out || !err)
		return NULL;
	int rc = sim_crawl_cli(argc, argv, out, err);
	rewind(out);
	static char text[1 << 16];
	size_t n = fread(text, 1, sizeof text - 1, out);
	text[n] = 0;
	fclose(out);
	fclose(err);
	return rc == 0 ? cJSON_Parse(text) : NULL;
}

TEST(crawl_C48_C6_sim_runs_report_figures_that_add_up)
{
	char *argv[] = {"crawl", "--games", "40", "--seats", "2", "--seed", "9", "--json", NULL};
	cJSON *j = run_cli(argv, 8);
	REQUIRE(j);
	CHECK_EQ(cJSON_GetObjectItem(j, "games")->valueint, 40);
	cJSON *ends = cJSON_GetObjectItem(j, "ends");
	int won = cJSON_GetObjectItem(ends, "won")->valueint;
	int fallen = cJSON_GetObjectItem(ends, "fallen")->valueint;
	int time = cJSON_GetObjectItem(ends, "time")->valueint;
	CHECK_EQ(won + fallen + time, 40);
	CHECK(won > 0);   /* the AI can win */
	CHECK(time <= 2); /* and plays runs to their end */
	CHECK(cJSON_GetObjectItem(j, "win_rate")->valuedouble == won / 40.0);
	cJSON *acts = cJSON_GetObjectItem(j, "acts_reached");
	int sum = 0;
	for (int a = 0; a < 3; a++)
		sum += cJSON_GetArrayItem(acts, a)->valueint;
	CHECK_EQ(sum, 40);
	cJSON *lv = cJSON_GetObjectItem(j, "levels");
	CHECK(cJSON_GetObjectItem(lv, "made")->valueint >= 40);
	CHECK(cJSON_GetObjectItem(lv, "rejections_per_level")->valuedouble >= 0);
	cJSON *qm = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "question_marks"), 0);
	double total = 0;
	for (int t = 0; t < CR_NROOM; t++)
		total += cJSON_GetObjectItem(qm, cr_room_names[t])->valuedouble;
	CHECK(total > 0.999 && total < 1.001);
	CHECK(cJSON_GetObjectItem(j, "votes")->valueint > 0); /* two seats: votes */
	/* the same seed, the same figures */
	cJSON *again = run_cli(argv, 8);
	REQUIRE(again);
	cJSON_DeleteItemFromObject(j, "runs_per_second");
	cJSON_DeleteItemFromObject(again, "runs_per_second");
	CHECK(cJSON_Compare(j, again, true));
	cJSON_Delete(again);
	cJSON_Delete(j);
	char *bad[][3] = {{"crawl", "--games", "0"}, {"crawl", "--seats", "5"},
			  {"crawl", "--width", "10"}, {"crawl", "--acts", "4"}};
	FILE *out = tmpfile(), *err = tmpfile();
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_EQ(sim_crawl_cli(3, bad[i], out, err), 2);
	fclose(out);
	fclose(err);
}

static double num_at(const cJSON *o, const char *a, const char *b)
{
	const cJSON *v = cJSON_GetObjectItem(o, a);
	if (b)
		v = cJSON_GetObjectItem(v, b);
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* C48: the AI plays runs through and mostly wins them; a party that loses
 * a scoundrel in the last act goes back up (by the portal, or the quick
 * jump when the way up is not known) and stands them again. Fixed seeds:
 * the figures are the same on every run of the test. */
TEST(crawl_C48_the_ai_wins_and_takes_the_way_back_up)
{
	char *solo[] = {"crawl", "--games", "40", "--seats", "1", "--seed", "3", "--json", NULL};
	cJSON *j = run_cli(solo, 8);
	REQUIRE(j);
	CHECK_MSG(num_at(j, "win_rate", NULL) >= 0.75, "one seat: %.3f",
		  num_at(j, "win_rate", NULL));
	cJSON_Delete(j);
	char *party[] = {"crawl",	   "--games", "40", "--seats", "4", "--seed", "3",
			 "--deadly-events", "--json",  NULL};
	j = run_cli(party, 9);
	REQUIRE(j);
	CHECK_MSG(num_at(j, "win_rate", NULL) >= 0.85, "four seats: %.3f",
		  num_at(j, "win_rate", NULL));
	CHECK(num_at(j, "ai", "trips_up_per_run") > 0);
	CHECK(num_at(j, "ai", "quick_jumps_per_run") > 0);
	CHECK(num_at(j, "ai", "stood_again_per_run") > 0);
	CHECK(num_at(j, "ai", "rests_per_run") > 0);
	CHECK(num_at(j, "ends", "time") <= 2);
	cJSON_Delete(j);
}
