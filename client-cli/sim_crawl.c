/*
 * sim_crawl.c — the command line of `lair sim crawl` (sim_crawl.h): parses
 * the options and runs the ? tile study (--question-marks N,
 * sim_crawl_qmark.c), printing text or one JSON object (--json).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "sim_crawl.h"

#define SQ_MAX_TILES 100000000L

static void usage(FILE *f)
{
	fprintf(f, "usage: lair sim crawl --question-marks N [--seed X] [--json]\n"
		   "\n"
		   "--question-marks N rolls about N ? tiles under each relic and modifier\n"
		   "combination and prints each room type's observed share beside the share\n"
		   "the accumulation rule gives exactly, with the difference in standard\n"
		   "errors, and the ? count per act beside its distribution.\n"
		   "\n"
		   "  --question-marks N  tiles per combination, 1-%ld\n"
		   "  --seed X            base seed (default 1)\n"
		   "  --json              print one JSON object instead of text\n"
		   "  --help              this text\n",
		   SQ_MAX_TILES);
}

/* Digits only: strtoull would also take blanks and a sign. */
static int parse_u64(const char *s, uint64_t *out)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int sim_crawl_cli(int argc, char **argv, FILE *out, FILE *err)
{
	uint64_t seed = 1, qm = 0;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n = 0;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(out);
			return 0;
		} else if (strcmp(a, "--json") == 0) {
			json = true;
		} else if (strcmp(a, "--question-marks") == 0 && parse_u64(v, &n) == 0 &&
			   n >= 1 && n <= (uint64_t)SQ_MAX_TILES) {
			qm = n;
			i++;
		} else if (strcmp(a, "--seed") == 0 && parse_u64(v, &n) == 0) {
			seed = n;
			i++;
		} else {
			fprintf(err, "lair sim crawl: bad or incomplete option '%s'\n", a);
			usage(err);
			return 2;
		}
	}
	if (!qm) {
		fprintf(err, "lair sim crawl: say --question-marks N\n");
		usage(err);
		return 2;
	}
	sq_result *res = malloc(sizeof *res);
	if (!res) {
		fprintf(err, "lair sim crawl: out of memory\n");
		return 1;
	}
	sq_run((long)qm, seed, res);
	if (json) {
		cJSON *j = sq_json(res);
		char *s = cJSON_PrintUnformatted(j);
		fprintf(out, "%s\n", s);
		free(s);
		cJSON_Delete(j);
	} else {
		sq_print(out, res);
	}
	free(res);
	return 0;
}

int sim_crawl_main(int argc, char **argv) { return sim_crawl_cli(argc, argv, stdout, stderr); }
