/*
 * iprate.h — how many of something one client address may do in a period
 * (new players, new tables): a token bucket per address, holding `count`
 * tokens and refilling `count` per `period_ms`, so a burst of count is
 * allowed and then count per period.
 *
 * IPv6 addresses are counted by their /64 (what one host or one customer
 * usually gets: rotating within it gains nothing). Memory: one small entry
 * per address that took a token and whose bucket is not full again;
 * iprate_sweep forgets the full ones.
 */
#ifndef LAIR_IPRATE_H
#define LAIR_IPRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct iprate iprate;

/* count 0: no limit (every take succeeds). */
iprate *iprate_new(int count, uint64_t period_ms);
void iprate_free(iprate *r);

/* Takes one token for the address (text, as conn_peer_ip gives it) at now
 * (ms, monotonic). false: none left, the action is refused. */
bool iprate_take(iprate *r, const char *ip, uint64_t now);

/* Forgets the addresses whose bucket is full again. */
void iprate_sweep(iprate *r, uint64_t now);

/* Addresses remembered (tests). */
size_t iprate_size(const iprate *r);

#endif
