/*
 * store_live.c — the store's requests about tables in play, on the store
 * thread (store_int.h): a live table's start record, its updates, each
 * decision appended (the hot path), its end, and the tables kept aside
 * (quarantined) listed, read and dropped.
 */
#include "store_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/util.h"

int store_op_live_start(store *st, store_req *r)
{
	const store_live_table *t = &r->in.live;
	sqlite3_stmt *s = sql_stmt(st, S_LIVE_INSERT);
	sqlite3_bind_int64(s, 1, t->table_id);
	sql_bind_text(s, 2, t->kind);
	sql_bind_text(s, 3, t->config_json);
	sqlite3_bind_int64(s, 4, (int64_t)t->seed);
	sql_bind_text(s, 5, t->seats_json);
	sql_bind_text(s, 6, t->shared_json);
	sql_bind_text(s, 7, t->meta_json);
	sqlite3_bind_int64(s, 8, t->started_at);
	sqlite3_bind_int64(s, 9, t->last_seq);
	return sql_run(st, s, "starting a live table");
}


int store_op_live_update(store *st, store_req *r)
{
	sqlite3_stmt *s = sql_stmt(st, S_LIVE_UPDATE);
	sqlite3_bind_int64(s, 1, r->in.id);
	sql_bind_text(s, 2, r->in.seats);
	sql_bind_text(s, 3, r->in.meta);
	sqlite3_bind_int64(s, 4, r->in.last_seq);
	return sql_run_one_row(st, s, "updating a live table");
}

int store_op_live_decision(store *st, store_req *r)
{
	if (store_aside(st, r->in.id))
		return STORE_ERR_NOT_FOUND;
	sqlite3_stmt *s = sql_stmt(st, S_DECISION_INSERT);
	sqlite3_bind_int64(s, 1, r->in.id);
	sqlite3_bind_int64(s, 2, r->in.seq);
	sql_bind_text(s, 3, r->in.json);
	sqlite3_bind_int64(s, 4, r->in.last_seq);
	return sql_run(st, s, "appending a decision"); /* NOT_FOUND: no such table */
}

int store_op_live_end(store *st, store_req *r)
{
	sqlite3_stmt *s = sql_stmt(st, S_LIVE_DELETE);
	sqlite3_bind_int64(s, 1, r->in.id);
	return sql_run_one_row(st, s, "ending a live table");
}

int store_op_live_quarantine(store *st, store_req *r)
{
	sqlite3_stmt *s = sql_stmt(st, S_LIVE_QUARANTINE);
	sqlite3_bind_int64(s, 1, r->in.id);
	sql_bind_text(s, 2, r->in.json);
	sqlite3_bind_int64(s, 3, sql_wall_ms());
	int err = sql_run_one_row(st, s, "keeping a table aside");
	if (!err)
		store_aside_set(st, r->in.id, true);
	return err;
}

int store_op_quarantined(store *st, store_req *r)
{
	bool one = r->in.id > 0;
	sqlite3_stmt *s = sql_stmt(st, one ? S_QUARANTINED_ONE : S_QUARANTINED_ALL);
	sqlite3_bind_int64(s, 1, one ? r->in.id : r->in.limit);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (r->out.n_live == cap) {
			cap = cap ? 2 * cap : 8;
			r->out.live = xrealloc(r->out.live, cap * sizeof *r->out.live);
		}
		store_live_table *t = &r->out.live[r->out.n_live++];
		store_live_row(r, s, t);
		if (!one)
			t->n_decisions = (size_t)sqlite3_column_int64(s, 11);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return sql_fail(st, "reading quarantined tables");
	if (one && r->out.n_live == 0)
		return STORE_ERR_NOT_FOUND;
	if (one && store_load_decisions(st, r, &r->out.live[0]) != 0)
		return sql_fail(st, "reading a quarantined table's decisions");
	return STORE_OK;
}

int store_op_quarantined_drop(store *st, store_req *r)
{
	sqlite3_stmt *s = sql_stmt(st, S_QUARANTINED_DROP);
	sqlite3_bind_int64(s, 1, r->in.id);
	int err = sql_run_one_row(st, s, "dropping a quarantined table");
	if (!err)
		store_aside_set(st, r->in.id, false);
	return err;
}
