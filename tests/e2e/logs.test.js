'use strict';
/*
 * logs.test.js — laird's log as an operator reads it under systemd: with
 * stderr as the journal ($JOURNAL_STREAM naming that very file, as systemd
 * sets it) every line carries its syslog priority ("<3>" error … "<7>"
 * debug) so `journalctl -p err` works; one line per closed connection with
 * the peer's address and the close code, whoever closed it; a hello with a
 * bad token at warn with the peer's address, matched by the fail2ban filter
 * that deploy/README.md documents; the hello's `client` string.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { startLaird, runLaird, connect, LAIRD } = require('./lib/laird');
const { wrap } = require('./lib/app');

const ROOT = path.resolve(__dirname, '..', '..');

/* Polls the log file until re matches (bounded); returns the match. */
async function waitLog(file, re, ms = 10000) {
	const until = Date.now() + ms;
	for (;;) {
		const m = fs.readFileSync(file, 'utf8').match(re);
		if (m) return m;
		if (Date.now() > until) throw new Error(`no ${re} in the log:\n${fs.readFileSync(file, 'utf8')}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

/* laird with stderr to a file that $JOURNAL_STREAM names, as under systemd. */
async function startJournaled(dir, args = [], logName = 'stderr') {
	const logFile = path.join(dir, logName);
	const fd = fs.openSync(logFile, 'w');
	const st = fs.fstatSync(fd);
	const proc = spawn(LAIRD, ['--port', '0', '--db-path', path.join(dir, 'lair.db'), ...args], {
		env: { ...process.env, JOURNAL_STREAM: `${st.dev}:${st.ino}` },
		stdio: ['ignore', 'pipe', fd],
	});
	fs.closeSync(fd);
	let out = '';
	proc.stdout.on('data', (d) => (out += d));
	const exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
	const until = Date.now() + 10000;
	while (!/listening on [^:]+:(\d+)/.test(out)) {
		if (Date.now() > until || proc.exitCode !== null)
			throw new Error(`laird did not start:\n${out}\n${fs.readFileSync(logFile, 'utf8')}`);
		await new Promise((r) => setTimeout(r, 20));
	}
	const port = Number(out.match(/listening on [^:]+:(\d+)/)[1]);
	return { proc, port, url: `ws://127.0.0.1:${port}/`, logFile, exited };
}

test('under the journal: priorities, connection lines, bad tokens, the client string', async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-e2e-logs-'));
	const srv = await startJournaled(dir, ['--log-level', 'debug']);
	try {
		// A stranger's client: hello with a made-up client string.
		const a = wrap(await connect(srv.url));
		const w = await a.req('hello', { protocol: 1, name: 'logwatcher', client: 'stranger/2.5 "x"' });
		assert.strictEqual(w.type, 'welcome');
		await waitLog(srv.logFile, /^<6>info  app: player logwatcher \(\d+\) created, conn \d+ from 127\.0\.0\.1, client "stranger\/2\.5 "x""$/m);

		// An attacker guessing tokens: warn, with the address to ban.
		const b = wrap(await connect(srv.url));
		const bad = await b.req('hello', { protocol: 1, token: 'f'.repeat(64) });
		assert.strictEqual(bad.code, 'bad_token');
		const warn = (await waitLog(srv.logFile, /^<4>warn  app: hello refused from 127\.0\.0\.1: bad token \(conn \d+\)$/m))[0];

		// deploy/README.md's fail2ban filter matches the line as the journal
		// keeps it (journald strips the priority prefix).
		const readme = fs.readFileSync(path.join(ROOT, 'deploy', 'README.md'), 'utf8');
		const fr = readme.match(/^\s*failregex = (.+)$/m);
		assert.ok(fr, 'deploy/README.md documents a failregex');
		const host = '(?<host>[0-9a-fA-F.:]+)';
		const re = new RegExp(fr[1].replace('<HOST>', host));
		const got = warn.replace(/^<\d>/, '').match(re);
		assert.ok(got, `${fr[1]} does not match ${warn}`);
		assert.strictEqual(got.groups.host, '127.0.0.1');

		// Closes: by the peer with a code, by laird (a binary frame: 1003),
		// and a dropped connection (no close frame: 1006).
		const idOf = async (name) => Number((await waitLog(srv.logFile,
			new RegExp(`player ${name} \\(\\d+\\) created, conn (\\d+)`)))[1]);
		const aConn = await idOf('logwatcher');
		a.c.ws.close(4001, 'bye');
		await waitLog(srv.logFile, new RegExp(`^<6>info  conn: ${aConn} from 127\\.0\\.0\\.1: closed 4001 by the peer$`, 'm'));
		const bConn = Number(warn.match(/conn (\d+)/)[1]);
		b.c.send(Buffer.from([1, 2, 3]));
		await b.c.waitClose(5000);
		await waitLog(srv.logFile, new RegExp(`^<6>info  conn: ${bConn} from 127\\.0\\.0\\.1: closed 1003 by laird$`, 'm'));
		const c = wrap(await connect(srv.url));
		await c.req('hello', { protocol: 1, name: 'logdropper' });
		const cConn = await idOf('logdropper');
		c.c.ws.terminate();
		await waitLog(srv.logFile, new RegExp(`^<6>info  conn: ${cConn} from 127\\.0\\.0\\.1: closed 1006 by the peer$`, 'm'));
		// the opening, at debug
		await waitLog(srv.logFile, new RegExp(`^<7>debug conn: ${cConn} from 127\\.0\\.0\\.1: open$`, 'm'));

		// A start-up failure is an error: the port is taken.
		const busy = await startJournaled(dir, ['--port', String(srv.port)], 'busy').catch((e) => e);
		assert.ok(busy instanceof Error);
		assert.match(fs.readFileSync(path.join(dir, 'busy'), 'utf8'), /^<3>laird: /m);
	} finally {
		srv.proc.kill('SIGTERM');
		assert.strictEqual(await srv.exited, 0);
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

test('every line has a priority under the journal; none when stderr is elsewhere', async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-e2e-logs-'));
	const srv = await startJournaled(dir);
	try {
		const a = wrap(await connect(srv.url));
		await a.req('hello', { protocol: 1, name: 'prio' });
		a.c.ws.close(1000);
		await waitLog(srv.logFile, /closed 1000 by the peer/);
	} finally {
		srv.proc.kill('SIGTERM');
		assert.strictEqual(await srv.exited, 0);
	}
	const lines = fs.readFileSync(srv.logFile, 'utf8').trimEnd().split('\n');
	assert.ok(lines.length >= 5, lines.join('\n'));
	for (const l of lines) assert.match(l, /^<[3-7]>/, 'a line without its priority');
	// the first start's admin token too, at info
	assert.ok(lines.some((l) => /^<6>ADMIN_TOKEN=[0-9a-f]{64}$/.test(l)));
	fs.rmSync(dir, { recursive: true, force: true });

	// $JOURNAL_STREAM inherited, but stderr is a pipe: plain timestamped lines.
	const plain = await startLaird({ env: { JOURNAL_STREAM: '8:12345' } });
	const r = await plain.stop();
	assert.strictEqual(r.code, 0);
	assert.ok(!/^<\d>/m.test(r.output), r.output);
	assert.match(r.output, /^\d{4}-\d\d-\d\dT[\d:.]+Z info  laird: bye$/m);
	// and a usage error stays plain text too
	const u = await runLaird(['--bogus'], { env: { JOURNAL_STREAM: '8:12345' } });
	assert.strictEqual(u.code, 2);
	assert.match(u.stderr, /^laird: unknown flag --bogus/);
});
