/*
 * test_text.c — common/text.c: which names are plain text (the server's
 * rule for player, table and lobby names) and how the client spells out
 * whatever is not (terminal escapes, bidi overrides, invisible characters,
 * invalid UTF-8) so that no peer string reaches a terminal raw.
 */
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../common/text.h"
#include "../test.h"

TEST(text_plain_accepts_visible_text_in_any_script)
{
	CHECK(text_plain(""));
	CHECK(text_plain("alice's table"));
	CHECK(text_plain("Zoë — 宝石 #1 (ok) \\ / !?"));
	CHECK(text_plain("\xf0\x9f\x92\x8e gems")); /* U+1F48E */
}

TEST(text_plain_refuses_controls_bidi_invisible_and_bad_utf8)
{
	static const char *const bad[] = {
		"\x1b[2J",                 /* clear screen */
		"x\x1b]0;pwned\x07",       /* window title */
		"\x1b]52;c;aGk=\x07",      /* OSC 52 clipboard write */
		"tab\there", "new\nline", "cr\r", "del\x7f", "nul\x01",
		"\xc2\x9b" "2J",           /* U+009B, a C1 CSI */
		"abc\xe2\x80\xae" "evil", /* U+202E right-to-left override */
		"\xe2\x81\xa6x\xe2\x81\xa9", /* U+2066 … U+2069 isolates */
		"a\xe2\x80\x8b" "b",       /* U+200B zero width space */
		"a\xe2\x80\x8f",           /* U+200F right-to-left mark */
		"\xef\xbb\xbfname",        /* U+FEFF */
		"soft\xc2\xad" "hyphen",   /* U+00AD */
		"\xd8\x9c",                /* U+061C Arabic letter mark */
		"line\xe2\x80\xa8sep",     /* U+2028 */
		"\xff", "\xc0\xaf",        /* invalid, overlong '/' */
		"\xed\xa0\x80",            /* a UTF-16 surrogate */
		"\xe2\x82",                /* cut short */
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		CHECK_MSG(!text_plain(bad[i]), "bad[%zu] passed", i);
}

TEST(text_escape_spells_out_what_is_not_plain)
{
	char out[128];
	CHECK_EQ(text_escape(out, sizeof out, "plain Zoë"), strlen("plain Zoë"));
	CHECK_STR(out, "plain Zoë");
	text_escape(out, sizeof out, "\x1b]0;pwned\x07!");
	CHECK_STR(out, "\\x1b]0;pwned\\x07!");
	text_escape(out, sizeof out, "a\xe2\x80\xae" "b\xc2\x9b" "c");
	CHECK_STR(out, "a\\u{202E}b\\u{009B}c");
	text_escape(out, sizeof out, "bad\xff\xc0\xaf");
	CHECK_STR(out, "bad\\xff\\xc0\\xaf");
	text_escape(out, sizeof out, "back\\slash\n");
	CHECK_STR(out, "back\\\\slash\\x0a");
	/* nothing raw below 0x20 or DEL ever comes out */
	char all[256];
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	char *e = text_escaped(all);
	for (const unsigned char *p = (const unsigned char *)e; *p; p++)
		CHECK(*p >= 0x20 && *p != 0x7f);
	CHECK(text_plain(e));
	free(e);
}

TEST(text_escape_cuts_at_a_whole_piece)
{
	char out[6];
	CHECK_EQ(text_escape(out, sizeof out, "ab\x1b" "cd"), 2); /* \x1b does not fit */
	CHECK_STR(out, "ab");
	CHECK_EQ(text_escape(out, sizeof out, "abcdéf"), 4); /* é (2 bytes) does not fit */
	CHECK_STR(out, "abcd");
	char one[1];
	CHECK_EQ(text_escape(one, sizeof one, "x"), 0);
	CHECK_STR(one, "");
}

/* --json output: still the same JSON value, nothing raw a terminal obeys. */
TEST(text_json_safe_keeps_the_value_and_escapes_inside_strings)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", "a\x1b[2Jb\xe2\x80\xae" "c\x7f\"q\\");
	cJSON_AddStringToObject(o, "plain", "Zoë");
	char *text = cJSON_Print(o); /* formatted: newlines and tabs between tokens */
	char *safe = text_json_safe(text);
	for (const unsigned char *p = (const unsigned char *)safe; *p; p++)
		CHECK(*p >= 0x20 || *p == '\n' || *p == '\t');
	CHECK(strstr(safe, "\\u202e") != NULL && strstr(safe, "\\u007f") != NULL);
	cJSON *back = cJSON_Parse(safe);
	REQUIRE(back != NULL);
	CHECK_STR(cJSON_GetObjectItem(back, "name")->valuestring,
		  "a\x1b[2Jb\xe2\x80\xae" "c\x7f\"q\\");
	CHECK_STR(cJSON_GetObjectItem(back, "plain")->valuestring, "Zoë");
	cJSON_Delete(back);
	free(safe);
	free(text);
	cJSON_Delete(o);
}

TEST(text_scrub_shows_bad_bytes_and_controls_as_question_marks)
{
	char a[] = "type \"\xe4\xb8\""; /* a 3-byte character cut to 2, then '"' */
	text_scrub(a);
	CHECK_STR(a, "type \"??\"");
	char b[] = "ok \xc3\xa9 \xf0\x9f\x98\x80 end"; /* valid text is kept */
	text_scrub(b);
	CHECK_STR(b, "ok \xc3\xa9 \xf0\x9f\x98\x80 end");
	char c[] = "\x80\xbf x \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 y";
	text_scrub(c); /* stray, overlong, surrogate, above U+10FFFF */
	CHECK_STR(c, "?? x ?? ??? ???? y");
	/* A removed byte must not make another word: t\x98ble stays t?ble. */
	char d[] = "t\x98" "ble_create \x02leave\n\x7f\t";
	text_scrub(d);
	CHECK_STR(d, "t?ble_create ?leave???");
	/* A character cut at the very end (a bounded copy) is dropped. */
	char e[] = "end \xe4\xb8", f[] = "end \xf0\x9f\x98", g[] = "end \xc3";
	text_scrub(e);
	text_scrub(f);
	text_scrub(g);
	CHECK_STR(e, "end ");
	CHECK_STR(f, "end ");
	CHECK_STR(g, "end ");
	char h[] = "";
	text_scrub(h);
	CHECK_STR(h, "");
}
