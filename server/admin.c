/*
 * admin.c — see admin.h. Admin requests reach these handlers only after
 * app_dispatch checked the admin role (forbidden otherwise).
 */
#include "admin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/log.h"
#include "cluster.h"
#include "lobby.h"
#include "session.h"

/* Ids in ascending order, for pages of lists kept in no order. */
static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

uint64_t admin_item_id(const cJSON *item)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(item, "id");
	return cJSON_IsNumber(id) && id->valuedouble > 0 ? (uint64_t)id->valuedouble : 0;
}

/* A page's "total" and "next" (the id of its last item, when more follow). */
static void page_end(cJSON *r, const cJSON *arr, size_t total, bool more)
{
	int shown = cJSON_GetArraySize(arr);
	const cJSON *last = shown ? cJSON_GetArrayItem(arr, shown - 1) : NULL;
	list_page_end(r, total, more, last ? admin_item_id(last) : 0);
}

void handle_admin_lobby_create(session *s, proto_msg *m)
{
	app *a = s->app;
	if (a->cfg->max_lobbies > 0 && a->n_lobbies >= (size_t)a->cfg->max_lobbies) {
		app_error(s, m->id, PROTO_E_LIMIT_REACHED, NULL, "at most %d lobbies",
			  a->cfg->max_lobbies);
		return;
	}
	lobby *l = lobby_new(a, m->u.lobby_create.name);
	cluster_lobby_created(a, l);
	log_info("app", "admin %s created lobby %llu \"%s\"", s->pl->name,
		 (unsigned long long)l->id, l->name);
	list_page first = {0, PROTO_PAGE_DEFAULT};
	app_send(s, lobby_reply_json(a, l, first, m->id));
}

void handle_admin_lobby_close(session *s, proto_msg *m)
{
	app *a = s->app;
	lobby *l = lobby_named(s, m);
	if (!l)
		return;
	if (l->id == 1) {
		app_error(s, m->id, PROTO_E_FORBIDDEN, "lobby", "the default lobby stays open");
		return;
	}
	if (!cluster_lobby_closable(a, l)) {
		app_error(s, m->id, PROTO_E_INTERNAL, "lobby",
			  "the lobby's node cannot be reached (the bus is down); try again");
		return;
	}
	app_ok(s, m->id);
	cluster_lobby_closed(a, l->id);
	lobby_close(a, l);
}

bool admin_tables_here(app *a, uint64_t lobby_id, list_page pg, cJSON *arr, size_t *total)
{
	uint64_t *ids = xmalloc((a->tables.len + 1) * sizeof *ids);
	size_t n = 0;
	size_t it = 0;
	app_table *at;
	*total = 0;
	while ((at = idmap_next(&a->tables, &it, NULL))) {
		if (lobby_id && at->lobby != lobby_id)
			continue;
		(*total)++;
		if (at->id > pg.after)
			ids[n++] = at->id;
	}
	qsort(ids, n, sizeof *ids, cmp_u64);
	size_t shown = MIN(n, pg.limit);
	for (size_t i = 0; i < shown; i++)
		cJSON_AddItemToArray(arr, table_summary_json(app_table_find(a, ids[i])->t));
	free(ids);
	return shown < n;
}

void handle_admin_tables(session *s, proto_msg *m)
{
	app *a = s->app;
	lobby *l = NULL;
	if (m->u.lobby.lobby != PROTO_ABSENT && !(l = lobby_named(s, m)))
		return;
	if (cluster_admin_ask(s, m))
		return;
	cJSON *r = proto_new("tables", m->id);
	if (l) {
		cJSON_AddNumberToObject(r, "lobby", (double)l->id);
		cJSON *arr = cJSON_AddArrayToObject(r, "tables");
		uint64_t last = 0;
		bool more = lobby_tables_page(a, l, list_page_of(m), arr, &last);
		list_page_end(r, l->n_tables, more, last);
	} else {
		/* Every table of every lobby: the ids after the cursor, sorted. */
		cJSON_AddNullToObject(r, "lobby");
		cJSON *arr = cJSON_AddArrayToObject(r, "tables");
		size_t total;
		bool more = admin_tables_here(a, 0, list_page_of(m), arr, &total);
		page_end(r, arr, total, more);
	}
	app_send(s, r);
}

void handle_admin_table_close(session *s, proto_msg *m)
{
	app_table *at = app_table_find(s->app, (uint64_t)m->u.table.table);
	if (!at || at->closing) {
		app_error(s, m->id, PROTO_E_NOT_FOUND, "table", "no table %lld",
			  (long long)m->u.table.table);
		return;
	}
	app_ok(s, m->id);
	app_table_destroy(s->app, at, true);
}

bool admin_players_here(app *a, list_page pg, cJSON *arr, size_t *total)
{
	uint64_t now = now_ms();
	/* The players online, by id: the ones after the cursor, sorted. */
	uint64_t *ids = xmalloc((a->n_sessions + 1) * sizeof *ids);
	size_t n = 0;
	*total = 0;
	for (session *o = a->sessions; o; o = o->next) {
		if (!o->pl || o->pl->sess != o)
			continue;
		(*total)++;
		if ((uint64_t)o->pl->id > pg.after)
			ids[n++] = (uint64_t)o->pl->id;
	}
	qsort(ids, n, sizeof *ids, cmp_u64);
	size_t shown = MIN(n, pg.limit);
	for (size_t k = 0; k < shown; k++) {
		player *p = player_find(a, (int64_t)ids[k]);
		cJSON *e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "id", (double)p->id);
		cJSON_AddStringToObject(e, "name", p->name);
		cJSON_AddBoolToObject(e, "admin", p->admin);
		if (p->lobby)
			cJSON_AddNumberToObject(e, "lobby", (double)p->lobby->id);
		else
			cJSON_AddNullToObject(e, "lobby");
		cJSON *t = cJSON_AddArrayToObject(e, "tables");
		for (int i = 0; i < p->n_tables; i++)
			cJSON_AddItemToArray(t, cJSON_CreateNumber((double)p->tables[i]));
		cJSON_AddNumberToObject(e, "connected_ms", (double)(now - p->connected_ms));
		cJSON_AddItemToArray(arr, e);
	}
	free(ids);
	return shown < n;
}

void handle_admin_players(session *s, proto_msg *m)
{
	if (cluster_admin_ask(s, m))
		return;
	cJSON *r = proto_new("players", m->id);
	cJSON *arr = cJSON_AddArrayToObject(r, "players");
	size_t total;
	bool more = admin_players_here(s->app, list_page_of(m), arr, &total);
	page_end(r, arr, total, more);
	app_send(s, r);
}

/* The session of the player named `name` connected here, or NULL. */
static session *online_named(const app *a, const char *name)
{
	session *found = NULL;
	for (session *o = a->sessions; o; o = o->next)
		if (o->pl && o->state != SESSION_GONE && strcasecmp(o->pl->name, name) == 0)
			found = o;
	return found;
}

bool admin_online_here(const app *a, const char *name) { return online_named(a, name) != NULL; }

bool admin_kick_here(app *a, const char *by, const char *name, const char *reason)
{
	session *victim = online_named(a, name);
	if (!victim)
		return false;
	player *p = victim->pl;
	log_info("app", "admin %s kicked %s", by, p->name);
	cJSON *bye = proto_new("bye", NULL);
	cJSON_AddStringToObject(bye, "reason", "kicked");
	if (reason)
		cJSON_AddStringToObject(bye, "message", reason);
	app_send(victim, bye);
	/* Nothing it had queued runs (a queued table_join would seat it
	 * again); its seats go to the AI now, not after a deadline. */
	app_session_end(victim);
	tables_player_leave_all(a, p);
	conn_close(victim->c, NET_CLOSE_NORMAL, "kicked");
	return true;
}

void handle_admin_kick(session *s, proto_msg *m)
{
	if (cluster_admin_ask(s, m))
		return;
	if (!online_named(s->app, m->u.kick.player)) {
		app_error(s, m->id, PROTO_E_NOT_FOUND, "player", "%s is not online",
			  m->u.kick.player);
		return;
	}
	app_ok(s, m->id); /* first: the one kicked may be the admin itself */
	admin_kick_here(s->app, s->pl->name, m->u.kick.player, m->u.kick.reason);
}

/* Players who never played are deleted (their names free again), except
 * the ones online or at a table now, whose ids the store is given. */
static void pruned(void *ud, int err, int64_t n)
{
	session *s = ud;
	s->req = NULL;
	if (err != STORE_OK) {
		app_error(s, s->req_id, PROTO_E_INTERNAL, NULL, "the store failed (%s)",
			  store_strerror(err));
	} else {
		log_info("app", "admin %s pruned %lld players who never played",
			 s->pl ? s->pl->name : "?", (long long)n);
		cJSON *r = proto_new("players_pruned", s->req_id);
		cJSON_AddNumberToObject(r, "pruned", (double)n);
		app_send(s, r);
	}
	app_session_unbusy(s);
}

bool admin_prune_start(session *s, int64_t older_than_ms, const int64_t *also, size_t n_also)
{
	app *a = s->app;
	int64_t *keep = xmalloc((a->players.len + n_also + 1) * sizeof *keep);
	size_t n = 0;
	size_t it = 0;
	uint64_t id;
	while (idmap_next(&a->players, &it, &id))
		keep[n++] = (int64_t)id;
	for (size_t i = 0; i < n_also; i++)
		keep[n++] = also[i];
	int64_t before = app_unix_ms() - older_than_ms;
	s->req = store_players_prune(a->store, before, keep, n, pruned, s);
	free(keep);
	if (!s->req)
		return false;
	s->busy = true;
	return true;
}

void handle_admin_players_prune(session *s, proto_msg *m)
{
	if (cluster_admin_ask(s, m))
		return;
	if (!admin_prune_start(s, m->u.prune.older_than_ms, NULL, 0)) {
		app_error(s, m->id, PROTO_E_DRAINING, NULL, "the server is shutting down");
		return;
	}
	s->req_id = m->id ? cJSON_Duplicate(m->id, true) : NULL;
}

void admin_stats_here(app *a, cJSON *r)
{
	cJSON_AddNumberToObject(r, "uptime_ms", (double)(now_ms() - a->started_ms));
	cJSON_AddNumberToObject(r, "connections",
				(double)(a->net ? net_connections(a->net) : a->n_sessions));
	app_census c;
	app_census_take(a, &c);
	cJSON_AddNumberToObject(r, "players_online", (double)c.players_online);
	cJSON_AddNumberToObject(r, "lobbies", (double)a->n_lobbies);
	cJSON *t = cJSON_AddObjectToObject(r, "tables");
	for (int i = 0; i < TABLE_STATE_COUNT; i++)
		cJSON_AddNumberToObject(t, table_state_name(i), (double)c.tables[i]);
	cJSON_AddNumberToObject(r, "decisions", (double)a->decisions);
	cJSON_AddNumberToObject(r, "games_finished", (double)a->games_finished);
	cJSON_AddNumberToObject(r, "messages_in", (double)a->msgs_in);
	cJSON_AddNumberToObject(r, "messages_out", (double)a->msgs_out);
	cJSON *e = cJSON_AddObjectToObject(r, "errors");
	for (int i = 1; i < PROTO_ERR_COUNT; i++)
		if (app_errors(a, (enum proto_err)i))
			cJSON_AddNumberToObject(e, proto_err_code(i),
						(double)app_errors(a, (enum proto_err)i));
	cJSON_AddNumberToObject(r, "store_queue",
				a->store ? (double)store_queue_depth(a->store) : 0);
}

void handle_admin_stats(session *s, proto_msg *m)
{
	if (cluster_admin_ask(s, m))
		return;
	cJSON *r = proto_new("admin_stats", m->id);
	admin_stats_here(s->app, r);
	app_send(s, r);
}

/* ---- admin tokens ---- */

typedef struct issue_ctx {
	char token[STORE_TOKEN_LEN + 1];
	bool first;
	int status; /* admin-token: -1 pending, 0 ok, 1 failed */
} issue_ctx;

static void issued(void *ud, int err, const store_player *p)
{
	issue_ctx *c = ud;
	if (err == STORE_OK) {
		if (c->first)
			fprintf(stderr,
				"%slaird: first start: admin token for player \"%s\" (shown once):\n"
				"%sADMIN_TOKEN=%s\n",
				log_prefix(LOG_INFO), p->name, log_prefix(LOG_INFO), c->token);
		else
			printf("%s\n", c->token);
		c->status = 0;
	} else if (err != STORE_ERR_EXISTS || !c->first) {
		log_error("admin", "admin token not issued: %s", store_strerror(err));
		c->status = 1;
	} else {
		c->status = 0; /* an admin exists already: nothing to print */
	}
	memset(c->token, 0, sizeof c->token);
	if (c->first)
		free(c);
}

void admin_first_token(app *a)
{
	issue_ctx *c = xcalloc(1, sizeof *c);
	c->first = true;
	if (store_token_new(c->token) != 0 ||
	    !store_admin_issue(a->store, "admin", c->token, true, issued, c)) {
		log_error("admin", "could not issue the first admin token");
		free(c);
	}
}

static void shut_done(void *ud) { (void)ud; }

int admin_token_command(const laird_config *cfg, const char *name)
{
	uv_loop_t loop;
	uv_loop_init(&loop);
	char err[256];
	store *st = store_open(&loop, cfg->db_path, err, sizeof err);
	if (!st) {
		fprintf(stderr, "laird admin-token: %s\n", err);
		uv_loop_close(&loop);
		return 1;
	}
	if (!name || !*name)
		name = "admin";
	issue_ctx c = {.status = -1};
	if (!proto_name_valid(name)) {
		fprintf(stderr, "laird admin-token: bad name \"%s\"\n", name);
		c.status = 1;
	} else if (store_token_new(c.token) != 0 ||
		   !store_admin_issue(st, name, c.token, false, issued, &c)) {
		fprintf(stderr, "laird admin-token: could not issue a token\n");
		c.status = 1;
	}
	store_shutdown(st, shut_done, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	store_free(st);
	uv_loop_close(&loop);
	return c.status == 0 ? 0 : 1;
}
