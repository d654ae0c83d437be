/*
 * table_harness.h — a real uv loop, a table and a recording host for the
 * table's tests (included by tests/unit/test_table*.c only). Every message
 * the table sends is kept, parsed, per player; players marked offline do
 * not receive (like a dropped connection). Tests wait for events with
 * RUN_UNTIL, which turns the loop one iteration at a time (never a sleep).
 */
#ifndef LAIR_TABLE_HARNESS_H
#define LAIR_TABLE_HARNESS_H

#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "../../server/table.h"
#include "../test.h"

typedef struct hmsg {
	uint64_t player;
	char *json;
	cJSON *obj;
} hmsg;

#define H_MAX_PLAYERS 16
#define H_MAX_LOG 4096

static struct harness {
	uv_loop_t loop;
	table *t;
	hmsg *m;
	int n, cap;
	bool offline[H_MAX_PLAYERS];
	int finished, changed, started;
	/* durability: when hold is set, decisions wait for h_durable() */
	bool hold;
	uint64_t held;
	int decisions;
	/* what a store would have persisted, for restore tests */
	game_choice plog[H_MAX_LOG * GAME_MAX_SEATS];
	size_t n_plog;
	uint64_t pseq;
	const void *shared;   /* given to the table at start */
	void *fold;           /* events folded in here (may be NULL) */
	const game_kind *kind;
	int events_live, events_replayed;
	uint64_t iterations;
	uv_check_t check;
	char *record_at_start;
} H;

static inline void h_send(void *ud, uint64_t player, const char *json, size_t len)
{
	(void)ud;
	if (player < H_MAX_PLAYERS && H.offline[player])
		return;
	CHECK_EQ(strlen(json), len);
	if (H.n == H.cap) {
		H.cap = H.cap ? H.cap * 2 : 256;
		H.m = xrealloc(H.m, (size_t)H.cap * sizeof *H.m);
	}
	H.m[H.n].player = player;
	H.m[H.n].json = xstrdup(json);
	H.m[H.n].obj = cJSON_Parse(json);
	CHECK_MSG(H.m[H.n].obj != NULL, "not JSON: %s", json);
	H.n++;
}

static inline const void *h_shared(void *ud, const game_kind *k)
{
	(void)ud, (void)k;
	return H.shared;
}

static inline void h_events(void *ud, table *t, const game_event *evs, size_t n, bool replaying)
{
	(void)ud, (void)t;
	if (replaying)
		H.events_replayed += (int)n;
	else
		H.events_live += (int)n;
	if (H.fold && H.kind && H.kind->shared_fold && !replaying)
		H.kind->shared_fold(H.fold, evs, n);
}

static inline void h_started(void *ud, table *t)
{
	(void)ud;
	H.started++;
	if (t != H.t)
		return;
	free(H.record_at_start);
	cJSON *r = table_record_json(t);
	H.record_at_start = cJSON_PrintUnformatted(r);
	cJSON_Delete(r);
	H.n_plog = 0;
}

static inline void h_persist(uint64_t n, const game_choice *choices, int seats)
{
	REQUIRE(H.n_plog < H_MAX_LOG);
	CHECK_EQ(n, H.n_plog + 1);
	memcpy(&H.plog[H.n_plog * (size_t)seats], choices, (size_t)seats * sizeof *choices);
	H.n_plog++;
	H.pseq = table_seq(H.t);
}

static inline void h_decision(void *ud, table *t, uint64_t n, const game_choice *choices, int seats)
{
	(void)ud;
	H.decisions++;
	if (t == H.t) /* tests with several tables persist H.t's only */
		h_persist(n, choices, seats);
	if (H.hold)
		H.held = n;
	else
		table_decision_durable(t, n);
}

static inline void h_finished(void *ud, table *t)
{
	(void)ud, (void)t;
	H.finished++;
}

static inline void h_changed(void *ud, table *t)
{
	(void)ud, (void)t;
	H.changed++;
}

static const table_host h_host = {
	.send = h_send,
	.shared = h_shared,
	.events = h_events,
	.started = h_started,
	.decision = h_decision,
	.finished = h_finished,
	.changed = h_changed,
};

static inline void h_on_check(uv_check_t *c)
{
	(void)c;
	H.iterations++;
}

/* Settings for a test table; adjust before h_open. */
static inline table_settings h_settings(const game_kind *k, int seats)
{
	table_settings s = {
		.id = 7,
		.lobby = 1,
		.kind = k,
		.seats = seats,
		.host = 1,
		.turn_timeout_ms = 5000,
		.window_ms = 20,
		.pacing_ms = 0,
		.reveal_pause_ms = 0,
		.fixed_seed = true,
		.seed = 42,
	};
	strcpy(s.name, "test table");
	strcpy(s.host_name, "p1");
	return s;
}

static inline void h_init(const game_kind *k)
{
	memset(&H, 0, sizeof H);
	H.kind = k;
	uv_loop_init(&H.loop);
	uv_check_init(&H.loop, &H.check);
	uv_check_start(&H.check, h_on_check);
	uv_unref((uv_handle_t *)&H.check);
}

static inline table *h_open(const table_settings *s)
{
	h_init(s->kind);
	char err[200] = "";
	H.t = table_new(&H.loop, &h_host, s, err, sizeof err);
	CHECK_MSG(H.t != NULL, "table_new: %s", err);
	return H.t;
}

/* Frees the table, runs the loop until every handle is closed, checks the
 * loop closes cleanly (no handle leaked), frees the messages. */
static inline void h_close(void)
{
	if (H.t)
		table_free(H.t);
	H.t = NULL;
	uv_close((uv_handle_t *)&H.check, NULL);
	uv_run(&H.loop, UV_RUN_DEFAULT);
	CHECK_EQ(uv_loop_close(&H.loop), 0);
	for (int i = 0; i < H.n; i++) {
		free(H.m[i].json);
		cJSON_Delete(H.m[i].obj);
	}
	free(H.m);
	free(H.record_at_start);
	H.m = NULL;
	H.n = H.cap = 0;
	H.record_at_start = NULL;
}

/* Two humans (players 1 and 2) seated at a table of kind k, started. */
static inline void h_two_humans(const game_kind *k, int window_ms, int timeout_ms)
{
	table_settings s = h_settings(k, 2);
	s.window_ms = window_ms;
	s.turn_timeout_ms = timeout_ms;
	h_open(&s);
	CHECK_EQ(table_join(H.t, 1, "p1", 0, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_join(H.t, 2, "p2", 1, NULL, NULL, TABLE_NOTIFY_ALL), TABLE_OK);
	CHECK_EQ(table_start(H.t, 1), TABLE_OK);
}

#define RUN_UNTIL(cond)                                                                   \
	do {                                                                              \
		for (int i_ = 0; !(cond) && i_ < 200000; i_++)                            \
			if (!uv_run(&H.loop, UV_RUN_ONCE))                                \
				break;                                                    \
		CHECK_MSG((cond), "never happened: %s", #cond);                           \
	} while (0)

/* One turn of the loop without waiting: what waits for the end of the
 * iteration (the coalesced `status`, table.md §3) goes out. */
static inline void h_turn(void) { uv_run(&H.loop, UV_RUN_NOWAIT); }

static inline const char *h_type(const hmsg *m)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(m->obj, "type");
	return cJSON_IsString(t) ? t->valuestring : "";
}

static inline double h_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* Messages of a type to a player (0: to anyone). */
static inline int h_count(uint64_t player, const char *type)
{
	int c = 0;
	for (int i = 0; i < H.n; i++)
		if ((!player || H.m[i].player == player) && strcmp(h_type(&H.m[i]), type) == 0)
			c++;
	return c;
}

static inline const cJSON *h_last(uint64_t player, const char *type)
{
	for (int i = H.n - 1; i >= 0; i--)
		if ((!player || H.m[i].player == player) && strcmp(h_type(&H.m[i]), type) == 0)
			return H.m[i].obj;
	return NULL;
}

/* The status string of a seat in a message's "status" array. */
static inline const char *h_status(const cJSON *msg, int seat)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(msg, "status");
	const cJSON *s = cJSON_GetArrayItem(a, seat);
	return cJSON_IsString(s) ? s->valuestring : "";
}

/* The "call" a reveal shows for a seat, or NULL. */
static inline const char *h_revealed(const cJSON *reveal, int seat, bool *ai)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(reveal, "choices")) {
		if (h_num(c, "seat") != seat)
			continue;
		if (ai)
			*ai = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "ai"));
		const cJSON *ch = cJSON_GetObjectItemCaseSensitive(c, "choice");
		const cJSON *call = cJSON_GetObjectItemCaseSensitive(ch, "call");
		return cJSON_IsString(call) ? call->valuestring : "?";
	}
	return NULL;
}

#endif
