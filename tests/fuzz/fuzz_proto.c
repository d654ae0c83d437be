/*
 * fuzz_proto.c — the protocol fuzz target (fuzz.h): any bytes as one client
 * frame through proto_decode (proto/proto_msg.h), then as far as pure code
 * takes it.
 *
 * The frame is copied into a buffer of exactly its size (no NUL after it),
 * so a decoder that reads past len trips AddressSanitizer. Then:
 *  - a refused frame: the code is a stable one with a message, the message
 *    and field are valid UTF-8 without control characters whatever the
 *    frame held, and the error reply laird would send is valid JSON that a
 *    client decodes back to exactly that code and message; for a frame of
 *    valid UTF-8 (net passes no other) the whole reply is valid UTF-8 too;
 *  - an accepted frame: every field is within what PROTOCOL.md promises,
 *    and printing the tree and decoding that again gives the same message
 *    (nothing depends on formatting);
 *  - the parts the game kinds take without server state: a choose's choice
 *    goes through choice_parse of a fresh game of every kind (accepted only
 *    as one of the options; refused with a message that is valid UTF-8,
 *    whose error reply is fit to send), a table_create's kind, config,
 *    seats and seed create a game;
 *  - the raw bytes also go through the client's proto_decode_server.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "../../proto/proto_msg.h"
#include "../../server/games/game.h"

/* The requests decoded into u.table: written out here, apart from the
 * decoder's own table, so that the checks below test it. */
static bool names_a_table(enum proto_type t)
{
	switch (t) {
	case PROTO_TABLE_JOIN:
	case PROTO_TABLE_SPECTATE:
	case PROTO_TABLE_LEAVE:
	case PROTO_TABLE_ADD_AI:
	case PROTO_TABLE_REMOVE_AI:
	case PROTO_TABLE_START:
	case PROTO_CHOOSE:
	case PROTO_SELECTING:
	case PROTO_TAKE_SEAT:
	case PROTO_TABLE_SYNC:
	case PROTO_REMATCH:
	case PROTO_TABLE_CLOSE:
	case PROTO_ADMIN_TABLE_CLOSE:
		return true;
	default:
		return false;
	}
}

/* Every decoded field of msg as text, so two decodes can be compared. */
static char *summary(const proto_msg *m)
{
	buf b = {0};
	char *id = m->id ? cJSON_PrintUnformatted(m->id) : NULL;
	buf_printf(&b, "type=%s id=%s\n", proto_type_name(m->type), id ? id : "-");
	free(id);
#define S(x) ((x) ? (x) : "(null)")
	char *j1 = NULL;
	if (names_a_table(m->type)) {
		j1 = m->u.table.choice ? cJSON_PrintUnformatted(m->u.table.choice) : NULL;
		buf_printf(&b, "%lld %d %s %lld %lld %s", (long long)m->u.table.table,
			   m->u.table.seat, S(m->u.table.password), (long long)m->u.table.since,
			   (long long)m->u.table.decision, S(j1));
	}
	switch (m->type) {
	case PROTO_HELLO:
		j1 = m->u.hello.resume ? cJSON_PrintUnformatted(m->u.hello.resume) : NULL;
		buf_printf(&b, "%d %s %s %s %s", m->u.hello.protocol, S(m->u.hello.name),
			   S(m->u.hello.token), S(m->u.hello.client), S(j1));
		break;
	case PROTO_CHAT:
		buf_printf(&b, "%s", S(m->u.chat.text));
		break;
	case PROTO_LOBBY_JOIN:
	case PROTO_TABLE_LIST:
	case PROTO_ADMIN_LOBBY_CLOSE:
	case PROTO_ADMIN_TABLES:
		buf_printf(&b, "%lld", (long long)m->u.lobby.lobby);
		break;
	case PROTO_TABLE_CREATE:
		j1 = m->u.create.config ? cJSON_PrintUnformatted(m->u.create.config) : NULL;
		buf_printf(&b, "%s %s %s %d %d %d %d %d %d %s %lld %d %llu",
			   S(m->u.create.kind), S(m->u.create.name), S(m->u.create.password),
			   m->u.create.seats, m->u.create.ai, m->u.create.is_private,
			   m->u.create.start, m->u.create.turn_timeout_ms, m->u.create.pacing_ms,
			   S(j1), (long long)m->u.create.lobby, m->u.create.has_seed,
			   (unsigned long long)m->u.create.seed);
		break;
	case PROTO_STATS:
	case PROTO_ACHIEVEMENTS:
	case PROTO_SERVER_STATS:
	case PROTO_RECORDS:
		buf_printf(&b, "%s %s", S(m->u.query.player), S(m->u.query.kind));
		break;
	case PROTO_ADMIN_LOBBY_CREATE:
		buf_printf(&b, "%s", S(m->u.lobby_create.name));
		break;
	case PROTO_ADMIN_KICK:
		buf_printf(&b, "%s %s", S(m->u.kick.player), S(m->u.kick.reason));
		break;
	default:
		break;
	}
#undef S
	free(j1);
	return b.data;
}

/* What PROTOCOL.md promises about an accepted message's fields. */
static void check_fields(const proto_msg *m)
{
	FUZZ_CHECK((int)m->type >= 0 && m->type < PROTO_TYPE_COUNT, "type %d", (int)m->type);
	FUZZ_CHECK(cJSON_IsObject(m->root), "root is not an object");
	if (names_a_table(m->type)) {
		FUZZ_CHECK(m->type != PROTO_CHOOSE || m->u.table.choice, "choose without a choice");
		FUZZ_CHECK(m->u.table.table >= 1, "table id %lld", (long long)m->u.table.table);
		FUZZ_CHECK(m->u.table.seat == PROTO_ABSENT ||
			   (m->u.table.seat >= 0 && m->u.table.seat < PROTO_MAX_SEATS),
			   "seat %d", m->u.table.seat);
	}
	switch (m->type) {
	case PROTO_HELLO:
		FUZZ_CHECK(m->u.hello.protocol == PROTO_VERSION, "hello protocol %d",
			   m->u.hello.protocol);
		FUZZ_CHECK(!m->u.hello.name != !m->u.hello.token, "hello: name xor token");
		FUZZ_CHECK(!m->u.hello.name || proto_name_valid(m->u.hello.name), "bad name");
		FUZZ_CHECK(!m->u.hello.token || proto_token_valid(m->u.hello.token), "bad token");
		FUZZ_CHECK(!m->u.hello.resume || cJSON_IsObject(m->u.hello.resume), "resume");
		break;
	case PROTO_CHAT:
		FUZZ_CHECK(m->u.chat.text && strlen(m->u.chat.text) <= PROTO_TEXT_MAX, "chat");
		break;
	case PROTO_TABLE_CREATE:
		FUZZ_CHECK(m->u.create.kind && m->u.create.seats >= 1 &&
			   m->u.create.seats <= PROTO_MAX_SEATS && m->u.create.ai >= 0 &&
			   m->u.create.ai <= m->u.create.seats, "table_create fields");
		FUZZ_CHECK(!m->u.create.is_private || m->u.create.password, "private, no password");
		FUZZ_CHECK(!m->u.create.config || cJSON_IsObject(m->u.create.config), "config");
		break;
	case PROTO_STATS:
	case PROTO_ACHIEVEMENTS:
		FUZZ_CHECK(!m->u.query.player || proto_name_valid(m->u.query.player), "player");
		break;
	case PROTO_ADMIN_KICK:
		FUZZ_CHECK(m->u.kick.player && proto_name_valid(m->u.kick.player), "kick player");
		break;
	default:
		break;
	}
}

/* Re-encoded with laird's printer (proto_print), an accepted message
 * decodes again to the same message. */
static void check_reencoding(const proto_msg *m)
{
	char *s1 = summary(m);
	char *printed = fuzz_json_text(m->root, "the accepted message");
	proto_msg m2;
	proto_error e2;
	enum proto_err rc2 = proto_decode(printed, strlen(printed), &m2, &e2);
	FUZZ_CHECK(rc2 == PROTO_OK, "re-encoded message refused: %s (%s)", e2.message, printed);
	char *s2 = summary(&m2);
	FUZZ_CHECK(strcmp(s1, s2) == 0, "re-encoded message differs:\n%s\n%s", s1, s2);
	free(s1);
	free(s2);
	proto_msg_free(&m2);
	free(printed);
}

/* A game kind's message must be valid UTF-8 when what it quotes was. */
static void check_text(const char *s, bool input_utf8, const char *what)
{
	FUZZ_CHECK(!input_utf8 || fuzz_utf8_valid(s, strlen(s)),
		   "%s is not valid UTF-8 for a valid UTF-8 frame: %.200s", what, s);
}

/* The text of an error, whatever the frame held: valid UTF-8 without a
 * control character (proto_error_set made it so, once). */
static void check_error_text(const char *s, const char *what)
{
	FUZZ_CHECK(fuzz_utf8_valid(s, strlen(s)), "%s is not valid UTF-8: %.200s", what, s);
	for (const char *p = s; *p; p++)
		FUZZ_CHECK((unsigned char)*p >= 0x20 && *p != 0x7f,
			   "%s holds control character 0x%02x: %.200s", what, *p, s);
}

/* The reply laird sends for a handler's error (app_error): its message is
 * the handler's text made fit, whatever that held. */
static void check_error_reply(enum proto_err code, const char *field, const char *text)
{
	cJSON *reply = proto_error_new(NULL, code, field, text);
	char *out = fuzz_json_text(reply, "error reply");
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(reply, "message");
	FUZZ_CHECK(cJSON_IsString(msg), "error reply without a message: %s", out);
	check_error_text(msg->valuestring, "a handler's error message");
	free(out);
	cJSON_Delete(reply);
}

/* choose: the choice through every kind's parser, as handle_choose does. */
static void try_choice(const proto_msg *m, bool utf8)
{
	for (int i = 0; i < game_kind_count(); i++) {
		const game_kind *k = game_kind_at(i);
		char err[256] = "";
		void *cfg = k->config_new(NULL, err, sizeof err);
		FUZZ_CHECK(cfg, "%s: default config refused", k->name);
		int seats = m->u.table.seat >= 0 ? m->u.table.seat + 1 : 2;
		if (seats < k->min_seats)
			seats = k->min_seats;
		if (seats > k->max_seats)
			seats = k->max_seats;
		game_events evs = {0};
		game_state *st = k->create(cfg, seats, (uint64_t)m->u.table.table, NULL, &evs, err,
					   sizeof err);
		FUZZ_CHECK(st, "%s: create: %s", k->name, err);
		int seat = m->u.table.seat >= 0 ? m->u.table.seat : 0;
		game_choice c = 12345;
		err[0] = 0;
		int rc = k->choice_parse(st, seat, m->u.table.choice, &c, err, sizeof err);
		if (rc == GAME_OK) {
			game_choice opts[2048];
			int n = k->options(st, seat, opts, (int)ARRAY_LEN(opts));
			bool found = false;
			for (int j = 0; j < n && j < (int)ARRAY_LEN(opts); j++)
				found = found || opts[j] == c;
			FUZZ_CHECK(found, "%s: choice_parse accepted %d, not an option", k->name,
				   c);
			cJSON *cj = k->choice_json(st, seat, c);
			char *t = fuzz_json_text(cj, "choice_json");
			check_text(t, true, "choice_json");
			free(t);
			cJSON_Delete(cj);
		} else {
			FUZZ_CHECK(rc > 0 && err[0] && c == 12345,
				   "%s: refused choice: rc %d, message '%s', out %d", k->name, rc,
				   err, c);
			check_text(err, utf8, "choice_parse's message");
			check_error_reply(PROTO_E_ILLEGAL_CHOICE, "choice", err);
		}
		k->destroy(st);
		game_events_free(&evs);
		k->config_free(cfg);
	}
}

/* table_create: the kind's config check and game creation. */
static void try_create(const proto_msg *m, bool utf8)
{
	const game_kind *k = game_kind_find(m->u.create.kind);
	if (!k)
		return;
	char err[256] = "";
	void *cfg = k->config_new(m->u.create.config, err, sizeof err);
	if (!cfg) {
		FUZZ_CHECK(err[0], "%s: config refused without a message", k->name);
		check_text(err, utf8, "config_new's message");
		check_error_reply(PROTO_E_BAD_FIELD, "config", err);
		return;
	}
	cJSON *j = k->config_json(cfg);
	free(fuzz_json_text(j, "config_json"));
	void *again = k->config_new(j, err, sizeof err);
	FUZZ_CHECK(again, "%s: own config_json refused: %s", k->name, err);
	k->config_free(again);
	cJSON_Delete(j);
	int seats = m->u.create.seats;
	game_events evs = {0};
	err[0] = 0;
	game_state *st = k->create(cfg, seats, m->u.create.seed, NULL, &evs, err, sizeof err);
	if (seats >= k->min_seats && seats <= k->max_seats) {
		FUZZ_CHECK(st, "%s: create (%d seats) failed: %s", k->name, seats, err);
		cJSON *v = k->view(st, -1);
		free(fuzz_json_text(v, "view"));
		cJSON_Delete(v);
		k->destroy(st);
	} else {
		FUZZ_CHECK(!st && err[0], "%s: create with %d seats", k->name, seats);
	}
	game_events_free(&evs);
	k->config_free(cfg);
}

int fuzz_proto_one(const uint8_t *data, size_t size)
{
	/* Exactly size bytes: no terminator to lean on. */
	char *text = xmalloc(size ? size : 1);
	memcpy(text, data, size);
	bool utf8 = fuzz_utf8_valid(text, size);

	proto_msg m;
	proto_error e;
	enum proto_err rc = proto_decode(text, size, &m, &e);
	FUZZ_CHECK(rc == e.code, "returned %d but err.code %d", rc, e.code);
	if (rc != PROTO_OK) {
		FUZZ_CHECK(proto_err_code(rc) && rc != PROTO_E_INTERNAL, "refused with code %d",
			   rc);
		FUZZ_CHECK(e.message[0] && memchr(e.message, 0, sizeof e.message) &&
			   memchr(e.field, 0, sizeof e.field), "error without a message");
		check_error_text(e.message, "the error's message");
		check_error_text(e.field, "the error's field");
		cJSON *reply = proto_error_from(m.id, &e);
		char *out = fuzz_json_text(reply, "error reply");
		/* Only an id can carry the frame's bytes into the reply as they
		 * are, and net passes no frame that is not valid UTF-8. */
		check_text(out, utf8, "the error reply");
		const char *type = NULL;
		proto_error e2;
		cJSON *back = proto_decode_server(out, strlen(out), &type, &e2);
		FUZZ_CHECK(back && strcmp(type, "error") == 0, "reply does not decode: %s", out);
		const cJSON *code = cJSON_GetObjectItemCaseSensitive(back, "code");
		const cJSON *msg = cJSON_GetObjectItemCaseSensitive(back, "message");
		FUZZ_CHECK(cJSON_IsString(code) && strcmp(code->valuestring, proto_err_code(rc)) == 0,
			   "reply code: %s", out);
		FUZZ_CHECK(cJSON_IsString(msg) && strcmp(msg->valuestring, e.message) == 0,
			   "reply message: %s", out);
		cJSON_Delete(back);
		free(out);
		cJSON_Delete(reply);
	} else {
		check_fields(&m);
		/* A client's 1e999 inside an opaque value (config, choice, resume)
		 * parses to infinity: the typed fields are checked finite by the
		 * decoder, the kinds refuse it in theirs, and text cannot carry it,
		 * so the re-encoding below is only for trees text can hold. */
		if (fuzz_json_printable(m.root))
			check_reencoding(&m);
		/* The ok reply echoing the id. */
		cJSON *ok = proto_new("ok", m.id);
		char *out = fuzz_json_text(ok, "ok reply");
		check_text(out, utf8, "the ok reply");
		free(out);
		cJSON_Delete(ok);
		if (m.type == PROTO_CHOOSE)
			try_choice(&m, utf8);
		else if (m.type == PROTO_TABLE_CREATE)
			try_create(&m, utf8);
	}
	proto_msg_free(&m);

	/* The client side decodes server frames with the same library. */
	const char *type = NULL;
	cJSON *srv = proto_decode_server(text, size, &type, &e);
	if (srv) {
		FUZZ_CHECK(type && cJSON_IsObject(srv), "server frame accepted without a type");
		cJSON_Delete(srv);
	} else {
		FUZZ_CHECK(e.code != PROTO_OK && e.message[0], "server frame refused silently");
	}
	free(text);
	return 0;
}

FUZZ_ENTRY(fuzz_proto_one)
