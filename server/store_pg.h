/*
 * store_pg.h — the store's PostgreSQL backend (cluster mode), behind the
 * same contract as SQLite (store.h): store.c picks it when the path is a
 * postgresql:// URL. Only store.c includes this. Everything but
 * store_pg_url runs on the store thread (store_pg_open before it starts).
 *
 * The node. Each store that opens the database is a node: a fresh id from
 * the sequence lair_node_id, a session advisory lock on that id held by
 * the store's connection (it frees the moment the process dies), a row in
 * `nodes` with a lease the store thread renews every STORE_PG_LEASE_MS / 3.
 * Fencing: once a node's row says gone (another node declared it dead),
 * none of its writes commit any more (STORE_ERR_FENCED, and store_fenced()
 * turns true for good); and a live table takes writes only from its owner.
 *
 * Opening adopts the live tables of the nodes that are gone (stopped, or
 * declared dead); those of a node that died without stopping come with the
 * takeover pass (store_live_claim), after its grace.
 */
#ifndef LAIR_STORE_PG_H
#define LAIR_STORE_PG_H

#include <stdbool.h>
#include <stddef.h>

#include "store_int.h"

/* A node's lease: renewed every third of it by its store thread. */
#define STORE_PG_LEASE_MS 5000
/* The advisory locks' first key. The second is a node's id (from 1) for
 * its own lock; 0 for the migrations' transaction lock (one node
 * migrates at a time); STORE_PG_LOCK_ADMIN for the first admin token's
 * (op_admin_issue). */
#define STORE_PG_LOCK_CLASS 19521
#define STORE_PG_LOCK_ADMIN (-1)

/* migrations/pg/NNNN_name.sql, embedded (build/gen/pg_migrations.c). */
extern const store_migration store_pg_migrations[];
extern const int store_pg_n_migrations;

/* The lease, in ms (tests shorten it before store_open). */
extern int store_pg_lease_ms;

/* The path names PostgreSQL (postgresql:// or postgres://). */
bool store_pg_url(const char *path);

/* Connects, migrates, registers the node, adopts gone nodes' live tables,
 * loads shared states and this node's live tables. 0, or -1 with err. */
int store_pg_open(store *st, const char *url, char *err, size_t errlen);
void store_pg_close(store *st);
/* store_db_run_batch's twin: one transaction, one savepoint a request; a
 * lost connection fails the batch and is reconnected by the next one. */
void store_pg_run_batch(store *st, store_req *batch);
/* This node's id (> 0). */
int64_t store_pg_node(const store *st);
/* Renews the lease (or learns the node is fenced). */
void store_pg_renew(store *st);

#endif
