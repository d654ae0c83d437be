/*
 * test_view_patch.c — a view's patch (proto/view_patch.h, the `view_patch`
 * of a reveal, proto/table.md §5.6): the format's worked examples, hostile
 * patches refused with the view unchanged, and the property the clients
 * rely on — over many seeded AI games of every kind, every viewer's view
 * before a decision with the patch applied (through its text, as a client
 * reads it) is the view after it. The text laird sends (view_patch_write,
 * printed while diffing, with the whole view printed on the way) is the
 * tree view_patch_diff builds, printed, and that view is the view printed,
 * byte for byte, in every one of those cases.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../proto/json_out.h"
#include "../../proto/view_patch.h"
#include "../../server/games/game.h"
#include "../test.h"

/* view_patch_write(from, to) is view_patch_diff's tree printed, with and
 * without the view printed on the way, and that view is `to` printed.
 * False (and a CHECK failed) when not. */
static bool write_is_diff(const cJSON *from, const cJSON *to, const cJSON *tree)
{
	char *want = json_print(tree, NULL), *view = json_print(to, NULL);
	buf alone = {0}, with = {0}, v = {0};
	buf_puts(&v, "{\"view\":"); /* text before it, as in a reveal */
	buf_puts(&with, "{\"view_patch\":");
	view_patch_write(&alone, NULL, from, to);
	view_patch_write(&with, &v, from, to);
	bool ok = !strcmp(alone.data, want) && !strcmp(with.data + 14, want) &&
		  !strncmp(v.data, "{\"view\":", 8) && !strcmp(v.data + 8, view);
	CHECK_MSG(ok, "tree %s, text %s, with the view %s; view %s, written %s", want,
		  alone.data, with.data, view, v.data);
	free(want);
	free(view);
	buf_free(&alone);
	buf_free(&with);
	buf_free(&v);
	return ok;
}

/* diff(from, to) as text, and from with it applied equals to. */
static char *diff_text(const char *from, const char *to)
{
	cJSON *a = cJSON_Parse(from), *b = cJSON_Parse(to);
	CHECK_MSG(a && b, "not JSON: %s or %s", from, to);
	cJSON *p = view_patch_diff(a, b);
	write_is_diff(a, b, p);
	char *s = json_print(p, NULL);
	CHECK(view_patch_apply(&a, p));
	CHECK_MSG(cJSON_Compare(a, b, true), "%s + %s != %s", from, s, to);
	cJSON_Delete(a);
	cJSON_Delete(b);
	cJSON_Delete(p);
	return s;
}

#define CHECK_DIFF(from, to, want)                                                        \
	do {                                                                              \
		char *s_ = diff_text(from, to);                                           \
		CHECK_STR(s_, want);                                                      \
		free(s_);                                                                 \
	} while (0)

TEST(view_patch_examples)
{
	CHECK_DIFF("{\"a\":1,\"b\":[1,2]}", "{\"a\":1,\"b\":[1,2]}", "[]");
	CHECK_DIFF("{\"a\":1,\"b\":2}", "{\"a\":3,\"b\":2}", "[[[\"a\"],3]]");
	CHECK_DIFF("{\"a\":1}", "{\"a\":1,\"c\":null}", "[[[\"c\"],null]]");
	CHECK_DIFF("{\"a\":1,\"c\":true}", "{\"a\":1}", "[[[\"c\"]]]");
	CHECK_DIFF("{\"players\":[{\"gems\":1,\"name\":\"alice\"},{\"gems\":2,\"name\":\"bob\"}]}",
		   "{\"players\":[{\"gems\":1,\"name\":\"alice\"},{\"gems\":5,\"name\":\"bob\"}]}",
		   "[[[\"players\",1,\"gems\"],5]]");
	CHECK_DIFF("{\"log\":[\"one\",\"two\"]}", "{\"log\":[\"one\",\"two\",\"three\"]}",
		   "[[[\"log\",2],\"three\"]]");
	CHECK_DIFF("{\"log\":[\"the first line\",\"the second line\",\"3\",\"4\"]}",
		   "{\"log\":[\"the first line\",\"the second line\"]}",
		   "[[[\"log\",3]],[[\"log\",2]]]");
	CHECK_DIFF("{\"the_map\":\"...........\",\"i\":false}",
		   "{\"the_map\":\"...........\",\"i\":true}", "[[[\"i\"],true]]");
	/* setting it whole is shorter than its changes one by one */
	CHECK_DIFF("{\"name\":\"a long name\",\"l\":[1,2,3]}",
		   "{\"name\":\"a long name\",\"l\":[4,5,6]}", "[[[\"l\"],[4,5,6]]]");
	CHECK_DIFF("{\"a\":1}", "{\"a\":\"x\"}", "[[[],{\"a\":\"x\"}]]");
	CHECK_DIFF("[1]", "{\"a\":1}", "[[[],{\"a\":1}]]");
	/* members reordered, one gone from the middle, one from the end */
	CHECK_DIFF("{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}", "[]");
	CHECK_DIFF("{\"a\":1,\"b\":2,\"c\":3}", "{\"c\":3,\"a\":1}", "[[[\"b\"]]]");
	CHECK_DIFF("{\"a\":1,\"b\":2}", "{\"a\":1}", "[[[\"b\"]]]");
	/* a record redone is set whole, its member's key counted in the
	 * choice (the patch is the one laird always wrote) */
	CHECK_DIFF("{\"name\":\"a long name\",\"odds\":{\"lair\":0,\"rumor\":2.1,\"ev\":1.1,"
		   "\"take\":0}}",
		   "{\"name\":\"a long name\",\"odds\":{\"lair\":0,\"rumor\":2.5,\"ev\":1.25,"
		   "\"take\":0}}",
		   "[[[\"odds\"],{\"lair\":0,\"rumor\":2.5,\"ev\":1.25,\"take\":0}]]");
	for (int from_null = 0; from_null < 2; from_null++) {
		cJSON *b = cJSON_Parse("{\"x\":1}"), *a = from_null ? NULL : b;
		cJSON *p = view_patch_diff(a, from_null ? b : NULL), *v = NULL;
		write_is_diff(a, from_null ? b : NULL, p);
		CHECK(view_patch_apply(&v, p));
		CHECK(from_null ? cJSON_Compare(v, b, true) : cJSON_IsNull(v));
		cJSON_Delete(v);
		cJSON_Delete(p);
		cJSON_Delete(b);
	}
}

/* Keys and strings a view should not have but a patch must carry as they
 * are: quotes, backslashes, control characters, non-ASCII; and a view
 * deeper than a path may go, set whole below VIEW_PATCH_DEPTH_MAX. */
TEST(view_patch_odd_keys_and_deep_views)
{
	CHECK_DIFF("{\"the_map\":\"................................\",\"a\\\"b\":1,"
		   "\"\\u0001\\n\":\"x\",\"\\\\\":[]}",
		   "{\"the_map\":\"................................\",\"a\\\"b\":2,"
		   "\"\\u0001\\n\":\"y\",\"é\":\"\\\"\"}",
		   "[[[\"a\\\"b\"],2],[[\"\\u0001\\n\"],\"y\"],[[\"é\"],\"\\\"\"],[[\"\\\\\"]]]");
	buf from = {0}, to = {0};
	for (int i = 0; i < 40; i++) {
		buf_puts(&from, i % 2 ? "[" : "{\"k\":");
		buf_puts(&to, i % 2 ? "[" : "{\"k\":");
	}
	buf_puts(&from, "1");
	buf_puts(&to, "2");
	for (int i = 39; i >= 0; i--) {
		buf_puts(&from, i % 2 ? "]" : "}");
		buf_puts(&to, i % 2 ? "]" : "}");
	}
	char *s = diff_text(from.data, to.data);
	cJSON *p = cJSON_Parse(s);
	REQUIRE(p != NULL);
	/* one set, at the deepest path a patch may hold */
	CHECK_EQ(cJSON_GetArraySize(p), 1);
	CHECK_EQ(cJSON_GetArraySize(cJSON_GetArrayItem(cJSON_GetArrayItem(p, 0), 0)),
		 VIEW_PATCH_DEPTH_MAX - 1);
	cJSON_Delete(p);
	free(s);
	buf_free(&from);
	buf_free(&to);
}

/* A hostile or broken patch is refused and the view stays as it was. */
TEST(view_patch_refuses_what_is_not_a_patch)
{
	static const char *const bad[] = {
		"{}", "7", "[7]", "[[]]", "[[[\"a\"],1,2]]", "[[\"a\",1]]", "[[[]]]",
		"[[[\"nope\",\"x\"],1]]", "[[[\"nope\"]]]", "[[[\"l\",3],1]]", "[[[\"l\",2]]]",
		"[[[\"l\",-1],1]]", "[[[\"l\",0.5],1]]", "[[[\"l\",1e300],1]]", "[[[\"l\",\"0\"],1]]",
		"[[[\"l\",-1e300],1]]", "[[[\"l\",1e300,0],1]]", "[[[\"l\",2147483648],1]]",
		"[[[\"a\",0],1]]", "[[[0],1]]", "[[[true],1]]", "[[[null],1]]",
		"[[[\"a\"],2],[[\"zz\",1],3]]", /* the first applies, the second not: none */
		"[[[\"l\",0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],1]]",
	};
	const char *view = "{\"a\":1,\"l\":[1,2]}";
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cJSON *v = cJSON_Parse(view), *want = cJSON_Parse(view);
		cJSON *p = cJSON_Parse(bad[i]);
		REQUIRE(p != NULL);
		CHECK_MSG(!view_patch_apply(&v, p), "accepted %s", bad[i]);
		CHECK_MSG(cJSON_Compare(v, want, true), "changed by %s", bad[i]);
		cJSON_Delete(v);
		cJSON_Delete(want);
		cJSON_Delete(p);
	}
	/* a path through a member that is a scalar, or past the end of null */
	cJSON *v = NULL, *p = cJSON_Parse("[[[\"a\"],1]]");
	CHECK(!view_patch_apply(&v, p));
	CHECK(v == NULL);
	cJSON_Delete(p);
}

/* Every viewer of every decision of `games` AI games of kind `name` (seeds
 * 1.., 2 to max_seats seats): before + patch == after, through the patch's
 * text; and that text is what view_patch_write writes. Adds the bytes of
 * the whole views and of the patches. */
static void check_kind(const char *name, int games, int max_seats, size_t *full,
		       size_t *patched)
{
	const game_kind *k = game_kind_find(name);
	REQUIRE(k != NULL);
	char err[200];
	void *cfg = k->config_new(NULL, err, sizeof err);
	REQUIRE(cfg != NULL);
	void *shared = k->shared_new ? k->shared_new(NULL, err, sizeof err) : NULL;
	int wrong = 0;
	for (int g = 0; g < games; g++) {
		int seats = 2 + g % (max_seats - 1);
		game_state *st = k->create(cfg, seats, (uint64_t)g + 1, shared, NULL, err, sizeof err);
		REQUIRE(st != NULL);
		for (int d = 0; d < 2000 && !k->is_over(st); d++) {
			cJSON *before[GAME_MAX_SEATS + 1];
			for (int v = -1; v < seats; v++)
				before[v + 1] = k->view(st, v);
			uint32_t pend = k->pending(st);
			game_choice set[GAME_MAX_SEATS];
			for (int i = 0; i < GAME_MAX_SEATS; i++)
				set[i] = i < seats && (pend >> i & 1) ? k->ai_choose(st, i)
								      : GAME_NO_CHOICE;
			REQUIRE(k->apply(st, set, NULL, err, sizeof err) == GAME_OK);
			for (int v = -1; v < seats; v++) {
				cJSON *after = k->view(st, v);
				cJSON *p = view_patch_diff(before[v + 1], after);
				size_t plen, flen;
				char *ptext = json_print(p, &plen);
				free(json_print(after, &flen));
				*full += flen;
				*patched += plen;
				bool written = write_is_diff(before[v + 1], after, p);
				cJSON *read = cJSON_Parse(ptext);
				cJSON *mine = before[v + 1];
				bool ok = written && read && view_patch_apply(&mine, read) &&
					  cJSON_Compare(mine, after, true);
				if (!ok && wrong++ < 3)
					CHECK_MSG(false, "%s seed %d decision %d viewer %d: %s", name,
						  g + 1, d + 1, v, ptext);
				free(ptext);
				cJSON_Delete(read);
				cJSON_Delete(p);
				cJSON_Delete(mine);
				cJSON_Delete(after);
			}
		}
		CHECK(k->is_over(st));
		k->destroy(st);
	}
	CHECK_EQ(wrong, 0);
	if (shared)
		k->shared_free(shared);
	k->config_free(cfg);
}

TEST(view_patch_applied_is_the_view_gems)
{
	size_t full = 0, patched = 0;
	check_kind("gems", 24, 5, &full, &patched);
	printf("# gems: patches %zu bytes for %zu of whole views (%.1f%%)\n", patched, full,
	       100.0 * (double)patched / (double)full);
}

TEST(view_patch_applied_is_the_view_deepfall)
{
	size_t full = 0, patched = 0;
	check_kind("deepfall", 8, 5, &full, &patched);
	printf("# deepfall: patches %zu bytes for %zu of whole views (%.1f%%)\n", patched, full,
	       100.0 * (double)patched / (double)full);
}

TEST(view_patch_applied_is_the_view_crawl)
{
	size_t full = 0, patched = 0;
	check_kind("crawl", 3, 4, &full, &patched);
	printf("# crawl: patches %zu bytes for %zu of whole views (%.1f%%)\n", patched, full,
	       100.0 * (double)patched / (double)full);
}
