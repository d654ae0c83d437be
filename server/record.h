/*
 * record.h — the stored form of a finished game: everything
 * store_game_finish needs, built from a finished table — the record (kind,
 * full config, seed, seats, the shared state the game began from, the
 * choice log, the result), each seat's statistics and achievements, the
 * whole game's statistics and what it adds to the kind's shared state. The app writes
 * it; the replay test reads it back and replays it through the kind.
 *
 * Memory: record_build allocates every string and array in the record;
 * record_free releases them. r->g points into r and is valid until then.
 */
#ifndef LAIR_RECORD_H
#define LAIR_RECORD_H

#include "store.h"
#include "table.h"

typedef struct record {
	store_game g;
	store_seat seats[GAME_MAX_SEATS];
	char *config, *players, *shared, *log, *result;
	int64_t *vals, *delta;
} record;

/* t's game must be over. shared_delta: what the game adds to the kind's
 * shared values (kind->n_shared, copied; NULL: none). live_table_id > 0
 * ends that live table in the same transaction. */
void record_build(record *r, const table *t, const int64_t *shared_delta, int64_t started_at,
		  int64_t ended_at, int64_t live_table_id);
void record_free(record *r);

#endif
