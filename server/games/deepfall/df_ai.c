/*
 * df_ai.c — the four controllers of seed 001 B6, as the kind's AI: CashOut
 * (cautious Decline), PressOn (engine, persists), WorthyEnd (martyr/diver)
 * and Balanced (adaptive). Each reads only public state (board, markers,
 * the Maw, bag compositions — never the draw order) and draws its small
 * jitter from a generator of its own, so the rules never see its choices'
 * randomness.
 *
 * That generator is derived afresh for each call: seeded with
 * splitmix64(seed + (round << 8 | seat)) on stream DF_STREAM_AI. splitmix64
 * is a bijection that mixes well, so every (round, seat) of a game gets a
 * distinct, unrelated seed, apart from the rules stream (the raw seed on
 * stream 1). A choice is thus a pure function of the state: crash recovery,
 * which replays the logged choices without asking the AI, gets the same AI
 * choices afterwards as the crash-free run.
 *
 * Shared reasoning: the Maw's speed next round is estimated from last
 * round's; "danger" means the frontier floor will probably collapse at the
 * end of this round, so a party ending its turn there is Taken.
 */
#include "deepfall.h"

/* The AI's stream selector (the rules use 1; 2 was the old running stream). */
#define DF_STREAM_AI 2

typedef struct ai_ctx {
	df_game *g;
	rng r;             /* this decision's draws (see the top) */
	double depth_bias; /* weight of the dividend a deeper floor adds */
	int seat, F, moves, hs, bag;
	double e[DF_NFACES]; /* expected symbols per die drawn */
	bool danger;         /* the frontier probably collapses this round */
	bool free_stand;     /* a Last Stand would cost nothing */
	int bank;            /* what a Cash-Out banks now */
} ai_ctx;

int df_ai_speed_estimate(const df_game *g)
{
	const df_config *c = &g->cfg;
	int base = c->maw_base + c->maw_accel * g->round;
	int est = g->last_speed + c->maw_accel;
	return est > base ? est : base;
}

static void ctx_init(ai_ctx *x, df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	x->g = g;
	uint64_t key = g->seed + ((uint64_t)(uint32_t)g->round << 8 | (uint64_t)seat);
	rng_seed(&x->r, rng_splitmix64(&key), DF_STREAM_AI);
	x->depth_bias = 0;
	x->seat = seat;
	x->F = g->frontier;
	x->moves = df_moves(g, seat);
	x->hs = df_hand_size(g, seat);
	x->bag = df_bag_size(pa);
	int n[DF_NFACES] = {0};
	for (int i = 0; i < pa->n_draw; i++)
		for (int k = 0; k < 6; k++)
			n[df_dice[pa->draw[i]].face[k]]++;
	for (int i = 0; i < pa->n_disc; i++)
		for (int k = 0; k < 6; k++)
			n[df_dice[pa->disc[i]].face[k]]++;
	for (int f = 0; f < DF_NFACES; f++)
		x->e[f] = x->bag ? n[f] / (6.0 * x->bag) : 0;
	/* A 10% safety margin on the estimate: feel-bads cost more than a turn. */
	x->danger = g->accum + df_ai_speed_estimate(g) >= 850 && g->frontier >= 1;
	x->free_stand = (df_callings[pa->calling].flags & DF_C_FREE_STAND) ||
			df_holds_stand_room(g, seat);
	x->bank = pa->unbanked + df_dividend(g, seat);
}

static int dice_for(const ai_ctx *x, int press)
{
	int d = x->hs * (1 + press);
	return d < x->bag ? d : x->bag;
}

/* How much a turn on floor `f` with `press` looks worth: the best room to
 * claim (value over a squared shortfall, halved if a rival holds it
 * strongly) plus the expected loot. */
static double floor_score(const ai_ctx *x, int f, int press)
{
	df_game *g = x->g;
	const df_party *pa = &g->pl[x->seat].party;
	const df_lineage_def *lin = &df_lineages[pa->lineage];
	uint16_t cf = df_callings[pa->calling].flags;
	int dice = dice_for(x, press);
	double es = x->e[DF_STEEL] * dice + lin->steel, ec = x->e[DF_CUNNING] * dice + lin->cunning;
	double best = 0;
	for (int r = 0; r < g->cfg.rooms; r++) {
		const df_room *rm = df_room_at(g, f, r);
		if (!rm->alive || rm->act[x->seat])
			continue;
		int lock = df_themes[rm->theme].lock;
		double ns = df_threat_for(g, x->seat, rm) - rm->prog_s[x->seat];
		double nc = lock - rm->prog_c[x->seat] - ((cf & DF_C_LOCK_BONUS) && lock ? 1 : 0);
		double shortfall = (ns > es ? ns - es : 0) + (nc > ec ? nc - ec : 0);
		if (rm->theme == DF_VAULT && !(cf & DF_C_SOLO_VAULT))
			shortfall += 0.7;
		double mine = 1 + (es + ec - (ns > 0 ? ns : 0) - (nc > 0 ? nc : 0));
		int opp = 0;
		for (int s = 0; s < g->seats; s++)
			if (s != x->seat) {
				int st = df_room_strength(g, rm, s);
				opp = st > opp ? st : opp;
			}
		double v = rm->value / (1 + shortfall * shortfall);
		if (opp >= mine)
			v *= 0.5;
		best = v > best ? v : best;
	}
	double delve = f > pa->deepest ? (f - pa->deepest) * g->cfg.cash_dividend : 0;
	return best + x->e[DF_GREED] * dice * df_depth_scale(&g->cfg, f, g->cfg.loot_per_greed) +
	       x->depth_bias * delve;
}

/* The best floor in [lo, hi] counting the steps we would have to buy. */
static int best_floor(const ai_ctx *x, int lo, int hi, int press)
{
	const df_party *pa = &x->g->pl[x->seat].party;
	if (hi > x->F)
		hi = x->F;
	if (lo < 1)
		lo = 1;
	if (hi < lo)
		hi = lo;
	int best = hi;
	double best_sc = -1e9;
	for (int f = lo; f <= hi; f++) {
		int dist = f > pa->floor ? f - pa->floor : pa->floor - f;
		int bought = dist > x->moves ? dist - x->moves : 0;
		if (bought > 2)
			continue;
		double sc = floor_score(x, f, press) - 2.5 * bought;
		if (sc > best_sc) {
			best_sc = sc;
			best = f;
		}
	}
	return best;
}

/* The highest floor the party can surely reach this turn (free steps). */
static int can_reach_up(const ai_ctx *x)
{
	int f = x->g->pl[x->seat].party.floor - x->moves;
	return f < 1 ? 1 : f;
}

static int press_for(const ai_ctx *x, int want)
{
	int p = want < x->g->cfg.max_press ? want : x->g->cfg.max_press;
	while (p > 0 && x->hs * p >= x->bag) /* a press must still draw a die */
		p--;
	return p;
}

/* The most hands (up to `want` presses) whose expected standing Dread stays
 * `margin` below a Setback: the cautious bots' "presses rarely". */
static int press_safe(const ai_ctx *x, int want, double margin)
{
	const df_game *g = x->g;
	const df_party *pa = &g->pl[x->seat].party;
	double cancel = 0;
	if (df_lineages[pa->lineage].flags & DF_L_DREAD_TO_METTLE)
		cancel += g->cfg.revenant_convert;
	if (df_callings[pa->calling].flags & DF_C_DREAD_CANCEL)
		cancel += 1;
	int p = press_for(x, want);
	while (p > 0) {
		double standing = dice_for(x, p) * (x->e[DF_DREAD] - x->e[DF_FAITH]) +
				  p * g->cfg.press_dread - cancel;
		if (standing <= g->cfg.dread_threshold - margin)
			break;
		p--;
	}
	return p;
}

static double jitter(ai_ctx *x) { return 0.75 + 0.5 * rng_unit(&x->r); }

static df_choice cashout(ai_ctx *x)
{
	df_game *g = x->g;
	df_choice c = {0};
	x->depth_bias = 1; /* the dividend pays for the floors delved */
	c.press = press_safe(x, 1, 1.5);
	c.target = best_floor(x, 1, x->F - (x->danger ? 1 : 0), c.press);
	c.recruit = 1;
	bool doomed = x->danger && (x->F == 1 || can_reach_up(x) >= x->F);
	bool near = x->F - c.target <= g->cfg.safe_margin;
	const df_party *pa = &g->pl[x->seat].party;
	if (pa->last_stand) {
		c.target = x->F;
		return c;
	}
	/* "Rarely sets Last Stand": only doomed anyway, holding a Vault or
	 * Throne, and when the burst beats the bank. */
	if (x->danger && df_holds_stand_room(g, x->seat) &&
	    g->cfg.worthy_factor * (pa->deepest > x->F ? pa->deepest : x->F) > x->bank) {
		c.target = x->F;
		c.exit = DF_LAST_STAND;
		return c;
	}
	/* Bank as soon as it is worth it, or when the Maw is within the safe
	 * margin of where we will stand and about to move. */
	if (x->bank >= g->cfg.cash_bar * jitter(x) || doomed || (near && x->danger && x->bank > 0))
		c.exit = DF_CASH_OUT;
	return c;
}

static df_choice presson(ai_ctx *x)
{
	df_game *g = x->g;
	df_choice c = {0};
	c.press = press_for(x, g->cfg.max_press);
	c.target = best_floor(x, 1, x->F - (x->danger ? 1 : 0), c.press);
	c.recruit = 1;
	/* Cash Out only when forced: the Maw is here and there is no way up. */
	if (x->danger && (x->F == 1 || can_reach_up(x) >= x->F || c.target >= x->F))
		c.exit = x->free_stand ? DF_LAST_STAND : DF_CASH_OUT;
	return c;
}

static df_choice worthyend(ai_ctx *x)
{
	df_game *g = x->g;
	const df_party *pa = &g->pl[x->seat].party;
	df_choice c = {0};
	c.press = press_for(x, g->cfg.max_press);
	c.recruit = 1;
	c.target = x->F;
	if (pa->last_stand)
		return c; /* ride the floor into the Maw */
	double mettle = x->e[DF_METTLE] * dice_for(x, c.press);
	if (x->free_stand) {
		c.exit = DF_LAST_STAND;
	} else if (x->danger) {
		/* Not standing yet and the Maw is here: get out with the loot. */
		c.target = best_floor(x, 1, x->F - 1, c.press);
		bool stuck = x->F == 1 || can_reach_up(x) >= x->F;
		c.exit = stuck || x->bank >= 2 * g->cfg.cash_bar ? DF_CASH_OUT : DF_PERSIST;
	} else if (mettle >= g->cfg.last_stand_cost + 1.0 && pa->deepest >= x->F - 1) {
		c.exit = DF_LAST_STAND;
	}
	return c;
}

static df_choice balanced(ai_ctx *x)
{
	df_game *g = x->g;
	const df_player *me = &g->pl[x->seat];
	const df_party *pa = &me->party;
	int lead = 0;
	for (int s = 0; s < g->seats; s++)
		if (s != x->seat && g->pl[s].glory > lead)
			lead = g->pl[s].glory;
	bool behind = me->glory < lead;
	int held = 0;
	for (int i = 0; i < x->F * g->cfg.rooms; i++)
		if (g->rooms[i].alive && g->rooms[i].act[x->seat])
			held += g->rooms[i].value;
	int we = g->cfg.worthy_factor * pa->deepest;
	if (df_callings[pa->calling].flags & DF_C_WORTHY_BONUS)
		we = we * 3 / 2;
	df_choice c = {0};
	x->depth_bias = 0.5;
	c.press = press_safe(x, behind ? 2 : 1, behind ? 0.5 : 1.0);
	c.recruit = 1;
	if (pa->last_stand) {
		c.target = x->F;
		return c;
	}
	double bar = g->cfg.cash_bar * jitter(x);
	if (x->danger) {
		bool stuck = x->F == 1 || can_reach_up(x) >= x->F;
		if (x->free_stand && we > x->bank + held / 2) {
			c.target = x->F;
			c.exit = DF_LAST_STAND;
		} else if (stuck || x->bank >= bar / 2) {
			c.target = best_floor(x, 1, x->F - 1, c.press);
			c.exit = DF_CASH_OUT;
		} else {
			c.target = best_floor(x, 1, x->F - 1, c.press);
		}
		return c;
	}
	c.target = best_floor(x, 1, x->F, c.press);
	if ((x->F - c.target <= g->cfg.safe_margin && x->bank >= bar) || x->bank >= 2 * bar)
		c.exit = DF_CASH_OUT;
	else if (x->free_stand && behind && pa->deepest >= x->F - 1)
		c.exit = DF_LAST_STAND;
	return c;
}

game_choice df_ai_choose(df_game *g, int seat, int strategy)
{
	ai_ctx x;
	ctx_init(&x, g, seat);
	df_choice c;
	switch (strategy) {
	case DF_AI_CASHOUT:
		c = cashout(&x);
		break;
	case DF_AI_PRESSON:
		c = presson(&x);
		break;
	case DF_AI_WORTHYEND:
		c = worthyend(&x);
		break;
	default:
		c = balanced(&x);
		break;
	}
	if (c.target < 1)
		c.target = 1;
	if (c.target > g->frontier)
		c.target = g->frontier;
	return df_choice_pack(c);
}
