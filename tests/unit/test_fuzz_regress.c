/*
 * test_fuzz_regress.c — every input the fuzzers found a bug with
 * (tests/fuzz/regress/<target>/) and every seed of their corpora
 * (tests/fuzz/corpus/<target>/) through the same entry functions as the
 * libFuzzer binaries (tests/fuzz/fuzz.h), so `make test` replays them in
 * the plain build and under ASan+UBSan. A broken invariant aborts the
 * binary with the file's name printed just before (the run shows it).
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../fuzz/fuzz.h"
#include "../test.h"

/* tests/fuzz from the repository root (where make runs the tests), or
 * relative to the binary (BUILD/tests/test_fuzz_regress). */
static const char *fuzz_dir(void)
{
	static char dir[PATH_MAX + 32];
	struct stat st;
	if (stat("tests/fuzz/corpus", &st) == 0)
		return "tests/fuzz";
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	snprintf(dir, sizeof dir, "%s/../../tests/fuzz", exe);
	return stat(dir, &st) == 0 ? dir : NULL;
}

static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	unsigned char *b = malloc(cap);
	size_t got;
	while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	*len = n;
	return b;
}

/* Runs every regular file of tests/fuzz/<sub>/ through fn; returns how
 * many, or -1 when the directory is missing. */
static int run_dir(const char *sub, int (*fn)(const uint8_t *, size_t))
{
	const char *base = fuzz_dir();
	if (!base)
		return -1;
	char dir[PATH_MAX + 64];
	snprintf(dir, sizeof dir, "%.*s/%s", PATH_MAX, base, sub);
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int count = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char path[sizeof dir + 260];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		struct stat st;
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		size_t len = 0;
		unsigned char *data = read_all(path, &len);
		CHECK_MSG(data, "cannot read %s", path);
		if (!data)
			continue;
		/* Named before the run: a broken invariant aborts. */
		fprintf(stderr, "fuzz input %s\n", path);
		fn(data, len);
		free(data);
		count++;
	}
	closedir(d);
	return count;
}

TEST(fuzz_proto_corpus)
{
	int n = run_dir("corpus/proto", fuzz_proto_one);
	CHECK_MSG(n >= 20, "tests/fuzz/corpus/proto: %d inputs", n);
}

TEST(fuzz_proto_regressions)
{
	int n = run_dir("regress/proto", fuzz_proto_one);
	CHECK_MSG(n >= 0, "tests/fuzz/regress/proto is missing");
}

TEST(fuzz_game_corpus)
{
	int n = run_dir("corpus/game", fuzz_game_one);
	CHECK_MSG(n >= 10, "tests/fuzz/corpus/game: %d inputs", n);
}

TEST(fuzz_game_regressions)
{
	int n = run_dir("regress/game", fuzz_game_one);
	CHECK_MSG(n >= 0, "tests/fuzz/regress/game is missing");
}

TEST(fuzz_table_corpus)
{
	int n = run_dir("corpus/table", fuzz_table_one);
	CHECK_MSG(n >= 10, "tests/fuzz/corpus/table: %d inputs", n);
}

TEST(fuzz_table_regressions)
{
	int n = run_dir("regress/table", fuzz_table_one);
	CHECK_MSG(n >= 0, "tests/fuzz/regress/table is missing");
}

TEST(fuzz_client_corpus)
{
	int n = run_dir("corpus/client", fuzz_client_one);
	CHECK_MSG(n >= 10, "tests/fuzz/corpus/client: %d inputs", n);
}

TEST(fuzz_client_regressions)
{
	int n = run_dir("regress/client", fuzz_client_one);
	CHECK_MSG(n >= 0, "tests/fuzz/regress/client is missing");
}

TEST(fuzz_json_corpus)
{
	int n = run_dir("corpus/json", fuzz_json_one);
	CHECK_MSG(n >= 5, "tests/fuzz/corpus/json: %d inputs", n);
}

TEST(fuzz_json_regressions)
{
	int n = run_dir("regress/json", fuzz_json_one);
	CHECK_MSG(n >= 0, "tests/fuzz/regress/json is missing");
}

TEST(fuzz_config_corpus)
{
	int n = run_dir("corpus/config", fuzz_config_one);
	CHECK_MSG(n >= 5, "tests/fuzz/corpus/config: %d inputs", n);
}

TEST(fuzz_config_regressions)
{
	int n = run_dir("regress/config", fuzz_config_one);
	CHECK_MSG(n >= 0, "tests/fuzz/regress/config is missing");
}

TEST(fuzz_http_corpus)
{
	int n = run_dir("corpus/http", fuzz_http_one);
	CHECK_MSG(n >= 3, "tests/fuzz/corpus/http: %d inputs", n);
}

TEST(fuzz_http_regressions)
{
	int n = run_dir("regress/http", fuzz_http_one);
	CHECK_MSG(n >= 0, "tests/fuzz/regress/http is missing");
}

/* The empty input and a few fixed shapes, whatever the corpus holds. */
TEST(fuzz_entry_points_take_any_bytes)
{
	static const uint8_t zeros[64];
	uint8_t ones[64];
	memset(ones, 0xff, sizeof ones);
	CHECK_EQ(fuzz_proto_one(zeros, 0), 0);
	CHECK_EQ(fuzz_proto_one(zeros, sizeof zeros), 0);
	CHECK_EQ(fuzz_proto_one(ones, sizeof ones), 0);
	CHECK_EQ(fuzz_game_one(zeros, 0), 0);
	CHECK_EQ(fuzz_game_one(zeros, sizeof zeros), 0);
	CHECK_EQ(fuzz_game_one(ones, sizeof ones), 0);
	CHECK_EQ(fuzz_table_one(zeros, 0), 0);
	CHECK_EQ(fuzz_table_one(zeros, sizeof zeros), 0);
	CHECK_EQ(fuzz_table_one(ones, sizeof ones), 0);
	static int (*const others[])(const uint8_t *, size_t) = {
		fuzz_client_one, fuzz_json_one, fuzz_config_one, fuzz_http_one};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		CHECK_EQ(others[i](zeros, 0), 0);
		CHECK_EQ(others[i](zeros, sizeof zeros), 0);
		CHECK_EQ(others[i](ones, sizeof ones), 0);
	}
}
