/*
 * pg_server.h — a real PostgreSQL 15 server for the store's tests on
 * PostgreSQL (included by their test files only): initdb in a temporary
 * directory, postgres on a free loopback port with its socket in that
 * directory, trust authentication for the role `lair`. synchronous_commit
 * is on (a commit is in the WAL, written to the kernel, before it is
 * acknowledged) but fsync is off: these tests kill processes, never the
 * machine, and a killed server loses nothing the kernel holds — while
 * fsync on a busy 2-core box made each fresh database and each crash
 * recovery take seconds. (tests/cluster runs PostgreSQL with fsync on.) PostgreSQL refuses to run as root: when we are root, initdb
 * and postgres run as nobody in a directory nobody owns. One server per
 * test binary; each test takes a fresh database (test_pg_newdb). It can be
 * killed with -9 (the postmaster and every backend, by pid) and started
 * again on the same data and port. Everything is removed at exit.
 */
#ifndef LAIR_TEST_PG_SERVER_H
#define LAIR_TEST_PG_SERVER_H

#include <dirent.h>
#include <libpq-fe.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "redis_server.h" /* test_free_port, test_pause_ms */

#ifndef PGBIN
#define PGBIN "/usr/lib/postgresql/15/bin"
#endif
#define TEST_PG_NOBODY 65534

typedef struct test_pg {
	pid_t pid; /* the postmaster, our child */
	int port;
	char dir[64];
	int n_db;
} test_pg;

static test_pg test_pg_server;

/* Runs PGBIN/prog with argv as nobody when we are root; output to log. */
static inline pid_t test_pg_spawn(const char *prog, const char *const *args, const char *log)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	if (getuid() == 0 && (setgid(TEST_PG_NOBODY) != 0 || setuid(TEST_PG_NOBODY) != 0))
		_exit(126);
	setenv("LC_ALL", "C", 1);
	char path[256];
	snprintf(path, sizeof path, "%s/%s", PGBIN, prog);
	const char *argv[32] = {prog};
	int n = 1;
	while (args[n - 1] && n < 31) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	execv(path, (char *const *)argv);
	_exit(127);
}

static inline bool test_pg_answers(int port)
{
	char info[128];
	snprintf(info, sizeof info, "host=127.0.0.1 port=%d user=lair dbname=postgres "
		 "connect_timeout=2", port);
	return PQping(info) == PQPING_OK;
}

/* The postmaster on its data directory and port; waits (at most 60 s)
 * until it takes connections. */
static inline bool test_pg_run(test_pg *s)
{
	char data[96], log[96], port[16];
	snprintf(data, sizeof data, "%s/data", s->dir);
	snprintf(log, sizeof log, "%s/postgres.log", s->dir);
	snprintf(port, sizeof port, "%d", s->port);
	const char *args[] = {"-D", data, "-p", port, "-k", s->dir,
			      "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
			      "-c", "synchronous_commit=on", "-c", "full_page_writes=off",
			      "-c", "max_connections=60", NULL};
	s->pid = test_pg_spawn("postgres", args, log);
	if (s->pid < 0)
		return false;
	for (int i = 0; i < 3000; i++) {
		if (test_pg_answers(s->port))
			return true;
		if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
			s->pid = 0;
			return false;
		}
		test_pause_ms(20);
	}
	return false;
}

/* The pids of the postmaster's children (its backends and workers). */
static inline int test_pg_children(pid_t parent, pid_t *out, int max)
{
	DIR *d = opendir("/proc");
	int n = 0;
	struct dirent *de;
	while (d && (de = readdir(d)) && n < max) {
		pid_t pid = (pid_t)atoi(de->d_name);
		if (pid <= 0)
			continue;
		char p[64], line[512];
		snprintf(p, sizeof p, "/proc/%d/stat", (int)pid);
		FILE *f = fopen(p, "r");
		if (!f)
			continue;
		size_t len = fread(line, 1, sizeof line - 1, f);
		fclose(f);
		line[len] = 0;
		char *rp = strrchr(line, ')'); /* after the command name */
		int ppid = 0;
		if (rp && sscanf(rp + 2, "%*c %d", &ppid) == 1 && ppid == parent)
			out[n++] = pid;
	}
	if (d)
		closedir(d);
	return n;
}

static inline bool test_pg_gone(pid_t pid)
{
	return kill(pid, 0) != 0;
}

/* kill -9 of the whole server, as a crash: no shutdown, no checkpoint.
 * Returns once every one of its processes is gone. */
static inline void test_pg_kill9(test_pg *s)
{
	if (s->pid <= 0)
		return;
	pid_t kids[64];
	int n = test_pg_children(s->pid, kids, 64);
	kill(s->pid, SIGKILL);
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	waitpid(s->pid, NULL, 0);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < 500 && !test_pg_gone(kids[i]); j++)
			test_pause_ms(10);
	s->pid = 0;
}

static inline void test_pg_cleanup(void)
{
	test_pg *s = &test_pg_server;
	if (s->pid > 0) {
		kill(s->pid, SIGQUIT); /* immediate shutdown */
		waitpid(s->pid, NULL, 0);
		s->pid = 0;
	}
	if (s->dir[0]) {
		char cmd[128];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "pg_server: cannot remove %s\n", s->dir);
		s->dir[0] = 0;
	}
}

/* The server, started on first use (initdb, then postgres). */
static inline test_pg *test_pg_get(void)
{
	test_pg *s = &test_pg_server;
	if (s->pid > 0)
		return s;
	if (s->dir[0])
		return NULL; /* it failed before */
	strcpy(s->dir, "/tmp/lair-pg-XXXXXX");
	if (!mkdtemp(s->dir))
		return NULL;
	atexit(test_pg_cleanup);
	if (getuid() == 0 && chown(s->dir, TEST_PG_NOBODY, TEST_PG_NOBODY) != 0)
		return NULL;
	char data[96], log[96];
	snprintf(data, sizeof data, "%s/data", s->dir);
	snprintf(log, sizeof log, "%s/initdb.log", s->dir);
	const char *args[] = {"-D", data, "-A", "trust", "-U", "lair", "--no-locale",
			      "-E", "UTF8", "--no-sync", NULL};
	pid_t pid = test_pg_spawn("initdb", args, log);
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "pg_server: initdb failed (see %s)\n", log);
		return NULL;
	}
	for (int attempt = 0; attempt < 5; attempt++) {
		s->port = test_free_port();
		if (test_pg_run(s))
			return s;
	}
	fprintf(stderr, "pg_server: postgres did not start\n");
	return NULL;
}

/* Runs one statement on database db (NULL: postgres); -1 on error, else
 * the first column of the first row as a number (0 without a row). */
static inline long long test_pg_query(const char *url, const char *sql)
{
	PGconn *c = PQconnectdb(url);
	long long v = -1;
	if (PQstatus(c) == CONNECTION_OK) {
		PGresult *r = PQexec(c, sql);
		ExecStatusType st = PQresultStatus(r);
		if (st == PGRES_TUPLES_OK)
			v = PQntuples(r) ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : 0;
		else if (st == PGRES_COMMAND_OK)
			v = strtoll(PQcmdTuples(r), NULL, 10);
		else
			fprintf(stderr, "pg_server: %s: %s", sql, PQerrorMessage(c));
		PQclear(r);
	}
	PQfinish(c);
	return v;
}

/* A fresh, empty database on the server; its URL in url. */
static inline bool test_pg_newdb(char *url, size_t len)
{
	test_pg *s = test_pg_get();
	if (!s)
		return false;
	char admin[128], sql[64];
	snprintf(admin, sizeof admin, "postgresql://lair@127.0.0.1:%d/postgres", s->port);
	snprintf(sql, sizeof sql, "CREATE DATABASE t%d STRATEGY FILE_COPY", ++s->n_db);
	if (test_pg_query(admin, sql) < 0)
		return false;
	snprintf(url, len, "postgresql://lair@127.0.0.1:%d/t%d", s->port, s->n_db);
	return true;
}

#endif
