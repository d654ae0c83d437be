/*
 * json_out.c — see json_out.h.
 */
#include "json_out.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

/* A number's text written last character first into tmp[n..]: its
 * integer part u (digits, least significant first), then the sign; the
 * whole appended to b in reading order. */
static void put_backwards(buf *b, char *tmp, int n, unsigned long long u, bool negative)
{
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (negative)
		tmp[n++] = '-';
	buf_reserve(b, (size_t)n);
	while (n)
		b->data[b->len++] = tmp[--n];
	b->data[b->len] = 0;
}

void json_put_int(buf *b, long long v)
{
	char tmp[24];
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	put_backwards(b, tmp, 0, u, v < 0);
}

/* A number with at most SHORT_DECIMALS decimals (a fraction a view rounded,
 * gems' odds and hand icon: G39), written digit by digit: the text
 * "%1.15g" would give, without printf's and strtod's cost. d is r / 10^p
 * for an integer r: that text (at most 15 digits, so %g keeps it; fixed
 * notation from 1e-4 to below 1e9) reads back to d, as the division of r
 * by 10^p rounds the same exact quotient. The smallest p is tried first,
 * so the text has no trailing zero. False: d is no such number. */
#define SHORT_DECIMALS 6
static bool put_short_fraction(buf *b, double d)
{
	static const double pow10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
	double a = fabs(d);
	if (a < 1e-4 || a >= 1e9)
		return false;
	for (int p = 1; p <= SHORT_DECIMALS; p++) {
		double r = nearbyint(a * pow10[p]);
		if (r / pow10[p] != a)
			continue;
		unsigned long long u = (unsigned long long)r;
		char tmp[32];
		int n = 0;
		for (int i = 0; i < p; i++, u /= 10)
			tmp[n++] = (char)('0' + u % 10); /* the decimals, last first */
		tmp[n++] = '.';
		put_backwards(b, tmp, n, u, d < 0);
		return true;
	}
	return false;
}

static void put_number(buf *b, double d)
{
	if (isnan(d) || isinf(d)) {
		buf_append(b, "null", 4);
	} else if (d == 0 && signbit(d)) {
		buf_append(b, "-0", 2); /* as cJSON writes it */
	} else if (d == floor(d) && fabs(d) < 9007199254740992.0) {
		json_put_int(b, (long long)d);
	} else if (!put_short_fraction(b, d)) {
		/* As cJSON does: 15 digits if they read back exactly, else 17. */
		char tmp[32];
		int n = snprintf(tmp, sizeof tmp, "%1.15g", d);
		if (strtod(tmp, NULL) != d)
			n = snprintf(tmp, sizeof tmp, "%1.17g", d);
		buf_append(b, tmp, (size_t)n);
	}
}

void json_put_string(buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	buf_reserve(b, strlen(s) + 2);
	b->data[b->len++] = '"';
	const char *run = s;
	for (const char *p = s;; p++) {
		unsigned char c = (unsigned char)*p;
		if (c && c >= 0x20 && c != '"' && c != '\\')
			continue;
		buf_append(b, run, (size_t)(p - run));
		if (!c)
			break;
		char esc[6] = {'\\', 0};
		size_t n = 2;
		switch (c) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			esc[1] = 'u';
			esc[2] = '0';
			esc[3] = '0';
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			n = 6;
			break;
		}
		buf_append(b, esc, n);
		run = p + 1;
	}
	buf_append(b, "\"", 1);
}

void json_put_item(buf *b, const cJSON *it)
{
	if (!it) {
		buf_append(b, "null", 4);
		return;
	}
	switch (it->type & 0xFF) {
	case cJSON_NULL: buf_append(b, "null", 4); break;
	case cJSON_False: buf_append(b, "false", 5); break;
	case cJSON_True: buf_append(b, "true", 4); break;
	case cJSON_Number: put_number(b, it->valuedouble); break;
	case cJSON_Raw:
		if (it->valuestring)
			buf_puts(b, it->valuestring);
		break;
	case cJSON_String: json_put_string(b, it->valuestring ? it->valuestring : ""); break;
	case cJSON_Array:
		buf_append(b, "[", 1);
		for (const cJSON *c = it->child; c; c = c->next) {
			json_put_item(b, c);
			if (c->next)
				buf_append(b, ",", 1);
		}
		buf_append(b, "]", 1);
		break;
	case cJSON_Object:
		buf_append(b, "{", 1);
		for (const cJSON *c = it->child; c; c = c->next) {
			json_put_string(b, c->string ? c->string : "");
			buf_append(b, ":", 1);
			json_put_item(b, c);
			if (c->next)
				buf_append(b, ",", 1);
		}
		buf_append(b, "}", 1);
		break;
	default:
		buf_append(b, "null", 4);
		break;
	}
}

char *json_print(const cJSON *item, size_t *len)
{
	buf b = {0};
	buf_reserve(&b, 256);
	json_put_item(&b, item);
	if (len)
		*len = b.len;
	return b.data;
}
