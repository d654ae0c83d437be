/*
 * main.c — runner for one unit-test binary: runs every registered test (or
 * those whose name contains argv[1]) and prints one line per test and the
 * closing "N passed, N failed" line that tests/run counts. A test that
 * takes a second or more says how long ("ok NAME (2.4 s)").
 *
 * Each test runs under a timeout (LAIR_TEST_TIMEOUT seconds, default
 * 300): a test that hangs fails with its name ("FAIL NAME (timed out after
 * 300 s)") and the binary ends there, with its closing line.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "../test.h"

#define MAX_TESTS 1024
#define TIMEOUT_DEFAULT_S 300

static struct {
	const char *name;
	test_fn fn;
} tests[MAX_TESTS];
static int n_tests;
static int current_failed;

/* For the timeout's report, from a signal handler. */
static volatile sig_atomic_t running = -1;
static int passed, failed;
static unsigned timeout_s = TIMEOUT_DEFAULT_S;

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

/* Async-signal-safe output for the timeout. */
static void put(const char *s)
{
	size_t n = strlen(s);
	while (n > 0) {
		ssize_t w = write(STDOUT_FILENO, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void put_uint(unsigned long v)
{
	char b[24], *p = b + sizeof b;
	*--p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	put(p);
}

static void on_timeout(int sig)
{
	(void)sig;
	put("FAIL ");
	put(running >= 0 ? tests[running].name : "?");
	put(" (timed out after ");
	put_uint(timeout_s);
	put(" s)\n");
	put_uint((unsigned long)passed);
	put(" passed, ");
	put_uint((unsigned long)failed + 1);
	put(" failed\n");
	_exit(1);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *env = getenv("LAIR_TEST_TIMEOUT");
	if (env && atoi(env) > 0)
		timeout_s = (unsigned)atoi(env);
	signal(SIGALRM, on_timeout);
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
		running = i;
		double t0 = now_s();
		alarm(timeout_s);
		tests[i].fn();
		alarm(0);
		double took = now_s() - t0;
		printf("%s %s", current_failed ? "FAIL" : "ok", tests[i].name);
		if (took >= 1)
			printf(" (%.1f s)", took);
		printf("\n");
		fflush(stdout);
		if (current_failed)
			failed++;
		else
			passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
