/*
 * test_http_static.c — the browser client's file serving, its parts: which
 * request paths name a file (and the attacks that must not), content types,
 * Accept-Encoding and If-None-Match parsing, HTTP dates, reading a web root
 * (symlinks out of it refused), the embedded copy of web/, and which origins
 * may open a WebSocket. tests/e2e/web_static.test.js checks the same against
 * a running laird.
 */
#define _XOPEN_SOURCE 700
#include "../../server/http_static.h"
#include "../../server/origin.h"

#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/util.h"
#include "../test.h"

static bool rel_of(const char *uri, char *out)
{
	return static_path_rel(uri, strlen(uri), out, STATIC_PATH_MAX + 1);
}

TEST(static_paths_that_name_a_file)
{
	char rel[STATIC_PATH_MAX + 1];
	CHECK(rel_of("/", rel));
	CHECK_STR(rel, "index.html");
	CHECK(rel_of("/js/main.js", rel));
	CHECK_STR(rel, "js/main.js");
	CHECK(rel_of("/rules/", rel));
	CHECK_STR(rel, "rules/index.html");
	CHECK(rel_of("/icons/lair-192.png", rel));
	CHECK_STR(rel, "icons/lair-192.png");
	CHECK(rel_of("/a.b_c-d/e..f", rel)); /* dots inside a name are only dots */
	CHECK_STR(rel, "a.b_c-d/e..f");
}

/* The attacks: each is refused before any file is looked at. */
TEST(static_paths_refused)
{
	char rel[STATIC_PATH_MAX + 1];
	const char *bad[] = {
		"", "index.html", "/..", "/../etc/passwd", "/js/../../etc/passwd", "/a/./b",
		"/.", "/./index.html", "/.git/config", "/js/.hidden", "//etc/passwd",
		"/js//main.js", "/%2e%2e/etc/passwd", "/%2e%2e%2fetc%2fpasswd", "/a\\..\\b",
		"/a b", "/caf\xc3\xa9", "/a?b", "/a#b", "/a:b", "/~root", "/a\r\nSet-Cookie: x",
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++)
		CHECK_MSG(!rel_of(bad[i], rel), "accepted \"%s\"", bad[i]);
	/* A NUL inside the path as received (lws decodes %00). */
	CHECK(!static_path_rel("/index.html\0.png", 16, rel, sizeof rel));
	/* Very long: refused, not cut. */
	char longp[STATIC_PATH_MAX + 8];
	longp[0] = '/';
	memset(longp + 1, 'a', sizeof longp - 2);
	longp[sizeof longp - 1] = 0;
	CHECK(!rel_of(longp, rel));
	/* A small output buffer is never overrun. */
	char small[8];
	CHECK(!static_path_rel("/abcdefgh", 9, small, sizeof small));
	CHECK(!static_path_rel("/", 1, small, sizeof small)); /* "index.html" needs 11 */
}

TEST(static_content_types)
{
	CHECK_STR(static_content_type("index.html"), "text/html; charset=utf-8");
	CHECK_STR(static_content_type("js/main.js"), "text/javascript; charset=utf-8");
	CHECK_STR(static_content_type("css/lair.css"), "text/css; charset=utf-8");
	CHECK_STR(static_content_type("icons/lair.svg"), "image/svg+xml");
	CHECK_STR(static_content_type("icons/a.png"), "image/png");
	CHECK_STR(static_content_type("manifest.webmanifest"), "application/manifest+json");
	CHECK_STR(static_content_type("LICENSE"), "application/octet-stream");
	CHECK_STR(static_content_type("a.js/b"), "application/octet-stream");
}

TEST(static_accept_encoding)
{
	CHECK(static_accepts_gzip("gzip, deflate, br"));
	CHECK(static_accepts_gzip("br;q=1.0, GZIP;q=0.5"));
	CHECK(static_accepts_gzip("*"));
	CHECK(!static_accepts_gzip("deflate, br"));
	CHECK(!static_accepts_gzip("gzip;q=0"));
	CHECK(!static_accepts_gzip("gzip; q=0.000, identity"));
	CHECK(!static_accepts_gzip("x-gzip"));
	CHECK(!static_accepts_gzip(""));
	CHECK(!static_accepts_gzip(NULL));
}

TEST(static_if_none_match)
{
	CHECK(static_etag_listed("\"abc\"", "\"abc\""));
	CHECK(static_etag_listed("\"x\", W/\"abc\"", "\"abc\""));
	CHECK(static_etag_listed("*", "\"abc\""));
	CHECK(!static_etag_listed("\"abcd\"", "\"abc\""));
	CHECK(!static_etag_listed("abc", "\"abc\""));
	CHECK(!static_etag_listed("", "\"abc\""));
}

TEST(static_http_dates)
{
	CHECK_EQ(static_http_date_parse("Sun, 06 Nov 1994 08:49:37 GMT"), 784111777);
	CHECK_EQ(static_http_date_parse("Sunday, 06-Nov-94 08:49:37 GMT"), -1);
	CHECK_EQ(static_http_date_parse("Sun, 06 Nov 1994 08:49:37 GMT trailing"), -1);
	CHECK_EQ(static_http_date_parse("yesterday"), -1);
	CHECK_EQ(static_http_date_parse(""), -1);
}

/* A web root with a file, a directory, a symlink inside and two leading
 * out of it (to a file and to a directory's file). */
TEST(static_load_stays_in_the_root)
{
	char top[] = "/tmp/lair-test-static-XXXXXX";
	REQUIRE(mkdtemp(top));
	char root[256], p[512], q[512];
	snprintf(root, sizeof root, "%s/root", top);
	REQUIRE(mkdir(root, 0700) == 0);
	snprintf(p, sizeof p, "%s/secret.txt", top);
	FILE *f = fopen(p, "w");
	REQUIRE(f);
	fputs("secret\n", f);
	fclose(f);
	snprintf(p, sizeof p, "%s/a.txt", root);
	f = fopen(p, "w");
	REQUIRE(f);
	fputs("hello\n", f);
	fclose(f);
	snprintf(p, sizeof p, "%s/dir", root);
	REQUIRE(mkdir(p, 0700) == 0);
	snprintf(p, sizeof p, "%s/in.txt", root);
	REQUIRE(symlink("a.txt", p) == 0);
	snprintf(p, sizeof p, "%s/out.txt", root);
	snprintf(q, sizeof q, "%s/secret.txt", top);
	REQUIRE(symlink(q, p) == 0);
	snprintf(p, sizeof p, "%s/up", root);
	REQUIRE(symlink("..", p) == 0);

	char real[4096];
	REQUIRE(realpath(root, real));
	unsigned char *data;
	size_t len;
	int64_t mt;
	CHECK_EQ(static_load(real, "a.txt", &data, &len, &mt), 0);
	CHECK(len == 6 && data && !memcmp(data, "hello\n", 6));
	CHECK(mt > 0);
	free(data);
	CHECK_EQ(static_load(real, "in.txt", &data, &len, &mt), 0);
	free(data);
	CHECK_EQ(static_load(real, "out.txt", &data, &len, &mt), -1);
	CHECK(!data);
	CHECK_EQ(static_load(real, "up/secret.txt", &data, &len, &mt), -1);
	CHECK_EQ(static_load(real, "dir", &data, &len, &mt), -1);
	CHECK_EQ(static_load(real, "missing.txt", &data, &len, &mt), -1);
	/* The root's sibling whose name starts like the root's. */
	snprintf(p, sizeof p, "%s/rootx", top);
	REQUIRE(mkdir(p, 0700) == 0);
	snprintf(p, sizeof p, "%s/rootx/b.txt", top);
	f = fopen(p, "w");
	REQUIRE(f);
	fclose(f);
	snprintf(p, sizeof p, "%s/sib", root);
	snprintf(q, sizeof q, "%s/rootx/b.txt", top);
	REQUIRE(symlink(q, p) == 0);
	CHECK_EQ(static_load(real, "sib", &data, &len, &mt), -1);

	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	CHECK_EQ(system(cmd), 0);
}

static int web_files_seen;
static int count_web_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (type == FTW_F && strcmp(path, "web/embed.sh") && strcmp(path, "web/README.md"))
		web_files_seen++;
	return 0;
}

/* The binary carries web/ byte for byte (tests run from the repository
 * root), each file's gzip form only when it is smaller. */
TEST(static_embedded_files_match_web)
{
	REQUIRE(static_n_files > 0);
	for (int i = 0; i < static_n_files; i++) {
		const struct static_file *sf = &static_files[i];
		char p[256];
		snprintf(p, sizeof p, "web/%s", sf->path);
		buf b = {0};
		char err[256];
		CHECK_MSG(buf_read_file(&b, p, 16 << 20, err, sizeof err) == 0, "%s", err);
		CHECK_MSG(b.len == sf->len && (!b.len || !memcmp(b.data, sf->data, b.len)),
			  "%s differs", p);
		buf_free(&b);
		if (sf->gz)
			CHECK(sf->gz_len < sf->len && sf->gz[0] == 0x1f && sf->gz[1] == 0x8b);
		char rel[STATIC_PATH_MAX + 1];
		char uri[260];
		snprintf(uri, sizeof uri, "/%s", sf->path);
		CHECK_MSG(rel_of(uri, rel) && !strcmp(rel, sf->path), "%s is not servable", uri);
	}
	web_files_seen = 0;
	REQUIRE(nftw("web", count_web_file, 8, FTW_PHYS) == 0);
	CHECK_EQ(web_files_seen, static_n_files);
}

TEST(origin_own_by_default)
{
	CHECK(origin_allowed(NULL, "x.org", ""));                     /* not a browser */
	CHECK(origin_allowed("http://127.0.0.1:7777", "127.0.0.1:7777", ""));
	CHECK(origin_allowed("https://Lair.Example.org", "lair.example.org", ""));
	CHECK(origin_allowed("https://lair.example.org", "lair.example.org:443", ""));
	CHECK(origin_allowed("http://lair.example.org:80", "lair.example.org", ""));
	CHECK(origin_allowed("http://[::1]:7777", "[::1]:7777", ""));
	CHECK(!origin_allowed("http://evil.example", "127.0.0.1:7777", ""));
	CHECK(!origin_allowed("http://127.0.0.1:7778", "127.0.0.1:7777", ""));
	CHECK(!origin_allowed("http://127.0.0.1", "127.0.0.1:7777", ""));
	CHECK(!origin_allowed("null", "127.0.0.1:7777", ""));
	CHECK(!origin_allowed("file://", "127.0.0.1:7777", ""));
	CHECK(!origin_allowed("http://127.0.0.1:7777", NULL, ""));
	CHECK(!origin_allowed("http://127.0.0.1:7777", "", ""));
	CHECK(!origin_allowed("http://a.org/path", "a.org", ""));
	CHECK(!origin_allowed("http://user@a.org", "a.org", ""));
	CHECK(!origin_allowed("", "a.org", ""));
	/* A Host that is not a host does not make any origin its own. */
	CHECK(!origin_allowed("http://a.org", "a.org/x", ""));
	CHECK(!origin_allowed("http://a.org", "evil@a.org", ""));
}

TEST(origin_list_and_any)
{
	const char *list = "https://lair.example.org, http://localhost:8080";
	CHECK(origin_allowed("https://lair.example.org", "127.0.0.1:7777", list));
	CHECK(origin_allowed("https://LAIR.example.org:443", "127.0.0.1:7777", list));
	CHECK(origin_allowed("http://localhost:8080", "127.0.0.1:7777", list));
	CHECK(!origin_allowed("http://localhost:8081", "127.0.0.1:7777", list));
	/* With a list, the own origin is allowed only if listed. */
	CHECK(!origin_allowed("http://127.0.0.1:7777", "127.0.0.1:7777", list));
	CHECK(!origin_allowed("https://lair.example.org.evil.example", "x", list));
	CHECK(origin_allowed("http://anything.example", "x", "*"));
	CHECK(origin_allowed("null", "x", "*"));
	char err[200];
	CHECK(origin_list_valid("", err, sizeof err));
	CHECK(origin_list_valid("*", err, sizeof err));
	CHECK(origin_list_valid(list, err, sizeof err));
	CHECK(!origin_list_valid("lair.example.org", err, sizeof err));
	CHECK(strstr(err, "lair.example.org") != NULL);
	CHECK(!origin_list_valid("https://a.org/", err, sizeof err));
	CHECK(!origin_list_valid("ftp://a.org", err, sizeof err));
}
