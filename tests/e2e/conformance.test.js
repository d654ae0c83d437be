'use strict';
/*
 * conformance.test.js — what proto/PROTOCOL.md and proto/table.md promise,
 * checked as a stranger with a different client would, from the documents
 * alone: the one rule for taking over an AI seat mid-game (table.md §4: be
 * at the table, watching; else not_seated, by all three routes, and nothing
 * changes); take_seat on a waiting table (table_join with that seat, no
 * password); the error codes PROTOCOL.md §3 lists for common mistakes; a new
 * player's statistics (sums 0, min/max null, §8).
 */
const test = require('node:test');
const assert = require('node:assert');
const { startLaird } = require('./lib/laird');
const { player, resume, adminToken } = require('./lib/app');

let srv;
test.before(async () => {
	srv = await startLaird({ args: ['--window-ms', '20', '--reveal-pause-ms', '0',
		'--rate-burst', '400', '--rate-msgs-per-sec', '400'] });
});
test.after(async () => {
	if (!srv) return;
	const r = await srv.stop();
	assert.strictEqual(r.code, 0, r.output.slice(-4000));
});

test('an AI seat mid-game is taken over only from the table: not_seated by every route', async () => {
	const host = await player(srv, 'tkhost');
	const stranger = await player(srv, 'tkstranger');
	const snap = await host.ok('table_create', { kind: 'gems', seats: 2, ai: 1, start: true });
	const t = snap.table;
	// the game waits for the host's first choice (its deadline is 30 s)
	const opts = await host.c.waitFor((m) => m.type === 'options' && m.table === t && m.seat === 0);
	const before = (await host.ok('table_sync', { table: t, since: 0 }), host.c.received.length);
	for (const [type, fields] of [['take_seat', { seat: 1 }], ['table_join', { seat: 1 }],
		['table_join', {}], ['choose', { seat: 1, choice: 'stay', decision: opts.decision }]]) {
		const r = await stranger.req(type, { table: t, ...fields });
		assert.strictEqual(r.type, 'error', `${type} ${JSON.stringify(fields)}`);
		assert.strictEqual(r.code, 'not_seated', `${type} ${JSON.stringify(fields)}: ${r.message}`);
	}
	// nothing changed: the host saw no seats update, seat 1 is still the AI's
	assert.ok(!host.c.received.slice(before).some((m) => m.type === 'seats' && m.table === t));
	// watching first, the same request takes the seat
	await stranger.ok('table_spectate', { table: t });
	const mine = await stranger.ok('take_seat', { table: t, seat: 1 });
	assert.strictEqual(mine.type, 'table');
	assert.strictEqual(mine.you, 1);
	const seats = await host.c.waitFor((m) => m.type === 'seats' && m.table === t &&
		m.seats[1].kind === 'human');
	assert.strictEqual(seats.seats[1].name, 'tkstranger');
	host.c.close();
	stranger.c.close();
});

test('take_seat on a waiting table is table_join with that seat, without a password', async () => {
	const host = await player(srv, 'wshost');
	const watcher = await player(srv, 'wswatcher');
	const stranger = await player(srv, 'wsstranger');
	const t = (await host.ok('table_create', { kind: 'gems', seats: 3, ai: 1 })).table;
	// someone watching takes the free seat: seated, no longer watching
	await watcher.ok('table_spectate', { table: t });
	const w = await watcher.ok('take_seat', { table: t, seat: 2 });
	assert.strictEqual(w.state, 'waiting');
	assert.strictEqual(w.you, 2);
	assert.strictEqual(w.spectators, 0);
	await host.c.waitFor((m) => m.type === 'seats' && m.table === t &&
		m.seats[2].kind === 'human' && m.seats[2].name === 'wswatcher');
	// someone not at the table takes the AI's seat: it turns human
	const s = await stranger.ok('take_seat', { table: t, seat: 1 });
	assert.strictEqual(s.you, 1);
	assert.deepStrictEqual(s.seats.map((x) => x.kind), ['human', 'human', 'human']);
	// a seat a human holds is full
	const again = await (await player(srv, 'wslate')).req('take_seat', { table: t, seat: 2 });
	assert.strictEqual(again.code, 'full');
	// a private table: the password is checked when watching, never here
	const p = (await host.ok('table_create', { kind: 'gems', seats: 2, private: true,
		password: 'letmein' })).table;
	const denied = await stranger.req('take_seat', { table: p, seat: 1 });
	assert.strictEqual(denied.code, 'wrong_password');
	assert.strictEqual(denied.field, 'password');
	await stranger.ok('table_spectate', { table: p, password: 'letmein' });
	assert.strictEqual((await stranger.ok('take_seat', { table: p, seat: 1 })).you, 1);
	for (const c of [host, watcher, stranger]) c.c.close();
});

test('the error codes PROTOCOL.md §3 gives for common mistakes', async () => {
	const p = await player(srv, 'mistaken');
	const admin = await resume(srv, await adminToken(srv));
	const expect = async (who, type, fields, code, field) => {
		const r = await who.req(type, fields);
		assert.strictEqual(r.type, 'error', `${type}: ${JSON.stringify(r)}`);
		assert.strictEqual(r.code, code, `${type}: ${r.message}`);
		if (field) assert.strictEqual(r.field, field, type);
	};
	await expect(p, 'chat', { text: 'anyone?' }, 'not_seated');
	await expect(admin, 'admin_lobby_close', { lobby: 1 }, 'forbidden', 'lobby');
	await expect(p, 'table_create', { kind: 'chess', seats: 2 }, 'not_found', 'kind');
	await expect(p, 'table_create', { kind: 'gems', seats: 2, config: { dice: 3 } },
		'bad_field', 'config');
	await expect(p, 'table_create', { kind: 'gems', seats: 2, name: 'a\u001b[2Jb' },
		'bad_field', 'name');
	await expect(admin, 'admin_lobby_create', { name: 'x\u202ey' }, 'bad_field', 'name');
	await expect(p, 'hello', { protocol: 1, name: 'again' }, 'already_hello');
	// gems choices: the kind's refusals are illegal_choice, with its message
	const snap = await p.ok('table_create', { kind: 'gems', seats: 1, start: true });
	const o = await p.c.waitFor((m) => m.type === 'options' && m.table === snap.table);
	await expect(p, 'choose', { table: snap.table, decision: o.decision, choice: 'fly' },
		'illegal_choice', 'choice');
	await expect(p, 'choose', { table: snap.table, decision: o.decision, choice: 'bank12' },
		'illegal_choice', 'choice');
	await expect(p, 'choose', { table: snap.table, decision: o.decision + 5, choice: 'stay' },
		'wrong_phase');
	p.c.close();
	admin.c.close();
});

test('a new player\'s statistics: sums are 0, a min or max is null', async () => {
	const p = await player(srv, 'newcomer');
	const s = await p.ok('stats', {});
	assert.strictEqual(s.games, 0);
	const v = Object.fromEntries(s.stats.map((x) => [x.key, x.value]));
	assert.strictEqual(v.games_played, 0);
	assert.strictEqual(v.gems_looted, 0);
	assert.strictEqual(v.min_depth_explored, null);
	assert.strictEqual(v.highest_winning_score, null);
	p.c.close();
});
