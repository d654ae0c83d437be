/*
 * redis_uv.c — see redis_uv.h. hiredis 0.14 asks its host loop, through
 * ac->ev, to watch its socket for reading and writing, and to clean up; we
 * answer with one uv_poll_t per connection. Debian's own libuv adapter
 * drops the poll callback's error status, and libuv reports a socket error
 * (a refused connect: POLLERR) only that way, after stopping the watcher:
 * the connect callback then never comes. Here an error status is handed to
 * hiredis as a read or write event, so it reads the socket's error and
 * reports it.
 *
 * Ownership: a redis_uv outlives each of its hiredis contexts. A context is
 * freed by hiredis (after a failed connect or a lost connection, once our
 * callback returns) or by us (redis_uv_close, a timeout); either way we
 * forget it first (r->ac = NULL), and hiredis's late callbacks for it find
 * ac->data or r->ac no longer pointing at it and do nothing. The poll
 * handle lives in a struct of its own, freed when the loop has closed it.
 * The redis_uv itself is freed only in its timer's close callback, on the
 * loop, never inside a hiredis call: every callback from hiredis can still
 * touch it safely.
 */
#include "redis_uv.h"

#include <hiredis/async.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/util.h"

enum rstate {
	RS_WAITING,    /* for the next attempt (retry_at) */
	RS_CONNECTING, /* TCP connect, then the hello (AUTH or PING) */
	RS_UP,
	RS_CLOSED,
};

enum pkind {
	P_COMMAND, /* the owner's command: hiredis calls on_reply once */
	P_HELLO,   /* AUTH or PING right after connecting */
	P_PING,    /* the periodic PING */
	P_SUBSCRIBE, /* one channel's confirmation (ours only: no hiredis callback) */
	P_SUBPING,   /* a subscriber's ping: its first channel subscribed again */
};

/* What we wait an answer for, in the order sent (Redis answers in order). */
struct pending {
	struct pending *prev, *next;
	redis_uv *r;
	enum pkind kind;
	uint64_t sent; /* uv_now */
	redis_uv_reply_fn *fn;
	void *ud;
};

/* The poll handle of one hiredis context. */
struct rev {
	uv_poll_t poll;
	redisAsyncContext *ac; /* NULL once hiredis cleaned up */
	int events;
};

struct redis_uv {
	uv_loop_t *loop;
	redis_uv_config cfg;
	redis_uv_state_fn *on_state;
	void *ud;
	enum rstate state;
	redisAsyncContext *ac; /* the current context, NULL when none */
	uv_timer_t timer;
	uint64_t connect_deadline, next_ping, retry_at, armed_at;
	unsigned backoff;
	bool ping_inflight;
	struct pending *head, *tail;
	size_t npending;
	/* subscriber */
	bool subscribed;
	int sub_waiting; /* confirmations before on_subscribed */
	char first_channel[256];
	redis_uv_message_fn *on_message;
	redis_uv_reply_fn *on_subscribed;
	void *sub_ud;
	redis_uv_stats stats;
	char why[256];
};

void redis_uv_config_defaults(redis_uv_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	strlcpy_safe(cfg->host, "127.0.0.1", sizeof cfg->host);
	cfg->port = 6379;
	cfg->connect_timeout_ms = 1000;
	cfg->command_timeout_ms = 2000;
	cfg->ping_interval_ms = 1000;
	cfg->backoff_min_ms = 100;
	cfg->backoff_max_ms = 2000;
	cfg->max_pending = 100000;
}

static void arm(redis_uv *r);
static void start_connect(redis_uv *r);

/* ---- the pending list -------------------------------------------------- */

static struct pending *pending_push(redis_uv *r, enum pkind kind, redis_uv_reply_fn *fn,
				    void *ud)
{
	struct pending *p = xcalloc(1, sizeof *p);
	p->r = r;
	p->kind = kind;
	p->sent = uv_now(r->loop);
	p->fn = fn;
	p->ud = ud;
	p->prev = r->tail;
	if (r->tail)
		r->tail->next = p;
	else
		r->head = p;
	r->tail = p;
	if (r->npending++ == 0)
		arm(r); /* a command deadline may now come before the next ping */
	return p;
}

static void pending_unlink(redis_uv *r, struct pending *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else
		r->head = p->next;
	if (p->next)
		p->next->prev = p->prev;
	else
		r->tail = p->prev;
	r->npending--;
}

/* The oldest subscription confirmation awaited, or NULL. */
static struct pending *pending_first_sub(redis_uv *r)
{
	for (struct pending *p = r->head; p; p = p->next)
		if (p->kind == P_SUBSCRIBE || p->kind == P_SUBPING)
			return p;
	return NULL;
}

/* After a context is gone: drop what hiredis does not answer itself (the
 * subscription confirmations), and tell a subscriber still waiting. */
static void drop_own_pending(redis_uv *r)
{
	bool told = r->sub_waiting == 0;
	struct pending *p = r->head;
	while (p) {
		struct pending *next = p->next;
		if (p->kind == P_SUBSCRIBE || p->kind == P_SUBPING) {
			pending_unlink(r, p);
			free(p);
		}
		p = next;
	}
	r->subscribed = false;
	r->sub_waiting = 0;
	r->ping_inflight = false;
	redis_uv_reply_fn *fn = r->on_subscribed;
	r->on_subscribed = NULL;
	r->on_message = NULL;
	if (!told && fn)
		fn(r, NULL, r->sub_ud);
}

/* ---- hiredis's event hooks ---------------------------------------------- */

static void on_poll(uv_poll_t *h, int status, int events)
{
	struct rev *e = h->data;
	if (!e->ac)
		return;
	if (status < 0) {
		/* libuv stopped the watcher on a socket error. Before the connect
		 * completes, hiredis learns the error on a write event (it reads
		 * SO_ERROR and calls the connect callback); after, a read gets it. */
		if (!(e->ac->c.flags & REDIS_CONNECTED))
			redisAsyncHandleWrite(e->ac);
		else
			redisAsyncHandleRead(e->ac);
		return;
	}
	if (events & UV_READABLE)
		redisAsyncHandleRead(e->ac);
	if (e->ac && (events & UV_WRITABLE))
		redisAsyncHandleWrite(e->ac);
}

static void rev_update(struct rev *e)
{
	if (e->events)
		uv_poll_start(&e->poll, e->events, on_poll);
	else
		uv_poll_stop(&e->poll);
}

static void ev_add_read(void *d)
{
	struct rev *e = d;
	e->events |= UV_READABLE;
	rev_update(e);
}

static void ev_del_read(void *d)
{
	struct rev *e = d;
	e->events &= ~UV_READABLE;
	rev_update(e);
}

static void ev_add_write(void *d)
{
	struct rev *e = d;
	e->events |= UV_WRITABLE;
	rev_update(e);
}

static void ev_del_write(void *d)
{
	struct rev *e = d;
	e->events &= ~UV_WRITABLE;
	rev_update(e);
}

static void rev_closed(uv_handle_t *h)
{
	free(h->data);
}

/* hiredis calls it once, just before it closes the socket. */
static void ev_cleanup(void *d)
{
	struct rev *e = d;
	e->ac = NULL;
	uv_close((uv_handle_t *)&e->poll, rev_closed);
}

/* ---- state changes ------------------------------------------------------ */

/* The attempt or the connection is over (r->ac already forgotten): wait,
 * then try again; tell the owner. */
static void conn_failed(redis_uv *r, const char *why)
{
	if (r->state == RS_CLOSED)
		return;
	r->state = RS_WAITING;
	r->stats.failures++;
	strlcpy_safe(r->why, why && *why ? why : "connection lost", sizeof r->why);
	/* "Equal jitter": half the delay fixed, half random, so that nodes
	 * that lost Redis together do not all come back in step. */
	unsigned d = r->backoff;
	unsigned half = d / 2;
	d = half + (unsigned)(uv_hrtime() % (uint64_t)(d - half + 1));
	r->retry_at = uv_now(r->loop) + d;
	r->backoff = r->backoff * 2 > r->cfg.backoff_max_ms ? r->cfg.backoff_max_ms
							    : r->backoff * 2;
	drop_own_pending(r);
	if (r->state != RS_WAITING)
		return; /* closed from the subscriber's callback */
	arm(r);
	r->on_state(r, false, r->why, r->ud);
}

/* Ends the current context ourselves (timeout, failed hello). */
static void drop(redis_uv *r, const char *why)
{
	redisAsyncContext *ac = r->ac;
	char copy[256];
	strlcpy_safe(copy, why, sizeof copy);
	r->ac = NULL;
	if (r->state != RS_CLOSED)
		r->state = RS_WAITING; /* commands refused while hiredis calls back */
	if (ac) {
		ac->data = NULL;
		redisAsyncFree(ac); /* answers its commands with NULL (maybe later,
				     * when called from a callback) */
	}
	conn_failed(r, copy);
}

static void hello_done(redis_uv *r, redisReply *reply);

static void on_reply(redisAsyncContext *ac, void *reply, void *privdata)
{
	(void)ac;
	struct pending *p = privdata;
	redis_uv *r = p->r;
	pending_unlink(r, p);
	if (p->kind == P_HELLO)
		hello_done(r, reply);
	else if (p->kind == P_PING)
		r->ping_inflight = false;
	else if (p->fn)
		p->fn(r, reply, p->ud);
	free(p);
}

/* Sends argv on the current context, awaited as a pending of this kind. */
static int send_argv(redis_uv *r, enum pkind kind, redis_uv_reply_fn *fn, void *ud, int argc,
		     const char **argv, const size_t *lens)
{
	struct pending *p = pending_push(r, kind, fn, ud);
	if (redisAsyncCommandArgv(r->ac, on_reply, p, argc, argv, lens) != REDIS_OK) {
		pending_unlink(r, p);
		free(p);
		return -1;
	}
	r->stats.commands++;
	return 0;
}

static void on_connect(const redisAsyncContext *cac, int status)
{
	redisAsyncContext *ac = (redisAsyncContext *)cac;
	redis_uv *r = ac->data;
	if (!r || r->ac != ac)
		return;
	if (status != REDIS_OK) {
		/* hiredis frees the context when we return. */
		char why[300];
		snprintf(why, sizeof why, "connect: %s", ac->errstr[0] ? ac->errstr : "failed");
		r->ac = NULL;
		conn_failed(r, why);
		return;
	}
	/* Up only once the server answers: a stopped server still accepts
	 * connections (the kernel does), so the connect deadline runs on. */
	const char *argv[2] = {"PING", r->cfg.password};
	size_t lens[2] = {4, strlen(r->cfg.password)};
	int argc = 1;
	if (r->cfg.password[0]) {
		argv[0] = "AUTH";
		argc = 2;
	}
	/* Refused only when the context is already failing: its disconnect
	 * path reports it. */
	send_argv(r, P_HELLO, NULL, NULL, argc, argv, lens);
}

static void hello_done(redis_uv *r, redisReply *reply)
{
	if (!reply || r->state != RS_CONNECTING)
		return; /* the context is going: whoever ends it reports it */
	if (reply->type == REDIS_REPLY_ERROR) {
		char why[300];
		snprintf(why, sizeof why, "%s: %s", r->cfg.password[0] ? "AUTH" : "PING",
			 reply->str);
		drop(r, why);
		return;
	}
	r->state = RS_UP;
	r->backoff = r->cfg.backoff_min_ms;
	r->next_ping = uv_now(r->loop) + r->cfg.ping_interval_ms;
	r->stats.connects++;
	arm(r);
	r->on_state(r, true, NULL, r->ud);
}

static void on_disconnect(const redisAsyncContext *cac, int status)
{
	(void)status;
	redisAsyncContext *ac = (redisAsyncContext *)cac;
	redis_uv *r = ac->data;
	if (!r || r->ac != ac)
		return;
	char why[300];
	snprintf(why, sizeof why, "lost: %s", ac->errstr[0] ? ac->errstr : "closed");
	r->ac = NULL;
	conn_failed(r, why);
}

static void start_connect(redis_uv *r)
{
	r->state = RS_CONNECTING;
	r->connect_deadline = uv_now(r->loop) + r->cfg.connect_timeout_ms;
	redisAsyncContext *ac = redisAsyncConnect(r->cfg.host, r->cfg.port);
	if (!ac) {
		conn_failed(r, "connect: out of memory");
		return;
	}
	if (ac->err) {
		char why[300];
		snprintf(why, sizeof why, "connect: %s", ac->errstr);
		redisAsyncFree(ac);
		conn_failed(r, why);
		return;
	}
	struct rev *e = xcalloc(1, sizeof *e);
	if (uv_poll_init(r->loop, &e->poll, ac->c.fd) != 0) {
		free(e);
		redisAsyncFree(ac);
		conn_failed(r, "connect: cannot watch the socket");
		return;
	}
	e->poll.data = e;
	e->ac = ac;
	ac->ev.data = e;
	ac->ev.addRead = ev_add_read;
	ac->ev.delRead = ev_del_read;
	ac->ev.addWrite = ev_add_write;
	ac->ev.delWrite = ev_del_write;
	ac->ev.cleanup = ev_cleanup;
	ac->data = r;
	r->ac = ac;
	redisAsyncSetDisconnectCallback(ac, on_disconnect);
	redisAsyncSetConnectCallback(ac, on_connect); /* starts watching for writable */
	arm(r);
}

/* ---- the timer: connect deadline, command deadline, ping, retry --------- */

static void on_sub_message(redisAsyncContext *ac, void *reply, void *privdata);

static void send_ping(redis_uv *r)
{
	if (r->ping_inflight)
		return;
	if (r->subscribed) {
		/* A subscriber may not PING with hiredis 0.14 (the answer would be
		 * taken for a message); subscribing to a channel again is answered
		 * with a confirmation: as good a sign of life. hiredis keeps one
		 * callback per channel, so it must be the same one. */
		const char *argv[2] = {"SUBSCRIBE", r->first_channel};
		size_t lens[2] = {9, strlen(r->first_channel)};
		struct pending *p = pending_push(r, P_SUBPING, NULL, NULL);
		if (redisAsyncCommandArgv(r->ac, on_sub_message, r, 2, argv, lens) != REDIS_OK) {
			pending_unlink(r, p);
			free(p);
			return;
		}
		r->stats.commands++;
	} else {
		const char *argv[1] = {"PING"};
		size_t lens[1] = {4};
		if (send_argv(r, P_PING, NULL, NULL, 1, argv, lens) != 0)
			return;
	}
	r->ping_inflight = true;
}

static void on_timer(uv_timer_t *t)
{
	redis_uv *r = t->data;
	uint64_t now = uv_now(r->loop);
	r->armed_at = 0;
	switch (r->state) {
	case RS_WAITING:
		if (now >= r->retry_at) {
			start_connect(r);
			return;
		}
		break;
	case RS_CONNECTING:
		if (now >= r->connect_deadline) {
			r->stats.timeouts++;
			char why[80];
			snprintf(why, sizeof why, "connect: no answer within %u ms",
				 r->cfg.connect_timeout_ms);
			drop(r, why);
			return;
		}
		break;
	case RS_UP:
		if (r->head && now >= r->head->sent + r->cfg.command_timeout_ms && r->ac) {
			/* The loop may have been busy past the deadline with the
			 * answer already in the socket: read it before judging. */
			redisAsyncHandleRead(r->ac);
			if (r->state != RS_UP)
				return;
		}
		if (r->head && now >= r->head->sent + r->cfg.command_timeout_ms) {
			r->stats.timeouts++;
			char why[80];
			snprintf(why, sizeof why, "no answer within %u ms",
				 r->cfg.command_timeout_ms);
			drop(r, why);
			return;
		}
		if (now >= r->next_ping) {
			r->next_ping = now + r->cfg.ping_interval_ms;
			send_ping(r);
			if (r->state != RS_UP)
				return;
		}
		break;
	case RS_CLOSED:
		return;
	}
	arm(r);
}

/* (Re)starts the timer for the nearest deadline of the current state. */
static void arm(redis_uv *r)
{
	uint64_t at;
	switch (r->state) {
	case RS_WAITING:
		at = r->retry_at;
		break;
	case RS_CONNECTING:
		at = r->connect_deadline;
		break;
	case RS_UP:
		at = r->next_ping;
		if (r->head && r->head->sent + r->cfg.command_timeout_ms < at)
			at = r->head->sent + r->cfg.command_timeout_ms;
		break;
	default:
		return;
	}
	if (r->armed_at && r->armed_at <= at && uv_is_active((uv_handle_t *)&r->timer))
		return; /* it fires sooner anyway and looks again */
	uint64_t now = uv_now(r->loop);
	r->armed_at = at;
	uv_timer_start(&r->timer, on_timer, at > now ? at - now : 0, 0);
}

/* ---- subscriber ---------------------------------------------------------- */

static bool is_str(const redisReply *e, const char *s)
{
	size_t n = strlen(s);
	return e->type == REDIS_REPLY_STRING && e->len == n && !strncasecmp(e->str, s, n);
}

/* hiredis calls it for every message and confirmation on a subscribed
 * channel, and once per channel with NULL when the context goes. */
static void on_sub_message(redisAsyncContext *ac, void *reply_, void *privdata)
{
	redis_uv *r = privdata;
	redisReply *reply = reply_;
	if (!reply || ac->data != r || r->ac != ac)
		return;
	if (reply->type != REDIS_REPLY_ARRAY || reply->elements < 3)
		return;
	redisReply **el = reply->element;
	if (is_str(el[0], "message") && el[1]->type == REDIS_REPLY_STRING &&
	    el[2]->type == REDIS_REPLY_STRING) {
		r->stats.messages++;
		if (r->on_message)
			r->on_message(r, el[1]->str, el[1]->len, el[2]->str, el[2]->len, r->sub_ud);
		return;
	}
	if (!is_str(el[0], "subscribe"))
		return;
	struct pending *p = pending_first_sub(r);
	if (!p)
		return;
	pending_unlink(r, p);
	enum pkind kind = p->kind;
	free(p);
	if (kind == P_SUBPING) {
		r->ping_inflight = false;
	} else if (r->sub_waiting > 0 && --r->sub_waiting == 0 && r->on_subscribed) {
		redis_uv_reply_fn *fn = r->on_subscribed;
		r->on_subscribed = NULL;
		fn(r, reply, r->sub_ud);
	}
}

int redis_uv_subscribe(redis_uv *r, const char *const *channels, int n,
		       redis_uv_message_fn *on_message, redis_uv_reply_fn *on_subscribed,
		       void *ud)
{
	if (r->state != RS_UP || !r->ac || n <= 0 || r->sub_waiting > 0)
		return -1;
	if (!r->subscribed && r->head)
		return -1; /* answers to plain commands still due: keep them apart */
	const char **argv = xcalloc((size_t)n + 1, sizeof *argv);
	size_t *lens = xcalloc((size_t)n + 1, sizeof *lens);
	argv[0] = "SUBSCRIBE";
	lens[0] = 9;
	for (int i = 0; i < n; i++) {
		argv[i + 1] = channels[i];
		lens[i + 1] = strlen(channels[i]);
	}
	int rc = -1;
	if (strlen(channels[0]) < sizeof r->first_channel &&
	    redisAsyncCommandArgv(r->ac, on_sub_message, r, n + 1, argv, lens) == REDIS_OK) {
		if (!r->subscribed)
			strlcpy_safe(r->first_channel, channels[0], sizeof r->first_channel);
		r->subscribed = true;
		r->on_message = on_message;
		r->on_subscribed = on_subscribed;
		r->sub_ud = ud;
		r->sub_waiting = n;
		for (int i = 0; i < n; i++)
			pending_push(r, P_SUBSCRIBE, NULL, NULL);
		r->stats.commands++;
		rc = 0;
	}
	free(argv);
	free(lens);
	return rc;
}

/* ---- the public rest ---------------------------------------------------- */

redis_uv *redis_uv_open(uv_loop_t *loop, const redis_uv_config *cfg,
			redis_uv_state_fn *on_state, void *ud)
{
	redis_uv *r = xcalloc(1, sizeof *r);
	r->loop = loop;
	r->cfg = *cfg;
	if (r->cfg.backoff_min_ms == 0)
		r->cfg.backoff_min_ms = 1;
	if (r->cfg.backoff_max_ms < r->cfg.backoff_min_ms)
		r->cfg.backoff_max_ms = r->cfg.backoff_min_ms;
	r->backoff = r->cfg.backoff_min_ms;
	r->on_state = on_state;
	r->ud = ud;
	if (uv_timer_init(loop, &r->timer) != 0) {
		free(r);
		return NULL;
	}
	r->timer.data = r;
	start_connect(r);
	return r;
}

static void timer_closed(uv_handle_t *h)
{
	free(h->data);
}

void redis_uv_close(redis_uv *r)
{
	if (!r || r->state == RS_CLOSED)
		return;
	r->state = RS_CLOSED;
	redisAsyncContext *ac = r->ac;
	r->ac = NULL;
	if (ac) {
		ac->data = NULL;
		redisAsyncFree(ac);
	}
	drop_own_pending(r);
	uv_close((uv_handle_t *)&r->timer, timer_closed);
}

bool redis_uv_is_up(const redis_uv *r)
{
	return r->state == RS_UP;
}

int redis_uv_command(redis_uv *r, redis_uv_reply_fn *fn, void *ud, int argc,
		     const char **argv, const size_t *argvlen)
{
	if (r->state != RS_UP || !r->ac || r->subscribed || argc <= 0 ||
	    r->npending >= r->cfg.max_pending)
		return -1;
	return send_argv(r, P_COMMAND, fn, ud, argc, argv, argvlen);
}

void redis_uv_get_stats(const redis_uv *r, redis_uv_stats *out)
{
	*out = r->stats;
}
