/*
 * sim_deepfall_report.c — `lair sim deepfall --report DIR`: one self-contained
 * HTML page (DIR/index.html) with inline SVG plots of the balance figures,
 * each drawn against its target from seed 001 (strategy 12–40%, Lineage and
 * Calling at most 1.6x the mean, length 8–14 rounds, no exit above 45% of the
 * winners' glory), so a designer sees the balance at a glance. A sweep gets
 * line plots of the figures against the swept knob. No scripts, no fonts,
 * nothing fetched.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/util.h"
#include "sim_deepfall.h"

#define W 560
#define H 260
#define PL 48 /* plot margins */
#define PR 16
#define PT 28
#define PB 44

static const char *const colors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
				     "#59a14f", "#edc948", "#b07aa1", "#ff9da7"};

typedef struct hline {
	double y;
	const char *label;
	const char *color;
} hline;

static double nice_max(double v)
{
	if (v <= 0)
		return 1;
	double p = pow(10, floor(log10(v))), m = v / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static void axis(buf *b, const char *title, double ymax, bool pct)
{
	buf_printf(b, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
		      "font-family='sans-serif' font-size='11'>\n", W, H);
	buf_printf(b, "<text x='%d' y='16' font-size='13' font-weight='bold'>%s</text>\n", PL,
		   title);
	for (int i = 0; i <= 4; i++) {
		double v = ymax * i / 4;
		int y = H - PB - (H - PT - PB) * i / 4;
		buf_printf(b, "<line x1='%d' x2='%d' y1='%d' y2='%d' stroke='#ddd'/>\n", PL,
			   W - PR, y, y);
		if (pct)
			buf_printf(b, "<text x='%d' y='%d' text-anchor='end'>%.0f%%</text>\n",
				   PL - 4, y + 4, v * 100);
		else
			buf_printf(b, "<text x='%d' y='%d' text-anchor='end'>%g</text>\n", PL - 4,
				   y + 4, v);
	}
}

static int ypix(double v, double ymax)
{
	return H - PB - (int)lround((H - PT - PB) * (v > ymax ? ymax : v) / ymax);
}

static void hlines(buf *b, const hline *hl, int n, double ymax)
{
	for (int i = 0; i < n; i++) {
		int y = ypix(hl[i].y, ymax);
		buf_printf(b, "<line x1='%d' x2='%d' y1='%d' y2='%d' stroke='%s' "
			      "stroke-dasharray='5,3'/>\n", PL, W - PR, y, y, hl[i].color);
		buf_printf(b, "<text x='%d' y='%d' text-anchor='end' fill='%s'>%s</text>\n",
			   W - PR, y - 3, hl[i].color, hl[i].label);
	}
}

/* Bars with labels; band [blo, bhi] of bar indices shaded (-1: none). */
static void bars(buf *b, const char *title, const char *const *labels, const double *v, int n,
		 bool pct, const hline *hl, int nhl, int blo, int bhi)
{
	double mx = 0;
	for (int i = 0; i < n; i++)
		mx = v[i] > mx ? v[i] : mx;
	for (int i = 0; i < nhl; i++)
		mx = hl[i].y > mx ? hl[i].y : mx;
	mx = nice_max(mx * 1.05);
	axis(b, title, mx, pct);
	double bw = (double)(W - PL - PR) / (n ? n : 1);
	if (blo >= 0)
		buf_printf(b, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='#e8f4e8'/>\n",
			   PL + blo * bw, PT, (bhi - blo + 1) * bw, H - PT - PB);
	for (int i = 0; i < n; i++) {
		int y = ypix(v[i], mx);
		buf_printf(b, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s'>"
			      "<title>%s: %.4g</title></rect>\n",
			   PL + i * bw + bw * 0.1, y, bw * 0.8, H - PB - y,
			   colors[hl && nhl && v[i] > hl[nhl - 1].y ? 2 : 0], labels[i], v[i]);
		buf_printf(b, "<text x='%.1f' y='%d' text-anchor='middle'>%s</text>\n",
			   PL + i * bw + bw / 2, H - PB + 14, labels[i]);
		if (n <= 12)
			buf_printf(b, "<text x='%.1f' y='%d' text-anchor='middle' fill='#333'>"
				      "%.*f%s</text>\n",
				   PL + i * bw + bw / 2, y - 3, pct ? 1 : 0,
				   pct ? v[i] * 100 : v[i], pct ? "%" : "");
	}
	hlines(b, hl, nhl, mx);
	buf_puts(b, "</svg>\n");
}

/* Lines of series over the sweep's x values. */
static void lines(buf *b, const char *title, const char *xlabel, const double *x, int n,
		  const char *const *names, const double *const *ys, int ns, bool pct,
		  const hline *hl, int nhl)
{
	double mx = 0;
	for (int s = 0; s < ns; s++)
		for (int i = 0; i < n; i++)
			mx = ys[s][i] > mx ? ys[s][i] : mx;
	for (int i = 0; i < nhl; i++)
		mx = hl[i].y > mx ? hl[i].y : mx;
	mx = nice_max(mx * 1.05);
	axis(b, title, mx, pct);
	double x0 = x[0], x1 = n > 1 ? x[n - 1] : x[0] + 1;
	for (int i = 0; i < n; i++) {
		double px = PL + (W - PL - PR) * (x[i] - x0) / (x1 - x0);
		if (n <= 12 || i % (n / 8 + 1) == 0)
			buf_printf(b, "<text x='%.1f' y='%d' text-anchor='middle'>%g</text>\n", px,
				   H - PB + 14, x[i]);
	}
	buf_printf(b, "<text x='%d' y='%d' text-anchor='middle'>%s</text>\n", (W + PL) / 2,
		   H - 8, xlabel);
	for (int s = 0; s < ns; s++) {
		buf_printf(b, "<polyline fill='none' stroke-width='2' stroke='%s' points='",
			   colors[s % 8]);
		for (int i = 0; i < n; i++)
			buf_printf(b, "%.1f,%d ", PL + (W - PL - PR) * (x[i] - x0) / (x1 - x0),
				   ypix(ys[s][i], mx));
		buf_puts(b, "'/>\n");
		buf_printf(b, "<text x='%d' y='%d' fill='%s'>%s</text>\n", PL + 8 + 110 * (s % 4),
			   PT + 12 + 12 * (s / 4), colors[s % 8], names[s]);
	}
	hlines(b, hl, nhl, mx);
	buf_puts(b, "</svg>\n");
}

static void fig(buf *b) { buf_puts(b, "<div class='fig'>"); }
static void end_fig(buf *b) { buf_puts(b, "</div>\n"); }

static double mean_rate(const double *r, int n)
{
	double m = 0;
	for (int i = 0; i < n; i++)
		m += r[i];
	return n ? m / n : 0;
}

static void target_row(buf *b, const char *what, const char *value, bool ok)
{
	buf_printf(b, "<tr><td>%s</td><td>%s</td><td style='color:%s'>%s</td></tr>", what, value,
		   ok ? "#2a7" : "#c33", ok ? "met" : "missed");
}

/* The seed's targets at a glance. */
static void targets(buf *b, const dfs_stats *st)
{
	char v[128];
	double smax = 0, smin = 1, lw = 0, cw = 0, lm = 0, cm = 0, emax = 0;
	for (int s = 0; s < DF_NSTRAT; s++)
		if (st->strat_seats[s]) {
			double r = dfs_strat_rate(st, s);
			smax = r > smax ? r : smax;
			smin = r < smin ? r : smin;
		}
	for (int l = 0; l < DF_NLINEAGE; l++)
		lm += dfs_lin_rate(st, l) / DF_NLINEAGE;
	for (int l = 0; l < DF_NLINEAGE; l++)
		lw = fmax(lw, lm > 0 ? dfs_lin_rate(st, l) / lm : 0);
	for (int c = 0; c < DF_NCALLING; c++)
		cm += dfs_cal_rate(st, c) / DF_NCALLING;
	for (int c = 0; c < DF_NCALLING; c++)
		cw = fmax(cw, cm > 0 ? dfs_cal_rate(st, c) / cm : 0);
	for (int k = 0; k < DF_NSRC; k++)
		emax = fmax(emax, dfs_src_share(st, k));
	double fb = st->games ? (double)st->feel_bads / st->games : 0;
	buf_puts(b, "<table><tr><th>target (seed 001)</th><th>value</th><th></th></tr>");
	snprintf(v, sizeof v, "%.1f%% .. %.1f%%", 100 * smin, 100 * smax);
	target_row(b, "strategy win rates within ~12%..~40%", v, smin >= 0.12 && smax <= 0.40);
	snprintf(v, sizeof v, "%.2fx", lw);
	target_row(b, "no Lineage above 1.6x the mean", v, lw <= 1.6);
	snprintf(v, sizeof v, "%.2fx", cw);
	target_row(b, "no Calling above 1.6x the mean", v, cw <= 1.6);
	snprintf(v, sizeof v, "%.1f%%", 100 * dfs_len_in_band(st, 8, 14));
	target_row(b, "game length mostly 8..14 rounds", v, dfs_len_in_band(st, 8, 14) >= 0.5);
	snprintf(v, sizeof v, "%.1f%%", 100 * emax);
	target_row(b, "no exit above ~45% of winners' glory", v, emax <= 0.45);
	snprintf(v, sizeof v, "%.3f per game", fb);
	target_row(b, "feel-bad rare (at most 0.1 per game)", v, fb <= 0.10);
	buf_puts(b, "</table>\n");
}

static void one_batch(buf *b, const dfs_stats *st)
{
	targets(b, st);
	double v[DFS_MAXLEN];
	const char *lab[DFS_MAXLEN];
	char labbuf[DFS_MAXLEN][16];
	int n = 0;
	for (int s = 0; s < DF_NSTRAT; s++)
		if (st->strat_seats[s]) {
			lab[n] = df_strategy_names[s];
			v[n++] = dfs_strat_rate(st, s);
		}
	hline sh[2] = {{0.12, "12%", "#999"}, {0.40, "40%", "#e15759"}};
	fig(b);
	bars(b, "Win rate by strategy (target 12–40%)", lab, v, n, true, sh, 2, -1, -1);
	end_fig(b);

	for (int l = 0; l < DF_NLINEAGE; l++) {
		lab[l] = df_lineage_id(l);
		v[l] = dfs_lin_rate(st, l);
	}
	double m = mean_rate(v, DF_NLINEAGE);
	hline lh[2] = {{m, "mean", "#999"}, {1.6 * m, "1.6x mean", "#e15759"}};
	fig(b);
	bars(b, "Win rate by Lineage (per party fielded)", lab, v, DF_NLINEAGE, true, lh, 2, -1,
	     -1);
	end_fig(b);

	for (int c = 0; c < DF_NCALLING; c++) {
		lab[c] = df_calling_id(c);
		v[c] = dfs_cal_rate(st, c);
	}
	m = mean_rate(v, DF_NCALLING);
	hline chl[2] = {{m, "mean", "#999"}, {1.6 * m, "1.6x mean", "#e15759"}};
	fig(b);
	bars(b, "Win rate by Calling (per party fielded)", lab, v, DF_NCALLING, true, chl, 2, -1,
	     -1);
	end_fig(b);

	int lo = DFS_MAXLEN, hi = 0;
	for (int r = 0; r < DFS_MAXLEN; r++)
		if (st->len_hist[r]) {
			lo = r < lo ? r : lo;
			hi = r;
		}
	lo = lo > 6 ? 6 : lo;
	hi = hi < 16 ? 16 : hi;
	n = 0;
	for (int r = lo; r <= hi; r++) {
		snprintf(labbuf[n], sizeof labbuf[n], "%d", r);
		lab[n] = labbuf[n];
		v[n++] = (double)st->len_hist[r] / (st->games ? st->games : 1);
	}
	fig(b);
	bars(b, "Game length in rounds (band 8–14 shaded)", lab, v, n, true, NULL, 0, 8 - lo,
	     14 - lo);
	end_fig(b);

	for (int i = 0; i < DFS_BINS; i++) {
		snprintf(labbuf[i], sizeof labbuf[i], "%d%%", i * 10);
		lab[i] = labbuf[i];
		v[i] = (double)st->margin_hist[i] / (st->games ? st->games : 1);
	}
	fig(b);
	bars(b, "Victory margin, fraction of the winner's glory", lab, v, DFS_BINS, true, NULL, 0,
	     -1, -1);
	end_fig(b);

	for (int i = 0; i < DFS_BINS; i++) {
		snprintf(labbuf[i], sizeof labbuf[i], "%d%%", i * 10);
		lab[i] = labbuf[i];
		v[i] = (double)st->cash_rel_hist[i] / (st->cash_n ? st->cash_n : 1);
	}
	fig(b);
	bars(b, "Winners' Cash-Outs by point in the game", lab, v, DFS_BINS, true, NULL, 0, -1,
	     -1);
	end_fig(b);

	for (int d = 1; d <= DF_MAX_FLOORS; d++) {
		snprintf(labbuf[d - 1], sizeof labbuf[d - 1], "%d", d);
		lab[d - 1] = labbuf[d - 1];
		v[d - 1] = (double)st->cash_depth_hist[d] / (st->cash_n ? st->cash_n : 1);
	}
	fig(b);
	bars(b, "Winners' Cash-Outs by deepest floor reached", lab, v, DF_MAX_FLOORS, true, NULL,
	     0, -1, -1);
	end_fig(b);

	static const char *const src[DF_NSRC] = {"cash out", "press on", "worthy end"};
	for (int k = 0; k < DF_NSRC; k++) {
		lab[k] = src[k];
		v[k] = dfs_src_share(st, k);
	}
	hline eh[1] = {{0.45, "45%", "#e15759"}};
	fig(b);
	bars(b, "Winners' glory by exit (target: none above 45%)", lab, v, DF_NSRC, true, eh, 1,
	     -1, -1);
	end_fig(b);

	double g = st->games ? (double)st->games : 1;
	buf_printf(b,
		   "<table><tr><th>figure</th><th>value</th></tr>"
		   "<tr><td>games</td><td>%ld</td></tr>"
		   "<tr><td>mean length (rounds)</td><td>%.2f</td></tr>"
		   "<tr><td>length within 8–14</td><td>%.1f%%</td></tr>"
		   "<tr><td>mean victory margin / winner's glory</td><td>%.3f</td></tr>"
		   "<tr><td>comeback rate (winner last at half-way)</td><td>%.1f%%</td></tr>"
		   "<tr><td>winner behind the leader at half-way</td><td>%.1f%%</td></tr>"
		   "<tr><td>feel-bads (Taken without Last Stand) per game</td><td>%.3f</td></tr>"
		   "<tr><td>games with any feel-bad</td><td>%.1f%%</td></tr>"
		   "<tr><td>winners' parties per game: cash-out / worthy end / taken</td>"
		   "<td>%.2f / %.2f / %.2f</td></tr>"
		   "<tr><td>games per second (one core)</td><td>%.0f</td></tr></table>\n",
		   st->games, dfs_mean_len(st), 100 * dfs_len_in_band(st, 8, 14),
		   st->margin_sum / g, 100 * st->comeback_last / g, 100 * st->comeback_behind / g,
		   st->feel_bads / g, 100.0 * st->games_with_feel_bad / g, st->end_cash / g,
		   st->end_worthy / g, st->end_taken / g,
		   st->elapsed_s > 0 ? st->games / st->elapsed_s : 0);
}

static void sweep(buf *b, const dfs_stats *pts, int n, const char *knob)
{
	double *x = xcalloc((size_t)n, sizeof *x);
	double *ys[DF_NSTRAT + DF_NLINEAGE];
	for (int s = 0; s < DF_NSTRAT + DF_NLINEAGE; s++)
		ys[s] = xcalloc((size_t)n, sizeof **ys);
	const char *names[DF_NSTRAT + DF_NLINEAGE];
	for (int i = 0; i < n; i++)
		x[i] = pts[i].value;

	int ns = 0;
	for (int s = 0; s < DF_NSTRAT; s++)
		if (pts[0].strat_seats[s]) {
			names[ns] = df_strategy_names[s];
			for (int i = 0; i < n; i++)
				ys[ns][i] = dfs_strat_rate(&pts[i], s);
			ns++;
		}
	hline sh[2] = {{0.12, "12%", "#999"}, {0.40, "40%", "#e15759"}};
	fig(b);
	lines(b, "Win rate by strategy", knob, x, n, names, (const double *const *)ys, ns, true,
	      sh, 2);
	end_fig(b);

	for (int l = 0; l < DF_NLINEAGE; l++) {
		names[l] = df_lineage_id(l);
		for (int i = 0; i < n; i++)
			ys[l][i] = dfs_lin_rate(&pts[i], l);
	}
	fig(b);
	lines(b, "Win rate by Lineage", knob, x, n, names, (const double *const *)ys,
	      DF_NLINEAGE, true, NULL, 0);
	end_fig(b);

	for (int c = 0; c < DF_NCALLING; c++) {
		names[c] = df_calling_id(c);
		for (int i = 0; i < n; i++)
			ys[c][i] = dfs_cal_rate(&pts[i], c);
	}
	fig(b);
	lines(b, "Win rate by Calling", knob, x, n, names, (const double *const *)ys,
	      DF_NCALLING, true, NULL, 0);
	end_fig(b);

	names[0] = "mean length";
	for (int i = 0; i < n; i++)
		ys[0][i] = dfs_mean_len(&pts[i]);
	hline lh[2] = {{8, "8", "#999"}, {14, "14", "#999"}};
	fig(b);
	lines(b, "Mean game length (rounds)", knob, x, n, names, (const double *const *)ys, 1,
	      false, lh, 2);
	end_fig(b);

	names[0] = "margin fraction";
	names[1] = "comeback rate";
	names[2] = "feel-bads per game";
	names[3] = "length within 8-14";
	for (int i = 0; i < n; i++) {
		double g = pts[i].games ? (double)pts[i].games : 1;
		ys[0][i] = pts[i].margin_sum / g;
		ys[1][i] = pts[i].comeback_last / g;
		ys[2][i] = pts[i].feel_bads / g;
		ys[3][i] = dfs_len_in_band(&pts[i], 8, 14);
	}
	fig(b);
	lines(b, "Margin, comeback, feel-bad, pacing", knob, x, n, names,
	      (const double *const *)ys, 4, true, NULL, 0);
	end_fig(b);

	names[0] = "cash out";
	names[1] = "press on";
	names[2] = "worthy end";
	for (int k = 0; k < DF_NSRC; k++)
		for (int i = 0; i < n; i++)
			ys[k][i] = dfs_src_share(&pts[i], k);
	hline eh[1] = {{0.45, "45%", "#e15759"}};
	fig(b);
	lines(b, "Winners' glory by exit", knob, x, n, names, (const double *const *)ys, 3, true,
	      eh, 1);
	end_fig(b);

	for (int s = 0; s < DF_NSTRAT + DF_NLINEAGE; s++)
		free(ys[s]);
	free(x);
}

int dfs_report(const char *dir, const dfs_stats *pts, int n, const char *knob, const int *mix,
	       int nmix, const df_config *cfg, uint64_t seed, char *err, size_t errlen)
{
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	buf b = {0};
	buf_puts(&b, "<!doctype html>\n<html><head><meta charset='utf-8'>"
		     "<title>DEEPFALL balance report</title><style>"
		     "body{font-family:sans-serif;margin:24px;max-width:1200px}"
		     ".fig{display:inline-block;margin:6px;border:1px solid #eee}"
		     "table{border-collapse:collapse;margin:12px 0}"
		     "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
		     "code{background:#f4f4f4}</style></head><body>\n"
		     "<h1>DEEPFALL balance report</h1>\n");
	buf_printf(&b, "<p>%ld games per point, %d seats, seed %llu, strategies rotated over "
		       "the seats: <code>",
		   pts[0].games, pts[0].seats, (unsigned long long)seed);
	for (int i = 0; i < nmix; i++)
		buf_printf(&b, "%s%s", i ? "," : "", df_strategy_names[mix[i]]);
	buf_puts(&b, "</code>.");
	if (knob)
		buf_printf(&b, " Sweep of <code>%s</code> from %g to %g (%d points).", knob,
			   pts[0].value, pts[n - 1].value, n);
	buf_puts(&b, "</p>\n");
	if (knob)
		sweep(&b, pts, n, knob);
	else
		one_batch(&b, &pts[0]);
	cJSON *cj = df_config_json(cfg);
	char *ct = cJSON_Print(cj);
	buf_puts(&b, "<h2>Config</h2><pre>");
	buf_puts(&b, ct);
	buf_puts(&b, "</pre>\n<p>Definitions: see <code>lair sim deepfall --help</code> and "
		     "<code>server/games/deepfall/CONFIG.md</code>.</p></body></html>\n");
	free(ct);
	cJSON_Delete(cj);

	char path[4096];
	snprintf(path, sizeof path, "%s/index.html", dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		buf_free(&b);
		return -1;
	}
	fwrite(b.data, 1, b.len, f);
	int bad = fclose(f) != 0;
	buf_free(&b);
	if (bad) {
		snprintf(err, errlen, "cannot write %s", path);
		return -1;
	}
	return 0;
}
