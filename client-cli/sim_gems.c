/*
 * sim_gems.c — the command line of `lair sim gems`: parses the options,
 * runs the simulator (sim_gems_run.c) and prints its summary as text or as
 * JSON (--json, for scripts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "sim.h"
#include "sim_gems.h"

/* As `lair sim deepfall`: enough for any study, and a typo cannot start a
 * run that never ends. */
#define SIM_GEMS_MAX_GAMES 100000000

static void usage(FILE *f)
{
	fprintf(f, "usage: lair sim gems [--games N] [--seats S] [--seed X] [--json]\n"
		   "\n"
		   "Plays N all-AI games of gems and prints win rate by seat,\n"
		   "mean and median winning score, rooms per dungeon, how dungeons end,\n"
		   "every statistic's totals and the achievements earned.\n"
		   "\n"
		   "  --games N   games to play, 1-100000000 (default 1000)\n"
		   "  --seats S   seats per game, 1-9 (default 5)\n"
		   "  --seed X    base seed; game i uses rng_derive_seed(X, i) (default 1)\n"
		   "  --json      print one JSON object instead of text\n"
		   "  --help      this text\n");
}

int sim_gems_cli(int argc, char **argv, FILE *out, FILE *err)
{
	sim_gems_opts o = {.games = 1000, .seed = 1, .seats = 5, .progress = true};
	bool json = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		uint64_t v = 0;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(out);
			return 0;
		} else if (strcmp(a, "--json") == 0) {
			json = true;
		} else if (strcmp(a, "--games") == 0 && args_u64(i + 1 < argc ? argv[i + 1] : NULL,
								  &v) == 0 && v >= 1 &&
			   v <= SIM_GEMS_MAX_GAMES) {
			o.games = v;
			i++;
		} else if (strcmp(a, "--seed") == 0 && args_u64(i + 1 < argc ? argv[i + 1] : NULL,
								 &v) == 0) {
			o.seed = v;
			i++;
		} else if (strcmp(a, "--seats") == 0 && args_u64(i + 1 < argc ? argv[i + 1] : NULL,
								  &v) == 0 && v >= 1 && v <= 9) {
			o.seats = (int)v;
			i++;
		} else if (args_has(argc, argv, "--json")) { /* the error as JSON too */
			cJSON *e = cJSON_CreateObject();
			char why[256];
			snprintf(why, sizeof why, "bad or incomplete option '%s'", a);
			cJSON_AddStringToObject(e, "type", "error");
			cJSON_AddStringToObject(e, "code", "usage");
			cJSON_AddStringToObject(e, "message", why);
			cJSON_AddNumberToObject(e, "exit", 2);
			char *s = cJSON_PrintUnformatted(e);
			fprintf(out, "%s\n", s);
			free(s);
			cJSON_Delete(e);
			return 2;
		} else {
			fprintf(err, "lair sim gems: bad or incomplete option '%s'\n", a);
			usage(err);
			return 2;
		}
	}
	sim_gems_totals *t = malloc(sizeof *t);
	if (!t) {
		fprintf(err, "lair sim gems: out of memory\n");
		return 1;
	}
	sim_gems_run(&o, t);
	if (json) {
		cJSON *j = sim_gems_json(&o, t);
		char *s = cJSON_PrintUnformatted(j);
		fprintf(out, "%s\n", s);
		free(s);
		cJSON_Delete(j);
	} else {
		sim_gems_print(out, &o, t);
	}
	free(t);
	return 0;
}

int sim_gems_main(int argc, char **argv) { return sim_gems_cli(argc, argv, stdout, stderr); }
