/*
 * test.h — the project's small unit-test framework.
 *
 * Each tests/unit/test_*.c file becomes its own binary linked with
 * tests/unit/main.c. TEST(name) registers a test at load time; CHECK*
 * record a failure and go on, REQUIRE* record it and end the test.
 * Run a binary with a substring to run only the matching tests.
 * Output: "ok NAME" / "FAIL NAME" per test, then "N passed, N failed".
 */
#ifndef LAIR_TEST_H
#define LAIR_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Non-zero once the running test has failed. */
int test_failed(void);

#define TEST(name)                                                                        \
	static void test_##name(void);                                                    \
	__attribute__((constructor)) static void test_register_##name(void)               \
	{                                                                                 \
		test_register(#name, test_##name);                                        \
	}                                                                                 \
	static void test_##name(void)

#define CHECK(cond)                                                                       \
	do {                                                                              \
		if (!(cond))                                                              \
			test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                \
	} while (0)

#define CHECK_MSG(cond, ...)                                                              \
	do {                                                                              \
		if (!(cond))                                                              \
			test_fail(__FILE__, __LINE__, __VA_ARGS__);                       \
	} while (0)

#define CHECK_EQ(a, b)                                                                    \
	do {                                                                              \
		long long a_ = (long long)(a), b_ = (long long)(b);                       \
		if (a_ != b_)                                                             \
			test_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, a_, \
				  b_);                                                    \
	} while (0)

#define CHECK_STR(a, b)                                                                   \
	do {                                                                              \
		const char *a_ = (a), *b_ = (b);                                          \
		if (!a_ || !b_ || strcmp(a_, b_) != 0)                                    \
			test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b, \
				  a_ ? a_ : "(null)", b_ ? b_ : "(null)");                \
	} while (0)

#define REQUIRE(cond)                                                                     \
	do {                                                                              \
		if (!(cond)) {                                                            \
			test_fail(__FILE__, __LINE__, "REQUIRE(%s)", #cond);              \
			return;                                                           \
		}                                                                         \
	} while (0)

#endif
