/*
 * laird.c — see laird.h.
 */
#include "laird.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../common/util.h"

#define OUTPUT_KEEP (16 * 1024)
#define MAX_ARGS 64

struct lg_laird {
	uv_process_t proc;
	uv_pipe_t out, err;
	int open_handles; /* process + pipes not yet closed */
	bool exited;
	int64_t status;
	int term_signal;
	char dir[64], db[96];
	char output[OUTPUT_KEEP + 1];
	size_t output_len;
	char listen_host[48];
	int listen_port;
};

static void on_handle_closed(uv_handle_t *h)
{
	lg_laird *l = h->data;
	l->open_handles--;
}

static void on_exit_cb(uv_process_t *p, int64_t status, int sig)
{
	lg_laird *l = p->data;
	l->exited = true;
	l->status = status;
	l->term_signal = sig;
	uv_close((uv_handle_t *)p, on_handle_closed);
}

static void keep_output(lg_laird *l, const char *p, size_t n)
{
	if (n > OUTPUT_KEEP) {
		p += n - OUTPUT_KEEP;
		n = OUTPUT_KEEP;
	}
	if (l->output_len + n > OUTPUT_KEEP) { /* drop the oldest */
		size_t drop = l->output_len + n - OUTPUT_KEEP;
		memmove(l->output, l->output + drop, l->output_len - drop);
		l->output_len -= drop;
	}
	memcpy(l->output + l->output_len, p, n);
	l->output_len += n;
	l->output[l->output_len] = 0;
	if (!l->listen_port) {
		const char *m = strstr(l->output, "listening on ");
		const char *eol = m ? strchr(m, '\n') : NULL;
		const char *colon = eol ? memrchr(m, ':', (size_t)(eol - m)) : NULL;
		if (colon) {
			size_t hl = (size_t)(colon - m) - 13;
			if (hl < sizeof l->listen_host) {
				memcpy(l->listen_host, m + 13, hl);
				l->listen_host[hl] = 0;
				l->listen_port = atoi(colon + 1);
			}
		}
	}
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
	(void)h, (void)suggested;
	static char chunk[4096];
	*b = uv_buf_init(chunk, sizeof chunk);
}

static void on_output(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	lg_laird *l = s->data;
	if (n > 0)
		keep_output(l, b->base, (size_t)n);
	else if (n < 0)
		uv_read_stop(s);
}

static bool listening_or_gone(void *ud)
{
	lg_laird *l = ud;
	return l->listen_port > 0 || l->exited;
}

lg_laird *lg_laird_start(lg_ctx *ctx, const char *path, const char *const *args, char *err,
			 size_t errlen)
{
	lg_laird *l = xcalloc(1, sizeof *l);
	snprintf(l->dir, sizeof l->dir, "/tmp/lair-load-XXXXXX");
	if (!mkdtemp(l->dir)) {
		snprintf(err, errlen, "mkdtemp: %s", strerror(errno));
		free(l);
		return NULL;
	}
	snprintf(l->db, sizeof l->db, "%s/lair.db", l->dir);
	const char *argv[MAX_ARGS + 6];
	int n = 0;
	argv[n++] = path;
	argv[n++] = "--port";
	argv[n++] = "0";
	argv[n++] = "--db-path";
	argv[n++] = l->db;
	for (int i = 0; args && args[i] && n < MAX_ARGS; i++)
		argv[n++] = args[i];
	argv[n] = NULL;

	uv_pipe_init(ctx->loop, &l->out, 0);
	uv_pipe_init(ctx->loop, &l->err, 0);
	l->out.data = l->err.data = l->proc.data = l;
	uv_stdio_container_t stdio[3] = {
		{.flags = UV_IGNORE},
		{.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&l->out},
		{.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&l->err},
	};
	/* Its own session (setsid): with the kernel's autogroups (Debian's
	 * default) each session shares the CPUs fairly with the others, so
	 * laird is not charged for the bots' CPU on a busy machine, as a
	 * server that runs as its own service is not. Signals to this
	 * process's group do not reach it: the exit paths kill it. */
	uv_process_options_t o = {.file = path, .args = (char **)argv, .exit_cb = on_exit_cb,
				  .stdio = stdio, .stdio_count = 3, .flags = UV_PROCESS_DETACHED};
	int rc = uv_spawn(ctx->loop, &l->proc, &o);
	l->open_handles = 2;
	if (rc != 0) {
		snprintf(err, errlen, "cannot start %s: %s", path, uv_strerror(rc));
		uv_close((uv_handle_t *)&l->out, on_handle_closed);
		uv_close((uv_handle_t *)&l->err, on_handle_closed);
		while (l->open_handles)
			uv_run(ctx->loop, UV_RUN_ONCE);
		rmdir(l->dir);
		free(l);
		return NULL;
	}
	l->open_handles = 3;
	uv_read_start((uv_stream_t *)&l->out, on_alloc, on_output);
	uv_read_start((uv_stream_t *)&l->err, on_alloc, on_output);
	if (!lg_run_until(ctx, listening_or_gone, l, 20) || l->exited) {
		snprintf(err, errlen, "laird did not start listening:\n%s", l->output);
		lg_laird_stop(l, 5);
		return NULL;
	}
	ctx->pid = l->proc.pid;
	memset(&ctx->dst, 0, sizeof ctx->dst);
	ctx->dst.sin_family = AF_INET;
	ctx->dst.sin_port = htons((uint16_t)l->listen_port);
	if (inet_pton(AF_INET, l->listen_host, &ctx->dst.sin_addr) != 1) {
		snprintf(err, errlen, "laird listens on %s, not an IPv4 address", l->listen_host);
		lg_laird_stop(l, 5);
		return NULL;
	}
	snprintf(ctx->host, sizeof ctx->host, "%s:%d", l->listen_host, l->listen_port);
	return l;
}

static bool exited(void *ud) { return ((lg_laird *)ud)->exited; }
static bool all_closed(void *ud) { return ((lg_laird *)ud)->open_handles == 0; }

int lg_laird_stop(lg_laird *l, double seconds)
{
	uv_loop_t *loop = l->proc.loop;
	lg_ctx tmp = {.loop = loop};
	if (!l->exited) {
		uv_process_kill(&l->proc, SIGTERM);
		if (!lg_run_until(&tmp, exited, l, seconds)) {
			uv_process_kill(&l->proc, SIGKILL);
			lg_run_until(&tmp, exited, l, 10);
		}
	}
	if (!uv_is_closing((uv_handle_t *)&l->out))
		uv_close((uv_handle_t *)&l->out, on_handle_closed);
	if (!uv_is_closing((uv_handle_t *)&l->err))
		uv_close((uv_handle_t *)&l->err, on_handle_closed);
	lg_run_until(&tmp, all_closed, l, 10);
	int rc = l->term_signal ? -l->term_signal : (int)l->status;
	char p[160];
	const char *suffix[] = {"", "-wal", "-shm", "-journal"};
	for (size_t i = 0; i < ARRAY_LEN(suffix); i++) {
		snprintf(p, sizeof p, "%s%s", l->db, suffix[i]);
		unlink(p);
	}
	rmdir(l->dir);
	free(l);
	return rc;
}

int lg_laird_running(const lg_laird *l) { return !l->exited; }

const char *lg_laird_output(const lg_laird *l) { return l->output; }

long lg_proc_rss_kb(int pid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", pid);
	FILE *f = fopen(path, "r");
	long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* /proc/PID/stat: user + system clock ticks of every thread. */
static uint64_t stat_cpu_ns(int pid)
{
	char path[64], text[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = 0;
	/* Fields after the command (which may hold spaces) in parentheses:
	 * state is field 3, utime 14, stime 15. */
	const char *p = strrchr(text, ')');
	unsigned long long ut = 0, st = 0;
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
			 &st) != 2)
		return 0;
	long hz = sysconf(_SC_CLK_TCK);
	return (ut + st) * (1000000000ull / (unsigned long long)(hz > 0 ? hz : 100));
}

uint64_t lg_proc_cpu_ns(int pid)
{
	/* Each thread's time on a CPU in ns (schedstat's first field): finer
	 * than /proc/PID/stat's clock ticks, which a short run would feel. */
	char path[64], line[128];
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	DIR *d = opendir(path);
	uint64_t ns = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char p[400];
		snprintf(p, sizeof p, "%s/%s/schedstat", path, e->d_name);
		FILE *f = fopen(p, "r");
		unsigned long long t;
		if (f && fgets(line, sizeof line, f) && sscanf(line, "%llu", &t) == 1)
			ns += t;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return ns ? ns : stat_cpu_ns(pid); /* a kernel without schedstat */
}

/* schedstat's second field: time runnable but waiting for a CPU. */
static uint64_t schedstat_wait(const char *path)
{
	char line[128];
	FILE *f = fopen(path, "r");
	unsigned long long run, wait = 0;
	if (!f || !fgets(line, sizeof line, f) || sscanf(line, "%llu %llu", &run, &wait) != 2)
		wait = 0;
	if (f)
		fclose(f);
	return wait;
}

uint64_t lg_proc_wait_ns(int pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", pid, pid);
	return schedstat_wait(path);
}

uint64_t lg_task_wait_ns(int pid, const char *comm)
{
	if (!pid)
		return schedstat_wait("/proc/thread-self/schedstat");
	char path[64], p[400], name[64];
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	DIR *d = opendir(path);
	uint64_t wait = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s/comm", path, e->d_name);
		FILE *f = fopen(p, "r");
		bool match = f && fgets(name, sizeof name, f) &&
			     strncmp(name, comm, strlen(comm)) == 0 && name[strlen(comm)] == '\n';
		if (f)
			fclose(f);
		if (match) {
			snprintf(p, sizeof p, "%s/%s/schedstat", path, e->d_name);
			wait = schedstat_wait(p);
			break;
		}
	}
	if (d)
		closedir(d);
	return wait;
}
