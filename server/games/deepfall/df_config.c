/*
 * df_config.c — every DEEPFALL knob in one table: its JSON name, bounds,
 * default and a one-line meaning. Parsing, defaults, the JSON dump and the
 * simulator's --sweep all walk this table, so a knob added here is known
 * everywhere. CONFIG.md explains why each default is what it is, with the
 * command that measures it; keep the two in step (default.json is
 * df_config_json() of the defaults, a unit test checks it).
 */
#include "deepfall.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../../common/util.h"

#define K(field, scale, lo, hi, def, doc) \
	{#field, offsetof(df_config, field), scale, lo, hi, def, doc}

const df_knob df_knobs[] = {
	K(floors, 1, 1, DF_MAX_FLOORS, 6, "floors D of the dungeon"),
	K(rooms, 1, 1, DF_MAX_ROOMS, 4, "rooms R per floor"),
	K(max_rounds, 1, 6, 500, 40, "after this round the Maw collapses a floor every round"),
	K(hand_size, 1, 1, 10, 4, "dice drawn per hand before Lineage/Calling"),
	K(base_moves, 1, 0, 6, 2, "free floor steps per turn before Lineage/Calling"),
	K(move_cost, 1, 1, 10, 1, "Mettle (then Cunning) per bought extra step"),
	K(max_press, 1, 0, 5, 3, "most extra hands (Press On) a turn may draw"),
	K(dread_threshold, 1, 1, 30, 2, "uncancelled Dread per Setback"),
	K(press_dread, 1, 0, 10, 0, "Dread each pressed hand adds on top of its dice"),
	K(revenant_convert, 1, 0, 20, 2, "Dread a Revenant turns into Mettle per turn"),
	K(min_bag, 1, 1, 30, 6, "a bag this small loses loot instead of a die"),
	K(bag_max, 1, 4, DF_MAX_BAG, 24, "most dice a party may own, wounded ones included"),
	K(setback_loot, 1, 0, 100, 4, "unbanked loot a Setback takes from a minimal bag"),
	K(loot_per_greed, 1, 0, 20, 1, "loot per Greed rolled (before the depth scale)"),
	K(production, 1, 0, 5, 1, "symbols a held room adds when its symbol is rolled"),
	K(reaver_loot, 1, 0, 50, 2, "Reaver's loot per claim (before the depth scale)"),
	K(gnoll_loot, 1, 0, 50, 2, "Gnoll's loot per Den/Forge claim (depth-scaled)"),
	K(recruit_cost, 1, 1, 20, 6, "Mettle per recruited die"),
	K(last_stand_cost, 1, 0, 20, 3, "Mettle to declare a Last Stand without Vault/Throne"),
	K(cash_dividend, 1, 0, 50, 5, "Cash-Out dividend per floor delved (see dividend_delved)"),
	K(dividend_delved, 1, 0, 1, 1, "1: the dividend counts floors delved below entry"),
	K(worthy_factor, 1, 0, 100, 5, "Worthy End glory per floor of deepest reached"),
	K(worthy_held_bonus, 1000, 0, 5, 0, "share of held room value added to a Worthy End"),
	K(maw_base, 1000, 0, 5, 0, "the Maw's base speed (floors per round)"),
	K(maw_accel, 1000, 0, 1, 0.01, "speed added per round number"),
	K(dread_push, 1000, 0, 1, 0.085, "speed added per Dread rolled in the round"),
	K(press_push, 1000, 0, 1, 0.015, "speed added per extra hand pressed in the round"),
	K(max_collapses, 1, 1, DF_MAX_FLOORS, 1, "most floors collapsing in one round"),
	K(value_rise, 1000, 0, 1, 0.9, "share of an unclaimed room's value rising a floor"),
	K(reentry_gap, 1, 0, DF_MAX_FLOORS, 3, "fresh parties enter at max(1, frontier - gap)"),
	K(depth_coeff, 1000, 0, 3, 0.1, "room glory = base * (1 + coeff * (depth - 1))"),
	K(comeback_bp, 1, 0, 10000, 0, "exit payouts + bp/10000 at a 100% glory deficit"),
	K(fallen_strength, 1000, 0, 1, 0.9, "Fallen marker: this share of the strength, min 1"),
	K(strength_surplus, 1, 0, 1, 0, "1: claim strength counts only symbols beyond the need"),
	K(denizen_step, 1, 1, 20, 2, "claims of a faction's rooms per +1 threat there"),
	K(denizen_cap, 1, 0, 10, 2, "most extra threat from denizen anger"),
	K(held_rise, 1000, 0, 1, 0.75, "share of a held room's value rising instead of paying"),
	K(plunder_flees, 1, 0, 1, 1, "1: risen plunder flees a Worthy End, never lost"),
	K(rise_extra, 1000, 0, 2, 0, "more of a held room's value rising, on top of its pay"),
	K(collapse_ramp, 1000, 0, 5, 0, "majorities x (1 + ramp x floors eaten before)"),
	K(cash_bar, 1, 0, 500, 15, "bots: unbanked loot worth banking"),
};
const int df_n_knobs = (int)(sizeof df_knobs / sizeof df_knobs[0]);

#undef K

const char *const df_strategy_names[DF_NSTRAT] = {"cashout", "presson", "worthyend",
						  "balanced"};

int df_strategy_parse(const char *name)
{
	return name_index(df_strategy_names, DF_NSTRAT, name);
}

static int *knob_ptr(df_config *cfg, const df_knob *k)
{
	return (int *)((char *)cfg + k->offset);
}

static int knob_get(const df_config *cfg, const df_knob *k)
{
	return *(const int *)((const char *)cfg + k->offset);
}

const df_knob *df_knob_find(const char *name)
{
	for (int i = 0; i < df_n_knobs; i++)
		if (strcmp(df_knobs[i].name, name) == 0)
			return &df_knobs[i];
	return NULL;
}

void df_config_defaults(df_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	for (int i = 0; i < df_n_knobs; i++)
		*knob_ptr(cfg, &df_knobs[i]) = (int)lround(df_knobs[i].def * df_knobs[i].scale);
	for (int s = 0; s < DF_MAX_SEATS; s++)
		cfg->ai[s] = DF_AI_BALANCED;
}

int df_config_set(df_config *cfg, const char *name, double v, char *err, size_t errlen)
{
	const df_knob *k = df_knob_find(name);
	if (!k) {
		snprintf(err, errlen, "unknown deepfall option '%s'", name);
		return -1;
	}
	if (!isfinite(v) || v < k->min || v > k->max) {
		snprintf(err, errlen, "deepfall option '%s' must be within %g..%g", name, k->min,
			 k->max);
		return -1;
	}
	if (k->scale == 1 && v != floor(v)) {
		snprintf(err, errlen, "deepfall option '%s' must be an integer", name);
		return -1;
	}
	*knob_ptr(cfg, k) = (int)lround(v * k->scale);
	return 0;
}

/* Rules that tie knobs together. */
static int check_whole(const df_config *cfg, char *err, size_t errlen)
{
	if (cfg->maw_base + cfg->maw_accel <= 0) {
		snprintf(err, errlen, "maw_base + maw_accel must be > 0 (the Maw must rise)");
		return -1;
	}
	if (cfg->min_bag > cfg->bag_max) {
		snprintf(err, errlen, "min_bag must not exceed bag_max");
		return -1;
	}
	return 0;
}

int df_config_parse(df_config *cfg, const cJSON *json, char *err, size_t errlen)
{
	df_config_defaults(cfg);
	if (!json)
		return 0;
	if (!cJSON_IsObject(json)) {
		snprintf(err, errlen, "deepfall config must be a JSON object");
		return -1;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, json)
	{
		if (strcmp(it->string, "ai") == 0) {
			if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) > DF_MAX_SEATS) {
				snprintf(err, errlen, "'ai' must be an array of at most %d names",
					 DF_MAX_SEATS);
				return -1;
			}
			int s = 0;
			const cJSON *a;
			cJSON_ArrayForEach(a, it)
			{
				int st = cJSON_IsString(a) ? df_strategy_parse(a->valuestring) : -1;
				if (st < 0) {
					snprintf(err, errlen,
						 "'ai'[%d] must be one of cashout, presson, "
						 "worthyend, balanced",
						 s);
					return -1;
				}
				cfg->ai[s++] = (uint8_t)st;
			}
			continue;
		}
		if (!df_knob_find(it->string)) {
			snprintf(err, errlen, "unknown deepfall option '%s'", it->string);
			return -1;
		}
		if (!cJSON_IsNumber(it)) {
			snprintf(err, errlen, "deepfall option '%s' must be a number", it->string);
			return -1;
		}
		if (df_config_set(cfg, it->string, it->valuedouble, err, errlen) != 0)
			return -1;
	}
	return check_whole(cfg, err, errlen);
}

cJSON *df_config_json(const df_config *cfg)
{
	cJSON *o = cJSON_CreateObject();
	for (int i = 0; i < df_n_knobs; i++) {
		const df_knob *k = &df_knobs[i];
		int v = knob_get(cfg, k);
		cJSON_AddNumberToObject(o, k->name, k->scale == 1 ? (double)v
								 : (double)v / k->scale);
	}
	cJSON *ai = cJSON_AddArrayToObject(o, "ai");
	for (int s = 0; s < DF_MAX_SEATS; s++)
		cJSON_AddItemToArray(ai, cJSON_CreateString(df_strategy_names[cfg->ai[s]]));
	return o;
}
