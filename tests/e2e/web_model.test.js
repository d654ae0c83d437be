'use strict';
/*
 * web_model.test.js — the web client's table model (web/js/table.js) fed
 * the update sequences of proto/table.md by hand, in node (no browser): a
 * resent seq is ignored, a gap is reported and not folded, a snapshot
 * resets what it covers, the reveal notes a change of mind, a rematch
 * clears the finished game, and a watcher's model never holds options.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const load = () => import(pathToFileURL(path.resolve(__dirname, '..', '..', 'web', 'js', 'table.js')));

const seats = [
	{ seat: 0, kind: 'human', player: 1, name: 'alice', connected: true, away: false, status: 'idle' },
	{ seat: 1, kind: 'ai', player: null, name: null, status: 'idle' },
];

function snapshot(extra = {}) {
	return { type: 'table', table: 7, seq: 5, name: 't', kind: 'gems', state: 'playing', host: 1,
		private: false, turn_timeout_ms: 30000, window_ms: 1000, pacing_ms: 0, config: {}, you: 0,
		seats, spectators: 0, game: { decision: 1, phase: 'choosing', pending: [0, 1], deadline: 30000,
			status: ['waiting', 'chosen'], options: [{ id: 'leave', label: 'Leave' }, { id: 'stay', label: 'Stay' }],
			view: { kind: 'gems', viewer: 0 } }, ...extra };
}

test('seq: resends ignored, gaps reported and not folded, a snapshot starts over', async () => {
	const { Table, F } = await load();
	const t = new Table(7);
	assert.ok(t.apply(snapshot()) & F.OPTIONS);
	assert.equal(t.asked, true);
	assert.equal(t.decision, 1);
	assert.equal(t.apply({ type: 'status', table: 7, seq: 5, decision: 1, status: ['chosen', 'chosen'] }), 0);
	assert.equal(t.apply({ type: 'status', table: 7, seq: 8, decision: 1, status: ['chosen', 'chosen'] }), F.GAP);
	assert.deepEqual(t.status, ['waiting', 'chosen']); // the gap was not folded
	assert.equal(t.seq, 5);
	assert.equal(t.apply({ type: 'status', table: 8, seq: 6, status: [] }), 0); // another table
	assert.ok(t.apply({ type: 'status', table: 7, seq: 6, decision: 1, status: ['selecting', 'chosen'] }) & F.CHANGED);
	assert.deepEqual(t.status, ['selecting', 'chosen']);
	// A snapshot with an older seq than ours still replaces the state (it is the truth now).
	t.apply(snapshot({ seq: 9, game: { decision: 2, phase: 'between', pending: [], deadline: null,
		status: ['idle', 'idle'], view: { kind: 'gems', viewer: 0 } } }));
	assert.equal(t.seq, 9);
	assert.equal(t.asked, false);
	assert.equal(t.decision, 2);
});

test('a change of mind inside the window shows in the reveal', async () => {
	const { Table, F } = await load();
	const t = new Table(7);
	t.apply(snapshot());
	t.apply({ type: 'status', table: 7, seq: 6, decision: 1, status: ['chosen', 'chosen'], choice: 'stay' });
	t.apply({ type: 'window', table: 7, seq: 7, decision: 1, closes_in_ms: 1000, status: ['chosen', 'chosen'], choice: 'stay' });
	assert.ok(t.windowAt > performance.now());
	t.apply({ type: 'status', table: 7, seq: 8, decision: 1, status: ['chosen', 'chosen'], choice: 'leave' });
	assert.equal(t.choice, 'leave');
	const f = t.apply({ type: 'reveal', table: 7, seq: 9, decision: 1, events: [],
		choices: [{ seat: 0, choice: 'leave', ai: false }, { seat: 1, choice: 'stay', ai: true }], view: {} });
	assert.ok(f & F.REVEAL);
	assert.deepEqual(t.revealChanged, { from: 'stay', to: 'leave' });
	assert.equal(t.asked, false);
	assert.deepEqual(t.status, ['idle', 'idle']);
	// The next decision starts clean.
	t.apply({ type: 'options', table: 7, seq: 10, decision: 2, pending: [0, 1], deadline: 30000,
		status: ['waiting', 'chosen'], seat: 0, options: [{ id: 'leave' }, { id: 'stay' }] });
	assert.equal(t.choice, null);
	assert.equal(t.firstChoice, null);
	t.apply({ type: 'status', table: 7, seq: 11, decision: 2, status: ['chosen', 'chosen'], choice: 'stay' });
	t.apply({ type: 'reveal', table: 7, seq: 12, decision: 2, events: [],
		choices: [{ seat: 0, choice: 'stay', ai: false }, { seat: 1, choice: 'stay', ai: true }], view: {} });
	assert.equal(t.revealChanged, null);
});

test('a choice object echoed with its fields in another order is the same choice', async () => {
	const { key } = await load();
	assert.equal(key({ target: 4, recruit: true, exit: 'persist' }), key({ exit: 'persist', target: 4, recruit: true }));
	assert.notEqual(key({ target: 4 }), key({ target: 5 }));
	assert.equal(key({ id: 'stay' }), key('stay'));
});

test('result, then a rematch back to waiting', async () => {
	const { Table, F } = await load();
	const t = new Table(7);
	t.apply(snapshot());
	assert.ok(t.apply({ type: 'result', table: 7, seq: 6, decisions: 30, result: { scores: [3, 4] }, seed: '5' }) & F.RESULT);
	assert.equal(t.state, 'finished');
	assert.equal(t.seed, '5');
	t.apply({ type: 'seats', table: 7, seq: 7, state: 'waiting', host: 1, seats, spectators: 0 });
	assert.equal(t.state, 'waiting');
	assert.equal(t.result, null);
	assert.equal(t.view, null);
	assert.ok(t.apply({ type: 'start', table: 7, seq: 8, seats, events: [{ type: 'game_start', seats: 2 }],
		view: { kind: 'gems' } }) & F.START);
	assert.equal(t.state, 'playing');
	assert.ok(t.apply({ type: 'table_closed', table: 7, seq: 9 }) & F.CLOSED);
});

test('a watcher: no seat, no options, and unknown updates are ignored', async () => {
	const { Table } = await load();
	const t = new Table(7);
	t.apply(snapshot({ you: null, game: { decision: 1, phase: 'choosing', pending: [0, 1], deadline: 30000,
		status: ['waiting', 'chosen'], view: { kind: 'gems', viewer: -1 } } }));
	assert.equal(t.you, null);
	assert.equal(t.asked, false);
	t.apply({ type: 'options', table: 7, seq: 6, decision: 2, pending: [0, 1], deadline: 30000, status: ['waiting', 'chosen'] });
	assert.equal(t.options, null);
	assert.equal(t.asked, false);
	assert.ok(t.apply({ type: 'something_new', table: 7, seq: 7, x: 1 })); // folded (seq), nothing else
	assert.equal(t.seq, 7);
});
