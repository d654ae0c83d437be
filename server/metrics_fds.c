/*
 * metrics_fds.c — process_open_fds for /metrics without stalling the loop.
 *
 * Linux 6.2 and later give the count as the size of /proc/self/fd: one
 * stat, whatever the count. Older kernels (Debian 12's 6.1) give 0 there,
 * and the count means reading the directory: one entry per descriptor,
 * milliseconds at 20,000 connections. Then the directory is read on
 * libuv's thread pool, and /metrics shows the count of the last reading,
 * which each scrape starts anew (so it is at most one scrape old); only the
 * very first scrape reads it on the loop, when nothing else is waiting.
 */
#include "metrics.h"

#include <dirent.h>
#include <stdbool.h>
#include <sys/stat.h>

long metrics_open_fds_stat(void)
{
	struct stat st;
	if (stat("/proc/self/fd", &st) != 0 || st.st_size <= 0)
		return -1;
	return (long)st.st_size;
}

long metrics_open_fds_dir(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	long n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory's own descriptor */
}

/* One reading in flight at most; the process has one set of descriptors. */
static struct {
	uv_work_t work;
	bool running;
	long counted; /* written by the pool thread, read after it is done */
	long last;    /* the last reading; -1 before the first */
} dir_count = {.last = -1};

static void count_work(uv_work_t *w)
{
	(void)w;
	dir_count.counted = metrics_open_fds_dir();
}

static void count_done(uv_work_t *w, int status)
{
	(void)w;
	dir_count.running = false;
	if (status == 0)
		dir_count.last = dir_count.counted;
}

long metrics_open_fds_counted(uv_loop_t *loop)
{
	if (dir_count.last < 0)
		dir_count.last = metrics_open_fds_dir();
	if (!dir_count.running && uv_queue_work(loop, &dir_count.work, count_work, count_done) == 0)
		dir_count.running = true;
	return dir_count.last;
}

long metrics_open_fds(uv_loop_t *loop)
{
	long n = metrics_open_fds_stat();
	return n >= 0 ? n : metrics_open_fds_counted(loop);
}
