'use strict';
/*
 * client_identity.test.js — who a player is, as lair and the protocol
 * handle it (PROTOCOL.md §4):
 *   - reading creates nobody: `lair stats PLAYER`, `achievements`, `records`
 *     without a token ask before any hello; `lair stats` about yourself with
 *     no player yet says so; the server answers the read-only queries before
 *     hello and refuses the rest (not_hello);
 *   - `--name` on a known token renames when the name is free, else says why
 *     (name_taken; wrong_phase while at a table) and changes nothing;
 *   - `rename` over the protocol: ok, a case change of one's own name,
 *     name_taken ignoring case, bad names.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird, connect } = require('./lib/laird');
const { player, resume, raw } = require('./lib/app');
const { startLair, runLair } = require('./lib/tmux');

let srv;
const dirs = [];
function cfg() {
	const d = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-id-'));
	dirs.push(d);
	return d;
}
test.before(async () => {
	srv = await startLaird({ args: ['--rate-burst', '400', '--rate-msgs-per-sec', '400'] });
});
test.after(async () => {
	for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
	if (srv) assert.strictEqual((await srv.stop()).code, 0);
});

async function exists(name) {
	const c = await raw(srv); // no hello: a reader
	const r = await c.req('stats', { player: name });
	c.c.close();
	if (r.type === 'stats') return true;
	assert.strictEqual(r.code, 'not_found', JSON.stringify(r));
	return false;
}

test('the read-only queries need no hello; everything else does', async () => {
	await (await player(srv, 'known')).c.close();
	const c = await raw(srv);
	assert.strictEqual((await c.req('stats', { player: 'known' })).type, 'stats');
	assert.strictEqual((await c.req('achievements', { player: 'known' })).type, 'achievements');
	assert.strictEqual((await c.req('server_stats', {})).type, 'server_stats');
	assert.strictEqual((await c.req('records', {})).type, 'records');
	const me = await c.req('stats', {});
	assert.deepStrictEqual([me.code, me.field], ['not_hello', 'player']);
	for (const [type, f] of [['rename', { name: 'x' }], ['lobby_list', {}], ['chat', { text: 'x' }],
		['table_create', { kind: 'gems', seats: 1 }]])
		assert.strictEqual((await c.req(type, f)).code, 'not_hello', type);
	// and hello still works on the same connection afterwards
	await c.hello({ name: 'latecomer' });
	assert.strictEqual((await c.req('stats', {})).player, 'latecomer');
	c.c.close();
});

test('lair stats, achievements, records create no player', { timeout: 30000 }, async () => {
	await (await player(srv, 'eve')).c.close();
	const d = cfg();
	const env = { XDG_CONFIG_HOME: d, USER: 'loginname' };
	const S = ['--server', srv.url];
	for (const args of [['stats', 'eve'], ['achievements', 'eve'], ['records'],
		['stats', 'eve', '--json'], ['records', '--json']]) {
		const r = await runLair([...args, ...S], { env });
		assert.strictEqual(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
	}
	assert.ok(!(await exists('loginname')), 'no player named after the login');
	assert.ok(!fs.existsSync(path.join(d, 'lair', 'tokens')), 'no token stored');
	// about yourself, with no player yet: a clear usage error, nothing created
	let r = await runLair(['stats', ...S], { env });
	assert.strictEqual(r.code, 2);
	assert.match(r.stderr, /no player on .* yet.*lair play/);
	r = await runLair(['achievements', '--json', ...S], { env });
	assert.strictEqual(r.code, 2);
	assert.deepStrictEqual((({ code, exit }) => ({ code, exit }))(JSON.parse(r.stdout)),
		{ code: 'usage', exit: 2 });
	assert.ok(!(await exists('loginname')));
	// --name is not an option of a query any more
	assert.strictEqual((await runLair(['stats', '--name', 'x', ...S], { env })).code, 2);
});

test('lair play --name on a known token renames, or says why not', { timeout: 60000 }, async () => {
	const d = cfg();
	const env = { XDG_CONFIG_HOME: d };
	const S = ['--server', srv.url];
	const playAs = async (name, expectLobby = true) => {
		const t = await startLair(['play', ...S, ...(name ? ['--name', name] : [])], { env });
		if (!expectLobby) return t;
		await t.waitScreen(/lobby 1 "main"/, 8000);
		return t;
	};
	let t = await playAs('alice');
	await t.keys('Q');
	assert.strictEqual(await t.waitExit(5000), 0);
	await t.kill();
	const tok = fs.readFileSync(path.join(d, 'lair', 'tokens'), 'utf8').match(/^player \S+ (\S+)$/m)[1];

	// free: renamed, the same player (token) under the new name
	t = await playAs('alicia');
	assert.match(t.screen(), /lair {2}alicia {2}lobby/);
	await t.keys('Q');
	await t.waitExit(5000);
	await t.kill();
	assert.ok(await exists('alicia'));
	assert.ok(!(await exists('alice')));
	const back = await resume(srv, tok);
	assert.strictEqual(back.name, 'alicia');
	back.c.close();

	// taken (ignoring case): refused, exit 1, the name is kept
	await (await player(srv, 'Taken')).c.close();
	t = await playAs('taken', false);
	assert.strictEqual(await t.waitExit(8000), 1);
	assert.match(t.stderr(), /cannot rename alicia to taken: name_taken/);
	assert.match(t.stderr(), /without --name you play as alicia/);
	await t.kill();
	assert.ok(await exists('alicia'));

	// at a table: refused while there (wrong_phase), fine once left
	t = await playAs(null);
	await t.keys('C', 'C'); // create a table, start later: we sit at it
	await t.waitScreen(/Waiting for players/, 8000);
	await t.keys('Q');
	await t.waitExit(5000);
	await t.kill();
	t = await playAs('ally', false);
	assert.strictEqual(await t.waitExit(8000), 1);
	assert.match(t.stderr(), /cannot rename alicia to ally: wrong_phase: you are at table \d+/);
	await t.kill();
	assert.ok(await exists('alicia') && !(await exists('ally')));
});

test('rename over the protocol: ok, case, taken, bad', async () => {
	const a = await player(srv, 'renamer');
	await (await player(srv, 'occupied')).c.close();
	assert.strictEqual((await a.req('rename', { name: 'renamer' })).type, 'ok'); // already yours
	assert.strictEqual((await a.req('rename', { name: 'ReNamer' })).type, 'ok'); // case of your own
	const taken = await a.req('rename', { name: 'OCCUPIED' });
	assert.deepStrictEqual([taken.code, taken.field], ['name_taken', 'name']);
	for (const bad of ['', 'a b', '_x', 'x'.repeat(25)]) {
		const r = await a.req('rename', { name: bad });
		assert.deepStrictEqual([r.code, r.field], ['bad_field', 'name'], bad);
	}
	assert.strictEqual((await a.req('rename', {})).code, 'missing_field');
	assert.strictEqual((await a.req('rename', { name: 'renamed_one' })).type, 'ok');
	// the new name is live: others see it, chat carries it
	await a.ok('lobby_join', { lobby: 1 });
	await a.ok('chat', { text: 'hi' });
	const line = await a.c.waitFor((m) => m.type === 'chat');
	assert.strictEqual(line.from, 'renamed_one');
	assert.ok(await exists('renamed_one'));
	assert.ok(!(await exists('renamer')));
	a.c.close();
});
