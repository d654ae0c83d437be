/*
 * cmd_stats.c — `lair stats [PLAYER]`, `lair achievements [PLAYER]` and
 * `lair records`: the kind's statistics (PROTOCOL.md §8) as a two-column
 * list, or the reply as JSON with --json. They only read: none ever creates
 * a player (PROTOCOL.md §4: the queries need no hello).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/text.h"
#include "args.h"
#include "cmd.h"
#include "oneshot.h"
#include "lsess.h"

static void print_stat_list(const cJSON *reply, FILE *out, const char *list, const char *val)
{
	char tmp[256], tmp2[256], who[128];
	if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(reply, "player")))
		strcpy(who, "server");
	else
		oneshot_str(reply, "player", who, sizeof who);
	fprintf(out, "%s (%s)", who, oneshot_str(reply, "kind", tmp, sizeof tmp));
	if (cJSON_GetObjectItemCaseSensitive(reply, "games"))
		fprintf(out, ": %s games", oneshot_str(reply, "games", tmp2, sizeof tmp2));
	fputc('\n', out);
	const cJSON *it;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(reply, list))
	{
		fprintf(out, "  %-34s %s\n", oneshot_str(it, "label", tmp, sizeof tmp),
			oneshot_str(it, val, tmp2, sizeof tmp2));
	}
}

static void print_stats(const cJSON *reply, FILE *out)
{
	print_stat_list(reply, out, "stats", "value");
}

static void print_achievements(const cJSON *reply, FILE *out)
{
	print_stat_list(reply, out, "achievements", "count");
}

static void print_value(const char *key, const cJSON *v, FILE *out, int depth)
{
	char *k = text_escaped(key); /* keys and values are the server's text */
	if (!cJSON_IsObject(v) && !cJSON_IsArray(v)) {
		char *text = oneshot_json(v);
		fprintf(out, "%*s%-30s %s\n", depth * 2, "", k, text);
		free(text);
		free(k);
		return;
	}
	fprintf(out, "%*s%s:\n", depth * 2, "", k);
	free(k);
	const cJSON *it;
	int i = 0;
	cJSON_ArrayForEach(it, v)
	{
		char idx[16];
		snprintf(idx, sizeof idx, "%d", i++);
		print_value(it->string ? it->string : idx, it, out, depth + 1);
	}
}

static void print_records(const cJSON *reply, FILE *out)
{
	char tmp[256];
	fprintf(out, "records (%s)\n", oneshot_str(reply, "kind", tmp, sizeof tmp));
	const cJSON *it;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(reply, "records"))
		print_value(it->string ? it->string : "?", it, out, 1);
}

static int run(int argc, char **argv, const char *type, void (*print)(const cJSON *, FILE *),
	       int takes_player)
{
	const char *server = NULL, *token = NULL, *kind = NULL, *pos[1];
	int json = 0, n_pos = 0;
	struct arg_opt opts[] = {{"server", &server, NULL},
				 {"token", &token, NULL},
				 {"kind", &kind, NULL},
				 {"json", NULL, &json}};
	char err[256];
	int r = args_parse(argc, argv, opts, sizeof opts / sizeof opts[0], pos,
			   takes_player ? 1 : 0, &n_pos, err, sizeof err);
	if (r == ARGS_ERROR && args_has(argc, argv, "--json"))
		return oneshot_usage_error(1, argv[0], err);
	if (r != ARGS_OK) {
		FILE *o = r == ARGS_HELP ? stdout : stderr;
		if (r == ARGS_ERROR)
			fprintf(stderr, "lair %s: %s\n", argv[0], err);
		fprintf(o, "usage: lair %s%s [--kind KIND] [--json] [--server URL] "
			   "[--token TOKEN]\n",
			argv[0], takes_player ? " [PLAYER]" : "");
		if (r == ARGS_HELP)
			fprintf(o, "\n  PLAYER      a player's name (default: you)\n"
				   "  --kind      the game kind (default gems)\n"
				   "  --json      print the server's reply as JSON\n"
				   "  --server    ws://HOST:PORT/ (default $LAIR_SERVER or %s)\n"
				   "  --token     ask as this player (default: the stored token)\n"
				   "\nA query never creates a player: without a token it asks as\n"
				   "nobody (then name a PLAYER); `lair play` creates yours.\n",
				LSESS_DEFAULT_URL);
		return r == ARGS_HELP ? LAIR_OK : LAIR_USAGE;
	}
	if (takes_player && !n_pos && !(token && *token) && !lsess_known(server, "player")) {
		char why[768];
		snprintf(why, sizeof why, "you have no player on %s yet (`lair play` creates one): "
					  "name a PLAYER, or pass --token",
			 lsess_url(server));
		return oneshot_usage_error(json, argv[0], why);
	}
	cJSON *req = lsess_msg(type);
	if (n_pos)
		cJSON_AddStringToObject(req, "player", pos[0]);
	if (kind)
		cJSON_AddStringToObject(req, "kind", kind);
	struct oneshot o = {server, NULL, token, "player", req, json, print, 1};
	return oneshot_run(&o);
}

int cmd_stats(int argc, char **argv)
{
	return run(argc, argv, "stats", print_stats, 1);
}

int cmd_achievements(int argc, char **argv)
{
	return run(argc, argv, "achievements", print_achievements, 1);
}

int cmd_records(int argc, char **argv)
{
	return run(argc, argv, "records", print_records, 0);
}
