'use strict';
/*
 * shared_values.test.js — the kinds' shared state on one laird with its
 * SQLite file (proto/kinds/gems.md "Shared state", proto/table.md
 * "Durability before the start"):
 *   - written from the docs alone: after finished games, `records` is the
 *     merge of the stored records' shares (uses added up and read relative
 *     to the least, records the greatest), and a restart reads it back the
 *     same; a game closed mid-way adds nothing for good;
 *   - an attack: rows of `shared_values` damaged by hand (a count below 0,
 *     one past any game's, text, a key nobody knows): laird starts, serves
 *     sane counts, and the next record's merge leaves every key that was
 *     not damaged exact.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird } = require('./lib/laird');
const { player, autoplay, within } = require('./lib/app');
const { sql } = require('./lib/store_lock');

const ARGS = ['--window-ms', '15', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0',
	'--rate-burst', '2000', '--rate-msgs-per-sec', '2000', '--max-tables-per-player', '20',
	'--log-level', 'warn'];

const rows = (db, text) => sql(db, text).split('\n').filter((l) => l).map((l) => l.split('|'));

/* The merge of every recorded game's share, from the records alone. */
function mergeOfRecords(db) {
	const m = {};
	for (const [d] of rows(db, "SELECT shared_delta FROM games WHERE kind = 'gems' ORDER BY id;"))
		for (const [k, v] of Object.entries(JSON.parse(d)))
			m[k] = k.startsWith('adventure_uses.') ? (m[k] || 0) + v : Math.max(m[k] ?? v, v);
	return m;
}

/* What `records` should show for merged values (G10: the least use at 0). */
function recordsOf(values) {
	const uses = Object.entries(values).filter(([k]) => k.startsWith('adventure_uses.'));
	const least = Math.min(...uses.map(([, v]) => v));
	return {
		adventure_uses: Object.fromEntries(uses.map(([k, v]) => [k.slice(15), v - least])),
		best_winning_score: values.best_winning_score ?? null,
		deepest_depth: values.deepest_depth ?? null,
	};
}

const sorted = (r) => JSON.stringify({ ...r, adventure_uses: Object.fromEntries(
	Object.entries(r.adventure_uses).sort()) });

/* Runs body(start) with laird on a database of its own, started (and
 * started again) by start(); everything stopped and removed after. */
async function onOwnDatabase(body) {
	const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-shared-'));
	let srv = null;
	const start = async () => (srv = await startLaird({ args: ARGS, dbDir }));
	try {
		await body(start);
	} finally {
		if (srv) await srv.stop();
		fs.rmSync(dbDir, { recursive: true, force: true });
	}
}

/* One game of gems to its result: the human leaves whenever it may. */
async function playOne(p) {
	const t = (await p.ok('table_create', { kind: 'gems', seats: 3, ai: 2 })).table;
	const leave = (opts) => (opts.find((o) => o.id === 'leave') || opts[opts.length - 1]).id;
	const play = autoplay(p, t, { pick: leave });
	await p.ok('table_start', { table: t });
	await within(play.done, 60000, 'the game to end');
	return t;
}

test('records are the merge of the recorded games\' shares, the same after a restart', async () => {
	await onOwnDatabase(async (start) => {
		let srv = await start();
		const p = await player(srv, 'merger');
		for (let i = 0; i < 3; i++) await playOne(p);
		// A game closed mid-way: its uses count while it is played, not after.
		const t = (await p.ok('table_create', { kind: 'gems', seats: 2, ai: 1 })).table;
		await p.ok('table_start', { table: t });
		await p.c.waitFor((m) => m.table === t && m.type === 'options', 10000, 'options');
		await p.ok('table_close', { table: t });

		const merged = mergeOfRecords(srv.dbPath);
		assert.strictEqual(Object.keys(merged).length, 12, JSON.stringify(merged));
		const stored = Object.fromEntries(rows(srv.dbPath,
			"SELECT key, value FROM shared_values WHERE kind = 'gems';").map(([k, v]) => [k, Number(v)]));
		assert.deepStrictEqual(stored, merged);
		const want = sorted(recordsOf(merged));
		assert.strictEqual(sorted((await p.ok('records', { kind: 'gems' })).records), want);
		assert.strictEqual((await srv.stop()).code, 0);
		srv = await start();
		const q = await player(srv, 'reader');
		assert.strictEqual(sorted((await q.ok('records', { kind: 'gems' })).records), want);
	});
});

test('damaged shared rows: laird serves sane counts and the next game merges the rest exactly',
	async () => {
		await onOwnDatabase(async (start) => {
			let srv = await start();
			await playOne(await player(srv, 'first'));
			assert.strictEqual((await srv.stop()).code, 0);
			const db = srv.dbPath;
			const before = Object.fromEntries(rows(db, "SELECT key, value FROM shared_values " +
				"WHERE kind = 'gems';").map(([k, v]) => [k, Number(v)]));
			sql(db, "UPDATE shared_values SET value = -9 WHERE key = 'best_winning_score';" +
				"UPDATE shared_values SET value = 'lots' WHERE key = 'deepest_depth';" +
				"UPDATE shared_values SET value = 9223372036854775000 " +
				"WHERE key = 'adventure_uses.banker';" +
				"INSERT INTO shared_values VALUES ('gems', 'nobody.knows', 5), ('ghost', 'x', 1);");
			srv = await start();
			const p = await player(srv, 'second');
			const r = (await p.ok('records', { kind: 'gems' })).records;
			// The damaged values are left out (none yet); every count is sane.
			assert.strictEqual(r.best_winning_score, null);
			assert.strictEqual(r.deepest_depth, null);
			for (const [k, v] of Object.entries(r.adventure_uses))
				assert.ok(Number.isInteger(v) && v >= 0 && v < 1e6, `${k}: ${v}`);
			assert.match(srv.output(), /shared value best_winning_score = -9 left out/);

			await playOne(p);
			const [[delta]] = rows(db, "SELECT shared_delta FROM games WHERE kind = 'gems' " +
				'ORDER BY id DESC LIMIT 1;');
			const d = JSON.parse(delta);
			const after = Object.fromEntries(rows(db, "SELECT key, value FROM shared_values " +
				"WHERE kind = 'gems';").map(([k, v]) => [k, v]));
			for (const [k, v] of Object.entries(before)) {
				if (k === 'adventure_uses.banker') continue;
				const want = k === 'best_winning_score' || k === 'deepest_depth'
					? d[k] : v + d[k]; // a damaged record is none: the game's own
				assert.strictEqual(Number(after[k]), want, `${k}: ${after[k]}, not ${want}`);
			}
			assert.strictEqual(after['nobody.knows'], '5');
			const now = (await p.ok('records', { kind: 'gems' })).records;
			assert.strictEqual(now.best_winning_score, d.best_winning_score);
			assert.strictEqual(now.deepest_depth, d.deepest_depth);
		});
	});
