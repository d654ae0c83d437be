/*
 * netaddr.h — IP addresses as laird handles them: literals only (a listening
 * address or a trusted proxy is never a name to look up), their text form,
 * and lists of addresses and CIDR blocks (--trusted-proxies).
 *
 * An IPv4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack socket
 * reports for an IPv4 peer) is read as the IPv4 address it carries, so a
 * list entry 10.0.0.0/8 matches a peer whichever socket it came through.
 */
#ifndef LAIR_NETADDR_H
#define LAIR_NETADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Room for any address's text form, brackets and port included. */
#define NETADDR_TEXT 56

typedef struct netaddr {
	int family;    /* AF_INET or AF_INET6 */
	uint8_t b[16]; /* network order; AF_INET uses b[0..3] */
} netaddr;

/* "127.0.0.1", "::1" or "[::1]". false for anything else (names, zones,
 * ports, spaces). */
bool netaddr_parse(const char *s, netaddr *out);

/* "ADDR:PORT": "127.0.0.1:9100", "[::1]:9100" (IPv6 needs brackets);
 * the port 0 to 65535. */
bool netaddr_parse_hostport(const char *s, netaddr *out, int *port);

/* The canonical text: "127.0.0.1", "::1". */
void netaddr_format(const netaddr *a, char *out, size_t len);

/* "127.0.0.1:7777" or "[::1]:7777". */
void netaddr_format_port(const netaddr *a, int port, char *out, size_t len);

/* From a socket address (AF_INET / AF_INET6); false for other families. */
bool netaddr_from_sockaddr(const struct sockaddr *sa, netaddr *out, int *port);

/* The socket address to bind; returns its length. */
socklen_t netaddr_to_sockaddr(const netaddr *a, int port, struct sockaddr_storage *ss);

/* 0.0.0.0 or :: */
bool netaddr_is_any(const netaddr *a);

/* A list of addresses and CIDR blocks. */
typedef struct netaddr_list {
	size_t n;
	struct netaddr_net {
		netaddr a;
		int prefix; /* bits that must match: 32 or 128 for one address */
	} *v;
} netaddr_list;

/* Parses entries separated by commas or spaces: "127.0.0.1, ::1,
 * 10.0.0.0/8, fd00::/8". An empty text is an empty list. 0, or -1 with a
 * message naming the bad entry (out is then left empty). */
int netaddr_list_parse(const char *text, netaddr_list *out, char *err, size_t errlen);
bool netaddr_list_match(const netaddr_list *l, const netaddr *a);
void netaddr_list_free(netaddr_list *l);

#endif
