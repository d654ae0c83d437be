/*
 * table_msg.c — how a table speaks: every update gets the table's next
 * sequence number, is rendered once per viewer class (each seat, and the
 * spectators), sent to the players of that class through host->send, and
 * kept in a bounded history so a resuming player can be sent exactly what
 * it missed. Message shapes are documented in proto/table.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "../proto/json_out.h"
#include "table_int.h"

#define HIST_MAX_DEFAULT 64
#define HIST_BYTES_DEFAULT (48 * 1024)

cJSON *update_new(const table *t, const char *type)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "type", type);
	cJSON_AddNumberToObject(m, "table", (double)t->s.id);
	return m;
}

/* A kind's view cannot know which seats the AI plays (table state): an over
 * view's result is rendered here with the table's AI mask, so it is the
 * `result` message's own (skynet, games_with_ais). Once the game has ended
 * (finish: the record on its way, or written) that is t->result, fixed
 * then: a seat changing hands while the record is written does not change
 * the result a view shows (a lean seat takes the result from its view). */
cJSON *table_view_json(const table *t, int viewer)
{
	const game_kind *k = t->s.kind;
	cJSON *v = k->view(t->game, viewer);
	if (!v || !k->is_over(t->game) || !cJSON_GetObjectItemCaseSensitive(v, "result"))
		return v;
	bool ended = t->state == TABLE_FINISHED || t->phase == PH_RECORD;
	cJSON *r = ended && t->result ? cJSON_Duplicate(t->result, 1)
				      : k->result_json(t->game, table_ai_mask(t));
	cJSON_ReplaceItemInObjectCaseSensitive(v, "result", r ? r : cJSON_CreateNull());
	return v;
}

bool update_has_audience(const table *t)
{
	if (t->n_spec)
		return true;
	for (int i = 0; i < t->s.seats; i++)
		if (t->seats[i].kind == SEAT_HUMAN)
			return true;
	return false;
}

static void hist_entry_free(struct table_hist *h)
{
	free(h->block);
	memset(h, 0, sizeof *h);
}

void update_history_free(table *t)
{
	for (int i = 0; i < t->h_len; i++)
		hist_entry_free(&t->hist[(t->h_first + i) % t->h_cap]);
	t->h_first = t->h_len = 0;
	t->h_bytes = 0;
}

void update_skip(table *t)
{
	/* Nobody listens: the update is not built, but its seq is used, and the
	 * history no longer covers it (a later resume gets a snapshot). */
	t->seq++;
	update_history_free(t);
}

static void hist_drop_oldest(table *t)
{
	struct table_hist *h = &t->hist[t->h_first];
	t->h_bytes -= h->bytes;
	hist_entry_free(h);
	t->h_first = (t->h_first + 1) % t->h_cap;
	t->h_len--;
}

static void hist_push(table *t, struct table_hist *e)
{
	int max = t->s.history_max > 0 ? t->s.history_max : HIST_MAX_DEFAULT;
	size_t max_bytes = t->s.history_bytes ? t->s.history_bytes : HIST_BYTES_DEFAULT;
	if (!t->hist) {
		t->h_cap = max;
		t->hist = xcalloc((size_t)t->h_cap, sizeof *t->hist);
	}
	while (t->h_len > 0 && (t->h_len == t->h_cap || t->h_bytes + e->bytes > max_bytes))
		hist_drop_oldest(t);
	if (e->bytes > max_bytes) { /* too big to keep: resume will snapshot */
		hist_entry_free(e);
		return;
	}
	t->hist[(t->h_first + t->h_len) % t->h_cap] = *e;
	t->h_len++;
	t->h_bytes += e->bytes;
}

static void send_len(table *t, uint64_t player, const char *s, size_t len)
{
	if (player)
		t->host.send(t->host.ud, player, s, len);
}

static void send_str(table *t, uint64_t player, const char *s)
{
	send_len(t, player, s, strlen(s));
}

void update_head(buf *b, const table *t, const char *type)
{
	buf_puts(b, "{\"type\":");
	json_put_string(b, type);
	buf_puts(b, ",\"table\":");
	json_put_int(b, (long long)t->s.id);
}

/* A tree's text without its closing brace, as the renderers write it. */
static void tree_text(cJSON *m, buf *b)
{
	if (!m)
		return;
	json_put_item(b, m);
	b->data[--b->len] = 0;
	cJSON_Delete(m);
}

/* quiet: a player this update is not sent to (0: none); it is held for
 * resume all the same. Frees u's buffers. */
static void emit(table *t, update_text *u, uint64_t quiet)
{
	/* A status change waiting for the end of the iteration goes first:
	 * updates keep the order of what happened. */
	if (t->status_dirty)
		round_flush_status(t);
	struct table_hist e = {.seq = ++t->seq};
	char seq[32];
	int sl = snprintf(seq, sizeof seq, ",\"seq\":%llu}", (unsigned long long)e.seq);
	for (int i = 0; i < GAME_MAX_SEATS + 1; i++) {
		if (i > t->s.seats || !u->r[i].len)
			continue;
		buf_append(&u->r[i], seq, (size_t)sl);
		e.bytes += u->r[i].len + 1;
		if (i && u->p[i - 1].len)
			buf_append(&u->p[i - 1], seq, (size_t)sl);
	}
	if (!e.bytes) {
		t->seq--; /* nothing rendered: no update */
		update_text_free(u);
		return;
	}
	e.block = xmalloc(e.bytes);
	char *p = e.block;
	size_t len[GAME_MAX_SEATS + 1] = {0};
	for (int i = 0; i < GAME_MAX_SEATS + 1; i++) {
		if (i > t->s.seats || !u->r[i].len)
			continue;
		len[i] = u->r[i].len;
		memcpy(p, u->r[i].data, len[i] + 1);
		if (i == 0)
			e.all = p;
		else
			e.seat[i - 1] = p;
		p += len[i] + 1;
	}
	/* Sent with the lengths known from rendering (a reveal is kilobytes,
	 * sent to every seat). */
	for (int i = 0; i < t->s.seats; i++) {
		if (t->seats[i].kind != SEAT_HUMAN || !(e.seat[i] || e.all) ||
		    t->seats[i].player == quiet)
			continue;
		if (e.seat[i] && u->p[i].len)
			send_len(t, t->seats[i].player, u->p[i].data, u->p[i].len);
		else
			send_len(t, t->seats[i].player, e.seat[i] ? e.seat[i] : e.all,
				 e.seat[i] ? len[1 + i] : len[0]);
	}
	update_text_free(u);
	for (int i = 0; e.all && i < t->n_spec; i++)
		if (t->spec[i].player != quiet)
			send_len(t, t->spec[i].player, e.all, len[0]);
	hist_push(t, &e);
}

void update_text_free(update_text *u)
{
	for (int i = 0; i < GAME_MAX_SEATS + 1; i++)
		buf_free(&u->r[i]);
	for (int i = 0; i < GAME_MAX_SEATS; i++)
		buf_free(&u->p[i]);
}

uint32_t update_seat_caps(const table *t, int seat)
{
	const struct table_seat *st = &t->seats[seat];
	return st->kind == SEAT_HUMAN && st->player && t->host.caps
		       ? t->host.caps(t->host.ud, st->player)
		       : 0;
}

void update_emit_text(table *t, update_text *u) { emit(t, u, 0); }

void update_emit(table *t, cJSON *all, cJSON **per_seat)
{
	update_text u = {0};
	tree_text(all, &u.r[0]);
	for (int i = 0; per_seat && i < t->s.seats; i++) {
		tree_text(per_seat[i], &u.r[1 + i]);
		per_seat[i] = NULL;
	}
	emit(t, &u, 0);
}

void table_send_json(table *t, uint64_t player, cJSON *msg)
{
	size_t len;
	char *s = json_print(msg, &len);
	send_len(t, player, s, len);
	free(s);
	cJSON_Delete(msg);
}

cJSON *table_pending_json(uint32_t pending, int seats)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < seats; i++)
		if (pending & (1u << i))
			cJSON_AddItemToArray(a, cJSON_CreateNumber(i));
	return a;
}

static const char *seat_kind_name(enum table_seat_kind k)
{
	return k == SEAT_HUMAN ? "human" : k == SEAT_AI ? "ai" : "empty";
}

cJSON *table_seats_json(const table *t)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < t->s.seats; i++) {
		const struct table_seat *st = &t->seats[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "seat", i);
		cJSON_AddStringToObject(o, "kind", seat_kind_name(st->kind));
		if (st->kind == SEAT_HUMAN) {
			cJSON_AddNumberToObject(o, "player", (double)st->player);
			cJSON_AddStringToObject(o, "name", st->name);
			cJSON_AddBoolToObject(o, "connected", st->connected);
			cJSON_AddBoolToObject(o, "away", st->away);
		} else {
			cJSON_AddNullToObject(o, "player");
			cJSON_AddNullToObject(o, "name");
		}
		cJSON_AddStringToObject(o, "status", table_status_name(st->status));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

cJSON *table_status_json(const table *t)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < t->s.seats; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(table_status_name(t->seats[i].status)));
	return a;
}

void update_emit_seats(table *t, uint64_t quiet)
{
	if (!update_has_audience(t)) {
		update_skip(t);
		return;
	}
	cJSON *m = update_new(t, "seats");
	cJSON_AddStringToObject(m, "state", table_state_name(t->state));
	cJSON_AddNumberToObject(m, "host", (double)t->s.host);
	cJSON_AddItemToObject(m, "seats", table_seats_json(t));
	cJSON_AddNumberToObject(m, "spectators", t->n_spec);
	update_text u = {0};
	tree_text(m, &u.r[0]);
	emit(t, &u, quiet);
}

static int player_class(const table *t, uint64_t player)
{
	int seat = table_seat_of(t, player);
	return seat; /* -1: spectator class */
}

enum table_err table_resume(table *t, uint64_t player, uint64_t since, bool *snapshot)
{
	if (snapshot)
		*snapshot = false;
	if (!table_has_member(t, player))
		return TABLE_ERR_NOT_SEATED;
	if (since == t->seq)
		return TABLE_OK;
	bool have = since > t->resume_floor && since < t->seq && t->h_len > 0 &&
		    t->hist[t->h_first].seq <= since + 1;
	if (!have) {
		if (snapshot)
			*snapshot = true;
		table_send_json(t, player, table_snapshot_json(t, player));
		return TABLE_OK;
	}
	int cls = player_class(t, player);
	/* Every missed update must be held for this viewer class (a class
	 * nobody was in may not have been rendered): else a snapshot. */
	bool all_held = true;
	for (int i = 0; i < t->h_len && all_held; i++) {
		const struct table_hist *h = &t->hist[(t->h_first + i) % t->h_cap];
		all_held = h->seq <= since || (cls >= 0 && h->seat[cls]) || h->all;
	}
	if (!all_held) {
		if (snapshot)
			*snapshot = true;
		table_send_json(t, player, table_snapshot_json(t, player));
		return TABLE_OK;
	}
	for (int i = 0; i < t->h_len; i++) {
		const struct table_hist *h = &t->hist[(t->h_first + i) % t->h_cap];
		if (h->seq <= since)
			continue;
		send_str(t, player, cls >= 0 && h->seat[cls] ? h->seat[cls] : h->all);
	}
	return TABLE_OK;
}
