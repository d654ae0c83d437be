/*
 * table_replay.c — a game as data: the record of a table's game (kind,
 * config, seats, seed, shared snapshot, choice log, result), the pure replay
 * of such a record through the kind, and the rebuilding of a table in play
 * from its record after a crash.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"
#include "../common/util.h"
#include "table_int.h"

static void seterr(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		strlcpy_safe(err, msg, errlen);
}

game_state *table_replay(const game_kind *kind, const cJSON *config, int seats, uint64_t seed,
			 const cJSON *shared, const game_choice *log, size_t n, game_events *evs,
			 char *err, size_t errlen)
{
	char kerr[200] = "";
	void *cfg = kind->config_new(config, kerr, sizeof kerr);
	if (!cfg) {
		seterr(err, errlen, kerr[0] ? kerr : "config rejected");
		return NULL;
	}
	void *sh = NULL;
	if (shared && !cJSON_IsNull(shared) && kind->shared_new) {
		sh = kind->shared_new(shared, kerr, sizeof kerr);
		if (!sh) {
			kind->config_free(cfg);
			seterr(err, errlen, kerr[0] ? kerr : "shared state rejected");
			return NULL;
		}
	}
	game_events local = {0};
	game_events *out = evs ? evs : &local;
	game_state *st = kind->create(cfg, seats, seed, sh, out, kerr, sizeof kerr);
	if (sh)
		kind->shared_free(sh);
	kind->config_free(cfg);
	if (!st) {
		game_events_free(&local);
		seterr(err, errlen, kerr[0] ? kerr : "create failed");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (!evs)
			game_events_clear(&local);
		if (kind->apply(st, &log[i * (size_t)seats], out, kerr, sizeof kerr) != GAME_OK) {
			char msg[300];
			snprintf(msg, sizeof msg, "decision %zu does not apply: %s", i + 1, kerr);
			seterr(err, errlen, msg);
			kind->destroy(st);
			game_events_free(&local);
			return NULL;
		}
	}
	game_events_free(&local);
	return st;
}

int table_log_parse(const cJSON *log, int seats, game_choice **out, size_t *n, char *err,
		    size_t errlen)
{
	*out = NULL;
	*n = 0;
	if (!cJSON_IsArray(log) || seats < 1 || seats > GAME_MAX_SEATS) {
		seterr(err, errlen, "log: not an array");
		return -1;
	}
	size_t count = (size_t)cJSON_GetArraySize(log);
	game_choice *v = xmalloc((count ? count : 1) * (size_t)seats * sizeof *v);
	size_t i = 0;
	const cJSON *set;
	cJSON_ArrayForEach(set, log) {
		if (!cJSON_IsArray(set) || cJSON_GetArraySize(set) != seats) {
			free(v);
			seterr(err, errlen, "log: a set is not an array of one choice per seat");
			return -1;
		}
		int j = 0;
		const cJSON *c;
		cJSON_ArrayForEach(c, set) {
			double d = cJSON_IsNumber(c) ? c->valuedouble : -2;
			if (!(d >= -1 && d <= INT32_MAX) || d != (double)(int32_t)d) { /* NaN too */
				free(v);
				seterr(err, errlen, "log: a choice is not an integer >= -1");
				return -1;
			}
			v[i * (size_t)seats + (size_t)j++] = (game_choice)d;
		}
		i++;
	}
	*out = v;
	*n = count;
	return 0;
}

static cJSON *log_json(const game_choice *log, size_t n, int seats)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++) {
		cJSON *set = cJSON_CreateArray();
		const game_choice *row = &log[i * (size_t)seats];
		for (int j = 0; j < seats; j++)
			cJSON_AddItemToArray(set, cJSON_CreateNumber(row[j]));
		cJSON_AddItemToArray(a, set);
	}
	return a;
}

cJSON *table_record_json(const table *t)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "kind", t->s.kind->name);
	cJSON_AddItemToObject(r, "config", cJSON_Duplicate(t->config_full, 1));
	cJSON_AddNumberToObject(r, "seats", t->s.seats);
	char s[24];
	snprintf(s, sizeof s, "%llu", (unsigned long long)t->seed);
	cJSON_AddStringToObject(r, "seed", s);
	cJSON *shared = t->shared_snap ? cJSON_Duplicate(t->shared_snap, 1) : cJSON_CreateNull();
	cJSON_AddItemToObject(r, "shared", shared);
	cJSON *players = cJSON_AddArrayToObject(r, "players");
	for (int i = 0; i < t->s.seats; i++) {
		const struct table_seat *st = &t->seats[i];
		cJSON *p = cJSON_CreateObject();
		cJSON_AddNumberToObject(p, "seat", i);
		if (st->kind == SEAT_HUMAN) {
			cJSON_AddNumberToObject(p, "player", (double)st->player);
			cJSON_AddStringToObject(p, "name", st->name);
		} else {
			cJSON_AddNullToObject(p, "player");
			cJSON_AddNullToObject(p, "name");
		}
		cJSON_AddBoolToObject(p, "ai", st->kind != SEAT_HUMAN);
		cJSON_AddItemToArray(players, p);
	}
	cJSON_AddItemToObject(r, "log", log_json(t->log, t->n_log, t->s.seats));
	cJSON_AddNumberToObject(r, "decisions", (double)t->n_log);
	cJSON_AddItemToObject(r, "result", t->result ? cJSON_Duplicate(t->result, 1)
						     : cJSON_CreateNull());
	cJSON_AddNumberToObject(r, "ai_mask",
				t->state == TABLE_FINISHED || t->phase == PH_RECORD
					? t->end_ai_mask
					: table_ai_mask(t));
	return r;
}

table *table_restore(uv_loop_t *loop, const table_host *host, const table_settings *s,
		     const table_restore_info *info, char *err, size_t errlen)
{
	table *t = table_new(loop, host, s, err, errlen);
	if (!t)
		return NULL;
	const game_kind *k = s->kind;
	for (int i = 0; i < t->s.seats; i++) {
		struct table_seat *st = &t->seats[i];
		st->kind = info->seat_kind[i] == SEAT_HUMAN && info->seat_player[i] ? SEAT_HUMAN
										     : SEAT_AI;
		if (st->kind == SEAT_HUMAN) {
			st->player = info->seat_player[i];
			strlcpy_safe(st->name, info->seat_name[i] ? info->seat_name[i] : "",
				     sizeof st->name);
			st->connected = false; /* until the player says hello again */
		}
	}
	void *sh = NULL;
	char kerr[200] = "";
	if (info->shared && !cJSON_IsNull(info->shared) && k->shared_new) {
		sh = k->shared_new(info->shared, kerr, sizeof kerr);
		if (!sh) {
			seterr(err, errlen, kerr[0] ? kerr : "shared state rejected");
			table_free(t);
			return NULL;
		}
	}
	t->game = k->create(t->config, t->s.seats, info->seed, sh, &t->evs, kerr, sizeof kerr);
	t->shared_snap = sh && k->shared_json ? k->shared_json(sh) : NULL;
	if (sh)
		k->shared_free(sh);
	if (!t->game) {
		seterr(err, errlen, kerr[0] ? kerr : "create failed");
		table_free(t);
		return NULL;
	}
	if (t->host.events && t->evs.len)
		t->host.events(t->host.ud, t, t->evs.v, t->evs.len, true);
	for (size_t i = 0; i < info->n; i++) {
		const game_choice *set = &info->log[i * (size_t)t->s.seats];
		game_events_clear(&t->evs);
		if (k->apply(t->game, set, &t->evs, kerr, sizeof kerr) != GAME_OK) {
			char msg[300];
			snprintf(msg, sizeof msg, "decision %zu does not apply: %s", i + 1, kerr);
			seterr(err, errlen, msg);
			table_free(t);
			return NULL;
		}
		round_log_append(t, set);
		if (t->host.events && t->evs.len)
			t->host.events(t->host.ud, t, t->evs.v, t->evs.len, true);
	}
	game_events_clear(&t->evs);
	t->seed = info->seed;
	t->seq = info->seq;
	t->resume_floor = info->seq; /* what came before the crash is not held */
	t->decision = info->n;
	t->games = 1;
	t->state = TABLE_PLAYING;
	t->phase = PH_BETWEEN;
	if (k->is_over(t->game)) {
		/* Its last decision ended it but its record was not committed
		 * (the crash came in between; no result was sent): finish it on
		 * the next step, once the caller has the table registered, so
		 * that host.record writes the record exactly once. */
		round_schedule_next(t);
	} else {
		round_post_decision(t);
	}
	table_clock_sync(t);
	return t;
}
