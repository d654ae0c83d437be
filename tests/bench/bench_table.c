/*
 * bench_table.c — the round engine's own cost, without sockets or a store:
 * 2,000 gems tables of five human seats on one uv loop, each seat answered
 * by a bot inside the process (a legal option, chosen on the next loop
 * turn), no window and no pause, for DECISIONS decisions in all. Prints
 * decisions per second (CPU time of the loop thread), bytes of JSON sent
 * per decision, the p50/p99 time from a decision's resolution (t_close_us)
 * to its reveal having been handed to every seat's send(), and the peak RSS
 * (2,000 tables with their 16 KiB resume histories, the kind's states).
 * Decisions/s, bytes and messages (frames) per decision are also figures
 * (bench.h). The bots ask for view_patch and lean, as our clients do in
 * hello (BENCH_FULL_VIEWS=1: no caps, whole views): 6,985 bytes and 16.2
 * frames a decision (8,117 and 16.2 with view_patch alone, 12,392 with
 * whole views; 14,194 before the status changes of one loop turn went out
 * as one update and the patches). Of the 6,985, about an eighth is each
 * table's setup (its seats updates and start: the bench runs the first
 * ~20 decisions of each game). Whole games, 200 tables to their ends:
 * 6,710 bytes a decision, 13,155 with whole views:
 *   make -j2 BUILD=build-t200 OPT="-O2 -DNDEBUG -DTABLES=200" \
 *        build-t200/bench/bench_table && build-t200/bench/bench_table
 * In CPU, 9,600-10,500 decisions/s with the patches, 15,700-17,200 with
 * whole views (load 4-7); 6,800-7,400 when a patch was a tree of copies
 * printed afterwards. What the patches still add is mostly each seat's
 * view built a second time, before the decision, to diff from (a fifth of
 * the loop's CPU in perf). With
 *   make -j2 BUILD=build-bench OPT="-O3 -march=native -DNDEBUG -g" \
 *        build-bench/bench/bench_table
 *   build-bench/bench/bench_table; BENCH_FULL_VIEWS=1 build-bench/bench/bench_table
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../../common/rng.h"
#include "../../common/util.h"
#include "../../server/table.h"
#include "bench.h"

#ifndef TABLES
#define TABLES 2000
#endif
#define SEATS 5
#define DECISIONS 40000

static uv_loop_t loop;
static table *tables[TABLES];
static int finished;
static uint64_t bytes, frames, decisions, reveals_sent;

/* Pending bot answers: (table index, player) to choose on the next turn. */
static struct answer {
	int ti;
	uint64_t player;
} *queue;
static size_t qlen, qcap;
static uv_idle_t answer_idle;

/* Per table: when its current reveal began, how many seats got it. */
static struct {
	uint64_t close_us;
	int got;
} rv[TABLES];
static uint32_t *lat_us;
static size_t n_lat, cap_lat;

static void on_answer(uv_idle_t *h);

/* The bots ask for what our clients ask in hello: view_patch and lean
 * (BENCH_FULL_VIEWS=1: no caps, as an old client). */
static bool full_views;
static uint32_t bot_caps(void *ud, uint64_t player)
{
	(void)ud, (void)player;
	return full_views ? 0 : PROTO_CAP_VIEW_PATCH | PROTO_CAP_LEAN;
}

static void bot_send(void *ud, uint64_t player, const char *json, size_t len)
{
	(void)ud;
	bytes += len;
	frames++;
	int ti = (int)(player / 16);
	/* Cheap type sniffing: the type is the first field. */
	if (strncmp(json, "{\"type\":\"options\"", 17) == 0 && strstr(json, "\"options\":[")) {
		if (qlen == qcap) {
			qcap = qcap ? qcap * 2 : 1024;
			queue = xrealloc(queue, qcap * sizeof *queue);
		}
		queue[qlen++] = (struct answer){ti, player};
		uv_idle_start(&answer_idle, on_answer);
	} else if (strncmp(json, "{\"type\":\"reveal\"", 16) == 0) {
		reveals_sent++;
		if (++rv[ti].got == SEATS) {
			uint64_t d = now_ns() / 1000 - rv[ti].close_us;
			if (n_lat == cap_lat) {
				cap_lat = cap_lat ? cap_lat * 2 : 4096;
				lat_us = xrealloc(lat_us, cap_lat * sizeof *lat_us);
			}
			lat_us[n_lat++] = (uint32_t)d;
		}
	}
}

static void on_answer(uv_idle_t *h)
{
	/* Take the queue: choosing may queue more answers. */
	struct answer *q = queue;
	size_t n = qlen;
	queue = NULL;
	qlen = qcap = 0;
	for (size_t i = 0; i < n; i++) {
		table *t = tables[q[i].ti];
		if (table_get_state(t) != TABLE_PLAYING)
			continue;
		/* A legal option: the first (gems: "leave") one time in eight. */
		const game_kind *k = table_get_settings(t)->kind;
		int seat = table_seat_of(t, q[i].player);
		game_choice opts[32];
		int n_opts = k->options(table_game(t), seat, opts, 32);
		if (n_opts <= 0)
			continue;
		uint64_t x = q[i].player * 1000003u + table_decision_no(t);
		uint64_t r = rng_splitmix64(&x);
		int pick = 0;
		if (n_opts > 1 && r % 8 != 0)
			pick = 1 + (int)(r / 8 % (uint64_t)(n_opts - 1));
		char err[128];
		table_choose_code(t, q[i].player, -1, 0, opts[MIN(pick, 31)], err, sizeof err);
	}
	free(q);
	if (!qlen)
		uv_idle_stop(h);
}

static void on_decision(void *ud, table *t, uint64_t n, const game_choice *c, int seats)
{
	(void)ud, (void)c, (void)seats;
	decisions++;
	int ti = (int)(table_id(t) - 1);
	rv[ti].close_us = now_ns() / 1000;
	rv[ti].got = 0;
	table_decision_durable(t, n);
}

static void on_finished(void *ud, table *t)
{
	(void)ud, (void)t;
	finished++;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

int main(void)
{
	const game_kind *k = game_kind_find("gems");
	if (!k) {
		fprintf(stderr, "bench_table: no gems kind\n");
		return 1;
	}
	uv_loop_init(&loop);
	uv_idle_init(&loop, &answer_idle);
	full_views = getenv("BENCH_FULL_VIEWS") && !strcmp(getenv("BENCH_FULL_VIEWS"), "1");
	table_host host = {.send = bot_send,
			   .caps = bot_caps,
			   .decision = on_decision,
			   .finished = on_finished};
	for (int i = 0; i < TABLES; i++) {
		table_settings s = {
			.id = (uint64_t)i + 1,
			.kind = k,
			.seats = SEATS,
			.host = (uint64_t)i * 16 + 1,
			.turn_timeout_ms = 600000,
			.window_ms = 0,
			.fixed_seed = true,
			.seed = (uint64_t)i + 1,
			.history_max = 32,
			.history_bytes = 16 * 1024,
		};
		char err[200];
		tables[i] = table_new(&loop, &host, &s, err, sizeof err);
		if (!tables[i]) {
			fprintf(stderr, "bench_table: %s\n", err);
			return 1;
		}
		for (int j = 0; j < SEATS; j++) {
			uint64_t player = (uint64_t)i * 16 + 1 + (uint64_t)j;
			table_join(tables[i], player, "bot", j, NULL, NULL, TABLE_NOTIFY_ALL);
		}
	}
	uint64_t c0 = bench_cpu_ns(), w0 = now_ns();
	for (int i = 0; i < TABLES; i++)
		table_start(tables[i], (uint64_t)i * 16 + 1);
	while (finished < TABLES && decisions < DECISIONS && uv_run(&loop, UV_RUN_ONCE))
		;
	double cpu = (double)(bench_cpu_ns() - c0) / 1e9, wall = (double)(now_ns() - w0) / 1e9;
	qsort(lat_us, n_lat, sizeof *lat_us, cmp_u32);
	printf("table: %d gems tables x %d seats, %llu decisions, %d games finished\n", TABLES,
	       SEATS, (unsigned long long)decisions, finished);
	printf("table: %.0f decisions/s (loop thread CPU), %.0f/s wall\n", decisions / cpu,
	       decisions / wall);
	printf("table: %.0f bytes of JSON sent per decision (all seats, %s)\n",
	       decisions ? (double)bytes / (double)decisions : 0.0,
	       full_views ? "whole views" : "view_patch, lean");
	bench_figure("table_decisions_per_s", (double)(int64_t)(decisions / cpu), "decisions/s");
	bench_figure("table_bytes_per_decision",
		     (double)(int64_t)(decisions ? (double)bytes / (double)decisions : 0.0), "bytes");
	printf("table: %.2f messages sent per decision (all seats; each a frame)\n",
	       decisions ? (double)frames / (double)decisions : 0.0);
	bench_figure("table_frames_per_decision", decisions ? (double)frames / (double)decisions : 0.0,
		     "frames");
	if (n_lat)
		printf("table: resolve to reveal at every seat: p50 %u us, p99 %u us, max %u us\n",
		       lat_us[n_lat / 2], lat_us[n_lat * 99 / 100], lat_us[n_lat - 1]);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("table: peak RSS %.1f MB\n", (double)ru.ru_maxrss / 1024.0);
	for (int i = 0; i < TABLES; i++)
		table_free(tables[i]);
	uv_close((uv_handle_t *)&answer_idle, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	free(lat_us);
	free(queue);
	return decisions > 0 ? 0 : 1;
}
