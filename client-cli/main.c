/*
 * main.c — lair's entry point: finds the command and runs it. Commands live
 * one per file (cmd_*.c); this table is the only place that lists them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../proto/proto_msg.h"
#include "cmd.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"play", cmd_play, "play: lobbies, tables, games (interactive)"},
	{"watch", cmd_watch, "spectate a table (interactive)"},
	{"stats", cmd_stats, "a player's statistics (default: yours)"},
	{"achievements", cmd_achievements, "a player's achievements (default: yours)"},
	{"records", cmd_records, "the server-wide records"},
	{"admin", cmd_admin, "administer the server (lobbies, tables, players, stats)"},
	{"sim", cmd_sim, "play all-AI games headless and print statistics"},
	{"map", cmd_map, "print a crawl level as the generator makes it (offline)"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: lair COMMAND [options]   (lair COMMAND --help; lair --version)\n"
		     "\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
	/* Commands draw on the terminal: only warnings, unless LAIR_LOG says. */
	const char *lvl = getenv("LAIR_LOG");
	int level = lvl ? log_level_parse(lvl) : -1;
	log_set_level(level >= 0 ? (enum log_level)level : LOG_WARN);
	if (argc < 2) {
		usage(stderr);
		return LAIR_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return LAIR_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0 ||
	    strcmp(argv[1], "version") == 0) {
		printf("lair %s (protocol %d)\n", LAIR_VERSION, PROTO_VERSION);
		return LAIR_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "lair: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return LAIR_USAGE;
}
