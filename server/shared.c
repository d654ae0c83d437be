/*
 * shared.c — see shared.h: the kinds' shared states, how they are saved,
 * and the fold marks of the games in play.
 */
#include "shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log.h"

/* The key of a game in play in a kind's marks. */
static void mark_key(char *out, size_t len, uint64_t table_no, int64_t started_at)
{
	snprintf(out, len, "%llu:%lld", (unsigned long long)table_no, (long long)started_at);
}

void shared_load(app *a)
{
	for (int i = 0; i < game_kind_count() && i < APP_MAX_KINDS; i++) {
		const game_kind *k = game_kind_at(i);
		a->folded[i] = cJSON_CreateObject();
		if (!k->shared_new)
			continue;
		const char *saved = store_shared_loaded(a->store, k->name);
		cJSON *json = saved ? cJSON_Parse(saved) : NULL;
		const cJSON *state = json;
		/* The app's wrapper (shared_text); a bare kind state is read as
		 * such (a database written before the wrapper). */
		if (cJSON_GetObjectItemCaseSensitive(json, "app_v")) {
			state = cJSON_GetObjectItemCaseSensitive(json, "state");
			const cJSON *f = cJSON_GetObjectItemCaseSensitive(json, "folded");
			if (cJSON_IsObject(f)) {
				cJSON_Delete(a->folded[i]);
				a->folded[i] = cJSON_Duplicate(f, true);
			}
		}
		char err[160] = "";
		a->shared[i] = k->shared_new(cJSON_IsNull(state) ? NULL : state, err, sizeof err);
		if (!a->shared[i]) {
			/* A saved state this build cannot read: start fresh rather
			 * than refuse to serve, and say so. */
			log_warn("app", "%s: saved shared state rejected (%s); starting fresh",
				 k->name, err);
			a->shared[i] = k->shared_new(NULL, err, sizeof err);
		}
		a->shared_text[i] = saved ? xstrdup(saved) : NULL;
		cJSON_Delete(json);
	}
}

const void *shared_state(const app *a, const game_kind *k)
{
	int i = app_kind_index(k);
	return i >= 0 ? a->shared[i] : NULL;
}

/* The text saved for kind i: {"app_v": 1, "state": <the kind's JSON>,
 * "folded": {...}} (caller frees). */
static char *shared_text(app *a, int i)
{
	const game_kind *k = game_kind_at(i);
	cJSON *w = cJSON_CreateObject();
	cJSON_AddNumberToObject(w, "app_v", 1);
	cJSON_AddItemToObject(w, "state", k->shared_json(a->shared[i]));
	cJSON_AddItemToObject(w, "folded", cJSON_Duplicate(a->folded[i], true));
	char *text = proto_print(w);
	cJSON_Delete(w);
	return text;
}

void shared_save_if_changed(app *a, int i)
{
	const game_kind *k = game_kind_at(i);
	if (!a->store || !a->shared[i] || !k->shared_json)
		return;
	char *text = shared_text(a, i);
	if (a->shared_text[i] && strcmp(a->shared_text[i], text) == 0) {
		free(text);
		return;
	}
	/* Saved as soon as it changes: a crash loses at most the change of
	 * the decision being applied (replayed events are not folded again). */
	store_shared_save(a->store, k->name, text, NULL, NULL);
	a->shared_saved_ms[i] = now_ms();
	free(a->shared_text[i]);
	a->shared_text[i] = text;
}

/* A change is saved at once, unless another was saved less than
 * SHARED_SAVE_MS ago: then thousands of tables share one save at the end
 * of that interval. A crash loses at most that much of the changes. */
static void saver_cb(uv_timer_t *t)
{
	app *a = t->data;
	a->saver_armed = false;
	for (int i = 0; i < APP_MAX_KINDS; i++) {
		if (a->shared_dirty[i]) {
			a->shared_dirty[i] = false;
			shared_save_if_changed(a, i);
		}
	}
}

void shared_dirty(app *a, int i)
{
	if (now_ms() - a->shared_saved_ms[i] >= SHARED_SAVE_MS && !a->shared_dirty[i]) {
		shared_save_if_changed(a, i);
		return;
	}
	a->shared_dirty[i] = true;
	if (!a->saver_armed && a->saver) {
		a->saver_armed = true;
		uv_timer_start(a->saver, saver_cb, SHARED_SAVE_MS, 0);
	}
}

void shared_fold(app *a, int i, const game_event *evs, size_t n, uint64_t table_no,
		 int64_t started_at, size_t applied)
{
	if (i < 0 || i >= APP_MAX_KINDS || !a->shared[i] || !game_kind_at(i)->shared_fold)
		return;
	game_kind_at(i)->shared_fold(a->shared[i], evs, n);
	if (table_no && a->folded[i]) {
		char key[48];
		mark_key(key, sizeof key, table_no, started_at);
		cJSON_DeleteItemFromObjectCaseSensitive(a->folded[i], key);
		cJSON_AddNumberToObject(a->folded[i], key, (double)applied);
	}
	shared_dirty(a, i);
}

char *shared_text_for_record(app *a, const app_table *at)
{
	int i = at->kind_index;
	if (i < 0 || !a->shared[i] || !a->folded[i])
		return NULL;
	/* The record ends the game's live table: the state it saves has no
	 * mark for the game. Memory keeps the mark until the record is
	 * durable (a failed write is retried with the state of then). */
	char key[48];
	mark_key(key, sizeof key, at->id, at->started_at);
	cJSON *mark = cJSON_DetachItemFromObjectCaseSensitive(a->folded[i], key);
	char *text = shared_text(a, i);
	if (mark)
		cJSON_AddItemToObject(a->folded[i], key, mark);
	/* Not known to be saved until the record commits: the next change is
	 * saved whatever it is. */
	free(a->shared_text[i]);
	a->shared_text[i] = NULL;
	return text;
}

bool fold_mark_get(const app *a, int i, uint64_t table_no, int64_t started_at, size_t *n)
{
	*n = 0;
	if (i < 0 || i >= APP_MAX_KINDS || !a->folded[i])
		return false;
	char key[48];
	mark_key(key, sizeof key, table_no, started_at);
	int64_t v = 0;
	if (!proto_json_int(cJSON_GetObjectItemCaseSensitive(a->folded[i], key), 0, INT64_MAX, &v))
		return false;
	*n = (size_t)v;
	return true;
}

void fold_mark_drop(app *a, const app_table *at)
{
	int i = at->kind_index;
	if (i < 0 || !a->folded[i])
		return;
	char key[48];
	mark_key(key, sizeof key, at->id, at->started_at);
	if (cJSON_GetObjectItemCaseSensitive(a->folded[i], key)) {
		cJSON_DeleteItemFromObjectCaseSensitive(a->folded[i], key);
		shared_dirty(a, i);
	}
}

void fold_marks_prune(app *a)
{
	for (int i = 0; i < APP_MAX_KINDS; i++) {
		if (!a->folded[i])
			continue;
		bool changed = false;
		for (cJSON *e = a->folded[i]->child, *next; e; e = next) {
			next = e->next;
			bool live = false;
			uint64_t no = e->string ? strtoull(e->string, NULL, 10) : 0;
			app_table *at = no ? app_table_find(a, no) : NULL;
			if (at) {
				char key[48];
				mark_key(key, sizeof key, at->id, at->started_at);
				live = strcmp(key, e->string) == 0;
			}
			if (!live) {
				cJSON_Delete(cJSON_DetachItemViaPointer(a->folded[i], e));
				changed = true;
			}
		}
		if (changed)
			shared_dirty(a, i);
	}
}
