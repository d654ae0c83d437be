/*
 * store.h — laird's persistence: one SQLite file in WAL mode, schema from
 * the numbered migrations/NNNN_name.sql files (embedded in the binary at
 * build time, tracked with PRAGMA user_version),
 * every statement prepared with bound parameters. Or, with a postgresql://
 * URL instead of a path (cluster mode, docs/cluster.md), a PostgreSQL
 * database shared by several lairds (store_pg.h): the same contract, plus
 * the node's fence (STORE_ERR_FENCED, store_fenced).
 *
 * Threads. store_open() runs on the loop thread before the loop serves
 * anything: it opens the file, applies migrations, loads every kind's shared
 * state and every live table synchronously, then starts ONE store thread.
 * From then on every read and write runs on the store thread, in submission
 * order; results come back to the loop thread through a uv_async_t, and every
 * callback runs on the loop thread, in submission order too. Nothing in this
 * header may be called from any thread but the loop thread.
 *
 * Requests. Each async call copies all of its inputs before it returns (the
 * caller's strings and arrays are borrowed for the call only) and returns a
 * store_req handle, or NULL when the store is shutting down (then the
 * callback is never called). An accepted request's callback (if not NULL) is
 * called exactly once, unless the request was cancelled first.
 *
 * Results passed to a callback (structs, strings, arrays) are owned by the
 * store and valid only during the callback: copy what you keep.
 *
 * Cancelling (no use-after-free): a caller whose `ud` may die before the
 * reply (a connection closed mid-request) has two safe options:
 *  - keep the store_req and call store_cancel() when ud dies; the callback
 *    is then never called. The handle is valid from the submitting call's
 *    return until its callback starts or store_cancel() returns; after that
 *    the caller must forget it (clear it at the top of the callback).
 *  - or pass a ud that outlives the request (e.g. an id or generation number
 *    the callback looks up) and ignore stale replies.
 * Cancelling never undoes or skips a write: writes always run (a player
 * created for a connection that closed still exists); cancelled reads may be
 * skipped.
 *
 * Durability. A write's callback with STORE_OK means its transaction has
 * committed: it survives kill -9 of laird (WAL, synchronous=NORMAL: a power
 * loss may lose the last commits, a process crash loses nothing). On
 * PostgreSQL it survives kill -9 of laird and of the PostgreSQL server
 * (synchronous_commit=on). The store
 * thread may commit several queued requests in one transaction (group
 * commit); each request still runs in its own savepoint, so one failing
 * request rolls back only itself, and every request is all-or-nothing.
 *
 * Times are unix milliseconds (int64). Seeds are uint64 stored bit-for-bit.
 * JSON fields are opaque text to the store: it never parses them.
 */
#ifndef LAIR_STORE_H
#define LAIR_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "../common/util.h"
#include "games/game.h"

typedef struct store store;
typedef struct store_req store_req;

/* Result codes passed to callbacks. Stable: the app maps them to protocol
 * error codes. */
enum store_err {
	STORE_OK = 0,
	STORE_ERR_NAME_TAKEN = 1, /* player name exists (case-insensitive) */
	STORE_ERR_NOT_FOUND = 2,  /* no such player / game / live table */
	STORE_ERR_EXISTS = 3,     /* duplicate live table or decision seq; a
				   * token already in use; an admin already
				   * exists (store_admin_issue first_only) */
	STORE_ERR_INVALID = 4,    /* a bad argument (NULL or empty name, ...) */
	STORE_ERR_DB = 5,         /* the database failed: details are logged */
	STORE_ERR_FENCED = 6,     /* PostgreSQL only: this node was declared
				   * gone, or the live table is another
				   * node's now; nothing was written */
};

/* A short stable text for a code ("name_taken", ...). */
const char *store_strerror(int err);

/* ---- lifetime ---------------------------------------------------------- */

/* Opens (creating if needed; the parent directory must exist) the database
 * at path, applies pending migrations (each in one transaction), loads the
 * shared states and live tables, and starts the store thread. The loop is
 * borrowed until store_shutdown's callback. NULL with a message on error.
 * A postgresql:// URL opens PostgreSQL instead: the store is then a node
 * of its own (store_node_id), and the live tables it loads are those of
 * the nodes that are gone (stopped, or declared dead), now its own. */
store *store_open(uv_loop_t *loop, const char *path, char *err, size_t errlen);

/* This store's node id on PostgreSQL (> 0); 0 on SQLite. */
int64_t store_node_id(const store *st);

/* True once another node declared this one gone (PostgreSQL only): every
 * write fails with STORE_ERR_FENCED from then on; laird must stop. Any
 * thread. */
bool store_fenced(const store *st);

/* The schema version (PRAGMA user_version) after migrations. */
int store_schema_version(const store *st);

/* Requests queued or running on the store thread, plus results not yet
 * delivered (for /metrics). */
size_t store_queue_depth(const store *st);

/* Appends the store's /metrics families: queue depth, write latency
 * (submission to commit, a histogram) and requests failed by SQLite. */
void store_metrics(const store *st, buf *out);

/* Starts shutdown: from now on submissions are refused (return NULL). Every
 * request already queued is run and its callback delivered; then the store
 * thread stops, the database is closed, the async handle is closed, and
 * done(ud) is called on the loop thread. Call once. */
typedef void (*store_shutdown_cb)(void *ud);
void store_shutdown(store *st, store_shutdown_cb done, void *ud);

/* Frees the store after done was called (or after store_open's loop has
 * ended following store_shutdown). NULL is a no-op. */
void store_free(store *st);

/* See "Cancelling" above. NULL is a no-op. */
void store_cancel(store_req *req);

/* ---- tokens ------------------------------------------------------------ */

/* A secret token: 32 random bytes from getrandom as 64 lowercase hex. The
 * store only ever keeps SHA-256(token) as hex; the token itself is hashed on
 * the calling thread and never queued, stored or logged. */
#define STORE_TOKEN_LEN 64
#define STORE_HASH_LEN 64

/* Fills out[STORE_TOKEN_LEN + 1]; 0, or -1 if the OS gave no randomness. */
int store_token_new(char *out);
/* out[STORE_HASH_LEN + 1] = lowercase hex SHA-256 of the token's bytes. */
void store_token_hash(const char *token, char *out);

/* ---- players ----------------------------------------------------------- */

typedef enum store_role {
	STORE_ROLE_PLAYER = 0,
	STORE_ROLE_ADMIN = 1,
} store_role;

typedef struct store_player {
	int64_t id;         /* > 0 */
	const char *name;   /* as first registered (case kept) */
	store_role role;
	int64_t created_at;
	uint32_t kinds_finished; /* bit i: a game of game_kind_at(i) finished
				  * (no bit: crawl's first run, C15) */
} store_player;

/* p is NULL unless err == STORE_OK. */
typedef void (*store_player_cb)(void *ud, int err, const store_player *p);

/* Creates a player. Names are unique ignoring ASCII case; a taken name gives
 * STORE_ERR_NAME_TAKEN and changes nothing. Name rules (length, charset) are
 * the app's; the store only refuses NULL/empty (STORE_ERR_INVALID). */
store_req *store_player_create(store *st, const char *name, const char *token, store_role role,
			       store_player_cb cb, void *ud);
/* The player whose token this is, or STORE_ERR_NOT_FOUND. */
store_req *store_player_by_token(store *st, const char *token, store_player_cb cb, void *ud);
/* By name, ignoring ASCII case; STORE_ERR_NOT_FOUND if none. */
store_req *store_player_by_name(store *st, const char *name, store_player_cb cb, void *ud);
/* Gives player `id` a new name: STORE_ERR_NAME_TAKEN when another player
 * has it (ignoring ASCII case; a player may change the case of its own),
 * STORE_ERR_NOT_FOUND when there is no such player, else the player as now
 * stored. Name rules are the app's, as for store_player_create. */
store_req *store_player_rename(store *st, int64_t id, const char *name, store_player_cb cb,
			       void *ud);

/* Issues an admin token (laird's first start, `laird admin-token`): the
 * player `name` gets role admin and this token (its old token stops
 * working); it is created if missing. With first_only, nothing happens and
 * the result is STORE_ERR_EXISTS when any admin already exists (so laird
 * prints a token on its very first start only). */
store_req *store_admin_issue(store *st, const char *name, const char *token, bool first_only,
			     store_player_cb cb, void *ud);

/* ---- per-kind shared state (gems: adventure-use counts, records) ------- */

/* Each kind's shared state is a set of values (game_kind.shared_defs) that
 * every finished game's record merges, in its transaction, with each
 * value's aggregation: several lairds sharing the database add up. */

typedef void (*store_done_cb)(void *ud, int err);

/* ---- finished games ---------------------------------------------------- */

/* ---- finished games ---------------------------------------------------- */

/* One seat of a finished game, for statistics and achievements. */
typedef struct store_seat {
	int64_t player_id;     /* 0: no player (an AI seat): nothing recorded */
	const int64_t *stats;  /* kind->n_stats values from kind->stats(seat),
				* GAME_STAT_NONE where none; NULL: none */
	uint32_t achievements; /* kind->achievements(seat): bit i = def i */
} store_seat;

typedef struct store_game {
	const game_kind *kind; /* name, stat and achievement defs (static) */
	const char *config_json;
	uint64_t seed;
	const char *seats_json;   /* who sat where: player ids / names / AI */
	const char *shared_json;  /* the shared state the game started from */
	const char *choices_json; /* the choice log */
	const char *result_json;
	int64_t started_at, ended_at;
	int n_seats;
	const store_seat *seats;      /* [n_seats] */
	const int64_t *server_stats;  /* kind->stats(-1) for the whole game, or
				       * NULL: folded into the server-wide stats */
	const int64_t *shared_delta;  /* kind->n_shared values: what the game
				       * adds to the kind's shared state
				       * (GAME_STAT_NONE: nothing), or NULL */
	int64_t live_table_id;        /* > 0: that live table ends in the same
				       * transaction (no replay after a crash),
				       * and (live_table_id, started_at) names
				       * the game: it is recorded once */
} store_game;

typedef struct store_stat store_stat;

/* err == STORE_OK: id is the new game record's id. */
typedef void (*store_id_cb)(void *ud, int err, int64_t id);
/* err == STORE_OK: id is the game record's id, shared[n] the kind's shared
 * values after the game's merge (read in its transaction, sorted by key). */
typedef void (*store_record_cb)(void *ud, int err, int64_t id, const store_stat *shared,
				size_t n);

/* Writes a finished game in ONE transaction: the game record; per-player
 * and server-wide statistics folded with each def's aggregation (SUM adds,
 * MIN keeps the least, MAX the greatest; GAME_STAT_NONE skips); each
 * earned achievement's count per player (first-earned time kept); the
 * game's shared_delta merged into its kind's shared values the same way;
 * the end of the live table. Any failure rolls all of it back:
 * STORE_ERR_NOT_FOUND for a player id that does not exist,
 * STORE_ERR_INVALID for missing fields or a SUM delta below 0,
 * STORE_ERR_DB otherwise. A game already recorded (the same live table
 * and started_at) changes nothing: its first record's id comes back. */
store_req *store_game_finish(store *st, const store_game *g, store_record_cb cb, void *ud);

/* Deletes the players who never played — no finished game, statistic,
 * achievement or kind played — and are not admins, were created before
 * created_before (unix ms), and are not among keep[n_keep] (the players
 * online or at a table now: copied). cb gets how many went, as its id. */
store_req *store_players_prune(store *st, int64_t created_before, const int64_t *keep,
			       size_t n_keep, store_id_cb cb, void *ud);

/* ---- reads: statistics, achievements, game records --------------------- */

struct store_stat {
	const char *kind;
	const char *key;   /* game_stat_def.key */
	int64_t value;     /* aggregated */
	int64_t samples;   /* games that contributed a value */
};

typedef struct store_achievement {
	const char *kind;
	const char *key;   /* game_achievement_def.key */
	int64_t count;     /* games in which it was earned */
	int64_t first_at;  /* when first earned */
} store_achievement;

typedef struct store_profile {
	store_player player;
	const store_stat *stats;  /* sorted by kind, key */
	size_t n_stats;
	const store_achievement *achievements; /* sorted by kind, key */
	size_t n_achievements;
	int64_t games;            /* finished games this player sat in */
} store_profile;

/* p is NULL unless err == STORE_OK. */
typedef void (*store_profile_cb)(void *ud, int err, const store_profile *p);
typedef void (*store_stats_cb)(void *ud, int err, const store_stat *rows, size_t n);

/* A player's profile by id (player_id > 0) or else by name; kind NULL: all
 * kinds. STORE_ERR_NOT_FOUND if no such player. */
store_req *store_profile_get(store *st, int64_t player_id, const char *name, const char *kind,
			     store_profile_cb cb, void *ud);
/* The server-wide statistics of a kind (NULL: all), sorted by kind, key. */
store_req *store_server_stats(store *st, const char *kind, store_stats_cb cb, void *ud);
/* The shared values of a kind (NULL: all) as committed now, sorted by
 * kind, key (samples 0). */
store_req *store_shared_read(store *st, const char *kind, store_stats_cb cb, void *ud);
/* The same, as store_open read them: rows[*n], owned by the store until
 * store_free. */
const store_stat *store_shared_loaded(const store *st, size_t *n);

typedef struct store_game_rec {
	int64_t id;
	const char *kind;
	const char *config_json;
	uint64_t seed;
	const char *seats_json;
	const char *shared_json;
	const char *choices_json;
	const char *result_json;
	int64_t started_at, ended_at;
} store_game_rec;

typedef void (*store_games_cb)(void *ud, int err, const store_game_rec *games, size_t n);

typedef struct store_games_query {
	const char *kind;  /* NULL: any */
	int64_t player_id; /* > 0: games this player sat in */
	int64_t before_id; /* > 0: only ids below (paging) */
	int limit;         /* 1..STORE_GAMES_MAX (other values: the max) */
} store_games_query;
#define STORE_GAMES_MAX 100

/* Game records, newest first. */
store_req *store_games_list(store *st, const store_games_query *q, store_games_cb cb, void *ud);
/* One record (n == 1) or STORE_ERR_NOT_FOUND. */
store_req *store_game_get(store *st, int64_t id, store_games_cb cb, void *ud);

/* ---- tables in play: crash recovery ------------------------------------ */

typedef struct store_decision {
	int64_t seq;              /* the table's decision number, from 1 */
	const char *choices_json; /* the complete choice set applied */
} store_decision;

typedef struct store_live_table {
	int64_t table_id;         /* > 0, the app's id, unique among live ones */
	const char *kind;
	const char *config_json;
	uint64_t seed;
	const char *seats_json;
	const char *shared_json;  /* the shared state the game started from */
	const char *meta_json;    /* the app's own: name, lobby, settings... */
	int64_t started_at;
	int64_t last_seq;         /* the table's update seq (the protocol's `seq`)
				   * when written; store_live_tables(): the
				   * highest of the table's rows (0: unknown) */
	/* Filled by store_live_tables() and store_quarantined() only (ignored
	 * by store_live_start): */
	const store_decision *decisions; /* by seq ascending */
	size_t n_decisions;
	const char *quarantined;  /* NULL: in play; else why it was kept aside
				   * (store_live_quarantine) */
	int64_t quarantined_at;
	int64_t taken_from;       /* store_live_claim(): the node it belonged to */
	int64_t silent_ms;        /* ... and how long that node had given no
				   * sign of life (since its last lease
				   * renewal, PostgreSQL's clock): an upper
				   * bound of the time the table stood still */
} store_live_table;

/* Records a table that started a game. STORE_ERR_EXISTS if table_id is
 * already live. */
store_req *store_live_start(store *st, const store_live_table *t, store_done_cb cb, void *ud);
/* Replaces seats_json and/or meta_json (NULL: keep) of a live table (a
 * human took a seat over, ...) and raises its last_seq to last_seq (0 or
 * lower: keep). STORE_ERR_NOT_FOUND if not live. */
store_req *store_live_update(store *st, int64_t table_id, const char *seats_json,
			     const char *meta_json, int64_t last_seq, store_done_cb cb, void *ud);
/* Appends resolved decision number `seq`, with the table's update seq when
 * written (last_seq). Call it before sending the reveal and send the reveal
 * from cb (err == STORE_OK: durable). Seqs must be unique per table
 * (STORE_ERR_EXISTS otherwise); NOT_FOUND if the table is not live. */
store_req *store_live_decision(store *st, int64_t table_id, int64_t seq,
			       const char *choices_json, int64_t last_seq, store_done_cb cb,
			       void *ud);
/* The table left play without a finished game (closed, abandoned): removes
 * it and its decisions. Finished games use store_game.live_table_id. */
store_req *store_live_end(store *st, int64_t table_id, store_done_cb cb, void *ud);

/* Every table that was in play when the database was last closed (or the
 * process died), with its decision log, as loaded by store_open; sorted by
 * table_id. Quarantined ones are included (their ids are taken) with
 * `quarantined` set and no decisions. Owned by the store until
 * store_live_tables_release() or store_free(). *n = 0 and NULL when none. */
const store_live_table *store_live_tables(const store *st, size_t *n);
void store_live_tables_release(store *st);

/* ---- takeover (PostgreSQL) ---------------------------------------------- */

/* How far a claimed table's update seq jumps: above any update its old
 * owner may have sent after its last durable write (far more than a table
 * sends between two decisions), so that a table's seq never goes back for
 * its players; durable, so that a second takeover starts above the first
 * taker's updates too. */
#define STORE_CLAIM_SEQ_GAP ((int64_t)1 << 20)

typedef void (*store_live_cb)(void *ud, int err, const store_live_table *tables, size_t n);

/* One takeover pass, for a node of a cluster to run periodically. Every
 * other node that looks dead — its advisory lock is free (its process
 * died), or its lease ran out (hung, or cut off from PostgreSQL; its
 * database session is then terminated, so that nothing it sends later can
 * commit) — and has looked so for grace_ms, counted from this node's own
 * (re)connection too, so that a restart of PostgreSQL moves nothing, is
 * declared gone: its writes are refused from then on. Then this node takes
 * its share of the live tables of gone nodes (the orphans divided by the
 * live nodes, rounded up), raising each one's last_seq by
 * STORE_CLAIM_SEQ_GAP. cb gets the tables taken, with their decision logs,
 * as store_live_tables() gives them at start-up (n = 0: none). On SQLite
 * there is no other node: always none. */
store_req *store_live_claim(store *st, int grace_ms, store_live_cb cb, void *ud);

/* A clean stop that hands this node's live tables over: marks the node
 * gone at once, so that the others' next takeover pass takes its live
 * tables without a grace. The writes queued before it commit first; any
 * after it are refused (STORE_ERR_FENCED, store_fenced() true, but
 * nothing is logged as an error: it left). On SQLite there is no other
 * node: nothing to do. */
store_req *store_node_leave(store *st, store_done_cb cb, void *ud);

/* ---- tables kept aside (quarantined) ----------------------------------- */

/* A live table whose stored game cannot be rebuilt exactly is kept aside
 * instead of being replayed or deleted: its rows stay, marked with `why`,
 * and no live-table call (update, decision, end, finish) touches them any
 * more. STORE_ERR_NOT_FOUND if not live (or already kept aside). */
store_req *store_live_quarantine(store *st, int64_t table_id, const char *why,
				 store_done_cb cb, void *ud);

/* store_live_cb (above): tables is NULL unless err == STORE_OK. */

/* The quarantined tables, by table_id ascending. table_id > 0: that one,
 * with its decisions (STORE_ERR_NOT_FOUND if it is not kept aside); else
 * the first `limit` (clamped to 1..STORE_QUARANTINED_MAX) without their
 * decisions (n_decisions is their count). */
#define STORE_QUARANTINED_MAX 1000
store_req *store_quarantined(store *st, int64_t table_id, int limit, store_live_cb cb,
			     void *ud);
/* Deletes a quarantined table and its decisions. STORE_ERR_NOT_FOUND if no
 * table of that id is kept aside (a table in play is never dropped). */
store_req *store_quarantined_drop(store *st, int64_t table_id, store_done_cb cb, void *ud);

#endif
