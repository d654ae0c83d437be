/*
 * iprate.c — see iprate.h. A chained hash table of buckets keyed by the
 * address's text (its /64 for IPv6).
 */
#include "iprate.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../common/util.h"
#include "netaddr.h"

#define IPRATE_BUCKETS 1024

struct entry {
	struct entry *next;
	double tokens;
	uint64_t at_ms; /* when tokens was last brought up to date */
	char key[NETADDR_TEXT];
};

struct iprate {
	int count;
	uint64_t period_ms;
	size_t n;
	struct entry *slots[IPRATE_BUCKETS];
};

iprate *iprate_new(int count, uint64_t period_ms)
{
	iprate *r = xcalloc(1, sizeof *r);
	r->count = count;
	r->period_ms = period_ms ? period_ms : 1;
	return r;
}

void iprate_free(iprate *r)
{
	if (!r)
		return;
	for (int i = 0; i < IPRATE_BUCKETS; i++)
		for (struct entry *e = r->slots[i], *next; e; e = next) {
			next = e->next;
			free(e);
		}
	free(r);
}

/* The key an address is counted by: itself, or its /64. */
static void key_of(const char *ip, char *out, size_t len)
{
	netaddr a;
	if (!netaddr_parse(ip, &a)) {
		strlcpy_safe(out, ip, len);
		return;
	}
	if (a.family == AF_INET6)
		memset(a.b + 8, 0, 8);
	netaddr_format(&a, out, len);
}

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h % IPRATE_BUCKETS;
}

/* Brings e's tokens up to now; true when the bucket is full. */
static bool refill(const iprate *r, struct entry *e, uint64_t now)
{
	if (now > e->at_ms) {
		e->tokens += (double)(now - e->at_ms) * r->count / (double)r->period_ms;
		e->at_ms = now;
	}
	if (e->tokens >= r->count) {
		e->tokens = r->count;
		return true;
	}
	return false;
}

bool iprate_take(iprate *r, const char *ip, uint64_t now)
{
	if (r->count <= 0)
		return true;
	char key[NETADDR_TEXT];
	key_of(ip, key, sizeof key);
	unsigned h = hash(key);
	struct entry *e = r->slots[h];
	while (e && strcmp(e->key, key))
		e = e->next;
	if (!e) {
		e = xcalloc(1, sizeof *e);
		strlcpy_safe(e->key, key, sizeof e->key);
		e->tokens = r->count;
		e->at_ms = now;
		e->next = r->slots[h];
		r->slots[h] = e;
		r->n++;
	}
	refill(r, e, now);
	if (e->tokens < 1.0)
		return false;
	e->tokens -= 1.0;
	return true;
}

void iprate_sweep(iprate *r, uint64_t now)
{
	for (int i = 0; i < IPRATE_BUCKETS; i++) {
		struct entry **pp = &r->slots[i];
		while (*pp) {
			struct entry *e = *pp;
			if (refill(r, e, now)) {
				*pp = e->next;
				free(e);
				r->n--;
			} else {
				pp = &e->next;
			}
		}
	}
}

size_t iprate_size(const iprate *r) { return r->n; }
