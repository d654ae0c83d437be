#!/usr/bin/env node
'use strict';
/*
 * load.js — laird's loopback load benchmark with node bots, run by tests/bench/load
 * (LOAD_NODE=1 make bench): the protocol's second opinion beside the C load
 * generator (tests/bench/loadgen/).
 *
 * Starts one laird (temporary database, free port, limits raised for the
 * load), forks W worker processes (node, `ws`) that open `tables` × 5 bot
 * connections, five to a table: each bot says hello, the first of a table
 * creates a 5-seat gems table, the others join, the host starts it; every
 * bot answers its options after a short think time and the table plays
 * whole games, rematching after each result, until the end of the run.
 *
 * Figures, printed at the end:
 *  - concurrent connections held (laird's lair_connections, and the bots');
 *  - decisions resolved per second (laird's lair_decisions_resolved_total
 *    over the measured interval) and games finished;
 *  - the p50/p99/max time from the window closing to every seat of the table
 *    having received the reveal. laird stamps each reveal with t_close_us,
 *    its CLOCK_MONOTONIC time when the window closed (PROTOCOL.md §7); node's
 *    process.hrtime reads the same clock, so a worker measures each seat's
 *    delivery exactly, and the figure per decision is the slowest of its
 *    five seats (all five live in one worker);
 *  - laird's RSS (VmRSS, the peak sampled while measuring, and VmHWM).
 *
 * Bounded: ramp-up at most --ramp-sec, then --measure-sec of measurement,
 * then everything is stopped (about two minutes by default). Loopback only.
 *
 *   node tests/bench/load.js --laird build-bench/laird [--tables 2000]
 *        [--workers 4] [--measure-sec 45] [--ramp-sec 40] [--think-ms 1000-3000]
 *        [--window-ms 1000] [--leave 0.35]
 *
 * The bots think 1-3 s before each choice (a quick human) and leave the
 * dungeon with probability 0.35 at each decision, so games take about a
 * minute and finish within the run; the window is laird's real 1 s.
 */
const { fork } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const SEATS = 5;

function parseArgs(argv) {
	const o = { laird: 'build-bench/laird', tables: 2000, workers: 4, measureSec: 45,
		rampSec: 40, thinkMin: 1000, thinkMax: 3000, windowMs: 1000, leaveP: 0.35 };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const v = () => argv[++i];
		if (a === '--laird') o.laird = v();
		else if (a === '--tables') o.tables = Number(v());
		else if (a === '--workers') o.workers = Number(v());
		else if (a === '--measure-sec') o.measureSec = Number(v());
		else if (a === '--ramp-sec') o.rampSec = Number(v());
		else if (a === '--window-ms') o.windowMs = Number(v());
		else if (a === '--leave') o.leaveP = Number(v());
		else if (a === '--think-ms') {
			const [lo, hi] = v().split('-').map(Number);
			o.thinkMin = lo;
			o.thinkMax = hi || lo;
		} else if (a === 'worker') o.worker = true;
		else throw new Error(`unknown argument ${a}`);
	}
	return o;
}

/* ------------------------------------------------------------------ worker */

function runWorker() {
	const WebSocket = require('ws');
	let cfg = null;
	const stats = { open: 0, welcomed: 0, tablesStarted: 0, games: 0, errors: 0, lat: [],
		closedEarly: 0, errorCodes: {} };
	const tables = [];
	let stopping = false;

	const hr = () => Number(process.hrtime.bigint() / 1000n); // µs, CLOCK_MONOTONIC

	// Cheap classification: the type is the first field (reveals start with
	// the stamp). Only what the bot needs is parsed.
	const typeOf = (s) => {
		const m = /"type":"([a-z_]+)"/.exec(s.slice(0, 64));
		return m ? m[1] : null;
	};

	function makeTable(ti) {
		const T = { ti, id: null, bots: [], joined: 0, pending: new Map(), started: false };
		tables.push(T);
		for (let seat = 0; seat < SEATS; seat++) T.bots.push(makeBot(T, seat));
		return T;
	}

	function noteReveal(T, text) {
		// The stamp is the reveal's last field; the decision comes early.
		const now = hr();
		const st = /"t_close_us":(\d+)/.exec(text.slice(-64));
		const dm = /"decision":(\d+)/.exec(text.slice(0, 120));
		if (!st || !dm) return;
		const lat = now - Number(st[1]);
		const d = Number(dm[1]);
		let e = T.pending.get(d);
		if (!e) T.pending.set(d, (e = { n: 0, max: 0 }));
		e.n++;
		if (lat > e.max) e.max = lat;
		if (e.n === SEATS) {
			stats.lat.push(e.max);
			T.pending.delete(d);
		}
		if (T.pending.size > 50) T.pending.clear(); // a seat lost: forget old ones
	}

	function makeBot(T, seat) {
		const bot = { seat, ws: null, id: 1 };
		const send = (o) => {
			if (bot.ws && bot.ws.readyState === WebSocket.OPEN) bot.ws.send(JSON.stringify(o));
		};
		bot.start = () => {
			const ws = new WebSocket(cfg.url, { perMessageDeflate: false });
			bot.ws = ws;
			ws.on('open', () => {
				stats.open++;
				// view_patch: reveals carry the changes to the view (the bots read none);
				// lean as our clients; timing: reveals keep t_close_us, which we measure by
				send({ type: 'hello', id: 'h', protocol: 1, caps: ['view_patch', 'lean', 'timing'],
					name: `b${cfg.w}x${T.ti}x${seat}` });
			});
			ws.on('message', (data) => {
				const s = data.toString();
				const type = typeOf(s);
				if (type === 'reveal') return noteReveal(T, s);
				if (type === 'status' || type === 'window' || type === 'seats' ||
				    type === 'start' || type === 'ok' || type === 'events') return;
				const m = JSON.parse(s);
				switch (type) {
				case 'welcome':
					stats.welcomed++;
					if (seat === 0)
						send({ type: 'table_create', id: 'c', kind: 'gems', seats: SEATS });
					else if (T.id)
						send({ type: 'table_join', id: 'j', table: T.id, seat });
					break;
				case 'table':
					if (m.id === 'c') {
						T.id = m.table;
						for (const b of T.bots.slice(1))
							if (b.welcomed) b.join();
					} else if (m.id === 'j') {
						if (++T.joined === SEATS - 1) T.bots[0].startGame();
					}
					break;
				case 'options':
					if (m.seat === seat && Array.isArray(m.options)) {
						const ids = m.options.map((o) => o.id);
						// Leave fairly often (dungeons, and so games, stay short
						// enough to finish within the run); else any other option.
						const rest = ids.filter((x) => x !== 'leave');
						const pick = ids.includes('leave') && (Math.random() < cfg.leaveP ||
							!rest.length) ? 'leave'
							: rest[Math.floor(Math.random() * rest.length)];
						const think = cfg.thinkMin +
							Math.random() * (cfg.thinkMax - cfg.thinkMin);
						setTimeout(() => send({ type: 'choose', table: T.id,
							decision: m.decision, choice: pick }), think);
					}
					break;
				case 'result':
					if (seat === 0) {
						stats.games++;
						if (!stopping) {
							send({ type: 'rematch', id: 'r', table: T.id });
							T.bots[0].startGame();
						}
					}
					break;
				case 'error':
					stats.errors++;
					stats.errorCodes[m.code] = (stats.errorCodes[m.code] || 0) + 1;
					break;
				default:
					break;
				}
				if (type === 'welcome') bot.welcomed = true;
			});
			ws.on('close', () => {
				stats.open--;
				if (!stopping) stats.closedEarly++;
			});
			ws.on('error', () => stats.errors++);
		};
		bot.join = () => send({ type: 'table_join', id: 'j', table: T.id, seat });
		bot.startGame = () => {
			send({ type: 'table_start', id: 's', table: T.id });
			if (!T.started) {
				T.started = true;
				stats.tablesStarted++;
			}
		};
		return bot;
	}

	// The bots' own delays count in the figure (a reveal is stamped when
	// the worker's loop reads it): its loop delay and GC pauses are sent
	// each second so the parent can tell them apart from laird's.
	const { monitorEventLoopDelay, PerformanceObserver } = require('node:perf_hooks');
	const eld = monitorEventLoopDelay({ resolution: 5 });
	eld.enable();
	let gcMax = 0;
	new PerformanceObserver((l) => {
		for (const e of l.getEntries()) if (e.duration > gcMax) gcMax = e.duration;
	}).observe({ entryTypes: ['gc'] });

	process.on('message', (msg) => {
		if (msg.cmd === 'start') {
			cfg = msg.cfg;
			// Ramp: open the tables' connections evenly over rampOpenMs.
			const n = cfg.tables;
			const batch = Math.max(1, Math.ceil((n * 10) / cfg.rampOpenMs));
			let i = 0;
			const tick = setInterval(() => {
				for (let k = 0; k < batch && i < n; k++, i++) {
					const T = makeTable(cfg.firstTable + i);
					for (const b of T.bots) b.start();
				}
				if (i >= n) clearInterval(tick);
			}, 10);
			setInterval(() => {
				process.send({ stats: { ...stats, lat: stats.lat,
					loopMaxMs: eld.max / 1e6, gcMaxMs: gcMax } });
				stats.lat = [];
				eld.reset();
				gcMax = 0;
			}, 1000);
		} else if (msg.cmd === 'stop') {
			stopping = true;
			for (const T of tables) for (const b of T.bots) if (b.ws) b.ws.terminate();
			setTimeout(() => process.exit(0), 200);
		}
	});
}

/* ------------------------------------------------------------------ parent */

function metric(text, name) {
	const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
	return m ? Number(m[1]) : NaN;
}

function rss(pid) {
	try {
		const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const kb = (k) => Number((new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s) || [])[1]);
		return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
	} catch {
		return { rss: NaN, hwm: NaN };
	}
}

function pct(sorted, p) {
	if (!sorted.length) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function runParent(o) {
	process.env.LAIRD = path.resolve(o.laird);
	const { startLaird } = require(path.join(__dirname, '..', 'e2e', 'lib', 'laird.js'));
	const conns = o.tables * SEATS;
	const t0 = Date.now();
	const srv = await startLaird({
		args: ['--max-connections', String(conns + 500), '--max-conns-per-ip', '0',
			'--new-players-per-ip-hour', '0', '--new-tables-per-ip-min', '0',
			'--new-players-per-ip-hour', '0', '--new-tables-per-ip-min', '0',
			'--max-tables-per-lobby', String(o.tables + 100), '--window-ms', String(o.windowMs),
			'--reveal-pause-ms', '0', '--idle-timeout-sec', '0', '--hello-timeout-sec', '120',
			'--turn-timeout-ms', '30000', '--log-level', 'warn'],
		timeoutMs: 20000,
	});
	const pid = srv.proc.pid;
	console.log(`load: laird pid ${pid} on port ${srv.port}; ${o.workers} workers, ` +
		`${o.tables} tables x ${SEATS} bots = ${conns} connections, window ${o.windowMs} ms, ` +
		`think ${o.thinkMin}-${o.thinkMax} ms, leave p=${o.leaveP}`);
	const workers = [];
	const wstats = [];
	let lat = [];
	let measuring = false;
	let botLoopMax = 0, botGcMax = 0; // over the measured interval
	const per = Math.ceil(o.tables / o.workers);
	for (let w = 0; w < o.workers; w++) {
		const n = Math.min(per, o.tables - w * per);
		if (n <= 0) break;
		const child = fork(__filename, ['worker'], { env: process.env });
		child.on('message', (m) => {
			if (!m.stats) return;
			wstats[w] = m.stats;
			if (measuring) {
				for (const x of m.stats.lat) lat.push(x);
				botLoopMax = Math.max(botLoopMax, m.stats.loopMaxMs || 0);
				botGcMax = Math.max(botGcMax, m.stats.gcMaxMs || 0);
			}
		});
		child.send({ cmd: 'start', cfg: { url: srv.url, w, tables: n, firstTable: w * per,
			rampOpenMs: Math.max(1000, (o.rampSec * 1000) / 3),
			thinkMin: o.thinkMin, thinkMax: o.thinkMax, leaveP: o.leaveP } });
		workers.push(child);
	}
	const sum = (k) => wstats.reduce((a, s) => a + (s ? s[k] : 0), 0);
	const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

	// Ramp: until every table has started, or the ramp bound passes.
	const rampEnd = Date.now() + o.rampSec * 1000;
	while (Date.now() < rampEnd && sum('tablesStarted') < o.tables) await sleep(500);
	const ramp = (Date.now() - t0) / 1000;
	console.log(`load: ramp ${ramp.toFixed(1)} s: ${sum('open')} open, ${sum('welcomed')} ` +
		`welcomed, ${sum('tablesStarted')} tables started`);
	await sleep(2000); // the first decisions settle

	let m0 = (await srv.get('/metrics')).body;
	const d0 = metric(m0, 'lair_decisions_resolved_total');
	const g0 = sum('games');
	measuring = true;
	lat = [];
	const tm0 = Date.now();
	let peak = 0;
	let minConns = Infinity;
	let maxConns = 0;
	while (Date.now() - tm0 < o.measureSec * 1000) {
		await sleep(1000);
		const r = rss(pid);
		if (r.rss > peak) peak = r.rss;
		const c = metric((await srv.get('/metrics')).body, 'lair_connections');
		minConns = Math.min(minConns, c);
		maxConns = Math.max(maxConns, c);
	}
	measuring = false;
	const secs = (Date.now() - tm0) / 1000;
	const m1 = (await srv.get('/metrics')).body;
	const d1 = metric(m1, 'lair_decisions_resolved_total');
	const games = sum('games') - g0;
	const r = rss(pid);
	lat.sort((a, b) => a - b);
	const ms = (us) => (us / 1000).toFixed(2);
	const errs = {};
	for (const s of wstats) if (s) for (const [k, v] of Object.entries(s.errorCodes))
		errs[k] = (errs[k] || 0) + v;

	console.log('load: results over the measured interval of ' + secs.toFixed(1) + ' s');
	console.log(`  concurrent connections held: ${minConns} min / ${maxConns} max ` +
		`(target ${conns}); bots dropped early: ${sum('closedEarly')}`);
	console.log(`  decisions resolved per second: ${((d1 - d0) / secs).toFixed(1)} ` +
		`(${d1 - d0} decisions); games finished: ${games}`);
	console.log(`  window close -> every seat has the reveal: p50 ${ms(pct(lat, 0.5))} ms, ` +
		`p99 ${ms(pct(lat, 0.99))} ms, max ${ms(lat[lat.length - 1] || NaN)} ms ` +
		`(${lat.length} decisions)`);
	console.log(`  laird RSS: ${(peak / 1024).toFixed(1)} MB peak sampled, ` +
		`${(r.hwm / 1024).toFixed(1)} MB high-water mark`);
	const dn = metric(m1, 'lair_decision_reveal_seconds_count') -
		metric(m0, 'lair_decision_reveal_seconds_count');
	const ds = metric(m1, 'lair_decision_reveal_seconds_sum') -
		metric(m0, 'lair_decision_reveal_seconds_sum');
	const slow = metric(m1, 'lair_decision_durable_slow_total') -
		metric(m0, 'lair_decision_durable_slow_total');
	console.log(`  of which window close -> reveal sent by laird (the store logged the ` +
		`decision first): mean ${(ds / dn * 1000).toFixed(2)} ms, max to logged ${(metric(m1,
			'lair_decision_durable_max_seconds') * 1000).toFixed(1)} ms (since start, ` +
		`ramp included), ` +
		`${(100 * slow / dn).toFixed(2)}% >= 20 ms (server side)`);
	console.log(`  event loop lag max: ${metric(m1, 'lair_event_loop_lag_max_seconds') * 1000} ms; ` +
		`errors: ${JSON.stringify(errs)}`);
	console.log(`  the bots' side (counted in the figure): worker event loop delay max ` +
		`${botLoopMax.toFixed(1)} ms, GC pause max ${botGcMax.toFixed(1)} ms`);
	const ok = maxConns >= conns && pct(lat, 0.99) < 20000 && peak / 1024 < 150;
	console.log(`load: targets (${conns} connections, p99 < 20 ms, RSS < 150 MB): ` +
		(ok ? 'met' : 'NOT met'));

	for (const c of workers) c.send({ cmd: 'stop' });
	await sleep(500);
	const st = await srv.stop({ timeoutMs: 30000 });
	if (st.code !== 0) console.log(`load: laird exited with ${st.code} ${st.signal || ''}`);
	for (const c of workers) c.kill('SIGKILL');
	return ok ? 0 : 1;
}

const opts = parseArgs(process.argv.slice(2));
if (opts.worker) {
	runWorker();
} else {
	// A hard bound on the whole run, whatever happens.
	const hard = setTimeout(() => {
		console.error('load: hard time limit reached');
		process.exit(2);
	}, (opts.rampSec + opts.measureSec + 60) * 1000);
	hard.unref();
	runParent(opts).then((code) => process.exit(code), (e) => {
		console.error(`load: ${e.stack || e}`);
		process.exit(2);
	});
}
