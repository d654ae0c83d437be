/*
 * lsess.c — lair's protocol session (see lsess.h).
 *
 * Replies are matched by integer ids we assign; everything else is an
 * update. After a drop (when resume was asked for) the connection retries
 * with backoff and the new hello carries our token and, for every table we
 * sit at, the last seq we saw, so the server sends what we missed.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/text.h"
#include "../common/util.h"
#include "../proto/proto_msg.h"
#include "cmd.h"
#include "lconn.h"
#include "lsess.h"
#include "token.h"

#define RETRY_ATTEMPTS 12 /* ~35 s of backoff before we give up */
#define MAX_TABLES 16

struct pending {
	struct pending *next;
	int64_t id;
	lsess_reply_fn fn;
	void *ud;
};

struct lsess {
	uv_loop_t *loop;
	struct lconn *c;
	struct lsess_handler h;
	void *ud;
	char url[512], name[64], role[16];
	char token[LTOKEN_MAX];
	char store_dir[1024];
	int have_store;
	int resume, quiet, readonly;
	int name_given;  /* the name was asked for: take it if ours differs */
	cJSON *welcome;  /* kept while a rename is on its way (on_ready's) */
	int ready, ever_ready, ended;
	int64_t next_id;
	int64_t hello_id;
	struct pending *pend;
	struct {
		int64_t table, seq;
	} tables[MAX_TABLES];
	int n_tables;
	char player[64];
	int admin;
	char bye[32]; /* the reason of a "bye" the server sent, "" if none */
};

const char *lsess_url(const char *explicit_url)
{
	if (explicit_url && *explicit_url)
		return explicit_url;
	const char *env = getenv("LAIR_SERVER");
	return env && *env ? env : LSESS_DEFAULT_URL;
}

int lsess_known(const char *url, const char *role)
{
	char dir[1024], tok[LTOKEN_MAX], err[512];
	return ltoken_dir(dir, sizeof dir, err, sizeof err) == 0 &&
	       ltoken_get(dir, role, lsess_url(url), tok, sizeof tok, err, sizeof err) == 1;
}

cJSON *lsess_msg(const char *type)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "type", type);
	return m;
}

void lsess_error_text(const cJSON *err, char *out, size_t out_len)
{
	const cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(err, "message");
	/* the server's words, escaped: they end up on a terminal */
	char c[64], m[1024];
	text_escape(c, sizeof c, cJSON_IsString(code) ? code->valuestring : "error");
	text_escape(m, sizeof m, cJSON_IsString(msg) ? msg->valuestring : "(no message)");
	snprintf(out, out_len, "%s: %s", c, m);
}

int lsess_error_exit(const cJSON *err)
{
	const cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
	if (cJSON_IsString(code) && strcmp(code->valuestring, "disconnected") == 0)
		return LAIR_CONNECT;
	return LAIR_REFUSED;
}

static void fail(struct lsess *s, int code, const char *why)
{
	if (s->ended)
		return;
	lsess_end(s);
	if (s->h.on_fail)
		s->h.on_fail(s, code, why, s->ud);
}

/* Fails every request still waiting for a reply (the link dropped). */
static void fail_pending(struct lsess *s)
{
	struct pending *p = s->pend;
	s->pend = NULL;
	cJSON *e = lsess_msg("error");
	cJSON_AddStringToObject(e, "code", "disconnected");
	cJSON_AddStringToObject(e, "message", "the connection dropped before the reply");
	while (p) {
		struct pending *next = p->next;
		if (p->fn && !s->ended)
			p->fn(s, e, p->ud);
		free(p);
		p = next;
	}
	cJSON_Delete(e);
}

static int send_json(struct lsess *s, cJSON *m)
{
	char *text = cJSON_PrintUnformatted(m);
	int rc = text ? lconn_send(s->c, text, strlen(text)) : -1;
	if (rc == 0)
		log_debug("session", "-> %s", text);
	free(text);
	return rc;
}

static void send_hello(struct lsess *s)
{
	cJSON *m = lsess_msg("hello");
	s->hello_id = ++s->next_id;
	cJSON_AddNumberToObject(m, "id", (double)s->hello_id);
	cJSON_AddNumberToObject(m, "protocol", 1);
	cJSON_AddStringToObject(m, "client", "lair/" LAIR_VERSION);
	/* Reveals with the changes to our view, not all of it (tview.c), and
	 * nothing said twice (we show the reveal's `choices`, never the kind's
	 * events that restate them). */
	cJSON *caps = cJSON_AddArrayToObject(m, "caps");
	cJSON_AddItemToArray(caps, cJSON_CreateString("view_patch"));
	cJSON_AddItemToArray(caps, cJSON_CreateString("lean"));
	if (s->token[0])
		cJSON_AddStringToObject(m, "token", s->token);
	else
		cJSON_AddStringToObject(m, "name", s->name);
	if (s->n_tables > 0) {
		cJSON *r = cJSON_AddObjectToObject(m, "resume");
		for (int i = 0; i < s->n_tables; i++) {
			char key[32];
			snprintf(key, sizeof key, "%lld", (long long)s->tables[i].table);
			cJSON_AddNumberToObject(r, key, (double)s->tables[i].seq);
		}
	}
	if (send_json(s, m) < 0)
		fail(s, LAIR_CONNECT, "cannot send hello");
	cJSON_Delete(m);
}

/* Saving a new token is file I/O: it runs on libuv's thread pool, never on
 * the loop (a pending job keeps uv_run going, so it finishes before exit). */
struct token_job {
	uv_work_t w;
	char dir[1024], role[16], url[512], tok[LTOKEN_MAX], err[512];
	int rc;
};

static void token_work(uv_work_t *w)
{
	struct token_job *j = w->data;
	j->rc = ltoken_put(j->dir, j->role, j->url, j->tok, j->err, sizeof j->err);
}

static void token_done(uv_work_t *w, int status)
{
	struct token_job *j = w->data;
	if (status == 0 && j->rc < 0)
		log_warn("session", "%s", j->err);
	free(j);
}

static void save_token(struct lsess *s)
{
	struct token_job *j = xcalloc(1, sizeof *j);
	j->w.data = j;
	strlcpy_safe(j->dir, s->store_dir, sizeof j->dir);
	strlcpy_safe(j->role, s->role, sizeof j->role);
	strlcpy_safe(j->url, s->url, sizeof j->url);
	strlcpy_safe(j->tok, s->token, sizeof j->tok);
	if (uv_queue_work(s->loop, &j->w, token_work, token_done) != 0) {
		log_warn("session", "cannot save the token");
		free(j);
	}
}

static void ready(struct lsess *s, const cJSON *welcome)
{
	int first = !s->ever_ready;
	s->ready = s->ever_ready = 1;
	if (!first && s->h.on_link)
		s->h.on_link(s, 1, "resumed", s->ud);
	if (s->h.on_ready)
		s->h.on_ready(s, welcome, first, s->ud);
}

/* The reply to the rename a known player asked for with a name (--name). */
static void on_renamed(struct lsess *s, const cJSON *m, void *ud)
{
	(void)ud;
	const cJSON *ty = cJSON_GetObjectItemCaseSensitive(m, "type");
	if (!cJSON_IsString(ty) || strcmp(ty->valuestring, "ok") != 0) {
		char why[1024], msg[1400];
		lsess_error_text(m, why, sizeof why);
		snprintf(msg, sizeof msg, "cannot rename %s to %s: %s (without --name you play "
					  "as %s)",
			 s->player, s->name, why, s->player);
		fail(s, LAIR_REFUSED, msg);
		return;
	}
	log_info("session", "renamed %s -> %s", s->player, s->name);
	strlcpy_safe(s->player, s->name, sizeof s->player);
	cJSON *w = s->welcome;
	s->welcome = NULL;
	/* what on_ready reads is the welcome with the new name */
	cJSON *pl = cJSON_GetObjectItemCaseSensitive(w, "player");
	if (cJSON_IsObject(pl))
		cJSON_ReplaceItemInObjectCaseSensitive(pl, "name", cJSON_CreateString(s->name));
	ready(s, w);
	cJSON_Delete(w);
}

static void on_welcome(struct lsess *s, const cJSON *m)
{
	const cJSON *pl = cJSON_GetObjectItemCaseSensitive(m, "player");
	const cJSON *nm = cJSON_GetObjectItemCaseSensitive(pl, "name");
	if (cJSON_IsString(nm))
		strlcpy_safe(s->player, nm->valuestring, sizeof s->player);
	s->admin = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pl, "admin"));
	const cJSON *tok = cJSON_GetObjectItemCaseSensitive(m, "token");
	if (cJSON_IsString(tok) && !s->token[0]) {
		strlcpy_safe(s->token, tok->valuestring, sizeof s->token);
		if (s->have_store)
			save_token(s);
	}
	if (!s->ever_ready && s->name_given && strcmp(s->player, s->name) != 0) {
		/* a known player asked for another name: rename first */
		s->ready = 1;
		cJSON *r = lsess_msg("rename");
		cJSON_AddStringToObject(r, "name", s->name);
		s->welcome = cJSON_Duplicate(m, 1);
		if (lsess_request(s, r, on_renamed, NULL) < 0)
			fail(s, LAIR_CONNECT, "cannot send the rename");
		return;
	}
	ready(s, m);
}

static void c_open(void *ud)
{
	struct lsess *s = ud;
	if (s->readonly && !s->token[0]) {
		ready(s, NULL); /* a reader without a player: no hello, no identity */
		return;
	}
	send_hello(s);
}

static void c_message(void *ud, const char *text, size_t len)
{
	struct lsess *s = ud;
	if (s->ended)
		return;
	cJSON *m = cJSON_ParseWithLength(text, len);
	const cJSON *ty = cJSON_GetObjectItemCaseSensitive(m, "type");
	if (!cJSON_IsObject(m) || !cJSON_IsString(ty)) {
		log_warn("session", "ignoring a malformed server message");
		cJSON_Delete(m);
		return;
	}
	log_debug("session", "<- %.*s", (int)(len > 300 ? 300 : len), text);
	const char *type = ty->valuestring;
	const cJSON *idj = cJSON_GetObjectItemCaseSensitive(m, "id");
	int64_t id;
	if (!proto_json_int(idj, 0, 1LL << 53, &id))
		id = -1; /* absent or unreadable: not a reply of ours */

	if (id >= 0 && id == s->hello_id) {
		s->hello_id = -1;
		if (strcmp(type, "welcome") == 0) {
			on_welcome(s, m);
		} else {
			char why[2048];
			lsess_error_text(m, why, sizeof why);
			const cJSON *code = cJSON_GetObjectItemCaseSensitive(m, "code");
			if (cJSON_IsString(code) && strcmp(code->valuestring, "bad_token") == 0 &&
			    s->have_store)
				snprintf(why + strlen(why), sizeof why - strlen(why),
					 " (the stored token for %s is not known to this server; "
					 "remove it from %s/tokens)",
					 s->url, s->store_dir);
			fail(s, LAIR_REFUSED, why);
		}
		cJSON_Delete(m);
		return;
	}
	if (id >= 0) {
		for (struct pending **pp = &s->pend; *pp; pp = &(*pp)->next) {
			if ((*pp)->id != id)
				continue;
			struct pending *p = *pp;
			*pp = p->next;
			if (p->fn)
				p->fn(s, m, p->ud);
			free(p);
			cJSON_Delete(m);
			return;
		}
	}
	if (strcmp(type, "bye") == 0) {
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(m, "reason");
		/* Replaced or kicked: coming back would fight the other session. */
		if (cJSON_IsString(r)) {
			text_escape(s->bye, sizeof s->bye, r->valuestring);
			if (strcmp(r->valuestring, "shutdown") != 0)
				lconn_set_retry(s->c, 0);
		}
	}
	if (s->h.on_update)
		s->h.on_update(s, m, type, s->ud);
	cJSON_Delete(m);
}

static void c_down(void *ud, const char *why, int will_retry)
{
	struct lsess *s = ud;
	int was_ready = s->ready;
	s->ready = 0;
	s->hello_id = -1;
	fail_pending(s);
	if (s->ended)
		return;
	if (will_retry) {
		if (!s->quiet)
			log_info("session", "%s; reconnecting", why);
		if (was_ready && s->h.on_link)
			s->h.on_link(s, 0, why, s->ud);
		return;
	}
	if (s->bye[0] && strcmp(s->bye, "shutdown") != 0) {
		/* The server ended it on purpose: that is a refusal, not a failure. */
		char msg[160];
		snprintf(msg, sizeof msg, "the server closed the session (%s)", s->bye);
		fail(s, LAIR_REFUSED, msg);
		return;
	}
	fail(s, LAIR_CONNECT, why);
}

struct lsess *lsess_new(uv_loop_t *loop, const struct lsess_opts *o,
			const struct lsess_handler *h, void *ud, char *err, size_t err_len)
{
	struct lsess *s = xcalloc(1, sizeof *s);
	s->loop = loop;
	s->h = *h;
	s->ud = ud;
	s->hello_id = -1;
	s->resume = o->resume;
	s->quiet = o->quiet;
	s->readonly = o->readonly;
	s->name_given = o->name && *o->name;
	strlcpy_safe(s->url, lsess_url(o->url), sizeof s->url);
	strlcpy_safe(s->role, o->role ? o->role : "player", sizeof s->role);
	s->have_store = ltoken_dir(s->store_dir, sizeof s->store_dir, err, err_len) == 0;
	if (o->token && *o->token) {
		strlcpy_safe(s->token, o->token, sizeof s->token);
	} else if (s->have_store) {
		int r = ltoken_get(s->store_dir, s->role, s->url, s->token, sizeof s->token, err,
				   err_len);
		if (r < 0)
			fprintf(stderr, "lair: warning: %s\n", err);
		if (r <= 0)
			s->token[0] = '\0';
	}
	if (o->name && *o->name) {
		strlcpy_safe(s->name, o->name, sizeof s->name);
	} else {
		/* No name given: the login name, cut to the protocol's alphabet. */
		const char *u = getenv("USER");
		size_t n = 0;
		for (const char *p = u ? u : ""; *p && n < 20; p++)
			if (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.')
				s->name[n++] = *p;
		s->name[n] = '\0';
		if (!n || !isalnum((unsigned char)s->name[0]))
			strlcpy_safe(s->name, "player", sizeof s->name);
	}
	struct lconn_handler ch = {c_open, c_message, c_down};
	s->c = lconn_open(loop, s->url, &ch, s, err, err_len);
	if (!s->c) {
		free(s);
		return NULL;
	}
	if (s->resume)
		lconn_set_retry(s->c, RETRY_ATTEMPTS);
	return s;
}

int lsess_request(struct lsess *s, cJSON *req, lsess_reply_fn fn, void *ud)
{
	if (!s->ready || s->ended) {
		cJSON_Delete(req);
		return -1;
	}
	int64_t id = ++s->next_id;
	cJSON_DeleteItemFromObjectCaseSensitive(req, "id");
	cJSON_AddNumberToObject(req, "id", (double)id);
	int rc = send_json(s, req);
	cJSON_Delete(req);
	if (rc < 0)
		return -1;
	struct pending *p = xmalloc(sizeof *p);
	p->id = id;
	p->fn = fn;
	p->ud = ud;
	p->next = NULL;
	struct pending **pp = &s->pend; /* keep order: replies come in order */
	while (*pp)
		pp = &(*pp)->next;
	*pp = p;
	return 0;
}

void lsess_note_seq(struct lsess *s, int64_t table, int64_t seq)
{
	for (int i = 0; i < s->n_tables; i++)
		if (s->tables[i].table == table) {
			if (seq > s->tables[i].seq)
				s->tables[i].seq = seq;
			return;
		}
	if (s->n_tables < MAX_TABLES) {
		s->tables[s->n_tables].table = table;
		s->tables[s->n_tables].seq = seq;
		s->n_tables++;
	}
}

void lsess_forget_table(struct lsess *s, int64_t table)
{
	for (int i = 0; i < s->n_tables; i++)
		if (s->tables[i].table == table) {
			s->tables[i] = s->tables[--s->n_tables];
			return;
		}
}

const char *lsess_player(const struct lsess *s)
{
	return s->player;
}

int lsess_is_admin(const struct lsess *s)
{
	return s->admin;
}

void lsess_drop(struct lsess *s)
{
	lconn_drop(s->c);
}

void lsess_end(struct lsess *s)
{
	if (s->ended)
		return;
	s->ended = 1;
	s->ready = 0;
	lconn_shutdown(s->c);
}

void lsess_free(struct lsess *s)
{
	if (!s)
		return;
	struct pending *p = s->pend;
	while (p) {
		struct pending *next = p->next;
		free(p);
		p = next;
	}
	lconn_free(s->c);
	cJSON_Delete(s->welcome);
	free(s);
}
