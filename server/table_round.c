/*
 * table_round.c — the round engine: a table's state machine in time.
 *
 * One decision at a time:
 *   CHOOSING  options and a deadline go to every pending seat; AI seats (and
 *             "away" humans) choose at once, but like everyone's their choice
 *             is only shown at the reveal; status (waiting / selecting /
 *             chosen, never the choice) is broadcast on every change.
 *   WINDOW    once every pending seat has chosen and a connected human is
 *             among them, the change-your-mind window (window_ms) runs: a
 *             new choice replaces the old one, the window does not restart.
 *   COMMIT    the set is fixed and handed to host->decision to persist;
 *   reveal    once durable it is applied through the kind and revealed: the
 *             choices at once, then the events and view as each viewer may
 *             see them; then, after a pause, the next decision.
 *   RECORD    the game is over: the record goes to host->record to persist;
 *             the result is sent only once it is durable.
 * The deadline passing fills every missing choice with the AI's and
 * resolves at once (the deadline is final: no window after it); a dropped
 * player's seat then stays "away" (the AI plays it without waiting) until
 * the player is back. Without a live human the table does not wait: it
 * moves on after pacing_ms, and with 0 on the loop's next turn, so one
 * turn of the loop never runs more than one of its decisions.
 *
 * What each viewer is sent is written in table_render.c.
 *
 * The engine owns no timer: it reads the time (table_clock_now), says when
 * it must run next (round_wake: a deadline, the window closing, the next
 * step) and runs what is due when told (round_advance). table_clock.c
 * turns that into libuv timers (the Redis model: the event loop apart from
 * the logic); a table without a loop is driven by hand (table_advance), so
 * the engine is tested with a clock the test moves.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/util.h"
#include "table_int.h"

static bool is_pending(const table *t, int seat) { return t->pending & (1u << seat); }

static void resolve(table *t);
static void finish(table *t);

int64_t round_ms_left(const table *t, uint64_t at)
{
	uint64_t now = table_clock_now(t);
	return at > now ? (int64_t)(at - now) : 0;
}

static bool has_live_human(const table *t)
{
	for (int i = 0; i < t->s.seats; i++) {
		const struct table_seat *st = &t->seats[i];
		if (st->kind == SEAT_HUMAN && st->connected && !st->away)
			return true;
	}
	return false;
}


static bool plays_itself(const struct table_seat *st)
{
	return st->kind == SEAT_AI || (st->kind == SEAT_HUMAN && st->away);
}

static void ai_pick(table *t, int seat)
{
	struct table_seat *st = &t->seats[seat];
	st->choice = t->s.kind->ai_choose(t->game, seat);
	st->by_ai = true;
	st->status = STATUS_CHOSEN;
}

/* --- the decision ------------------------------------------------------------- */

/* The result goes out: the record is durable (or there is none to wait
 * for). */
static void send_result(table *t)
{
	t->state = TABLE_FINISHED;
	t->phase = PH_NONE;
	render_emit_result(t);
	table_notify_changed(t);
	if (!t->aborted && t->host.finished)
		t->host.finished(t->host.ud, t);
}

/* The game is over (or aborted): the result, once the host has made the
 * record durable (host.record, table_finished_durable), then finished(). */
static void finish(table *t)
{
	const game_kind *k = t->s.kind;
	t->phase = PH_RECORD;
	t->pending = 0;
	t->deadline_at = 0;
	for (int i = 0; i < t->s.seats; i++) {
		t->seats[i].status = STATUS_IDLE;
		t->seats[i].choice = GAME_NO_CHOICE;
	}
	t->end_ai_mask = table_ai_mask(t);
	cJSON_Delete(t->result);
	t->result = t->aborted ? NULL : k->result_json(t->game, t->end_ai_mask);
	/* Still "playing" (snapshots show the last reveal, no result) until
	 * the host has made the record durable: nobody sees a result that a
	 * crash could lose. An aborted game has no record. */
	if (!t->aborted && t->host.record)
		t->host.record(t->host.ud, t, t->games);
	else
		send_result(t);
}

/* --- pauses for the store ----------------------------------------------------- */

#define PAUSED_MESSAGE                                                                    \
	"the server cannot save the game right now; it goes on as soon as it can, and "   \
	"nothing you saw is lost"

cJSON *round_paused_json(const table *t)
{
	if (!t->store_paused)
		return NULL;
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "reason", "store");
	cJSON_AddStringToObject(p, "message", PAUSED_MESSAGE);
	return p;
}

void table_store_failed(table *t)
{
	if (t->store_paused || t->state != TABLE_PLAYING ||
	    (t->phase != PH_COMMIT && t->phase != PH_RECORD))
		return;
	t->store_paused = true;
	cJSON *m = update_new(t, "paused");
	cJSON_AddNumberToObject(m, "decision", (double)t->decision);
	cJSON_AddStringToObject(m, "reason", "store");
	cJSON_AddStringToObject(m, "message", PAUSED_MESSAGE);
	update_emit(t, m, NULL);
}

/* What the table waited for is durable: the pause (if any) ends first. */
static void resume_from_pause(table *t)
{
	if (!t->store_paused)
		return;
	t->store_paused = false;
	cJSON *m = update_new(t, "resumed");
	cJSON_AddNumberToObject(m, "decision", (double)t->decision);
	update_emit(t, m, NULL);
}

void table_finished_durable(table *t, uint64_t game)
{
	if (t->state != TABLE_PLAYING || t->phase != PH_RECORD || game != t->games)
		return;
	resume_from_pause(t);
	send_result(t);
	table_clock_sync(t);
}

/* The kind refused a set every choice of which was checked: a bug in the
 * kind or here. The game cannot go on; it ends without a record. */
static void abort_game(table *t, const char *why)
{
	log_error("table", "table %llu: decision %llu refused (%s); game abandoned",
		  (unsigned long long)t->s.id, (unsigned long long)t->decision, why);
	t->aborted = true;
	finish(t);
}

void round_schedule_next(table *t)
{
	t->phase = PH_BETWEEN;
	int delay = has_live_human(t) ? t->s.reveal_pause_ms : t->s.pacing_ms;
	t->step_at = table_clock_now(t) + (uint64_t)(delay > 0 ? delay : 0);
}

void round_started(table *t)
{
	/* Seats emptied while the start was being made durable are the AI's
	 * too (the host's live record follows the seats: host.changed). */
	table_fill_empty(t);
	t->state = TABLE_PLAYING;
	t->phase = PH_BETWEEN;
	update_emit_seats(t, 0); /* the seats the start's lean rendering leaves out */
	table_notify_changed(t);
	if (t->host.started)
		t->host.started(t->host.ud, t);
	if (t->host.events && t->evs.len)
		t->host.events(t->host.ud, t, t->evs.v, t->evs.len, false);
	round_begin(t);
}

void table_start_durable(table *t, uint64_t game, bool ok)
{
	if (t->state != TABLE_WAITING || t->phase != PH_STARTING || game != t->games)
		return;
	if (ok) {
		round_started(t);
		table_clock_sync(t);
		return;
	}
	/* Nothing of the game was shown: it goes, and the table waits as
	 * before (the host may start again; the host logged why). */
	t->s.kind->destroy(t->game);
	t->game = NULL;
	t->games--;
	t->phase = PH_NONE;
	game_events_clear(&t->evs);
	table_unfill(t, t->start_filled);
	cJSON *m = update_new(t, "start_failed");
	cJSON_AddStringToObject(m, "reason", "store");
	cJSON_AddStringToObject(m, "message", "the server could not save the new game, so it "
			       "did not start; the host may try again");
	update_emit(t, m, NULL);
}

void round_begin(table *t)
{
	t->phase = PH_BETWEEN;
	render_emit_start(t);
	if (t->s.kind->is_over(t->game))
		finish(t);
	else
		round_post_decision(t);
}

static bool all_chosen(const table *t)
{
	for (int i = 0; i < t->s.seats; i++)
		if (is_pending(t, i) && t->seats[i].status != STATUS_CHOSEN)
			return false;
	return true;
}

/* Every pending seat has chosen and a connected human is among them: the
 * change-your-mind window is due (else the set resolves at once). */
static bool window_due(const table *t)
{
	if (t->s.window_ms <= 0 || !all_chosen(t))
		return false;
	for (int i = 0; i < t->s.seats; i++) {
		const struct table_seat *st = &t->seats[i];
		if (is_pending(t, i) && st->kind == SEAT_HUMAN && st->connected && !st->away)
			return true;
	}
	return false;
}

static void check_all_chosen(table *t)
{
	if (t->phase != PH_CHOOSING || !all_chosen(t))
		return;
	t->deadline_at = 0;
	if (window_due(t)) {
		t->phase = PH_WINDOW;
		t->window_at = table_clock_now(t) + (uint64_t)t->s.window_ms;
		render_emit_window(t);
	} else {
		resolve(t);
	}
}

void round_post_decision(table *t)
{
	const game_kind *k = t->s.kind;
	t->decision++;
	t->pending = k->pending(t->game);
	t->phase = PH_CHOOSING;
	t->deadline_at = 0;
	if (!t->pending) {
		abort_game(t, "not over, yet nobody to choose");
		return;
	}
	bool wait = false;
	for (int i = 0; i < t->s.seats; i++) {
		struct table_seat *st = &t->seats[i];
		st->choice = GAME_NO_CHOICE;
		st->by_ai = false;
		st->status = is_pending(t, i) ? STATUS_WAITING : STATUS_IDLE;
		if (!is_pending(t, i))
			continue;
		if (plays_itself(st))
			ai_pick(t, i);
		else
			wait = true;
	}
	if (wait)
		t->deadline_at = table_clock_now(t) + (uint64_t)t->s.turn_timeout_ms;
	render_emit_options(t);
	check_all_chosen(t);
}

static void resolve(table *t)
{
	t->phase = PH_COMMIT;
	t->deadline_at = 0;
	t->t_close_us = now_ns() / 1000;
	t->commit_ai = 0;
	for (int i = 0; i < GAME_MAX_SEATS; i++) {
		bool p = i < t->s.seats && is_pending(t, i);
		t->commit[i] = p ? t->seats[i].choice : GAME_NO_CHOICE;
		if (p && t->seats[i].by_ai)
			t->commit_ai |= 1u << i;
	}
	if (t->host.decision)
		t->host.decision(t->host.ud, t, t->decision, t->commit, t->s.seats);
	else
		table_decision_durable(t, t->decision);
}

void round_log_append(table *t, const game_choice *set)
{
	size_t n = (size_t)t->s.seats;
	if (t->n_log == t->cap_log) {
		t->cap_log = t->cap_log ? t->cap_log * 2 : 64;
		t->log = xrealloc(t->log, t->cap_log * n * sizeof *t->log);
	}
	memcpy(&t->log[t->n_log * n], set, n * sizeof *set);
	t->n_log++;
}

void table_decision_durable(table *t, uint64_t n)
{
	if (t->state != TABLE_PLAYING || t->phase != PH_COMMIT || n != t->decision)
		return;
	resume_from_pause(t);
	const game_kind *k = t->s.kind;
	/* What the reveal needs from before the state moves on. */
	reveal_prep prep;
	render_reveal_prepare(t, &prep);
	char err[200] = "";
	game_events_clear(&t->evs);
	if (k->apply(t->game, t->commit, &t->evs, err, sizeof err) != GAME_OK) {
		render_reveal_free(t, &prep);
		abort_game(t, err);
		return;
	}
	round_log_append(t, t->commit);
	for (int i = 0; i < t->s.seats; i++) {
		t->seats[i].status = STATUS_IDLE;
		t->seats[i].choice = GAME_NO_CHOICE;
	}
	if (t->host.events && t->evs.len)
		t->host.events(t->host.ud, t, t->evs.v, t->evs.len, false);
	render_emit_reveal(t, &prep);
	if (k->is_over(t->game))
		finish(t);
	else
		round_schedule_next(t);
	table_clock_sync(t);
}

/* --- time passing ---------------------------------------------------------------- */

/* The deadline passed: every missing choice is the AI's, and the set
 * resolves (no window after a deadline). */
static void deadline_passed(table *t)
{
	bool seats_changed = false;
	for (int i = 0; i < t->s.seats; i++) {
		struct table_seat *st = &t->seats[i];
		if (!is_pending(t, i) || st->status == STATUS_CHOSEN)
			continue;
		if (st->kind == SEAT_HUMAN && !st->connected && !st->away) {
			st->away = true;
			seats_changed = true;
		}
		ai_pick(t, i);
	}
	t->deadline_at = 0;
	if (seats_changed)
		update_emit_seats(t, 0);
	render_status_changed(t);
	resolve(t);
}

/* The pause after a reveal is over: the next decision, or the end (a
 * restored game whose durable log ends it). */
static void step(table *t)
{
	if (t->s.kind->is_over(t->game))
		finish(t);
	else
		round_post_decision(t);
}

enum round_wake round_wake(const table *t, uint64_t *at)
{
	*at = 0;
	if (t->state != TABLE_PLAYING)
		return WAKE_NONE;
	switch (t->phase) {
	case PH_CHOOSING:
		*at = t->deadline_at;
		return t->deadline_at ? WAKE_TIMER : WAKE_NONE;
	case PH_WINDOW:
		*at = t->window_at;
		return WAKE_TIMER;
	case PH_BETWEEN:
		*at = t->step_at;
		return WAKE_STEP;
	default:
		return WAKE_NONE;
	}
}

void round_advance(table *t)
{
	uint64_t at, now = table_clock_now(t);
	enum round_wake w = round_wake(t, &at);
	if (w == WAKE_NONE || at > now)
		return;
	if (t->phase == PH_CHOOSING)
		deadline_passed(t);
	else if (t->phase == PH_WINDOW)
		resolve(t);
	else
		step(t);
}

/* --- seats changing hands and choices ----------------------------------------- */

void round_seat_to_ai(table *t, int seat)
{
	if (t->phase != PH_CHOOSING || !is_pending(t, seat) ||
	    t->seats[seat].status == STATUS_CHOSEN)
		return;
	ai_pick(t, seat);
	render_status_changed(t);
	check_all_chosen(t);
}

/* Every check of a choice but its legality; *seat: -1 → the player's own.
 * *takeover: the player takes an AI seat over by choosing. */
static enum table_err choose_check(table *t, uint64_t player, int *seatp, uint64_t decision,
			bool *takeover)
{
	int seat = *seatp;
	*takeover = false;
	if (t->state != TABLE_PLAYING)
		return table_has_member(t, player) ? TABLE_ERR_WRONG_PHASE : TABLE_ERR_NOT_SEATED;
	int mine = table_seat_of(t, player);
	if (seat == -1) {
		if (mine < 0)
			return TABLE_ERR_NOT_SEATED;
		seat = mine;
	} else if (seat < 0 || seat >= t->s.seats) {
		return TABLE_ERR_NOT_FOUND;
	} else if (seat != mine) {
		/* Only an AI seat that no human holds can be taken by choosing,
		 * by someone at the table holding no other seat. */
		if (t->seats[seat].kind != SEAT_AI || mine >= 0)
			return TABLE_ERR_NOT_YOUR_SEAT;
		if (!table_is_spectator(t, player))
			return TABLE_ERR_NOT_SEATED;
		*takeover = true;
	}
	if (decision && decision != t->decision)
		return TABLE_ERR_WRONG_PHASE;
	if ((t->phase != PH_CHOOSING && t->phase != PH_WINDOW) || !is_pending(t, seat))
		return TABLE_ERR_NOT_PENDING;
	*seatp = seat;
	return TABLE_OK;
}

/* Records a checked, legal choice (taking the seat over first if asked). */
static void set_choice(table *t, uint64_t player, int seat, bool takeover, game_choice c)
{
	if (takeover)
		table_take_over(t, player, seat);
	struct table_seat *st = &t->seats[seat];
	bool was_away = st->away;
	st->choice = c;
	st->by_ai = false;
	st->status = STATUS_CHOSEN;
	st->connected = true; /* it just spoke */
	st->away = false;
	if (was_away)
		update_emit_seats(t, 0);
	/* The last choice that opens the window needs no status of its own:
	 * the window carries every seat's status and the viewer's choice. */
	if (t->phase != PH_CHOOSING || !window_due(t))
		render_status_changed(t);
	if (takeover) /* its new seat's view, options and choice */
		table_send_json(t, player, table_snapshot_json(t, player));
	check_all_chosen(t);
}

enum table_err table_choose(table *t, uint64_t player, int seat, uint64_t decision,
			    const cJSON *choice, char *err, size_t errlen)
{
	bool takeover;
	enum table_err rc = choose_check(t, player, &seat, decision, &takeover);
	if (rc != TABLE_OK)
		return rc;
	game_choice c = GAME_NO_CHOICE;
	char kerr[200] = "";
	if (!choice || t->s.kind->choice_parse(t->game, seat, choice, &c, kerr, sizeof kerr) !=
			       GAME_OK) {
		if (err && errlen)
			strlcpy_safe(err, kerr[0] ? kerr : "not a choice", errlen);
		return TABLE_ERR_ILLEGAL;
	}
	set_choice(t, player, seat, takeover, c);
	table_clock_sync(t);
	return TABLE_OK;
}

enum table_err table_choose_code(table *t, uint64_t player, int seat, uint64_t decision,
				 game_choice c, char *err, size_t errlen)
{
	bool takeover;
	enum table_err rc = choose_check(t, player, &seat, decision, &takeover);
	if (rc != TABLE_OK)
		return rc;
	game_choice few[64], *opts = few;
	int n = t->s.kind->options(t->game, seat, few, (int)ARRAY_LEN(few));
	if (n > (int)ARRAY_LEN(few)) {
		opts = xmalloc((size_t)n * sizeof *opts);
		t->s.kind->options(t->game, seat, opts, n);
	}
	bool legal = false;
	for (int i = 0; i < n && !legal; i++)
		legal = opts[i] == c;
	if (opts != few)
		free(opts);
	if (!legal) {
		if (err && errlen)
			strlcpy_safe(err, table_err_message(TABLE_ERR_ILLEGAL), errlen);
		return TABLE_ERR_ILLEGAL;
	}
	set_choice(t, player, seat, takeover, c);
	table_clock_sync(t);
	return TABLE_OK;
}

enum table_err table_selecting(table *t, uint64_t player)
{
	int seat = table_seat_of(t, player);
	if (seat < 0)
		return TABLE_ERR_NOT_SEATED;
	if (t->state != TABLE_PLAYING || (t->phase != PH_CHOOSING && t->phase != PH_WINDOW) ||
	    !is_pending(t, seat))
		return TABLE_ERR_NOT_PENDING;
	struct table_seat *st = &t->seats[seat];
	if (st->status == STATUS_WAITING) {
		st->status = STATUS_SELECTING;
		render_status_changed(t);
	}
	return TABLE_OK;
}
