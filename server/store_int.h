/*
 * store_int.h — what the store's files share and nobody else may use:
 * store.c (lifetime, the store thread, queues, submission, delivery),
 * store_sql.c (opening, migrations, statements, batches) and the files of
 * the requests themselves (store_players.c, store_games.c, store_live.c).
 *
 * Ownership across threads: a store_req is built on the loop thread, handed
 * to the store thread through the queue (under st->mu), filled in there,
 * and handed back through the done list (under st->mu) to be delivered and
 * freed on the loop thread. Only one thread touches a request at a time,
 * except `cancelled`, which is atomic.
 */
#ifndef LAIR_STORE_INT_H
#define LAIR_STORE_INT_H

#include <sqlite3.h>
#include <stdatomic.h>

#include "metrics.h"
#include "store.h"

/* The checkpointer runs when the WAL holds STORE_CKPT_PAGES frames after a
 * commit (SQLite's own autocheckpoint threshold), else every
 * STORE_CKPT_PERIOD_MS when anything was committed meanwhile. */
#define STORE_CKPT_PAGES 1000
#define STORE_CKPT_PERIOD_MS 500

/* One embedded migration (generated from migrations/ by embed.sh). */
typedef struct store_migration {
	int version;      /* NNNN */
	const char *name; /* "NNNN_name" */
	const char *sql;
} store_migration;

extern const store_migration store_migrations[];
extern const int store_n_migrations;

/* Prepared statements, all prepared by store_open. */
enum store_stmt {
	S_BEGIN,
	S_COMMIT,
	S_ROLLBACK,
	S_SAVEPOINT,
	S_RELEASE,
	S_ROLLBACK_TO,
	S_PLAYER_INSERT,
	S_PLAYER_BY_HASH,
	S_PLAYER_BY_NAME,
	S_PLAYER_BY_ID,
	S_ADMIN_ANY,
	S_PLAYER_MAKE_ADMIN,
	S_PLAYER_RENAME,
	S_SHARED_SUM,
	S_SHARED_MIN,
	S_SHARED_MAX,
	S_SHARED_ALL,
	S_GAME_ONCE,
	S_GAME_INSERT,
	S_GAME_PLAYER_INSERT,
	S_PSTAT_SUM,
	S_PSTAT_MIN,
	S_PSTAT_MAX,
	S_SSTAT_SUM,
	S_SSTAT_MIN,
	S_SSTAT_MAX,
	S_ACH_UPSERT,
	S_PSTATS,
	S_PACHS,
	S_PGAMES,
	S_SSTATS,
	S_GAMES_LIST,
	S_GAME_GET,
	S_LIVE_INSERT,
	S_LIVE_UPDATE,
	S_LIVE_DELETE,
	S_DECISION_INSERT,
	S_LIVE_ALL,
	S_DECISIONS_OF,
	S_LIVE_QUARANTINE,
	S_QUARANTINED_ALL,
	S_QUARANTINED_ONE,
	S_QUARANTINED_DROP,
	S_KINDS_INSERT,
	S_KINDS_OF,
	S_PLAYERS_UNPLAYED,
	S_PLAYER_DELETE,
	S__COUNT
};

enum store_op {
	OP_PLAYER_CREATE,
	OP_PLAYER_BY_TOKEN,
	OP_PLAYER_BY_NAME,
	OP_PLAYER_RENAME,
	OP_ADMIN_ISSUE,
	OP_SHARED_READ,
	OP_GAME_FINISH,
	OP_PROFILE,
	OP_SERVER_STATS,
	OP_GAMES_LIST,
	OP_GAME_GET,
	OP_LIVE_START,
	OP_LIVE_UPDATE,
	OP_LIVE_DECISION,
	OP_LIVE_END,
	OP_LIVE_QUARANTINE,
	OP_QUARANTINED,
	OP_QUARANTINED_DROP,
	OP_PLAYERS_PRUNE,
	OP_LIVE_CLAIM,
	OP_NODE_LEAVE,
};

struct store_req {
	store_req *next;
	store *st;
	enum store_op op;
	atomic_int cancelled;
	bool checked_bad; /* the submitting call found bad input: err is set,
			   * nothing runs */
	int err;
	/* now_ns() at submission (loop thread), when its batch began and when
	 * it ended (store thread): lair_store_durable_seconds and its parts,
	 * lair_store_queued_seconds and lair_store_batch_seconds. */
	uint64_t submit_ns, start_ns, done_ns;
	union {
		store_player_cb player;
		store_done_cb done;
		store_id_cb id;
		store_record_cb record;
		store_profile_cb profile;
		store_stats_cb stats;
		store_games_cb games;
		store_live_cb live;
	} cb;
	void *ud;

	/* Every heap block the request owns (copied inputs, result strings):
	 * freed together with the request. */
	void **owned;
	size_t n_owned, cap_owned;

	/* Inputs, copied by the submitting call. Which fields an op uses is
	 * said at its submit function in store.c. */
	struct {
		const char *name, *kind, *json, *seats, *meta;
		char hash[STORE_HASH_LEN + 1];
		int64_t id, seq, last_seq;
		int role, limit;
		bool first_only;
		int64_t *keep;         /* OP_PLAYERS_PRUNE: sorted copy */
		size_t n_keep;
		store_game game;       /* OP_GAME_FINISH, deep copy */
		store_live_table live; /* OP_LIVE_START, deep copy */
		store_games_query query;
	} in;

	/* Results, filled on the store thread. */
	struct {
		store_player player;
		store_profile profile;
		store_stat *stats;
		size_t n_stats;
		store_achievement *achs;
		size_t n_achs;
		store_game_rec *games;
		size_t n_games;
		store_live_table *live;
		size_t n_live;
		int64_t id;
	} out;
};

struct store {
	uv_loop_t *loop;
	uv_async_t async;
	uv_thread_t thread;
	uv_mutex_t mu;
	uv_cond_t cv;
	bool sync_inited, async_inited, thread_started, thread_joined;

	/* Under mu. */
	store_req *q_head, *q_tail; /* to the store thread */
	store_req *d_head, *d_tail; /* done, to the loop thread */
	bool stop;                  /* no more work will come */
	bool worker_done;           /* the store thread has finished */
	bool paused;                /* tests only: let the queue fill, so that
				     * a known set of requests is one batch */

	/* Loop thread only. */
	bool shutting_down;
	size_t depth; /* submitted, not yet delivered */
	metrics_hist durable; /* writes: submission to commit */
	metrics_hist queued;  /* writes: submission to their batch's start */
	metrics_hist batch;   /* writes: their batch's start to its commit */
	metrics_hist deliver; /* writes: commit to the result on the loop */
	uint64_t batches;     /* batches that held a write (delivered) */
	uint64_t failures;    /* requests that ended in STORE_ERR_DB */
	store_shutdown_cb done_cb;
	void *done_ud;

	/* The store thread's after start-up (store_open's before). */
	struct store_pg *pg; /* PostgreSQL (store_pg.c); NULL: SQLite, db */
	atomic_bool fenced;  /* PostgreSQL: this node was declared gone */
	atomic_bool leaving; /* ... by itself (store_node_leave) */
	sqlite3 *db;
	sqlite3_stmt *stmt[S__COUNT];
	int version;
	int64_t *aside;  /* ids of the live tables kept aside (quarantined) */
	size_t n_aside;

	/* The checkpointer (see store.c): its own connection and thread, so
	 * that copying the WAL back into the database never runs inside a
	 * commit. Started and stopped by the store thread. */
	sqlite3 *ck_db;        /* the checkpointer thread's only */
	uv_thread_t ck_thread;
	bool ck_started;
	uv_mutex_t ck_mu;
	uv_cond_t ck_cv;
	/* Under ck_mu. */
	bool ck_stop;          /* the store thread is closing */
	bool ck_due;           /* the WAL passed STORE_CKPT_PAGES: run now */
	int ck_frames;         /* WAL frames after the latest commit, 0 once
				* a checkpoint has started after it */
	bool ck_running;       /* a checkpoint is under way */

	/* Loaded by store_open; read-only afterwards. */
	store_stat *shared; /* strings the store's */
	size_t n_shared;
	store_live_table *live;
	size_t n_live;
};

/* A shared value's sum stops here (SQL text: both stores' statements). */
#define SHARED_CAP "1000000000000"

/* The index of an aggregation in the stores' SUM, MIN, MAX statement
 * triples. */
static inline int store_agg_index(game_stat_agg a)
{
	return a == GAME_STAT_MIN ? 1 : a == GAME_STAT_MAX ? 2 : 0;
}

/* store_sql.c */

/* The op only reads (a cancelled one may be skipped; no commit to time). */
bool store_op_reads_only(enum store_op op);

/* Opens st->db at path, migrates, prepares statements, loads shared states
 * and live tables. 0, or -1 with err (the caller then calls
 * store_db_close and frees the rest). */
int store_db_open(store *st, const char *path, char *err, size_t errlen);
/* Finalizes every statement and closes the database (NULL db: no-op). */
void store_db_close(store *st);
/* Runs a batch of requests (a linked list) on the store thread in one
 * transaction, one savepoint each; sets each request's err and results. */
void store_db_run_batch(store *st, store_req *batch);
/* The checkpointer's side (store thread, then checkpointer thread). Opens
 * st->ck_db on st->db's file and takes checkpoints out of st->db's commits
 * (wal_autocheckpoint off, a WAL hook reporting each commit's WAL size to
 * store_ckpt_note instead). 0, or -1 (logged; st->db keeps SQLite's own
 * autocheckpoint then). */
int store_db_ckpt_open(store *st);
/* One PASSIVE checkpoint on st->ck_db: never waits for the writer, never
 * makes it wait. Checkpointer thread. */
void store_db_ckpt_run(store *st);
/* Closes st->ck_db (NULL: no-op), then a TRUNCATE checkpoint on st->db:
 * a clean shutdown leaves an empty WAL. Store thread, checkpointer joined. */
void store_db_ckpt_close(store *st);

/* Free what store_db_open loaded: the live tables, the shared states. */
void store_live_free(store *st);
void store_shared_free(store *st);
/* Appends a row to what store_open loaded (copied). */
void store_shared_add(store *st, const char *kind, const char *key, int64_t value);

/* store_sql.c: what every request's code uses (store thread). */
/* A statement, reset and unbound, ready for binding. */
sqlite3_stmt *sql_stmt(store *st, enum store_stmt i);
/* Binds text (NULL binds SQL NULL). The request owns the text while the
 * statement runs, so SQLite need not copy it. */
void sql_bind_text(sqlite3_stmt *s, int i, const char *v);
/* Steps a statement that returns no rows, then resets it: STORE_OK,
 * STORE_ERR_NOT_FOUND (a foreign key), STORE_ERR_EXISTS (a key taken) or
 * STORE_ERR_DB (logged with `what`). */
int sql_run(store *st, sqlite3_stmt *s, const char *what);
/* The same for an UPDATE or DELETE of one row: NOT_FOUND when none changed. */
int sql_run_one_row(store *st, sqlite3_stmt *s, const char *what);
/* Logs SQLite's error with `what`; STORE_ERR_DB. */
int sql_fail(store *st, const char *what);
/* Column i as text the request owns (NULL for SQL NULL). */
char *sql_col_dup(store_req *r, sqlite3_stmt *s, int i);
/* Unix time in ms (for `at` columns). */
int64_t sql_wall_ms(void);
/* A row of LIVE_COLS into t (strings the request's), and its decisions. */
void store_live_row(store_req *r, sqlite3_stmt *s, store_live_table *t);
int store_load_decisions(store *st, store_req *r, store_live_table *t);
/* Whether live table id is kept aside; keeping it aside or not. */
bool store_aside(const store *st, int64_t id);
void store_aside_set(store *st, int64_t id, bool on);

/* Every request (enum store_op): the name of the function that runs it
 * (SQLite: store_op_NAME in store_players.c, store_games.c, store_live.c;
 * PostgreSQL: op_NAME in store_pg.c), and whether it only reads (a
 * cancelled one may be skipped; no commit to time). Each backend's
 * dispatch is made from this one list. */
#define STORE_OPS(X)                                                                       \
	X(OP_PLAYER_CREATE, player_create, false)                                          \
	X(OP_PLAYER_BY_TOKEN, player_by_token, true)                                       \
	X(OP_PLAYER_BY_NAME, player_by_name, true)                                         \
	X(OP_PLAYER_RENAME, player_rename, false)                                          \
	X(OP_ADMIN_ISSUE, admin_issue, false)                                              \
	X(OP_SHARED_READ, shared_read, true)                                               \
	X(OP_GAME_FINISH, game_finish, false)                                              \
	X(OP_PROFILE, profile, true)                                                       \
	X(OP_SERVER_STATS, server_stats, true)                                             \
	X(OP_GAMES_LIST, games_list, true)                                                 \
	X(OP_GAME_GET, game_get, true)                                                     \
	X(OP_LIVE_START, live_start, false)                                                \
	X(OP_LIVE_UPDATE, live_update, false)                                              \
	X(OP_LIVE_DECISION, live_decision, false)                                          \
	X(OP_LIVE_END, live_end, false)                                                    \
	X(OP_LIVE_QUARANTINE, live_quarantine, false)                                      \
	X(OP_QUARANTINED, quarantined, true)                                               \
	X(OP_QUARANTINED_DROP, quarantined_drop, false)                                    \
	X(OP_PLAYERS_PRUNE, players_prune, false)                                          \
	X(OP_LIVE_CLAIM, live_claim, false)                                                \
	X(OP_NODE_LEAVE, node_leave, false)

/* The SQLite functions of the list, each returning the request's err and
 * filling its out; run by store_db_run_batch. */
#define STORE_OP_DECLARE(op, name, reads) int store_op_##name(store *st, store_req *r);
STORE_OPS(STORE_OP_DECLARE)
#undef STORE_OP_DECLARE
int store_read_player_by_id(store *st, store_req *r, int64_t id);
int store_read_player_by_name(store *st, store_req *r, const char *name);
/* A failed request's results go (its callback gets none). */
void store_req_clear_out(store_req *r);

/* store.c: called by the WAL hook after each commit (store thread). */
void store_ckpt_note(store *st, int wal_frames);

/* store.c: arena helpers used by store_sql.c on the store thread. */
void *store_req_own(store_req *r, void *p);
char *store_req_strdup(store_req *r, const char *s);

#endif
