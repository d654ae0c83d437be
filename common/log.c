/*
 * log.c — see log.h. The threshold is the only process-wide state.
 */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static enum log_level threshold = LOG_INFO;
static const char *const level_names[] = {"debug", "info", "warn", "error", "off"};

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
	char stamp[32];
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);

	char line[1024];
	int n = snprintf(line, sizeof line, "%s.%03ldZ %-5s %s: ", stamp,
			 ts.tv_nsec / 1000000L, level_names[level], module);
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
