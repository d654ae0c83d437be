'use strict';
/*
 * crowds.test.js — laird with many of something from one place: a table
 * with 300 spectators tells every one of them when it closes.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { startLaird } = require('./lib/laird');
const { player } = require('./lib/app');

async function stopClean(srv) {
	const r = await srv.stop();
	assert.equal(r.code, 0, `laird exit ${r.code} ${r.signal}:\n${r.output}`);
	return r;
}

/* n players, connected and said hello, a few at a time. */
async function players(srv, prefix, n) {
	const out = [];
	for (let i = 0; i < n; i += 50) {
		const batch = [];
		for (let k = i; k < Math.min(n, i + 50); k++) batch.push(player(srv, `${prefix}${k}`));
		out.push(...await Promise.all(batch));
	}
	return out;
}

const CROWD_ARGS = ['--max-conns-per-ip', '1000', '--rate-burst', '1000'];

test('table_close tells every spectator, all 300 of them', async () => {
	const srv = await startLaird({ args: CROWD_ARGS });
	try {
		const host = await player(srv, 'host');
		const t = (await host.ok('table_create', { kind: 'gems', seats: 2 })).table;
		const crowd = await players(srv, 'fan', 300);
		await Promise.all(crowd.map((p) => p.ok('table_spectate', { table: t })));
		await host.ok('table_close', { table: t });
		const told = await Promise.all(crowd.map((p) =>
			p.c.waitFor((m) => m.type === 'table_closed' && m.table === t, 10000, 'table_closed')));
		assert.equal(told.length, 300);
		// ...and none of them is kept a member of the closed table.
		const w = await crowd[299].req('table_spectate', { table: t });
		assert.equal(w.code, 'not_found');
		for (const p of [host, ...crowd]) p.c.close();
	} finally {
		await stopClean(srv);
	}
});
