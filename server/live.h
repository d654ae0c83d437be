/*
 * live.h — the live record of a table in play: what a restart needs to
 * rebuild it (store_live_start: kind, config, seed, seats, the shared
 * state its game began from, the table's settings as `meta`), kept up to
 * date while the game runs (who sits where, the update seq) and ended
 * when the game leaves play. Its decisions are appended by durable.c; the
 * rebuilding is recovery.c.
 *
 * The start record is written before the game begins: the table shows
 * nothing of a game until its record is durable (table_host.start).
 */
#ifndef LAIR_LIVE_H
#define LAIR_LIVE_H

#include "app_int.h"

/* A restored table continues LIVE_SEQ_JUMP above the last update seq its
 * live record holds; the record is brought up to date at least every
 * LIVE_SEQ_SAVE_EVERY updates (with each decision, each seat change, and
 * after requests that send updates without either), so a restored seq is
 * above every seq sent before the crash, across rematches too. */
#define LIVE_SEQ_SAVE_EVERY 500
#define LIVE_SEQ_JUMP 1000

/* Game number `game` of at is about to begin: writes its start record
 * and calls table_start_durable once it is written (at once without a
 * store). A live record left by the table's last game is ended first. */
void live_start(app *a, app_table *at, uint64_t game);
/* The seats changed: the record follows when a different human (or the
 * AI) now holds a seat mid-game, so that a restart seats the right people;
 * else the seq is checkpointed. */
void live_seats_changed(app *a, app_table *at);
/* Saves the table's update seq when it has moved LIVE_SEQ_SAVE_EVERY past
 * the saved one. */
void live_seq_checkpoint(app *a, app_table *at);
/* The table goes: its live record (even one still being written) ends
 * and its game's fold mark goes. */
void live_end(app *a, app_table *at);
/* A table rebuilt from its live record (recovery.c) owns it again: its
 * seats and seq as they are now are saved at once (a second crash before
 * any write continues above this run's seqs); meta (may be NULL: kept)
 * replaces the stored settings. */
void live_restored(app *a, app_table *at, int64_t started_at, const char *meta);

#endif
