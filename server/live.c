/*
 * live.c — see live.h. Private-table passwords are kept in the record as
 * their salted hashes only (passhash.h).
 */
#include "live.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "shared.h"

static char *json_text(const cJSON *j)
{
	return j ? proto_print(j) : xstrdup("null");
}

/* The table's settings a restart needs that the record has not: name,
 * lobby, host, creator, privacy, pacing. */
static cJSON *meta_json(const app_table *at, const table_settings *s)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "name", s->name);
	cJSON_AddNumberToObject(m, "lobby", (double)at->lobby);
	cJSON_AddNumberToObject(m, "host", (double)s->host);
	cJSON_AddStringToObject(m, "host_name", s->host_name);
	cJSON_AddNumberToObject(m, "creator", (double)at->creator);
	cJSON_AddBoolToObject(m, "private", s->private_table);
	/* A private table's password only as its salted hash (passhash.h). */
	if (s->password[0])
		cJSON_AddStringToObject(m, "password_hash", s->password);
	cJSON_AddNumberToObject(m, "seats", s->seats);
	cJSON_AddNumberToObject(m, "turn_timeout_ms", s->turn_timeout_ms);
	cJSON_AddNumberToObject(m, "pacing_ms", s->pacing_ms);
	cJSON_AddBoolToObject(m, "fixed_seed", s->fixed_seed);
	return m;
}

/* Who sits where, in the form of the record's "players". */
static char *seats_text(const table *t)
{
	cJSON *arr = cJSON_CreateArray();
	int seats = table_get_settings(t)->seats;
	for (int i = 0; i < seats; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "seat", i);
		uint64_t p = table_seat_player(t, i);
		if (p) {
			cJSON_AddNumberToObject(o, "player", (double)p);
			cJSON_AddStringToObject(o, "name", table_seat_name(t, i));
		} else {
			cJSON_AddNullToObject(o, "player");
			cJSON_AddNullToObject(o, "name");
		}
		cJSON_AddBoolToObject(o, "ai", table_seat_kind_of(t, i) == SEAT_AI);
		cJSON_AddItemToArray(arr, o);
	}
	char *text = proto_print(arr);
	cJSON_Delete(arr);
	return text;
}

typedef struct start_ctx {
	app *a;
	uint64_t table;
	uint64_t game;
} start_ctx;

/* The start record's transaction is over: the table counts as live (and
 * the game begins) only if it committed. */
static void live_started(void *ud, int err)
{
	start_ctx *c = ud;
	app_table *at = app_table_find(c->a, c->table);
	if (at) {
		at->starting = false;
		at->live = err == STORE_OK;
		if (err == STORE_OK && at->kind_index >= 0)
			c->a->kind_started[at->kind_index]++;
		if (err != STORE_OK)
			log_error("app", "table %" PRIu64 ": game not started, its start record was "
				  "not written: %s", c->table, store_strerror(err));
		table_start_durable(at->t, c->game, err == STORE_OK);
	}
	free(c);
}

void live_start(app *a, app_table *at, uint64_t game)
{
	table *t = at->t;
	at->started_at = app_unix_ms();
	if (!a->store) {
		table_start_durable(t, game, true);
		return;
	}
	cJSON *rec = table_record_json(t);
	char *config = json_text(cJSON_GetObjectItem(rec, "config"));
	char *seats = json_text(cJSON_GetObjectItem(rec, "players"));
	char *shared = json_text(cJSON_GetObjectItem(rec, "shared"));
	cJSON *mj = meta_json(at, table_get_settings(t));
	char *meta = proto_print(mj);
	store_live_table lt = {
		.table_id = (int64_t)at->id,
		.kind = table_get_settings(t)->kind->name,
		.config_json = config,
		.seed = table_seed(t),
		.seats_json = seats,
		.shared_json = shared,
		.meta_json = meta,
		.started_at = at->started_at,
		.last_seq = (int64_t)table_seq(t),
	};
	/* A new game at the same table whose last game left a live record
	 * (an aborted game has none written): end that one first. */
	if (at->live)
		store_live_end(a->store, (int64_t)at->id, NULL, NULL);
	at->live = false;
	shared_game_done(a, at, NULL, 0); /* what an unrecorded game added goes */
	at->seq_saved = table_seq(t);
	start_ctx *c = xmalloc(sizeof *c);
	*c = (start_ctx){a, at->id, game};
	at->starting = store_live_start(a->store, &lt, live_started, c) != NULL;
	free(at->seats_saved);
	at->seats_saved = seats_text(t);
	free(config);
	free(seats);
	free(shared);
	free(meta);
	cJSON_Delete(mj);
	cJSON_Delete(rec);
	if (!at->starting) {
		free(c);
		table_start_durable(t, game, false);
	}
}

void live_seq_checkpoint(app *a, app_table *at)
{
	uint64_t seq = table_seq(at->t);
	if (!at->live || !a->store || seq < at->seq_saved + LIVE_SEQ_SAVE_EVERY)
		return;
	store_live_update(a->store, (int64_t)at->id, NULL, NULL, (int64_t)seq, NULL, NULL);
	at->seq_saved = seq;
}

void live_seats_changed(app *a, app_table *at)
{
	if (!at->live || !a->store || table_get_state(at->t) != TABLE_PLAYING)
		return;
	char *text = seats_text(at->t);
	if (!at->seats_saved || strcmp(text, at->seats_saved) != 0) {
		store_live_update(a->store, (int64_t)at->id, text, NULL, (int64_t)table_seq(at->t),
				  NULL, NULL);
		at->seq_saved = table_seq(at->t);
		free(at->seats_saved);
		at->seats_saved = text;
	} else {
		free(text);
		live_seq_checkpoint(a, at);
	}
}

void live_end(app *a, app_table *at)
{
	/* A start record still being written is ended too (queued after it). */
	if ((at->live || at->starting) && a->store) {
		store_live_end(a->store, (int64_t)at->id, NULL, NULL);
		shared_game_done(a, at, NULL, 0);
	}
}

void live_restored(app *a, app_table *at, int64_t started_at, const char *meta)
{
	at->live = true;
	at->started_at = started_at;
	at->seats_saved = seats_text(at->t);
	at->seq_saved = table_seq(at->t);
	store_live_update(a->store, (int64_t)at->id, NULL, meta, (int64_t)at->seq_saved, NULL,
			  NULL);
}
