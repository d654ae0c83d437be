/*
 * test_loadgen.c — the load generator's WebSocket framing and JSON field
 * reader, from RFC 6455's own examples and from hostile input: what a
 * server may send split anywhere, and what no server may send (masked
 * frames, reserved bits, long or fragmented control frames). Its behaviour
 * against a real laird is `loadgen --check` (tests/e2e/loadgen.test.js).
 */
#include <stdlib.h>
#include <string.h>

#include "../../tests/bench/loadgen/jscan.h"
#include "../../tests/bench/loadgen/ws.h"
#include "../test.h"

TEST(loadgen_ws_accept_value_of_the_rfc_example)
{
	char out[29];
	lg_ws_accept_of("dGhlIHNhbXBsZSBub25jZQ==", out); /* RFC 6455 §1.3 */
	CHECK_STR(out, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

TEST(loadgen_ws_masked_frame_of_the_rfc_example)
{
	/* RFC 6455 §5.7: a masked "Hello" with key 37 fa 21 3d. */
	static const uint8_t want[] = {0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f,
				       0x9f, 0x4d, 0x51, 0x58};
	uint8_t out[32];
	size_t n = lg_ws_frame(out, 1, true, 0x37fa213d, "Hello", 5);
	CHECK_EQ(n, sizeof want);
	CHECK(memcmp(out, want, sizeof want) == 0);
}

TEST(loadgen_ws_frame_lengths_7_16_and_64_bit)
{
	size_t sizes[] = {0, 125, 126, 65535, 65536, 100000};
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t len = sizes[k];
		uint8_t *payload = malloc(len + 1), *out = malloc(len + 14);
		for (size_t i = 0; i < len; i++)
			payload[i] = (uint8_t)(i * 7);
		size_t n = lg_ws_frame(out, 2, false, 0x01020304, payload, len);
		size_t hdr = len < 126 ? 6 : len < 65536 ? 8 : 14;
		CHECK_EQ(n, len + hdr);
		CHECK_EQ(out[0], 0x02);
		CHECK_EQ(out[1] & 0x7f, len < 126 ? len : len < 65536 ? 126 : 127);
		/* Unmasking gives the payload back. */
		const uint8_t *m = out + hdr - 4;
		int bad = 0;
		for (size_t i = 0; i < len; i++)
			bad += (out[hdr + i] ^ m[i & 3]) != payload[i];
		CHECK_EQ(bad, 0);
		free(payload);
		free(out);
	}
}

TEST(loadgen_ws_parses_server_frames_split_anywhere)
{
	/* RFC 6455 §5.7: "Hello" unmasked, in one frame and in two fragments;
	 * a ping; then a 300-byte frame (16-bit length). */
	uint8_t s[600];
	size_t n = 0;
	const uint8_t one[] = {0x81, 0x05, 'H', 'e', 'l', 'l', 'o'};
	const uint8_t frag[] = {0x01, 0x03, 'H', 'e', 'l', 0x80, 0x02, 'l', 'o'};
	const uint8_t ping[] = {0x89, 0x05, 'H', 'e', 'l', 'l', 'o'};
	memcpy(s + n, one, sizeof one), n += sizeof one;
	memcpy(s + n, frag, sizeof frag), n += sizeof frag;
	memcpy(s + n, ping, sizeof ping), n += sizeof ping;
	s[n++] = 0x81, s[n++] = 126, s[n++] = 300 >> 8, s[n++] = 300 & 0xff;
	memset(s + n, 'x', 300), n += 300;
	struct {
		int op;
		bool fin;
		size_t len;
	} want[] = {{1, true, 5}, {1, false, 3}, {0, true, 2}, {9, true, 5}, {1, true, 300}};
	size_t off = 0;
	for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
		lg_ws_frame_info f;
		/* Every prefix of the frame is incomplete, not an error. */
		long r = 0;
		size_t cut;
		for (cut = 0; cut <= n - off && (r = lg_ws_parse(s + off, cut, &f)) == 0; cut++)
			;
		REQUIRE(r > 0);
		CHECK_EQ(cut, (size_t)r);
		CHECK_EQ(f.op, want[k].op);
		CHECK_EQ(f.fin, want[k].fin);
		CHECK_EQ(f.len, want[k].len);
		off += (size_t)r;
	}
	CHECK_EQ(off, n);
}

TEST(loadgen_ws_refuses_what_no_server_may_send)
{
	lg_ws_frame_info f;
	const uint8_t masked[] = {0x81, 0x85, 1, 2, 3, 4, 'a', 'b', 'c', 'd', 'e'};
	const uint8_t rsv[] = {0xc1, 0x01, 'a'};
	const uint8_t long_ping[] = {0x89, 126, 0, 126};
	const uint8_t frag_close[] = {0x08, 0x00};
	const uint8_t bad_op[] = {0x83, 0x00};
	uint8_t huge[10] = {0x81, 127, 0x80, 0, 0, 0, 0, 0, 0, 0}; /* 2^63 bytes */
	CHECK_EQ(lg_ws_parse(masked, sizeof masked, &f), -1);
	CHECK_EQ(lg_ws_parse(rsv, sizeof rsv, &f), -1);
	CHECK_EQ(lg_ws_parse(long_ping, sizeof long_ping, &f), -1);
	CHECK_EQ(lg_ws_parse(frag_close, sizeof frag_close, &f), -1);
	CHECK_EQ(lg_ws_parse(bad_op, sizeof bad_op, &f), -1);
	CHECK_EQ(lg_ws_parse(huge, sizeof huge, &f), -1);
}

TEST(loadgen_jscan_reads_top_level_fields_only)
{
	const char *js = "{\"type\":\"reveal\",\"view\":{\"decision\":99,\"t\":\"}\\\"{[\"},"
			 "\"decision\":7,\"events\":[{\"type\":\"x\"},[1,{\"a\":\"]\"}]],"
			 "\"seat\":-2,\"t_close_us\":1031187811}";
	static const char *const keys[] = {"type", "decision", "t_close_us", "seat", "missing"};
	lg_jspan f[5];
	CHECK_EQ(lg_jscan(js, strlen(js), keys, 5, f), 4);
	char type[16];
	int64_t dec = 0, close = 0, seat = 0;
	CHECK(lg_jstr(f[0], type, sizeof type));
	CHECK_STR(type, "reveal");
	CHECK(lg_jint(f[1], &dec));
	CHECK_EQ(dec, 7); /* not the nested 99 */
	CHECK(lg_jint(f[2], &close));
	CHECK_EQ(close, 1031187811);
	CHECK(lg_jint(f[3], &seat));
	CHECK_EQ(seat, -2);
	CHECK(f[4].p == NULL);
	CHECK(!lg_jint(f[0], &dec)); /* a string is not a number */
}

TEST(loadgen_jscan_walks_arrays_and_survives_garbage)
{
	const char *js = "{\"options\":[{\"id\":\"leave\",\"label\":\"Leave, [now]\"},"
			 "{\"label\":\"x\",\"id\":\"stay\"}]}";
	static const char *const keys[] = {"options"};
	static const char *const idk[] = {"id"};
	lg_jspan arr, e, id;
	REQUIRE(lg_jscan(js, strlen(js), keys, 1, &arr) == 1);
	size_t pos = 0;
	char ids[2][16];
	int n = 0;
	while (n < 2 && lg_jarray_next(arr, &pos, &e))
		if (lg_jscan(e.p, e.n, idk, 1, &id) == 1 && lg_jstr(id, ids[n], sizeof ids[n]))
			n++;
	CHECK_EQ(n, 2);
	CHECK_STR(ids[0], "leave");
	CHECK_STR(ids[1], "stay");
	CHECK(!lg_jarray_next(arr, &pos, &e));
	/* Truncated or not JSON: less is found, nothing is read past the end. */
	const char *bad[] = {"", "{", "{\"type\"", "{\"type\":", "{\"type\":\"re", "[1,2]",
			     "{\"a\":{\"b\":[", "{\"type\":\"x\\"};
	static const char *const tk[] = {"type"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		size_t len = strlen(bad[i]);
		char *copy = malloc(len ? len : 1); /* exact size: ASan sees an overread */
		memcpy(copy, bad[i], len);
		lg_jspan t;
		lg_jscan(copy, len, tk, 1, &t);
		char s[8];
		CHECK(!lg_jstr(t, s, sizeof s));
		free(copy);
	}
}
