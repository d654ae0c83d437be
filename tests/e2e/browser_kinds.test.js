'use strict';
/*
 * browser_kinds.test.js — each game kind's screen in a real headless
 * Chromium (lib/browser.js) against a real laird, and drawn from its doc:
 *   - gems.md's example view, read from the doc, drawn by the served module:
 *     every field where a player looks, and Three Card Monte face up, face
 *     down, then swap by swap (the page's clock moved by the test) to the
 *     layout of the doc's monte_reveal (G17);
 *   - deepfall's choice form sends a choice the server accepts; its board
 *     shows the view the page holds (the Maw, every room's pay and value),
 *     and deepfall.md's view example, drawn by the served module, shows
 *     every field where the doc says;
 *   - crawl: the map, the party, the pack, and a move by key.
 * Screenshots at both sizes go where browser.test.js puts its own.
 * The whole games, the connection and the attacks are in browser.test.js.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { startLaird } = require('./lib/laird');
const { launchBrowser, newPlayer, PHONE, haveChromium, WEB_ROOT, shots, state, until, register } =
	require('./lib/browser');

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
			// The Monte's timers run when the test says: an installed clock
			// still flows with real time, so it is paused before the Monte
			// starts (a loaded machine fired a swap early between two steps).
			await page.clock.install({ time: 0 });
			await page.goto(srv.httpUrl + '/');
			await page.locator('#name').waitFor();
			await page.clock.pauseAt(await page.evaluate(() => Date.now()) + 1000);
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
			await shots(A.page, 'crawl');
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
