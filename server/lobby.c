/*
 * lobby.c — lobbies: a chat room with a list of tables and live updates of
 * that list for its members (PROTOCOL.md §5). Lobby 1, "main", exists from
 * the start and cannot be closed; admins add and close others. Lobbies live
 * in memory only: tables and chat do not outlive the process either.
 *
 * A player is in at most one lobby; only members get chat and table-list
 * updates, so thousands of players at tables cost the lobby nothing.
 *
 * Cluster mode (cluster.h): each change is also announced to the other
 * nodes, whose tables and members a lobby lists too (their table ids in
 * `tables`, their members in `remote`); a chat line is shown when it comes
 * back from the bus, on every node in the same order.
 */
#include "lobby.h"

#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "session.h"

/* A lobby reply names at most this many of its members (its summary
 * counts them all). */
#define LOBBY_PLAYERS_SHOWN 100

lobby *lobby_new_with_id(app *a, uint64_t id, const char *name)
{
	lobby *l = xcalloc(1, sizeof *l);
	l->id = id;
	strlcpy_safe(l->name, name, sizeof l->name);
	a->lobbies = xrealloc(a->lobbies, (a->n_lobbies + 1) * sizeof *a->lobbies);
	/* The list stays in id order (pages). */
	size_t i = a->n_lobbies;
	while (i > 0 && a->lobbies[i - 1]->id > id) {
		a->lobbies[i] = a->lobbies[i - 1];
		i--;
	}
	a->lobbies[i] = l;
	a->n_lobbies++;
	return l;
}

lobby *lobby_new(app *a, const char *name)
{
	return lobby_new_with_id(a, a->next_lobby_id++, name);
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
	free(l->remote);
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

void lobby_broadcast(lobby *l, const cJSON *msg)
{
	broadcast(l, msg, NULL);
}

cJSON *lobby_update_new(const lobby *l, const char *type)
{
	cJSON *u = proto_new(type, NULL);
	cJSON_AddNumberToObject(u, "lobby", (double)l->id);
	return u;
}

void lobby_tell(lobby *l, cJSON *u, const player *except)
{
	broadcast(l, u, except);
	cJSON_Delete(u);
}

static void presence(app *a, lobby *l, const player *p, bool joined)
{
	cluster_presence(a, l, p, joined);
	cJSON *u = lobby_update_new(l, "presence");
	cJSON_AddStringToObject(u, "player", p->name);
	cJSON_AddBoolToObject(u, "joined", joined);
	lobby_tell(l, u, p);
}

void lobby_leave_player(app *a, player *p)
{
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
	presence(a, l, p, false);
}

static void lobby_add_player(app *a, lobby *l, player *p)
{
	if (l->n_members == l->cap_members) {
		l->cap_members = l->cap_members ? l->cap_members * 2 : 8;
		l->members = xrealloc(l->members, l->cap_members * sizeof *l->members);
	}
	l->members[l->n_members++] = p;
	p->lobby = l;
	presence(a, l, p, true);
}

/* The index of the first table of l with an id above after (the list is
 * kept sorted by id for the pages). */
static size_t first_table_after(const lobby *l, uint64_t after)
{
	size_t lo = 0, hi = l->n_tables;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->tables[mid] <= after)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void lobby_table_id_add(lobby *l, uint64_t id)
{
	if (l->n_tables == l->cap_tables) {
		l->cap_tables = l->cap_tables ? l->cap_tables * 2 : 8;
		l->tables = xrealloc(l->tables, l->cap_tables * sizeof *l->tables);
	}
	/* New tables have the highest id; restored ones may come in any order. */
	size_t at_i = first_table_after(l, id);
	memmove(&l->tables[at_i + 1], &l->tables[at_i], (l->n_tables - at_i) * sizeof *l->tables);
	l->tables[at_i] = id;
	l->n_tables++;
}

void lobby_table_id_remove(lobby *l, uint64_t id)
{
	for (size_t i = 0; i < l->n_tables; i++) {
		if (l->tables[i] == id) {
			memmove(&l->tables[i], &l->tables[i + 1],
				(l->n_tables - i - 1) * sizeof *l->tables);
			l->n_tables--;
			break;
		}
	}
}

void lobby_add_table(app *a, lobby *l, app_table *at)
{
	lobby_table_id_add(l, at->id);
	at->lobby = l->id;
	lobby_table_changed(a, at);
}

void lobby_remove_table(app *a, app_table *at)
{
	lobby *l = lobby_find(a, at->lobby);
	if (!l)
		return;
	lobby_table_id_remove(l, at->id);
	cluster_table_removed(a, l->id, at->id);
	cJSON *u = lobby_update_new(l, "table_removed");
	cJSON_AddNumberToObject(u, "table", (double)at->id);
	lobby_tell(l, u, NULL);
}

void lobby_table_changed(app *a, app_table *at)
{
	lobby *l = lobby_find(a, at->lobby);
	if (l)
		cluster_table_changed(a, l, at);
	if (!l || !l->n_members)
		return;
	cJSON *u = lobby_update_new(l, "table_update");
	cJSON_AddItemToObject(u, "table", table_summary_json(at->t));
	lobby_tell(l, u, NULL);
}

void lobby_close(app *a, lobby *l)
{
	lobby_tell(l, lobby_update_new(l, "lobby_closed"), NULL);
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
			/* The list stays in id order (pages). */
			memmove(&a->lobbies[i], &a->lobbies[i + 1],
				(a->n_lobbies - i - 1) * sizeof *a->lobbies);
			a->n_lobbies--;
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
	cJSON_AddNumberToObject(o, "players", (double)(l->n_members + l->n_remote));
	cJSON_AddNumberToObject(o, "tables", (double)l->n_tables);
	return o;
}

list_page list_page_of(const proto_msg *m)
{
	int limit = m->u.lobby.limit;
	return (list_page){(uint64_t)m->u.lobby.cursor,
			   limit == PROTO_ABSENT ? PROTO_PAGE_DEFAULT : (size_t)limit};
}

void list_page_end(cJSON *reply, size_t total, bool more, uint64_t last_id)
{
	cJSON_AddNumberToObject(reply, "total", (double)total);
	if (more)
		cJSON_AddNumberToObject(reply, "next", (double)last_id);
	else
		cJSON_AddNullToObject(reply, "next");
}

/* Private tables are listed too, marked private. */
bool lobby_tables_page(app *a, const lobby *l, list_page pg, cJSON *arr, uint64_t *last_id)
{
	size_t i = first_table_after(l, pg.after), shown = 0;
	for (; i < l->n_tables && shown < pg.limit; i++) {
		app_table *at = app_table_find(a, l->tables[i]);
		cJSON *sum = at ? table_summary_json(at->t) : cluster_table_summary(a, l->tables[i]);
		if (!sum)
			continue;
		cJSON_AddItemToArray(arr, sum);
		*last_id = l->tables[i];
		shown++;
	}
	return i < l->n_tables;
}

static cJSON *lobby_reply(app *a, const lobby *l, list_page pg, const cJSON *id)
{
	cJSON *r = proto_new("lobby", id);
	cJSON_AddItemToObject(r, "lobby", lobby_summary_json(l));
	cJSON *players = cJSON_AddArrayToObject(r, "players");
	for (size_t i = 0; i < l->n_members && i < LOBBY_PLAYERS_SHOWN; i++)
		cJSON_AddItemToArray(players, cJSON_CreateString(l->members[i]->name));
	for (size_t i = 0; i < l->n_remote && l->n_members + i < LOBBY_PLAYERS_SHOWN; i++)
		cJSON_AddItemToArray(players, cJSON_CreateString(l->remote[i].name));
	cJSON *tables = cJSON_AddArrayToObject(r, "tables");
	uint64_t last = 0;
	bool more = lobby_tables_page(a, l, pg, tables, &last);
	/* The summary's `tables` is the total; next continues with table_list. */
	if (more)
		cJSON_AddNumberToObject(r, "next", (double)last);
	else
		cJSON_AddNullToObject(r, "next");
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

cJSON *lobby_reply_json(app *a, const lobby *l, list_page pg, const cJSON *id)
{
	return lobby_reply(a, l, pg, id);
}

/* ---- requests ---- */

cJSON *lobby_list_json(app *a, list_page pg, const cJSON *id)
{
	cJSON *r = proto_new("lobbies", id);
	cJSON *arr = cJSON_AddArrayToObject(r, "lobbies");
	size_t i = 0, shown = 0;
	uint64_t last = 0;
	while (i < a->n_lobbies && a->lobbies[i]->id <= pg.after)
		i++;
	for (; i < a->n_lobbies && shown < pg.limit; i++, shown++) {
		cJSON_AddItemToArray(arr, lobby_summary_json(a->lobbies[i]));
		last = a->lobbies[i]->id;
	}
	list_page_end(r, a->n_lobbies, i < a->n_lobbies, last);
	return r;
}

void handle_lobby_list(session *s, proto_msg *m)
{
	app_send(s, lobby_list_json(s->app, list_page_of(m), m->id));
}

lobby *lobby_named(session *s, proto_msg *m)
{
	lobby *l = lobby_find(s->app, (uint64_t)m->u.lobby.lobby);
	if (!l)
		app_error(s, m->id, PROTO_E_NOT_FOUND, "lobby", "no lobby %lld",
			  (long long)m->u.lobby.lobby);
	return l;
}

void handle_lobby_join(session *s, proto_msg *m)
{
	app *a = s->app;
	lobby *l = lobby_named(s, m);
	if (!l)
		return;
	if (s->pl->lobby != l) {
		lobby_leave_player(a, s->pl);
		lobby_add_player(a, l, s->pl);
	}
	app_send(s, lobby_reply(a, l, list_page_of(m), m->id));
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
	if (s->app->cluster) {
		/* Shown when it comes back from the bus, everywhere alike. */
		if (cluster_chat(s->app, l, s->pl->name, text, at) != 0) {
			app_error(s, m->id, PROTO_E_INTERNAL, NULL,
				  "chat is unavailable for a moment (the other servers cannot be "
				  "reached); try again");
			return;
		}
		app_ok(s, m->id);
		return;
	}
	app_ok(s, m->id);
	lobby_chat_show(l, s->pl->name, text, at);
}

void lobby_chat_show(lobby *l, const char *from, const char *text, int64_t at)
{
	chat_line *c;
	if (l->chat_len < LOBBY_CHAT_KEEP) {
		c = &l->chat[(l->chat_head + l->chat_len++) % LOBBY_CHAT_KEEP];
	} else {
		c = &l->chat[l->chat_head];
		l->chat_head = (l->chat_head + 1) % LOBBY_CHAT_KEEP;
	}
	free(c->text);
	c->text = xstrdup(text);
	strlcpy_safe(c->from, from, sizeof c->from);
	c->at = at;
	cJSON *u = lobby_update_new(l, "chat");
	cJSON_AddStringToObject(u, "from", from);
	cJSON_AddStringToObject(u, "text", text);
	cJSON_AddNumberToObject(u, "at", (double)at);
	lobby_tell(l, u, NULL);
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
	cJSON *tables = cJSON_AddArrayToObject(r, "tables");
	uint64_t last = 0;
	bool more = lobby_tables_page(a, l, list_page_of(m), tables, &last);
	list_page_end(r, l->n_tables, more, last);
	app_send(s, r);
}
