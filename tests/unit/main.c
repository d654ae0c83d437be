/*
 * main.c — runner for one unit-test binary: runs every registered test (or
 * those whose name contains argv[1]) and prints one line per test and the
 * closing "N passed, N failed" line that tests/run counts.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "../test.h"

#define MAX_TESTS 1024

static struct {
	const char *name;
	test_fn fn;
} tests[MAX_TESTS];
static int n_tests;
static int current_failed;

void test_register(const char *name, test_fn fn)
{
	if (n_tests == MAX_TESTS) {
		fprintf(stderr, "too many tests\n");
		abort();
	}
	tests[n_tests].name = name;
	tests[n_tests].fn = fn;
	n_tests++;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	current_failed = 1;
	fprintf(stdout, "  %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

int test_failed(void) { return current_failed; }

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	/* Constructors run in an unspecified order; sort by name for stable output. */
	for (int i = 1; i < n_tests; i++)
		for (int j = i; j > 0 && strcmp(tests[j - 1].name, tests[j].name) > 0; j--) {
			const char *n = tests[j].name;
			test_fn f = tests[j].fn;
			tests[j] = tests[j - 1];
			tests[j - 1].name = n;
			tests[j - 1].fn = f;
		}
	for (int i = 0; i < n_tests; i++) {
		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		current_failed = 0;
		tests[i].fn();
		printf("%s %s\n", current_failed ? "FAIL" : "ok", tests[i].name);
		fflush(stdout);
		if (current_failed)
			failed++;
		else
			passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
