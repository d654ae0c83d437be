/*
 * fuzz_game.c — the game-engine fuzz target (fuzz.h): any bytes become a
 * seeded game of one of the built-in kinds, played through the game_kind
 * vtable (server/games/game.h) with choice sets that may be legal or not,
 * while the kind's contract is checked at every step.
 *
 * Byte layout (past the end every byte reads as 0):
 *   kind     1 byte   index into the registry (modulo the count)
 *   seats    1 byte   0x00-0xEF: within the kind's min..max;
 *                     0xF0-0xFF: a value outside it (create must refuse)
 *   seed     8 bytes  big-endian
 *   config   1 byte   low 3 bits: how many tweaks of the default config
 *                     JSON follow (4 bytes each: key, op, value16);
 *                     bit 3: a tweaked shared state too (same tweaks);
 *                     bit 4: once the bytes run out, the AI plays on;
 *                     bit 5: start from the kind's small config
 *                     (fuzz_small_config: crawl on a small level with a
 *                     low round cap), tweaks on top
 *   playout  1 byte   only with bit 4: 0x00-0xFE, at most byte/4 AI
 *                     decisions (enough to end a gems or deepfall game);
 *                     0xFF, to the game's end, which the AI must reach
 *   then, per decision:
 *     op     1 byte   bit 7: give a non-pending seat a choice;
 *                     bit 6: parse a mutated JSON choice first (4 bytes);
 *                     bits 0-3: which seat is affected by bit 7
 *     pick   1 byte per seat: 0x00-0xBF an option (index modulo the
 *            count), 0xC0-0xDF the AI's choice, 0xE0-0xEF no choice,
 *            0xF0-0xFF a raw 16-bit code from the next two bytes
 *
 * Invariants (game.h): pending() and options() agree, and pending() is 0
 * exactly when the game is over; every option's choice_json parses back to
 * itself; the AI picks a legal option; views, options, events, results and
 * configs are valid JSON; apply() accepts a set exactly when it is legal,
 * and an illegal set changes nothing (every seat's view, options, pending,
 * no event); an ended game refuses everything; replaying the log from
 * (kind, config, seats, seed, shared) — what crash recovery does —
 * reproduces the game's views and events exactly; shared state and config
 * survive their JSON round trip.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "../../server/games/game.h"
#include "../../server/table.h"

#define MAX_DECISIONS 300   /* sets an input's bytes may make */
#define PLAYOUT_TO_END 0xFF /* the playout byte that plays to the end */
#define PLAYOUT_MAX 20000   /* decisions an AI-only game may take to end */
#define MAX_OPTS_CHECKED 4 /* options per seat whose JSON round trip is checked */

typedef struct game_run {
	const game_kind *k;
	int seats;
	game_state *st;
	game_events evs;   /* every event since creation, in order */
	game_choice *log;  /* applied sets, seats each */
	size_t n_log, cap_log;
	game_choice *opts; /* scratch for options() */
	int cap_opts;
	cJSON **seen;      /* per viewer (index v + 1): what look() gave at */
	size_t *seen_at;   /* this many decisions into the game (n_log + 1) */
} game_run;

/* ---- JSON tweaks: configs and shared states -------------------------------- */

static const char *const str_pool[] = {
	"", "balanced", "cashout", "presson", "worthyend", "nope", "leave", "stay",
};

/* Every object key of a tree goes into the pool of strings the tweaks use
 * (gems' shared state names all its adventures, for instance). */
static void collect_keys(const cJSON *j, const char **pool, int *n, int max)
{
	for (const cJSON *c = j ? j->child : NULL; c; c = c->next) {
		if (c->string && *n < max)
			pool[(*n)++] = c->string;
		collect_keys(c, pool, n, max);
	}
}

/* A value for a tweak from op and v. */
static cJSON *tweak_value(uint8_t op, uint16_t v, const char **pool, int npool)
{
	switch (op % 8) {
	case 0:
		return cJSON_CreateNumber((double)(v % 530) - 10); /* around the knob ranges */
	case 1:
		return cJSON_CreateNumber((double)v / 1000.0);
	case 2: {
		static const double far[] = {-1, 1e9, -1e9, 1e300, -0.5, 0.0004, 2147483648.0,
					     -2147483649.0, 4294967296.0, 1e-300};
		return cJSON_CreateNumber(far[v % ARRAY_LEN(far)]);
	}
	case 3:
		return cJSON_CreateNull();
	case 4:
		return cJSON_CreateString(pool[v % npool]);
	case 5:
		return v & 1 ? cJSON_CreateTrue() : cJSON_CreateFalse();
	case 6:
		return cJSON_CreateObject();
	default:
		return cJSON_CreateArray();
	}
}

/* v as an object member named key (copied). */
static cJSON *with_key(cJSON *v, const char *key)
{
	if (key)
		v->string = xstrdup(key);
	return v;
}

/* One tweak of j (an object): key byte picks a member (or a new key past
 * the last), op what to do, v the value. */
static void tweak(cJSON *j, uint8_t key, uint8_t op, uint16_t v, const char **pool, int npool)
{
	int n = cJSON_GetArraySize(j);
	if (n == 0 || key % (n + 1) == n) {
		char name[16];
		snprintf(name, sizeof name, "k%u", (unsigned)(v % 4));
		cJSON_AddItemToObject(j, (op & 1) ? name : pool[v % npool],
				      tweak_value(op >> 1, v, pool, npool));
		return;
	}
	cJSON *it = cJSON_GetArrayItem(j, key % (n + 1));
	if (op >> 4 == 1) { /* delete the member */
		cJSON_DeleteItemFromArray(j, key % (n + 1));
		return;
	}
	if (cJSON_IsArray(it) && cJSON_GetArraySize(it) > 0 && op >> 4 >= 2) {
		int m = cJSON_GetArraySize(it), a = v % m, b = (v >> 8) % m;
		switch (op >> 4 & 3) {
		case 2: { /* swap two elements (a permutation stays valid) */
			cJSON *x = cJSON_Duplicate(cJSON_GetArrayItem(it, a), true);
			cJSON *y = cJSON_Duplicate(cJSON_GetArrayItem(it, b), true);
			cJSON_ReplaceItemInArray(it, a, y);
			cJSON_ReplaceItemInArray(it, b, x);
			return;
		}
		case 3: /* one element replaced */
			cJSON_ReplaceItemInArray(it, a, tweak_value(op, v, pool, npool));
			return;
		default: /* drop one element */
			cJSON_DeleteItemFromArray(it, a);
			return;
		}
	}
	if (cJSON_IsObject(it) && op >> 4 >= 2) {
		tweak(it, (uint8_t)(v >> 8), op, v, pool, npool);
		return;
	}
	cJSON_ReplaceItemViaPointer(j, it, with_key(tweak_value(op, v, pool, npool), it->string));
}

/* Through text and back: what a client could have sent (every member has
 * a key, no NaN). */
static cJSON *as_wire(cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);
	cJSON *back = cJSON_Parse(s);
	FUZZ_CHECK(back, "cJSON cannot parse its own output: %.200s", s);
	free(s);
	cJSON_Delete(j);
	return back;
}

/* ---- checks ---------------------------------------------------------------- */

static int get_options(game_run *r, int seat)
{
	int n = r->k->options(r->st, seat, r->opts, r->cap_opts);
	FUZZ_CHECK(n >= 0, "options(seat %d) returned %d", seat, n);
	if (n > r->cap_opts) {
		r->cap_opts = n;
		r->opts = xrealloc(r->opts, (size_t)n * sizeof *r->opts);
		int again = r->k->options(r->st, seat, r->opts, r->cap_opts);
		FUZZ_CHECK(again == n, "options(seat %d) changed between calls", seat);
	}
	return n;
}

static bool in_options(const game_choice *opts, int n, game_choice c)
{
	for (int i = 0; i < n; i++)
		if (opts[i] == c)
			return true;
	return false;
}

/* What viewer v (-1: the spectator) may see and, for a seat, its options:
 * an illegal apply must leave it exactly the same. */
static cJSON *look(const game_run *r, int v)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "pending", r->k->pending(r->st));
	cJSON_AddBoolToObject(o, "over", r->k->is_over(r->st));
	cJSON_AddItemToObject(o, "view", r->k->view(r->st, v));
	if (v >= 0) {
		cJSON *opts = r->k->options_json(r->st, v);
		FUZZ_CHECK(cJSON_IsArray(opts), "options_json(seat %d) is not an array", v);
		cJSON_AddItemToObject(o, "options", opts);
	}
	return o;
}

/* look(r, v) of the game as it is now, taken once per decision (only a
 * legal set changes the game; that an illegal one does not is checked)
 * and checked to be a tree JSON text can carry. The views are printed and
 * read back in full at the end (check_replay). */
static const cJSON *seen(game_run *r, int v)
{
	if (r->seen_at[v + 1] != r->n_log + 1) {
		cJSON_Delete(r->seen[v + 1]);
		r->seen[v + 1] = look(r, v);
		fuzz_json_check(r->seen[v + 1], "view and options");
		r->seen_at[v + 1] = r->n_log + 1;
	}
	return r->seen[v + 1];
}

/* Events: seats in range; rendered for the spectator and one seat (in
 * turn, so that every seat's rendering is covered over a game) they are
 * valid JSON or NULL (hidden). */
static void check_events(const game_run *r, size_t from)
{
	int seat = (int)(r->n_log % (size_t)r->seats);
	for (size_t i = from; i < r->evs.len; i++) {
		const game_event *e = &r->evs.v[i];
		FUZZ_CHECK(e->seat >= -1 && e->seat < r->seats, "event %u has seat %d of %d",
			   e->type, e->seat, r->seats);
		for (int v = -1; v < r->seats; v = v < seat ? seat : r->seats) {
			cJSON *j = r->k->event_json(r->st, e, v);
			if (!j)
				continue;
			fuzz_json_check(j, "event_json");
			cJSON_Delete(j);
		}
	}
}

/* pending() and options() agree; every option's JSON parses back to it; a
 * seat not asked gets no options and cannot choose. */
static void check_decision(game_run *r)
{
	uint32_t p = r->k->pending(r->st);
	bool over = r->k->is_over(r->st);
	FUZZ_CHECK((p == 0) == over, "pending %#x but is_over %d", p, over);
	FUZZ_CHECK(p >> r->seats == 0, "pending %#x names seats past %d", p, r->seats);
	char err[256];
	for (int s = 0; s < r->seats; s++) {
		int n = get_options(r, s);
		FUZZ_CHECK((n > 0) == (bool)(p >> s & 1), "seat %d: pending %d but %d options", s,
			   (int)(p >> s & 1), n);
		if (n == 0) {
			cJSON *o = r->k->options_json(r->st, s);
			FUZZ_CHECK(cJSON_GetArraySize(o) == 0, "seat %d: no options but options_json "
				   "lists some", s);
			cJSON_Delete(o);
			cJSON *any = cJSON_CreateString("stay");
			game_choice c = 12345;
			err[0] = 0;
			int rc = r->k->choice_parse(r->st, s, any, &c, err, sizeof err);
			FUZZ_CHECK(rc != GAME_OK && err[0], "seat %d not pending: choice_parse gave "
				   "%d (%s)", s, rc, err);
			FUZZ_CHECK(c == 12345, "a refused choice_parse wrote its out parameter");
			cJSON_Delete(any);
			continue;
		}
		/* A few options each time, a different few at each decision. */
		int stride = n > MAX_OPTS_CHECKED ? n / MAX_OPTS_CHECKED + 1 : 1;
		for (int i = (int)(r->n_log % (size_t)stride); i < n; i += stride) {
			for (int j = 0; j < i; j++)
				FUZZ_CHECK(r->opts[j] != r->opts[i], "seat %d: option %d twice", s,
					   r->opts[i]);
			cJSON *cj = r->k->choice_json(r->st, s, r->opts[i]);
			fuzz_json_check(cj, "choice_json");
			game_choice back = GAME_NO_CHOICE;
			err[0] = 0;
			int rc = r->k->choice_parse(r->st, s, cj, &back, err, sizeof err);
			FUZZ_CHECK(rc == GAME_OK && back == r->opts[i],
				   "seat %d: option %d's JSON parses to %d, rc %d (%s)", s,
				   r->opts[i], back, rc, err);
			cJSON_Delete(cj);
		}
	}
}

/* A client's JSON choice made by mutating a legal one: choice_parse
 * either refuses it (with a message, out untouched) or returns an option. */
static void fuzz_choice_parse(game_run *r, fuzz_in *in)
{
	uint8_t seat_b = fuzz_u8(in), op = fuzz_u8(in);
	uint16_t v = fuzz_u16(in);
	int seat = seat_b % (r->seats + 3) - 1; /* -1 .. seats+1 */
	uint32_t p = r->k->pending(r->st);
	int base_seat = seat >= 0 && seat < r->seats && (p >> seat & 1) ? seat : 0;
	cJSON *j;
	int n = get_options(r, base_seat);
	if (n > 0)
		j = r->k->choice_json(r->st, base_seat, r->opts[v % n]);
	else
		j = cJSON_CreateObject();
	const char *pool[] = {"target", "press", "recruit", "exit", "id", "leave", "stay",
			      "cash_out", "last_stand", "persist"};
	if (cJSON_IsObject(j)) {
		if (op & 0x80)
			tweak(j, (uint8_t)(v >> 8), op, v, pool, (int)ARRAY_LEN(pool));
	} else if (op & 0x80) {
		cJSON *w = tweak_value(op, v, pool, (int)ARRAY_LEN(pool));
		if (op & 0x40) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddItemToObject(o, "id", w);
			w = o;
		}
		cJSON_Delete(j);
		j = w;
	}
	j = as_wire(j);
	game_choice c = 12345;
	char err[256] = "";
	int rc = r->k->choice_parse(r->st, seat, j, &c, err, sizeof err);
	if (rc == GAME_OK) {
		FUZZ_CHECK(seat >= 0 && seat < r->seats && (p >> seat & 1),
			   "choice_parse accepted a choice for seat %d (pending %#x)", seat, p);
		int m = get_options(r, seat);
		FUZZ_CHECK(in_options(r->opts, m, c), "choice_parse gave %d, not an option", c);
	} else {
		FUZZ_CHECK(rc > 0 && err[0], "choice_parse refused with rc %d and message '%s'",
			   rc, err);
		FUZZ_CHECK(c == 12345, "a refused choice_parse wrote its out parameter");
	}
	cJSON_Delete(j);
}

/* Every seat's pick for one decision; returns whether the set is legal. */
static bool make_set(game_run *r, fuzz_in *in, uint8_t op, game_choice *set)
{
	uint32_t p = r->k->pending(r->st);
	bool legal = true;
	for (int s = 0; s < r->seats; s++) {
		set[s] = GAME_NO_CHOICE;
		bool asked = p >> s & 1;
		bool extra = (op & 0x80) && (op & 0x0f) % r->seats == s;
		if (!asked && !extra)
			continue;
		int n = get_options(r, s);
		uint8_t pick = fuzz_u8(in);
		if (!asked)
			set[s] = pick < 0xF0 ? pick % 24 : (int16_t)fuzz_u16(in);
		else if (pick < 0xC0)
			set[s] = r->opts[pick % n];
		else if (pick < 0xE0)
			set[s] = r->k->ai_choose(r->st, s);
		else if (pick < 0xF0)
			set[s] = GAME_NO_CHOICE;
		else
			set[s] = (int16_t)fuzz_u16(in);
		if (asked)
			legal = legal && in_options(r->opts, n, set[s]);
		else
			legal = legal && set[s] == GAME_NO_CHOICE;
	}
	return legal;
}

static void log_append(game_run *r, const game_choice *set)
{
	if (r->n_log == r->cap_log) {
		r->cap_log = r->cap_log ? r->cap_log * 2 : 16;
		r->log = xrealloc(r->log, r->cap_log * (size_t)r->seats * sizeof *r->log);
	}
	memcpy(&r->log[r->n_log * (size_t)r->seats], set, (size_t)r->seats * sizeof *set);
	r->n_log++;
}

/* The viewer (-1: the spectator) looked at in this decision: each in turn
 * over a game. */
static int viewer_now(const game_run *r)
{
	return (int)(r->n_log % (size_t)(r->seats + 1)) - 1;
}

/* Applies a set; checks that legality decides acceptance and that a
 * refused set changed nothing. Returns the kind's code. */
static int apply_checked(game_run *r, const game_choice *set, bool legal)
{
	/* One viewer per decision, in turn (what a refused set must leave as
	 * it was: seen() has it from the decision's start): the replay at the
	 * end compares everything, hidden state included, once the log has
	 * played out. */
	int who = viewer_now(r);
	const cJSON *before = legal ? NULL : seen(r, who);
	size_t n_ev = r->evs.len;
	char err[256] = "";
	int rc = r->k->apply(r->st, set, &r->evs, err, sizeof err);
	if (legal) {
		FUZZ_CHECK(rc == GAME_OK, "a legal set was refused: %d (%s)", rc, err);
		log_append(r, set);
		check_events(r, n_ev);
		return rc;
	}
	FUZZ_CHECK(rc != GAME_OK, "an illegal set was applied (seat 0 chose %d)", set[0]);
	FUZZ_CHECK(rc >= GAME_ERR_CONFIG && rc <= GAME_ERR_OVER && err[0],
		   "refused with code %d and message '%s'", rc, err);
	FUZZ_CHECK(r->evs.len == n_ev, "a refused set emitted %zu events", r->evs.len - n_ev);
	cJSON *after = look(r, who);
	fuzz_json_same(before, after, NULL, "the game after a refused set");
	cJSON_Delete(after);
	return rc;
}

/* Once over: results are sane and consistent, and the game refuses more. */
static void check_over(game_run *r, fuzz_in *in)
{
	const game_kind *k = r->k;
	int64_t scores[GAME_MAX_SEATS];
	uint32_t winners = 0;
	k->result(r->st, scores, &winners);
	FUZZ_CHECK(winners >> r->seats == 0, "winners %#x past %d seats", winners, r->seats);
	uint32_t ai_mask = fuzz_u8(in) & ((1u << r->seats) - 1);
	cJSON *res = k->result_json(r->st, ai_mask);
	free(fuzz_json_text(res, "result_json"));
	cJSON_Delete(res);
	int64_t *vals = xcalloc((size_t)k->n_stats + 1, sizeof *vals);
	for (int s = -1; s < r->seats; s++) {
		k->stats(r->st, s, ai_mask, vals);
		if (s >= 0) {
			uint32_t a = k->achievements(r->st, s, ai_mask);
			FUZZ_CHECK(k->n_achievements >= 32 || a >> k->n_achievements == 0,
				   "achievements %#x past %d", a, k->n_achievements);
		}
	}
	free(vals);
	for (int s = 0; s < r->seats; s++)
		FUZZ_CHECK(get_options(r, s) == 0, "seat %d has options after the end", s);
	game_choice set[GAME_MAX_SEATS];
	for (int s = 0; s < r->seats; s++)
		set[s] = (fuzz_u8(in) & 1) ? 0 : GAME_NO_CHOICE;
	FUZZ_CHECK(apply_checked(r, set, false) != GAME_OK, "applied after the end");
}

/* Crash recovery: the log replayed from the record's parts reproduces the
 * game (every view, pending, events). */
static void check_replay(game_run *r, const cJSON *config_json, const cJSON *shared_json,
			 uint64_t seed)
{
	/* The log through its JSON form, as the store keeps it. */
	cJSON *lj = cJSON_CreateArray();
	for (size_t i = 0; i < r->n_log; i++) {
		cJSON *set = cJSON_CreateArray();
		for (int s = 0; s < r->seats; s++)
			cJSON_AddItemToArray(set, cJSON_CreateNumber(r->log[i * r->seats + s]));
		cJSON_AddItemToArray(lj, set);
	}
	game_choice *log = NULL;
	size_t n = 0;
	char err[256] = "";
	int rc = table_log_parse(lj, r->seats, &log, &n, err, sizeof err);
	FUZZ_CHECK(rc == 0 && n == r->n_log, "table_log_parse: %d (%s)", rc, err);
	FUZZ_CHECK(n == 0 || memcmp(log, r->log, n * (size_t)r->seats * sizeof *log) == 0,
		   "table_log_parse changed the log");
	cJSON_Delete(lj);

	game_events evs = {0};
	game_state *st = table_replay(r->k, config_json, r->seats, seed, shared_json, log, n,
				      &evs, err, sizeof err);
	FUZZ_CHECK(st, "replay of %zu decisions failed: %s", n, err);
	FUZZ_CHECK(evs.len == r->evs.len &&
		   (evs.len == 0 || memcmp(evs.v, r->evs.v, evs.len * sizeof *evs.v) == 0),
		   "replay emitted other events (%zu vs %zu)", evs.len, r->evs.len);
	game_run rr = *r;
	rr.st = st;
	for (int v = -1; v < r->seats; v++) {
		cJSON *a = look(r, v), *b = look(&rr, v);
		free(fuzz_json_text(a, "view and options")); /* printed and read back */
		fuzz_json_same(a, b, NULL, "the game replayed from its log");
		cJSON_Delete(a);
		cJSON_Delete(b);
	}
	r->k->destroy(st);
	game_events_free(&evs);
	free(log);
}

/* ---- the target ------------------------------------------------------------ */

/* The default config, or the kind's small one (small), with ntweaks
 * tweaks; NULL when the kind refuses the result. */
static void *make_config(const game_kind *k, fuzz_in *in, uint8_t ntweaks, bool small,
			 const char **pool, int npool, cJSON **json_out)
{
	char err[256] = "";
	void *cfg = k->config_new(NULL, err, sizeof err);
	FUZZ_CHECK(cfg, "%s: the default config is refused: %s", k->name, err);
	cJSON *j = k->config_json(cfg);
	free(fuzz_json_text(j, "config_json"));
	cJSON *smaller = small ? fuzz_small_config(k) : NULL;
	if (ntweaks == 0 && !smaller) {
		*json_out = j;
		return cfg;
	}
	k->config_free(cfg);
	for (cJSON *m = smaller ? smaller->child : NULL; m; m = m->next)
		cJSON_ReplaceItemInObjectCaseSensitive(j, m->string, cJSON_Duplicate(m, true));
	cJSON_Delete(smaller);
	for (int i = 0; i < ntweaks; i++) {
		uint8_t key = fuzz_u8(in), op = fuzz_u8(in);
		tweak(j, key, op, fuzz_u16(in), pool, npool);
	}
	j = as_wire(j);
	err[0] = 0;
	cfg = k->config_new(j, err, sizeof err);
	cJSON_Delete(j);
	if (!cfg) {
		FUZZ_CHECK(err[0], "%s: config refused without a message", k->name);
		*json_out = NULL;
		return NULL;
	}
	/* The full config round-trips (it is what records keep). */
	j = k->config_json(cfg);
	void *again = k->config_new(j, err, sizeof err);
	FUZZ_CHECK(again, "%s: its own config_json is refused: %s", k->name, err);
	cJSON *j2 = k->config_json(again);
	FUZZ_CHECK(cJSON_Compare(j, j2, true), "%s: config_json does not round-trip", k->name);
	cJSON_Delete(j2);
	k->config_free(again);
	*json_out = j;
	return cfg;
}

static void *make_shared(const game_kind *k, fuzz_in *in, uint8_t ntweaks, const char **pool,
			 int npool, cJSON **json_out)
{
	char err[256] = "";
	*json_out = NULL;
	if (!k->shared_new)
		return NULL;
	void *sh = k->shared_new(NULL, err, sizeof err);
	FUZZ_CHECK(sh, "%s: fresh shared state refused: %s", k->name, err);
	cJSON *j = k->shared_json(sh);
	free(fuzz_json_text(j, "shared_json"));
	k->shared_free(sh);
	for (int i = 0; i < ntweaks; i++) {
		uint8_t key = fuzz_u8(in), op = fuzz_u8(in);
		tweak(j, key, op, fuzz_u16(in), pool, npool);
	}
	j = as_wire(j);
	sh = k->shared_new(j, err, sizeof err);
	cJSON_Delete(j);
	if (!sh) {
		FUZZ_CHECK(err[0], "%s: shared state refused without a message", k->name);
		sh = k->shared_new(NULL, err, sizeof err);
	}
	j = k->shared_json(sh);
	void *again = k->shared_new(j, err, sizeof err);
	FUZZ_CHECK(again, "%s: its own shared_json is refused: %s", k->name, err);
	cJSON *j2 = k->shared_json(again);
	FUZZ_CHECK(cJSON_Compare(j, j2, true), "%s: shared_json does not round-trip", k->name);
	cJSON_Delete(j2);
	k->shared_free(again);
	*json_out = j;
	return sh;
}

int fuzz_game_one(const uint8_t *data, size_t size)
{
	fuzz_in in = {data, size};
	int nk = game_kind_count();
	if (nk <= 0)
		return 0;
	const game_kind *k = game_kind_at(fuzz_u8(&in) % nk);
	uint8_t sb = fuzz_u8(&in);
	int seats;
	if (sb < 0xF0) {
		seats = k->min_seats + sb % (k->max_seats - k->min_seats + 1);
	} else {
		static const int bad[] = {-1, 0, 10, 32, -2147483647, 64, 1000, 33};
		seats = bad[sb % ARRAY_LEN(bad)];
		if (seats >= k->min_seats && seats <= k->max_seats)
			seats = k->max_seats + 1;
	}
	uint64_t seed = fuzz_u64(&in);
	uint8_t cb = fuzz_u8(&in);
	uint8_t playout = (cb & 0x10) ? fuzz_u8(&in) : 0;

	const char *pool[64];
	int npool = 0;
	for (size_t i = 0; i < ARRAY_LEN(str_pool); i++)
		pool[npool++] = str_pool[i];
	cJSON *fresh_shared = NULL;
	if (k->shared_new) {
		char e[128];
		void *sh = k->shared_new(NULL, e, sizeof e);
		fresh_shared = sh ? k->shared_json(sh) : NULL;
		if (sh)
			k->shared_free(sh);
		collect_keys(fresh_shared, pool, &npool, (int)ARRAY_LEN(pool));
	}

	cJSON *config_json = NULL, *shared_json = NULL;
	void *cfg = make_config(k, &in, cb & 7, cb & 0x20, pool, npool, &config_json);
	if (!cfg) {
		cJSON_Delete(fresh_shared);
		return 0;
	}
	void *shared = make_shared(k, &in, (cb & 8) ? cb & 7 : 0, pool, npool, &shared_json);

	game_run r = {.k = k, .seats = seats};
	char err[256] = "";
	r.st = k->create(cfg, seats, seed, shared, &r.evs, err, sizeof err);
	if (seats < k->min_seats || seats > k->max_seats) {
		FUZZ_CHECK(!r.st && err[0], "%s: create with %d seats: %p (%s)", k->name, seats,
			   (void *)r.st, err);
		goto out;
	}
	FUZZ_CHECK(r.st, "%s: create with %d seats failed: %s", k->name, seats, err);
	r.cap_opts = 64;
	r.opts = xmalloc((size_t)r.cap_opts * sizeof *r.opts);
	r.seen = xcalloc((size_t)seats + 1, sizeof *r.seen);
	r.seen_at = xcalloc((size_t)seats + 1, sizeof *r.seen_at);
	check_events(&r, 0);
	check_decision(&r);
	for (int v = -1; v < seats; v++)
		seen(&r, v);

	for (int d = 0; d < MAX_DECISIONS && fuzz_left(&in) && !k->is_over(r.st); d++) {
		uint8_t op = fuzz_u8(&in);
		if (op & 0x40)
			fuzz_choice_parse(&r, &in);
		game_choice set[GAME_MAX_SEATS];
		bool legal = make_set(&r, &in, op, set);
		apply_checked(&r, set, legal);
		check_decision(&r);
		if (legal) /* views are valid JSON: one viewer each time, in turn */
			seen(&r, viewer_now(&r));
	}
	if ((cb & 0x10) && !k->is_over(r.st)) {
		/* The AI plays on, a few dozen decisions at most unless the
		 * input asks for the end (a crawl game's is hundreds away),
		 * which the AI alone must then reach. */
		int most = playout == PLAYOUT_TO_END ? PLAYOUT_MAX : playout / 4;
		for (int d = 0; d < most && !k->is_over(r.st); d++) {
			game_choice set[GAME_MAX_SEATS];
			uint32_t p = k->pending(r.st);
			for (int s = 0; s < seats; s++)
				set[s] = p >> s & 1 ? k->ai_choose(r.st, s) : GAME_NO_CHOICE;
			size_t n_ev = r.evs.len;
			int rc = k->apply(r.st, set, &r.evs, err, sizeof err);
			FUZZ_CHECK(rc == GAME_OK, "%s: an AI set was refused: %s", k->name, err);
			log_append(&r, set);
			check_events(&r, n_ev);
		}
		FUZZ_CHECK(playout != PLAYOUT_TO_END || k->is_over(r.st),
			   "%s: not over after %d AI decisions", k->name, PLAYOUT_MAX);
		check_decision(&r);
	}
	if (k->is_over(r.st))
		check_over(&r, &in);
	check_replay(&r, config_json, shared_json, seed);

	if (shared) {
		/* What the server folds in and persists stays valid. */
		k->shared_fold(shared, r.evs.v, r.evs.len);
		cJSON *j = k->shared_json(shared);
		free(fuzz_json_text(j, "shared_json after the game"));
		void *again = k->shared_new(j, err, sizeof err);
		FUZZ_CHECK(again, "%s: folded shared state refused: %s", k->name, err);
		k->shared_free(again);
		cJSON_Delete(j);
	}
	k->destroy(r.st);
out:
	for (int v = 0; r.seen && v <= seats; v++)
		cJSON_Delete(r.seen[v]);
	free(r.seen);
	free(r.seen_at);
	free(r.opts);
	free(r.log);
	game_events_free(&r.evs);
	if (shared)
		k->shared_free(shared);
	k->config_free(cfg);
	cJSON_Delete(config_json);
	cJSON_Delete(shared_json);
	cJSON_Delete(fresh_shared);
	return 0;
}

FUZZ_ENTRY(fuzz_game_one)
