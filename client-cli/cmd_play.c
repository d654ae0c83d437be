/*
 * cmd_play.c — `lair play` and `lair watch TABLE`: the interactive client
 * (play.c) with its options.
 */
#include <stdio.h>

#include "args.h"
#include "cmd.h"
#include "play.h"
#include "lsess.h"

static void usage(FILE *o, const char *cmd)
{
	if (cmd[0] == 'w')
		fprintf(o, "usage: lair watch TABLE [--password PW] [--server URL] [--name NAME]\n"
			   "\nSpectate a table. Keys: H the hand icon, O + a seat number take an\n"
			   "AI seat over, / talk, ? help, Q quit.\n");
	else
		fprintf(o,
			"usage: lair play [--server URL] [--name NAME] [--table ID] "
			"[--password PW]\n"
			"\n"
			"  --server    ws://HOST:PORT/ (default $LAIR_SERVER or %s)\n"
			"  --name      your player name the first time (default: your login)\n"
			"  --table     join this table at once\n"
			"  --token     use this token instead of the stored one\n"
			"\n"
			"Keys are shown on every screen; ? shows the help pages. Lobby: 1-9\n"
			"select, J join, W watch, C create, N next lobby, / talk. At the table:\n"
			"the option keys, H the hand icon (lair odds, rumor, expected value),\n"
			"O + a seat number to take an AI seat over while watching, Q quit (the\n"
			"AI keeps your seat until you come back; a dropped connection resumes\n"
			"by itself). The terminal must be at least 80x24.\n",
			LSESS_DEFAULT_URL);
}

static int run(int argc, char **argv, int watch)
{
	const char *server = NULL, *name = NULL, *token = NULL, *table = NULL, *pw = NULL;
	const char *pos[1];
	int n = 0;
	struct arg_opt opts[] = {{"server", &server, NULL},   {"name", &name, NULL},
				 {"token", &token, NULL},     {"table", &table, NULL},
				 {"password", &pw, NULL}};
	char err[256];
	int r = args_parse(argc, argv, opts, sizeof opts / sizeof opts[0], pos, watch ? 1 : 0,
			   &n, err, sizeof err);
	if (r == ARGS_HELP) {
		usage(stdout, argv[0]);
		return LAIR_OK;
	}
	struct play_opts o = {server, name, token, 0, 0, pw};
	if (r == ARGS_OK && watch && (n != 1 || args_id(pos[0], &o.watch) < 0)) {
		snprintf(err, sizeof err, n ? "bad table id '%s'" : "which table?",
			 n ? pos[0] : "");
		r = ARGS_ERROR;
	}
	if (r == ARGS_OK && table && args_id(table, &o.join) < 0) {
		snprintf(err, sizeof err, "bad table id '%s'", table);
		r = ARGS_ERROR;
	}
	if (r != ARGS_OK) {
		fprintf(stderr, "lair %s: %s\n", argv[0], err);
		usage(stderr, argv[0]);
		return LAIR_USAGE;
	}
	return play_run(&o);
}

int cmd_play(int argc, char **argv)
{
	return run(argc, argv, 0);
}

int cmd_watch(int argc, char **argv)
{
	return run(argc, argv, 1);
}
