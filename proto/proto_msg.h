/*
 * proto_msg.h — protocol v1 codecs shared by laird and lair (PROTOCOL.md).
 *
 * The decoder turns one client frame into a typed proto_msg, or fails with
 * one of the stable error codes of PROTOCOL.md §3, the field to blame and a
 * human message. It checks everything that can be checked without server
 * state: JSON syntax, object shape, `type`, `id`, every field's JSON type,
 * range and format, and the cross-field rules (hello: name xor token). What
 * needs state (does the table exist, is the choice legal now) is the
 * server's job.
 *
 * The encoders build server messages (and client requests, for lair) as
 * cJSON trees with `type` and the echoed `id`, and print them compactly.
 *
 * Ownership: a decoded proto_msg owns its cJSON tree; every string and
 * cJSON pointer in it borrows from that tree and lives until
 * proto_msg_free(). Encoders return trees (cJSON_Delete) or malloc'd
 * strings (free) owned by the caller.
 */
#ifndef LAIR_PROTO_MSG_H
#define LAIR_PROTO_MSG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

#define PROTO_VERSION 1
#define PROTO_ID_MAX 64       /* bytes of a string id */
#define PROTO_NAME_MAX 24     /* bytes of a player name */
#define PROTO_TOKEN_HEX 64    /* hex characters of a token */
#define PROTO_TEXT_MAX 4096   /* hard cap of a chat line (the server's is lower) */
#define PROTO_TABLE_NAME_MAX 40
#define PROTO_PASSWORD_MAX 64
#define PROTO_MAX_SEATS 9
#define PROTO_PAGE_MAX 500    /* the largest page a list request may ask */
#define PROTO_PAGE_DEFAULT 100 /* a list's page without limit */

/* Client requests of version 1 (PROTOCOL.md §4–§9). */
enum proto_type {
	PROTO_HELLO,
	PROTO_PING,
	PROTO_RENAME,
	PROTO_LOBBY_LIST,
	PROTO_LOBBY_JOIN,
	PROTO_LOBBY_LEAVE,
	PROTO_CHAT,
	PROTO_TABLE_LIST,
	PROTO_TABLE_CREATE,
	PROTO_TABLE_JOIN,
	PROTO_TABLE_SPECTATE,
	PROTO_TABLE_LEAVE,
	PROTO_TABLE_ADD_AI,
	PROTO_TABLE_REMOVE_AI,
	PROTO_TABLE_START,
	PROTO_CHOOSE,
	PROTO_SELECTING,
	PROTO_TAKE_SEAT,
	PROTO_TABLE_SYNC,
	PROTO_REMATCH,
	PROTO_TABLE_CLOSE,
	PROTO_STATS,
	PROTO_ACHIEVEMENTS,
	PROTO_SERVER_STATS,
	PROTO_RECORDS,
	PROTO_ADMIN_LOBBIES,
	PROTO_ADMIN_LOBBY_CREATE,
	PROTO_ADMIN_LOBBY_CLOSE,
	PROTO_ADMIN_TABLES,
	PROTO_ADMIN_TABLE_CLOSE,
	PROTO_ADMIN_PLAYERS,
	PROTO_ADMIN_KICK,
	PROTO_ADMIN_STATS,
	PROTO_ADMIN_QUARANTINED,
	PROTO_ADMIN_QUARANTINED_DROP,
	PROTO_ADMIN_PLAYERS_PRUNE,
	PROTO_TYPE_COUNT
};

/* The stable error codes (PROTOCOL.md §3), in the order of that table. */
enum proto_err {
	PROTO_OK = 0,
	PROTO_E_BAD_JSON,
	PROTO_E_BAD_MESSAGE,
	PROTO_E_MISSING_FIELD,
	PROTO_E_BAD_FIELD,
	PROTO_E_UNKNOWN_TYPE,
	PROTO_E_TOO_LARGE,
	PROTO_E_RATE_LIMITED,
	PROTO_E_NOT_HELLO,
	PROTO_E_VERSION_UNSUPPORTED,
	PROTO_E_ALREADY_HELLO,
	PROTO_E_NAME_TAKEN,
	PROTO_E_BAD_TOKEN,
	PROTO_E_NOT_FOUND,
	PROTO_E_FORBIDDEN,
	PROTO_E_FULL,
	PROTO_E_WRONG_PASSWORD,
	PROTO_E_NOT_SEATED,
	PROTO_E_NOT_YOUR_SEAT,
	PROTO_E_NOT_PENDING,
	PROTO_E_ILLEGAL_CHOICE,
	PROTO_E_WRONG_PHASE,
	PROTO_E_LIMIT_REACHED,
	PROTO_E_DRAINING,
	PROTO_E_BUSY,
	PROTO_E_INTERNAL,
	PROTO_ERR_COUNT
};

/* "bad_json", ...; "ok" for PROTO_OK; NULL out of range. */
const char *proto_err_code(enum proto_err e);
/* The enum of a code string, or -1. */
int proto_err_find(const char *code);

/* "hello", "lobby_join", ...; NULL out of range. */
const char *proto_type_name(enum proto_type t);
/* The enum of a request type name, or -1. */
int proto_type_find(const char *name);
/* True for the admin_* requests. */
bool proto_type_is_admin(enum proto_type t);

typedef struct proto_error {
	enum proto_err code;
	char field[32];    /* "" when no single field is to blame */
	char message[256];
} proto_error;

/* Fills *err and returns code. The one place where the text of an error is
 * made (the decoder's, and through proto_error_new every other): the
 * message is cut to the buffer without splitting a character, and each
 * invalid UTF-8 byte or control character it quotes shows as '?'
 * (text_scrub, as the log shows them). So err->message is byte for byte
 * what the client gets, what a log line prints and what a test compares. */
enum proto_err proto_error_set(proto_error *err, enum proto_err code, const char *field,
			       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
enum proto_err proto_error_vset(proto_error *err, enum proto_err code, const char *field,
				const char *fmt, va_list ap);

/* Absent optional integers read as these. */
#define PROTO_ABSENT (-1)

/* A decoded client request. Fields of the body that applies to `type`
 * are set; absent optional strings/objects are NULL, absent optional
 * integers PROTO_ABSENT (or the documented default). */
typedef struct proto_msg {
	enum proto_type type;
	cJSON *root;     /* owned */
	const cJSON *id; /* the request's id, NULL when absent (or malformed) */
	union {
		struct {
			int protocol;
			const char *name, *token, *client;
			const cJSON *resume; /* object {table id: seq} or NULL */
			const cJSON *caps;   /* what the client asks for (checked by
					      * proto_hello_caps), or NULL */
		} hello;
		struct {
			const char *text;
		} chat;
		struct {
			const char *name;
		} rename;
		/* lobby_join, table_list, admin_lobby_close, admin_tables:
		 * lobby id, PROTO_ABSENT when optional and absent. The lists
		 * (lobby_list, lobby_join, table_list, admin_lobbies,
		 * admin_tables, admin_players) also take a page: limit
		 * (PROTO_ABSENT: the server's page size) and cursor (the id
		 * after which to go on; 0 from the start). */
		struct {
			int64_t lobby;
			int limit;
			int64_t cursor;
		} lobby;
		struct {
			const char *kind, *name, *password;
			int seats, ai;          /* ai default 0 */
			bool is_private, start; /* default false */
			int turn_timeout_ms;    /* PROTO_ABSENT: the server's */
			int pacing_ms;          /* PROTO_ABSENT: the server's */
			const cJSON *config;    /* object or NULL */
			int64_t lobby;          /* PROTO_ABSENT: yours, else default */
			bool has_seed;
			uint64_t seed;
		} create;
		/* Every request that names a table: table_join, table_spectate,
		 * table_leave, table_add_ai, table_remove_ai, table_start,
		 * selecting, take_seat, table_sync, rematch, table_close,
		 * admin_table_close, choose, admin_quarantined (optional:
		 * PROTO_ABSENT), admin_quarantined_drop. */
		struct {
			int64_t table;
			int seat;                /* PROTO_ABSENT when not given */
			const char *password;    /* join, spectate */
			int64_t since;           /* table_sync; PROTO_ABSENT */
			int64_t decision;        /* choose; PROTO_ABSENT */
			const cJSON *choice;     /* choose: any JSON value */
		} table;
		/* stats, achievements, server_stats, records. */
		struct {
			const char *player; /* NULL: yourself */
			const char *kind;   /* NULL: "gems" */
		} query;
		struct {
			const char *name;
		} lobby_create;
		struct {
			const char *player, *reason;
		} kick;
		/* admin_players_prune */
		struct {
			int64_t older_than_ms; /* default: a day */
		} prune;
	} u;
} proto_msg;

/* Decodes one text frame. Returns PROTO_OK, or an error code with *err
 * filled; either way msg must be released with proto_msg_free (on error
 * msg->id is set when the id could be read, so the error can echo it). */
/* hello's `caps` (PROTOCOL.md §3): what a client may ask for. */
#define PROTO_CAPS_MAX 16
#define PROTO_CAP_NAME_MAX 32
/* "view_patch": a reveal to the client's seat carries view_patch (the
 * changes since its last view, proto/view_patch.h) instead of view. */
#define PROTO_CAP_VIEW_PATCH (1u << 0)
/* "lean": what the round's updates would say twice is said once (a
 * reveal without the kind's events that restate `choices`, `ai` only when
 * true; a start without the seats of the update before it; a result
 * without the result the view has), and no `t_close_us`... */
#define PROTO_CAP_LEAN (1u << 1)
/* ...unless "timing" is asked too (benchmarks). */
#define PROTO_CAP_TIMING (1u << 2)
#define PROTO_CAPS_KNOWN 3
/* The capabilities of a checked caps list this server knows (a bit each;
 * unknown names are ignored); 0 for NULL. */
uint32_t proto_hello_caps(const cJSON *caps);
/* The name of capability bit i (< PROTO_CAPS_KNOWN), as hello says it. */
const char *proto_cap_name(int i);

enum proto_err proto_decode(const char *text, size_t len, proto_msg *msg, proto_error *err);
void proto_msg_free(proto_msg *msg);

/* Format checks the decoder uses, exposed for the server and client. */
bool proto_name_valid(const char *name);
bool proto_token_valid(const char *token);

/* ---- encoders ---- */

/* {type, id?}: id (may be NULL) is duplicated. */
cJSON *proto_new(const char *type, const cJSON *id);
/* {type:"error", id?, code, message, field?}. field may be NULL or "";
 * message and field go through proto_error_set (cut to its buffers, made
 * fit to show), so any text may be passed. */
cJSON *proto_error_new(const cJSON *id, enum proto_err code, const char *field,
		       const char *message);
/* The reply of a proto_error (a failed decode), its text as it is;
 * version_unsupported also lists the versions spoken. */
cJSON *proto_error_from(const cJSON *id, const proto_error *err);
/* Compact text of a message (malloc'd, caller frees); deletes nothing. */
char *proto_print(const cJSON *msg);

/* ---- for clients (lair, tests) ---- */

/* An integral JSON number within [min, max] into *out; false (and *out
 * untouched) for anything else: not a number, a fraction, out of range.
 * The one way to read an untrusted number without an undefined cast; keep
 * min and max within ±2^53 (exact as doubles). */
bool proto_json_int(const cJSON *v, int64_t min, int64_t max, int64_t *out);

/* A request {type, id} with an integer id (id < 0: none). */
cJSON *proto_request(enum proto_type t, int64_t id);
/* Parses a server message: a JSON object with a string type. Returns the
 * tree (caller deletes) and *type borrowed from it, or NULL with err. */
cJSON *proto_decode_server(const char *text, size_t len, const char **type, proto_error *err);

#endif
