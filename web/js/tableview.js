// tableview.js — a table's screen around its kind's view: the title, the
// seats (join, add/remove AI, start, take over an AI seat), the decision's
// countdowns (the deadline, then the change-your-mind window), the reveal of
// every seat's choice, the log, and the end (the kind's summary, rematch).
// The kind's module (kinds/*.js) draws the game itself and its options.

import { h, secondsLeft } from './dom.js';
import { kindView } from './kinds/index.js';
import { key } from './table.js';
import { chat } from './lobby.js';

function seatRow(app, t, s, i) {
	const me = app.s.player;
	const host = t.isHost(me && me.id);
	const status = t.status[i] || 'idle';
	const actions = [];
	if (t.state === 'waiting') {
		if (s.kind === 'ai' && host)
			actions.push(h('button', { 'data-focus': `rm-${i}`, onclick: () =>
				app.act('table_remove_ai', { table: t.id, seat: i }) }, 'Remove AI'));
		if (t.you === null && (s.kind === 'empty' || s.kind === 'ai'))
			actions.push(h('button', { 'data-focus': `sit-${i}`, onclick: () =>
				app.openTable(t.id, 'table_join', { seat: i }) }, 'Sit here'));
	} else if (t.state === 'playing' && t.you === null && s.kind === 'ai') {
		actions.push(h('button', { 'data-focus': `take-${i}`, onclick: () =>
			app.openTable(t.id, 'take_seat', { seat: i }) }, 'Take over this seat'));
	}
	const who = t.seatName(i) + (i === t.you ? ' (you)' : '') + (s.player === t.host && s.kind === 'human' ? ' ★' : '');
	const conn = s.kind === 'human' ? (s.away ? 'away: the AI plays' : s.connected ? '' : 'disconnected') : '';
	return h('li', { class: `seat ${i === t.you ? 'mine' : ''}` },
		h('span', { class: 'seat-n' }, String(i + 1)),
		h('span', { class: 'seat-name' }, who),
		h('span', { class: `badge ${status}` }, status === 'idle' ? '' : status),
		conn ? h('span', { class: 'muted small' }, conn) : null,
		actions);
}

function seatsPanel(app, t) {
	return h('section', { class: 'card seats', 'aria-labelledby': 'seats-h' },
		h('h2', { id: 'seats-h' }, 'Seats', h('span', { class: 'muted small' },
			` · ${t.spectators} watching`)),
		h('ol', { class: 'seat-list' }, t.seats.map((s, i) => seatRow(app, t, s, i))));
}

function waitingControls(app, t) {
	const me = app.s.player;
	const host = t.isHost(me && me.id);
	return h('section', { class: 'card', 'aria-label': 'Before the game' },
		h('p', {}, host ? 'You are the host: start when everyone is seated (empty seats get an AI).'
			: 'Waiting for the host to start.'),
		host ? h('div', { class: 'row' },
			h('button', { class: 'primary', 'data-focus': 'start', onclick: () => app.act('table_start', { table: t.id }) }, 'Start the game'),
			h('button', { 'data-focus': 'add-ai', onclick: () => app.act('table_add_ai', { table: t.id }) }, 'Add an AI')) : null);
}

// The countdowns: the deadline while choosing, the window once all chose.
function clock(t) {
	const el = h('div', { class: 'clock', id: 'clock', role: 'timer', 'aria-live': 'off' }, clockText(t));
	el.style.setProperty('--left', String(Math.max(0, Math.min(1, clockFraction(t)))));
	return el;
}

function clockText(t) {
	if (t.windowAt && t.windowAt > performance.now())
		return `Everyone has chosen: ${secondsLeft(t.windowAt).toFixed(1)} s to change your mind`;
	if (t.deadlineAt && t.pending.length) {
		const s = Math.ceil(secondsLeft(t.deadlineAt));
		if (t.asked) return t.choice !== null ? `Chosen — you may change it: ${s} s left` : `Your choice: ${s} s left`;
		return `Waiting for the others: ${s} s left`;
	}
	return '';
}

function clockFraction(t) {
	if (t.windowAt && t.windowAt > performance.now())
		return secondsLeft(t.windowAt) * 1000 / Math.max(1, t.windowMs);
	if (t.deadlineAt && t.pending.length && t.turnTimeoutMs)
		return secondsLeft(t.deadlineAt) * 1000 / t.turnTimeoutMs;
	return 0;
}

export function tickTable(app, t) {
	const c = document.getElementById('clock');
	if (c) {
		const text = clockText(t);
		if (c.textContent !== text) c.textContent = text;
		c.classList.toggle('window', !!(t.windowAt && t.windowAt > performance.now()));
		c.style.setProperty('--left', String(Math.max(0, Math.min(1, clockFraction(t)))));
	}
	const kv = kindView(t.kind);
	if (kv.tick) kv.tick(app, t);
}

// What every seat chose at the last reveal.
function revealPanel(app, t, kv) {
	const r = t.reveal;
	if (!r || !Array.isArray(r.choices)) return null;
	return h('section', { class: 'card reveal', 'aria-labelledby': 'reveal-h', id: 'reveal' },
		h('h2', { id: 'reveal-h' }, `Decision ${r.decision}: the reveal`),
		h('ul', { class: 'choices' }, r.choices.map((c) => h('li', { dataset: { seat: String(c.seat) } },
			h('b', {}, t.seatName(c.seat) + (c.seat === t.you ? ' (you)' : '')), ': ',
			h('span', { class: 'choice' }, kv.choiceLabel(c.choice, t)),
			c.ai ? h('span', { class: 'muted small' }, ' (AI)') : null,
			c.seat === t.you && t.revealChanged ? h('span', { class: 'changed' },
				` — changed your mind from ${kv.choiceLabel(t.revealChanged.from, t)}`) : null))));
}

function logPanel(t) {
	const items = t.log.slice(-40).map((l) => h('li', { class: l.kind }, l.text));
	const ol = h('ol', { class: 'log', 'aria-label': 'What happened', tabindex: 0 }, items);
	queueMicrotask(() => { ol.scrollTop = ol.scrollHeight; });
	return h('section', { class: 'card log-card', 'aria-labelledby': 'log-h' },
		h('h2', { id: 'log-h' }, 'Log'), ol);
}

function endControls(app, t) {
	const me = app.s.player;
	const host = t.isHost(me && me.id);
	return h('div', { class: 'row' },
		host ? h('button', { class: 'primary', 'data-focus': 'rematch', onclick: () => app.act('rematch', { table: t.id }) }, 'Rematch') : null,
		h('button', { 'data-focus': 'lobby', onclick: () => app.leaveTable() }, 'Back to the lobby'),
		t.seed ? h('span', { class: 'muted small' }, `seed ${t.seed}`) : null);
}

export function renderTable(app, t) {
	const kv = kindView(t.kind);
	const title = `${kv.label} · table ${t.id}${t.name ? ` “${t.name}”` : ''}`;
	const role = t.you === null ? 'watching' : `seat ${t.you + 1}`;
	const parts = [
		h('div', { class: 'table-head' },
			h('h1', {}, title),
			h('span', { class: 'muted' }, `${t.state} · ${role}`),
			t.state !== 'finished' ? h('button', { class: 'leave', 'data-focus': 'leave', onclick: () => {
				if (t.state === 'playing' && t.you !== null &&
					!window.confirm('Leave the game? The AI plays your seat from now on.')) return;
				app.leaveTable();
			} }, t.you === null ? 'Stop watching' : 'Leave the table') : null),
	];
	if (!t.kind) return h('p', { class: 'muted' }, 'Loading the table…');
	if (t.state === 'waiting' && !t.result) {
		parts.push(waitingControls(app, t), seatsPanel(app, t), app.lobby ? chat(app) : null);
		return h('div', { class: 'table' }, parts);
	}
	if (t.result) {
		parts.push(h('section', { class: 'card result', 'aria-labelledby': 'result-h' },
			h('h2', { id: 'result-h' }, 'Game over'), kv.renderResult(t, app), endControls(app, t)));
		parts.push(revealPanel(app, t, kv), logPanel(t), app.lobby ? chat(app) : null);
		return h('div', { class: 'table' }, parts);
	}
	parts.push(clock(t));
	parts.push(h('div', { class: 'play' }, kv.render(t, app)));
	parts.push(h('div', { class: 'side' }, revealPanel(app, t, kv), seatsPanel(app, t), logPanel(t),
		app.lobby ? chat(app) : null));
	return h('div', { class: 'table' }, parts);
}

// A choice in words, for kinds whose options carry labels.
export function optionLabel(t, choice) {
	const k = key(choice);
	const o = Array.isArray(t.options) ? t.options.find((x) => x && x.id === k) : null;
	return o && o.label ? o.label : k;
}
