/*
 * test_bus.c — the cluster's bus (server/bus.h): the frame grammar of
 * docs/cluster.md (what is a frame, what is dropped), and three nodes on
 * one loop over a real redis-server: a frame to all reaches every node,
 * the sender included, and every node sees all frames in one order; a
 * frame to a node reaches it alone; the bus is up only once subscribed
 * (a frame published from the up callback comes back); down once when
 * Redis dies, up again when it returns; publishing refused while down.
 */
#include <uv.h>

#include "../../common/log.h"
#include "../../common/util.h"
#include "../../server/bus.h"
#include "../test.h"
#include "redis_server.h"

/* ---- the grammar ---------------------------------------------------------- */

static int parse(const char *text, bus_frame *f, char *hdr)
{
	return bus_parse(text, strlen(text), hdr, f);
}

TEST(bus_frame_header_words_and_payload)
{
	char hdr[BUS_MAX_HEADER + 1];
	bus_frame f;
	REQUIRE(parse("chat n2 lobby:1 7\n{\"text\":\"a b\\nc\"}", &f, hdr) == 0);
	CHECK_STR(f.type, "chat");
	CHECK_STR(f.from, "n2");
	CHECK_EQ(f.nwords, 2);
	CHECK_STR(f.word[0], "lobby:1");
	CHECK_STR(f.word[1], "7");
	CHECK_EQ(f.len, strlen("{\"text\":\"a b\\nc\"}"));
	CHECK_STR(f.payload, "{\"text\":\"a b\\nc\"}");
	/* No words, an empty payload, a payload with newlines and bytes the
	 * header may not have. */
	REQUIRE(parse("up n-1.x_y\n", &f, hdr) == 0);
	CHECK_EQ(f.nwords, 0);
	CHECK_EQ(f.len, 0);
	REQUIRE(parse("tbl- n1 42\nline\nline \x01\x7f", &f, hdr) == 0);
	CHECK_STR(f.type, "tbl-");
	CHECK_EQ(f.len, 12);
	/* Exactly BUS_MAX_WORDS words. */
	char text[BUS_MAX_HEADER + 64] = "lobby+ n1";
	for (int i = 0; i < BUS_MAX_WORDS; i++)
		strcat(text, " w");
	strcat(text, "\n");
	REQUIRE(parse(text, &f, hdr) == 0);
	CHECK_EQ(f.nwords, BUS_MAX_WORDS);
}

TEST(bus_frame_malformed_is_not_a_frame)
{
	char hdr[BUS_MAX_HEADER + 1];
	bus_frame f;
	static const char *const bad[] = {
		"chat n1",                 /* no newline */
		"chat\n",                  /* no sender */
		"Chat n1\n",               /* a type is lower case */
		"chat_x n1\n",             /* ... letters, + and - only */
		"averyveryverylongtype n1\n", /* more than 16 bytes */
		"chat n1 \n",              /* trailing space: an empty word */
		"chat  n1\n",              /* two spaces */
		" chat n1\n",              /* leading space */
		"chat n:1\n",              /* a node id has no ':' */
		"chat n1 a\tb\n",          /* control character in a word */
		"chat n1 caf\xc3\xa9\n",   /* a word is printable ASCII */
		"",
		"\n",
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++)
		CHECK_MSG(parse(bad[i], &f, hdr) == -1, "accepted: \"%s\"", bad[i]);
	/* One word too many; a header past BUS_MAX_HEADER. */
	char text[2 * BUS_MAX_HEADER] = "chat n1";
	for (int i = 0; i < BUS_MAX_WORDS + 1; i++)
		strcat(text, " w");
	strcat(text, "\n");
	CHECK(parse(text, &f, hdr) == -1);
	memset(text, 0, sizeof text);
	strcpy(text, "chat n1 ");
	memset(text + 8, 'x', BUS_MAX_HEADER);
	strcat(text, "\n{}");
	CHECK(parse(text, &f, hdr) == -1);
	/* A word longer than BUS_MAX_WORD. */
	memset(text, 0, sizeof text);
	strcpy(text, "chat n1 ");
	memset(text + 8, 'x', BUS_MAX_WORD + 1);
	strcat(text, "\n");
	CHECK(parse(text, &f, hdr) == -1);
	CHECK(!bus_word_ok("", 0, false));
	CHECK(bus_word_ok("lair:n:1", 8, false));
	CHECK(!bus_word_ok("lair:n:1", 8, true));
}

/* ---- nodes on a real Redis ---------------------------------------------- */

#define MAXREC 4096

struct node {
	bus *b;
	int ups, downs;
	int got;            /* frames of type "seq" received */
	char rec[MAXREC][24]; /* "from:payload" of each, in order */
	int to_self;        /* "direct" frames received, and not to_all */
	int direct_to_all;
	long long done_last;
	int dones;
	bool publish_on_up;
	int echo;           /* our own "hello" frames received */
};

static void on_guard(uv_timer_t *t)
{
	*(bool *)t->data = true;
}

static uv_loop_t loop;

static bool run_until(const int *counter, int want, unsigned ms)
{
	uv_timer_t guard;
	bool expired = false;
	uv_timer_init(&loop, &guard);
	guard.data = &expired;
	uv_timer_start(&guard, on_guard, ms, 0);
	while (*counter < want && !expired)
		uv_run(&loop, UV_RUN_ONCE);
	uv_close((uv_handle_t *)&guard, NULL);
	uv_run(&loop, UV_RUN_NOWAIT);
	return *counter >= want;
}

static void on_done(bus *b, long long receivers, void *ud)
{
	(void)b;
	struct node *n = ud;
	n->done_last = receivers;
	n->dones++;
}

static void on_state(bus *b, bool up, void *ud)
{
	struct node *n = ud;
	if (!up) {
		n->downs++;
		CHECK_EQ(bus_publish(b, NULL, "hello", NULL, 0, "", 0, NULL, NULL), -1);
		return;
	}
	n->ups++;
	if (n->publish_on_up)
		CHECK_EQ(bus_publish(b, NULL, "hello", NULL, 0, "x", 1, NULL, NULL), 0);
}

static void on_seq(bus *b, const bus_frame *f, void *ud)
{
	(void)b;
	struct node *n = ud;
	CHECK(f->to_all);
	if (n->got < MAXREC)
		snprintf(n->rec[n->got], sizeof n->rec[0], "%s:%.*s", f->from, (int)f->len,
			 f->payload);
	n->got++;
}

static void on_direct(bus *b, const bus_frame *f, void *ud)
{
	(void)b;
	struct node *n = ud;
	if (f->to_all)
		n->direct_to_all++;
	else
		n->to_self++;
	CHECK_EQ(f->nwords, 2);
	CHECK_STR(f->word[0], "alice");
	CHECK_STR(f->word[1], "3");
}

static void on_hello(bus *b, const bus_frame *f, void *ud)
{
	struct node *n = ud;
	if (!strcmp(f->from, bus_node(b)))
		n->echo++;
}

static bus *open_node(struct node *n, const char *id, int port)
{
	log_set_level(LOG_ERROR); /* the bus's up/down lines are expected here */
	bus_config cfg;
	bus_config_defaults(&cfg);
	strlcpy_safe(cfg.node, id, sizeof cfg.node);
	cfg.redis.port = port;
	cfg.redis.command_timeout_ms = 500;
	cfg.redis.ping_interval_ms = 100;
	cfg.redis.backoff_min_ms = 20;
	cfg.redis.backoff_max_ms = 200;
	char err[200];
	n->b = bus_open(&loop, &cfg, on_state, n, err, sizeof err);
	if (n->b) {
		bus_on(n->b, "seq", on_seq, n);
		bus_on(n->b, "direct", on_direct, n);
		bus_on(n->b, "hello", on_hello, n);
	}
	return n->b;
}

static void end_loop(void)
{
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_EQ(uv_loop_close(&loop), 0);
}

TEST(bus_bad_settings_are_refused)
{
	uv_loop_init(&loop);
	bus_config cfg;
	bus_config_defaults(&cfg);
	char err[200];
	strcpy(cfg.node, "n 1");
	CHECK(bus_open(&loop, &cfg, on_state, NULL, err, sizeof err) == NULL);
	CHECK(strstr(err, "node id") != NULL);
	bus_config_defaults(&cfg);
	strcpy(cfg.prefix, "a b");
	CHECK(bus_open(&loop, &cfg, on_state, NULL, err, sizeof err) == NULL);
	end_loop();
}

TEST(bus_frames_reach_every_node_in_one_order)
{
	test_redis srv = {0};
	REQUIRE(test_redis_start(&srv));
	uv_loop_init(&loop);
	static struct node n[3];
	memset(n, 0, sizeof n);
	const char *ids[3] = {"n1", "n2", "n3"};
	for (int i = 0; i < 3; i++) {
		n[i].publish_on_up = true;
		REQUIRE(open_node(&n[i], ids[i], srv.port));
	}
	for (int i = 0; i < 3; i++) {
		CHECK(run_until(&n[i].ups, 1, 5000));
		/* Published from the up callback, heard: subscribed first. */
		CHECK(run_until(&n[i].echo, 1, 5000));
	}
	/* The three publish, interleaved, 300 frames each. */
	enum { PER = 300 };
	char num[16];
	for (int k = 0; k < PER; k++)
		for (int i = 0; i < 3; i++) {
			snprintf(num, sizeof num, "%d", k);
			CHECK_EQ(bus_publish(n[i].b, NULL, "seq", NULL, 0, num, strlen(num), on_done,
					     &n[i]), 0);
		}
	for (int i = 0; i < 3; i++)
		CHECK(run_until(&n[i].got, 3 * PER, 10000));
	for (int i = 1; i < 3; i++)
		for (int k = 0; k < 3 * PER; k++)
			if (strcmp(n[0].rec[k], n[i].rec[k]) != 0) {
				CHECK_MSG(false, "node %d frame %d: %s vs %s", i, k, n[i].rec[k],
					  n[0].rec[k]);
				break;
			}
	/* Each sender's frames in the order it sent them. */
	int next[3] = {0, 0, 0};
	for (int k = 0; k < 3 * PER; k++) {
		int who = n[0].rec[k][1] - '1', v = atoi(n[0].rec[k] + 3);
		CHECK_EQ(v, next[who]);
		next[who] = v + 1;
	}
	CHECK(run_until(&n[0].dones, PER, 5000));
	CHECK_EQ(n[0].done_last, 3); /* three nodes subscribed */
	/* To one node: n2 alone hears it, on its own channel. */
	const char *w[2] = {"alice", "3"};
	n[0].dones = 0;
	CHECK_EQ(bus_publish(n[0].b, "n2", "direct", w, 2, "{}", 2, on_done, &n[0]), 0);
	CHECK(run_until(&n[1].to_self, 1, 5000));
	CHECK(run_until(&n[0].dones, 1, 5000));
	CHECK_EQ(n[0].done_last, 1);
	/* To a node nobody is: 0 receivers (the caller can fail fast). */
	CHECK_EQ(bus_publish(n[0].b, "n9", "direct", w, 2, "{}", 2, on_done, &n[0]), 0);
	CHECK(run_until(&n[0].dones, 2, 5000));
	CHECK_EQ(n[0].done_last, 0);
	CHECK_EQ(n[0].to_self + n[2].to_self, 0);
	CHECK_EQ(n[1].direct_to_all, 0);
	/* Bad words are refused before anything is sent. */
	const char *badw[1] = {"a b"};
	CHECK_EQ(bus_publish(n[0].b, NULL, "seq", badw, 1, "", 0, NULL, NULL), -1);
	CHECK_EQ(bus_publish(n[0].b, "n 2", "seq", NULL, 0, "", 0, NULL, NULL), -1);
	CHECK_EQ(bus_publish(n[0].b, NULL, "Seq", NULL, 0, "", 0, NULL, NULL), -1);
	/* Something that is not a frame, and a type nobody handles: counted,
	 * dropped, nothing else happens. */
	const char *argv[3] = {"PUBLISH", "lair:bus", "no newline here"};
	size_t lens[3] = {7, 8, 15};
	CHECK_EQ(bus_command(n[0].b, NULL, NULL, 3, argv, lens), 0);
	CHECK_EQ(bus_publish(n[0].b, NULL, "later", NULL, 0, "", 0, NULL, NULL), 0);
	CHECK_EQ(bus_publish(n[0].b, NULL, "seq", NULL, 0, "end", 3, NULL, NULL), 0);
	CHECK(run_until(&n[2].got, 3 * PER + 1, 5000));
	bus_stats st;
	bus_get_stats(n[2].b, &st);
	CHECK_EQ(st.bad_frames, 1);
	CHECK_EQ(st.unhandled, 1);
	buf m = {0};
	bus_metrics(n[2].b, &m);
	CHECK(strstr(m.data, "lair_bus_up 1\n") != NULL);
	CHECK(strstr(m.data, "lair_bus_messages_total{dir=\"in\"}") != NULL);
	buf_free(&m);
	for (int i = 0; i < 3; i++)
		bus_close(n[i].b);
	end_loop();
	test_redis_cleanup(&srv);
}

TEST(bus_goes_down_once_and_comes_back_with_redis)
{
	test_redis srv = {0};
	REQUIRE(test_redis_start(&srv));
	uv_loop_init(&loop);
	static struct node a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.publish_on_up = true;
	REQUIRE(open_node(&a, "a", srv.port));
	REQUIRE(open_node(&b, "b", srv.port));
	CHECK(run_until(&a.ups, 1, 5000));
	CHECK(run_until(&b.ups, 1, 5000));
	CHECK(run_until(&a.echo, 1, 5000));
	test_redis_kill(&srv);
	CHECK(run_until(&a.downs, 1, 5000));
	CHECK(run_until(&b.downs, 1, 5000));
	CHECK(!bus_is_up(a.b));
	/* Both connections were lost: still one down each. */
	CHECK(run_until(&a.downs, 2, 300) == false);
	REQUIRE(test_redis_start(&srv));
	CHECK(run_until(&a.ups, 2, 5000));
	CHECK(run_until(&b.ups, 2, 5000));
	CHECK_EQ(a.downs, 1);
	CHECK(run_until(&a.echo, 2, 5000)); /* subscribed again before up */
	CHECK_EQ(bus_publish(b.b, NULL, "seq", NULL, 0, "0", 1, NULL, NULL), 0);
	CHECK(run_until(&a.got, 1, 5000));
	CHECK_STR(a.rec[0], "b:0");
	/* A stopped Redis: the pings find it. */
	test_redis_signal(&srv, SIGSTOP);
	CHECK(run_until(&a.downs, 2, 5000));
	test_redis_signal(&srv, SIGCONT);
	CHECK(run_until(&a.ups, 3, 5000));
	bus_close(a.b);
	bus_close(b.b);
	end_loop();
	test_redis_cleanup(&srv);
}
