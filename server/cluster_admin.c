/*
 * cluster_admin.c — admin requests over the whole cluster (docs/cluster.md,
 * "Admin requests"): admin_tables, admin_players, admin_stats and
 * admin_kick sent to any node are asked of every node on the bus, and the
 * answers merged into protocol v1's one reply, which also says which nodes
 * answered (`nodes`) and which did not in time (`missing`);
 * admin_players_prune first asks every node which players it holds, so
 * that none of them is pruned.
 *
 * The asking node (the admin's gateway) reads from Redis which nodes are on
 * the bus (the subscribers of the nodes' own channels), then publishes
 *
 *   adm   NO OP     args JSON     shared channel: every node, itself too
 *
 * and each node answers with its own part (admin.c's *_here functions):
 *
 *   adm-part NO     answer JSON   to the asking node's channel
 *
 * The admin's session waits, busy (its later requests queue behind it, as
 * for a forwarded request), until every node listed has answered or
 * CLUSTER_ADMIN_WAIT_MS has passed: a node that has not answered by then —
 * stopped, hung, overloaded — is reported missing, never waited for.
 */
#include "cluster_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/log.h"
#include "admin.h"
#include "lobby.h"
#include "session.h"

/* ADM_PRUNE asks each node for the ids of every player it holds (online,
 * or seated at its tables): those are not pruned, on any node. */
enum adm_op { ADM_TABLES, ADM_PLAYERS, ADM_STATS, ADM_KICK, ADM_PRUNE, ADM_OPS };
static const char *const op_name[ADM_OPS] = {"tables", "players", "stats", "kick", "ids"};

typedef struct adm_answer {
	char node[BUS_MAX_NODE + 1];
	cJSON *body;
} adm_answer;

struct cl_gather {
	cluster *c;
	uint32_t no;           /* also the waiting session's sess_cl.waiting */
	enum adm_op op;
	int64_t player;        /* the admin: its session gets the reply */
	cJSON *args;           /* what every node is asked */
	char (*expected)[BUS_MAX_NODE + 1]; /* the nodes on the bus */
	size_t n_expected;
	bool listed;           /* expected is known */
	adm_answer *got;
	size_t n_got;
	uv_timer_t *timer;
	cl_gather *next;
};

static cl_gather *gather_find(cluster *c, uint32_t no)
{
	for (cl_gather *g = c->gathers; g; g = g->next)
		if (g->no == no)
			return g;
	return NULL;
}

static void gather_free(cl_gather *g)
{
	cl_gather **pp = &g->c->gathers;
	while (*pp != g)
		pp = &(*pp)->next;
	*pp = g->next;
	uv_timer_stop(g->timer);
	uv_close((uv_handle_t *)g->timer, cl_free_handle);
	for (size_t i = 0; i < g->n_got; i++)
		cJSON_Delete(g->got[i].body);
	free(g->got);
	free(g->expected);
	cJSON_Delete(g->args);
	free(g);
}

static const adm_answer *answer_of(const cl_gather *g, const char *node)
{
	for (size_t i = 0; i < g->n_got; i++)
		if (!strcmp(g->got[i].node, node))
			return &g->got[i];
	return NULL;
}

static int cmp_str(const void *x, const void *y) { return strcmp(x, y); }

/* "nodes": who answered; "missing": who was on the bus and did not. */
static void add_nodes(cJSON *r, const cl_gather *g)
{
	char(*names)[BUS_MAX_NODE + 1] = xmalloc((g->n_got + 1) * sizeof *names);
	for (size_t i = 0; i < g->n_got; i++)
		strlcpy_safe(names[i], g->got[i].node, sizeof names[i]);
	qsort(names, g->n_got, sizeof *names, cmp_str);
	cJSON *arr = cJSON_AddArrayToObject(r, "nodes");
	for (size_t i = 0; i < g->n_got; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(names[i]));
	free(names);
	arr = cJSON_AddArrayToObject(r, "missing");
	for (size_t i = 0; i < g->n_expected; i++)
		if (!answer_of(g, g->expected[i]))
			cJSON_AddItemToArray(arr, cJSON_CreateString(g->expected[i]));
}

static size_t arg_num(const cJSON *args, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
	return cJSON_IsNumber(v) && v->valuedouble > 0 ? (size_t)v->valuedouble : 0;
}

static int cmp_item_id(const void *x, const void *y)
{
	uint64_t a = admin_item_id(*(cJSON *const *)x), b = admin_item_id(*(cJSON *const *)y);
	return a < b ? -1 : a > b;
}

/* Every node's page of `key` merged into one page of r: sorted by id, at
 * most the asked limit, each item marked with its node. */
static void merge_pages(cl_gather *g, cJSON *r, const char *key)
{
	size_t n = 0, total = 0;
	bool more = false;
	for (size_t i = 0; i < g->n_got; i++) {
		n += (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(g->got[i].body, key));
		total += arg_num(g->got[i].body, "total");
		more |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g->got[i].body, "more"));
	}
	cJSON **items = xmalloc((n + 1) * sizeof *items);
	size_t k = 0;
	for (size_t i = 0; i < g->n_got; i++) {
		cJSON *it;
		cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(g->got[i].body, key))
			if (k < n && cJSON_IsObject(it)) {
				cJSON_DeleteItemFromObjectCaseSensitive(it, "node");
				cJSON_AddStringToObject(it, "node", g->got[i].node);
				items[k++] = it;
			}
	}
	qsort(items, k, sizeof *items, cmp_item_id);
	size_t shown = MIN(k, arg_num(g->args, "limit"));
	cJSON *arr = cJSON_AddArrayToObject(r, key);
	for (size_t i = 0; i < shown; i++)
		cJSON_AddItemToArray(arr, cJSON_Duplicate(items[i], true));
	list_page_end(r, total, more || k > shown, shown ? admin_item_id(items[shown - 1]) : 0);
	free(items);
}

static cJSON *reply_tables(cl_gather *g, const cJSON *id)
{
	cJSON *r = proto_new("tables", id);
	size_t lobby_id = arg_num(g->args, "lobby");
	if (lobby_id)
		cJSON_AddNumberToObject(r, "lobby", (double)lobby_id);
	else
		cJSON_AddNullToObject(r, "lobby");
	merge_pages(g, r, "tables");
	return r;
}

/* A player's seats are listed by the nodes of their tables ("seated"),
 * its connection by its gateway: each entry gets its tables everywhere. */
static cJSON *reply_players(cl_gather *g, const cJSON *id)
{
	cJSON *r = proto_new("players", id);
	merge_pages(g, r, "players");
	cJSON *e;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(r, "players")) {
		uint64_t pid = admin_item_id(e);
		cJSON *tables = cJSON_GetObjectItemCaseSensitive(e, "tables");
		for (size_t i = 0; i < g->n_got; i++) {
			const cJSON *s;
			cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(g->got[i].body, "seated")) {
				if (admin_item_id(s) != pid)
					continue;
				const cJSON *t;
				cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(s, "tables"))
					if (cJSON_IsNumber(t) && cJSON_IsArray(tables))
						cJSON_AddItemToArray(tables, cJSON_CreateNumber(t->valuedouble));
			}
		}
	}
	return r;
}

/* Adds b's numbers to a's, key by key (objects: recursively). */
static void add_figures(cJSON *a, const cJSON *b)
{
	const cJSON *v;
	cJSON_ArrayForEach(v, b) {
		cJSON *mine = cJSON_GetObjectItemCaseSensitive(a, v->string);
		if (cJSON_IsNumber(v) && cJSON_IsNumber(mine))
			cJSON_SetNumberValue(mine, mine->valuedouble + v->valuedouble);
		else if (cJSON_IsNumber(v) && !mine)
			cJSON_AddNumberToObject(a, v->string, v->valuedouble);
		else if (cJSON_IsObject(v) && cJSON_IsObject(mine))
			add_figures(mine, v);
		else if (cJSON_IsObject(v) && !mine)
			cJSON_AddItemToObject(a, v->string, cJSON_Duplicate(v, true));
	}
}

/* The cluster's figures: each node's summed, but the uptime and the lobbies
 * (every node holds every lobby), which are this node's; and each node's
 * own in by_node. */
static cJSON *reply_stats(const cl_gather *g, const cJSON *id)
{
	cJSON *sum = cJSON_CreateObject();
	cJSON *by = cJSON_CreateObject();
	for (size_t i = 0; i < g->n_got; i++) {
		add_figures(sum, g->got[i].body);
		cJSON_AddItemToObject(by, g->got[i].node, cJSON_Duplicate(g->got[i].body, true));
	}
	cJSON *r = proto_new("admin_stats", id);
	admin_stats_here(g->c->a, r);
	const cJSON *v;
	cJSON_ArrayForEach(v, sum) {
		if (!strcmp(v->string, "uptime_ms") || !strcmp(v->string, "lobbies"))
			continue;
		cJSON_DeleteItemFromObjectCaseSensitive(r, v->string);
		cJSON_AddItemToObject(r, v->string, cJSON_Duplicate(v, true));
	}
	cJSON_Delete(sum);
	cJSON_AddItemToObject(r, "by_node", by);
	return r;
}

static size_t n_missing(const cl_gather *g)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n_expected; i++)
		n += !answer_of(g, g->expected[i]);
	return n;
}

/* A prune keeps every node's players: refused when a node did not say
 * which are its own. True: the store has it (the session waits on). */
static bool prune_everywhere(const cl_gather *g, session *s)
{
	if (n_missing(g)) {
		app_error(s, s->req_id, PROTO_E_INTERNAL, NULL,
			  "%zu node(s) did not answer in time: nothing was pruned; try again",
			  n_missing(g));
		return false;
	}
	size_t n = 0;
	for (size_t i = 0; i < g->n_got; i++)
		n += (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(g->got[i].body, "ids"));
	int64_t *ids = xmalloc((n + 1) * sizeof *ids);
	size_t k = 0;
	for (size_t i = 0; i < g->n_got; i++) {
		const cJSON *v;
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(g->got[i].body, "ids"))
			if (k < n && cJSON_IsNumber(v))
				ids[k++] = (int64_t)v->valuedouble;
	}
	bool started = admin_prune_start(s, (int64_t)arg_num(g->args, "older_than_ms"), ids, k);
	free(ids);
	if (!started)
		app_error(s, s->req_id, PROTO_E_DRAINING, NULL, "the server is shutting down");
	return started;
}

static void kick_reply(const cl_gather *g, session *s)
{
	bool kicked = false;
	for (size_t i = 0; i < g->n_got; i++)
		kicked |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g->got[i].body, "kicked"));
	const char *who = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(g->args, "player"));
	if (kicked)
		app_ok(s, s->req_id);
	else if (n_missing(g))
		app_error(s, s->req_id, PROTO_E_INTERNAL, NULL,
			  "%zu node(s) did not answer in time: %s may be connected there and may "
			  "or may not have been kicked; try again",
			  n_missing(g), who);
	else
		app_error(s, s->req_id, PROTO_E_NOT_FOUND, "player", "%s is not online", who);
}

/* Answered by every node listed, or out of time (failed: the bus failed):
 * the reply, if the admin's session still waits for it. */
static void gather_end(cl_gather *g, const char *failed)
{
	cluster *c = g->c;
	player *p = player_find(c->a, g->player);
	session *s = p ? p->sess : NULL;
	sess_cl *x = s && !cl_is_stub(s) ? s->cl : NULL;
	bool waits_on = false; /* for the store (a prune) */
	if (x && x->waiting == g->no) {
		x->waiting = 0;
		if (failed) {
			app_error(s, s->req_id, PROTO_E_INTERNAL, NULL, "%s", failed);
		} else if (g->op == ADM_PRUNE) {
			waits_on = prune_everywhere(g, s);
		} else if (g->op == ADM_KICK) {
			kick_reply(g, s);
		} else {
			cJSON *r = g->op == ADM_TABLES    ? reply_tables(g, s->req_id)
				   : g->op == ADM_PLAYERS ? reply_players(g, s->req_id)
							  : reply_stats(g, s->req_id);
			add_nodes(r, g);
			app_send(s, r);
		}
		if (!waits_on)
			app_session_unbusy(s);
	}
	gather_free(g);
}

static bool gather_complete(const cl_gather *g)
{
	if (!g->listed)
		return false;
	for (size_t i = 0; i < g->n_expected; i++)
		if (!answer_of(g, g->expected[i]))
			return false;
	return true;
}

static void on_gather_timeout(uv_timer_t *t) { gather_end(t->data, NULL); }

typedef struct gather_ref {
	cluster *c;
	uint32_t no;
} gather_ref;

/* Redis listed the nodes' own channels: those nodes are asked. */
static void on_channels(bus *b, redisReply *reply, void *ud)
{
	gather_ref *ref = ud;
	cl_gather *g = gather_find(ref->c, ref->no);
	free(ref);
	if (!g)
		return;
	if (!reply || reply->type != REDIS_REPLY_ARRAY) {
		gather_end(g, "the other nodes cannot be reached; try again");
		return;
	}
	char prefix[64];
	snprintf(prefix, sizeof prefix, "%sn:", bus_prefix(b));
	size_t plen = strlen(prefix);
	g->expected = xcalloc(reply->elements + 1, sizeof *g->expected);
	for (size_t i = 0; i < reply->elements; i++) {
		const redisReply *e = reply->element[i];
		if (e->type == REDIS_REPLY_STRING && e->len > plen && e->len - plen <= BUS_MAX_NODE &&
		    !strncmp(e->str, prefix, plen))
			strlcpy_safe(g->expected[g->n_expected++], e->str + plen, BUS_MAX_NODE + 1);
	}
	qsort(g->expected, g->n_expected, sizeof *g->expected, cmp_str);
	g->listed = true;
	char no[16];
	cl_num(no, sizeof no, g->no);
	const char *w[] = {no, op_name[g->op]};
	char *args = cJSON_PrintUnformatted(g->args);
	int rc = cl_publish(g->c, NULL, "adm", w, 2, args, strlen(args));
	free(args);
	if (rc != 0)
		gather_end(g, "the other nodes cannot be reached; try again");
}

static cJSON *ask_args(const session *s, const proto_msg *m, enum adm_op op)
{
	cJSON *args = cJSON_CreateObject();
	if (op == ADM_TABLES || op == ADM_PLAYERS) {
		list_page pg = list_page_of(m);
		cJSON_AddNumberToObject(args, "after", (double)pg.after);
		cJSON_AddNumberToObject(args, "limit", (double)pg.limit);
	}
	if (op == ADM_TABLES && m->u.lobby.lobby != PROTO_ABSENT)
		cJSON_AddNumberToObject(args, "lobby", (double)m->u.lobby.lobby);
	if (op == ADM_KICK) {
		cJSON_AddStringToObject(args, "player", m->u.kick.player);
		if (m->u.kick.reason)
			cJSON_AddStringToObject(args, "reason", m->u.kick.reason);
		cJSON_AddStringToObject(args, "by", s->pl->name);
	}
	if (op == ADM_PRUNE)
		cJSON_AddNumberToObject(args, "older_than_ms", (double)m->u.prune.older_than_ms);
	return args;
}

bool cluster_admin_ask(session *s, const proto_msg *m)
{
	app *a = s->app;
	cluster *c = a->cluster;
	if (!c || cl_is_stub(s) || !s->pl)
		return false;
	enum adm_op op = m->type == PROTO_ADMIN_TABLES    ? ADM_TABLES
			 : m->type == PROTO_ADMIN_PLAYERS ? ADM_PLAYERS
			 : m->type == PROTO_ADMIN_STATS   ? ADM_STATS
			 : m->type == PROTO_ADMIN_KICK    ? ADM_KICK
							  : ADM_PRUNE;
	if (!bus_is_up(c->b)) {
		/* The others cannot be asked; a player connected here can still
		 * be kicked here (single-node's handler does it). */
		if (op == ADM_KICK && admin_online_here(a, m->u.kick.player))
			return false;
		app_error(s, m->id, PROTO_E_INTERNAL, NULL,
			  "the other nodes cannot be reached (the bus is down); try again");
		return true;
	}
	cl_gather *g = xcalloc(1, sizeof *g);
	g->c = c;
	g->no = cl_next_no(c);
	g->op = op;
	g->player = s->pl->id;
	g->args = ask_args(s, m, op);
	gather_ref *ref = xcalloc(1, sizeof *ref);
	*ref = (gather_ref){c, g->no};
	char pattern[64];
	snprintf(pattern, sizeof pattern, "%sn:*", bus_prefix(c->b));
	const char *argv[] = {"PUBSUB", "CHANNELS", pattern};
	size_t argvlen[] = {6, 8, strlen(pattern)};
	if (bus_command(c->b, on_channels, ref, 3, argv, argvlen) != 0) {
		free(ref);
		cJSON_Delete(g->args);
		free(g);
		app_error(s, m->id, PROTO_E_INTERNAL, NULL,
			  "the other nodes cannot be reached (the bus is down); try again");
		return true;
	}
	g->timer = xcalloc(1, sizeof *g->timer);
	uv_timer_init(a->loop, g->timer);
	g->timer->data = g;
	uv_timer_start(g->timer, on_gather_timeout, CLUSTER_ADMIN_WAIT_MS, 0);
	g->next = c->gathers;
	c->gathers = g;
	cl_of(s)->waiting = g->no;
	cJSON_Delete(s->req_id);
	s->req_id = m->id ? cJSON_Duplicate(m->id, true) : NULL;
	s->busy = true;
	return true;
}

/* ---- every node's part ------------------------------------------------- */

static int cmp_id(const void *x, const void *y)
{
	int64_t a = (*(player *const *)x)->id, b = (*(player *const *)y)->id;
	return a < b ? -1 : a > b;
}

/* The seats here of players connected to other nodes (their stand-ins),
 * after the cursor, by id, at most the limit: enough for any page, since
 * every one of them is online. */
static void add_seated(cluster *c, const cJSON *args, cJSON *body)
{
	app *a = c->a;
	uint64_t after = arg_num(args, "after");
	size_t limit = arg_num(args, "limit");
	player **ps = xmalloc((a->players.len + 1) * sizeof *ps);
	size_t n = 0, it = 0;
	player *p;
	while ((p = idmap_next(&a->players, &it, NULL)))
		if (cl_is_stub(p->sess) && p->n_tables > 0 && (uint64_t)p->id > after)
			ps[n++] = p;
	qsort(ps, n, sizeof *ps, cmp_id);
	cJSON *arr = cJSON_AddArrayToObject(body, "seated");
	for (size_t i = 0; i < n && i < limit; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "id", (double)ps[i]->id);
		cJSON *t = cJSON_AddArrayToObject(e, "tables");
		for (int k = 0; k < ps[i]->n_tables; k++)
			cJSON_AddItemToArray(t, cJSON_CreateNumber((double)ps[i]->tables[k]));
		cJSON_AddItemToArray(arr, e);
	}
	free(ps);
}

/* A kick: the player's connection here ends; its seats here, if it is
 * connected elsewhere, go to the AI at once (as on one node). */
static void kick_here(cluster *c, const cJSON *args, cJSON *body)
{
	app *a = c->a;
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "player"));
	const char *reason = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "reason"));
	const char *by = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "by"));
	if (!name)
		return;
	cJSON_AddBoolToObject(body, "kicked", admin_kick_here(a, by ? by : "?", name, reason));
	size_t it = 0;
	player *p;
	while ((p = idmap_next(&a->players, &it, NULL)))
		if (cl_is_stub(p->sess) && strcasecmp(p->name, name) == 0) {
			tables_player_leave_all(a, p);
			break;
		}
}

static void on_adm(bus *b, const bus_frame *f, void *ud)
{
	(void)b;
	cluster *c = ud;
	uint64_t no;
	if (cl_is_gone(c, f->from) || !cl_word_u64(f, 0, &no) || f->nwords < 2)
		return;
	int op = 0;
	while (op < ADM_OPS && strcmp(op_name[op], f->word[1]))
		op++;
	cJSON *args = cJSON_ParseWithLength(f->payload, f->len);
	if (op == ADM_OPS || !cJSON_IsObject(args)) {
		cJSON_Delete(args);
		return;
	}
	app *a = c->a;
	cJSON *body = cJSON_CreateObject();
	list_page pg = {arg_num(args, "after"), arg_num(args, "limit")};
	size_t total = 0;
	bool more = false;
	if (op == ADM_TABLES) {
		cJSON *arr = cJSON_AddArrayToObject(body, "tables");
		more = admin_tables_here(a, arg_num(args, "lobby"), pg, arr, &total);
	} else if (op == ADM_PLAYERS) {
		cJSON *arr = cJSON_AddArrayToObject(body, "players");
		more = admin_players_here(a, pg, arr, &total);
		add_seated(c, args, body);
	} else if (op == ADM_STATS) {
		admin_stats_here(a, body);
	} else if (op == ADM_PRUNE) {
		cJSON *ids = cJSON_AddArrayToObject(body, "ids");
		size_t it = 0;
		uint64_t pid;
		while (idmap_next(&a->players, &it, &pid))
			cJSON_AddItemToArray(ids, cJSON_CreateNumber((double)pid));
	} else {
		kick_here(c, args, body);
	}
	if (op == ADM_TABLES || op == ADM_PLAYERS) {
		cJSON_AddNumberToObject(body, "total", (double)total);
		cJSON_AddBoolToObject(body, "more", more);
	}
	char *text = cJSON_PrintUnformatted(body);
	const char *w[] = {f->word[0]};
	cl_publish(c, f->from, "adm-part", w, 1, text, strlen(text));
	free(text);
	cJSON_Delete(body);
	cJSON_Delete(args);
}

static void on_adm_answer(bus *b, const bus_frame *f, void *ud)
{
	(void)b;
	cluster *c = ud;
	uint64_t no;
	if (cl_is_gone(c, f->from) || !cl_word_u64(f, 0, &no) || no > UINT32_MAX)
		return;
	cl_gather *g = gather_find(c, (uint32_t)no);
	cJSON *body = cJSON_ParseWithLength(f->payload, f->len);
	if (!g || !cJSON_IsObject(body) || answer_of(g, f->from)) {
		cJSON_Delete(body);
		return;
	}
	g->got = xrealloc(g->got, (g->n_got + 1) * sizeof *g->got);
	strlcpy_safe(g->got[g->n_got].node, f->from, sizeof g->got[g->n_got].node);
	g->got[g->n_got++].body = body;
	if (gather_complete(g))
		gather_end(g, NULL);
}

void cl_admin_register(cluster *c)
{
	bus_on(c->b, "adm", on_adm, c);
	bus_on(c->b, "adm-part", on_adm_answer, c);
}

void cl_admin_close(cluster *c)
{
	while (c->gathers)
		gather_free(c->gathers);
}
