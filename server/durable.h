/*
 * durable.h — nothing is shown that a crash could lose. A table hands the
 * app each resolved decision before its reveal (table_host.decision) and
 * each finished game before its result (table_host.record); the app writes
 * it to the store and only then lets the table go on
 * (table_decision_durable, table_finished_durable). A write the store
 * refuses pauses the table (table_store_failed: everyone at it is told)
 * and is tried again with a growing backoff until it is durable; the
 * table resumes then, where it stopped.
 *
 * A game's record is one transaction: the record, each seat's statistics
 * and achievements, the kind's new shared state (without the game's fold
 * mark, shared.h) and the end of its live record (live.h).
 */
#ifndef LAIR_DURABLE_H
#define LAIR_DURABLE_H

#include "app_int.h"

/* Decision n of table t resolved with choices[0..seats-1]: written, then
 * revealed. at may be NULL (a restored table not registered yet: the
 * reveal waits for the store's answer, by when it is). */
void durable_decision(app *a, app_table *at, table *t, uint64_t n, const game_choice *choices,
		      int seats);
/* Game number `game` of at is over: its record written, then its result
 * sent. */
void durable_record(app *a, app_table *at, uint64_t game);
/* The table goes: a write waiting for its next try is forgotten (one in
 * the store's hands finds no table when it completes). */
void durable_forget(app_table *at);

#endif
