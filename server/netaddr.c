/*
 * netaddr.c — see netaddr.h.
 */
#include "netaddr.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

static const uint8_t v4_mapped_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

/* ::ffff:a.b.c.d becomes a.b.c.d. */
static void unmap(netaddr *a)
{
	if (a->family == AF_INET6 && !memcmp(a->b, v4_mapped_prefix, 12)) {
		a->family = AF_INET;
		memmove(a->b, a->b + 12, 4);
		memset(a->b + 4, 0, 12);
	}
}

bool netaddr_parse(const char *s, netaddr *out)
{
	char tmp[INET6_ADDRSTRLEN + 2];
	size_t len = strlen(s);
	memset(out, 0, sizeof *out);
	if (len >= 2 && s[0] == '[' && s[len - 1] == ']') {
		if (len - 2 >= sizeof tmp)
			return false;
		memcpy(tmp, s + 1, len - 2);
		tmp[len - 2] = 0;
		out->family = AF_INET6;
		if (inet_pton(AF_INET6, tmp, out->b) != 1)
			return false;
		unmap(out);
		return true;
	}
	if (inet_pton(AF_INET, s, out->b) == 1) {
		out->family = AF_INET;
		return true;
	}
	if (inet_pton(AF_INET6, s, out->b) == 1) {
		out->family = AF_INET6;
		unmap(out);
		return true;
	}
	return false;
}

bool netaddr_parse_hostport(const char *s, netaddr *out, int *port)
{
	const char *colon = strrchr(s, ':');
	if (!colon || colon == s || !colon[1])
		return false;
	char host[INET6_ADDRSTRLEN + 2];
	size_t hl = (size_t)(colon - s);
	if (hl >= sizeof host)
		return false;
	memcpy(host, s, hl);
	host[hl] = 0;
	/* An IPv6 address needs its brackets here, or "::1:80" is ambiguous. */
	if (strchr(host, ':') && host[0] != '[')
		return false;
	char *end;
	long p = strtol(colon + 1, &end, 10);
	if (*end || p < 0 || p > 65535 || colon[1] == '-' || colon[1] == '+')
		return false;
	if (!netaddr_parse(host, out))
		return false;
	*port = (int)p;
	return true;
}

void netaddr_format(const netaddr *a, char *out, size_t len)
{
	char tmp[INET6_ADDRSTRLEN];
	if (!inet_ntop(a->family, a->b, tmp, sizeof tmp))
		strlcpy_safe(tmp, "?", sizeof tmp);
	strlcpy_safe(out, tmp, len);
}

void netaddr_format_port(const netaddr *a, int port, char *out, size_t len)
{
	char tmp[INET6_ADDRSTRLEN];
	netaddr_format(a, tmp, sizeof tmp);
	snprintf(out, len, a->family == AF_INET6 ? "[%s]:%d" : "%s:%d", tmp, port);
}

bool netaddr_from_sockaddr(const struct sockaddr *sa, netaddr *out, int *port)
{
	memset(out, 0, sizeof *out);
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
		out->family = AF_INET;
		memcpy(out->b, &in->sin_addr, 4);
		if (port)
			*port = ntohs(in->sin_port);
		return true;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
		out->family = AF_INET6;
		memcpy(out->b, &in6->sin6_addr, 16);
		if (port)
			*port = ntohs(in6->sin6_port);
		unmap(out);
		return true;
	}
	return false;
}

socklen_t netaddr_to_sockaddr(const netaddr *a, int port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof *ss);
	if (a->family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)ss;
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		memcpy(&in->sin_addr, a->b, 4);
		return sizeof *in;
	}
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons((uint16_t)port);
	memcpy(&in6->sin6_addr, a->b, 16);
	return sizeof *in6;
}

bool netaddr_is_any(const netaddr *a)
{
	static const uint8_t zero[16];
	return !memcmp(a->b, zero, a->family == AF_INET ? 4 : 16);
}

static bool prefix_match(const uint8_t *x, const uint8_t *y, int bits)
{
	int whole = bits / 8, rest = bits % 8;
	if (memcmp(x, y, (size_t)whole))
		return false;
	if (!rest)
		return true;
	uint8_t mask = (uint8_t)(0xff << (8 - rest));
	return (x[whole] & mask) == (y[whole] & mask);
}

int netaddr_list_parse(const char *text, netaddr_list *out, char *err, size_t errlen)
{
	netaddr_list l = {0};
	const char *p = text ? text : "";
	for (;;) {
		p += strspn(p, ", \t");
		if (!*p)
			break;
		size_t len = strcspn(p, ", \t");
		char entry[INET6_ADDRSTRLEN + 8];
		if (len >= sizeof entry) {
			snprintf(err, errlen, "\"%.*s...\" is not an address or CIDR block", 40, p);
			goto fail;
		}
		memcpy(entry, p, len);
		entry[len] = 0;
		p += len;
		char *slash = strchr(entry, '/');
		long prefix = -1;
		if (slash) {
			char *end;
			*slash = 0;
			prefix = strtol(slash + 1, &end, 10);
			if (!slash[1] || *end || slash[1] == '-' || slash[1] == '+')
				prefix = -2;
		}
		netaddr a;
		int max = 0;
		if (netaddr_parse(entry, &a))
			max = a.family == AF_INET ? 32 : 128;
		/* A mapped address (::ffff:10.0.0.0/104) would be unmapped above
		 * with its prefix still counted over 128 bits: refuse it. */
		if (slash && a.family == AF_INET && strchr(entry, ':'))
			max = 0;
		if (!max || prefix < -1 || prefix > max) {
			if (slash)
				*slash = '/';
			snprintf(err, errlen, "\"%s\" is not an address or CIDR block", entry);
			goto fail;
		}
		l.v = xrealloc(l.v, (l.n + 1) * sizeof *l.v);
		l.v[l.n].a = a;
		l.v[l.n].prefix = prefix < 0 ? max : (int)prefix;
		l.n++;
	}
	*out = l;
	return 0;
fail:
	free(l.v);
	*out = (netaddr_list){0};
	return -1;
}

bool netaddr_list_match(const netaddr_list *l, const netaddr *a)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].a.family == a->family && prefix_match(l->v[i].a.b, a->b, l->v[i].prefix))
			return true;
	return false;
}

void netaddr_list_free(netaddr_list *l)
{
	free(l->v);
	*l = (netaddr_list){0};
}
