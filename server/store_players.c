/*
 * store_players.c — the store's player requests, on the store thread
 * (store_int.h): creating a player and its token, finding one by token or
 * name, renaming, issuing an admin token, pruning players who never
 * played.
 */
#include "store_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/util.h"

/* out.player.kinds_finished: bit i for each kind game_kind_at(i) the player
 * has finished a game of. */
static int player_kinds(store *st, store_req *r)
{
	sqlite3_stmt *s = sql_stmt(st, S_KINDS_OF);
	sqlite3_bind_int64(s, 1, r->out.player.id);
	uint32_t bits = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const game_kind *k = game_kind_find((const char *)sqlite3_column_text(s, 0));
		for (int i = 0; k && i < game_kind_count() && i < 32; i++)
			if (game_kind_at(i) == k)
				bits |= 1u << i;
	}
	sqlite3_reset(s);
	r->out.player.kinds_finished = bits;
	return rc == SQLITE_DONE ? STORE_OK : sql_fail(st, "reading a player's kinds");
}

/* Fills out.player from a row of PLAYER_COLS; NOT_FOUND without a row. */
static int player_row(store *st, store_req *r, sqlite3_stmt *s)
{
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		r->out.player.id = sqlite3_column_int64(s, 0);
		r->out.player.name = sql_col_dup(r, s, 1);
		r->out.player.role = (store_role)sqlite3_column_int(s, 2);
		r->out.player.created_at = sqlite3_column_int64(s, 3);
	}
	sqlite3_reset(s);
	if (rc == SQLITE_ROW)
		return player_kinds(st, r);
	return rc == SQLITE_DONE ? STORE_ERR_NOT_FOUND : sql_fail(st, "reading a player");
}

int store_read_player_by_id(store *st, store_req *r, int64_t id)
{
	sqlite3_stmt *s = sql_stmt(st, S_PLAYER_BY_ID);
	sqlite3_bind_int64(s, 1, id);
	return player_row(st, r, s);
}

int store_read_player_by_name(store *st, store_req *r, const char *name)
{
	sqlite3_stmt *s = sql_stmt(st, S_PLAYER_BY_NAME);
	sql_bind_text(s, 1, name);
	return player_row(st, r, s);
}

static int player_insert(store *st, store_req *r, int role)
{
	sqlite3_stmt *s = sql_stmt(st, S_PLAYER_INSERT);
	sql_bind_text(s, 1, r->in.name);
	sql_bind_text(s, 2, r->in.hash);
	sqlite3_bind_int(s, 3, role);
	sqlite3_bind_int64(s, 4, sql_wall_ms());
	int err = sql_run(st, s, "creating a player");
	if (err)
		return err; /* EXISTS: the token (hash) is someone else's */
	return store_read_player_by_id(st, r, sqlite3_last_insert_rowid(st->db));
}

int store_op_player_create(store *st, store_req *r)
{
	int err = store_read_player_by_name(st, r, r->in.name);
	if (err == STORE_OK)
		return STORE_ERR_NAME_TAKEN;
	if (err != STORE_ERR_NOT_FOUND)
		return err;
	return player_insert(st, r, r->in.role);
}


/* The name is free when nobody else has it ignoring case (the player may
 * change the case of its own). */
int store_op_player_rename(store *st, store_req *r)
{
	int err = store_read_player_by_name(st, r, r->in.name);
	if (err == STORE_OK && r->out.player.id != r->in.id)
		return STORE_ERR_NAME_TAKEN;
	if (err != STORE_OK && err != STORE_ERR_NOT_FOUND)
		return err;
	sqlite3_stmt *s = sql_stmt(st, S_PLAYER_RENAME);
	sql_bind_text(s, 1, r->in.name);
	sqlite3_bind_int64(s, 2, r->in.id);
	err = sql_run_one_row(st, s, "renaming a player");
	if (err == STORE_ERR_EXISTS) /* a racing rename took it: the same answer */
		return STORE_ERR_NAME_TAKEN;
	return err ? err : store_read_player_by_id(st, r, r->in.id);
}

int store_op_player_by_token(store *st, store_req *r)
{
	sqlite3_stmt *s = sql_stmt(st, S_PLAYER_BY_HASH);
	sql_bind_text(s, 1, r->in.hash);
	return player_row(st, r, s);
}

int store_op_admin_issue(store *st, store_req *r)
{
	if (r->in.first_only) {
		sqlite3_stmt *s = sql_stmt(st, S_ADMIN_ANY);
		int rc = sqlite3_step(s);
		sqlite3_reset(s);
		if (rc == SQLITE_ROW)
			return STORE_ERR_EXISTS;
		if (rc != SQLITE_DONE)
			return sql_fail(st, "looking for an admin");
	}
	int err = store_read_player_by_name(st, r, r->in.name);
	if (err == STORE_ERR_NOT_FOUND)
		return player_insert(st, r, STORE_ROLE_ADMIN);
	if (err)
		return err;
	sqlite3_stmt *s = sql_stmt(st, S_PLAYER_MAKE_ADMIN);
	sql_bind_text(s, 1, r->in.hash);
	sqlite3_bind_int64(s, 2, r->out.player.id);
	if ((err = sql_run(st, s, "issuing an admin token")))
		return err;
	r->out.player.role = STORE_ROLE_ADMIN;
	return STORE_OK;
}

static bool kept(const store_req *r, int64_t id)
{
	size_t lo = 0, hi = r->in.n_keep;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->in.keep[mid] == id)
			return true;
		if (r->in.keep[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The candidates first, then the deletes (not while the select runs). */
int store_op_players_prune(store *st, store_req *r)
{
	sqlite3_stmt *s = sql_stmt(st, S_PLAYERS_UNPLAYED);
	sqlite3_bind_int64(s, 1, r->in.id);
	int64_t *ids = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(s, 0);
		if (kept(r, id))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			ids = xrealloc(ids, cap * sizeof *ids);
		}
		ids[n++] = id;
	}
	sqlite3_reset(s);
	int err = rc == SQLITE_DONE ? STORE_OK : sql_fail(st, "finding players to prune");
	for (size_t i = 0; i < n && !err; i++) {
		sqlite3_stmt *d = sql_stmt(st, S_PLAYER_DELETE);
		sqlite3_bind_int64(d, 1, ids[i]);
		err = sql_run(st, d, "pruning a player");
	}
	free(ids);
	r->out.id = err ? 0 : (int64_t)n;
	return err;
}
