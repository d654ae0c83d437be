/*
 * sim_deepfall_report.c — `lair sim deepfall --report DIR`: one self-contained
 * HTML page (DIR/index.html) with inline SVG plots of the balance figures
 * (docs/rules/deepfall.md DF80-DF89), each drawn against its target: win
 * rates by strategy (12–40%), Lineage and Calling (1.6× the mean), the 36
 * companies as a heat map, game length and its spread, how the winners'
 * parties ended (no exit above 45% of their choices), glory per collapse by
 * floor, deep-room claims and contests, victory margin and cash-out timing.
 * A sweep gets line plots of the figures against the swept knob. No
 * scripts, no fonts, nothing fetched.
 *
 * Axes: a value axis runs from 0 to a whole number of "nice" steps (1, 2 or
 * 5 times a power of ten), so every tick label is exact.
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
#define PL 52 /* plot margins */
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

/* A value axis: 0 .. max in n ticks of step. */
typedef struct vaxis {
	double max, step;
	int n;
} vaxis;

/* The smallest axis of 1, 2 or 5 x 10^k steps, at most 5 of them, reaching v. */
static vaxis nice_axis(double v)
{
	vaxis a = {1, 0.25, 4};
	if (!(v > 0))
		return a;
	double p = pow(10, floor(log10(v / 5)));
	static const double m[] = {1, 2, 5, 10};
	for (int i = 0; i < 4; i++) {
		a.step = m[i] * p;
		a.n = (int)ceil(v / a.step - 1e-9);
		if (a.n <= 5)
			break;
	}
	if (a.n < 1)
		a.n = 1;
	a.max = a.step * a.n;
	return a;
}

static void axis(buf *b, const char *title, vaxis ax, bool pct)
{
	buf_printf(b, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
		      "font-family='sans-serif' font-size='11'>\n", W, H);
	buf_printf(b, "<text x='%d' y='16' font-size='13' font-weight='bold'>%s</text>\n", PL,
		   title);
	for (int i = 0; i <= ax.n; i++) {
		double v = ax.step * i;
		int y = H - PB - (H - PT - PB) * i / ax.n;
		buf_printf(b, "<line x1='%d' x2='%d' y1='%d' y2='%d' stroke='#ddd'/>\n", PL,
			   W - PR, y, y);
		buf_printf(b, "<text x='%d' y='%d' text-anchor='end'>%.6g%s</text>\n", PL - 4,
			   y + 4, pct ? v * 100 : v, pct ? "%" : "");
	}
}

static int ypix(double v, double ymax)
{
	return H - PB - (int)lround((H - PT - PB) * (v > ymax ? ymax : v < 0 ? 0 : v) / ymax);
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

/* Bars with labels; band [blo, bhi] of bar indices shaded (-1: none). A bar
 * above the last line drawn is red (it misses that target). */
static void bars(buf *b, const char *title, const char *const *labels, const double *v, int n,
		 bool pct, const hline *hl, int nhl, int blo, int bhi)
{
	double mx = 0;
	for (int i = 0; i < n; i++)
		mx = v[i] > mx ? v[i] : mx;
	for (int i = 0; i < nhl; i++)
		mx = hl[i].y > mx ? hl[i].y : mx;
	vaxis ax = nice_axis(mx * 1.05);
	axis(b, title, ax, pct);
	double bw = (double)(W - PL - PR) / (n ? n : 1);
	if (blo >= 0)
		buf_printf(b, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='#e8f4e8'/>\n",
			   PL + blo * bw, PT, (bhi - blo + 1) * bw, H - PT - PB);
	for (int i = 0; i < n; i++) {
		int y = ypix(v[i], ax.max);
		buf_printf(b, "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='%s'>"
			      "<title>%s: %.4g</title></rect>\n",
			   PL + i * bw + bw * 0.1, y, bw * 0.8, H - PB - y,
			   colors[hl && nhl && v[i] > hl[nhl - 1].y ? 2 : 0], labels[i], v[i]);
		buf_printf(b, "<text x='%.1f' y='%d' text-anchor='middle'>%s</text>\n",
			   PL + i * bw + bw / 2, H - PB + 14, labels[i]);
		if (n <= 16)
			buf_printf(b, "<text x='%.1f' y='%d' text-anchor='middle' fill='#333'>"
				      "%.*f%s</text>\n",
				   PL + i * bw + bw / 2, y - 3, pct ? 1 : 0,
				   pct ? v[i] * 100 : v[i], pct ? "%" : "");
	}
	hlines(b, hl, nhl, ax.max);
	buf_puts(b, "</svg>\n");
}

/* Lines of series over the sweep's x values; series from `dashed` on are
 * drawn dashed (reference lines such as 1.6x the mean). */
static void lines(buf *b, const char *title, const char *xlabel, const double *x, int n,
		  const char *const *names, const double *const *ys, int ns, int dashed, bool pct,
		  const hline *hl, int nhl)
{
	double mx = 0;
	for (int s = 0; s < ns; s++)
		for (int i = 0; i < n; i++)
			mx = ys[s][i] > mx ? ys[s][i] : mx;
	for (int i = 0; i < nhl; i++)
		mx = hl[i].y > mx ? hl[i].y : mx;
	vaxis ax = nice_axis(mx * 1.05);
	axis(b, title, ax, pct);
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
		const char *c = s >= dashed ? "#c33" : colors[s % 8];
		buf_printf(b, "<polyline fill='none' stroke-width='2' stroke='%s'%s points='", c,
			   s >= dashed ? " stroke-dasharray='5,3'" : "");
		for (int i = 0; i < n; i++)
			buf_printf(b, "%.1f,%d ", PL + (W - PL - PR) * (x[i] - x0) / (x1 - x0),
				   ypix(ys[s][i], ax.max));
		buf_puts(b, "'/>\n");
		buf_printf(b, "<text x='%d' y='%d' fill='%s'>%s</text>\n", PL + 8 + 120 * (s % 4),
			   PT + 12 + 12 * (s / 4), c, names[s]);
	}
	hlines(b, hl, nhl, ax.max);
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

static double share(long a, long b) { return b > 0 ? (double)a / b : 0; }

static void target_row(buf *b, const char *what, const char *value, bool ok)
{
	buf_printf(b, "<tr><td>%s</td><td>%s</td><td style='color:%s'>%s</td></tr>", what, value,
		   ok ? "#2a7" : "#c33", ok ? "met" : "missed");
}

static double comp_worst(const sim_deepfall_stats *st)
{
	double m = sim_deepfall_comp_mean(st), w = 0;
	for (int c = 0; c < DF_NCOMPANY; c++)
		w = fmax(w, m > 0 ? sim_deepfall_comp_rate(st, c) / m : 0);
	return w;
}

/* The targets at a glance (docs/rules/deepfall.md DF80-DF88). */
static void targets(buf *b, const sim_deepfall_stats *st)
{
	char v[160];
	double smax = 0, smin = 1, lw = 0, cw = 0, lm = 0, cm = 0, emax = 0;
	for (int s = 0; s < DF_NSTRAT; s++)
		if (st->strat_seats[s]) {
			double r = sim_deepfall_strat_rate(st, s);
			smax = r > smax ? r : smax;
			smin = r < smin ? r : smin;
		}
	for (int l = 0; l < DF_NLINEAGE; l++)
		lm += sim_deepfall_lin_rate(st, l) / DF_NLINEAGE;
	for (int l = 0; l < DF_NLINEAGE; l++)
		lw = fmax(lw, lm > 0 ? sim_deepfall_lin_rate(st, l) / lm : 0);
	for (int c = 0; c < DF_NCALLING; c++)
		cm += sim_deepfall_cal_rate(st, c) / DF_NCALLING;
	for (int c = 0; c < DF_NCALLING; c++)
		cw = fmax(cw, cm > 0 ? sim_deepfall_cal_rate(st, c) / cm : 0);
	for (int k = 0; k < DF_NSRC; k++)
		emax = fmax(emax, sim_deepfall_triangle_share(st, k));
	double fb = st->games ? (double)st->feel_bads / st->games : 0;
	double fin = share(st->final_biggest, st->games);
	double dcl = share(st->deep_claimed, st->deep_rooms);
	double dco = share(st->deep_contested, st->deep_rooms);
	double dgc = share(st->deep_games_contested, st->games);
	double cwst = comp_worst(st);
	buf_puts(b, "<table><tr><th>target</th><th>value</th><th></th></tr>");
	snprintf(v, sizeof v, "%.1f%% .. %.1f%%", 100 * smin, 100 * smax);
	target_row(b, "strategy win rates within 12%..40% (DF80)", v, smin >= 0.12 && smax <= 0.40);
	snprintf(v, sizeof v, "%.2fx", lw);
	target_row(b, "no Lineage above 1.6x the mean (DF80)", v, lw <= 1.6);
	snprintf(v, sizeof v, "%.2fx", cw);
	target_row(b, "no Calling above 1.6x the mean (DF80)", v, cw <= 1.6);
	snprintf(v, sizeof v, "%.2fx", cwst);
	target_row(b, "no company solved: none above 2x the mean (DF83)", v, cwst <= SIM_DEEPFALL_SOLVED);
	snprintf(v, sizeof v, "%.1f%%", 100 * sim_deepfall_len_in_band(st, 8, 14));
	target_row(b, "game length mostly 8..14 rounds (DF81)", v,
		   sim_deepfall_len_in_band(st, 8, 14) >= 0.5);
	snprintf(v, sizeof v, "sd %.2f rounds", sim_deepfall_len_sd(st));
	target_row(b, "a real spread of length: sd at least 1 round (DF85)", v,
		   sim_deepfall_len_sd(st) >= SIM_DEEPFALL_LEN_SD);
	snprintf(v, sizeof v, "%.1f%%", 100 * emax);
	target_row(b, "no exit above 45% of the winners' choices (DF84)", v, emax <= 0.45);
	snprintf(v, sizeof v, "%.1f%% of games", 100 * fin);
	target_row(b, "the final collapse the biggest in most games (DF87)", v, fin > 0.5);
	snprintf(v, sizeof v, "a contest in %.1f%% of games; %.1f%% claimed, %.1f%% contested",
		 100 * dgc, 100 * dcl, 100 * dco);
	target_row(b, "deep rooms contestable (a contest in most games) but not free (at most "
		      "75% claimed) (DF86)",
		   v, dgc > SIM_DEEPFALL_DEEP_GAMES_CONTESTED && dcl <= SIM_DEEPFALL_DEEP_CLAIMED_MAX);
	snprintf(v, sizeof v, "%.3f per game", fb);
	target_row(b, "feel-bad rare: at most 0.1 per game (DF88)", v, fb <= 0.10);
	buf_puts(b, "</table>\n");
}

/* The 36 companies as a table coloured by win rate against the mean:
 * white at the mean, green below, red above (full red at SIM_DEEPFALL_SOLVED). */
static void heat_map(buf *b, const sim_deepfall_stats *st)
{
	double m = sim_deepfall_comp_mean(st);
	buf_puts(b, "<h3>The 36 companies: win rate per party fielded, against the mean "
		    "(glory against the mean below it)</h3><table class='heat'><tr><th></th>");
	for (int c = 0; c < DF_NCALLING; c++)
		buf_printf(b, "<th>%s</th>", df_calling_id(c));
	buf_puts(b, "</tr>");
	for (int l = 0; l < DF_NLINEAGE; l++) {
		buf_printf(b, "<tr><th>%s</th>", df_lineage_id(l));
		for (int c = 0; c < DF_NCALLING; c++) {
			int k = l * DF_NCALLING + c;
			double q = m > 0 ? sim_deepfall_comp_rate(st, k) / m : 0;
			double t = q >= 1 ? fmin(1, (q - 1) / (SIM_DEEPFALL_SOLVED - 1)) : fmin(1, 1 - q);
			int r = q >= 1 ? 255 : (int)lround(255 - 120 * t);
			int g = q >= 1 ? (int)lround(255 - 170 * t) : 255;
			int bl = (int)lround(255 - 170 * t);
			double gl = st->comp_parties[k] ? st->comp_glory[k] / st->comp_parties[k] : 0;
			double gm = 0;
			for (int j = 0; j < DF_NCOMPANY; j++)
				gm += st->comp_parties[j] ? st->comp_glory[j] / st->comp_parties[j] : 0;
			gm /= DF_NCOMPANY;
			buf_printf(b, "<td style='background:#%02x%02x%02x' title='%ld parties'>"
				      "%.2fx<br><small>%.2fx</small></td>",
				   r, g, bl, st->comp_parties[k], q, gm > 0 ? gl / gm : 0);
		}
		buf_puts(b, "</tr>");
	}
	buf_puts(b, "</table>\n");
}

static void one_batch(buf *b, const sim_deepfall_stats *st, int floors)
{
	targets(b, st);
	double v[SIM_DEEPFALL_MAXLEN];
	const char *lab[SIM_DEEPFALL_MAXLEN];
	char labbuf[SIM_DEEPFALL_MAXLEN][16];
	int n = 0;
	for (int s = 0; s < DF_NSTRAT; s++)
		if (st->strat_seats[s]) {
			lab[n] = df_strategy_names[s];
			v[n++] = sim_deepfall_strat_rate(st, s);
		}
	hline sh[2] = {{0.12, "12%", "#999"}, {0.40, "40%", "#e15759"}};
	fig(b);
	bars(b, "Win rate by strategy (target 12–40%)", lab, v, n, true, sh, 2, -1, -1);
	end_fig(b);

	for (int l = 0; l < DF_NLINEAGE; l++) {
		lab[l] = df_lineage_id(l);
		v[l] = sim_deepfall_lin_rate(st, l);
	}
	double m = mean_rate(v, DF_NLINEAGE);
	hline lh[2] = {{m, "mean", "#999"}, {1.6 * m, "1.6x mean", "#e15759"}};
	fig(b);
	bars(b, "Win rate by Lineage (per party fielded)", lab, v, DF_NLINEAGE, true, lh, 2, -1,
	     -1);
	end_fig(b);

	for (int c = 0; c < DF_NCALLING; c++) {
		lab[c] = df_calling_id(c);
		v[c] = sim_deepfall_cal_rate(st, c);
	}
	m = mean_rate(v, DF_NCALLING);
	hline chl[2] = {{m, "mean", "#999"}, {1.6 * m, "1.6x mean", "#e15759"}};
	fig(b);
	bars(b, "Win rate by Calling (per party fielded)", lab, v, DF_NCALLING, true, chl, 2, -1,
	     -1);
	end_fig(b);

	heat_map(b, st);

	int lo = SIM_DEEPFALL_MAXLEN, hi = 0;
	for (int r = 0; r < SIM_DEEPFALL_MAXLEN; r++)
		if (st->len_hist[r]) {
			lo = r < lo ? r : lo;
			hi = r;
		}
	lo = lo > 6 ? 6 : lo;
	hi = hi < 16 ? 16 : hi;
	n = 0;
	for (int r = lo; r <= hi && n < SIM_DEEPFALL_MAXLEN; r++) {
		snprintf(labbuf[n], sizeof labbuf[n], "%d", r);
		lab[n] = labbuf[n];
		v[n++] = share(st->len_hist[r], st->games);
	}
	char title[160];
	snprintf(title, sizeof title,
		 "Game length in rounds: mean %.1f, sd %.2f (band 8–14 shaded)", sim_deepfall_mean_len(st),
		 sim_deepfall_len_sd(st));
	fig(b);
	bars(b, title, lab, v, n, true, NULL, 0, 8 - lo, 14 - lo);
	end_fig(b);

	static const char *const ends[SIM_DEEPFALL_NEND] = {"cash-out chosen", "cash-out forced",
							    "taken", "worthy end"};
	for (int k = 0; k < SIM_DEEPFALL_NEND; k++) {
		lab[k] = ends[k];
		v[k] = sim_deepfall_end_share(st, k);
	}
	fig(b);
	bars(b, "How the winners' parties ended (DF84)", lab, v, SIM_DEEPFALL_NEND, true, NULL, 0, -1, -1);
	end_fig(b);

	static const char *const tri[DF_NSRC] = {"cash out (chosen)", "press on (forced+taken)",
						 "worthy end"};
	for (int k = 0; k < DF_NSRC; k++) {
		lab[k] = tri[k];
		v[k] = sim_deepfall_triangle_share(st, k);
	}
	hline eh[1] = {{0.45, "45%", "#e15759"}};
	fig(b);
	bars(b, "The exit triangle: winners' choices (target: none above 45%)", lab, v, DF_NSRC,
	     true, eh, 1, -1, -1);
	end_fig(b);

	for (int f = 1; f <= floors; f++) {
		snprintf(labbuf[f - 1], sizeof labbuf[f - 1], "F%d", f);
		lab[f - 1] = labbuf[f - 1];
		v[f - 1] = st->collapse_n[f] ? st->collapse_glory[f] / st->collapse_n[f] : 0;
	}
	snprintf(title, sizeof title,
		 "Mean glory per collapse by floor; F1 the biggest in %.1f%% of games",
		 100 * share(st->final_biggest, st->games));
	fig(b);
	bars(b, title, lab, v, floors, false, NULL, 0, -1, -1);
	end_fig(b);

	lab[0] = "rooms claimed";
	lab[1] = "rooms contested";
	lab[2] = "games with a contest";
	v[0] = share(st->deep_claimed, st->deep_rooms);
	v[1] = share(st->deep_contested, st->deep_rooms);
	v[2] = share(st->deep_games_contested, st->games);
	hline dh[2] = {{SIM_DEEPFALL_DEEP_GAMES_CONTESTED, "most games", "#999"},
		       {SIM_DEEPFALL_DEEP_CLAIMED_MAX, "not free", "#999"}};
	fig(b);
	bars(b, "The two deepest floors' rooms (DF86)", lab, v, 3, true, dh, 2, -1, -1);
	end_fig(b);

	for (int i = 0; i < SIM_DEEPFALL_BINS; i++) {
		snprintf(labbuf[i], sizeof labbuf[i], "%d%%", i * 10);
		lab[i] = labbuf[i];
		v[i] = share(st->margin_hist[i], st->games);
	}
	fig(b);
	bars(b, "Victory margin, fraction of the winner's glory", lab, v, SIM_DEEPFALL_BINS, true, NULL, 0,
	     -1, -1);
	end_fig(b);

	for (int i = 0; i < SIM_DEEPFALL_BINS; i++) {
		snprintf(labbuf[i], sizeof labbuf[i], "%d%%", i * 10);
		lab[i] = labbuf[i];
		v[i] = share(st->cash_rel_hist[i], st->cash_n);
	}
	fig(b);
	bars(b, "Winners' Cash-Outs by point in the game", lab, v, SIM_DEEPFALL_BINS, true, NULL, 0, -1,
	     -1);
	end_fig(b);

	for (int d = 1; d <= floors; d++) {
		snprintf(labbuf[d - 1], sizeof labbuf[d - 1], "%d", d);
		lab[d - 1] = labbuf[d - 1];
		v[d - 1] = share(st->cash_depth_hist[d], st->cash_n);
	}
	fig(b);
	bars(b, "Winners' Cash-Outs by deepest floor reached", lab, v, floors, true, NULL, 0, -1,
	     -1);
	end_fig(b);

	double g = st->games ? (double)st->games : 1;
	buf_printf(b,
		   "<table><tr><th>figure</th><th>value</th></tr>"
		   "<tr><td>games</td><td>%ld</td></tr>"
		   "<tr><td>mean length (rounds)</td><td>%.2f</td></tr>"
		   "<tr><td>mean victory margin / winner's glory</td><td>%.3f</td></tr>"
		   "<tr><td>comeback rate (winner last at half-way)</td><td>%.1f%%</td></tr>"
		   "<tr><td>winner behind the leader at half-way</td><td>%.1f%%</td></tr>"
		   "<tr><td>feel-bads (Taken without Last Stand) per game</td><td>%.3f</td></tr>"
		   "<tr><td>games with any feel-bad</td><td>%.1f%%</td></tr>"
		   "<tr><td>winners' glory: cash-out / press-on / worthy end</td>"
		   "<td>%.1f%% / %.1f%% / %.1f%%</td></tr>"
		   "<tr><td>games per CPU second</td><td>%.0f</td></tr></table>\n",
		   st->games, sim_deepfall_mean_len(st), st->margin_sum / g, 100 * st->comeback_last / g,
		   100 * st->comeback_behind / g, st->feel_bads / g,
		   100.0 * st->games_with_feel_bad / g, 100 * sim_deepfall_src_share(st, 0),
		   100 * sim_deepfall_src_share(st, 1), 100 * sim_deepfall_src_share(st, 2),
		   st->cpu_s > 0 ? st->games / st->cpu_s : 0);
}

/* Win rates of n halves (Lineages or Callings) over the sweep, with the
 * 1.6x-mean line of each point dashed. */
static void sweep_halves(buf *b, const sim_deepfall_stats *pts, int n, const char *knob,
			 const double *x, double **ys, bool lineages)
{
	int k = lineages ? DF_NLINEAGE : DF_NCALLING;
	const char *names[DF_NLINEAGE + 1];
	for (int h = 0; h < k; h++) {
		names[h] = lineages ? df_lineage_id(h) : df_calling_id(h);
		for (int i = 0; i < n; i++)
			ys[h][i] = lineages ? sim_deepfall_lin_rate(&pts[i], h) : sim_deepfall_cal_rate(&pts[i], h);
	}
	names[k] = "1.6x mean";
	for (int i = 0; i < n; i++) {
		double m = 0;
		for (int h = 0; h < k; h++)
			m += ys[h][i] / k;
		ys[k][i] = 1.6 * m;
	}
	fig(b);
	lines(b, lineages ? "Win rate by Lineage" : "Win rate by Calling", knob, x, n, names,
	      (const double *const *)ys, k + 1, k, true, NULL, 0);
	end_fig(b);
}

static void sweep(buf *b, const sim_deepfall_stats *pts, int n, const char *knob)
{
	enum { NS = DF_NSTRAT + DF_NLINEAGE + 1 };
	double *x = xcalloc((size_t)n, sizeof *x);
	double *ys[NS];
	for (int s = 0; s < NS; s++)
		ys[s] = xcalloc((size_t)n, sizeof **ys);
	const char *names[NS];
	for (int i = 0; i < n; i++)
		x[i] = pts[i].value;

	int ns = 0;
	for (int s = 0; s < DF_NSTRAT; s++)
		if (pts[0].strat_seats[s]) {
			names[ns] = df_strategy_names[s];
			for (int i = 0; i < n; i++)
				ys[ns][i] = sim_deepfall_strat_rate(&pts[i], s);
			ns++;
		}
	hline sh[2] = {{0.12, "12%", "#999"}, {0.40, "40%", "#e15759"}};
	fig(b);
	lines(b, "Win rate by strategy", knob, x, n, names, (const double *const *)ys, ns, ns,
	      true, sh, 2);
	end_fig(b);

	sweep_halves(b, pts, n, knob, x, ys, true);
	sweep_halves(b, pts, n, knob, x, ys, false);

	names[0] = "mean length";
	names[1] = "sd";
	for (int i = 0; i < n; i++) {
		ys[0][i] = sim_deepfall_mean_len(&pts[i]);
		ys[1][i] = sim_deepfall_len_sd(&pts[i]);
	}
	hline lh[3] = {{1, "sd 1", "#999"}, {8, "8", "#999"}, {14, "14", "#999"}};
	fig(b);
	lines(b, "Game length (rounds) and its spread", knob, x, n, names,
	      (const double *const *)ys, 2, 2, false, lh, 3);
	end_fig(b);

	names[0] = "cash out (chosen)";
	names[1] = "press on (forced+taken)";
	names[2] = "worthy end";
	for (int k = 0; k < DF_NSRC; k++)
		for (int i = 0; i < n; i++)
			ys[k][i] = sim_deepfall_triangle_share(&pts[i], k);
	hline eh[1] = {{0.45, "45%", "#e15759"}};
	fig(b);
	lines(b, "The exit triangle: winners' choices", knob, x, n, names,
	      (const double *const *)ys, 3, 3, true, eh, 1);
	end_fig(b);

	names[0] = "final collapse biggest";
	names[1] = "deep rooms claimed";
	names[2] = "deep rooms contested";
	names[3] = "games with a deep contest";
	for (int i = 0; i < n; i++) {
		ys[0][i] = share(pts[i].final_biggest, pts[i].games);
		ys[1][i] = share(pts[i].deep_claimed, pts[i].deep_rooms);
		ys[2][i] = share(pts[i].deep_contested, pts[i].deep_rooms);
		ys[3][i] = share(pts[i].deep_games_contested, pts[i].games);
	}
	hline fh[1] = {{0.5, "50%", "#e15759"}};
	fig(b);
	lines(b, "The crescendo and the deep rooms", knob, x, n, names,
	      (const double *const *)ys, 4, 4, true, fh, 1);
	end_fig(b);

	names[0] = "margin fraction";
	names[1] = "comeback rate";
	names[2] = "length within 8-14";
	for (int i = 0; i < n; i++) {
		double g = pts[i].games ? (double)pts[i].games : 1;
		ys[0][i] = pts[i].margin_sum / g;
		ys[1][i] = pts[i].comeback_last / g;
		ys[2][i] = sim_deepfall_len_in_band(&pts[i], 8, 14);
	}
	fig(b);
	lines(b, "Margin, comeback and pacing", knob, x, n, names, (const double *const *)ys, 3,
	      3, true, NULL, 0);
	end_fig(b);

	names[0] = "feel-bads per game";
	for (int i = 0; i < n; i++)
		ys[0][i] = pts[i].games ? (double)pts[i].feel_bads / pts[i].games : 0;
	hline fbh[1] = {{0.1, "0.1", "#e15759"}};
	fig(b);
	lines(b, "Feel-bads (Taken without a Last Stand) per game", knob, x, n, names,
	      (const double *const *)ys, 1, 1, false, fbh, 1);
	end_fig(b);

	for (int s = 0; s < NS; s++)
		free(ys[s]);
	free(x);
}

int sim_deepfall_report(const char *dir, const sim_deepfall_stats *pts, int n, const char *knob,
			const int *mix, int nmix, const df_config *cfg, uint64_t seed, char *err,
			size_t errlen)
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
		     ".heat td{text-align:center;min-width:70px}"
		     "code{background:#f4f4f4}</style></head><body>\n"
		     "<h1>DEEPFALL balance report</h1>\n");
	buf_printf(&b, "<p>%ld games per point, %d seats, seed %llu, strategies rotated over "
		       "the seats (seat s of game i plays the strategy (s + i) mod %d of "
		       "<code>",
		   pts[0].games, pts[0].seats, (unsigned long long)seed, nmix);
	for (int i = 0; i < nmix; i++)
		buf_printf(&b, "%s%s", i ? "," : "", df_strategy_names[mix[i]]);
	buf_puts(&b, "</code>).");
	if (knob)
		buf_printf(&b, " Sweep of <code>%s</code> from %g to %g (%d points).", knob,
			   pts[0].value, pts[n - 1].value, n);
	buf_puts(&b, "</p>\n");
	if (knob)
		sweep(&b, pts, n, knob);
	else
		one_batch(&b, &pts[0], cfg->floors);
	/* The config without "ai": the simulator rotates the mix over the
	 * seats instead of the config's per-seat strategies. */
	cJSON *cj = df_config_json(cfg);
	cJSON_DeleteItemFromObject(cj, "ai");
	char *ct = cJSON_Print(cj);
	buf_puts(&b, "<h2>Config</h2><pre>");
	buf_puts(&b, ct);
	buf_puts(&b, "</pre>\n<p>Definitions: <code>docs/rules/deepfall.md</code> (DF80-DF89); "
		     "knobs: <code>server/games/deepfall/CONFIG.md</code>.</p></body></html>\n");
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
