/*
 * test_crawl_store.c — a player's first run is kept in the store
 * (docs/rules/crawl.md C15; migrations/0004_first_runs.sql): a new player
 * has finished no kind, a recorded crawl game marks the kind finished for
 * its human seats (read back with the player), and the migration fills the
 * table from games recorded before it. A real SQLite file, a real loop.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/log.h"
#include "../../common/util.h"
#include "../../server/games/crawl/crawl.h"
#include "../../server/store.h"
#include "../../server/store_int.h"
#include "../test.h"

typedef struct waiter {
	int done, err;
	store_player p;
	char name[40];
} waiter;

static void on_player(void *ud, int err, const store_player *p)
{
	waiter *w = ud;
	w->err = err;
	if (p) {
		w->p = *p;
		strlcpy_safe(w->name, p->name, sizeof w->name);
	}
	w->done++;
}

static void on_id(void *ud, int err, int64_t id)
{
	(void)id;
	waiter *w = ud;
	w->err = err;
	w->done++;
}

static void on_record(void *ud, int err, int64_t id, const store_stat *shared, size_t n)
{
	(void)shared;
	(void)n;
	on_id(ud, err, id);
}

static void on_done(void *ud) { ((waiter *)ud)->done++; }

static void run(uv_loop_t *loop, waiter *w)
{
	for (int i = 0; i < 100000 && !w->done; i++)
		uv_run(loop, UV_RUN_ONCE);
}

static int crawl_bit(void)
{
	for (int i = 0; i < game_kind_count(); i++)
		if (game_kind_at(i) == &crawl_kind)
			return 1 << i;
	return 0;
}

TEST(crawl_C15_first_run_is_kept_per_player_in_the_store)
{
	log_set_level(LOG_ERROR);
	char dir[] = "/tmp/lair_crawl_store_XXXXXX";
	REQUIRE(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/lair.db", dir);
	uv_loop_t loop;
	uv_loop_init(&loop);
	char err[256];
	store *st = store_open(&loop, path, err, sizeof err);
	REQUIRE(st);
	char tok[STORE_TOKEN_LEN + 1], tok2[STORE_TOKEN_LEN + 1];
	REQUIRE(store_token_new(tok) == 0 && store_token_new(tok2) == 0);
	waiter w = {0};
	store_player_create(st, "newcomer", tok, STORE_ROLE_PLAYER, on_player, &w);
	run(&loop, &w);
	REQUIRE(w.err == STORE_OK);
	int64_t id = w.p.id;
	CHECK_EQ(w.p.kinds_finished, 0u); /* a first run ahead in every kind */
	waiter w2 = {0};
	store_player_create(st, "other", tok2, STORE_ROLE_PLAYER, on_player, &w2);
	run(&loop, &w2);
	/* a finished crawl game with the newcomer in seat 0 and an AI in seat 1 */
	store_seat seats[2] = {{.player_id = id}, {.player_id = 0}};
	store_game g = {.kind = &crawl_kind,
			.config_json = "{}",
			.seed = 1,
			.seats_json = "[]",
			.shared_json = "null",
			.choices_json = "[]",
			.result_json = "{}",
			.started_at = 1,
			.ended_at = 2,
			.n_seats = 2,
			.seats = seats};
	w = (waiter){0};
	store_game_finish(st, &g, on_record, &w);
	run(&loop, &w);
	REQUIRE(w.err == STORE_OK);
	w = (waiter){0};
	store_player_by_token(st, tok, on_player, &w);
	run(&loop, &w);
	CHECK_EQ(w.p.kinds_finished, (uint32_t)crawl_bit());
	w = (waiter){0};
	store_player_by_name(st, "other", on_player, &w);
	run(&loop, &w);
	CHECK_EQ(w.p.kinds_finished, 0u);
	/* a second game changes nothing for the first game's id */
	w = (waiter){0};
	store_game_finish(st, &g, on_record, &w);
	run(&loop, &w);
	CHECK_EQ(w.err, STORE_OK);
	w = (waiter){0};
	store_shutdown(st, on_done, &w);
	run(&loop, &w);
	store_free(st);
	/* the migration fills player_kinds from games already recorded */
	sqlite3 *db;
	REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
	REQUIRE(sqlite3_exec(db, "DELETE FROM player_kinds", NULL, NULL, NULL) == SQLITE_OK);
	const char *sql = NULL;
	for (int i = 0; i < store_n_migrations; i++)
		if (strstr(store_migrations[i].name, "first_runs"))
			sql = strstr(store_migrations[i].sql, "INSERT INTO player_kinds");
	REQUIRE(sql);
	REQUIRE(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_stmt *s;
	REQUIRE(sqlite3_prepare_v2(db, "SELECT player_id, kind, first_game FROM player_kinds", -1,
				   &s, NULL) == SQLITE_OK);
	REQUIRE(sqlite3_step(s) == SQLITE_ROW);
	CHECK_EQ(sqlite3_column_int64(s, 0), id);
	CHECK_STR((const char *)sqlite3_column_text(s, 1), "crawl");
	CHECK_EQ(sqlite3_column_int64(s, 2), 1); /* the first game's id */
	CHECK_EQ(sqlite3_step(s), SQLITE_DONE);
	sqlite3_finalize(s);
	sqlite3_close(db);
	uv_loop_close(&loop);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_EQ(system(cmd), 0);
}
