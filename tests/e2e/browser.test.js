'use strict';
/*
 * browser.test.js — lair's web client in a real headless Chromium (Debian's,
 * driven by playwright-core: lib/browser.js) against a real laird:
 *   - two browser players and one AI seat play a whole gems game from the
 *     lobby (create, join from the live list, start) to the end summary,
 *     by keyboard and by buttons; one changes its choice inside the
 *     change-your-mind window and both reveals show the change; one reloads
 *     mid-game and is back at the same decision; a third page watches and
 *     receives no hidden information (checked on its WebSocket frames);
 *     then a rematch, and the watcher takes over the AI seat;
 *   - gems.md's example view, read from the doc, drawn by the served module:
 *     every field where a player looks, and Three Card Monte face up, face
 *     down, then swap by swap (the page's clock moved by the test) to the
 *     layout of the doc's monte_reveal;
 *   - deepfall's choice form sends a choice the server accepts; its board
 *     shows the view the page holds (the Maw, every room's pay and value),
 *     and deepfall.md's view example, drawn by the served module, shows
 *     every field where the doc says;
 *   - a player renames itself (refused while at a table, or to a taken name);
 *   - a dropped socket resumes by seq (the missed updates, no snapshot), a
 *     laird restart at the same decision; a second window of the same
 *     player stops the first, whose "Play here" takes the player back;
 *   - a page of another origin cannot open a WebSocket to laird (CSWSH);
 *     markup in a table's name and in the chat shows as text and runs nothing;
 *   - the CSP holds: no inline script runs, modules come from laird only,
 *     and no page logs a console error.
 * Screenshots of the lobby, a gems decision, a reveal and the end summary,
 * at 1280×800 and 390×844 (each checked: the page fits the width, every
 * control has a name, a box that scrolls sideways takes the keyboard's
 * focus; a private table is joined by keyboard alone), go to
 * test-output/browser/ beside the laird tested (build/ or build-asan/), or
 * under $LAIR_TEST_OUT.
 *
 * LAIR_WEB_ROOT=DIR serves DIR instead of the built-in files (to try an
 * edit of web/ without a rebuild).
 *
 * Timing: window_ms stays 1000 (the rule) and reveal_pause_ms is 50 so a
 * game takes seconds; the humans mostly leave early, so a dungeon is one or
 * two human decisions and the AI finishes it alone.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const { startLaird, LAIRD } = require('./lib/laird');
const { launchBrowser, newPlayer, CHROMIUM } = require('./lib/browser');

const OUT = path.join(process.env.LAIR_TEST_OUT || path.join(path.dirname(LAIRD), 'test-output'), 'browser');
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const haveChromium = fs.existsSync(CHROMIUM);
const WEB_ROOT = process.env.LAIR_WEB_ROOT ? ['--web-root', process.env.LAIR_WEB_ROOT] : [];

/* What a page must be at any size: no sideways scroll of the page itself
 * (a wide table scrolls in its own box), every control visible on it has a
 * name a screen reader can say, and a box that scrolls sideways can be
 * reached by the keyboard (it takes the focus, or holds something that
 * does). Returns what is wrong, [] when nothing. */
function pageProblems(page) {
	return page.evaluate(() => {
		const bad = [];
		const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
		const text = (el) => (el ? el.textContent.trim() : '');
		if (document.documentElement.scrollWidth > window.innerWidth + 1)
			bad.push(`the page is ${document.documentElement.scrollWidth} px wide in ${window.innerWidth}`);
		for (const el of document.querySelectorAll('button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])')) {
			if (!shown(el) || el.closest('.sr')) continue;
			const name = el.getAttribute('aria-label') ||
				(el.getAttribute('aria-labelledby') || '').split(/\s+/).map((id) => text(document.getElementById(id))).join(' ').trim() ||
				(el.labels ? [...el.labels].map(text).join(' ').trim() : '') ||
				(el.tagName === 'INPUT' || el.tagName === 'SELECT' ? '' : text(el)) || el.getAttribute('title') || '';
			if (!name) bad.push(`no name: ${el.outerHTML.slice(0, 80)}`);
		}
		for (const el of document.querySelectorAll('#app *')) {
			const ox = getComputedStyle(el).overflowX;
			if ((ox === 'auto' || ox === 'scroll') && el.scrollWidth > el.clientWidth + 1 && el.tabIndex < 0 &&
				!el.querySelector('button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])'))
				bad.push(`scrolls sideways, out of the keyboard's reach: ${el.outerHTML.slice(0, 80)}`);
		}
		return bad;
	});
}

/* The lobby, a decision, a reveal, the end: each at both sizes, checked
 * (but for the problems `known` matches). */
async function shots(page, name, known = null) {
	fs.mkdirSync(OUT, { recursive: true });
	const size = page.viewportSize();
	for (const [tag, vp] of [['1280x800', WIDE], ['390x844', PHONE]]) {
		await page.setViewportSize(vp);
		await page.screenshot({ path: path.join(OUT, `${name}-${tag}.png`), fullPage: true });
		const bad = (await pageProblems(page)).filter((x) => !(known && known.test(x)));
		assert.deepEqual(bad, [], `${name} at ${tag}`);
	}
	await page.setViewportSize(size);
}

/* The client's own state, for pacing the test (assertions read the page). */
function state(page) {
	return page.evaluate(() => {
		const t = window.lair && window.lair.table;
		return t ? { asked: t.asked, decision: t.decision, state: t.state, result: !!t.result,
			you: t.you, choice: t.choice, windowOpen: t.windowAt > performance.now() } : null;
	});
}

async function register(p, name) {
	await p.page.fill('#name', name);
	await p.page.keyboard.press('Enter');
	await p.page.getByRole('heading', { name: 'Create a table' }).waitFor();
}

/* The options that go on into the next room (anything but Leave). */
const STAY_ON = 'button.opt:not([data-choice=leave])';

/* Goes on (by key when the option has one) or leaves; a Devil's debt may
 * leave no Leave: then the first option. */
async function choose(page, goOn) {
	const leave = page.locator('button.opt[data-choice=leave]');
	if (!goOn && await leave.count()) return leave.click();
	const on = page.locator(STAY_ON).first();
	const kbd = on.locator('kbd');
	if (await kbd.count()) return page.keyboard.press((await kbd.innerText()).toLowerCase());
	return on.click();
}

/* Every frame a page's WebSocket receives, parsed. */
function recordFrames(page) {
	const frames = [];
	page.on('websocket', (ws) => ws.on('framereceived', (f) => {
		try {
			frames.push(JSON.parse(f.payload));
		} catch { /* not JSON */ }
	}));
	return frames;
}

/* Waits until pred(state) holds on the page (bounded). */
async function until(page, pred, what, ms = 20000) {
	const deadline = Date.now() + ms;
	for (;;) {
		const s = await state(page);
		if (s && pred(s)) return s;
		if (Date.now() > deadline) throw new Error(`timeout: ${what}; state ${JSON.stringify(s)}`);
		await page.waitForTimeout(25); // poll interval, not a wait for an event
	}
}

/* A page on another origin (a plain node server) that tries to open a
 * socket to laird in the visitor's browser. */
function evilServer(lairdPort) {
	const html = `<!doctype html><script>
		const ws = new WebSocket('ws://127.0.0.1:${lairdPort}/');
		window.result = new Promise((res) => {
			ws.onopen = () => res('open');
			ws.onclose = (e) => res('closed ' + e.code);
		});
	</script>`;
	const srv = http.createServer((req, res) => {
		if (req.url === '/x.js') {
			res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
			res.end('window.evilRan = true;');
			return;
		}
		res.writeHead(200, { 'content-type': 'text/html' });
		res.end(html);
	});
	return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve(srv)));
}

test('the web client in Chromium: a whole gems game, change of mind, reload, a watcher, rematch, takeover',
	{ skip: !haveChromium && `no ${CHROMIUM} (tests/deps installs chromium)`, timeout: 240000 }, async () => {
		const srv = await startLaird({ args: ['--reveal-pause-ms', '50', '--turn-timeout-ms', '60000', ...WEB_ROOT] });
		const browser = await launchBrowser();
		const pages = [];
		try {
			// ---- the lobby: alice creates, bob joins from the live list ----
			const A = await newPlayer(browser, srv, { viewport: WIDE });
			const B = await newPlayer(browser, srv, { viewport: PHONE });
			pages.push(A, B);
			await register(A, 'alice');
			await register(B, 'bob');
			// What alice's screen reader is told (the live region), kept.
			await A.page.evaluate(() => {
				window.announced = [];
				const el = document.getElementById('announce');
				new MutationObserver(() => window.announced.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
			});
			await A.page.fill('#chat-text', 'hello from alice');
			await A.page.keyboard.press('Enter');
			await B.page.getByText('hello from alice').waitFor();
			await A.page.fill('#c-seats', '3');
			await A.page.fill('#c-ai', '1');
			await A.page.fill('#c-name', 'browser game');
			await A.page.click('form.create button[type=submit]');
			await A.page.getByRole('button', { name: 'Start the game' }).waitFor();
			const tableId = Number(A.page.url().match(/#\/table\/(\d+)/)[1]);
			await B.page.getByRole('button', { name: `Join table ${tableId}` }).click(); // live list
			await B.page.getByText('Waiting for the host to start.').waitFor();
			// The lobby's chat goes on at the table.
			await B.page.fill('#chat-text', 'ready when you are');
			await B.page.keyboard.press('Enter');
			await A.page.locator('.chat-log').getByText('ready when you are').waitFor();

			// carol watches from the lobby; her socket is recorded.
			const C = await newPlayer(browser, srv, { viewport: WIDE });
			pages.push(C);
			const cFrames = recordFrames(C.page);
			await register(C, 'carol');
			await shots(C.page, 'lobby');
			await C.page.getByRole('button', { name: `Watch table ${tableId}` }).click();
			await C.page.getByText('watching', { exact: false }).first().waitFor();

			await A.page.getByRole('button', { name: 'Start the game' }).focus();
			await A.page.keyboard.press('Enter'); // keyboard only
			await until(A.page, (s) => s.asked, 'alice asked');
			await A.page.getByRole('heading', { name: /Decision 1: your choice/ }).waitFor();
			await shots(A.page, 'decision');
			// The hand icon, every seat's status, the countdown.
			await A.page.getByText('Lair odds').waitFor();
			assert.match(await A.page.locator('#clock').innerText(), /Your choice: \d+ s left/);

			// ---- decision 1: bob goes on by button; alice goes on by her key, then
			// leaves inside the window (the first room may be an adventure: its
			// options are not always Stay) ----
			await until(B.page, (s) => s.asked, 'bob asked');
			const bobOn = B.page.locator(STAY_ON).first();
			const bobLabel = (await bobOn.innerText()).replace(/^\S+\s/, ''); // without its key
			await bobOn.click();
			const aliceKey = await A.page.locator(`${STAY_ON} kbd`).first().innerText();
			await A.page.keyboard.press(aliceKey.toLowerCase());
			await until(A.page, (s) => s.windowOpen, 'the window to open');
			assert.match(await A.page.locator('#clock').innerText(), /to change your mind/);
			await A.page.keyboard.press('l');
			await A.page.locator('#reveal').getByText('changed your mind from').waitFor();
			const aReveal = await A.page.locator('#reveal li[data-seat="0"]').innerText();
			assert.match(aReveal, /alice \(you\): Leave/);
			for (const p of [B, C]) {
				await p.page.locator('#reveal li[data-seat="0"]').getByText('Leave').waitFor();
				const bob = await p.page.locator('#reveal li[data-seat="2"]').innerText();
				assert.ok(bob.startsWith('bob') && !/Leave/.test(bob), bob);
			}
			assert.ok(bobLabel.length > 0);
			await shots(B.page, 'reveal');

			// ---- bob reloads mid-decision and is back at the same one ----
			const before = await until(B.page, (s) => s.asked || s.result, 'bob asked again');
			if (!before.result) {
				await B.page.reload();
				const after = await until(B.page, (s) => s.asked, 'bob asked after the reload');
				assert.equal(after.decision, before.decision);
				await B.page.getByRole('heading', { name: `Decision ${before.decision}: your choice` }).waitFor();
			}

			// ---- play to the end: bob stays in the first rooms, then everyone leaves ----
			let stays = 2;
			const deadline = Date.now() + 150000;
			for (;;) {
				const [a, b] = await Promise.all([state(A.page), state(B.page)]);
				if (a.result && b.result) break;
				assert.ok(Date.now() < deadline, `the game did not end: ${JSON.stringify([a, b])}`);
				if (b.asked && b.choice === null) await choose(B.page, stays-- > 0);
				else if (a.asked && a.choice === null) await choose(A.page, false);
				else await A.page.waitForTimeout(25); // poll interval, not a wait for an event
			}
			await A.page.getByRole('heading', { name: 'Game over' }).waitFor();
			const summary = await A.page.locator('.result').innerText();
			assert.match(summary, /Winning score/);
			assert.match(summary, /alice/);
			assert.match(summary, /bob/);
			assert.match(summary, /AI 2/);
			assert.match(summary, /Winner/);
			assert.match(summary, /Timid|Bold|Deepest Explorer|Highest Score|Skynet|Psychic|Most Gems Lost/);
			await shots(A.page, 'end');
			const told = await A.page.evaluate(() => window.announced);
			assert.ok(told.includes('Decision 1: your choice.'), JSON.stringify(told.slice(0, 5)));
			assert.ok(told.some((x) => /^Revealed: alice Leave, AI 2 \S.*, bob \S/.test(x)), JSON.stringify(told.slice(0, 5)));
			assert.equal(told[told.length - 1], 'Game over.');

			// ---- the watcher saw nothing hidden ----
			const tableMsgs = cFrames.filter((m) => m.table === tableId);
			assert.ok(tableMsgs.some((m) => m.type === 'reveal'), 'carol saw reveals');
			for (const m of tableMsgs) {
				assert.equal(m.options, undefined, `a ${m.type} with options reached the watcher`);
				assert.equal(m.seat, undefined, `a ${m.type} with a seat reached the watcher`);
				if (m.type !== 'reveal') assert.equal(m.choice, undefined, `a ${m.type} carried a choice`);
				const v = m.view || (m.game && m.game.view);
				if (v) {
					assert.equal(v.viewer, -1);
					assert.equal(v.options, undefined);
				}
				if (m.game) assert.equal(m.game.options, undefined);
			}
			assert.equal(await C.page.locator('button.opt').count(), 0);

			// ---- rematch, and carol takes over the AI seat ----
			await A.page.getByRole('button', { name: 'Rematch' }).click();
			await A.page.getByRole('button', { name: 'Start the game' }).click();
			await C.page.getByRole('button', { name: 'Take over this seat' }).click();
			await until(C.page, (s) => s.you === 1, 'carol in seat 2');
			await C.page.getByText('seat 2', { exact: false }).first().waitFor();
			await until(C.page, (s) => s.asked, 'carol asked', 30000);
			await C.page.keyboard.press('l');
			await until(C.page, (s) => s.choice !== null || !s.asked, 'carol chose');

			// ---- the finished game counts in alice's statistics and the records ----
			await A.page.getByRole('link', { name: 'Stats' }).click();
			await A.page.getByRole('heading', { name: 'Gems: 1 game' }).waitFor();
			assert.ok(await A.page.locator('.achievements-list li.earned').count() >= 1);
			// Any player's, by name.
			await A.page.fill('#stats-name', 'bob');
			await A.page.keyboard.press('Enter');
			await A.page.getByRole('heading', { name: 'Statistics: bob' }).waitFor();
			await A.page.getByRole('heading', { name: 'Gems: 1 game' }).waitFor();
			await A.page.getByRole('link', { name: 'Records' }).click();
			await A.page.getByRole('heading', { name: 'All games on this server: 1' }).waitFor();
			await A.page.getByRole('link', { name: `Table ${tableId}` }).click();
			await A.page.getByRole('heading', { name: /table \d+/ }).waitFor();

			for (const p of pages) assert.deepEqual(p.problems, [], 'console errors');
		} finally {
			await browser.close();
			const r = await srv.stop();
			assert.equal(r.code, 0, r.output);
		}
	});

test('Chromium: a dropped socket and a server restart: the page comes back by itself at the same decision; a second window of the same player',
	{ skip: !haveChromium && 'no chromium', timeout: 120000 }, async () => {
		const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-e2e-restart-'));
		let srv = await startLaird({ dbDir, args: ['--turn-timeout-ms', '600000', ...WEB_ROOT] });
		const port = srv.port;
		const browser = await launchBrowser();
		try {
			const A = await newPlayer(browser, srv, { viewport: WIDE });
			await register(A, 'erin');
			await A.page.fill('#c-seats', '2');
			await A.page.fill('#c-ai', '1');
			await A.page.check('#c-start');
			await A.page.click('form.create button[type=submit]');
			const before = await until(A.page, (s) => s.asked, 'erin asked');

			// The skip link moves the focus into the game, not the page away.
			const at = A.page.url();
			await A.page.locator('a.skip').focus(); // the page's first tab stop
			await A.page.keyboard.press('Enter');
			assert.equal(await A.page.evaluate(() => document.activeElement.id), 'app');
			assert.equal(A.page.url(), at);
			await A.page.getByRole('heading', { name: `Decision ${before.decision}: your choice` }).waitFor();
			// A choice the server refuses (a known id it does not offer here):
			// its words shown, and no option left marked as chosen.
			const offered = await A.page.evaluate(() => window.lair.table.options.map((o) => o.id));
			const refused = ['bank12', 'devil5', 'eat'].find((id) => !offered.includes(id));
			await A.page.evaluate((id) => window.lair.choose(id), refused);
			await A.page.getByRole('alert').filter({ hasText: /not an option|needs|cannot/ }).waitFor();
			await until(A.page, (s) => s.choice === null, 'the refused choice unmarked');
			assert.equal(await A.page.locator('button.opt[aria-pressed=true]').count(), 0);

			// A dropped socket first (laird still up): the page comes back by
			// itself and resumes by seq — its hello names the table's last seq,
			// and what follows is the updates it missed, never a snapshot.
			const sent = [];
			const got = [];
			A.page.on('websocket', (ws) => {
				ws.on('framesent', (f) => sent.push(JSON.parse(f.payload)));
				ws.on('framereceived', (f) => got.push(JSON.parse(f.payload)));
			});
			const { id, seq } = await A.page.evaluate(() => {
				window.lair.s.ws.close();
				return { id: window.lair.table.id, seq: window.lair.table.seq };
			});
			await until(A.page, () => sent.some((m) => m.type === 'hello'), 'a new hello');
			const hello = sent.find((m) => m.type === 'hello');
			assert.deepEqual(hello.resume, { [id]: seq });
			assert.ok(hello.token && !hello.name);
			await until(A.page, () => got.some((m) => m.type === 'welcome'), 'the welcome');
			const dropped = await until(A.page, (s) => s.asked, 'erin asked after the drop');
			assert.equal(dropped.decision, before.decision);
			assert.ok(!got.some((m) => m.type === 'table'), 'a snapshot after a resume by seq');

			// laird stops (clients get 1001) and comes back on the same port
			// and database: the table is restored at the same decision.
			const r = await srv.stop({ signal: 'SIGTERM' });
			assert.equal(r.code, 0, r.output);
			await A.page.locator('.link.down').waitFor();
			// The same port, so the page finds it again. On a shared machine
			// another program may take the freed port meanwhile: a few tries.
			for (let tries = 0; ; tries++) {
				try {
					srv = await startLaird({ dbDir, args: ['--port', String(port), '--turn-timeout-ms', '600000', ...WEB_ROOT] });
					break;
				} catch (e) {
					if (tries >= 4 || !/cannot listen|in use/.test(e.message)) throw e;
					await new Promise((res) => setTimeout(res, 500)); // retry interval
				}
			}
			await A.page.locator('.link.up').waitFor({ timeout: 20000 });
			const after = await until(A.page, (s) => s.asked, 'erin asked after the restart', 20000);
			assert.equal(after.decision, before.decision);
			await A.page.getByRole('heading', { name: `Decision ${before.decision}: your choice` }).waitFor();
			await A.page.keyboard.press('l');
			await A.page.locator('#reveal li[data-seat="0"]').getByText('Leave').waitFor();

			// The same player in a second window (its key comes with the
			// browser's storage): the first is told so and stays down, not
			// fighting back; its "Play here" takes the player back.
			const twin = await browser.newContext({ viewport: PHONE, storageState: await A.context.storageState() });
			const T = await twin.newPage();
			const tProblems = [];
			T.on('pageerror', (e) => tProblems.push(e.message));
			await T.goto(srv.httpUrl + `/#/table/${id}`);
			await T.getByRole('link', { name: 'Your player: erin' }).waitFor();
			await A.page.getByText('This player is connected in another window.').waitFor();
			await A.page.locator('.link.down').getByText('playing elsewhere').waitFor();
			await T.getByRole('heading', { name: new RegExp(`table ${id}`) }).waitFor();
			await A.page.getByRole('button', { name: 'Play here' }).click();
			await A.page.locator('.link.up').waitFor();
			await T.getByText('This player is connected in another window.').waitFor();
			assert.equal((await state(A.page)).you, 0);
			assert.deepEqual(tProblems, []);
			// The socket that died with the server, and what the page asked for
			// while it was down (Chromium fetches the icon late on a busy
			// machine), are not page errors.
			assert.deepEqual(A.problems.filter((x) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(x)), []);
		} finally {
			await browser.close();
			await srv.stop();
			fs.rmSync(dbDir, { recursive: true, force: true });
		}
	});

/* Tabs forward (bounded) until the focus is on what `sel` finds. */
async function tabTo(page, sel, what) {
	for (let i = 0; i < 80; i++) {
		if (await page.evaluate((q) => document.activeElement && document.activeElement.matches(q), sel)) return;
		await page.keyboard.press('Tab');
	}
	throw new Error(`Tab never reached ${what}`);
}

test('Chromium: a private table asks its password; markup in peer text stays text; leaving hands the seat to the AI; rename',
	{ skip: !haveChromium && 'no chromium', timeout: 120000 }, async () => {
		const srv = await startLaird({ args: WEB_ROOT });
		const browser = await launchBrowser();
		try {
			const A = await newPlayer(browser, srv, { viewport: WIDE });
			const B = await newPlayer(browser, srv, { viewport: PHONE });
			await register(A, 'hana');
			await register(B, 'ivan');
			// A hostile host: markup as the table's name and in the chat.
			const NAME = '<img src=x onerror=window.pwned=1>';
			const CHAT = '<script>window.pwned=2</script><b onmouseover=window.pwned=3>hi</b>&amp;';
			await A.page.fill('#c-name', NAME);
			await A.page.fill('#c-seats', '2');
			await A.page.fill('#c-ai', '0');
			await A.page.check('#c-private');
			await A.page.fill('#c-password', 'sesame');
			await A.page.click('form.create button[type=submit]');
			await A.page.getByRole('button', { name: 'Start the game' }).waitFor();
			const tableId = Number(A.page.url().match(/#\/table\/(\d+)/)[1]);
			await A.page.fill('#chat-text', CHAT);
			await A.page.keyboard.press('Enter');
			await B.page.locator('.chat-log li').filter({ hasText: 'hi</b>' }).waitFor();
			const seen = await B.page.evaluate(() => ({ pwned: window.pwned,
				made: document.querySelectorAll('#app img, #app script, #app b[onmouseover]').length,
				name: [...document.querySelectorAll('.tables td')].map((e) => e.textContent)[1],
				chat: [...document.querySelectorAll('.chat-log li')].map((e) => e.textContent) }));
			assert.deepEqual(seen, { pwned: undefined, made: 0, name: NAME, chat: [`hana: ${CHAT}`] });

			// ivan joins by keyboard alone: Tab to the live list's Join, Enter;
			// the password field has the focus as it shows.
			await B.page.locator('body').focus();
			await tabTo(B.page, `button[aria-label="Join table ${tableId}"]`, 'the Join button');
			await B.page.keyboard.press('Enter');
			await B.page.locator('#join-password:focus').waitFor();
			await B.page.keyboard.type('open-sesame');
			await B.page.keyboard.press('Enter');
			await B.page.getByRole('alert').filter({ hasText: /password/i }).waitFor();
			assert.ok(!B.page.url().includes('#/table/'));
			await B.page.getByRole('button', { name: `Join table ${tableId}` }).click();
			await B.page.fill('#join-password', 'sesame');
			await B.page.keyboard.press('Enter');
			await B.page.getByText('Waiting for the host to start.').waitFor();
			assert.equal(await B.page.locator('h1').innerText(), `Gems · table ${tableId} “${NAME}”`);
			assert.equal(await B.page.evaluate(() => window.pwned), undefined);
			await A.page.getByRole('button', { name: 'Start the game' }).click();
			await until(B.page, (s) => s.asked, 'ivan asked');
			B.page.once('dialog', (d) => d.accept()); // "the AI plays your seat": yes
			await B.page.getByRole('button', { name: 'Leave the table' }).click();
			await B.page.getByRole('heading', { name: 'Create a table' }).waitFor();
			await A.page.locator('.seat-list').getByText('AI 2').waitFor();

			// ivan, back in the lobby, renames himself on his player page (the
			// header's link): a taken name is refused, a free one taken;
			// hana, at the table, may not (her name is on its seats).
			await B.page.getByRole('link', { name: 'Your player: ivan' }).click();
			await B.page.fill('#rename', 'HANA');
			await B.page.keyboard.press('Enter');
			await B.page.getByRole('alert').filter({ hasText: /another player has that name/ }).waitFor();
			await B.page.fill('#rename', 'ivan2');
			await B.page.keyboard.press('Enter');
			await B.page.getByRole('link', { name: 'Your player: ivan2' }).waitFor();
			await B.page.getByRole('heading', { name: 'Your player: ivan2' }).waitFor();
			await A.page.getByRole('link', { name: 'Your player: hana' }).click();
			await A.page.fill('#rename', 'hana2');
			await A.page.keyboard.press('Enter');
			await A.page.getByRole('alert').filter({ hasText: /leave it/ }).waitFor();
			await A.page.getByRole('link', { name: 'Your player: hana' }).waitFor();
			assert.deepEqual(A.problems, []);
			assert.deepEqual(B.problems, []);
		} finally {
			await browser.close();
			await srv.stop();
		}
	});

/* gems.md's view example, read from the doc itself (a stranger's client
 * would start there), drawn by the served gems module in a page whose clock
 * the test moves: the path, the room, the hand icon's numbers, the options
 * with their keys, and Three Card Monte face up, then face down, then swap
 * by swap (G17) to the layout the doc's monte_reveal example gives. */
function gemsDocView() {
	const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'proto', 'kinds', 'gems.md'), 'utf8');
	const block = doc.slice(doc.indexOf('## View')).match(/```json\n([\s\S]*?)```/)[1];
	const view = JSON.parse(block.replace(/^\s*\.\.\.\n/m, '').replace(/,(\s*\])/g, '$1'));
	const reveal = JSON.parse(doc.match(/\{"type":"monte_reveal"[^\n]*\}/)[0]);
	return { view, after: reveal.cards };
}

test('gems in Chromium: gems.md\'s example view, and Three Card Monte swap by swap',
	{ skip: !haveChromium && 'no chromium', timeout: 60000 }, async () => {
		const { view, after } = gemsDocView();
		const srv = await startLaird({ args: WEB_ROOT });
		const browser = await launchBrowser();
		try {
			const ctx = await browser.newContext({ viewport: PHONE });
			const page = await ctx.newPage();
			const problems = [];
			page.on('pageerror', (e) => problems.push(e.message));
			await page.clock.install(); // the Monte's timers run when the test says
			await page.goto(srv.httpUrl + '/');
			await page.locator('#name').waitFor();
			await page.evaluate(async (v) => {
				const kv = (await import('/js/kinds/gems.js')).default;
				const { Table } = await import('/js/table.js');
				const t = new Table(98);
				t.apply({ type: 'table', table: 98, seq: 1, kind: 'gems', state: 'playing', you: 0,
					seats: [{ seat: 0, kind: 'human', name: 'mia' }, { seat: 1, kind: 'ai' }, { seat: 2, kind: 'ai' }],
					game: { decision: 7, pending: [0], status: ['selecting', 'chosen', 'chosen'],
						options: v.options, view: v } }, kv.eventLine);
				const el = kv.render(t, { ui: { showHand: true }, choose() {} });
				el.id = 'doc-view';
				document.getElementById('app').replaceChildren(el);
			}, view);
			const box = page.locator('#doc-view');
			const text = await box.innerText();
			for (const want of ['Dungeon 1 of 5', 'Three Card Monte (part 1)', 'Lair odds', '33%',
				'2.3 gems', '-0.1', 'Pick Card #1 and Stay', 'Pick Card #3 and Stay', 'Leave'])
				assert.ok(text.includes(want), `"${want}" in the view`);
			assert.equal(await box.locator('.path li').count(), view.path.length);
			assert.match(await box.locator('.path li').nth(1).innerText(), /Beware! A gem-stealing spider lies ahead\./);
			for (const [id, k] of [['leave', 'L'], ['card1', '1'], ['card2', '2'], ['card3', '3']])
				assert.equal(await box.locator(`button.opt[data-choice=${id}] kbd`).innerText(), k);

			// The Monte: card i (by its face-up value) at slot --slot.
			const cards = () => page.evaluate(() => [...document.querySelectorAll('#doc-view .card3')].map((e) =>
				({ slot: Number(e.style.getPropertyValue('--slot')), up: e.classList.contains('up') })));
			const say = () => box.locator('.monte-say').innerText();
			let c = await cards();
			assert.deepEqual(c.map((x) => x.slot), [0, 1, 2]);
			assert.ok(c.every((x) => x.up), 'face up first');
			assert.match(await say(), /left card/);
			await page.clock.runFor(1400);
			c = await cards();
			assert.ok(c.every((x) => !x.up), 'then face down');
			const slot = [0, 1, 2]; // what the doc's swaps do, one at a time
			for (let i = 0; i < view.room.swaps.length; i++) {
				const [a, b] = view.room.swaps[i];
				for (let k = 0; k < 3; k++) slot[k] = slot[k] === a ? b : slot[k] === b ? a : slot[k];
				await page.clock.runFor(650);
				assert.deepEqual((await cards()).map((x) => x.slot), slot, `after swap ${i + 1}`);
				assert.ok((await say()).startsWith(`Swap ${i + 1} of ${view.room.swaps.length}: #${a + 1} ⇄ #${b + 1}`));
			}
			assert.match(await say(), /^Swap 7 of 7: #1 ⇄ #2\. Shuffled \(7 swaps\): pick #1, #2 or #3\.$/);
			// Where each face-up value ended is the doc's monte_reveal layout.
			const layout = [];
			slot.forEach((s, k) => { layout[s] = view.room.cards[k]; });
			assert.deepEqual(layout, after);
			assert.deepEqual(problems, []);
		} finally {
			await browser.close();
			await srv.stop();
		}
	});

/* The deepfall board against the view the page holds (deepfall.md): the
 * Maw's speed this round and last, the floors it eats, and every live
 * room's pay and value, threat and lock. */
async function boardShowsView(page) {
	const { view, maw, rooms } = await page.evaluate(() => {
		const v = window.lair.table.view;
		return { view: v, maw: document.querySelector('.df-maw').textContent,
			rooms: Object.fromEntries([...document.querySelectorAll('.df-room')].map((e) => [e.dataset.room, e.textContent])) };
	});
	const two = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
	assert.ok(maw.includes(`speed ${two(view.maw.speed)} this round (${two(view.maw.last_speed)} last round)`), maw);
	assert.ok(maw.includes(`frontier floor ${view.maw.frontier}`), maw);
	assert.ok(maw.includes(view.maw.falls ? `eats ${view.maw.falls} floor` : 'eats no floor'), maw);
	let checked = 0;
	for (const f of view.floors) {
		for (const r of f.rooms) {
			const text = rooms[r.id];
			assert.ok(text, `room ${r.id} on the board`);
			for (const want of [`pays ${r.pays}`, `value ${r.value}`, `threat ${r.threat}`])
				assert.ok(text.includes(want), `room ${r.id}: "${want}" in "${text}"`);
			checked++;
		}
	}
	assert.ok(checked >= 24, `${checked} rooms`);
}

/* deepfall.md's view example, every field given a value of its own (a
 * floor whose rooms are gone holds waiting plunder, a marker has Fallen
 * strength and assault progress), drawn by the served kind module in the
 * page: each value must show where the doc says. */
async function deepfallDocView(page) {
	const room = (id, theme, value, pays, threat, lock, alive, markers = []) =>
		({ id, theme, value, pays, threat, lock, produces: 'greed', alive, markers });
	const view = { viewer: -1, round: 6, start_seat: 1, over: false,
		maw: { frontier: 5, accum: 0.25, last_speed: 0.31, speed: 0.23, falls: 1 },
		floors: [
			{ floor: 4, collapsed: false, plunder: 7, rooms: [room(12, 'crypt', 9, 2, 3, 1, false), room(13, 'hall', 8, 2, 1, 1, false)] },
			{ floor: 5, collapsed: false, plunder: 0, rooms: [
				room(16, 'vault', 14, 4, 2, 3, true, [{ seat: 0, active: 5, fallen: 2, strength: 7, assault_steel: 0, assault_cunning: 0 }]),
				room(17, 'forge', 13, 3, 4, 1, true, [{ seat: 1, active: 0, fallen: 0, strength: 0, assault_steel: 1, assault_cunning: 2 }])] },
			{ floor: 6, collapsed: true, plunder: 0, rooms: [room(20, 'throne', 15, 15, 5, 2, false)] }],
		players: [
			{ seat: 0, glory: 36, parties: 2, party: { lineage: 'wisp', calling: 'lorekeeper', floor: 5, deepest: 6,
				last_stand: true, unbanked: 11, hand_size: 5, moves: 2, bag: { recruit: 3 }, discard: { warrior: 4 },
				wounded: { priest: 1 }, anger: { deep_cult: 1, gnoll_warrens: 0, revenant_court: 0 },
				turn: { hands: 3, dice: 6, hand: { recruit: 3, scholar: 2 }, acted: true, act: { target: 4, recruit: false, exit: 'persist' },
					rolled: { steel: 1, cunning: 1, faith: 1, greed: 8, mettle: 0, dread: 2 },
					symbols: { steel: 1, cunning: 1, faith: 0, greed: 9, mettle: 0, dread: 1 },
					setbacks: 1, trinity: true, stand_offered: true } } },
			{ seat: 1, glory: 12, parties: 3, party: null }] };
	const out = await page.evaluate(async (v) => {
		const kv = (await import('/js/kinds/deepfall.js')).default;
		const { Table } = await import('/js/table.js');
		const t = new Table(99);
		t.apply({ type: 'table', table: 99, seq: 1, kind: 'deepfall', state: 'playing', you: null,
			seats: [{ seat: 0, kind: 'human', name: 'dora' }, { seat: 1, kind: 'ai' }],
			game: { decision: 9, status: ['idle', 'idle'], view: v } }, kv.eventLine);
		const el = kv.render(t, { ui: {}, choose() {} });
		const text = (sel) => [...el.querySelectorAll(sel)].map((e) => e.textContent);
		return { maw: text('.df-maw')[0], floors: text('.floor'), rooms: text('.df-room'), rows: text('tbody tr') };
	}, view);
	const has = (where, ...wants) => {
		for (const w of wants) assert.ok(where.includes(w), `"${w}" in "${where}"`);
	};
	has(out.maw, 'frontier floor 5', 'progress 0.25', 'speed 0.23 this round (0.31 last round)',
		'eats 1 floor', 'from AI 2');
	has(out.floors[0], '7 plunder waiting');
	assert.ok(!/plunder/.test(out.floors[1]), out.floors[1]);
	has(out.rooms[0], 'crypt', 'pays 2', 'value 9', 'gone');
	has(out.rooms[2], 'vault', 'pays 4', 'value 14', 'threat 2', 'lock 3', 'makes greed', 'dora 7', '(2 fallen)');
	has(out.rooms[3], 'forge', 'pays 3', 'value 13', 'assault 1 steel, 2 cunning kept');
	assert.ok(!/gone/.test(out.rooms[2]), out.rooms[2]);
	has(out.rows[0], 'dora', '36', 'wisp lorekeeper (Last Stand)', '2 parties so far', 'draws 5', '2 free steps',
		'anger: 1 deep_cult', '5 (deepest 6)', '11', 'bag: 3 recruit', 'discard: 4 warrior', 'wounded: 1 priest',
		'3 hands', '6 dice in hand (3 recruit, 2 scholar)', 'rolled 1 steel, 1 cunning, 1 faith, 8 greed, 2 dread',
		'acts with 1 steel, 1 cunning, 9 greed, 1 dread', '1 setback coming', 'Steel, Cunning and Faith rolled',
		'a Last Stand is offered', 'acted: floor 4, stays');
	has(out.rows[1], 'AI 2', '12', '3 parties so far', 'none (a new one next round)');
}

test('deepfall in Chromium: the orders form sends a choice the server takes',
	{ skip: !haveChromium && 'no chromium', timeout: 120000 }, async () => {
		const srv = await startLaird({ args: ['--reveal-pause-ms', '50', ...WEB_ROOT] });
		const browser = await launchBrowser();
		try {
			const A = await newPlayer(browser, srv, { viewport: PHONE });
			await register(A, 'dora');
			await A.page.selectOption('#c-kind', 'deepfall');
			await A.page.fill('#c-seats', '2');
			await A.page.fill('#c-ai', '1');
			await A.page.check('#c-start');
			await A.page.click('form.create button[type=submit]');
			await until(A.page, (s) => s.asked, 'dora asked');
			await A.page.getByRole('heading', { name: /Round 1: your orders/ }).waitFor();
			await A.page.getByText('Floor 1').first().waitFor(); // the board
			await boardShowsView(A.page);
			await shots(A.page, 'deepfall');
			// A turn in steps (deepfall.md): press one more hand, then the act.
			await A.page.getByRole('button', { name: 'Press: roll one more hand' }).click();
			await A.page.locator('#reveal li[data-seat="0"]').getByText('press on').waitFor({ timeout: 15000 });
			await A.page.getByRole('heading', { name: /Round 2: your orders/ }).waitFor();
			await A.page.check('[id$="-recruit"]');
			await A.page.getByLabel('Cash out (bank your loot)').check();
			await A.page.getByRole('button', { name: 'Act and end my turn' }).click();
			await A.page.locator('#reveal li[data-seat="0"] .choice').getByText(/recruit, cashes out/).waitFor({ timeout: 15000 });
			await A.page.locator('.log').getByText(/cashed out/).waitFor({ timeout: 15000 });
			await boardShowsView(A.page);
			await deepfallDocView(A.page);
			assert.deepEqual(A.problems, []);
		} finally {
			await browser.close();
			await srv.stop();
		}
	});

test('crawl in Chromium: the map, the party, the pack, and moves by key',
	{ skip: !haveChromium && 'no chromium', timeout: 120000 }, async (t) => {
		const srv = await startLaird({ args: ['--reveal-pause-ms', '50', ...WEB_ROOT] });
		const browser = await launchBrowser();
		try {
			const A = await newPlayer(browser, srv, { viewport: PHONE });
			await register(A, 'rogue');
			const r = await A.page.evaluate(() => window.lair.openTable(0, 'table_create',
				{ kind: 'crawl', seats: 2, ai: 1, start: true }));
			if (r.type === 'error' && /kind/.test(r.message || '')) {
				t.skip(`this laird has no crawl yet (${r.message})`);
				return;
			}
			assert.equal(r.type, 'table', JSON.stringify(r));
			await until(A.page, (s) => s.asked, 'rogue asked', 30000);
			await A.page.getByRole('heading', { name: /Act 1 of 3/ }).waitFor();
			const map = await A.page.locator('pre.crawl-map').innerText();
			assert.match(map, /1/); // our scoundrel on the map
			assert.match(map, /[#.]/);
			await A.page.getByRole('heading', { name: 'Your pack' }).waitFor();
			assert.match(await A.page.locator('.crawl').innerText(), /HP|\d+\/\d+/);
			// Known: crawl's map and party boxes scroll sideways on a phone
			// but do not take the keyboard's focus yet.
			await shots(A.page, 'crawl', /out of the keyboard's reach: <div class="scroll">/);
			// A move by key: the first step the options offer.
			const before = await state(A.page);
			const step = await A.page.evaluate(() => window.lair.table.options.map((o) => o.id)
				.find((id) => ['n', 'e', 's', 'w', 'wait'].includes(id)));
			const keyOf = { n: 'ArrowUp', e: 'ArrowRight', s: 'ArrowDown', w: 'ArrowLeft', wait: '.' };
			await A.page.keyboard.press(keyOf[step]);
			await until(A.page, (s) => s.decision > before.decision || s.result, 'the next decision', 30000);
			assert.deepEqual(A.problems, []);
		} finally {
			await browser.close();
			await srv.stop();
		}
	});

test('Chromium: another origin cannot open a socket to laird; the CSP refuses inline and foreign scripts',
	{ skip: !haveChromium && 'no chromium', timeout: 60000 }, async () => {
		const srv = await startLaird({ args: WEB_ROOT });
		const evil = await evilServer(srv.port);
		const browser = await launchBrowser();
		try {
			// Cross-site WebSocket hijacking: refused at the upgrade.
			const ctx = await browser.newContext();
			const page = await ctx.newPage();
			await page.goto(`http://127.0.0.1:${evil.address().port}/`);
			assert.match(await page.evaluate(() => window.result), /^closed 1006$/);
			const m = await srv.get('/metrics');
			assert.match(m.body, /lair_connections_refused_total\{reason="origin"\} 1\n/);

			// The client's own page: CSP violations are reported and nothing runs.
			const p = await newPlayer(browser, srv, { viewport: WIDE });
			await p.page.locator('#name').waitFor();
			const out = await p.page.evaluate(async (evilPort) => {
				const seen = [];
				document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
				const s = document.createElement('script');
				s.textContent = 'window.inlineRan = true;';
				document.body.append(s);
				const ext = document.createElement('script');
				ext.type = 'module';
				ext.src = `http://127.0.0.1:${evilPort}/x.js`;
				document.body.append(ext);
				const div = document.createElement('div');
				div.innerHTML = '<img src="data:," onerror="window.attrRan = true">';
				document.body.append(div);
				await new Promise((r) => setTimeout(r, 300)); // let the refusals be reported
				const scripts = performance.getEntriesByType('resource')
					.filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js')).map((e) => e.name);
				return { inline: !!window.inlineRan, attr: !!window.attrRan, evil: !!window.evilRan, seen,
					scripts: scripts.filter((u) => !u.endsWith('/x.js')), origin: location.origin };
			}, evil.address().port);
			assert.equal(out.inline, false);
			assert.equal(out.attr, false);
			assert.equal(out.evil, false);
			assert.ok(out.seen.some((d) => d.startsWith('script-src')), JSON.stringify(out.seen));
			assert.ok(out.scripts.length >= 5, JSON.stringify(out.scripts));
			for (const s of out.scripts) assert.ok(s.startsWith(out.origin + '/js/'), s);
			// What was refused is what we injected, and nothing else went wrong.
			const others = p.problems.filter((x) => !/Content Security Policy|ERR_BLOCKED|x\.js|\/x$/.test(x));
			assert.deepEqual(others, []);
		} finally {
			await browser.close();
			evil.close();
			await srv.stop();
		}
	});
