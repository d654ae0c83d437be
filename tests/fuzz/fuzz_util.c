/*
 * fuzz_util.c — what every fuzz target shares: the input reader, the
 * failure report and the "is this valid JSON" check (fuzz.h).
 */
#include "fuzz.h"

#include "../../proto/json_out.h"
#include "../../server/games/game.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "fuzz invariant broken at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

uint8_t fuzz_u8(fuzz_in *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

uint16_t fuzz_u16(fuzz_in *in)
{
	uint16_t hi = fuzz_u8(in);
	return (uint16_t)(hi << 8 | fuzz_u8(in));
}

uint32_t fuzz_u32(fuzz_in *in)
{
	uint32_t hi = fuzz_u16(in);
	return hi << 16 | fuzz_u16(in);
}

uint64_t fuzz_u64(fuzz_in *in)
{
	uint64_t hi = fuzz_u32(in);
	return hi << 32 | fuzz_u32(in);
}

bool fuzz_left(const fuzz_in *in) { return in->n > 0; }

cJSON *fuzz_small_config(const game_kind *k)
{
	/* The smallest level and a 600-round cap (C1, C44): an AI game of 2
	 * seats ends in about 220 decisions instead of 500, most in the
	 * last act and some with the devil slain. */
	if (!strcmp(k->name, "crawl"))
		return cJSON_Parse("{\"width\":24,\"height\":12,\"max_rounds\":600}");
	return NULL;
}

/* A node's type, as cJSON_IsNumber() and the like test it (inline: the
 * tree walks below visit every node of every view). */
#define TYPE(j) ((j)->type & 0xff)

/* A number JSON cannot carry (printed as null), or a member without a
 * key, anywhere in j: the first one found, or NULL. */
static const cJSON *unprintable(const cJSON *j, bool member)
{
	if (member && !j->string)
		return j;
	if (TYPE(j) == cJSON_Number && !isfinite(j->valuedouble))
		return j;
	for (const cJSON *c = j->child; c; c = c->next) {
		const cJSON *bad = unprintable(c, TYPE(j) == cJSON_Object);
		if (bad)
			return bad;
	}
	return NULL;
}

/* strcmp(a, b) == 0 without libc's strcmp: under libFuzzer every strcmp
 * call feeds its comparison hook, which is most of the cost of comparing
 * two large trees. */
static bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static bool ignored(const cJSON *member, const char *const *ignore)
{
	for (; ignore && *ignore && member->string; ignore++)
		if (str_eq(member->string, *ignore))
			return true;
	return false;
}

/* The next member of an object past those ignore names (any element of
 * an array). */
static const cJSON *next_kept(const cJSON *c, bool object, const char *const *ignore)
{
	while (c && object && ignored(c, ignore))
		c = c->next;
	return c;
}

/* Exactly the same tree: types, key order, strings byte for byte, numbers
 * bit for bit (what a client parses must be what the server built), but
 * for object members named in ignore (NULL-terminated; may be NULL). */
static bool same(const cJSON *a, const cJSON *b, const char *const *ignore)
{
	if (TYPE(a) != TYPE(b))
		return false;
	if ((a->string || b->string) && (!a->string || !b->string || !str_eq(a->string, b->string)))
		return false;
	if (TYPE(a) == cJSON_Number)
		return a->valuedouble == b->valuedouble;
	if (TYPE(a) == cJSON_String)
		return str_eq(a->valuestring, b->valuestring);
	bool obj = TYPE(a) == cJSON_Object;
	const cJSON *x = next_kept(a->child, obj, ignore), *y = next_kept(b->child, obj, ignore);
	for (; x && y; x = next_kept(x->next, obj, ignore), y = next_kept(y->next, obj, ignore))
		if (!same(x, y, ignore))
			return false;
	return !x && !y;
}

void fuzz_json_same(const cJSON *a, const cJSON *b, const char *const *ignore, const char *what)
{
	if (same(a, b, ignore))
		return;
	char *ta = json_print(a, NULL), *tb = json_print(b, NULL);
	fuzz_fail(__FILE__, __LINE__, "%s differs:\n%.800s\n--\n%.800s", what, ta, tb);
}

void fuzz_json_check(const cJSON *j, const char *what)
{
	FUZZ_CHECK(j, "%s: NULL instead of a JSON tree", what);
	const cJSON *bad = unprintable(j, false);
	if (!bad)
		return;
	char *s = json_print(j, NULL);
	fuzz_fail(__FILE__, __LINE__, "%s: holds a NaN, an infinity or a member without a "
		  "key: %.300s", what, s);
}

bool fuzz_json_printable(const cJSON *j) { return !unprintable(j, false); }

/* ---- scratch trees ----
 * Text the harness parses only to look at it is parsed into an arena that
 * the next parse reuses: ASan's allocator, at two allocations per node,
 * would cost more than the code that wrote the text. What does not fit
 * (the arena grows to the largest tree seen) comes from malloc, and goes
 * back to it when the tree is deleted. */
static struct {
	char *buf;
	size_t cap, used, missing;
} arena;

static void *scratch_alloc(size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (arena.buf && n <= arena.cap - arena.used) {
		void *p = arena.buf + arena.used;
		arena.used += n;
		return p;
	}
	arena.missing += n;
	return malloc(n);
}

static void scratch_free(void *p)
{
	uintptr_t at = (uintptr_t)p, from = (uintptr_t)arena.buf;
	if (!(at >= from && at - from < arena.cap))
		free(p);
}

static cJSON_Hooks scratch_hooks = {scratch_alloc, scratch_free};

cJSON *fuzz_scratch_parse(const char *s, size_t len)
{
	if (arena.missing) {
		arena.cap = (arena.cap + arena.missing) * 2;
		free(arena.buf);
		arena.buf = malloc(arena.cap);
		FUZZ_CHECK(arena.buf, "out of memory");
		arena.missing = 0;
	}
	arena.used = 0;
	cJSON_InitHooks(&scratch_hooks);
	cJSON *j = cJSON_ParseWithLength(s, len);
	cJSON_InitHooks(NULL);
	return j;
}

void fuzz_scratch_delete(cJSON *j)
{
	cJSON_InitHooks(&scratch_hooks);
	cJSON_Delete(j);
	cJSON_InitHooks(NULL);
}

char *fuzz_json_text(const cJSON *j, const char *what)
{
	FUZZ_CHECK(j, "%s: NULL instead of a JSON tree", what);
	size_t len = 0;
	char *s = json_print(j, &len); /* the printer laird sends with */
	FUZZ_CHECK(s && strlen(s) == len, "%s: json_print failed or miscounted", what);
	FUZZ_CHECK(!unprintable(j, false), "%s: holds a NaN, an infinity or a member without "
		   "a key: %.300s", what, s);
	cJSON *back = fuzz_scratch_parse(s, len);
	FUZZ_CHECK(back, "%s: printed text is not valid JSON: %.200s", what, s);
	FUZZ_CHECK(same(j, back, NULL), "%s: the text does not read back to the same tree: %.300s",
		   what, s);
	fuzz_scratch_delete(back);
	return s;
}

bool fuzz_utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	while (i < n) {
		unsigned c = s[i];
		int more;
		unsigned min, cp;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			more = 1, min = 0x80, cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			more = 2, min = 0x800, cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			more = 3, min = 0x10000, cp = c & 0x07;
		} else {
			return false;
		}
		if (n - i <= (size_t)more)
			return false;
		for (int k = 1; k <= more; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += (size_t)more + 1;
	}
	return true;
}
