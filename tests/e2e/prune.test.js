'use strict';
/*
 * prune.test.js — admin_players_prune (PROTOCOL.md §9) and `lair admin
 * players prune`: the players who never played go, for good (their tokens
 * stop working, their names are free again); whoever played, is an admin,
 * is online or holds a seat stays.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird, stopClean } = require('./lib/laird');
const { player, raw, resume, adminToken, autoplay } = require('./lib/app');
const { runLair } = require('./lib/tmux');

// A game with no window goes at the speed of the replies: the default rate
// limit (40 at once) dropped a choice, whose seat then waited 30 s for its
// deadline.
const FAST = ['--window-ms', '0', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0',
	'--rate-burst', '400', '--rate-msgs-per-sec', '400'];

/* hello with a token: the reply (welcome or error). */
async function helloToken(srv, token) {
	const p = await raw(srv);
	const r = await p.req('hello', { protocol: 1, token });
	p.c.close();
	return r;
}

test('admin_players_prune deletes the players who never played, and only them', async () => {
	const srv = await startLaird({ args: FAST });
	try {
		const admin = await resume(srv, await adminToken(srv));
		// One who played a whole game.
		const vet = await player(srv, 'veteran');
		const t = (await vet.ok('table_create', { kind: 'gems', seats: 2, ai: 1, start: true })).table;
		await autoplay(vet, t).done;
		vet.c.close();
		// Two who never played, gone again.
		const idle = [];
		for (const name of ['idle1', 'idle2']) {
			const p = await player(srv, name);
			idle.push(p.token);
			p.c.close();
			await p.c.waitClose();
		}
		// One who never played, still online; one with a seat, offline.
		const online = await player(srv, 'online');
		const host = await player(srv, 'host');
		const waiting = (await host.ok('table_create', { kind: 'gems', seats: 2 })).table;
		const seated = await player(srv, 'seated');
		await seated.ok('table_join', { table: waiting });
		seated.c.close();
		await seated.c.waitClose();

		// Created a day ago at the earliest, by default: nobody yet.
		assert.equal((await admin.ok('admin_players_prune')).pruned, 0);
		const r = await admin.ok('admin_players_prune', { older_than_ms: 0 });
		assert.equal(r.pruned, 2);
		for (const token of idle)
			assert.equal((await helloToken(srv, token)).code, 'bad_token');
		const again = await player(srv, 'idle1'); // the name is free
		assert.notEqual(again.token, idle[0]);
		for (const p of [vet, seated])
			assert.equal((await helloToken(srv, p.token)).type, 'welcome');
		assert.equal((await online.ok('ping')).type, 'pong');
		// The new idle1 is online: nothing more to prune.
		assert.equal((await admin.ok('admin_players_prune', { older_than_ms: 0 })).pruned, 0);
	} finally {
		await stopClean(srv);
	}
});

test('only an admin prunes; lair admin players prune says how many', async () => {
	const srv = await startLaird();
	const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-cfg-'));
	try {
		const token = await adminToken(srv);
		const p = await player(srv, 'nobody');
		assert.equal((await p.req('admin_players_prune', { older_than_ms: 0 })).code, 'forbidden');
		const gone = await player(srv, 'gone');
		gone.c.close();
		await gone.c.waitClose();
		const env = { XDG_CONFIG_HOME: cfg, LAIR_ADMIN_TOKEN: token };
		let r = await runLair(['admin', 'players', 'prune', '--older-than', '7d', '--json',
			'--server', srv.url], { env });
		assert.equal(r.code, 0, r.stderr);
		assert.deepEqual(JSON.parse(r.stdout), { type: 'players_pruned', pruned: 0 });
		r = await runLair(['admin', 'players', 'prune', '--older-than', '0', '--server', srv.url],
			{ env });
		assert.equal(r.code, 0, r.stderr);
		assert.equal(r.stdout, '1 players pruned\n'); // "gone"; "nobody" is online
		r = await runLair(['admin', 'players', 'prune', '--older-than', 'soon', '--server',
			srv.url], { env });
		assert.equal(r.code, 2);
		assert.match(r.stderr, /bad --older-than 'soon'/);
		p.c.close();
	} finally {
		fs.rmSync(cfg, { recursive: true, force: true });
		await stopClean(srv);
	}
});
