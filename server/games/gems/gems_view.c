/*
 * gems_view.c — what a seat (or a spectator) may see, as JSON: the view of
 * the table, each event, the options and the result (proto/kinds/gems.md).
 *
 * The rule of this file: read only what the rules have revealed. The rooms
 * ahead (rooms[cur+1..]) are never read here, not even their count beyond
 * what the odds already tell; the Monte layout after the shuffle is never
 * written (only the swaps); draws that decide an outcome are made when it is
 * revealed, so they are not in the state before. The test suite checks that
 * permuting the unseen rooms leaves every view unchanged.
 */
#include <math.h>
#include <stdio.h>

#include "../../../common/util.h"
#include "../game_json.h"
#include "gems_int.h"
#include "gems_kind.h"

static const char *const kind_names[] = {
	[GEMS_ROOM_GEM] = "gem", [GEMS_ROOM_BAR] = "bar", [GEMS_ROOM_WARNING] = "warning",
	[GEMS_ROOM_ADV] = "adventure", [GEMS_ROOM_DEAD] = "dead_spider", [GEMS_ROOM_LAIR] = "lair",
};

static const char *const end_names[] = {"all_left", "lair", "exhausted"};

/* A fraction as the view shows it (G39): rounded to 4 decimals — what a
 * player can read off it — so a view holds "0.7733", not
 * "0.77333333333333343". (Never -0: a tiny negative EV shows as 0.) */
static double shown(double x)
{
	double r = nearbyint(x * 1e4) / 1e4;
	return r == 0 ? 0 : r;
}

const char *gems_room_kind_key(int kind)
{
	return name_at(kind_names, (int)ARRAY_LEN(kind_names), kind);
}

const char *gems_end_key(int end) { return name_at(end_names, (int)ARRAY_LEN(end_names), end); }

/* One room already met (index i <= cur). */
static cJSON *met_room_json(const gems_game *g, int i)
{
	gems_room r = g->rooms[i];
	int kind = gems_met_kind(r);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "depth", i + 1);
	cJSON_AddStringToObject(o, "kind", gems_room_kind_key(kind));
	if (kind == GEMS_ROOM_GEM)
		cJSON_AddNumberToObject(o, "gems", g->met_value[i]);
	else if (kind == GEMS_ROOM_BAR)
		cJSON_AddNumberToObject(o, "value", g->met_value[i]);
	else if (kind == GEMS_ROOM_WARNING) {
		cJSON_AddNumberToObject(o, "warning", g->met_value[i]);
		cJSON_AddStringToObject(o, "message", gems_warning_text(g->met_value[i]));
	}
	else if (kind == GEMS_ROOM_ADV)
		cJSON_AddStringToObject(o, "adventure", gems_adv_key(r.arg));
	return o;
}

static cJSON *swaps_json(uint32_t swaps, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int k = 0; k < n; k++) {
		int left_out = (int)(swaps >> (2 * k) & 3);
		int pair[2] = {left_out == 0 ? 1 : 0, left_out == 2 ? 1 : 2};
		cJSON_AddItemToArray(a, cJSON_CreateIntArray(pair, 2));
	}
	return a;
}

/* G18: the report's lower end, or null when it is at or before the next
 * room (then there is no minimum and the lair may be right ahead). */
static void add_minimum(cJSON *o, int r, int x, int depth)
{
	if (r - x > depth + 1)
		cJSON_AddNumberToObject(o, "minimum", r - x);
	else
		cJSON_AddNullToObject(o, "minimum");
}

/* What the current adventure room shows before the choices. */
static void adventure_json(const gems_game *g, cJSON *room)
{
	int adv = g->rooms[g->cur].arg, part = g->adv_met;
	cJSON_AddNumberToObject(room, "part", part);
	switch (adv) {
	case GEMS_ADV_SUNMOON:
		cJSON_AddNumberToObject(room, "amount", gems_sunmoon_amount(part));
		break;
	case GEMS_ADV_FERRY:
		cJSON_AddNumberToObject(room, "toll", gems_ferry_toll(part));
		break;
	case GEMS_ADV_MONTE: {
		/* G17: the cards face up before the shuffle, then the swaps; the
		 * layout after the shuffle is never sent before the pick. */
		int cards[3] = {2, 1, g->monte_third};
		cJSON_AddItemToObject(room, "cards", cJSON_CreateIntArray(cards, 3));
		cJSON_AddItemToObject(room, "swaps",
				      swaps_json((uint32_t)g->monte_swaps, GEMS_MONTE_SWAPS));
		break;
	}
	case GEMS_ADV_SPHINX: {
		int n = g->seats < 6 ? g->seats : 6;
		cJSON_AddNumberToObject(room, "coins_low", n);
		cJSON_AddNumberToObject(room, "coins_high", 2 * n);
		if (g->phase == GEMS_PH_COIN && g->sphinx_double >= 0)
			cJSON_AddStringToObject(room, "double_path",
						g->sphinx_double ? "right" : "left");
		break;
	}
	case GEMS_ADV_SCOUT:
		cJSON_AddNumberToObject(room, "spider_at", g->scout_r);
		cJSON_AddNumberToObject(room, "within", g->scout_x);
		add_minimum(room, g->scout_r, g->scout_x, g->depth);
		break;
	default:
		break;
	}
}

static cJSON *player_json(const gems_game *g, int i)
{
	const gems_seat *s = &g->seat[i];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "seat", i);
	cJSON_AddBoolToObject(o, "inside", s->inside);
	cJSON_AddBoolToObject(o, "pending", g->pending >> i & 1);
	cJSON_AddNumberToObject(o, "hand", s->hand);
	cJSON_AddNumberToObject(o, "chest", s->chest);
	cJSON_AddNumberToObject(o, "bars", s->bars);
	cJSON_AddNumberToObject(o, "size", 1 << s->size);
	cJSON_AddNumberToObject(o, "owed", s->owed);
	cJSON_AddNumberToObject(o, "queens", s->queens);
	cJSON_AddNumberToObject(o, "changelings", s->changelings);
	if (g->phase == GEMS_PH_COIN && s->inside)
		cJSON_AddStringToObject(o, "path", s->path ? "right" : "left");
	if (s->inside && g->phase != GEMS_PH_OVER) {
		cJSON_AddNumberToObject(o, "ev", shown(gems_ev(g, i)));
		cJSON_AddNumberToObject(o, "take", shown(gems_take(g, i)));
	}
	return o;
}

static cJSON *history_json(const gems_game *g)
{
	cJSON *a = cJSON_CreateArray();
	int done = g->phase == GEMS_PH_OVER ? GEMS_DUNGEONS : g->dungeon;
	for (int d = 0; d < done; d++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "dungeon", d + 1);
		cJSON_AddStringToObject(o, "adventure", gems_adv_key(g->adv[d]));
		cJSON_AddNumberToObject(o, "depth", g->dungeon_depth[d]);
		cJSON_AddStringToObject(o, "end", gems_end_key(g->dungeon_end[d]));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *floor_json(const gems_game *g)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "gems", g->floor_gems);
	cJSON_AddItemToObject(o, "bars", cJSON_CreateIntArray(g->floor_bars, g->n_floor_bars));
	return o;
}

cJSON *gems_view_json(const gems_game *g, int viewer)
{
	cJSON *v = cJSON_CreateObject();
	static const char *const phases[] = {"decide", "coin_room", "over"};
	cJSON_AddStringToObject(v, "kind", "gems");
	cJSON_AddNumberToObject(v, "viewer", viewer);
	cJSON_AddNumberToObject(v, "seat_count", g->seats);
	cJSON_AddStringToObject(v, "phase", phases[g->phase]);
	cJSON_AddNumberToObject(v, "dungeon", g->dungeon + 1);
	cJSON_AddNumberToObject(v, "dungeons", GEMS_DUNGEONS);
	cJSON_AddItemToObject(v, "history", history_json(g));
	cJSON *players = cJSON_AddArrayToObject(v, "players");
	for (int i = 0; i < g->seats; i++)
		cJSON_AddItemToArray(players, player_json(g, i));
	if (g->phase == GEMS_PH_OVER) {
		cJSON_AddItemToObject(v, "result", gems_result_json(g, 0));
		return v;
	}
	cJSON_AddNumberToObject(v, "depth", g->depth);
	cJSON_AddNumberToObject(v, "bravery", g->bravery);
	cJSON_AddNumberToObject(v, "gold_bars_undiscovered", g->bars_undiscovered);
	if (g->adv_known)
		cJSON_AddStringToObject(v, "adventure", gems_adv_key(g->adv[g->dungeon]));
	else
		cJSON_AddNullToObject(v, "adventure");
	cJSON_AddNumberToObject(v, "poisons_unused", g->poisons_unused);
	cJSON *path = cJSON_AddArrayToObject(v, "path");
	for (int i = 0; i <= g->cur && i < g->n_rooms; i++)
		cJSON_AddItemToArray(path, met_room_json(g, i));
	cJSON *room = met_room_json(g, g->cur);
	if (g->rooms[g->cur].kind == GEMS_ROOM_ADV)
		adventure_json(g, room);
	cJSON_AddItemToObject(v, "room", room);
	cJSON_AddItemToObject(v, "floor", floor_json(g));
	cJSON *odds = cJSON_AddObjectToObject(v, "odds");
	cJSON_AddNumberToObject(odds, "lair", shown(g->odds));
	cJSON_AddNumberToObject(odds, "rumor", shown(g->rumor));
	if (viewer >= 0 && viewer < g->seats && g->seat[viewer].inside) { /* the hand icon */
		cJSON_AddNumberToObject(odds, "ev", shown(gems_ev(g, viewer)));
		cJSON_AddNumberToObject(odds, "take", shown(gems_take(g, viewer)));
	}
	if (viewer >= 0 && viewer < g->seats && (g->pending >> viewer & 1))
		cJSON_AddItemToObject(v, "options", gems_options_json(g, viewer));
	return v;
}

/* ---- events ------------------------------------------------------------ */

static void add(cJSON *o, const char *k, double v) { cJSON_AddNumberToObject(o, k, v); }

static const char *path_key(int p) { return p ? "right" : "left"; }

static void event_fields(const game_event *e, cJSON *o)
{
	switch (e->type) {
	case GEMS_EV_GAME_START: add(o, "seats", e->a); break;
	case GEMS_EV_DUNGEON_START:
		add(o, "dungeon", e->a); add(o, "bravery", e->b);
		add(o, "gold_bars_undiscovered", e->c); break;
	case GEMS_EV_ROOM:
		add(o, "depth", e->a);
		cJSON_AddStringToObject(o, "kind", gems_room_kind_key(e->b));
		if (e->b == GEMS_ROOM_ADV)
			cJSON_AddStringToObject(o, "adventure", gems_adv_key(e->c));
		break;
	case GEMS_EV_BATS: case GEMS_EV_LAIR: add(o, "depth", e->a); break;
	case GEMS_EV_GEMS: add(o, "gems", e->a); add(o, "floor", e->b); break;
	case GEMS_EV_SHARE: add(o, "gems", e->a); break;
	case GEMS_EV_BAR: add(o, "value", e->a); add(o, "size", e->b); break;
	case GEMS_EV_WARNING:
		cJSON_AddStringToObject(o, "message", gems_warning_text(e->a)); break;
	case GEMS_EV_SCARED: add(o, "gems_lost", e->a); add(o, "people_dropped", e->b); break;
	case GEMS_EV_DEAD_SPIDER: case GEMS_EV_POISON: add(o, "poisons_unused", e->a); break;
	case GEMS_EV_ADVENTURE:
		cJSON_AddStringToObject(o, "adventure", gems_adv_key(e->a));
		add(o, "part", e->b); break;
	case GEMS_EV_FERRY_GRANT: add(o, "toll", e->a); break;
	case GEMS_EV_MONTE_DEAL: {
		int cards[3] = {2, 1, e->a};
		cJSON_AddItemToObject(o, "cards", cJSON_CreateIntArray(cards, 3));
		cJSON_AddItemToObject(o, "swaps", swaps_json((uint32_t)e->b, e->c));
		break;
	}
	case GEMS_EV_SCOUT:
		add(o, "spider_at", e->a); add(o, "within", e->b); add_minimum(o, e->a, e->b, e->c);
		break;
	case GEMS_EV_PEOPLE: add(o, "paid", e->a); add(o, "stolen", e->b); break;
	case GEMS_EV_CHOICE: cJSON_AddStringToObject(o, "choice", gems_choice_key(e->a)); break;
	case GEMS_EV_BANK: add(o, "gems", e->a); add(o, "cash", e->b); break;
	case GEMS_EV_SUNMOON:
		cJSON_AddStringToObject(o, "pays", e->a ? "moon" : "sun");
		add(o, "amount", e->b); break;
	case GEMS_EV_SUNMOON_SEAT: add(o, "gems", e->a); break;
	case GEMS_EV_MONTE_REVEAL: {
		int cards[3];
		for (int p = 0; p < 3; p++)
			cards[p] = (e->a >> (4 * p) & 15) - 4;
		cJSON_AddItemToObject(o, "cards", cJSON_CreateIntArray(cards, 3));
		break;
	}
	case GEMS_EV_MONTE_SEAT: add(o, "card", e->a); add(o, "gems", e->b); break;
	case GEMS_EV_FERRY_PAY: add(o, "paid", e->a); break;
	case GEMS_EV_SPHINX:
		cJSON_AddStringToObject(o, "double_path", path_key(e->a));
		add(o, "n", e->b); break;
	case GEMS_EV_COINS:
		add(o, "coins", e->a); cJSON_AddStringToObject(o, "path", path_key(e->b));
		add(o, "left_in_room", e->c); break;
	case GEMS_EV_MUSHROOM:
		cJSON_AddStringToObject(o, "eaters", e->a ? "grow" : "shrink"); break;
	case GEMS_EV_SIZE: add(o, "size", e->a); break;
	case GEMS_EV_DEVIL:
		add(o, "rooms", e->a); add(o, "cash", e->b); add(o, "owed", e->c); break;
	case GEMS_EV_CARRY:
		cJSON_AddStringToObject(o, "people", e->a ? "queens" : "changelings");
		add(o, "carriers", e->b); break;
	case GEMS_EV_LEAVE:
		add(o, "hand", e->a); add(o, "floor_gems", e->b); add(o, "coins", e->c); break;
	case GEMS_EV_LEAVE_BAR: add(o, "value", e->a); break;
	case GEMS_EV_BRAVERY: add(o, "bravery", e->a); break;
	case GEMS_EV_DUNGEON_END:
		add(o, "dungeon", e->a); cJSON_AddStringToObject(o, "end", gems_end_key(e->b));
		add(o, "depth", e->c); break;
	case GEMS_EV_REVEAL_ADV: cJSON_AddStringToObject(o, "adventure", gems_adv_key(e->a)); break;
	case GEMS_EV_REVEAL_ROOM:
		add(o, "depth", e->a); cJSON_AddStringToObject(o, "kind", gems_room_kind_key(e->b));
		if (e->b == GEMS_ROOM_ADV)
			cJSON_AddStringToObject(o, "adventure", gems_adv_key(e->c));
		else if (e->b == GEMS_ROOM_GEM)
			add(o, "level", e->c);
		break;
	case GEMS_EV_GAME_OVER: {
		add(o, "winning_score", e->a); add(o, "deepest", e->b);
		cJSON *w = cJSON_AddArrayToObject(o, "winners");
		for (int i = 0; i < GAME_MAX_SEATS; i++)
			if (e->c >> i & 1)
				cJSON_AddItemToArray(w, cJSON_CreateNumber(i));
		break;
	}
	default: break;
	}
}

cJSON *gems_event_to_json(const game_event *e, int viewer)
{
	(void)viewer; /* no event carries anything one seat may see and another not */
	if (e->type == GEMS_EV_ADV_USED || e->type == 0 || e->type >= GEMS_N_EVENTS)
		return NULL; /* G10 bookkeeping for the server only: it tells the lair */
	cJSON *o = game_event_json_head(e, "type", gems_event_key(e->type));
	event_fields(e, o);
	return o;
}
