'use strict';
/*
 * quarantine.test.js — restore trusts each stored decision's number, not the
 * rows' order: a table whose stored log cannot be replayed exactly (a
 * decision missing, a decision the kind refuses) is kept aside at restart —
 * not replayed shifted, not deleted — with a clear log line; it stays aside
 * across restarts, its id stays taken, and an admin lists it, inspects it
 * and drops it (PROTOCOL.md §9 admin_quarantined, admin_quarantined_drop;
 * `lair admin tables quarantined|drop-quarantined`). The databases are
 * crafted with sqlite3 between runs. Waits are bounded.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird, stopClean } = require('./lib/laird');
const { raw, resume, adminToken, autoplay, within } = require('./lib/app');
const { runLair } = require('./lib/tmux');
const { assertValid: valid } = require('./lib/jschema');
const { sql } = require('./lib/store_lock');

const ARGS = ['--window-ms', '15', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0',
	'--rate-msgs-per-sec', '2000', '--rate-burst', '2000', '--max-tables-per-player', '20',
	'--turn-timeout-ms', '60000', '--log-level', 'warn'];

/* A one-seat gems table with a fixed seed, played up to `upTo` reveals
 * (the next options stay unanswered): its id. */
async function playSome(p, seed, upTo) {
	const tid = (await p.ok('table_create',
		{ kind: 'gems', seats: 1, seed: String(seed), start: true })).table;
	let reveals = 0;
	const reached = new Promise((resolve) => {
		autoplay(p, tid, {
			pick: (opts) => (reveals < upTo ? opts[opts.length - 1].id : undefined),
			onMsg: (m) => {
				if (m.type === 'reveal' && ++reveals === upTo) resolve();
			},
		});
	});
	await within(reached, 20000, `${upTo} reveals at table ${tid}`);
	return tid;
}

test('a gap or a refused decision in a stored log: the table is kept aside, listed, ' +
	'inspected and dropped by an admin; never replayed shifted, never deleted silently',
	{ timeout: 120000 }, async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-quarantine-'));
		const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-cfg-'));
		const db = path.join(dir, 'lair.db');
		try {
			let srv = await startLaird({ args: ARGS, dbDir: dir });
			const token = await adminToken(srv);
			let a = await resume(srv, token);
			const gap = await playSome(a, 11, 6);
			const bad = await playSome(a, 12, 3);
			const fine = await playSome(a, 13, 2);
			a.c.close();
			await stopClean(srv); // tables in play stay live in the store

			// Decision 4 of `gap` goes missing; decision 2 of `bad` becomes
			// a choice the kind refuses.
			sql(db, `DELETE FROM live_decisions WHERE table_id=${gap} AND seq=4;`);
			sql(db, `UPDATE live_decisions SET choices='[97]' WHERE table_id=${bad} AND seq=2;`);
			const rows = (t) => sql(db,
				`SELECT group_concat(seq) FROM live_decisions WHERE table_id=${t} ORDER BY seq;`);
			assert.strictEqual(rows(gap), '1,2,3,5,6');

			srv = await startLaird({ args: ARGS, dbDir: dir });
			await srv.waitForOutput(new RegExp(`table ${gap} \\(gems\\) kept aside, not ` +
				'restored: decision 4 is missing from the stored log'), 5000);
			await srv.waitForOutput(new RegExp(`table ${bad} \\(gems\\) kept aside, not ` +
				'restored: decision 2 does not apply'), 5000);
			a = await resume(srv, token);
			// Only the sound table came back into play.
			assert.deepStrictEqual(a.welcome.tables.map((x) => x.table), [fine]);
			// Nothing deleted: the rows are there, marked.
			assert.strictEqual(rows(gap), '1,2,3,5,6');
			assert.strictEqual(sql(db, 'SELECT table_id FROM live_tables WHERE quarantined ' +
				'IS NOT NULL ORDER BY table_id;'), `${gap}\n${bad}`);

			// The admin's list, and one table in full.
			let q = await a.ok('admin_quarantined');
			assert.strictEqual(q.type, 'quarantined');
			assert.strictEqual(q.more, false);
			assert.deepStrictEqual(q.tables.map((x) => [x.table, x.kind, x.decisions]),
				[[gap, 'gems', 5], [bad, 'gems', 3]]);
			assert.match(q.tables[0].reason, /decision 4 is missing/);
			assert.ok(q.tables[0].quarantined_at > 0 && q.tables[0].started_at > 0);
			assert.strictEqual(q.tables[0].log, undefined);
			valid(q);
			q = await a.ok('admin_quarantined', { table: gap });
			valid(q);
			assert.strictEqual(q.tables.length, 1);
			const full = q.tables[0];
			assert.deepStrictEqual(full.log.map((d) => d.seq), [1, 2, 3, 5, 6]);
			assert.ok(full.log.every((d) => Array.isArray(d.choices) && d.choices.length === 1));
			assert.strictEqual(full.seed, '11');
			assert.strictEqual(full.players[0].player, a.id);
			assert.ok(typeof full.config === 'object');
			// Hostile or mistaken asks change nothing.
			let r = await a.req('admin_quarantined', { table: fine });
			assert.deepStrictEqual([r.type, r.code, r.field], ['error', 'not_found', 'table']);
			r = await a.req('admin_quarantined_drop', { table: fine }); // in play: never dropped
			assert.deepStrictEqual([r.type, r.code], ['error', 'not_found']);
			r = await a.req('admin_quarantined_drop', { table: 0 });
			assert.deepStrictEqual([r.type, r.code], ['error', 'bad_field']);
			r = await a.req('admin_quarantined_drop', {});
			assert.deepStrictEqual([r.type, r.code], ['error', 'missing_field']);
			const p = await raw(srv);
			await p.hello({ name: 'nosy' });
			r = await p.req('admin_quarantined');
			assert.deepStrictEqual([r.type, r.code], ['error', 'forbidden']);
			r = await p.req('admin_quarantined_drop', { table: gap });
			assert.deepStrictEqual([r.type, r.code], ['error', 'forbidden']);
			p.c.close();

			// Their ids stay taken: a new table gets another one and starts.
			const next = (await a.ok('table_create', { kind: 'gems', seats: 1, start: true }))
				.table;
			assert.ok(![gap, bad, fine].includes(next), `new table id ${next}`);
			await a.c.waitFor((m) => m.table === next && m.type === 'options', 5000,
				'the new table to start');
			assert.strictEqual(sql(db, `SELECT count(*) FROM live_tables WHERE table_id=${next} ` +
				'AND quarantined IS NULL;'), '1');
			a.c.close();
			await stopClean(srv);

			// Still aside after another restart; then the CLI lists and drops.
			srv = await startLaird({ args: ARGS, dbDir: dir });
			await srv.waitForOutput(new RegExp(`table ${gap} stays kept aside: decision 4`), 5000);
			const env = { XDG_CONFIG_HOME: cfg, LAIR_ADMIN_TOKEN: token };
			const lair = (...args) => runLair(['admin', ...args, '--server', srv.url], { env });
			let out = await lair('tables', 'quarantined');
			assert.strictEqual(out.code, 0, out.stderr);
			assert.match(out.stdout, new RegExp(`^${gap} +gems +5 .*decision 4 is missing`, 'm'));
			out = await lair('tables', 'quarantined', String(gap), '--json');
			assert.strictEqual(out.code, 0, out.stderr);
			assert.deepStrictEqual(JSON.parse(out.stdout).tables[0].log.map((d) => d.seq),
				[1, 2, 3, 5, 6]);
			out = await lair('tables', 'quarantined', String(bad));
			assert.match(out.stdout, /^reason +decision 2 does not apply/m);
			out = await lair('tables', 'drop-quarantined', String(gap));
			assert.strictEqual(out.code, 0, out.stderr);
			assert.strictEqual(out.stdout.trim(), 'ok');
			assert.strictEqual(sql(db, `SELECT count(*) FROM live_tables WHERE table_id=${gap};`),
				'0');
			assert.strictEqual(rows(gap), '');
			out = await lair('tables', 'drop-quarantined', String(gap));
			assert.strictEqual(out.code, 1);
			assert.match(out.stderr, /not_found/);
			out = await lair('tables', 'drop-quarantined', 'x');
			assert.strictEqual(out.code, 2);
			a = await resume(srv, token);
			q = await a.ok('admin_quarantined');
			assert.deepStrictEqual(q.tables.map((x) => x.table), [bad]);
			a.c.close();
			await stopClean(srv);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
			fs.rmSync(cfg, { recursive: true, force: true });
		}
	});
