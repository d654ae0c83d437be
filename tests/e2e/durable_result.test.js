'use strict';
/*
 * durable_result.test.js — a game's `result` reaches players only after its
 * record (game record, statistics, achievements, shared state) is committed
 * (nothing acknowledged is lost; proto/table.md §7):
 *   - the instant a player gets `result`, a `stats` / `server_stats` /
 *     `records` request sent from that very message handler, on the same
 *     connection, already counts the game;
 *   - `kill -9` laird the instant a `result` arrives, restart it on the same
 *     database: the game is there, counted exactly once, and stays so across
 *     a further restart (a game whose live record outlived it would be
 *     restored and recorded again);
 *   - a crash after the last decision was made durable but before the record
 *     committed (built from a mid-game backup plus the later decisions): the
 *     restart replays the table to its end, records the game once and only
 *     then shows the same result;
 *   - the store refuses the record (a trigger): the table pauses and the
 *     result waits until the record is written; kill -9 meanwhile and the
 *     restart records the game once (its events folded once) and then
 *     shows the result.
 * Waits are bounded; nothing sleeps for a fixed time.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird, stopClean } = require('./lib/laird');
const { sql } = require('./lib/store_lock');
const { player, resume, autoplay, within } = require('./lib/app');

const ARGS = ['--window-ms', '15', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0',
	'--rate-burst', '2000', '--rate-msgs-per-sec', '2000', '--max-tables-per-player', '20',
	'--log-level', 'warn'];
const GAME_MS = 60000;

function statValue(stats, key) {
	const s = stats.stats.find((x) => x.key === key);
	assert.ok(s, `statistic ${key}`);
	return s.value;
}

/* Sends a request with an id from inside a message handler (no await in
 * between) and returns a promise of its reply. */
let nextId = 900000;
function sendNow(p, type, fields = {}) {
	const id = nextId++;
	p.c.send({ type, id, ...fields });
	return p.c.waitFor((m) => m.id === id, 5000, `the reply to ${type} #${id}`);
}

test('when result arrives, the same connection already reads the game in stats and records',
	async () => {
		const srv = await startLaird({ args: ARGS });
		try {
			const p = await player(srv, 'prompt');
			const base = await p.ok('server_stats');
			for (let g = 1; g <= 3; g++) {
				const snap = await p.ok('table_create',
					{ kind: 'gems', seats: 2, ai: 1, start: true });
				let asked = null;
				const result = await within(autoplay(p, snap.table, {
					onMsg: (m) => {
						if (m.type !== 'result' || asked) return;
						// At once, from the handler that got the result.
						asked = Promise.all([sendNow(p, 'stats'),
							sendNow(p, 'server_stats'), sendNow(p, 'records')]);
					},
				}).done, GAME_MS, `game ${g} to end`);
				assert.ok(asked, 'the result was seen by the handler');
				const [stats, server, records] = await asked;
				assert.strictEqual(stats.type, 'stats');
				assert.strictEqual(stats.games, g, `game ${g} in stats at its result`);
				assert.strictEqual(statValue(stats, 'games_played'), g);
				assert.strictEqual(server.games, base.games + g);
				assert.strictEqual(records.type, 'records');
				const mine = result.result.seats[0];
				assert.ok(Number.isInteger(mine.stats.gems_looted));
			}
			p.c.close();
		} finally {
			await stopClean(srv);
		}
	});

test('kill -9 the instant result arrives: after restarts the game is counted exactly once',
	async () => {
		const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-durable-'));
		try {
			let srv = await startLaird({ args: ARGS, dbDir });
			let p = await player(srv, 'crashy');
			const token = p.token;
			const ROUNDS = 3;
			for (let g = 1; g <= ROUNDS; g++) {
				const snap = await p.ok('table_create',
					{ kind: 'gems', seats: 2, ai: 1, start: true });
				const proc = srv.proc;
				const result = await within(autoplay(p, snap.table, {
					// SIGKILL from the very handler that got the result.
					onMsg: (m) => { if (m.type === 'result') proc.kill('SIGKILL'); },
				}).done, GAME_MS, `game ${g} to end`);
				assert.strictEqual(result.type, 'result');
				const killed = await srv.stop({ signal: null });
				assert.strictEqual(killed.signal, 'SIGKILL');
				srv = await startLaird({ args: ARGS, dbDir });
				p = await resume(srv, token);
				const stats = await p.ok('stats');
				assert.strictEqual(stats.games, g, `game ${g} recorded once after kill -9`);
				assert.strictEqual(statValue(stats, 'games_played'), g);
				assert.strictEqual((await p.ok('server_stats')).games, g);
				// Its live record ended with it: it is not brought back into
				// play (finished tables are not kept across a restart).
				assert.deepStrictEqual(p.welcome.tables, []);
			}
			// A clean restart on top changes nothing.
			await stopClean(srv);
			srv = await startLaird({ args: ARGS, dbDir });
			p = await resume(srv, token);
			assert.strictEqual((await p.ok('stats')).games, ROUNDS);
			assert.strictEqual((await p.ok('server_stats')).games, ROUNDS);
			p.c.close();
			await stopClean(srv);
		} finally {
			fs.rmSync(dbDir, { recursive: true, force: true });
		}
	});

/* sqlite3's command-line shell on a database (blocking: it is quick). */
test('a crash after the last decision was durable, before the record: the restart records ' +
	'the game once, then shows its result', async () => {
	// The crash cannot be timed from outside, so its state is built: a
	// backup of the database taken mid-game (the live table and its first
	// decisions), to which the game's later decisions are added from the
	// record the uncrashed run wrote. That is exactly what a kill -9
	// between the last decision's commit and the record's leaves.
	const dirA = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-durable-a-'));
	const dirB = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-durable-b-'));
	const dbB = path.join(dirB, 'lair.db');
	try {
		let srv = await startLaird({ args: ARGS, dbDir: dirA });
		let p = await player(srv, 'phoenix');
		const token = p.token;
		const snap = await p.ok('table_create', { kind: 'gems', seats: 2, ai: 1, start: true });
		const tid = snap.table;
		let backedUp = false;
		const result = await within(autoplay(p, tid, {
			onMsg: (m) => {
				if (m.type !== 'reveal' || backedUp) return;
				backedUp = true;
				sql(srv.dbPath, `.backup '${dbB}'`);
			},
		}).done, GAME_MS, 'the game to end');
		assert.ok(backedUp);
		p.c.close();
		await stopClean(srv);

		const log = JSON.parse(sql(path.join(dirA, 'lair.db'), 'SELECT choices FROM games;'));
		assert.ok(Array.isArray(log) && log.length >= 2, 'a game of two decisions or more');
		const have = Number(sql(dbB, `SELECT count(*) FROM live_decisions WHERE table_id=${tid};`));
		assert.ok(have >= 1 && have < log.length, `the backup is mid-game (${have})`);
		const rows = log.slice(have).map((set, i) =>
			`(${tid}, ${have + i + 1}, '${JSON.stringify(set)}')`).join(',');
		sql(dbB, `INSERT INTO live_decisions (table_id, seq, choices) VALUES ${rows};`);
		assert.strictEqual(sql(dbB, 'SELECT count(*) FROM games;'), '0');

		// The restart replays the table to its end and records it before
		// anyone sees the result.
		srv = await startLaird({ args: ARGS, dbDir: dirB });
		p = await resume(srv, token);
		assert.deepStrictEqual(p.welcome.tables.map((x) => x.table), [tid]);
		const shown = await p.c.waitFor((m) => m.table === tid && (m.type === 'result' ||
			(m.type === 'table' && m.state === 'finished')), 10000, 'the restored result');
		assert.deepStrictEqual(shown.result, result.result);
		const stats = await p.ok('stats');
		assert.strictEqual(stats.games, 1);
		assert.strictEqual(statValue(stats, 'games_played'), 1);
		assert.strictEqual((await p.ok('server_stats')).games, 1);
		p.c.close();
		await stopClean(srv);

		// Once: its live record ended with the record.
		srv = await startLaird({ args: ARGS, dbDir: dirB });
		p = await resume(srv, token);
		assert.deepStrictEqual(p.welcome.tables, []);
		assert.strictEqual((await p.ok('stats')).games, 1);
		assert.strictEqual((await p.ok('server_stats')).games, 1);
		assert.strictEqual(sql(dbB, 'SELECT count(*) FROM games;'), '1');
		p.c.close();
		await stopClean(srv);
	} finally {
		fs.rmSync(dirA, { recursive: true, force: true });
		fs.rmSync(dirB, { recursive: true, force: true });
	}
});

/* A trigger refusing the record of the game now in play at table tid
 * (its live record's start time picks it out: other games are recorded). */
function refuseRecordOf(db, tid) {
	sql(db, 'CREATE TRIGGER no_game BEFORE INSERT ON games WHEN NEW.started_at = ' +
		`(SELECT started_at FROM live_tables WHERE table_id = ${tid}) ` +
		"BEGIN SELECT RAISE(ABORT, 'test: no record'); END;");
}

/* Plays p's seat at tid until the table pauses: resolves with `paused`. */
function playUntilPaused(p, tid) {
	let onPaused;
	const paused = new Promise((resolve) => (onPaused = resolve));
	const run = autoplay(p, tid, { onMsg: (m) => { if (m.type === 'paused') onPaused(m); } });
	return { paused, done: run.done, stop: run.stop };
}

test('the store refuses the record: the result waits, the table pauses, and the result ' +
	'follows once the record is written', async () => {
	const srv = await startLaird({ args: ARGS });
	try {
		const p = await player(srv, 'patient');
		const tid = (await p.ok('table_create', { kind: 'gems', seats: 2, ai: 1, start: true }))
			.table;
		await p.c.waitFor((m) => m.table === tid && m.type === 'start', 5000, 'the start');
		refuseRecordOf(srv.dbPath, tid);
		const play = playUntilPaused(p, tid);
		const paused = await within(play.paused, GAME_MS, 'the table to pause');
		await srv.waitForOutput(new RegExp(`table ${tid}: paused, the record of game 1 was ` +
			'not written'), 5000);
		assert.strictEqual((await p.ok('stats')).games, 0, 'nothing was written');
		assert.ok(!p.c.received.some((m) => m.table === tid && m.type === 'result'));
		sql(srv.dbPath, 'DROP TRIGGER no_game;');
		const result = await within(play.done, 10000, 'the result');
		const resumed = p.c.received.find((m) => m.table === tid && m.type === 'resumed');
		assert.ok(resumed && resumed.seq > paused.seq && resumed.seq === result.seq - 1);
		assert.strictEqual((await p.ok('stats')).games, 1);
		p.c.close();
	} finally {
		await stopClean(srv);
	}
});

test('kill -9 while the record waits: the restart records the game once, folds its events ' +
	'once, and only then shows the result', async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-durable-f-'));
	try {
		let srv = await startLaird({ args: ARGS, dbDir: dir });
		let p = await player(srv, 'unlucky');
		const token = p.token;
		const tid = (await p.ok('table_create', { kind: 'gems', seats: 2, ai: 1, start: true }))
			.table;
		await p.c.waitFor((m) => m.table === tid && m.type === 'start', 5000, 'the start');
		refuseRecordOf(srv.dbPath, tid);
		const play = playUntilPaused(p, tid);
		await within(play.paused, GAME_MS, 'the table to pause');
		play.stop();
		// Another game is recorded meanwhile, with the shared state: it
		// must hold the paused game's fold mark, or the restart would fold
		// that game's events a second time.
		const t2 = (await p.ok('table_create', { kind: 'gems', seats: 2, ai: 1, start: true }))
			.table;
		await within(autoplay(p, t2).done, GAME_MS, 'the second game to end');
		assert.strictEqual((await p.ok('stats')).games, 1);
		const records = (await p.ok('records')).records;
		srv.proc.kill('SIGKILL');
		await srv.stop({ signal: null });
		sql(path.join(dir, 'lair.db'), 'DROP TRIGGER no_game;');

		srv = await startLaird({ args: ARGS, dbDir: dir });
		p = await resume(srv, token);
		assert.deepStrictEqual(p.welcome.tables.map((x) => x.table), [tid]);
		const shown = await p.c.waitFor((m) => m.table === tid && (m.type === 'result' ||
			(m.type === 'table' && m.state === 'finished')), 10000, 'the restored result');
		const stored = JSON.parse(sql(path.join(dir, 'lair.db'),
			'SELECT result FROM games ORDER BY id DESC LIMIT 1;'));
		assert.deepStrictEqual(shown.result, stored);
		assert.strictEqual((await p.ok('stats')).games, 2);
		assert.strictEqual((await p.ok('server_stats')).games, 2);
		// Each game's events are in the shared state once.
		assert.deepStrictEqual((await p.ok('records')).records, records);
		p.c.close();
		await stopClean(srv);
		// Once: a further restart brings nothing back.
		srv = await startLaird({ args: ARGS, dbDir: dir });
		p = await resume(srv, token);
		assert.deepStrictEqual(p.welcome.tables, []);
		assert.strictEqual((await p.ok('stats')).games, 2);
		assert.deepStrictEqual((await p.ok('records')).records, records);
		p.c.close();
		await stopClean(srv);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

test('a restored table whose open decision has only AI seats pending plays on and is recorded',
	async () => {
		// Built like the crash above: a mid-game backup, plus the decisions
		// up to one whose successor asks the AI seat only (the human has left
		// the dungeon). On restore that decision resolves at once, before
		// the app has the table registered: it must still be logged and
		// revealed, and the game must end and be recorded.
		const dirA = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-durable-a-'));
		const dirB = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-durable-b-'));
		const dbB = path.join(dirB, 'lair.db');
		// The human leaves whenever it may: the AI then plays on alone.
		const leave = (opts) => (opts.find((o) => o.id === 'leave') || opts[opts.length - 1]).id;
		try {
			let srv = await startLaird({ args: ARGS, dbDir: dirA });
			let p = await player(srv, 'leaver');
			const token = p.token;
			let log = null;
			let tid = 0;
			let have = 0;
			let k = -1;
			for (let tries = 0; tries < 5 && k < 0; tries++) {
				tid = (await p.ok('table_create',
					{ kind: 'gems', seats: 2, ai: 1, start: true })).table;
				let backedUp = false;
				fs.rmSync(dbB, { force: true });
				await within(autoplay(p, tid, {
					pick: leave,
					onMsg: (m) => {
						if (m.type !== 'reveal' || backedUp) return;
						backedUp = true;
						sql(srv.dbPath, `.backup '${dbB}'`);
					},
				}).done, GAME_MS, 'the game to end');
				log = JSON.parse(sql(srv.dbPath,
					'SELECT choices FROM games ORDER BY id DESC LIMIT 1;'));
				have = Number(sql(dbB,
					`SELECT count(*) FROM live_decisions WHERE table_id=${tid};`));
				// The first set after the backup's that asks seat 1 only.
				k = log.findIndex((set, i) => i >= have && set[0] === -1 && set[1] >= 0);
			}
			assert.ok(k >= 0, 'a decision with only the AI asked');
			p.c.close();
			await stopClean(srv);
			if (k > have) {
				const rows = log.slice(have, k).map((set, i) =>
					`(${tid}, ${have + i + 1}, '${JSON.stringify(set)}')`).join(',');
				sql(dbB, `INSERT INTO live_decisions (table_id, seq, choices) VALUES ${rows};`);
			}
			const gamesBefore = Number(sql(dbB, 'SELECT count(*) FROM games;'));

			srv = await startLaird({ args: [...ARGS, '--turn-timeout-ms', '2000'], dbDir: dirB });
			p = await resume(srv, token);
			assert.deepStrictEqual(p.welcome.tables.map((x) => x.table), [tid]);
			const snap = await p.c.waitFor((m) => m.table === tid && m.type === 'table', 5000,
				'the resume snapshot');
			// Play on from wherever the table is now.
			if (snap.state === 'playing' && snap.game && Array.isArray(snap.game.options))
				p.c.send({ type: 'choose', table: tid, decision: snap.game.decision,
					choice: leave(snap.game.options) });
			const result = snap.state === 'finished' ? snap
				: await within(autoplay(p, tid, { pick: leave }).done, GAME_MS,
					'the restored game to end');
			assert.ok(result.result && Array.isArray(result.result.seats));
			assert.strictEqual(Number(sql(dbB, 'SELECT count(*) FROM games;')), gamesBefore + 1);
			// Recorded: the restored prefix, then the decision decided afresh.
			const after = JSON.parse(sql(dbB, 'SELECT choices FROM games ORDER BY id DESC LIMIT 1;'));
			assert.deepStrictEqual(after.slice(0, k), log.slice(0, k));
			assert.ok(after.length > k && after[k][0] === -1 && after[k][1] >= 0);
			p.c.close();
			await stopClean(srv);
		} finally {
			fs.rmSync(dirA, { recursive: true, force: true });
			fs.rmSync(dirB, { recursive: true, force: true });
		}
	});
