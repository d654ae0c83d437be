"""The metrics as deploy/README.md lists them ("One port, WebSocket and
HTTP"): every name there, in Prometheus' text format, counters that move
with what a client does; and what a stranger may try on /metrics."""
import re

from lairtest import ensure, http, WS, HandshakeRefused, Client
from registry import check, attack

DOCUMENTED = """lair_connections lair_connections_accepted_total lair_connections_refused_total
lair_messages_in_total lair_messages_out_total lair_control_frames_in_total lair_bytes_in_total
lair_bytes_out_total lair_http_requests_total lair_net_errors_total lair_event_loop_lag_seconds
lair_event_loop_lag_max_seconds lair_draining lair_build_info process_cpu_seconds_total
process_resident_memory_bytes process_virtual_memory_bytes process_open_fds process_max_fds
process_start_time_seconds lair_store_queue_depth lair_store_durable_seconds lair_store_failures_total
lair_players_online lair_lobbies lair_tables lair_spectators lair_decisions_resolved_total
lair_decision_reveal_seconds lair_decision_durable_seconds lair_decision_reveal_send_seconds
lair_window_close_late_seconds lair_store_queued_seconds lair_store_batch_seconds lair_store_deliver_seconds
lair_store_write_batches_total lair_decision_durable_slow_total lair_decision_durable_max_seconds
lair_games_started_total lair_games_finished_total lair_errors_total""".split()
BUCKETS = "0.0005 0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.25 0.5 1 2.5 5 +Inf".split()


def scrape(port):
    st, h, body = http(port, path="/metrics")
    ensure(st == 200 and "text/plain" in h.get("content-type", ""), "GET /metrics: 200 text")
    ensure(h.get("connection", "").lower() == "close", "Connection: close")
    samples, types = {}, {}
    for line in body.decode().splitlines():
        if line.startswith("# TYPE "):
            _, _, name, t = line.split(" ", 3)
            types[name] = t
        elif line and not line.startswith("#"):
            m = re.match(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$", line)
            ensure(m, "a sample line in the text format: %r" % line)
            samples[m.group(1) + (m.group(2) or "")] = float(m.group(3))
    return samples, types


def value(samples, name, **labels):
    want = "{" + ",".join('%s="%s"' % kv for kv in sorted(labels.items())) + "}" if labels else ""
    for k, v in samples.items():
        base, _, lab = k.partition("{")
        if base == name and (not labels or sorted(lab.rstrip("}").split(",")) == sorted(want[1:-1].split(","))):
            return v
    return 0.0


@check
def every_documented_metric(ctx):
    ld = ctx.new_laird("--window-ms", "0", "--reveal-pause-ms", "0")
    c = Client(ld)
    c.hello(name="m1")
    t = c.req({"type": "table_create", "kind": "crawl", "seats": 1, "start": True})["table"]
    o = c.wait(lambda m: m["type"] == "options" and m.get("table") == t and "options" in m)
    c.req({"type": "choose", "table": t, "decision": o["decision"], "choice": "wait"})
    c.wait(lambda m: m["type"] == "reveal" and m.get("table") == t)
    samples, types = scrape(ld.port)
    names = {k.partition("{")[0] for k in samples}
    for n in DOCUMENTED:
        ensure(n in types, "%s has a TYPE line" % n)
        if types[n] == "histogram":
            ensure(n + "_bucket" in names and n + "_sum" in names and n + "_count" in names, "%s is a histogram" % n)
        else:
            ensure(n in names, "%s is exported" % n)
    for b in BUCKETS:
        ensure(any(k.startswith("lair_decision_reveal_seconds_bucket") and 'le="%s"' % b in k for k in samples),
               "bucket le=%s" % b)
    ensure(value(samples, "lair_games_started_total", kind="crawl") == 1, "one crawl game started")
    ensure(value(samples, "lair_decisions_resolved_total") >= 1, "a decision resolved")
    ensure(value(samples, "lair_players_online") == 1, "one player online")
    ensure(value(samples, "lair_tables", state="playing") == 1, "one table playing")
    # counters move with what a client does
    before = value(samples, "lair_errors_total", code="bad_json")
    c.ws.send_text("{")
    c.wait(lambda m: m["type"] == "error")
    try:
        WS(ld.port, headers={"Origin": "http://evil.example"})
    except HandshakeRefused:
        pass
    s2, _ = scrape(ld.port)
    ensure(value(s2, "lair_errors_total", code="bad_json") == before + 1, "lair_errors_total{code=bad_json} counts")
    ensure(value(s2, "lair_connections_refused_total", reason="origin") == 1, "a refused Origin is counted")
    ensure(value(s2, "lair_http_requests_total") >= 1, "HTTP requests are counted")


@attack
def metrics_path_tricks(ctx):
    port = ctx.laird.port
    for p in ("/metrics;x", "/x/../metrics", "/metrics/", "/METRICS", "/%6detrics", "//metrics", "/metrics%00"):
        st, _, body = http(port, path=p)
        ensure(b"lair_connections" not in body, "%s exposes the metrics" % p)
    st, _, body = http(port, path="/metrics?x=1")
    ensure(st == 200 and b"lair_connections" in body, "a query string aside, /metrics answers")
    # once per connection: a second request on it gets nothing more of them
    raw = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
    _, _, body = http(port, raw=raw)
    ensure(body.count(b"# TYPE lair_connections ") <= 1, "one answer per connection")


@attack
def metrics_bind_hides_public(ctx):
    from lairtest import free_port
    mport = free_port()
    ld = ctx.new_laird("--metrics-bind", "127.0.0.1:%d" % mport)
    st, _, body = http(ld.port, path="/metrics")
    ensure(st == 404 and b"lair_" not in body, "the public port answers 404 on /metrics")
    st, _, body = http(mport, path="/metrics")
    ensure(st == 200 and b"lair_connections" in body, "the metrics listener serves them")
    ensure(http(mport, path="/healthz")[0] == 200, "and /healthz")
    ensure(http(mport, path="/")[0] == 404, "and nothing else")
    try:
        WS(mport)
        ensure(False, "the metrics listener speaks no WebSocket")
    except (HandshakeRefused, ConnectionError, OSError):
        pass
