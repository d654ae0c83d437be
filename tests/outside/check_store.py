"""A table pauses when the store fails (proto/table.md §5.2a, §5.6a, §7
"Paused for the store"): `paused`, `resumed`, `start_failed`. The store is
made to fail from the outside as an operator's tool would: another process
holds the database's write lock (SQLite's BEGIN EXCLUSIVE) until laird's
write gives up. Then what a player or a watcher may try meanwhile."""
import sqlite3
import time

from lairtest import ensure
from registry import check, attack

SEEN = {}  # what the long check saw, for the attacks on the same run


@check
def pause_resume_and_start_failed(ctx):
    ld = ctx.new_laird("--window-ms", "0", "--reveal-pause-ms", "0", "--rate-msgs-per-sec", "1000",
                       "--rate-burst", "2000")
    alice, bob, carol, dave = (ctx.client(ld) for _ in range(4))
    ta = alice.req({"type": "table_create", "kind": "gems", "seats": 2, "ai": 1, "start": True})["table"]
    tb = bob.req({"type": "table_create", "kind": "gems", "seats": 2, "ai": 1})["table"]
    carol.req({"type": "table_spectate", "table": ta})
    o = alice.wait(lambda m: m["type"] == "options" and m.get("table") == ta and "options" in m)
    choice = o["options"][0]["id"]

    db = sqlite3.connect(ld.db, timeout=5, isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")
    try:
        alice.req({"type": "choose", "table": ta, "decision": o["decision"], "choice": choice})
        bob.req({"type": "table_start", "table": tb})
        SEEN["second_start"] = bob.reply(bob.send({"type": "table_start", "table": tb}))
        p = alice.wait(lambda m: m["type"] in ("paused", "reveal") and m.get("table") == ta, timeout=30)
        ensure(p["type"] == "paused" and p["decision"] == o["decision"] and p["reason"] == "store",
               "the table pauses for the store: %s" % p)
        cp = carol.wait(lambda m: m["type"] in ("paused", "reveal") and m.get("table") == ta, timeout=30)
        ensure(cp["type"] == "paused", "everyone at the table gets paused")
        # during the pause: nothing moves, and late comers see why
        ensure(alice.err({"type": "choose", "table": ta, "choice": choice})["code"] == "not_pending",
               "choose during a pause: not_pending")
        snap = dave.req({"type": "table_spectate", "table": ta})
        ensure(snap["game"].get("paused", {}).get("reason") == "store", "a snapshot carries game.paused")
        alice.req({"type": "table_sync", "table": ta, "since": 0})
        s2 = alice.wait(lambda m: m["type"] == "table" and m.get("table") == ta)
        ensure(s2["game"]["paused"]["reason"] == "store" and s2["game"]["phase"] == "revealing",
               "the seat's snapshot: paused, choices fixed: %s" % s2["game"])
        sf = bob.wait(lambda m: m["type"] in ("start_failed", "start") and m.get("table") == tb, timeout=30)
        ensure(sf["type"] == "start_failed" and sf["reason"] == "store", "the start could not be stored: %s" % sf)
        ensure(not any(m["type"] == "start" and m.get("table") == tb for m in bob.log), "nothing of it was shown")
    finally:
        db.execute("COMMIT")
        db.close()
    r = alice.wait(lambda m: m["type"] in ("resumed", "reveal") and m.get("table") == ta, timeout=30)
    ensure(r["type"] == "resumed" and r["decision"] == o["decision"], "resumed first")
    nxt = alice.inbox[0] if alice.inbox else alice.wait(lambda m: m.get("table") == ta)
    ensure(nxt["type"] == "reveal" and nxt["seq"] == r["seq"] + 1, "the reveal follows at once")
    tbl = bob.req({"type": "table_sync", "table": tb, "since": 0})
    snap = bob.wait(lambda m: m["type"] == "table" and m.get("table") == tb)
    ensure(snap["state"] == "waiting" and snap["game"] is None, "after start_failed the table still waits")
    bob.req({"type": "table_start", "table": tb})
    bob.wait(lambda m: m["type"] == "start" and m.get("table") == tb, timeout=30)
    del tbl


@attack
def second_start_while_storing(ctx):
    """table.md §7: "a second table_start while the start is being written
    gets wrong_phase". Seen in pause_resume_and_start_failed: the store
    held the first start for seconds."""
    r = SEEN.get("second_start")
    ensure(r is not None, "the store check ran first")
    ensure(r["type"] == "error" and r["code"] == "wrong_phase",
           "a second table_start while the first is being written: %s" % r)
