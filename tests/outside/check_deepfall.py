"""deepfall's turn in steps (proto/kinds/deepfall.md "Shape of a game",
docs/rules/deepfall.md DF30-DF33): press or act, one decision a step; what
the other seats and a spectator see before the reveal; the choices a
hostile seat would send."""
import json

from lairtest import ensure
from registry import check, attack


def two_humans(ctx, config=None):
    """alice (seat 0) hosts, bob (seat 1) joins, carol watches; started."""
    alice, bob, carol = ctx.client(), ctx.client(), ctx.client()
    t = alice.req({"type": "table_create", "kind": "deepfall", "seats": 2, "config": config or {}})
    tid = t["table"]
    ensure(bob.req({"type": "table_join", "table": tid})["you"] == 1, "bob in seat 1")
    carol.req({"type": "table_spectate", "table": tid})
    alice.req({"type": "table_start", "table": tid})
    return alice, bob, carol, tid


def opts(c, tid, decision=None):
    return c.wait(lambda m: m["type"] == "options" and m.get("table") == tid and "options" in m
                  and (decision is None or m["decision"] == decision), what="options")


def reveal(c, tid, decision):
    return c.wait(lambda m: m["type"] == "reveal" and m.get("table") == tid and m["decision"] == decision,
                  what="reveal %d" % decision)


@check
def press_then_act(ctx):
    alice, bob, carol, tid = two_humans(ctx)
    oa, ob = opts(alice, tid, 1), opts(bob, tid, 1)
    for o, seat in ((oa, 0), (ob, 1)):
        ensure(o["seat"] == seat and o["pending"] == [0, 1], "decision 1 asks both seats")
        form = o["options"]
        ensure(len(form) == 1 and form[0]["hands"] == 1, "one form, after the opening hand")
        f = form[0]
        ensure(f["target"]["min"] == 1 and f["target"]["max"] == 6 and "persist" in f["exit"]
               and "cash_out" in f["exit"], "the form as documented: %s" % f)
    ensure(oa["options"][0]["press"] is True, "a press is offered at the first step")
    # alice presses; bob acts. Neither learns the other's choice before the reveal.
    alice.req({"type": "choose", "table": tid, "decision": 1, "choice": {"press": True}})
    act = {"target": 1, "recruit": False, "exit": "persist"}
    bob.req({"type": "choose", "table": tid, "decision": 1, "choice": act})
    ra, rb, rc = reveal(alice, tid, 1), reveal(bob, tid, 1), reveal(carol, tid, 1)
    for who, c, own in (("bob", bob, act), ("carol", carol, None), ("alice", alice, {"press": True})):
        for m in c.log:
            if m.get("table") == tid and m["type"] in ("status", "window", "options") and m.get("decision") == 1:
                if own is None:
                    ensure("choice" not in m, "%s saw a choice before the reveal: %s" % (who, m))
                elif "choice" in m:
                    ensure(m["choice"] == own, "%s saw a choice not its own: %s" % (who, m))
    ensure(ra["events"] == rb["events"] == rc["events"], "every event is public, the same for all")
    ensure(sorted((c["seat"], json.dumps(c["choice"], sort_keys=True)) for c in ra["choices"]) ==
           [(0, json.dumps({"press": True})), (1, json.dumps(act, sort_keys=True))], "the reveal shows both")
    rolls = [e for e in ra["events"] if e["event"] == "roll"]
    ensure(len(rolls) == 1 and rolls[0]["seat"] == 0 and rolls[0]["hand"] == 2, "alice's pressed hand is rolled")
    for r, viewer in ((ra, 0), (rb, 1), (rc, -1)):
        ensure(r["view"]["viewer"] == viewer, "viewer %d" % viewer)
    va, vc = dict(ra["view"]), dict(rc["view"])
    va.pop("viewer")
    vc.pop("viewer")
    ensure(va == vc, "the spectator's view is the seat's")
    turn_b = ra["view"]["players"][1]["party"]["turn"]
    ensure(turn_b["acted"] is True and turn_b["act"]["target"] == 1, "bob's act is kept, shown after the reveal")
    # decision 2 asks alice only; bob acted and is not asked again this round
    oa2 = opts(alice, tid, 2)
    ensure(oa2["pending"] == [0] and oa2["options"][0]["hands"] == 2, "step 2 asks alice alone, with 2 hands")
    e = bob.err({"type": "choose", "table": tid, "decision": 2, "choice": act})
    ensure(e["code"] == "not_pending", "a seat that acted is not asked again this round: %s" % e["code"])
    alice.req({"type": "choose", "table": tid, "decision": 2, "choice": {"target": 2}})
    r2 = reveal(alice, tid, 2)
    kinds = [e["event"] for e in r2["events"]]
    ensure("maw" in kinds and "round" in kinds, "the last act resolves the round and opens the next")
    ensure(r2["view"]["round"] == 2, "round 2 follows")


@attack
def choose_out_of_play(ctx):
    """PROTOCOL.md §3: choose at a table not in play is wrong_phase."""
    a = ctx.client()
    t = a.req({"type": "table_create", "kind": "deepfall", "seats": 2, "ai": 1})["table"]
    for ch in ({"press": True}, {"target": 1}):
        ensure(a.err({"type": "choose", "table": t, "choice": ch})["code"] == "wrong_phase",
               "choose before the start: wrong_phase")
    ensure(a.err({"type": "selecting", "table": t})["code"] in ("not_pending", "wrong_phase"), "selecting before the start")


@attack
def hostile_choices(ctx):
    alice, bob, carol, tid = two_humans(ctx)
    o1 = opts(alice, tid, 1)
    bad = [{"press": True, "target": 2}, {"press": False}, {}, {"target": 0}, {"target": 7},
           {"target": -1}, {"target": "3"}, {"target": 3.5}, {"target": 2 ** 64}, {"target": None},
           {"target": 3, "exit": "fly"}, {"target": 3, "exit": 1}, {"target": 3, "bribe": 1},
           {"target": 3, "recruit": "yes"}, {"press": "true"}, {"press": 1}, "press", "stay",
           [], [{"press": True}], None, 3, True, {"target": [[[[[[[[3]]]]]]]]},
           {"target": 3, "seat": 1}]
    for b in bad:
        e = alice.err({"type": "choose", "table": tid, "decision": 1, "choice": b})
        ensure(e["code"] == "illegal_choice" and e.get("field") == "choice",
               "choice %s: illegal_choice (choice), got %s %s" % (json.dumps(b), e["code"], e.get("field")))
    # a duplicated key must not pass the check with one value and play the other
    alice.ws.send_text('{"type":"choose","id":"dup","table":%d,"decision":1,"choice":{"target":2,"target":99}}' % tid)
    dup = alice.reply("dup")
    # another seat, a spectator, a stale decision
    ensure(alice.err({"type": "choose", "table": tid, "seat": 1, "decision": 1, "choice": {"press": True}})["code"]
           == "not_your_seat", "alice for bob's seat")
    ensure(carol.err({"type": "choose", "table": tid, "seat": 1, "decision": 1, "choice": {"press": True}})["code"]
           == "not_your_seat", "a spectator for a human's seat")
    ensure(carol.err({"type": "choose", "table": tid, "choice": {"press": True}})["code"] in ("not_seated", "not_your_seat"),
           "a spectator without a seat")
    ensure(alice.err({"type": "choose", "table": tid, "decision": 0, "choice": {"press": True}})["code"] == "wrong_phase",
           "decision 0 is stale")
    # press until none is left, then a press is refused (max_press 3)
    d = 1
    presses = 0
    bob_act = {"target": 1}
    while True:
        o = o1 if d == 1 else opts(alice, tid, d)
        if not o["options"][0]["press"]:
            break
        if d == 1:
            bob.req({"type": "choose", "table": tid, "decision": 1, "choice": bob_act})
        alice.req({"type": "choose", "table": tid, "decision": d, "choice": {"press": True}})
        reveal(alice, tid, d)
        presses += 1
        d += 1
    ensure(1 <= presses <= 3, "max_press 3 (or the bag ran out): %d presses" % presses)
    e = alice.err({"type": "choose", "table": tid, "decision": d, "choice": {"press": True}})
    ensure(e["code"] == "illegal_choice", "a press with none left: illegal_choice")
    if "last_stand" not in o["options"][0]["exit"]:
        e = alice.err({"type": "choose", "table": tid, "decision": d, "choice": {"target": 1, "exit": "last_stand"}})
        ensure(e["code"] == "illegal_choice", "a Last Stand not offered: illegal_choice")
    if dup["type"] == "ok":
        r = reveal(alice, tid, 1)
        mine = [c for c in r["choices"] if c["seat"] == 0][0]["choice"]
        ensure(mine == {"press": True}, "the duplicate-key choice was replaced by the press")
    else:
        ensure(dup["code"] == "illegal_choice", "a duplicate key: refused as illegal_choice, got %s" % dup)
    alice.req({"type": "choose", "table": tid, "decision": d, "choice": {"target": 1}})
    reveal(alice, tid, d)
