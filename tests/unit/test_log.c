/*
 * test_log.c — common/log.c: the level threshold, one message is one line
 * whatever its text holds, and syslog priority prefixes when stderr is the
 * journal (stderr captured into a temporary file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Sets JOURNAL_STREAM to stderr's own device:inode (match) or to another
 * file's (a child whose stderr went elsewhere), then logs every level. */
static bool journal_match;

static void emit_journal(void)
{
	struct stat st;
	char env[64];
	if (journal_match)
		fstat(STDERR_FILENO, &st);
	else
		stat("/", &st);
	snprintf(env, sizeof env, "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	setenv("JOURNAL_STREAM", env, 1);
	bool on = log_detect_journal();
	enum log_level old = log_get_level();
	log_set_level(LOG_DEBUG);
	log_debug("net", "d %d", on);
	log_info("net", "i");
	log_warn("app", "w");
	log_error("laird", "e");
	fprintf(stderr, "%sraw\n", log_prefix(LOG_ERROR));
	log_set_level(old);
	unsetenv("JOURNAL_STREAM");
	log_detect_journal();
}

TEST(log_priority_prefixes_when_stderr_is_the_journal)
{
	journal_match = true;
	char *out = capture(emit_journal);
	REQUIRE(out != NULL);
	CHECK_STR(out, "<7>debug net: d 1\n<6>info  net: i\n<4>warn  app: w\n<3>error laird: e\n"
		       "<3>raw\n");
	free(out);
	/* the variable names another file: plain lines with their time */
	journal_match = false;
	out = capture(emit_journal);
	REQUIRE(out != NULL);
	CHECK(strchr(out, '<') == NULL);
	CHECK(strstr(out, "Z debug net: d 0\n") != NULL);
	CHECK(strstr(out, "Z error laird: e\n") != NULL);
	CHECK(strstr(out, "\nraw\n") != NULL);
	free(out);
	CHECK(!log_detect_journal()); /* unset again */
	CHECK_STR(log_prefix(LOG_ERROR), "");
}
