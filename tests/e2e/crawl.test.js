'use strict';
/*
 * crawl.test.js — the crawl kind through a real laird (docs/rules/crawl.md,
 * proto/kinds/crawl.md):
 *   - two humans and an AI play a whole run; the humans are a bot written
 *     from proto/kinds/crawl.md alone; every view, event and the result
 *     validate against proto/schema.json's crawl section; both humans start
 *     on their first run (C15: the server fills config.first_run) and, the
 *     run recorded, are no longer on one at the rematch; a hostile choice is
 *     refused and changes nothing;
 *   - a shared event is a vote of the party (C24): one human changes its vote
 *     inside the change-your-mind window, the reveal has the changed vote,
 *     and nobody saw a vote before the reveal; then laird is killed (kill -9)
 *     mid-run and restarted: the players' hello puts them back at the same
 *     decision with the same view, and the run plays on to its result.
 * Waits are bounded; nothing sleeps for a fixed time.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird } = require('./lib/laird');
const { player, resume, adminToken, autoplay, within } = require('./lib/app');

const ROOT = path.resolve(__dirname, '..', '..');
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'proto', 'schema.json'), 'utf8'));
let ajv = null;
try {
	const Ajv2020 = require('ajv/dist/2020');
	ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
	ajv.addSchema(schema);
} catch {
	ajv = null; // tests/deps installs it; without it the schema checks are skipped
}
const check = (def) => (ajv ? ajv.compile({ $ref: `${schema.$id}#/$defs/${def}` }) : null);
const viewOk = check('crawl_view');
const eventOk = check('crawl_event');
const resultOk = check('crawl_result');
const choiceOk = check('crawl_choice');
const configOk = check('crawl_config');

function valid(fn, x, what) {
	if (!fn) return;
	assert.ok(fn(x), `${what}: ${JSON.stringify(x).slice(0, 300)}\n` +
		JSON.stringify(fn.errors && fn.errors.slice(0, 3)));
}

/* ---- a bot from proto/kinds/crawl.md ("Writing a bot") ----------------- */

const DIRS = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };

function decide(opts, view, seat, { qmarks = false, turn = 0 } = {}) {
	const ids = opts.map((o) => o.id);
	const has = (id) => ids.includes(id);
	const events = ids.filter((i) => i.startsWith('event:'));
	if (events.length) return events[events.length - 1];
	if (has('leave')) return 'leave';
	if (has('out')) return 'wait';
	const me = view.party.find((p) => p.seat === seat);
	const attack = opts.find((o) => o.label.startsWith('Attack'));
	if (attack) return attack.id;
	if (me.hp * 5 < me.max_hp * 2) {
		const heal = opts.find((o) => o.id.startsWith('use:') &&
			/potion of healing|ration/.test(o.label));
		if (heal) return heal.id;
	}
	const canTravel = has('explore') || ids.some((i) => i.startsWith('travel:'));
	// the first step of a shortest path over the known map (a space is
	// unknown, '#' a wall), else the open step that gets closer
	const stepTo = (x, y) => {
		const open = (cx, cy) => view.map[cy] && ![' ', '#', undefined].includes(view.map[cy][cx]);
		const first = new Map([[`${me.x},${me.y}`, null]]);
		const queue = [[me.x, me.y]];
		while (queue.length) {
			const [cx, cy] = queue.shift();
			if (cx === x && cy === y) {
				const d = first.get(`${cx},${cy}`);
				if (d && has(d)) return d;
				break;
			}
			for (const [d, [dx, dy]] of Object.entries(DIRS)) {
				const k = `${cx + dx},${cy + dy}`;
				if (first.has(k) || !(open(cx + dx, cy + dy) || (cx + dx === x && cy + dy === y)))
					continue;
				first.set(k, first.get(`${cx},${cy}`) || d);
				queue.push([cx + dx, cy + dy]);
			}
		}
		let best = null;
		let bd = Math.abs(x - me.x) + Math.abs(y - me.y);
		for (const [d, [dx, dy]] of Object.entries(DIRS)) {
			const nd = Math.abs(x - me.x - dx) + Math.abs(y - me.y - dy);
			if (has(d) && nd < bd) {
				bd = nd;
				best = d;
			}
		}
		if (best) return best;
		const steps = Object.keys(DIRS).filter(has);
		return steps.length ? steps[turn % steps.length] : 'wait';
	};
	// a scoundrel went into a gateway: follow
	const gate = view.party.find((p) => p.state === 'gateway' && p.seat !== seat);
	if (gate) {
		if (me.x === gate.x && me.y === gate.y) return has('portal') ? 'portal' : 'wait';
		return canTravel ? `travel:${gate.x},${gate.y}` : stepTo(gate.x, gate.y);
	}
	if (qmarks) {
		const q = opts.find((o) => o.label === 'Travel to a ? tile');
		if (q) return q.id;
	}
	if (has('explore')) return 'explore';
	if (has('portal') && view.map[me.y][me.x] === '>') return 'portal';
	const down = opts.find((o) => o.label === 'Travel to the portal down');
	if (down) return down.id;
	const lair = opts.find((o) => o.label === "Travel to the devil's lair");
	if (lair) return lair.id;
	if (view.monsters.length) {
		const m = view.monsters.reduce((a, b) => (Math.abs(a.x - me.x) + Math.abs(a.y - me.y) <=
			Math.abs(b.x - me.x) + Math.abs(b.y - me.y) ? a : b));
		return stepTo(m.x, m.y);
	}
	return 'wait';
}

/* Plays p's seat at table tid until the result with decide(); records every
 * view, event and choice it sees. */
function crawlBot(p, tid, opts = {}) {
	const seen = { views: [], events: [], choices: [], turn: 0, view: null };
	const play = autoplay(p, tid, {
		onMsg: (m) => {
			if (m.view) {
				seen.view = m.view;
				seen.views.push(m.view);
			}
			if (m.type === 'table' && m.game && m.game.view) seen.view = m.game.view;
			if (Array.isArray(m.events)) seen.events.push(...m.events);
		},
		pick: (options, m) => {
			if (!seen.view || (opts.hold && opts.hold(m, seen.view))) return undefined;
			const c = decide(options, seen.view, m.seat, { ...opts, turn: seen.turn++ });
			seen.choices.push(c);
			return c;
		},
	});
	return { seen, done: play.done, stop: play.stop };
}

/* A fresh snapshot of the table (table_sync from 0). */
async function snapshot(p, tid) {
	// the game starts once its start is durable: wait for it first
	await p.c.waitFor((m) => m.type === 'start' && m.table === tid, 5000, 'the start');
	p.c.pending = p.c.pending.filter((m) => !(m.type === 'table' && m.table === tid));
	const got = p.c.waitFor((m) => m.type === 'table' && m.table === tid && !m.id &&
		m.state === 'playing' && m.game, 5000, 'the snapshot');
	await p.ok('table_sync', { table: tid, since: 0 });
	return got;
}

const ARGS = ['--reveal-pause-ms', '0', '--ai-pacing-ms', '0', '--rate-msgs-per-sec', '2000',
	'--rate-burst', '2000', '--turn-timeout-ms', '60000'];

test('two humans and an AI play a whole crawl run; first runs end with it', async (t) => {
	const srv = await startLaird({ args: ['--window-ms', '15', ...ARGS] });
	try {
		const a = await player(srv, 'rogue');
		const b = await player(srv, 'cutpurse');
		const config = { width: 34, height: 14 };
		valid(configOk, config, 'config');
		const snap = await a.ok('table_create', { kind: 'crawl', seats: 3, ai: 1, config });
		const tid = snap.table;
		const j = await b.ok('table_join', { table: tid });
		assert.strictEqual(j.you, 2);
		const botA = crawlBot(a, tid);
		const botB = crawlBot(b, tid);
		await a.ok('table_start', { table: tid });
		// C15: both humans are new: both on their first run, never the AI
		const snap2 = await snapshot(a, tid);
		assert.deepStrictEqual(snap2.config.first_run, [0, 2]);
		assert.strictEqual(snap2.game.view.first_run, true);
		// a hostile choice: refused, nothing changes
		const bad = await a.req('choose', { table: tid, choice: 'travel:999,999' });
		assert.strictEqual(bad.type, 'error');
		const bad2 = await a.req('choose', { table: tid, choice: { id: 7 } });
		assert.strictEqual(bad2.type, 'error');
		const [ra, rb] = await within(Promise.all([botA.done, botB.done]), 240000,
			'the end of the run');
		const r = ra.result;
		assert.deepStrictEqual(r, rb.result);
		t.diagnostic(`run: ${r.end} after ${r.rounds} rounds, ${r.decisions} decisions, ` +
			`act ${r.acts_reached}`);
		valid(resultOk, r, 'result');
		assert.strictEqual(r.scores.length, 3);
		assert.ok(['won', 'fallen', 'time'].includes(r.end));
		assert.deepStrictEqual(r.winners, r.won ? [0, 1, 2] : []);
		assert.strictEqual(r.players[1].ai, true);
		assert.strictEqual(r.players[0].ai, false);
		assert.ok(r.rounds > 50, `rounds ${r.rounds}`);
		for (const v of botA.seen.views) valid(viewOk, v, 'view');
		for (const e of botA.seen.events) valid(eventOk, e, 'event');
		for (const c of botA.seen.choices) valid(choiceOk, c, 'choice');
		assert.ok(botA.seen.events.some((e) => e.event === 'question_mark'));
		// the first run's first two ? tiles were Events, the third a Normal
		// Combat (C15) — or an Event when a relic came first: a Juzu Bracelet
		// (C16) or a Golden Compass (C17) turns it into one
		const qs = botA.seen.events.filter((e) => e.event === 'question_mark');
		assert.deepStrictEqual(qs.slice(0, 2).map((e) => e.room),
			['event', 'event'].slice(0, qs.length));
		if (qs.length >= 3 && qs[2].room !== 'normal_combat') {
			const before = botA.seen.events.slice(0, botA.seen.events.indexOf(qs[2]));
			assert.strictEqual(qs[2].room, 'event', JSON.stringify(qs[2]));
			assert.ok(before.some((e) => e.event === 'relic' || (e.event === 'buy' && e.relic)),
				'the third ? tile is an Event only after a relic: ' + JSON.stringify(qs[2]));
		}
		assert.ok(qs.slice(0, 3).every((e) => e.rolled === false));
		// statistics folded into the store
		const st = await a.ok('stats', { kind: 'crawl' });
		const runs = st.stats.find((x) => x.key === 'crawl_runs');
		assert.strictEqual(runs.value, 1);
		// and the server-wide records (C46)
		const rec = await a.ok('records', { kind: 'crawl' });
		assert.strictEqual(rec.records.runs, 1);
		assert.strictEqual(rec.records.wins, r.won ? 1 : 0);
		// the run is recorded: at the rematch nobody is on a first run
		await a.ok('rematch', { table: tid });
		await a.ok('table_start', { table: tid });
		const snap3 = await snapshot(a, tid);
		assert.deepStrictEqual(snap3.config.first_run, []);
		assert.strictEqual(snap3.game.view.first_run, false);
		botA.stop();
		botB.stop();
		await a.ok('table_close', { table: tid });
		a.c.close();
		b.c.close();
	} finally {
		const r = await srv.stop();
		assert.strictEqual(r.code, 0, r.output.slice(-3000));
	}
});

test('a shared event is a vote changed inside the window; kill -9 resumes the run', async () => {
	const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-crawl-'));
	let srv = await startLaird({ args: ['--window-ms', '400', ...ARGS], dbDir });
	try {
		const token = await adminToken(srv);
		const a = await resume(srv, token); // the admin: may fix the seed
		const b = await player(srv, 'fence');
		const snap = await a.ok('table_create', { kind: 'crawl', seats: 3, ai: 1, seed: 424242,
			config: { width: 30, height: 12, acts: 1 } });
		const tid = snap.table;
		await b.ok('table_join', { table: tid });
		// Both humans head for ? tiles; at the first vote their bots hold back
		let onVote;
		const voted = new Promise((res) => (onVote = res));
		const hold = (m, view) => {
			if (!view.vote) return false;
			onVote({ m, view });
			return true;
		};
		const botA = crawlBot(a, tid, { qmarks: true, hold });
		const botB = crawlBot(b, tid, { qmarks: true, hold: (m, view) => !!view.vote });
		await a.ok('table_start', { table: tid });
		const { m: vote, view: voteView } = await within(voted, 60000, 'a vote');
		botA.stop();
		botB.stop();
		const views = { a: voteView };
		const ev = views.a.vote.event;
		assert.strictEqual(ev.shared, true);
		assert.deepStrictEqual(vote.options.map((o) => o.id).slice(0, 2), ['event:0', 'event:1']);
		// bob's options are the same vote
		const ob = await b.c.waitFor((m) => m.table === tid && m.type === 'options' &&
			m.options && m.decision === vote.decision, 20000, 'bob\'s vote');
		assert.deepStrictEqual(ob.options.map((o) => o.id), vote.options.map((o) => o.id));
		await a.ok('choose', { table: tid, decision: vote.decision, choice: 'event:0' });
		await b.ok('choose', { table: tid, decision: vote.decision, choice: 'event:0' });
		const win = await a.c.waitFor((m) => m.table === tid && m.type === 'window' &&
			m.decision === vote.decision, 5000, 'the window');
		assert.ok(win.closes_in_ms > 0);
		await a.ok('choose', { table: tid, decision: vote.decision, choice: 'event:1' });
		const rv = await a.c.waitFor((m) => m.table === tid && m.type === 'reveal' &&
			m.decision === vote.decision, 5000, 'the vote\'s reveal');
		const mine = rv.choices.find((c) => c.seat === 0);
		assert.strictEqual(mine.choice, 'event:1', 'the changed vote counts');
		assert.strictEqual(rv.choices.find((c) => c.seat === 2).choice, 'event:0');
		const tally = rv.events.find((e) => e.event === 'vote');
		assert.ok(tally && tally.id === ev.id);
		// bob never saw alice's vote before the reveal: only his own choice
		const bobSaw = b.c.received.filter((x) => x.table === tid &&
			x.decision === vote.decision && x.type !== 'reveal');
		assert.ok(bobSaw.some((x) => x.type === 'window'));
		for (const m of bobSaw) {
			assert.ok(m.choice === undefined || m.choice === 'event:0', JSON.stringify(m));
			assert.ok(!m.choices, JSON.stringify(m));
		}
		// play on to the next decision, then kill -9 while both must choose
		const next = await a.c.waitFor((m) => m.table === tid && m.type === 'options' &&
			m.options && m.decision > vote.decision, 20000, 'the next options');
		const viewBefore = JSON.stringify(rv.view);
		assert.strictEqual(next.decision, vote.decision + 1);
		const decisionBefore = next.decision;
		const killed = await srv.stop({ signal: 'SIGKILL' });
		assert.strictEqual(killed.signal, 'SIGKILL');
		await a.c.waitClose(5000).catch(() => {});
		await b.c.waitClose(5000).catch(() => {});
		srv = await startLaird({ args: ['--window-ms', '400', ...ARGS], dbDir });
		const a2 = await resume(srv, token, { resume: { [tid]: 0 } });
		const e = a2.welcome.tables.find((x) => x.table === tid);
		assert.ok(e, `welcome lists the table: ${JSON.stringify(a2.welcome.tables)}`);
		assert.strictEqual(e.seat, 0);
		const back = await a2.c.waitFor((m) => m.type === 'table' && m.table === tid, 15000,
			'the snapshot after the restart');
		assert.strictEqual(back.state, 'playing');
		assert.strictEqual(back.game.decision, decisionBefore, 'the same decision');
		assert.strictEqual(JSON.stringify(back.game.view), viewBefore, 'the same view');
		valid(viewOk, back.game.view, 'restored view');
		// both humans leave their seats to the AI and watch it finish the run
		const b2 = await resume(srv, b.token);
		await b2.ok('table_leave', { table: tid });
		b2.c.close();
		await a2.ok('table_leave', { table: tid });
		await a2.ok('table_spectate', { table: tid });
		const res = await a2.c.waitFor((m) => m.type === 'result' && m.table === tid, 120000,
			'the result after the restart');
		valid(resultOk, res.result, 'result');
		assert.ok(res.result.decisions >= decisionBefore);
		a2.c.close();
	} finally {
		await srv.stop();
		fs.rmSync(dbDir, { recursive: true, force: true });
	}
});
