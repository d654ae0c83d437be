/*
 * oneshot.c — one request, one reply (see oneshot.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "../proto/proto_msg.h"
#include "cmd.h"
#include "oneshot.h"
#include "session.h"

struct run {
	struct oneshot *o;
	int rc;
	int done;
};

static void on_reply(struct lsess *s, const cJSON *msg, void *ud)
{
	struct run *r = ud;
	const cJSON *ty = cJSON_GetObjectItemCaseSensitive(msg, "type");
	r->done = 1;
	if (cJSON_IsString(ty) && strcmp(ty->valuestring, "error") == 0) {
		char why[512];
		lsess_error_text(msg, why, sizeof why);
		fprintf(stderr, "lair: %s\n", why);
		r->rc = lsess_error_exit(msg);
	} else if (r->o->json) {
		cJSON *copy = cJSON_Duplicate(msg, 1);
		cJSON_DeleteItemFromObjectCaseSensitive(copy, "id");
		char *text = cJSON_Print(copy);
		printf("%s\n", text);
		free(text);
		cJSON_Delete(copy);
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
		fprintf(stderr, "lair: cannot send the request\n");
		r->rc = LAIR_CONNECT;
		lsess_end(s);
	}
}

static void on_fail(struct lsess *s, int code, const char *why, void *ud)
{
	struct run *r = ud;
	(void)s;
	if (r->done)
		return;
	fprintf(stderr, "lair: %s\n", why);
	r->rc = code;
}

int oneshot_run(struct oneshot *o)
{
	uv_loop_t loop;
	uv_loop_init(&loop);
	struct run r = {o, LAIR_CONNECT, 0};
	struct lsess_opts so = {o->url, o->name, o->token, o->role, 0, 1};
	struct lsess_handler h = {on_ready, NULL, NULL, on_fail};
	char err[512];
	struct lsess *s = lsess_new(&loop, &so, &h, &r, err, sizeof err);
	if (!s) {
		fprintf(stderr, "lair: %s\n", err);
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
	if (cJSON_IsString(v))
		return v->valuestring;
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
