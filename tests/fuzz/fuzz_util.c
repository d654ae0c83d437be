/*
 * fuzz_util.c — what both fuzz targets share: the input reader, the
 * failure report and the "is this valid JSON" check (fuzz.h).
 */
#include "fuzz.h"

#include "../../proto/json_out.h"

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

/* A number JSON cannot carry (printed as null), or a member without a
 * key, anywhere in j: the first one found, or NULL. */
static const cJSON *unprintable(const cJSON *j, bool member)
{
	if (member && !j->string)
		return j;
	if (cJSON_IsNumber(j) && !isfinite(j->valuedouble))
		return j;
	for (const cJSON *c = j->child; c; c = c->next) {
		const cJSON *bad = unprintable(c, cJSON_IsObject(j));
		if (bad)
			return bad;
	}
	return NULL;
}

/* Exactly the same tree: types, key order, strings byte for byte, numbers
 * bit for bit (what a client parses must be what the server built). */
static bool same(const cJSON *a, const cJSON *b)
{
	if ((a->type & 0xff) != (b->type & 0xff))
		return false;
	if ((a->string || b->string) &&
	    (!a->string || !b->string || strcmp(a->string, b->string) != 0))
		return false;
	if (cJSON_IsNumber(a))
		return a->valuedouble == b->valuedouble;
	if (cJSON_IsString(a))
		return strcmp(a->valuestring, b->valuestring) == 0;
	const cJSON *x = a->child, *y = b->child;
	for (; x && y; x = x->next, y = y->next)
		if (!same(x, y))
			return false;
	return !x && !y;
}

bool fuzz_json_printable(const cJSON *j) { return !unprintable(j, false); }

char *fuzz_json_text(const cJSON *j, const char *what)
{
	FUZZ_CHECK(j, "%s: NULL instead of a JSON tree", what);
	size_t len = 0;
	char *s = json_print(j, &len); /* the printer laird sends with */
	FUZZ_CHECK(s && strlen(s) == len, "%s: json_print failed or miscounted", what);
	FUZZ_CHECK(!unprintable(j, false), "%s: holds a NaN, an infinity or a member without "
		   "a key: %.300s", what, s);
	cJSON *back = cJSON_ParseWithLength(s, len);
	FUZZ_CHECK(back, "%s: printed text is not valid JSON: %.200s", what, s);
	FUZZ_CHECK(same(j, back), "%s: the text does not read back to the same tree: %.300s",
		   what, s);
	cJSON_Delete(back);
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
