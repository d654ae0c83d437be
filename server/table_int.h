/*
 * table_int.h — the table's private parts, shared by table.c (seats,
 * spectators, life, snapshots), table_msg.c (sequence numbers, history,
 * sending), table_render.c (what each viewer is sent), table_round.c (the
 * round engine), table_clock.c (its timers)
 * and table_replay.c (records, replay, crash recovery). Nothing outside
 * server/table*.c includes it.
 */
#ifndef LAIR_TABLE_INT_H
#define LAIR_TABLE_INT_H

#include "table.h"

/* Where the current decision is. */
enum table_phase {
	PH_NONE,     /* not playing */
	PH_STARTING, /* state still WAITING: the game is created, its start
		      * waits for the host to make it durable (nothing sent) */
	PH_CHOOSING, /* options posted, waiting for pending seats */
	PH_WINDOW,   /* everyone has chosen: the change-your-mind window runs */
	PH_COMMIT,   /* resolved: waiting for the host to make it durable */
	PH_BETWEEN,  /* revealed: pausing before the next options */
	PH_RECORD,   /* over: waiting for the host to make the record durable
		      * (state still PLAYING; the result is not sent yet) */
};

struct table_seat {
	enum table_seat_kind kind;
	uint64_t player; /* human only */
	char name[TABLE_PLAYER_NAME_MAX];
	bool connected;  /* human only */
	bool away;       /* human, dropped past a deadline: the AI plays at once */
	enum table_status status;
	game_choice choice; /* the current decision's choice, GAME_NO_CHOICE */
	bool by_ai;         /* that choice came from the AI */
};

/* One update as each viewer class sees it: `all` for spectators (and any
 * seat without its own), seat[i] when seat i sees something else. */
struct table_hist {
	uint64_t seq;
	char *all;                  /* these point into block (or are NULL) */
	char *seat[GAME_MAX_SEATS];
	char *block;                /* one exact-size allocation: less slack
				     * and fragmentation over thousands of tables */
	size_t bytes;
};

struct table {
	struct table_clock *clock; /* the loop's timers (table_clock.c); NULL
				    * without a loop: time moves by table_advance */
	uint64_t now;              /* without a loop: the time table_advance set */
	table_host host;
	table_settings s; /* s.config is NULL: see config/config_full */
	void *config;     /* the kind's parsed config */
	cJSON *config_full;
	enum table_state state;
	struct table_seat seats[GAME_MAX_SEATS];
	struct table_spec {
		uint64_t player;
		char name[TABLE_PLAYER_NAME_MAX];
	} *spec; /* spectators, in arrival order */
	int n_spec, cap_spec;
	uint64_t seq;
	bool status_dirty; /* a seat's status changed; its `status` update goes
			    * at the end of the loop's iteration (or before the
			    * next update): round_flush_status */

	/* the current or last game */
	uint64_t games;        /* games started here (the current one's number) */
	game_state *game;
	uint64_t seed;
	cJSON *shared_snap;    /* the shared state it was created with, or NULL */
	game_choice *log;      /* n_log sets of s.seats */
	size_t n_log, cap_log;
	game_events evs;
	cJSON *result;         /* result_json once over */
	uint32_t end_ai_mask;
	bool aborted;          /* the kind refused a resolved set (a bug) */
	uint32_t start_filled; /* PH_STARTING, inside host.start: the seats
				* table_start filled with an AI */
	bool store_paused;     /* PH_COMMIT or PH_RECORD: the store refused the
				* write, the host retries (table_store_failed) */

	/* the round */
	enum table_phase phase;
	uint64_t decision;     /* number of the current/last decision */
	uint32_t pending;
	uint64_t deadline_at;  /* loop ms; 0 = none */
	uint64_t window_at;    /* PH_WINDOW: when it closes */
	uint64_t step_at;      /* PH_BETWEEN: when the next step is due (at or
				* before the time it was set: the loop's next turn) */
	uint64_t t_close_us;   /* CLOCK_MONOTONIC µs when the last window closed */
	game_choice commit[GAME_MAX_SEATS]; /* the resolved set awaiting durability */
	uint32_t commit_ai;    /* its seats whose choice came from the AI */

	/* history ring for resume */
	struct table_hist *hist;
	int h_first, h_len, h_cap;
	size_t h_bytes;
	uint64_t resume_floor; /* restored: a resume from at or below gets a snapshot */
};

/* table_msg.c */
/* A fresh update object {type, table}; emit() adds seq. */
cJSON *update_new(const table *t, const char *type);
/* Sends one update: `all` to spectators and to seats whose per_seat[i] is
 * NULL, per_seat[i] to seat i's human; stores it for resume. Takes
 * ownership of every object (all and per_seat may be NULL: a class with
 * no rendering is not held, and its resume gets a snapshot). */
void update_emit(table *t, cJSON *all, cJSON **per_seat);
/* The same from text, written without a tree where it is hot (the round's
 * updates): r[0] the spectators' rendering (and any seat's without its
 * own), r[1 + i] seat i's; each an object's fields without its closing
 * brace, as update_head() begins it (emit adds "seq" and closes it); an
 * empty buf: no rendering. Frees the buffers. */
typedef struct update_text {
	buf r[GAME_MAX_SEATS + 1];
	/* p[i], when not empty: what seat i's player is sent instead of
	 * r[1 + i] (an update as its caps ask: view_patch, lean); r[1 + i] is
	 * still what resume sends, so a replay never depends on the
	 * connection's caps. */
	buf p[GAME_MAX_SEATS];
} update_text;
void update_emit_text(table *t, update_text *u);
void update_text_free(update_text *u);
/* The PROTO_CAP_* bits seat `seat`'s player asked for (host.caps; 0 for
 * a seat without a human). */
uint32_t update_seat_caps(const table *t, int seat);
/* An update's text begun: {"type":type,"table":id */
void update_head(buf *b, const table *t, const char *type);
/* True when anyone at all would receive an update (else builders may skip
 * the work; update_skip() keeps seq and history consistent). */
bool update_has_audience(const table *t);
void update_skip(table *t);
void update_history_free(table *t);
void table_send_json(table *t, uint64_t player, cJSON *msg); /* takes msg */
cJSON *table_seats_json(const table *t);
cJSON *table_status_json(const table *t);
cJSON *table_pending_json(uint32_t pending, int seats);
/* The kind's view for `viewer`; once the game is over, a `result` the view
 * carries is the table's result (the one the `result` message sends). */
cJSON *table_view_json(const table *t, int viewer);
/* The "seats" update: state, host, seats, spectators; not sent to the
 * player `quiet` (0: sent to everyone), see enum table_notify. */
void update_emit_seats(table *t, uint64_t quiet);

/* table_render.c: each viewer's text of the round's updates, emitted. */
void render_emit_start(table *t);
void render_emit_options(table *t);
void render_emit_window(table *t);
void render_emit_result(table *t);
/* A seat's status changed: a `status` update before the loop waits again
 * (or before the next update; at once without a loop). */
void render_status_changed(table *t);
/* The `status` update the seats' changes since the last one are waiting
 * for (status_dirty), now; nothing when none is. */
void round_flush_status(table *t);
/* What a reveal needs from before the set is applied: the choices' text,
 * each seat's caps (read once) and, for each seat whose player takes
 * view_patch, its view then. */
typedef struct reveal_prep {
	buf choices, choices_lean; /* lean: `ai` only when true */
	uint32_t caps[GAME_MAX_SEATS];
	cJSON *before[GAME_MAX_SEATS];
} reveal_prep;
void render_reveal_prepare(table *t, reveal_prep *r);
/* The reveal to every viewer (the set applied); frees r. */
void render_emit_reveal(table *t, reveal_prep *r);
void render_reveal_free(table *t, reveal_prep *r);

/* table_round.c: the round engine. It keeps no timers: it reads the time
 * (table_clock_now), says when it must run next (round_wake) and runs what
 * is due when told (round_advance). */
enum round_wake {
	WAKE_NONE,  /* nothing timed: a player, the host or the store moves it */
	WAKE_TIMER, /* a deadline, or the window closing, at *at */
	WAKE_STEP,  /* the step to the next decision (or the end), at *at; at
		     * or before the time it was set: on the loop's next turn */
};
enum round_wake round_wake(const table *t, uint64_t *at);
/* Runs what is due at table_clock_now(t): one thing at most (a deadline,
 * the window closing, or one step), however late. */
void round_advance(table *t);
/* After the game is created (or restored): post the first decision, or
 * finish when it is over already. */
void round_begin(table *t);
/* table_start's game begins: state playing, seats, events, start, first
 * options (the start is durable, or there is no host.start). */
void round_started(table *t);
/* {reason, message} of a pause for the store (snapshots), or NULL. */
cJSON *round_paused_json(const table *t);
void round_post_decision(table *t);
/* After a reveal: the next decision after a pause (the reveal pause or the
 * pacing), or the end when the game is over. */
void round_schedule_next(table *t);
void round_log_append(table *t, const game_choice *set);
/* A seat went to the AI, or came back (mid-decision). */
void round_seat_to_ai(table *t, int seat);
int64_t round_ms_left(const table *t, uint64_t at);

/* table_clock.c: the round's time on a libuv loop — one timer and one idle
 * handle per table, owned here, and the pacer. */
/* loop NULL: no timers (t->clock stays NULL). */
void table_clock_init(table *t, uv_loop_t *loop);
/* Stops and closes the handles (their memory goes once libuv has closed
 * them); gives up a turn asked of the pacer. */
void table_clock_free(table *t);
/* The time now, in loop ms: the loop's, or t->now without one. */
uint64_t table_clock_now(const table *t);
/* Arms the timer (or the idle handle, or a pacer turn) for round_wake, or
 * stops it: after anything that may have moved the round. */
void table_clock_sync(table *t);
/* round_flush_status before the loop waits again (a prepare handle). */
void table_clock_flush_soon(table *t);

/* table.c */
void table_notify_changed(table *t);
/* Every empty seat gets an AI; returns the seats filled (bit i: seat i). */
uint32_t table_fill_empty(table *t);
/* Seats of `mask` that are still AI go back to empty. */
void table_unfill(table *t, uint32_t mask);
/* Seat `seat` goes to the spectator `player` (takeover by choosing). */
void table_take_over(table *t, uint64_t player, int seat);

#endif
