/*
 * oneshot.h — the shape of lair's one-request commands (stats, records,
 * admin ...): connect, hello, send one request, hand the reply to a printer,
 * close, and turn the outcome into lair's exit code (cmd.h).
 */
#ifndef LAIR_ONESHOT_H
#define LAIR_ONESHOT_H

#include <stdio.h>

#include <cJSON.h>

struct oneshot {
	const char *url;   /* NULL: default (lsess.h) */
	const char *name;  /* a new player's name when no token is known */
	const char *token; /* explicit token */
	const char *role;  /* token store role ("player", "admin") */
	cJSON *req;        /* the request (taken by oneshot_run) */
	int json;          /* --json: print the reply as JSON instead */
	/* Prints a successful reply for humans. NULL: print nothing. */
	void (*print)(const cJSON *reply, FILE *out);
	int readonly;      /* a query: never creates a player (no token: no hello) */
};

/* Runs it; returns 0 ok, 1 refused (the error is printed on stderr),
 * 3 connection failed. With json, the reply is printed without its id, and
 * a failure too, on stdout: the server's error object, or lair's own
 * {type:"error", code, message}, each with "exit" (the exit code). */
int oneshot_run(struct oneshot *o);

/* A usage error found after the options were read: "lair CMD: why" on
 * stderr, or with json the error object on stdout (code "usage"). Returns
 * LAIR_USAGE. */
int oneshot_usage_error(int json, const char *cmd, const char *why);

/* Helpers for printers: a field as text ("-" when null or absent); a
 * string is the server's text escaped for the terminal (common/text.h),
 * cut to fit tmp. */
const char *oneshot_str(const cJSON *obj, const char *key, char *tmp, size_t tmp_len);
/* v as compact JSON that is safe on a terminal (text_json_safe); free() it.
 * "-" (allocated) for NULL. */
char *oneshot_json(const cJSON *v);

#endif
