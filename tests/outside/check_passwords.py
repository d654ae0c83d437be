"""Private tables' passwords as PROTOCOL.md (§3, §6), proto/table.md (§1)
and deploy/README.md describe them: the password is asked of anyone but
the host and those already at the table, a wrong or missing one is
wrong_password (field "password") and changes nothing, the right one
opens the table; a flood of guesses gets wrong_password or busy, the
server keeps answering, and no more hashes run than /metrics' bound."""
from lairtest import ensure, http, Client, uname
from registry import check, attack


def private_table(ctx, password):
    h = ctx.client()
    t = h.req({"type": "table_create", "kind": "gems", "seats": 3, "private": True,
               "password": password})
    return h, t["table"]


@check
def private_table_asks_for_its_password(ctx):
    h, tid = private_table(ctx, "open sesame")
    listed = [t for t in ctx.client().req({"type": "table_list"})["tables"] if t["id"] == tid]
    ensure(listed and listed[0]["private"] is True, "the table is listed as private")
    g = ctx.client()
    for attempt in (None, "", "open sesamE", "open sesame "):
        msg = {"type": "table_join", "table": tid}
        if attempt is not None:
            msg["password"] = attempt
        e = g.err(msg)
        ensure(e["code"] == "wrong_password" and e.get("field") == "password",
               "join with %r: wrong_password (password), got %s" % (attempt, e))
        e = g.err(dict(msg, type="table_spectate"))
        ensure(e["code"] == "wrong_password", "watch with %r: wrong_password, got %s" % (attempt, e))
    snap = g.req({"type": "table_join", "table": tid, "password": "open sesame"})
    ensure(snap["type"] == "table" and snap["you"] is not None, "the right password seats: %s" % snap)
    # at the table already, or its host: not asked again
    ensure(g.req({"type": "table_join", "table": tid})["type"] == "table", "a seated player is not asked")
    ensure(h.req({"type": "table_join", "table": tid, "password": "nope"})["type"] == "table",
           "the host is not asked")
    w = ctx.client()
    ensure(w.req({"type": "table_spectate", "table": tid, "password": "open sesame"})["type"] == "table",
           "the right password lets a watcher in")


def gauge(port, name):
    st, _, body = http(port, path="/metrics")
    ensure(st == 200, "GET /metrics")
    for line in body.decode().splitlines():
        if line.split(" ")[0] == name:
            return float(line.split(" ")[1])
    raise AssertionError("no %s in /metrics" % name)


@attack
def guessing_flood(ctx):
    """Sixteen connections guess at once: each gets wrong_password or busy,
    a ping from another connection is answered, the hashes in flight stay
    within lair_password_checks_max, and the right password still works."""
    h, tid = private_table(ctx, "the real one")
    guessers = [ctx.client() for _ in range(16)]
    ids = [(c, c.send({"type": "table_join", "table": tid, "password": uname("guess")}))
           for c in guessers]
    other = ctx.client()
    ensure(other.req({"type": "ping"})["type"] == "pong", "the server answers during the flood")
    port = ctx.laird.port
    ensure(gauge(port, "lair_password_checks_in_flight") <= gauge(port, "lair_password_checks_max"),
           "hashes in flight within the bound")
    codes = [c.reply(i)["code"] for c, i in ids]
    ensure(set(codes) <= {"wrong_password", "busy"}, "wrong_password or busy, got %s" % codes)
    snap = guessers[0].req({"type": "table_join", "table": tid, "password": "the real one"})
    ensure(snap["type"] == "table" and snap["you"] is not None, "the right password after the flood")
    ensure(sum(s["kind"] == "human" for s in snap["seats"]) == 2, "no guess took a seat")
