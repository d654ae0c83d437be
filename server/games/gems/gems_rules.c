/*
 * gems_rules.c — the design's formulas as small pure functions: gems in a
 * room (G12), gold bars (G6), bravery (G13), weighted shares (G19) and the
 * adventure parts (G11). Everything else builds on these.
 */
#include "gems_int.h"

/* G12: 1 + round(b·(0.29 − 0.012·b)·(L+1)), clamped to 1..25, computed in
 * thousandths so the one exact half (b=5, L=9: 11.5) rounds away from zero.
 * Written once, as a constant expression: the table below holds it for
 * b = 2..9 (every bravery a game can have) because rumors need it often
 * (gems_room_gems, inline in gems_int.h, reads it); gem_formula is the
 * same for any other bravery and level. */
#define GEM_MILLI(b, l) ((long)(b) * (290 - 12 * (b)) * ((l) + 1))
#define GEM_ROUND(m) ((m) >= 0 ? ((m) + 500) / 1000 : -((-(m) + 500) / 1000))
#define GEM_FORMULA(b, l) \
	(1 + GEM_ROUND(GEM_MILLI(b, l)) < 1    ? 1 \
	 : 1 + GEM_ROUND(GEM_MILLI(b, l)) > 25 ? 25 \
					       : 1 + GEM_ROUND(GEM_MILLI(b, l)))

static int gem_formula(int b, int level) { return (int)GEM_FORMULA(b, level); }

#define ROW_(b) {GEM_FORMULA(b, 0), GEM_FORMULA(b, 1), GEM_FORMULA(b, 2), GEM_FORMULA(b, 3), \
		 GEM_FORMULA(b, 4), GEM_FORMULA(b, 5), GEM_FORMULA(b, 6), GEM_FORMULA(b, 7), \
		 GEM_FORMULA(b, 8), GEM_FORMULA(b, 9), GEM_FORMULA(b, 10), GEM_FORMULA(b, 11), \
		 GEM_FORMULA(b, 12), GEM_FORMULA(b, 13), GEM_FORMULA(b, 14)}
const int8_t gems_gem_table[10][15] = {
	ROW_(2), ROW_(2), ROW_(2), ROW_(3), ROW_(4), ROW_(5), ROW_(6), ROW_(7), ROW_(8), ROW_(9),
};

int gems_room_gems_formula(int bravery, int level)
{
	return gem_formula(bravery < 2 ? 2 : bravery, level);
}

int gems_split(int gems, const int *weights, int n, int *shares)
{
	long total = 0;
	for (int i = 0; i < n; i++)
		total += weights[i];
	int rest = gems;
	for (int i = 0; i < n; i++) {
		shares[i] = total ? (int)((long)gems * weights[i] / total) : 0;
		rest -= shares[i];
	}
	return rest;
}

static int by_part(int part, int p1, int p2, int p3)
{
	return part <= 1 ? p1 : part == 2 ? p2 : p3;
}

int gems_ferry_toll(int part) { return by_part(part, 4, 3, 2); }
int gems_sunmoon_amount(int part) { return by_part(part, 2, 4, 6); }
int gems_monte_third(int part) { return by_part(part, 0, -2, -4); }
int gems_scout_radius(int part) { return by_part(part, 8, 5, 2); }

int gems_adv_rooms(int adv)
{
	return adv == GEMS_ADV_MUSHROOM || adv == GEMS_ADV_PEOPLE ? 6 : 3;
}
