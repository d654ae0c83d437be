/*
 * gems.h — the native API of the gem dungeon game (its rules: docs/rules/gems.md).
 *
 * This is the fast path the simulator, the benchmark and the unit tests use;
 * gems_kind.c wraps it in the game_kind vtable (game.h) for the server.
 *
 * A game lives entirely in one caller-owned `gems_game` value: no pointers,
 * no allocation, so it can be copied (forked), compared and hashed byte for
 * byte. gems_init() fills it and runs it to its first decision point;
 * gems_apply() takes one set of simultaneous choices and runs to the next.
 * Events are pushed into a caller-owned game_events buffer (may be NULL when
 * the caller does not want them: the simulator's hot path).
 *
 * Everything here is pure and deterministic: the rules draw from g->rules,
 * the AI personalities (drawn once at init) from g->ai, and each AI decision
 * from a fresh generator derived from (seed, decision number, seat) — see
 * gems_ai_choose — so calling the AI never changes the dungeon (game.h) and a
 * game rebuilt by replaying its logged choices gets the same AI choices.
 */
#ifndef LAIR_GEMS_H
#define LAIR_GEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../common/rng.h"
#include "../game.h"

#define GEMS_DUNGEONS 5
#define GEMS_MAX_ROOMS 48      /* 15 gems + ≤8 bars + ≤14 warnings + ≤6 adventure */
#define GEMS_MAX_FLOOR_BARS 16
#define GEMS_MONTE_SWAPS 7     /* swaps in one Monte shuffle */
#define GEMS_COIN_ROOMS 6      /* 3 Sphinx rooms × 2 paths per dungeon */

/* The ten adventures, in a fixed order (their ids are stable). */
enum gems_adv {
	GEMS_ADV_BANKER,
	GEMS_ADV_SUNMOON,
	GEMS_ADV_FERRY,
	GEMS_ADV_MONTE,
	GEMS_ADV_SPHINX,
	GEMS_ADV_SCOUT,
	GEMS_ADV_MUSHROOM,
	GEMS_ADV_POISON,
	GEMS_ADV_DEVIL,
	GEMS_ADV_PEOPLE,
	GEMS_N_ADV
};

/* Room kinds of the list; DEAD and LAIR only appear in events and views,
 * for a warning room that G9 turned into a dead spider or the lair. */
enum gems_room_kind {
	GEMS_ROOM_GEM,
	GEMS_ROOM_BAR,
	GEMS_ROOM_WARNING,
	GEMS_ROOM_ADV,
	GEMS_ROOM_DEAD,
	GEMS_ROOM_LAIR
};

/* What G9 made of a warning room. */
enum gems_spider { GEMS_SPIDER_NONE, GEMS_SPIDER_DEAD, GEMS_SPIDER_LAIR };

typedef struct gems_room {
	uint8_t kind;   /* gems_room_kind */
	uint8_t arg;    /* gem level 0–14, warning type 0–4, or gems_adv */
	uint8_t spider; /* gems_spider (warnings only) */
	uint8_t pad;
} gems_room;

/* Choice codes (game_choice values). Stable: choice logs store them. */
enum gems_choice {
	GEMS_C_LEAVE,
	GEMS_C_STAY,
	GEMS_C_BANK4,
	GEMS_C_BANK8,
	GEMS_C_BANK12,
	GEMS_C_SUN,
	GEMS_C_MOON,
	GEMS_C_PAY,
	GEMS_C_CARD1,
	GEMS_C_CARD2,
	GEMS_C_CARD3,
	GEMS_C_LEFT,
	GEMS_C_RIGHT,
	GEMS_C_EAT,
	GEMS_C_DEVIL3,
	GEMS_C_DEVIL4,
	GEMS_C_DEVIL5,
	GEMS_C_CARRY,
	GEMS_N_CHOICES
};

/* How a dungeon ended. */
enum gems_end { GEMS_END_ALL_LEFT, GEMS_END_LAIR, GEMS_END_EXHAUSTED };

/* Events (game_event.type); the fields a, b, c as listed. seat -1 unless
 * said. gems_kind.c renders them (proto/kinds/gems.md documents the JSON). */
enum gems_event {
	GEMS_EV_GAME_START = 1, /* a seats */
	GEMS_EV_ADV_USED,       /* a adventure: G10 use, for shared_fold only (hidden) */
	GEMS_EV_DUNGEON_START,  /* a dungeon 1–5, b bravery, c undiscovered gold bars */
	GEMS_EV_ROOM,           /* a depth, b room kind as met, c gem level / adventure / 0 */
	GEMS_EV_BATS,           /* a depth */
	GEMS_EV_GEMS,           /* a gems in the room, b left on the floor */
	GEMS_EV_SHARE,          /* seat: a gems into the hand */
	GEMS_EV_BAR,            /* a value, b size 1–3 */
	GEMS_EV_WARNING,        /* a message 0–4 */
	GEMS_EV_LAIR,           /* a depth */
	GEMS_EV_SCARED,         /* seat: a gems lost to the spider, b people dropped */
	GEMS_EV_DEAD_SPIDER,    /* a poisons still unused */
	GEMS_EV_POISON,         /* a poisons unused */
	GEMS_EV_ADVENTURE,      /* a adventure, b part 1–6 */
	GEMS_EV_FERRY_GRANT,    /* a toll granted to every hand inside */
	GEMS_EV_MONTE_DEAL,     /* a third card's value, b swaps (2 bits each), c count */
	GEMS_EV_SCOUT,          /* a R, b X: "the spider is at R ± X"; c the scout's depth */
	GEMS_EV_PEOPLE,         /* seat: a paid by Queens, b stolen by Changelings */
	GEMS_EV_CHOICE,         /* seat: a choice (the reveal) */
	GEMS_EV_BANK,           /* seat: a gems to the banker, b cash to the chest */
	GEMS_EV_SUNMOON,        /* a 0 the Sun pays / 1 the Moon pays, b amount */
	GEMS_EV_SUNMOON_SEAT,   /* seat: a gems won (>0) or lost (<0) */
	GEMS_EV_MONTE_REVEAL,   /* a final layout: card value + 4, 4 bits per position */
	GEMS_EV_MONTE_SEAT,     /* seat: a card 1–3, b gems won (>0) or lost (<0) */
	GEMS_EV_FERRY_PAY,      /* seat: a gems paid */
	GEMS_EV_SPHINX,         /* a path paying 2N: 0 left, 1 right; b N */
	GEMS_EV_COINS,          /* seat: a coins to the chest, b path, c left in that room */
	GEMS_EV_MUSHROOM,       /* a 1 eaters grow / 0 shrink */
	GEMS_EV_SIZE,           /* seat: a new share weight 1–16 */
	GEMS_EV_DEVIL,          /* seat: a rooms, b cash, c stays owed after this one */
	GEMS_EV_CARRY,          /* a 1 Queens / 0 Changelings, b carriers */
	GEMS_EV_LEAVE,          /* seat: a hand gems, b floor gems share, c coins share */
	GEMS_EV_LEAVE_BAR,      /* seat: a bar value */
	GEMS_EV_BRAVERY,        /* a new bravery */
	GEMS_EV_DUNGEON_END,    /* a dungeon, b gems_end, c depth */
	GEMS_EV_REVEAL_ADV,     /* a the dungeon's adventure */
	GEMS_EV_REVEAL_ROOM,    /* a list position 1.., b room kind as met, c arg (G24) */
	GEMS_EV_GAME_OVER,      /* a winning score, b deepest seat depth, c winner mask */
	GEMS_N_EVENTS
};

/* Server-wide shared state (G10, G34). */
typedef struct gems_shared {
	int32_t uses[GEMS_N_ADV];
	int64_t best_score;  /* -1: none yet */
	int32_t deepest;     /* -1: none yet */
} gems_shared;

/* AI personality (G29). */
typedef struct gems_persona {
	int32_t post_warning_delay; /* 0–3 */
	int32_t good_take;          /* N..4N+1 */
	double leave_extra;         /* 0–0.16 */
	double ev_cutoff;           /* -1.5 – -0.1 */
	double attention;           /* 0.45–0.95 */
} gems_persona;

/* Per-seat tallies behind the statistics (G36) and achievements (G35). */
typedef struct gems_tally {
	int32_t gems_looted, bars_looted, bars_sold_for, coins_looted;
	int32_t lone_leaves, banker_profit, bank_cash, devil_cash, monte_losses;
	int32_t sun, moon, lava, reports, mushrooms, devil_deals, people_helped;
	int32_t spiders_killed, scared, spider_stolen, psychic_leaves;
	int32_t min_depth, max_depth; /* -1 before the first dungeon ends */
} gems_tally;

typedef struct gems_seat {
	int32_t hand, chest, bars;
	uint8_t inside, size, owed, path; /* size 0–4 (weight 1<<size); path: Sphinx */
	uint8_t queens, changelings, coin_mask;
	uint8_t queen_bits; /* bit k: the k-th person carried is a Queen (G22; ≤ 6 a dungeon) */
	int32_t depth; /* rooms entered in this dungeon */
	gems_tally t;
	gems_persona ai;
} gems_seat;

/* Where every gem went (the conservation ledger the property tests check). */
typedef struct gems_ledger {
	int64_t found, granted; /* from gem rooms; from the supply (G4) */
	int64_t spider, banker, monte, moon, changeling, ferryman;
	int64_t floor_lost; /* left on the floor when a dungeon ended */
} gems_ledger;

enum gems_phase { GEMS_PH_DECIDE, GEMS_PH_COIN, GEMS_PH_OVER };

typedef struct gems_game {
	rng rules, ai;      /* ai: only the personalities at init (gems_ai_choose) */
	uint64_t seed;      /* the game's seed: each AI decision derives its rng */
	uint32_t decisions; /* successful gems_apply calls: the decision number */
	uint32_t pad3;
	int32_t seats, phase, dungeon; /* dungeon 0–4 */
	int32_t bars_undiscovered;
	uint8_t adv[GEMS_DUNGEONS]; /* the adventure of each dungeon */
	uint8_t adv_known;          /* the current dungeon's adventure was met or revealed */
	uint8_t adv_used;           /* bit d: dungeon d emitted GEMS_EV_ADV_USED (G10) */
	uint8_t people_carried;     /* someone carried people in this dungeon (G22) */
	uint8_t pad0;

	/* the current dungeon */
	gems_room rooms[GEMS_MAX_ROOMS];
	int32_t n_rooms, cur, lair_at; /* cur: index of the current room; lair_at -1: none */
	int32_t depth, bravery, adv_met, warnings_met, poisons_unused;
	uint32_t types_seen;         /* warning types met */
	int32_t first_warning_depth; /* 0: none yet */
	int32_t rumor_leave2;        /* AI RumorLeave × 2 (G30); INT32_MAX: none */
	int32_t floor_gems, n_floor_bars;
	int32_t floor_bars[GEMS_MAX_FLOOR_BARS];
	int32_t coin_rem[GEMS_COIN_ROOMS];
	int32_t sphinx_met;
	int32_t monte_third, monte_swaps, monte_layout[3]; /* layout: value at position */
	int32_t scout_r, scout_x;
	int32_t sphinx_double; /* the path paying 2N once revealed, else -1 */
	uint32_t pending;
	uint8_t met_value[GEMS_MAX_ROOMS]; /* gems, bar value or warning message met */

	/* the multiset of unseen rooms (all the odds may depend on) */
	uint16_t unseen_levels; /* bit L: the gem room of level L */
	uint8_t unseen_bars, unseen_adv;
	uint8_t unseen_warn[5]; /* by warning type; dead spiders excluded (G25) */
	uint8_t pad2[3];

	/* odds of the current decision (G25–G28), computed once per decision */
	double odds, rumor, floor_value, inv_sqrt_inside;
	double ev_base; /* (1 − odds)·rumor / inside */
	int32_t inside;
	int32_t inv_sqrt_of;      /* cache: the inside count inv_sqrt_inside is of (0: none) */
	int32_t gem_sum_bravery;  /* cache: Σ gems of the unseen gem rooms at this bravery */
	uint32_t gem_sum_levels;  /* ... and these levels (0xffffffff: none cached) */
	int32_t gem_sum;

	/* history */
	int32_t dungeon_depth[GEMS_DUNGEONS];
	uint8_t dungeon_end[GEMS_DUNGEONS];
	uint8_t pad1[3];
	int32_t spiders_killed, lairs;
	int64_t record_score, record_depth; /* server records before this game (-1 none) */
	int32_t win_score, deepest;
	uint32_t winners;

	gems_ledger ledger;
	gems_seat seat[GAME_MAX_SEATS];
} gems_game;

/* Options for gems_init. NULL: defaults. */
typedef struct gems_opts {
	bool fixed_adventures; /* use adv[] as the five dungeons' adventures */
	uint8_t adv[GEMS_DUNGEONS];
} gems_opts;

/* Fills *g (caller-owned) and runs to the first decision. shared may be NULL
 * (a fresh server). Returns GAME_OK or GAME_ERR_CONFIG. */
int gems_init(gems_game *g, int seats, uint64_t seed, const gems_shared *shared,
	      const gems_opts *opts, game_events *out);

/* Bit i: seat i must choose now. */
static inline uint32_t gems_pending(const gems_game *g) { return g->pending; }
static inline bool gems_over(const gems_game *g) { return g->phase == GEMS_PH_OVER; }

/* The legal choices of a seat now as a bit mask over gems_choice (0: none). */
uint32_t gems_options_mask(const gems_game *g, int seat);

/* Validates choices[seat] for every seat (GAME_NO_CHOICE for those not
 * pending); on error changes nothing and returns a GAME_ERR_* code with a
 * message. Otherwise resolves the decision and runs to the next one. */
int gems_apply(gems_game *g, const game_choice *choices, game_events *out, char *err,
	       size_t errlen);

/* The AI's choice for a pending seat (G29–G32). A pure function of the state:
 * its random draws come from a generator derived from (g->seed, g->decisions,
 * seat), never from a running stream, so replaying a game's logged choices
 * without asking the AI reproduces every later AI choice. */
game_choice gems_ai_choose(const gems_game *g, int seat);

/* Plays the whole game with the AI in every seat. */
void gems_play_ai(gems_game *g, game_events *out);

/* Once over: scores (chests) and the winner mask (G33). */
int64_t gems_score(const gems_game *g, int seat);

/* Names */
const char *gems_adv_key(int adv);       /* "banker" ... */
const char *gems_adv_label(int adv);     /* "Gems for Cash Banker" ... */
int gems_adv_parse(const char *key);     /* -1 if unknown */
const char *gems_choice_key(int choice); /* "leave" ... */
int gems_choice_parse_key(const char *key);
const char *gems_warning_text(int k);    /* the k-th distinct warning's message */
const char *gems_event_key(int type);

/* Shared state (G10, G34): pure folding of emitted events. */
void gems_shared_init(gems_shared *sh);
void gems_shared_fold(gems_shared *sh, const game_event *evs, size_t n);
/* Folds what a finished game's events would fold, without the events (the
 * simulator's fast path): the same result as gems_shared_fold over them. */
void gems_shared_fold_game(gems_shared *sh, const gems_game *g);

/* Statistics (G36) and achievements (G34, G35). */
enum gems_stat {
	GEMS_ST_GAMES_PLAYED,
	GEMS_ST_PLAYERS,
	GEMS_ST_GEMS_LOOTED,
	GEMS_ST_BARS_LOOTED,
	GEMS_ST_BARS_SOLD_FOR,
	GEMS_ST_COINS_LOOTED,
	GEMS_ST_LONE_LEAVERS,
	GEMS_ST_BANKER_PROFIT,
	GEMS_ST_MONTE_LOSSES,
	GEMS_ST_SUN,
	GEMS_ST_MOON,
	GEMS_ST_LAVA,
	GEMS_ST_REPORTS,
	GEMS_ST_MUSHROOMS,
	GEMS_ST_DEVIL_DEALS,
	GEMS_ST_PEOPLE_HELPED,
	GEMS_ST_SPIDERS_KILLED,
	GEMS_ST_MIN_DEPTH,
	GEMS_ST_MAX_DEPTH,
	GEMS_ST_LAIRS,
	GEMS_ST_SPIDER_STOLEN,
	GEMS_ST_PSYCHICS,
	GEMS_ST_GAMES_WITH_AIS,
	GEMS_ST_GAMES_WON_BY_AIS,
	GEMS_ST_HIGHEST_WIN,
	GEMS_ST_WIN_TOTAL,
	GEMS_ST_GAMES_WON,
	GEMS_ST_LOWEST_WIN,
	GEMS_N_STATS
};
extern const game_stat_def gems_stat_defs[GEMS_N_STATS];
void gems_stats(const gems_game *g, int seat, uint32_t ai_mask, int64_t *values);

enum gems_achievement {
	GEMS_ACH_HIGHEST_SCORE,
	GEMS_ACH_DEEPEST,
	GEMS_ACH_MOST_LOST,
	GEMS_ACH_BOLD,
	GEMS_ACH_TIMID,
	GEMS_ACH_PSYCHIC,
	GEMS_ACH_SKYNET,
	GEMS_N_ACH
};
extern const game_achievement_def gems_achievement_defs[GEMS_N_ACH];
uint32_t gems_achievements(const gems_game *g, int seat, uint32_t ai_mask);

extern const game_kind gems_kind;

#endif
