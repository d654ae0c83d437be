/*
 * fuzz_client.c — the client fuzz target (fuzz.h): any bytes as what a
 * server (a hostile one, or a man in the middle of a plain ws:// link)
 * sends `lair play`, through the same code: the frames are decoded
 * (proto_decode_server), table messages folded into the table model
 * (tview.h) as play.c does, and the kind's screen drawn (view.h); key
 * presses go to the kind's option keys or choice form.
 *
 * Byte layout: lines (split at '\n'). A line that starts with '{' is one
 * server frame (the seeds in corpus/client are recorded games); any other
 * line is key presses, one byte each.
 *
 * Invariants: nothing crashes, leaks or reads out of bounds (ASan+UBSan);
 * the model stays within its arrays (seats, statuses, log lines, Monte
 * swaps, strings terminated), its chosen option is one of its options,
 * an update never moves seq back; every screen row fits the 80 columns;
 * a key maps to an option the model holds, and a choice form makes a
 * choice JSON can carry.
 */
#include "fuzz.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../../client-cli/screen.h"
#include "../../client-cli/lsess.h"
#include "../../client-cli/tview.h"
#include "../../client-cli/view.h"
#include "../../common/util.h"
#include "../../proto/proto_msg.h"

#define MAX_LINES 400 /* bounds a run; frames are the costly part */

typedef struct client {
	struct tv tv;
	struct view_ui ui;
	char notice[256];
	struct scr scr;
} client;

static bool terminated(const char *s, size_t size) { return memchr(s, 0, size) != NULL; }

/* The model stays within its arrays and agrees with itself. */
static void check_model(const struct tv *tv)
{
	FUZZ_CHECK(tv->n_seats >= 0 && tv->n_seats <= TV_MAX_SEATS, "n_seats %d", tv->n_seats);
	FUZZ_CHECK(tv->seat >= -1 && tv->seat < TV_MAX_SEATS, "seat %d", tv->seat);
	FUZZ_CHECK(terminated(tv->kind, sizeof tv->kind) && terminated(tv->state, sizeof tv->state)
		   && terminated(tv->name, sizeof tv->name), "unterminated kind, state or name");
	for (int i = 0; i < TV_MAX_SEATS; i++)
		FUZZ_CHECK(terminated(tv->status[i], sizeof tv->status[i]), "status %d", i);
	FUZZ_CHECK(tv->log_len >= 0 && tv->log_len <= TV_LOG, "log_len %d", tv->log_len);
	for (int i = 0; i < tv->log_len; i++)
		FUZZ_CHECK(strlen(tv->log[i]) <= TV_LOG_W, "log line %d: %zu bytes", i,
			   strlen(tv->log[i]));
	int n = tv_n_options(tv);
	FUZZ_CHECK(n >= 0 && tv->chosen >= -1 && tv->chosen < (n > 0 ? n : 1),
		   "chosen %d of %d options", tv->chosen, n);
	FUZZ_CHECK(tv->chosen < 0 || n > 0, "chosen %d without options", tv->chosen);
	for (int i = 0; i < n; i++) {
		tv_option_key(tv, i);
		const char *label = tv_option_label(tv, i);
		FUZZ_CHECK(!label || terminated(label, 1 << 20), "label %d", i);
	}
	FUZZ_CHECK(tv->monte_n >= 0 && tv->monte_n <= 16, "monte_n %d", tv->monte_n);
	for (int i = 0; i < tv->monte_n; i++)
		FUZZ_CHECK(tv->monte_swaps[i][0] >= 0 && tv->monte_swaps[i][0] <= 2 &&
			   tv->monte_swaps[i][1] >= 0 && tv->monte_swaps[i][1] <= 2,
			   "Monte swap %d: %d %d", i, tv->monte_swaps[i][0], tv->monte_swaps[i][1]);
	char tmp[64];
	for (int i = 0; i < tv->n_seats; i++) {
		const char *name = tv_seat_name(tv, i, tmp, sizeof tmp);
		FUZZ_CHECK(name, "seat %d has no name to show", i);
		tv_seat_is_ai(tv, i);
	}
}

/* The screen play.c draws for the model: every row within 80 columns. */
static void draw(client *c)
{
	c->ui.notice = c->notice[0] ? c->notice : NULL;
	scr_clear(&c->scr);
	kind_view_find(c->tv.kind)->draw(&c->scr, &c->tv, &c->ui);
	for (int r = 0; r < SCR_H; r++) {
		size_t w = strlen(scr_row(&c->scr, r));
		FUZZ_CHECK(w <= SCR_W, "row %d is %zu bytes wide", r, w);
	}
}

/* One frame, dispatched as play.c's on_message and on_table do. */
static void frame(client *c, const char *text, size_t len)
{
	const char *type = NULL;
	proto_error e;
	cJSON *m = proto_decode_server(text, len, &type, &e);
	if (!m) {
		FUZZ_CHECK(e.code != PROTO_OK && e.message[0], "frame refused without a reason");
		return;
	}
	FUZZ_CHECK(type && cJSON_IsObject(m), "frame accepted without a type");
	c->ui.now += 250;
	if (!strcmp(type, "error")) {
		lsess_error_text(m, c->notice, sizeof c->notice);
		FUZZ_CHECK(terminated(c->notice, sizeof c->notice), "error text");
	} else if (!strcmp(type, "chat")) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(m, "from");
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "text");
		if (c->tv.table && cJSON_IsString(f) && cJSON_IsString(t))
			tv_log(&c->tv, "<%s> %s", f->valuestring, t->valuestring);
	} else {
		const cJSON *tid = cJSON_GetObjectItemCaseSensitive(m, "table");
		const cJSON *kind = cJSON_GetObjectItemCaseSensitive(m, "kind");
		bool snapshot = !strcmp(type, "table");
		int64_t id;
		if (snapshot && cJSON_GetObjectItemCaseSensitive(m, "id")) {
			/* A reply to create/join/spectate: a fresh model. */
			tv_free(&c->tv);
			tv_init(&c->tv);
		}
		if (proto_json_int(tid, 1, TV_ID_MAX, &id) && (!c->tv.table || id == c->tv.table)) {
			const char *kname = snapshot && cJSON_IsString(kind) ? kind->valuestring
									    : c->tv.kind;
			int64_t seq = c->tv.seq;
			int f = tv_apply(&c->tv, m, c->ui.now, kind_view_find(kname)->event_line);
			FUZZ_CHECK(snapshot || c->tv.seq >= seq, "%s moved seq from %lld to %lld",
				   type, (long long)seq, (long long)c->tv.seq);
			if (f & TV_OPTIONS)
				memset(&c->ui.form, 0, sizeof c->ui.form);
			if (f & TV_REVEAL)
				c->ui.monte_step = -1;
			if (f & TV_MONTE) /* the shuffle's animation, at some step */
				c->ui.monte_step = (int)(c->ui.now / 250 % (uint64_t)(c->tv.monte_n + 1));
			if (f & TV_CLOSED) {
				tv_free(&c->tv);
				tv_init(&c->tv);
			}
		}
	}
	cJSON_Delete(m);
	check_model(&c->tv);
	draw(c);
}

/* Key presses at a table, as play.c's key_table hands them to the kind's
 * view (upper-cased; only a seated player chooses). */
static void keys(client *c, const uint8_t *k, size_t n)
{
	struct tv *tv = &c->tv;
	const struct kind_view *kv = kind_view_find(tv->kind);
	for (size_t i = 0; i < n; i++) {
		int key = toupper(k[i]);
		if (key == 'H')
			c->ui.show_hand = !c->ui.show_hand;
		if (tv->seat < 0 || key == 'H')
			continue;
		if (kv->form_key) {
			cJSON *choice = NULL;
			int used = kv->form_key(tv, &c->ui.form, key, &choice);
			FUZZ_CHECK(used || !choice, "form_key made a choice of a key it did not take");
			if (choice)
				fuzz_json_check(choice, "a choice form's choice");
			cJSON_Delete(choice);
			continue;
		}
		int opt = kv->option_for_key(tv, key);
		FUZZ_CHECK(opt >= -1 && opt < tv_n_options(tv), "key %u: option %d of %d", k[i],
			   opt, tv_n_options(tv));
		if (opt >= 0) {
			FUZZ_CHECK(tv_option_choice(tv, opt), "option %d without a choice", opt);
			tv->chosen = opt;
		}
	}
	check_model(tv);
	draw(c);
}

int fuzz_client_one(const uint8_t *data, size_t size)
{
	client *c = xcalloc(1, sizeof *c); /* the screen is 2 x 80 x 24 cells */
	tv_init(&c->tv);
	c->ui.now = 1000000;
	c->ui.show_hand = 1;
	c->ui.monte_step = -1;
	scr_init(&c->scr, -1, 1);
	const uint8_t *p = data, *end = data + size;
	for (int i = 0; i < MAX_LINES && p < end; i++) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n && p[0] == '{') {
			/* Exactly n bytes: no terminator to lean on. */
			char *text = xmalloc(n);
			memcpy(text, p, n);
			frame(c, text, n);
			free(text);
		} else if (n) {
			keys(c, p, n);
		}
		p += n + 1;
	}
	tv_free(&c->tv);
	free(c);
	return 0;
}

FUZZ_ENTRY(fuzz_client_one)
