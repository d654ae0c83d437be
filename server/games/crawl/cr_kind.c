/*
 * cr_kind.c — crawl as a lair game kind (server/games/game.h): the vtable,
 * choice ids, and the JSON proto/kinds/crawl.md documents (config, options,
 * the per-seat view, events, result, statistics, achievements and the
 * server-wide records). The rules live in cr_rules.c and its neighbours;
 * this file only translates.
 * Long (1,000 lines) on purpose: the one translation between the rules'
 * structs and that JSON, in sections in the order of game.h's vtable, each
 * small; splitting it would scatter one format over several files.
 *
 * Hidden information (C47): the view carries only tiles the party has seen,
 * monsters in sight now, and items by their appearance until the party knows
 * them; never the rest of the level, the ? tiles' odds, the event order,
 * chest contents or a generator's state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/util.h"
#include "../game_json.h"
#include "crawl.h"

#define ST(p) ((cr_game *)(p))
#define CST(p) ((const cr_game *)(p))

static const cr_content *CT(const cr_game *g) { return g->cfg.ct; }

/* ---- choice ids -------------------------------------------------------------------- */

static const char *const simple_ids[] = {
	[CR_C_WAIT] = "wait",	    [CR_C_N] = "n",	  [CR_C_E] = "e",
	[CR_C_S] = "s",		    [CR_C_W] = "w",	  [CR_C_EXPLORE] = "explore",
	[CR_C_PORTAL] = "portal",   [CR_C_OUT] = "out",	  [CR_C_LEAVE] = "leave",
	[CR_C_REST] = "rest",
};

static const struct {
	const char *prefix;
	int base, max;
} arg_ids[] = {
	{"use:", CR_C_USE, CR_INV_MAX - 1},     {"drop:", CR_C_DROP, CR_INV_MAX - 1},
	{"jump:", CR_C_JUMP, CR_MAX_ACTS},	{"event:", CR_C_EVENT, CR_MAX_OPTIONS - 1},
	{"buy:", CR_C_BUY, CR_SHOP_ITEMS},
};

bool cr_choice_id(game_choice c, char *out, size_t len)
{
	if (c >= 0 && c < (game_choice)ARRAY_LEN(simple_ids) && simple_ids[c]) {
		snprintf(out, len, "%s", simple_ids[c]);
		return true;
	}
	for (size_t i = 0; i < ARRAY_LEN(arg_ids); i++)
		if (c >= arg_ids[i].base && c <= arg_ids[i].base + arg_ids[i].max &&
		    (arg_ids[i].base != CR_C_JUMP || c > CR_C_JUMP)) {
			snprintf(out, len, "%s%d", arg_ids[i].prefix, c - arg_ids[i].base);
			return true;
		}
	if (c >= CR_C_TRAVEL && c < CR_C_TRAVEL + 0x10000) {
		int v = c - CR_C_TRAVEL;
		snprintf(out, len, "travel:%d,%d", v & 0xff, v >> 8);
		return true;
	}
	return false;
}

/* A small decimal of at most 3 digits at *p; -1 if none. */
static int small_num(const char **p)
{
	int v = 0, n = 0;
	while (**p >= '0' && **p <= '9' && n < 3) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n ? v : -1;
}

game_choice cr_choice_parse_id(const char *id)
{
	for (size_t i = 0; i < ARRAY_LEN(simple_ids); i++)
		if (simple_ids[i] && !strcmp(id, simple_ids[i]))
			return (game_choice)i;
	for (size_t i = 0; i < ARRAY_LEN(arg_ids); i++) {
		size_t n = strlen(arg_ids[i].prefix);
		if (strncmp(id, arg_ids[i].prefix, n))
			continue;
		const char *p = id + n;
		int v = small_num(&p);
		if (v < 0 || *p || v > arg_ids[i].max || (arg_ids[i].base == CR_C_JUMP && v < 1))
			return GAME_NO_CHOICE;
		return arg_ids[i].base + v;
	}
	if (!strncmp(id, "travel:", 7)) {
		const char *p = id + 7;
		int x = small_num(&p);
		if (x < 0 || *p++ != ',')
			return GAME_NO_CHOICE;
		int y = small_num(&p);
		if (y < 0 || *p || x >= CR_MAX_W || y >= CR_MAX_H)
			return GAME_NO_CHOICE;
		return CR_C_TRAVEL + y * 256 + x;
	}
	return GAME_NO_CHOICE;
}

/* ---- config and shared state ------------------------------------------------------------ */

static void *config_new(const cJSON *json, char *err, size_t errlen)
{
	cr_config c;
	if (cr_config_parse(&c, json, err, errlen) != 0)
		return NULL;
	return xmemdup(&c, sizeof c);
}

static void config_free(void *c) { free(c); }
static cJSON *config_json(const void *c) { return cr_config_json(c); }

/* Server-wide records: runs, wins, the best score and the fastest win. */
typedef struct cr_records {
	int64_t runs, wins, best_score, fastest_win;
} cr_records;

static int rec_get(const cJSON *o, const char *k, int64_t *out, char *err, size_t errlen)
{
	return game_json_count(o, k, 1e15, out, "crawl records", err, errlen);
}

static void *shared_new(const cJSON *saved, char *err, size_t errlen)
{
	cr_records r = {0, 0, -1, -1};
	if (saved && !cJSON_IsNull(saved)) {
		if (!cJSON_IsObject(saved)) {
			snprintf(err, errlen, "crawl records must be an object");
			return NULL;
		}
		if (rec_get(saved, "runs", &r.runs, err, errlen) ||
		    rec_get(saved, "wins", &r.wins, err, errlen) ||
		    rec_get(saved, "best_score", &r.best_score, err, errlen) ||
		    rec_get(saved, "fastest_win", &r.fastest_win, err, errlen))
			return NULL;
	}
	return xmemdup(&r, sizeof r);
}

static void shared_free(void *s) { free(s); }

static cJSON *shared_json(const void *s)
{
	const cr_records *r = s;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "runs", (double)r->runs);
	cJSON_AddNumberToObject(o, "wins", (double)r->wins);
	game_json_add_record(o, "best_score", r->best_score);
	game_json_add_record(o, "fastest_win", r->fastest_win);
	return o;
}

/* C46: only the run's end counts (a = why, b = rounds, c = best score). */
static void shared_fold(void *s, const game_event *evs, size_t n)
{
	cr_records *r = s;
	for (size_t i = 0; i < n; i++) {
		const game_event *e = &evs[i];
		if (e->type != CR_EV_GAME_OVER)
			continue;
		r->runs++;
		if (e->c > r->best_score)
			r->best_score = e->c;
		if (e->a == CR_END_WON) {
			r->wins++;
			if (r->fastest_win < 0 || e->b < r->fastest_win)
				r->fastest_win = e->b;
		}
	}
}

/* The values the store merges, game by game. */
static const game_stat_def shared_defs[] = {
	{"runs", "Runs", GAME_STAT_SUM},
	{"wins", "Wins", GAME_STAT_SUM},
	{"best_score", "Best Score", GAME_STAT_MAX},
	{"fastest_win", "Fastest Win", GAME_STAT_MIN},
};

/* ---- the game ------------------------------------------------------------------------- */

static game_state *create(const void *config, int seats, uint64_t seed, const void *shared,
			  game_events *out, char *err, size_t errlen)
{
	(void)shared;
	if (seats < 1 || seats > CR_MAX_SEATS) {
		snprintf(err, errlen, "crawl takes 1 to %d seats", CR_MAX_SEATS);
		return NULL;
	}
	cr_game *g = xmalloc(sizeof *g);
	cr_game_init(g, config, seats, seed, out);
	return (game_state *)g;
}

static void destroy(game_state *st) { free(st); }
static uint32_t pending(const game_state *st) { return cr_pending(CST(st)); }
static bool is_over(const game_state *st) { return CST(st)->over; }

static int options(const game_state *st, int seat, game_choice *out, int max)
{
	return cr_options(CST(st), seat, out, max);
}

static int choice_parse(const game_state *st, int seat, const cJSON *json, game_choice *out,
			char *err, size_t errlen)
{
	const cr_game *g = CST(st);
	if (g->over) {
		snprintf(err, errlen, "the run is over");
		return GAME_ERR_OVER;
	}
	const char *id = game_choice_id(json);
	if (!id) {
		snprintf(err, errlen, "a crawl choice is an option id string such as \"n\" or "
				      "\"use:2\"");
		return GAME_ERR_MALFORMED;
	}
	game_choice c = cr_choice_parse_id(id);
	if (c == GAME_NO_CHOICE) {
		snprintf(err, errlen, "unknown crawl choice '%.*s'", (int)utf8_prefix(id, 40), id);
		return GAME_ERR_MALFORMED;
	}
	if (!game_seat_asked(cr_pending(g), g->seats, seat)) {
		snprintf(err, errlen, "seat %d is not asked to choose now", seat);
		return GAME_ERR_NOT_PENDING;
	}
	if (cr_choice_check(g, seat, c, err, errlen) != 0)
		return GAME_ERR_ILLEGAL;
	*out = c;
	return GAME_OK;
}

static cJSON *choice_json(const game_state *st, int seat, game_choice c)
{
	(void)st;
	(void)seat;
	char id[32];
	if (c == GAME_NO_CHOICE || !cr_choice_id(c, id, sizeof id))
		return cJSON_CreateNull();
	return cJSON_CreateString(id);
}

static int apply(game_state *st, const game_choice *choices, game_events *out, char *err,
		 size_t errlen)
{
	/* choices[] holds `seats` entries (a replayed log is packed that way);
	 * cr_apply checks them all before it changes anything */
	return cr_apply(ST(st), choices, out, err, errlen);
}

static game_choice ai_choose(game_state *st, int seat) { return cr_ai_choose(CST(st), seat); }

/* ---- JSON pieces ---------------------------------------------------------------------- */

static void num(cJSON *o, const char *k, double v) { cJSON_AddNumberToObject(o, k, v); }

static bool known(const cr_game *g, int k)
{
	return !CT(g)->item[k].appearance[0] || (g->identified >> k & 1);
}

/* An item as a client may see it: an unknown potion or scroll by its
 * appearance alone (C30, C47). */
static cJSON *item_json(const cr_game *g, int k)
{
	const cr_item_kind *it = &CT(g)->item[k];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "class", cr_item_class_names[it->cls]);
	bool kn = known(g, k);
	cJSON_AddBoolToObject(o, "known", kn);
	cJSON_AddStringToObject(o, "name", kn ? it->name : it->appearance);
	if (it->appearance[0])
		cJSON_AddStringToObject(o, "appearance", it->appearance);
	if (kn)
		cJSON_AddStringToObject(o, "id", it->id);
	if (it->bonus)
		num(o, "bonus", it->bonus);
	return o;
}

static cJSON *relic_json(const cr_game *g, int r)
{
	const cr_relic *rl = &CT(g)->relic[r];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "id", rl->id);
	cJSON_AddStringToObject(o, "name", rl->name);
	cJSON_AddStringToObject(o, "text", rl->text);
	return o;
}

static cJSON *event_obj(const cr_game *g, int e, int seat)
{
	const cr_event *ev = &CT(g)->event[e];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "id", ev->id);
	cJSON_AddStringToObject(o, "name", ev->name);
	cJSON_AddStringToObject(o, "text", ev->text);
	cJSON_AddBoolToObject(o, "shared", ev->shared);
	cJSON *opts = cJSON_AddArrayToObject(o, "options");
	for (int k = 0; k < ev->n_options; k++) {
		cJSON *op = cJSON_CreateObject();
		num(op, "index", k);
		cJSON_AddStringToObject(op, "label", ev->option[k].label);
		cJSON_AddBoolToObject(op, "open", seat >= 0 && cr_option_open(g, seat, e, k));
		cJSON_AddItemToArray(opts, op);
	}
	return o;
}

static const char *const dir_names[4] = {"north", "east", "south", "west"};

/* ---- options ---------------------------------------------------------------------------- */

static void opt(cJSON *arr, game_choice c, const char *label)
{
	char id[32];
	cr_choice_id(c, id, sizeof id);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "id", id);
	cJSON_AddStringToObject(o, "label", label);
	cJSON_AddItemToArray(arr, o);
}

/* Travel targets worth a key: the seen portals, the lair, unopened chests
 * and unentered ? tiles, nearest first, at most 8 (any other seen tile the
 * party can walk to is a legal "travel:X,Y" all the same). */
static void travel_opts(const cr_game *g, int seat, cJSON *arr)
{
	uint16_t dist[CR_MAX_H][CR_MAX_W]; /* one search for every target */
	cr_bfs_seen(g, g->h[seat].x, g->h[seat].y, dist);
	struct {
		int x, y, d;
		const char *what;
	} t[64];
	int n = 0;
	const cr_hero *h = &g->h[seat];
	for (int y = 0; y < g->lv.h; y++)
		for (int x = 0; x < g->lv.w && n < 64; x++) {
			uint8_t f = g->flag[y][x];
			if (!(f & CR_F_SEEN))
				continue;
			const char *what = f & CR_F_DOWN    ? "the portal down"
					   : f & CR_F_UP    ? "the portal up"
					   : f & CR_F_LAIR  ? "the devil's lair"
					   : f & CR_F_CHEST ? "a chest"
					   : f & CR_F_QMARK ? "a ? tile"
							    : NULL;
			if (!what || dist[y][x] == CR_FAR || dist[y][x] == 0)
				continue;
			t[n].x = x;
			t[n].y = y;
			t[n].d = abs(x - h->x) + abs(y - h->y);
			t[n++].what = what;
		}
	for (int k = 0; k < n && k < 8; k++) {
		int b = k;
		for (int j = k + 1; j < n; j++)
			if (t[j].d < t[b].d)
				b = j;
		__typeof__(t[0]) tmp = t[k];
		t[k] = t[b];
		t[b] = tmp;
		char label[64];
		snprintf(label, sizeof label, "Travel to %s", t[k].what);
		opt(arr, CR_C_TRAVEL + t[k].y * 256 + t[k].x, label);
		cJSON *o = cJSON_GetArrayItem(arr, cJSON_GetArraySize(arr) - 1);
		num(o, "x", t[k].x);
		num(o, "y", t[k].y);
	}
}

static cJSON *options_json(const game_state *st, int seat)
{
	const cr_game *g = CST(st);
	cJSON *arr = cJSON_CreateArray();
	game_choice c[64];
	int n = cr_options(g, seat, c, 64);
	char label[96];
	for (int i = 0; i < n && i < 64; i++) {
		game_choice x = c[i];
		const cr_hero *h = &g->h[seat];
		if (x >= CR_C_TRAVEL)
			continue; /* the notable ones below */
		if (x >= CR_C_N && x <= CR_C_W) {
			int d = x - CR_C_N;
			int m = cr_monster_at(g, h->x + cr_dx[d], h->y + cr_dy[d]);
			if (m >= 0)
				snprintf(label, sizeof label, "Attack the %s (%s)",
					 CT(g)->monster[g->mon[m].kind].name, dir_names[d]);
			else
				snprintf(label, sizeof label, "Step %s", dir_names[d]);
			opt(arr, x, label);
			continue;
		}
		int arg = x & 0xff;
		switch (x & ~0xff) {
		case CR_C_USE:
		case CR_C_DROP: {
			int k = h->inv[arg];
			const cr_item_kind *it = &CT(g)->item[k];
			const char *verb = (x & ~0xff) == CR_C_DROP	? "Drop"
					   : it->cls == CR_IC_POTION	? "Drink"
					   : it->cls == CR_IC_SCROLL	? "Read"
					   : it->cls == CR_IC_FOOD	? "Eat"
					   : it->cls == CR_IC_WEAPON	? "Wield"
									: "Wear";
			snprintf(label, sizeof label, "%s the %s", verb,
				 known(g, k) ? it->name : it->appearance);
			opt(arr, x, label);
			num(cJSON_GetArrayItem(arr, cJSON_GetArraySize(arr) - 1), "slot", arg);
			continue;
		}
		case CR_C_JUMP:
			snprintf(label, sizeof label, "Quick jump to act %d (%d gold)", arg,
				 cr_jump_fee(g, arg));
			opt(arr, x, label);
			num(cJSON_GetArrayItem(arr, cJSON_GetArraySize(arr) - 1), "fee",
			    cr_jump_fee(g, arg));
			continue;
		case CR_C_EVENT: {
			int e = g->n_vote ? g->vote[0] : h->event;
			opt(arr, x, CT(g)->event[e].option[arg].label);
			continue;
		}
		case CR_C_BUY: {
			if (arg < CR_SHOP_ITEMS) {
				int k = h->shop[arg];
				const cr_item_kind *it = &CT(g)->item[k];
				snprintf(label, sizeof label, "Buy the %s (%d gold)",
					 known(g, k) ? it->name : it->appearance, it->value);
			} else {
				snprintf(label, sizeof label, "Buy the %s (%d gold)",
					 CT(g)->relic[h->shop_relic].name, 70 + 20 * g->act);
			}
			opt(arr, x, label);
			continue;
		}
		}
		const char *simple = x == CR_C_WAIT	 ? (h->gate ? "Wait in the gateway" : "Wait")
				     : x == CR_C_EXPLORE ? "Explore"
				     : x == CR_C_REST	 ? "Rest until the party is healed"
				     : x == CR_C_PORTAL	 ? (g->flag[h->y][h->x] & CR_F_DOWN
								    ? "Take the portal down"
								    : "Take the portal up")
				     : x == CR_C_OUT	 ? "Step out of the gateway"
							 : "Leave the shop";
		opt(arr, x, simple);
	}
	if (n && cr_options(g, seat, c, 0) > 0 && !g->n_vote && g->h[seat].screen == CR_SC_NONE &&
	    !g->h[seat].gate && !cr_monster_in_view(g))
		travel_opts(g, seat, arr);
	return arr;
}

/* ---- the view ----------------------------------------------------------------------------- */

static cJSON *result_json(const game_state *st, uint32_t ai_mask);

static char tile_char(const cr_game *g, int x, int y)
{
	uint8_t f = g->flag[y][x];
	if (!(f & CR_F_SEEN))
		return ' ';
	if (f & CR_F_DOWN)
		return '>';
	if (f & CR_F_UP)
		return '<';
	if (f & CR_F_LAIR)
		return '_';
	if (f & CR_F_QMARK)
		return '?';
	if (f & CR_F_CHEST)
		return '$';
	static const char tc[] = {'#', '.', '+', '\''};
	return tc[g->lv.tile[y][x] & 3];
}

static const char *const end_names[] = {"", "won", "fallen", "time"};

static const char *hero_state(const cr_hero *h)
{
	if (!h->alive)
		return "fallen";
	if (h->screen == CR_SC_EVENT)
		return "event";
	if (h->screen == CR_SC_SHOP)
		return "shop";
	if (h->gate)
		return "gateway";
	if (h->travel == CR_TR_REST)
		return "resting";
	if (h->travel)
		return "travelling";
	return "map";
}

static cJSON *hero_json(const cr_game *g, int s)
{
	const cr_hero *h = &g->h[s];
	cJSON *o = cJSON_CreateObject();
	num(o, "seat", s);
	cJSON_AddStringToObject(o, "state", hero_state(h));
	cJSON_AddBoolToObject(o, "alive", h->alive);
	num(o, "x", h->x);
	num(o, "y", h->y);
	num(o, "hp", h->hp);
	num(o, "max_hp", h->max_hp);
	num(o, "level", h->level);
	num(o, "xp", h->xp);
	num(o, "xp_next", cr_xp_next(h->level));
	num(o, "gold", h->gold);
	int bonus = cr_attack_bonus(g, s);
	cJSON *atk = cJSON_AddArrayToObject(o, "attack");
	cJSON_AddItemToArray(atk, cJSON_CreateNumber(2 + bonus));
	cJSON_AddItemToArray(atk, cJSON_CreateNumber(4 + bonus));
	num(o, "defense", cr_defense(g, s));
	num(o, "sight", cr_sight(g, s));
	cJSON_AddItemToObject(o, "weapon", h->weapon >= 0 ? item_json(g, h->weapon)
							  : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "armor", h->armor >= 0 ? item_json(g, h->armor)
							: cJSON_CreateNull());
	cJSON *inv = cJSON_AddArrayToObject(o, "inventory");
	for (int i = 0; i < cr_inv_slots(g, s); i++)
		cJSON_AddItemToArray(inv, h->inv[i] >= 0 ? item_json(g, h->inv[i])
							 : cJSON_CreateNull());
	cJSON *rel = cJSON_AddArrayToObject(o, "relics");
	for (int r = 0; r < CT(g)->n_relics; r++)
		if (h->relics >> r & 1)
			cJSON_AddItemToArray(rel, relic_json(g, r));
	cJSON_AddBoolToObject(o, "pet", h->pet);
	if (h->gate)
		num(o, "gateway", h->gate);
	else
		cJSON_AddNullToObject(o, "gateway");
	if (h->travel == CR_TR_EXPLORE || h->travel == CR_TR_REST) {
		cJSON_AddStringToObject(o, "travel", h->travel == CR_TR_REST ? "rest" : "explore");
	} else if (h->travel == CR_TR_TO) {
		cJSON *t = cJSON_AddArrayToObject(o, "travel");
		cJSON_AddItemToArray(t, cJSON_CreateNumber(h->tx));
		cJSON_AddItemToArray(t, cJSON_CreateNumber(h->ty));
	} else {
		cJSON_AddNullToObject(o, "travel");
	}
	if (h->screen == CR_SC_EVENT)
		cJSON_AddItemToObject(o, "event", event_obj(g, h->event, s));
	else
		cJSON_AddNullToObject(o, "event");
	if (h->screen == CR_SC_SHOP) {
		cJSON *sh = cJSON_AddObjectToObject(o, "shop");
		cJSON *items = cJSON_AddArrayToObject(sh, "items");
		for (int i = 0; i < CR_SHOP_ITEMS; i++) {
			if (h->shop[i] < 0) {
				cJSON_AddItemToArray(items, cJSON_CreateNull());
				continue;
			}
			cJSON *it = cJSON_CreateObject();
			cJSON_AddItemToObject(it, "item", item_json(g, h->shop[i]));
			num(it, "price", CT(g)->item[h->shop[i]].value);
			cJSON_AddItemToArray(items, it);
		}
		if (h->shop_relic >= 0) {
			cJSON *r = relic_json(g, h->shop_relic);
			num(r, "price", 70 + 20 * g->act);
			cJSON_AddItemToObject(sh, "relic", r);
		} else {
			cJSON_AddNullToObject(sh, "relic");
		}
	} else {
		cJSON_AddNullToObject(o, "shop");
	}
	num(o, "kills", h->kills);
	return o;
}

static cJSON *view(const game_state *st, int viewer)
{
	const cr_game *g = CST(st);
	cJSON *v = cJSON_CreateObject();
	cJSON_AddStringToObject(v, "kind", "crawl");
	num(v, "viewer", viewer);
	num(v, "decision", g->decision);
	num(v, "round", g->rounds);
	num(v, "act", g->act);
	num(v, "acts", g->cfg.acts);
	num(v, "visit", g->lv.visit);
	num(v, "max_act", g->max_act);
	cJSON_AddBoolToObject(v, "over", g->over);
	cJSON_AddBoolToObject(v, "won", g->won);
	if (g->over)
		cJSON_AddStringToObject(v, "end", end_names[g->end_reason]);
	else
		cJSON_AddNullToObject(v, "end");
	cJSON_AddBoolToObject(v, "first_run", g->first_run);
	cJSON_AddBoolToObject(v, "deadly_events", g->cfg.deadly_events);
	num(v, "question_marks_entered", g->qm_entered);
	num(v, "width", g->lv.w);
	num(v, "height", g->lv.h);
	cJSON *map = cJSON_AddArrayToObject(v, "map");
	cJSON *vis = cJSON_AddArrayToObject(v, "visible");
	char row[CR_MAX_W + 1], lit[CR_MAX_W + 1];
	for (int y = 0; y < g->lv.h; y++) {
		for (int x = 0; x < g->lv.w; x++) {
			row[x] = tile_char(g, x, y);
			lit[x] = g->flag[y][x] & CR_F_VISIBLE ? 'v' : ' ';
		}
		row[g->lv.w] = lit[g->lv.w] = '\0';
		cJSON_AddItemToArray(map, cJSON_CreateString(row));
		cJSON_AddItemToArray(vis, cJSON_CreateString(lit));
	}
	cJSON *mons = cJSON_AddArrayToObject(v, "monsters");
	for (int m = 0; m < g->n_mon; m++) {
		const cr_monster *mo = &g->mon[m];
		if (!mo->alive || !(g->flag[mo->y][mo->x] & CR_F_VISIBLE))
			continue;
		const cr_monster_kind *k = &CT(g)->monster[mo->kind];
		cJSON *o = cJSON_CreateObject();
		num(o, "id", m);
		cJSON_AddStringToObject(o, "kind", k->id);
		cJSON_AddStringToObject(o, "name", k->name);
		char glyph[2] = {k->glyph, 0};
		cJSON_AddStringToObject(o, "glyph", glyph);
		num(o, "x", mo->x);
		num(o, "y", mo->y);
		num(o, "hp", mo->hp);
		num(o, "max_hp", mo->max_hp);
		cJSON_AddBoolToObject(o, "awake", mo->awake);
		cJSON_AddBoolToObject(o, "elite", k->elite);
		cJSON_AddBoolToObject(o, "boss", k->boss);
		cJSON_AddItemToArray(mons, o);
	}
	cJSON *party = cJSON_AddArrayToObject(v, "party");
	for (int s = 0; s < g->seats; s++)
		cJSON_AddItemToArray(party, hero_json(g, s));
	if (g->n_vote) {
		cJSON *vo = cJSON_AddObjectToObject(v, "vote");
		cJSON_AddItemToObject(vo, "event", event_obj(g, g->vote[0], viewer >= 0 ? viewer : 0));
		num(vo, "seat", g->vote_seat);
		num(vo, "queued", g->n_vote - 1);
	} else {
		cJSON_AddNullToObject(v, "vote");
	}
	/* the result once over (a table puts its own, with its AI seats) */
	if (g->over)
		cJSON_AddItemToObject(v, "result", result_json(st, 0));
	else
		cJSON_AddNullToObject(v, "result");
	return v;
}

/* ---- events ------------------------------------------------------------------------------ */

static const char *const ev_names[] = {
	[CR_EV_LEVEL] = "level",       [CR_EV_STEP] = "step",	    [CR_EV_ATTACK] = "attack",
	[CR_EV_HIT] = "hit",	       [CR_EV_KILL] = "kill",	    [CR_EV_FALL] = "fall",
	[CR_EV_REVIVE] = "revive",     [CR_EV_LEVEL_UP] = "level_up", [CR_EV_QMARK] = "question_mark",
	[CR_EV_AMBUSH] = "ambush",     [CR_EV_CHEST] = "chest",	    [CR_EV_TREASURE] = "treasure",
	[CR_EV_EVENT] = "event",       [CR_EV_VOTE] = "vote",	    [CR_EV_CHOICE] = "event_choice",
	[CR_EV_CHANCE] = "chance",     [CR_EV_GOLD] = "gold",	    [CR_EV_HP] = "hp",
	[CR_EV_STAT] = "stat",	       [CR_EV_ITEM] = "item",	    [CR_EV_LOSE_ITEM] = "lose_item",
	[CR_EV_USE] = "use",	       [CR_EV_EQUIP] = "equip",	    [CR_EV_IDENTIFY] = "identify",
	[CR_EV_RELIC] = "relic",       [CR_EV_PET] = "pet",	    [CR_EV_SHOP] = "shop",
	[CR_EV_BUY] = "buy",	       [CR_EV_GATE] = "gateway",    [CR_EV_TRAVEL] = "travel",
	[CR_EV_MAP] = "map",	       [CR_EV_TELEPORT] = "teleport", [CR_EV_FIRE] = "fire",
	[CR_EV_DEVIL] = "devil",       [CR_EV_GAME_OVER] = "game_over", [CR_EV_NOTHING] = "nothing",
};

static const char *const stop_names[] = {"arrived", "monster", "found", "hurt",
					 "blocked", "screen",  "done",  "rested"};
static const char *const stat_names[] = {"max_hp", "attack", "defense", "xp"};

static void monster_fields(const cr_game *g, cJSON *o, int32_t ref)
{
	int kind = CR_MON_KIND(ref);
	num(o, "monster", CR_MON_INDEX(ref));
	if (kind < CT(g)->n_monsters)
		cJSON_AddStringToObject(o, "name", CT(g)->monster[kind].name);
}

static cJSON *event_json(const game_state *st, const game_event *ev, int viewer)
{
	const cr_game *g = CST(st);
	(void)viewer; /* C47: what the party experiences is the party's to see */
	if (ev->type < CR_EV_LEVEL || ev->type > CR_EV_NOTHING)
		return NULL;
	cJSON *o = game_event_json_head(ev, "event", ev_names[ev->type]);
	switch (ev->type) {
	case CR_EV_LEVEL:
		num(o, "act", ev->a);
		num(o, "visit", ev->b);
		num(o, "question_marks", ev->c);
		break;
	case CR_EV_STEP:
	case CR_EV_TELEPORT:
		num(o, "x", ev->a);
		num(o, "y", ev->b);
		break;
	case CR_EV_ATTACK:
	case CR_EV_HIT:
		monster_fields(g, o, ev->a);
		num(o, "damage", ev->b);
		num(o, "hp", ev->c);
		break;
	case CR_EV_KILL:
		monster_fields(g, o, ev->a);
		num(o, "xp", ev->b);
		num(o, "gold", ev->c);
		break;
	case CR_EV_AMBUSH:
		monster_fields(g, o, ev->a);
		break;
	case CR_EV_DEVIL:
		monster_fields(g, o, ev->a);
		break;
	case CR_EV_REVIVE:
		num(o, "hp", ev->a);
		break;
	case CR_EV_LEVEL_UP:
		num(o, "level", ev->a);
		break;
	case CR_EV_QMARK:
		cJSON_AddStringToObject(o, "room", cr_room_names[ev->a]);
		cJSON_AddBoolToObject(o, "rolled", ev->b);
		num(o, "entered", ev->c);
		break;
	case CR_EV_CHEST:
	case CR_EV_TREASURE:
		num(o, "gold", ev->a);
		if (ev->type == CR_EV_TREASURE)
			cJSON_AddBoolToObject(o, "relic", ev->c);
		break;
	case CR_EV_EVENT:
	case CR_EV_CHOICE: {
		const cr_event *e = &CT(g)->event[ev->a];
		cJSON_AddStringToObject(o, "id", e->id);
		cJSON_AddStringToObject(o, "name", e->name);
		if (ev->type == CR_EV_EVENT) {
			cJSON_AddBoolToObject(o, "shared", ev->b);
		} else {
			num(o, "option", ev->b);
			cJSON_AddStringToObject(o, "label", e->option[ev->b].label);
		}
		break;
	}
	case CR_EV_VOTE:
		cJSON_AddStringToObject(o, "id", CT(g)->event[ev->a].id);
		num(o, "option", ev->b);
		num(o, "votes", ev->c & 0xff);
		cJSON_AddBoolToObject(o, "tied", ev->c >> 8 & 1);
		break;
	case CR_EV_CHANCE:
		num(o, "percent", ev->a);
		cJSON_AddBoolToObject(o, "hit", ev->b);
		break;
	case CR_EV_GOLD:
	case CR_EV_HP:
		num(o, "change", ev->a);
		num(o, ev->type == CR_EV_GOLD ? "gold" : "hp", ev->b);
		break;
	case CR_EV_STAT:
		cJSON_AddStringToObject(o, "stat", stat_names[ev->a & 3]);
		num(o, "change", ev->b);
		break;
	case CR_EV_ITEM:
	case CR_EV_LOSE_ITEM:
	case CR_EV_USE:
	case CR_EV_EQUIP:
	case CR_EV_IDENTIFY:
		if (ev->a >= 0 && ev->a < CT(g)->n_items)
			cJSON_AddItemToObject(o, "item", item_json(g, ev->a));
		if (ev->type == CR_EV_ITEM)
			num(o, "slot", ev->b);
		if (ev->type == CR_EV_USE)
			cJSON_AddBoolToObject(o, "identified", ev->b);
		if (ev->type == CR_EV_LOSE_ITEM)
			cJSON_AddBoolToObject(o, "dropped", ev->b);
		break;
	case CR_EV_RELIC:
		cJSON_AddItemToObject(o, "relic", relic_json(g, ev->a));
		break;
	case CR_EV_BUY:
		if (ev->a >= 0)
			cJSON_AddItemToObject(o, "item", item_json(g, ev->a));
		if (ev->b >= 0)
			cJSON_AddItemToObject(o, "relic", relic_json(g, ev->b));
		num(o, "price", ev->c);
		break;
	case CR_EV_GATE:
		if (ev->a)
			num(o, "to_act", ev->a);
		else
			cJSON_AddNullToObject(o, "to_act");
		num(o, "fee", ev->b);
		break;
	case CR_EV_TRAVEL:
		cJSON_AddBoolToObject(o, "start", ev->a);
		if (ev->a)
			cJSON_AddStringToObject(o, "mode", ev->b == CR_TR_EXPLORE ? "explore"
							   : ev->b == CR_TR_REST  ? "rest"
										  : "to");
		else
			cJSON_AddStringToObject(o, "why",
						stop_names[ev->b % ARRAY_LEN(stop_names)]);
		break;
	case CR_EV_FIRE:
		num(o, "damage", ev->a);
		num(o, "hit", ev->b);
		break;
	case CR_EV_GAME_OVER:
		cJSON_AddStringToObject(o, "end", end_names[ev->a & 3]);
		num(o, "rounds", ev->b);
		break;
	}
	return o;
}

/* ---- result, statistics, achievements (C45, C46) ------------------------------------------- */

static void result(const game_state *st, int64_t *scores, uint32_t *winners)
{
	const cr_game *g = CST(st);
	for (int s = 0; s < g->seats; s++)
		scores[s] = cr_score(g, s);
	*winners = g->won ? (1u << g->seats) - 1 : 0;
}

enum {
	ST_RUNS,
	ST_WINS,
	ST_FALLS,
	ST_KILLS,
	ST_ELITES,
	ST_GOLD,
	ST_BEST,
	ST_DEEPEST,
	ST_QMARKS,
	ST_EVENTS,
	ST_POTIONS,
	ST_DAMAGE,
	ST_ROUNDS,
	ST_FASTEST,
	N_STATS
};

static const game_stat_def stat_defs[N_STATS] = {
	[ST_RUNS] = {"crawl_runs", "Runs", GAME_STAT_SUM},
	[ST_WINS] = {"crawl_wins", "Devils Slain", GAME_STAT_SUM},
	[ST_FALLS] = {"crawl_falls", "Times Fallen", GAME_STAT_SUM},
	[ST_KILLS] = {"crawl_kills", "Monsters Slain", GAME_STAT_SUM},
	[ST_ELITES] = {"crawl_elite_kills", "Elites Slain", GAME_STAT_SUM},
	[ST_GOLD] = {"crawl_gold", "Gold Found", GAME_STAT_SUM},
	[ST_BEST] = {"crawl_best_score", "Best Score", GAME_STAT_MAX},
	[ST_DEEPEST] = {"crawl_deepest_act", "Deepest Act", GAME_STAT_MAX},
	[ST_QMARKS] = {"crawl_question_marks", "? Tiles Entered", GAME_STAT_SUM},
	[ST_EVENTS] = {"crawl_events", "Events Seen", GAME_STAT_SUM},
	[ST_POTIONS] = {"crawl_potions", "Potions Drunk", GAME_STAT_SUM},
	[ST_DAMAGE] = {"crawl_damage_taken", "Damage Taken", GAME_STAT_SUM},
	[ST_ROUNDS] = {"crawl_rounds", "Rounds Played", GAME_STAT_SUM},
	[ST_FASTEST] = {"crawl_fastest_win", "Fastest Win (rounds)", GAME_STAT_MIN},
};

static void stats(const game_state *st, int seat, uint32_t ai_mask, int64_t *v)
{
	(void)ai_mask;
	const cr_game *g = CST(st);
	int lo = seat < 0 ? 0 : seat, hi = seat < 0 ? g->seats : seat + 1;
	for (int i = 0; i < N_STATS; i++)
		v[i] = 0;
	v[ST_RUNS] = 1;
	v[ST_WINS] = g->won;
	v[ST_DEEPEST] = g->max_act;
	v[ST_ROUNDS] = g->rounds;
	v[ST_FASTEST] = g->won ? g->rounds : GAME_STAT_NONE;
	v[ST_BEST] = GAME_STAT_NONE;
	for (int s = lo; s < hi; s++) {
		const cr_hero *h = &g->h[s];
		v[ST_FALLS] += h->falls;
		v[ST_KILLS] += h->kills;
		v[ST_ELITES] += h->elite_kills;
		v[ST_GOLD] += h->gold_earned;
		v[ST_QMARKS] += h->qmarks;
		v[ST_EVENTS] += h->events_seen;
		v[ST_POTIONS] += h->potions;
		v[ST_DAMAGE] += h->damage_taken;
		v[ST_BEST] = game_stat_max(v[ST_BEST], cr_score(g, s));
	}
}

enum { ACH_SLAYER, ACH_UNTOUCHED, ACH_ALCHEMIST, ACH_POCKETS, ACH_LONG_WAY, ACH_HUNTER, N_ACH };

static const game_achievement_def ach_defs[N_ACH] = {
	[ACH_SLAYER] = {"devil_slayer", "Devil Slayer"},
	[ACH_UNTOUCHED] = {"untouchable", "Slew the Devil without Falling"},
	[ACH_ALCHEMIST] = {"alchemist", "Every Potion Known in One Run"},
	[ACH_POCKETS] = {"deep_pockets", "Ended a Run with 300 Gold"},
	[ACH_LONG_WAY] = {"the_long_way_round", "Visited an Act Twice"},
	[ACH_HUNTER] = {"monster_hunter", "30 Monsters Slain in One Run"},
};

static uint32_t achievements(const game_state *st, int seat, uint32_t ai_mask)
{
	(void)ai_mask;
	const cr_game *g = CST(st);
	if (!g->over || seat < 0 || seat >= g->seats)
		return 0;
	const cr_hero *h = &g->h[seat];
	uint32_t a = 0;
	if (g->won)
		a |= 1u << ACH_SLAYER;
	if (g->won && !h->falls)
		a |= 1u << ACH_UNTOUCHED;
	bool all = true;
	for (int k = 0; k < CT(g)->n_items; k++)
		if (CT(g)->item[k].cls == CR_IC_POTION && !(g->identified >> k & 1))
			all = false;
	if (all)
		a |= 1u << ACH_ALCHEMIST;
	if (h->gold >= 300)
		a |= 1u << ACH_POCKETS;
	int arrivals = 0;
	for (int act = 1; act <= CR_MAX_ACTS; act++)
		arrivals += g->visits[act];
	if (arrivals > g->max_act) /* some act was visited twice */
		a |= 1u << ACH_LONG_WAY;
	if (h->kills >= 30)
		a |= 1u << ACH_HUNTER;
	return a;
}

static cJSON *result_json(const game_state *st, uint32_t ai_mask)
{
	const cr_game *g = CST(st);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "won", g->won);
	cJSON_AddStringToObject(o, "end", end_names[g->end_reason & 3]);
	num(o, "rounds", g->rounds);
	num(o, "decisions", g->decision - 1);
	num(o, "acts_reached", g->max_act);
	num(o, "levels", g->floors);
	cJSON *sc = cJSON_AddArrayToObject(o, "scores");
	cJSON *w = cJSON_AddArrayToObject(o, "winners");
	for (int s = 0; s < g->seats; s++) {
		cJSON_AddItemToArray(sc, cJSON_CreateNumber((double)cr_score(g, s)));
		if (g->won)
			cJSON_AddItemToArray(w, cJSON_CreateNumber(s));
	}
	cJSON *qm = cJSON_AddArrayToObject(o, "question_marks");
	for (int act = 1; act <= g->cfg.acts; act++) {
		cJSON *a = cJSON_CreateObject();
		num(a, "act", act);
		for (int t = 0; t < CR_NROOM; t++)
			num(a, cr_room_names[t], g->room_count[act][t]);
		cJSON_AddItemToArray(qm, a);
	}
	cJSON *ps = cJSON_AddArrayToObject(o, "players");
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *h = &g->h[s];
		cJSON *p = cJSON_CreateObject();
		num(p, "seat", s);
		num(p, "score", (double)cr_score(g, s));
		cJSON_AddBoolToObject(p, "ai", ai_mask >> s & 1);
		num(p, "gold", h->gold);
		num(p, "level", h->level);
		num(p, "kills", h->kills);
		num(p, "falls", h->falls);
		num(p, "question_marks", h->qmarks);
		num(p, "events", h->events_seen);
		cJSON_AddItemToObject(p, "achievements",
				      game_achievements_json(ach_defs, N_ACH,
							     achievements(st, s, ai_mask), false));
		cJSON_AddItemToArray(ps, p);
	}
	return o;
}

const game_kind crawl_kind = {
	.name = "crawl",
	.min_seats = 1,
	.max_seats = CR_MAX_SEATS,
	.config_new = config_new,
	.config_free = config_free,
	.config_json = config_json,
	.shared_new = shared_new,
	.shared_free = shared_free,
	.shared_json = shared_json,
	.shared_fold = shared_fold,
	.shared_defs = shared_defs,
	.n_shared = 4,
	.create = create,
	.destroy = destroy,
	.pending = pending,
	.is_over = is_over,
	.options = options,
	.options_json = options_json,
	.choice_parse = choice_parse,
	.choice_json = choice_json,
	.apply = apply,
	.ai_choose = ai_choose,
	.view = view,
	.event_json = event_json,
	.over_view_has_result = true,
	.result = result,
	.result_json = result_json,
	.stat_defs = stat_defs,
	.n_stats = N_STATS,
	.stats = stats,
	.achievement_defs = ach_defs,
	.n_achievements = N_ACH,
	.achievements = achievements,
};
