/*
 * app_int.h — the application layer's shared internals: the app, players,
 * sessions (one per connection), lobbies and the app's view of a table.
 * Only the app's own modules include this (app.c, session.c, lobby.c,
 * tables.c, host.c, live.c, durable.c, shared.c, recovery.c, handle_*.c,
 * admin.c, quarantine.c, passcheck.c); everyone else sees app.h.
 *
 * Ownership: the app owns every player, lobby and app_table; net owns the
 * conns, and a session (owned by the app) lives from app_on_open to
 * app_on_close. A player record lives while it is connected or holds a
 * seat (or watches) somewhere, so tables can keep addressing it by id.
 */
#ifndef LAIR_APP_INT_H
#define LAIR_APP_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <cJSON.h>

#include "../proto/proto_msg.h"
#include "app.h"
#include "games/game.h"
#include "idmap.h"
#include "metrics.h"
#include "net.h"
#include "store.h"
#include "table.h"

#define APP_MAX_KINDS 8
#define APP_NAME_MAX 32
#define LOBBY_NAME_MAX 48
#define LOBBY_CHAT_KEEP 20
#define SESSION_QUEUE_MAX 64
/* A table's resume history: enough for the updates of the last decision or
 * two; a longer gap gets a fresh snapshot. Bounded so that thousands of
 * tables stay small (the default of table.h is 48 KiB each). */
#define APP_TABLE_HISTORY_MAX 32
#define APP_TABLE_HISTORY_BYTES (16 * 1024)
/* A table not in play whose members have all been disconnected this long
 * is closed (seats of players who never come back are not kept forever).
 * LAIR_TABLE_ABANDON_MS in the environment overrides it (tests). */
#define APP_TABLE_ABANDON_MS (5 * 60 * 1000)

typedef struct session session;
typedef struct player player;
typedef struct lobby lobby;
typedef struct cluster cluster;

struct player {
	int64_t id;
	char name[APP_NAME_MAX];
	bool admin;
	session *sess;         /* the live connection, NULL while away */
	lobby *lobby;          /* the lobby it is in, or NULL */
	uint64_t *tables;      /* tables where it is seated or watches */
	int n_tables, cap_tables;
	int hosted;            /* tables it created that still exist */
	uint32_t kinds_finished; /* bit i: has finished a game of game_kind_at(i) */
	bool kinds_loaded;     /* kinds_finished is the store's (hello read it) */
	uint64_t connected_ms; /* now_ms() at hello */
};

enum session_state {
	SESSION_NEW,   /* no hello yet */
	SESSION_READY, /* hello done: s->pl is set */
	SESSION_GONE,  /* replaced or kicked: its connection is closing, and
			* nothing it sent or had queued is handled any more */
};

/* A frame that arrived while the session waited for the store. */
typedef struct queued_frame {
	char *text;
	size_t len;
} queued_frame;

struct session {
	app *app;
	conn *c;
	player *pl;
	enum session_state state;
	/* A request waiting for the store: frames that arrive meanwhile are
	 * queued and handled in order once it completes (every request is
	 * answered in the order received). */
	bool busy;
	store_req *req;
	cJSON *req_id;     /* the waiting request's id (owned), or NULL */
	void *req_ctx;     /* the waiting request's context (malloc'd), or NULL */
	struct passcheck_job *pass; /* its password hash in the pool, or NULL */
	cJSON *resume;     /* hello's resume object (owned), or NULL */
	char hello_token[PROTO_TOKEN_HEX + 1]; /* a new player's token until welcome */
	char client[65];       /* hello's `client` (at most 64 bytes), for the log */
	uint32_t caps;         /* hello's caps this server knows (PROTO_CAP_*) */
	bool caps_asked;       /* hello had caps: welcome says which it took */
	queued_frame *queue;   /* SESSION_QUEUE_MAX slots, allocated when first needed */
	int q_head, q_len;
	uint64_t opened_ms;    /* now_ms() at open: the hello timeout */
	session *prev, *next;  /* the app's list of sessions */
	void *cl;              /* cluster mode: its forwarding state (cluster.c) */
};

typedef struct chat_line {
	char from[APP_NAME_MAX];
	char *text;
	int64_t at;
} chat_line;

struct lobby {
	uint64_t id;
	char name[LOBBY_NAME_MAX];
	player **members;
	size_t n_members, cap_members;
	uint64_t *tables;
	size_t n_tables, cap_tables;
	chat_line chat[LOBBY_CHAT_KEEP];
	int chat_head, chat_len;
	/* cluster mode: members connected to other nodes (cluster.c) */
	struct remote_member *remote;
	size_t n_remote, cap_remote;
	bool stale; /* cluster mode: another node's lobby it has not told again
		       since a resynchronisation began (cluster_dir.c) */
};

typedef struct app_table {
	uint64_t id;
	table *t;
	uint64_t lobby;      /* lobby id */
	int64_t creator;     /* counts against its table limit */
	int kind_index;
	int64_t started_at;  /* unix ms of the current game's start */
	bool live;           /* its start record is committed (store_live_start) */
	bool starting;       /* its start record is being written */
	bool closing;        /* queued for the reaper */
	uint64_t deserted_ms; /* now_ms() since when no member is connected, or 0 */
	char *seats_saved;   /* the live record's seats as last written (owned) */
	uint64_t close_us;   /* monotonic µs when the last window closed */
	/* The table is paused: the store refused the decision or record it
	 * waits for, which is tried again when the timer fires (owned;
	 * durable.c). */
	struct pending_write *retry;
	uv_timer_t *retry_timer;
	uint64_t seq_saved;  /* the update seq its live record holds, at least */
	void *shared_delta;  /* what its game adds to its kind's shared state
			      * so far (a kind state; shared.c), or NULL */
	int64_t *shared_values; /* the same as values (shared.c's cache) */
	bool shared_stale;      /* folded since shared_values was made */
} app_table;

struct app {
	uv_loop_t *loop;
	const laird_config *cfg;
	store *store;
	net *net;
	cluster *cluster;  /* cluster mode (cluster.h), else NULL */
	idmap players; /* player id → player */
	idmap tables;  /* table id → app_table */
	lobby **lobbies;
	size_t n_lobbies;
	uint64_t next_lobby_id, next_table_id;
	/* Each kind's shared state (shared.c): the view new games start
	 * from, and the store's values under it (kind->n_shared). */
	void *shared[APP_MAX_KINDS];
	int64_t *shared_base[APP_MAX_KINDS];
	session *sessions;           /* list head */
	size_t n_sessions;
	bool draining;       /* new work refused (shutting down) */
	bool tables_stopped; /* ... and the tables stopped */
	bool drained;        /* ... and the clients told (app_drain) */
	uint64_t started_ms;
	uint64_t abandon_ms;         /* APP_TABLE_ABANDON_MS or the override */
	uv_timer_t *reaper;          /* closes tables outside table callbacks */
	bool reaper_armed;
	uv_timer_t *sweep;           /* once a second: sessions without hello */
	struct iprate *new_tables;   /* new_tables_per_ip_min */
	struct iprate *new_players;  /* new_players_per_ip_hour */
	/* counters for /metrics and admin_stats */
	uint64_t msgs_in, msgs_out, decisions, games_finished;
	/* per kind (app_kind_index): games begun, results sent */
	uint64_t kind_started[APP_MAX_KINDS], kind_finished[APP_MAX_KINDS];
	/* window close -> the reveal sent (it waits for the decision to be
	 * durable in the store), and its parts (durable.c): the window's timer
	 * late, close -> durable (the store's answer on the loop), durable ->
	 * sent (the reveal rendered and written to every seat); the longest
	 * wait for durable (µs); waits of 20 ms or more */
	metrics_hist reveal, close_late, durable, reveal_send;
	uint64_t durable_us_max;
	uint64_t durable_slow;
	uint64_t errors[PROTO_ERR_COUNT];
};

/* ---- app.c: replies and helpers ---- */

/* Sends msg (deleted) to a session / to a player if connected. */
void app_send(session *s, cJSON *msg);
void app_send_player(app *a, int64_t player, cJSON *msg);
void app_send_text(session *s, const char *text, size_t len);
/* {type:"ok", id}. */
void app_ok(session *s, const cJSON *id);
/* An error reply; counted by code. */
void app_error(session *s, const cJSON *id, enum proto_err code, const char *field,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Error replies of code so far: the app's, plus the rate_limited errors
 * net sends itself. */
uint64_t app_errors(const app *a, enum proto_err code);
/* What is in the app now, counted once for /metrics and admin_stats. */
typedef struct app_census {
	size_t players_online; /* sessions with a player */
	size_t tables[TABLE_STATE_COUNT]; /* by state */
	size_t spectators;     /* summed over the tables */
} app_census;
void app_census_take(app *a, app_census *c);
/* Handles one decoded frame of a READY or NEW session. */
void app_dispatch(session *s, proto_msg *m);
/* The session finished waiting for the store: handle queued frames. */
void app_session_unbusy(session *s);
/* The session is replaced or kicked: its queued requests are dropped and
 * whatever else it sends is ignored (its store request, if any, still
 * completes; its reply goes nowhere). Then close its connection. */
void app_session_end(session *s);
/* A table to close once the current callback has returned (NULL: just
 * run the reaper for tables already marked closing). */
void app_table_close_later(app *a, app_table *at);
int app_kind_index(const game_kind *k);
/* Unix time in ms (wall clock: only for `at` fields, never for play). */
int64_t app_unix_ms(void);

/* ---- tables.c ---- */

app_table *app_table_find(app *a, uint64_t id);
/* Registers a new (or restored) table of this app. */
app_table *app_table_add(app *a, table *t, uint64_t lobby_id, int64_t creator);
/* Frees a table now (not from a table callback): members told, lobby
 * updated, live record ended when `end_live`. */
void app_table_destroy(app *a, app_table *at, bool end_live);
/* Closes a table that nobody holds any more (not while in play: an all-AI
 * game plays on to its end, then closes). */
void app_table_close_if_empty(app *a, app_table *at);
/* The player's connection dropped or came back: its tables are told. */
void tables_player_connected(app *a, player *p, bool connected);
/* The player leaves every table (kicked): mid-game its seats go to the AI;
 * tables left empty and not in play close. */
void tables_player_leave_all(app *a, player *p);
/* After welcome: missed updates or snapshots for each of its tables. */
void tables_resume_player(app *a, player *p, const cJSON *resume);
/* Once a second: closes tables deserted for abandon_ms (not in play). */
void tables_sweep(app *a);
/* Every table freed without ending its live record (shutdown). */
void tables_free_all(app *a);

/* ---- recovery.c ---- */

/* Restores the tables in play from the store (start-up). */
void tables_restore(app *a);
/* Restores these (a takeover in cluster mode: cluster.c). */
void tables_restore_these(app *a, const store_live_table *v, size_t n);

/* ---- handle_table.c ---- */

void handle_table_create(session *s, proto_msg *m);
void handle_table_join(session *s, proto_msg *m);
void handle_table_spectate(session *s, proto_msg *m);
void handle_table_leave(session *s, proto_msg *m);
void handle_table_add_ai(session *s, proto_msg *m);
void handle_table_remove_ai(session *s, proto_msg *m);
void handle_table_start(session *s, proto_msg *m);
void handle_choose(session *s, proto_msg *m);
void handle_selecting(session *s, proto_msg *m);
void handle_take_seat(session *s, proto_msg *m);
void handle_table_sync(session *s, proto_msg *m);
void handle_rematch(session *s, proto_msg *m);
void handle_table_close(session *s, proto_msg *m);

/* ---- handle_rename.c ---- */

void handle_rename(session *s, proto_msg *m);

/* ---- handle_stats.c ---- */

void handle_stats(session *s, proto_msg *m);
void handle_achievements(session *s, proto_msg *m);
void handle_server_stats(session *s, proto_msg *m);
void handle_records(session *s, proto_msg *m);

#endif
