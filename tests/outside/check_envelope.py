"""The envelope and hello (PROTOCOL.md §1-§4), the ground every other check
stands on: a session as §11 shows it, and the errors a broken client gets."""
from lairtest import Client, ensure, uname
from registry import check, attack


@check
def hello_welcome_ping(ctx):
    c = Client(ctx.laird)
    ensure(c.req({"type": "ping"})["type"] == "pong", "ping before hello answers pong")
    w = c.hello(name=uname())
    ensure(w["protocol"] == 1 and len(w["token"]) == 64, "welcome with a 64-hex token")
    ensure(w["player"]["admin"] is False and w["lobby"] is None and w["tables"] == [], "a fresh player")
    ensure(w["limits"]["max_frame_bytes"] == 16384, "the default frame limit is announced")
    # a string id is echoed as it is
    r = c.reply(c.send({"type": "ping", "id": "x-1"}))
    ensure(r["id"] == "x-1" and r["type"] == "pong", "a string id echoes")
    c.close()


@attack
def broken_requests(ctx):
    c = ctx.client()
    c.ws.send_text('{"type":"ping","id":7')
    ensure(c.wait(lambda m: m["type"] == "error")["code"] == "bad_json", "bad_json")
    ensure(c.err({"type": "fly"})["code"] == "unknown_type", "unknown type")
    e = c.err({"type": "table_join", "table": "seven"})
    ensure(e["code"] == "bad_field" and e["field"] == "table", "a table id as a string: bad_field table")
    e = c.err({"type": "hello", "protocol": 1, "name": "x"})
    ensure(e["code"] == "already_hello", "second hello")
    ensure(c.req({"type": "ping"})["type"] == "pong", "the connection stays open after errors")


@attack
def nul_in_strings(ctx):
    """PROTOCOL.md §2: a string holding U+0000 refuses the message whole
    (it was read up to the NUL: the name "zz\u0000yy" made player "zz", a
    password "pw\u0000x" was set as "pw")."""
    c = Client(ctx.laird)
    name = uname("Nul")
    e = c.err({"type": "hello", "protocol": 1, "name": name + "\u0000tail"})
    ensure(e["code"] == "bad_json", "a NUL in a name: bad_json, got %s" % e)
    ensure(c.err({"type": "stats", "player": name})["code"] == "not_found", "no player was made")
    c.hello(name=name)
    for msg in ({"type": "table_create", "kind": "gems", "seats": 2, "private": True, "password": "pw\u0000x"},
                {"type": "table_create", "kind": "gems\u0000", "seats": 2},
                {"type": "rename", "name": "a\u0000"}, {"type": "ping\u0000"},
                {"type": "ping", "x\u0000": 1}):
        e = c.err(msg)
        ensure(e["code"] == "bad_json", "%s: bad_json, got %s" % (msg, e["code"]))
    ensure(c.req({"type": "ping", "note": "\\u0000 is text here"})["type"] == "pong",
           "an escaped backslash before u0000 is plain text")


@attack
def oversized_and_fragmented(ctx):
    """§1: a message over max_frame_bytes (16384) closes with 1009, also
    when it comes in fragments; one at the limit is read."""
    from lairtest import WS
    c = ctx.client()
    pad = 16384 - len('{"type":"ping","id":1,"x":""}')
    c.ws.send_text('{"type":"ping","id":1,"x":"%s"}' % ("a" * pad))
    ensure(c.reply(1)["type"] == "pong", "a message of exactly the limit is read")
    big = '{"type":"ping","x":"%s"}' % ("a" * 16400)
    half = len(big) // 2
    c.ws.send_raw(WS.frame(1, big[:half].encode(), fin=False) + WS.frame(0, big[half:].encode()))
    code, reason = c.ws.wait_closed()
    ensure(code == 1009 and "16384" in reason, "fragments over the limit: 1009, got %s %r" % (code, reason))
    d = ctx.client()
    d.ws.send_raw(WS.frame(1, b'{"type":"ping"}', mask=False))
    ensure(d.ws.wait_closed()[0] == 1002, "an unmasked frame: 1002")
    e = ctx.client()
    e.ws.send_raw(WS.frame(2, b'{"type":"ping"}'))
    ensure(e.ws.wait_closed()[0] == 1003, "a binary frame: 1003")
    f = ctx.client()
    f.ws.send_raw(WS.frame(1, b'{"type":"ping","x":"\xff"}'))
    ensure(f.ws.wait_closed()[0] == 1007, "invalid UTF-8: 1007")
