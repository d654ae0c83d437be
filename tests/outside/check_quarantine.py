"""Tables kept aside at a restart (proto/table.md §7 "Kept aside",
PROTOCOL.md §9 admin_quarantined, admin_quarantined_drop). A stored game
is damaged the way a bad disk or a hand edit would: a decision row of its
log is deleted from the database while laird is down (the operator can
see the tables with sqlite3's .schema)."""
import sqlite3

from lairtest import ensure, Client
from registry import check, attack



def play(c, tid, n):
    """Answers the first option of n decisions of a gems table."""
    for _ in range(n):
        o = c.wait(lambda m: m["type"] == "options" and m.get("table") == tid and "options" in m)
        c.req({"type": "choose", "table": tid, "decision": o["decision"], "choice": o["options"][0]["id"]})
        c.wait(lambda m: m["type"] == "reveal" and m.get("table") == tid and m["decision"] == o["decision"])


@check
def kept_aside_then_dropped(ctx):
    flags = ("--window-ms", "0", "--reveal-pause-ms", "0")
    ld = ctx.new_laird(*flags)
    alice, bob = ctx.client(ld), ctx.client(ld)
    t1 = alice.req({"type": "table_create", "kind": "gems", "seats": 2, "ai": 1, "start": True})["table"]
    t2 = bob.req({"type": "table_create", "kind": "gems", "seats": 2, "ai": 1, "start": True})["table"]
    play(alice, t1, 3)
    play(bob, t2, 1)
    last2 = max(m["seq"] for m in bob.log if m.get("table") == t2 and "seq" in m)
    alice.close()
    bob.close()
    ld.kill9()
    db = sqlite3.connect(ld.db, isolation_level=None)
    n = db.execute("DELETE FROM live_decisions WHERE table_id = ? AND seq = (SELECT MIN(seq) FROM "
                   "live_decisions WHERE table_id = ?)", (t1, t1)).rowcount
    db.close()
    ensure(n == 1, "a decision row of table %d deleted" % t1)
    ld.start()
    ensure("table %d" % t1 in ld.stderr() or "table_id %d" % t1 in ld.stderr(),
           "laird logs an error naming the table")

    adm = ctx.admin(ld)
    q = adm.req({"type": "admin_quarantined"})
    ids = [t["table"] for t in q["tables"]]
    ensure(ids == [t1] and q["more"] is False, "the damaged table alone is kept aside: %s" % q)
    entry = q["tables"][0]
    ensure(entry["kind"] == "gems" and entry["reason"], "its kind and the reason")
    full = adm.req({"type": "admin_quarantined", "table": t1})
    ensure(full["tables"][0]["table"] == t1 and "log" in full["tables"][0] and "seed" in full["tables"][0],
           "one table in full: seed, log…")
    seqs = [r["seq"] for r in full["tables"][0]["log"]]
    ensure(seqs and seqs[0] == 2 and seqs == list(range(2, 2 + len(seqs))), "the log as stored, the gap shown")
    ensure("decision 1" in entry["reason"], "the reason names the missing decision: %r" % entry["reason"])

    # its players get no seat back; the healthy table comes back
    a2 = Client(ld)
    w = a2.hello(token=alice.token, resume={str(t1): 1})
    ensure(all(t["table"] != t1 for t in w["tables"]), "no seat back at the quarantined table")
    ensure(a2.err({"type": "table_join", "table": t1})["code"] == "not_found", "it cannot be joined")
    ensure(a2.err({"type": "table_spectate", "table": t1})["code"] == "not_found", "nor watched")
    b2 = Client(ld)
    w = b2.hello(token=bob.token, resume={str(t2): last2})
    ensure([t["table"] for t in w["tables"]] == [t2], "the healthy table is back")
    snap = b2.wait(lambda m: m["type"] == "table" and m.get("table") == t2)
    # table.md §2: it comes back 1,000 above the seq laird stored, which is
    # at most 500 updates behind what it sent (an update sent after the
    # last store, e.g. a status folded at the end of a loop turn, is not in
    # it), so more than 500 above the last seq bob saw — and more above it
    # when the table sent more (to no one) after bob left.
    ensure(snap["seq"] > last2 + 500,
           "seq jumps by about a thousand after a restart: %d after %d" % (snap["seq"], last2))
    # its id stays taken
    t3 = a2.req({"type": "table_create", "kind": "gems", "seats": 1})["table"]
    ensure(t3 not in (t1, t2), "a new table gets a new id, not the one kept aside")

    ensure(adm.req({"type": "admin_quarantined_drop", "table": t1})["type"] == "ok", "dropped")
    ensure(adm.req({"type": "admin_quarantined"})["tables"] == [], "nothing kept aside any more")
    ensure(adm.err({"type": "admin_quarantined_drop", "table": t1})["code"] == "not_found", "a second drop: not_found")
    ld.stop()
    ld.start()
    adm2 = ctx.admin(ld)
    ensure(adm2.req({"type": "admin_quarantined"})["tables"] == [], "dropped for good, across a restart")
    db = sqlite3.connect(ld.db, isolation_level=None)
    left = db.execute("SELECT COUNT(*) FROM live_decisions WHERE table_id = ?", (t1,)).fetchone()[0]
    db.close()
    ensure(left == 0, "its stored decisions are deleted")


@attack
def quarantine_requests_abused(ctx):
    """Non-admins, tables in play, forged ids. Uses a fresh laird with one
    table in play (no damage needed: refusals are the point)."""
    ld = ctx.new_laird("--window-ms", "0", "--reveal-pause-ms", "0")
    p = ctx.client(ld)
    tid = p.req({"type": "table_create", "kind": "gems", "seats": 2, "ai": 1, "start": True})["table"]
    for req in ({"type": "admin_quarantined"}, {"type": "admin_quarantined", "table": tid},
                {"type": "admin_quarantined_drop", "table": tid}):
        ensure(p.err(req)["code"] == "forbidden", "%s by a player: forbidden" % req["type"])
    adm = ctx.admin(ld)
    ensure(adm.err({"type": "admin_quarantined_drop", "table": tid})["code"] == "not_found",
           "a table in play is never dropped")
    ensure(adm.err({"type": "admin_quarantined", "table": tid})["code"] == "not_found",
           "a table in play is not kept aside")
    for bad in (0, -1, "1", 1.5, None, [1], {"t": 1}, 2 ** 53, 2 ** 64, True):
        e = adm.err({"type": "admin_quarantined_drop", "table": bad})
        ensure(e["code"] in ("bad_field", "not_found"), "table %r: %s" % (bad, e["code"]))
        if e["code"] == "bad_field":
            ensure(e["field"] == "table", "field table")
    ensure(adm.err({"type": "admin_quarantined_drop"})["code"] == "missing_field", "no table: missing_field")
    # the table in play was not touched
    o = p.wait(lambda m: m["type"] == "options" and m.get("table") == tid and "options" in m)
    p.req({"type": "choose", "table": tid, "decision": o["decision"], "choice": o["options"][0]["id"]})
    p.wait(lambda m: m["type"] == "reveal" and m.get("table") == tid)
