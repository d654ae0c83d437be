/*
 * table_round.c — the round engine: it owns a table's time.
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
 * moves on after pacing_ms, and with 0 on the next loop iteration (an idle
 * handle), so one loop iteration never runs more than one of its decisions;
 * with a pacer shared by the loop's tables, no more than per_turn steps of
 * all of them together.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/util.h"
#include "table_int.h"

static void resolve(table *t);

uint64_t round_now(const table *t) { return uv_now(t->loop); }

int64_t round_ms_left(const table *t, uint64_t at)
{
	uint64_t now = round_now(t);
	return at > now ? (int64_t)(at - now) : 0;
}

bool round_has_live_human(const table *t)
{
	for (int i = 0; i < t->s.seats; i++) {
		const struct table_seat *st = &t->seats[i];
		if (st->kind == SEAT_HUMAN && st->connected && !st->away)
			return true;
	}
	return false;
}

static bool is_pending(const table *t, int seat) { return t->pending & (1u << seat); }

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

/* --- rendering per viewer ------------------------------------------------- */

typedef cJSON *(*render_fn)(table *t, int viewer, void *arg);

/* One update rendered for the spectators and for each human seat. */
static void emit_rendered(table *t, render_fn f, void *arg)
{
	if (!tmsg_anyone(t)) {
		tmsg_skip(t);
		return;
	}
	/* The spectators' rendering only when someone watches: a seat's own
	 * is what its player gets, and resume snapshots a class not kept. */
	cJSON *per[GAME_MAX_SEATS] = {0};
	for (int i = 0; i < t->s.seats; i++)
		if (t->seats[i].kind == SEAT_HUMAN)
			per[i] = f(t, i, arg);
	tmsg_emit(t, t->n_spec ? f(t, -1, arg) : NULL, per);
}

static cJSON *events_json(const table *t, int viewer)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < t->evs.len; i++) {
		cJSON *e = t->s.kind->event_json(t->game, &t->evs.v[i], viewer);
		if (e)
			cJSON_AddItemToArray(a, e);
	}
	return a;
}

static cJSON *render_start(table *t, int viewer, void *arg)
{
	(void)arg;
	cJSON *m = tmsg_new(t, "start");
	cJSON_AddItemToObject(m, "seats", tmsg_seats_json(t));
	cJSON_AddItemToObject(m, "events", events_json(t, viewer));
	cJSON_AddItemToObject(m, "view", tmsg_view(t, viewer));
	return m;
}

static void add_own_choice(const table *t, cJSON *m, int viewer)
{
	if (viewer < 0 || !is_pending(t, viewer) || t->seats[viewer].choice == GAME_NO_CHOICE)
		return;
	cJSON_AddItemToObject(m, "choice", t->s.kind->choice_json(t->game, viewer,
								  t->seats[viewer].choice));
}

static cJSON *render_options(table *t, int viewer, void *arg)
{
	(void)arg;
	cJSON *m = tmsg_new(t, "options");
	cJSON_AddNumberToObject(m, "decision", (double)t->decision);
	cJSON_AddItemToObject(m, "pending", tmsg_pending_json(t->pending, t->s.seats));
	if (t->deadline_at)
		cJSON_AddNumberToObject(m, "deadline", (double)round_ms_left(t, t->deadline_at));
	else
		cJSON_AddNullToObject(m, "deadline");
	cJSON_AddItemToObject(m, "status", tmsg_status_json(t));
	if (viewer >= 0 && is_pending(t, viewer)) {
		cJSON_AddNumberToObject(m, "seat", viewer);
		cJSON_AddItemToObject(m, "options", t->s.kind->options_json(t->game, viewer));
		add_own_choice(t, m, viewer);
	}
	return m;
}

static cJSON *render_status(table *t, int viewer, void *arg)
{
	(void)arg;
	cJSON *m = tmsg_new(t, "status");
	cJSON_AddNumberToObject(m, "decision", (double)t->decision);
	cJSON_AddItemToObject(m, "status", tmsg_status_json(t));
	add_own_choice(t, m, viewer);
	return m;
}

static cJSON *render_window(table *t, int viewer, void *arg)
{
	(void)arg;
	cJSON *m = tmsg_new(t, "window");
	cJSON_AddNumberToObject(m, "decision", (double)t->decision);
	cJSON_AddNumberToObject(m, "closes_in_ms", (double)round_ms_left(t, t->window_at));
	cJSON_AddItemToObject(m, "status", tmsg_status_json(t));
	add_own_choice(t, m, viewer);
	return m;
}

/* arg: the choices array, rendered before the set was applied. */
static cJSON *render_reveal(table *t, int viewer, void *arg)
{
	cJSON *m = tmsg_new(t, "reveal");
	cJSON_AddNumberToObject(m, "decision", (double)t->decision);
	cJSON_AddItemToObject(m, "choices", cJSON_Duplicate(arg, 1));
	cJSON_AddItemToObject(m, "events", events_json(t, viewer));
	cJSON_AddItemToObject(m, "view", tmsg_view(t, viewer));
	cJSON_AddNumberToObject(m, "t_close_us", (double)t->t_close_us);
	return m;
}

static cJSON *render_result(table *t, int viewer, void *arg)
{
	(void)viewer, (void)arg;
	cJSON *m = tmsg_new(t, "result");
	cJSON_AddNumberToObject(m, "decisions", (double)t->decision);
	cJSON_AddItemToObject(m, "result",
			      t->result ? cJSON_Duplicate(t->result, 1) : cJSON_CreateNull());
	char s[24];
	snprintf(s, sizeof s, "%llu", (unsigned long long)t->seed);
	cJSON_AddStringToObject(m, "seed", s);
	return m;
}

static void emit_status(table *t) { emit_rendered(t, render_status, NULL); }

/* --- timers ------------------------------------------------------------------ */

static void on_deadline(uv_timer_t *h);
static void on_window(uv_timer_t *h);
static void on_step_timer(uv_timer_t *h);
static void on_step_idle(uv_idle_t *h);

void round_timers_init(table *t)
{
	uv_timer_init(t->loop, &t->deadline_timer);
	uv_timer_init(t->loop, &t->window_timer);
	uv_timer_init(t->loop, &t->step_timer);
	uv_idle_init(t->loop, &t->step_idle);
	t->deadline_timer.data = t->window_timer.data = t->step_timer.data = t;
	t->step_idle.data = t;
	t->open_handles = 4;
}

/* --- the pacer: turns of one loop shared among tables ----------------------- */

struct table_pacer {
	uv_idle_t idle;
	int per_turn;
	int waiting;
	table *head, *tail;
};

static void step(table *t);

static void pacer_unlink(table *t)
{
	table_pacer *p = t->s.pacer;
	if (!t->pace_queued)
		return;
	if (t->pace_prev)
		t->pace_prev->pace_next = t->pace_next;
	else
		p->head = t->pace_next;
	if (t->pace_next)
		t->pace_next->pace_prev = t->pace_prev;
	else
		p->tail = t->pace_prev;
	t->pace_prev = t->pace_next = NULL;
	t->pace_queued = false;
	p->waiting--;
}

static void on_pacer_idle(uv_idle_t *h)
{
	table_pacer *p = h->data;
	/* Only the steps waiting now: a table stepping may ask again, and
	 * waits for the next iteration then. */
	int n = MIN(p->per_turn, p->waiting);
	for (int i = 0; i < n && p->head; i++) {
		table *t = p->head;
		pacer_unlink(t);
		step(t);
	}
	if (!p->head)
		uv_idle_stop(h);
}

static void pacer_ask(table *t)
{
	table_pacer *p = t->s.pacer;
	if (t->pace_queued)
		return;
	t->pace_prev = p->tail;
	t->pace_next = NULL;
	if (p->tail)
		p->tail->pace_next = t;
	else
		p->head = t;
	p->tail = t;
	t->pace_queued = true;
	p->waiting++;
	uv_idle_start(&p->idle, on_pacer_idle);
}

table_pacer *table_pacer_new(uv_loop_t *loop, int per_turn)
{
	table_pacer *p = xcalloc(1, sizeof *p);
	p->per_turn = per_turn > 0 ? per_turn : 1;
	uv_idle_init(loop, &p->idle);
	p->idle.data = p;
	return p;
}

static void pacer_closed(uv_handle_t *h) { free(h->data); }

void table_pacer_free(table_pacer *p)
{
	if (!p)
		return;
	while (p->head) /* tables still waiting lose their turn (they should be gone) */
		pacer_unlink(p->head);
	uv_close((uv_handle_t *)&p->idle, pacer_closed);
}

int table_pacer_waiting(const table_pacer *p) { return p ? p->waiting : 0; }

void round_stop_timers(table *t)
{
	uv_timer_stop(&t->deadline_timer);
	uv_timer_stop(&t->window_timer);
	uv_timer_stop(&t->step_timer);
	uv_idle_stop(&t->step_idle);
	if (t->s.pacer)
		pacer_unlink(t);
}

/* --- the decision ------------------------------------------------------------- */

/* The result goes out: the record is durable (or there is none to wait
 * for). */
static void send_result(table *t)
{
	t->state = TABLE_FINISHED;
	t->phase = PH_NONE;
	emit_rendered(t, render_result, NULL);
	table_notify_changed(t);
	if (!t->aborted && t->host.finished && !t->freed)
		t->host.finished(t->host.ud, t);
}

void round_finish(table *t)
{
	const game_kind *k = t->s.kind;
	round_stop_timers(t);
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
	if (!t->aborted && t->host.record && !t->freed)
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
	if (t->freed || t->store_paused || t->state != TABLE_PLAYING ||
	    (t->phase != PH_COMMIT && t->phase != PH_RECORD))
		return;
	t->store_paused = true;
	cJSON *m = tmsg_new(t, "paused");
	cJSON_AddNumberToObject(m, "decision", (double)t->decision);
	cJSON_AddStringToObject(m, "reason", "store");
	cJSON_AddStringToObject(m, "message", PAUSED_MESSAGE);
	tmsg_emit(t, m, NULL);
}

/* What the table waited for is durable: the pause (if any) ends first. */
static void resume_from_pause(table *t)
{
	if (!t->store_paused)
		return;
	t->store_paused = false;
	cJSON *m = tmsg_new(t, "resumed");
	cJSON_AddNumberToObject(m, "decision", (double)t->decision);
	tmsg_emit(t, m, NULL);
}

void table_finished_durable(table *t, uint64_t game)
{
	if (t->freed || t->state != TABLE_PLAYING || t->phase != PH_RECORD || game != t->games)
		return;
	resume_from_pause(t);
	send_result(t);
}

/* The kind refused a set every choice of which was checked: a bug in the
 * kind or here. The game cannot go on; it ends without a record. */
static void abort_game(table *t, const char *why)
{
	log_error("table", "table %llu: decision %llu refused (%s); game abandoned",
		  (unsigned long long)t->s.id, (unsigned long long)t->decision, why);
	t->aborted = true;
	round_finish(t);
}

void round_schedule_next(table *t)
{
	t->phase = PH_BETWEEN;
	int delay = round_has_live_human(t) ? t->s.reveal_pause_ms : t->s.pacing_ms;
	if (delay <= 0 && t->s.pacer)
		pacer_ask(t);
	else if (delay <= 0)
		uv_idle_start(&t->step_idle, on_step_idle);
	else
		uv_timer_start(&t->step_timer, on_step_timer, (uint64_t)delay, 0);
}

void round_started(table *t)
{
	/* Seats emptied while the start was being made durable are the AI's
	 * too (the host's live record follows the seats: host.changed). */
	table_fill_empty(t);
	t->state = TABLE_PLAYING;
	t->phase = PH_BETWEEN;
	tmsg_emit_seats(t, 0);
	table_notify_changed(t);
	if (t->host.started)
		t->host.started(t->host.ud, t);
	if (t->host.events && t->evs.len)
		t->host.events(t->host.ud, t, t->evs.v, t->evs.len, false);
	round_begin(t);
}

void table_start_durable(table *t, uint64_t game, bool ok)
{
	if (t->freed || t->state != TABLE_WAITING || t->phase != PH_STARTING || game != t->games)
		return;
	if (ok) {
		round_started(t);
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
	cJSON *m = tmsg_new(t, "start_failed");
	cJSON_AddStringToObject(m, "reason", "store");
	cJSON_AddStringToObject(m, "message", "the server could not save the new game, so it "
			       "did not start; the host may try again");
	tmsg_emit(t, m, NULL);
}

void round_begin(table *t)
{
	t->phase = PH_BETWEEN;
	emit_rendered(t, render_start, NULL);
	if (t->s.kind->is_over(t->game))
		round_finish(t);
	else
		round_post_decision(t);
}

static void check_all_chosen(table *t)
{
	if (t->phase != PH_CHOOSING)
		return;
	bool live = false;
	for (int i = 0; i < t->s.seats; i++) {
		if (!is_pending(t, i))
			continue;
		const struct table_seat *st = &t->seats[i];
		if (st->status != STATUS_CHOSEN)
			return;
		live |= st->kind == SEAT_HUMAN && st->connected && !st->away;
	}
	uv_timer_stop(&t->deadline_timer);
	t->deadline_at = 0;
	if (live && t->s.window_ms > 0) {
		t->phase = PH_WINDOW;
		t->window_at = round_now(t) + (uint64_t)t->s.window_ms;
		uv_timer_start(&t->window_timer, on_window, (uint64_t)t->s.window_ms, 0);
		emit_rendered(t, render_window, NULL);
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
	if (wait) {
		t->deadline_at = round_now(t) + (uint64_t)t->s.turn_timeout_ms;
		uv_timer_start(&t->deadline_timer, on_deadline, (uint64_t)t->s.turn_timeout_ms, 0);
	}
	emit_rendered(t, render_options, NULL);
	check_all_chosen(t);
}

static void resolve(table *t)
{
	uv_timer_stop(&t->deadline_timer);
	uv_timer_stop(&t->window_timer);
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
	if (t->freed || t->state != TABLE_PLAYING || t->phase != PH_COMMIT || n != t->decision)
		return;
	resume_from_pause(t);
	const game_kind *k = t->s.kind;
	/* The choices as JSON before the state moves on. */
	cJSON *choices = cJSON_CreateArray();
	for (int i = 0; i < t->s.seats; i++) {
		if (t->commit[i] == GAME_NO_CHOICE)
			continue;
		cJSON *c = cJSON_CreateObject();
		cJSON_AddNumberToObject(c, "seat", i);
		cJSON_AddItemToObject(c, "choice", k->choice_json(t->game, i, t->commit[i]));
		cJSON_AddBoolToObject(c, "ai", (t->commit_ai >> i) & 1);
		cJSON_AddItemToArray(choices, c);
	}
	char err[200] = "";
	game_events_clear(&t->evs);
	if (k->apply(t->game, t->commit, &t->evs, err, sizeof err) != GAME_OK) {
		cJSON_Delete(choices);
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
	emit_rendered(t, render_reveal, choices);
	cJSON_Delete(choices);
	if (t->freed)
		return;
	if (k->is_over(t->game))
		round_finish(t);
	else
		round_schedule_next(t);
}

/* --- timer callbacks ----------------------------------------------------------- */

static void on_deadline(uv_timer_t *h)
{
	table *t = h->data;
	if (t->freed || t->phase != PH_CHOOSING)
		return;
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
		tmsg_emit_seats(t, 0);
	emit_status(t);
	resolve(t);
}

static void on_window(uv_timer_t *h)
{
	table *t = h->data;
	if (!t->freed && t->phase == PH_WINDOW)
		resolve(t);
}

static void step(table *t)
{
	if (t->freed || t->state != TABLE_PLAYING || t->phase != PH_BETWEEN)
		return;
	/* Over already: a restored game whose durable log ends it. */
	if (t->s.kind->is_over(t->game))
		round_finish(t);
	else
		round_post_decision(t);
}

static void on_step_timer(uv_timer_t *h)
{
	table *t = h->data;
	if (t->s.pacer) /* many timers may fall due in one iteration */
		pacer_ask(t);
	else
		step(t);
}

static void on_step_idle(uv_idle_t *h)
{
	uv_idle_stop(h);
	step(h->data);
}

/* --- seats changing hands and choices ----------------------------------------- */

void round_seat_to_ai(table *t, int seat)
{
	if (t->phase != PH_CHOOSING || !is_pending(t, seat) ||
	    t->seats[seat].status == STATUS_CHOSEN)
		return;
	ai_pick(t, seat);
	emit_status(t);
	check_all_chosen(t);
}

int round_choose_check(table *t, uint64_t player, int *seatp, uint64_t decision, bool *takeover)
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

void round_set_choice(table *t, uint64_t player, int seat, bool takeover, game_choice c)
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
		tmsg_emit_seats(t, 0);
	emit_status(t);
	if (takeover) /* its new seat's view, options and choice */
		tmsg_send_json(t, player, table_snapshot_json(t, player));
	check_all_chosen(t);
}

int table_choose(table *t, uint64_t player, int seat, uint64_t decision, const cJSON *choice,
		 char *err, size_t errlen)
{
	bool takeover;
	int rc = round_choose_check(t, player, &seat, decision, &takeover);
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
	round_set_choice(t, player, seat, takeover, c);
	return TABLE_OK;
}

int table_choose_code(table *t, uint64_t player, int seat, uint64_t decision, game_choice c,
		      char *err, size_t errlen)
{
	bool takeover;
	int rc = round_choose_check(t, player, &seat, decision, &takeover);
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
			strlcpy_safe(err, "not one of the options offered now", errlen);
		return TABLE_ERR_ILLEGAL;
	}
	round_set_choice(t, player, seat, takeover, c);
	return TABLE_OK;
}

int table_selecting(table *t, uint64_t player)
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
		emit_status(t);
	}
	return TABLE_OK;
}
