"""crawl from proto/kinds/crawl.md and docs/rules/crawl.md: the first
decision as the docs show it, what a party and a spectator may see (C30,
C38, C47), votes (C24), shops (C42), the quick jump (C37), and the choices
a hostile seat would send, and a hostile config (C15: first_run is the
server's)."""
import functools
import json
import subprocess
import os

from lairtest import ensure, BUILD
from registry import check, attack
import crawlbot as cb

SMALL = {"acts": 1, "width": 30, "height": 12}


def own_clients(fn):
    """Closes the connections a check opened when it ends: the shared laird
    counts connections per address, and every check's would otherwise stay
    open to the end of the run."""
    @functools.wraps(fn)
    def run(ctx):
        first = len(ctx._clients)
        try:
            fn(ctx)
        finally:
            for c in ctx._clients[first:]:
                c.close()
    return run


def seeded_table(ctx, seed, seats=2, config=SMALL):
    """The admin hosts a seeded table and watches (ai = seats: every seat
    AI); a fresh player takes seat 0 (so the party is on its first run,
    C15, whatever the admin played before); the admin starts it. Returns
    (player, admin spectator, table id)."""
    adm = ctx.admin()
    t = adm.req({"type": "table_create", "kind": "crawl", "seats": seats, "ai": seats,
                 "seed": str(seed), "config": config})
    ensure(t["you"] is None, "a host of an all-AI table watches")
    tid = t["table"]
    p = ctx.client()
    j = p.req({"type": "table_join", "table": tid, "seat": 0})
    ensure(j["you"] == 0, "joined seat 0 (an AI seat of a waiting table turns human)")
    adm.req({"type": "table_start", "table": tid})
    return p, adm, tid


def lair_map(seed, act, w, h, acts):
    out = subprocess.run([os.path.join(BUILD, "lair"), "map", "--seed", str(seed), "--act",
                          str(act), "--acts", str(acts), "--width", str(w), "--height", str(h),
                          "--json"], capture_output=True, text=True, timeout=30, check=True)
    return json.loads(out.stdout)


@check
@own_clients
def first_decision_as_documented(ctx):
    p, adm, tid = seeded_table(ctx, 5)
    o = p.wait(lambda m: m["type"] == "options" and m.get("table") == tid and "options" in m)
    ensure(o["seat"] == 0 and o["decision"] == 1, "decision 1 asks seat 0")
    for opt in o["options"]:
        ensure(cb.documented_id(opt["id"]) and opt["label"], "option %r as documented" % opt)
    start = [m for m in p.log if m["type"] == "start" and m["table"] == tid][0]
    view = start["view"]
    ensure(view["width"] == 30 and view["height"] == 12 and len(view["map"]) == 12
           and all(len(r) == 30 for r in view["map"]), "map: height strings of width characters")
    ensure(view["first_run"] is True and view["act"] == 1 and view["acts"] == 1, "first run, act 1 of 1")
    ensure(any(e["event"] == "level" for e in start["events"]), "the start's events hold `level`")
    cb.check_events_documented(start["events"], "start")
    hero = view["party"][0]
    ensure((hero["hp"], hero["max_hp"], hero["gold"], hero["level"], hero["sight"]) == (30, 30, 15, 1, 7)
           and hero["attack"] == [2, 4] and len(hero["inventory"]) == 8, "C31: a scoundrel's start")
    # C38 from the outside: what the view shows is the generator's level
    # (lair map, same seed), only tiles within sight of the start (r² + r),
    # and far fewer than the level holds.
    lvl = lair_map(5, 1, 30, 12, 1)["rows"]
    same = {"@": ".", "m": ".", "D": "_"}
    shown = 0
    for y, row in enumerate(view["map"]):
        for x, c in enumerate(row):
            if c == " ":
                continue
            shown += 1
            ensure(same.get(lvl[y][x], lvl[y][x]) == c, "tile (%d,%d) is %r, the level has %r" % (x, y, c, lvl[y][x]))
            d2 = (x - hero["x"]) ** 2 + (y - hero["y"]) ** 2
            ensure(d2 <= 7 * 7 + 7, "tile (%d,%d) is shown but out of sight of the start" % (x, y))
    ensure(lvl[hero["y"]][hero["x"]] == "@", "the party stands on the start")
    ensure(0 < shown < sum(c != "#" for r in lvl for c in r), "the fog hides most of the level")
    # the spectator's rendering of the same start is the same but for viewer
    sst = adm.wait(lambda m: m["type"] == "start" and m.get("table") == tid)
    sv = dict(sst["view"])
    ensure(sv.pop("viewer") == -1, "spectator viewer -1")
    mv = dict(view)
    mv.pop("viewer")
    ensure(sv == mv and sst["events"] == start["events"], "C47: a spectator sees what the party sees")
    so = adm.wait(lambda m: m["type"] == "options" and m.get("table") == tid)
    ensure("options" not in so and "seat" not in so, "a spectator gets no options")
    # answering with the option object itself is accepted (crawl.md)
    wait = [x for x in o["options"] if x["id"] == "wait"][0]
    p.req({"type": "choose", "table": tid, "decision": 1, "choice": wait})
    st = adm.wait(lambda m: m["type"] in ("status", "window", "reveal") and m.get("table") == tid)
    ensure("choice" not in st or st["type"] == "reveal", "a spectator never sees a choice before the reveal")
    r = p.wait(lambda m: m["type"] == "reveal" and m.get("table") == tid)
    mine = [c for c in r["choices"] if c["seat"] == 0][0]
    ensure(mine["choice"] == "wait" and mine["ai"] is False, "the reveal shows the choice as its id")


@attack
@own_clients
def hostile_choices(ctx):
    p, adm, tid = seeded_table(ctx, 5)
    o = p.wait(lambda m: m["type"] == "options" and m.get("table") == tid and "options" in m)
    offered = {x["id"] for x in o["options"]}
    bad = ["fly", "", "WAIT", "wait ", "e\u0000", "s\u0000", "n\n", "portal", "out", "leave", "explore",
           "jump:1", "jump:2", "jump:0", "jump:-1", "jump:99999999999", "buy:0", "buy:3",
           "event:0", "event:-1", "use:0", "use:8", "use:-1", "drop:0", "drop:999",
           "travel:1,1", "travel:0,0", "travel:-1,-1", "travel:99999,4", "travel:19,4,1",
           "travel:19", "travel:x,y", "travel:4294967315,4", "use:4294967296",
           "x" * 15000, 0, 1, -1, 2 ** 63, 1.5, None, True, [], ["wait"], {}, {"id": 5},
           {"id": "fly"}, {"label": "Wait"}, {"id": ["wait"]}]
    bad = [b for b in bad if not (isinstance(b, str) and b in offered)]
    for b in bad:
        e = p.err({"type": "choose", "table": tid, "decision": 1, "choice": b})
        if isinstance(b, str) and "\0" in b:  # PROTOCOL.md §2: no string holds U+0000
            ensure(e["code"] == "bad_json", "choice %r: bad_json, got %s" % (b, e))
            continue
        ensure(e["code"] == "illegal_choice" and e.get("field") == "choice",
               "choice %r: illegal_choice (choice), got %s" % (str(b)[:40], e))
        ensure(len(e["message"]) < 1000, "the error does not echo a huge choice whole")
    # another seat's decision, a stale one, and a table not joined
    e = p.err({"type": "choose", "table": tid, "seat": 1, "decision": 1, "choice": "wait"})
    ensure(e["code"] == "not_your_seat", "choose for the AI seat while holding one: not_your_seat")
    ensure(p.err({"type": "choose", "table": tid, "decision": 2, "choice": "wait"})["code"] == "wrong_phase",
           "a decision number not open now: wrong_phase")
    stranger = ctx.client()
    ensure(stranger.err({"type": "choose", "table": tid, "choice": "wait"})["code"] == "not_seated",
           "a stranger's choose: not_seated")
    ensure(adm.err({"type": "choose", "table": tid, "choice": "wait"})["code"] in ("not_seated", "not_your_seat"),
           "a spectator holding no seat cannot choose without naming a seat")
    # nothing changed: the seat still waits, with no choice
    snap = p.req({"type": "table_sync", "table": tid, "since": 0})
    ensure(snap["type"] in ("table", "ok"), "table_sync answers")
    t = p.wait(lambda m: m["type"] == "table" and m.get("table") == tid)
    g = t["game"]
    ensure(g["decision"] == 1 and g["status"][0] == "waiting" and "choice" not in g,
           "refused choices changed nothing: %s" % json.dumps(g)[:300])


@attack
@own_clients
def votes_and_screens(ctx):
    """C24: a vote is the only thing a party can do while it is open, and
    only with the options open to everyone; outside a vote `event:K` is
    refused. Seed 1 (30 x 12, one act): a shared event at decision 2."""
    p, adm, tid = seeded_table(ctx, 1)
    view, o = cb.play_until(p, tid, 0, lambda v, m: m["decision"] == 1, spectator=adm)
    ensure(p.err({"type": "choose", "table": tid, "decision": 1, "choice": "event:0"})["code"]
           == "illegal_choice", "event:0 outside a vote or a screen")
    view, o = cb.play_until(p, tid, 0, lambda v, m: v["vote"] is not None,
                            max_decisions=30, spectator=adm, first=o)
    ids = [x["id"] for x in o["options"]]
    ensure(ids and all(i.startswith("event:") for i in ids), "a vote offers event options only: %s" % ids)
    vote = view["vote"]
    ensure(vote["event"]["shared"] is True, "the vote's event is shared")
    openk = [x["index"] for x in vote["event"]["options"] if x["open"]]
    ensure(sorted(int(i.split(":")[1]) for i in ids) == sorted(openk), "the options are the open ones")
    for b in ["wait", "n", "e", "explore", "event:%d" % (max(openk) + 1), "event:99", "leave", "buy:0"]:
        e = p.err({"type": "choose", "table": tid, "decision": o["decision"], "choice": b})
        ensure(e["code"] == "illegal_choice", "%s during a vote: illegal_choice, got %s" % (b, e["code"]))
    e = p.err({"type": "choose", "table": tid, "decision": o["decision"], "seat": 1, "choice": ids[0]})
    ensure(e["code"] == "not_your_seat", "voting for the AI seat while holding one: not_your_seat")
    p.req({"type": "choose", "table": tid, "decision": o["decision"], "choice": ids[-1]})
    r = p.wait(lambda m: m["type"] == "reveal" and m.get("table") == tid and m["decision"] == o["decision"])
    cb.check_events_documented(r["events"], "the vote's reveal")
    ve = [e for e in r["events"] if e["event"] == "vote"]
    ensure(len(ve) == 1 and sum(ve[0]["votes"]) == 2 if isinstance(ve[0]["votes"], list) else len(ve) == 1,
           "one vote event counting both seats: %s" % ve)
    ensure(len(r["choices"]) == 2, "both seats voted")
    ensure(r["view"]["vote"] is None or r["view"]["vote"]["event"]["id"] != vote["event"]["id"],
           "the vote is over after its reveal")


@attack
@own_clients
def shop_without_gold(ctx):
    """C42: a shop sells only what you can pay for. Seed 21 (30 x 12, one
    act): seat 0 finds a shop at decision 26 with 24 gold (a vote the AI
    opened comes first: the shop waits, C24): one item it can
    pay, the others (and the act-1 relic, 70 + 20 = 90) too dear. It buys
    the one, then tries the rest with what is left."""
    p, adm, tid = seeded_table(ctx, 21)
    view, o = cb.play_until(p, tid, 0, lambda v, m: v["party"][0]["state"] == "shop" and not v["vote"],
                            max_decisions=60, spectator=adm)
    bought = False
    for _ in range(3):
        hero = view["party"][0]
        shop, gold = hero["shop"], hero["gold"]
        ids = {x["id"] for x in o["options"]}
        ensure("leave" in ids, "a shop can be left")
        ensure(shop["relic"] is None or shop["relic"]["price"] == 90, "C42: the act-1 relic costs 90")
        stock = list(enumerate(shop["items"] + [shop["relic"]]))
        for k, it in stock:
            if it is not None and it["price"] > gold:
                ensure("buy:%d" % k not in ids, "buy:%d offered at %d gold with %d" % (k, it["price"], gold))
                e = p.err({"type": "choose", "table": tid, "decision": o["decision"], "choice": "buy:%d" % k})
                ensure(e["code"] == "illegal_choice", "buying what you cannot pay: illegal_choice")
            elif it is not None:
                ensure("buy:%d" % k in ids, "buy:%d not offered at %d gold with %d" % (k, it["price"], gold))
        for b in ["buy:4", "buy:-1", "buy:", "wait", "n", "explore", "travel:1,1"]:
            e = p.err({"type": "choose", "table": tid, "decision": o["decision"], "choice": b})
            ensure(e["code"] == "illegal_choice", "%s in a shop: illegal_choice" % b)
        cheap = [k for k, it in stock if it is not None and it["price"] <= gold]
        choice = "buy:%d" % cheap[0] if cheap and not bought else "leave"
        p.req({"type": "choose", "table": tid, "decision": o["decision"], "choice": choice})
        r = p.wait(lambda m: m["type"] == "reveal" and m.get("table") == tid and m["decision"] == o["decision"])
        cb.check_events_documented(r["events"], "the shop's reveal")
        after = r["view"]["party"][0]
        if choice == "leave":
            ensure(after["gold"] == gold and after["state"] != "shop", "leaving costs nothing and closes the shop")
            ensure(bought, "the shop had something affordable (the check bought it)")
            return
        price = dict(stock)[cheap[0]]["price"]
        ensure(after["gold"] == gold - price, "a purchase costs its price: %d - %d" % (gold, price))
        ensure(any(e["event"] == "buy" and e.get("price") == price for e in r["events"]), "a buy event")
        ensure(after["state"] == "shop" and after["shop"]["items"][cheap[0]] is None, "the shop stays open, the item sold")
        bought = True
        view = r["view"]
        o = p.wait(lambda m: m["type"] == "options" and m.get("table") == tid and m.get("seat") == 0)
    raise AssertionError("the shop never closed")


@attack
@own_clients
def travel_is_no_oracle(ctx):
    """C36/C47: travel goes to seen tiles only. A hostile seat probing
    `travel:X,Y` at unseen tiles must learn nothing: refused alike for an
    unseen floor tile (the level from lair map, same seed) and an unseen
    wall, with the same message but for the coordinates."""
    p, adm, tid = seeded_table(ctx, 5)
    view, o = cb.play_until(p, tid, 0, lambda v, m: any(x["id"].startswith("travel:") for x in m["options"]),
                            max_decisions=40)
    lvl = lair_map(5, view["act"], 30, 12, 1)["rows"]
    floor = [(x, y) for y, r in enumerate(lvl) for x, c in enumerate(r)
             if c != "#" and view["map"][y][x] == " "]
    wall = [(x, y) for y, r in enumerate(lvl) for x, c in enumerate(r)
            if c == "#" and view["map"][y][x] == " " and 0 < x < 29 and 0 < y < 11]
    ensure(floor and wall, "unseen floor and wall to probe")
    msgs = set()
    for (x, y) in floor[:5] + wall[:5]:
        e = p.err({"type": "choose", "table": tid, "decision": o["decision"], "choice": "travel:%d,%d" % (x, y)})
        ensure(e["code"] == "illegal_choice", "travel to unseen (%d,%d): illegal_choice" % (x, y))
        msgs.add(e["message"].replace("%d,%d" % (x, y), "X,Y"))
    ensure(len(msgs) == 1, "the refusals differ, a map oracle: %s" % msgs)
    seen_floor = [(x, y) for y, r in enumerate(view["map"]) for x, c in enumerate(r) if c == "."
                  and (x, y) != (view["party"][0]["x"], view["party"][0]["y"])]
    x, y = seen_floor[-1]
    p.req({"type": "choose", "table": tid, "decision": o["decision"], "choice": "travel:%d,%d" % (x, y)})


def to_act_two(ctx, seed):
    """Plays a two-act run (30 x 12) to the first decision of act 2: the
    bot heads for the portal down and steps in; the AI follows (C48)."""
    p, adm, tid = seeded_table(ctx, seed, config={"acts": 2, "width": 30, "height": 12})

    def chooser(v, opts):
        if v["act"] == 1 and any(o["id"] == "portal" for o in opts):
            return "portal"
        return cb.sensible(v, 0, opts, goal_char=">" if cb.tiles(v, ">") else "?")
    view, o = cb.play_until(p, tid, 0, lambda v, m: v["act"] == 2, max_decisions=150, chooser=chooser)
    return p, tid, view, o


def act_two_with(ctx, want, what):
    """to_act_two with the first seed (1-12) whose run reaches act 2 with
    seat 0's gold as wanted (which seed does depends on how the AI seat
    plays: the check must not)."""
    for seed in range(1, 13):
        p, tid, view, o = to_act_two(ctx, seed)
        if want(view["party"][0]["gold"]):
            return p, tid, view, o
    ensure(False, "no seed of 1-12 reaches act 2 with %s" % what)


@attack
@own_clients
def quick_jump_without_the_fee(ctx):
    """C37: `jump:A` costs 25 gold per act of distance. Arrived in act 2
    with less: the jump back is neither offered nor accepted, and no other
    act is reachable."""
    p, tid, view, o = act_two_with(ctx, lambda g: g < 25, "less than 25 gold")
    gold = view["party"][0]["gold"]
    ensure(gold < 25, "seed 3 arrives with less than the fee (%d)" % gold)
    ids = {x["id"] for x in o["options"]}
    ensure("jump:1" not in ids, "jump:1 offered with %d gold" % gold)
    for b in ("jump:1", "jump:2", "jump:3", "jump:0", "out", "portal"):
        e = p.err({"type": "choose", "table": tid, "decision": o["decision"], "choice": b})
        ensure(e["code"] == "illegal_choice", "%s: illegal_choice, got %s" % (b, e["code"]))


@check
@own_clients
def quick_jump_fee_and_refund(ctx):
    """C37: arrived in act 2 with 25 gold or more: jump:1 costs 25, paid
    on entering the gateway, given back on stepping out."""
    p, tid, view, o = act_two_with(ctx, lambda g: g >= 25, "25 gold or more")
    gold = view["party"][0]["gold"]
    jump = [x for x in o["options"] if x["id"] == "jump:1"]
    ensure(gold >= 25 and jump, "jump:1 offered with %d gold" % gold)
    p.req({"type": "choose", "table": tid, "decision": o["decision"], "choice": "jump:1"})
    r = p.wait(lambda m: m["type"] == "reveal" and m.get("table") == tid and m["decision"] == o["decision"])
    hero = r["view"]["party"][0]
    ensure(hero["state"] == "gateway" and hero["gateway"] == 1 and hero["gold"] == gold - 25,
           "in a gateway to act 1, 25 gold paid: %s" % {k: hero[k] for k in ("state", "gateway", "gold")})
    ge = [e for e in r["events"] if e["event"] == "gateway" and e.get("seat") == 0]
    ensure(ge and ge[0]["to_act"] == 1 and ge[0]["fee"] == 25, "a gateway event with its fee: %s" % ge)
    o2 = p.wait(lambda m: m["type"] == "options" and m.get("table") == tid and m.get("seat") == 0)
    ensure("out" in {x["id"] for x in o2["options"]}, "a scoundrel in a gateway may step out")
    p.req({"type": "choose", "table": tid, "decision": o2["decision"], "choice": "out"})
    r2 = p.wait(lambda m: m["type"] == "reveal" and m.get("table") == tid and m["decision"] == o2["decision"])
    hero = r2["view"]["party"][0]
    ensure(hero["state"] != "gateway" and hero["gold"] == gold, "stepping out gives the fee back")


@attack
@own_clients
def hostile_config(ctx):
    """proto/kinds/crawl.md "Config": an unknown key, a wrong type or a value
    out of range is refused with bad_field (field config) and makes no
    table; `first_run` is the server's to fill (C15): a client claiming one
    for an AI seat, or none for a newcomer, is overruled at the start."""
    p = ctx.client()
    before = p.req({"type": "table_list"})["total"]
    bad = [{"acts": 0}, {"acts": 4}, {"acts": "3"}, {"width": 23}, {"width": 121},
           {"height": 11}, {"height": 61}, {"width": 56.5}, {"width": 2 ** 40},
           {"max_rounds": 99}, {"max_rounds": 20001}, {"deadly_events": 1},
           {"deadly_events": "true"}, {"fly": True}, {"Acts": 3}, [], "crawl", 7,
           {"width": None}]
    for c in bad:
        e = p.err({"type": "table_create", "kind": "crawl", "seats": 1, "config": c})
        ensure(e["code"] == "bad_field" and e.get("field") == "config",
               "config %r: bad_field (config), got %s" % (c, e))
    ensure(p.req({"type": "table_list"})["total"] == before, "no refused config made a table")
    # first_run: the client's claim is replaced by the store's truth
    t = p.req({"type": "table_create", "kind": "crawl", "seats": 2, "ai": 1,
               "config": {"acts": 1, "width": 30, "height": 12, "first_run": [1]}})
    tid = t["table"]
    p.req({"type": "table_start", "table": tid})
    st = p.wait(lambda m: m["type"] == "start" and m.get("table") == tid)
    ensure(st["view"]["first_run"] is True, "the newcomer's party is on its first run")
    snap = p.req({"type": "table_sync", "table": tid, "since": 0})
    ensure(snap["type"] in ("table", "ok"), "table_sync answers")
    tab = p.wait(lambda m: m["type"] == "table" and m.get("table") == tid and m.get("config"))
    ensure(tab["config"]["first_run"] == [0],
           "first_run is the server's: seat 0 (new), never the AI seat: %s" % tab["config"])
