'use strict';
/*
 * lib/laird.js — the end-to-end tests' shared helper: run a real `laird`
 * and talk to it with real WebSocket clients (node's `ws`). Every wait is
 * bounded; nothing sleeps for a fixed time.
 *
 *   const { startLaird, connect } = require('./lib/laird');
 *
 *   const srv = await startLaird({ args: ['--rate-burst', '5'] });
 *     // laird on 127.0.0.1 with --port 0 (a free port) and a temporary
 *     // database dir; resolves once GET /healthz answered 200.
 *     // opts: args [..] extra flags; dbDir reuse this dir (kept at stop, for
 *     //   restart tests); env {..}; timeoutMs start-up bound (10 s; 60 s
 *     //   under valgrind); valgrind true: run under valgrind --leak-check.
 *     // srv.port, srv.host, srv.url ('ws://127.0.0.1:PORT/'), srv.httpUrl, srv.dbDir,
 *     // srv.dbPath, srv.proc, srv.output() (stdout+stderr so far)
 *   await srv.get('/metrics')         // -> { status, body }
 *   await srv.waitForOutput(/regex/, ms)  // -> the match, from stdout/stderr
 *   const r = await srv.stop()        // SIGTERM (or stop({signal:'SIGKILL'}); with
 *                                     // signal null it only waits for the exit)
 *                                     // -> { code, signal, output }; throws if
 *                                     // it does not exit within timeoutMs; then
 *                                     // removes its own temporary dbDir
 *   await srv.exited                  // the same, without sending a signal
 *
 *   const c = await connect(srv.url)  // opts: timeoutMs, headers
 *   c.send({ type: 'hello', ... })    // objects are JSON-encoded; strings and
 *                                     // Buffers go as they are (a Buffer is a
 *                                     // binary frame)
 *   const m = await c.waitFor(m => m.type === 'welcome', 5000)
 *     // consumes and returns the first received message (parsed JSON; a
 *     // non-JSON frame is { raw: text }) that matches, earlier or later;
 *     // rejects on timeout or when the connection closes first
 *   c.received                        // every message so far, in order
 *   const { code, reason } = await c.waitClose(5000)
 *   c.close()                         // and c.terminate()
 *
 *   runLaird(args, { timeoutMs }) -> { code, signal, stdout, stderr } runs laird
 *   to completion (--help, bad flags, busy port).
 *   await stopClean(srv)              // stop(), and throw unless it exited 0
 *                                     // with no sanitizer report
 *   await metric(srv, 'lair_connections')  // one /metrics sample, or undefined
 *
 * LAIRD (set by tests/run) points at the binary; default build/laird.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const WebSocket = require('ws');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const LAIRD = process.env.LAIRD || path.join(ROOT, 'build', 'laird');

function httpGet(url, timeoutMs = 5000) {
	return new Promise((resolve, reject) => {
		const req = http.get(url, { timeout: timeoutMs }, (res) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (d) => (body += d));
			res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
		});
		req.on('timeout', () => req.destroy(new Error(`GET ${url}: timeout`)));
		req.on('error', reject);
	});
}

function withTimeout(promise, ms, what) {
	let t;
	const timer = new Promise((_, reject) => {
		t = setTimeout(() => reject(new Error(`timeout after ${ms} ms: ${what}`)), ms);
	});
	return Promise.race([promise, timer]).finally(() => clearTimeout(t));
}

function hasValgrind() {
	return (process.env.PATH || '').split(':').some((d) => {
		try {
			fs.accessSync(path.join(d, 'valgrind'), fs.constants.X_OK);
			return true;
		} catch {
			return false;
		}
	});
}

/* Every laird still running when this process exits is killed, so a test
 * that throws before stop() never leaves one behind (or hangs the runner:
 * the child's pipes are unref'd below). */
const running = new Map(); // proc -> its own temporary dir (or null)
process.on('exit', () => {
	for (const [p, dir] of running) {
		p.kill('SIGKILL');
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	}
});

async function startLaird(opts = {}) {
	const ownDir = !opts.dbDir;
	const dbDir = opts.dbDir || fs.mkdtempSync(path.join(os.tmpdir(), 'lair-e2e-'));
	const dbPath = path.join(dbDir, 'lair.db');
	const args = ['--port', '0', '--db-path', dbPath, ...(opts.args || [])];
	let cmd = LAIRD;
	let argv = args;
	if (opts.valgrind) {
		cmd = 'valgrind';
		// laird allocates with jemalloc (Makefile, MALLOC): valgrind
		// replaces its malloc as it does libc's when told its name.
		argv = ['--leak-check=full', '--errors-for-leak-kinds=definite,indirect',
			'--soname-synonyms=somalloc=*jemalloc*',
			'--error-exitcode=99', '--quiet', LAIRD, ...args];
	}
	const timeoutMs = opts.timeoutMs || (opts.valgrind ? 60000 : 10000);
	const proc = spawn(cmd, argv, {
		env: { ...process.env, ...(opts.env || {}) },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	running.set(proc, ownDir ? dbDir : null);
	proc.unref();
	proc.stdout.unref();
	proc.stderr.unref();
	let out = '';
	const listeners = new Set();
	const onData = (d) => {
		out += d.toString();
		for (const l of listeners) l();
	};
	proc.stdout.on('data', onData);
	proc.stderr.on('data', onData);
	const exited = new Promise((resolve) => {
		proc.on('exit', (code, signal) => {
			running.delete(proc);
			// Let the pipes drain so output() is complete.
			setImmediate(() => {
				for (const l of listeners) l();
				resolve({ code, signal, output: out });
			});
		});
	});
	let isExited = false;
	exited.then(() => (isExited = true));

	const srv = {
		proc, dbDir, dbPath, exited,
		output: () => out,
		waitForOutput(re, ms = timeoutMs) {
			return withTimeout(new Promise((resolve, reject) => {
				const check = () => {
					const m = out.match(re);
					if (m) {
						listeners.delete(check);
						resolve(m);
					} else if (isExited) {
						listeners.delete(check);
						reject(new Error(`laird exited before printing ${re}:\n${out}`));
					}
				};
				listeners.add(check);
				check();
			}), ms, `laird output ${re}`);
		},
		get(p, ms) {
			return httpGet(srv.httpUrl + p, ms);
		},
		async stop({ signal = 'SIGTERM', timeoutMs: stopMs = opts.valgrind ? 60000 : 10000 } = {}) {
			if (!isExited && signal) proc.kill(signal);
			try {
				return await withTimeout(exited, stopMs, 'laird to exit');
			} catch (e) {
				proc.kill('SIGKILL');
				throw e;
			} finally {
				if (ownDir) fs.rmSync(dbDir, { recursive: true, force: true });
			}
		},
	};

	try {
		const m = await srv.waitForOutput(/listening on (\S+):(\d+)/, timeoutMs);
		srv.port = Number(m[2]);
		srv.host = m[1]; // as laird bound it: "127.0.0.1", "[::1]"
		srv.httpUrl = `http://${srv.host}:${srv.port}`;
		srv.url = `ws://${srv.host}:${srv.port}/`;
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const r = await httpGet(srv.httpUrl + '/healthz', 2000).catch(() => null);
			if (r && r.status === 200) break;
			if (Date.now() > deadline) throw new Error('laird /healthz never answered 200');
			await new Promise((res) => setTimeout(res, 20)); // poll interval
		}
	} catch (e) {
		proc.kill('SIGKILL');
		await exited;
		if (ownDir) fs.rmSync(dbDir, { recursive: true, force: true });
		throw new Error(`${e.message}\n--- laird output ---\n${out}`);
	}
	return srv;
}

/* Runs laird to completion; for --help, usage errors, start-up failures. */
function runLaird(args, { timeoutMs = 10000, env } = {}) {
	return withTimeout(new Promise((resolve, reject) => {
		const proc = spawn(LAIRD, args, { env: { ...process.env, ...(env || {}) } });
		let stdout = '';
		let stderr = '';
		proc.stdout.on('data', (d) => (stdout += d));
		proc.stderr.on('data', (d) => (stderr += d));
		proc.on('error', reject);
		proc.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
	}), timeoutMs, `laird ${args.join(' ')}`);
}

function connect(url, { timeoutMs = 5000, headers } = {}) {
	const ws = new WebSocket(url, { headers, handshakeTimeout: timeoutMs });
	const c = {
		ws,
		received: [],
		pending: [], // unconsumed messages
		waiters: new Set(),
		closeInfo: null,
		send(m) {
			if (Buffer.isBuffer(m)) ws.send(m, { binary: true });
			else ws.send(typeof m === 'string' ? m : JSON.stringify(m));
		},
		waitFor(pred, ms = 5000, what = 'a matching message') {
			const i = c.pending.findIndex(pred);
			if (i >= 0) return Promise.resolve(c.pending.splice(i, 1)[0]);
			return new Promise((resolve, reject) => {
				const w = { pred, resolve, reject };
				w.timer = setTimeout(() => {
					c.waiters.delete(w);
					reject(new Error(`timeout after ${ms} ms waiting for ${what}; got ` +
						JSON.stringify(c.received.slice(-5))));
				}, ms);
				c.waiters.add(w);
				if (c.closeInfo) failClosed(w);
			});
		},
		waitClose(ms = 5000) {
			return withTimeout(c.closed, ms, 'the connection to close');
		},
		close(code, reason) {
			ws.close(code, reason);
		},
		terminate() {
			ws.terminate();
		},
	};
	const failClosed = (w) => {
		clearTimeout(w.timer);
		c.waiters.delete(w);
		w.reject(new Error(`connection closed (${c.closeInfo.code} ${c.closeInfo.reason}) ` +
			`before a matching message; got ${JSON.stringify(c.received.slice(-5))}`));
	};
	c.closed = new Promise((resolve) => {
		ws.on('close', (code, reason) => {
			c.closeInfo = { code, reason: reason.toString() };
			for (const w of [...c.waiters]) failClosed(w);
			resolve(c.closeInfo);
		});
	});
	ws.on('error', (e) => (c.error = e)); // also after open: never uncaught
	ws.on('message', (data, isBinary) => {
		const text = data.toString();
		let m;
		try {
			m = isBinary ? { raw: text, binary: true } : JSON.parse(text);
		} catch {
			m = { raw: text };
		}
		c.received.push(m);
		for (const w of c.waiters) {
			if (w.pred(m)) {
				clearTimeout(w.timer);
				c.waiters.delete(w);
				w.resolve(m);
				return;
			}
		}
		c.pending.push(m);
	});
	return new Promise((resolve, reject) => {
		ws.once('open', () => resolve(c));
		ws.once('error', (e) => reject(e));
		ws.once('unexpected-response', (req, res) =>
			reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
	});
}

/* Stops laird and throws unless it exited 0 with no sanitizer report
 * (under ASan: no leak either). */
async function stopClean(srv) {
	const r = await srv.stop();
	if (r.code !== 0 || /ERROR: (Address|Leak)Sanitizer|runtime error/.test(r.output))
		throw new Error(`laird exit ${r.code} ${r.signal}:\n${r.output}`);
	return r;
}

/* One sample of laird's /metrics, by its full name ('lair_x{code="y"}');
 * undefined when absent. */
async function metric(srv, name) {
	const r = await srv.get('/metrics');
	for (const line of r.body.split('\n')) {
		const i = line.lastIndexOf(' ');
		if (i > 0 && line.slice(0, i) === name) return Number(line.slice(i + 1));
	}
	return undefined;
}

module.exports = { startLaird, runLaird, connect, httpGet, hasValgrind, stopClean, metric, LAIRD };
