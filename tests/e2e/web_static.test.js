'use strict';
/*
 * web_static.test.js — laird serving the browser client at / (from the
 * files built into it, and from --web-root DIR), as a stranger's HTTP client
 * sees it: content types, the Content-Security-Policy, ETag/Last-Modified
 * and 304s, gzip when accepted; the attacks on the paths (.., %2e%2e, NUL,
 * very long, symlinks out of the root) over raw sockets so that no client
 * library tidies them first; and the Origin check on WebSocket upgrades
 * (--allowed-origins). The browser itself is in browser.test.js.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const zlib = require('node:zlib');
const WebSocket = require('ws');
const { startLaird, runLaird } = require('./lib/laird');

const WEB = path.resolve(__dirname, '..', '..', 'web');

/* GET with our own headers; the body as a Buffer (not decoded). */
function get(srv, p, headers = {}) {
	return new Promise((resolve, reject) => {
		const req = http.get({ host: '127.0.0.1', port: srv.port, path: p, headers,
			agent: false, timeout: 5000 }, (res) => {
			const chunks = [];
			res.on('data', (d) => chunks.push(d));
			res.on('end', () => resolve({ status: res.statusCode, headers: res.headers,
				body: Buffer.concat(chunks) }));
		});
		req.on('timeout', () => req.destroy(new Error(`GET ${p}: timeout`)));
		req.on('error', reject);
	});
}

/* Sends one request line as is over a raw socket; resolves with what came
 * back (possibly nothing: the server may just close). */
function rawRequest(srv, target) {
	return new Promise((resolve, reject) => {
		const s = net.connect(srv.port, '127.0.0.1');
		let got = '';
		const timer = setTimeout(() => {
			s.destroy();
			reject(new Error(`raw ${target.slice(0, 60)}: no answer and no close`));
		}, 5000);
		s.on('data', (d) => {
			got += d.toString('latin1');
			// One answer is enough: stop at the end of its body.
			const m = got.match(/content-length: (\d+)\r\n[\s\S]*?\r\n\r\n/i);
			if (m && got.length >= got.indexOf('\r\n\r\n') + 4 + Number(m[1])) s.end();
		});
		s.on('error', () => {}); // a reset is an answer too
		s.on('close', () => {
			clearTimeout(timer);
			resolve(got);
		});
		s.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\n\r\n`);
	});
}

function statusOf(raw) {
	const m = raw.match(/^HTTP\/1\.1 (\d{3})/);
	return m ? Number(m[1]) : null; // null: closed without an answer
}

/* Every file of web/ the Makefile embeds, as URL paths. */
function webFiles(dir = WEB, prefix = '') {
	let out = [];
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const rel = prefix + e.name;
		if (e.isDirectory()) out = out.concat(webFiles(path.join(dir, e.name), rel + '/'));
		else if (rel !== 'embed.sh' && rel !== 'README.md') out.push(rel);
	}
	return out;
}

function wsOpen(url, origin) {
	return new Promise((resolve) => {
		const ws = new WebSocket(url, origin ? { origin } : {});
		ws.on('open', () => {
			ws.close();
			resolve('open');
		});
		ws.on('unexpected-response', (req, res) => {
			req.destroy();
			resolve(res.statusCode);
		});
		ws.on('error', (e) => resolve(`error ${e.message}`));
	});
}

async function stopClean(srv) {
	const r = await srv.stop();
	assert.equal(r.code, 0, `laird exit ${r.code} ${r.signal}:\n${r.output}`);
}

test('the built-in client: types, CSP, ETag and 304, gzip, every file byte for byte', async () => {
	const srv = await startLaird();
	try {
		const r = await get(srv, '/');
		assert.equal(r.status, 200);
		assert.equal(r.headers['content-type'], 'text/html; charset=utf-8');
		assert.deepEqual(r.body, fs.readFileSync(path.join(WEB, 'index.html')));
		const csp = r.headers['content-security-policy'];
		assert.match(csp, /default-src 'none'/);
		assert.match(csp, /script-src 'self'(;|$)/);
		assert.match(csp, /connect-src 'self'/);
		assert.match(csp, /frame-ancestors 'none'/);
		assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
		assert.equal(r.headers['x-content-type-options'], 'nosniff');
		assert.match(r.headers.etag, /^"[0-9a-f]+"$/);
		assert.ok(!Number.isNaN(Date.parse(r.headers['last-modified'])));
		assert.equal(r.headers.vary, 'Accept-Encoding');
		assert.equal(r.headers['content-encoding'], undefined);

		// Revalidation: the same tag (also in a list, or weak), or a date
		// not before Last-Modified, is a 304 without a body.
		for (const h of [{ 'if-none-match': r.headers.etag },
			{ 'if-none-match': `"nope", W/${r.headers.etag}` },
			{ 'if-modified-since': r.headers['last-modified'] }]) {
			const n = await get(srv, '/index.html', h);
			assert.equal(n.status, 304, JSON.stringify(h));
			assert.equal(n.body.length, 0);
			assert.equal(n.headers.etag, r.headers.etag);
		}
		assert.equal((await get(srv, '/', { 'if-none-match': '"other"' })).status, 200);
		assert.equal((await get(srv, '/', {
			'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status, 200);

		// gzip when accepted (and smaller): the same bytes once inflated.
		const z = await get(srv, '/', { 'accept-encoding': 'gzip, br' });
		assert.equal(z.headers['content-encoding'], 'gzip');
		assert.ok(z.body.length < r.body.length);
		assert.deepEqual(zlib.gunzipSync(z.body), r.body);
		assert.notEqual(z.headers.etag, r.headers.etag);
		assert.equal((await get(srv, '/', { 'accept-encoding': 'gzip',
			'if-none-match': z.headers.etag })).status, 304);
		const q0 = await get(srv, '/', { 'accept-encoding': 'gzip;q=0' });
		assert.equal(q0.headers['content-encoding'], undefined);

		const types = { html: /^text\/html/, js: /^text\/javascript/, css: /^text\/css/,
			svg: /^image\/svg\+xml$/, png: /^image\/png$/ };
		for (const f of webFiles()) {
			const a = await get(srv, '/' + f, { 'accept-encoding': 'gzip' });
			assert.equal(a.status, 200, f);
			const body = a.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(a.body) : a.body;
			assert.deepEqual(body, fs.readFileSync(path.join(WEB, f)), f);
			const ext = f.split('.').pop();
			if (types[ext]) assert.match(a.headers['content-type'], types[ext], f);
			assert.ok(a.headers['content-security-policy'], f);
		}
		const miss = await get(srv, '/no-such-file.js');
		assert.equal(miss.status, 404);
		assert.equal((await get(srv, '/healthz')).body.toString(), 'ok\n');
	} finally {
		await stopClean(srv);
	}
});

/* What a hostile client sends to reach a file outside the root. None may
 * show a byte from outside: the answer is a 4xx, a close, or (where lws
 * itself folds "/.." or a decoded NUL back to "/") the root's own index;
 * laird stays up and healthy. */
const ATTACKS = [
	'/..', '/../../../../etc/passwd', '/js/../../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd',
	'/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/js/..%2f..%2f..%2fetc%2fpasswd', '/%252e%252e/etc/passwd',
	'/..%5c..%5cetc%5cpasswd', '/..\\..\\etc\\passwd', '/index.html%00.png', '/%00',
	'/.%00./etc/passwd', '/./././etc/passwd', '//etc/passwd', '/.git/config',
	'/%c0%ae%c0%ae/etc/passwd', '/' + 'a/'.repeat(1500) + 'x', '/' + 'x'.repeat(3000),
	'/' + '../'.repeat(300) + 'etc/passwd',
];

async function attack(srv, index) {
	for (const a of ATTACKS) {
		const raw = await rawRequest(srv, a);
		const st = statusOf(raw);
		const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
		assert.ok(st === null || (st >= 400 && st < 500) || (st === 200 && body === index),
			`${a.slice(0, 50)} -> ${st}`);
		assert.doesNotMatch(raw, /root:|secret-outside/, a.slice(0, 50));
	}
	// A very long request line (beyond lws's header space) is dropped, not served.
	const huge = await rawRequest(srv, '/' + 'y'.repeat(100000));
	assert.ok(statusOf(huge) === null || statusOf(huge) >= 400);
	assert.equal((await get(srv, '/healthz')).status, 200);
}

test('the start-up line says what the public port serves: the client at /, and /metrics unless moved', async () => {
	let srv = await startLaird();
	try {
		assert.match(srv.output(), new RegExp(`^laird: listening on 127\\.0\\.0\\.1:${srv.port} ` +
			'\\(WebSocket; HTTP /healthz /metrics, the web client at /\\)$', 'm'));
		assert.equal((await get(srv, '/')).status, 200);
		assert.equal((await get(srv, '/metrics')).status, 200);
	} finally {
		await stopClean(srv);
	}
	srv = await startLaird({ args: ['--metrics-bind', '127.0.0.1:0'] });
	try {
		const m = await srv.waitForOutput(/^laird: metrics on 127\.0\.0\.1:(\d+) \(HTTP \/metrics \/healthz\)$/m);
		assert.match(srv.output(), new RegExp(`^laird: listening on 127\\.0\\.0\\.1:${srv.port} ` +
			'\\(WebSocket; HTTP /healthz, the web client at /\\)$', 'm'));
		assert.equal((await get(srv, '/metrics')).status, 404); // as the line says
		assert.equal((await get({ port: Number(m[1]) }, '/metrics')).status, 200);
	} finally {
		await stopClean(srv);
	}
});

test('the path attacks on the built-in client', async () => {
	const srv = await startLaird();
	try {
		await attack(srv, fs.readFileSync(path.join(WEB, 'index.html'), 'latin1'));
	} finally {
		await stopClean(srv);
	}
});

test('--web-root DIR: its files, edits seen at once, no way out of it', async () => {
	const top = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-webroot-'));
	const root = path.join(top, 'root');
	fs.mkdirSync(path.join(root, 'js'), { recursive: true });
	fs.writeFileSync(path.join(top, 'secret.txt'), 'secret-outside\n');
	fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><p>mine</p>\n');
	fs.writeFileSync(path.join(root, 'js', 'a.js'), 'export const a = 1;\n');
	fs.symlinkSync(path.join(top, 'secret.txt'), path.join(root, 'leak.txt'));
	fs.symlinkSync(top, path.join(root, 'up'));
	fs.symlinkSync('index.html', path.join(root, 'alias.html'));
	const srv = await startLaird({ args: ['--web-root', root] });
	try {
		const r = await get(srv, '/');
		assert.equal(r.status, 200);
		assert.equal(r.body.toString(), '<!doctype html><p>mine</p>\n');
		assert.match(r.headers['content-security-policy'], /script-src 'self'/);
		assert.equal((await get(srv, '/', { 'if-none-match': r.headers.etag })).status, 304);
		const js = await get(srv, '/js/a.js');
		assert.match(js.headers['content-type'], /^text\/javascript/);
		assert.equal((await get(srv, '/alias.html')).status, 200); // a link inside stays inside
		assert.equal((await get(srv, '/leak.txt')).status, 404);
		assert.equal((await get(srv, '/up/secret.txt')).status, 404);
		assert.equal((await get(srv, '/js')).status, 404); // a directory is not a file
		await attack(srv, '<!doctype html><p>mine</p>\n');

		// An edit shows at the next request, with a new tag.
		fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><p>edited, longer</p>\n');
		const e = await get(srv, '/', { 'if-none-match': r.headers.etag });
		assert.equal(e.status, 200);
		assert.match(e.body.toString(), /edited/);
		assert.notEqual(e.headers.etag, r.headers.etag);
	} finally {
		await stopClean(srv);
		fs.rmSync(top, { recursive: true, force: true });
	}
	const bad = await runLaird(['--port', '0', '--web-root', path.join(top, 'gone')]);
	assert.notEqual(bad.code, 0);
	assert.match(bad.stderr, /web-root .*not a directory/);
});

test('Origin: a foreign page is refused the WebSocket; its own page and non-browsers are not', async () => {
	let srv = await startLaird();
	try {
		assert.equal(await wsOpen(srv.url), 'open');                          // no Origin
		assert.equal(await wsOpen(srv.url, `http://127.0.0.1:${srv.port}`), 'open');
		assert.equal(await wsOpen(srv.url, 'http://evil.example'), 403);
		assert.equal(await wsOpen(srv.url, `http://127.0.0.1:${srv.port + 1}`), 403);
		assert.equal(await wsOpen(srv.url, 'null'), 403);
		const m = await get(srv, '/metrics');
		assert.match(m.body.toString(), /lair_connections_refused_total\{reason="origin"\} 3\n/);
	} finally {
		await stopClean(srv);
	}
	srv = await startLaird({ args: ['--allowed-origins', 'https://lair.example.org, http://localhost:9'] });
	try {
		assert.equal(await wsOpen(srv.url, 'https://lair.example.org'), 'open');
		assert.equal(await wsOpen(srv.url, 'http://localhost:9'), 'open');
		assert.equal(await wsOpen(srv.url, `http://127.0.0.1:${srv.port}`), 403); // not listed
		assert.equal(await wsOpen(srv.url), 'open');
	} finally {
		await stopClean(srv);
	}
	const bad = await runLaird(['--port', '0', '--allowed-origins', 'lair.example.org']);
	assert.notEqual(bad.code, 0);
	assert.match(bad.stderr, /allowed_origins: "lair.example.org" is not an origin/);
});
