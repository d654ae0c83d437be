/*
 * args.c — lair's option parser (see args.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

static const struct arg_opt *find(const struct arg_opt *opts, size_t n, const char *name,
				  size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
			return &opts[i];
	return NULL;
}

int args_parse(int argc, char **argv, const struct arg_opt *opts, size_t n_opts,
	       const char **pos, int max_pos, int *n_pos, char *err, size_t err_len)
{
	int np = 0, only_pos = 0;
	*n_pos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!only_pos && strcmp(a, "--") == 0) {
			only_pos = 1;
			continue;
		}
		if (!only_pos && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0))
			return ARGS_HELP;
		if (!only_pos && a[0] == '-' && a[1] == '-' && a[2]) {
			const char *name = a + 2;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			const struct arg_opt *o = find(opts, n_opts, name, len);
			if (!o) {
				snprintf(err, err_len, "unknown option '--%.*s'", (int)len, name);
				return ARGS_ERROR;
			}
			if (o->value) {
				if (eq) {
					*o->value = eq + 1;
				} else if (i + 1 < argc) {
					*o->value = argv[++i];
				} else {
					snprintf(err, err_len, "option '--%s' needs a value",
						 o->name);
					return ARGS_ERROR;
				}
			} else {
				if (eq) {
					snprintf(err, err_len, "option '--%s' takes no value",
						 o->name);
					return ARGS_ERROR;
				}
				if (o->flag)
					*o->flag = 1;
			}
			continue;
		}
		if (!only_pos && a[0] == '-' && a[1]) {
			snprintf(err, err_len, "unknown option '%s'", a);
			return ARGS_ERROR;
		}
		if (np >= max_pos) {
			snprintf(err, err_len, "unexpected argument '%s'", a);
			return ARGS_ERROR;
		}
		pos[np++] = a;
	}
	*n_pos = np;
	return ARGS_OK;
}

int args_has(int argc, char **argv, const char *arg)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], arg) == 0)
			return 1;
	return 0;
}

int args_id(const char *s, long long *out)
{
	if (!s || !*s)
		return -1;
	long long v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
		if (v > (1LL << 53))
			return -1;
	}
	if (v < 1)
		return -1;
	*out = v;
	return 0;
}

int args_u64(const char *s, uint64_t *out)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}
