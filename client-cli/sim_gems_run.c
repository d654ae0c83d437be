/*
 * sim_gems_run.c — the simulator's engine: N all-AI games on the native gems
 * API into caller-owned memory, one server-wide shared state folded game
 * after game (as a server would), and the totals, printed as text or JSON.
 * Game i is seeded with rng_derive_seed(seed, i) (rng.h), so runs with
 * different seeds share no game.
 */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "../common/rng.h"
#include "../common/util.h"
#include "sim_gems.h"

static void totals_init(sim_gems_totals *t)
{
	memset(t, 0, sizeof *t);
	t->score_min = INT64_MAX;
	t->score_max = INT64_MIN;
	for (int k = 0; k < GEMS_N_STATS; k++)
		t->stats[k] = gems_stat_defs[k].agg == GAME_STAT_SUM ? 0 : GAME_STAT_NONE;
	gems_shared_init(&t->shared);
}

static void add_stats(sim_gems_totals *t, const gems_game *g, uint32_t ai_mask)
{
	int64_t v[GEMS_N_STATS];
	gems_stats(g, -1, ai_mask, v);
	for (int k = 0; k < GEMS_N_STATS; k++) {
		if (v[k] == GAME_STAT_NONE)
			continue;
		int64_t *s = &t->stats[k];
		switch (gems_stat_defs[k].agg) {
		case GAME_STAT_SUM: *s += v[k]; break;
		case GAME_STAT_MIN: *s = *s == GAME_STAT_NONE || v[k] < *s ? v[k] : *s; break;
		case GAME_STAT_MAX: *s = *s == GAME_STAT_NONE || v[k] > *s ? v[k] : *s; break;
		}
	}
}

static void add_game(sim_gems_totals *t, const gems_game *g)
{
	uint32_t ai_mask = (1u << g->seats) - 1;
	t->games++;
	for (int i = 0; i < g->seats; i++)
		t->wins[i] += g->winners >> i & 1;
	t->shared_wins += __builtin_popcount(g->winners) > 1;
	int64_t s = g->win_score;
	t->score_hist[s < SIM_GEMS_SCORE_HIST ? s : SIM_GEMS_SCORE_HIST - 1]++;
	t->score_sum += (double)s;
	t->score_min = s < t->score_min ? s : t->score_min;
	t->score_max = s > t->score_max ? s : t->score_max;
	for (int d = 0; d < GEMS_DUNGEONS; d++) {
		t->depth_sum[d] += (uint64_t)g->dungeon_depth[d];
		t->ends[g->dungeon_end[d]]++;
	}
	add_stats(t, g, ai_mask);
	for (int i = 0; i < g->seats; i++) {
		uint32_t a = gems_achievements(g, i, ai_mask);
		for (int k = 0; k < GEMS_N_ACH; k++)
			t->achievements[k] += a >> k & 1;
	}
}

static void progress(uint64_t done, uint64_t total, uint64_t t0)
{
	int width = 40, fill = (int)(width * done / (total ? total : 1));
	double secs = (double)(now_ms() - t0) / 1000.0;
	fprintf(stderr, "\r[%.*s%*s] %3d%% %llu games %.1fs", fill,
		"########################################", width - fill, "",
		(int)(100 * done / (total ? total : 1)), (unsigned long long)done, secs);
}

void sim_gems_run(const sim_gems_opts *o, sim_gems_totals *t)
{
	totals_init(t);
	uint64_t t0 = now_ms(), next_draw = t0 + 1000;
	bool drew = false, tty = o->progress && isatty(2);
	gems_game g;
	for (uint64_t i = 0; i < o->games; i++) {
		if (gems_init(&g, o->seats, rng_derive_seed(o->seed, i), &t->shared, NULL, NULL) !=
		    GAME_OK)
			break;
		gems_play_ai(&g, NULL);
		gems_shared_fold_game(&t->shared, &g);
		add_game(t, &g);
		if (tty && (i & 1023) == 0 && now_ms() >= next_draw) {
			progress(i + 1, o->games, t0);
			next_draw = now_ms() + 200;
			drew = true;
		}
	}
	t->seconds = (double)(now_ms() - t0) / 1000.0;
	if (drew) {
		progress(o->games, o->games, t0);
		fputc('\n', stderr);
	}
}

double sim_gems_median(const sim_gems_totals *t)
{
	if (!t->games)
		return 0;
	uint64_t lo = (t->games - 1) / 2, hi = t->games / 2, seen = 0;
	double a = -1, b = -1;
	for (int s = 0; s < SIM_GEMS_SCORE_HIST && b < 0; s++) {
		seen += t->score_hist[s];
		if (a < 0 && seen > lo)
			a = s;
		if (seen > hi)
			b = s;
	}
	return (a + b) / 2.0;
}

static double per(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

cJSON *sim_gems_json(const sim_gems_opts *o, const sim_gems_totals *t)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "kind", "gems");
	cJSON_AddNumberToObject(j, "games", (double)t->games);
	cJSON_AddNumberToObject(j, "seats", o->seats);
	cJSON_AddNumberToObject(j, "seed", (double)o->seed);
	cJSON *wr = cJSON_AddArrayToObject(j, "win_rate_by_seat");
	cJSON *w = cJSON_AddArrayToObject(j, "wins_by_seat");
	for (int i = 0; i < o->seats; i++) {
		cJSON_AddItemToArray(wr, cJSON_CreateNumber(per(t->wins[i], t->games)));
		cJSON_AddItemToArray(w, cJSON_CreateNumber((double)t->wins[i]));
	}
	cJSON_AddNumberToObject(j, "shared_wins", (double)t->shared_wins);
	cJSON *ws = cJSON_AddObjectToObject(j, "winning_score");
	cJSON_AddNumberToObject(ws, "mean", t->games ? t->score_sum / (double)t->games : 0);
	cJSON_AddNumberToObject(ws, "median", sim_gems_median(t));
	cJSON_AddNumberToObject(ws, "min", t->games ? (double)t->score_min : 0);
	cJSON_AddNumberToObject(ws, "max", t->games ? (double)t->score_max : 0);
	cJSON *rooms = cJSON_AddObjectToObject(j, "rooms_per_dungeon");
	uint64_t all = 0;
	cJSON *byd = cJSON_AddArrayToObject(rooms, "by_dungeon");
	for (int d = 0; d < GEMS_DUNGEONS; d++) {
		all += t->depth_sum[d];
		cJSON_AddItemToArray(byd, cJSON_CreateNumber(per(t->depth_sum[d], t->games)));
	}
	cJSON_AddNumberToObject(rooms, "mean", per(all, t->games * GEMS_DUNGEONS));
	cJSON *ends = cJSON_AddObjectToObject(j, "dungeon_ends");
	cJSON_AddNumberToObject(ends, "all_left", (double)t->ends[GEMS_END_ALL_LEFT]);
	cJSON_AddNumberToObject(ends, "lair", (double)t->ends[GEMS_END_LAIR]);
	cJSON_AddNumberToObject(ends, "exhausted", (double)t->ends[GEMS_END_EXHAUSTED]);
	cJSON *st = cJSON_AddObjectToObject(j, "stats");
	for (int k = 0; k < GEMS_N_STATS; k++)
		if (t->stats[k] == GAME_STAT_NONE)
			cJSON_AddNullToObject(st, gems_stat_defs[k].key);
		else
			cJSON_AddNumberToObject(st, gems_stat_defs[k].key, (double)t->stats[k]);
	cJSON *ach = cJSON_AddObjectToObject(j, "achievements");
	for (int k = 0; k < GEMS_N_ACH; k++)
		cJSON_AddNumberToObject(ach, gems_achievement_defs[k].key,
					(double)t->achievements[k]);
	cJSON_AddNumberToObject(j, "seconds", t->seconds);
	return j;
}

void sim_gems_print(FILE *out, const sim_gems_opts *o, const sim_gems_totals *t)
{
	fprintf(out, "gems: %llu games, %d seats, seed %llu (%.2fs, %.0f games/s)\n",
		(unsigned long long)t->games, o->seats, (unsigned long long)o->seed, t->seconds,
		t->seconds > 0 ? (double)t->games / t->seconds : 0.0);
	fprintf(out, "\nwin rate by seat (shared wins count for each winner; %llu shared)\n",
		(unsigned long long)t->shared_wins);
	for (int i = 0; i < o->seats; i++)
		fprintf(out, "  seat %d  %6.2f%%\n", i, 100.0 * per(t->wins[i], t->games));
	fprintf(out, "\nwinning score  mean %.2f  median %.1f  min %lld  max %lld\n",
		t->games ? t->score_sum / (double)t->games : 0, sim_gems_median(t),
		(long long)(t->games ? t->score_min : 0), (long long)(t->games ? t->score_max : 0));
	fprintf(out, "\nrooms per dungeon");
	uint64_t all = 0;
	for (int d = 0; d < GEMS_DUNGEONS; d++) {
		all += t->depth_sum[d];
		fprintf(out, "  %d: %.2f", d + 1, per(t->depth_sum[d], t->games));
	}
	fprintf(out, "  all: %.2f\n", per(all, t->games * GEMS_DUNGEONS));
	uint64_t n = t->games * GEMS_DUNGEONS;
	fprintf(out, "dungeon ends   all left %.2f%%  lair %.2f%%  list ran out %.2f%%\n",
		100 * per(t->ends[0], n), 100 * per(t->ends[1], n), 100 * per(t->ends[2], n));
	fprintf(out, "\nstatistics (totals)\n");
	for (int k = 0; k < GEMS_N_STATS; k++) {
		if (t->stats[k] == GAME_STAT_NONE)
			fprintf(out, "  %-40s -\n", gems_stat_defs[k].label);
		else
			fprintf(out, "  %-40s %lld\n", gems_stat_defs[k].label,
				(long long)t->stats[k]);
	}
	fprintf(out, "\nachievements earned\n");
	for (int k = 0; k < GEMS_N_ACH; k++)
		fprintf(out, "  %-20s %llu\n", gems_achievement_defs[k].label,
			(unsigned long long)t->achievements[k]);
}
