'use strict';
/*
 * table_password.test.js — a private table's password is kept only as a
 * salted hash (server/passhash.h): the database never holds it, the right
 * password still opens the table (also after kill -9 and a restart), a
 * wrong or missing one does not, a live row written by an older laird
 * with the password itself is hashed when the table is restored, and a
 * hash in the older form (no algorithm named) still verifies.
 * Waits are bounded; nothing sleeps for a fixed time.
 */
const test = require('node:test');
const assert = require('node:assert');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { startLaird } = require('./lib/laird');
const { player, resume } = require('./lib/app');

const ARGS = ['--window-ms', '15', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0',
	'--turn-timeout-ms', '60000', '--log-level', 'warn'];
const HASH = /^pbkdf2-sha256\$600000\$[0-9a-f]{24}\$[0-9a-f]{32}$/;

function sql(db, text) {
	return execFileSync('sqlite3', ['-bail', db, text], { encoding: 'utf8' }).trim();
}

/* Every byte laird's database files hold, as latin1 text. */
function dbBytes(dir) {
	return fs.readdirSync(dir).filter((f) => f.startsWith('lair.db'))
		.map((f) => fs.readFileSync(path.join(dir, f)).toString('latin1')).join('');
}

async function watch(p, tid, password) {
	const r = await p.req('table_spectate', password === undefined ? { table: tid }
		: { table: tid, password });
	if (r.type === 'table') await p.ok('table_leave', { table: tid });
	return r.type === 'error' ? r.code : r.type;
}

test('a private table\'s password is stored only as a salted hash and still opens the table, ' +
	'across kill -9; an old plain row is hashed at restore', async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-pw-'));
	const db = path.join(dir, 'lair.db');
	let srv = null;
	try {
		srv = await startLaird({ args: ARGS, dbDir: dir });
		let host = await player(srv, 'keeper');
		const htoken = host.token;
		const tid = (await host.ok('table_create', { kind: 'gems', seats: 2, ai: 1,
			private: true, password: 'hunter2-secret', start: true })).table;
		const other = (await host.ok('table_create', { kind: 'gems', seats: 2, ai: 1,
			private: true, password: 'hunter2-secret', start: true })).table;
		await host.c.waitFor((m) => m.table === other && m.type === 'options', 5000, 'a start');
		const meta = JSON.parse(sql(db, `SELECT meta FROM live_tables WHERE table_id=${tid};`));
		assert.match(meta.password_hash, HASH);
		assert.strictEqual(meta.password, undefined);
		const meta2 = JSON.parse(sql(db,
			`SELECT meta FROM live_tables WHERE table_id=${other};`));
		assert.notStrictEqual(meta2.password_hash, meta.password_hash, 'salted');
		assert.ok(!dbBytes(dir).includes('hunter2-secret'), 'the password is on disk');

		const q = await player(srv, 'guest');
		const gtoken = q.token;
		assert.strictEqual(await watch(q, tid, 'hunter2-secreT'), 'wrong_password');
		assert.strictEqual(await watch(q, tid), 'wrong_password');
		assert.strictEqual(await watch(q, tid, ''), 'wrong_password');
		assert.strictEqual(await watch(q, tid, 'x'.repeat(65)), 'bad_field');
		// The stored hash is no password (and longer than one may be).
		assert.strictEqual(await watch(q, tid, meta.password_hash), 'bad_field');
		assert.strictEqual(await watch(q, tid, meta.password_hash.slice(-64)), 'wrong_password');
		assert.strictEqual(await watch(q, tid, 'hunter2-secret'), 'table');
		// Nobody at the table is asked again (the host is seated).
		assert.strictEqual((await host.req('table_join', { table: tid, password: 'nope' })).type,
			'table');
		srv.proc.kill('SIGKILL');
		await srv.stop({ signal: null });

		srv = await startLaird({ args: ARGS, dbDir: dir });
		let g = await resume(srv, gtoken);
		assert.strictEqual(await watch(g, tid, 'hunter3'), 'wrong_password');
		assert.strictEqual(await watch(g, tid, 'hunter2-secret'), 'table');
		g.c.close();
		assert.strictEqual((await srv.stop()).code, 0);

		// A row as an older laird wrote it: the password itself.
		sql(db, 'UPDATE live_tables SET meta = json_remove(json_set(meta, \'$.password\', ' +
			`'old-plain-pw'), '$.password_hash') WHERE table_id=${tid};`);
		srv = await startLaird({ args: ARGS, dbDir: dir });
		host = await resume(srv, htoken);
		g = await resume(srv, gtoken);
		const rewritten = JSON.parse(sql(db,
			`SELECT meta FROM live_tables WHERE table_id=${tid};`));
		assert.match(rewritten.password_hash, HASH);
		assert.strictEqual(rewritten.password, undefined);
		assert.strictEqual(await watch(g, tid, 'hunter2-secret'), 'wrong_password');
		assert.strictEqual(await watch(g, tid, 'old-plain-pw'), 'table');
		host.c.close();
		g.c.close();
		assert.strictEqual((await srv.stop()).code, 0);

		// A hash in the first laird's form ("ITER$SALT$HASH", PBKDF2-HMAC-SHA256
		// at 256 iterations), made here by node's crypto: still verified at its
		// own count, and kept as it is.
		const salt = crypto.randomBytes(12);
		const legacy = `256$${salt.toString('hex')}$` +
			crypto.pbkdf2Sync('legacy-pw', salt, 256, 16, 'sha256').toString('hex');
		sql(db, `UPDATE live_tables SET meta = json_set(meta, '$.password_hash', '${legacy}') ` +
			`WHERE table_id=${tid};`);
		srv = await startLaird({ args: ARGS, dbDir: dir });
		g = await resume(srv, gtoken);
		assert.strictEqual(await watch(g, tid, 'old-plain-pw'), 'wrong_password');
		assert.strictEqual(await watch(g, tid, 'legacy-pw'), 'table');
		assert.strictEqual(JSON.parse(sql(db,
			`SELECT meta FROM live_tables WHERE table_id=${tid};`)).password_hash, legacy);
		g.c.close();
		assert.strictEqual((await srv.stop()).code, 0);
		srv = null;
	} finally {
		if (srv) await srv.stop({ signal: 'SIGKILL' }).catch(() => {});
		fs.rmSync(dir, { recursive: true, force: true });
	}
});
