/*
 * args.h — option parsing for lair's commands: "--opt VALUE", "--opt=VALUE",
 * boolean "--flag", "--help"/"-h", and positional arguments, with a clear
 * message for anything else. Pure; the unit tests pin it.
 */
#ifndef LAIR_ARGS_H
#define LAIR_ARGS_H

#include <stddef.h>
#include <stdint.h>

struct arg_opt {
	const char *name;   /* "server" for --server */
	const char **value; /* set for an option with a value (NULL: a flag) */
	int *flag;          /* set to 1 for a flag */
};

enum { ARGS_OK = 0, ARGS_HELP = 1, ARGS_ERROR = -1 };

/* Parses argv[1..argc-1] (argv[0] is the command). Positionals go to pos
 * (at most max_pos; more is an error), their count to *n_pos. "--" ends the
 * options. Returns ARGS_OK, ARGS_HELP or ARGS_ERROR with a message in err.
 * Values point into argv. */
int args_parse(int argc, char **argv, const struct arg_opt *opts, size_t n_opts,
	       const char **pos, int max_pos, int *n_pos, char *err, size_t err_len);

/* 1 when argv[1..argc-1] holds `arg` itself before any "--" (e.g. whether a
 * command line that failed to parse asked for --json), else 0. */
int args_has(int argc, char **argv, const char *arg);

/* Parses a positive decimal id (1 … 2^53); returns 0 or -1. */
int args_id(const char *s, long long *out);

/* Parses a decimal count of digits only (0 … 2^64 - 1): strtoull would also
 * take leading blanks and a sign (" -1" is 2^64 - 1). 0 or -1; s may be
 * NULL (a missing value). */
int args_u64(const char *s, uint64_t *out);

#endif
