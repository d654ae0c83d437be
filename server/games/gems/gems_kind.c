/*
 * gems_kind.c — the gems game as a game_kind (server/games/game.h): the
 * vtable over the native API of gems.h, its config, its server-wide shared
 * state as JSON, options and choices as JSON, and the result. Views and
 * events are rendered in gems_view.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/util.h"
#include "../game_json.h"
#include "gems_int.h"
#include "gems_kind.h"

struct game_state {
	gems_game g;
};

/* ---- config ------------------------------------------------------------ */

int gems_opts_from_json(gems_opts *o, const cJSON *json, char *err, size_t errlen)
{
	memset(o, 0, sizeof *o);
	if (!json || cJSON_IsNull(json))
		return 0;
	if (!cJSON_IsObject(json)) {
		snprintf(err, errlen, "gems config must be an object");
		return -1;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, json) {
		if (strcmp(it->string, "adventures") != 0) {
			snprintf(err, errlen, "gems config: unknown key '%s'", it->string);
			return -1;
		}
		if (cJSON_IsNull(it))
			continue;
		if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != GEMS_DUNGEONS) {
			snprintf(err, errlen, "gems config: adventures must be %d names",
				 GEMS_DUNGEONS);
			return -1;
		}
		uint32_t seen = 0;
		for (int d = 0; d < GEMS_DUNGEONS; d++) {
			const cJSON *a = cJSON_GetArrayItem(it, d);
			int adv = cJSON_IsString(a) ? gems_adv_parse(a->valuestring) : -1;
			if (adv < 0 || (seen >> adv & 1)) {
				snprintf(err, errlen, "gems config: adventures[%d] is not a new "
						      "adventure name", d);
				return -1;
			}
			seen |= 1u << adv;
			o->adv[d] = (uint8_t)adv;
		}
		o->fixed_adventures = true;
	}
	return 0;
}

static void *config_new(const cJSON *json, char *err, size_t errlen)
{
	gems_opts o;
	if (gems_opts_from_json(&o, json, err, errlen) < 0)
		return NULL;
	return xmemdup(&o, sizeof o);
}

static void config_free(void *config) { free(config); }

static cJSON *config_json(const void *config)
{
	const gems_opts *o = config;
	cJSON *j = cJSON_CreateObject();
	if (o && o->fixed_adventures) {
		cJSON *a = cJSON_AddArrayToObject(j, "adventures");
		for (int d = 0; d < GEMS_DUNGEONS; d++)
			cJSON_AddItemToArray(a, cJSON_CreateString(gems_adv_key(o->adv[d])));
	} else {
		cJSON_AddNullToObject(j, "adventures");
	}
	return j;
}

/* ---- shared state -------------------------------------------------------- */

static int get_count(const cJSON *o, const char *key, int64_t *out, char *err, size_t errlen)
{
	return game_json_count(o, key, 1e12, out, "gems shared state", err, errlen);
}

int gems_shared_from_json(gems_shared *sh, const cJSON *saved, char *err, size_t errlen)
{
	gems_shared_init(sh);
	if (!saved || cJSON_IsNull(saved))
		return 0;
	if (!cJSON_IsObject(saved)) {
		snprintf(err, errlen, "gems shared state must be an object");
		return -1;
	}
	const cJSON *uses = cJSON_GetObjectItemCaseSensitive(saved, "adventure_uses");
	if (uses && !cJSON_IsObject(uses)) {
		snprintf(err, errlen, "gems shared state: adventure_uses must be an object");
		return -1;
	}
	for (int i = 0; uses && i < GEMS_N_ADV; i++) {
		int64_t n = 0;
		if (get_count(uses, gems_adv_key(i), &n, err, errlen) < 0)
			return -1;
		sh->uses[i] = (int32_t)(n > INT32_MAX ? INT32_MAX : n);
	}
	/* G10 keeps the least count at 0: counts merged from several games
	 * (sums of their uses) read relative to the least, as the same uses
	 * folded one by one would have left them. */
	int32_t least = INT32_MAX;
	for (int i = 0; i < GEMS_N_ADV; i++)
		least = sh->uses[i] < least ? sh->uses[i] : least;
	for (int i = 0; i < GEMS_N_ADV; i++)
		sh->uses[i] -= least;
	int64_t best = -1, deep = -1;
	if (get_count(saved, "best_winning_score", &best, err, errlen) < 0 ||
	    get_count(saved, "deepest_depth", &deep, err, errlen) < 0)
		return -1;
	sh->best_score = best;
	sh->deepest = (int32_t)(deep > INT32_MAX ? INT32_MAX : deep);
	return 0;
}

cJSON *gems_shared_to_json(const gems_shared *sh)
{
	cJSON *j = cJSON_CreateObject();
	cJSON *uses = cJSON_AddObjectToObject(j, "adventure_uses");
	for (int i = 0; i < GEMS_N_ADV; i++)
		cJSON_AddNumberToObject(uses, gems_adv_key(i), sh->uses[i]);
	game_json_add_record(j, "best_winning_score", sh->best_score);
	game_json_add_record(j, "deepest_depth", sh->deepest);
	return j;
}

static void *shared_new(const cJSON *saved, char *err, size_t errlen)
{
	gems_shared sh;
	if (gems_shared_from_json(&sh, saved, err, errlen) < 0)
		return NULL;
	return xmemdup(&sh, sizeof sh);
}

static void shared_free(void *shared) { free(shared); }
static cJSON *shared_json(const void *shared) { return gems_shared_to_json(shared); }

static void shared_fold(void *shared, const game_event *evs, size_t n)
{
	gems_shared_fold(shared, evs, n);
}

/* The values the store merges (gems_shared_from_json reads the sums of
 * uses relative to the least: G10). */
#define USES(key, label) {"adventure_uses." key, label " uses", GAME_STAT_SUM}
static const game_stat_def shared_defs[] = {
	USES("banker", "Banker"), USES("sun_moon", "Sun & Moon"),
	USES("ferryman", "Ferryman"), USES("monte", "Monte"),
	USES("sphinx", "Sphinx"), USES("scout", "Scout"),
	USES("mushroom", "Mushroom"), USES("poison", "Poison"),
	USES("devil", "Devil"), USES("little_people", "Little People"),
	{"best_winning_score", "Best Winning Score", GAME_STAT_MAX},
	{"deepest_depth", "Deepest Depth", GAME_STAT_MAX},
};
#undef USES
_Static_assert(sizeof shared_defs / sizeof shared_defs[0] == GEMS_N_ADV + 2,
	       "one use count per adventure, and the two records");

/* ---- the game ------------------------------------------------------------ */

static game_state *create(const void *config, int seats, uint64_t seed, const void *shared,
			  game_events *out, char *err, size_t errlen)
{
	if (seats < 1 || seats > GAME_MAX_SEATS) {
		snprintf(err, errlen, "gems needs 1 to %d seats, not %d", GAME_MAX_SEATS, seats);
		return NULL;
	}
	game_state *st = xmalloc(sizeof *st);
	if (gems_init(&st->g, seats, seed, shared, config, out) != GAME_OK) {
		snprintf(err, errlen, "gems: bad config");
		free(st);
		return NULL;
	}
	return st;
}

static void destroy(game_state *st) { free(st); }
static uint32_t pending(const game_state *st) { return gems_pending(&st->g); }
static bool is_over(const game_state *st) { return gems_over(&st->g); }

static int options(const game_state *st, int seat, game_choice *out, int max)
{
	uint32_t m = gems_options_mask(&st->g, seat);
	int n = 0;
	for (int c = 0; c < GEMS_N_CHOICES; c++)
		if (m >> c & 1) {
			if (n < max)
				out[n] = c;
			n++;
		}
	return n;
}

static const char *option_label(int c, char *lbl, size_t len, const gems_game *g)
{
	static const char *const labels[GEMS_N_CHOICES] = {
		"Leave", "Stay", "Turn 4 Gems into $3 and Stay", "Turn 8 Gems into $6 and Stay",
		"Turn 12 Gems into $9 and Stay", "Stand on The Sun and Stay",
		"Stand on The Moon and Stay", NULL, "Pick Card #1 and Stay",
		"Pick Card #2 and Stay", "Pick Card #3 and Stay", "Go left and Stay",
		"Go right and Stay", "Eat a Portion of Mushroom and Stay", "Stay 3 Times for $1",
		"Stay 4 Times for $2", "Stay 5 Times for $3", "Carry a Little Person",
	};
	if (c == GEMS_C_PAY) {
		snprintf(lbl, len, "Pay the Ferryman %d Gems and Stay",
			 gems_ferry_toll(g->adv_met));
		return lbl;
	}
	return labels[c];
}

cJSON *gems_options_json(const gems_game *g, int seat)
{
	cJSON *a = cJSON_CreateArray();
	uint32_t m = gems_options_mask(g, seat);
	char lbl[64];
	for (int c = 0; c < GEMS_N_CHOICES; c++) {
		if (!(m >> c & 1))
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", gems_choice_key(c));
		cJSON_AddStringToObject(o, "label", option_label(c, lbl, sizeof lbl, g));
		if (c >= GEMS_C_BANK4 && c <= GEMS_C_BANK12) {
			cJSON_AddNumberToObject(o, "gems", 4 * (c - GEMS_C_BANK4 + 1));
			cJSON_AddNumberToObject(o, "cash", 3 * (c - GEMS_C_BANK4 + 1));
		} else if (c >= GEMS_C_DEVIL3 && c <= GEMS_C_DEVIL5) {
			cJSON_AddNumberToObject(o, "rooms", c - GEMS_C_DEVIL3 + 3);
			cJSON_AddNumberToObject(o, "cash", c - GEMS_C_DEVIL3 + 1);
		} else if (c == GEMS_C_PAY) {
			cJSON_AddNumberToObject(o, "toll", gems_ferry_toll(g->adv_met));
		}
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static cJSON *options_json(const game_state *st, int seat)
{
	return gems_options_json(&st->g, seat);
}

/* Why a well-formed choice is not legal for this seat now. */
static void illegal_reason(const gems_game *g, int seat, int c, char *err, size_t errlen)
{
	const gems_seat *s = &g->seat[seat];
	if (c == GEMS_C_LEAVE && s->owed)
		snprintf(err, errlen, "you cannot leave: you owe the Devil %d more room%s", s->owed,
			 s->owed == 1 ? "" : "s");
	else if (c >= GEMS_C_BANK4 && c <= GEMS_C_BANK12 && g->phase == GEMS_PH_DECIDE &&
		 g->rooms[g->cur].kind == GEMS_ROOM_ADV && g->rooms[g->cur].arg == GEMS_ADV_BANKER)
		snprintf(err, errlen, "'%s' needs %d gems in hand; you have %d",
			 gems_choice_key(c), 4 * (c - GEMS_C_BANK4 + 1), s->hand);
	else
		snprintf(err, errlen, "'%s' is not an option in this room", gems_choice_key(c));
}

int gems_choice_from_json(const gems_game *g, int seat, const cJSON *json, game_choice *out,
			  char *err, size_t errlen)
{
	if (gems_over(g)) {
		snprintf(err, errlen, "the game is over");
		return GAME_ERR_OVER;
	}
	const char *id = game_choice_id(json);
	if (!id) {
		snprintf(err, errlen, "a gems choice is an option id string such as \"stay\"");
		return GAME_ERR_MALFORMED;
	}
	int c = gems_choice_parse_key(id);
	if (c < 0) {
		snprintf(err, errlen, "unknown gems choice '%.*s'", (int)utf8_prefix(id, 40), id);
		return GAME_ERR_MALFORMED;
	}
	if (!game_seat_asked(g->pending, g->seats, seat)) {
		snprintf(err, errlen, "seat %d is not asked to choose now", seat);
		return GAME_ERR_NOT_PENDING;
	}
	if (!gems_is_legal(g, seat, c)) {
		illegal_reason(g, seat, c, err, errlen);
		return GAME_ERR_ILLEGAL;
	}
	*out = c;
	return GAME_OK;
}

static int choice_parse(const game_state *st, int seat, const cJSON *json, game_choice *out,
			char *err, size_t errlen)
{
	return gems_choice_from_json(&st->g, seat, json, out, err, errlen);
}

static cJSON *choice_json(const game_state *st, int seat, game_choice c)
{
	(void)st;
	(void)seat;
	return cJSON_CreateString(gems_choice_key(c));
}

static int apply(game_state *st, const game_choice *choices, game_events *out, char *err,
		 size_t errlen)
{
	return gems_apply(&st->g, choices, out, err, errlen);
}

static game_choice ai_choose(game_state *st, int seat) { return gems_ai_choose(&st->g, seat); }

static cJSON *view(const game_state *st, int viewer) { return gems_view_json(&st->g, viewer); }

static cJSON *event_json(const game_state *st, const game_event *ev, int viewer)
{
	(void)st;
	return gems_event_to_json(ev, viewer);
}

/* The `choice` event says what the reveal's `choices` says. */
static bool restates_choice(const game_event *ev) { return ev->type == GEMS_EV_CHOICE; }

/* ---- result ------------------------------------------------------------ */

static void result(const game_state *st, int64_t *scores, uint32_t *winners)
{
	for (int i = 0; i < st->g.seats; i++)
		scores[i] = gems_score(&st->g, i);
	*winners = st->g.winners;
}

static cJSON *stats_json(const gems_game *g, int seat, uint32_t ai_mask)
{
	int64_t v[GEMS_N_STATS];
	gems_stats(g, seat, ai_mask, v);
	cJSON *o = cJSON_CreateObject();
	for (int k = 0; k < GEMS_N_STATS; k++)
		if (v[k] == GAME_STAT_NONE)
			cJSON_AddNullToObject(o, gems_stat_defs[k].key);
		else
			cJSON_AddNumberToObject(o, gems_stat_defs[k].key, (double)v[k]);
	return o;
}

cJSON *gems_result_json(const gems_game *g, uint32_t ai_mask)
{
	cJSON *r = cJSON_CreateObject();
	if (!gems_over(g))
		return r;
	cJSON *seats = cJSON_AddArrayToObject(r, "seats");
	for (int i = 0; i < g->seats; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "seat", i);
		cJSON_AddNumberToObject(o, "score", g->seat[i].chest);
		cJSON_AddNumberToObject(o, "bars", g->seat[i].bars);
		cJSON_AddBoolToObject(o, "winner", g->winners >> i & 1);
		cJSON_AddItemToObject(o, "achievements",
				      game_achievements_json(gems_achievement_defs, GEMS_N_ACH,
							     gems_achievements(g, i, ai_mask), false));
		cJSON_AddItemToObject(o, "stats", stats_json(g, i, ai_mask));
		cJSON_AddItemToArray(seats, o);
	}
	/* compact summaries of the per-seat entries above */
	cJSON *scores = cJSON_AddArrayToObject(r, "scores");
	cJSON *achs = cJSON_AddArrayToObject(r, "achievements");
	for (int i = 0; i < g->seats; i++) {
		cJSON_AddItemToArray(scores, cJSON_CreateNumber(g->seat[i].chest));
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "seat", i);
		cJSON_AddItemToObject(o, "achievements",
				      game_achievements_json(gems_achievement_defs, GEMS_N_ACH,
							     gems_achievements(g, i, ai_mask), true));
		cJSON_AddItemToArray(achs, o);
	}
	cJSON_AddNumberToObject(r, "winning_score", g->win_score);
	cJSON *w = cJSON_AddArrayToObject(r, "winners");
	for (int i = 0; i < g->seats; i++)
		if (g->winners >> i & 1)
			cJSON_AddItemToArray(w, cJSON_CreateNumber(i));
	cJSON *d = cJSON_AddArrayToObject(r, "dungeons");
	for (int k = 0; k < GEMS_DUNGEONS; k++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "adventure", gems_adv_key(g->adv[k]));
		cJSON_AddNumberToObject(o, "depth", g->dungeon_depth[k]);
		cJSON_AddStringToObject(o, "end", gems_end_key(g->dungeon_end[k]));
		cJSON_AddItemToArray(d, o);
	}
	cJSON_AddItemToObject(r, "stats", stats_json(g, -1, ai_mask));
	return r;
}

static cJSON *result_json(const game_state *st, uint32_t ai_mask)
{
	return gems_result_json(&st->g, ai_mask);
}

static void stats(const game_state *st, int seat, uint32_t ai_mask, int64_t *values)
{
	gems_stats(&st->g, seat, ai_mask, values);
}

static uint32_t achievements(const game_state *st, int seat, uint32_t ai_mask)
{
	return gems_achievements(&st->g, seat, ai_mask);
}

const game_kind gems_kind = {
	.name = "gems",
	.min_seats = 1,
	.max_seats = GAME_MAX_SEATS,
	.config_new = config_new,
	.config_free = config_free,
	.config_json = config_json,
	.shared_new = shared_new,
	.shared_free = shared_free,
	.shared_json = shared_json,
	.shared_fold = shared_fold,
	.shared_defs = shared_defs,
	.n_shared = GEMS_N_ADV + 2,
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
	.restates_choice = restates_choice,
	.result = result,
	.result_json = result_json,
	.stat_defs = gems_stat_defs,
	.n_stats = GEMS_N_STATS,
	.stats = stats,
	.achievement_defs = gems_achievement_defs,
	.n_achievements = GEMS_N_ACH,
	.achievements = achievements,
};
