'use strict';
/*
 * table_password_pool.test.js — a private table's password is hashed and
 * checked on libuv's thread pool, never on the event loop
 * (server/passcheck.h): a table closed while a join's hash is computed
 * answers that join not_found; a joiner that hangs up meanwhile leaves
 * nothing behind (the ASan run checks it); a flood of wrong passwords gets
 * wrong_password or `busy` (PROTOCOL.md §3), never more hashes in flight
 * than the bound, while the loop answers everyone else; afterwards the
 * right password still opens the table.
 *
 * laird runs with one pool thread (UV_THREADPOOL_SIZE=1), so that hashes
 * queue behind one another and a test can act while one waits. Which of
 * two racing requests wins is not assumed: a race lost is tried again
 * (bounded), and the state is checked whichever way it went.
 */
const test = require('node:test');
const assert = require('node:assert');
const { startLaird, metric } = require('./lib/laird');
const { player, within } = require('./lib/app');

const ARGS = ['--log-level', 'warn', '--new-tables-per-ip-min', '0',
	'--rate-msgs-per-sec', '1000', '--rate-burst', '2000'];
const ENV = { UV_THREADPOOL_SIZE: '1' };

/* Polls /metrics until pred(sample) holds (at most 20 s); returns the sample. */
async function metricUntil(srv, name, pred, what) {
	const deadline = Date.now() + 20000;
	while (Date.now() < deadline) {
		const v = await metric(srv, name);
		if (v !== undefined && pred(v)) return v;
		await new Promise((r) => setTimeout(r, 5));
	}
	throw new Error(`timeout: ${what} (${name})`);
}

/* Sends a request without waiting; returns a promise of its reply. */
let nextId = 900000;
function send(p, type, fields) {
	const id = nextId++;
	p.c.send({ type, id, ...fields });
	return p.c.waitFor((m) => m.id === id, 20000, `the reply to ${type} #${id}`);
}

test('a table closed while a join\'s password is hashed: the join gets not_found, ' +
	'and a joiner that hangs up meanwhile leaves nothing behind', async () => {
	const srv = await startLaird({ args: ARGS, env: ENV });
	try {
		const host = await player(srv, 'pool-host');
		const guest = await player(srv, 'pool-guest');
		const ahead = [];
		for (let i = 0; i < 3; i++) ahead.push(await player(srv, `pool-ahead${i}`));
		let closedFirst = 0;
		for (let attempt = 0; attempt < 5 && !closedFirst; attempt++) {
			const tid = (await host.ok('table_create', { kind: 'gems', seats: 2,
				private: true, password: 'right-pw' })).table;
			const base = await metric(srv, 'lair_password_checks_total');
			// Three wrong attempts queue ahead on the one pool thread, then
			// the guest's right one: the close comes while it waits.
			const aheadReplies = ahead.map((p) => send(p, 'table_join',
				{ table: tid, password: 'wrong-pw' }));
			const joined = send(guest, 'table_join', { table: tid, password: 'right-pw' });
			await metricUntil(srv, 'lair_password_checks_total', (v) => v >= base + 4,
				'four hashes submitted');
			await host.ok('table_close', { table: tid });
			const r = await joined;
			for (const a of await Promise.all(aheadReplies))
				assert.ok(['not_found', 'wrong_password'].includes(a.code), JSON.stringify(a));
			if (r.type === 'error') {
				assert.strictEqual(r.code, 'not_found', JSON.stringify(r));
				closedFirst++;
			} else {
				// The hash won the race: the guest sat, then the table closed.
				assert.strictEqual(r.type, 'table');
				await guest.c.waitFor((m) => m.type === 'table_closed' && m.table === tid,
					5000, 'table_closed');
			}
			// The guest's session goes on: its next request is answered.
			assert.strictEqual((await guest.req('ping')).type, 'pong');
		}
		assert.ok(closedFirst > 0, 'no close came while a hash was computed in 5 attempts');

		// A joiner that hangs up while its hash waits (cancelled) or runs
		// (its result goes nowhere).
		const tid = (await host.ok('table_create', { kind: 'gems', seats: 2,
			private: true, password: 'right-pw' })).table;
		const quitters = [];
		for (let i = 0; i < 3; i++) {
			const q = await player(srv, `pool-quit${i}`);
			q.c.send({ type: 'table_join', table: tid, password: 'right-pw' });
			quitters.push(q);
		}
		await metricUntil(srv, 'lair_password_checks_in_flight', (v) => v >= 1, 'a hash');
		for (const q of quitters) q.c.terminate();
		await metricUntil(srv, 'lair_password_checks_in_flight', (v) => v === 0,
			'every hash done or cancelled');
		// Nobody who hung up holds a seat: the guest still gets the free one.
		const g = await guest.req('table_join', { table: tid, password: 'right-pw' });
		assert.strictEqual(g.type, 'table', JSON.stringify(g));
		const r = await srv.stop();
		assert.strictEqual(r.code, 0, r.output.slice(-2000));
	} finally {
		await srv.stop({ signal: 'SIGKILL' }).catch(() => {});
	}
});

test('a flood of wrong passwords: wrong_password or busy, never more hashes in flight than ' +
	'the bound, the loop answers meanwhile; the right password still opens the table',
async () => {
	const srv = await startLaird({ args: ARGS, env: { ...ENV, LAIR_PASSCHECK_MAX: '2' } });
	try {
		assert.strictEqual(await metric(srv, 'lair_password_checks_max'), 2);
		const host = await player(srv, 'flood-host');
		const tid = (await host.ok('table_create', { kind: 'gems', seats: 2,
			private: true, password: 'right-pw' })).table;
		const watcher = await player(srv, 'flood-watcher');
		const flood = [];
		for (let i = 0; i < 12; i++) flood.push(await player(srv, `flood${i}`));
		const busyBefore = await metric(srv, 'lair_errors_total{code="busy"}');

		let doneCount = 0;
		const replies = flood.map((p) => send(p, 'table_join',
			{ table: tid, password: `guess-${p.name}` }).then((m) => { doneCount++; return m; }));
		// The loop answers a ping while hashes run on the pool.
		const pong = await within(watcher.req('ping'), 10000, 'a pong during the flood');
		assert.strictEqual(pong.type, 'pong');
		const inFlight = await metric(srv, 'lair_password_checks_in_flight');
		assert.ok(inFlight <= 2, `${inFlight} hashes in flight, bound 2`);
		const all = await Promise.all(replies);
		assert.ok(doneCount === 12);
		const codes = all.map((m) => m.code);
		for (const m of all) {
			assert.strictEqual(m.type, 'error', JSON.stringify(m));
			assert.ok(['wrong_password', 'busy'].includes(m.code), JSON.stringify(m));
			if (m.code === 'busy') assert.match(m.message, /too many passwords/);
		}
		const busy = codes.filter((c) => c === 'busy').length;
		assert.ok(busy >= 1, `no busy among ${codes}`);
		assert.strictEqual(await metric(srv, 'lair_errors_total{code="busy"}'),
			busyBefore + busy);
		assert.strictEqual(await metric(srv, 'lair_password_checks_in_flight'), 0);

		// Nothing was changed by the refused ones; the right password works.
		const ok = await flood[0].req('table_join', { table: tid, password: 'right-pw' });
		assert.strictEqual(ok.type, 'table', JSON.stringify(ok));
		assert.strictEqual(ok.seats.filter((s) => s.kind === 'human').length, 2);
		const r = await srv.stop();
		assert.strictEqual(r.code, 0, r.output.slice(-2000));
	} finally {
		await srv.stop({ signal: 'SIGKILL' }).catch(() => {});
	}
});
