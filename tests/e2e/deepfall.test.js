'use strict';
/*
 * deepfall.test.js — DEEPFALL at a real laird table: a human and three AI
 * seats (one strategy each, from the config's "ai" list) play a whole game
 * with choice objects {target, press, recruit, exit} (proto/kinds/deepfall.md);
 * a bad choice is refused with a stable code and changes nothing; an all-AI
 * table plays to its result on its own. The change-your-mind window is
 * shortened with --window-ms so a game takes about a second.
 */
const test = require('node:test');
const assert = require('node:assert');
const { startLaird } = require('./lib/laird');
const { player } = require('./lib/app');

let srv;
test.before(async () => {
	srv = await startLaird({ args: ['--window-ms', '20', '--rate-burst', '500',
		'--rate-msgs-per-sec', '500'] });
});
test.after(async () => {
	if (srv) await srv.stop();
});

const isResult = (tid) => (m) => m.type === 'result' && m.table === tid;

test('a human and three AI strategies play a whole deepfall game', async () => {
	const a = await player(srv, 'delver');
	const t = await a.ok('table_create', {
		kind: 'deepfall', seats: 4, ai: 3, start: true, pacing_ms: 0,
		config: { ai: ['balanced', 'cashout', 'presson', 'worthyend'] },
	});
	const tid = t.table;
	let decisions = 0;
	let refused = false;
	let sawCollapse = false;
	for (;;) {
		const m = await a.c.waitFor((x) => x.table === tid &&
			((x.type === 'options' && x.options) || x.type === 'result'), 10000,
			'options or the result');
		if (m.type === 'result') {
			const r = m.result;
			assert.strictEqual(r.scores.length, 4);
			assert.ok(r.winners.length >= 1);
			assert.ok(r.rounds >= 6, `rounds ${r.rounds}`);
			assert.strictEqual(r.rounds, decisions);
			break;
		}
		assert.strictEqual(m.seat, 0);
		const form = m.options[0];
		assert.strictEqual(form.target.min, 1);
		assert.deepStrictEqual(form.exit, ['persist', 'cash_out', 'last_stand']);
		if (!refused) {
			// Beyond the frontier: refused, the seat still pending.
			const bad = await a.req('choose', { table: tid, decision: m.decision,
				choice: { target: form.target.max + 1 } });
			assert.strictEqual(bad.type, 'error');
			assert.strictEqual(bad.code, 'illegal_choice');
			const bad2 = await a.req('choose', { table: tid, decision: m.decision,
				choice: { press: 1 } });
			assert.strictEqual(bad2.type, 'error');
			refused = true;
		}
		// Stay one floor above the frontier and bank in the last round.
		const last = form.target.max === 1;
		const choice = { target: Math.max(1, form.target.max - 1), press: 1, recruit: true,
			exit: last ? 'cash_out' : 'persist' };
		await a.ok('choose', { table: tid, decision: m.decision, choice });
		const rv = await a.c.waitFor((x) => x.type === 'reveal' && x.table === tid &&
			x.decision === m.decision, 10000, 'the reveal');
		assert.strictEqual(rv.choices.length, 4);
		const mine = rv.choices.find((c) => c.seat === 0);
		assert.deepStrictEqual(mine.choice, choice);
		assert.strictEqual(mine.ai, false);
		for (const c of rv.choices.filter((x) => x.seat !== 0)) {
			assert.strictEqual(c.ai, true);
			assert.ok(c.choice.target >= 1 && c.choice.target <= form.target.max);
		}
		for (const e of rv.events) if (e.event === 'collapse') sawCollapse = true;
		assert.ok(rv.view.maw.frontier >= 0);
		decisions++;
	}
	assert.ok(sawCollapse);
	a.c.close();
});

test('a player who leaves mid-game hands the seat to the AI; the game ends', async () => {
	const b = await player(srv, 'quitter');
	const w = await player(srv, 'watcher');
	const t = await b.ok('table_create', {
		kind: 'deepfall', seats: 3, ai: 2, start: true, pacing_ms: 0,
		config: { ai: ['presson', 'worthyend', 'cashout'] },
	});
	const tid = t.table;
	const snap = await w.req('table_spectate', { table: tid });
	assert.strictEqual(snap.type, 'table');
	const m = await b.c.waitFor((x) => x.table === tid && x.type === 'options' && x.options,
		10000, 'the first options');
	await b.ok('choose', { table: tid, decision: m.decision,
		choice: { target: 2, press: 0, recruit: true } });
	await b.ok('table_leave', { table: tid });
	// The spectator sees the AI (strategy "presson" for seat 0) finish it.
	const res = await w.c.waitFor(isResult(tid), 15000, 'the result');
	assert.strictEqual(res.result.scores.length, 3);
	assert.ok(res.result.rounds >= 6);
	b.c.close();
	w.c.close();
});

test('a bad deepfall config is refused with a message', async () => {
	const c = await player(srv, 'tinkerer');
	const r = await c.req('table_create', { kind: 'deepfall', seats: 2,
		config: { floors: 99 } });
	assert.strictEqual(r.type, 'error');
	assert.match(r.message, /floors/);
	c.c.close();
});

test('deepfall_bot.js (written from the spec alone) plays a whole game', async () => {
	const path = require('node:path');
	const { execFile } = require('node:child_process');
	const BOT = path.resolve(__dirname, '..', '..', 'proto', 'examples', 'deepfall_bot.js');
	const out = await new Promise((resolve, reject) => {
		execFile('node', [BOT, srv.url, '--name', 'specdelver', '--seats', '4'], {
			env: { ...process.env, NODE_PATH: path.join(__dirname, 'node_modules') },
			timeout: 60000,
		}, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`))
			: resolve(stdout)));
	});
	assert.match(out, /game over after \d+ rounds/);
	const last = JSON.parse(out.trim().split('\n').pop());
	assert.strictEqual(last.scores.length, 4);
	assert.ok(last.winners.length >= 1);
	assert.ok(last.rounds >= 6);
});
