'use strict';
/*
 * client_seeds.js — records the seeds of the client fuzz target
 * (fuzz_client.c): the frames a real laird sends a player and a spectator
 * of whole games of every kind, one frame a line, cut into windows
 * that each start with a `table` snapshot (a late spectator's, for the
 * middle of a game) or end with the result, each under MAX bytes.
 *
 *   LAIRD=build/laird node tests/fuzz/client_seeds.js tests/fuzz/corpus/client
 *
 * Games are seeded (admin), so a run writes the same seeds up to ids and
 * deadlines. Bounded: every wait times out; laird is stopped at the end.
 */
const fs = require('node:fs');
const path = require('node:path');
const { startLaird, connect } = require('../e2e/lib/laird');
const { adminToken } = require('../e2e/lib/app');

const MAX = 12000;
const out = process.argv[2] || 'tests/fuzz/corpus/client';

async function client(srv, hello) {
	const c = await connect(srv.url);
	c.frames = [];
	c.ws.on('message', (data) => c.frames.push(data.toString()));
	let id = 1;
	c.req = async (type, fields = {}) => {
		const n = id++;
		c.send({ type, id: n, ...fields });
		return c.waitFor((m) => m.id === n, 10000, `the reply to ${type}`);
	};
	const w = await c.req('hello', { protocol: 1, ...hello });
	if (w.type !== 'welcome') throw new Error(`hello: ${w.code}`);
	return c;
}

/* The frames cut into windows that start at a `table` snapshot, and the
 * last frames (the end of the game: the result and the rematch offer). */
function windows(all) {
	// The welcome (a token) is no table's business.
	const frames = all.filter((f) => !f.startsWith('{"type":"welcome"'));
	const res = [];
	for (let i = 0; i < frames.length; i++) {
		if (!frames[i].startsWith('{"type":"table",')) continue;
		let seed = '';
		for (let j = i; j < frames.length && seed.length + frames[j].length < MAX; j++)
			seed += `${frames[j]}\n`;
		if (seed) res.push(seed);
	}
	let tail = '';
	for (let j = frames.length - 1; j >= 0 && tail.length + frames[j].length < MAX; j--)
		tail = `${frames[j]}\n${tail}`;
	if (tail.includes('"type":"result"')) res.push(tail);
	return res;
}

/* How the player at seat 0 chooses; a kind without an entry is played by
 * AI in every seat, its host watching. */
const choices = {
	gems: (opts) => opts[0].id,
	deepfall: () => ({ target: 1, recruit: false, exit: 'persist' }),
};

/* A player at seat 0 with AI in the others, choosing as choices[kind]
 * says, and a spectator who comes in once `late` reveals have been seen. */
async function game(srv, admin, kind, seats, seed, late) {
	const p = await client(srv, { token: admin, caps: ['view_patch', 'lean'] }); // as lair asks
	const ai = choices[kind] ? seats - 1 : seats;
	const snap = await p.req('table_create',
		{ kind, seats, ai, start: true, seed: String(seed) });
	if (snap.type !== 'table') throw new Error(`${kind}: ${snap.code}: ${snap.message}`);
	const table = snap.table;
	let spectator = null;
	let reveals = 0;
	await new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`${kind}: no result`)), 60000);
		p.ws.on('message', async (data) => {
			const m = JSON.parse(data.toString());
			if (m.table !== table) return;
			if (m.type === 'options' && m.seat === 0 && Array.isArray(m.options) &&
			    choices[kind])
				p.send({ type: 'choose', table, decision: m.decision,
					choice: choices[kind](m.options) });
			if (m.type === 'reveal' && ++reveals === late && !spectator) {
				spectator = client(srv, { name: `s${kind}${seed}` })
					.then(async (s) => { await s.req('table_spectate', { table }); return s; });
			}
			if (m.type === 'result') {
				clearTimeout(timer);
				resolve();
			}
		});
	});
	const s = spectator ? await spectator : null;
	const res = [...windows(p.frames), ...(s ? windows(s.frames) : [])];
	p.close();
	if (s) s.close();
	return res;
}

async function main() {
	const srv = await startLaird({
		args: ['--window-ms', '0', '--ai-pacing-ms', '0', '--reveal-pause-ms', '0',
			'--max-tables-per-player', '100'],
	});
	try {
		const admin = await adminToken(srv);
		fs.mkdirSync(out, { recursive: true });
		const seeds = [
			...await game(srv, admin, 'gems', 3, 1, 4),
			...await game(srv, admin, 'gems', 5, 2, 12),
			...await game(srv, admin, 'deepfall', 2, 3, 3),
			...await game(srv, admin, 'deepfall', 4, 4, 8),
			...await game(srv, admin, 'crawl', 2, 5, 6),
			...await game(srv, admin, 'crawl', 3, 6, 20),
		];
		seeds.forEach((s, i) => fs.writeFileSync(path.join(out,
			`game_${String(i).padStart(2, '0')}`), s));
		console.log(`${seeds.length} seeds in ${out}`);
	} finally {
		await srv.stop();
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
