/*
 * rng.c — PCG32 with streams, unbiased bounded draws, and the OS seed source.
 * See rng.h for why the algorithm is fixed; the draws themselves are inline there.
 */
#include "rng.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

int32_t rng_range(rng *r, int32_t lo, int32_t hi)
{
	uint32_t span = (uint32_t)((int64_t)hi - lo) + 1u;
	if (span == 0) /* the full 32-bit range */
		return (int32_t)rng_u32(r);
	return (int32_t)((int64_t)lo + rng_below(r, span));
}

/* Swaps two elements through a small buffer, a piece at a time, so that an
 * element of any size can be shuffled. */
static void swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
	unsigned char tmp[64];
	while (size > 0) {
		size_t k = size < sizeof tmp ? size : sizeof tmp;
		memcpy(tmp, a, k);
		memcpy(a, b, k);
		memcpy(b, tmp, k);
		a += k;
		b += k;
		size -= k;
	}
}

void rng_shuffle(rng *r, void *base, uint32_t n, uint32_t size)
{
	unsigned char *b = base;
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = rng_below(r, i);
		if (j != i - 1)
			swap_bytes(b + (size_t)j * size, b + (size_t)(i - 1) * size, size);
	}
}

uint64_t rng_derive_seed(uint64_t run_seed, uint64_t index)
{
	/* mix(run_seed) is a bijection of the run seed; xor-ing the index keeps
	 * the items of one run distinct, and two runs collide only if their
	 * mixed keys differ by a small xor, which happens with probability of
	 * about games / 2^64. The final mix spreads the index over every bit. */
	uint64_t key = run_seed;
	key = rng_splitmix64(&key) ^ index;
	return rng_splitmix64(&key);
}

int rng_os_seed(uint64_t *out)
{
	unsigned char *p = (unsigned char *)out;
	size_t got = 0;
	while (got < sizeof *out) {
		ssize_t n = getrandom(p + got, sizeof *out - got, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}
