/*
 * listener.h — a TCP listening socket that laird creates, binds and accepts
 * on itself, on the libuv loop.
 *
 * libwebsockets 4.1 does not reliably listen where it is told (an IPv4
 * address with IPv6 enabled, or any address without AF_NETLINK, ends up on
 * every interface: docs/libwebsockets.md §2), so laird binds exactly the
 * address given and hands each accepted socket to lws (net.c adopts it).
 * The address is an IP literal; "0.0.0.0" means every IPv4 address and "::"
 * every IPv4 and IPv6 address; any other IPv6 address listens on IPv6 only.
 *
 * Everything runs on the loop thread.
 */
#ifndef LAIR_LISTENER_H
#define LAIR_LISTENER_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

#include "netaddr.h"

typedef struct listener listener;

/* A new connection: fd is non-blocking and close-on-exec, and now the
 * callee's to close. */
typedef void (*listener_accept_fn)(void *ud, listener *l, int fd, const netaddr *peer);

/* Binds and listens on addr:port (port 0: a free one). NULL with a
 * message in err (bad address, address in use, not available). */
listener *listener_new(uv_loop_t *loop, const char *addr, int port, listener_accept_fn cb,
		       void *ud, char *err, size_t errlen);

/* What the kernel bound (getsockname): "127.0.0.1:7777", "[::1]:7777". */
const char *listener_name(const listener *l);
int listener_port(const listener *l);
/* The address alone, as the kernel bound it ("127.0.0.1", "::1"). */
const char *listener_addr(const listener *l);

/* Stops accepting and closes the socket; l is freed once libuv has let
 * go of its handles (before uv_run returns). */
void listener_close(listener *l);

#endif
