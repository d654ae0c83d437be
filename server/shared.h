/*
 * shared.h — each game kind's server-wide shared state (game.h:
 * shared_new ... shared_fold; gems keeps its records there): loaded from
 * the store at start, folded with the events every game emits, and saved
 * when it changes (at most once per SHARED_SAVE_MS, however many tables
 * fold into it).
 *
 * And its fold marks: for each game in play, how many of its decisions
 * the state holds, saved with the state in the same row
 * ({"app_v": 1, "state": ..., "folded": {"<table>:<started_at>": n}}).
 * A crash loses the state's last changes; at restore, each game's mark
 * says which of its decisions to fold again (recovery.c), so none is
 * folded twice and none is lost. This file is the only one that reads or
 * writes a mark.
 */
#ifndef LAIR_SHARED_H
#define LAIR_SHARED_H

#include "app_int.h"

/* A change is saved at once unless another was saved less than this ago
 * (then at the end of that interval). */
#define SHARED_SAVE_MS 100

/* Reads every kind's saved state and marks (app_new). A saved state this
 * build cannot read is logged and replaced by a fresh one. */
void shared_load(app *a);
/* Kind i's state, borrowed (NULL: the kind has none). */
const void *shared_state(const app *a, const game_kind *k);
/* Folds events of game (table_no, started_at) into kind i's state, marks
 * the game's first `applied` decisions (0: its creation) as folded
 * (table_no 0: no mark) and saves soon. */
void shared_fold(app *a, int i, const game_event *evs, size_t n, uint64_t table_no,
		 int64_t started_at, size_t applied);
/* Saves kind i's state if it differs from the text last saved. */
void shared_save_if_changed(app *a, int i);
/* Kind i changed: saved within SHARED_SAVE_MS. */
void shared_dirty(app *a, int i);
/* The text a finished game's record saves as its kind's new state: the
 * state now, without that game's mark (caller frees; NULL: no state). The
 * mark stays in memory until the record is durable (fold_mark_drop). */
char *shared_text_for_record(app *a, const app_table *at);

/* The mark of game (table_no, started_at) of kind i: false when it has
 * none (not even its creation is folded). */
bool fold_mark_get(const app *a, int i, uint64_t table_no, int64_t started_at, size_t *n);
/* The game left play (finished and recorded, or abandoned). */
void fold_mark_drop(app *a, const app_table *at);
/* After restore: the marks of games not in play (kept aside, or gone
 * with an older run) go. */
void fold_marks_prune(app *a);

#endif
