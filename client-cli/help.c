/*
 * help.c — the help screens (see help.h). The text is the rules in short,
 * as docs/rules/gems.md settles them; each page fits 80×24.
 */
#include <string.h>

#include "help.h"

static const char *const gems_numbers[] = {
	"gems: the numbers on the screen",
	"",
	"Hand    gems you carry. The spider's lair takes them all if you are inside.",
	"Chest   your safe money: the score. Gold bars in it break ties.",
	"Leave   carries your hand to your chest; the floor (gems, bars) is shared",
	"        by everyone who leaves at the same time.",
	"Bravery starts each dungeon at the number of seats; it drops by 1 when",
	"        exactly one player leaves (two, with 7-9 seats). A gem room holds",
	"        1 + round(b*(0.29-0.012b)*(level+1)) gems, b = bravery (at least 2).",
	"",
	"The hand icon (H shows or hides it):",
	"lair    the odds that the next room is the spider's lair: unseen warnings",
	"        of a kind already met / unseen rooms. 0 while a poison bottle you",
	"        passed is unused; a poisoned (dead) spider is just an empty room.",
	"rumor   the average value of the unseen rooms: gems at this bravery, bars,",
	"        ferry tolls and Monte cards for everyone.",
	"EV      what staying one more room is worth to you on average:",
	"        (1 - lair) * rumor / players inside - lair * hand.",
	"        Above 0 staying pays; below 0 you risk more than you expect to gain.",
	"take    what leaving now carries off the floor: (floor gems + bars + your",
	"        Sphinx coin-room leftovers) / sqrt(players inside): the AI's yardstick.",
};

static const char *const gems_rooms[] = {
	"gems: the rooms and adventures",
	"",
	"Gems      shared evenly among those inside; the rest stays on the floor.",
	"Gold bar  lies on the floor for whoever leaves. Worth more as chests fill.",
	"Warning   each new kind of warning has its own message; the second of a",
	"          kind already met is the spider's lair.",
	"Lair      everyone inside runs out and loses the hand. Chests are safe.",
	"Poison    a bottle: the next lair's spider is dead (an empty room).",
	"Banker    trade 4 gems for $3, 8 for $6, 12 for $9, straight to the chest.",
	"Sun&Moon  stand on one: one side pays 2/4/6 gems, the other takes as many.",
	"Ferryman  gives every hand the toll (4/3/2); pay it back to cross the lava.",
	"Monte     three cards, the left one pays 2: watch it through the swaps.",
	"Sphinx    go left or right to a coin room; one holds twice the coins.",
	"Scout     tells where the lair is, give or take 8/5/2 rooms.",
	"Mushroom  all who eat grow or all shrink: your share of later gem rooms.",
	"Devil     cash now ($1/$2/$3) for staying the next 3/4/5 rooms.",
	"People    carry one: a Queen pays 1 gem a room, a Changeling steals 1;",
	"          each acts in turn, in the order you picked them up.",
	"",
	"Five dungeons; the richest chest wins. Rules in full: docs/rules/gems.md.",
};

static const char *const keys_page[] = {
	"lair: keys",
	"",
	"Lobby     1-9 select a table, J join, W watch, C create, N next lobby, Q quit",
	"Create    K kind, S seats, A AI seats, P private, G create and start,",
	"          C create, B back",
	"Waiting   S start, A add an AI seat, X remove one (host), L leave",
	"Playing   the keys of the options shown, H the hand icon",
	"Watching  O then a seat number: take that AI seat over",
	"Finished  R rematch (host), L back to the lobby",
	"Anywhere  ? this help (again: next page), / talk: a line to the lobby's",
	"          chat (Enter sends, Esc cancels), Q quit, ^L redraw",
	"",
	"Q leaves lair, not your seat: the AI plays it until you come back with",
	"`lair play`. A dropped connection resumes by itself.",
};

struct page {
	const char *const *lines;
	int n;
};

#define PAGE(a) {a, (int)(sizeof a / sizeof *a)}

static int pages_of(const char *kind, struct page *out)
{
	int n = 0;
	if (kind && !strcmp(kind, "gems")) {
		out[n++] = (struct page)PAGE(gems_numbers);
		out[n++] = (struct page)PAGE(gems_rooms);
	}
	out[n++] = (struct page)PAGE(keys_page);
	return n;
}

int help_pages(const char *kind)
{
	struct page p[3];
	return pages_of(kind, p);
}

void help_draw(struct scr *s, const char *kind, int page)
{
	struct page p[3];
	int n = pages_of(kind, p);
	if (page < 0 || page >= n)
		page = 0;
	scr_clear(s);
	scr_fill(s, 0, 0, SA_REVERSE);
	scr_printf(s, 0, 0, SA_REVERSE | SA_BOLD, " %s", p[page].lines[0]);
	scr_printf(s, 0, SCR_W - 12, SA_REVERSE, "page %d of %d", page + 1, n);
	for (int i = 1; i < p[page].n && i < SCR_H - 2; i++)
		scr_put(s, i + 1, 1, 0, p[page].lines[i]);
	scr_put(s, SCR_H - 1, 0, SA_DIM,
		page + 1 < n ? "[?] next page   any other key: back" : "any key: back");
}
