/*
 * deepfall.h — DEEPFALL: rival delve-companies plunder a stacked dungeon
 * that the Maw eats from the bottom up. The rules, each with an id (DF1…),
 * are in docs/rules/deepfall.md; the knobs and the balance figures in
 * CONFIG.md beside this file. This header is the kind's native API, shared
 * by its modules (df_content, df_config, df_round, df_rules, df_maw, df_ai,
 * df_kind), the simulator (client-cli/sim_deepfall*.c), the unit tests and
 * the benchmark.
 *
 * A df_game is one plain fixed-size struct: no pointers inside, no
 * allocation after creation, so the simulator reuses one per thread and
 * df_game_init() resets it for the next game. Every rule draws from the
 * game's `rules` rng stream; the bots from a generator derived per decision
 * from (seed, decision, seat) (df_ai.c), never from the rules stream.
 *
 * A round is a short run of simultaneous decisions (DF30): every party rolls
 * its opening hand; then at each step every party still in its turn chooses
 * either to press (roll one more hand, all such hands rolled together) or to
 * stop and act: its target floor, whether to recruit and its exit, chosen
 * with every hand of its turn seen. When every party has acted, the turns
 * resolve in seat order from a start seat that rotates each round, the Maw
 * advances (pushed by all the Dread rolled and hands pressed this round)
 * and collapses at most max_collapses floors.
 *
 * Glory and loot are whole points. Fractions in the config (rates, shares)
 * are stored in thousandths ("milli") so the rules use integers only and a
 * game reproduces bit for bit on every machine (DF3).
 */
#ifndef LAIR_DEEPFALL_H
#define LAIR_DEEPFALL_H

#include <stdbool.h>
#include <stdint.h>

#include "../../../common/rng.h"
#include "../game.h"

#define DF_MAX_SEATS GAME_MAX_SEATS
#define DF_MAX_FLOORS 12
#define DF_MAX_ROOMS 8 /* per floor */
#define DF_MAX_BAG 40
#define DF_MAX_CASH_REC 24 /* cash-out timing records kept per player */

/* ---- content (df_content.c) ---------------------------------------- */

enum df_face { DF_STEEL, DF_CUNNING, DF_FAITH, DF_GREED, DF_METTLE, DF_DREAD, DF_NFACES };

enum df_die {
	DF_DIE_RECRUIT,
	DF_DIE_WARRIOR,
	DF_DIE_SCHOLAR,
	DF_DIE_PRIEST,
	DF_DIE_ROGUE,
	DF_DIE_CHAMPION,
	DF_DIE_RELIC,
	DF_NDIE
};

enum df_lineage { DF_DVERGAR, DF_WISP, DF_REVENANT, DF_GNOLL, DF_SYLPHID, DF_GOLEM, DF_NLINEAGE };

enum df_calling {
	DF_REAVER,
	DF_LOREKEEPER,
	DF_WARDANCER,
	DF_HIEROPHANT,
	DF_WARDEN,
	DF_PROSPECTOR,
	DF_NCALLING
};

#define DF_NCOMPANY (DF_NLINEAGE * DF_NCALLING) /* company = lineage * 6 + calling */

enum df_theme {
	DF_THRESHOLD,
	DF_STONE,
	DF_CISTERN,
	DF_DEN,
	DF_CRYPT,
	DF_HALL,
	DF_LIBRARY,
	DF_FORGE,
	DF_VAULT,
	DF_THRONE,
	DF_NTHEME
};

/* Lineage behaviour flags (DF21). */
enum {
	DF_L_IGNORE_THREAT = 1 << 0,  /* Dvergar: smash through a room's threat */
	DF_L_SETBACK_DOUBLE = 1 << 1, /* Wisp: a Setback hits twice */
	DF_L_DREAD_TO_METTLE = 1 << 2, /* Revenant: converts Dread into Mettle */
	DF_L_COMBAT_LOOT = 1 << 3,    /* Gnoll: extra loot claiming Den/Forge */
	DF_L_SETBACK_RESIST = 1 << 4, /* Golem-born: every other Setback shrugged */
};

/* Calling behaviour flags (DF22). */
enum {
	DF_C_PILLAGE = 1 << 0,        /* Reaver: loot on every claim */
	DF_C_SOLO_VAULT = 1 << 1,     /* Lorekeeper: Vaults without the trinity */
	DF_C_LOCK_BONUS = 1 << 2,     /* Lorekeeper: +1 Cunning at locks */
	DF_C_WORTHY_BONUS = 1 << 3,   /* Wardancer: Worthy End x1.5 */
	DF_C_FREE_STAND = 1 << 4,     /* Wardancer: Last Stand is free */
	DF_C_CHEAP_MOVES = 1 << 5,    /* Wardancer: bought moves cost 1 less */
	DF_C_DREAD_CANCEL = 1 << 6,   /* Hierophant: cancels one more Dread */
	DF_C_HEAL = 1 << 7,           /* Hierophant: spare Faith heals a wound */
	DF_C_CALM_DENIZENS = 1 << 8,  /* Hierophant: denizens never angered */
	DF_C_DOUBLE_MARKERS = 1 << 9, /* Warden: active markers count double */
	DF_C_CHEAP_RECRUIT = 1 << 10, /* Prospector: recruits cost 1 less */
	DF_C_FAITH_METTLE = 1 << 11,  /* Hierophant: spare Faith pays for recruits */
};

typedef struct df_die_def {
	const char *name;
	uint8_t face[6];           /* enum df_face per side */
	uint8_t count[DF_NFACES]; /* sides showing each face (derived from face) */
} df_die_def;

/* A die's Dread faces in the low byte, its Faith faces in the high byte:
 * summed over a pile (at most DF_MAX_BAG dice of at most 6 faces each)
 * the two never mix. */
#define DF_DF_DREAD(v) ((int)((v)&0xff))
#define DF_DF_FAITH(v) ((int)((v) >> 8))

typedef struct df_lineage_def {
	const char *name, *advantage, *cost;
	int8_t hand, move, steel, cunning, faith; /* per-turn modifiers */
	uint16_t flags;
	uint8_t bag[DF_NDIE]; /* starting bag: dice of each kind */
} df_lineage_def;

typedef struct df_calling_def {
	const char *name, *special;
	int8_t hand, move;
	uint8_t recruit; /* enum df_die */
	uint16_t flags;
} df_calling_def;

typedef struct df_theme_def {
	const char *name;
	uint8_t base, threat, lock;
	int8_t produces; /* enum df_face, -1: nothing */
	int8_t denizen;  /* -1, or the denizen faction whose room it is */
	uint8_t home;    /* depth (0 = top, 100 = bottom) where it is commonest */
} df_theme_def;

#define DF_NDENIZEN 3

extern const df_die_def df_dice[DF_NDIE];

static inline unsigned df_die_df(int d)
{
	return df_dice[d].count[DF_DREAD] | (unsigned)df_dice[d].count[DF_FAITH] << 8;
}
extern const df_lineage_def df_lineages[DF_NLINEAGE];
extern const df_calling_def df_callings[DF_NCALLING];
extern const df_theme_def df_themes[DF_NTHEME];
extern const char *const df_face_names[DF_NFACES];
extern const char *const df_denizen_names[DF_NDENIZEN];

/* Weight of theme t on floor f of d (0: never there); see df_content.c. */
int df_theme_weight(int theme, int floor, int floors);
/* Every theme's weight on floor f into w[DF_NTHEME]; returns their sum. */
int df_theme_weights(int floor, int floors, int *w);
/* Short lower-case ids used in JSON ("dvergar", "golem_born", "vault"). */
const char *df_lineage_id(int l);
const char *df_calling_id(int c);
const char *df_theme_id(int t);
const char *df_die_id(int d);

/* ---- config (df_config.c) ------------------------------------------ */

enum df_strategy { DF_AI_CASHOUT, DF_AI_PRESSON, DF_AI_WORTHYEND, DF_AI_BALANCED, DF_NSTRAT };
extern const char *const df_strategy_names[DF_NSTRAT];
/* -1 when unknown. */
int df_strategy_parse(const char *name);

typedef struct df_config {
	int floors, rooms, max_rounds;
	int hand_size, base_moves, move_cost, max_press;
	int dread_threshold, press_dread, revenant_convert, min_bag, bag_max, setback_loot;
	int loot_per_greed, production, reaver_loot, gnoll_loot;
	int recruit_cost, last_stand_cost, cash_dividend, dividend_delved, worthy_factor;
	int worthy_held_bonus;  /* milli: share of held room value added */
	int maw_base, maw_accel; /* milli-floors per round */
	int dread_push, press_push; /* milli-floors per Dread / per press */
	int max_collapses;
	int value_rise;   /* milli: share of an unclaimed room's value rising */
	int reentry_gap;
	int depth_coeff;  /* milli: room value = base * (1 + coeff * (depth - 1)) */
	int comeback_bp;  /* exit payouts +bp/10000 at a 100% glory deficit */
	int fallen_strength; /* milli: share of a marker's strength kept on Fallen */
	int strength_surplus; /* 1: claim strength counts only symbols beyond the need */
	int denizen_step, denizen_cap;
	int held_rise;     /* milli: share of a scoring room's value rising (DF56) */
	int plunder_flees; /* 1: refugee plunder flees a Worthy End (DF57) */
	int rise_extra;    /* milli: more of a scoring room's value rising, unpaid (DF58) */
	int collapse_ramp; /* milli: majorities grow per floor eaten before (DF59) */
	int cash_bar;     /* the bots' "bank-worthy" unbanked loot */
	uint8_t ai[DF_MAX_SEATS]; /* enum df_strategy per seat */
} df_config;

/* One knob: its JSON name, where it lives, its scale (1 or 1000 for milli)
 * and its bounds and default as the JSON number. */
typedef struct df_knob {
	const char *name;
	size_t offset;
	int scale;
	double min, max, def;
	const char *doc;
} df_knob;

extern const df_knob df_knobs[];
extern const int df_n_knobs;

void df_config_defaults(df_config *cfg);
/* Fills cfg from JSON (NULL: defaults). Unknown keys, wrong types and out of
 * range values are errors: returns -1 with a message, cfg then undefined. */
int df_config_parse(df_config *cfg, const cJSON *json, char *err, size_t errlen);
/* The full config as JSON (caller owns). */
cJSON *df_config_json(const df_config *cfg);
/* Sets one knob by name from its JSON value; -1 with a message if unknown
 * or out of range. */
int df_config_set(df_config *cfg, const char *name, double value, char *err, size_t errlen);
const df_knob *df_knob_find(const char *name);

/* ---- state ---------------------------------------------------------- */

enum df_exit { DF_PERSIST, DF_CASH_OUT, DF_LAST_STAND, DF_NEXIT };
extern const char *const df_exit_names[DF_NEXIT];

/* Where a player's glory came from: the exit triangle. Cash-Out banks and
 * majorities won by Fallen markers are the long game; majorities won by an
 * active party are Press On; Worthy-End bursts are Worthy End. */
enum df_source { DF_SRC_CASH, DF_SRC_PRESS, DF_SRC_WORTHY, DF_NSRC };

typedef struct df_room {
	uint8_t theme;
	uint8_t alive; /* 0: consumed by a Worthy End or collapsed */
	int16_t value; /* glory at collapse, risen plunder included */
	int16_t risen; /* the refugee plunder in value (it flees a Worthy End, DF57) */
	uint16_t claimed; /* seats that ever claimed it (a statistic) */
	uint8_t act[DF_MAX_SEATS];    /* strength of the player's active party */
	uint16_t fallen[DF_MAX_SEATS]; /* summed Fallen strength */
	uint8_t prog_s[DF_MAX_SEATS], prog_c[DF_MAX_SEATS]; /* assault progress */
} df_room;

/* A party's symbols for the rest of its turn, as the act step will resolve
 * them (DF40-DF42): the faces rolled with the pressed Dread, the Lineage's
 * per-turn costs, production from held rooms, then Dread resolution. */
typedef struct df_totals {
	int sym[DF_NFACES];  /* after all of the above; sym[DF_DREAD] is what stands */
	int rolled_dread;    /* Dread rolled plus press_dread per press */
	int cancelled, to_mettle;
	int setbacks;        /* Setbacks the standing Dread will cause */
	bool trinity;        /* Steel, Cunning and Faith all rolled (DF45) */
} df_totals;

typedef struct df_party {
	uint8_t active, lineage, calling, floor, deepest, last_stand, entry;
	uint8_t n_draw, n_disc, n_wound, golem_setbacks;
	uint8_t draw[DF_MAX_BAG], disc[DF_MAX_BAG], wound[DF_MAX_BAG];
	/* The Dread and Faith faces of the draw and discard piles' dice,
	 * summed (df_die_df), kept with the piles: what the bots weigh before
	 * pressing, without counting the piles every time. */
	uint16_t draw_df, disc_df;
	uint8_t anger[DF_NDENIZEN];
	int32_t unbanked;
	/* This round's turn (DF31-DF33): the dice drawn, hands rolled, the
	 * faces rolled so far, and the act once chosen (acted set). */
	uint8_t hand[DF_MAX_BAG];
	uint8_t n_hand, hands, acted;
	uint8_t rolled[DF_NFACES];
	/* The turn's totals (df_turn_totals) as of its last hand rolled:
	 * nothing changes them before its act resolves (DF34: nothing another
	 * party does changes an act), so the bots and the resolution read
	 * them here instead of working them out again. */
	df_totals tot;
	game_choice act;
	/* The rooms this party claimed, a bit per room index: the only rooms
	 * its active markers can be on (production and the Last Stand's free
	 * rooms look there instead of over the whole dungeon). */
	uint64_t claimed[(DF_MAX_FLOORS * DF_MAX_ROOMS + 63) / 64];
} df_party;

static inline void df_mark_claim(df_party *pa, int room)
{
	pa->claimed[room >> 6] |= 1ull << (room & 63);
}

typedef struct df_player {
	int32_t glory;
	df_party party;
	/* statistics (int32: with extreme knobs a 512-round game counts some
	 * 25,000 Setbacks a seat, too close to int16's limit) */
	int32_t src[DF_NSRC];
	int32_t parties, cash_outs, cash_forced, worthy_ends, taken, setbacks, claims;
	int32_t deepest, rooms_scored;
	uint8_t companies[DF_NCOMPANY]; /* parties fielded of each company */
	uint8_t n_cash_rec;
	uint8_t cash_round[DF_MAX_CASH_REC], cash_depth[DF_MAX_CASH_REC];
} df_player;

typedef struct df_game {
	df_config cfg;
	int seats;
	rng rules;
	uint64_t seed;  /* the game's seed: each AI decision derives its rng (df_ai.c) */
	int decision;   /* decisions applied so far (the AI's derivation key) */
	int round;      /* the round being played, from 1 */
	int start_seat; /* who rolls and resolves first this round */
	int frontier;   /* deepest uncollapsed floor; 0 = the game is over */
	int accum;      /* the Maw's carried progress, milli-floors */
	int last_speed; /* the Maw's speed last round, milli-floors */
	int round_dread, round_press;
	int over;
	int rounds_played;
	uint32_t winners;
	int32_t collapse_glory[DF_MAX_FLOORS + 1]; /* glory paid by each floor's collapse */
	int32_t collapse_worthy[DF_MAX_FLOORS + 1]; /* the Worthy Ends' part of it */
	int32_t pile[DF_MAX_FLOORS + 1]; /* plunder waiting on a floor with no live room (DF57) */
	/* No live room of floor f is worth more than top[f] (the bots pass over
	 * a floor that cannot beat the best found): set with the rooms, raised
	 * when plunder lands; a room leaving the board leaves it as it is. */
	int16_t top[DF_MAX_FLOORS + 1];
	df_room rooms[DF_MAX_FLOORS * DF_MAX_ROOMS];
	df_player pl[DF_MAX_SEATS];
} df_game;

/* Room r of floor f (1-based floor, 0-based room). */
static inline df_room *df_room_at(df_game *g, int f, int r)
{
	return &g->rooms[(f - 1) * g->cfg.rooms + r];
}

/* ---- choices (df_round.c) --------------------------------------------- */

/* A turn step's choice codes (DF32, DF33): DF_PRESS, or an act code
 * DF_ACT_TAG | target | recruit << 8 | exit << 9 (stop and act). The tag
 * keeps the two apart, so a code alone says what it means. */
#define DF_PRESS 1
#define DF_ACT_TAG (1 << 12)

typedef struct df_act {
	int target, recruit, exit;
} df_act;

static inline game_choice df_act_pack(df_act a)
{
	return (game_choice)(DF_ACT_TAG | a.target | a.recruit << 8 | a.exit << 9);
}

/* 0 and *a if code is an act code, else -1. */
static inline int df_act_unpack(game_choice code, df_act *a)
{
	if (code < 0 || !(code & DF_ACT_TAG) || (code & ~(DF_ACT_TAG | 0x7ff)))
		return -1;
	a->target = code & 0xff;
	a->recruit = (code >> 8) & 1;
	a->exit = (code >> 9) & 3;
	return 0;
}

/* Seats that must choose now (0 when the game is over). Inline, like the
 * other small helpers below: the bots and the round engine call them for
 * every seat at every step. */
static inline uint32_t df_pending(const df_game *g)
{
	if (g->over)
		return 0;
	uint32_t m = 0;
	for (int s = 0; s < g->seats; s++) {
		const df_party *pa = &g->pl[s].party;
		if (pa->active && !pa->acted)
			m |= 1u << s;
	}
	return m;
}
/* GAME_OK if code is legal for seat now, else a GAME_ERR_* with a message. */
int df_choice_check(const df_game *g, int seat, game_choice code, char *err, size_t errlen);

/* Event types (game_event.type); a, b, c as listed. */
enum df_event {
	DF_EV_ROUND = 1,    /* a round, b starting seat */
	DF_EV_DRAFT,        /* seat; a lineage, b calling, c floor */
	DF_EV_ROLL,         /* seat; a faces packed 5 bits each (steel first), b hand number, c dice */
	DF_EV_DREAD,        /* seat; a dread rolled, b cancelled, c converted to Mettle */
	DF_EV_SETBACK,      /* seat; a dice lost, b loot lost, c 1 if shrugged off */
	DF_EV_MOVE,         /* seat; a from, b to, c moves bought */
	DF_EV_CLAIM,        /* seat; a room index, b strength, c loot bonus */
	DF_EV_ASSAULT,      /* seat; a room index, b steel progress, c cunning progress */
	DF_EV_LOOT,         /* seat; a loot gained, b unbanked now */
	DF_EV_RECRUIT,      /* seat; a die kind */
	DF_EV_HEAL,         /* seat; a die kind back in the bag */
	DF_EV_CASH_OUT,     /* seat; a banked, b glory now, c deepest | forced << 8 */
	DF_EV_LAST_STAND,   /* seat; a Mettle paid */
	DF_EV_MAW,          /* a speed, b accum after (milli), c frontier */
	DF_EV_COLLAPSE,     /* a floor */
	DF_EV_WORTHY_END,   /* seat; a payout, b floor, c rooms consumed */
	DF_EV_ROOM_SCORED,  /* seat (-1: unclaimed); a room index, b glory, c tied holders */
	DF_EV_VALUE_RISE,   /* a floor it rose to, b glory risen, c 1: it waits there (DF57) */
	DF_EV_TAKEN,        /* seat; a loot lost, b rooms lost */
	DF_EV_GAME_OVER,    /* a rounds, b winner mask */
	DF_EV_PLUNDER_FLED, /* a floor, b glory, c 1: no live room there, it waits (DF57) */
};

/* ---- rules (df_round.c, df_rules.c, df_maw.c) -------------------------- */

/* Starts a game and rolls the first round's opening hands; seats
 * 1..DF_MAX_SEATS, cfg already validated. Emits into evs (may be NULL: the
 * simulator's fast path). */
void df_game_init(df_game *g, const df_config *cfg, int seats, uint64_t seed, game_events *evs);

/* Applies one decision: choices[seat] for every pending seat and
 * GAME_NO_CHOICE for the others. Checks all first: a GAME_ERR_* with a
 * message and nothing changed if any is wrong; GAME_OK after the game has
 * run to its next decision (or its end). */
int df_apply(df_game *g, const game_choice *choices, game_events *evs, char *err,
	     size_t errlen);

void df_turn_totals(const df_game *g, int seat, df_totals *t);

/* Whether the seat may declare a Last Stand with its act now (DF51):
 * df_stand_free (a Vault or Throne held, a Wardancer) or the turn's Mettle
 * pays last_stand_cost; df_stand_offered_t with the totals at hand. */
bool df_stand_free(const df_game *g, int seat);
bool df_stand_offered(const df_game *g, int seat);
bool df_stand_offered_t(const df_game *g, int seat, const df_totals *t);

/* How many floors the Maw eats at the end of this round if its speed gets
 * `extra` more (milli; 0: no more Dread rolled and no more hands pressed,
 * exact once every party acted), and its speed this round (milli)
 * (DF60-DF62). */
int df_maw_falls(const df_game *g, int extra, int *speed);

/* Rule steps, exposed for the unit tests and the bots. */

/* DF31: dice per hand, Lineage and Calling included, at least 1. */
static inline int df_hand_size(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	int h = g->cfg.hand_size + df_lineages[pa->lineage].hand + df_callings[pa->calling].hand;
	return h < 1 ? 1 : h;
}

/* DF44: free steps a turn, Lineage and Calling included. */
static inline int df_moves(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	int m = g->cfg.base_moves + df_lineages[pa->lineage].move + df_callings[pa->calling].move;
	return m < 0 ? 0 : m;
}

/* DF11: sub-linear depth, amount * (1 + coeff * (floor - 1)), rounded. */
static inline int df_depth_scale(const df_config *cfg, int floor, int amount)
{
	int64_t m = 1000 + (int64_t)cfg->depth_coeff * (floor - 1);
	return (int)((amount * m + 500) / 1000);
}

static inline int df_room_value(const df_config *cfg, int theme, int floor)
{
	return df_depth_scale(cfg, floor, df_themes[theme].base);
}

/* What a room worth `value` on `floor` pays its majority when the floor
 * collapses (DF64): less the held_rise share that rises to the floor above
 * (DF56; the last collapse, floor 1's, keeps it all), scaled by the floors
 * the Maw ate before (DF59). */
static inline int df_room_pays(const df_config *cfg, int value, int floor)
{
	int v = value;
	if (floor > 1)
		v -= v * cfg->held_rise / 1000;
	if (cfg->collapse_ramp)
		v = (int)((int64_t)v * (1000 + (int64_t)cfg->collapse_ramp * (cfg->floors - floor)) /
			  1000);
	return v;
}

/* draw + discard piles */
static inline int df_bag_size(const df_party *pa) { return pa->n_draw + pa->n_disc; }

/* every die: piles, hand, wounded */
static inline int df_dice_owned(const df_party *pa)
{
	return pa->n_draw + pa->n_disc + pa->n_hand + pa->n_wound;
}
/* Draws one die (reshuffling the discard when the draw pile is empty) into
 * *die; 0 when the whole bag is in hand. */
int df_bag_draw(df_game *g, df_party *pa, uint8_t *die);
void df_draft(df_game *g, int seat, game_events *evs);
/* Draws and rolls one hand into the seat's turn (DF31, DF32). */
void df_roll_hand(df_game *g, int seat, game_events *evs);
/* Whether the seat may press another hand now (DF32). */
static inline bool df_can_press(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	return pa->active && pa->hands <= g->cfg.max_press && df_bag_size(pa) > 0;
}
/* The resolution of one seat's act (DF34): Dread, Last Stand, move, claim,
 * loot, heal, recruit, discard, Cash-Out. falls: floors the Maw eats this
 * round. */
void df_resolve(df_game *g, int seat, df_act a, int falls, game_events *evs);
/* Whether the party cannot end this turn above the falling floors: staying
 * means being Taken (DF54). */
bool df_must_leave(const df_game *g, int seat, const df_totals *t, int falls);
void df_setback(df_game *g, int seat, game_events *evs);
void df_claim(df_game *g, int seat, int *tot, bool trinity, game_events *evs);
void df_cash_out(df_game *g, int seat, bool forced, game_events *evs);
int df_dividend(const df_game *g, int seat);
bool df_holds_stand_room(const df_game *g, int seat);

/* The Maw (df_maw.c). */
void df_maw_advance(df_game *g, game_events *evs);
void df_collapse(df_game *g, int floor, game_events *evs);
int df_comeback(const df_game *g, int seat, int payout);
void df_finish(df_game *g, game_events *evs);

/* A seat's summed marker strength on a room (Warden doubles an active
 * party's markers), and the threat a room poses to a seat (denizen anger and
 * Dvergar included). Inline: the bots and the scoring call them a lot. */
static inline int df_room_strength(const df_game *g, const df_room *rm, int seat)
{
	int act = rm->act[seat];
	const df_party *pa = &g->pl[seat].party;
	if (act && pa->active && (df_callings[pa->calling].flags & DF_C_DOUBLE_MARKERS))
		act *= 2;
	return act + rm->fallen[seat];
}

static inline int df_threat_for(const df_game *g, int seat, const df_room *rm)
{
	const df_party *pa = &g->pl[seat].party;
	if (df_lineages[pa->lineage].flags & DF_L_IGNORE_THREAT)
		return 0;
	const df_theme_def *t = &df_themes[rm->theme];
	int threat = t->threat;
	if (t->denizen >= 0 && !(df_callings[pa->calling].flags & DF_C_CALM_DENIZENS)) {
		int extra = pa->anger[t->denizen] / g->cfg.denizen_step;
		threat += extra < g->cfg.denizen_cap ? extra : g->cfg.denizen_cap;
	}
	return threat;
}

/* ---- bots (df_ai.c) ------------------------------------------------ */

/* The seat's strategy's choice for the current step; reads only public
 * state and changes nothing. Its jitter comes from a generator derived from
 * (g->seed, g->decision, seat), not a running stream, so a game rebuilt by
 * replaying its logged choices without asking the AI makes the same AI
 * choices from then on. */
game_choice df_ai_choose(const df_game *g, int seat, int strategy);

/* ---- the game kind (df_kind.c) ---------------------------------------- */

extern const game_kind deepfall_kind;

#endif
