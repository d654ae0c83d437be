/*
 * app.h — laird's application layer: sessions and identity, lobbies,
 * tables, dispatch of protocol messages, administration. It sits between
 * the network layer (net.h), which hands it whole text frames, and the
 * store (store.h). Everything runs on the one loop thread.
 */
#ifndef LAIR_APP_H
#define LAIR_APP_H

#include <stddef.h>
#include <uv.h>

#include "../common/util.h"
#include "config.h"

struct net;
struct conn;
struct store;
typedef struct app app;

/* The app borrows loop, cfg, store and net for its whole life. */
app *app_new(uv_loop_t *loop, const laird_config *cfg, struct store *store, struct net *net);
void app_free(app *a);

void app_on_open(app *a, struct conn *c);
/* One whole text frame (already size-checked by net). */
void app_on_message(app *a, struct conn *c, const char *text, size_t len);
void app_on_close(app *a, struct conn *c);

/* Shutdown begins: tell every client, stop timers, refuse new work. */
void app_drain(app *a);
/* Cluster mode, shutdown's first step (before app_drain): new work is
 * refused, the tables stop and are handed to the other nodes; done(ud)
 * once they have taken them (or a bound passed). false, nothing done:
 * single-node (go on with app_drain). */
bool app_handover(app *a, void (*done)(void *ud), void *ud);

/* Cluster mode (docs/cluster.md): joins the other nodes over the Redis bus
 * as node node_id (the store's). 0, or -1 with err. */
int app_cluster_open(app *a, int64_t node_id, char *err, size_t errlen);
/* Leaves the bus (shutdown, once the clients are gone). No-op without. */
void app_cluster_close(app *a);

/* Appends the app's metrics (players online, lobbies, tables by state,
 * decisions resolved, errors by code, ...) in Prometheus text format. */
void app_metrics(app *a, buf *out);

#endif
