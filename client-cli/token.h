/*
 * token.h — lair's token store: the secret a server gave us, kept per server
 * URL and role ("player" or "admin") so the next run (or a reconnect) can
 * resume as the same player.
 *
 * The store is one text file, DIR/tokens, one "ROLE URL TOKEN" line each;
 * DIR is $XDG_CONFIG_HOME/lair (default ~/.config/lair). The directory is
 * kept at mode 0700 and the file at 0600 (tightened if found wider); writes
 * go to a temporary file renamed over the old one, so a crash never leaves a
 * half-written store. URLs are compared without trailing slashes. Tokens and
 * URLs may not contain whitespace. All strings are the caller's.
 */
#ifndef LAIR_TOKEN_H
#define LAIR_TOKEN_H

#include <stddef.h>

#define LTOKEN_MAX 512

/* Writes the store's directory into out (from the environment). Returns 0,
 * or -1 with a message when neither XDG_CONFIG_HOME nor HOME is set. */
int ltoken_dir(char *out, size_t out_len, char *err, size_t err_len);

/* Looks up the token for (role, url) in dir. Returns 1 and fills tok when
 * found, 0 when there is none (or no store yet), -1 with a message on error. */
int ltoken_get(const char *dir, const char *role, const char *url, char *tok, size_t tok_len,
	       char *err, size_t err_len);

/* Stores tok for (role, url) in dir, replacing any older one; tok NULL
 * removes it. Creates dir (0700) if needed. Returns 0, or -1 with a message. */
int ltoken_put(const char *dir, const char *role, const char *url, const char *tok, char *err,
	       size_t err_len);

#endif
