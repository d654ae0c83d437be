/*
 * lsess.h — a protocol v1 session for lair's commands: the connection
 * (lconn.h), hello with the stored token or a new name, the token store
 * (token.h), request ids with their reply callbacks, and the resume of
 * every table we sit at after a dropped connection (PROTOCOL.md §4).
 *
 * One session per process. Commands create it, send requests once it is
 * ready, receive updates (messages without a pending id) through
 * on_update, and end it with lsess_end(), which shuts the connection down;
 * the command's uv_run() then returns and it calls lsess_free().
 *
 * A token the server issues (a new player) is saved to the store on libuv's
 * thread pool, so the loop never waits for the disk.
 *
 * Memory: cJSON messages passed to callbacks are borrowed for the call.
 * lsess_request takes ownership of the request tree.
 */
#ifndef LAIR_LSESS_H
#define LAIR_LSESS_H

#include <stdint.h>

#include <cJSON.h>
#include <uv.h>

#define LSESS_DEFAULT_URL "ws://127.0.0.1:7777/"

struct lsess;

struct lsess_opts {
	const char *url;   /* NULL: $LAIR_SERVER, else LSESS_DEFAULT_URL */
	const char *name;  /* a new player's name when no token is known; with a
			    * known token, the name to take (rename) if it
			    * differs; NULL: none asked for (a new player is
			    * named after the login) */
	const char *token; /* explicit token (e.g. --token); NULL: the store */
	const char *role;  /* token store role: "player" (default) or "admin" */
	int resume;        /* reconnect after a drop and resume (play, watch) */
	int quiet;         /* no "reconnecting" notices on stderr */
	int readonly;      /* only reads: without a token no hello is sent (no
			    * player is created); on_ready gets welcome NULL */
};

struct lsess_handler {
	/* welcome received (NULL: a readonly session without identity); first is 1
	 * the first time, 0 after a resume. With a name to take, after the
	 * rename went through (if it cannot, on_fail says why). */
	void (*on_ready)(struct lsess *s, const cJSON *welcome, int first, void *ud);
	/* Any message that is not the reply to a pending request. */
	void (*on_update)(struct lsess *s, const cJSON *msg, const char *type, void *ud);
	/* The link went down (up = 0, reconnecting) or came back (up = 1). */
	void (*on_link)(struct lsess *s, int up, const char *why, void *ud);
	/* The session cannot go on: code is lair's exit code (cmd.h), why says
	 * it for humans. The session is already ending. */
	void (*on_fail)(struct lsess *s, int code, const char *why, void *ud);
};

/* The reply to one request: msg is the reply, or an error message
 * {type:"error", code, message}. code "disconnected" (made by lair) when the
 * connection dropped before the reply came. */
typedef void (*lsess_reply_fn)(struct lsess *s, const cJSON *msg, void *ud);

/* Resolves the server URL as lsess_new would: explicit, $LAIR_SERVER, or
 * the default. */
const char *lsess_url(const char *explicit_url);
/* 1 when the token store holds a token for (role, url), else 0. */
int lsess_known(const char *url, const char *role);

/* Starts connecting. NULL with a message on a bad URL. */
struct lsess *lsess_new(uv_loop_t *loop, const struct lsess_opts *o,
			const struct lsess_handler *h, void *ud, char *err, size_t err_len);

/* A new request {type} (add fields, then lsess_request). */
cJSON *lsess_msg(const char *type);
/* Sends req (taken) with a fresh id; fn (may be NULL) gets the reply.
 * Returns 0, or -1 when the link is down (fn is not called). */
int lsess_request(struct lsess *s, cJSON *req, lsess_reply_fn fn, void *ud);

/* Remembers the last seq seen of a table, for the resume on reconnect. */
void lsess_note_seq(struct lsess *s, int64_t table, int64_t seq);
/* Forgets a table (left or closed). */
void lsess_forget_table(struct lsess *s, int64_t table);

/* The player as the server named us in welcome ("" before). */
const char *lsess_player(const struct lsess *s);
int lsess_is_admin(const struct lsess *s);

/* Cuts the socket as a network failure would (tests: the "D" debug key). */
void lsess_drop(struct lsess *s);

/* Ends the session (safe inside callbacks). */
void lsess_end(struct lsess *s);
void lsess_free(struct lsess *s);

/* Prints an error message object as "code: message" into out. */
void lsess_error_text(const cJSON *err, char *out, size_t out_len);
/* lair's exit code for a failed request: 3 for "disconnected", else 1. */
int lsess_error_exit(const cJSON *err);

#endif
