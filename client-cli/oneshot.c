/*
 * oneshot.c — one request, one reply (see oneshot.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "../common/text.h"
#include "../proto/proto_msg.h"
#include "cmd.h"
#include "oneshot.h"
#include "lsess.h"

struct run {
	struct oneshot *o;
	int rc;
	int done;
};

/* --json: the object on stdout, without the request's id. */
static void print_json(const cJSON *msg)
{
	cJSON *copy = cJSON_Duplicate(msg, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(copy, "id");
	char *text = cJSON_Print(copy);
	char *safe = text_json_safe(text);
	printf("%s\n", safe);
	free(safe);
	free(text);
	cJSON_Delete(copy);
}

/* A failure: on stderr for humans; with --json as one error object on
 * stdout, {type:"error", code, message, exit}, so a script reads every
 * outcome from stdout. code is the server's, or lair's own: "disconnected",
 * "connect_failed", "refused" (the session ended), "usage". */
static void report_error(const struct oneshot *o, const char *code, const char *why, int rc)
{
	if (!o->json) {
		fprintf(stderr, "lair: %s\n", why);
		return;
	}
	cJSON *e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "type", "error");
	cJSON_AddStringToObject(e, "code", code);
	cJSON_AddStringToObject(e, "message", why);
	cJSON_AddNumberToObject(e, "exit", rc);
	print_json(e);
	cJSON_Delete(e);
}

int oneshot_usage_error(int json, const char *cmd, const char *why)
{
	if (!json) {
		fprintf(stderr, "lair %s: %s\n", cmd, why);
		return LAIR_USAGE;
	}
	struct oneshot o = {.json = 1};
	report_error(&o, "usage", why, LAIR_USAGE);
	return LAIR_USAGE;
}

static void on_reply(struct lsess *s, const cJSON *msg, void *ud)
{
	struct run *r = ud;
	const cJSON *ty = cJSON_GetObjectItemCaseSensitive(msg, "type");
	r->done = 1;
	if (cJSON_IsString(ty) && strcmp(ty->valuestring, "error") == 0) {
		r->rc = lsess_error_exit(msg);
		if (r->o->json) {
			cJSON *e = cJSON_Duplicate(msg, 1);
			cJSON_AddNumberToObject(e, "exit", r->rc);
			print_json(e);
			cJSON_Delete(e);
		} else {
			char why[512];
			lsess_error_text(msg, why, sizeof why);
			fprintf(stderr, "lair: %s\n", why);
		}
	} else if (r->o->json) {
		print_json(msg);
		r->rc = LAIR_OK;
	} else {
		if (r->o->print)
			r->o->print(msg, stdout);
		r->rc = LAIR_OK;
	}
	lsess_end(s);
}

static void on_ready(struct lsess *s, const cJSON *welcome, int first, void *ud)
{
	struct run *r = ud;
	(void)welcome;
	if (!first || !r->o->req)
		return;
	cJSON *req = r->o->req;
	r->o->req = NULL;
	if (lsess_request(s, req, on_reply, r) < 0) {
		r->rc = LAIR_CONNECT;
		report_error(r->o, "disconnected", "cannot send the request", r->rc);
		lsess_end(s);
	}
}

static void on_fail(struct lsess *s, int code, const char *why, void *ud)
{
	struct run *r = ud;
	(void)s;
	if (r->done)
		return;
	r->rc = code;
	report_error(r->o, code == LAIR_CONNECT ? "connect_failed" : "refused", why, code);
}

int oneshot_run(struct oneshot *o)
{
	uv_loop_t loop;
	uv_loop_init(&loop);
	struct run r = {o, LAIR_CONNECT, 0};
	struct lsess_opts so = {o->url, o->name, o->token, o->role, 0, 1, o->readonly};
	struct lsess_handler h = {on_ready, NULL, NULL, on_fail};
	char err[512];
	struct lsess *s = lsess_new(&loop, &so, &h, &r, err, sizeof err);
	if (!s) {
		report_error(o, "usage", err, LAIR_USAGE);
		cJSON_Delete(o->req);
		o->req = NULL;
		uv_loop_close(&loop);
		return LAIR_USAGE;
	}
	uv_run(&loop, UV_RUN_DEFAULT);
	lsess_free(s);
	cJSON_Delete(o->req);
	o->req = NULL;
	if (uv_loop_close(&loop) != 0)
		fprintf(stderr, "lair: warning: the event loop did not close cleanly\n");
	return r.rc;
}

const char *oneshot_str(const cJSON *obj, const char *key, char *tmp, size_t tmp_len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (cJSON_IsString(v)) { /* a peer's text: nothing raw reaches the terminal */
		text_escape(tmp, tmp_len, v->valuestring);
		return tmp;
	}
	int64_t i;
	if (proto_json_int(v, -(1LL << 53), 1LL << 53, &i)) {
		snprintf(tmp, tmp_len, "%lld", (long long)i);
		return tmp;
	}
	if (cJSON_IsNumber(v)) { /* a fraction, or too big to be a count */
		snprintf(tmp, tmp_len, "%.2f", v->valuedouble);
		return tmp;
	}
	if (cJSON_IsBool(v))
		return cJSON_IsTrue(v) ? "yes" : "no";
	return "-";
}

char *oneshot_json(const cJSON *v)
{
	char *text = v ? cJSON_PrintUnformatted(v) : NULL;
	char *safe = text_json_safe(text ? text : "-");
	cJSON_free(text);
	return safe;
}
