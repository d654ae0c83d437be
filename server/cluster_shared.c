/*
 * cluster_shared.c — the kinds' shared state across nodes (shared.h): a
 * node whose game's record committed tells every node the kind's values
 * its record read (frame `shared KIND`, payload {"key": value, ...}), and
 * each merges them into its base; a node whose bus comes up reads them all
 * from the store again (what it missed while the bus was down). Values
 * only move one way from record to record, so frames and reads may arrive
 * in any order: each node's base is, key by key, the furthest it has seen,
 * and once the last record's frame (or a read after it) has arrived, it
 * is the store's.
 */
#include "cluster_int.h"

#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "shared.h"

void cluster_shared_recorded(app *a, const store_stat *rows, size_t n)
{
	cluster *c = a->cluster;
	if (!c || n == 0)
		return;
	cJSON *o = cJSON_CreateObject();
	for (size_t i = 0; i < n; i++)
		cJSON_AddNumberToObject(o, rows[i].key, (double)rows[i].value);
	char *text = proto_print(o);
	const char *w[] = {rows[0].kind};
	cl_publish(c, NULL, "shared", w, 1, text, strlen(text));
	free(text);
	cJSON_Delete(o);
}

/* Another node's record: its kind's values. A payload that is not an
 * object of whole numbers changes nothing of what it does not hold
 * (shared.c leaves out what no game could have made). */
static void on_shared(bus *b, const bus_frame *f, void *ud)
{
	(void)b;
	cluster *c = ud;
	if (cl_is_self(c, f) || cl_is_gone(c, f->from) || f->nwords < 1)
		return;
	cJSON *o = cJSON_ParseWithLength(f->payload, f->len);
	size_t n = 0, cap = (size_t)cJSON_GetArraySize(o);
	store_stat *rows = cJSON_IsObject(o) && cap ? xcalloc(cap, sizeof *rows) : NULL;
	for (const cJSON *v = rows ? o->child : NULL; v; v = v->next) {
		int64_t x;
		if (v->string && proto_json_int(v, 0, INT64_MAX, &x))
			rows[n++] = (store_stat){.kind = f->word[0], .key = v->string, .value = x};
	}
	shared_base_merge(c->a, rows, n);
	free(rows);
	cJSON_Delete(o);
}

static void read_done(void *ud, int err, const store_stat *rows, size_t n)
{
	app *a = ud;
	if (err == STORE_OK)
		shared_base_merge(a, rows, n);
}

void cl_shared_resync(cluster *c)
{
	if (c->a->store)
		store_shared_read(c->a->store, NULL, read_done, c->a);
}

void cl_shared_register(cluster *c) { bus_on(c->b, "shared", on_shared, c); }
