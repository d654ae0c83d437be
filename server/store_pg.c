/*
 * store_pg.c — the store on PostgreSQL (store_pg.h): every request of
 * store.h as SQLite runs it (store_players.c, store_games.c,
 * store_live.c), in the same batches (one transaction, one savepoint a
 * request), through libpq on the store thread only — the loop never waits
 * on PostgreSQL. Values go as text parameters, never into the SQL.
 * Long (1,340 lines) on purpose: it is SQLite's four files (store_sql.c,
 * store_players.c, store_games.c, store_live.c) for the other database,
 * kept in one so that what differs from SQLite reads side by side.
 *
 * What differs from SQLite, and why:
 *  - The node and its fence (store_pg.h): each batch that writes first
 *    takes a share lock on its own `nodes` row and finds it not gone; a
 *    node that declares another gone updates that row, so it waits for the
 *    batch in flight and every later batch of the fenced node sees `gone`.
 *    Live-table writes also name their owner (this node) in the statement.
 *  - Durability: COMMIT returns once PostgreSQL has flushed the commit
 *    (synchronous_commit=on, the server's default): an acknowledged write
 *    survives kill -9 of laird and of the PostgreSQL server.
 *  - A lost connection fails the batch in flight (nothing of it is
 *    acknowledged); the next batch reconnects and takes the node's lock
 *    again, unless it was declared gone meanwhile (then fenced).
 */
#include "store_pg.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/util.h"

/* Nodes that looked dead, and since when (store_live_claim's grace). */
#define PG_DEAD_MAX 64

typedef struct store_pg store_pg;

struct store_pg {
	PGconn *conn;
	char *url;
	int64_t node;  /* this node's id (> 0 once registered) */
	char name[96]; /* host:pid, for the operator reading `nodes` */
	uint64_t conn_up_ns; /* now_ns() when the connection was made */
	struct {
		int64_t id;
		uint64_t since_ns;
	} dead[PG_DEAD_MAX];
	int n_dead;
};

int store_pg_lease_ms = STORE_PG_LEASE_MS;

/* SQLSTATEs the requests map to store errors. */
#define PG_UNIQUE "23505"
#define PG_FOREIGN_KEY "23503"
#define PG_NOT_NULL "23502"
#define PG_CHECK "23514"

/* ---- statements -------------------------------------------------------- */

/* Up to 12 text parameters; numbers formatted into the struct itself. */
typedef struct pgp {
	const char *v[12];
	char num[12][24];
	int n;
} pgp;

static void p_i64(pgp *p, int64_t x)
{
	snprintf(p->num[p->n], sizeof p->num[0], "%" PRId64, x);
	p->v[p->n] = p->num[p->n];
	p->n++;
}

static void p_txt(pgp *p, const char *s)
{
	p->v[p->n++] = s;
}

static int64_t col_i64(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? 0 : strtoll(PQgetvalue(res, row, col), NULL, 10);
}

/* Column as text the request owns (NULL for SQL NULL); r NULL: heap. */
static char *col_dup(store_req *r, const PGresult *res, int row, int col)
{
	if (PQgetisnull(res, row, col))
		return NULL;
	const char *t = PQgetvalue(res, row, col);
	return r ? store_req_strdup(r, t) : xstrdup(t);
}

/* Runs sql with p's parameters. STORE_OK (the result in *out when out is
 * not NULL: the caller PQclears it), else the mapped error (logged with
 * `what` when it is STORE_ERR_DB). */
static int pg_exec(store *st, const char *sql, const pgp *p, PGresult **out, const char *what)
{
	PGresult *res = PQexecParams(st->pg->conn, sql, p ? p->n : 0, NULL, p ? p->v : NULL, NULL,
				     NULL, 0);
	ExecStatusType s = PQresultStatus(res);
	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK) {
		if (out)
			*out = res;
		else
			PQclear(res);
		return STORE_OK;
	}
	const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	int err = STORE_ERR_DB;
	if (state && strcmp(state, PG_UNIQUE) == 0)
		err = STORE_ERR_EXISTS;
	else if (state && strcmp(state, PG_FOREIGN_KEY) == 0)
		err = STORE_ERR_NOT_FOUND;
	else if (state && (strcmp(state, PG_NOT_NULL) == 0 || strcmp(state, PG_CHECK) == 0))
		err = STORE_ERR_INVALID;
	else
		log_error("store", "%s: %s", what, PQerrorMessage(st->pg->conn));
	PQclear(res);
	return err;
}

/* The number of rows an UPDATE/DELETE/INSERT changed, or -1 on error
 * (*err set). */
static int64_t pg_changed(store *st, const char *sql, const pgp *p, int *err, const char *what)
{
	PGresult *res = NULL;
	*err = pg_exec(st, sql, p, &res, what);
	if (*err)
		return -1;
	int64_t n = strtoll(PQcmdTuples(res), NULL, 10);
	PQclear(res);
	return n;
}

static bool pg_simple(store *st, const char *sql)
{
	return pg_exec(st, sql, NULL, NULL, sql) == STORE_OK;
}

static bool reconnect(store *st);

/* ---- players ----------------------------------------------------------- */

#define PLAYER_COLS "id, name, role, created_at"

static int player_kinds(store *st, store_req *r)
{
	pgp p = {0};
	p_i64(&p, r->out.player.id);
	PGresult *res;
	int err = pg_exec(st, "SELECT kind FROM player_kinds WHERE player_id = $1", &p, &res,
			  "reading a player's kinds");
	if (err)
		return err;
	uint32_t bits = 0;
	for (int row = 0; row < PQntuples(res); row++) {
		const game_kind *k = game_kind_find(PQgetvalue(res, row, 0));
		for (int i = 0; k && i < game_kind_count() && i < 32; i++)
			if (game_kind_at(i) == k)
				bits |= 1u << i;
	}
	PQclear(res);
	r->out.player.kinds_finished = bits;
	return STORE_OK;
}

static int player_row(store *st, store_req *r, const char *sql, const pgp *p)
{
	PGresult *res;
	int err = pg_exec(st, sql, p, &res, "reading a player");
	if (err)
		return err;
	if (PQntuples(res) == 0) {
		PQclear(res);
		return STORE_ERR_NOT_FOUND;
	}
	r->out.player.id = col_i64(res, 0, 0);
	r->out.player.name = col_dup(r, res, 0, 1);
	r->out.player.role = (store_role)col_i64(res, 0, 2);
	r->out.player.created_at = col_i64(res, 0, 3);
	PQclear(res);
	return player_kinds(st, r);
}

static int player_by_id(store *st, store_req *r, int64_t id)
{
	pgp p = {0};
	p_i64(&p, id);
	return player_row(st, r, "SELECT " PLAYER_COLS " FROM players WHERE id = $1", &p);
}

static int player_by_name(store *st, store_req *r, const char *name)
{
	pgp p = {0};
	p_txt(&p, name);
	return player_row(st, r, "SELECT " PLAYER_COLS " FROM players WHERE lower(name) = lower($1)",
			  &p);
}

static int player_insert(store *st, store_req *r, int role)
{
	pgp p = {0};
	p_txt(&p, r->in.name);
	p_txt(&p, r->in.hash);
	p_i64(&p, role);
	p_i64(&p, sql_wall_ms());
	PGresult *res;
	/* DO NOTHING: a taken name or token leaves the transaction usable. */
	int err = pg_exec(st, "INSERT INTO players (name, token_hash, role, created_at) "
			  "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING id", &p, &res,
			  "creating a player");
	if (err)
		return err;
	int64_t id = PQntuples(res) ? col_i64(res, 0, 0) : 0;
	PQclear(res);
	if (id)
		return player_by_id(st, r, id);
	/* The name (another node created it since we looked), else the
	 * token (hash) is someone else's. */
	return player_by_name(st, r, r->in.name) == STORE_OK ? STORE_ERR_NAME_TAKEN
							      : STORE_ERR_EXISTS;
}

static int op_player_create(store *st, store_req *r)
{
	int err = player_by_name(st, r, r->in.name);
	if (err == STORE_OK)
		return STORE_ERR_NAME_TAKEN;
	if (err != STORE_ERR_NOT_FOUND)
		return err;
	return player_insert(st, r, r->in.role);
}

static int op_player_rename(store *st, store_req *r)
{
	int err = player_by_name(st, r, r->in.name);
	if (err == STORE_OK && r->out.player.id != r->in.id)
		return STORE_ERR_NAME_TAKEN;
	if (err != STORE_OK && err != STORE_ERR_NOT_FOUND)
		return err;
	pgp p = {0};
	p_txt(&p, r->in.name);
	p_i64(&p, r->in.id);
	int64_t n = pg_changed(st, "UPDATE players SET name = $1 WHERE id = $2", &p, &err,
			       "renaming a player");
	if (err == STORE_ERR_EXISTS)
		return STORE_ERR_NAME_TAKEN;
	if (err)
		return err;
	return n > 0 ? player_by_id(st, r, r->in.id) : STORE_ERR_NOT_FOUND;
}

static int op_player_by_token(store *st, store_req *r)
{
	pgp p = {0};
	p_txt(&p, r->in.hash);
	return player_row(st, r, "SELECT " PLAYER_COLS " FROM players WHERE token_hash = $1", &p);
}

static int op_admin_issue(store *st, store_req *r)
{
	int err;
	if (r->in.first_only) {
		/* Nodes starting together on an empty database each issue the
		 * first token: under this lock (held to the batch's commit) one
		 * issues it and the others then see its admin, where without it
		 * two could both find none, and the later one's token replace
		 * the one the first printed. */
		pgp p = {0};
		p_i64(&p, STORE_PG_LOCK_CLASS);
		p_i64(&p, STORE_PG_LOCK_ADMIN);
		if ((err = pg_exec(st, "SELECT pg_advisory_xact_lock($1::int, $2::int)", &p, NULL,
				   "locking the first admin")))
			return err;
		PGresult *res;
		if ((err = pg_exec(st, "SELECT id FROM players WHERE role = 1 LIMIT 1", NULL, &res,
				   "looking for an admin")))
			return err;
		bool any = PQntuples(res) > 0;
		PQclear(res);
		if (any)
			return STORE_ERR_EXISTS;
	}
	err = player_by_name(st, r, r->in.name);
	if (err == STORE_ERR_NOT_FOUND)
		return player_insert(st, r, STORE_ROLE_ADMIN);
	if (err)
		return err;
	pgp p = {0};
	p_txt(&p, r->in.hash);
	p_i64(&p, r->out.player.id);
	if ((err = pg_exec(st, "UPDATE players SET token_hash = $1, role = 1 WHERE id = $2", &p,
			   NULL, "issuing an admin token")))
		return err;
	r->out.player.role = STORE_ROLE_ADMIN;
	return STORE_OK;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* in.keep is sorted by the submitting call. */
static bool kept(const store_req *r, int64_t id)
{
	return r->in.n_keep && bsearch(&id, r->in.keep, r->in.n_keep, sizeof id, cmp_id);
}

static int op_players_prune(store *st, store_req *r)
{
	pgp p = {0};
	p_i64(&p, r->in.id);
	PGresult *res;
	int err = pg_exec(st, "SELECT id FROM players p WHERE role = 0 AND created_at < $1 "
			  "AND NOT EXISTS (SELECT 1 FROM game_players g WHERE g.player_id = p.id) "
			  "AND NOT EXISTS (SELECT 1 FROM player_stats s WHERE s.player_id = p.id) "
			  "AND NOT EXISTS (SELECT 1 FROM player_achievements a "
			  "WHERE a.player_id = p.id) "
			  "AND NOT EXISTS (SELECT 1 FROM player_kinds k WHERE k.player_id = p.id)",
			  &p, &res, "finding players to prune");
	if (err)
		return err;
	int64_t n = 0;
	for (int row = 0; row < PQntuples(res) && !err; row++) {
		int64_t id = col_i64(res, row, 0);
		if (kept(r, id))
			continue;
		pgp d = {0};
		p_i64(&d, id);
		err = pg_exec(st, "DELETE FROM players WHERE id = $1", &d, NULL, "pruning a player");
		n++;
	}
	PQclear(res);
	r->out.id = err ? 0 : n;
	return err;
}

/* ---- shared state, finished games ------------------------------------- */

/* The upserts folding a value with each aggregation (SUM, MIN, MAX; as
 * store_games.c's statements): a player's statistics ($1 the player), the
 * server's, a kind's shared values. */
#define FOLD_SQL(table, cols, vals, conflict, with)                                        \
	"INSERT INTO " table " AS s (" cols ") VALUES (" vals ") ON CONFLICT (" conflict   \
	") DO UPDATE SET " with
#define PSTAT(with)                                                                        \
	FOLD_SQL("player_stats", "player_id, kind, key, value, samples", "$1, $2, $3, $4, 1", \
		 "player_id, kind, key", with ", samples = s.samples + 1")
#define SSTAT(with)                                                                        \
	FOLD_SQL("server_stats", "kind, key, value, samples", "$1, $2, $3, 1", "kind, key",   \
		 with ", samples = s.samples + 1")
/* A stored value below 0 (a damaged row) counts as none; a sum stops at
 * SHARED_CAP rather than overflow. */
#define SHARED(merged)                                                                     \
	FOLD_SQL("shared_values", "kind, key, value", "$1, $2, $3", "kind, key",           \
		 "value = CASE WHEN s.value >= 0 THEN " merged " ELSE excluded.value END")
#define SUM_WITH "value = s.value + excluded.value"
#define MIN_WITH "value = LEAST(s.value, excluded.value)"
#define MAX_WITH "value = GREATEST(s.value, excluded.value)"
static const char *const player_folds[3] = {PSTAT(SUM_WITH), PSTAT(MIN_WITH), PSTAT(MAX_WITH)};
static const char *const server_folds[3] = {SSTAT(SUM_WITH), SSTAT(MIN_WITH), SSTAT(MAX_WITH)};
static const char *const shared_folds[3] = {
	SHARED("LEAST(s.value, " SHARED_CAP " - excluded.value) + excluded.value"),
	SHARED("LEAST(s.value, excluded.value)"), SHARED("GREATEST(s.value, excluded.value)")};

/* Folds values[n] with defs[n]'s aggregations by folds' upserts, bound
 * (player_id if > 0, kind, key, value); GAME_STAT_NONE skips. */
static int fold_values(store *st, const char *const folds[3], int64_t player_id,
		       const char *kind, const game_stat_def *defs, int n, const int64_t *values)
{
	for (int j = 0; values && j < n; j++) {
		if (values[j] == GAME_STAT_NONE)
			continue;
		pgp p = {0};
		if (player_id > 0)
			p_i64(&p, player_id);
		p_txt(&p, kind);
		p_txt(&p, defs[j].key);
		p_i64(&p, values[j]);
		int err = pg_exec(st, folds[store_agg_index(defs[j].agg)], &p, NULL,
				  "folding a value");
		if (err)
			return err;
	}
	return STORE_OK;
}

static int read_stats(store *st, store_req *r, const char *sql, const pgp *p);

/* The kind's shared values now (NULL: every kind's), into the request's
 * stats. */
static int read_shared(store *st, store_req *r, const char *kind)
{
	pgp p = {0};
	p_txt(&p, kind);
	return read_stats(st, r, "SELECT kind, key, value, 0 FROM shared_values "
			  "WHERE $1::text IS NULL OR kind = $1 "
			  "ORDER BY kind COLLATE \"C\", key COLLATE \"C\"", &p);
}

static int op_shared_read(store *st, store_req *r) { return read_shared(st, r, r->in.kind); }

/* Whether live table id is someone else's: STORE_ERR_FENCED if another
 * node owns it, STORE_ERR_NOT_FOUND if no such table (or kept aside). */
static int live_not_mine(store *st, int64_t id)
{
	pgp p = {0};
	p_i64(&p, id);
	PGresult *res;
	int err = pg_exec(st, "SELECT owner, quarantined IS NOT NULL FROM live_tables "
			  "WHERE table_id = $1", &p, &res, "finding a live table's owner");
	if (err)
		return err;
	err = STORE_ERR_NOT_FOUND;
	if (PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 1), "t") != 0 &&
	    col_i64(res, 0, 0) != st->pg->node)
		err = STORE_ERR_FENCED;
	PQclear(res);
	return err;
}

static int op_game_finish(store *st, store_req *r)
{
	const store_game *g = &r->in.game;
	const game_kind *k = g->kind;
	pgp p = {0};
	p_txt(&p, k->name);
	p_txt(&p, g->config_json);
	p_i64(&p, (int64_t)g->seed);
	p_txt(&p, g->seats_json);
	p_txt(&p, g->shared_json);
	p_txt(&p, g->choices_json);
	p_txt(&p, g->result_json);
	p_i64(&p, g->started_at);
	p_i64(&p, g->ended_at);
	if (g->live_table_id > 0)
		p_i64(&p, g->live_table_id);
	else
		p_txt(&p, NULL);
	p_txt(&p, r->in.json);
	PGresult *res;
	/* A game already recorded (the same table and start) is not again. */
	int err = pg_exec(st, "INSERT INTO games (kind, config, seed, seats, shared, choices, result, "
			  "started_at, ended_at, table_id, shared_delta) VALUES ($1, $2, $3, $4, "
			  "$5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING RETURNING id", &p,
			  &res, "recording a game");
	if (err)
		return err == STORE_ERR_DB ? err : STORE_ERR_INVALID;
	bool again = PQntuples(res) == 0;
	int64_t game_id = again ? 0 : col_i64(res, 0, 0);
	PQclear(res);
	if (again) {
		/* Recorded before (a retry whose first answer was lost): the
		 * first record stands, nothing counts twice. A node that lost
		 * the table learns so. */
		if (live_not_mine(st, g->live_table_id) == STORE_ERR_FENCED)
			return STORE_ERR_FENCED;
		pgp q = {0};
		p_i64(&q, g->live_table_id);
		p_i64(&q, g->started_at);
		if ((err = pg_exec(st, "SELECT id FROM games WHERE table_id = $1 AND started_at = $2",
				   &q, &res, "finding a game")))
			return err;
		r->out.id = PQntuples(res) == 1 ? col_i64(res, 0, 0) : 0;
		PQclear(res);
		return r->out.id > 0 ? read_shared(st, r, k->name) : STORE_ERR_DB;
	}
	for (int i = 0; i < g->n_seats; i++) {
		const store_seat *seat = &g->seats[i];
		if (seat->player_id <= 0)
			continue;
		pgp s = {0};
		p_i64(&s, game_id);
		p_i64(&s, i);
		p_i64(&s, seat->player_id);
		if ((err = pg_exec(st, "INSERT INTO game_players (game_id, seat, player_id) "
				   "VALUES ($1, $2, $3)", &s, NULL, "recording a seat")))
			return err; /* NOT_FOUND: no such player */
		pgp kp = {0};
		p_i64(&kp, seat->player_id);
		p_txt(&kp, k->name);
		p_i64(&kp, game_id);
		if ((err = pg_exec(st, "INSERT INTO player_kinds (player_id, kind, first_game) "
				   "VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", &kp, NULL,
				   "recording a kind played")))
			return err;
		if ((err = fold_values(st, player_folds, seat->player_id, k->name, k->stat_defs,
				       k->n_stats, seat->stats)))
			return err;
		for (int j = 0; j < k->n_achievements && j < 32; j++) {
			if (!(seat->achievements & (1u << j)))
				continue;
			pgp a = {0};
			p_i64(&a, seat->player_id);
			p_txt(&a, k->name);
			p_txt(&a, k->achievement_defs[j].key);
			p_i64(&a, g->ended_at);
			if ((err = pg_exec(st, "INSERT INTO player_achievements AS a (player_id, kind, "
					   "key, count, first_at) VALUES ($1, $2, $3, 1, $4) "
					   "ON CONFLICT (player_id, kind, key) DO UPDATE "
					   "SET count = a.count + 1", &a, NULL,
					   "counting an achievement")))
				return err;
		}
	}
	if ((err = fold_values(st, server_folds, 0, k->name, k->stat_defs, k->n_stats,
			       g->server_stats)) ||
	    (err = fold_values(st, shared_folds, 0, k->name, k->shared_defs, k->n_shared,
			       g->shared_delta)))
		return err;
	if (g->live_table_id > 0) {
		pgp d = {0};
		p_i64(&d, g->live_table_id);
		p_i64(&d, st->pg->node);
		int64_t n = pg_changed(st, "DELETE FROM live_tables WHERE table_id = $1 "
				       "AND owner = $2 AND quarantined IS NULL", &d, &err,
				       "ending a live table");
		if (err)
			return err;
		/* Recorded by a node that lost the table: all of it undone. */
		if (n == 0 && live_not_mine(st, g->live_table_id) == STORE_ERR_FENCED)
			return STORE_ERR_FENCED;
	}
	r->out.id = game_id;
	return read_shared(st, r, k->name);
}

static int read_stats(store *st, store_req *r, const char *sql, const pgp *p)
{
	PGresult *res;
	int err = pg_exec(st, sql, p, &res, "reading statistics");
	if (err)
		return err;
	int n = PQntuples(res);
	r->out.stats = n ? xcalloc((size_t)n, sizeof *r->out.stats) : NULL;
	for (int row = 0; row < n; row++) {
		store_stat *x = &r->out.stats[r->out.n_stats++];
		x->kind = col_dup(r, res, row, 0);
		x->key = col_dup(r, res, row, 1);
		x->value = col_i64(res, row, 2);
		x->samples = col_i64(res, row, 3);
	}
	PQclear(res);
	return STORE_OK;
}

static int op_profile(store *st, store_req *r)
{
	int err = r->in.id > 0 ? player_by_id(st, r, r->in.id) : player_by_name(st, r, r->in.name);
	if (err)
		return err;
	pgp p = {0};
	p_i64(&p, r->out.player.id);
	p_txt(&p, r->in.kind);
	if ((err = read_stats(st, r, "SELECT kind, key, value, samples FROM player_stats "
			      "WHERE player_id = $1 AND ($2::text IS NULL OR kind = $2) "
			      "ORDER BY kind COLLATE \"C\", key COLLATE \"C\"", &p)))
		return err;
	PGresult *res;
	if ((err = pg_exec(st, "SELECT kind, key, count, first_at FROM player_achievements "
			   "WHERE player_id = $1 AND ($2::text IS NULL OR kind = $2) "
			   "ORDER BY kind COLLATE \"C\", key COLLATE \"C\"", &p, &res,
			   "reading achievements")))
		return err;
	int n = PQntuples(res);
	r->out.achs = n ? xcalloc((size_t)n, sizeof *r->out.achs) : NULL;
	for (int row = 0; row < n; row++) {
		store_achievement *a = &r->out.achs[r->out.n_achs++];
		a->kind = col_dup(r, res, row, 0);
		a->key = col_dup(r, res, row, 1);
		a->count = col_i64(res, row, 2);
		a->first_at = col_i64(res, row, 3);
	}
	PQclear(res);
	if ((err = pg_exec(st, "SELECT count(DISTINCT gp.game_id) FROM game_players gp "
			   "JOIN games g ON g.id = gp.game_id "
			   "WHERE gp.player_id = $1 AND ($2::text IS NULL OR g.kind = $2)", &p, &res,
			   "counting games")))
		return err;
	int64_t games = col_i64(res, 0, 0);
	PQclear(res);
	store_profile *pr = &r->out.profile;
	pr->player = r->out.player;
	pr->stats = r->out.stats;
	pr->n_stats = r->out.n_stats;
	pr->achievements = r->out.achs;
	pr->n_achievements = r->out.n_achs;
	pr->games = games;
	return STORE_OK;
}

static int op_server_stats(store *st, store_req *r)
{
	pgp p = {0};
	p_txt(&p, r->in.kind);
	return read_stats(st, r, "SELECT kind, key, value, samples FROM server_stats "
			  "WHERE $1::text IS NULL OR kind = $1 "
			  "ORDER BY kind COLLATE \"C\", key COLLATE \"C\"", &p);
}

#define GAME_COLS "id, kind, config, seed, seats, shared, choices, result, started_at, ended_at"

static int read_games(store *st, store_req *r, const char *sql, const pgp *p)
{
	PGresult *res;
	int err = pg_exec(st, sql, p, &res, "reading games");
	if (err)
		return err;
	int n = PQntuples(res);
	r->out.games = n ? xcalloc((size_t)n, sizeof *r->out.games) : NULL;
	for (int row = 0; row < n; row++) {
		store_game_rec *g = &r->out.games[r->out.n_games++];
		g->id = col_i64(res, row, 0);
		g->kind = col_dup(r, res, row, 1);
		g->config_json = col_dup(r, res, row, 2);
		g->seed = (uint64_t)col_i64(res, row, 3);
		g->seats_json = col_dup(r, res, row, 4);
		g->shared_json = col_dup(r, res, row, 5);
		g->choices_json = col_dup(r, res, row, 6);
		g->result_json = col_dup(r, res, row, 7);
		g->started_at = col_i64(res, row, 8);
		g->ended_at = col_i64(res, row, 9);
	}
	PQclear(res);
	return STORE_OK;
}

static int op_games_list(store *st, store_req *r)
{
	const store_games_query *q = &r->in.query;
	pgp p = {0};
	p_txt(&p, q->kind);
	p_i64(&p, q->player_id);
	p_i64(&p, q->before_id);
	p_i64(&p, q->limit);
	return read_games(st, r, "SELECT " GAME_COLS " FROM games WHERE ($1::text IS NULL OR "
			  "kind = $1) AND ($2 <= 0 OR id IN "
			  "(SELECT game_id FROM game_players WHERE player_id = $2)) "
			  "AND ($3 <= 0 OR id < $3) ORDER BY id DESC LIMIT $4", &p);
}

static int op_game_get(store *st, store_req *r)
{
	pgp p = {0};
	p_i64(&p, r->in.id);
	int err = read_games(st, r, "SELECT " GAME_COLS " FROM games WHERE id = $1", &p);
	if (err)
		return err;
	return r->out.n_games == 1 ? STORE_OK : STORE_ERR_NOT_FOUND;
}

/* ---- live tables ------------------------------------------------------- */

#define LIVE_COLS                                                                          \
	"table_id, kind, config, seed, seats, shared, meta, started_at, quarantined, "     \
	"quarantined_at, last_seq"

static void live_row(store_req *r, const PGresult *res, int row, store_live_table *t)
{
	memset(t, 0, sizeof *t);
	t->table_id = col_i64(res, row, 0);
	t->kind = col_dup(r, res, row, 1);
	t->config_json = col_dup(r, res, row, 2);
	t->seed = (uint64_t)col_i64(res, row, 3);
	t->seats_json = col_dup(r, res, row, 4);
	t->shared_json = col_dup(r, res, row, 5);
	t->meta_json = col_dup(r, res, row, 6);
	t->started_at = col_i64(res, row, 7);
	t->quarantined = col_dup(r, res, row, 8);
	t->quarantined_at = col_i64(res, row, 9);
	t->last_seq = col_i64(res, row, 10);
}

static int load_decisions(store *st, store_req *r, store_live_table *t)
{
	pgp p = {0};
	p_i64(&p, t->table_id);
	PGresult *res;
	int err = pg_exec(st, "SELECT seq, choices, last_seq FROM live_decisions "
			  "WHERE table_id = $1 ORDER BY seq", &p, &res, "reading decisions");
	if (err)
		return err;
	size_t n = (size_t)PQntuples(res);
	store_decision *v = n ? xcalloc(n, sizeof *v) : NULL;
	for (size_t i = 0; i < n; i++) {
		v[i].seq = col_i64(res, (int)i, 0);
		v[i].choices_json = col_dup(r, res, (int)i, 1);
		t->last_seq = MAX(t->last_seq, col_i64(res, (int)i, 2));
	}
	PQclear(res);
	t->decisions = r ? store_req_own(r, v) : v;
	t->n_decisions = n;
	return STORE_OK;
}

static int op_live_start(store *st, store_req *r)
{
	const store_live_table *t = &r->in.live;
	pgp p = {0};
	p_i64(&p, t->table_id);
	p_txt(&p, t->kind);
	p_txt(&p, t->config_json);
	p_i64(&p, (int64_t)t->seed);
	p_txt(&p, t->seats_json);
	p_txt(&p, t->shared_json);
	p_txt(&p, t->meta_json);
	p_i64(&p, t->started_at);
	p_i64(&p, t->last_seq);
	p_i64(&p, st->pg->node);
	return pg_exec(st, "INSERT INTO live_tables (table_id, kind, config, seed, seats, shared, "
		       "meta, started_at, last_seq, owner) "
		       "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", &p, NULL,
		       "starting a live table");
}

/* An UPDATE/DELETE of one live table this node owns: NOT_FOUND or FENCED
 * when it changed nothing. */
static int live_one(store *st, int64_t id, const char *sql, const pgp *p, const char *what)
{
	int err;
	int64_t n = pg_changed(st, sql, p, &err, what);
	if (err)
		return err;
	return n > 0 ? STORE_OK : live_not_mine(st, id);
}

static int op_live_update(store *st, store_req *r)
{
	pgp p = {0};
	p_i64(&p, r->in.id);
	p_txt(&p, r->in.seats);
	p_txt(&p, r->in.meta);
	p_i64(&p, r->in.last_seq);
	p_i64(&p, st->pg->node);
	return live_one(st, r->in.id, "UPDATE live_tables SET seats = coalesce($2, seats), "
			"meta = coalesce($3, meta), last_seq = GREATEST(last_seq, $4) "
			"WHERE table_id = $1 AND owner = $5 AND quarantined IS NULL", &p,
			"updating a live table");
}

/* The hot path: the insert takes its table row from live_tables under
 * this node's ownership, so a table that moved away takes nothing. */
static int op_live_decision(store *st, store_req *r)
{
	pgp p = {0};
	p_i64(&p, r->in.id);
	p_i64(&p, r->in.seq);
	p_txt(&p, r->in.json);
	p_i64(&p, r->in.last_seq);
	p_i64(&p, st->pg->node);
	return live_one(st, r->in.id, "INSERT INTO live_decisions (table_id, seq, choices, last_seq) "
			"SELECT table_id, $2, $3, $4 FROM live_tables "
			"WHERE table_id = $1 AND owner = $5 AND quarantined IS NULL", &p,
			"appending a decision");
}

static int op_live_end(store *st, store_req *r)
{
	pgp p = {0};
	p_i64(&p, r->in.id);
	p_i64(&p, st->pg->node);
	return live_one(st, r->in.id, "DELETE FROM live_tables WHERE table_id = $1 AND owner = $2 "
			"AND quarantined IS NULL", &p, "ending a live table");
}

static int op_live_quarantine(store *st, store_req *r)
{
	pgp p = {0};
	p_i64(&p, r->in.id);
	p_txt(&p, r->in.json);
	p_i64(&p, sql_wall_ms());
	p_i64(&p, st->pg->node);
	return live_one(st, r->in.id, "UPDATE live_tables SET quarantined = $2, quarantined_at = $3 "
			"WHERE table_id = $1 AND owner = $4 AND quarantined IS NULL", &p,
			"keeping a table aside");
}

static int op_quarantined(store *st, store_req *r)
{
	bool one = r->in.id > 0;
	pgp p = {0};
	p_i64(&p, one ? r->in.id : r->in.limit);
	PGresult *res;
	int err = pg_exec(st, one ? "SELECT " LIVE_COLS " FROM live_tables "
				    "WHERE table_id = $1 AND quarantined IS NOT NULL"
				  : "SELECT " LIVE_COLS ", (SELECT count(*) FROM live_decisions d "
				    "WHERE d.table_id = live_tables.table_id) FROM live_tables "
				    "WHERE quarantined IS NOT NULL ORDER BY table_id LIMIT $1",
			  &p, &res, "reading quarantined tables");
	if (err)
		return err;
	int n = PQntuples(res);
	r->out.live = n ? xcalloc((size_t)n, sizeof *r->out.live) : NULL;
	for (int row = 0; row < n; row++) {
		store_live_table *t = &r->out.live[r->out.n_live++];
		live_row(r, res, row, t);
		if (!one)
			t->n_decisions = (size_t)col_i64(res, row, 11);
	}
	PQclear(res);
	if (one && r->out.n_live == 0)
		return STORE_ERR_NOT_FOUND;
	if (one)
		return load_decisions(st, r, &r->out.live[0]);
	return STORE_OK;
}

static int op_quarantined_drop(store *st, store_req *r)
{
	pgp p = {0};
	p_i64(&p, r->in.id);
	int err;
	int64_t n = pg_changed(st, "DELETE FROM live_tables WHERE table_id = $1 "
			       "AND quarantined IS NOT NULL", &p, &err,
			       "dropping a quarantined table");
	if (err)
		return err;
	return n > 0 ? STORE_OK : STORE_ERR_NOT_FOUND;
}

/* ---- the node: lock, lease, fence -------------------------------------- */

/* This node's row is not gone; with share, the row stays so until the
 * transaction ends. */
static int node_alive(store *st, bool share)
{
	pgp p = {0};
	p_i64(&p, st->pg->node);
	PGresult *res;
	int err = pg_exec(st, share ? "SELECT 1 FROM nodes WHERE id = $1 AND gone_at IS NULL "
				      "FOR SHARE"
				    : "SELECT 1 FROM nodes WHERE id = $1 AND gone_at IS NULL",
			  &p, &res, "checking the node");
	if (err)
		return err;
	bool alive = PQntuples(res) == 1;
	PQclear(res);
	return alive ? STORE_OK : STORE_ERR_FENCED;
}

static void fence(store *st)
{
	if (!atomic_exchange(&st->fenced, true) && !atomic_load(&st->leaving))
		log_error("store", "node %" PRId64 " was declared gone by another node: "
			  "its writes are refused from now on", st->pg->node);
}

void store_pg_renew(store *st)
{
	if (atomic_load(&st->fenced) || !st->pg->conn)
		return;
	/* A node whose session was terminated (hung, then declared gone)
	 * learns it here, without waiting for a write. */
	if (PQstatus(st->pg->conn) != CONNECTION_OK && (!reconnect(st) || atomic_load(&st->fenced)))
		return;
	pgp p = {0};
	p_i64(&p, st->pg->node);
	p_i64(&p, store_pg_lease_ms);
	int err;
	int64_t n = pg_changed(st, "UPDATE nodes SET lease_until = now() + $2 * interval '1 ms' "
			       "WHERE id = $1 AND gone_at IS NULL", &p, &err, "renewing the lease");
	if (!err && n == 0)
		fence(st);
}

/* Takes this node's advisory lock (a fresh connection: again). */
static int node_lock(store *st)
{
	pgp p = {0};
	p_i64(&p, STORE_PG_LOCK_CLASS);
	p_i64(&p, st->pg->node);
	return pg_exec(st, "SELECT pg_advisory_lock($1::int, $2::int)", &p, NULL,
		       "locking the node");
}

static int node_register(store *st)
{
	PGresult *res;
	int err = pg_exec(st, "SELECT nextval('lair_node_id')", NULL, &res, "a node id");
	if (err)
		return err;
	st->pg->node = col_i64(res, 0, 0);
	PQclear(res);
	/* The lock before the row: nobody ever sees this row unlocked. */
	if ((err = node_lock(st)))
		return err;
	pgp p = {0};
	p_i64(&p, st->pg->node);
	p_txt(&p, st->pg->name);
	p_i64(&p, store_pg_lease_ms);
	return pg_exec(st, "INSERT INTO nodes (id, name, lease_until) "
		       "VALUES ($1, $2, now() + $3 * interval '1 ms')", &p, NULL,
		       "registering the node");
}

/* Takes over the live tables of the nodes already gone (stopped, or
 * declared dead). A node that only looks dead is left to the takeover
 * pass, which waits for the grace: a start during a PostgreSQL restart
 * must not take a live node's tables. */
static int adopt_gone(store *st)
{
	pgp me = {0};
	p_i64(&me, st->pg->node);
	return pg_exec(st, "UPDATE live_tables SET owner = $1 WHERE owner IN "
		       "(SELECT id FROM nodes WHERE gone_at IS NOT NULL)", &me, NULL,
		       "adopting live tables");
}

static int load_shared(store *st)
{
	PGresult *res;
	int err = pg_exec(st, "SELECT kind, key, value FROM shared_values "
			  "ORDER BY kind COLLATE \"C\", key COLLATE \"C\"", NULL, &res,
			  "loading shared values");
	if (err)
		return err;
	for (int i = 0; i < PQntuples(res); i++)
		store_shared_add(st, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1),
				 col_i64(res, i, 2));
	PQclear(res);
	return STORE_OK;
}

static int load_live(store *st)
{
	pgp me = {0};
	p_i64(&me, st->pg->node);
	PGresult *res;
	int err = pg_exec(st, "SELECT " LIVE_COLS " FROM live_tables WHERE owner = $1 "
			  "ORDER BY table_id", &me, &res, "loading live tables");
	if (err)
		return err;
	size_t n = (size_t)PQntuples(res);
	st->live = n ? xcalloc(n, sizeof *st->live) : NULL;
	for (size_t i = 0; i < n; i++)
		live_row(NULL, res, (int)i, &st->live[i]);
	st->n_live = n;
	PQclear(res);
	for (size_t i = 0; i < n && !err; i++)
		if (!st->live[i].quarantined)
			err = load_decisions(st, NULL, &st->live[i]);
	return err;
}

/* ---- takeover ---------------------------------------------------------- */

/* How long node id has looked dead to this connection (0: it just began). */
static uint64_t dead_for_ns(store_pg *p, int64_t id, uint64_t now)
{
	for (int i = 0; i < p->n_dead; i++)
		if (p->dead[i].id == id)
			return now - p->dead[i].since_ns;
	if (p->n_dead < PG_DEAD_MAX) {
		p->dead[p->n_dead].id = id;
		p->dead[p->n_dead++].since_ns = now;
	}
	return 0;
}

static void dead_forget(store_pg *p, int64_t id)
{
	for (int i = 0; i < p->n_dead; i++)
		if (p->dead[i].id == id) {
			p->dead[i] = p->dead[--p->n_dead];
			return;
		}
}

/* Declares gone the nodes dead for grace: lock free, or lease out (their
 * session terminated first: its transaction aborts and frees the row the
 * UPDATE below needs, and nothing it sends afterwards can commit). */
static int declare_dead(store *st, int grace_ms)
{
	store_pg *pg = st->pg;
	pgp me = {0};
	p_i64(&me, pg->node);
	p_i64(&me, STORE_PG_LOCK_CLASS);
	PGresult *res;
	/* pg_locks shows who holds each node's lock; the lease by
	 * PostgreSQL's clock. */
	int err = pg_exec(st, "SELECT n.id, n.lease_until < now(), "
			  "(SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' "
			  "AND l.classid = $2::oid AND l.objid::bigint = n.id AND l.objsubid = 2 "
			  "AND l.granted "
			  "LIMIT 1) FROM nodes n WHERE n.gone_at IS NULL AND n.id <> $1", &me, &res,
			  "listing nodes");
	if (err)
		return err;
	uint64_t now = now_ns(), grace = (uint64_t)grace_ms * 1000000;
	bool settled = now - pg->conn_up_ns >= grace;
	for (int row = 0; row < PQntuples(res) && !err; row++) {
		int64_t id = col_i64(res, row, 0);
		bool expired = strcmp(PQgetvalue(res, row, 1), "t") == 0;
		bool locked = !PQgetisnull(res, row, 2);
		if (locked && !expired) {
			dead_forget(pg, id);
			continue;
		}
		if (dead_for_ns(pg, id, now) < grace || !settled)
			continue;
		pgp p = {0};
		p_i64(&p, id);
		if (locked) {
			pgp t = {0};
			p_txt(&t, PQgetvalue(res, row, 2));
			err = pg_exec(st, "SELECT pg_terminate_backend($1::int)", &t, NULL,
				      "terminating a hung node's session");
		}
		if (!err)
			err = pg_exec(st, "UPDATE nodes SET gone_at = now() WHERE id = $1 "
				      "AND gone_at IS NULL", &p, NULL, "declaring a node gone");
		if (!err) {
			dead_forget(pg, id);
			log_warn("store", "node %" PRId64 " declared gone (%s)", id,
				 locked ? "its lease ran out" : "its process is gone");
		}
	}
	PQclear(res);
	return err;
}

static int cmp_live(const void *a, const void *b)
{
	const store_live_table *x = a, *y = b;
	return (x->table_id > y->table_id) - (x->table_id < y->table_id);
}

/* This node's share of the orphans: taken (owner, last_seq raised) under
 * row locks others skip, then read back with their decision logs. */
static int op_live_claim(store *st, store_req *r)
{
	int err = declare_dead(st, r->in.limit);
	if (err)
		return err;
	pgp p = {0};
	p_i64(&p, st->pg->node);
	p_i64(&p, STORE_CLAIM_SEQ_GAP);
	p_i64(&p, store_pg_lease_ms);
	PGresult *res;
	err = pg_exec(st, "WITH orphans AS (SELECT count(*) AS n FROM live_tables WHERE owner IN "
		      "(SELECT id FROM nodes WHERE gone_at IS NOT NULL)), "
		      "alive AS (SELECT count(*) AS n FROM nodes WHERE gone_at IS NULL), "
		      "mine AS (SELECT table_id, owner FROM live_tables WHERE owner IN "
		      "(SELECT id FROM nodes WHERE gone_at IS NOT NULL) ORDER BY table_id "
		      "LIMIT (SELECT ceil(orphans.n::numeric / greatest(alive.n, 1)) "
		      "FROM orphans, alive) FOR UPDATE SKIP LOCKED) "
		      "UPDATE live_tables t SET owner = $1, last_seq = greatest(t.last_seq, "
		      "coalesce((SELECT max(d.last_seq) FROM live_decisions d "
		      "WHERE d.table_id = t.table_id), 0)) + $2 "
		      "FROM mine WHERE t.table_id = mine.table_id RETURNING t.table_id, t.kind, "
		      "t.config, t.seed, t.seats, t.shared, t.meta, t.started_at, t.quarantined, "
		      "t.quarantined_at, t.last_seq, mine.owner, (SELECT (extract(epoch FROM now() - "
		      "(n.lease_until - $3 * interval '1 ms')) * 1000)::bigint FROM nodes n "
		      "WHERE n.id = mine.owner)", &p, &res, "claiming tables");
	if (err)
		return err;
	int n = PQntuples(res);
	r->out.live = n ? xcalloc((size_t)n, sizeof *r->out.live) : NULL;
	for (int row = 0; row < n; row++) {
		live_row(r, res, row, &r->out.live[r->out.n_live]);
		r->out.live[r->out.n_live].silent_ms = col_i64(res, row, 12);
		r->out.live[r->out.n_live++].taken_from = col_i64(res, row, 11);
	}
	PQclear(res);
	if (n > 1) /* as store_live_tables(): by table_id */
		qsort(r->out.live, (size_t)n, sizeof *r->out.live, cmp_live);
	for (size_t i = 0; i < r->out.n_live && !err; i++)
		if (!r->out.live[i].quarantined)
			err = load_decisions(st, r, &r->out.live[i]);
	if (!err)
		log_info("store", "node %" PRId64 " took %zu live table(s) over", st->pg->node,
			 r->out.n_live);
	return err;
}

/* A clean stop hands the live tables over: the node is gone from this
 * transaction's commit on (the writes of its batch before it commit with
 * it; the renewal that finds the row gone fences the node quietly). */
static int node_leave(store *st)
{
	atomic_store(&st->leaving, true);
	pgp p = {0};
	p_i64(&p, st->pg->node);
	return pg_exec(st, "UPDATE nodes SET gone_at = now() WHERE id = $1 AND gone_at IS NULL",
		       &p, NULL, "leaving");
}

static int op_node_leave(store *st, store_req *r)
{
	(void)r;
	int err = node_leave(st);
	if (!err)
		log_info("store", "node %" PRId64 " leaves: its live tables are the others' to take",
			 st->pg->node);
	return err;
}

/* ---- migrations -------------------------------------------------------- */

/* The schema version: 0 before the first migration, -1 on error. */
static int64_t schema_version(store *st)
{
	PGresult *res;
	if (pg_exec(st, "SELECT to_regclass('lair_schema') IS NOT NULL", NULL, &res,
		    "reading the schema version"))
		return -1;
	bool has = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);
	if (!has)
		return 0;
	if (pg_exec(st, "SELECT version FROM lair_schema", NULL, &res, "reading lair_schema"))
		return -1;
	int64_t v = PQntuples(res) == 1 ? col_i64(res, 0, 0) : -1;
	PQclear(res);
	return v;
}

/* Each pending migration in its own transaction, under a transaction lock
 * so that nodes starting together migrate one at a time (each reads the
 * version again under it). */
static int migrate(store *st, char *err, size_t errlen)
{
	int n = store_pg_n_migrations;
	for (;;) {
		if (!pg_simple(st, "BEGIN") ||
		    !pg_simple(st, "SELECT pg_advisory_xact_lock(19521, 0)")) {
			snprintf(err, errlen, "store: cannot lock the schema: %s",
				 PQerrorMessage(st->pg->conn));
			return -1;
		}
		int64_t v = schema_version(st);
		if (v < 0 || v > n) {
			snprintf(err, errlen, "store: the database's schema version %" PRId64
				 " is not one this laird knows (0..%d)", v, n);
			pg_simple(st, "ROLLBACK");
			return -1;
		}
		if (v == n) {
			pg_simple(st, "COMMIT");
			break;
		}
		const store_migration *m = &store_pg_migrations[v];
		PGresult *res = PQexec(st->pg->conn, m->sql);
		bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
		PQclear(res);
		pgp p = {0};
		p_i64(&p, m->version);
		if (!ok || pg_exec(st, "UPDATE lair_schema SET version = $1", &p, NULL,
				   "setting the schema version") || !pg_simple(st, "COMMIT")) {
			snprintf(err, errlen, "store: migration pg/%s failed: %s", m->name,
				 PQerrorMessage(st->pg->conn));
			pg_simple(st, "ROLLBACK");
			return -1;
		}
		log_info("store", "applied migration pg/%s", m->name);
	}
	st->version = n;
	return 0;
}

/* ---- lifetime ---------------------------------------------------------- */

bool store_pg_url(const char *path)
{
	return path && (strncmp(path, "postgresql://", 13) == 0 ||
			strncmp(path, "postgres://", 11) == 0);
}

static bool connect_db(store *st)
{
	if (st->pg->conn)
		PQfinish(st->pg->conn);
	st->pg->conn = PQconnectdb(st->pg->url);
	if (PQstatus(st->pg->conn) != CONNECTION_OK)
		return false;
	/* Quiet notices (e.g. "relation exists") stay out of laird's log. */
	PQsetNoticeProcessor(st->pg->conn, NULL, NULL);
	st->pg->conn_up_ns = now_ns();
	st->pg->n_dead = 0; /* seen from this connection only */
	return pg_simple(st, "SET synchronous_commit = on");
}

int store_pg_open(store *st, const char *url, char *err, size_t errlen)
{
	st->pg = xcalloc(1, sizeof *st->pg);
	st->pg->url = xstrdup(url);
	char host[64] = "?";
	gethostname(host, sizeof host - 1);
	snprintf(st->pg->name, sizeof st->pg->name, "%s:%d", host, (int)getpid());
	if (!connect_db(st)) {
		/* libpq's message names the host and the reason, never the
		 * password. */
		snprintf(err, errlen, "store: cannot connect to PostgreSQL: %s",
			 PQerrorMessage(st->pg->conn));
		char *nl = strchr(err, '\n');
		if (nl)
			*nl = '\0';
		return -1;
	}
	if (migrate(st, err, errlen) != 0)
		return -1;
	int rc;
	if ((rc = node_register(st)) || (rc = adopt_gone(st)) || (rc = load_shared(st)) ||
	    (rc = load_live(st))) {
		snprintf(err, errlen, "store: starting the node: %s", PQerrorMessage(st->pg->conn));
		char *nl = strchr(err, '\n');
		if (nl)
			*nl = '\0';
		return -1;
	}
	log_info("store", "PostgreSQL: node %" PRId64 " (%s)", st->pg->node, st->pg->name);
	return 0;
}

int64_t store_pg_node(const store *st)
{
	return st->pg->node;
}

void store_pg_close(store *st)
{
	if (!st->pg)
		return;
	/* A clean stop leaves at once: its live tables are anyone's to take
	 * now (a restart, or another node), without waiting for the lock. */
	if (st->pg->node > 0 && !atomic_load(&st->fenced) && st->pg->conn &&
	    PQstatus(st->pg->conn) == CONNECTION_OK)
		node_leave(st);
	if (st->pg->conn)
		PQfinish(st->pg->conn); /* frees the node's lock */
	free(st->pg->url);
	free(st->pg);
	st->pg = NULL;
}

/* A fresh connection after a lost one: the same node again, unless it was
 * declared gone meanwhile (another node may own its tables now). */
static bool reconnect(store *st)
{
	if (!connect_db(st))
		return false;
	pgp p = {0};
	p_i64(&p, STORE_PG_LOCK_CLASS);
	p_i64(&p, st->pg->node);
	PGresult *res;
	if (pg_exec(st, "SELECT pg_try_advisory_lock($1::int, $2::int)", &p, &res, "relocking"))
		return false;
	bool locked = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);
	if (!locked || node_alive(st, false) == STORE_ERR_FENCED) {
		fence(st);
		return true;
	}
	log_info("store", "PostgreSQL: reconnected as node %" PRId64, st->pg->node);
	return true;
}

/* ---- batches ----------------------------------------------------------- */

static int op_player_by_name(store *st, store_req *r)
{
	return player_by_name(st, r, r->in.name);
}

static int op_run(store *st, store_req *r)
{
#define RUN(o, name, reads)                                                                \
	case o: return op_##name(st, r);
	switch (r->op) {
		STORE_OPS(RUN)
	}
#undef RUN
	return STORE_ERR_INVALID;
}

/* Every request from `from` up to `to` that had succeeded is failed: its
 * transaction did not commit. */
static void fail_since(store_req *from, store_req *to, int err)
{
	for (store_req *r = from; r != to; r = r->next)
		if (!r->checked_bad && r->err == STORE_OK) {
			r->err = err;
			store_req_clear_out(r);
		}
}

static bool wanted(const store_req *r)
{
	return !r->checked_bad && !(store_op_reads_only(r->op) && atomic_load(&r->cancelled));
}

void store_pg_run_batch(store *st, store_req *batch)
{
	bool writes = false;
	for (store_req *r = batch; r; r = r->next)
		writes |= wanted(r) && !store_op_reads_only(r->op);
	if (PQstatus(st->pg->conn) != CONNECTION_OK && !reconnect(st)) {
		for (store_req *r = batch; r; r = r->next)
			if (wanted(r))
				r->err = STORE_ERR_DB;
		return;
	}
	bool fenced = atomic_load(&st->fenced);
	if (!pg_simple(st, "BEGIN")) {
		for (store_req *r = batch; r; r = r->next)
			if (wanted(r))
				r->err = STORE_ERR_DB;
		return;
	}
	if (writes && !fenced) {
		int err = node_alive(st, true);
		if (err == STORE_ERR_FENCED)
			fence(st);
		fenced = err != STORE_OK;
	}
	for (store_req *r = batch; r; r = r->next) {
		if (!wanted(r))
			continue;
		if (fenced && !store_op_reads_only(r->op)) {
			r->err = STORE_ERR_FENCED;
			continue;
		}
		if (!pg_simple(st, "SAVEPOINT req")) {
			r->err = STORE_ERR_DB;
			continue;
		}
		r->err = op_run(st, r);
		if (r->err) {
			store_req_clear_out(r);
			pg_simple(st, "ROLLBACK TO req");
		}
		pg_simple(st, "RELEASE req");
	}
	PGresult *res = PQexec(st->pg->conn, "COMMIT");
	bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok)
		log_error("store", "COMMIT: %s", PQerrorMessage(st->pg->conn));
	PQclear(res);
	/* A commit that did not answer may or may not have happened: nothing
	 * of it is acknowledged (the caller treats it as failed). */
	if (!ok)
		fail_since(batch, NULL, STORE_ERR_DB);
}
