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
 *
 * Long (800 lines) on purpose: one screen, row by row as above, and the
 * log line of each gems event (proto/kinds/gems.md's table), which read
 * the same view; view_deepfall.c and view_crawl.c are its peers.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "../proto/proto_msg.h"
#include "view_gems.h"
#include "view_json.h"


/* Counts the screen shows (gems, bars, rooms): whole numbers within
 * ±VIEW_GEMS_NUM_MAX, so that the (int) casts below are defined; anything else
 * the server might send (2.5, 1e300, a string) reads as absent. */
#define VIEW_GEMS_NUM_MAX 1000000000LL

static int int_item(const cJSON *v, double *out)
{
	int64_t x;
	if (!proto_json_int(v, -VIEW_GEMS_NUM_MAX, VIEW_GEMS_NUM_MAX, &x))
		return 0;
	*out = (double)x;
	return 1;
}

/* The first of the names that is a whole number in range. */
static int num(const cJSON *o, double *out, const char *a, const char *b)
{
	return int_item(get(o, a), out) || (b && int_item(get(o, b), out));
}

/* A fraction (odds, rumor, EV): finite and within ±VIEW_GEMS_NUM_MAX. */
static int fnum(const cJSON *o, double *out, const char *a)
{
	const cJSON *v = get(o, a);
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
	    fabs(v->valuedouble) > (double)VIEW_GEMS_NUM_MAX)
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
	{"leave", 'L'}, {"stay", 'S'}, {"bank4", '4'}, {"bank8", '8'}, {"bank12", 'T'},
	{"sun", 'U'}, {"moon", 'M'}, {"pay", 'P'}, {"card1", '1'}, {"card2", '2'},
	{"card3", '3'}, {"left", 'A'}, {"right", 'D'}, {"eat", 'E'}, {"devil3", 'X'},
	{"devil4", 'Y'}, {"devil5", 'Z'}, {"carry", 'C'},  {"poison", 'O'},
};

/* Keys the screen keeps for itself. */
static int reserved(char k)
{
	return k == 'H' || k == 'Q' || k == 'R';
}

char view_gems_choice_key(const char *choice)
{
	if (!choice)
		return 0;
	for (size_t i = 0; i < ARRAY_LEN(keymap); i++)
		if (strcmp(keymap[i].choice, choice) == 0)
			return keymap[i].key;
	return 0;
}

int view_gems_option_keys(const struct tv *tv, char *keys, int max)
{
	int n = MIN(tv_n_options(tv), max);
	char used[128] = {0};
	for (int i = 0; i < n; i++) {
		keys[i] = view_gems_choice_key(tv_option_key(tv, i));
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

int view_gems_option_for_key(const struct tv *tv, int key)
{
	char keys[32];
	int n = view_gems_option_keys(tv, keys, 32);
	key = toupper(key);
	for (int i = 0; i < n; i++)
		if (keys[i] && keys[i] == key)
			return i;
	return -1;
}

void view_gems_monte_layout(const struct tv *tv, int step, int pos[3])
{
	pos[0] = 0, pos[1] = 1, pos[2] = 2;
	for (int i = 0; i < step && i < tv->monte_n; i++) {
		int a = tv->monte_swaps[i][0], b = tv->monte_swaps[i][1];
		int t = pos[a];
		pos[a] = pos[b];
		pos[b] = t;
	}
}

/* The warnings' messages (docs/rules/gems.md, G7) in a word each, for the dungeon row. */
static const char *warning_word(const char *msg)
{
	static const struct {
		const char *needle, *word;
	} w[] = {{"Beware", "Beware!"},	   {"giant", "Giant!"}, {"venomous", "Venom!"},
		 {"eats humans", "Eats!"}, {"Abandon", "Abandon!"}};
	for (size_t i = 0; msg && i < ARRAY_LEN(w); i++)
		if (strstr(msg, w[i].needle))
			return w[i].word;
	return "Warn!";
}

/* A short adventure name (gems.md ids). */
static const char *adv_short(const char *id)
{
	static const struct {
		const char *id, *label;
	} a[] = {{"banker", "Banker"},	   {"sun_moon", "Sun&Moon"}, {"ferryman", "Ferryman"},
		 {"monte", "Monte"},	   {"sphinx", "Sphinx"},     {"scout", "Scout"},
		 {"mushroom", "Mushroom"}, {"poison", "Poison"},     {"devil", "Devil"},
		 {"little_people", "Little People"}};
	for (size_t i = 0; id && i < ARRAY_LEN(a); i++)
		if (!strcmp(a[i].id, id))
			return a[i].label;
	return id ? id : "?";
}

/* A short token for one room of the dungeon so far (view.path[]). */
static void room_token(const cJSON *r, char *out, size_t n)
{
	const char *kind = str(r, "kind", NULL);
	double v = 0;
	if (!kind)
		kind = "?";
	/* num() before snprintf: argument evaluation order is unspecified. */
	if (!strcmp(kind, "gem")) {
		int have = num(r, &v, "gems", NULL);
		snprintf(out, n, have ? "G%d" : "G", (int)v);
	} else if (!strcmp(kind, "bar") || !strcmp(kind, "gold_bar")) {
		int have = num(r, &v, "value", NULL);
		snprintf(out, n, have ? "$%d" : "$", (int)v);
	}
	else if (!strcmp(kind, "warning"))
		snprintf(out, n, "%s", warning_word(str(r, "message", NULL)));
	else if (!strcmp(kind, "lair"))
		snprintf(out, n, "LAIR!");
	else if (!strcmp(kind, "dead_spider"))
		snprintf(out, n, "DeadSpider");
	else if (!strcmp(kind, "adventure"))
		snprintf(out, n, "%.12s", adv_short(str(r, "adventure", NULL)));
	else
		snprintf(out, n, "%.10s", kind);
}

static void draw_title(struct scr *s, const struct tv *tv, const cJSON *v)
{
	double d = 0, depth = 0, brav = 0;
	char line[160];
	int n = snprintf(line, sizeof line, " lair  table %lld", (long long)tv->table);
	if (tv->name[0])
		n += snprintf(line + n, sizeof line - (size_t)n, " \"%.16s\"", tv->name);
	if (num(v, &d, "dungeon", NULL))
		n += snprintf(line + n, sizeof line - (size_t)n, "  dungeon %d/5", (int)d);
	if (num(v, &depth, "depth", NULL))
		n += snprintf(line + n, sizeof line - (size_t)n, "  room %d", (int)depth);
	if (num(v, &brav, "bravery", NULL))
		n += snprintf(line + n, sizeof line - (size_t)n, "  bravery %d", (int)brav);
	const char *adv = str(v, "adventure", NULL);
	if (adv)
		snprintf(line + n, sizeof line - (size_t)n, "  %s", adv_short(adv));
	scr_fill(s, 0, 0, SA_REVERSE);
	scr_put(s, 0, 0, SA_REVERSE | SA_BOLD, line);
	if (tv->seat < 0)
		scr_put(s, 0, SCR_W - 10, SA_REVERSE, "[watching]");
}

/* Rows 1-2: the rooms met in this dungeon, newest last. */
static void draw_dungeon(struct scr *s, const cJSON *v)
{
	const cJSON *rooms = get(v, "path");
	int count = cJSON_GetArraySize(rooms);
	char toks[64][16];
	int n = 0;
	const cJSON *r;
	cJSON_ArrayForEach(r, rooms)
	{
		if (n == 64)
			break;
		room_token(r, toks[n++], sizeof toks[0]);
	}
	/* Fit two rows: drop the oldest rooms when there are too many. */
	int first = 0, width = 0;
	for (int i = n - 1; i >= 0; i--) {
		width += (int)strlen(toks[i]) + 1;
		if (width > 2 * (SCR_W - 13)) {
			first = i + 1;
			break;
		}
	}
	int row = 1, col = scr_put(s, 1, 0, SA_BOLD, "Dungeon: ");
	if (first)
		col = scr_put(s, row, col, SA_DIM, "... ");
	for (int i = first; i < n; i++) {
		const char *rk = str(cJSON_GetArrayItem(rooms, i), "kind", NULL);
		rk = rk ? rk : "";
		uint8_t a = !strcmp(rk, "lair")	      ? SC_RED | SA_BOLD | SA_REVERSE
			    : !strcmp(rk, "warning")  ? SC_RED
			    : !strcmp(rk, "bar")      ? SC_YELLOW | SA_BOLD
			    : !strcmp(rk, "gold_bar") ? SC_YELLOW | SA_BOLD
			    : !strcmp(rk, "gem")      ? SC_GREEN
						      : SC_CYAN;
		if (col + (int)strlen(toks[i]) + 1 > SCR_W) {
			if (row == 2)
				break;
			row = 2;
			col = 9;
		}
		col = scr_put(s, row, col, a, toks[i]);
		col = scr_put(s, row, col, 0, " ");
	}
	if (!count)
		scr_put(s, 1, col, SA_DIM, "(not entered yet)");
}

/* Row 3 left: the floor (gems and bars left behind). */
static void draw_floor(struct scr *s, const cJSON *v)
{
	const cJSON *floor = get(v, "floor");
	double g = 0;
	char line[160];
	num(floor, &g, "gems", NULL);
	int n = snprintf(line, sizeof line, "Floor: %d gem%s", (int)g, (int)g == 1 ? "" : "s");
	const cJSON *b;
	int nb = 0;
	const cJSON *bars = get(floor, "bars");
	if (!bars)
		bars = get(floor, "gold_bars"); /* gems.md before 886c382 */
	cJSON_ArrayForEach(b, bars)
	{
		double bv = 0;
		if (!int_item(b, &bv))
			num(b, &bv, "value", NULL);
		n += snprintf(line + n, sizeof line - (size_t)n, "%s$%d", nb++ ? " " : ", bars ",
			      (int)bv);
		if (n >= 38)
			break;
	}
	scr_printf(s, 3, 0, SC_YELLOW, "%.39s", line);
}

/* Row 4: the current room in words (view.room). */
static void draw_room(struct scr *s, const cJSON *v)
{
	const cJSON *r = get(v, "room");
	const char *kind = str(r, "kind", NULL);
	const char *phase = str(v, "phase", NULL);
	char line[160] = "";
	double a = 0, b = 0;
	if (!kind)
		return;
	if (phase && !strcmp(phase, "coin_room")) {
		snprintf(line, sizeof line, "Sphinx coin room: stay or leave with your coins.");
	} else if (!strcmp(kind, "gem") && num(r, &a, "gems", NULL)) {
		snprintf(line, sizeof line, "A gem room: %d gems.", (int)a);
	} else if ((!strcmp(kind, "bar") || !strcmp(kind, "gold_bar")) &&
		   num(r, &a, "value", NULL)) {
		snprintf(line, sizeof line, "A gold bar worth $%d.", (int)a);
	} else if (!strcmp(kind, "warning")) {
		const char *m = str(r, "message", NULL);
		snprintf(line, sizeof line, "%s", m ? m : "A warning.");
	} else if (!strcmp(kind, "lair")) {
		snprintf(line, sizeof line, "THE SPIDER'S LAIR!");
	} else if (!strcmp(kind, "dead_spider")) {
		snprintf(line, sizeof line, "A dead spider: someone poisoned it.");
	} else if (!strcmp(kind, "adventure")) {
		const char *adv = str(r, "adventure", NULL);
		int n = snprintf(line, sizeof line, "%s", adv_short(adv));
		if (num(r, &a, "part", NULL))
			n += snprintf(line + n, sizeof line - (size_t)n, " (part %d)", (int)a);
		if (num(r, &a, "spider_at", NULL) && num(r, &b, "within", NULL))
			snprintf(line + n, sizeof line - (size_t)n,
				 ": the spider is at room %d, give or take %d%s", (int)a, (int)b,
				 cJSON_IsNull(get(r, "minimum")) ? " (it may be next!)" : ".");
		else if (num(r, &a, "amount", NULL))
			snprintf(line + n, sizeof line - (size_t)n,
				 ": one pays %d gems, one takes %d.",
				 (int)a, (int)a);
		else if (num(r, &a, "toll", NULL))
			snprintf(line + n, sizeof line - (size_t)n, ": the toll is %d gems.",
				 (int)a);
		else if (num(r, &a, "coins_low", NULL) && num(r, &b, "coins_high", NULL))
			snprintf(line + n, sizeof line - (size_t)n,
				 ": one path holds %d coins, the other %d.", (int)a, (int)b);
	}
	scr_put(s, 4, 0, SC_CYAN, line);
}

/* The kind's per-seat object (view.players[i]). */
static const cJSON *vseat(const cJSON *v, int i)
{
	return cJSON_GetArrayItem(get(v, "players"), i);
}

/* Row 3 right: the design's "hand icon": lair odds, rumored gems, our EV. */
static void draw_hand(struct scr *s, const struct tv *tv, const cJSON *v, int show)
{
	if (!show) {
		scr_put(s, 3, 40, SA_DIM, "[H] hand icon: odds, rumor, EV");
		return;
	}
	const cJSON *odds = get(v, "odds");
	const cJSON *me = tv->seat >= 0 ? vseat(v, tv->seat) : NULL;
	double lair = NAN, rumor = NAN, ev = NAN;
	fnum(odds, &lair, "lair");
	fnum(odds, &rumor, "rumor");
	if (!fnum(odds, &ev, "ev")) /* the viewer's own EV */
		fnum(me, &ev, "ev");
	char line[160];
	int n = snprintf(line, sizeof line, "Hand: ");
	n += isnan(lair) ? snprintf(line + n, sizeof line - (size_t)n, "lair -  ")
			 : snprintf(line + n, sizeof line - (size_t)n, "lair %.0f%%  ", lair * 100);
	n += isnan(rumor) ? snprintf(line + n, sizeof line - (size_t)n, "rumor -  ")
			  : snprintf(line + n, sizeof line - (size_t)n, "rumor %.1f  ", rumor);
	if (isnan(ev))
		snprintf(line + n, sizeof line - (size_t)n, "EV -");
	else
		snprintf(line + n, sizeof line - (size_t)n, "EV %+.1f", ev);
	scr_put(s, 3, 40, (!isnan(ev) && ev < 0) ? SC_RED | SA_BOLD : SC_GREEN | SA_BOLD, line);
}

/* Rows 5-14: every seat: inside or out, hand, chest, bars, status. */
static void draw_seats(struct scr *s, const struct tv *tv, const cJSON *v)
{
	scr_put(s, 5, 0, SA_BOLD,
		"  # PLAYER            INSIDE  HAND  CHEST  BARS  STATUS     NOTE");
	int n = tv->n_seats;
	if (cJSON_GetArraySize(get(v, "players")) > n)
		n = MIN(cJSON_GetArraySize(get(v, "players")), TV_MAX_SEATS);
	for (int i = 0; i < n; i++) {
		const cJSON *vs = vseat(v, i);
		char tmp[32], line[120], handtxt[8], note[40] = "";
		double hand = -1, chest = 0, bars = 0, size = 4, owed = 0, qn = 0, ch = 0;
		const cJSON *inside = get(vs, "inside");
		int in = cJSON_IsBool(inside) ? cJSON_IsTrue(inside) : -1;
		num(vs, &hand, "hand", NULL);
		num(vs, &chest, "chest", NULL);
		/* gems.md names; the second ones are its first edition's. */
		num(vs, &bars, "bars", "gold_bars");
		num(vs, &size, "size", "share_weight");
		num(vs, &owed, "owed", "devil_owed");
		num(vs, &qn, "queens", NULL);
		num(vs, &ch, "changelings", NULL);
		const char *st = tv->status[i];
		if (!strcmp(st, "idle"))
			st = "";
		if (hand >= 0)
			snprintf(handtxt, sizeof handtxt, "%5d", (int)hand);
		else
			snprintf(handtxt, sizeof handtxt, "%5s", "-");
		/* The note column has 21 characters: short forms (the name says AI). */
		int nn = 0;
		if (owed > 0)
			nn += snprintf(note + nn, sizeof note - (size_t)nn, "owes %d ", (int)owed);
		if ((int)size != 4)
			nn += snprintf(note + nn, sizeof note - (size_t)nn, "%s ",
				       size >= 16  ? "huge"
				       : size > 4  ? "big"
				       : size <= 1 ? "tiny"
						   : "small");
		if (qn > 0)
			nn += snprintf(note + nn, sizeof note - (size_t)nn, "Q%d ", (int)qn);
		if (ch > 0)
			snprintf(note + nn, sizeof note - (size_t)nn, "C%d", (int)ch);
		snprintf(line, sizeof line, "%s%d %-17.17s %-6s %s %6d %5d  %-10s %.21s",
			 i == tv->seat ? ">" : " ", i + 1, tv_seat_name(tv, i, tmp, sizeof tmp),
			 in < 0 ? "" : in ? "inside" : "out", handtxt, (int)chest, (int)bars, st,
			 note);
		uint8_t a = i == tv->seat ? SA_BOLD : 0;
		if (in == 0)
			a |= SA_DIM;
		scr_put(s, 6 + i, 0, a, line);
		uint8_t sa = !strcmp(st, "chosen")	? SC_GREEN | SA_BOLD
			     : !strcmp(st, "selecting") ? SC_CYAN
			     : !strcmp(st, "waiting")	? SC_YELLOW
							: 0;
		if (sa)
			scr_put(s, 6 + i, 48, sa, st);
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
	view_gems_monte_layout(tv, step, pos);
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
		const cJSON *cj = cJSON_IsObject(it) ? get(it, "choice") : it;
		const char *c = cJSON_IsString(cj) ? cj->valuestring
				: cJSON_IsObject(cj)  ? str(cj, "id", NULL)
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
	(void)num;
}

static void draw_options(struct scr *s, const struct tv *tv, const struct view_ui *ui)
{
	char keys[32];
	int n = view_gems_option_keys(tv, keys, 32);
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
	view_footer(s, tv, ui, tv->chosen >= 0 ? "Chosen; change with a key." : "Choose:",
		    "[H]and [Q]uit");
}

/* gems.md's achievement keys as the design names them, and a short form
 * for a row where the full names do not fit. */
static const char *achievement_label(const char *key, int brief)
{
	static const struct {
		const char *key, *label, *brief;
	} a[] = {{"highest_score", "Highest Score", "Best"},
		 {"deepest_explorer", "Deepest Explorer", "Deepest"},
		 {"most_gems_lost", "Most Gems Lost", "MostLost"},
		 {"bold", "Bold", "Bold"},
		 {"timid", "Timid", "Timid"},
		 {"psychic", "Psychic", "Psychic"},
		 {"skynet", "Skynet", "Skynet"}};
	for (size_t i = 0; i < ARRAY_LEN(a); i++)
		if (!strcmp(a[i].key, key))
			return brief ? a[i].brief : a[i].label;
	return key;
}

/* A seat's achievements in at most `width` columns: the full names joined
 * by ", " when they fit, else the short forms joined by " " (all seven fit
 * in 42 columns). */
static void achievements_text(const cJSON *list, int width, char *out, size_t n)
{
	for (int brief = 0; brief < 2; brief++) {
		size_t len = 0;
		out[0] = '\0';
		const cJSON *a;
		cJSON_ArrayForEach(a, list)
		{
			if (!cJSON_IsString(a))
				continue;
			int k = snprintf(out + len, n - len, "%s%s", len ? (brief ? " " : ", ") : "",
					 achievement_label(a->valuestring, brief));
			if (k < 0 || (size_t)k >= n - len)
				break;
			len += (size_t)k;
		}
		if ((int)len <= width)
			return;
	}
}

/* Rows 5-19 at the end: scores, winners, achievements, the dungeons; every
 * row within the 80 columns, all five dungeons even with nine seats. */
static void draw_result(struct scr *s, const struct tv *tv)
{
	const cJSON *r = tv->result;
	double ws = 0;
	scr_put(s, 5, 0, SA_BOLD | SC_YELLOW, "GAME OVER");
	if (num(r, &ws, "winning_score", NULL))
		scr_printf(s, 5, 12, SA_BOLD, "winning score $%d", (int)ws);
	int row = 6;
	const cJSON *seat;
	cJSON_ArrayForEach(seat, get(r, "seats"))
	{
		if (row > 14)
			break;
		double si = 0, sc = 0, gb = 0;
		num(seat, &si, "seat", NULL);
		num(seat, &sc, "score", NULL);
		num(seat, &gb, "bars", "gold_bars");
		int win = cJSON_IsTrue(get(seat, "winner"));
		char tmp[32], head[64], ach[128];
		int used = snprintf(head, sizeof head, "%s%d %-13.13s $%-4d %2d bars %-6s ",
				    (int)si == tv->seat ? ">" : " ", (int)si + 1,
				    tv_seat_name(tv, (int)si, tmp, sizeof tmp), (int)sc, (int)gb,
				    win ? "WINNER" : "");
		achievements_text(get(seat, "achievements"), SCR_W - used, ach, sizeof ach);
		scr_printf(s, row++, 0, win ? SC_GREEN | SA_BOLD : 0, "%s%s", head, ach);
	}
	row++;
	int n_dungeons = cJSON_GetArraySize(get(r, "dungeons"));
	int two_columns = row + n_dungeons - 1 > 19; /* nine seats: two a row */
	int d = 0;
	const cJSON *dg;
	cJSON_ArrayForEach(dg, get(r, "dungeons"))
	{
		double depth = 0;
		num(dg, &depth, "depth", NULL);
		const char *end = str(dg, "end", NULL);
		int lair = end && !strcmp(end, "lair"), left = end && !strcmp(end, "all_left");
		const char *adv = adv_short(str(dg, "adventure", NULL));
		d++;
		if (two_columns && row <= 19)
			scr_printf(s, row, (d - 1) % 2 ? 41 : 2, SA_DIM, "%d: %-13.13s %2d rooms, %s",
				   d, adv, (int)depth, lair ? "lair" : left ? "all left" : "ran out");
		else if (row <= 19)
			scr_printf(s, row, 2, SA_DIM, "dungeon %d: %-13s %2d rooms, %s", d, adv,
				   (int)depth, lair ? "the spider's lair" : left ? "everyone left"
										: "the dungeon ran out");
		if (!two_columns || d % 2 == 0)
			row++;
	}
}

void view_gems_draw(struct scr *s, const struct tv *tv, const struct view_ui *ui)
{
	const cJSON *v = tv->view;
	scr_clear(s);
	draw_title(s, tv, v);
	if (!tv->result) {
		draw_dungeon(s, v);
		draw_floor(s, v);
	}
	if (tv->result) {
		draw_result(s, tv);
		draw_log(s, tv, 20, 2);
		scr_put(s, 23, 0, 0, "[R]ematch (host)  [L]obby  [Q]uit");
		return;
	}
	draw_hand(s, tv, v, ui->show_hand);
	draw_room(s, v);
	draw_seats(s, tv, v);
	draw_log(s, tv, 15, 5);
	if (ui->monte_step >= 0 && tv->monte_n > 0)
		draw_monte(s, tv, ui->monte_step);
	else if (tv->reveal)
		draw_reveal(s, tv);
	draw_options(s, tv, ui);
}

/* A seat's name for event lines. */
static const char *who(const cJSON *ev, const struct tv *tv, char *tmp, size_t n)
{
	double seat = -1;
	if (!num(ev, &seat, "seat", NULL) || seat < 0)
		return "?";
	if ((int)seat == tv->seat)
		return "You";
	return tv_seat_name(tv, (int)seat, tmp, n);
}

int view_gems_event_line(const cJSON *ev, const struct tv *tv, char *out, size_t out_len)
{
	const char *type = str(ev, "type", NULL);
	char w[32];
	double a = 0, b = 0;
	if (!type)
		return 0;
	const char *name = who(ev, tv, w, sizeof w);
	if (!strcmp(type, "dungeon_start")) {
		num(ev, &a, "dungeon", NULL);
		snprintf(out, out_len, "== Dungeon %d of 5 ==", (int)a);
	} else if (!strcmp(type, "gems")) {
		num(ev, &a, "gems", NULL);
		num(ev, &b, "floor", NULL);
		snprintf(out, out_len, "%d gems found, %d left on the floor.", (int)a, (int)b);
	} else if (!strcmp(type, "gold_bar")) {
		num(ev, &a, "value", NULL);
		snprintf(out, out_len, "A gold bar worth $%d.", (int)a);
	} else if (!strcmp(type, "warning")) {
		const char *m = str(ev, "message", NULL);
		snprintf(out, out_len, "%s", m ? m : "A warning!");
	} else if (!strcmp(type, "lair")) {
		snprintf(out, out_len, "THE SPIDER'S LAIR! Everyone inside runs out.");
	} else if (!strcmp(type, "scared")) {
		num(ev, &a, "gems_lost", NULL);
		snprintf(out, out_len, "%s lost %d gems to the spider.", name, (int)a);
	} else if (!strcmp(type, "dead_spider")) {
		snprintf(out, out_len, "A dead spider: the poison worked.");
	} else if (!strcmp(type, "poison")) {
		num(ev, &a, "poisons_unused", NULL);
		snprintf(out, out_len, "A bottle of poison: %d unused.", (int)a);
	} else if (!strcmp(type, "bats")) {
		num(ev, &a, "depth", NULL);
		snprintf(out, out_len, "Bats fly overhead (room %d).", (int)a);
	} else if (!strcmp(type, "ferry_grant")) {
		num(ev, &a, "toll", NULL);
		snprintf(out, out_len, "The Ferryman grants %d gems to every hand inside.", (int)a);
	} else if (!strcmp(type, "ferry_pay")) {
		num(ev, &a, "paid", NULL);
		snprintf(out, out_len, "%s paid the Ferryman %d.", name, (int)a);
	} else if (!strcmp(type, "little_people")) {
		num(ev, &a, "paid", NULL);
		num(ev, &b, "stolen", NULL);
		snprintf(out, out_len, "%s's little people: +%d from Queens, -%d to Changelings.", name,
			 (int)a, (int)b);
	} else if (!strcmp(type, "sun_moon_seat")) {
		num(ev, &a, "gems", NULL);
		snprintf(out, out_len, "%s %s %d gems.", name, a >= 0 ? "won" : "lost",
			 (int)fabs(a));
	} else if (!strcmp(type, "monte_reveal")) {
		const cJSON *c = get(ev, "cards");
		double v[3] = {0, 0, 0};
		for (int i = 0; i < 3; i++)
			int_item(cJSON_GetArrayItem(c, i), &v[i]);
		snprintf(out, out_len, "The cards were: %+d %+d %+d.", (int)v[0], (int)v[1],
			 (int)v[2]);
	} else if (!strcmp(type, "sphinx")) {
		const char *p = str(ev, "double_path", NULL);
		num(ev, &a, "n", NULL);
		snprintf(out, out_len, "The Sphinx: the %s path paid double (%d coins).",
			 p && !strcmp(p, "right") ? "right" : "left", 2 * (int)a);
	} else if (!strcmp(type, "mushroom")) {
		const char *e = str(ev, "eaters", NULL);
		snprintf(out, out_len, "The eaters %s.", e && !strcmp(e, "shrink") ? "shrink" : "grow");
	} else if (!strcmp(type, "reveal_adventure")) {
		snprintf(out, out_len, "This dungeon's adventure was %s.",
			 adv_short(str(ev, "adventure", NULL)));
	} else if (!strcmp(type, "reveal_room")) {
		char tok[32];
		num(ev, &a, "depth", NULL);
		if (num(ev, &b, "level", NULL)) /* a gem room: its level, not its gems */
			snprintf(tok, sizeof tok, "G level %d", (int)b);
		else
			room_token(ev, tok, sizeof tok);
		snprintf(out, out_len, "Room %d would have been: %s", (int)a, tok);
	} else if (!strcmp(type, "adventure")) {
		num(ev, &a, "part", NULL);
		snprintf(out, out_len, "Adventure: %s (part %d).",
			 adv_short(str(ev, "adventure", NULL)), (int)a);
	} else if (!strcmp(type, "monte_deal")) {
		snprintf(out, out_len, "The dealer shows three cards: watch the left one!");
	} else if (!strcmp(type, "monte_seat")) {
		num(ev, &a, "card", NULL);
		num(ev, &b, "gems", NULL);
		snprintf(out, out_len, "%s picked card #%d: %+d gems.", name, (int)a, (int)b);
	} else if (!strcmp(type, "scout")) {
		num(ev, &a, "spider_at", NULL);
		num(ev, &b, "within", NULL);
		snprintf(out, out_len, "Scout: the spider is at room %d, give or take %d.", (int)a,
			 (int)b);
	} else if (!strcmp(type, "sun_moon")) {
		num(ev, &a, "amount", NULL);
		const char *p = str(ev, "pays", NULL);
		snprintf(out, out_len, "The %s pays %d gems.",
			 p && !strcmp(p, "moon") ? "Moon" : "Sun", (int)a);
	} else if (!strcmp(type, "bank")) {
		num(ev, &a, "gems", NULL);
		num(ev, &b, "cash", NULL);
		snprintf(out, out_len, "%s banked %d gems for $%d.", name, (int)a, (int)b);
	} else if (!strcmp(type, "devil")) {
		num(ev, &a, "rooms", NULL);
		num(ev, &b, "cash", NULL);
		snprintf(out, out_len, "%s made a deal: %d rooms for $%d.", name, (int)a, (int)b);
	} else if (!strcmp(type, "carry")) {
		const char *p = str(ev, "people", NULL);
		snprintf(out, out_len, "The little people are %s.", p ? p : "?");
	} else if (!strcmp(type, "leave")) {
		num(ev, &a, "hand", NULL);
		num(ev, &b, "floor_gems", NULL);
		snprintf(out, out_len, "%s left with %d gems (+%d from the floor).", name, (int)a,
			 (int)b);
	} else if (!strcmp(type, "leave_bar")) {
		num(ev, &a, "value", NULL);
		snprintf(out, out_len, "%s carried out a $%d gold bar.", name, (int)a);
	} else if (!strcmp(type, "coins")) {
		num(ev, &a, "coins", NULL);
		snprintf(out, out_len, "%s took %d Sphinx coins.", name, (int)a);
	} else if (!strcmp(type, "dungeon_end")) {
		num(ev, &a, "depth", NULL);
		const char *e = str(ev, "end", NULL);
		snprintf(out, out_len, "Dungeon over after %d rooms (%s).", (int)a,
			 e && !strcmp(e, "lair")	  ? "the lair"
			 : e && !strcmp(e, "all_left") ? "all left"
						       : "exhausted");
	} else if (!strcmp(type, "game_over")) {
		num(ev, &a, "winning_score", NULL);
		snprintf(out, out_len, "Game over: the winning score is $%d.", (int)a);
	} else {
		/* game_start, room, share, choice, size, bravery: the screen shows
		 * them (tests/kind_events.json says where). */
		return 0;
	}
	return 1;
}
