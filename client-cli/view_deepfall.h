/*
 * view_deepfall.h — how lair draws a deepfall table (proto/kinds/deepfall.md)
 * on the 80×24 screen and lets a human fill in its choice form.
 *
 * The screen: the Maw (frontier, carried progress, this round's speed so
 * far and a warning when the frontier is set to fall), the live floors with
 * their rooms (theme, value, threat/lock, holders by seat and strength) and
 * the parties on them, every seat (glory, party, floor, unbanked loot, Last
 * Stand, status), your party's dice, this round's turn (hands rolled, the
 * symbols they leave after Dread, the Setbacks coming), the events, the
 * choice form and the countdown; at the end the result (glory by exit,
 * Cash-Outs, Worthy Ends, Takens, claims).
 *
 * Each decision of a round (deepfall.md "Options and choices") is either a
 * press, sent at once with one key, or the act that ends the turn, filled
 * with single keys:
 *   P   press: roll one more hand (when offered)
 *   1-9 target floor (+ / - step it, for dungeons deeper than 9)
 *   R   recruit yes / no
 *   K   exit persist, C cash out, S last stand (C and S again: persist)
 *   G   (or Enter, Space) send the act; a changed act is sent again with G
 * Its values live in struct view_form (view.h):
 * v[VIEW_DEEPFALL_TARGET..VIEW_DEEPFALL_EXIT],
 * reset to the defaults (your party's floor, no recruit, persist) when a new
 * decision opens; v[VIEW_DEEPFALL_SENT_PRESS] is 1 when the last send was a press.
 *
 * Pure: draws from a struct tv into a struct scr; the caller owns both.
 */
#ifndef LAIR_VIEW_DEEPFALL_H
#define LAIR_VIEW_DEEPFALL_H

#include <stddef.h>

#include "screen.h"
#include "tview.h"
#include "view.h"

/* The form's fields in view_form.v; exit is an index of view_deepfall_exit_names. */
enum { VIEW_DEEPFALL_TARGET, VIEW_DEEPFALL_RECRUIT, VIEW_DEEPFALL_EXIT, VIEW_DEEPFALL_SENT_PRESS };
#define VIEW_DEEPFALL_NEXIT 3
/* persist cash_out last_stand */
extern const char *const view_deepfall_exit_names[VIEW_DEEPFALL_NEXIT];

void view_deepfall_draw(struct scr *s, const struct tv *tv, const struct view_ui *ui);
int view_deepfall_event_line(const cJSON *ev, const struct tv *tv, char *out, size_t out_len);
/* Always -1: deepfall's one option is a form (see view_deepfall_form_key). */
int view_deepfall_option_for_key(const struct tv *tv, int key);

/* Applies a pressed key (upper case for letters) to the form of our
 * current options. Returns 1 when the key belongs to the form (redraw);
 * *choice gets the choice object to send (caller deletes) on P ({"press":
 * true}) or G / Enter / Space (the act), else NULL. Returns 0 (and changes nothing) when we have no
 * deepfall options or the key is not the form's. */
int view_deepfall_form_key(const struct tv *tv, struct view_form *f, int key, cJSON **choice);

/* The form as the screen shows it now: f's values when they are for the
 * current decision, else the defaults. Returns 0 when there is no form. */
int view_deepfall_form_now(const struct tv *tv, const struct view_form *f, struct view_form *out);

/* The act object of a form's values (caller deletes). */
cJSON *view_deepfall_choice(const struct view_form *f);

#endif
