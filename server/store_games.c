/*
 * store_games.c — the store's requests about finished games, on the store
 * thread (store_int.h): a game's record with its statistics, achievements
 * and its share of the kind's shared state in one go (once per game), a
 * player's profile, the server's statistics, the shared values, the
 * records listed and read back.
 */
#include "store_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/util.h"

/* The statements folding a value with each aggregation (game_stat_agg:
 * SUM, MIN, MAX), into a player's statistics, the server's, or a kind's
 * shared values. */
static const enum store_stmt player_folds[3] = {S_PSTAT_SUM, S_PSTAT_MIN, S_PSTAT_MAX};
static const enum store_stmt server_folds[3] = {S_SSTAT_SUM, S_SSTAT_MIN, S_SSTAT_MAX};
static const enum store_stmt shared_folds[3] = {S_SHARED_SUM, S_SHARED_MIN, S_SHARED_MAX};

/* Folds values[n] with defs[n]'s aggregations by folds' statements, bound
 * (player_id if > 0, kind, key, value); GAME_STAT_NONE skips. */
static int fold_values(store *st, const enum store_stmt folds[3], int64_t player_id,
		       const char *kind, const game_stat_def *defs, int n, const int64_t *values)
{
	for (int j = 0; values && j < n; j++) {
		if (values[j] == GAME_STAT_NONE)
			continue;
		sqlite3_stmt *s = sql_stmt(st, folds[store_agg_index(defs[j].agg)]);
		int i = 1;
		if (player_id > 0)
			sqlite3_bind_int64(s, i++, player_id);
		sql_bind_text(s, i++, kind);
		sql_bind_text(s, i++, defs[j].key);
		sqlite3_bind_int64(s, i, values[j]);
		int err = sql_run(st, s, "folding a value");
		if (err)
			return err;
	}
	return STORE_OK;
}

static int read_stats(store *st, store_req *r, sqlite3_stmt *s);

/* The kind's shared values now, into the request's stats. */
static int read_shared(store *st, store_req *r, const char *kind)
{
	sqlite3_stmt *s = sql_stmt(st, S_SHARED_ALL);
	sql_bind_text(s, 1, kind);
	return read_stats(st, r, s);
}

int store_op_shared_read(store *st, store_req *r)
{
	return read_shared(st, r, r->in.kind);
}

/* The game (live table, started_at) was recorded before: its id, or 0. */
static int game_recorded_before(store *st, const store_game *g, int64_t *id)
{
	sqlite3_stmt *s = sql_stmt(st, S_GAME_ONCE);
	sqlite3_bind_int64(s, 1, g->live_table_id);
	sqlite3_bind_int64(s, 2, g->started_at);
	int rc = sqlite3_step(s);
	*id = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? STORE_OK : sql_fail(st, "finding a game");
}

int store_op_game_finish(store *st, store_req *r)
{
	const store_game *g = &r->in.game;
	const game_kind *k = g->kind;
	sqlite3_stmt *s = sql_stmt(st, S_GAME_INSERT);
	sql_bind_text(s, 1, k->name);
	sql_bind_text(s, 2, g->config_json);
	sqlite3_bind_int64(s, 3, (int64_t)g->seed);
	sql_bind_text(s, 4, g->seats_json);
	sql_bind_text(s, 5, g->shared_json);
	sql_bind_text(s, 6, g->choices_json);
	sql_bind_text(s, 7, g->result_json);
	sqlite3_bind_int64(s, 8, g->started_at);
	sqlite3_bind_int64(s, 9, g->ended_at);
	if (g->live_table_id > 0)
		sqlite3_bind_int64(s, 10, g->live_table_id);
	sql_bind_text(s, 11, r->in.json);
	int err = sql_run(st, s, "recording a game");
	if (err)
		return err == STORE_ERR_DB ? err : STORE_ERR_INVALID;
	if (sqlite3_changes(st->db) == 0) {
		/* Recorded before (a retry whose first answer was lost): the
		 * first record stands, nothing is counted twice. */
		if ((err = game_recorded_before(st, g, &r->out.id)))
			return err;
		return r->out.id > 0 ? read_shared(st, r, k->name) : STORE_ERR_DB;
	}
	int64_t game_id = sqlite3_last_insert_rowid(st->db);

	for (int i = 0; i < g->n_seats; i++) {
		const store_seat *seat = &g->seats[i];
		if (seat->player_id <= 0)
			continue;
		s = sql_stmt(st, S_GAME_PLAYER_INSERT);
		sqlite3_bind_int64(s, 1, game_id);
		sqlite3_bind_int(s, 2, i);
		sqlite3_bind_int64(s, 3, seat->player_id);
		if ((err = sql_run(st, s, "recording a seat"))) /* NOT_FOUND: no such player */
			return err;
		s = sql_stmt(st, S_KINDS_INSERT);
		sqlite3_bind_int64(s, 1, seat->player_id);
		sql_bind_text(s, 2, k->name);
		sqlite3_bind_int64(s, 3, game_id);
		if ((err = sql_run(st, s, "recording a kind played")))
			return err;
		if ((err = fold_values(st, player_folds, seat->player_id, k->name, k->stat_defs,
				       k->n_stats, seat->stats)))
			return err;
		for (int j = 0; j < k->n_achievements && j < 32; j++) {
			if (!(seat->achievements & (1u << j)))
				continue;
			s = sql_stmt(st, S_ACH_UPSERT);
			sqlite3_bind_int64(s, 1, seat->player_id);
			sql_bind_text(s, 2, k->name);
			sql_bind_text(s, 3, k->achievement_defs[j].key);
			sqlite3_bind_int64(s, 4, g->ended_at);
			if ((err = sql_run(st, s, "counting an achievement")))
				return err;
		}
	}
	if ((err = fold_values(st, server_folds, 0, k->name, k->stat_defs, k->n_stats,
			       g->server_stats)) ||
	    (err = fold_values(st, shared_folds, 0, k->name, k->shared_defs, k->n_shared,
			       g->shared_delta)))
		return err;
	if (g->live_table_id > 0) {
		s = sql_stmt(st, S_LIVE_DELETE);
		sqlite3_bind_int64(s, 1, g->live_table_id);
		if ((err = sql_run(st, s, "ending a live table")))
			return err;
	}
	r->out.id = game_id;
	return read_shared(st, r, k->name);
}

static int read_stats(store *st, store_req *r, sqlite3_stmt *s)
{
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (r->out.n_stats == cap) {
			cap = cap ? 2 * cap : 16;
			r->out.stats = xrealloc(r->out.stats, cap * sizeof *r->out.stats);
		}
		store_stat *x = &r->out.stats[r->out.n_stats++];
		x->kind = sql_col_dup(r, s, 0);
		x->key = sql_col_dup(r, s, 1);
		x->value = sqlite3_column_int64(s, 2);
		x->samples = sqlite3_column_int64(s, 3);
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? STORE_OK : sql_fail(st, "reading statistics");
}

int store_op_profile(store *st, store_req *r)
{
	int err = r->in.id > 0 ? store_read_player_by_id(st, r, r->in.id)
			       : store_read_player_by_name(st, r, r->in.name);
	if (err)
		return err;
	int64_t id = r->out.player.id;
	sqlite3_stmt *s = sql_stmt(st, S_PSTATS);
	sqlite3_bind_int64(s, 1, id);
	sql_bind_text(s, 2, r->in.kind);
	if ((err = read_stats(st, r, s)))
		return err;

	s = sql_stmt(st, S_PACHS);
	sqlite3_bind_int64(s, 1, id);
	sql_bind_text(s, 2, r->in.kind);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (r->out.n_achs == cap) {
			cap = cap ? 2 * cap : 8;
			r->out.achs = xrealloc(r->out.achs, cap * sizeof *r->out.achs);
		}
		store_achievement *a = &r->out.achs[r->out.n_achs++];
		a->kind = sql_col_dup(r, s, 0);
		a->key = sql_col_dup(r, s, 1);
		a->count = sqlite3_column_int64(s, 2);
		a->first_at = sqlite3_column_int64(s, 3);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return sql_fail(st, "reading achievements");

	s = sql_stmt(st, S_PGAMES);
	sqlite3_bind_int64(s, 1, id);
	sql_bind_text(s, 2, r->in.kind);
	rc = sqlite3_step(s);
	int64_t games = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_reset(s);
	if (rc != SQLITE_ROW)
		return sql_fail(st, "counting games");

	store_profile *p = &r->out.profile;
	p->player = r->out.player;
	p->stats = r->out.stats;
	p->n_stats = r->out.n_stats;
	p->achievements = r->out.achs;
	p->n_achievements = r->out.n_achs;
	p->games = games;
	return STORE_OK;
}

int store_op_server_stats(store *st, store_req *r)
{
	sqlite3_stmt *s = sql_stmt(st, S_SSTATS);
	sql_bind_text(s, 1, r->in.kind);
	return read_stats(st, r, s);
}

static int read_games(store *st, store_req *r, sqlite3_stmt *s)
{
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (r->out.n_games == cap) {
			cap = cap ? 2 * cap : 8;
			r->out.games = xrealloc(r->out.games, cap * sizeof *r->out.games);
		}
		store_game_rec *g = &r->out.games[r->out.n_games++];
		g->id = sqlite3_column_int64(s, 0);
		g->kind = sql_col_dup(r, s, 1);
		g->config_json = sql_col_dup(r, s, 2);
		g->seed = (uint64_t)sqlite3_column_int64(s, 3);
		g->seats_json = sql_col_dup(r, s, 4);
		g->shared_json = sql_col_dup(r, s, 5);
		g->choices_json = sql_col_dup(r, s, 6);
		g->result_json = sql_col_dup(r, s, 7);
		g->started_at = sqlite3_column_int64(s, 8);
		g->ended_at = sqlite3_column_int64(s, 9);
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? STORE_OK : sql_fail(st, "reading games");
}

int store_op_games_list(store *st, store_req *r)
{
	const store_games_query *q = &r->in.query;
	sqlite3_stmt *s = sql_stmt(st, S_GAMES_LIST);
	sql_bind_text(s, 1, q->kind);
	sqlite3_bind_int64(s, 2, q->player_id);
	sqlite3_bind_int64(s, 3, q->before_id);
	sqlite3_bind_int(s, 4, q->limit);
	return read_games(st, r, s);
}

int store_op_game_get(store *st, store_req *r)
{
	sqlite3_stmt *s = sql_stmt(st, S_GAME_GET);
	sqlite3_bind_int64(s, 1, r->in.id);
	int err = read_games(st, r, s);
	if (err)
		return err;
	return r->out.n_games == 1 ? STORE_OK : STORE_ERR_NOT_FOUND;
}
