/*
 * cmd_admin.c — `lair admin ...`: the operator's commands over the same
 * protocol (PROTOCOL.md §9). The admin token comes from --token, else
 * $LAIR_ADMIN_TOKEN, else the token store (role "admin", saved with
 * `lair admin set-token TOKEN`); laird prints the first one on its first
 * start (PROTOCOL.md §9). Every listing has --json for scripts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/text.h"
#include "../proto/proto_msg.h"
#include "args.h"
#include "cmd.h"
#include "oneshot.h"
#include "lsess.h"
#include "token.h"

static void usage(FILE *o)
{
	fprintf(o,
		"usage: lair admin SUBCOMMAND [--json] [--server URL] [--token TOKEN]\n"
		"\n"
		"  lobbies [list]                 list lobbies\n"
		"  lobbies create NAME            create a lobby\n"
		"  lobbies close ID               close a lobby (its tables too)\n"
		"  tables [list] [--lobby ID]     list tables (private ones included)\n"
		"  tables close ID                close a table\n"
		"  tables quarantined [ID]        tables kept aside at restore (ID: in full)\n"
		"  tables drop-quarantined ID     delete a table kept aside, for good\n"
		"  players [list-online]          list online players\n"
		"  players kick NAME [--reason T] disconnect a player\n"
		"  players prune [--older-than D] delete players who never played, created\n"
		"                                 more than D ago (7d, 12h, 30m, 0; default 1d)\n"
		"  stats                          server statistics (also: server stats)\n"
		"  set-token TOKEN                store the admin token for --server\n"
		"\n"
		"The admin token: --token, else $LAIR_ADMIN_TOKEN, else the token store.\n"
		"laird prints the first one on its first start (or: laird admin-token).\n");
}

static void print_lobbies(const cJSON *reply, FILE *out)
{
	char a[32], b[256], c[32], d[32];
	fprintf(out, "%-6s %-24s %8s %7s\n", "ID", "NAME", "PLAYERS", "TABLES");
	const cJSON *it;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(reply, "lobbies"))
		fprintf(out, "%-6s %-24s %8s %7s\n", oneshot_str(it, "id", a, sizeof a),
			oneshot_str(it, "name", b, sizeof b),
			oneshot_str(it, "players", c, sizeof c),
			oneshot_str(it, "tables", d, sizeof d));
}

static void print_lobby(const cJSON *reply, FILE *out)
{
	char a[32], b[256];
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(reply, "lobby");
	fprintf(out, "lobby %s \"%s\" created\n", oneshot_str(l, "id", a, sizeof a),
		oneshot_str(l, "name", b, sizeof b));
}

/* Cluster mode: the nodes that did not answer in time, whose items are not
 * in the list (PROTOCOL.md §9, `missing`). */
static void print_missing(const cJSON *reply, FILE *out)
{
	const cJSON *missing = cJSON_GetObjectItemCaseSensitive(reply, "missing");
	if (cJSON_GetArraySize(missing) == 0)
		return;
	fprintf(out, "(not listed: node");
	const cJSON *n;
	cJSON_ArrayForEach(n, missing)
		if (cJSON_IsString(n)) {
			char *name = text_escaped(n->valuestring);
			fprintf(out, " %s", name);
			free(name);
		}
	fprintf(out, " did not answer in time)\n");
}

static void print_tables(const cJSON *reply, FILE *out)
{
	char a[32], b[32], c[64], d[32], e[32], f[128], g[256];
	fprintf(out, "%-6s %-6s %-10s %-9s %5s %-16s %s\n", "ID", "LOBBY", "KIND", "STATE",
		"SEATS", "HOST", "NAME");
	const cJSON *it;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(reply, "tables"))
	{
		const cJSON *priv = cJSON_GetObjectItemCaseSensitive(it, "private");
		fprintf(out, "%-6s %-6s %-10s %-9s %5s %-16s %s%s\n",
			oneshot_str(it, "id", a, sizeof a), oneshot_str(it, "lobby", b, sizeof b),
			oneshot_str(it, "kind", c, sizeof c), oneshot_str(it, "state", d, sizeof d),
			oneshot_str(it, "seats", e, sizeof e), oneshot_str(it, "host", f, sizeof f),
			cJSON_IsTrue(priv) ? "(private) " : "", oneshot_str(it, "name", g, sizeof g));
	}
	print_missing(reply, out);
}

/* Tables kept aside at restore: a list, or one in full (it has a log). */
static void print_quarantined(const cJSON *reply, FILE *out)
{
	char a[32], b[32], c[32], d[256], e[256];
	const cJSON *tables = cJSON_GetObjectItemCaseSensitive(reply, "tables");
	const cJSON *one = cJSON_GetArrayItem(tables, 0);
	if (cJSON_GetArraySize(tables) == 1 && cJSON_GetObjectItemCaseSensitive(one, "log")) {
		static const char *const keys[] = {"table", "kind", "name", "reason", "seed",
						   "started_at", "quarantined_at", "decisions"};
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			fprintf(out, "%-15s %s\n", keys[i], oneshot_str(one, keys[i], d, sizeof d));
		static const char *const stored[] = {"config", "players", "meta", "log"};
		for (size_t i = 0; i < sizeof stored / sizeof stored[0]; i++) {
			char *text = oneshot_json(cJSON_GetObjectItemCaseSensitive(one, stored[i]));
			fprintf(out, "%-15s %s\n", stored[i], text);
			free(text);
		}
		return;
	}
	fprintf(out, "%-6s %-10s %9s %-16s %s\n", "ID", "KIND", "DECISIONS", "NAME", "REASON");
	const cJSON *it;
	cJSON_ArrayForEach(it, tables)
		fprintf(out, "%-6s %-10s %9s %-16s %s\n", oneshot_str(it, "table", a, sizeof a),
			oneshot_str(it, "kind", b, sizeof b),
			oneshot_str(it, "decisions", c, sizeof c),
			oneshot_str(it, "name", d, sizeof d), oneshot_str(it, "reason", e, sizeof e));
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(reply, "more")))
		fprintf(out, "(more not shown)\n");
}

static void print_players(const cJSON *reply, FILE *out)
{
	char a[32], b[128], c[32], d[32];
	fprintf(out, "%-6s %-24s %-6s %-6s %-12s %s\n", "ID", "NAME", "ADMIN", "LOBBY",
		"CONNECTED", "TABLES");
	const cJSON *it;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(reply, "players"))
	{
		const cJSON *ms = cJSON_GetObjectItemCaseSensitive(it, "connected_ms");
		char conn[32] = "-";
		int64_t v;
		if (proto_json_int(ms, 0, 1LL << 53, &v))
			snprintf(conn, sizeof conn, "%llds", (long long)(v / 1000));
		char tables[128] = "";
		const cJSON *t;
		cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(it, "tables"))
		{
			size_t n = strlen(tables);
			if (proto_json_int(t, 1, 1LL << 53, &v))
				snprintf(tables + n, sizeof tables - n, "%s%lld", n ? "," : "",
					 (long long)v);
		}
		fprintf(out, "%-6s %-24s %-6s %-6s %-12s %s\n", oneshot_str(it, "id", a, sizeof a),
			oneshot_str(it, "name", b, sizeof b), oneshot_str(it, "admin", c, sizeof c),
			oneshot_str(it, "lobby", d, sizeof d), conn, tables);
	}
	print_missing(reply, out);
}

static void print_server_stats(const cJSON *reply, FILE *out)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, reply)
	{
		if (!strcmp(it->string, "type") || !strcmp(it->string, "id"))
			continue;
		char *key = text_escaped(it->string), *text = oneshot_json(it);
		fprintf(out, "  %-18s %s\n", key, text);
		free(key);
		free(text);
	}
}

static void print_ok(const cJSON *reply, FILE *out)
{
	(void)reply;
	fprintf(out, "ok\n");
}

static void print_pruned(const cJSON *reply, FILE *out)
{
	char n[32];
	fprintf(out, "%s players pruned\n", oneshot_str(reply, "pruned", n, sizeof n));
}

/* "7d", "12h", "30m", "45s" or "0" in milliseconds; -1 if it is none. */
static long long duration_ms(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (end == s || v < 0 || v > 100000000)
		return -1;
	if (!*end)
		return v == 0 ? 0 : -1;
	static const struct {
		const char *unit;
		long long ms;
	} units[] = {{"s", 1000}, {"m", 60000}, {"h", 3600000}, {"d", 86400000}};
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (!strcmp(end, units[i].unit))
			return v * units[i].ms;
	return -1;
}

static int set_token(const char *server, const char *tok)
{
	char dir[1024], err[512];
	if (ltoken_dir(dir, sizeof dir, err, sizeof err) < 0 ||
	    ltoken_put(dir, "admin", lsess_url(server), tok, err, sizeof err) < 0) {
		fprintf(stderr, "lair admin: %s\n", err);
		return LAIR_USAGE;
	}
	printf("admin token stored for %s\n", lsess_url(server));
	return LAIR_OK;
}

int cmd_admin(int argc, char **argv)
{
	const char *server = NULL, *token = NULL, *lobby = NULL, *reason = NULL, *pos[4];
	const char *older = NULL;
	int json = 0, n = 0;
	struct arg_opt opts[] = {{"server", &server, NULL}, {"token", &token, NULL},
				 {"lobby", &lobby, NULL},   {"reason", &reason, NULL},
				 {"older-than", &older, NULL}, {"json", NULL, &json}};
	char err[768];
	int r = args_parse(argc, argv, opts, sizeof opts / sizeof opts[0], pos, 4, &n, err,
			   sizeof err);
	if (r == ARGS_HELP) {
		usage(stdout);
		return LAIR_OK;
	}
	if ((r == ARGS_ERROR || n == 0) && args_has(argc, argv, "--json"))
		return oneshot_usage_error(1, "admin", r == ARGS_ERROR ? err : "missing subcommand");
	if (r == ARGS_ERROR || n == 0) {
		fprintf(stderr, "lair admin: %s\n", r == ARGS_ERROR ? err : "missing subcommand");
		usage(stderr);
		return LAIR_USAGE;
	}
	const char *what = pos[0], *verb = n > 1 ? pos[1] : "list", *arg = n > 2 ? pos[2] : NULL;
	cJSON *req = NULL;
	void (*print)(const cJSON *, FILE *) = print_ok;
	long long id = 0;
	int extra = 0; /* positionals beyond what the subcommand takes */

	if (!strcmp(what, "set-token")) {
		if (n != 2) {
			usage(stderr);
			return LAIR_USAGE;
		}
		return set_token(server, pos[1]);
	} else if (!strcmp(what, "lobbies") && !strcmp(verb, "list")) {
		req = lsess_msg("admin_lobbies");
		print = print_lobbies;
		extra = n > 2;
	} else if (!strcmp(what, "lobbies") && !strcmp(verb, "create") && arg) {
		req = lsess_msg("admin_lobby_create");
		cJSON_AddStringToObject(req, "name", arg);
		print = print_lobby;
		extra = n > 3;
	} else if (!strcmp(what, "lobbies") && !strcmp(verb, "close") && args_id(arg, &id) == 0) {
		req = lsess_msg("admin_lobby_close");
		cJSON_AddNumberToObject(req, "lobby", (double)id);
		extra = n > 3;
	} else if (!strcmp(what, "tables") && !strcmp(verb, "list")) {
		req = lsess_msg("admin_tables");
		if (lobby) {
			if (args_id(lobby, &id) < 0) {
				snprintf(err, sizeof err, "bad lobby id '%s'", lobby);
				cJSON_Delete(req);
				return oneshot_usage_error(json, "admin", err);
			}
			cJSON_AddNumberToObject(req, "lobby", (double)id);
		}
		print = print_tables;
		extra = n > 2;
	} else if (!strcmp(what, "tables") && !strcmp(verb, "close") && args_id(arg, &id) == 0) {
		req = lsess_msg("admin_table_close");
		cJSON_AddNumberToObject(req, "table", (double)id);
		extra = n > 3;
	} else if (!strcmp(what, "tables") && !strcmp(verb, "quarantined") &&
		   (!arg || args_id(arg, &id) == 0)) {
		req = lsess_msg("admin_quarantined");
		if (arg)
			cJSON_AddNumberToObject(req, "table", (double)id);
		print = print_quarantined;
		extra = n > 3;
	} else if (!strcmp(what, "tables") && !strcmp(verb, "drop-quarantined") &&
		   args_id(arg, &id) == 0) {
		req = lsess_msg("admin_quarantined_drop");
		cJSON_AddNumberToObject(req, "table", (double)id);
		extra = n > 3;
	} else if (!strcmp(what, "players") &&
		   (!strcmp(verb, "list-online") || !strcmp(verb, "list"))) {
		req = lsess_msg("admin_players");
		print = print_players;
		extra = n > 2;
	} else if (!strcmp(what, "players") && !strcmp(verb, "kick") && arg) {
		req = lsess_msg("admin_kick");
		cJSON_AddStringToObject(req, "player", arg);
		if (reason)
			cJSON_AddStringToObject(req, "reason", reason);
		extra = n > 3;
	} else if (!strcmp(what, "players") && !strcmp(verb, "prune")) {
		req = lsess_msg("admin_players_prune");
		if (older) {
			long long ms = duration_ms(older);
			if (ms < 0) {
				snprintf(err, sizeof err, "bad --older-than '%s' (7d, 12h, 30m, 45s, 0)",
					 older);
				cJSON_Delete(req);
				return oneshot_usage_error(json, "admin", err);
			}
			cJSON_AddNumberToObject(req, "older_than_ms", (double)ms);
		}
		print = print_pruned;
		extra = n > 2;
	} else if ((!strcmp(what, "stats") && n == 1) ||
		   (!strcmp(what, "server") && n == 2 && !strcmp(verb, "stats"))) {
		req = lsess_msg("admin_stats");
		print = print_server_stats;
	} else {
		snprintf(err, sizeof err, "bad subcommand '%s%s%s'", what, n > 1 ? " " : "",
			 n > 1 ? pos[1] : "");
		if (!json)
			usage(stderr);
		return oneshot_usage_error(json, "admin", err);
	}
	if (extra) {
		cJSON_Delete(req);
		return oneshot_usage_error(json, "admin", "too many arguments");
	}
	char stored[LTOKEN_MAX];
	if (!token || !*token)
		token = getenv("LAIR_ADMIN_TOKEN");
	if (!token || !*token) {
		char dir[1024];
		if (ltoken_dir(dir, sizeof dir, err, sizeof err) == 0 &&
		    ltoken_get(dir, "admin", lsess_url(server), stored, sizeof stored, err,
			       sizeof err) == 1)
			token = stored;
	}
	if (!token || !*token) {
		snprintf(err, sizeof err, "no admin token for %s: pass --token, set "
					  "LAIR_ADMIN_TOKEN or run `lair admin set-token TOKEN`",
			 lsess_url(server));
		cJSON_Delete(req);
		return oneshot_usage_error(json, "admin", err);
	}
	struct oneshot o = {server, NULL, token, "admin", req, json, print};
	return oneshot_run(&o);
}
