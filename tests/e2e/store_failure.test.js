'use strict';
/*
 * store_failure.test.js — the store failing under a real laird: nothing a
 * player sees may be forgotten by a restart (durable before shown,
 * proto/table.md §7):
 *   - a game whose start record the store refuses does not start: the
 *     table stays waiting, everyone at it gets `start_failed`, no live
 *     record, no shared state folded; the host may start again once the
 *     store takes writes;
 *   - a decision the store refuses pauses the table: everyone at it gets
 *     `paused` (snapshots say so), nothing of that decision is revealed,
 *     the write is retried, and once the store takes it `resumed` and the
 *     reveal follow and the game goes on;
 *   - kill -9 while paused: the restart shows exactly what the players saw
 *     (the last reveal's view), and the game goes on from there;
 *   - the same with a real full disk: the database on a small tmpfs the test
 *     mounts itself (root only; skipped with the reason elsewhere) and fills
 *     mid-game, then frees.
 * The store is otherwise made to fail with a trigger (sqlite3 on the live
 * database). Waits are bounded; nothing sleeps for a fixed time.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawn } = require('node:child_process');
const { startLaird, stopClean } = require('./lib/laird');
const os = require('node:os');
const { player, resume, autoplay, within } = require('./lib/app');
const { assertValid: valid } = require('./lib/jschema');
const { sql } = require('./lib/store_lock');

const ARGS = ['--window-ms', '15', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0',
	'--rate-burst', '2000', '--rate-msgs-per-sec', '2000', '--max-tables-per-player', '20',
	'--log-level', 'warn'];

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
		const result = await within(playOn(p, tid, snap), 60000, 'the game to end');
		assert.ok(result.result);
		assert.strictEqual((await p.ok('stats')).games, 1);
		p.c.close();
		w.c.close();
	} finally {
		await stopClean(srv);
	}
});

const NO_DECISIONS = 'CREATE TRIGGER no_dec BEFORE INSERT ON live_decisions ' +
	"BEGIN SELECT RAISE(ABORT, 'test: no decisions'); END;";

/* Plays p's seat at tid; calls arm() from the handler of decision
 * `armAt`'s reveal (before the next decision can be written). The first
 * `paused` after it resolves .paused; the result resolves .done;
 * .seen.reveal is the latest reveal. */
function playUntilPaused(p, tid, armAt, arm) {
	let onPaused;
	let armed = false;
	const paused = new Promise((resolve) => (onPaused = resolve));
	const seen = { reveal: null };
	const run = autoplay(p, tid, {
		onMsg: (m) => {
			if (m.type === 'reveal' && (!seen.reveal || m.decision > seen.reveal.decision)) {
				seen.reveal = m;
				if (m.decision === armAt && !armed) {
					armed = true;
					arm();
				}
			}
			if (m.type === 'paused' && armed && m.decision > armAt) onPaused(m);
		},
	});
	return { paused, done: run.done, seen, stop: run.stop };
}

/* Plays on from a resume snapshot: its open options first (they came in
 * the snapshot, not as an update), then every later one. */
function playOn(p, tid, snap) {
	const run = autoplay(p, tid);
	const opts = snap.game && snap.game.options;
	if (Array.isArray(opts))
		p.c.send({ type: 'choose', table: tid, decision: snap.game.decision,
			choice: opts[opts.length - 1].id });
	return run.done;
}

test('a decision the store refuses pauses the table for everyone until it is written; ' +
	'then play resumes where it was', async () => {
	const srv = await startLaird({ args: ARGS });
	try {
		const p = await player(srv, 'pauser');
		const w = await player(srv, 'onlooker');
		const tid = (await p.ok('table_create', { kind: 'gems', seats: 2, ai: 1 })).table;
		await w.ok('table_spectate', { table: tid }).catch(() => {});
		await p.ok('table_start', { table: tid });
		const play = playUntilPaused(p, tid, 2, () => sql(srv.dbPath, NO_DECISIONS));
		const paused = await within(play.paused, 20000, 'paused');
		valid(paused);
		assert.strictEqual(paused.reason, 'store');
		assert.strictEqual(paused.decision, 3);
		assert.match(paused.message, /cannot save/);
		const wp = await w.c.waitFor((m) => m.table === tid && m.type === 'paused', 5000,
			'the watcher\'s paused');
		assert.strictEqual(wp.seq, paused.seq);
		await srv.waitForOutput(new RegExp(`table ${tid}: paused, decision 3 was not written`),
			5000);
		// Nothing of decision 3 is shown; a snapshot says the table is paused.
		assert.strictEqual(play.seen.reveal.decision, 2);
		await w.ok('table_sync', { table: tid, since: 0 });
		const snap = await w.c.waitFor((m) => m.table === tid && m.type === 'table', 5000,
			'a snapshot');
		valid(snap);
		assert.strictEqual(snap.game.decision, 3);
		assert.strictEqual(snap.game.phase, 'revealing');
		assert.deepStrictEqual(Object.keys(snap.game.paused).sort(), ['message', 'reason']);
		const r = await p.req('choose', { table: tid, choice: 'stay' });
		assert.strictEqual(r.code, 'not_pending');
		assert.strictEqual(sql(srv.dbPath,
			`SELECT max(seq) FROM live_decisions WHERE table_id=${tid};`), '2');

		// The store takes writes again: resumed, then decision 3's reveal.
		sql(srv.dbPath, 'DROP TRIGGER no_dec;');
		const resumed = await w.c.waitFor((m) => m.table === tid && m.type === 'resumed',
			10000, 'resumed');
		valid(resumed);
		assert.strictEqual(resumed.decision, 3);
		const reveal = await w.c.waitFor((m) => m.table === tid && m.type === 'reveal' &&
			m.decision === 3, 5000, 'the reveal of decision 3');
		assert.strictEqual(reveal.seq, resumed.seq + 1);
		await srv.waitForOutput(new RegExp(`table ${tid}: resumed, decision 3 written after`),
			5000);
		const result = await within(play.done, 60000, 'the game to end');
		assert.ok(result.result);
		assert.strictEqual((await p.ok('stats')).games, 1);
		p.c.close();
		w.c.close();
	} finally {
		await stopClean(srv);
	}
});

test('kill -9 while paused: the restart shows what the players saw, and the game goes on',
	async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-paused-'));
		try {
			let srv = await startLaird({ args: ARGS, dbDir: dir });
			let p = await player(srv, 'survivor');
			const token = p.token;
			const tid = (await p.ok('table_create',
				{ kind: 'gems', seats: 2, ai: 1, start: true })).table;
			const play = playUntilPaused(p, tid, 3, () => sql(srv.dbPath, NO_DECISIONS));
			const paused = await within(play.paused, 20000, 'paused');
			assert.strictEqual(paused.decision, 4);
			const seen = play.seen.reveal;
			assert.strictEqual(seen.decision, 3);
			play.stop();
			srv.proc.kill('SIGKILL');
			assert.strictEqual((await srv.stop({ signal: null })).signal, 'SIGKILL');
			sql(path.join(dir, 'lair.db'), 'DROP TRIGGER no_dec;');

			srv = await startLaird({ args: ARGS, dbDir: dir });
			p = await resume(srv, token, { resume: { [tid]: paused.seq } });
			assert.deepStrictEqual(p.welcome.tables.map((x) => x.table), [tid]);
			const snap = await p.c.waitFor((m) => m.table === tid && m.type === 'table', 5000,
				'the resume snapshot');
			// The same state as the last reveal: decision 4 asked afresh.
			assert.strictEqual(snap.game.decision, 4);
			assert.deepStrictEqual(snap.game.view, seen.view);
			assert.strictEqual(snap.game.paused, undefined);
			assert.ok(snap.seq > paused.seq, 'seq never goes back');
			const result = await within(playOn(p, tid, snap), 60000, 'the game to end');
			assert.ok(result.result);
			assert.strictEqual((await p.ok('stats')).games, 1);
			p.c.close();
			await stopClean(srv);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});

/* Mounts a tmpfs of `size` on a new directory: the directory, or a string
 * saying why not. */
function mountTmpfs(size) {
	if (process.platform !== 'linux' || process.getuid() !== 0)
		return 'mounting a tmpfs needs root on Linux';
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-tmpfs-'));
	try {
		execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir],
			{ stdio: 'pipe' });
		return { dir };
	} catch (e) {
		fs.rmdirSync(dir);
		return `cannot mount a tmpfs here: ${String(e.stderr || e.message).trim()}`;
	}
}

/* Writes a filler file until the disk is full. */
function fillDisk(dir) {
	const fd = fs.openSync(path.join(dir, 'filler'), 'a');
	const chunk = Buffer.alloc(65536, 7);
	try {
		for (;;) fs.writeSync(fd, chunk);
	} catch (e) {
		if (e.code !== 'ENOSPC') throw e;
	}
	const small = Buffer.alloc(512, 7);
	try {
		for (;;) fs.writeSync(fd, small);
	} catch (e) {
		if (e.code !== 'ENOSPC') throw e;
	} finally {
		fs.closeSync(fd);
	}
}

/* SQLite reuses its write-ahead log's space once a checkpoint has copied
 * it back, so a full disk is felt only when the log must grow. A reader
 * holding a snapshot (as a backup would) stops checkpoints from freeing
 * the log: with it, every commit after the fill needs new space. Resolves
 * once the snapshot is held; end() lets it go. */
function holdSnapshot(db) {
	const r = spawn('sqlite3', [db], { stdio: ['pipe', 'pipe', 'inherit'] });
	r.stdin.write('BEGIN;\nSELECT count(*) FROM players;\n');
	return new Promise((resolve, reject) => {
		r.stdout.once('data', () => resolve({ end: () => r.stdin.end(), closed: new Promise(
			(res) => r.on('close', res)) }));
		r.on('error', reject);
	});
}

test('the disk fills up mid-game: the table pauses, resumes once space is freed; kill -9 ' +
	'while paused restarts at what the players saw', { timeout: 120000 }, async (t) => {
	const m = mountTmpfs('8m');
	if (typeof m === 'string') {
		t.skip(m);
		return;
	}
	const dir = m.dir;
	const db = path.join(dir, 'lair.db');
	let srv = null;
	let pin = null;
	try {
		// A clean first run leaves an empty write-ahead log.
		srv = await startLaird({ args: ARGS, dbDir: dir });
		let p = await player(srv, 'diskful');
		const w = await player(srv, 'gazer');
		const token = p.token;
		const wtoken = w.token;
		p.c.close();
		w.c.close();
		await stopClean(srv);

		srv = await startLaird({ args: ARGS, dbDir: dir });
		p = await resume(srv, token);
		const watcher = await resume(srv, wtoken);
		pin = await holdSnapshot(db);
		const tid = (await p.ok('table_create', { kind: 'gems', seats: 2, ai: 1 })).table;
		await watcher.ok('table_spectate', { table: tid });
		await p.ok('table_start', { table: tid });
		let fills = 0;
		let play = playUntilPaused(p, tid, 2, () => {
			fillDisk(dir);
			fills++;
		});
		const paused = await within(play.paused, 30000, 'the table to pause on a full disk');
		assert.strictEqual(fills, 1);
		assert.strictEqual(paused.decision, 3);
		await watcher.c.waitFor((x) => x.table === tid && x.type === 'paused', 5000,
			'the watcher\'s paused');
		await srv.waitForOutput(new RegExp(`table ${tid}: paused, decision 3 was not written`),
			5000);
		assert.match(srv.output(), /disk is full/);
		assert.strictEqual(play.seen.reveal.decision, 2);

		// Space comes back: the same decision is written, then revealed.
		fs.rmSync(path.join(dir, 'filler'));
		await watcher.c.waitFor((x) => x.table === tid && x.type === 'resumed', 10000,
			'resumed');
		await watcher.c.waitFor((x) => x.table === tid && x.type === 'reveal' &&
			x.decision === 3, 5000, 'the reveal of decision 3');

		// Full again a few decisions later; kill -9 while paused.
		play.stop();
		const at = play.seen.reveal.decision;
		play = playUntilPaused(p, tid, at + 2, () => fillDisk(dir));
		const again = await within(play.paused, 30000, 'the second pause');
		const seen = play.seen.reveal;
		assert.strictEqual(seen.decision, at + 2);
		assert.strictEqual(again.decision, at + 3);
		play.stop();
		srv.proc.kill('SIGKILL');
		await srv.stop({ signal: null });
		pin.end();
		await pin.closed;
		pin = null;
		fs.rmSync(path.join(dir, 'filler'));

		srv = await startLaird({ args: ARGS, dbDir: dir });
		p = await resume(srv, token);
		assert.deepStrictEqual(p.welcome.tables.map((x) => x.table), [tid]);
		const snap = await p.c.waitFor((x) => x.table === tid && x.type === 'table', 5000,
			'the resume snapshot');
		assert.strictEqual(snap.game.decision, again.decision);
		assert.deepStrictEqual(snap.game.view, seen.view);
		const result = await within(playOn(p, tid, snap), 60000, 'the game to end');
		assert.ok(result.result);
		assert.strictEqual((await p.ok('stats')).games, 1);
		p.c.close();
		await stopClean(srv);
		srv = null;
	} finally {
		if (pin) pin.end();
		if (srv) await srv.stop({ signal: 'SIGKILL' }).catch(() => {});
		try {
			execFileSync('umount', [dir]);
		} catch { /* already gone */ }
		fs.rmSync(dir, { recursive: true, force: true });
	}
});
