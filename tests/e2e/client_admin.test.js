'use strict';
/*
 * client_admin.test.js — lair's one-request commands against a real laird:
 * every `lair admin ...` listing's --json output parsed and compared with
 * what the server holds (asked over the protocol by an independent ws
 * client), the admin actions' effects, stats/achievements/records --json,
 * the admin token's sources, --help, and the exit codes (0 ok, 1 refused,
 * 2 usage, 3 connection failed).
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird, connect } = require('./lib/laird');
const { freePort } = require('./lib/port');
const { spawn, spawnSync } = require('node:child_process');
const { runLair, startLair, LAIR } = require('./lib/tmux');

async function hello(url, hi) {
	const c = await connect(url);
	c.send({ type: 'hello', id: 1, protocol: 1, ...hi });
	const w = await c.waitFor((m) => m.id === 1, 5000, 'welcome');
	assert.strictEqual(w.type, 'welcome', JSON.stringify(w));
	return c;
}

let nextId = 100;
async function ask(c, msg, ms = 5000) {
	const id = nextId++;
	c.send({ ...msg, id });
	const r = await c.waitFor((m) => m.id === id, ms, `reply to ${msg.type}`);
	delete r.id;
	return r;
}

test('lair admin: every listing as JSON equals what the server holds; actions take effect',
	{ timeout: 60000 }, async () => {
		const srv = await startLaird();
		const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-cfg-'));
		const env = { XDG_CONFIG_HOME: cfg, LAIR_ADMIN_TOKEN: '' };
		try {
			const m = await srv.waitForOutput(/ADMIN_TOKEN=([0-9a-f]{64})/);
			const token = m[1];
			const S = ['--server', srv.url];
			const admin = async (...args) => {
				const r = await runLair(['admin', ...args, ...S], { env });
				assert.strictEqual(r.code, 0, `lair admin ${args.join(' ')}: ${r.stderr}`);
				return r.stdout;
			};
			const adminJson = async (...args) => JSON.parse(await admin(...args, '--json'));

			// No token anywhere: a usage error that says where to put one.
			let r = await runLair(['admin', 'lobbies', ...S], { env });
			assert.strictEqual(r.code, 2);
			assert.match(r.stderr, /no admin token/);
			// The token from the environment, then from the store.
			r = await runLair(['admin', 'lobbies', '--json', ...S],
				{ env: { ...env, LAIR_ADMIN_TOKEN: token } });
			assert.strictEqual(r.code, 0, r.stderr);
			assert.match(await admin('set-token', token), /admin token stored/);
			const store = path.join(cfg, 'lair', 'tokens');
			assert.strictEqual(fs.statSync(store).mode & 0o777, 0o600);
			assert.match(fs.readFileSync(store, 'utf8'), new RegExp(`^admin \\S+ ${token}$`, 'm'));

			// An independent view of the server: the admin over plain ws (a fresh
			// connection per question: lair's own admin connection replaces any
			// other of the same player), and a player.
			const ws = {
				async ask(msg) {
					const c = await hello(srv.url, { token });
					try {
						return await ask(c, msg);
					} finally {
						c.close();
						await c.waitClose(5000).catch(() => {});
					}
				},
			};
			const ann = await hello(srv.url, { name: 'ann' });
			await ask(ann, { type: 'lobby_join', lobby: 1 });

			// lobbies: create, list (JSON = the server's reply), close
			const created = await adminJson('lobbies', 'create', 'back room');
			assert.strictEqual(created.type, 'lobby');
			assert.strictEqual(created.lobby.name, 'back room');
			assert.match(await admin('lobbies', 'create', 'annex'), /lobby \d+ "annex" created/);
			const lobbies = await adminJson('lobbies', 'list');
			assert.deepStrictEqual(lobbies, await ws.ask({ type: 'admin_lobbies' }));
			assert.deepStrictEqual(lobbies.lobbies.map((l) => l.name),
				['main', 'back room', 'annex']);
			assert.match(await admin('lobbies'), /back room/);
			assert.match(await admin('lobbies', 'close', String(created.lobby.id)), /^ok$/m);
			const after = await ws.ask({ type: 'admin_lobbies' });
			assert.ok(!after.lobbies.some((l) => l.id === created.lobby.id));

			// tables: ann's table (private too) listed as the server lists it; close
			const t1 = await ask(ann, { type: 'table_create', kind: 'gems', seats: 3, ai: 2 });
			const t2 = await ask(ann, { type: 'table_create', kind: 'gems', seats: 2,
				private: true, password: 'pw' });
			assert.strictEqual(t1.type, 'table');
			const tables = await adminJson('tables', 'list');
			assert.deepStrictEqual(tables, await ws.ask({ type: 'admin_tables' }));
			assert.deepStrictEqual(tables.tables.map((t) => t.id).sort(),
				[t1.table, t2.table].sort());
			assert.strictEqual(tables.tables.find((t) => t.id === t2.table).private, true);
			const inLobby = await adminJson('tables', '--lobby', '1');
			assert.deepStrictEqual(inLobby, await ws.ask({ type: 'admin_tables', lobby: 1 }));
			assert.match(await admin('tables'), /\(private\)/);
			assert.match(await admin('tables', 'close', String(t2.table)), /^ok$/m);
			await ann.waitFor((x) => x.type === 'table_closed' && x.table === t2.table, 5000);
			const left = await ws.ask({ type: 'admin_tables' });
			assert.deepStrictEqual(left.tables.map((t) => t.id), [t1.table]);

			// players: online list as the server has it (connected_ms moves: compare the rest)
			const players = await adminJson('players', 'list-online');
			const wsPlayers = await ws.ask({ type: 'admin_players' });
			const strip = (p) => p.players.map(({ connected_ms: _c, ...rest }) => rest)
				.sort((a, b) => a.id - b.id);
			assert.deepStrictEqual(strip(players), strip(wsPlayers));
			assert.ok(players.players.some((p) => p.name === 'ann' && p.tables.includes(t1.table)));
			assert.match(await admin('players'), /ann/);

			// kick: ann hears bye kicked and is gone from the list
			assert.match(await admin('players', 'kick', 'ann', '--reason', 'testing'), /^ok$/m);
			const bye = await ann.waitFor((x) => x.type === 'bye', 5000, 'bye');
			assert.strictEqual(bye.reason, 'kicked');
			const online = await ws.ask({ type: 'admin_players' });
			assert.ok(!online.players.some((p) => p.name === 'ann'));

			// server stats: the JSON has the server's fields; counters only grow
			const st = await adminJson('stats');
			assert.strictEqual(st.type, 'admin_stats');
			for (const k of ['uptime_ms', 'connections', 'players_online', 'lobbies', 'tables',
				'messages_in', 'messages_out', 'errors'])
				assert.ok(k in st, `admin_stats has ${k}`);
			const st2 = await ws.ask({ type: 'admin_stats' });
			assert.strictEqual(st.lobbies, st2.lobbies);
			assert.deepStrictEqual(st.tables, st2.tables);
			assert.ok(st2.messages_in >= st.messages_in);
			assert.match(await admin('server', 'stats'), /uptime_ms/);

			// refused: exit 1 with the server's error code; bad usage: exit 2
			r = await runLair(['admin', 'tables', 'close', '999999', ...S], { env });
			assert.strictEqual(r.code, 1);
			assert.match(r.stderr, /not_found/);
			r = await runLair(['admin', 'lobbies', 'close', 'x', ...S], { env });
			assert.strictEqual(r.code, 2);
			r = await runLair(['admin', 'frobnicate', ...S], { env });
			assert.strictEqual(r.code, 2);
			// a player's token is not an admin's: forbidden (exit 1)
			const bc = await connect(srv.url);
			bc.send({ type: 'hello', id: 1, protocol: 1, name: 'bob' });
			const bobTok = (await bc.waitFor((m) => m.id === 1, 5000, 'welcome')).token;
			bc.close();
			r = await runLair(['admin', 'lobbies', '--token', bobTok, ...S], { env });
			assert.strictEqual(r.code, 1);
			assert.match(r.stderr, /forbidden/);

			// A player kicked from `lair play` ends with "refused" (1), not a
			// reconnect loop; watching a table that is not there is refused too.
			const fayCfg = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-cfg-'));
			const fay = await startLair(['play', '--name', 'fay', ...S],
				{ env: { XDG_CONFIG_HOME: fayCfg } });
			try {
				await fay.waitScreen(/lobby 1/, 8000);
				assert.match(await admin('players', 'kick', 'fay'), /^ok$/m);
				assert.strictEqual(await fay.waitExit(10000), 1);
				assert.match(fay.stderr(), /kicked/);
			} finally {
				await fay.kill();
			}
			const w = await startLair(['watch', '999999', ...S],
				{ env: { XDG_CONFIG_HOME: fayCfg } });
			try {
				assert.strictEqual(await w.waitExit(10000), 1);
				assert.match(w.stderr(), /not_found/);
			} finally {
				await w.kill();
				fs.rmSync(fayCfg, { recursive: true, force: true });
			}
		} finally {
			await srv.stop();
			fs.rmSync(cfg, { recursive: true, force: true });
		}
	});

test('lair stats, achievements, records: --json equals the server reply', { timeout: 30000 },
	async () => {
		const srv = await startLaird();
		const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-cfg-'));
		const env = { XDG_CONFIG_HOME: cfg };
		try {
			const S = ['--server', srv.url];
			// A query never creates a player: dee is made by a protocol client,
			// lair asks as dee with dee's token.
			const dc = await connect(srv.url);
			dc.send({ type: 'hello', id: 1, protocol: 1, name: 'dee' });
			const deeTok = (await dc.waitFor((m) => m.id === 1, 5000, 'welcome')).token;
			dc.close();
			S.push('--token', deeTok);
			let r = await runLair(['stats', '--json', ...S], { env });
			assert.strictEqual(r.code, 0, r.stderr);
			const mine = JSON.parse(r.stdout);
			assert.strictEqual(mine.player, 'dee');
			const c = await hello(srv.url, { name: 'eve' });
			assert.deepStrictEqual(mine, await ask(c, { type: 'stats', player: 'dee' }));
			r = await runLair(['achievements', '--json', ...S], { env });
			assert.strictEqual(r.code, 0, r.stderr);
			const ach = JSON.parse(r.stdout);
			assert.strictEqual(ach.player, 'dee');
			assert.deepStrictEqual(ach, await ask(c, { type: 'achievements', player: 'dee' }));
			r = await runLair(['stats', 'eve', '--json', ...S], { env });
			assert.deepStrictEqual(JSON.parse(r.stdout),
				await ask(c, { type: 'stats', player: 'eve' }));
			r = await runLair(['records', '--json', ...S], { env });
			assert.deepStrictEqual(JSON.parse(r.stdout), await ask(c, { type: 'records' }));
			// Text forms carry the labels.
			r = await runLair(['stats', ...S], { env });
			assert.match(r.stdout, /^dee \(gems\): 0 games/m);
			assert.match(r.stdout, /Gems Looted/);
			r = await runLair(['achievements', 'eve', ...S], { env });
			assert.match(r.stdout, /Deepest Explorer +0/);
			r = await runLair(['records', ...S], { env });
			assert.match(r.stdout, /adventure_uses/);
			// Unknown player: refused.
			r = await runLair(['stats', 'nobody_here', ...S], { env });
			assert.strictEqual(r.code, 1);
			assert.match(r.stderr, /not_found/);
			c.close();
		} finally {
			await srv.stop();
			fs.rmSync(cfg, { recursive: true, force: true });
		}
	});

test('lair: --help, usage errors and a failed connection have their exit codes',
	{ timeout: 30000 }, async () => {
		const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-cfg-'));
		const env = { XDG_CONFIG_HOME: cfg };
		try {
			let r = await runLair(['--help'], { env });
			assert.strictEqual(r.code, 0);
			for (const c of ['play', 'watch', 'stats', 'achievements', 'records', 'admin', 'sim'])
				assert.match(r.stdout, new RegExp(`^  ${c} `, 'm'));
			for (const c of ['play', 'watch', 'stats', 'achievements', 'records', 'admin']) {
				r = await runLair([c, '--help'], { env });
				assert.strictEqual(r.code, 0, c);
				assert.match(r.stdout, new RegExp(`usage: lair ${c}`));
			}
			assert.strictEqual((await runLair([], { env })).code, 2);
			assert.strictEqual((await runLair(['nope'], { env })).code, 2);
			assert.strictEqual((await runLair(['stats', '--bogus'], { env })).code, 2);
			// with --json a usage error is JSON on stdout too
			for (const args of [['stats', '--json', '--bogus'], ['admin', '--json'],
				['records', '--json', 'extra']]) {
				r = await runLair(args, { env });
				assert.strictEqual(r.code, 2, args.join(' '));
				const e = JSON.parse(r.stdout);
				assert.deepStrictEqual([e.type, e.code, e.exit], ['error', 'usage', 2]);
			}
			assert.strictEqual((await runLair(['watch'], { env })).code, 2);
			r = await runLair(['stats', '--server', 'http://x/'], { env });
			assert.strictEqual(r.code, 2);
			// no terminal: play refuses with a usage error
			assert.strictEqual((await runLair(['play'], { env })).code, 2);
			const port = await freePort();
			r = await runLair(['records', '--server', `ws://127.0.0.1:${port}/`], { env });
			assert.strictEqual(r.code, 3);
			assert.match(r.stderr, /cannot connect/);
		} finally {
			fs.rmSync(cfg, { recursive: true, force: true });
		}
	});

test('valgrind: lair stats, admin --json and a short lair play session leak nothing',
	{ timeout: 90000, skip: /asan|san/.test(LAIR) && 'lair is a sanitizer build' }, async () => {
		const probe = spawnSync('valgrind', ['--version']);
		if (probe.error) return; // no valgrind on this machine
		const srv = await startLaird();
		const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-cfg-'));
		const env = { XDG_CONFIG_HOME: cfg };
		const vg = ['--leak-check=full', '--show-leak-kinds=all', '--errors-for-leak-kinds=all',
			'--error-exitcode=99', '--quiet'];
		const run = (args) => new Promise((resolve) => {
			const p = spawn('valgrind', [...vg, LAIR, ...args],
				{ env: { ...process.env, ...env } });
			let err = '';
			p.stderr.on('data', (d) => (err += d));
			const timer = setTimeout(() => p.kill('SIGKILL'), 30000);
			p.on('close', (code) => {
				clearTimeout(timer);
				resolve({ code, err });
			});
		});
		let t;
		try {
			const token = (await srv.waitForOutput(/ADMIN_TOKEN=([0-9a-f]{64})/))[1];
			let r = await run(['records', '--server', srv.url]); // asks without a hello
			assert.strictEqual(r.code, 0, r.err);
			r = await run(['stats', 'admin', '--token', token, '--server', srv.url]);
			assert.strictEqual(r.code, 0, r.err);
			r = await run(['admin', 'lobbies', '--json', '--token', token, '--server', srv.url]);
			assert.strictEqual(r.code, 0, r.err);
			const log = path.join(cfg, 'vg.log');
			t = await startLair(['play', '--server', srv.url], {
				env, wrap: ['valgrind', ...vg, `--log-file=${log}`], record: true,
			});
			await t.waitScreen(/No tables yet/, 30000);
			await t.keys('C');
			await t.waitScreen(/create a table/, 10000);
			await t.keys('G');
			await t.waitScreen(/Choose: \d+s left/, 15000);
			// What lair drew after the key (a poll of the screen may see the
			// next options already).
			await t.press('L', /Chosen; change with a key\./, 15000);
			await t.keys('Q');
			assert.strictEqual(await t.waitExit(30000), 0, fs.readFileSync(log, 'utf8'));
			assert.strictEqual(fs.readFileSync(log, 'utf8'), '');
		} finally {
			if (t) await t.kill();
			await srv.stop();
			fs.rmSync(cfg, { recursive: true, force: true });
		}
	});
