/*
 * admin.h — administration over the protocol (PROTOCOL.md §9): lobbies, tables,
 * online players, kicks and server statistics for players whose token
 * carries the admin role; and the making of admin tokens (laird's first
 * start, `laird admin-token`), printed once and stored only as a hash.
 */
#ifndef LAIR_ADMIN_H
#define LAIR_ADMIN_H

#include "app_int.h"
#include "lobby.h"

void handle_admin_lobby_create(session *s, proto_msg *m);
void handle_admin_lobby_close(session *s, proto_msg *m);
void handle_admin_tables(session *s, proto_msg *m);
void handle_admin_table_close(session *s, proto_msg *m);
void handle_admin_players(session *s, proto_msg *m);
void handle_admin_kick(session *s, proto_msg *m);
void handle_admin_players_prune(session *s, proto_msg *m);
void handle_admin_stats(session *s, proto_msg *m);

/* ---- this node's part of a listing (cluster_admin.c gathers every
 * node's) ---- */

/* This node's own tables (of lobby lobby_id; every lobby when 0) whose id
 * is after pg.after, sorted: at most pg.limit summaries into arr. *total
 * counts all of them; returns whether more follow the page. */
bool admin_tables_here(app *a, uint64_t lobby_id, list_page pg, cJSON *arr, size_t *total);
/* The players connected here, the same way (admin_players' entries). */
bool admin_players_here(app *a, list_page pg, cJSON *arr, size_t *total);
/* admin_stats' fields, this node's figures, added to r. */
void admin_stats_here(app *a, cJSON *r);
/* Whether the player named `name` is connected here. */
bool admin_online_here(const app *a, const char *name);
/* Kicks the player named `name` if it is connected here (bye "kicked"
 * with reason, its seats here to the AI); false when it is not. by: the
 * admin, for the log. */
bool admin_kick_here(app *a, const char *by, const char *name, const char *reason);
/* admin_players_prune: deletes the players created older_than_ms ago who
 * never played, but this node's players and the `also` ids (the other
 * nodes'); the session waits (busy) for the store, whose answer goes to
 * s->req_id. False: the store refused (shutting down), nothing sent. */
bool admin_prune_start(session *s, int64_t older_than_ms, const int64_t *also, size_t n_also);
/* A listed item's "id" (0 when it has none). */
uint64_t admin_item_id(const cJSON *item);

/* On start: if the database has no admin yet, make player "admin" one and
 * print its token to stderr (once, ever). */
void admin_first_token(app *a);

/* `laird admin-token [NAME]`: opens the database at cfg->db_path on its own
 * loop, makes NAME (default "admin") an admin with a fresh token and prints
 * the token on stdout. Returns the process exit code (0 ok, 1 failure). */
int admin_token_command(const laird_config *cfg, const char *name);

#endif
