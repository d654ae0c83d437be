/*
 * app.c — laird's application layer: the entry points net calls (open,
 * message, close), decoding and dispatch of protocol v1 requests to the
 * handler modules (session.c, lobby.c, handle_table.c, handle_stats.c, admin.c,
 * one file per group of requests as tmux does), replies and errors, the
 * app's timers (the reaper, the once-a-second sweep) and its metrics.
 *
 * Ordering: every request is answered exactly once, in the order received.
 * A handler that must wait for the store marks the session busy; frames
 * that arrive meanwhile wait in the session's queue (bounded) and are
 * handled when the store answers.
 */
#include "app_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/log.h"
#include "admin.h"
#include "cluster.h"
#include "iprate.h"
#include "lobby.h"
#include "metrics.h"
#include "passcheck.h"
#include "quarantine.h"
#include "session.h"
#include "shared.h"

typedef void (*handler_fn)(session *s, proto_msg *m);

static const struct {
	handler_fn fn;
	bool before_hello; /* allowed before hello */
	bool new_work;     /* refused with draining during shutdown */
} handlers[PROTO_TYPE_COUNT] = {
	[PROTO_HELLO] = {handle_hello, true, true},
	[PROTO_PING] = {handle_ping, true, false},
	[PROTO_RENAME] = {handle_rename, false, true},
	[PROTO_LOBBY_LIST] = {handle_lobby_list, false, false},
	[PROTO_LOBBY_JOIN] = {handle_lobby_join, false, true},
	[PROTO_LOBBY_LEAVE] = {handle_lobby_leave, false, false},
	[PROTO_CHAT] = {handle_chat, false, false},
	[PROTO_TABLE_LIST] = {handle_table_list, false, false},
	[PROTO_TABLE_CREATE] = {handle_table_create, false, true},
	[PROTO_TABLE_JOIN] = {handle_table_join, false, true},
	[PROTO_TABLE_SPECTATE] = {handle_table_spectate, false, true},
	[PROTO_TABLE_LEAVE] = {handle_table_leave, false, false},
	[PROTO_TABLE_ADD_AI] = {handle_table_add_ai, false, true},
	[PROTO_TABLE_REMOVE_AI] = {handle_table_remove_ai, false, true},
	[PROTO_TABLE_START] = {handle_table_start, false, true},
	[PROTO_CHOOSE] = {handle_choose, false, false},
	[PROTO_SELECTING] = {handle_selecting, false, false},
	[PROTO_TAKE_SEAT] = {handle_take_seat, false, true},
	[PROTO_TABLE_SYNC] = {handle_table_sync, false, false},
	[PROTO_REMATCH] = {handle_rematch, false, true},
	[PROTO_TABLE_CLOSE] = {handle_table_close, false, false},
	/* read-only queries need no identity (PROTOCOL.md §8) */
	[PROTO_STATS] = {handle_stats, true, false},
	[PROTO_ACHIEVEMENTS] = {handle_achievements, true, false},
	[PROTO_SERVER_STATS] = {handle_server_stats, true, false},
	[PROTO_RECORDS] = {handle_records, true, false},
	/* the page lobby_list gives (the admin role is checked above) */
	[PROTO_ADMIN_LOBBIES] = {handle_lobby_list, false, false},
	[PROTO_ADMIN_LOBBY_CREATE] = {handle_admin_lobby_create, false, true},
	[PROTO_ADMIN_LOBBY_CLOSE] = {handle_admin_lobby_close, false, false},
	[PROTO_ADMIN_TABLES] = {handle_admin_tables, false, false},
	[PROTO_ADMIN_TABLE_CLOSE] = {handle_admin_table_close, false, false},
	[PROTO_ADMIN_PLAYERS] = {handle_admin_players, false, false},
	[PROTO_ADMIN_KICK] = {handle_admin_kick, false, false},
	[PROTO_ADMIN_STATS] = {handle_admin_stats, false, false},
	[PROTO_ADMIN_QUARANTINED] = {handle_admin_quarantined, false, false},
	[PROTO_ADMIN_QUARANTINED_DROP] = {handle_admin_quarantined_drop, false, false},
	[PROTO_ADMIN_PLAYERS_PRUNE] = {handle_admin_players_prune, false, false},
};

int64_t app_unix_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int app_kind_index(const game_kind *k)
{
	for (int i = 0; i < game_kind_count() && i < APP_MAX_KINDS; i++)
		if (game_kind_at(i) == k)
			return i;
	return -1;
}

/* ---- life ---- */

static void reaper_cb(uv_timer_t *t);
static void sweep_cb(uv_timer_t *t);

app *app_new(uv_loop_t *loop, const laird_config *cfg, struct store *st, struct net *n)
{
	app *a = xcalloc(1, sizeof *a);
	a->loop = loop;
	a->cfg = cfg;
	a->store = st;
	a->net = n;
	a->next_lobby_id = 1;
	a->next_table_id = 1;
	a->started_ms = now_ms();
	a->abandon_ms = APP_TABLE_ABANDON_MS;
	const char *ov = getenv("LAIR_TABLE_ABANDON_MS");
	if (ov && atoi(ov) > 0)
		a->abandon_ms = (uint64_t)atoi(ov);
	a->reaper = xcalloc(1, sizeof *a->reaper);
	uv_timer_init(loop, a->reaper);
	a->reaper->data = a;
	a->sweep = xcalloc(1, sizeof *a->sweep);
	uv_timer_init(loop, a->sweep);
	a->sweep->data = a;
	uv_timer_start(a->sweep, sweep_cb, 1000, 1000);
	a->new_tables = iprate_new(cfg->new_tables_per_ip_min, 60 * 1000);
	a->new_players = iprate_new(cfg->new_players_per_ip_hour, 3600 * 1000);
	lobby_new(a, "main"); /* the default lobby, id 1 */
	if (st) {
		shared_load(a);
		tables_restore(a);
		admin_first_token(a);
	}
	return a;
}

static void free_handle(uv_handle_t *h) { free(h); }

/* The timers' handles outlive the app until libuv has closed them. */
static void timers_close(app *a)
{
	if (a->reaper) {
		uv_timer_stop(a->reaper);
		uv_close((uv_handle_t *)a->reaper, free_handle);
		a->reaper = NULL;
	}
	if (a->sweep) {
		uv_timer_stop(a->sweep);
		uv_close((uv_handle_t *)a->sweep, free_handle);
		a->sweep = NULL;
	}
}

/* Closes connections that have not said hello within hello_timeout_sec. */
static void sweep_cb(uv_timer_t *t)
{
	app *a = t->data;
	uint64_t limit = (uint64_t)a->cfg->hello_timeout_sec * 1000, now = now_ms();
	for (session *s = a->sessions; limit && s; s = s->next)
		if (s->state == SESSION_NEW && !s->busy && now - s->opened_ms >= limit)
			conn_close(s->c, NET_CLOSE_NORMAL, "no hello in time");
	tables_sweep(a);
	iprate_sweep(a->new_tables, now);
	iprate_sweep(a->new_players, now);
}

void app_free(app *a)
{
	if (!a)
		return;
	cluster_close(a->cluster);
	/* Sessions normally end through on_close; any left are freed here. */
	while (a->sessions)
		session_free(a->sessions);
	tables_free_all(a);
	for (size_t i = 0; i < a->n_lobbies; i++)
		lobby_free(a->lobbies[i]);
	free(a->lobbies);
	size_t it = 0;
	player *p;
	while ((p = idmap_next(&a->players, &it, NULL))) {
		free(p->tables);
		free(p);
	}
	idmap_free(&a->players);
	idmap_free(&a->tables);
	iprate_free(a->new_tables);
	iprate_free(a->new_players);
	shared_free(a);
	timers_close(a);
	free(a);
}

/* The tables stop, once: in cluster mode the others are told what goes;
 * the tables in play stay live in the store, for a taker or the next
 * start to restore at the same decision; their timers stop. */
static void stop_tables(app *a)
{
	if (a->tables_stopped)
		return;
	a->tables_stopped = true;
	cluster_drain(a);
	tables_free_all(a);
}

bool app_handover(app *a, void (*done)(void *ud), void *ud)
{
	if (!a->cluster || a->draining)
		return false;
	a->draining = true; /* new work refused from now on */
	stop_tables(a);
	cluster_handover(a, done, ud);
	return true;
}

void app_drain(app *a)
{
	if (a->drained)
		return;
	a->drained = a->draining = true;
	cJSON *bye = proto_new("bye", NULL);
	cJSON_AddStringToObject(bye, "reason", "shutdown");
	char *text = proto_print(bye);
	for (session *s = a->sessions; s; s = s->next)
		app_send_text(s, text, strlen(text));
	free(text);
	cJSON_Delete(bye);
	stop_tables(a);
	/* Closed here so the loop can finish closing it before uv_run ends. */
	timers_close(a);
}

int app_cluster_open(app *a, int64_t node_id, char *err, size_t errlen)
{
	return cluster_open(a, node_id, err, errlen) ? 0 : -1;
}

void app_cluster_close(app *a)
{
	if (a)
		cluster_close(a->cluster);
}

/* ---- sending ---- */

void app_send_text(session *s, const char *text, size_t len)
{
	if (s && !s->c && s->cl) /* a remote player's stand-in (cluster.h) */
		cluster_send_remote(s, text, len);
	if (!s || !s->c)
		return;
	s->app->msgs_out++;
	conn_send(s->c, text, len);
}

void app_send(session *s, cJSON *msg)
{
	if (s && (s->c || s->cl)) {
		char *text = proto_print(msg);
		app_send_text(s, text, strlen(text));
		free(text);
	}
	cJSON_Delete(msg);
}

void app_send_player(app *a, int64_t id, cJSON *msg)
{
	player *p = player_find(a, id);
	app_send(p ? p->sess : NULL, msg);
}

void app_ok(session *s, const cJSON *id) { app_send(s, proto_new("ok", id)); }

void app_error(session *s, const cJSON *id, enum proto_err code, const char *field,
	       const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if ((int)code > 0 && code < PROTO_ERR_COUNT)
		s->app->errors[code]++;
	app_send(s, proto_error_new(id, code, field, msg));
}

uint64_t app_errors(const app *a, enum proto_err code)
{
	uint64_t n = a->errors[code];
	if (code == PROTO_E_RATE_LIMITED && a->net)
		n += net_rate_limited(a->net);
	return n;
}

/* ---- the reaper: table closes requested inside table callbacks ---- */

void app_table_close_later(app *a, app_table *at)
{
	if (at)
		at->closing = true;
	if (!a->reaper_armed && a->reaper) {
		a->reaper_armed = true;
		uv_timer_start(a->reaper, reaper_cb, 0, 0);
	}
}

static void reaper_cb(uv_timer_t *t)
{
	app *a = t->data;
	a->reaper_armed = false;
	/* Collect first: destroying changes the map. */
	size_t n = 0, cap = 0;
	app_table **v = NULL;
	size_t it = 0;
	app_table *at;
	while ((at = idmap_next(&a->tables, &it, NULL))) {
		if (!at->closing)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xrealloc(v, cap * sizeof *v);
		}
		v[n++] = at;
	}
	for (size_t i = 0; i < n; i++)
		app_table_destroy(a, v[i], true);
	free(v);
}

/* ---- net's entry points ---- */

void app_on_open(app *a, struct conn *c)
{
	session *s = session_new(a, c);
	conn_set_user(c, s);
}

void app_dispatch(session *s, proto_msg *m)
{
	app *a = s->app;
	if (s->state == SESSION_GONE)
		return;
	if (s->state != SESSION_READY && !handlers[m->type].before_hello) {
		if (!s->c)
			return;
		app_error(s, m->id, PROTO_E_NOT_HELLO, NULL,
			  "the first request must be hello {protocol: 1, name | token}");
		return;
	}
	if (a->draining && handlers[m->type].new_work) {
		app_error(s, m->id, PROTO_E_DRAINING, NULL, "the server is shutting down");
		return;
	}
	if (proto_type_is_admin(m->type) && !s->pl->admin) {
		app_error(s, m->id, PROTO_E_FORBIDDEN, NULL, "%s needs the admin role",
			  proto_type_name(m->type));
		return;
	}
	handlers[m->type].fn(s, m);
}

static void handle_frame(session *s, const char *text, size_t len)
{
	proto_msg m;
	proto_error err;
	if (proto_decode(text, len, &m, &err) != PROTO_OK) {
		s->app->errors[err.code]++;
		/* version_unsupported carries the list of versions spoken. */
		app_send(s, proto_error_from(m.id, &err));
	} else if (!cluster_forward(s, &m, text, len)) {
		app_dispatch(s, &m);
	}
	proto_msg_free(&m);
}

void app_on_message(app *a, struct conn *c, const char *text, size_t len)
{
	session *s = conn_user(c);
	if (!s || s->state == SESSION_GONE)
		return;
	a->msgs_in++;
	if (s->busy) {
		if (s->q_len == SESSION_QUEUE_MAX) {
			app_error(s, NULL, PROTO_E_RATE_LIMITED, NULL,
				  "too many requests waiting for an answer; dropped");
			return;
		}
		if (!s->queue)
			s->queue = xcalloc(SESSION_QUEUE_MAX, sizeof *s->queue);
		queued_frame *q = &s->queue[(s->q_head + s->q_len++) % SESSION_QUEUE_MAX];
		q->text = xmalloc(len + 1);
		memcpy(q->text, text, len);
		q->text[len] = 0;
		q->len = len;
		return;
	}
	handle_frame(s, text, len);
}

void app_session_unbusy(session *s)
{
	s->busy = false;
	s->req = NULL;
	cJSON_Delete(s->req_id);
	s->req_id = NULL;
	while (!s->busy && s->q_len > 0 && s->c && s->state != SESSION_GONE) {
		queued_frame q = s->queue[s->q_head];
		s->q_head = (s->q_head + 1) % SESSION_QUEUE_MAX;
		s->q_len--;
		handle_frame(s, q.text, q.len);
		free(q.text);
	}
	if (s->cl)
		cluster_request_done(s);
}

void app_session_end(session *s)
{
	s->state = SESSION_GONE;
	for (; s->q_len > 0; s->q_len--) {
		free(s->queue[s->q_head].text);
		s->q_head = (s->q_head + 1) % SESSION_QUEUE_MAX;
	}
}

void app_on_close(app *a, struct conn *c)
{
	(void)a;
	session *s = conn_user(c);
	if (!s)
		return;
	conn_set_user(c, NULL);
	session_free(s);
}

/* ---- metrics ---- */

void app_census_take(app *a, app_census *c)
{
	*c = (app_census){0};
	for (session *s = a->sessions; s; s = s->next)
		c->players_online += s->pl != NULL;
	size_t it = 0;
	app_table *at;
	while ((at = idmap_next(&a->tables, &it, NULL))) {
		c->tables[table_get_state(at->t)]++;
		c->spectators += (size_t)table_spectators(at->t);
	}
}

void app_metrics(app *a, buf *out)
{
	app_census c;
	app_census_take(a, &c);
	metrics_gauge(out, "lair_players_online", "Players with a live connection.",
		      (double)c.players_online);
	metrics_gauge(out, "lair_lobbies", "Lobbies.", (double)a->n_lobbies);
	metrics_family(out, "lair_tables", "gauge", "Tables by state.");
	for (int st = 0; st < TABLE_STATE_COUNT; st++)
		metrics_sample_l(out, "lair_tables", "state", table_state_name(st),
				 (double)c.tables[st]);
	metrics_counter(out, "lair_decisions_resolved_total", "Decisions resolved at tables.",
			(double)a->decisions);
	metrics_histogram(out, "lair_decision_reveal_seconds",
			  "Window close to the reveal sent (the decision logged in the store first).",
			  &a->reveal);
	metrics_histogram(out, "lair_window_close_late_seconds",
			  "How late a window's timer ran after the window's end (not in the above).",
			  &a->close_late);
	metrics_histogram(out, "lair_decision_durable_seconds",
			  "Window close to the decision durable, as the event loop learns it.",
			  &a->durable);
	metrics_histogram(out, "lair_decision_reveal_send_seconds",
			  "The decision durable to its reveal written to every seat.",
			  &a->reveal_send);
	metrics_counter(out, "lair_decision_durable_slow_total",
			"Decisions that waited 20 ms or more for the store.", (double)a->durable_slow);
	metrics_gauge(out, "lair_decision_durable_max_seconds",
		      "Longest window close to decision logged, since start.",
		      (double)a->durable_us_max / 1e6);
	metrics_family(out, "lair_games_started_total", "counter", "Games begun, by kind.");
	for (int i = 0; i < game_kind_count() && i < APP_MAX_KINDS; i++)
		metrics_sample_l(out, "lair_games_started_total", "kind", game_kind_at(i)->name,
				 (double)a->kind_started[i]);
	metrics_family(out, "lair_games_finished_total", "counter",
		       "Games played to the end (result sent), by kind.");
	for (int i = 0; i < game_kind_count() && i < APP_MAX_KINDS; i++)
		metrics_sample_l(out, "lair_games_finished_total", "kind", game_kind_at(i)->name,
				 (double)a->kind_finished[i]);
	metrics_gauge(out, "lair_spectators", "Spectators, summed over the tables.",
		      (double)c.spectators);
	metrics_gauge(out, "lair_password_checks_in_flight",
		      "Password hashes queued or running on the thread pool.",
		      (double)passcheck_in_flight());
	metrics_gauge(out, "lair_password_checks_max",
		      "Password hashes allowed in flight; past it a request gets busy.",
		      (double)passcheck_max());
	metrics_counter(out, "lair_password_checks_total",
			"Password hashes handed to the thread pool.", (double)passcheck_started());
	metrics_counter(out, "lair_app_messages_in_total", "Frames handed to the app.",
			(double)a->msgs_in);
	metrics_counter(out, "lair_app_messages_out_total", "Messages the app sent.",
			(double)a->msgs_out);
	metrics_family(out, "lair_errors_total", "counter", "Error replies by code.");
	for (int i = 1; i < PROTO_ERR_COUNT; i++)
		metrics_sample_l(out, "lair_errors_total", "code", proto_err_code(i),
				 (double)app_errors(a, (enum proto_err)i));
	cluster_metrics(a->cluster, out);
}
