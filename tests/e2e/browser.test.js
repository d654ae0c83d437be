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
 * Each kind's screen is in browser_kinds.test.js. LAIR_WEB_ROOT=DIR serves
 * DIR instead of the built-in files (to try an edit of web/ without a
 * rebuild).
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
const { startLaird } = require('./lib/laird');
const { launchBrowser, newPlayer, WIDE, PHONE, haveChromium, WEB_ROOT, shots, state, until, register } =
	require('./lib/browser');

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
