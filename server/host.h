/*
 * host.h — the app's side of every table: the callbacks table.h asks of
 * its host (table_host), wired to the players' connections, the lobby
 * lists, the shared states (shared.h), the live record (live.h) and the
 * writes a table waits for (durable.h).
 */
#ifndef LAIR_HOST_H
#define LAIR_HOST_H

#include "app_int.h"

/* The callbacks for a table of this app (table_new, table_restore). */
table_host host_callbacks(app *a);

#endif
