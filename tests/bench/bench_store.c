/*
 * bench_store.c — how fast the store makes decisions durable, the write on
 * the path from the change-your-mind window closing to the reveal
 * (decisions are written before their reveal). 2,000 live tables each append
 * one decision per wave, as if every table resolved a decision at once;
 * then finished games with statistics. Prints decisions/s and the p50/p99
 * time from submit to the durable callback (the p99 also as the figure
 * store_bench_durable_p99_ms, bench.h; store_durable_p99_ms is the store's
 * under the load generator's play). Bounded: a few seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/log.h"
#include "../../common/util.h"
#include "../../server/store.h"
#include "bench.h"

#define TABLES 2000
#define WAVES 20
#define GAMES 2000

static uv_loop_t loop;
static int pending;
static uint64_t lat[TABLES * WAVES];
static size_t n_lat;
static int failures;

typedef struct slot {
	uint64_t t0;
} slot;
static slot slots[TABLES];

static void on_decided(void *ud, int err)
{
	slot *s = ud;
	if (err)
		failures++;
	lat[n_lat++] = now_ns() - s->t0;
	pending--;
}

static void on_done(void *ud, int err)
{
	(void)ud;
	if (err)
		failures++;
	pending--;
}

static void on_game(void *ud, int err, int64_t id, const store_stat *shared, size_t n)
{
	(void)shared;
	(void)n;
	(void)ud;
	(void)id;
	if (err)
		failures++;
	pending--;
}

static void on_shut(void *ud)
{
	*(int *)ud = 1;
}

static void drain(void)
{
	while (pending > 0)
		uv_run(&loop, UV_RUN_ONCE);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static const game_stat_def stats[] = {
	{"a", "A", GAME_STAT_SUM}, {"b", "B", GAME_STAT_MIN}, {"c", "C", GAME_STAT_MAX},
	{"d", "D", GAME_STAT_SUM}, {"e", "E", GAME_STAT_SUM}, {"f", "F", GAME_STAT_MAX},
};
static const game_achievement_def achs[] = {{"x", "X"}, {"y", "Y"}};
static const game_kind kind = {.name = "bench", .stat_defs = stats, .n_stats = 6,
			       .achievement_defs = achs, .n_achievements = 2};

int main(void)
{
	char dir[] = "/tmp/lair-bench-store-XXXXXX", path[128], err[256];
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/lair.db", dir);
	log_set_level(LOG_WARN);
	uv_loop_init(&loop);
	store *st = store_open(&loop, path, err, sizeof err);
	if (!st) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}

	for (int t = 0; t < TABLES; t++) {
		store_live_table lt = {.table_id = t + 1, .kind = "bench", .config_json = "{}",
				       .seed = (uint64_t)t, .seats_json = "[1,2,3,4,5]",
				       .shared_json = "{}", .meta_json = "{}"};
		pending++;
		store_live_start(st, &lt, on_done, NULL);
	}
	drain();

	size_t max_depth = 0;
	uint64_t t0 = now_ns();
	for (int w = 0; w < WAVES; w++) {
		for (int t = 0; t < TABLES; t++) {
			slots[t].t0 = now_ns();
			pending++;
			store_live_decision(st, t + 1, w + 1, "[[3,1,0,2,1]]", 0, on_decided, &slots[t]);
		}
		max_depth = MAX(max_depth, store_queue_depth(st));
		drain();
	}
	double secs = (double)(now_ns() - t0) / 1e9;
	qsort(lat, n_lat, sizeof lat[0], cmp_u64);
	printf("store decisions: %d tables x %d waves: %.0f decisions/s, "
	       "submit->durable p50 %.2f ms p99 %.2f ms max %.2f ms, max queue depth %zu\n",
	       TABLES, WAVES, (double)n_lat / secs, (double)lat[n_lat / 2] / 1e6,
	       (double)lat[n_lat * 99 / 100] / 1e6, (double)lat[n_lat - 1] / 1e6, max_depth);
	bench_figure("store_bench_durable_p99_ms", (double)lat[n_lat * 99 / 100] / 1e6, "ms");
	bench_figure("store_bench_decisions_per_s", (double)(int64_t)((double)n_lat / secs), "decisions/s");

	/* Finished games: 5 seats with players, 6 stats, achievements. */
	int64_t players[5];
	for (int i = 0; i < 5; i++) {
		char name[16], tok[16];
		snprintf(name, sizeof name, "p%d", i);
		snprintf(tok, sizeof tok, "tok%d", i);
		/* No callback needed: ids are 1..5 in a fresh database, and
		 * requests run in order, before the games below. */
		store_player_create(st, name, tok, STORE_ROLE_PLAYER, NULL, NULL);
		players[i] = i + 1;
	}
	int64_t v[6] = {5, 3, 9, 1, 2, 7};
	store_seat seats[5];
	for (int i = 0; i < 5; i++)
		seats[i] = (store_seat){.player_id = players[i], .stats = v, .achievements = 3};
	t0 = now_ns();
	for (int g = 0; g < GAMES; g++) {
		store_game game = {.kind = &kind, .config_json = "{}", .seed = (uint64_t)g,
				   .seats_json = "[1,2,3,4,5]", .shared_json = "{}",
				   .choices_json = "[[1,1,1,1,1],[0,0,0,0,0]]",
				   .result_json = "{}", .n_seats = 5, .seats = seats,
				   .server_stats = v,
				   .live_table_id = g < TABLES ? g + 1 : 0};
		pending++;
		store_game_finish(st, &game, on_game, NULL);
	}
	drain();
	secs = (double)(now_ns() - t0) / 1e9;
	printf("store finished games: %d games (5 seats, 6 stats, ends a live table): "
	       "%.0f games/s\n", GAMES, GAMES / secs);

	int done = 0;
	store_shutdown(st, on_shut, &done);
	while (!done)
		uv_run(&loop, UV_RUN_ONCE);
	store_free(st);
	uv_loop_close(&loop);
	unlink(path); /* closed cleanly: the -wal and -shm files are gone */
	rmdir(dir);
	if (failures)
		fprintf(stderr, "bench_store: %d request(s) failed\n", failures);
	return failures ? 1 : 0;
}
