// kinds/gems.js — the gem dungeon (proto/kinds/gems.md): the dungeon path
// so far, the room you are in, the floor, every seat's hand / chest / bars /
// status, the hand icon (lair odds, rumored gems, EV, take), the options as
// buttons with one-key shortcuts (the same keys as `lair play`), Three Card
// Monte's shuffle animated swap by swap, and the end summary.

import { h, fmt, scroller } from '../dom.js';
import { key } from '../table.js';
import { optionButtons } from './generic.js';

const KEYS = {
	leave: 'L', stay: 'S', bank4: '4', bank8: '8', bank12: 'T', sun: 'U', moon: 'M', pay: 'P',
	card1: '1', card2: '2', card3: '3', left: 'A', right: 'D', eat: 'E', devil3: 'X',
	devil4: 'Y', devil5: 'Z', carry: 'C',
};

export const ADVENTURES = {
	banker: 'the Banker', sun_moon: 'the Sun & the Moon', ferryman: 'the Ferryman',
	monte: 'Three Card Monte', sphinx: 'the Sphinx', scout: 'the Scout', mushroom: 'the Mushroom',
	poison: 'the Poison', devil: 'the Devil', little_people: 'the Little People',
};

export const ACHIEVEMENTS = {
	highest_score: 'Highest Score', deepest_explorer: 'Deepest Explorer',
	most_gems_lost: 'Most Gems Lost', bold: 'Bold', timid: 'Timid', psychic: 'Psychic', skynet: 'Skynet',
};

const SHORT_LABELS = {
	leave: 'Leave', stay: 'Stay', bank4: 'Bank 4 gems', bank8: 'Bank 8 gems', bank12: 'Bank 12 gems',
	sun: 'Stand on the Sun', moon: 'Stand on the Moon', pay: 'Pay the Ferryman', card1: 'Card #1',
	card2: 'Card #2', card3: 'Card #3', left: 'Go left', right: 'Go right', eat: 'Eat the mushroom',
	devil3: 'Devil: 3 rooms', devil4: 'Devil: 4 rooms', devil5: 'Devil: 5 rooms', carry: 'Carry a little person',
};

const MONTE_STEP_MS = 650;
const MONTE_SHOW_MS = 1400;

function adv(id) {
	return ADVENTURES[id] || id || '?';
}

function plural(n, one, many = one + 's') {
	return `${n} ${n === 1 ? one : many}`;
}

// One room of the path: a short token and its words.
function roomToken(r) {
	switch (r.kind) {
	case 'gem': return [`${r.gems}`, `${plural(r.gems, 'gem')}`];
	case 'bar': return [`$${r.value}`, `a gold bar worth $${r.value}`];
	case 'warning': return ['!', r.message || 'a warning'];
	case 'lair': return ['LAIR', "the spider's lair"];
	case 'dead_spider': return ['†', 'a dead spider'];
	case 'adventure': return [(ADVENTURES[r.adventure] || r.adventure || '?').replace(/^the /, ''), adv(r.adventure)];
	default: return [r.kind || '?', r.kind || '?'];
	}
}

function pathView(v) {
	const rooms = Array.isArray(v.path) ? v.path : [];
	return h('section', { class: 'card path-card', 'aria-labelledby': 'path-h' },
		h('h2', { id: 'path-h' }, `Dungeon ${v.dungeon || '–'} of ${v.dungeons || 5}`,
			v.adventure ? h('span', { class: 'muted small' }, ` · ${adv(v.adventure)}`) : null),
		rooms.length === 0 ? h('p', { class: 'muted' }, 'Not entered yet.') :
			h('ol', { class: 'path', 'aria-label': 'Rooms so far' }, rooms.map((r) => {
				const [tok, words] = roomToken(r);
				return h('li', { class: `room ${r.kind}`, title: words },
					h('span', { 'aria-hidden': 'true' }, tok), h('span', { class: 'sr' }, `Room ${r.depth}: ${words}`));
			})));
}

function roomWords(v) {
	const r = v.room;
	if (!r) return null;
	if (v.phase === 'coin_room')
		return `The Sphinx's coin room: stay, or leave with your coins.${r.double_path ? ` The ${r.double_path} path paid double.` : ''}`;
	switch (r.kind) {
	case 'gem': return `A gem room: ${plural(r.gems, 'gem')}.`;
	case 'bar': return `A gold bar worth $${r.value}.`;
	case 'warning': return r.message || 'A warning.';
	case 'lair': return "THE SPIDER'S LAIR!";
	case 'dead_spider': return 'A dead spider: someone poisoned it.';
	case 'adventure': {
		let s = `${adv(r.adventure).replace(/^./, (c) => c.toUpperCase())}${r.part ? ` (part ${r.part})` : ''}`;
		if (r.spider_at !== undefined)
			s += `: the spider is at room ${r.spider_at}, give or take ${r.within}${r.minimum === null ? ' (it may be next!)' : ''}.`;
		else if (r.amount !== undefined) s += `: one side pays ${r.amount} gems, the other takes ${r.amount}.`;
		else if (r.toll !== undefined) s += `: the toll is ${r.toll} gems.`;
		else if (r.coins_low !== undefined) s += `: one path holds ${r.coins_low} coins, the other ${r.coins_high}.`;
		else s += '.';
		return s;
	}
	default: return null;
	}
}

function facts(v) {
	const floor = v.floor || {};
	const bars = Array.isArray(floor.bars) ? floor.bars : [];
	return h('dl', { class: 'facts' },
		h('dt', {}, 'Room'), h('dd', {}, fmt(v.depth)),
		h('dt', {}, 'Bravery'), h('dd', {}, fmt(v.bravery)),
		h('dt', {}, 'Floor'), h('dd', {}, `${plural(floor.gems || 0, 'gem')}${bars.length ? `, bars ${bars.map((b) => '$' + b).join(' ')}` : ''}`),
		h('dt', {}, 'Gold bars left'), h('dd', {}, fmt(v.gold_bars_undiscovered)));
}

// The seed's hand icon: what the dungeon looks like from where you stand.
function handIcon(t, v, ui) {
	const o = v.odds || {};
	const me = t.you !== null && Array.isArray(v.players) ? v.players[t.you] : null;
	const ev = typeof o.ev === 'number' ? o.ev : me && typeof me.ev === 'number' ? me.ev : null;
	const take = typeof o.take === 'number' ? o.take : me && typeof me.take === 'number' ? me.take : null;
	const btn = h('button', { class: 'hand-btn', 'aria-expanded': ui.showHand ? 'true' : 'false',
		'aria-controls': 'hand', 'aria-keyshortcuts': 'H', 'data-focus': 'hand',
		onclick: () => { ui.showHand = !ui.showHand; window.lair.render(); } },
	h('kbd', {}, 'H'), 'Hand icon: odds, rumor, EV');
	return h('section', { class: 'card hand', 'aria-label': 'The hand icon' }, btn,
		ui.showHand ? h('dl', { id: 'hand', class: 'facts' },
			h('dt', {}, 'Lair odds'), h('dd', {}, typeof o.lair === 'number' ? `${Math.round(o.lair * 100)}%` : '–'),
			h('dt', {}, 'Rumor'), h('dd', {}, typeof o.rumor === 'number' ? `${fmt(o.rumor)} gems` : '–'),
			h('dt', {}, 'Your EV'), h('dd', { class: ev !== null && ev < 0 ? 'bad' : 'good' },
				ev === null ? '–' : `${ev >= 0 ? '+' : ''}${fmt(ev)}`),
			h('dt', {}, 'Take if you leave'), h('dd', {}, take === null ? '–' : fmt(take))) : null);
}

function notes(p) {
	const n = [];
	if (p.owed > 0) n.push(`owes the Devil ${p.owed}`);
	if (p.size !== undefined && p.size !== 4) n.push(p.size >= 16 ? 'huge' : p.size > 4 ? 'big' : p.size <= 1 ? 'tiny' : 'small');
	if (p.queens > 0) n.push(`${p.queens} Queen${p.queens > 1 ? 's' : ''}`);
	if (p.changelings > 0) n.push(`${p.changelings} Changeling${p.changelings > 1 ? 's' : ''}`);
	if (p.path) n.push(`went ${p.path}`);
	return n.join(', ');
}

function playersView(t, v) {
	const ps = Array.isArray(v.players) ? v.players : [];
	return h('section', { class: 'card', 'aria-labelledby': 'players-h' },
		h('h2', { id: 'players-h' }, 'Players'),
		scroller('Players', h('table', { class: 'list players' },
			h('thead', {}, h('tr', {}, ['Seat', 'Player', 'Where', 'Hand', 'Chest', 'Bars', 'Status', 'Notes']
				.map((c) => h('th', { scope: 'col' }, c)))),
			h('tbody', {}, ps.map((p, i) => {
				const st = t.status[i] || 'idle';
				return h('tr', { class: `${i === t.you ? 'mine' : ''} ${p.inside ? '' : 'out'}` },
					h('td', {}, String(i + 1)),
					h('th', { scope: 'row' }, t.seatName(i) + (i === t.you ? ' (you)' : '')),
					h('td', {}, p.inside ? 'inside' : 'out'),
					h('td', {}, p.inside ? fmt(p.hand) : '–'),
					h('td', {}, `$${fmt(p.chest)}`),
					h('td', {}, fmt(p.bars)),
					h('td', {}, h('span', { class: `badge ${st}` }, st === 'idle' ? '' : st)),
					h('td', { class: 'small' }, notes(p)));
			})))));
}

// ---- Three Card Monte ----

// The shuffle you watch: the cards face up (the left one is the valuable
// card), then face down, then each swap of view.room.swaps in turn.
class Monte {
	constructor(cards, swaps) {
		this.cards = cards;
		this.swaps = swaps;
		this.step = -1;       // -1: face up; 0..n: swaps done
		this.slot = [0, 1, 2]; // card i is at slot[i]
		this.el = h('div', { class: 'monte', role: 'img', 'aria-label': 'Three Card Monte' });
		this.say = h('p', { class: 'monte-say', 'aria-live': 'polite' });
		this.cardEls = cards.map((v, i) => h('div', { class: 'card3 up', dataset: { card: String(i) } },
			h('span', { class: 'face' }, `${v > 0 ? '+' : ''}${v}`), h('span', { class: 'back' }, '?')));
		this.el.append(...this.cardEls);
		this.box = h('section', { class: 'card monte-card', 'aria-label': 'Three Card Monte' },
			h('h2', {}, 'Three Card Monte'), this.el, this.say);
		this.layout();
		this.say.textContent = 'Watch the left card: it is the valuable one.';
		this.timer = setTimeout(() => this.next(), MONTE_SHOW_MS);
	}

	layout() {
		this.cardEls.forEach((el, i) => {
			el.style.setProperty('--slot', String(this.slot[i]));
			el.classList.toggle('up', this.step < 0);
			const label = this.step < 0 ? `${this.cards[i]}` : `card #${this.slot[i] + 1}`;
			el.setAttribute('aria-label', label);
		});
	}

	next() {
		this.step++;
		if (this.step > 0) {
			const [a, b] = this.swaps[this.step - 1];
			for (let i = 0; i < 3; i++) {
				if (this.slot[i] === a) this.slot[i] = b;
				else if (this.slot[i] === b) this.slot[i] = a;
			}
			this.say.textContent = `Swap ${this.step} of ${this.swaps.length}: #${a + 1} ⇄ #${b + 1}`;
		} else {
			this.say.textContent = 'Face down… follow it!';
		}
		this.layout();
		if (this.step < this.swaps.length) this.timer = setTimeout(() => this.next(), MONTE_STEP_MS);
		else // the last swap stays said
			this.say.textContent = `${this.step > 0 ? this.say.textContent + '. ' : ''}Shuffled (${this.swaps.length} swaps): pick #1, #2 or #3.`;
	}

	stop() {
		clearTimeout(this.timer);
	}
}

function monteView(t, v, ui) {
	const r = v.room;
	if (!r || r.adventure !== 'monte' || !Array.isArray(r.swaps) || !Array.isArray(r.cards)) {
		if (ui.monte) ui.monte.stop();
		ui.monte = null;
		return null;
	}
	const k = `${t.id}/${v.dungeon}/${v.depth}/${JSON.stringify(r.swaps)}`;
	if (!ui.monte || ui.monte.key !== k) {
		if (ui.monte) ui.monte.stop();
		ui.monte = new Monte(r.cards, r.swaps);
		ui.monte.key = k;
	}
	return ui.monte.box;
}

function historyView(v) {
	const hist = Array.isArray(v.history) ? v.history : [];
	if (!hist.length) return null;
	return h('section', { class: 'card', 'aria-labelledby': 'hist-h' },
		h('h2', { id: 'hist-h' }, 'Dungeons so far'),
		h('ol', { class: 'small' }, hist.map((d) => h('li', {},
			`${adv(d.adventure)}: ${plural(d.depth, 'room')}, ${endWords(d.end)}`))));
}

function endWords(e) {
	return e === 'lair' ? "the spider's lair" : e === 'all_left' ? 'everyone left' : 'the dungeon ran out';
}

function optionsView(t, app) {
	if (t.you === null) return h('p', { class: 'muted' }, 'You are watching.');
	if (!t.asked) {
		const me = t.view && Array.isArray(t.view.players) ? t.view.players[t.you] : null;
		return h('p', { class: 'muted waiting-note' }, me && !me.inside ? 'You are out of this dungeon: waiting for the others.'
			: t.reveal && !t.pending.length ? 'Revealed: the next room is coming…' : 'Waiting for the others…');
	}
	return h('section', { class: 'card', 'aria-labelledby': 'opts-h' },
		h('h2', { id: 'opts-h' }, `Decision ${t.decision}: your choice`),
		optionButtons(t, app, (id) => KEYS[id] || null));
}

function render(t, app) {
	const v = t.view || {};
	if (v.kind && v.kind !== 'gems') return h('p', {}, 'Unexpected view.');
	const words = roomWords(v);
	return h('div', { class: 'gems' },
		pathView(v),
		h('section', { class: 'card room-card', 'aria-label': 'This room' },
			words ? h('p', { class: 'room-words' }, words) : null, facts(v)),
		monteView(t, v, app.ui),
		optionsView(t, app),
		handIcon(t, v, app.ui),
		playersView(t, v),
		historyView(v));
}

// ---- the end ----

function renderResult(t) {
	const r = t.result || {};
	const seats = Array.isArray(r.seats) ? r.seats.slice() : [];
	seats.sort((a, b) => (b.score - a.score) || (b.bars - a.bars));
	const dungeons = Array.isArray(r.dungeons) ? r.dungeons : [];
	return h('div', { class: 'summary' },
		h('p', {}, `Winning score: $${fmt(r.winning_score)}`),
		scroller('Scores', h('table', { class: 'list summary-table' },
			h('thead', {}, h('tr', {}, ['Player', 'Score', 'Gold bars'].map((c) => h('th', { scope: 'col' }, c)))),
			seats.map((s) => h('tbody', { class: `${s.winner ? 'winner' : ''} ${s.seat === t.you ? 'mine' : ''}` },
				h('tr', {},
					h('th', { scope: 'row' }, t.seatName(s.seat) + (s.seat === t.you ? ' (you)' : '')),
					h('td', {}, `$${fmt(s.score)}`),
					h('td', {}, fmt(s.bars))),
				h('tr', { class: 'sub' }, h('td', { colspan: 3, class: 'achievements' },
					s.winner ? h('b', {}, '★ Winner. ') : null,
					(s.achievements || []).length ? `Achievements: ${s.achievements.map((a) => ACHIEVEMENTS[a] || a).join(', ')}`
						: 'No achievement this time.')))))),
		dungeons.length ? h('h3', {}, 'The five dungeons') : null,
		h('ol', { class: 'small' }, dungeons.map((d) => h('li', {}, `${adv(d.adventure)}: ${plural(d.depth, 'room')}, ${endWords(d.end)}`))));
}

// ---- the log ----

// A room revealed after the dungeon (G24), in words.
function revealWords(ev) {
	switch (ev.kind) {
	case 'gem': return `a gem room${ev.level !== undefined ? ` (level ${ev.level})` : ''}`;
	case 'adventure': return adv(ev.adventure);
	case 'bar': return 'a gold bar';
	case 'warning': return 'a warning';
	default: return roomToken(ev)[1];
	}
}

function eventLine(ev, t) {
	const who = () => (ev.seat === t.you ? 'You' : t.seatName(ev.seat));
	switch (ev.type) {
	case 'dungeon_start': return `— Dungeon ${ev.dungeon} of 5 —`;
	case 'bats': return `Bats fly overhead (room ${ev.depth}).`;
	case 'gems': return `${plural(ev.gems, 'gem')} found, ${ev.floor} left on the floor.`;
	case 'gold_bar': return `A gold bar worth $${ev.value}.`;
	case 'warning': return ev.message || 'A warning!';
	case 'lair': return "THE SPIDER'S LAIR! Everyone inside runs out.";
	case 'scared': return `${who()} lost ${plural(ev.gems_lost, 'gem')} to the spider.`;
	case 'dead_spider': return 'A dead spider: the poison worked.';
	case 'poison': return `A bottle of poison: ${plural(ev.poisons_unused, 'poison')} unused.`;
	case 'ferry_grant': return `The Ferryman grants ${plural(ev.toll, 'gem')} to every hand inside.`;
	case 'little_people': return `${who()}'s little people: +${ev.paid} from Queens, −${ev.stolen} to Changelings.`;
	case 'sun_moon_seat': return `${who()} ${ev.gems >= 0 ? 'won' : 'lost'} ${plural(Math.abs(ev.gems), 'gem')}.`;
	case 'mushroom': return `The eaters ${ev.eaters === 'shrink' ? 'shrink' : 'grow'}.`;
	case 'reveal_room': return `Room ${ev.depth} would have been ${revealWords(ev)}.`;
	case 'adventure': return `Adventure: ${adv(ev.adventure)}${ev.part ? ` (part ${ev.part})` : ''}.`;
	case 'monte_deal': return 'The dealer shows three cards: watch the left one!';
	case 'monte_reveal': return `The cards were: ${(ev.cards || []).map((c) => (c > 0 ? '+' : '') + c).join(' ')}.`;
	case 'monte_seat': return `${who()} picked card #${ev.card}: ${ev.gems >= 0 ? '+' : ''}${ev.gems} gems.`;
	case 'scout': return `Scout: the spider is at room ${ev.spider_at}, give or take ${ev.within}.`;
	case 'sun_moon': return `The ${ev.pays === 'moon' ? 'Moon' : 'Sun'} pays ${ev.amount} gems.`;
	case 'bank': return `${who()} banked ${ev.gems} gems for $${ev.cash}.`;
	case 'devil': return `${who()} made a deal with the Devil: ${ev.rooms} rooms for $${ev.cash}.`;
	case 'carry': return `The little people are ${ev.people}.`;
	case 'ferry_pay': return `${who()} paid the Ferryman ${ev.paid}.`;
	case 'sphinx': return `The Sphinx: the ${ev.double_path} path paid double.`;
	case 'coins': return `${who()} took ${plural(ev.coins, 'coin')}.`;
	case 'leave': return `${who()} left with ${plural(ev.hand, 'gem')} (+${ev.floor_gems} from the floor${ev.coins ? `, +${ev.coins} coins` : ''}).`;
	case 'leave_bar': return `${who()} carried out a $${ev.value} gold bar.`;
	case 'dungeon_end': return `Dungeon over after ${plural(ev.depth, 'room')} (${endWords(ev.end)}).`;
	case 'reveal_adventure': return `This dungeon's adventure was ${adv(ev.adventure)}.`;
	case 'game_over': return `Game over: the winning score is $${ev.winning_score}.`;
	default: return null;
	}
}

function choiceLabel(c) {
	const k = key(c);
	return SHORT_LABELS[k] || k;
}

function onKey(ev, t, app) {
	const k = ev.key.toUpperCase();
	if (k === 'H') {
		app.ui.showHand = !app.ui.showHand;
		return true;
	}
	if (!t.asked) return false;
	const o = t.options.find((x) => x && KEYS[x.id] === k);
	if (!o) return false;
	app.choose(o.id);
	return true;
}

export default { label: 'Gems', eventLine, render, renderResult, choiceLabel, onKey };
