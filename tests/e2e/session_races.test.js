'use strict';
/*
 * session_races.test.js — a session replaced by a newer connection, or
 * kicked, while it waits for the store: nothing it had queued may run
 * afterwards. Made deterministic by holding the database's write lock from
 * the outside (sqlite3's shell): the store's one thread then waits on the
 * first write, every request behind it waits too, in order, and the test
 * lets them all go at once.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { startLaird, stopClean } = require('./lib/laird');
const { player, raw, resume, adminToken } = require('./lib/app');
const { lockDatabase, storeQueued } = require('./lib/store_lock');

/* A write that waits on the lock and so holds up the store thread. */
async function blockStore(srv) {
	const w = await raw(srv);
	w.c.send({ type: 'hello', id: 'blocker', protocol: 1, name: 'blocker' });
	await storeQueued(srv, 1);
	return w;
}

test('a replaced session\'s queued hello never runs: the newest connection keeps the player',
	async () => {
		const srv = await startLaird();
		try {
			const alice = await player(srv, 'alice'); // connection A
			const lock = await lockDatabase(srv.dbPath);
			const w = await blockStore(srv);
			// B: the same player from a newer connection; its lookup waits.
			const b = await raw(srv);
			b.c.send({ type: 'hello', id: 'b-hello', protocol: 1, token: alice.token });
			await storeQueued(srv, 2);
			// A waits for the store too (after B's lookup), and queues a hello.
			alice.c.send({ type: 'stats', id: 'a-stats' });
			await storeQueued(srv, 3);
			alice.c.send({ type: 'hello', id: 'a-again', protocol: 1, token: alice.token });
			await lock.release();
			assert.equal((await b.c.waitFor((m) => m.id === 'b-hello')).type, 'welcome');
			assert.equal((await alice.c.waitFor((m) => m.type === 'bye')).reason, 'replaced');
			await alice.c.waitClose();
			// A round trip through the store from B: anything A's queue had
			// sent to the store would be answered before this.
			assert.equal((await b.ok('stats')).type, 'stats');
			assert.ok(!alice.c.received.some((m) => m.id === 'a-again'), 'A\'s queued hello ran');
			assert.ok(!b.c.received.some((m) => m.type === 'bye'),
				`B was replaced: ${JSON.stringify(b.c.received)}`);
			assert.equal(b.c.closeInfo, null);
			w.c.close();
			b.c.close();
		} finally {
			await stopClean(srv);
		}
	});

test('a kicked session\'s queued requests never run: it does not get its seat back', async () => {
	const srv = await startLaird();
	try {
		const admin = await resume(srv, await adminToken(srv));
		const host = await player(srv, 'host');
		const kim = await player(srv, 'kim');
		const t = (await host.ok('table_create', { kind: 'gems', seats: 2 })).table;
		await kim.ok('table_join', { table: t, seat: 1 });

		const lock = await lockDatabase(srv.dbPath);
		const w = await blockStore(srv);
		kim.c.send({ type: 'stats', id: 'k-stats' }); // waits for the store...
		await storeQueued(srv, 2);
		// ...and these wait behind it, in kim's own queue.
		kim.c.send({ type: 'table_leave', id: 'k-leave', table: t });
		kim.c.send({ type: 'table_join', id: 'k-join', table: t, seat: 1 });
		// Kim reads nothing for now: its connection stays open, closing,
		// while the store lets its request go.
		kim.c.ws._socket.pause();
		await admin.ok('admin_kick', { player: 'kim', reason: 'test' });
		await lock.release();
		assert.equal((await host.ok('stats')).type, 'stats'); // the store is past kim's
		// A fresh snapshot of the table (table_sync without since).
		const snap = host.c.waitFor((m) => m.type === 'table' && m.table === t);
		await host.ok('table_sync', { table: t });
		const seats = (await snap).seats;
		assert.ok(seats[1].player !== kim.id && seats[1].name !== 'kim',
			`kim still seated: ${JSON.stringify(seats)}`);
		kim.c.ws._socket.resume();
		assert.equal((await kim.c.waitFor((m) => m.type === 'bye')).reason, 'kicked');
		await kim.c.waitClose();
		assert.ok(!kim.c.received.some((m) => m.id === 'k-join' || m.id === 'k-leave'),
			JSON.stringify(kim.c.received));
		w.c.close();
		host.c.close();
		admin.c.close();
	} finally {
		await stopClean(srv);
	}
});
