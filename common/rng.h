/*
 * rng.h — the project's one random number generator.
 *
 * PCG32 (O'Neill, pcg-random.org: XSH-RR output on a 64-bit LCG) with a
 * stream selector. The algorithm is fixed and uses only integer arithmetic,
 * so the same (seed, stream) gives the same numbers on every machine and
 * compiler: game records, replays and crash recovery depend on that.
 * Each table (or simulated game) draws from its own streams: the rules of a
 * game from one, its AI seats from another, so that AI decisions never shift
 * the dungeon a table will meet.
 *
 * A rng is a plain value: copy it to fork it, no allocation, no globals.
 */
#ifndef LAIR_RNG_H
#define LAIR_RNG_H

#include <stdint.h>

typedef struct rng {
	uint64_t state;
	uint64_t inc; /* always odd: the stream */
} rng;

#define RNG_PCG_MULT 6364136223846793005ULL

/* The draws below are inline: the game engines call them a few hundred
 * times a game, and a call costs as much as the draw. */

/* Next 32 uniformly distributed bits. */
static inline uint32_t rng_u32(rng *r)
{
	uint64_t old = r->state;
	r->state = old * RNG_PCG_MULT + r->inc;
	uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
	uint32_t rot = (uint32_t)(old >> 59u);
	return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/* Seed a generator; distinct streams from the same seed are independent. */
static inline void rng_seed(rng *r, uint64_t seed, uint64_t stream)
{
	r->state = 0;
	r->inc = (stream << 1u) | 1u;
	rng_u32(r);
	r->state += seed;
	rng_u32(r);
}

/* Next 64 bits (two outputs). */
static inline uint64_t rng_u64(rng *r)
{
	uint64_t hi = rng_u32(r);
	return (hi << 32) | rng_u32(r);
}

/* Uniform integer in [0, bound) without modulo bias; bound must be > 0.
 * Lemire's multiply-shift with rejection of the biased low zone. */
static inline uint32_t rng_below(rng *r, uint32_t bound)
{
	uint64_t m = (uint64_t)rng_u32(r) * bound;
	uint32_t low = (uint32_t)m;
	if (low < bound) {
		uint32_t threshold = (uint32_t)(-bound) % bound;
		while (low < threshold) {
			m = (uint64_t)rng_u32(r) * bound;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

/* Uniform integer in [lo, hi], lo <= hi. */
int32_t rng_range(rng *r, int32_t lo, int32_t hi);

/* Uniform double in [0, 1) with 53 bits of precision. */
static inline double rng_unit(rng *r)
{
	return (double)(rng_u64(r) >> 11) * 0x1.0p-53;
}

/* Fisher–Yates shuffle of n elements of the given size. */
void rng_shuffle(rng *r, void *base, uint32_t n, uint32_t size);

/* SplitMix64 step: advances the counter *x by a fixed odd constant and
 * returns a well-mixed 64-bit value of it. */
static inline uint64_t rng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The seed of item `index` (a simulated game) of a run seeded with
 * `run_seed`. The run seed is mixed on its own before the index joins it, so
 * consecutive run seeds give unrelated sequences: runs with --seed 1 and
 * --seed 2 share no game (seed + i would share all but one). */
uint64_t rng_derive_seed(uint64_t run_seed, uint64_t index);

/* 64 bits from the operating system's random source (getrandom); never the
 * clock. Returns 0 on success, -1 if the source failed. */
int rng_os_seed(uint64_t *out);

#endif
