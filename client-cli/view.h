/*
 * view.h — how a game kind is drawn in lair: one kind_view per kind (the
 * kind-specific screen lives in view_<kind>.c), found by the kind's name,
 * with a generic fallback for kinds lair has no screen for yet (it shows
 * the seats, their status, the events and the result; simple {id, label}
 * options still get keys).
 *
 * Views are pure: they draw a struct tv (tview.h) into a struct scr. A kind
 * whose choice is a form (deepfall) keeps the form's values in view_ui.
 */
#ifndef LAIR_VIEW_H
#define LAIR_VIEW_H

#include <stdint.h>

#include "screen.h"
#include "tview.h"

/* A kind's choice form (deepfall: target, press, recruit, exit) as the
 * human fills it in; the kind's form_key owns the meaning of v[]. */
struct view_form {
	int64_t decision; /* the decision v[] is for; another: the defaults */
	int v[4];
	int sent; /* 1: sent as it stands; 0: changed since, or not sent yet */
};

/* What the play screen adds on top of the table model. */
struct view_ui {
	uint64_t now;       /* local ms, for countdowns */
	int show_hand;      /* gems: the "hand icon" (odds, rumor, EV) */
	int monte_step;     /* gems: swaps of the Monte shuffle shown; -1: none */
	int link_down;      /* reconnecting */
	const char *notice; /* one line (errors, hints), may be NULL */
	struct view_form form; /* the kind's choice form, when it has one */
};

struct kind_view {
	const char *kind;
	void (*draw)(struct scr *s, const struct tv *tv, const struct view_ui *ui);
	tv_event_fn event_line;
	/* The option index for a pressed key, or -1. */
	int (*option_for_key)(const struct tv *tv, int key);
	/* Kinds whose choice is a form (NULL for the others): applies a key
	 * to it; 1 when the key was the form's, *choice set (caller deletes)
	 * when the form is to be sent. */
	int (*form_key)(const struct tv *tv, struct view_form *f, int key, cJSON **choice);
};

/* The view for a kind; the generic one for an unknown kind (never NULL). */
const struct kind_view *kind_view_find(const char *kind);

/* Clears the screen and writes its top row: the table, its name, `kind`,
 * `progress` (may be NULL; e.g. "round 3  ") and the table's state, and
 * "[watching]" for a spectator. */
void view_header(struct scr *s, const struct tv *tv, const char *kind, const char *progress);

/* The bottom row of a kind's screen: the window's countdown, or `what`
 * (may be NULL) and the seconds left to choose, then `keys`; at its right
 * "connection lost" or the notice. */
void view_footer(struct scr *s, const struct tv *tv, const struct view_ui *ui, const char *what,
		 const char *keys);

/* The generic view's parts, for kinds that reuse them. */
void view_generic_draw(struct scr *s, const struct tv *tv, const struct view_ui *ui);
int view_generic_event_line(const cJSON *ev, const struct tv *tv, char *out, size_t out_len);

#endif
