/*
 * log.h — leveled logging to stderr for both programs.
 *
 * One line per message: time, level, module, text (control characters in
 * the text are shown as '?', so no message can forge a line). The level
 * threshold is process-wide (set once at start-up from a flag); everything
 * else is stateless. Logging never blocks on anything but stderr itself.
 */
#ifndef LAIR_LOG_H
#define LAIR_LOG_H

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR, LOG_OFF };

void log_set_level(enum log_level level);
enum log_level log_get_level(void);
/* Parses "debug", "info", "warn", "error", "off"; returns -1 if unknown. */
int log_level_parse(const char *name);

void log_msg(enum log_level level, const char *module, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define log_debug(mod, ...) log_msg(LOG_DEBUG, mod, __VA_ARGS__)
#define log_info(mod, ...) log_msg(LOG_INFO, mod, __VA_ARGS__)
#define log_warn(mod, ...) log_msg(LOG_WARN, mod, __VA_ARGS__)
#define log_error(mod, ...) log_msg(LOG_ERROR, mod, __VA_ARGS__)

#endif
