/*
 * recovery.c — crash recovery: at start-up every table the store holds as
 * live (in play when the last run ended, however it ended) is rebuilt
 * from its live record (live.h) by replaying its decisions through its
 * kind (table_restore), seated as it was, its players offline until they
 * say hello again. The shared state is caught up with the decisions it
 * missed (their fold marks, shared.h). A table whose stored game cannot
 * be rebuilt exactly is kept aside instead (quarantine.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "app_int.h"
#include "host.h"
#include "live.h"
#include "lobby.h"
#include "passhash.h"
#include "quarantine.h"
#include "session.h"
#include "shared.h"

static const char *jstr(const cJSON *o, const char *k, const char *def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : def;
}

/* An integer field of a stored record in [lo, hi], else def: the database
 * is ours, but a damaged row must not become an out-of-range cast. */
static int64_t jint(const cJSON *o, const char *k, int64_t lo, int64_t hi, int64_t def)
{
	int64_t v;
	return proto_json_int(cJSON_GetObjectItemCaseSensitive(o, k), lo, hi, &v) ? v : def;
}

/* A restored game's delta (shared.h): the events of its whole log, which
 * its record will merge (the replay in table_restore folds nothing). */
static void fold_restored(app *a, const game_kind *k, app_table *at, const table_settings *ts,
			  const table_restore_info *info)
{
	if (!at || !k->shared_fold || at->kind_index < 0 || !a->shared[at->kind_index])
		return;
	char err[200] = "";
	game_events all = {0};
	game_state *st = table_replay(k, ts->config, ts->seats, info->seed, info->shared,
				      info->log, info->n, &all, err, sizeof err);
	if (st) {
		k->destroy(st);
		shared_fold(a, at->kind_index, at, all.v, all.len);
	} else {
		log_error("app", "table %" PRIu64 ": its share of the shared state not rebuilt: %s",
			  at->id, err);
	}
	game_events_free(&all);
}

/* The table's settings from its stored meta; false with the reason when
 * they cannot be trusted. A private table's password is kept as its hash;
 * a row written before hashes were stored has the password itself: it is
 * hashed now, and *rehashed says the row must be rewritten. */
static bool settings_from_meta(app *a, const store_live_table *lt, const game_kind *k,
			       const cJSON *meta, const cJSON *config, table_settings *ts,
			       bool *rehashed, char *err, size_t errlen)
{
	*ts = (table_settings){
		.id = (uint64_t)lt->table_id,
		.lobby = (uint64_t)jint(meta, "lobby", 1, INT64_MAX, 1),
		.kind = k,
		.config = config,
		.seats = (int)jint(meta, "seats", 1, GAME_MAX_SEATS, 0),
		.private_table = cJSON_IsTrue(cJSON_GetObjectItem(meta, "private")),
		.host = (uint64_t)jint(meta, "host", 0, INT64_MAX, 0),
		.turn_timeout_ms = (int)jint(meta, "turn_timeout_ms", 0, INT32_MAX,
					     a->cfg->turn_timeout_ms),
		.window_ms = a->cfg->window_ms,
		.pacing_ms = (int)jint(meta, "pacing_ms", 0, INT32_MAX, a->cfg->ai_pacing_ms),
		.reveal_pause_ms = a->cfg->reveal_pause_ms,
		/* The game in play comes back with its own seed (info.seed); the
		 * table's next games draw theirs as before (an admin's fixed seed
		 * is the game's). */
		.fixed_seed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(meta, "fixed_seed")),
		.seed = lt->seed,
		.history_max = APP_TABLE_HISTORY_MAX,
		.history_bytes = APP_TABLE_HISTORY_BYTES,
	};
	strlcpy_safe(ts->name, jstr(meta, "name", "table"), sizeof ts->name);
	const char *plain = jstr(meta, "password", NULL);
	*rehashed = !cJSON_GetObjectItemCaseSensitive(meta, "password_hash") && plain && *plain;
	if (*rehashed && passhash_new(plain, ts->password) != 0) {
		snprintf(err, errlen, "cannot hash its password");
		return false;
	}
	if (!*rehashed)
		strlcpy_safe(ts->password, jstr(meta, "password_hash", ""), sizeof ts->password);
	strlcpy_safe(ts->host_name, jstr(meta, "host_name", ""), sizeof ts->host_name);
	if (ts->seats < 1 || ts->seats > GAME_MAX_SEATS) {
		snprintf(err, errlen, "its start record has no valid seat count");
		return false;
	}
	return true;
}

/* Who sat where: humans from the stored seats, every other seat the AI's. */
static void seats_from_json(const cJSON *seats, int n, table_restore_info *info)
{
	for (int i = 0; i < n; i++)
		info->seat_kind[i] = SEAT_AI;
	const cJSON *pj;
	cJSON_ArrayForEach(pj, seats)
	{
		int seat = (int)jint(pj, "seat", 0, GAME_MAX_SEATS - 1, -1);
		if (seat < 0 || seat >= n)
			continue;
		int64_t pid = jint(pj, "player", 1, INT64_MAX, 0);
		if (pid > 0 && !cJSON_IsTrue(cJSON_GetObjectItem(pj, "ai"))) {
			info->seat_kind[seat] = SEAT_HUMAN;
			info->seat_player[seat] = (uint64_t)pid;
			info->seat_name[seat] = jstr(pj, "name", "");
		}
	}
}

/* The rebuilt table joins the app: registered, its live record its own
 * again, in its lobby (the main one if its lobby is gone), its humans and
 * creator known as offline players. */
static void adopt(app *a, table *t, const store_live_table *lt, cJSON *meta, bool rehashed,
		  const table_restore_info *info)
{
	const table_settings *ts = table_get_settings(t);
	app_table *at = app_table_add(a, t, ts->lobby, jint(meta, "creator", 0, INT64_MAX, 0));
	char *new_meta = NULL;
	if (rehashed) {
		cJSON_DeleteItemFromObjectCaseSensitive(meta, "password");
		cJSON_AddStringToObject(meta, "password_hash", ts->password);
		new_meta = proto_print(meta);
	}
	live_restored(a, at, lt->started_at, new_meta);
	free(new_meta);
	lobby *l = lobby_find(a, ts->lobby);
	if (!l) {
		l = lobby_find(a, 1);
		at->lobby = 1;
	}
	lobby_add_table(a, l, at);
	for (int i = 0; i < ts->seats; i++) {
		if (info->seat_kind[i] != SEAT_HUMAN)
			continue;
		player *p = player_offline(a, (int64_t)info->seat_player[i], info->seat_name[i]);
		player_add_table(p, at->id);
	}
	player *c = at->creator ? player_offline(a, at->creator, "") : NULL;
	if (c)
		c->hosted++;
	log_info("app", "table %" PRIu64 " restored at decision %zu", at->id, lt->n_decisions);
}

/* Rebuilds one table in play; false with the reason when its stored game
 * cannot be rebuilt exactly (the caller keeps it aside). */
static bool restore_one(app *a, const store_live_table *lt, char *err, size_t errlen)
{
	const game_kind *k = game_kind_find(lt->kind);
	cJSON *meta = cJSON_Parse(lt->meta_json ? lt->meta_json : "{}");
	cJSON *config = cJSON_Parse(lt->config_json ? lt->config_json : "");
	cJSON *seats = cJSON_Parse(lt->seats_json ? lt->seats_json : "");
	cJSON *shared = lt->shared_json ? cJSON_Parse(lt->shared_json) : NULL;
	game_choice *log = NULL;
	table *t = NULL;
	table_settings ts;
	bool rehashed = false;
	if (!k) {
		snprintf(err, errlen, "no game kind \"%s\" in this laird", lt->kind);
		goto out;
	}
	/* A damaged start record would rebuild another game: none is guessed. */
	if (!cJSON_IsObject(meta) || !cJSON_IsObject(config) || !cJSON_IsArray(seats) ||
	    (lt->shared_json && !shared)) {
		snprintf(err, errlen, "its start record is damaged");
		goto out;
	}
	if (!settings_from_meta(a, lt, k, meta, config, &ts, &rehashed, err, errlen) ||
	    quarantine_read_log(lt, ts.seats, &log, err, errlen) != 0)
		goto out;
	table_restore_info info = {
		.seed = lt->seed,
		.shared = shared,
		.log = log,
		.n = lt->n_decisions,
		/* Rows from before the seq was stored: the older estimate. */
		.seq = lt->last_seq > 0 ? (uint64_t)lt->last_seq + LIVE_SEQ_JUMP
					: ((uint64_t)lt->n_decisions + 1) * LIVE_SEQ_JUMP,
	};
	seats_from_json(seats, ts.seats, &info);
	table_host h = host_callbacks(a);
	t = table_restore(a->loop, &h, &ts, &info, err, errlen);
	if (!t)
		goto out;
	adopt(a, t, lt, meta, rehashed, &info);
	fold_restored(a, k, app_table_find(a, (uint64_t)lt->table_id), &ts, &info);
out:
	free(log);
	cJSON_Delete(meta);
	cJSON_Delete(config);
	cJSON_Delete(seats);
	cJSON_Delete(shared);
	return t != NULL;
}

void tables_restore_these(app *a, const store_live_table *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char err[256] = "";
		if (v[i].quarantined)
			quarantine_still(a, &v[i]);
		else if (!restore_one(a, &v[i], err, sizeof err))
			quarantine_table(a, &v[i], err[0] ? err : "it could not be rebuilt");
	}
}

void tables_restore(app *a)
{
	size_t n = 0;
	const store_live_table *v = store_live_tables(a->store, &n);
	tables_restore_these(a, v, n);
	store_live_tables_release(a->store);
}
