/*
 * cluster.h — what makes several lairds one server (docs/cluster.md): the
 * app's side of the bus. Without --redis there is no cluster and every
 * hook below is skipped (app->cluster is NULL): single-node laird is
 * unchanged.
 *
 * Directory. Every node keeps the lobbies' state of the others in its own
 * lobby structs: their tables (ids in lobby->tables, summaries here),
 * their members (lobby->remote), the lobbies an admin created on any node,
 * and chat. Each node announces its own on the shared channel, which all
 * nodes hear in one order — so a chat line, which every node (its sender's
 * included) shows when it comes back from the bus, is in one order for
 * every member everywhere. A node whose bus comes up asks the others for
 * their entries ("sync").
 *
 * Forwarding. A request that names a table of another node (its owner) is
 * sent to the owner with the player's identity; the player's session here
 * (its gateway) waits, busy, so that every request is still answered in
 * the order received. The owner runs it on a stand-in session for the
 * player (no connection: what it sends goes back to the gateway, which
 * relays it as it is), then says done. No answer within
 * CLUSTER_FORWARD_TIMEOUT_MS: `internal` (may not have been carried out).
 * A player who connects to a node says so on the bus: the node where it
 * was connected before ends that session (replaced), and the owners of its
 * tables send their updates to the new gateway and resume it there.
 *
 * Loop thread only.
 */
#ifndef LAIR_CLUSTER_H
#define LAIR_CLUSTER_H

#include "app_int.h"

#define CLUSTER_FORWARD_TIMEOUT_MS 2000
/* An admin listing, stats or kick waits this long for every node's part;
 * a node that has not answered by then is reported missing. */
#define CLUSTER_ADMIN_WAIT_MS 2000
/* Takeover: a pass every period; a node must look dead this long (and this
 * node's own database connection be up this long) before its tables move.
 * LAIR_TAKEOVER_GRACE_MS in the environment overrides the grace (tests). */
#define CLUSTER_CLAIM_PERIOD_MS 500
#define CLUSTER_TAKEOVER_GRACE_MS 2000
/* A node not heard on the bus this long (it sends a beat every claim
 * period), while this node's bus is up, is taken for dead: its members and
 * waiting tables leave the directory here. As long as the lease. */
#define CLUSTER_SILENT_MS 5000
/* SIGTERM: how long a stopping node waits for the others to take its live
 * tables before it closes its connections (well inside systemd's
 * TimeoutStopSec). */
#define CLUSTER_HANDOVER_MS 3000

/* A member of a lobby connected to another node. */
struct remote_member {
	int64_t id;
	char name[APP_NAME_MAX];
	char node[64];
	bool stale; /* its node resynchronises and has not told it again yet */
};

/* Connects to Redis (cfg->redis) as node "n<node_id>". NULL with err on a
 * bad setting. Table and lobby ids made here are (node_id << 32) + n from
 * then on, unique in the cluster. */
cluster *cluster_open(app *a, int64_t node_id, char *err, size_t errlen);
/* Shutdown, first step: this node stops taking tables over and refuses
 * table requests (internal: they move); the others are told that its
 * members and waiting tables go. Its live tables stay listed: they are
 * handed over (cluster_handover). */
void cluster_drain(app *a);
/* Shutdown, once the tables have stopped (their writes queued): the node
 * leaves in the store, after those writes, and says so on the bus, so
 * that the others take its live tables at once; done(ud) is called when
 * every one of them is taken, or after CLUSTER_HANDOVER_MS. */
void cluster_handover(app *a, void (*done)(void *ud), void *ud);
/* Closes the bus (its memory goes with the loop). NULL: no-op. */
void cluster_close(cluster *c);
bool cluster_up(const cluster *c);
const char *cluster_node(const cluster *c);
/* lair_bus_*, lair_forwarded_requests_total. */
void cluster_metrics(const cluster *c, buf *out);

/* ---- hooks: app.c, session.c ---- */

/* A client frame for a table another node owns: forwarded (true; the
 * session is busy until the owner is done) or not ours to forward. */
bool cluster_forward(session *s, const proto_msg *m, const char *text, size_t len);
/* A stand-in session's message: to the player's gateway. */
void cluster_send_remote(session *s, const char *text, size_t len);
/* A stand-in session finished the request it waits on (the store answered). */
void cluster_request_done(session *s);
/* After welcome: the player is here now. */
void cluster_player_hello(session *s);
/* A session is freed: its forwarding state goes. */
void cluster_session_gone(session *s);
/* The player's connection here ended (it was its current one). */
void cluster_player_left(app *a, player *p);
/* A newer connection of the player here replaces its stand-in: dropped
 * (true), or s is no stand-in (false). */
bool cluster_drop_stub(session *s);
/* Whether a table or lobby id is of this node's range (always, single). */
bool cluster_owns_id(const app *a, uint64_t id);

/* ---- hooks: lobby.c, admin.c ---- */

void cluster_presence(app *a, const lobby *l, const player *p, bool joined);
void cluster_table_changed(app *a, const lobby *l, const app_table *at);
void cluster_table_removed(app *a, uint64_t lobby_id, uint64_t table_id);
/* A chat line: published; every node shows it when it comes back. 0, or
 * -1 when the bus is down (nothing was sent). */
int cluster_chat(app *a, const lobby *l, const char *from, const char *text, int64_t at);
void cluster_lobby_created(app *a, const lobby *l);
void cluster_lobby_closed(app *a, uint64_t lobby_id);
/* False while the bus is down for a lobby another node made: its maker
 * tells it again when the bus is back, which would undo a close made here
 * meanwhile (the maker's own close reaches the others then). True in
 * single-node mode. */
bool cluster_lobby_closable(app *a, const lobby *l);
/* ---- hooks: durable.c ---- */

/* A record of this node committed: the kind's values it read (rows[n]) to
 * every node. */
void cluster_shared_recorded(app *a, const store_stat *rows, size_t n);

/* Another node's table's summary (new JSON), or NULL. */
cJSON *cluster_table_summary(app *a, uint64_t table_id);
/* admin_tables, admin_players, admin_stats, admin_kick in cluster mode:
 * asked of every node (cluster_admin.c), the session waits for the merged
 * reply (true). False in single-node mode and for a stand-in session: the
 * caller answers from this node alone. */
bool cluster_admin_ask(session *s, const proto_msg *m);

#endif
