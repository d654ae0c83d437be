/*
 * cmd_map.c — `lair map`: prints a crawl level as the generator makes it
 * (server/games/crawl/cr_level.h; docs/rules/crawl.md C1–C10), offline: the
 * level a run with seed S meets on visit V of act A. ASCII by default (the
 * legend of C10), or JSON with --json: {"width", "height", "rows": [...],
 * ...} with the same characters, plus how the level was made.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../server/games/crawl/cr_level.h"
#include "args.h"
#include "cmd.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lair map [--seed S] [--act A] [--visit V] [--acts N]\n"
		"                [--width W --height H] [--json]\n"
		"\n"
		"Prints the crawl level a run seeded S meets on visit V of act A:\n"
		"  # wall  . floor  + door  @ start  > portal down  < portal up\n"
		"  D the devil's lair (last act)  ? ? tile  $ chest  m monster spawn\n"
		"\n"
		"  --seed S     the run seed, 0-18446744073709551615 (default 1)\n"
		"  --act A      1-%d (default 1)\n"
		"  --visit V    0 for the first visit, 1 for the next... (default 0)\n"
		"  --acts N     acts in the run, 1-%d (default %d)\n"
		"  --width W    %d-%d (default %d)\n"
		"  --height H   %d-%d (default %d)\n"
		"  --json       {\"width\", \"height\", \"rows\": [...], ...}\n",
		CR_MAX_ACTS, CR_MAX_ACTS, CR_MAX_ACTS, CR_MIN_W, CR_MAX_W, CR_DEF_W, CR_MIN_H,
		CR_MAX_H, CR_DEF_H);
}

/* Digits only, within [lo, hi]. */
static int parse_num(const char *s, unsigned long long lo, unsigned long long hi,
		     unsigned long long *out)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int cmd_map_to(int argc, char **argv, FILE *out, FILE *err)
{
	const char *seed_s = NULL, *act_s = NULL, *visit_s = NULL, *acts_s = NULL, *w_s = NULL,
		   *h_s = NULL;
	int json = 0;
	const struct arg_opt opts[] = {
		{"seed", &seed_s, NULL},   {"act", &act_s, NULL},	{"visit", &visit_s, NULL},
		{"acts", &acts_s, NULL},   {"width", &w_s, NULL},	{"height", &h_s, NULL},
		{"json", NULL, &json},
	};
	const char *pos[1];
	int n_pos = 0;
	char msg[160];
	int rc = args_parse(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 0, &n_pos, msg,
			    sizeof msg);
	if (rc == ARGS_HELP) {
		usage(out);
		return LAIR_OK;
	}
	if (rc != ARGS_OK) {
		fprintf(err, "lair map: %s\n", msg);
		usage(err);
		return LAIR_USAGE;
	}
	unsigned long long seed = 1, act = 1, visit = 0, acts = CR_MAX_ACTS, w = CR_DEF_W,
			   h = CR_DEF_H;
	struct {
		const char *name, *text;
		unsigned long long lo, hi, *v;
	} nums[] = {
		{"seed", seed_s, 0, UINT64_MAX, &seed},
		{"acts", acts_s, 1, CR_MAX_ACTS, &acts},
		{"act", act_s, 1, CR_MAX_ACTS, &act},
		{"visit", visit_s, 0, 1000000, &visit},
		{"width", w_s, CR_MIN_W, CR_MAX_W, &w},
		{"height", h_s, CR_MIN_H, CR_MAX_H, &h},
	};
	for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		if (nums[i].text &&
		    parse_num(nums[i].text, nums[i].lo, nums[i].hi, nums[i].v) != 0) {
			fprintf(err, "lair map: --%s must be a whole number within %llu-%llu\n",
				nums[i].name, nums[i].lo, nums[i].hi);
			return LAIR_USAGE;
		}
	}
	if (act > acts) {
		fprintf(err, "lair map: --act %llu is past the run's %llu acts\n", act, acts);
		return LAIR_USAGE;
	}
	cr_level *lv = malloc(sizeof *lv);
	char *text = malloc((CR_MAX_W + 1) * CR_MAX_H + 1);
	if (!lv || !text) {
		free(lv);
		free(text);
		fprintf(err, "lair map: out of memory\n");
		return LAIR_REFUSED;
	}
	cr_level_generate(lv, seed, (int)act, (int)acts, (int)visit, (int)w, (int)h);
	cr_level_ascii(lv, text, (CR_MAX_W + 1) * CR_MAX_H + 1);
	if (!json) {
		fputs(text, out);
	} else {
		cJSON *j = cJSON_CreateObject();
		char seed_txt[24];
		snprintf(seed_txt, sizeof seed_txt, "%llu", seed);
		cJSON_AddStringToObject(j, "seed", seed_txt);
		cJSON_AddNumberToObject(j, "act", (double)act);
		cJSON_AddNumberToObject(j, "visit", (double)visit);
		cJSON_AddNumberToObject(j, "width", lv->w);
		cJSON_AddNumberToObject(j, "height", lv->h);
		cJSON *rows = cJSON_AddArrayToObject(j, "rows");
		for (int y = 0; y < lv->h; y++) {
			char *row = text + y * (lv->w + 1);
			row[lv->w] = '\0';
			cJSON_AddItemToArray(rows, cJSON_CreateString(row));
		}
		cJSON_AddNumberToObject(j, "question_marks", lv->n_qmark);
		cJSON_AddNumberToObject(j, "chests", lv->n_chest);
		cJSON_AddNumberToObject(j, "spawns", lv->n_spawn);
		cJSON_AddNumberToObject(j, "start_distance", lv->start_dist);
		cJSON_AddNumberToObject(j, "rejections", lv->rejections);
		cJSON_AddBoolToObject(j, "fallback", lv->fallback);
		char *s = cJSON_PrintUnformatted(j);
		fprintf(out, "%s\n", s);
		free(s);
		cJSON_Delete(j);
	}
	free(text);
	free(lv);
	return LAIR_OK;
}

int cmd_map(int argc, char **argv) { return cmd_map_to(argc, argv, stdout, stderr); }
