/*
 * passhash.h — private-table passwords as salted hashes: what laird keeps
 * (in memory and in the store) instead of the password, and the check of
 * an attempt against it. PBKDF2-HMAC-SHA256 (OpenSSL's libcrypto), a
 * random 96-bit salt per table, 128 bits of output, written as
 * "ITER$SALT$HASH" (decimal, lowercase hex, lowercase hex).
 *
 * Cost. The check runs on the event loop, so the iteration count is kept
 * low: PASSHASH_ITER = 256 costs about 50 µs of CPU per check on our 2-core
 * test machine (`make bench`: build-bench/bench/bench_passhash; about
 * the cost of handling a few requests; a wrong-password flood is bounded
 * by the per-connection message rate like any other request). Table
 * passwords live as long as their table and are typically short: what the
 * hash buys is that no database row, backup or memory dump shows them (a
 * player may reuse one elsewhere), and the per-table salt that no
 * precomputed table fits. The count is part of each stored hash, so a
 * later laird may raise it without touching old rows.
 */
#ifndef LAIR_PASSHASH_H
#define LAIR_PASSHASH_H

#include <stdbool.h>
#include <stddef.h>

#define PASSHASH_ITER 256
#define PASSHASH_SALT 12  /* bytes */
#define PASSHASH_OUT 16   /* bytes */
/* The longest hash text (a 6-digit count at most), without its NUL: it
 * fits table.h's TABLE_PASSWORD_MAX. */
#define PASSHASH_MAX (6 + 1 + 2 * PASSHASH_SALT + 1 + 2 * PASSHASH_OUT)

/* A new hash of password (fresh salt) into out[PASSHASH_MAX + 1]; 0, or -1
 * when the OS gave no randomness or libcrypto failed. */
int passhash_new(const char *password, char *out);

/* The hash of `attempt` with the count and salt of `stored` (a hash from
 * passhash_new) into out[PASSHASH_MAX + 1]: equal to stored exactly when
 * attempt is the password. -1 when stored is not such a hash. */
int passhash_with(const char *attempt, const char *stored, char *out);

/* True when s has the form of a hash from passhash_new. */
bool passhash_is(const char *s);

/* PBKDF2-HMAC-SHA256 (tests check it against published vectors). */
int passhash_pbkdf2(const char *password, const unsigned char *salt, size_t salt_len,
		    unsigned iter, unsigned char *out, size_t out_len);

#endif
