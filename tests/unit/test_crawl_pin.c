/*
 * test_crawl_pin.c — the crawl engine's behaviour pinned as hashes, so that
 * work on its speed cannot change a single result: the levels the generator
 * makes, every AI choice, every event and every final state of hundreds of
 * seeded runs, and the JSON the server renders from them (options, views of
 * a seat and of a spectator, events, results) hash to the values the engine
 * gave before it was tuned (tests/bench/bench_crawl.c says how it was
 * tuned). A hash that moves means a run changed: find out why before
 * touching the pin. A change of the rules or of the AI re-pins on purpose,
 * and its commit says so (the levels' hash has held since the pin was
 * made; the runs' were re-pinned for the party AI and `rest`, C36, C48, and
 * for the AI seats' patience with a leader).
 */
#include <stdlib.h>
#include <string.h>

#include "../../server/games/crawl/crawl.h"
#include "../test.h"
#include "pin_hash.h"

/* Everything a finished run leaves. */
static void mix_final(uint64_t *h, const cr_game *g)
{
	mix(h, g->decision);
	mix(h, g->rounds);
	mix(h, g->act);
	mix(h, g->max_act);
	mix(h, g->floors);
	mix(h, g->won);
	mix(h, g->end_reason);
	mix(h, g->qm_entered);
	mix(h, g->identified);
	mix(h, g->relic_pool);
	mix(h, (int64_t)g->seen_events);
	mix(h, g->gen_levels);
	mix(h, g->gen_rejections);
	mix(h, g->votes);
	for (int a = 0; a <= CR_MAX_ACTS; a++)
		for (int t = 0; t < CR_NROOM; t++)
			mix(h, g->room_count[a][t]);
	for (int e = 0; e < CR_MAX_EVENTS; e++)
		mix(h, g->served[e]);
	for (int s = 0; s < g->seats; s++) {
		const cr_hero *p = &g->h[s];
		mix(h, p->alive);
		mix(h, p->hp);
		mix(h, p->max_hp);
		mix(h, p->level);
		mix(h, p->atk);
		mix(h, p->def);
		mix(h, p->weapon);
		mix(h, p->armor);
		mix(h, p->gold);
		mix(h, p->xp);
		for (int i = 0; i < CR_INV_MAX; i++)
			mix(h, p->inv[i]);
		mix(h, p->relics);
		mix(h, p->pet);
		const int32_t *t = &p->kills;
		for (int i = 0; i < 11; i++) /* kills .. bought */
			mix(h, t[i]);
		mix(h, cr_score(g, s));
	}
}

/* C1-C10: the generator, at the default size and the extremes. */
TEST(crawl_pin_levels)
{
	static cr_level lv;
	static char buf[(CR_MAX_W + 1) * CR_MAX_H + 1];
	static const int size[3][2] = {{CR_DEF_W, CR_DEF_H}, {CR_MIN_W, CR_MIN_H}, {CR_MAX_W, CR_MAX_H}};
	uint64_t h = FNV0;
	for (int i = 0; i < 600; i++) {
		const int *wh = size[i % 3];
		cr_level_generate(&lv, rng_derive_seed(99, (uint64_t)i), 1 + i % 3, 3, i % 2, wh[0],
				  wh[1]);
		cr_level_ascii(&lv, buf, sizeof buf);
		mix_str(&h, buf);
		mix(&h, lv.rejections);
		mix(&h, lv.start_dist);
		mix(&h, lv.rooms);
		mix(&h, lv.filled);
	}
	CHECK_HASH(h, 0xf0693fac4b112bc7ULL);
}

/* Whole AI runs on the native path, step by step: each decision's AI
 * choices, every event, the final state; 1-4 seats, DeadlyEvents and the
 * first run in turn, small and large levels now and then. */
TEST(crawl_pin_ai_choices_and_events)
{
	static cr_config cfg[4];
	static const char *const json[4] = {
		NULL,
		"{\"deadly_events\": true}",
		"{\"first_run\": [0], \"width\": 30, \"height\": 14}",
		"{\"deadly_events\": true, \"width\": 90, \"height\": 40, \"acts\": 2}",
	};
	char err[200];
	for (int c = 0; c < 4; c++) {
		cJSON *j = json[c] ? cJSON_Parse(json[c]) : NULL;
		REQUIRE(cr_config_parse(&cfg[c], j, err, sizeof err) == 0);
		cJSON_Delete(j);
	}
	static cr_game g;
	game_events evs = {0};
	uint64_t h = FNV0;
	for (int n = 0; n < 160; n++) {
		int seats = 1 + n % 4;
		const cr_config *cf = &cfg[n / 4 % 4];
		game_events_clear(&evs);
		cr_game_init(&g, cf, seats, 5000 + (uint64_t)n, &evs);
		while (!g.over) {
			game_choice ch[GAME_MAX_SEATS];
			uint32_t p = cr_pending(&g);
			for (int s = 0; s < GAME_MAX_SEATS; s++) {
				ch[s] = s < seats && (p >> s & 1) ? cr_ai_choose(&g, s) : GAME_NO_CHOICE;
				mix(&h, ch[s]);
			}
			REQUIRE(cr_apply(&g, ch, &evs, err, sizeof err) == 0);
			for (size_t k = 0; k < evs.len; k++) {
				const game_event *e = &evs.v[k];
				mix(&h, (int64_t)e->type << 16 | (uint16_t)e->seat);
				mix(&h, e->a);
				mix(&h, e->b);
				mix(&h, e->c);
			}
			game_events_clear(&evs);
		}
		mix_final(&h, &g);
	}
	game_events_free(&evs);
	CHECK_HASH(h, 0x8591e61da4f9f659ULL);
}

/* The server's path: what each seat and a spectator are shown. */
TEST(crawl_pin_kind_json_views_events_results)
{
	const game_kind *k = &crawl_kind;
	uint64_t h = FNV0;
	game_events evs = {0};
	char err[200];
	cJSON *dj = cJSON_Parse("{\"deadly_events\": true}");
	void *cfg[2] = {k->config_new(NULL, err, sizeof err), k->config_new(dj, err, sizeof err)};
	cJSON_Delete(dj);
	REQUIRE(cfg[0] && cfg[1]);
	mix_json(&h, k->config_json(cfg[0]));
	mix_json(&h, k->config_json(cfg[1]));
	for (int n = 0; n < 8; n++) {
		int seats = 1 + n % 4;
		game_events_clear(&evs);
		game_state *st = k->create(cfg[n / 4], seats, 700 + (uint64_t)n, NULL, &evs, err,
					   sizeof err);
		REQUIRE(st != NULL);
		for (size_t e = 0; e < evs.len; e++) {
			cJSON *j = k->event_json(st, &evs.v[e], -1);
			if (j)
				mix_json(&h, j);
		}
		while (!k->is_over(st))
			REQUIRE(mix_kind_decision(&h, k, st, seats, n % seats, false, &evs));
		mix_json(&h, k->result_json(st, (1u << seats) - 1));
		int64_t v[64];
		for (int s = -1; s < seats; s++) {
			k->stats(st, s, 0, v);
			for (int i = 0; i < k->n_stats; i++)
				mix(&h, v[i]);
			if (s >= 0)
				mix(&h, k->achievements(st, s, 0));
		}
		k->destroy(st);
	}
	k->config_free(cfg[0]);
	k->config_free(cfg[1]);
	game_events_free(&evs);
	CHECK_HASH(h, 0x9664b245c976cea8ULL);
}
