'use strict';
/*
 * lean.test.js — the `lean` and `timing` capabilities (PROTOCOL.md §3,
 * proto/table.md §5.2 and §5.6), written from those pages against a real
 * laird, as a client of our own would not (node's ws, no lair code):
 *   - a seat that asked for `lean` gets each reveal as the whole reveal a
 *     resend (table_sync) carries, less exactly: the gems `choice` events,
 *     `"ai":false` in `choices` and `t_close_us`; `ai:true` stays;
 *   - with `timing` too, `t_close_us` stays; `timing` alone changes nothing;
 *   - the `start` to a lean seat has no `seats`: the `seats` update right
 *     before it (seq one below, sent to everyone) has them; no seq gap;
 *   - with `view_patch` too, as lair asks, whole games of gems and crawl:
 *     the `result` comes without `result`, and the view held (patched with
 *     the browser's code) has the one a resend of the result carries;
 *     deepfall's view has none, so its result keeps it;
 *   - hostile: names in another case, repeated, or mixed with unknown ones
 *     are taken as the page says (exact names only, once).
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { startLaird } = require('./lib/laird');
const { raw, within } = require('./lib/app');

let srv;
test.before(async () => {
	srv = await startLaird({ args: ['--window-ms', '0', '--reveal-pause-ms', '0',
		'--rate-msgs-per-sec', '2000', '--rate-burst', '2000'] });
});
test.after(async () => {
	if (srv) await srv.stop();
});

const GAME_MS = 120000;

/* A reveal as the page says a lean seat gets it, from the whole one. */
function leanOf(whole, timing) {
	const o = JSON.parse(JSON.stringify(whole));
	o.events = o.events.filter((e) => e.type !== 'choice');
	for (const c of o.choices) if (c.ai === false) delete c.ai;
	if (!timing) delete o.t_close_us;
	return o;
}

/* p (asking caps) sits at a gems table with `ai` AI seats and plays (a
 * fixed rotation of its options); each live reveal is asked for again
 * (table_sync since the seq before it) and checked against that resend,
 * which the page says is whole. A message whose seq we already had is a
 * resend. Returns what was seen. */
async function playChecked(p, caps, ai, reveals) {
	const lean = caps.includes('lean'), timing = caps.includes('timing');
	const seen = { reveals: 0, aiTrue: 0, restated: 0 };
	const from = p.c.received.length;
	const snap = await p.ok('table_create', { kind: 'gems', seats: ai + 1, ai, start: true });
	const table = snap.table;
	let done, fail, over = false, maxSeq = snap.seq;
	const finished = new Promise((resolve, reject) => { done = resolve; fail = reject; });
	const live = new Map(); // seq -> a live reveal waiting for its resend
	const check = () => {
		if (seen.reveals >= reveals || (over && live.size === 0)) done();
	};
	const handle = (m) => {
		try {
			if (m.table !== table || !Number.isInteger(m.seq)) return;
			if (m.seq <= maxSeq) { // a resend: whole, as without caps
				const mine = live.get(m.seq);
				if (m.type !== 'reveal' || !mine) return;
				live.delete(m.seq);
				assert.ok(m.choices.every((c) => typeof c.ai === 'boolean'));
				assert.ok(Number.isInteger(m.t_close_us));
				seen.restated += m.events.filter((e) => e.type === 'choice').length;
				const got = JSON.parse(JSON.stringify(mine));
				delete got.view; delete m.view;
				assert.deepEqual(got, lean ? leanOf(m, timing) : m, `reveal ${m.decision}`);
				seen.reveals++;
				check();
				return;
			}
			maxSeq = m.seq;
			if (m.type === 'options' && m.seat !== undefined) {
				const o = m.options[m.decision % m.options.length];
				p.c.send({ type: 'choose', table, decision: m.decision, choice: o.id });
			} else if (m.type === 'reveal') {
				seen.aiTrue += m.choices.filter((c) => c.ai === true).length;
				assert.ok(!('view_patch' in m));
				live.set(m.seq, m);
				p.c.send({ type: 'table_sync', table, since: m.seq - 1 });
			} else if (m.type === 'result') {
				over = true;
				check();
			}
		} catch (e) {
			fail(e);
		}
	};
	// what came with the reply and after it (in order), then what comes next
	for (const m of p.c.received.slice(from)) handle(m);
	const on = (data) => handle(JSON.parse(data.toString()));
	p.c.ws.on('message', on);
	try {
		await within(finished, GAME_MS, 'a gems game');
	} finally {
		p.c.ws.off('message', on);
	}
	return seen;
}

test('lean: a reveal is its resend less the choice events, ai:false and t_close_us', async () => {
	const p = await raw(srv);
	await p.hello({ name: 'leanone', caps: ['lean'] });
	assert.deepEqual(p.welcome.caps, ['lean']);
	const seen = await playChecked(p, ['lean'], 2, 12);
	assert.ok(seen.reveals >= 3, `${seen.reveals} reveals`);
	assert.ok(seen.restated >= seen.reveals, 'each resend had choice events to leave out');
	assert.ok(seen.aiTrue > 0, 'the AI seats say ai:true');
	p.c.close();
});

test('lean with timing keeps t_close_us; timing alone changes nothing', async () => {
	const p = await raw(srv);
	await p.hello({ name: 'leantimed', caps: ['timing', 'lean'] });
	assert.deepEqual(p.welcome.caps, ['lean', 'timing']);
	const seen = await playChecked(p, ['lean', 'timing'], 1, 5);
	assert.ok(seen.reveals >= 3);
	const q = await raw(srv);
	await q.hello({ name: 'timedonly', caps: ['timing'] });
	assert.deepEqual(q.welcome.caps, ['timing']);
	const seenQ = await playChecked(q, ['timing'], 1, 5); // whole, as without caps
	assert.ok(seenQ.reveals >= 3);
	p.c.close();
	q.c.close();
});

test('the start to a lean seat leaves out the seats that the update right before it has; no gap', async () => {
	const host = await raw(srv);
	await host.hello({ name: 'leanhost', caps: ['lean'] });
	const other = await raw(srv);
	await other.hello({ name: 'plainjoiner' });
	const snap = await host.ok('table_create', { kind: 'gems', seats: 3 });
	const table = snap.table;
	await other.ok('table_join', { table });
	const hostFrom = host.c.received.length, otherFrom = other.c.received.length;
	const isStart = (m) => m.table === table && m.type === 'start';
	const hostStart = host.c.waitFor(isStart, 20000), otherStart = other.c.waitFor(isStart, 20000);
	await host.ok('table_start', { table });
	const [hs, os] = await Promise.all([hostStart, otherStart]);
	assert.equal(hs.seq, os.seq);
	const upTo = (p, from, start) => p.c.received.slice(from)
		.filter((m) => m.table === table && m.seq !== undefined && m.seq <= start.seq);
	for (const [p, from, st] of [[host, hostFrom, hs], [other, otherFrom, os]]) {
		const seq = upTo(p, from, st).map((m) => m.seq);
		// every seq once, one by one: no gap to resync
		assert.deepEqual(seq, seq.map((_, k) => seq[0] + k), JSON.stringify(seq));
		const seats = upTo(p, from, st).filter((m) => m.type === 'seats').pop();
		assert.equal(seats.state, 'playing');
		assert.equal(seats.seq, st.seq - 1);
		if (p === host) {
			assert.equal(hs.seats, undefined);
			assert.ok(hs.view && Array.isArray(hs.events));
			assert.ok(seats.seats.some((s) => s.kind === 'ai')); // the empty seat now the AI's
		} else {
			assert.deepEqual(os.seats, seats.seats);
		}
	}
	host.c.close();
	other.c.close();
});

const patchJs = () => import(pathToFileURL(path.resolve(__dirname, '..', '..', 'web', 'js', 'patch.js')));

for (const [kind, inView] of [['gems', true], ['crawl', true], ['deepfall', false]]) {
	test(`${kind}: with view_patch and lean, the result is in the view held${inView ? '' : ' (deepfall: in the result)'}`, async () => {
		const { applyViewPatch } = await patchJs();
		const p = await raw(srv);
		await p.hello({ name: `leanres_${kind}`, caps: ['view_patch', 'lean'] });
		// seat 0 ours, seat 1 the AI's; we choose at random (seeded)
		let rnd = 7;
		const pick = (n) => {
			rnd = (rnd * 1103515245 + 12345) % 2147483648;
			return rnd % n;
		};
		const from = p.c.received.length;
		const snap = await p.ok('table_create', { kind, seats: 2, ai: 1, start: true });
		const table = snap.table;
		let view = snap.game ? snap.game.view : null, seq = snap.seq, result = null;
		const got = new Promise((resolve, reject) => {
			const handle = (m) => {
				try {
					if (m.table !== table || !Number.isInteger(m.seq) || m.seq <= seq) return;
					seq = m.seq;
					if (m.type === 'start') view = m.view;
					if (m.type === 'options' && m.seat !== undefined) {
						const o = m.options[pick(m.options.length)];
						// deepfall's is a form (proto/kinds/deepfall.md): act at once
						const choice = o.id !== undefined ? o.id
							: { target: o.target.min, recruit: o.recruit[0], exit: o.exit[0] };
						p.c.send({ type: 'choose', table, decision: m.decision, choice });
					}
					if (m.type === 'reveal') {
						view = m.view_patch ? applyViewPatch(view, m.view_patch) : m.view;
						assert.ok(view, 'the patch applies');
					}
					if (m.type === 'result') { result = m; resolve(); }
				} catch (e) { reject(e); }
			};
			for (const m of p.c.received.slice(from)) handle(m);
			p.c.ws.on('message', (data) => handle(JSON.parse(data.toString())));
		});
		await within(got, GAME_MS, `a ${kind} game`);
		// the resend is whole (waitFor takes the live result first: it is here)
		const isResult = (m) => m.table === table && m.type === 'result';
		await p.c.waitFor(isResult, 1000);
		p.c.send({ type: 'table_sync', table, since: result.seq - 1 });
		const whole = await p.c.waitFor(isResult, 20000);
		assert.ok(whole.result && typeof whole.result === 'object');
		assert.equal(whole.seed, result.seed);
		assert.equal(whole.decisions, result.decisions);
		if (inView) {
			assert.equal(result.result, undefined);
			assert.deepEqual(view.result, whole.result);
		} else {
			assert.deepEqual(result.result, whole.result);
		}
		p.c.close();
	});
}

test('hostile caps: only the exact names count, once each', async () => {
	const p = await raw(srv);
	await p.hello({ name: 'leancase', caps: ['LEAN', 'Lean ', 'timing', 'timing', 'lean', 'lean'] });
	assert.deepEqual(p.welcome.caps, ['lean', 'timing']);
	const q = await raw(srv);
	await q.hello({ name: 'leancase2', caps: ['LEAN', 'leaner'] });
	assert.deepEqual(q.welcome.caps, []);
	// and q is served as a client without caps: whole reveals
	const seen = await playChecked(q, [], 1, 3);
	assert.ok(seen.reveals >= 3);
	p.c.close();
	q.c.close();
});
