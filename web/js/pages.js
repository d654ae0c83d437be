// pages.js — the pages around the games (PROTOCOL.md §8): a player's
// statistics and achievements for any kind, the server's records and
// totals, the rules for newcomers (static pages under /rules/), and your
// own player: its name (rename, §4) and where its key lives.
// Replies are fetched once per address and kept until the address changes
// or a game ends (then they are asked again).

import { h, fmt, scroller } from './dom.js';
import { kindNames, kindView } from './kinds/index.js';
import { keep } from './lobby.js';

function load(app, keyName, fetcher) {
	app.pages = app.pages || new Map();
	if (!app.pages.has(keyName)) {
		app.pages.set(keyName, null);
		fetcher().then((v) => {
			app.pages.set(keyName, v);
			app.render();
		});
	}
	return app.pages.get(keyName);
}

function kindPicker(current, href) {
	return h('nav', { class: 'tabs', 'aria-label': 'Game' }, kindNames().map((k) =>
		h('a', { href: href(k), 'aria-current': k === current ? 'page' : null }, kindView(k).label)));
}

function valueText(v) {
	if (v === null || v === undefined) return '–';
	if (typeof v === 'number') return fmt(v, 2);
	if (typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k.replace(/_/g, ' ')}: ${valueText(x)}`).join(', ');
	return String(v);
}

function statsTable(label, stats) {
	return scroller(label, h('table', { class: 'list stats', 'aria-label': label },
		h('tbody', {}, (stats || []).map((s) => h('tr', {}, h('th', { scope: 'row' }, s.label || s.key),
			h('td', {}, valueText(s.value)))))));
}

export function renderStats(app, name, kind) {
	const me = app.s.player ? app.s.player.name : '';
	const who = name || me;
	const input = h('input', { id: 'stats-name', name: 'player', value: who, maxlength: 24, required: true });
	const form = h('form', { class: 'row', onsubmit: (ev) => {
		ev.preventDefault();
		location.hash = `#/stats/${encodeURIComponent(input.value.trim())}?kind=${kind}`;
	} }, h('label', { for: 'stats-name' }, 'Player'), input, h('button', { type: 'submit' }, 'Show'));
	const out = [h('h1', {}, `Statistics: ${who}`), kindPicker(kind, (k) => `#/stats/${encodeURIComponent(who)}?kind=${k}`), form];
	if (!app.s.up) return h('div', { class: 'page' }, out, h('p', { class: 'muted' }, 'Connecting…'));
	const data = load(app, `stats/${who}/${kind}`, async () => {
		const [st, ach] = await Promise.all([
			app.s.request('stats', { player: who, kind }),
			app.s.request('achievements', { player: who, kind })]);
		return { st, ach };
	});
	if (!data) return h('div', { class: 'page' }, out, h('p', { class: 'muted' }, 'Loading…'));
	if (data.st.type === 'error') return h('div', { class: 'page' }, out, h('p', { class: 'notice', role: 'alert' }, data.st.message));
	out.push(h('section', { class: 'card', 'aria-labelledby': 'st-h' },
		h('h2', { id: 'st-h' }, `${kindView(kind).label}: ${data.st.games} game${data.st.games === 1 ? '' : 's'}`),
		statsTable('Statistics', data.st.stats)));
	if (data.ach.type === 'achievements')
		out.push(h('section', { class: 'card', 'aria-labelledby': 'ach-h' },
			h('h2', { id: 'ach-h' }, 'Achievements'),
			h('ul', { class: 'achievements-list' }, data.ach.achievements.map((a) =>
				h('li', { class: a.count > 0 ? 'earned' : 'not-earned' },
					h('b', {}, a.label || a.key), a.count > 0 ? ` ×${a.count}` : ' — not yet')))));
	return h('div', { class: 'page' }, out);
}

export function renderRecords(app, kind) {
	const out = [h('h1', {}, 'Records'), kindPicker(kind, (k) => `#/records/${k}`)];
	if (!app.s.up) return h('div', { class: 'page' }, out, h('p', { class: 'muted' }, 'Connecting…'));
	const data = load(app, `records/${kind}`, async () => {
		const [rec, tot] = await Promise.all([
			app.s.request('records', { kind }), app.s.request('server_stats', { kind })]);
		return { rec, tot };
	});
	if (!data) return h('div', { class: 'page' }, out, h('p', { class: 'muted' }, 'Loading…'));
	if (data.rec.type === 'records')
		out.push(h('section', { class: 'card', 'aria-labelledby': 'rec-h' }, h('h2', { id: 'rec-h' }, 'Server records'),
			h('dl', { class: 'facts wide' }, Object.entries(data.rec.records || {}).map(([k, v]) =>
				[h('dt', {}, k.replace(/_/g, ' ')), h('dd', {}, valueText(v))]))));
	if (data.tot.type === 'server_stats')
		out.push(h('section', { class: 'card', 'aria-labelledby': 'tot-h' },
			h('h2', { id: 'tot-h' }, `All games on this server: ${data.tot.games}`), statsTable('Server totals', data.tot.stats)));
	return h('div', { class: 'page' }, out);
}

export function renderRules() {
	return h('div', { class: 'page' }, h('h1', {}, 'Rules'),
		h('p', {}, 'New here? Each game has a page for newcomers:'),
		h('ul', { class: 'big-links' }, kindNames().map((k) =>
			h('li', {}, h('a', { href: `/rules/${k}.html` }, `How to play ${kindView(k).label}`)))));
}

export function renderPlayer(app) {
	const p = app.s.player;
	if (!p) return h('div', { class: 'page' }, h('h1', {}, 'Your player'), h('p', { class: 'muted' }, 'Connecting…'));
	const input = keep(app, 'rename', () => h('input', { id: 'rename', name: 'name', required: true, maxlength: 24,
		pattern: '[A-Za-z0-9][A-Za-z0-9_.\\-]{0,23}', autocomplete: 'nickname', value: p.name,
		'aria-describedby': 'rename-help' }));
	const form = h('form', { class: 'card narrow', onsubmit: async (ev) => {
		ev.preventDefault();
		const name = input.value.trim();
		const r = await app.act('rename', { name });
		if (r.type === 'ok') {
			app.s.renamed(name);
			app.say(`You are ${name} now.`);
		}
	} },
	h('label', { for: 'rename' }, 'Your name'), input,
	h('p', { id: 'rename-help', class: 'muted small' }, '1–24 letters, digits, _ - . Your statistics, ' +
		'achievements and key stay yours. Not while you sit at or watch a table: leave it first.'),
	h('button', { type: 'submit', class: 'primary' }, 'Rename'));
	return h('div', { class: 'page' }, h('h1', {}, `Your player: ${p.name}`), form,
		h('p', { class: 'muted small' }, 'This browser keeps your player\'s key (its local storage, for this ' +
			'server only): another browser, or this one with its storage cleared, is a new player.'),
		h('p', {}, h('a', { href: `#/stats/${encodeURIComponent(p.name)}` }, 'Your statistics and achievements')));
}

// After a game the numbers change: ask again next time.
export function forgetPages(app) {
	if (app.pages) app.pages.clear();
}
