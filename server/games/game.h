/*
 * game.h — the contract every game kind keeps (docs/ARCHITECTURE.md, "Adding a game kind").
 *
 * A game kind is a pure, deterministic library: no sockets, timers, SQL,
 * globals or wall clock. A state is created from (config, seat count, seed,
 * the kind's server-wide "shared" state); it says which seats must choose
 * now and what each may choose; it applies one complete set of simultaneous
 * choices and emits events as compact structs; it says when it is over and
 * what the result is; it renders a per-seat view as JSON, hiding what that
 * seat may not see; and its AI picks a legal option for any seat.
 *
 * (kind, config, seed, shared snapshot, sequence of choice sets) reproduces
 * a game exactly: that is the game record, the replay and the crash log.
 *
 * Ownership: every pointer a function returns is owned by the caller
 * (cJSON trees: cJSON_Delete; states: kind->destroy) unless noted. Const
 * inputs are borrowed for the duration of the call only.
 *
 * Randomness: all of it comes from the state's own rng streams, seeded from
 * `seed`: the rules from one stream, the AI from another, so calling the AI
 * (or not, when a human chooses) never changes what the dungeon holds. Each
 * AI decision draws from a generator derived from (seed, decision, seat), so
 * a state rebuilt by replaying the choice log (crash recovery) has its AI
 * choose exactly as the original would have.
 */
#ifndef LAIR_GAME_H
#define LAIR_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

#define GAME_MAX_SEATS 9

/* A seat's choice for one decision: a kind-defined code >= 0. Codes are
 * stable for a given build; choice logs store them. */
typedef int32_t game_choice;
#define GAME_NO_CHOICE (-1)

/* An event: compact so that the simulator can run millions of games. `type`
 * and the meaning of a, b, c are kind-defined (see the kind's header);
 * seat is -1 for table-wide events. */
typedef struct game_event {
	uint16_t type;
	int16_t seat;
	int32_t a, b, c;
} game_event;

/* A reusable event buffer owned by the caller. */
typedef struct game_events {
	game_event *v;
	size_t len, cap;
} game_events;

void game_events_push(game_events *evs, uint16_t type, int seat, int32_t a, int32_t b,
		      int32_t c);
/* Pushes an event unless evs is NULL (the simulator's fast path, which
 * plays without keeping events). */
static inline void game_emit(game_events *evs, uint16_t type, int seat, int32_t a, int32_t b,
			     int32_t c)
{
	if (evs)
		game_events_push(evs, type, seat, a, b, c);
}
void game_events_clear(game_events *evs);
void game_events_free(game_events *evs);

/* How a statistic adds up across games (server-wide and per player). */
typedef enum game_stat_agg {
	GAME_STAT_SUM,
	GAME_STAT_MIN,
	GAME_STAT_MAX,
} game_stat_agg;

typedef struct game_stat_def {
	const char *key;   /* stable snake_case id, e.g. "gems_looted" */
	const char *label; /* the seed's wording, e.g. "Gems Looted" */
	game_stat_agg agg;
} game_stat_def;

/* A statistic value that does not apply (e.g. a MIN with no sample). */
#define GAME_STAT_NONE INT64_MIN

/* A MAX statistic after one more sample v (GAME_STAT_NONE: none yet). */
static inline int64_t game_stat_max(int64_t have, int64_t v)
{
	return have == GAME_STAT_NONE || v > have ? v : have;
}

typedef struct game_achievement_def {
	const char *key;   /* "highest_score" */
	const char *label; /* "Highest Score" */
} game_achievement_def;

/* Error codes a kind returns; the server maps them to protocol codes. */
enum game_err {
	GAME_OK = 0,
	GAME_ERR_CONFIG = 1,    /* config rejected */
	GAME_ERR_NOT_PENDING,   /* a choice for a seat that is not asked now */
	GAME_ERR_MISSING,       /* a pending seat has no choice */
	GAME_ERR_ILLEGAL,       /* a choice that is not legal now */
	GAME_ERR_MALFORMED,     /* a choice that does not parse */
	GAME_ERR_OVER,          /* the game has ended */
};

/* The first check of a set of choices every kind's apply makes, seat by
 * seat: a seat that is not pending has no choice (GAME_ERR_NOT_PENDING), a
 * pending one has one (GAME_ERR_MISSING), each with its message in err.
 * GAME_OK when choice is as it should be; the kind then checks a pending
 * seat's choice is legal. */
int game_choice_expected(uint32_t pending, int seat, game_choice choice, char *err,
			 size_t errlen);

/* Whether `seat` (any int, a client's included) is one of `seats` and is
 * asked to choose now. */
bool game_seat_asked(uint32_t pending, int seats, int seat);

typedef struct game_state game_state; /* opaque: each kind defines its own */

typedef struct game_kind {
	const char *name; /* "gems", "deepfall" */
	int min_seats, max_seats;

	/* Validates a JSON config (NULL: all defaults) and returns the kind's
	 * parsed form, or NULL with a message. */
	void *(*config_new)(const cJSON *json, char *err, size_t errlen);
	void (*config_free)(void *config);
	/* The full config with defaults filled in (for records and views). */
	cJSON *(*config_json)(const void *config);

	/* Server-wide state the kind keeps across games (gems: adventure-use
	 * counts and records). The server loads it as JSON (NULL: fresh),
	 * passes it to create(), folds every emitted event into it with
	 * shared_fold(), and persists shared_json(). May be NULL for kinds
	 * without shared state. */
	void *(*shared_new)(const cJSON *saved, char *err, size_t errlen);
	void (*shared_free)(void *shared);
	cJSON *(*shared_json)(const void *shared);
	void (*shared_fold)(void *shared, const game_event *evs, size_t n);
	/* The shared state as values the store merges, game by game
	 * (server/shared.h): each a whole number >= 0 of
	 * shared_json()'s object, named by its path ("runs",
	 * "adventure_uses.banker"), with its aggregation (SUM adds, MIN keeps
	 * the least, MAX the greatest). A game's contribution is a fresh
	 * state (shared_new(NULL)) folded with its events; shared_new must
	 * read the merge of contributions, written back as that JSON, as the
	 * state that folded every game's events in turn. */
	const game_stat_def *shared_defs;
	int n_shared;

	/* Creates a game and runs it to its first decision point, emitting
	 * events into `out`. `shared` is read, never written. NULL on error. */
	game_state *(*create)(const void *config, int seats, uint64_t seed, const void *shared,
			      game_events *out, char *err, size_t errlen);
	void (*destroy)(game_state *st);

	/* Bit i set: seat i must choose now. 0 when the game is over. */
	uint32_t (*pending)(const game_state *st);
	bool (*is_over)(const game_state *st);

	/* Legal choices of a pending seat into out (at most max); returns the
	 * total number of legal choices (may exceed max). */
	int (*options)(const game_state *st, int seat, game_choice *out, int max);
	/* The options as JSON for the client: an array the protocol documents
	 * per kind. */
	cJSON *(*options_json)(const game_state *st, int seat);
	/* Parses a client's choice; GAME_OK and *out on success, else an error
	 * code and message. Legality for this seat now is checked here too. */
	int (*choice_parse)(const game_state *st, int seat, const cJSON *json, game_choice *out,
			    char *err, size_t errlen);
	/* A choice as JSON (for reveals, logs and clients). */
	cJSON *(*choice_json)(const game_state *st, int seat, game_choice c);

	/* Applies one complete set of simultaneous choices: choices[seat] for
	 * every pending seat, GAME_NO_CHOICE for the others. Validates all of
	 * them first: on any error nothing changes and the code is returned
	 * with a message. On success the game runs to its next decision point
	 * (or its end), emitting events into out. */
	int (*apply)(game_state *st, const game_choice *choices, game_events *out, char *err,
		     size_t errlen);

	/* The AI's choice for a pending seat: a function of the state, the seat
	 * and (seed, decision, seat) — see Randomness above. */
	game_choice (*ai_choose)(game_state *st, int seat);

	/* What `viewer` (a seat, or -1 for a spectator) may see, as JSON. */
	cJSON *(*view)(const game_state *st, int viewer);
	/* The view of an over game carries `result` (the table puts its own
	 * there): a seat that asked for `lean` has it from the last view it
	 * was sent, so its `result` update leaves it out (proto/table.md §5.7). */
	bool over_view_has_result;
	/* One event as `viewer` may see it, or NULL when it must not see it. */
	cJSON *(*event_json)(const game_state *st, const game_event *ev, int viewer);
	/* Whether an event only restates a seat's choice that the reveal's
	 * `choices` already says (gems `choice`): a seat whose player asked
	 * for `lean` is not sent it (proto/table.md §5.6). NULL: none does. */
	bool (*restates_choice)(const game_event *ev);

	/* Result, once over. Scores per seat; winners as a seat mask. */
	void (*result)(const game_state *st, int64_t *scores, uint32_t *winners);
	/* The result as JSON for clients and records (scores, winners, the
	 * per-game summary). ai_mask: seats under AI control at the end. */
	cJSON *(*result_json)(const game_state *st, uint32_t ai_mask);

	/* Statistics and achievements, once over. */
	const game_stat_def *stat_defs;
	int n_stats;
	/* values[n_stats] for one seat, or for the whole game with seat -1;
	 * GAME_STAT_NONE where a statistic does not apply. */
	void (*stats)(const game_state *st, int seat, uint32_t ai_mask, int64_t *values);
	const game_achievement_def *achievement_defs;
	int n_achievements;
	/* Bit i set: the seat earned achievement_defs[i] in this game. */
	uint32_t (*achievements)(const game_state *st, int seat, uint32_t ai_mask);
} game_kind;

/* The registry of kinds built into this program. */
const game_kind *game_kind_find(const char *name);
int game_kind_count(void);
const game_kind *game_kind_at(int i);

#endif
