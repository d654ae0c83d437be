/*
 * text.h — untrusted text that ends up on someone's terminal: table names,
 * lobby names, chat, anything a peer chose. Two sides of one rule:
 *
 *   - the server refuses names holding a character that is not plain
 *     visible text (text_plain), so a name never carries a terminal escape,
 *     a right-to-left override or an invisible character;
 *   - the client shows every peer string through text_escape, so whatever
 *     a server sends (an old name, chat, an error message) is printed with
 *     those characters spelled out, never executed by the terminal.
 *
 * "Not plain" means: invalid UTF-8, C0 controls (U+0000–U+001F, tab and
 * newline included), DEL, C1 controls (U+0080–U+009F: some terminals obey
 * U+009B as CSI), bidirectional controls (U+061C, U+200E, U+200F,
 * U+202A–U+202E, U+2066–U+2069), invisible formatting characters
 * (U+00AD, U+200B–U+200D, U+2060–U+2064, U+FEFF), line and paragraph
 * separators (U+2028, U+2029) and noncharacters U+FFFE/U+FFFF.
 */
#ifndef LAIR_TEXT_H
#define LAIR_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* True when s is valid UTF-8 and holds no character listed above. */
bool text_plain(const char *s);

/* Copies s into out (capacity cap ≥ 1, always NUL-terminated, cut at a
 * whole escape or character): plain characters as they are, every other
 * one spelled out: a C0 control or DEL as \xNN, an invalid byte as \xNN, a
 * code point as \u{XXXX}, and a backslash as \\ (so the escaped text is
 * unambiguous). Returns the length written. */
size_t text_escape(char *out, size_t cap, const char *s);

/* text_escape into a new buffer (xmalloc: never NULL). */
char *text_escaped(const char *s);

/* Makes s fit to quote in a message to a client or in a log line, in
 * place: every byte that is not part of a valid UTF-8 sequence and every
 * control character (below 0x20, and DEL) becomes '?', the way the log
 * shows them; an incomplete character at the very end (what a byte-count
 * cut or a snprintf truncation leaves) is dropped. Never lengthens s. */
void text_scrub(char *s);

/* A copy of JSON text (as cJSON prints it) that stays the same JSON value
 * but holds nothing a terminal would act on: inside strings every character
 * that is not plain is written \uXXXX (an invalid byte \ufffd); the
 * layout's own newlines and tabs between tokens stay. xmalloc'd. */
char *text_json_safe(const char *json);

#endif
