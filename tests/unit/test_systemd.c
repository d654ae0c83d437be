/*
 * test_systemd.c — server/systemd.c speaks sd_notify(3) as systemd reads
 * it (a datagram on the AF_UNIX socket $NOTIFY_SOCKET names, a path or
 * "@abstract"), and the laird next to this test binary sends READY=1 only
 * once it accepts connections, and STOPPING=1 on SIGTERM (Type=notify in
 * deploy/laird.service).
 */
#include "../../server/systemd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../test.h"

/* A datagram socket bound to name (a path, or "@abstract"); -1 on error. */
static int listen_at(const char *name)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t len = strlen(name);
	memcpy(sa.sun_path, name, len);
	if (name[0] == '@')
		sa.sun_path[0] = 0;
	socklen_t salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, salen) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The next datagram within ms, NUL-terminated into out ("" on timeout). */
static const char *recv_within(int fd, char *out, size_t cap, int ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	out[0] = 0;
	if (poll(&p, 1, ms) == 1) {
		ssize_t n = recv(fd, out, cap - 1, 0);
		out[n > 0 ? n : 0] = 0;
	}
	return out;
}

TEST(systemd_notify_sends_one_datagram_to_a_path_or_an_abstract_socket)
{
	char path[64], got[256];
	snprintf(path, sizeof path, "/tmp/lair-test-notify-%d", (int)getpid());
	unlink(path);
	int fd = listen_at(path);
	REQUIRE(fd >= 0);
	setenv("NOTIFY_SOCKET", path, 1);
	CHECK_EQ(systemd_notify("READY=1\nSTATUS=x"), 1);
	CHECK_STR(recv_within(fd, got, sizeof got, 5000), "READY=1\nSTATUS=x");
	close(fd);
	unlink(path);

	char abstract[64];
	snprintf(abstract, sizeof abstract, "@lair-test-notify-%d", (int)getpid());
	fd = listen_at(abstract);
	REQUIRE(fd >= 0);
	setenv("NOTIFY_SOCKET", abstract, 1);
	CHECK_EQ(systemd_notify("STOPPING=1"), 1);
	CHECK_STR(recv_within(fd, got, sizeof got, 5000), "STOPPING=1");
	close(fd);

	/* nobody listens there any more: an error, not a hang or a crash */
	setenv("NOTIFY_SOCKET", path, 1);
	CHECK_EQ(systemd_notify("READY=1"), -1);
	setenv("NOTIFY_SOCKET", "relative/path", 1);
	CHECK_EQ(systemd_notify("READY=1"), -1);
	CHECK_EQ(errno, EINVAL);
	unsetenv("NOTIFY_SOCKET");
	CHECK_EQ(systemd_notify("READY=1"), 0); /* not under systemd */
}

TEST(systemd_laird_is_ready_only_once_it_accepts_and_says_stopping)
{
	char exe[PATH_MAX], laird[PATH_MAX + 8];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	REQUIRE(n > 0);
	exe[n] = 0;
	/* build/tests/test_systemd -> build/laird */
	snprintf(laird, sizeof laird, "%s/../laird", dirname(exe));
	if (access(laird, X_OK) != 0) {
		printf("  (skipped: no laird at %s; make builds it)\n", laird);
		return;
	}
	char dir[] = "/tmp/lair-test-notify-XXXXXX", sock[80], db[80];
	REQUIRE(mkdtemp(dir));
	snprintf(sock, sizeof sock, "%s/notify", dir);
	snprintf(db, sizeof db, "%s/lair.db", dir);
	int fd = listen_at(sock);
	REQUIRE(fd >= 0);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		setenv("NOTIFY_SOCKET", sock, 1);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execl(laird, "laird", "--port", "0", "--db-path", db, "--log-level", "error",
		      (char *)NULL);
		_exit(127);
	}
	char got[256];
	recv_within(fd, got, sizeof got, 30000); /* bounded: ASan start-up */
	CHECK_MSG(!strncmp(got, "READY=1\nSTATUS=serving on 127.0.0.1:", 36), "got \"%s\"", got);
	int port = atoi(got + 36);
	CHECK(port > 0);
	/* ready means accepting: a connection succeeds at once */
	int c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr);
	CHECK(connect(c, (struct sockaddr *)&sin, sizeof sin) == 0);
	close(c);
	kill(pid, SIGTERM);
	CHECK_STR(recv_within(fd, got, sizeof got, 30000), "STOPPING=1\nSTATUS=draining");
	int status = 0;
	pid_t w = 0;
	for (int i = 0; i < 3000 && (w = waitpid(pid, &status, WNOHANG)) == 0; i++)
		poll(NULL, 0, 10); /* bounded: 30 s */
	if (w == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	CHECK_MSG(w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "laird did not exit 0 after SIGTERM");
	close(fd);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}
