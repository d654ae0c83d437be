'use strict';
/*
 * lib/browser.js — the browser tests' Chromium: Debian's /usr/bin/chromium
 * driven by playwright-core (no browser download, ever). Each player is its
 * own browser context (its own localStorage: its own token).
 *
 *   const b = await launchBrowser();               // one headless Chromium
 *   const p = await newPlayer(b, srv, { viewport: { width: 390, height: 844 } });
 *   p.page                                         // the playwright Page, at srv's /
 *   p.problems                                     // console errors, page errors,
 *                                                  // failed requests, CSP reports
 *   await b.close();
 *
 * And what the browser tests share: WIDE and PHONE (the two sizes), shots()
 * (a screenshot at each size under OUT, each checked by pageProblems: the
 * page fits the width, every control has a name, a box that scrolls
 * sideways is in the keyboard's reach), state() and until() (the client's
 * own state, for pacing), register() (a new player from the name form),
 * haveChromium, WEB_ROOT (LAIR_WEB_ROOT=DIR: laird serves DIR).
 *
 * CHROMIUM overrides the path. Launched with the flags a CI box needs:
 * headless, no sandbox (root), no GPU, no network beyond loopback; playwright
 * gives every launch a fresh temporary user-data-dir.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { LAIRD } = require('./laird');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function launchBrowser() {
	return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 60000 });
}

async function newPlayer(browser, srv, { viewport = { width: 1280, height: 800 }, path = '/' } = {}) {
	const context = await browser.newContext({ viewport, reducedMotion: 'no-preference' });
	const page = await context.newPage();
	const problems = [];
	page.on('console', (m) => {
		if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
	});
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	page.on('requestfailed', (r) => {
		// A reload cancels the old page's socket: that is not a fault.
		if (!/ERR_ABORTED/.test(r.failure() && r.failure().errorText)) problems.push(`request failed: ${r.url()} ${r.failure() && r.failure().errorText}`);
	});
	await page.goto(srv.httpUrl + path);
	return { context, page, problems };
}

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

module.exports = { launchBrowser, newPlayer, CHROMIUM, OUT, WIDE, PHONE, haveChromium, WEB_ROOT,
	pageProblems, shots, state, until, register };
