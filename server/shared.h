/*
 * shared.h — each game kind's server-wide shared state (game.h:
 * shared_new ... shared_defs; gems keeps its adventure-use counts and
 * records there) in this laird's memory.
 *
 * The store keeps the state as values (the kind's shared_defs) that every
 * finished game's record merges, in its transaction, with each value's
 * aggregation (store.h); that is the *base*. Each game in play here keeps
 * its own contribution so far (its *delta*: a fresh state folded with its
 * events), which its record merges when it ends, and which a restore or a
 * takeover rebuilds from its decision log. What a new game starts from,
 * and what `records` shows, is the *view*: the base merged with the
 * deltas of this node's games in play. So a game's events count from the
 * moment its start and each decision are durable, once, on any node; a
 * game that ends without a record (closed, abandoned) leaves nothing.
 *
 * The base follows the store: after each of this node's records (the
 * values read in its transaction), and in cluster mode after every other
 * node's (cluster_shared.c: the values each record read, over the bus;
 * and read again from the store whenever the bus comes up). Values only
 * grow (SUM of counts >= 0, MAX) or shrink (MIN) from record to record,
 * so the base keeps, key by key, the furthest it has seen: the order in
 * which reads arrive does not matter.
 */
#ifndef LAIR_SHARED_H
#define LAIR_SHARED_H

#include "app_int.h"

/* Builds every kind's view from what the store loaded (app_new). */
void shared_load(app *a);
/* Kind k's view, borrowed (NULL: the kind has none). */
const void *shared_state(const app *a, const game_kind *k);
/* Folds events of at's current game (NULL: a table not registered, the
 * view only) into its delta and into its kind's view. */
void shared_fold(app *a, int kind_index, app_table *at, const game_event *evs, size_t n);
/* At's delta as the store's values (kind->n_shared; GAME_STAT_NONE where
 * none): owned by the caller, NULL when the kind has no shared values. */
int64_t *shared_delta_values(const app *a, const app_table *at);
/* At's game left play: recorded (its delta is in the store's rows[n], the
 * kind's values after the record) or not (rows NULL: the delta goes). */
void shared_game_done(app *a, app_table *at, const store_stat *rows, size_t n);
/* Values read from the store (each row names its kind): merged into the
 * bases. */
void shared_base_merge(app *a, const store_stat *rows, size_t n);
/* At's delta goes with it (the table is freed). */
void shared_table_free(app_table *at);
/* Frees every kind's state (app_free). */
void shared_free(app *a);

#endif
