/*
 * cluster_takeover.c — dead nodes' tables taken over (cluster.h): the
 * store's takeover pass (store_live_claim) every CLUSTER_CLAIM_PERIOD_MS,
 * the tables it returns rebuilt here at the same decision (recovery.c),
 * their players on other nodes told where the table is now, and the end of
 * this node when another declared it gone (exit 3).
 */
#include "cluster_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "session.h"

/* ---- takeover ---------------------------------------------------------- */

/* gone NODE: its players' stand-ins here are away, what we knew of it goes. */
static void on_gone(bus *b, const bus_frame *f, void *ud)
{
	(void)b;
	cluster *c = ud;
	uint64_t id;
	if (!cl_word_u64(f, 0, &id))
		return;
	char node[BUS_MAX_NODE + 1];
	snprintf(node, sizeof node, "n%" PRIu64, id);
	if (!strcmp(node, c->node) || cl_is_gone(c, node))
		return;
	c->gone = xrealloc(c->gone, (c->n_gone + 1) * sizeof *c->gone);
	strlcpy_safe(c->gone[c->n_gone++], node, sizeof c->gone[0]);
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

/* claimed TABLE: the players we hold connections for say hello to its
 * new owner, which sends each a snapshot (they need not reconnect). */
static void on_claimed(bus *b, const bus_frame *f, void *ud)
{
	(void)b;
	cluster *c = ud;
	if (cl_is_gone(c, f->from))
		return;
	if (cl_is_self(c, f))
		return;
	const char *p = f->payload, *end = f->payload + f->len;
	while (p < end) {
		char *next;
		unsigned long long pid = strtoull(p, &next, 10);
		if (next == p)
			break;
		player *pl = player_find(c->a, (int64_t)pid);
		if (pl && pl->sess && !cl_is_stub(pl->sess)) {
			char id[24];
			cl_num(id, sizeof id, pid);
			const char *w[] = {id};
			cl_publish(c, f->from, "hello", w, 1, NULL, 0);
		}
		p = next < end && *next == ',' ? next + 1 : end;
	}
}

static void claim_done(void *ud, int err, const store_live_table *v, size_t n)
{
	cluster *c = ud;
	app *a = c->a;
	c->claim_req = NULL;
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
}

void cl_takeover_register(cluster *c)
{
	bus_on(c->b, "gone", on_gone, c);
	bus_on(c->b, "claimed", on_claimed, c);
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

void cl_takeover_stop(cluster *c)
{
	if (c->claim_timer) {
		uv_timer_stop(c->claim_timer);
		uv_close((uv_handle_t *)c->claim_timer, cl_free_handle);
		c->claim_timer = NULL;
	}
	store_cancel(c->claim_req);
	c->claim_req = NULL;
}
