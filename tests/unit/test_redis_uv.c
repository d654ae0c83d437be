/*
 * test_redis_uv.c — the Redis glue (server/redis_uv.h) on a real loop
 * against a real redis-server started by the test: a refused connect is
 * reported (the failure Debian's adapter swallows), so is a server killed
 * mid-session and a stopped one (by the command timeout); the connection
 * comes back when the server does; messages arrive in the order published;
 * AUTH; every command's callback exactly once, also when closing from a
 * callback; and the loop ends empty (no handle left; ASan checks memory).
 * Every wait is for the event itself, bounded.
 */
#include <uv.h>

#include "../../common/util.h"
#include "../../server/redis_uv.h"
#include "../test.h"
#include "redis_server.h"

struct ctx {
	uv_loop_t loop;
	int ups, downs;
	char why[256];
	/* replies */
	int replies, null_replies;
	long long last_int;
	/* messages */
	int msgs;
	int next_expected; /* messages carry 0, 1, 2, ... */
	bool out_of_order;
	int subscribed, subscribe_failed;
	/* behaviour */
	bool close_on_down;
	bool close_in_reply;
	bool resubscribe_on_up;
	redis_uv *r;
};

static void on_msg(redis_uv *r, const char *ch, size_t chlen, const char *data, size_t len,
		   void *ud)
{
	(void)r;
	struct ctx *c = ud;
	CHECK(chlen == 4 && !memcmp(ch, "news", 4));
	char tmp[32];
	snprintf(tmp, sizeof tmp, "%.*s", (int)(len < 31 ? len : 31), data);
	if (atoi(tmp) != c->next_expected)
		c->out_of_order = true;
	c->next_expected = atoi(tmp) + 1;
	c->msgs++;
}

static void on_subscribed(redis_uv *r, redisReply *reply, void *ud)
{
	(void)r;
	struct ctx *c = ud;
	if (reply)
		c->subscribed++;
	else
		c->subscribe_failed++;
}

static void on_state(redis_uv *r, bool up, const char *why, void *ud)
{
	struct ctx *c = ud;
	if (up) {
		c->ups++;
		if (c->resubscribe_on_up) {
			const char *ch[] = {"news"};
			CHECK_EQ(redis_uv_subscribe(r, ch, 1, on_msg, on_subscribed, c), 0);
		}
	} else {
		c->downs++;
		strlcpy_safe(c->why, why, sizeof c->why);
		CHECK(!redis_uv_is_up(r));
		if (c->close_on_down) {
			redis_uv_close(r);
			c->r = NULL;
		}
	}
}

static void on_reply(redis_uv *r, redisReply *reply, void *ud)
{
	struct ctx *c = ud;
	if (!reply) {
		c->null_replies++;
	} else {
		c->replies++;
		if (reply->type == REDIS_REPLY_INTEGER)
			c->last_int = reply->integer;
	}
	if (c->close_in_reply && c->r) {
		c->close_in_reply = false;
		redis_uv_close(r);
		c->r = NULL;
	}
}

/* ---- driving the loop ---------------------------------------------------- */

static void on_guard(uv_timer_t *t)
{
	*(bool *)t->data = true;
}

/* Turns the loop until *flag reaches want (an int counter) or ms pass. */
static bool run_until(struct ctx *c, const int *counter, int want, unsigned ms)
{
	uv_timer_t guard;
	bool expired = false;
	uv_timer_init(&c->loop, &guard);
	guard.data = &expired;
	uv_timer_start(&guard, on_guard, ms, 0);
	while (*counter < want && !expired)
		uv_run(&c->loop, UV_RUN_ONCE);
	uv_close((uv_handle_t *)&guard, NULL);
	uv_run(&c->loop, UV_RUN_NOWAIT);
	return *counter >= want;
}

static void ctx_init(struct ctx *c)
{
	memset(c, 0, sizeof *c);
	uv_loop_init(&c->loop);
}

/* Closes what is left and checks the loop ends with no handle. */
static void ctx_end(struct ctx *c)
{
	if (c->r)
		redis_uv_close(c->r);
	c->r = NULL;
	uv_run(&c->loop, UV_RUN_DEFAULT);
	CHECK_EQ(uv_loop_close(&c->loop), 0);
}

static redis_uv_config fast_config(int port)
{
	redis_uv_config cfg;
	redis_uv_config_defaults(&cfg);
	cfg.port = port;
	cfg.connect_timeout_ms = 1000;
	cfg.command_timeout_ms = 400;
	cfg.ping_interval_ms = 100;
	cfg.backoff_min_ms = 20;
	cfg.backoff_max_ms = 200;
	return cfg;
}

static int send_cmd(redis_uv *r, struct ctx *c, const char *a0, const char *a1, const char *a2)
{
	const char *argv[3] = {a0, a1, a2};
	size_t lens[3] = {strlen(a0), a1 ? strlen(a1) : 0, a2 ? strlen(a2) : 0};
	return redis_uv_command(r, on_reply, c, a2 ? 3 : a1 ? 2 : 1, argv, lens);
}

/* The set-up most tests share: a redis-server of the test's own, a client c
 * and, for some, a subscriber to "news" on c's loop (both on one loop, as in
 * laird). fixture_start starts the server and makes the config, which the
 * test may change before fixture_open opens both and waits until they are
 * up; fixture_end closes them, checks the loop ends empty and stops the
 * server. */
struct fixture {
	test_redis srv;
	redis_uv_config cfg;
	struct ctx c, sub;
};

static bool fixture_start(struct fixture *f, const char *password)
{
	memset(f, 0, sizeof *f);
	if (password)
		strcpy(f->srv.password, password);
	if (!test_redis_start(&f->srv))
		return false;
	ctx_init(&f->c);
	f->cfg = fast_config(f->srv.port);
	return true;
}

static void fixture_open(struct fixture *f, bool with_sub)
{
	f->c.r = redis_uv_open(&f->c.loop, &f->cfg, on_state, &f->c);
	if (with_sub) {
		f->sub.resubscribe_on_up = true;
		f->sub.r = redis_uv_open(&f->c.loop, &f->cfg, on_state, &f->sub);
	}
	CHECK(run_until(&f->c, &f->c.ups, 1, 5000));
	if (with_sub)
		CHECK(run_until(&f->c, &f->sub.subscribed, 1, 5000));
}

static void fixture_end(struct fixture *f)
{
	if (f->sub.r)
		redis_uv_close(f->sub.r);
	f->sub.r = NULL;
	ctx_end(&f->c);
	test_redis_cleanup(&f->srv);
}

/* ---- the tests ----------------------------------------------------------- */

TEST(connect_refused_is_reported_and_retried)
{
	struct ctx c;
	ctx_init(&c);
	int port = test_free_port();
	redis_uv_config cfg = fast_config(port);
	c.r = redis_uv_open(&c.loop, &cfg, on_state, &c);
	REQUIRE(c.r);
	CHECK(!redis_uv_is_up(c.r));
	CHECK_EQ(send_cmd(c.r, &c, "PING", NULL, NULL), -1); /* not up: refused */
	/* Reported, well within the connect timeout, then retried. */
	CHECK(run_until(&c, &c.downs, 1, 5000));
	CHECK_MSG(strstr(c.why, "refused") != NULL, "why: %s", c.why);
	CHECK(run_until(&c, &c.downs, 3, 5000));
	CHECK_EQ(c.ups, 0);
	redis_uv_stats st;
	redis_uv_get_stats(c.r, &st);
	CHECK(st.failures >= 3);
	CHECK_EQ(st.timeouts, 0); /* refused, not timed out */
	ctx_end(&c);
}

TEST(a_listener_that_never_answers_times_out)
{
	/* A socket that listens but never accepts: TCP connects (the kernel
	 * does it), the hello is never answered. */
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof a;
	REQUIRE(bind(fd, (struct sockaddr *)&a, sizeof a) == 0);
	REQUIRE(listen(fd, 8) == 0);
	REQUIRE(getsockname(fd, (struct sockaddr *)&a, &len) == 0);
	struct ctx c;
	ctx_init(&c);
	redis_uv_config cfg = fast_config(ntohs(a.sin_port));
	cfg.connect_timeout_ms = 200;
	c.r = redis_uv_open(&c.loop, &cfg, on_state, &c);
	CHECK(run_until(&c, &c.downs, 1, 5000));
	CHECK_MSG(strstr(c.why, "no answer within 200 ms") != NULL, "why: %s", c.why);
	redis_uv_stats st;
	redis_uv_get_stats(c.r, &st);
	CHECK_EQ(st.timeouts, 1);
	CHECK_EQ(c.ups, 0);
	ctx_end(&c);
	close(fd);
}

TEST(commands_are_answered_in_order)
{
	struct fixture f;
	REQUIRE(fixture_start(&f, NULL));
	struct ctx *c = &f.c;
	fixture_open(&f, false);
	REQUIRE(redis_uv_is_up(c->r));
	for (int i = 0; i < 100; i++)
		CHECK_EQ(send_cmd(c->r, c, "INCR", "k", NULL), 0);
	CHECK(run_until(c, &c->replies, 100, 5000));
	CHECK_EQ(c->last_int, 100); /* the last reply is the last INCR's */
	CHECK_EQ(c->null_replies, 0);
	/* Binary-safe arguments. */
	const char *argv[3] = {"SET", "bin", "a\0b\r\nc"};
	size_t lens[3] = {3, 3, 6};
	CHECK_EQ(redis_uv_command(c->r, on_reply, c, 3, argv, lens), 0);
	CHECK_EQ(send_cmd(c->r, c, "STRLEN", "bin", NULL), 0);
	CHECK(run_until(c, &c->replies, 102, 5000));
	CHECK_EQ(c->last_int, 6);
	fixture_end(&f);
}

TEST(pubsub_messages_arrive_in_order)
{
	struct fixture f;
	REQUIRE(fixture_start(&f, NULL));
	struct ctx *pub = &f.c, *sub = &f.sub;
	fixture_open(&f, true);
	CHECK_EQ(send_cmd(sub->r, sub, "PING", NULL, NULL), -1); /* a subscriber only receives */
	enum { N = 2000 };
	char num[16];
	for (int i = 0; i < N; i++) {
		snprintf(num, sizeof num, "%d", i);
		CHECK_EQ(send_cmd(pub->r, pub, "PUBLISH", "news", num), 0);
	}
	CHECK(run_until(pub, &sub->msgs, N, 10000));
	CHECK_EQ(sub->msgs, N);
	CHECK(!sub->out_of_order);
	CHECK(run_until(pub, &pub->replies, N, 5000));
	CHECK_EQ(pub->last_int, 1); /* one subscriber received the last one */
	/* The subscriber's pings (its channel subscribed again) keep it up
	 * and deliver nothing as a message. */
	redis_uv_stats st0, st1;
	redis_uv_get_stats(sub->r, &st0);
	int before = sub->msgs;
	uv_timer_t t;
	bool expired = false;
	uv_timer_init(&pub->loop, &t);
	t.data = &expired;
	uv_timer_start(&t, on_guard, 350, 0); /* three ping intervals */
	while (!expired)
		uv_run(&pub->loop, UV_RUN_ONCE);
	uv_close((uv_handle_t *)&t, NULL);
	redis_uv_get_stats(sub->r, &st1);
	CHECK(st1.commands > st0.commands); /* pinged */
	CHECK_EQ(sub->msgs, before);
	CHECK_EQ(sub->downs, 0);
	CHECK_EQ(sub->subscribed, 1);
	fixture_end(&f);
}

TEST(killed_server_is_reported_and_the_connection_comes_back)
{
	struct fixture f;
	REQUIRE(fixture_start(&f, NULL));
	struct ctx *c = &f.c, *sub = &f.sub;
	fixture_open(&f, true);
	/* kill -9 with a command on its way: its callback gets NULL. */
	test_redis_signal(&f.srv, SIGSTOP);
	CHECK_EQ(send_cmd(c->r, c, "PING", NULL, NULL), 0);
	test_redis_kill(&f.srv);
	CHECK(run_until(c, &c->downs, 1, 5000));
	CHECK_MSG(strstr(c->why, "lost") != NULL, "why: %s", c->why);
	CHECK(run_until(c, &sub->downs, 1, 5000));
	CHECK_EQ(c->null_replies, 1);
	CHECK_EQ(c->replies, 0);
	CHECK_EQ(send_cmd(c->r, c, "PING", NULL, NULL), -1);
	/* Back on the same port: both reconnect, the subscriber subscribes
	 * again and receives. */
	REQUIRE(test_redis_start(&f.srv));
	CHECK(run_until(c, &c->ups, 2, 5000));
	CHECK(run_until(c, &sub->subscribed, 2, 5000));
	sub->next_expected = 7;
	CHECK_EQ(send_cmd(c->r, c, "PUBLISH", "news", "7"), 0);
	CHECK(run_until(c, &sub->msgs, 1, 5000));
	CHECK(!sub->out_of_order);
	fixture_end(&f);
}

TEST(stopped_server_is_detected_by_the_timeout)
{
	struct fixture f;
	REQUIRE(fixture_start(&f, NULL));
	struct ctx *c = &f.c, *sub = &f.sub;
	fixture_open(&f, true);
	test_redis_signal(&f.srv, SIGSTOP);
	/* No command of ours: the pings find it (PING, and the subscriber's
	 * SUBSCRIBE again). */
	CHECK(run_until(c, &c->downs, 1, 5000));
	CHECK_MSG(strstr(c->why, "no answer within 400 ms") != NULL, "why: %s", c->why);
	CHECK(run_until(c, &sub->downs, 1, 5000));
	CHECK_MSG(strstr(sub->why, "no answer within 400 ms") != NULL, "why: %s", sub->why);
	/* While it stays stopped, attempts time out (TCP connects, nothing
	 * answers). */
	CHECK(run_until(c, &c->downs, 2, 5000));
	CHECK_EQ(c->ups, 1);
	test_redis_signal(&f.srv, SIGCONT);
	CHECK(run_until(c, &c->ups, 2, 5000));
	CHECK(run_until(c, &sub->subscribed, 2, 5000));
	redis_uv_stats st;
	redis_uv_get_stats(c->r, &st);
	CHECK(st.timeouts >= 2);
	CHECK_EQ(st.connects, 2);
	fixture_end(&f);
}

TEST(auth_with_the_right_and_a_wrong_password)
{
	struct fixture f;
	REQUIRE(fixture_start(&f, "s3cret"));
	struct ctx *ok = &f.c, *bad = &f.sub; /* bad: a client with a wrong password */
	strcpy(f.cfg.password, "s3cret");
	ok->r = redis_uv_open(&ok->loop, &f.cfg, on_state, ok);
	strcpy(f.cfg.password, "wrong");
	bad->r = redis_uv_open(&ok->loop, &f.cfg, on_state, bad);
	CHECK(run_until(ok, &ok->ups, 1, 5000));
	CHECK_EQ(send_cmd(ok->r, ok, "SET", "a", "1"), 0);
	CHECK(run_until(ok, &ok->replies, 1, 5000));
	CHECK(run_until(ok, &bad->downs, 1, 5000));
	CHECK_MSG(strstr(bad->why, "AUTH:") != NULL, "why: %s", bad->why);
	CHECK_EQ(bad->ups, 0);
	fixture_end(&f);
}

TEST(close_from_a_callback_answers_every_command_once)
{
	struct fixture f;
	REQUIRE(fixture_start(&f, NULL));
	struct ctx *c = &f.c;
	fixture_open(&f, false);
	/* The first reply closes: the 9 others are answered NULL, once. */
	c->close_in_reply = true;
	for (int i = 0; i < 10; i++)
		CHECK_EQ(send_cmd(c->r, c, "INCR", "n", NULL), 0);
	int total = 0;
	uv_run(&c->loop, UV_RUN_DEFAULT); /* ends: nothing left on the loop */
	total = c->replies + c->null_replies;
	CHECK_EQ(total, 10);
	CHECK(c->replies >= 1);
	CHECK(c->r == NULL);
	CHECK_EQ(uv_loop_close(&c->loop), 0);
	/* Closing from the state callback while refused, too. */
	ctx_init(c);
	c->close_on_down = true;
	f.cfg.port = test_free_port();
	c->r = redis_uv_open(&c->loop, &f.cfg, on_state, c);
	uv_run(&c->loop, UV_RUN_DEFAULT);
	CHECK_EQ(c->downs, 1);
	CHECK_EQ(uv_loop_close(&c->loop), 0);
	test_redis_cleanup(&f.srv);
}

TEST(pending_commands_are_capped)
{
	struct fixture f;
	REQUIRE(fixture_start(&f, NULL));
	struct ctx *c = &f.c;
	f.cfg.max_pending = 3;
	f.cfg.ping_interval_ms = 60000;
	fixture_open(&f, false);
	CHECK_EQ(send_cmd(c->r, c, "PING", NULL, NULL), 0);
	CHECK_EQ(send_cmd(c->r, c, "PING", NULL, NULL), 0);
	CHECK_EQ(send_cmd(c->r, c, "PING", NULL, NULL), 0);
	CHECK_EQ(send_cmd(c->r, c, "PING", NULL, NULL), -1);
	CHECK(run_until(c, &c->replies, 3, 5000));
	CHECK_EQ(send_cmd(c->r, c, "PING", NULL, NULL), 0);
	CHECK(run_until(c, &c->replies, 4, 5000));
	fixture_end(&f);
}

/* Why this glue exists: Debian's own adapter (hiredis/adapters/libuv.h)
 * returns from its poll callback on an error status, which is how libuv
 * reports a refused connect, so the connect callback never comes. If this
 * ever fails, the adapter was fixed; the glue still adds the timeouts,
 * pings and reconnects. */
#include <hiredis/adapters/libuv.h>

static int adapter_connect_calls;

static void adapter_on_connect(const redisAsyncContext *ac, int status)
{
	(void)ac;
	(void)status;
	adapter_connect_calls++;
}

TEST(debians_adapter_swallows_a_refused_connect)
{
	struct ctx c;
	ctx_init(&c);
	redisAsyncContext *ac = redisAsyncConnect("127.0.0.1", test_free_port());
	REQUIRE(ac && !ac->err);
	REQUIRE(redisLibuvAttach(ac, &c.loop) == REDIS_OK);
	redisAsyncSetConnectCallback(ac, adapter_on_connect);
	/* Our glue reports the same refusal within milliseconds (above). */
	int never = 0;
	run_until(&c, &never, 1, 1000);
	CHECK_EQ(adapter_connect_calls, 0);
	redisAsyncFree(ac);
	ctx_end(&c);
}
