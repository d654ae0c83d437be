/*
 * config.h — laird's settings: defaults, command-line flags and an optional
 * config file (JSON; flags win over the file). Every limit the server
 * enforces is here, so `laird --help` can list them all.
 */
#ifndef LAIR_CONFIG_H
#define LAIR_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* laird --version, lair_build_info{version} */
#define LAIRD_VERSION "0.1.0"

/* The service's settings when installed (make install SYSCONFDIR=...):
 * `laird admin-token` reads them when no --config is given. */
#ifndef LAIRD_CONFIG_PATH
#define LAIRD_CONFIG_PATH "/etc/lair/laird.json"
#endif

typedef struct laird_config {
	/* network */
	char bind[64];            /* "127.0.0.1"; "0.0.0.0" or "::" for public */
	int port;                 /* 7777; 0 picks a free port (printed at start) */
	bool trust_proxy;         /* take the client address from X-Forwarded-For */
	char allowed_origins[512]; /* web pages that may open a WebSocket: "" their
				    * own origin only, "*" any, else a list (origin.h) */
	/* the browser client */
	char web_root[512];       /* "" = the files built into laird (http_static.h) */
	char trusted_proxies[512]; /* ...only from these peers (addresses, CIDRs) */
	char metrics_bind[64];    /* "ADDR:PORT": /metrics there only; "" = the main port */
	/* storage */
	char db_path[512];        /* "./var/lair.db" */
	/* cluster mode (docs/cluster.md): both set, or neither */
	char store[512];          /* "postgresql://..." = the shared store */
	char redis[128];          /* "IP:PORT" of the Redis bus */
	/* limits */
	int max_connections;      /* whole server */
	int max_conns_per_ip;
	size_t max_frame_bytes;   /* a larger client frame closes with 1009 */
	int rate_msgs_per_sec;    /* per connection, token bucket refill */
	int rate_burst;           /* bucket size */
	int rate_abuse_strikes;   /* rate errors before the connection is closed */
	int idle_timeout_sec;     /* no frame for this long: close (0 = never) */
	int hello_timeout_sec;    /* no hello within this: close */
	size_t max_send_queue;    /* bytes queued to a slow reader before closing it */
	int max_lobbies;
	int max_tables_per_lobby;
	int max_tables_per_player;
	int new_tables_per_ip_min;   /* tables one address may create a minute (0: no limit) */
	int new_players_per_ip_hour; /* new players one address may make an hour (0: no limit) */
	int max_chat_bytes;
	/* play */
	int turn_timeout_ms;      /* default deadline of a decision */
	int window_ms;            /* the change-your-mind window: 1000 */
	int ai_pacing_ms;         /* delay between decisions at all-AI tables */
	int reveal_pause_ms;      /* pause after a reveal before the next decision */
	/* shutdown */
	int drain_delay_ms;       /* after SIGTERM, /healthz says 503 this long
				   * before clients are closed (load balancers) */
	/* administration */
	bool allow_fixed_seed;    /* admins may fix a table's seed (tests, replays) */
	/* logging */
	int log_level;            /* enum log_level */
} laird_config;

/* Fills in every default. */
void config_defaults(laird_config *cfg);

/* Reads a JSON config file over the current values; 0 or -1 with err. */
int config_load_file(laird_config *cfg, const char *path, char *err, size_t errlen);

/* Parses laird's flags over the current values (a --config file is read
 * first, then the other flags). Returns 0 to run, 1 when --help/--version
 * was printed (exit 0), -1 on a usage error (message in err, exit 2). */
int config_parse_args(laird_config *cfg, int argc, char **argv, char *err, size_t errlen);

/* Checks the settings that go together: --store and --redis both or
 * neither (cluster mode), each well formed. 0, or -1 with err (exit 2). */
int config_check(const laird_config *cfg, char *err, size_t errlen);

/* Cluster mode: --store and --redis given (config_check passed). */
bool config_cluster(const laird_config *cfg);

/* Prints the --help text with every flag and its default. */
void config_usage(FILE *out);

#endif
