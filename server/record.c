/*
 * record.c — see record.h.
 */
#include "record.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "../proto/proto_msg.h"

static char *field_text(const cJSON *rec, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, key);
	return v ? proto_print(v) : xstrdup("null");
}

void record_build(record *r, const table *t, const int64_t *shared_delta, int64_t started_at,
		  int64_t ended_at, int64_t live_table_id)
{
	memset(r, 0, sizeof *r);
	const game_kind *k = table_get_settings(t)->kind;
	const game_state *st = table_game(t);
	uint32_t ai = table_ai_mask(t);
	int seats = table_get_settings(t)->seats;
	cJSON *rec = table_record_json(t);
	r->config = field_text(rec, "config");
	r->players = field_text(rec, "players");
	r->shared = field_text(rec, "shared");
	r->log = field_text(rec, "log");
	r->result = field_text(rec, "result");
	cJSON_Delete(rec);

	size_t stride = (size_t)k->n_stats + 1;
	r->vals = xcalloc((size_t)(seats + 1) * stride, sizeof *r->vals);
	for (int i = 0; i < seats; i++) {
		int64_t *v = r->vals + (size_t)i * stride;
		/* AI seats have no player: the store records nothing for them. */
		r->seats[i].player_id = (int64_t)table_seat_player(t, i);
		if (k->stats)
			k->stats(st, i, ai, v);
		r->seats[i].stats = k->stats ? v : NULL;
		r->seats[i].achievements = k->achievements ? k->achievements(st, i, ai) : 0;
	}
	int64_t *whole = r->vals + (size_t)seats * stride;
	if (k->stats)
		k->stats(st, -1, ai, whole);
	if (shared_delta && k->n_shared > 0) {
		r->delta = xmalloc((size_t)k->n_shared * sizeof *r->delta);
		memcpy(r->delta, shared_delta, (size_t)k->n_shared * sizeof *r->delta);
	}
	r->g = (store_game){
		.kind = k,
		.config_json = r->config,
		.seed = table_seed(t),
		.seats_json = r->players,
		.shared_json = r->shared,
		.choices_json = r->log,
		.result_json = r->result,
		.started_at = started_at,
		.ended_at = ended_at,
		.n_seats = seats,
		.seats = r->seats,
		.server_stats = k->stats ? whole : NULL,
		.shared_delta = r->delta,
		.live_table_id = live_table_id,
	};
}

void record_free(record *r)
{
	free(r->config);
	free(r->players);
	free(r->shared);
	free(r->log);
	free(r->result);
	free(r->delta);
	free(r->vals);
	memset(r, 0, sizeof *r);
}
