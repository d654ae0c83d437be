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
 * CHROMIUM overrides the path. Launched with the flags a CI box needs:
 * headless, no sandbox (root), no GPU, no network beyond loopback; playwright
 * gives every launch a fresh temporary user-data-dir.
 */
const { chromium } = require('playwright-core');

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

module.exports = { launchBrowser, newPlayer, CHROMIUM };
