'use strict';
/*
 * client_terminal.test.js — the terminal client's own screens, in a real
 * terminal (tmux) against a real laird: `lair --version`; below 80×24 a
 * "terminal too small" notice, and the game back once the window grows;
 * the help pages (`?`: the numbers, the rooms, the keys); chat from the
 * lobby screen (`/`, both ways); taking an AI seat over while watching
 * (`O` then the seat's number).
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startLaird } = require('./lib/laird');
const { player } = require('./lib/app');
const { startLair, runLair } = require('./lib/tmux');

let srv;
const dirs = [];
function cfg() {
	const d = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-term-'));
	dirs.push(d);
	return { XDG_CONFIG_HOME: d };
}
test.before(async () => {
	srv = await startLaird({ args: ['--window-ms', '50', '--reveal-pause-ms', '0',
		'--ai-pacing-ms', '0', '--rate-burst', '400', '--rate-msgs-per-sec', '400'] });
});
test.after(async () => {
	for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
	if (srv) assert.strictEqual((await srv.stop()).code, 0);
});

test('lair --version', async () => {
	const r = await runLair(['--version']);
	assert.strictEqual(r.code, 0);
	assert.match(r.stdout, /^lair \d+\.\d+ \(protocol 1\)\n$/);
});

test('below 80x24 the screen says so; grown, the lobby comes back', { timeout: 30000 }, async () => {
	const t = await startLair(['play', '--server', srv.url, '--name', 'tiny'],
		{ env: cfg(), cols: 60, rows: 20 });
	try {
		const s = await t.waitScreen(/terminal too small/, 8000);
		assert.match(s, /this one is 60x20/);
		spawnSync('tmux', ['-L', t.sock, 'resize-window', '-t', 'lair', '-x', '80', '-y', '24']);
		await t.waitScreen(/lobby 1 "main"/, 8000, 'the lobby after the resize');
		assert.doesNotMatch(t.screen(), /too small/);
	} finally {
		await t.kill();
	}
});

test('? shows the help pages: the numbers, the rooms, the keys', { timeout: 30000 }, async () => {
	const t = await startLair(['play', '--server', srv.url, '--name', 'helpme'], { env: cfg() });
	try {
		await t.waitScreen(/lobby 1 "main"/, 8000);
		await t.keys('?');
		await t.waitScreen(/lair: keys/);
		await t.keys('x'); // any other key: back
		await t.waitScreen(/lobby 1 "main"/);
		// at a gems table: three pages
		await t.keys('C', 'G');
		await t.waitScreen(/Choose: \d+s left/, 8000, 'the first decision');
		await t.keys('?');
		let s = await t.waitScreen(/gems: the numbers/);
		for (const word of ['Bravery', 'lair ', 'rumor', 'EV', 'take'])
			assert.ok(s.includes(word), `page 1 explains ${word}`);
		await t.keys('?');
		s = await t.waitScreen(/rooms and adventures/);
		for (const word of ['Banker', 'Monte', 'Sphinx', 'Devil', 'People', 'Poison'])
			assert.ok(s.includes(word), `page 2 has ${word}`);
		await t.keys('?');
		await t.waitScreen(/lair: keys/);
		await t.keys('?'); // past the last page: back to the game
		await t.waitScreen(/Choose: \d+s left/);
	} finally {
		await t.kill();
	}
});

test('/ talks to the lobby; the lobby screen shows the chat', { timeout: 30000 }, async () => {
	const other = await player(srv, 'chatter');
	await other.ok('lobby_join', { lobby: 1 });
	const t = await startLair(['play', '--server', srv.url, '--name', 'talker'], { env: cfg() });
	try {
		await t.waitScreen(/lobby 1 "main"/, 8000);
		await t.keys('/', 'hello from lair');
		await t.waitScreen(/Say: hello from lair_/);
		await t.keys('\r');
		const m = await other.c.waitFor((x) => x.type === 'chat' && x.from === 'talker');
		assert.strictEqual(m.text, 'hello from lair');
		await other.ok('chat', { text: 'hi \u001b[2J back' });
		await t.waitScreen(/<chatter> hi \\x1b\[2J back/, 5000, 'the escaped chat line');
		await t.keys('/', 'never mind', '\x1b'); // Esc: nothing sent
		await t.waitScreen((x) => !/Say:/.test(x));
		await other.ok('ping');
		assert.ok(!other.c.received.some((x) => x.type === 'chat' && x.text === 'never mind'));
	} finally {
		await t.kill();
		other.c.close();
	}
});

test('watching, O then a seat number takes that AI seat over', { timeout: 30000 }, async () => {
	const host = await player(srv, 'ohost');
	const snap = await host.ok('table_create', { kind: 'gems', seats: 3, ai: 2, start: true });
	const t = await startLair(['watch', String(snap.table), '--server', srv.url, '--name', 'taker'],
		{ env: cfg() });
	try {
		await t.waitScreen(/AI 3/, 8000, 'the table');
		await t.keys('O');
		await t.waitScreen(/Take over which AI seat\?/);
		await t.keys('3');
		const seats = await host.c.waitFor((m) => m.type === 'seats' && m.table === snap.table &&
			m.seats[2].kind === 'human', 8000);
		assert.strictEqual(seats.seats[2].name, 'taker');
		await t.waitScreen((x) => !/AI 3/.test(x) && /taker/.test(x), 8000, 'our seat');
	} finally {
		await t.kill();
		host.c.close();
	}
});
