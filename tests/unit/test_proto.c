/*
 * test_proto.c — the protocol decoder: every class of bad input gets its
 * stable code (PROTOCOL.md §3) and the field to blame; good requests decode
 * into the typed body with defaults; encoders echo ids.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/rng.h"
#include "../../common/util.h"
#include "../../proto/json_out.h"
#include "../../proto/proto_msg.h"
#include "../test.h"

/* Decodes s; returns the code and leaves msg/err for inspection. */
static enum proto_err dec(const char *s, proto_msg *m, proto_error *e)
{
	return proto_decode(s, strlen(s), m, e);
}

/* Expects code and field; frees. */
static void expect_err(const char *s, enum proto_err code, const char *field)
{
	proto_msg m;
	proto_error e;
	enum proto_err got = dec(s, &m, &e);
	CHECK_MSG(got == code, "%s: got %s (%s), want %s", s, proto_err_code(got), e.message,
		  proto_err_code(code));
	CHECK_MSG(strcmp(e.field, field) == 0, "%s: field \"%s\", want \"%s\"", s, e.field,
		  field);
	CHECK(e.code == got);
	if (got != PROTO_OK)
		CHECK(e.message[0] != '\0');
	proto_msg_free(&m);
}

TEST(proto_error_codes_round_trip)
{
	for (int i = 0; i < PROTO_ERR_COUNT; i++) {
		const char *c = proto_err_code((enum proto_err)i);
		REQUIRE(c);
		CHECK_EQ(proto_err_find(c), i);
	}
	CHECK_STR(proto_err_code(PROTO_E_NOT_YOUR_SEAT), "not_your_seat");
	CHECK(proto_err_code(PROTO_ERR_COUNT) == NULL);
	CHECK_EQ(proto_err_find("nope"), -1);
}

TEST(proto_type_names_round_trip)
{
	for (int i = 0; i < PROTO_TYPE_COUNT; i++) {
		const char *n = proto_type_name((enum proto_type)i);
		REQUIRE(n);
		CHECK_EQ(proto_type_find(n), i);
	}
	CHECK(proto_type_is_admin(PROTO_ADMIN_KICK));
	CHECK(!proto_type_is_admin(PROTO_CHOOSE));
}

TEST(proto_bad_json)
{
	expect_err("{", PROTO_E_BAD_JSON, "");
	expect_err("", PROTO_E_BAD_JSON, "");
	expect_err("{\"type\":\"ping\"} x", PROTO_E_BAD_JSON, "");
	expect_err("{\"type\":\"ping\",}", PROTO_E_BAD_JSON, "");
	/* Whitespace after the value is fine. */
	expect_err("{\"type\":\"ping\"} \n", PROTO_OK, "");
}

/* A \u0000 escape in any string refuses the message: C strings would end
 * there ("zz\u0000yy" read as the name "zz"). An escaped backslash before
 * "u0000" is plain text, and so is U+0000 written any other way it cannot be. */
TEST(proto_nul_escape_is_bad_json)
{
	expect_err("{\"type\":\"hello\",\"protocol\":1,\"name\":\"zz\\u0000yy\"}", PROTO_E_BAD_JSON, "");
	expect_err("{\"type\":\"ping\",\"x\\u0000\":1}", PROTO_E_BAD_JSON, "");
	expect_err("{\"type\":\"ping\",\"id\":\"a\\u0000\"}", PROTO_E_BAD_JSON, "");
	expect_err("{\"type\":\"ping\",\"x\":\"\\\\u0000\"}", PROTO_OK, "");
	expect_err("{\"type\":\"ping\",\"x\":\"\\u0001\\\"u0000\"}", PROTO_OK, "");
}

TEST(proto_not_an_object_is_bad_message)
{
	expect_err("[1,2]", PROTO_E_BAD_MESSAGE, "");
	expect_err("\"hello\"", PROTO_E_BAD_MESSAGE, "");
	expect_err("42", PROTO_E_BAD_MESSAGE, "");
	expect_err("null", PROTO_E_BAD_MESSAGE, "");
}

TEST(proto_type_missing_mistyped_unknown)
{
	expect_err("{}", PROTO_E_MISSING_FIELD, "type");
	expect_err("{\"type\":5}", PROTO_E_BAD_FIELD, "type");
	expect_err("{\"type\":\"dance\"}", PROTO_E_UNKNOWN_TYPE, "type");
	expect_err("{\"type\":\"HELLO\"}", PROTO_E_UNKNOWN_TYPE, "type");
}

TEST(proto_id_is_echoed_even_on_errors)
{
	proto_msg m;
	proto_error e;
	CHECK_EQ(dec("{\"id\":17,\"type\":\"dance\"}", &m, &e), PROTO_E_UNKNOWN_TYPE);
	REQUIRE(m.id);
	CHECK_EQ(m.id->valuedouble, 17);
	cJSON *err = proto_error_from(m.id, &e);
	char *s = proto_print(err);
	CHECK(strstr(s, "\"id\":17") != NULL);
	CHECK(strstr(s, "\"code\":\"unknown_type\"") != NULL);
	CHECK(strstr(s, "\"field\":\"type\"") != NULL);
	free(s);
	cJSON_Delete(err);
	proto_msg_free(&m);

	CHECK_EQ(dec("{\"id\":\"abc\",\"type\":\"lobby_join\"}", &m, &e),
		 PROTO_E_MISSING_FIELD);
	REQUIRE(m.id);
	CHECK_STR(m.id->valuestring, "abc");
	proto_msg_free(&m);
}

/* The message of a refused frame quotes client text with each invalid
 * byte and control character as '?' (the way the log shows them), and the
 * reply carries exactly err.message: a log line, a test and a client read
 * the same text. */
TEST(proto_error_text_is_scrubbed_once_and_sent_as_is)
{
	static const struct {
		const char *frame, *message;
	} cases[] = {
		{"{\"type\":\"t\x98" "ble_create\"}", "unknown message type \"t?ble_create\""},
		{"{\"type\":\"table_s\xff" "ync\"}", "unknown message type \"table_s?ync\""},
		{"{\"type\":\"\\u0002leave\\n\"}", "unknown message type \"?leave?\""},
		/* 39 bytes of the type are quoted: 38 a's and the character
		 * across byte 39, which is cut whole, not split. */
		{"{\"type\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xe4\xb8\xad\"}",
		 "unknown message type \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\""},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		proto_msg m;
		proto_error e;
		CHECK_EQ(dec(cases[i].frame, &m, &e), PROTO_E_UNKNOWN_TYPE);
		CHECK_STR(e.message, cases[i].message);
		cJSON *reply = proto_error_from(m.id, &e);
		CHECK_STR(cJSON_GetObjectItem(reply, "message")->valuestring, e.message);
		cJSON_Delete(reply);
		proto_msg_free(&m);
	}
	/* Every other error goes through the same point. */
	char long_text[400];
	memset(long_text, 'x', sizeof long_text);
	memcpy(long_text + 253, "\xe4\xb8\xad", 3); /* a character across byte 255 */
	long_text[sizeof long_text - 1] = 0;
	cJSON *o = proto_error_new(NULL, PROTO_E_ILLEGAL_CHOICE, "choice", long_text);
	const char *msg = cJSON_GetObjectItem(o, "message")->valuestring;
	CHECK_EQ(strlen(msg), 253);
	CHECK(strspn(msg, "x") == 253);
	cJSON_Delete(o);
	o = proto_error_new(NULL, PROTO_E_ILLEGAL_CHOICE, NULL, "bad \x01\xc0 choice");
	CHECK_STR(cJSON_GetObjectItem(o, "message")->valuestring, "bad ?? choice");
	CHECK(!cJSON_GetObjectItem(o, "field"));
	cJSON_Delete(o);
}

TEST(proto_bad_ids)
{
	expect_err("{\"id\":1.5,\"type\":\"ping\"}", PROTO_E_BAD_FIELD, "id");
	expect_err("{\"id\":[1],\"type\":\"ping\"}", PROTO_E_BAD_FIELD, "id");
	expect_err("{\"id\":1e300,\"type\":\"ping\"}", PROTO_E_BAD_FIELD, "id");
	expect_err("{\"id\":\"0123456789012345678901234567890123456789012345678901234567"
		   "89012345\",\"type\":\"ping\"}", PROTO_E_BAD_FIELD, "id");
	expect_err("{\"id\":-5,\"type\":\"ping\"}", PROTO_OK, "");
}

TEST(proto_hello_new_player)
{
	proto_msg m;
	proto_error e;
	REQUIRE(dec("{\"type\":\"hello\",\"id\":1,\"protocol\":1,\"name\":\"alice\"}", &m, &e) ==
		PROTO_OK);
	CHECK_EQ(m.type, PROTO_HELLO);
	CHECK_EQ(m.u.hello.protocol, 1);
	CHECK_STR(m.u.hello.name, "alice");
	CHECK(m.u.hello.token == NULL);
	CHECK(m.u.hello.resume == NULL);
	proto_msg_free(&m);
}

TEST(proto_hello_rules)
{
	const char *tok = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	char s[256];
	expect_err("{\"type\":\"hello\",\"name\":\"a\"}", PROTO_E_MISSING_FIELD, "protocol");
	expect_err("{\"type\":\"hello\",\"protocol\":\"1\",\"name\":\"a\"}", PROTO_E_BAD_FIELD,
		   "protocol");
	expect_err("{\"type\":\"hello\",\"protocol\":2,\"name\":\"a\"}",
		   PROTO_E_VERSION_UNSUPPORTED, "protocol");
	expect_err("{\"type\":\"hello\",\"protocol\":1}", PROTO_E_BAD_MESSAGE, "");
	snprintf(s, sizeof s, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"a\",\"token\":\"%s\"}",
		 tok);
	expect_err(s, PROTO_E_BAD_MESSAGE, "");
	snprintf(s, sizeof s, "{\"type\":\"hello\",\"protocol\":1,\"token\":\"%s\"}", tok);
	expect_err(s, PROTO_OK, "");
	/* Upper-case hex and short tokens are malformed. */
	expect_err("{\"type\":\"hello\",\"protocol\":1,\"token\":\"ABC\"}", PROTO_E_BAD_FIELD,
		   "token");
	expect_err("{\"type\":\"hello\",\"protocol\":1,\"name\":\"\"}", PROTO_E_BAD_FIELD,
		   "name");
	expect_err("{\"type\":\"hello\",\"protocol\":1,\"name\":\"_x\"}", PROTO_E_BAD_FIELD,
		   "name");
	expect_err("{\"type\":\"hello\",\"protocol\":1,\"name\":\"a b\"}", PROTO_E_BAD_FIELD,
		   "name");
	expect_err("{\"type\":\"hello\",\"protocol\":1,\"name\":\"abcdefghijklmnopqrstuvwxy\"}",
		   PROTO_E_BAD_FIELD, "name");
	expect_err("{\"type\":\"hello\",\"protocol\":1,\"name\":\"Bob_2.x-y\"}", PROTO_OK, "");
	expect_err("{\"type\":\"hello\",\"protocol\":1,\"name\":\"a\",\"resume\":[]}",
		   PROTO_E_BAD_FIELD, "resume");
}

TEST(proto_table_create_defaults)
{
	proto_msg m;
	proto_error e;
	REQUIRE(dec("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":5}", &m, &e) ==
		PROTO_OK);
	CHECK_STR(m.u.create.kind, "gems");
	CHECK_EQ(m.u.create.seats, 5);
	CHECK_EQ(m.u.create.ai, 0);
	CHECK(!m.u.create.is_private);
	CHECK(!m.u.create.start);
	CHECK_EQ(m.u.create.turn_timeout_ms, PROTO_ABSENT);
	CHECK_EQ(m.u.create.pacing_ms, PROTO_ABSENT);
	CHECK_EQ(m.u.create.lobby, PROTO_ABSENT);
	CHECK(!m.u.create.has_seed);
	CHECK(m.u.create.config == NULL);
	CHECK(m.u.create.name == NULL);
	proto_msg_free(&m);
}

TEST(proto_table_create_full)
{
	proto_msg m;
	proto_error e;
	REQUIRE(dec("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":3,\"ai\":2,"
		    "\"name\":\"t\",\"private\":true,\"password\":\"pw\",\"turn_timeout_ms\":5000,"
		    "\"pacing_ms\":0,\"config\":{\"x\":1},\"lobby\":2,"
		    "\"seed\":\"18446744073709551615\",\"start\":true}", &m, &e) == PROTO_OK);
	CHECK_EQ(m.u.create.ai, 2);
	CHECK(m.u.create.is_private);
	CHECK_STR(m.u.create.password, "pw");
	CHECK_EQ(m.u.create.turn_timeout_ms, 5000);
	CHECK_EQ(m.u.create.pacing_ms, 0);
	CHECK_EQ(m.u.create.lobby, 2);
	CHECK(m.u.create.has_seed);
	CHECK(m.u.create.seed == UINT64_MAX);
	CHECK(m.u.create.start);
	CHECK(cJSON_IsObject(m.u.create.config));
	proto_msg_free(&m);
}

TEST(proto_table_create_bad_fields)
{
	expect_err("{\"type\":\"table_create\",\"seats\":5}", PROTO_E_MISSING_FIELD, "kind");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\"}", PROTO_E_MISSING_FIELD,
		   "seats");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":0}",
		   PROTO_E_BAD_FIELD, "seats");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":10}",
		   PROTO_E_BAD_FIELD, "seats");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":2.5}",
		   PROTO_E_BAD_FIELD, "seats");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":\"5\"}",
		   PROTO_E_BAD_FIELD, "seats");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":3,\"ai\":4}",
		   PROTO_E_BAD_FIELD, "ai");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":3,\"private\":1}",
		   PROTO_E_BAD_FIELD, "private");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":3,\"private\":true}",
		   PROTO_E_MISSING_FIELD, "password");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":3,"
		   "\"turn_timeout_ms\":10}", PROTO_E_BAD_FIELD, "turn_timeout_ms");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":3,\"config\":5}",
		   PROTO_E_BAD_FIELD, "config");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":3,\"seed\":-1}",
		   PROTO_E_BAD_FIELD, "seed");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":3,"
		   "\"seed\":\"18446744073709551616\"}", PROTO_E_BAD_FIELD, "seed");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":3,\"seed\":\"12a\"}",
		   PROTO_E_BAD_FIELD, "seed");
	expect_err("{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":3,\"name\":\"\"}",
		   PROTO_E_BAD_FIELD, "name");
}

TEST(proto_choose)
{
	proto_msg m;
	proto_error e;
	REQUIRE(dec("{\"type\":\"choose\",\"id\":3,\"table\":7,\"choice\":\"stay\"}", &m, &e) ==
		PROTO_OK);
	CHECK_EQ(m.u.table.table, 7);
	CHECK_EQ(m.u.table.seat, PROTO_ABSENT);
	CHECK_EQ(m.u.table.decision, PROTO_ABSENT);
	CHECK(cJSON_IsString(m.u.table.choice));
	proto_msg_free(&m);
	REQUIRE(dec("{\"type\":\"choose\",\"table\":7,\"seat\":2,\"decision\":9,"
		    "\"choice\":{\"card\":1}}", &m, &e) == PROTO_OK);
	CHECK_EQ(m.u.table.seat, 2);
	CHECK_EQ(m.u.table.decision, 9);
	CHECK(cJSON_IsObject(m.u.table.choice));
	proto_msg_free(&m);
	expect_err("{\"type\":\"choose\",\"table\":7}", PROTO_E_MISSING_FIELD, "choice");
	expect_err("{\"type\":\"choose\",\"choice\":1}", PROTO_E_MISSING_FIELD, "table");
	expect_err("{\"type\":\"choose\",\"table\":0,\"choice\":1}", PROTO_E_BAD_FIELD, "table");
	expect_err("{\"type\":\"choose\",\"table\":1,\"seat\":9,\"choice\":1}",
		   PROTO_E_BAD_FIELD, "seat");
	expect_err("{\"type\":\"choose\",\"table\":1,\"seat\":-1,\"choice\":1}",
		   PROTO_E_BAD_FIELD, "seat");
}

TEST(proto_other_requests)
{
	expect_err("{\"type\":\"lobby_join\",\"lobby\":\"1\"}", PROTO_E_BAD_FIELD, "lobby");
	expect_err("{\"type\":\"lobby_join\",\"lobby\":1}", PROTO_OK, "");
	expect_err("{\"type\":\"chat\",\"text\":\"\"}", PROTO_E_BAD_FIELD, "text");
	expect_err("{\"type\":\"chat\",\"text\":null}", PROTO_E_BAD_FIELD, "text");
	expect_err("{\"type\":\"table_remove_ai\",\"table\":1}", PROTO_E_MISSING_FIELD, "seat");
	expect_err("{\"type\":\"stats\",\"player\":\"bad name\"}", PROTO_E_BAD_FIELD, "player");
	expect_err("{\"type\":\"stats\"}", PROTO_OK, "");
	expect_err("{\"type\":\"admin_kick\"}", PROTO_E_MISSING_FIELD, "player");
	expect_err("{\"type\":\"admin_lobby_create\",\"name\":\"x\",\"extra\":[1]}", PROTO_OK,
		   "");
	expect_err("{\"type\":\"table_sync\",\"table\":3,\"since\":-2}", PROTO_E_BAD_FIELD,
		   "since");
}

TEST(proto_every_type_decodes_with_required_fields)
{
	/* A minimal valid instance of every request: catches a table entry
	 * that cannot be satisfied. */
	static const char *const ok[] = {
		"{\"type\":\"hello\",\"protocol\":1,\"name\":\"x\"}",
		"{\"type\":\"ping\"}", "{\"type\":\"rename\",\"name\":\"x\"}",
		"{\"type\":\"lobby_list\"}",
		"{\"type\":\"lobby_join\",\"lobby\":1}", "{\"type\":\"lobby_leave\"}",
		"{\"type\":\"chat\",\"text\":\"hi\"}", "{\"type\":\"table_list\"}",
		"{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":1}",
		"{\"type\":\"table_join\",\"table\":1}",
		"{\"type\":\"table_spectate\",\"table\":1}",
		"{\"type\":\"table_leave\",\"table\":1}", "{\"type\":\"table_add_ai\",\"table\":1}",
		"{\"type\":\"table_remove_ai\",\"table\":1,\"seat\":0}",
		"{\"type\":\"table_start\",\"table\":1}",
		"{\"type\":\"choose\",\"table\":1,\"choice\":0}",
		"{\"type\":\"selecting\",\"table\":1}",
		"{\"type\":\"take_seat\",\"table\":1,\"seat\":0}",
		"{\"type\":\"table_sync\",\"table\":1}", "{\"type\":\"rematch\",\"table\":1}",
		"{\"type\":\"table_close\",\"table\":1}", "{\"type\":\"stats\"}",
		"{\"type\":\"achievements\"}", "{\"type\":\"server_stats\"}",
		"{\"type\":\"records\"}", "{\"type\":\"admin_lobbies\"}",
		"{\"type\":\"admin_lobby_create\",\"name\":\"x\"}",
		"{\"type\":\"admin_lobby_close\",\"lobby\":2}", "{\"type\":\"admin_tables\"}",
		"{\"type\":\"admin_table_close\",\"table\":1}", "{\"type\":\"admin_players\"}",
		"{\"type\":\"admin_kick\",\"player\":\"x\"}", "{\"type\":\"admin_stats\"}",
		"{\"type\":\"admin_quarantined\"}",
		"{\"type\":\"admin_quarantined_drop\",\"table\":1}",
		"{\"type\":\"admin_players_prune\"}",
	};
	CHECK_EQ(sizeof ok / sizeof ok[0], PROTO_TYPE_COUNT);
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		proto_msg m;
		proto_error e;
		enum proto_err r = dec(ok[i], &m, &e);
		CHECK_MSG(r == PROTO_OK, "%s: %s", ok[i], e.message);
		if (r == PROTO_OK)
			CHECK_EQ(m.type, (int)i);
		proto_msg_free(&m);
	}
}

TEST(proto_encoders)
{
	cJSON *id = cJSON_CreateString("x1");
	cJSON *o = proto_new("ok", id);
	char *s = proto_print(o);
	CHECK_STR(s, "{\"type\":\"ok\",\"id\":\"x1\"}");
	free(s);
	cJSON_Delete(o);
	o = proto_error_new(NULL, PROTO_E_FULL, NULL, "no free seat");
	s = proto_print(o);
	CHECK_STR(s, "{\"type\":\"error\",\"code\":\"full\",\"message\":\"no free seat\"}");
	free(s);
	cJSON_Delete(o);
	cJSON_Delete(id);

	o = proto_request(PROTO_LOBBY_LIST, 4);
	s = proto_print(o);
	CHECK_STR(s, "{\"type\":\"lobby_list\",\"id\":4}");
	free(s);
	cJSON_Delete(o);
}

TEST(proto_decode_server_messages)
{
	proto_error e;
	const char *type;
	const char *w = "{\"type\":\"welcome\",\"id\":1}";
	cJSON *r = proto_decode_server(w, strlen(w), &type, &e);
	REQUIRE(r);
	CHECK_STR(type, "welcome");
	cJSON_Delete(r);
	CHECK(proto_decode_server("[1]", 3, &type, &e) == NULL);
	CHECK_EQ(e.code, PROTO_E_BAD_MESSAGE);
	CHECK(proto_decode_server("{", 1, &type, &e) == NULL);
	CHECK_EQ(e.code, PROTO_E_BAD_JSON);
}

TEST(proto_decode_does_not_read_past_len)
{
	/* The frame is not NUL-terminated at len: the decoder must stop there. */
	const char frame[] = "{\"type\":\"ping\"}GARBAGE";
	proto_msg m;
	proto_error e;
	CHECK_EQ(proto_decode(frame, 15, &m, &e), PROTO_OK);
	proto_msg_free(&m);
}

/* ---- json_print: cJSON_PrintUnformatted, only faster, numbers exact ---- */


static cJSON *random_tree(rng *r, int depth)
{
	static const char *const strs[] = {"", "a", "stay", "quote\"d", "back\\slash", "tab\tnl\n",
					   "ctl\x01\x1f", "utf8 \xc3\xa9\xe2\x82\xac", "/slash"};
	uint32_t k = rng_below(r, depth > 3 ? 6 : 8);
	switch (k) {
	case 0: return cJSON_CreateNull();
	case 1: return cJSON_CreateBool(rng_below(r, 2));
	case 2: {
		static const double nums[] = {0, -0.0, 1, -1, 42, 2147483647.0, 2147483648.0,
					      -9007199254740991.0, 9007199254740992.0, 1e15, 1e16,
					      1031187811000.0, 0.5, -2.25, 3.14159, 1e-7, 1e300};
		return cJSON_CreateNumber(nums[rng_below(r, ARRAY_LEN(nums))]);
	}
	case 3: return cJSON_CreateNumber((double)(int32_t)rng_u32(r));
	case 4:
	case 5: return cJSON_CreateString(strs[rng_below(r, ARRAY_LEN(strs))]);
	case 6: {
		cJSON *a = cJSON_CreateArray();
		for (uint32_t i = rng_below(r, 5); i > 0; i--)
			cJSON_AddItemToArray(a, random_tree(r, depth + 1));
		return a;
	}
	default: {
		cJSON *o = cJSON_CreateObject();
		for (uint32_t i = rng_below(r, 5); i > 0; i--)
			cJSON_AddItemToObject(o, strs[rng_below(r, ARRAY_LEN(strs))],
					      random_tree(r, depth + 1));
		return o;
	}
	}
}

TEST(json_print_matches_cjson_on_random_trees)
{
	rng r;
	rng_seed(&r, 2026, 11);
	int differ = 0;
	for (int i = 0; i < 3000; i++) {
		cJSON *t = random_tree(&r, 0);
		char *want = cJSON_PrintUnformatted(t);
		size_t len = 0;
		char *got = json_print(t, &len);
		/* Integers of 2^53 and more: cJSON writes exponents, we write
		 * digits; both parse to the same number. */
		cJSON *back = cJSON_Parse(got);
		char *again = back ? cJSON_PrintUnformatted(back) : NULL;
		if (strcmp(want, got) != 0 && (!again || strcmp(want, again) != 0)) {
			if (!differ)
				fprintf(stderr, "cJSON: %s\nours:  %s\n", want, got);
			differ++;
		}
		CHECK_EQ(len, strlen(got));
		free(again);
		cJSON_Delete(back);
		free(want);
		free(got);
		cJSON_Delete(t);
	}
	CHECK_EQ(differ, 0);
}

TEST(json_print_integers_exactly)
{
	cJSON *a = cJSON_CreateArray();
	cJSON_AddItemToArray(a, cJSON_CreateNumber(1031187811000.0));
	cJSON_AddItemToArray(a, cJSON_CreateNumber(-9007199254740991.0));
	cJSON_AddItemToArray(a, cJSON_CreateNumber(0.5));
	char *s = json_print(a, NULL);
	CHECK_STR(s, "[1031187811000,-9007199254740991,0.5]");
	free(s);
	cJSON_Delete(a);
}

/* json_out.h: where the number texts differ from cJSON's, ours read back
 * to the same double, bit for bit, and cJSON's do not always. */
TEST(json_print_numbers_read_back_exactly_where_cjson_differs)
{
	static const struct {
		double v;
		const char *ours;
	} cases[] = {
		{1e15, "1000000000000000"},
		{9007199254740991.0, "9007199254740991"},
		{0.1 + 0.2, "0.30000000000000004"},
		{DBL_MAX, "1.7976931348623157e+308"},
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		cJSON *n = cJSON_CreateNumber(cases[i].v);
		char *ours = json_print(n, NULL), *theirs = cJSON_PrintUnformatted(n);
		CHECK_STR(ours, cases[i].ours);
		CHECK_MSG(strcmp(ours, theirs) != 0, "cJSON writes %s too", theirs);
		double back = strtod(ours, NULL);
		CHECK_MSG(memcmp(&back, &cases[i].v, sizeof back) == 0, "%s reads back", ours);
		free(ours);
		free(theirs);
		cJSON_Delete(n);
	}
	/* and where they agree: NaN and infinity as null, -0, small and large */
	static const double same[] = {NAN, INFINITY, -0.0, 0.5, 1e-7, 1e16, 2147483648.0};
	for (size_t i = 0; i < ARRAY_LEN(same); i++) {
		cJSON *n = cJSON_CreateNumber(same[i]);
		char *ours = json_print(n, NULL), *theirs = cJSON_PrintUnformatted(n);
		CHECK_STR(ours, theirs);
		free(ours);
		free(theirs);
		cJSON_Delete(n);
	}
}

/* The short fractions written without printf (json_out.c,
 * put_short_fraction; the gems view's rounded odds, G39): the very text of
 * "%1.15g" with the 17-digit fallback, for values of up to 6 decimals
 * around the fast path's edges (1e-4, 1e9) and for doubles that are no
 * such value (they take printf's path). */
TEST(json_print_short_fractions_as_printf_writes_them)
{
	rng r;
	rng_seed(&r, 2026, 12);
	static const double edge[] = {1e-4, 0.0001, 0.00015, 0.0005, 0.001, 0.7733, -0.7733,
				      0.1, 0.2, 0.3, 1.5, -2.25, 999999999.5, 999999999.999999,
				      1e9 - 0.25, 1e9 + 0.5, 9.99999e-5, 123456.789012,
				      0.1 + 0.2, 1.0 / 3, 2.0 / 3, -1e-4, 0.12345678};
	int n = 0;
	for (int i = 0; i < 200000; i++) {
		double v;
		if (i < (int)ARRAY_LEN(edge)) {
			v = edge[i];
		} else {
			/* r / 10^p: the rounded values the fast path is for, and
			 * plain doubles of every magnitude it bounds. */
			static const double pow10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7};
			int p = (int)rng_below(&r, 8);
			double mag = pow10[rng_below(&r, 8)] * 1e3;
			v = rng_below(&r, 4) == 0 ? (rng_u32(&r) / 4294967296.0 - 0.5) * mag
						  : nearbyint((rng_u32(&r) / 4294967296.0 - 0.5) * mag *
							      pow10[p]) / pow10[p];
		}
		if (v == floor(v))
			continue; /* integers: json_put_int */
		char want[32];
		snprintf(want, sizeof want, "%1.15g", v);
		if (strtod(want, NULL) != v)
			snprintf(want, sizeof want, "%1.17g", v);
		cJSON *num = cJSON_CreateNumber(v);
		char *got = json_print(num, NULL);
		CHECK_MSG(!strcmp(got, want), "%.17g: %s, printf %s", v, got, want);
		free(got);
		cJSON_Delete(num);
		n++;
	}
	CHECK(n > 150000);
}

/* Names other players see (table, lobby) are plain text: a terminal escape,
 * a bidi override or an invisible character is refused as bad_field with
 * the field named; the message says why (PROTOCOL.md §2). */
TEST(proto_shown_names_refuse_control_bidi_and_invisible_characters)
{
	static const char *const bad[] = {
		"\\u001b[2J", "\\u001b]0;title\\u0007", "\\u001b]52;c;aGk=\\u0007", "a\\nb",
		"x\\u202ey", "x\\u2066y", "x\\u200by", "\\ufeffx", "x\\u009b2J", "x\\u00ady",
	};
	char s[256];
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(s, sizeof s, "{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":2,"
				      "\"name\":\"%s\"}", bad[i]);
		expect_err(s, PROTO_E_BAD_FIELD, "name");
		snprintf(s, sizeof s, "{\"type\":\"admin_lobby_create\",\"name\":\"%s\"}", bad[i]);
		expect_err(s, PROTO_E_BAD_FIELD, "name");
	}
	proto_msg m;
	proto_error e;
	const char *ok = "{\"type\":\"table_create\",\"kind\":\"gems\",\"seats\":2,"
			 "\"name\":\"Zo\\u00eb's \\u5b9d\\u77f3 table\"}";
	CHECK_EQ(dec(ok, &m, &e), PROTO_OK);
	CHECK_STR(m.u.create.name, "Zoë's 宝石 table");
	proto_msg_free(&m);
	CHECK_EQ(dec("{\"type\":\"admin_lobby_create\",\"name\":\"a\\u001bb\"}", &m, &e),
		 PROTO_E_BAD_FIELD);
	CHECK(strstr(e.message, "plain text") != NULL);
	proto_msg_free(&m);
}

/* A token of the wrong length says what a token is, not "64 to 64 bytes". */
TEST(proto_token_length_message_reads_well)
{
	proto_msg m;
	proto_error e;
	CHECK_EQ(dec("{\"type\":\"hello\",\"protocol\":1,\"token\":\"abc\"}", &m, &e),
		 PROTO_E_BAD_FIELD);
	CHECK_STR(e.field, "token");
	CHECK_STR(e.message, "token must be 64 lowercase hex characters");
	proto_msg_free(&m);
}

/* hello's caps (PROTOCOL.md §4): a list of at most 16 names of 1 to 32
 * bytes, else bad_field "caps"; names this server does not know are
 * ignored, "view_patch" is known. */
TEST(proto_hello_caps_checked_unknown_ignored)
{
	static const char *const bad[] = {
		"\"view_patch\"", "{}", "null", "[1]", "[\"\"]", "[null]",
		"[\"123456789012345678901234567890123\"]",
		("[\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\","
		 "\"a\",\"a\",\"a\"]"), /* 17 */
	};
	char s[512];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(s, sizeof s, "{\"type\":\"hello\",\"protocol\":1,\"name\":\"al\",\"caps\":%s}",
			 bad[i]);
		expect_err(s, PROTO_E_BAD_FIELD, "caps");
	}
	proto_msg m;
	proto_error e;
	CHECK_EQ(dec("{\"type\":\"hello\",\"protocol\":1,\"name\":\"al\",\"caps\":"
		     "[\"12345678901234567890123456789012\",\"view_patch\"]}",
		     &m, &e),
		 PROTO_OK);
	CHECK_EQ(proto_hello_caps(m.u.hello.caps), PROTO_CAP_VIEW_PATCH);
	proto_msg_free(&m);
	/* exact names only, each once however often it is said */
	CHECK_EQ(dec("{\"type\":\"hello\",\"protocol\":1,\"name\":\"al\",\"caps\":"
		     "[\"timing\",\"Lean\",\"lean \",\"lean\",\"lean\"]}",
		     &m, &e),
		 PROTO_OK);
	CHECK_EQ(proto_hello_caps(m.u.hello.caps), PROTO_CAP_LEAN | PROTO_CAP_TIMING);
	proto_msg_free(&m);
	for (int i = 0; i < PROTO_CAPS_KNOWN; i++) /* the welcome names them back */
		CHECK_EQ(strcmp(proto_cap_name(i), i == 0 ? "view_patch" : i == 1 ? "lean" : "timing"), 0);
	CHECK_STR(proto_cap_name(PROTO_CAPS_KNOWN), "");
	CHECK_EQ(dec("{\"type\":\"hello\",\"protocol\":1,\"name\":\"al\",\"caps\":[]}", &m, &e),
		 PROTO_OK);
	CHECK_EQ(proto_hello_caps(m.u.hello.caps), 0);
	proto_msg_free(&m);
	CHECK_EQ(dec("{\"type\":\"hello\",\"protocol\":1,\"name\":\"al\"}", &m, &e), PROTO_OK);
	CHECK(m.u.hello.caps == NULL);
	CHECK_EQ(proto_hello_caps(NULL), 0);
	proto_msg_free(&m);
}
