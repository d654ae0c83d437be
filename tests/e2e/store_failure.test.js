'use strict';
/*
 * store_failure.test.js — the store failing under a real laird: nothing a
 * player sees may be forgotten by a restart (durable before shown,
 * proto/table.md §7):
 *   - a game whose start record the store refuses does not start: the
 *     table stays waiting, everyone at it gets `start_failed`, no live
 *     record, no shared state folded; the host may start again once the
 *     store takes writes.
 * The store is made to fail with a trigger (sqlite3 on the live database).
 * Waits are bounded; nothing sleeps for a fixed time.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { startLaird } = require('./lib/laird');
const { player, autoplay, within } = require('./lib/app');
const { check } = require('./lib/jschema');

const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'proto',
	'schema.json'), 'utf8'));
const valid = (m) => assert.deepStrictEqual(check(schema, { $ref: '#/$defs/server_message' }, m),
	[], JSON.stringify(m));

const ARGS = ['--window-ms', '15', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0',
	'--rate-burst', '2000', '--rate-msgs-per-sec', '2000', '--max-tables-per-player', '20',
	'--log-level', 'warn'];

function sql(db, text) {
	return execFileSync('sqlite3', ['-bail', db, text], { encoding: 'utf8' }).trim();
}

async function stopClean(srv) {
	const r = await srv.stop();
	assert.strictEqual(r.code, 0, r.output.slice(-4000));
	assert.ok(!/ERROR: (Address|Leak)Sanitizer|runtime error/.test(r.output),
		r.output.slice(-4000));
}

test('a game whose start record is refused does not start: the table waits, everyone is ' +
	'told, nothing is left half-made; the next start works', async () => {
	const srv = await startLaird({ args: ARGS });
	try {
		const p = await player(srv, 'starter');
		const w = await player(srv, 'watcher');
		const records = (await p.ok('records')).records;
		sql(srv.dbPath, 'CREATE TRIGGER no_live BEFORE INSERT ON live_tables ' +
			"BEGIN SELECT RAISE(ABORT, 'test: no live tables'); END;");

		// Started at creation: the reply is the waiting table, then the news.
		const snap = await p.ok('table_create', { kind: 'gems', seats: 2, ai: 1, start: true });
		assert.strictEqual(snap.state, 'waiting');
		const tid = snap.table;
		const failed = await p.c.waitFor((m) => m.table === tid && m.type === 'start_failed',
			5000, 'start_failed');
		assert.strictEqual(failed.reason, 'store');
		assert.match(failed.message, /did not start/);
		assert.ok(failed.seq > snap.seq);
		valid(failed);
		await srv.waitForOutput(new RegExp(`table ${tid}: game not started, its start record ` +
			'was not written'), 5000);

		// Started by request, with someone watching: both are told.
		assert.strictEqual((await w.req('table_spectate', { table: tid })).type, 'table');
		await p.ok('table_start', { table: tid });
		await w.c.waitFor((m) => m.table === tid && m.type === 'start_failed', 5000,
			'the watcher\'s start_failed');
		await p.c.waitFor((m) => m.table === tid && m.type === 'start_failed', 5000,
			'the second start_failed');

		// Nothing of a game was shown or kept.
		for (const c of [p.c, w.c])
			assert.ok(!c.received.some((m) => m.table === tid &&
				['start', 'options', 'reveal'].includes(m.type)), 'no game was shown');
		await p.ok('table_sync', { table: tid, since: 0 });
		const now = await p.c.waitFor((m) => m.table === tid && m.type === 'table', 5000,
			'a snapshot');
		assert.strictEqual(now.state, 'waiting');
		assert.strictEqual(now.game, null);
		assert.deepStrictEqual(now.seats.map((s) => s.kind), ['human', 'ai']);
		assert.strictEqual(sql(srv.dbPath, 'SELECT count(*) FROM live_tables;'), '0');
		assert.deepStrictEqual((await p.ok('records')).records, records, 'nothing folded');
		const list = await p.ok('table_list');
		assert.strictEqual(list.tables.find((t) => t.id === tid).state, 'waiting');

		// The store takes writes again: the host starts, the game is played
		// and recorded.
		sql(srv.dbPath, 'DROP TRIGGER no_live;');
		await p.ok('table_start', { table: tid });
		const result = await within(autoplay(p, tid).done, 60000, 'the game to end');
		assert.ok(result.result);
		assert.strictEqual((await p.ok('stats')).games, 1);
		p.c.close();
		w.c.close();
	} finally {
		await stopClean(srv);
	}
});
