/*
 * lobby.h — lobbies: chat, membership, the table list and its live updates
 * (PROTOCOL.md §5). Lobbies and their chat live in memory only.
 */
#ifndef LAIR_LOBBY_H
#define LAIR_LOBBY_H

#include "app_int.h"

lobby *lobby_new(app *a, const char *name);
lobby *lobby_find(app *a, uint64_t id);
/* The lobby the request names (m->u.lobby.lobby), or NULL after replying
 * not_found. */
lobby *lobby_named(session *s, proto_msg *m);
void lobby_free(lobby *l);
/* Removes the player from its lobby (presence update to the rest). */
void lobby_leave_player(app *a, player *p);
void lobby_add_table(app *a, lobby *l, app_table *at);
void lobby_remove_table(app *a, app_table *at);
/* table_update to the table's lobby members. */
void lobby_table_changed(app *a, app_table *at);
/* Closes a lobby (admin): members out, tables closed. Not the default. */
void lobby_close(app *a, lobby *l);

/* Cluster mode (cluster.c): a lobby another node made, with its id; a
 * message to every member here; another node's table id listed or not; a
 * chat line from the bus, kept and shown. */
lobby *lobby_new_with_id(app *a, uint64_t id, const char *name);
void lobby_broadcast(lobby *l, const cJSON *msg);
/* An update for l's members: {"type": type, "lobby": l's id}; the caller
 * adds its fields and hands it to lobby_tell. */
cJSON *lobby_update_new(const lobby *l, const char *type);
/* Sends update u to every member of l here but `except` (NULL: all of
 * them), then frees it. */
void lobby_tell(lobby *l, cJSON *u, const player *except);
void lobby_table_id_add(lobby *l, uint64_t id);
void lobby_table_id_remove(lobby *l, uint64_t id);
void lobby_chat_show(lobby *l, const char *from, const char *text, int64_t at);
cJSON *lobby_summary_json(const lobby *l);

/* Listings (PROTOCOL.md §5): every list reply is one page of a list sorted
 * by id — the items after the request's cursor, at most its limit — with
 * the list's total and the cursor of the next page (null on the last). */
typedef struct list_page {
	uint64_t after;  /* the cursor: items with a greater id */
	size_t limit;
} list_page;
list_page list_page_of(const proto_msg *m);
/* The `lobbies` reply: a page of every lobby (lobby_list, admin_lobbies). */
cJSON *lobby_list_json(app *a, list_page pg, const cJSON *id);
/* Adds "total" and "next" (last_id when more follow it, else null). */
void list_page_end(cJSON *reply, size_t total, bool more, uint64_t last_id);
/* Appends a page of l's tables (summaries) to arr; true when more follow
 * *last_id (the last one appended). */
bool lobby_tables_page(app *a, const lobby *l, list_page pg, cJSON *arr, uint64_t *last_id);

void handle_lobby_list(session *s, proto_msg *m);
void handle_lobby_join(session *s, proto_msg *m);
void handle_lobby_leave(session *s, proto_msg *m);
void handle_chat(session *s, proto_msg *m);
void handle_table_list(session *s, proto_msg *m);

/* The `lobby` reply: summary, members, a page of tables, recent chat. */
cJSON *lobby_reply_json(app *a, const lobby *l, list_page pg, const cJSON *id);

#endif
