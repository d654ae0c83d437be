/*
 * systemd.c — see systemd.h.
 */
#include "systemd.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int systemd_notify(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	if (!path || !*path)
		return 0;
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof sa.sun_path) {
		errno = EINVAL;
		return -1;
	}
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')
		sa.sun_path[0] = 0; /* abstract: the name is not NUL-terminated */
	socklen_t salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len +
				      (path[0] == '/'));
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	ssize_t n = sendto(fd, state, strlen(state), MSG_DONTWAIT | MSG_NOSIGNAL,
			   (const struct sockaddr *)&sa, salen);
	int saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)strlen(state) ? 1 : -1;
}
