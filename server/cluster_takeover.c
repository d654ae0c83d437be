/*
 * cluster_takeover.c — dead and leaving nodes (cluster.h): the store's
 * takeover pass (store_live_claim) every CLUSTER_CLAIM_PERIOD_MS, the
 * tables it returns rebuilt here at the same decision (recovery.c), their
 * players on other nodes told where the table is now, and the end of this
 * node when another declared it gone (exit 3); each node's beat on the bus,
 * and a node silent too long dropped from the directory; and the hand-over
 * of this node's live tables when it stops (SIGTERM).
 */
#include "cluster_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "session.h"

/* ---- dead nodes -------------------------------------------------------- */

static struct heard *heard_find(cluster *c, const char *node)
{
	for (size_t i = 0; i < c->n_heard; i++)
		if (!strcmp(c->heard[i].node, node))
			return &c->heard[i];
	return NULL;
}

/* Node `node` is dead (declared gone, or silent): its members and tables
 * leave the directory here, its players' stand-ins here are away. */
static void node_dead(cluster *c, const char *node)
{
	struct heard *h = heard_find(c, node);
	if (h)
		h->silent = true;
	cl_forget_node(c, node);
	size_t it = 0;
	player *p;
	player **away = NULL;
	size_t n = 0;
	while ((p = idmap_next(&c->a->players, &it, NULL)))
		if (cl_is_stub(p->sess) && !strcmp(((sess_cl *)p->sess->cl)->gateway, node)) {
			away = xrealloc(away, (n + 1) * sizeof *away);
			away[n++] = p;
		}
	for (size_t i = 0; i < n; i++)
		cl_stub_drop(c, away[i]);
	free(away);
}

void cl_heard(cluster *c, const char *node)
{
	struct heard *h = heard_find(c, node);
	if (!h) {
		c->heard = xrealloc(c->heard, (c->n_heard + 1) * sizeof *c->heard);
		h = &c->heard[c->n_heard++];
		*h = (struct heard){.silent = false};
		strlcpy_safe(h->node, node, sizeof h->node);
	}
	h->at_ms = now_ms();
	if (h->silent) {
		/* Back (it was stalled, or cut off from Redis alone): what we
		 * dropped of it comes again, and it learns ours afresh. */
		h->silent = false;
		log_info("cluster", "node %s is heard again", node);
		cl_resync(c, node);
	}
}

void cl_heard_reset(cluster *c)
{
	uint64_t now = now_ms();
	for (size_t i = 0; i < c->n_heard; i++)
		c->heard[i].at_ms = now;
}

/* Each pass: our beat, and the nodes not heard for CLUSTER_SILENT_MS
 * taken for dead (not while our own bus is down: then we hear nobody). */
static void beat(cluster *c)
{
	if (!bus_is_up(c->b))
		return;
	cl_publish(c, NULL, "beat", NULL, 0, NULL, 0);
	uint64_t now = now_ms();
	for (size_t i = 0; i < c->n_heard; i++) {
		struct heard *h = &c->heard[i];
		if (h->silent || now - h->at_ms < CLUSTER_SILENT_MS)
			continue;
		log_warn("cluster", "node %s not heard for %" PRIu64 " ms: its members and tables "
			 "are no longer listed here", h->node, now - h->at_ms);
		node_dead(c, h->node);
	}
}

/* beat: the dispatch noted that its node lives. */
static void on_beat(cluster *c, const bus_frame *f)
{
	(void)c;
	(void)f;
}

/* gone NODE: declared dead in the store (its tables were taken over). */
static void on_gone(cluster *c, const bus_frame *f)
{
	uint64_t id;
	if (!cl_word_u64(f, 0, &id))
		return;
	char node[BUS_MAX_NODE + 1];
	snprintf(node, sizeof node, "n%" PRIu64, id);
	if (!strcmp(node, c->node) || cl_is_gone(c, node))
		return;
	c->gone = xrealloc(c->gone, (c->n_gone + 1) * sizeof *c->gone);
	strlcpy_safe(c->gone[c->n_gone++], node, sizeof c->gone[0]);
	node_dead(c, node);
}

/* ---- takeover ---------------------------------------------------------- */

static void handover_taken(cluster *c, uint64_t tid);

/* claimed TABLE: the players we hold connections for say hello to its
 * new owner, which sends each a snapshot (they need not reconnect). */
static void on_claimed(cluster *c, const bus_frame *f)
{
	uint64_t tid;
	if (c->leaving) {
		/* One of ours, handed over: our players reconnect to it. */
		if (cl_word_u64(f, 0, &tid))
			handover_taken(c, tid);
		return;
	}
	const char *p = f->payload, *end = f->payload + f->len;
	while (p < end) {
		char *next;
		unsigned long long pid = strtoull(p, &next, 10);
		if (next == p)
			break;
		player *pl = player_find(c->a, (int64_t)pid);
		if (pl && pl->sess && !cl_is_stub(pl->sess)) {
			char id[24], caps[16];
			cl_num(id, sizeof id, pid);
			cl_caps_word(caps, sizeof caps, pl->sess);
			const char *w[] = {id, caps};
			cl_publish(c, f->from, "hello", w, 2, NULL, 0);
		}
		p = next < end && *next == ',' ? next + 1 : end;
	}
}

static void claim_tick(uv_timer_t *t);

static void claim_done(void *ud, int err, const store_live_table *v, size_t n)
{
	cluster *c = ud;
	app *a = c->a;
	c->claim_req = NULL;
	if (c->claim_again) {
		c->claim_again = false;
		claim_tick(c->claim_timer);
	}
	if (err || n == 0)
		return;
	c->claimed += n;
	tables_restore_these(a, v, n);
	for (size_t i = 0; i < n; i++)
		metrics_hist_observe(&c->takeover, (double)MAX(v[i].silent_ms, 0) / 1000.0);
	int64_t told[16];
	size_t n_told = 0;
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < n_told; j++)
			seen |= told[j] == v[i].taken_from;
		if (!seen && n_told < ARRAY_LEN(told)) {
			char id[24];
			cl_num(id, sizeof id, (uint64_t)v[i].taken_from);
			const char *w[] = {id};
			cl_publish(c, NULL, "gone", w, 1, NULL, 0);
			told[n_told++] = v[i].taken_from;
		}
		app_table *at = app_table_find(a, (uint64_t)v[i].table_id);
		if (!at)
			continue;
		uint64_t members[64];
		int m = table_members(at->t, members, (int)ARRAY_LEN(members));
		buf ids = {0};
		/* Its players connected here get the table at once; the other
		 * nodes' are asked for below. */
		for (int k = 0; k < m && k < (int)ARRAY_LEN(members); k++) {
			player *pl = player_find(a, (int64_t)members[k]);
			if (pl && pl->sess && !cl_is_stub(pl->sess)) {
				table_resume(at->t, members[k], 0, NULL);
				table_set_connected(at->t, members[k], true);
			}
		}
		for (int k = 0; k < m && k < (int)ARRAY_LEN(members); k++) {
			char one[24];
			int len = snprintf(one, sizeof one, "%s%" PRIu64, k ? "," : "", members[k]);
			buf_append(&ids, one, (size_t)len);
		}
		char tid[24];
		cl_num(tid, sizeof tid, at->id);
		const char *w[] = {tid};
		cl_publish(c, NULL, "claimed", w, 1, ids.data, ids.len);
		buf_free(&ids);
	}
}

static void claim_tick(uv_timer_t *t)
{
	cluster *c = t->data;
	if (store_fenced(c->a->store)) {
		/* Another node declared us gone and may run our tables: stop at
		 * once, crash-only (systemd starts a new node). */
		log_error("cluster", "this node was declared gone by another: exiting (3)");
		fflush(NULL);
		_exit(3);
	}
	if (!c->claim_req)
		c->claim_req = store_live_claim(c->a->store, c->grace_ms, claim_done, c);
	beat(c);
}

/* leave: a node hands its live tables over: a pass now, not at the tick
 * (after the one in flight, which may have read the store before). */
static void on_leave(cluster *c, const bus_frame *f)
{
	(void)f;
	if (!c->claim_timer)
		return;
	if (c->claim_req)
		c->claim_again = true;
	else
		c->claim_req = store_live_claim(c->a->store, c->grace_ms, claim_done, c);
}

void cl_takeover_register(cluster *c)
{
	static const cl_route_def routes[] = {
		{"gone", on_gone, false},
		{"claimed", on_claimed, true},
		{"leave", on_leave, true},
		{"beat", on_beat, true},
	};
	cl_routes(c, routes, ARRAY_LEN(routes));
}

void cl_takeover_start(cluster *c)
{
	c->grace_ms = CLUSTER_TAKEOVER_GRACE_MS;
	const char *ov = getenv("LAIR_TAKEOVER_GRACE_MS");
	if (ov && atoi(ov) >= 0)
		c->grace_ms = atoi(ov);
	c->claim_timer = xcalloc(1, sizeof *c->claim_timer);
	uv_timer_init(c->a->loop, c->claim_timer);
	c->claim_timer->data = c;
	uv_timer_start(c->claim_timer, claim_tick, CLUSTER_CLAIM_PERIOD_MS, CLUSTER_CLAIM_PERIOD_MS);
}

static void close_timer(uv_timer_t **t)
{
	if (*t) {
		uv_timer_stop(*t);
		uv_close((uv_handle_t *)*t, cl_free_handle);
		*t = NULL;
	}
}

void cl_takeover_stop(cluster *c)
{
	close_timer(&c->claim_timer);
	store_cancel(c->claim_req);
	c->claim_req = NULL;
	c->claim_again = false;
	close_timer(&c->handover_timer);
	store_cancel(c->leave_req);
	c->leave_req = NULL;
	c->handover_done = NULL;
	free(c->handing);
	c->handing = NULL;
	c->n_handing = 0;
	free(c->heard);
	c->heard = NULL;
	c->n_heard = 0;
}

/* ---- hand-over (SIGTERM) ----------------------------------------------- */

static void handover_end(cluster *c)
{
	close_timer(&c->handover_timer);
	void (*done)(void *) = c->handover_done;
	c->handover_done = NULL;
	if (done)
		done(c->handover_ud);
}

static void handover_taken(cluster *c, uint64_t tid)
{
	for (size_t i = 0; i < c->n_handing; i++)
		if (c->handing[i] == tid) {
			c->handing[i] = c->handing[--c->n_handing];
			break;
		}
	if (c->n_handing == 0 && !c->leave_req)
		handover_end(c);
}

static void on_handover_timeout(uv_timer_t *t)
{
	cluster *c = t->data;
	log_warn("cluster", "%zu live table(s) not taken over in %d ms: closing the connections "
		 "anyway (the others take them on a later pass)", c->n_handing, CLUSTER_HANDOVER_MS);
	handover_end(c);
}

static void on_left(void *ud, int err)
{
	cluster *c = ud;
	c->leave_req = NULL;
	if (err) {
		log_warn("cluster", "leaving: %s: the others take the live tables when this node "
			 "is gone", store_strerror(err));
		handover_end(c);
		return;
	}
	/* The others take them now rather than on their next tick. Nobody
	 * hears us (bus down): they will, on that tick; nothing to wait for. */
	if (cl_publish(c, NULL, "leave", NULL, 0, NULL, 0) != 0 || c->n_handing == 0)
		handover_end(c);
}

void cluster_drain(app *a)
{
	cluster *c = a->cluster;
	if (!c || c->leaving)
		return;
	c->leaving = true;
	close_timer(&c->claim_timer); /* we take nothing over any more */
	store_cancel(c->claim_req);
	c->claim_req = NULL;
	char lid[24], tid[24], pid[24];
	size_t it = 0;
	app_table *at;
	while ((at = idmap_next(&a->tables, &it, NULL))) {
		if (at->live || at->starting) {
			/* In play: stays listed until its taker lists it. */
			c->handing = xrealloc(c->handing, (c->n_handing + 1) * sizeof *c->handing);
			c->handing[c->n_handing++] = at->id;
			continue;
		}
		if (!at->lobby)
			continue;
		cl_num(lid, sizeof lid, at->lobby);
		cl_num(tid, sizeof tid, at->id);
		const char *w[] = {lid, tid};
		cl_publish(c, NULL, "tbl-", w, 2, NULL, 0);
	}
	for (size_t i = 0; i < a->n_lobbies; i++)
		for (size_t j = 0; j < a->lobbies[i]->n_members; j++) {
			player *p = a->lobbies[i]->members[j];
			cl_num(lid, sizeof lid, a->lobbies[i]->id);
			cl_num(pid, sizeof pid, (uint64_t)p->id);
			const char *w[] = {lid, pid, "0"};
			cl_publish(c, NULL, "pres", w, 3, p->name, strlen(p->name));
		}
}

void cluster_handover(app *a, void (*done)(void *ud), void *ud)
{
	cluster *c = a->cluster;
	c->handover_done = done;
	c->handover_ud = ud;
	c->handover_timer = xcalloc(1, sizeof *c->handover_timer);
	uv_timer_init(a->loop, c->handover_timer);
	c->handover_timer->data = c;
	uv_timer_start(c->handover_timer, on_handover_timeout, CLUSTER_HANDOVER_MS, 0);
	log_info("cluster", "handing %zu live table(s) over", c->n_handing);
	/* After the tables' last writes, queued before it. */
	c->leave_req = store_node_leave(a->store, on_left, c);
}
