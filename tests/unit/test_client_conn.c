/*
 * test_client_conn.c — lair's WebSocket client: URL parsing, and a refused
 * connection reported through on_down after the retry policy runs out, with
 * the double context destroy leaving the loop closable; the session's exit
 * codes and server URL.
 */
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "../../client-cli/cmd.h"
#include "../../client-cli/lconn.h"
#include "../../client-cli/lsess.h"
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

/* lair's exit codes for a failed request (cmd.h): a reply lost with the
 * connection is a connection failure (3); any server error is a refusal (1). */
TEST(client_session_error_exit_codes)
{
	cJSON *e = cJSON_Parse("{\"type\":\"error\",\"code\":\"disconnected\",\"message\":\"x\"}");
	CHECK_EQ(lsess_error_exit(e), LAIR_CONNECT);
	char text[128];
	lsess_error_text(e, text, sizeof text);
	CHECK_STR(text, "disconnected: x");
	cJSON_Delete(e);
	e = cJSON_Parse("{\"type\":\"error\",\"code\":\"not_found\",\"message\":\"no lobby 9\"}");
	CHECK_EQ(lsess_error_exit(e), LAIR_REFUSED);
	lsess_error_text(e, text, sizeof text);
	CHECK_STR(text, "not_found: no lobby 9");
	cJSON_Delete(e);
	e = cJSON_Parse("{\"type\":\"error\"}");
	CHECK_EQ(lsess_error_exit(e), LAIR_REFUSED);
	lsess_error_text(e, text, sizeof text);
	CHECK_STR(text, "error: (no message)");
	cJSON_Delete(e);
}

TEST(client_session_url_default_and_env)
{
	char *old = getenv("LAIR_SERVER") ? strdup(getenv("LAIR_SERVER")) : NULL;
	unsetenv("LAIR_SERVER");
	CHECK_STR(lsess_url(NULL), LSESS_DEFAULT_URL);
	setenv("LAIR_SERVER", "ws://example:1/", 1);
	CHECK_STR(lsess_url(NULL), "ws://example:1/");
	CHECK_STR(lsess_url("ws://flag:2/"), "ws://flag:2/");
	if (old)
		setenv("LAIR_SERVER", old, 1);
	else
		unsetenv("LAIR_SERVER");
	free(old);
}
