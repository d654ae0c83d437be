'use strict';
/*
 * schema_ajv.test.js — proto/schema.json checked by a real JSON Schema
 * validator (ajv, draft 2020-12, strict schema) the way a stranger would use
 * it: every message of a live session (both directions: hello, lobbies,
 * chat, a whole game, table_closed, statistics, records, admin, errors)
 * validates against the schema's root, its direction's definition
 * (client_message / server_message), and the message examples of
 * proto/PROTOCOL.md and proto/table.md validate against the root too.
 * Replies that share their type with their request (stats, chat, ...) match
 * both directions: the root is anyOf, not oneOf.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const Ajv2020 = require('ajv/dist/2020');
const { startLaird } = require('./lib/laird');
const { player, autoplay, within, adminToken, resume } = require('./lib/app');

const ROOT = path.resolve(__dirname, '..', '..');
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'proto', 'schema.json'), 'utf8'));
// strict: unknown keywords and formats are errors (a typo in the schema is not
// silently ignored); a required property the schema does not describe is legal
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
ajv.addSchema(schema);
const rootOk = ajv.getSchema(schema.$id);
const serverOk = ajv.compile({ $ref: `${schema.$id}#/$defs/server_message` });
const clientOk = ajv.compile({ $ref: `${schema.$id}#/$defs/client_message` });

function assertValid(fn, m, what) {
	assert.ok(fn(m), `${what}: ${JSON.stringify(m).slice(0, 300)}\n` +
		JSON.stringify(fn.errors && fn.errors.slice(0, 4)));
}

/* Records what a player sends, beside what it receives (c.received). */
function recordSends(p) {
	p.sent = [];
	const send = p.c.send;
	p.c.send = (m) => {
		if (typeof m === 'object' && !Buffer.isBuffer(m)) p.sent.push(m);
		send(m);
	};
	return p;
}

let srv;
test.before(async () => {
	srv = await startLaird({ args: ['--window-ms', '20', '--reveal-pause-ms', '0',
		'--ai-pacing-ms', '0', '--rate-burst', '400', '--rate-msgs-per-sec', '400'] });
});
test.after(async () => {
	if (!srv) return;
	const r = await srv.stop();
	assert.strictEqual(r.code, 0, r.output.slice(-4000));
});

test('the message examples of PROTOCOL.md and table.md validate against the root', () => {
	let n = 0;
	for (const f of ['PROTOCOL.md', 'table.md']) {
		const doc = fs.readFileSync(path.join(ROOT, 'proto', f), 'utf8');
		for (const block of doc.matchAll(/```json\n([\s\S]*?)```/g))
			for (const line of block[1].split('\n')) {
				let m;
				try {
					m = JSON.parse(line);
				} catch {
					continue; /* an example with "…" elisions or across lines */
				}
				if (!m || typeof m.type !== 'string') continue;
				assertValid(rootOk, m, `${f} example`);
				n++;
			}
	}
	assert.ok(n >= 8, `only ${n} examples parsed`);
});

test('replies that share their request\'s type validate against the root', () => {
	const replies = [
		{ type: 'stats', id: 1, player: 'bob', kind: 'gems', games: 3,
			stats: [{ key: 'gems_looted', label: 'Gems Looted', value: 118 }] },
		{ type: 'chat', lobby: 1, from: 'bob', text: 'hi', at: 1700000000000 },
	];
	for (const m of replies) {
		assertValid(serverOk, m, 'server_message');
		assertValid(clientOk, m, 'also a request');
		assertValid(rootOk, m, 'root');
	}
	assert.ok(!rootOk({ type: 'no_such_type' }), 'an unknown type is still refused');
});

test('every message of a live session validates against the root', async () => {
	const a = recordSends(await player(srv, 'schemer'));
	const b = recordSends(await player(srv, 'watcher'));
	const admin = recordSends(await resume(srv, await adminToken(srv)));
	await a.ok('lobby_join', { lobby: 1 });
	await b.ok('lobby_join', { lobby: 1 });
	await a.ok('chat', { text: 'good luck' });
	await b.c.waitFor((m) => m.type === 'chat' && m.text === 'good luck');
	const snap = await a.ok('table_create', { kind: 'gems', seats: 3, ai: 2, start: true });
	await b.ok('table_spectate', { table: snap.table });
	await within(autoplay(a, snap.table).done, 60000, 'the game to end');
	for (const t of ['stats', 'achievements', 'server_stats', 'records'])
		await a.ok(t, {});
	await a.ok('lobby_list');
	await a.ok('table_list');
	await admin.ok('admin_stats');
	await admin.ok('admin_tables');
	await admin.ok('admin_players');
	assert.strictEqual((await a.req('table_join', { table: 999999 })).code, 'not_found');
	assert.strictEqual((await a.req('chat', {})).code, 'missing_field');
	await a.ok('table_close', { table: snap.table });
	const closed = await b.c.waitFor((m) => m.type === 'table_closed');
	assert.ok(Number.isInteger(closed.seq), 'table_closed carries seq');

	const seen = new Set();
	for (const p of [a, b, admin]) {
		for (const m of p.c.received) {
			if (m.raw !== undefined) continue;
			assertValid(rootOk, m, `received ${m.type}`);
			assertValid(serverOk, m, `received ${m.type} (server_message)`);
			seen.add(m.type);
		}
		const refused = new Set(p.c.received.filter((m) => m.type === 'error').map((m) => m.id));
		for (const m of p.sent.filter((x) => !refused.has(x.id))) {
			assertValid(rootOk, m, `sent ${m.type}`);
			assertValid(clientOk, m, `sent ${m.type} (client_message)`);
		}
	}
	for (const t of ['welcome', 'lobby', 'chat', 'table', 'options', 'reveal', 'result',
		'stats', 'achievements', 'server_stats', 'records', 'admin_stats', 'error',
		'table_closed'])
		assert.ok(seen.has(t), `no ${t} in the session`);
	for (const p of [a, b, admin]) p.c.close();
});

test('table_closed is the table\'s next update: seq one past the last', async () => {
	const h = await player(srv, 'closer');
	const w = await player(srv, 'closewatch');
	const snap = await h.ok('table_create', { kind: 'gems', seats: 2 });
	await w.ok('table_spectate', { table: snap.table });
	await h.ok('table_add_ai', { table: snap.table });
	const seqs = () => w.c.received.filter((m) => m.table === snap.table &&
		Number.isInteger(m.seq) && m.type !== 'table_closed').map((m) => m.seq);
	await w.c.waitFor((m) => m.type === 'seats' && m.table === snap.table);
	await h.ok('table_close', { table: snap.table });
	const closed = await w.c.waitFor((m) => m.type === 'table_closed');
	assert.strictEqual(closed.seq, Math.max(...seqs()) + 1);
	h.c.close();
	w.c.close();
});
