/*
 * main.c — laird's entry point: settings, the one libuv loop, the store,
 * the app and the network layer, and the shutdown order that libwebsockets
 * on a foreign (libuv) loop needs:
 *
 *   SIGINT/SIGTERM → draining (/healthz 503, new connections refused) →
 *   in cluster mode app_handover (the tables stop; the node leaves in the
 *   store and the others take its live tables; at most a few seconds) →
 *   app_drain (the app tells its clients and stops its timers) → after
 *   drain_delay_ms (default 0; lets a load balancer see the 503) net_shutdown
 *   (every client gets 1001 "server shutting down"; waits until none is
 *   left; first lws_context_destroy) → store_shutdown (queued writes finish,
 *   store thread and async handle closed) → uv_run returns on its own →
 *   app_free → net_free (second lws_context_destroy) → store_free →
 *   uv_loop_close → exit 0.
 *
 * Under systemd (Type=notify, systemd.h) READY=1 follows the "listening"
 * line on stdout, and STOPPING=1 the signal.
 *
 * `laird admin-token [NAME] [--create]` instead issues an admin token in the
 * service's database (admin_token.h) and exits. Exit codes: 0 after a clean
 * shutdown, 1 when the server cannot start (busy port, database error), 2 on
 * a usage error.
 */
#include <errno.h>
#include <libwebsockets.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <uv.h>

#include "../common/log.h"
#include "../common/util.h"
#include "admin_token.h"
#include "app.h"
#include "config.h"
#include "games/game.h"
#include "metrics.h"
#include "net.h"
#include "netaddr.h"
#include "store.h"
#include "systemd.h"

struct laird {
	uv_loop_t loop;
	laird_config cfg;
	store *store;
	net *net;
	app *app;
	uv_signal_t sigint, sigterm;
	uv_timer_t drain_timer; /* drain_delay_ms between SIGTERM and closing clients */
	bool stopping;
	double started_unix; /* process_start_time_seconds */
};

/* ---- net → app glue ---------------------------------------------------- */

/* One line per connection at info, at its close (with its code: who closed
 * it and why); its opening only at debug, to halve the volume (journald
 * drops lines past its rate limit, errors included). */
static void cb_open(void *ud, conn *c)
{
	struct laird *L = ud;
	log_debug("conn", "%llu from %s: open", (unsigned long long)conn_id(c), conn_peer_ip(c));
	app_on_open(L->app, c);
}

static void cb_message(void *ud, conn *c, const char *text, size_t len)
{
	struct laird *L = ud;
	app_on_message(L->app, c, text, len);
}

static void cb_close(void *ud, conn *c)
{
	struct laird *L = ud;
	bool by_peer;
	int code = conn_close_code(c, &by_peer);
	log_info("conn", "%llu from %s: closed %d by %s", (unsigned long long)conn_id(c),
		 conn_peer_ip(c), code, by_peer ? "the peer" : "laird");
	app_on_close(L->app, c);
}

static void cb_metrics(void *ud, buf *out)
{
	struct laird *L = ud;
	metrics_build_info(out, LAIRD_VERSION, lws_get_library_version(), sqlite3_libversion());
	metrics_process(out, L->started_unix, metrics_open_fds(&L->loop));
	if (L->store)
		store_metrics(L->store, out);
	app_metrics(L->app, out);
}

/* Tells systemd (Type=notify) where laird stands; nothing without it. */
static void notify(const char *state)
{
	if (systemd_notify(state) < 0)
		log_warn("laird", "NOTIFY_SOCKET: %s", strerror(errno));
}

/* ---- shutdown ----------------------------------------------------------- */

static void on_store_closed(void *ud)
{
	(void)ud;
	log_info("laird", "store closed");
}

static void on_net_done(void *ud)
{
	struct laird *L = ud;
	log_info("laird", "every connection closed");
	app_cluster_close(L->app);
	if (L->store)
		store_shutdown(L->store, on_store_closed, L);
	/* Nothing of ours is left on the loop now: uv_run returns once lws and
	 * the store have closed their handles. */
}

static void on_drain_delay(uv_timer_t *t)
{
	struct laird *L = t->data;
	uv_close((uv_handle_t *)&L->drain_timer, NULL);
	net_shutdown(L->net, on_net_done, L);
}

/* The clients are told, then closed after drain_delay_ms. */
static void drain(void *ud)
{
	struct laird *L = ud;
	app_drain(L->app);
	uv_timer_start(&L->drain_timer, on_drain_delay, (uint64_t)L->cfg.drain_delay_ms, 0);
}

static void on_signal(uv_signal_t *s, int signum)
{
	struct laird *L = s->data;
	if (L->stopping)
		return;
	L->stopping = true;
	log_info("laird", "%s: shutting down", signum == SIGINT ? "SIGINT" : "SIGTERM");
	notify("STOPPING=1\nSTATUS=draining");
	net_set_draining(L->net);
	/* Closing them restores the default action: a second signal kills. */
	uv_close((uv_handle_t *)&L->sigint, NULL);
	uv_close((uv_handle_t *)&L->sigterm, NULL);
	/* A cluster node's players reconnect once their tables run elsewhere. */
	if (!app_handover(L->app, drain, L))
		drain(L);
}

/* ---- start-up helpers --------------------------------------------------- */

/* lws sizes its fd tables from RLIMIT_NOFILE: raise the soft limit to what
 * max_connections needs (plus room for the database, logs, HTTP probes), at
 * most to the hard limit, and not further, to keep those tables small. */
static void raise_fd_limit(const laird_config *cfg)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	rlim_t want = (rlim_t)cfg->max_connections + 1024;
	if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max) {
		log_warn("laird", "fd hard limit %llu < max_connections + 1024; raise it "
			 "(LimitNOFILE=) to reach max_connections",
			 (unsigned long long)rl.rlim_max);
		want = rl.rlim_max;
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= want)
		return;
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		log_warn("laird", "setrlimit(RLIMIT_NOFILE, %llu): %s",
			 (unsigned long long)want, strerror(errno));
}

/* Every built-in kind's default config must load (crawl validates its
 * embedded data there, docs/rules/crawl.md C29): broken content stops laird
 * at start rather than a table later. */
static int kinds_check(char *err, size_t errlen)
{
	for (int i = 0; i < game_kind_count(); i++) {
		const game_kind *k = game_kind_at(i);
		char kerr[300] = "";
		void *c = k->config_new(NULL, kerr, sizeof kerr);
		if (!c) {
			snprintf(err, errlen, "game kind %s: %s", k->name, kerr);
			return -1;
		}
		k->config_free(c);
	}
	return 0;
}

static int run(struct laird *L)
{
	char err[512];
	int rc = 0;
	log_set_level((enum log_level)L->cfg.log_level);
	if (kinds_check(err, sizeof err) != 0) {
		fprintf(stderr, "%slaird: %s\n", log_prefix(LOG_ERROR), err);
		return 1;
	}
	raise_fd_limit(&L->cfg);
	if (uv_loop_init(&L->loop) != 0) {
		fprintf(stderr, "%slaird: cannot create the event loop\n", log_prefix(LOG_ERROR));
		return 1;
	}

	net_callbacks cb = {.ud = L, .on_open = cb_open, .on_message = cb_message,
			    .on_close = cb_close, .metrics = cb_metrics};
	L->net = net_new(&L->loop, &L->cfg, &cb, err, sizeof err);
	if (!L->net) {
		fprintf(stderr, "%slaird: %s\n", log_prefix(LOG_ERROR), err);
		uv_run(&L->loop, UV_RUN_DEFAULT);
		uv_loop_close(&L->loop);
		return 1;
	}

	/* Cluster mode: the shared PostgreSQL store instead of the file. */
	bool cluster_mode = config_cluster(&L->cfg);
	int made = cluster_mode ? 0 : mkdir_parent(L->cfg.db_path, err, sizeof err);
	if (made == 1)
		log_info("laird", "created the directory of %s", L->cfg.db_path);
	if (made < 0 || !(L->store = store_open(&L->loop, cluster_mode ? L->cfg.store
								      : L->cfg.db_path,
						err, sizeof err))) {
		fprintf(stderr, "%slaird: %s\n", log_prefix(LOG_ERROR), err);
		rc = 1;
	}
	if (rc != 0) {
		/* Same shutdown, with no client connected yet. */
		L->stopping = true;
		net_shutdown(L->net, NULL, NULL);
	} else {
		L->app = app_new(&L->loop, &L->cfg, L->store, L->net);
		if (cluster_mode && app_cluster_open(L->app, store_node_id(L->store), err,
						     sizeof err) != 0)
			log_error("laird", "%s", err); /* a checked setting: not expected */
		uv_timer_init(&L->loop, &L->drain_timer);
		L->drain_timer.data = L;
		uv_signal_init(&L->loop, &L->sigint);
		uv_signal_init(&L->loop, &L->sigterm);
		L->sigint.data = L->sigterm.data = L;
		uv_signal_start(&L->sigint, on_signal, SIGINT);
		uv_signal_start(&L->sigterm, on_signal, SIGTERM);
		/* On stdout whatever the log level: scripts and tests wait for it
		 * (and some read the port after the line's last colon: no other colon). */
		printf("laird: listening on %s (WebSocket; HTTP /healthz%s, the web client at /)\n",
		       net_address(L->net), net_metrics_address(L->net) ? "" : " /metrics");
		if (net_metrics_address(L->net))
			printf("laird: metrics on %s (HTTP /metrics /healthz)\n",
			       net_metrics_address(L->net));
		fflush(stdout);
		char state[160];
		snprintf(state, sizeof state, "READY=1\nSTATUS=serving on %.100s", net_address(L->net));
		notify(state);
	}

	uv_run(&L->loop, UV_RUN_DEFAULT);

	if (L->app)
		app_free(L->app);
	net_free(L->net);
	store_free(L->store);
	int lc = uv_loop_close(&L->loop);
	if (lc != 0) {
		log_error("laird", "event loop not empty at exit: %s", uv_strerror(lc));
		rc = 1;
	}
	if (rc == 0)
		log_info("laird", "bye");
	return rc;
}

int main(int argc, char **argv)
{
	static struct laird L;
	char err[512];
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	L.started_unix = (double)now.tv_sec + (double)(now.tv_nsec / 1000000) / 1e3;
	log_detect_journal();
	config_defaults(&L.cfg);
	if (argc > 1 && !strcmp(argv[1], "admin-token"))
		return admin_token_cli(&L.cfg, argc - 1, argv + 1, LAIRD_CONFIG_PATH);
	int r = config_parse_args(&L.cfg, argc, argv, err, sizeof err);
	if (r == 1)
		return 0;
	if (r < 0) {
		fprintf(stderr, "%slaird: %s\n", log_prefix(LOG_ERROR), err);
		return 2;
	}
	if (config_check(&L.cfg, err, sizeof err) != 0) {
		fprintf(stderr, "%slaird: %s\n", log_prefix(LOG_ERROR), err);
		return 2;
	}
	/* Addresses are settings too: a name or a typo is a bad setting (exit
	 * 2, which systemd does not retry), not a failure to start (exit 1). */
	netaddr a;
	int port;
	if (!netaddr_parse(L.cfg.bind, &a)) {
		fprintf(stderr, "%slaird: bind: \"%s\" is not an IP address (e.g. 127.0.0.1, ::1, "
			"0.0.0.0 for every IPv4 address, :: for every address)\n",
			log_prefix(LOG_ERROR), L.cfg.bind);
		return 2;
	}
	if (L.cfg.metrics_bind[0] && !netaddr_parse_hostport(L.cfg.metrics_bind, &a, &port)) {
		fprintf(stderr, "%slaird: metrics_bind: \"%s\" is not ADDR:PORT (e.g. 127.0.0.1:9100, "
			"[::1]:9100)\n", log_prefix(LOG_ERROR), L.cfg.metrics_bind);
		return 2;
	}
	netaddr_list proxies;
	char lerr[256];
	if (netaddr_list_parse(L.cfg.trusted_proxies, &proxies, lerr, sizeof lerr) != 0) {
		fprintf(stderr, "%slaird: trusted_proxies: %s\n", log_prefix(LOG_ERROR), lerr);
		return 2;
	}
	netaddr_list_free(&proxies);
	return run(&L);
}
