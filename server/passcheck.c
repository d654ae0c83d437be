/*
 * passcheck.c — see passcheck.h.
 */
#include "passcheck.h"

#include <openssl/crypto.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/util.h"

typedef struct passcheck_job {
	uv_work_t work;
	session *s;        /* NULL once the session has gone */
	proto_msg m;       /* the request, moved in */
	enum passcheck_op op;
	char password[PROTO_PASSWORD_MAX + 1];
	char stored[PASSHASH_MAX + 1];
	passcheck_fn done;
	passcheck_result r;
} passcheck_job;

/* Jobs whose after-work callback has not run: the loop's thread alone
 * reads and writes it (submit, detach and callback all run there). */
static unsigned in_flight;
static unsigned cap;
static unsigned long long started; /* jobs submitted since start */

unsigned passcheck_max(void)
{
	if (!cap) {
		const char *ov = getenv("LAIR_PASSCHECK_MAX");
		cap = ov && atoi(ov) > 0 ? (unsigned)atoi(ov) : PASSCHECK_MAX;
	}
	return cap;
}

unsigned passcheck_in_flight(void) { return in_flight; }

unsigned long long passcheck_started(void) { return started; }

/* On a pool thread: the job's own copies only. */
static void work_cb(uv_work_t *w)
{
	passcheck_job *j = w->data;
	if (j->op == PASSCHECK_NEW)
		j->r.ok = passhash_new(j->password, j->r.hash) == 0;
	else
		j->r.ok = passhash_verify(j->password, j->stored);
	OPENSSL_cleanse(j->password, sizeof j->password);
	/* libcrypto's state for this thread (its error queue) goes now: the
	 * pool's threads are libuv's, and are not ended before the process. */
	OPENSSL_thread_stop();
}

static void after_cb(uv_work_t *w, int status)
{
	passcheck_job *j = w->data;
	in_flight--;
	session *s = j->s;
	if (s) {
		s->pass = NULL;
		if (s->state == SESSION_GONE) {
			/* kicked or replaced meanwhile: nothing it asked is handled */
		} else if (status != 0) {
			app_error(s, j->m.id, PROTO_E_INTERNAL, NULL, "the password check failed");
		} else if (s->app->draining) {
			app_error(s, j->m.id, PROTO_E_DRAINING, NULL, "the server is shutting down");
		} else {
			j->done(s, &j->m, &j->r);
		}
	}
	OPENSSL_cleanse(j->password, sizeof j->password);
	proto_msg_free(&j->m);
	free(j);
	if (s)
		app_session_unbusy(s);
}

bool passcheck_start(session *s, proto_msg *m, enum passcheck_op op, const char *password,
		     const char *stored, passcheck_fn done)
{
	if (in_flight >= passcheck_max()) {
		app_error(s, m->id, PROTO_E_BUSY, NULL,
			  "the server is checking too many passwords; try again in a moment");
		return false;
	}
	passcheck_job *j = xcalloc(1, sizeof *j);
	j->work.data = j;
	j->op = op;
	j->done = done;
	strlcpy_safe(j->password, password ? password : "", sizeof j->password);
	strlcpy_safe(j->stored, stored ? stored : "", sizeof j->stored);
	if (uv_queue_work(s->app->loop, &j->work, work_cb, after_cb) != 0) {
		OPENSSL_cleanse(j->password, sizeof j->password);
		free(j);
		log_error("app", "uv_queue_work refused a password check");
		app_error(s, m->id, PROTO_E_INTERNAL, NULL, "the password check failed");
		return false;
	}
	in_flight++;
	started++;
	j->s = s;
	j->m = *m;
	m->root = NULL;
	m->id = NULL;
	s->pass = j;
	s->busy = true;
	return true;
}

void passcheck_detach(session *s)
{
	passcheck_job *j = s->pass;
	if (!j)
		return;
	s->pass = NULL;
	j->s = NULL;
	/* Not started yet: it never runs (after_cb sees UV_ECANCELED). */
	uv_cancel((uv_req_t *)&j->work);
}
