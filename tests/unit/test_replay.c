/*
 * test_replay.c — every finished game's stored record replays to its stored
 * result. Real all-AI tables play on a loop with a real store (a
 * temporary database); the app's record builder writes each finished game
 * exactly as laird does; the records are read back from the store and
 * replayed through the kind with table_replay, and the replayed result must
 * equal the stored one, byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/util.h"
#include "../../proto/proto_msg.h"
#include "../../server/record.h"
#include "../../server/store.h"
#include "../../server/table.h"
#include "../test.h"

typedef struct harness {
	uv_loop_t loop;
	store *st;
	const game_kind *kind;
	void *shared;
	int finished;
	int recorded;
	int64_t game_ids[8];
} harness;

static void h_send(void *ud, uint64_t player, const char *json, size_t len)
{
	(void)ud, (void)player, (void)json, (void)len;
}

static const void *h_shared(void *ud, const game_kind *k)
{
	harness *h = ud;
	return k == h->kind ? h->shared : NULL;
}

static void h_events(void *ud, table *t, const game_event *evs, size_t n, bool replaying)
{
	harness *h = ud;
	(void)t;
	if (!replaying && h->kind->shared_fold)
		h->kind->shared_fold(h->shared, evs, n);
}

static void h_recorded(void *ud, int err, int64_t id, const store_stat *shared, size_t n)
{
	(void)shared;
	(void)n;
	harness *h = ud;
	CHECK_EQ(err, STORE_OK);
	if (h->recorded < 8)
		h->game_ids[h->recorded] = id;
	h->recorded++;
}

static void h_finished(void *ud, table *t)
{
	harness *h = ud;
	record r;
	record_build(&r, t, NULL, 1000, 2000, 0);
	CHECK(store_game_finish(h->st, &r.g, h_recorded, h) != NULL);
	record_free(&r);
	h->finished++;
}

typedef struct readback {
	int done;
	int ok;
	char *detail;
} readback;

static void replay_one(void *ud, int err, const store_game_rec *g, size_t n)
{
	readback *rb = ud;
	rb->done = 1;
	if (err != STORE_OK || n != 1) {
		rb->detail = xstrdup("record not found");
		return;
	}
	const game_kind *k = game_kind_find(g->kind);
	cJSON *config = cJSON_Parse(g->config_json);
	cJSON *players = cJSON_Parse(g->seats_json);
	cJSON *shared = cJSON_Parse(g->shared_json);
	cJSON *log = cJSON_Parse(g->choices_json);
	int seats = cJSON_GetArraySize(players);
	uint32_t ai_mask = 0;
	const cJSON *p;
	cJSON_ArrayForEach(p, players)
	{
		const cJSON *seat = cJSON_GetObjectItem(p, "seat");
		if (cJSON_IsTrue(cJSON_GetObjectItem(p, "ai")) && cJSON_IsNumber(seat))
			ai_mask |= 1u << seat->valueint;
	}
	game_choice *choices = NULL;
	size_t nc = 0;
	char msg[256] = "";
	if (!k || table_log_parse(log, seats, &choices, &nc, msg, sizeof msg) != 0) {
		rb->detail = xstrdup(msg[0] ? msg : "unknown kind");
	} else {
		const cJSON *cfg = cJSON_IsNull(config) ? NULL : config;
		const cJSON *sh = cJSON_IsNull(shared) ? NULL : shared;
		game_state *st = table_replay(k, cfg, seats, g->seed, sh, choices, nc, NULL, msg,
					      sizeof msg);
		if (!st) {
			rb->detail = xstrdup(msg);
		} else {
			cJSON *res = k->result_json(st, ai_mask);
			char *text = proto_print(res);
			cJSON *stored = cJSON_Parse(g->result_json);
			char *stored_text = proto_print(stored);
			rb->ok = k->is_over(st) && strcmp(text, stored_text) == 0;
			if (!rb->ok)
				rb->detail = xstrdup(text);
			free(text);
			free(stored_text);
			cJSON_Delete(stored);
			cJSON_Delete(res);
			k->destroy(st);
		}
	}
	free(choices);
	cJSON_Delete(config);
	cJSON_Delete(players);
	cJSON_Delete(shared);
	cJSON_Delete(log);
}

static void shut(void *ud) { (void)ud; }

TEST(replay_stored_records_gives_the_stored_result)
{
	harness h = {0};
	char path[] = "/tmp/lair-replay-XXXXXX";
	REQUIRE(mkdtemp(path) != NULL);
	char db[128];
	snprintf(db, sizeof db, "%s/lair.db", path);
	REQUIRE(uv_loop_init(&h.loop) == 0);
	char err[256];
	h.st = store_open(&h.loop, db, err, sizeof err);
	REQUIRE(h.st);
	h.kind = game_kind_find("gems");
	REQUIRE(h.kind);
	h.shared = h.kind->shared_new(NULL, err, sizeof err);
	REQUIRE(h.shared);

	table_host host = {.ud = &h, .send = h_send, .shared = h_shared, .events = h_events,
			   .finished = h_finished};
	enum { GAMES = 3 };
	table *tables[GAMES];
	for (int i = 0; i < GAMES; i++) {
		table_settings s = {
			.id = (uint64_t)i + 1, .lobby = 1, .kind = h.kind, .seats = 3 + i,
			.host = 1, .turn_timeout_ms = 1000, .window_ms = 0, .pacing_ms = 0,
			.reveal_pause_ms = 0, .fixed_seed = true, .seed = 1000 + (uint64_t)i * 77,
		};
		strlcpy_safe(s.name, "replay", sizeof s.name);
		strlcpy_safe(s.host_name, "host", sizeof s.host_name);
		tables[i] = table_new(&h.loop, &host, &s, err, sizeof err);
		REQUIRE(tables[i]);
		REQUIRE(table_spectate(tables[i], 1, "host", NULL, TABLE_NOTIFY_ALL) == TABLE_OK);
		for (int j = 0; j < s.seats; j++)
			REQUIRE(table_add_ai(tables[i], 1, j, NULL, TABLE_NOTIFY_ALL) == TABLE_OK);
		REQUIRE(table_start(tables[i], 1) == TABLE_OK);
	}
	/* Bounded: all-AI games of a few hundred decisions at pacing 0. */
	for (int spins = 0; spins < 2000000 && h.recorded < GAMES; spins++)
		uv_run(&h.loop, UV_RUN_ONCE);
	CHECK_EQ(h.finished, GAMES);
	REQUIRE(h.recorded == GAMES);

	for (int i = 0; i < GAMES; i++) {
		readback rb = {0};
		REQUIRE(store_game_get(h.st, h.game_ids[i], replay_one, &rb));
		while (!rb.done)
			uv_run(&h.loop, UV_RUN_ONCE);
		CHECK_MSG(rb.ok, "game %lld: replay differs: %s", (long long)h.game_ids[i],
			  rb.detail ? rb.detail : "");
		free(rb.detail);
	}
	for (int i = 0; i < GAMES; i++)
		table_free(tables[i]);
	store_shutdown(h.st, shut, NULL);
	uv_run(&h.loop, UV_RUN_DEFAULT);
	store_free(h.st);
	h.kind->shared_free(h.shared);
	CHECK_EQ(uv_loop_close(&h.loop), 0);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", path);
	CHECK_EQ(system(cmd), 0);
}
