/*
 * gems_stats.c — the end of a game and what it leaves behind: winners and
 * ties (G33), the statistics of the design's list (G36), the achievements
 * (G34, G35), and the server-wide shared state the emitted events fold
 * into (G10 adventure uses, records).
 */
#include <string.h>

#include "gems_int.h"

/* ---- shared state ------------------------------------------------------ */

void gems_shared_init(gems_shared *sh)
{
	memset(sh, 0, sizeof *sh);
	sh->best_score = -1;
	sh->deepest = -1;
}

/* G10: +1 for the adventure; when every one has at least one use, all −1. */
static void fold_use(gems_shared *sh, int adv)
{
	if (adv < 0 || adv >= GEMS_N_ADV)
		return;
	sh->uses[adv]++;
	for (int i = 0; i < GEMS_N_ADV; i++)
		if (sh->uses[i] < 1)
			return;
	for (int i = 0; i < GEMS_N_ADV; i++)
		sh->uses[i]--;
}

void gems_shared_fold(gems_shared *sh, const game_event *evs, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const game_event *e = &evs[k];
		if (e->type == GEMS_EV_ADV_USED) {
			fold_use(sh, e->a);
		} else if (e->type == GEMS_EV_GAME_OVER) {
			if (e->a > sh->best_score)
				sh->best_score = e->a;
			if (e->b > sh->deepest)
				sh->deepest = e->b;
		}
	}
}

void gems_shared_fold_game(gems_shared *sh, const gems_game *g)
{
	for (int d = 0; d < GEMS_DUNGEONS; d++)
		if (g->adv_used >> d & 1)
			fold_use(sh, g->adv[d]);
	if (g->phase != GEMS_PH_OVER)
		return;
	if (g->win_score > sh->best_score)
		sh->best_score = g->win_score;
	if (g->deepest > sh->deepest)
		sh->deepest = g->deepest;
}

/* ---- winners ----------------------------------------------------------- */

int64_t gems_score(const gems_game *g, int seat) { return g->seat[seat].chest; }

/* G33: the most money; ties by most bars; then all of them win. */
static uint32_t winners_of(const gems_game *g)
{
	int best = -1, bars = -1;
	uint32_t w = 0;
	for (int i = 0; i < g->seats; i++) {
		const gems_seat *s = &g->seat[i];
		if (s->chest > best || (s->chest == best && s->bars > bars)) {
			best = s->chest;
			bars = s->bars;
			w = 1u << i;
		} else if (s->chest == best && s->bars == bars) {
			w |= 1u << i;
		}
	}
	return w;
}

void gems_finish(gems_game *g, game_events *out)
{
	g->phase = GEMS_PH_OVER;
	g->pending = 0;
	g->winners = winners_of(g);
	g->win_score = g->seat[__builtin_ctz(g->winners)].chest;
	g->deepest = 0;
	for (int i = 0; i < g->seats; i++)
		if (g->seat[i].t.max_depth > g->deepest)
			g->deepest = g->seat[i].t.max_depth;
	gems_emit(out, GEMS_EV_GAME_OVER, -1, g->win_score, g->deepest, (int32_t)g->winners);
}

/* ---- statistics (G36) ---------------------------------------------------- */

const game_stat_def gems_stat_defs[GEMS_N_STATS] = {
	[GEMS_ST_GAMES_PLAYED] = {"games_played", "Games Played", GAME_STAT_SUM},
	[GEMS_ST_PLAYERS] = {"number_of_players", "Number of Players", GAME_STAT_SUM},
	[GEMS_ST_GEMS_LOOTED] = {"gems_looted", "Gems Looted", GAME_STAT_SUM},
	[GEMS_ST_BARS_LOOTED] = {"gold_bars_looted", "Gold Bars Looted", GAME_STAT_SUM},
	[GEMS_ST_BARS_SOLD_FOR] = {"gold_bars_sold_for", "Gold Bars Looted, sold for",
				   GAME_STAT_SUM},
	[GEMS_ST_COINS_LOOTED] = {"sphinx_coins_looted", "Sphinx Coins Looted", GAME_STAT_SUM},
	[GEMS_ST_LONE_LEAVERS] = {"lone_leavers", "Lone Leavers", GAME_STAT_SUM},
	[GEMS_ST_BANKER_PROFIT] = {"bankers_profit", "Banker's Profit", GAME_STAT_SUM},
	[GEMS_ST_MONTE_LOSSES] = {"losses_to_monte", "Losses to 3 Card Monte", GAME_STAT_SUM},
	[GEMS_ST_SUN] = {"stood_on_sun", "People Who Stood on the Sun", GAME_STAT_SUM},
	[GEMS_ST_MOON] = {"stood_on_moon", "People Who Stood on the Moon", GAME_STAT_SUM},
	[GEMS_ST_LAVA] = {"lava_lakes_crossed", "Lava Lakes Crossed", GAME_STAT_SUM},
	[GEMS_ST_REPORTS] = {"spider_lair_reports", "Spider Lair Reports Received",
			     GAME_STAT_SUM},
	[GEMS_ST_MUSHROOMS] = {"mushrooms_eaten", "Mushrooms Eaten", GAME_STAT_SUM},
	[GEMS_ST_DEVIL_DEALS] = {"devil_deals", "Deals Made with the Devil", GAME_STAT_SUM},
	[GEMS_ST_PEOPLE_HELPED] = {"little_people_helped", "Little People Helped",
				   GAME_STAT_SUM},
	[GEMS_ST_SPIDERS_KILLED] = {"spiders_killed", "Spiders Killed", GAME_STAT_SUM},
	[GEMS_ST_MIN_DEPTH] = {"min_depth_explored", "Min Depth Explored", GAME_STAT_MIN},
	[GEMS_ST_MAX_DEPTH] = {"furthest_depth_explored", "Furthest Depth Explored",
			       GAME_STAT_MAX},
	[GEMS_ST_LAIRS] = {"spider_lairs_discovered", "Spider Lairs Discovered", GAME_STAT_SUM},
	[GEMS_ST_SPIDER_STOLEN] = {"gems_stolen_by_spider", "Gems Stolen by the Spider",
				   GAME_STAT_SUM},
	[GEMS_ST_PSYCHICS] = {"psychics", "Psychics", GAME_STAT_SUM},
	[GEMS_ST_GAMES_WITH_AIS] = {"games_with_ais", "Games with AIs", GAME_STAT_SUM},
	[GEMS_ST_GAMES_WON_BY_AIS] = {"games_won_by_ais", "Games won by AIs", GAME_STAT_SUM},
	[GEMS_ST_HIGHEST_WIN] = {"highest_winning_score", "Highest Winning Score",
				 GAME_STAT_MAX},
	/* "Average Winning Score" = winning_score_total / games_won */
	[GEMS_ST_WIN_TOTAL] = {"winning_score_total", "Average Winning Score (total)",
			       GAME_STAT_SUM},
	[GEMS_ST_GAMES_WON] = {"games_won", "Average Winning Score (games won)", GAME_STAT_SUM},
	[GEMS_ST_LOWEST_WIN] = {"lowest_winning_score", "Lowest Winning Score", GAME_STAT_MIN},
};

static int64_t tally_sum(const gems_game *g, int seat, size_t off)
{
	int64_t v = 0;
	for (int i = 0; i < g->seats; i++)
		if (seat < 0 || seat == i)
			v += *(const int32_t *)((const char *)&g->seat[i].t + off);
	return v;
}

#define TALLY(field) tally_sum(g, seat, offsetof(gems_tally, field))

static void depth_stats(const gems_game *g, int seat, int64_t *values)
{
	if (seat >= 0) {
		const gems_tally *t = &g->seat[seat].t;
		values[GEMS_ST_MIN_DEPTH] = t->min_depth < 0 ? GAME_STAT_NONE : t->min_depth;
		values[GEMS_ST_MAX_DEPTH] = t->max_depth < 0 ? GAME_STAT_NONE : t->max_depth;
		return;
	}
	int lo = -1, hi = -1;
	for (int d = 0; d < GEMS_DUNGEONS; d++) {
		if (d > g->dungeon || (d == g->dungeon && g->phase != GEMS_PH_OVER))
			break;
		int v = g->dungeon_depth[d];
		lo = lo < 0 || v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	values[GEMS_ST_MIN_DEPTH] = lo < 0 ? GAME_STAT_NONE : lo;
	values[GEMS_ST_MAX_DEPTH] = hi < 0 ? GAME_STAT_NONE : hi;
}

static void win_stats(const gems_game *g, int seat, uint32_t ai_mask, int64_t *values)
{
	bool over = g->phase == GEMS_PH_OVER;
	bool won = over && (seat < 0 || (g->winners >> seat & 1));
	int64_t score = seat < 0 ? g->win_score : g->seat[seat].chest;
	values[GEMS_ST_GAMES_WITH_AIS] = ai_mask != 0;
	values[GEMS_ST_GAMES_WON_BY_AIS] = over && (g->winners & ai_mask) != 0;
	values[GEMS_ST_HIGHEST_WIN] = won ? score : GAME_STAT_NONE;
	values[GEMS_ST_WIN_TOTAL] = won ? score : 0;
	values[GEMS_ST_GAMES_WON] = won;
	values[GEMS_ST_LOWEST_WIN] = won ? score : GAME_STAT_NONE;
}

void gems_stats(const gems_game *g, int seat, uint32_t ai_mask, int64_t *values)
{
	values[GEMS_ST_GAMES_PLAYED] = 1;
	values[GEMS_ST_PLAYERS] = g->seats;
	values[GEMS_ST_GEMS_LOOTED] = TALLY(gems_looted);
	values[GEMS_ST_BARS_LOOTED] = TALLY(bars_looted);
	values[GEMS_ST_BARS_SOLD_FOR] = TALLY(bars_sold_for);
	values[GEMS_ST_COINS_LOOTED] = TALLY(coins_looted);
	values[GEMS_ST_LONE_LEAVERS] = TALLY(lone_leaves);
	values[GEMS_ST_BANKER_PROFIT] = TALLY(banker_profit);
	values[GEMS_ST_MONTE_LOSSES] = TALLY(monte_losses);
	values[GEMS_ST_SUN] = TALLY(sun);
	values[GEMS_ST_MOON] = TALLY(moon);
	values[GEMS_ST_LAVA] = TALLY(lava);
	values[GEMS_ST_REPORTS] = TALLY(reports);
	values[GEMS_ST_MUSHROOMS] = TALLY(mushrooms);
	values[GEMS_ST_DEVIL_DEALS] = TALLY(devil_deals);
	values[GEMS_ST_PEOPLE_HELPED] = TALLY(people_helped);
	values[GEMS_ST_SPIDERS_KILLED] = seat < 0 ? g->spiders_killed : TALLY(spiders_killed);
	values[GEMS_ST_LAIRS] = seat < 0 ? g->lairs : TALLY(scared);
	values[GEMS_ST_SPIDER_STOLEN] = TALLY(spider_stolen);
	int64_t psychics = 0;
	for (int i = 0; i < g->seats; i++)
		if ((seat < 0 || seat == i) && g->seat[i].t.psychic_leaves >= 2)
			psychics++;
	values[GEMS_ST_PSYCHICS] = psychics;
	depth_stats(g, seat, values);
	win_stats(g, seat, ai_mask, values);
}

/* ---- achievements (G34, G35) --------------------------------------------- */

const game_achievement_def gems_achievement_defs[GEMS_N_ACH] = {
	[GEMS_ACH_HIGHEST_SCORE] = {"highest_score", "Highest Score"},
	[GEMS_ACH_DEEPEST] = {"deepest_explorer", "Deepest Explorer"},
	[GEMS_ACH_MOST_LOST] = {"most_gems_lost", "Most Gems Lost"},
	[GEMS_ACH_BOLD] = {"bold", "Bold"},
	[GEMS_ACH_TIMID] = {"timid", "Timid"},
	[GEMS_ACH_PSYCHIC] = {"psychic", "Psychic"},
	[GEMS_ACH_SKYNET] = {"skynet", "Skynet"},
};

static int gems_lost(const gems_game *g, int seat)
{
	return g->seat[seat].t.spider_stolen + g->seat[seat].t.banker_profit;
}

uint32_t gems_achievements(const gems_game *g, int seat, uint32_t ai_mask)
{
	if (g->phase != GEMS_PH_OVER || seat < 0 || seat >= g->seats)
		return 0;
	const gems_seat *s = &g->seat[seat];
	bool won = g->winners >> seat & 1;
	uint32_t a = 0;
	if (won && s->chest >= g->record_score)
		a |= 1u << GEMS_ACH_HIGHEST_SCORE;
	if (s->t.max_depth >= g->record_depth)
		a |= 1u << GEMS_ACH_DEEPEST;
	int most = 0;
	for (int i = 0; i < g->seats; i++)
		most = gems_lost(g, i) > most ? gems_lost(g, i) : most;
	if (most > 0 && gems_lost(g, seat) == most) /* ties share it; nobody for 0 */
		a |= 1u << GEMS_ACH_MOST_LOST;
	if (s->t.scared >= 4)
		a |= 1u << GEMS_ACH_BOLD;
	if (s->t.scared == 0)
		a |= 1u << GEMS_ACH_TIMID;
	if (s->t.psychic_leaves >= 2)
		a |= 1u << GEMS_ACH_PSYCHIC;
	if (won && (ai_mask >> seat & 1))
		a |= 1u << GEMS_ACH_SKYNET;
	return a;
}
