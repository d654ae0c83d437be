/*
 * passhash.c — see passhash.h.
 *
 * PBKDF2 is written here on SHA-256's own functions rather than called as
 * PKCS5_PBKDF2_HMAC: OpenSSL 3.0's copies an HMAC context for every one of
 * the 600,000 iterations, and each copy allocates. With the key's two
 * padded blocks hashed once, an iteration is two SHA-256 compressions of
 * one block and no allocation: 70 ms of CPU a hash instead of 180 (`make
 * bench`: bench_passhash; load average 15), and under AddressSanitizer,
 * which checks every allocation, 130 ms instead of 810. SHA256_Init
 * and the rest are deprecated in OpenSSL 3 in favour of EVP, whose digest
 * contexts 3.0 cannot copy without allocating; OPENSSL_API_COMPAT keeps
 * them without a warning. test_passhash checks the result against the
 * published vectors and against PKCS5_PBKDF2_HMAC.
 */
#define OPENSSL_API_COMPAT 0x10101000L
#include "passhash.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

static const char hexd[] = "0123456789abcdef";

static void to_hex(const unsigned char *v, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hexd[v[i] >> 4];
		out[2 * i + 1] = hexd[v[i] & 15];
	}
	out[2 * n] = '\0';
}

/* Exactly 2n lowercase hex digits into v[n]. */
static bool from_hex(const char *s, size_t n, unsigned char *v)
{
	for (size_t i = 0; i < 2 * n; i++) {
		const char *p = s[i] ? strchr(hexd, s[i]) : NULL;
		if (!p)
			return false;
		v[i / 2] = (unsigned char)(i % 2 ? (v[i / 2] << 4) | (p - hexd) : (p - hexd));
	}
	return true;
}

/* HMAC-SHA256's key, hashed once: the states after its inner and outer
 * padded blocks (RFC 2104), which every HMAC under that key starts from. */
struct hmac_key {
	SHA256_CTX inner, outer;
};

static void hmac_key_set(struct hmac_key *hk, const char *key, size_t len)
{
	unsigned char k[SHA256_CBLOCK] = { 0 }, pad[SHA256_CBLOCK];
	if (len > sizeof k)
		SHA256((const unsigned char *)key, len, k);
	else
		memcpy(k, key, len);
	for (size_t i = 0; i < sizeof k; i++)
		pad[i] = k[i] ^ 0x36;
	SHA256_Init(&hk->inner);
	SHA256_Update(&hk->inner, pad, sizeof pad);
	for (size_t i = 0; i < sizeof k; i++)
		pad[i] = k[i] ^ 0x5c;
	SHA256_Init(&hk->outer);
	SHA256_Update(&hk->outer, pad, sizeof pad);
	OPENSSL_cleanse(k, sizeof k);
	OPENSSL_cleanse(pad, sizeof pad);
}

/* mac = HMAC(key, a || b): the inner hash, then the outer over it. */
static void hmac(const struct hmac_key *hk, const unsigned char *a, size_t alen,
		 const unsigned char *b, size_t blen, unsigned char mac[SHA256_DIGEST_LENGTH])
{
	SHA256_CTX c = hk->inner;
	SHA256_Update(&c, a, alen);
	if (blen)
		SHA256_Update(&c, b, blen);
	SHA256_Final(mac, &c);
	c = hk->outer;
	SHA256_Update(&c, mac, SHA256_DIGEST_LENGTH);
	SHA256_Final(mac, &c);
}

int passhash_pbkdf2(const char *password, const unsigned char *salt, size_t salt_len,
		    unsigned iter, unsigned char *out, size_t out_len)
{
	if (!password || iter < 1 || iter > PASSHASH_ITER_MAX)
		return -1;
	struct hmac_key hk;
	unsigned char u[SHA256_DIGEST_LENGTH], t[SHA256_DIGEST_LENGTH];
	hmac_key_set(&hk, password, strlen(password));
	/* RFC 8018 5.2: block i is U1 ^ ... ^ Uc, U1 = HMAC(P, S || INT(i)),
	 * Uj = HMAC(P, Uj-1). */
	for (uint32_t i = 1; out_len > 0; i++) {
		const unsigned char be[4] = { (unsigned char)(i >> 24), (unsigned char)(i >> 16),
					      (unsigned char)(i >> 8), (unsigned char)i };
		hmac(&hk, salt, salt_len, be, sizeof be, u);
		memcpy(t, u, sizeof t);
		for (unsigned j = 1; j < iter; j++) {
			hmac(&hk, u, sizeof u, NULL, 0, u);
			for (size_t k = 0; k < sizeof t; k++)
				t[k] ^= u[k];
		}
		size_t n = out_len < sizeof t ? out_len : sizeof t;
		memcpy(out, t, n);
		out += n;
		out_len -= n;
	}
	OPENSSL_cleanse(&hk, sizeof hk);
	OPENSSL_cleanse(u, sizeof u);
	OPENSSL_cleanse(t, sizeof t);
	return 0;
}

/* The count, salt and hash of a stored value; false when it is not one. */
static bool parse(const char *s, unsigned *iter, unsigned char *salt, unsigned char *dk)
{
	char *end;
	if (!s)
		return false;
	if (strncmp(s, PASSHASH_ALGO "$", sizeof PASSHASH_ALGO) == 0)
		s += sizeof PASSHASH_ALGO;
	if (*s < '1' || *s > '9')
		return false;
	unsigned long it = strtoul(s, &end, 10);
	if (*end != '$' || it > PASSHASH_ITER_MAX)
		return false;
	const char *sp = end + 1;
	if (strlen(sp) != 2 * PASSHASH_SALT + 1 + 2 * PASSHASH_OUT || sp[2 * PASSHASH_SALT] != '$')
		return false;
	if (!from_hex(sp, PASSHASH_SALT, salt) ||
	    !from_hex(sp + 2 * PASSHASH_SALT + 1, PASSHASH_OUT, dk))
		return false;
	*iter = (unsigned)it;
	return true;
}

bool passhash_is(const char *s)
{
	unsigned iter;
	unsigned char salt[PASSHASH_SALT], dk[PASSHASH_OUT];
	return parse(s, &iter, salt, dk);
}

int passhash_new(const char *password, char *out)
{
	unsigned char salt[PASSHASH_SALT], dk[PASSHASH_OUT];
	size_t got = 0;
	while (got < sizeof salt) {
		ssize_t n = getrandom(salt + got, sizeof salt - got, 0);
		if (n < 0)
			return -1;
		got += (size_t)n;
	}
	if (passhash_pbkdf2(password, salt, PASSHASH_SALT, PASSHASH_ITER, dk, sizeof dk) != 0)
		return -1;
	char s[2 * PASSHASH_SALT + 1], h[2 * PASSHASH_OUT + 1];
	to_hex(salt, PASSHASH_SALT, s);
	to_hex(dk, sizeof dk, h);
	snprintf(out, PASSHASH_MAX + 1, "%s$%u$%s$%s", PASSHASH_ALGO, (unsigned)PASSHASH_ITER, s,
		 h);
	OPENSSL_cleanse(dk, sizeof dk);
	return 0;
}

bool passhash_verify(const char *attempt, const char *stored)
{
	unsigned iter;
	unsigned char salt[PASSHASH_SALT], want[PASSHASH_OUT], got[PASSHASH_OUT];
	if (!attempt || !parse(stored, &iter, salt, want))
		return false;
	if (passhash_pbkdf2(attempt, salt, PASSHASH_SALT, iter, got, sizeof got) != 0)
		return false;
	bool ok = CRYPTO_memcmp(got, want, sizeof got) == 0;
	OPENSSL_cleanse(got, sizeof got);
	return ok;
}
