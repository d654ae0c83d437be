/*
 * view_crawl.c — the crawl screen and its keys (see view_crawl.h). Layout of
 * the 80×24 grid:
 *   0      title: table, name, act, round
 *   1-17   the level (56 columns; scrolled around you when larger); an
 *          event, a vote or a shop as a box over it
 *   1-17   columns 57-79: the party, then your pack
 *   18-20  the newest events
 *   21     the keys of the moment
 *   22     your choice, or what you are doing
 *   23     the countdown, the notice
 * Every number of the view is read through proto_json_int: the server is
 * not trusted to send sane ones, and every string is clipped to its place.
 */
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "../proto/proto_msg.h"
#include "view_crawl.h"
#include "view_json.h"

#define MAP_W 56
#define MAP_H 17
#define PANEL 57

/* The party entry of a seat. */
static const cJSON *hero(const cJSON *view, int seat)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, get(view, "party"))
	{
		if (ival(it, "seat", 0, TV_MAX_SEATS - 1, -1) == seat)
			return it;
	}
	return NULL;
}

/* The index of the option with this id among ours, or -1. */
static int option_index(const struct tv *tv, const char *id)
{
	for (int i = 0; i < tv_n_options(tv); i++) {
		const char *k = tv_option_key(tv, i);
		if (k && !strcmp(k, id))
			return i;
	}
	return -1;
}

static int has_prefix(const struct tv *tv, const char *prefix)
{
	for (int i = 0; i < tv_n_options(tv); i++) {
		const char *k = tv_option_key(tv, i);
		if (k && !strncmp(k, prefix, strlen(prefix)))
			return 1;
	}
	return 0;
}

/* The first option whose label is this, or -1. */
static int option_labelled(const struct tv *tv, const char *label)
{
	for (int i = 0; i < tv_n_options(tv); i++)
		if (!strcmp(tv_option_label(tv, i), label))
			return i;
	return -1;
}

/* ---- keys ------------------------------------------------------------------ */

static const char *ok_id(const struct tv *tv, const char *id)
{
	return option_index(tv, id) >= 0 ? id : NULL;
}

const char *view_crawl_key_choice(const struct tv *tv, const struct view_form *f, int key,
				  char *idbuf, size_t n)
{
	if (!tv->options)
		return NULL;
	int mode = f && f->decision == tv->decision ? f->v[0] : VIEW_CRAWL_NONE;
	int digit = key >= '1' && key <= '9' ? key - '0' : 0;
	if (has_prefix(tv, "event:")) { /* an event or a vote */
		if (!digit)
			return NULL;
		snprintf(idbuf, n, "event:%d", digit - 1);
		return ok_id(tv, idbuf);
	}
	if (option_index(tv, "leave") >= 0) { /* a shop */
		if (key == 'L')
			return ok_id(tv, "leave");
		if (!digit)
			return NULL;
		snprintf(idbuf, n, "buy:%d", digit - 1);
		return ok_id(tv, idbuf);
	}
	if (digit) {
		if (mode == VIEW_CRAWL_JUMP)
			snprintf(idbuf, n, "jump:%d", digit);
		else
			snprintf(idbuf, n, "%s:%d", mode == VIEW_CRAWL_DROP ? "drop" : "use", digit - 1);
		return ok_id(tv, idbuf);
	}
	switch (key) {
	case 'W':
		return ok_id(tv, "n");
	case 'A':
		return ok_id(tv, "w");
	case 'S':
		return ok_id(tv, "s");
	case 'D':
		return ok_id(tv, "e");
	case '.':
	case 'Z':
		return ok_id(tv, "wait");
	case 'O':
		return ok_id(tv, "explore");
	case 'R':
		return ok_id(tv, "rest");
	case 'P':
		return ok_id(tv, "portal");
	case 'U':
		return ok_id(tv, "out");
	case 'T': {
		static const char *const where[] = {"Travel to the portal down",
						    "Travel to the devil's lair",
						    "Travel to a ? tile", "Travel to a chest",
						    "Travel to the portal up"};
		for (size_t i = 0; i < ARRAY_LEN(where); i++) {
			int k = option_labelled(tv, where[i]);
			if (k >= 0) {
				snprintf(idbuf, n, "%s", tv_option_key(tv, k));
				return idbuf;
			}
		}
		return NULL;
	}
	}
	return NULL;
}

int view_crawl_form_key(const struct tv *tv, struct view_form *f, int key, cJSON **choice)
{
	*choice = NULL;
	if (!tv->options || tv->seat < 0)
		return 0;
	if (f->decision != tv->decision) {
		memset(f, 0, sizeof *f);
		f->decision = tv->decision;
	}
	if ((key == 'X' && has_prefix(tv, "drop:")) || (key == 'J' && has_prefix(tv, "jump:"))) {
		f->v[0] = key == 'X' ? VIEW_CRAWL_DROP : VIEW_CRAWL_JUMP;
		return 1;
	}
	char idbuf[40];
	const char *id = view_crawl_key_choice(tv, f, key, idbuf, sizeof idbuf);
	int had_mode = f->v[0] != VIEW_CRAWL_NONE;
	f->v[0] = VIEW_CRAWL_NONE;
	if (!id)
		return had_mode; /* a second key that means nothing ends the mode */
	*choice = cJSON_CreateString(id);
	f->v[1] = option_index(tv, id) + 1;
	f->sent = 1;
	return 1;
}

int view_crawl_option_for_key(const struct tv *tv, int key)
{
	(void)tv;
	(void)key;
	return -1;
}

/* ---- drawing ---------------------------------------------------------------- */

static uint8_t tile_attr(char c, int lit)
{
	uint8_t a = lit ? 0 : SA_DIM;
	switch (c) {
	case '+':
	case '\'':
		return a | SC_YELLOW;
	case '<':
	case '>':
		return a | SC_CYAN | SA_BOLD;
	case '?':
		return a | SC_MAGENTA | SA_BOLD;
	case '$':
		return a | SC_YELLOW | SA_BOLD;
	case '_':
		return a | SC_RED | SA_BOLD;
	default:
		return a;
	}
}

/* The map's first column and row on screen: everything when it fits, else
 * a window around (fx, fy). */
static void viewport(int w, int h, int fx, int fy, int *x0, int *y0)
{
	*x0 = w <= MAP_W ? 0 : MAX(0, MIN(w - MAP_W, fx - MAP_W / 2));
	*y0 = h <= MAP_H ? 0 : MAX(0, MIN(h - MAP_H, fy - MAP_H / 2));
}

static void draw_map(struct scr *s, const struct tv *tv, const cJSON *v)
{
	const cJSON *map = get(v, "map"), *vis = get(v, "visible");
	int h = MIN(cJSON_GetArraySize(map), 200);
	int w = 0;
	for (int y = 0; y < h; y++) {
		const cJSON *row = cJSON_GetArrayItem(map, y);
		if (cJSON_IsString(row))
			w = MAX(w, (int)MIN(strlen(row->valuestring), 200));
	}
	const cJSON *me = hero(v, tv->seat >= 0 ? tv->seat : 0);
	int x0, y0;
	viewport(w, h, ival(me, "x", 0, 199, 0), ival(me, "y", 0, 199, 0), &x0, &y0);
	for (int sy = 0; sy < MAP_H && y0 + sy < h; sy++) {
		const cJSON *row = cJSON_GetArrayItem(map, y0 + sy);
		const cJSON *lit = cJSON_GetArrayItem(vis, y0 + sy);
		const char *r = cJSON_IsString(row) ? row->valuestring : "";
		const char *l = cJSON_IsString(lit) ? lit->valuestring : "";
		size_t rl = strlen(r), ll = strlen(l);
		for (int sx = 0; sx < MAP_W && x0 + sx < (int)rl; sx++) {
			char c = r[x0 + sx];
			int on = (size_t)(x0 + sx) < ll && l[x0 + sx] == 'v';
			char t[2] = {c, 0};
			scr_put(s, 1 + sy, sx, tile_attr(c, on), t);
		}
	}
	const cJSON *m;
	cJSON_ArrayForEach(m, get(v, "monsters"))
	{
		int x = ival(m, "x", 0, 199, -1) - x0, y = ival(m, "y", 0, 199, -1) - y0;
		if (x < 0 || y < 0 || x >= MAP_W || y >= MAP_H)
			continue;
		const char *g = sval(m, "glyph", "M");
		char t[2] = {g[0] ? g[0] : 'M', 0};
		uint8_t a = cJSON_IsTrue(get(m, "boss"))    ? SC_RED | SA_BOLD | SA_REVERSE
			    : cJSON_IsTrue(get(m, "elite")) ? SC_MAGENTA | SA_BOLD
							    : SC_RED | SA_BOLD;
		scr_put(s, 1 + y, x, a, t);
	}
	/* the others first, so that you are drawn on top of a shared tile */
	for (int pass = 0; pass < 2; pass++) {
		const cJSON *p;
		cJSON_ArrayForEach(p, get(v, "party"))
		{
			int seat = ival(p, "seat", 0, TV_MAX_SEATS - 1, -1);
			const char *st = sval(p, "state", "");
			if (seat < 0 || (seat == tv->seat) != pass || !strcmp(st, "fallen") ||
			    !strcmp(st, "gateway"))
				continue;
			int x = ival(p, "x", 0, 199, -1) - x0, y = ival(p, "y", 0, 199, -1) - y0;
			if (x < 0 || y < 0 || x >= MAP_W || y >= MAP_H)
				continue;
			char t[2] = {seat == tv->seat ? '@' : (char)('1' + seat), 0};
			scr_put(s, 1 + y, x,
				seat == tv->seat ? SC_YELLOW | SA_BOLD : SC_GREEN | SA_BOLD, t);
		}
	}
}

static const char *doing(const cJSON *p)
{
	const char *st = sval(p, "state", "?");
	if (!strcmp(st, "travelling"))
		return cJSON_IsString(get(p, "travel")) ? "exploring" : "travelling";
	if (!strcmp(st, "gateway"))
		return "in a gateway";
	if (!strcmp(st, "event"))
		return "in an event";
	if (!strcmp(st, "map"))
		return "";
	return st;
}

/* An item's name, with its bonus. */
static void item_name(const cJSON *it, char *out, size_t n)
{
	int bonus = count(it, "bonus");
	if (bonus)
		snprintf(out, n, "%s +%d", sval(it, "name", "?"), bonus);
	else
		snprintf(out, n, "%s", sval(it, "name", "?"));
}

static void draw_panel(struct scr *s, const struct tv *tv, const cJSON *v)
{
	int row = 1;
	const cJSON *p;
	cJSON_ArrayForEach(p, get(v, "party"))
	{
		int seat = ival(p, "seat", 0, TV_MAX_SEATS - 1, -1);
		if (seat < 0 || row > 15)
			continue;
		char name[32];
		tv_seat_name(tv, seat, name, sizeof name);
		int hp = count(p, "hp"), max = count(p, "max_hp");
		int low = hp * 3 < max;
		uint8_t a = !cJSON_IsTrue(get(p, "alive")) ? SA_DIM : seat == tv->seat ? SA_BOLD : 0;
		scr_printf(s, row, PANEL, a, "%c%d %-8.8s L%-2d", seat == tv->seat ? '@' : ' ',
			   seat + 1, seat == tv->seat ? "you" : name, count(p, "level"));
		scr_printf(s, row, PANEL + 15, low ? SC_RED | SA_BOLD : SC_GREEN, "%3d/%-3d", hp, max);
		const cJSON *atk = get(p, "attack");
		int64_t a0 = 0, a1 = 0;
		proto_json_int(cJSON_GetArrayItem(atk, 0), 0, 999, &a0);
		proto_json_int(cJSON_GetArrayItem(atk, 1), 0, 999, &a1);
		scr_printf(s, row + 1, PANEL + 1, SA_DIM, "$%-4d %d-%d d%d %.8s", count(p, "gold"),
			   (int)a0, (int)a1, count(p, "defense"), doing(p));
		row += 2;
	}
	const cJSON *me = hero(v, tv->seat);
	if (!me)
		return;
	row++;
	char tmp[48];
	const cJSON *wp = get(me, "weapon"), *ar = get(me, "armor");
	item_name(wp, tmp, sizeof tmp);
	scr_printf(s, row++, PANEL, SA_DIM, "W %.20s", cJSON_IsObject(wp) ? tmp : "-");
	item_name(ar, tmp, sizeof tmp);
	scr_printf(s, row++, PANEL, SA_DIM, "A %.20s", cJSON_IsObject(ar) ? tmp : "-");
	int slot = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, get(me, "inventory"))
	{
		if (row > 17 || slot >= 9)
			break;
		slot++;
		if (!cJSON_IsObject(it))
			continue;
		item_name(it, tmp, sizeof tmp);
		scr_printf(s, row++, PANEL, cJSON_IsTrue(get(it, "known")) ? 0 : SC_MAGENTA,
			   "%d %.20s", slot, tmp);
	}
}

/* Wraps text into the box, at most `rows` lines; returns lines used. */
static int wrap(struct scr *s, int row, int col, int width, int rows, uint8_t a,
		const char *text)
{
	int used = 0;
	size_t len = strlen(text), at = 0;
	while (at < len && used < rows) {
		size_t take = MIN(len - at, (size_t)width);
		if (at + take < len)
			while (take > 0 && text[at + take] != ' ')
				take--;
		if (!take)
			take = MIN(len - at, (size_t)width);
		scr_printf(s, row + used, col, a, "%.*s", (int)utf8_prefix(text + at, take),
			   text + at);
		at += take;
		while (at < len && text[at] == ' ')
			at++;
		used++;
	}
	return used;
}

/* An event, a vote or a shop over the map. */
static void draw_box(struct scr *s, const struct tv *tv, const cJSON *v)
{
	const cJSON *me = hero(v, tv->seat), *vote = get(v, "vote");
	const cJSON *ev = cJSON_IsObject(vote) ? get(vote, "event") : get(me, "event");
	const cJSON *shop = get(me, "shop");
	if (!cJSON_IsObject(ev) && !cJSON_IsObject(shop))
		return;
	for (int r = 3; r <= 14; r++)
		scr_printf(s, r, 2, SA_REVERSE, "%-52s", "");
	int row = 4;
	if (cJSON_IsObject(ev)) {
		scr_printf(s, row++, 4, SA_REVERSE | SA_BOLD, "%.40s%s", sval(ev, "name", "?"),
			   cJSON_IsObject(vote) ? "  (the party votes)" : "");
		row += wrap(s, row, 4, 48, 4, SA_REVERSE, sval(ev, "text", "")) + 1;
		const cJSON *o;
		cJSON_ArrayForEach(o, get(ev, "options"))
		{
			int k = ival(o, "index", 0, 8, 0);
			int open = cJSON_IsTrue(get(o, "open"));
			scr_printf(s, row++, 4, SA_REVERSE | (open ? SA_BOLD : SA_DIM), "%d %.46s",
				   k + 1, sval(o, "label", "?"));
			if (row > 14)
				break;
		}
		return;
	}
	scr_put(s, row++, 4, SA_REVERSE | SA_BOLD, "A shop");
	int k = 1;
	const cJSON *o;
	char tmp[48];
	cJSON_ArrayForEach(o, get(shop, "items"))
	{
		if (cJSON_IsObject(o)) {
			item_name(get(o, "item"), tmp, sizeof tmp);
			scr_printf(s, row, 4, SA_REVERSE, "%d %-34.34s %4d gold", k, tmp,
				   count(o, "price"));
		} else {
			scr_printf(s, row, 4, SA_REVERSE | SA_DIM, "%d (sold)", k);
		}
		row++;
		k++;
	}
	const cJSON *r = get(shop, "relic");
	if (cJSON_IsObject(r)) {
		scr_printf(s, row++, 4, SA_REVERSE, "4 %-34.34s %4d gold", sval(r, "name", "?"),
			   count(r, "price"));
		scr_printf(s, row++, 6, SA_REVERSE | SA_DIM, "%.46s", sval(r, "text", ""));
	}
	scr_put(s, row + 1, 4, SA_REVERSE, "L leave the shop");
}

static void draw_keys(struct scr *s, const struct tv *tv, const struct view_ui *ui,
		      const cJSON *v)
{
	const cJSON *me = hero(v, tv->seat);
	if (tv->seat < 0) {
		scr_put(s, 21, 0, SA_DIM, "watching");
	} else if (!tv->options) {
		const char *st = sval(me, "state", "");
		scr_put(s, 21, 0, SA_DIM,
			!strcmp(st, "fallen")	    ? "You have fallen: the party carries you to the next level."
			: !strcmp(st, "travelling") ? "On your way: you are asked again when something turns up."
			: !strcmp(st, "resting")    ? "Resting: you are asked again when the party is healed."
						    : "Waiting for the others.");
	} else if (has_prefix(tv, "event:")) {
		scr_put(s, 21, 0, SA_BOLD, "1-4 choose an option");
	} else if (option_index(tv, "leave") >= 0) {
		scr_put(s, 21, 0, SA_BOLD, "1-3 buy an item  4 buy the relic  L leave");
	} else if (option_index(tv, "out") >= 0) {
		scr_put(s, 21, 0, SA_BOLD, "In a gateway: . wait for the others  U step out");
	} else {
		int mode = ui->form.decision == tv->decision ? ui->form.v[0] : VIEW_CRAWL_NONE;
		scr_put(s, 21, 0, SA_BOLD,
			mode == VIEW_CRAWL_DROP   ? "Drop which? 1-8"
			: mode == VIEW_CRAWL_JUMP ? "Jump to which act? 1-3"
					   : "WASD move . wait O explore R rest T travel P portal "
					     "1-8 use X drop J jump");
	}
	char idbuf[40];
	int chosen = ui->form.decision == tv->decision ? ui->form.v[1] - 1 : -1;
	if (tv->options && chosen >= 0 && chosen < tv_n_options(tv)) {
		scr_printf(s, 22, 0, SC_GREEN, "Chosen: %.50s (another key changes it)",
			   tv_option_label(tv, chosen));
	} else if (tv->options) {
		const char *id = view_crawl_key_choice(tv, &ui->form, 'O', idbuf, sizeof idbuf);
		scr_put(s, 22, 0, SA_DIM, id ? "Your move." : "Your move (monsters in view).");
	}
}

static void draw_bottom(struct scr *s, const struct tv *tv, const struct view_ui *ui)
{
	view_footer(s, tv, ui, NULL, "[Q]uit");
}

static void draw_result(struct scr *s, const struct tv *tv)
{
	const cJSON *r = tv->result;
	const char *end = sval(r, "end", "");
	scr_printf(s, 2, 0, SA_BOLD | (cJSON_IsTrue(get(r, "won")) ? SC_GREEN : SC_RED),
		   "%s after %d rounds (act %d reached)",
		   !strcmp(end, "won")	    ? "THE DEVIL IS SLAIN"
		   : !strcmp(end, "fallen") ? "THE PARTY HAS FALLEN"
					    : "THE TORCHES GUTTER OUT",
		   count(r, "rounds"), count(r, "acts_reached"));
	scr_put(s, 4, 0, SA_BOLD, "  # PLAYER        SCORE   GOLD LEVEL KILLS FALLS  ACHIEVEMENTS");
	int row = 5;
	const cJSON *p;
	cJSON_ArrayForEach(p, get(r, "players"))
	{
		int seat = ival(p, "seat", 0, TV_MAX_SEATS - 1, -1);
		if (seat < 0 || row > 12)
			continue;
		char name[32], ach[80] = "";
		size_t n = 0;
		const cJSON *a;
		cJSON_ArrayForEach(a, get(p, "achievements"))
		{
			if (cJSON_IsString(a) && n + strlen(a->valuestring) + 2 < sizeof ach)
				n += (size_t)snprintf(ach + n, sizeof ach - n, "%s%s", n ? " " : "",
						      a->valuestring);
		}
		scr_printf(s, row++, 0, seat == tv->seat ? SA_BOLD : 0,
			   "%s%d %-12.12s %6d %6d %5d %5d %5d  %.30s", seat == tv->seat ? ">" : " ",
			   seat + 1, tv_seat_name(tv, seat, name, sizeof name), count(p, "score"),
			   count(p, "gold"), count(p, "level"), count(p, "kills"), count(p, "falls"),
			   ach);
	}
}

void view_crawl_draw(struct scr *s, const struct tv *tv, const struct view_ui *ui)
{
	const cJSON *v = tv->view;
	char progress[64] = "";
	if (get(v, "act"))
		snprintf(progress, sizeof progress, "act %d/%d  round %d  ", count(v, "act"),
			 count(v, "acts"), count(v, "round"));
	view_header(s, tv, "crawl", progress);
	if (tv->result) {
		draw_result(s, tv);
		for (int r = 0; r < 6 && tv->log_len - 6 + r >= 0; r++)
			if (tv->log_len - 6 + r < tv->log_len)
				scr_put(s, 14 + r, 1, SA_DIM, tv->log[tv->log_len - 6 + r]);
		scr_put(s, 23, 0, 0, "[R]ematch (host)  [L]obby  [Q]uit");
		return;
	}
	if (get(v, "map")) {
		draw_map(s, tv, v);
		draw_panel(s, tv, v);
		draw_box(s, tv, v);
	}
	int start = MAX(0, tv->log_len - 3);
	for (int r = 0; start + r < tv->log_len && r < 3; r++)
		scr_put(s, 18 + r, 1, SA_DIM, tv->log[start + r]);
	draw_keys(s, tv, ui, v);
	draw_bottom(s, tv, ui);
}

/* ---- events ------------------------------------------------------------------- */

static const char *who(const cJSON *ev, const struct tv *tv, char *tmp, size_t n)
{
	int seat = ival(ev, "seat", 0, TV_MAX_SEATS - 1, -1);
	if (seat < 0)
		return "The party";
	if (seat == tv->seat)
		return "You";
	return tv_seat_name(tv, seat, tmp, n);
}

static const char *vb(const char *subject, const char *you, const char *other)
{
	return strcmp(subject, "You") ? other : you;
}

int view_crawl_event_line(const cJSON *ev, const struct tv *tv, char *out, size_t out_len)
{
	const char *type = sval(ev, "event", NULL);
	if (!type)
		return 0;
	char tmp[32];
	const char *nm = who(ev, tv, tmp, sizeof tmp);
	const char *name = sval(ev, "name", "?");
	const cJSON *item = get(ev, "item");
	if (!strcmp(type, "level"))
		snprintf(out, out_len, "-- act %d%s: %d ? tiles here --", count(ev, "act"),
			 count(ev, "visit") ? " (again)" : "", count(ev, "question_marks"));
	else if (!strcmp(type, "attack"))
		snprintf(out, out_len, "%s %s the %s for %d (%d left)", nm, vb(nm, "hit", "hits"),
			 name, count(ev, "damage"), count(ev, "hp"));
	else if (!strcmp(type, "hit"))
		snprintf(out, out_len, "The %s %s %s for %d (%d HP left)", name,
			 "hits", !strcmp(nm, "You") ? "you" : nm, count(ev, "damage"), count(ev, "hp"));
	else if (!strcmp(type, "kill"))
		snprintf(out, out_len, "%s %s the %s (+%d xp, %d gold)", nm, vb(nm, "kill", "kills"),
			 name, count(ev, "xp"), count(ev, "gold"));
	else if (!strcmp(type, "fall"))
		snprintf(out, out_len, "%s %s!", nm, vb(nm, "fall", "falls"));
	else if (!strcmp(type, "revive"))
		snprintf(out, out_len, "%s %s again (%d HP)", nm, vb(nm, "stand", "stands"),
			 count(ev, "hp"));
	else if (!strcmp(type, "level_up"))
		snprintf(out, out_len, "%s %s level %d", nm, vb(nm, "reach", "reaches"),
			 count(ev, "level"));
	else if (!strcmp(type, "question_mark"))
		snprintf(out, out_len, "%s %s a ?: %s", nm, vb(nm, "enter", "enters"),
			 sval(ev, "room", "?"));
	else if (!strcmp(type, "ambush"))
		snprintf(out, out_len, "Ambush! A %s appears", name);
	else if (!strcmp(type, "chest") || !strcmp(type, "treasure"))
		snprintf(out, out_len, "%s %s a %s: %d gold", nm, vb(nm, "open", "opens"), type,
			 count(ev, "gold"));
	else if (!strcmp(type, "event"))
		snprintf(out, out_len, "%s: %s", cJSON_IsTrue(get(ev, "shared")) ? "Vote" : nm, name);
	else if (!strcmp(type, "event_choice"))
		snprintf(out, out_len, "%s %s: %s", nm, vb(nm, "choose", "chooses"),
			 sval(ev, "label", "?"));
	else if (!strcmp(type, "vote"))
		snprintf(out, out_len, "The vote: option %d (%d vote%s%s)", count(ev, "option") + 1,
			 count(ev, "votes"), count(ev, "votes") == 1 ? "" : "s",
			 cJSON_IsTrue(get(ev, "tied")) ? ", a tie drawn" : "");
	else if (!strcmp(type, "item") && cJSON_IsObject(item))
		snprintf(out, out_len, count(ev, "slot") < 0 ? "%s: no room for the %s" : "%s %s the %s",
			 nm, count(ev, "slot") < 0 ? sval(item, "name", "?") : vb(nm, "find", "finds"),
			 sval(item, "name", "?"));
	else if ((!strcmp(type, "use") || !strcmp(type, "equip")) && cJSON_IsObject(item))
		snprintf(out, out_len, "%s %s the %s", nm, vb(nm, "use", "uses"),
			 sval(item, "name", "?"));
	else if (!strcmp(type, "identify") && cJSON_IsObject(item))
		snprintf(out, out_len, "It was a %s!", sval(item, "name", "?"));
	else if (!strcmp(type, "relic"))
		snprintf(out, out_len, "%s %s the %s", nm, vb(nm, "gain", "gains"),
			 sval(get(ev, "relic"), "name", "?"));
	else if (!strcmp(type, "gateway"))
		snprintf(out, out_len, get(ev, "to_act") && !cJSON_IsNull(get(ev, "to_act"))
					       ? "%s %s a gateway to act %d"
					       : "%s %s out of the gateway",
			 nm, vb(nm, "step", "steps"), count(ev, "to_act"));
	else if (!strcmp(type, "devil"))
		snprintf(out, out_len, "The Devil wakes!");
	else if (!strcmp(type, "nothing"))
		snprintf(out, out_len, "%s: the room is quiet", nm);
	else if (!strcmp(type, "game_over"))
		snprintf(out, out_len, "The run is over (%s) after %d rounds", sval(ev, "end", "?"),
			 count(ev, "rounds"));
	else
		return 0; /* steps, travel, gold and HP changes: on the screen already */
	return 1;
}
