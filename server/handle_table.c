/*
 * handle_table.c — the table requests of PROTOCOL.md §6 and the app's side of
 * every table (table.h's host callbacks): sending each update to its
 * player's connection, the kinds' shared state, lobby list updates, and
 * persistence: a game's start before it begins, every resolved decision
 * before its reveal, the finished game (record, statistics, achievements,
 * new shared state) before its result — a write the store refuses pauses
 * the table and is retried until it is durable — and the table's update
 * seq, so that a restart continues above it. Also crash recovery: tables
 * live in the store are rebuilt at start-up (or kept aside, quarantine.h).
 * Private-table passwords are kept as salted hashes (passhash.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "app_int.h"
#include "iprate.h"
#include "lobby.h"
#include "passhash.h"
#include "quarantine.h"
#include "record.h"
#include "session.h"

app_table *app_table_find(app *a, uint64_t id) { return idmap_get(&a->tables, id); }

static app_table *find_for(app *a, const table *t) { return app_table_find(a, table_id(t)); }

static char *json_text(const cJSON *j)
{
	return j ? proto_print(j) : xstrdup("null");
}

/* ---- host callbacks ---- */

static void host_send(void *ud, uint64_t player_id, const char *json, size_t len)
{
	app *a = ud;
	if ((int64_t)player_id == a->mute_player)
		return;
	player *p = player_find(a, (int64_t)player_id);
	if (!p || !p->sess)
		return;
	/* Reveals carry the table's own t_close_us stamp (PROTOCOL.md §7). */
	app_send_text(p->sess, json, len);
}

static const void *host_shared(void *ud, const game_kind *kind)
{
	app *a = ud;
	int i = app_kind_index(kind);
	return i >= 0 ? a->shared[i] : NULL;
}

static void host_events(void *ud, table *t, const game_event *evs, size_t n, bool replaying)
{
	app *a = ud;
	const game_kind *k = table_get_settings(t)->kind;
	int i = app_kind_index(k);
	/* Replayed events were folded before the crash (or are lost with the
	 * unsaved state); folding them twice would count uses twice. */
	if (replaying || i < 0 || !a->shared[i] || !k->shared_fold)
		return;
	k->shared_fold(a->shared[i], evs, n);
	app_table *at = find_for(a, t);
	if (at && a->folded[i]) {
		/* The decisions applied so far are folded (0: the creation). */
		size_t applied = 0;
		table_log(t, &applied);
		char key[48];
		app_game_key(key, sizeof key, at->id, at->started_at);
		cJSON_DeleteItemFromObjectCaseSensitive(a->folded[i], key);
		cJSON_AddNumberToObject(a->folded[i], key, (double)applied);
	}
	app_shared_dirty(a, i);
}

/* A game left play (finished, abandoned): its fold mark goes. */
static void forget_folded(app *a, app_table *at)
{
	if (at->kind_index < 0 || !a->folded[at->kind_index])
		return;
	char key[48];
	app_game_key(key, sizeof key, at->id, at->started_at);
	if (cJSON_GetObjectItemCaseSensitive(a->folded[at->kind_index], key)) {
		cJSON_DeleteItemFromObjectCaseSensitive(a->folded[at->kind_index], key);
		app_shared_dirty(a, at->kind_index);
	}
}

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

/* A game is about to begin: its start record first (store_live_start);
 * the game begins from live_started. */
static void host_start(void *ud, table *t, uint64_t game)
{
	app *a = ud;
	app_table *at = find_for(a, t);
	if (!at) {
		table_start_durable(t, game, true);
		return;
	}
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

/* ---- the update seq a restart continues above ---- */

/* A restored table continues SEQ_RESTART_JUMP above the last update seq its
 * live record holds; the record is brought up to date at least every
 * SEQ_SAVE_EVERY updates (with each decision, each seat change, and after
 * requests that send updates without either), so a restored seq is above
 * every seq sent before the crash, across rematches too. */
#define SEQ_SAVE_EVERY 500
#define SEQ_RESTART_JUMP 1000

static void seq_checkpoint(app *a, app_table *at)
{
	uint64_t seq = table_seq(at->t);
	if (!at->live || !a->store || seq < at->seq_saved + SEQ_SAVE_EVERY)
		return;
	store_live_update(a->store, (int64_t)at->id, NULL, NULL, (int64_t)seq, NULL, NULL);
	at->seq_saved = seq;
}

/* ---- writes a table waits for, retried while the store fails ---- */

/* A decision (or a finished game's record) a table waits for. It travels
 * with its store request; while the store fails it waits in the table's
 * retry slot for the next try. */
typedef struct pending_write {
	app *a;
	uint64_t table;
	uint64_t n;        /* the decision's number, or the game's */
	bool record;       /* the game's record, else decision n */
	char *choices;     /* a decision's set, as stored */
	uint64_t last_seq; /* a decision: the table's seq when last submitted */
	unsigned tries;    /* failed so far */
	uint64_t first_ms; /* now_ms() of the first failure */
} pending_write;

/* Retries start at RETRY_FIRST_MS and double up to RETRY_MAX_MS: a store
 * that is back is used within seconds, a store that stays down costs one
 * failed write per paused table every few seconds. */
#define RETRY_FIRST_MS 100
#define RETRY_MAX_MS 5000

static void pw_free(pending_write *w)
{
	if (w) {
		free(w->choices);
		free(w);
	}
}

static void free_handle(uv_handle_t *h) { free(h); }

/* Forgets a write waiting for its next try (the table goes). */
static void retry_clear(app_table *at)
{
	if (at->retry_timer) {
		uv_timer_stop(at->retry_timer);
		uv_close((uv_handle_t *)at->retry_timer, free_handle);
		at->retry_timer = NULL;
	}
	pw_free(at->retry);
	at->retry = NULL;
}

static void submit_write(pending_write *w);

static void on_retry(uv_timer_t *h)
{
	app_table *at = h->data;
	pending_write *w = at->retry;
	at->retry = NULL;
	if (w)
		submit_write(w);
}

/* The store refused w: the table pauses (everyone at it is told, once) and
 * w is tried again after a backoff. */
static void write_failed(app_table *at, pending_write *w, int err)
{
	if (!w->tries++) {
		w->first_ms = now_ms();
		log_error("app", "table %" PRIu64 ": paused, %s %" PRIu64 " was not written (%s); "
			  "retrying", w->table, w->record ? "the record of game" : "decision", w->n,
			  store_strerror(err));
		table_store_failed(at->t);
	}
	unsigned shift = w->tries < 7 ? w->tries - 1 : 6;
	uint64_t delay = (uint64_t)RETRY_FIRST_MS << shift;
	if (delay > RETRY_MAX_MS)
		delay = RETRY_MAX_MS;
	/* A little spread, so that the tables one store failure paused do not
	 * all retry in the same loop turn. */
	delay += (at->id * 7919) % (delay / 8 + 1);
	if (!at->retry_timer) {
		at->retry_timer = xmalloc(sizeof *at->retry_timer);
		uv_timer_init(w->a->loop, at->retry_timer);
		at->retry_timer->data = at;
	}
	at->retry = w;
	uv_timer_start(at->retry_timer, on_retry, delay, 0);
}

/* w is durable: says so if the table was paused for it; frees w. */
static void write_done(pending_write *w)
{
	if (w->tries)
		log_warn("app", "table %" PRIu64 ": resumed, %s %" PRIu64 " written after %u "
			 "failed tries (%" PRIu64 " ms)", w->table,
			 w->record ? "the record of game" : "decision", w->n, w->tries,
			 now_ms() - w->first_ms);
	pw_free(w);
}

static void reveal_now(app *a, app_table *at, uint64_t n)
{
	uint64_t close_us = at->close_us; /* 0: resolved while being restored, not timed */
	if (close_us) {
		uint64_t waited = now_ns() / 1000 - close_us;
		if (waited > a->durable_us_max)
			a->durable_us_max = waited;
		if (waited >= 20000)
			a->durable_slow++;
	}
	table_decision_durable(at->t, n);
	if (close_us)
		metrics_hist_observe(&a->reveal, (double)(now_ns() / 1000 - close_us) / 1e6);
}

static void decision_durable(void *ud, int err)
{
	pending_write *w = ud;
	app *a = w->a;
	app_table *at = app_table_find(a, w->table);
	/* A retry may find its set stored: the failure came after the commit
	 * (it is the same set: a table writes each number once). */
	if (err == STORE_ERR_EXISTS && w->tries)
		err = STORE_OK;
	if (!at) {
		pw_free(w);
	} else if (err != STORE_OK) {
		write_failed(at, w, err);
	} else {
		uint64_t n = w->n;
		at->seq_saved = MAX(at->seq_saved, w->last_seq);
		write_done(w);
		reveal_now(a, at, n);
	}
}

static void host_decision(void *ud, table *t, uint64_t n, const game_choice *choices, int seats)
{
	app *a = ud;
	/* Not registered yet: table_restore posted a restored table's open
	 * decision and it resolved at once (only AI seats pending). Its live
	 * record exists: the set is written all the same; the reveal comes
	 * from the store's callback, by when the table is registered. */
	app_table *at = find_for(a, t);
	a->decisions++;
	if (at)
		at->close_us = now_ns() / 1000;
	if (!a->store) {
		table_decision_durable(t, n);
		return;
	}
	buf b = {0};
	buf_puts(&b, "[");
	for (int i = 0; i < seats; i++)
		buf_printf(&b, "%s%d", i ? "," : "", (int)choices[i]);
	buf_puts(&b, "]");
	pending_write *w = xcalloc(1, sizeof *w);
	*w = (pending_write){.a = a, .table = table_id(t), .n = n, .choices = b.data,
			     .last_seq = table_seq(t)};
	submit_write(w);
}

/* The seated humans have now finished a game of this kind (the store wrote
 * it with the record): no longer a first run (crawl, C15). */
static void kinds_finished(app *a, app_table *at)
{
	const table_settings *ts = table_get_settings(at->t);
	for (int i = 0; i < ts->seats && at->kind_index >= 0 && at->kind_index < 32; i++) {
		player *p = player_find(a, (int64_t)table_seat_player(at->t, i));
		if (p)
			p->kinds_finished |= 1u << at->kind_index;
	}
}

/* At each start of a kind whose config has "first_run" (crawl, C15): the
 * seats whose human has never finished a game of it. AI seats never have a
 * first run; a player whose record the store has not read counts as no
 * first run. */
static cJSON *host_start_config(void *ud, table *t, const cJSON *config_full)
{
	app *a = ud;
	int ki = app_kind_index(table_get_settings(t)->kind);
	if (!cJSON_GetObjectItemCaseSensitive(config_full, "first_run") || ki < 0 || ki >= 32)
		return NULL;
	cJSON *c = cJSON_Duplicate(config_full, true);
	cJSON *seats = cJSON_CreateArray();
	for (int i = 0; i < table_get_settings(t)->seats; i++) {
		player *p = table_seat_kind_of(t, i) == SEAT_HUMAN
				    ? player_find(a, (int64_t)table_seat_player(t, i))
				    : NULL;
		if (p && p->kinds_loaded && !(p->kinds_finished >> ki & 1))
			cJSON_AddItemToArray(seats, cJSON_CreateNumber(i));
	}
	cJSON_ReplaceItemInObjectCaseSensitive(c, "first_run", seats);
	return c;
}

/* Nothing of the record was written (one transaction): the live table
 * stays, and so does the game's fold mark (in memory since its last
 * decision): every shared state saved meanwhile has the mark, so a restart
 * replays the game and folds none of its events twice. */
static void game_recorded(void *ud, int err, int64_t id)
{
	pending_write *w = ud;
	app *a = w->a;
	app_table *at = app_table_find(a, w->table);
	if (!at) {
		pw_free(w);
	} else if (err != STORE_OK) {
		write_failed(at, w, err);
	} else {
		log_debug("app", "game %lld recorded", (long long)id);
		uint64_t game = w->n;
		write_done(w);
		/* The record ended the live table and saved the shared state
		 * without this game's mark: the mark goes from memory too. */
		at->live = false;
		forget_folded(a, at);
		kinds_finished(a, at);
		table_finished_durable(at->t, game);
	}
}

/* Writes the record of a finished game, its statistics, achievements and
 * the kind's shared state, and ends the live table, in ONE transaction;
 * built afresh for each try (the shared state moves on meanwhile). */
static bool submit_record(pending_write *w, app_table *at)
{
	app *a = w->a;
	int ki = at->kind_index;
	char *after = NULL;
	if (ki >= 0 && a->shared[ki] && a->folded[ki]) {
		/* The shared state saved with the record: without this game's
		 * mark (its live table ends with it). Memory keeps the mark until
		 * the record is durable. */
		char key[48];
		app_game_key(key, sizeof key, at->id, at->started_at);
		cJSON *mark = cJSON_DetachItemFromObjectCaseSensitive(a->folded[ki], key);
		after = app_shared_text(a, ki);
		if (mark)
			cJSON_AddItemToObject(a->folded[ki], key, mark);
		/* Not known to be saved until the record commits: the next
		 * change is saved whatever it is. */
		free(a->shared_text[ki]);
		a->shared_text[ki] = NULL;
	}
	record r;
	record_build(&r, at->t, after, at->started_at, app_unix_ms(),
		     at->live ? (int64_t)at->id : 0);
	free(after);
	bool queued = store_game_finish(a->store, &r.g, game_recorded, w) != NULL;
	record_free(&r);
	return queued;
}

static void submit_write(pending_write *w)
{
	app *a = w->a;
	app_table *at = app_table_find(a, w->table);
	bool queued;
	if (w->record) {
		queued = at && submit_record(w, at);
	} else {
		/* The seq of what was sent before this set: a pause sends more. */
		if (at)
			w->last_seq = table_seq(at->t);
		queued = store_live_decision(a->store, (int64_t)w->table, (int64_t)w->n,
					     w->choices, (int64_t)w->last_seq, decision_durable,
					     w) != NULL;
	}
	if (!queued) {
		/* The store is shutting down (the table goes with the app):
		 * nothing is shown that was not written. */
		log_warn("app", "table %" PRIu64 ": %s %" PRIu64 " not written: the store is "
			 "closing", w->table, w->record ? "the record of game" : "decision", w->n);
		pw_free(w);
	}
}

/* The game is over, its result held back: the record first; the result is
 * sent from game_recorded, once it is durable. */
static void host_record(void *ud, table *t, uint64_t game)
{
	app *a = ud;
	app_table *at = find_for(a, t);
	if (!at || !a->store || !table_game(t)) {
		table_finished_durable(t, game);
		return;
	}
	pending_write *w = xcalloc(1, sizeof *w);
	*w = (pending_write){.a = a, .table = at->id, .n = game, .record = true};
	submit_write(w);
}

/* The result is out (after the record, see host_record). */
static void host_finished(void *ud, table *t)
{
	app *a = ud;
	app_table *at = find_for(a, t);
	a->games_finished++;
	if (at && at->kind_index >= 0)
		a->kind_finished[at->kind_index]++;
	if (at && table_humans(t) == 0 && table_spectators(t) == 0)
		app_table_close_later(a, at);
}

static void host_changed(void *ud, table *t)
{
	app *a = ud;
	app_table *at = find_for(a, t);
	if (!at)
		return;
	lobby_table_changed(a, at);
	/* A seat changed hands mid-game (takeover, a human leaving to the
	 * AI): the live record follows, so a restart seats the right people. */
	if (at->live && a->store && table_get_state(t) == TABLE_PLAYING) {
		char *text = seats_text(t);
		if (!at->seats_saved || strcmp(text, at->seats_saved) != 0) {
			store_live_update(a->store, (int64_t)at->id, text, NULL,
					  (int64_t)table_seq(t), NULL, NULL);
			at->seq_saved = table_seq(t);
			free(at->seats_saved);
			at->seats_saved = text;
		} else {
			free(text);
			seq_checkpoint(a, at);
		}
	}
}

static table_host host_of(app *a)
{
	return (table_host){
		.ud = a,
		.send = host_send,
		.shared = host_shared,
		.events = host_events,
		.start = host_start,
		.decision = host_decision,
		.record = host_record,
		.finished = host_finished,
		.changed = host_changed,
		.start_config = host_start_config,
	};
}

/* ---- table life ---- */

static app_table *register_table(app *a, table *t, uint64_t lobby_id, int64_t creator)
{
	app_table *at = xcalloc(1, sizeof *at);
	at->id = table_id(t);
	at->t = t;
	at->lobby = lobby_id;
	at->creator = creator;
	at->kind_index = app_kind_index(table_get_settings(t)->kind);
	idmap_put(&a->tables, at->id, at);
	if (at->id >= a->next_table_id)
		a->next_table_id = at->id + 1;
	return at;
}

void app_table_destroy(app *a, app_table *at, bool end_live)
{
	/* Every member is told, however many watch. */
	uint64_t few[64], *members = few;
	int n = table_members(at->t, members, (int)ARRAY_LEN(few));
	if (n > (int)ARRAY_LEN(few)) {
		members = xmalloc((size_t)n * sizeof *members);
		n = table_members(at->t, members, n);
	}
	cJSON *u = proto_new("table_closed", NULL);
	cJSON_AddNumberToObject(u, "table", (double)at->id);
	/* the table's last update: one past the last seq (table.md §2) */
	cJSON_AddNumberToObject(u, "seq", (double)(table_seq(at->t) + 1));
	char *text = proto_print(u);
	cJSON_Delete(u);
	idmap_del(&a->tables, at->id);
	for (int i = 0; i < n; i++) {
		player *p = player_find(a, (int64_t)members[i]);
		if (!p)
			continue;
		app_send_text(p->sess, text, strlen(text));
		player_remove_table(a, p, at->id);
	}
	if (members != few)
		free(members);
	free(text);
	lobby_remove_table(a, at);
	/* A start record still being written is ended too (queued after it). */
	if ((at->live || at->starting) && end_live && a->store) {
		store_live_end(a->store, (int64_t)at->id, NULL, NULL);
		forget_folded(a, at);
	}
	player *c = player_find(a, at->creator);
	if (c) {
		c->hosted--;
		player_release(a, c);
	}
	retry_clear(at);
	table_free(at->t);
	free(at->seats_saved);
	free(at);
}

void tables_free_all(app *a)
{
	for (size_t i = 0; i < a->tables.cap; i++) {
		app_table *at = a->tables.slots[i].val;
		if (!a->tables.slots[i].key || !at)
			continue;
		retry_clear(at);
		table_free(at->t);
		free(at->seats_saved);
		free(at);
	}
	idmap_free(&a->tables);
}

void tables_player_connected(app *a, player *p, bool connected)
{
	for (int i = 0; i < p->n_tables; i++) {
		app_table *at = app_table_find(a, p->tables[i]);
		if (at)
			table_set_connected(at->t, (uint64_t)p->id, connected);
	}
}

void tables_resume_player(app *a, player *p, const cJSON *resume)
{
	/* Copy: resuming sends, and nothing here may change p->tables, but be
	 * safe against it. */
	int n = p->n_tables;
	uint64_t *ids = xmalloc((size_t)(n ? n : 1) * sizeof *ids);
	if (n) /* p->tables is NULL when n is 0: memcpy from NULL is UB */
		memcpy(ids, p->tables, (size_t)n * sizeof *ids);
	for (int i = 0; i < n; i++) {
		app_table *at = app_table_find(a, ids[i]);
		if (!at)
			continue;
		uint64_t since = 0;
		char key[24];
		snprintf(key, sizeof key, "%" PRIu64, ids[i]);
		const cJSON *v = resume ? cJSON_GetObjectItemCaseSensitive(resume, key) : NULL;
		if (cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < 9e15)
			since = (uint64_t)v->valuedouble;
		table_resume(at->t, (uint64_t)p->id, since, NULL);
	}
	free(ids);
}

/* Closes a table that nobody holds any more (not while in play: an all-AI
 * game plays on to its end, then closes). */
static void close_if_empty(app *a, app_table *at)
{
	if (table_humans(at->t) == 0 && table_spectators(at->t) == 0 &&
	    table_get_state(at->t) != TABLE_PLAYING)
		app_table_destroy(a, at, true);
}

static bool anyone_connected(app *a, const app_table *at)
{
	uint64_t members[64];
	int n = table_members(at->t, members, (int)ARRAY_LEN(members));
	if (n > (int)ARRAY_LEN(members))
		return true; /* a crowd: someone is surely there */
	for (int i = 0; i < n; i++) {
		player *p = player_find(a, (int64_t)members[i]);
		if (p && p->sess)
			return true;
	}
	return false;
}

void tables_sweep(app *a)
{
	uint64_t now = now_ms();
	bool any = false;
	for (size_t i = 0; i < a->tables.cap; i++) {
		app_table *at = a->tables.slots[i].val;
		if (!a->tables.slots[i].key || !at || at->closing)
			continue;
		if (table_get_state(at->t) == TABLE_PLAYING || anyone_connected(a, at)) {
			at->deserted_ms = 0;
		} else if (!at->deserted_ms) {
			at->deserted_ms = now;
		} else if (now - at->deserted_ms >= a->abandon_ms) {
			log_info("app", "table %" PRIu64 " deserted: closed", at->id);
			at->closing = true;
			any = true;
		}
	}
	if (any)
		app_table_close_later(a, NULL);
}

void tables_player_leave_all(app *a, player *p)
{
	while (p->n_tables > 0) {
		uint64_t id = p->tables[p->n_tables - 1];
		app_table *at = app_table_find(a, id);
		p->n_tables--;
		if (!at)
			continue;
		table_leave(at->t, (uint64_t)p->id);
		close_if_empty(a, at);
	}
}

/* ---- requests ---- */

static app_table *need_table(session *s, proto_msg *m)
{
	app_table *at = app_table_find(s->app, (uint64_t)m->u.table.table);
	if (!at || at->closing)
		app_error(s, m->id, PROTO_E_NOT_FOUND, "table", "no table %lld",
			  (long long)m->u.table.table);
	return at && !at->closing ? at : NULL;
}

static void table_fail(session *s, proto_msg *m, int rc, const char *field, const char *what)
{
	app_error(s, m->id, app_table_err(rc), field, "%s", what);
}

static const char *err_text(int rc)
{
	switch (rc) {
	case TABLE_ERR_NOT_FOUND: return "no such seat";
	case TABLE_ERR_FORBIDDEN: return "only the host may do that";
	case TABLE_ERR_FULL: return "that seat is taken (or no seat is free)";
	case TABLE_ERR_PASSWORD: return "wrong or missing password";
	case TABLE_ERR_NOT_SEATED: return "you are not at this table";
	case TABLE_ERR_NOT_YOUR_SEAT: return "that seat is not yours";
	case TABLE_ERR_NOT_PENDING: return "that seat has nothing to decide now";
	case TABLE_ERR_ILLEGAL: return "not one of the options offered now";
	case TABLE_ERR_WRONG_PHASE: return "not possible in the table's current state";
	case TABLE_ERR_BAD: return "a bad argument";
	default: return "the table failed";
	}
}

/* Replies with the player's snapshot of the table, echoing id. */
static void reply_snapshot(session *s, app_table *at, const cJSON *id)
{
	cJSON *snap = table_snapshot_json(at->t, (uint64_t)s->pl->id);
	if (id)
		cJSON_AddItemToObject(snap, "id", cJSON_Duplicate(id, true));
	app_send(s, snap);
}

void handle_table_create(session *s, proto_msg *m)
{
	app *a = s->app;
	player *p = s->pl;
	const game_kind *k = game_kind_find(m->u.create.kind);
	if (!k) {
		app_error(s, m->id, PROTO_E_NOT_FOUND, "kind", "no game kind \"%s\"",
			  m->u.create.kind);
		return;
	}
	int seats = m->u.create.seats;
	if (seats < k->min_seats || seats > k->max_seats) {
		app_error(s, m->id, PROTO_E_BAD_FIELD, "seats", "%s takes %d to %d seats", k->name,
			  k->min_seats, k->max_seats);
		return;
	}
	if (m->u.create.has_seed && (!p->admin || !a->cfg->allow_fixed_seed)) {
		app_error(s, m->id, PROTO_E_FORBIDDEN, "seed",
			  p->admin ? "this server does not allow fixed seeds"
				   : "only an admin may fix a table's seed");
		return;
	}
	lobby *l;
	if (m->u.create.lobby != PROTO_ABSENT) {
		l = lobby_find(a, (uint64_t)m->u.create.lobby);
		if (!l) {
			app_error(s, m->id, PROTO_E_NOT_FOUND, "lobby", "no lobby %lld",
				  (long long)m->u.create.lobby);
			return;
		}
	} else {
		l = p->lobby ? p->lobby : lobby_find(a, 1);
	}
	if (a->cfg->max_tables_per_lobby > 0 &&
	    l->n_tables >= (size_t)a->cfg->max_tables_per_lobby) {
		app_error(s, m->id, PROTO_E_LIMIT_REACHED, NULL, "this lobby has %d tables already",
			  a->cfg->max_tables_per_lobby);
		return;
	}
	if (a->cfg->max_tables_per_player > 0 && p->hosted >= a->cfg->max_tables_per_player) {
		app_error(s, m->id, PROTO_E_LIMIT_REACHED, NULL,
			  "you have created %d tables already; close one", p->hosted);
		return;
	}
	/* One address fills no lobby: new tables per minute (admins aside). */
	if (!p->admin && !iprate_take(a->new_tables, conn_peer_ip(s->c), now_ms())) {
		app_error(s, m->id, PROTO_E_LIMIT_REACHED, NULL,
			  "too many new tables from your address (%d a minute); try again soon",
			  a->cfg->new_tables_per_ip_min);
		return;
	}

	table_settings ts = {
		.id = a->next_table_id,
		.lobby = l->id,
		.kind = k,
		.config = m->u.create.config,
		.seats = seats,
		.private_table = m->u.create.is_private,
		.host = (uint64_t)p->id,
		.turn_timeout_ms = m->u.create.turn_timeout_ms != PROTO_ABSENT
					   ? m->u.create.turn_timeout_ms
					   : a->cfg->turn_timeout_ms,
		.window_ms = a->cfg->window_ms,
		.pacing_ms = m->u.create.pacing_ms != PROTO_ABSENT ? m->u.create.pacing_ms
								   : a->cfg->ai_pacing_ms,
		.reveal_pause_ms = a->cfg->reveal_pause_ms,
		.fixed_seed = m->u.create.has_seed,
		.seed = m->u.create.seed,
		.history_max = APP_TABLE_HISTORY_MAX,
		.history_bytes = APP_TABLE_HISTORY_BYTES,
	};
	if (m->u.create.name)
		strlcpy_safe(ts.name, m->u.create.name, sizeof ts.name);
	else
		snprintf(ts.name, sizeof ts.name, "%s's table", p->name);
	/* The table keeps the password's salted hash only; attempts are
	 * hashed alike (password_attempt) and compared. */
	if (m->u.create.password && passhash_new(m->u.create.password, ts.password) != 0) {
		app_error(s, m->id, PROTO_E_INTERNAL, NULL, "cannot hash the password");
		return;
	}
	strlcpy_safe(ts.host_name, p->name, sizeof ts.host_name);

	char err[256] = "";
	table_host h = host_of(a);
	table *t = table_new(a->loop, &h, &ts, err, sizeof err);
	if (!t) {
		app_error(s, m->id, m->u.create.config ? PROTO_E_BAD_FIELD : PROTO_E_BAD_MESSAGE,
			  m->u.create.config ? "config" : NULL, "%s", err);
		return;
	}
	a->next_table_id++;
	/* In no lobby until lobby_add_table below: the lobby hears of the
	 * new table once, whole, not of each seat filled on the way. */
	app_table *at = register_table(a, t, 0, p->id);
	p->hosted++;

	/* The creator's own updates are in the snapshot it gets as the reply. */
	a->mute_player = p->id;
	int ai = m->u.create.ai, rc;
	if (ai == seats)
		rc = table_spectate(t, (uint64_t)p->id, p->name, ts.password);
	else
		rc = table_join(t, (uint64_t)p->id, p->name, 0, ts.password, NULL);
	for (int i = 0; rc == TABLE_OK && i < ai; i++)
		rc = table_add_ai(t, (uint64_t)p->id, ai == seats ? i : i + 1, NULL);
	a->mute_player = 0;
	if (rc != TABLE_OK) {
		log_error("app", "a new table refused its creator: %s", table_err_code(rc));
		app_error(s, m->id, PROTO_E_INTERNAL, NULL, "the new table failed (%s)",
			  table_err_code(rc));
		app_table_destroy(a, at, false);
		return;
	}
	player_add_table(p, at->id);
	lobby_add_table(a, l, at);
	reply_snapshot(s, at, m->id);
	if (m->u.create.start) {
		rc = table_start(t, (uint64_t)p->id);
		if (rc != TABLE_OK)
			log_warn("app", "table %" PRIu64 " did not start: %s", at->id,
				 table_err_code(rc));
	}
}

/* What a join or watch request's password is checked as: its hash with
 * the table's salt, computed only when the table will ask for it (a
 * private table, and the player neither its host nor at it already). NULL
 * when no password was given. */
static const char *password_attempt(const app_table *at, const session *s, const proto_msg *m,
				    char *out)
{
	const table_settings *ts = table_get_settings(at->t);
	const char *attempt = m->u.table.password;
	uint64_t me = (uint64_t)s->pl->id;
	if (!attempt || !ts->private_table || ts->host == me || table_has_member(at->t, me))
		return attempt;
	if (passhash_with(attempt, ts->password, out) != 0)
		out[0] = '\0'; /* never equal to the table's hash */
	return out;
}

void handle_table_join(session *s, proto_msg *m)
{
	app *a = s->app;
	app_table *at = need_table(s, m);
	if (!at)
		return;
	char hashed[PASSHASH_MAX + 1];
	const char *password = password_attempt(at, s, m, hashed);
	a->mute_player = s->pl->id;
	int seat = -1;
	int rc = table_join(at->t, (uint64_t)s->pl->id, s->pl->name, m->u.table.seat, password,
			    &seat);
	a->mute_player = 0;
	if (rc != TABLE_OK) {
		table_fail(s, m, rc, rc == TABLE_ERR_PASSWORD ? "password"
				     : m->u.table.seat != PROTO_ABSENT ? "seat" : NULL,
			   err_text(rc));
		return;
	}
	player_add_table(s->pl, at->id);
	reply_snapshot(s, at, m->id);
}

void handle_take_seat(session *s, proto_msg *m) { handle_table_join(s, m); }

void handle_table_spectate(session *s, proto_msg *m)
{
	app *a = s->app;
	app_table *at = need_table(s, m);
	if (!at)
		return;
	char hashed[PASSHASH_MAX + 1];
	const char *password = password_attempt(at, s, m, hashed);
	a->mute_player = s->pl->id;
	int rc = table_spectate(at->t, (uint64_t)s->pl->id, s->pl->name, password);
	a->mute_player = 0;
	if (rc != TABLE_OK) {
		table_fail(s, m, rc, rc == TABLE_ERR_PASSWORD ? "password" : NULL, err_text(rc));
		return;
	}
	player_add_table(s->pl, at->id);
	reply_snapshot(s, at, m->id);
}

void handle_table_leave(session *s, proto_msg *m)
{
	app *a = s->app;
	app_table *at = need_table(s, m);
	if (!at)
		return;
	int rc = table_leave(at->t, (uint64_t)s->pl->id);
	if (rc != TABLE_OK) {
		table_fail(s, m, rc, NULL, err_text(rc));
		return;
	}
	player_remove_table(a, s->pl, at->id);
	app_ok(s, m->id);
	close_if_empty(a, at);
}

void handle_table_add_ai(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	int rc = table_add_ai(at->t, (uint64_t)s->pl->id, m->u.table.seat, NULL);
	if (rc != TABLE_OK)
		table_fail(s, m, rc, m->u.table.seat != PROTO_ABSENT ? "seat" : NULL, err_text(rc));
	else
		app_ok(s, m->id);
}

void handle_table_remove_ai(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	int rc = table_remove_ai(at->t, (uint64_t)s->pl->id, m->u.table.seat);
	if (rc != TABLE_OK)
		table_fail(s, m, rc, "seat", err_text(rc));
	else
		app_ok(s, m->id);
}

void handle_table_start(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	/* A table whose start record is being written still says `waiting`,
	 * but its game is made: another start is wrong_phase (table.md §7).
	 * Checked here, since the ok goes out before table_start runs. */
	bool can_start = table_get_state(at->t) == TABLE_WAITING && !at->starting;
	/* ok first: the start and first options follow it. */
	if (can_start && table_host_player(at->t) == (uint64_t)s->pl->id) {
		app_ok(s, m->id);
		int rc = table_start(at->t, (uint64_t)s->pl->id);
		if (rc != TABLE_OK)
			log_warn("app", "table %" PRIu64 " did not start: %s", at->id,
				 table_err_code(rc));
		return;
	}
	int rc = can_start ? TABLE_ERR_FORBIDDEN : TABLE_ERR_WRONG_PHASE;
	const char *why = at->starting ? "the table's game is starting"
				       : "the table has already started";
	table_fail(s, m, rc, NULL, rc == TABLE_ERR_WRONG_PHASE ? why : err_text(rc));
}

void handle_choose(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	char err[256] = "";
	uint64_t decision = m->u.table.decision == PROTO_ABSENT ? 0
								 : (uint64_t)m->u.table.decision;
	if (m->u.table.decision == 0) {
		app_error(s, m->id, PROTO_E_WRONG_PHASE, "decision", "decisions count from 1");
		return;
	}
	int rc = table_choose(at->t, (uint64_t)s->pl->id, m->u.table.seat, decision,
			      m->u.table.choice, err, sizeof err);
	if (rc != TABLE_OK) {
		const char *field = rc == TABLE_ERR_ILLEGAL || rc == TABLE_ERR_BAD ? "choice"
				    : rc == TABLE_ERR_NOT_YOUR_SEAT	       ? "seat"
				    : rc == TABLE_ERR_WRONG_PHASE && decision  ? "decision"
									       : NULL;
		table_fail(s, m, rc, field, err[0] ? err : err_text(rc));
		return;
	}
	/* A takeover of an AI seat makes the player a member if it was not. */
	player_add_table(s->pl, at->id);
	app_ok(s, m->id);
	seq_checkpoint(s->app, at); /* a choice changed is a status update */
}

void handle_selecting(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	int rc = table_selecting(at->t, (uint64_t)s->pl->id);
	if (rc != TABLE_OK) {
		table_fail(s, m, rc, NULL, err_text(rc));
		return;
	}
	app_ok(s, m->id);
	seq_checkpoint(s->app, at);
}

void handle_table_sync(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	uint64_t since = m->u.table.since == PROTO_ABSENT ? 0 : (uint64_t)m->u.table.since;
	int rc = table_resume(at->t, (uint64_t)s->pl->id, since, NULL);
	if (rc != TABLE_OK)
		table_fail(s, m, rc, NULL, err_text(rc));
	else
		app_ok(s, m->id);
}

void handle_rematch(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	int rc = table_rematch(at->t, (uint64_t)s->pl->id);
	if (rc != TABLE_OK)
		table_fail(s, m, rc, NULL,
			   rc == TABLE_ERR_WRONG_PHASE ? "the game is not finished" : err_text(rc));
	else
		app_ok(s, m->id);
}

void handle_table_close(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	if (table_host_player(at->t) != (uint64_t)s->pl->id && !s->pl->admin) {
		app_error(s, m->id, PROTO_E_FORBIDDEN, NULL, "only the host may close the table");
		return;
	}
	app_ok(s, m->id);
	app_table_destroy(s->app, at, true);
}

/* ---- crash recovery ---- */

static const char *jstr(const cJSON *o, const char *k, const char *def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : def;
}

/* An integer field of a stored record in [lo, hi], else def: the database
 * is ours, but a damaged row must not become an out-of-range cast. */
static int64_t jint(const cJSON *o, const char *k, int64_t lo, int64_t hi, int64_t def)
{
	int64_t v;
	return proto_json_int(cJSON_GetObjectItemCaseSensitive(o, k), lo, hi, &v) ? v : def;
}

/* The saved shared state holds a restored game's first `folded` decisions
 * (its mark in app->folded; none: not even its creation). Fold the events
 * of the others now: replaying a prefix of the log gives the events that
 * are already in, the whole log all of them; the difference is missing. */
static void fold_missed(app *a, const game_kind *k, const store_live_table *lt,
			const table_settings *ts, const table_restore_info *info)
{
	int i = app_kind_index(k);
	if (i < 0 || !a->shared[i] || !k->shared_fold || !a->folded[i])
		return;
	char key[48];
	app_game_key(key, sizeof key, (uint64_t)lt->table_id, lt->started_at);
	const cJSON *mark = cJSON_GetObjectItemCaseSensitive(a->folded[i], key);
	int64_t marked = 0;
	bool none = !proto_json_int(mark, 0, INT64_MAX, &marked);
	size_t done = (size_t)marked;
	if (!none && done >= info->n)
		return;
	char err[200] = "";
	game_events all = {0}, before = {0};
	game_state *st = table_replay(k, ts->config, ts->seats, info->seed, info->shared,
				      info->log, info->n, &all, err, sizeof err);
	if (st)
		k->destroy(st);
	if (st && !none) {
		st = table_replay(k, ts->config, ts->seats, info->seed, info->shared, info->log,
				  done, &before, err, sizeof err);
		if (st)
			k->destroy(st);
	}
	if (st && all.len >= before.len) {
		k->shared_fold(a->shared[i], all.v + before.len, all.len - before.len);
		cJSON_DeleteItemFromObjectCaseSensitive(a->folded[i], key);
		cJSON_AddNumberToObject(a->folded[i], key, (double)info->n);
		app_shared_dirty(a, i);
		log_info("app", "table %lld: folded %zu missed event(s) into %s's shared state",
			 (long long)lt->table_id, all.len - before.len, k->name);
	} else if (!st) {
		log_error("app", "table %lld: shared state not caught up: %s",
			  (long long)lt->table_id, err);
	}
	game_events_free(&all);
	game_events_free(&before);
}

/* Rebuilds one table in play; false with the reason when its stored game
 * cannot be rebuilt exactly (the caller keeps it aside). */
static bool restore_one(app *a, const store_live_table *lt, char *err, size_t errlen)
{
	const game_kind *k = game_kind_find(lt->kind);
	cJSON *meta = cJSON_Parse(lt->meta_json ? lt->meta_json : "{}");
	cJSON *config = cJSON_Parse(lt->config_json ? lt->config_json : "");
	cJSON *seats = cJSON_Parse(lt->seats_json ? lt->seats_json : "");
	cJSON *shared = lt->shared_json ? cJSON_Parse(lt->shared_json) : NULL;
	game_choice *log = NULL;
	table *t = NULL;
	if (!k) {
		snprintf(err, errlen, "no game kind \"%s\" in this laird", lt->kind);
		goto out;
	}
	/* A damaged start record would rebuild another game: none is guessed. */
	if (!cJSON_IsObject(meta) || !cJSON_IsObject(config) || !cJSON_IsArray(seats) ||
	    (lt->shared_json && !shared)) {
		snprintf(err, errlen, "its start record is damaged");
		goto out;
	}
	table_settings ts = {
		.id = (uint64_t)lt->table_id,
		.lobby = (uint64_t)jint(meta, "lobby", 1, INT64_MAX, 1),
		.kind = k,
		.config = config,
		.seats = (int)jint(meta, "seats", 1, GAME_MAX_SEATS, 0),
		.private_table = cJSON_IsTrue(cJSON_GetObjectItem(meta, "private")),
		.host = (uint64_t)jint(meta, "host", 0, INT64_MAX, 0),
		.turn_timeout_ms = (int)jint(meta, "turn_timeout_ms", 0, INT32_MAX,
					     a->cfg->turn_timeout_ms),
		.window_ms = a->cfg->window_ms,
		.pacing_ms = (int)jint(meta, "pacing_ms", 0, INT32_MAX, a->cfg->ai_pacing_ms),
		.reveal_pause_ms = a->cfg->reveal_pause_ms,
		/* The game in play comes back with its own seed (info.seed); the
		 * table's next games draw theirs as before (an admin's fixed seed
		 * is the game's). */
		.fixed_seed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(meta, "fixed_seed")),
		.seed = lt->seed,
		.history_max = APP_TABLE_HISTORY_MAX,
		.history_bytes = APP_TABLE_HISTORY_BYTES,
	};
	strlcpy_safe(ts.name, jstr(meta, "name", "table"), sizeof ts.name);
	/* A private table's password: its hash; a row written before hashes
	 * were stored has the password itself, hashed now (and the row with
	 * it, below). */
	const char *plain = jstr(meta, "password", NULL);
	bool rehash = !cJSON_GetObjectItemCaseSensitive(meta, "password_hash") && plain && *plain;
	if (rehash && passhash_new(plain, ts.password) != 0) {
		snprintf(err, errlen, "cannot hash its password");
		goto out;
	}
	if (!rehash)
		strlcpy_safe(ts.password, jstr(meta, "password_hash", ""), sizeof ts.password);
	strlcpy_safe(ts.host_name, jstr(meta, "host_name", ""), sizeof ts.host_name);
	if (ts.seats < 1 || ts.seats > GAME_MAX_SEATS) {
		snprintf(err, errlen, "its start record has no valid seat count");
		goto out;
	}
	if (quarantine_read_log(lt, ts.seats, &log, err, errlen) != 0)
		goto out;
	table_restore_info info = {
		.seed = lt->seed,
		.shared = shared,
		.log = log,
		.n = lt->n_decisions,
		/* Rows from before the seq was stored: the older estimate. */
		.seq = lt->last_seq > 0 ? (uint64_t)lt->last_seq + SEQ_RESTART_JUMP
					: ((uint64_t)lt->n_decisions + 1) * SEQ_RESTART_JUMP,
	};
	const cJSON *pj;
	for (int i = 0; i < ts.seats; i++)
		info.seat_kind[i] = SEAT_AI;
	cJSON_ArrayForEach(pj, seats)
	{
		int seat = (int)jint(pj, "seat", 0, GAME_MAX_SEATS - 1, -1);
		if (seat < 0 || seat >= ts.seats)
			continue;
		int64_t pid = jint(pj, "player", 1, INT64_MAX, 0);
		if (pid > 0 && !cJSON_IsTrue(cJSON_GetObjectItem(pj, "ai"))) {
			info.seat_kind[seat] = SEAT_HUMAN;
			info.seat_player[seat] = (uint64_t)pid;
			info.seat_name[seat] = jstr(pj, "name", "");
		}
	}
	table_host h = host_of(a);
	t = table_restore(a->loop, &h, &ts, &info, err, errlen);
	if (!t)
		goto out;
	fold_missed(a, k, lt, &ts, &info);
	app_table *at = register_table(a, t, ts.lobby, jint(meta, "creator", 0, INT64_MAX, 0));
	at->live = true;
	at->started_at = lt->started_at;
	at->seats_saved = seats_text(t);
	/* Saved at once: a second crash before any write continues above
	 * this run's seqs, not at the same base again. */
	at->seq_saved = table_seq(t);
	char *new_meta = NULL;
	if (rehash) {
		cJSON_DeleteItemFromObjectCaseSensitive(meta, "password");
		cJSON_AddStringToObject(meta, "password_hash", ts.password);
		new_meta = proto_print(meta);
	}
	store_live_update(a->store, lt->table_id, NULL, new_meta, (int64_t)at->seq_saved, NULL,
			  NULL);
	free(new_meta);
	lobby *l = lobby_find(a, ts.lobby);
	if (!l) {
		l = lobby_find(a, 1);
		at->lobby = 1;
	}
	lobby_add_table(a, l, at);
	for (int i = 0; i < ts.seats; i++) {
		if (info.seat_kind[i] != SEAT_HUMAN)
			continue;
		player *p = player_offline(a, (int64_t)info.seat_player[i], info.seat_name[i]);
		player_add_table(p, at->id);
	}
	player *c = at->creator ? player_offline(a, at->creator, "") : NULL;
	if (c)
		c->hosted++;
	log_info("app", "table %" PRIu64 " restored at decision %zu", at->id, lt->n_decisions);
out:
	free(log);
	cJSON_Delete(meta);
	cJSON_Delete(config);
	cJSON_Delete(seats);
	cJSON_Delete(shared);
	return t != NULL;
}

/* Fold marks are kept for games in play only: those of games that did not
 * come back (kept aside, or gone with an older run) are dropped. */
static void prune_marks(app *a)
{
	for (int i = 0; i < APP_MAX_KINDS; i++) {
		if (!a->folded[i])
			continue;
		bool changed = false;
		for (cJSON *e = a->folded[i]->child, *next; e; e = next) {
			next = e->next;
			bool live = false;
			uint64_t no = e->string ? strtoull(e->string, NULL, 10) : 0;
			app_table *at = no ? app_table_find(a, no) : NULL;
			if (at) {
				char key[48];
				app_game_key(key, sizeof key, at->id, at->started_at);
				live = strcmp(key, e->string) == 0;
			}
			if (!live) {
				cJSON_Delete(cJSON_DetachItemViaPointer(a->folded[i], e));
				changed = true;
			}
		}
		if (changed)
			app_shared_dirty(a, i);
	}
}

void tables_restore(app *a)
{
	size_t n = 0;
	const store_live_table *v = store_live_tables(a->store, &n);
	for (size_t i = 0; i < n; i++) {
		char err[256] = "";
		if (v[i].quarantined)
			quarantine_still(a, &v[i]);
		else if (!restore_one(a, &v[i], err, sizeof err))
			quarantine_table(a, &v[i], err[0] ? err : "it could not be rebuilt");
	}
	store_live_tables_release(a->store);
	prune_marks(a);
}
