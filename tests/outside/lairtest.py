"""The outside view's toolkit: a client of laird written from its documents
alone (proto/PROTOCOL.md, proto/table.md, proto/kinds/*.md, proto/schema.json,
deploy/README.md, laird --help), with Python's standard library only and no
code of laird, lair or tests/e2e: what a stranger with another client would
write. It holds

  Laird      a laird on a free loopback port with a temporary database
  WS         an RFC 6455 client over a socket (masked frames, fragments,
             ping/pong, close), with raw access for hostile frames
  Client     WS + JSON: requests by id, updates queued, every server
             message checked against proto/schema.json as it arrives
  Schema     the subset of JSON Schema 2020-12 that schema.json uses
  http()     one plain HTTP request, the answer's status, headers and body

Every wait is bounded and waits for the event itself (no fixed sleeps).
"""

import base64
import hashlib
import json
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("OUTSIDE_BUILD", os.path.join(ROOT, "build"))
WAIT = float(os.environ.get("OUTSIDE_WAIT", "20"))  # seconds, for any one event


class CheckFailed(AssertionError):
    pass


def ensure(cond, what):
    if not cond:
        raise CheckFailed(what)


# ---------------------------------------------------------------- schema

class Schema:
    """Validates against proto/schema.json with the keywords it uses."""

    def __init__(self, path=None):
        with open(path or os.path.join(ROOT, "proto", "schema.json")) as f:
            self.root = json.load(f)
        used = set()

        def walk(n):
            if isinstance(n, dict):
                for k, v in n.items():
                    used.add(k)
                    if k in ("properties", "$defs", "patternProperties"):
                        for x in v.values():
                            walk(x)
                    elif k not in ("const", "enum", "examples", "required", "default"):
                        walk(v)
            elif isinstance(n, list):
                for x in n:
                    walk(x)
        walk(self.root)
        known = {"$schema", "$id", "title", "description", "anyOf", "oneOf", "allOf",
                 "$defs", "$ref", "type", "required", "properties", "additionalProperties",
                 "minimum", "maximum", "const", "enum", "items", "maxLength", "minLength",
                 "pattern", "maxItems", "minItems", "uniqueItems", "not", "exclusiveMinimum",
                 "exclusiveMaximum", "default", "examples", "patternProperties"}
        unknown = used - known
        if unknown:
            raise RuntimeError("schema.json uses keywords this validator lacks: %s" % sorted(unknown))

    def resolve(self, ref):
        ensure(ref.startswith("#/"), "non-local $ref " + ref)
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    @staticmethod
    def _type_ok(v, t):
        if t == "object":
            return isinstance(v, dict)
        if t == "array":
            return isinstance(v, list)
        if t == "string":
            return isinstance(v, str)
        if t == "integer":
            return (isinstance(v, int) and not isinstance(v, bool)) or \
                (isinstance(v, float) and v.is_integer())
        if t == "number":
            return isinstance(v, (int, float)) and not isinstance(v, bool)
        if t == "boolean":
            return isinstance(v, bool)
        if t == "null":
            return v is None
        raise RuntimeError("unknown type " + t)

    def errors(self, v, s, path="$"):
        """A list of (path, message); empty when v is valid."""
        if s is True:
            return []
        if s is False:
            return [(path, "nothing is allowed here")]
        errs = []
        if "$ref" in s:
            errs += self.errors(v, self.resolve(s["$ref"]), path)
        if "type" in s:
            ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(self._type_ok(v, t) for t in ts):
                return errs + [(path, "type %s expected, got %r" % (ts, _short(v)))]
        if "const" in s and v != s["const"]:
            errs.append((path, "must be %r, got %r" % (s["const"], _short(v))))
        if "enum" in s and v not in s["enum"]:
            errs.append((path, "must be one of %r, got %r" % (s["enum"], _short(v))))
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            if "minimum" in s and v < s["minimum"]:
                errs.append((path, "%r < minimum %r" % (v, s["minimum"])))
            if "maximum" in s and v > s["maximum"]:
                errs.append((path, "%r > maximum %r" % (v, s["maximum"])))
            if "exclusiveMinimum" in s and v <= s["exclusiveMinimum"]:
                errs.append((path, "%r <= exclusiveMinimum" % v))
            if "exclusiveMaximum" in s and v >= s["exclusiveMaximum"]:
                errs.append((path, "%r >= exclusiveMaximum" % v))
        if isinstance(v, str):
            n = len(v)  # JSON Schema counts code points
            if "minLength" in s and n < s["minLength"]:
                errs.append((path, "shorter than %d" % s["minLength"]))
            if "maxLength" in s and n > s["maxLength"]:
                errs.append((path, "longer than %d" % s["maxLength"]))
            if "pattern" in s and not re.search(s["pattern"], v):
                errs.append((path, "%r does not match %s" % (_short(v), s["pattern"])))
        if isinstance(v, list):
            if "minItems" in s and len(v) < s["minItems"]:
                errs.append((path, "fewer than %d items" % s["minItems"]))
            if "maxItems" in s and len(v) > s["maxItems"]:
                errs.append((path, "more than %d items" % s["maxItems"]))
            if s.get("uniqueItems"):
                seen = [json.dumps(x, sort_keys=True) for x in v]
                if len(set(seen)) != len(seen):
                    errs.append((path, "items not unique"))
            if "items" in s:
                for i, x in enumerate(v):
                    errs += self.errors(x, s["items"], "%s[%d]" % (path, i))
        if isinstance(v, dict):
            props = s.get("properties", {})
            for k in s.get("required", []):
                if k not in v:
                    errs.append((path, "missing required %r" % k))
            for k, x in v.items():
                if k in props:
                    errs += self.errors(x, props[k], path + "." + k)
                elif "patternProperties" in s and any(re.search(p, k) for p in s["patternProperties"]):
                    for p, ps in s["patternProperties"].items():
                        if re.search(p, k):
                            errs += self.errors(x, ps, path + "." + k)
                elif "additionalProperties" in s:
                    errs += self.errors(x, s["additionalProperties"], path + "." + k)
        for kw in ("allOf",):
            for sub in s.get(kw, []):
                errs += self.errors(v, sub, path)
        if "anyOf" in s:
            alts = [self.errors(v, sub, path) for sub in s["anyOf"]]
            if all(alts):
                errs.append((path, "matches no anyOf alternative; nearest: %s" % _nearest(alts)))
        if "oneOf" in s:
            alts = [self.errors(v, sub, path) for sub in s["oneOf"]]
            good = sum(1 for a in alts if not a)
            if good == 0:
                errs.append((path, "matches no oneOf alternative; nearest: %s" % _nearest(alts)))
            elif good > 1:
                errs.append((path, "matches %d oneOf alternatives" % good))
        if "not" in s and not self.errors(v, s["not"], path):
            errs.append((path, "matches a 'not'"))
        return errs

    def check(self, msg, defname):
        errs = self.errors(msg, self.root["$defs"][defname])
        if errs:
            raise CheckFailed("schema (%s): %s in %s" % (
                defname, "; ".join("%s: %s" % e for e in errs[:3]), _short(msg, 400)))


def _nearest(alts):
    best = min(alts, key=len)
    return "; ".join("%s: %s" % e for e in best[:2])


def _short(v, n=120):
    s = json.dumps(v) if not isinstance(v, str) else v
    return s if len(s) <= n else s[:n] + "…"


SCHEMA = Schema()


# ---------------------------------------------------------------- laird

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Laird:
    """A laird on 127.0.0.1, port 0 (it prints the one it took), with a
    temporary database; flags are laird's (laird --help)."""

    def __init__(self, *flags, db=None, env=None):
        self.dir = tempfile.mkdtemp(prefix="lair-outside-")
        self.db = db or os.path.join(self.dir, "lair.db")
        self.flags = list(flags)
        self.env = env
        self._admin_token = None
        self.proc = None
        self.start()

    def start(self):
        self.errpath = os.path.join(self.dir, "stderr.%d" % int(time.time() * 1000))
        self.err = open(self.errpath, "wb")
        args = [os.path.join(BUILD, "laird"), "--port", "0", "--bind", "127.0.0.1",
                "--db-path", self.db] + self.flags
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.err,
                                     env=self.env)
        deadline = time.time() + WAIT
        line = b""
        while time.time() < deadline:
            r, _, _ = select.select([self.proc.stdout], [], [], 0.5)
            if r:
                line = self.proc.stdout.readline()
                m = re.search(rb"listening on ([0-9.]+):(\d+)", line)
                if m:
                    self.port = int(m.group(2))
                    break
                if not line:
                    break
            if self.proc.poll() is not None:
                break
        else:
            self.stop()
            raise RuntimeError("laird did not say it listens")
        if not getattr(self, "port", None) or self.proc.poll() is not None:
            raise RuntimeError("laird did not start: " + self.stderr()[-2000:])
        if self._admin_token is None and not os.path.exists(self.db + ".started"):
            open(self.db + ".started", "w").close()
            self.admin_token  # printed at the first start only: read it now

    @property
    def admin_token(self):
        """The token laird prints at its first start (stderr, after it
        listens: waited for)."""
        deadline = time.time() + WAIT
        while self._admin_token is None and time.time() < deadline:
            m = re.search(r"ADMIN_TOKEN=([0-9a-f]{64})", self.stderr())
            if m:
                self._admin_token = m.group(1)
            else:
                time.sleep(0.02)  # polling a file laird writes; bounded
        ensure(self._admin_token, "laird printed no admin token")
        return self._admin_token

    @property
    def url(self):
        return "ws://127.0.0.1:%d/" % self.port

    def stderr(self):
        with open(self.errpath, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stop(self, sig=signal.SIGTERM):
        """Stops laird; returns its exit status (0 expected on SIGTERM)."""
        if not self.proc or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        self.proc.stdout.close()
        self.err.close()
        self.port = None
        return rc

    def kill9(self):
        self.proc.kill()
        self.proc.wait()
        self.proc.stdout.close()
        self.err.close()
        self.port = None

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------- HTTP

def http(port, raw=None, path="/", method="GET", headers=None, timeout=WAIT):
    """One HTTP/1.1 request (raw bytes, or built from the arguments);
    returns (status, {lowercase header: value}, body bytes)."""
    if raw is None:
        h = {"Host": "127.0.0.1:%d" % port}
        h.update(headers or {})
        raw = ("%s %s HTTP/1.1\r\n" % (method, path) +
               "".join("%s: %s\r\n" % kv for kv in h.items()) + "\r\n").encode()
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.sendall(raw)
    data = b""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        data += chunk
        head, sep, body = data.partition(b"\r\n\r\n")
        if sep:
            hs = _headers(head)
            if "content-length" in hs and len(body) >= int(hs["content-length"]):
                break
            if method == "HEAD" or data.startswith(b"HTTP/1.1 304"):
                break
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    if not head:
        return None, {}, b""
    status = int(head.split(b" ", 2)[1])
    return status, _headers(head), body


def _headers(head):
    out = {}
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.decode("latin-1").partition(":")
        out[k.strip().lower()] = v.strip()
    return out


# ---------------------------------------------------------------- WebSocket

class Closed(Exception):
    def __init__(self, code, reason):
        super().__init__("closed %s %r" % (code, reason))
        self.code = code
        self.reason = reason


class WS:
    """RFC 6455 client. connect() raises HandshakeRefused with the HTTP
    status when the server does not switch protocols."""

    def __init__(self, port, path="/", headers=None, timeout=WAIT):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        h = {"Host": "127.0.0.1:%d" % port, "Upgrade": "websocket",
             "Connection": "Upgrade", "Sec-WebSocket-Key": key,
             "Sec-WebSocket-Version": "13"}
        h.update(headers or {})
        req = "GET %s HTTP/1.1\r\n" % path + "".join(
            "%s: %s\r\n" % kv for kv in h.items() if kv[1] is not None) + "\r\n"
        self.sock.sendall(req.encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            data += chunk
        head, _, self.buf = data.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1]) if head else None
        if status != 101:
            self.sock.close()
            raise HandshakeRefused(status, head)
        hs = _headers(head)
        want = base64.b64encode(hashlib.sha1(
            (key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
        ensure(hs.get("sec-websocket-accept") == want, "bad Sec-WebSocket-Accept")
        self.closed = None
        self.pongs = []

    # -- sending
    @staticmethod
    def frame(opcode, payload, fin=True, mask=True, rsv=0):
        b0 = (0x80 if fin else 0) | (rsv << 4) | opcode
        n = len(payload)
        if n < 126:
            hdr = struct.pack("!BB", b0, (0x80 if mask else 0) | n)
        elif n < 65536:
            hdr = struct.pack("!BBH", b0, (0x80 if mask else 0) | 126, n)
        else:
            hdr = struct.pack("!BBQ", b0, (0x80 if mask else 0) | 127, n)
        if not mask:
            return hdr + payload
        key = os.urandom(4)
        return hdr + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))

    def send_raw(self, data):
        self.sock.sendall(data)

    def send_text(self, text):
        self.sock.sendall(self.frame(1, text.encode() if isinstance(text, str) else text))

    def ping(self, payload=b"p"):
        self.sock.sendall(self.frame(9, payload))

    def close(self, code=1000):
        try:
            self.sock.sendall(self.frame(8, struct.pack("!H", code)))
        except OSError:
            pass

    # -- receiving
    def _read(self, n, deadline):
        while len(self.buf) < n:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no frame within the wait")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                raise TimeoutError("no frame within the wait")
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                raise Closed(1006, "connection dropped")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv_message(self, timeout=WAIT):
        """The next text message (str); raises Closed on a close frame."""
        if self.closed:
            raise self.closed
        deadline = time.time() + timeout
        parts = []
        while True:
            b0, b1 = self._read(2, deadline)
            op, fin, n = b0 & 0x0F, b0 & 0x80, b1 & 0x7F
            ensure(not (b1 & 0x80), "server frames must not be masked")
            if n == 126:
                n = struct.unpack("!H", self._read(2, deadline))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8, deadline))[0]
            payload = self._read(n, deadline)
            if op == 8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                self.closed = Closed(code, payload[2:].decode("utf-8", "replace"))
                raise self.closed
            if op == 9:
                self.sock.sendall(self.frame(10, payload))
                continue
            if op == 10:
                self.pongs.append(payload)
                continue
            ensure(op in (0, 1), "server sent opcode %d" % op)
            parts.append(payload)
            if fin:
                return b"".join(parts).decode("utf-8")

    def wait_closed(self, timeout=WAIT):
        """Reads until the server closes; returns (code, reason)."""
        try:
            while True:
                self.recv_message(timeout)
        except Closed as c:
            return c.code, c.reason


class HandshakeRefused(Exception):
    def __init__(self, status, head):
        super().__init__("upgrade refused: %s" % status)
        self.status = status
        self.head = head


# ---------------------------------------------------------------- JSON client

class ServerError(Exception):
    def __init__(self, msg):
        super().__init__("%s (%s): %s" % (msg.get("code"), msg.get("field"), msg.get("message")))
        self.msg = msg
        self.code = msg.get("code")
        self.field = msg.get("field")


class Client:
    """A protocol session: send requests with ids, collect replies and
    updates; every message received is validated against schema.json."""

    def __init__(self, laird_or_port, headers=None):
        port = laird_or_port if isinstance(laird_or_port, int) else laird_or_port.port
        self.ws = WS(port, headers=headers)
        self.next_id = 1
        self.inbox = []     # unsolicited messages not yet taken
        self.replies = {}   # id -> reply
        self.log = []       # everything received, in order
        self.player = None
        self.token = None

    def _pump(self, timeout):
        text = self.ws.recv_message(timeout)
        msg = json.loads(text)
        SCHEMA.check(msg, "server_message")
        self.log.append(msg)
        if "id" in msg and msg["id"] is not None:
            self.replies[msg["id"]] = msg
        else:
            self.inbox.append(msg)
        return msg

    def send(self, msg):
        """Sends a request (an id is added unless given); returns its id."""
        msg = dict(msg)
        if "id" not in msg:
            msg["id"] = self.next_id
            self.next_id += 1
        self.ws.send_text(json.dumps(msg))
        return msg["id"]

    def reply(self, rid, timeout=WAIT):
        deadline = time.time() + timeout
        while rid not in self.replies:
            self._pump(max(0.01, deadline - time.time()))
        return self.replies.pop(rid)

    def req(self, msg, timeout=WAIT):
        """Request -> reply; an error reply raises ServerError."""
        r = self.reply(self.send(msg), timeout)
        if r["type"] == "error":
            raise ServerError(r)
        return r

    def err(self, msg, timeout=WAIT):
        """Request expected to fail: returns the error reply."""
        r = self.reply(self.send(msg), timeout)
        ensure(r["type"] == "error", "expected an error for %s, got %s" % (_short(msg), _short(r)))
        return r

    def wait(self, pred, timeout=WAIT, what="an update"):
        """The first queued or arriving update satisfying pred (taken out
        of the inbox with every update before it)."""
        deadline = time.time() + timeout
        i = 0
        while True:
            while i < len(self.inbox):
                if pred(self.inbox[i]):
                    m = self.inbox[i]
                    del self.inbox[:i + 1]
                    return m
                i += 1
            left = deadline - time.time()
            if left <= 0:
                raise CheckFailed("timed out waiting for " + what)
            try:
                self._pump(left)
            except TimeoutError:
                raise CheckFailed("timed out waiting for " + what)

    def wait_type(self, t, table=None, timeout=WAIT):
        return self.wait(lambda m: m["type"] == t and (table is None or m.get("table") == table),
                         timeout, "a %s update" % t)

    def drain(self, quiet=0.05):
        """Reads whatever arrives until the line is quiet for `quiet` s."""
        try:
            while True:
                self._pump(quiet)
        except TimeoutError:
            pass

    def hello(self, name=None, token=None, **extra):
        m = {"type": "hello", "protocol": 1}
        if name:
            m["name"] = name
        if token:
            m["token"] = token
        m.update(extra)
        w = self.req(m)
        self.player = w["player"]
        self.token = w.get("token", token)
        return w

    def close(self):
        try:
            self.ws.close()
            self.ws.sock.close()
        except OSError:
            pass


_names = [0]


def uname(prefix="p"):
    """A player name unique within this run."""
    _names[0] += 1
    return "%s%d_%d" % (prefix, os.getpid() % 10000, _names[0])
