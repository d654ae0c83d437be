/*
 * cluster.c — see cluster.h: the cluster's life (the bus, its handlers),
 * the stand-in sessions of remote players, and forwarding, both ends;
 * the directory is cluster_dir.c, takeover and hand-over
 * cluster_takeover.c. Every frame passes one dispatch (cl_routes). The frames
 * (docs/cluster.md, "Frames"):
 *
 * on the shared channel, every node:
 *   chat  LOBBY               {"from","text","at"}    a chat line, shown on receipt
 *   pres  LOBBY PLAYER 0|1    name                    a member joined / left
 *   tbl   LOBBY TABLE         summary JSON            a table's summary
 *   tbl-  LOBBY TABLE                                 a table is gone
 *   lobby+ LOBBY              name                    an admin made a lobby
 *   lobby- LOBBY                                      ... closed it
 *   hello PLAYER              resume JSON or ""       the player connected here
 *   conn  PLAYER 0                                    its session here ended
 *   sync                                              tell me your entries
 *   synced                                            I have told you all mine (after
 *                                                     a sync: what I did not tell
 *                                                     again is gone)
 *   claimed TABLE             player ids, comma-separated   this node took it over
 *   gone  NODE                                        a node declared dead (its
 *                                                     tables were taken over)
 *   shared KIND               {"key": value, ...}    the kind's shared values
 *                                                     after a record (cluster_shared.c)
 *   leave                                             this node left (SIGTERM):
 *                                                     take its live tables now
 *   beat                                              this node lives (every
 *                                                     claim period)
 * to one node:
 *   req   PLAYER NO ADMIN     name LF client frame    a forwarded request
 *   upd   PLAYER              message                 for the player's connection
 *   done  PLAYER NO                                   the request NO is answered
 *   (adm and adm-part, admin requests asked of every node: cluster_admin.c)
 *   (and tbl, pres, lobby+, synced in answer to sync)
 */
#include "cluster_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "lobby.h"
#include "metrics.h"
#include "netaddr.h"
#include "passcheck.h"
#include "session.h"

bool cl_is_self(const cluster *c, const bus_frame *f) { return !strcmp(f->from, c->node); }

bool cl_is_gone(const cluster *c, const char *node)
{
	for (size_t i = 0; i < c->n_gone; i++)
		if (!strcmp(c->gone[i], node))
			return true;
	return false;
}

bool cl_word_u64(const bus_frame *f, int i, uint64_t *out)
{
	if (i >= f->nwords)
		return false;
	char *end;
	unsigned long long v = strtoull(f->word[i], &end, 10);
	if (*end || end == f->word[i])
		return false;
	*out = v;
	return true;
}

void cl_num(char *out, size_t len, uint64_t v) { snprintf(out, len, "%" PRIu64, v); }

/* The caps a player's connection asked for, as the word a hello or a
 * forwarded request carries after the others (a node that sends none, as
 * before it knew of them, means none): the owner's stand-in renders the
 * table's updates as that connection asked (view_patch, lean). */
void cl_caps_word(char *out, size_t len, const session *s) { cl_num(out, len, s ? s->caps : 0); }

void cl_take_caps(session *stub, const bus_frame *f, int i)
{
	uint64_t caps = 0;
	cl_word_u64(f, i, &caps);
	stub->caps = (uint32_t)caps & ((1u << PROTO_CAPS_KNOWN) - 1);
}

uint32_t cl_next_no(cluster *c) { return ++c->next_fwd ? c->next_fwd : ++c->next_fwd; }

int cl_publish(cluster *c, const char *to, const char *type, const char *const *w, int n,
		   const char *payload, size_t len)
{
	return bus_publish(c->b, to, type, w, n, payload ? payload : "", payload ? len : 0, NULL,
			   NULL);
}

/* ---- dispatch ---------------------------------------------------------- */

/* Every frame passes here before its handler: what a node declared gone
 * still sends (a hung node woken before it learns it was fenced) is
 * dropped, and so are our own frames, which the shared channel brings
 * back, for a handler of what the other nodes do. */
static void dispatch(bus *b, const bus_frame *f, void *ud)
{
	(void)b;
	const cl_route *r = ud;
	cluster *c = r->c;
	bool self = cl_is_self(c, f);
	if (cl_is_gone(c, f->from) || (r->others_only && self))
		return;
	if (!self)
		cl_heard(c, f->from);
	r->fn(c, f);
}

void cl_routes(cluster *c, const cl_route_def *defs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (c->n_routes == CL_MAX_ROUTES)
			abort(); /* a programming error: raise CL_MAX_ROUTES */
		cl_route *r = &c->routes[c->n_routes++];
		*r = (cl_route){c, defs[i].fn, defs[i].others_only};
		bus_on(c->b, defs[i].type, dispatch, r);
	}
}

/* ---- sessions ---------------------------------------------------------- */

sess_cl *cl_of(session *s)
{
	if (!s->cl) {
		sess_cl *x = xcalloc(1, sizeof *x);
		x->s = s;
		s->cl = x;
	}
	return s->cl;
}

bool cl_is_stub(const session *s) { return s && s->cl && ((sess_cl *)s->cl)->stub; }

void cl_free_handle(uv_handle_t *h) { free(h); }

static void stop_wait(sess_cl *x)
{
	x->waiting = 0;
	if (x->timer) {
		uv_timer_stop(x->timer);
		uv_close((uv_handle_t *)x->timer, cl_free_handle);
		x->timer = NULL;
	}
}

/* The owner's stand-in session for player p, at gateway `node`. */
session *cl_stub_for(cluster *c, player *p, const char *node)
{
	session *s = p->sess;
	if (!cl_is_stub(s)) {
		s = xcalloc(1, sizeof *s);
		s->app = c->a;
		s->state = SESSION_READY;
		s->pl = p;
		cl_of(s)->stub = true;
		p->sess = s;
	}
	strlcpy_safe(cl_of(s)->gateway, node, sizeof cl_of(s)->gateway);
	return s;
}

/* The player's stand-in goes: it is away from this node's tables. */
void cl_stub_drop(cluster *c, player *p)
{
	if (!cluster_drop_stub(p->sess))
		return;
	tables_player_connected(c->a, p, false);
	player_release(c->a, p);
}

bool cluster_drop_stub(session *s)
{
	if (!cl_is_stub(s))
		return false;
	player *p = s->pl;
	p->sess = NULL;
	passcheck_detach(s); /* a password hash in flight answers nobody */
	free(s->cl);
	cJSON_Delete(s->req_id);
	free(s->req_ctx);
	free(s);
	return true;
}

void cluster_session_gone(session *s)
{
	sess_cl *x = s->cl;
	if (!x)
		return;
	stop_wait(x);
	free(x);
	s->cl = NULL;
}

void cluster_player_left(app *a, player *p)
{
	cluster *c = a->cluster;
	if (!c)
		return;
	char id[24];
	cl_num(id, sizeof id, (uint64_t)p->id);
	const char *w[] = {id, "0"};
	cl_publish(c, NULL, "conn", w, 2, NULL, 0);
}

void cluster_player_hello(session *s)
{
	cluster *c = s->app->cluster;
	if (!c || !s->pl)
		return;
	char id[24], caps[16];
	cl_num(id, sizeof id, (uint64_t)s->pl->id);
	cl_caps_word(caps, sizeof caps, s);
	const char *w[] = {id, caps};
	char *resume = s->resume ? cJSON_PrintUnformatted(s->resume) : NULL;
	cl_publish(c, NULL, "hello", w, 2, resume, resume ? strlen(resume) : 0);
	free(resume);
}

/* ---- forwarding: the gateway ------------------------------------------- */

static bool names_a_table(enum proto_type t)
{
	switch (t) {
	case PROTO_TABLE_JOIN:
	case PROTO_TABLE_SPECTATE:
	case PROTO_TABLE_LEAVE:
	case PROTO_TABLE_ADD_AI:
	case PROTO_TABLE_REMOVE_AI:
	case PROTO_TABLE_START:
	case PROTO_CHOOSE:
	case PROTO_SELECTING:
	case PROTO_TAKE_SEAT:
	case PROTO_TABLE_SYNC:
	case PROTO_REMATCH:
	case PROTO_TABLE_CLOSE:
	case PROTO_ADMIN_TABLE_CLOSE:
		return true;
	default:
		return false;
	}
}

static void on_forward_timeout(uv_timer_t *t)
{
	sess_cl *x = t->data;
	session *s = x->s;
	cluster *c = s->app->cluster;
	c->forward_timeouts++;
	stop_wait(x);
	app_error(s, s->req_id, PROTO_E_INTERNAL, NULL,
		  "the table's node did not answer in time; the request may not have been "
		  "carried out");
	app_session_unbusy(s);
}

/* A forwarded request's publish: nobody on the owner's channel means no
 * such node (any more): the table does not exist. */
typedef struct fwd_sent {
	cluster *c;
	int64_t player;
	uint32_t no;
} fwd_sent;

static void on_forward_sent(bus *b, long long receivers, void *ud)
{
	(void)b;
	fwd_sent *f = ud;
	player *p = receivers > 0 ? NULL : player_find(f->c->a, f->player);
	session *s = p ? p->sess : NULL;
	sess_cl *x = s && !cl_is_stub(s) ? s->cl : NULL;
	if (x && x->waiting == f->no) {
		stop_wait(x);
		if (receivers == 0)
			app_error(s, s->req_id, PROTO_E_NOT_FOUND, "table", "no such table");
		else
			app_error(s, s->req_id, PROTO_E_INTERNAL, NULL,
				  "the table's node cannot be reached; try again");
		app_session_unbusy(s);
	}
	free(f);
}

/* A table request while this node hands its tables over: they are moving
 * and no longer run here (internal: try again, at their new node). */
static bool refused_leaving(cluster *c, session *s, const proto_msg *m)
{
	if (!c->leaving || !names_a_table(m->type))
		return false;
	app_error(s, m->id, PROTO_E_INTERNAL, NULL,
		  "the table is moving to another node; try again");
	return true;
}

bool cluster_forward(session *s, const proto_msg *m, const char *text, size_t len)
{
	app *a = s->app;
	cluster *c = a->cluster;
	if (c && s->state == SESSION_READY && refused_leaving(c, s, m))
		return true;
	if (!c || s->state != SESSION_READY || !s->pl || !names_a_table(m->type) ||
	    m->u.table.table == PROTO_ABSENT || app_table_find(a, (uint64_t)m->u.table.table))
		return false;
	/* The owner: as the directory says, else the node whose range the id
	 * is of (the directory may not have heard of a new table yet). */
	uint64_t tid = (uint64_t)m->u.table.table;
	rtable *rt = idmap_get(&c->tables, tid);
	char owner[BUS_MAX_NODE + 1];
	if (rt)
		strlcpy_safe(owner, rt->node, sizeof owner);
	else if ((int64_t)(tid >> 32) != c->node_id && (tid >> 32) != 0)
		snprintf(owner, sizeof owner, "n%" PRIu64, tid >> 32);
	else
		return false; /* ours, and not here: the handler says not_found */
	player *p = s->pl;
	char id[24], no[16], caps[16];
	uint32_t fwd = cl_next_no(c);
	cl_num(id, sizeof id, (uint64_t)p->id);
	cl_num(no, sizeof no, fwd);
	cl_caps_word(caps, sizeof caps, s);
	const char *w[] = {id, no, p->admin ? "1" : "0", caps};
	buf body = {0};
	buf_append(&body, p->name, strlen(p->name));
	buf_append(&body, "\n", 1);
	buf_append(&body, text, len);
	fwd_sent *sent = xcalloc(1, sizeof *sent);
	*sent = (fwd_sent){c, p->id, fwd};
	int rc = bus_publish(c->b, owner, "req", w, 4, body.data, body.len, on_forward_sent, sent);
	buf_free(&body);
	if (rc != 0) {
		free(sent);
		app_error(s, m->id, PROTO_E_INTERNAL, NULL,
			  "the table's node cannot be reached; try again");
		return true;
	}
	c->forwarded++;
	sess_cl *x = cl_of(s);
	x->waiting = fwd;
	x->timer = xcalloc(1, sizeof *x->timer);
	uv_timer_init(a->loop, x->timer);
	x->timer->data = x;
	uv_timer_start(x->timer, on_forward_timeout, CLUSTER_FORWARD_TIMEOUT_MS, 0);
	cJSON_Delete(s->req_id);
	s->req_id = m->id ? cJSON_Duplicate(m->id, true) : NULL;
	s->busy = true;
	return true;
}

/* upd: a message from an owner for one of our players. */
static void on_upd(cluster *c, const bus_frame *f)
{
	uint64_t pid;
	if (!cl_word_u64(f, 0, &pid))
		return;
	player *p = player_find(c->a, (int64_t)pid);
	if (!p || !p->sess || cl_is_stub(p->sess)) {
		c->upd_dropped++;
		return;
	}
	app_send_text(p->sess, f->payload, f->len);
}

/* done: the owner has answered the request; what it sent came first. */
static void on_done(cluster *c, const bus_frame *f)
{
	uint64_t pid, no;
	if (!cl_word_u64(f, 0, &pid) || !cl_word_u64(f, 1, &no))
		return;
	player *p = player_find(c->a, (int64_t)pid);
	session *s = p ? p->sess : NULL;
	sess_cl *x = s && !cl_is_stub(s) ? s->cl : NULL;
	if (!x || !x->waiting || x->waiting != no)
		return; /* timed out already, or another connection since */
	stop_wait(x);
	app_session_unbusy(s);
}

/* ---- forwarding: the owner --------------------------------------------- */

void cluster_send_remote(session *s, const char *text, size_t len)
{
	cluster *c = s->app->cluster;
	sess_cl *x = s->cl;
	if (!c || !x || !x->stub || !s->pl)
		return;
	char id[24];
	cl_num(id, sizeof id, (uint64_t)s->pl->id);
	const char *w[] = {id};
	s->app->msgs_out++;
	cl_publish(c, x->gateway, "upd", w, 1, text, len);
}

static void send_done(cluster *c, session *s)
{
	sess_cl *x = s->cl;
	if (!x->doing)
		return;
	char id[24], no[16];
	cl_num(id, sizeof id, (uint64_t)s->pl->id);
	cl_num(no, sizeof no, x->doing);
	x->doing = 0;
	const char *w[] = {id, no};
	cl_publish(c, x->gateway, "done", w, 2, NULL, 0);
}

void cluster_request_done(session *s)
{
	if (cl_is_stub(s) && !s->busy)
		send_done(s->app->cluster, s);
}

static void on_req(cluster *c, const bus_frame *f)
{
	app *a = c->a;
	uint64_t pid, no, admin;
	const char *nl = memchr(f->payload, '\n', f->len);
	if (!cl_word_u64(f, 0, &pid) || !cl_word_u64(f, 1, &no) || !cl_word_u64(f, 2, &admin) || !nl ||
	    pid == 0 || (size_t)(nl - f->payload) >= APP_NAME_MAX)
		return;
	char name[APP_NAME_MAX];
	memcpy(name, f->payload, (size_t)(nl - f->payload));
	name[nl - f->payload] = 0;
	player *p = player_offline(a, (int64_t)pid, name);
	strlcpy_safe(p->name, name, sizeof p->name);
	p->admin = admin == 1;
	if (p->sess && !cl_is_stub(p->sess)) {
		/* Connected here too: the newer hello on the gateway reaches us
		 * before its requests (one publisher, one order), so this is a
		 * stale frame. */
		return;
	}
	session *s = cl_stub_for(c, p, f->from);
	cl_take_caps(s, f, 3);
	sess_cl *x = s->cl;
	x->doing = (uint32_t)no;
	a->msgs_in++;
	const char *text = nl + 1;
	size_t len = f->len - (size_t)(text - f->payload);
	proto_msg m;
	proto_error err;
	if (proto_decode(text, len, &m, &err) != PROTO_OK)
		app_send(s, proto_error_from(m.id, &err));
	else if (!refused_leaving(c, s, &m))
		app_dispatch(s, &m);
	proto_msg_free(&m);
	if (p->sess == s && !s->busy)
		send_done(c, s);
}

/* hello: the player is connected on node `from` now. */
static void on_hello(cluster *c, const bus_frame *f)
{
	app *a = c->a;
	uint64_t pid;
	if (!cl_word_u64(f, 0, &pid))
		return;
	player *p = player_find(a, (int64_t)pid);
	if (!p)
		return;
	session *old = p->sess;
	if (old && !cl_is_stub(old)) {
		/* Connected here before: the newer connection wins. */
		session_replaced(old);
		p->sess = NULL;
		lobby_leave_player(a, p);
	}
	if (p->n_tables == 0) {
		if (cl_is_stub(p->sess))
			cl_stub_drop(c, p);
		else
			player_release(a, p);
		return;
	}
	cl_take_caps(cl_stub_for(c, p, f->from), f, 1);
	cJSON *resume = f->len ? cJSON_ParseWithLength(f->payload, f->len) : NULL;
	tables_resume_player(a, p, resume);
	cJSON_Delete(resume);
	tables_player_connected(a, p, true);
}

/* conn PLAYER 0: its session on `from` ended. */
static void on_conn(cluster *c, const bus_frame *f)
{
	uint64_t pid;
	if (!cl_word_u64(f, 0, &pid))
		return;
	player *p = player_find(c->a, (int64_t)pid);
	if (p && cl_is_stub(p->sess) && !strcmp(((sess_cl *)p->sess->cl)->gateway, f->from))
		cl_stub_drop(c, p);
}

void cl_forward_register(cluster *c)
{
	static const cl_route_def routes[] = {
		{"upd", on_upd, false},	   {"done", on_done, false}, {"req", on_req, false},
		{"hello", on_hello, true}, {"conn", on_conn, true},
	};
	cl_routes(c, routes, ARRAY_LEN(routes));
}

/* ---- life -------------------------------------------------------------- */

cluster *cluster_open(app *a, int64_t node_id, char *err, size_t errlen)
{
	cluster *c = xcalloc(1, sizeof *c);
	c->a = a;
	c->node_id = node_id;
	snprintf(c->node, sizeof c->node, "n%" PRId64, node_id);
	bus_config cfg;
	bus_config_defaults(&cfg);
	netaddr addr;
	int port;
	if (!netaddr_parse_hostport(a->cfg->redis, &addr, &port)) {
		snprintf(err, errlen, "redis: \"%s\" is not IP:PORT", a->cfg->redis);
		free(c);
		return NULL;
	}
	netaddr_format(&addr, cfg.redis.host, sizeof cfg.redis.host);
	cfg.redis.port = port;
	strlcpy_safe(cfg.node, c->node, sizeof cfg.node);
	c->b = bus_open(a->loop, &cfg, cl_on_state, c, err, errlen);
	if (!c->b) {
		idmap_free(&c->tables);
		free(c);
		return NULL;
	}
	cl_forward_register(c);
	cl_dir_register(c);
	cl_admin_register(c);
	cl_shared_register(c);
	cl_takeover_register(c);
	/* Ids made here from now on cannot be another node's. */
	c->next_id = ((uint64_t)node_id << 32) + 1;
	a->next_table_id = c->next_id;
	a->next_lobby_id = c->next_id;
	a->cluster = c;
	cl_takeover_start(c);
	log_info("cluster", "node %s, Redis %s", c->node, a->cfg->redis);
	return c;
}

void cluster_close(cluster *c)
{
	if (!c)
		return;
	cl_takeover_stop(c);
	cl_admin_close(c);
	/* The stand-ins of remote players go with the bus. */
	size_t pit = 0;
	player *p;
	while ((p = idmap_next(&c->a->players, &pit, NULL)))
		if (cl_is_stub(p->sess))
			cluster_drop_stub(p->sess);
	size_t it = 0;
	rtable *rt;
	while ((rt = idmap_next(&c->tables, &it, NULL)))
		cl_rtable_free(rt);
	idmap_free(&c->tables);
	free(c->gone);
	bus_close(c->b);
	c->a->cluster = NULL;
	free(c);
}

bool cluster_up(const cluster *c) { return c && bus_is_up(c->b); }

const char *cluster_node(const cluster *c) { return c->node; }

bool cluster_owns_id(const app *a, uint64_t id)
{
	return !a->cluster || (int64_t)(id >> 32) == a->cluster->node_id;
}

void cluster_metrics(const cluster *c, buf *out)
{
	if (!c)
		return;
	bus_metrics(c->b, out);
	metrics_counter(out, "lair_forwarded_requests_total",
			"Requests sent to the node that owns their table.", (double)c->forwarded);
	metrics_counter(out, "lair_forwarded_timeouts_total",
			"Forwarded requests the owner did not answer in time.",
			(double)c->forward_timeouts);
	metrics_counter(out, "lair_tables_claimed_total",
			"Live tables of dead nodes this node took over.", (double)c->claimed);
	metrics_histogram(out, "lair_takeover_seconds",
			  "Tables taken over: from their node's last sign of life (its last lease "
			  "renewal) to this node taking them.", &c->takeover);
}
