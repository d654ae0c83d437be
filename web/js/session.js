// session.js — the protocol session (proto/PROTOCOL.md §1–§4): one
// WebSocket to the server that served this page, `hello` with the stored
// token (or a new name), requests with ids answered by promises, updates
// handed to a listener, and after a drop or a server restart a new
// connection whose hello resumes every table with the last seq we saw.
//
// The token is the player's identity: it lives in localStorage under
// 'lair.token' (this browser profile is the player) and is sent to nobody
// but this server.

const TOKEN_KEY = 'lair.token';
const NAME_KEY = 'lair.name';
const PING_MS = 60000;              // below the server's idle timeout (300 s)
const RETRY_MS = [250, 500, 1000, 2000, 4000]; // then every 4 s

export class Session {
	constructor() {
		this.ws = null;
		this.nextId = 1;
		this.waiting = new Map();   // id -> {resolve, type}
		this.seqs = new Map();      // table id -> last seq seen (resume)
		this.player = null;         // welcome.player
		this.welcome = null;
		this.up = false;
		this.stopped = null;        // why we stopped reconnecting ('replaced', ...)
		this.retries = 0;
		this.onUpdate = () => {};   // (msg) for every update
		this.onReady = () => {};    // (welcome, first) after each hello
		this.onLink = () => {};     // (up, why) connection state
		this.onNeedName = () => {}; // (why) no usable token: ask for a name
		this.pendingName = null;
		this.everReady = false;
	}

	get token() { return localStorage.getItem(TOKEN_KEY); }
	get savedName() { return localStorage.getItem(NAME_KEY) || ''; }

	url() {
		return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`;
	}

	start() {
		if (!this.token && !this.pendingName) {
			this.onNeedName('');
			return;
		}
		this.connect();
	}

	// A new player: hello {name} (the server answers with our token).
	register(name) {
		this.pendingName = name;
		this.stopped = null;
		this.connect();
	}

	// Forget this browser's player (the token is gone for good here).
	forget() {
		localStorage.removeItem(TOKEN_KEY);
		this.pendingName = null;
		this.stopped = 'forgotten';
		this.seqs.clear();
		if (this.ws) this.ws.close(1000, 'forget');
		this.onNeedName('');
	}

	connect() {
		if (this.ws) return;
		const ws = new WebSocket(this.url());
		this.ws = ws;
		ws.onopen = () => this.hello();
		ws.onmessage = (ev) => this.receive(ev.data);
		ws.onclose = (ev) => this.closed(ws, ev);
		ws.onerror = () => {}; // the close that follows says it all
	}

	hello() {
		// view_patch: reveals carry the changes to our view (table.js); lean:
		// nothing said twice (we show `choices`, not the events restating them).
		const m = { protocol: 1, client: 'lair-web/1', caps: ['view_patch', 'lean'] };
		const token = this.token;
		if (token && !this.pendingName) {
			m.token = token;
			if (this.seqs.size) m.resume = Object.fromEntries(this.seqs);
		} else {
			m.name = this.pendingName;
		}
		this.request('hello', m).then((r) => this.welcomed(r));
	}

	welcomed(r) {
		if (r.type === 'error') {
			if (r.code === 'bad_token') {
				// The server does not know us (a new database): start over.
				localStorage.removeItem(TOKEN_KEY);
				this.stopped = 'bad_token';
				this.ws.close(1000, 'bad token');
				this.onNeedName('The server no longer knows this browser\'s player: choose a name.');
			} else if (this.pendingName) {
				this.pendingName = null;
				this.stopped = 'name';
				this.ws.close(1000, 'name refused');
				this.onNeedName(r.message || r.code);
			}
			return;
		}
		if (r.token) {
			localStorage.setItem(TOKEN_KEY, r.token);
			localStorage.setItem(NAME_KEY, r.player.name);
		}
		this.pendingName = null;
		this.player = r.player;
		this.welcome = r;
		this.up = true;
		this.retries = 0;
		const first = !this.everReady;
		this.everReady = true;
		this.onLink(true, '');
		this.onReady(r, first);
	}

	// Sends a request; resolves with its reply (an `error` reply included),
	// or with {type:'error', code:'offline'} when the link is down.
	request(type, fields = {}) {
		const id = this.nextId++;
		const msg = { type, id, ...fields };
		if (!this.ws || this.ws.readyState !== WebSocket.OPEN || (!this.up && type !== 'hello'))
			return Promise.resolve({ type: 'error', code: 'offline', message: 'not connected' });
		return new Promise((resolve) => {
			this.waiting.set(id, { resolve, type });
			this.ws.send(JSON.stringify(msg));
		});
	}

	// The server took our new name (`rename` answered ok).
	renamed(name) {
		this.player = { ...this.player, name };
		localStorage.setItem(NAME_KEY, name);
	}

	// Remembers the last seq of a table (resume after a drop); forget: gone.
	noteSeq(table, seq) { this.seqs.set(String(table), seq); }
	forgetTable(table) { this.seqs.delete(String(table)); }

	receive(text) {
		let m;
		try {
			m = JSON.parse(text);
		} catch {
			return;
		}
		if (!m || typeof m.type !== 'string') return;
		if (m.id !== undefined && this.waiting.has(m.id)) {
			const w = this.waiting.get(m.id);
			this.waiting.delete(m.id);
			w.resolve(m);
			return;
		}
		if (m.type === 'bye') this.stopped = m.reason === 'shutdown' ? null : m.reason;
		this.onUpdate(m);
	}

	closed(ws, ev) {
		if (ws !== this.ws) return;
		this.ws = null;
		this.up = false;
		for (const w of this.waiting.values())
			w.resolve({ type: 'error', code: 'offline', message: 'connection lost' });
		this.waiting.clear();
		const why = this.stopped || `closed (${ev.code}${ev.reason ? ' ' + ev.reason : ''})`;
		this.onLink(false, why);
		if (this.stopped) return; // replaced, kicked, forgotten: not by ourselves again
		const wait = RETRY_MS[Math.min(this.retries, RETRY_MS.length - 1)];
		this.retries++;
		setTimeout(() => this.connect(), wait);
	}

	// Comes back after a stop (e.g. "playing in another window": take over).
	reconnect() {
		this.stopped = null;
		this.retries = 0;
		this.connect();
	}

	// Keeps an idle connection open (the server closes silent ones).
	keepAlive() {
		setInterval(() => {
			if (this.up) this.request('ping');
		}, PING_MS);
	}
}
