'use strict';
/*
 * crowds.test.js — laird with many of something from one place: a table
 * with 300 spectators tells every one of them when it closes; lists of 900
 * tables come in pages (PROTOCOL.md §5 Listings), admin lists too; 300
 * fresh players from one address make only 100 players and 30 tables
 * (new_players_per_ip_hour, new_tables_per_ip_min).
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { startLaird, stopClean } = require('./lib/laird');
const { player, raw, resume, adminToken } = require('./lib/app');

/* n players, connected and said hello, a few at a time. */
async function players(srv, prefix, n) {
	const out = [];
	for (let i = 0; i < n; i += 50) {
		const batch = [];
		for (let k = i; k < Math.min(n, i + 50); k++) batch.push(player(srv, `${prefix}${k}`));
		out.push(...await Promise.all(batch));
	}
	return out;
}

const CROWD_ARGS = ['--max-conns-per-ip', '1000', '--rate-burst', '1000',
	'--new-players-per-ip-hour', '0', '--new-tables-per-ip-min', '0'];

test('table_close tells every spectator, all 300 of them', async () => {
	const srv = await startLaird({ args: CROWD_ARGS });
	try {
		const host = await player(srv, 'host');
		const t = (await host.ok('table_create', { kind: 'gems', seats: 2 })).table;
		const crowd = await players(srv, 'fan', 300);
		await Promise.all(crowd.map((p) => p.ok('table_spectate', { table: t })));
		await host.ok('table_close', { table: t });
		const told = await Promise.all(crowd.map((p) =>
			p.c.waitFor((m) => m.type === 'table_closed' && m.table === t, 10000, 'table_closed')));
		assert.equal(told.length, 300);
		// ...and none of them is kept a member of the closed table.
		const w = await crowd[299].req('table_spectate', { table: t });
		assert.equal(w.code, 'not_found');
		for (const p of [host, ...crowd]) p.c.close();
	} finally {
		await stopClean(srv);
	}
});

const FAST = ['--rate-msgs-per-sec', '100000', '--rate-burst', '100000'];

/* Walks a list request's pages; returns every item and the replies. */
async function walk(p, type, fields, key) {
	const items = [];
	const replies = [];
	let cursor = 0;
	for (let guard = 0; guard < 1000; guard++) {
		const r = await p.ok(type, { ...fields, cursor });
		replies.push(r);
		items.push(...r[key]);
		if (r.next === null) return { items, replies };
		assert.ok(Number.isInteger(r.next) && r.next > cursor, `next ${r.next} after ${cursor}`);
		cursor = r.next;
	}
	throw new Error('no last page');
}

test('listings are pages: 900 tables, each list bounded, every table listed once', async () => {
	const srv = await startLaird({ args: [...FAST, '--max-tables-per-player', '1000',
		'--new-tables-per-ip-min', '0'] });
	try {
		const p = await player(srv, 'builder');
		for (let i = 0; i < 900; i += 100)
			await Promise.all(Array.from({ length: 100 }, () =>
				p.ok('table_create', { kind: 'gems', seats: 2 })));
		// No limit given: the first 100, the total, where to go on.
		const first = await p.ok('table_list', {});
		assert.equal(first.tables.length, 100);
		assert.equal(first.total, 900);
		assert.equal(first.next, first.tables[99].id);
		const ids = first.tables.map((t) => t.id);
		assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
		// Every page in id order, no table twice, none missed.
		const all = await walk(p, 'table_list', { limit: 500 }, 'tables');
		assert.equal(all.replies.length, 2);
		const seen = all.items.map((t) => t.id);
		assert.equal(new Set(seen).size, 900);
		assert.deepEqual(seen, [...seen].sort((a, b) => a - b));
		for (const r of all.replies) assert.ok(JSON.stringify(r).length < 256 * 1024);
		// lobby_join: a page of tables, the total in the summary.
		const l = await p.ok('lobby_join', { lobby: 1, limit: 10 });
		assert.equal(l.tables.length, 10);
		assert.equal(l.lobby.tables, 900);
		assert.equal(l.next, l.tables[9].id);
		const rest = await p.ok('table_list', { lobby: 1, cursor: l.next, limit: 5 });
		assert.equal(rest.tables[0].id > l.next, true);
		// A page past the end, and bad pages.
		const past = await p.ok('table_list', { cursor: seen[899] });
		assert.deepEqual([past.tables.length, past.total, past.next], [0, 900, null]);
		for (const [f, v] of [['limit', 0], ['limit', 501], ['cursor', -1], ['limit', 'x']]) {
			const e = await p.req('table_list', { [f]: v });
			assert.deepEqual([e.code, e.field], ['bad_field', f], JSON.stringify(e));
		}
		p.c.close();
	} finally {
		await stopClean(srv);
	}
});

test('admin lists are pages too: admin_tables, admin_lobbies, admin_players', async () => {
	const srv = await startLaird({ args: [...FAST, ...CROWD_ARGS, '--max-tables-per-player',
		'1000'] });
	try {
		const admin = await resume(srv, await adminToken(srv));
		for (let i = 0; i < 5; i++) await admin.ok('admin_lobby_create', { name: `room ${i}` });
		const crowd = await players(srv, 'p', 250);
		// Tables in two lobbies.
		await Promise.all(crowd.slice(0, 150).map((p, i) =>
			p.ok('table_create', { kind: 'gems', seats: 2, lobby: i % 2 ? 1 : 2 })));
		const tables = await walk(admin, 'admin_tables', { limit: 40 }, 'tables');
		assert.equal(tables.items.length, 150);
		assert.equal(tables.replies[0].total, 150);
		assert.equal(new Set(tables.items.map((t) => t.id)).size, 150);
		const in2 = await walk(admin, 'admin_tables', { lobby: 2, limit: 30 }, 'tables');
		assert.equal(in2.items.length, 75);
		assert.ok(in2.items.every((t) => t.lobby === 2));
		const lobbies = await walk(admin, 'admin_lobbies', { limit: 2 }, 'lobbies');
		assert.deepEqual(lobbies.items.map((l) => l.id), [1, 2, 3, 4, 5, 6]);
		assert.equal((await admin.ok('lobby_list', { limit: 4 })).next, 4);
		const online = await walk(admin, 'admin_players', {}, 'players');
		assert.equal(online.replies.length, 3); // 251 online: pages of 100
		assert.equal(online.replies[0].total, 251);
		assert.equal(new Set(online.items.map((x) => x.id)).size, 251);
		for (const p of [admin, ...crowd]) p.c.close();
	} finally {
		await stopClean(srv);
	}
});

test('one address cannot flood a lobby: 300 fresh players, default limits', async () => {
	// As reported: 300 new players from one address, each creating the
	// most tables it may, all-AI. Only the connection cap is lifted.
	const srv = await startLaird({ args: ['--max-conns-per-ip', '0'] });
	try {
		const made = [];
		let refusedNames = 0;
		for (let i = 0; i < 300; i += 50) {
			const batch = await Promise.all(Array.from({ length: 50 }, async (_, k) => {
				const p = await raw(srv);
				const w = await p.req('hello', { protocol: 1, name: `flood${i + k}` });
				if (w.type === 'welcome') return p;
				assert.deepEqual([w.code, w.field], ['limit_reached', 'name']);
				refusedNames++;
				p.c.close();
				return null;
			}));
			made.push(...batch.filter(Boolean));
		}
		assert.equal(made.length, 100, 'new_players_per_ip_hour: 100');
		assert.equal(refusedNames, 200);
		let created = 0;
		let refusedTables = 0;
		await Promise.all(made.map(async (p) => {
			for (let t = 0; t < 3; t++) {
				const r = await p.req('table_create', { kind: 'gems', seats: 2, ai: 2, start: true });
				if (r.type === 'table') created++;
				else if (r.code === 'limit_reached') refusedTables++;
			}
		}));
		// 30 a minute: the burst, and what trickles back during the test.
		assert.ok(created >= 30 && created <= 40, `${created} tables`);
		assert.equal(created + refusedTables, 300);
		// The lobby is still a small page for anyone joining it.
		const late = await player(srv, 'latecomer').catch(() => null);
		const who = late || made[0];
		const l = await who.ok('lobby_join', { lobby: 1 });
		assert.ok(l.tables.length <= 100 && JSON.stringify(l).length < 64 * 1024);
		for (const p of made) p.c.close();
	} finally {
		await stopClean(srv);
	}
});
