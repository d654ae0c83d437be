/*
 * admin.h — administration over the protocol (PROTOCOL.md §9): lobbies, tables,
 * online players, kicks and server statistics for players whose token
 * carries the admin role; and the making of admin tokens (laird's first
 * start, `laird admin-token`), printed once and stored only as a hash.
 */
#ifndef LAIR_ADMIN_H
#define LAIR_ADMIN_H

#include "app_int.h"

void handle_admin_lobby_create(session *s, proto_msg *m);
void handle_admin_lobby_close(session *s, proto_msg *m);
void handle_admin_tables(session *s, proto_msg *m);
void handle_admin_table_close(session *s, proto_msg *m);
void handle_admin_players(session *s, proto_msg *m);
void handle_admin_kick(session *s, proto_msg *m);
void handle_admin_players_prune(session *s, proto_msg *m);
void handle_admin_stats(session *s, proto_msg *m);

/* On start: if the database has no admin yet, make player "admin" one and
 * print its token to stderr (once, ever). */
void admin_first_token(app *a);

/* `laird admin-token [NAME]`: opens the database at cfg->db_path on its own
 * loop, makes NAME (default "admin") an admin with a fresh token and prints
 * the token on stdout. Returns the process exit code (0 ok, 1 failure). */
int admin_token_command(const laird_config *cfg, const char *name);

#endif
