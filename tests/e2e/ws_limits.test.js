'use strict';
/*
 * ws_limits.test.js — the WebSocket rules laird enforces itself, end to end
 * with node's ws as the peer: an unmasked client frame closes with 1002
 * (RFC 6455 §5.1); pings take from the rate limit like messages; a dropped
 * request's rate_limited error echoes its id; strikes (PROTOCOL.md §1):
 * every one is answered, the last one before the 1008, and a client that
 * calms down for a whole bucket is forgiven; a burst is answered in full
 * before the close; a reader that keeps up is never closed for a burst of
 * the server's own updates.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const WebSocket = require('ws');
const { startLaird, connect, stopClean, metric } = require('./lib/laird');
const { player, resume, adminToken } = require('./lib/app');

/* A frame the ws library would never send: written to the socket as is. */
function rawFrame(c, payload, { mask = true, opcode = 1 } = {}) {
	const parts = WebSocket.Sender.frame(Buffer.from(payload), {
		fin: true, opcode, mask, readOnly: false, rsv1: false,
	});
	c.ws._socket.write(Buffer.concat(parts));
}

test('an unmasked client frame is closed with 1002 and never read (RFC 6455 5.1)', async () => {
	const srv = await startLaird();
	try {
		const c = await connect(srv.url);
		rawFrame(c, JSON.stringify({ type: 'ping', id: 1 }), { mask: false });
		const closed = await c.waitClose();
		assert.equal(closed.code, 1002);
		assert.match(closed.reason, /unmasked/);
		assert.ok(!c.received.some((m) => m.type === 'pong'), 'the frame was read');
		assert.equal(await metric(srv, 'lair_messages_in_total'), 0);
		assert.equal(await metric(srv, 'lair_net_errors_total{code="protocol_error"}'), 1);
		// An unmasked control frame (2 bytes, no payload) too.
		const d = await connect(srv.url);
		rawFrame(d, '', { mask: false, opcode: 9 });
		assert.equal((await d.waitClose()).code, 1002);
	} finally {
		await stopClean(srv);
	}
});

test('pings take from the rate limit: the flood is dropped, then closed with 1008', async () => {
	const srv = await startLaird({ args: ['--rate-msgs-per-sec', '1', '--rate-burst', '5',
		'--rate-abuse-strikes', '10'] });
	try {
		const c = await connect(srv.url);
		let pongs = 0;
		c.ws.on('pong', () => pongs++);
		for (let i = 0; i < 1000; i++) c.ws.ping('p');
		const closed = await c.waitClose();
		assert.deepEqual(closed, { code: 1008, reason: 'message rate limit exceeded' });
		assert.ok(pongs >= 5 && pongs <= 7, `${pongs} pongs`);
		const limited = c.received.filter((m) => m.code === 'rate_limited');
		assert.equal(limited.length, 10);
		assert.ok(limited.every((m) => m.id === undefined), 'a ping has no id');
		assert.equal(await metric(srv, 'lair_net_errors_total{code="rate_abuse"}'), 1);
	} finally {
		await stopClean(srv);
	}
});

test('rate_limited echoes the dropped request\'s id; every request is answered once', async () => {
	const srv = await startLaird({ args: ['--rate-msgs-per-sec', '1', '--rate-burst', '3',
		'--rate-abuse-strikes', '1000'] });
	try {
		const c = await connect(srv.url);
		const ids = [1, 2, 3, 'four', 5, 'six', -7, 9007199254740991];
		for (const id of ids) c.send({ type: 'ping', id });
		const replies = [];
		for (const id of ids) replies.push(await c.waitFor((m) => m.id === id, 5000, `#${id}`));
		const pongs = replies.filter((m) => m.type === 'pong').length;
		assert.ok(pongs >= 3 && pongs <= 4, JSON.stringify(replies));
		for (const m of replies.filter((r) => r.type === 'error')) {
			assert.equal(m.code, 'rate_limited');
			assert.ok(typeof m.message === 'string');
		}
		// An id written after 256 bytes is not looked for: the error has none.
		c.send(`{"type":"ping","pad":"${'x'.repeat(300)}","id":77}`);
		const e = await c.waitFor((m) => m.code === 'rate_limited' && m.id === undefined);
		assert.equal(e.type, 'error');
		c.close();
	} finally {
		await stopClean(srv);
	}
});

/* Sends messages in one socket write (so they arrive together). */
function sendTogether(c, msgs) {
	const frames = msgs.map((m) => Buffer.concat(WebSocket.Sender.frame(
		Buffer.from(JSON.stringify(m)), { fin: true, opcode: 1, mask: true, readOnly: false })));
	c.ws._socket.write(Buffer.concat(frames));
}

test('strikes: a client calm for a whole bucket is forgiven; the last strike is answered, then 1008',
	async () => {
		// A bucket of 2 refills in 40 ms at 50/s.
		const srv = await startLaird({ args: ['--rate-msgs-per-sec', '50', '--rate-burst', '2',
			'--rate-abuse-strikes', '3'] });
		try {
			const c = await connect(srv.url);
			let next = 1;
			const burst = (n) => {
				const msgs = Array.from({ length: n }, () => ({ type: 'ping', id: next++ }));
				sendTogether(c, msgs);
				return Promise.all(msgs.map((m) => c.waitFor((r) => r.id === m.id, 5000)));
			};
			const limited = (rs) => rs.filter((m) => m.code === 'rate_limited').length;
			const s1 = limited(await burst(4)); // 2 pass: 2 strikes (1 if a token came back)
			assert.ok(s1 >= 1 && s1 <= 2, `${s1} strikes`);
			// Calm for at least a whole bucket's refill (a lower bound: more
			// time only refills more): the strikes are forgiven.
			await new Promise((r) => setTimeout(r, 200));
			const s2 = limited(await burst(4));
			assert.ok(s2 >= 1 && s2 <= 2, `${s2} strikes`);
			assert.equal(c.closeInfo, null, `${s1} + ${s2} strikes closed it: none forgiven`);
			// Past the limit now: the closing strike's error arrives, then 1008.
			sendTogether(c, ['last-a', 'last-b', 'last-c'].map((id) => ({ type: 'ping', id })));
			const closed = await c.waitClose();
			assert.equal(closed.code, 1008);
			const last = c.received.filter((m) => m.code === 'rate_limited').pop();
			assert.ok(last && /^last-/.test(last.id), JSON.stringify(c.received.slice(-4)));
		} finally {
			await stopClean(srv);
		}
	});

test('a burst of 200: every accepted request is answered, each dropped one too, then 1008', async () => {
	const srv = await startLaird(); // the defaults: 20/s, a bucket of 40, 20 strikes
	try {
		const c = await connect(srv.url);
		for (let i = 0; i < 200; i++) c.send({ type: 'ping', id: i });
		const closed = await c.waitClose(10000);
		assert.deepEqual(closed, { code: 1008, reason: 'message rate limit exceeded' });
		const pongs = c.received.filter((m) => m.type === 'pong');
		const limited = c.received.filter((m) => m.code === 'rate_limited');
		const accepted = await metric(srv, 'lair_messages_in_total');
		assert.ok(accepted >= 40, `${accepted} accepted`);
		assert.equal(pongs.length, accepted, 'every accepted ping answered');
		assert.equal(limited.length, 20, 'every strike answered, the closing one too');
		// In order, each id once: the close came after the last of them.
		const ids = [...pongs, ...limited].map((m) => m.id).sort((a, b) => a - b);
		assert.deepEqual(ids, Array.from({ length: ids.length }, (_, i) => i));
	} finally {
		await stopClean(srv);
	}
});

test('admin_stats.errors counts rate_limited (the network layer\'s too)', async () => {
	const srv = await startLaird({ args: ['--rate-msgs-per-sec', '1', '--rate-burst', '2',
		'--rate-abuse-strikes', '1000'] });
	try {
		const admin = await resume(srv, await adminToken(srv));
		const c = await connect(srv.url);
		for (let i = 0; i < 6; i++) c.send({ type: 'ping', id: i });
		for (let i = 0; i < 6; i++) await c.waitFor((m) => m.id === i);
		const dropped = c.received.filter((m) => m.code === 'rate_limited').length;
		assert.ok(dropped >= 3);
		const st = await admin.ok('admin_stats');
		assert.equal(st.errors.rate_limited, dropped);
		assert.equal(await metric(srv, 'lair_errors_total{code="rate_limited"}'), dropped);
		c.close();
	} finally {
		await stopClean(srv);
	}
});

test('a reader that keeps up is never closed: three 9-seat deepfalls at the largest config, pacing 0',
	async () => {
		const srv = await startLaird();
		try {
			const p = await player(srv, 'host');
			let bytes = 0;
			p.c.ws.on('message', (d) => (bytes += d.length));
			// The most tables one player may host, created at once; the
			// client looks away for 100 ms meanwhile, as a busy one would.
			p.c.ws._socket.pause();
			const created = [0, 1, 2].map(() => p.req('table_create', { kind: 'deepfall',
				seats: 9, ai: 9, start: true, pacing_ms: 0,
				config: { floors: 12, rooms: 8, bag_max: 40 } }, 20000));
			await new Promise((r) => setTimeout(r, 100));
			p.c.ws._socket.resume();
			for (const r of await Promise.all(created))
				assert.equal(r.type, 'table', JSON.stringify(r));
			for (let i = 0; i < 3; i++)
				await p.c.waitFor((m) => m.type === 'result', 60000, `result #${i + 1}`);
			assert.equal(p.c.closeInfo, null);
			// Far more than max_send_queue (256 KB) came in a burst, and
			// nobody was taken for a slow reader.
			assert.ok(bytes > 3 * 256 * 1024, `${bytes} bytes`);
			assert.equal(await metric(srv, 'lair_net_errors_total{code="slow_reader"}'), 0);
			p.c.close();
		} finally {
			await stopClean(srv);
		}
	});
