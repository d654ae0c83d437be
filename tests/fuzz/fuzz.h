/*
 * fuzz.h — lair's fuzz targets as plain functions (README "Fuzzing").
 *
 * Each target takes any bytes and runs them through code that needs no
 * sockets and no disk (the table target runs its timers on a private libuv
 * loop; the config target reads an in-memory file), checking invariants as
 * it goes. A broken invariant is reported on stderr and abort()s, so
 * libFuzzer keeps the input as a crash and the regression test
 * (tests/unit/test_fuzz_regress.c), which calls the same functions on every
 * file of tests/fuzz/corpus/ and tests/fuzz/regress/, fails under `make
 * test` (plain, then ASan+UBSan).
 *
 * The same .c files are linked into the libFuzzer binaries (`make fuzz`,
 * built with -DLAIR_LIBFUZZER, which adds LLVMFuzzerTestOneInput) and into
 * the unit test.
 *
 * Memory: the targets borrow data for the call only and free everything
 * they allocate before returning.
 */
#ifndef LAIR_FUZZ_H
#define LAIR_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

/* Any bytes as one client frame: decode; on success re-encode and decode
 * again, hand the parts pure code can take (choices, configs, seeds) to the
 * game kinds; on failure build the error reply. Returns 0. */
int fuzz_proto_one(const uint8_t *data, size_t size);

/* Bytes as a game: kind selector, seat count, seed, config tweaks, then
 * choice sets (legal or not) fed through the game_kind vtable; checks the
 * kind's contract (game.h) and that a replay of the log reproduces the
 * game. The byte layout is described at the top of fuzz_game.c. Returns 0. */
int fuzz_game_one(const uint8_t *data, size_t size);

/* Bytes as operations by five players at one table (server/table.h): the
 * round engine on a real libuv loop; layout at the top of fuzz_table.c.
 * Returns 0. */
int fuzz_table_one(const uint8_t *data, size_t size);

/* Bytes as what a server sends `lair play` (frames, and key presses in
 * between): the table model and the kind's screen (client-cli/);
 * layout at the top of fuzz_client.c. Returns 0. */
int fuzz_client_one(const uint8_t *data, size_t size);

/* Any bytes as JSON text: what cJSON parses, json_print (proto/json_out.h)
 * prints to text that reads back to exactly the same tree, and but for
 * numbers as cJSON_PrintUnformatted does. Returns 0. */
int fuzz_json_one(const uint8_t *data, size_t size);

/* Bytes as laird's config file (server/config.h): refused without a
 * change, or the same config as those settings given as flags. Returns
 * 0. */
int fuzz_config_one(const uint8_t *data, size_t size);

/* Bytes as the headers of an HTTP request to laird: a static file's path,
 * Accept-Encoding, If-None-Match, If-Modified-Since, and a WebSocket
 * upgrade's Origin and Host against allowed_origins; layout at the top of
 * fuzz_http.c. Returns 0. */
int fuzz_http_one(const uint8_t *data, size_t size);

/* FUZZ_ENTRY(fuzz_x_one), once at the end of each target's file: under
 * libFuzzer (-DLAIR_LIBFUZZER) the entry point calling that target; in the
 * unit test, nothing. */
#ifdef LAIR_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#define FUZZ_ENTRY(target)                                                                \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                      \
	{                                                                                 \
		return target(data, size);                                                \
	}
#else
#define FUZZ_ENTRY(target)
#endif

/* ---- shared helpers (fuzz_util.c) ---- */

/* Reports a broken invariant and aborts. */
void fuzz_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
#define FUZZ_CHECK(cond, ...)                                                             \
	do {                                                                              \
		if (!(cond))                                                              \
			fuzz_fail(__FILE__, __LINE__, __VA_ARGS__);                       \
	} while (0)

/* Consumes input bytes front to back; past the end it yields zeros. */
typedef struct fuzz_in {
	const uint8_t *p;
	size_t n;
} fuzz_in;

uint8_t fuzz_u8(fuzz_in *in);
uint16_t fuzz_u16(fuzz_in *in);
uint32_t fuzz_u32(fuzz_in *in);
uint64_t fuzz_u64(fuzz_in *in);
bool fuzz_left(const fuzz_in *in);

struct game_kind;

/* The overrides that make a kind's game small where its config allows it
 * (crawl: the smallest level, a low round cap), as a new JSON object, or
 * NULL for a kind that has none. A game to its end, played by its AI, then
 * costs what a gems or deepfall game does; the targets let an input ask
 * for it. */
cJSON *fuzz_small_config(const struct game_kind *k);

/* Prints j compactly, checks that the text parses back to an equal tree
 * (so every view, option list and event a client gets is valid JSON) and
 * returns the text (caller frees). `what` names it in a failure. */
char *fuzz_json_text(const cJSON *j, const char *what);

/* Parses text the harness only looks at (NULL when it is not JSON) into
 * scratch memory reused from one parse to the next: the tree is valid
 * until the next fuzz_scratch_parse and is deleted before it with
 * fuzz_scratch_delete (never cJSON_Delete). The code under test never
 * sees it. */
cJSON *fuzz_scratch_parse(const char *s, size_t len);
void fuzz_scratch_delete(cJSON *j);

/* Checks that j is a tree JSON text can carry (no NaN, no infinity, every
 * member keyed: the one thing that makes a tree print to text that does
 * not read back the same, given a correct printer; the json target
 * checks the printer, json_print, on any tree). */
void fuzz_json_check(const cJSON *j, const char *what);

/* Checks that two trees are the same (as fuzz_json_text compares them),
 * object members named in ignore (NULL-terminated, may be NULL) aside;
 * else reports "`what` differs" with both printed. */
void fuzz_json_same(const cJSON *a, const cJSON *b, const char *const *ignore, const char *what);

/* False when j holds a number JSON text cannot carry (NaN, infinity: a
 * client's 1e999 parses to one) or a member without a key. */
bool fuzz_json_printable(const cJSON *j);

/* True when s[0..n) is well-formed UTF-8 (RFC 3629: no overlongs, no
 * surrogates, nothing past U+10FFFF). A text frame must be. */
bool fuzz_utf8_valid(const char *s, size_t n);

#endif
