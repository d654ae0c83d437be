"""The checks' registry (@check, @attack) and the context they share: one
laird with the documented defaults (started on first use), others made
with their own flags, all stopped at the end (a laird that does not exit 0
on SIGTERM fails the run)."""
from lairtest import Laird, Client, uname, CheckFailed

CHECKS = []


class _Check:
    def __init__(self, fn, kind, known):
        self.fn = fn
        self.name = "%s %s.%s" % (kind, fn.__module__.replace("check_", ""), fn.__name__)
        self.known = known


def check(fn=None, known=None):
    """A check written from the docs alone."""
    def reg(f):
        CHECKS.append(_Check(f, "docs  ", known))
        return f
    return reg(fn) if fn else reg


def attack(fn=None, known=None):
    """What a hostile user would try."""
    def reg(f):
        CHECKS.append(_Check(f, "attack", known))
        return f
    return reg(fn) if fn else reg


class Context:
    # The shared laird: quick rounds (the docs' flags), no per-address
    # creation limits (the limit checks start their own).
    SHARED_FLAGS = ["--window-ms", "0", "--reveal-pause-ms", "0",
                    "--ai-pacing-ms", "0", "--new-players-per-ip-hour", "0",
                    "--new-tables-per-ip-min", "0", "--max-tables-per-player", "50",
                    "--rate-msgs-per-sec", "1000", "--rate-burst", "2000"]

    def __init__(self):
        self._shared = None
        self._lairds = []
        self._clients = []

    @property
    def laird(self):
        if self._shared is None or self._shared.proc.poll() is not None:
            self._shared = self.new_laird(*self.SHARED_FLAGS)
        return self._shared

    def new_laird(self, *flags, **kw):
        ld = Laird(*flags, **kw)
        self._lairds.append(ld)
        return ld

    def client(self, laird=None, name=True, **kw):
        """A connected client, said hello with a fresh name unless name is
        False (or with the name given)."""
        c = Client(laird or self.laird, **kw)
        self._clients.append(c)
        if name:
            c.hello(name=uname() if name is True else name)
        return c

    def admin(self, laird=None):
        ld = laird or self.laird
        c = Client(ld)
        self._clients.append(c)
        c.hello(token=ld.admin_token)
        return c

    def close(self):
        for c in self._clients:
            c.close()
        bad = []
        for ld in self._lairds:
            rc = ld.stop()
            if rc not in (0, None):
                bad.append("laird exited %s: %s" % (rc, ld.stderr()[-1500:]))
            ld.cleanup()
        return bad
