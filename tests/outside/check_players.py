"""rename (PROTOCOL.md §4), paged listings (§5 "Listings", §9) and the
per-address limits on new players and tables (§4, §5; laird --help)."""
import json

from lairtest import ensure, Client, uname
from registry import check, attack


@check
def rename_as_documented(ctx):
    a = ctx.client()
    old = a.player["name"]
    new = uname("R")
    ensure(a.req({"type": "rename", "name": new})["type"] == "ok", "rename: ok")
    ensure(a.req({"type": "rename", "name": new})["type"] == "ok", "ok also when the name is already yours")
    ensure(a.req({"type": "rename", "name": new.lower()})["type"] == "ok", "you may change the case of your own")
    st = a.req({"type": "stats", "player": new.lower()})
    ensure(st["player"].lower() == new.lower(), "stats under the new name")
    ensure(a.err({"type": "stats", "player": old})["code"] == "not_found", "the old name is nobody's")
    b = Client(ctx.laird)
    w = b.hello(token=a.token)
    ensure(w["player"]["name"] == new.lower() and w["player"]["id"] == a.player["id"], "the token stays yours")
    c = ctx.client(name=old)
    ensure(c.player["name"] == old, "the old name is free for a new player")


@attack
def rename_abused(ctx):
    a, b = ctx.client(), ctx.client()
    e = a.err({"type": "rename", "name": b.player["name"].upper()})
    ensure(e["code"] == "name_taken" and e["field"] == "name", "another's name in another case: name_taken")
    for bad in ["", " ", "a b", "_x", "-x", ".x", "x" * 25, "é", "a\u202eb", 5, None, ["x"],
                "admin\n", "x/y"]:
        e = a.err({"type": "rename", "name": bad})
        ensure(e["code"] in ("bad_field", "missing_field") and e.get("field") == "name",
               "rename to %r: %s" % (bad, e["code"]))
    ensure(a.err({"type": "rename", "name": "admin"})["code"] == "name_taken", "the admin's name is taken")
    anon = Client(ctx.laird)
    ensure(anon.err({"type": "rename", "name": uname()})["code"] == "not_hello", "before hello: not_hello")
    t = a.req({"type": "table_create", "kind": "gems", "seats": 2})["table"]
    e = a.err({"type": "rename", "name": uname()})
    ensure(e["code"] == "wrong_phase" and e["field"] == "name", "while at a table: wrong_phase")
    b.req({"type": "table_spectate", "table": t})
    ensure(b.err({"type": "rename", "name": uname()})["code"] == "wrong_phase", "while watching: wrong_phase")
    a.req({"type": "table_leave", "table": t})
    b.req({"type": "table_leave", "table": t})
    ensure(b.req({"type": "rename", "name": uname()})["type"] == "ok", "free again after leaving")


@attack
def rename_races(ctx):
    """Many players race for one name (renames and a new player's hello):
    exactly one gets it, every other is told name_taken."""
    players = [ctx.client() for _ in range(6)]
    target = uname("Race")
    newcomer = Client(ctx.laird)
    ids = []
    for p in players:
        ids.append(p.send({"type": "rename", "name": target.swapcase() if len(ids) % 2 else target}))
    hid = newcomer.send({"type": "hello", "protocol": 1, "name": target})
    replies = [p.reply(i) for p, i in zip(players, ids)]
    results = [r["type"] == "ok" or r.get("code") for r in replies]
    h = newcomer.reply(hid)
    outcomes = results + [h["type"] == "welcome" or h.get("code")]
    ensure(outcomes.count(True) == 1, "exactly one gets the name: %s" % outcomes)
    ensure(all(o is True or o == "name_taken" for o in outcomes), "the others: name_taken: %s" % outcomes)
    owner = ctx.client(name=False)
    st = owner.req({"type": "stats", "player": target})
    ensure(st["player"].lower() == target.lower(), "the name has one owner")
    # the same player renaming from two connections at once
    x = ctx.client()
    y = Client(ctx.laird)
    y.hello(token=x.token)  # replaces x
    code, _ = x.ws.wait_closed()
    ensure(code in (1000, 1008, 4000) or code >= 1000, "the replaced connection is closed")


@check
def paging_as_documented(ctx):
    ld = ctx.laird
    adm = ctx.admin()
    lob = adm.req({"type": "admin_lobby_create", "name": "paging " + uname()})["lobby"]["id"]
    host = ctx.client()
    made = [host.req({"type": "table_create", "kind": "gems", "seats": 2, "lobby": lob,
                      "name": "t%d" % i})["table"] for i in range(7)]
    seen, cursor, pages = [], None, 0
    while True:
        req = {"type": "table_list", "lobby": lob, "limit": 3}
        if cursor is not None:
            req["cursor"] = cursor
        r = host.req(req)
        pages += 1
        ensure(r["total"] == 7 and len(r["tables"]) <= 3, "a page of at most 3, total 7")
        seen += [t["id"] for t in r["tables"]]
        cursor = r["next"]
        if cursor is None:
            break
        ensure(pages < 10, "the walk ends")
    ensure(seen == sorted(made) and pages == 3, "every table once, in id order, in 3 pages: %s" % seen)
    full = host.req({"type": "table_list", "lobby": lob})
    ensure(len(full["tables"]) == 7 and full["next"] is None, "no limit: the first 100")
    j = host.req({"type": "lobby_join", "lobby": lob, "limit": 2})
    ensure([t["id"] for t in j["tables"]] == sorted(made)[:2] and j["next"] is not None, "lobby_join pages its tables")
    ll = host.req({"type": "lobby_list", "limit": 1})
    ensure(len(ll["lobbies"]) == 1 and ll["total"] >= 2 and ll["next"] is not None, "lobby_list pages")
    at = adm.req({"type": "admin_tables", "lobby": lob, "limit": 5})
    ensure(len(at["tables"]) == 5 and at["total"] == 7, "admin_tables pages")
    ap = adm.req({"type": "admin_players", "limit": 1})
    ensure(len(ap["players"]) == 1 and ap["total"] >= 2, "admin_players pages")
    # a walk with an item removed meanwhile: nothing twice, the rest all there
    r1 = host.req({"type": "table_list", "lobby": lob, "limit": 3})
    host.req({"type": "table_close", "table": r1["tables"][-1]["id"]})
    host.req({"type": "table_close", "table": sorted(made)[3]})
    r2 = host.req({"type": "table_list", "lobby": lob, "limit": 3, "cursor": r1["next"]})
    ids2 = [t["id"] for t in r2["tables"]]
    ensure(sorted(made)[3] not in ids2 and not set(ids2) & {t["id"] for t in r1["tables"]},
           "a stale cursor continues after it, never repeating")
    ensure(r2["total"] == 5, "total counts what is left")


@attack
def paging_abused(ctx):
    c = ctx.client()
    for bad in (0, -1, 501, 10 ** 12, "5", 1.5, None, True, [3]):
        e = c.err({"type": "lobby_list", "limit": bad})
        ensure(e["code"] == "bad_field" and e["field"] == "limit", "limit %r: bad_field limit, got %s" % (bad, e))
    for bad in (-1, "abc", "10", 1.5, None, [1], {"id": 1}, -(2 ** 63)):
        e = c.err({"type": "table_list", "cursor": bad})
        ensure(e["code"] == "bad_field" and e["field"] == "cursor", "cursor %r: bad_field cursor, got %s" % (bad, e))
    for far in (2 ** 53 - 1, 10 ** 15):
        r = c.req({"type": "table_list", "cursor": far})
        ensure(r["tables"] == [] and r["next"] is None, "a cursor past the end: an empty last page")
    adm_only = c.err({"type": "admin_tables", "limit": 1, "cursor": 0})
    ensure(adm_only["code"] == "forbidden", "admin lists stay admin-only")
    # a page never leaks a private table's password, whatever the cursor
    h = ctx.client()
    t = h.req({"type": "table_create", "kind": "gems", "seats": 2, "private": True, "password": "hunter2-secret"})
    r = c.req({"type": "table_list", "cursor": t["table"] - 1, "limit": 1})
    ensure(r["tables"] and r["tables"][0]["private"] is True and "hunter2" not in json.dumps(r),
           "a private table is listed without its password")


@attack
def creation_limits_per_address(ctx):
    ld = ctx.new_laird("--new-players-per-ip-hour", "3", "--new-tables-per-ip-min", "2",
                       "--max-tables-per-player", "10")
    made = []
    for i in range(3):
        c = Client(ld)
        c.hello(name=uname())
        made.append(c)
    c = Client(ld)
    e = c.err({"type": "hello", "protocol": 1, "name": uname()})
    ensure(e["code"] == "limit_reached" and e["field"] == "name", "the 4th new player: limit_reached (name)")
    # a forged X-Forwarded-For does not help when laird is not behind a proxy
    f = Client(ld, headers={"X-Forwarded-For": "203.0.113.%d" % 7})
    e = f.err({"type": "hello", "protocol": 1, "name": uname()})
    ensure(e["code"] == "limit_reached", "X-Forwarded-For is ignored without --trust-proxy")
    ensure(Client(ld).hello(token=made[0].token)["player"]["id"], "a returning player is not counted")
    p = made[1]
    for i in range(2):
        p.req({"type": "table_create", "kind": "gems", "seats": 2})
    e = p.err({"type": "table_create", "kind": "gems", "seats": 2})
    ensure(e["code"] == "limit_reached", "the 3rd table in a minute from one address: limit_reached")
    e = made[2].err({"type": "table_create", "kind": "gems", "seats": 2})
    ensure(e["code"] == "limit_reached", "another player of the same address shares the limit")
    adm = ctx.admin(ld)
    adm.req({"type": "table_create", "kind": "gems", "seats": 2})
    adm.req({"type": "table_create", "kind": "gems", "seats": 2})
    adm.req({"type": "table_create", "kind": "gems", "seats": 2})
