/*
 * test_crawl_events.c — crawl's events (docs/rules/crawl.md C21–C29): the
 * pool of each level, the selection flow with a condition that fails and an
 * exhausted list, IsAllowed() for every living scoundrel, the party's vote
 * on a shared event (majority, a tie settled by the shared generator, one
 * draw for all), each scoundrel's own generator, option requirements, the
 * effect language, and the data files refused when broken.
 */
#include <stdlib.h>
#include <string.h>

#include "../../server/games/crawl/crawl.h"
#include "../../server/games/crawl/crawl_data.h"
#include "../test.h"

static cr_config cfg;
static cr_game g;
static game_events evs;

static void start(int seats, uint64_t seed)
{
	char err[200];
	if (cr_config_parse(&cfg, NULL, err, sizeof err) != 0)
		test_fail(__FILE__, __LINE__, "config: %s", err);
	game_events_clear(&evs);
	cr_game_init(&g, &cfg, seats, seed, NULL);
	g.n_mon = 0; /* no monster interferes */
}

static int ev(const char *id)
{
	for (int e = 0; e < cfg.ct->n_events; e++)
		if (!strcmp(cfg.ct->event[e].id, id))
			return e;
	test_fail(__FILE__, __LINE__, "no event %s", id);
	return 0;
}

TEST(crawl_C21_C27_the_pool_of_each_level)
{
	int shared = 0, own[4] = {0}, voted = 0;
	start(1, 1);
	for (int e = 0; e < cfg.ct->n_events; e++) {
		if (cfg.ct->event[e].act == 0)
			shared++;
		else
			own[cfg.ct->event[e].act]++;
		voted += cfg.ct->event[e].shared;
	}
	CHECK_EQ(shared, 18);
	for (int a = 1; a <= 3; a++)
		CHECK(own[a] >= 3);
	CHECK(voted >= 6);
	/* the pool: the act's own and the shared ones, each once */
	CHECK_EQ(g.n_pool, 18 + own[1]);
	uint64_t in = 0;
	for (int i = 0; i < g.n_pool; i++) {
		const cr_event *e = &cfg.ct->event[g.pool[i]];
		CHECK(e->act == 0 || e->act == 1);
		CHECK(!(in >> g.pool[i] & 1));
		in |= 1ull << g.pool[i];
	}
	/* shuffled by (seed, act, visit): the same triple, the same order */
	uint8_t a[CR_MAX_EVENTS];
	memcpy(a, g.pool, sizeof a);
	cr_pool_shuffle(&g);
	CHECK(memcmp(a, g.pool, (size_t)g.n_pool) == 0);
	g.lv.visit = 1;
	cr_pool_shuffle(&g);
	CHECK(memcmp(a, g.pool, (size_t)g.n_pool) != 0);
	/* another act's pool holds that act's own */
	g.act = 3;
	cr_pool_shuffle(&g);
	CHECK_EQ(g.n_pool, 18 + own[3]);
	for (int i = 0; i < g.n_pool; i++)
		CHECK(cfg.ct->event[g.pool[i]].act != 1);
}

/* C22: the first allowed, unseen event from the top; a failed condition is
 * skipped (and served later once allowed); an exhausted list starts again
 * from the top with repeats; nothing allowed: nothing happens. */
TEST(crawl_C22_selection_flow)
{
	start(1, 2);
	int well = ev("wishing_well"), dog = ev("stray_dog"), fire = ev("campfire"),
	    bridge = ev("rickety_bridge");
	g.n_pool = 4;
	g.pool[0] = (uint8_t)fire; /* needs damaged: not allowed yet */
	g.pool[1] = (uint8_t)well; /* gold_min 10: allowed with 15 */
	g.pool[2] = (uint8_t)dog;
	g.pool[3] = (uint8_t)bridge;
	g.seen_events = 0;
	g.repeat_at = 0;
	CHECK_EQ(cr_event_pick(&g), well);
	CHECK_EQ(cr_event_pick(&g), dog);
	g.h[0].hp = 20; /* now the campfire is allowed */
	CHECK_EQ(cr_event_pick(&g), fire);
	CHECK_EQ(cr_event_pick(&g), bridge);
	/* exhausted: from the top again, repeats allowed, going down the list */
	CHECK_EQ(cr_event_pick(&g), fire);
	CHECK_EQ(cr_event_pick(&g), well);
	g.h[0].pet = true; /* the dog needs no pet: skipped now */
	CHECK_EQ(cr_event_pick(&g), bridge);
	CHECK_EQ(cr_event_pick(&g), fire);
	/* "seen" holds for the whole run: a new level's list skips them */
	g.act = 1;
	g.lv.visit = 1;
	cr_pool_shuffle(&g);
	int first = cr_event_pick(&g);
	CHECK(first != well && first != dog && first != fire && first != bridge);
	/* nothing allowed at all: the ? is quiet */
	g.n_pool = 1;
	g.pool[0] = (uint8_t)well;
	g.h[0].gold = 0;
	CHECK_EQ(cr_event_pick(&g), -1);
	g.flag[g.h[0].y][g.h[0].x + 0] &= 0;
	game_events_clear(&evs);
	cr_event_open(&g, 0, &evs);
	REQUIRE(evs.len == 1);
	CHECK_EQ(evs.v[0].type, CR_EV_NOTHING);
	CHECK_EQ(g.h[0].screen, CR_SC_NONE);
}

/* C23: each kind of condition, and in a party every living scoundrel. */
TEST(crawl_C23_conditions_every_living_scoundrel_meets)
{
	start(2, 3);
	cr_cond c;
	memset(&c, 0, sizeof c);
	c.item = c.relic = c.no_relic = -1;
	CHECK(cr_cond_met(&g, 0, &c));
	c.gold_min = 16;
	CHECK(!cr_cond_met(&g, 0, &c));
	g.h[0].gold = 16;
	CHECK(cr_cond_met(&g, 0, &c));
	c.gold_min = 0;
	c.hp_min = 31;
	CHECK(!cr_cond_met(&g, 0, &c));
	c.hp_min = 0;
	c.damaged = true;
	CHECK(!cr_cond_met(&g, 0, &c));
	g.h[0].hp = 29;
	CHECK(cr_cond_met(&g, 0, &c));
	c.damaged = false;
	c.items_min = 1;
	CHECK(!cr_cond_met(&g, 0, &c));
	g.h[0].inv[5] = (int8_t)cr_item_find(cfg.ct, "dagger");
	CHECK(cr_cond_met(&g, 0, &c));
	c.items_min = 0;
	c.potions_min = 1;
	CHECK(!cr_cond_met(&g, 0, &c));
	g.h[0].inv[6] = (int8_t)cr_item_find(cfg.ct, "potion_poison");
	CHECK(cr_cond_met(&g, 0, &c));
	c.potions_min = 0;
	c.item = (int8_t)cr_item_find(cfg.ct, "chain_mail");
	CHECK(!cr_cond_met(&g, 0, &c));
	g.h[0].armor = c.item; /* worn counts as carried */
	CHECK(cr_cond_met(&g, 0, &c));
	c.item = -1;
	c.relic = cfg.ct->planisphere;
	CHECK(!cr_cond_met(&g, 0, &c));
	g.h[0].relics |= (uint16_t)(1u << cfg.ct->planisphere);
	CHECK(cr_cond_met(&g, 0, &c));
	c.relic = -1;
	c.no_relic = cfg.ct->planisphere;
	CHECK(!cr_cond_met(&g, 0, &c));
	c.no_relic = -1;
	c.no_pet = true;
	g.h[0].pet = true;
	CHECK(!cr_cond_met(&g, 0, &c));
	c.no_pet = false;
	c.floors_min = 1;
	CHECK(!cr_cond_met(&g, 0, &c)); /* the first level: none left behind */
	g.floors = 2;
	CHECK(cr_cond_met(&g, 0, &c));
	c.floors_min = 0;
	c.acts = 1u << 2;
	CHECK(!cr_cond_met(&g, 0, &c));
	g.act = 2;
	CHECK(cr_cond_met(&g, 0, &c));
	/* every living scoundrel must meet an event's conditions */
	start(2, 3);
	int well = ev("wishing_well"); /* gold_min 10 */
	CHECK(cr_event_allowed(&g, well));
	g.h[1].gold = 5;
	CHECK(!cr_event_allowed(&g, well));
	g.h[1].alive = false; /* the fallen do not count */
	CHECK(cr_event_allowed(&g, well));
}

/* C24: a shared event asks every living scoundrel; most votes win; a tie is
 * a draw from the party's shared generator; a chance is drawn once for all;
 * each gets the effects on a scoundrel, the party its once-only ones. */
TEST(crawl_C24_shared_events_are_a_vote)
{
	start(3, 4);
	int altar = ev("altar_of_blood"); /* 0: -6 HP +4 max; 1: +5 HP; 2: leave */
	REQUIRE(cfg.ct->event[altar].shared);
	game_events_clear(&evs);
	g.n_pool = 1;
	g.pool[0] = (uint8_t)altar;
	g.h[2].travel = CR_TR_EXPLORE; /* a traveller votes too */
	cr_event_open(&g, 1, &evs);
	CHECK_EQ(g.n_vote, 1);
	CHECK_EQ(cr_pending(&g), 7u);
	CHECK_EQ(g.h[1].screen, CR_SC_NONE);
	char err[200];
	/* the vote's options only */
	CHECK(cr_choice_check(&g, 0, CR_C_N, err, sizeof err) != 0);
	CHECK(cr_choice_check(&g, 0, CR_C_EVENT + 2, err, sizeof err) == 0);
	game_choice ch[GAME_MAX_SEATS] = {CR_C_EVENT + 0, CR_C_EVENT + 0, CR_C_EVENT + 2};
	int rounds = g.rounds;
	game_events_clear(&evs);
	REQUIRE(cr_apply(&g, ch, &evs, err, sizeof err) == 0);
	CHECK_EQ(g.rounds, rounds); /* no time passed on the map */
	CHECK_EQ(g.n_vote, 0);
	for (int s = 0; s < 3; s++) {
		CHECK_EQ(g.h[s].max_hp, 34);
		CHECK_EQ(g.h[s].hp, 28);
	}
	/* a tie: the shared generator decides, uniformly among the tied */
	int picks[3] = {0};
	for (uint64_t seed = 10; seed < 70; seed++) {
		start(2, seed);
		g.n_pool = 1;
		g.pool[0] = (uint8_t)altar;
		cr_event_open(&g, 0, NULL);
		rng copy = g.shared_rng;
		int want = (int)rng_below(&copy, 2) == 0 ? 0 : 2;
		game_choice t[GAME_MAX_SEATS] = {CR_C_EVENT + 0, CR_C_EVENT + 2};
		game_events_clear(&evs);
		REQUIRE(cr_apply(&g, t, &evs, err, sizeof err) == 0);
		const game_event *v = NULL;
		for (size_t i = 0; i < evs.len; i++)
			if (evs.v[i].type == CR_EV_VOTE)
				v = &evs.v[i];
		REQUIRE(v);
		CHECK_EQ(v->b, want);
		CHECK_EQ(v->c >> 8, 1);
		picks[v->b]++;
	}
	CHECK(picks[0] > 10 && picks[2] > 10 && picks[1] == 0);
	/* one draw for the whole party: the fountain heals all or hurts all */
	int fountain = ev("mysterious_fountain");
	int heals = 0, hurts = 0;
	for (uint64_t seed = 100; seed < 140; seed++) {
		start(3, seed);
		for (int s = 0; s < 3; s++)
			g.h[s].hp = 20;
		g.n_pool = 1;
		g.pool[0] = (uint8_t)fountain;
		cr_event_open(&g, 2, NULL);
		game_choice f[GAME_MAX_SEATS] = {CR_C_EVENT, CR_C_EVENT, CR_C_EVENT};
		game_events_clear(&evs);
		REQUIRE(cr_apply(&g, f, &evs, err, sizeof err) == 0);
		CHECK(g.h[0].hp == g.h[1].hp && g.h[1].hp == g.h[2].hp);
		heals += g.h[0].hp == 30;
		hurts += g.h[0].hp == 15;
		int chances = 0;
		for (size_t i = 0; i < evs.len; i++)
			chances += evs.v[i].type == CR_EV_CHANCE;
		CHECK_EQ(chances, 1);
	}
	CHECK(heals > 0 && hurts > 0);
	/* a fight in a shared event is one ambush, at the one who stepped on it */
	start(2, 7);
	int toll = ev("goblin_toll"); /* 1: fight */
	g.n_pool = 1;
	g.pool[0] = (uint8_t)toll;
	cr_event_open(&g, 1, NULL);
	game_choice f2[GAME_MAX_SEATS] = {CR_C_EVENT + 1, CR_C_EVENT + 1};
	game_events_clear(&evs);
	REQUIRE(cr_apply(&g, f2, &evs, err, sizeof err) == 0);
	int ambush = 0;
	for (size_t i = 0; i < evs.len; i++)
		if (evs.v[i].type == CR_EV_AMBUSH) {
			ambush++;
			CHECK_EQ(evs.v[i].seat, 1);
		}
	CHECK(ambush >= 1 && ambush <= 2);
	/* with one seat, the flag makes no difference: its own screen */
	start(1, 8);
	g.n_pool = 1;
	g.pool[0] = (uint8_t)altar;
	cr_event_open(&g, 0, NULL);
	CHECK_EQ(g.n_vote, 0);
	CHECK_EQ(g.h[0].screen, CR_SC_EVENT);
}

/* C25: an unshared event is the scoundrel's own, drawn from its own
 * generator; the others go on; nobody attacks the one inside. */
TEST(crawl_C25_unshared_events_use_the_scoundrels_own_generator)
{
	start(2, 9);
	int trap = ev("trapped_chest"); /* 0: 50% +35 gold else -6 HP */
	g.n_pool = 1;
	g.pool[0] = (uint8_t)trap;
	cr_event_open(&g, 1, NULL);
	CHECK_EQ(g.h[1].screen, CR_SC_EVENT);
	CHECK_EQ(cr_pending(&g), 3u);
	rng own = g.h[1].erng, rules = g.rules, shared = g.shared_rng, other = g.h[0].erng;
	bool hit = rng_below(&own, 100) < 50;
	char err[200];
	game_choice ch[GAME_MAX_SEATS] = {CR_C_WAIT, CR_C_EVENT + 0};
	REQUIRE(cr_apply(&g, ch, NULL, err, sizeof err) == 0);
	CHECK_EQ(g.h[1].screen, CR_SC_NONE);
	CHECK_EQ(g.h[1].gold, hit ? 50 : 15);
	CHECK_EQ(g.h[1].hp, hit ? 30 : 24);
	CHECK(g.h[1].erng.state == own.state);
	CHECK(g.shared_rng.state == shared.state);
	CHECK(g.h[0].erng.state == other.state);
	(void)rules;
	/* two seats' generators differ */
	CHECK(g.h[0].erng.state != g.h[1].erng.state || g.h[0].erng.inc != g.h[1].erng.inc);
}

/* C26: an option's requirements; every event can always be left. */
TEST(crawl_C26_option_requirements)
{
	start(2, 10);
	int dealer = ev("shady_dealer"); /* 0: 20 gold, 1: 35 gold, 2: free */
	g.h[0].gold = 30;
	g.h[1].gold = 40;
	CHECK(cr_option_open(&g, 0, dealer, 0));
	CHECK(!cr_option_open(&g, 0, dealer, 1));
	CHECK(cr_option_open(&g, 1, dealer, 1));
	CHECK(cr_option_open(&g, 0, dealer, 2));
	CHECK(!cr_option_open(&g, 0, dealer, 3));
	/* a shared event's option is open only if every living one meets it */
	int toll = ev("goblin_toll"); /* 0: gold_min 10 */
	g.h[1].gold = 5;
	CHECK(!cr_option_open(&g, 0, toll, 0));
	CHECK(cr_option_open(&g, 0, toll, 1));
	for (int e = 0; e < cfg.ct->n_events; e++) {
		bool free_one = false;
		for (int k = 0; k < cfg.ct->event[e].n_options; k++) {
			const cr_cond *r = &cfg.ct->event[e].option[k].requires;
			free_one |= !r->gold_min && !r->items_min && !r->potions_min && r->item < 0;
		}
		CHECK_MSG(free_one, "%s", cfg.ct->event[e].id);
	}
}

/* C28: the effect language, one effect at a time. */
static void run_effect(int seat, const char *json)
{
	/* parse through a one-event data set sharing the real items and relics */
	static cr_content tmp;
	char err[200];
	const char *files[4] = {NULL};
	for (int i = 0; i < cr_data_n_files; i++) {
		if (!strcmp(cr_data_files[i].name, "monsters.json"))
			files[0] = cr_data_files[i].text;
		if (!strcmp(cr_data_files[i].name, "items.json"))
			files[1] = cr_data_files[i].text;
		if (!strcmp(cr_data_files[i].name, "relics.json"))
			files[2] = cr_data_files[i].text;
	}
	/* 18 shared and 3 of each act are required: pad with copies */
	char *events = malloc(20000);
	strcpy(events, "{\"events\":[");
	for (int i = 0; i < 27; i++) {
		char one[400];
		snprintf(one, sizeof one,
			 "%s{\"id\":\"e%d\",\"act\":%d,\"name\":\"E\",\"text\":\"E\","
			 "\"options\":[{\"label\":\"x\",\"effects\":[%s]}]}",
			 i ? "," : "", i, i < 18 ? 0 : 1 + (i - 18) / 3, json);
		strcat(events, one);
	}
	strcat(events, "]}");
	int rc = cr_content_parse(&tmp, files[0], files[1], files[2], events, err, sizeof err);
	free(events);
	if (rc) {
		test_fail(__FILE__, __LINE__, "effect %s: %s", json, err);
		return;
	}
	g.cfg.ct = &tmp; /* the same items and relics, in the same order */
	game_events_clear(&evs);
	cr_effects_run(&g, seat, tmp.event[0].option[0].effects, NULL, &g.rules, CR_EFF_ALL,
		       &evs);
}

TEST(crawl_C28_the_effect_language)
{
	start(1, 11);
	cr_hero *h = &g.h[0];
	run_effect(0, "{\"gold\": 20}");
	CHECK_EQ(h->gold, 35);
	run_effect(0, "{\"gold\": -1000}");
	CHECK_EQ(h->gold, 0);
	h->hp = 20;
	run_effect(0, "{\"hp\": 50}");
	CHECK_EQ(h->hp, 30);
	run_effect(0, "{\"hp\": -100}");
	CHECK_EQ(h->hp, 1); /* nobody dies of an event */
	run_effect(0, "{\"heal_full\": true}");
	CHECK_EQ(h->hp, 30);
	run_effect(0, "{\"max_hp\": 5}");
	CHECK(h->max_hp == 35 && h->hp == 35);
	run_effect(0, "{\"max_hp\": -10}");
	CHECK(h->max_hp == 25 && h->hp == 25);
	run_effect(0, "{\"attack\": 2}");
	run_effect(0, "{\"defense\": 1}");
	CHECK(cr_attack_bonus(&g, 0) == 2 && cr_defense(&g, 0) == 1);
	run_effect(0, "{\"xp\": 10}");
	CHECK_EQ(h->level, 2);
	run_effect(0, "{\"item\": \"war_axe\"}");
	CHECK_EQ(h->inv[0], cr_item_find(g.cfg.ct, "war_axe"));
	run_effect(0, "{\"item\": \"random_potion\"}");
	CHECK(h->inv[1] >= 0 && g.cfg.ct->item[h->inv[1]].cls == CR_IC_POTION);
	run_effect(0, "{\"lose_item\": \"random_potion\"}");
	CHECK(h->inv[1] == -1 && h->inv[0] >= 0);
	run_effect(0, "{\"relic\": \"whetstone\"}");
	CHECK(h->relics >> cr_relic_find(g.cfg.ct, "whetstone") & 1);
	int gold = h->gold;
	run_effect(0, "{\"relic\": \"whetstone\"}"); /* no longer in the pool */
	CHECK_EQ(h->gold, gold + 50);
	run_effect(0, "{\"pet\": true}");
	CHECK(h->pet);
	CHECK_EQ(cr_attack_bonus(&g, 0), 2 + 1 + 1 + 1); /* level 2 gave one too */
	h->inv[2] = (int8_t)cr_item_find(g.cfg.ct, "scroll_teleport");
	run_effect(0, "{\"identify\": 1}");
	CHECK(g.identified >> h->inv[2] & 1);
	run_effect(0, "{\"map\": true}");
	CHECK(g.flag[g.lv.down.y][g.lv.down.x] & CR_F_SEEN);
	run_effect(0, "{\"teleport\": true}");
	CHECK_EQ(evs.v[0].type, CR_EV_TELEPORT);
	CHECK_EQ(g.lv.tile[h->y][h->x], CR_T_FLOOR);
	run_effect(0, "{\"fight\": \"elite\"}");
	REQUIRE(g.n_mon >= 1);
	CHECK(g.cfg.ct->monster[g.mon[g.n_mon - 1].kind].elite);
	int m = g.n_mon - 1, mhp = g.mon[m].hp;
	run_effect(0, "{\"fire\": 7}");
	CHECK_EQ(g.mon[m].hp, mhp - 7);
	/* a chance: then or else, from the generator given */
	int thens = 0;
	for (int i = 0; i < 200; i++) {
		int before = h->gold;
		run_effect(0, "{\"chance\": 30, \"then\": [{\"gold\": 1}], \"else\": []}");
		thens += h->gold > before;
	}
	CHECK(thens > 30 && thens < 90);
}

/* C29: the data is validated; errors name the file and the entry. */
TEST(crawl_C29_broken_data_is_refused_with_its_place)
{
	const char *files[4] = {NULL};
	static const char *const names[4] = {"monsters.json", "items.json", "relics.json",
					     "events.json"};
	for (int i = 0; i < cr_data_n_files; i++)
		for (int k = 0; k < 4; k++)
			if (!strcmp(cr_data_files[i].name, names[k]))
				files[k] = cr_data_files[i].text;
	for (int k = 0; k < 4; k++)
		REQUIRE(files[k]);
	static cr_content ct;
	char err[300];
	REQUIRE(cr_content_parse(&ct, files[0], files[1], files[2], files[3], err, sizeof err) ==
		0);
	struct {
		int file;
		const char *from, *to, *says;
	} cases[] = {
		{0, "\"hp\": 4,", "\"hp\": 0,", "monster 'rat'"},
		{0, "\"glyph\": \"r\"", "\"glyph\": \"rr\"", "glyph"},
		{0, "\"boss\": true, ", "", "boss"},
		{0, "\"sight\": 5}", "\"sight\": 5, \"fly\": 1}", "unknown field 'fly'"},
		{1, "\"appearance\": \"murky potion\"", "\"appearance\": \"effervescent potion\"",
		 "used twice"},
		{1, "\"class\": \"scroll\", \"name\": \"scroll of teleportation\", \"appearance\": "
		    "\"dusty scroll\",",
		 "\"class\": \"scroll\", \"name\": \"scroll of teleportation\",", "appearance"},
		{1, "[{\"hp\": 15}]", "[{\"heals\": 15}]", "unknown effect 'heals'"},
		{1, "\"bonus\": 1, \"value\": 15", "\"bonus\": 0, \"value\": 15", "bonus"},
		{2, "\"special\": \"juzu\"", "\"special\": \"juju\"", "special"},
		{2, ", \"special\": \"planisphere\"", "", "planisphere relics must all be there"},
		{3, "\"item\": \"chain_mail\"", "\"item\": \"chainmail\"", "no item 'chainmail'"},
		{3, "\"no_relic\": \"golden_compass\"", "\"no_relic\": \"compass\"",
		 "no relic 'compass'"},
		{3, "\"act\": 3, \"name\": \"The Star", "\"act\": 4, \"name\": \"The Star",
		 "within 0..3"},
		{3, "\"id\": \"wishing_well\", \"act\": 0", "\"id\": \"wishing_well\", \"act\": 1",
		 "17 shared"},
		{3, "{\"chance\": 50, \"then\": [{\"item\": \"random_potion\"}], \"else\": []}",
		 "{\"chance\": 50, \"then\": [{\"chance\": 5, \"then\": [], \"else\": []}], "
		 "\"else\": []}",
		 "chance inside a chance"},
		{3, "{\"label\": \"Walk on\", \"effects\": []}]}",
		 "{\"label\": \"Walk on\", \"requires\": {\"gold_min\": 1}, \"effects\": []}]}",
		 "open to anyone"},
		{3, "\"conditions\": {\"gold_min\": 10},", "\"conditions\": {\"gold\": 10},",
		 "unknown field 'gold'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *src = files[cases[i].file];
		const char *at = strstr(src, cases[i].from);
		if (!at) {
			test_fail(__FILE__, __LINE__, "case %zu: '%s' not in the data", i,
				  cases[i].from);
			continue;
		}
		size_t n = strlen(src) + strlen(cases[i].to) + 1;
		char *t = malloc(n);
		size_t pre = (size_t)(at - src);
		memcpy(t, src, pre);
		strcpy(t + pre, cases[i].to);
		strcat(t, at + strlen(cases[i].from));
		const char *f[4] = {files[0], files[1], files[2], files[3]};
		f[cases[i].file] = t;
		err[0] = 0;
		CHECK_MSG(cr_content_parse(&ct, f[0], f[1], f[2], f[3], err, sizeof err) != 0,
			  "case %zu accepted", i);
		CHECK_MSG(strstr(err, names[cases[i].file]) && strstr(err, cases[i].says),
			  "case %zu: %s", i, err);
		free(t);
	}
	/* an act with fewer than 3 events of its own */
	char *two = strdup(files[3]);
	for (int i = 0; i < 2; i++) {
		char *at = strstr(two, "\"act\": 3,");
		REQUIRE(at);
		at[7] = '2';
	}
	CHECK(cr_content_parse(&ct, files[0], files[1], files[2], two, err, sizeof err) != 0);
	CHECK_MSG(strstr(err, "act 3 has 2 events of its own"), "%s", err);
	free(two);
	CHECK(cr_content_parse(&ct, "{", files[1], files[2], files[3], err, sizeof err) != 0);
	CHECK(strstr(err, "monsters.json") != NULL);
	CHECK(cr_content_parse(&ct, NULL, files[1], files[2], files[3], err, sizeof err) != 0);
}
