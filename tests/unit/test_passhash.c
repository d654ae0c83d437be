/*
 * test_passhash.c — private-table password hashes: PBKDF2-HMAC-SHA256
 * against the published vectors (RFC 7914 §11), the stored form, a fresh
 * salt per hash, the check of right and wrong attempts, and stored values
 * that are not hashes.
 */
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

TEST(passhash_new_is_salted_and_checks_attempts)
{
	char a[PASSHASH_MAX + 1], b[PASSHASH_MAX + 1], t[PASSHASH_MAX + 1];
	REQUIRE(passhash_new("hunter2", a) == 0);
	REQUIRE(passhash_new("hunter2", b) == 0);
	CHECK(strcmp(a, b) != 0); /* a fresh salt each time */
	CHECK(passhash_is(a) && passhash_is(b));
	CHECK(strncmp(a, "256$", 4) == 0);
	CHECK_EQ(strlen(a), PASSHASH_MAX - 3);
	CHECK(PASSHASH_MAX < TABLE_PASSWORD_MAX); /* the table holds it */
	CHECK(!strstr(a, "hunter2"));
	REQUIRE(passhash_with("hunter2", a, t) == 0);
	CHECK_STR(t, a);
	REQUIRE(passhash_with("hunter2", b, t) == 0);
	CHECK_STR(t, b);
	REQUIRE(passhash_with("hunter3", a, t) == 0);
	CHECK(strcmp(t, a) != 0);
	REQUIRE(passhash_with("", a, t) == 0);
	CHECK(strcmp(t, a) != 0);
	/* 64 bytes, the longest a request may carry */
	char longpw[65];
	memset(longpw, 'z', 64);
	longpw[64] = 0;
	REQUIRE(passhash_new(longpw, a) == 0);
	REQUIRE(passhash_with(longpw, a, t) == 0);
	CHECK_STR(t, a);
}

TEST(passhash_refuses_what_is_not_a_hash)
{
	char a[PASSHASH_MAX + 1], t[PASSHASH_MAX + 1];
	REQUIRE(passhash_new("pw", a) == 0);
	static const char *const bad[] = {
		"", "hunter2", "256", "256$", "0$000000000000000000000000$00000000000000000000000000000000",
		"1000000$000000000000000000000000$00000000000000000000000000000000",
		"256$00000000000000000000000$000000000000000000000000000000000",
		"256$00000000000000000000000G$00000000000000000000000000000000",
		"256$000000000000000000000000$0000000000000000000000000000000A",
		"256$000000000000000000000000$00000000000000000000000000000000$",
		"-1$000000000000000000000000$00000000000000000000000000000000",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK_MSG(!passhash_is(bad[i]), "%s", bad[i]);
		CHECK_MSG(passhash_with("pw", bad[i], t) == -1, "%s", bad[i]);
	}
	CHECK(!passhash_is(NULL));
	/* one character changed is another hash, never the same */
	a[strlen(a) - 1] = a[strlen(a) - 1] == '0' ? '1' : '0';
	REQUIRE(passhash_with("pw", a, t) == 0);
	CHECK(strcmp(t, a) != 0);
}
