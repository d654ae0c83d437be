/*
 * view_gems.c — the gems table screen (see view_gems.h).
 *
 * Layout of the 80×24 screen (rows):
 *   0      title: table, dungeon n/5, depth, bravery, adventure
 *   1-2    the dungeon so far, one token per room met
 *   3      the floor (gems, bars) and the warnings seen
 *   4      the hand icon (odds, rumor, EV) when asked for, else a hint
 *   5      seats header; 6-14 one row per seat
 *   15-19  the log: events and reveals, newest last
 *   20     Monte shuffle / window countdown / reveal summary
 *   21-22  our options as keys
 *   23     the deadline and the screen's keys
 * The end of the game replaces rows 5-19 with the result.
 *
 * The view JSON is read by name with fallbacks, so a field the kind adds
 * later is harmless and a missing one shows as "-".
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "view_gems.h"

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The first of the names that is a number. */
static int num(const cJSON *o, double *out, const char *a, const char *b)
{
	const cJSON *v = get(o, a);
	if (!cJSON_IsNumber(v) && b)
		v = get(o, b);
	if (!cJSON_IsNumber(v))
		return 0;
	*out = v->valuedouble;
	return 1;
}

static const char *str(const cJSON *o, const char *a, const char *b)
{
	const cJSON *v = get(o, a);
	if (!cJSON_IsString(v) && b)
		v = get(o, b);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const struct {
	const char *choice;
	char key;
} keymap[] = {
	{"leave", 'L'},	 {"stay", 'S'},	  {"bank4", '4'},  {"bank8", '8'},  {"bank12", 'T'},
	{"sun", 'U'},	 {"moon", 'M'},	  {"pay", 'P'},	   {"card1", '1'},  {"card2", '2'},
	{"card3", '3'},	 {"left", 'A'},	  {"right", 'D'},  {"eat", 'E'},    {"devil3", 'X'},
	{"devil4", 'Y'}, {"devil5", 'Z'}, {"carry", 'C'},  {"poison", 'O'},
};

/* Keys the screen keeps for itself. */
static int reserved(char k)
{
	return k == 'H' || k == 'Q' || k == 'R';
}

char vg_choice_key(const char *choice)
{
	if (!choice)
		return 0;
	for (size_t i = 0; i < ARRAY_LEN(keymap); i++)
		if (strcmp(keymap[i].choice, choice) == 0)
			return keymap[i].key;
	return 0;
}

int vg_option_keys(const struct tv *tv, char *keys, int max)
{
	int n = MIN(tv_n_options(tv), max);
	char used[128] = {0};
	for (int i = 0; i < n; i++) {
		keys[i] = vg_choice_key(tv_option_key(tv, i));
		if (keys[i] && used[(int)keys[i]])
			keys[i] = 0;
		if (keys[i])
			used[(int)keys[i]] = 1;
	}
	for (int i = 0; i < n; i++) {
		if (keys[i])
			continue;
		/* Unknown option: a letter of its label, else any free letter. */
		const char *l = tv_option_label(tv, i);
		for (const char *p = l; *p && !keys[i]; p++) {
			char k = (char)toupper((unsigned char)*p);
			if (isalnum((unsigned char)k) && !used[(int)k] && !reserved(k))
				keys[i] = k;
		}
		for (char k = 'A'; k <= 'Z' && !keys[i]; k++)
			if (!used[(int)k] && !reserved(k))
				keys[i] = k;
		if (keys[i])
			used[(int)keys[i]] = 1;
	}
	return n;
}

int vg_option_for_key(const struct tv *tv, int key)
{
	char keys[32];
	int n = vg_option_keys(tv, keys, 32);
	key = toupper(key);
	for (int i = 0; i < n; i++)
		if (keys[i] && keys[i] == key)
			return i;
	return -1;
}

void vg_monte_layout(const struct tv *tv, int step, int pos[3])
{
	pos[0] = 0, pos[1] = 1, pos[2] = 2;
	for (int i = 0; i < step && i < tv->monte_n; i++) {
		int a = tv->monte_swaps[i][0], b = tv->monte_swaps[i][1];
		int t = pos[a];
		pos[a] = pos[b];
		pos[b] = t;
	}
}

/* A short token for one room of the dungeon so far. */
static void room_token(const cJSON *r, char *out, size_t n)
{
	if (cJSON_IsString(r)) {
		snprintf(out, n, "%.10s", r->valuestring);
		return;
	}
	const char *kind = str(r, "kind", "type");
	double v;
	if (!kind)
		kind = "?";
	if (!strcmp(kind, "gem") || !strcmp(kind, "gems")) {
		if (num(r, &v, "gems", "value"))
			snprintf(out, n, "G%d", (int)v);
		else
			snprintf(out, n, "G");
	} else if (!strcmp(kind, "bar") || !strcmp(kind, "loot") || !strcmp(kind, "gold")) {
		if (num(r, &v, "value", "bar"))
			snprintf(out, n, "$%d", (int)v);
		else
			snprintf(out, n, "$");
	} else if (!strcmp(kind, "warning")) {
		snprintf(out, n, "W%d", num(r, &v, "warning", "message") ? (int)v + 1 : 0);
	} else if (!strcmp(kind, "lair") || !strcmp(kind, "spider")) {
		snprintf(out, n, "LAIR!");
	} else if (!strcmp(kind, "dead_spider")) {
		snprintf(out, n, "dead");
	} else {
		const char *a = str(r, "adventure", "label");
		snprintf(out, n, "%.7s", a ? a : kind);
	}
}

static void draw_title(struct scr *s, const struct tv *tv, const cJSON *v)
{
	double d = 0, depth = 0, brav = 0;
	char line[160];
	int n = snprintf(line, sizeof line, " lair  table %lld", (long long)tv->table);
	if (tv->name[0])
		n += snprintf(line + n, sizeof line - (size_t)n, " \"%.20s\"", tv->name);
	if (num(v, &d, "dungeon", NULL))
		n += snprintf(line + n, sizeof line - (size_t)n, "  dungeon %d/5", (int)d);
	if (num(v, &depth, "depth", "room"))
		n += snprintf(line + n, sizeof line - (size_t)n, "  room %d", (int)depth);
	if (num(v, &brav, "bravery", NULL))
		n += snprintf(line + n, sizeof line - (size_t)n, "  bravery %d", (int)brav);
	const char *adv = str(v, "adventure", NULL);
	if (adv)
		snprintf(line + n, sizeof line - (size_t)n, "  %s", adv);
	scr_fill(s, 0, 0, SA_REVERSE);
	scr_put(s, 0, 0, SA_REVERSE | SA_BOLD, line);
	if (tv->seat < 0)
		scr_put(s, 0, SCR_W - 10, SA_REVERSE, "[watching]");
}

static void draw_dungeon(struct scr *s, const cJSON *v)
{
	const cJSON *rooms = get(v, "rooms");
	if (!rooms)
		rooms = get(v, "path");
	int row = 1, col = scr_put(s, 1, 0, SA_BOLD, "Dungeon: ");
	const cJSON *r;
	int count = cJSON_GetArraySize(rooms);
	int skip = 0;
	/* Two rows of tokens at most: show the newest rooms when too many. */
	if (count > 26)
		skip = count - 26;
	if (skip)
		col = scr_put(s, row, col, SA_DIM, "... ");
	int i = 0;
	cJSON_ArrayForEach(r, rooms)
	{
		if (i++ < skip)
			continue;
		char tok[16];
		room_token(r, tok, sizeof tok);
		uint8_t a = tok[0] == 'L'	 ? SC_RED | SA_BOLD
			    : tok[0] == 'W' ? SC_YELLOW
			    : tok[0] == '$' ? SC_YELLOW | SA_BOLD
			    : tok[0] == 'G' ? SC_GREEN
					    : SC_CYAN;
		if (col + (int)strlen(tok) + 1 > SCR_W) {
			if (row == 2)
				break;
			row = 2;
			col = 9;
		}
		col = scr_put(s, row, col, a, tok);
		col = scr_put(s, row, col, 0, " ");
	}
	if (!count)
		scr_put(s, 1, col, SA_DIM, "(not entered yet)");
}

static void draw_floor(struct scr *s, const cJSON *v)
{
	double g = 0;
	char line[160];
	int n = snprintf(line, sizeof line, "Floor: %d gems",
			 num(v, &g, "floor_gems", NULL) ? (int)g : 0);
	const cJSON *floor = get(v, "floor");
	if (cJSON_IsObject(floor) && num(floor, &g, "gems", NULL))
		n = snprintf(line, sizeof line, "Floor: %d gems", (int)g);
	const cJSON *bars = get(v, "floor_bars");
	if (!bars && cJSON_IsObject(floor))
		bars = get(floor, "bars");
	const cJSON *b;
	int nb = 0;
	cJSON_ArrayForEach(b, bars)
	{
		if (cJSON_IsNumber(b))
			n += snprintf(line + n, sizeof line - (size_t)n, "%s$%d",
				      nb++ ? " " : ", bars ", b->valueint);
	}
	scr_put(s, 3, 0, SC_YELLOW, line);
	const cJSON *w = get(v, "warnings");
	int col = 36;
	if (cJSON_GetArraySize(w) > 0)
		col = scr_put(s, 3, col, SC_RED | SA_BOLD, "Warnings: ");
	const cJSON *it;
	int k = 0;
	cJSON_ArrayForEach(it, w)
	{
		char tok[16];
		const char *text = cJSON_IsString(it) ? it->valuestring : NULL;
		/* Warnings as W1..W5 on the floor row; their texts go to the log. */
		snprintf(tok, sizeof tok, "W%d ", ++k);
		col = scr_put(s, 3, col, SC_RED, text && strlen(text) < 12 ? text : tok);
	}
}

static void draw_hand(struct scr *s, const struct tv *tv, const cJSON *v, int show)
{
	if (!show) {
		scr_put(s, 4, 0, SA_DIM, "[H] hand icon: lair odds, rumored gems, expected value");
		return;
	}
	const cJSON *h = get(v, "hand_icon");
	if (!h)
		h = get(v, "odds");
	if (!cJSON_IsObject(h))
		h = v;
	double odds = NAN, rumor = NAN, ev = NAN;
	num(h, &odds, "lair_odds", "odds");
	num(h, &rumor, "rumor", NULL);
	num(h, &ev, "ev", "expected_value");
	char line[160];
	int n = snprintf(line, sizeof line, "Hand: ");
	n += isnan(odds) ? snprintf(line + n, sizeof line - (size_t)n, "lair odds -   ")
			 : snprintf(line + n, sizeof line - (size_t)n, "lair odds %.0f%%   ",
				    odds <= 1.0 ? odds * 100 : odds);
	n += isnan(rumor) ? snprintf(line + n, sizeof line - (size_t)n, "rumor -   ")
			  : snprintf(line + n, sizeof line - (size_t)n, "rumor %.1f gems   ", rumor);
	if (isnan(ev))
		snprintf(line + n, sizeof line - (size_t)n, "EV -");
	else
		snprintf(line + n, sizeof line - (size_t)n, "EV %+.1f", ev);
	scr_put(s, 4, 0, (!isnan(ev) && ev < 0) ? SC_RED | SA_BOLD : SC_GREEN | SA_BOLD, line);
	(void)tv;
}

/* The kind's per-seat object (view.seats[i] or view.players[i]). */
static const cJSON *vseat(const cJSON *v, int i)
{
	const cJSON *a = get(v, "seats");
	if (!a)
		a = get(v, "players");
	return cJSON_GetArrayItem(a, i);
}

static void draw_seats(struct scr *s, const struct tv *tv, const cJSON *v)
{
	scr_put(s, 5, 0, SA_BOLD,
		"  # PLAYER            INSIDE  HAND  CHEST  BARS  STATUS     NOTE");
	int n = tv->n_seats;
	const cJSON *vs0 = get(v, "seats");
	if (cJSON_GetArraySize(vs0) > n)
		n = MIN(cJSON_GetArraySize(vs0), TV_MAX_SEATS);
	for (int i = 0; i < n; i++) {
		const cJSON *vs = vseat(v, i);
		char tmp[32], line[120];
		double hand = -1, chest = 0, bars = 0, size = -1, owed = 0;
		const cJSON *inside = get(vs, "inside");
		int in = cJSON_IsBool(inside) ? cJSON_IsTrue(inside) : -1;
		num(vs, &hand, "hand", NULL);
		num(vs, &chest, "chest", "score");
		num(vs, &bars, "bars", NULL);
		num(vs, &size, "size", NULL);
		num(vs, &owed, "owed", NULL);
		const char *st = tv->status[i][0] ? tv->status[i] : "";
		if (!strcmp(st, "idle"))
			st = "";
		char handtxt[8];
		if (hand >= 0)
			snprintf(handtxt, sizeof handtxt, "%5d", (int)hand);
		else
			snprintf(handtxt, sizeof handtxt, "%5s", "?");
		char note[40] = "";
		int nn = 0;
		if (tv_seat_is_ai(tv, i))
			nn += snprintf(note + nn, sizeof note - (size_t)nn, "AI ");
		if (owed > 0)
			nn += snprintf(note + nn, sizeof note - (size_t)nn, "owes %d ", (int)owed);
		if (size >= 0 && (int)size != 4 && (int)size != 2)
			snprintf(note + nn, sizeof note - (size_t)nn, "size %d", (int)size);
		snprintf(line, sizeof line, "%s%d %-17.17s %-6s %s %6d %5d  %-10s %s",
			 i == tv->seat ? ">" : " ", i + 1, tv_seat_name(tv, i, tmp, sizeof tmp),
			 in < 0 ? "" : in ? "inside" : "out", handtxt, (int)chest, (int)bars, st,
			 note);
		uint8_t a = i == tv->seat ? SA_BOLD : 0;
		if (in == 0)
			a |= SA_DIM;
		scr_put(s, 6 + i, 0, a, line);
		/* status in colour: waiting yellow, selecting cyan, chosen green */
		int scol = 50;
		uint8_t sa = !strcmp(st, "chosen")	? SC_GREEN | SA_BOLD
			     : !strcmp(st, "selecting") ? SC_CYAN
			     : !strcmp(st, "waiting")	? SC_YELLOW
							: 0;
		if (sa)
			scr_put(s, 6 + i, scol, sa, st);
	}
}

static void draw_log(struct scr *s, const struct tv *tv, int first_row, int rows)
{
	int start = tv->log_len > rows ? tv->log_len - rows : 0;
	for (int r = 0; r < rows && start + r < tv->log_len; r++)
		scr_put(s, first_row + r, 1, 0, tv->log[start + r]);
}

static void draw_monte(struct scr *s, const struct tv *tv, int step)
{
	int pos[3];
	vg_monte_layout(tv, step, pos);
	int col = scr_put(s, 20, 0, SA_BOLD, "Three Card Monte: ");
	if (step == 0) {
		/* Face up before the shuffle: the left-most is the valuable one. */
		for (int i = 0; i < 3; i++) {
			char c[16];
			snprintf(c, sizeof c, "[%+d]", tv->monte_cards[i]);
			col = scr_put(s, 20, col, i == 0 ? SC_GREEN | SA_BOLD : 0, c);
			col = scr_put(s, 20, col, 0, "  ");
		}
		scr_put(s, 20, col, SA_DIM, "watch the left card...");
		return;
	}
	int a = tv->monte_swaps[step - 1][0], b = tv->monte_swaps[step - 1][1];
	for (int i = 0; i < 3; i++) {
		char c[16];
		snprintf(c, sizeof c, "[#%d]", i + 1);
		col = scr_put(s, 20, col, (i == a || i == b) ? SC_YELLOW | SA_BOLD : 0, c);
		col = scr_put(s, 20, col, 0, "  ");
	}
	scr_printf(s, 20, col, SC_YELLOW, "swap %d of %d: #%d <-> #%d", step, tv->monte_n,
		   a + 1, b + 1);
}

static void draw_reveal(struct scr *s, const struct tv *tv)
{
	const cJSON *ch = get(tv->reveal, "choices");
	char line[200];
	int n = snprintf(line, sizeof line, "Reveal:");
	const cJSON *it;
	int i = 0;
	cJSON_ArrayForEach(it, ch)
	{
		char tmp[32];
		const char *c = cJSON_IsString(it)		     ? it->valuestring
				: cJSON_IsObject(it) && str(it, "choice", "key") ? str(it, "choice", "key")
									: NULL;
		int seat = i;
		double sv;
		if (cJSON_IsObject(it) && num(it, &sv, "seat", NULL))
			seat = (int)sv;
		i++;
		if (!c)
			continue;
		n += snprintf(line + n, sizeof line - (size_t)n, " %s=%s",
			      tv_seat_name(tv, seat, tmp, sizeof tmp), c);
		if (n >= (int)sizeof line)
			break;
	}
	scr_put(s, 20, 0, SC_MAGENTA, line);
}

static void draw_options(struct scr *s, const struct tv *tv, const struct vg_ui *ui)
{
	char keys[32];
	int n = vg_option_keys(tv, keys, 32);
	if (n == 0) {
		const char *msg = tv->seat < 0		    ? "Watching."
				  : !strcmp(tv->state, "waiting") ? "Waiting for the host to start."
								  : "Waiting for the others...";
		scr_put(s, 21, 0, SA_DIM, msg);
	}
	int row = 21, col = 0;
	for (int i = 0; i < n; i++) {
		char item[64];
		snprintf(item, sizeof item, "[%c] %s", keys[i] ? keys[i] : '?',
			 tv_option_label(tv, i));
		if (col + (int)strlen(item) + 2 > SCR_W) {
			row++;
			col = 0;
			if (row > 22)
				break;
		}
		uint8_t a = i == tv->chosen ? SA_REVERSE | SC_GREEN : SA_BOLD;
		col = scr_put(s, row, col, a, item);
		col = scr_put(s, row, col, 0, "  ");
	}
	char line[120];
	int k = 0;
	if (tv->window_at && tv->window_at > ui->now)
		k = snprintf(line, sizeof line, "Everyone chose: %.1fs to change your mind  ",
			     (double)(tv->window_at - ui->now) / 1000.0);
	else if (tv->deadline_at && tv->options)
		k = snprintf(line, sizeof line, "%s %llus left  ",
			     tv->chosen >= 0 ? "Chosen; change with a key." : "Choose:",
			     (unsigned long long)(tv->deadline_at > ui->now
							  ? (tv->deadline_at - ui->now + 999) / 1000
							  : 0));
	else
		line[0] = '\0';
	snprintf(line + k, sizeof line - (size_t)k, "[H]and [Q]uit");
	scr_put(s, 23, 0, tv->window_at ? SC_CYAN | SA_BOLD : 0, line);
	if (ui->link_down)
		scr_put(s, 23, 50, SC_RED | SA_BOLD, "connection lost: resuming...");
	else if (ui->notice)
		scr_printf(s, 23, 40, SC_RED, "%.39s", ui->notice);
}

static void draw_result(struct scr *s, const struct tv *tv)
{
	const cJSON *r = tv->result;
	scr_put(s, 5, 0, SA_BOLD | SC_YELLOW, "GAME OVER");
	const cJSON *scores = get(r, "scores");
	const cJSON *winners = get(r, "winners");
	const cJSON *res = get(r, "result");
	if (!scores && cJSON_IsObject(res)) {
		scores = get(res, "scores");
		winners = get(res, "winners");
		r = res;
	}
	int is_winner[TV_MAX_SEATS] = {0};
	const cJSON *w;
	cJSON_ArrayForEach(w, winners)
	{
		if (cJSON_IsNumber(w) && w->valueint >= 0 && w->valueint < TV_MAX_SEATS)
			is_winner[w->valueint] = 1;
	}
	if (cJSON_IsNumber(winners)) /* a seat mask */
		for (int i = 0; i < TV_MAX_SEATS; i++)
			is_winner[i] = (winners->valueint >> i) & 1;
	int row = 6;
	for (int i = 0; i < cJSON_GetArraySize(scores) && row < 15; i++) {
		const cJSON *sc = cJSON_GetArrayItem(scores, i);
		char tmp[32];
		double v = cJSON_IsNumber(sc) ? sc->valuedouble : 0;
		if (cJSON_IsObject(sc))
			num(sc, &v, "score", "chest");
		scr_printf(s, row++, 2, is_winner[i] ? SC_GREEN | SA_BOLD : 0, "%s %-20s $%d%s",
			   i == tv->seat ? ">" : " ", tv_seat_name(tv, i, tmp, sizeof tmp), (int)v,
			   is_winner[i] ? "   WINNER" : "");
	}
	/* Achievements: {seat: [labels]} or [{seat, achievements:[...]}]. */
	const cJSON *ach = get(r, "achievements");
	int col = 0;
	row = MAX(row, 6) + 1;
	if (ach && row < 19) {
		col = scr_put(s, row, 0, SA_BOLD, "Achievements: ");
		const cJSON *it;
		int i = 0;
		cJSON_ArrayForEach(it, ach)
		{
			const cJSON *list = cJSON_IsArray(it) ? it : get(it, "achievements");
			int seat = it->string ? atoi(it->string) : i;
			double sv;
			if (cJSON_IsObject(it) && num(it, &sv, "seat", NULL))
				seat = (int)sv;
			i++;
			const cJSON *a;
			cJSON_ArrayForEach(a, list)
			{
				char tmp[32], item[80];
				const char *lab = cJSON_IsString(a) ? a->valuestring : str(a, "label", "key");
				snprintf(item, sizeof item, "%s: %s  ", tv_seat_name(tv, seat, tmp, sizeof tmp),
					 lab ? lab : "?");
				if (col + (int)strlen(item) > SCR_W) {
					if (++row > 18)
						break;
					col = 2;
				}
				col = scr_put(s, row, col, SC_MAGENTA, item);
			}
		}
	}
	scr_put(s, 19, 0, SA_DIM, "[Q] quit  [R] rematch (host)");
}

void vg_draw(struct scr *s, const struct tv *tv, const struct vg_ui *ui)
{
	const cJSON *v = tv->view;
	scr_clear(s);
	draw_title(s, tv, v);
	draw_dungeon(s, v);
	draw_floor(s, v);
	if (tv->result) {
		draw_result(s, tv);
		draw_log(s, tv, 20, 2);
		scr_put(s, 23, 0, 0, "[Q]uit");
		return;
	}
	draw_hand(s, tv, v, ui->show_hand);
	draw_seats(s, tv, v);
	draw_log(s, tv, 15, 5);
	if (ui->monte_step >= 0 && tv->monte_n > 0)
		draw_monte(s, tv, ui->monte_step);
	else if (tv->reveal)
		draw_reveal(s, tv);
	draw_options(s, tv, ui);
}

int vg_event_line(const cJSON *ev, const struct tv *tv, char *out, size_t out_len)
{
	(void)tv;
	const char *text = str(ev, "text", "message");
	if (text) {
		snprintf(out, out_len, "%s", text);
		return 1;
	}
	const char *type = str(ev, "type", "event");
	if (!type)
		return 0;
	/* No text from the kind: the type and its numbers, compactly. */
	int n = snprintf(out, out_len, "%s", type);
	const cJSON *it;
	cJSON_ArrayForEach(it, ev)
	{
		if (!it->string || !strcmp(it->string, "type") || !strcmp(it->string, "event"))
			continue;
		if (cJSON_IsNumber(it))
			n += snprintf(out + n, out_len - (size_t)MIN((size_t)n, out_len), " %s=%g",
				      it->string, it->valuedouble);
		else if (cJSON_IsString(it))
			n += snprintf(out + n, out_len - (size_t)MIN((size_t)n, out_len), " %s=%s",
				      it->string, it->valuestring);
		if ((size_t)n >= out_len)
			break;
	}
	return 1;
}
