'use strict';
/*
 * admin_token.test.js — where an operator's admin token comes from and how it
 * is rotated, against a running laird, as deploy/README.md tells it: laird's
 * first start prints one; `laird admin-token --config FILE` (the service's
 * settings) issues a new one in the service's database while laird runs, and
 * the old one stops working at once; a database that does not exist is
 * refused unless --create, so no token is printed for a database nobody uses.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird, runLaird } = require('./lib/laird');
const { raw, adminToken } = require('./lib/app');

async function helloWith(srv, token) {
	const p = await raw(srv);
	const w = await p.req('hello', { protocol: 1, token });
	return { p, w };
}

test('admin-token acts on the configured database of a running laird; rotation revokes', async () => {
	const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-e2e-admintok-'));
	const cfg = path.join(dbDir, 'laird.json');
	fs.writeFileSync(cfg, JSON.stringify({ db_path: path.join(dbDir, 'lair.db') }));
	const srv = await startLaird({ dbDir, args: ['--config', cfg] });
	try {
		const first = await adminToken(srv);

		// A database that is not there: refused, nothing printed or made.
		const missing = path.join(dbDir, 'typo', 'lair.db');
		let r = await runLaird(['admin-token', '--db-path', missing]);
		assert.strictEqual(r.code, 1, r.stderr);
		assert.strictEqual(r.stdout, '');
		assert.match(r.stderr, /no database at .*typo\/lair\.db.*--create/s);
		assert.ok(!fs.existsSync(path.dirname(missing)));

		// An admin connected with the first token.
		const before = await helloWith(srv, first);
		assert.strictEqual(before.w.player.admin, true);

		// Rotation while laird runs: the service's settings, a new token.
		r = await runLaird(['admin-token', '--config', cfg]);
		assert.strictEqual(r.code, 0, r.stderr);
		const second = r.stdout.trim();
		assert.match(second, /^[0-9a-f]{64}$/);
		assert.match(r.stderr, /database .*lair\.db \(settings from --config\)/);
		assert.notStrictEqual(second, first);

		const old = await helloWith(srv, first);
		assert.strictEqual(old.w.code, 'bad_token', 'the old token is revoked');
		const now = await helloWith(srv, second);
		assert.strictEqual(now.w.type, 'welcome');
		assert.strictEqual(now.w.player.admin, true);
		assert.strictEqual(now.w.player.name, 'admin');
		assert.strictEqual(now.w.player.id, before.w.player.id, 'the same player');
		const stats = await now.p.req('admin_stats');
		assert.strictEqual(stats.type, 'admin_stats');
		// The session opened with the old token was the same player: the
		// new token's hello replaced it (deploy/README.md).
		assert.strictEqual((await before.p.c.waitClose(5000)).code, 1000);
		assert.ok(before.p.c.received.some((m) => m.type === 'bye' && m.reason === 'replaced'));

		// Another administrator by name, in the same database.
		r = await runLaird(['admin-token', 'ops', '--config', cfg]);
		assert.strictEqual(r.code, 0, r.stderr);
		const ops = await helloWith(srv, r.stdout.trim());
		assert.strictEqual(ops.w.player.name, 'ops');
		assert.strictEqual(ops.w.player.admin, true);
		for (const c of [before, old, now, ops]) c.p.c.close();
	} finally {
		const s = await srv.stop();
		assert.strictEqual(s.code, 0, s.output.slice(-3000));
	}
});
