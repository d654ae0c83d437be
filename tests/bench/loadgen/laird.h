/*
 * laird.h — the server under load, as a child process: started with a
 * temporary database on a free loopback port, its output kept (the last
 * few KB, shown when something fails), stopped with SIGTERM (SIGKILL after
 * a bound), and sampled from /proc: resident memory and CPU time.
 */
#ifndef LAIR_LG_LAIRD_H
#define LAIR_LG_LAIRD_H

#include <stdint.h>

#include "lg.h"

typedef struct lg_laird lg_laird;

/* Starts `path` with the flags in args (NULL-terminated, after --port 0
 * and --db-path) and waits (at most 20 s) for it to listen; sets ctx->dst,
 * ctx->host and ctx->pid. NULL with a message on failure. */
lg_laird *lg_laird_start(lg_ctx *ctx, const char *path, const char *const *args, char *err,
			 size_t errlen);
/* SIGTERM, then waits up to `seconds` (then SIGKILL). Returns the exit
 * status (-signal when killed by one) and frees l and its database. */
int lg_laird_stop(lg_laird *l, double seconds);
/* Whether it is still running. */
int lg_laird_running(const lg_laird *l);
/* Its output so far (the last few KB). */
const char *lg_laird_output(const lg_laird *l);

/* /proc figures of any process: VmRSS in KB (-1 when unreadable), and
 * the CPU time of all its threads in ns (user and system). */
long lg_proc_rss_kb(int pid);
uint64_t lg_proc_cpu_ns(int pid);
/* How long the process's main thread (laird's loop) was runnable but
 * waited for a CPU, in ns: the machine's other work, not laird's. */
uint64_t lg_proc_wait_ns(int pid);
/* The same of the thread of pid named `comm` (e.g. "lair-store"); pid 0:
 * this process's main thread. 0 when there is none. */
uint64_t lg_task_wait_ns(int pid, const char *comm);

#endif
