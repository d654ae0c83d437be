/*
 * view_generic.c — the kind registry of lair's screens (view.h) and the
 * generic screen for kinds without their own: the seats with their status,
 * the events as compact lines, simple {id, label} options as keys, and the
 * result's scores. A kind with choice forms gets its own view_<kind>.c
 * (deepfall: view_deepfall.c); on this screen such forms are left to the AI
 * at the deadline, and it says so.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../common/util.h"
#include "../proto/proto_msg.h"
#include "view.h"
#include "view_json.h"
#include "view_crawl.h"
#include "view_deepfall.h"
#include "view_gems.h"


/* Option i is a plain {id, label} (or a string) that one key can choose. */
static int simple_option(const struct tv *tv, int i)
{
	const cJSON *o = cJSON_GetArrayItem(tv->options, i);
	return cJSON_IsString(o) || cJSON_IsString(get(o, "id"));
}

static int generic_keys(const struct tv *tv, char *keys, int max)
{
	int n = MIN(tv_n_options(tv), max);
	char used[128] = {0};
	used['H'] = used['Q'] = used['R'] = used['L'] = 1; /* the screen's own */
	for (int i = 0; i < n; i++) {
		keys[i] = 0;
		if (!simple_option(tv, i))
			continue;
		for (const char *p = tv_option_label(tv, i); *p && !keys[i]; p++) {
			char k = (char)toupper((unsigned char)*p);
			if (isalnum((unsigned char)k) && !used[(int)k])
				keys[i] = k;
		}
		for (char k = '1'; k <= '9' && !keys[i]; k++)
			if (!used[(int)k])
				keys[i] = k;
		if (keys[i])
			used[(int)keys[i]] = 1;
	}
	return n;
}

static int generic_option_for_key(const struct tv *tv, int key)
{
	char keys[32];
	int n = generic_keys(tv, keys, 32);
	key = toupper(key);
	for (int i = 0; i < n; i++)
		if (keys[i] && keys[i] == key)
			return i;
	return -1;
}

int view_generic_event_line(const cJSON *ev, const struct tv *tv, char *out, size_t out_len)
{
	(void)tv;
	const cJSON *ty = get(ev, "type");
	if (!cJSON_IsString(ty))
		return 0;
	/* The type and its scalar fields, compactly. */
	size_t n = (size_t)snprintf(out, out_len, "%s", ty->valuestring);
	const cJSON *it;
	cJSON_ArrayForEach(it, ev)
	{
		if (n >= out_len || !it->string || !strcmp(it->string, "type"))
			continue;
		if (cJSON_IsNumber(it))
			n += (size_t)snprintf(out + n, out_len - n, " %s=%g", it->string,
					      it->valuedouble);
		else if (cJSON_IsString(it))
			n += (size_t)snprintf(out + n, out_len - n, " %s=%s", it->string,
					      it->valuestring);
		else if (cJSON_IsBool(it))
			n += (size_t)snprintf(out + n, out_len - n, " %s=%s", it->string,
					      cJSON_IsTrue(it) ? "yes" : "no");
	}
	return 1;
}

static void draw_result(struct scr *s, const struct tv *tv)
{
	const cJSON *r = tv->result;
	scr_put(s, 2, 0, SA_BOLD | SC_YELLOW, "GAME OVER");
	const cJSON *scores = get(r, "scores"), *winners = get(r, "winners"), *w;
	int win[TV_MAX_SEATS] = {0};
	cJSON_ArrayForEach(w, winners)
	{
		int64_t ws;
		if (proto_json_int(w, 0, TV_MAX_SEATS - 1, &ws))
			win[ws] = 1;
	}
	for (int i = 0; i < tv->n_seats; i++) {
		const cJSON *sc = cJSON_GetArrayItem(scores, i);
		if (!sc) /* gems-like: seats[{seat, score, winner}] */
			sc = get(cJSON_GetArrayItem(get(r, "seats"), i), "score");
		char tmp[32];
		int64_t score = 0;
		if (!proto_json_int(sc, -1000000000, 1000000000, &score))
			score = 0; /* absent or unreadable */
		scr_printf(s, 3 + i, 0, win[i] ? SC_GREEN | SA_BOLD : 0, "%s%d %-20s %6lld  %s",
			   i == tv->seat ? ">" : " ", i + 1, tv_seat_name(tv, i, tmp, sizeof tmp),
			   (long long)score, win[i] ? "WINNER" : "");
	}
}

void view_generic_draw(struct scr *s, const struct tv *tv, const struct view_ui *ui)
{
	view_header(s, tv, tv->kind, NULL);
	if (tv->result) {
		draw_result(s, tv);
		scr_put(s, 23, 0, 0, "[R]ematch (host)  [L]obby  [Q]uit");
		return;
	}
	scr_put(s, 2, 0, SA_BOLD, "  # PLAYER               STATUS");
	for (int i = 0; i < tv->n_seats; i++) {
		char tmp[32];
		scr_printf(s, 3 + i, 0, i == tv->seat ? SA_BOLD : 0, "%s%d %-20s %-10s %s",
			   i == tv->seat ? ">" : " ", i + 1, tv_seat_name(tv, i, tmp, sizeof tmp),
			   strcmp(tv->status[i], "idle") ? tv->status[i] : "",
			   tv_seat_is_ai(tv, i) ? "AI" : "");
	}
	int start = tv->log_len > 7 ? tv->log_len - 7 : 0;
	for (int r = 0; start + r < tv->log_len; r++)
		scr_put(s, 13 + r, 1, 0, tv->log[start + r]);
	char keys[32], line[160];
	int n = generic_keys(tv, keys, 32), col = 0, row = 21, any = 0;
	for (int i = 0; i < n; i++) {
		if (!keys[i])
			continue;
		snprintf(line, sizeof line, "[%c] %s  ", keys[i], tv_option_label(tv, i));
		if (col + (int)strlen(line) > SCR_W && ++row > 22)
			break;
		if (col + (int)strlen(line) > SCR_W)
			col = 0;
		col = scr_put(s, row, col, i == tv->chosen ? SA_REVERSE : SA_BOLD, line);
		any = 1;
	}
	if (n > 0 && !any)
		scr_put(s, 21, 0, SC_YELLOW,
			"lair has no screen for this kind's choices yet: the AI plays your seat.");
	if (tv->deadline_at && tv->options && tv->deadline_at > ui->now)
		scr_printf(s, 23, 0, 0, "%llus left  ",
			   (unsigned long long)((tv->deadline_at - ui->now + 999) / 1000));
	scr_put(s, 23, 12, 0, "[Q]uit");
	if (ui->link_down)
		scr_put(s, 23, 50, SC_RED | SA_BOLD, "connection lost: resuming...");
	else if (ui->notice)
		scr_printf(s, 23, 40, SC_RED, "%.39s", ui->notice);
}

void view_header(struct scr *s, const struct tv *tv, const char *kind, const char *progress)
{
	char line[160];
	scr_clear(s);
	scr_fill(s, 0, 0, SA_REVERSE);
	snprintf(line, sizeof line, " lair  table %lld \"%.20s\"  %s  %s%s", (long long)tv->table,
		 tv->name, kind, progress ? progress : "", tv->state);
	scr_put(s, 0, 0, SA_REVERSE | SA_BOLD, line);
	if (tv->seat < 0)
		scr_put(s, 0, SCR_W - 10, SA_REVERSE, "[watching]");
}

void view_footer(struct scr *s, const struct tv *tv, const struct view_ui *ui, const char *what,
		 const char *keys)
{
	char line[120];
	int k = 0;
	if (tv->window_at && tv->window_at > ui->now)
		k = snprintf(line, sizeof line, "Everyone chose: %.1fs to change your mind  ",
			     (double)(tv->window_at - ui->now) / 1000.0);
	else if (tv->deadline_at && tv->options)
		k = snprintf(line, sizeof line, "%s%s%llus left  ", what ? what : "", what ? " " : "",
			     (unsigned long long)(tv->deadline_at > ui->now
							  ? (tv->deadline_at - ui->now + 999) / 1000
							  : 0));
	snprintf(line + k, sizeof line - (size_t)k, "%s", keys);
	scr_put(s, 23, 0, tv->window_at ? SC_CYAN | SA_BOLD : 0, line);
	if (ui->link_down)
		scr_put(s, 23, 50, SC_RED | SA_BOLD, "connection lost: resuming...");
	else if (ui->notice)
		scr_printf(s, 23, 40, SC_RED, "%.39s", ui->notice);
}

static const struct kind_view views[] = {
	{"gems", view_gems_draw, view_gems_event_line, view_gems_option_for_key, NULL},
	{"deepfall", view_deepfall_draw, view_deepfall_event_line, view_deepfall_option_for_key,
	 view_deepfall_form_key},
	{"crawl", view_crawl_draw, view_crawl_event_line, view_crawl_option_for_key, view_crawl_form_key},
};

static const struct kind_view generic = {
	"", view_generic_draw, view_generic_event_line, generic_option_for_key, NULL,
};

const struct kind_view *kind_view_find(const char *kind)
{
	for (size_t i = 0; kind && i < ARRAY_LEN(views); i++)
		if (!strcmp(views[i].kind, kind))
			return &views[i];
	return &generic;
}
