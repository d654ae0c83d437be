/*
 * cr_data.c — crawl's content: data/NAME.json (embedded, crawl_data.h) parsed
 * into a cr_content and validated (docs/rules/crawl.md C29). Every error
 * names the file, the entry and what is wrong; nothing half-parsed is used.
 * laird checks the content when it starts (every kind's default config must
 * load), so broken data stops the server at once, not a game later. The
 * embedded files are parsed once per process (cr_content_builtin): every
 * config and game of the process points at that one immutable table.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../../common/util.h"
#include "crawl.h"
#include "crawl_data.h"

const char *const cr_item_class_names[CR_NIC] = {"potion", "scroll", "food", "weapon", "armor"};

typedef struct parser {
	cr_content *ct;
	const char *file;
	char where[96];
	char *err;
	size_t errlen;
	bool failed;
} parser;

static bool fail(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(parser *p, const char *fmt, ...)
{
	if (p->failed)
		return false;
	p->failed = true;
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s: %s: %s", p->file, p->where, msg);
	return false;
}

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* Every key of o is one of the names (NULL-terminated). */
static bool only_keys(parser *p, const cJSON *o, const char *const *names)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, o)
	{
		bool known = false;
		for (int i = 0; names[i] && !known; i++)
			known = strcmp(it->string, names[i]) == 0;
		if (!known)
			return fail(p, "unknown field '%s'", it->string);
	}
	return true;
}

static bool str_field(parser *p, const cJSON *o, const char *k, char *out, size_t size,
		      bool required)
{
	const cJSON *v = get(o, k);
	if (!v) {
		out[0] = '\0';
		return required ? fail(p, "'%s' is missing", k) : true;
	}
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return fail(p, "'%s' must be a non-empty string", k);
	if (strlen(v->valuestring) >= size)
		return fail(p, "'%s' is longer than %zu bytes", k, size - 1);
	strlcpy_safe(out, v->valuestring, size);
	return true;
}

static bool int_field(parser *p, const cJSON *o, const char *k, int lo, int hi, int dflt,
		      int *out)
{
	const cJSON *v = get(o, k);
	if (!v) {
		*out = dflt;
		return true;
	}
	double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
	if (!(d >= lo && d <= hi) || d != floor(d))
		return fail(p, "'%s' must be a whole number within %d..%d", k, lo, hi);
	*out = (int)d;
	return true;
}

static bool bool_field(parser *p, const cJSON *o, const char *k, bool *out)
{
	const cJSON *v = get(o, k);
	if (!v) {
		*out = false;
		return true;
	}
	if (!cJSON_IsBool(v))
		return fail(p, "'%s' must be true or false", k);
	*out = cJSON_IsTrue(v);
	return true;
}

/* An id: lower case, digits and '_', unique within its list. */
static bool id_ok(parser *p, const char *id)
{
	for (const char *c = id; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
			return fail(p, "id '%s': use a-z, 0-9 and _", id);
	return true;
}

static const cJSON *list(parser *p, const char *text, const char *key, cJSON **root)
{
	*root = cJSON_Parse(text);
	snprintf(p->where, sizeof p->where, "the file");
	if (!*root) {
		fail(p, "not valid JSON");
		return NULL;
	}
	const cJSON *arr = get(*root, key);
	if (!cJSON_IsObject(*root) || !cJSON_IsArray(arr)) {
		fail(p, "must be an object with an array '%s'", key);
		return NULL;
	}
	static const char *const top[] = {"about", "monsters", "items", "relics", "events", NULL};
	if (!only_keys(p, *root, top))
		return NULL;
	return arr;
}

/* "acts": [1, 3] as bits. */
static bool acts_field(parser *p, const cJSON *o, const char *k, uint8_t *out)
{
	const cJSON *v = get(o, k);
	*out = 0;
	if (!v)
		return true;
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
		return fail(p, "'%s' must be a non-empty list of acts", k);
	const cJSON *a;
	cJSON_ArrayForEach(a, v)
	{
		double d = cJSON_IsNumber(a) ? a->valuedouble : NAN;
		if (!(d >= 1 && d <= CR_MAX_ACTS) || d != floor(d))
			return fail(p, "'%s' holds acts 1..%d", k, CR_MAX_ACTS);
		*out |= (uint8_t)(1u << (int)d);
	}
	return true;
}

/* [lo, hi] */
static bool pair_field(parser *p, const cJSON *o, const char *k, int hi_max, int16_t *lo,
		       int16_t *hi)
{
	const cJSON *v = get(o, k);
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2)
		return fail(p, "'%s' must be [low, high]", k);
	double a = cJSON_IsNumber(v->child) ? v->child->valuedouble : NAN;
	double b = cJSON_IsNumber(v->child->next) ? v->child->next->valuedouble : NAN;
	if (!(a >= 0 && b >= a && b <= hi_max) || a != floor(a) || b != floor(b))
		return fail(p, "'%s' must be [low, high] within 0..%d", k, hi_max);
	*lo = (int16_t)a;
	*hi = (int16_t)b;
	return true;
}

/* ---- monsters ------------------------------------------------------------ */

static bool parse_monsters(parser *p, const char *text)
{
	cJSON *root;
	p->file = "monsters.json";
	const cJSON *arr = list(p, text, "monsters", &root);
	cr_content *ct = p->ct;
	const cJSON *m;
	ct->devil = -1;
	cJSON_ArrayForEach(m, arr)
	{
		snprintf(p->where, sizeof p->where, "monster %d", ct->n_monsters + 1);
		if (ct->n_monsters == CR_MAX_MONSTER_KINDS) {
			fail(p, "more than %d monsters", CR_MAX_MONSTER_KINDS);
			break;
		}
		static const char *const keys[] = {"id", "name", "glyph", "acts", "elite", "boss",
						   "hp", "attack", "defense", "xp", "gold", "speed",
						   "sight", NULL};
		cr_monster_kind *k = &ct->monster[ct->n_monsters];
		char glyph[4];
		int v[5] = {0};
		if (!cJSON_IsObject(m) || !only_keys(p, m, keys) ||
		    !str_field(p, m, "id", k->id, sizeof k->id, true) || !id_ok(p, k->id))
			break;
		snprintf(p->where, sizeof p->where, "monster '%s'", k->id);
		if (!str_field(p, m, "name", k->name, sizeof k->name, true) ||
		    !str_field(p, m, "glyph", glyph, sizeof glyph, true) ||
		    !acts_field(p, m, "acts", &k->acts) || !bool_field(p, m, "elite", &k->elite) ||
		    !bool_field(p, m, "boss", &k->boss) ||
		    !int_field(p, m, "hp", 1, 999, 0, &v[0]) ||
		    !pair_field(p, m, "attack", 99, &k->atk_lo, &k->atk_hi) ||
		    !int_field(p, m, "defense", 0, 20, 0, &v[1]) ||
		    !int_field(p, m, "xp", 0, 999, 0, &v[2]) ||
		    !pair_field(p, m, "gold", 999, &k->gold_lo, &k->gold_hi) ||
		    !int_field(p, m, "speed", 1, 2, 1, &v[3]) ||
		    !int_field(p, m, "sight", 1, 20, 6, &v[4]))
			break;
		if (strlen(glyph) != 1 || !((glyph[0] >= 'a' && glyph[0] <= 'z') ||
					    (glyph[0] >= 'A' && glyph[0] <= 'Z'))) {
			fail(p, "'glyph' must be one letter");
			break;
		}
		if (!k->acts) {
			fail(p, "'acts' is missing");
			break;
		}
		k->glyph = glyph[0];
		k->hp = (int16_t)v[0];
		k->def = (int16_t)v[1];
		k->xp = (int16_t)v[2];
		k->speed = (uint8_t)v[3];
		k->sight = (uint8_t)v[4];
		for (int i = 0; i < ct->n_monsters; i++)
			if (!strcmp(ct->monster[i].id, k->id))
				fail(p, "the id is used twice");
		if (k->boss) {
			if (ct->devil >= 0)
				fail(p, "a second boss (there is one devil)");
			ct->devil = (int8_t)ct->n_monsters;
		}
		ct->n_monsters++;
	}
	snprintf(p->where, sizeof p->where, "the list");
	if (!p->failed && ct->devil < 0)
		fail(p, "no monster is the boss (the devil)");
	/* C20, C35: every act needs monsters to spawn and an elite to meet */
	for (int a = 1; a <= CR_MAX_ACTS && !p->failed; a++) {
		int plain = 0, elite = 0;
		for (int i = 0; i < ct->n_monsters; i++) {
			const cr_monster_kind *k = &ct->monster[i];
			if (!(k->acts & (1u << a)) || k->boss)
				continue;
			if (k->elite)
				elite++;
			else
				plain++;
		}
		if (!plain || !elite)
			fail(p, "act %d needs at least one monster and one elite", a);
	}
	cJSON_Delete(root);
	return !p->failed;
}

/* ---- effects and conditions --------------------------------------------------- */

static bool parse_effects(parser *p, const cJSON *arr, cr_range *out, int depth);

static int item_ref(parser *p, const char *name, bool pick_ok)
{
	static const struct {
		const char *name;
		int v;
	} picks[] = {{"random", CR_PICK_ANY},
		     {"random_potion", CR_PICK_POTION},
		     {"random_scroll", CR_PICK_SCROLL},
		     {"random_equipment", CR_PICK_GEAR}};
	for (size_t i = 0; i < ARRAY_LEN(picks); i++)
		if (pick_ok && !strcmp(name, picks[i].name))
			return picks[i].v;
	int k = cr_item_find(p->ct, name);
	if (k < 0)
		fail(p, "no item '%s'", name);
	return k;
}

static bool parse_effect(parser *p, const cJSON *e, cr_effect *out, int depth)
{
	static const char *const names[CR_NOPS] = {
		[CR_E_GOLD] = "gold",	       [CR_E_HP] = "hp",
		[CR_E_HEAL_FULL] = "heal_full", [CR_E_MAX_HP] = "max_hp",
		[CR_E_ATTACK] = "attack",      [CR_E_DEFENSE] = "defense",
		[CR_E_XP] = "xp",	       [CR_E_ITEM] = "item",
		[CR_E_LOSE_ITEM] = "lose_item", [CR_E_RELIC] = "relic",
		[CR_E_PET] = "pet",	       [CR_E_IDENTIFY] = "identify",
		[CR_E_MAP] = "map",	       [CR_E_TELEPORT] = "teleport",
		[CR_E_FIGHT] = "fight",	       [CR_E_FIRE] = "fire",
		[CR_E_CHANCE] = "chance",
	};
	if (!cJSON_IsObject(e) || !e->child)
		return fail(p, "an effect is an object such as {\"gold\": 10}");
	const char *key = e->child->string;
	const cJSON *v = e->child;
	int op = name_index(names, CR_NOPS, key);
	if (op < 0)
		return fail(p, "unknown effect '%s'", key);
	if (op != CR_E_CHANCE && e->child->next)
		return fail(p, "an effect has one key ('%s' has more)", key);
	memset(out, 0, sizeof *out);
	out->op = (uint8_t)op;
	double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
	bool whole = d == floor(d);
	switch (op) {
	case CR_E_GOLD:
		if (!(fabs(d) <= 100000) || !whole || d == 0)
			return fail(p, "'gold' must be a whole number, not 0");
		out->n = (int32_t)d;
		break;
	case CR_E_HP:
	case CR_E_MAX_HP:
	case CR_E_ATTACK:
	case CR_E_DEFENSE:
		if (!(fabs(d) <= 100) || !whole || d == 0)
			return fail(p, "'%s' must be a whole number within -100..100, not 0", key);
		out->n = (int32_t)d;
		break;
	case CR_E_XP:
	case CR_E_IDENTIFY:
	case CR_E_FIRE:
		if (!(d >= 1 && d <= 1000) || !whole)
			return fail(p, "'%s' must be a whole number within 1..1000", key);
		out->n = (int32_t)d;
		break;
	case CR_E_HEAL_FULL:
	case CR_E_PET:
	case CR_E_MAP:
	case CR_E_TELEPORT:
		if (!cJSON_IsTrue(v))
			return fail(p, "'%s' takes true", key);
		break;
	case CR_E_ITEM:
	case CR_E_LOSE_ITEM:
		if (!cJSON_IsString(v))
			return fail(p, "'%s' takes an item id or random...", key);
		if (op == CR_E_LOSE_ITEM && strcmp(v->valuestring, "random") &&
		    strcmp(v->valuestring, "random_potion"))
			return fail(p, "'lose_item' takes \"random\" or \"random_potion\"");
		out->arg = (int16_t)item_ref(p, v->valuestring, true);
		break;
	case CR_E_RELIC:
		if (!cJSON_IsString(v))
			return fail(p, "'relic' takes a relic id or \"random\"");
		if (!strcmp(v->valuestring, "random")) {
			out->arg = CR_PICK_ANY;
		} else {
			out->arg = (int16_t)cr_relic_find(p->ct, v->valuestring);
			if (out->arg < 0)
				return fail(p, "no relic '%s'", v->valuestring);
		}
		break;
	case CR_E_FIGHT:
		if (!cJSON_IsString(v) ||
		    (strcmp(v->valuestring, "normal") && strcmp(v->valuestring, "elite")))
			return fail(p, "'fight' takes \"normal\" or \"elite\"");
		out->arg = strcmp(v->valuestring, "elite") == 0;
		break;
	case CR_E_CHANCE: {
		static const char *const keys[] = {"chance", "then", "else", NULL};
		if (!(d >= 1 && d <= 99) || !whole)
			return fail(p, "'chance' must be a percent within 1..99");
		if (depth > 0)
			return fail(p, "a chance inside a chance");
		if (!only_keys(p, e, keys))
			return false;
		out->n = (int32_t)d;
		cr_range a, b;
		const cJSON *t = get(e, "then"), *el = get(e, "else");
		if (!t || !el)
			return fail(p, "'chance' needs 'then' and 'else' lists");
		if (!parse_effects(p, t, &a, depth + 1) || !parse_effects(p, el, &b, depth + 1))
			return false;
		out->then_at = a.at;
		out->then_n = a.n;
		out->else_at = b.at;
		out->else_n = b.n;
		break;
	}
	}
	return !p->failed;
}

/* A list of effects into consecutive pool entries (nested lists first, so
 * that a chance's branches sit before it). */
static bool parse_effects(parser *p, const cJSON *arr, cr_range *out, int depth)
{
	if (!cJSON_IsArray(arr))
		return fail(p, "'effects' must be a list");
	int n = cJSON_GetArraySize(arr);
	cr_effect tmp[16];
	if (n > 16)
		return fail(p, "more than 16 effects in a list");
	int i = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, arr) if (!parse_effect(p, e, &tmp[i++], depth)) return false;
	cr_content *ct = p->ct;
	if (ct->n_effects + n > CR_MAX_EFFECTS)
		return fail(p, "more than %d effects in all", CR_MAX_EFFECTS);
	out->at = (uint16_t)ct->n_effects;
	out->n = (uint16_t)n;
	memcpy(&ct->effect[ct->n_effects], tmp, (size_t)n * sizeof tmp[0]);
	ct->n_effects += n;
	return true;
}

static bool parse_cond(parser *p, const cJSON *o, cr_cond *c)
{
	memset(c, 0, sizeof *c);
	c->item = c->relic = c->no_relic = -1;
	if (!o)
		return true;
	static const char *const keys[] = {"gold_min",	  "hp_min", "items_min", "potions_min",
					   "floors_min", "item",   "relic",	"no_relic",
					   "damaged",	  "no_pet", "acts",	NULL};
	if (!cJSON_IsObject(o) || !only_keys(p, o, keys))
		return fail(p, "conditions must be an object of the known kinds");
	int v[5] = {0};
	if (!int_field(p, o, "gold_min", 0, 100000, 0, &v[0]) ||
	    !int_field(p, o, "hp_min", 0, 1000, 0, &v[1]) ||
	    !int_field(p, o, "items_min", 0, CR_INV_MAX, 0, &v[2]) ||
	    !int_field(p, o, "potions_min", 0, CR_INV_MAX, 0, &v[3]) ||
	    !int_field(p, o, "floors_min", 0, 1000, 0, &v[4]) ||
	    !bool_field(p, o, "damaged", &c->damaged) || !bool_field(p, o, "no_pet", &c->no_pet) ||
	    !acts_field(p, o, "acts", &c->acts))
		return false;
	c->gold_min = (int16_t)v[0];
	c->hp_min = (int16_t)v[1];
	c->items_min = (int16_t)v[2];
	c->potions_min = (int16_t)v[3];
	c->floors_min = (int16_t)v[4];
	char id[24];
	if (get(o, "item")) {
		if (!str_field(p, o, "item", id, sizeof id, true))
			return false;
		c->item = (int8_t)item_ref(p, id, false);
	}
	const char *rk[2] = {"relic", "no_relic"};
	int8_t *rv[2] = {&c->relic, &c->no_relic};
	for (int i = 0; i < 2; i++) {
		if (!get(o, rk[i]))
			continue;
		if (!str_field(p, o, rk[i], id, sizeof id, true))
			return false;
		*rv[i] = (int8_t)cr_relic_find(p->ct, id);
		if (*rv[i] < 0)
			return fail(p, "no relic '%s'", id);
	}
	return !p->failed;
}

/* ---- items and relics --------------------------------------------------------- */

static bool parse_items(parser *p, const char *text)
{
	cJSON *root;
	p->file = "items.json";
	const cJSON *arr = list(p, text, "items", &root);
	cr_content *ct = p->ct;
	const cJSON *m;
	/* Two passes: the ids first, so that an effect may name any item. */
	cJSON_ArrayForEach(m, arr)
	{
		snprintf(p->where, sizeof p->where, "item %d", ct->n_items + 1);
		if (ct->n_items == CR_MAX_ITEM_KINDS) {
			fail(p, "more than %d items", CR_MAX_ITEM_KINDS);
			break;
		}
		cr_item_kind *k = &ct->item[ct->n_items];
		if (!cJSON_IsObject(m) || !str_field(p, m, "id", k->id, sizeof k->id, true) ||
		    !id_ok(p, k->id))
			break;
		for (int i = 0; i < ct->n_items; i++)
			if (!strcmp(ct->item[i].id, k->id))
				fail(p, "the id '%s' is used twice", k->id);
		ct->n_items++;
	}
	int i = 0;
	cJSON_ArrayForEach(m, arr)
	{
		if (p->failed)
			break;
		cr_item_kind *k = &ct->item[i++];
		snprintf(p->where, sizeof p->where, "item '%s'", k->id);
		static const char *const keys[] = {"id",    "class",  "name",	 "appearance",
						   "effects", "bonus", "value",	 "weight",
						   "min_act", NULL};
		char cls[16];
		int v[4] = {0};
		if (!only_keys(p, m, keys) || !str_field(p, m, "class", cls, sizeof cls, true) ||
		    !str_field(p, m, "name", k->name, sizeof k->name, true) ||
		    !str_field(p, m, "appearance", k->appearance, sizeof k->appearance, false) ||
		    !int_field(p, m, "bonus", 0, 20, 0, &v[0]) ||
		    !int_field(p, m, "value", 1, 10000, 0, &v[1]) ||
		    !int_field(p, m, "weight", 1, 100, 0, &v[2]) ||
		    !int_field(p, m, "min_act", 1, CR_MAX_ACTS, 1, &v[3]))
			break;
		int c = name_index(cr_item_class_names, CR_NIC, cls);
		if (c < 0) {
			fail(p, "'class' must be potion, scroll, food, weapon or armor");
			break;
		}
		k->cls = (uint8_t)c;
		k->bonus = (int16_t)v[0];
		k->value = (int16_t)v[1];
		k->weight = (int16_t)v[2];
		k->min_act = (uint8_t)v[3];
		bool unknown = c == CR_IC_POTION || c == CR_IC_SCROLL;
		bool gear = c == CR_IC_WEAPON || c == CR_IC_ARMOR;
		/* C30: potions and scrolls are unknown, everything else is known */
		if (unknown != (k->appearance[0] != '\0')) {
			fail(p, unknown ? "a %s needs an 'appearance'"
					: "a %s is known: no 'appearance'",
			     cls);
			break;
		}
		if (gear != (k->bonus > 0) || gear == (get(m, "effects") != NULL)) {
			fail(p, gear ? "weapons and armour have a 'bonus' and no 'effects'"
				     : "this class has 'effects' and no 'bonus'");
			break;
		}
		if (!gear && !parse_effects(p, get(m, "effects"), &k->effects, 0))
			break;
		for (int j = 0; j < i - 1; j++)
			if (k->appearance[0] && !strcmp(ct->item[j].appearance, k->appearance))
				fail(p, "the appearance '%s' is used twice", k->appearance);
	}
	cJSON_Delete(root);
	return !p->failed;
}

static bool parse_relics(parser *p, const char *text)
{
	cJSON *root;
	p->file = "relics.json";
	const cJSON *arr = list(p, text, "relics", &root);
	cr_content *ct = p->ct;
	ct->juzu = ct->compass = ct->planisphere = -1;
	const cJSON *m;
	cJSON_ArrayForEach(m, arr)
	{
		snprintf(p->where, sizeof p->where, "relic %d", ct->n_relics + 1);
		if (ct->n_relics == CR_MAX_RELICS) {
			fail(p, "more than %d relics", CR_MAX_RELICS);
			break;
		}
		cr_relic *r = &ct->relic[ct->n_relics];
		static const char *const keys[] = {"id",	  "name",    "text",   "special",
						   "attack",	  "defense", "sight",  "gold_pct",
						   "max_hp",	  "slots",   "heal_on_kill", NULL};
		char special[16];
		int v[7] = {0};
		if (!cJSON_IsObject(m) || !only_keys(p, m, keys) ||
		    !str_field(p, m, "id", r->id, sizeof r->id, true) || !id_ok(p, r->id))
			break;
		snprintf(p->where, sizeof p->where, "relic '%s'", r->id);
		if (!str_field(p, m, "name", r->name, sizeof r->name, true) ||
		    !str_field(p, m, "text", r->text, sizeof r->text, true) ||
		    !str_field(p, m, "special", special, sizeof special, false) ||
		    !int_field(p, m, "attack", 0, 10, 0, &v[0]) ||
		    !int_field(p, m, "defense", 0, 10, 0, &v[1]) ||
		    !int_field(p, m, "sight", 0, 5, 0, &v[2]) ||
		    !int_field(p, m, "gold_pct", 0, 500, 0, &v[3]) ||
		    !int_field(p, m, "max_hp", 0, 100, 0, &v[4]) ||
		    !int_field(p, m, "slots", 0, CR_INV_MAX - CR_INV_BASE, 0, &v[5]) ||
		    !int_field(p, m, "heal_on_kill", 0, 50, 0, &v[6]))
			break;
		r->attack = (int16_t)v[0];
		r->defense = (int16_t)v[1];
		r->sight = (int16_t)v[2];
		r->gold_pct = (int16_t)v[3];
		r->max_hp = (int16_t)v[4];
		r->slots = (int16_t)v[5];
		r->heal_on_kill = (int16_t)v[6];
		static const char *const sp[] = {"", "juzu", "compass", "planisphere"};
		int s = special[0] ? name_index(sp, 4, special) : 0;
		int8_t *slot[] = {NULL, &ct->juzu, &ct->compass, &ct->planisphere};
		if (s <= 0 && special[0]) {
			fail(p, "'special' must be juzu, compass or planisphere");
			break;
		}
		if (s > 0) {
			if (*slot[s] >= 0)
				fail(p, "a second '%s' relic", special);
			*slot[s] = (int8_t)ct->n_relics;
		}
		r->special = (uint8_t)s;
		for (int i = 0; i < ct->n_relics; i++)
			if (!strcmp(ct->relic[i].id, r->id))
				fail(p, "the id is used twice");
		ct->n_relics++;
	}
	snprintf(p->where, sizeof p->where, "the list");
	if (!p->failed && (ct->juzu < 0 || ct->compass < 0 || ct->planisphere < 0))
		fail(p, "the juzu, compass and planisphere relics must all be there");
	cJSON_Delete(root);
	return !p->failed;
}

/* ---- events ------------------------------------------------------------------ */

static bool parse_events(parser *p, const char *text)
{
	cJSON *root;
	p->file = "events.json";
	const cJSON *arr = list(p, text, "events", &root);
	cr_content *ct = p->ct;
	const cJSON *m;
	cJSON_ArrayForEach(m, arr)
	{
		snprintf(p->where, sizeof p->where, "event %d", ct->n_events + 1);
		if (ct->n_events == CR_MAX_EVENTS) {
			fail(p, "more than %d events", CR_MAX_EVENTS);
			break;
		}
		cr_event *e = &ct->event[ct->n_events];
		static const char *const keys[] = {"id",      "act",	   "name",    "text",
						   "shared", "conditions", "options", NULL};
		int act = 0;
		if (!cJSON_IsObject(m) || !only_keys(p, m, keys) ||
		    !str_field(p, m, "id", e->id, sizeof e->id, true) || !id_ok(p, e->id))
			break;
		snprintf(p->where, sizeof p->where, "event '%s'", e->id);
		if (!get(m, "act")) {
			fail(p, "'act' is missing (0 for a shared event)");
			break;
		}
		if (!int_field(p, m, "act", 0, CR_MAX_ACTS, 0, &act) ||
		    !str_field(p, m, "name", e->name, sizeof e->name, true) ||
		    !str_field(p, m, "text", e->text, sizeof e->text, true) ||
		    !bool_field(p, m, "shared", &e->shared) ||
		    !parse_cond(p, get(m, "conditions"), &e->cond))
			break;
		e->act = (uint8_t)act;
		const cJSON *opts = get(m, "options");
		int n = cJSON_IsArray(opts) ? cJSON_GetArraySize(opts) : 0;
		if (n < 1 || n > CR_MAX_OPTIONS) {
			fail(p, "'options' must list 1..%d options", CR_MAX_OPTIONS);
			break;
		}
		const cJSON *o;
		bool free_option = false;
		cJSON_ArrayForEach(o, opts)
		{
			cr_option *op = &e->option[e->n_options];
			snprintf(p->where, sizeof p->where, "event '%s': option %d", e->id,
				 e->n_options + 1);
			static const char *const okeys[] = {"label", "requires", "effects", NULL};
			if (!cJSON_IsObject(o) || !only_keys(p, o, okeys) ||
			    !str_field(p, o, "label", op->label, sizeof op->label, true) ||
			    !parse_cond(p, get(o, "requires"), &op->requires) ||
			    !parse_effects(p, get(o, "effects"), &op->effects, 0))
				break;
			const cr_cond *r = &op->requires;
			free_option |= !r->gold_min && !r->hp_min && !r->items_min &&
				       !r->potions_min && !r->floors_min && r->item < 0 &&
				       r->relic < 0 && r->no_relic < 0 && !r->damaged && !r->no_pet &&
				       !r->acts;
			e->n_options++;
		}
		if (p->failed)
			break;
		/* C26: an event always has a way out (an option anyone may take) */
		if (!free_option) {
			fail(p, "every option has requirements: one must be open to anyone");
			break;
		}
		for (int i = 0; i < ct->n_events; i++)
			if (!strcmp(ct->event[i].id, e->id))
				fail(p, "the id is used twice");
		ct->n_events++;
	}
	/* C21: 18 shared events, and at least 3 of each act's own */
	snprintf(p->where, sizeof p->where, "the list");
	int per_act[CR_MAX_ACTS + 1] = {0};
	for (int i = 0; i < ct->n_events; i++)
		per_act[ct->event[i].act]++;
	if (!p->failed && per_act[0] != 18)
		fail(p, "%d shared events (act 0), not 18", per_act[0]);
	for (int a = 1; a <= CR_MAX_ACTS && !p->failed; a++)
		if (per_act[a] < 3)
			fail(p, "act %d has %d events of its own, fewer than 3", a, per_act[a]);
	cJSON_Delete(root);
	return !p->failed;
}

int cr_content_parse(cr_content *ct, const char *monsters, const char *items,
		     const char *relics, const char *events, char *err, size_t errlen)
{
	memset(ct, 0, sizeof *ct);
	parser p = {.ct = ct, .err = err, .errlen = errlen};
	if (!monsters || !items || !relics || !events) {
		snprintf(err, errlen, "crawl data: a data file is missing");
		return -1;
	}
	/* relics and items before events (which name them); items' effects may
	 * name relics */
	if (!parse_monsters(&p, monsters) || !parse_relics(&p, relics) || !parse_items(&p, items) ||
	    !parse_events(&p, events))
		return -1;
	return 0;
}

/* The process's content: built once, then only read. */
static struct {
	pthread_once_t once;
	int rc;
	char err[256];
	cr_content ct;
} builtin = {.once = PTHREAD_ONCE_INIT};

static void builtin_load(void)
{
	const char *text[4] = {NULL, NULL, NULL, NULL};
	static const char *const names[4] = {"monsters.json", "items.json", "relics.json",
					     "events.json"};
	for (int i = 0; i < cr_data_n_files; i++)
		for (int k = 0; k < 4; k++)
			if (!strcmp(cr_data_files[i].name, names[k]))
				text[k] = cr_data_files[i].text;
	builtin.rc = cr_content_parse(&builtin.ct, text[0], text[1], text[2], text[3],
				      builtin.err, sizeof builtin.err);
}

const cr_content *cr_content_builtin(char *err, size_t errlen)
{
	pthread_once(&builtin.once, builtin_load);
	if (builtin.rc != 0) {
		snprintf(err, errlen, "%s", builtin.err);
		return NULL;
	}
	return &builtin.ct;
}

int cr_item_find(const cr_content *ct, const char *id)
{
	for (int i = 0; i < ct->n_items; i++)
		if (!strcmp(ct->item[i].id, id))
			return i;
	return -1;
}

int cr_relic_find(const cr_content *ct, const char *id)
{
	for (int i = 0; i < ct->n_relics; i++)
		if (!strcmp(ct->relic[i].id, id))
			return i;
	return -1;
}

int cr_monster_find(const cr_content *ct, const char *id)
{
	for (int i = 0; i < ct->n_monsters; i++)
		if (!strcmp(ct->monster[i].id, id))
			return i;
	return -1;
}
