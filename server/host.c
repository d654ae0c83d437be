/*
 * host.c — the app as the host of every table (table.h's table_host): the
 * table's updates to its players' connections, the kinds' shared state
 * in and its events folded back (shared.h), a game's start record before
 * it begins (live.h), each decision and each finished game written before
 * they are shown (durable.h), and lobby lists following the table.
 */
#include "host.h"

#include "lobby.h"
#include "durable.h"
#include "live.h"
#include "session.h"
#include "shared.h"

static app_table *find_for(app *a, const table *t) { return app_table_find(a, table_id(t)); }

static void host_send(void *ud, uint64_t player_id, const char *json, size_t len)
{
	player *p = player_find(ud, (int64_t)player_id);
	if (p && p->sess)
		app_send_text(p->sess, json, len);
}

static uint32_t host_caps(void *ud, uint64_t player_id)
{
	player *p = player_find(ud, (int64_t)player_id);
	return p && p->sess ? p->sess->caps : 0;
}

static const void *host_shared(void *ud, const game_kind *kind)
{
	return shared_state(ud, kind);
}

static void host_events(void *ud, table *t, const game_event *evs, size_t n, bool replaying)
{
	app *a = ud;
	/* A restored game's delta is rebuilt from its whole log (recovery.c):
	 * replayed events are in it already. */
	if (replaying)
		return;
	shared_fold(a, app_kind_index(table_get_settings(t)->kind), find_for(a, t), evs, n);
}

static void host_start(void *ud, table *t, uint64_t game)
{
	app *a = ud;
	app_table *at = find_for(a, t);
	if (at)
		live_start(a, at, game);
	else
		table_start_durable(t, game, true);
}

static void host_decision(void *ud, table *t, uint64_t n, const game_choice *choices, int seats)
{
	/* Not registered yet: table_restore posted a restored table's open
	 * decision and it resolved at once (only AI seats pending). Its live
	 * record exists: the set is written all the same; the reveal comes
	 * from the store's callback, by when the table is registered. */
	durable_decision(ud, find_for(ud, t), t, n, choices, seats);
}

/* At each start of a kind whose config has "first_run" (crawl, C15): the
 * seats whose human has never finished a game of it. AI seats never have a
 * first run; a player whose record the store has not read counts as no
 * first run. */
static cJSON *host_start_config(void *ud, table *t, const cJSON *config_full)
{
	app *a = ud;
	int ki = app_kind_index(table_get_settings(t)->kind);
	if (!cJSON_GetObjectItemCaseSensitive(config_full, "first_run") || ki < 0 || ki >= 32)
		return NULL;
	cJSON *c = cJSON_Duplicate(config_full, true);
	cJSON *seats = cJSON_CreateArray();
	for (int i = 0; i < table_get_settings(t)->seats; i++) {
		player *p = table_seat_kind_of(t, i) == SEAT_HUMAN
				    ? player_find(a, (int64_t)table_seat_player(t, i))
				    : NULL;
		if (p && p->kinds_loaded && !(p->kinds_finished >> ki & 1))
			cJSON_AddItemToArray(seats, cJSON_CreateNumber(i));
	}
	cJSON_ReplaceItemInObjectCaseSensitive(c, "first_run", seats);
	return c;
}

/* The game is over, its result held back until its record is durable. */
static void host_record(void *ud, table *t, uint64_t game)
{
	app *a = ud;
	app_table *at = find_for(a, t);
	if (at)
		durable_record(a, at, game);
	else
		table_finished_durable(t, game);
}

/* The result is out (after the record, see host_record). */
static void host_finished(void *ud, table *t)
{
	app *a = ud;
	app_table *at = find_for(a, t);
	a->games_finished++;
	if (at && at->kind_index >= 0)
		a->kind_finished[at->kind_index]++;
	if (at && table_humans(t) == 0 && table_spectators(t) == 0)
		app_table_close_later(a, at);
}

static void host_changed(void *ud, table *t)
{
	app *a = ud;
	app_table *at = find_for(a, t);
	if (!at)
		return;
	lobby_table_changed(a, at);
	/* A seat changed hands mid-game (takeover, a human leaving to the
	 * AI): the live record follows. */
	live_seats_changed(a, at);
}

table_host host_callbacks(app *a)
{
	return (table_host){
		.ud = a,
		.send = host_send,
		.caps = host_caps,
		.shared = host_shared,
		.events = host_events,
		.start = host_start,
		.decision = host_decision,
		.record = host_record,
		.finished = host_finished,
		.changed = host_changed,
		.start_config = host_start_config,
	};
}
