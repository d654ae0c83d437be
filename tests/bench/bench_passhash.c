/*
 * bench_passhash.c — what checking a private table's password costs a
 * thread of libuv's pool (server/passhash.h, passcheck.h): CPU time
 * (CLOCK_THREAD_CPUTIME_ID, steady under load) per passhash_verify at
 * the stored iteration count, and per passhash_new (creating a private
 * table). Bounded: about two seconds.
 */
#include <stdio.h>
#include <time.h>

#include "../../server/passhash.h"

#define ROUNDS 10

static double cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int main(void)
{
	char stored[PASSHASH_MAX + 1], out[PASSHASH_MAX + 1];
	int right = 0;
	if (passhash_new("a table password", stored) != 0) {
		fprintf(stderr, "bench_passhash: passhash_new failed\n");
		return 1;
	}
	double t0 = cpu_us();
	for (int i = 0; i < ROUNDS; i++)
		right += passhash_verify(i & 1 ? "a table password" : "a wrong guess!!!", stored);
	double check = (cpu_us() - t0) / ROUNDS;
	t0 = cpu_us();
	for (int i = 0; i < ROUNDS / 2; i++)
		passhash_new("a table password", out);
	double make = (cpu_us() - t0) / (ROUNDS / 2);
	if (right != ROUNDS / 2) {
		fprintf(stderr, "bench_passhash: %d right attempts of %d verified\n", right,
			ROUNDS / 2);
		return 1;
	}
	printf("passhash: PBKDF2-HMAC-SHA256 x %d: check %.1f ms CPU, new %.1f ms CPU\n",
	       PASSHASH_ITER, check / 1e3, make / 1e3);
	return 0;
}
