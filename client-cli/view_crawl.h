/*
 * view_crawl.h — how lair draws a crawl table (proto/kinds/crawl.md) on the
 * 80×24 screen and turns single keys into choices.
 *
 * The screen: the level as the party knows it (what is in sight bright, what
 * is remembered dim; you '@', the other scoundrels by seat number, the
 * monsters in sight by their letter), scrolled to keep you in view when the
 * level is larger than the map area; beside it the party (HP, level, gold,
 * what each is doing) and your pack; below, the newest events, the keys and
 * the countdown. An event, a vote or a shop takes the map area as a box
 * with its options. At the end, the result.
 *
 * Keys (upper or lower case):
 *   W A S D   step north, west, south, east (into a monster: attack)
 *   . or Z    wait          O  explore          P  take the portal
 *   T         travel to the portal down, or the lair, or a ? tile
 *   1-8       use the item in that pack slot (in an event, a vote or a
 *             shop: that option; in a shop 4 is the relic)
 *   X then 1-8  drop that item     J then 1-3  quick jump to that act
 *   U         step out of a gateway           L  leave a shop
 * A key sends its choice at once; another key before the reveal changes it.
 *
 * Pure: draws from a struct tv into a struct scr; the caller owns both.
 */
#ifndef LAIR_VIEW_CRAWL_H
#define LAIR_VIEW_CRAWL_H

#include <stddef.h>

#include "screen.h"
#include "tview.h"
#include "view.h"

/* view_form.v[0] while a two-key choice is being typed. */
enum { VIEW_CRAWL_NONE, VIEW_CRAWL_DROP, VIEW_CRAWL_JUMP };

void view_crawl_draw(struct scr *s, const struct tv *tv, const struct view_ui *ui);
int view_crawl_event_line(const cJSON *ev, const struct tv *tv, char *out, size_t out_len);
/* Always -1: crawl's keys go through view_crawl_form_key. */
int view_crawl_option_for_key(const struct tv *tv, int key);

/* Applies a key (upper case for letters): returns 1 when the key is
 * crawl's; *choice gets the choice to send (caller deletes) when it makes
 * one, else NULL. 0 (nothing changed) without options or for another key. */
int view_crawl_form_key(const struct tv *tv, struct view_form *f, int key, cJSON **choice);

/* The option id a key means now, or NULL (for tests and the help line). */
const char *view_crawl_key_choice(const struct tv *tv, const struct view_form *f, int key,
				  char *idbuf, size_t n);

#endif
