/*
 * lobby.c — lobbies: a chat room with a list of tables and live updates of
 * that list for its members (PROTOCOL.md §5). Lobby 1, "main", exists from
 * the start and cannot be closed; admins add and close others. Lobbies live
 * in memory only: tables and chat do not outlive the process either.
 *
 * A player is in at most one lobby; only members get chat and table-list
 * updates, so thousands of players at tables cost the lobby nothing.
 */
#include "lobby.h"

#include <stdlib.h>
#include <string.h>

#include "session.h"

lobby *lobby_new(app *a, const char *name)
{
	lobby *l = xcalloc(1, sizeof *l);
	l->id = a->next_lobby_id++;
	strlcpy_safe(l->name, name, sizeof l->name);
	a->lobbies = xrealloc(a->lobbies, (a->n_lobbies + 1) * sizeof *a->lobbies);
	a->lobbies[a->n_lobbies++] = l;
	return l;
}

lobby *lobby_find(app *a, uint64_t id)
{
	for (size_t i = 0; i < a->n_lobbies; i++)
		if (a->lobbies[i]->id == id)
			return a->lobbies[i];
	return NULL;
}

void lobby_free(lobby *l)
{
	for (int i = 0; i < LOBBY_CHAT_KEEP; i++)
		free(l->chat[i].text);
	free(l->members);
	free(l->tables);
	free(l);
}

/* Sends one message to every member (but `except`, if not NULL). */
static void broadcast(lobby *l, const cJSON *msg, const player *except)
{
	if (!l->n_members)
		return;
	char *text = proto_print(msg);
	size_t len = strlen(text);
	for (size_t i = 0; i < l->n_members; i++)
		if (l->members[i] != except)
			app_send_text(l->members[i]->sess, text, len);
	free(text);
}

static void presence(lobby *l, const player *p, bool joined)
{
	cJSON *u = proto_new("presence", NULL);
	cJSON_AddNumberToObject(u, "lobby", (double)l->id);
	cJSON_AddStringToObject(u, "player", p->name);
	cJSON_AddBoolToObject(u, "joined", joined);
	broadcast(l, u, p);
	cJSON_Delete(u);
}

void lobby_leave_player(app *a, player *p)
{
	(void)a;
	lobby *l = p->lobby;
	if (!l)
		return;
	for (size_t i = 0; i < l->n_members; i++) {
		if (l->members[i] == p) {
			l->members[i] = l->members[--l->n_members];
			break;
		}
	}
	p->lobby = NULL;
	presence(l, p, false);
}

static void lobby_add_player(lobby *l, player *p)
{
	if (l->n_members == l->cap_members) {
		l->cap_members = l->cap_members ? l->cap_members * 2 : 8;
		l->members = xrealloc(l->members, l->cap_members * sizeof *l->members);
	}
	l->members[l->n_members++] = p;
	p->lobby = l;
	presence(l, p, true);
}

void lobby_add_table(app *a, lobby *l, app_table *at)
{
	if (l->n_tables == l->cap_tables) {
		l->cap_tables = l->cap_tables ? l->cap_tables * 2 : 8;
		l->tables = xrealloc(l->tables, l->cap_tables * sizeof *l->tables);
	}
	l->tables[l->n_tables++] = at->id;
	at->lobby = l->id;
	lobby_table_changed(a, at);
}

void lobby_remove_table(app *a, app_table *at)
{
	lobby *l = lobby_find(a, at->lobby);
	if (!l)
		return;
	for (size_t i = 0; i < l->n_tables; i++) {
		if (l->tables[i] == at->id) {
			memmove(&l->tables[i], &l->tables[i + 1],
				(l->n_tables - i - 1) * sizeof *l->tables);
			l->n_tables--;
			break;
		}
	}
	cJSON *u = proto_new("table_removed", NULL);
	cJSON_AddNumberToObject(u, "lobby", (double)l->id);
	cJSON_AddNumberToObject(u, "table", (double)at->id);
	broadcast(l, u, NULL);
	cJSON_Delete(u);
}

void lobby_table_changed(app *a, app_table *at)
{
	lobby *l = lobby_find(a, at->lobby);
	if (!l || !l->n_members)
		return;
	cJSON *u = proto_new("table_update", NULL);
	cJSON_AddNumberToObject(u, "lobby", (double)l->id);
	cJSON_AddItemToObject(u, "table", table_summary_json(at->t));
	broadcast(l, u, NULL);
	cJSON_Delete(u);
}

void lobby_close(app *a, lobby *l)
{
	cJSON *u = proto_new("lobby_closed", NULL);
	cJSON_AddNumberToObject(u, "lobby", (double)l->id);
	broadcast(l, u, NULL);
	cJSON_Delete(u);
	for (size_t i = 0; i < l->n_members; i++)
		l->members[i]->lobby = NULL;
	l->n_members = 0;
	/* Its tables close (a game in play is abandoned). */
	while (l->n_tables) {
		app_table *at = app_table_find(a, l->tables[l->n_tables - 1]);
		if (at)
			app_table_destroy(a, at, true);
		else
			l->n_tables--;
	}
	for (size_t i = 0; i < a->n_lobbies; i++) {
		if (a->lobbies[i] == l) {
			a->lobbies[i] = a->lobbies[--a->n_lobbies];
			break;
		}
	}
	lobby_free(l);
}

cJSON *lobby_summary_json(const lobby *l)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "id", (double)l->id);
	cJSON_AddStringToObject(o, "name", l->name);
	cJSON_AddNumberToObject(o, "players", (double)l->n_members);
	cJSON_AddNumberToObject(o, "tables", (double)l->n_tables);
	return o;
}

cJSON *lobby_tables_json(app *a, const lobby *l, bool include_private)
{
	(void)include_private; /* private tables are listed, marked private */
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; i < l->n_tables; i++) {
		app_table *at = app_table_find(a, l->tables[i]);
		if (at)
			cJSON_AddItemToArray(arr, table_summary_json(at->t));
	}
	return arr;
}

static cJSON *lobby_reply(app *a, const lobby *l, const cJSON *id)
{
	cJSON *r = proto_new("lobby", id);
	cJSON_AddItemToObject(r, "lobby", lobby_summary_json(l));
	cJSON *players = cJSON_AddArrayToObject(r, "players");
	for (size_t i = 0; i < l->n_members; i++)
		cJSON_AddItemToArray(players, cJSON_CreateString(l->members[i]->name));
	cJSON_AddItemToObject(r, "tables", lobby_tables_json(a, l, true));
	cJSON *chat = cJSON_AddArrayToObject(r, "chat");
	for (int i = 0; i < l->chat_len; i++) {
		const chat_line *c = &l->chat[(l->chat_head + i) % LOBBY_CHAT_KEEP];
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "from", c->from);
		cJSON_AddStringToObject(e, "text", c->text);
		cJSON_AddNumberToObject(e, "at", (double)c->at);
		cJSON_AddItemToArray(chat, e);
	}
	return r;
}

cJSON *lobby_reply_json(app *a, const lobby *l, const cJSON *id)
{
	return lobby_reply(a, l, id);
}

/* ---- requests ---- */

void handle_lobby_list(session *s, proto_msg *m)
{
	app *a = s->app;
	cJSON *r = proto_new("lobbies", m->id);
	cJSON *arr = cJSON_AddArrayToObject(r, "lobbies");
	for (size_t i = 0; i < a->n_lobbies; i++)
		cJSON_AddItemToArray(arr, lobby_summary_json(a->lobbies[i]));
	app_send(s, r);
}

void handle_lobby_join(session *s, proto_msg *m)
{
	app *a = s->app;
	lobby *l = lobby_find(a, (uint64_t)m->u.lobby.lobby);
	if (!l) {
		app_error(s, m->id, PROTO_E_NOT_FOUND, "lobby", "no lobby %lld",
			  (long long)m->u.lobby.lobby);
		return;
	}
	if (s->pl->lobby != l) {
		lobby_leave_player(a, s->pl);
		lobby_add_player(l, s->pl);
	}
	app_send(s, lobby_reply(a, l, m->id));
}

void handle_lobby_leave(session *s, proto_msg *m)
{
	if (!s->pl->lobby) {
		app_error(s, m->id, PROTO_E_NOT_SEATED, NULL, "you are in no lobby");
		return;
	}
	lobby_leave_player(s->app, s->pl);
	app_ok(s, m->id);
}

void handle_chat(session *s, proto_msg *m)
{
	lobby *l = s->pl->lobby;
	const char *text = m->u.chat.text;
	if (!l) {
		app_error(s, m->id, PROTO_E_NOT_SEATED, NULL, "join a lobby to chat");
		return;
	}
	if ((int)strlen(text) > s->app->cfg->max_chat_bytes) {
		app_error(s, m->id, PROTO_E_LIMIT_REACHED, "text",
			  "chat lines are at most %d bytes",
			  s->app->cfg->max_chat_bytes);
		return;
	}
	int64_t at = app_unix_ms();
	chat_line *c;
	if (l->chat_len < LOBBY_CHAT_KEEP) {
		c = &l->chat[(l->chat_head + l->chat_len++) % LOBBY_CHAT_KEEP];
	} else {
		c = &l->chat[l->chat_head];
		l->chat_head = (l->chat_head + 1) % LOBBY_CHAT_KEEP;
	}
	free(c->text);
	c->text = xstrdup(text);
	strlcpy_safe(c->from, s->pl->name, sizeof c->from);
	c->at = at;
	app_ok(s, m->id);
	cJSON *u = proto_new("chat", NULL);
	cJSON_AddNumberToObject(u, "lobby", (double)l->id);
	cJSON_AddStringToObject(u, "from", s->pl->name);
	cJSON_AddStringToObject(u, "text", text);
	cJSON_AddNumberToObject(u, "at", (double)at);
	broadcast(l, u, NULL);
	cJSON_Delete(u);
}

void handle_table_list(session *s, proto_msg *m)
{
	app *a = s->app;
	lobby *l;
	if (m->u.lobby.lobby != PROTO_ABSENT)
		l = lobby_find(a, (uint64_t)m->u.lobby.lobby);
	else
		l = s->pl->lobby ? s->pl->lobby : lobby_find(a, 1);
	if (!l) {
		app_error(s, m->id, PROTO_E_NOT_FOUND, "lobby", "no lobby %lld",
			  (long long)m->u.lobby.lobby);
		return;
	}
	cJSON *r = proto_new("tables", m->id);
	cJSON_AddNumberToObject(r, "lobby", (double)l->id);
	cJSON_AddItemToObject(r, "tables", lobby_tables_json(a, l, true));
	app_send(s, r);
}
