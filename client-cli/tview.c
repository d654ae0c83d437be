/*
 * tview.c — the table model (see tview.h). Tolerant by design: the protocol
 * may add fields and update types within version 1, so unknown ones are
 * ignored and every field is read only when it has the expected JSON type.
 * A reveal's view comes whole or as view_patch (lsess.c asks for it).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "../proto/proto_msg.h"
#include "../proto/view_patch.h"
#include "tview.h"

void tv_init(struct tv *tv)
{
	memset(tv, 0, sizeof *tv);
	tv->seat = -1;
	tv->chosen = -1;
}

void tv_free(struct tv *tv)
{
	cJSON_Delete(tv->seats);
	cJSON_Delete(tv->view);
	cJSON_Delete(tv->options);
	cJSON_Delete(tv->reveal);
	cJSON_Delete(tv->result);
	tv_init(tv);
}

void tv_log(struct tv *tv, const char *fmt, ...)
{
	if (tv->log_len == TV_LOG) {
		memmove(tv->log[0], tv->log[1], sizeof tv->log[0] * (TV_LOG - 1));
		tv->log_len--;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tv->log[tv->log_len], sizeof tv->log[0], fmt, ap);
	va_end(ap);
	tv->log_len++;
}

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* A count of milliseconds the server gives (deadline, window): at most a
 * day; anything else (a fraction, 1e300, a string) reads as absent. */
#define TV_MS_MAX (24LL * 3600 * 1000)

/* An integer the server sends, in [lo, hi]; else false (treated as absent). */
static bool jint(const cJSON *v, int64_t lo, int64_t hi, int64_t *out)
{
	return proto_json_int(v, lo, hi, out);
}

static void replace(cJSON **slot, const cJSON *v)
{
	cJSON_Delete(*slot);
	*slot = v ? cJSON_Duplicate(v, 1) : NULL;
}

static void copy_str(char *dst, size_t n, const cJSON *v)
{
	if (cJSON_IsString(v))
		strlcpy_safe(dst, v->valuestring, n);
}

/* Seat statuses from an array of strings, or of objects with "status". */
static void take_statuses(struct tv *tv, const cJSON *arr)
{
	int i = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
	{
		if (i >= TV_MAX_SEATS)
			break;
		const cJSON *s = cJSON_IsString(it) ? it : get(it, "status");
		if (cJSON_IsString(s))
			strlcpy_safe(tv->status[i], s->valuestring, sizeof tv->status[i]);
		i++;
	}
}

static void take_seats(struct tv *tv, const cJSON *seats)
{
	if (!cJSON_IsArray(seats))
		return;
	replace(&tv->seats, seats);
	tv->n_seats = MIN(cJSON_GetArraySize(seats), TV_MAX_SEATS);
	take_statuses(tv, seats);
}

static void take_options(struct tv *tv, const cJSON *m, uint64_t now)
{
	const cJSON *opts = get(m, "options");
	replace(&tv->options, cJSON_IsArray(opts) ? opts : NULL);
	tv->chosen = -1;
	int64_t v;
	if (jint(get(m, "decision"), 0, TV_ID_MAX, &v))
		tv->decision = v;
	tv->deadline_at = jint(get(m, "deadline"), 1, TV_MS_MAX, &v) ? now + (uint64_t)v : 0;
	tv->window_at = 0;
}

/* Monte: swaps as [[a,b],...] or the packed form of gems.h (2 bits each). */
static int take_monte(struct tv *tv, const cJSON *ev)
{
	const cJSON *sw = get(ev, "swaps");
	tv->monte_n = 0;
	if (cJSON_IsArray(sw)) {
		const cJSON *it;
		cJSON_ArrayForEach(it, sw)
		{
			if (tv->monte_n >= 16)
				break;
			int64_t a, b;
			if (jint(cJSON_GetArrayItem(it, 0), 0, 2, &a) &&
			    jint(cJSON_GetArrayItem(it, 1), 0, 2, &b)) {
				tv->monte_swaps[tv->monte_n][0] = (int)a;
				tv->monte_swaps[tv->monte_n][1] = (int)b;
				tv->monte_n++;
			}
		}
	}
	const cJSON *cards = get(ev, "cards");
	for (int i = 0; i < 3; i++) {
		const cJSON *c = cJSON_GetArrayItem(cards, i);
		const cJSON *v = cJSON_IsObject(c) ? get(c, "value") : c;
		/* Absent values: the first Monte's cards (2, 1, push 0). */
		int64_t x;
		tv->monte_cards[i] = jint(v, -1000, 1000, &x) ? (int)x : 2 - i;
	}
	return tv->monte_n > 0;
}

static int take_events(struct tv *tv, const cJSON *evs, tv_event_fn ev_fn)
{
	int flags = 0;
	const cJSON *ev;
	cJSON_ArrayForEach(ev, evs)
	{
		const cJSON *ty = get(ev, "type");
		if (!cJSON_IsString(ty))
			ty = get(ev, "event");
		if (cJSON_IsString(ty) && strstr(ty->valuestring, "monte") &&
		    cJSON_IsArray(get(ev, "swaps")) && take_monte(tv, ev))
			flags |= TV_MONTE;
		char line[TV_LOG_W + 1];
		if (ev_fn && ev_fn(ev, tv, line, sizeof line))
			tv_log(tv, "%s", line);
	}
	return flags;
}

/* Our current choice (the "choice" member: "stay" or {id}) as an option index. */
static void take_own_choice(struct tv *tv, const cJSON *m)
{
	const cJSON *c = get(m, "choice");
	if (cJSON_IsObject(c))
		c = get(c, "id");
	if (!cJSON_IsString(c))
		return;
	for (int i = 0; i < tv_n_options(tv); i++) {
		const char *k = tv_option_key(tv, i);
		if (k && strcmp(k, c->valuestring) == 0)
			tv->chosen = i;
	}
}

static void take_result(struct tv *tv, const cJSON *r)
{
	if (!cJSON_IsObject(r))
		return;
	replace(&tv->result, r);
	replace(&tv->options, NULL);
	tv->chosen = -1;
	tv->deadline_at = tv->window_at = 0;
	strlcpy_safe(tv->state, "finished", sizeof tv->state);
}

/* The "game" object of a snapshot: decision, deadline, window, status,
 * options (ours), choice (ours) and the view. */
static int take_game(struct tv *tv, const cJSON *g, uint64_t now)
{
	int flags = 0;
	if (!cJSON_IsObject(g))
		return 0;
	take_options(tv, g, now);
	if (tv->options)
		flags |= TV_OPTIONS;
	take_own_choice(tv, g);
	int64_t w;
	if (jint(get(g, "closes_in_ms"), 0, TV_MS_MAX, &w))
		tv->window_at = now + (uint64_t)w;
	if (cJSON_IsArray(get(g, "status")))
		take_statuses(tv, get(g, "status"));
	if (get(g, "view"))
		replace(&tv->view, get(g, "view"));
	return flags;
}

int tv_apply(struct tv *tv, const cJSON *m, uint64_t now, tv_event_fn ev_fn)
{
	const cJSON *ty = get(m, "type"), *tab = get(m, "table"), *seq = get(m, "seq");
	if (!cJSON_IsString(ty))
		return 0;
	const char *type = ty->valuestring;
	int is_snapshot = strcmp(type, "table") == 0;
	int64_t tid, s;
	int has_tid = jint(tab, 1, TV_ID_MAX, &tid);
	if (tab && !has_tid)
		return 0; /* a table id we cannot read: not ours to fold */
	if (has_tid && tv->table && tid != tv->table)
		return 0;
	if (is_snapshot && has_tid)
		tv->table = tid;
	int flags = TV_CHANGED;
	if (jint(seq, 0, TV_ID_MAX, &s)) {
		if (!is_snapshot && tv->seq > 0) {
			if (s <= tv->seq)
				return 0; /* already seen (a resume may resend) */
			/* A gap: not folded; table_sync since tv->seq resends it
			 * after the missing ones (or a snapshot). */
			if (s > tv->seq + 1)
				return TV_GAP;
		}
	}
	/* A reveal with view_patch (we ask for it in hello): the changes to
	 * the view we hold. One that does not apply (no view yet, a broken
	 * patch) is not folded: like a gap, table_sync resends it, whole
	 * (a resume always sends whole views) or as a snapshot. */
	const cJSON *vp = get(m, "view_patch");
	if (vp && !is_snapshot && (!tv->view || !view_patch_apply(&tv->view, vp)))
		return TV_GAP;
	if (jint(seq, 0, TV_ID_MAX, &s))
		tv->seq = s;
	copy_str(tv->state, sizeof tv->state, get(m, "state"));
	take_seats(tv, get(m, "seats"));
	const cJSON *st = get(m, "status");
	if (cJSON_IsArray(st))
		take_statuses(tv, st);
	if (get(m, "view"))
		replace(&tv->view, get(m, "view"));
	const cJSON *evs = get(m, "events");
	if (cJSON_IsArray(evs))
		flags |= take_events(tv, evs, ev_fn);

	if (is_snapshot) {
		const cJSON *you = get(m, "you");
		if (!you)
			you = get(m, "seat");
		int64_t y;
		tv->seat = jint(you, 0, TV_MAX_SEATS - 1, &y) ? (int)y : -1;
		copy_str(tv->kind, sizeof tv->kind, get(m, "kind"));
		copy_str(tv->name, sizeof tv->name, get(m, "name"));
		replace(&tv->options, NULL);
		tv->deadline_at = tv->window_at = 0;
		tv->chosen = -1;
		cJSON_Delete(tv->result);
		tv->result = NULL;
		flags |= take_game(tv, get(m, "game"), now);
		if (get(m, "result")) {
			take_result(tv, get(m, "result"));
			flags |= TV_RESULT;
		}
	} else if (strcmp(type, "options") == 0) {
		take_options(tv, m, now);
		take_own_choice(tv, m);
		if (tv->options)
			flags |= TV_OPTIONS;
	} else if (strcmp(type, "status") == 0) {
		take_own_choice(tv, m);
	} else if (strcmp(type, "window") == 0) {
		int64_t c;
		tv->window_at = now + (jint(get(m, "closes_in_ms"), 0, TV_MS_MAX, &c) ? (uint64_t)c
										: 1000);
		take_own_choice(tv, m);
	} else if (strcmp(type, "reveal") == 0) {
		replace(&tv->reveal, m);
		replace(&tv->options, NULL);
		tv->deadline_at = tv->window_at = 0;
		tv->chosen = -1;
		flags |= TV_REVEAL;
	} else if (strcmp(type, "start") == 0) {
		strlcpy_safe(tv->state, "playing", sizeof tv->state);
		cJSON_Delete(tv->result);
		tv->result = NULL;
		cJSON_Delete(tv->reveal);
		tv->reveal = NULL;
	} else if (strcmp(type, "result") == 0) {
		/* lean (we ask for it): no `result` when our view has it */
		const cJSON *r = get(m, "result");
		take_result(tv, r ? r : tv->view ? get(tv->view, "result") : NULL);
		flags |= TV_RESULT;
	} else if (strcmp(type, "table_closed") == 0) {
		tv->closed = 1;
		flags |= TV_CLOSED;
	}
	return flags;
}

int tv_n_options(const struct tv *tv)
{
	return tv->options ? cJSON_GetArraySize(tv->options) : 0;
}

static const cJSON *option_at(const struct tv *tv, int i)
{
	return tv->options ? cJSON_GetArrayItem(tv->options, i) : NULL;
}

const char *tv_option_key(const struct tv *tv, int i)
{
	const cJSON *o = option_at(tv, i);
	if (cJSON_IsString(o))
		return o->valuestring;
	const char *names[] = {"id", "choice", "key"};
	for (size_t k = 0; k < ARRAY_LEN(names); k++) {
		const cJSON *v = get(o, names[k]);
		if (cJSON_IsString(v))
			return v->valuestring;
	}
	return NULL;
}

const char *tv_option_label(const struct tv *tv, int i)
{
	const cJSON *v = get(option_at(tv, i), "label");
	if (cJSON_IsString(v))
		return v->valuestring;
	const char *k = tv_option_key(tv, i);
	return k ? k : "?";
}

const cJSON *tv_option_choice(const struct tv *tv, int i)
{
	const cJSON *o = option_at(tv, i);
	if (cJSON_IsObject(o)) {
		/* gems.md: answer with the option's id as a string. */
		const cJSON *c = get(o, "id");
		if (c)
			return c;
		c = get(o, "choice");
		if (c)
			return c;
	}
	return o;
}

const char *tv_seat_name(const struct tv *tv, int i, char *tmp, size_t tmp_len)
{
	const cJSON *s = tv->seats ? cJSON_GetArrayItem(tv->seats, i) : NULL;
	const cJSON *n = get(s, "name");
	if (cJSON_IsString(n) && *n->valuestring)
		return n->valuestring;
	if (tv_seat_is_ai(tv, i)) {
		snprintf(tmp, tmp_len, "AI %d", i + 1);
		return tmp;
	}
	return "(free)";
}

int tv_seat_is_ai(const struct tv *tv, int i)
{
	const cJSON *s = tv->seats ? cJSON_GetArrayItem(tv->seats, i) : NULL;
	const cJSON *k = get(s, "kind");
	return cJSON_IsString(k) && strcmp(k->valuestring, "ai") == 0;
}
