/*
 * fuzz_config.c — the config file fuzz target (fuzz.h): any bytes as
 * laird's config file (server/config.h), read through config_load_file
 * from an in-memory file (memfd: no disk).
 *
 * Invariants: the load returns 0 or -1; a refused file changes nothing
 * and says why, naming the file; an accepted one, loaded again over its
 * own result, changes nothing more; and it means what the same settings
 * mean as flags: every member given as --name=value (a JSON number in
 * digits, a boolean as true/false) to config_parse_args over the defaults
 * gives the same config, byte for byte.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../common/util.h"
#include "../../server/config.h"

#define MAX_ARGS 64

/* The file's members as flags; false when some member has no flag form
 * this check writes (it then checks nothing more). */
static bool as_flags(const cJSON *root, char **argv, int *argc)
{
	*argc = 0;
	argv[(*argc)++] = xstrdup("laird");
	for (const cJSON *it = root->child; it; it = it->next) {
		if (*argc == MAX_ARGS || !it->string)
			return false;
		buf b = {0};
		buf_printf(&b, "--");
		for (const char *p = it->string; *p; p++)
			buf_printf(&b, "%c", *p == '_' ? '-' : *p);
		if (cJSON_IsString(it))
			buf_printf(&b, "=%s", it->valuestring);
		else if (cJSON_IsBool(it))
			buf_printf(&b, "=%s", cJSON_IsTrue(it) ? "true" : "false");
		else if (cJSON_IsNumber(it))
			buf_printf(&b, "=%lld", (long long)it->valuedouble); /* whole: accepted */
		else {
			buf_free(&b);
			return false;
		}
		argv[(*argc)++] = b.data;
	}
	return true;
}

static int load(laird_config *cfg, int fd, char *err, size_t errlen)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	err[0] = 0;
	return config_load_file(cfg, path, err, errlen);
}

int fuzz_config_one(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz_config", 0);
	FUZZ_CHECK(fd >= 0, "memfd_create");
	FUZZ_CHECK(write(fd, data, size) == (ssize_t)size, "write to the memfd");
	laird_config cfg, before;
	config_defaults(&cfg);
	before = cfg;
	char err[512];
	int rc = load(&cfg, fd, err, sizeof err);
	FUZZ_CHECK(rc == 0 || rc == -1, "config_load_file returned %d", rc);
	if (rc < 0) {
		FUZZ_CHECK(memcmp(&cfg, &before, sizeof cfg) == 0, "a refused file changed the "
			   "config (%s)", err);
		FUZZ_CHECK(!strncmp(err, "/proc/self/fd/", 14), "refused without naming the "
			   "file: '%s'", err);
		close(fd);
		return 0;
	}
	laird_config again = cfg;
	FUZZ_CHECK(load(&again, fd, err, sizeof err) == 0, "accepted once, refused again: %s",
		   err);
	FUZZ_CHECK(memcmp(&again, &cfg, sizeof cfg) == 0, "loading twice changed the config");
	close(fd);

	/* The same settings as flags. The file parsed as config.c parses it. */
	cJSON *root = cJSON_ParseWithLength((const char *)data, size);
	FUZZ_CHECK(cJSON_IsObject(root), "accepted a file that is not a JSON object");
	char *argv[MAX_ARGS + 1] = {0};
	int argc = 0;
	if (as_flags(root, argv, &argc)) {
		laird_config flags;
		config_defaults(&flags);
		err[0] = 0;
		int frc = config_parse_args(&flags, argc, argv, err, sizeof err);
		FUZZ_CHECK(frc == 0, "the file's settings as flags are refused: %s", err);
		FUZZ_CHECK(memcmp(&flags, &cfg, sizeof cfg) == 0,
			   "the file and the same settings as flags give different configs");
	}
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	cJSON_Delete(root);
	return 0;
}

FUZZ_ENTRY(fuzz_config_one)
