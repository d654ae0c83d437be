"""A crawl player written from proto/kinds/crawl.md alone: it reads the
view (map, visible, monsters, party), finds its way over the tiles the
party has seen, and answers with option ids. The checks drive it toward
what they want to reach (a ? tile, a shop, a vote)."""
from collections import deque

from lairtest import ensure

WALKABLE = set(".+'?$<>_")
DIRS = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
# the option ids crawl.md lists, as patterns of their prefix
FIXED_IDS = {"wait", "n", "e", "s", "w", "explore", "rest", "portal", "out", "leave"}
PREFIXED = ("travel:", "use:", "drop:", "jump:", "event:", "buy:")


def documented_id(oid):
    return oid in FIXED_IDS or any(oid.startswith(p) for p in PREFIXED)


def me(view, seat):
    return view["party"][seat]


def path_step(view, seat, goal):
    """The first step (n/e/s/w) of a shortest path over seen walkable
    tiles from the seat to goal, avoiding monsters; None if none."""
    hero = me(view, seat)
    start = (hero["x"], hero["y"])
    if start == goal:
        return None
    rows = view["map"]
    blocked = {(m["x"], m["y"]) for m in view["monsters"]}
    prev = {start: None}
    q = deque([start])
    while q:
        cur = q.popleft()
        if cur == goal:
            break
        for d, (dx, dy) in DIRS.items():
            nx, ny = cur[0] + dx, cur[1] + dy
            if (nx, ny) in prev or not (0 <= ny < len(rows) and 0 <= nx < len(rows[ny])):
                continue
            if rows[ny][nx] not in WALKABLE or ((nx, ny) in blocked and (nx, ny) != goal):
                continue
            prev[(nx, ny)] = (cur, d)
            q.append((nx, ny))
    if goal not in prev:
        return None
    node = goal
    while prev[node][0] != start:
        node = prev[node][0]
    return prev[node][1]


def tiles(view, ch):
    return [(x, y) for y, row in enumerate(view["map"]) for x, c in enumerate(row) if c == ch]


def nearest(view, seat, points):
    h = me(view, seat)
    return min(points, key=lambda p: abs(p[0] - h["x"]) + abs(p[1] - h["y"]), default=None)


def sensible(view, seat, options, goal_char="?"):
    """A reasonable choice from the options (crawl.md "Writing a bot"),
    heading for the nearest seen tile showing goal_char."""
    ids = [o["id"] for o in options]
    for o in options:
        ensure(documented_id(o["id"]), "an option id crawl.md does not list: %r" % o["id"])
    hero = me(view, seat)
    if any(i.startswith("event:") for i in ids):  # a vote or an event screen
        return [i for i in ids if i.startswith("event:")][-1]
    if hero["state"] == "shop":
        return "leave"
    if hero["state"] == "gateway":
        return "wait" if "wait" in ids else ids[0]
    for o in options:
        if o["label"].startswith("Attack"):
            return o["id"]
    if goal_char:
        goal = nearest(view, seat, tiles(view, goal_char))
        if goal:
            d = path_step(view, seat, goal)
            if d in ids:
                return d
    awake = [m for m in view["monsters"] if m["awake"]]
    if awake:
        m = nearest(view, seat, [(m["x"], m["y"]) for m in awake])
        d = path_step(view, seat, m)
        if d in ids:
            return d
    if "explore" in ids:
        return "explore"
    for d in "nesw":
        if d in ids:
            return d
    return "wait"


# The fields crawl.md's Events table gives each event (besides `event`).
EVENT_FIELDS = {
    "level": {"act", "visit", "question_marks"},
    "step": {"seat", "x", "y"},
    "attack": {"seat", "monster", "name", "damage", "hp"},
    "hit": {"seat", "monster", "name", "damage", "hp"},
    "kill": {"seat", "monster", "name", "xp", "gold"},
    "fall": {"seat"}, "revive": {"seat", "hp"},
    "level_up": {"seat", "level"},
    "question_mark": {"seat", "room", "rolled", "entered"},
    "ambush": {"seat", "monster", "name"},
    "chest": {"seat", "gold", "relic"}, "treasure": {"seat", "gold", "relic"},
    "event": {"seat", "id", "name", "shared"},
    "vote": {"id", "option", "votes", "tied"},
    "event_choice": {"seat", "id", "name", "option", "label"},
    "chance": {"seat", "percent", "hit"},
    "gold": {"seat", "change", "gold"}, "hp": {"seat", "change", "hp"},
    "stat": {"seat", "stat", "change"},
    "item": {"seat", "item", "slot"},
    "lose_item": {"seat", "item", "dropped"},
    "use": {"seat", "item", "identified"}, "equip": {"seat", "item"},
    "identify": {"item"},
    "relic": {"seat", "relic"},
    "pet": {"seat"}, "shop": {"seat"}, "map": {"seat"},
    "buy": {"seat", "item", "relic", "price"},
    "gateway": {"seat", "to_act", "fee"},
    "travel": {"seat", "start", "mode", "why"},
    "teleport": {"seat", "x", "y"},
    "fire": {"seat", "damage", "hit"},
    "devil": {"monster", "name"},
    "nothing": {"seat"},
    "game_over": {"end", "rounds"},
}


def check_item_hidden(item, where):
    """C30: an unknown potion or scroll shows its appearance as its name
    and carries no id."""
    if item is None or not isinstance(item, dict):
        return
    if item.get("known") is False:
        ensure("id" not in item, "%s: an unknown item carries its id: %r" % (where, item))
        ensure(item.get("name") == item.get("appearance"),
               "%s: an unknown item's name is not its appearance: %r" % (where, item))


def check_events_documented(events, where):
    for e in events:
        k = e.get("event")
        ensure(k in EVENT_FIELDS, "%s: an event crawl.md does not list: %r" % (where, e))
        extra = set(e) - EVENT_FIELDS[k] - {"event"}
        ensure(not extra, "%s: event %s carries fields crawl.md does not list: %s (%r)"
               % (where, k, sorted(extra), e))
        check_item_hidden(e.get("item"), where + " event " + k)


def check_view_hidden(view, where):
    """What C38/C47 let a viewer see: items by appearance, monsters only on
    tiles someone sees now, `visible` tiles all seen."""
    for y, row in enumerate(view["visible"]):
        for x, c in enumerate(row):
            if c == "v":
                ensure(view["map"][y][x] != " ", "%s: a visible tile missing from the map" % where)
    for m in view["monsters"]:
        ensure(view["visible"][m["y"]][m["x"]] == "v",
               "%s: a monster on a tile nobody sees: %r" % (where, m))
    for h in view["party"]:
        for it in h["inventory"] + [h["weapon"], h["armor"]]:
            check_item_hidden(it, where + " inventory")
        if h.get("shop"):
            for s in h["shop"]["items"]:
                if s:
                    check_item_hidden(s["item"], where + " shop")


def check_options_hidden(view, options, where):
    """The travel targets a seat is offered are tiles the party has seen
    (C36, C47): an unseen ? or portal in them would be a map leak."""
    for o in options:
        if o["id"].startswith("travel:"):
            x, y = (int(v) for v in o["id"][len("travel:"):].split(","))
            ensure((o.get("x"), o.get("y")) == (x, y), "%s: a travel option's x, y are its id's" % where)
            ensure(view["map"][y][x] != " ", "%s: travel offered to an unseen tile %r" % (where, o))
            ensure(view["map"][y][x] in "?$<>_", "%s: a notable tile, as crawl.md lists: %r is %r"
                   % (where, o, view["map"][y][x]))


def play_until(client, tid, seat, until, max_decisions=200, chooser=None, spectator=None,
               first=None):
    """Plays `seat` at table `tid` with the sensible bot (or chooser(view,
    options)) until until(view, options_msg) is true for a decision that
    asks the seat; returns (view, options message). `first`: an options
    message already taken from the inbox. Each reveal is checked
    for hidden information, and compared with the spectator's."""
    view = None
    for _ in range(max_decisions):
        if first is not None:
            o, first = first, None
        else:
            o = client.wait(lambda m: m.get("table") == tid and (
                m["type"] == "result" or (m["type"] == "options" and m.get("seat") == seat)),
                what="options for seat %d" % seat)
        ensure(o["type"] != "result", "the run ended before what the check looks for")
        # the view these options follow: the last start, reveal or snapshot
        # of the table before them (reveals of decisions that did not ask
        # this seat included: a traveller's, a new level's)
        k = max(i for i, m in enumerate(client.log) if m is o)
        for m in reversed(client.log[:k]):
            if m.get("table") == tid and m["type"] in ("start", "reveal"):
                view = m["view"]
                break
            if m.get("table") == tid and m["type"] == "table" and m.get("game"):
                view = m["game"]["view"]
                break
        check_options_hidden(view, o["options"], "decision %d options" % o["decision"])
        if until(view, o):
            return view, o
        choice = (chooser or (lambda v, opts: sensible(v, seat, opts)))(view, o["options"])
        client.req({"type": "choose", "table": tid, "decision": o["decision"], "choice": choice})
        r = client.wait(lambda m: m.get("table") == tid and m["type"] == "reveal"
                        and m["decision"] == o["decision"], what="the reveal")
        view = r["view"]
        where = "decision %d" % r["decision"]
        check_events_documented(r["events"], where)
        check_view_hidden(view, where)
        if spectator:
            sr = spectator.wait(lambda m: m.get("table") == tid and m["type"] == "reveal"
                                and m["decision"] == r["decision"], what="the spectator's reveal")
            ensure(sr["events"] == r["events"], "%s: a spectator's events differ from the seat's" % where)
            sv, mv = dict(sr["view"]), dict(view)
            ensure(sv.pop("viewer") == -1, "a spectator's viewer is -1")
            mv.pop("viewer")
            ensure(sv == mv, "%s: the spectator's view differs from the seat's" % where)
    raise AssertionError("not reached within %d decisions" % max_decisions)
