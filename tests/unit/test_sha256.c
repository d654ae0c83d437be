/*
 * test_sha256.c — SHA-256 against the FIPS 180-2/180-4 example vectors
 * (and NIST's million-'a' message), lengths around the padding boundaries,
 * and streaming in uneven pieces.
 */
#include <stdlib.h>

#include "../../common/sha256.h"
#include "../../common/util.h"
#include "../test.h"

static void hex_of(const char *s, size_t len, char *hex) { sha256_hex(s, len, hex); }

TEST(sha256_fips_examples)
{
	char hex[65];
	hex_of("", 0, hex);
	CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *m2 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	hex_of(m2, strlen(m2), hex);
	CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	const char *m3 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
			 "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	hex_of(m3, strlen(m3), hex);
	CHECK_STR(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(sha256_million_a)
{
	size_t n = 1000000;
	char *a = malloc(n);
	REQUIRE(a);
	memset(a, 'a', n);
	char hex[65];
	hex_of(a, n, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

/* Message i*7+3 mod 256 of each length; digests from an independent
 * implementation (Python's hashlib). 55/56 and 119/120 straddle the point
 * where the length no longer fits the last block. */
TEST(sha256_padding_boundaries)
{
	static const struct {
		size_t len;
		const char *hex;
	} v[] = {
		{55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"},
		{56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"},
		{63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"},
		{64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"},
		{65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"},
		{119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"},
		{120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"},
		{127, "a8d23e75d936f303d248888d9b165ee543f4cbafcad3c9dd2a79bd84faa11d07"},
		{128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"},
	};
	char msg[128], hex[65];
	for (size_t i = 0; i < sizeof msg; i++)
		msg[i] = (char)((i * 7 + 3) & 255);
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		hex_of(msg, v[i].len, hex);
		CHECK_MSG(strcmp(hex, v[i].hex) == 0, "len %zu: %s", v[i].len, hex);
	}
}

TEST(sha256_streaming_equals_one_shot)
{
	char msg[300];
	for (size_t i = 0; i < sizeof msg; i++)
		msg[i] = (char)(i * 31 + 1);
	uint8_t whole[SHA256_DIGEST_LEN], parts[SHA256_DIGEST_LEN];
	sha256(msg, sizeof msg, whole);
	/* Pieces of 1, 2, 3, ... bytes cross every block offset. */
	for (size_t step = 1; step < 70; step += 7) {
		sha256_ctx c;
		sha256_init(&c);
		for (size_t off = 0; off < sizeof msg;) {
			size_t n = MIN(step, sizeof msg - off);
			sha256_update(&c, msg + off, n);
			off += n;
		}
		sha256_final(&c, parts);
		CHECK_MSG(memcmp(whole, parts, sizeof whole) == 0, "step %zu", step);
	}
}
