/*
 * df_rules.c — DEEPFALL's turn (docs/rules/deepfall.md DF20-DF55): drafting
 * a company, the dice bag, rolling hands, the symbols a turn has to spend,
 * Dread and Setbacks, moving, claiming with variable strength and assault
 * progress, loot, healing, recruiting, and the exits a turn can take (Cash
 * Out, Last Stand). The round engine is in df_round.c; the Maw and scoring
 * in df_maw.c.
 *
 * An act resolves, at the end of the round, in this order (DF34): Dread
 * and its Setbacks, the Last Stand's price, the move toward the target
 * floor (free steps, then steps bought with Mettle, then Cunning), the
 * claim on the floor reached, loot, a Hierophant's heal, the recruit, the
 * hand to the discard pile, then a Cash-Out. Nothing in it draws from the
 * rng and nothing another party does changes it, so what an act will do is
 * known from the view when the seat chooses it; only the Maw is not.
 */
#include "deepfall.h"

#include <stdio.h>
#include <string.h>

/* ---- the rooms a party holds ------------------------------------------ */

bool df_holds_stand_room(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	for (int w = 0; w < (int)(sizeof pa->claimed / sizeof pa->claimed[0]); w++)
		for (uint64_t m = pa->claimed[w]; m; m &= m - 1) {
			const df_room *rm = &g->rooms[w * 64 + __builtin_ctzll(m)];
			if (rm->alive && rm->act[seat] &&
			    (rm->theme == DF_VAULT || rm->theme == DF_THRONE))
				return true;
		}
	return false;
}

/* ---- the bag (DF25: without replacement, the discard reshuffled) ------- */

/* Fisher–Yates over a pile of dice, drawing exactly as rng_shuffle does
 * (one rng_below(i) for i = n .. 2), without its element-size generality:
 * the simulator shuffles hundreds of piles a second. */
static void shuffle_pile(rng *r, uint8_t *pile, int n)
{
	for (int i = n; i > 1; i--) {
		uint32_t j = rng_below(r, (uint32_t)i);
		uint8_t t = pile[j];
		pile[j] = pile[i - 1];
		pile[i - 1] = t;
	}
}

int df_bag_draw(df_game *g, df_party *pa, uint8_t *die)
{
	if (pa->n_draw == 0) {
		if (pa->n_disc == 0)
			return 0;
		memcpy(pa->draw, pa->disc, pa->n_disc);
		pa->n_draw = pa->n_disc;
		pa->n_disc = 0;
		pa->draw_df = pa->disc_df;
		pa->disc_df = 0;
		shuffle_pile(&g->rules, pa->draw, pa->n_draw);
	}
	*die = pa->draw[--pa->n_draw];
	pa->draw_df = (uint16_t)(pa->draw_df - df_die_df(*die));
	return 1;
}

/* ---- drafting (DF20, DF23) ---------------------------------------------- */

void df_draft(df_game *g, int seat, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	int first = pl->parties == 0;
	memset(pa, 0, sizeof *pa);
	pa->active = 1;
	pa->lineage = (uint8_t)rng_below(&g->rules, DF_NLINEAGE);
	pa->calling = (uint8_t)rng_below(&g->rules, DF_NCALLING);
	const df_lineage_def *lin = &df_lineages[pa->lineage];
	for (int d = 0; d < DF_NDIE; d++)
		for (int k = 0; k < lin->bag[d]; k++) {
			pa->draw[pa->n_draw++] = (uint8_t)d;
			pa->draw_df = (uint16_t)(pa->draw_df + df_die_df(d));
		}
	shuffle_pile(&g->rules, pa->draw, pa->n_draw);
	/* DF23: fresh parties drop in near the frontier; the first at 1. */
	int f = first ? 1 : g->frontier - g->cfg.reentry_gap;
	pa->floor = pa->deepest = pa->entry = (uint8_t)(f < 1 ? 1 : f);
	for (int i = 0; i < g->cfg.floors * g->cfg.rooms; i++)
		g->rooms[i].prog_s[seat] = g->rooms[i].prog_c[seat] = 0;
	pl->parties++;
	uint8_t *n = &pl->companies[pa->lineage * DF_NCALLING + pa->calling];
	if (*n < 255)
		(*n)++;
	if (pa->deepest > pl->deepest)
		pl->deepest = pa->deepest;
	game_emit(evs, DF_EV_DRAFT, seat, pa->lineage, pa->calling, pa->floor);
}

/* ---- rolling (DF31, DF32) ----------------------------------------------- */

void df_roll_hand(df_game *g, int seat, game_events *evs)
{
	df_party *pa = &g->pl[seat].party;
	int hs = df_hand_size(g, seat), n = 0;
	uint8_t faces[DF_NFACES] = {0};
	for (int i = 0; i < hs; i++) {
		uint8_t d;
		if (!df_bag_draw(g, pa, &d))
			break;
		pa->hand[pa->n_hand++] = d;
		faces[df_dice[d].face[rng_below(&g->rules, 6)]]++;
		n++;
	}
	for (int f = 0; f < DF_NFACES; f++)
		pa->rolled[f] = (uint8_t)(pa->rolled[f] + faces[f]);
	pa->hands++;
	df_turn_totals(g, seat, &pa->tot);
	g->round_dread += faces[DF_DREAD]; /* DF60: every Dread rolled feeds the Maw */
	if (evs) {
		int32_t packed = 0;
		for (int f = 0; f < DF_NFACES; f++)
			packed |= faces[f] << (5 * f);
		game_emit(evs, DF_EV_ROLL, seat, packed, pa->hands, n);
	}
}

/* ---- the turn's symbols (DF40-DF42) ------------------------------------- */

/* Written with selects rather than branches where the outcome is a die's:
 * the simulator computes these totals a hundred times a game, and a
 * mispredicted branch costs more than the few operations it skips. */
void df_turn_totals(const df_game *g, int seat, df_totals *t)
{
	const df_party *pa = &g->pl[seat].party;
	const df_lineage_def *lin = &df_lineages[pa->lineage];
	uint16_t cf = df_callings[pa->calling].flags;
	int sym[DF_NFACES]; /* worked out here, stored in *t at the end: *t
			     * may lie in the game, and every store there
			     * would be reread */
	for (int f = 0; f < DF_NFACES; f++)
		sym[f] = pa->rolled[f];
	bool trinity = (sym[DF_STEEL] > 0) & (sym[DF_CUNNING] > 0) & (sym[DF_FAITH] > 0);
	int presses = pa->hands > 1 ? pa->hands - 1 : 0;
	sym[DF_DREAD] += presses * g->cfg.press_dread; /* greed stacks the peril */
	int rolled_dread = sym[DF_DREAD];
	const int8_t mods[3] = {lin->steel, lin->cunning, lin->faith};
	for (int f = 0; f < 3; f++) {
		sym[f] += mods[f];
		sym[f] = sym[f] < 0 ? 0 : sym[f];
	}
	/* DF41: Catan production from every held room whose symbol was
	 * rolled (a room producing nothing adds to a spare slot). */
	int prod[DF_NFACES + 1] = {0}, got[DF_NFACES + 1] = {0};
	for (int f = 0; f < DF_NFACES; f++)
		got[f] = pa->rolled[f] > 0;
	for (int w = 0; w < (int)(sizeof pa->claimed / sizeof pa->claimed[0]); w++)
		for (uint64_t m = pa->claimed[w]; m; m &= m - 1) {
			const df_room *rm = &g->rooms[w * 64 + __builtin_ctzll(m)];
			int p = df_themes[rm->theme].produces;
			p = p < 0 ? DF_NFACES : p;
			prod[p] += (rm->act[seat] != 0) & (rm->alive != 0) & got[p];
		}
	for (int f = 0; f < DF_NFACES; f++)
		sym[f] += prod[f] * g->cfg.production;
	/* DF42: Revenant conversion, the Hierophant's cancel, then Faith. */
	int dread = sym[DF_DREAD];
	int rc = g->cfg.revenant_convert;
	int conv = (lin->flags & DF_L_DREAD_TO_METTLE) ? (dread < rc ? dread : rc) : 0;
	dread -= conv;
	sym[DF_METTLE] += conv;
	int cancel = (cf & DF_C_DREAD_CANCEL) && dread > 0;
	dread -= cancel;
	int f = dread < sym[DF_FAITH] ? dread : sym[DF_FAITH];
	sym[DF_FAITH] -= f;
	dread -= f;
	cancel += f;
	sym[DF_DREAD] = dread;
	for (int k = 0; k < DF_NFACES; k++)
		t->sym[k] = sym[k];
	t->trinity = trinity;
	t->rolled_dread = rolled_dread;
	t->cancelled = cancel;
	t->to_mettle = conv;
	t->setbacks = dread / g->cfg.dread_threshold;
}

/* ---- Setbacks (DF43) ---------------------------------------------------- */

void df_setback(df_game *g, int seat, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	uint16_t lf = df_lineages[pa->lineage].flags;
	pl->setbacks++;
	if (lf & DF_L_SETBACK_RESIST) {
		/* Golem-born "rarely loses dice": odd Setbacks are shrugged off. */
		if (pa->golem_setbacks++ % 2 == 0) {
			game_emit(evs, DF_EV_SETBACK, seat, 0, 0, 1);
			return;
		}
	}
	int hits = (lf & DF_L_SETBACK_DOUBLE) ? 2 : 1;
	int dice = 0, loot = 0;
	for (int h = 0; h < hits; h++) {
		if (pa->n_hand > 0 && df_bag_size(pa) + pa->n_hand > g->cfg.min_bag) {
			/* The die goes to the wound slot (a Hierophant may heal it). */
			pa->wound[pa->n_wound++] = pa->hand[--pa->n_hand];
			dice++;
		} else {
			int l = pa->unbanked < g->cfg.setback_loot ? pa->unbanked
								   : g->cfg.setback_loot;
			pa->unbanked -= l;
			loot += l;
		}
	}
	game_emit(evs, DF_EV_SETBACK, seat, dice, loot, 0);
}

/* ---- claiming (DF45-DF47) ----------------------------------------------- */

/* A claim's marker strength (DF46): 1 + every Steel and Cunning it took,
 * assault progress included; with strength_surplus only what went beyond
 * the room's need counts. */
static int claim_strength(const df_game *g, int spent, int need)
{
	int st = 1 + (g->cfg.strength_surplus ? spent - need : spent);
	return st > 250 ? 250 : st < 1 ? 1 : st;
}

void df_claim(df_game *g, int seat, int *tot, bool trinity, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	uint16_t cf = df_callings[pa->calling].flags;
	/* df_threat_for, a denizen's anger worked out once per faction (slot
	 * 0: a room of no faction); then every room weighed with selects, not
	 * branches on what the dice left (see df_turn_totals). */
	int anger[DF_NDENIZEN + 1] = {0};
	for (int d = 0; d < DF_NDENIZEN && !(cf & DF_C_CALM_DENIZENS); d++) {
		int e = pa->anger[d] / g->cfg.denizen_step;
		anger[d + 1] = e < g->cfg.denizen_cap ? e : g->cfg.denizen_cap;
	}
	bool smash = df_lineages[pa->lineage].flags & DF_L_IGNORE_THREAT;
	bool vault_any = trinity || (cf & DF_C_SOLO_VAULT);
	bool lock_bonus = cf & DF_C_LOCK_BONUS;
	int best = -1, best_val = -1, target = -1, target_val = -1;
	for (int r = 0; r < g->cfg.rooms; r++) {
		const df_room *rm = df_room_at(g, pa->floor, r);
		const df_theme_def *th = &df_themes[rm->theme];
		bool open = (rm->alive != 0) & (rm->act[seat] == 0);
		bool top = open & (rm->value > target_val);
		target = top ? r : target;
		target_val = top ? rm->value : target_val;
		int threat = smash ? 0 : th->threat + anger[th->denizen + 1];
		int have_s = tot[DF_STEEL] + rm->prog_s[seat];
		int have_c = tot[DF_CUNNING] + rm->prog_c[seat] + (lock_bonus & (th->lock > 0));
		bool ok = open & (rm->value > best_val) & (have_s >= threat) & (have_c >= th->lock) &
			  ((rm->theme != DF_VAULT) | vault_any);
		best = ok ? r : best;
		best_val = ok ? rm->value : best_val;
	}
	if (best >= 0) {
		df_room *rm = df_room_at(g, pa->floor, best);
		int lock = df_themes[rm->theme].lock;
		int bonus = (cf & DF_C_LOCK_BONUS) && lock > 0 ? 1 : 0;
		int need_s = df_threat_for(g, seat, rm), need_c = lock - bonus;
		int spent = tot[DF_STEEL] + tot[DF_CUNNING] + rm->prog_s[seat] + rm->prog_c[seat];
		int need = need_s + (need_c > 0 ? need_c : 0);
		rm->act[seat] = (uint8_t)claim_strength(g, spent, need);
		rm->claimed |= (uint16_t)(1u << seat);
		df_mark_claim(pa, (pa->floor - 1) * g->cfg.rooms + best);
		rm->prog_s[seat] = rm->prog_c[seat] = 0;
		tot[DF_STEEL] = tot[DF_CUNNING] = 0;
		int loot = 0;
		if (cf & DF_C_PILLAGE)
			loot += g->cfg.reaver_loot;
		if ((df_lineages[pa->lineage].flags & DF_L_COMBAT_LOOT) &&
		    (rm->theme == DF_DEN || rm->theme == DF_FORGE))
			loot += g->cfg.gnoll_loot;
		loot = df_depth_scale(&g->cfg, pa->floor, loot);
		pa->unbanked += loot;
		int d = df_themes[rm->theme].denizen;
		if (d >= 0 && !(cf & DF_C_CALM_DENIZENS) && pa->anger[d] < 255)
			pa->anger[d]++;
		pl->claims++;
		game_emit(evs, DF_EV_CLAIM, seat, (pa->floor - 1) * g->cfg.rooms + best,
			rm->act[seat], loot);
		return;
	}
	if (tot[DF_STEEL] + tot[DF_CUNNING] == 0)
		return;
	if (target >= 0) {
		/* DF47: a near miss is never a zero — unmet symbols accumulate. */
		df_room *rm = df_room_at(g, pa->floor, target);
		int s = rm->prog_s[seat] + tot[DF_STEEL], c = rm->prog_c[seat] + tot[DF_CUNNING];
		rm->prog_s[seat] = (uint8_t)(s > 200 ? 200 : s);
		rm->prog_c[seat] = (uint8_t)(c > 200 ? 200 : c);
		game_emit(evs, DF_EV_ASSAULT, seat, (pa->floor - 1) * g->cfg.rooms + target,
			rm->prog_s[seat], rm->prog_c[seat]);
	} else {
		/* Every room here is ours: reinforce the weakest (a live bid). */
		int weak = -1;
		for (int r = 0; r < g->cfg.rooms; r++) {
			df_room *rm = df_room_at(g, pa->floor, r);
			if (rm->alive && rm->act[seat] &&
			    (weak < 0 || rm->act[seat] < df_room_at(g, pa->floor, weak)->act[seat]))
				weak = r;
		}
		if (weak < 0)
			return;
		df_room *rm = df_room_at(g, pa->floor, weak);
		int a = rm->act[seat] + tot[DF_STEEL] + tot[DF_CUNNING];
		rm->act[seat] = (uint8_t)(a > 250 ? 250 : a);
		game_emit(evs, DF_EV_CLAIM, seat, (pa->floor - 1) * g->cfg.rooms + weak,
			rm->act[seat], 0);
	}
	tot[DF_STEEL] = tot[DF_CUNNING] = 0;
}

/* ---- exits (DF50-DF55) -------------------------------------------------- */

/* DF53: the depth dividend. With re-entry near the frontier a fresh party
 * already stands deep, so by default (dividend_delved) only the floors it
 * delved below its entry floor pay: otherwise an instant Cash-Out every
 * round would bank a free dividend. dividend_delved 0: deepest x factor. */
int df_dividend(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	int floors = g->cfg.dividend_delved ? pa->deepest - pa->entry : pa->deepest;
	return g->cfg.cash_dividend * (floors > 0 ? floors : 0);
}

void df_cash_out(df_game *g, int seat, bool forced, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	int bank = pa->unbanked + df_dividend(g, seat);
	bank = df_comeback(g, seat, bank);
	pl->glory += bank;
	pl->src[DF_SRC_CASH] += bank;
	/* DF50: the party's markers become Fallen: still counted, never doubled. */
	for (int i = 0; i < g->frontier * g->cfg.rooms; i++) {
		df_room *rm = &g->rooms[i];
		if (!rm->act[seat])
			continue;
		int fs = rm->act[seat] * g->cfg.fallen_strength / 1000;
		rm->fallen[seat] = (uint16_t)(rm->fallen[seat] + (fs > 0 ? fs : 1));
		rm->act[seat] = 0;
	}
	if (pl->n_cash_rec < DF_MAX_CASH_REC) {
		pl->cash_round[pl->n_cash_rec] = (uint8_t)(g->round > 255 ? 255 : g->round);
		pl->cash_depth[pl->n_cash_rec] = pa->deepest;
		pl->n_cash_rec++;
	}
	pl->cash_outs++;
	pl->cash_forced += forced;
	game_emit(evs, DF_EV_CASH_OUT, seat, bank, pl->glory, pa->deepest | forced << 8);
	pa->active = 0;
	pa->unbanked = 0;
}

static int move_cost(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	int cost = g->cfg.move_cost -
		   ((df_callings[pa->calling].flags & DF_C_CHEAP_MOVES) ? 1 : 0);
	return cost < 1 ? 1 : cost;
}

bool df_must_leave(const df_game *g, int seat, const df_totals *t, int falls)
{
	if (falls <= 0)
		return false;
	int safe = g->frontier - falls; /* the deepest floor still standing after */
	if (safe < 1)
		return true;
	int need = g->pl[seat].party.floor - safe;
	if (need <= 0)
		return false;
	int bought = (t->sym[DF_METTLE] + t->sym[DF_CUNNING]) / move_cost(g, seat);
	return need > df_moves(g, seat) + bought;
}

/* ---- an act's resolution (DF34) ----------------------------------------- */

/* DF44: free steps first, then steps bought with Mettle, then Cunning. */
static void move(df_game *g, int seat, int target, int *tot, game_events *evs)
{
	df_party *pa = &g->pl[seat].party;
	int from = pa->floor, moves = df_moves(g, seat);
	int cost = move_cost(g, seat);
	if (target > g->frontier)
		target = g->frontier;
	/* Step by step, that is: the free steps, then each step bought while
	 * the Mettle and Cunning left pay for it, Mettle first. */
	int dist = target > from ? target - from : from - target;
	int free = dist < moves ? dist : moves;
	int afford = (tot[DF_METTLE] + tot[DF_CUNNING]) / cost;
	int bought = dist - free < afford ? dist - free : afford;
	int pay = bought * cost, m = tot[DF_METTLE] < pay ? tot[DF_METTLE] : pay;
	tot[DF_METTLE] -= m;
	tot[DF_CUNNING] -= pay - m;
	pa->floor = (uint8_t)(target > from ? from + free + bought : from - free - bought);
	if (pa->floor > pa->deepest)
		pa->deepest = pa->floor;
	if (pa->deepest > g->pl[seat].deepest)
		g->pl[seat].deepest = pa->deepest;
	if (from != pa->floor)
		game_emit(evs, DF_EV_MOVE, seat, from, pa->floor, bought);
}

void df_resolve(df_game *g, int seat, df_act a, int falls, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	if (!pa->active)
		return;
	const df_calling_def *cal = &df_callings[pa->calling];
	df_totals t = pa->tot;
	int *tot = t.sym;
	if (t.rolled_dread)
		game_emit(evs, DF_EV_DREAD, seat, t.rolled_dread, t.cancelled, t.to_mettle);
	for (int n = 0; n < t.setbacks; n++)
		df_setback(g, seat, evs);
	bool forced = a.exit == DF_CASH_OUT && df_must_leave(g, seat, &t, falls);

	if (a.exit == DF_LAST_STAND && !pa->last_stand) {
		/* DF51: paid before anything else spends the Mettle (a stand is
		 * only offered when the turn can pay for it). */
		int paid = 0;
		if (!df_stand_free(g, seat)) {
			paid = g->cfg.last_stand_cost;
			tot[DF_METTLE] -= paid;
		}
		pa->last_stand = 1;
		game_emit(evs, DF_EV_LAST_STAND, seat, paid, 0, 0);
	}
	move(g, seat, a.target, tot, evs);
	df_claim(g, seat, tot, t.trinity, evs);

	/* DF48 */
	int loot = df_depth_scale(&g->cfg, pa->floor, tot[DF_GREED] * g->cfg.loot_per_greed);
	if (loot > 0) {
		pa->unbanked += loot;
		game_emit(evs, DF_EV_LOOT, seat, loot, pa->unbanked, 0);
	}
	if ((cal->flags & DF_C_HEAL) && tot[DF_FAITH] > 0 && pa->n_wound > 0) {
		tot[DF_FAITH]--;
		uint8_t d = pa->wound[--pa->n_wound];
		pa->disc[pa->n_disc++] = d;
		pa->disc_df = (uint16_t)(pa->disc_df + df_die_df(d));
		game_emit(evs, DF_EV_HEAL, seat, d, 0, 0);
	}
	/* DF49: bag_max bounds every die the party owns, wounded ones
	 * included: the draw, discard and wound piles each hold at most
	 * DF_MAX_BAG. */
	if (a.recruit && df_dice_owned(pa) < g->cfg.bag_max) {
		int cost = g->cfg.recruit_cost - ((cal->flags & DF_C_CHEAP_RECRUIT) ? 1 : 0);
		if (cost < 1)
			cost = 1;
		if (cal->flags & DF_C_FAITH_METTLE) { /* offerings: Faith pays */
			tot[DF_METTLE] += tot[DF_FAITH];
			tot[DF_FAITH] = 0;
		}
		if (tot[DF_METTLE] >= cost) {
			tot[DF_METTLE] -= cost;
			pa->disc[pa->n_disc++] = cal->recruit;
			pa->disc_df = (uint16_t)(pa->disc_df + df_die_df(cal->recruit));
			game_emit(evs, DF_EV_RECRUIT, seat, cal->recruit, 0, 0);
		}
	}
	memcpy(pa->disc + pa->n_disc, pa->hand, pa->n_hand);
	pa->n_disc = (uint8_t)(pa->n_disc + pa->n_hand);
	for (int i = 0; i < pa->n_hand; i++)
		pa->disc_df = (uint16_t)(pa->disc_df + df_die_df(pa->hand[i]));
	pa->n_hand = 0;
	pa->hands = 0;
	pa->acted = 0;
	memset(pa->rolled, 0, sizeof pa->rolled);
	/* an empty turn's totals: nothing rolled, nothing produced, the
	 * Lineage's costs only lower what is not there (a test checks them
	 * against df_turn_totals) */
	memset(&pa->tot, 0, sizeof pa->tot);

	if (a.exit == DF_CASH_OUT)
		df_cash_out(g, seat, forced, evs);
	/* DF52: persist (or a stand): the party stays on the board. */
}
