'use strict';
/*
 * lib/app.js — protocol-level helpers for the app's end-to-end tests, on top
 * of lib/laird.js: a client that says hello and sends requests with ids,
 * waiting (bounded) for the reply that echoes each id.
 *
 *   const p = await player(srv, 'alice')     // connect + hello {name}
 *   p.token, p.id, p.welcome
 *   const r = await p.req('lobby_join', { lobby: 1 })   // reply (or error)
 *   await p.ok('chat', { text: 'hi' })      // throws unless type "ok"
 *   const u = await p.c.waitFor(m => m.type === 'chat')
 */
const { connect } = require('./laird');

let nextId = 1;
// How long a reply may take: a bound, not a measure. A request that sets a
// password waits for a PBKDF2 hash (600,000 rounds, about 70 ms of CPU, twice
// that under ASan): with every CPU busy, as when tests/run
// runs several suites at once, 5 s was not enough for one.
const REPLY_MS = 15000;

function wrap(c) {
	const p = { c };
	p.req = async (type, fields = {}, ms = REPLY_MS) => {
		const id = nextId++;
		c.send({ type, id, ...fields });
		return c.waitFor((m) => m.id === id, ms, `the reply to ${type} #${id}`);
	};
	p.ok = async (type, fields = {}, ms = REPLY_MS) => {
		const r = await p.req(type, fields, ms);
		if (r.type === 'error') throw new Error(`${type}: ${r.code}: ${r.message}`);
		return r;
	};
	p.hello = async (fields) => {
		const w = await p.req('hello', { protocol: 1, ...fields });
		if (w.type !== 'welcome') throw new Error(`hello: ${w.code}: ${w.message}`);
		p.welcome = w;
		p.id = w.player.id;
		p.name = w.player.name;
		if (w.token) p.token = w.token;
		return w;
	};
	return p;
}

async function raw(srv) {
	return wrap(await connect(srv.url));
}

async function player(srv, name) {
	const p = await raw(srv);
	await p.hello({ name });
	return p;
}

async function resume(srv, token, extra = {}) {
	const p = await raw(srv);
	p.token = token;
	await p.hello({ token, ...extra });
	return p;
}

/* The admin token laird prints on its first start. */
async function adminToken(srv) {
	const m = await srv.waitForOutput(/ADMIN_TOKEN=([0-9a-f]{64})/, 5000);
	return m[1];
}

module.exports = { raw, player, resume, adminToken, wrap };

/*
 * Plays p's seat at `table` until the result: answers every options message
 * addressed to p with pick(options, msg) (default: the last option, "stay"
 * for gems). Resolves with the result message; `onMsg` sees every message of
 * the table first. Returns { done, stop() }.
 */
function autoplay(p, table, { pick, onMsg } = {}) {
	pick = pick || ((opts) => opts[opts.length - 1].id);
	let on;
	const done = new Promise((resolve) => {
		const handle = (m) => {
			if (m.table !== table) return false;
			if (onMsg) onMsg(m);
			if (m.type === 'options' && Array.isArray(m.options) && m.seat !== undefined) {
				const choice = pick(m.options, m);
				if (choice !== undefined)
					p.c.send({ type: 'choose', table, decision: m.decision, choice });
			}
			if (m.type === 'result') {
				p.c.ws.off('message', on);
				resolve(m);
				return true;
			}
			return false;
		};
		on = (data) => {
			try {
				handle(JSON.parse(data.toString()));
			} catch {
				/* not JSON: not ours */
			}
		};
		// Messages that arrived before we were called (same TCP read as the
		// reply): only the latest options can still be open.
		const old = p.c.received.filter((m) => m.table === table);
		const lastOpt = old.filter((m) => m.type === 'options').pop();
		for (const m of old)
			if ((m.type !== 'options' || m === lastOpt) && handle(m)) return;
		p.c.ws.on('message', on);
	});
	return { done, stop: () => p.c.ws.off('message', on) };
}

/* Bounds a promise in time. */
function within(promise, ms, what) {
	let t;
	return Promise.race([
		promise,
		new Promise((_, rej) => (t = setTimeout(() => rej(new Error(`timeout: ${what}`)), ms))),
	]).finally(() => clearTimeout(t));
}

module.exports.autoplay = autoplay;
module.exports.within = within;
