/*
 * shared.c — see shared.h: each kind's base (the store's values), the
 * deltas of the games in play, and the view a new game starts from.
 */
#include "shared.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"

/* A stored value beyond this is not one a game could have made (a
 * damaged or hostile row): it is left out, as the kinds' readers would
 * refuse it. */
#define SHARED_VALUE_MAX 1000000000000LL

static const game_kind *kind_of(int i)
{
	return i >= 0 && i < game_kind_count() && i < APP_MAX_KINDS ? game_kind_at(i) : NULL;
}

static bool has_values(const game_kind *k)
{
	return k && k->shared_new && k->n_shared > 0;
}

/* The value at a dotted path of a kind's JSON ("adventure_uses.banker"). */
static const cJSON *at_path(const cJSON *o, const char *path)
{
	char part[64];
	while (o && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof part)
			return NULL;
		memcpy(part, path, n);
		part[n] = 0;
		o = cJSON_GetObjectItemCaseSensitive(o, part);
		path += n + (path[n] == '.');
	}
	return o;
}

/* A kind's state as its values (GAME_STAT_NONE where it has none). */
static void values_of(const game_kind *k, const void *state, int64_t *v)
{
	cJSON *j = k->shared_json(state);
	for (int d = 0; d < k->n_shared; d++) {
		const cJSON *x = at_path(j, k->shared_defs[d].key);
		double n = cJSON_IsNumber(x) ? x->valuedouble : -1;
		v[d] = n >= 0 && n <= (double)SHARED_VALUE_MAX && n == floor(n) ? (int64_t)n
									   : GAME_STAT_NONE;
	}
	cJSON_Delete(j);
}

/* Values back into the kind's JSON, and its state from that. */
static void *state_of(const game_kind *k, const int64_t *v)
{
	cJSON *j = cJSON_CreateObject();
	for (int d = 0; d < k->n_shared; d++) {
		if (v[d] == GAME_STAT_NONE)
			continue;
		cJSON *o = j;
		const char *path = k->shared_defs[d].key, *dot;
		char part[64];
		while ((dot = strchr(path, '.')) && (size_t)(dot - path) < sizeof part) {
			memcpy(part, path, (size_t)(dot - path));
			part[dot - path] = 0;
			cJSON *in = cJSON_GetObjectItemCaseSensitive(o, part);
			o = in ? in : cJSON_AddObjectToObject(o, part);
			path = dot + 1;
		}
		cJSON_AddNumberToObject(o, path, (double)v[d]);
	}
	char err[160] = "";
	void *st = k->shared_new(j, err, sizeof err);
	if (!st) {
		/* Values this build cannot read: start fresh rather than
		 * refuse to serve, and say so. */
		log_warn("app", "%s: shared values rejected (%s); starting fresh", k->name, err);
		st = k->shared_new(NULL, err, sizeof err);
	}
	cJSON_Delete(j);
	return st;
}

/* Adds a game's values into v: each with its aggregation. */
static void merge(const game_kind *k, int64_t *v, const int64_t *d)
{
	for (int i = 0; i < k->n_shared; i++) {
		if (d[i] == GAME_STAT_NONE)
			continue;
		if (v[i] == GAME_STAT_NONE)
			v[i] = d[i];
		else if (k->shared_defs[i].agg == GAME_STAT_SUM)
			v[i] = v[i] + d[i] > SHARED_VALUE_MAX ? SHARED_VALUE_MAX : v[i] + d[i];
		else if (k->shared_defs[i].agg == GAME_STAT_MIN)
			v[i] = d[i] < v[i] ? d[i] : v[i];
		else
			v[i] = d[i] > v[i] ? d[i] : v[i];
	}
}

/* The view of kind i: the base merged with the deltas of the games in
 * play here. */
static void rebuild(app *a, int i)
{
	const game_kind *k = kind_of(i);
	if (!has_values(k))
		return;
	int64_t *v = xmalloc((size_t)k->n_shared * sizeof *v);
	memcpy(v, a->shared_base[i], (size_t)k->n_shared * sizeof *v);
	size_t it = 0;
	app_table *at;
	while ((at = idmap_next(&a->tables, &it, NULL))) {
		if (at->kind_index != i || !at->shared_delta)
			continue;
		/* Made again only for the games that moved since (one JSON
		 * each), not for every game in play at every record. */
		if (!at->shared_values || at->shared_stale) {
			if (!at->shared_values)
				at->shared_values = xmalloc((size_t)k->n_shared * sizeof(int64_t));
			values_of(k, at->shared_delta, at->shared_values);
			at->shared_stale = false;
		}
		merge(k, v, at->shared_values);
	}
	k->shared_free(a->shared[i]);
	a->shared[i] = state_of(k, v);
	free(v);
}

/* Stored values into kind i's base, each the furthest of the two (values
 * only move one way from record to record: shared.h). Unknown keys and
 * values no game makes are left out. Whether anything changed. */
static bool base_join(app *a, int i, const store_stat *rows, size_t n)
{
	const game_kind *k = kind_of(i);
	bool changed = false;
	for (size_t r = 0; r < n; r++) {
		if (!rows[r].kind || strcmp(rows[r].kind, k->name) != 0)
			continue;
		int d = 0;
		while (d < k->n_shared && strcmp(k->shared_defs[d].key, rows[r].key) != 0)
			d++;
		int64_t x = rows[r].value;
		if (d == k->n_shared || x < 0 || x > SHARED_VALUE_MAX) {
			log_warn("app", "%s: shared value %s = %lld left out", k->name, rows[r].key,
				 (long long)x);
			continue;
		}
		int64_t *b = &a->shared_base[i][d];
		bool further = *b == GAME_STAT_NONE ||
			       (k->shared_defs[d].agg == GAME_STAT_MIN ? x < *b : x > *b);
		if (further) {
			*b = x;
			changed = true;
		}
	}
	return changed;
}

void shared_load(app *a)
{
	size_t n = 0;
	const store_stat *rows = a->store ? store_shared_loaded(a->store, &n) : NULL;
	for (int i = 0; i < game_kind_count() && i < APP_MAX_KINDS; i++) {
		const game_kind *k = game_kind_at(i);
		if (!k->shared_new)
			continue;
		char err[160] = "";
		a->shared[i] = k->shared_new(NULL, err, sizeof err);
		if (!has_values(k))
			continue;
		a->shared_base[i] = xmalloc((size_t)k->n_shared * sizeof(int64_t));
		for (int d = 0; d < k->n_shared; d++)
			a->shared_base[i][d] = GAME_STAT_NONE;
		base_join(a, i, rows, n);
		rebuild(a, i);
	}
}

const void *shared_state(const app *a, const game_kind *k)
{
	int i = app_kind_index(k);
	return i >= 0 ? a->shared[i] : NULL;
}

void shared_fold(app *a, int i, app_table *at, const game_event *evs, size_t n)
{
	const game_kind *k = kind_of(i);
	if (!k || !a->shared[i] || !k->shared_fold)
		return;
	k->shared_fold(a->shared[i], evs, n);
	if (!at || !has_values(k))
		return;
	if (!at->shared_delta) {
		char err[160] = "";
		at->shared_delta = k->shared_new(NULL, err, sizeof err);
	}
	if (at->shared_delta)
		k->shared_fold(at->shared_delta, evs, n);
	at->shared_stale = true;
}

int64_t *shared_delta_values(const app *a, const app_table *at)
{
	(void)a;
	const game_kind *k = kind_of(at->kind_index);
	if (!has_values(k))
		return NULL;
	int64_t *v = xmalloc((size_t)k->n_shared * sizeof *v);
	if (at->shared_delta) {
		values_of(k, at->shared_delta, v);
	} else {
		for (int d = 0; d < k->n_shared; d++)
			v[d] = GAME_STAT_NONE;
	}
	return v;
}

void shared_game_done(app *a, app_table *at, const store_stat *rows, size_t n)
{
	int i = at->kind_index;
	const game_kind *k = kind_of(i);
	if (!k)
		return;
	bool had = at->shared_delta != NULL;
	shared_table_free(at);
	if (has_values(k) && a->shared_base[i] && (base_join(a, i, rows, n) || had))
		rebuild(a, i);
}

void shared_base_merge(app *a, const store_stat *rows, size_t n)
{
	for (int i = 0; i < game_kind_count() && i < APP_MAX_KINDS; i++)
		if (has_values(game_kind_at(i)) && a->shared_base[i] && base_join(a, i, rows, n))
			rebuild(a, i);
}

void shared_table_free(app_table *at)
{
	const game_kind *k = kind_of(at->kind_index);
	if (k && at->shared_delta)
		k->shared_free(at->shared_delta);
	at->shared_delta = NULL;
	free(at->shared_values);
	at->shared_values = NULL;
}

void shared_free(app *a)
{
	for (int i = 0; i < game_kind_count() && i < APP_MAX_KINDS; i++) {
		if (a->shared[i])
			game_kind_at(i)->shared_free(a->shared[i]);
		a->shared[i] = NULL;
		free(a->shared_base[i]);
		a->shared_base[i] = NULL;
	}
}
