/*
 * handle_table.c — the table requests (PROTOCOL.md §6): create, join,
 * spectate, leave, AI seats, start, choose, selecting, sync, rematch,
 * close. Each checks what needs the app's state (the table exists, the
 * limits, the password), calls the table (table.h) and turns its answer
 * into the reply; the table's own updates go out through the host
 * (host.c). Private-table passwords are kept as salted hashes
 * (passhash.h), made and checked off the event loop (passcheck.h): such a
 * request goes on in a continuation (create_hashed, join, spectate) that
 * looks its table and lobby up again.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "app_int.h"
#include "host.h"
#include "iprate.h"
#include "live.h"
#include "lobby.h"
#include "passcheck.h"
#include "session.h"


static app_table *need_table(session *s, proto_msg *m)
{
	app_table *at = app_table_find(s->app, (uint64_t)m->u.table.table);
	if (!at || at->closing)
		app_error(s, m->id, PROTO_E_NOT_FOUND, "table", "no table %lld",
			  (long long)m->u.table.table);
	return at && !at->closing ? at : NULL;
}

/* The reply to a table function's error: its protocol code, and `what`
 * or else the error's own message. */
static void table_fail(session *s, proto_msg *m, enum table_err rc, const char *field,
		       const char *what)
{
	app_error(s, m->id, table_err_proto(rc), field, "%s", what ? what : table_err_message(rc));
}

/* Replies with the player's snapshot of the table, echoing id. */
static void reply_snapshot(session *s, app_table *at, const cJSON *id)
{
	cJSON *snap = table_snapshot_json(at->t, (uint64_t)s->pl->id);
	if (id)
		cJSON_AddItemToObject(snap, "id", cJSON_Duplicate(id, true));
	app_send(s, snap);
}

/* The checks of a table_create that need the app's state and change
 * nothing: made before its password is hashed and again after (the lobby
 * may have gone, a limit been reached meanwhile). False once the error is
 * sent. */
static bool create_allowed(session *s, proto_msg *m, const game_kind **kind, lobby **lobby_out)
{
	app *a = s->app;
	player *p = s->pl;
	const game_kind *k = game_kind_find(m->u.create.kind);
	if (!k) {
		app_error(s, m->id, PROTO_E_NOT_FOUND, "kind", "no game kind \"%s\"",
			  m->u.create.kind);
		return false;
	}
	int seats = m->u.create.seats;
	if (seats < k->min_seats || seats > k->max_seats) {
		app_error(s, m->id, PROTO_E_BAD_FIELD, "seats", "%s takes %d to %d seats", k->name,
			  k->min_seats, k->max_seats);
		return false;
	}
	if (m->u.create.has_seed && (!p->admin || !a->cfg->allow_fixed_seed)) {
		app_error(s, m->id, PROTO_E_FORBIDDEN, "seed",
			  p->admin ? "this server does not allow fixed seeds"
				   : "only an admin may fix a table's seed");
		return false;
	}
	lobby *l;
	if (m->u.create.lobby != PROTO_ABSENT) {
		l = lobby_find(a, (uint64_t)m->u.create.lobby);
		if (!l) {
			app_error(s, m->id, PROTO_E_NOT_FOUND, "lobby", "no lobby %lld",
				  (long long)m->u.create.lobby);
			return false;
		}
	} else {
		l = p->lobby ? p->lobby : lobby_find(a, 1);
	}
	if (a->cfg->max_tables_per_lobby > 0 &&
	    l->n_tables >= (size_t)a->cfg->max_tables_per_lobby) {
		app_error(s, m->id, PROTO_E_LIMIT_REACHED, NULL, "this lobby has %d tables already",
			  a->cfg->max_tables_per_lobby);
		return false;
	}
	if (a->cfg->max_tables_per_player > 0 && p->hosted >= a->cfg->max_tables_per_player) {
		app_error(s, m->id, PROTO_E_LIMIT_REACHED, NULL,
			  "you have created %d tables already; close one", p->hosted);
		return false;
	}
	*kind = k;
	*lobby_out = l;
	return true;
}

/* Creates the table of a request create_allowed passed, with its
 * password's hash (or none). */
static void create_table(session *s, proto_msg *m, const game_kind *k, lobby *l,
			 const char *hash)
{
	app *a = s->app;
	player *p = s->pl;
	int seats = m->u.create.seats;
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
	/* The table keeps the password's salted hash only (passhash.h). */
	strlcpy_safe(ts.password, hash, sizeof ts.password);
	strlcpy_safe(ts.host_name, p->name, sizeof ts.host_name);

	char err[256] = "";
	table_host h = host_callbacks(a);
	table *t = table_new(a->loop, &h, &ts, err, sizeof err);
	if (!t) {
		app_error(s, m->id, m->u.create.config ? PROTO_E_BAD_FIELD : PROTO_E_BAD_MESSAGE,
			  m->u.create.config ? "config" : NULL, "%s", err);
		return;
	}
	a->next_table_id++;
	/* In no lobby until lobby_add_table below: the lobby hears of the
	 * new table once, whole, not of each seat filled on the way. */
	app_table *at = app_table_add(a, t, 0, p->id);
	p->hosted++;

	/* The creator's own updates are in the snapshot it gets as the reply. */
	int ai = m->u.create.ai;
	enum table_err rc;
	if (ai == seats)
		rc = table_spectate(t, (uint64_t)p->id, p->name, ts.password, TABLE_NOTIFY_OTHERS);
	else
		rc = table_join(t, (uint64_t)p->id, p->name, 0, ts.password, NULL,
				TABLE_NOTIFY_OTHERS);
	for (int i = 0; rc == TABLE_OK && i < ai; i++)
		rc = table_add_ai(t, (uint64_t)p->id, ai == seats ? i : i + 1, NULL,
				  TABLE_NOTIFY_OTHERS);
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

static void create_hashed(session *s, proto_msg *m, const passcheck_result *r)
{
	const game_kind *k;
	lobby *l;
	if (!r->ok)
		app_error(s, m->id, PROTO_E_INTERNAL, NULL, "cannot hash the password");
	else if (create_allowed(s, m, &k, &l))
		create_table(s, m, k, l, r->hash);
}

void handle_table_create(session *s, proto_msg *m)
{
	const game_kind *k;
	lobby *l;
	if (!create_allowed(s, m, &k, &l))
		return;
	/* Only a private table asks for its password (table.c). */
	if (m->u.create.is_private && m->u.create.password)
		passcheck_start(s, m, PASSCHECK_NEW, m->u.create.password, NULL, create_hashed);
	else
		create_table(s, m, k, l, "");
}

/* True when a join or watch request's password must be checked: a
 * private table, an attempt given, and the player neither its host nor at
 * it already (the table does not ask them; a missing attempt fails without
 * a hash). */
static bool password_to_check(const app_table *at, const session *s, const proto_msg *m)
{
	const table_settings *ts = table_get_settings(at->t);
	uint64_t me = (uint64_t)s->pl->id;
	return m->u.table.password && ts->private_table && ts->host != me &&
	       !table_has_member(at->t, me);
}

/* What the table is given as the password: the request's own when no check
 * was needed; after a check, the table's hash when the attempt matched
 * (table.c compares the two), else nothing. */
static const char *password_for_table(const app_table *at, const proto_msg *m,
				      const passcheck_result *checked)
{
	if (!checked)
		return m->u.table.password;
	return checked->ok ? table_get_settings(at->t)->password : NULL;
}

static void join(session *s, proto_msg *m, const passcheck_result *checked)
{
	app_table *at = need_table(s, m); /* again after a check: it may have closed */
	if (!at)
		return;
	/* Its own seat change is in the snapshot it gets as the reply. */
	enum table_err rc = table_join(at->t, (uint64_t)s->pl->id, s->pl->name, m->u.table.seat,
				       password_for_table(at, m, checked), NULL,
				       TABLE_NOTIFY_OTHERS);
	if (rc != TABLE_OK) {
		table_fail(s, m, rc, rc == TABLE_ERR_PASSWORD ? "password"
				     : m->u.table.seat != PROTO_ABSENT ? "seat" : NULL, NULL);
		return;
	}
	player_add_table(s->pl, at->id);
	reply_snapshot(s, at, m->id);
}

static void spectate(session *s, proto_msg *m, const passcheck_result *checked)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	enum table_err rc = table_spectate(at->t, (uint64_t)s->pl->id, s->pl->name,
					   password_for_table(at, m, checked),
					   TABLE_NOTIFY_OTHERS);
	if (rc != TABLE_OK) {
		table_fail(s, m, rc, rc == TABLE_ERR_PASSWORD ? "password" : NULL, NULL);
		return;
	}
	player_add_table(s->pl, at->id);
	reply_snapshot(s, at, m->id);
}

/* A join or watch request: at once, or after its password is checked off
 * the loop (passcheck.h). */
static void join_or_watch(session *s, proto_msg *m, passcheck_fn then)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	if (password_to_check(at, s, m))
		passcheck_start(s, m, PASSCHECK_VERIFY, m->u.table.password,
				table_get_settings(at->t)->password, then);
	else
		then(s, m, NULL);
}

void handle_table_join(session *s, proto_msg *m) { join_or_watch(s, m, join); }

void handle_take_seat(session *s, proto_msg *m) { join_or_watch(s, m, join); }

void handle_table_spectate(session *s, proto_msg *m) { join_or_watch(s, m, spectate); }

void handle_table_leave(session *s, proto_msg *m)
{
	app *a = s->app;
	app_table *at = need_table(s, m);
	if (!at)
		return;
	enum table_err rc = table_leave(at->t, (uint64_t)s->pl->id);
	if (rc != TABLE_OK) {
		table_fail(s, m, rc, NULL, NULL);
		return;
	}
	player_remove_table(a, s->pl, at->id);
	app_ok(s, m->id);
	app_table_close_if_empty(a, at);
}

void handle_table_add_ai(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	enum table_err rc = table_add_ai(at->t, (uint64_t)s->pl->id, m->u.table.seat, NULL,
					 TABLE_NOTIFY_ALL);
	if (rc != TABLE_OK)
		table_fail(s, m, rc, m->u.table.seat != PROTO_ABSENT ? "seat" : NULL, NULL);
	else
		app_ok(s, m->id);
}

void handle_table_remove_ai(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	enum table_err rc = table_remove_ai(at->t, (uint64_t)s->pl->id, m->u.table.seat);
	if (rc != TABLE_OK)
		table_fail(s, m, rc, "seat", NULL);
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
		enum table_err rc = table_start(at->t, (uint64_t)s->pl->id);
		if (rc != TABLE_OK)
			log_warn("app", "table %" PRIu64 " did not start: %s", at->id,
				 table_err_code(rc));
		return;
	}
	enum table_err rc = can_start ? TABLE_ERR_FORBIDDEN : TABLE_ERR_WRONG_PHASE;
	const char *why = at->starting ? "the table's game is starting"
				       : "the table has already started";
	table_fail(s, m, rc, NULL, rc == TABLE_ERR_WRONG_PHASE ? why : NULL);
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
	enum table_err rc = table_choose(at->t, (uint64_t)s->pl->id, m->u.table.seat, decision,
			      m->u.table.choice, err, sizeof err);
	if (rc != TABLE_OK) {
		const char *field = rc == TABLE_ERR_ILLEGAL || rc == TABLE_ERR_BAD ? "choice"
				    : rc == TABLE_ERR_NOT_YOUR_SEAT	       ? "seat"
				    : rc == TABLE_ERR_WRONG_PHASE && decision  ? "decision"
									       : NULL;
		table_fail(s, m, rc, field, err[0] ? err : NULL);
		return;
	}
	/* A takeover of an AI seat makes the player a member if it was not. */
	player_add_table(s->pl, at->id);
	app_ok(s, m->id);
	live_seq_checkpoint(s->app, at); /* a choice changed is a status update */
}

void handle_selecting(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	enum table_err rc = table_selecting(at->t, (uint64_t)s->pl->id);
	if (rc != TABLE_OK) {
		table_fail(s, m, rc, NULL, NULL);
		return;
	}
	app_ok(s, m->id);
	live_seq_checkpoint(s->app, at);
}

void handle_table_sync(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	uint64_t since = m->u.table.since == PROTO_ABSENT ? 0 : (uint64_t)m->u.table.since;
	enum table_err rc = table_resume(at->t, (uint64_t)s->pl->id, since, NULL);
	if (rc != TABLE_OK)
		table_fail(s, m, rc, NULL, NULL);
	else
		app_ok(s, m->id);
}

void handle_rematch(session *s, proto_msg *m)
{
	app_table *at = need_table(s, m);
	if (!at)
		return;
	enum table_err rc = table_rematch(at->t, (uint64_t)s->pl->id);
	if (rc != TABLE_OK)
		table_fail(s, m, rc, NULL,
			   rc == TABLE_ERR_WRONG_PHASE ? "the game is not finished" : NULL);
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
