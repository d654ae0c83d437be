'use strict';
/*
 * restart_seq.test.js — a table's `seq` never goes back, also across
 * restarts (proto/table.md §2): after kill -9 a restored table continues
 * above every seq it sent before, whether those were sent in an earlier
 * game at the same table (rematch), in a long decision (many status
 * updates), or in a previous run that crashed again before writing
 * anything. Updates are produced cheaply: a seat that chooses again and
 * again while the other seat has not chosen sends a status each time.
 * Waits are bounded; nothing sleeps for a fixed time.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird } = require('./lib/laird');
const { player, resume, within } = require('./lib/app');

const ARGS = ['--window-ms', '15', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0',
	'--rate-msgs-per-sec', '10000', '--rate-burst', '10000', '--turn-timeout-ms', '60000',
	'--max-send-queue', '8m', '--log-level', 'warn'];
const SPAM = 2600; // above what a restart used to add for a game of one decision

/* The highest seq of table tid a client has seen. */
const lastSeq = (c, tid) => c.received.reduce((m, x) =>
	(x.table === tid && Number.isInteger(x.seq) && x.seq > m ? x.seq : m), 0);

/* p's options of `decision` at tid sent after seq `after` (already
 * received, or the next). */
function optionsOf(p, tid, decision, after) {
	const is = (m) => m.table === tid && m.type === 'options' && m.decision === decision &&
		m.seq > after && m.options;
	const got = p.c.received.find(is);
	return got ? Promise.resolve(got) : p.c.waitFor(is, 10000, `options of decision ${decision}`);
}

/* p chooses `n` times at decision d (the other seat has not chosen: each is
 * a status update), one after the other's reply: the status changes of one
 * turn of laird's loop are one update (table.md §3), so choices sent all at
 * once would mostly fold into a few. */
async function chooseOften(p, tid, d, choice, n) {
	for (let i = 0; i < n; i++) {
		const r = await p.req('choose', { table: tid, decision: d, choice }, 20000);
		assert.strictEqual(r.type, 'ok', JSON.stringify(r));
	}
}

const leaveOr = (opts) => {
	const ids = opts.map((o) => o.id);
	return ids.includes('leave') ? 'leave' : ids[ids.length - 1];
};

/* Both seats choose `leave` (else the last option) at every decision from
 * `from` until the result (sent after seq `after`); `snaps` (optional): the
 * players' resume snapshots, whose options are decision `from`'s. */
async function playOut(ps, tid, from, after, snaps) {
	const isResult = (m) => m.table === tid && m.type === 'result' && m.seq > after;
	for (let d = from; ; d++) {
		const isOpt = (m) => m.table === tid && m.type === 'options' && m.decision === d &&
			m.seq > after && m.options;
		const either = (m) => isResult(m) || isOpt(m);
		let opts;
		if (snaps && d === from) {
			opts = snaps.map((x) => x.game.options);
		} else {
			const first = ps[0].c.received.find(either) ||
				await ps[0].c.waitFor(either, 10000, `options of decision ${d} or the result`);
			if (isResult(first)) return first;
			// Both seats are asked at every decision: each leaves every dungeon.
			opts = [first.options, (await optionsOf(ps[1], tid, d, after)).options];
		}
		ps.forEach((p, i) => p.c.send({ type: 'choose', table: tid, decision: d,
			choice: leaveOr(opts[i]) }));
	}
}

async function crash(srv) {
	srv.proc.kill('SIGKILL');
	assert.strictEqual((await srv.stop({ signal: null })).signal, 'SIGKILL');
}

/* Restarts on dir and resumes both players; returns the server, the players
 * and the host's snapshot. */
async function restart(dir, tokens, tid, since) {
	const srv = await startLaird({ args: ARGS, dbDir: dir });
	const ps = [];
	const snaps = [];
	for (const t of tokens) {
		const p = await resume(srv, t, { resume: { [tid]: since } });
		assert.deepStrictEqual(p.welcome.tables.map((x) => x.table), [tid]);
		snaps.push(await p.c.waitFor((m) => m.table === tid && m.type === 'table', 5000,
			'the resume snapshot'));
		ps.push(p);
	}
	return { srv, ps, snap: snaps[0], snaps };
}

test('a table\'s seq never goes back across restarts: after rematches, long decisions and ' +
	'a second crash', { timeout: 120000 }, async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-seq-'));
	let srv = null;
	try {
		srv = await startLaird({ args: ARGS, dbDir: dir });
		let ps = [await player(srv, 'ann'), await player(srv, 'ben')];
		const tokens = ps.map((p) => p.token);
		const tid = (await ps[0].ok('table_create', { kind: 'gems', seats: 2 })).table;
		await ps[1].ok('table_join', { table: tid, seat: 1 });
		await ps[0].ok('table_start', { table: tid });

		// Game 1: a long first decision, then played out and recorded.
		const first = await optionsOf(ps[0], tid, 1, 0);
		await chooseOften(ps[0], tid, 1, first.options[0].id, SPAM);
		await within(playOut(ps, tid, 1, 0), 60000, 'game 1');
		// Game 2 at the same table: one decision, then kill -9.
		const game1 = lastSeq(ps[0].c, tid);
		await ps[0].ok('rematch', { table: tid });
		await ps[0].ok('table_start', { table: tid });
		const o1 = await Promise.all(ps.map((p) => optionsOf(p, tid, 1, game1)));
		// Both leave the first dungeon: at decision 2 both are asked again.
		ps.forEach((p, i) => p.c.send({ type: 'choose', table: tid, decision: 1,
			choice: leaveOr(o1[i].options) }));
		await ps[0].c.waitFor((m) => m.table === tid && m.type === 'reveal' &&
			m.seq > game1, 5000, 'game 2 decision 1');
		// The highest seq a player saw; kill -9 and restart: the restored
		// table's seq is above it.
		const seen = () => Math.max(...ps.map((p) => lastSeq(p.c, tid)));
		const crashAndRestore = async () => {
			const before = seen();
			await crash(srv);
			const r = await restart(dir, tokens, tid, before);
			srv = r.srv;
			ps = r.ps;
			assert.ok(r.snap.seq > before, `restored seq ${r.snap.seq} after ${before}`);
			return r;
		};
		assert.ok(seen() > SPAM, `seq ${seen()}`);

		// The restart continues above game 1's seqs (the start record has them).
		let r = await crashAndRestore();
		assert.strictEqual(r.snap.game.decision, 2);

		// A long decision in the restored game, then kill -9 again.
		// (by a seat that is asked: the other has not chosen)
		const asked = r.snaps.findIndex((x) => Array.isArray(x.game.options));
		assert.ok(asked >= 0, 'a seat to choose');
		await chooseOften(ps[asked], tid, 2, r.snaps[asked].game.options[0].id, SPAM);
		r = await crashAndRestore();

		// Killed again before anything was written: still above.
		r = await crashAndRestore();

		// And the game plays out from the snapshot's open decision.
		const result = await within(playOut(ps, tid, r.snap.game.decision, 0, r.snaps), 60000,
			'game 2');
		assert.ok(result.seq > r.snap.seq);
		assert.strictEqual((await ps[0].ok('stats')).games, 2);
		// A rematch after the restore draws a new seed (the restored game's
		// was not made the table's).
		await ps[0].ok('rematch', { table: tid });
		await ps[0].ok('table_start', { table: tid });
		const third = await within(playOut(ps, tid, 1, result.seq), 60000, 'game 3');
		assert.notStrictEqual(third.seed, result.seed);
		for (const p of ps) p.c.close();
		const stopped = await srv.stop();
		srv = null;
		assert.strictEqual(stopped.code, 0, stopped.output.slice(-3000));
	} finally {
		if (srv) await srv.stop({ signal: 'SIGKILL' }).catch(() => {});
		fs.rmSync(dir, { recursive: true, force: true });
	}
});
