// main.js — lair's browser client: the session, the one table we sit at
// or watch, and the screens, chosen by the address's #fragment:
//   #/                 the lobby (chat, live table list, create a table)
//   #/table/ID         a table (its kind's view: kinds/*.js)
//   #/stats/NAME       a player's statistics and achievements (any kind)
//   #/records/KIND     the server's records
//   #/rules            rules for newcomers (rules/*.html)
//   #/me               your player: rename
// Everything a screen shows comes from the protocol (proto/PROTOCOL.md);
// nothing is rendered by the server.

import { h, replace, typing } from './dom.js';
import { Session } from './session.js';
import { Table, F } from './table.js';
import { kindView } from './kinds/index.js';
import { renderLobby } from './lobby.js';
import { renderTable, tickTable } from './tableview.js';
import { renderStats, renderRecords, renderRules, renderPlayer, forgetPages } from './pages.js';

class App {
	constructor() {
		this.s = new Session();
		this.root = document.getElementById('app');
		this.table = null;          // Table, the one we sit at or watch
		this.syncing = false;
		this.lobby = null;          // the lobby reply's lobby summary
		this.lobbyTables = [];
		this.lobbyPlayers = [];
		this.chat = [];
		this.notice = '';
		this.noticeTimer = 0;
		this.linkDown = '';
		this.needName = null;       // a string (maybe empty) while we ask for a name
		this.ui = { showHand: true, monte: null };
		this.s.onUpdate = (m) => this.update(m);
		this.s.onReady = (w, first) => this.ready(w, first);
		this.s.onLink = (up, why) => {
			this.linkDown = up ? '' : why;
			this.render();
		};
		this.s.onNeedName = (why) => {
			this.needName = why;
			this.render();
		};
		window.addEventListener('hashchange', () => {
			forgetPages(this);
			this.route(true);
		});
		document.addEventListener('keydown', (ev) => this.key(ev));
		// The skip link moves the focus, not the address (#app is no screen).
		const skip = document.querySelector('a.skip');
		if (skip) skip.addEventListener('click', (ev) => {
			ev.preventDefault();
			this.root.focus();
		});
		setInterval(() => this.tick(), 100);
		this.s.keepAlive();
	}

	start() {
		this.render();
		this.s.start();
	}

	// ---- the connection ----

	ready(w, first) {
		this.needName = null;
		const tables = Array.isArray(w.tables) ? w.tables : [];
		const want = this.routeTable();
		if (this.table && !tables.some((t) => t.table === this.table.id)) {
			// Gone while we were away (closed, or a new database).
			this.say(`Table ${this.table.id} is gone.`);
			this.dropTable();
		}
		if (!this.table) {
			// The server sends each table's snapshot right after welcome:
			// show the one the address names, else the one we sit at.
			const pick = tables.find((t) => t.table === want) ||
				tables.find((t) => t.seat !== null && t.seat !== undefined);
			if (pick) {
				this.table = new Table(pick.table);
				if (location.hash !== `#/table/${pick.table}`) location.hash = `#/table/${pick.table}`;
			} else if (want) {
				this.openTable(want, 'table_spectate', {});
			}
		}
		this.joinLobby(this.lobby ? this.lobby.id : w.default_lobby);
		if (first) this.route();
		this.render();
	}

	async joinLobby(id) {
		const r = await this.s.request('lobby_join', { lobby: id || 1 });
		if (r.type === 'lobby') {
			this.lobby = r.lobby;
			this.lobbyTables = r.tables || [];
			this.lobbyPlayers = r.players || [];
			this.chat = r.chat || [];
			this.render();
		} else if (r.type === 'error' && r.code !== 'offline') {
			this.say(r.message);
		}
	}

	update(m) {
		switch (m.type) {
		case 'chat':
			if (this.lobby && m.lobby === this.lobby.id) {
				this.chat.push(m);
				if (this.chat.length > 200) this.chat.shift();
			}
			break;
		case 'presence':
			if (m.joined && !this.lobbyPlayers.includes(m.player)) this.lobbyPlayers.push(m.player);
			if (!m.joined) this.lobbyPlayers = this.lobbyPlayers.filter((p) => p !== m.player);
			break;
		case 'table_update': {
			const i = this.lobbyTables.findIndex((t) => t.id === m.table.id);
			if (i >= 0) this.lobbyTables[i] = m.table;
			else this.lobbyTables.push(m.table);
			break;
		}
		case 'table_removed':
			this.lobbyTables = this.lobbyTables.filter((t) => t.id !== m.table);
			break;
		case 'lobby_closed':
			this.say('The lobby was closed.');
			this.lobby = null;
			this.joinLobby(this.s.welcome ? this.s.welcome.default_lobby : 1);
			break;
		case 'bye':
			this.say(m.reason === 'replaced' ? 'You are playing in another window.'
				: m.reason === 'kicked' ? `An admin disconnected you${m.message ? ': ' + m.message : ''}.`
					: 'The server is restarting; reconnecting…');
			break;
		case 'error':
			this.say(m.message || m.code);
			break;
		default:
			if (m.table !== undefined && typeof m.type === 'string') this.tableUpdate(m);
			return;
		}
		this.render();
	}

	tableUpdate(m) {
		if (!this.table) {
			// A snapshot we asked for, or a resume's, names its table.
			if (m.type !== 'table') return;
			this.table = new Table(m.table);
		}
		const t = this.table;
		if (m.table !== t.id) return;
		const kv = kindView(m.type === 'table' && m.kind ? m.kind : t.kind);
		const f = t.apply(m, kv.eventLine);
		if (!f) return;
		this.s.noteSeq(t.id, t.seq);
		if (f & F.GAP) {
			if (!this.syncing) {
				this.syncing = true;
				this.s.request('table_sync', { table: t.id, since: t.seq }).then((r) => {
					this.syncing = false;
					if (r.type === 'error') this.say(r.message);
				});
			}
			return;
		}
		if (f & F.CLOSED) {
			this.say('The table was closed.');
			this.dropTable();
			location.hash = '#/';
			this.render();
			return;
		}
		if (f & F.OPTIONS && t.asked && document.visibilityState === 'visible')
			this.s.request('selecting', { table: t.id });
		if (f & F.RESULT) forgetPages(this);
		this.announce(t, kv, f);
		if (f & F.REVEAL && kv.onReveal) kv.onReveal(t, this.ui);
		if (kv.onUpdate) kv.onUpdate(t, this.ui, f);
		if (m.type === 'table' && !location.hash.startsWith(`#/table/${t.id}`))
			location.hash = `#/table/${t.id}`;
		this.render();
	}

	// What a screen reader says as the game moves on (the page itself is
	// redrawn, so the live region lives outside it, in index.html).
	announce(t, kv, f) {
		const el = document.getElementById('announce');
		if (!el) return;
		let text = '';
		if (f & F.RESULT) text = 'Game over.';
		else if (f & F.REVEAL && t.reveal)
			text = 'Revealed: ' + (t.reveal.choices || []).map((c) =>
				`${t.seatName(c.seat)} ${kv.choiceLabel(c.choice, t)}`).join(', ') + '.';
		else if (f & F.OPTIONS && t.asked)
			text = `Decision ${t.decision}: your choice.`;
		if (text) el.textContent = text;
	}

	dropTable() {
		if (this.table) this.s.forgetTable(this.table.id);
		this.table = null;
		this.ui.monte = null;
	}

	// ---- actions the screens call ----

	say(text) {
		this.notice = text || '';
		clearTimeout(this.noticeTimer);
		this.noticeTimer = setTimeout(() => {
			this.notice = '';
			this.render();
		}, 6000);
		this.render();
	}

	// Sends a request; an error reply becomes the notice. Returns the reply.
	async act(type, fields = {}) {
		const r = await this.s.request(type, fields);
		if (r.type === 'error') this.say(r.message || r.code);
		return r;
	}

	// create / join / spectate / take_seat: the reply is the snapshot.
	async openTable(id, type, fields) {
		const r = await this.s.request(type, { ...(id ? { table: id } : {}), ...fields });
		if (r.type === 'error') {
			this.say(r.message || r.code);
			if (this.table && this.table.id === id && type === 'table_spectate') this.dropTable();
			return r;
		}
		if (this.table && this.table.id !== r.table) this.dropTable();
		if (!this.table) this.table = new Table(r.table);
		this.tableUpdate(r);
		return r;
	}

	async leaveTable() {
		const t = this.table;
		if (!t) return;
		await this.act('table_leave', { table: t.id });
		this.dropTable();
		location.hash = '#/';
		this.render();
	}

	choose(choice) {
		const t = this.table;
		if (!t || !t.asked) return;
		const before = t.choice;
		const decision = t.decision;
		t.choice = choice; // shown at once; the server's status confirms it (and
		// is what the reveal's "changed your mind" compares with)
		this.render();
		this.act('choose', { table: t.id, decision, choice }).then((r) => {
			// Refused (not offered, too late, rate limited): the mark goes back
			// to what the server holds, unless something newer came meanwhile.
			if (r.type === 'error' && this.table === t && t.decision === decision && t.choice === choice) {
				t.choice = before;
				this.render();
			}
		});
	}

	// ---- screens ----

	routeTable() {
		const m = location.hash.match(/^#\/table\/(\d+)/);
		return m ? Number(m[1]) : 0;
	}

	// moveFocus: the address changed (a link, back): the keyboard and the
	// screen reader start again at the new page's heading.
	route(moveFocus = false) {
		const id = this.routeTable();
		if (id && this.s.up && (!this.table || this.table.id !== id))
			this.openTable(id, 'table_spectate', {});
		this.render();
		const heading = moveFocus && this.root.querySelector('h1');
		if (heading) {
			heading.tabIndex = -1;
			heading.focus();
		}
	}

	render() {
		const page = this.page();
		replace(this.root, this.header(), this.banner(), page);
	}

	page() {
		const hash = location.hash || '#/';
		if (this.needName !== null) return this.nameForm();
		let m;
		if ((m = hash.match(/^#\/stats(?:\/([^/?]*))?(?:\?kind=(\w+))?/)))
			return renderStats(this, decodeURIComponent(m[1] || ''), m[2] || 'gems');
		if ((m = hash.match(/^#\/records(?:\/(\w+))?/))) return renderRecords(this, m[1] || 'gems');
		if (hash.startsWith('#/rules')) return renderRules(this);
		if (hash.startsWith('#/me')) return renderPlayer(this);
		if (this.table && hash.startsWith('#/table/')) return renderTable(this, this.table);
		if (!this.s.up) return h('p', { class: 'muted' }, 'Connecting…');
		return renderLobby(this);
	}

	header() {
		const p = this.s.player;
		const t = this.table;
		const page = location.hash.replace(/^#\/?/, '').split(/[/?]/)[0]; // '', table, stats, ...
		const here = (name) => (page === name ? 'page' : null);
		return h('header', { class: 'top' },
			h('a', { href: '#/', class: 'brand' }, 'lair'),
			h('nav', { 'aria-label': 'Main' },
				h('a', { href: '#/', 'aria-current': here('') }, 'Lobby'),
				t && page !== 'table' ? h('a', { href: `#/table/${t.id}` }, `Table ${t.id}`) : null,
				h('a', { href: `#/stats/${encodeURIComponent(p ? p.name : '')}`, 'aria-current': here('stats') }, 'Stats'),
				h('a', { href: '#/records/gems', 'aria-current': here('records') }, 'Records'),
				h('a', { href: '#/rules', 'aria-current': here('rules') }, 'Rules')),
			p ? h('a', { class: 'who', href: '#/me', 'aria-label': `Your player: ${p.name}`,
				'aria-current': here('me') }, p.name) : h('span', { class: 'who' }),
			h('span', { class: this.linkDown ? 'link down' : 'link up', role: 'status' },
				this.linkDown ? (this.s.stopped === 'replaced' ? 'playing elsewhere' : 'reconnecting…') : 'online'));
	}

	banner() {
		const parts = [];
		if (this.linkDown && this.s.stopped === 'replaced')
			parts.push(h('p', { class: 'notice' }, 'This player is connected in another window. ',
				h('button', { onclick: () => this.s.reconnect() }, 'Play here')));
		if (this.notice) parts.push(h('p', { class: 'notice', role: 'alert' }, this.notice));
		return h('div', { class: 'banner' }, parts);
	}

	nameForm() {
		const input = h('input', { id: 'name', name: 'name', required: true, maxlength: 24,
			pattern: '[A-Za-z0-9][A-Za-z0-9_.\\-]{0,23}', autocomplete: 'nickname',
			value: this.s.savedName, 'aria-describedby': 'name-help' });
		const form = h('form', { class: 'card narrow', onsubmit: (ev) => {
			ev.preventDefault();
			this.needName = null;
			this.render();
			this.s.register(input.value.trim());
		} },
		h('h1', {}, 'Welcome to lair'),
		this.needName ? h('p', { class: 'notice', role: 'alert' }, this.needName) : null,
		h('label', { for: 'name' }, 'Choose a player name'),
		input,
		h('p', { id: 'name-help', class: 'muted' },
			'1–24 letters, digits, _ - . — this browser remembers you (the key stays in this browser only).'),
		h('button', { type: 'submit', class: 'primary' }, 'Enter the lobby'));
		queueMicrotask(() => input.focus());
		return form;
	}

	tick() {
		if (this.table && location.hash.startsWith('#/table/')) tickTable(this, this.table);
	}

	key(ev) {
		if (ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev)) return;
		const t = this.table;
		if (!t || !location.hash.startsWith('#/table/')) return;
		const kv = kindView(t.kind);
		if (kv.onKey && kv.onKey(ev, t, this)) {
			ev.preventDefault();
			this.render();
		}
	}
}

const app = new App();
window.lair = app; // for the browser tests and curious players
app.start();
