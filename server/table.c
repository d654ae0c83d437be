/*
 * table.c — a table's seats, spectators and life: create and free, join,
 * watch, leave, AI seats, start, rematch, connection changes, the snapshot
 * and lobby summary, and the accessors. The round itself (decisions,
 * window, deadlines, reveal) is table_round.c; messages and history are
 * table_msg.c; records, replay and recovery are table_replay.c.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/rng.h"
#include "../common/util.h"
#include "table_int.h"

static const struct {
	enum proto_err proto;
	const char *message;
} table_errors[TABLE_ERR_COUNT] = {
	[TABLE_OK] = {PROTO_OK, "ok"},
	[TABLE_ERR_NOT_FOUND] = {PROTO_E_NOT_FOUND, "no such seat"},
	[TABLE_ERR_FORBIDDEN] = {PROTO_E_FORBIDDEN, "only the host may do that"},
	[TABLE_ERR_FULL] = {PROTO_E_FULL, "that seat is taken (or no seat is free)"},
	[TABLE_ERR_PASSWORD] = {PROTO_E_WRONG_PASSWORD, "wrong or missing password"},
	[TABLE_ERR_NOT_SEATED] = {PROTO_E_NOT_SEATED, "you are not at this table"},
	[TABLE_ERR_NOT_YOUR_SEAT] = {PROTO_E_NOT_YOUR_SEAT, "that seat is not yours"},
	[TABLE_ERR_NOT_PENDING] = {PROTO_E_NOT_PENDING, "that seat has nothing to decide now"},
	[TABLE_ERR_ILLEGAL] = {PROTO_E_ILLEGAL_CHOICE, "not one of the options offered now"},
	[TABLE_ERR_WRONG_PHASE] = {PROTO_E_WRONG_PHASE,
				   "not possible in the table's current state"},
	[TABLE_ERR_BAD] = {PROTO_E_BAD_MESSAGE, "a bad argument"},
	[TABLE_ERR_INTERNAL] = {PROTO_E_INTERNAL, "the table failed"},
};

enum proto_err table_err_proto(enum table_err e)
{
	return (unsigned)e < TABLE_ERR_COUNT ? table_errors[e].proto : PROTO_E_INTERNAL;
}

const char *table_err_message(enum table_err e)
{
	return table_errors[(unsigned)e < TABLE_ERR_COUNT ? e : TABLE_ERR_INTERNAL].message;
}

const char *table_err_code(enum table_err e) { return proto_err_code(table_err_proto(e)); }

const char *table_state_name(enum table_state s)
{
	return s == TABLE_PLAYING ? "playing" : s == TABLE_FINISHED ? "finished" : "waiting";
}

const char *table_status_name(enum table_status s)
{
	switch (s) {
	case STATUS_WAITING: return "waiting";
	case STATUS_SELECTING: return "selecting";
	case STATUS_CHOSEN: return "chosen";
	default: return "idle";
	}
}

static int bad(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		strlcpy_safe(err, msg, errlen);
	return -1;
}

table *table_new(uv_loop_t *loop, const table_host *host, const table_settings *s, char *err,
		 size_t errlen)
{
	if (!host || !host->send || !s || !s->kind) {
		bad(err, errlen, "host.send and kind are required");
		return NULL;
	}
	const game_kind *k = s->kind;
	if (s->seats < 1 || s->seats > GAME_MAX_SEATS || s->seats < k->min_seats ||
	    s->seats > k->max_seats) {
		bad(err, errlen, "seats out of range for this kind");
		return NULL;
	}
	if (s->turn_timeout_ms <= 0 || s->window_ms < 0 || s->pacing_ms < 0 ||
	    s->reveal_pause_ms < 0) {
		bad(err, errlen, "timeouts must be positive, pauses not negative");
		return NULL;
	}
	if (s->private_table && !s->password[0]) {
		bad(err, errlen, "a private table needs a password");
		return NULL;
	}
	char kerr[200] = "";
	void *cfg = k->config_new(s->config, kerr, sizeof kerr);
	if (!cfg) {
		bad(err, errlen, kerr[0] ? kerr : "config rejected");
		return NULL;
	}
	table *t = xcalloc(1, sizeof *t);
	t->host = *host;
	t->s = *s;
	t->s.config = NULL;
	t->s.name[TABLE_NAME_MAX - 1] = '\0';
	t->s.password[TABLE_PASSWORD_MAX - 1] = '\0';
	t->s.host_name[TABLE_PLAYER_NAME_MAX - 1] = '\0';
	t->config = cfg;
	t->config_full = k->config_json(cfg);
	t->state = TABLE_WAITING;
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		t->seats[i].choice = GAME_NO_CHOICE;
	table_clock_init(t, loop);
	return t;
}

void table_free(table *t)
{
	if (!t)
		return;
	table_clock_free(t);
	if (t->game)
		t->s.kind->destroy(t->game);
	t->s.kind->config_free(t->config);
	cJSON_Delete(t->config_full);
	cJSON_Delete(t->shared_snap);
	cJSON_Delete(t->result);
	game_events_free(&t->evs);
	update_history_free(t);
	free(t->hist);
	free(t->log);
	free(t->spec);
	free(t);
}

void table_notify_changed(table *t)
{
	if (t->host.changed)
		t->host.changed(t->host.ud, t);
}

/* --- membership ------------------------------------------------------------- */

int table_seat_of(const table *t, uint64_t player)
{
	if (!player)
		return -1;
	for (int i = 0; i < t->s.seats; i++)
		if (t->seats[i].kind == SEAT_HUMAN && t->seats[i].player == player)
			return i;
	return -1;
}

static int spec_index(const table *t, uint64_t player)
{
	for (int i = 0; i < t->n_spec; i++)
		if (t->spec[i].player == player)
			return i;
	return -1;
}

bool table_is_spectator(const table *t, uint64_t player)
{
	return spec_index(t, player) >= 0;
}

bool table_has_member(const table *t, uint64_t player)
{
	return table_seat_of(t, player) >= 0 || table_is_spectator(t, player);
}

static void spec_remove(table *t, uint64_t player)
{
	int i = spec_index(t, player);
	if (i < 0)
		return;
	memmove(&t->spec[i], &t->spec[i + 1], (size_t)(t->n_spec - i - 1) * sizeof *t->spec);
	t->n_spec--;
}

static void spec_add(table *t, uint64_t player, const char *name)
{
	if (t->n_spec == t->cap_spec) {
		t->cap_spec = t->cap_spec ? t->cap_spec * 2 : 4;
		t->spec = xrealloc(t->spec, (size_t)t->cap_spec * sizeof *t->spec);
	}
	t->spec[t->n_spec].player = player;
	strlcpy_safe(t->spec[t->n_spec].name, name ? name : "", sizeof t->spec->name);
	t->n_spec++;
}

/* Constant-time comparison of the password (no early exit on a mismatch). */
static bool password_ok(const table *t, const char *pw)
{
	if (!t->s.private_table)
		return true;
	if (!pw)
		return false;
	size_t a = strlen(t->s.password), b = strlen(pw);
	unsigned diff = (unsigned)(a != b);
	for (size_t i = 0; i < b && i < TABLE_PASSWORD_MAX; i++)
		diff |= (unsigned char)pw[i] ^ (unsigned char)t->s.password[i < a ? i : 0];
	return diff == 0 && a == b;
}

static bool admitted(const table *t, uint64_t player, const char *password)
{
	return player == t->s.host || table_is_spectator(t, player) || password_ok(t, password);
}

static void seat_set_human(struct table_seat *st, uint64_t player, const char *name)
{
	st->kind = SEAT_HUMAN;
	st->player = player;
	strlcpy_safe(st->name, name ? name : "", sizeof st->name);
	st->connected = true;
	st->away = false;
}

static void seat_clear(struct table_seat *st, enum table_seat_kind kind)
{
	st->kind = kind;
	st->player = 0;
	st->name[0] = '\0';
	st->connected = false;
	st->away = false;
}

enum table_err table_join(table *t, uint64_t player, const char *name, int seat,
			  const char *password, int *seat_out, enum table_notify notify)
{
	if (!player || seat < -1 || seat >= t->s.seats)
		return seat >= t->s.seats ? TABLE_ERR_NOT_FOUND : TABLE_ERR_BAD;
	int mine = table_seat_of(t, player);
	if (mine >= 0) {
		if (seat != -1 && seat != mine)
			return TABLE_ERR_FORBIDDEN; /* one seat per player */
		if (seat_out)
			*seat_out = mine;
		return TABLE_OK;
	}
	if (t->state == TABLE_FINISHED)
		return TABLE_ERR_WRONG_PHASE;
	/* table.md §4: mid-game, only someone at the table (watching) takes an
	 * AI seat over — the same rule as a takeover by `choose`. */
	bool playing = t->state == TABLE_PLAYING;
	if (playing && !table_is_spectator(t, player))
		return TABLE_ERR_NOT_SEATED;
	if (!admitted(t, player, password))
		return TABLE_ERR_PASSWORD;
	/* WAITING: an empty seat, or an AI seat (it turns human); PLAYING: an
	 * AI seat only (takeover). seat -1 picks the first such seat. */
	if (seat == -1) {
		for (int i = 0; i < t->s.seats && seat < 0; i++)
			if (t->seats[i].kind == (playing ? SEAT_AI : SEAT_EMPTY))
				seat = i;
		if (seat < 0)
			return TABLE_ERR_FULL;
	}
	enum table_seat_kind k = t->seats[seat].kind;
	if (k == SEAT_HUMAN || (playing && k != SEAT_AI))
		return TABLE_ERR_FULL;
	spec_remove(t, player);
	seat_set_human(&t->seats[seat], player, name);
	if (seat_out)
		*seat_out = seat;
	update_emit_seats(t, notify == TABLE_NOTIFY_OTHERS ? player : 0);
	table_notify_changed(t);
	return TABLE_OK;
}

enum table_err table_spectate(table *t, uint64_t player, const char *name, const char *password,
			      enum table_notify notify)
{
	if (!player)
		return TABLE_ERR_BAD;
	if (table_seat_of(t, player) >= 0)
		return TABLE_ERR_FORBIDDEN;
	if (table_is_spectator(t, player))
		return TABLE_OK;
	if (!admitted(t, player, password))
		return TABLE_ERR_PASSWORD;
	spec_add(t, player, name);
	update_emit_seats(t, notify == TABLE_NOTIFY_OTHERS ? player : 0);
	table_notify_changed(t);
	return TABLE_OK;
}

/* The host left: the next seated human, else the first spectator; if
 * nobody is left the host stays as it was (the app closes the table). */
static void pass_host(table *t)
{
	for (int i = 0; i < t->s.seats; i++)
		if (t->seats[i].kind == SEAT_HUMAN) {
			t->s.host = t->seats[i].player;
			strlcpy_safe(t->s.host_name, t->seats[i].name, sizeof t->s.host_name);
			return;
		}
	if (t->n_spec) {
		t->s.host = t->spec[0].player;
		strlcpy_safe(t->s.host_name, t->spec[0].name, sizeof t->s.host_name);
	}
}

enum table_err table_leave(table *t, uint64_t player)
{
	int seat = table_seat_of(t, player);
	if (seat < 0 && !table_is_spectator(t, player))
		return TABLE_ERR_NOT_SEATED;
	bool playing = t->state == TABLE_PLAYING;
	if (seat >= 0)
		seat_clear(&t->seats[seat], playing ? SEAT_AI : SEAT_EMPTY);
	else
		spec_remove(t, player);
	if (player == t->s.host)
		pass_host(t);
	/* The leaver is no longer a member: it does not get this update. */
	update_emit_seats(t, 0);
	table_notify_changed(t);
	if (seat >= 0 && playing) {
		round_seat_to_ai(t, seat); /* may resolve the decision */
		table_clock_sync(t);
	}
	return TABLE_OK;
}

void table_take_over(table *t, uint64_t player, int seat)
{
	int i = spec_index(t, player);
	char name[TABLE_PLAYER_NAME_MAX] = "";
	if (i >= 0)
		strlcpy_safe(name, t->spec[i].name, sizeof name);
	spec_remove(t, player);
	seat_set_human(&t->seats[seat], player, name);
	update_emit_seats(t, 0);
	table_notify_changed(t);
}

enum table_err table_add_ai(table *t, uint64_t player, int seat, int *seat_out,
			    enum table_notify notify)
{
	if (player != t->s.host)
		return TABLE_ERR_FORBIDDEN;
	if (t->state != TABLE_WAITING)
		return TABLE_ERR_WRONG_PHASE;
	if (seat < -1 || seat >= t->s.seats)
		return TABLE_ERR_NOT_FOUND;
	if (seat == -1)
		for (int i = 0; i < t->s.seats && seat < 0; i++)
			if (t->seats[i].kind == SEAT_EMPTY)
				seat = i;
	if (seat < 0 || t->seats[seat].kind != SEAT_EMPTY)
		return TABLE_ERR_FULL;
	seat_clear(&t->seats[seat], SEAT_AI);
	if (seat_out)
		*seat_out = seat;
	update_emit_seats(t, notify == TABLE_NOTIFY_OTHERS ? player : 0);
	table_notify_changed(t);
	return TABLE_OK;
}

enum table_err table_remove_ai(table *t, uint64_t player, int seat)
{
	if (player != t->s.host)
		return TABLE_ERR_FORBIDDEN;
	if (t->state != TABLE_WAITING)
		return TABLE_ERR_WRONG_PHASE;
	if (seat < 0 || seat >= t->s.seats || t->seats[seat].kind != SEAT_AI)
		return TABLE_ERR_NOT_FOUND;
	seat_clear(&t->seats[seat], SEAT_EMPTY);
	update_emit_seats(t, 0);
	table_notify_changed(t);
	return TABLE_OK;
}

uint32_t table_fill_empty(table *t)
{
	uint32_t filled = 0;
	for (int i = 0; i < t->s.seats; i++)
		if (t->seats[i].kind == SEAT_EMPTY) {
			seat_clear(&t->seats[i], SEAT_AI);
			filled |= 1u << i;
		}
	return filled;
}

void table_unfill(table *t, uint32_t mask)
{
	for (int i = 0; i < t->s.seats; i++)
		if ((mask >> i & 1) && t->seats[i].kind == SEAT_AI)
			seat_clear(&t->seats[i], SEAT_EMPTY);
}

enum table_err table_start(table *t, uint64_t player)
{
	if (player != t->s.host)
		return TABLE_ERR_FORBIDDEN;
	if (t->state != TABLE_WAITING || t->phase == PH_STARTING)
		return TABLE_ERR_WRONG_PHASE;
	const game_kind *k = t->s.kind;
	uint64_t seed = t->s.seed;
	if (!t->s.fixed_seed && rng_os_seed(&seed) != 0) {
		log_error("table", "table %llu: getrandom failed, not starting",
			  (unsigned long long)t->s.id);
		return TABLE_ERR_INTERNAL;
	}
	char kerr[200] = "";
	cJSON *fresh = t->host.start_config ? t->host.start_config(t->host.ud, t, t->config_full)
					    : NULL;
	if (fresh) {
		void *cfg = k->config_new(fresh, kerr, sizeof kerr);
		if (cfg) {
			k->config_free(t->config);
			cJSON_Delete(t->config_full);
			t->config = cfg;
			t->config_full = k->config_json(cfg);
		} else {
			log_warn("table", "table %llu: start config refused: %s",
				 (unsigned long long)t->s.id, kerr);
		}
		cJSON_Delete(fresh);
	}
	const void *shared = t->host.shared ? t->host.shared(t->host.ud, k) : NULL;
	game_events_clear(&t->evs);
	game_state *g = k->create(t->config, t->s.seats, seed, shared, &t->evs, kerr, sizeof kerr);
	if (!g) {
		log_error("table", "table %llu: create failed: %s", (unsigned long long)t->s.id,
			  kerr);
		return TABLE_ERR_INTERNAL;
	}
	/* From here on nothing can fail. */
	if (t->game)
		k->destroy(t->game);
	t->game = g;
	t->seed = seed;
	cJSON_Delete(t->shared_snap);
	t->shared_snap = shared && k->shared_json ? k->shared_json(shared) : NULL;
	cJSON_Delete(t->result);
	t->result = NULL;
	t->aborted = false;
	t->games++;
	t->n_log = 0;
	t->decision = 0;
	if (!t->host.start) {
		table_fill_empty(t);
		round_started(t);
		table_clock_sync(t);
		return TABLE_OK;
	}
	/* The start record has every seat filled; the waiting table keeps
	 * showing its empty seats until the start is durable. */
	t->phase = PH_STARTING;
	t->start_filled = table_fill_empty(t);
	t->host.start(t->host.ud, t, t->games);
	if (t->phase == PH_STARTING)
		table_unfill(t, t->start_filled);
	t->start_filled = 0;
	return TABLE_OK;
}

enum table_err table_rematch(table *t, uint64_t player)
{
	if (player != t->s.host)
		return TABLE_ERR_FORBIDDEN;
	if (t->state != TABLE_FINISHED)
		return TABLE_ERR_WRONG_PHASE;
	t->state = TABLE_WAITING;
	for (int i = 0; i < t->s.seats; i++) {
		t->seats[i].status = STATUS_IDLE;
		t->seats[i].choice = GAME_NO_CHOICE;
	}
	update_emit_seats(t, 0);
	table_notify_changed(t);
	return TABLE_OK;
}

void table_set_connected(table *t, uint64_t player, bool connected)
{
	int seat = table_seat_of(t, player);
	if (seat < 0)
		return;
	struct table_seat *st = &t->seats[seat];
	if (st->connected == connected && !(connected && st->away))
		return;
	st->connected = connected;
	if (connected)
		st->away = false;
	update_emit_seats(t, 0);
	table_notify_changed(t);
}

/* --- snapshot and summary --------------------------------------------------- */

static const char *phase_name(enum table_phase p)
{
	switch (p) {
	case PH_CHOOSING: return "choosing";
	case PH_WINDOW: return "window";
	case PH_COMMIT: return "revealing";
	case PH_BETWEEN: return "between";
	case PH_RECORD: return "between"; /* after the last reveal, no result yet */
	default: return "none";
	}
}

static void add_seed(cJSON *o, const char *key, uint64_t seed)
{
	char s[24];
	snprintf(s, sizeof s, "%llu", (unsigned long long)seed);
	cJSON_AddStringToObject(o, key, s);
}

cJSON *table_snapshot_json(const table *t, uint64_t player)
{
	const game_kind *k = t->s.kind;
	int you = table_seat_of(t, player);
	cJSON *m = update_new(t, "table");
	cJSON_AddNumberToObject(m, "seq", (double)t->seq);
	cJSON_AddStringToObject(m, "name", t->s.name);
	cJSON_AddStringToObject(m, "kind", k->name);
	cJSON_AddStringToObject(m, "state", table_state_name(t->state));
	cJSON_AddNumberToObject(m, "host", (double)t->s.host);
	cJSON_AddBoolToObject(m, "private", t->s.private_table);
	cJSON_AddNumberToObject(m, "turn_timeout_ms", t->s.turn_timeout_ms);
	cJSON_AddNumberToObject(m, "window_ms", t->s.window_ms);
	cJSON_AddNumberToObject(m, "pacing_ms", t->s.pacing_ms);
	cJSON_AddItemToObject(m, "config", cJSON_Duplicate(t->config_full, 1));
	if (you >= 0)
		cJSON_AddNumberToObject(m, "you", you);
	else
		cJSON_AddNullToObject(m, "you");
	cJSON_AddItemToObject(m, "seats", table_seats_json(t));
	cJSON_AddNumberToObject(m, "spectators", t->n_spec);
	if (!t->game || t->state == TABLE_WAITING) {
		cJSON_AddNullToObject(m, "game");
		return m;
	}
	cJSON *g = cJSON_AddObjectToObject(m, "game");
	cJSON_AddNumberToObject(g, "decision", (double)t->decision);
	cJSON_AddStringToObject(g, "phase", phase_name(t->phase));
	bool open = t->phase == PH_CHOOSING || t->phase == PH_WINDOW || t->phase == PH_COMMIT;
	cJSON_AddItemToObject(g, "pending", table_pending_json(open ? t->pending : 0, t->s.seats));
	if (t->phase == PH_CHOOSING && t->deadline_at)
		cJSON_AddNumberToObject(g, "deadline", (double)round_ms_left(t, t->deadline_at));
	else
		cJSON_AddNullToObject(g, "deadline");
	if (t->phase == PH_WINDOW)
		cJSON_AddNumberToObject(g, "closes_in_ms", (double)round_ms_left(t, t->window_at));
	cJSON_AddItemToObject(g, "status", table_status_json(t));
	bool mine_open = you >= 0 && (t->phase == PH_CHOOSING || t->phase == PH_WINDOW) &&
			 (t->pending & (1u << you));
	if (mine_open) {
		cJSON_AddItemToObject(g, "options", k->options_json(t->game, you));
		game_choice c = t->seats[you].choice;
		if (c != GAME_NO_CHOICE)
			cJSON_AddItemToObject(g, "choice", k->choice_json(t->game, you, c));
	}
	cJSON_AddItemToObject(g, "view", table_view_json(t, you));
	cJSON *paused = round_paused_json(t);
	if (paused)
		cJSON_AddItemToObject(g, "paused", paused);
	if (t->state == TABLE_FINISHED) {
		cJSON *res = t->result ? cJSON_Duplicate(t->result, 1) : cJSON_CreateNull();
		cJSON_AddItemToObject(m, "result", res);
		add_seed(m, "seed", t->seed);
	}
	return m;
}

cJSON *table_summary_json(const table *t)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddNumberToObject(m, "id", (double)t->s.id);
	cJSON_AddNumberToObject(m, "lobby", (double)t->s.lobby);
	cJSON_AddStringToObject(m, "name", t->s.name);
	cJSON_AddStringToObject(m, "kind", t->s.kind->name);
	cJSON_AddStringToObject(m, "host", t->s.host_name);
	cJSON_AddStringToObject(m, "state", table_state_name(t->state));
	cJSON_AddNumberToObject(m, "seats", t->s.seats);
	cJSON *h = cJSON_AddArrayToObject(m, "humans");
	cJSON *ai = cJSON_AddArrayToObject(m, "ai");
	for (int i = 0; i < t->s.seats; i++) {
		const struct table_seat *st = &t->seats[i];
		cJSON_AddItemToArray(h, st->kind == SEAT_HUMAN ? cJSON_CreateString(st->name)
							       : cJSON_CreateNull());
		cJSON_AddItemToArray(ai, cJSON_CreateBool(st->kind == SEAT_AI));
	}
	cJSON_AddNumberToObject(m, "spectators", t->n_spec);
	cJSON_AddBoolToObject(m, "private", t->s.private_table);
	cJSON_AddNumberToObject(m, "turn_timeout_ms", t->s.turn_timeout_ms);
	cJSON_AddNumberToObject(m, "pacing_ms", t->s.pacing_ms);
	return m;
}

/* --- accessors -------------------------------------------------------------- */

uint64_t table_id(const table *t) { return t->s.id; }
const table_settings *table_get_settings(const table *t) { return &t->s; }
enum table_state table_get_state(const table *t) { return t->state; }
uint64_t table_seq(const table *t) { return t->seq; }
uint64_t table_decision_no(const table *t) { return t->decision; }
uint64_t table_host_player(const table *t) { return t->s.host; }
const game_state *table_game(const table *t) { return t->game; }
uint64_t table_seed(const table *t) { return t->seed; }
int table_spectators(const table *t) { return t->n_spec; }

enum table_seat_kind table_seat_kind_of(const table *t, int seat)
{
	return seat >= 0 && seat < t->s.seats ? t->seats[seat].kind : SEAT_EMPTY;
}

uint64_t table_seat_player(const table *t, int seat)
{
	return table_seat_kind_of(t, seat) == SEAT_HUMAN ? t->seats[seat].player : 0;
}

const char *table_seat_name(const table *t, int seat)
{
	return table_seat_kind_of(t, seat) == SEAT_HUMAN ? t->seats[seat].name : "";
}

int table_humans(const table *t)
{
	int n = 0;
	for (int i = 0; i < t->s.seats; i++)
		n += t->seats[i].kind == SEAT_HUMAN;
	return n;
}

int table_members(const table *t, uint64_t *out, int max)
{
	int n = 0;
	for (int i = 0; i < t->s.seats; i++)
		if (t->seats[i].kind == SEAT_HUMAN) {
			if (n < max)
				out[n] = t->seats[i].player;
			n++;
		}
	for (int i = 0; i < t->n_spec; i++) {
		if (n < max)
			out[n] = t->spec[i].player;
		n++;
	}
	return n;
}

uint32_t table_ai_mask(const table *t)
{
	uint32_t m = 0;
	for (int i = 0; i < t->s.seats; i++)
		if (t->seats[i].kind == SEAT_AI)
			m |= 1u << i;
	return m;
}

const game_choice *table_log(const table *t, size_t *n)
{
	*n = t->n_log;
	return t->log;
}
