/*
 * log.c — see log.h. The threshold and the journal mode are the only
 * process-wide state.
 */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static enum log_level threshold = LOG_INFO;
static bool journal;
static const char *const level_names[] = {"debug", "info", "warn", "error", "off"};
/* syslog priorities: LOG_DEBUG 7, LOG_INFO 6, LOG_WARNING 4, LOG_ERR 3 */
static const char *const prefixes[] = {"<7>", "<6>", "<4>", "<3>", ""};

bool log_detect_journal(void)
{
	const char *env = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	char tail;
	journal = env && sscanf(env, "%llu:%llu%c", &dev, &ino, &tail) == 2 &&
		  fstat(STDERR_FILENO, &st) == 0 && (unsigned long long)st.st_dev == dev &&
		  (unsigned long long)st.st_ino == ino;
	return journal;
}

const char *log_prefix(enum log_level level)
{
	return journal && level >= LOG_DEBUG && level <= LOG_OFF ? prefixes[level] : "";
}

void log_set_level(enum log_level level) { threshold = level; }
enum log_level log_get_level(void) { return threshold; }

int log_level_parse(const char *name)
{
	for (int i = 0; i <= LOG_OFF; i++)
		if (strcmp(name, level_names[i]) == 0)
			return i;
	return -1;
}

void log_msg(enum log_level level, const char *module, const char *fmt, ...)
{
	if (level < threshold || level >= LOG_OFF)
		return;
	char line[1024];
	int n;
	if (journal) {
		n = snprintf(line, sizeof line, "%s%-5s %s: ", prefixes[level], level_names[level],
			     module);
	} else {
		char stamp[32];
		struct timespec ts;
		struct tm tm;
		clock_gettime(CLOCK_REALTIME, &ts);
		gmtime_r(&ts.tv_sec, &tm);
		strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
		n = snprintf(line, sizeof line, "%s.%03ldZ %-5s %s: ", stamp,
			     ts.tv_nsec / 1000000L, level_names[level], module);
	}
	va_list ap;
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof line)
		vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	/* One message, one line: a newline or other control byte in the text
	 * (a peer's name, a header) must not forge a line of its own. */
	for (char *p = line; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	fprintf(stderr, "%s\n", line);
}
