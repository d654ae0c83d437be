/*
 * session.c — see session.h. hello goes to the store (create or look up
 * the player) and the session waits, busy, for the answer: requests sent
 * meanwhile are answered after the welcome, in order.
 */
#include "session.h"

#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "cluster.h"
#include "iprate.h"
#include "lobby.h"
#include "passcheck.h"

session *session_new(app *a, conn *c)
{
	session *s = xcalloc(1, sizeof *s);
	s->app = a;
	s->c = c;
	s->opened_ms = now_ms();
	s->next = a->sessions;
	if (a->sessions)
		a->sessions->prev = s;
	a->sessions = s;
	a->n_sessions++;
	return s;
}

/* ---- players ---- */

player *player_find(app *a, int64_t id) { return idmap_get(&a->players, (uint64_t)id); }

static player *player_get(app *a, int64_t id, const char *name, bool admin)
{
	player *p = player_find(a, id);
	if (!p) {
		p = xcalloc(1, sizeof *p);
		p->id = id;
		idmap_put(&a->players, (uint64_t)id, p);
	}
	strlcpy_safe(p->name, name, sizeof p->name);
	p->admin = admin;
	return p;
}

player *player_offline(app *a, int64_t id, const char *name)
{
	player *p = player_find(a, id);
	return p ? p : player_get(a, id, name, false);
}

void player_add_table(player *p, uint64_t table_no)
{
	for (int i = 0; i < p->n_tables; i++)
		if (p->tables[i] == table_no)
			return;
	if (p->n_tables == p->cap_tables) {
		p->cap_tables = p->cap_tables ? p->cap_tables * 2 : 4;
		p->tables = xrealloc(p->tables, (size_t)p->cap_tables * sizeof *p->tables);
	}
	p->tables[p->n_tables++] = table_no;
}

void player_remove_table(app *a, player *p, uint64_t table_no)
{
	for (int i = 0; i < p->n_tables; i++) {
		if (p->tables[i] == table_no) {
			p->tables[i] = p->tables[--p->n_tables];
			break;
		}
	}
	player_release(a, p);
}

void player_release(app *a, player *p)
{
	if (p->sess || p->n_tables > 0 || p->hosted > 0)
		return;
	idmap_del(&a->players, (uint64_t)p->id);
	free(p->tables);
	free(p);
}

/* ---- connection end ---- */

static void detach_player(session *s)
{
	player *p = s->pl;
	if (!p)
		return;
	s->pl = NULL;
	if (p->sess != s)
		return; /* replaced by a newer connection */
	p->sess = NULL;
	lobby_leave_player(s->app, p);
	tables_player_connected(s->app, p, false);
	cluster_player_left(s->app, p);
	player_release(s->app, p);
}

void session_free(session *s)
{
	app *a = s->app;
	if (s->req)
		store_cancel(s->req);
	passcheck_detach(s);
	free(s->req_ctx);
	cJSON_Delete(s->req_id);
	cJSON_Delete(s->resume);
	for (int i = 0; i < s->q_len; i++)
		free(s->queue[(s->q_head + i) % SESSION_QUEUE_MAX].text);
	free(s->queue);
	cluster_session_gone(s);
	detach_player(s);
	if (s->prev)
		s->prev->next = s->next;
	else
		a->sessions = s->next;
	if (s->next)
		s->next->prev = s->prev;
	a->n_sessions--;
	free(s);
}

/* ---- hello ---- */

void session_replaced(session *old)
{
	cJSON *bye = proto_new("bye", NULL);
	cJSON_AddStringToObject(bye, "reason", "replaced");
	app_send(old, bye);
	old->pl = NULL;
	/* What it still had queued must not run: a queued hello would take the
	 * player back from the newer connection. */
	app_session_end(old);
	conn_close(old->c, NET_CLOSE_NORMAL, "replaced by a newer connection");
}

static void welcome(session *s, const store_player *sp, const char *token)
{
	app *a = s->app;
	player *p = player_get(a, sp->id, sp->name, sp->role == STORE_ROLE_ADMIN);
	p->kinds_finished = sp->kinds_finished;
	p->kinds_loaded = true;
	/* The same player connected elsewhere: the newer connection wins (a
	 * remote player's stand-in, cluster.h, just goes). Its lobby
	 * membership moves with the player. */
	if (p->sess && p->sess != s && !cluster_drop_stub(p->sess))
		session_replaced(p->sess);
	p->sess = s;
	p->connected_ms = now_ms();
	s->pl = p;
	s->state = SESSION_READY;

	cJSON *w = proto_new("welcome", s->req_id);
	cJSON_AddNumberToObject(w, "protocol", PROTO_VERSION);
	cJSON_AddStringToObject(w, "server", "laird/0.1");
	cJSON *pj = cJSON_AddObjectToObject(w, "player");
	cJSON_AddNumberToObject(pj, "id", (double)p->id);
	cJSON_AddStringToObject(pj, "name", p->name);
	cJSON_AddBoolToObject(pj, "admin", p->admin);
	if (token)
		cJSON_AddStringToObject(w, "token", token);
	if (p->lobby)
		cJSON_AddNumberToObject(w, "lobby", (double)p->lobby->id);
	else
		cJSON_AddNullToObject(w, "lobby");
	cJSON_AddNumberToObject(w, "default_lobby", 1);
	cJSON *tables = cJSON_AddArrayToObject(w, "tables");
	for (int i = 0; i < p->n_tables; i++) {
		app_table *at = app_table_find(a, p->tables[i]);
		if (!at)
			continue;
		cJSON *e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "table", (double)at->id);
		int seat = table_seat_of(at->t, (uint64_t)p->id);
		if (seat >= 0)
			cJSON_AddNumberToObject(e, "seat", seat);
		else
			cJSON_AddNullToObject(e, "seat");
		cJSON_AddNumberToObject(e, "seq", (double)table_seq(at->t));
		cJSON_AddItemToArray(tables, e);
	}
	if (s->caps_asked) { /* only to a client that asked: old ones see no change */
		cJSON *caps = cJSON_AddArrayToObject(w, "caps");
		for (int i = 0; i < PROTO_CAPS_KNOWN; i++)
			if (s->caps & (1u << i))
				cJSON_AddItemToArray(caps, cJSON_CreateString(proto_cap_name(i)));
	}
	cJSON *lim = cJSON_AddObjectToObject(w, "limits");
	cJSON_AddNumberToObject(lim, "max_frame_bytes", (double)a->cfg->max_frame_bytes);
	cJSON_AddNumberToObject(lim, "rate_msgs_per_sec", a->cfg->rate_msgs_per_sec);
	cJSON_AddNumberToObject(lim, "rate_burst", a->cfg->rate_burst);
	cJSON_AddNumberToObject(lim, "max_chat_bytes", a->cfg->max_chat_bytes);
	app_send(s, w);

	/* What was missed first, then the seats are live again (that update
	 * follows the missed ones in seq order). */
	tables_resume_player(a, p, s->resume);
	tables_player_connected(a, p, true);
	cluster_player_hello(s);
	log_info("app", "player %s (%lld) %s, conn %llu from %s, client \"%s\"", p->name,
		 (long long)p->id, token ? "created" : "resumed", (unsigned long long)conn_id(s->c),
		 conn_peer_ip(s->c), s->client);
}

static void hello_done(void *ud, int err, const store_player *sp)
{
	session *s = ud;
	s->req = NULL; /* the handle is dead once the callback runs */
	const char *token = s->hello_token[0] ? s->hello_token : NULL;
	if (err == STORE_OK) {
		welcome(s, sp, token);
	} else if (err == STORE_ERR_NAME_TAKEN) {
		app_error(s, s->req_id, PROTO_E_NAME_TAKEN, "name",
			  "that name is taken; pick another or present your token");
	} else if (err == STORE_ERR_NOT_FOUND) {
		/* A ban tool (fail2ban) matches this line: deploy/README.md. */
		log_warn("app", "hello refused from %s: bad token (conn %llu)", conn_peer_ip(s->c),
			 (unsigned long long)conn_id(s->c));
		app_error(s, s->req_id, PROTO_E_BAD_TOKEN, "token", "no player has this token");
	} else {
		app_error(s, s->req_id, PROTO_E_INTERNAL, NULL, "the store failed (%s)",
			  store_strerror(err));
	}
	/* The token is secret: do not keep it around. */
	memset(s->hello_token, 0, sizeof s->hello_token);
	if (s->state != SESSION_READY) {
		cJSON_Delete(s->resume);
		s->resume = NULL;
	}
	app_session_unbusy(s);
}

void handle_hello(session *s, proto_msg *m)
{
	if (s->state == SESSION_READY) {
		app_error(s, m->id, PROTO_E_ALREADY_HELLO, NULL, "hello was already done");
		return;
	}
	app *a = s->app;
	cJSON_Delete(s->resume);
	s->resume = m->u.hello.resume ? cJSON_Duplicate(m->u.hello.resume, true) : NULL;
	s->req_id = m->id ? cJSON_Duplicate(m->id, true) : NULL;
	s->hello_token[0] = 0;
	strlcpy_safe(s->client, m->u.hello.client ? m->u.hello.client : "", sizeof s->client);
	s->caps = proto_hello_caps(m->u.hello.caps);
	s->caps_asked = m->u.hello.caps != NULL;
	if (m->u.hello.name) {
		/* Identities cost the database: one address makes only so many. */
		if (!iprate_take(a->new_players, conn_peer_ip(s->c), now_ms())) {
			app_error(s, m->id, PROTO_E_LIMIT_REACHED, "name",
				  "too many new players from your address (%d an hour); "
				  "try again later", a->cfg->new_players_per_ip_hour);
			cJSON_Delete(s->req_id);
			s->req_id = NULL;
			return;
		}
		if (store_token_new(s->hello_token) != 0) {
			app_error(s, m->id, PROTO_E_INTERNAL, NULL, "no randomness for a token");
			cJSON_Delete(s->req_id);
			s->req_id = NULL;
			return;
		}
		s->req = store_player_create(a->store, m->u.hello.name, s->hello_token,
					     STORE_ROLE_PLAYER, hello_done, s);
	} else {
		s->req = store_player_by_token(a->store, m->u.hello.token, hello_done, s);
	}
	if (!s->req) {
		memset(s->hello_token, 0, sizeof s->hello_token);
		app_error(s, m->id, PROTO_E_DRAINING, NULL, "the server is shutting down");
		cJSON_Delete(s->req_id);
		s->req_id = NULL;
		return;
	}
	s->busy = true;
}

void handle_ping(session *s, proto_msg *m)
{
	cJSON *r = proto_new("pong", m->id);
	cJSON_AddNumberToObject(r, "at", (double)app_unix_ms());
	app_send(s, r);
}
