/*
 * main.c — the load generator: one process, one libuv loop, thousands of
 * WebSocket bots against one laird on loopback, costing a small fraction of
 * the server's CPU so that the figures are the server's. `make bench` runs
 * it through tests/bench/run; `make test` runs its smoke mode
 * (tests/e2e/loadgen.test.js); tests/bench/load.js (node) is the protocol's
 * second opinion.
 *
 *   loadgen [--laird PATH] [--idle N] [--play N] [options]
 *     --laird PATH       the server to start for each scenario (a fresh
 *                        temporary database and a free port; default
 *                        build-bench/laird)
 *     --connect H:P      use a running server on 127.0.0.0/8 instead
 *                        (--pid PID: its process, for memory and CPU)
 *     --idle N           the idle scenario with N connections (0: skip)
 *     --play N           the play scenario with N bots, N/5 tables (0: skip)
 *     --think-ms A-B     the bots' think time (1000-3000)
 *     --leave P          chance to leave when it may (0.35)
 *     --change P         chance to change its mind in the window (0.2)
 *     --full-views       the play bots ask for no caps in hello but
 *                        timing: every reveal carries the whole view, as
 *                        an old client gets it (by default they ask for
 *                        view_patch and lean, as our clients do)
 *     --ramp-sec S       bound on opening the connections (120)
 *     --measure-sec S    the play measurement (45)
 *     --in-flight K      connections upgrading at once (256)
 *     --seed S           the bots' randomness (1)
 *     --json FILE        every figure as one JSON object too
 *     --smoke            a few hundred connections for a few seconds
 *     --check            first check the WebSocket client against the
 *                        server, behaviour by behaviour (check.c)
 *     --laird-arg ARG    one more flag for the started laird (repeatable)
 *     --nice N           the scheduler's weight (-20..19; below 0 needs
 *                        root) of laird's session and, when this process
 *                        leads its own (run it under setsid), of the
 *                        generator's: how laird does when both get the
 *                        CPU they ask for, as on a machine of their own
 *
 * Exit status: 0 when every scenario held (all connected, every ping and
 * reveal answered, no error, laird exited cleanly), 1 when one did not, 2
 * on a usage or set-up error. Every phase is bounded; a hard bound kills
 * the server and ends the run whatever happens.
 *
 * Connections: the file limit is raised for this process and the server it
 * starts (setrlimit; raising the hard limit needs CAP_SYS_RESOURCE, else
 * the counts are cut to what the hard limit allows, and the run says so);
 * beyond LG_CONNS_PER_SOURCE connections the bots connect
 * from 127.0.0.2, 127.0.0.3, ... (each source address has its own
 * ephemeral ports). deploy/README.md "Many connections" lists the settings.
 *
 * Where laird's CPU goes under load: run this with --play 20000 and, once
 * it prints "tables playing", `perf record -e cpu-clock --call-graph
 * dwarf -p $(pidof laird) -- sleep 10` beside it (perf report --children).
 * With --play 10000 (load average 6-7, the figure is laird's CPU per
 * decision, five seats):
 *   before, 0.81 ms: writes 28% (lws_write's send, and lws_send_pipe_choked
 *     polling the socket before each), epoll_ctl 15% (every frame asked
 *     lws for RAW_WRITEABLE: an epoll DEL + ADD), malloc and free 25%
 *     (cJSON trees built for every update, printed, freed), the reveal's
 *     rendering 16%, the kind's view 11%;
 *   after, 0.55 ms: sendmsg() straight to the socket 44% (the kernel's
 *     loopback send and receive: what is left scales with the frames),
 *     no epoll_ctl, the kind's view 13% (its cJSON tree), printing 7%,
 *     malloc 14% (mostly the kind's trees).
 * Where window close -> reveal goes: the play report splits it by part
 * from laird's own histograms (the window's timer late, the store's queue,
 * its batch and commit, the result's wait for the loop, the reveal's
 * sending) and gives the CPU waits of laird's loop and store threads and
 * of this process. At 10,000 bots (load average 6.4) close -> sent was
 * mean 1.84 ms, p99 16.3 ms, of which the commit p99 0.5 ms, the batch's
 * start 4.7 ms and the result's wait for the loop 12.5 ms: the tail is
 * threads waiting for a CPU, the loop's above all (deploy/README.md has
 * the table and the 19,800-bot runs).
 * The play report also gives each message type's frames and bytes per
 * decision. The bots ask for view_patch, lean and timing in hello
 * (--full-views: timing only, as an old client), so their reveals carry
 * the changes to the view and say nothing twice: at --play 1000
 * --measure-sec 30, 8,794 bytes and 30.2 frames a decision (load 0.5),
 * 9,804 and 29.3 with view_patch alone, 12,743 and 29.3 with whole views
 * (12,810 and 29.7 before, when every choice had its own status; load
 * average 9). The frames are one per update per seat, and the statuses,
 * spread over the bots' think times, rarely fold within one turn of
 * laird's loop (deploy/README.md).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "../../../common/rng.h"
#include "../../../common/util.h"
#include "../bench.h"
#include "laird.h"
#include "scenario.h"

typedef struct options {
	const char *laird, *connect, *json;
	int pid;
	bool check;
	size_t idle, play;
	lg_idle_opts io;
	lg_play_opts po;
	uint64_t seed;
	const char *extra[16];
	int n_extra;
	int nice; /* 100: leave it */
} options;

static volatile sig_atomic_t child_pid;

/* The hard bound, and ^C: the server goes too. */
static void on_fatal_signal(int sig)
{
	if (child_pid > 0)
		kill(child_pid, SIGKILL);
	static const char msg[] = "loadgen: stopped (time bound or signal); the server was killed\n";
	if (write(2, msg, sizeof msg - 1) < 0)
		_exit(3);
	_exit(sig == SIGALRM ? 3 : 4);
}

static int usage(const char *why)
{
	fprintf(stderr, "loadgen: %s\nusage: loadgen [--laird PATH | --connect HOST:PORT [--pid PID]] "
			"[--idle N] [--play N] [--think-ms A-B] [--leave P] [--change P] [--full-views] "
			"[--ramp-sec S] [--measure-sec S] [--in-flight K] [--seed S] "
			"[--json FILE] [--smoke] [--laird-arg ARG]... [--nice N]\n",
		why);
	return 2;
}

static int parse(int argc, char **argv, options *o)
{
	*o = (options){.laird = "build-bench/laird", .idle = 0, .play = 0, .seed = 1, .nice = 100};
	o->io = (lg_idle_opts){.in_flight = 256, .ramp_sec = 120, .hold_sec = 5, .answer_sec = 60};
	o->po = (lg_play_opts){.in_flight = 256, .ramp_sec = 120, .measure_sec = 45,
			       .think_min_ms = 1000, .think_max_ms = 3000, .window_ms = 1000,
			       .leave_p = 0.35, .change_p = 0.2};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = true;
		if (!strcmp(a, "--full-views")) {
			takes = false;
			o->po.full_views = true;
		} else if (!strcmp(a, "--check")) {
			takes = false;
			o->check = true;
		} else if (!strcmp(a, "--smoke")) {
			takes = false;
			o->idle = 300;
			o->play = 200;
			o->io.ramp_sec = o->po.ramp_sec = 30;
			o->io.hold_sec = 1;
			o->io.answer_sec = 20;
			o->po.measure_sec = 4;
			o->po.think_min_ms = 100;
			o->po.think_max_ms = 400;
		} else if (!v) {
			return usage("a flag lacks its value");
		} else if (!strcmp(a, "--laird")) {
			o->laird = v;
		} else if (!strcmp(a, "--connect")) {
			o->connect = v;
		} else if (!strcmp(a, "--pid")) {
			o->pid = atoi(v);
		} else if (!strcmp(a, "--idle")) {
			o->idle = strtoul(v, NULL, 10);
		} else if (!strcmp(a, "--play")) {
			o->play = strtoul(v, NULL, 10);
		} else if (!strcmp(a, "--think-ms")) {
			if (sscanf(v, "%d-%d", &o->po.think_min_ms, &o->po.think_max_ms) != 2 ||
			    o->po.think_min_ms < 0 || o->po.think_max_ms < o->po.think_min_ms)
				return usage("--think-ms takes A-B, 0 <= A <= B");
		} else if (!strcmp(a, "--leave")) {
			o->po.leave_p = atof(v);
		} else if (!strcmp(a, "--change")) {
			o->po.change_p = atof(v);
		} else if (!strcmp(a, "--ramp-sec")) {
			o->io.ramp_sec = o->po.ramp_sec = atof(v);
		} else if (!strcmp(a, "--measure-sec")) {
			o->po.measure_sec = atof(v);
		} else if (!strcmp(a, "--in-flight")) {
			o->io.in_flight = o->po.in_flight = atoi(v);
		} else if (!strcmp(a, "--seed")) {
			o->seed = strtoull(v, NULL, 10);
		} else if (!strcmp(a, "--json")) {
			o->json = v;
		} else if (!strcmp(a, "--nice")) {
			o->nice = atoi(v);
			if (o->nice < -20 || o->nice > 19)
				return usage("--nice takes -20..19");
		} else if (!strcmp(a, "--laird-arg")) {
			if (o->n_extra == (int)ARRAY_LEN(o->extra))
				return usage("too many --laird-arg");
			o->extra[o->n_extra++] = v;
		} else {
			return usage("unknown flag");
		}
		if (takes)
			i++;
	}
	o->io.n = o->idle;
	o->po.n = o->play - o->play % 5;
	if (o->io.in_flight < 5 || o->po.measure_sec <= 0 || o->io.ramp_sec <= 0)
		return usage("--in-flight >= 5, --measure-sec and --ramp-sec > 0");
	if (!o->check && !o->io.n && !o->po.n)
		return usage("nothing to do: --idle N, --play N, --smoke or --check");
	if (o->play && o->po.n == 0)
		return usage("--play needs at least 5 bots");
	return 0;
}

#define FD_MARGIN 200 /* the server's own files: listener, database, pipes */

/* Room for n connections here and in the server started from here (each
 * process holds one end of each): true, with *most = n, or when the hard
 * limit cannot be raised (no CAP_SYS_RESOURCE) the most it allows; false
 * when the limit cannot be read or allows next to nothing. */
static bool raise_files(size_t n, size_t *most)
{
	rlim_t want = (rlim_t)n + FD_MARGIN;
	struct rlimit rl;
	*most = n;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return false;
	if (rl.rlim_cur >= want && rl.rlim_max >= want)
		return true;
	struct rlimit up = {want, rl.rlim_max > want ? rl.rlim_max : want};
	if (setrlimit(RLIMIT_NOFILE, &up) == 0)
		return true;
	int why = errno;
	rl.rlim_cur = rl.rlim_max; /* at least all the hard limit gives */
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_max <= FD_MARGIN + 5)
		return false;
	*most = (size_t)rl.rlim_max - FD_MARGIN;
	fprintf(stderr, "loadgen: the open-file hard limit is %llu and cannot be raised to %llu "
			"(%s: raising it needs CAP_SYS_RESOURCE, or LimitNOFILE= / ulimit -Hn "
			"first, see deploy/README.md \"Many connections\"): at most %zu "
			"connections here\n",
		(unsigned long long)rl.rlim_max, (unsigned long long)want, strerror(why), *most);
	return true;
}

static void set_sources(lg_ctx *ctx, size_t n)
{
	ctx->n_src = 0;
	if (n <= LG_CONNS_PER_SOURCE)
		return; /* the default source is enough */
	int k = (int)((n + LG_CONNS_PER_SOURCE - 1) / LG_CONNS_PER_SOURCE);
	for (int i = 0; i < k && i < LG_MAX_SOURCES; i++) {
		struct sockaddr_in *s = &ctx->src[ctx->n_src++];
		memset(s, 0, sizeof *s);
		s->sin_family = AF_INET;
		s->sin_addr.s_addr = htonl(0x7f000001u + (uint32_t)i); /* 127.0.0.1 + i */
	}
}

static bool loopback(const struct sockaddr_in *a) { return (ntohl(a->sin_addr.s_addr) >> 24) == 127; }

static int connect_to(lg_ctx *ctx, const options *o)
{
	char host[48];
	int port;
	if (sscanf(o->connect, "%47[^:]:%d", host, &port) != 2 || port <= 0 || port > 65535)
		return usage("--connect takes HOST:PORT");
	memset(&ctx->dst, 0, sizeof ctx->dst);
	ctx->dst.sin_family = AF_INET;
	ctx->dst.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &ctx->dst.sin_addr) != 1 || !loopback(&ctx->dst))
		return usage("--connect: an IPv4 address on 127.0.0.0/8 (loopback only)");
	snprintf(ctx->host, sizeof ctx->host, "%s:%d", host, port);
	ctx->pid = o->pid;
	return 0;
}

enum { CHECK, IDLE, PLAY };

/* Runs one scenario against a fresh laird (or the one given). */
/* --nice: the autogroup of a session (laird.c starts laird in one of its
 * own) weighs all its processes as one task of this nice, against the
 * other sessions. pid 0: this process's, when it leads its session (else
 * the shell's session and all it runs would be weighed so). */
static void set_nice(int pid, int nice)
{
	char path[64];
	const char *who = pid ? "laird's" : "the generator's";
	if (!pid && getsid(0) != getpid()) {
		printf("loadgen: the generator's session left at its nice (run it under setsid)\n");
		return;
	}
	if (pid)
		snprintf(path, sizeof path, "/proc/%d/autogroup", pid);
	else
		snprintf(path, sizeof path, "/proc/self/autogroup");
	FILE *f = fopen(path, "w");
	bool ok = f && fprintf(f, "%d", nice) > 0;
	if (f && fclose(f) != 0)
		ok = false;
	printf("loadgen: %s session at nice %d%s\n", who, nice, ok ? "" : ": REFUSED (not root?)");
	lg_figure(pid ? "laird_nice" : "loadgen_nice", ok ? nice : 0, "nice");
}

static int scenario(lg_ctx *ctx, const options *o, int which)
{
	bool idle = which == IDLE;
	size_t n = which == IDLE ? o->io.n : which == PLAY ? o->po.n : 10;
	char maxc[32], tables[32];
	snprintf(maxc, sizeof maxc, "%zu", n + 100);
	snprintf(tables, sizeof tables, "%zu", n / 5 + 100);
	const char *args[48] = {"--max-connections", maxc, "--max-conns-per-ip", "0",
				"--max-tables-per-lobby", tables, "--idle-timeout-sec", "0",
				"--hello-timeout-sec", "120", "--window-ms", "1000",
				"--turn-timeout-ms", "30000", "--log-level", "warn",
				/* every bot comes from loopback */
				"--new-players-per-ip-hour", "0", "--new-tables-per-ip-min", "0"};
	int na = 20;
	for (int i = 0; i < o->n_extra; i++)
		args[na++] = o->extra[i];
	args[na] = NULL;
	lg_laird *l = NULL;
	if (!o->connect) {
		char err[20000];
		l = lg_laird_start(ctx, o->laird, args, err, sizeof err);
		if (!l) {
			fprintf(stderr, "loadgen: %s\n", err);
			return 2;
		}
		child_pid = ctx->pid;
		printf("loadgen: laird pid %d on %s\n", ctx->pid, ctx->host);
		if (o->nice != 100) {
			set_nice(ctx->pid, o->nice);
			set_nice(0, o->nice);
		}
	}
	set_sources(ctx, n);
	fflush(stdout);
	int rc = which == CHECK ? lg_check_run(ctx)
		 : idle	       ? lg_idle_run(ctx, &o->io)
			       : lg_play_run(ctx, &o->po);
	if (l) {
		bool running = lg_laird_running(l);
		char out[4096];
		strlcpy_safe(out, lg_laird_output(l), sizeof out);
		int st = lg_laird_stop(l, 30);
		child_pid = 0;
		if (!running || st != 0) {
			printf("loadgen: laird %s with status %d; its last output:\n%s\n",
			       running ? "exited" : "had died", st, out);
			rc = 1;
		}
		if (which != CHECK)
			lg_figure(idle ? "idle_laird_exit" : "play_laird_exit", st, "status");
	}
	return rc;
}

int main(int argc, char **argv)
{
	options o;
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc;
	setvbuf(stdout, NULL, _IOLBF, 0);
	size_t most;
	if (!raise_files(MAX(o.io.n, o.po.n), &most))
		return usage("cannot read or raise the open-file limit");
	if (o.io.n > most || o.po.n > most) {
		printf("loadgen: idle %zu and play %zu asked; the file limit allows %zu each\n",
		       o.io.n, o.po.n, most);
		lg_figure("idle_connections_asked", (double)o.io.n, "connections");
		lg_figure("play_connections_asked", (double)o.po.n, "connections");
		o.io.n = MIN(o.io.n, most);
		o.po.n = MIN(o.po.n, most) / 5 * 5;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, on_fatal_signal);
	signal(SIGINT, on_fatal_signal);
	signal(SIGTERM, on_fatal_signal);
	signal(SIGHUP, on_fatal_signal); /* laird is in its own session (laird.c) */
	/* The hard bound: every phase's own bound, with room to spare. */
	double bound = 2 * (o.io.ramp_sec + o.io.hold_sec + o.io.answer_sec) +
		       2 * (o.po.ramp_sec + o.po.measure_sec) + 300;
	alarm((unsigned)bound);

	uv_loop_t loop;
	lg_ctx ctx = {.loop = &loop, .seed = o.seed};
	if (o.connect && (rc = connect_to(&ctx, &o)))
		return rc;
	uv_loop_init(&loop);
	uint64_t tag = o.seed;
	tag = rng_splitmix64(&tag) ^ now_ns();
	for (int i = 0; i < 5; i++, tag /= 36)
		ctx.tag[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[tag % 36];
	printf("loadgen: idle %zu, play %zu (load %s)\n", o.io.n, o.po.n, bench_loadavg());
	rc = 0;
	if (o.check)
		rc |= scenario(&ctx, &o, CHECK);
	if (o.io.n && rc < 2)
		rc |= scenario(&ctx, &o, IDLE);
	if (o.po.n && rc < 2)
		rc |= scenario(&ctx, &o, PLAY);
	if (o.json) {
		FILE *f = fopen(o.json, "w");
		if (!f || fputs(lg_report_json(), f) < 0) {
			fprintf(stderr, "loadgen: cannot write %s\n", o.json);
			rc |= 2;
		}
		if (f)
			fclose(f);
	}
	lg_report_free();
	uv_run(&loop, UV_RUN_NOWAIT);
	if (uv_loop_close(&loop) != 0)
		fprintf(stderr, "loadgen: handles left open at the end\n");
	printf("loadgen: %s\n", rc == 0 ? "every scenario held" : "NOT every scenario held");
	return rc > 2 ? 2 : rc;
}
