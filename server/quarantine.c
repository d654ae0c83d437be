/*
 * quarantine.c — see quarantine.h. The checks a stored decision log must
 * pass to be replayed, keeping a table aside, and the two admin requests
 * (the session waits, busy, for the store's answer).
 */
#include "quarantine.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"

/* Tables listed per admin_quarantined reply (the rest: `more`). */
#define QUARANTINED_LIST_MAX 100

int quarantine_read_log(const store_live_table *lt, int seats, game_choice **log, char *why,
			size_t len)
{
	*log = NULL;
	if (lt->n_decisions == 0)
		return 0;
	game_choice *v = xcalloc(lt->n_decisions * (size_t)seats, sizeof *v);
	for (size_t d = 0; d < lt->n_decisions; d++) {
		const store_decision *dec = &lt->decisions[d];
		/* Row order is not trusted: decision d+1 must be the d-th row. */
		if (dec->seq != (int64_t)d + 1) {
			if (dec->seq > (int64_t)d + 1)
				snprintf(why, len, "decision %zu is missing from the stored log "
					 "(the next stored is %" PRId64 ")", d + 1, dec->seq);
			else
				snprintf(why, len, "the stored log has decision %" PRId64
					 " where %zu belongs", dec->seq, d + 1);
			free(v);
			return -1;
		}
		cJSON *set = cJSON_Parse(dec->choices_json ? dec->choices_json : "");
		bool ok = cJSON_IsArray(set) && cJSON_GetArraySize(set) == seats;
		for (int i = 0; ok && i < seats; i++) {
			int64_t c;
			ok = proto_json_int(cJSON_GetArrayItem(set, i), -1, INT32_MAX, &c);
			v[d * (size_t)seats + (size_t)i] = ok ? (game_choice)c : GAME_NO_CHOICE;
		}
		cJSON_Delete(set);
		if (!ok) {
			snprintf(why, len, "decision %zu is damaged (not %d choices)", d + 1, seats);
			free(v);
			return -1;
		}
	}
	*log = v;
	return 0;
}

static void take_id(app *a, int64_t table_id)
{
	if (table_id > 0 && (uint64_t)table_id >= a->next_table_id)
		a->next_table_id = (uint64_t)table_id + 1;
}

void quarantine_table(app *a, const store_live_table *lt, const char *why)
{
	take_id(a, lt->table_id);
	log_error("app", "table %" PRId64 " (%s) kept aside, not restored: %s; see `lair admin "
		  "tables quarantined %" PRId64 "`, drop it with `lair admin tables "
		  "drop-quarantined %" PRId64 "`", lt->table_id, lt->kind ? lt->kind : "?", why,
		  lt->table_id, lt->table_id);
	if (a->store)
		store_live_quarantine(a->store, lt->table_id, why, NULL, NULL);
}

void quarantine_still(app *a, const store_live_table *lt)
{
	take_id(a, lt->table_id);
	log_warn("app", "table %" PRId64 " stays kept aside: %s", lt->table_id, lt->quarantined);
}

/* ---- admin requests ---- */

/* Stored JSON as JSON; a row that does not parse (damaged: exactly what an
 * admin inspects) as its text. */
static cJSON *stored_json(const char *text)
{
	if (!text)
		return cJSON_CreateNull();
	cJSON *j = cJSON_Parse(text);
	return j ? j : cJSON_CreateString(text);
}

static cJSON *table_json(const store_live_table *lt, bool full)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "table", (double)lt->table_id);
	cJSON_AddStringToObject(o, "kind", lt->kind ? lt->kind : "");
	cJSON *meta = lt->meta_json ? cJSON_Parse(lt->meta_json) : NULL;
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(meta, "name");
	if (cJSON_IsString(name))
		cJSON_AddStringToObject(o, "name", name->valuestring);
	else
		cJSON_AddNullToObject(o, "name");
	cJSON_Delete(meta);
	cJSON_AddStringToObject(o, "reason", lt->quarantined ? lt->quarantined : "");
	cJSON_AddNumberToObject(o, "quarantined_at", (double)lt->quarantined_at);
	cJSON_AddNumberToObject(o, "started_at", (double)lt->started_at);
	cJSON_AddNumberToObject(o, "decisions", (double)lt->n_decisions);
	if (!full)
		return o;
	char seed[24];
	snprintf(seed, sizeof seed, "%" PRIu64, lt->seed);
	cJSON_AddStringToObject(o, "seed", seed);
	cJSON_AddItemToObject(o, "config", stored_json(lt->config_json));
	cJSON_AddItemToObject(o, "players", stored_json(lt->seats_json));
	cJSON_AddItemToObject(o, "shared", stored_json(lt->shared_json));
	cJSON_AddItemToObject(o, "meta", stored_json(lt->meta_json));
	cJSON *log = cJSON_AddArrayToObject(o, "log");
	for (size_t i = 0; i < lt->n_decisions; i++) {
		cJSON *d = cJSON_CreateObject();
		cJSON_AddNumberToObject(d, "seq", (double)lt->decisions[i].seq);
		cJSON_AddItemToObject(d, "choices", stored_json(lt->decisions[i].choices_json));
		cJSON_AddItemToArray(log, d);
	}
	return o;
}

typedef struct q_ctx {
	session *s;
	int64_t table; /* 0: the list */
} q_ctx;

/* Ends the session's wait for the store (see handle_stats.c). */
static session *q_done(void *ud, int64_t *table_no)
{
	q_ctx *c = ud;
	session *s = c->s;
	*table_no = c->table;
	free(c);
	s->req = NULL;
	s->req_ctx = NULL;
	return s;
}

static void q_wait(session *s, proto_msg *m, store_req *req, q_ctx *c)
{
	if (!req) {
		free(c);
		app_error(s, m->id, PROTO_E_DRAINING, NULL, "the server is shutting down");
		return;
	}
	s->req = req;
	s->req_ctx = c;
	s->req_id = m->id ? cJSON_Duplicate(m->id, true) : NULL;
	s->busy = true;
}

/* Replies the error when the store's answer is one; false when it is not. */
static bool q_failed(session *s, int err, int64_t no)
{
	if (err == STORE_ERR_NOT_FOUND)
		app_error(s, s->req_id, PROTO_E_NOT_FOUND, "table",
			  "no table %" PRId64 " is kept aside", no);
	else if (err != STORE_OK)
		app_error(s, s->req_id, PROTO_E_INTERNAL, NULL, "the store failed (%s)",
			  store_strerror(err));
	return err != STORE_OK;
}

static void listed(void *ud, int err, const store_live_table *v, size_t n)
{
	int64_t no;
	session *s = q_done(ud, &no);
	if (!q_failed(s, err, no)) {
		cJSON *r = proto_new("quarantined", s->req_id);
		cJSON *arr = cJSON_AddArrayToObject(r, "tables");
		size_t shown = no ? n : (n > QUARANTINED_LIST_MAX ? QUARANTINED_LIST_MAX : n);
		for (size_t i = 0; i < shown; i++)
			cJSON_AddItemToArray(arr, table_json(&v[i], no != 0));
		cJSON_AddBoolToObject(r, "more", n > shown);
		app_send(s, r);
	}
	app_session_unbusy(s);
}

void handle_admin_quarantined(session *s, proto_msg *m)
{
	q_ctx *c = xmalloc(sizeof *c);
	*c = (q_ctx){s, m->u.table.table > 0 ? m->u.table.table : 0};
	q_wait(s, m,
	       store_quarantined(s->app->store, c->table, QUARANTINED_LIST_MAX + 1, listed, c),
	       c);
}

static void dropped(void *ud, int err)
{
	int64_t no;
	session *s = q_done(ud, &no);
	if (!q_failed(s, err, no)) {
		log_warn("app", "admin %s dropped quarantined table %" PRId64,
			 s->pl ? s->pl->name : "?", no);
		app_ok(s, s->req_id);
	}
	app_session_unbusy(s);
}

void handle_admin_quarantined_drop(session *s, proto_msg *m)
{
	q_ctx *c = xmalloc(sizeof *c);
	*c = (q_ctx){s, m->u.table.table};
	q_wait(s, m, store_quarantined_drop(s->app->store, c->table, dropped, c), c);
}
