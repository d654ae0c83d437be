'use strict';
/*
 * deploy.test.js — follows deploy/README.md's walkthrough, "From a fresh
 * Debian 12 host to a public server", block by block, in a sandbox:
 *
 *  - every absolute path of the steps (/etc, /var, /usr/local, ~) lives
 *    under a temporary root, as in a chroot: the blocks' text is rewritten,
 *    `make install` gets DESTDIR, and the sandbox's `systemctl` starts the
 *    installed unit's ExecStart with its paths under the root;
 *  - free loopback ports stand for 7777, 80 and 443, `localhost` for
 *    lair.example.org;
 *  - `sudo`, `apt-get` (it checks the packages are there), `useradd`,
 *    `systemctl` and `journalctl` are small stand-ins on PATH; nginx is
 *    Debian's own, run unprivileged with its own prefix and temp dirs;
 *  - the block marked for certbot (4a) is skipped: 4b, the self-signed
 *    certificate, is taken instead.
 *
 * Then, as a player and an operator would: wss:// through nginx with node's
 * ws and the certificate, a game, a browser's Origin on nginx's non-default
 * port (its own page let in, another site's refused), the admin token from the configured
 * database and its rotation (the old token refused), /metrics and /healthz
 * through nginx, the installed laird's version and manual pages, the unit's
 * `systemd-analyze security` score as the README prints it, and `make
 * uninstall`. Bounded throughout; every process it starts is stopped.
 * DEPLOY_TEST_KEEP=1 keeps the sandbox (its journal, nginx's logs) to look.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const WebSocket = require('ws');
const { LAIRD } = require('./lib/laird');
const { freePort } = require('./lib/port');

const ROOT_DIR = path.resolve(__dirname, '..', '..');
const BUILD = path.relative(ROOT_DIR, path.dirname(LAIRD)) || 'build';

function onPath(cmd) {
	return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

/* The walkthrough's ```sh blocks in order: { text, skip }. */
function walkthrough() {
	const md = fs.readFileSync(path.join(ROOT_DIR, 'deploy', 'README.md'), 'utf8');
	const start = md.indexOf('## From a fresh Debian 12 host');
	assert.ok(start >= 0, 'deploy/README.md has the walkthrough');
	const end = md.indexOf('\n## ', start + 5);
	const part = md.slice(start, end < 0 ? undefined : end);
	const blocks = [];
	const re = /(<!-- deploy\.test\.js: skip[^>]*-->\n)?```sh\n([\s\S]*?)```/g;
	for (let m; (m = re.exec(part));) blocks.push({ skip: Boolean(m[1]), text: m[2] });
	return blocks;
}

/* The stand-ins: sudo, make, apt-get, useradd, systemctl, journalctl. */
function writeShims(sb) {
	const shims = path.join(sb.root, 'shims');
	fs.mkdirSync(shims, { recursive: true });
	const w = (name, body) => fs.writeFileSync(path.join(shims, name), `#!/bin/bash\n${body}\n`, { mode: 0o755 });
	w('sudo', 'while [[ "$1" == -* ]]; do [[ "$1" == -u ]] && shift; shift; done\nexec "$@"');
	w('useradd', 'echo "sandbox: no user made: $*" >&2');
	// make installs the binaries under test as they are (-o): a source
	// edited since they were built must not relink one that other tests run.
	w('make', 'exec /usr/bin/make "$@" -o "$BUILD/laird" -o "$BUILD/lair"');
	w('apt-get', `[ "$1" = install ] || exit 0
shift; missing=""
for p in "$@"; do [[ "$p" == -* ]] && continue
  dpkg-query -W -f='\${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] || { echo "sandbox: not installed:$missing (tests/deps installs them)" >&2; exit 1; }
# what the packages make that the steps rely on
[[ " $* " == *" nginx "* ]] && mkdir -p "${sb.root}/etc/nginx/sites-available" "${sb.root}/etc/nginx/sites-enabled"
exit 0`);
	// laird's compiled-in settings path is /etc/lair/laird.json: the
	// sandbox's, with its database path, as a chroot would have it.
	w('laird', `if [ "$1" = admin-token ] && [[ " $* " != *" --config"* ]]; then
  exec "${sb.root}/usr/local/sbin/laird" "$@" --config "${sb.root}/etc/lair/laird.json" --db-path "${sb.root}/var/lib/lair/lair.db"
fi
exec "${sb.root}/usr/local/sbin/laird" "$@"`);
	w('journalctl', `# the journal keeps a line without its <N> priority prefix
sed -e 's/^<[0-7]>//' "${sb.root}/journal/laird.log"`);
	w('systemctl', `set -e
R="${sb.root}"
start_laird() {
  unit="$R/usr/local/lib/systemd/system/laird.service"
  cmd=$(sed -n 's/^ExecStart=//p' "$unit" | sed -e "s|/usr/local/|$R/usr/local/|g" -e "s|/etc/|$R/etc/|g")
  dir=$(sed -n 's/^WorkingDirectory=//p' "$unit")
  mkdir -p "$R$dir" "$R/journal"
  touch "$R/journal/laird.log"
  # systemd: stderr to the journal ($JOURNAL_STREAM), the state directory;
  # the sandbox: its database path and port.
  (cd "$R$dir"; export JOURNAL_STREAM=$(stat -c '%d:%i' "$R/journal/laird.log")
   exec $cmd --db-path "$R/var/lib/lair/lair.db" --port ${sb.lairdPort} \\
     >>"$R/journal/laird.out" 2>>"$R/journal/laird.log" </dev/null) &
  echo $! >"$R/journal/laird.pid"
  for i in $(seq 200); do
    grep -q "listening on" "$R/journal/laird.out" 2>/dev/null && return 0
    kill -0 $(cat "$R/journal/laird.pid") 2>/dev/null || { cat "$R/journal/laird.log" >&2; return 1; }
    sleep 0.05
  done
  echo "sandbox: laird did not start" >&2; return 1
}
nginx_reload() {
  [ -f "$R/nginx/nginx.pid" ] && kill -HUP $(cat "$R/nginx/nginx.pid") && return 0
  "$R/shims/nginx"
}
case "$*" in
  daemon-reload) ;;
  "enable --now laird"|"start laird") start_laird ;;
  "is-active laird") kill -0 $(cat "$R/journal/laird.pid") && echo active ;;
  "reload nginx"|"restart nginx"|"start nginx") nginx_reload ;;
  *) echo "sandbox: systemctl $* is not modelled" >&2; exit 1 ;;
esac`);
	// nginx: Debian's, with a main file of the sandbox that includes the
	// enabled sites with their ports and paths mapped (127.0.0.1 only; ::1
	// as well when the host has it).
	const six = sb.ipv6 ? '' : "-e '/listen \\[::\\]/d' ";
	const priv = process.getuid && process.getuid() === 0
		? `setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all ` : '';
	w('nginx', `set -e
R="${sb.root}"; N="$R/nginx"
mkdir -p "$N/sites" "$N/tmp"
rm -f "$N/sites/"*
for f in "$R/etc/nginx/sites-enabled/"*; do
  [ -e "$f" ] || continue
  sed -e 's/listen 443 ssl;/listen 127.0.0.1:${sb.httpsPort} ssl;/' -e 's/listen 80;/listen 127.0.0.1:${sb.httpPort};/' \\
      ${six}-e 's/listen \\[::\\]:443 ssl;/listen [::1]:${sb.httpsPort} ssl;/' -e 's/listen \\[::\\]:80;/listen [::1]:${sb.httpPort};/' \\
      -e 's/127\\.0\\.0\\.1:7777/127.0.0.1:${sb.lairdPort}/' -e "s|/etc/|$R/etc/|g" -e "s|/var/www|$R/var/www|g" \\
      "$f" >"$N/sites/$(basename "$f")"
done
cat >"$N/nginx.conf" <<EOF
pid $N/nginx.pid;
error_log $N/error.log;
worker_processes 1;
events { worker_connections 256; }
http {
  access_log $N/access.log;
  client_body_temp_path $N/tmp/body; proxy_temp_path $N/tmp/proxy;
  fastcgi_temp_path $N/tmp/fastcgi; uwsgi_temp_path $N/tmp/uwsgi; scgi_temp_path $N/tmp/scgi;
  include $N/sites/*;
}
EOF
chmod -R a+rwX "$N"; chmod -R a+rX "$R/etc"; chmod a+rx "$R"
if [ "$1" = -t ]; then exec ${priv}/usr/sbin/nginx -t -p "$N" -c "$N/nginx.conf" 2>&1; fi
${priv}/usr/sbin/nginx -p "$N" -c "$N/nginx.conf"`);
	return shims;
}

/* The block as it runs in the sandbox: its absolute paths under the root,
 * the sandbox's ports and host name. */
function sandboxed(sb, text) {
	return text
		.replace(/\\\n/g, ' ')
		.replace(/^HOST=lair\.example\.org\b/m, 'HOST=localhost')
		.replace(/(https|wss):\/\/\$HOST\//g, `$1://$HOST:${sb.httpsPort}/`)
		.replace(/http:\/\/127\.0\.0\.1:7777\//g, `http://127.0.0.1:${sb.lairdPort}/`)
		.replace(/(^|[\s="'])\/(etc|var|usr\/local)\//g, `$1${sb.root}/$2/`);
}

/* What the walkthrough sets in the operator's shell for later steps. */
const KEPT = ['HOST', 'SSL_CERT_FILE', 'CURL_CA_BUNDLE'];

/* Runs one block, line by line as pasted: any line that fails (an `a && b`
 * too, which `set -e` would let pass) fails the step. The variables of KEPT
 * persist from block to block, as in the operator's shell. */
function runBlock(sb, text) {
	const lines = sandboxed(sb, text).split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'))
		.map((l) => `${l} || { echo "failed: ${l.replace(/["$`\\]/g, '\\$&')}" >&2; exit 1; }`);
	const script = `set -o pipefail\n. "${sb.root}/env.sh"\n${lines.join('\n')}\n` +
		`declare -p ${KEPT.join(' ')} 2>/dev/null >"${sb.root}/env.sh"; true\n`;
	const r = spawnSync('bash', ['-c', script], {
		cwd: ROOT_DIR, encoding: 'utf8', timeout: 300000,
		env: { ...process.env, HOME: sb.home, DESTDIR: sb.root, BUILD,
			PATH: `${sb.shims}:${sb.root}/usr/local/sbin:${sb.root}/usr/local/bin:${process.env.PATH}` },
	});
	assert.strictEqual(r.status, 0, `deploy/README.md block failed in the sandbox:\n${text}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
	return r.stdout;
}

function wss(sb, ca, origin) {
	return new Promise((resolve, reject) => {
		const ws = new WebSocket(`wss://localhost:${sb.httpsPort}/`, { ca, family: 4, handshakeTimeout: 10000,
			...(origin ? { origin } : {}) });
		const c = { ws, msgs: [], waiters: [] };
		let id = 1;
		c.req = (type, fields = {}) => new Promise((res, rej) => {
			const my = id++;
			const t = setTimeout(() => rej(new Error(`no reply to ${type}`)), 10000);
			c.waiters.push({ pred: (m) => m.id === my, res: (m) => { clearTimeout(t); res(m); } });
			ws.send(JSON.stringify({ type, id: my, ...fields }));
		});
		c.wait = (pred, ms = 30000) => new Promise((res, rej) => {
			const old = c.msgs.find(pred);
			if (old) return res(old);
			const t = setTimeout(() => rej(new Error('timeout waiting for a message')), ms);
			c.waiters.push({ pred, res: (m) => { clearTimeout(t); res(m); } });
		});
		ws.on('message', (d) => {
			const m = JSON.parse(d.toString());
			c.msgs.push(m);
			c.waiters = c.waiters.filter((w) => (w.pred(m) ? (w.res(m), false) : true));
		});
		ws.on('open', () => resolve(c));
		ws.on('error', reject);
	});
}

test('deploy/README.md, fresh host to TLS behind nginx, followed in a sandbox', async (t) => {
	for (const cmd of ['nginx', 'openssl', 'curl']) {
		if (!onPath(cmd) && !fs.existsSync(`/usr/sbin/${cmd}`)) {
			t.skip(`${cmd} is not installed (tests/deps installs it)`);
			return;
		}
	}
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-e2e-deploy-'));
	const sb = {
		root, home: path.join(root, 'home'),
		lairdPort: await freePort(), httpPort: await freePort(), httpsPort: await freePort(),
		ipv6: await freePort('::1').then(() => true, () => false),
	};
	fs.mkdirSync(sb.home);
	fs.writeFileSync(path.join(root, 'env.sh'), '');
	sb.shims = writeShims(sb);
	const stopAll = () => {
		for (const pidFile of ['journal/laird.pid', 'nginx/nginx.pid']) {
			try {
				process.kill(Number(fs.readFileSync(path.join(root, pidFile), 'utf8')), 'SIGTERM');
			} catch { /* not running */ }
		}
	};
	try {
		const blocks = walkthrough();
		assert.ok(blocks.length >= 6, `walkthrough blocks: ${blocks.length}`);
		assert.ok(blocks.some((b) => b.skip), 'the certbot block is marked');
		const outs = [];
		const tokenFile = path.join(sb.home, 'lair-admin-token');
		const tokens = []; // each admin token the steps wrote, in order
		for (const b of blocks) {
			const t0 = Date.now();
			outs.push(b.skip ? null : runBlock(sb, b.text));
			t.diagnostic(`${b.skip ? 'skipped' : `${Date.now() - t0} ms`}: ${b.text.split('\n')[0]}`);
			const tk = fs.existsSync(tokenFile) && fs.readFileSync(tokenFile, 'utf8').trim();
			if (tk && tk !== tokens[tokens.length - 1]) tokens.push(tk);
		}

		// 1: installed where the README says, and it is the build's laird.
		const laird = path.join(root, 'usr/local/sbin/laird');
		const v = spawnSync(laird, ['--version'], { encoding: 'utf8' }).stdout;
		assert.strictEqual(v, spawnSync(LAIRD, ['--version'], { encoding: 'utf8' }).stdout);
		for (const f of ['usr/local/bin/lair', 'usr/local/share/man/man8/laird.8',
			'usr/local/share/man/man1/lair.1', 'usr/local/lib/systemd/system/laird.service',
			'usr/local/share/doc/lair/deploy/README.md', 'usr/local/share/doc/lair/proto/PROTOCOL.md',
			'etc/lair/laird.json'])
			assert.ok(fs.existsSync(path.join(root, f)), `${f} installed`);
		const unit = fs.readFileSync(path.join(root, 'usr/local/lib/systemd/system/laird.service'), 'utf8');
		assert.match(unit, /^ExecStart=\/usr\/local\/sbin\/laird --config \/etc\/lair\/laird\.json$/m);
		assert.match(unit, /^Type=notify$/m);

		// 3: the first start's token, then the ones admin-token wrote (step 3
		// and the rotation): each replaced the one before.
		const first = (outs.join('\n').match(/ADMIN_TOKEN=([0-9a-f]{64})/) || [])[1];
		assert.ok(first, 'the journal held the first token');
		assert.strictEqual(tokens.length, 2, 'step 3 and the rotation each wrote a token');
		for (const tk of tokens) assert.match(tk, /^[0-9a-f]{64}$/);
		assert.ok(!tokens.includes(first) && tokens[0] !== tokens[1]);
		// it went into the service's database, under the sandbox's /var/lib
		assert.ok(fs.existsSync(path.join(root, 'var/lib/lair/lair.db')));

		// 4b + 5: through nginx with TLS, as a player and as the admin.
		const ca = fs.readFileSync(path.join(sb.home, 'lair-cert.pem'));
		assert.match(outs.join('\n'), /^ok$/m, 'curl /healthz through nginx said ok');
		for (const old of [first, tokens[0]]) {
			const bad = await wss(sb, ca);
			assert.strictEqual((await bad.req('hello', { protocol: 1, token: old })).code, 'bad_token',
				'a rotated token is refused');
			bad.ws.close();
		}
		const admin = await wss(sb, ca);
		const w = await admin.req('hello', { protocol: 1, token: tokens[1], client: 'deploy-test' });
		assert.strictEqual(w.type, 'welcome');
		assert.strictEqual(w.player.admin, true);
		const player = await wss(sb, ca);
		await player.req('hello', { protocol: 1, name: 'traveller' });
		const snap = await player.req('table_create', { kind: 'gems', seats: 2, ai: 2, start: true, pacing_ms: 0 });
		assert.strictEqual(snap.type, 'table');
		await player.wait((m) => m.type === 'result' && m.table === snap.table, 120000);
		const st = await admin.req('admin_stats');
		assert.strictEqual(st.type, 'admin_stats');
		assert.ok(st.games_finished >= 1);
		// laird saw the player's address from nginx (X-Forwarded-For)
		const journal = fs.readFileSync(path.join(root, 'journal/laird.log'), 'utf8');
		assert.match(journal, /^<6>info  app: player traveller \(\d+\) created, conn \d+ from 127\.0\.0\.1, client ""$/m);
		assert.match(journal, /client "deploy-test"/);

		// /healthz and /metrics through nginx (/metrics: loopback is allowed)
		for (const [p, re] of [['/healthz', /^ok/], ['/metrics', /lair_build_info\{/]]) {
			const r = spawnSync('curl', ['-fsS', '--cacert', path.join(sb.home, 'lair-cert.pem'),
				`https://localhost:${sb.httpsPort}${p}`], { encoding: 'utf8', timeout: 20000 });
			assert.strictEqual(r.status, 0, r.stderr);
			assert.match(r.stdout, re);
		}
		for (const c of [admin, player]) c.ws.close();

		// A browser on the page nginx serves, on a port other than 443: its
		// Origin carries the port, and laird's own-origin check compares it
		// with the Host nginx passes on (the port kept). Another site's page
		// is refused.
		const page = await wss(sb, ca, `https://localhost:${sb.httpsPort}`);
		assert.strictEqual((await page.req('ping')).type, 'pong');
		page.ws.close();
		await assert.rejects(wss(sb, ca, 'https://evil.example'), /Unexpected server response: 403/);
		await assert.rejects(wss(sb, ca, 'https://localhost'), /Unexpected server response: 403/);

		// The unit's exposure as deploy/README.md prints it.
		if (!onPath('systemd-analyze')) {
			t.diagnostic('systemd-analyze not installed: the unit\'s score is not checked');
		} else {
			const md = fs.readFileSync(path.join(ROOT_DIR, 'deploy', 'README.md'), 'utf8');
			const said = (md.match(/overall exposure level for laird\.service: (\d+\.\d) /i) || [])[1];
			assert.ok(said, 'deploy/README.md prints the unit\'s score');
			const r = spawnSync('systemd-analyze', ['security', '--offline=true', '--no-pager',
				path.join(root, 'usr/local/lib/systemd/system/laird.service')], { encoding: 'utf8' });
			const got = (r.stdout.match(/Overall exposure level for laird\.service: (\d+\.\d)/) || [])[1];
			assert.strictEqual(got, said, `systemd-analyze security says ${got}:\n${r.stdout.slice(-400)}`);
		}

		// make uninstall: the programs go, the settings and the database stay.
		stopAll();
		const u = spawnSync('make', ['uninstall', `BUILD=${BUILD}`], {
			cwd: ROOT_DIR, encoding: 'utf8', env: { ...process.env, DESTDIR: root } });
		assert.strictEqual(u.status, 0, u.stderr);
		assert.ok(!fs.existsSync(laird));
		assert.ok(!fs.existsSync(path.join(root, 'usr/local/share/man/man8/laird.8')));
		assert.ok(!fs.existsSync(path.join(root, 'usr/local/share/doc/lair')));
		assert.ok(fs.existsSync(path.join(root, 'etc/lair/laird.json')));
		assert.ok(fs.existsSync(path.join(root, 'var/lib/lair/lair.db')));
	} finally {
		stopAll();
		if (!process.env.DEPLOY_TEST_KEEP) fs.rmSync(root, { recursive: true, force: true });
	}
});
