/*
 * df_ai.c — the four built-in controllers (docs/rules/deepfall.md DF70-DF75):
 * CashOut (cautious Decline), PressOn (engine, persists), WorthyEnd
 * (martyr/diver) and Balanced (adaptive). Each decides on what a player
 * sees: the hands it rolled this round, its symbols after Dread (the same
 * df_turn_totals its act will resolve), the board, the markers, the bags'
 * counts (never their order), the acts others already chose and the Maw.
 * A strategy is two rules: when to press another hand (its risk appetite,
 * a rule on the standing Dread and the next hand's expected faces) and,
 * once it stops, its act (target floor, recruit, exit), judged against how
 * far the Maw may climb this round if the parties still rolling press on
 * (each strategy reads that with its own caution).
 *
 * The small jitter some rules use comes from a generator derived afresh
 * for each call from (seed, decision, seat) with rng_derive_seed, on a
 * stream of its own (the rules use stream 1): a choice is a pure function
 * of the state, so crash recovery, which replays the logged choices without
 * asking the AI, gets the same AI choices afterwards as the crash-free run.
 */
#include "deepfall.h"

/* The AI's stream selector (the rules use 1). */
#define DF_STREAM_AI 2

typedef struct ai_ctx {
	const df_game *g;
	const df_party *pa;
	int seat, F, moves, cost; /* frontier, free steps, Mettle+Cunning per bought step */
	const df_totals *t; /* the turn's totals (the party's, DF34) */
	int falls; /* floors the Maw eats this round, as the strategy reckons */
	int safe;  /* the deepest floor still standing after this round */
	int bank;  /* what a Cash-Out banks now, before this turn's loot */
	bool rng_ready;
	rng r;
} ai_ctx;

/* What every step needs (the press rule reads only this)... */
static void ctx_init(ai_ctx *x, const df_game *g, int seat)
{
	x->g = g;
	x->pa = &g->pl[seat].party;
	x->seat = seat;
	x->F = g->frontier;
	x->t = &x->pa->tot;
	x->rng_ready = false;
}

/* ...and what the act needs besides. */
static void ctx_act(ai_ctx *x)
{
	const df_game *g = x->g;
	x->moves = df_moves(g, x->seat);
	int cost = g->cfg.move_cost -
		   ((df_callings[x->pa->calling].flags & DF_C_CHEAP_MOVES) ? 1 : 0);
	x->cost = cost < 1 ? 1 : cost;
	x->falls = 0;
	x->safe = x->F;
	x->bank = x->pa->unbanked + df_dividend(g, x->seat);
}

/* U(0.75, 1.25) from this decision's own generator. */
static double jitter(ai_ctx *x)
{
	if (!x->rng_ready) {
		uint64_t key = (uint64_t)(uint32_t)x->g->decision << 8 | (uint64_t)x->seat;
		rng_seed(&x->r, rng_derive_seed(x->g->seed, key), DF_STREAM_AI);
		x->rng_ready = true;
	}
	return 0.75 + 0.5 * rng_unit(&x->r);
}

/* ---- pressing (the risk appetite) ---------------------------------------- */

/* The Dread that would stand after one more hand, on average: its Dread and
 * the press's own, less what is left to cancel it (Faith kept, the rest of
 * a Revenant's conversion, the new hand's Faith). The next hand's expected
 * faces: drawn from the draw pile, then from the reshuffled discard when
 * the pile runs short (both piles' counts are public). */
static double standing_after_press(const ai_ctx *x)
{
	const df_game *g = x->g;
	const df_party *pa = x->pa;
	int hs = df_hand_size(g, x->seat);
	int from_draw = hs < pa->n_draw ? hs : pa->n_draw;
	int from_disc = hs - from_draw < pa->n_disc ? hs - from_draw : pa->n_disc;
	double dread = 0, faith = 0;
	if (pa->n_draw) {
		dread = from_draw * DF_DF_DREAD(pa->draw_df) / (6.0 * pa->n_draw);
		faith = from_draw * DF_DF_FAITH(pa->draw_df) / (6.0 * pa->n_draw);
	}
	if (from_disc > 0) {
		dread += from_disc * DF_DF_DREAD(pa->disc_df) / (6.0 * pa->n_disc);
		faith += from_disc * DF_DF_FAITH(pa->disc_df) / (6.0 * pa->n_disc);
	}
	double conv_left = 0;
	if (df_lineages[pa->lineage].flags & DF_L_DREAD_TO_METTLE)
		conv_left = g->cfg.revenant_convert - x->t->to_mettle;
	double add = dread + g->cfg.press_dread - x->t->sym[DF_FAITH] - faith - conv_left;
	return x->t->sym[DF_DREAD] + (add > 0 ? add : 0);
}

/* DF71: press while the next hand is not expected to bring the next Setback
 * within `margin` Dread, up to `hands` hands in all. */
static bool appetite(const ai_ctx *x, int hands, double margin)
{
	if (x->pa->hands >= hands)
		return false;
	int next = (x->t->setbacks + 1) * x->g->cfg.dread_threshold;
	return standing_after_press(x) + margin < next;
}

/* The Steel + Cunning the best room within a step still needs: the
 * cautious bots stop pressing once they can claim it. */
static int want_symbols(const ai_ctx *x)
{
	const df_game *g = x->g;
	int lo = x->pa->floor - 1, hi = x->pa->floor + 1, want = 0, best = -1;
	lo = lo < 1 ? 1 : lo;
	hi = hi > x->F ? x->F : hi;
	for (int f = lo; f <= hi; f++)
		for (int r = 0; r < g->cfg.rooms; r++) {
			const df_room *rm = &g->rooms[(f - 1) * g->cfg.rooms + r];
			int worth = df_room_pays(&g->cfg, rm->value, f);
			if (!rm->alive || rm->act[x->seat] || worth <= best)
				continue;
			int ns = df_threat_for(g, x->seat, rm) - rm->prog_s[x->seat];
			int nc = df_themes[rm->theme].lock - rm->prog_c[x->seat];
			best = worth;
			want = (ns > 0 ? ns : 0) + (nc > 0 ? nc : 0);
		}
	return want;
}

static bool behind(const ai_ctx *x)
{
	const df_game *g = x->g;
	for (int s = 0; s < g->seats; s++)
		if (s != x->seat && g->pl[s].glory > g->pl[x->seat].glory)
			return true;
	return false;
}

static bool press_rule(const ai_ctx *x, int strategy)
{
	int have = x->t->sym[DF_STEEL] + x->t->sym[DF_CUNNING];
	switch (strategy) {
	case DF_AI_CASHOUT: /* presses rarely: only for a claim, well clear of a Setback */
		return x->pa->hands < 2 && have < want_symbols(x) && appetite(x, 2, 1.5);
	case DF_AI_PRESSON: /* presses until the next Setback is likely */
		return appetite(x, 1 + x->g->cfg.max_press, 0);
	case DF_AI_WORTHYEND: /* presses hard: a Setback is a price worth paying */
		return appetite(x, 1 + x->g->cfg.max_press, -1.5);
	default: /* presses moderately, more when behind */
		return behind(x) ? appetite(x, 3, 0.5)
				 : x->pa->hands < 2 && have < want_symbols(x) + 2 &&
					   appetite(x, 2, 1.0);
	}
}

/* ---- the act: how far the Maw may climb ---------------------------------- */

/* The floors the Maw eats this round if each other party still rolling
 * presses `presses` more hands (at most what it has left), each die of them
 * rolling Dread one time in six. */
static void reckon_maw(ai_ctx *x, int presses)
{
	const df_game *g = x->g;
	uint32_t pend = df_pending(g);
	int extra = 0;
	for (int s = 0; s < g->seats; s++) {
		bool rolling = (s != x->seat) & (pend >> s & 1) & df_can_press(g, s);
		int left = g->cfg.max_press + 1 - g->pl[s].party.hands;
		int n = presses < left ? presses : left;
		extra += rolling * n * (g->cfg.press_push + g->cfg.dread_push * df_hand_size(g, s) / 6);
	}
	x->falls = df_maw_falls(g, extra, NULL);
	x->safe = x->F - x->falls;
}

/* ---- the act: where to go ------------------------------------------------- */

/* What a seat needs against each theme, and how strong each rival's
 * markers count, worked out once per act for the floors it weighs. */
typedef struct needs {
	int8_t threat[DF_NTHEME], lock[DF_NTHEME];
	uint8_t dbl[DF_MAX_SEATS]; /* 2 for a rival Warden's active markers */
	bool vault_ok;
} needs;

static void needs_init(const ai_ctx *x, needs *n)
{
	const df_game *g = x->g;
	const df_party *pa = x->pa;
	uint16_t cf = df_callings[pa->calling].flags;
	/* df_threat_for, a denizen's anger worked out once per faction */
	int extra[DF_NDENIZEN];
	for (int d = 0; d < DF_NDENIZEN; d++) {
		int e = (cf & DF_C_CALM_DENIZENS) ? 0 : pa->anger[d] / g->cfg.denizen_step;
		extra[d] = e < g->cfg.denizen_cap ? e : g->cfg.denizen_cap;
	}
	bool smash = df_lineages[pa->lineage].flags & DF_L_IGNORE_THREAT;
	for (int t = 0; t < DF_NTHEME; t++) {
		const df_theme_def *th = &df_themes[t];
		n->threat[t] = (int8_t)(smash ? 0 : th->threat + (th->denizen >= 0 ? extra[th->denizen] : 0));
		n->lock[t] = (int8_t)(th->lock - ((cf & DF_C_LOCK_BONUS) && th->lock ? 1 : 0));
	}
	for (int o = 0; o < DF_MAX_SEATS; o++) {
		const df_party *po = &g->pl[o].party;
		n->dbl[o] = o >= g->seats ? 0
			    : po->active && (df_callings[po->calling].flags & DF_C_DOUBLE_MARKERS)
				    ? 2
				    : 1;
	}
	n->vault_ok = x->t->trinity || (cf & DF_C_SOLO_VAULT);
}

/* What the turn would get on floor f: the best room the symbols left after
 * the steps bought can claim (0.4 of it when a rival's marker is at least
 * as strong), a little for progress toward a room it cannot claim yet, the
 * loot, and the dividend of new depth (weighted by depth_bias), less a
 * little per step bought. -1 when f is out of reach.
 *
 * Each room's share of its worth is picked from one table by an index
 * worked out with selects, not branches: whether a room is open, claimable
 * or outbid are dice outcomes a branch would mispredict. A room the party
 * cannot take (collapsed, consumed, already its own) gets the share 0,
 * which the maximum ignores. */
static double floor_value(const ai_ctx *x, const needs *n, int f, double depth_bias,
			  double to_beat)
{
	/* Progress toward a room it cannot claim: a fraction for every symbol
	 * put in (by shortfall 0..7); then outbid, claimable, closed. */
	static const double share[11] = {0.15, 0.075, 0.05,  0.0375, 0.03, 0.025,
					  0.0214, 0.01875, 0.4, 1.0,    0.0};
	enum { OUTBID = 8, CLAIM = 9, CLOSED = 10 };
	const df_game *g = x->g;
	const df_party *pa = x->pa;
	const int me = x->seat;
	int dist = f > pa->floor ? f - pa->floor : pa->floor - f;
	int bought = dist > x->moves ? dist - x->moves : 0;
	int pay = bought * x->cost, m = x->t->sym[DF_METTLE], c = x->t->sym[DF_CUNNING];
	if (pay > m + c)
		return -1;
	c -= pay > m ? pay - m : 0;
	int s = x->t->sym[DF_STEEL];
	int mine = 1 + s + c;
	double loot = x->t->sym[DF_GREED] * df_depth_scale(&g->cfg, f, g->cfg.loot_per_greed);
	double delve = f > pa->deepest ? (f - pa->deepest) * g->cfg.cash_dividend : 0;
	/* No room gives more than it pays, and none pays more than a room
	 * worth top[f] (what a room pays grows with its worth): when even that
	 * cannot beat the best floor found, the rooms need no look. */
	double most = df_room_pays(&g->cfg, g->top[f], f) + loot + depth_bias * delve - 0.5 * bought;
	if (most < to_beat)
		return most;
	double best = 0;
	const df_room *rooms = &g->rooms[(f - 1) * g->cfg.rooms];
	for (int r = 0; r < g->cfg.rooms; r++) {
		const df_room *rm = &rooms[r];
		int worth = df_room_pays(&g->cfg, rm->value, f); /* DF56, DF59 */
		int ns = n->threat[rm->theme] - rm->prog_s[me];
		int nc = n->lock[rm->theme] - rm->prog_c[me];
		/* every seat slot, unused ones empty: a fixed count the compiler
		 * can work in vectors */
		int opp = 0;
		for (int o = 0; o < DF_MAX_SEATS; o++) {
			int st = (rm->act[o] * n->dbl[o] + rm->fallen[o]) * (o != me);
			opp = st > opp ? st : opp;
		}
		int bid = mine;
		if (g->cfg.strength_surplus)
			bid -= (ns > 0 ? ns : 0) + (nc > 0 ? nc : 0);
		bid *= n->dbl[me];
		int shortfall = (ns - s) * (ns > s) + (nc - c) * (nc > c);
		bool claim = (s >= ns) & (c >= nc) & ((rm->theme != DF_VAULT) | n->vault_ok);
		bool open = (rm->alive != 0) & (rm->act[me] == 0);
		int k = shortfall < 7 ? shortfall : 7;
		k = claim ? (opp >= bid ? OUTBID : CLAIM) : k;
		k = open ? k : CLOSED;
		double v = worth * share[k];
		best = v > best ? v : best;
	}
	return best + loot + depth_bias * delve - 0.5 * bought;
}

/* The best floor in [lo, hi] within reach (free steps and at most two
 * steps the turn's Mettle and Cunning buy), the shallowest of equals, or
 * the party's own floor when none is worth more than -1. The floors are
 * weighed from the deepest up, where the best usually is, so that
 * floor_value passes over the shallower ones that cannot beat it. */
static int best_floor(const ai_ctx *x, int lo, int hi, double depth_bias)
{
	int buy = (x->t->sym[DF_METTLE] + x->t->sym[DF_CUNNING]) / x->cost;
	int reach = x->moves + (buy < 2 ? buy : 2); /* at most two steps bought */
	int fl = x->pa->floor;
	lo = lo < fl - reach ? fl - reach : lo;
	hi = hi > fl + reach ? fl + reach : hi;
	lo = lo < 1 ? 1 : lo;
	hi = hi > x->F ? x->F : hi;
	int best = x->pa->floor <= x->F ? x->pa->floor : x->F;
	double best_v = -1;
	needs n;
	if (lo <= hi)
		needs_init(x, &n);
	for (int f = hi; f >= lo; f--) {
		double v = floor_value(x, &n, f, depth_bias, best_v);
		if (v >= best_v && v > -1) {
			best_v = v;
			best = f;
		}
	}
	return best;
}

/* The safe floors: those still standing after this round's collapses. */
static int safe_floor(const ai_ctx *x, double depth_bias)
{
	return best_floor(x, 1, x->safe, depth_bias);
}

/* ---- the act: the four strategies ----------------------------------------- */

static int burst(const ai_ctx *x)
{
	int we = x->g->cfg.worthy_factor * x->pa->deepest;
	if (df_callings[x->pa->calling].flags & DF_C_WORTHY_BONUS)
		we = we * 3 / 2;
	return we;
}

/* The party cannot get off the falling floors: Last Stand if offered and
 * the burst beats the bank by `edge`, else Cash-Out. */
static df_act leave(const ai_ctx *x, df_act a, double edge)
{
	if (df_stand_offered_t(x->g, x->seat, x->t) && burst(x) > x->bank * edge) {
		a.target = x->F;
		a.exit = DF_LAST_STAND;
	} else {
		a.exit = DF_CASH_OUT;
	}
	return a;
}

/* After the Maw is reckoned: aim at the floor safe for `depth_bias`, and
 * leave (a Last Stand past `edge`) when the party must. True when leaving
 * settles the act. */
static bool aim_or_leave(const ai_ctx *x, df_act *a, double depth_bias, double edge)
{
	a->target = safe_floor(x, depth_bias);
	if (!df_must_leave(x->g, x->seat, x->t, x->falls))
		return false;
	*a = leave(x, *a, edge);
	return true;
}

/* DF72 */
static df_act cashout(ai_ctx *x)
{
	const df_game *g = x->g;
	df_act a = {0, 1, DF_PERSIST};
	reckon_maw(x, g->cfg.max_press); /* fears the worst */
	if (aim_or_leave(x, &a, 1.0, 1.5))
		return a;
	if (x->bank >= g->cfg.cash_bar * jitter(x) || (x->falls && x->bank > 0 && x->safe <= 1))
		a.exit = DF_CASH_OUT;
	return a;
}

/* DF73 */
static df_act presson(ai_ctx *x)
{
	df_act a = {0, 1, DF_PERSIST};
	reckon_maw(x, 2);
	aim_or_leave(x, &a, 0.5, 1.0);
	return a;
}

/* DF74 */
static df_act worthyend(ai_ctx *x)
{
	const df_game *g = x->g;
	df_act a = {x->F, 1, DF_PERSIST};
	reckon_maw(x, 2);
	/* Deep and able to stand: declare it and ride the frontier down. */
	if (df_stand_offered_t(g, x->seat, x->t) && x->pa->deepest >= x->F - 1) {
		a.exit = DF_LAST_STAND;
		return a;
	}
	if (!x->falls) {
		a.target = best_floor(x, x->F - 1, x->F, 1.0);
	} else {
		if (aim_or_leave(x, &a, 1.0, 0.5))
			return a;
		if (x->bank >= 2 * g->cfg.cash_bar)
			a.exit = DF_CASH_OUT;
	}
	return a;
}

/* DF75 */
static df_act balanced(ai_ctx *x)
{
	const df_game *g = x->g;
	df_act a = {0, 1, DF_PERSIST};
	bool trailing = behind(x);
	reckon_maw(x, trailing ? 2 : 3);
	double bar = g->cfg.cash_bar * jitter(x);
	if (aim_or_leave(x, &a, 0.5, trailing ? 0.8 : 1.2))
		return a;
	if (x->falls && x->bank >= bar / 2 && x->safe <= 2)
		a.exit = DF_CASH_OUT;
	else if (x->bank >= 2 * bar)
		a.exit = DF_CASH_OUT;
	else if (trailing && df_stand_offered_t(g, x->seat, x->t) && x->pa->deepest >= x->F - 1 &&
		 burst(x) > x->bank) {
		a.target = x->F;
		a.exit = DF_LAST_STAND;
	}
	return a;
}

/* The act of a party that stopped pressing, by its strategy. */
static df_act act(ai_ctx *x, int strategy)
{
	if (x->pa->last_stand) /* whatever the strategy: it rides the frontier into the Maw */
		return (df_act){x->F, 1, DF_PERSIST};
	switch (strategy) {
	case DF_AI_CASHOUT:
		return cashout(x);
	case DF_AI_PRESSON:
		return presson(x);
	case DF_AI_WORTHYEND:
		return worthyend(x);
	default:
		return balanced(x);
	}
}

game_choice df_ai_choose(const df_game *g, int seat, int strategy)
{
	if (g->over || seat < 0 || seat >= g->seats || !g->pl[seat].party.active ||
	    g->pl[seat].party.acted)
		return GAME_NO_CHOICE; /* not pending */
	ai_ctx x;
	ctx_init(&x, g, seat);
	if (df_can_press(g, seat) && press_rule(&x, strategy))
		return DF_PRESS;
	ctx_act(&x);
	df_act a = act(&x, strategy);
	if (a.target < 1)
		a.target = 1;
	if (a.target > g->frontier)
		a.target = g->frontier;
	if (a.exit == DF_LAST_STAND && !df_stand_offered_t(g, seat, x.t))
		a.exit = DF_PERSIST;
	return df_act_pack(a);
}
