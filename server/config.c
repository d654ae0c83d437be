/*
 * config.c — see config.h. One table describes every setting once: its
 * name (snake_case in the JSON file, kebab-case as a flag), its type, where
 * it lives in struct laird_config, its bounds and its help line. Defaults,
 * the file reader, the flag parser and --help all walk that table, so a new
 * setting is one line here and cannot be forgotten in --help.
 */
#include "config.h"

#include <assert.h>
#include <cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/util.h"
#include "netaddr.h"

enum opt_type { OPT_STR, OPT_INT, OPT_SIZE, OPT_BOOL, OPT_LOGLEVEL };

struct opt {
	const char *name; /* snake_case; the flag is the same with '-' */
	enum opt_type type;
	size_t off;       /* offsetof(laird_config, field) */
	size_t size;      /* OPT_STR: the field's capacity */
	long long min, max;
	const char *def;  /* the default, written as the flag would be */
	const char *help;
};

#define F(field) offsetof(laird_config, field), sizeof(((laird_config *)0)->field)

static const struct opt opts[] = {
	{"bind", OPT_STR, F(bind), 0, 0, "127.0.0.1",
	 "address to listen on (0.0.0.0 or :: for all)"},
	{"port", OPT_INT, F(port), 0, 65535, "7777",
	 "TCP port, WebSocket and HTTP (0: any free one)"},
	{"trust_proxy", OPT_BOOL, F(trust_proxy), 0, 1, "false",
	 "client address from X-Forwarded-For (proxy)"},
	{"allowed_origins", OPT_STR, F(allowed_origins), 0, 0, "",
	 "origins of pages that may connect (\"\": own, *: any)"},
	{"web_root", OPT_STR, F(web_root), 0, 0, "",
	 "serve the web client from DIR (\"\": built in)"},
	{"trusted_proxies", OPT_STR, F(trusted_proxies), 0, 0, "127.0.0.1, ::1",
	 "believe X-Forwarded-For only from these (IPs, CIDRs)"},
	{"metrics_bind", OPT_STR, F(metrics_bind), 0, 0, "",
	 "ADDR:PORT: serve /metrics there only (\"\": main port)"},
	{"db_path", OPT_STR, F(db_path), 0, 0, "./var/lair.db", "SQLite database file"},
	{"store", OPT_STR, F(store), 0, 0, "",
	 "cluster mode: postgresql://... (with --redis)"},
	{"redis", OPT_STR, F(redis), 0, 0, "", "cluster mode: Redis bus IP:PORT (with --store)"},
	{"max_connections", OPT_INT, F(max_connections), 1, 1000000, "15000",
	 "WebSocket connections in total"},
	{"max_conns_per_ip", OPT_INT, F(max_conns_per_ip), 0, 1000000, "64",
	 "WebSocket connections per address (0: no limit)"},
	{"max_frame_bytes", OPT_SIZE, F(max_frame_bytes), 64, 64 << 20, "16384",
	 "largest client message; larger closes with 1009"},
	{"rate_msgs_per_sec", OPT_INT, F(rate_msgs_per_sec), 1, 1000000, "20",
	 "messages per second per connection (refill)"},
	{"rate_burst", OPT_INT, F(rate_burst), 1, 1000000, "40", "token bucket size (burst)"},
	{"rate_abuse_strikes", OPT_INT, F(rate_abuse_strikes), 1, 1000000, "20",
	 "rate_limited errors before closing with 1008"},
	{"idle_timeout_sec", OPT_INT, F(idle_timeout_sec), 0, 86400 * 7, "300",
	 "close a connection silent this long (0: never)"},
	{"hello_timeout_sec", OPT_INT, F(hello_timeout_sec), 0, 3600, "10",
	 "close without a hello after this (0: never)"},
	{"max_send_queue", OPT_SIZE, F(max_send_queue), 1024, 1 << 30, "256k",
	 "bytes queued to a slow reader before closing it"},
	{"max_lobbies", OPT_INT, F(max_lobbies), 1, 1000000, "100", "lobbies on the server"},
	{"max_tables_per_lobby", OPT_INT, F(max_tables_per_lobby), 1, 1000000, "5000",
	 "tables in one lobby"},
	{"new_tables_per_ip_min", OPT_INT, F(new_tables_per_ip_min), 0, 1000000, "30",
	 "tables one address may create a minute (0: any)"},
	{"new_players_per_ip_hour", OPT_INT, F(new_players_per_ip_hour), 0, 1000000, "100",
	 "new players one address may make an hour (0: any)"},
	{"max_tables_per_player", OPT_INT, F(max_tables_per_player), 1, 1000000, "3",
	 "tables one player may host at once"},
	{"max_chat_bytes", OPT_INT, F(max_chat_bytes), 1, 65536, "500", "longest chat line"},
	{"turn_timeout_ms", OPT_INT, F(turn_timeout_ms), 100, 86400000, "30000",
	 "default decision deadline; then the AI chooses"},
	{"window_ms", OPT_INT, F(window_ms), 0, 60000, "1000", "change-your-mind window"},
	{"ai_pacing_ms", OPT_INT, F(ai_pacing_ms), 0, 60000, "400",
	 "delay between decisions at all-AI tables"},
	{"reveal_pause_ms", OPT_INT, F(reveal_pause_ms), 0, 60000, "800",
	 "pause after a reveal before the next decision"},
	{"drain_delay_ms", OPT_INT, F(drain_delay_ms), 0, 600000, "0",
	 "on SIGTERM, /healthz 503 this long first"},
	{"allow_fixed_seed", OPT_BOOL, F(allow_fixed_seed), 0, 1, "true",
	 "admins may fix a table's seed (tests, replays)"},
	{"log_level", OPT_LOGLEVEL, F(log_level), 0, 0, "info", "debug, info, warn, error or off"},
};

#undef F


static void errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void errf(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static const struct opt *find_opt(const char *name, size_t len, bool dashes)
{
	for (size_t i = 0; i < ARRAY_LEN(opts); i++) {
		const char *o = opts[i].name;
		if (strlen(o) != len)
			continue;
		size_t k = 0;
		for (; k < len; k++) {
			char c = name[k];
			if (dashes && c == '-')
				c = '_';
			else if (dashes && c == '_')
				break; /* flags are spelled with dashes only */
			if (c != o[k])
				break;
		}
		if (k == len)
			return &opts[i];
	}
	return NULL;
}

static void flag_name(const struct opt *o, char *out, size_t outlen)
{
	size_t i = 0;
	for (; o->name[i] && i + 1 < outlen; i++)
		out[i] = o->name[i] == '_' ? '-' : o->name[i];
	out[i] = 0;
}

/* Parses an integer with an optional k/m suffix (×1024) into *out. */
static int parse_ll(const char *s, bool suffixes, long long *out)
{
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (end == s || errno)
		return -1;
	long long scale = 1;
	if (suffixes && (*end == 'k' || *end == 'K'))
		scale = 1024;
	else if (suffixes && (*end == 'm' || *end == 'M'))
		scale = 1024 * 1024;
	end += scale > 1;
	if (*end || v > LLONG_MAX / scale || v < LLONG_MIN / scale)
		return -1; /* the multiply below would overflow (undefined) */
	v *= scale;
	*out = v;
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "1") || !strcmp(s, "on"))
		*out = true;
	else if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "0") ||
		 !strcmp(s, "off"))
		*out = false;
	else
		return -1;
	return 0;
}

static int set_int(laird_config *cfg, const struct opt *o, long long v, const char *where,
		   char *err, size_t errlen)
{
	if (v < o->min || v > o->max) {
		errf(err, errlen, "%s: %s must be between %lld and %lld (got %lld)", where,
		     o->name, o->min, o->max, v);
		return -1;
	}
	char *p = (char *)cfg + o->off;
	if (o->type == OPT_INT)
		*(int *)p = (int)v;
	else
		*(size_t *)p = (size_t)v;
	return 0;
}

/* Sets o from its text form (flags). where names the source for errors. */
static int set_from_text(laird_config *cfg, const struct opt *o, const char *val,
			 const char *where, char *err, size_t errlen)
{
	char *p = (char *)cfg + o->off;
	long long v;
	switch (o->type) {
	case OPT_STR:
		if (strlen(val) >= o->size) {
			errf(err, errlen, "%s: %s is too long (at most %zu bytes)", where, o->name,
			     o->size - 1);
			return -1;
		}
		strlcpy_safe(p, val, o->size);
		return 0;
	case OPT_INT:
	case OPT_SIZE:
		if (parse_ll(val, o->type == OPT_SIZE, &v) < 0) {
			errf(err, errlen, "%s: %s wants a number, not \"%s\"", where, o->name, val);
			return -1;
		}
		return set_int(cfg, o, v, where, err, errlen);
	case OPT_BOOL:
		if (parse_bool(val, (bool *)p) < 0) {
			errf(err, errlen, "%s: %s wants true or false, not \"%s\"", where, o->name,
			     val);
			return -1;
		}
		return 0;
	case OPT_LOGLEVEL: {
		int lvl = log_level_parse(val);
		if (lvl < 0) {
			errf(err, errlen, "%s: log_level \"%s\" is not one of debug, info, warn, "
			     "error, off", where, val);
			return -1;
		}
		*(int *)p = lvl;
		return 0;
	}
	}
	return -1;
}

static int set_from_json(laird_config *cfg, const struct opt *o, const cJSON *item,
			 const char *where, char *err, size_t errlen)
{
	switch (o->type) {
	case OPT_STR:
	case OPT_LOGLEVEL:
		if (!cJSON_IsString(item)) {
			errf(err, errlen, "%s: %s must be a string", where, o->name);
			return -1;
		}
		return set_from_text(cfg, o, item->valuestring, where, err, errlen);
	case OPT_INT:
	case OPT_SIZE: {
		/* A size may be written as --help shows it: "256k", "1m". */
		if (o->type == OPT_SIZE && cJSON_IsString(item))
			return set_from_text(cfg, o, item->valuestring, where, err, errlen);
		double d = cJSON_IsNumber(item) ? item->valuedouble : 0.5;
		if (isnan(d))
			d = 0.5; /* not a whole number below, without casting NaN */
		if (d < -1e15 || d > 1e15)
			d = d < 0 ? -1e15 : 1e15; /* out of range below, without UB */
		if (d != (double)(long long)d) {
			errf(err, errlen, "%s: %s must be a whole number%s", where, o->name,
			     o->type == OPT_SIZE ? " or a size such as \"256k\"" : "");
			return -1;
		}
		return set_int(cfg, o, (long long)d, where, err, errlen);
	}
	case OPT_BOOL:
		if (!cJSON_IsBool(item)) {
			errf(err, errlen, "%s: %s must be true or false", where, o->name);
			return -1;
		}
		*(bool *)((char *)cfg + o->off) = cJSON_IsTrue(item);
		return 0;
	}
	return -1;
}

void config_defaults(laird_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	for (size_t i = 0; i < ARRAY_LEN(opts); i++) {
		int rc = set_from_text(cfg, &opts[i], opts[i].def, "default", NULL, 0);
		assert(rc == 0); /* a default outside its own bounds: test_config fails */
		(void)rc;
	}
}

/* 1-based line and column (in bytes) of at within text; at may be NULL or
 * past the end (cJSON points at the end when the text stops early). */
static void text_position(const char *text, const char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	if (!at)
		return;
	for (const char *p = text; *p && p < at; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static bool key_seen_before(const cJSON *obj, const cJSON *item)
{
	for (const cJSON *it = obj->child; it && it != item; it = it->next)
		if (it->string && !strcmp(it->string, item->string))
			return true;
	return false;
}

int config_load_file(laird_config *cfg, const char *path, char *err, size_t errlen)
{
	buf text = {0};
	if (buf_read_file(&text, path, 1 << 20, err, errlen) != 0) {
		buf_free(&text);
		return -1;
	}
	if (!text.data)
		buf_puts(&text, "");
	/* The length includes the NUL so that cJSON refuses trailing text. */
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(text.data, text.len + 1, &end, true);
	if (!root) {
		int line, col;
		text_position(text.data, end, &line, &col);
		errf(err, errlen, "%s: JSON syntax error at line %d, column %d", path, line, col);
		buf_free(&text);
		return -1;
	}
	buf_free(&text);
	if (!cJSON_IsObject(root)) {
		errf(err, errlen, "%s: not a JSON object", path);
		cJSON_Delete(root);
		return -1;
	}
	/* Apply to a copy so a bad file changes nothing. */
	laird_config tmp = *cfg;
	int rc = 0;
	for (const cJSON *it = root->child; it && rc == 0; it = it->next) {
		const struct opt *o = it->string ? find_opt(it->string, strlen(it->string), false)
						 : NULL;
		if (o && key_seen_before(root, it)) {
			/* cJSON keeps both; which one wins would be a guess. */
			errf(err, errlen, "%s: \"%s\" is set twice", path, it->string);
			rc = -1;
		} else if (!o) {
			errf(err, errlen, "%s: unknown setting \"%s\"", path,
			     it->string ? it->string : "");
			rc = -1;
		} else {
			rc = set_from_json(&tmp, o, it, path, err, errlen);
		}
	}
	cJSON_Delete(root);
	if (rc == 0)
		*cfg = tmp;
	return rc;
}

/* Splits "--name=value" / "--name value" / "--no-name". Returns the number
 * of argv entries used, or -1 with err. */
static int parse_flag(laird_config *cfg, int argc, char **argv, int i, char *err,
		      size_t errlen)
{
	const char *arg = argv[i] + 2;
	const char *eq = strchr(arg, '=');
	size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct opt *o = find_opt(arg, nlen, true);
	if (!o && !eq && nlen > 3 && !strncmp(arg, "no-", 3)) {
		o = find_opt(arg + 3, nlen - 3, true);
		if (o && o->type == OPT_BOOL) {
			*(bool *)((char *)cfg + o->off) = false;
			return 1;
		}
		o = NULL;
	}
	if (!o) {
		errf(err, errlen, "unknown flag %s (see laird --help)", argv[i]);
		return -1;
	}
	char where[80];
	snprintf(where, sizeof where, "--%.*s", (int)nlen, arg);
	if (eq)
		return set_from_text(cfg, o, eq + 1, where, err, errlen) < 0 ? -1 : 1;
	if (o->type == OPT_BOOL) {
		*(bool *)((char *)cfg + o->off) = true;
		return 1;
	}
	if (i + 1 >= argc) {
		errf(err, errlen, "%s needs a value (see laird --help)", argv[i]);
		return -1;
	}
	return set_from_text(cfg, o, argv[i + 1], where, err, errlen) < 0 ? -1 : 2;
}

int config_parse_args(laird_config *cfg, int argc, char **argv, char *err, size_t errlen)
{
	/* Pass 1: --help, --version and the config file, which the other flags
	 * then override whatever their order. */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			config_usage(stdout);
			return 1;
		}
		if (!strcmp(a, "--version")) {
			printf("laird %s\n", LAIRD_VERSION);
			return 1;
		}
		const char *path = NULL;
		if (!strncmp(a, "--config=", 9)) {
			path = a + 9;
		} else if (!strcmp(a, "--config")) {
			if (i + 1 >= argc) {
				errf(err, errlen, "--config needs a file (see laird --help)");
				return -1;
			}
			path = argv[++i];
		}
		if (path && config_load_file(cfg, path, err, errlen) < 0)
			return -1;
	}
	for (int i = 1; i < argc;) {
		const char *a = argv[i];
		if (!strcmp(a, "--config")) {
			i += 2;
			continue;
		}
		if (!strncmp(a, "--config=", 9)) {
			i++;
			continue;
		}
		if (strncmp(a, "--", 2) != 0 || a[2] == 0) {
			errf(err, errlen, "unexpected argument \"%s\" (see laird --help)", a);
			return -1;
		}
		int used = parse_flag(cfg, argc, argv, i, err, errlen);
		if (used < 0)
			return -1;
		i += used;
	}
	return 0;
}

int config_check(const laird_config *cfg, char *err, size_t errlen)
{
	bool store = cfg->store[0] != 0, redis = cfg->redis[0] != 0;
	if (store != redis) {
		errf(err, errlen, "cluster mode needs both --store postgresql://... and --redis "
		     "IP:PORT (%s is missing); without either, laird runs alone on its SQLite "
		     "file (--db-path)", store ? "--redis" : "--store");
		return -1;
	}
	if (!store)
		return 0;
	if (strncmp(cfg->store, "postgresql://", 13) != 0 &&
	    strncmp(cfg->store, "postgres://", 11) != 0) {
		errf(err, errlen, "store: \"%s\" is not a PostgreSQL URL (postgresql://USER@HOST/DB)",
		     cfg->store);
		return -1;
	}
	netaddr a;
	int port;
	if (!netaddr_parse_hostport(cfg->redis, &a, &port) || port == 0) {
		/* An address, not a name: a name would be looked up on the
		 * event loop at every reconnect. */
		errf(err, errlen, "redis: \"%s\" is not IP:PORT (e.g. 10.0.0.5:6379, [::1]:6379)",
		     cfg->redis);
		return -1;
	}
	return 0;
}

bool config_cluster(const laird_config *cfg)
{
	return cfg->store[0] && cfg->redis[0];
}

static void format_value(const laird_config *cfg, const struct opt *o, char *out, size_t len)
{
	const char *p = (const char *)cfg + o->off;
	static const char *const levels[] = {"debug", "info", "warn", "error", "off"};
	switch (o->type) {
	case OPT_STR:
		snprintf(out, len, "%s", *p ? p : "\"\"");
		break;
	case OPT_INT:
		snprintf(out, len, "%d", *(const int *)p);
		break;
	case OPT_SIZE:
		snprintf(out, len, "%zu", *(const size_t *)p);
		break;
	case OPT_BOOL:
		snprintf(out, len, "%s", *(const bool *)p ? "true" : "false");
		break;
	case OPT_LOGLEVEL: {
		int l = *(const int *)p;
		snprintf(out, len, "%s", l >= 0 && l <= LOG_OFF ? levels[l] : "?");
		break;
	}
	}
}

void config_usage(FILE *out)
{
	laird_config def;
	config_defaults(&def);
	fprintf(out, "usage: laird [flags]\n"
		     "       laird admin-token [NAME] [--create] [flags]\n"
		     "              make NAME (default admin) an admin with a new token (its old\n"
		     "              token stops working), print it on stdout, exit. Settings from\n"
		     "              --config FILE, else " LAIRD_CONFIG_PATH " if it exists,\n"
		     "              else the defaults; a missing database is an error unless\n"
		     "              --create\n\n"
		     "lair's game server: WebSocket and HTTP (/healthz, /metrics) on one port.\n"
		     "Settings come from the defaults, then --config FILE (JSON, keys as below\n"
		     "with '_' for '-'), then the other flags. Sizes take a k or m suffix\n"
		     "(x1024; in the file as a string, \"256k\").\n\n");
	fprintf(out, "  %-25s %s\n", "--config FILE", "read settings from a JSON file");
	for (size_t i = 0; i < ARRAY_LEN(opts); i++) {
		const struct opt *o = &opts[i];
		char flag[64], arg[80], val[600];
		flag_name(o, flag, sizeof flag);
		static const char *const meta[] = {"ADDR", "N", "BYTES", "", "LEVEL"};
		bool file = o->type == OPT_STR && strstr(o->name, "path");
		bool dir = o->type == OPT_STR && strstr(o->name, "root");
		bool list = o->type == OPT_STR && strstr(o->name, "origins");
		bool url = o->type == OPT_STR && !strcmp(o->name, "store");
		const char *m = file ? "FILE" : dir ? "DIR" : list ? "LIST" : url ? "URL"
								     : meta[o->type];
		snprintf(arg, sizeof arg, "--%s%s%s", flag, *m ? " " : "", m);
		format_value(&def, o, val, sizeof val);
		/* Keep within 80 columns: the default goes on its own line if need be. */
		int w = fprintf(out, "  %-25s %s", arg, o->help);
		if (w + (int)strlen(val) + 12 <= 80)
			fprintf(out, " (default: %s)\n", val);
		else
			fprintf(out, "\n  %-25s (default: %s)\n", "", val);
	}
	fprintf(out, "  %-25s %s\n", "--no-FLAG", "turn a true/false flag off");
	fprintf(out, "  %-25s %s\n", "-h, --help", "print this help");
	fprintf(out, "  %-25s %s\n", "--version", "print the version");
}
