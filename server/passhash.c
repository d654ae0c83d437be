/*
 * passhash.c — see passhash.h.
 */
#include "passhash.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
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

int passhash_pbkdf2(const char *password, const unsigned char *salt, size_t salt_len,
		    unsigned iter, unsigned char *out, size_t out_len)
{
	if (!password || iter < 1 || iter > PASSHASH_ITER_MAX)
		return -1;
	return PKCS5_PBKDF2_HMAC(password, (int)strlen(password), salt, (int)salt_len, (int)iter,
				 EVP_sha256(), (int)out_len, out) == 1 ? 0 : -1;
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
