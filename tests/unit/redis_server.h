/*
 * redis_server.h — a real redis-server for the tests of the Redis glue and
 * the bus (included by their test files only): started on a free loopback
 * port in a temporary directory, with nothing kept on disk (save "",
 * appendonly no), and killed by the test. It can be killed, stopped
 * (SIGSTOP), resumed and started again on the same port.
 */
#ifndef LAIR_TEST_REDIS_SERVER_H
#define LAIR_TEST_REDIS_SERVER_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct test_redis {
	pid_t pid;
	int port;
	char dir[64];
	char password[64];
} test_redis;

/* A loopback port nobody listens on right now. */
static inline int test_free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof a;
	int port = -1;
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* Does something on the port answer a PING (or ask for a password)? */
static inline bool test_redis_answers(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return false;
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	bool ok = false;
	if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    write(fd, "PING\r\n", 6) == 6) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		char b[64];
		if (poll(&p, 1, 1000) == 1) {
			ssize_t n = read(fd, b, sizeof b - 1);
			ok = n > 0 && (b[0] == '+' || b[0] == '-');
		}
	}
	close(fd);
	return ok;
}

static inline void test_pause_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* Starts redis-server on s->port (a free one when 0); waits until it
 * answers (at most 10 s). */
static inline bool test_redis_start(test_redis *s)
{
	if (!s->dir[0]) {
		strcpy(s->dir, "/tmp/lair-redis-XXXXXX");
		if (!mkdtemp(s->dir))
			return false;
	}
	bool any_port = s->port == 0;
	for (int attempt = 0; attempt < 5; attempt++) {
		if (any_port)
			s->port = test_free_port();
		char port[16], log[128];
		snprintf(port, sizeof port, "%d", s->port);
		snprintf(log, sizeof log, "%s/redis.log", s->dir);
		pid_t pid = fork();
		if (pid < 0)
			return false;
		if (pid == 0) {
			int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
			const char *argv[20] = {"redis-server", "--port", port, "--bind", "127.0.0.1",
						"--save", "", "--appendonly", "no", "--dir", s->dir,
						"--daemonize", "no"};
			int n = 13;
			if (s->password[0]) {
				argv[n++] = "--requirepass";
				argv[n++] = s->password;
			}
			argv[n] = NULL;
			execvp("redis-server", (char *const *)argv);
			_exit(127);
		}
		s->pid = pid;
		/* Wait for it to answer, or to die (port taken: try another). */
		for (int i = 0; i < 500; i++) {
			if (test_redis_answers(s->port))
				return true;
			int st;
			if (waitpid(pid, &st, WNOHANG) == pid) {
				s->pid = 0;
				break;
			}
			test_pause_ms(20);
		}
		if (s->pid) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, NULL, 0);
			s->pid = 0;
		}
		if (!any_port)
			return false;
	}
	return false;
}

static inline void test_redis_signal(test_redis *s, int sig)
{
	if (s->pid > 0)
		kill(s->pid, sig);
}

/* kill -9; the port is free once it returns. */
static inline void test_redis_kill(test_redis *s)
{
	if (s->pid > 0) {
		kill(s->pid, SIGCONT);
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
	}
	s->pid = 0;
}

/* Kills it and removes its directory. */
static inline void test_redis_cleanup(test_redis *s)
{
	test_redis_kill(s);
	if (s->dir[0]) {
		char path[128];
		snprintf(path, sizeof path, "%s/redis.log", s->dir);
		unlink(path);
		rmdir(s->dir);
		s->dir[0] = 0;
	}
}

#endif
