/*
 * log.h — leveled logging to stderr for both programs.
 *
 * One line per message: time, level, module, text (control characters in
 * the text are shown as '?', so no message can forge a line). The level
 * threshold is process-wide (set once at start-up from a flag); everything
 * else is stateless. Logging never blocks on anything but stderr itself.
 *
 * Under systemd, stderr is a stream to the journal: then each line starts
 * with its syslog priority instead of the time (the journal stamps lines
 * itself), "<7>" debug, "<6>" info, "<4>" warn, "<3>" error (sd-daemon(3)),
 * so that `journalctl -p err` shows errors only.
 */
#ifndef LAIR_LOG_H
#define LAIR_LOG_H

#include <stdbool.h>

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR, LOG_OFF };

void log_set_level(enum log_level level);
enum log_level log_get_level(void);
/* Parses "debug", "info", "warn", "error", "off"; returns -1 if unknown. */
int log_level_parse(const char *name);

/* Journal mode on when $JOURNAL_STREAM names the file stderr is (systemd
 * sets it, as "device:inode", for a service whose stderr goes to the
 * journal; a child with stderr redirected elsewhere inherits the variable
 * but not the stream). Call once at start-up; returns the mode. */
bool log_detect_journal(void);
/* "<3>" ... "<7>" for level in journal mode, "" otherwise: for the few lines
 * written to stderr without log_msg. */
const char *log_prefix(enum log_level level);

void log_msg(enum log_level level, const char *module, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define log_debug(mod, ...) log_msg(LOG_DEBUG, mod, __VA_ARGS__)
#define log_info(mod, ...) log_msg(LOG_INFO, mod, __VA_ARGS__)
#define log_warn(mod, ...) log_msg(LOG_WARN, mod, __VA_ARGS__)
#define log_error(mod, ...) log_msg(LOG_ERROR, mod, __VA_ARGS__)

#endif
