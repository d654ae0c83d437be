// kinds/crawl.js — the co-operative roguelike (proto/kinds/crawl.md): the
// level as the party knows it (what is in sight now bright, the rest dim),
// the scoundrels and the monsters in sight drawn over it, your scoundrel's
// pack, your event or shop screen, the party's vote, and the options as
// buttons with roguelike keys (arrows or h j k l to step, . wait, x
// explore, > portal, 1-9 an event option or a purchase).

import { h, fmt, scroller } from '../dom.js';
import { key } from '../table.js';

const STEP_KEYS = {
	ArrowUp: 'n', ArrowRight: 'e', ArrowDown: 's', ArrowLeft: 'w',
	k: 'n', l: 'e', j: 's', h: 'w',
};
const OTHER_KEYS = { '.': 'wait', x: 'explore', '>': 'portal', '<': 'portal', o: 'out', q: 'leave' };

const TILE_WORDS = {
	'#': 'wall', '.': 'floor', '+': 'door', "'": 'open door', '>': 'portal down', '<': 'portal up',
	'_': "the devil's lair", '?': 'a ? tile', $: 'a chest',
};

const ACHIEVEMENTS = {
	devil_slayer: 'Devil Slayer', untouchable: 'Untouchable', alchemist: 'Alchemist',
	deep_pockets: 'Deep Pockets', the_long_way_round: 'The Long Way Round', monster_hunter: 'Monster Hunter',
};

// The key shown on an option's button (and read by onKey).
function optionKey(id) {
	for (const [k, v] of Object.entries(STEP_KEYS)) if (v === id && k.length === 1) return k;
	for (const [k, v] of Object.entries(OTHER_KEYS)) if (v === id) return k;
	const m = /^(event|buy):(\d)$/.exec(id);
	return m ? String(Number(m[2]) + 1) : null;
}

function me(t, v) {
	return t.you !== null && Array.isArray(v.party) ? v.party[t.you] : null;
}

// The map: one line per row, each tile a span so that scoundrels, monsters
// and what is in sight can be coloured; a text summary for screen readers.
function mapView(t, v) {
	const rows = Array.isArray(v.map) ? v.map : [];
	const vis = Array.isArray(v.visible) ? v.visible : [];
	const over = new Map();
	for (const m of v.monsters || []) over.set(`${m.x},${m.y}`, { glyph: m.glyph || 'm', cls: `mon${m.boss ? ' boss' : ''}${m.elite ? ' elite' : ''}` });
	// Scoundrels over monsters, and ours last: on a shared tile you see yourself.
	const party = (v.party || []).map((p, i) => [p, i]).filter(([p]) => p && p.alive && Number.isInteger(p.x));
	party.sort(([, a], [, b]) => (a === t.you) - (b === t.you));
	for (const [p, i] of party) over.set(`${p.x},${p.y}`, { glyph: String(i + 1), cls: `hero${i === t.you ? ' me' : ''}` });
	const pre = h('pre', { class: 'crawl-map', 'aria-hidden': 'true' }, rows.map((row, y) => {
		const spans = [];
		for (let x = 0; x < row.length; x++) {
			const o = over.get(`${x},${y}`);
			const seen = vis[y] && vis[y][x] === 'v';
			if (o) spans.push(h('span', { class: o.cls }, o.glyph));
			else spans.push(h('span', { class: `t${seen ? ' lit' : ''} g${row.charCodeAt(x)}` }, row[x]));
		}
		return [spans, '\n'];
	}));
	const mine = me(t, v);
	const around = (v.monsters || []).map((m) => `${m.name} at ${m.x},${m.y} (${m.hp}/${m.max_hp} HP${m.awake ? '' : ', asleep'})`);
	const summary = `${mine && Number.isInteger(mine.x) ? `You are at ${mine.x},${mine.y}. ` : ''}` +
		(around.length ? `In sight: ${around.join('; ')}.` : 'No monster in sight.');
	return h('section', { class: 'card crawl-map-card', 'aria-labelledby': 'map-h' },
		h('h2', { id: 'map-h' }, `Act ${fmt(v.act)} of ${fmt(v.acts)}`,
			h('span', { class: 'muted small' }, ` · round ${fmt(v.round)}${v.deadly_events ? ' · deadly events' : ''}`)),
		scroller('Map', pre),
		h('p', { class: 'small' }, summary),
		h('p', { class: 'muted small legend' }, Object.entries(TILE_WORDS).map(([g, w]) => `${g} ${w}`).join(' · '),
			' · 1-4 scoundrels · letters: monsters'));
}

function itemName(it) {
	if (!it) return 'empty';
	return `${it.name}${it.bonus ? ` +${it.bonus}` : ''}${it.known === false ? ' (unknown)' : ''}`;
}

function partyView(t, v) {
	const party = Array.isArray(v.party) ? v.party : [];
	return h('section', { class: 'card', 'aria-labelledby': 'party-h' },
		h('h2', { id: 'party-h' }, 'The party'),
		scroller('The party', h('table', { class: 'list' },
			h('thead', {}, h('tr', {}, ['Scoundrel', 'HP', 'Level', 'Gold', 'Attack', 'Defense', 'State', 'Status'].map((c) => h('th', { scope: 'col' }, c)))),
			h('tbody', {}, party.map((p, i) => {
				const st = t.status[i] || 'idle';
				return h('tr', { class: `${i === t.you ? 'mine' : ''} ${p.alive ? '' : 'out'}` },
					h('th', { scope: 'row' }, `${i + 1}. ${t.seatName(i)}${i === t.you ? ' (you)' : ''}`),
					h('td', { class: p.hp * 3 < p.max_hp ? 'bad' : '' }, `${fmt(p.hp)}/${fmt(p.max_hp)}`),
					h('td', {}, fmt(p.level)),
					h('td', {}, fmt(p.gold)),
					h('td', {}, Array.isArray(p.attack) ? `${p.attack[0]}–${p.attack[1]}` : '–'),
					h('td', {}, fmt(p.defense)),
					h('td', {}, p.state === 'gateway' ? `gateway to act ${p.gateway}` : p.state || ''),
					h('td', {}, h('span', { class: `badge ${st}` }, st === 'idle' ? '' : st)));
			})))));
}

function packView(t, v) {
	const p = me(t, v);
	if (!p) return null;
	const inv = Array.isArray(p.inventory) ? p.inventory : [];
	return h('section', { class: 'card', 'aria-labelledby': 'pack-h' },
		h('h2', { id: 'pack-h' }, 'Your pack'),
		h('p', { class: 'small' }, `Weapon: ${itemName(p.weapon)} · armor: ${itemName(p.armor)}` +
			`${p.relics && p.relics.length ? ` · relics: ${p.relics.map((r) => r.name || r).join(', ')}` : ''}${p.pet ? ' · a dog follows you' : ''}`),
		h('ol', { class: 'small pack', start: 0 }, inv.map((it) => h('li', {}, itemName(it)))));
}

// Your event screen, your shop, or the party's vote: the words the
// options need.
function screenView(t, v) {
	const p = me(t, v);
	const ev = (v.vote && v.vote.event) || (p && p.event);
	if (ev) {
		return h('section', { class: 'card crawl-event', 'aria-labelledby': 'ev-h' },
			h('h2', { id: 'ev-h' }, `${v.vote ? 'A vote: ' : ''}${ev.name || 'An event'}`),
			ev.text ? h('p', {}, ev.text) : null,
			v.vote ? h('p', { class: 'muted small' }, `${t.seatName(v.vote.seat)} stepped on it; the whole party votes.`) : null);
	}
	if (p && p.shop) {
		const items = (p.shop.items || []).map((x, i) => x ? `${i + 1}: ${itemName(x.item)} for ${x.price} gold` : `${i + 1}: sold`);
		if (p.shop.relic) items.push(`4: ${p.shop.relic.name} (${p.shop.relic.text || 'a relic'}) for ${p.shop.relic.price} gold`);
		return h('section', { class: 'card crawl-event', 'aria-labelledby': 'shop-h' },
			h('h2', { id: 'shop-h' }, 'A shop'), h('ul', {}, items.map((s) => h('li', {}, s))),
			h('p', { class: 'muted small' }, `You have ${p.gold} gold.`));
	}
	return null;
}

function optionsView(t, app) {
	if (t.you === null) return h('p', { class: 'muted' }, 'You are watching.');
	if (!t.asked) return h('p', { class: 'muted' }, 'Waiting…');
	return h('section', { class: 'card', 'aria-labelledby': 'copts-h' },
		h('h2', { id: 'copts-h' }, `Decision ${t.decision}: your move`),
		h('div', { class: 'options', role: 'group', 'aria-label': 'Your options' }, t.options.map((o) => {
			const id = typeof o === 'string' ? o : o.id;
			const k = optionKey(id);
			const chosen = t.choice !== null && key(t.choice) === id;
			return h('button', { class: `opt ${chosen ? 'chosen' : ''}`, 'aria-pressed': chosen ? 'true' : 'false',
				'aria-keyshortcuts': k || null, 'data-focus': `opt-${id}`, dataset: { choice: id },
				onclick: () => app.choose(id) }, k ? h('kbd', {}, k) : null, (o && o.label) || id);
		})));
}

function render(t, app) {
	const v = t.view || {};
	return h('div', { class: 'crawl' }, screenView(t, v), optionsView(t, app), mapView(t, v), partyView(t, v), packView(t, v));
}

function renderResult(t) {
	const r = t.result || {};
	const ps = Array.isArray(r.players) ? r.players : [];
	return h('div', { class: 'summary' },
		h('p', {}, r.won ? 'The devil is slain: the party wins!' : r.end === 'time' ? 'Out of time: the run is lost.' : 'The whole party fell: the run is lost.'),
		h('p', { class: 'small' }, `${fmt(r.rounds)} rounds, ${fmt(r.acts_reached)} act${r.acts_reached === 1 ? '' : 's'} reached.`),
		scroller('Scores', h('table', { class: 'list summary-table' },
			h('thead', {}, h('tr', {}, ['Scoundrel', 'Score', 'Kills', 'Gold'].map((c) => h('th', { scope: 'col' }, c)))),
			ps.map((p) => h('tbody', { class: p.seat === t.you ? 'mine' : '' },
				h('tr', {}, h('th', { scope: 'row' }, t.seatName(p.seat) + (p.seat === t.you ? ' (you)' : '')),
					h('td', {}, fmt(p.score)), h('td', {}, fmt(p.kills)), h('td', {}, fmt(p.gold))),
				h('tr', { class: 'sub' }, h('td', { colspan: 4, class: 'achievements' },
					(p.achievements || []).length ? `Achievements: ${p.achievements.map((a) => ACHIEVEMENTS[a] || a).join(', ')}`
						: 'No achievement this time.')))))));
}

function eventLine(ev, t) {
	const who = () => (ev.seat === t.you ? 'You' : t.seatName(ev.seat));
	switch (ev.event || ev.type) {
	case 'level': return `— Act ${ev.act}${ev.visit ? ` (visit ${ev.visit + 1})` : ''} —`;
	case 'attack': return `${who()} hit the ${ev.name} for ${ev.damage}.`;
	case 'hit': return `The ${ev.name} hit ${ev.seat === t.you ? 'you' : t.seatName(ev.seat)} for ${ev.damage}.`;
	case 'kill': return `${who()} killed the ${ev.name} (+${ev.xp} XP${ev.gold ? `, +${ev.gold} gold` : ''}).`;
	case 'fall': return `${who()} fell!`;
	case 'revive': return `${who()} stood up again.`;
	case 'level_up': return `${who()} reached level ${ev.level}.`;
	case 'question_mark': return `${who()} stepped on a ?: ${String(ev.room).replace(/_/g, ' ')}.`;
	case 'ambush': return `A ${ev.name} ambushes ${ev.seat === t.you ? 'you' : t.seatName(ev.seat)}!`;
	case 'chest': case 'treasure': return `${who()} found ${ev.gold} gold${ev.relic ? ' and a relic' : ''}.`;
	case 'event': return `${ev.seat === undefined ? 'The party' : who()} meets: ${ev.name}.`;
	case 'vote': return `The party voted: option ${ev.option + 1}${ev.tied ? ' (a tie, settled by chance)' : ''}.`;
	case 'event_choice': return `${ev.seat === undefined ? 'The party' : who()} chose: ${ev.label}.`;
	case 'item': return ev.slot < 0 ? `${who()} had no room for the ${itemName(ev.item)}.` : `${who()} got a ${itemName(ev.item)}.`;
	case 'use': return `${who()} used the ${itemName(ev.item)}.`;
	case 'equip': return `${who()} equipped the ${itemName(ev.item)}.`;
	case 'identify': return `It was a ${itemName(ev.item)}.`;
	case 'relic': return `${who()} got a relic: ${ev.relic && ev.relic.name ? ev.relic.name : ev.relic}.`;
	case 'gateway': return ev.to_act === null ? `${who()} stepped out of the gateway.` : `${who()} waits in the gateway to act ${ev.to_act}.`;
	case 'devil': return 'The devil wakes!';
	case 'game_over': return ev.end === 'won' ? 'The devil is slain!' : 'The run is over.';
	default: return null;
	}
}

function choiceLabel(c, t) {
	const id = key(c);
	const o = Array.isArray(t.options) ? t.options.find((x) => x && x.id === id) : null;
	if (o && o.label) return o.label;
	const words = { n: 'step north', e: 'step east', s: 'step south', w: 'step west', wait: 'wait', explore: 'explore', portal: 'portal', out: 'step out', leave: 'leave the shop' };
	return words[id] || id;
}

function onKey(ev, t, app) {
	if (!t.asked) return false;
	const want = STEP_KEYS[ev.key] || OTHER_KEYS[ev.key] || (/^[1-9]$/.test(ev.key) ? Number(ev.key) - 1 : null);
	if (want === null || want === undefined) return false;
	const ids = t.options.map((o) => (typeof o === 'string' ? o : o.id));
	let id = typeof want === 'string' ? want : null;
	if (typeof want === 'number') id = ids.find((x) => x === `event:${want}` || x === `buy:${want}`) || null;
	if (!id || !ids.includes(id)) return false;
	app.choose(id);
	return true;
}

export default { label: 'Crawl', eventLine, render, renderResult, choiceLabel, onKey };
