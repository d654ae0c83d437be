/*
 * tview.h — lair's model of one table as the server shows it to us: the
 * snapshot, then every table update (proto/table.md) folded in order by
 * seq. It keeps what the screen needs: seats and their status, the kind's
 * view of the game, our options with their deadline, the change-your-mind
 * window, the last reveal, a log of event lines, and the result.
 *
 * Pure (no I/O): times are passed in as local milliseconds, so the unit
 * tests drive it with fixed clocks. All cJSON members are owned by the
 * model and replaced as updates arrive.
 */
#ifndef LAIR_TVIEW_H
#define LAIR_TVIEW_H

#include <stdint.h>

#include <cJSON.h>

#define TV_MAX_SEATS 9
#define TV_LOG 64
#define TV_LOG_W 78
/* Ids and seqs the model accepts (exact in a double). */
#define TV_ID_MAX (1LL << 53)

/* What tv_apply found. */
enum {
	TV_CHANGED = 1,  /* redraw */
	TV_GAP = 2,      /* a seq is missing: the message was not folded; ask
			  * table_sync since tv->seq (it resends it) */
	TV_OPTIONS = 4,  /* new options for us */
	TV_RESULT = 8,   /* the game ended */
	TV_CLOSED = 16,  /* the table is gone */
	TV_MONTE = 32,   /* a Monte shuffle to animate (tv->monte_*) */
	TV_REVEAL = 64,  /* a reveal arrived */
};

struct tv {
	int64_t table, seq;
	int seat; /* ours; -1 when watching */
	char kind[24], state[16], name[48];
	int n_seats;
	cJSON *seats;   /* array of seat objects {seat, kind, name, status, ...} */
	char status[TV_MAX_SEATS][12];
	cJSON *view;    /* the kind's view for us */
	cJSON *options; /* array of options, NULL when we have none now */
	int64_t decision;
	uint64_t deadline_at; /* local ms, 0: none */
	uint64_t window_at;   /* local ms the window closes, 0: none */
	int chosen;           /* index into options of our current choice, -1 */
	cJSON *reveal;        /* the last reveal message */
	cJSON *result;        /* the result message once over */
	int closed;
	char log[TV_LOG][TV_LOG_W + 1];
	int log_len; /* lines in use (the newest last) */
	/* Monte (G17): the shuffle as swaps of positions (0-2), for animation. */
	int monte_n;
	int monte_swaps[16][2];
	int monte_cards[3]; /* card values face up before the shuffle */
};

/* Renders one kind event (JSON) as a line for the log; returns 0 when the
 * event has nothing to say. Set by the kind's view (view_gems.c). */
typedef int (*tv_event_fn)(const cJSON *ev, const struct tv *tv, char *out, size_t out_len);

void tv_init(struct tv *tv);
void tv_free(struct tv *tv);

/* Folds one table message (snapshot or update, any type) in. now: local ms.
 * Returns the TV_* flags. Messages for another table are ignored. */
int tv_apply(struct tv *tv, const cJSON *msg, uint64_t now, tv_event_fn ev_fn);

/* Adds a line to the log (truncated to TV_LOG_W). */
void tv_log(struct tv *tv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The key of option i ("leave", "stay", ...): a string option, or the
 * "choice"/"key" member of an object option; NULL if none. */
const char *tv_option_key(const struct tv *tv, int i);
/* Its label for humans (the option's "label" when given, else the key). */
const char *tv_option_label(const struct tv *tv, int i);
/* The option's JSON to send back as `choice` (borrowed). */
const cJSON *tv_option_choice(const struct tv *tv, int i);
int tv_n_options(const struct tv *tv);

/* Seat i's display name: the player's name, "AI", or "(free)". */
const char *tv_seat_name(const struct tv *tv, int i, char *tmp, size_t tmp_len);
/* 1 when seat i is an AI seat. */
int tv_seat_is_ai(const struct tv *tv, int i);

#endif
