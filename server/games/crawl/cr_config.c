/*
 * cr_config.c — a crawl table's options (proto/kinds/crawl.md "Config"):
 * acts, level size, the round cap, the DeadlyEvents modifier and the seats
 * on a first run, each checked against its bounds; and the content (C29),
 * parsed and validated once per process and pointed at by every config, so
 * a config is all a game needs.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../../common/util.h"
#include "crawl.h"

#define DEF_ROUNDS 3000

static const struct knob {
	const char *name;
	size_t off;
	int lo, hi, def;
} knobs[] = {
	{"acts", offsetof(cr_config, acts), 1, CR_MAX_ACTS, CR_MAX_ACTS},
	{"width", offsetof(cr_config, width), CR_MIN_W, CR_MAX_W, CR_DEF_W},
	{"height", offsetof(cr_config, height), CR_MIN_H, CR_MAX_H, CR_DEF_H},
	{"max_rounds", offsetof(cr_config, max_rounds), 100, 20000, DEF_ROUNDS},
};

int cr_config_parse(cr_config *cfg, const cJSON *json, char *err, size_t errlen)
{
	memset(cfg, 0, sizeof *cfg);
	for (size_t i = 0; i < ARRAY_LEN(knobs); i++)
		*(int *)((char *)cfg + knobs[i].off) = knobs[i].def;
	if (json && !cJSON_IsNull(json)) {
		if (!cJSON_IsObject(json)) {
			snprintf(err, errlen, "crawl config must be an object");
			return -1;
		}
		const cJSON *it;
		cJSON_ArrayForEach(it, json)
		{
			const char *k = it->string;
			const struct knob *kn = NULL;
			for (size_t i = 0; i < ARRAY_LEN(knobs); i++)
				if (!strcmp(knobs[i].name, k))
					kn = &knobs[i];
			if (kn) {
				double d = cJSON_IsNumber(it) ? it->valuedouble : NAN;
				if (!(d >= kn->lo && d <= kn->hi) || d != floor(d)) {
					snprintf(err, errlen,
						 "crawl option '%s' must be a whole number within "
						 "%d..%d",
						 k, kn->lo, kn->hi);
					return -1;
				}
				*(int *)((char *)cfg + kn->off) = (int)d;
			} else if (!strcmp(k, "deadly_events")) {
				if (!cJSON_IsBool(it)) {
					snprintf(err, errlen, "crawl option 'deadly_events' must be "
							      "true or false");
					return -1;
				}
				cfg->deadly_events = cJSON_IsTrue(it);
			} else if (!strcmp(k, "first_run")) {
				/* C15: the seats whose human is on a first run; the
				 * server sets it at each start */
				if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) > CR_MAX_SEATS) {
					snprintf(err, errlen, "crawl option 'first_run' must list at "
							      "most %d seats",
						 CR_MAX_SEATS);
					return -1;
				}
				const cJSON *s;
				cJSON_ArrayForEach(s, it)
				{
					double d = cJSON_IsNumber(s) ? s->valuedouble : NAN;
					if (!(d >= 0 && d < CR_MAX_SEATS) || d != floor(d) ||
					    (cfg->first_run >> (int)d & 1)) {
						snprintf(err, errlen,
							 "crawl option 'first_run' lists seats "
							 "0..%d, each once",
							 CR_MAX_SEATS - 1);
						return -1;
					}
					cfg->first_run |= (uint8_t)(1u << (int)d);
				}
			} else {
				char key[40];
				strlcpy_safe(key, k, sizeof key);
				snprintf(err, errlen, "unknown crawl option '%s'", key);
				return -1;
			}
		}
	}
	cfg->ct = cr_content_builtin(err, errlen);
	return cfg->ct ? 0 : -1;
}

cJSON *cr_config_json(const cr_config *cfg)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; i < ARRAY_LEN(knobs); i++)
		cJSON_AddNumberToObject(o, knobs[i].name,
					*(const int *)((const char *)cfg + knobs[i].off));
	cJSON_AddBoolToObject(o, "deadly_events", cfg->deadly_events);
	cJSON *fr = cJSON_AddArrayToObject(o, "first_run");
	for (int s = 0; s < CR_MAX_SEATS; s++)
		if (cfg->first_run >> s & 1)
			cJSON_AddItemToArray(fr, cJSON_CreateNumber(s));
	return o;
}
