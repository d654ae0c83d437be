'use strict';
/*
 * app_identity.test.js — hello, tokens, lobbies, chat, admin, and every
 * class of bad input (PROTOCOL.md §3: each gets its stable code, changes
 * nothing, and leaves the connection open unless abusive).
 */
const test = require('node:test');
const assert = require('node:assert');
const { startLaird, connect } = require('./lib/laird');
const { raw, player, resume, adminToken } = require('./lib/app');

let srv;
test.before(async () => {
	srv = await startLaird({ args: ['--rate-burst', '200', '--rate-msgs-per-sec', '200'] });
});
test.after(async () => {
	// A clean exit: 0, and (under ASan) no leak or error report.
	if (!srv) return;
	const r = await srv.stop();
	assert.strictEqual(r.code, 0, r.output.slice(-4000));
	assert.ok(!/ERROR: (Address|Leak)Sanitizer|runtime error/.test(r.output), r.output.slice(-4000));
});

test('hello with a new name creates a player and returns a 64-hex token once', async () => {
	const a = await player(srv, 'alice');
	assert.match(a.token, /^[0-9a-f]{64}$/);
	assert.strictEqual(a.welcome.protocol, 1);
	assert.strictEqual(a.welcome.player.name, 'alice');
	assert.strictEqual(a.welcome.player.admin, false);
	assert.strictEqual(a.welcome.default_lobby, 1);
	// The token resumes the same player, and is not shown again.
	const again = await resume(srv, a.token);
	assert.strictEqual(again.welcome.player.id, a.id);
	assert.strictEqual(again.welcome.token, undefined);
	// The older connection was replaced.
	const bye = await a.c.waitFor((m) => m.type === 'bye');
	assert.strictEqual(bye.reason, 'replaced');
	await a.c.waitClose();
	again.c.close();
});

test('the token is stored only as a hash', async () => {
	const b = await player(srv, 'hashcheck');
	const fs = require('node:fs');
	const db = fs.readFileSync(srv.dbPath);
	const wal = fs.existsSync(srv.dbPath + '-wal') ? fs.readFileSync(srv.dbPath + '-wal') : Buffer.alloc(0);
	assert.ok(!db.includes(b.token) && !wal.includes(b.token), 'the token is in the database');
	b.c.close();
});

test('name_taken (ignoring case), bad_token, version_unsupported', async () => {
	const a = await player(srv, 'Carol');
	const p = await raw(srv);
	let r = await p.req('hello', { protocol: 1, name: 'carol' });
	assert.strictEqual(r.code, 'name_taken');
	r = await p.req('hello', { protocol: 1, token: 'f'.repeat(64) });
	assert.strictEqual(r.code, 'bad_token');
	r = await p.req('hello', { protocol: 2, name: 'dave' });
	assert.strictEqual(r.code, 'version_unsupported');
	assert.deepStrictEqual(r.supported, [1]);
	// Still open, still not hello'd, and no player was created by the errors.
	r = await p.req('lobby_list');
	assert.strictEqual(r.code, 'not_hello');
	r = await p.req('ping');
	assert.strictEqual(r.type, 'pong');
	await p.hello({ name: 'dave' });
	r = await p.req('hello', { protocol: 1, name: 'dave2' });
	assert.strictEqual(r.code, 'already_hello');
	a.c.close();
	p.c.close();
});

test('requests sent right after hello are answered after the welcome, in order', async () => {
	const c = await connect(srv.url);
	c.send({ type: 'hello', id: 'h', protocol: 1, name: 'eager' });
	c.send({ type: 'lobby_list', id: 'l' });
	c.send({ type: 'ping', id: 'p' });
	await c.waitFor((m) => m.id === 'p');
	const ids = c.received.map((m) => m.id);
	assert.deepStrictEqual(ids, ['h', 'l', 'p']);
	assert.strictEqual(c.received[0].type, 'welcome');
	assert.strictEqual(c.received[1].type, 'lobbies');
	c.close();
});

test('lobbies: the default lobby, join, presence, chat, leave', async () => {
	const a = await player(srv, 'lobbyA');
	const b = await player(srv, 'lobbyB');
	const list = await a.ok('lobby_list');
	assert.ok(list.lobbies.some((l) => l.id === 1 && l.name === 'main'));
	const ja = await a.ok('lobby_join', { lobby: 1 });
	assert.strictEqual(ja.type, 'lobby');
	assert.ok(ja.players.includes('lobbyA'));
	await b.ok('lobby_join', { lobby: 1 });
	const pres = await a.c.waitFor((m) => m.type === 'presence' && m.player === 'lobbyB');
	assert.strictEqual(pres.joined, true);
	await b.ok('chat', { text: 'hello there' });
	const chat = await a.c.waitFor((m) => m.type === 'chat' && m.from === 'lobbyB');
	assert.strictEqual(chat.text, 'hello there');
	assert.strictEqual(chat.lobby, 1);
	// A later joiner sees the recent chat.
	const c = await player(srv, 'lobbyC');
	const jc = await c.ok('lobby_join', { lobby: 1 });
	assert.ok(jc.chat.some((l) => l.from === 'lobbyB' && l.text === 'hello there'));
	await b.ok('lobby_leave');
	const left = await a.c.waitFor((m) => m.type === 'presence' && m.player === 'lobbyB' && !m.joined);
	assert.ok(left);
	let r = await b.req('chat', { text: 'anyone?' });
	assert.strictEqual(r.code, 'not_seated');
	r = await b.req('lobby_join', { lobby: 999 });
	assert.strictEqual(r.code, 'not_found');
	assert.strictEqual(r.field, 'lobby');
	r = await b.req('chat', { text: 'x'.repeat(600) }); // over max_chat_bytes (500)
	assert.strictEqual(r.code, 'not_seated');
	await b.ok('lobby_join', { lobby: 1 });
	r = await b.req('chat', { text: 'x'.repeat(600) });
	assert.strictEqual(r.code, 'limit_reached');
	for (const p of [a, b, c]) p.c.close();
});

test('admin: the first-start token has the admin role; others get forbidden', async () => {
	const token = await adminToken(srv);
	const adm = await resume(srv, token);
	assert.strictEqual(adm.welcome.player.admin, true);
	const u = await player(srv, 'notadmin');
	let r = await u.req('admin_lobbies');
	assert.strictEqual(r.code, 'forbidden');
	r = await u.req('admin_lobby_create', { name: 'x' });
	assert.strictEqual(r.code, 'forbidden');
	const created = await adm.ok('admin_lobby_create', { name: 'second' });
	assert.strictEqual(created.lobby.name, 'second');
	const lid = created.lobby.id;
	const list = await u.ok('lobby_list');
	assert.ok(list.lobbies.some((l) => l.id === lid));
	await u.ok('lobby_join', { lobby: lid });
	await adm.ok('admin_lobby_close', { lobby: lid });
	const closed = await u.c.waitFor((m) => m.type === 'lobby_closed');
	assert.strictEqual(closed.lobby, lid);
	r = await adm.req('admin_lobby_close', { lobby: 1 });
	assert.strictEqual(r.code, 'forbidden');
	const players = await adm.ok('admin_players');
	assert.ok(players.players.some((p) => p.name === 'notadmin'));
	const stats = await adm.ok('admin_stats');
	assert.ok(stats.connections >= 2);
	assert.ok(stats.players_online >= 2);
	await adm.ok('admin_kick', { player: 'notadmin', reason: 'testing' });
	const bye = await u.c.waitFor((m) => m.type === 'bye');
	assert.strictEqual(bye.reason, 'kicked');
	await u.c.waitClose();
	r = await adm.req('admin_kick', { player: 'nobody' });
	assert.strictEqual(r.code, 'not_found');
	adm.c.close();
});

test('bad input: each class gets its stable code and the connection stays open', async () => {
	const p = await player(srv, 'badinput');
	const c = p.c;
	const expectErr = async (frame, code, field) => {
		c.send(frame);
		const e = await c.waitFor((m) => m.type === 'error');
		assert.strictEqual(e.code, code, `${JSON.stringify(frame)} → ${JSON.stringify(e)}`);
		if (field) assert.strictEqual(e.field, field);
		assert.ok(e.message.length > 0);
		const pong = await p.req('ping');
		assert.strictEqual(pong.type, 'pong');
	};
	await expectErr('{"type":', 'bad_json');
	await expectErr('[1,2,3]', 'bad_message');
	await expectErr({ id: 5 }, 'missing_field', 'type');
	await expectErr({ type: 7 }, 'bad_field', 'type');
	await expectErr({ type: 'fly' }, 'unknown_type', 'type');
	await expectErr({ type: 'lobby_join' }, 'missing_field', 'lobby');
	await expectErr({ type: 'lobby_join', lobby: 'one' }, 'bad_field', 'lobby');
	await expectErr({ type: 'table_create', kind: 'gems', seats: 12 }, 'bad_field', 'seats');
	await expectErr({ type: 'table_join', table: 424242 }, 'not_found', 'table');
	await expectErr({ type: 'choose', table: 424242, choice: 'x' }, 'not_found', 'table');
	// The id is echoed on errors.
	const r = await p.req('fly');
	assert.strictEqual(r.code, 'unknown_type');
	// Nothing changed: still in no lobby, no table anywhere.
	const t = await p.ok('table_list');
	assert.deepStrictEqual(t.tables, []);
	c.close();
});

test('bad input: a binary frame closes with 1003, a message over the limit with 1009', async () => {
	const p = await player(srv, 'bigframe');
	p.c.send(Buffer.from([1, 2, 3]));
	assert.strictEqual((await p.c.waitClose()).code, 1003);
	const q = await player(srv, 'bigframe2');
	q.c.send(JSON.stringify({ type: 'chat', text: 'x'.repeat(20000) }));
	assert.strictEqual((await q.c.waitClose()).code, 1009);
});

test('a connection that never says hello is closed', async () => {
	const s2 = await startLaird({ args: ['--hello-timeout-sec', '1'] });
	try {
		const c = await connect(s2.url);
		const { code } = await c.waitClose(5000);
		assert.strictEqual(code, 1000);
	} finally {
		await s2.stop();
	}
});

test('flooding: rate_limited errors change nothing; an abusive peer is closed', async () => {
	const s2 = await startLaird({
		args: ['--rate-burst', '5', '--rate-msgs-per-sec', '1', '--rate-abuse-strikes', '50'],
	});
	try {
		const p = await player(s2, 'flood');
		for (let i = 0; i < 10; i++) p.c.send({ type: 'lobby_join', id: 1000 + i, lobby: 1 });
		const e = await p.c.waitFor((m) => m.type === 'error' && m.code === 'rate_limited');
		assert.ok(e);
		// Still open: once the bucket refills, requests are answered again.
		const joined = p.c.received.filter((m) => m.type === 'lobby').length;
		assert.ok(joined >= 1 && joined < 10, `${joined} joins answered`);
		let pong = null;
		for (let i = 0; i < 10 && !pong; i++) {
			p.c.send({ type: 'ping', id: 'again' + i });
			p.c.pending.length = 0; // old errors
			const m = await p.c.waitFor((x) => x.type === 'pong' ||
				(x.type === 'error' && x.code === 'rate_limited'), 3000);
			if (m.type === 'pong') pong = m;
			else await new Promise((res) => setTimeout(res, 300)); // bucket refill
		}
		assert.ok(pong, 'a request is answered again after the refill');
		// Past the strikes the connection is closed (net: 1008).
		for (let i = 0; i < 80; i++) p.c.send({ type: 'ping' });
		const { code } = await p.c.waitClose(5000);
		assert.ok(code === 1008 || code === 1006, `closed with ${code}`);
	} finally {
		await s2.stop();
	}
});

test('shutdown: clients are told (bye shutdown) and closed with 1001', async () => {
	const s2 = await startLaird();
	const p = await player(s2, 'leaving');
	const stopped = s2.stop();
	const bye = await p.c.waitFor((m) => m.type === 'bye', 5000);
	assert.strictEqual(bye.reason, 'shutdown');
	assert.strictEqual((await p.c.waitClose()).code, 1001);
	assert.strictEqual((await stopped).code, 0);
});
