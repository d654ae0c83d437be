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

/* Seed a generator; distinct streams from the same seed are independent. */
void rng_seed(rng *r, uint64_t seed, uint64_t stream);

/* Next 32 uniformly distributed bits. */
uint32_t rng_u32(rng *r);

/* Next 64 bits (two outputs). */
uint64_t rng_u64(rng *r);

/* Uniform integer in [0, bound) without modulo bias; bound must be > 0. */
uint32_t rng_below(rng *r, uint32_t bound);

/* Uniform integer in [lo, hi], lo <= hi. */
int32_t rng_range(rng *r, int32_t lo, int32_t hi);

/* Uniform double in [0, 1) with 53 bits of precision. */
double rng_unit(rng *r);

/* Fisher–Yates shuffle of n elements of the given size. */
void rng_shuffle(rng *r, void *base, uint32_t n, uint32_t size);

/* SplitMix64 step: advances the counter *x by a fixed odd constant and
 * returns a well-mixed 64-bit value of it. */
uint64_t rng_splitmix64(uint64_t *x);

/* The seed of item `index` (a simulated game) of a run seeded with
 * `run_seed`. The run seed is mixed on its own before the index joins it, so
 * consecutive run seeds give unrelated sequences: runs with --seed 1 and
 * --seed 2 share no game (seed + i would share all but one). */
uint64_t rng_derive_seed(uint64_t run_seed, uint64_t index);

/* 64 bits from the operating system's random source (getrandom); never the
 * clock. Returns 0 on success, -1 if the source failed. */
int rng_os_seed(uint64_t *out);

#endif
