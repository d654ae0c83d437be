/*
 * store.c — the store's threading: opening and shutdown, the one store
 * thread, the request queue to it and the done list back, delivery of
 * results on the loop thread through a uv_async_t, cancellation, and the
 * submitting calls that copy their inputs into requests. What each request
 * does to the database lives in store_sql.c (SQLite) or store_pg.c
 * (PostgreSQL). Long (850 lines) on purpose: one short submitting call
 * per request of store.h, each copying its inputs, beside the thread and
 * queue they share.
 *
 * The store thread takes the whole queue at once and store_db_run_batch
 * runs it as one transaction (group commit: one WAL sync for many small
 * writes, e.g. decisions of 2,000 tables), one savepoint per request.
 *
 * The checkpointer: SQLite would copy the WAL back into the database inside
 * the commit that fills it past 1,000 pages, with a sync of the database
 * file, which stalled the durable write of decisions (and so their reveals)
 * for up to 750 ms under load. Instead a second thread with its own
 * connection runs PASSIVE checkpoints (they never wait for the writer nor
 * make it wait) when a commit reports a full WAL or periodically, so the WAL
 * stays bounded and commits only append to it. The store thread starts it,
 * and at shutdown stops it and truncates the WAL.
 */
#include "store_int.h"
#include "store_pg.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../common/log.h"
#include "../common/sha256.h"
#include "../common/util.h"

const char *store_strerror(int err)
{
	switch (err) {
	case STORE_OK: return "ok";
	case STORE_ERR_NAME_TAKEN: return "name_taken";
	case STORE_ERR_NOT_FOUND: return "not_found";
	case STORE_ERR_EXISTS: return "exists";
	case STORE_ERR_INVALID: return "invalid";
	case STORE_ERR_DB: return "db_error";
	case STORE_ERR_FENCED: return "fenced";
	}
	return "unknown";
}

/* ---- tokens ------------------------------------------------------------ */

int store_token_new(char *out)
{
	static const char digits[] = "0123456789abcdef";
	uint8_t raw[STORE_TOKEN_LEN / 2];
	size_t got = 0;
	while (got < sizeof raw) {
		ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
		if (n < 0)
			return -1; /* EINTR included: the caller may retry */
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof raw; i++) {
		out[2 * i] = digits[raw[i] >> 4];
		out[2 * i + 1] = digits[raw[i] & 15];
	}
	out[STORE_TOKEN_LEN] = '\0';
	memset(raw, 0, sizeof raw);
	return 0;
}

void store_token_hash(const char *token, char *out)
{
	sha256_hex(token, strlen(token), out);
}

/* ---- requests ---------------------------------------------------------- */

void *store_req_own(store_req *r, void *p)
{
	if (!p)
		return NULL;
	if (r->n_owned == r->cap_owned) {
		r->cap_owned = r->cap_owned ? 2 * r->cap_owned : 8;
		r->owned = xrealloc(r->owned, r->cap_owned * sizeof *r->owned);
	}
	r->owned[r->n_owned++] = p;
	return p;
}

char *store_req_strdup(store_req *r, const char *s)
{
	return s ? store_req_own(r, xstrdup(s)) : NULL;
}

static void req_free(store_req *r)
{
	for (size_t i = 0; i < r->n_owned; i++)
		free(r->owned[i]);
	free(r->owned);
	free(r->out.stats);
	free(r->out.achs);
	free(r->out.games);
	free(r->out.live);
	free(r);
}

static store_req *req_new(store *st, enum store_op op, void *ud)
{
	store_req *r = xcalloc(1, sizeof *r);
	r->st = st;
	r->op = op;
	r->ud = ud;
	atomic_init(&r->cancelled, 0);
	return r;
}

/* Bad input found by the submitting call: the request still travels the
 * queue (the callback must not run inside the submitting call) but does
 * nothing there. */
static void req_bad(store_req *r)
{
	r->checked_bad = true;
	r->err = STORE_ERR_INVALID;
}

static store_req *submit(store_req *r)
{
	store *st = r->st;
	if (st->shutting_down) {
		log_warn("store", "request refused: the store is shutting down");
		req_free(r);
		return NULL;
	}
	st->depth++;
	r->submit_ns = now_ns();
	uv_mutex_lock(&st->mu);
	if (st->q_tail)
		st->q_tail->next = r;
	else
		st->q_head = r;
	st->q_tail = r;
	uv_cond_signal(&st->cv);
	uv_mutex_unlock(&st->mu);
	return r;
}

void store_cancel(store_req *req)
{
	if (req)
		atomic_store(&req->cancelled, 1);
}

size_t store_queue_depth(const store *st)
{
	return st->depth;
}

/* ---- the checkpointer --------------------------------------------------- */

void store_ckpt_note(store *st, int wal_frames)
{
	uv_mutex_lock(&st->ck_mu);
	st->ck_frames = wal_frames;
	if (wal_frames >= STORE_CKPT_PAGES && !st->ck_due) {
		st->ck_due = true;
		uv_cond_signal(&st->ck_cv);
	}
	uv_mutex_unlock(&st->ck_mu);
}

static void checkpointer(void *arg)
{
	store *st = arg;
	pthread_setname_np(pthread_self(), "lair-ckpt"); /* top -H, /proc/PID/task */
	uv_mutex_lock(&st->ck_mu);
	while (!st->ck_stop) {
		if (!st->ck_due)
			uv_cond_timedwait(&st->ck_cv, &st->ck_mu,
					  (uint64_t)STORE_CKPT_PERIOD_MS * 1000000u);
		if (st->ck_stop)
			break;
		bool run = st->ck_due || st->ck_frames > 0;
		st->ck_due = false;
		st->ck_frames = 0;
		st->ck_running = run;
		uv_mutex_unlock(&st->ck_mu);
		if (run)
			store_db_ckpt_run(st);
		uv_mutex_lock(&st->ck_mu);
		st->ck_running = false;
	}
	uv_mutex_unlock(&st->ck_mu);
}

static void ckpt_start(store *st)
{
	if (store_db_ckpt_open(st) != 0)
		return;
	int rc = uv_thread_create(&st->ck_thread, checkpointer, st);
	if (rc != 0) {
		log_error("store", "cannot start the checkpointer: %s; checkpoints stay in "
			  "commits", uv_strerror(rc));
		store_db_ckpt_close(st);
		sqlite3_wal_autocheckpoint(st->db, STORE_CKPT_PAGES);
		return;
	}
	st->ck_started = true;
}

static void ckpt_stop(store *st)
{
	if (st->ck_started) {
		uv_mutex_lock(&st->ck_mu);
		st->ck_stop = true;
		uv_cond_signal(&st->ck_cv);
		uv_mutex_unlock(&st->ck_mu);
		uv_thread_join(&st->ck_thread);
		st->ck_started = false;
	}
	store_db_ckpt_close(st);
}

/* ---- the store thread -------------------------------------------------- */

/* Waits for work. On PostgreSQL it wakes every third of the lease to
 * renew it (between batches: the lease only proves the node alive). */
static void worker_wait(store *st, uint64_t *renew_at)
{
	if (!st->pg) {
		uv_cond_wait(&st->cv, &st->mu);
		return;
	}
	uint64_t now = now_ns(), every = (uint64_t)store_pg_lease_ms * 1000000 / 3;
	if (now < *renew_at &&
	    uv_cond_timedwait(&st->cv, &st->mu, *renew_at - now) != UV_ETIMEDOUT)
		return;
	*renew_at = now_ns() + every;
	uv_mutex_unlock(&st->mu);
	store_pg_renew(st);
	uv_mutex_lock(&st->mu);
}

static void worker(void *arg)
{
	store *st = arg;
	uint64_t renew_at = 0;
	pthread_setname_np(pthread_self(), "lair-store"); /* top -H, /proc/PID/task */
	if (!st->pg)
		ckpt_start(st);
	uv_mutex_lock(&st->mu);
	for (;;) {
		while ((!st->q_head || st->paused) && !st->stop)
			worker_wait(st, &renew_at);
		if (!st->q_head)
			break; /* stop, and nothing left */
		store_req *batch = st->q_head, *last = st->q_tail;
		st->q_head = st->q_tail = NULL;
		uv_mutex_unlock(&st->mu);
		uint64_t start = now_ns();
		for (store_req *r = batch; r; r = r->next)
			r->start_ns = start;

		if (st->pg)
			store_pg_run_batch(st, batch);
		else
			store_db_run_batch(st, batch);
		uint64_t t = now_ns(); /* committed (or rolled back) */
		for (store_req *r = batch; r; r = r->next)
			r->done_ns = t;

		uv_mutex_lock(&st->mu);
		if (st->d_tail)
			st->d_tail->next = batch;
		else
			st->d_head = batch;
		st->d_tail = last;
		uv_mutex_unlock(&st->mu);
		uv_async_send(&st->async);
		uv_mutex_lock(&st->mu);
	}
	uv_mutex_unlock(&st->mu);

	if (st->pg) {
		store_pg_close(st);
	} else {
		ckpt_stop(st);
		store_db_close(st);
	}
	uv_mutex_lock(&st->mu);
	st->worker_done = true;
	uv_mutex_unlock(&st->mu);
	uv_async_send(&st->async);
}

/* ---- delivery on the loop thread --------------------------------------- */

static void deliver(store_req *r)
{
	const store_req *c = r;
	int err = c->err;
	switch (r->op) {
	case OP_PLAYER_CREATE:
	case OP_PLAYER_BY_TOKEN:
	case OP_PLAYER_BY_NAME:
	case OP_PLAYER_RENAME:
	case OP_ADMIN_ISSUE:
		if (r->cb.player)
			r->cb.player(r->ud, err, err ? NULL : &c->out.player);
		break;
	case OP_LIVE_START:
	case OP_LIVE_UPDATE:
	case OP_LIVE_DECISION:
	case OP_LIVE_END:
	case OP_LIVE_QUARANTINE:
	case OP_QUARANTINED_DROP:
	case OP_NODE_LEAVE:
		if (r->cb.done)
			r->cb.done(r->ud, err);
		break;
	case OP_GAME_FINISH:
		if (r->cb.record)
			r->cb.record(r->ud, err, err ? 0 : c->out.id, err ? NULL : c->out.stats,
				     err ? 0 : c->out.n_stats);
		break;
	case OP_PLAYERS_PRUNE:
		if (r->cb.id)
			r->cb.id(r->ud, err, err ? 0 : c->out.id);
		break;
	case OP_PROFILE:
		if (r->cb.profile)
			r->cb.profile(r->ud, err, err ? NULL : &c->out.profile);
		break;
	case OP_SERVER_STATS:
	case OP_SHARED_READ:
		if (r->cb.stats)
			r->cb.stats(r->ud, err, err ? NULL : c->out.stats,
				    err ? 0 : c->out.n_stats);
		break;
	case OP_LIVE_CLAIM:
		if (r->cb.live)
			r->cb.live(r->ud, err, err ? NULL : c->out.live, err ? 0 : c->out.n_live);
		break;
	case OP_GAMES_LIST:
	case OP_GAME_GET:
		if (r->cb.games)
			r->cb.games(r->ud, err, err ? NULL : c->out.games,
				    err ? 0 : c->out.n_games);
		break;
	case OP_QUARANTINED:
		if (r->cb.live)
			r->cb.live(r->ud, err, err ? NULL : c->out.live, err ? 0 : c->out.n_live);
		break;
	}
}

/* For /metrics (store_metrics), on the loop thread, now_ns() being `now`.
 * A write's time to durable is its wait for a batch to start (the thread
 * busy with the previous one, or waiting for a CPU), then its batch's run
 * (statements and commit); then its result waits for the loop. Returns
 * whether r was a timed write. */
static bool count_done(store *st, const store_req *r, uint64_t now)
{
	if (r->err == STORE_ERR_DB)
		st->failures++;
	if (r->err != STORE_OK || store_op_reads_only(r->op) || r->done_ns < r->start_ns ||
	    r->start_ns < r->submit_ns)
		return false;
	metrics_hist_observe(&st->durable, (double)(r->done_ns - r->submit_ns) / 1e9);
	metrics_hist_observe(&st->queued, (double)(r->start_ns - r->submit_ns) / 1e9);
	metrics_hist_observe(&st->batch, (double)(r->done_ns - r->start_ns) / 1e9);
	if (now >= r->done_ns)
		metrics_hist_observe(&st->deliver, (double)(now - r->done_ns) / 1e9);
	return true;
}

void store_metrics(const store *st, buf *out)
{
	metrics_gauge(out, "lair_store_queue_depth",
		      "Store requests queued or running, plus results not yet delivered.",
		      (double)st->depth);
	metrics_histogram(out, "lair_store_durable_seconds",
			  "Store writes: submission to their transaction committed.",
			  &st->durable);
	metrics_histogram(out, "lair_store_queued_seconds",
			  "Store writes: submission to the start of their batch (part of durable).",
			  &st->queued);
	metrics_histogram(out, "lair_store_batch_seconds",
			  "Store writes: their batch's start to its commit (part of durable).",
			  &st->batch);
	metrics_histogram(out, "lair_store_deliver_seconds",
			  "Store writes: committed to the result handled on the event loop.",
			  &st->deliver);
	metrics_counter(out, "lair_store_write_batches_total",
			"Store batches (transactions) that held a write.", (double)st->batches);
	metrics_counter(out, "lair_store_failures_total",
			"Store requests that failed in SQLite (logged; disk full, I/O).",
			(double)st->failures);
}

static void on_async_closed(uv_handle_t *h)
{
	store *st = h->data;
	if (st->done_cb)
		st->done_cb(st->done_ud);
}

static void on_async(uv_async_t *h)
{
	store *st = h->data;
	uv_mutex_lock(&st->mu);
	store_req *list = st->d_head;
	st->d_head = st->d_tail = NULL;
	/* Read together with the list: when set, the list holds every result
	 * the thread will ever produce. */
	bool done = st->worker_done;
	uv_mutex_unlock(&st->mu);

	uint64_t last_batch = 0;
	while (list) {
		store_req *r = list;
		list = r->next;
		st->depth--;
		/* Each result's own time: the later ones of a list wait for the
		 * earlier ones' callbacks (a decision's is its reveal). */
		if (count_done(st, r, now_ns()) && r->start_ns != last_batch) {
			st->batches++; /* a batch's requests are adjacent */
			last_batch = r->start_ns;
		}
		if (!atomic_load(&r->cancelled))
			deliver(r);
		req_free(r);
	}
	if (done && !st->thread_joined) {
		uv_thread_join(&st->thread);
		st->thread_joined = true;
		uv_close((uv_handle_t *)&st->async, on_async_closed);
	}
}

/* ---- lifetime ---------------------------------------------------------- */

static void loaded_and_sync_free(store *st)
{
	free(st->aside);
	store_live_free(st);
	store_shared_free(st);
	if (st->sync_inited) {
		uv_cond_destroy(&st->cv);
		uv_mutex_destroy(&st->mu);
		uv_cond_destroy(&st->ck_cv);
		uv_mutex_destroy(&st->ck_mu);
	}
	free(st);
}

static void on_async_closed_free(uv_handle_t *h)
{
	loaded_and_sync_free(h->data);
}

/* Before the store thread runs: whichever database store_open opened. */
static void db_close(store *st)
{
	store_pg_close(st);
	store_db_close(st);
}

store *store_open(uv_loop_t *loop, const char *path, char *err, size_t errlen)
{
	store *st = xcalloc(1, sizeof *st);
	st->loop = loop;
	atomic_init(&st->fenced, false);
	atomic_init(&st->leaving, false);
	if (store_pg_url(path) ? store_pg_open(st, path, err, errlen) != 0
			       : store_db_open(st, path, err, errlen) != 0) {
		db_close(st);
		loaded_and_sync_free(st);
		return NULL;
	}
	if (uv_mutex_init(&st->mu) != 0 || uv_cond_init(&st->cv) != 0 ||
	    uv_mutex_init(&st->ck_mu) != 0 || uv_cond_init(&st->ck_cv) != 0) {
		snprintf(err, errlen, "store: cannot create a mutex");
		db_close(st);
		loaded_and_sync_free(st);
		return NULL;
	}
	st->sync_inited = true;
	st->async.data = st;
	int rc = uv_async_init(loop, &st->async, on_async);
	if (rc == 0) {
		st->async_inited = true;
		rc = uv_thread_create(&st->thread, worker, st);
	}
	if (rc != 0) {
		snprintf(err, errlen, "store: cannot start the store thread: %s", uv_strerror(rc));
		db_close(st);
		if (st->async_inited) /* closed on the loop, freed in its close cb */
			uv_close((uv_handle_t *)&st->async, on_async_closed_free);
		else
			loaded_and_sync_free(st);
		return NULL;
	}
	st->thread_started = true;
	log_info("store", "%s: schema version %d, %zu live table(s)",
		 st->pg ? "PostgreSQL" : path, st->version, st->n_live);
	return st;
}

int64_t store_node_id(const store *st)
{
	return st->pg ? store_pg_node(st) : 0;
}

bool store_fenced(const store *st)
{
	return atomic_load(&((store *)st)->fenced);
}

int store_schema_version(const store *st)
{
	return st->version;
}

void store_shutdown(store *st, store_shutdown_cb done, void *ud)
{
	if (st->shutting_down) {
		log_error("store", "store_shutdown called twice");
		return;
	}
	st->shutting_down = true;
	st->done_cb = done;
	st->done_ud = ud;
	uv_mutex_lock(&st->mu);
	st->stop = true;
	uv_cond_signal(&st->cv);
	uv_mutex_unlock(&st->mu);
}

void store_free(store *st)
{
	if (!st)
		return;
	if (st->thread_started && !st->thread_joined) {
		/* Misuse (no store_shutdown, or the loop stopped before its
		 * callback): stop and join the thread so nothing runs on freed
		 * memory; undelivered results are dropped. */
		log_error("store", "store_free before store_shutdown finished");
		uv_mutex_lock(&st->mu);
		st->stop = true;
		uv_cond_signal(&st->cv);
		uv_mutex_unlock(&st->mu);
		uv_thread_join(&st->thread);
	}
	for (store_req *r = st->q_head, *n; r; r = n) {
		n = r->next;
		req_free(r);
	}
	for (store_req *r = st->d_head, *n; r; r = n) {
		n = r->next;
		req_free(r);
	}
	loaded_and_sync_free(st);
}

/* ---- loaded at open ---------------------------------------------------- */

const store_stat *store_shared_loaded(const store *st, size_t *n)
{
	*n = st->n_shared;
	return st->shared;
}

const store_live_table *store_live_tables(const store *st, size_t *n)
{
	*n = st->n_live;
	return st->n_live ? st->live : NULL;
}

void store_live_tables_release(store *st)
{
	store_live_free(st);
}

/* ---- submitting calls -------------------------------------------------- */

static bool nonempty(const char *s)
{
	return s && *s;
}

/* in.name, in.hash, in.role */
store_req *store_player_create(store *st, const char *name, const char *token, store_role role,
			       store_player_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_PLAYER_CREATE, ud);
	r->cb.player = cb;
	if (!nonempty(name) || !nonempty(token) ||
	    (role != STORE_ROLE_PLAYER && role != STORE_ROLE_ADMIN)) {
		req_bad(r);
		return submit(r);
	}
	r->in.name = store_req_strdup(r, name);
	store_token_hash(token, r->in.hash);
	r->in.role = role;
	return submit(r);
}

/* in.hash */
store_req *store_player_by_token(store *st, const char *token, store_player_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_PLAYER_BY_TOKEN, ud);
	r->cb.player = cb;
	if (!nonempty(token))
		req_bad(r);
	else
		store_token_hash(token, r->in.hash);
	return submit(r);
}

/* in.id, in.name */
store_req *store_player_rename(store *st, int64_t id, const char *name, store_player_cb cb,
			       void *ud)
{
	store_req *r = req_new(st, OP_PLAYER_RENAME, ud);
	r->cb.player = cb;
	if (id <= 0 || !nonempty(name)) {
		req_bad(r);
		return submit(r);
	}
	r->in.id = id;
	r->in.name = store_req_strdup(r, name);
	return submit(r);
}

/* in.name */
store_req *store_player_by_name(store *st, const char *name, store_player_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_PLAYER_BY_NAME, ud);
	r->cb.player = cb;
	if (!nonempty(name))
		req_bad(r);
	else
		r->in.name = store_req_strdup(r, name);
	return submit(r);
}

/* in.name, in.hash, in.first_only */
static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

/* in.id: created before; in.keep, in.n_keep */
store_req *store_players_prune(store *st, int64_t created_before, const int64_t *keep,
			       size_t n_keep, store_id_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_PLAYERS_PRUNE, ud);
	r->cb.id = cb;
	r->in.id = created_before;
	r->in.keep = store_req_own(r, xmalloc((n_keep + 1) * sizeof *keep));
	if (n_keep)
		memcpy(r->in.keep, keep, n_keep * sizeof *keep);
	qsort(r->in.keep, n_keep, sizeof *keep, cmp_i64);
	r->in.n_keep = n_keep;
	return submit(r);
}

store_req *store_admin_issue(store *st, const char *name, const char *token, bool first_only,
			     store_player_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_ADMIN_ISSUE, ud);
	r->cb.player = cb;
	if (!nonempty(name) || !nonempty(token)) {
		req_bad(r);
		return submit(r);
	}
	r->in.name = store_req_strdup(r, name);
	store_token_hash(token, r->in.hash);
	r->in.first_only = first_only;
	return submit(r);
}

static int64_t *copy_values(store_req *r, const int64_t *v, int n)
{
	if (!v || n <= 0)
		return NULL;
	int64_t *c = store_req_own(r, xmalloc((size_t)n * sizeof *c));
	memcpy(c, v, (size_t)n * sizeof *c);
	return c;
}

/* A game's share of its kind's shared state: whole numbers >= 0 (a
 * merge only ever adds, raises or lowers by them). */
static bool shared_delta_ok(const game_kind *k, const int64_t *v)
{
	for (int i = 0; v && i < k->n_shared; i++)
		if (v[i] != GAME_STAT_NONE && v[i] < 0)
			return false;
	return true;
}

/* The same as JSON {key: value}, kept in the game's record (NULL: none). */
static char *shared_delta_json(store_req *r, const game_kind *k, const int64_t *v)
{
	if (!v)
		return NULL;
	buf b = {0};
	buf_puts(&b, "{");
	for (int i = 0, n = 0; i < k->n_shared; i++)
		if (v[i] != GAME_STAT_NONE)
			buf_printf(&b, "%s\"%s\":%lld", n++ ? "," : "", k->shared_defs[i].key,
				   (long long)v[i]);
	buf_puts(&b, "}");
	return store_req_own(r, b.data);
}

/* in.game (deep copy; kind is static), in.json (its shared delta) */
store_req *store_game_finish(store *st, const store_game *g, store_record_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_GAME_FINISH, ud);
	r->cb.record = cb;
	if (!g || !g->kind || !nonempty(g->kind->name) || !g->config_json || !g->seats_json ||
	    !g->choices_json || !g->result_json || g->n_seats < 0 ||
	    g->n_seats > GAME_MAX_SEATS || (g->n_seats > 0 && !g->seats) ||
	    !shared_delta_ok(g->kind, g->shared_delta)) {
		req_bad(r);
		return submit(r);
	}
	store_game *c = &r->in.game;
	const game_kind *k = g->kind;
	*c = *g;
	c->config_json = store_req_strdup(r, g->config_json);
	c->seats_json = store_req_strdup(r, g->seats_json);
	c->shared_json = store_req_strdup(r, g->shared_json);
	c->choices_json = store_req_strdup(r, g->choices_json);
	c->result_json = store_req_strdup(r, g->result_json);
	c->shared_delta = copy_values(r, g->shared_delta, k->n_shared);
	r->in.json = shared_delta_json(r, k, g->shared_delta);
	c->server_stats = copy_values(r, g->server_stats, k->n_stats);
	store_seat *seats = NULL;
	if (g->n_seats > 0) {
		seats = store_req_own(r, xcalloc((size_t)g->n_seats, sizeof *seats));
		for (int i = 0; i < g->n_seats; i++) {
			seats[i] = g->seats[i];
			seats[i].stats = copy_values(r, g->seats[i].stats, k->n_stats);
		}
	}
	c->seats = seats;
	return submit(r);
}

/* in.id (player), in.name, in.kind */
store_req *store_profile_get(store *st, int64_t player_id, const char *name, const char *kind,
			     store_profile_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_PROFILE, ud);
	r->cb.profile = cb;
	if (player_id <= 0 && !nonempty(name))
		req_bad(r);
	r->in.id = player_id;
	r->in.name = store_req_strdup(r, name);
	r->in.kind = store_req_strdup(r, kind);
	return submit(r);
}

/* in.kind */
static store_req *stats_read(store *st, enum store_op op, const char *kind, store_stats_cb cb,
			     void *ud)
{
	store_req *r = req_new(st, op, ud);
	r->cb.stats = cb;
	r->in.kind = store_req_strdup(r, kind);
	return submit(r);
}

store_req *store_server_stats(store *st, const char *kind, store_stats_cb cb, void *ud)
{
	return stats_read(st, OP_SERVER_STATS, kind, cb, ud);
}

store_req *store_shared_read(store *st, const char *kind, store_stats_cb cb, void *ud)
{
	return stats_read(st, OP_SHARED_READ, kind, cb, ud);
}

/* in.query (kind copied) */
store_req *store_games_list(store *st, const store_games_query *q, store_games_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_GAMES_LIST, ud);
	r->cb.games = cb;
	if (q) {
		r->in.query = *q;
		r->in.query.kind = store_req_strdup(r, q->kind);
	}
	if (r->in.query.limit <= 0 || r->in.query.limit > STORE_GAMES_MAX)
		r->in.query.limit = STORE_GAMES_MAX;
	return submit(r);
}

/* in.id (game) */
store_req *store_game_get(store *st, int64_t id, store_games_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_GAME_GET, ud);
	r->cb.games = cb;
	r->in.id = id;
	return submit(r);
}

/* in.live (deep copy, decisions ignored) */
store_req *store_live_start(store *st, const store_live_table *t, store_done_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_LIVE_START, ud);
	r->cb.done = cb;
	if (!t || t->table_id <= 0 || !nonempty(t->kind) || !t->config_json || !t->seats_json) {
		req_bad(r);
		return submit(r);
	}
	store_live_table *c = &r->in.live;
	*c = *t;
	c->kind = store_req_strdup(r, t->kind);
	c->config_json = store_req_strdup(r, t->config_json);
	c->seats_json = store_req_strdup(r, t->seats_json);
	c->shared_json = store_req_strdup(r, t->shared_json);
	c->meta_json = store_req_strdup(r, t->meta_json);
	c->decisions = NULL;
	c->n_decisions = 0;
	return submit(r);
}

/* in.id (table), in.seats, in.meta, in.last_seq */
store_req *store_live_update(store *st, int64_t table_id, const char *seats_json,
			     const char *meta_json, int64_t last_seq, store_done_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_LIVE_UPDATE, ud);
	r->cb.done = cb;
	if (table_id <= 0)
		req_bad(r);
	r->in.id = table_id;
	r->in.last_seq = last_seq;
	r->in.seats = store_req_strdup(r, seats_json);
	r->in.meta = store_req_strdup(r, meta_json);
	return submit(r);
}

/* in.id (table), in.seq, in.json (choices), in.last_seq */
store_req *store_live_decision(store *st, int64_t table_id, int64_t seq,
			       const char *choices_json, int64_t last_seq, store_done_cb cb,
			       void *ud)
{
	store_req *r = req_new(st, OP_LIVE_DECISION, ud);
	r->cb.done = cb;
	if (table_id <= 0 || seq <= 0 || !choices_json)
		req_bad(r);
	r->in.id = table_id;
	r->in.seq = seq;
	r->in.last_seq = last_seq;
	r->in.json = store_req_strdup(r, choices_json);
	return submit(r);
}

/* in.id (table) */
store_req *store_live_end(store *st, int64_t table_id, store_done_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_LIVE_END, ud);
	r->cb.done = cb;
	if (table_id <= 0)
		req_bad(r);
	r->in.id = table_id;
	return submit(r);
}

/* in.id (table), in.json (why) */
store_req *store_live_quarantine(store *st, int64_t table_id, const char *why,
				 store_done_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_LIVE_QUARANTINE, ud);
	r->cb.done = cb;
	if (table_id <= 0 || !nonempty(why))
		req_bad(r);
	r->in.id = table_id;
	r->in.json = store_req_strdup(r, why);
	return submit(r);
}

/* in.id (table, or 0: list), in.limit */
store_req *store_quarantined(store *st, int64_t table_id, int limit, store_live_cb cb,
			     void *ud)
{
	store_req *r = req_new(st, OP_QUARANTINED, ud);
	r->cb.live = cb;
	r->in.id = table_id > 0 ? table_id : 0;
	r->in.limit = limit < 1 ? 1 : limit > STORE_QUARANTINED_MAX ? STORE_QUARANTINED_MAX
								      : limit;
	return submit(r);
}

/* in.id (table) */
store_req *store_quarantined_drop(store *st, int64_t table_id, store_done_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_QUARANTINED_DROP, ud);
	r->cb.done = cb;
	if (table_id <= 0)
		req_bad(r);
	r->in.id = table_id;
	return submit(r);
}

/* in.limit: the grace in ms */
store_req *store_live_claim(store *st, int grace_ms, store_live_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_LIVE_CLAIM, ud);
	r->cb.live = cb;
	if (grace_ms < 0)
		req_bad(r);
	r->in.limit = grace_ms;
	return submit(r);
}

store_req *store_node_leave(store *st, store_done_cb cb, void *ud)
{
	store_req *r = req_new(st, OP_NODE_LEAVE, ud);
	r->cb.done = cb;
	return submit(r);
}
