/*
 * test_store.c — the store against a real SQLite file in a temporary
 * directory and a real libuv loop: each test runs the loop until its
 * callbacks fire (bounded by a 10 s timer; never a fixed sleep).
 * test_store_pg.c runs this same file against PostgreSQL (STORE_TEST_PG: a
 * fresh database a test); the tests of SQLite's own machinery (files, WAL,
 * PRAGMAs) are left out there and have PostgreSQL twins in that file.
 * Long (1,400 lines) on purpose: one file of sections, one per kind of
 * request, sharing the environment and callbacks at its top.
 */
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/log.h"
#include "../../common/util.h"
#include "../../server/store.h"
#include "../../server/store_int.h"
#include "../test.h"
#include "metric_sample.h"
#ifdef STORE_TEST_PG
#include "pg_server.h"
#endif

/* The store logs each open at info level; keep test output readable. */
__attribute__((constructor)) static void quiet(void)
{
	log_set_level(LOG_ERROR);
}

/* ---- a fake kind: only what the store reads ---------------------------- */

static const game_stat_def fake_stats[] = {
	{"gems_looted", "Gems Looted", GAME_STAT_SUM},
	{"fastest_win", "Fastest Win", GAME_STAT_MIN},
	{"best_score", "Best Score", GAME_STAT_MAX},
	{"rarely", "Rarely Set", GAME_STAT_SUM},
};
static const game_achievement_def fake_achs[] = {
	{"highest_score", "Highest Score"},
	{"bold", "Bold"},
	{"skynet", "Skynet"},
};
/* Its shared values: one of each aggregation. */
static const game_stat_def fake_shared[] = {
	{"uses.a", "Uses of A", GAME_STAT_SUM},
	{"best", "Best", GAME_STAT_MAX},
	{"fastest", "Fastest", GAME_STAT_MIN},
};
static const game_kind fake_kind = {
	.name = "fake",
	.stat_defs = fake_stats,
	.n_stats = 4,
	.achievement_defs = fake_achs,
	.n_achievements = 3,
	.shared_defs = fake_shared,
	.n_shared = 3,
};

/* ---- environment ------------------------------------------------------- */

typedef struct env {
	char dir[64];
	char path[128];
	uv_loop_t loop;
	store *st;
} env;

static void on_timeout(uv_timer_t *t)
{
	*(bool *)t->data = true;
}

/* Runs the loop until *count >= want, at most 10 s. */
static bool run_until(env *e, const int *count, int want)
{
	uv_timer_t t;
	bool timed_out = false;
	uv_timer_init(&e->loop, &t);
	t.data = &timed_out;
	uv_timer_start(&t, on_timeout, 10000, 0);
	while (*count < want && !timed_out)
		uv_run(&e->loop, UV_RUN_ONCE);
	uv_close((uv_handle_t *)&t, NULL);
	uv_run(&e->loop, UV_RUN_NOWAIT);
	return *count >= want;
}

static bool env_start(env *e)
{
	char err[256] = "";
	e->st = store_open(&e->loop, e->path, err, sizeof err);
	if (!e->st)
		printf("  store_open: %s\n", err);
	return e->st != NULL;
}

/* A fresh database and the loop, no store yet (a test that forks does it
 * before any store thread runs). */
static bool env_prepare(env *e)
{
	memset(e, 0, sizeof *e);
	strcpy(e->dir, "/tmp/lair-store-XXXXXX");
	if (!mkdtemp(e->dir))
		return false;
	snprintf(e->path, sizeof e->path, "%s/lair.db", e->dir);
#ifdef STORE_TEST_PG
	if (!test_pg_newdb(e->path, sizeof e->path))
		return false;
#endif
	uv_loop_init(&e->loop);
	return true;
}

static bool env_open(env *e)
{
	return env_prepare(e) && env_start(e);
}

static void on_shut(void *ud)
{
	(*(int *)ud)++;
}

/* Shuts the store down (running the loop until done) and frees it. */
static bool env_stop(env *e)
{
	int done = 0;
	store_shutdown(e->st, on_shut, &done);
	bool ok = run_until(e, &done, 1);
	store_free(e->st);
	e->st = NULL;
	return ok;
}

static bool env_reopen(env *e)
{
	return env_stop(e) && env_start(e);
}

static void env_close(env *e)
{
	if (e->st)
		env_stop(e);
	uv_run(&e->loop, UV_RUN_NOWAIT);
	if (uv_loop_close(&e->loop) != 0)
		test_fail(__FILE__, __LINE__, "the loop still has handles");
	DIR *d = opendir(e->dir);
	if (d) {
		struct dirent *de;
		char p[512];
		while ((de = readdir(d)))
			if (de->d_name[0] != '.') {
				snprintf(p, sizeof p, "%s/%s", e->dir, de->d_name);
				unlink(p);
			}
		closedir(d);
	}
	rmdir(e->dir);
}

/* Holds the store thread's queue (store_int.h's test hook) so that the
 * requests submitted meanwhile run as one batch, one transaction. */
static void hold(env *e, bool on)
{
	uv_mutex_lock(&e->st->mu);
	e->st->paused = on;
	uv_cond_signal(&e->st->cv);
	uv_mutex_unlock(&e->st->mu);
}

/* ---- result capture ---------------------------------------------------- */

typedef struct res {
	int fired;
	int err;
	int64_t id;
	char name[64];
	int role;
	int order[512]; /* fire order of tagged requests */
	int n_order;
	char shared[256]; /* a record's shared values: "key=value;..." */
} res;

static void cb_player(void *ud, int err, const store_player *p)
{
	res *r = ud;
	r->fired++;
	r->err = err;
	if (p) {
		r->id = p->id;
		strlcpy_safe(r->name, p->name, sizeof r->name);
		r->role = p->role;
	}
}

static void cb_done(void *ud, int err)
{
	res *r = ud;
	r->fired++;
	r->err = err;
}

static void cb_id(void *ud, int err, int64_t id)
{
	res *r = ud;
	r->fired++;
	r->err = err;
	r->id = id;
}

/* The values as "key=value;" in order. */
static void values_text(char *out, size_t len, const store_stat *rows, size_t n)
{
	size_t o = 0;
	out[0] = 0;
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(out + o, len - o, "%s=%lld;", rows[i].key,
				      (long long)rows[i].value);
}

static void cb_record(void *ud, int err, int64_t id, const store_stat *shared, size_t n)
{
	res *r = ud;
	cb_id(ud, err, id);
	values_text(r->shared, sizeof r->shared, shared, n);
}

/* Waits for one request's result (r->fired from 0 to 1). */
#define WAIT(e, r) CHECK_MSG(run_until((e), &(r)->fired, 1), "no callback within 10 s")

static int create_player(env *e, const char *name, const char *token, int64_t *id)
{
	res r = {0};
	store_player_create(e->st, name, token, STORE_ROLE_PLAYER, cb_player, &r);
	WAIT(e, &r);
	if (id)
		*id = r.id;
	return r.err;
}

/* ---- migrations -------------------------------------------------------- */

static int64_t db_int(const char *path, const char *sql)
{
#ifdef STORE_TEST_PG
	return test_pg_query(path, sql);
#else
	sqlite3 *db;
	sqlite3_stmt *s;
	int64_t v = -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			v = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	return v;
#endif
}

/* Runs a statement that writes, beside the store (a damaged row, a
 * hostile hand): the rows it changed, or -1. */
static int64_t db_write(const char *path, const char *sql)
{
#ifdef STORE_TEST_PG
	return test_pg_query(path, sql);
#else
	sqlite3 *db;
	int64_t v = -1;
	if (sqlite3_open(path, &db) == SQLITE_OK) {
		sqlite3_busy_timeout(db, 5000);
		if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
			v = sqlite3_changes(db);
	}
	sqlite3_close(db);
	return v;
#endif
}

#ifndef STORE_TEST_PG /* SQLite's own machinery */
TEST(store_migrations_apply_once_and_set_user_version)
{
	env e;
	REQUIRE(env_open(&e));
	CHECK_EQ(store_schema_version(e.st), store_n_migrations);
	CHECK(store_n_migrations >= 1);
	CHECK_EQ(create_player(&e, "ada", "tok-ada", NULL), STORE_OK);
	/* Restart: nothing re-applied (a second CREATE TABLE would fail), the
	 * data is still there. */
	REQUIRE(env_reopen(&e));
	CHECK_EQ(store_schema_version(e.st), store_n_migrations);
	res r = {0};
	store_player_by_name(e.st, "ada", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	REQUIRE(env_stop(&e));
	CHECK_EQ(db_int(e.path, "PRAGMA user_version"), store_n_migrations);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM sqlite_master WHERE name = 'players'"), 1);
	sqlite3 *db;
	REQUIRE(sqlite3_open(e.path, &db) == SQLITE_OK);
	sqlite3_stmt *s;
	REQUIRE(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s, NULL) == SQLITE_OK);
	REQUIRE(sqlite3_step(s) == SQLITE_ROW);
	CHECK_STR((const char *)sqlite3_column_text(s, 0), "wal");
	sqlite3_finalize(s);
	sqlite3_close(db);
	env_close(&e);
}
#endif

/* The legacy rows of an upgrade: each kind's state saved whole, with the
 * app's wrapper, bare, damaged, or not an object. */
#define LEGACY_SHARED                                                                      \
	"INSERT INTO shared_state (kind, json, updated_at) VALUES "                        \
	"('gems', '{\"app_v\":1,\"state\":{\"adventure_uses\":{\"banker\":3,"         \
	"\"monte\":0},\"best_winning_score\":61,\"deepest_depth\":null},"              \
	"\"folded\":{\"5:1000\":4}}', 1), "                                               \
	"('crawl', '{\"runs\":4,\"wins\":1,\"best_score\":-3,\"fastest_win\":2.5}', 1), " \
	"('torn', '{\"app_v\":1,\"sta', 1), ('odd', '{\"app_v\":1,\"state\":7}', 1)"
#define LEGACY_VALUES                                                                      \
	"crawl/runs=4/0;crawl/wins=1/0;gems/adventure_uses.banker=3/0;"                     \
	"gems/adventure_uses.monte=0/0;gems/best_winning_score=61/0;"

static void shared_now(env *e, char *out, size_t len);
static void check_values(env *e, const char *want, int64_t games);

/* After the upgrade (store started on the legacy database e): the saved
 * states are values, the legacy table (counted by legacy_sql) is gone, the
 * game recorded before stays. */
static void check_upgraded(env *e, int version, const char *legacy_sql)
{
	REQUIRE(env_start(e));
	CHECK_EQ(store_schema_version(e->st), version);
	check_values(e, LEGACY_VALUES, -1);
	CHECK_EQ(db_int(e->path, "SELECT count(*) FROM games WHERE table_id IS NULL"), 1);
	CHECK_EQ(db_int(e->path, legacy_sql), 0);
	env_close(e);
}

#ifndef STORE_TEST_PG /* SQLite's own machinery */
TEST(store_refuses_a_newer_schema)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(env_stop(&e));
	sqlite3 *db;
	REQUIRE(sqlite3_open(e.path, &db) == SQLITE_OK);
	REQUIRE(sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	char err[256] = "";
	store *st = store_open(&e.loop, e.path, err, sizeof err);
	CHECK(st == NULL);
	CHECK_MSG(strstr(err, "newer") != NULL, "err: %s", err);
	env_close(&e);
}

/* A database of the schema before the shared values (0004), with saved
 * states: the upgrade turns them into values, drops what is not JSON, and
 * every game recorded before it stays. */
TEST(store_upgrade_turns_saved_shared_states_into_values)
{
	env e;
	REQUIRE(env_prepare(&e));
	sqlite3 *db;
	REQUIRE(sqlite3_open(e.path, &db) == SQLITE_OK);
	REQUIRE(store_n_migrations >= 5 && store_migrations[4].version == 5);
	for (int i = 0; i < 4; i++)
		REQUIRE(sqlite3_exec(db, store_migrations[i].sql, NULL, NULL, NULL) == SQLITE_OK);
	REQUIRE(sqlite3_exec(db, "PRAGMA user_version = 4; " LEGACY_SHARED "; "
			     "INSERT INTO games (kind, config, seed, seats, choices, result, "
			     "started_at, ended_at) VALUES ('gems', '{}', 1, '[]', '[]', '{}', 1, 2)",
			     NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	check_upgraded(&e, store_n_migrations,
		       "SELECT count(*) FROM sqlite_master WHERE name = 'shared_state'");
}

TEST(store_bad_path_is_a_clear_error)
{
	uv_loop_t loop;
	uv_loop_init(&loop);
	char err[256] = "";
	store *st = store_open(&loop, "/nonexistent-dir/x/lair.db", err, sizeof err);
	CHECK(st == NULL);
	CHECK_MSG(strstr(err, "cannot open") != NULL, "err: %s", err);
	CHECK_EQ(uv_loop_close(&loop), 0);
}

/* The binary carries migrations/ byte for byte (tests run from the
 * repository root, as `make unit` does). */
TEST(store_embedded_migrations_match_the_files)
{
	for (int i = 0; i < store_n_migrations; i++) {
		char p[256];
		snprintf(p, sizeof p, "migrations/%s.sql", store_migrations[i].name);
		FILE *f = fopen(p, "rb");
		REQUIRE(f);
		buf b = {0};
		char chunk[4096];
		size_t n;
		while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
			buf_append(&b, chunk, n);
		fclose(f);
		CHECK_MSG(b.data && strcmp(b.data, store_migrations[i].sql) == 0, "%s differs", p);
		buf_free(&b);
	}
}

#endif

/* ---- players and tokens ------------------------------------------------ */

TEST(store_player_create_find_and_duplicate_names)
{
	env e;
	REQUIRE(env_open(&e));
	int64_t ada = 0, bob = 0;
	CHECK_EQ(create_player(&e, "Ada", "tok-1", &ada), STORE_OK);
	CHECK_EQ(create_player(&e, "bob", "tok-2", &bob), STORE_OK);
	CHECK(ada > 0 && bob > 0 && ada != bob);
	/* Names are unique ignoring ASCII case; nothing changes. */
	CHECK_EQ(create_player(&e, "ADA", "tok-3", NULL), STORE_ERR_NAME_TAKEN);
	CHECK_EQ(create_player(&e, "", "tok-4", NULL), STORE_ERR_INVALID);
	CHECK_EQ(create_player(&e, "carl", NULL, NULL), STORE_ERR_INVALID);
	/* The same token twice would make logins ambiguous. */
	CHECK_EQ(create_player(&e, "dora", "tok-1", NULL), STORE_ERR_EXISTS);

	res r = {0};
	store_player_by_token(e.st, "tok-1", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	CHECK_EQ(r.id, ada);
	CHECK_STR(r.name, "Ada");
	CHECK_EQ(r.role, STORE_ROLE_PLAYER);

	memset(&r, 0, sizeof r);
	store_player_by_name(e.st, "aDA", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	CHECK_EQ(r.id, ada);

	memset(&r, 0, sizeof r);
	store_player_by_token(e.st, "tok-3", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_NOT_FOUND);

	memset(&r, 0, sizeof r);
	store_player_by_name(e.st, "nobody", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_NOT_FOUND);
	env_close(&e);
}

#ifndef STORE_TEST_PG
static bool file_contains(const char *path, const char *needle)
{
	buf b = {0};
	char err[160];
	bool found = buf_read_file(&b, path, (size_t)1 << 30, err, sizeof err) == 0 && b.data &&
		     memmem(b.data, b.len, needle, strlen(needle)) != NULL;
	buf_free(&b);
	return found;
}
#endif

#ifndef STORE_TEST_PG /* SQLite's own machinery */
TEST(store_token_is_stored_only_as_its_hash)
{
	char token[STORE_TOKEN_LEN + 1], token2[STORE_TOKEN_LEN + 1];
	char hash[STORE_HASH_LEN + 1];
	REQUIRE(store_token_new(token) == 0);
	REQUIRE(store_token_new(token2) == 0);
	CHECK_EQ(strlen(token), STORE_TOKEN_LEN);
	CHECK(strcmp(token, token2) != 0);
	store_token_hash(token, hash);
	CHECK_EQ(strlen(hash), STORE_HASH_LEN);
	CHECK(strcmp(hash, token) != 0);
	/* SHA-256("abc"), so the hash is the standard one. */
	store_token_hash("abc", hash);
	CHECK_STR(hash, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

	env e;
	REQUIRE(env_open(&e));
	CHECK_EQ(create_player(&e, "ada", token, NULL), STORE_OK);
	char wal[160];
	snprintf(wal, sizeof wal, "%s-wal", e.path);
	store_token_hash(token, hash);
	/* While open (the row is in the WAL) and after close (checkpointed). */
	CHECK(file_contains(e.path, hash) || file_contains(wal, hash));
	CHECK(!file_contains(e.path, token) && !file_contains(wal, token));
	REQUIRE(env_stop(&e));
	CHECK(file_contains(e.path, hash)); /* the search itself works */
	CHECK(!file_contains(e.path, token));
	env_close(&e);
}
#endif

TEST(store_admin_issue_first_only_and_rotation)
{
	env e;
	REQUIRE(env_open(&e));
	res r = {0};
	store_admin_issue(e.st, "admin", "adm-1", true, cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	CHECK_EQ(r.role, STORE_ROLE_ADMIN);
	int64_t admin = r.id;
	/* Second start: an admin exists, nothing is issued. */
	memset(&r, 0, sizeof r);
	store_admin_issue(e.st, "admin", "adm-2", true, cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_EXISTS);
	memset(&r, 0, sizeof r);
	store_player_by_token(e.st, "adm-2", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_NOT_FOUND);
	/* `laird admin-token`: a new token replaces the old one. */
	memset(&r, 0, sizeof r);
	store_admin_issue(e.st, "admin", "adm-3", false, cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	CHECK_EQ(r.id, admin);
	memset(&r, 0, sizeof r);
	store_player_by_token(e.st, "adm-1", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_NOT_FOUND);
	memset(&r, 0, sizeof r);
	store_player_by_token(e.st, "adm-3", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	CHECK_EQ(r.role, STORE_ROLE_ADMIN);
	/* An existing player can be promoted. */
	int64_t bob;
	CHECK_EQ(create_player(&e, "bob", "bob-1", &bob), STORE_OK);
	memset(&r, 0, sizeof r);
	store_admin_issue(e.st, "BOB", "bob-2", false, cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	CHECK_EQ(r.id, bob);
	CHECK_EQ(r.role, STORE_ROLE_ADMIN);
	env_close(&e);
}

/* ---- finished games, statistics, achievements --------------------------- */

typedef struct prof {
	int fired, err;
	int64_t games;
	char stats[512];  /* "kind/key=value/samples;" ... */
	char achs[512];   /* "key=count@first;" ... */
	char name[64];
} prof;

static void cb_profile(void *ud, int err, const store_profile *p)
{
	prof *x = ud;
	x->fired++;
	x->err = err;
	if (!p)
		return;
	x->games = p->games;
	strlcpy_safe(x->name, p->player.name, sizeof x->name);
	size_t o = 0;
	for (size_t i = 0; i < p->n_stats && o < sizeof x->stats; i++)
		o += (size_t)snprintf(x->stats + o, sizeof x->stats - o, "%s/%s=%lld/%lld;",
				      p->stats[i].kind, p->stats[i].key,
				      (long long)p->stats[i].value, (long long)p->stats[i].samples);
	o = 0;
	for (size_t i = 0; i < p->n_achievements && o < sizeof x->achs; i++)
		o += (size_t)snprintf(x->achs + o, sizeof x->achs - o, "%s=%lld@%lld;",
				      p->achievements[i].key, (long long)p->achievements[i].count,
				      (long long)p->achievements[i].first_at);
}

static void cb_stats(void *ud, int err, const store_stat *rows, size_t n)
{
	prof *x = ud;
	x->fired++;
	x->err = err;
	size_t o = 0;
	for (size_t i = 0; i < n && o < sizeof x->stats; i++)
		o += (size_t)snprintf(x->stats + o, sizeof x->stats - o, "%s/%s=%lld/%lld;",
				      rows[i].kind, rows[i].key, (long long)rows[i].value,
				      (long long)rows[i].samples);
}

#define NONE GAME_STAT_NONE

/* Writes one game of the fake kind with two players and an AI seat. */
static int finish(env *e, int64_t p1, const int64_t *s1, uint32_t a1, int64_t p2,
		  const int64_t *s2, uint32_t a2, const int64_t *server, int64_t ended,
		  const int64_t *shared_delta, int64_t live_id, int64_t *game_id)
{
	store_seat seats[3] = {
		{.player_id = p1, .stats = s1, .achievements = a1},
		{.player_id = 0, .stats = s1, .achievements = 7}, /* AI: ignored */
		{.player_id = p2, .stats = s2, .achievements = a2},
	};
	store_game g = {
		.kind = &fake_kind,
		.config_json = "{\"c\":1}",
		.seed = 0xfedcba9876543210ull,
		.seats_json = "[1,\"ai\",2]",
		.shared_json = "{\"before\":true}",
		.choices_json = "[[0,1,0]]",
		.result_json = "{\"winners\":[0]}",
		.started_at = ended - 1000,
		.ended_at = ended,
		.n_seats = 3,
		.seats = seats,
		.server_stats = server,
		.shared_delta = shared_delta,
		.live_table_id = live_id,
	};
	res r = {0};
	store_game_finish(e->st, &g, cb_record, &r);
	WAIT(e, &r);
	if (game_id)
		*game_id = r.id;
	return r.err;
}

TEST(store_game_finish_folds_sum_min_max_per_player_and_server_wide)
{
	env e;
	REQUIRE(env_open(&e));
	int64_t ada, bob;
	REQUIRE(create_player(&e, "ada", "t-ada", &ada) == STORE_OK);
	REQUIRE(create_player(&e, "bob", "t-bob", &bob) == STORE_OK);

	/* gems_looted SUM, fastest_win MIN, best_score MAX, rarely SUM. */
	int64_t a1[] = {10, 50, 100, NONE}, b1[] = {3, NONE, 40, NONE}, s1[] = {13, 50, 100, NONE};
	int64_t a2[] = {5, 30, 80, NONE}, b2[] = {7, 20, 90, 1}, s2[] = {12, 20, 90, 1};
	int64_t a3[] = {-2, 70, 120, NONE}, b3[] = {0, NONE, 10, NONE}, s3[] = {-2, 70, 120, NONE};
	int64_t g1, g2, g3;
	CHECK_EQ(finish(&e, ada, a1, 1u, bob, b1, 2u, s1, 1000, NULL, 0, &g1), STORE_OK);
	CHECK_EQ(finish(&e, ada, a2, 3u, bob, b2, 0u, s2, 2000, NULL, 0, &g2), STORE_OK);
	CHECK_EQ(finish(&e, ada, a3, 0u, bob, b3, 2u, s3, 3000, NULL, 0, &g3), STORE_OK);
	CHECK(g1 > 0 && g2 > g1 && g3 > g2);

	prof p = {0};
	store_profile_get(e.st, ada, NULL, NULL, cb_profile, &p);
	WAIT(&e, &p);
	CHECK_EQ(p.err, STORE_OK);
	CHECK_STR(p.name, "ada");
	CHECK_EQ(p.games, 3);
	CHECK_STR(p.stats, "fake/best_score=120/3;fake/fastest_win=30/3;"
			   "fake/gems_looted=13/3;");
	/* Achievement bit 0 in games 1 and 2, bit 1 in game 2; first_at is the
	 * first game's end; the AI seat's mask (7) counts for nobody. */
	CHECK_STR(p.achs, "bold=1@2000;highest_score=2@1000;");

	memset(&p, 0, sizeof p);
	store_profile_get(e.st, 0, "BOB", "fake", cb_profile, &p);
	WAIT(&e, &p);
	CHECK_EQ(p.err, STORE_OK);
	CHECK_STR(p.stats, "fake/best_score=90/3;fake/fastest_win=20/1;"
			   "fake/gems_looted=10/3;fake/rarely=1/1;");
	CHECK_STR(p.achs, "bold=2@1000;");

	memset(&p, 0, sizeof p);
	store_profile_get(e.st, 0, "bob", "otherkind", cb_profile, &p);
	WAIT(&e, &p);
	CHECK_EQ(p.err, STORE_OK);
	CHECK_STR(p.stats, "");
	CHECK_EQ(p.games, 0);

	memset(&p, 0, sizeof p);
	store_profile_get(e.st, 0, "nobody", NULL, cb_profile, &p);
	WAIT(&e, &p);
	CHECK_EQ(p.err, STORE_ERR_NOT_FOUND);

	memset(&p, 0, sizeof p);
	store_server_stats(e.st, "fake", cb_stats, &p);
	WAIT(&e, &p);
	CHECK_EQ(p.err, STORE_OK);
	CHECK_STR(p.stats, "fake/best_score=120/3;fake/fastest_win=20/3;"
			   "fake/gems_looted=23/3;fake/rarely=1/1;");

	/* Survives a restart. */
	REQUIRE(env_reopen(&e));
	memset(&p, 0, sizeof p);
	store_server_stats(e.st, NULL, cb_stats, &p);
	WAIT(&e, &p);
	CHECK_STR(p.stats, "fake/best_score=120/3;fake/fastest_win=20/3;"
			   "fake/gems_looted=23/3;fake/rarely=1/1;");
	env_close(&e);
}

typedef struct games_res {
	int fired, err;
	size_t n;
	int64_t ids[8];
	store_game_rec first; /* strings copied below */
	char config[64], seats[64], shared[64], choices[64], result[64], kind[16];
} games_res;

static void cb_games(void *ud, int err, const store_game_rec *g, size_t n)
{
	games_res *x = ud;
	x->fired++;
	x->err = err;
	x->n = n;
	for (size_t i = 0; i < n && i < 8; i++)
		x->ids[i] = g[i].id;
	if (n) {
		x->first = g[0];
		strlcpy_safe(x->kind, g[0].kind, sizeof x->kind);
		strlcpy_safe(x->config, g[0].config_json, sizeof x->config);
		strlcpy_safe(x->seats, g[0].seats_json, sizeof x->seats);
		strlcpy_safe(x->shared, g[0].shared_json, sizeof x->shared);
		strlcpy_safe(x->choices, g[0].choices_json, sizeof x->choices);
		strlcpy_safe(x->result, g[0].result_json, sizeof x->result);
	}
}

TEST(store_game_records_list_and_get)
{
	env e;
	REQUIRE(env_open(&e));
	int64_t ada, bob, cid;
	REQUIRE(create_player(&e, "ada", "t-ada", &ada) == STORE_OK);
	REQUIRE(create_player(&e, "bob", "t-bob", &bob) == STORE_OK);
	REQUIRE(create_player(&e, "cid", "t-cid", &cid) == STORE_OK);
	int64_t ids[4];
	CHECK_EQ(finish(&e, ada, NULL, 0, bob, NULL, 0, NULL, 1000, NULL, 0, &ids[0]), STORE_OK);
	CHECK_EQ(finish(&e, ada, NULL, 0, cid, NULL, 0, NULL, 2000, NULL, 0, &ids[1]), STORE_OK);
	CHECK_EQ(finish(&e, bob, NULL, 0, cid, NULL, 0, NULL, 3000, NULL, 0, &ids[2]), STORE_OK);
	CHECK_EQ(finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 4000, NULL, 0, &ids[3]), STORE_OK);

	games_res g = {0};
	store_game_get(e.st, ids[1], cb_games, &g);
	WAIT(&e, &g);
	CHECK_EQ(g.err, STORE_OK);
	CHECK_EQ(g.n, 1);
	CHECK_EQ(g.first.id, ids[1]);
	CHECK_STR(g.kind, "fake");
	CHECK(g.first.seed == 0xfedcba9876543210ull); /* above INT64_MAX, bit for bit */
	CHECK_STR(g.config, "{\"c\":1}");
	CHECK_STR(g.seats, "[1,\"ai\",2]");
	CHECK_STR(g.shared, "{\"before\":true}");
	CHECK_STR(g.choices, "[[0,1,0]]");
	CHECK_STR(g.result, "{\"winners\":[0]}");
	CHECK_EQ(g.first.started_at, 1000);
	CHECK_EQ(g.first.ended_at, 2000);

	memset(&g, 0, sizeof g);
	store_game_get(e.st, 9999, cb_games, &g);
	WAIT(&e, &g);
	CHECK_EQ(g.err, STORE_ERR_NOT_FOUND);

	/* Newest first; by player; paging with before_id and limit. */
	memset(&g, 0, sizeof g);
	store_games_list(e.st, &(store_games_query){0}, cb_games, &g);
	WAIT(&e, &g);
	CHECK_EQ(g.n, 4);
	CHECK(g.ids[0] == ids[3] && g.ids[3] == ids[0]);

	memset(&g, 0, sizeof g);
	store_games_list(e.st, &(store_games_query){.player_id = cid}, cb_games, &g);
	WAIT(&e, &g);
	CHECK_EQ(g.n, 2);
	CHECK(g.ids[0] == ids[2] && g.ids[1] == ids[1]);

	memset(&g, 0, sizeof g);
	store_games_query q = {.player_id = ada, .before_id = ids[3], .limit = 1};
	store_games_list(e.st, &q, cb_games, &g);
	WAIT(&e, &g);
	CHECK_EQ(g.n, 1);
	CHECK_EQ(g.ids[0], ids[1]);

	memset(&g, 0, sizeof g);
	store_games_list(e.st, &(store_games_query){.kind = "gems"}, cb_games, &g);
	WAIT(&e, &g);
	CHECK_EQ(g.err, STORE_OK);
	CHECK_EQ(g.n, 0);
	env_close(&e);
}

/* The shared values of every kind now, as "kind/key=value;". */
static void shared_now(env *e, char *out, size_t len)
{
	prof p = {0};
	store_shared_read(e->st, NULL, cb_stats, &p);
	WAIT(e, &p);
	CHECK_EQ(p.err, STORE_OK);
	snprintf(out, len, "%s", p.stats);
}

/* The shared values are want (as shared_now writes them), and the games
 * recorded are `games` (-1: not counted). */
static void check_values(env *e, const char *want, int64_t games)
{
	char now[512];
	shared_now(e, now, sizeof now);
	CHECK_STR(now, want);
	if (games >= 0)
		CHECK_EQ(db_int(e->path, "SELECT count(*) FROM games"), games);
}

/* A player's profile, and the server's statistics, as read now. */
static prof read_profile(env *e, int64_t id)
{
	prof p = {0};
	store_profile_get(e->st, id, NULL, NULL, cb_profile, &p);
	WAIT(e, &p);
	return p;
}

static prof read_server_stats(env *e)
{
	prof p = {0};
	store_server_stats(e->st, NULL, cb_stats, &p);
	WAIT(e, &p);
	return p;
}

/* A fresh store with one player, ada. */
static bool env_open_with_ada(env *e, int64_t *ada)
{
	return env_open(e) && create_player(e, "ada", "t", ada) == STORE_OK;
}

TEST(store_shared_values_merge_game_by_game_and_load_at_open)
{
	env e;
	int64_t ada;
	REQUIRE(env_open_with_ada(&e, &ada));
	size_t n = 9;
	CHECK(store_shared_loaded(e.st, &n) == NULL && n == 0);
	/* uses.a SUM, best MAX, fastest MIN; NONE leaves a value as it is. */
	int64_t d1[] = {2, 40, NONE}, d2[] = {0, 90, 12}, d3[] = {5, 60, 30};
	res r = {0};
	CHECK_EQ(finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 1000, d1, 0, NULL), STORE_OK);
	CHECK_EQ(finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 2000, d2, 0, NULL), STORE_OK);
	/* The record's answer: the values after its merge, in its transaction. */
	store_seat seat = {.player_id = ada};
	store_game g = {.kind = &fake_kind, .config_json = "{}", .seats_json = "[]",
			.choices_json = "[]", .result_json = "{}", .started_at = 2500,
			.ended_at = 3000, .n_seats = 1, .seats = &seat, .shared_delta = d3};
	store_game_finish(e.st, &g, cb_record, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	CHECK_STR(r.shared, "best=90;fastest=12;uses.a=7;");
	check_values(&e, "fake/best=90/0;fake/fastest=12/0;fake/uses.a=7/0;", -1);
	/* Each record keeps what it merged. */
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM games WHERE shared_delta = "
			"'{\"uses.a\":2,\"best\":40}'"), 1);
	REQUIRE(env_reopen(&e));
	const store_stat *v = store_shared_loaded(e.st, &n);
	REQUIRE(n == 3 && v);
	CHECK(!strcmp(v[0].kind, "fake") && !strcmp(v[0].key, "best") && v[0].value == 90);
	CHECK(!strcmp(v[1].key, "fastest") && v[1].value == 12);
	CHECK(!strcmp(v[2].key, "uses.a") && v[2].value == 7);
	/* A SUM that would take a count back is refused, nothing written. */
	int64_t neg[] = {-1, NONE, NONE};
	CHECK_EQ(finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 4000, neg, 0, NULL), STORE_ERR_INVALID);
	check_values(&e, "fake/best=90/0;fake/fastest=12/0;fake/uses.a=7/0;", -1);
	env_close(&e);
}

static int live_start(env *e, int64_t id, uint64_t seed);

/* A record sent again — its first answer lost, or the same game recorded by
 * a node that took its table over — is the same game (live table,
 * started_at): nothing of it counts twice. */
TEST(store_a_game_recorded_again_counts_once)
{
	env e;
	int64_t ada;
	REQUIRE(env_open_with_ada(&e, &ada));
	REQUIRE(live_start(&e, 9, 1) == STORE_OK);
	int64_t v[] = {10, 5, 5, NONE}, d[] = {3, 50, 20};
	int64_t first = 0, again = 0, other = 0;
	CHECK_EQ(finish(&e, ada, v, 1u, 0, NULL, 0, v, 5000, d, 9, &first), STORE_OK);
	/* The same game again, even with other numbers: the first stands. */
	int64_t d2[] = {100, 900, 1};
	CHECK_EQ(finish(&e, ada, v, 1u, 0, NULL, 0, v, 5000, d2, 9, &again), STORE_OK);
	CHECK(first > 0 && again == first);
	check_values(&e, "fake/best=50/0;fake/fastest=20/0;fake/uses.a=3/0;", -1);
	prof p = read_profile(&e, ada), all = read_server_stats(&e);
	CHECK_EQ(p.games, 1);
	CHECK_STR(p.stats, "fake/best_score=5/1;fake/fastest_win=5/1;fake/gems_looted=10/1;");
	CHECK_STR(p.achs, "highest_score=1@5000;");
	CHECK_STR(all.stats, "fake/best_score=5/1;fake/fastest_win=5/1;fake/gems_looted=10/1;");
	/* The table's next game (another start) is another game. */
	CHECK_EQ(finish(&e, ada, v, 0u, 0, NULL, 0, v, 9000, d, 9, &other), STORE_OK);
	CHECK(other > first);
	check_values(&e, "fake/best=50/0;fake/fastest=20/0;fake/uses.a=6/0;", 2);
	env_close(&e);
}

/* Two stores on one database (two lairds: on SQLite a second process on
 * the file, on PostgreSQL a second node), their records interleaved batch
 * by batch: the values are the merge of every record, read alike by both,
 * and each answer is the merge of the records committed before it. */
TEST(store_two_writers_interleaving_merge_every_record)
{
	env e;
	REQUIRE(env_open(&e));
	env e2 = e;
	uv_loop_init(&e2.loop);
	REQUIRE(env_start(&e2));
	int64_t ada;
	REQUIRE(create_player(&e, "ada", "t", &ada) == STORE_OK);
	enum { GAMES = 12 };
	res r[GAMES];
	memset(r, 0, sizeof r);
	int64_t d[GAMES][3];
	int64_t sum = 0, best = NONE, fastest = NONE;
	store_seat seat = {.player_id = ada};
	for (int i = 0; i < GAMES; i++) {
		d[i][0] = i % 4;
		d[i][1] = i % 3 ? (i * 37) % 101 : NONE;
		d[i][2] = 50 + (i * 29) % 47;
		sum += d[i][0];
		if (d[i][1] != NONE && (best == NONE || d[i][1] > best))
			best = d[i][1];
		if (fastest == NONE || d[i][2] < fastest)
			fastest = d[i][2];
	}
	/* Three at a time on each, one batch each, the two stores' batches
	 * in flight together. */
	for (int i = 0; i < GAMES; i += 6) {
		hold(&e, true);
		hold(&e2, true);
		for (int j = i; j < i + 6; j++) {
			env *w = j % 2 ? &e2 : &e;
			store_game g = {.kind = &fake_kind, .config_json = "{}", .seats_json = "[]",
					.choices_json = "[]", .result_json = "{}",
					.started_at = 100 + j, .ended_at = 200 + j, .n_seats = 1,
					.seats = &seat, .shared_delta = d[j], .live_table_id = 1000 + j};
			store_game_finish(w->st, &g, cb_record, &r[j]);
		}
		hold(&e, false);
		hold(&e2, false);
		for (int j = i; j < i + 6; j++)
			WAIT(j % 2 ? &e2 : &e, &r[j]);
	}
	for (int j = 0; j < GAMES; j++)
		CHECK_EQ(r[j].err, STORE_OK);
	char want[256], a[512], b[512];
	snprintf(want, sizeof want, "fake/best=%lld/0;fake/fastest=%lld/0;fake/uses.a=%lld/0;",
		 (long long)best, (long long)fastest, (long long)sum);
	shared_now(&e, a, sizeof a);
	shared_now(&e2, b, sizeof b);
	CHECK_STR(a, want);
	CHECK_STR(b, want);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM games"), GAMES);
	REQUIRE(env_stop(&e2));
	uv_run(&e2.loop, UV_RUN_NOWAIT);
	CHECK_EQ(uv_loop_close(&e2.loop), 0);
	env_close(&e);
}

/* ---- live tables (crash recovery) --------------------------------------- */

static int live_start(env *e, int64_t id, uint64_t seed)
{
	store_live_table t = {
		.table_id = id,
		.kind = "fake",
		.config_json = "{\"c\":2}",
		.seed = seed,
		.seats_json = "[\"ada\",\"ai\"]",
		.shared_json = "{\"uses\":[0]}",
		.meta_json = "{\"name\":\"t\"}",
		.started_at = 777,
	};
	res r = {0};
	store_live_start(e->st, &t, cb_done, &r);
	WAIT(e, &r);
	return r.err;
}

static int decide(env *e, int64_t id, int64_t seq, const char *choices)
{
	res r = {0};
	store_live_decision(e->st, id, seq, choices, 0, cb_done, &r);
	WAIT(e, &r);
	return r.err;
}

TEST(store_live_tables_and_decisions_round_trip_then_end)
{
	env e;
	REQUIRE(env_open(&e));
	size_t n = 99;
	CHECK(store_live_tables(e.st, &n) == NULL);
	CHECK_EQ(n, 0);
	CHECK_EQ(live_start(&e, 7, 0x8000000000000001ull), STORE_OK);
	CHECK_EQ(live_start(&e, 3, 42), STORE_OK);
	CHECK_EQ(live_start(&e, 7, 1), STORE_ERR_EXISTS);
	CHECK_EQ(decide(&e, 7, 1, "[1,0]"), STORE_OK);
	CHECK_EQ(decide(&e, 7, 2, "[0,0]"), STORE_OK);
	CHECK_EQ(decide(&e, 7, 3, "[1,1]"), STORE_OK);
	CHECK_EQ(decide(&e, 7, 2, "[9,9]"), STORE_ERR_EXISTS);
	CHECK_EQ(decide(&e, 99, 1, "[0]"), STORE_ERR_NOT_FOUND);
	CHECK_EQ(decide(&e, 3, 1, "[5]"), STORE_OK);
	res r = {0};
	store_live_update(e.st, 3, NULL, "{\"name\":\"renamed\"}", 0, cb_done, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	memset(&r, 0, sizeof r);
	store_live_update(e.st, 55, "[]", NULL, 0, cb_done, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_NOT_FOUND);

	REQUIRE(env_reopen(&e));
	const store_live_table *t = store_live_tables(e.st, &n);
	REQUIRE(n == 2 && t);
	CHECK_EQ(t[0].table_id, 3);
	CHECK_STR(t[0].meta_json, "{\"name\":\"renamed\"}");
	CHECK_STR(t[0].seats_json, "[\"ada\",\"ai\"]");
	CHECK_EQ(t[0].n_decisions, 1);
	CHECK_EQ(t[1].table_id, 7);
	CHECK(t[1].seed == 0x8000000000000001ull);
	CHECK_STR(t[1].kind, "fake");
	CHECK_STR(t[1].config_json, "{\"c\":2}");
	CHECK_STR(t[1].shared_json, "{\"uses\":[0]}");
	CHECK_EQ(t[1].started_at, 777);
	REQUIRE(t[1].n_decisions == 3);
	CHECK(t[1].decisions[0].seq == 1 && t[1].decisions[2].seq == 3);
	CHECK_STR(t[1].decisions[0].choices_json, "[1,0]");
	CHECK_STR(t[1].decisions[1].choices_json, "[0,0]");
	CHECK_STR(t[1].decisions[2].choices_json, "[1,1]");
	store_live_tables_release(e.st);
	CHECK(store_live_tables(e.st, &n) == NULL && n == 0);

	/* Table 3 closes; table 7's game finishes and ends it atomically. */
	memset(&r, 0, sizeof r);
	store_live_end(e.st, 3, cb_done, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	memset(&r, 0, sizeof r);
	store_live_end(e.st, 3, cb_done, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_NOT_FOUND);
	int64_t ada;
	REQUIRE(create_player(&e, "ada", "t", &ada) == STORE_OK);
	CHECK_EQ(finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 9, NULL, 7, NULL), STORE_OK);
	REQUIRE(env_reopen(&e));
	CHECK(store_live_tables(e.st, &n) == NULL && n == 0);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions"), 0);
	env_close(&e);
}

/* The table's update seq: written with its start, raised (never lowered)
 * by updates and decisions, loaded as the highest. */
TEST(store_live_last_seq_is_the_highest_written)
{
	env e;
	REQUIRE(env_open(&e));
	store_live_table t = {.table_id = 8, .kind = "fake", .config_json = "{}",
			      .seats_json = "[]", .started_at = 1, .last_seq = 40};
	res r = {0};
	store_live_start(e.st, &t, cb_done, &r);
	WAIT(&e, &r);
	REQUIRE(r.err == STORE_OK);
	REQUIRE(live_start(&e, 9, 1) == STORE_OK); /* last_seq 0: unknown */
	memset(&r, 0, sizeof r);
	store_live_decision(e.st, 8, 1, "[0]", 70, cb_done, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	memset(&r, 0, sizeof r);
	store_live_decision(e.st, 8, 2, "[0]", 60, cb_done, &r);
	WAIT(&e, &r);
	memset(&r, 0, sizeof r);
	store_live_update(e.st, 8, NULL, NULL, 65, cb_done, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	memset(&r, 0, sizeof r);
	store_live_update(e.st, 8, "[1]", NULL, 0, cb_done, &r); /* seats only */
	WAIT(&e, &r);
	REQUIRE(env_reopen(&e));
	size_t n;
	const store_live_table *v = store_live_tables(e.st, &n);
	REQUIRE(n == 2 && v);
	CHECK_EQ(v[0].table_id, 8);
	CHECK_EQ(v[0].last_seq, 70);
	CHECK_STR(v[0].seats_json, "[1]");
	CHECK_EQ(v[1].last_seq, 0);
	CHECK_EQ(db_int(e.path, "SELECT last_seq FROM live_tables WHERE table_id = 8"), 65);
	memset(&r, 0, sizeof r);
	store_live_update(e.st, 8, NULL, NULL, 900, cb_done, &r);
	WAIT(&e, &r);
	REQUIRE(env_reopen(&e));
	v = store_live_tables(e.st, &n);
	REQUIRE(n == 2 && v);
	CHECK_EQ(v[0].last_seq, 900);
	env_close(&e);
}

/* ---- tables kept aside ------------------------------------------------- */

typedef struct live_res {
	int fired, err;
	size_t n;
	int64_t ids[8];
	size_t n_decisions[8];
	int64_t seqs[8];
	char why[128];
} live_res;

static void cb_live(void *ud, int err, const store_live_table *v, size_t n)
{
	live_res *r = ud;
	r->fired++;
	r->err = err;
	r->n = n;
	for (size_t i = 0; i < n && i < 8; i++) {
		r->ids[i] = v[i].table_id;
		r->n_decisions[i] = v[i].n_decisions;
		if (i == 0 && v[i].quarantined)
			strlcpy_safe(r->why, v[i].quarantined, sizeof r->why);
	}
	if (n == 1 && v[0].decisions)
		for (size_t j = 0; j < v[0].n_decisions && j < 8; j++)
			r->seqs[j] = v[0].decisions[j].seq;
}

static int quarantine(env *e, int64_t id, const char *why)
{
	res r = {0};
	store_live_quarantine(e->st, id, why, cb_done, &r);
	WAIT(e, &r);
	return r.err;
}

static live_res quarantined(env *e, int64_t id, int limit)
{
	live_res r = {0};
	store_quarantined(e->st, id, limit, cb_live, &r);
	CHECK_MSG(run_until(e, &r.fired, 1), "no callback within 10 s");
	return r;
}

static int drop_quarantined(env *e, int64_t id)
{
	res r = {0};
	store_quarantined_drop(e->st, id, cb_done, &r);
	WAIT(e, &r);
	return r.err;
}

/* A takeover pass with no other node: nothing to take (on SQLite there is
 * never another node; on PostgreSQL this one is alone). */
static void cb_claim(void *ud, int err, const store_live_table *t, size_t n)
{
	res *r = ud;
	r->fired++;
	r->err = err;
	r->id = t ? (int64_t)n : -1;
}

TEST(store_live_claim_with_no_other_node_takes_nothing)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(live_start(&e, 2, 5) == STORE_OK);
	res r = {0};
	store_live_claim(e.st, 0, cb_claim, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	CHECK(r.id <= 0);
	CHECK_EQ(decide(&e, 2, 1, "[1]"), STORE_OK); /* still this node's */
	memset(&r, 0, sizeof r);
	store_live_claim(e.st, -1, cb_claim, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_INVALID);
	env_close(&e);
}

/* A table kept aside keeps its rows, loads without its decisions, is
 * untouched by every live-table call, and goes only when dropped. */
TEST(store_quarantined_tables_stay_until_dropped)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(live_start(&e, 4, 1) == STORE_OK);
	REQUIRE(live_start(&e, 9, 2) == STORE_OK);
	REQUIRE(live_start(&e, 6, 3) == STORE_OK);
	for (int seq = 1; seq <= 5; seq++)
		if (seq != 3)
			REQUIRE(decide(&e, 4, seq, "[0,1]") == STORE_OK);
	REQUIRE(decide(&e, 6, 1, "[1,1]") == STORE_OK);
	CHECK_EQ(quarantine(&e, 4, "decision 3 is missing"), STORE_OK);
	CHECK_EQ(quarantine(&e, 4, "again"), STORE_ERR_NOT_FOUND); /* already aside */
	CHECK_EQ(quarantine(&e, 77, "none"), STORE_ERR_NOT_FOUND);
	CHECK_EQ(quarantine(&e, 6, ""), STORE_ERR_INVALID);
	CHECK_EQ(quarantine(&e, 6, "its start record is damaged"), STORE_OK);

	/* No live-table call reaches them. */
	CHECK_EQ(decide(&e, 4, 3, "[0,0]"), STORE_ERR_NOT_FOUND);
	res r = {0};
	store_live_update(e.st, 4, "[]", NULL, 0, cb_done, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_NOT_FOUND);
	memset(&r, 0, sizeof r);
	store_live_end(e.st, 4, cb_done, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_NOT_FOUND);
	int64_t ada;
	REQUIRE(create_player(&e, "ada", "t", &ada) == STORE_OK);
	CHECK_EQ(finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 9, NULL, 4, NULL), STORE_OK);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 4"), 4);
	CHECK_EQ(live_start(&e, 4, 5), STORE_ERR_EXISTS); /* its id stays taken */

	/* The list (without decisions, their count instead) and one in full. */
	live_res l = quarantined(&e, 0, 10);
	CHECK_EQ(l.err, STORE_OK);
	REQUIRE(l.n == 2);
	CHECK(l.ids[0] == 4 && l.ids[1] == 6);
	CHECK(l.n_decisions[0] == 4 && l.n_decisions[1] == 1);
	CHECK_STR(l.why, "decision 3 is missing");
	l = quarantined(&e, 0, 1);
	CHECK(l.n == 1 && l.ids[0] == 4);
	l = quarantined(&e, 4, 0);
	REQUIRE(l.err == STORE_OK && l.n == 1);
	CHECK(l.n_decisions[0] == 4 && l.seqs[0] == 1 && l.seqs[1] == 2 && l.seqs[2] == 4 &&
	      l.seqs[3] == 5);
	CHECK_EQ(quarantined(&e, 9, 0).err, STORE_ERR_NOT_FOUND); /* in play */

	/* A restart loads them marked, without decisions; the one in play as
	 * before. */
	REQUIRE(env_reopen(&e));
	size_t n;
	const store_live_table *t = store_live_tables(e.st, &n);
	REQUIRE(n == 3 && t);
	CHECK(t[0].table_id == 4 && t[0].quarantined && t[0].n_decisions == 0);
	CHECK_STR(t[0].quarantined, "decision 3 is missing");
	CHECK(t[0].quarantined_at > 0);
	CHECK(t[1].table_id == 6 && t[1].quarantined);
	CHECK(t[2].table_id == 9 && !t[2].quarantined);
	CHECK_EQ(decide(&e, 6, 2, "[0,0]"), STORE_ERR_NOT_FOUND); /* still aside */
	CHECK_EQ(decide(&e, 9, 1, "[0,0]"), STORE_OK);

	/* Dropping: only a table kept aside, once. */
	CHECK_EQ(drop_quarantined(&e, 9), STORE_ERR_NOT_FOUND);
	CHECK_EQ(drop_quarantined(&e, 4), STORE_OK);
	CHECK_EQ(drop_quarantined(&e, 4), STORE_ERR_NOT_FOUND);
	CHECK_EQ(drop_quarantined(&e, 0), STORE_ERR_INVALID);
	CHECK_EQ(decide(&e, 4, 3, "[0,0]"), STORE_ERR_NOT_FOUND); /* gone */
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 4"), 0);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_tables"), 2);
	CHECK_EQ(quarantined(&e, 0, 10).n, 1);
	env_close(&e);
}

/* ---- failures roll back, cancellation, queue, shutdown ----------------- */

TEST(store_failed_game_finish_rolls_back_everything)
{
	env e;
	REQUIRE(env_open(&e));
	int64_t ada;
	REQUIRE(create_player(&e, "ada", "t", &ada) == STORE_OK);
	REQUIRE(live_start(&e, 5, 1) == STORE_OK);
	REQUIRE(decide(&e, 5, 1, "[0]") == STORE_OK);
	int64_t v[] = {10, 1, 1, 1};
	/* Seat 0 is fine (its stats and achievements are written first); seat
	 * 2's player does not exist: a foreign-key violation mid-transaction. */
	int64_t d[] = {3, 7, 2};
	CHECK_EQ(finish(&e, ada, v, 1u, 424242, v, 1u, v, 100, d, 5, NULL), STORE_ERR_NOT_FOUND);
	prof p = {0};
	store_profile_get(e.st, ada, NULL, NULL, cb_profile, &p);
	WAIT(&e, &p);
	CHECK_EQ(p.err, STORE_OK);
	CHECK_EQ(p.games, 0);
	CHECK_STR(p.stats, "");
	CHECK_STR(p.achs, "");
	memset(&p, 0, sizeof p);
	store_server_stats(e.st, NULL, cb_stats, &p);
	WAIT(&e, &p);
	CHECK_STR(p.stats, "");
	games_res g = {0};
	store_games_list(e.st, NULL, cb_games, &g);
	WAIT(&e, &g);
	CHECK_EQ(g.n, 0);
	REQUIRE(env_reopen(&e));
	size_t n;
	CHECK(store_shared_loaded(e.st, &n) == NULL && n == 0); /* nothing merged */
	const store_live_table *t = store_live_tables(e.st, &n);
	CHECK(n == 1 && t && t[0].n_decisions == 1); /* the table is still in play */
	env_close(&e);
}

TEST(store_a_failing_request_does_not_harm_its_batch)
{
	env e;
	REQUIRE(env_open(&e));
	/* One batch, one transaction: each request must stand alone. */
	res a = {0}, bad = {0}, b = {0}, dup = {0};
	int64_t v[] = {1, 1, 1, 1};
	store_seat seats[1] = {{.player_id = 31337, .stats = v}};
	store_game g = {.kind = &fake_kind, .config_json = "{}", .seats_json = "[]",
			.choices_json = "[]", .result_json = "{}", .n_seats = 1, .seats = seats,
			.server_stats = v};
	hold(&e, true);
	store_player_create(e.st, "ann", "t1", STORE_ROLE_PLAYER, cb_player, &a);
	store_game_finish(e.st, &g, cb_record, &bad);
	store_player_create(e.st, "ben", "t2", STORE_ROLE_PLAYER, cb_player, &b);
	store_player_create(e.st, "ANN", "t3", STORE_ROLE_PLAYER, cb_player, &dup);
	hold(&e, false);
	WAIT(&e, &dup);
	CHECK(a.fired == 1 && bad.fired == 1 && b.fired == 1);
	CHECK_EQ(a.err, STORE_OK);
	CHECK_EQ(bad.err, STORE_ERR_NOT_FOUND);
	CHECK_EQ(b.err, STORE_OK);
	CHECK_EQ(dup.err, STORE_ERR_NAME_TAKEN);
	REQUIRE(env_stop(&e));
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM players"), 2);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM server_stats"), 0);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM games"), 0);
	env_close(&e);
}

/* Ordered callbacks: ud points at order_tags[i] == i; the log records
 * the tags in the order the callbacks ran. */
static res *order_log;
static int order_tags[512];
static void cb_order(void *ud, int err)
{
	int tag = *(int *)ud;
	order_log->order[order_log->n_order++] = tag;
	if (err)
		order_log->err = err;
	order_log->fired++;
}

TEST(store_queue_depth_order_and_cancel)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(live_start(&e, 1, 1) == STORE_OK);
	CHECK_EQ(store_queue_depth(e.st), 0);
	res log = {0};
	order_log = &log;
	int N = 100;
	for (int i = 0; i < N; i++) {
		order_tags[i] = i;
		CHECK(store_live_decision(e.st, 1, i + 1, "[0]", 0, cb_order, &order_tags[i]) != NULL);
	}
	/* Nothing is delivered until the loop runs, whatever the thread did. */
	CHECK_EQ(store_queue_depth(e.st), N);

	/* Cancelled: no callback; the write still happens. */
	res cw = {0}, cr = {0};
	store_req *w = store_player_create(e.st, "zed", "tz", STORE_ROLE_PLAYER, cb_player, &cw);
	store_req *rd = store_player_by_name(e.st, "zed", cb_player, &cr);
	store_cancel(w);
	store_cancel(rd);
	CHECK_EQ(store_queue_depth(e.st), N + 2);

	res last = {0};
	store_player_by_name(e.st, "zed", cb_player, &last);
	WAIT(&e, &last);
	CHECK_EQ(last.err, STORE_OK); /* the cancelled create did run */
	CHECK_EQ(log.fired, N);
	CHECK_EQ(log.err, 0);
	bool in_order = true;
	for (int i = 0; i < N; i++)
		in_order = in_order && log.order[i] == i;
	CHECK(in_order);
	CHECK_EQ(cw.fired, 0);
	CHECK_EQ(cr.fired, 0);
	CHECK_EQ(store_queue_depth(e.st), 0);
	env_close(&e);
}

/* /metrics times each committed write by its parts: the wait for its
 * batch to start plus its batch's run is its time to durable (to the ns),
 * and each is delivered on the loop once; one batch of three writes (and
 * a read, not timed) counts as one write batch. */
TEST(store_metrics_time_each_write_by_its_parts)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(live_start(&e, 1, 1) == STORE_OK);
	buf m = {0};
	store_metrics(e.st, &m);
	double writes0 = metric_sample(m.data, "lair_store_durable_seconds_count");
	double batches0 = metric_sample(m.data, "lair_store_write_batches_total");
	buf_free(&m);
	CHECK(writes0 >= 1);
	CHECK(batches0 >= 1);
	res d[3] = {{0}}, rd = {0};
	hold(&e, true);
	for (int i = 0; i < 3; i++)
		store_live_decision(e.st, 1, i + 1, "[0]", 0, cb_done, &d[i]);
	store_player_by_name(e.st, "nobody", cb_player, &rd);
	hold(&e, false);
	WAIT(&e, &rd);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(d[i].err, STORE_OK);
	store_metrics(e.st, &m);
	double writes = metric_sample(m.data, "lair_store_durable_seconds_count");
	CHECK_MSG(writes == writes0 + 3, "%s", m.data);
	CHECK(metric_sample(m.data, "lair_store_queued_seconds_count") == writes);
	CHECK(metric_sample(m.data, "lair_store_batch_seconds_count") == writes);
	CHECK(metric_sample(m.data, "lair_store_deliver_seconds_count") == writes);
	CHECK(metric_sample(m.data, "lair_store_write_batches_total") == batches0 + 1);
	double durable = metric_sample(m.data, "lair_store_durable_seconds_sum");
	double parts = metric_sample(m.data, "lair_store_queued_seconds_sum") +
		       metric_sample(m.data, "lair_store_batch_seconds_sum");
	CHECK_MSG(durable > 0 && fabs(durable - parts) < 1e-6, "%g vs %g", durable, parts);
	buf_free(&m);
	env_close(&e);
}

TEST(store_shutdown_completes_queued_writes)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(live_start(&e, 9, 1) == STORE_OK);
	res log = {0};
	order_log = &log;
	int N = 300;
	for (int i = 0; i < N; i++) {
		order_tags[i] = i;
		store_live_decision(e.st, 9, i + 1, "[1,2,3]", 0, cb_order, &order_tags[i]);
	}
	res pc = {0};
	store_player_create(e.st, "last", "tl", STORE_ROLE_PLAYER, cb_player, &pc);
	int done = 0;
	store_shutdown(e.st, on_shut, &done);
	/* Refused after shutdown began; its callback never runs. */
	res late = {0};
	CHECK(store_player_by_name(e.st, "last", cb_player, &late) == NULL);
	CHECK(run_until(&e, &done, 1));
	CHECK_EQ(log.fired, N);
	CHECK_EQ(log.err, 0);
	CHECK_EQ(pc.fired, 1);
	CHECK_EQ(pc.err, STORE_OK);
	CHECK_EQ(late.fired, 0);
	store_free(e.st);
	e.st = NULL;
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 9"), N);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM players WHERE name = 'last'"), 1);
	env_close(&e);
}

/* ---- the checkpointer --------------------------------------------------- */

#ifndef STORE_TEST_PG /* SQLite's own machinery */
/* Waits (bounded: 10 s) until the checkpointer has checkpointed every commit
 * it was told of (store_int.h's ck_ fields). */
static bool ckpt_settled(env *e)
{
	uint64_t end = now_ms() + 10000;
	for (;;) {
		uv_mutex_lock(&e->st->ck_mu);
		bool idle = !e->st->ck_due && !e->st->ck_frames && !e->st->ck_running;
		uv_mutex_unlock(&e->st->ck_mu);
		if (idle)
			return true;
		if (now_ms() > end)
			return false;
		uv_sleep(2); /* polling a bounded condition, not waiting a fixed time */
	}
}

static int64_t file_size(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 ? (int64_t)sb.st_size : -1;
}

/* Counts callbacks; keeps the first error. */
static void cb_count(void *ud, int err)
{
	res *r = ud;
	r->fired++;
	if (!r->err)
		r->err = err;
}
#endif

#ifndef STORE_TEST_PG
/* Writes `n` decisions of about 1 KB each to table 5 as one batch. */
static bool big_batch(env *e, int first_seq, int n)
{
	static char json[1024];
	memset(json, '7', sizeof json - 3);
	json[0] = '[';
	json[sizeof json - 3] = ']';
	json[sizeof json - 2] = '\0';
	res log = {0};
	hold(e, true);
	for (int i = 0; i < n; i++)
		store_live_decision(e->st, 5, first_seq + i, json, 0, cb_count, &log);
	hold(e, false);
	return run_until(e, &log.fired, n) && log.err == STORE_OK;
}
#endif

#ifndef STORE_TEST_PG /* SQLite's own machinery */
/* Commits only append to the WAL (no autocheckpoint on the writer: it would
 * copy and sync the database inside a commit); the checkpointer copies it
 * back, so a WAL past STORE_CKPT_PAGES is reused from its start instead of
 * growing; a clean shutdown leaves no WAL. */
TEST(store_checkpoints_run_outside_commits_and_bound_the_wal)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(live_start(&e, 5, 1) == STORE_OK);
	/* Its result delivered, the store thread is idle; held, it stays so:
	 * its connection may be read here. */
	hold(&e, true);
	sqlite3_stmt *s;
	REQUIRE(sqlite3_prepare_v2(e.st->db, "PRAGMA wal_autocheckpoint", -1, &s, NULL) ==
		SQLITE_OK);
	CHECK(sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0) == 0);
	sqlite3_finalize(s);
	hold(&e, false);
	CHECK(e.st->ck_started);

	char wal[160];
	snprintf(wal, sizeof wal, "%s-wal", e.path);
	/* 1,500 KB-sized decisions: well past STORE_CKPT_PAGES pages of 4 KB. */
	REQUIRE(big_batch(&e, 1, 1500));
	REQUIRE(ckpt_settled(&e));
	int64_t first = file_size(wal);
	CHECK(first > (int64_t)STORE_CKPT_PAGES * 1024);
	REQUIRE(big_batch(&e, 1501, 1500));
	REQUIRE(ckpt_settled(&e));
	REQUIRE(big_batch(&e, 3001, 1500));
	REQUIRE(ckpt_settled(&e));
	/* Without checkpoints the WAL would be three times as big. */
	CHECK(file_size(wal) < first * 3 / 2);
	/* Everything is in the database file itself (read without the WAL's
	 * help: a reader of the database opened in the meantime sees it all). */
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 5"), 4500);

	REQUIRE(env_stop(&e));
	CHECK(file_size(wal) <= 0); /* gone, or truncated */
	env_close(&e);
}
#endif

/* synchronous=NORMAL in WAL mode: a decision acknowledged as durable
 * survives laird being killed right then (kill -9), before any checkpoint. */
TEST(store_acknowledged_decision_survives_kill_9)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(live_start(&e, 4, 1) == STORE_OK);
	REQUIRE(env_stop(&e));
	fflush(NULL);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		uv_loop_init(&e.loop); /* the child's own loop (the parent's stays its) */
		if (!env_start(&e))
			_exit(2);
		res r = {0};
		store_live_decision(e.st, 4, 1, "[4,2]", 0, cb_done, &r);
		if (!run_until(&e, &r.fired, 1) || r.err != STORE_OK)
			_exit(3);
		raise(SIGKILL); /* acknowledged: die before anything else runs */
		_exit(4);
	}
	int status = 0;
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 4 "
			"AND choices = '[4,2]'"), 1);
	env_close(&e);
}

/* A laird killed right after its record committed, before it could act
 * on the answer: the next start replays the game and records it again —
 * the same game (live table, started_at), so nothing counts twice. */
TEST(store_a_record_acknowledged_then_kill_9_is_not_merged_twice)
{
	env e;
	int64_t ada;
	REQUIRE(env_open_with_ada(&e, &ada));
	REQUIRE(live_start(&e, 6, 1) == STORE_OK);
	REQUIRE(env_stop(&e));
	int64_t d[] = {4, 70, 9};
	fflush(NULL);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		uv_loop_init(&e.loop);
		if (!env_start(&e))
			_exit(2);
		if (finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 8000, d, 6, NULL) != STORE_OK)
			_exit(3);
		raise(SIGKILL);
		_exit(4);
	}
	int status = 0;
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	REQUIRE(env_start(&e));
	size_t n = 0;
	store_live_tables(e.st, &n);
	CHECK_EQ(n, 0); /* the record ended the live table with it */
	CHECK_EQ(finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 8000, d, 6, NULL), STORE_OK);
	check_values(&e, "fake/best=70/0;fake/fastest=9/0;fake/uses.a=4/0;", 1);
	env_close(&e);
}

/* A fresh store with ada, who played one game whose share was d. */
static bool env_open_with_one_game(env *e, int64_t *ada, const int64_t *d)
{
	return env_open_with_ada(e, ada) &&
	       finish(e, *ada, NULL, 0, 0, NULL, 0, NULL, 1000, d, 0, NULL) == STORE_OK;
}

/* Rows damaged or written by someone hostile (a value below 0, beyond any
 * game's, at the edge of overflow) neither stop a record nor touch another
 * key: the next record's merge takes a value below 0 as none, and a sum
 * stops at its cap instead of overflowing. */
TEST(store_a_damaged_shared_row_changes_only_its_own_key)
{
	env e;
	int64_t ada, d[] = {2, 40, 12};
	REQUIRE(env_open_with_one_game(&e, &ada, d));
	CHECK_EQ(db_write(e.path, "UPDATE shared_values SET value = -5 WHERE key = 'best'"), 1);
	CHECK_EQ(db_write(e.path, "UPDATE shared_values SET value = 9000000000000000000 "
			"WHERE key = 'fastest'"), 1);
	CHECK_EQ(db_write(e.path, "INSERT INTO shared_values VALUES ('fake', 'nobody', 3), "
			"('ghost', 'uses.a', 9223372036854775806)"), 2);
	CHECK_EQ(finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 2000, d, 0, NULL), STORE_OK);
	check_values(&e, "fake/best=40/0;fake/fastest=12/0;fake/nobody=3/0;fake/uses.a=4/0;"
		       "ghost/uses.a=9223372036854775806/0;", -1);
	/* Taken to the edge: the sum stops at the cap (no overflow, no error);
	 * a value below 0 is none. */
	CHECK_EQ(db_write(e.path, "UPDATE shared_values SET value = 9223372036854775806 "
			"WHERE key = 'uses.a' AND kind = 'fake'"), 1);
	CHECK_EQ(db_write(e.path, "UPDATE shared_values SET value = -3 WHERE key = 'fastest'"), 1);
	CHECK_EQ(finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 3000, d, 0, NULL), STORE_OK);
	check_values(&e, "fake/best=40/0;fake/fastest=12/0;fake/nobody=3/0;"
		       "fake/uses.a=" SHARED_CAP "/0;ghost/uses.a=9223372036854775806/0;", -1);
	env_close(&e);
}

#ifndef STORE_TEST_PG /* the kinds themselves: once is enough */
/* Counts the number leaves of a kind's shared JSON that no def names (a
 * value the store would not keep), and fails each def whose path is not a
 * number or null there. */
static int unnamed_leaves(const game_kind *k, const cJSON *o, const char *prefix)
{
	int n = 0;
	for (const cJSON *c = o->child; c; c = c->next) {
		char path[128];
		snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", c->string);
		if (cJSON_IsObject(c)) {
			n += unnamed_leaves(k, c, path);
			continue;
		}
		bool named = false;
		for (int d = 0; d < k->n_shared; d++)
			named |= strcmp(k->shared_defs[d].key, path) == 0;
		if (!named && !cJSON_IsNull(c)) {
			printf("  %s: %s is in its shared state, not in its shared_defs\n", k->name, path);
			n++;
		}
	}
	return n;
}

/* Every value of every kind's shared state is one the store merges: a
 * kind that adds to its state must say how it merges. */
TEST(store_every_kinds_shared_state_is_named_by_its_defs)
{
	for (int i = 0; i < game_kind_count(); i++) {
		const game_kind *k = game_kind_at(i);
		if (!k->shared_new)
			continue;
		char err[160] = "";
		void *st = k->shared_new(NULL, err, sizeof err);
		REQUIRE(st);
		cJSON *j = k->shared_json(st);
		CHECK_EQ(unnamed_leaves(k, j, ""), 0);
		CHECK(k->n_shared > 0);
		cJSON_Delete(j);
		k->shared_free(st);
	}
}

/* G10 over merged counts: the sums of several games' uses read as the uses
 * folded one by one would have left them, the least at 0. */
TEST(store_gems_reads_merged_use_counts_relative_to_the_least)
{
	const game_kind *k = game_kind_find("gems");
	REQUIRE(k);
	cJSON *saved = cJSON_Parse("{\"adventure_uses\":{\"banker\":7,\"sun_moon\":5,"
				   "\"ferryman\":5,\"monte\":6,\"sphinx\":5,\"scout\":9,"
				   "\"mushroom\":5,\"poison\":5,\"devil\":5,\"little_people\":5},"
				   "\"best_winning_score\":40}");
	char err[160] = "";
	void *st = k->shared_new(saved, err, sizeof err);
	REQUIRE(st);
	cJSON *j = k->shared_json(st);
	char *text = cJSON_PrintUnformatted(cJSON_GetObjectItem(j, "adventure_uses"));
	CHECK_STR(text, "{\"banker\":2,\"sun_moon\":0,\"ferryman\":0,\"monte\":1,\"sphinx\":0,"
			"\"scout\":4,\"mushroom\":0,\"poison\":0,\"devil\":0,\"little_people\":0}");
	free(text);
	cJSON_Delete(j);
	cJSON_Delete(saved);
	k->shared_free(st);
}
#endif

#ifndef STORE_TEST_PG /* SQLite's own machinery */
/* SQLite stores what it is given: a shared value that is not a number
 * counts as none at the next merge. */
TEST(store_a_shared_value_that_is_text_counts_as_none)
{
	env e;
	int64_t ada, d[] = {2, 40, 12};
	REQUIRE(env_open_with_one_game(&e, &ada, d));
	CHECK_EQ(db_write(e.path, "UPDATE shared_values SET value = 'lots'"), 3);
	CHECK_EQ(finish(&e, ada, NULL, 0, 0, NULL, 0, NULL, 2000, d, 0, NULL), STORE_OK);
	check_values(&e, "fake/best=40/0;fake/fastest=12/0;fake/uses.a=2/0;", 2);
	env_close(&e);
}
#endif

#ifndef STORE_TEST_PG /* SQLite's own machinery */
/* Disk full aborts SQLite's whole transaction, not just the statement: the
 * requests of the batch that had succeeded before it were never committed
 * and must not be acknowledged. (The database is capped at its current
 * size with max_page_count, set while the store thread is idle.) */
TEST(store_disk_full_acknowledges_nothing_uncommitted)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(live_start(&e, 1, 1) == STORE_OK);
	int64_t pages = -1;
	{
		sqlite3_stmt *s;
		REQUIRE(sqlite3_prepare_v2(e.st->db, "PRAGMA page_count", -1, &s, NULL) == 0);
		if (sqlite3_step(s) == SQLITE_ROW)
			pages = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
		char sql[64];
		snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld", (long long)pages);
		REQUIRE(sqlite3_exec(e.st->db, sql, NULL, NULL, NULL) == SQLITE_OK);
	}
	size_t big_len = 200000;
	char *big = malloc(big_len + 1);
	REQUIRE(big);
	memset(big, 'x', big_len);
	big[big_len] = 0;
	store_seat seats[1] = {{0}};
	store_game g = {.kind = &fake_kind, .config_json = "{}", .seats_json = "[]",
			.choices_json = "[]", .result_json = big, .n_seats = 1, .seats = seats};
	res d1 = {0}, full = {0}, d2 = {0};
	hold(&e, true);
	store_live_decision(e.st, 1, 1, "[1]", 0, cb_done, &d1);
	store_game_finish(e.st, &g, cb_record, &full);
	store_live_decision(e.st, 1, 2, "[2]", 0, cb_done, &d2);
	hold(&e, false);
	free(big);
	WAIT(&e, &d2);
	CHECK_EQ(full.err, STORE_ERR_DB);
	CHECK_EQ(d1.err, STORE_ERR_DB); /* rolled back with the transaction */
	{ /* /metrics: each failed request counted; only committed writes timed */
		buf m = {0};
		char want[64];
		store_metrics(e.st, &m);
		snprintf(want, sizeof want, "\nlair_store_failures_total %d\n",
			 2 + (d2.err == STORE_ERR_DB));
		CHECK_MSG(strstr(m.data, want) != NULL, "%s", m.data);
		snprintf(want, sizeof want, "\nlair_store_durable_seconds_count %d\n",
			 1 + (d2.err == STORE_OK));
		CHECK_MSG(strstr(m.data, want) != NULL, "%s", m.data);
		buf_free(&m);
	}
	REQUIRE(env_reopen(&e));
	size_t n;
	const store_live_table *t = store_live_tables(e.st, &n);
	REQUIRE(n == 1 && t);
	/* What was acknowledged is there; what was not is not. */
	CHECK_EQ(t[0].n_decisions, d2.err == STORE_OK ? 1 : 0);
	if (t[0].n_decisions == 1)
		CHECK_EQ(t[0].decisions[0].seq, 2);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM games"), 0);
	env_close(&e);
}
#endif

/* What a client's request can bring (through the app) is refused before it
 * reaches SQL, or bound as a plain value: nothing is ever spliced into a
 * statement, and a refusal writes nothing. */
TEST(store_bad_arguments_are_refused_and_names_are_only_values)
{
	env e;
	REQUIRE(env_open(&e));
	const char *sly = "Robert'); DROP TABLE players;--";
	int64_t id = 0;
	CHECK_EQ(create_player(&e, sly, "tok-sly", &id), STORE_OK);
	res r = {0};
	store_player_by_name(e.st, "robert'); drop table players;--", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK); /* found, ignoring case: the table is still there */
	CHECK_EQ(r.id, id);
	CHECK_STR(r.name, sly);
	memset(&r, 0, sizeof r);
	store_player_by_name(e.st, "%", cb_player, &r); /* no LIKE pattern either */
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_NOT_FOUND);

	struct {
		const char *name, *token;
	} bad[] = {{NULL, "t"}, {"", "t"}, {"x", NULL}, {"x", ""}};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_EQ(create_player(&e, bad[i].name, bad[i].token, NULL), STORE_ERR_INVALID);
	const char *empty[] = {NULL, ""};
	for (int i = 0; i < 2; i++) {
		memset(&r, 0, sizeof r);
		store_player_by_name(e.st, empty[i], cb_player, &r);
		WAIT(&e, &r);
		CHECK_EQ(r.err, STORE_ERR_INVALID);
		memset(&r, 0, sizeof r);
		store_player_by_token(e.st, empty[i], cb_player, &r);
		WAIT(&e, &r);
		CHECK_EQ(r.err, STORE_ERR_INVALID);
		prof p = {0};
		store_profile_get(e.st, 0, empty[i], NULL, cb_profile, &p);
		WAIT(&e, &p);
		CHECK_EQ(p.err, STORE_ERR_INVALID);
	}
	int64_t bad_ids[] = {0, -1, INT64_MIN};
	for (size_t i = 0; i < 3; i++) {
		memset(&r, 0, sizeof r);
		store_live_decision(e.st, bad_ids[i], 1, "[]", 0, cb_done, &r);
		WAIT(&e, &r);
		CHECK_EQ(r.err, STORE_ERR_INVALID);
		memset(&r, 0, sizeof r);
		store_live_decision(e.st, 1, bad_ids[i], "[]", 0, cb_done, &r);
		WAIT(&e, &r);
		CHECK_EQ(r.err, STORE_ERR_INVALID);
		memset(&r, 0, sizeof r);
		store_live_end(e.st, bad_ids[i], cb_done, &r);
		WAIT(&e, &r);
		CHECK_EQ(r.err, STORE_ERR_INVALID);
		games_res g = {0};
		store_game_get(e.st, bad_ids[i], cb_games, &g);
		WAIT(&e, &g);
		CHECK_EQ(g.err, STORE_ERR_NOT_FOUND);
	}
	/* a limit out of 1..STORE_GAMES_MAX means the max, never "all" or "none" */
	int limits[] = {0, -5, STORE_GAMES_MAX + 1, INT32_MAX};
	for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
		games_res g = {0};
		store_games_query q = {.kind = "nope'--", .limit = limits[i]};
		store_games_list(e.st, &q, cb_games, &g);
		WAIT(&e, &g);
		CHECK_EQ(g.err, STORE_OK);
		CHECK_EQ(g.n, 0u);
	}
	/* one player (the sly one): the refusals above wrote nothing */
	env_stop(&e);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM players"), 1);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions"), 0);
	env_close(&e);
}
