'use strict';
/*
 * app_schema.test.js — proto/schema.json describes the protocol as laird
 * speaks it: its request types and error codes are exactly the decoder's
 * (proto/proto_msg.c); every message a real session sends and receives
 * (hello, lobbies, chat, a whole game, statistics, admin, errors) validates;
 * requests the decoder refuses are refused by the schema too.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { startLaird } = require('./lib/laird');
const { player, resume, autoplay, within, adminToken } = require('./lib/app');
const { check } = require('./lib/jschema');

const ROOT = path.resolve(__dirname, '..', '..');
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'proto', 'schema.json'), 'utf8'));
const server = { $ref: '#/$defs/server_message' };
const client = { $ref: '#/$defs/client_message' };

test('the schema names exactly the decoder\'s request types and error codes', () => {
	const src = fs.readFileSync(path.join(ROOT, 'proto', 'proto_msg.c'), 'utf8');
	const types = [...src.matchAll(/\[PROTO_[A-Z_]+\] = \{"([a-z_]+)"/g)].map((m) => m[1]);
	const codes = [...src.matchAll(/\[PROTO_E_[A-Z_]+\] = "([a-z_]+)"/g)].map((m) => m[1]);
	assert.ok(types.length >= 30 && codes.length >= 20);
	const reqDefs = Object.keys(schema.$defs).filter((k) => k.startsWith('request_'))
		.map((k) => k.slice(8));
	assert.deepStrictEqual([...reqDefs].sort(), [...types].sort());
	assert.deepStrictEqual([...schema.$defs.server_error.properties.code.enum].sort(),
		[...codes].sort());
	// And PROTOCOL.md documents every one of them.
	const doc = fs.readFileSync(path.join(ROOT, 'proto', 'PROTOCOL.md'), 'utf8');
	for (const t of types) assert.ok(doc.includes(`\`${t}\``), `PROTOCOL.md lacks ${t}`);
	for (const c of codes) assert.ok(doc.includes(`\`${c}\``), `PROTOCOL.md lacks ${c}`);
});

test('requests the decoder refuses fail the schema; good ones pass', () => {
	const good = [
		{ type: 'hello', id: 1, protocol: 1, name: 'alice' },
		{ type: 'table_create', kind: 'gems', seats: 5, ai: 4, start: true },
		{ type: 'choose', table: 3, choice: 'stay', decision: 2 },
		{ type: 'stats', player: 'bob' },
	];
	for (const m of good) assert.deepStrictEqual(check(schema, client, m), [], JSON.stringify(m));
	const bad = [
		{ type: 'hello', protocol: 1, name: 'bad name' },
		{ type: 'table_create', kind: 'gems', seats: 12 },
		{ type: 'table_create', kind: 'gems' },
		{ type: 'choose', table: 0, choice: 'x' },
		{ type: 'lobby_join', lobby: '1' },
		{ type: 'dance' },
		{ id: 1.5, type: 'ping' },
	];
	for (const m of bad) assert.ok(check(schema, client, m).length > 0, JSON.stringify(m));
});

test('every message of a real session validates against the schema', async () => {
	const srv = await startLaird({ args: ['--window-ms', '50', '--reveal-pause-ms', '0',
		'--ai-pacing-ms', '0'] });
	try {
		const adm = await resume(srv, await adminToken(srv));
		const a = await player(srv, 'schemer');
		const b = await player(srv, 'viewer');
		const sent = [];
		const origSend = a.c.send;
		a.c.send = (m) => {
			if (typeof m === 'object' && !Buffer.isBuffer(m)) sent.push(m);
			origSend(m);
		};
		await a.ok('lobby_list');
		await a.ok('lobby_join', { lobby: 1 });
		await b.ok('lobby_join', { lobby: 1 });
		await a.ok('chat', { text: 'hi' });
		await a.ok('table_list');
		const t = (await a.ok('table_create', { kind: 'gems', seats: 3, ai: 2 })).table;
		await b.ok('table_spectate', { table: t });
		await a.ok('table_start', { table: t });
		// The AI seats choose at once and a's choice opens the window
		// (no status of its own, table.md §3): a status from `selecting`.
		await a.c.waitFor((m) => m.type === 'options' && m.table === t && m.seat !== undefined);
		await a.ok('selecting', { table: t });
		await a.c.waitFor((m) => m.type === 'status' && m.table === t);
		await within(autoplay(a, t).done, 60000, 'game');
		await a.ok('table_sync', { table: t, since: 1 });
		await a.ok('stats');
		await a.ok('achievements');
		await a.ok('server_stats');
		await a.ok('records');
		await a.req('table_join', { table: 9999 });
		await a.req('lobby_join', {});
		await a.ok('ping');
		await adm.ok('admin_lobbies');
		await adm.ok('admin_tables');
		await adm.ok('admin_players');
		await adm.ok('admin_stats');
		await a.ok('table_close', { table: t });
		await b.c.waitFor((m) => m.type === 'table_closed');
		await adm.ok('admin_kick', { player: 'viewer' });
		await b.c.waitFor((m) => m.type === 'bye');
		const seen = new Set();
		for (const p of [a, b, adm]) {
			for (const m of p.c.received) {
				seen.add(m.type);
				assert.deepStrictEqual(check(schema, server, m), [], JSON.stringify(m).slice(0, 300));
			}
		}
		for (const m of sent) {
			if (m.type === 'lobby_join' && m.lobby === undefined) continue; // the bad one
			assert.deepStrictEqual(check(schema, client, m), [], JSON.stringify(m));
		}
		for (const t2 of ['welcome', 'lobbies', 'lobby', 'chat', 'presence', 'tables', 'table',
			'table_update', 'seats', 'start', 'options', 'status', 'window', 'reveal', 'result',
			'stats', 'achievements', 'server_stats', 'records', 'error', 'ok', 'pong', 'players',
			'admin_stats', 'table_closed', 'bye'])
			assert.ok(seen.has(t2), `the session produced no ${t2}`);
		a.c.close();
		adm.c.close();
	} finally {
		await srv.stop();
	}
});
