'use strict';
/*
 * recovery.test.js — crash recovery: `kill -9` laird in the middle
 * of games, restart it on the same database, and check that
 *   - every table in play is back at the same decision with the same hidden
 *     state: the resumed snapshot's view equals the view a crash-free control
 *     run had at that decision, and every later reveal (choices, events,
 *     view) and the result equal the control run's;
 *   - each player's hello with its token puts it back in its seat (welcome
 *     lists the table and seat, the snapshot says `you`), and it plays on;
 *   - nothing acknowledged is lost: once every game has ended, finished-game
 *     counts, statistics, achievements and records (gems' adventure-use
 *     counts, best score, deepest depth) equal the control run's.
 *
 * Both runs play the same tables (fixed seeds, admin-created, every seat
 * human so that no AI stream is involved) with the same deterministic
 * choices: a choice is a function of (table, decision, seat, options) only.
 * The crash run is killed at three points drawn from a seeded generator
 * (fractions of the control run's reveals; RECOVERY_SEED and RECOVERY_LATE
 * explore others) and at the instant the first result arrives. A separate
 * test kills tables with AI seats and checks the restored decision and view
 * and that the games end and are recorded, and the last test checks that
 * after a restore the AI seats choose exactly as in a crash-free run.
 *
 * Waits are bounded; nothing sleeps for a fixed time.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird, connect } = require('./lib/laird');
const { wrap, adminToken } = require('./lib/app');
const { rng } = require('./lib/rng'); // kill points and choices

const ARGS = ['--window-ms', '15', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0',
	'--rate-msgs-per-sec', '2000', '--rate-burst', '2000', '--max-tables-per-player', '20',
	'--turn-timeout-ms', '60000', '--log-level', 'warn'];

const hash = (...xs) => Math.floor(rng(xs.reduce((h, x) => (h * 31 + x) >>> 0, 7))() * 1e9);

/* The deterministic choice of a seat (proto/kinds/*.md). */
function pick(kind, ti, decision, seat, options) {
	const h = hash(ti, decision, seat);
	if (kind === 'gems') {
		// Leave a little less often than the AI would: longer dungeons.
		const ids = options.map((o) => o.id);
		if (ids.includes('leave') && ids.length > 1 && h % 5 !== 0)
			return ids.filter((x) => x !== 'leave')[h % (ids.length - 1)];
		return ids[h % ids.length];
	}
	const f = options[0];
	if (f.press && (h >> 3) % 3 === 0) return { press: true };
	const span = f.target.max - f.target.min + 1;
	return {
		target: f.target.min + (h % span),
		recruit: ((h >> 6) & 1) === 1,
		exit: f.target.max <= 1 || h % 11 === 0 ? 'cash_out' : 'persist',
	};
}

/* What a reveal / snapshot carries that must not differ between runs. */
const revealKey = (m) => JSON.stringify({ c: m.choices, e: m.events, v: m.view });

/* One player: a connection, its tables and what it saw. */
class Bot {
	constructor(name, world) {
		this.name = name;
		this.world = world;
		this.tables = new Map(); // table id -> { ti, kind, seat, reveals, ... }
	}

	async connect(url, hello) {
		this.p = wrap(await connect(url));
		this.p.c.ws.on('message', (d) => this.onMessage(JSON.parse(d.toString())));
		const w = await this.p.hello(hello);
		if (w.token) this.token = w.token;
		return w;
	}

	table(tid) {
		return this.tables.get(tid);
	}

	onMessage(m) {
		const t = typeof m.table === 'number' && this.tables.get(m.table);
		if (!t) return;
		if (typeof m.seq === 'number' && m.seq > t.lastSeq) t.lastSeq = m.seq;
		if (m.type === 'table') {
			if (m.game && m.game.options && m.state === 'playing')
				this.choose(t, m.game.decision, m.you, m.game.options);
			if (m.state === 'finished' && m.result && !t.result) {
				t.result = JSON.stringify({ d: m.game.decision, r: m.result });
				t.done();
			}
		} else if (m.type === 'start') {
			t.startView = JSON.stringify(m.view);
		} else if (m.type === 'options' && m.options) {
			this.choose(t, m.decision, m.seat, m.options);
		} else if (m.type === 'reveal') {
			t.reveals.set(m.decision, revealKey(m));
			t.views.set(m.decision, JSON.stringify(m.view));
			t.lastReveal = Math.max(t.lastReveal, m.decision);
			this.world.reveals++;
			this.world.onReveal();
		} else if (m.type === 'result') {
			t.result = JSON.stringify({ d: m.decisions, r: m.result });
			t.done();
			this.world.onResult(this);
		}
	}

	choose(t, decision, seat, options) {
		const key = `${this.world.epoch}:${decision}`;
		if (t.chosen.has(key)) return;
		t.chosen.add(key);
		const choice = pick(t.kind, t.ti, decision, seat, options);
		this.p.req('choose', { table: t.id, decision, choice }, 20000).then((r) => {
			// A stale decision after a resume is harmless; anything else is not.
			if (r.type === 'error' && r.code !== 'wrong_phase' && r.code !== 'not_pending')
				this.world.errors.push(`${this.name} t${t.id} d${decision}: ${r.code} ${r.message}`);
		}, () => {}); // the server was killed: the decision is posted again
	}

	track(tid, ti, kind, seat) {
		const t = { id: tid, ti, kind, seat, reveals: new Map(), views: new Map(),
			lastReveal: 0, lastSeq: 0, chosen: new Set(), result: null };
		t.finished = new Promise((res) => (t.done = res));
		this.tables.set(tid, t);
		return t;
	}
}

/* A slower Maw: deepfall games as long as the gems ones. */
const SLOW_MAW = { maw_base: 0.1, maw_accel: 0.01 };

/* The tables of both runs: kind, seats, seed, who sits where (bot index;
 * 0 is the admin, the host of every table). */
const TABLES = [
	{ kind: 'gems', seed: 1101, seats: [0, 1, 2] },
	{ kind: 'deepfall', seed: 2202, seats: [0, 3], config: SLOW_MAW },
	{ kind: 'gems', seed: 3303, seats: [0, 4, 5, 6, 1] },
	{ kind: 'deepfall', seed: 4404, seats: [0, 2, 7, 8], config: SLOW_MAW },
	{ kind: 'gems', seed: 5505, seats: [0, 8] },
];
const NBOTS = 9;

/* Sets up the tables on a fresh server and starts them; returns the world. */
async function setUp(srv, tables = TABLES) {
	const world = { reveals: 0, epoch: 0, errors: [], onReveal: () => {},
		onResult: () => {} };
	const token = await adminToken(srv);
	const bots = [];
	for (let i = 0; i < NBOTS; i++) {
		const b = new Bot(i === 0 ? 'admin' : `p${i}`, world);
		await b.connect(srv.url, i === 0 ? { token } : { name: b.name });
		if (i === 0) b.token = token;
		bots.push(b);
	}
	const tids = [];
	for (let ti = 0; ti < tables.length; ti++) {
		const d = tables[ti];
		const snap = await bots[0].p.ok('table_create', { kind: d.kind,
			seats: d.seats.length + (d.ai || 0), ai: d.ai || 0, seed: d.seed, name: `t${ti}`,
			config: d.config });
		assert.strictEqual(snap.you, 0);
		bots[0].track(snap.table, ti, d.kind, 0);
		for (let s = 1; s < d.seats.length; s++) {
			const b = bots[d.seats[s]];
			const j = await b.p.ok('table_join', { table: snap.table, seat: s });
			assert.strictEqual(j.you, s);
			b.track(snap.table, ti, d.kind, s);
		}
		tids.push(snap.table);
	}
	// One start at a time, each waited for: a game starts from the kind's
	// shared state with the games whose start is durable folded in, so both
	// runs must start their games in the same order.
	for (const tid of tids) {
		await bots[0].p.ok('table_start', { table: tid });
		await bots[0].p.c.waitFor((m) => m.table === tid && m.type === 'start', 10000,
			`the start of table ${tid}`);
	}
	return { world, bots, tids };
}

/* Everything the server will tell about what has been played. */
async function ledger(p) {
	const out = {};
	for (const kind of ['gems', 'deepfall']) {
		out[`server_stats/${kind}`] = strip(await p.ok('server_stats', { kind }));
		out[`records/${kind}`] = strip(await p.ok('records', { kind }));
		for (let i = 0; i < NBOTS; i++) {
			const player = i === 0 ? 'admin' : `p${i}`;
			out[`stats/${kind}/${player}`] = strip(await p.ok('stats', { kind, player }));
			out[`achievements/${kind}/${player}`] =
				strip(await p.ok('achievements', { kind, player }));
		}
	}
	return out;
}

function strip(m) {
	const { id, ...rest } = m; // eslint-disable-line no-unused-vars
	return rest;
}

const allFinished = (bots, ms, what) => {
	const ps = [];
	for (const b of bots) for (const t of b.tables.values()) ps.push(t.finished);
	let timer;
	return Promise.race([Promise.all(ps), new Promise((_, rej) => {
		timer = setTimeout(() => rej(new Error(`timeout: ${what}`)), ms);
	})]).finally(() => clearTimeout(timer));
};

let control; // the crash-free run: bots (with their reveals) and ledger

test('control run: the tables play to their results without a crash', async (t) => {
	const srv = await startLaird({ args: ARGS });
	try {
		const { world, bots } = await setUp(srv);
		await allFinished(bots, 60000, 'the control games');
		assert.deepStrictEqual(world.errors, []);
		control = { bots, reveals: world.reveals, ledger: await ledger(bots[0].p) };
		t.diagnostic('decisions per table: ' + [...bots[0].tables.values()]
			.map((x) => `t${x.ti} ${x.kind} ${x.reveals.size}`).join(', '));
		for (const b of bots) b.p.c.close();
		assert.ok(world.reveals > 50, `only ${world.reveals} reveals`);
	} finally {
		await srv.stop();
	}
});

test('kill -9 mid-game four times: tables, seats, hidden state and ledger survive',
	async (t) => {
		if (!control) return t.skip('the control run failed');
		const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-recovery-'));
		let srv = await startLaird({ args: ARGS, dbDir });
		try {
			const { world, bots, tids } = await setUp(srv);
			// RECOVERY_SEED=n explores other kill points (the default is fixed).
			const seed = Number(process.env.RECOVERY_SEED || 20261129);
			const r = rng(seed);
			// Kill points: sorted fractions of the admin's reveals in the control run.
			const adminReveals = [...control.bots[0].tables.values()]
				.reduce((n, x) => n + x.reveals.size, 0);
			// One in each fifth of the run's first two thirds, so that the
			// (shorter) deepfall games are still in play at the first two.
			const kills = (process.env.RECOVERY_LATE ? [0.6, 0.75, 0.9] : [0.05, 0.25, 0.45])
				.map((lo) => Math.floor((lo + (process.env.RECOVERY_LATE ? 0.15 : 0.2) * r()) *
					adminReveals)).map((x) => Math.min(x, adminReveals - 8));
			// And once the instant the admin gets the first result: the record
			// of that game may not be committed yet.
			kills.push('result');
			const admRevealCount = () => [...bots[0].tables.values()]
				.reduce((n, x) => n + x.reveals.size, 0);
			for (let k = 0; k < kills.length; k++) {
				// Run until the admin has seen kills[k] reveals, then kill -9.
				await new Promise((resolve, reject) => {
					const timer = setTimeout(() => reject(new Error(
						`kill point ${kills[k]} not reached: ${admRevealCount()}`)), 60000);
					if (kills[k] === 'result') {
						world.onResult = (b) => {
							if (b !== bots[0]) return;
							clearTimeout(timer);
							world.onResult = () => {};
							resolve();
						};
						return;
					}
					world.onReveal = () => {
						if (admRevealCount() >= kills[k]) {
							clearTimeout(timer);
							world.onReveal = () => {};
							resolve();
						}
					};
					world.onReveal();
				});
				const killed = await srv.stop({ signal: 'SIGKILL' });
				assert.strictEqual(killed.signal, 'SIGKILL');
				const before = new Map(); // bot -> tid -> {lastReveal, seat, finished}
				for (const b of bots) {
					await b.p.c.waitClose(5000).catch(() => {});
					before.set(b, new Map([...b.tables].map(([tid, x]) =>
						[tid, { lastReveal: x.lastReveal, finished: !!x.result }])));
				}
				// Only now: an update the killed server sent is read as the old
				// epoch's, never as an answer owed after the restart.
				world.epoch++;
				srv = await startLaird({ args: ARGS, dbDir });
				const restored = [];
				const gone = [];
				// Every player comes back with its token.
				for (const b of bots) {
					const resume = {};
					for (const x of b.tables.values()) resume[x.id] = x.lastSeq;
					const w = await b.connect(srv.url, { token: b.token, resume });
					for (const x of b.tables.values()) {
						if (before.get(b).get(x.id).finished) continue;
						const e = w.tables.find((y) => y.table === x.id);
						if (!e) {
							// Only a game that ended before the kill is not back:
							// its record was committed before its result went
							// out (table.md §7), and the result died with the
							// server's send queue (another player may have had
							// it: the kill at the first result). The table is
							// then gone for everyone; the ledger at the end says
							// the game was recorded, once.
							const r = await b.p.req('table_spectate', { table: x.id });
							assert.strictEqual(r.code, 'not_found', `${b.name}: welcome after ` +
								`crash ${k + 1} lacks table ${x.id}, still there: ` +
								`${JSON.stringify(w.tables)}`);
							before.get(b).get(x.id).finished = true;
							x.result = 'ended unseen';
							x.done();
							gone.push(`${b.name} t${x.ti}`);
							continue;
						}
						assert.strictEqual(e.seat, x.seat, `${b.name}: seat at table ${x.id}`);
					}
				}
				// Each table in play is back after the last decision this player
				// saw revealed — at the next one, or later when the server had
				// revealed more that never reached this player before the kill
				// — with the control run's view there. Those later ones asked
				// its seat only at the first (its options came with the last
				// reveal it saw, so it may have answered): a decision that asks
				// a seat waits for it (the deadline is far), and the player saw
				// no options after that.
				for (const b of bots) {
					const cb = control.bots[bots.indexOf(b)];
					for (const x of b.tables.values()) {
						const was = before.get(b).get(x.id);
						if (was.finished) continue;
						const snap = await b.p.c.waitFor((m) => m.type === 'table' &&
							m.table === x.id, 15000, `${b.name}'s snapshot of ${x.id}`);
						assert.strictEqual(snap.you, x.seat);
						if (snap.state !== 'playing') continue; // ended at the last decision
						const d = snap.game.decision;
						assert.ok(d >= was.lastReveal + 1,
							`${b.name} t${x.id}: restored at decision ${d}, last reveal ` +
							`${was.lastReveal}`);
						const ct = [...cb.tables.values()].find((y) => y.ti === x.ti);
						for (let k = was.lastReveal + 2; k < d; k++) {
							const asked = JSON.parse(ct.reveals.get(k)).c.map((c) => c.seat);
							assert.ok(!asked.includes(x.seat), `${b.name} t${x.id}: restored ` +
								`at decision ${d}, last reveal ${was.lastReveal}, but decision ` +
								`${k} asked its seat (${JSON.stringify(asked)})`);
						}
						// The view after decision d - 1; in phase `between` decision
						// d is revealed already and the view is after it (table.md
						// §5.8): a table that played on before this bot's snapshot.
						const after = snap.game.phase === 'between' ? d : d - 1;
						const want = after === 0 ? ct.startView : ct.views.get(after);
						restored.push(`t${x.ti}@${d}`);
						assert.strictEqual(JSON.stringify(snap.game.view), want,
							`${b.name} t${x.id}: the view at decision ${d} differs from ` +
							`the control run's`);
					}
				}
				t.diagnostic(`seed ${seed}: kill ${k + 1} after ${kills[k]} admin reveals: restored ` +
					restored.join(' ') + (gone.length ? `; ended, result unseen: ${gone.join(' ')}`
						: ''));
			}
			await allFinished(bots, 90000, 'the games after the crashes');
			assert.deepStrictEqual(world.errors, []);
			// Every reveal seen in both runs and every result are the same.
			for (let i = 0; i < bots.length; i++) {
				for (const x of bots[i].tables.values()) {
					const ct = [...control.bots[i].tables.values()].find((y) => y.ti === x.ti);
					for (const [d, key] of x.reveals) {
						assert.strictEqual(key, ct.reveals.get(d),
							`${bots[i].name} t${x.ti} decision ${d} differs from control`);
					}
					if (x.result !== 'ended unseen')
						assert.strictEqual(x.result, ct.result, `${bots[i].name} t${x.ti} result`);
				}
			}
			assert.ok(tids.length === TABLES.length);
			const got = await ledger(bots[0].p);
			for (const key of Object.keys(control.ledger))
				assert.deepStrictEqual(got[key], control.ledger[key], `${key} after the crashes`);
			for (const b of bots) b.p.c.close();
		} finally {
			await srv.stop().catch(() => {});
			fs.rmSync(dbDir, { recursive: true, force: true });
		}
	});

test('kill -9 at a table with AI seats: restored decision and view, the game ends and counts',
	async () => {
		const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-recovery-'));
		let srv = await startLaird({ args: ARGS, dbDir });
		try {
			const tables = [
				{ kind: 'gems', seed: 777, seats: [0], ai: 3 },
				{ kind: 'deepfall', seed: 888, seats: [0], ai: 2, config: SLOW_MAW },
			];
			const { world, bots } = await setUp(srv, tables);
			const adm = bots[0];
			const r = rng(4242);
			const killAt = 6 + Math.floor(r() * 10);
			await new Promise((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error('kill point not reached')),
					30000);
				world.onReveal = () => {
					if ([...adm.tables.values()].every((x) => x.lastReveal >= killAt)) {
						clearTimeout(timer);
						world.onReveal = () => {};
						resolve();
					}
				};
			});
			await srv.stop({ signal: 'SIGKILL' });
			await adm.p.c.waitClose(5000).catch(() => {});
			world.epoch++; // after the close (see above)
			const was = new Map([...adm.tables].map(([tid, x]) => [tid, { last: x.lastReveal,
				view: x.views.get(x.lastReveal) }]));
			srv = await startLaird({ args: ARGS, dbDir });
			const resume = {};
			for (const x of adm.tables.values()) resume[x.id] = x.lastSeq;
			const w = await adm.connect(srv.url, { token: adm.token, resume });
			for (const x of adm.tables.values()) {
				const e = w.tables.find((y) => y.table === x.id);
				assert.ok(e, `welcome lacks table ${x.id}: ${JSON.stringify(w.tables)}`);
				assert.strictEqual(e.seat, 0);
				const snap = await adm.p.c.waitFor((m) => m.type === 'table' && m.table === x.id,
					15000, `the snapshot of ${x.id}`);
				assert.strictEqual(snap.you, 0);
				assert.deepStrictEqual(snap.seats.map((st) => st.kind),
					['human', ...Array(snap.seats.length - 1).fill('ai')]);
				const b = was.get(x.id);
				const d = snap.game.decision;
				// Decisions with only AI seats pending run without waiting: gems
				// may have one more stored than revealed to us, deepfall the AI
				// press steps after our act (max_press of them) too.
				const slack = x.kind === 'deepfall' ? 5 : 2;
				assert.ok(d >= b.last + 1 && d <= b.last + slack,
					`restored at ${d}, last reveal ${b.last}`);
				if (d === b.last + 1)
					assert.strictEqual(JSON.stringify(snap.game.view), b.view);
			}
			await allFinished([adm], 60000, 'the games after the crash');
			assert.deepStrictEqual(world.errors, []);
			for (const kind of ['gems', 'deepfall']) {
				const ss = await adm.p.ok('server_stats', { kind });
				assert.strictEqual(ss.games, 1, `${kind}: server games`);
				const st = await adm.p.ok('stats', { kind });
				assert.strictEqual(st.games, 1, `${kind}: the admin's games`);
			}
			adm.p.c.close();
			for (const b of bots.slice(1)) b.p.c.close();
		} finally {
			await srv.stop().catch(() => {});
			fs.rmSync(dbDir, { recursive: true, force: true });
		}
	});

/* The AI after a restore: table_replay applies the logged choice
 * sets without asking the AI, so the AI's randomness must not be a running
 * stream. Both kinds derive each AI decision's draws from (seed, decision,
 * seat) (gems_ai.c, df_ai.c), so after kill -9 the AI seats choose exactly
 * as in a crash-free run: every later reveal and the result are equal. */
test('AI seats play on after a restore exactly as in a crash-free run', async () => {
	const tables = [{ kind: 'gems', seed: 777, seats: [0], ai: 3 },
		{ kind: 'deepfall', seed: 888, seats: [0], ai: 2, config: SLOW_MAW }];
	const play = async (killAt) => {
		const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-recovery-'));
		let srv = await startLaird({ args: ARGS, dbDir });
		try {
			const { world, bots } = await setUp(srv, tables);
			const adm = bots[0];
			if (killAt) {
				await new Promise((resolve) => {
					world.onReveal = () => {
						if ([...adm.tables.values()].every((x) => x.lastReveal >= killAt))
							resolve();
					};
				});
				world.onReveal = () => {};
				await srv.stop({ signal: 'SIGKILL' });
				await adm.p.c.waitClose(5000).catch(() => {});
				world.epoch++; // after the close (see above)
				srv = await startLaird({ args: ARGS, dbDir });
				const resume = {};
				for (const x of adm.tables.values()) resume[x.id] = x.lastSeq;
				await adm.connect(srv.url, { token: adm.token, resume });
			}
			await allFinished([adm], 60000, 'the games');
			for (const b of bots) b.p.c.close();
			return [...adm.tables.values()];
		} finally {
			await srv.stop().catch(() => {});
			fs.rmSync(dbDir, { recursive: true, force: true });
		}
	};
	const a = await play(0);
	const b = await play(6);
	for (let i = 0; i < a.length; i++) {
		for (const [d, key] of b[i].reveals)
			assert.strictEqual(key, a[i].reveals.get(d), `${a[i].kind}: decision ${d}`);
		assert.strictEqual(b[i].result, a[i].result, `${a[i].kind}: result`);
	}
});
