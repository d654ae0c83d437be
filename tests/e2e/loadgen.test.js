'use strict';
/*
 * loadgen.test.js — the C load generator (tests/bench/loadgen/, `make
 * bench`) in small, against a real laird it starts itself:
 *  - `--check`: its WebSocket client, behaviour by behaviour (upgrade and
 *    accept value, masked frames, a message in fragments, a 16-bit-length
 *    reply, ping/pong of both kinds, both closing handshakes);
 *  - `--smoke`: 300 idle connections that all answer a ping at the end, and
 *    200 bots at 40 five-seat gems tables for 4 s of measurement, every
 *    reveal read by all five seats, no error, laird exits 0 on SIGTERM.
 * The binary sits beside laird: BUILD/bench/loadgen.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const LAIRD = process.env.LAIRD || path.join(ROOT, 'build', 'laird');
const LOADGEN = path.join(path.dirname(LAIRD), 'bench', 'loadgen');

function run(args, boundMs) {
	return new Promise((resolve, reject) => {
		const p = spawn(LOADGEN, ['--laird', LAIRD, ...args]);
		let out = '';
		p.stdout.on('data', (d) => (out += d));
		p.stderr.on('data', (d) => (out += d));
		const timer = setTimeout(() => p.kill('SIGTERM'), boundMs); // it kills its laird
		p.on('error', reject);
		p.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, out });
		});
	});
}

test('loadgen --check: its WebSocket client against laird, each behaviour', async () => {
	const r = await run(['--check'], 60000);
	assert.strictEqual(r.code, 0, r.out);
	const oks = r.out.split('\n').filter((l) => /^check: .* ok/.test(l));
	assert.strictEqual(oks.length, 7, r.out);
	assert.match(r.out, /every check passed/);
});

test('loadgen --smoke: idle connections answer, five-seat tables play, figures add up', async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-loadgen-'));
	const json = path.join(dir, 'out.json');
	try {
		const r = await run(['--smoke', '--json', json], 240000);
		assert.strictEqual(r.code, 0, r.out);
		const f = JSON.parse(fs.readFileSync(json, 'utf8'));
		assert.strictEqual(f.idle_connections, 300, r.out);
		assert.strictEqual(f.idle_pings_answered, 300, r.out);
		assert.strictEqual(f.idle_errors, 0, r.out);
		assert.ok(f.idle_rss_mb > f.idle_rss_empty_mb, r.out);
		assert.strictEqual(f.play_connections, 200, r.out);
		assert.ok(f.play_reveals_measured > 0, r.out);
		assert.strictEqual(f.play_reveals_incomplete, 0, r.out);
		assert.strictEqual(f.play_errors, 0, r.out);
		// Every decision sends each of the five seats its reveal and the
		// next options at least, so at least ten frames of JSON.
		assert.ok(f.frames_per_decision >= 10, r.out);
		assert.ok(f.bytes_per_decision > 1000, r.out);
		assert.ok(f.play_reveal_max_ms >= f.play_reveal_p99_ms, r.out);
		assert.ok(f.play_reveal_p99_ms >= f.play_reveal_p50_ms, r.out);
		// Where the time goes: a write's wait for its batch plus the
		// batch's run is its time to durable (the same writes, so the
		// means add up but for rounding); a reveal's sending is part of
		// close -> sent.
		const parts = f.store_queued_mean_ms + f.store_batch_mean_ms;
		assert.ok(Math.abs(parts - f.store_durable_mean_ms) < 0.01, r.out);
		assert.ok(f.play_reveal_send_mean_ms <= f.play_reveal_sent_mean_ms, r.out);
		assert.ok(f.store_deliver_mean_ms >= 0 && f.play_close_late_mean_ms >= 0, r.out);
		assert.ok(f.store_writes_per_batch >= 1, r.out);
		assert.strictEqual(f.idle_laird_exit, 0, r.out);
		assert.strictEqual(f.play_laird_exit, 0, r.out);
		assert.match(f.load_average, /^\d+\.\d+ \d+\.\d+ \d+\.\d+$/);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

test('loadgen refuses a server that is not on loopback, and bad flags', async () => {
	const r = await run(['--connect', '192.0.2.1:7777', '--idle', '5'], 10000);
	assert.strictEqual(r.code, 2, r.out);
	assert.match(r.out, /loopback only/);
	const u = await run(['--play', '3'], 10000);
	assert.strictEqual(u.code, 2, u.out);
});
