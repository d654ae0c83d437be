// kinds/deepfall.js — delve-companies on a rising doom clock
// (proto/kinds/deepfall.md): the Maw (speed this round and last, the floors
// it eats), the board of floors and rooms (what each pays and is worth, a
// floor's waiting plunder, every seat's markers and assault progress), the
// parties and their turn, a log line for every event of the doc, and the
// choice form. The form is drawn from the option descriptor the server
// sends (kinds/form.js), so a field the kind adds appears without a change
// here; the words below explain the ones we know.

import { h, fmt, scroller } from '../dom.js';
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

function plural(n, one, many = `${one}s`) {
	return `${fmt(n)} ${n === 1 ? one : many}`;
}

// The Maw as the view has it (deepfall.md): where it stands, its carried
// progress, this round's speed so far and last round's, and the floors it
// eats at the end of this round if nothing more is rolled.
function mawWords(t, v) {
	const maw = v.maw || {};
	const parts = [`frontier floor ${fmt(maw.frontier)}`, `progress ${fmt(maw.accum, 2)}`,
		`speed ${fmt(maw.speed, 2)} this round (${fmt(maw.last_speed, 2)} last round)`];
	if (Number.isInteger(maw.falls))
		parts.push(maw.falls > 0 ? `eats ${plural(maw.falls, 'floor')} at the round's end`
			: 'eats no floor this round so far');
	if (Number.isInteger(v.start_seat)) parts.push(`acts resolve from ${t.seatName(v.start_seat)}`);
	return `the Maw: ${parts.join(', ')}`;
}

// A seat's stake in a room: its strength for the majority, and what makes
// it (the active party's marker, Fallen markers, the assault kept).
function marker(t, m) {
	const bits = [`active ${fmt(m.active)}`, `fallen ${fmt(m.fallen)}`];
	const assault = [m.assault_steel ? `${m.assault_steel} steel` : '', m.assault_cunning ? `${m.assault_cunning} cunning` : '']
		.filter(Boolean).join(', ');
	return h('span', { class: `marker ${seatColor(m.seat)}`, title: `${t.seatName(m.seat)}: strength ${fmt(m.strength)} (${bits.join(', ')})` },
		`${t.seatName(m.seat)} ${fmt(m.strength)}${m.fallen ? ` (${fmt(m.fallen)} fallen)` : ''}${assault ? ` · assault ${assault} kept` : ''}`);
}

function room(t, r) {
	const needs = [`threat ${fmt(r.threat)}`];
	if (r.lock) needs.push(`lock ${fmt(r.lock)}`);
	if (r.produces && r.produces !== 'none') needs.push(`makes ${r.produces}`);
	return h('li', { class: `df-room ${r.alive ? '' : 'dead'} ${r.theme}`, dataset: { room: String(r.id) } },
		h('b', {}, r.theme), ` pays ${fmt(r.pays)}`, h('span', { class: 'small muted' }, ` (value ${fmt(r.value)})`),
		r.alive ? null : h('span', { class: 'small' }, ' gone'),
		h('span', { class: 'small muted' }, ` · ${needs.join(', ')}`),
		(r.markers || []).length ? h('span', { class: 'markers' }, r.markers.map((m) => marker(t, m))) : null);
}

function board(t, v) {
	const floors = Array.isArray(v.floors) ? v.floors : [];
	const maw = v.maw || {};
	return h('section', { class: 'card df-board', 'aria-labelledby': 'board-h' },
		h('h2', { id: 'board-h' }, `Round ${fmt(v.round)}`,
			h('span', { class: 'muted small df-maw' }, ` · ${mawWords(t, v)}`)),
		h('ol', { class: 'floors' }, floors.map((f) => h('li', { class: `floor ${f.collapsed ? 'collapsed' : ''} ${f.floor === maw.frontier ? 'frontier' : ''}`, dataset: { floor: String(f.floor) } },
			h('span', { class: 'floor-n' }, `Floor ${f.floor}${f.collapsed ? ' (eaten)' : f.floor === maw.frontier ? ' (frontier)' : ''}`),
			f.plunder > 0 ? h('span', { class: 'small df-plunder' }, ` · ${fmt(f.plunder)} plunder waiting (it rises when the floor falls)`) : null,
			h('ul', { class: 'rooms' }, (f.rooms || []).map((r) => room(t, r)))))));
}

function counts(o) {
	return Object.entries(o || {}).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(', ');
}

// A party's turn so far (a turn in steps): hands rolled, the dice in hand,
// the faces rolled, what the act would resolve with, and the act once given.
function turnWords(turn) {
	const parts = [`${plural(turn.hands, 'hand')}, ${plural(turn.dice, 'die', 'dice')} in hand` +
		(counts(turn.hand) ? ` (${counts(turn.hand)})` : '')];
	parts.push(`rolled ${counts(turn.rolled) || 'nothing'}`);
	parts.push(`acts with ${counts(turn.symbols) || 'nothing'}`);
	if (turn.setbacks) parts.push(`${plural(turn.setbacks, 'setback')} coming`);
	if (turn.trinity) parts.push('Steel, Cunning and Faith rolled');
	if (turn.stand_offered) parts.push('a Last Stand is offered');
	if (turn.acted && turn.act) parts.push(`acted: ${choiceLabel(turn.act)}`);
	return parts.join(' · ');
}

function partyWords(p) {
	const pa = p.party;
	const sofar = `${plural(p.parties, 'party', 'parties')} so far`;
	if (!pa) return `none (a new one next round) · ${sofar}`;
	const bits = [`${pa.lineage} ${pa.calling}${pa.last_stand ? ' (Last Stand)' : ''}`, sofar,
		`draws ${fmt(pa.hand_size)}`, plural(pa.moves, 'free step')];
	const anger = counts(pa.anger);
	if (anger) bits.push(`anger: ${anger}`);
	return bits.join(' · ');
}

function diceWords(pa) {
	const bits = [`bag: ${counts(pa.bag) || 'empty'}`];
	if (counts(pa.discard)) bits.push(`discard: ${counts(pa.discard)}`);
	if (counts(pa.wounded)) bits.push(`wounded: ${counts(pa.wounded)}`);
	return bits.join(' · ');
}

function parties(t, v) {
	const ps = Array.isArray(v.players) ? v.players : [];
	return h('section', { class: 'card', 'aria-labelledby': 'parties-h' },
		h('h2', { id: 'parties-h' }, 'Companies'),
		scroller('Companies', h('table', { class: 'list' },
			h('thead', {}, h('tr', {}, ['Player', 'Glory', 'Party', 'Floor', 'Unbanked', 'Dice', 'This turn', 'Status'].map((c) => h('th', { scope: 'col' }, c)))),
			h('tbody', {}, ps.map((p, i) => {
				const pa = p.party;
				const st = t.status[i] || 'idle';
				return h('tr', { class: i === t.you ? 'mine' : '', dataset: { seat: String(i) } },
					h('th', { scope: 'row' }, h('span', { class: `dot ${seatColor(i)}`, 'aria-hidden': 'true' }), t.seatName(i) + (i === t.you ? ' (you)' : '')),
					h('td', {}, fmt(p.glory)),
					h('td', { class: 'small wrap' }, partyWords(p)),
					h('td', {}, pa ? `${pa.floor} (deepest ${pa.deepest})` : '–'),
					h('td', {}, pa ? fmt(pa.unbanked) : '–'),
					h('td', { class: 'small wrap' }, pa ? diceWords(pa) : '–'),
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
		scroller('Scores', h('table', { class: 'list' },
			h('thead', {}, h('tr', {}, ['Player', 'Glory', '', 'Cash-outs', 'Worthy Ends', 'Taken', 'Claims', 'Deepest'].map((c) => h('th', { scope: 'col' }, c)))),
			h('tbody', {}, ps.map((p) => h('tr', { class: `${winners.has(p.seat) ? 'winner' : ''} ${p.seat === t.you ? 'mine' : ''}` },
				h('th', { scope: 'row' }, t.seatName(p.seat) + (p.seat === t.you ? ' (you)' : '')),
				h('td', {}, fmt(p.glory)), h('td', {}, winners.has(p.seat) ? '★ winner' : ''),
				h('td', {}, fmt(p.cash_outs)), h('td', {}, fmt(p.worthy_ends)), h('td', {}, fmt(p.taken)),
				h('td', {}, fmt(p.claims)), h('td', {}, fmt(p.deepest))))))));
}

// A room of an event by its id, as the board names it: "the vault on
// floor 5" (the view keeps every floor's rooms, eaten ones too).
function roomName(t, id) {
	for (const f of (t.view && Array.isArray(t.view.floors) ? t.view.floors : []))
		for (const r of f.rooms || [])
			if (r.id === id) return `the ${r.theme} on floor ${f.floor}`;
	return `room ${fmt(id)}`;
}

// One log line per event of deepfall.md's table, with its fields in words.
function eventLine(ev, t) {
	const who = () => (ev.seat === t.you ? 'You' : t.seatName(ev.seat));
	switch (ev.event || ev.type) {
	case 'draft': return `${who()}: a ${ev.lineage} ${ev.calling} company enters at floor ${fmt(ev.floor)}.`;
	case 'round': return `— Round ${fmt(ev.round)}: acts resolve from ${t.seatName(ev.start_seat)} —`;
	case 'roll': {
		const faces = ['steel', 'cunning', 'faith', 'greed', 'mettle', 'dread']
			.filter((f) => ev[f]).map((f) => `${fmt(ev[f])} ${f}`).join(', ');
		return `${who()} rolled hand ${fmt(ev.hand)} (${plural(ev.dice, 'die', 'dice')}): ${faces || 'nothing'}.`;
	}
	case 'dread': return `${who()}: ${fmt(ev.rolled)} Dread, ${fmt(ev.cancelled)} cancelled, ${fmt(ev.to_mettle)} turned to Mettle.`;
	case 'setback': return ev.shrugged ? `${who()} shrugged off a setback.`
		: `${who()} suffered a setback: ${plural(ev.dice_lost, 'die', 'dice')} and ${fmt(ev.loot_lost)} loot lost.`;
	case 'last_stand': return `${who()} declared a Last Stand (${ev.mettle ? `${fmt(ev.mettle)} Mettle paid` : 'free'}).`;
	case 'move': return `${who()} moved from floor ${fmt(ev.from)} to ${fmt(ev.to)}${ev.bought ? ` (${plural(ev.bought, 'step')} bought)` : ''}.`;
	case 'claim': return `${who()} claimed ${roomName(t, ev.room)}: strength ${fmt(ev.strength)}, +${fmt(ev.loot)} loot.`;
	case 'assault': return `${who()} assaulted ${roomName(t, ev.room)}: ${fmt(ev.steel)} steel and ${fmt(ev.cunning)} cunning kept.`;
	case 'loot': return `${who()} looted ${fmt(ev.loot)} (${fmt(ev.unbanked)} unbanked).`;
	case 'recruit': return `${who()} recruited a ${ev.die} die.`;
	case 'heal': return `${who()} healed a ${ev.die} die.`;
	case 'cash_out': return `${who()} cashed out${ev.forced ? ', forced by the Maw,' : ''} from deepest floor ${fmt(ev.deepest)}: banked ${fmt(ev.banked)}, glory now ${fmt(ev.glory)}.`;
	case 'collapse': return `The Maw ate floor ${fmt(ev.floor)}!`;
	case 'worthy_end': return `${who()} made a Worthy End on floor ${fmt(ev.floor)}: +${fmt(ev.payout)} glory, ${plural(ev.rooms_consumed, 'room')} consumed.`;
	case 'room_scored': return ev.seat === undefined ? `Nobody held ${roomName(t, ev.room)}.`
		: `${who()} scored ${roomName(t, ev.room)}: +${fmt(ev.glory)}${ev.holders > 1 ? ` (split ${fmt(ev.holders)} ways)` : ''}.`;
	case 'value_rise': return ev.waits ? `Plunder worth ${fmt(ev.glory)} rose to floor ${fmt(ev.floor)} and waits there: no room is left alive.`
		: `Plunder worth ${fmt(ev.glory)} rose to floor ${fmt(ev.floor)}.`;
	case 'plunder_fled': return ev.waits ? `Plunder worth ${fmt(ev.glory)} fled the Worthy End and waits on floor ${fmt(ev.floor)}: no room is left alive.`
		: `Plunder worth ${fmt(ev.glory)} fled the Worthy End to the rooms of floor ${fmt(ev.floor)}.`;
	case 'taken': return `${who()}'s company was taken by the Maw: ${fmt(ev.loot_lost)} loot and ${plural(ev.rooms_lost, 'room')} lost.`;
	case 'maw': return `The Maw: speed ${fmt(ev.speed, 2)}, progress ${fmt(ev.accum, 2)}, frontier floor ${fmt(ev.frontier)}.`;
	case 'game_over': return `Game over after ${fmt(ev.rounds)} rounds: ${(Array.isArray(ev.winners) ? ev.winners : []).map((s) => t.seatName(s)).join(' and ') || 'no winner'} won.`;
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
