/*
 * play.c — `lair play` / `lair watch` (see play.h). Long (1,000 lines) on
 * purpose: one state machine whose screens, keys and session callbacks all
 * work on struct play; each screen is one draw_ and one key_ function.
 *
 * Screens and their keys (single keys; shown on every screen):
 *   lobby   1-9 select a table, J join, W watch (a private table asks for its
 *           password), C create, N next lobby, Q quit
 *   create  K kind, S seats, A AI seats, P private (then type a password),
 *           G go (create and start), C create (start later), B back
 *   table   waiting: S start (host), A add AI (host), L leave, Q quit;
 *           playing: the option keys (view_gems.c) or the kind's choice form
 *           (view_deepfall.c) or keys (view_crawl.c), H the hand icon; watching: O then a seat
 *           number takes that AI seat over;
 *           finished: R rematch (host), L back to the lobby, Q quit
 *   anywhere ? the help pages (help.c), / talk: a chat line to the lobby
 *           (the lobby screen shows the chat; a table shows it in its log)
 * Q leaves lair but not the seat: the AI plays it until we come back.
 */
#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "../common/text.h"
#include "../common/util.h"
#include "../proto/proto_msg.h"
#include "cmd.h"
#include "help.h"
#include "oneshot.h"
#include "play.h"
#include "screen.h"
#include "lsess.h"
#include "tview.h"
#include "view.h"

#define MONTE_STEP_MS 700
#define TICK_MS 200
#define CHAT_LINES 7   /* the lobby screen's chat pane */
#define CHAT_MAX 200   /* bytes of a line we type (the server's limit is larger) */

/* M_PASSWORD: typing the password of a table we create; M_JOINPW: of a
 * private table we join (pw_join) or watch. */
enum mode { M_CONNECTING, M_LOBBY, M_CREATE, M_PASSWORD, M_JOINPW, M_TABLE };

struct play {
	const struct play_opts *o;
	uv_loop_t *loop;
	struct lsess *s;
	struct scr scr;
	uv_poll_t in;
	uv_timer_t tick, monte;
	uv_signal_t sig_winch, sig_term, sig_hup;
	int handles;
	int rc, quitting;
	enum mode mode;

	/* lobby */
	int64_t lobby, default_lobby;
	char lobby_name[48];
	cJSON *tables; /* array of table summaries */
	int sel;       /* selected table row, -1 */

	/* create form */
	int c_kind, c_seats, c_ai, c_private;
	char c_password[65]; /* also the entry line of M_JOINPW */
	int64_t pw_table;
	int pw_join;
	int first_table; /* the reply to --table / watch TABLE is pending */
	int syncing;     /* a table_sync is in flight */

	/* table */
	struct tv tv;
	struct view_ui ui;
	char notice[120];
	uint64_t notice_until;
	int takeover; /* O pressed: the next digit names the AI seat to take */

	/* anywhere */
	int help;                    /* the help page shown + 1; 0: none */
	int typing;                  /* / pressed: keys go to say[] */
	char say[CHAT_MAX + 1];
	char chat[CHAT_LINES][160];  /* the lobby's last lines, oldest first */
	int n_chat;
};

static const char *kinds[] = {"gems", "deepfall", "crawl"};

static void draw(struct play *p);

static void set_notice(struct play *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_notice(struct play *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->notice, sizeof p->notice, fmt, ap);
	va_end(ap);
	p->notice_until = now_ms() + 5000;
}

/* ---- ending ---- */

static void handle_closed(uv_handle_t *h)
{
	struct play *p = h->data;
	p->handles--;
}

static void quit(struct play *p, int rc)
{
	if (p->quitting)
		return;
	p->quitting = 1;
	p->rc = rc;
	scr_term_leave(&p->scr);
	uv_poll_stop(&p->in);
	uv_close((uv_handle_t *)&p->in, handle_closed);
	uv_close((uv_handle_t *)&p->tick, handle_closed);
	uv_close((uv_handle_t *)&p->monte, handle_closed);
	uv_close((uv_handle_t *)&p->sig_winch, handle_closed);
	uv_close((uv_handle_t *)&p->sig_term, handle_closed);
	uv_close((uv_handle_t *)&p->sig_hup, handle_closed);
	lsess_end(p->s);
}

/* ---- requests ---- */

static int reply_is_error(const cJSON *m, char *why, size_t n)
{
	const cJSON *ty = cJSON_GetObjectItemCaseSensitive(m, "type");
	if (cJSON_IsString(ty) && strcmp(ty->valuestring, "error") == 0) {
		lsess_error_text(m, why, n);
		return 1;
	}
	return 0;
}

/* An error reply becomes the notice, shown at once: true when m was one. */
static bool notice_error(struct play *p, const cJSON *m)
{
	char why[256];
	if (!reply_is_error(m, why, sizeof why))
		return false;
	set_notice(p, "%s", why);
	draw(p);
	return true;
}

/* Replies that need nothing but an error notice. */
static void on_ok(struct lsess *s, const cJSON *m, void *ud)
{
	(void)s;
	notice_error(ud, m);
}

static void request(struct play *p, cJSON *req, lsess_reply_fn fn)
{
	if (lsess_request(p->s, req, fn ? fn : on_ok, p) < 0) {
		set_notice(p, "not connected");
		draw(p);
	}
}

/* The end of a table_sync (its updates came before this reply). */
static void on_synced(struct lsess *s, const cJSON *m, void *ud)
{
	struct play *p = ud;
	p->syncing = 0;
	on_ok(s, m, ud);
}

static cJSON *table_req(struct play *p, const char *type)
{
	cJSON *m = lsess_msg(type);
	cJSON_AddNumberToObject(m, "table", (double)p->tv.table);
	return m;
}

/* A `table` snapshot reply (create, join, spectate, take_seat). */
static void on_table(struct lsess *s, const cJSON *m, void *ud)
{
	struct play *p = ud;
	char why[256];
	if (reply_is_error(m, why, sizeof why)) {
		set_notice(p, "%s", why);
		if (p->first_table) {
			/* `lair watch N` / `--table N` have nothing else to show. */
			fprintf(stderr, "lair: %s\n", why);
			quit(p, LAIR_REFUSED);
			return;
		}
		draw(p);
		return;
	}
	p->first_table = 0;
	tv_free(&p->tv);
	tv_init(&p->tv);
	p->ui.monte_step = -1;
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(m, "kind");
	tv_apply(&p->tv, m, now_ms(),
		 kind_view_find(cJSON_IsString(kind) ? kind->valuestring : "")->event_line);
	lsess_note_seq(s, p->tv.table, p->tv.seq);
	p->mode = M_TABLE;
	draw(p);
}

/* A chat line for the lobby pane (escaped: it is a peer's text). */
static void add_chat(struct play *p, const cJSON *m)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(m, "from");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "text");
	if (!cJSON_IsString(f) || !cJSON_IsString(t))
		return;
	if (p->n_chat == CHAT_LINES) {
		memmove(p->chat[0], p->chat[1], sizeof p->chat[0] * (CHAT_LINES - 1));
		p->n_chat--;
	}
	char *line = p->chat[p->n_chat++];
	size_t n = 1;
	line[0] = '<';
	n += text_escape(line + n, 64, f->valuestring);
	memcpy(line + n, "> ", 3);
	n += 2;
	text_escape(line + n, sizeof p->chat[0] - n, t->valuestring);
}

static void on_lobby(struct lsess *s, const cJSON *m, void *ud)
{
	struct play *p = ud;
	(void)s;
	if (notice_error(p, m))
		return;
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(m, "lobby");
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(l, "id");
	const cJSON *nm = cJSON_GetObjectItemCaseSensitive(l, "name");
	int64_t v;
	if (proto_json_int(id, 1, TV_ID_MAX, &v))
		p->lobby = v;
	if (cJSON_IsString(nm))
		strlcpy_safe(p->lobby_name, nm->valuestring, sizeof p->lobby_name);
	p->n_chat = 0;
	const cJSON *line;
	cJSON_ArrayForEach(line, cJSON_GetObjectItemCaseSensitive(m, "chat"))
		add_chat(p, line);
	cJSON_Delete(p->tables);
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "tables");
	p->tables = cJSON_IsArray(t) ? cJSON_Duplicate(t, 1) : cJSON_CreateArray();
	p->sel = cJSON_GetArraySize(p->tables) > 0 ? 0 : -1;
	if (p->mode == M_CONNECTING)
		p->mode = M_LOBBY;
	draw(p);
}

static void on_lobbies(struct lsess *s, const cJSON *m, void *ud)
{
	struct play *p = ud;
	if (notice_error(p, m))
		return;
	/* Next lobby after the current one, wrapping. */
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(m, "lobbies"), *it;
	int64_t first = 0, next = 0;
	cJSON_ArrayForEach(it, arr)
	{
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(it, "id");
		int64_t v;
		if (!proto_json_int(id, 1, TV_ID_MAX, &v))
			continue;
		if (!first)
			first = v;
		if (v > p->lobby && (!next || v < next))
			next = v;
	}
	if (!next)
		next = first;
	if (next && next != p->lobby) {
		cJSON *req = lsess_msg("lobby_join");
		cJSON_AddNumberToObject(req, "lobby", (double)next);
		lsess_request(s, req, on_lobby, p);
	} else {
		set_notice(p, "this is the only lobby");
		draw(p);
	}
}

static void join_lobby(struct play *p, int64_t lobby)
{
	cJSON *req = lsess_msg("lobby_join");
	cJSON_AddNumberToObject(req, "lobby", (double)lobby);
	request(p, req, on_lobby);
}

static void back_to_lobby(struct play *p)
{
	if (p->tv.table)
		lsess_forget_table(p->s, p->tv.table);
	tv_free(&p->tv);
	tv_init(&p->tv);
	p->mode = M_LOBBY;
	join_lobby(p, p->lobby ? p->lobby : p->default_lobby);
	draw(p);
}

/* ---- session callbacks ---- */

static void on_ready(struct lsess *s, const cJSON *w, int first, void *ud)
{
	struct play *p = ud;
	(void)s;
	const cJSON *dl = cJSON_GetObjectItemCaseSensitive(w, "default_lobby");
	int64_t v;
	if (proto_json_int(dl, 1, TV_ID_MAX, &v))
		p->default_lobby = v;
	if (!first) {
		p->ui.link_down = 0;
		/* Resumed: the server sends what we missed (or a snapshot) for
		 * every table in welcome.tables. A table missing there is gone
		 * (closed while we were away): back to the lobby. */
		int still_there = 0;
		const cJSON *it;
		cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(w, "tables"))
		{
			const cJSON *id = cJSON_GetObjectItemCaseSensitive(it, "table");
			if (proto_json_int(id, 1, TV_ID_MAX, &v) && v == p->tv.table)
				still_there = 1;
		}
		if (p->mode == M_TABLE && !still_there) {
			set_notice(p, "the table is gone");
			back_to_lobby(p);
		} else if (p->mode != M_TABLE) {
			join_lobby(p, p->lobby ? p->lobby : p->default_lobby);
		}
		draw(p);
		return;
	}
	if (p->o->watch > 0) {
		cJSON *req = lsess_msg("table_spectate");
		cJSON_AddNumberToObject(req, "table", (double)p->o->watch);
		if (p->o->password)
			cJSON_AddStringToObject(req, "password", p->o->password);
		p->first_table = 1;
		request(p, req, on_table);
		return;
	}
	/* Already seated somewhere (we quit mid-game): back to that table;
	 * the server sends its snapshot right after welcome. */
	const cJSON *tables = cJSON_GetObjectItemCaseSensitive(w, "tables");
	const cJSON *t0 = cJSON_GetArrayItem(tables, 0);
	const cJSON *tid = cJSON_GetObjectItemCaseSensitive(t0, "table");
	if (proto_json_int(tid, 1, TV_ID_MAX, &v) && p->o->join <= 0) {
		p->tv.table = v;
		p->mode = M_TABLE; /* the lobby is joined for later, not shown */
		join_lobby(p, p->default_lobby);
		draw(p);
		return;
	}
	join_lobby(p, p->default_lobby ? p->default_lobby : 1);
	if (p->o->join > 0) {
		cJSON *req = lsess_msg("table_join");
		cJSON_AddNumberToObject(req, "table", (double)p->o->join);
		if (p->o->password)
			cJSON_AddStringToObject(req, "password", p->o->password);
		p->first_table = 1;
		request(p, req, on_table);
	}
}

static void lobby_update(struct play *p, const cJSON *m, const char *type)
{
	if (!p->tables)
		return;
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(m, "table");
	const cJSON *idj = cJSON_IsObject(t) ? cJSON_GetObjectItemCaseSensitive(t, "id") : t;
	int64_t id, x;
	if (!proto_json_int(idj, 1, TV_ID_MAX, &id))
		return;
	int idx = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, p->tables)
	{
		const cJSON *xj = cJSON_GetObjectItemCaseSensitive(it, "id");
		if (proto_json_int(xj, 1, TV_ID_MAX, &x) && x == id)
			break;
		idx++;
	}
	int found = idx < cJSON_GetArraySize(p->tables);
	if (strcmp(type, "table_removed") == 0) {
		if (found)
			cJSON_DeleteItemFromArray(p->tables, idx);
	} else if (cJSON_IsObject(t)) {
		if (found)
			cJSON_ReplaceItemInArray(p->tables, idx, cJSON_Duplicate(t, 1));
		else
			cJSON_AddItemToArray(p->tables, cJSON_Duplicate(t, 1));
	}
	int n = cJSON_GetArraySize(p->tables);
	if (p->sel >= n)
		p->sel = n - 1;
	if (p->sel < 0 && n > 0)
		p->sel = 0;
}

static void on_monte(uv_timer_t *t);

static void start_monte(struct play *p)
{
	p->ui.monte_step = 0; /* the cards face up first, then one swap a step */
	uv_timer_start(&p->monte, on_monte, MONTE_STEP_MS * 2, 0);
}

static void on_update(struct lsess *s, const cJSON *m, const char *type, void *ud)
{
	struct play *p = ud;
	if (!strcmp(type, "table_update") || !strcmp(type, "table_removed")) {
		lobby_update(p, m, type);
		if (p->mode == M_LOBBY)
			draw(p);
		return;
	}
	if (!strcmp(type, "lobby_closed")) {
		set_notice(p, "the lobby was closed");
		p->lobby = 0;
		if (p->mode == M_LOBBY)
			join_lobby(p, p->default_lobby);
		return;
	}
	if (!strcmp(type, "bye")) {
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(m, "reason");
		set_notice(p, "server: bye (%s)", cJSON_IsString(r) ? r->valuestring : "?");
		draw(p);
		return;
	}
	if (!strcmp(type, "error")) {
		char why[256];
		lsess_error_text(m, why, sizeof why);
		set_notice(p, "%s", why);
		draw(p);
		return;
	}
	if (!strcmp(type, "chat")) {
		add_chat(p, m);
		if (p->mode == M_TABLE) /* at a table the chat goes to its log */
			tv_log(&p->tv, "%s", p->chat[p->n_chat - 1]);
		draw(p);
		return;
	}
	if (!strcmp(type, "presence"))
		return;
	/* Everything else with a table id is a table message. */
	const cJSON *tid = cJSON_GetObjectItemCaseSensitive(m, "table");
	int64_t tid_v;
	if (!proto_json_int(tid, 1, TV_ID_MAX, &tid_v))
		return;
	if (p->tv.table && tid_v != p->tv.table)
		return;
	if (!strcmp(type, "table") && p->tv.seq == 0) {
		p->mode = M_TABLE; /* the resume snapshot after welcome */
	}
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(m, "kind");
	const char *kname = !strcmp(type, "table") && cJSON_IsString(kind) ? kind->valuestring
									   : p->tv.kind;
	int f = tv_apply(&p->tv, m, now_ms(), kind_view_find(kname)->event_line);
	if (!f)
		return;
	lsess_note_seq(s, p->tv.table, p->tv.seq);
	if (f & TV_GAP) {
		/* One sync at a time; what arrives meanwhile comes again with it. */
		if (!p->syncing) {
			cJSON *req = table_req(p, "table_sync");
			cJSON_AddNumberToObject(req, "since", (double)p->tv.seq);
			p->syncing = 1;
			request(p, req, on_synced);
		}
		return;
	}
	if (f & TV_OPTIONS && p->tv.seat >= 0)
		request(p, table_req(p, "selecting"), NULL);
	if (f & TV_OPTIONS) /* a new decision (or a rematch's first): a fresh form */
		memset(&p->ui.form, 0, sizeof p->ui.form);
	if (f & TV_REVEAL) { /* the decision is over: so is its shuffle */
		p->ui.monte_step = -1;
		uv_timer_stop(&p->monte);
	}
	if (f & TV_MONTE) /* a reveal may bring the next room's shuffle */
		start_monte(p);
	if (f & TV_CLOSED) {
		set_notice(p, "the table was closed");
		back_to_lobby(p);
		return;
	}
	draw(p);
}

static void on_link(struct lsess *s, int up, const char *why, void *ud)
{
	struct play *p = ud;
	(void)s, (void)why;
	p->ui.link_down = !up;
	draw(p);
}

static void on_fail(struct lsess *s, int code, const char *why, void *ud)
{
	struct play *p = ud;
	(void)s;
	quit(p, code);
	fprintf(stderr, "lair: %s\n", why);
}

/* ---- drawing ---- */

static void draw_lobby(struct play *p)
{
	struct scr *s = &p->scr;
	char line[160];
	scr_fill(s, 0, 0, SA_REVERSE);
	snprintf(line, sizeof line, " lair  %s  lobby %lld \"%s\"", lsess_player(p->s),
		 (long long)p->lobby, p->lobby_name);
	scr_put(s, 0, 0, SA_REVERSE | SA_BOLD, line);
	scr_put(s, 2, 0, SA_BOLD, "  # TABLE  KIND       STATE     SEATS  HOST              NAME");
	int n = cJSON_GetArraySize(p->tables);
	for (int i = 0; i < n && i < 9; i++) {
		const cJSON *t = cJSON_GetArrayItem(p->tables, i);
		const cJSON *humans = cJSON_GetObjectItemCaseSensitive(t, "humans");
		const cJSON *ai = cJSON_GetObjectItemCaseSensitive(t, "ai");
		int seats = 0, taken = 0;
		const cJSON *h;
		cJSON_ArrayForEach(h, humans)
		{
			const cJSON *a = cJSON_GetArrayItem(ai, seats);
			seats++;
			taken += cJSON_IsString(h) || cJSON_IsTrue(a);
		}
		char a[32], b[32], c[32], d[32], e[64];
		snprintf(line, sizeof line, "%s%d %-6s %-10.10s %-9.9s %d/%-4d %-17.17s %.20s%s",
			 i == p->sel ? ">" : " ", i + 1, oneshot_str(t, "id", a, sizeof a),
			 oneshot_str(t, "kind", b, sizeof b), oneshot_str(t, "state", c, sizeof c),
			 taken, seats, oneshot_str(t, "host", d, sizeof d),
			 oneshot_str(t, "name", e, sizeof e),
			 cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "private")) ? " (private)"
											: "");
		scr_put(s, 3 + i, 0, i == p->sel ? SA_BOLD | SC_CYAN : 0, line);
	}
	if (n == 0)
		scr_put(s, 3, 2, SA_DIM, "No tables yet: press C to create one.");
	if (n > 9)
		scr_printf(s, 12, 2, SA_DIM, "... and %d more", n - 9);
	scr_put(s, 13, 0, SA_DIM, "-- chat ([/] to talk) --");
	for (int i = 0; i < p->n_chat; i++)
		scr_put(s, 14 + i, 1, 0, p->chat[i]);
	scr_put(s, 22, 0, 0,
		"[1-9] select [J]oin [W]atch [C]reate [N]ext lobby [/] talk [?] help [Q]uit");
}

static void draw_create(struct play *p)
{
	struct scr *s = &p->scr;
	scr_fill(s, 0, 0, SA_REVERSE);
	scr_put(s, 0, 0, SA_REVERSE | SA_BOLD, " lair  create a table");
	scr_printf(s, 2, 2, 0, "[K] kind       %s", kinds[p->c_kind]);
	scr_printf(s, 3, 2, 0, "[S] seats      %d", p->c_seats);
	scr_printf(s, 4, 2, 0, "[A] AI seats   %d  (seats 2..%d play themselves)", p->c_ai,
		   p->c_ai + 1);
	scr_printf(s, 5, 2, 0, "[P] private    %s%s%s", p->c_private ? "yes" : "no",
		   p->c_private ? ", password " : "", p->c_private ? p->c_password : "");
	scr_put(s, 7, 2, SA_BOLD, "[G] create and start    [C] create (start later)    [B] back");
	if (p->mode == M_PASSWORD)
		scr_printf(s, 9, 2, SC_CYAN, "Password: %s_   (Enter to finish)", p->c_password);
}

static void draw_table_waiting(struct play *p)
{
	struct scr *s = &p->scr;
	/* The kind's view shows the seats; its bottom rows get this screen's keys. */
	scr_fill(s, 21, 0, 0);
	scr_fill(s, 22, 0, 0);
	scr_fill(s, 23, 0, 0);
	if (p->tv.seat >= 0)
		scr_put(s, 21, 0, 0, "Waiting for players. Host: [S]tart  [A]dd AI  [X] remove AI");
	scr_put(s, 23, 0, 0, "[L]eave the table  [Q]uit");
}

static void draw(struct play *p)
{
	if (p->quitting)
		return;
	struct scr *s = &p->scr;
	uint64_t now = now_ms();
	if (p->notice_until && now > p->notice_until) {
		p->notice[0] = '\0';
		p->notice_until = 0;
	}
	scr_clear(s);
	if (p->help) {
		help_draw(s, p->mode == M_TABLE ? p->tv.kind : "", p->help - 1);
		scr_flush(s);
		return;
	}
	switch (p->mode) {
	case M_CONNECTING:
		scr_printf(s, 0, 0, SA_BOLD, "lair: connecting to %s ...", lsess_url(p->o->url));
		break;
	case M_LOBBY:
		draw_lobby(p);
		break;
	case M_JOINPW:
		draw_lobby(p);
		scr_fill(s, 22, 0, 0);
		scr_printf(s, 22, 0, SC_CYAN, "Table %lld is private. Password: %s_   (Enter; "
			   "empty cancels)", (long long)p->pw_table, p->c_password);
		break;
	case M_CREATE:
	case M_PASSWORD:
		draw_create(p);
		break;
	case M_TABLE:
		p->ui.now = now;
		p->ui.notice = p->notice[0] ? p->notice : NULL;
		kind_view_find(p->tv.kind)->draw(s, &p->tv, &p->ui);
		if (!strcmp(p->tv.state, "waiting") && !p->tv.result)
			draw_table_waiting(p);
		break;
	}
	if (p->mode != M_TABLE && p->notice[0])
		scr_put(s, 23, 0, SC_RED, p->notice);
	if (p->ui.link_down && p->mode != M_TABLE)
		scr_put(s, 23, 40, SC_RED | SA_BOLD, "connection lost: resuming...");
	if (p->typing) {
		/* the end of a long line stays in sight */
		size_t n = strlen(p->say), from = n > 60 ? n - 60 : 0;
		scr_fill(s, 21, 0, SC_CYAN);
		scr_printf(s, 21, 0, SC_CYAN, "Say: %s_  (Enter sends, Esc cancels)", p->say + from);
	} else if (p->takeover) {
		scr_fill(s, 21, 0, SC_CYAN);
		scr_put(s, 21, 0, SC_CYAN, "Take over which AI seat? [1-9]  (another key cancels)");
	}
	scr_flush(s);
}

/* ---- keys ---- */

static void create_table(struct play *p, int start)
{
	cJSON *req = lsess_msg("table_create");
	cJSON_AddStringToObject(req, "kind", kinds[p->c_kind]);
	cJSON_AddNumberToObject(req, "seats", p->c_seats);
	cJSON_AddNumberToObject(req, "ai", p->c_ai);
	if (p->lobby)
		cJSON_AddNumberToObject(req, "lobby", (double)p->lobby);
	if (p->c_private) {
		cJSON_AddBoolToObject(req, "private", 1);
		cJSON_AddStringToObject(req, "password", p->c_password);
	}
	if (start)
		cJSON_AddBoolToObject(req, "start", 1);
	request(p, req, on_table);
}

static void key_lobby(struct play *p, int k)
{
	int n = cJSON_GetArraySize(p->tables);
	if (k >= '1' && k <= '9') {
		if (k - '1' < n)
			p->sel = k - '1';
		return;
	}
	const cJSON *t = p->sel >= 0 ? cJSON_GetArrayItem(p->tables, p->sel) : NULL;
	int64_t id;
	int has_id = proto_json_int(cJSON_GetObjectItemCaseSensitive(t, "id"), 1, TV_ID_MAX, &id);
	switch (k) {
	case 'J':
	case 'W':
		if (!has_id) {
			set_notice(p, "select a table first (1-9)");
			return;
		}
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "private"))) {
			p->pw_table = id;
			p->pw_join = k == 'J';
			p->c_password[0] = '\0';
			p->mode = M_JOINPW;
			return;
		}
		{
			cJSON *req = lsess_msg(k == 'J' ? "table_join" : "table_spectate");
			cJSON_AddNumberToObject(req, "table", (double)id);
			request(p, req, on_table);
		}
		break;
	case 'C':
		p->mode = M_CREATE;
		break;
	case 'N':
		request(p, lsess_msg("lobby_list"), on_lobbies);
		break;
	}
}

static void key_create(struct play *p, int k)
{
	switch (k) {
	case 'K':
		p->c_kind = (p->c_kind + 1) % (int)ARRAY_LEN(kinds);
		break;
	case 'S':
		p->c_seats = p->c_seats % 9 + 1;
		if (p->c_ai > p->c_seats - 1)
			p->c_ai = p->c_seats - 1;
		break;
	case 'A':
		p->c_ai = p->c_seats > 1 ? (p->c_ai + 1) % p->c_seats : 0;
		break;
	case 'P':
		p->c_private = !p->c_private;
		if (p->c_private) {
			p->c_password[0] = '\0';
			p->mode = M_PASSWORD;
		}
		break;
	case 'G':
	case 'C':
		if (p->c_private && !p->c_password[0]) {
			set_notice(p, "a private table needs a password");
			break;
		}
		create_table(p, k == 'G');
		p->mode = M_LOBBY;
		break;
	case 'B':
		p->mode = M_LOBBY;
		break;
	}
}

static void key_password(struct play *p, int raw)
{
	size_t n = strlen(p->c_password);
	if ((raw == '\r' || raw == '\n') && p->mode == M_JOINPW) {
		p->mode = M_LOBBY;
		if (!n)
			return; /* nothing typed: cancelled */
		cJSON *req = lsess_msg(p->pw_join ? "table_join" : "table_spectate");
		cJSON_AddNumberToObject(req, "table", (double)p->pw_table);
		cJSON_AddStringToObject(req, "password", p->c_password);
		request(p, req, on_table);
		p->c_password[0] = '\0';
	} else if (raw == '\r' || raw == '\n') {
		p->mode = M_CREATE;
		if (!n)
			p->c_private = 0;
	} else if ((raw == 127 || raw == 8) && n > 0) {
		p->c_password[n - 1] = '\0';
	} else if (raw > 32 && raw < 127 && n + 1 < sizeof p->c_password) {
		p->c_password[n] = (char)raw;
		p->c_password[n + 1] = '\0';
	}
}

static void key_table(struct play *p, int k)
{
	struct tv *tv = &p->tv;
	if (k == 'H') {
		p->ui.show_hand = !p->ui.show_hand;
		return;
	}
	if (tv->result || !strcmp(tv->state, "finished")) {
		if (k == 'R')
			request(p, table_req(p, "rematch"), NULL);
		else if (k == 'L') {
			request(p, table_req(p, "table_leave"), NULL);
			back_to_lobby(p);
		}
		return;
	}
	if (!strcmp(tv->state, "waiting")) {
		if (k == 'S')
			request(p, table_req(p, "table_start"), NULL);
		else if (k == 'A')
			request(p, table_req(p, "table_add_ai"), NULL);
		else if (k == 'X') {
			for (int i = tv->n_seats - 1; i >= 0; i--)
				if (tv_seat_is_ai(tv, i)) {
					cJSON *req = table_req(p, "table_remove_ai");
					cJSON_AddNumberToObject(req, "seat", i);
					request(p, req, NULL);
					break;
				}
		} else if (k == 'L') {
			request(p, table_req(p, "table_leave"), NULL);
			back_to_lobby(p);
		}
		return;
	}
	if (tv->seat < 0) { /* watching: an AI seat may be taken over */
		int pick = p->takeover && k >= '1' && k <= '9';
		p->takeover = 0;
		if (pick) {
			cJSON *req = table_req(p, "take_seat");
			cJSON_AddNumberToObject(req, "seat", k - '1');
			request(p, req, on_table);
		} else if (k == 'O') {
			p->takeover = 1;
		}
		return;
	}
	const struct kind_view *kv = kind_view_find(tv->kind);
	if (kv->form_key) {
		cJSON *choice = NULL;
		if (!kv->form_key(tv, &p->ui.form, k, &choice) || !choice)
			return;
		cJSON *req = table_req(p, "choose");
		cJSON_AddItemToObject(req, "choice", choice);
		cJSON_AddNumberToObject(req, "decision", (double)tv->decision);
		request(p, req, NULL);
		return;
	}
	int i = kv->option_for_key(tv, k);
	if (i < 0)
		return;
	cJSON *req = table_req(p, "choose");
	cJSON_AddItemToObject(req, "choice", cJSON_Duplicate(tv_option_choice(tv, i), 1));
	cJSON_AddNumberToObject(req, "decision", (double)tv->decision);
	tv->chosen = i; /* shown at once; an error notice corrects it */
	request(p, req, NULL);
}

/* Typing a chat line: Enter sends it to the lobby, Esc (or Enter on an
 * empty line) cancels, Backspace takes back one character. */
static void key_say(struct play *p, int raw)
{
	size_t n = strlen(p->say);
	if (raw == 27 || ((raw == '\r' || raw == '\n') && n == 0)) {
		p->typing = 0;
	} else if (raw == '\r' || raw == '\n') {
		p->typing = 0;
		cJSON *req = lsess_msg("chat");
		cJSON_AddStringToObject(req, "text", p->say);
		request(p, req, on_ok);
	} else if (raw == 127 || raw == 8) {
		while (n > 0 && ((unsigned char)p->say[n - 1] & 0xc0) == 0x80)
			n--; /* a UTF-8 continuation byte: back to the lead byte */
		if (n > 0)
			p->say[n - 1] = '\0';
		else
			p->say[0] = '\0';
	} else if (raw >= 32 && raw != 127 && n + 1 < sizeof p->say) {
		p->say[n] = (char)raw;
		p->say[n + 1] = '\0';
	}
}

static void on_input(uv_poll_t *h, int status, int events)
{
	struct play *p = h->data;
	(void)events;
	if (status < 0) {
		quit(p, LAIR_OK);
		return;
	}
	unsigned char keys[64];
	ssize_t n = read(0, keys, sizeof keys);
	if (n <= 0) {
		quit(p, LAIR_OK); /* the terminal went away */
		return;
	}
	for (ssize_t i = 0; i < n && !p->quitting; i++) {
		int raw = keys[i];
		if (p->typing) {
			key_say(p, raw);
			if (raw == 27)
				break; /* Esc, or an arrow's sequence: the rest with it */
			continue;
		}
		if (raw == 27) /* an escape sequence (arrows...): ignore it whole */
			break;
		if (p->help) { /* ? turns the page; any other key closes */
			int pages = help_pages(p->mode == M_TABLE ? p->tv.kind : "");
			p->help = raw == '?' && p->help < pages ? p->help + 1 : 0;
			continue;
		}
		if (raw == '?' && p->mode != M_PASSWORD && p->mode != M_JOINPW) {
			p->help = 1;
			continue;
		}
		if (raw == '/' && (p->mode == M_LOBBY || p->mode == M_TABLE)) {
			p->typing = 1;
			p->say[0] = '\0';
			continue;
		}
		if (p->mode == M_PASSWORD || p->mode == M_JOINPW) {
			key_password(p, raw);
			continue;
		}
		int k = toupper(raw);
		if (k == 'Q' || raw == 3 /* ^C */) {
			quit(p, LAIR_OK);
			return;
		}
		if (raw == 12) /* ^L */
			scr_invalidate(&p->scr);
		switch (p->mode) {
		case M_LOBBY:
			key_lobby(p, k);
			break;
		case M_CREATE:
			key_create(p, k);
			break;
		case M_TABLE:
			key_table(p, k);
			break;
		default:
			break;
		}
	}
	draw(p);
}

static void on_tick(uv_timer_t *t)
{
	draw(t->data);
}

static void on_monte(uv_timer_t *t)
{
	struct play *p = t->data;
	if (p->ui.monte_step < 0)
		return;
	if (p->ui.monte_step < p->tv.monte_n) {
		p->ui.monte_step++;
		uv_timer_start(&p->monte, on_monte, MONTE_STEP_MS, 0);
	}
	draw(p);
}

static void on_signal(uv_signal_t *h, int sig)
{
	struct play *p = h->data;
	if (sig == SIGWINCH) {
		int cols, rows;
		if (scr_term_size(1, &cols, &rows) == 0)
			scr_set_size(&p->scr, cols, rows);
		scr_invalidate(&p->scr);
		draw(p);
		return;
	}
	quit(p, LAIR_OK);
}

int play_run(const struct play_opts *o)
{
	if (!isatty(0) || !isatty(1)) {
		fprintf(stderr, "lair: play and watch need a terminal\n");
		return LAIR_USAGE;
	}
	uv_loop_t loop;
	uv_loop_init(&loop);
	struct play *p = xcalloc(1, sizeof *p);
	p->o = o;
	p->loop = &loop;
	p->sel = -1;
	p->c_seats = 3;
	p->c_ai = 2;
	p->ui.monte_step = -1;
	tv_init(&p->tv);
	scr_init(&p->scr, 1, scr_color_wanted(getenv("NO_COLOR"), getenv("TERM"), 1));

	struct lsess_opts so = {o->url, o->name, o->token, "player", 1, 1};
	struct lsess_handler h = {on_ready, on_update, on_link, on_fail};
	char err[512];
	p->s = lsess_new(&loop, &so, &h, p, err, sizeof err);
	if (!p->s) {
		fprintf(stderr, "lair: %s\n", err);
		free(p);
		uv_loop_close(&loop);
		return LAIR_USAGE;
	}
	uv_poll_init(&loop, &p->in, 0);
	uv_timer_init(&loop, &p->tick);
	uv_timer_init(&loop, &p->monte);
	uv_signal_init(&loop, &p->sig_winch);
	uv_signal_init(&loop, &p->sig_term);
	uv_signal_init(&loop, &p->sig_hup);
	p->in.data = p->tick.data = p->monte.data = p;
	p->sig_winch.data = p->sig_term.data = p->sig_hup.data = p;
	p->handles = 6;
	uv_poll_start(&p->in, UV_READABLE, on_input);
	uv_timer_start(&p->tick, on_tick, TICK_MS, TICK_MS);
	uv_signal_start(&p->sig_winch, on_signal, SIGWINCH);
	uv_signal_start(&p->sig_term, on_signal, SIGTERM);
	uv_signal_start(&p->sig_hup, on_signal, SIGHUP);
	int cols, rows;
	if (scr_term_size(1, &cols, &rows) == 0)
		scr_set_size(&p->scr, cols, rows);
	if (scr_term_enter(&p->scr, 0) < 0) {
		fprintf(stderr, "lair: cannot set up the terminal\n");
		quit(p, LAIR_USAGE);
	}
	draw(p);
	uv_run(&loop, UV_RUN_DEFAULT);
	scr_term_leave(&p->scr);
	int rc = p->rc;
	lsess_free(p->s);
	tv_free(&p->tv);
	cJSON_Delete(p->tables);
	free(p);
	if (uv_loop_close(&loop) != 0)
		fprintf(stderr, "lair: warning: the event loop did not close cleanly\n");
	return rc;
}
