/*
 * play.c — the play scenario (scenario.h): five bots to a gems table, real
 * windows and deadlines, and the time from a window's close to the last of
 * its five seats reading the reveal.
 *
 * The five bots of a table live in this process, so one table record
 * gathers their five reads of each reveal: the decision's figure is the
 * slowest seat's (the reveal's t_close_us and the read stamp are both
 * CLOCK_MONOTONIC on this host).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../../../common/rng.h"
#include "../../../common/util.h"
#include "http.h"
#include "jscan.h"
#include "laird.h"
#include "ramp.h"
#include "scenario.h"
#include "ws.h"

#define SEATS 5
#define MAX_OPTS 16

typedef struct play_table play_table;

typedef struct play_bot {
	lg_ws ws;
	uv_timer_t timer; /* think, then the change of mind */
	play_table *t;
	rng r;
	uint32_t idx;
	uint8_t seat, started, welcomed, closed;
	uint8_t asked;   /* has options for decision dec, not yet revealed */
	uint8_t chose;   /* sent its choice */
	uint8_t change;  /* will change its mind inside the window */
	uint8_t nopts, picked;
	int64_t dec;
	char opts[MAX_OPTS][12];
} play_bot;

struct play_table {
	int64_t id; /* 0 until created */
	play_bot *b[SEATS];
	int joined;
	bool started;
	int64_t rv_dec; /* the decision whose reveal is arriving (0: none) */
	int rv_got;
	uint64_t rv_max_us;
};

/* What the seats received while measuring, by message type: where the
 * frames and bytes of a decision go. */
static const char *const msg_types[] = {"options", "status", "window", "reveal", "ok",
					"result", "other"};
#define N_TYPES (sizeof msg_types / sizeof msg_types[0])

typedef struct play_run {
	lg_ctx *ctx;
	const lg_play_opts *o;
	play_bot *bots;
	play_table *tables;
	size_t n_tables, next_table, welcomed, timers_open, tables_started;
	bool measuring;
	lg_ramp ramp;
	lg_lat lat;
	uint64_t reveals_done, reveals_incomplete, games, changes, late_changes, choices;
	uint64_t type_msgs[N_TYPES], type_bytes[N_TYPES];
} play_run;

static play_run R;

static void start_more(void);

static void sendf(play_bot *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sendf(play_bot *b, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof msg)
		lg_ws_send(&b->ws, msg, (size_t)n);
}

static void join(play_bot *b)
{
	sendf(b, "{\"type\":\"table_join\",\"id\":\"j\",\"table\":%lld,\"seat\":%d}",
	      (long long)b->t->id, b->seat);
}

static void host_start(play_bot *b)
{
	sendf(b, "{\"type\":\"table_start\",\"id\":\"s\",\"table\":%lld}", (long long)b->t->id);
}

static void choose(play_bot *b, int opt, const char *id)
{
	b->picked = (uint8_t)opt;
	sendf(b, "{\"type\":\"choose\",\"id\":\"%s\",\"table\":%lld,\"decision\":%lld,\"choice\":\"%s\"}",
	      id, (long long)b->t->id, (long long)b->dec, b->opts[opt]);
}

/* The think time is over: leave with probability leave_p when it may (or
 * must), else any other option. */
static void on_think(uv_timer_t *t)
{
	play_bot *b = t->data;
	if (!b->asked || b->chose)
		return;
	int leave = -1;
	for (int i = 0; i < b->nopts; i++)
		if (!strcmp(b->opts[i], "leave"))
			leave = i;
	int pick;
	int others = b->nopts - (leave >= 0);
	if (leave >= 0 && (others == 0 || rng_unit(&b->r) < R.o->leave_p)) {
		pick = leave;
	} else {
		int k = (int)rng_below(&b->r, (uint32_t)others);
		pick = 0;
		for (int i = 0; i < b->nopts; i++)
			if (i != leave && k-- == 0) {
				pick = i;
				break;
			}
	}
	b->chose = 1;
	b->change = b->nopts > 1 && rng_unit(&b->r) < R.o->change_p;
	R.choices++;
	choose(b, pick, "k");
}

/* Inside the window: another option than the one chosen. */
static void on_change(uv_timer_t *t)
{
	play_bot *b = t->data;
	if (!b->asked || !b->change)
		return;
	b->change = 0;
	int k = (int)rng_below(&b->r, (uint32_t)(b->nopts - 1));
	int pick = k >= b->picked ? k + 1 : k;
	R.changes++;
	choose(b, pick, "m");
}

static void on_options(play_bot *b, lg_jspan *f)
{
	int64_t dec, seat;
	if (!lg_jint(f[1], &dec) || !lg_jint(f[3], &seat) || seat != b->seat || !f[4].p)
		return; /* not asked (the broadcast rendering has no seat) */
	b->dec = dec;
	b->nopts = 0;
	size_t pos = 0;
	lg_jspan e;
	static const char *const idk[] = {"id"};
	while (b->nopts < MAX_OPTS && lg_jarray_next(f[4], &pos, &e)) {
		lg_jspan id;
		if (lg_jscan(e.p, e.n, idk, 1, &id) && lg_jstr(id, b->opts[b->nopts], sizeof b->opts[0]))
			b->nopts++;
	}
	if (!b->nopts)
		return;
	b->asked = 1;
	b->chose = b->change = 0;
	int span = R.o->think_max_ms - R.o->think_min_ms;
	uint64_t think = (uint64_t)R.o->think_min_ms +
			 (span > 0 ? rng_below(&b->r, (uint32_t)span + 1) : 0);
	uv_timer_start(&b->timer, on_think, think, 0);
}

static void on_window(play_bot *b, lg_jspan *f)
{
	int64_t dec;
	if (!b->asked || !b->change || !lg_jint(f[1], &dec) || dec != b->dec)
		return;
	uint32_t first = (uint32_t)(R.o->window_ms * 6 / 10);
	uv_timer_start(&b->timer, on_change, 1 + rng_below(&b->r, first ? first : 1), 0);
}

static void on_reveal(play_bot *b, lg_jspan *f, uint64_t stamp)
{
	int64_t dec, close_us;
	b->asked = 0;
	uv_timer_stop(&b->timer);
	if (!lg_jint(f[1], &dec) || !lg_jint(f[5], &close_us))
		return;
	play_table *t = b->t;
	uint64_t us = stamp / 1000, lat = us > (uint64_t)close_us ? us - (uint64_t)close_us : 0;
	if (t->rv_dec != dec) {
		if (t->rv_dec && R.measuring)
			R.reveals_incomplete++; /* a seat never read the last one */
		t->rv_dec = dec;
		t->rv_got = 0;
		t->rv_max_us = 0;
	}
	t->rv_got++;
	if (lat > t->rv_max_us)
		t->rv_max_us = lat;
	if (t->rv_got == SEATS) {
		if (R.measuring) {
			lg_lat_add(&R.lat, t->rv_max_us);
			R.reveals_done++;
		}
		t->rv_dec = 0;
	}
}

static void on_table(play_bot *b, lg_jspan *f)
{
	char id[8];
	if (!lg_jstr(f[6], id, sizeof id))
		return; /* a snapshot sent unasked */
	play_table *t = b->t;
	if (!strcmp(id, "c") && b->seat == 0) {
		if (!lg_jint(f[2], &t->id))
			return;
		for (int s = 1; s < SEATS; s++)
			if (t->b[s]->welcomed)
				join(t->b[s]);
	} else if (!strcmp(id, "j") && ++t->joined == SEATS - 1) {
		host_start(t->b[0]);
	}
}

static void bot_message(lg_ws *ws, const char *text, size_t len, uint64_t stamp)
{
	play_bot *b = ws->data;
	static const char *const keys[] = {"type", "decision", "table", "seat", "options",
					   "t_close_us", "id", "code"};
	lg_jspan f[8];
	char type[24];
	lg_jscan(text, len, keys, 8, f);
	if (!lg_jstr(f[0], type, sizeof type))
		return;
	if (R.measuring) {
		size_t k = 0;
		while (k < N_TYPES - 1 && strcmp(type, msg_types[k]))
			k++;
		R.type_msgs[k]++;
		R.type_bytes[k] += len;
	}
	switch (type[0]) {
	case 'r':
		if (!strcmp(type, "reveal"))
			on_reveal(b, f, stamp);
		else if (!strcmp(type, "result") && b->seat == 0) {
			R.games++;
			if (!R.ramp.ending) {
				sendf(b, "{\"type\":\"rematch\",\"id\":\"r\",\"table\":%lld}",
				      (long long)b->t->id);
				host_start(b);
			}
		}
		return;
	case 'o':
		if (!strcmp(type, "options")) {
			if (b->seat == 0 && !b->t->started) {
				b->t->started = true;
				R.tables_started++;
			}
			on_options(b, f);
		}
		return;
	case 'w':
		if (!strcmp(type, "window"))
			on_window(b, f);
		else if (!strcmp(type, "welcome") && !b->welcomed) {
			b->welcomed = 1;
			R.welcomed++;
			R.ramp.in_flight--;
			if (b->seat == 0)
				sendf(b, "{\"type\":\"table_create\",\"id\":\"c\",\"kind\":\"gems\","
					 "\"seats\":%d,\"name\":\"load %u\"}",
				      SEATS, b->idx / SEATS);
			else if (b->t->id)
				join(b);
			start_more();
		}
		return;
	case 't':
		if (!strcmp(type, "table"))
			on_table(b, f);
		return;
	case 'e':
		if (!strcmp(type, "error")) {
			char code[40], id[8], what[56];
			if (!lg_jstr(f[7], code, sizeof code))
				strcpy(code, "?");
			if (!lg_jstr(f[6], id, sizeof id))
				strcpy(id, "?");
			/* A change of mind the window's close overtook is a race the
			 * protocol allows, not an error. */
			if (!strcmp(id, "m") && (!strcmp(code, "wrong_phase") ||
						 !strcmp(code, "not_pending"))) {
				R.late_changes++;
				return;
			}
			snprintf(what, sizeof what, "%s:%s", id, code);
			lg_tally_add(&R.ramp.errors, what);
		}
		return;
	case 'p':
		if (!strcmp(type, "paused"))
			lg_tally_add(&R.ramp.errors, "paused");
		return;
	case 's':
		if (!strcmp(type, "start_failed"))
			lg_tally_add(&R.ramp.errors, "start_failed");
		return;
	case 'b':
		if (!strcmp(type, "bye"))
			lg_tally_add(&R.ramp.errors, "bye");
		return;
	default:
		return;
	}
}

static void bot_open(lg_ws *ws)
{
	play_bot *b = ws->data;
	/* What our clients ask (view_patch: the reveals carry what changed in
	 * the view, and the bots read no view, so there is nothing to apply;
	 * lean), and timing: the reveals keep t_close_us, which we measure by. */
	sendf(b, "{\"type\":\"hello\",\"id\":1,\"protocol\":1,\"name\":\"p%sx%u\",\"caps\":%s}",
	      R.ctx->tag, b->idx,
	      R.o->full_views ? "[\"timing\"]" : "[\"view_patch\",\"lean\",\"timing\"]");
}

static void bot_closed(lg_ws *ws, int code, const char *why)
{
	play_bot *b = ws->data;
	b->closed = 1;
	uv_timer_stop(&b->timer);
	if (lg_ramp_closed(&R.ramp, code, why, b->welcomed))
		start_more();
}

static const lg_ws_handlers handlers = {bot_open, bot_message, NULL, bot_closed};

/* Opens the next tables' five connections while few are in flight. */
static void start_more(void)
{
	while (!R.ramp.ending && R.next_table < R.n_tables &&
	       R.ramp.in_flight + SEATS <= (size_t)R.o->in_flight) {
		play_table *t = &R.tables[R.next_table++];
		for (int s = 0; s < SEATS; s++) {
			play_bot *b = t->b[s];
			b->started = 1;
			if (!lg_ramp_connect(&R.ramp, R.ctx, &b->ws, b->idx, &handlers, b))
				b->closed = 1;
		}
	}
}

static bool all_started(void *ud)
{
	(void)ud;
	return R.tables_started == R.n_tables || (R.next_table == R.n_tables && !R.ramp.in_flight &&
						  R.ramp.closed_early);
}

static bool all_closed(void *ud)
{
	(void)ud;
	size_t started = 0;
	for (size_t i = 0; i < R.n_tables * SEATS; i++)
		started += R.bots[i].started;
	return R.ramp.closed == started && R.timers_open == 0;
}

static void on_timer_closed(uv_handle_t *h)
{
	(void)h;
	R.timers_open--;
}

static uint64_t self_cpu_ns(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

/* Where window close -> every seat has the reveal goes, as laird's
 * histograms time it (server/durable.c, server/store.c): the parts, in
 * order, then the whole laird sees. The timer's lateness comes before the
 * close is stamped, so it is outside every other figure. */
static const struct stage {
	const char *metric, *what, *figure;
} stages[] = {
	{"lair_window_close_late_seconds", "window timer ran late (not in the figures)",
	 "play_close_late"},
	{"lair_store_queued_seconds", "store: submitted -> its batch starts", "store_queued"},
	{"lair_store_batch_seconds", "store: batch starts -> committed", "store_batch"},
	{"lair_store_deliver_seconds", "store: committed -> handled on the loop",
	 "store_deliver"},
	{"lair_decision_reveal_send_seconds", "reveal rendered and written to 5 seats",
	 "play_reveal_send"},
	/* its figures are play_reveal_sent_{mean,p99}_ms (report) */
	{"lair_decision_reveal_seconds", "= window close -> reveal sent (laird)", NULL},
};
#define N_STAGES (sizeof stages / sizeof stages[0])

typedef struct sample {
	uint64_t rx_bytes, rx_frames, rx_msgs, rx_payload, wall, laird_cpu, laird_wait, self_cpu;
	uint64_t store_wait, self_wait;
	double decisions, durable_slow, batches;
	lg_hist stage[N_STAGES];
	lg_hist store;  /* laird's store: submit -> transaction committed */
	bool metrics_ok;
} sample;

static void take_sample(sample *s)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < R.n_tables * SEATS; i++) {
		lg_ws *w = &R.bots[i].ws;
		s->rx_bytes += w->rx_bytes;
		s->rx_frames += w->rx_frames;
		s->rx_msgs += w->rx_msgs;
		s->rx_payload += w->rx_payload;
	}
	s->wall = now_ns();
	s->laird_cpu = lg_proc_cpu_ns(R.ctx->pid);
	s->laird_wait = lg_proc_wait_ns(R.ctx->pid);
	s->store_wait = lg_task_wait_ns(R.ctx->pid, "lair-store");
	s->self_wait = lg_task_wait_ns(0, NULL);
	s->self_cpu = self_cpu_ns();
	buf m = {0};
	if (lg_http_get(R.ctx, "/metrics", 10, &m) == 0) {
		s->decisions = lg_metric(m.data, "lair_decisions_resolved_total");
		s->durable_slow = lg_metric(m.data, "lair_decision_durable_slow_total");
		s->batches = lg_metric(m.data, "lair_store_write_batches_total");
		s->metrics_ok = !isnan(s->decisions) &&
				lg_histogram(m.data, "lair_store_durable_seconds", &s->store);
		for (size_t i = 0; i < N_STAGES; i++)
			s->metrics_ok = lg_histogram(m.data, stages[i].metric, &s->stage[i]) &&
					s->metrics_ok;
	}
	buf_free(&m);
}

/* Where the time goes: each part's mean, p50 and p99 (laird's histograms,
 * interpolated within their buckets), then the generator's own share (its
 * reads against laird's sends) and who waited for a CPU. */
static void print_stages(const sample *a, const sample *b, double secs, double p50, double p99)
{
	printf("play: window close -> reveal, by part (mean / p50 / p99 ms, laird's histograms):\n");
	double sent50 = NAN, sent99 = NAN;
	for (size_t i = 0; i < N_STAGES; i++) {
		const lg_hist *x = &a->stage[i], *y = &b->stage[i];
		double n = y->count - x->count;
		double mean = n > 0 ? (y->sum - x->sum) / n * 1000 : NAN;
		double q50 = lg_hist_quantile(x, y, 0.5) * 1000, q99 = lg_hist_quantile(x, y, 0.99) * 1000;
		printf("play:   %-44s %7.2f %7.2f %7.2f  (%.0f)\n", stages[i].what, mean, q50, q99, n);
		char key[64];
		if (stages[i].figure) {
			snprintf(key, sizeof key, "%s_mean_ms", stages[i].figure);
			lg_figure(key, mean, "ms");
			snprintf(key, sizeof key, "%s_p99_ms", stages[i].figure);
			lg_figure(key, q99, "ms");
		}
		sent50 = q50;
		sent99 = q99;
	}
	/* The generator's figure against laird's, quantile by quantile: an
	 * estimate (laird's are interpolated within 2x-wide buckets). */
	printf("play:   %-44s %7s %7.2f %7.2f  (estimate)\n", "+ the generator reads it at all 5 seats",
	       "", p50 - sent50, p99 - sent99);
	double batches = b->batches - a->batches, writes = b->store.count - a->store.count;
	double store_wait = (double)(b->store_wait - a->store_wait) / 1e9 / secs * 100;
	double self_wait = (double)(b->self_wait - a->self_wait) / 1e9 / secs * 100;
	printf("play: store: %.1f writes a batch (%.0f batches); waited for a CPU: laird's store "
	       "thread %.1f%%, the generator %.1f%% of the time\n",
	       batches > 0 ? writes / batches : NAN, batches, store_wait, self_wait);
	lg_figure("store_writes_per_batch", batches > 0 ? writes / batches : NAN, "writes");
	lg_figure("store_thread_cpu_wait_percent", store_wait, "%");
	lg_figure("loadgen_cpu_wait_percent", self_wait, "%");
}

/* The figures of the measured interval a..b. */
static void report(const sample *a, const sample *b, long rss_peak_kb, double lag_max_ms,
		   double durable_max_ms, size_t held)
{
	double secs = (double)(b->wall - a->wall) / 1e9;
	double dec = b->decisions - a->decisions;
	double laird = (double)(b->laird_cpu - a->laird_cpu) / 1e9 / secs * 100;
	double self = (double)(b->self_cpu - a->self_cpu) / 1e9 / secs * 100;
	const lg_hist *ra = &a->stage[N_STAGES - 1], *rb = &b->stage[N_STAGES - 1];
	double dn = rb->count - ra->count;
	double reveal_mean = dn > 0 ? (rb->sum - ra->sum) / dn * 1000 : NAN;
	double reveal_p99 = lg_hist_quantile(ra, rb, 0.99) * 1000;
	double sn = b->store.count - a->store.count;
	double store_mean = sn > 0 ? (b->store.sum - a->store.sum) / sn * 1000 : NAN;
	double store_p99 = lg_hist_quantile(&a->store, &b->store, 0.99) * 1000;
	double p50 = lg_lat_ms(&R.lat, 0.5), p99 = lg_lat_ms(&R.lat, 0.99),
	       mx = lg_lat_ms(&R.lat, 1.0);
	char errs[512];
	lg_tally_str(&R.ramp.errors, errs, sizeof errs);
	printf("play: over %.1f s: %zu connections held at %zu tables\n", secs, held, R.n_tables);
	printf("play: %.1f decisions/s resolved by the server (%.0f), %llu reveals read by all "
	       "five seats, %llu not, %llu games finished\n",
	       dec / secs, dec, (unsigned long long)R.reveals_done,
	       (unsigned long long)R.reveals_incomplete, (unsigned long long)R.games);
	printf("play: window close -> every seat has the reveal: p50 %.2f ms, p99 %.2f ms, max "
	       "%.2f ms\n",
	       p50, p99, mx);
	printf("play: received per decision (all seats): %.0f bytes of JSON, %.0f on the wire, "
	       "%.2f frames\n",
	       (double)(b->rx_payload - a->rx_payload) / dec, (double)(b->rx_bytes - a->rx_bytes) / dec,
	       (double)(b->rx_frames - a->rx_frames) / dec);
	double laird_ms = (double)(b->laird_cpu - a->laird_cpu) / 1e6 / dec;
	double wait = (double)(b->laird_wait - a->laird_wait) / 1e9 / secs * 100;
	printf("play: per decision, by type (messages, bytes):");
	for (size_t k = 0; k < N_TYPES; k++)
		printf(" %s %.2f %.0f", msg_types[k], (double)R.type_msgs[k] / dec,
		       (double)R.type_bytes[k] / dec);
	printf("\n");
	printf("play: CPU: laird %.1f%% of a core, %.3f ms a decision; the generator %.1f%% (%.2f "
	       "of laird's)\n",
	       laird, laird_ms, self, laird > 0 ? self / laird : NAN);
	printf("play: laird's loop thread waited for a CPU %.1f%% of the time (ready to run: "
	       "the machine's other work)\n",
	       wait);
	printf("play: laird's side: window close -> reveal sent mean %.2f ms, p99 %.1f ms "
	       "(its histogram); decision durable max %.1f ms (since start), %.2f%% >= 20 ms\n",
	       reveal_mean, reveal_p99, durable_max_ms,
	       dn > 0 ? (b->durable_slow - a->durable_slow) / dn * 100 : NAN);
	printf("play: store: submit -> durable mean %.2f ms, p99 %.1f ms (%.0f writes); event loop "
	       "lag max %.1f ms; laird RSS peak %.1f MB\n",
	       store_mean, store_p99, sn, lag_max_ms, rss_peak_kb / 1024.0);
	print_stages(a, b, secs, p50, p99);
	printf("play: %llu choices, %llu changes of mind (%llu overtaken by the close); errors: %s\n",
	       (unsigned long long)R.choices, (unsigned long long)R.changes,
	       (unsigned long long)R.late_changes, errs);
	lg_figure("play_connections", (double)held, "connections");
	lg_figure("play_decisions_per_s", dec / secs, "decisions/s");
	lg_figure("play_reveal_p50_ms", p50, "ms");
	lg_figure("play_reveal_p99_ms", p99, "ms");
	lg_figure("play_reveal_max_ms", mx, "ms");
	lg_figure("play_reveals_measured", (double)R.reveals_done, "decisions");
	lg_figure("play_reveals_incomplete", (double)R.reveals_incomplete, "decisions");
	lg_figure("bytes_per_decision", (double)(b->rx_payload - a->rx_payload) / dec, "bytes");
	lg_figure("wire_bytes_per_decision", (double)(b->rx_bytes - a->rx_bytes) / dec, "bytes");
	lg_figure("frames_per_decision", (double)(b->rx_frames - a->rx_frames) / dec, "frames");
	lg_figure("laird_cpu_percent", laird, "%");
	/* Steadier than latency on a shared machine: what laird spends per
	 * decision (five seats), whatever share of the CPU it got. */
	lg_figure("laird_cpu_ms_per_decision", laird_ms, "ms");
	lg_figure("loadgen_cpu_percent", self, "%");
	lg_figure("laird_cpu_wait_percent", wait, "%");
	lg_figure("laird_rss_mb", rss_peak_kb / 1024.0, "MB");
	lg_figure("play_reveal_sent_mean_ms", reveal_mean, "ms");
	lg_figure("play_reveal_sent_p99_ms", reveal_p99, "ms");
	lg_figure("play_decision_durable_max_ms", durable_max_ms, "ms");
	lg_figure("store_durable_mean_ms", store_mean, "ms");
	lg_figure("store_durable_p99_ms", store_p99, "ms");
	lg_figure("play_loop_lag_max_ms", lag_max_ms, "ms");
	lg_figure("play_errors", (double)R.ramp.errors.total, "errors");
}

int lg_play_run(lg_ctx *ctx, const lg_play_opts *o)
{
	memset(&R, 0, sizeof R);
	R.ctx = ctx;
	R.o = o;
	R.n_tables = o->n / SEATS;
	R.bots = xcalloc(R.n_tables * SEATS + 1, sizeof *R.bots);
	R.tables = xcalloc(R.n_tables + 1, sizeof *R.tables);
	for (size_t i = 0; i < R.n_tables * SEATS; i++) {
		play_bot *b = &R.bots[i];
		b->idx = (uint32_t)i;
		b->seat = (uint8_t)(i % SEATS);
		b->t = &R.tables[i / SEATS];
		b->t->b[b->seat] = b;
		rng_seed(&b->r, ctx->seed, i);
		uv_timer_init(ctx->loop, &b->timer);
		b->timer.data = b;
		R.timers_open++;
	}
	printf("play: %zu bots at %zu tables, think %d-%d ms, leave p=%.2f, change of mind p=%.2f, "
	       "%s\n",
	       R.n_tables * SEATS, R.n_tables, o->think_min_ms, o->think_max_ms, o->leave_p,
	       o->change_p, o->full_views ? "whole views" : "view_patch, lean");
	uint64_t t0 = now_ns();
	start_more();
	bool ramped = lg_run_until(ctx, all_started, NULL, o->ramp_sec);
	printf("play: %zu of %zu tables playing after %.1f s%s\n", R.tables_started, R.n_tables,
	       (double)(now_ns() - t0) / 1e9, ramped ? "" : " (ramp bound reached)");
	lg_run_for(ctx, 2); /* the first decisions settle */

	sample a, b;
	take_sample(&a);
	R.measuring = true;
	long rss_peak = 0;
	uint64_t end = now_ns() + (uint64_t)(o->measure_sec * 1e9);
	while (now_ns() < end) {
		lg_run_for(ctx, MIN(1.0, (double)(end - now_ns()) / 1e9));
		rss_peak = MAX(rss_peak, lg_proc_rss_kb(ctx->pid));
	}
	R.measuring = false;
	take_sample(&b);
	buf m = {0};
	double lag = NAN, dmax = NAN;
	if (lg_http_get(ctx, "/metrics", 10, &m) == 0) {
		lag = lg_metric(m.data, "lair_event_loop_lag_max_seconds") * 1000;
		dmax = lg_metric(m.data, "lair_decision_durable_max_seconds") * 1000;
	}
	buf_free(&m);
	size_t held = 0;
	for (size_t i = 0; i < R.n_tables * SEATS; i++)
		held += R.bots[i].welcomed && !R.bots[i].closed;
	if (!a.metrics_ok || !b.metrics_ok)
		lg_tally_add(&R.ramp.errors, "metrics unreadable");
	report(&a, &b, rss_peak, lag, dmax, held);

	int rc = held == R.n_tables * SEATS && R.tables_started == R.n_tables &&
			 R.reveals_done > 0 && R.reveals_incomplete == 0 && R.ramp.errors.total == 0
		 ? 0
		 : 1;
	R.ramp.ending = true;
	for (size_t i = 0; i < R.n_tables * SEATS; i++) {
		play_bot *bot = &R.bots[i];
		if (bot->started && !bot->closed)
			lg_ws_abort(&bot->ws, "end of run");
		uv_close((uv_handle_t *)&bot->timer, on_timer_closed);
	}
	lg_run_until(ctx, all_closed, NULL, 30);
	lg_lat_free(&R.lat);
	free(R.bots);
	free(R.tables);
	return rc;
}
