/*
 * cluster_int.h — what the cluster's files share and nobody else may use:
 * cluster.c (life, stand-in sessions, forwarding), cluster_dir.c (the
 * directory: lobbies, members, tables, chat), cluster_admin.c (admin
 * requests asked of every node) and cluster_takeover.c (dead nodes' tables
 * taken over). The frames are listed in cluster.c.
 */
#ifndef LAIR_CLUSTER_INT_H
#define LAIR_CLUSTER_INT_H

#include "bus.h"
#include "cluster.h"

/* Another node's table: where it lives and how its lobby shows it. */
typedef struct rtable {
	uint64_t lobby;
	char node[BUS_MAX_NODE + 1];
	char *summary; /* JSON text */
	bool stale;    /* its node resynchronises and has not told it again yet */
} rtable;

/* An admin request asked of every node (cluster_admin.c). */
typedef struct cl_gather cl_gather;

/* A session's cluster state (session->cl). */
typedef struct sess_cl {
	/* the owner's stand-in for a remote player */
	bool stub;
	char gateway[BUS_MAX_NODE + 1];
	uint32_t doing;      /* the forwarded request it runs (0: none) */
	/* the gateway's session waiting for a forwarded request, or for
	 * every node's answer to an admin request (cl_next_no) */
	uint32_t waiting;    /* its number (0: none) */
	uv_timer_t *timer;
	session *s;
} sess_cl;

/* A frame's handler (cl_on): c is the cluster. */
typedef void cl_frame_fn(cluster *c, const bus_frame *f);

/* One frame type's route: the handler, and whether it acts on other
 * nodes' frames only (our own, which the shared channel brings back too,
 * skipped). */
typedef struct cl_route {
	cluster *c;
	cl_frame_fn *fn;
	bool others_only;
} cl_route;

#define CL_MAX_ROUTES 24

struct cluster {
	app *a;
	bus *b;
	cl_route routes[CL_MAX_ROUTES];
	int n_routes;
	int64_t node_id;
	char node[BUS_MAX_NODE + 1];
	uint64_t next_id;
	uint32_t next_fwd;
	idmap tables; /* table id → rtable */
	uint64_t forwarded, forward_timeouts, upd_dropped;
	/* takeover: a store_live_claim pass every CLUSTER_CLAIM_PERIOD_MS */
	uv_timer_t *claim_timer;
	store_req *claim_req;
	int grace_ms;
	uint64_t claimed;
	metrics_hist takeover; /* lair_takeover_seconds */
	/* Nodes declared gone: whatever they still send (a hung node woken
	 * before it learns it was fenced) is dropped. Ids are never reused. */
	char (*gone)[BUS_MAX_NODE + 1];
	size_t n_gone;
	cl_gather *gathers; /* admin requests waiting for nodes' answers */
	bool claim_again; /* a node left: claim as soon as the pass in flight ends */
	/* When each other node was last heard (any frame: each beats every
	 * claim period); silent for CLUSTER_SILENT_MS while our bus is up, it
	 * is taken for dead: what we list of it goes. */
	struct heard {
		char node[BUS_MAX_NODE + 1];
		uint64_t at_ms;
		bool silent;
	} *heard;
	size_t n_heard;
	/* The hand-over (SIGTERM): our live tables not taken yet, until done
	 * is called (all taken, or CLUSTER_HANDOVER_MS passed). */
	bool leaving;
	uint64_t *handing;
	size_t n_handing;
	store_req *leave_req;
	uv_timer_t *handover_timer;
	void (*handover_done)(void *ud);
	void *handover_ud;
};

/* cluster.c: helpers of every file */
bool cl_is_self(const cluster *c, const bus_frame *f);
bool cl_is_gone(const cluster *c, const char *node);
/* Routes each frame type to its handler (the dispatch drops first what a
 * gone node sends, and with others_only our own frames). */
typedef struct cl_route_def {
	const char *type;
	cl_frame_fn *fn;
	bool others_only;
} cl_route_def;
void cl_routes(cluster *c, const cl_route_def *defs, size_t n);
/* Header word i as a number (false: missing, not a number). */
bool cl_word_u64(const bus_frame *f, int i, uint64_t *out);
void cl_num(char *out, size_t len, uint64_t v);
/* A session's caps as a frame's word (cl_num); and the word i of f into
 * a stand-in's caps (none when f has no word i). */
void cl_caps_word(char *out, size_t len, const session *s);
void cl_take_caps(session *stub, const bus_frame *f, int i);
/* A number for a request this node waits on (forwarded, admin): never 0. */
uint32_t cl_next_no(cluster *c);
/* Publishes (to node `to`, NULL: every node); 0 or -1 (bus down). */
int cl_publish(cluster *c, const char *to, const char *type, const char *const *w, int n,
	       const char *payload, size_t len);
sess_cl *cl_of(session *s);
bool cl_is_stub(const session *s);
void cl_free_handle(uv_handle_t *h);
/* The owner's stand-in session for player p, at gateway `node`. */
session *cl_stub_for(cluster *c, player *p, const char *node);
/* The player's stand-in goes: it is away from this node's tables. */
void cl_stub_drop(cluster *c, player *p);
void cl_forward_register(cluster *c);

/* cluster_dir.c */
void cl_rtable_free(rtable *rt);
/* Node `node` is dead: what we knew of it goes, and the members here are
 * told (presence left, table_removed). */
void cl_forget_node(cluster *c, const char *node);
/* A resynchronisation with node `node` (NULL: every node): what we know of
 * it is stale until told again, it is asked for its entries and given
 * ours, our players there say hello again; `synced` ends it. */
void cl_resync(cluster *c, const char *node);
/* Our entries, to node `to` (NULL: everyone). */
void cl_announce(cluster *c, const char *to);
/* The bus came up (resynchronise) or went down. */
void cl_on_state(bus *b, bool up, void *ud);
void cl_dir_register(cluster *c);
/* cluster_shared.c: the kinds' shared values read again (bus up). */
void cl_shared_register(cluster *c);
void cl_shared_resync(cluster *c);

/* cluster_admin.c */
void cl_admin_register(cluster *c);
/* Drops the admin requests still waiting (at close). */
void cl_admin_close(cluster *c);

/* cluster_takeover.c */
void cl_takeover_register(cluster *c);
/* The takeover pass every CLUSTER_CLAIM_PERIOD_MS; stopped at close. */
void cl_takeover_start(cluster *c);
void cl_takeover_stop(cluster *c);
/* A frame came from `node` (not us): it lives (a silent one is back: it
 * is asked for its entries again, and given ours). */
void cl_heard(cluster *c, const char *node);
/* Our bus came up: every node is heard afresh from now on. */
void cl_heard_reset(cluster *c);

#endif
