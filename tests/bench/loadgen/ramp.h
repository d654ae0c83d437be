/*
 * ramp.h — the connection ramp both scenarios share (idle.c, play.c): bots
 * connect a few at a time (at most the scenario's in_flight between connect
 * and welcome), every close is counted, and until the run ends a close is
 * an error, tallied by its code and reason.
 */
#ifndef LAIR_LG_RAMP_H
#define LAIR_LG_RAMP_H

#include <stdbool.h>
#include <stddef.h>

#include "lg.h"
#include "ws.h"

typedef struct lg_ramp {
	size_t in_flight;    /* connecting or saying hello: not welcomed yet */
	size_t closed;       /* every close, and every connect that failed */
	size_t closed_early; /* of those, the ones before the run's end */
	bool ending;         /* closes from here on are ours */
	lg_tally errors;
} lg_ramp;

/* Connects ws as the run's i-th connection (its source address follows
 * from i) and counts it in flight. A connect that fails at once is counted
 * closed early (error "connect") and returns false: the bot is closed. */
bool lg_ramp_connect(lg_ramp *r, lg_ctx *ctx, lg_ws *ws, size_t i, const lg_ws_handlers *h,
		     void *data);

/* A connection closed: counted. Unless the run is ending it is an error
 * ("close CODE WHY"), and a bot never welcomed frees its place in the
 * ramp: then true, and the caller starts more. */
bool lg_ramp_closed(lg_ramp *r, int code, const char *why, bool welcomed);

#endif
