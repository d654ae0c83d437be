/*
 * crawl.h — the crawl game kind's native API (docs/rules/crawl.md): a
 * co-operative roguelike for 1-4 scoundrels through three acts to the devil.
 * Shared by its modules — cr_level (the generator), cr_qmark (? tiles),
 * cr_data (the content), cr_config, cr_events, cr_rules, cr_fov, cr_ai,
 * cr_kind (the game_kind and its JSON) — the simulator, the tests and the
 * benchmark.
 *
 * A cr_game is one plain fixed-size struct with one pointer inside, to the
 * content (immutable, parsed once per process and shared by every game), no
 * allocation after creation, so the simulator reuses one and a state can be
 * compared or copied with memcmp/memcpy.
 *
 * Randomness (C49): the rules draw from `rules`; ? tiles from `qrng`; shared
 * events from `shared_rng`; each scoundrel's own events from its `erng`; a
 * level and its event pool from generators derived from (run seed, act,
 * visit); the AI from a generator derived per decision from (seed, decision,
 * seat) (cr_ai.c). So the AI never moves the dungeon, and a state rebuilt by
 * replaying its choices makes the same AI choices afterwards.
 */
#ifndef LAIR_CRAWL_H
#define LAIR_CRAWL_H

#include <stdbool.h>
#include <stdint.h>

#include "../../../common/rng.h"
#include "../game.h"
#include "cr_level.h"
#include "cr_qmark.h"

#define CR_MAX_SEATS 4
#define CR_MAX_MONSTER_KINDS 24
#define CR_MAX_ITEM_KINDS 32
#define CR_MAX_RELICS 16
#define CR_MAX_EVENTS 48
#define CR_MAX_OPTIONS 4
#define CR_MAX_EFFECTS 384 /* the content's effect pool */
#define CR_MAX_MONSTERS 64 /* on a level at once */
#define CR_INV_BASE 8
#define CR_INV_MAX 12
#define CR_SHOP_ITEMS 3 /* plus one relic */
#define CR_HERO_ATK_LO 2 /* C34: a scoundrel's blow, before its bonuses */
#define CR_HERO_ATK_HI 4

/* ---- content (cr_data.c): the data files parsed and validated (C29) -------- */

enum cr_item_class { CR_IC_POTION, CR_IC_SCROLL, CR_IC_FOOD, CR_IC_WEAPON, CR_IC_ARMOR,
		     CR_NIC };
extern const char *const cr_item_class_names[CR_NIC];

/* The effect language (C28). */
enum cr_op {
	CR_E_GOLD,      /* n: gain (or lose, never below 0) gold */
	CR_E_HP,        /* n: heal (to max) or lose HP (never below 1) */
	CR_E_HEAL_FULL,
	CR_E_MAX_HP,    /* n: max HP up (HP too) or down (HP kept within) */
	CR_E_ATTACK,    /* n: permanent attack */
	CR_E_DEFENSE,   /* n: permanent defense */
	CR_E_XP,        /* n */
	CR_E_ITEM,      /* arg: item kind, or CR_PICK_* */
	CR_E_LOSE_ITEM, /* arg: CR_PICK_ANY or CR_PICK_POTION */
	CR_E_RELIC,     /* arg: relic, or CR_PICK_ANY */
	CR_E_PET,
	CR_E_IDENTIFY,  /* n kinds */
	CR_E_MAP,
	CR_E_TELEPORT,
	CR_E_FIGHT,     /* arg: 0 normal, 1 elite */
	CR_E_FIRE,      /* n damage to monsters within 2 tiles */
	CR_E_CHANCE,    /* n percent: then [a, a+b) else [c, c+d) of the pool */
	CR_NOPS
};
enum { CR_PICK_ANY = -1, CR_PICK_POTION = -2, CR_PICK_SCROLL = -3, CR_PICK_GEAR = -4 };

typedef struct cr_effect {
	uint8_t op;
	int32_t n;
	int16_t arg;
	uint16_t then_at, then_n, else_at, else_n; /* CR_E_CHANCE */
} cr_effect;

typedef struct cr_range {
	uint16_t at, n; /* effects [at, at + n) of the pool */
} cr_range;

/* IsAllowed() conditions and an option's requirements (C23). -1 / 0: none. */
typedef struct cr_cond {
	int16_t gold_min, hp_min, items_min, potions_min, floors_min;
	int8_t item, relic, no_relic; /* kinds, -1 none */
	bool damaged, no_pet;
	uint8_t acts; /* bit a: allowed in act a; 0: any */
} cr_cond;

typedef struct cr_monster_kind {
	char id[24], name[32];
	char glyph;
	uint8_t acts; /* bit a */
	bool elite, boss;
	int16_t hp, atk_lo, atk_hi, def, xp, gold_lo, gold_hi;
	uint8_t speed, sight;
} cr_monster_kind;

typedef struct cr_item_kind {
	char id[24], name[40], appearance[40]; /* appearance "" when known */
	uint8_t cls;
	int16_t bonus, value, weight;
	uint8_t min_act;
	cr_range effects;
} cr_item_kind;

enum cr_special { CR_SP_NONE, CR_SP_JUZU, CR_SP_COMPASS, CR_SP_PLANISPHERE };

typedef struct cr_relic {
	char id[24], name[32], text[80];
	uint8_t special;
	int16_t attack, defense, sight, gold_pct, max_hp, slots, heal_on_kill;
} cr_relic;

typedef struct cr_option {
	char label[72];
	cr_cond requires;
	cr_range effects;
} cr_option;

typedef struct cr_event {
	char id[24], name[40], text[160];
	uint8_t act; /* 0: shared by every act's pool */
	bool shared; /* IsShared: one screen, a vote (C24) */
	cr_cond cond;
	uint8_t n_options;
	cr_option option[CR_MAX_OPTIONS];
} cr_event;

typedef struct cr_content {
	int n_monsters, n_items, n_relics, n_events, n_effects;
	cr_monster_kind monster[CR_MAX_MONSTER_KINDS];
	cr_item_kind item[CR_MAX_ITEM_KINDS];
	cr_relic relic[CR_MAX_RELICS];
	cr_event event[CR_MAX_EVENTS];
	cr_effect effect[CR_MAX_EFFECTS];
	int8_t juzu, compass, planisphere, devil; /* indexes the rules name */
} cr_content;

/* The embedded data files, parsed and validated once per process (the
 * first call, under pthread_once; the table is never written again, so
 * games on any thread share it); NULL with the message naming the file and
 * the entry when the data is broken (every call says the same). */
const cr_content *cr_content_builtin(char *err, size_t errlen);
/* The same from given texts (tests: broken data is refused). */
int cr_content_parse(cr_content *ct, const char *monsters, const char *items,
		     const char *relics, const char *events, char *err, size_t errlen);
int cr_item_find(const cr_content *ct, const char *id);
int cr_relic_find(const cr_content *ct, const char *id);
int cr_monster_find(const cr_content *ct, const char *id);

/* ---- config (cr_config.c) ------------------------------------------------- */

typedef struct cr_config {
	int acts;          /* 1..3 (3) */
	int width, height; /* C1 */
	int max_rounds;    /* C44 */
	bool deadly_events; /* C18 */
	uint8_t first_run; /* C15: bit s, seat s is a human on a first run (the
			    * server fills it in at each start) */
	const cr_content *ct; /* the data, validated (cr_content_builtin's, or a
			       * test's own) */
} cr_config;

/* Fills cfg from JSON (NULL: defaults) and loads the content; -1 with a
 * message on an unknown key, a wrong type or a value out of range. */
int cr_config_parse(cr_config *cfg, const cJSON *json, char *err, size_t errlen);
cJSON *cr_config_json(const cr_config *cfg);

/* ---- state ---------------------------------------------------------------- */

/* Per-tile flags of the current level. */
enum {
	CR_F_QMARK = 1,   /* an unentered ? tile */
	CR_F_CHEST = 2,   /* an unopened chest */
	CR_F_UP = 4,
	CR_F_DOWN = 8,
	CR_F_LAIR = 16,
	CR_F_SEEN = 32,   /* the party has seen it (C38) */
	CR_F_VISIBLE = 64, /* in someone's sight now */
};

enum cr_screen { CR_SC_NONE, CR_SC_EVENT, CR_SC_SHOP };
enum cr_travel { CR_TR_NONE, CR_TR_TO, CR_TR_EXPLORE, CR_TR_REST };

typedef struct cr_monster {
	uint8_t kind, x, y;
	bool alive, awake;
	int16_t hp, max_hp;
} cr_monster;

typedef struct cr_hero {
	bool alive;
	uint8_t x, y;
	int16_t hp, max_hp, level;
	int16_t atk, def;      /* permanent bonuses (potions, scrolls, events, levels) */
	int8_t weapon, armor;  /* item kinds, -1 none */
	int32_t gold, xp;
	int8_t inv[CR_INV_MAX]; /* item kinds, -1 empty */
	uint16_t relics;       /* bit r */
	bool pet;
	/* what it is doing */
	uint8_t gate;          /* 0, or the act its gateway leads to (C37) */
	int16_t gate_fee;      /* paid for a jump, refunded on stepping out */
	uint8_t screen;        /* enum cr_screen (its own event or shop) */
	int8_t event;          /* the event of its screen */
	int8_t shop[CR_SHOP_ITEMS]; /* item kinds on sale, -1 sold */
	int8_t shop_relic;     /* a relic on sale, -1 none or sold */
	uint8_t travel;        /* enum cr_travel (C36) */
	uint8_t tx, ty;
	int16_t travel_hp;
	rng erng;              /* its own events' generator (C25) */
	/* statistics */
	int32_t kills, elite_kills, damage_taken, gold_earned, qmarks, events_seen, potions;
	int32_t falls, steps, items_used, bought;
} cr_hero;

#define CR_VOTE_QUEUE 4

typedef struct cr_game {
	cr_config cfg;
	int seats;
	uint64_t seed;
	rng rules, qrng, shared_rng;
	int decision;        /* the decision being asked, from 1 */
	int rounds;          /* map rounds played */
	int act, max_act, floors; /* current act; deepest reached; levels arrived on */
	int visits[CR_MAX_ACTS + 1];
	int arrived_round;   /* rounds played when the party arrived here */
	cr_level lv;
	uint8_t flag[CR_MAX_H][CR_MAX_W];
	int n_mon;
	cr_monster mon[CR_MAX_MONSTERS];
	cr_hero h[CR_MAX_SEATS];
	/* ? tiles (C11-C19) */
	cr_odds odds;
	int qm_entered;      /* ? tiles the party entered this run */
	bool first_run;
	int compass_act;     /* 0, or the act the Golden Compass was found in */
	int room_count[CR_MAX_ACTS + 1][CR_NROOM]; /* what the ? tiles became */
	/* events (C21-C27) */
	uint8_t pool[CR_MAX_EVENTS];
	int n_pool, repeat_at;
	uint64_t seen_events; /* bit e: served this run */
	int vote[CR_VOTE_QUEUE]; /* shared events waiting for the party's vote */
	int n_vote;
	int vote_seat;        /* who stepped on it */
	/* the party */
	uint32_t identified;  /* bit k: item kind k known (C30) */
	uint16_t relic_pool;  /* bit r: still to be found */
	bool over, won;
	int end_reason;       /* enum cr_end */
	/* what the simulator reports */
	int gen_levels, gen_rejections, gen_fallbacks, gen_max_rejections;
	int votes;
	int ups, jumps, revives; /* the party went back up; by a quick jump; fallen stood again */
	uint16_t served[CR_MAX_EVENTS]; /* times each event was served */
	int devil;            /* index in mon[], -1 */
	/* what the last sight update saw from (cr_fov_refresh) */
	uint32_t doors_opened; /* in the run, so far */
	uint32_t fov_doors, fov_key[CR_MAX_SEATS];
} cr_game;

enum cr_end { CR_END_NONE, CR_END_WON, CR_END_FALLEN, CR_END_TIME };

/* ---- choices (C32) ---------------------------------------------------------- */

enum {
	CR_C_WAIT = 0,
	CR_C_N = 1, CR_C_E, CR_C_S, CR_C_W, /* step or attack */
	CR_C_EXPLORE = 5,
	CR_C_PORTAL = 6,
	CR_C_OUT = 7,
	CR_C_LEAVE = 8, /* leave a shop */
	CR_C_REST = 9,  /* wait until the party on the map is healed (C36) */
	CR_C_USE = 0x100,   /* + slot */
	CR_C_DROP = 0x200,  /* + slot */
	CR_C_JUMP = 0x300,  /* + act */
	CR_C_EVENT = 0x400, /* + option */
	CR_C_BUY = 0x500,   /* + 0..2 items, 3 the relic */
	CR_C_TRAVEL = 0x10000, /* + y * 256 + x */
};

/* The choice as its id string ("n", "use:2", "travel:12,5"); false when the
 * code is none of the forms. */
bool cr_choice_id(game_choice c, char *out, size_t len);
/* The code of an id string, or GAME_NO_CHOICE. */
game_choice cr_choice_parse_id(const char *id);
/* 0 if c is legal for seat now, else -1 with a message. */
int cr_choice_check(const cr_game *g, int seat, game_choice c, char *err, size_t errlen);
/* Every legal choice of a seat into out[max]; returns the count (may
 * exceed max). */
int cr_options(const cr_game *g, int seat, game_choice *out, int max);
/* Bit s: seat s must choose now (C32, C36, C37). */
uint32_t cr_pending(const cr_game *g);

/* ---- events (game_event.type; a, b, c as listed) --------------------------- */

/* A monster in an event: its index on the level and its kind, so that the
 * event names it rightly even once the party has left that level. */
#define CR_MON_REF(g, m) ((int32_t)(m) | (int32_t)(g)->mon[m].kind << 16)
#define CR_MON_INDEX(a) ((a) & 0xffff)
#define CR_MON_KIND(a) ((a) >> 16 & 0xff)

enum cr_ev {
	CR_EV_LEVEL = 1,  /* a act, b visit, c ? tiles: the party arrived */
	CR_EV_STEP,       /* seat; a x, b y */
	CR_EV_ATTACK,     /* seat; a monster (CR_MON_REF), b damage, c hp left */
	CR_EV_HIT,        /* seat (the victim); a monster, b damage, c hp left */
	CR_EV_KILL,       /* seat; a monster, b xp, c gold */
	CR_EV_FALL,       /* seat */
	CR_EV_REVIVE,     /* seat; a hp */
	CR_EV_LEVEL_UP,   /* seat; a level */
	CR_EV_QMARK,      /* seat; a room type, b 1 if rolled, c ? entered this run */
	CR_EV_AMBUSH,     /* seat; a monster */
	CR_EV_CHEST,      /* seat; a gold, b item kind (-1) */
	CR_EV_TREASURE,   /* seat; a gold, b item kind (-1), c relic (-1) */
	CR_EV_EVENT,      /* seat (-1 shared); a event, b 1 shared */
	CR_EV_VOTE,       /* a event, b chosen option, c votes for it | tied << 8 */
	CR_EV_CHOICE,     /* seat (-1 shared); a event, b option */
	CR_EV_CHANCE,     /* seat (-1 shared); a percent, b 1 if it came up */
	CR_EV_GOLD,       /* seat; a change, b gold now */
	CR_EV_HP,         /* seat; a change, b hp now */
	CR_EV_STAT,       /* seat; a 0 max_hp 1 attack 2 defense 3 xp, b change */
	CR_EV_ITEM,       /* seat; a item kind, b slot (-1: no room, left behind) */
	CR_EV_LOSE_ITEM,  /* seat; a item kind */
	CR_EV_USE,        /* seat; a item kind, b 1 if it identified the kind */
	CR_EV_EQUIP,      /* seat; a item kind */
	CR_EV_IDENTIFY,   /* a item kind (the party now knows it) */
	CR_EV_RELIC,      /* seat; a relic */
	CR_EV_PET,        /* seat */
	CR_EV_SHOP,       /* seat: a shop opened */
	CR_EV_BUY,        /* seat; a item kind (-1), b relic (-1), c price */
	CR_EV_GATE,       /* seat; a destination act (0: stepped out), b fee */
	CR_EV_TRAVEL,     /* seat; a 1 start 0 stop, b why (enum cr_stop) */
	CR_EV_MAP,        /* seat: the level's layout revealed */
	CR_EV_TELEPORT,   /* seat; a x, b y */
	CR_EV_FIRE,       /* seat; a damage, b monsters hit */
	CR_EV_DEVIL,      /* a monster: the devil woke */
	CR_EV_GAME_OVER,  /* a enum cr_end, b rounds, c the best seat's score */
	CR_EV_NOTHING,    /* seat: no event was allowed (C22) */
};

enum cr_stop { CR_STOP_ARRIVED, CR_STOP_MONSTER, CR_STOP_FOUND, CR_STOP_HURT, CR_STOP_BLOCKED,
	       CR_STOP_SCREEN, CR_STOP_DONE, CR_STOP_RESTED };

/* ---- rules (cr_rules.c, cr_events.c, cr_fov.c) ----------------------------- */

/* A new run: cfg validated, seats 1..CR_MAX_SEATS. */
void cr_game_init(cr_game *g, const cr_config *cfg, int seats, uint64_t seed, game_events *evs);
/* One decision: choices[seat] for every pending seat. Checks all first;
 * a game_err code (GAME_OK is 0) with a message, nothing changed, if any is
 * missing, not asked or illegal. Runs on to the next decision (travel
 * rounds included) or the end. */
int cr_apply(cr_game *g, const game_choice *choices, game_events *evs, char *err,
	     size_t errlen);

/* Derived figures (C34, C37, C38). */
int cr_attack_bonus(const cr_game *g, int seat);
int cr_defense(const cr_game *g, int seat);
int cr_sight(const cr_game *g, int seat);
int cr_inv_slots(const cr_game *g, int seat);
int cr_jump_fee(const cr_game *g, int act);
int cr_xp_next(int level); /* C43: xp needed to leave `level` */
bool cr_has_special(const cr_game *g, int special); /* any living scoundrel */
/* The monster at (x, y) alive, or -1. */
int cr_monster_at(const cr_game *g, int x, int y);
bool cr_monster_in_view(const cr_game *g);
/* Score of a seat (C45). */
int64_t cr_score(const cr_game *g, int seat);

/* Rule steps other modules call (cr_rules.c). */
int cr_give_item(cr_game *g, int seat, int kind, game_events *evs); /* slot or -1 */
int cr_pick_item(cr_game *g, rng *r, int pick);                      /* a kind, by weight */
void cr_give_relic(cr_game *g, int seat, int relic, rng *r, game_events *evs);
void cr_gain_xp(cr_game *g, int seat, int xp, game_events *evs);
void cr_gain_gold(cr_game *g, int seat, int gold, game_events *evs);
void cr_ambush(cr_game *g, int seat, bool elite, rng *r, game_events *evs);
void cr_hurt_monster(cr_game *g, int seat, int m, int dmg, game_events *evs);
void cr_identify(cr_game *g, int kind, game_events *evs);
void cr_teleport(cr_game *g, int seat, rng *r, game_events *evs);
void cr_reveal_map(cr_game *g);
int cr_count_class(const cr_game *g, int seat, int cls); /* -1: every item */
int cr_living(const cr_game *g);
/* Path distances over passable tiles the party has seen (C36). */
void cr_bfs_seen(const cr_game *g, int x0, int y0, uint16_t dist[CR_MAX_H][CR_MAX_W]);
/* The same, ended once (sx, sy) has its distance D: every tile nearer than D
 * has its own, the rest may be left at CR_FAR (a step from (sx, sy) toward
 * (x0, y0) needs no more). */
void cr_bfs_seen_to(const cr_game *g, int x0, int y0, int sx, int sy,
		    uint16_t dist[CR_MAX_H][CR_MAX_W]);
/* Someone living on the map is below their maximum HP (rest is offered). */
bool cr_party_hurt(const cr_game *g);
/* Explore's next target for a seat: the nearest seen tile next to an unseen
 * one, or an unentered ? or unopened chest; false when none is left. */
bool cr_explore_target(const cr_game *g, int seat, cr_pos *out);
/* What the AI's exploring leaves out (C48): the tiles within sqrt(r2) of
 * `at` (r2 0: none; it keeps away from the sleeping devil), and with
 * `qmarks` the ? tiles (never a target, never stepped on). */
typedef struct cr_avoid {
	cr_pos at;
	int r2;
	bool qmarks;
} cr_avoid;
/* Explore's target over the seen tiles av leaves, with the first step
 * toward it in *dir. With av->qmarks, when nothing else is left, the
 * nearest ? tile next to what was searched, and *qmark set. */
bool cr_explore_avoiding(const cr_game *g, int seat, const cr_avoid *av, cr_pos *out, int *dir,
			 bool *qmark);

/* Events (cr_events.c). */
void cr_pool_shuffle(cr_game *g);
/* C22: the next event for the party, or -1 when none is allowed. */
int cr_event_pick(cr_game *g);
bool cr_cond_met(const cr_game *g, int seat, const cr_cond *c);
bool cr_event_allowed(const cr_game *g, int e);
/* An option is open to a seat (its requires); for a shared event, to
 * every living scoundrel. */
bool cr_option_open(const cr_game *g, int seat, int e, int k);
/* Applies effects [r) to seat (C28). outcome: one result per chance of
 * the list, drawn before (a shared event's one draw for the party), or NULL
 * to draw from gen; gen also draws what else is random (items, relics,
 * ambushes). mode: which effects (a shared event gives each scoundrel its
 * own and the party its once-only ones). */
enum cr_eff_mode { CR_EFF_ALL, CR_EFF_EACH, CR_EFF_ONCE };
void cr_effects_run(cr_game *g, int seat, cr_range r, const int8_t *outcome, rng *gen,
		    int mode, game_events *evs);
/* Draws the outcome of every chance of [r) once (into out[r.n]). */
void cr_effects_draw(cr_game *g, cr_range r, rng *gen, int8_t *out, int seat,
		     game_events *evs);
/* A shared event's vote (C24): the option most chosen by the living, ties
 * by the shared generator; then its effects. */
void cr_vote_resolve(cr_game *g, const game_choice *choices, game_events *evs);
/* Opens what an Event room is (C22, C24, C25) for the seat on the ?. */
void cr_event_open(cr_game *g, int seat, game_events *evs);

/* Sight (cr_fov.c): recomputes CR_F_VISIBLE from every scoundrel on the map
 * and adds CR_F_SEEN; returns how many tiles with something on them (a ?,
 * a chest, a portal, the lair) became seen for the first time. */
int cr_fov_update(cr_game *g);
/* The same, unless nothing sight depends on has changed since the last
 * update (who is on the map, where, their sight, the doors opened): then
 * the visible tiles are those already marked and 0 is returned. */
int cr_fov_refresh(cr_game *g);
bool cr_los(const cr_game *g, int x0, int y0, int x1, int y1);

/* ---- AI (cr_ai.c) ------------------------------------------------------------ */

/* A legal choice for a pending seat from what the party knows; its random
 * draws come from a generator derived from (seed, decision, seat). */
game_choice cr_ai_choose(const cr_game *g, int seat);

/* ---- the game kind (cr_kind.c) ----------------------------------------------- */

extern const game_kind crawl_kind;

#endif
