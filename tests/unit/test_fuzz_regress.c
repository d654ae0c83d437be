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

/* Every target, with the fewest seeds its corpus must hold. */
static const struct target {
	const char *name;
	int (*fn)(const uint8_t *, size_t);
	int min_seeds;
} targets[] = {
	{"proto", fuzz_proto_one, 20},  {"game", fuzz_game_one, 10},
	{"table", fuzz_table_one, 10},  {"client", fuzz_client_one, 10},
	{"json", fuzz_json_one, 5},     {"config", fuzz_config_one, 5},
	{"http", fuzz_http_one, 3},
};

TEST(fuzz_corpora)
{
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
		char dir[64];
		snprintf(dir, sizeof dir, "corpus/%s", targets[i].name);
		int n = run_dir(dir, targets[i].fn);
		CHECK_MSG(n >= targets[i].min_seeds, "tests/fuzz/%s: %d inputs", dir, n);
	}
}

TEST(fuzz_regressions)
{
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
		char dir[64];
		snprintf(dir, sizeof dir, "regress/%s", targets[i].name);
		CHECK_MSG(run_dir(dir, targets[i].fn) >= 0, "tests/fuzz/%s is missing", dir);
	}
}

/* The empty input and a few fixed shapes, whatever the corpus holds. */
TEST(fuzz_entry_points_take_any_bytes)
{
	static const uint8_t zeros[64];
	uint8_t ones[64];
	memset(ones, 0xff, sizeof ones);
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
		CHECK_EQ(targets[i].fn(zeros, 0), 0);
		CHECK_EQ(targets[i].fn(zeros, sizeof zeros), 0);
		CHECK_EQ(targets[i].fn(ones, sizeof ones), 0);
	}
}
