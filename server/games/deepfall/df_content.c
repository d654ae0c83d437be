/*
 * df_content.c — DEEPFALL's content as data, in one place: the die kinds and
 * their faces (docs/rules/deepfall.md DF24), the six Lineages (DF21) and six
 * Callings (DF22) with their advantages and costs, the ten room themes and
 * how themes spread over the depths (DF12). The rules read these tables and
 * nothing else; change the game here, and the tables of DF12-DF24 with it.
 *
 * The face tables are our reading of each kind's lean: every kind has six
 * sides, the common kinds carry exactly one Dread, the two premium kinds
 * (Champion, Relic) none.
 */
#include "deepfall.h"

#include <stdlib.h>

#include "../../../common/util.h"

#define S DF_STEEL
#define C DF_CUNNING
#define F DF_FAITH
#define G DF_GREED
#define M DF_METTLE
#define D DF_DREAD

const char *const df_face_names[DF_NFACES] = {"steel", "cunning", "faith",
					      "greed", "mettle", "dread"};

/* DF24: Recruit is one of each face; the others lean to their calling.
 * Each die's count of every face is derived from its six sides here, at
 * compile time (the bots sum a pile's faces die by die). */
#define N(f, a, b, c, d, e, g) ((a == f) + (b == f) + (c == f) + (d == f) + (e == f) + (g == f))
#define DIE(name, a, b, c, d, e, g)                                                       \
	{                                                                                 \
		name, {a, b, c, d, e, g},                                                 \
		{                                                                         \
			N(S, a, b, c, d, e, g), N(C, a, b, c, d, e, g), N(F, a, b, c, d, e, g), \
			N(G, a, b, c, d, e, g), N(M, a, b, c, d, e, g), N(D, a, b, c, d, e, g)  \
		}                                                                         \
	}
const df_die_def df_dice[DF_NDIE] = {
	[DF_DIE_RECRUIT] = DIE("recruit", S, C, F, G, M, D),
	[DF_DIE_WARRIOR] = DIE("warrior", S, S, S, G, M, D),
	[DF_DIE_SCHOLAR] = DIE("scholar", C, C, C, F, M, D),
	[DF_DIE_PRIEST] = DIE("priest", F, F, F, S, M, D),
	[DF_DIE_ROGUE] = DIE("rogue", C, C, G, G, M, D),
	[DF_DIE_CHAMPION] = DIE("champion", S, S, S, F, M, M),
	[DF_DIE_RELIC] = DIE("relic", S, C, F, G, G, M),
};
#undef DIE
#undef N

#undef S
#undef C
#undef F
#undef G
#undef M
#undef D

/* Lineages (DF21): hand, move, steel, cunning, faith modifiers;
 * flags; starting bag {recruit, warrior, scholar, priest, rogue, champion,
 * relic}. Every bag holds 8 dice but Golem-born's 10 ("big"). */
const df_lineage_def df_lineages[DF_NLINEAGE] = {
	[DF_DVERGAR] = {"Dvergar", "ignores room threat on its claim (smash-through)",
			"-1 Move (slow)", 0, -1, 0, 0, 0, DF_L_IGNORE_THREAT,
			{7, 1, 0, 0, 0, 0, 0}},
	[DF_WISP] = {"Wisp", "+1 die drawn each hand (nimble)",
		     "Setbacks hit double (fragile)", 1, 0, 0, 0, 0, DF_L_SETBACK_DOUBLE,
		     {6, 0, 2, 0, 0, 0, 0}},
	[DF_REVENANT] = {"Revenant", "converts Dread into Mettle (peril as fuel)",
			 "Faith -1 (no living soul)", 0, 0, 0, 0, -1, DF_L_DREAD_TO_METTLE,
			 {6, 0, 0, 2, 0, 0, 0}},
	[DF_GNOLL] = {"Gnoll", "+loot claiming combat rooms (Den, Forge)",
		      "Cunning -1 (clumsy at locks)", 0, 0, 0, -1, 0, DF_L_COMBAT_LOOT,
		      {6, 1, 0, 0, 1, 0, 0}},
	[DF_SYLPHID] = {"Sylphid", "+1 Move (fleet)", "Steel -1 (frail)", 0, 1, -1, 0, 0, 0,
			{6, 0, 1, 0, 1, 0, 0}},
	[DF_GOLEM] = {"Golem-born", "Setback-resistant (every other Setback shrugged off)",
		      "-1 die each hand (cancels the Prospector's +1)", -1, 0, 0, 0, 0,
		      DF_L_SETBACK_RESIST, {10, 0, 0, 0, 0, 0, 0}},
};

/* Callings: hand, move modifiers, recruit kind, flags. */
const df_calling_def df_callings[DF_NCALLING] = {
	[DF_REAVER] = {"Reaver", "Pillage: extra loot from every room claimed", 0, 0,
		       DF_DIE_WARRIOR, DF_C_PILLAGE},
	[DF_LOREKEEPER] = {"Lorekeeper", "opens Vaults solo (no trinity); +1 Cunning at locks",
			   0, 0, DF_DIE_SCHOLAR, DF_C_SOLO_VAULT | DF_C_LOCK_BONUS},
	[DF_WARDANCER] = {"Wardancer", "Worthy End x1.5; Last Stand free; cheap Moves", 0, 0,
			  DF_DIE_ROGUE,
			  DF_C_WORTHY_BONUS | DF_C_FREE_STAND | DF_C_CHEAP_MOVES},
	[DF_HIEROPHANT] = {"Hierophant",
			   "cancels one more Dread; spare Faith heals, then pays as Mettle "
			   "for recruits; denizens stay calm",
			   0, 0, DF_DIE_PRIEST,
			   DF_C_DREAD_CANCEL | DF_C_HEAL | DF_C_CALM_DENIZENS | DF_C_FAITH_METTLE},
	[DF_WARDEN] = {"Warden", "active control markers count double for majority", 0, 0,
		       DF_DIE_CHAMPION, DF_C_DOUBLE_MARKERS},
	[DF_PROSPECTOR] = {"Prospector", "recruits cost 1 less; +1 hand; recruits Relic dice", 1,
			   0, DF_DIE_RELIC, DF_C_CHEAP_RECRUIT},
};

/* Denizen factions, folded into a threat modifier (DF55). */
const char *const df_denizen_names[DF_NDENIZEN] = {"deep_cult", "gnoll_warrens",
						   "revenant_court"};

/* Themes: base value, threat (Steel), lock (Cunning), produces, denizen,
 * home depth (0 top .. 100 bottom). Production is Catan's: a held room adds
 * one of its symbol whenever its holder rolled at least one. */
const df_theme_def df_themes[DF_NTHEME] = {
	[DF_THRESHOLD] = {"Threshold", 1, 0, 0, -1, -1, 0},
	[DF_STONE] = {"Stone", 2, 1, 0, -1, -1, 0},
	[DF_CISTERN] = {"Cistern", 3, 1, 1, DF_FAITH, -1, 15},
	[DF_DEN] = {"Den", 3, 3, 0, DF_STEEL, 1, 30},
	[DF_CRYPT] = {"Crypt", 3, 2, 1, DF_METTLE, 2, 35},
	[DF_HALL] = {"Hall", 4, 1, 1, DF_METTLE, -1, 45},
	[DF_LIBRARY] = {"Library", 4, 1, 2, DF_CUNNING, 0, 55},
	[DF_FORGE] = {"Forge", 5, 4, 1, DF_STEEL, -1, 70},
	[DF_VAULT] = {"Vault", 6, 2, 3, DF_GREED, 0, 85},
	[DF_THRONE] = {"Throne", 7, 5, 2, DF_GREED, -1, 100},
};

/* DF12: themes are weighted toward richer ones at greater depth: a theme
 * is commonest on the floors at its home depth and fades 1 weight per 8
 * points of depth away; the Throne only on the two deepest floors. Floor 1's
 * first room is always the Threshold (placed by the rules, weight 0 here). */
static int weight_at(int theme, int floor, int floors, int depth)
{
	if (theme <= DF_THRESHOLD || theme >= DF_NTHEME)
		return 0;
	if (theme == DF_THRONE && floor < floors - 1)
		return 0;
	int w = 10 - abs(depth - (int)df_themes[theme].home) / 8;
	return w > 0 ? w : 0;
}

static int floor_depth(int floor, int floors)
{
	return floors > 1 ? (floor - 1) * 100 / (floors - 1) : 0;
}

int df_theme_weight(int theme, int floor, int floors)
{
	return weight_at(theme, floor, floors, floor_depth(floor, floors));
}

int df_theme_weights(int floor, int floors, int *w)
{
	int depth = floor_depth(floor, floors), total = 0;
	for (int t = 0; t < DF_NTHEME; t++)
		total += w[t] = weight_at(t, floor, floors, depth);
	return total;
}

static const char *const lineage_ids[DF_NLINEAGE] = {"dvergar", "wisp",    "revenant",
						     "gnoll",   "sylphid", "golem_born"};
static const char *const calling_ids[DF_NCALLING] = {"reaver", "lorekeeper", "wardancer",
						     "hierophant", "warden", "prospector"};
static const char *const theme_ids[DF_NTHEME] = {"threshold", "stone",  "cistern", "den",
						 "crypt",     "hall",   "library", "forge",
						 "vault",     "throne"};

const char *df_lineage_id(int l) { return name_at(lineage_ids, DF_NLINEAGE, l); }
const char *df_calling_id(int c) { return name_at(calling_ids, DF_NCALLING, c); }
const char *df_theme_id(int t) { return name_at(theme_ids, DF_NTHEME, t); }
const char *df_die_id(int d) { return d >= 0 && d < DF_NDIE ? df_dice[d].name : "?"; }
