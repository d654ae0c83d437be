/*
 * quarantine.h — tables kept aside at restore. A table in play comes back
 * after a restart by replaying its stored decisions through its kind; when
 * the store holds something that cannot be replayed exactly (a decision
 * missing from the log, a damaged row, a decision the kind refuses, an
 * unknown kind), the table is neither replayed shifted nor deleted: the
 * store keeps it aside with the reason, laird logs it, and an admin lists,
 * inspects and drops such tables (PROTOCOL.md §9: admin_quarantined,
 * admin_quarantined_drop; `lair admin tables quarantined|drop-quarantined`).
 */
#ifndef LAIR_QUARANTINE_H
#define LAIR_QUARANTINE_H

#include "app_int.h"

/* The stored decision log of lt as a flat array of n_decisions sets of
 * `seats` choices (malloc'd, *log; NULL when there are none), or -1 with
 * the reason in why[len] when it is not whole: seqs must run 1, 2, ...,
 * n_decisions, and each set must be an array of `seats` integer choices
 * (>= -1). */
int quarantine_read_log(const store_live_table *lt, int seats, game_choice **log, char *why,
			size_t len);

/* Keeps lt aside in the store and logs why (an error line naming the admin
 * commands). Its table id stays taken. */
void quarantine_table(app *a, const store_live_table *lt, const char *why);

/* At start-up: a table kept aside by an earlier run stays so (logged; its
 * id stays taken). */
void quarantine_still(app *a, const store_live_table *lt);

void handle_admin_quarantined(session *s, proto_msg *m);
void handle_admin_quarantined_drop(session *s, proto_msg *m);

#endif
