'use strict';
/*
 * security.test.js — laird on a public host, attacked end to end: a real
 * laird, real sockets. Covers where laird listens (exactly the --bind
 * address, checked in the kernel's own socket table), whose
 * X-Forwarded-For is believed (--trusted-proxies only).
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const { startLaird, runLaird, connect, stopClean } = require('./lib/laird');
const { freePort } = require('./lib/port');

/* The sockets of process pid that listen on TCP, as the kernel has them:
 * the socket inodes among /proc/PID/fd, looked up in /proc/net/tcp{,6}. */
function listeningSockets(pid) {
	const inodes = new Set();
	for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
		let link;
		try {
			link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
		} catch {
			continue; // closed meanwhile
		}
		const m = link.match(/^socket:\[(\d+)\]$/);
		if (m) inodes.add(m[1]);
	}
	const found = [];
	for (const [file, v6] of [['/proc/net/tcp', false], ['/proc/net/tcp6', true]]) {
		let text = '';
		try {
			text = fs.readFileSync(file, 'utf8');
		} catch {
			continue; // no IPv6 in this kernel
		}
		for (const line of text.split('\n').slice(1)) {
			const f = line.trim().split(/\s+/);
			if (f.length < 10 || f[3] !== '0A' || !inodes.has(f[9])) continue; // 0A: LISTEN
			const [hexAddr, hexPort] = f[1].split(':');
			found.push({ addr: procAddr(hexAddr, v6), port: parseInt(hexPort, 16) });
		}
	}
	return found;
}

/* /proc/net/tcp prints addresses as 32-bit words in host (little-endian) order. */
function procAddr(hex, v6) {
	const bytes = [];
	for (let w = 0; w < hex.length; w += 8) {
		const word = hex.slice(w, w + 8);
		for (let i = 6; i >= 0; i -= 2) bytes.push(parseInt(word.slice(i, i + 2), 16));
	}
	if (!v6) return bytes.join('.');
	const groups = [];
	for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
	return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::').replace(/:::+/, '::');
}

/* Resolves true when a TCP connection to host:port is accepted. */
function canConnect(host, port) {
	return new Promise((resolve) => {
		const s = net.connect({ host, port, timeout: 3000 });
		s.once('connect', () => {
			s.destroy();
			resolve(true);
		});
		s.once('error', () => resolve(false));
		s.once('timeout', () => {
			s.destroy();
			resolve(false);
		});
	});
}

function hasIPv6Loopback() {
	return Object.values(os.networkInterfaces()).flat()
		.some((i) => i && i.family === 'IPv6' && i.address === '::1');
}

test('--bind 127.0.0.1 listens on 127.0.0.1 only (the kernel says so), and says where', async () => {
	const srv = await startLaird({ args: ['--bind', '127.0.0.1'] });
	try {
		const socks = listeningSockets(srv.proc.pid);
		assert.deepEqual(socks, [{ addr: '127.0.0.1', port: srv.port }],
			`laird listens on ${JSON.stringify(socks)}`);
		assert.match(srv.output(), new RegExp(`listening on 127\\.0\\.0\\.1:${srv.port}\\b`));
		// Another loopback address of this host reaches nothing.
		assert.equal(await canConnect('127.0.0.2', srv.port), false, '127.0.0.2 answered');
		// Nor does any other address the host has.
		for (const i of Object.values(os.networkInterfaces()).flat()) {
			if (!i || i.internal) continue;
			assert.equal(await canConnect(i.address, srv.port), false, `${i.address} answered`);
		}
		assert.equal((await srv.get('/healthz')).status, 200);
	} finally {
		await stopClean(srv);
	}
});

test('--bind ::1 listens on ::1 only', { skip: !hasIPv6Loopback() && 'no IPv6 loopback' },
	async () => {
		const srv = await startLaird({ args: ['--bind', '::1'] });
		try {
			const socks = listeningSockets(srv.proc.pid);
			assert.deepEqual(socks, [{ addr: '::1', port: srv.port }],
				`laird listens on ${JSON.stringify(socks)}`);
			assert.match(srv.output(), new RegExp(`listening on \\[::1\\]:${srv.port}\\b`));
			assert.equal(await canConnect('127.0.0.1', srv.port), false, 'IPv4 answered');
			assert.equal(srv.url, `ws://[::1]:${srv.port}/`);
			const c = await connect(srv.url);
			c.close();
		} finally {
			await stopClean(srv);
		}
	});

test('--bind takes an IP address, never a name: a clear error, exit 2 (a bad setting)', async () => {
	for (const bad of ['localhost', 'lo', '127.0.0.1:80', '1.2.3']) {
		const r = await runLaird(['--bind', bad, '--port', '0', '--db-path',
			`${os.tmpdir()}/lair-never-created.db`]);
		assert.equal(r.code, 2, `--bind ${bad}: ${r.stderr}`);
		assert.match(r.stderr, new RegExp(`"${bad.replace(/\./g, '\\.')}" is not an IP address`));
	}
});

/* X-Forwarded-For as a client writes it itself. */
const xff = (v) => ({ headers: { 'X-Forwarded-For': v } });

test('trust_proxy: a direct connection from an untrusted peer cannot forge its address', async () => {
	// Our test client is 127.0.0.1, which is not among the trusted proxies.
	const srv = await startLaird({ args: ['--trust-proxy', '--trusted-proxies', '10.0.0.0/8',
		'--max-conns-per-ip', '1'] });
	try {
		const a = await connect(srv.url, xff('192.0.2.1'));
		const b = await connect(srv.url, xff('192.0.2.2')); // another "address": ignored
		assert.deepEqual(await b.waitClose(),
			{ code: 1013, reason: 'too many connections from your address' });
		assert.equal(a.ws.readyState, 1);
		a.close();
	} finally {
		await stopClean(srv);
	}
});

test('trust_proxy: behind a trusted proxy the last untrusted hop is the client', async () => {
	const srv = await startLaird({ args: ['--trust-proxy', '--trusted-proxies',
		'127.0.0.1, 10.0.0.0/8', '--max-conns-per-ip', '1'] });
	try {
		// What the client wrote comes first; each proxy appended what it saw.
		const a = await connect(srv.url, xff('6.6.6.6, 198.51.100.7'));
		const b = await connect(srv.url, xff('7.7.7.7, 198.51.100.7'));
		assert.equal((await b.waitClose()).code, 1013, 'the same client behind the proxy');
		// Through two trusted proxies (10.1.2.3 and us): still the client.
		const c = await connect(srv.url, xff('8.8.8.8, 198.51.100.7, 10.1.2.3'));
		assert.equal((await c.waitClose()).code, 1013, 'a trusted hop is skipped');
		const d = await connect(srv.url, xff('198.51.100.7, 198.51.100.8'));
		assert.equal(a.ws.readyState, 1);
		assert.equal(d.ws.readyState, 1);
		a.close();
		d.close();
	} finally {
		await stopClean(srv);
	}
});

test('--trusted-proxies with a bad entry: a clear error, exit 2 (a bad setting)', async () => {
	const r = await runLaird(['--trusted-proxies', '127.0.0.1, proxy.example', '--port', '0',
		'--db-path', `${os.tmpdir()}/lair-never-created.db`]);
	assert.equal(r.code, 2, r.stderr);
	assert.match(r.stderr, /trusted_proxies: "proxy\.example" is not an address or CIDR block/);
});

/* ---- /healthz and /metrics: exact targets, one answer per connection ---- */

/* Sends text on a new TCP connection; resolves with all that came back
 * before the server closed (or ms passed). */
/* Whether text holds a whole HTTP response: its head, then the body its
 * Content-Length or chunked encoding says (a response without either ends
 * with the connection). */
function responseComplete(text) {
	const end = text.indexOf('\r\n\r\n');
	if (end < 0) return false;
	const head = text.slice(0, end);
	const body = text.slice(end + 4);
	if (/^HTTP\/1\.[01] (1\d\d|204|304)/.test(head)) return true;
	const len = head.match(/\r\ncontent-length: *(\d+)/i);
	if (len) return body.length >= Number(len[1]);
	if (/\r\ntransfer-encoding: *chunked/i.test(head)) return /(^|\r\n)0\r\n\r\n$/.test(body);
	return false;
}

/* Requests on a fresh connection: everything that came back before the
 * connection closed (or ms passed). With oneResponse, the first response
 * once it is whole: a server that keeps the connection open, as nginx
 * does, is not waited for. */
function rawHttp(port, text, { host = '127.0.0.1', ms = 5000, oneResponse = false } = {}) {
	return new Promise((resolve, reject) => {
		const s = net.connect({ host, port });
		let got = '';
		const timer = setTimeout(() => {
			s.destroy();
			resolve(got);
		}, ms);
		s.on('connect', () => s.write(text));
		s.on('data', (d) => {
			got += d.toString('latin1');
			if (oneResponse && responseComplete(got)) {
				clearTimeout(timer);
				s.destroy();
				resolve(got);
			}
		});
		s.on('close', () => {
			clearTimeout(timer);
			resolve(got);
		});
		s.on('error', (e) => {
			clearTimeout(timer);
			if (got) resolve(got);
			else reject(e);
		});
	});
}

const get = (target, extra = '') => `GET ${target} HTTP/1.1\r\nHost: lair\r\n${extra}\r\n`;
const statusOf = (reply) => Number((reply.match(/^HTTP\/1\.1 (\d{3})/) || [])[1]);

/* Targets that lws reads as /metrics or /healthz, and a proxy matching
 * "= /metrics" does not. */
const WALK_AROUNDS = ['/metrics;x', '/metrics;', '/metrics/x/..', '//metrics', '/./metrics',
	'/%6detrics', '/x/../metrics', '/healthz;x', '/healthz/.'];

test('/healthz and /metrics answer their exact target only; every walk-around is a 404', async () => {
	const srv = await startLaird();
	try {
		let r = await rawHttp(srv.port, get('/metrics'));
		assert.equal(statusOf(r), 200);
		assert.match(r, /\r\nconnection: close\r\n/i);
		assert.match(r, /lair_connections /);
		r = await rawHttp(srv.port, get('/metrics?name[]=x'));
		assert.equal(statusOf(r), 200, 'a query string is not part of the path');
		assert.equal(statusOf(await rawHttp(srv.port, get('/healthz'))), 200);
		for (const target of WALK_AROUNDS) {
			r = await rawHttp(srv.port, get(target));
			assert.equal(statusOf(r), 404, `${target}: ${r.slice(0, 200)}`);
			assert.doesNotMatch(r, /lair_connections/, target);
		}
	} finally {
		await stopClean(srv);
	}
});

test('a connection gets one /metrics answer, then is closed: a second request on it never is', async () => {
	const srv = await startLaird();
	try {
		// Pipelined: the second request would be read by lws alone.
		const r = await rawHttp(srv.port, get('/healthz') + get('/metrics;x') + get('/metrics'));
		assert.equal((r.match(/HTTP\/1\.1 /g) || []).length, 1, r);
		assert.equal(statusOf(r), 200);
		assert.doesNotMatch(r, /lair_connections/);
	} finally {
		await stopClean(srv);
	}
});

test('an Upgrade other than websocket (h2c) is refused, never switched to', async () => {
	const srv = await startLaird();
	try {
		const h2c = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n' +
			'HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n';
		for (const target of ['/', '/metrics', '/healthz']) {
			const r = await rawHttp(srv.port, get(target, h2c) +
				'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
			assert.equal(statusOf(r), 400, `${target}: ${r.slice(0, 200)}`);
			assert.doesNotMatch(r, /lair_connections/);
		}
		// HTTP/2 with prior knowledge is no request laird reads either.
		assert.equal(statusOf(await rawHttp(srv.port, 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')), 400);
		// A plain GET still works, and so does a WebSocket.
		assert.equal(statusOf(await rawHttp(srv.port, get('/healthz'))), 200);
		const c = await connect(srv.url);
		c.close();
	} finally {
		await stopClean(srv);
	}
});

test('--metrics-bind: /metrics on that listener only; the public port answers 404 there', async () => {
	const srv = await startLaird({ args: ['--metrics-bind', '127.0.0.1:0'] });
	try {
		const m = await srv.waitForOutput(/metrics on 127\.0\.0\.1:(\d+)/);
		const mport = Number(m[1]);
		assert.notEqual(mport, srv.port);
		let r = await rawHttp(mport, get('/metrics'));
		assert.equal(statusOf(r), 200);
		assert.match(r, /lair_connections /);
		assert.equal(statusOf(await rawHttp(mport, get('/healthz'))), 200);
		for (const target of ['/', '/index.html', ...WALK_AROUNDS])
			assert.equal(statusOf(await rawHttp(mport, get(target))), 404, target);
		// The public port: 404 on /metrics, the rest as usual.
		r = await rawHttp(srv.port, get('/metrics'));
		assert.equal(statusOf(r), 404);
		assert.doesNotMatch(r, /lair_connections/);
		assert.equal(statusOf(await rawHttp(srv.port, get('/healthz'))), 200);
		// No WebSocket on the metrics listener.
		await assert.rejects(connect(`ws://127.0.0.1:${mport}/`), /HTTP 400/);
		const c = await connect(srv.url);
		c.close();
		// It listens where it was told, like the public port.
		const socks = listeningSockets(srv.proc.pid).map((s) => `${s.addr}:${s.port}`).sort();
		assert.deepEqual(socks, [`127.0.0.1:${srv.port}`, `127.0.0.1:${mport}`].sort());
	} finally {
		await stopClean(srv);
	}
});

test('--metrics-bind must be ADDR:PORT: a clear error, exit 2 (a bad setting)', async () => {
	const r = await runLaird(['--metrics-bind', '9100', '--port', '0', '--db-path',
		`${os.tmpdir()}/lair-never-created.db`]);
	assert.equal(r.code, 2, r.stderr);
	assert.match(r.stderr, /metrics_bind: "9100" is not ADDR:PORT/);
});

/* ---- the shipped nginx config in front of a real laird ---- */

function hasNginx() {
	return ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
}

/* deploy/nginx-lair.conf's maps, upstream and TLS server, on plain HTTP
 * (certificates are not what is tested here), laird as the upstream, and
 * 127.0.0.1 taken out of the /metrics allow-list: the test client is then
 * an outsider. */
function nginxConfig(dir, port, lairdPort) {
	const src = fs.readFileSync(require('node:path').join(__dirname, '..', '..', 'deploy',
		'nginx-lair.conf'), 'utf8');
	const servers = src.split(/^server \{$/m);
	const head = servers[0].replace(/server 127\.0\.0\.1:7777;/, `server 127.0.0.1:${lairdPort};`);
	const tls = servers.find((b) => /listen 443 ssl;/.test(b));
	assert.ok(tls, 'the TLS server block of nginx-lair.conf');
	const body = tls.split('\n')
		.filter((l) => !/^\s*(ssl_|add_header|listen \[::\])/.test(l) && !/allow 127\.0\.0\.1;/.test(l))
		.join('\n')
		.replace(/listen 443 ssl;/, `listen 127.0.0.1:${port};`);
	for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
		fs.mkdirSync(`${dir}/${d}`, { recursive: true, mode: 0o777 });
	return `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n` +
		`access_log off;\nclient_body_temp_path ${dir}/body;\nproxy_temp_path ${dir}/proxy;\n` +
		`fastcgi_temp_path ${dir}/fastcgi;\nuwsgi_temp_path ${dir}/uwsgi;\n` +
		`scgi_temp_path ${dir}/scgi;\n${head}\nserver {${body}\n}\n`;
}

test('nginx with deploy/nginx-lair.conf: no walk-around reaches /metrics, h2c is not passed on',
	{ skip: !hasNginx() && 'nginx not installed' }, async () => {
		const srv = await startLaird();
		const dir = fs.mkdtempSync(`${os.tmpdir()}/lair-nginx-`);
		fs.chmodSync(dir, 0o777);
		const port = await freePort();
		fs.writeFileSync(`${dir}/nginx.conf`, nginxConfig(dir, port, srv.port));
		const ngx = require('node:child_process').spawn(hasNginx(),
			['-c', `${dir}/nginx.conf`, '-p', dir, '-g', 'daemon off;'],
			{ stdio: ['ignore', 'ignore', 'pipe'] });
		let ngxErr = '';
		ngx.stderr.on('data', (d) => (ngxErr += d));
		try {
			const deadline = Date.now() + 10000;
			while (!(await canConnect('127.0.0.1', port))) {
				assert.ok(Date.now() < deadline && ngx.exitCode === null, `nginx: ${ngxErr}`);
				await new Promise((r) => setTimeout(r, 20)); // poll interval
			}
			// The allow-list holds for the exact path...
			const one = { oneResponse: true }; // nginx keeps each connection open
			assert.equal(statusOf(await rawHttp(port, get('/metrics'), one)), 403);
			// ...and nothing else gets metrics out of laird.
			for (const target of WALK_AROUNDS) {
				const r = await rawHttp(port, get(target), one);
				assert.notEqual(statusOf(r), 200, `${target}: ${r.slice(0, 300)}`);
				assert.doesNotMatch(r, /lair_connections/, target);
			}
			// h2c: nginx passes no Upgrade but websocket; laird would refuse it too.
			const r = await rawHttp(port, get('/', 'Connection: Upgrade, HTTP2-Settings\r\n' +
				'Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n'), one);
			assert.equal(statusOf(r), 200, `laird saw a plain GET /: ${r.slice(0, 300)}`);
			assert.doesNotMatch(r, /upgrade: h2c/i);
			// A WebSocket through nginx works, and counts the client, not nginx.
			const c = await connect(`ws://127.0.0.1:${port}/`);
			c.send({ type: 'ping', id: 1 });
			assert.equal((await c.waitFor((m) => m.id === 1)).type, 'pong');
			c.close();
			// A browser's page on nginx's port (not 80 or 443): laird sees
			// the Host with its port, so the page's Origin is its own.
			const b = await connect(`ws://127.0.0.1:${port}/`, { headers: { Origin: `http://127.0.0.1:${port}` } });
			b.close();
			await assert.rejects(connect(`ws://127.0.0.1:${port}/`, { headers: { Origin: 'http://127.0.0.1' } }), /403/);
		} finally {
			ngx.kill('SIGTERM');
			await new Promise((r) => (ngx.exitCode !== null ? r() : ngx.once('exit', r)));
			fs.rmSync(dir, { recursive: true, force: true });
			await stopClean(srv);
		}
	});
