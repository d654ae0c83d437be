/*
 * test_config.c — laird's settings: defaults, flags (both spellings, bools,
 * sizes), the JSON config file (flags win; a bad file changes nothing), and
 * --help listing every flag.
 */
#include "../../server/config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../common/log.h"
#include "../../common/util.h"
#include "../test.h"

static int parse(laird_config *cfg, char *err, size_t errlen, int argc, ...)
	__attribute__((sentinel));

/* parse(cfg, err, errlen, argc-ignored, "--a", "b", NULL) */
static int parse(laird_config *cfg, char *err, size_t errlen, int argc, ...)
{
	char *argv[32] = {"laird"};
	int n = 1;
	va_list ap;
	va_start(ap, argc);
	for (char *a; n < 31 && (a = va_arg(ap, char *));)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	err[0] = 0;
	return config_parse_args(cfg, n, argv, err, errlen);
}

static char *write_temp(const char *text)
{
	static char path[64];
	strcpy(path, "/tmp/lair-test-config-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	size_t len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

TEST(config_defaults_start_a_local_server)
{
	laird_config c;
	config_defaults(&c);
	CHECK_STR(c.bind, "127.0.0.1");
	CHECK_EQ(c.port, 7777);
	CHECK_STR(c.db_path, "./var/lair.db");
	CHECK_EQ(c.window_ms, 1000); /* the one-second window (proto/table.md §3) */
	CHECK(c.max_connections >= 10000); /* the 10,000-connection benchmark */
	CHECK(c.max_frame_bytes > 0 && c.rate_burst >= c.rate_msgs_per_sec);
	CHECK_EQ(c.log_level, LOG_INFO);
	CHECK(!c.trust_proxy);
}

TEST(config_flags_both_spellings_and_bools)
{
	laird_config c;
	char err[256];
	config_defaults(&c);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--port", "9000", "--bind=0.0.0.0",
		       "--max-frame-bytes", "8k", "--max-send-queue=1m", "--trust-proxy",
		       "--no-allow-fixed-seed", "--log-level", "debug", NULL),
		 0);
	CHECK_EQ(c.port, 9000);
	CHECK_STR(c.bind, "0.0.0.0");
	CHECK_EQ(c.max_frame_bytes, 8192);
	CHECK_EQ(c.max_send_queue, 1024 * 1024);
	CHECK(c.trust_proxy);
	CHECK(!c.allow_fixed_seed);
	CHECK_EQ(c.log_level, LOG_DEBUG);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--trust-proxy=false", NULL), 0);
	CHECK(!c.trust_proxy);
}

TEST(config_usage_errors_name_the_problem)
{
	laird_config c;
	char err[256];
	config_defaults(&c);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--bogus", NULL), -1);
	CHECK(strstr(err, "unknown flag --bogus") != NULL);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--port", NULL), -1);
	CHECK(strstr(err, "--port needs a value") != NULL);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--port", "12x", NULL), -1);
	CHECK(strstr(err, "wants a number") != NULL);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--port=-1", NULL), -1);
	CHECK(strstr(err, "between 0 and 65535") != NULL);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--log-level", "loud", NULL), -1);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--trust-proxy=maybe", NULL), -1);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "stray", NULL), -1);
	CHECK(strstr(err, "unexpected argument") != NULL);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--max_connections", "5", NULL), -1);
	/* a suffix that would overflow is refused, not multiplied (undefined) */
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--max-send-queue", "9223372036854775807k", NULL),
		 -1);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--max-send-queue=-9223372036854775807m", NULL),
		 -1);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--max-frame-bytes", "99999999999999999999", NULL),
		 -1);
	CHECK_EQ(c.port, 7777); /* nothing above changed it */
}

TEST(config_file_then_flags_win_whatever_the_order)
{
	char *path = write_temp("{\"port\": 8123, \"db_path\": \"/tmp/x.db\", "
				"\"trust_proxy\": true, \"log_level\": \"warn\", "
				"\"max_frame_bytes\": 4096}");
	REQUIRE(path);
	laird_config c;
	char err[256];
	config_defaults(&c);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--port", "9001", "--config", path, NULL), 0);
	CHECK_EQ(c.port, 9001);
	CHECK_STR(c.db_path, "/tmp/x.db");
	CHECK(c.trust_proxy);
	CHECK_EQ(c.log_level, LOG_WARN);
	CHECK_EQ(c.max_frame_bytes, 4096);
	unlink(path);
}

TEST(config_bad_file_changes_nothing)
{
	static const char *const bad[] = {
		"{\"port\": 8123, \"no_such\": 1}", /* unknown key, after a good one */
		"{\"port\": \"8123\"}",             /* wrong type */
		"{\"port\": 80.5}",
		"{\"port\": 1e300}",
		"{\"trust_proxy\": 1}",
		"[1, 2]",
		"{\"port\": ",
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		char *path = write_temp(bad[i]);
		REQUIRE(path);
		laird_config c, before;
		char err[256] = "";
		config_defaults(&c);
		before = c;
		CHECK_MSG(config_load_file(&c, path, err, sizeof err) == -1, "accepted %s", bad[i]);
		CHECK_MSG(err[0] != 0, "no message for %s", bad[i]);
		CHECK_MSG(memcmp(&c, &before, sizeof c) == 0, "%s changed the config", bad[i]);
		unlink(path);
	}
	laird_config c;
	char err[256];
	config_defaults(&c);
	CHECK_EQ(config_load_file(&c, "/nonexistent/laird.json", err, sizeof err), -1);
	CHECK(strstr(err, "/nonexistent/laird.json") != NULL);
}

TEST(config_usage_lists_every_flag_with_its_default)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	REQUIRE(f);
	config_usage(f);
	fclose(f);
	static const char *const flags[] = {
		"--bind ADDR", "--port N", "--trust-proxy", "--db-path FILE", "--max-connections N",
		"--max-conns-per-ip N", "--max-frame-bytes BYTES", "--rate-msgs-per-sec N",
		"--rate-burst N", "--rate-abuse-strikes N", "--idle-timeout-sec N",
		"--hello-timeout-sec N", "--max-send-queue BYTES", "--max-lobbies N",
		"--max-tables-per-lobby N", "--max-tables-per-player N", "--max-chat-bytes N",
		"--turn-timeout-ms N", "--window-ms N", "--ai-pacing-ms N", "--reveal-pause-ms N",
		"--drain-delay-ms N", "--allow-fixed-seed", "--log-level LEVEL", "--config FILE",
		"--help",
	};
	for (size_t i = 0; i < ARRAY_LEN(flags); i++)
		CHECK_MSG(strstr(text, flags[i]) != NULL, "%s missing from --help", flags[i]);
	CHECK(strstr(text, "(default: 7777)") != NULL);
	CHECK(strstr(text, "(default: ./var/lair.db)") != NULL);
	CHECK(strstr(text, "(default: info)") != NULL);
	free(text);
}

/* Loads text as a config file over the defaults; returns load's result. */
static int load_text(const char *text, laird_config *c, char *err, size_t errlen)
{
	char *path = write_temp(text);
	if (!path)
		return -2;
	config_defaults(c);
	err[0] = 0;
	int rc = config_load_file(c, path, err, errlen);
	unlink(path);
	return rc;
}

TEST(config_syntax_error_says_line_and_column)
{
	laird_config c;
	char err[256];
	/* the missing comma: line 3, where "port" starts at column 3 */
	CHECK_EQ(load_text("{\n  \"bind\": \"127.0.0.1\"\n  \"port\": 1\n}\n", &c, err, sizeof err),
		 -1);
	CHECK_MSG(strstr(err, "line 3, column 3") != NULL, "got: %s", err);
	CHECK(strstr(err, "JSON syntax error") != NULL);
	/* cut short: the error is at the end, line 2 */
	CHECK_EQ(load_text("{\"port\":\n", &c, err, sizeof err), -1);
	CHECK_MSG(strstr(err, "line 2, column 1") != NULL, "got: %s", err);
	/* trailing text after the object is an error, not ignored */
	CHECK_EQ(load_text("{\"port\": 9000}\n}\n", &c, err, sizeof err), -1);
	CHECK_MSG(strstr(err, "line 2, column 1") != NULL, "got: %s", err);
	CHECK_EQ(c.port, 7777);
	/* an empty file */
	CHECK_EQ(load_text("", &c, err, sizeof err), -1);
	CHECK_MSG(strstr(err, "line 1, column 1") != NULL, "got: %s", err);
}

TEST(config_duplicate_key_is_an_error)
{
	laird_config c;
	char err[256];
	CHECK_EQ(load_text("{\"port\": 9000, \"bind\": \"::\", \"port\": 9001}", &c, err, sizeof err),
		 -1);
	CHECK_MSG(strstr(err, "\"port\" is set twice") != NULL, "got: %s", err);
	CHECK_EQ(c.port, 7777);
	CHECK_STR(c.bind, "127.0.0.1");
}

TEST(config_sizes_take_k_and_m_in_json_as_in_help)
{
	laird_config c;
	char err[256];
	CHECK_EQ(load_text("{\"max_send_queue\": \"256k\", \"max_frame_bytes\": \"1m\"}", &c, err,
			   sizeof err),
		 0);
	CHECK_EQ(c.max_send_queue, 256 * 1024);
	CHECK_EQ(c.max_frame_bytes, 1024 * 1024);
	CHECK_EQ(load_text("{\"max_send_queue\": 4096}", &c, err, sizeof err), 0);
	CHECK_EQ(c.max_send_queue, 4096);
	/* a count is not a size: "20k" stays a type error there */
	CHECK_EQ(load_text("{\"max_connections\": \"20k\"}", &c, err, sizeof err), -1);
	CHECK_EQ(load_text("{\"max_send_queue\": \"256q\"}", &c, err, sizeof err), -1);
	CHECK_MSG(strstr(err, "max_send_queue wants a number") != NULL, "got: %s", err);
	CHECK_EQ(load_text("{\"max_send_queue\": \"9999999m\"}", &c, err, sizeof err), -1);
	CHECK_MSG(strstr(err, "between") != NULL, "got: %s", err);
	CHECK_EQ(c.max_send_queue, 256 * 1024);
}

TEST(config_cluster_needs_store_and_redis_together)
{
	laird_config c;
	char err[400];
	config_defaults(&c);
	CHECK_EQ(config_check(&c, err, sizeof err), 0); /* neither: single node */
	CHECK(!config_cluster(&c));
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--redis", "127.0.0.1:6379", NULL), 0);
	CHECK_EQ(config_check(&c, err, sizeof err), -1);
	CHECK_MSG(strstr(err, "--store is missing") != NULL, "%s", err);
	config_defaults(&c);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--store", "postgresql://lair@db/lair", NULL), 0);
	CHECK_EQ(config_check(&c, err, sizeof err), -1);
	CHECK_MSG(strstr(err, "--redis is missing") != NULL, "%s", err);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--redis=[::1]:6379", NULL), 0);
	CHECK_EQ(config_check(&c, err, sizeof err), 0);
	CHECK(config_cluster(&c));
	/* From the file too, under the same names. */
	char *path = write_temp("{\"store\": \"postgres://u@h:5432/d\", \"redis\": \"10.0.0.5:6379\"}");
	REQUIRE(path);
	config_defaults(&c);
	CHECK_EQ(parse(&c, err, sizeof err, 0, "--config", path, NULL), 0);
	unlink(path);
	CHECK_EQ(config_check(&c, err, sizeof err), 0);
	CHECK_STR(c.redis, "10.0.0.5:6379");
}

TEST(config_cluster_settings_must_be_well_formed)
{
	laird_config c;
	char err[400];
	static const char *const bad[][2] = {
		{"sqlite:/var/lair.db", "127.0.0.1:6379"},   /* not PostgreSQL */
		{"postgresql://db/lair", "redis.internal:6379"}, /* a name */
		{"postgresql://db/lair", "127.0.0.1"},        /* no port */
		{"postgresql://db/lair", "127.0.0.1:0"},
		{"postgresql://db/lair", "::1:6379"},         /* IPv6 without brackets */
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		config_defaults(&c);
		CHECK_EQ(parse(&c, err, sizeof err, 0, "--store", bad[i][0], "--redis", bad[i][1],
			       NULL), 0);
		CHECK_MSG(config_check(&c, err, sizeof err) == -1, "%s %s accepted", bad[i][0],
			  bad[i][1]);
		CHECK_MSG(strstr(err, i == 0 ? "not a PostgreSQL URL" : "not IP:PORT") != NULL,
			  "%s", err);
	}
}
