/*
 * gems_names.c — the stable names of adventures, choices, warnings and
 * events: the words of the protocol (proto/kinds/gems.md) and the logs.
 */
#include "../../../common/util.h"
#include "gems_int.h"

static const char *const adv_keys[GEMS_N_ADV] = {
	"banker", "sun_moon", "ferryman", "monte", "sphinx",
	"scout", "mushroom", "poison", "devil", "little_people",
};

static const char *const adv_labels[GEMS_N_ADV] = {
	"Gems for Cash Banker", "Sun & Moon", "Gems & Lava Lake Ferryman",
	"Three Card Monte", "Sphinx", "Spider Scout", "Mushroom",
	"Used Poison Bottle", "A Devil with a Deal", "Little People",
};

static const char *const choice_keys[GEMS_N_CHOICES] = {
	"leave", "stay", "bank4", "bank8", "bank12", "sun", "moon", "pay", "card1",
	"card2", "card3", "left", "right", "eat", "devil3", "devil4", "devil5", "carry",
};

static const char *const warning_texts[5] = {
	"Beware! A gem-stealing spider lies ahead.",
	"It's giant!",
	"It's venomous!",
	"It eats humans!",
	"Abandon hope all who continue ahead!",
};

static const char *const event_keys[GEMS_N_EVENTS] = {
	[GEMS_EV_GAME_START] = "game_start",
	[GEMS_EV_ADV_USED] = "adventure_used",
	[GEMS_EV_DUNGEON_START] = "dungeon_start",
	[GEMS_EV_ROOM] = "room",
	[GEMS_EV_BATS] = "bats",
	[GEMS_EV_GEMS] = "gems",
	[GEMS_EV_SHARE] = "share",
	[GEMS_EV_BAR] = "gold_bar",
	[GEMS_EV_WARNING] = "warning",
	[GEMS_EV_LAIR] = "lair",
	[GEMS_EV_SCARED] = "scared",
	[GEMS_EV_DEAD_SPIDER] = "dead_spider",
	[GEMS_EV_POISON] = "poison",
	[GEMS_EV_ADVENTURE] = "adventure",
	[GEMS_EV_FERRY_GRANT] = "ferry_grant",
	[GEMS_EV_MONTE_DEAL] = "monte_deal",
	[GEMS_EV_SCOUT] = "scout",
	[GEMS_EV_PEOPLE] = "little_people",
	[GEMS_EV_CHOICE] = "choice",
	[GEMS_EV_BANK] = "bank",
	[GEMS_EV_SUNMOON] = "sun_moon",
	[GEMS_EV_SUNMOON_SEAT] = "sun_moon_seat",
	[GEMS_EV_MONTE_REVEAL] = "monte_reveal",
	[GEMS_EV_MONTE_SEAT] = "monte_seat",
	[GEMS_EV_FERRY_PAY] = "ferry_pay",
	[GEMS_EV_SPHINX] = "sphinx",
	[GEMS_EV_COINS] = "coins",
	[GEMS_EV_MUSHROOM] = "mushroom",
	[GEMS_EV_SIZE] = "size",
	[GEMS_EV_DEVIL] = "devil",
	[GEMS_EV_CARRY] = "carry",
	[GEMS_EV_LEAVE] = "leave",
	[GEMS_EV_LEAVE_BAR] = "leave_bar",
	[GEMS_EV_BRAVERY] = "bravery",
	[GEMS_EV_DUNGEON_END] = "dungeon_end",
	[GEMS_EV_REVEAL_ADV] = "reveal_adventure",
	[GEMS_EV_REVEAL_ROOM] = "reveal_room",
	[GEMS_EV_GAME_OVER] = "game_over",
};

const char *gems_adv_key(int adv) { return name_at(adv_keys, GEMS_N_ADV, adv); }

const char *gems_adv_label(int adv) { return name_at(adv_labels, GEMS_N_ADV, adv); }

int gems_adv_parse(const char *key) { return name_index(adv_keys, GEMS_N_ADV, key); }

const char *gems_choice_key(int choice)
{
	return name_at(choice_keys, GEMS_N_CHOICES, choice);
}

int gems_choice_parse_key(const char *key)
{
	return name_index(choice_keys, GEMS_N_CHOICES, key);
}

const char *gems_warning_text(int k)
{
	return warning_texts[k < 0 ? 0 : k > 4 ? 4 : k];
}

const char *gems_event_key(int type) { return name_at(event_keys, GEMS_N_EVENTS, type); }
