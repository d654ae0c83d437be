/*
 * proto_msg.c — see proto_msg.h. The decoder is table-driven: each request
 * type lists its fields (name, JSON type, required, range, format, where
 * the value goes in proto_msg.u), so adding a request is one table entry
 * and every field gets the same checks and the same error codes.
 */
#include "proto_msg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/text.h"
#include "../common/util.h"
#include "json_out.h"

static const char *const err_codes[PROTO_ERR_COUNT] = {
	[PROTO_OK] = "ok",
	[PROTO_E_BAD_JSON] = "bad_json",
	[PROTO_E_BAD_MESSAGE] = "bad_message",
	[PROTO_E_MISSING_FIELD] = "missing_field",
	[PROTO_E_BAD_FIELD] = "bad_field",
	[PROTO_E_UNKNOWN_TYPE] = "unknown_type",
	[PROTO_E_TOO_LARGE] = "too_large",
	[PROTO_E_RATE_LIMITED] = "rate_limited",
	[PROTO_E_NOT_HELLO] = "not_hello",
	[PROTO_E_VERSION_UNSUPPORTED] = "version_unsupported",
	[PROTO_E_ALREADY_HELLO] = "already_hello",
	[PROTO_E_NAME_TAKEN] = "name_taken",
	[PROTO_E_BAD_TOKEN] = "bad_token",
	[PROTO_E_NOT_FOUND] = "not_found",
	[PROTO_E_FORBIDDEN] = "forbidden",
	[PROTO_E_FULL] = "full",
	[PROTO_E_WRONG_PASSWORD] = "wrong_password",
	[PROTO_E_NOT_SEATED] = "not_seated",
	[PROTO_E_NOT_YOUR_SEAT] = "not_your_seat",
	[PROTO_E_NOT_PENDING] = "not_pending",
	[PROTO_E_ILLEGAL_CHOICE] = "illegal_choice",
	[PROTO_E_WRONG_PHASE] = "wrong_phase",
	[PROTO_E_LIMIT_REACHED] = "limit_reached",
	[PROTO_E_DRAINING] = "draining",
	[PROTO_E_BUSY] = "busy",
	[PROTO_E_INTERNAL] = "internal",
};

const char *proto_err_code(enum proto_err e)
{
	return (int)e >= 0 && e < PROTO_ERR_COUNT ? err_codes[e] : NULL;
}

int proto_err_find(const char *code)
{
	for (int i = 0; i < PROTO_ERR_COUNT; i++)
		if (strcmp(err_codes[i], code) == 0)
			return i;
	return -1;
}

/* ---- the request table ---- */

enum fkind {
	F_INT,   /* integral JSON number into int */
	F_I64,   /* integral JSON number into int64_t */
	F_BOOL,  /* true/false into bool */
	F_STR,   /* string into const char * (byte length in [min, max]) */
	F_OBJ,   /* object into const cJSON * */
	F_ANY,   /* any JSON value into const cJSON * */
	F_SEED,  /* number or decimal string into uint64_t (+ has flag) */
};

/* C_TEXT: shown to other players (table and lobby names): plain text only */
enum fcheck { C_NONE, C_NAME, C_TOKEN, C_TEXT };

typedef struct field_spec {
	const char *name;
	enum fkind kind;
	bool required;
	int64_t min, max; /* value range (ints) or byte length (strings) */
	int64_t def;      /* ints and bools when absent */
	enum fcheck check;
	size_t off;       /* offset in proto_msg */
} field_spec;

#define MAX_FIELDS 14

typedef struct type_spec {
	const char *name;
	field_spec fields[MAX_FIELDS];
} type_spec;

#define OFF(member) offsetof(proto_msg, u.member)
#define ID_MAX 9007199254740991LL /* 2^53 - 1 */

#define REQ_TABLE {"table", F_I64, true, 1, ID_MAX, 0, C_NONE, OFF(table.table)}
#define OPT_SEAT {"seat", F_INT, false, 0, PROTO_MAX_SEATS - 1, PROTO_ABSENT, C_NONE, \
		  OFF(table.seat)}
#define REQ_SEAT {"seat", F_INT, true, 0, PROTO_MAX_SEATS - 1, 0, C_NONE, OFF(table.seat)}
#define OPT_PASSWORD {"password", F_STR, false, 0, PROTO_PASSWORD_MAX, 0, C_NONE, \
		      OFF(table.password)}
#define OPT_KIND {"kind", F_STR, false, 1, 32, 0, C_NONE, OFF(query.kind)}
/* A page of a list (PROTOCOL.md §5 Listings). */
#define OPT_LIMIT {"limit", F_INT, false, 1, PROTO_PAGE_MAX, PROTO_ABSENT, C_NONE, \
		   OFF(lobby.limit)}
#define OPT_CURSOR {"cursor", F_I64, false, 0, ID_MAX, 0, C_NONE, OFF(lobby.cursor)}

static const type_spec types[PROTO_TYPE_COUNT] = {
	[PROTO_HELLO] = {"hello", {
		{"protocol", F_INT, true, 0, 1000000, 0, C_NONE, OFF(hello.protocol)},
		{"name", F_STR, false, 1, PROTO_NAME_MAX, 0, C_NAME, OFF(hello.name)},
		{"token", F_STR, false, PROTO_TOKEN_HEX, PROTO_TOKEN_HEX, 0, C_TOKEN,
		 OFF(hello.token)},
		{"client", F_STR, false, 0, 64, 0, C_NONE, OFF(hello.client)},
		{"resume", F_OBJ, false, 0, 0, 0, C_NONE, OFF(hello.resume)},
		{"caps", F_ANY, false, 0, 0, 0, C_NONE, OFF(hello.caps)},
	}},
	[PROTO_PING] = {"ping", {{0}}},
	[PROTO_RENAME] = {"rename", {
		{"name", F_STR, true, 1, PROTO_NAME_MAX, 0, C_NAME, OFF(rename.name)},
	}},
	[PROTO_LOBBY_LIST] = {"lobby_list", {OPT_LIMIT, OPT_CURSOR}},
	[PROTO_LOBBY_JOIN] = {"lobby_join", {
		{"lobby", F_I64, true, 1, ID_MAX, 0, C_NONE, OFF(lobby.lobby)},
		OPT_LIMIT, OPT_CURSOR,
	}},
	[PROTO_LOBBY_LEAVE] = {"lobby_leave", {{0}}},
	[PROTO_CHAT] = {"chat", {
		{"text", F_STR, true, 1, PROTO_TEXT_MAX, 0, C_NONE, OFF(chat.text)},
	}},
	[PROTO_TABLE_LIST] = {"table_list", {
		{"lobby", F_I64, false, 1, ID_MAX, PROTO_ABSENT, C_NONE, OFF(lobby.lobby)},
		OPT_LIMIT, OPT_CURSOR,
	}},
	[PROTO_TABLE_CREATE] = {"table_create", {
		{"kind", F_STR, true, 1, 32, 0, C_NONE, OFF(create.kind)},
		{"seats", F_INT, true, 1, PROTO_MAX_SEATS, 0, C_NONE, OFF(create.seats)},
		{"name", F_STR, false, 1, PROTO_TABLE_NAME_MAX, 0, C_TEXT, OFF(create.name)},
		{"ai", F_INT, false, 0, PROTO_MAX_SEATS, 0, C_NONE, OFF(create.ai)},
		{"private", F_BOOL, false, 0, 1, 0, C_NONE, OFF(create.is_private)},
		{"password", F_STR, false, 1, PROTO_PASSWORD_MAX, 0, C_NONE,
		 OFF(create.password)},
		{"turn_timeout_ms", F_INT, false, 1000, 600000, PROTO_ABSENT, C_NONE,
		 OFF(create.turn_timeout_ms)},
		{"pacing_ms", F_INT, false, 0, 10000, PROTO_ABSENT, C_NONE,
		 OFF(create.pacing_ms)},
		{"config", F_OBJ, false, 0, 0, 0, C_NONE, OFF(create.config)},
		{"lobby", F_I64, false, 1, ID_MAX, PROTO_ABSENT, C_NONE, OFF(create.lobby)},
		{"seed", F_SEED, false, 0, 0, 0, C_NONE, OFF(create.seed)},
		{"start", F_BOOL, false, 0, 1, 0, C_NONE, OFF(create.start)},
	}},
	[PROTO_TABLE_JOIN] = {"table_join", {REQ_TABLE, OPT_SEAT, OPT_PASSWORD}},
	[PROTO_TABLE_SPECTATE] = {"table_spectate", {REQ_TABLE, OPT_PASSWORD}},
	[PROTO_TABLE_LEAVE] = {"table_leave", {REQ_TABLE}},
	[PROTO_TABLE_ADD_AI] = {"table_add_ai", {REQ_TABLE, OPT_SEAT}},
	[PROTO_TABLE_REMOVE_AI] = {"table_remove_ai", {REQ_TABLE, REQ_SEAT}},
	[PROTO_TABLE_START] = {"table_start", {REQ_TABLE}},
	[PROTO_CHOOSE] = {"choose", {
		REQ_TABLE,
		{"choice", F_ANY, true, 0, 0, 0, C_NONE, OFF(table.choice)},
		OPT_SEAT,
		{"decision", F_I64, false, 0, ID_MAX, PROTO_ABSENT, C_NONE,
		 OFF(table.decision)},
	}},
	[PROTO_SELECTING] = {"selecting", {REQ_TABLE}},
	[PROTO_TAKE_SEAT] = {"take_seat", {REQ_TABLE, REQ_SEAT}},
	[PROTO_TABLE_SYNC] = {"table_sync", {
		REQ_TABLE,
		{"since", F_I64, false, 0, ID_MAX, PROTO_ABSENT, C_NONE, OFF(table.since)},
	}},
	[PROTO_REMATCH] = {"rematch", {REQ_TABLE}},
	[PROTO_TABLE_CLOSE] = {"table_close", {REQ_TABLE}},
	[PROTO_STATS] = {"stats", {
		{"player", F_STR, false, 1, PROTO_NAME_MAX, 0, C_NAME, OFF(query.player)},
		OPT_KIND,
	}},
	[PROTO_ACHIEVEMENTS] = {"achievements", {
		{"player", F_STR, false, 1, PROTO_NAME_MAX, 0, C_NAME, OFF(query.player)},
		OPT_KIND,
	}},
	[PROTO_SERVER_STATS] = {"server_stats", {OPT_KIND}},
	[PROTO_RECORDS] = {"records", {OPT_KIND}},
	[PROTO_ADMIN_LOBBIES] = {"admin_lobbies", {OPT_LIMIT, OPT_CURSOR}},
	[PROTO_ADMIN_LOBBY_CREATE] = {"admin_lobby_create", {
		{"name", F_STR, true, 1, 40, 0, C_TEXT, OFF(lobby_create.name)},
	}},
	[PROTO_ADMIN_LOBBY_CLOSE] = {"admin_lobby_close", {
		{"lobby", F_I64, true, 1, ID_MAX, 0, C_NONE, OFF(lobby.lobby)},
	}},
	[PROTO_ADMIN_TABLES] = {"admin_tables", {
		{"lobby", F_I64, false, 1, ID_MAX, PROTO_ABSENT, C_NONE, OFF(lobby.lobby)},
		OPT_LIMIT, OPT_CURSOR,
	}},
	[PROTO_ADMIN_TABLE_CLOSE] = {"admin_table_close", {REQ_TABLE}},
	[PROTO_ADMIN_PLAYERS] = {"admin_players", {OPT_LIMIT, OPT_CURSOR}},
	[PROTO_ADMIN_KICK] = {"admin_kick", {
		{"player", F_STR, true, 1, PROTO_NAME_MAX, 0, C_NAME, OFF(kick.player)},
		{"reason", F_STR, false, 0, 200, 0, C_NONE, OFF(kick.reason)},
	}},
	[PROTO_ADMIN_STATS] = {"admin_stats", {{0}}},
	[PROTO_ADMIN_QUARANTINED] = {"admin_quarantined", {
		{"table", F_I64, false, 1, ID_MAX, PROTO_ABSENT, C_NONE, OFF(table.table)},
	}},
	[PROTO_ADMIN_QUARANTINED_DROP] = {"admin_quarantined_drop", {REQ_TABLE}},
	[PROTO_ADMIN_PLAYERS_PRUNE] = {"admin_players_prune", {
		{"older_than_ms", F_I64, false, 0, ID_MAX, 86400000, C_NONE,
		 OFF(prune.older_than_ms)},
	}},
};

const char *proto_type_name(enum proto_type t)
{
	return (int)t >= 0 && t < PROTO_TYPE_COUNT ? types[t].name : NULL;
}

int proto_type_find(const char *name)
{
	for (int i = 0; i < PROTO_TYPE_COUNT; i++)
		if (strcmp(types[i].name, name) == 0)
			return i;
	return -1;
}

bool proto_type_is_admin(enum proto_type t)
{
	return (int)t >= 0 && t < PROTO_TYPE_COUNT && strncmp(types[t].name, "admin_", 6) == 0;
}

/* ---- formats ---- */

bool proto_name_valid(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > PROTO_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9');
		if (!alnum && (i == 0 || (c != '_' && c != '-' && c != '.')))
			return false;
	}
	return true;
}

bool proto_token_valid(const char *s)
{
	size_t n = strlen(s);
	if (n != PROTO_TOKEN_HEX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* ---- decoding ---- */

enum proto_err proto_error_vset(proto_error *err, enum proto_err code, const char *field,
			       const char *fmt, va_list ap)
{
	err->code = code;
	strlcpy_safe(err->field, field ? field : "", sizeof err->field);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	text_scrub(err->field);
	text_scrub(err->message);
	return code;
}

enum proto_err proto_error_set(proto_error *err, enum proto_err code, const char *field,
			       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	proto_error_vset(err, code, field, fmt, ap);
	va_end(ap);
	return code;
}

/* The decoder's short name for it. */
#define fail proto_error_set

static const char *json_type_name(const cJSON *v)
{
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsNull(v))
		return "null";
	if (cJSON_IsArray(v))
		return "an array";
	if (cJSON_IsObject(v))
		return "an object";
	return "invalid";
}

/* An integral JSON number within [min, max] into *out. */
static bool int_value(const cJSON *v, int64_t min, int64_t max, int64_t *out)
{
	if (!cJSON_IsNumber(v))
		return false;
	double d = v->valuedouble;
	if (!isfinite(d) || d != floor(d) || d < (double)min || d > (double)max)
		return false;
	*out = (int64_t)d;
	return true;
}

bool proto_json_int(const cJSON *v, int64_t min, int64_t max, int64_t *out)
{
	return int_value(v, min, max, out);
}

static enum proto_err decode_field(const field_spec *f, const cJSON *v, proto_msg *msg,
				   proto_error *err)
{
	char *base = (char *)msg;
	int64_t iv;
	switch (f->kind) {
	case F_INT:
	case F_I64:
		if (!cJSON_IsNumber(v))
			return fail(err, PROTO_E_BAD_FIELD, f->name,
				    "%s must be an integer, not %s", f->name, json_type_name(v));
		if (!int_value(v, f->min, f->max, &iv))
			return fail(err, PROTO_E_BAD_FIELD, f->name,
				    "%s must be an integer from %lld to %lld", f->name,
				    (long long)f->min, (long long)f->max);
		if (f->kind == F_INT)
			*(int *)(base + f->off) = (int)iv;
		else
			*(int64_t *)(base + f->off) = iv;
		return PROTO_OK;
	case F_BOOL:
		if (!cJSON_IsBool(v))
			return fail(err, PROTO_E_BAD_FIELD, f->name, "%s must be a boolean, not %s",
				    f->name, json_type_name(v));
		*(bool *)(base + f->off) = cJSON_IsTrue(v);
		return PROTO_OK;
	case F_STR: {
		if (!cJSON_IsString(v))
			return fail(err, PROTO_E_BAD_FIELD, f->name, "%s must be a string, not %s",
				    f->name, json_type_name(v));
		size_t n = strlen(v->valuestring);
		if (((int64_t)n < f->min || (int64_t)n > f->max) && f->check == C_TOKEN)
			return fail(err, PROTO_E_BAD_FIELD, f->name,
				    "%s must be %lld lowercase hex characters", f->name,
				    (long long)f->max);
		if (((int64_t)n < f->min || (int64_t)n > f->max) && f->min == f->max)
			return fail(err, PROTO_E_BAD_FIELD, f->name,
				    "%s must be exactly %lld bytes long", f->name,
				    (long long)f->max);
		if ((int64_t)n < f->min || (int64_t)n > f->max)
			return fail(err, PROTO_E_BAD_FIELD, f->name,
				    "%s must be %lld to %lld bytes long", f->name,
				    (long long)f->min, (long long)f->max);
		if (f->check == C_NAME && !proto_name_valid(v->valuestring))
			return fail(err, PROTO_E_BAD_FIELD, f->name,
				    "%s: 1-24 of A-Z a-z 0-9 _ - ., starting with a letter "
				    "or digit", f->name);
		if (f->check == C_TEXT && !text_plain(v->valuestring))
			return fail(err, PROTO_E_BAD_FIELD, f->name,
				    "%s must be plain text: no control, invisible or "
				    "bidirectional formatting characters", f->name);
		if (f->check == C_TOKEN && !proto_token_valid(v->valuestring))
			return fail(err, PROTO_E_BAD_FIELD, f->name,
				    "%s must be 64 lowercase hex characters", f->name);
		*(const char **)(base + f->off) = v->valuestring;
		return PROTO_OK;
	}
	case F_OBJ:
		if (!cJSON_IsObject(v))
			return fail(err, PROTO_E_BAD_FIELD, f->name, "%s must be an object, not %s",
				    f->name, json_type_name(v));
		*(const cJSON **)(base + f->off) = v;
		return PROTO_OK;
	case F_ANY:
		*(const cJSON **)(base + f->off) = v;
		return PROTO_OK;
	case F_SEED: {
		uint64_t seed = 0;
		if (cJSON_IsNumber(v)) {
			if (!int_value(v, 0, ID_MAX, &iv))
				return fail(err, PROTO_E_BAD_FIELD, f->name,
					    "%s must be an integer >= 0 (a decimal string "
					    "above 2^53)", f->name);
			seed = (uint64_t)iv;
		} else if (cJSON_IsString(v)) {
			const char *s = v->valuestring;
			size_t n = strlen(s);
			if (n < 1 || n > 20)
				goto bad_seed;
			for (size_t i = 0; i < n; i++) {
				if (s[i] < '0' || s[i] > '9')
					goto bad_seed;
				uint64_t d = (uint64_t)(s[i] - '0');
				if (seed > (UINT64_MAX - d) / 10)
					goto bad_seed;
				seed = seed * 10 + d;
			}
		} else {
			goto bad_seed;
		}
		msg->u.create.has_seed = true;
		msg->u.create.seed = seed;
		return PROTO_OK;
	bad_seed:
		return fail(err, PROTO_E_BAD_FIELD, f->name,
			    "%s must be an integer or a decimal string of a 64-bit integer",
			    f->name);
	}
	}
	return fail(err, PROTO_E_INTERNAL, f->name, "unknown field kind");
}

static void set_default(const field_spec *f, proto_msg *msg)
{
	char *base = (char *)msg;
	switch (f->kind) {
	case F_INT:
		*(int *)(base + f->off) = (int)f->def;
		break;
	case F_I64:
		*(int64_t *)(base + f->off) = f->def;
		break;
	case F_BOOL:
		*(bool *)(base + f->off) = f->def != 0;
		break;
	default:
		break; /* pointers are already NULL; has_seed false */
	}
}

/* hello's caps: an array of at most PROTO_CAPS_MAX names of at most
 * PROTO_CAP_NAME_MAX bytes. A name this server does not know is ignored
 * (a newer client on an older server), a malformed list is refused. */
static enum proto_err check_caps(const cJSON *caps, proto_error *err)
{
	if (!caps)
		return PROTO_OK;
	if (!cJSON_IsArray(caps) || cJSON_GetArraySize(caps) > PROTO_CAPS_MAX)
		return fail(err, PROTO_E_BAD_FIELD, "caps",
			    "caps must be an array of at most %d capability names",
			    PROTO_CAPS_MAX);
	const cJSON *c;
	cJSON_ArrayForEach(c, caps)
	{
		if (!cJSON_IsString(c) || !c->valuestring[0] ||
		    strlen(c->valuestring) > PROTO_CAP_NAME_MAX)
			return fail(err, PROTO_E_BAD_FIELD, "caps",
				    "each capability is a name of 1 to %d bytes",
				    PROTO_CAP_NAME_MAX);
	}
	return PROTO_OK;
}

/* Rules that involve more than one field. */
static enum proto_err cross_checks(proto_msg *msg, proto_error *err)
{
	switch (msg->type) {
	case PROTO_HELLO:
		if (msg->u.hello.protocol != PROTO_VERSION)
			return fail(err, PROTO_E_VERSION_UNSUPPORTED, "protocol",
				    "protocol %d is not supported; this server speaks 1",
				    msg->u.hello.protocol);
		if (!msg->u.hello.name == !msg->u.hello.token)
			return fail(err, PROTO_E_BAD_MESSAGE, NULL,
				    "hello needs exactly one of name (new player) and token "
				    "(returning player)");
		return check_caps(msg->u.hello.caps, err);
	case PROTO_TABLE_CREATE:
		if (msg->u.create.ai > msg->u.create.seats)
			return fail(err, PROTO_E_BAD_FIELD, "ai",
				    "ai must be at most seats (%d)", msg->u.create.seats);
		if (msg->u.create.is_private && !msg->u.create.password)
			return fail(err, PROTO_E_MISSING_FIELD, "password",
				    "a private table needs a password");
		break;
	default:
		break;
	}
	return PROTO_OK;
}

/* Whether a string of the JSON text holds the escape \u0000. cJSON turns it
 * into a NUL byte and every C string then ends there: "zz\u0000yy" would be
 * read as the name "zz", a password as its prefix. No field of the protocol
 * may hold U+0000, so such a message is refused whole (PROTOCOL.md §2).
 * The text is valid JSON here: strings are closed and escapes complete. */
static bool json_has_nul_escape(const char *text, size_t len)
{
	bool in_string = false;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '"') {
			in_string = !in_string;
		} else if (in_string && text[i] == '\\' && i + 1 < len) {
			if (text[i + 1] == 'u' && i + 5 < len && !memcmp(text + i + 2, "0000", 4))
				return true;
			i++; /* the escaped character: never a closing quote */
		}
	}
	return false;
}

/* Bit i of a caps mask is cap_names[i]. */
static const char *const cap_names[] = {"view_patch", "lean", "timing"};
_Static_assert(sizeof cap_names / sizeof *cap_names == PROTO_CAPS_KNOWN, "a name for each cap bit");

const char *proto_cap_name(int i) { return i >= 0 && i < PROTO_CAPS_KNOWN ? cap_names[i] : ""; }

uint32_t proto_hello_caps(const cJSON *caps)
{
	uint32_t mask = 0;
	const cJSON *c;
	cJSON_ArrayForEach(c, caps)
	{
		for (int i = 0; cJSON_IsString(c) && i < PROTO_CAPS_KNOWN; i++)
			if (!strcmp(c->valuestring, cap_names[i]))
				mask |= 1u << i;
	}
	return mask;
}

enum proto_err proto_decode(const char *text, size_t len, proto_msg *msg, proto_error *err)
{
	memset(msg, 0, sizeof *msg);
	memset(err, 0, sizeof *err);
	const char *end = NULL;
	msg->root = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (!msg->root)
		return fail(err, PROTO_E_BAD_JSON, NULL, "malformed JSON near byte %zu",
			    end && end >= text ? (size_t)(end - text) : (size_t)0);
	/* Only whitespace may follow the value. */
	for (const char *p = end; p && p < text + len; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			return fail(err, PROTO_E_BAD_JSON, NULL,
				    "trailing data after the JSON value at byte %zu",
				    (size_t)(p - text));
	if (!cJSON_IsObject(msg->root))
		return fail(err, PROTO_E_BAD_MESSAGE, NULL,
			    "a message must be a JSON object, not %s", json_type_name(msg->root));

	/* The id first, so that every later error can echo it. */
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg->root, "id");
	if (id) {
		int64_t iv;
		if (cJSON_IsString(id) && strlen(id->valuestring) <= PROTO_ID_MAX)
			msg->id = id;
		else if (cJSON_IsNumber(id) && int_value(id, -ID_MAX, ID_MAX, &iv))
			msg->id = id;
		else
			return fail(err, PROTO_E_BAD_FIELD, "id",
				    "id must be an integer (|id| < 2^53) or a string of at most "
				    "%d bytes", PROTO_ID_MAX);
	}

	if (json_has_nul_escape(text, len))
		return fail(err, PROTO_E_BAD_JSON, NULL,
			    "a string holds \\u0000 (U+0000), which no field may hold");

	const cJSON *type = cJSON_GetObjectItemCaseSensitive(msg->root, "type");
	if (!type)
		return fail(err, PROTO_E_MISSING_FIELD, "type", "every message needs a type");
	if (!cJSON_IsString(type))
		return fail(err, PROTO_E_BAD_FIELD, "type", "type must be a string, not %s",
			    json_type_name(type));
	int t = proto_type_find(type->valuestring);
	if (t < 0) {
		char shown[40];
		strlcpy_safe(shown, type->valuestring, sizeof shown);
		return fail(err, PROTO_E_UNKNOWN_TYPE, "type", "unknown message type \"%s\"",
			    shown);
	}
	msg->type = (enum proto_type)t;

	const type_spec *ts = &types[t];
	for (int i = 0; i < MAX_FIELDS && ts->fields[i].name; i++) {
		const field_spec *f = &ts->fields[i];
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(msg->root, f->name);
		if (!v) {
			if (f->required)
				return fail(err, PROTO_E_MISSING_FIELD, f->name,
					    "%s needs the field %s", ts->name, f->name);
			set_default(f, msg);
			continue;
		}
		enum proto_err e = decode_field(f, v, msg, err);
		if (e != PROTO_OK)
			return e;
	}
	return cross_checks(msg, err);
}

void proto_msg_free(proto_msg *msg)
{
	cJSON_Delete(msg->root);
	msg->root = NULL;
	msg->id = NULL;
}

/* ---- encoding ---- */

cJSON *proto_new(const char *type, const cJSON *id)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "type", type);
	if (id)
		cJSON_AddItemToObject(o, "id", cJSON_Duplicate(id, true));
	return o;
}

/* The reply carries err's text as it is: proto_error_set made it fit. */
static cJSON *error_reply(const cJSON *id, const proto_error *err)
{
	cJSON *o = proto_new("error", id);
	const char *c = proto_err_code(err->code);
	cJSON_AddStringToObject(o, "code", c ? c : "internal");
	cJSON_AddStringToObject(o, "message", err->message);
	if (err->field[0])
		cJSON_AddStringToObject(o, "field", err->field);
	if (err->code == PROTO_E_VERSION_UNSUPPORTED) {
		cJSON *sup = cJSON_AddArrayToObject(o, "supported");
		cJSON_AddItemToArray(sup, cJSON_CreateNumber(PROTO_VERSION));
	}
	return o;
}

cJSON *proto_error_new(const cJSON *id, enum proto_err code, const char *field,
		       const char *message)
{
	proto_error err;
	proto_error_set(&err, code, field, "%s", message ? message : "");
	return error_reply(id, &err);
}

cJSON *proto_error_from(const cJSON *id, const proto_error *err)
{
	return error_reply(id, err);
}

char *proto_print(const cJSON *msg) { return json_print(msg, NULL); }

cJSON *proto_request(enum proto_type t, int64_t id)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "type", proto_type_name(t));
	if (id >= 0)
		cJSON_AddNumberToObject(o, "id", (double)id);
	return o;
}

cJSON *proto_decode_server(const char *text, size_t len, const char **type, proto_error *err)
{
	memset(err, 0, sizeof *err);
	*type = NULL;
	cJSON *root = cJSON_ParseWithLength(text, len);
	if (!root) {
		fail(err, PROTO_E_BAD_JSON, NULL, "malformed JSON from the server");
		return NULL;
	}
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "type");
	if (!cJSON_IsObject(root) || !cJSON_IsString(t)) {
		fail(err, PROTO_E_BAD_MESSAGE, "type", "a server message must be an object "
			  "with a string type");
		cJSON_Delete(root);
		return NULL;
	}
	*type = t->valuestring;
	return root;
}
