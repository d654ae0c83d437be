/*
 * test_passhash.c — private-table password hashes: PBKDF2-HMAC-SHA256
 * against the published vectors (RFC 7914 §11), the stored form (its
 * algorithm and count, at OWASP's count for new hashes), a fresh salt per
 * hash, right and wrong attempts, older forms and counts that still
 * verify, and stored values that are not hashes.
 */
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../server/passhash.h"
#include "../../server/table.h"
#include "../test.h"

static void hex(const unsigned char *v, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", v[i]);
}

TEST(passhash_pbkdf2_matches_the_published_vectors)
{
	unsigned char dk[64];
	char h[129];
	REQUIRE(passhash_pbkdf2("passwd", (const unsigned char *)"salt", 4, 1, dk, 64) == 0);
	hex(dk, 64, h);
	CHECK_STR(h, "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
		     "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783");
	REQUIRE(passhash_pbkdf2("Password", (const unsigned char *)"NaCl", 4, 80000, dk, 64) ==
		0);
	hex(dk, 64, h);
	CHECK_STR(h, "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
		     "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d");
	CHECK(passhash_pbkdf2("x", (const unsigned char *)"s", 1, 0, dk, 16) == -1);
}

/* Our PBKDF2 (the key's pads hashed once, passhash.c) against OpenSSL's
 * PKCS5_PBKDF2_HMAC: passwords of every length around SHA-256's 64-byte
 * block (a longer key is hashed first), the empty one, salts of 0 to 40
 * bytes, outputs of 1 to 100 bytes (one block and several), counts 1 to
 * 300, from a seeded generator. */
TEST(passhash_pbkdf2_equals_openssls)
{
	uint64_t x = 0x9e3779b97f4a7c15u;
	char pw[131];
	unsigned char salt[40], ours[100], theirs[100];
	for (int n = 0; n < 400; n++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		size_t pwlen = n % 131, saltlen = (size_t)(x >> 33) % 41;
		size_t outlen = 1 + (size_t)(x >> 40) % 100;
		unsigned iter = 1 + (unsigned)(x >> 20) % 300;
		for (size_t i = 0; i < pwlen; i++)
			pw[i] = (char)(' ' + (x >> (i % 50)) % 95);
		pw[pwlen] = '\0';
		for (size_t i = 0; i < saltlen; i++)
			salt[i] = (unsigned char)(x >> (i % 56));
		REQUIRE(passhash_pbkdf2(pw, salt, saltlen, iter, ours, outlen) == 0);
		REQUIRE(PKCS5_PBKDF2_HMAC(pw, (int)pwlen, salt, (int)saltlen, (int)iter, EVP_sha256(),
					  (int)outlen, theirs) == 1);
		if (memcmp(ours, theirs, outlen) != 0) {
			CHECK(!"our PBKDF2 differs from OpenSSL's");
			printf("  password length %zu, salt length %zu, count %u, output %zu\n", pwlen,
			       saltlen, iter, outlen);
			return;
		}
	}
}

/* At the real count (about 70 ms a hash, twice that under ASan):
 * as few hashes as show it; the other attempts below use a small count. */
TEST(passhash_new_names_its_algorithm_and_cost_is_salted_and_verifies)
{
	char a[PASSHASH_MAX + 1], b[PASSHASH_MAX + 1];
	REQUIRE(passhash_new("hunter2", a) == 0);
	REQUIRE(passhash_new("hunter2", b) == 0);
	CHECK(strcmp(a, b) != 0); /* a fresh salt each time */
	CHECK(passhash_is(a) && passhash_is(b));
	/* OWASP's count for PBKDF2-HMAC-SHA256 */
	CHECK(strncmp(a, "pbkdf2-sha256$600000$", 21) == 0);
	CHECK_EQ(strlen(a), PASSHASH_MAX - 1); /* a 6-digit count: one short of the most */
	CHECK(PASSHASH_MAX < TABLE_PASSWORD_MAX); /* the table holds it */
	CHECK(!strstr(a, "hunter2"));
	CHECK(passhash_verify("hunter2", a));
	CHECK(!passhash_verify("hunter3", a));
}

/* A stored hash of password at iter in the given form (the first laird's,
 * without the algorithm, when algo is NULL). */
static void stored_at(const char *algo, unsigned iter, const char *password, char *out)
{
	static const unsigned char salt[PASSHASH_SALT] = "0123456789a";
	unsigned char dk[PASSHASH_OUT];
	char s[2 * PASSHASH_SALT + 1], h[2 * PASSHASH_OUT + 1];
	REQUIRE(passhash_pbkdf2(password, salt, PASSHASH_SALT, iter, dk, sizeof dk) == 0);
	hex(salt, PASSHASH_SALT, s);
	hex(dk, sizeof dk, h);
	snprintf(out, PASSHASH_MAX + 1, "%s%s%u$%s$%s", algo ? algo : "", algo ? "$" : "", iter, s,
		 h);
}

TEST(passhash_verify_takes_the_password_and_nothing_else)
{
	char v[PASSHASH_MAX + 1];
	stored_at("pbkdf2-sha256", 1000, "hunter2", v);
	CHECK(passhash_verify("hunter2", v));
	CHECK(!passhash_verify("hunter3", v));
	CHECK(!passhash_verify("hunter", v));
	CHECK(!passhash_verify("", v));
	CHECK(!passhash_verify(NULL, v));
	CHECK(!passhash_verify(v, v)); /* the hash is no password */
	/* 64 bytes, the longest a request may carry */
	char longpw[65];
	memset(longpw, 'z', 64);
	longpw[64] = 0;
	stored_at("pbkdf2-sha256", 1000, longpw, v);
	CHECK(passhash_verify(longpw, v));
	longpw[63] = 'y';
	CHECK(!passhash_verify(longpw, v));
}

TEST(passhash_older_forms_and_counts_still_verify)
{
	char v[PASSHASH_MAX + 1];
	stored_at(NULL, 256, "pw", v); /* the first laird's rows: "256$salt$hash" */
	CHECK(passhash_is(v));
	CHECK(passhash_verify("pw", v));
	CHECK(!passhash_verify("pW", v));
	stored_at("pbkdf2-sha256", 1000, "pw", v); /* another count than today's */
	CHECK(passhash_is(v));
	CHECK(passhash_verify("pw", v));
	CHECK(!passhash_verify("pw ", v));
}

TEST(passhash_refuses_what_is_not_a_hash)
{
	char a[PASSHASH_MAX + 1];
	static const char *const bad[] = {
		"", "hunter2", "256", "256$", "0$000000000000000000000000$00000000000000000000000000000000",
		"10000000$000000000000000000000000$00000000000000000000000000000000",
		"256$00000000000000000000000$000000000000000000000000000000000",
		"256$00000000000000000000000G$00000000000000000000000000000000",
		"256$000000000000000000000000$0000000000000000000000000000000A",
		"256$000000000000000000000000$00000000000000000000000000000000$",
		"-1$000000000000000000000000$00000000000000000000000000000000",
		"pbkdf2-sha256$0$000000000000000000000000$00000000000000000000000000000000",
		"pbkdf2-sha1$256$000000000000000000000000$00000000000000000000000000000000",
		"pbkdf2-sha256$$000000000000000000000000$00000000000000000000000000000000",
		"pbkdf2-sha256256$000000000000000000000000$00000000000000000000000000000000",
		"argon2id$256$000000000000000000000000$00000000000000000000000000000000",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK_MSG(!passhash_is(bad[i]), "%s", bad[i]);
		CHECK_MSG(!passhash_verify("pw", bad[i]), "%s", bad[i]);
	}
	CHECK(!passhash_is(NULL));
	CHECK(!passhash_verify("pw", NULL));
	/* one character of the hash changed: the right password fails */
	stored_at("pbkdf2-sha256", 1000, "pw", a);
	a[strlen(a) - 1] = a[strlen(a) - 1] == '0' ? '1' : '0';
	CHECK(passhash_is(a));
	CHECK(!passhash_verify("pw", a));
}
