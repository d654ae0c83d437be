/*
 * help.h — lair's help screens (the `?` key in play and watch): what the
 * numbers on a gems screen mean (hand, chest, bravery, lair odds, rumor,
 * EV, take), every room and adventure, and the keys. Pure drawing on the
 * grid (screen.h), so the unit tests read the pages.
 */
#ifndef LAIR_HELP_H
#define LAIR_HELP_H

#include "screen.h"

/* How many pages `kind` has ("" or NULL: the keys page only). */
int help_pages(const char *kind);
/* Draws page (0 … help_pages − 1) over the whole grid. */
void help_draw(struct scr *s, const char *kind, int page);

#endif
