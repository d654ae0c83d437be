/*
 * test_deepfall_sim.c — `lair sim deepfall` on small runs: the JSON figures
 * of docs/rules/deepfall.md DF80-DF89 add up (every game counted once, wins
 * split, shares summing to one, the 36 companies adding up to the halves),
 * the
 * same seed gives the same figures, sweeps and CSV and the HTML report are
 * written, and usage errors exit 2 without output.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../client-cli/sim.h"
#include "../../server/games/deepfall/deepfall.h"
#include "../test.h"

#include <cJSON.h>

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	size_t got = fread(s, 1, (size_t)n, f);
	s[got] = 0;
	fclose(f);
	return s;
}

static int run(int argc, const char **argv)
{
	return sim_deepfall_main(argc, (char **)argv);
}

static cJSON *run_json(const char *path, const char *games, const char *seed)
{
	const char *argv[] = {"deepfall", "--games", games, "--seed", seed, "--quiet",
			      "--out", path};
	if (run(8, argv) != 0)
		return NULL;
	char *text = slurp(path);
	cJSON *j = text ? cJSON_Parse(text) : NULL;
	free(text);
	return j;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItem(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* DF80-DF89: the figures of docs/rules/deepfall.md §9 add up: DF80 win
 * rates, DF81 and DF85 length, DF82 margin, DF83 companies, DF84 endings,
 * DF86 deep rooms, DF87 collapses, DF88 feel-bads, DF89 glory by exit. */
TEST(deepfall_sim_DF80_DF89_json_figures_add_up)
{
	char path[] = "/tmp/lair_dfsim_XXXXXX";
	int fd = mkstemp(path);
	REQUIRE(fd >= 0);
	close(fd);
	cJSON *j = run_json(path, "200", "3");
	REQUIRE(j);
	cJSON *r = cJSON_GetObjectItem(j, "results");
	REQUIRE(r);
	CHECK_EQ(num(r, "games"), 200);
	CHECK_EQ(num(r, "seats"), 4);
	cJSON *strats = cJSON_GetObjectItem(r, "strategies");
	CHECK_EQ(cJSON_GetArraySize(strats), 4);
	double wins = 0;
	cJSON *s;
	cJSON_ArrayForEach(s, strats)
	{
		CHECK_EQ(num(s, "seat_games"), 200); /* one seat each per game */
		wins += num(s, "wins");
	}
	CHECK(wins > 199.999 && wins < 200.001); /* tied winners split a win */
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(r, "lineages")), 6);
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(r, "callings")), 6);
	cJSON *len = cJSON_GetObjectItem(r, "length");
	double n = 0;
	cJSON *h;
	cJSON_ArrayForEach(h, cJSON_GetObjectItem(r, "rounds_histogram")) n += h->valuedouble;
	CHECK_EQ(n, 200);
	CHECK(num(len, "min") >= 6); /* at most one floor falls a round */
	CHECK(num(len, "sd") >= 0);
	cJSON *gs = cJSON_GetObjectItem(r, "winners_glory_by_exit");
	double share = num(gs, "cash_out") + num(gs, "press_on") + num(gs, "worthy_end");
	CHECK(share > 0.999 && share < 1.001);
	/* DF84: the winners' party endings, and the triangle made of them */
	cJSON *ex = cJSON_GetObjectItem(r, "exit_share_of_winners_choices");
	double ends = num(ex, "cash_out_chosen") + num(ex, "cash_out_forced") +
		      num(ex, "press_on") + num(ex, "worthy_end");
	CHECK(ends > 0.999 && ends < 1.001);
	CHECK(num(ex, "cash_out_forced") > 0); /* the last round forces some */
	cJSON *tri = cJSON_GetObjectItem(r, "exit_triangle");
	CHECK(fabs(num(tri, "press_on") - num(ex, "cash_out_forced") - num(ex, "press_on")) <
	      1e-9);
	CHECK(fabs(num(tri, "cash_out") - num(ex, "cash_out_chosen")) < 1e-9);
	/* DF83: 36 companies, every one fielded in 200 games */
	cJSON *comps = cJSON_GetObjectItem(r, "companies");
	REQUIRE(cJSON_GetArraySize(comps) == DF_NCOMPANY);
	double parties = 0, lparties = 0;
	cJSON *co;
	cJSON_ArrayForEach(co, comps)
	{
		CHECK(cJSON_IsString(cJSON_GetObjectItem(co, "lineage")));
		CHECK(cJSON_IsString(cJSON_GetObjectItem(co, "calling")));
		CHECK(num(co, "games") > 0 && num(co, "games") <= 800);
		CHECK(num(co, "win_rate") >= 0 && num(co, "win_rate") <= 1);
		CHECK(num(co, "glory_vs_mean") > 0);
		parties += num(co, "parties");
	}
	cJSON_ArrayForEach(co, cJSON_GetObjectItem(r, "lineages")) lparties +=
		num(co, "appearances");
	CHECK_EQ(parties, lparties); /* the cells add up to the halves */
	/* DF87: a figure per floor; the final-collapse share is a share */
	cJSON *cg = cJSON_GetObjectItem(r, "collapse_glory_by_floor");
	CHECK_EQ(cJSON_GetArraySize(cg), 6);
	/* ...and the Worthy Ends' part of it, never more than the whole */
	cJSON *cw = cJSON_GetObjectItem(r, "collapse_worthy_by_floor");
	REQUIRE(cJSON_GetArraySize(cw) == 6);
	for (int f = 0; f < 6; f++) {
		double w = cJSON_GetArrayItem(cw, f)->valuedouble;
		CHECK(w >= 0 && w <= cJSON_GetArrayItem(cg, f)->valuedouble);
	}
	double fb = num(r, "final_collapse_biggest_share");
	CHECK(fb >= 0 && fb <= 1);
	/* DF86: 200 games x 8 deep rooms; contested ones are claimed ones */
	cJSON *dr = cJSON_GetObjectItem(r, "deep_rooms");
	CHECK_EQ(num(dr, "rooms"), 1600);
	CHECK(num(dr, "contested_share") <= num(dr, "claimed_share"));
	double mf = num(cJSON_GetObjectItem(r, "margin_fraction"), "mean");
	CHECK(mf >= 0 && mf <= 1);
	CHECK(cJSON_IsObject(cJSON_GetObjectItem(r, "targets")));
	CHECK(num(cJSON_GetObjectItem(r, "feel_bad"), "per_game") >= 0);
	CHECK(num(cJSON_GetObjectItem(r, "cash_out_timing"), "winner_cash_outs") > 0);

	/* Same seed, same figures (timings aside). */
	cJSON *j2 = run_json(path, "200", "3");
	REQUIRE(j2);
	cJSON *r2 = cJSON_GetObjectItem(j2, "results");
	const char *timings[] = {"elapsed_s", "cpu_s", "games_per_cpu_s"};
	for (int i = 0; i < 3; i++) {
		cJSON_DeleteItemFromObject(r, timings[i]);
		cJSON_DeleteItemFromObject(r2, timings[i]);
	}
	CHECK(cJSON_Compare(r, r2, true));
	cJSON *j3 = run_json(path, "200", "4");
	REQUIRE(j3);
	cJSON *r3 = cJSON_GetObjectItem(j3, "results");
	CHECK(!cJSON_Compare(cJSON_GetObjectItem(r, "strategies"),
			     cJSON_GetObjectItem(r3, "strategies"), true));
	cJSON_Delete(j);
	cJSON_Delete(j2);
	cJSON_Delete(j3);
	unlink(path);
}

TEST(deepfall_sim_sweep_csv_and_report)
{
	char dir[] = "/tmp/lair_dfsim_dir_XXXXXX";
	REQUIRE(mkdtemp(dir));
	char csv[256], rep[256], html[300];
	snprintf(csv, sizeof csv, "%s/out.csv", dir);
	snprintf(rep, sizeof rep, "%s/report", dir);
	snprintf(html, sizeof html, "%s/index.html", rep);
	const char *argv[] = {"deepfall", "--games", "50", "--quiet", "--sweep",
			      "worthy_factor=3:5:1", "--out", csv, "--report", rep};
	CHECK_EQ(run(10, argv), 0);
	char *text = slurp(csv);
	REQUIRE(text);
	int lines = 0;
	for (char *p = text; *p; p++)
		lines += *p == '\n';
	CHECK_EQ(lines, 4); /* header + 3 points */
	CHECK(strncmp(text, "worthy_factor,games,seats,win_cashout", 37) == 0);
	free(text);
	text = slurp(html);
	REQUIRE(text);
	CHECK(strstr(text, "<svg") != NULL);
	CHECK(strstr(text, "worthy_factor") != NULL);
	free(text);
	unlink(html);
	rmdir(rep);
	unlink(csv);
	rmdir(dir);
}

TEST(deepfall_sim_usage_errors_exit_2)
{
	const char *bad[][4] = {
		{"deepfall", "--games", "0", NULL},
		{"deepfall", "--games", "ten", NULL},
		{"deepfall", "--seats", "10", NULL},
		{"deepfall", "--mix", "cashout,reckless", NULL},
		{"deepfall", "--sweep", "nosuchknob=1:2:1", NULL},
		{"deepfall", "--sweep", "floors=1:99:1", NULL},
		{"deepfall", "--sweep", "floors", NULL},
		{"deepfall", "--config", "/nonexistent/deepfall.json", NULL},
		{"deepfall", "--bogus", NULL, NULL},
		{"deepfall", "--sweep", "floors=1:6:nan", NULL},
		{"deepfall", "--sweep", "floors=1:6:1e-300", NULL},
		{"deepfall", "--sweep", "floors=1:inf:1", NULL},
		{"deepfall", "--sweep", "floors=nan:6:1", NULL},
		{"deepfall", "--seed", " -1", NULL},
		{"deepfall", "--seed", "+1", NULL},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int argc = bad[i][3] ? 4 : bad[i][2] ? 3 : 2;
		CHECK_MSG(run(argc, bad[i]) == 2, "case %zu exit code", i);
	}
	const char *help[] = {"deepfall", "--help"};
	CHECK_EQ(run(2, help), 0);
}
