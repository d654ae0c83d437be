'use strict';
/*
 * metrics.test.js — /metrics as an operator's Prometheus reads it: the whole
 * exposition passes `promtool check metrics` (Debian's prometheus package,
 * installed by tests/deps) after a game has been played and watched, and the
 * families an operator expects are there with plausible values: the build,
 * the process_* set of the client libraries, the window-close→reveal and
 * store submit→durable histograms, store failures, games started and
 * finished per kind, spectators.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { startLaird, runLaird } = require('./lib/laird');
const { player, within } = require('./lib/app');

const FAST = ['--window-ms', '60', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0'];

function onPath(cmd) {
	return (process.env.PATH || '').split(':').some((d) => {
		try {
			fs.accessSync(path.join(d, cmd), fs.constants.X_OK);
			return true;
		} catch {
			return false;
		}
	});
}

/* The exposition format read from its specification alone: "# TYPE name
 * type" lines, then samples `name{labels} value`. Returns { types, samples }
 * where samples maps 'name{labels as sent}' to a number. */
function parseExposition(text) {
	const types = new Map();
	const samples = new Map();
	for (const line of text.split('\n')) {
		if (!line) continue;
		let m = line.match(/^# TYPE (\S+) (\S+)$/);
		if (m) {
			assert.ok(!types.has(m[1]), `TYPE of ${m[1]} given twice`);
			types.set(m[1], m[2]);
			continue;
		}
		if (line.startsWith('#')) continue;
		m = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/);
		assert.ok(m, `not a sample line: ${line}`);
		assert.ok(!samples.has(m[1]), `sample ${m[1]} given twice`);
		samples.set(m[1], Number(m[2]));
	}
	return { types, samples };
}

/* Checks a histogram family as the format defines it and returns its count. */
function checkHistogram(x, name) {
	assert.strictEqual(x.types.get(name), 'histogram', `${name} is a histogram`);
	const buckets = [...x.samples.entries()]
		.filter(([k]) => k.startsWith(`${name}_bucket{`))
		.map(([k, v]) => ({ le: k.match(/le="([^"]+)"/)[1], v }));
	assert.ok(buckets.length >= 2, `${name} has buckets`);
	assert.strictEqual(buckets[buckets.length - 1].le, '+Inf', `${name}: +Inf bucket last`);
	for (let i = 1; i < buckets.length; i++) {
		assert.ok(buckets[i].v >= buckets[i - 1].v, `${name}: buckets are cumulative`);
		if (buckets[i].le !== '+Inf')
			assert.ok(Number(buckets[i].le) > Number(buckets[i - 1].le), `${name}: bounds rise`);
	}
	const count = x.samples.get(`${name}_count`);
	assert.strictEqual(buckets[buckets.length - 1].v, count, `${name}: +Inf == _count`);
	assert.ok(x.samples.get(`${name}_sum`) >= 0, `${name}_sum`);
	return count;
}

test('/metrics after a watched game passes promtool and has what an operator expects', async (t) => {
	const srv = await startLaird({ args: FAST });
	try {
		const host = await player(srv, 'metrichost');
		const fan = await player(srv, 'metricfan');
		// Every seat AI: the host watches; a second spectator joins.
		const snap = await host.ok('table_create', { kind: 'gems', seats: 2, ai: 2, start: true });
		await fan.ok('table_spectate', { table: snap.table });
		let x = parseExposition((await srv.get('/metrics')).body);
		assert.strictEqual(x.samples.get('lair_spectators'), 2);
		await within(host.c.waitFor((m) => m.type === 'result' && m.table === snap.table, 60000),
			60000, 'the all-AI game to end');

		const res = await srv.get('/metrics');
		assert.strictEqual(res.status, 200);
		x = parseExposition(res.body);

		// The build: the version laird --version prints.
		const v = (await runLaird(['--version'])).stdout.trim().split(' ')[1];
		const info = [...x.samples.keys()].find((k) => k.startsWith('lair_build_info{'));
		assert.ok(info, 'lair_build_info');
		assert.match(info, new RegExp(`version="${v.replace(/\./g, '\\.')}"`));
		assert.match(info, /libwebsockets="4\./);
		assert.match(info, /sqlite="3\./);
		assert.strictEqual(x.samples.get(info), 1);

		// The process set, with names and types of the client libraries.
		assert.strictEqual(x.types.get('process_cpu_seconds_total'), 'counter');
		assert.ok(x.samples.get('process_cpu_seconds_total') > 0);
		assert.ok(x.samples.get('process_resident_memory_bytes') > 1 << 20);
		assert.ok(x.samples.get('process_virtual_memory_bytes') >=
			x.samples.get('process_resident_memory_bytes'));
		// two WebSocket clients, the listener, the database: more than 4
		assert.ok(x.samples.get('process_open_fds') > 4);
		assert.ok(x.samples.get('process_max_fds') >= x.samples.get('process_open_fds'));
		const start = x.samples.get('process_start_time_seconds');
		assert.ok(start > Date.now() / 1000 - 600 && start <= Date.now() / 1000 + 1, `start ${start}`);

		// Every decision resolved at this live table was timed to its reveal.
		const reveals = checkHistogram(x, 'lair_decision_reveal_seconds');
		assert.ok(reveals > 0);
		assert.strictEqual(reveals, x.samples.get('lair_decisions_resolved_total'));
		const writes = checkHistogram(x, 'lair_store_durable_seconds');
		assert.ok(writes >= reveals, 'each decision was a store write');
		// Its parts: close -> durable on the loop, then the reveal sent
		// (whole µs each: they add up within 2 µs a decision); the
		// store's wait for a batch and the batch's run, and the result's
		// way back to the loop, each timed once per write.
		assert.strictEqual(checkHistogram(x, 'lair_decision_durable_seconds'), reveals);
		assert.strictEqual(checkHistogram(x, 'lair_decision_reveal_send_seconds'), reveals);
		const sum = (n) => x.samples.get(`${n}_sum`);
		const gap = sum('lair_decision_reveal_seconds') - sum('lair_decision_durable_seconds') -
			sum('lair_decision_reveal_send_seconds');
		assert.ok(Math.abs(gap) <= 2e-6 * reveals, `reveal = durable + send (off by ${gap} s)`);
		for (const part of ['queued', 'batch', 'deliver'])
			assert.strictEqual(checkHistogram(x, `lair_store_${part}_seconds`), writes, part);
		// All-AI seats open no window, so no window's timer was late.
		assert.strictEqual(checkHistogram(x, 'lair_window_close_late_seconds'), 0);
		assert.strictEqual(x.types.get('lair_store_write_batches_total'), 'counter');
		assert.ok(x.samples.get('lair_store_write_batches_total') >= 1);
		assert.strictEqual(x.types.get('lair_store_failures_total'), 'counter');
		assert.strictEqual(x.samples.get('lair_store_failures_total'), 0);

		assert.strictEqual(x.samples.get('lair_games_started_total{kind="gems"}'), 1);
		assert.strictEqual(x.samples.get('lair_games_finished_total{kind="gems"}'), 1);
		assert.strictEqual(x.samples.get('lair_games_started_total{kind="deepfall"}'), 0);
		assert.strictEqual(x.samples.get('lair_spectators'), 2);

		// Nothing typed counter may end in a histogram's reserved suffixes.
		for (const [name, type] of x.types)
			if (type !== 'histogram')
				assert.ok(!/_(sum|count|bucket)$/.test(name), `${name} (${type})`);

		if (!onPath('promtool')) {
			t.skip('promtool not found: install Debian package prometheus (tests/deps does)');
		} else {
			const p = spawnSync('promtool', ['check', 'metrics'], { input: res.body, timeout: 30000 });
			assert.strictEqual(p.status, 0,
				`promtool check metrics:\n${p.stdout}${p.stderr}`);
			assert.strictEqual(`${p.stdout}${p.stderr}`.trim(), '', 'no lint findings');
		}
		host.c.close();
		fan.c.close();
	} finally {
		const r = await srv.stop();
		assert.strictEqual(r.code, 0, r.output.slice(-4000));
	}
});

test('/metrics: a window a human closes is timed from its end, and its parts add up', async () => {
	const srv = await startLaird({ args: FAST });
	try {
		const a = await player(srv, 'windowed');
		const t = (await a.ok('table_create', { kind: 'gems', seats: 2, ai: 1, start: true })).table;
		const opt = await a.c.waitFor((m) => m.type === 'options' && m.seat === 0);
		const other = opt.options.map((o) => o.id).find((x) => x !== 'leave');
		await a.ok('choose', { table: t, decision: opt.decision, choice: other });
		await a.c.waitFor((m) => m.type === 'window' && m.decision === opt.decision);
		const reveal = await a.c.waitFor((m) => m.type === 'reveal' && m.decision === opt.decision,
			10000);
		const x = parseExposition((await srv.get('/metrics')).body);
		// The window's timer closed it: timed once, and (the reveal being
		// stamped after that timer ran) not in the reveal's own figure.
		assert.ok(checkHistogram(x, 'lair_window_close_late_seconds') >= 1);
		const reveals = checkHistogram(x, 'lair_decision_reveal_seconds');
		assert.ok(reveals >= 1 && reveals === x.samples.get('lair_decisions_resolved_total'));
		assert.strictEqual(checkHistogram(x, 'lair_decision_durable_seconds'), reveals);
		assert.ok(reveal.t_close_us > 0);
		a.c.close();
	} finally {
		const r = await srv.stop();
		assert.strictEqual(r.code, 0, r.output.slice(-4000));
	}
});
