/*
 * token.c — lair's token store (see token.h). Small synchronous file I/O:
 * the store is read once at start-up and written once per new token.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/util.h"
#include "token.h"

int ltoken_dir(char *out, size_t out_len, char *err, size_t err_len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int n;
	if (xdg && *xdg == '/')
		n = snprintf(out, out_len, "%s/lair", xdg);
	else if (home && *home)
		n = snprintf(out, out_len, "%s/.config/lair", home);
	else {
		snprintf(err, err_len, "token store: neither XDG_CONFIG_HOME nor HOME is set");
		return -1;
	}
	if (n < 0 || (size_t)n >= out_len) {
		snprintf(err, err_len, "token store: path too long");
		return -1;
	}
	return 0;
}

/* The URL as a key: no trailing slashes. */
static void url_key(const char *url, char *key, size_t key_len)
{
	strlcpy_safe(key, url, key_len);
	size_t n = strlen(key);
	while (n > 0 && key[n - 1] == '/')
		key[--n] = '\0';
}

static int has_space(const char *s)
{
	return strpbrk(s, " \t\r\n") != NULL;
}

/* The store is a few lines per server: anything bigger is not ours. */
#define STORE_MAX (1u << 20)

/* The store's text into out (empty when there is no store yet); on an
 * error out is released and err says why. */
static int read_store(const char *dir, buf *out, char *err, size_t err_len)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/tokens", dir);
	struct stat st;
	if (stat(path, &st) < 0 && errno == ENOENT)
		return 0;
	char why[512];
	if (buf_read_file(out, path, STORE_MAX, why, sizeof why) < 0) {
		buf_free(out);
		snprintf(err, err_len, "token store: cannot read %s", why);
		return -1;
	}
	return 0;
}

/* Splits one line "ROLE URL TOKEN" in place; returns 0 if well formed. */
static int split_line(char *line, char **role, char **url, char **tok)
{
	char *save = NULL;
	*role = strtok_r(line, " \t", &save);
	*url = strtok_r(NULL, " \t", &save);
	*tok = strtok_r(NULL, " \t", &save);
	return (*role && *url && *tok && !strtok_r(NULL, " \t", &save)) ? 0 : -1;
}

int ltoken_get(const char *dir, const char *role, const char *url, char *tok, size_t tok_len,
	       char *err, size_t err_len)
{
	char key[2048];
	url_key(url, key, sizeof key);
	buf b = {0};
	if (read_store(dir, &b, err, err_len) < 0)
		return -1;
	int found = 0;
	char *save = NULL;
	for (char *line = b.data ? strtok_r(b.data, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *r, *u, *t;
		if (split_line(line, &r, &u, &t) < 0)
			continue; /* a damaged line is skipped, never fatal */
		if (strcmp(r, role) == 0 && strcmp(u, key) == 0) {
			if (strlen(t) >= tok_len)
				continue;
			strlcpy_safe(tok, t, tok_len);
			found = 1; /* the last line wins, as the writer keeps one */
		}
	}
	buf_free(&b);
	return found;
}

static int ensure_dir(const char *dir, char *err, size_t err_len)
{
	char path[4096];
	strlcpy_safe(path, dir, sizeof path);
	/* mkdir -p: parents 0700 too (only those we create). */
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			snprintf(err, err_len, "token store: cannot create %s: %s", path,
				 strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		snprintf(err, err_len, "token store: cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, err_len, "token store: %s is not a directory", path);
		return -1;
	}
	if ((st.st_mode & 077) && chmod(path, 0700) < 0) {
		snprintf(err, err_len, "token store: cannot chmod %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int ltoken_put(const char *dir, const char *role, const char *url, const char *tok, char *err,
	       size_t err_len)
{
	char key[2048];
	url_key(url, key, sizeof key);
	if (!*role || has_space(role) || !*key || has_space(key) ||
	    (tok && (!*tok || has_space(tok) || strlen(tok) >= LTOKEN_MAX))) {
		snprintf(err, err_len, "token store: role, URL and token must be non-empty, "
				       "without spaces");
		return -1;
	}
	if (ensure_dir(dir, err, err_len) < 0)
		return -1;
	buf old = {0}, out = {0};
	if (read_store(dir, &old, err, err_len) < 0)
		return -1;
	char *save = NULL;
	for (char *line = old.data ? strtok_r(old.data, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *r, *u, *t;
		if (split_line(line, &r, &u, &t) < 0)
			continue;
		if (strcmp(r, role) == 0 && strcmp(u, key) == 0)
			continue;
		buf_printf(&out, "%s %s %s\n", r, u, t);
	}
	if (tok)
		buf_printf(&out, "%s %s %s\n", role, key, tok);
	buf_free(&old);

	char path[4096], tmp[4200];
	snprintf(path, sizeof path, "%s/tokens", dir);
	snprintf(tmp, sizeof tmp, "%s/tokens.%ld.tmp", dir, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, err_len, "token store: cannot write %s: %s", tmp, strerror(errno));
		buf_free(&out);
		return -1;
	}
	fchmod(fd, 0600); /* O_CREAT honours the umask; the mode must be exact */
	size_t off = 0;
	int rc = 0;
	while (off < out.len) {
		ssize_t n = write(fd, out.data + off, out.len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		off += (size_t)n;
	}
	if (rc == 0 && fsync(fd) < 0)
		rc = -1;
	if (close(fd) < 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -1;
	if (rc < 0) {
		snprintf(err, err_len, "token store: cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
	}
	buf_free(&out);
	return rc;
}
