/*
 * cluster_dir.c — the directory (cluster.h): what each node tells the
 * others of its lobbies, members and tables, kept in the lobby structs of
 * every node (lobby.c lists them beside its own), chat shown when it comes
 * back from the bus, and the resynchronisation when a bus comes up.
 */
#include "cluster_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "lobby.h"
#include "session.h"

/* ---- the directory ----------------------------------------------------- */

void cl_rtable_free(rtable *rt)
{
	if (rt) {
		free(rt->summary);
		free(rt);
	}
}

static void remote_member_del(lobby *l, int64_t id)
{
	for (size_t i = 0; i < l->n_remote; i++)
		if (l->remote[i].id == id) {
			l->remote[i] = l->remote[--l->n_remote];
			return;
		}
}

/* An update for the members of lobby l here: {type, lobby} and what the
 * caller adds, sent (tell_lobby) and freed. */
static cJSON *lobby_update(const char *type, const lobby *l)
{
	cJSON *u = proto_new(type, NULL);
	cJSON_AddNumberToObject(u, "lobby", (double)l->id);
	return u;
}

static void tell_lobby(lobby *l, cJSON *u)
{
	lobby_broadcast(l, u);
	cJSON_Delete(u);
}

static void presence_msg(lobby *l, const char *name, bool joined)
{
	cJSON *u = lobby_update("presence", l);
	cJSON_AddStringToObject(u, "player", name);
	cJSON_AddBoolToObject(u, "joined", joined);
	tell_lobby(l, u);
}

/* Another node's table leaves the directory; with tell, its lobby's
 * members here are told (table_removed). */
static void rtable_drop(cluster *c, uint64_t tid, bool tell)
{
	rtable *rt = idmap_del(&c->tables, tid);
	if (!rt)
		return;
	lobby *l = lobby_find(c->a, rt->lobby);
	if (l) {
		lobby_table_id_remove(l, tid);
		if (tell) {
			cJSON *u = lobby_update("table_removed", l);
			cJSON_AddNumberToObject(u, "table", (double)tid);
			tell_lobby(l, u);
		}
	}
	cl_rtable_free(rt);
}

/* A member of l from f's node already listed there: no longer stale (its
 * name as told now). */
static bool still_listed(lobby *l, int64_t id, const bus_frame *f)
{
	for (size_t i = 0; i < l->n_remote; i++) {
		struct remote_member *r = &l->remote[i];
		if (r->id == id && !strcmp(r->node, f->from) && f->len < sizeof r->name) {
			r->stale = false;
			memcpy(r->name, f->payload, f->len);
			r->name[f->len] = 0;
			return true;
		}
	}
	return false;
}

static void on_pres(cluster *c, const bus_frame *f)
{
	uint64_t lid, pid, joined;
	if (!cl_word_u64(f, 0, &lid) || !cl_word_u64(f, 1, &pid) ||
	    !cl_word_u64(f, 2, &joined) || f->len >= APP_NAME_MAX)
		return;
	lobby *l = lobby_find(c->a, lid);
	if (!l)
		return;
	if (joined == 1 && still_listed(l, (int64_t)pid, f))
		return; /* told again by a resync: nothing changed for the members */
	/* A player is in one lobby: wherever it was listed, it is not now. */
	for (size_t i = 0; i < c->a->n_lobbies; i++)
		remote_member_del(c->a->lobbies[i], (int64_t)pid);
	if (joined) {
		if (l->n_remote == l->cap_remote) {
			l->cap_remote = l->cap_remote ? 2 * l->cap_remote : 8;
			l->remote = xrealloc(l->remote, l->cap_remote * sizeof *l->remote);
		}
		struct remote_member *r = &l->remote[l->n_remote++];
		r->id = (int64_t)pid;
		r->stale = false;
		memcpy(r->name, f->payload, f->len);
		r->name[f->len] = 0;
		strlcpy_safe(r->node, f->from, sizeof r->node);
	}
	char name[APP_NAME_MAX];
	memcpy(name, f->payload, f->len);
	name[f->len] = 0;
	presence_msg(l, name, joined == 1);
}

static void on_tbl(cluster *c, const bus_frame *f)
{
	uint64_t lid, tid;
	if (!cl_word_u64(f, 0, &lid) || !cl_word_u64(f, 1, &tid))
		return;
	lobby *l = lobby_find(c->a, lid);
	cJSON *sum = cJSON_ParseWithLength(f->payload, f->len);
	if (!l || !sum || app_table_find(c->a, tid)) {
		cJSON_Delete(sum);
		return;
	}
	rtable *rt = idmap_get(&c->tables, tid);
	if (!rt) {
		rt = xcalloc(1, sizeof *rt);
		idmap_put(&c->tables, tid, rt);
		lobby_table_id_add(l, tid);
	}
	rt->lobby = lid;
	rt->stale = false;
	strlcpy_safe(rt->node, f->from, sizeof rt->node);
	free(rt->summary);
	rt->summary = xstrdup(cJSON_IsObject(sum) ? f->payload : "{}");
	cJSON *u = lobby_update("table_update", l);
	cJSON_AddItemToObject(u, "table", sum);
	tell_lobby(l, u);
}

static void on_tbl_gone(cluster *c, const bus_frame *f)
{
	uint64_t lid, tid;
	rtable *rt;
	if (!cl_word_u64(f, 0, &lid) || !cl_word_u64(f, 1, &tid) ||
	    !(rt = idmap_get(&c->tables, tid)) || strcmp(rt->node, f->from))
		return; /* (a table another node has taken over since stays) */
	rtable_drop(c, tid, true);
}

static void on_chat(cluster *c, const bus_frame *f)
{
	uint64_t lid;
	if (!cl_word_u64(f, 0, &lid))
		return;
	lobby *l = lobby_find(c->a, lid);
	cJSON *o = cJSON_ParseWithLength(f->payload, f->len);
	const cJSON *from = cJSON_GetObjectItemCaseSensitive(o, "from");
	const cJSON *text = cJSON_GetObjectItemCaseSensitive(o, "text");
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(o, "at");
	if (l && cJSON_IsString(from) && cJSON_IsString(text) && cJSON_IsNumber(at))
		lobby_chat_show(l, from->valuestring, text->valuestring, (int64_t)at->valuedouble);
	cJSON_Delete(o);
}

static void on_lobby_new(cluster *c, const bus_frame *f)
{
	uint64_t lid;
	if (!cl_word_u64(f, 0, &lid) || f->len == 0 || f->len >= LOBBY_NAME_MAX)
		return;
	lobby *known = lobby_find(c->a, lid);
	if (known) {
		known->stale = false; /* told again in a resynchronisation */
		return;
	}
	char name[LOBBY_NAME_MAX];
	memcpy(name, f->payload, f->len);
	name[f->len] = 0;
	lobby_new_with_id(c->a, lid, name);
}

static void on_lobby_gone(cluster *c, const bus_frame *f)
{
	uint64_t lid;
	if (!cl_word_u64(f, 0, &lid) || lid == 1)
		return;
	lobby *l = lobby_find(c->a, lid);
	if (l)
		lobby_close(c->a, l);
}

/* Our table's summary (tbl), to node `to` (NULL: everyone). */
static void publish_table(cluster *c, const char *to, uint64_t lobby_id, const app_table *at)
{
	char lid[24], tid[24];
	cl_num(lid, sizeof lid, lobby_id);
	cl_num(tid, sizeof tid, at->id);
	cJSON *sum = table_summary_json(at->t);
	char *text = cJSON_PrintUnformatted(sum);
	const char *w[] = {lid, tid};
	cl_publish(c, to, "tbl", w, 2, text, strlen(text));
	free(text);
	cJSON_Delete(sum);
}

/* Our entries, to node `to` (NULL: everyone). */
void cl_announce(cluster *c, const char *to)
{
	app *a = c->a;
	char lid[24], pid[24];
	for (size_t i = 0; i < a->n_lobbies; i++) {
		lobby *l = a->lobbies[i];
		cl_num(lid, sizeof lid, l->id);
		if ((int64_t)(l->id >> 32) == c->node_id) {
			const char *w[] = {lid};
			cl_publish(c, to, "lobby+", w, 1, l->name, strlen(l->name));
		}
		for (size_t j = 0; j < l->n_members; j++) {
			cl_num(pid, sizeof pid, (uint64_t)l->members[j]->id);
			const char *w[] = {lid, pid, "1"};
			cl_publish(c, to, "pres", w, 3, l->members[j]->name, strlen(l->members[j]->name));
		}
	}
	size_t it = 0;
	app_table *at;
	while ((at = idmap_next(&a->tables, &it, NULL))) {
		if (!at->lobby)
			continue;
		publish_table(c, to, at->lobby, at);
	}
}

/* Our players' seats at other nodes' tables (node `to`, NULL: all) missed
 * what was sent while the bus was down: each says hello again, and the
 * owners send it a snapshot of their tables (cluster.c, on_hello). Sent
 * when our bus comes up, and to a node whose bus comes up after ours. */
static void say_hellos(cluster *c, const char *to)
{
	char id[24];
	for (session *s = c->a->sessions; s; s = s->next)
		if (s->state == SESSION_READY && s->pl && s->pl->sess == s) {
			char caps[16];
			cl_num(id, sizeof id, (uint64_t)s->pl->id);
			cl_caps_word(caps, sizeof caps, s);
			const char *w[] = {id, caps};
			cl_publish(c, to, "hello", w, 2, NULL, 0);
		}
}

/* True when lobby l was made by node `node` (NULL: by any other node than
 * this one): a lobby's id carries its node's (node id x 2^32 + n), and
 * only that node tells it in a resynchronisation (cl_announce). The
 * default lobby (id 1) is every node's. */
static bool lobby_made_by(const cluster *c, const lobby *l, const char *node)
{
	int64_t maker = (int64_t)(l->id >> 32);
	if (maker == 0)
		return false;
	if (!node)
		return maker != c->node_id;
	char name[sizeof c->node];
	snprintf(name, sizeof name, "n%" PRId64, maker);
	return strcmp(name, node) == 0;
}

/* A resynchronisation with node `node` (NULL: every other node) begins:
 * what we know of it is stale until it tells it again. What it does not
 * tell again before its `synced` went while we could not hear it. */
static void mark_stale(cluster *c, const char *node)
{
	app *a = c->a;
	size_t it = 0;
	rtable *rt;
	while ((rt = idmap_next(&c->tables, &it, NULL)))
		if (!node || !strcmp(rt->node, node))
			rt->stale = true;
	for (size_t i = 0; i < a->n_lobbies; i++) {
		for (size_t j = 0; j < a->lobbies[i]->n_remote; j++)
			if (!node || !strcmp(a->lobbies[i]->remote[j].node, node))
				a->lobbies[i]->remote[j].stale = true;
		if (lobby_made_by(c, a->lobbies[i], node))
			a->lobbies[i]->stale = true;
	}
}

/* Drops what we know of node `node` — only its stale entries when
 * stale_only — telling the lobbies' members (presence left, table_removed)
 * when tell. */
static void drop_entries(cluster *c, const char *node, bool stale_only, bool tell)
{
	app *a = c->a;
	size_t it = 0;
	uint64_t tid;
	rtable *rt;
	uint64_t *gone = NULL;
	size_t n = 0;
	while ((rt = idmap_next(&c->tables, &it, &tid)))
		if ((rt->stale || !stale_only) && !strcmp(rt->node, node)) {
			gone = xrealloc(gone, (n + 1) * sizeof *gone);
			gone[n++] = tid;
		}
	for (size_t i = 0; i < n; i++)
		rtable_drop(c, gone[i], tell);
	free(gone);
	for (size_t i = 0; i < a->n_lobbies; i++) {
		lobby *l = a->lobbies[i];
		for (size_t j = 0; j < l->n_remote;) {
			struct remote_member r = l->remote[j];
			if ((r.stale || !stale_only) && !strcmp(r.node, node)) {
				l->remote[j] = l->remote[--l->n_remote];
				if (tell)
					presence_msg(l, r.name, false);
			} else {
				j++;
			}
		}
	}
}

/* Node `node` is dead (declared gone, or silent too long): what we knew
 * of it goes, and the members here are told; its live tables come back
 * from their new node. */
void cl_forget_node(cluster *c, const char *node) { drop_entries(c, node, false, true); }

/* Node `node` has told all it has (synced): its entries still stale went
 * while nobody could hear it; the members here are told, as if they had
 * heard it happen — and so do the lobbies it made and no longer tells (an
 * admin closed one there during an outage: its members here get
 * lobby_closed, as they would have then). */
static void sweep_stale(cluster *c, const char *node)
{
	app *a = c->a;
	drop_entries(c, node, true, true);
	uint64_t *closed = NULL;
	size_t n = 0;
	for (size_t i = 0; i < a->n_lobbies; i++)
		if (a->lobbies[i]->stale && lobby_made_by(c, a->lobbies[i], node)) {
			closed = xrealloc(closed, (n + 1) * sizeof *closed);
			closed[n++] = a->lobbies[i]->id;
		}
	for (size_t i = 0; i < n; i++) {
		lobby *l = lobby_find(a, closed[i]);
		if (l)
			lobby_close(a, l);
	}
	free(closed);
}

static void on_sync(cluster *c, const bus_frame *f)
{
	mark_stale(c, f->from);
	cl_announce(c, f->from);
	say_hellos(c, f->from);
	cl_publish(c, f->from, "synced", NULL, 0, NULL, 0);
}

/* synced: node `from` has told us all its entries (after a sync). */
static void on_synced(cluster *c, const bus_frame *f)
{
	sweep_stale(c, f->from);
}

void cl_resync(cluster *c, const char *node)
{
	mark_stale(c, node);
	cl_publish(c, node, "sync", NULL, 0, NULL, 0);
	cl_announce(c, node);
	say_hellos(c, node);
	cl_publish(c, node, "synced", NULL, 0, NULL, 0);
}

void cl_on_state(bus *b, bool up, void *ud)
{
	(void)b;
	cluster *c = ud;
	log_info("cluster", "bus %s", up ? "up" : "down");
	if (!up)
		return;
	cl_heard_reset(c);
	cl_resync(c, NULL);
	cl_shared_resync(c);
}

/* ---- hooks from lobby.c and admin.c ------------------------------------ */

void cluster_presence(app *a, const lobby *l, const player *p, bool joined)
{
	cluster *c = a->cluster;
	if (!c)
		return;
	char lid[24], pid[24];
	cl_num(lid, sizeof lid, l->id);
	cl_num(pid, sizeof pid, (uint64_t)p->id);
	const char *w[] = {lid, pid, joined ? "1" : "0"};
	cl_publish(c, NULL, "pres", w, 3, p->name, strlen(p->name));
}

void cluster_table_changed(app *a, const lobby *l, const app_table *at)
{
	if (a->cluster)
		publish_table(a->cluster, NULL, l->id, at);
}

void cluster_table_removed(app *a, uint64_t lobby_id, uint64_t table_id)
{
	cluster *c = a->cluster;
	if (!c)
		return;
	char lid[24], tid[24];
	cl_num(lid, sizeof lid, lobby_id);
	cl_num(tid, sizeof tid, table_id);
	const char *w[] = {lid, tid};
	cl_publish(c, NULL, "tbl-", w, 2, NULL, 0);
}

int cluster_chat(app *a, const lobby *l, const char *from, const char *text, int64_t at)
{
	cluster *c = a->cluster;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "from", from);
	cJSON_AddStringToObject(o, "text", text);
	cJSON_AddNumberToObject(o, "at", (double)at);
	char *body = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	char lid[24];
	cl_num(lid, sizeof lid, l->id);
	const char *w[] = {lid};
	int rc = cl_publish(c, NULL, "chat", w, 1, body, strlen(body));
	free(body);
	return rc;
}

void cluster_lobby_created(app *a, const lobby *l)
{
	cluster *c = a->cluster;
	if (!c)
		return;
	char lid[24];
	cl_num(lid, sizeof lid, l->id);
	const char *w[] = {lid};
	cl_publish(c, NULL, "lobby+", w, 1, l->name, strlen(l->name));
}

void cluster_lobby_closed(app *a, uint64_t lobby_id)
{
	cluster *c = a->cluster;
	if (!c)
		return;
	char lid[24];
	cl_num(lid, sizeof lid, lobby_id);
	const char *w[] = {lid};
	cl_publish(c, NULL, "lobby-", w, 1, NULL, 0);
}

bool cluster_lobby_closable(app *a, const lobby *l)
{
	cluster *c = a->cluster;
	return !c || bus_is_up(c->b) || !lobby_made_by(c, l, NULL);
}

cJSON *cluster_table_summary(app *a, uint64_t table_id)
{
	rtable *rt = a->cluster ? idmap_get(&a->cluster->tables, table_id) : NULL;
	return rt ? cJSON_Parse(rt->summary) : NULL;
}

void cl_dir_register(cluster *c)
{
	static const cl_route_def routes[] = {
		{"pres", on_pres, true},	    {"tbl", on_tbl, true},
		{"tbl-", on_tbl_gone, true},	    {"chat", on_chat, false},
		{"lobby+", on_lobby_new, true},	    {"lobby-", on_lobby_gone, true},
		{"sync", on_sync, true},	    {"synced", on_synced, true},
	};
	cl_routes(c, routes, ARRAY_LEN(routes));
}
