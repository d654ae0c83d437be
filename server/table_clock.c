/*
 * table_clock.c — the round engine's time on a libuv loop. The engine
 * (table_round.c) owns no handle: it says when it must run next
 * (round_wake) and runs what is due when told (round_advance). Here each
 * table owns one timer, one idle and one prepare handle (libuv's model:
 * small handles with one owner), armed for that wake after anything that
 * may have moved the round (table_clock_sync):
 *   a deadline or a window closing  the timer, then round_advance;
 *   a step after a pause            the timer, then (with a pacer) a turn;
 *   a step without a pause          the loop's next turn: the idle handle,
 *                                   or a turn of the pacer;
 *   a seat's status changed         the prepare handle, before the loop
 *                                   waits again: one `status` update for
 *                                   all the changes of the iteration.
 * The pacer shares a loop's turns among its tables (table_pacer_new).
 *
 * A table without a loop has no clock: its time stands at what
 * table_advance last set, and the caller moves it.
 */
#include <stdlib.h>

#include "../common/util.h"
#include "table_int.h"

struct table_clock {
	uv_loop_t *loop;
	table *t;           /* NULL once the table is freed (handles closing) */
	uv_timer_t timer;
	uv_idle_t idle;
	uv_prepare_t prepare; /* before the loop next waits: the coalesced status */
	uint64_t timer_at;  /* the loop time the timer is armed for; 0: stopped */
	int64_t late_us;    /* while the timer closes a window: how late; else -1 */
	int open_handles;
	/* a turn asked of t->s.pacer */
	table *pace_prev, *pace_next;
	bool pace_queued;
};

struct table_pacer {
	uv_idle_t idle;
	int per_turn;
	int waiting;
	table *head, *tail;
};

uint64_t table_clock_now(const table *t) { return t->clock ? uv_now(t->clock->loop) : t->now; }

/* --- the pacer: turns of one loop shared among tables ----------------------- */

static void pacer_unlink(table *t)
{
	table_pacer *p = t->s.pacer;
	struct table_clock *c = t->clock;
	if (!c->pace_queued)
		return;
	if (c->pace_prev)
		c->pace_prev->clock->pace_next = c->pace_next;
	else
		p->head = c->pace_next;
	if (c->pace_next)
		c->pace_next->clock->pace_prev = c->pace_prev;
	else
		p->tail = c->pace_prev;
	c->pace_prev = c->pace_next = NULL;
	c->pace_queued = false;
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
		round_advance(t);
		table_clock_sync(t);
	}
	if (!p->head)
		uv_idle_stop(h);
}

static void pacer_ask(table *t)
{
	table_pacer *p = t->s.pacer;
	struct table_clock *c = t->clock;
	if (c->pace_queued)
		return;
	c->pace_prev = p->tail;
	c->pace_next = NULL;
	if (p->tail)
		p->tail->clock->pace_next = t;
	else
		p->head = t;
	p->tail = t;
	c->pace_queued = true;
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

/* --- one table's handles ------------------------------------------------------ */

static void on_timer(uv_timer_t *h)
{
	struct table_clock *c = h->data;
	table *t = c->t;
	uint64_t at;
	/* The loop's time is CLOCK_MONOTONIC in ms, as now_ns() is in ns. */
	uint64_t due_us = c->timer_at * 1000, now_us = now_ns() / 1000;
	c->timer_at = 0;
	/* Many timers may fall due in one iteration: steps wait their turn. */
	if (round_wake(t, &at) == WAKE_STEP && t->s.pacer) {
		pacer_ask(t);
	} else {
		if (t->phase == PH_WINDOW)
			c->late_us = now_us > due_us ? (int64_t)(now_us - due_us) : 0;
		round_advance(t);
		c->late_us = -1;
	}
	table_clock_sync(t);
}

int64_t table_close_late_us(const table *t) { return t->clock ? t->clock->late_us : -1; }

static void on_idle(uv_idle_t *h)
{
	struct table_clock *c = h->data;
	uv_idle_stop(h);
	round_advance(c->t);
	table_clock_sync(c->t);
}

/* Runs right before the loop waits for I/O: after every callback of this
 * iteration that could change a status (a choice read from a socket, a
 * deadline), and before the loop could block. A check handle (after the
 * poll) would not do: a status changed by a timer would wait for the next
 * I/O. */
static void on_prepare(uv_prepare_t *h)
{
	struct table_clock *c = h->data;
	uv_prepare_stop(h);
	round_flush_status(c->t);
}

void table_clock_flush_soon(table *t)
{
	if (t->clock)
		uv_prepare_start(&t->clock->prepare, on_prepare);
}

void table_clock_init(table *t, uv_loop_t *loop)
{
	if (!loop)
		return;
	struct table_clock *c = xcalloc(1, sizeof *c);
	c->loop = loop;
	c->t = t;
	uv_timer_init(loop, &c->timer);
	uv_idle_init(loop, &c->idle);
	uv_prepare_init(loop, &c->prepare);
	c->timer.data = c->idle.data = c->prepare.data = c;
	c->late_us = -1;
	c->open_handles = 3;
	t->clock = c;
}

void table_clock_sync(table *t)
{
	struct table_clock *c = t->clock;
	if (!c)
		return;
	uint64_t at, now = uv_now(c->loop);
	enum round_wake w = round_wake(t, &at);
	bool next_turn = w == WAKE_STEP && at <= now;
	if (w == WAKE_NONE || next_turn || at != c->timer_at) {
		uv_timer_stop(&c->timer);
		c->timer_at = 0;
	}
	if (!next_turn) {
		uv_idle_stop(&c->idle);
		if (t->s.pacer)
			pacer_unlink(t);
	}
	if (next_turn && t->s.pacer)
		pacer_ask(t);
	else if (next_turn)
		uv_idle_start(&c->idle, on_idle);
	else if (w != WAKE_NONE && !c->timer_at) {
		c->timer_at = at;
		uv_timer_start(&c->timer, on_timer, at > now ? at - now : 0, 0);
	}
}

static void on_closed(uv_handle_t *h)
{
	struct table_clock *c = h->data;
	if (--c->open_handles == 0)
		free(c);
}

void table_clock_free(table *t)
{
	struct table_clock *c = t->clock;
	if (!c)
		return;
	if (t->s.pacer)
		pacer_unlink(t);
	c->t = NULL;
	t->clock = NULL;
	uv_close((uv_handle_t *)&c->timer, on_closed);
	uv_close((uv_handle_t *)&c->idle, on_closed);
	uv_close((uv_handle_t *)&c->prepare, on_closed);
}

/* --- without a loop ------------------------------------------------------------ */

uint64_t table_next_wake(const table *t)
{
	uint64_t at;
	return round_wake(t, &at) == WAKE_NONE ? TABLE_NO_WAKE : at;
}

uint64_t table_advance(table *t, uint64_t now)
{
	if (!t->clock && now > t->now)
		t->now = now;
	round_advance(t);
	table_clock_sync(t);
	return table_next_wake(t);
}
