'use strict';
/*
 * client_play.test.js — `lair play` and `lair watch` against a real laird,
 * driven through an 80×24 terminal (tmux): keys in, screen text out.
 *   - a whole game from the lobby to the result screen, checked against
 *     what the server recorded;
 *   - a dropped connection mid-game resumes the seat by itself;
 *   - watching an all-AI table to its end.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird } = require('./lib/laird');
const { player, resume, adminToken } = require('./lib/app');
const { startLair, tcpProxy } = require('./lib/tmux');

const FAST = ['--window-ms', '100', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0'];

function tmpCfg() {
	return fs.mkdtempSync(path.join(os.tmpdir(), 'lair-cfg-'));
}

/* A test's end, pass or fail: lair killed, then the proxy, laird and
 * lair's config directory. */
async function tidy({ t, proxy, srv, cfg }) {
	if (t) await t.kill();
	if (proxy) await proxy.close();
	await srv.stop();
	fs.rmSync(cfg, { recursive: true, force: true });
}

/* From the lobby (once `lobby` is on screen): a table of the default
 * settings, created and started (C, then G); returns the first options. */
async function newGame(t, lobby = /No tables yet/) {
	await t.waitScreen(lobby, 8000);
	await t.keys('C');
	await t.waitScreen(/create a table/);
	await t.keys('G');
	return t.waitScreen(/Choose: \d+s left/, 8000);
}

/* The host starts its table and walks away: its seat goes to the AI. */
async function startAndLeave(host, table) {
	assert.strictEqual((await host.req('table_start', { table })).type, 'ok');
	assert.strictEqual((await host.req('table_leave', { table })).type, 'ok');
}

/* The key of the first option on screen that is not Leave. */
function stayKey(screen) {
	const options = screen.split('\n').slice(21, 23).join('\n'); // rows 21-22
	const m = options.match(/\[([A-Z0-9])\] (?!Leave)/);
	assert.ok(m, `no option to stay on:\n${screen}`);
	return m[1];
}

/* Our choice is drawn at once ("Chosen; change with a key."), then the
 * reveal clears it and the next options may follow within milliseconds:
 * so what lair drew after the key says the choice registered, not a poll
 * of the screen (which may show the next options already). A lair started
 * with record: true. */
const CHOSEN = /Chosen; change with a key\./;

/* Leaves at every decision until the result screen; returns it. */
async function leaveUntilGameOver(t, ms) {
	const deadline = Date.now() + ms;
	let decisions = 0;
	for (;;) {
		const left = deadline - Date.now();
		assert.ok(left > 0, `no result within ${ms} ms`);
		const s = await t.waitScreen((x) => /GAME OVER/.test(x) || /Choose: \d+s left/.test(x),
			left, 'options or the result');
		if (/GAME OVER/.test(s)) return { screen: s, decisions };
		await t.press('L', CHOSEN, 10000);
		decisions++;
	}
}

test('lair play: a whole game from the lobby to the result, as the server recorded it',
	{ timeout: 120000 }, async () => {
		const srv = await startLaird({ args: FAST });
		const cfg = tmpCfg();
		const t = await startLair(['play', '--server', srv.url, '--name', 'ann'],
			{ env: { XDG_CONFIG_HOME: cfg }, record: true });
		try {
			await t.waitScreen(/No tables yet: press C/, 8000);
			assert.match(t.screen(), /lobby 1 "main"/);
			// The table list is live: another player's new table appears.
			const other = await player(srv, 'lister');
			const ot = await other.req('table_create', { kind: 'gems', seats: 4, ai: 1,
				name: 'open table' });
			assert.strictEqual(ot.type, 'table');
			let lobby = await t.waitScreen(/lister/, 5000);
			assert.match(lobby,
				new RegExp(`>1 ${ot.table} +gems +waiting +2/4 +lister +open table`));
			assert.strictEqual((await other.req('table_close', { table: ot.table })).type,
				'ok');
			lobby = await t.waitScreen((x) => !/lister/.test(x), 5000, 'the table to go');
			assert.match(lobby, /No tables yet/);
			other.c.close();
			await t.keys('C');
			let s = await t.waitScreen(/create a table/);
			assert.match(s, /\[K\] kind +gems/);
			assert.match(s, /\[S\] seats +3/);
			assert.match(s, /\[A\] AI seats +2/);
			await t.keys('G'); // create and start
			s = await t.waitScreen(/Choose: \d+s left/, 8000);
			assert.match(s, /dungeon 1\/5/);
			assert.match(s, />1 ann +inside/);
			assert.match(s, /\[L\] Leave +\[/); // and the ways to stay in this room
			assert.match(s, /AI 2/);
			// each seat's status: we are looking at our options, the AIs chose
			s = await t.waitScreen(/>1 ann +inside .* selecting/, 5000);
			assert.match(s, / 2 AI 2 +inside .* chosen/);
			// the hand icon on request
			await t.keys('H');
			s = await t.waitScreen(/Hand: lair \d+%/);
			assert.match(s, /rumor [\d.]+ +EV [+-][\d.]+/);

			const { screen, decisions } = await leaveUntilGameOver(t, 90000);
			assert.ok(decisions >= 5, `left each of the 5 dungeons (${decisions} decisions)`);
			assert.match(screen, /winning score \$\d+/);
			assert.match(screen, /WINNER/);
			assert.match(screen, /dungeon 5: /);

			// The screen says what the server holds.
			const tokens = fs.readFileSync(path.join(cfg, 'lair', 'tokens'), 'utf8');
			assert.match(tokens, /^player ws:\/\/127\.0\.0\.1:\d+ [0-9a-f]{64}$/m);
			assert.strictEqual(fs.statSync(path.join(cfg, 'lair', 'tokens')).mode & 0o777, 0o600);
			assert.strictEqual(fs.statSync(path.join(cfg, 'lair')).mode & 0o777, 0o700);
			const checker = await player(srv, 'checker');
			const tables = await checker.req('table_list');
			const mine = tables.tables.find((x) => x.host === 'ann');
			assert.ok(mine, JSON.stringify(tables));
			const snap = await checker.req('table_spectate', { table: mine.id });
			assert.strictEqual(snap.state, 'finished');
			const ann = snap.result.seats.find((x) => x.seat === 0);
			const row = screen.split('\n').find((l) => /^>1 ann /.test(l));
			assert.ok(row, screen);
			assert.match(row, new RegExp(`\\$${ann.score}\\b`));
			assert.match(row, new RegExp(` ${ann.bars} bars `)); // gems.md: seats[].bars
			assert.strictEqual(/WINNER/.test(row), ann.winner === true, row);
			const stats = await checker.req('stats', { player: 'ann' });
			assert.strictEqual(stats.games, 1);
			checker.c.close();

			assert.strictEqual(await t.quit(), 0);
		} finally {
			await tidy({ t, srv, cfg });
		}
	});

test('lair play: a dropped connection mid-game resumes the seat by itself',
	{ timeout: 120000 }, async () => {
		const srv = await startLaird({ args: ['--window-ms', '100', '--reveal-pause-ms', '0'] });
		const proxy = await tcpProxy(srv.port);
		const cfg = tmpCfg();
		const t = await startLair(['play', '--server', proxy.url, '--name', 'bea'],
			{ env: { XDG_CONFIG_HOME: cfg }, record: true });
		try {
			await t.waitScreen(/No tables yet/, 8000);
			await t.keys('C');
			await t.waitScreen(/create a table/);
			await t.keys('C'); // create; start it from the table screen
			let w = await t.waitScreen(/Waiting for players\. Host: \[S\]tart/, 8000);
			assert.match(w, />1 bea/);
			await t.keys('X'); // remove an AI seat, then add it back
			w = await t.waitScreen((x) => !/AI 3/.test(x), 5000, 'seat 3 to be free');
			assert.match(w, /3 \(free\)/);
			await t.keys('A');
			await t.waitScreen(/AI 3/, 5000);
			await t.keys('S');
			const first = await t.waitScreen(/Choose: \d+s left/, 8000);
			// Stay once (whatever staying is in this room: Stay, a card, ...),
			// so the seat is mid-dungeon when the network fails.
			await t.press(stayKey(first), CHOSEN, 5000);

			const admin = await player(srv, 'watcher');
			proxy.refuse(true); // the network is down: reconnects fail for now
			proxy.dropAll();
			await t.waitScreen(/connection lost: resuming/, 5000);
			proxy.refuse(false);
			let s = await t.waitScreen((x) => !/connection lost/.test(x) &&
				/>1 bea/.test(x), 15000, 'the resumed table');
			assert.match(s, /dungeon \d\/5/);
			// The server sees bea back on her seat.
			const tables = await admin.req('table_list');
			const mine = tables.tables.find((x) => x.host === 'bea');
			assert.ok(mine);
			assert.strictEqual(mine.humans[0], 'bea');

			const { screen } = await leaveUntilGameOver(t, 100000);
			if (process.env.LAIR_E2E_SHOW) console.log(screen);
			assert.match(screen, /GAME OVER/);
			assert.match(screen, />1 bea/);
			admin.c.close();
			assert.strictEqual(await t.quit(), 0);
		} finally {
			await tidy({ t, proxy, srv, cfg });
		}
	});

test('lair watch: spectates an all-AI table to its end', { timeout: 120000 }, async () => {
	const srv = await startLaird({ args: ['--window-ms', '0', '--reveal-pause-ms', '0',
		'--ai-pacing-ms', '30'] });
	const cfg = tmpCfg();
	let t;
	try {
		const host = await player(srv, 'host');
		const snap = await host.req('table_create', { kind: 'gems', seats: 2, ai: 1,
			pacing_ms: 30 });
		assert.strictEqual(snap.type, 'table', JSON.stringify(snap));
		t = await startLair(['watch', String(snap.table), '--server', srv.url, '--name', 'cy'],
			{ env: { XDG_CONFIG_HOME: cfg } });
		let s = await t.waitScreen(/\[watching\]/, 8000);
		assert.match(s, new RegExp(`table ${snap.table}`));
		await startAndLeave(host, snap.table);
		s = await t.waitScreen(/dungeon \d\/5/, 10000);
		assert.match(s, /Watching\./);
		s = await t.waitScreen(/GAME OVER/, 100000);
		assert.match(s, /WINNER/);
		assert.strictEqual(await t.quit('q'), 0);
		host.c.close();
	} finally {
		await tidy({ t, srv, cfg });
	}
});

/* Follows the Monte shuffle as a person would: from the face-up cards
 * (the left one is the valuable card) through each swap shown on screen. */
function followValuable(screens) {
	let at = 0;
	for (const s of screens) {
		const m = s.match(/swap \d+ of \d+: #(\d) <-> #(\d)/);
		if (!m) continue;
		const a = Number(m[1]) - 1;
		const b = Number(m[2]) - 1;
		if (at === a) at = b;
		else if (at === b) at = a;
	}
	return at;
}

test('lair play: Three Card Monte is shuffled on screen swap by swap, and following it wins',
	{ timeout: 120000 }, async () => {
		const srv = await startLaird({ args: FAST });
		const cfg = tmpCfg();
		let t;
		try {
			const admin = await resume(srv, await adminToken(srv));
			// Dungeon 1's adventure is the Monte; a seed fixes the dungeon. The
			// Monte may come after the lair for some seeds: then the next seed.
			let s;
			let table;
			for (let seed = Number(process.env.LAIR_MONTE_SEED || 6); ; seed++) {
				assert.ok(seed < 40, 'no seed with a Monte room before the lair');
				const snap = await admin.req('table_create', { kind: 'gems', seats: 2,
					seed,
					config: { adventures: ['monte', 'banker', 'sun_moon', 'scout', 'devil'] } });
				assert.strictEqual(snap.type, 'table', JSON.stringify(snap));
				table = snap.table;
				t = await startLair(['play', '--server', srv.url, '--name', 'mo',
					'--table', String(table)], { env: { XDG_CONFIG_HOME: cfg }, record: true });
				await t.waitScreen(/>2 mo/, 8000);
				await startAndLeave(admin, table); // the AI plays seat 1
				// Stay through dungeon 1 until the Monte room.
				const deadline = Date.now() + 60000;
				for (;;) {
					assert.ok(Date.now() < deadline, 'no Monte room in time');
					s = await t.waitScreen((x) => /Three Card Monte: \[/.test(x) ||
						/Choose: \d+s left/.test(x) || /Dungeon over/.test(x), 20000);
					if (/Three Card Monte: \[|Dungeon over/.test(s)) break;
					await t.press('S', CHOSEN, 10000);
				}
				if (/Three Card Monte: \[/.test(s)) break;
				await t.quit();
				await t.kill();
				t = null;
			}
			// What lair drew, frame by frame (each swap stays 700 ms: polling
			// the screen can miss one on a busy machine; the pane's output
			// cannot). Face up first, the valuable card on the left...
			const drawn = await t.waitDrawn(/swap 7 of 7/, 20000);
			const faceUp = drawn.search(/Three Card Monte: \[\+2\] +\[\+1\] +\[[+-]\d\]/);
			assert.ok(faceUp >= 0, `the cards face up first:\n${drawn.slice(-3000)}`);
			// ...then every swap, one at a time, in order (a full redraw
			// repeats a frame).
			const frames = drawn.slice(faceUp).match(/swap \d+ of 7: #\d <-> #\d/g) || [];
			const seen = frames.filter((f, i) => f !== frames[i - 1]);
			assert.deepStrictEqual(seen.map((f) => Number(f.match(/swap (\d+)/)[1])),
				[1, 2, 3, 4, 5, 6, 7], 'no swap is skipped on screen');
			const pos = followValuable(seen);
			s = await t.waitScreen(/\[1\] Pick Card #1 and Stay/, 5000);
			await t.keys(String(pos + 1));
			s = await t.waitScreen(/You picked card #\d: [+-]\d+ gems\./, 10000);
			assert.match(s, new RegExp(`You picked card #${pos + 1}: \\+2 gems\\.`));
			admin.c.close();
		} finally {
			await tidy({ t, srv, cfg });
		}
	});

test('lair watch: a deepfall table is shown on its own screen to the end',
	{ timeout: 120000 }, async () => {
		const srv = await startLaird({ args: ['--window-ms', '0', '--reveal-pause-ms', '0'] });
		const cfg = tmpCfg();
		let t;
		try {
			const host = await player(srv, 'dhost');
			const snap = await host.req('table_create', { kind: 'deepfall', seats: 2,
				ai: 1, pacing_ms: 20 });
			assert.strictEqual(snap.type, 'table', JSON.stringify(snap));
			t = await startLair(['watch', String(snap.table), '--server', srv.url, '--name', 'dw'],
				{ env: { XDG_CONFIG_HOME: cfg } });
			await t.waitScreen(/deepfall +waiting/, 8000);
			await startAndLeave(host, snap.table);
			let s = await t.waitScreen(/Maw: frontier F\d/, 10000);
			assert.match(s, /deepfall +round \d+ +playing +\[watching\]/);
			assert.match(s, /Watching: every seat is shown above/);
			s = await t.waitScreen(/GAME OVER/, 100000);
			assert.match(s, /GAME OVER after \d+ rounds/);
			assert.match(s, /WINNER/);
			assert.strictEqual(await t.quit('q'), 0);
			host.c.close();
		} finally {
			await tidy({ t, srv, cfg });
		}
	});

test('lair play: laird restarts mid-game (SIGTERM, then kill -9): lair comes back to its seat',
	{ timeout: 150000 }, async () => {
		const args = ['--window-ms', '100', '--reveal-pause-ms', '0', '--log-level', 'warn'];
		const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-restart-'));
		let srv = await startLaird({ args, dbDir });
		const proxy = await tcpProxy(srv.port);
		const cfg = tmpCfg();
		const t = await startLair(['play', '--server', proxy.url, '--name', 'gus'],
			{ env: { XDG_CONFIG_HOME: cfg }, record: true });
		try {
			const first = await newGame(t);
			const table = Number(first.match(/table (\d+)/)[1]);
			for (const signal of ['SIGTERM', 'SIGKILL']) {
				await srv.stop({ signal });
				await t.waitScreen(/connection lost: resuming/, 10000);
				srv = await startLaird({ args, dbDir });
				proxy.retarget(srv.port);
				const s = await t.waitScreen((x) => !/connection lost/.test(x) &&
					/>1 gus/.test(x) && new RegExp(`table ${table}`).test(x), 40000,
					`the table back after ${signal}`);
				assert.match(s, /dungeon \d\/5|GAME OVER/);
			}
			const { screen } = await leaveUntilGameOver(t, 100000);
			assert.match(screen, />1 gus/);
			assert.strictEqual(await t.quit(), 0);
		} finally {
			await tidy({ t, proxy, srv, cfg });
			fs.rmSync(dbDir, { recursive: true, force: true });
		}
	});

test('lair play: quitting mid-game keeps the seat; the next lair play goes back to it',
	{ timeout: 60000 }, async () => {
		const srv = await startLaird({ args: ['--window-ms', '100', '--reveal-pause-ms', '0'] });
		const cfg = tmpCfg();
		let t = await startLair(['play', '--server', srv.url, '--name', 'hal'],
			{ env: { XDG_CONFIG_HOME: cfg } });
		try {
			const s1 = await newGame(t);
			const table = s1.match(/table (\d+)/)[1];
			assert.strictEqual(await t.quit(), 0);
			await t.kill();
			// The same player (the stored token), no name needed.
			t = await startLair(['play', '--server', srv.url], { env: { XDG_CONFIG_HOME: cfg } });
			const s2 = await t.waitScreen(new RegExp(`table ${table} .*dungeon \\d/5`), 8000);
			assert.match(s2, />1 hal/);
			assert.strictEqual(await t.quit(), 0);
		} finally {
			await tidy({ t, srv, cfg });
		}
	});

test('lair play: joining a private table from the lobby asks for its password',
	{ timeout: 60000 }, async () => {
		const srv = await startLaird();
		const cfg = tmpCfg();
		const t = await startLair(['play', '--server', srv.url, '--name', 'ivy'],
			{ env: { XDG_CONFIG_HOME: cfg } });
		try {
			const host = await player(srv, 'jon');
			const snap = await host.req('table_create', { kind: 'gems', seats: 2,
				private: true, password: 'sesame', name: 'secret' });
			assert.strictEqual(snap.type, 'table', JSON.stringify(snap));
			await t.waitScreen(/secret \(private\)/, 8000);
			await t.keys('1', 'J');
			await t.waitScreen(/is private\. Password: _/);
			await t.keys('wrong', '\r');
			await t.waitScreen(/wrong_password/, 5000);
			await t.keys('J', 'sesame', '\r');
			const s = await t.waitScreen(/>2 ivy/, 5000);
			assert.match(s, /Waiting for players/);
			const after = await host.req('table_list');
			assert.deepStrictEqual(after.tables.find((x) => x.id === snap.table).humans,
				['jon', 'ivy']);
			host.c.close();
			assert.strictEqual(await t.quit(), 0);
		} finally {
			await tidy({ t, srv, cfg });
		}
	});

test('lair play: colour where the terminal has it, none with NO_COLOR', { timeout: 60000 },
	async () => {
		const srv = await startLaird({ args: FAST });
		const cfg = tmpCfg();
		const colour = /\x1b\[[0-9;]*3[1-7]m/; // a foreground colour (SGR 31-37)
		try {
			for (const noColor of [false, true]) {
				// a player each: quitting keeps the first one's seat
				const home = path.join(cfg, noColor ? 'b' : 'a');
				const env = { XDG_CONFIG_HOME: home, TERM: 'screen' };
				if (noColor) env.NO_COLOR = '1';
				const t = await startLair(['play', '--server', srv.url,
					'--name', noColor ? 'kit2' : 'kit1'], { env });
				try {
					await newGame(t, /lobby 1 "main"/);
					const ansi = t.screenAnsi();
					assert.strictEqual(colour.test(ansi), !noColor,
						`NO_COLOR=${noColor}: ${JSON.stringify(ansi.slice(0, 400))}`);
					await t.keys('L');
					assert.strictEqual(await t.quit(), 0);
				} finally {
					await t.kill();
				}
			}
		} finally {
			await srv.stop();
			fs.rmSync(cfg, { recursive: true, force: true });
		}
	});
