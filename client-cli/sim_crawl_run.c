/*
 * sim_crawl_run.c — whole all-AI crawl runs for `lair sim crawl --games N`
 * (sim_crawl.h): win rate, how runs end, their length in rounds and
 * decisions, the acts reached, what the ? tiles became in each act, the
 * events served, and the level generator's rejections per level made.
 *
 * Run i is seeded with rng_derive_seed(seed, i); one cr_game is reused and
 * nothing is allocated per run.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "sim_crawl.h"

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int sr_run(const sr_opts *o, sr_result *res, char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	cr_config *cfg = xmalloc(sizeof *cfg);
	cJSON *cj = cJSON_CreateObject();
	cJSON_AddBoolToObject(cj, "deadly_events", o->deadly_events);
	if (o->width)
		cJSON_AddNumberToObject(cj, "width", o->width);
	if (o->height)
		cJSON_AddNumberToObject(cj, "height", o->height);
	if (o->acts)
		cJSON_AddNumberToObject(cj, "acts", o->acts);
	int rc = cr_config_parse(cfg, cj, err, errlen);
	cJSON_Delete(cj);
	if (rc != 0) {
		free(cfg);
		return -1;
	}
	cr_game *g = xmalloc(sizeof *g);
	int *rounds = xmalloc((size_t)o->games * sizeof *rounds);
	res->games = o->games;
	res->seats = o->seats;
	res->n_events = cfg->ct->n_events;
	for (int e = 0; e < cfg->ct->n_events; e++)
		strlcpy_safe(res->event_id[e], cfg->ct->event[e].id, sizeof res->event_id[e]);
	uint64_t t0 = now_ns();
	for (long i = 0; i < o->games; i++) {
		cr_game_init(g, cfg, o->seats, rng_derive_seed(o->seed, (uint64_t)i), NULL);
		while (!g->over) {
			game_choice ch[GAME_MAX_SEATS];
			uint32_t p = cr_pending(g);
			for (int s = 0; s < GAME_MAX_SEATS; s++) {
				ch[s] = s < o->seats && (p >> s & 1) ? cr_ai_choose(g, s)
								      : GAME_NO_CHOICE;
				res->rests += ch[s] == CR_C_REST;
			}
			if (cr_apply(g, ch, NULL, err, errlen) != 0) {
				free(rounds);
				free(g);
				free(cfg);
				return -1;
			}
		}
		res->wins += g->won;
		res->ends[g->end_reason]++;
		res->acts[g->max_act]++;
		rounds[i] = g->rounds;
		res->rounds_sum += g->rounds;
		res->decisions_sum += g->decision - 1;
		res->levels += g->gen_levels;
		res->rejections += g->gen_rejections;
		res->fallbacks += g->gen_fallbacks;
		if (g->gen_max_rejections > res->max_rejections)
			res->max_rejections = g->gen_max_rejections;
		res->votes += g->votes;
		res->ups += g->ups;
		res->jumps += g->jumps;
		res->revives += g->revives;
		for (int a = 1; a <= CR_MAX_ACTS; a++)
			for (int t = 0; t < CR_NROOM; t++)
				res->room[a][t] += g->room_count[a][t];
		for (int e = 0; e < cfg->ct->n_events; e++)
			res->served[e] += g->served[e];
		for (int s = 0; s < o->seats; s++) {
			res->kills += g->h[s].kills;
			res->falls += g->h[s].falls;
		}
	}
	res->seconds = (double)(now_ns() - t0) / 1e9;
	qsort(rounds, (size_t)o->games, sizeof *rounds, cmp_int);
	res->rounds_median = rounds[o->games / 2];
	res->rounds_p90 = rounds[o->games * 9 / 10];
	free(rounds);
	free(g);
	free(cfg);
	return 0;
}

static double share(long a, long b) { return b ? (double)a / (double)b : 0; }

cJSON *sr_json(const sr_opts *o, const sr_result *r)
{
	cJSON *j = cJSON_CreateObject();
	char s[24];
	snprintf(s, sizeof s, "%llu", (unsigned long long)o->seed);
	cJSON_AddStringToObject(j, "seed", s);
	cJSON_AddNumberToObject(j, "games", (double)r->games);
	cJSON_AddNumberToObject(j, "seats", r->seats);
	cJSON_AddBoolToObject(j, "deadly_events", o->deadly_events);
	cJSON_AddNumberToObject(j, "win_rate", share(r->wins, r->games));
	cJSON *ends = cJSON_AddObjectToObject(j, "ends");
	static const char *const end_names[] = {"none", "won", "fallen", "time"};
	for (int e = 1; e < 4; e++)
		cJSON_AddNumberToObject(ends, end_names[e], (double)r->ends[e]);
	cJSON *len = cJSON_AddObjectToObject(j, "length");
	cJSON_AddNumberToObject(len, "rounds_mean", share(r->rounds_sum, r->games));
	cJSON_AddNumberToObject(len, "rounds_median", r->rounds_median);
	cJSON_AddNumberToObject(len, "rounds_p90", r->rounds_p90);
	cJSON_AddNumberToObject(len, "decisions_mean", share(r->decisions_sum, r->games));
	cJSON *acts = cJSON_AddArrayToObject(j, "acts_reached");
	for (int a = 1; a <= CR_MAX_ACTS; a++)
		cJSON_AddItemToArray(acts, cJSON_CreateNumber((double)r->acts[a]));
	cJSON *qm = cJSON_AddArrayToObject(j, "question_marks");
	for (int a = 1; a <= CR_MAX_ACTS; a++) {
		cJSON *ao = cJSON_CreateObject();
		cJSON_AddNumberToObject(ao, "act", a);
		long tot = 0;
		for (int t = 0; t < CR_NROOM; t++)
			tot += r->room[a][t];
		cJSON_AddNumberToObject(ao, "tiles", (double)tot);
		for (int t = 0; t < CR_NROOM; t++)
			cJSON_AddNumberToObject(ao, cr_room_names[t], share(r->room[a][t], tot));
		cJSON_AddItemToArray(qm, ao);
	}
	cJSON *ev = cJSON_AddObjectToObject(j, "events_served");
	for (int e = 0; e < r->n_events; e++)
		cJSON_AddNumberToObject(ev, r->event_id[e], (double)r->served[e]);
	cJSON_AddNumberToObject(j, "votes", (double)r->votes);
	cJSON *lv = cJSON_AddObjectToObject(j, "levels");
	cJSON_AddNumberToObject(lv, "made", (double)r->levels);
	cJSON_AddNumberToObject(lv, "rejections_per_level", share(r->rejections, r->levels));
	cJSON_AddNumberToObject(lv, "max_rejections", r->max_rejections);
	cJSON_AddNumberToObject(lv, "fallbacks", (double)r->fallbacks);
	cJSON *ai = cJSON_AddObjectToObject(j, "ai");
	cJSON_AddNumberToObject(ai, "trips_up_per_run", share(r->ups, r->games));
	cJSON_AddNumberToObject(ai, "quick_jumps_per_run", share(r->jumps, r->games));
	cJSON_AddNumberToObject(ai, "stood_again_per_run", share(r->revives, r->games));
	cJSON_AddNumberToObject(ai, "rests_per_run", share(r->rests, r->games));
	cJSON_AddNumberToObject(j, "kills_per_run", share(r->kills, r->games));
	cJSON_AddNumberToObject(j, "falls_per_run", share(r->falls, r->games));
	cJSON_AddNumberToObject(j, "runs_per_second", r->seconds > 0 ? r->games / r->seconds : 0);
	return j;
}

void sr_print(FILE *f, const sr_opts *o, const sr_result *r)
{
	fprintf(f, "%ld all-AI runs, %d seat%s%s, seed %llu: won %.1f%% (fallen %ld, out of "
		   "time %ld)\n",
		r->games, r->seats, r->seats == 1 ? "" : "s",
		o->deadly_events ? ", DeadlyEvents" : "", (unsigned long long)o->seed,
		100 * share(r->wins, r->games), r->ends[CR_END_FALLEN], r->ends[CR_END_TIME]);
	fprintf(f, "length: %.0f rounds mean, %d median, %d at the 90th percentile; %.0f "
		   "decisions mean\n",
		share(r->rounds_sum, r->games), r->rounds_median, r->rounds_p90,
		share(r->decisions_sum, r->games));
	fprintf(f, "deepest act: 1 %ld, 2 %ld, 3 %ld;  kills %.1f, falls %.2f per run\n",
		r->acts[1], r->acts[2], r->acts[3], share(r->kills, r->games),
		share(r->falls, r->games));
	fprintf(f, "the AI per run: %.2f trips back up (%.2f by the quick jump), %.2f fallen "
		   "stood again, %.1f rests\n",
		share(r->ups, r->games), share(r->jumps, r->games), share(r->revives, r->games),
		share(r->rests, r->games));
	fprintf(f, "\n? tiles per act      normal   elite treasure   shop   event   tiles\n");
	for (int a = 1; a <= CR_MAX_ACTS; a++) {
		long tot = 0;
		for (int t = 0; t < CR_NROOM; t++)
			tot += r->room[a][t];
		fprintf(f, "act %d             ", a);
		for (int t = 0; t < CR_NROOM; t++)
			fprintf(f, " %7.3f", share(r->room[a][t], tot));
		fprintf(f, " %7ld\n", tot);
	}
	long served = 0;
	for (int e = 0; e < r->n_events; e++)
		served += r->served[e];
	fprintf(f, "\nevents served: %ld (%.1f per run), %ld of them shared votes; the most "
		   "served:\n",
		served, share(served, r->games), r->votes);
	int order[CR_MAX_EVENTS];
	for (int e = 0; e < r->n_events; e++)
		order[e] = e;
	for (int i = 0; i < r->n_events; i++)
		for (int k = i + 1; k < r->n_events; k++)
			if (r->served[order[k]] > r->served[order[i]]) {
				int t = order[i];
				order[i] = order[k];
				order[k] = t;
			}
	for (int i = 0; i < r->n_events && i < 8; i++)
		fprintf(f, "  %-22s %ld\n", r->event_id[order[i]], r->served[order[i]]);
	fprintf(f, "\nlevels made: %ld, rejections %.3f per level (max %d in one), fallbacks "
		   "%ld\n",
		r->levels, share(r->rejections, r->levels), r->max_rejections, r->fallbacks);
	fprintf(f, "%.0f runs/s\n", r->seconds > 0 ? r->games / r->seconds : 0);
}
