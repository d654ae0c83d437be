/*
 * test_client_conn.c — lair's WebSocket client: URL parsing, and a refused
 * connection reported through on_down after the retry policy runs out, with
 * the double context destroy leaving the loop closable.
 */
#include <string.h>

#include <uv.h>

#include "../../client-cli/conn.h"
#include "../test.h"

TEST(client_conn_parse_url)
{
	char host[64], path[64], err[128];
	int tls, port;
	REQUIRE(lconn_parse_url("ws://127.0.0.1:7000/", &tls, host, sizeof host, &port, path,
				sizeof path, err, sizeof err) == 0);
	CHECK_EQ(tls, 0);
	CHECK_STR(host, "127.0.0.1");
	CHECK_EQ(port, 7000);
	CHECK_STR(path, "/");
	REQUIRE(lconn_parse_url("wss://lair.example.org", &tls, host, sizeof host, &port, path,
				sizeof path, err, sizeof err) == 0);
	CHECK_EQ(tls, 1);
	CHECK_EQ(port, 443);
	CHECK_STR(host, "lair.example.org");
	CHECK_STR(path, "/");
	REQUIRE(lconn_parse_url("ws://h/ws?x=1", &tls, host, sizeof host, &port, path,
				sizeof path, err, sizeof err) == 0);
	CHECK_EQ(port, 80);
	CHECK_STR(path, "/ws?x=1");
	REQUIRE(lconn_parse_url("ws://[::1]:9/", &tls, host, sizeof host, &port, path,
				sizeof path, err, sizeof err) == 0);
	CHECK_STR(host, "::1");
	CHECK_EQ(port, 9);

	const char *bad[] = {"http://h/", "ws://", "ws://:80/", "ws://h:/", "ws://h:0/",
			     "ws://h:70000/", "ws://h:12x/", "ws://[::1/", "h:80"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_MSG(lconn_parse_url(bad[i], &tls, host, sizeof host, &port, path,
					  sizeof path, err, sizeof err) == -1,
			  "accepted %s", bad[i]);
}

struct refused {
	struct lconn *c;
	int downs, retries_announced, opens;
	uv_timer_t guard;
	int timed_out;
};

static void on_open(void *ud)
{
	((struct refused *)ud)->opens++;
}

static void on_message(void *ud, const char *t, size_t n)
{
	(void)ud, (void)t, (void)n;
}

static void guard_closed(uv_handle_t *h)
{
	(void)h;
}

static void on_down(void *ud, const char *why, int will_retry)
{
	struct refused *r = ud;
	(void)why;
	r->downs++;
	r->retries_announced += will_retry;
	if (!will_retry) {
		lconn_shutdown(r->c);
		uv_close((uv_handle_t *)&r->guard, guard_closed);
	}
}

static void guard_cb(uv_timer_t *t)
{
	struct refused *r = t->data;
	r->timed_out = 1;
	lconn_shutdown(r->c);
	uv_close((uv_handle_t *)&r->guard, guard_closed);
}

/* A free port nobody listens on: bind, read the port, close. */
static int closed_port(void)
{
	uv_loop_t loop;
	uv_tcp_t s;
	struct sockaddr_in a;
	int port = 0, len = sizeof a;
	uv_loop_init(&loop);
	uv_tcp_init(&loop, &s);
	uv_ip4_addr("127.0.0.1", 0, &a);
	if (uv_tcp_bind(&s, (const struct sockaddr *)&a, 0) == 0 &&
	    uv_tcp_getsockname(&s, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	uv_close((uv_handle_t *)&s, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	return port;
}

TEST(client_conn_refused_reports_down_after_retries)
{
	int port = closed_port();
	REQUIRE(port > 0);
	char url[64], err[128];
	snprintf(url, sizeof url, "ws://127.0.0.1:%d/", port);
	uv_loop_t loop;
	uv_loop_init(&loop);
	struct refused r = {0};
	struct lconn_handler h = {on_open, on_message, on_down};
	r.c = lconn_open(&loop, url, &h, &r, err, sizeof err);
	REQUIRE(r.c);
	lconn_set_retry(r.c, 2);
	CHECK_EQ(lconn_send(r.c, "x", 1), -1); /* not open yet */
	uv_timer_init(&loop, &r.guard);
	r.guard.data = &r;
	uv_timer_start(&r.guard, guard_cb, 10000, 0); /* bound, never reached when it works */
	uv_run(&loop, UV_RUN_DEFAULT);
	lconn_free(r.c);
	CHECK_EQ(uv_loop_close(&loop), 0);
	CHECK_EQ(r.timed_out, 0);
	CHECK_EQ(r.opens, 0);
	CHECK_EQ(r.downs, 3); /* first attempt + 2 retries */
	CHECK_EQ(r.retries_announced, 2);
}

TEST(client_conn_open_rejects_bad_url)
{
	uv_loop_t loop;
	uv_loop_init(&loop);
	char err[128] = "";
	struct lconn_handler h = {on_open, on_message, on_down};
	CHECK(lconn_open(&loop, "http://x/", &h, NULL, err, sizeof err) == NULL);
	CHECK(strstr(err, "ws://") != NULL);
	CHECK_EQ(uv_loop_close(&loop), 0);
}
