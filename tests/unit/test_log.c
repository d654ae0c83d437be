/*
 * test_log.c — common/log.c: the level threshold, and one message is one
 * line whatever its text holds (stderr captured into a temporary file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/log.h"
#include "../../common/util.h"
#include "../test.h"

/* Runs the logging calls of `emit` with stderr sent to a temporary file and
 * returns what was written (caller frees). */
static char *capture(void (*emit)(void))
{
	char path[] = "/tmp/lair-test-log-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	fflush(stderr);
	int saved = dup(2);
	dup2(fd, 2);
	emit();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	buf b = {0};
	char err[128];
	buf_read_file(&b, path, 1 << 16, err, sizeof err);
	unlink(path);
	if (!b.data)
		buf_puts(&b, "");
	return b.data;
}

static void emit_forged(void)
{
	enum log_level old = log_get_level();
	log_set_level(LOG_INFO);
	log_info("net", "player %s joined", "eve\n2026-01-01T00:00:00.000Z error app: forged\r\t");
	log_debug("net", "below the threshold");
	log_set_level(old);
}

TEST(log_one_message_is_one_line_and_the_threshold_holds)
{
	char *out = capture(emit_forged);
	REQUIRE(out != NULL);
	int lines = 0;
	for (char *p = out; *p; p++)
		lines += *p == '\n';
	CHECK_EQ(lines, 1);
	CHECK(strstr(out, " info  net: player eve?2026-01-01T00:00:00.000Z error app: forged??") !=
	      NULL);
	CHECK(strstr(out, "below the threshold") == NULL);
	free(out);
}

TEST(log_level_names_parse)
{
	CHECK_EQ(log_level_parse("debug"), LOG_DEBUG);
	CHECK_EQ(log_level_parse("off"), LOG_OFF);
	CHECK_EQ(log_level_parse("loud"), -1);
}
