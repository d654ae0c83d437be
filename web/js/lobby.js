// lobby.js — the lobby screen (PROTOCOL.md §5): the live table list with
// join / watch, the create-a-table form, the chat, and the lobby switch.
// Form fields are made once and kept across re-renders (what you are typing
// survives a chat line arriving).

import { h, scroller } from './dom.js';
import { kindNames, kindView } from './kinds/index.js';

export function keep(app, id, make) {
	app.kept = app.kept || new Map();
	if (!app.kept.has(id)) app.kept.set(id, make());
	return app.kept.get(id);
}

function seatsText(t) {
	const humans = t.humans || [];
	const ai = t.ai || [];
	const taken = humans.filter((n, i) => n || ai[i]).length;
	return `${taken}/${t.seats}`;
}

// Join or watch; a private table first asks for its password (a small form
// under the list, not a browser prompt: the keyboard and screen readers
// see it as part of the page).
async function joinOrWatch(app, t, type, password) {
	if (t.private && password === undefined) {
		app.privateAsk = { table: t.id, type };
		app.render();
		return;
	}
	app.privateAsk = null;
	const r = await app.openTable(t.id, type, password ? { password } : {});
	if (r.type !== 'error') location.hash = `#/table/${r.table}`;
}

function passwordForm(app) {
	const ask = app.privateAsk;
	if (!ask) return null;
	const t = app.lobbyTables.find((x) => x.id === ask.table);
	if (!t) return null;
	const k = `pw/${t.id}/${ask.type}`;
	const input = keep(app, k, () => {
		const i = h('input', { id: 'join-password', type: 'password', maxlength: 64, required: true,
			autocomplete: 'off' });
		queueMicrotask(() => i.focus()); // once, when the form first shows
		return i;
	});
	const done = () => {
		app.kept.delete(k);
		app.privateAsk = null;
	};
	return h('form', { class: 'row private-join', onsubmit: (ev) => {
		ev.preventDefault();
		const pw = input.value;
		done();
		joinOrWatch(app, t, ask.type, pw);
	} },
	h('label', { for: 'join-password' }, `Table ${t.id} is private. Password`), input,
	h('button', { type: 'submit', class: 'primary' }, ask.type === 'table_join' ? 'Join' : 'Watch'),
	h('button', { type: 'button', onclick: () => { done(); app.render(); } }, 'Cancel'));
}

function tableList(app) {
	const rows = app.lobbyTables.map((t) => h('tr', {},
		h('td', {}, String(t.id)),
		h('td', {}, t.name || ''),
		h('td', {}, t.kind),
		h('td', {}, t.state),
		h('td', {}, seatsText(t)),
		h('td', {}, t.host || ''),
		h('td', {}, t.private ? 'private' : ''),
		h('td', { class: 'actions' },
			t.state !== 'finished' ? h('button', { 'data-focus': `join-${t.id}`,
				'aria-label': `Join table ${t.id}`,
				onclick: () => joinOrWatch(app, t, 'table_join') }, 'Join') : null,
			h('button', { 'data-focus': `watch-${t.id}`, 'aria-label': `Watch table ${t.id}`,
				onclick: () => joinOrWatch(app, t, 'table_spectate') }, 'Watch'))));
	return h('section', { class: 'card tables', 'aria-labelledby': 'tables-h' },
		h('h2', { id: 'tables-h' }, 'Tables'),
		rows.length === 0 ? h('p', { class: 'muted' }, 'No tables yet: create one.') :
			scroller('Tables', h('table', { class: 'list' },
				h('thead', {}, h('tr', {}, ['#', 'Name', 'Kind', 'State', 'Seats', 'Host', '', ''].map(
					(c) => h('th', { scope: 'col' }, c)))),
				h('tbody', {}, rows))),
		passwordForm(app));
}

function createForm(app) {
	return keep(app, 'create', () => {
		const kind = h('select', { id: 'c-kind', name: 'kind' },
			kindNames().map((k) => h('option', { value: k }, kindView(k).label)));
		const seats = h('input', { id: 'c-seats', name: 'seats', type: 'number', min: 1, max: 9, value: 3 });
		const ai = h('input', { id: 'c-ai', name: 'ai', type: 'number', min: 0, max: 9, value: 1 });
		const name = h('input', { id: 'c-name', name: 'name', maxlength: 40, placeholder: 'optional' });
		const priv = h('input', { id: 'c-private', name: 'private', type: 'checkbox' });
		const pw = h('input', { id: 'c-password', name: 'password', type: 'password', maxlength: 64,
			disabled: true, autocomplete: 'new-password' });
		const start = h('input', { id: 'c-start', name: 'start', type: 'checkbox' });
		priv.addEventListener('change', () => {
			pw.disabled = !priv.checked;
			pw.required = priv.checked;
		});
		seats.addEventListener('change', () => {
			ai.max = seats.value;
			if (Number(ai.value) > Number(seats.value)) ai.value = seats.value;
		});
		const form = h('form', { class: 'create', 'aria-labelledby': 'create-h', onsubmit: async (ev) => {
			ev.preventDefault();
			const req = { kind: kind.value, seats: Number(seats.value), ai: Number(ai.value) };
			if (name.value.trim()) req.name = name.value.trim();
			if (priv.checked) {
				req.private = true;
				req.password = pw.value;
			}
			if (start.checked) req.start = true;
			if (app.lobby) req.lobby = app.lobby.id;
			const r = await app.openTable(0, 'table_create', req);
			if (r.type !== 'error') location.hash = `#/table/${r.table}`;
		} },
		h('h2', { id: 'create-h' }, 'Create a table'),
		h('div', { class: 'grid2' },
			h('label', { for: 'c-kind' }, 'Game'), kind,
			h('label', { for: 'c-seats' }, 'Seats'), seats,
			h('label', { for: 'c-ai' }, 'AI seats'), ai,
			h('label', { for: 'c-name' }, 'Name'), name,
			h('label', { for: 'c-private' }, 'Private'), priv,
			h('label', { for: 'c-password' }, 'Password'), pw,
			h('label', { for: 'c-start' }, 'Start at once'), start),
		h('p', { class: 'muted small' }, 'You take seat 1; the AI seats follow; the host starts when ready ' +
			'(empty seats are filled with AIs).'),
		h('button', { type: 'submit', class: 'primary' }, 'Create'));
		return form;
	});
}

export function chat(app) {
	const log = h('ol', { class: 'chat-log', 'aria-label': 'Chat messages', 'aria-live': 'polite' },
		app.chat.map((c) => h('li', {}, h('b', {}, c.from), ': ', c.text)));
	const form = keep(app, 'chat', () => {
		const input = h('input', { id: 'chat-text', name: 'text', maxlength: 500, autocomplete: 'off',
			'aria-label': 'Chat message' });
		return h('form', { class: 'chat-form', onsubmit: async (ev) => {
			ev.preventDefault();
			const text = input.value.trim();
			if (!text) return;
			const r = await app.act('chat', { text });
			if (r.type !== 'error') input.value = '';
		} }, input, h('button', { type: 'submit' }, 'Send'));
	});
	queueMicrotask(() => { log.scrollTop = log.scrollHeight; });
	return h('section', { class: 'card chat', 'aria-labelledby': 'chat-h' },
		h('h2', { id: 'chat-h' }, 'Chat'),
		h('p', { class: 'muted small' }, `Here: ${app.lobbyPlayers.join(', ') || 'nobody'}`),
		log, form);
}

async function switchLobby(app) {
	const r = await app.act('lobby_list');
	if (r.type !== 'lobbies' || !r.lobbies.length) return;
	const ids = r.lobbies.map((l) => l.id);
	const i = ids.indexOf(app.lobby ? app.lobby.id : 0);
	const next = ids[(i + 1) % ids.length];
	if (next === (app.lobby && app.lobby.id)) app.say('This is the only lobby.');
	else app.joinLobby(next);
}

export function renderLobby(app) {
	const l = app.lobby;
	return h('div', { class: 'lobby' },
		h('div', { class: 'lobby-head' },
			h('h1', {}, l ? `Lobby “${l.name}”` : 'Lobby'),
			h('button', { onclick: () => switchLobby(app) }, 'Next lobby')),
		h('div', { class: 'lobby-grid' }, tableList(app), h('section', { class: 'card' }, createForm(app)), chat(app)));
}
