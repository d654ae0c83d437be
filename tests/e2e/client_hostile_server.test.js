'use strict';
/*
 * client_hostile_server.test.js — `lair` against a hostile server. A fake
 * server (node's ws, on loopback) answers lair's one-shot commands with
 * names and messages full of terminal escapes (screen clear, window title,
 * OSC 52 clipboard write), C1 controls, bidi overrides and invisible
 * characters. Whatever lair prints must hold none of them raw: the human
 * listings spell them out, --json stays valid JSON carrying the very same
 * strings, and errors (also as JSON with --json) are escaped too.
 * (laird itself refuses such names: test_proto.c.)
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { WebSocketServer } = require('ws');
const { runLair } = require('./lib/tmux');

const EVIL = '\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b]0;title\x07\u009b31m\u202eevil\u2066\u200b\x7f';
const TOKEN = 'ab'.repeat(32);

function fakeServer() {
	const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
	const replies = {
		hello: { type: 'welcome', protocol: 1, server: EVIL,
			player: { id: 1, name: 'admin', admin: true }, lobby: null, default_lobby: 1,
			tables: [], limits: {} },
		admin_tables: { type: 'tables', lobby: null, tables: [{ id: 7, lobby: 1, name: EVIL,
			kind: 'gems', host: EVIL, state: 'waiting', seats: 2, humans: [EVIL, null],
			ai: [false, true], spectators: 0, private: false }] },
		admin_lobbies: { type: 'lobbies', lobbies: [{ id: 1, name: EVIL, players: 1, tables: 1 }] },
		admin_players: { type: 'players', players: [{ id: 1, name: EVIL, admin: false,
			lobby: null, tables: [], connected_ms: 5 }] },
		admin_stats: { type: 'admin_stats', uptime_ms: 1, [EVIL]: EVIL },
		stats: { type: 'stats', player: EVIL, kind: 'gems', games: 1,
			stats: [{ key: 'gems_looted', label: EVIL, value: 3 }] },
		records: { type: 'records', kind: 'gems', records: { [EVIL]: EVIL, n: { deep: EVIL } } },
		admin_table_close: { type: 'error', code: 'not_found', message: EVIL, field: 'table' },
	};
	wss.on('connection', (ws) => {
		ws.on('message', (data) => {
			const m = JSON.parse(data.toString());
			const r = replies[m.type] || { type: 'error', code: 'unknown_type', message: EVIL };
			ws.send(JSON.stringify({ ...r, id: m.id }));
		});
	});
	return new Promise((resolve) => wss.on('listening', () =>
		resolve({ url: `ws://127.0.0.1:${wss.address().port}/`, close: () => wss.close() })));
}

/* Nothing a terminal acts on: C0 (but tab and newline), DEL, C1, bidi, invisible. */
function assertInert(text, what) {
	const bad = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;
	const m = bad.exec(text);
	assert.ok(!m, `${what}: raw U+${m && m[0].codePointAt(0).toString(16)} in ${JSON.stringify(text)}`);
}

let srv;
let home;
test.before(async () => {
	srv = await fakeServer();
	home = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-hostile-'));
});
test.after(() => {
	srv.close();
	fs.rmSync(home, { recursive: true, force: true });
});

const lair = (args) => runLair([...args, '--server', srv.url, '--token', TOKEN],
	{ env: { XDG_CONFIG_HOME: home } });

test('human listings spell out what a hostile server sends', async () => {
	for (const args of [['admin', 'tables', 'list'], ['admin', 'lobbies'], ['admin', 'players'],
		['admin', 'stats'], ['stats'], ['records']]) {
		const r = await lair(args);
		assert.strictEqual(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
		assertInert(r.stdout, args.join(' '));
		assertInert(r.stderr, args.join(' '));
		assert.ok(r.stdout.includes('\\x1b]52;c;'), `${args.join(' ')} shows the escape: ${r.stdout}`);
	}
	const t = await lair(['admin', 'tables', 'list']);
	assert.ok(t.stdout.includes('\\u{202E}evil'), t.stdout);
});

test('--json stays valid JSON with the same strings, and inert', async () => {
	for (const args of [['admin', 'tables', 'list'], ['stats'], ['records'], ['admin', 'stats']]) {
		const r = await lair([...args, '--json']);
		assert.strictEqual(r.code, 0, r.stderr);
		assertInert(r.stdout, args.join(' '));
		const v = JSON.parse(r.stdout);
		const s = JSON.stringify(v);
		assert.ok(s.includes(JSON.stringify(EVIL).slice(1, -1)), `${args.join(' ')} keeps the value`);
	}
});

test('errors are escaped; with --json they are JSON on stdout with the exit code', async () => {
	const r = await lair(['admin', 'tables', 'close', '7']);
	assert.strictEqual(r.code, 1);
	assertInert(r.stderr, 'error');
	assert.ok(r.stderr.includes('not_found: \\x1b]52;'), r.stderr);
	const j = await lair(['admin', 'tables', 'close', '7', '--json']);
	assert.strictEqual(j.code, 1);
	assertInert(j.stdout, 'json error');
	const e = JSON.parse(j.stdout);
	assert.deepStrictEqual([e.type, e.code, e.message, e.exit, e.field],
		['error', 'not_found', EVIL, 1, 'table']);
	// lair's own failures too: no server there, a usage error
	const down = await runLair(['stats', '--json', '--server', 'ws://127.0.0.1:1/', '--token', TOKEN],
		{ env: { XDG_CONFIG_HOME: home } });
	assert.strictEqual(down.code, 3);
	const d = JSON.parse(down.stdout);
	assert.deepStrictEqual([d.type, d.code, d.exit], ['error', 'connect_failed', 3]);
	const use = await runLair(['admin', 'frobnicate', '--json', '--token', TOKEN],
		{ env: { XDG_CONFIG_HOME: home } });
	assert.strictEqual(use.code, 2);
	assert.deepStrictEqual((({ code, exit }) => ({ code, exit }))(JSON.parse(use.stdout)),
		{ code: 'usage', exit: 2 });
});
