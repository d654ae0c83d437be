/*
 * tables.c — the app's tables: the registry (id → app_table), a table's
 * life in the app (registered, closed with everyone told, freed), and what
 * a player's comings and goings do to the tables it is at: dropped,
 * back (missed updates or a snapshot), kicked. Deserted tables close.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "app_int.h"
#include "cluster.h"
#include "durable.h"
#include "live.h"
#include "lobby.h"
#include "session.h"
#include "shared.h"

app_table *app_table_find(app *a, uint64_t id) { return idmap_get(&a->tables, id); }

app_table *app_table_add(app *a, table *t, uint64_t lobby_id, int64_t creator)
{
	app_table *at = xcalloc(1, sizeof *at);
	at->id = table_id(t);
	at->t = t;
	at->lobby = lobby_id;
	at->creator = creator;
	at->kind_index = app_kind_index(table_get_settings(t)->kind);
	idmap_put(&a->tables, at->id, at);
	/* (In cluster mode, not past this node's own range of ids.) */
	if (at->id >= a->next_table_id && cluster_owns_id(a, at->id))
		a->next_table_id = at->id + 1;
	return at;
}

static void table_release(app_table *at)
{
	durable_forget(at);
	shared_table_free(at);
	table_free(at->t);
	free(at->seats_saved);
	free(at);
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
	if (end_live)
		live_end(a, at);
	player *c = player_find(a, at->creator);
	if (c) {
		c->hosted--;
		player_release(a, c);
	}
	table_release(at);
}

void tables_free_all(app *a)
{
	size_t it = 0;
	app_table *at;
	while ((at = idmap_next(&a->tables, &it, NULL)))
		table_release(at);
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

void app_table_close_if_empty(app *a, app_table *at)
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
	size_t it = 0;
	app_table *at;
	while ((at = idmap_next(&a->tables, &it, NULL))) {
		if (at->closing)
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
		app_table_close_if_empty(a, at);
	}
}
