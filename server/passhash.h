/*
 * passhash.h — private-table passwords as salted hashes: what laird keeps
 * (in memory and in the store) instead of the password, and the check of
 * an attempt against it. Pure functions, no state: they may run on any
 * thread (laird runs them on libuv's thread pool, passcheck.h).
 *
 * The stored form names its algorithm and cost, so that either can change
 * and every older hash still verifies:
 *
 *   pbkdf2-sha256$ITER$SALT$HASH   (decimal count, lowercase hex salt of
 *                                   12 bytes and hash of 16 bytes)
 *   ITER$SALT$HASH                 (the first laird's form: the same
 *                                   algorithm, verified, never written)
 *
 * Algorithm and cost. PBKDF2-HMAC-SHA256 at OWASP's count for it (Password
 * Storage Cheat Sheet: 600,000 iterations), on OpenSSL's SHA-256 (libcrypto,
 * which laird links already). About 70 ms of CPU per hash on our 2-core
 * test machine (`make bench`: build-bench/bench/bench_passhash). A
 * memory-hard KDF (Argon2id, Debian's libargon2-1) resists GPU guessing
 * better, but Debian ships a 2017 snapshot of it, it would be a new
 * dependency, and OWASP's Argon2id setting takes 19 MiB per hash in
 * flight; the passwords it would guard live only as long as their table.
 * PBKDF2 at the recommended count is the documented alternative, and the
 * format lets a later laird move (a new prefix) without touching old rows.
 */
#ifndef LAIR_PASSHASH_H
#define LAIR_PASSHASH_H

#include <stdbool.h>
#include <stddef.h>

#define PASSHASH_ALGO "pbkdf2-sha256"
#define PASSHASH_ITER 600000
#define PASSHASH_ITER_MAX 9999999 /* the most a stored hash may ask for */
#define PASSHASH_SALT 12  /* bytes */
#define PASSHASH_OUT 16   /* bytes */
/* The longest hash text (a 7-digit count at most), without its NUL: it
 * fits table.h's TABLE_PASSWORD_MAX. */
#define PASSHASH_MAX (sizeof PASSHASH_ALGO + 7 + 1 + 2 * PASSHASH_SALT + 1 + 2 * PASSHASH_OUT)

/* A new hash of password (fresh salt, PASSHASH_ITER) into
 * out[PASSHASH_MAX + 1]; 0, or -1 when the OS gave no randomness or
 * libcrypto failed. */
int passhash_new(const char *password, char *out);

/* True when attempt is the password whose hash is stored (either form
 * above, at its own count), compared in constant time; false for a wrong
 * attempt, a NULL one, or a stored value that is no such hash. */
bool passhash_verify(const char *attempt, const char *stored);

/* True when s has either form above. */
bool passhash_is(const char *s);

/* PBKDF2-HMAC-SHA256 (tests check it against published vectors). */
int passhash_pbkdf2(const char *password, const unsigned char *salt, size_t salt_len,
		    unsigned iter, unsigned char *out, size_t out_len);

#endif
