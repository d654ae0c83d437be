'use strict';
/*
 * app_recovery.test.js — crash recovery (through the app): a table
 * in play is logged decision by decision; after kill -9 and a restart it is
 * back at the same decision with the same hidden state, and the player's
 * hello with its token puts it back in its seat to finish the game. A
 * graceful stop (SIGTERM) keeps tables in play the same way.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird } = require('./lib/laird');
const { player, resume, autoplay, within } = require('./lib/app');

const ARGS = ['--window-ms', '50', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0'];

async function playUntilDecision(p, t, n) {
	// Answer options until decision n is offered, then stop answering.
	let resolveAt;
	const at = new Promise((r) => (resolveAt = r));
	const ap = autoplay(p, t, {
		pick: (opts, m) => (m.decision >= n ? (resolveAt(m), undefined) : opts[opts.length - 1].id),
	});
	const m = await within(at, 30000, `decision ${n}`);
	ap.stop();
	return m;
}

for (const signal of ['SIGKILL', 'SIGTERM']) {
	test(`a table in play survives ${signal} and a restart at the same decision`, async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-crash-'));
		try {
			let srv = await startLaird({ dbDir: dir, args: ARGS });
			const a = await player(srv, 'survivor');
			const t = (await a.ok('table_create', {
				kind: 'gems', seats: 3, ai: 2, turn_timeout_ms: 60000, start: true,
			})).table;
			const opt = await playUntilDecision(a, t, 4);
			await a.ok('table_sync', { table: t, since: 0 });
			const before = await a.c.waitFor((m) => m.type === 'table' && m.id === undefined);
			assert.strictEqual(before.game.decision, opt.decision);
			// The adventure-use counts of the dungeons built so far are saved.
			const rec = await a.ok('records');
			await srv.stop({ signal });

			srv = await startLaird({ dbDir: dir, args: ARGS });
			const back = await resume(srv, a.token);
			const entry = back.welcome.tables.find((x) => x.table === t);
			assert.ok(entry, 'the restored table is listed in welcome');
			assert.strictEqual(entry.seat, 0);
			const snap = await back.c.waitFor((m) => m.type === 'table' && m.table === t);
			assert.deepStrictEqual((await back.ok('records')).records, rec.records);
			assert.strictEqual(snap.state, 'playing');
			assert.strictEqual(snap.game.decision, before.game.decision);
			assert.deepStrictEqual(snap.game.view, before.game.view, 'same hidden state');
			assert.deepStrictEqual(snap.game.options, before.game.options);
			// And the game plays on to its end and is recorded.
			const decision = snap.game.decision;
			back.c.send({ type: 'choose', table: t, decision, choice: snap.game.options[0].id });
			const res = await within(autoplay(back, t).done, 60000, 'the end');
			assert.ok(res.decisions > decision);
			const st = await back.ok('stats');
			assert.strictEqual(st.stats.find((x) => x.key === 'games_played').value, 1);
			const r = await srv.stop();
			assert.strictEqual(r.code, 0);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
}

test('a seat taken over mid-game is still the taker\'s after kill -9', async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-crash-'));
	try {
		let srv = await startLaird({ dbDir: dir, args: ARGS });
		const a = await player(srv, 'hostkeeper');
		const b = await player(srv, 'usurper');
		const t = (await a.ok('table_create', {
			kind: 'gems', seats: 3, ai: 2, turn_timeout_ms: 60000,
		})).table;
		await b.ok('table_spectate', { table: t });
		await a.ok('table_start', { table: t });
		// B takes over AI seat 2 by choosing for it (retrying if the window
		// closed first); A does not answer, so the table waits on A.
		let taken = false;
		for (let i = 0; i < 5 && !taken; i++) {
			const o = await b.c.waitFor((m) => m.type === 'options' && m.pending.includes(2),
				10000);
			const r = await b.req('choose', { table: t, seat: 2, decision: o.decision,
				choice: 'leave' });
			taken = r.type === 'ok';
		}
		assert.ok(taken, 'the takeover');
		await b.c.waitFor((m) => m.type === 'seats' && m.seats[2].name === 'usurper', 5000);
		// The update to the live record is queued right behind: wait
		// (bounded) until the store has nothing left to do.
		for (let i = 0; i < 100; i++) {
			const m = await srv.get('/metrics');
			if (/^lair_store_queue_depth 0$/m.test(m.body)) break;
			await new Promise((res) => setTimeout(res, 20)); // poll interval
		}
		await srv.stop({ signal: 'SIGKILL' });

		srv = await startLaird({ dbDir: dir, args: ARGS });
		const back = await resume(srv, b.token);
		const e = back.welcome.tables.find((x) => x.table === t);
		assert.ok(e, 'the taker is at the restored table');
		assert.strictEqual(e.seat, 2);
		const ha = await resume(srv, a.token);
		assert.strictEqual(ha.welcome.tables.find((x) => x.table === t).seat, 0);
		back.c.close();
		ha.c.close();
		await srv.stop();
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});
