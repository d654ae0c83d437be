/*
 * table.h — one table: its seats and spectators, its life (waiting →
 * playing → finished → rematch), and the round engine that owns time
 * (docs/ARCHITECTURE.md): post each pending seat its options and a deadline, broadcast
 * per-seat status (never the choice), open the change-your-mind window once
 * every pending seat has chosen, then reveal all choices at once and apply
 * them through the game kind. AI seats, deadlines and dropped players are
 * played by the kind's AI.
 *
 * The table knows no sockets, no SQL and no client frames: the app parses
 * and validates a request, calls a table_* function and turns its return
 * code into the reply; the table sends its updates (JSON text, protocol v1,
 * see proto/table.md) through the host's send() callback, one viewer at a
 * time, each rendered for what that viewer may see.
 *
 * Time: the round engine keeps none of its own; on the loop given to
 * table_new the table arms libuv timers for it (table_clock.c); without a
 * loop the caller moves the table's time (table_advance). Nothing blocks.
 * Every update carries the table's sequence number `seq`; a bounded
 * history lets a resuming player get what it missed (table_resume), else a
 * fresh snapshot.
 *
 * Memory: table_new copies everything it is given (settings, strings, the
 * config JSON). Strings and pointers the accessors return are owned by the
 * table and valid until the next call that changes it. cJSON trees the
 * *_json functions return are the caller's (cJSON_Delete).
 *
 * Re-entrancy: host callbacks other than send() may call table_* functions
 * of the same table (e.g. decision() may call table_decision_durable() at
 * once); send() must not call into the table (it runs while an update is
 * going out, and a nested update would reach some players out of order).
 * No callback may call table_free(); free from the app's own code, and
 * call nothing on a table after freeing it (look it up by id).
 */
#ifndef LAIR_TABLE_H
#define LAIR_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>
#include <uv.h>

#include "../proto/proto_msg.h"
#include "games/game.h"

typedef struct table table;
typedef struct table_pacer table_pacer;

/* What a table function answers. Each error has one protocol code
 * (proto/PROTOCOL.md §3) and one message a player may be shown, in one
 * table (table.c): table_err_proto, table_err_message. On any error the
 * table is unchanged and nothing was sent. */
enum table_err {
	TABLE_OK = 0,
	TABLE_ERR_NOT_FOUND,      /* no such seat */
	TABLE_ERR_FORBIDDEN,      /* host-only request */
	TABLE_ERR_FULL,           /* the seat is taken / no free seat */
	TABLE_ERR_PASSWORD,       /* a private table's password is wrong or missing */
	TABLE_ERR_NOT_SEATED,     /* not at this table (seat or watching) */
	TABLE_ERR_NOT_YOUR_SEAT,  /* acting for a seat held by someone else */
	TABLE_ERR_NOT_PENDING,    /* the seat has nothing to decide now */
	TABLE_ERR_ILLEGAL,        /* not one of the options now */
	TABLE_ERR_WRONG_PHASE,    /* wrong state, stale decision number */
	TABLE_ERR_BAD,            /* a bad setting or argument */
	TABLE_ERR_INTERNAL,       /* seed source or game creation failed */
	TABLE_ERR_COUNT
};
/* The protocol's error code for e (PROTO_OK for TABLE_OK). */
enum proto_err table_err_proto(enum table_err e);
/* What a player is told of e ("that seat is taken (or no seat is free)"). */
const char *table_err_message(enum table_err e);
/* The protocol code's text ("full"), for logs. */
const char *table_err_code(enum table_err e);

enum table_state {
	TABLE_WAITING,  /* seats being filled; the host starts */
	TABLE_PLAYING,
	TABLE_FINISHED, /* result shown; the host may rematch (→ WAITING) or close */
	TABLE_STATE_COUNT
};
const char *table_state_name(enum table_state s); /* "waiting", "playing", "finished" */

enum table_seat_kind { SEAT_EMPTY, SEAT_HUMAN, SEAT_AI };

/* A seat's status in the current decision. */
enum table_status {
	STATUS_IDLE,      /* not asked in this decision (or no decision now) */
	STATUS_WAITING,   /* asked, has not chosen */
	STATUS_SELECTING, /* asked, the player has its menu open (table_selecting) */
	STATUS_CHOSEN,    /* has a choice (which one is never shown to others) */
};
const char *table_status_name(enum table_status s);

#define TABLE_NAME_MAX 48
#define TABLE_PLAYER_NAME_MAX 32
#define TABLE_PASSWORD_MAX 96 /* a password hash (passhash.h) fits */

typedef struct table_settings {
	uint64_t id;           /* the app's table id (in every message) */
	uint64_t lobby;        /* the app's lobby id (summary only) */
	const game_kind *kind;
	const cJSON *config;   /* the kind's config (NULL: defaults); validated and copied */
	int seats;             /* 1..GAME_MAX_SEATS, within the kind's min/max */
	char name[TABLE_NAME_MAX];
	bool private_table;
	char password[TABLE_PASSWORD_MAX]; /* required (non-empty) when private */
	uint64_t host;         /* the host player's id; host_name its name */
	char host_name[TABLE_PLAYER_NAME_MAX];
	int turn_timeout_ms;   /* a human's deadline per decision (> 0) */
	int window_ms;         /* the change-your-mind window (config window_ms, 1000) */
	int pacing_ms;         /* delay between decisions without a human to wait for;
				* 0 = next loop iteration (never two decisions in one) */
	int reveal_pause_ms;   /* pause after a reveal before the next options when
				* humans play (0 = none) */
	bool fixed_seed;       /* admin: every game of this table uses `seed` */
	uint64_t seed;
	int history_max;       /* updates kept for resume (0: default 64) */
	size_t history_bytes;  /* and their total size bound (0: default 48 KiB) */
	table_pacer *pacer;    /* optional, borrowed: shares the loop's turns with
				* the other tables (see table_pacer_new) */
} table_settings;

/* What the app provides. Every callback except send may be NULL. */
typedef struct table_host {
	void *ud;
	/* One message to one player (seated or watching). `json` is valid only
	 * during the call. Players without a connection: drop it. */
	void (*send)(void *ud, uint64_t player, const char *json, size_t len);
	/* What the player's connection asked for in hello's caps: the
	 * PROTO_CAP_* bits (proto/proto_msg.h) that change what the table
	 * sends it live (view_patch, lean, timing: proto/table.md §5.6). NULL:
	 * nobody asked for any. */
	uint32_t (*caps)(void *ud, uint64_t player);
	/* The kind's current server-wide shared state (borrowed), read when a
	 * game is created; NULL for none. */
	const void *(*shared)(void *ud, const game_kind *kind);
	/* Events the game emitted (creation or one applied decision), in order,
	 * for folding into the shared state (kind->shared_fold). `replaying`:
	 * from table_restore, already seen before the crash. */
	void (*events)(void *ud, table *t, const game_event *evs, size_t n, bool replaying);
	/* A game (number `game` at this table) is about to begin: its start
	 * (table_record_json, no result; every seat filled) is decided but
	 * NOT announced: the table stays "waiting" (nothing sent; seats may
	 * still change hands) until the host has persisted it and calls
	 * table_start_durable(t, game, ok): with ok the game begins (state,
	 * seats, start, first options); else it is dropped and everyone at
	 * the table gets `start_failed`, so that nobody sees a game a crash
	 * could forget. May call table_start_durable at once. NULL: it begins
	 * at once. */
	void (*start)(void *ud, table *t, uint64_t game);
	/* A game began (after start, once durable). */
	void (*started)(void *ud, table *t);
	/* Decision number `n` (1, 2, ...) resolved with choices[0..seats-1]
	 * (GAME_NO_CHOICE for seats not asked); every choice was checked when
	 * it was made, and nobody has seen them. Persist the set, then call
	 * table_decision_durable(t, n): only then is it applied and revealed
	 * (if the store fails, retry, and call table_store_failed).
	 * NULL: applied and revealed at once. */
	void (*decision)(void *ud, table *t, uint64_t n, const game_choice *choices, int seats);
	/* The game (number `game` at this table) is over; its result is
	 * decided (table_record_json has it) but NOT sent: the table stays
	 * PLAYING, phase "between", until the host has persisted the record,
	 * statistics, achievements and shared state (table_record_json,
	 * table_game) and calls table_finished_durable(t, game): only then
	 * is the result sent and finished() called, so that no player sees
	 * a result a crash could lose. If the store fails, retry (and call
	 * table_store_failed): the result waits. NULL: the result is sent at
	 * once. Not called for an aborted game. */
	void (*record)(void *ud, table *t, uint64_t game);
	/* The result has been sent (state FINISHED). Not called for an
	 * aborted game. */
	void (*finished)(void *ud, table *t);
	/* The summary changed (seats, state, host, spectators): lobby lists. */
	void (*changed)(void *ud, table *t);
	/* Optional, at each start before the game is created: a new config (a
	 * tree the table takes and deletes) holding facts only the app knows of
	 * the seated players (crawl: who is on a first run), or NULL to keep
	 * the table's. The kind validates it; it becomes the table's config
	 * (and so the record's); a config the kind refuses is logged and the
	 * old one kept. */
	cJSON *(*start_config)(void *ud, table *t, const cJSON *config_full);
} table_host;

/* A pacer shares one loop's iterations among many tables: at most
 * `per_turn` table steps (the next decision after a reveal: at all-AI tables
 * that is a whole decision) run per loop iteration, the others wait their
 * turn in arrival order. Without one, each table takes one step per
 * iteration, so N all-AI tables at pacing 0 do N decisions per iteration.
 * Free it after every table that uses it; its handle closes on the loop. */
table_pacer *table_pacer_new(uv_loop_t *loop, int per_turn);
void table_pacer_free(table_pacer *p);
/* Steps waiting for a turn now (metrics). */
int table_pacer_waiting(const table_pacer *p);
/* Inside host.decision for a window its timer closed: how late the timer
 * ran (µs after the window's end; the loop was busy or waited for a CPU).
 * -1 anywhere else (no window, no loop, or not inside that call). */
int64_t table_close_late_us(const table *t);

/* Creates a waiting table with every seat empty. The host struct is
 * copied; loop is borrowed for the table's life (NULL: no timers, the
 * caller moves time with table_advance; no pacer then). NULL with a
 * message on a bad setting or a config the kind rejects. */
table *table_new(uv_loop_t *loop, const table_host *host, const table_settings *s, char *err,
		 size_t errlen);

/* Stops the table: its memory goes at once, nothing more is sent or called
 * back; its timer handles close on the loop (run the loop before
 * uv_loop_close). A game in play is abandoned. */
void table_free(table *t);

/* A table without a loop: its time moves to `now` (loop ms; never back)
 * and what is due by then runs — a deadline, the window closing, or one
 * step to the next decision (one at most: call again). Returns when the
 * table next needs to run (at or before now: at once), or TABLE_NO_WAKE
 * when it waits for a player, the host or the store. */
#define TABLE_NO_WAKE UINT64_MAX
uint64_t table_advance(table *t, uint64_t now);
/* When the table next needs to run, as table_advance returns it. */
uint64_t table_next_wake(const table *t);

/* --- seats and spectators ------------------------------------------------- */

/* Who hears of a seat change the acting player makes: everyone at the
 * table, or everyone but that player (TABLE_NOTIFY_OTHERS: the caller
 * answers it with a snapshot, which holds the change already; the update
 * is kept for resume all the same). */
enum table_notify { TABLE_NOTIFY_ALL, TABLE_NOTIFY_OTHERS };

/* Takes a seat: seat -1 = the first free one. WAITING: an empty seat or an
 * AI seat (it turns human). PLAYING: only an AI seat (takeover; its pending
 * choice stands until the player changes it). A private table needs the
 * password unless the player already watches it or is the host. A player
 * holds at most one seat; one who watched stops watching. *seat_out (may be
 * NULL) gets the seat. */
enum table_err table_join(table *t, uint64_t player, const char *name, int seat,
			  const char *password, int *seat_out, enum table_notify notify);

/* Watches the table (spectator view). Seated players cannot also watch.
 * The name is kept for a later takeover of an AI seat by choosing. */
enum table_err table_spectate(table *t, uint64_t player, const char *name, const char *password,
			      enum table_notify notify);

/* Leaves seat or watching. Mid-game the seat goes to the AI (its pending
 * choice, if any, stands; else the AI chooses now). When the host leaves,
 * the next seated human (then the next spectator) becomes host. */
enum table_err table_leave(table *t, uint64_t player);

/* Host only, WAITING: an AI into an empty seat (-1: first free), or out. */
enum table_err table_add_ai(table *t, uint64_t player, int seat, int *seat_out,
			    enum table_notify notify);
enum table_err table_remove_ai(table *t, uint64_t player, int seat);

/* Host only, WAITING: seats still empty get an AI (a table's seat count is
 * fixed at creation; the host starting says "fill them"); seeds the
 * game (the fixed seed or getrandom, never the clock), creates it, sends
 * "start", and posts the first decision — once host.start has made its
 * start durable (until then a second start is refused with wrong_phase). */
enum table_err table_start(table *t, uint64_t player);

/* The app persisted (ok) or failed to persist the start of game number
 * `game` (see table_host.start). A stale or repeated call is ignored. */
void table_start_durable(table *t, uint64_t game, bool ok);

/* Host only, FINISHED: back to WAITING with the same seats. */
enum table_err table_rematch(table *t, uint64_t player);

/* The player's connection dropped (false) or came back (true). A dropped
 * player's seat waits for its deadline, then the AI chooses and keeps
 * choosing at once ("away") until the player is back or chooses. */
void table_set_connected(table *t, uint64_t player, bool connected);

/* --- the round -------------------------------------------------------------- */

/* A choice for `seat` (-1: the player's own seat). decision: the number from
 * the options message, 0 = the current one. The kind parses and checks the
 * choice (err gets its message). Choosing for an AI seat that no human holds
 * takes it over (the player must be at the table and hold no other seat).
 * Inside the window a new choice replaces the old one; the window does not
 * restart. */
enum table_err table_choose(table *t, uint64_t player, int seat, uint64_t decision,
			    const cJSON *choice, char *err, size_t errlen);
/* The same with a kind choice code (tests, bots in C); checked against the
 * kind's options. */
enum table_err table_choose_code(table *t, uint64_t player, int seat, uint64_t decision,
				 game_choice c, char *err, size_t errlen);

/* The player has its option menu open: status "selecting" (if still
 * waiting; a seat that has chosen stays "chosen"). */
enum table_err table_selecting(table *t, uint64_t player);

/* The app persisted decision n (see table_host.decision): apply it, send
 * its reveal and go on. A stale n is ignored. */
void table_decision_durable(table *t, uint64_t n);

/* The app persisted the record of game number `game` (see table_host.record):
 * send the result, go FINISHED, call finished(). A stale or repeated call
 * (another game, not waiting for its record) is ignored. */
void table_finished_durable(table *t, uint64_t game);

/* The store refused what the table waits for (a decision or a game's
 * record) and the app retries it: the table is paused; everyone at it gets
 * `paused` (once per pause) and snapshots say so, until the write is
 * durable: then `resumed` goes out just before the reveal or the result.
 * Ignored unless the table waits for one of those. */
void table_store_failed(table *t);

/* --- views and resume ------------------------------------------------------- */

/* The full snapshot for this player (its seat's view, or the spectator
 * view): type "table", see proto/table.md. Players not at the table get the
 * spectator view. */
cJSON *table_snapshot_json(const table *t, uint64_t player);

/* Sends the player the updates after `since` for its viewer class, in
 * order, or a snapshot when those are no longer held (or since is 0 or
 * in the future). Sends nothing when it is up to date. Returns TABLE_OK or
 * TABLE_ERR_NOT_SEATED; *snapshot (may be NULL) says which it sent. */
enum table_err table_resume(table *t, uint64_t player, uint64_t since, bool *snapshot);

/* The lobby list entry (proto/PROTOCOL.md §5 "table summary"). */
cJSON *table_summary_json(const table *t);

/* --- accessors -------------------------------------------------------------- */

uint64_t table_id(const table *t);
const table_settings *table_get_settings(const table *t); /* config is NULL here */
enum table_state table_get_state(const table *t);
uint64_t table_seq(const table *t);       /* last update's seq */
uint64_t table_decision_no(const table *t); /* current/last decision number */
uint64_t table_host_player(const table *t);
int table_seat_of(const table *t, uint64_t player); /* -1: not seated */
bool table_is_spectator(const table *t, uint64_t player);
bool table_has_member(const table *t, uint64_t player); /* seated or watching */
enum table_seat_kind table_seat_kind_of(const table *t, int seat);
uint64_t table_seat_player(const table *t, int seat); /* 0 unless human */
const char *table_seat_name(const table *t, int seat); /* "" unless human */
int table_humans(const table *t);     /* seated humans */
int table_spectators(const table *t);
/* Every member (seated humans, then spectators) into out[max]; returns the
 * total count. */
int table_members(const table *t, uint64_t *out, int max);
uint32_t table_ai_mask(const table *t); /* seats of kind AI now */

/* The game of the current or last game (NULL before the first start). */
const game_state *table_game(const table *t);
uint64_t table_seed(const table *t);
/* The choice log of the current or last game: n sets of `seats` choices,
 * flat (set i is log[i*seats .. i*seats+seats-1]). */
const game_choice *table_log(const table *t, size_t *n);

/* The game record: {kind, config (full), seats, seed (decimal string),
 * shared (the snapshot the game was created with, or null), players: [{seat,
 * player|null, name|null, ai}], log: [[c, ...], ...] (codes, -1 = not asked),
 * decisions, result (result_json, once over, else null), ai_mask}. */
cJSON *table_record_json(const table *t);

/* --- replay and crash recovery (pure where it can be) ------------------------ */

/* Re-creates a game from a record's parts: (kind, config JSON, seats, seed,
 * shared snapshot JSON or NULL) and applies n choice sets. Returns the
 * state (kind->destroy it) or NULL with a message when a set does not
 * apply. evs (may be NULL) receives every event. Uses no table, no loop. */
game_state *table_replay(const game_kind *kind, const cJSON *config, int seats, uint64_t seed,
			 const cJSON *shared, const game_choice *log, size_t n, game_events *evs,
			 char *err, size_t errlen);

/* Parses a record's log (array of arrays of `seats` integers) into a new
 * flat array (free()); -1 with a message when malformed. */
int table_log_parse(const cJSON *log, int seats, game_choice **out, size_t *n, char *err,
		    size_t errlen);

/* What table_restore needs besides the settings. */
typedef struct table_restore_info {
	uint64_t seed;
	const cJSON *shared;        /* the snapshot from the record, or NULL */
	const game_choice *log;     /* decisions already resolved (durable) */
	size_t n;
	uint64_t seq;               /* a seq at least as high as any sent before
				     * the crash: updates continue above it */
	enum table_seat_kind seat_kind[GAME_MAX_SEATS];
	uint64_t seat_player[GAME_MAX_SEATS];
	const char *seat_name[GAME_MAX_SEATS];
} table_restore_info;

/* Rebuilds a table in play after a crash: replays the logged decisions
 * (host->events with replaying = true), marks its humans disconnected, and
 * posts the pending decision afresh with a new deadline. Nothing is sent
 * for the replayed part; players get a snapshot when they resume. When the
 * log ends the game (its record was never committed), the table stays
 * PLAYING and ends on a later loop turn (after the pacing), after this
 * returns: host.record is asked for the record then, like any game's end.
 * The open decision is posted before this returns: when only AI seats are
 * pending it resolves at once, so host.decision is called from inside
 * table_restore (persist it by table id; the table is not yet the caller's). */
table *table_restore(uv_loop_t *loop, const table_host *host, const table_settings *s,
		     const table_restore_info *info, char *err, size_t errlen);

#endif
