"""The manual pages (docs/man/) against the programs' own --help: a
stranger reads laird(8) and lair(1), so every flag and command the programs
take is there, nothing there is unknown to them, the pages render without
a groff warning, and make install puts them where man looks."""
import os
import re
import subprocess
import tempfile
import shutil

from lairtest import ensure, BUILD, ROOT
from registry import check, attack

MAN = os.path.join(ROOT, "docs", "man")


def run(*args, **kw):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=60, **kw)


def roff_text(path):
    with open(path) as f:
        return f.read().replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "")


@check
def pages_render_and_cover_help(ctx):
    for page in ("laird.8", "lair.1"):
        r = run("groff", "-man", "-Tutf8", "-ww", "-z", os.path.join(MAN, page))
        ensure(r.returncode == 0 and not r.stderr.strip(), "%s renders without warnings: %s" % (page, r.stderr[:300]))
    help_flags = set(re.findall(r"^\s+(--[a-z][a-z-]+)", run(os.path.join(BUILD, "laird"), "--help").stdout, re.M))
    ensure(len(help_flags) > 20, "laird --help lists its flags")
    page = roff_text(os.path.join(MAN, "laird.8"))
    page_flags = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", page))
    missing = sorted(help_flags - page_flags)
    ensure(not missing, "laird(8) lacks flags of laird --help: %s" % missing)
    unknown = sorted(f for f in page_flags - help_flags if f not in ("--no-FLAG", "--no-allow-fixed-seed", "--create", "--help", "--version"))
    ensure(not unknown, "laird(8) names flags laird --help does not: %s" % unknown)
    kinds = sorted(k[:-3] for k in os.listdir(os.path.join(ROOT, "proto", "kinds")) if k.endswith(".md"))
    desc = page.split(".SH DESCRIPTION")[1].split(".SH")[0]
    ensure(all(k in desc for k in kinds), "laird(8) names the game kinds it hosts: %s" % kinds)
    lhelp = run(os.path.join(BUILD, "lair"), "--help")
    cmds = re.findall(r"^  ([a-z]+)\s", lhelp.stdout + lhelp.stderr, re.M)
    lpage = roff_text(os.path.join(MAN, "lair.1"))
    ensure(cmds and all(re.search(r"\b%s\b" % c, lpage) for c in cmds),
           "lair(1) covers every command of lair --help: %s" % cmds)


@check
def install_puts_pages_where_man_looks(ctx):
    dest = tempfile.mkdtemp(prefix="lair-outside-install-")
    try:
        # -o: install the binaries under test as they are, never relink them
        # (a relink would rewrite a laird that other checks are running).
        b = os.path.relpath(BUILD, ROOT)
        r = run("make", "-s", "install", "DESTDIR=" + dest, "BUILD=" + b,
                "-o", b + "/laird", "-o", b + "/lair", cwd=ROOT)
        ensure(r.returncode == 0, "make install DESTDIR: %s" % (r.stderr[-500:]))
        for p in ("usr/local/share/man/man8/laird.8", "usr/local/share/man/man1/lair.1"):
            ensure(os.path.exists(os.path.join(dest, p)) or os.path.exists(os.path.join(dest, p + ".gz")),
                   "%s installed" % p)
        ensure(os.path.exists(os.path.join(dest, "usr/local/sbin/laird")), "laird in sbin")
        ensure(os.path.exists(os.path.join(dest, "usr/local/bin/lair")), "lair in bin")
    finally:
        shutil.rmtree(dest, ignore_errors=True)


@attack
def bad_flags_exit_2(ctx):
    """laird(8) EXIT STATUS: 2 for a bad flag or settings file; nothing starts."""
    laird = os.path.join(BUILD, "laird")
    d = tempfile.mkdtemp(prefix="lair-outside-flags-")
    try:
        db = os.path.join(d, "x.db")
        for args in (["--no-such-flag"], ["--port", "70000"], ["--port", "-1"], ["--max-frame-bytes", "1x"],
                     ["--allowed-origins"], ["--bind", "localhost"], ["--bind", "127.0.0.1:80"],
                     ["--metrics-bind", "localhost:9100"], ["--metrics-bind", "127.0.0.1"],
                     ["--trusted-proxies", "127.0.0.1, proxy.example"], ["--trusted-proxies", "10.0.0.0/99"], ["--log-level", "loud"],
                     ["--rate-burst", "99999999999999999999"]):
            r = run(laird, "--db-path", db, *args)
            ensure(r.returncode == 2, "laird %s: exit 2, got %s (%s)" % (" ".join(args), r.returncode, r.stderr[:200]))
        cfg = os.path.join(d, "c.json")
        for text in ('{"port": 1, "port": 2}', '{"nope": 1}', '{"port": "7777"', '[]', '{"max_send_queue": "1q"}'):
            with open(cfg, "w") as f:
                f.write(text)
            r = run(laird, "--db-path", db, "--config", cfg)
            ensure(r.returncode == 2, "config %s: exit 2, got %s" % (text, r.returncode))
        ensure(not os.path.exists(db), "nothing was created")
    finally:
        shutil.rmtree(d, ignore_errors=True)
