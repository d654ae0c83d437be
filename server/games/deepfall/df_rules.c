/*
 * df_rules.c — DEEPFALL's turn (seed 001 B3 with Part C v2): set-up, drafting
 * a company, the Quarriors bag, rolling and pressing on, Dread and Setbacks,
 * moving, claiming with variable strength and assault progress, loot,
 * recruiting, and the exits a turn can take (Cash Out, Last Stand). The Maw
 * and scoring are in df_maw.c.
 *
 * Turn order inside a turn (an abstraction of B3 that keeps one decision per
 * round): roll every hand (1 + press), resolve Dread, move toward the target
 * floor (free steps, then steps bought with Mettle, then Cunning), claim on
 * the floor reached, take loot, recruit, heal, then the exit.
 */
#include "deepfall.h"

#include <stdio.h>
#include <string.h>

/* ---- choices ---------------------------------------------------------- */

game_choice df_choice_pack(df_choice c)
{
	return (game_choice)(c.target | c.press << 8 | c.recruit << 12 | c.exit << 13);
}

df_choice df_choice_unpack(game_choice code)
{
	df_choice c = {code & 0xff, (code >> 8) & 0xf, (code >> 12) & 1, (code >> 13) & 3};
	return c;
}

int df_choice_check(const df_game *g, int seat, game_choice code, char *err, size_t errlen)
{
	if (g->over) {
		snprintf(err, errlen, "the game is over");
		return -1;
	}
	if (seat < 0 || seat >= g->seats) {
		snprintf(err, errlen, "no seat %d", seat);
		return -1;
	}
	if (code < 0 || (code >> 15) != 0) {
		snprintf(err, errlen, "seat %d: malformed choice code %d", seat, (int)code);
		return -1;
	}
	df_choice c = df_choice_unpack(code);
	if (c.target < 1 || c.target > g->frontier) {
		snprintf(err, errlen, "seat %d: target floor %d is not within 1..%d", seat,
			 c.target, g->frontier);
		return -1;
	}
	if (c.press > g->cfg.max_press) {
		snprintf(err, errlen, "seat %d: press %d exceeds max_press %d", seat, c.press,
			 g->cfg.max_press);
		return -1;
	}
	if (c.exit >= DF_NEXIT) {
		snprintf(err, errlen, "seat %d: unknown exit", seat);
		return -1;
	}
	return 0;
}

/* ---- numbers ---------------------------------------------------------- */

/* v2 §7: sub-linear depth, amount * (1 + coeff * (floor - 1)), rounded. */
int df_depth_scale(const df_config *cfg, int floor, int amount)
{
	int64_t m = 1000 + (int64_t)cfg->depth_coeff * (floor - 1);
	return (int)((amount * m + 500) / 1000);
}

int df_room_value(const df_config *cfg, int theme, int floor)
{
	return df_depth_scale(cfg, floor, df_themes[theme].base);
}

int df_hand_size(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	int h = g->cfg.hand_size + df_lineages[pa->lineage].hand + df_callings[pa->calling].hand;
	return h < 1 ? 1 : h;
}

int df_moves(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	int m = g->cfg.base_moves + df_lineages[pa->lineage].move + df_callings[pa->calling].move;
	return m < 0 ? 0 : m;
}

bool df_holds_stand_room(const df_game *g, int seat)
{
	for (int i = 0; i < g->frontier * g->cfg.rooms; i++) {
		const df_room *rm = &g->rooms[i];
		if (rm->alive && rm->act[seat] &&
		    (rm->theme == DF_VAULT || rm->theme == DF_THRONE))
			return true;
	}
	return false;
}

/* ---- the bag (Quarriors: without replacement, discard reshuffled) ---- */

int df_bag_size(const df_party *pa) { return pa->n_draw + pa->n_disc; }

int df_bag_draw(df_game *g, df_party *pa, uint8_t *die)
{
	if (pa->n_draw == 0) {
		if (pa->n_disc == 0)
			return 0;
		memcpy(pa->draw, pa->disc, pa->n_disc);
		pa->n_draw = pa->n_disc;
		pa->n_disc = 0;
		rng_shuffle(&g->rules, pa->draw, pa->n_draw, 1);
	}
	*die = pa->draw[--pa->n_draw];
	return 1;
}

/* ---- set-up and drafting ---------------------------------------------- */

static int pick_theme(df_game *g, int floor)
{
	int w[DF_NTHEME], total = 0;
	for (int t = 0; t < DF_NTHEME; t++)
		total += w[t] = df_theme_weight(t, floor, g->cfg.floors);
	if (total == 0)
		return DF_STONE;
	int x = (int)rng_below(&g->rules, (uint32_t)total);
	for (int t = 0; t < DF_NTHEME; t++) {
		if (x < w[t])
			return t;
		x -= w[t];
	}
	return DF_STONE;
}

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
		for (int k = 0; k < lin->bag[d]; k++)
			pa->draw[pa->n_draw++] = (uint8_t)d;
	rng_shuffle(&g->rules, pa->draw, pa->n_draw, 1);
	/* v2 §2: fresh parties drop in near the frontier; the first at 1. */
	int f = first ? 1 : g->frontier - g->cfg.reentry_gap;
	pa->floor = pa->deepest = pa->entry = (uint8_t)(f < 1 ? 1 : f);
	for (int i = 0; i < g->cfg.floors * g->cfg.rooms; i++)
		g->rooms[i].prog_s[seat] = g->rooms[i].prog_c[seat] = 0;
	pl->parties++;
	if (pl->lin_parties[pa->lineage] < 255)
		pl->lin_parties[pa->lineage]++;
	if (pl->cal_parties[pa->calling] < 255)
		pl->cal_parties[pa->calling]++;
	if (pa->deepest > pl->deepest)
		pl->deepest = pa->deepest;
	df_emit(evs, DF_EV_DRAFT, seat, pa->lineage, pa->calling, pa->floor);
}

void df_game_init(df_game *g, const df_config *cfg, int seats, uint64_t seed, game_events *evs)
{
	memset(g, 0, sizeof *g);
	g->cfg = *cfg;
	g->seats = seats;
	rng_seed(&g->rules, seed, 1);
	g->seed = seed; /* the AI's draws derive from it on stream DF_STREAM_AI */
	g->frontier = cfg->floors;
	g->round = 1;
	for (int f = 1; f <= cfg->floors; f++)
		for (int r = 0; r < cfg->rooms; r++) {
			df_room *rm = df_room_at(g, f, r);
			rm->theme = (uint8_t)(f == 1 && r == 0 ? DF_THRESHOLD : pick_theme(g, f));
			rm->value = (int16_t)df_room_value(cfg, rm->theme, f);
			rm->alive = 1;
		}
	for (int s = 0; s < seats; s++)
		df_draft(g, s, evs);
	df_emit(evs, DF_EV_ROUND, -1, g->round, g->start_seat, 0);
}

/* ---- Dread and Setbacks ----------------------------------------------- */

void df_setback(df_game *g, int seat, uint8_t *hand, int *n_hand, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	uint16_t lf = df_lineages[pa->lineage].flags;
	pl->setbacks++;
	if (lf & DF_L_SETBACK_RESIST) {
		/* Golem-born "rarely loses dice": odd Setbacks are shrugged off. */
		if (pa->golem_setbacks++ % 2 == 0) {
			df_emit(evs, DF_EV_SETBACK, seat, 0, 0, 1);
			return;
		}
	}
	int hits = (lf & DF_L_SETBACK_DOUBLE) ? 2 : 1;
	int dice = 0, loot = 0;
	for (int h = 0; h < hits; h++) {
		if (*n_hand > 0 && df_bag_size(pa) + *n_hand > g->cfg.min_bag) {
			/* The die goes to the wound slot (a Hierophant may heal it). */
			pa->wound[pa->n_wound++] = hand[--*n_hand];
			dice++;
		} else {
			int l = pa->unbanked < g->cfg.setback_loot ? pa->unbanked
								   : g->cfg.setback_loot;
			pa->unbanked -= l;
			loot += l;
		}
	}
	df_emit(evs, DF_EV_SETBACK, seat, dice, loot, 0);
}

void df_resolve_dread(df_game *g, int seat, int *tot, uint8_t *hand, int *n_hand,
		      game_events *evs)
{
	const df_party *pa = &g->pl[seat].party;
	int dread = tot[DF_DREAD], rolled = dread, conv = 0, cancel = 0;
	if (df_lineages[pa->lineage].flags & DF_L_DREAD_TO_METTLE) {
		conv = dread < g->cfg.revenant_convert ? dread : g->cfg.revenant_convert;
		dread -= conv;
		tot[DF_METTLE] += conv;
	}
	if ((df_callings[pa->calling].flags & DF_C_DREAD_CANCEL) && dread > 0) {
		dread--;
		cancel++;
	}
	int f = dread < tot[DF_FAITH] ? dread : tot[DF_FAITH];
	tot[DF_FAITH] -= f;
	dread -= f;
	cancel += f;
	tot[DF_DREAD] = dread;
	if (rolled)
		df_emit(evs, DF_EV_DREAD, seat, rolled, cancel, conv);
	for (int n = dread / g->cfg.dread_threshold; n > 0; n--)
		df_setback(g, seat, hand, n_hand, evs);
}

/* ---- claiming --------------------------------------------------------- */

void df_claim(df_game *g, int seat, int *tot, bool trinity, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	uint16_t cf = df_callings[pa->calling].flags;
	int best = -1, best_val = -1, target = -1, target_val = -1;
	for (int r = 0; r < g->cfg.rooms; r++) {
		df_room *rm = df_room_at(g, pa->floor, r);
		if (!rm->alive || rm->act[seat])
			continue;
		if (rm->value > target_val) {
			target = r;
			target_val = rm->value;
		}
		int lock = df_themes[rm->theme].lock;
		int bonus = (cf & DF_C_LOCK_BONUS) && lock > 0 ? 1 : 0;
		int have_s = tot[DF_STEEL] + rm->prog_s[seat];
		int have_c = tot[DF_CUNNING] + rm->prog_c[seat] + bonus;
		bool vault_ok = rm->theme != DF_VAULT || trinity || (cf & DF_C_SOLO_VAULT);
		if (have_s >= df_threat_for(g, seat, rm) && have_c >= lock && vault_ok &&
		    rm->value > best_val) {
			best = r;
			best_val = rm->value;
		}
	}
	if (best >= 0) {
		df_room *rm = df_room_at(g, pa->floor, best);
		int lock = df_themes[rm->theme].lock;
		int bonus = (cf & DF_C_LOCK_BONUS) && lock > 0 ? 1 : 0;
		int use_s = df_threat_for(g, seat, rm) - rm->prog_s[seat];
		int use_c = lock - rm->prog_c[seat] - bonus;
		use_s = use_s > 0 ? use_s : 0;
		use_c = use_c > 0 ? use_c : 0;
		/* v2 §5: strength = 1 + the symbols invested beyond the need. */
		int strength = 1 + (tot[DF_STEEL] - use_s) + (tot[DF_CUNNING] - use_c);
		rm->act[seat] = (uint8_t)(strength > 250 ? 250 : strength);
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
		df_emit(evs, DF_EV_CLAIM, seat, (pa->floor - 1) * g->cfg.rooms + best,
			rm->act[seat], loot);
		return;
	}
	if (tot[DF_STEEL] + tot[DF_CUNNING] == 0)
		return;
	if (target >= 0) {
		/* v2 §5: a near miss is never a zero — unmet symbols accumulate. */
		df_room *rm = df_room_at(g, pa->floor, target);
		int s = rm->prog_s[seat] + tot[DF_STEEL], c = rm->prog_c[seat] + tot[DF_CUNNING];
		rm->prog_s[seat] = (uint8_t)(s > 200 ? 200 : s);
		rm->prog_c[seat] = (uint8_t)(c > 200 ? 200 : c);
		df_emit(evs, DF_EV_ASSAULT, seat, (pa->floor - 1) * g->cfg.rooms + target,
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
		df_emit(evs, DF_EV_CLAIM, seat, (pa->floor - 1) * g->cfg.rooms + weak,
			rm->act[seat], 0);
	}
	tot[DF_STEEL] = tot[DF_CUNNING] = 0;
}

/* ---- exits ------------------------------------------------------------ */

/* B3/§6: the depth dividend. With v2's re-entry near the frontier a fresh
 * party already stands deep, so by default (dividend_delved) only the floors
 * it delved below its entry floor pay: otherwise an instant Cash-Out every
 * round would bank a free dividend. dividend_delved 0 is the seed's formula. */
int df_dividend(const df_game *g, int seat)
{
	const df_party *pa = &g->pl[seat].party;
	int floors = g->cfg.dividend_delved ? pa->deepest - pa->entry : pa->deepest;
	return g->cfg.cash_dividend * (floors > 0 ? floors : 0);
}

void df_cash_out(df_game *g, int seat, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	int bank = pa->unbanked + df_dividend(g, seat);
	bank = df_comeback(g, seat, bank);
	pl->glory += bank;
	pl->src[DF_SRC_CASH] += bank;
	/* The party's markers become Fallen: still counted, never doubled. */
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
	df_emit(evs, DF_EV_CASH_OUT, seat, bank, pl->glory, pa->deepest);
	pa->active = 0;
	pa->unbanked = 0;
}

static void last_stand(df_game *g, int seat, int *tot, game_events *evs)
{
	df_party *pa = &g->pl[seat].party;
	if (pa->last_stand)
		return;
	bool ok = (df_callings[pa->calling].flags & DF_C_FREE_STAND) ||
		  df_holds_stand_room(g, seat);
	if (!ok && tot[DF_METTLE] >= g->cfg.last_stand_cost) {
		tot[DF_METTLE] -= g->cfg.last_stand_cost;
		ok = true;
	}
	if (ok)
		pa->last_stand = 1;
	df_emit(evs, DF_EV_LAST_STAND, seat, ok, 0, 0);
}

/* ---- the turn ---------------------------------------------------------- */

static void move(df_game *g, int seat, int target, int *tot, game_events *evs)
{
	df_party *pa = &g->pl[seat].party;
	int from = pa->floor, moves = df_moves(g, seat), bought = 0;
	int cost = g->cfg.move_cost -
		   ((df_callings[pa->calling].flags & DF_C_CHEAP_MOVES) ? 1 : 0);
	if (cost < 1)
		cost = 1;
	if (target > g->frontier)
		target = g->frontier;
	while (pa->floor != target) {
		if (moves > 0) {
			moves--;
		} else if (tot[DF_METTLE] + tot[DF_CUNNING] >= cost) {
			int m = tot[DF_METTLE] < cost ? tot[DF_METTLE] : cost;
			tot[DF_METTLE] -= m;
			tot[DF_CUNNING] -= cost - m;
			bought++;
		} else {
			break;
		}
		pa->floor = (uint8_t)(pa->floor + (target > pa->floor ? 1 : -1));
	}
	if (pa->floor > pa->deepest)
		pa->deepest = pa->floor;
	if (pa->deepest > g->pl[seat].deepest)
		g->pl[seat].deepest = pa->deepest;
	if (from != pa->floor)
		df_emit(evs, DF_EV_MOVE, seat, from, pa->floor, bought);
}

void df_turn(df_game *g, int seat, df_choice c, game_events *evs)
{
	df_player *pl = &g->pl[seat];
	df_party *pa = &pl->party;
	if (!pa->active)
		return;
	const df_lineage_def *lin = &df_lineages[pa->lineage];
	const df_calling_def *cal = &df_callings[pa->calling];
	uint8_t hand[DF_MAX_BAG];
	int nh = 0, tot[DF_NFACES] = {0};
	int hs = df_hand_size(g, seat);

	/* Roll the hand, then each pressed hand, from the one bag. */
	for (int h = 0; h <= c.press; h++)
		for (int i = 0; i < hs; i++) {
			uint8_t d;
			if (!df_bag_draw(g, pa, &d))
				break;
			hand[nh++] = d;
			tot[df_dice[d].face[rng_below(&g->rules, 6)]]++;
		}
	g->round_press += c.press;
	g->round_dread += tot[DF_DREAD];
	tot[DF_DREAD] += c.press * g->cfg.press_dread; /* greed stacks the peril */
	bool trinity = tot[DF_STEEL] && tot[DF_CUNNING] && tot[DF_FAITH];
	int mods[3] = {lin->steel, lin->cunning, lin->faith};
	for (int f = 0; f < 3; f++) {
		tot[f] += mods[f];
		if (tot[f] < 0)
			tot[f] = 0;
	}
	/* Catan production from every held room whose symbol was rolled. */
	if (g->cfg.production)
		for (int i = 0; i < g->frontier * g->cfg.rooms; i++) {
			const df_room *rm = &g->rooms[i];
			int p = df_themes[rm->theme].produces;
			if (rm->alive && rm->act[seat] && p >= 0 && tot[p] > 0)
				tot[p] += g->cfg.production;
		}
	if (evs) {
		int32_t packed = 0;
		for (int f = 0; f < DF_NFACES; f++)
			packed |= (tot[f] > 31 ? 31 : tot[f]) << (5 * f);
		df_emit(evs, DF_EV_ROLL, seat, packed, 1 + c.press, nh);
	}

	df_resolve_dread(g, seat, tot, hand, &nh, evs);
	move(g, seat, c.target, tot, evs);
	df_claim(g, seat, tot, trinity, evs);

	int loot = df_depth_scale(&g->cfg, pa->floor, tot[DF_GREED] * g->cfg.loot_per_greed);
	if (loot > 0) {
		pa->unbanked += loot;
		df_emit(evs, DF_EV_LOOT, seat, loot, pa->unbanked, 0);
	}
	if ((cal->flags & DF_C_HEAL) && tot[DF_FAITH] > 0 && pa->n_wound > 0) {
		tot[DF_FAITH]--;
		uint8_t d = pa->wound[--pa->n_wound];
		pa->disc[pa->n_disc++] = d;
		df_emit(evs, DF_EV_HEAL, seat, d, 0, 0);
	}
	/* bag_max bounds every die the party owns, the wounded ones included:
	 * the draw, discard and wound piles each hold at most DF_MAX_BAG. */
	if (c.recruit && df_bag_size(pa) + nh + pa->n_wound < g->cfg.bag_max) {
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
			df_emit(evs, DF_EV_RECRUIT, seat, cal->recruit, 0, 0);
		}
	}
	memcpy(pa->disc + pa->n_disc, hand, (size_t)nh);
	pa->n_disc = (uint8_t)(pa->n_disc + nh);

	if (c.exit == DF_CASH_OUT)
		df_cash_out(g, seat, evs);
	else if (c.exit == DF_LAST_STAND)
		last_stand(g, seat, tot, evs);
}

/* ---- the round ------------------------------------------------------- */

int df_round(df_game *g, const game_choice *choices, game_events *evs, char *err,
	     size_t errlen)
{
	for (int s = 0; s < g->seats; s++)
		if (df_choice_check(g, s, choices[s], err, errlen) != 0)
			return -1;
	for (int i = 0; i < g->seats; i++) {
		int s = (g->start_seat + i) % g->seats;
		df_turn(g, s, df_choice_unpack(choices[s]), evs);
	}
	df_maw_advance(g, evs);
	g->rounds_played = g->round;
	if (g->frontier < 1) {
		df_finish(g, evs);
		return 0;
	}
	g->round++;
	g->start_seat = (g->round - 1) % g->seats;
	for (int s = 0; s < g->seats; s++)
		if (!g->pl[s].party.active)
			df_draft(g, s, evs);
	df_emit(evs, DF_EV_ROUND, -1, g->round, g->start_seat, 0);
	return 0;
}
