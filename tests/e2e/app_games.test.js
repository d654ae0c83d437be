'use strict';
/*
 * app_games.test.js — whole games through the protocol against a real
 * laird: humans, AIs and mixes; the change-your-mind window; deadlines;
 * disconnect and resume; what spectators and opponents may see; table
 * life (seats, AI, passwords, host rules, rematch, close, live lists) and
 * the table-level bad inputs. Short windows and no pauses keep games fast;
 * the window test runs on a server with the real 1 s window.
 */
const test = require('node:test');
const assert = require('node:assert');
const { startLaird } = require('./lib/laird');
const { player, resume, autoplay, within, adminToken } = require('./lib/app');
const { lockDatabase, storeQueued } = require('./lib/store_lock');

const FAST = ['--window-ms', '60', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0',
	'--rate-burst', '400', '--rate-msgs-per-sec', '400', '--max-tables-per-player', '20'];
const GAME_MS = 60000;

let srv;
test.before(async () => {
	srv = await startLaird({ args: FAST });
});
test.after(async () => {
	// A clean exit: 0, and (under ASan) no leak or error report.
	if (!srv) return;
	const r = await srv.stop();
	assert.strictEqual(r.code, 0, r.output.slice(-4000));
	assert.ok(!/ERROR: (Address|Leak)Sanitizer|runtime error/.test(r.output), r.output.slice(-4000));
});

function statValue(stats, key) {
	const s = stats.stats.find((x) => x.key === key);
	assert.ok(s, `statistic ${key}`);
	return s.value;
}

test('a human and two AIs play a whole game; stats, achievements, records follow', async () => {
	const a = await player(srv, 'solo');
	const before = await a.ok('server_stats');
	const snap = await a.ok('table_create', { kind: 'gems', seats: 3, ai: 2, start: true });
	assert.strictEqual(snap.type, 'table');
	assert.strictEqual(snap.you, 0);
	assert.deepStrictEqual(snap.seats.map((s) => s.kind), ['human', 'ai', 'ai']);
	const result = await within(autoplay(a, snap.table).done, GAME_MS, 'the game to end');
	assert.strictEqual(result.result.seats.length, 3);
	assert.ok(result.result.winners.length >= 1);
	const mine = result.result.seats[0];

	// The finished game is stored: this player's statistics, achievements,
	// the server-wide statistics and the records all reflect it.
	const stats = await a.ok('stats');
	assert.strictEqual(stats.player, 'solo');
	assert.strictEqual(stats.games, 1);
	assert.strictEqual(statValue(stats, 'games_played'), 1);
	assert.strictEqual(statValue(stats, 'gems_looted'), mine.stats.gems_looted);
	const ach = await a.ok('achievements', { player: 'solo' });
	for (const key of mine.achievements)
		assert.strictEqual(ach.achievements.find((x) => x.key === key).count, 1, key);
	const unearned = ach.achievements.filter((x) => !mine.achievements.includes(x.key));
	assert.ok(unearned.every((x) => x.count === 0));
	const after = await a.ok('server_stats');
	assert.strictEqual(after.games, before.games + 1);
	const rec = await a.ok('records');
	assert.strictEqual(rec.kind, 'gems');
	assert.ok(rec.records && typeof rec.records === 'object');
	// Another client can read them too.
	const b = await player(srv, 'reader');
	const other = await b.ok('stats', { player: 'SOLO' });
	assert.strictEqual(statValue(other, 'games_played'), 1);
	const missing = await b.req('stats', { player: 'nobody' });
	assert.strictEqual(missing.code, 'not_found');
	const badKind = await b.req('stats', { kind: 'chess' });
	assert.strictEqual(badKind.code, 'not_found');
	assert.strictEqual(badKind.field, 'kind');
	a.c.close();
	b.c.close();
});

test('three humans play a whole game together and see the same result', async () => {
	const ps = [await player(srv, 'trio1'), await player(srv, 'trio2'), await player(srv, 'trio3')];
	const snap = await ps[0].ok('table_create', { kind: 'gems', seats: 3 });
	const t = snap.table;
	const j1 = await ps[1].ok('table_join', { table: t });
	assert.strictEqual(j1.you, 1);
	const j2 = await ps[2].ok('table_join', { table: t, seat: 2 });
	assert.strictEqual(j2.you, 2);
	const full = await (await player(srv, 'trio4')).req('table_join', { table: t });
	assert.strictEqual(full.code, 'full');
	// Only the host starts.
	const notHost = await ps[1].req('table_start', { table: t });
	assert.strictEqual(notHost.code, 'forbidden');
	// Alternate picks so that the humans do not all act alike.
	const plays = ps.map((p, i) => autoplay(p, t, {
		pick: (opts, m) => opts[(m.decision + i) % opts.length].id,
	}));
	await ps[0].ok('table_start', { table: t });
	const results = await within(Promise.all(plays.map((x) => x.done)), GAME_MS, 'game end');
	const scores = results.map((r) => JSON.stringify(r.result.seats.map((s) => s.score)));
	assert.strictEqual(new Set(scores).size, 1);
	for (const r of results)
		assert.ok(r.result.seats.every((s) => s.stats.games_with_ais === 0));
	// A finished table can be rematched by its host only.
	const rm = await ps[1].req('rematch', { table: t });
	assert.strictEqual(rm.code, 'forbidden');
	await ps[0].ok('rematch', { table: t });
	const again = await ps[0].req('rematch', { table: t });
	assert.strictEqual(again.code, 'wrong_phase');
	await ps[0].ok('table_close', { table: t });
	const closed = await ps[1].c.waitFor((m) => m.type === 'table_closed' && m.table === t);
	assert.ok(closed);
	for (const p of ps) p.c.close();
});

test('the window: a change inside it applies; no choice is seen before it closes', async () => {
	const s2 = await startLaird({ args: ['--window-ms', '1000', '--reveal-pause-ms', '0'] });
	try {
		const a = await player(s2, 'winA');
		const b = await player(s2, 'winB');
		const w = await player(s2, 'winWatcher');
		const t = (await a.ok('table_create', { kind: 'gems', seats: 2 })).table;
		await b.ok('table_join', { table: t });
		await w.ok('table_spectate', { table: t });
		await a.ok('table_start', { table: t });
		const optA = await a.c.waitFor((m) => m.type === 'options' && m.seat === 0);
		const optB = await b.c.waitFor((m) => m.type === 'options' && m.seat === 1);
		const ids = optA.options.map((o) => o.id);
		assert.ok(ids.includes('leave'), ids.join());
		// The first room's other option: "stay" (or e.g. "pay" at a ferry).
		const other = ids.find((x) => x !== 'leave');
		await a.ok('choose', { table: t, decision: optA.decision, choice: other });
		await b.ok('choose', { table: t, decision: optB.decision, choice: other });
		const win = await a.c.waitFor((m) => m.type === 'window');
		assert.ok(win.closes_in_ms > 0 && win.closes_in_ms <= 1000);
		// Inside the window: A changes its mind.
		await a.ok('choose', { table: t, decision: optA.decision, choice: 'leave' });
		const reveal = await a.c.waitFor((m) => m.type === 'reveal', 5000);
		const byseat = Object.fromEntries(reveal.choices.map((c) => [c.seat, c.choice]));
		assert.strictEqual(byseat[0], 'leave', 'the changed choice is the one applied');
		assert.strictEqual(byseat[1], other);
		assert.ok(reveal.events.some((e) => e.type === 'leave' && e.seat === 0));
		// Before B's and the watcher's reveal, nothing they got named A's
		// choice; B only ever saw its own, the watcher none at all.
		const beforeReveal = (p) => {
			const i = p.c.received.findIndex((m) => m.type === 'reveal');
			return p.c.received.slice(0, i < 0 ? undefined : i);
		};
		await b.c.waitFor((m) => m.type === 'reveal');
		await w.c.waitFor((m) => m.type === 'reveal');
		for (const m of beforeReveal(b)) {
			assert.ok(!JSON.stringify(m).includes('"leave"') || m.type === 'options' ||
				m.type === 'table' || m.type === 'start', JSON.stringify(m));
			if ('choice' in m) assert.strictEqual(m.choice, other);
		}
		for (const m of beforeReveal(w)) {
			assert.ok(!('choice' in m), JSON.stringify(m));
			assert.ok(m.type !== 'options' || m.options === undefined);
		}
		// Status never carries the choice: only waiting / selecting / chosen.
		for (const m of b.c.received.filter((x) => x.type === 'status'))
			assert.ok(m.status.every((s) => ['idle', 'waiting', 'selecting', 'chosen'].includes(s)));
		for (const p of [a, b, w]) p.c.close();
	} finally {
		await s2.stop();
	}
});

test('deadlines: a human who does not choose is played by the AI', async () => {
	const a = await player(srv, 'sleepy');
	const t = (await a.ok('table_create', {
		kind: 'gems', seats: 2, ai: 1, turn_timeout_ms: 1000, start: true,
	})).table;
	const opt = await a.c.waitFor((m) => m.type === 'options' && m.seat === 0);
	assert.ok(opt.deadline > 0 && opt.deadline <= 1000);
	const reveal = await a.c.waitFor((m) => m.type === 'reveal' && m.decision === opt.decision, 5000);
	const mine = reveal.choices.find((c) => c.seat === 0);
	assert.strictEqual(mine.ai, true, 'the AI chose for the seat whose deadline passed');
	await a.ok('table_leave', { table: t });
	a.c.close();
});

test('disconnect and resume: seat back, missed updates or a snapshot, game to the end', async () => {
	const a = await player(srv, 'dropper');
	const b = await player(srv, 'stayer');
	const t = (await a.ok('table_create', { kind: 'gems', seats: 3, ai: 1, turn_timeout_ms: 1000 })).table;
	await b.ok('table_join', { table: t });
	let lastSeq = 0;
	let decisionsSeen = 0;
	const pa = autoplay(a, t, { onMsg: (m) => {
		if (m.seq) lastSeq = Math.max(lastSeq, m.seq);
		if (m.type === 'reveal') decisionsSeen++;
	} });
	const pb = autoplay(b, t);
	await a.ok('table_start', { table: t });
	await within((async () => {
		while (decisionsSeen < 2) await a.c.waitFor((m) => m.type === 'reveal', 10000);
	})(), 20000, 'two decisions');
	pa.stop();
	a.c.terminate();
	// B sees A's seat marked disconnected; the game goes on meanwhile.
	await b.c.waitFor((m) => m.type === 'seats' &&
		m.seats.some((s) => s.seat === 0 && s.connected === false), 5000);
	await b.c.waitFor((m) => m.type === 'reveal', 10000);
	const back = await resume(srv, a.token, { resume: { [t]: lastSeq } });
	const entry = back.welcome.tables.find((x) => x.table === t);
	assert.ok(entry, 'welcome lists the table');
	assert.strictEqual(entry.seat, 0);
	// Either the missed updates (contiguous from lastSeq) or a snapshot.
	const first = await back.c.waitFor((m) => m.table === t, 5000);
	if (first.type === 'table') {
		assert.strictEqual(first.you, 0);
	} else {
		assert.strictEqual(first.seq, lastSeq + 1, 'the first missed update follows the last seen');
	}
	back.c.pending.unshift(first);
	const ra = autoplay(back, t);
	const [resA, resB] = await within(Promise.all([ra.done, pb.done]), GAME_MS, 'game end');
	assert.deepStrictEqual(resA.result.seats.map((s) => s.score),
		resB.result.seats.map((s) => s.score));
	back.c.close();
	b.c.close();
});

test('table life: AI seats, passwords, host rules, live lobby list', async () => {
	const host = await player(srv, 'hostess');
	const watcher = await player(srv, 'listwatch');
	await watcher.ok('lobby_join', { lobby: 1 });
	const snap = await host.ok('table_create', {
		kind: 'gems', seats: 4, name: 'secret den', private: true, password: 'pw',
	});
	const t = snap.table;
	const upd = await watcher.c.waitFor((m) => m.type === 'table_update' && m.table.id === t);
	assert.strictEqual(upd.table.name, 'secret den');
	assert.strictEqual(upd.table.private, true);
	const guest = await player(srv, 'guest');
	let r = await guest.req('table_join', { table: t });
	assert.strictEqual(r.code, 'wrong_password');
	r = await guest.req('table_join', { table: t, password: 'nope' });
	assert.strictEqual(r.code, 'wrong_password');
	r = await guest.req('table_spectate', { table: t });
	assert.strictEqual(r.code, 'wrong_password');
	await host.ok('table_add_ai', { table: t, seat: 3 });
	r = await guest.req('table_add_ai', { table: t });
	assert.strictEqual(r.code, 'forbidden');
	r = await host.req('table_add_ai', { table: t, seat: 3 });
	assert.strictEqual(r.code, 'full');
	await host.ok('table_remove_ai', { table: t, seat: 3 });
	r = await host.req('table_remove_ai', { table: t, seat: 3 });
	assert.ok(['not_found', 'bad_message', 'wrong_phase'].includes(r.code), r.code);
	const j = await guest.ok('table_join', { table: t, password: 'pw' });
	assert.strictEqual(j.you, 1);
	// Leaving as host hands the table on; the last human leaving closes it.
	await host.ok('table_leave', { table: t });
	const list = await watcher.ok('table_list');
	const entry = list.tables.find((x) => x.id === t);
	assert.ok(entry, 'still listed');
	await guest.ok('table_leave', { table: t });
	const gone = await watcher.c.waitFor((m) => m.type === 'table_removed' && m.table === t);
	assert.ok(gone);
	r = await guest.req('table_join', { table: t, password: 'pw' });
	assert.strictEqual(r.code, 'not_found');
	for (const p of [host, watcher, guest]) p.c.close();
});

/* PROTOCOL.md: table_update is sent when a table is created: the new
 * table as created (its creator seated, its AI seats), once, never the
 * half-made table of the steps inside table_create. */
test('a new table reaches the lobby once, whole: creator and AI seats in one table_update',
	async () => {
		const watcher = await player(srv, 'newswatch');
		await watcher.ok('lobby_join', { lobby: 1 });
		const host = await player(srv, 'builder');
		const t = (await host.ok('table_create', { kind: 'gems', seats: 4, ai: 2,
			name: 'made whole' })).table;
		// The watcher's reply comes after every update queued for it before.
		await watcher.ok('ping');
		const upds = watcher.c.received.filter((m) => m.type === 'table_update' &&
			m.table.id === t);
		assert.strictEqual(upds.length, 1, JSON.stringify(upds));
		assert.deepStrictEqual(upds[0].table.humans, ['builder', null, null, null]);
		assert.deepStrictEqual(upds[0].table.ai, [false, true, true, false]);
		await host.ok('table_close', { table: t });
		host.c.close();
		watcher.c.close();
	});

test('bad input at a table: not_seated, not_your_seat, not_pending, illegal_choice, wrong_phase', async () => {
	const a = await player(srv, 'strict');
	const b = await player(srv, 'outsider');
	const t = (await a.ok('table_create', { kind: 'gems', seats: 2, turn_timeout_ms: 30000 })).table;
	await b.ok('table_join', { table: t });
	let r = await a.req('choose', { table: t, choice: 'stay' });
	assert.strictEqual(r.code, 'wrong_phase', 'no game yet');
	await a.ok('table_start', { table: t });
	r = await a.req('table_start', { table: t });
	assert.strictEqual(r.code, 'wrong_phase');
	const opt = await a.c.waitFor((m) => m.type === 'options' && m.seat === 0);
	const other = opt.options.map((o) => o.id).find((x) => x !== 'leave');
	const c = await player(srv, 'nosy');
	r = await c.req('choose', { table: t, choice: 'stay' });
	assert.strictEqual(r.code, 'not_seated');
	r = await a.req('choose', { table: t, seat: 1, choice: 'stay' });
	assert.strictEqual(r.code, 'not_your_seat');
	assert.strictEqual(r.field, 'seat');
	r = await a.req('choose', { table: t, choice: 'dance' });
	assert.strictEqual(r.code, 'illegal_choice');
	assert.strictEqual(r.field, 'choice');
	r = await a.req('choose', { table: t, decision: opt.decision + 5, choice: 'stay' });
	assert.strictEqual(r.code, 'wrong_phase');
	// Nothing changed: both seats still waiting, no window, no reveal.
	assert.ok(!a.c.received.some((m) => m.type === 'window' || m.type === 'reveal'));
	// A seat that has left the dungeon has nothing to decide. The game's
	// seed is random: when seat 1's choice ends the dungeon too (a second
	// hazard), the next dungeon asks both seats again, so seat 0 leaves
	// again until a decision comes that does not ask it (every decision's
	// `options` says whom it asks).
	let d = opt.decision;
	let bChoice = other;
	for (let tries = 0; ; tries++) {
		assert.ok(tries < 20, 'a decision that asks seat 1 but not seat 0, who left');
		await a.ok('choose', { table: t, decision: d, choice: 'leave' });
		await b.ok('choose', { table: t, decision: d, choice: bChoice });
		const next = await a.c.waitFor((m) => m.type === 'options' && m.decision > d, 5000);
		const bOpt = await b.c.waitFor((m) => m.type === 'options' && m.seat === 1 &&
			m.decision === next.decision, 5000);
		d = next.decision;
		bChoice = bOpt.options.map((o) => o.id).find((x) => x !== 'leave');
		if (!next.pending.includes(0))
			break;
	}
	r = await a.req('choose', { table: t, choice: bChoice });
	assert.strictEqual(r.code, 'not_pending');
	for (const p of [a, b, c]) p.c.close();
});

/* table.md §7: the table stays `waiting` while its start record is
 * written; another table_start meanwhile is wrong_phase, not ok. Held
 * there deterministically: the database's write lock is taken from
 * outside, so the start record waits until the test lets it go. */
test('a table_start while the start record is being written gets wrong_phase; one game starts',
	async () => {
		const a = await player(srv, 'eager');
		const b = await player(srv, 'seated');
		const t = (await a.ok('table_create', { kind: 'gems', seats: 2 })).table;
		await b.ok('table_join', { table: t });
		const lock = await lockDatabase(srv.dbPath);
		let released = false;
		try {
			await a.ok('table_start', { table: t });
			await storeQueued(srv, 1); // the start record waits on the lock
			let r = await a.req('table_start', { table: t });
			assert.strictEqual(r.code, 'wrong_phase', JSON.stringify(r));
			r = await b.req('table_start', { table: t });
			assert.strictEqual(r.code, 'wrong_phase', JSON.stringify(r));
			// Nothing of the game is shown before its start is durable.
			const snap = b.c.waitFor((m) => m.type === 'table' && m.table === t);
			await b.ok('table_sync', { table: t });
			assert.strictEqual((await snap).state, 'waiting');
			await lock.release();
			released = true;
			await a.c.waitFor((m) => m.type === 'options' && m.table === t && m.decision === 1,
				10000, 'the first options');
			r = await a.req('table_start', { table: t });
			assert.strictEqual(r.code, 'wrong_phase', 'in play');
			const starts = a.c.received.filter((m) => m.type === 'start' && m.table === t);
			assert.strictEqual(starts.length, 1, 'one game started');
			assert.ok(!/did not start/.test(srv.output()), srv.output().slice(-2000));
		} finally {
			if (!released) await lock.release();
			await a.ok('table_close', { table: t });
			a.c.close();
			b.c.close();
		}
	});

test('statistics and adventure-use counts persist across a restart', async () => {
	const fs = require('node:fs');
	const os = require('node:os');
	const path = require('node:path');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-restart-'));
	try {
		let s = await startLaird({ dbDir: dir, args: FAST });
		const token = await adminToken(s);
		let p = await player(s, 'keeper');
		const t = (await p.ok('table_create', { kind: 'gems', seats: 2, ai: 1, start: true })).table;
		await within(autoplay(p, t).done, GAME_MS, 'first game');
		const stats1 = await p.ok('stats');
		const rec1 = await p.ok('records');
		const srv1 = await p.ok('server_stats');
		await s.stop();

		s = await startLaird({ dbDir: dir, args: FAST });
		assert.ok(!/ADMIN_TOKEN=/.test(s.output()), 'the first admin token is printed once');
		p = await resume(s, p.token);
		assert.deepStrictEqual((await p.ok('stats')).stats, stats1.stats);
		assert.deepStrictEqual((await p.ok('records')).records, rec1.records);
		assert.deepStrictEqual((await p.ok('server_stats')).stats, srv1.stats);
		const adm = await resume(s, token);
		assert.strictEqual(adm.welcome.player.admin, true);
		// The next game starts from the saved counts and moves them on.
		const t2 = (await p.ok('table_create', { kind: 'gems', seats: 2, ai: 1, start: true })).table;
		await within(autoplay(p, t2).done, GAME_MS, 'second game');
		const rec2 = await p.ok('records');
		assert.notDeepStrictEqual(rec2.records, rec1.records);
		assert.strictEqual(statValue(await p.ok('stats'), 'games_played'), 2);
		await s.stop();
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

test('a spectator takes over an AI seat by choosing for it, then plays it to the end', async () => {
	const a = await player(srv, 'owner');
	const b = await player(srv, 'taker');
	const t = (await a.ok('table_create', { kind: 'gems', seats: 3, ai: 2, turn_timeout_ms: 30000 })).table;
	await b.ok('table_spectate', { table: t });
	const pa = autoplay(a, t);
	await a.ok('table_start', { table: t });
	const opt = await b.c.waitFor((m) => m.type === 'options' && m.pending.includes(1), 20000);
	assert.strictEqual(opt.options, undefined, 'a spectator is offered nothing');
	// The AI seat's options are those of any seat in the dungeon: leave is one.
	let r = await b.req('choose', { table: t, seat: 1, decision: opt.decision, choice: 'leave' });
	if (r.type === 'error') {
		// The window may already have closed on the AI's choice: try the next decision.
		assert.ok(['wrong_phase', 'not_pending'].includes(r.code), r.code);
		const next = await b.c.waitFor((m) => m.type === 'options' && m.pending.includes(1), 20000);
		r = await b.req('choose', { table: t, seat: 1, decision: next.decision, choice: 'leave' });
	}
	assert.strictEqual(r.type, 'ok', JSON.stringify(r));
	const seated = await b.c.waitFor((m) => m.type === 'seats' &&
		m.seats[1].kind === 'human' && m.seats[1].name === 'taker', 5000);
	assert.ok(seated);
	const pb = autoplay(b, t);
	const [ra, rb] = await within(Promise.all([pa.done, pb.done]), GAME_MS, 'game end');
	assert.deepStrictEqual(ra.result, rb.result);
	const st = await b.ok('stats');
	assert.strictEqual(statValue(st, 'games_played'), 1, 'the taker is credited with the game');
	a.c.close();
	b.c.close();
});

test('selecting shows in status; a human joins a waiting AI seat; table limits; admin close', async () => {
	const s2 = await startLaird({ args: [...FAST, '--max-tables-per-player', '2'] });
	try {
		const adm = await resume(s2, await adminToken(s2));
		const a = await player(s2, 'selA');
		const b = await player(s2, 'selB');
		const t = (await a.ok('table_create', { kind: 'gems', seats: 2, ai: 1 })).table;
		// A human may take a waiting table's AI seat: it turns human.
		const j = await b.ok('table_join', { table: t, seat: 1 });
		assert.strictEqual(j.you, 1);
		assert.strictEqual(j.seats[1].kind, 'human');
		await a.ok('table_start', { table: t });
		await a.c.waitFor((m) => m.type === 'options' && m.seat === 0);
		await a.ok('selecting', { table: t });
		const st = await b.c.waitFor((m) => m.type === 'status' && m.status[0] === 'selecting');
		assert.ok(!('choice' in st) || st.choice === undefined);
		// Limits: two hosted tables at most.
		await a.ok('table_create', { kind: 'gems', seats: 1 });
		const r = await a.req('table_create', { kind: 'gems', seats: 1 });
		assert.strictEqual(r.code, 'limit_reached');
		// Fixed seeds are for admins only.
		const seeded = await b.req('table_create', { kind: 'gems', seats: 1, seed: 5 });
		assert.strictEqual(seeded.code, 'forbidden');
		assert.strictEqual(seeded.field, 'seed');
		// An admin sees private tables and closes any table.
		const priv = (await b.ok('table_create', { kind: 'gems', seats: 2, private: true,
			password: 'x' })).table;
		const all = await adm.ok('admin_tables');
		assert.ok(all.tables.some((x) => x.id === priv && x.private));
		assert.ok(all.tables.some((x) => x.id === t && x.state === 'playing'));
		await adm.ok('admin_table_close', { table: t });
		await a.c.waitFor((m) => m.type === 'table_closed' && m.table === t);
		await b.c.waitFor((m) => m.type === 'table_closed' && m.table === t);
		const gone = await a.req('choose', { table: t, choice: 'leave' });
		assert.strictEqual(gone.code, 'not_found');
		// A closed table frees its host's slot.
		await a.ok('table_create', { kind: 'gems', seats: 1 });
		for (const p of [adm, a, b]) p.c.close();
	} finally {
		await s2.stop();
	}
});

test('a waiting table whose players all stay away is closed; one with a player back is kept', async () => {
	const s2 = await startLaird({ args: FAST, env: { LAIR_TABLE_ABANDON_MS: '1500' } });
	try {
		const w = await player(s2, 'deserts');
		await w.ok('lobby_join', { lobby: 1 });
		const a = await player(s2, 'wanderer');
		const t = (await a.ok('table_create', { kind: 'gems', seats: 2 })).table;
		const b = await player(s2, 'returner');
		const t2 = (await b.ok('table_create', { kind: 'gems', seats: 2 })).table;
		a.c.terminate();
		b.c.terminate();
		const b2 = await resume(s2, b.token);
		assert.ok(b2.welcome.tables.some((x) => x.table === t2));
		const gone = await w.c.waitFor((m) => m.type === 'table_removed', 8000);
		assert.strictEqual(gone.table, t, 'the deserted table closes');
		const list = await w.ok('table_list');
		assert.ok(list.tables.some((x) => x.id === t2), 'the table with its player back stays');
		assert.ok(!list.tables.some((x) => x.id === t));
		// Its player is no longer seated anywhere when it comes back.
		const a2 = await resume(s2, a.token);
		assert.deepStrictEqual(a2.welcome.tables, []);
		for (const p of [w, b2, a2]) p.c.close();
	} finally {
		await s2.stop();
	}
});
