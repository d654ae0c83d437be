/*
 * test_util.c — common/util.c: the growable buffer and reading a whole file
 * into it (used by laird's config file and the simulator's --config).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/util.h"
#include "../test.h"

/* A temporary file holding n bytes of c; the path is the caller's to unlink. */
static void temp_file(char *path, size_t n, char c)
{
	strcpy(path, "/tmp/lair-test-util-XXXXXX");
	int fd = mkstemp(path);
	REQUIRE(fd >= 0);
	char chunk[1024];
	memset(chunk, c, sizeof chunk);
	while (n > 0) {
		size_t k = n < sizeof chunk ? n : sizeof chunk;
		REQUIRE(write(fd, chunk, k) == (ssize_t)k);
		n -= k;
	}
	close(fd);
}

TEST(util_buf_append_printf_and_terminate)
{
	buf b = {0};
	buf_puts(&b, "ab");
	buf_append(&b, "cd", 2);
	buf_printf(&b, "%d-%s", 42, "x");
	CHECK_EQ(b.len, 8u);
	CHECK_STR(b.data, "abcd42-x");
	buf_clear(&b);
	CHECK_EQ(b.len, 0u);
	CHECK_STR(b.data, "");
	buf_free(&b);
	CHECK(b.data == NULL);
}

TEST(util_buf_read_file_whole_empty_missing_and_too_large)
{
	char path[64], err[160];
	buf b = {0};
	temp_file(path, 10000, 'q'); /* several reads' worth */
	CHECK_EQ(buf_read_file(&b, path, 10000, err, sizeof err), 0);
	CHECK_EQ(b.len, 10000u);
	CHECK(b.data[0] == 'q' && b.data[9999] == 'q' && b.data[10000] == 0);
	buf_free(&b);
	err[0] = 0;
	CHECK_EQ(buf_read_file(&b, path, 9999, err, sizeof err), -1);
	CHECK(strstr(err, path) != NULL && strstr(err, "larger than 9999") != NULL);
	buf_free(&b);
	unlink(path);

	temp_file(path, 0, 'q');
	CHECK_EQ(buf_read_file(&b, path, 100, err, sizeof err), 0);
	CHECK_EQ(b.len, 0u);
	buf_free(&b);
	unlink(path);

	err[0] = 0;
	CHECK_EQ(buf_read_file(&b, path, 100, err, sizeof err), -1); /* gone now */
	CHECK(strstr(err, path) != NULL && strstr(err, "No such file") != NULL);
	buf_free(&b);
}

TEST(util_name_tables_with_holes_bounds_and_null_keys)
{
	static const char *const names[4] = {[1] = "one", [2] = "two", [3] = "three"};
	CHECK_STR(name_at(names, 4, 1), "one");
	CHECK_STR(name_at(names, 4, 3), "three");
	CHECK_STR(name_at(names, 4, 0), "?"); /* a hole */
	CHECK_STR(name_at(names, 4, 4), "?");
	CHECK_STR(name_at(names, 4, -1), "?");
	CHECK_EQ(name_index(names, 4, "two"), 2);
	CHECK_EQ(name_index(names, 4, "Two"), -1);
	CHECK_EQ(name_index(names, 4, ""), -1);
	CHECK_EQ(name_index(names, 4, NULL), -1);
	CHECK_EQ(name_index(names, 2, "two"), -1); /* only the first n */
}

TEST(strlcpy_safe_never_splits_a_utf8_character)
{
	char out[5];
	/* "ab" then é (2 bytes) then 中 (3 bytes): a cut at 4 bytes would
	 * keep the lead byte of 中 alone. */
	CHECK_EQ(strlcpy_safe(out, "ab\xc3\xa9\xe4\xb8\xad", sizeof out), 7);
	CHECK_STR(out, "ab\xc3\xa9");
	char two[3];
	strlcpy_safe(two, "a\xf0\x9f\x98\x80", sizeof two); /* a then an emoji */
	CHECK_STR(two, "a");
	strlcpy_safe(two, "xyz", sizeof two);
	CHECK_STR(two, "xy");
}

TEST(utf8_prefix_backs_off_to_a_character_boundary)
{
	const char *s = "\xe4\xb8\xad\xe6\x96\x87"; /* 中文 */
	CHECK_EQ(utf8_prefix(s, 0), 0);
	CHECK_EQ(utf8_prefix(s, 1), 0);
	CHECK_EQ(utf8_prefix(s, 2), 0);
	CHECK_EQ(utf8_prefix(s, 3), 3);
	CHECK_EQ(utf8_prefix(s, 5), 3);
	CHECK_EQ(utf8_prefix(s, 6), 6);
	CHECK_EQ(utf8_prefix(s, 40), 6);
	CHECK_EQ(utf8_prefix("plain", 3), 3);
}

