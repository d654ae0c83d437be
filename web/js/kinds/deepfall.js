// kinds/deepfall.js — delve-companies on a rising doom clock
// (proto/kinds/deepfall.md): the Maw, the board of floors and rooms with
// every seat's markers, the parties, and the choice form. The form is drawn
// from the option descriptor the server sends (kinds/form.js), so a field
// the kind adds appears without a change here; the words below explain the
// ones we know.

import { h, fmt } from '../dom.js';
import { choiceForm, keptForm } from './form.js';

const WORDS = {
	target: { label: 'Target floor', help: 'the floor your party moves toward this turn',
		initial: (d) => d.max },
	press: { label: 'Press', help: 'extra hands to draw: more symbols, more Dread, a faster Maw',
		initial: () => 0 },
	recruit: { label: 'Recruit a die', help: "buy one die of your Calling's kind if you roll the Mettle" },
	exit: { label: 'At the end of the turn', values: { persist: 'Stay on the board',
		cash_out: 'Cash out (bank your loot)', last_stand: 'Declare a Last Stand' } },
};

const EXIT_WORDS = { persist: 'stays', cash_out: 'cashes out', last_stand: 'makes a Last Stand' };

function seatColor(i) {
	return `c${i % 9}`;
}

function board(t, v) {
	const floors = Array.isArray(v.floors) ? v.floors : [];
	const maw = v.maw || {};
	return h('section', { class: 'card df-board', 'aria-labelledby': 'board-h' },
		h('h2', { id: 'board-h' }, `Round ${fmt(v.round)}`,
			h('span', { class: 'muted small' }, ` · the Maw: frontier floor ${fmt(maw.frontier)}, progress ${fmt(maw.accum, 2)}, ` +
				(maw.speed !== undefined ? `speed this round ${fmt(maw.speed, 2)}${maw.falls ? `, eats ${maw.falls} floor${maw.falls > 1 ? 's' : ''}` : ''}`
					: `next speed ≈ ${fmt(maw.next_speed_estimate, 2)}`))),
		h('ol', { class: 'floors' }, floors.map((f) => h('li', { class: `floor ${f.collapsed ? 'collapsed' : ''} ${f.floor === maw.frontier ? 'frontier' : ''}` },
			h('span', { class: 'floor-n' }, `Floor ${f.floor}${f.collapsed ? ' (eaten)' : f.floor === maw.frontier ? ' (frontier)' : ''}`),
			h('ul', { class: 'rooms' }, (f.rooms || []).map((r) => h('li', { class: `df-room ${r.alive ? '' : 'dead'} ${r.theme}` },
				h('b', {}, r.theme), ` ${r.value} glory`,
				h('span', { class: 'small muted' }, ` · threat ${r.threat}${r.lock ? `, lock ${r.lock}` : ''}${r.produces && r.produces !== 'none' ? `, makes ${r.produces}` : ''}`),
				(r.markers || []).length ? h('span', { class: 'markers' }, r.markers.map((m) =>
					h('span', { class: `marker ${seatColor(m.seat)}`, title: `${t.seatName(m.seat)}: strength ${m.strength}` },
						`${t.seatName(m.seat)} ${m.strength}`))) : null)))))));
}

function counts(o) {
	return Object.entries(o || {}).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(', ');
}

// A party's turn so far (a turn in steps): hands rolled, what the act
// would resolve with, and the act once given.
function turnWords(turn) {
	const parts = [`${turn.hands} hand${turn.hands === 1 ? '' : 's'}`];
	const sym = counts(turn.symbols);
	if (sym) parts.push(sym);
	if (turn.setbacks) parts.push(`${turn.setbacks} setback${turn.setbacks > 1 ? 's' : ''} coming`);
	if (turn.acted && turn.act) parts.push(`acted: ${choiceLabel(turn.act)}`);
	return parts.join(' · ');
}

function parties(t, v) {
	const ps = Array.isArray(v.players) ? v.players : [];
	return h('section', { class: 'card', 'aria-labelledby': 'parties-h' },
		h('h2', { id: 'parties-h' }, 'Companies'),
		h('div', { class: 'scroll' }, h('table', { class: 'list' },
			h('thead', {}, h('tr', {}, ['Player', 'Glory', 'Party', 'Floor', 'Unbanked', 'Bag', 'This turn', 'Status'].map((c) => h('th', { scope: 'col' }, c)))),
			h('tbody', {}, ps.map((p, i) => {
				const pa = p.party;
				const st = t.status[i] || 'idle';
				return h('tr', { class: i === t.you ? 'mine' : '' },
					h('th', { scope: 'row' }, h('span', { class: `dot ${seatColor(i)}`, 'aria-hidden': 'true' }), t.seatName(i) + (i === t.you ? ' (you)' : '')),
					h('td', {}, fmt(p.glory)),
					h('td', {}, pa ? `${pa.lineage} ${pa.calling}${pa.last_stand ? ' (Last Stand)' : ''}` : 'none (a new one next round)'),
					h('td', {}, pa ? `${pa.floor} (deepest ${pa.deepest})` : '–'),
					h('td', {}, pa ? fmt(pa.unbanked) : '–'),
					h('td', { class: 'small' }, pa && pa.bag ? counts(pa.bag) || 'empty' : '–'),
					h('td', { class: 'small wrap' }, pa && pa.turn ? turnWords(pa.turn) : '–'),
					h('td', {}, h('span', { class: `badge ${st}` }, st === 'idle' ? '' : st)));
			})))));
}

// The orders. Two shapes of turn are understood: one choice object for the
// whole turn (press as a number of extra hands), or a turn in steps where
// the descriptor's `press` is a yes/no (may you roll one more hand now?):
// then "Press" sends {press: true} and the form sends the act that ends
// the turn (target, recruit, exit).
function form(t, app) {
	if (t.you === null) return h('p', { class: 'muted' }, 'You are watching.');
	if (!t.asked) return h('p', { class: 'muted' }, 'Waiting…');
	const desc = { ...t.options[0] };
	const stepwise = typeof desc.press === 'boolean';
	const canPress = stepwise && desc.press;
	if (stepwise) delete desc.press;
	const hands = Number.isInteger(desc.hands) ? desc.hands : null;
	delete desc.hands;
	return h('section', { class: 'card', 'aria-labelledby': 'df-form-h' },
		h('h2', { id: 'df-form-h' }, `Round ${t.decision}: your orders`),
		hands !== null ? h('p', { class: 'small' }, `Hands rolled this turn: ${hands}.`) : null,
		t.choice !== null ? h('p', { class: 'muted small' }, `Sent: ${choiceLabel(t.choice)}. You may change it.`) : null,
		canPress ? h('p', {}, h('button', { class: 'press', 'data-focus': 'df-press',
			onclick: () => app.choose({ press: true }) }, 'Press: roll one more hand'),
		h('span', { class: 'help' }, ' more symbols, more Dread, a faster Maw; or act below to end your turn')) : null,
		keptForm(app.ui, `${t.id}/${t.decision}`, () => choiceForm(desc, t.choice && t.choice.press ? null : t.choice,
			(c) => app.choose(stepwise ? { ...c, press: false } : c),
			{ words: WORDS, prefix: `df${t.decision}`, submitLabel: stepwise ? 'Act and end my turn' : 'Send my orders' })));
}

function render(t, app) {
	const v = t.view || {};
	return h('div', { class: 'deepfall' }, form(t, app), board(t, v), parties(t, v));
}

function renderResult(t) {
	const r = t.result || {};
	const ps = Array.isArray(r.players) ? r.players.slice() : [];
	const winners = new Set(r.winners || []);
	ps.sort((a, b) => b.glory - a.glory);
	return h('div', { class: 'summary' },
		h('p', {}, `${fmt(r.rounds)} rounds; margin ${fmt(r.margin)} glory.`),
		h('div', { class: 'scroll' }, h('table', { class: 'list' },
			h('thead', {}, h('tr', {}, ['Player', 'Glory', '', 'Cash-outs', 'Worthy Ends', 'Taken', 'Claims', 'Deepest'].map((c) => h('th', { scope: 'col' }, c)))),
			h('tbody', {}, ps.map((p) => h('tr', { class: `${winners.has(p.seat) ? 'winner' : ''} ${p.seat === t.you ? 'mine' : ''}` },
				h('th', { scope: 'row' }, t.seatName(p.seat) + (p.seat === t.you ? ' (you)' : '')),
				h('td', {}, fmt(p.glory)), h('td', {}, winners.has(p.seat) ? '★ winner' : ''),
				h('td', {}, fmt(p.cash_outs)), h('td', {}, fmt(p.worthy_ends)), h('td', {}, fmt(p.taken)),
				h('td', {}, fmt(p.claims)), h('td', {}, fmt(p.deepest))))))));
}

function eventLine(ev, t) {
	const who = () => (ev.seat === t.you ? 'You' : t.seatName(ev.seat));
	switch (ev.event || ev.type) {
	case 'draft': return `${who()}: a ${ev.lineage} ${ev.calling} company enters at floor ${ev.floor}.`;
	case 'round': return `— Round ${ev.round} —`;
	case 'move': return `${who()} moved from floor ${ev.from} to ${ev.to}.`;
	case 'claim': return `${who()} claimed room ${ev.room} (+${ev.loot} loot).`;
	case 'setback': return `${who()} suffered a setback.`;
	case 'cash_out': return `${who()} cashed out: +${ev.glory} glory.`;
	case 'last_stand': return ev.declared ? `${who()} declared a Last Stand.` : `${who()} could not afford a Last Stand.`;
	case 'collapse': return `The Maw ate floor ${ev.floor}!`;
	case 'worthy_end': return `${who()} made a Worthy End: +${ev.payout} glory.`;
	case 'taken': return `${who()}'s company was taken by the Maw.`;
	case 'room_scored': return ev.seat !== undefined ? `${who()} scored room ${ev.room}: +${ev.glory}.` : null;
	case 'game_over': return `Game over after ${ev.rounds} rounds.`;
	default: return null;
	}
}

function choiceLabel(c) {
	if (!c || typeof c !== 'object') return String(c);
	if (c.press === true) return 'press on';
	const parts = [];
	if (c.target !== undefined) parts.push(`floor ${c.target}`);
	if (typeof c.press === 'number' && c.press) parts.push(`press ${c.press}`);
	if (c.recruit) parts.push('recruit');
	if (c.exit) parts.push(EXIT_WORDS[c.exit] || c.exit);
	for (const [k, v] of Object.entries(c))
		if (!['target', 'press', 'recruit', 'exit'].includes(k)) parts.push(`${k} ${JSON.stringify(v)}`);
	return parts.join(', ');
}

export default { label: 'Deepfall', eventLine, render, renderResult, choiceLabel };
