/*
 * durable.c — see durable.h. A write travels with its store request; while
 * the store fails it waits in its table's retry slot for the next try.
 */
#include "durable.h"

#include <inttypes.h>
#include <stdlib.h>

#include "../common/log.h"
#include "cluster.h"
#include "record.h"
#include "session.h"
#include "shared.h"

/* A decision (or a finished game's record) a table waits for. */
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

static const char *what(const pending_write *w)
{
	return w->record ? "the record of game" : "decision";
}

static void free_handle(uv_handle_t *h) { free(h); }

void durable_forget(app_table *at)
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
			  "retrying", w->table, what(w), w->n, store_strerror(err));
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
			 "failed tries (%" PRIu64 " ms)", w->table, what(w), w->n, w->tries,
			 now_ms() - w->first_ms);
	pw_free(w);
}

/* ---- decisions ---- */

/* Decision n is durable: revealed. Times each part of window close ->
 * reveal sent (app_int.h). */
static void reveal_now(app *a, app_table *at, uint64_t n)
{
	uint64_t close_us = at->close_us; /* 0: resolved while being restored, not timed */
	uint64_t durable_ns = now_ns();
	table_decision_durable(at->t, n);
	if (!close_us)
		return;
	uint64_t sent_ns = now_ns(), waited = durable_ns / 1000 - close_us;
	if (waited > a->durable_us_max)
		a->durable_us_max = waited;
	if (waited >= 20000)
		a->durable_slow++;
	metrics_hist_observe(&a->durable, (double)waited / 1e6);
	metrics_hist_observe(&a->reveal_send, (double)(sent_ns - durable_ns) / 1e9);
	metrics_hist_observe(&a->reveal, (double)(sent_ns / 1000 - close_us) / 1e6);
}

static void decision_written(void *ud, int err)
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

void durable_decision(app *a, app_table *at, table *t, uint64_t n, const game_choice *choices,
		      int seats)
{
	a->decisions++;
	if (at)
		at->close_us = now_ns() / 1000;
	int64_t late = table_close_late_us(t);
	if (late >= 0)
		metrics_hist_observe(&a->close_late, (double)late / 1e6);
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

/* ---- records ---- */

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

/* Nothing of the record was written (one transaction): the live table
 * stays, and so does the game's delta (shared.h), which a restart would
 * rebuild from its log. Written: the delta is in the kind's values. */
static void game_recorded(void *ud, int err, int64_t id, const store_stat *shared, size_t n)
{
	pending_write *w = ud;
	app *a = w->a;
	app_table *at = app_table_find(a, w->table);
	if (err == STORE_OK)
		cluster_shared_recorded(a, shared, n);
	if (!at) {
		if (err == STORE_OK)
			shared_base_merge(a, shared, n);
		pw_free(w);
	} else if (err != STORE_OK) {
		write_failed(at, w, err);
	} else {
		log_debug("app", "game %lld recorded", (long long)id);
		uint64_t game = w->n;
		write_done(w);
		/* The record ended the live table and merged the game's delta. */
		at->live = false;
		shared_game_done(a, at, shared, n);
		kinds_finished(a, at);
		table_finished_durable(at->t, game);
	}
}

/* Built afresh for each try (the shared state moves on meanwhile). */
static bool submit_record(pending_write *w, app_table *at)
{
	app *a = w->a;
	int64_t *delta = shared_delta_values(a, at);
	record r;
	record_build(&r, at->t, delta, at->started_at, app_unix_ms(),
		     at->live ? (int64_t)at->id : 0);
	free(delta);
	bool queued = store_game_finish(a->store, &r.g, game_recorded, w) != NULL;
	record_free(&r);
	return queued;
}

void durable_record(app *a, app_table *at, uint64_t game)
{
	if (!a->store || !table_game(at->t)) {
		table_finished_durable(at->t, game);
		return;
	}
	pending_write *w = xcalloc(1, sizeof *w);
	*w = (pending_write){.a = a, .table = at->id, .n = game, .record = true};
	submit_write(w);
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
					     w->choices, (int64_t)w->last_seq, decision_written,
					     w) != NULL;
	}
	if (!queued) {
		/* The store is shutting down (the table goes with the app):
		 * nothing is shown that was not written. */
		log_warn("app", "table %" PRIu64 ": %s %" PRIu64 " not written: the store is "
			 "closing", w->table, what(w), w->n);
		pw_free(w);
	}
}
