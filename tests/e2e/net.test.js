'use strict';
/*
 * net.test.js — laird's network layer end to end: a real laird on a free
 * loopback port, real WebSocket clients (ws). Covers HTTP (/healthz,
 * /metrics, 404), draining and shutdown (1001), the frame limits (1009,
 * fragments, binary 1003, bad UTF-8 1007), the rate limit (rate_limited,
 * 1008 past the strikes), connection caps (1013), idle timeout, start-up
 * errors (busy port exit 1, usage exit 2), --help, and a valgrind run.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { startLaird, runLaird, connect, hasValgrind, LAIRD } = require('./lib/laird');

/* Parses Prometheus text format strictly enough to catch a broken line. */
function parseMetrics(text) {
	const samples = new Map();
	const typed = new Set();
	for (const line of text.split('\n')) {
		if (line === '') continue;
		let m = line.match(/^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/);
		if (m) {
			if (m[1] === 'TYPE') {
				assert.ok(!typed.has(m[2]), `TYPE given twice for ${m[2]}`);
				assert.match(m[3], /^(counter|gauge|histogram|summary|untyped)$/);
				typed.add(m[2]);
			}
			continue;
		}
		m = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/);
		assert.ok(m, `not a Prometheus sample line: ${JSON.stringify(line)}`);
		assert.ok(!Number.isNaN(Number(m[3])) || /^[+-]Inf$|^NaN$/.test(m[3]), line);
		samples.set(m[1] + (m[2] || ''), Number(m[3]));
	}
	return samples;
}

/* Stops laird and checks it exited 0 (under ASan, also: no leak). */
async function stopClean(srv) {
	const r = await srv.stop();
	assert.equal(r.code, 0, `laird exit ${r.code} ${r.signal}:\n${r.output}`);
	return r;
}

async function metric(srv, name) {
	const r = await srv.get('/metrics');
	return parseMetrics(r.body).get(name);
}

/* Polls /metrics until pred(value) holds (bounded). */
async function waitMetric(srv, name, pred, ms = 5000) {
	const deadline = Date.now() + ms;
	for (;;) {
		const v = await metric(srv, name);
		if (pred(v)) return v;
		if (Date.now() > deadline) throw new Error(`${name} stayed at ${v}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

test('healthz 200, metrics in Prometheus text, unknown path 404', async () => {
	const srv = await startLaird();
	try {
		const h = await srv.get('/healthz');
		assert.equal(h.status, 200);
		assert.equal(h.body, 'ok\n');
		const nf = await srv.get('/no/such/path');
		assert.equal(nf.status, 404);
		const post = await new Promise((resolve, reject) => {
			const req = require('node:http').request(srv.httpUrl + '/healthz',
				{ method: 'POST', timeout: 5000 }, (res) => {
					res.resume();
					res.on('end', () => resolve(res.statusCode));
				});
			req.on('error', reject);
			req.end('x=1');
		});
		assert.equal(post, 405);
		const c = await connect(srv.url);
		c.send({ type: 'ping' });
		await waitMetric(srv, 'lair_messages_in_total', (v) => v === 1);
		const m = await srv.get('/metrics');
		assert.equal(m.status, 200);
		assert.match(m.headers['content-type'], /^text\/plain; version=0\.0\.4/);
		const s = parseMetrics(m.body);
		assert.equal(s.get('lair_connections'), 1);
		for (const name of ['lair_messages_in_total', 'lair_messages_out_total',
			'lair_event_loop_lag_seconds', 'lair_event_loop_lag_max_seconds',
			'lair_store_queue_depth', 'lair_net_errors_total{code="rate_limited"}',
			'lair_net_errors_total{code="frame_too_big"}', 'lair_draining'])
			assert.ok(s.has(name), `metric ${name} missing:\n${m.body}`);
		assert.equal(s.get('lair_draining'), 0);
		c.close();
	} finally {
		const r = await srv.stop();
		assert.equal(r.code, 0, r.output);
	}
});

test('SIGTERM: healthz 503 while draining, a connected client gets 1001, exit 0', async () => {
	const srv = await startLaird({ args: ['--drain-delay-ms', '3000'] });
	const c = await connect(srv.url);
	srv.proc.kill('SIGTERM');
	// Draining: poll until /healthz says 503 (bounded); the client is still open.
	const deadline = Date.now() + 2500;
	let h;
	do {
		h = await srv.get('/healthz');
	} while (h.status !== 503 && Date.now() < deadline);
	assert.equal(h.status, 503);
	assert.equal(c.ws.readyState, 1, 'client still open while draining');
	const closed = await c.waitClose(8000);
	assert.deepEqual(closed, { code: 1001, reason: 'server shutting down' });
	const r = await srv.stop({ signal: null }); // a second SIGTERM would kill it

	assert.equal(r.code, 0, r.output);
	assert.match(r.output, /bye/);
});

test('a message over max_frame_bytes closes with 1009, also when fragmented', async () => {
	const srv = await startLaird({ args: ['--max-frame-bytes', '1000'] });
	try {
		const c = await connect(srv.url);
		c.send('x'.repeat(1001));
		assert.deepEqual(await c.waitClose(), { code: 1009, reason: 'message larger than 1000 bytes' });

		// Fragments under the limit each, over it together.
		const d = await connect(srv.url);
		d.ws.send('a'.repeat(600), { fin: false });
		d.ws.send('b'.repeat(600), { fin: true });
		assert.equal((await d.waitClose()).code, 1009);
		assert.equal(await metric(srv, 'lair_net_errors_total{code="frame_too_big"}'), 2);
	} finally {
		await stopClean(srv);
	}
});

test('fragments are reassembled into one message within the limit', async () => {
	const srv = await startLaird({ args: ['--max-frame-bytes', '4096'] });
	try {
		const c = await connect(srv.url);
		// 3000 bytes in three fragments (and lws's own 1024-byte chunks): one message.
		c.ws.send('{"type":"x","p":"', { fin: false });
		c.ws.send('y'.repeat(2970), { fin: false });
		c.ws.send('"}', { fin: true });
		await waitMetric(srv, 'lair_messages_in_total', (v) => v === 1);
		c.send('z'.repeat(4096)); // exactly at the limit: allowed
		await waitMetric(srv, 'lair_messages_in_total', (v) => v === 2);
		assert.equal(c.ws.readyState, 1);
		c.close();
	} finally {
		await stopClean(srv);
	}
});

test('a binary frame closes with 1003; invalid UTF-8 with 1007', async () => {
	const srv = await startLaird();
	try {
		const c = await connect(srv.url);
		c.send(Buffer.from([1, 2, 3]));
		assert.deepEqual(await c.waitClose(), { code: 1003, reason: 'text frames only (JSON)' });
		assert.equal(await metric(srv, 'lair_net_errors_total{code="binary_frame"}'), 1);

		const d = await connect(srv.url);
		d.ws._sender.sendFrame(require('ws').Sender.frame(Buffer.from([0xc3, 0x28]), {
			fin: true, opcode: 1, mask: true, readOnly: false, rsv1: false,
		}));
		assert.equal((await d.waitClose()).code, 1007);
		assert.equal(await metric(srv, 'lair_messages_in_total'), 0);
	} finally {
		await stopClean(srv);
	}
});

test('flooding past the rate gets rate_limited errors; the connection survives', async () => {
	// burst 5, 1 per second: of 25 quick messages at least 18 are dropped.
	const srv = await startLaird({ args: ['--rate-msgs-per-sec', '1', '--rate-burst', '5',
		'--rate-abuse-strikes', '1000'] });
	try {
		const c = await connect(srv.url);
		for (let i = 0; i < 25; i++) c.send({ type: 'ping', id: i });
		for (let i = 0; i < 18; i++) {
			const e = await c.waitFor((m) => m.type === 'error', 5000, `rate_limited #${i}`);
			assert.equal(e.code, 'rate_limited');
			assert.equal(typeof e.message, 'string');
		}
		const passed = await metric(srv, 'lair_messages_in_total');
		assert.ok(passed >= 5 && passed <= 7, `passed ${passed}`);
		const limited = await metric(srv, 'lair_net_errors_total{code="rate_limited"}');
		assert.equal(passed + limited, 25);
		assert.equal(c.ws.readyState, 1, 'still open under the strike limit');
		c.close();
	} finally {
		await stopClean(srv);
	}
});

test('past rate_abuse_strikes the connection is closed with 1008', async () => {
	const srv = await startLaird({ args: ['--rate-msgs-per-sec', '1', '--rate-burst', '2',
		'--rate-abuse-strikes', '3'] });
	try {
		const c = await connect(srv.url);
		for (let i = 0; i < 10; i++) c.send({ type: 'ping', id: i });
		assert.deepEqual(await c.waitClose(), { code: 1008, reason: 'message rate limit exceeded' });
		// Every strike's error arrives, the closing one's too, before the close.
		const limited = c.received.filter((m) => m.code === 'rate_limited');
		assert.equal(limited.length, 3, JSON.stringify(c.received));
		assert.equal(await metric(srv, 'lair_net_errors_total{code="rate_limited"}'), 3);
		assert.equal(await metric(srv, 'lair_net_errors_total{code="rate_abuse"}'), 1);
	} finally {
		await stopClean(srv);
	}
});

test('connections per IP are capped with 1013 and a clear reason', async () => {
	const srv = await startLaird({ args: ['--max-conns-per-ip', '2'] });
	try {
		const a = await connect(srv.url);
		const b = await connect(srv.url);
		const c = await connect(srv.url);
		assert.deepEqual(await c.waitClose(),
			{ code: 1013, reason: 'too many connections from your address' });
		assert.equal(await metric(srv, 'lair_connections_refused_total{reason="per_ip"}'), 1);
		assert.equal(a.ws.readyState, 1);
		// A slot freed is a slot available again.
		a.close();
		await waitMetric(srv, 'lair_connections', (v) => v === 1);
		const d = await connect(srv.url);
		await waitMetric(srv, 'lair_connections', (v) => v === 2);
		assert.equal(d.ws.readyState, 1);
		b.close();
		d.close();
	} finally {
		await stopClean(srv);
	}
});

test('trust_proxy: the per-IP cap counts X-Forwarded-For clients', async () => {
	const srv = await startLaird({ args: ['--max-conns-per-ip', '1', '--trust-proxy'] });
	try {
		const xff = (ip) => ({ headers: { 'X-Forwarded-For': `10.9.9.9, ${ip}` } });
		const a = await connect(srv.url, xff('192.0.2.1'));
		const b = await connect(srv.url, xff('192.0.2.2'));
		const c = await connect(srv.url, xff('192.0.2.1'));
		assert.equal((await c.waitClose()).code, 1013);
		assert.equal(await metric(srv, 'lair_connections'), 2);
		// A client's own long header in front of the proxy's entry: the
		// last address still counts (it was lost past 255 bytes).
		const long = Array.from({ length: 40 }, (_, i) => `10.0.0.${i}`).join(', ');
		const d = await connect(srv.url, xff(`${long}, 192.0.2.2`));
		assert.equal((await d.waitClose()).code, 1013);
		const e = await connect(srv.url, xff(`${long}, 192.0.2.3`));
		await waitMetric(srv, 'lair_connections', (v) => v === 3);
		assert.equal(e.ws.readyState, 1);
		e.close();
		a.close();
		b.close();
	} finally {
		await stopClean(srv);
	}
});

test('max_connections caps the whole server with 1013', async () => {
	const srv = await startLaird({ args: ['--max-connections', '1'] });
	try {
		const a = await connect(srv.url);
		const b = await connect(srv.url);
		assert.deepEqual(await b.waitClose(), { code: 1013, reason: 'server full, try again later' });
		assert.equal(a.ws.readyState, 1);
		a.close();
	} finally {
		await stopClean(srv);
	}
});

test('a silent connection is closed after idle_timeout_sec', async () => {
	const srv = await startLaird({ args: ['--idle-timeout-sec', '1'] });
	try {
		const c = await connect(srv.url);
		assert.deepEqual(await c.waitClose(4000), { code: 1000, reason: 'idle timeout' });
		assert.equal(await metric(srv, 'lair_net_errors_total{code="idle_timeout"}'), 1);
	} finally {
		await stopClean(srv);
	}
});

test('a busy port: laird exits 1 with a clear message', async () => {
	const srv = await startLaird();
	try {
		const r = await runLaird(['--port', String(srv.port), '--db-path',
			path.join(srv.dbDir, 'other.db')]);
		assert.equal(r.code, 1, r.stderr);
		assert.match(r.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${srv.port}`));
	} finally {
		await stopClean(srv);
	}
});

test('laird --help lists every setting of struct laird_config with its default', async () => {
	const r = await runLaird(['--help']);
	assert.equal(r.code, 0);
	const header = fs.readFileSync(path.join(__dirname, '..', '..', 'server', 'config.h'), 'utf8');
	const body = header.slice(header.indexOf('typedef struct laird_config'),
		header.indexOf('} laird_config;'));
	const fields = [...body.matchAll(/^\s+[a-z_ ]+?\s\*?([a-z_]+)(\[\d+\])?;/gm)].map((m) => m[1]);
	assert.ok(fields.length >= 20, `parsed ${fields.length} fields`);
	for (const f of fields) {
		const flag = '--' + f.replace(/_/g, '-');
		assert.match(r.stdout, new RegExp(`^  ${flag}\\b.*(\\n +)?\\(default: [^)]*\\)$`, 'm'),
			`${flag} missing from --help`);
	}
	assert.match(r.stdout, /--port N .*\n? *\(default: 7777\)/);
	assert.match(r.stdout, /--db-path FILE .*\n? *\(default: \.\/var\/lair\.db\)/);
	for (const line of r.stdout.split('\n')) assert.ok(line.length <= 80, line);
	assert.match(r.stdout, /--config FILE/);
});

test('a bad flag or value exits 2 with a message on stderr', async () => {
	let r = await runLaird(['--no-such-flag']);
	assert.equal(r.code, 2);
	assert.match(r.stderr, /unknown flag --no-such-flag/);
	r = await runLaird(['--port', 'eighty']);
	assert.equal(r.code, 2);
	assert.match(r.stderr, /--port: port wants a number/);
	r = await runLaird(['--port', '70000']);
	assert.equal(r.code, 2);
	assert.match(r.stderr, /port must be between 0 and 65535/);
	r = await runLaird(['--config', '/nonexistent/laird.json']);
	assert.equal(r.code, 2);
	assert.match(r.stderr, /nonexistent\/laird\.json/);
});

test('valgrind: start, connect, play a frame, stop — no leak, no error', {
	skip: (!hasValgrind() && 'valgrind not installed') ||
		(/asan|san/.test(LAIRD) && 'laird is a sanitizer build'),
}, async () => {
	const srv = await startLaird({ valgrind: true });
	let r;
	try {
		const c = await connect(srv.url, { timeoutMs: 20000 });
		c.send({ type: 'hello', name: 'valgrind' });
		c.ws.send('{"type":"x","p":"', { fin: false });
		c.ws.send('"}', { fin: true });
		assert.equal((await srv.get('/metrics', 20000)).status, 200);
		await waitMetric(srv, 'lair_messages_in_total', (v) => v === 2, 20000);
		r = await srv.stop();
		assert.equal((await c.waitClose(20000)).code, 1001);
	} finally {
		if (!r) await srv.stop({ signal: 'SIGKILL' });
	}
	assert.equal(r.code, 0, `valgrind reported errors or leaks:\n${r.output}`);
	assert.doesNotMatch(r.output, /definitely lost|indirectly lost|Invalid (read|write)/);
});

test('deploy/laird.example.json is a valid config file laird starts with', async () => {
	const example = path.join(__dirname, '..', '..', 'deploy', 'laird.example.json');
	// The file's db_path and port are overridden by the helper's flags.
	const srv = await startLaird({ args: ['--config', example, '--drain-delay-ms', '0'] });
	try {
		assert.equal((await srv.get('/healthz')).status, 200);
	} finally {
		await stopClean(srv);
	}
});

test('a database path that cannot be created: exit 1 with the reason', async () => {
	const r = await runLaird(['--port', '0', '--db-path', '/proc/nonexistent-dir/lair.db']);
	assert.equal(r.code, 1, r.stderr);
	assert.match(r.stderr, /laird: cannot create \/proc\/nonexistent-dir/);
});

test('laird admin-token NAME prints a token that logs NAME in as an admin', async () => {
	const dbDir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'lair-e2e-admin-'));
	try {
		const dbPath = path.join(dbDir, 'lair.db');
		const r = await runLaird(['admin-token', 'warden', '--create', '--db-path', dbPath,
			'--log-level', 'warn']);
		assert.equal(r.code, 0, r.stderr);
		const token = r.stdout.trim();
		assert.match(token, /^[0-9a-f]{64}$/);
		const bad = await runLaird(['admin-token', 'no spaces', '--db-path', dbPath]);
		assert.equal(bad.code, 1);
		assert.match(bad.stderr, /bad name/);

		const srv = await startLaird({ dbDir });
		try {
			const c = await connect(srv.url);
			c.send({ type: 'hello', id: 1, protocol: 1, token });
			const w = await c.waitFor((m) => m.type === 'welcome' || m.type === 'error');
			assert.equal(w.type, 'welcome', JSON.stringify(w));
			assert.equal(w.player.name, 'warden');
			assert.equal(w.player.admin, true);
			c.close();
		} finally {
			await stopClean(srv);
		}
	} finally {
		fs.rmSync(dbDir, { recursive: true, force: true });
	}
});

test('valgrind: start, a whole game (bot.js), a game cut by SIGTERM — no leak, no error', {
	skip: (!hasValgrind() && 'valgrind not installed') ||
		(/asan|san/.test(LAIRD) && 'laird is a sanitizer build'),
	timeout: 150000,
}, async () => {
	const { spawn } = require('node:child_process');
	const bot = path.join(__dirname, '..', '..', 'proto', 'examples', 'bot.js');
	const runBot = (url, seats) => {
		const p = spawn(process.execPath, [bot, url, '--seats', String(seats)], {
			env: { ...process.env, NODE_PATH: path.join(__dirname, 'node_modules') },
		});
		let out = '';
		p.stdout.on('data', (d) => (out += d));
		p.stderr.on('data', (d) => (out += d));
		const done = new Promise((resolve) => p.on('close', (code) => resolve({ code, out })));
		return { p, done };
	};
	const srv = await startLaird({ valgrind: true, args: ['--window-ms', '20',
		'--reveal-pause-ms', '0', '--ai-pacing-ms', '0'] });
	let r;
	try {
		const whole = runBot(srv.url, 4);
		const g = await withTimeoutT(whole.done, 90000, 'the bot game');
		assert.equal(g.code, 0, g.out);
		assert.match(g.out, /"winners":\[/);
		// A second game, stopped in the middle by the shutdown: once its bot
		// said hello, created the table and made a choice.
		const m0 = await metric(srv, 'lair_messages_in_total');
		const cut = runBot(srv.url, 5);
		const c = await connect(srv.url, { timeoutMs: 20000 });
		await waitMetric(srv, 'lair_messages_in_total', (v) => v >= m0 + 3, 30000);
		r = await srv.stop();
		assert.equal((await c.waitClose(20000)).code, 1001);
		cut.p.kill();
	} finally {
		if (!r) await srv.stop({ signal: 'SIGKILL' });
	}
	assert.equal(r.code, 0, `valgrind reported errors or leaks:\n${r.output}`);
	assert.doesNotMatch(r.output, /definitely lost|indirectly lost|Invalid (read|write)/);
});

function withTimeoutT(promise, ms, what) {
	let t;
	return Promise.race([promise, new Promise((_, rej) => {
		t = setTimeout(() => rej(new Error(`timeout after ${ms} ms: ${what}`)), ms);
	})]).finally(() => clearTimeout(t));
}
