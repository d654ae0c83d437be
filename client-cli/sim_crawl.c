/*
 * sim_crawl.c — the command line of `lair sim crawl` (sim_crawl.h): parses
 * the options and plays whole all-AI runs (sim_crawl_run.c) or, with
 * --question-marks N, the ? tile study (sim_crawl_qmark.c), printing text or
 * one JSON object (--json).
 */
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "sim.h"
#include "sim_crawl.h"

#define SQ_MAX_TILES 100000000L
#define SR_MAX_GAMES 10000000L

static void usage(FILE *f)
{
	fprintf(f, "usage: lair sim crawl [--games N] [--seats S] [--seed X] [--deadly-events]\n"
		   "                      [--width W] [--height H] [--acts A] [--json]\n"
		   "       lair sim crawl --question-marks N [--seed X] [--json]\n"
		   "\n"
		   "Plays N all-AI crawl runs and prints the win rate, how runs end, their\n"
		   "length, the acts reached, what the ? tiles became per act, the events\n"
		   "served and the level generator's rejections per level.\n"
		   "\n"
		   "--question-marks N instead rolls about N ? tiles under each relic and\n"
		   "modifier combination and prints each room type's observed share beside\n"
		   "the share the accumulation rule gives exactly, with the difference in\n"
		   "standard errors, and the ? count per act beside its distribution.\n"
		   "\n"
		   "  --games N           runs to play, 1-%ld (default 100)\n"
		   "  --seats S           scoundrels per run, 1-%d (default 1)\n"
		   "  --seed X            base seed; run i uses rng_derive_seed(X, i) (default 1)\n"
		   "  --deadly-events     the DeadlyEvents modifier\n"
		   "  --width W, --height H, --acts A   the level size and acts (defaults 56,\n"
		   "                      17, 3)\n"
		   "  --question-marks N  tiles per combination, 1-%ld\n"
		   "  --json              print one JSON object instead of text\n"
		   "  --help              this text\n",
		SR_MAX_GAMES, CR_MAX_SEATS, SQ_MAX_TILES);
}

static void print_json(FILE *out, cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);
	fprintf(out, "%s\n", s);
	free(s);
	cJSON_Delete(j);
}

int sim_crawl_cli(int argc, char **argv, FILE *out, FILE *err)
{
	uint64_t qm = 0;
	sr_opts o = {.games = 100, .seats = 1, .seed = 1};
	bool json = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n = 0;
		bool num = args_u64(v, &n) == 0;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(out);
			return 0;
		} else if (strcmp(a, "--json") == 0) {
			json = true;
		} else if (strcmp(a, "--deadly-events") == 0) {
			o.deadly_events = true;
		} else if (strcmp(a, "--question-marks") == 0 && num && n >= 1 &&
			   n <= (uint64_t)SQ_MAX_TILES) {
			qm = n;
			i++;
		} else if (strcmp(a, "--games") == 0 && num && n >= 1 && n <= SR_MAX_GAMES) {
			o.games = (long)n;
			i++;
		} else if (strcmp(a, "--seats") == 0 && num && n >= 1 && n <= CR_MAX_SEATS) {
			o.seats = (int)n;
			i++;
		} else if (strcmp(a, "--width") == 0 && num && n >= CR_MIN_W && n <= CR_MAX_W) {
			o.width = (int)n;
			i++;
		} else if (strcmp(a, "--height") == 0 && num && n >= CR_MIN_H && n <= CR_MAX_H) {
			o.height = (int)n;
			i++;
		} else if (strcmp(a, "--acts") == 0 && num && n >= 1 && n <= CR_MAX_ACTS) {
			o.acts = (int)n;
			i++;
		} else if (strcmp(a, "--seed") == 0 && num) {
			o.seed = n;
			i++;
		} else {
			fprintf(err, "lair sim crawl: bad or incomplete option '%s'\n", a);
			usage(err);
			return 2;
		}
	}
	if (qm) {
		sq_result *res = malloc(sizeof *res);
		if (!res) {
			fprintf(err, "lair sim crawl: out of memory\n");
			return 1;
		}
		sq_run((long)qm, o.seed, res);
		if (json)
			print_json(out, sq_json(res));
		else
			sq_print(out, res);
		free(res);
		return 0;
	}
	sr_result *res = malloc(sizeof *res);
	char msg[300];
	if (!res || sr_run(&o, res, msg, sizeof msg) != 0) {
		fprintf(err, "lair sim crawl: %s\n", res ? msg : "out of memory");
		free(res);
		return 1;
	}
	if (json)
		print_json(out, sr_json(&o, res));
	else
		sr_print(out, &o, res);
	free(res);
	return 0;
}

int sim_crawl_main(int argc, char **argv) { return sim_crawl_cli(argc, argv, stdout, stderr); }
