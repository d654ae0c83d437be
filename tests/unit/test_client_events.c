/*
 * test_client_events.c — lair's event log (each kind's event_line in
 * client-cli/view_*.c) against the event tables of proto/kinds/KIND.md, read
 * at run time (the tests run from the repository's top directory).
 *
 *   - the walk: every event type a kind's doc lists makes a log line, or is
 *     in tests/kind_events.json's quiet list (the screen shows it) or
 *     not_yet list (a known gap); the lists name only types the doc has and
 *     the client leaves unsaid;
 *   - deepfall in detail: every field of every event shows in its line (a
 *     count as itself, a seat by name, a room as F<floor>.<n>, a flag by
 *     changing the words).
 * The web client's twin is tests/e2e/web_events.test.js.
 */
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../client-cli/tview.h"
#include "../../client-cli/view.h"
#include "../../common/util.h"
#include "../test.h"

#define ROW_MAX 64
#define FIELD_MAX 16
#define NAME_MAX 32

struct doc_row {
	char type[NAME_MAX];
	char fields[FIELD_MAX][NAME_MAX];
	int n_fields, seat;
};

static char *slurp(const char *path)
{
	buf b = {0};
	char err[256];
	if (buf_read_file(&b, path, 1 << 20, err, sizeof err) != 0) {
		test_fail(__FILE__, __LINE__, "%s", err);
		buf_free(&b);
		return NULL;
	}
	return b.data;
}

/* The names in backquotes of cell [p, end) outside parentheses, split at
 * spaces ("`steel cunning`" is two), into names[]; returns their count. */
static int cell_names(const char *p, const char *end, char names[][NAME_MAX], int max)
{
	int n = 0, depth = 0;
	while (p < end) {
		if (*p == '(' || *p == ')') {
			depth += *p == '(' ? 1 : -1;
			p++;
		} else if (*p == '`' && depth == 0) {
			const char *close = memchr(p + 1, '`', (size_t)(end - p - 1));
			if (!close)
				break;
			for (const char *w = p + 1; w < close;) {
				size_t len = strcspn(w, " `");
				if (len && len < NAME_MAX && n < max) {
					memcpy(names[n], w, len);
					names[n++][len] = '\0';
				}
				w += len + (w[len] == ' ');
			}
			p = close + 1;
		} else {
			p++;
		}
	}
	return n;
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_' || c == '`';
}

/* Whether the bare word "seat" stands in [p, end) outside parentheses (not
 * a field like `start_seat`). */
static int names_seat(const char *p, const char *end)
{
	int depth = 0;
	for (const char *q = p; q < end; q++) {
		depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
		if (depth == 0 && !strncmp(q, "seat", 4) && (q == p || !word_char(q[-1])) &&
		    (q + 4 >= end || !word_char(q[4])))
			return 1;
	}
	return 0;
}

/* A kind's Events table: its key ("type" or "event": the header's first
 * cell) and its rows, one per type (a cell may name two). */
static int doc_events(const char *kind, char *key, struct doc_row *rows)
{
	char path[128];
	snprintf(path, sizeof path, "proto/kinds/%s.md", kind);
	char *md = slurp(path);
	if (!md)
		return 0;
	const char *sec = strstr(md, "\n## Events");
	const char *head = sec ? strstr(sec, "\n| ") : NULL;
	int n = 0;
	if (head && sscanf(head, "\n| %15[a-z] |", key) == 1) {
		const char *l = strchr(head + 1, '\n'); /* the |---| line */
		for (l = l ? strchr(l + 1, '\n') : NULL; l && l[1] == '|'; l = strchr(l + 1, '\n')) {
			const char *c0 = l + 2, *c1 = strchr(c0, '|'), *eol = strchr(c0, '\n');
			const char *c2 = c1 ? strchr(c1 + 1, '|') : NULL;
			if (!c2 || (eol && c2 > eol))
				break;
			char types[4][NAME_MAX];
			int nt = cell_names(c0, c1, types, 4);
			for (int t = 0; t < nt && n < ROW_MAX; t++, n++) {
				snprintf(rows[n].type, NAME_MAX, "%s", types[t]);
				rows[n].n_fields = cell_names(c1 + 1, c2, rows[n].fields, FIELD_MAX);
				rows[n].seat = names_seat(c1 + 1, c2);
			}
		}
	}
	CHECK_MSG(n >= 10, "%s: %d event types read from its Events table", path, n);
	free(md);
	return n;
}

static cJSON *lists(void)
{
	char *text = slurp("tests/kind_events.json");
	cJSON *j = text ? cJSON_Parse(text) : NULL;
	CHECK_MSG(j != NULL, "tests/kind_events.json is JSON");
	free(text);
	return j;
}

static const cJSON *at(const cJSON *o, const char *a, const char *b, const char *c)
{
	o = cJSON_GetObjectItemCaseSensitive(o, a);
	o = b ? cJSON_GetObjectItemCaseSensitive(o, b) : o;
	return c ? cJSON_GetObjectItemCaseSensitive(o, c) : o;
}

/* One event of a row: every field the doc names, the kind's sample for it
 * or a count of its own (11, 12, ...). */
static cJSON *sample(const cJSON *samples, const char *key, const struct doc_row *row, int seat)
{
	cJSON *ev = cJSON_CreateObject();
	cJSON_AddStringToObject(ev, key, row->type);
	if (row->seat && seat >= 0)
		cJSON_AddNumberToObject(ev, "seat", seat);
	int next = 11;
	for (int i = 0; i < row->n_fields; i++) {
		const char *f = row->fields[i];
		if (!strcmp(f, "seat") || cJSON_GetObjectItemCaseSensitive(ev, f))
			continue;
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(samples, f);
		cJSON_AddItemToObject(ev, f, s ? cJSON_Duplicate(s, 1) : cJSON_CreateNumber(next++));
	}
	return ev;
}

/* Three seats (us, an AI, another player) and, for deepfall, 6 floors of
 * 4 rooms: room 17 is F5.2. */
static void table(struct tv *tv, const char *kind)
{
	tv_init(tv);
	cJSON *m = cJSON_Parse(
		"{\"type\":\"table\",\"table\":1,\"seq\":1,\"state\":\"playing\",\"you\":0,"
		"\"seats\":[{\"seat\":0,\"kind\":\"human\",\"name\":\"dora\"},"
		"{\"seat\":1,\"kind\":\"ai\"},{\"seat\":2,\"kind\":\"human\",\"name\":\"ivan\"}],"
		"\"game\":{\"decision\":1,\"view\":{\"floors\":[]}}}");
	cJSON_AddStringToObject(m, "kind", kind);
	cJSON *floors = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "game"),
								"view"),
					    "floors");
	for (int f = 1; f <= 6; f++) {
		cJSON *fo = cJSON_CreateObject(), *rooms = cJSON_AddArrayToObject(fo, "rooms");
		cJSON_AddNumberToObject(fo, "floor", f);
		for (int r = 0; r < 4; r++) {
			cJSON *ro = cJSON_CreateObject();
			cJSON_AddNumberToObject(ro, "id", (f - 1) * 4 + r);
			cJSON_AddItemToArray(rooms, ro);
		}
		cJSON_AddItemToArray(floors, fo);
	}
	tv_apply(tv, m, 0, NULL);
	cJSON_Delete(m);
}

static void walk(const char *kind)
{
	struct doc_row rows[ROW_MAX];
	char key[16] = "";
	int n = doc_events(kind, key, rows);
	cJSON *l = lists();
	const struct kind_view *kv = kind_view_find(kind);
	REQUIRE(l && n > 0 && strcmp(kv->kind, kind) == 0);
	const cJSON *quiet = at(l, "quiet", "lair", kind), *not_yet = at(l, "not_yet", "lair", kind);
	struct tv tv;
	table(&tv, kind);
	for (int i = 0; i < n; i++) {
		cJSON *ev = sample(at(l, "samples", kind, NULL), key, &rows[i], 1);
		char line[TV_LOG_W + 1] = "";
		int said = kv->event_line(ev, &tv, line, sizeof line);
		const char *t = rows[i].type;
		if (cJSON_GetObjectItemCaseSensitive(quiet, t) ||
		    cJSON_GetObjectItemCaseSensitive(not_yet, t))
			CHECK_MSG(!said, "%s %s is listed as without a line, yet it reads \"%s\": take it "
				  "off tests/kind_events.json", kind, t, line);
		else
			CHECK_MSG(said && line[0] && !strstr(line, "(null)"),
				  "proto/kinds/%s.md's event %s has no line in lair (\"%s\"): draw it, or "
				  "list it in tests/kind_events.json with where the screen shows it",
				  kind, t, line);
		cJSON_Delete(ev);
	}
	const cJSON *listed;
	for (const cJSON *list = quiet; list; list = list == quiet ? not_yet : NULL)
		cJSON_ArrayForEach(listed, list)
		{
			int found = 0;
			for (int i = 0; i < n; i++)
				found |= !strcmp(rows[i].type, listed->string);
			CHECK_MSG(found, "tests/kind_events.json lists %s %s, which %s.md does not have",
				  kind, listed->string, kind);
		}
	tv_free(&tv);
	cJSON_Delete(l);
}

TEST(client_events_every_gems_event_of_the_doc_has_a_line_or_is_listed)
{
	walk("gems");
}

TEST(client_events_every_deepfall_event_of_the_doc_has_a_line_or_is_listed)
{
	walk("deepfall");
}

TEST(client_events_every_crawl_event_of_the_doc_has_a_line_or_is_listed)
{
	walk("crawl");
}

/* Whether line shows field f of ev: a count as itself, a fraction to two
 * places, a seat by name, room 17 as F5.2, a string as itself. */
static int shows(const char *line, const char *f, const cJSON *v)
{
	static const char *const names[] = {"You", "AI 2", "ivan"};
	char want[48];
	if (!strcmp(f, "room"))
		return strstr(line, "F5.2") != NULL;
	if (!strcmp(f, "winners") || !strcmp(f, "start_seat")) {
		const cJSON *s;
		if (cJSON_IsNumber(v))
			return strstr(line, names[v->valueint]) != NULL;
		cJSON_ArrayForEach(s, v) if (!strstr(line, names[s->valueint])) return 0;
		return 1;
	}
	if (cJSON_IsString(v))
		return strstr(line, v->valuestring) != NULL;
	if (v->valuedouble == (double)v->valueint)
		snprintf(want, sizeof want, "%d", v->valueint);
	else
		snprintf(want, sizeof want, "%.2f", v->valuedouble);
	return strstr(line, want) != NULL;
}

TEST(client_events_every_field_of_every_deepfall_event_shows)
{
	struct doc_row rows[ROW_MAX];
	char key[16] = "";
	int n = doc_events("deepfall", key, rows);
	cJSON *l = lists();
	REQUIRE(l && n > 0);
	const cJSON *samples = at(l, "samples", "deepfall", NULL);
	const struct kind_view *kv = kind_view_find("deepfall");
	struct tv tv;
	table(&tv, "deepfall");
	static const char *const names[] = {"You", "AI 2", "ivan"};
	for (int i = 0; i < n; i++) {
		for (int seat = 0; seat <= 2; seat += 2) {
			cJSON *ev = sample(samples, key, &rows[i], seat);
			char line[TV_LOG_W + 1] = "", other[TV_LOG_W + 1] = "";
			CHECK_MSG(kv->event_line(ev, &tv, line, sizeof line), "%s: no line", rows[i].type);
			if (rows[i].seat)
				CHECK_MSG(strstr(line, names[seat]) != NULL, "%s: the seat in \"%s\"",
					  rows[i].type, line);
			const cJSON *v;
			cJSON_ArrayForEach(v, ev)
			{
				if (!strcmp(v->string, key) || !strcmp(v->string, "seat"))
					continue;
				if (cJSON_IsBool(v)) {
					cJSON *flip = cJSON_Duplicate(ev, 1);
					cJSON_ReplaceItemInObject(flip, v->string,
								  cJSON_CreateBool(!cJSON_IsTrue(v)));
					kv->event_line(flip, &tv, other, sizeof other);
					CHECK_MSG(strcmp(line, other) != 0,
						  "%s.%s: true and false read the same: \"%s\"",
						  rows[i].type, v->string, line);
					cJSON_Delete(flip);
				} else {
					CHECK_MSG(shows(line, v->string, v), "%s.%s: not in \"%s\"",
						  rows[i].type, v->string, line);
				}
			}
			cJSON_Delete(ev);
		}
	}
	tv_free(&tv);
	cJSON_Delete(l);
}
