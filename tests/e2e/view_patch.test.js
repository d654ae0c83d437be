'use strict';
/*
 * view_patch.test.js — hello's caps and the reveals' view_patch
 * (PROTOCOL.md §3, proto/table.md §5.6), against a real laird:
 *   - a client that asks for nothing gets exactly what it got before: no
 *     `caps` in welcome, reveals with the whole view and no view_patch;
 *   - a client that asks for view_patch plays games of gems, deepfall and
 *     crawl (40 reveals each, or to the end) applying each patch with the
 *     browser's code
 *     (web/js/patch.js) to the view it holds, and the view equals the one
 *     a snapshot (table_sync since 0) shows at that seq, also at the
 *     end; a resend (table_sync since an older seq) carries whole views;
 *   - hostile caps: a malformed list is refused with bad_field and
 *     changes nothing (the connection may say hello again), unknown names
 *     are ignored.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { startLaird } = require('./lib/laird');
const { raw, within } = require('./lib/app');

const patchJs = () => import(pathToFileURL(path.resolve(__dirname, '..', '..', 'web', 'js', 'patch.js')));

let srv;
test.before(async () => {
	srv = await startLaird({ args: ['--window-ms', '0', '--reveal-pause-ms', '0',
		'--rate-msgs-per-sec', '2000', '--rate-burst', '2000'] });
});
test.after(async () => {
	if (srv) await srv.stop();
});

const GAME_MS = 120000;
const REVEALS = 40; // per kind: enough for several rooms, floors, levels

/* Plays p's seat (a random option each time, seeded) at a new table of
 * `kind` with AI seats until the result, or until onMsg returns true;
 * onMsg sees each message of the table in order, the create's snapshot
 * first. Resolves with the table id. */
async function playGame(p, kind, seats, onMsg) {
	let rnd = 12345;
	const pick = (n) => {
		rnd = (rnd * 1103515245 + 12345) % 2147483648;
		return rnd % n;
	};
	let done, table;
	const finished = new Promise((resolve) => (done = resolve));
	let over = false;
	const handle = (m) => {
		if (over || m.table !== table) return;
		if (onMsg(m, table) === true || m.type === 'result') {
			over = true;
			done();
			return;
		}
		if (m.type === 'options' && Array.isArray(m.options) && m.seat !== undefined) {
			const o = m.options[pick(m.options.length)];
			// deepfall's is a form (proto/kinds/deepfall.md): act at once
			const choice = o.id !== undefined ? o.id
				: { target: o.target.min + pick(o.target.max - o.target.min + 1),
					recruit: o.recruit[pick(o.recruit.length)], exit: o.exit[0] };
			p.c.send({ type: 'choose', table, decision: m.decision, choice });
		}
	};
	const from = p.c.received.length;
	const snap = await p.ok('table_create', { kind, seats, ai: seats - 1, start: true });
	table = snap.table;
	// what came with the reply and after it, then what comes next
	for (const m of p.c.received.slice(from)) handle(m);
	const on = (data) => handle(JSON.parse(data.toString()));
	p.c.ws.on('message', on);
	await within(finished, GAME_MS, `a ${kind} game`);
	p.c.ws.off('message', on);
	return table;
}

test('a client that asks for nothing gets whole views and no caps', async () => {
	const p = await raw(srv);
	await p.hello({ name: 'oldclient' });
	assert.equal(p.welcome.caps, undefined);
	let reveals = 0;
	await playGame(p, 'gems', 3, (m) => {
		if (m.type !== 'reveal') return;
		reveals++;
		assert.ok(m.view && typeof m.view === 'object');
		assert.equal(m.view_patch, undefined);
	});
	assert.ok(reveals > 3);
	p.c.close();
});

for (const [kind, seats] of [['gems', 5], ['deepfall', 4], ['crawl', 4]]) {
	test(`${kind}: view_patch applied to the view held is the snapshot's view`, async () => {
		const { applyViewPatch } = await patchJs();
		const p = await raw(srv);
		await p.hello({ name: `patch_${kind}`, caps: ['view_patch'] });
		assert.deepEqual(p.welcome.caps, ['view_patch']);
		let view = null, seq = 0;
		let patched = 0, checked = 0, nextSync = 1;
		const table = await playGame(p, kind, seats, (m, t) => {
			if (Number.isInteger(m.seq) && m.type !== 'table') {
				if (m.seq <= seq) return false; // a resend: nothing new
				// an update not for us (a seats update another got as a
				// snapshot) leaves a gap; never before a reveal here
				if (m.type === 'reveal') assert.equal(m.seq, seq + 1, 'no gap');
				seq = m.seq;
			}
			if (m.type === 'table') {
				// Everything up to its seq came before it on this
				// connection: a snapshot's view is the one we hold.
				if (m.id === undefined && view !== null) {
					assert.equal(m.seq, seq);
					assert.deepEqual(m.game.view, view, `${kind} snapshot at seq ${m.seq}`);
					checked++;
				}
				if (m.game && m.game.view) view = m.game.view;
				seq = m.seq;
			} else if (m.type === 'start') {
				view = m.view;
			} else if (m.type === 'reveal') {
				assert.equal(m.view, undefined);
				assert.ok(Array.isArray(m.view_patch));
				const v = applyViewPatch(view, m.view_patch);
				assert.ok(v !== null, `${kind}: the patch applies`);
				view = v;
				if (++patched === nextSync) { // reveals 1, 2, 4, 8, ...
					nextSync *= 2;
					p.c.send({ type: 'table_sync', table: t, since: 0 });
				}
			}
			return patched >= REVEALS && checked >= 5;
		});
		assert.ok(patched > 3, `${kind}: ${patched} reveals`);
		assert.ok(checked >= 2, `${kind}: ${checked} snapshots compared`);
		// at the end (or over): a snapshot shows the view we hold
		await p.ok('table_sync', { table, since: 0 });
		const last = p.c.received.filter((m) => m.type === 'table' && m.table === table).pop();
		assert.ok(last.seq === seq || last.game.view !== view); // (the AIs may play on)
		if (last.seq === seq) assert.deepEqual(last.game.view, view);
		p.c.close();
	});
}

test('a resend (table_sync since an older seq) carries whole views', async () => {
	const p = await raw(srv);
	await p.hello({ name: 'resender', caps: ['view_patch'] });
	let first = null, how = null;
	await playGame(p, 'gems', 2, (m, table) => {
		if (m.type !== 'reveal' && m.type !== 'table') return false;
		if (!first && m.type === 'reveal') {
			first = m;
			assert.ok(m.view_patch && !m.view);
			p.c.send({ type: 'table_sync', table, since: m.seq - 1 });
		} else if (first && m.type === 'reveal' && m.seq === first.seq) {
			assert.ok(m.view && m.view_patch === undefined);
			how = 'reveal';
		} else if (first && m.type === 'table') {
			how = 'snapshot'; // not held any more: a snapshot (whole too)
		}
		return how !== null;
	});
	assert.equal(how, 'reveal'); // one reveal back: the table holds it
	p.c.close();
});

test('the browser refuses a patch that would not leave a plain view (prototype, bad paths); the view it holds is untouched', async () => {
	const { applyViewPatch } = await patchJs();
	const held = { a: { b: [1, 2] }, n: 1 };
	const copy = JSON.parse(JSON.stringify(held));
	for (const bad of [
		[[['__proto__'], { polluted: true }]],
		[[['a', '__proto__'], { polluted: true }]],
		[[['__proto__', 'polluted'], true]],
		[[['a', 'b', 3], 9]], // past the end
		[[['a', 'b', -1]]],
		[[['missing', 'x'], 1]],
		[[['a'], 1, 2]],
		'not a list',
	]) {
		assert.equal(applyViewPatch(held, bad), null, JSON.stringify(bad));
		assert.deepEqual(held, copy);
	}
	assert.equal({}.polluted, undefined);
	assert.deepEqual(applyViewPatch(held, [[['a', 'b', 2], 3], [['n']]]), { a: { b: [1, 2, 3] } });
});

test('hostile caps: a malformed list is refused and changes nothing; unknown names are ignored', async () => {
	const bad = ['view_patch', {}, [1], [''], ['x'.repeat(33)], Array(17).fill('view_patch'), [null]];
	const p = await raw(srv);
	for (const caps of bad) {
		const r = await p.req('hello', { protocol: 1, name: 'capsy', caps });
		assert.equal(r.type, 'error', JSON.stringify(caps));
		assert.equal(r.code, 'bad_field');
		assert.equal(r.field, 'caps');
	}
	// the same connection may still say hello: nothing was created
	await p.hello({ name: 'capsy', caps: ['no_such_cap', 'view_patch', 'view_patch'] });
	assert.deepEqual(p.welcome.caps, ['view_patch']);
	const q = await raw(srv);
	await q.hello({ name: 'capsy2', caps: ['no_such_cap'] });
	assert.deepEqual(q.welcome.caps, []);
	let reveals = 0;
	await playGame(q, 'gems', 2, (m) => {
		if (m.type !== 'reveal') return;
		reveals++;
		assert.ok(m.view && m.view_patch === undefined);
	});
	assert.ok(reveals > 0);
	p.c.close();
	q.c.close();
});
