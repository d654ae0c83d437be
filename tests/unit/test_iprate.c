/*
 * test_iprate.c — per-address buckets (iprate.h): a burst of count, then
 * count per period; IPv6 addresses by their /64; full buckets forgotten.
 */
#include "../../server/iprate.h"
#include "../test.h"

TEST(iprate_burst_then_refill)
{
	iprate *r = iprate_new(3, 60000); /* 3 a minute */
	uint64_t t = 1000000;
	for (int i = 0; i < 3; i++)
		CHECK(iprate_take(r, "192.0.2.1", t));
	CHECK(!iprate_take(r, "192.0.2.1", t));
	CHECK(iprate_take(r, "192.0.2.2", t)); /* another address: its own bucket */
	CHECK(!iprate_take(r, "192.0.2.1", t + 19999)); /* not a whole token yet */
	CHECK(iprate_take(r, "192.0.2.1", t + 20000));
	CHECK(!iprate_take(r, "192.0.2.1", t + 20000));
	iprate_free(r);
}

TEST(iprate_counts_ipv6_by_its_64)
{
	iprate *r = iprate_new(2, 3600000);
	CHECK(iprate_take(r, "2001:db8:1:2::1", 0));
	CHECK(iprate_take(r, "2001:db8:1:2:ffff::9", 0)); /* same /64 */
	CHECK(!iprate_take(r, "2001:db8:1:2:abcd::1", 0));
	CHECK(iprate_take(r, "2001:db8:1:3::1", 0)); /* the next /64 */
	CHECK_EQ(iprate_size(r), 2);
	iprate_free(r);
}

TEST(iprate_forgets_full_buckets_and_zero_is_no_limit)
{
	iprate *r = iprate_new(2, 1000);
	CHECK(iprate_take(r, "10.0.0.1", 0));
	CHECK(iprate_take(r, "10.0.0.2", 0));
	CHECK(iprate_take(r, "10.0.0.2", 0));
	iprate_sweep(r, 400); /* 10.0.0.1: 1.8 of 2; 10.0.0.2: 0.8 */
	CHECK_EQ(iprate_size(r), 2);
	iprate_sweep(r, 1000); /* both full again */
	CHECK_EQ(iprate_size(r), 0);
	iprate_free(r);
	iprate *none = iprate_new(0, 1000);
	for (int i = 0; i < 1000; i++)
		CHECK(iprate_take(none, "10.0.0.1", 0));
	CHECK_EQ(iprate_size(none), 0);
	iprate_free(none);
}
