/*
 * listener.c — see listener.h. The listening socket is watched with a
 * uv_poll_t; each readable event accepts up to ACCEPTS_PER_EVENT
 * connections (fair to the rest of the loop). Out of descriptors, accept
 * fails while the connection stays queued, which would wake the loop
 * forever: the listener then pauses for ACCEPT_PAUSE_MS.
 */
#include "listener.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/util.h"

#define ACCEPTS_PER_EVENT 64
#define ACCEPT_PAUSE_MS 100

struct listener {
	uv_poll_t poll;
	uv_timer_t pause;
	int fd;
	int port;
	int open_handles; /* freed when both handles have closed */
	listener_accept_fn cb;
	void *ud;
	uint64_t last_warn_ms;
	char addr[NETADDR_TEXT];
	char name[NETADDR_TEXT];
};

static void on_readable(uv_poll_t *p, int status, int events);

static void resume_cb(uv_timer_t *t)
{
	listener *l = t->data;
	uv_poll_start(&l->poll, UV_READABLE, on_readable);
}

static void on_readable(uv_poll_t *p, int status, int events)
{
	listener *l = p->data;
	(void)events;
	if (status < 0)
		return;
	for (int i = 0; i < ACCEPTS_PER_EVENT; i++) {
		struct sockaddr_storage ss;
		socklen_t len = sizeof ss;
		int fd = accept4(l->fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			uint64_t now = now_ms();
			if (now - l->last_warn_ms >= 1000) { /* a line a second, not a flood */
				l->last_warn_ms = now;
				log_warn("net", "accept on %s: %s; pausing %d ms", l->name,
					 strerror(errno), ACCEPT_PAUSE_MS);
			}
			uv_poll_stop(&l->poll);
			uv_timer_start(&l->pause, resume_cb, ACCEPT_PAUSE_MS, 0);
			return;
		}
		netaddr peer;
		if (!netaddr_from_sockaddr((struct sockaddr *)&ss, &peer, NULL)) {
			close(fd);
			continue;
		}
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		l->cb(l->ud, l, fd, &peer);
	}
}

listener *listener_new(uv_loop_t *loop, const char *addr, int port, listener_accept_fn cb,
		       void *ud, char *err, size_t errlen)
{
	netaddr a;
	if (!netaddr_parse(addr, &a)) {
		snprintf(err, errlen, "\"%s\" is not an IP address (e.g. 127.0.0.1, ::1, "
			 "0.0.0.0 for every IPv4 address, :: for every address)", addr);
		return NULL;
	}
	struct sockaddr_storage ss;
	socklen_t sslen = netaddr_to_sockaddr(&a, port, &ss);
	int fd = socket(a.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return NULL;
	}
	int one = 1, v6only = !netaddr_is_any(&a);
	/* A restart must not wait for the old connections' TIME_WAIT. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	/* "::" is every address, IPv4 included; any other IPv6 address is
	 * itself only, whatever the system's default (bindv6only). */
	if (a.family == AF_INET6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof v6only) != 0) {
		snprintf(err, errlen, "IPV6_V6ONLY: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	char want[NETADDR_TEXT];
	netaddr_format_port(&a, port, want, sizeof want);
	if (bind(fd, (struct sockaddr *)&ss, sslen) != 0 || listen(fd, SOMAXCONN) != 0) {
		snprintf(err, errlen, "cannot listen on %s: %s", want, strerror(errno));
		close(fd);
		return NULL;
	}
	struct sockaddr_storage got;
	socklen_t glen = sizeof got;
	netaddr bound;
	int bound_port;
	if (getsockname(fd, (struct sockaddr *)&got, &glen) != 0 ||
	    !netaddr_from_sockaddr((struct sockaddr *)&got, &bound, &bound_port)) {
		snprintf(err, errlen, "getsockname on %s: %s", want, strerror(errno));
		close(fd);
		return NULL;
	}

	listener *l = xcalloc(1, sizeof *l);
	l->fd = fd;
	l->port = bound_port;
	l->cb = cb;
	l->ud = ud;
	netaddr_format(&bound, l->addr, sizeof l->addr);
	netaddr_format_port(&bound, bound_port, l->name, sizeof l->name);
	if (uv_poll_init_socket(loop, &l->poll, fd) != 0) {
		snprintf(err, errlen, "cannot watch the socket of %s", l->name);
		close(fd);
		free(l);
		return NULL;
	}
	uv_timer_init(loop, &l->pause);
	l->poll.data = l->pause.data = l;
	l->open_handles = 2;
	uv_poll_start(&l->poll, UV_READABLE, on_readable);
	return l;
}

const char *listener_name(const listener *l) { return l->name; }
const char *listener_addr(const listener *l) { return l->addr; }
int listener_port(const listener *l) { return l->port; }

static void handle_closed(uv_handle_t *h)
{
	listener *l = h->data;
	if (--l->open_handles == 0)
		free(l);
}

void listener_close(listener *l)
{
	if (!l)
		return;
	uv_timer_stop(&l->pause);
	/* uv_close stops the poll at once (the descriptor leaves epoll). */
	uv_close((uv_handle_t *)&l->poll, handle_closed);
	uv_close((uv_handle_t *)&l->pause, handle_closed);
	close(l->fd);
	l->fd = -1;
}
