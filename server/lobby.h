/*
 * lobby.h — lobbies: chat, membership, the table list and its live updates
 * (PROTOCOL.md §5). Lobbies and their chat live in memory only.
 */
#ifndef LAIR_LOBBY_H
#define LAIR_LOBBY_H

#include "app_int.h"

lobby *lobby_new(app *a, const char *name);
lobby *lobby_find(app *a, uint64_t id);
void lobby_free(lobby *l);
/* Removes the player from its lobby (presence update to the rest). */
void lobby_leave_player(app *a, player *p);
void lobby_add_table(app *a, lobby *l, app_table *at);
void lobby_remove_table(app *a, app_table *at);
/* table_update to the table's lobby members. */
void lobby_table_changed(app *a, app_table *at);
/* Closes a lobby (admin): members out, tables closed. Not the default. */
void lobby_close(app *a, lobby *l);
cJSON *lobby_summary_json(const lobby *l);
cJSON *lobby_tables_json(app *a, const lobby *l, bool include_private);

void handle_lobby_list(session *s, proto_msg *m);
void handle_lobby_join(session *s, proto_msg *m);
void handle_lobby_leave(session *s, proto_msg *m);
void handle_chat(session *s, proto_msg *m);
void handle_table_list(session *s, proto_msg *m);

/* The `lobby` reply: summary, members, tables, recent chat. */
cJSON *lobby_reply_json(app *a, const lobby *l, const cJSON *id);

#endif
