"""The browser client as laird serves it, and the Origin rule
(deploy/README.md "One port, WebSocket and HTTP", "The browser client and
allowed_origins"; laird(8) --web-root, --allowed-origins)."""
import gzip
import os

from lairtest import ensure, http, WS, HandshakeRefused
from registry import check, attack


def get(port, path, **kw):
    return http(port, path=path, **kw)


@check
def serves_the_client(ctx):
    port = ctx.laird.port
    st, h, body = get(port, "/")
    ensure(st == 200 and b"<html" in body.lower() and "text/html" in h.get("content-type", ""), "GET / is the page")
    csp = h.get("content-security-policy", "")
    ensure("script-src 'self'" in csp or ("default-src 'self'" in csp and "script-src" not in csp),
           "a strict CSP: scripts from the own origin only: %r" % csp)
    ensure("unsafe-inline" not in csp.split("script-src")[-1].split(";")[0], "no inline script")
    ensure(h.get("etag") and h.get("last-modified"), "ETag and Last-Modified")
    st2, h2, body2 = get(port, "/", headers={"If-None-Match": h["etag"]})
    ensure(st2 == 304 and body2 == b"", "revalidation gets 304")
    st3, h3, body3 = get(port, "/", headers={"Accept-Encoding": "gzip"})
    ensure(st3 == 200 and h3.get("content-encoding") == "gzip" and gzip.decompress(body3) == body,
           "gzip when the browser accepts it")
    for path in ("/js/main.js", "/css/lair.css", "/rules/crawl.html"):
        st, h, _ = get(port, path)
        ensure(st == 200, "%s is served" % path)
    ensure("javascript" in get(port, "/js/main.js")[1].get("content-type", ""), "a module as JavaScript")
    for path in ("/README.md", "/embed.sh", "/nope", "/js/nope.js"):
        ensure(get(port, path)[0] == 404, "%s: 404 (web/README.md: not served)" % path)
    ensure(get(port, "/", method="POST", headers={"Content-Length": "0"})[0] == 405, "POST: 405")
    ensure(get(port, "/", headers={"Upgrade": "h2c", "Connection": "Upgrade"})[0] == 400, "h2c: 400")
    ensure(get(port, "/healthz")[0] == 200, "healthz")


TRICKS = ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd",
          "//etc/passwd", "/js/../../../README.md", "/js/%2e%2e/%2e%2e/Makefile", "/index.html%00.js",
          "/\\..\\..\\etc\\passwd", "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd", "/%zz", "/%", "/js/..",
          "/./././../etc/passwd", "/" + "a/" * 3000, "/js/main.js/", "/js//main.js/../../../etc/passwd",
          "/....//....//etc/passwd", "/%252e%252e/etc/passwd", "/proc/self/environ"]


@attack
def path_tricks_embedded(ctx):
    port = ctx.laird.port
    for p in TRICKS:
        st, h, body = get(port, p)
        # None: laird hung up without an answer (it did for "/a%00b" until
        # laird read the target itself: now 400, see nul_in_a_path)
        ensure(st in (None, 400, 403, 404, 414, 431) or (st == 200 and b"root:" not in body and b"<html" in body.lower()),
               "%s: %s %r" % (p[:60], st, body[:80]))
        ensure(b"root:x:" not in body and b"LAIRD" not in body, "%s leaked a file" % p[:60])
    for raw in (b"GET http://evil.example/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
                b"GET ../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
                b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-A: " + b"b" * 20000 + b"\r\n\r\n",
                b"GET /\x00 HTTP/1.1\r\n\r\n", b"\r\n\r\n", b"GET\r\n\r\n"):
        st, h, body = http(port, raw=raw)
        ensure(b"root:x:" not in body, "a raw request leaked a file")
    ensure(get(port, "/healthz")[0] == 200, "laird still serves")


@attack
def path_tricks_web_root(ctx):
    """--web-root DIR: nothing outside DIR, symlinks included; files read at
    each request."""
    import tempfile
    top = tempfile.mkdtemp(prefix="lair-outside-web-")
    root = os.path.join(top, "site")
    os.makedirs(os.path.join(root, "sub"))
    with open(os.path.join(top, "secret.txt"), "w") as f:
        f.write("SECRET-OUTSIDE")
    with open(os.path.join(root, "index.html"), "w") as f:
        f.write("<html>v1</html>")
    with open(os.path.join(root, "sub", "a.txt"), "w") as f:
        f.write("inside")
    os.symlink(os.path.join(top, "secret.txt"), os.path.join(root, "link.txt"))
    os.symlink("..", os.path.join(root, "up"))
    os.symlink("/etc", os.path.join(root, "etc"))
    try:
        _web_root_checks(ctx, top, root)
    finally:
        import shutil
        shutil.rmtree(top, ignore_errors=True)


def _web_root_checks(ctx, top, root):
    ld = ctx.new_laird("--web-root", root)
    port = ld.port
    ensure(get(port, "/")[2] == b"<html>v1</html>" and get(port, "/sub/a.txt")[2] == b"inside", "DIR is served")
    with open(os.path.join(root, "index.html"), "w") as f:
        f.write("<html>v2</html>")
    ensure(get(port, "/")[2] == b"<html>v2</html>", "files are read at each request")
    for p in ["/link.txt", "/up/secret.txt", "/../secret.txt", "/%2e%2e/secret.txt", "/sub/../../secret.txt",
              "/etc/passwd", "/sub/%2e%2e/%2e%2e/secret.txt", "/up"]:
        st, h, body = get(port, p)
        ensure(b"SECRET-OUTSIDE" not in body and b"root:x:" not in body, "%s served a file outside DIR" % p[:60])
        ensure(st != 200, "%s: %s, expected a refusal" % (p[:60], st))
    for p in TRICKS:
        st, h, body = get(port, p)
        ensure(b"SECRET-OUTSIDE" not in body and b"root:x:" not in body, "%s served a file outside DIR" % p[:60])
    ensure(get(port, "/healthz")[0] == 200, "laird still serves")


def upgrade(port, origin, host=None):
    """The HTTP status of a WebSocket upgrade with this Origin (101: open)."""
    hdrs = {"Origin": origin}
    if host:
        hdrs["Host"] = host
    try:
        ws = WS(port, headers=hdrs)
    except HandshakeRefused as e:
        return e.status
    ws.close()
    ws.sock.close()
    return 101


@check
def origin_default_own(ctx):
    port = ctx.laird.port
    own = "http://127.0.0.1:%d" % port
    ensure(upgrade(port, own) == 101, "the own origin opens")
    ensure(upgrade(port, "https://127.0.0.1:%d" % port) == 101, "https + Host is the own origin too")
    ensure(upgrade(port, None) == 101, "no Origin (a program): open")
    ensure(upgrade(port, "http://evil.example") == 403, "another site: 403")


@attack
def origin_tricks(ctx):
    port = ctx.laird.port
    own = "127.0.0.1:%d" % port
    refused = ["null", "http://127.0.0.1", "http://127.0.0.1:%d." % port, "http://127.0.0.1.:%d" % port,
               "http://%s.evil.example" % own, "http://%s@evil.example" % own, "http://evil.example/%s" % own,
               "http://evil.example#%s" % own, "ws://%s" % own, "http://127.0.0.1:%d0" % port,
               "http://127.0.0.1:%d, http://evil.example" % port, "http://evil.example, http://%s" % own,
               "file://", "http://", "http://localhost:%d" % port, "http://127.0.0.2:%d" % port,
               "http://%s " % own + "x", "http://%s\t" % own + "evil"]
    for o in refused:
        st = upgrade(port, o)
        ensure(st == 403, "Origin %r: %s, expected 403" % (o, st))
    # the Host is what "own" is measured against: a page elsewhere cannot
    # make its own origin match by sending its name as Host from a browser,
    # but a Host that does not match the Origin must still refuse.
    ensure(upgrade(port, "http://evil.example", host="good.example") == 403, "Origin and Host differ: 403")


@attack
def origin_allowed_list(ctx):
    ld = ctx.new_laird("--allowed-origins", "https://play.example.org, https://lair.example.org")
    port = ld.port
    ensure(upgrade(port, "https://play.example.org") == 101, "a listed origin opens")
    ensure(upgrade(port, "https://lair.example.org") == 101, "the other listed origin opens")
    ensure(upgrade(port, None) == 101, "a program without Origin opens")
    for o in ["https://play.example.org.", "https://play.example.org.evil.com", "http://play.example.org",
              "https://play.example.org:8443", "https://evil.com", "null", "https://play.example.org/x",
              "https://play.example.org, https://evil.com", "https://evil.com, https://play.example.org",
              "https://xplay.example.org", "https://play.example.or", "http://127.0.0.1:%d" % port,
              "https://play.example.org@evil.com", "*"]:
        st = upgrade(port, o)
        ensure(st == 403, "Origin %r with a list: %s, expected 403" % (o, st))


@attack
def nul_in_a_path(ctx):
    """deploy/README.md: a target holding %00, or a %-escape that is not two
    hex digits, gets 400 and a body that says why, on a plain GET and on a
    WebSocket upgrade alike; the server goes on serving."""
    port = ctx.laird.port
    for path, why in (("/a%00b", "the target holds %00, an encoded NUL"),
                      ("/js/main.js%00.png", "the target holds %00, an encoded NUL"),
                      ("/a%0", "a %-escape in the target is not two hex digits"),
                      ("/%zz", "a %-escape in the target is not two hex digits")):
        for headers in ({}, {"Upgrade": "websocket", "Connection": "Upgrade",
                             "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                             "Sec-WebSocket-Version": "13"}):
            st, h, body = get(port, path, headers=headers)
            ensure(st == 400 and body.decode() == "400 Bad Request: %s\n" % why,
                   "%s%s: 400 saying why, got %s %r" % (path, " (upgrade)" if headers else "", st, body[:80]))
    ensure(get(port, "/healthz")[0] == 200, "still serving")
