/*
 * sha256.h — SHA-256 (FIPS 180-4), small and dependency-free. lair uses it
 * to hash players' secret tokens before they reach the store.
 *
 * Streaming use: sha256_init, sha256_update (any number of times),
 * sha256_final. The context is the caller's (a plain struct, no heap).
 */
#ifndef LAIR_SHA256_H
#define LAIR_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LEN 32

typedef struct sha256_ctx {
	uint32_t h[8];
	uint64_t total;     /* bytes hashed so far */
	uint8_t block[64];  /* pending partial block */
	size_t used;        /* bytes in block */
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t len);
void sha256_final(sha256_ctx *c, uint8_t out[SHA256_DIGEST_LEN]);

/* One call: out = SHA-256(data). */
void sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_LEN]);
/* One call: hex[65] = lowercase hex of SHA-256(data), NUL-terminated. */
void sha256_hex(const void *data, size_t len, char *hex);

#endif
