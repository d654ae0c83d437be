/*
 * fuzz_table.c — the round-engine fuzz target (fuzz.h): any bytes become a
 * sequence of table operations (server/table.h) by up to five players at one
 * table of a built-in kind — join, watch, leave, AI seats in and out, start,
 * rematch, drop and come back, choose (JSON or codes, any seat, any decision
 * number), selecting, the host making decisions, a game's start and its
 * record durable (late, twice, stale, or the store failing), resume,
 * snapshots — with the loop run now and then so that the
 * window, pacing and AI steps fire. Timers are real libuv timers with a zero
 * window and pacing; deadlines (long) never fire, so a run is deterministic.
 *
 * Byte layout: kind, seats, seed (8 bytes), flags (bit 0: the host makes
 * what it is asked to durable at once; bit 1: private table; bit 2: the
 * host persists a game's start, bit 3 its record, before they go out;
 * bit 4: the kind's small config, fuzz_small_config, so that a crawl game
 * can reach its end within an input), then operations of one opcode byte
 * and its argument bytes (see run_op). The fast-forwards of an input play
 * at most MAX_FORWARD decisions in all (a game of gems or deepfall).
 *
 * Invariants (table.h): return codes are table_err values; a refused
 * operation sends nothing and leaves the table as it was (every member's
 * snapshot, without the time left on deadlines); every message sent is a
 * JSON object of the table with a type, and the updates one player gets
 * carry increasing seq; accessors agree with each other; the game's log
 * replays (table_replay) to the game the table holds; table_free leaves no
 * handle open on the loop.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "../../common/util.h"
#include "../../server/games/game.h"
#include "../../server/table.h"

#define NPLAYERS 5 /* player ids 1..5 */
/* What a viewer is shown: 0..NPLAYERS the snapshot of a stranger and of
 * each player; STATE_VIEW the accessors and the lobby summary. */
#define STATE_VIEW (NPLAYERS + 1)
/* A player's snapshot is its seat's, or the spectator's when it has no
 * seat (table.h): what a viewer is shown is 0 (the spectator's), 1 + a
 * seat, or SHOWN_STATE, and viewers shown the same are looked at once. */
#define SHOWN_STATE (GAME_MAX_SEATS + 1)
#define MAX_OPS 150
#define MAX_FORWARD 64 /* decisions the fast-forwards of an input play */

typedef struct run {
	const game_kind *k;
	void *shared;
	table *t;
	uint64_t sent;                 /* messages sent so far */
	uint64_t last_seq[NPLAYERS + 1];
	uint64_t pending_n;            /* a decision waiting to be made durable */
	uint64_t start_game;           /* a game whose start waits to be durable */
	uint64_t record_game;          /* a game whose record waits to be durable */
	bool durable_now;
	bool in_callback;
	int finished;                  /* finished() calls */
	uint64_t version;              /* operations that went through */
	uint64_t replayed_at;          /* version at the last check_replay */
	int forwarded;                 /* decisions fast-forwarded so far */
	cJSON *seen[SHOWN_STATE + 1];  /* what is shown, at seen_at (see seen()) */
	uint64_t seen_at[SHOWN_STATE + 1];
	int shows[NPLAYERS + 2];       /* what each viewer was shown last */
} run;

static const char *const names[NPLAYERS + 1] = {"", "ann", "bob", "cy", "dee", "eve"};

/* ---- host callbacks ---- */

static void h_send(void *ud, uint64_t player, const char *json, size_t len)
{
	run *r = ud;
	r->sent++;
	FUZZ_CHECK(player >= 1 && player <= NPLAYERS, "sent to player %llu",
		   (unsigned long long)player);
	FUZZ_CHECK(strlen(json) == len, "send: length %zu, text %zu", len, strlen(json));
	cJSON *m = fuzz_scratch_parse(json, len);
	FUZZ_CHECK(m && cJSON_IsObject(m), "send: not a JSON object: %.200s", json);
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(m, "type");
	const cJSON *tid = cJSON_GetObjectItemCaseSensitive(m, "table");
	FUZZ_CHECK(cJSON_IsString(type) && cJSON_IsNumber(tid) && tid->valuedouble == 7,
		   "send: no type or table: %.200s", json);
	const cJSON *seq = cJSON_GetObjectItemCaseSensitive(m, "seq");
	/* Updates carry increasing seq per player (the snapshot repeats the
	 * current one). */
	if (cJSON_IsNumber(seq)) {
		uint64_t s = (uint64_t)seq->valuedouble;
		bool snap = strcmp(type->valuestring, "table") == 0;
		FUZZ_CHECK(snap ? s >= r->last_seq[player] : s > r->last_seq[player],
			   "player %llu: seq %llu after %llu (%s)", (unsigned long long)player,
			   (unsigned long long)s, (unsigned long long)r->last_seq[player],
			   type->valuestring);
		r->last_seq[player] = s;
	}
	fuzz_scratch_delete(m);
}

static const void *h_shared(void *ud, const game_kind *k)
{
	run *r = ud;
	return k == r->k ? r->shared : NULL;
}

static void h_events(void *ud, table *t, const game_event *evs, size_t n, bool replaying)
{
	run *r = ud;
	(void)t;
	FUZZ_CHECK(!replaying, "replaying events outside table_restore");
	if (r->shared && r->k->shared_fold)
		r->k->shared_fold(r->shared, evs, n);
}

static void h_decision(void *ud, table *t, uint64_t n, const game_choice *choices, int seats)
{
	run *r = ud;
	FUZZ_CHECK(seats == table_get_settings(t)->seats, "decision: %d seats", seats);
	FUZZ_CHECK(n == table_decision_no(t), "decision %llu, table at %llu",
		   (unsigned long long)n, (unsigned long long)table_decision_no(t));
	/* Every choice was checked: it is one of the options now. */
	const game_state *g = table_game(t);
	uint32_t p = r->k->pending(g);
	for (int i = 0; i < seats; i++) {
		if (!(p >> i & 1)) {
			FUZZ_CHECK(choices[i] == GAME_NO_CHOICE, "seat %d not asked chose %d", i,
				   choices[i]);
			continue;
		}
		game_choice o[4096];
		int k = r->k->options(g, i, o, 4096);
		bool found = false;
		for (int j = 0; j < k && j < 4096; j++)
			found = found || o[j] == choices[i];
		FUZZ_CHECK(found, "seat %d's resolved choice %d is not an option", i, choices[i]);
	}
	if (r->durable_now) {
		table_decision_durable(t, n);
		return;
	}
	r->pending_n = n;
}

static void h_start(void *ud, table *t, uint64_t game)
{
	run *r = ud;
	FUZZ_CHECK(table_get_state(t) == TABLE_WAITING, "start() in state %d",
		   table_get_state(t));
	if (r->durable_now)
		table_start_durable(t, game, true);
	else
		r->start_game = game;
}

static void h_record(void *ud, table *t, uint64_t game)
{
	run *r = ud;
	FUZZ_CHECK(table_get_state(t) == TABLE_PLAYING, "record() in state %d",
		   table_get_state(t));
	if (r->durable_now)
		table_finished_durable(t, game);
	else
		r->record_game = game;
}

static void h_finished(void *ud, table *t)
{
	run *r = ud;
	r->finished++;
	FUZZ_CHECK(table_get_state(t) == TABLE_FINISHED, "finished() in state %d",
		   table_get_state(t));
}

/* ---- observation ---- */

/* Members that depend on the clock, not on the table's state. */
static const char *const clock_keys[] = {"deadline", "closes_in_ms", NULL};

static cJSON *look(const run *r, int v)
{
	const table *t = r->t;
	if (v != STATE_VIEW)
		return table_snapshot_json(t, (uint64_t)v);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "state", table_get_state(t));
	cJSON_AddNumberToObject(o, "seq", (double)table_seq(t));
	cJSON_AddNumberToObject(o, "decision", (double)table_decision_no(t));
	cJSON_AddNumberToObject(o, "host", (double)table_host_player(t));
	cJSON_AddNumberToObject(o, "humans", table_humans(t));
	cJSON_AddNumberToObject(o, "spectators", table_spectators(t));
	cJSON_AddNumberToObject(o, "ai", table_ai_mask(t));
	cJSON_AddItemToObject(o, "summary", table_summary_json(t));
	return o;
}

static int shown(const run *r, int v)
{
	return v == STATE_VIEW ? SHOWN_STATE : 1 + table_seat_of(r->t, (uint64_t)v);
}

/* Viewer v's view of the table as it is now, from the cache when no
 * operation has gone through since it was taken (a refused one changes
 * nothing: that is checked), or when a viewer shown the same has been
 * looked at. Each view taken is checked to be a tree JSON text can carry;
 * what the table sends is parsed from its text (h_send), and check_replay
 * prints and reads back. */
static const cJSON *seen(run *r, int v)
{
	int what = r->shows[v] = shown(r, v);
	if (r->seen_at[what] != r->version) {
		cJSON_Delete(r->seen[what]);
		r->seen[what] = look(r, v);
		fuzz_json_check(r->seen[what], v == STATE_VIEW ? "summary" : "snapshot");
		r->seen_at[what] = r->version;
	}
	return r->seen[what];
}

/* The viewers an operation is checked against: every member now and then;
 * else the acting player and a stranger (snapshots are the costly part). */
static bool watched(int v, uint64_t only)
{
	return !only || v == 0 || (uint64_t)v == only || v == STATE_VIEW;
}

/* Accessors agree with each other. */
static void check_accessors(const run *r)
{
	const table *t = r->t;
	const table_settings *s = table_get_settings(t);
	int humans = 0;
	uint32_t ai = 0;
	for (int i = 0; i < s->seats; i++) {
		enum table_seat_kind k = table_seat_kind_of(t, i);
		uint64_t p = table_seat_player(t, i);
		if (k == SEAT_HUMAN) {
			humans++;
			FUZZ_CHECK(p >= 1 && p <= NPLAYERS && table_seat_of(t, p) == i,
				   "seat %d: player %llu", i, (unsigned long long)p);
			FUZZ_CHECK(!table_is_spectator(t, p), "player %llu seated and watching",
				   (unsigned long long)p);
		} else {
			FUZZ_CHECK(p == 0, "seat %d of kind %d has player %llu", i, k,
				   (unsigned long long)p);
		}
		if (k == SEAT_AI)
			ai |= 1u << i;
	}
	FUZZ_CHECK(humans == table_humans(t), "humans %d vs %d", humans, table_humans(t));
	FUZZ_CHECK(ai == table_ai_mask(t), "ai mask %#x vs %#x", ai, table_ai_mask(t));
	uint64_t members[NPLAYERS * 2 + 4];
	int n = table_members(t, members, (int)ARRAY_LEN(members));
	FUZZ_CHECK(n == humans + table_spectators(t), "members %d", n);
	if (table_get_state(t) == TABLE_PLAYING)
		FUZZ_CHECK(table_game(t) && !r->k->is_over(table_game(t)), "playing, game over");
}

/* The log replays to the game the table holds. Once per state of the
 * table: a refused operation changes nothing (that is checked), so a
 * second replay of the same state would repeat the first. */
static void check_replay(run *r)
{
	const table *t = r->t;
	const game_state *g = table_game(t);
	if (!g || r->replayed_at == r->version)
		return;
	r->replayed_at = r->version;
	size_t n = 0;
	const game_choice *log = table_log(t, &n);
	cJSON *rec = table_record_json(t);
	free(fuzz_json_text(rec, "record"));
	const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(rec, "config");
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(rec, "shared");
	char err[256] = "";
	int seats = table_get_settings(t)->seats;
	game_state *st = table_replay(r->k, cfg, seats, table_seed(t),
				      cJSON_IsNull(sh) ? NULL : sh, log, n, NULL, err, sizeof err);
	FUZZ_CHECK(st, "replay of the table's log (%zu) failed: %s", n, err);
	for (int v = -1; v < seats; v++) {
		cJSON *a = r->k->view(g, v), *b = r->k->view(st, v);
		fuzz_json_check(a, "view"); /* its text: h_send parses what is sent */
		char what[64];
		snprintf(what, sizeof what, "viewer %d's view replayed from the log", v);
		fuzz_json_same(a, b, NULL, what);
		cJSON_Delete(a);
		cJSON_Delete(b);
	}
	r->k->destroy(st);
	cJSON_Delete(rec);
}

/* ---- operations ---- */

static cJSON *some_choice(const run *r, fuzz_in *in, int seat)
{
	const game_state *g = table_game(r->t);
	uint8_t how = fuzz_u8(in);
	if (g && seat >= 0 && seat < table_get_settings(r->t)->seats && how < 0xC0) {
		game_choice o[4096];
		int n = r->k->options(g, seat, o, 4096);
		if (n > 0)
			return r->k->choice_json(g, seat, o[fuzz_u8(in) % (n < 4096 ? n : 4096)]);
	}
	static const char *const junk[] = {"stay", "leave", "bank4", "{\"target\":1}",
					   "{\"target\":99,\"press\":0}", "null", "[1]", "3"};
	const char *j = junk[how % ARRAY_LEN(junk)];
	cJSON *v = j[0] == '{' || j[0] == '[' || j[0] == 'n' || j[0] == '3' ? cJSON_Parse(j)
									    : cJSON_CreateString(j);
	return v;
}

/* Up to `rounds` decisions (within the input's MAX_FORWARD) where every
 * seated human picks an option (the k-th, rotating), the host makes each
 * durable and the loop runs: games reach their end (results, rematches)
 * within a short input. */
static void fast_forward(run *r, uv_loop_t *loop, uint8_t rounds)
{
	table *t = r->t;
	char err[256];
	if (r->start_game) {
		uint64_t game = r->start_game;
		r->start_game = 0;
		table_start_durable(t, game, true);
	}
	for (int i = 0; i < rounds && r->forwarded < MAX_FORWARD &&
			table_get_state(t) == TABLE_PLAYING;
	     i++, r->forwarded++) {
		const game_state *g = table_game(t);
		uint32_t p = r->k->pending(g);
		for (int s = 0; s < table_get_settings(t)->seats; s++) {
			uint64_t pl = table_seat_player(t, s);
			if (!pl || !(p >> s & 1))
				continue;
			game_choice o[4096];
			int n = r->k->options(g, s, o, 4096);
			if (n <= 0)
				continue;
			int rc = table_choose_code(t, pl, s, 0, o[(i + s) % (n < 4096 ? n : 4096)], err,
						   sizeof err);
			/* Already chosen inside the window, or the decision moved on. */
			FUZZ_CHECK(rc == TABLE_OK || rc == TABLE_ERR_NOT_PENDING ||
				   rc == TABLE_ERR_WRONG_PHASE, "fast forward: %s (%s)",
				   table_err_code(rc), err);
		}
		uv_run(loop, UV_RUN_NOWAIT);
		if (r->pending_n) {
			uint64_t n = r->pending_n;
			r->pending_n = 0;
			table_decision_durable(t, n);
		}
		if (r->record_game) {
			uint64_t game = r->record_game;
			r->record_game = 0;
			table_finished_durable(t, game);
		}
		uv_run(loop, UV_RUN_NOWAIT);
	}
}

/* The host makes something durable, or the store fails: by `which`, the
 * decision waiting (or a stale or future one), the start of a game (or its
 * failure), the record of a game, a stale record or start. */
static void durable(run *r, uint8_t which)
{
	table *t = r->t;
	uint64_t n;
	switch (which >> 5) {
	case 0:
	case 1:
	case 2:
		n = r->pending_n;
		r->pending_n = 0;
		if (n)
			table_decision_durable(t, n);
		break;
	case 3:
		table_decision_durable(t, table_decision_no(t) + which % 3 - 1);
		break;
	case 4:
	case 5:
		n = r->start_game;
		r->start_game = 0;
		if (n)
			table_start_durable(t, n, which >> 5 == 4);
		break;
	case 6:
		n = r->record_game;
		r->record_game = 0;
		if (n)
			table_finished_durable(t, n);
		break;
	default:
		if (which & 1)
			table_store_failed(t);
		else if (which & 2)
			table_start_durable(t, which % 5, which & 4);
		else
			table_finished_durable(t, which % 5);
		break;
	}
}

/* Whether run_op can refuse operation op: the others (the host's, the
 * loop's, checks, fast-forwards, resume, connection changes) return
 * TABLE_OK, so there is no refusal to compare a snapshot with. */
static bool refusable(uint8_t op)
{
	return op % 16 <= 10 && op % 16 != 7;
}

/* One operation; returns its table_err (or TABLE_OK for those without). */
static int run_op(run *r, fuzz_in *in, uv_loop_t *loop)
{
	table *t = r->t;
	uint8_t op = fuzz_u8(in);
	uint64_t p = 1 + fuzz_u8(in) % NPLAYERS;
	int seats = table_get_settings(t)->seats;
	int seat = (int)(fuzz_u8(in) % (seats + 2)) - 1; /* -1 .. seats */
	char err[256] = "";
	int out = -7;
	switch (op % 16) {
	case 0:
		return table_join(t, p, names[p], seat, (op & 0x10) ? "pw" : NULL, &out, TABLE_NOTIFY_ALL);
	case 1:
		return table_spectate(t, p, names[p], (op & 0x10) ? "pw" : "nope", TABLE_NOTIFY_ALL);
	case 2:
		return table_leave(t, p);
	case 3:
		return table_add_ai(t, p, seat, &out, TABLE_NOTIFY_ALL);
	case 4:
		return table_remove_ai(t, p, seat);
	case 5:
		return table_start(t, p);
	case 6:
		return table_rematch(t, p);
	case 7:
		table_set_connected(t, p, op & 0x10);
		return TABLE_OK;
	case 8:
	case 9: {
		uint64_t d = table_decision_no(t);
		uint8_t db = fuzz_u8(in);
		uint64_t dec = db < 0x80 ? 0 : db < 0xC0 ? d : db < 0xE0 ? d + 1 : d - 1;
		if (op % 16 == 8) {
			cJSON *c = some_choice(r, in, seat < 0 ? table_seat_of(t, p) : seat);
			int rc = table_choose(t, p, seat, dec, c, err, sizeof err);
			cJSON_Delete(c);
			return rc;
		}
		return table_choose_code(t, p, seat, dec, (int8_t)fuzz_u8(in), err, sizeof err);
	}
	case 10:
		return table_selecting(t, p);
	case 11:
		durable(r, fuzz_u8(in));
		return TABLE_OK;
	case 12: {
		bool snap = false;
		uint64_t since = fuzz_u8(in) < 0x80 ? r->last_seq[p] : fuzz_u16(in);
		/* A player resuming from an older seq than it got is sent the
		 * updates after that one again, in order (table.h). */
		if (since < r->last_seq[p])
			r->last_seq[p] = since;
		int rc = table_resume(t, p, since, &snap);
		FUZZ_CHECK(rc == TABLE_OK || rc == TABLE_ERR_NOT_SEATED, "resume: %d", rc);
		FUZZ_CHECK(rc != TABLE_OK || table_has_member(t, p), "resume for a non-member");
		return TABLE_OK;
	}
	case 13:
		check_replay(r);
		return TABLE_OK;
	case 14:
		uv_run(loop, UV_RUN_NOWAIT);
		return TABLE_OK;
	default:
		fast_forward(r, loop, fuzz_u8(in));
		return TABLE_OK;
	}
}

int fuzz_table_one(const uint8_t *data, size_t size)
{
	fuzz_in in = {data, size};
	int nk = game_kind_count();
	if (nk <= 0)
		return 0;
	run r = {.k = game_kind_at(fuzz_u8(&in) % nk)};
	uint8_t sb = fuzz_u8(&in);
	int seats = r.k->min_seats + sb % (r.k->max_seats - r.k->min_seats + 1);
	uint64_t seed = fuzz_u64(&in);
	uint8_t flags = fuzz_u8(&in);
	r.durable_now = flags & 1;
	char err[256] = "";
	if (r.k->shared_new)
		r.shared = r.k->shared_new(NULL, err, sizeof err);

	uv_loop_t loop;
	FUZZ_CHECK(uv_loop_init(&loop) == 0, "uv_loop_init");
	table_host host = {
		.ud = &r,
		.send = h_send,
		.shared = h_shared,
		.events = h_events,
		.decision = h_decision,
		.finished = h_finished,
	};
	if (flags & 4)
		host.start = h_start;
	if (flags & 8)
		host.record = h_record;
	cJSON *small = (flags & 0x10) ? fuzz_small_config(r.k) : NULL;
	table_settings s = {
		.config = small,
		.id = 7,
		.lobby = 1,
		.kind = r.k,
		.seats = seats,
		.host = 1,
		.turn_timeout_ms = 600000, /* never fires within a run */
		.window_ms = 0,
		.pacing_ms = 0,
		.reveal_pause_ms = 0,
		.fixed_seed = true,
		.seed = seed,
		.private_table = flags & 2,
	};
	snprintf(s.name, sizeof s.name, "fuzz");
	snprintf(s.host_name, sizeof s.host_name, "ann");
	if (s.private_table)
		snprintf(s.password, sizeof s.password, "pw");
	for (int v = 0; v <= SHOWN_STATE; v++)
		r.seen_at[v] = UINT64_MAX; /* none yet */
	r.replayed_at = UINT64_MAX;
	r.t = table_new(&loop, &host, &s, err, sizeof err);
	FUZZ_CHECK(r.t, "table_new: %s", err);
	cJSON_Delete(small); /* the table keeps its own copy */
	uint64_t seq = table_seq(r.t);

	for (int i = 0; i < MAX_OPS && fuzz_left(&in); i++) {
		/* Before an operation that can be refused: every member's view
		 * now and then, else the acting player's and a stranger's. */
		uint8_t op = in.p[0];
		uint64_t actor = in.n >= 2 ? 1 + in.p[1] % NPLAYERS : 0;
		bool looks_only = op % 16 == 13; /* check_replay */
		uint64_t only = i % 8 == 0 ? 0 : actor;
		for (int v = 0; v <= STATE_VIEW && refusable(op); v++)
			if (watched(v, only))
				seen(&r, v);
		uint64_t sent = r.sent;
		int rc = run_op(&r, &in, &loop);
		FUZZ_CHECK(rc >= TABLE_OK && rc <= TABLE_ERR_INTERNAL, "code %d", rc);
		FUZZ_CHECK(table_err_code(rc), "no protocol code for %d", rc);
		if (rc != TABLE_OK) {
			FUZZ_CHECK(r.sent == sent, "a refused operation (%s) sent %llu messages",
				   table_err_code(rc), (unsigned long long)(r.sent - sent));
			char what[96];
			bool done[SHOWN_STATE + 1] = {0};
			for (int v = 0; v <= STATE_VIEW; v++) {
				if (!watched(v, only))
					continue;
				int was = r.shows[v], is = shown(&r, v);
				FUZZ_CHECK(is == was, "viewer %d is shown %d, not %d, after a refused "
					   "operation (%s)", v, is, was, table_err_code(rc));
				if (done[is])
					continue;
				done[is] = true;
				cJSON *now = look(&r, v);
				snprintf(what, sizeof what, "viewer %d's snapshot after a refused "
					 "operation (%s)", v, table_err_code(rc));
				fuzz_json_same(r.seen[is], now, clock_keys, what);
				cJSON_Delete(now);
			}
		} else if (!looks_only) {
			r.version++;
		}
		FUZZ_CHECK(table_seq(r.t) >= seq, "seq went back");
		seq = table_seq(r.t);
		check_accessors(&r);
	}
	check_replay(&r);
	table_free(r.t);
	/* Every handle closes: the loop must end and close cleanly. */
	uv_run(&loop, UV_RUN_DEFAULT);
	FUZZ_CHECK(uv_loop_close(&loop) == 0, "a handle was left open on the loop");
	if (r.shared)
		r.k->shared_free(r.shared);
	for (int v = 0; v <= SHOWN_STATE; v++)
		cJSON_Delete(r.seen[v]);
	return 0;
}

FUZZ_ENTRY(fuzz_table_one)
