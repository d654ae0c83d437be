/*
 * session.h — identity: one session per connection, `hello` (a new name
 * creates a player and returns its secret token, stored only as a hash; a
 * token resumes the player: its seats back, missed updates or snapshots),
 * and the registry of player records the tables address by id.
 *
 * Memory: sessions and players are the app's (app_int.h). A player record
 * stays while it is connected or a member of some table; player_release()
 * frees it once neither holds.
 */
#ifndef LAIR_SESSION_H
#define LAIR_SESSION_H

#include "app_int.h"

session *session_new(app *a, conn *c);
/* The connection closed: the player (if any) goes away from its lobby and
 * its tables see it disconnected. Frees s. */
void session_free(session *s);

/* The player of this id if it has a record (online or seated), else NULL. */
player *player_find(app *a, int64_t id);
/* Adds/removes a table to the player's memberships. */
void player_add_table(player *p, uint64_t table_no);
void player_remove_table(app *a, player *p, uint64_t table_no);
/* Frees the record if the player is neither connected nor at a table. */
void player_release(app *a, player *p);
/* A record for a player known only from a restored table (offline). */
player *player_offline(app *a, int64_t id, const char *name);

void handle_hello(session *s, proto_msg *m);

/* The player connected again elsewhere: its old session is told (bye
 * "replaced"), forgets the player, drops what it had queued and closes. */
void session_replaced(session *old);
void handle_ping(session *s, proto_msg *m);

#endif
