'use strict';
/*
 * soak_smoke.test.js — the soak (tests/soak/soak.js, `make soak`) in small:
 * 60 bots for 15 s against a fresh laird (players who play, drop and come
 * back, flooders, garbage senders), then the same checks as the full run:
 * RSS within its warm-up level, no connection refused or closed that should
 * not be, every request answered, every game finished after the drain, the
 * server's statistics equal the games the bots saw end, exit 0 on SIGTERM.
 */
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { spawn } = require('node:child_process');

test('soak smoke: 60 bots for 15 s, every check of make soak holds', async () => {
	const script = path.join(__dirname, '..', 'soak', 'soak.js');
	const env = { ...process.env, SOAK_SECONDS: '15', SOAK_BOTS: '60', SOAK_SEED: '7',
		SOAK_DRAIN_MS: '60000' };
	const res = await new Promise((resolve, reject) => {
		const p = spawn(process.execPath, [script], { env });
		let out = '';
		p.stdout.on('data', (d) => (out += d));
		p.stderr.on('data', (d) => (out += d));
		const timer = setTimeout(() => p.kill('SIGKILL'), 150000); // bound
		p.on('error', reject);
		p.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, out });
		});
	});
	assert.strictEqual(res.code, 0, res.out);
	assert.match(res.out, /soak: ok/);
});
