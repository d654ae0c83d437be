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
const { startLaird, runLaird, connect } = require('./lib/laird');

/* Stops laird and checks it exited 0 (under ASan, also: no leak). */
async function stopClean(srv) {
	const r = await srv.stop();
	assert.equal(r.code, 0, `laird exit ${r.code} ${r.signal}:\n${r.output}`);
	return r;
}

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

test('--bind takes an IP address, never a name: a clear error, exit 1', async () => {
	for (const bad of ['localhost', 'lo', '127.0.0.1:80', '1.2.3']) {
		const r = await runLaird(['--bind', bad, '--port', '0', '--db-path',
			`${os.tmpdir()}/lair-never-created.db`]);
		assert.equal(r.code, 1, `--bind ${bad}: ${r.stderr}`);
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

test('--trusted-proxies with a bad entry: a clear error, exit 1', async () => {
	const r = await runLaird(['--trusted-proxies', '127.0.0.1, proxy.example', '--port', '0',
		'--db-path', `${os.tmpdir()}/lair-never-created.db`]);
	assert.equal(r.code, 1, r.stderr);
	assert.match(r.stderr, /trusted_proxies: "proxy\.example" is not an address or CIDR block/);
});
