/*
 * ramp.c — see ramp.h.
 */
#include "ramp.h"

#include <stdio.h>

bool lg_ramp_connect(lg_ramp *r, lg_ctx *ctx, lg_ws *ws, size_t i, const lg_ws_handlers *h,
		     void *data)
{
	r->in_flight++;
	if (lg_ws_connect(ws, ctx->loop, lg_source(ctx, i), &ctx->dst, ctx->host, "/", h, data) ==
	    0)
		return true;
	r->closed++;
	r->closed_early++;
	r->in_flight--;
	lg_tally_add(&r->errors, "connect");
	return false;
}

bool lg_ramp_closed(lg_ramp *r, int code, const char *why, bool welcomed)
{
	r->closed++;
	if (r->ending)
		return false;
	char what[80];
	snprintf(what, sizeof what, "close %d %s", code, why);
	lg_tally_add(&r->errors, what);
	r->closed_early++;
	if (welcomed)
		return false;
	r->in_flight--;
	return true;
}
