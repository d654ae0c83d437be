/*
 * test_admin_token.c — `laird admin-token` (server/admin_token.c) acts on
 * the service's database: the settings from --config, else the default
 * config file when it exists, else the defaults (flags win); no database is
 * created unless --create; as root it refuses a database another user owns.
 * The token goes to stdout (captured here), 64 hex digits.
 */
#include "../../server/admin_token.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/util.h"
#include "../test.h"

static char dir[64];

static void fresh_dir(void)
{
	strcpy(dir, "/tmp/lair-test-admintok-XXXXXX");
	if (!mkdtemp(dir))
		dir[0] = 0;
}

static void rm_dir(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

/* dir/name (valid for the next 15 calls) */
static const char *in_dir(const char *name)
{
	static char paths[16][160];
	static int k;
	char *p = paths[k++ % 16];
	snprintf(p, sizeof paths[0], "%s/%s", dir, name);
	return p;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Runs admin_token_cli("admin-token", args..., NULL) with stdout and stderr
 * captured; *out gets stdout (static). Returns the exit code. */
static int run_cli(const char *default_config, char **out, ...) __attribute__((sentinel));
static int run_cli(const char *default_config, char **out, ...)
{
	static char text[512];
	char *argv[16] = {"admin-token"};
	int argc = 1;
	va_list ap;
	va_start(ap, out);
	for (char *a; argc < 15 && (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	laird_config cfg;
	config_defaults(&cfg);
	cfg.log_level = 4; /* off: the store's own lines */

	const char *cap = in_dir("stdout");
	int fd = open(cap, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	int null = open("/dev/null", O_WRONLY);
	fflush(stdout);
	fflush(stderr);
	int saved1 = dup(1), saved2 = dup(2);
	dup2(fd, 1);
	dup2(null, 2);
	int rc = admin_token_cli(&cfg, argc, argv, default_config);
	fflush(stdout);
	fflush(stderr);
	dup2(saved1, 1);
	dup2(saved2, 2);
	close(saved1);
	close(saved2);
	close(fd);
	close(null);
	text[0] = 0;
	FILE *f = fopen(cap, "r");
	if (f) {
		size_t n = fread(text, 1, sizeof text - 1, f);
		text[n] = 0;
		fclose(f);
	}
	unlink(cap);
	*out = text;
	return rc;
}

static bool is_token(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return n == 64 && s[64] == '\n' && s[65] == 0;
}

TEST(admin_token_without_a_database_creates_nothing_unless_asked)
{
	fresh_dir();
	REQUIRE(dir[0]);
	char *out;
	const char *db = in_dir("var/lair.db");
	CHECK_EQ(run_cli(NULL, &out, "--db-path", db, NULL), 1);
	CHECK_STR(out, "");
	CHECK(!exists(in_dir("var"))); /* not even its directory */
	CHECK_EQ(run_cli(NULL, &out, "--create", "--db-path", db, NULL), 0);
	CHECK_MSG(is_token(out), "stdout: %s", out);
	CHECK(exists(db));
	/* now it exists: no --create needed, another name works too */
	CHECK_EQ(run_cli(NULL, &out, "ops", "--db-path", db, NULL), 0);
	CHECK(is_token(out));
	rm_dir();
}

TEST(admin_token_reads_the_default_config_unless_config_is_given)
{
	fresh_dir();
	REQUIRE(dir[0]);
	char *out, text[400];
	const char *service_db = in_dir("service.db"), *other_db = in_dir("other.db");
	const char *def = in_dir("laird.json"), *other = in_dir("other.json");
	snprintf(text, sizeof text, "{\"db_path\": \"%s\", \"port\": 9999}", service_db);
	write_file(def, text);
	snprintf(text, sizeof text, "{\"db_path\": \"%s\"}", other_db);
	write_file(other, text);
	/* the default config names the service's database, which is missing */
	CHECK_EQ(run_cli(def, &out, NULL), 1);
	CHECK_EQ(run_cli(def, &out, "--create", NULL), 0);
	CHECK(is_token(out));
	CHECK(exists(service_db));
	/* --config wins over the default file; --db-path over both */
	CHECK_EQ(run_cli(def, &out, "--config", other, NULL), 1);
	CHECK(!exists(other_db));
	CHECK_EQ(run_cli(def, &out, "--create", "--config", other, NULL), 0);
	CHECK(exists(other_db));
	CHECK_EQ(run_cli(def, &out, "--db-path", in_dir("nowhere.db"), NULL), 1);
	CHECK(!exists(in_dir("nowhere.db")));
	/* a broken default config is a usage error, not the defaults */
	write_file(def, "{\"db_path\": ");
	CHECK_EQ(run_cli(def, &out, NULL), 2);
	CHECK_STR(out, "");
	/* a default config that does not exist: the defaults (flags still win) */
	CHECK_EQ(run_cli(in_dir("absent.json"), &out, "--db-path", service_db, NULL), 0);
	CHECK(is_token(out));
	rm_dir();
}

TEST(admin_token_as_root_refuses_a_database_another_user_owns)
{
	if (geteuid() != 0) {
		printf("  (skipped: not running as root)\n");
		return;
	}
	fresh_dir();
	REQUIRE(dir[0]);
	char *out;
	const char *db = in_dir("lair.db");
	CHECK_EQ(run_cli(NULL, &out, "--create", "--db-path", db, NULL), 0);
	REQUIRE(chown(db, 1, 1) == 0);
	CHECK_EQ(run_cli(NULL, &out, "--db-path", db, NULL), 1);
	CHECK_STR(out, "");
	CHECK(!exists(in_dir("lair.db-wal")));
	rm_dir();
}
