/*
 * test_store_pg.c — the store on PostgreSQL: every test of test_store.c
 * that is about the contract runs here again against a real PostgreSQL 15
 * (pg_server.h: a fresh database a test), then what only PostgreSQL has:
 * its schema, the node's fence (a node declared gone, a table owned by
 * another node), the lease, a laird killed with -9 whose tables the next
 * start takes back, and acknowledged writes that survive kill -9 of the
 * PostgreSQL server itself.
 */
#define STORE_TEST_PG 1
#include "test_store.c"
#include "../../server/store_pg.h"

/* ---- schema ------------------------------------------------------------ */

TEST(store_pg_migrations_apply_once)
{
	env e;
	REQUIRE(env_open(&e));
	CHECK_EQ(store_schema_version(e.st), store_pg_n_migrations);
	CHECK_EQ(create_player(&e, "ada", "tok-ada", NULL), STORE_OK);
	REQUIRE(env_reopen(&e));
	CHECK_EQ(store_schema_version(e.st), store_pg_n_migrations);
	res r = {0};
	store_player_by_name(e.st, "ADA", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_OK);
	CHECK_EQ(db_int(e.path, "SELECT version FROM lair_schema"), store_pg_n_migrations);
	REQUIRE(env_stop(&e));
	/* A schema newer than this laird knows is refused. */
	CHECK_EQ(db_int(e.path, "UPDATE lair_schema SET version = 999"), 1);
	char err[256] = "";
	CHECK(store_open(&e.loop, e.path, err, sizeof err) == NULL);
	CHECK_MSG(strstr(err, "999") != NULL, "err: %s", err);
	env_close(&e);
}

TEST(store_pg_embedded_migrations_match_the_files)
{
	CHECK(store_pg_n_migrations >= 1);
	for (int i = 0; i < store_pg_n_migrations; i++) {
		char p[256], err[160];
		snprintf(p, sizeof p, "migrations/pg/%s.sql", store_pg_migrations[i].name);
		buf b = {0};
		REQUIRE(buf_read_file(&b, p, (size_t)1 << 20, err, sizeof err) == 0);
		CHECK_MSG(b.data && strcmp(b.data, store_pg_migrations[i].sql) == 0, "%s differs", p);
		buf_free(&b);
	}
}

TEST(store_pg_unreachable_server_is_a_clear_error)
{
	uv_loop_t loop;
	uv_loop_init(&loop);
	char url[96], err[256] = "";
	snprintf(url, sizeof url, "postgresql://lair:secret-pw@127.0.0.1:%d/lair", test_free_port());
	CHECK(store_open(&loop, url, err, sizeof err) == NULL);
	CHECK_MSG(strstr(err, "cannot connect") != NULL, "err: %s", err);
	CHECK_MSG(strstr(err, "secret-pw") == NULL, "the password in: %s", err);
	CHECK_EQ(uv_loop_close(&loop), 0);
}

TEST(store_pg_token_is_stored_only_as_its_hash)
{
	env e;
	REQUIRE(env_open(&e));
	char token[STORE_TOKEN_LEN + 1], hash[STORE_HASH_LEN + 1], sql[256];
	REQUIRE(store_token_new(token) == 0);
	CHECK_EQ(create_player(&e, "ada", token, NULL), STORE_OK);
	store_token_hash(token, hash);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM players WHERE token_hash = '%s'", hash);
	CHECK_EQ(db_int(e.path, sql), 1);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM players p WHERE "
		 "strpos(p::text, '%s') > 0", token);
	CHECK_EQ(db_int(e.path, sql), 0);
	env_close(&e);
}

/* ---- the node's fence -------------------------------------------------- */

static store *open_second(env *e)
{
	char err[256] = "";
	store *st = store_open(&e->loop, e->path, err, sizeof err);
	if (!st)
		printf("  store_open: %s\n", err);
	return st;
}

static void close_second(env *e, store *st)
{
	int done = 0;
	store_shutdown(st, on_shut, &done);
	CHECK(run_until(e, &done, 1));
	store_free(st);
}

static int decide_on(env *e, store *st, int64_t id, int64_t seq, const char *choices)
{
	res r = {0};
	store_live_decision(st, id, seq, choices, 0, cb_done, &r);
	WAIT(e, &r);
	return r.err;
}
/* Nodes starting together on an empty database each ask for the first
 * admin token: exactly one issues it, the others find its admin
 * (STORE_ERR_EXISTS: they print nothing), and the token the one printed is
 * the admin's (op_admin_issue's lock). Twenty rounds of two stores on
 * their own threads, asking at the same moment. */
TEST(store_pg_nodes_starting_together_issue_one_first_admin_token)
{
	env e;
	REQUIRE(env_open(&e));
	store *two = open_second(&e);
	REQUIRE(two != NULL);
	for (int round = 0; round < 20; round++) {
		char tok[2][48];
		res got[2] = {{0}, {0}};
		for (int i = 0; i < 2; i++)
			snprintf(tok[i], sizeof tok[i], "first-admin-%d-%d", round, i);
		store_admin_issue(e.st, "admin", tok[0], true, cb_player, &got[0]);
		store_admin_issue(two, "admin", tok[1], true, cb_player, &got[1]);
		WAIT(&e, &got[0]);
		WAIT(&e, &got[1]);
		int issued = got[0].err == STORE_OK ? 0 : 1;
		CHECK_MSG(got[issued].err == STORE_OK && got[1 - issued].err == STORE_ERR_EXISTS,
			  "round %d: %s and %s", round, store_strerror(got[0].err),
			  store_strerror(got[1].err));
		res who = {0};
		store_player_by_token(e.st, tok[issued], cb_player, &who);
		WAIT(&e, &who);
		CHECK_EQ(who.err, STORE_OK);
		CHECK_EQ(who.role, STORE_ROLE_ADMIN);
		/* the next round begins with no admin again */
		CHECK_EQ(db_write(e.path, "DELETE FROM players WHERE lower(name) = 'admin'"), 1);
	}
	close_second(&e, two);
	env_close(&e);
}

/* A database of pg/0001 with saved states: the upgrade turns them into
 * values (as SQLite's), drops what is not JSON, keeps the games. */
TEST(store_pg_upgrade_turns_saved_shared_states_into_values)
{
	env e;
	REQUIRE(env_prepare(&e));
	REQUIRE(store_pg_n_migrations >= 2 && store_pg_migrations[1].version == 2);
	CHECK(test_pg_query(e.path, store_pg_migrations[0].sql) >= 0);
	CHECK_EQ(test_pg_query(e.path, "UPDATE lair_schema SET version = 1"), 1);
	CHECK_EQ(test_pg_query(e.path, LEGACY_SHARED), 4);
	CHECK_EQ(test_pg_query(e.path, "INSERT INTO games (kind, config, seed, seats, choices, "
			       "result, started_at, ended_at) VALUES ('gems', '{}', 1, '[]', "
			       "'[]', '{}', 1, 2)"), 1);
	check_upgraded(&e, store_pg_n_migrations,
		       "SELECT count(*) FROM pg_tables WHERE tablename = 'shared_state'");
}

/* Each store is a node of its own; a live table takes writes from its
 * owner only: another node's decision, update, end or record of it is
 * refused (fenced) and changes nothing. */
TEST(store_pg_a_table_takes_writes_from_its_owner_only)
{
	env e;
	REQUIRE(env_open(&e));
	store *b = open_second(&e);
	REQUIRE(b);
	CHECK(store_node_id(e.st) > 0 && store_node_id(b) > 0);
	CHECK(store_node_id(e.st) != store_node_id(b));
	REQUIRE(live_start(&e, 1, 9) == STORE_OK);
	CHECK_EQ(decide(&e, 1, 1, "[1]"), STORE_OK);
	CHECK_EQ(decide_on(&e, b, 1, 2, "[2]"), STORE_ERR_FENCED);
	res r = {0};
	store_live_update(b, 1, "[\"x\"]", NULL, 50, cb_done, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_FENCED);
	memset(&r, 0, sizeof r);
	store_live_end(b, 1, cb_done, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_FENCED);
	int64_t ada;
	REQUIRE(create_player(&e, "ada", "t", &ada) == STORE_OK);
	store_seat seat = {.player_id = ada};
	store_game g = {.kind = &fake_kind, .config_json = "{}", .seats_json = "[]",
			.choices_json = "[]", .result_json = "{}", .n_seats = 1, .seats = &seat,
			.live_table_id = 1};
	memset(&r, 0, sizeof r);
	store_game_finish(b, &g, cb_record, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_FENCED);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM games"), 0);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 1"), 1);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_tables WHERE seats = '[\"x\"]'"), 0);
	/* The owner still writes; b is not fenced as a node. */
	CHECK_EQ(decide(&e, 1, 2, "[2]"), STORE_OK);
	CHECK(!store_fenced(b) && !store_fenced(e.st));
	/* A table nobody has is not found, for both. */
	CHECK_EQ(decide_on(&e, b, 99, 1, "[1]"), STORE_ERR_NOT_FOUND);
	close_second(&e, b);
	env_close(&e);
}

/* Another node declared this one gone (as a survivor does when it takes a
 * hung node's tables): from then on none of its writes commits, reads
 * still answer, and store_fenced says so. */
TEST(store_pg_a_node_declared_gone_writes_nothing)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(live_start(&e, 3, 9) == STORE_OK);
	CHECK_EQ(decide(&e, 3, 1, "[1]"), STORE_OK);
	CHECK(!store_fenced(e.st));
	char sql[128];
	snprintf(sql, sizeof sql, "UPDATE nodes SET gone_at = now() WHERE id = %lld",
		 (long long)store_node_id(e.st));
	CHECK_EQ(db_int(e.path, sql), 1);
	CHECK_EQ(decide(&e, 3, 2, "[2]"), STORE_ERR_FENCED);
	CHECK(store_fenced(e.st));
	CHECK_EQ(create_player(&e, "late", "tok-late", NULL), STORE_ERR_FENCED);
	res r = {0};
	store_player_by_name(e.st, "nobody", cb_player, &r);
	WAIT(&e, &r);
	CHECK_EQ(r.err, STORE_ERR_NOT_FOUND);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 3"), 1);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM players"), 0);
	env_close(&e);
}

/* The lease moves forward by itself while the node lives. */
TEST(store_pg_the_lease_is_renewed)
{
	env e;
	REQUIRE(env_open(&e));
	char sql[160];
	snprintf(sql, sizeof sql, "SELECT (extract(epoch FROM lease_until) * 1000)::bigint "
		 "FROM nodes WHERE id = %lld", (long long)store_node_id(e.st));
	int64_t first = db_int(e.path, sql), now = first;
	for (int i = 0; i < 400 && now == first; i++) {
		test_pause_ms(20);
		now = db_int(e.path, sql);
	}
	CHECK_MSG(now > first, "lease %lld then %lld", (long long)first, (long long)now);
	env_close(&e);
}

/* ---- takeover passes ---------------------------------------------------- */

typedef struct claimed {
	int fired, err;
	int64_t ids[16];
	int64_t last_seq[16];
	size_t n_decisions[16];
	int64_t silent_ms[16];
	char first[16][32]; /* each one's first decision */
	size_t n;
} claimed;

static void cb_claimed(void *ud, int err, const store_live_table *t, size_t n)
{
	claimed *c = ud;
	c->fired++;
	c->err = err;
	c->n = 0;
	for (size_t i = 0; t && i < n && i < 16; i++) {
		c->ids[c->n] = t[i].table_id;
		c->last_seq[c->n] = t[i].last_seq;
		c->first[c->n][0] = 0;
		if (t[i].n_decisions)
			strlcpy_safe(c->first[c->n], t[i].decisions[0].choices_json, 32);
		c->silent_ms[c->n] = t[i].silent_ms;
		c->n_decisions[c->n++] = t[i].n_decisions;
	}
}

static size_t claim(env *e, store *st, int grace_ms, claimed *c)
{
	memset(c, 0, sizeof *c);
	store_live_claim(st, grace_ms, cb_claimed, c);
	CHECK_MSG(run_until(e, &c->fired, 1), "no callback within 10 s");
	CHECK_EQ(c->err, STORE_OK);
	return c->n;
}

/* ---- leaving (SIGTERM) -------------------------------------------------- */

/* A node that leaves (store_node_leave, a clean stop handing its tables
 * over): the writes queued before the leave commit; the others' next pass
 * takes its live tables at once, whatever the grace; it writes nothing
 * more. */
TEST(store_pg_a_leaving_node_hands_its_tables_over_at_once)
{
	env e;
	REQUIRE(env_open(&e));
	store *b = open_second(&e); /* running already: a start would adopt them */
	REQUIRE(b);
	REQUIRE(live_start(&e, 5, 9) == STORE_OK);
	CHECK_EQ(decide(&e, 5, 1, "[1]"), STORE_OK);
	res d = {0}, left = {0};
	store_live_decision(e.st, 5, 2, "[2]", 0, cb_done, &d);
	store_node_leave(e.st, cb_done, &left);
	WAIT(&e, &d);
	WAIT(&e, &left);
	CHECK_EQ(d.err, STORE_OK);
	CHECK_EQ(left.err, STORE_OK);
	claimed c;
	CHECK_EQ(claim(&e, b, 600000, &c), 1);
	CHECK_EQ(c.ids[0], 5);
	CHECK_EQ(c.n_decisions[0], 2);
	CHECK_EQ(decide(&e, 5, 3, "[3]"), STORE_ERR_FENCED);
	CHECK(store_fenced(e.st));
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 5"), 2);
	close_second(&e, b);
	env_close(&e);
}

/* ---- kill -9 ----------------------------------------------------------- */

/* The node's advisory lock is free: its process (or connection) is gone. */
static bool node_unlocked(const char *url, int64_t node)
{
	char sql[192];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
		 "AND classid = %d AND objid = %lld", STORE_PG_LOCK_CLASS, (long long)node);
	for (int i = 0; i < 500; i++) {
		if (db_int(url, sql) == 0)
			return true;
		test_pause_ms(10);
	}
	return false;
}

/* laird killed with -9 right after a decision was acknowledged: the next
 * laird on the database does not take its tables at start (the node only
 * looks dead), but its first takeover pass does (grace 0 here), with the
 * decision. */
TEST(store_pg_killed_node_tables_come_back_with_their_decisions)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(env_stop(&e));
	fflush(NULL);
	int pipefd[2];
	REQUIRE(pipe(pipefd) == 0);
	pid_t pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		close(pipefd[0]);
		uv_loop_init(&e.loop);
		if (!env_start(&e) || live_start(&e, 4, 1) != STORE_OK)
			_exit(2);
		int64_t node = store_node_id(e.st);
		if (write(pipefd[1], &node, sizeof node) != sizeof node)
			_exit(5);
		res r = {0};
		store_live_decision(e.st, 4, 1, "[4,2]", 0, cb_done, &r);
		if (!run_until(&e, &r.fired, 1) || r.err != STORE_OK)
			_exit(3);
		raise(SIGKILL);
		_exit(4);
	}
	close(pipefd[1]);
	int64_t dead = 0;
	CHECK(read(pipefd[0], &dead, sizeof dead) == sizeof dead);
	close(pipefd[0]);
	int status = 0;
	REQUIRE(waitpid(pid, &status, 0) == pid);
	REQUIRE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	REQUIRE(node_unlocked(e.path, dead));
	REQUIRE(env_start(&e));
	size_t n;
	store_live_tables(e.st, &n);
	CHECK_EQ(n, 0);
	claimed x;
	REQUIRE(claim(&e, e.st, 0, &x) == 1);
	CHECK_EQ(x.ids[0], 4);
	CHECK_EQ(x.n_decisions[0], 1);
	CHECK_STR(x.first[0], "[4,2]");
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM nodes WHERE id = %lld AND gone_at IS NOT NULL",
		 (long long)dead);
	CHECK_EQ(db_int(e.path, sql), 1);
	/* The new node owns it now. */
	CHECK_EQ(decide(&e, 4, 2, "[5]"), STORE_OK);
	env_close(&e);
}

/* kill -9 of the PostgreSQL server (every one of its processes, no
 * shutdown): what was acknowledged is there after it restarts; a write
 * while it is down is not acknowledged; the store reconnects by itself as
 * the same node and writes again. */
TEST(store_pg_acknowledged_writes_survive_kill_9_of_postgresql)
{
	env e;
	REQUIRE(env_open(&e));
	REQUIRE(live_start(&e, 6, 1) == STORE_OK);
	for (int i = 1; i <= 20; i++) {
		char c[16];
		snprintf(c, sizeof c, "[%d]", i);
		REQUIRE(decide(&e, 6, i, c) == STORE_OK);
	}
	int64_t node = store_node_id(e.st);
	test_pg *pg = test_pg_get();
	REQUIRE(pg);
	test_pg_kill9(pg);
	CHECK_EQ(decide(&e, 6, 21, "[21]"), STORE_ERR_DB);
	REQUIRE(test_pg_run(pg));
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 6"), 20);
	CHECK_EQ(decide(&e, 6, 21, "[21]"), STORE_OK);
	CHECK_EQ(store_node_id(e.st), node);
	CHECK(!store_fenced(e.st));
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 6"), 21);
	env_close(&e);
}

/* ---- takeover ---------------------------------------------------------- */

/* A child process: a node of its own that starts `n` live tables from id
 * `first` with two decisions each (last_seq 40), tells the parent its node
 * id on `up`, then waits for a byte on `go` and tries one more decision on
 * each table: exit 0 when every one is refused and the node knows it is
 * fenced, 1 if any was taken. */
static pid_t child_node(env *e, int first, int n, int *up, int *go)
{
	int a[2], b[2];
	if (pipe(a) != 0 || pipe(b) != 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid != 0) {
		close(a[1]);
		close(b[0]);
		*up = a[0];
		*go = b[1];
		return pid;
	}
	close(a[0]);
	close(b[1]);
	uv_loop_init(&e->loop);
	if (!env_start(e))
		_exit(2);
	for (int i = 0; i < n; i++) {
		if (live_start(e, first + i, (uint64_t)i) != STORE_OK)
			_exit(3);
		for (int seq = 1; seq <= 2; seq++) {
			res r = {0};
			store_live_decision(e->st, first + i, seq, "[7]", 20 * seq, cb_done, &r);
			if (!run_until(e, &r.fired, 1) || r.err != STORE_OK)
				_exit(4);
		}
	}
	int64_t node = store_node_id(e->st);
	if (write(a[1], &node, sizeof node) != sizeof node)
		_exit(5);
	char byte;
	if (read(b[0], &byte, 1) != 1)
		_exit(6);
	/* Woken: each write is refused — first as a lost connection (its
	 * session was terminated), then as fenced once it connects again. */
	int taken = 0;
	for (int i = 0; i < n; i++) {
		int err = STORE_ERR_DB;
		for (int attempt = 0; attempt < 5 && err == STORE_ERR_DB; attempt++) {
			res r = {0};
			store_live_decision(e->st, first + i, 3, "[8]", 60, cb_done, &r);
			if (!run_until(e, &r.fired, 1))
				_exit(7);
			err = r.err;
		}
		taken += err == STORE_OK;
	}
	_exit(taken == 0 && store_fenced(e->st) ? 0 : 1);
}

static int64_t read_node(int fd)
{
	int64_t node = 0;
	return read(fd, &node, sizeof node) == sizeof node ? node : 0;
}

/* kill -9 of a node with four live tables: two survivors take them in
 * shares (half the orphans each pass, rounded up), every one exactly
 * once, each with its decisions and its seq raised past anything its old
 * owner sent; the dead node is declared gone. A node dead for less than
 * the grace is left alone. */
TEST(store_pg_survivors_take_a_killed_nodes_tables_in_shares)
{
	env e;
	/* The child is forked before this process runs any store thread: a
	 * fork while they run can leave the child a lock one of them held
	 * (under ASan the child hung on its first write). */
	REQUIRE(env_prepare(&e));
	int up, go;
	pid_t pid = child_node(&e, 10, 4, &up, &go);
	REQUIRE(pid > 0);
	int64_t dead = read_node(up);
	REQUIRE(dead > 0);
	REQUIRE(env_start(&e));
	store *c = open_second(&e); /* before the death: a start takes every orphan */
	REQUIRE(c);
	kill(pid, SIGKILL);
	REQUIRE(waitpid(pid, NULL, 0) == pid);
	close(up);
	close(go);
	REQUIRE(node_unlocked(e.path, dead));
	claimed x;
	/* Its death is news to this connection: within the grace, nothing. */
	CHECK_EQ(claim(&e, e.st, 60000, &x), 0);
	char sql[160];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM nodes WHERE id = %lld AND gone_at IS NULL",
		 (long long)dead);
	CHECK_EQ(db_int(e.path, sql), 1);
	int64_t seen[4] = {0};
	size_t total = 0;
	CHECK_EQ(claim(&e, e.st, 0, &x), 2); /* 4 orphans, 2 live nodes */
	for (size_t i = 0; i < x.n; i++) {
		seen[total++] = x.ids[i];
		CHECK_EQ(x.n_decisions[i], 2);
		CHECK_EQ(x.last_seq[i], 40 + STORE_CLAIM_SEQ_GAP);
	}
	CHECK_EQ(db_int(e.path, sql), 0); /* gone now */
	for (int pass = 0; pass < 4 && total < 4; pass++) {
		claim(&e, pass % 2 ? e.st : c, 0, &x);
		for (size_t i = 0; i < x.n && total < 4; i++)
			seen[total++] = x.ids[i];
	}
	CHECK_EQ(total, 4);
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			CHECK(seen[i] != seen[j]);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_tables WHERE owner IN "
			"(SELECT id FROM nodes WHERE gone_at IS NOT NULL)"), 0);
	CHECK_EQ(claim(&e, c, 0, &x), 0); /* nothing left */
	close_second(&e, c);
	env_close(&e);
}

/* A hung node (SIGSTOP) keeps its lock but stops renewing its lease: once
 * the lease is out a survivor terminates its session, declares it gone and
 * takes its table. Woken (SIGCONT), the old node can write nothing more,
 * and knows it is fenced. */
TEST(store_pg_a_hung_node_is_fenced_when_its_lease_runs_out)
{
	int saved = store_pg_lease_ms;
	store_pg_lease_ms = 600;
	env e;
	REQUIRE(env_prepare(&e)); /* forks first, as above */
	int up, go;
	pid_t pid = child_node(&e, 30, 1, &up, &go);
	REQUIRE(pid > 0);
	int64_t hung = read_node(up);
	REQUIRE(hung > 0);
	REQUIRE(env_start(&e));
	kill(pid, SIGSTOP);
	claimed x = {0};
	for (int i = 0; i < 100 && x.n == 0; i++) {
		if (claim(&e, e.st, 0, &x) == 0)
			test_pause_ms(50);
	}
	CHECK_EQ(x.n, 1);
	CHECK_EQ(x.ids[0], 30);
	/* Taken because its lease ran out: silent for a whole lease at least. */
	CHECK_MSG(x.silent_ms[0] >= store_pg_lease_ms, "silent %lld ms",
		  (long long)x.silent_ms[0]);
	kill(pid, SIGCONT);
	char byte = 1;
	CHECK(write(go, &byte, 1) == 1);
	int status = 0;
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the hung node: status %d",
		  status);
	close(up);
	close(go);
	CHECK_EQ(db_int(e.path, "SELECT count(*) FROM live_decisions WHERE table_id = 30"), 2);
	CHECK_EQ(decide(&e, 30, 3, "[9]"), STORE_OK); /* the survivor's now */
	env_close(&e);
	store_pg_lease_ms = saved;
}
