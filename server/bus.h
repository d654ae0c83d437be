/*
 * bus.h — how the nodes of a cluster talk: frames over Redis pub/sub
 * (docs/cluster.md, "The bus").
 *
 * Each node has two Redis connections (redis_uv.h): one subscribed to the
 * shared channel (PREFIX "bus", which every node hears, all in one order)
 * and to its own (PREFIX "n:" NODE, frames for it alone), and one for
 * commands: publishing, and the directory's keys. A frame is one header
 * line — its type, the sending node, then up to BUS_MAX_WORDS words — a
 * newline, and a payload the bus never reads (most types carry JSON; a
 * gateway passes it on as it is).
 *
 * The bus is up when both connections are up and both channels are
 * subscribed. on_state(up) then asks the owner to resynchronise: messages
 * are already flowing (subscribed first), so the owner rewrites its own
 * entries and then reads the others' (commands on the one connection run in
 * order); an update that raced the snapshot carries a version and the
 * newest wins. on_state(down) comes once when either connection is lost:
 * frames published meanwhile were missed, so the next up resynchronises.
 *
 * Everything runs on the loop thread. Nothing here without --redis: the
 * bus is only opened in cluster mode.
 */
#ifndef LAIR_BUS_H
#define LAIR_BUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "../common/util.h"
#include "redis_uv.h"

#define BUS_MAX_WORDS 16      /* header words after the type and the sender */
#define BUS_MAX_WORD 128      /* bytes in one word */
#define BUS_MAX_HEADER 1024   /* bytes in the header line */
#define BUS_MAX_TYPE 16       /* bytes in a type */
#define BUS_MAX_NODE 63       /* bytes in a node id */

typedef struct bus bus;

typedef struct bus_config {
	redis_uv_config redis; /* address, password, timeouts */
	char prefix[32];       /* of every channel and key: "lair:" */
	char node[BUS_MAX_NODE + 1]; /* this node's id: letters, digits, . _ - */
} bus_config;

/* A frame received. Pointers valid during the handler's call only. */
typedef struct bus_frame {
	bool to_all;        /* came on the shared channel, else on ours */
	const char *type;
	const char *from;   /* the sending node (ours for our own frames) */
	int nwords;
	const char *word[BUS_MAX_WORDS];
	const char *payload; /* NUL-terminated after len bytes */
	size_t len;
} bus_frame;

typedef void bus_handler_fn(bus *b, const bus_frame *f, void *ud);
typedef void bus_state_fn(bus *b, bool up, void *ud);
/* receivers: how many nodes were subscribed (0: nobody heard it), or -1
 * when the publish failed (bus lost before Redis answered). */
typedef void bus_done_fn(bus *b, long long receivers, void *ud);
/* reply NULL: failed. */
typedef void bus_reply_fn(bus *b, redisReply *reply, void *ud);

/* Fills in the defaults (redis_uv's, prefix "lair:", node "n1"). */
void bus_config_defaults(bus_config *cfg);

/* Is s a valid node id (or any other header word when any_word)? */
bool bus_word_ok(const char *s, size_t len, bool node_id);

/* Opens both connections; on_state tells when the bus is up or down. NULL
 * with err when the configuration is wrong (a bad node id or prefix). */
bus *bus_open(uv_loop_t *loop, const bus_config *cfg, bus_state_fn *on_state, void *ud,
	      char *err, size_t errlen);

/* Closes both connections (pending callbacks get -1/NULL during the call).
 * Memory is released once the loop has closed the handles. */
void bus_close(bus *b);

bool bus_is_up(const bus *b);
const char *bus_node(const bus *b);
const char *bus_prefix(const bus *b);

/* The handler for one frame type (a type has at most one; setting it again
 * replaces it). Frames of a type without a handler are counted, dropped. */
int bus_on(bus *b, const char *type, bus_handler_fn *fn, void *ud);

/* Publishes one frame: to node `to`, or to every node (ourselves included)
 * when to is NULL. words: nwords header words after the type and our id
 * (each non-empty, no space or control character, at most BUS_MAX_WORD
 * bytes). done may be NULL. 0 = sent; -1 = refused (bus down, bad word),
 * done not called. */
int bus_publish(bus *b, const char *to, const char *type, const char *const *words, int nwords,
		const char *payload, size_t len, bus_done_fn *done, void *ud);

/* A command on the command connection (the directory's keys). 0 = sent;
 * -1 = refused (bus down), fn not called. */
int bus_command(bus *b, bus_reply_fn *fn, void *ud, int argc, const char **argv,
		const size_t *argvlen);

/* Parses one received message into f (words point into hdr, a buffer of
 * BUS_MAX_HEADER + 1 bytes the caller provides). 0, or -1 when it is not a
 * frame. Exposed for the tests. */
int bus_parse(const char *data, size_t len, char *hdr, bus_frame *f);

typedef struct bus_stats {
	uint64_t frames_in, frames_out;
	uint64_t bytes_in, bytes_out;
	uint64_t bad_frames;     /* not a frame: dropped */
	uint64_t unhandled;      /* a type without a handler: dropped */
	uint64_t ups, downs;
} bus_stats;

void bus_get_stats(const bus *b, bus_stats *out);

/* lair_bus_up, lair_bus_messages_total{dir}, lair_bus_bad_frames_total. */
void bus_metrics(const bus *b, buf *out);

#endif
