/*
 * bus.c — see bus.h. The frame grammar (docs/cluster.md):
 *
 *   frame  = header LF payload
 *   header = type SP from *( SP word )      at most 1024 bytes, 16 words
 *   type   = 1*16 ( %x61-7A / "+" / "-" )   lower-case letters, + and -
 *   from   = 1*63 ( ALPHA / DIGIT / "." / "_" / "-" )   a node id
 *   word   = 1*128 %x21-7E                  printable, no space
 *   payload = *OCTET                        the bus never reads it
 *
 * A message on our channels that is not a frame is counted and dropped, as
 * is a frame whose type has no handler (a newer node's type: nodes of two
 * versions can share a bus during an upgrade).
 */
#include "bus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "metrics.h"

#define BUS_MAX_HANDLERS 32

struct handler {
	char type[BUS_MAX_TYPE + 1];
	bus_handler_fn *fn;
	void *ud;
};

struct bus {
	uv_loop_t *loop;
	bus_config cfg;
	bus_state_fn *on_state;
	void *ud;
	redis_uv *sub, *cmd;
	uv_timer_t lifetime; /* never started: its close callback frees the bus */
	bool sub_ready, cmd_ready, up, closed;
	char ch_all[64], ch_self[128]; /* our two channels */
	size_t ch_all_len, ch_self_len;
	struct handler handlers[BUS_MAX_HANDLERS];
	int nhandlers;
	bus_stats stats;
};

/* A publish or command awaiting Redis's answer. */
struct call {
	bus *b;
	bus_done_fn *done;
	bus_reply_fn *reply;
	void *ud;
};

void bus_config_defaults(bus_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	redis_uv_config_defaults(&cfg->redis);
	strlcpy_safe(cfg->prefix, "lair:", sizeof cfg->prefix);
	strlcpy_safe(cfg->node, "n1", sizeof cfg->node);
}

static bool node_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

bool bus_word_ok(const char *s, size_t len, bool node_id)
{
	if (len == 0 || len > (node_id ? BUS_MAX_NODE : BUS_MAX_WORD))
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (node_id ? !node_char((char)c) : (c < 0x21 || c > 0x7e))
			return false;
	}
	return true;
}

static bool type_ok(const char *s, size_t len)
{
	if (len == 0 || len > BUS_MAX_TYPE)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || s[i] == '+' || s[i] == '-'))
			return false;
	return true;
}

int bus_parse(const char *data, size_t len, char *hdr, bus_frame *f)
{
	const char *nl = memchr(data, '\n', len < BUS_MAX_HEADER + 1 ? len : BUS_MAX_HEADER + 1);
	if (!nl)
		return -1;
	size_t hlen = (size_t)(nl - data);
	memcpy(hdr, data, hlen);
	hdr[hlen] = 0;
	memset(f, 0, sizeof *f);
	f->payload = nl + 1;
	f->len = len - hlen - 1;
	/* Split on single spaces: an empty word (two spaces, a leading or a
	 * trailing one) is not a frame. */
	int n = 0;
	const char *parts[BUS_MAX_WORDS + 2];
	char *p = hdr;
	for (;;) {
		char *sp = strchr(p, ' ');
		if (n == BUS_MAX_WORDS + 2)
			return -1;
		parts[n++] = p;
		if (!sp)
			break;
		*sp = 0;
		p = sp + 1;
	}
	if (n < 2 || !type_ok(parts[0], strlen(parts[0])) ||
	    !bus_word_ok(parts[1], strlen(parts[1]), true))
		return -1;
	for (int i = 2; i < n; i++)
		if (!bus_word_ok(parts[i], strlen(parts[i]), false))
			return -1;
	f->type = parts[0];
	f->from = parts[1];
	f->nwords = n - 2;
	for (int i = 2; i < n; i++)
		f->word[i - 2] = parts[i];
	return 0;
}

/* ---- receiving ------------------------------------------------------------ */

static void on_message(redis_uv *r, const char *channel, size_t chlen, const char *data,
		       size_t len, void *ud)
{
	(void)r;
	bus *b = ud;
	char hdr[BUS_MAX_HEADER + 1];
	bus_frame f;
	b->stats.bytes_in += len;
	if (bus_parse(data, len, hdr, &f) != 0) {
		b->stats.bad_frames++;
		return;
	}
	b->stats.frames_in++;
	f.to_all = chlen == b->ch_all_len && !memcmp(channel, b->ch_all, chlen);
	for (int i = 0; i < b->nhandlers; i++)
		if (!strcmp(b->handlers[i].type, f.type)) {
			b->handlers[i].fn(b, &f, b->handlers[i].ud);
			return;
		}
	b->stats.unhandled++;
}

/* ---- up and down -------------------------------------------------------- */

static void set_up(bus *b, bool up, const char *why)
{
	if (b->up == up || b->closed)
		return;
	b->up = up;
	if (up) {
		b->stats.ups++;
		log_info("bus", "up: node %s on %s:%d", b->cfg.node, b->cfg.redis.host,
			 b->cfg.redis.port);
	} else {
		b->stats.downs++;
		log_warn("bus", "down: %s", why ? why : "lost");
	}
	b->on_state(b, up, b->ud);
}

static void on_subscribed(redis_uv *r, redisReply *reply, void *ud)
{
	(void)r;
	bus *b = ud;
	if (!reply)
		return; /* lost first: its state callback tells */
	b->sub_ready = true;
	if (b->cmd_ready)
		set_up(b, true, NULL);
}

static void on_sub_state(redis_uv *r, bool up, const char *why, void *ud)
{
	bus *b = ud;
	if (!up) {
		b->sub_ready = false;
		set_up(b, false, why);
		return;
	}
	/* Subscribe first: from the confirmation on, nothing is missed. */
	const char *ch[2] = {b->ch_all, b->ch_self};
	if (redis_uv_subscribe(r, ch, 2, on_message, on_subscribed, b) != 0)
		log_warn("bus", "cannot subscribe");
}

static void on_cmd_state(redis_uv *r, bool up, const char *why, void *ud)
{
	(void)r;
	bus *b = ud;
	b->cmd_ready = up;
	if (!up)
		set_up(b, false, why);
	else if (b->sub_ready)
		set_up(b, true, NULL);
}

/* ---- open, close -------------------------------------------------------- */

bus *bus_open(uv_loop_t *loop, const bus_config *cfg, bus_state_fn *on_state, void *ud,
	      char *err, size_t errlen)
{
	if (!bus_word_ok(cfg->node, strlen(cfg->node), true)) {
		snprintf(err, errlen, "node id \"%s\": 1 to %d letters, digits, '.', '_' or '-'",
			 cfg->node, BUS_MAX_NODE);
		return NULL;
	}
	if (!bus_word_ok(cfg->prefix, strlen(cfg->prefix), false) || strlen(cfg->prefix) > 24) {
		snprintf(err, errlen, "bus prefix \"%s\": 1 to 24 printable characters, no space",
			 cfg->prefix);
		return NULL;
	}
	bus *b = xcalloc(1, sizeof *b);
	b->loop = loop;
	b->cfg = *cfg;
	b->on_state = on_state;
	b->ud = ud;
	snprintf(b->ch_all, sizeof b->ch_all, "%sbus", cfg->prefix);
	snprintf(b->ch_self, sizeof b->ch_self, "%sn:%s", cfg->prefix, cfg->node);
	b->ch_all_len = strlen(b->ch_all);
	b->ch_self_len = strlen(b->ch_self);
	uv_timer_init(loop, &b->lifetime);
	b->lifetime.data = b;
	b->sub = redis_uv_open(loop, &cfg->redis, on_sub_state, b);
	b->cmd = redis_uv_open(loop, &cfg->redis, on_cmd_state, b);
	if (!b->sub || !b->cmd) {
		bus_close(b);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return b;
}

static void bus_freed(uv_handle_t *h)
{
	free(h->data);
}

void bus_close(bus *b)
{
	if (!b)
		return;
	b->closed = true;
	redis_uv_close(b->sub);
	redis_uv_close(b->cmd);
	/* Pending calls are answered during redis_uv_close, or, when closed
	 * from inside a Redis callback, as soon as that returns: before the
	 * loop runs close callbacks. So b is freed in one. */
	uv_close((uv_handle_t *)&b->lifetime, bus_freed);
}

bool bus_is_up(const bus *b)
{
	return b->up;
}

const char *bus_node(const bus *b)
{
	return b->cfg.node;
}

const char *bus_prefix(const bus *b)
{
	return b->cfg.prefix;
}

int bus_on(bus *b, const char *type, bus_handler_fn *fn, void *ud)
{
	if (!type_ok(type, strlen(type)))
		return -1;
	for (int i = 0; i < b->nhandlers; i++)
		if (!strcmp(b->handlers[i].type, type)) {
			b->handlers[i].fn = fn;
			b->handlers[i].ud = ud;
			return 0;
		}
	if (b->nhandlers == BUS_MAX_HANDLERS)
		return -1;
	struct handler *h = &b->handlers[b->nhandlers++];
	strlcpy_safe(h->type, type, sizeof h->type);
	h->fn = fn;
	h->ud = ud;
	return 0;
}

/* ---- sending ----------------------------------------------------------- */

static void on_call_reply(redis_uv *r, redisReply *reply, void *ud)
{
	(void)r;
	struct call *c = ud;
	if (c->reply) {
		c->reply(c->b, reply, c->ud);
	} else if (c->done) {
		long long n = reply && reply->type == REDIS_REPLY_INTEGER ? reply->integer : -1;
		c->done(c->b, n, c->ud);
	}
	free(c);
}

int bus_publish(bus *b, const char *to, const char *type, const char *const *words, int nwords,
		const char *payload, size_t len, bus_done_fn *done, void *ud)
{
	if (!b->up || nwords < 0 || nwords > BUS_MAX_WORDS || !type_ok(type, strlen(type)))
		return -1;
	if (to && !bus_word_ok(to, strlen(to), true))
		return -1;
	char hdr[BUS_MAX_HEADER + 2];
	size_t h = (size_t)snprintf(hdr, sizeof hdr, "%s %s", type, b->cfg.node);
	for (int i = 0; i < nwords; i++) {
		size_t wl = strlen(words[i]);
		if (!bus_word_ok(words[i], wl, false) || h + 1 + wl > BUS_MAX_HEADER)
			return -1;
		hdr[h++] = ' ';
		memcpy(hdr + h, words[i], wl);
		h += wl;
	}
	hdr[h++] = '\n';
	char *msg = xmalloc(h + len);
	memcpy(msg, hdr, h);
	if (len)
		memcpy(msg + h, payload, len);
	char ch[160];
	if (to)
		snprintf(ch, sizeof ch, "%sn:%s", b->cfg.prefix, to);
	else
		strlcpy_safe(ch, b->ch_all, sizeof ch);
	const char *argv[3] = {"PUBLISH", ch, msg};
	size_t lens[3] = {7, strlen(ch), h + len};
	struct call *c = xcalloc(1, sizeof *c);
	c->b = b;
	c->done = done;
	c->ud = ud;
	int rc = redis_uv_command(b->cmd, on_call_reply, c, 3, argv, lens);
	free(msg);
	if (rc != 0) {
		free(c);
		return -1;
	}
	b->stats.frames_out++;
	b->stats.bytes_out += h + len;
	return 0;
}

int bus_command(bus *b, bus_reply_fn *fn, void *ud, int argc, const char **argv,
		const size_t *argvlen)
{
	if (!b->up)
		return -1;
	struct call *c = xcalloc(1, sizeof *c);
	c->b = b;
	c->reply = fn;
	c->ud = ud;
	if (redis_uv_command(b->cmd, on_call_reply, c, argc, argv, argvlen) != 0) {
		free(c);
		return -1;
	}
	return 0;
}

void bus_get_stats(const bus *b, bus_stats *out)
{
	*out = b->stats;
}

void bus_metrics(const bus *b, buf *out)
{
	metrics_gauge(out, "lair_bus_up", "1 while this node is connected to the cluster's bus",
		      b->up ? 1 : 0);
	metrics_family(out, "lair_bus_messages_total", "counter",
		       "bus frames sent (out) and received (in)");
	metrics_sample_l(out, "lair_bus_messages_total", "dir", "in", (double)b->stats.frames_in);
	metrics_sample_l(out, "lair_bus_messages_total", "dir", "out",
			 (double)b->stats.frames_out);
	metrics_counter(out, "lair_bus_bad_frames_total",
			"bus messages that were not frames, dropped", (double)b->stats.bad_frames);
}
