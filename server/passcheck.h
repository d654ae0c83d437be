/*
 * passcheck.h — the password KDF of passhash.h run off the event loop, for
 * the table requests that need it (table_create with a password hashes it;
 * table_join, take_seat and table_spectate of a private table verify an
 * attempt). At about 70 ms of CPU a hash would stall every connection if
 * the loop ran it, so the request moves into a job on libuv's thread pool
 * (uv_queue_work) and its session waits, busy, as for the store: frames
 * that arrive meanwhile are queued and every request is still answered in
 * the order received (app.c). The job's after-work callback, on the loop,
 * hands the request and the result to the handler's continuation, which
 * looks up again whatever it names: the table may have closed and the
 * lobby gone while the hash was computed.
 *
 * Bounds. One job per session at a time (the busy session), and at most
 * PASSCHECK_MAX jobs in the process (the pool is shared with the static
 * file loads): past it the request gets `busy` at once and nothing is
 * done (PROTOCOL.md §3). A session that goes (its connection dropped, the
 * app freed) detaches its job: the job is cancelled if it has not started,
 * and its result goes nowhere; it still counts until its callback runs, so
 * a flood of connections that ask and hang up cannot queue more.
 */
#ifndef LAIR_PASSCHECK_H
#define LAIR_PASSCHECK_H

#include <stdbool.h>

#include "app_int.h"
#include "passhash.h"

/* Jobs in flight at most (queued or running); LAIR_PASSCHECK_MAX in the
 * environment overrides it (tests). */
#define PASSCHECK_MAX 8

enum passcheck_op {
	PASSCHECK_NEW,    /* hash a new password (passhash_new) */
	PASSCHECK_VERIFY, /* check an attempt against a stored hash */
};

typedef struct passcheck_result {
	bool ok;   /* NEW: hashed; VERIFY: the attempt is the password */
	char hash[PASSHASH_MAX + 1]; /* NEW: the hash when ok */
} passcheck_result;

/* The continuation: runs on the loop with the session (still open, its
 * request not refused by shutdown meanwhile) and the request, which the job
 * frees afterwards. */
typedef void (*passcheck_fn)(session *s, proto_msg *m, const passcheck_result *r);

/* Starts op on password (and stored, for VERIFY) for session s's request
 * m. On success m moves into the job (the caller's m is left empty, so its
 * proto_msg_free frees nothing) and the session is busy until done has
 * run. Else it replies the error itself (busy: too many jobs; internal:
 * libuv refused) and returns false. */
bool passcheck_start(session *s, proto_msg *m, enum passcheck_op op, const char *password,
		     const char *stored, passcheck_fn done);

/* The session is being freed: its job, if any, answers nobody. */
void passcheck_detach(session *s);

/* Jobs in flight now, the cap, and jobs submitted since start (for
 * /metrics and tests). */
unsigned passcheck_in_flight(void);
unsigned passcheck_max(void);
unsigned long long passcheck_started(void);

#endif
