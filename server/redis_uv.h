/*
 * redis_uv.h — one connection to Redis on laird's libuv loop, kept alive.
 *
 * hiredis (0.14, Debian's) parses the protocol; this glue drives its socket
 * from the loop through hiredis's event hooks and adds what that version
 * lacks: a connection refused or broken is reported (never swallowed), the
 * connect and every command have a timeout, an idle connection is pinged,
 * and a lost connection is made again with a growing delay. A stopped
 * server (it still accepts TCP) is therefore seen as down within
 * ping_interval_ms + command_timeout_ms.
 *
 * States: connecting → up → (lost) → waiting → connecting → … The owner
 * hears through on_state: up=true when the server has answered (AUTH when
 * a password is set, else PING); up=false with a reason each time an
 * attempt fails or an up connection is lost. Commands are
 * taken only while up; every command's callback is called exactly once,
 * with the reply or NULL (timeout, connection lost, or redis_uv_close).
 *
 * A connection either runs commands or, once redis_uv_subscribe was called
 * on it, only receives messages (Redis's rule for subscribers); after a
 * reconnect it is a plain connection again, and the owner subscribes again
 * in its on_state(up) — so it knows where its stream of messages restarts.
 *
 * Everything runs on the loop thread; callbacks may call any function here,
 * redis_uv_close included. Memory is released when the loop has closed the
 * handles (run the loop after redis_uv_close).
 */
#ifndef LAIR_REDIS_UV_H
#define LAIR_REDIS_UV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include <hiredis/hiredis.h>

typedef struct redis_uv redis_uv;

typedef struct redis_uv_config {
	char host[256];             /* an IP address: no name lookup on the loop */
	int port;
	char password[256];         /* "" = no AUTH */
	unsigned connect_timeout_ms; /* TCP connect + first answer */
	unsigned command_timeout_ms; /* a command unanswered this long: lost */
	unsigned ping_interval_ms;   /* a PING this often while up */
	unsigned backoff_min_ms;     /* first delay before connecting again */
	unsigned backoff_max_ms;     /* the delay doubles up to this */
	size_t max_pending;          /* commands awaiting a reply; more are refused */
} redis_uv_config;

/* Fills in the defaults (127.0.0.1:6379, 1 s connect, 2 s commands, PING
 * every 1 s, 100 ms → 2 s backoff, 100,000 pending). */
void redis_uv_config_defaults(redis_uv_config *cfg);

/* up: the server answered; !up: why (a static or short-lived string: copy
 * it to keep it). */
typedef void redis_uv_state_fn(redis_uv *r, bool up, const char *why, void *ud);
/* reply: NULL when the command failed (timeout, lost, closed). It belongs
 * to hiredis: valid during the call only. */
typedef void redis_uv_reply_fn(redis_uv *r, redisReply *reply, void *ud);
/* A message published on a channel this connection subscribed to. */
typedef void redis_uv_message_fn(redis_uv *r, const char *channel, size_t channel_len,
				 const char *data, size_t len, void *ud);

/* Starts connecting at once; on_state tells the outcome. NULL only when out
 * of memory or the loop refuses a timer. */
redis_uv *redis_uv_open(uv_loop_t *loop, const redis_uv_config *cfg,
			redis_uv_state_fn *on_state, void *ud);

/* Closes the connection and stops reconnecting. Pending commands' callbacks
 * get NULL (during this call); on_state is not called again. */
void redis_uv_close(redis_uv *r);

bool redis_uv_is_up(const redis_uv *r);

/* Sends one command (argv with lengths: binary-safe). 0 = sent, fn will be
 * called once; -1 = refused (not up, subscribed, or max_pending reached),
 * fn will not be called. fn may be NULL. */
int redis_uv_command(redis_uv *r, redis_uv_reply_fn *fn, void *ud, int argc,
		     const char **argv, const size_t *argvlen);

/* Subscribes to n channels; from then on the connection only receives
 * (redis_uv_command refuses). on_subscribed is called once when Redis has
 * confirmed every channel (reply non-NULL), or with NULL if the connection
 * was lost first. Messages go to on_message until the connection is lost.
 * 0 = sent, -1 = refused (not up). */
int redis_uv_subscribe(redis_uv *r, const char *const *channels, int n,
		       redis_uv_message_fn *on_message, redis_uv_reply_fn *on_subscribed,
		       void *ud);

/* Counters for tests and metrics. */
typedef struct redis_uv_stats {
	uint64_t connects;   /* connections that came up */
	uint64_t failures;   /* connects that failed + up connections lost */
	uint64_t timeouts;   /* of those, by a timeout */
	uint64_t commands;   /* commands sent */
	uint64_t messages;   /* pub/sub messages received */
} redis_uv_stats;

void redis_uv_get_stats(const redis_uv *r, redis_uv_stats *out);

#endif
