'use strict';
/*
 * deepfall.test.js — DEEPFALL at a real laird table, as
 * proto/kinds/deepfall.md describes it: every round a seat presses one hand
 * at a time ({"press": true}), each hand rolled and shown before the next
 * choice, then acts ({target, recruit, exit}). A human in a 3-seat game
 * presses twice and stops after seeing the second pressed hand; a human and
 * three AI strategies play a whole 4-seat game, every options form, choice
 * and view checked against proto/schema.json; bad choices are refused with
 * a stable code and change nothing; a leaver hands the seat to the AI; the
 * example bot written from the spec plays a whole game. The change-your-mind
 * window and the reveal pause are shortened so a game takes a few seconds.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { startLaird } = require('./lib/laird');
const { player } = require('./lib/app');
const { check } = require('./lib/jschema');

const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'proto',
	'schema.json'), 'utf8'));
const valid = (def, v) => assert.deepStrictEqual(check(schema, { $ref: `#/$defs/${def}` }, v),
	[], `${def}: ${JSON.stringify(v).slice(0, 300)}`);

let srv;
test.before(async () => {
	srv = await startLaird({ args: ['--window-ms', '20', '--reveal-pause-ms', '0',
		'--rate-burst', '500', '--rate-msgs-per-sec', '500'] });
});
test.after(async () => {
	if (srv) await srv.stop();
});

const isResult = (tid) => (m) => m.type === 'result' && m.table === tid;
const ourOptions = (tid) => (m) => m.table === tid &&
	((m.type === 'options' && m.options) || m.type === 'result');
const revealOf = (tid, d) => (m) => m.type === 'reveal' && m.table === tid && m.decision === d;
const faces = ['steel', 'cunning', 'faith', 'greed', 'mettle', 'dread'];

test('a human presses twice, sees each hand, then stops and acts (3 seats)', async () => {
	const a = await player(srv, 'presser');
	// Hands of 1-3 dice, so every opening bag (8 dice or more) holds three
	// hands this round, whatever company is drafted.
	const t = await a.ok('table_create', {
		kind: 'deepfall', seats: 3, ai: 2, start: true, pacing_ms: 0,
		config: { hand_size: 1, ai: ['balanced', 'cashout', 'presson'] },
	});
	const tid = t.table;
	const me = (v) => v.players.find((p) => p.seat === 0).party;

	// Decision 1: the opening hand is on the table; press.
	let m = await a.c.waitFor(ourOptions(tid), 10000, 'the first options');
	assert.strictEqual(m.type, 'options');
	valid('deepfall_form', m.options[0]);
	assert.strictEqual(m.options[0].hands, 1);
	assert.strictEqual(m.options[0].press, true);
	const start = a.c.received.find((x) => x.type === 'start' && x.table === tid);
	assert.ok(start, 'the start update');
	const opening = start.events.find((e) => e.event === 'roll' && e.seat === 0);
	assert.ok(opening, 'the start carries our opening roll');
	assert.strictEqual(opening.hand, 1);
	await a.ok('choose', { table: tid, decision: m.decision, choice: { press: true } });
	let rv = await a.c.waitFor(revealOf(tid, m.decision), 10000, 'the reveal of press 1');
	assert.deepStrictEqual(rv.choices.find((c) => c.seat === 0).choice, { press: true });
	const hand2 = rv.events.find((e) => e.event === 'roll' && e.seat === 0);
	assert.strictEqual(hand2.hand, 2);
	valid('deepfall_view', rv.view);
	assert.strictEqual(me(rv.view).turn.hands, 2);

	// Decision 2: the second hand is seen (in the view too); press again.
	m = await a.c.waitFor(ourOptions(tid), 10000, 'the second options');
	assert.strictEqual(m.options[0].hands, 2);
	assert.strictEqual(m.options[0].press, true);
	const rolledBefore = me(rv.view).turn.rolled;
	await a.ok('choose', { table: tid, decision: m.decision, choice: { press: true } });
	rv = await a.c.waitFor(revealOf(tid, m.decision), 10000, 'the reveal of press 2');
	const hand3 = rv.events.find((e) => e.event === 'roll' && e.seat === 0);
	assert.strictEqual(hand3.hand, 3);
	const turn = me(rv.view).turn;
	assert.strictEqual(turn.hands, 3);
	for (const f of faces) // the view adds exactly the new hand's faces
		assert.strictEqual(turn.rolled[f], rolledBefore[f] + hand3[f], f);

	// Decision 3: having seen that roll, stop and act.
	m = await a.c.waitFor(ourOptions(tid), 10000, 'the third options');
	assert.strictEqual(m.options[0].hands, 3);
	const act = { target: 1, recruit: true, exit: 'persist' };
	valid('deepfall_choice', act);
	await a.ok('choose', { table: tid, decision: m.decision, choice: act });
	rv = await a.c.waitFor(revealOf(tid, m.decision), 10000, 'the reveal of the act');
	assert.deepStrictEqual(rv.choices.find((c) => c.seat === 0).choice, act);
	// No more hands this round (a new round's opening roll may follow).
	const cut = rv.events.findIndex((e) => e.event === 'round');
	const thisRound = cut < 0 ? rv.events : rv.events.slice(0, cut);
	assert.ok(!thisRound.some((e) => e.event === 'roll' && e.seat === 0), 'no more hands');

	// The rest of the game: act at once every round; the result counts them.
	let acts = 1;
	for (;;) {
		m = await a.c.waitFor(ourOptions(tid), 15000, 'options or the result');
		if (m.type === 'result') {
			assert.strictEqual(m.result.scores.length, 3);
			assert.strictEqual(m.result.rounds, acts, 'one act a round');
			break;
		}
		valid('deepfall_form', m.options[0]);
		const last = m.options[0].target.max === 1;
		await a.ok('choose', { table: tid, decision: m.decision,
			choice: { target: 1, recruit: true, exit: last ? 'cash_out' : 'persist' } });
		acts++;
	}
	a.c.close();
});

test('a human and three AI strategies play a whole deepfall game', async () => {
	const a = await player(srv, 'delver');
	const t = await a.ok('table_create', {
		kind: 'deepfall', seats: 4, ai: 3, start: true, pacing_ms: 0,
		config: { ai: ['balanced', 'cashout', 'presson', 'worthyend'] },
	});
	const tid = t.table;
	let acts = 0;
	let presses = 0;
	let refused = false;
	let sawCollapse = false;
	let aiPressed = false;
	for (;;) {
		const m = await a.c.waitFor(ourOptions(tid), 10000, 'options or the result');
		if (m.type === 'result') {
			const r = m.result;
			assert.strictEqual(r.scores.length, 4);
			assert.ok(r.winners.length >= 1);
			assert.ok(r.rounds >= 6, `rounds ${r.rounds}`);
			assert.strictEqual(r.rounds, acts);
			for (const p of r.players) assert.ok(p.cash_outs_forced <= p.cash_outs);
			break;
		}
		assert.strictEqual(m.seat, 0);
		const form = m.options[0];
		valid('deepfall_form', form);
		assert.strictEqual(form.target.min, 1);
		assert.ok(form.exit.includes('persist') && form.exit.includes('cash_out'));
		if (!refused) {
			// Beyond the frontier, a press with an act, nonsense: refused,
			// the seat still pending.
			for (const choice of [{ target: form.target.max + 1 }, { press: true, target: 1 },
				{ press: 1 }, { target: 1, exit: 'flee' }]) {
				const bad = await a.req('choose', { table: tid, decision: m.decision, choice });
				assert.strictEqual(bad.type, 'error', JSON.stringify(choice));
				assert.strictEqual(bad.code, 'illegal_choice');
				assert.ok(bad.message.length > 0);
			}
			refused = true;
		}
		// Press once a round while offered; then stay a floor above the
		// frontier and bank in the last round.
		let choice;
		if (form.press && form.hands === 1) {
			choice = { press: true };
			presses++;
		} else {
			const last = form.target.max === 1;
			choice = { target: Math.max(1, form.target.max - 1), recruit: true,
				exit: last ? 'cash_out' : 'persist' };
			acts++;
		}
		valid('deepfall_choice', choice);
		await a.ok('choose', { table: tid, decision: m.decision, choice });
		const rv = await a.c.waitFor(revealOf(tid, m.decision), 10000, 'the reveal');
		const mine = rv.choices.find((c) => c.seat === 0);
		assert.deepStrictEqual(mine.choice, choice);
		assert.strictEqual(mine.ai, false);
		for (const c of rv.choices.filter((x) => x.seat !== 0)) {
			assert.strictEqual(c.ai, true);
			valid('deepfall_choice', c.choice);
			if (c.choice.press) aiPressed = true;
			else assert.ok(c.choice.target >= 1 && c.choice.target <= form.target.max);
		}
		valid('deepfall_view', rv.view);
	}
	// Rounds often end in a step we had no choice in: look at every reveal.
	for (const x of a.c.received)
		if (x.type === 'reveal' && x.table === tid && x.events.some((e) => e.event === 'collapse'))
			sawCollapse = true;
	assert.ok(sawCollapse);
	assert.ok(presses > 0 && aiPressed);
	a.c.close();
});

test('a player who leaves mid-game hands the seat to the AI; the game ends', async () => {
	const b = await player(srv, 'quitter');
	const w = await player(srv, 'watcher');
	// A little pacing: once the human leaves, every step is the AI's, and a
	// reveal carries the whole view; the spectator reads them as they come.
	const t = await b.ok('table_create', {
		kind: 'deepfall', seats: 3, ai: 2, start: true, pacing_ms: 5,
		config: { ai: ['presson', 'worthyend', 'cashout'] },
	});
	const tid = t.table;
	const snap = await w.req('table_spectate', { table: tid });
	assert.strictEqual(snap.type, 'table');
	const m = await b.c.waitFor((x) => x.table === tid && x.type === 'options' && x.options,
		10000, 'the first options');
	await b.ok('choose', { table: tid, decision: m.decision,
		choice: { target: 2, recruit: true } });
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
	assert.ok(last.presses > 0, `the bot pressed: ${out}`);
});
