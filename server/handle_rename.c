/*
 * handle_rename.c — `rename {name}` (PROTOCOL.md §4): a player who came
 * back with its token takes a new name, if no other player has it. A name
 * is fixed at the tables a player sits at or watches (their seats and
 * records carry it), so a player at a table is refused until it leaves.
 * The store decides who has a name (the session waits for it, busy).
 */
#include <inttypes.h>
#include <string.h>

#include "../common/log.h"
#include "../common/util.h"
#include "app_int.h"

static void rename_done(void *ud, int err, const store_player *sp)
{
	session *s = ud;
	s->req = NULL; /* the handle is dead once the callback runs */
	if (err == STORE_OK) {
		if (s->pl) {
			log_info("app", "player %lld renamed %s -> %s", (long long)s->pl->id,
				 s->pl->name, sp->name);
			strlcpy_safe(s->pl->name, sp->name, sizeof s->pl->name);
		}
		app_send(s, proto_new("ok", s->req_id));
	} else if (err == STORE_ERR_NAME_TAKEN) {
		app_error(s, s->req_id, PROTO_E_NAME_TAKEN, "name",
			  "another player has that name; you keep yours");
	} else {
		app_error(s, s->req_id, PROTO_E_INTERNAL, NULL, "the store failed (%s)",
			  store_strerror(err));
	}
	app_session_unbusy(s);
}

void handle_rename(session *s, proto_msg *m)
{
	player *p = s->pl;
	const char *name = m->u.rename.name;
	if (strcmp(p->name, name) == 0) {
		app_send(s, proto_new("ok", m->id));
		return;
	}
	if (p->n_tables > 0) {
		app_error(s, m->id, PROTO_E_WRONG_PHASE, "name",
			  "you are at table %" PRIu64 ": a name is fixed at a table; leave it "
			  "(table_leave) to rename", p->tables[0]);
		return;
	}
	s->req = store_player_rename(s->app->store, p->id, name, rename_done, s);
	if (!s->req) {
		app_error(s, m->id, PROTO_E_DRAINING, NULL, "the server is shutting down");
		return;
	}
	s->req_id = m->id ? cJSON_Duplicate(m->id, true) : NULL;
	s->busy = true;
}
