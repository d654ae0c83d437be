/*
 * test_netaddr.c — IP literals, ADDR:PORT, CIDR lists (netaddr.h): what
 * --bind, --metrics-bind and --trusted-proxies accept, and that a mapped
 * IPv4 peer matches an IPv4 block.
 */
#include <arpa/inet.h>
#include <netinet/in.h>

#include "../../server/netaddr.h"
#include "../test.h"

static const char *fmt(const netaddr *a)
{
	static char out[NETADDR_TEXT];
	netaddr_format(a, out, sizeof out);
	return out;
}

TEST(netaddr_parses_literals_only)
{
	netaddr a;
	CHECK(netaddr_parse("127.0.0.1", &a) && a.family == AF_INET);
	CHECK_STR(fmt(&a), "127.0.0.1");
	CHECK(netaddr_parse("::1", &a) && a.family == AF_INET6);
	CHECK_STR(fmt(&a), "::1");
	CHECK(netaddr_parse("[::1]", &a) && a.family == AF_INET6);
	CHECK(netaddr_parse("::", &a) && netaddr_is_any(&a));
	CHECK(netaddr_parse("0.0.0.0", &a) && netaddr_is_any(&a));
	CHECK(!netaddr_is_any((netaddr_parse("10.0.0.1", &a), &a)));
	/* A mapped address is the IPv4 address it carries. */
	CHECK(netaddr_parse("::ffff:192.0.2.1", &a) && a.family == AF_INET);
	CHECK_STR(fmt(&a), "192.0.2.1");
	const char *bad[] = {"localhost", "lo", "", " 127.0.0.1", "127.0.0.1 ", "1.2.3",
			     "127.0.0.1:80", "fe80::1%eth0", "[::1", "::1]", "256.0.0.1"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		CHECK_MSG(!netaddr_parse(bad[i], &a), "\"%s\" parsed", bad[i]);
}

TEST(netaddr_hostport_needs_brackets_for_ipv6)
{
	netaddr a;
	int port = -1;
	CHECK(netaddr_parse_hostport("127.0.0.1:9100", &a, &port) && port == 9100);
	CHECK(netaddr_parse_hostport("[::1]:0", &a, &port) && port == 0 && a.family == AF_INET6);
	char out[NETADDR_TEXT];
	netaddr_format_port(&a, 9100, out, sizeof out);
	CHECK_STR(out, "[::1]:9100");
	const char *bad[] = {"::1:9100", "127.0.0.1", "127.0.0.1:", ":9100", "127.0.0.1:65536",
			     "127.0.0.1:-1", "127.0.0.1:+5", "127.0.0.1:9x", "host:9100"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		CHECK_MSG(!netaddr_parse_hostport(bad[i], &a, &port), "\"%s\" parsed", bad[i]);
}

TEST(netaddr_list_matches_addresses_and_blocks)
{
	netaddr_list l;
	char err[160];
	REQUIRE(netaddr_list_parse("127.0.0.1, ::1 10.0.0.0/8,fd00::/8 192.0.2.128/25", &l, err,
				   sizeof err) == 0);
	CHECK_EQ(l.n, 5);
	const char *yes[] = {"127.0.0.1", "::1", "10.200.3.4", "::ffff:10.1.1.1", "fd12::5",
			     "192.0.2.200"};
	const char *no[] = {"127.0.0.2", "::2", "11.0.0.1", "fe00::1", "192.0.2.1", "0.0.0.0"};
	netaddr a;
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
		REQUIRE(netaddr_parse(yes[i], &a));
		CHECK_MSG(netaddr_list_match(&l, &a), "%s should match", yes[i]);
	}
	for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
		REQUIRE(netaddr_parse(no[i], &a));
		CHECK_MSG(!netaddr_list_match(&l, &a), "%s should not match", no[i]);
	}
	netaddr_list_free(&l);

	REQUIRE(netaddr_list_parse("", &l, err, sizeof err) == 0);
	CHECK_EQ(l.n, 0);
	REQUIRE(netaddr_parse("127.0.0.1", &a));
	CHECK(!netaddr_list_match(&l, &a));
	REQUIRE(netaddr_list_parse("0.0.0.0/0", &l, err, sizeof err) == 0);
	CHECK(netaddr_list_match(&l, &a));
	netaddr_list_free(&l);

	const char *bad[] = {"10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/x", "proxy.example",
			     "10.0.0.0/-1", "::ffff:10.0.0.0/104"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CHECK_MSG(netaddr_list_parse(bad[i], &l, err, sizeof err) != 0, "%s parsed", bad[i]);
		CHECK(l.n == 0 && !l.v);
		CHECK(strstr(err, "is not an address or CIDR block") != NULL);
	}
}
