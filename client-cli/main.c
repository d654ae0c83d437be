/*
 * main.c — lair's entry point: finds the command and runs it. Commands live
 * one per file (cmd_*.c); this table is the only place that lists them.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"sim", cmd_sim, "play all-AI games headless and print statistics"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: lair COMMAND [options]   (lair COMMAND --help)\n\ncommands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return LAIR_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return LAIR_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "lair: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return LAIR_USAGE;
}
