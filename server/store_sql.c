/*
 * store_sql.c — the store's SQL: opening the database (WAL, foreign keys,
 * busy timeout), applying the embedded migrations, preparing every
 * statement once, loading what start-up needs (shared states, live tables),
 * the checkpointer's connection, and running each batch of requests on the
 * store thread; what each request does is store_players.c, store_games.c
 * and store_live.c. Every value reaches SQLite through a bound parameter.
 *
 * Batches: store_db_run_batch wraps a batch in one transaction and each
 * request in a savepoint, so a failing request undoes only its own writes.
 * If SQLite itself aborts the whole transaction (I/O error, disk full), every
 * request of the batch that had succeeded is reported as failed: nothing is
 * acknowledged that was not committed.
 */
#include "store_int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/log.h"
#include "../common/util.h"

#define PLAYER_COLS "id, name, role, created_at"
#define GAME_COLS "id, kind, config, seed, seats, shared, choices, result, started_at, ended_at"
#define LIVE_COLS                                                                          \
	"table_id, kind, config, seed, seats, shared, meta, started_at, quarantined, "     \
	"quarantined_at, last_seq"

#define SHARED_FOLD(merged)                                                                \
	"INSERT INTO shared_values (kind, key, value) VALUES (?1, ?2, ?3) ON CONFLICT DO "   \
	"UPDATE SET value = CASE WHEN typeof(value) = 'integer' AND value >= 0 THEN " merged \
	" ELSE excluded.value END"

static const char *const stmt_sql[S__COUNT] = {
	[S_BEGIN] = "BEGIN IMMEDIATE",
	[S_COMMIT] = "COMMIT",
	[S_ROLLBACK] = "ROLLBACK",
	[S_SAVEPOINT] = "SAVEPOINT req",
	[S_RELEASE] = "RELEASE req",
	[S_ROLLBACK_TO] = "ROLLBACK TO req",
	[S_PLAYER_INSERT] = "INSERT INTO players (name, token_hash, role, created_at) "
			    "VALUES (?1, ?2, ?3, ?4)",
	[S_PLAYER_BY_HASH] = "SELECT " PLAYER_COLS " FROM players WHERE token_hash = ?1",
	[S_PLAYER_BY_NAME] = "SELECT " PLAYER_COLS " FROM players WHERE name = ?1",
	[S_PLAYER_BY_ID] = "SELECT " PLAYER_COLS " FROM players WHERE id = ?1",
	[S_ADMIN_ANY] = "SELECT id FROM players WHERE role = 1 LIMIT 1",
	[S_PLAYER_MAKE_ADMIN] = "UPDATE players SET token_hash = ?1, role = 1 WHERE id = ?2",
	[S_PLAYER_RENAME] = "UPDATE players SET name = ?1 WHERE id = ?2",
	/* Each kind's shared values (the same shape as S_SSTATS); one that
	 * is not a number (a damaged row) is none. */
	[S_SHARED_ALL] = "SELECT kind, key, value, 0 FROM shared_values "
			 "WHERE (?1 IS NULL OR kind = ?1) AND typeof(value) = 'integer' "
			 "ORDER BY kind, key",
	/* A game already recorded (the same table and start) is not again. */
	[S_GAME_INSERT] = "INSERT INTO games (kind, config, seed, seats, shared, choices, result, "
			  "started_at, ended_at, table_id, shared_delta) "
			  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
			  "ON CONFLICT DO NOTHING",
	[S_GAME_ONCE] = "SELECT id FROM games WHERE table_id = ?1 AND started_at = ?2",
	[S_GAME_PLAYER_INSERT] = "INSERT INTO game_players (game_id, seat, player_id) "
				 "VALUES (?1, ?2, ?3)",
	/* The aggregations: in DO UPDATE, a bare column is the stored row. */
	[S_PSTAT_SUM] = "INSERT INTO player_stats (player_id, kind, key, value, samples) "
			"VALUES (?1, ?2, ?3, ?4, 1) ON CONFLICT DO UPDATE SET "
			"value = value + excluded.value, samples = samples + 1",
	[S_PSTAT_MIN] = "INSERT INTO player_stats (player_id, kind, key, value, samples) "
			"VALUES (?1, ?2, ?3, ?4, 1) ON CONFLICT DO UPDATE SET "
			"value = min(value, excluded.value), samples = samples + 1",
	[S_PSTAT_MAX] = "INSERT INTO player_stats (player_id, kind, key, value, samples) "
			"VALUES (?1, ?2, ?3, ?4, 1) ON CONFLICT DO UPDATE SET "
			"value = max(value, excluded.value), samples = samples + 1",
	[S_SSTAT_SUM] = "INSERT INTO server_stats (kind, key, value, samples) "
			"VALUES (?1, ?2, ?3, 1) ON CONFLICT DO UPDATE SET "
			"value = value + excluded.value, samples = samples + 1",
	[S_SSTAT_MIN] = "INSERT INTO server_stats (kind, key, value, samples) "
			"VALUES (?1, ?2, ?3, 1) ON CONFLICT DO UPDATE SET "
			"value = min(value, excluded.value), samples = samples + 1",
	[S_SSTAT_MAX] = "INSERT INTO server_stats (kind, key, value, samples) "
			"VALUES (?1, ?2, ?3, 1) ON CONFLICT DO UPDATE SET "
			"value = max(value, excluded.value), samples = samples + 1",
	/* A stored value that is not a whole number >= 0 (a damaged row)
	 * counts as none; a sum stops at SHARED_CAP rather than overflow. */
	[S_SHARED_SUM] = SHARED_FOLD("min(value, " SHARED_CAP " - excluded.value) + excluded.value"),
	[S_SHARED_MIN] = SHARED_FOLD("min(value, excluded.value)"),
	[S_SHARED_MAX] = SHARED_FOLD("max(value, excluded.value)"),
	[S_ACH_UPSERT] = "INSERT INTO player_achievements (player_id, kind, key, count, first_at) "
			 "VALUES (?1, ?2, ?3, 1, ?4) ON CONFLICT DO UPDATE SET count = count + 1",
	[S_PSTATS] = "SELECT kind, key, value, samples FROM player_stats WHERE player_id = ?1 "
		     "AND (?2 IS NULL OR kind = ?2) ORDER BY kind, key",
	[S_PACHS] = "SELECT kind, key, count, first_at FROM player_achievements "
		    "WHERE player_id = ?1 AND (?2 IS NULL OR kind = ?2) ORDER BY kind, key",
	[S_PGAMES] = "SELECT count(DISTINCT gp.game_id) FROM game_players gp "
		     "JOIN games g ON g.id = gp.game_id "
		     "WHERE gp.player_id = ?1 AND (?2 IS NULL OR g.kind = ?2)",
	[S_SSTATS] = "SELECT kind, key, value, samples FROM server_stats "
		     "WHERE ?1 IS NULL OR kind = ?1 ORDER BY kind, key",
	[S_GAMES_LIST] = "SELECT " GAME_COLS " FROM games WHERE (?1 IS NULL OR kind = ?1) "
			 "AND (?2 <= 0 OR id IN "
			 "(SELECT game_id FROM game_players WHERE player_id = ?2)) "
			 "AND (?3 <= 0 OR id < ?3) ORDER BY id DESC LIMIT ?4",
	[S_GAME_GET] = "SELECT " GAME_COLS " FROM games WHERE id = ?1",
	[S_LIVE_INSERT] = "INSERT INTO live_tables (table_id, kind, config, seed, seats, shared, "
			  "meta, started_at, last_seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	/* A quarantined table is out of play: none of these touch it. */
	[S_LIVE_UPDATE] = "UPDATE live_tables SET seats = coalesce(?2, seats), "
			  "meta = coalesce(?3, meta), last_seq = max(last_seq, ?4) "
			  "WHERE table_id = ?1 AND quarantined IS NULL",
	[S_LIVE_DELETE] = "DELETE FROM live_tables WHERE table_id = ?1 AND quarantined IS NULL",
	/* The hot path: a plain insert (the foreign key finds the table);
	 * tables kept aside are refused before it (store->aside). */
	[S_DECISION_INSERT] = "INSERT INTO live_decisions (table_id, seq, choices, last_seq) "
			      "VALUES (?1, ?2, ?3, ?4)",
	[S_LIVE_ALL] = "SELECT " LIVE_COLS " FROM live_tables ORDER BY table_id",
	[S_DECISIONS_OF] = "SELECT seq, choices, last_seq FROM live_decisions "
			   "WHERE table_id = ?1 ORDER BY seq",
	[S_LIVE_QUARANTINE] = "UPDATE live_tables SET quarantined = ?2, quarantined_at = ?3 "
			      "WHERE table_id = ?1 AND quarantined IS NULL",
	[S_QUARANTINED_ALL] = "SELECT " LIVE_COLS ", (SELECT count(*) FROM live_decisions d "
			      "WHERE d.table_id = live_tables.table_id) FROM live_tables "
			      "WHERE quarantined IS NOT NULL ORDER BY table_id LIMIT ?1",
	[S_QUARANTINED_ONE] = "SELECT " LIVE_COLS " FROM live_tables "
			      "WHERE table_id = ?1 AND quarantined IS NOT NULL",
	[S_QUARANTINED_DROP] = "DELETE FROM live_tables "
			       "WHERE table_id = ?1 AND quarantined IS NOT NULL",
	/* the kinds a player has finished a game of (crawl's first run) */
	[S_KINDS_INSERT] = "INSERT OR IGNORE INTO player_kinds (player_id, kind, first_game) "
			   "VALUES (?1, ?2, ?3)",
	[S_KINDS_OF] = "SELECT kind FROM player_kinds WHERE player_id = ?1",
	/* players who never played (pruning) */
	[S_PLAYERS_UNPLAYED] = "SELECT id FROM players p WHERE role = 0 AND created_at < ?1 "
			       "AND NOT EXISTS (SELECT 1 FROM game_players g WHERE g.player_id = p.id) "
			       "AND NOT EXISTS (SELECT 1 FROM player_stats s WHERE s.player_id = p.id) "
			       "AND NOT EXISTS (SELECT 1 FROM player_achievements a "
			       "WHERE a.player_id = p.id) "
			       "AND NOT EXISTS (SELECT 1 FROM player_kinds k WHERE k.player_id = p.id)",
	[S_PLAYER_DELETE] = "DELETE FROM players WHERE id = ?1",
};

int64_t sql_wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A statement, reset and unbound, ready for binding. */
sqlite3_stmt *sql_stmt(store *st, enum store_stmt i)
{
	sqlite3_stmt *s = st->stmt[i];
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

/* Binds text (NULL binds SQL NULL). The request owns the text while the
 * statement runs, so SQLite need not copy it. */
void sql_bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

int sql_fail(store *st, const char *what)
{
	log_error("store", "%s: %s", what, sqlite3_errmsg(st->db));
	return STORE_ERR_DB;
}

/* Steps a statement that returns no rows, then resets it. */
int sql_run(store *st, sqlite3_stmt *s, const char *what)
{
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	if (rc == SQLITE_DONE)
		return STORE_OK;
	int ext = sqlite3_extended_errcode(st->db);
	if (ext == SQLITE_CONSTRAINT_FOREIGNKEY)
		return STORE_ERR_NOT_FOUND;
	if (ext == SQLITE_CONSTRAINT_PRIMARYKEY || ext == SQLITE_CONSTRAINT_UNIQUE)
		return STORE_ERR_EXISTS;
	return sql_fail(st, what);
}

char *sql_col_dup(store_req *r, sqlite3_stmt *s, int i)
{
	return store_req_strdup(r, (const char *)sqlite3_column_text(s, i));
}

/* UPDATE/DELETE of one row: NOT_FOUND when no row changed. */
int sql_run_one_row(store *st, sqlite3_stmt *s, const char *what)
{
	int err = sql_run(st, s, what);
	if (err)
		return err;
	return sqlite3_changes(st->db) > 0 ? STORE_OK : STORE_ERR_NOT_FOUND;
}

/* ---- opening ----------------------------------------------------------- */

static int open_fail(store *st, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int open_fail(store *st, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	char what[256];
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "store: %s: %s", what, st->db ? sqlite3_errmsg(st->db) : "?");
	return -1;
}

/* One-row integer PRAGMA or query (start-up only). */
static int query_int(sqlite3 *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int migrate(store *st, char *err, size_t errlen)
{
	int64_t v;
	int n = store_n_migrations;
	for (int i = 0; i < n; i++)
		if (store_migrations[i].version != i + 1) {
			snprintf(err, errlen, "store: embedded migrations are not numbered 1..%d "
				 "(%s)", n, store_migrations[i].name);
			return -1;
		}
	if (query_int(st->db, "PRAGMA user_version", &v) != 0)
		return open_fail(st, err, errlen, "reading user_version");
	if (v > n) {
		snprintf(err, errlen, "store: the database's schema version %" PRId64
			 " is newer than this laird knows (%d)", v, n);
		return -1;
	}
	for (int i = (int)v; i < n; i++) {
		const store_migration *m = &store_migrations[i];
		/* PRAGMA takes no bound parameter; the number is our own. */
		char pragma[64];
		snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", m->version);
		char *msg = NULL;
		if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK ||
		    sqlite3_exec(st->db, m->sql, NULL, NULL, &msg) != SQLITE_OK ||
		    sqlite3_exec(st->db, pragma, NULL, NULL, &msg) != SQLITE_OK ||
		    sqlite3_exec(st->db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
			snprintf(err, errlen, "store: migration %s failed: %s", m->name,
				 msg ? msg : sqlite3_errmsg(st->db));
			sqlite3_free(msg);
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
		log_info("store", "applied migration %s", m->name);
	}
	st->version = n;
	return 0;
}

static int load_shared(store *st)
{
	sqlite3_stmt *s = sql_stmt(st, S_SHARED_ALL);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		store_shared_add(st, (const char *)sqlite3_column_text(s, 0),
				 (const char *)sqlite3_column_text(s, 1), sqlite3_column_int64(s, 2));
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* A text column, copied: into the request's arena when r is set (a
 * result), else on the heap (what store_open loads). */
static char *text_col(store_req *r, sqlite3_stmt *s, int i)
{
	const char *t = (const char *)sqlite3_column_text(s, i);
	if (r)
		return store_req_strdup(r, t);
	return t ? xstrdup(t) : NULL;
}

/* One row of LIVE_COLS. */
void store_live_row(store_req *r, sqlite3_stmt *s, store_live_table *t)
{
	memset(t, 0, sizeof *t);
	t->table_id = sqlite3_column_int64(s, 0);
	t->kind = text_col(r, s, 1);
	t->config_json = text_col(r, s, 2);
	t->seed = (uint64_t)sqlite3_column_int64(s, 3);
	t->seats_json = text_col(r, s, 4);
	t->shared_json = text_col(r, s, 5);
	t->meta_json = text_col(r, s, 6);
	t->started_at = sqlite3_column_int64(s, 7);
	t->quarantined = text_col(r, s, 8);
	t->quarantined_at = sqlite3_column_int64(s, 9);
	t->last_seq = sqlite3_column_int64(s, 10);
}

int store_load_decisions(store *st, store_req *r, store_live_table *t)
{
	sqlite3_stmt *s = sql_stmt(st, S_DECISIONS_OF);
	sqlite3_bind_int64(s, 1, t->table_id);
	store_decision *v = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			v = xrealloc(v, cap * sizeof *v);
		}
		v[n].seq = sqlite3_column_int64(s, 0);
		v[n].choices_json = text_col(r, s, 1);
		t->last_seq = MAX(t->last_seq, sqlite3_column_int64(s, 2));
		n++;
	}
	sqlite3_reset(s);
	t->decisions = r ? store_req_own(r, v) : v;
	t->n_decisions = n;
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The ids of the tables kept aside (store thread; few). */
bool store_aside(const store *st, int64_t id)
{
	for (size_t i = 0; i < st->n_aside; i++)
		if (st->aside[i] == id)
			return true;
	return false;
}

void store_aside_set(store *st, int64_t id, bool on)
{
	for (size_t i = 0; i < st->n_aside; i++)
		if (st->aside[i] == id) {
			if (!on)
				st->aside[i] = st->aside[--st->n_aside];
			return;
		}
	if (on) {
		st->aside = xrealloc(st->aside, (st->n_aside + 1) * sizeof *st->aside);
		st->aside[st->n_aside++] = id;
	}
}

static int load_live(store *st)
{
	sqlite3_stmt *s = sql_stmt(st, S_LIVE_ALL);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (st->n_live == cap) {
			cap = cap ? 2 * cap : 8;
			st->live = xrealloc(st->live, cap * sizeof *st->live);
		}
		store_live_row(NULL, s, &st->live[st->n_live++]);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return -1;
	/* A table kept aside is not replayed: its decisions stay on disk. */
	for (size_t i = 0; i < st->n_live; i++) {
		if (st->live[i].quarantined)
			store_aside_set(st, st->live[i].table_id, true);
		else if (store_load_decisions(st, NULL, &st->live[i]) != 0)
			return -1;
	}
	return 0;
}

void store_shared_add(store *st, const char *kind, const char *key, int64_t value)
{
	st->shared = xrealloc(st->shared, (st->n_shared + 1) * sizeof *st->shared);
	st->shared[st->n_shared++] = (store_stat){.kind = xstrdup(kind ? kind : ""),
						  .key = xstrdup(key ? key : ""),
						  .value = value};
}

void store_shared_free(store *st)
{
	for (size_t i = 0; i < st->n_shared; i++) {
		free((char *)st->shared[i].kind);
		free((char *)st->shared[i].key);
	}
	free(st->shared);
	st->shared = NULL;
	st->n_shared = 0;
}

void store_live_free(store *st)
{
	for (size_t i = 0; i < st->n_live; i++) {
		store_live_table *t = &st->live[i];
		free((char *)t->kind);
		free((char *)t->config_json);
		free((char *)t->seats_json);
		free((char *)t->shared_json);
		free((char *)t->meta_json);
		free((char *)t->quarantined);
		for (size_t j = 0; j < t->n_decisions; j++)
			free((char *)t->decisions[j].choices_json);
		free((store_decision *)t->decisions);
	}
	free(st->live);
	st->live = NULL;
	st->n_live = 0;
}

int store_db_open(store *st, const char *path, char *err, size_t errlen)
{
	int64_t v;
	if (!path || !*path) {
		snprintf(err, errlen, "store: no database path");
		return -1;
	}
	/* NOMUTEX: one thread at a time uses the connection (this one until
	 * the store thread starts, then only that one). */
	int rc = sqlite3_open_v2(path, &st->db,
				 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
				 NULL);
	if (rc != SQLITE_OK)
		return open_fail(st, err, errlen, "cannot open %s", path);
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, 5000);

	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "PRAGMA journal_mode = WAL", -1, &s, NULL) != SQLITE_OK)
		return open_fail(st, err, errlen, "%s", path);
	rc = sqlite3_step(s);
	bool wal = rc == SQLITE_ROW &&
		   strcmp((const char *)sqlite3_column_text(s, 0), "wal") == 0;
	sqlite3_finalize(s);
	if (!wal)
		return open_fail(st, err, errlen, "%s: cannot use WAL mode", path);
	/* synchronous=NORMAL in WAL: a commit survives a crash of laird (the
	 * WAL is written before COMMIT returns); only a power loss may lose
	 * the newest commits. */
	if (sqlite3_exec(st->db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL", NULL,
			 NULL, NULL) != SQLITE_OK ||
	    query_int(st->db, "PRAGMA foreign_keys", &v) != 0 || v != 1)
		return open_fail(st, err, errlen, "%s: cannot enable foreign keys", path);

	if (migrate(st, err, errlen) != 0)
		return -1;

	for (int i = 0; i < S__COUNT; i++)
		if (sqlite3_prepare_v3(st->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
				       &st->stmt[i], NULL) != SQLITE_OK)
			return open_fail(st, err, errlen, "preparing statement %d", i);

	/* One read transaction: a consistent picture of the live tables. */
	if (sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return open_fail(st, err, errlen, "%s", path);
	rc = load_shared(st) == 0 && load_live(st) == 0 ? 0 : -1;
	sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
	if (rc != 0)
		return open_fail(st, err, errlen, "loading shared state and live tables");
	return 0;
}

void store_db_close(store *st)
{
	if (!st->db)
		return;
	for (int i = 0; i < S__COUNT; i++) {
		sqlite3_finalize(st->stmt[i]);
		st->stmt[i] = NULL;
	}
	if (sqlite3_close(st->db) != SQLITE_OK)
		log_error("store", "closing the database: %s", sqlite3_errmsg(st->db));
	st->db = NULL;
}

/* ---- the checkpointer's connection ------------------------------------ */

static int on_wal_commit(void *arg, sqlite3 *db, const char *name, int frames)
{
	(void)db;
	(void)name;
	store_ckpt_note(arg, frames);
	return SQLITE_OK;
}

int store_db_ckpt_open(store *st)
{
	const char *path = sqlite3_db_filename(st->db, "main");
	int rc = sqlite3_open_v2(path, &st->ck_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
				 NULL);
	/* Reading the schema puts the connection in WAL mode (checkpointing
	 * needs it); synchronous as the writer's: the checkpoint syncs the WAL
	 * before copying it and the database after. */
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(st->ck_db, "PRAGMA synchronous = NORMAL; "
				  "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		log_error("store", "checkpointer: cannot open %s: %s; checkpoints stay in commits",
			  path ? path : "?", st->ck_db ? sqlite3_errmsg(st->ck_db) : "no memory");
		sqlite3_close(st->ck_db);
		st->ck_db = NULL;
		return -1;
	}
	/* Replaces SQLite's autocheckpoint (itself a WAL hook) on the writer. */
	sqlite3_wal_hook(st->db, on_wal_commit, st);
	return 0;
}

void store_db_ckpt_run(store *st)
{
	int log_frames = 0, done = 0;
	int rc = sqlite3_wal_checkpoint_v2(st->ck_db, NULL, SQLITE_CHECKPOINT_PASSIVE,
					   &log_frames, &done);
	if (rc != SQLITE_OK && rc != SQLITE_BUSY) /* BUSY: nothing to worry about */
		log_warn("store", "checkpoint: %s", sqlite3_errmsg(st->ck_db));
}

void store_db_ckpt_close(store *st)
{
	if (st->ck_db) {
		sqlite3_close(st->ck_db);
		st->ck_db = NULL;
		sqlite3_wal_hook(st->db, NULL, NULL);
	}
	if (st->db &&
	    sqlite3_wal_checkpoint_v2(st->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL) !=
		    SQLITE_OK)
		log_warn("store", "final checkpoint: %s", sqlite3_errmsg(st->db));
}

bool store_op_reads_only(enum store_op op)
{
#define READS(o, name, reads)                                                              \
	case o: return reads;
	switch (op) {
		STORE_OPS(READS)
	}
#undef READS
	return false;
}

/* One process: no other node's tables to take. */
int store_op_live_claim(store *st, store_req *r)
{
	(void)st;
	(void)r;
	return STORE_OK;
}

/* One process: no cluster to leave. */
int store_op_node_leave(store *st, store_req *r)
{
	(void)st;
	(void)r;
	return STORE_OK;
}

int store_op_player_by_name(store *st, store_req *r)
{
	return store_read_player_by_name(st, r, r->in.name);
}

static int op_run(store *st, store_req *r)
{
#define RUN(o, name, reads)                                                                \
	case o: return store_op_##name(st, r);
	switch (r->op) {
		STORE_OPS(RUN)
	}
#undef RUN
	return STORE_ERR_INVALID;
}

void store_req_clear_out(store_req *r)
{
	free(r->out.stats);
	free(r->out.achs);
	free(r->out.games);
	free(r->out.live);
	memset(&r->out, 0, sizeof r->out);
}

static bool step_ok(store *st, enum store_stmt i)
{
	return sql_run(st, sql_stmt(st, i), stmt_sql[i]) == STORE_OK;
}

/* Marks every request from `from` up to (not including) `to` that had
 * succeeded as failed: SQLite rolled back the transaction that held it. */
static void fail_since(store_req *from, store_req *to)
{
	for (store_req *r = from; r != to; r = r->next)
		if (!r->checked_bad && r->err == STORE_OK) {
			r->err = STORE_ERR_DB;
			store_req_clear_out(r);
		}
}

void store_db_run_batch(store *st, store_req *batch)
{
	bool in_tx = false;
	store_req *tx_first = NULL; /* first request of the open transaction */
	for (store_req *r = batch; r; r = r->next) {
		if (r->checked_bad)
			continue;
		if (store_op_reads_only(r->op) && atomic_load(&r->cancelled))
			continue; /* nobody will read the answer */
		if (!in_tx) {
			if (!step_ok(st, S_BEGIN)) {
				r->err = STORE_ERR_DB;
				continue;
			}
			in_tx = true;
			tx_first = r;
		}
		if (!step_ok(st, S_SAVEPOINT)) {
			r->err = STORE_ERR_DB;
			continue;
		}
		r->err = op_run(st, r);
		if (sqlite3_get_autocommit(st->db)) {
			/* SQLite aborted the whole transaction. */
			log_error("store", "transaction aborted: %s", sqlite3_errmsg(st->db));
			fail_since(tx_first, r);
			r->err = STORE_ERR_DB;
			store_req_clear_out(r);
			in_tx = false;
			continue;
		}
		if (r->err) {
			store_req_clear_out(r);
			step_ok(st, S_ROLLBACK_TO);
		}
		step_ok(st, S_RELEASE);
	}
	if (in_tx && !step_ok(st, S_COMMIT)) {
		/* A failed COMMIT (disk full) may have rolled back already. */
		if (!sqlite3_get_autocommit(st->db))
			step_ok(st, S_ROLLBACK);
		fail_since(tx_first, NULL);
	}
}
