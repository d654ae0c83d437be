/*
 * table_render.c — what each viewer of a table is sent, written as text:
 * the round's updates (start, options, status, window, reveal, result)
 * rendered once per viewer class (each human seat, and the spectators when
 * someone watches) and handed to table_msg.c, which numbers, sends and
 * keeps them. The round engine (table_round.c) says when; this says what.
 *
 * Two savings live here (proto/table.md §3, §5.6): a seat's status changes
 * within one loop iteration go out as one `status` (table_clock.c's prepare
 * handle calls round_flush_status), and a seat whose player asked for
 * view_patch gets reveals with the changes to its view, while the whole
 * view is what the history keeps for resume.
 */
#include <stdio.h>
#include <string.h>

#include "../proto/json_out.h"
#include "../proto/view_patch.h"
#include "table_int.h"

static bool is_pending(const table *t, int seat) { return t->pending & (1u << seat); }

/* Each renderer writes one viewer's text of an update (update_text in
 * table_int.h: no tree but the kind's own parts, printed in place) to b,
 * and, when lean is not NULL, the seat's lean form of it to lean (an
 * update that has one, to a seat whose player asked for lean). */
typedef void (*render_fn)(table *t, int viewer, void *arg, buf *b, buf *lean);

static void render_options(table *t, int viewer, void *arg, buf *b, buf *lean);
static void render_window(table *t, int viewer, void *arg, buf *b, buf *lean);
static void render_status(table *t, int viewer, void *arg, buf *b, buf *lean);

/* One update rendered for the spectators and for each human seat; with
 * has_lean, also in its lean form for each seat whose player asked (the
 * caps are read only for such updates: not for each status). */
static void emit_rendered(table *t, render_fn f, void *arg, bool has_lean)
{
	/* A status still waiting for the end of the iteration: options and
	 * window carry every seat's status, so they stand for it; anything
	 * else follows it (emit sends it first). */
	if (f == render_options || f == render_window)
		t->status_dirty = false;
	if (!update_has_audience(t)) {
		update_skip(t);
		return;
	}
	/* The spectators' rendering only when someone watches: a seat's own
	 * is what its player gets, and resume snapshots a class not kept. */
	update_text u = {0};
	for (int i = 0; i < t->s.seats; i++)
		if (t->seats[i].kind == SEAT_HUMAN)
			f(t, i, arg, &u.r[1 + i],
			  has_lean && (update_seat_caps(t, i) & PROTO_CAP_LEAN) ? &u.p[i] : NULL);
	if (t->n_spec)
		f(t, -1, arg, &u.r[0], NULL);
	update_emit_text(t, &u);
}

/* ,"key":  (a field after the first) */
static void put_key(buf *b, const char *key)
{
	buf_append(b, ",", 1);
	json_put_string(b, key);
	buf_append(b, ":", 1);
}

/* A tree from the kind, printed and freed (NULL: null). */
static void put_tree(buf *b, cJSON *v)
{
	json_put_item(b, v);
	cJSON_Delete(v);
}

static void put_status(buf *b, const table *t)
{
	put_key(b, "status");
	for (int i = 0; i < t->s.seats; i++) {
		buf_append(b, i ? "," : "[", 1);
		json_put_string(b, table_status_name(t->seats[i].status));
	}
	buf_append(b, t->s.seats ? "]" : "[]", t->s.seats ? 1 : 2);
}

/* The events as viewer sees them, to b and, when lean is not NULL, to lean
 * too without those that only restate a choice (kind->restates_choice):
 * each event rendered once for both. */
static void put_events_lean(buf *b, buf *lean, const table *t, int viewer)
{
	const game_kind *k = t->s.kind;
	buf_append(b, "[", 1);
	if (lean)
		buf_append(lean, "[", 1);
	bool first = true, lean_first = true;
	for (size_t i = 0; i < t->evs.len; i++) {
		cJSON *e = k->event_json(t->game, &t->evs.v[i], viewer);
		if (!e)
			continue;
		if (!first)
			buf_append(b, ",", 1);
		first = false;
		size_t at = b->len;
		put_tree(b, e);
		if (lean && !(k->restates_choice && k->restates_choice(&t->evs.v[i]))) {
			if (!lean_first)
				buf_append(lean, ",", 1);
			lean_first = false;
			buf_append(lean, b->data + at, b->len - at);
		}
	}
	buf_append(b, "]", 1);
	if (lean)
		buf_append(lean, "]", 1);
}

static void put_events(buf *b, const table *t, int viewer) { put_events_lean(b, NULL, t, viewer); }

/* The kind's view for viewer; no field when it has none. */
static void put_view(buf *b, const table *t, int viewer)
{
	cJSON *v = table_view_json(t, viewer);
	if (v) {
		put_key(b, "view");
		put_tree(b, v);
	}
}

static void put_decision(buf *b, const table *t)
{
	put_key(b, "decision");
	json_put_int(b, (long long)t->decision);
}

/* The start to r whole, as resume sends it; its lean form without
 * `seats`: round_started sends the seats update right before it, always,
 * so a lean seat has them (and its seq no gap). */
static void render_start(table *t, int viewer, void *arg, buf *r, buf *p)
{
	(void)arg;
	update_head(r, t, "start");
	size_t head = r->len;
	put_key(r, "seats");
	put_tree(r, table_seats_json(t));
	size_t seats_end = r->len;
	put_key(r, "events");
	put_events(r, t, viewer);
	put_view(r, t, viewer);
	if (p) {
		buf_append(p, r->data, head);
		buf_append(p, r->data + seats_end, r->len - seats_end);
	}
}

static void put_own_choice(buf *b, const table *t, int viewer)
{
	if (viewer < 0 || !is_pending(t, viewer) || t->seats[viewer].choice == GAME_NO_CHOICE)
		return;
	cJSON *c = t->s.kind->choice_json(t->game, viewer, t->seats[viewer].choice);
	if (c) {
		put_key(b, "choice");
		put_tree(b, c);
	}
}

static void render_options(table *t, int viewer, void *arg, buf *b, buf *lean)
{
	(void)arg, (void)lean;
	update_head(b, t, "options");
	put_decision(b, t);
	put_key(b, "pending");
	buf_append(b, "[", 1);
	bool first = true;
	for (int i = 0; i < t->s.seats; i++)
		if (is_pending(t, i)) {
			if (!first)
				buf_append(b, ",", 1);
			first = false;
			json_put_int(b, i);
		}
	buf_append(b, "]", 1);
	put_key(b, "deadline");
	if (t->deadline_at)
		json_put_int(b, round_ms_left(t, t->deadline_at));
	else
		buf_puts(b, "null");
	put_status(b, t);
	if (viewer >= 0 && is_pending(t, viewer)) {
		put_key(b, "seat");
		json_put_int(b, viewer);
		cJSON *o = t->s.kind->options_json(t->game, viewer);
		if (o) {
			put_key(b, "options");
			put_tree(b, o);
		}
		put_own_choice(b, t, viewer);
	}
}

static void render_status(table *t, int viewer, void *arg, buf *b, buf *lean)
{
	(void)arg, (void)lean;
	update_head(b, t, "status");
	put_decision(b, t);
	put_status(b, t);
	put_own_choice(b, t, viewer);
}

static void render_window(table *t, int viewer, void *arg, buf *b, buf *lean)
{
	(void)arg, (void)lean;
	update_head(b, t, "window");
	put_decision(b, t);
	put_key(b, "closes_in_ms");
	json_put_int(b, round_ms_left(t, t->window_at));
	put_status(b, t);
	put_own_choice(b, t, viewer);
}

/* A reveal up to its events: the choices' text (written before the set
 * was applied) and the events as viewer sees them; to r whole, as resume
 * sends it, and, when p is not NULL, to p as the seat's caps ask (lean:
 * the choices' lean text, no event that restates a choice). */
static void reveal_head(table *t, int viewer, const reveal_prep *rp, uint32_t caps, buf *r,
			buf *p)
{
	update_head(r, t, "reveal");
	put_decision(r, t);
	put_key(r, "choices");
	buf_append(r, rp->choices.data, rp->choices.len);
	put_key(r, "events");
	bool lean = p && (caps & PROTO_CAP_LEAN);
	if (lean) {
		update_head(p, t, "reveal");
		put_decision(p, t);
		put_key(p, "choices");
		buf_append(p, rp->choices_lean.data, rp->choices_lean.len);
		put_key(p, "events");
	}
	put_events_lean(r, lean ? p : NULL, t, viewer);
	if (p && !lean)
		buf_append(p, r->data, r->len);
}

static void put_t_close(buf *b, const table *t)
{
	put_key(b, "t_close_us");
	json_put_int(b, (long long)t->t_close_us);
}

/* The reveal as sent without caps (spectators, and what resume keeps). */
static void render_reveal(table *t, int viewer, const reveal_prep *rp, buf *r)
{
	reveal_head(t, viewer, rp, 0, r, NULL);
	put_view(r, t, viewer);
	put_t_close(r, t);
}

/* A reveal to a seat whose player asked for caps that change it
 * (update_text.p): r gets it whole, as resume sends it; p as the caps ask.
 * view_patch: p has the changes from the seat's view before the decision,
 * which is the view its player holds (from the last reveal, the start or
 * a snapshot: seq has no gap, else the client resyncs). lean: p leaves out
 * what it would say twice, and t_close_us unless timing is asked too. */
static void render_reveal_for_caps(table *t, int viewer, const reveal_prep *rp, uint32_t caps,
				   buf *r, buf *p)
{
	reveal_head(t, viewer, rp, caps, r, p);
	cJSON *v = table_view_json(t, viewer);
	if (v && rp->before[viewer]) {
		put_key(r, "view");
		put_key(p, "view_patch");
		view_patch_write(p, r, rp->before[viewer], v); /* the view whole to r on the way */
		cJSON_Delete(v);
	} else if (v) {
		put_key(r, "view");
		size_t at = r->len;
		put_tree(r, v);
		put_key(p, "view");
		buf_append(p, r->data + at, r->len - at);
	}
	put_t_close(r, t);
	if (!(caps & PROTO_CAP_LEAN) || (caps & PROTO_CAP_TIMING))
		put_t_close(p, t);
}

/* The caps that change a reveal. */
#define REVEAL_CAPS (PROTO_CAP_VIEW_PATCH | PROTO_CAP_LEAN)

void render_reveal_prepare(table *t, reveal_prep *r)
{
	memset(r, 0, sizeof *r);
	/* The views the patched reveals are written against: each such seat's
	 * view now, before the set is applied. */
	for (int i = 0; i < t->s.seats; i++) {
		r->caps[i] = update_seat_caps(t, i);
		if (r->caps[i] & PROTO_CAP_VIEW_PATCH)
			r->before[i] = table_view_json(t, i);
	}
	/* The choices' text, the same for every viewer: whole, and lean (`ai`
	 * only when true). */
	const game_kind *k = t->s.kind;
	buf *b = &r->choices, *lean = &r->choices_lean;
	buf_append(b, "[", 1);
	buf_append(lean, "[", 1);
	bool first = true;
	for (int i = 0; i < t->s.seats; i++) {
		if (t->commit[i] == GAME_NO_CHOICE)
			continue;
		size_t at = b->len;
		buf_puts(b, first ? "{\"seat\":" : ",{\"seat\":");
		first = false;
		json_put_int(b, i);
		cJSON *c = k->choice_json(t->game, i, t->commit[i]);
		if (c) {
			put_key(b, "choice");
			put_tree(b, c);
		}
		buf_append(lean, b->data + at, b->len - at);
		bool ai = (t->commit_ai >> i) & 1;
		put_key(b, "ai");
		buf_puts(b, ai ? "true}" : "false}");
		buf_puts(lean, ai ? ",\"ai\":true}" : "}");
	}
	buf_append(b, "]", 1);
	buf_append(lean, "]", 1);
}

void render_reveal_free(table *t, reveal_prep *r)
{
	for (int i = 0; i < t->s.seats; i++)
		cJSON_Delete(r->before[i]);
	buf_free(&r->choices);
	buf_free(&r->choices_lean);
	memset(r, 0, sizeof *r);
}

void render_emit_reveal(table *t, reveal_prep *r)
{
	if (!update_has_audience(t)) {
		update_skip(t);
	} else {
		update_text u = {0};
		for (int i = 0; i < t->s.seats; i++) {
			if (t->seats[i].kind != SEAT_HUMAN)
				continue;
			if (r->caps[i] & REVEAL_CAPS)
				render_reveal_for_caps(t, i, r, r->caps[i], &u.r[1 + i], &u.p[i]);
			else
				render_reveal(t, i, r, &u.r[1 + i]);
		}
		if (t->n_spec)
			render_reveal(t, -1, r, &u.r[0]);
		update_emit_text(t, &u);
	}
	render_reveal_free(t, r);
}

/* The `result` update; without its `result` (lean: the view has it). */
static void put_result(const table *t, bool with_result, buf *b)
{
	update_head(b, t, "result");
	put_key(b, "decisions");
	json_put_int(b, (long long)t->decision);
	if (with_result) {
		put_key(b, "result");
		json_put_item(b, t->result);
	}
	char s[24];
	snprintf(s, sizeof s, "%llu", (unsigned long long)t->seed);
	put_key(b, "seed");
	json_put_string(b, s);
}

/* Whole to every viewer (and for resume); its lean form has no `result`
 * when the kind's view carries it: the view the seat holds, the last
 * reveal's (or the start's), shows t->result (table_view_json). */
static void render_result(table *t, int viewer, void *arg, buf *b, buf *lean)
{
	(void)viewer, (void)arg;
	put_result(t, true, b);
	if (lean && t->result && t->s.kind->over_view_has_result)
		put_result(t, false, lean);
}

/* A seat's status changed. On a loop the `status` update waits for the
 * end of the loop's iteration (table_clock_flush_soon), so the changes of
 * one iteration go out as one update: round_flush_status. Without a loop
 * (a table driven by hand) it goes at once. */
void render_status_changed(table *t)
{
	if (!t->clock) {
		emit_rendered(t, render_status, NULL, false);
		return;
	}
	t->status_dirty = true;
	table_clock_flush_soon(t);
}

void round_flush_status(table *t)
{
	if (!t->status_dirty)
		return;
	t->status_dirty = false;
	emit_rendered(t, render_status, NULL, false);
}

void render_emit_start(table *t) { emit_rendered(t, render_start, NULL, true); }
void render_emit_options(table *t) { emit_rendered(t, render_options, NULL, false); }
void render_emit_window(table *t) { emit_rendered(t, render_window, NULL, false); }
void render_emit_result(table *t) { emit_rendered(t, render_result, NULL, true); }
