/*
 * test_client_token.c — lair's token store: per URL and role, mode 0600 in
 * a 0700 directory, replace and remove, damaged lines skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../client-cli/token.h"
#include "../test.h"

static void temp_dir(char *out, size_t len)
{
	snprintf(out, len, "/tmp/lair-token-test.XXXXXX");
	if (!mkdtemp(out))
		out[0] = '\0';
}

static void rm_rf(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cleanup of %s failed\n", dir);
}

TEST(client_token_missing_store_is_not_an_error)
{
	char base[256], dir[300], tok[LTOKEN_MAX], err[256];
	temp_dir(base, sizeof base);
	REQUIRE(base[0]);
	snprintf(dir, sizeof dir, "%s/none/lair", base);
	CHECK_EQ(ltoken_get(dir, "player", "ws://h:1/", tok, sizeof tok, err, sizeof err), 0);
	rm_rf(base);
}

TEST(client_token_put_get_per_url_and_role_with_modes)
{
	char base[256], dir[300], tok[LTOKEN_MAX], err[256], path[400];
	temp_dir(base, sizeof base);
	REQUIRE(base[0]);
	snprintf(dir, sizeof dir, "%s/cfg/lair", base);
	mode_t old = umask(022);
	CHECK_EQ(ltoken_put(dir, "player", "ws://a:1/", "tokA", err, sizeof err), 0);
	CHECK_EQ(ltoken_put(dir, "player", "ws://b:2/", "tokB", err, sizeof err), 0);
	CHECK_EQ(ltoken_put(dir, "admin", "ws://a:1", "admA", err, sizeof err), 0);
	umask(old);

	/* trailing slash does not matter */
	CHECK_EQ(ltoken_get(dir, "player", "ws://a:1", tok, sizeof tok, err, sizeof err), 1);
	CHECK_STR(tok, "tokA");
	CHECK_EQ(ltoken_get(dir, "player", "ws://b:2/", tok, sizeof tok, err, sizeof err), 1);
	CHECK_STR(tok, "tokB");
	CHECK_EQ(ltoken_get(dir, "admin", "ws://a:1/", tok, sizeof tok, err, sizeof err), 1);
	CHECK_STR(tok, "admA");
	CHECK_EQ(ltoken_get(dir, "admin", "ws://b:2/", tok, sizeof tok, err, sizeof err), 0);

	struct stat st;
	REQUIRE(stat(dir, &st) == 0);
	CHECK_EQ(st.st_mode & 0777, 0700);
	snprintf(path, sizeof path, "%s/tokens", dir);
	REQUIRE(stat(path, &st) == 0);
	CHECK_EQ(st.st_mode & 0777, 0600);

	/* replace keeps one line; remove deletes it; others stay */
	CHECK_EQ(ltoken_put(dir, "player", "ws://a:1", "tokA2", err, sizeof err), 0);
	CHECK_EQ(ltoken_get(dir, "player", "ws://a:1/", tok, sizeof tok, err, sizeof err), 1);
	CHECK_STR(tok, "tokA2");
	CHECK_EQ(ltoken_put(dir, "player", "ws://a:1", NULL, err, sizeof err), 0);
	CHECK_EQ(ltoken_get(dir, "player", "ws://a:1", tok, sizeof tok, err, sizeof err), 0);
	CHECK_EQ(ltoken_get(dir, "player", "ws://b:2", tok, sizeof tok, err, sizeof err), 1);
	FILE *f = fopen(path, "r");
	REQUIRE(f);
	int lines = 0, ch;
	while ((ch = fgetc(f)) != EOF)
		lines += ch == '\n';
	fclose(f);
	CHECK_EQ(lines, 2);
	rm_rf(base);
}

TEST(client_token_tightens_wide_modes)
{
	char base[256], dir[300], err[256], path[400];
	temp_dir(base, sizeof base);
	REQUIRE(base[0]);
	snprintf(dir, sizeof dir, "%s/lair", base);
	REQUIRE(mkdir(dir, 0755) == 0);
	snprintf(path, sizeof path, "%s/tokens", dir);
	FILE *f = fopen(path, "w");
	REQUIRE(f);
	fputs("player ws://x:1 old\n", f);
	fclose(f);
	REQUIRE(chmod(path, 0644) == 0);
	CHECK_EQ(ltoken_put(dir, "player", "ws://y:1", "new", err, sizeof err), 0);
	struct stat st;
	REQUIRE(stat(dir, &st) == 0);
	CHECK_EQ(st.st_mode & 0777, 0700);
	REQUIRE(stat(path, &st) == 0);
	CHECK_EQ(st.st_mode & 0777, 0600);
	char tok[LTOKEN_MAX];
	CHECK_EQ(ltoken_get(dir, "player", "ws://x:1", tok, sizeof tok, err, sizeof err), 1);
	CHECK_STR(tok, "old");
	rm_rf(base);
}

TEST(client_token_rejects_bad_input_and_skips_damaged_lines)
{
	char base[256], dir[300], err[256], path[400], tok[LTOKEN_MAX];
	temp_dir(base, sizeof base);
	REQUIRE(base[0]);
	snprintf(dir, sizeof dir, "%s/lair", base);
	CHECK_EQ(ltoken_put(dir, "player", "ws://a:1", "has space", err, sizeof err), -1);
	CHECK_EQ(ltoken_put(dir, "player", "ws://a:1", "", err, sizeof err), -1);
	CHECK_EQ(ltoken_put(dir, "", "ws://a:1", "t", err, sizeof err), -1);
	CHECK_EQ(ltoken_put(dir, "player", "ws://a:1", "good", err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/tokens", dir);
	FILE *f = fopen(path, "a");
	REQUIRE(f);
	fputs("garbage\nplayer ws://a:1 x y z\n\n", f);
	fclose(f);
	CHECK_EQ(ltoken_get(dir, "player", "ws://a:1", tok, sizeof tok, err, sizeof err), 1);
	CHECK_STR(tok, "good");
	rm_rf(base);
}

TEST(client_token_dir_follows_xdg_then_home)
{
	char out[512], err[256];
	char *old_xdg = getenv("XDG_CONFIG_HOME") ? strdup(getenv("XDG_CONFIG_HOME")) : NULL;
	char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	setenv("HOME", "/home/u", 1);
	CHECK_EQ(ltoken_dir(out, sizeof out, err, sizeof err), 0);
	CHECK_STR(out, "/x/cfg/lair");
	unsetenv("XDG_CONFIG_HOME");
	CHECK_EQ(ltoken_dir(out, sizeof out, err, sizeof err), 0);
	CHECK_STR(out, "/home/u/.config/lair");
	unsetenv("HOME");
	CHECK_EQ(ltoken_dir(out, sizeof out, err, sizeof err), -1);
	if (old_xdg)
		setenv("XDG_CONFIG_HOME", old_xdg, 1);
	if (old_home)
		setenv("HOME", old_home, 1);
	free(old_xdg);
	free(old_home);
}

TEST(client_token_unreadable_or_huge_store_is_an_error_without_a_leak)
{
	char base[256], path[400], tok[LTOKEN_MAX], err[256];
	temp_dir(base, sizeof base);
	REQUIRE(base[0]);
	/* tokens is a directory: the read fails (EISDIR). */
	snprintf(path, sizeof path, "%s/tokens", base);
	REQUIRE(mkdir(path, 0700) == 0);
	CHECK_EQ(ltoken_get(base, "player", "ws://a:1", tok, sizeof tok, err, sizeof err), -1);
	CHECK(strstr(err, "token store: cannot read") != NULL);
	CHECK_EQ(ltoken_put(base, "player", "ws://a:1", "t1", err, sizeof err), -1);
	REQUIRE(rmdir(path) == 0);
	/* Larger than the store's 1 MiB cap (buf_read_file refuses it). */
	FILE *f = fopen(path, "w");
	REQUIRE(f != NULL);
	for (int i = 0; i < 40000; i++)
		fprintf(f, "player ws://a:%d tokentokentokentoken\n", i);
	fclose(f);
	CHECK_EQ(ltoken_get(base, "player", "ws://a:1", tok, sizeof tok, err, sizeof err), -1);
	CHECK(strstr(err, "larger than") != NULL);
	rm_rf(base);
}
