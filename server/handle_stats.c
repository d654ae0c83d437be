/*
 * handle_stats.c — statistics, achievements and records (PROTOCOL.md §8):
 * anyone may ask for any player's. Statistics and achievements come from
 * the store (the session waits, busy, for the answer); records are the
 * kind's live shared state, in memory.
 */
#include <stdlib.h>
#include <string.h>

#include "app_int.h"

/* The kind a query names ("gems" when absent); replies not_found if none. */
static const game_kind *query_kind(session *s, proto_msg *m)
{
	const char *name = m->u.query.kind ? m->u.query.kind : "gems";
	const game_kind *k = game_kind_find(name);
	if (!k)
		app_error(s, m->id, PROTO_E_NOT_FOUND, "kind", "no game kind \"%s\"", name);
	return k;
}

typedef struct stats_ctx {
	session *s;
	const game_kind *kind;
	bool achievements; /* which reply */
} stats_ctx;

/* The stats list in the kind's order: [{key, label, value|null}]. */
static cJSON *stats_list(const game_kind *k, const store_stat *rows, size_t n, int64_t *games)
{
	cJSON *arr = cJSON_CreateArray();
	*games = 0;
	for (int i = 0; i < k->n_stats; i++) {
		const game_stat_def *d = &k->stat_defs[i];
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "key", d->key);
		cJSON_AddStringToObject(e, "label", d->label);
		const store_stat *row = NULL;
		for (size_t j = 0; j < n; j++)
			if (strcmp(rows[j].kind, k->name) == 0 && strcmp(rows[j].key, d->key) == 0)
				row = &rows[j];
		/* A sum over no game is 0 (a new player has played 0 games); a
		 * min or max over none has no value (PROTOCOL.md §8). */
		if (row && row->samples > 0)
			cJSON_AddNumberToObject(e, "value", (double)row->value);
		else if (d->agg == GAME_STAT_SUM)
			cJSON_AddNumberToObject(e, "value", 0);
		else
			cJSON_AddNullToObject(e, "value");
		if (row && row->samples > *games)
			*games = row->samples;
		cJSON_AddItemToArray(arr, e);
	}
	return arr;
}

static void profile_done(void *ud, int err, const store_profile *p)
{
	stats_ctx *c = ud;
	session *s = c->s;
	const game_kind *k = c->kind;
	bool ach = c->achievements;
	free(c);
	s->req = NULL;
	s->req_ctx = NULL;
	if (err == STORE_ERR_NOT_FOUND) {
		app_error(s, s->req_id, PROTO_E_NOT_FOUND, "player", "no such player");
	} else if (err != STORE_OK) {
		app_error(s, s->req_id, PROTO_E_INTERNAL, NULL, "the store failed (%s)",
			  store_strerror(err));
	} else if (!ach) {
		cJSON *r = proto_new("stats", s->req_id);
		cJSON_AddStringToObject(r, "player", p->player.name);
		cJSON_AddStringToObject(r, "kind", k->name);
		int64_t samples;
		cJSON *list = stats_list(k, p->stats, p->n_stats, &samples);
		cJSON_AddNumberToObject(r, "games", (double)p->games);
		cJSON_AddItemToObject(r, "stats", list);
		app_send(s, r);
	} else {
		cJSON *r = proto_new("achievements", s->req_id);
		cJSON_AddStringToObject(r, "player", p->player.name);
		cJSON_AddStringToObject(r, "kind", k->name);
		cJSON *arr = cJSON_AddArrayToObject(r, "achievements");
		for (int i = 0; i < k->n_achievements; i++) {
			const game_achievement_def *d = &k->achievement_defs[i];
			int64_t count = 0;
			for (size_t j = 0; j < p->n_achievements; j++)
				if (strcmp(p->achievements[j].kind, k->name) == 0 &&
				    strcmp(p->achievements[j].key, d->key) == 0)
					count = p->achievements[j].count;
			cJSON *e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "key", d->key);
			cJSON_AddStringToObject(e, "label", d->label);
			cJSON_AddNumberToObject(e, "count", (double)count);
			cJSON_AddItemToArray(arr, e);
		}
		app_send(s, r);
	}
	app_session_unbusy(s);
}

/* Starts a store request for the session; the reply comes from cb. */
static bool wait_for(session *s, proto_msg *m, store_req *req, void *ctx)
{
	if (!req) {
		app_error(s, m->id, PROTO_E_DRAINING, NULL, "the server is shutting down");
		return false;
	}
	s->req = req;
	s->req_ctx = ctx;
	s->req_id = m->id ? cJSON_Duplicate(m->id, true) : NULL;
	s->busy = true;
	return true;
}

static void profile_query(session *s, proto_msg *m, bool achievements)
{
	const game_kind *k = query_kind(s, m);
	if (!k)
		return;
	const char *name = m->u.query.player;
	if (!name && !s->pl) { /* asked before hello: "yourself" is nobody yet */
		app_error(s, m->id, PROTO_E_NOT_HELLO, "player",
			  "name a player, or say hello first to ask about yourself");
		return;
	}
	stats_ctx *c = xmalloc(sizeof *c);
	*c = (stats_ctx){s, k, achievements};
	int64_t id = name ? 0 : s->pl->id;
	store_req *req = store_profile_get(s->app->store, id, name, k->name, profile_done, c);
	if (!wait_for(s, m, req, c))
		free(c);
}

void handle_stats(session *s, proto_msg *m) { profile_query(s, m, false); }
void handle_achievements(session *s, proto_msg *m) { profile_query(s, m, true); }

static void server_stats_done(void *ud, int err, const store_stat *rows, size_t n)
{
	stats_ctx *c = ud;
	session *s = c->s;
	const game_kind *k = c->kind;
	free(c);
	s->req = NULL;
	s->req_ctx = NULL;
	if (err != STORE_OK) {
		app_error(s, s->req_id, PROTO_E_INTERNAL, NULL, "the store failed (%s)",
			  store_strerror(err));
	} else {
		cJSON *r = proto_new("server_stats", s->req_id);
		cJSON_AddStringToObject(r, "kind", k->name);
		int64_t games;
		cJSON *list = stats_list(k, rows, n, &games);
		/* Every finished game adds one sample to each statistic that
		 * applies to it: the most samples is the number of games. */
		cJSON_AddNumberToObject(r, "games", (double)games);
		cJSON_AddItemToObject(r, "stats", list);
		app_send(s, r);
	}
	app_session_unbusy(s);
}

void handle_server_stats(session *s, proto_msg *m)
{
	const game_kind *k = query_kind(s, m);
	if (!k)
		return;
	stats_ctx *c = xmalloc(sizeof *c);
	*c = (stats_ctx){s, k, false};
	store_req *req = store_server_stats(s->app->store, k->name, server_stats_done, c);
	if (!wait_for(s, m, req, c))
		free(c);
}

void handle_records(session *s, proto_msg *m)
{
	const game_kind *k = query_kind(s, m);
	if (!k)
		return;
	int i = app_kind_index(k);
	cJSON *r = proto_new("records", m->id);
	cJSON_AddStringToObject(r, "kind", k->name);
	if (i >= 0 && s->app->shared[i] && k->shared_json)
		cJSON_AddItemToObject(r, "records", k->shared_json(s->app->shared[i]));
	else
		cJSON_AddObjectToObject(r, "records");
	app_send(s, r);
}
