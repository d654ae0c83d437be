/*
 * view_gems.h — how lair draws a gems table (proto/kinds/gems.md) on the
 * 80×24 screen: the dungeon so far, the floor, the warnings, every seat's
 * chest, hand, whether it is inside and its status, our options as single
 * keys with the deadline and the change-your-mind countdown, the reveal,
 * the "hand icon" (lair odds, rumor, expected value), the Three Card Monte
 * shuffle step by step, and the end-of-game summary.
 *
 * Pure: draws from a struct tv into a struct scr; the caller owns both.
 * Another kind (deepfall) gets its own view_<kind>.c with the same shape.
 */
#ifndef LAIR_VIEW_GEMS_H
#define LAIR_VIEW_GEMS_H

#include <stddef.h>
#include <stdint.h>

#include "screen.h"
#include "tview.h"
#include "view.h"

/* The single key for a gems choice key ("leave" → 'L'); 0 when it has none
 * of its own (tv_keys then picks a free one). */
char view_gems_choice_key(const char *choice);

/* Assigns a distinct key to each of the tv's options into keys[i] (upper
 * case letters or digits; 0 when none left). Keys avoid the screen's own
 * commands (H, Q, R). Returns the number of options. */
int view_gems_option_keys(const struct tv *tv, char *keys, int max);

/* The option index for a pressed key (case-insensitive), or -1. */
int view_gems_option_for_key(const struct tv *tv, int key);

/* Draws the whole table screen. */
void view_gems_draw(struct scr *s, const struct tv *tv, const struct view_ui *ui);

/* A log line for a gems event (tv_event_fn). */
int view_gems_event_line(const cJSON *ev, const struct tv *tv, char *out, size_t out_len);

/* The Monte layout after the first `step` swaps: pos[i] = which original
 * card (0 = the left-most, the valuable one) lies at position i. */
void view_gems_monte_layout(const struct tv *tv, int step, int pos[3]);

#endif
