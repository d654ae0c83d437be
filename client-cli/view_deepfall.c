/*
 * view_deepfall.c — the deepfall screen and its choice form (see
 * view_deepfall.h). Layout of the 80×24 grid:
 *   0      title: table, name, round
 *   1      the Maw: frontier, carried progress, speed (this round's, last
 *          round's), the floors it eats this round
 *   2-9    the live floors (the deepest 8 when there are more), a row each:
 *          the parties on it, plunder waiting there, then its rooms
 *   10     the seats' heading; 11.. a row per seat
 *   ..19   the newest events in the rows left, a line for every event
 *   20     your party's deepest floor, hand, moves, bag, discard, wounded
 *          dice and denizen anger
 *   21     this round's turn: hands, symbols after Dread, Setbacks, the
 *          trinity, [P]
 *   22     the act form (or the act we sent)
 *   23     the countdown, the notice
 * Every number of the view is read through proto_json_int (or a bounded
 * double): the server is not trusted to send sane ones.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "../proto/proto_msg.h"
#include "view_deepfall.h"
#include "view_json.h"

#define FLOORS_MAX 99        /* tolerant of a config above today's 12 */
#define FLOOR_ROWS 8

const char *const view_deepfall_exit_names[VIEW_DEEPFALL_NEXIT] = {"persist", "cash_out",
								   "last_stand"};

/* A fraction (the Maw's speeds): finite and within ±VIEW_NUM_MAX, else dflt. */
static double fval(const cJSON *o, const char *k, double dflt)
{
	const cJSON *v = get(o, k);
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
	    fabs(v->valuedouble) > (double)VIEW_NUM_MAX)
		return dflt;
	return v->valuedouble;
}


/* The view's player object of a seat (by its "seat", else by position). */
static const cJSON *vplayer(const cJSON *view, int seat)
{
	const cJSON *it, *players = get(view, "players");
	cJSON_ArrayForEach(it, players)
	{
		if (ival(it, "seat", 0, TV_MAX_SEATS - 1, -1) == seat)
			return it;
	}
	return NULL;
}

static const cJSON *vparty(const cJSON *view, int seat)
{
	const cJSON *p = get(vplayer(view, seat), "party");
	return cJSON_IsObject(p) ? p : NULL;
}

/* ---- the form ---- */

struct df_opts {
	int tmin, tmax, can_press, can_recruit;
	int exits; /* bit i: view_deepfall_exit_names[i] is offered */
};

static int read_opts(const struct tv *tv, struct df_opts *o)
{
	if (tv->seat < 0 || tv->result)
		return 0;
	const cJSON *f = cJSON_GetArrayItem(tv->options, 0);
	if (!cJSON_IsObject(f))
		return 0;
	const cJSON *t = get(f, "target");
	o->tmin = ival(t, "min", 1, FLOORS_MAX, -1);
	o->tmax = ival(t, "max", 1, FLOORS_MAX, -1);
	if (o->tmin < 0 || o->tmax < o->tmin)
		return 0;
	o->can_press = cJSON_IsTrue(get(f, "press"));
	o->can_recruit = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, get(f, "recruit"))
	{
		if (cJSON_IsTrue(it))
			o->can_recruit = 1;
	}
	o->exits = 1; /* persist is the default, always */
	cJSON_ArrayForEach(it, get(f, "exit"))
	{
		int e = cJSON_IsString(it) ? name_index(view_deepfall_exit_names,
							VIEW_DEEPFALL_NEXIT, it->valuestring)
					   : -1;
		if (e >= 0)
			o->exits |= 1 << e;
	}
	return 1;
}

static void form_defaults(const struct tv *tv, const struct df_opts *o, struct view_form *f)
{
	memset(f, 0, sizeof *f);
	f->decision = tv->decision;
	/* Stay where the party stands (no free move wasted). */
	int floor = ival(vparty(tv->view, tv->seat), "floor", 1, FLOORS_MAX, o->tmin);
	f->v[VIEW_DEEPFALL_TARGET] = MAX(o->tmin, MIN(o->tmax, floor));
}

int view_deepfall_form_now(const struct tv *tv, const struct view_form *f, struct view_form *out)
{
	struct df_opts o;
	if (!read_opts(tv, &o))
		return 0;
	if (f && f->decision == tv->decision)
		*out = *f;
	else
		form_defaults(tv, &o, out);
	return 1;
}

cJSON *view_deepfall_choice(const struct view_form *f)
{
	cJSON *c = cJSON_CreateObject();
	cJSON_AddNumberToObject(c, "target", f->v[VIEW_DEEPFALL_TARGET]);
	cJSON_AddBoolToObject(c, "recruit", f->v[VIEW_DEEPFALL_RECRUIT] != 0);
	int e = f->v[VIEW_DEEPFALL_EXIT];
	cJSON_AddStringToObject(c, "exit",
				view_deepfall_exit_names[e >= 0 && e < VIEW_DEEPFALL_NEXIT ? e : 0]);
	return c;
}

/* Toggles exit e (back to persist when it is already chosen). */
static int toggle_exit(const struct df_opts *o, struct view_form *f, int e)
{
	if (!(o->exits & (1 << e)))
		return 0;
	f->v[VIEW_DEEPFALL_EXIT] = f->v[VIEW_DEEPFALL_EXIT] == e ? 0 : e;
	return 1;
}

int view_deepfall_form_key(const struct tv *tv, struct view_form *f, int key, cJSON **choice)
{
	struct df_opts o;
	*choice = NULL;
	if (!read_opts(tv, &o))
		return 0;
	if (f->decision != tv->decision)
		form_defaults(tv, &o, f);
	int *v = f->v;
	switch (key) {
	case 'G':
	case '\r':
	case '\n':
	case ' ':
		*choice = view_deepfall_choice(f);
		f->sent = 1;
		v[VIEW_DEEPFALL_SENT_PRESS] = 0;
		return 1;
	case 'P':
		if (!o.can_press)
			return 0;
		*choice = cJSON_CreateObject();
		cJSON_AddTrueToObject(*choice, "press");
		f->sent = 1;
		v[VIEW_DEEPFALL_SENT_PRESS] = 1;
		return 1;
	case '+':
	case '=':
	case ']':
		v[VIEW_DEEPFALL_TARGET] = MIN(v[VIEW_DEEPFALL_TARGET] + 1, o.tmax);
		break;
	case '-':
	case '[':
		v[VIEW_DEEPFALL_TARGET] = MAX(v[VIEW_DEEPFALL_TARGET] - 1, o.tmin);
		break;
	case 'R':
		if (!o.can_recruit)
			return 0;
		v[VIEW_DEEPFALL_RECRUIT] = !v[VIEW_DEEPFALL_RECRUIT];
		break;
	case 'K':
		v[VIEW_DEEPFALL_EXIT] = 0;
		break;
	case 'C':
		if (!toggle_exit(&o, f, 1))
			return 0;
		break;
	case 'S':
		if (!toggle_exit(&o, f, 2))
			return 0;
		break;
	default:
		if (key < '1' || key > '9' || key - '0' < o.tmin || key - '0' > o.tmax)
			return 0;
		v[VIEW_DEEPFALL_TARGET] = key - '0';
		break;
	}
	f->sent = 0;
	v[VIEW_DEEPFALL_SENT_PRESS] = 0;
	return 1;
}

int view_deepfall_option_for_key(const struct tv *tv, int key)
{
	(void)tv;
	(void)key;
	return -1;
}

/* ---- drawing ---- */

/* Room themes in 3 letters; the prizes (Vault, Throne) in capitals. */
static const char *theme_abbr(const char *t)
{
	static const char *const map[][2] = {
		{"threshold", "Thr"}, {"stone", "Stn"}, {"cistern", "Cis"}, {"den", "Den"},
		{"crypt", "Cry"},     {"hall", "Hal"},  {"library", "Lib"}, {"forge", "Frg"},
		{"vault", "VLT"},     {"throne", "THR"},
	};
	for (size_t i = 0; i < ARRAY_LEN(map); i++)
		if (!strcmp(map[i][0], t))
			return map[i][1];
	return t;
}

static const char *die_abbr(const char *d)
{
	static const char *const map[][2] = {
		{"recruit", "rec"}, {"warrior", "war"}, {"scholar", "sch"}, {"priest", "pri"},
		{"rogue", "rog"},   {"champion", "cha"}, {"relic", "rel"},
	};
	for (size_t i = 0; i < ARRAY_LEN(map); i++)
		if (!strcmp(map[i][0], d))
			return map[i][1];
	return d;
}

/* "rec6 war1" of a {die: count} object, appended at out[n]; returns n. */
static int dice_text(const cJSON *bag, char *out, int n, int size)
{
	const cJSON *it;
	int any = 0;
	cJSON_ArrayForEach(it, bag)
	{
		int64_t c;
		if (!it->string || !proto_json_int(it, 0, VIEW_NUM_MAX, &c) || c == 0 || n >= size)
			continue;
		n += snprintf(out + n, (size_t)(size - n), "%s%s%lld", any++ ? " " : "",
			      die_abbr(it->string), (long long)c);
	}
	if (!any && n < size)
		n += snprintf(out + n, (size_t)(size - n), "-");
	return MIN(n, size - 1);
}

/* One room in width-1 columns: theme+value, pays, threat/lock, holders seat:strength. */
static void draw_room(struct scr *s, int row, int col, int width, const struct tv *tv,
		      const cJSON *room)
{
	char cell[96];
	int alive = !cJSON_IsFalse(get(room, "alive"));
	if (!alive) {
		scr_put(s, row, col, SA_DIM, "  --");
		return;
	}
	/* The value, then what its majority takes when the floor falls when
	 * that is less (held_rise, DF56) or more (collapse_ramp, DF59). */
	int value = count(room, "value"), pays = count(room, "pays");
	int n = snprintf(cell, sizeof cell, "%s%d", theme_abbr(sval(room, "theme", "?")), value);
	if (get(room, "pays") && pays != value && n < (int)sizeof cell)
		n += snprintf(cell + n, sizeof cell - (size_t)n, " p%d", pays);
	if (n < (int)sizeof cell)
		n += snprintf(cell + n, sizeof cell - (size_t)n, " t%d", count(room, "threat"));
	int lock = count(room, "lock");
	if (lock && n < (int)sizeof cell) /* a long theme from the server fills cell */
		n += snprintf(cell + n, sizeof cell - (size_t)n, "/%d", lock);
	int best = 0, mine = -1;
	const cJSON *m;
	cJSON_ArrayForEach(m, get(room, "markers"))
	{
		int seat = ival(m, "seat", 0, TV_MAX_SEATS - 1, -1), st = count(m, "strength");
		if (seat < 0 || n >= (int)sizeof cell)
			continue;
		n += snprintf(cell + n, sizeof cell - (size_t)n, " %d:%d", seat + 1, st);
		best = MAX(best, st);
		if (seat == tv->seat)
			mine = st;
	}
	if (width > 0 && width <= (int)sizeof cell && (int)strlen(cell) > width - 1)
		cell[width - 1] = '\0';
	uint8_t a = mine < 0 ? 0 : mine > 0 && mine >= best ? SC_GREEN | SA_BOLD : SA_BOLD;
	scr_put(s, row, col, a, cell);
}

/* Rows 1-9: the Maw and the live floors. */
static void draw_dungeon(struct scr *s, const struct tv *tv, const cJSON *v)
{
	const cJSON *maw = get(v, "maw"), *floors = get(v, "floors");
	int frontier = ival(maw, "frontier", 0, FLOORS_MAX, 0);
	double accum = fval(maw, "accum", 0), speed = fval(maw, "speed", 0);
	double last = fval(maw, "last_speed", 0);
	int nfalls = ival(maw, "falls", 0, FLOORS_MAX, 0);
	int nfloors = cJSON_GetArraySize(floors);
	int falls = frontier > 0 && nfalls > 0 && !cJSON_IsTrue(get(v, "over"));
	char line[160];
	/* The floors below the frontier are gone (and not drawn). */
	snprintf(line, sizeof line, "Maw: frontier F%d  carried %.2f  speed %.2f (last %.2f)",
		 frontier, accum, speed, last);
	int end = scr_put(s, 1, 0, SA_BOLD, line);
	if (falls && nfalls == 1)
		scr_printf(s, 1, end + 2, SC_RED | SA_BOLD, "F%d falls this round!", frontier);
	else if (falls)
		scr_printf(s, 1, end + 2, SC_RED | SA_BOLD, "F%d-F%d fall this round!", frontier,
			   MAX(1, frontier - nfalls + 1));

	/* The live floors, the deepest FLOOR_ROWS of them. */
	int shown = 0, skip = MAX(0, MIN(frontier, nfloors) - FLOOR_ROWS);
	const cJSON *fl;
	cJSON_ArrayForEach(fl, floors)
	{
		int f = ival(fl, "floor", 1, FLOORS_MAX, -1);
		if (f < 0 || cJSON_IsTrue(get(fl, "collapsed")) || (frontier && f > frontier))
			continue;
		if (skip > 0) {
			skip--;
			continue;
		}
		if (shown >= FLOOR_ROWS)
			break;
		int row = 2 + shown++;
		/* Who is on this floor: the seats' numbers (us in bold). */
		char who[8] = "";
		int wn = 0, here = 0;
		for (int i = 0; i < tv->n_seats && i < TV_MAX_SEATS; i++) {
			if (ival(vparty(v, i), "floor", 1, FLOORS_MAX, -1) != f)
				continue;
			here |= i == tv->seat;
			if (wn < 5)
				who[wn++] = (char)('1' + i);
			who[wn] = '\0';
		}
		uint8_t fa = f == frontier && falls ? SC_RED | SA_BOLD : here ? SA_BOLD : 0;
		scr_printf(s, row, 0, fa, "F%-2d%-5s", f, who);
		/* Plunder waiting on a floor whose rooms are gone (DF57). */
		int col = 8, plunder = count(fl, "plunder");
		if (plunder > 0)
			col = scr_printf(s, row, col, SC_YELLOW | SA_BOLD, "+%d plunder waits ",
					 plunder);
		const cJSON *rooms = get(fl, "rooms"), *rm;
		int nr = MAX(1, cJSON_GetArraySize(rooms));
		int width = MAX(8, (SCR_W - col) / nr);
		cJSON_ArrayForEach(rm, rooms)
		{
			if (col >= SCR_W)
				break;
			draw_room(s, row, col, width, tv, rm);
			col += width;
		}
	}
	if (frontier > 0 && MIN(frontier, nfloors) > FLOOR_ROWS)
		scr_printf(s, 2, 70, SA_DIM, "(F1-F%d ^)", MIN(frontier, nfloors) - FLOOR_ROWS);
}

/* Row 10: heading; 11..: a row per seat. Returns the next free row. */
static int draw_seats(struct scr *s, const struct tv *tv, const cJSON *v)
{
	scr_put(s, 10, 0, SA_BOLD,
		"  # PLAYER      GLORY  PARTY                 FLOOR  LOOT LS  STATUS");
	int row = 11;
	for (int i = 0; i < tv->n_seats && row < 20; i++, row++) {
		const cJSON *pl = vplayer(v, i), *pa = vparty(v, i);
		char tmp[32], party[32], line[120];
		if (pa)
			snprintf(party, sizeof party, "%s/%s", sval(pa, "lineage", "?"),
				 sval(pa, "calling", "?"));
		else
			snprintf(party, sizeof party, "(next round)");
		const char *st = strcmp(tv->status[i], "idle") ? tv->status[i] : "";
		char fl[8] = "", loot[12] = "";
		if (pa) {
			snprintf(fl, sizeof fl, "F%d", ival(pa, "floor", 0, FLOORS_MAX, 0));
			snprintf(loot, sizeof loot, "%d", count(pa, "unbanked"));
		}
		snprintf(line, sizeof line, "%s%d %-12.12s %5d  %-21.21s %-5s %5s %-3s %s",
			 i == tv->seat ? ">" : " ", i + 1, tv_seat_name(tv, i, tmp, sizeof tmp),
			 count(pl, "glory"), party, fl, loot,
			 cJSON_IsTrue(get(pa, "last_stand")) ? "LS" : "", st);
		scr_put(s, row, 0, i == tv->seat ? SA_BOLD : 0, line);
		uint8_t sa = !strcmp(st, "chosen")	? SC_GREEN | SA_BOLD
			     : !strcmp(st, "selecting") ? SC_CYAN
			     : !strcmp(st, "waiting")	? SC_YELLOW
							: 0;
		if (sa && *st)
			scr_put(s, row, 61, sa, st); /* the STATUS column */
	}
	return row;
}

/* Row 20: our party in full. */
static void draw_party(struct scr *s, const struct tv *tv, const cJSON *v)
{
	if (tv->seat < 0) {
		scr_put(s, 20, 0, SA_DIM, "Watching: every seat is shown above.");
		return;
	}
	const cJSON *pa = vparty(v, tv->seat);
	if (!pa) {
		scr_put(s, 20, 0, SA_DIM,
			"Your party left the board: a fresh one enters next round.");
		return;
	}
	char line[200];
	int n = snprintf(line, sizeof line, "You: deepest F%d hand %d moves %d bag ",
			 ival(pa, "deepest", 0, FLOORS_MAX, 0), count(pa, "hand_size"),
			 count(pa, "moves"));
	n = dice_text(get(pa, "bag"), line, n, (int)sizeof line);
	static const char *const piles[][2] = {{"discard", " disc "}, {"wounded", " wnd "}};
	for (size_t i = 0; i < ARRAY_LEN(piles); i++) {
		const cJSON *pile = get(pa, piles[i][0]);
		if (cJSON_GetArraySize(pile) > 0 && n < (int)sizeof line - 12) {
			n += snprintf(line + n, sizeof line - (size_t)n, "%s", piles[i][1]);
			n = dice_text(pile, line, n, (int)sizeof line);
		}
	}
	/* Denizen anger, which adds threat to a faction's rooms (DF55): by the
	 * last word of the faction ("deep_cult": cult). */
	const cJSON *an;
	int angry = 0;
	cJSON_ArrayForEach(an, get(pa, "anger"))
	{
		int64_t c;
		if (!an->string || !proto_json_int(an, 1, VIEW_NUM_MAX, &c) ||
		    n >= (int)sizeof line - 20)
			continue;
		const char *word = strrchr(an->string, '_');
		n += snprintf(line + n, sizeof line - (size_t)n, "%s%.8s%lld", angry++ ? " " : " anger ",
			      word ? word + 1 : an->string, (long long)c);
	}
	scr_put(s, 20, 0, 0, line);
}

/* Row 21: this round's turn, from the view's party.turn. */
static void draw_turn(struct scr *s, const struct tv *tv, const struct df_opts *o, bool opts)
{
	const cJSON *t = get(vparty(tv->view, tv->seat), "turn");
	if (!cJSON_IsObject(t))
		return;
	const cJSON *sym = get(t, "symbols");
	int hands = count(t, "hands"), setbacks = count(t, "setbacks");
	int col = scr_printf(s, 21, 0, SA_BOLD, "Turn: %d hand%s", hands, hands == 1 ? "" : "s");
	col = scr_printf(s, 21, col, 0, "  St%d Cu%d Fa%d Gr%d Me%d", count(sym, "steel"),
			 count(sym, "cunning"), count(sym, "faith"), count(sym, "greed"),
			 count(sym, "mettle"));
	col = scr_printf(s, 21, col, setbacks ? SC_RED | SA_BOLD : 0, "  Dread %d",
			 count(sym, "dread"));
	if (setbacks)
		col = scr_printf(s, 21, col, SC_RED | SA_BOLD, " (%d Setback%s)", setbacks,
				 setbacks == 1 ? "" : "s");
	if (cJSON_IsTrue(get(t, "trinity"))) /* Steel, Cunning and Faith: a Vault */
		col = scr_put(s, 21, col, SC_GREEN, "  Trinity");
	if (opts && o->can_press)
		scr_put(s, 21, col + 3, SC_CYAN | SA_BOLD, "[P] press");
}

/* Row 22: the act form, or the act we sent, or what we wait for. */
static void draw_form(struct scr *s, const struct tv *tv, const struct view_ui *ui)
{
	struct view_form f;
	struct df_opts o;
	bool opts = view_deepfall_form_now(tv, &ui->form, &f) && read_opts(tv, &o);
	if (tv->seat >= 0)
		draw_turn(s, tv, &o, opts);
	if (!opts) {
		const cJSON *act = get(get(vparty(tv->view, tv->seat), "turn"), "act");
		if (cJSON_IsObject(act))
			scr_printf(s, 22, 0, SC_GREEN, "Acted: target F%d, %s%s. Waiting for the "
						       "others.",
				   ival(act, "target", 0, FLOORS_MAX, 0),
				   sval(act, "exit", "persist"),
				   cJSON_IsTrue(get(act, "recruit")) ? ", recruit" : "");
		else if (tv->seat >= 0 && !strcmp(tv->status[tv->seat], "chosen"))
			scr_put(s, 22, 0, SC_GREEN, "Chosen: waiting for the others.");
		return;
	}
	char keys[24]; /* two ints and a dash, whatever the server sent */
	if (o.tmax <= 9)
		snprintf(keys, sizeof keys, "%d-%d", o.tmin, o.tmax);
	else
		snprintf(keys, sizeof keys, "1-9 + -");
	int col = scr_printf(s, 22, 0, SA_BOLD, "Act: [%s] ", keys);
	col = scr_printf(s, 22, col, SA_REVERSE, "F%d", f.v[VIEW_DEEPFALL_TARGET]);
	if (o.can_recruit) {
		col = scr_put(s, 22, col, SA_BOLD, "  [R] recruit ");
		col = scr_put(s, 22, col, SA_REVERSE, f.v[VIEW_DEEPFALL_RECRUIT] ? "yes" : "no");
	}
	static const char *const labels[VIEW_DEEPFALL_NEXIT] = {"[K] persist", "[C] cash out",
								"[S] last stand"};
	col = scr_put(s, 22, col, 0, "  ");
	for (int e = 0; e < VIEW_DEEPFALL_NEXIT; e++) {
		if (!(o.exits & (1 << e)))
			continue;
		col = scr_put(s, 22, col, f.v[VIEW_DEEPFALL_EXIT] == e ? SA_REVERSE : 0, labels[e]);
		col = scr_put(s, 22, col, 0, " ");
	}
	scr_put(s, 22, col, SC_CYAN | SA_BOLD, "[G] act");
}

static void draw_bottom(struct scr *s, const struct tv *tv, const struct view_ui *ui)
{
	int chosen = tv->seat >= 0 && !strcmp(tv->status[tv->seat], "chosen");
	const char *what = !chosen		       ? "Choose:"
			   : ui->form.v[VIEW_DEEPFALL_SENT_PRESS] ? "Pressed; [G] acts instead."
							: "Sent; change and send again.";
	view_footer(s, tv, ui, what, "[Q]uit");
}

/* The result: glory, winners and how each seat earned it. */
static void draw_result(struct scr *s, const struct tv *tv)
{
	const cJSON *r = tv->result;
	int win[TV_MAX_SEATS] = {0};
	const cJSON *w;
	cJSON_ArrayForEach(w, get(r, "winners"))
	{
		int64_t ws;
		if (proto_json_int(w, 0, TV_MAX_SEATS - 1, &ws))
			win[ws] = 1;
	}
	scr_printf(s, 2, 0, SA_BOLD | SC_YELLOW, "GAME OVER after %d rounds", count(r, "rounds"));
	scr_put(s, 3, 0, SA_BOLD,
		"  # PLAYER       GLORY        CASH-OUT PRESS-ON WORTHY PARTIES CO WE TK CL DEEP");
	for (int i = 0; i < tv->n_seats; i++) {
		const cJSON *pl = NULL, *it;
		cJSON_ArrayForEach(it, get(r, "players"))
		{
			if (ival(it, "seat", 0, TV_MAX_SEATS - 1, -1) == i)
				pl = it;
		}
		int64_t glory = 0;
		if (!proto_json_int(cJSON_GetArrayItem(get(r, "scores"), i), -VIEW_NUM_MAX,
				    VIEW_NUM_MAX, &glory))
			glory = count(pl, "glory");
		const cJSON *ge = get(pl, "glory_by_exit");
		char tmp[32];
		scr_printf(s, 4 + i, 0, win[i] ? SC_GREEN | SA_BOLD : i == tv->seat ? SA_BOLD : 0,
			   "%s%d %-12.12s %6lld %-6s %8d %8d %6d %7d %2d %2d %2d %2d %4d",
			   i == tv->seat ? ">" : " ", i + 1, tv_seat_name(tv, i, tmp, sizeof tmp),
			   (long long)glory, win[i] ? "WINNER" : "", count(ge, "cash_out"),
			   count(ge, "press_on"), count(ge, "worthy_end"), count(pl, "parties"),
			   count(pl, "cash_outs"), count(pl, "worthy_ends"), count(pl, "taken"),
			   count(pl, "claims"), count(pl, "deepest"));
	}
}

void view_deepfall_draw(struct scr *s, const struct tv *tv, const struct view_ui *ui)
{
	const cJSON *v = tv->view;
	char progress[32] = "";
	if (count(v, "round") > 0)
		snprintf(progress, sizeof progress, "round %d  ", count(v, "round"));
	view_header(s, tv, "deepfall", progress);
	int row;
	if (tv->result) {
		draw_result(s, tv);
		row = 5 + tv->n_seats;
	} else {
		if (get(v, "maw")) /* not before the game starts */
			draw_dungeon(s, tv, v);
		row = draw_seats(s, tv, v);
	}
	/* The newest events in the rows left above row 20. */
	int rows = MAX(0, 20 - row), start = MAX(0, tv->log_len - rows);
	for (int r = 0; start + r < tv->log_len && row + r < 20; r++)
		scr_put(s, row + r, 1, SA_DIM, tv->log[start + r]);
	if (tv->result) {
		scr_put(s, 23, 0, 0, "[R]ematch (host)  [L]obby  [Q]uit");
		return;
	}
	draw_party(s, tv, v);
	draw_form(s, tv, ui);
	draw_bottom(s, tv, ui);
}

/* ---- events ---- */

/* The verb for the subject: "You roll", "AI 2 rolls". */
static const char *vb(const char *subject, const char *you, const char *other)
{
	return strcmp(subject, "You") ? other : you;
}

static const char *who(const cJSON *ev, const struct tv *tv, char *tmp, size_t n)
{
	int seat = ival(ev, "seat", 0, TV_MAX_SEATS - 1, -1);
	if (seat < 0)
		return NULL;
	if (seat == tv->seat)
		return "You";
	return tv_seat_name(tv, seat, tmp, n);
}

/* A room id as "F3.2" (floor, room on it) when the rooms per floor are known. */
static void room_name(const cJSON *ev, const struct tv *tv, char *out, size_t n)
{
	int id = ival(ev, "room", 0, (int)VIEW_NUM_MAX, -1);
	const cJSON *f0 = cJSON_GetArrayItem(get(tv->view, "floors"), 0);
	int per = cJSON_GetArraySize(get(f0, "rooms"));
	if (id < 0)
		snprintf(out, n, "?");
	else if (per > 0)
		snprintf(out, n, "F%d.%d", id / per + 1, id % per + 1);
	else
		snprintf(out, n, "room %d", id);
}

/* A seat's name, "?" when the number is not a seat. */
static const char *seat_name(const cJSON *v, const struct tv *tv, char *tmp, size_t n)
{
	int64_t seat;
	if (!proto_json_int(v, 0, TV_MAX_SEATS - 1, &seat))
		return "?";
	return seat == tv->seat ? "You" : tv_seat_name(tv, (int)seat, tmp, n);
}

/* "St3 Cu1 Dread 1" of a roll's non-zero faces, in the turn row's words
 * ("nothing" when none). */
static void faces_text(const cJSON *ev, char *out, size_t n)
{
	static const char *const faces[][2] = {{"steel", "St"},	  {"cunning", "Cu"},
					       {"faith", "Fa"},	  {"greed", "Gr"},
					       {"mettle", "Me"},  {"dread", "Dread "}};
	size_t k = 0;
	out[0] = '\0';
	for (size_t i = 0; i < ARRAY_LEN(faces) && k < n; i++) {
		int c = count(ev, faces[i][0]);
		if (c)
			k += (size_t)snprintf(out + k, n - k, "%s%s%d", k ? " " : "", faces[i][1], c);
	}
	if (!out[0])
		snprintf(out, n, "nothing");
}

/* One line per event of deepfall.md's table, with its fields. */
int view_deepfall_event_line(const cJSON *ev, const struct tv *tv, char *out, size_t out_len)
{
	const char *type = sval(ev, "event", sval(ev, "type", NULL));
	if (!type)
		return 0;
	char tmp[32], room[24], text[80];
	const char *w = who(ev, tv, tmp, sizeof tmp);
	const char *nm = w ? w : "?";
	int waits = cJSON_IsTrue(get(ev, "waits"));
	room_name(ev, tv, room, sizeof room);
	if (!strcmp(type, "round"))
		snprintf(out, out_len, "-- round %d, %s first --", count(ev, "round"),
			 seat_name(get(ev, "start_seat"), tv, tmp, sizeof tmp));
	else if (!strcmp(type, "draft"))
		snprintf(out, out_len, "%s: a %s %s enters on F%d", nm, sval(ev, "lineage", "?"),
			 sval(ev, "calling", "?"), count(ev, "floor"));
	else if (!strcmp(type, "roll")) {
		faces_text(ev, text, sizeof text);
		int dice = count(ev, "dice");
		snprintf(out, out_len, "%s %s hand %d (%d %s): %s", nm, vb(nm, "roll", "rolls"),
			 count(ev, "hand"), dice, dice == 1 ? "die" : "dice", text);
	} else if (!strcmp(type, "dread"))
		snprintf(out, out_len, "%s: Dread %d, %d cancelled, %d to Mettle", nm,
			 count(ev, "rolled"), count(ev, "cancelled"), count(ev, "to_mettle"));
	else if (!strcmp(type, "setback"))
		snprintf(out, out_len, "%s: a Setback (%d dice, %d loot lost)%s", nm,
			 count(ev, "dice_lost"), count(ev, "loot_lost"),
			 cJSON_IsTrue(get(ev, "shrugged")) ? ", shrugged off" : "");
	else if (!strcmp(type, "last_stand")) {
		int m = count(ev, "mettle");
		snprintf(text, sizeof text, "%d Mettle", m);
		snprintf(out, out_len, "%s declare%s a Last Stand (%s)", nm, vb(nm, "", "s"),
			 m ? text : "free");
	} else if (!strcmp(type, "move"))
		snprintf(out, out_len, "%s %s F%d -> F%d (%d steps bought)", nm,
			 vb(nm, "move", "moves"), count(ev, "from"), count(ev, "to"),
			 count(ev, "bought"));
	else if (!strcmp(type, "claim"))
		snprintf(out, out_len, "%s %s %s (strength %d, loot %d)", nm,
			 vb(nm, "claim", "claims"), room, count(ev, "strength"), count(ev, "loot"));
	else if (!strcmp(type, "assault"))
		snprintf(out, out_len, "%s %s %s (steel %d, cunning %d kept)", nm,
			 vb(nm, "assault", "assaults"), room, count(ev, "steel"),
			 count(ev, "cunning"));
	else if (!strcmp(type, "loot"))
		snprintf(out, out_len, "%s %s %d (unbanked %d)", nm, vb(nm, "loot", "loots"),
			 count(ev, "loot"), count(ev, "unbanked"));
	else if (!strcmp(type, "recruit") || !strcmp(type, "heal"))
		snprintf(out, out_len, "%s %s a %s", nm,
			 !strcmp(type, "heal") ? vb(nm, "heal", "heals")
					       : vb(nm, "recruit", "recruits"),
			 sval(ev, "die", "die"));
	else if (!strcmp(type, "cash_out"))
		snprintf(out, out_len, "%s %s out%s from F%d: banks %d, glory now %d", nm,
			 vb(nm, "cash", "cashes"), cJSON_IsTrue(get(ev, "forced")) ? " (forced)" : "",
			 count(ev, "deepest"), count(ev, "banked"), count(ev, "glory"));
	else if (!strcmp(type, "collapse"))
		snprintf(out, out_len, "The Maw eats floor %d!", count(ev, "floor"));
	else if (!strcmp(type, "worthy_end"))
		snprintf(out, out_len, "%s: a Worthy End on F%d, +%d glory, %d rooms consumed", nm,
			 count(ev, "floor"), count(ev, "payout"), count(ev, "rooms_consumed"));
	else if (!strcmp(type, "room_scored")) {
		if (!w || count(ev, "glory") <= 0)
			return 0; /* nobody held it: the value_rise line says where it goes */
		int holders = count(ev, "holders");
		snprintf(text, sizeof text, " (split %d ways)", holders);
		snprintf(out, out_len, "%s %s %s: +%d glory%s", nm, vb(nm, "score", "scores"), room,
			 count(ev, "glory"), holders > 1 ? text : "");
	} else if (!strcmp(type, "value_rise"))
		snprintf(out, out_len, "Plunder rises to F%d (+%d)%s", count(ev, "floor"),
			 count(ev, "glory"), waits ? " and waits there: no live room" : "");
	else if (!strcmp(type, "plunder_fled"))
		snprintf(out, out_len, "Plunder (+%d) flees the Worthy End %s F%d%s", count(ev, "glory"),
			 waits ? "and waits on" : "to the rooms of", count(ev, "floor"),
			 waits ? ": no live room" : "");
	else if (!strcmp(type, "taken"))
		snprintf(out, out_len, "%s %s TAKEN by the Maw (%d loot, %d rooms lost)", nm,
			 vb(nm, "are", "is"), count(ev, "loot_lost"), count(ev, "rooms_lost"));
	else if (!strcmp(type, "maw"))
		snprintf(out, out_len, "The Maw: speed %.2f, carried %.2f, frontier F%d",
			 fval(ev, "speed", 0), fval(ev, "accum", 0), count(ev, "frontier"));
	else if (!strcmp(type, "game_over")) {
		size_t k = 0;
		const cJSON *s;
		text[0] = '\0';
		cJSON_ArrayForEach(s, get(ev, "winners"))
		{
			if (k < sizeof text)
				k += (size_t)snprintf(text + k, sizeof text - k, "%s%s", k ? ", " : "",
						      seat_name(s, tv, tmp, sizeof tmp));
		}
		snprintf(out, out_len, "Game over after %d rounds; winners: %s", count(ev, "rounds"),
			 text[0] ? text : "none");
	} else
		return 0;
	return 1;
}
