/*
 * df_kind.c — DEEPFALL as a lair game kind (server/games/game.h): the
 * vtable, and the JSON the protocol documents in proto/kinds/deepfall.md
 * (config, options, choices, the per-seat view, events, result, statistics
 * and achievements). The rules live in df_rules.c / df_maw.c; this file
 * only translates.
 *
 * A round is a run of decisions (df_round.c): at each, every party still in
 * its turn sends {"press": true} or its act {target, recruit, exit}. Nothing in DEEPFALL is hidden but the order of the
 * dice in each bag, which no view or event ever carries (a bag is shown as
 * counts per die kind) (DF2).
 */
#include "deepfall.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/util.h"
#include "../game_json.h"

#define ST(p) ((df_game *)(p))
#define CST(p) ((const df_game *)(p))

static void *config_new(const cJSON *json, char *err, size_t errlen)
{
	df_config c;
	if (df_config_parse(&c, json, err, errlen) != 0)
		return NULL;
	return xmemdup(&c, sizeof c);
}

static void config_free(void *c) { free(c); }
static cJSON *config_json(const void *c) { return df_config_json(c); }

static game_state *create(const void *config, int seats, uint64_t seed, const void *shared,
			  game_events *out, char *err, size_t errlen)
{
	(void)shared;
	if (seats < 1 || seats > DF_MAX_SEATS) {
		snprintf(err, errlen, "deepfall takes 1..%d seats", DF_MAX_SEATS);
		return NULL;
	}
	df_game *g = xcalloc(1, sizeof *g);
	df_game_init(g, config, seats, seed, out);
	return (game_state *)g;
}

static void destroy(game_state *st) { free(st); }

static uint32_t pending(const game_state *st) { return df_pending(CST(st)); }

static bool is_over(const game_state *st) { return CST(st)->over != 0; }

const char *const df_exit_names[DF_NEXIT] = {"persist", "cash_out", "last_stand"};

/* The exits offered to a seat in the act step (DF50-DF52). */
static int exits_offered(const df_game *g, int seat)
{
	return 1 << DF_PERSIST | 1 << DF_CASH_OUT |
	       (df_stand_offered(g, seat) ? 1 << DF_LAST_STAND : 0);
}

static int options(const game_state *st, int seat, game_choice *out, int max)
{
	const df_game *g = CST(st);
	if (g->over || !game_seat_asked(df_pending(g), g->seats, seat))
		return 0;
	int n = 0;
	if (df_can_press(g, seat)) {
		if (n < max)
			out[n] = DF_PRESS;
		n++;
	}
	int ex = exits_offered(g, seat);
	for (int t = 1; t <= g->frontier; t++)
		for (int r = 0; r <= 1; r++)
			for (int e = 0; e < DF_NEXIT; e++) {
				if (!(ex >> e & 1))
					continue;
				if (n < max)
					out[n] = df_act_pack((df_act){t, r, e});
				n++;
			}
	return n;
}

static cJSON *options_json(const game_state *st, int seat)
{
	const df_game *g = CST(st);
	cJSON *arr = cJSON_CreateArray();
	if (g->over || !game_seat_asked(df_pending(g), g->seats, seat))
		return arr;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "hands", g->pl[seat].party.hands);
	cJSON_AddBoolToObject(o, "press", df_can_press(g, seat));
	cJSON *t = cJSON_AddObjectToObject(o, "target");
	cJSON_AddNumberToObject(t, "min", 1);
	cJSON_AddNumberToObject(t, "max", g->frontier);
	cJSON *r = cJSON_AddArrayToObject(o, "recruit");
	cJSON_AddItemToArray(r, cJSON_CreateFalse());
	cJSON_AddItemToArray(r, cJSON_CreateTrue());
	cJSON *e = cJSON_AddArrayToObject(o, "exit");
	int ex = exits_offered(g, seat);
	for (int i = 0; i < DF_NEXIT; i++)
		if (ex >> i & 1)
			cJSON_AddItemToArray(e, cJSON_CreateString(df_exit_names[i]));
	cJSON_AddItemToArray(arr, o);
	return arr;
}

/* A choice is {"press": true} (roll one more hand), or the act that ends
 * the turn: {"target": floor, "recruit": bool, "exit": name}, where
 * "press": false may be given too (DF32, DF33). */
static int parse_choice(const cJSON *json, game_choice *out, char *err, size_t errlen)
{
	df_act a = {0, 0, DF_PERSIST};
	bool have_target = false, act_field = false;
	int press = -1;
	const cJSON *it;
	cJSON_ArrayForEach(it, json)
	{
		const char *k = it->string;
		if (strcmp(k, "press") == 0) {
			if (!cJSON_IsBool(it)) {
				snprintf(err, errlen, "'press' must be true or false");
				return GAME_ERR_MALFORMED;
			}
			press = cJSON_IsTrue(it);
			continue;
		}
		act_field = true;
		if (strcmp(k, "target") == 0) {
			/* Range first (NaN fails it too): (int) of a double outside int is UB. */
			double v = cJSON_IsNumber(it) ? it->valuedouble : -1;
			if (!(v >= 0 && v <= 255) || v != (double)(int)v) {
				snprintf(err, errlen, "'target' must be a small integer");
				return GAME_ERR_MALFORMED;
			}
			a.target = (int)v;
			have_target = true;
		} else if (strcmp(k, "recruit") == 0) {
			if (!cJSON_IsBool(it)) {
				snprintf(err, errlen, "'recruit' must be true or false");
				return GAME_ERR_MALFORMED;
			}
			a.recruit = cJSON_IsTrue(it);
		} else if (strcmp(k, "exit") == 0) {
			int e = cJSON_IsString(it)
					? name_index(df_exit_names, DF_NEXIT, it->valuestring)
					: -1;
			if (e < 0) {
				snprintf(err, errlen, "'exit' must be \"persist\", \"cash_out\" "
						      "or \"last_stand\"");
				return GAME_ERR_MALFORMED;
			}
			a.exit = e;
		} else {
			snprintf(err, errlen, "unknown field '%s' in a deepfall choice", k);
			return GAME_ERR_MALFORMED;
		}
	}
	if (press == 1) {
		if (act_field) {
			snprintf(err, errlen, "a press ({\"press\": true}) takes no act fields");
			return GAME_ERR_MALFORMED;
		}
		*out = DF_PRESS;
		return GAME_OK;
	}
	if (!have_target) {
		snprintf(err, errlen, "a deepfall choice is {\"press\": true} or an act "
				      "with 'target' (a floor)");
		return GAME_ERR_MALFORMED;
	}
	*out = df_act_pack(a);
	return GAME_OK;
}

static int choice_parse(const game_state *st, int seat, const cJSON *json, game_choice *out,
			char *err, size_t errlen)
{
	const df_game *g = CST(st);
	if (g->over) {
		snprintf(err, errlen, "the game is over");
		return GAME_ERR_OVER;
	}
	if (!game_seat_asked(df_pending(g), g->seats, seat)) {
		snprintf(err, errlen, "seat %d is not pending", seat);
		return GAME_ERR_NOT_PENDING;
	}
	if (!cJSON_IsObject(json)) {
		snprintf(err, errlen, "a deepfall choice is an object: {press} or {target, "
				      "recruit, exit}");
		return GAME_ERR_MALFORMED;
	}
	game_choice code;
	int rc = parse_choice(json, &code, err, errlen);
	if (rc != GAME_OK)
		return rc;
	rc = df_choice_check(g, seat, code, err, errlen);
	if (rc != GAME_OK)
		return rc;
	*out = code;
	return GAME_OK;
}

static cJSON *choice_json(const game_state *st, int seat, game_choice c)
{
	(void)st;
	(void)seat;
	df_act a;
	if (c == DF_PRESS) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddTrueToObject(o, "press");
		return o;
	}
	if (df_act_unpack(c, &a) != 0)
		return cJSON_CreateNull();
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "target", a.target);
	cJSON_AddBoolToObject(o, "recruit", a.recruit);
	cJSON_AddStringToObject(o, "exit", name_at(df_exit_names, DF_NEXIT, a.exit));
	return o;
}

static int apply(game_state *st, const game_choice *choices, game_events *out, char *err,
		 size_t errlen)
{
	return df_apply(ST(st), choices, out, err, errlen);
}

static game_choice ai_choose(game_state *st, int seat)
{
	const df_game *g = CST(st);
	if (g->over || seat < 0 || seat >= g->seats)
		return GAME_NO_CHOICE;
	return df_ai_choose(g, seat, g->cfg.ai[seat]);
}

/* ---- view --------------------------------------------------------------- */

static cJSON *bag_json(const uint8_t *dice, int n)
{
	int cnt[DF_NDIE] = {0};
	for (int i = 0; i < n; i++)
		cnt[dice[i]]++;
	cJSON *o = cJSON_CreateObject();
	for (int d = 0; d < DF_NDIE; d++)
		if (cnt[d])
			cJSON_AddNumberToObject(o, df_die_id(d), cnt[d]);
	return o;
}

static cJSON *faces_json(const int *n)
{
	cJSON *o = cJSON_CreateObject();
	for (int f = 0; f < DF_NFACES; f++)
		cJSON_AddNumberToObject(o, df_face_names[f], n[f]);
	return o;
}

/* This round's turn so far (DF31-DF42): what the act step will resolve. */
static cJSON *turn_json(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	df_totals t;
	df_turn_totals(g, seat, &t);
	int rolled[DF_NFACES];
	for (int f = 0; f < DF_NFACES; f++)
		rolled[f] = pa->rolled[f];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "hands", pa->hands);
	cJSON_AddNumberToObject(o, "dice", pa->n_hand);
	cJSON_AddItemToObject(o, "hand", bag_json(pa->hand, pa->n_hand));
	cJSON_AddBoolToObject(o, "acted", pa->acted);
	cJSON_AddItemToObject(o, "act", pa->acted ? choice_json(NULL, seat, pa->act)
						  : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "rolled", faces_json(rolled));
	cJSON_AddItemToObject(o, "symbols", faces_json(t.sym));
	cJSON_AddNumberToObject(o, "setbacks", t.setbacks);
	cJSON_AddBoolToObject(o, "trinity", t.trinity);
	cJSON_AddBoolToObject(o, "stand_offered", df_stand_offered(g, seat));
	return o;
}

static cJSON *view(const game_state *st, int viewer)
{
	const df_game *g = CST(st);
	const df_config *cfg = &g->cfg;
	cJSON *v = cJSON_CreateObject();
	cJSON_AddNumberToObject(v, "viewer", viewer);
	cJSON_AddNumberToObject(v, "round", g->round);
	cJSON_AddNumberToObject(v, "start_seat", g->start_seat);
	cJSON_AddBoolToObject(v, "over", g->over);
	cJSON *maw = cJSON_AddObjectToObject(v, "maw");
	int speed = 0, falls = g->over ? 0 : df_maw_falls(g, 0, &speed);
	cJSON_AddNumberToObject(maw, "frontier", g->frontier);
	cJSON_AddNumberToObject(maw, "accum", g->accum / 1000.0);
	cJSON_AddNumberToObject(maw, "last_speed", g->last_speed / 1000.0);
	cJSON_AddNumberToObject(maw, "speed", g->over ? 0 : speed / 1000.0);
	cJSON_AddNumberToObject(maw, "falls", falls);
	cJSON *floors = cJSON_AddArrayToObject(v, "floors");
	for (int f = 1; f <= cfg->floors; f++) {
		cJSON *fo = cJSON_CreateObject();
		cJSON_AddNumberToObject(fo, "floor", f);
		cJSON_AddBoolToObject(fo, "collapsed", f > g->frontier);
		cJSON_AddNumberToObject(fo, "plunder", g->pile[f]);
		cJSON *rooms = cJSON_AddArrayToObject(fo, "rooms");
		for (int r = 0; r < cfg->rooms; r++) {
			const df_room *rm = &g->rooms[(f - 1) * cfg->rooms + r];
			const df_theme_def *t = &df_themes[rm->theme];
			cJSON *ro = cJSON_CreateObject();
			cJSON_AddNumberToObject(ro, "id", (f - 1) * cfg->rooms + r);
			cJSON_AddStringToObject(ro, "theme", df_theme_id(rm->theme));
			cJSON_AddNumberToObject(ro, "value", rm->value);
			cJSON_AddNumberToObject(ro, "pays", df_room_pays(cfg, rm->value, f));
			cJSON_AddNumberToObject(ro, "threat", t->threat);
			cJSON_AddNumberToObject(ro, "lock", t->lock);
			const char *prod = t->produces >= 0 ? df_face_names[t->produces] : "none";
			cJSON_AddStringToObject(ro, "produces", prod);
			cJSON_AddBoolToObject(ro, "alive", rm->alive);
			cJSON *mk = cJSON_AddArrayToObject(ro, "markers");
			for (int s = 0; s < g->seats; s++) {
				bool stake = rm->act[s] || rm->fallen[s] || rm->prog_s[s] ||
					     rm->prog_c[s];
				if (!stake)
					continue;
				cJSON *m = cJSON_CreateObject();
				cJSON_AddNumberToObject(m, "seat", s);
				cJSON_AddNumberToObject(m, "active", rm->act[s]);
				cJSON_AddNumberToObject(m, "fallen", rm->fallen[s]);
				cJSON_AddNumberToObject(m, "strength", df_room_strength(g, rm, s));
				cJSON_AddNumberToObject(m, "assault_steel", rm->prog_s[s]);
				cJSON_AddNumberToObject(m, "assault_cunning", rm->prog_c[s]);
				cJSON_AddItemToArray(mk, m);
			}
			cJSON_AddItemToArray(rooms, ro);
		}
		cJSON_AddItemToArray(floors, fo);
	}
	cJSON *players = cJSON_AddArrayToObject(v, "players");
	for (int s = 0; s < g->seats; s++) {
		const df_player *pl = &g->pl[s];
		const df_party *pa = &pl->party;
		cJSON *po = cJSON_CreateObject();
		cJSON_AddNumberToObject(po, "seat", s);
		cJSON_AddNumberToObject(po, "glory", pl->glory);
		cJSON_AddNumberToObject(po, "parties", pl->parties);
		if (pa->active) {
			cJSON *p = cJSON_AddObjectToObject(po, "party");
			cJSON_AddStringToObject(p, "lineage", df_lineage_id(pa->lineage));
			cJSON_AddStringToObject(p, "calling", df_calling_id(pa->calling));
			cJSON_AddNumberToObject(p, "floor", pa->floor);
			cJSON_AddNumberToObject(p, "deepest", pa->deepest);
			cJSON_AddBoolToObject(p, "last_stand", pa->last_stand);
			cJSON_AddNumberToObject(p, "unbanked", pa->unbanked);
			cJSON_AddNumberToObject(p, "hand_size", df_hand_size(g, s));
			cJSON_AddNumberToObject(p, "moves", df_moves(g, s));
			cJSON_AddItemToObject(p, "bag", bag_json(pa->draw, pa->n_draw));
			cJSON_AddItemToObject(p, "discard", bag_json(pa->disc, pa->n_disc));
			cJSON_AddItemToObject(p, "wounded", bag_json(pa->wound, pa->n_wound));
			if (!g->over)
				cJSON_AddItemToObject(p, "turn", turn_json(g, s));
			cJSON *an = cJSON_AddObjectToObject(p, "anger");
			for (int d = 0; d < DF_NDENIZEN; d++)
				cJSON_AddNumberToObject(an, df_denizen_names[d], pa->anger[d]);
		} else {
			cJSON_AddNullToObject(po, "party");
		}
		cJSON_AddItemToArray(players, po);
	}
	return v;
}

/* ---- events --------------------------------------------------------------- */

static const char *const ev_names[] = {
	[DF_EV_ROUND] = "round",	 [DF_EV_DRAFT] = "draft",
	[DF_EV_ROLL] = "roll",		 [DF_EV_DREAD] = "dread",
	[DF_EV_SETBACK] = "setback",	 [DF_EV_MOVE] = "move",
	[DF_EV_CLAIM] = "claim",	 [DF_EV_ASSAULT] = "assault",
	[DF_EV_LOOT] = "loot",		 [DF_EV_RECRUIT] = "recruit",
	[DF_EV_HEAL] = "heal",		 [DF_EV_CASH_OUT] = "cash_out",
	[DF_EV_LAST_STAND] = "last_stand", [DF_EV_MAW] = "maw",
	[DF_EV_COLLAPSE] = "collapse",	 [DF_EV_WORTHY_END] = "worthy_end",
	[DF_EV_ROOM_SCORED] = "room_scored", [DF_EV_VALUE_RISE] = "value_rise",
	[DF_EV_TAKEN] = "taken",	 [DF_EV_GAME_OVER] = "game_over",
	[DF_EV_PLUNDER_FLED] = "plunder_fled",
};

static void num(cJSON *o, const char *k, double v) { cJSON_AddNumberToObject(o, k, v); }

static cJSON *event_json(const game_state *st, const game_event *ev, int viewer)
{
	(void)st;
	(void)viewer; /* every DEEPFALL event is public */
	if (ev->type < DF_EV_ROUND || ev->type > DF_EV_PLUNDER_FLED)
		return NULL;
	cJSON *o = game_event_json_head(ev, "event", ev_names[ev->type]);
	switch (ev->type) {
	case DF_EV_ROUND:
		num(o, "round", ev->a);
		num(o, "start_seat", ev->b);
		break;
	case DF_EV_DRAFT:
		cJSON_AddStringToObject(o, "lineage", df_lineage_id(ev->a));
		cJSON_AddStringToObject(o, "calling", df_calling_id(ev->b));
		num(o, "floor", ev->c);
		break;
	case DF_EV_ROLL:
		num(o, "hand", ev->b);
		num(o, "dice", ev->c);
		for (int f = 0; f < DF_NFACES; f++)
			num(o, df_face_names[f], (ev->a >> (5 * f)) & 31);
		break;
	case DF_EV_DREAD:
		num(o, "rolled", ev->a);
		num(o, "cancelled", ev->b);
		num(o, "to_mettle", ev->c);
		break;
	case DF_EV_SETBACK:
		num(o, "dice_lost", ev->a);
		num(o, "loot_lost", ev->b);
		cJSON_AddBoolToObject(o, "shrugged", ev->c);
		break;
	case DF_EV_MOVE:
		num(o, "from", ev->a);
		num(o, "to", ev->b);
		num(o, "bought", ev->c);
		break;
	case DF_EV_CLAIM:
		num(o, "room", ev->a);
		num(o, "strength", ev->b);
		num(o, "loot", ev->c);
		break;
	case DF_EV_ASSAULT:
		num(o, "room", ev->a);
		num(o, "steel", ev->b);
		num(o, "cunning", ev->c);
		break;
	case DF_EV_LOOT:
		num(o, "loot", ev->a);
		num(o, "unbanked", ev->b);
		break;
	case DF_EV_RECRUIT:
	case DF_EV_HEAL:
		cJSON_AddStringToObject(o, "die", df_die_id(ev->a));
		break;
	case DF_EV_CASH_OUT:
		num(o, "banked", ev->a);
		num(o, "glory", ev->b);
		num(o, "deepest", ev->c & 0xff);
		cJSON_AddBoolToObject(o, "forced", ev->c >> 8 & 1);
		break;
	case DF_EV_LAST_STAND:
		num(o, "mettle", ev->a);
		break;
	case DF_EV_MAW:
		num(o, "speed", ev->a / 1000.0);
		num(o, "accum", ev->b / 1000.0);
		num(o, "frontier", ev->c);
		break;
	case DF_EV_COLLAPSE:
		num(o, "floor", ev->a);
		break;
	case DF_EV_WORTHY_END:
		num(o, "payout", ev->a);
		num(o, "floor", ev->b);
		num(o, "rooms_consumed", ev->c);
		break;
	case DF_EV_ROOM_SCORED:
		num(o, "room", ev->a);
		num(o, "glory", ev->b);
		num(o, "holders", ev->c);
		break;
	case DF_EV_VALUE_RISE:
		num(o, "floor", ev->a);
		num(o, "glory", ev->b);
		if (ev->c)
			cJSON_AddBoolToObject(o, "waits", true);
		break;
	case DF_EV_PLUNDER_FLED:
		num(o, "floor", ev->a);
		num(o, "glory", ev->b);
		cJSON_AddBoolToObject(o, "waits", ev->c);
		break;
	case DF_EV_TAKEN:
		num(o, "loot_lost", ev->a);
		num(o, "rooms_lost", ev->b);
		break;
	case DF_EV_GAME_OVER: {
		num(o, "rounds", ev->a);
		cJSON *w = cJSON_AddArrayToObject(o, "winners");
		for (int s = 0; s < DF_MAX_SEATS; s++)
			if ((uint32_t)ev->b & (1u << s))
				cJSON_AddItemToArray(w, cJSON_CreateNumber(s));
		break;
	}
	}
	return o;
}

/* ---- result, statistics, achievements ------------------------------------ */

static void result(const game_state *st, int64_t *scores, uint32_t *winners)
{
	const df_game *g = CST(st);
	for (int s = 0; s < g->seats; s++)
		scores[s] = g->pl[s].glory;
	*winners = g->winners;
}

static const char *const src_names[DF_NSRC] = {"cash_out", "press_on", "worthy_end"};

static cJSON *result_json(const game_state *st, uint32_t ai_mask)
{
	const df_game *g = CST(st);
	cJSON *o = cJSON_CreateObject();
	cJSON *sc = cJSON_AddArrayToObject(o, "scores");
	cJSON *w = cJSON_AddArrayToObject(o, "winners");
	int32_t best = INT32_MIN, second = INT32_MIN;
	for (int s = 0; s < g->seats; s++) {
		int32_t v = g->pl[s].glory;
		cJSON_AddItemToArray(sc, cJSON_CreateNumber(v));
		if (g->winners & (1u << s))
			cJSON_AddItemToArray(w, cJSON_CreateNumber(s));
		if (v > best) {
			second = best;
			best = v;
		} else if (v > second) {
			second = v;
		}
	}
	if (second == INT32_MIN)
		second = best;
	num(o, "rounds", g->rounds_played);
	num(o, "margin", best - second);
	num(o, "margin_fraction", best > 0 ? (double)(best - second) / best : 0);
	cJSON *ps = cJSON_AddArrayToObject(o, "players");
	for (int s = 0; s < g->seats; s++) {
		const df_player *pl = &g->pl[s];
		cJSON *p = cJSON_CreateObject();
		num(p, "seat", s);
		num(p, "glory", pl->glory);
		cJSON_AddBoolToObject(p, "ai", (ai_mask >> s) & 1);
		cJSON *src = cJSON_AddObjectToObject(p, "glory_by_exit");
		for (int i = 0; i < DF_NSRC; i++)
			num(src, src_names[i], pl->src[i]);
		num(p, "parties", pl->parties);
		num(p, "cash_outs", pl->cash_outs);
		num(p, "cash_outs_forced", pl->cash_forced);
		num(p, "worthy_ends", pl->worthy_ends);
		num(p, "taken", pl->taken);
		num(p, "setbacks", pl->setbacks);
		num(p, "claims", pl->claims);
		num(p, "deepest", pl->deepest);
		cJSON_AddItemToArray(ps, p);
	}
	return o;
}

/* The statistics, by index into stat_defs (the store keys them by name). */
enum {
	ST_GAMES,
	ST_WINS,
	ST_GLORY,
	ST_BEST_GLORY,
	ST_CASH_OUTS,
	ST_WORTHY_ENDS,
	ST_TAKEN,
	ST_CLAIMS,
	ST_SETBACKS,
	ST_DEEPEST,
	ST_ROUNDS,
	N_STATS
};

static const game_stat_def stat_defs[N_STATS] = {
	[ST_GAMES] = {"deepfall_games", "Games Played", GAME_STAT_SUM},
	[ST_WINS] = {"deepfall_wins", "Games Won", GAME_STAT_SUM},
	[ST_GLORY] = {"deepfall_glory", "Glory Earned", GAME_STAT_SUM},
	[ST_BEST_GLORY] = {"deepfall_best_glory", "Best Glory", GAME_STAT_MAX},
	[ST_CASH_OUTS] = {"deepfall_cash_outs", "Cash-Outs", GAME_STAT_SUM},
	[ST_WORTHY_ENDS] = {"deepfall_worthy_ends", "Worthy Ends", GAME_STAT_SUM},
	[ST_TAKEN] = {"deepfall_taken", "Taken by the Maw", GAME_STAT_SUM},
	[ST_CLAIMS] = {"deepfall_claims", "Rooms Claimed", GAME_STAT_SUM},
	[ST_SETBACKS] = {"deepfall_setbacks", "Setbacks", GAME_STAT_SUM},
	[ST_DEEPEST] = {"deepfall_deepest", "Deepest Floor", GAME_STAT_MAX},
	[ST_ROUNDS] = {"deepfall_rounds", "Rounds Played", GAME_STAT_SUM},
};

/* One seat's figures, or the whole table's (seat -1): sums over its seats,
 * the best glory and depth among them; "wins" is then 1 for a game over. */
static void stats(const game_state *st, int seat, uint32_t ai_mask, int64_t *v)
{
	(void)ai_mask;
	const df_game *g = CST(st);
	int lo = seat < 0 ? 0 : seat, hi = seat < 0 ? g->seats : seat + 1;
	for (int i = 0; i < N_STATS; i++)
		v[i] = 0;
	v[ST_BEST_GLORY] = v[ST_DEEPEST] = GAME_STAT_NONE;
	v[ST_GAMES] = 1;
	v[ST_ROUNDS] = g->rounds_played;
	v[ST_WINS] = seat < 0 ? g->over != 0 : (g->winners >> seat) & 1;
	for (int s = lo; s < hi; s++) {
		const df_player *pl = &g->pl[s];
		v[ST_GLORY] += pl->glory;
		v[ST_BEST_GLORY] = game_stat_max(v[ST_BEST_GLORY], pl->glory);
		v[ST_CASH_OUTS] += pl->cash_outs;
		v[ST_WORTHY_ENDS] += pl->worthy_ends;
		v[ST_TAKEN] += pl->taken;
		v[ST_CLAIMS] += pl->claims;
		v[ST_SETBACKS] += pl->setbacks;
		v[ST_DEEPEST] = game_stat_max(v[ST_DEEPEST], pl->deepest);
	}
}

static const game_achievement_def ach_defs[] = {
	{"worthy_end", "A Worthy End"},
	{"never_taken", "Never Caught Flat-Footed"},
	{"bottom_dweller", "Reached the Deepest Floor"},
	{"triangle", "Cash-Out, Worthy End and a Won Majority in One Game"},
};

static uint32_t achievements(const game_state *st, int seat, uint32_t ai_mask)
{
	(void)ai_mask;
	const df_game *g = CST(st);
	if (seat < 0 || seat >= g->seats || !g->over)
		return 0;
	const df_player *pl = &g->pl[seat];
	uint32_t m = 0;
	if (pl->worthy_ends)
		m |= 1u << 0;
	if (!pl->taken)
		m |= 1u << 1;
	if (pl->deepest >= g->cfg.floors)
		m |= 1u << 2;
	if (pl->cash_outs && pl->worthy_ends && pl->rooms_scored)
		m |= 1u << 3;
	return m;
}

const game_kind deepfall_kind = {
	.name = "deepfall",
	.min_seats = 1,
	.max_seats = DF_MAX_SEATS,
	.config_new = config_new,
	.config_free = config_free,
	.config_json = config_json,
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
	.result = result,
	.result_json = result_json,
	.stat_defs = stat_defs,
	.n_stats = N_STATS,
	.stats = stats,
	.achievement_defs = ach_defs,
	.n_achievements = (int)(sizeof ach_defs / sizeof ach_defs[0]),
	.achievements = achievements,
};
