'use strict';
/*
 * lib/tmux.js — drive the terminal client `lair` the way a person does: in
 * an 80×24 terminal (a tmux pane on a private tmux server), typing keys
 * (send-keys) and reading the screen (capture-pane). Every wait is bounded
 * and polls the screen; nothing sleeps for a fixed time.
 *
 *   const { startLair, runLair, tcpProxy } = require('./lib/tmux');
 *   const t = await startLair(['play', '--server', url, '--name', 'ann'],
 *                             { env: { XDG_CONFIG_HOME: dir } });
 *     // opts: env, cols/rows (80×24), wrap: a command lair runs under
 *     //   (e.g. ['valgrind', ...flags]), record: keep every byte lair
 *     //   writes (tmux pipe-pane) for t.drawn()
 *   await t.waitScreen(/No tables yet/, 5000)  // -> the screen text
 *   await t.keys('C')                           // literal keys
 *   t.screen()                                  // the screen now
 *   t.screenAnsi()                              // with colour escapes
 *   t.drawn()     // (record) every row lair has drawn so far, in order, as
 *                 // text: a frame shown for less than a poll of screen()
 *                 // is there too (lair rewrites a changed row whole)
 *   await t.waitDrawn(/swap 7 of 7/, 5000)      // -> drawn() once it matches
 *   await t.press('L', /Chosen/, 5000)  // a key, then waitDrawn for what it
 *                 // draws, in what lair writes after the key only (a state
 *                 // the screen shows for a moment is never missed)
 *   const code = await t.waitExit(5000)         // lair's exit code
 *   assert.strictEqual(await t.quit(), 0)      // Q (or another key), then its exit code
 *   await t.kill()                              // always (in finally)
 *
 *   runLair(args, { env, timeoutMs }) -> { code, stdout, stderr } runs lair
 *   without a terminal (stats, admin, --help).
 *
 *   tcpProxy(port) -> { port, url, dropAll(), refuse(bool), close() }: a
 *   loopback TCP relay to laird; dropAll() cuts every relayed connection at
 *   once (a network failure as the client sees it); refuse(true) cuts new
 *   ones too until refuse(false); retarget(port) sends new ones elsewhere.
 *
 * LAIR (set by tests/run) points at the binary; default build/lair.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const LAIR = process.env.LAIR || path.join(ROOT, 'build', 'lair');
let serial = 0;

function tmux(sock, args) {
	const r = spawnSync('tmux', ['-L', sock, ...args], { encoding: 'utf8', timeout: 5000 });
	if (r.error) throw r.error;
	return r;
}

function shq(s) {
	return `'${String(s).replace(/'/g, `'\\''`)}'`;
}

/* Terminal escape sequences out of a pane's raw output: what is left is
 * the text written, in order. Attributes (SGR) go; a cursor move or other
 * control sequence becomes a line break, so two rows never run together. */
function stripEscapes(raw) {
	return raw.replace(/\x1b\[[0-9;]*m/g, '')
		.replace(/\x1b\[[0-9;?<=>]*[ -\/]*[@-~]/g, '\n')
		.replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
		.replace(/\x1b[()][0-9A-Za-z]|\x1b[=>78MDEc]/g, '');
}

async function startLair(args, { env = {}, cols = 80, rows = 24, wrap = [], record = false } = {}) {
	const sock = `lair-e2e-${process.pid}-${++serial}`;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-tmux-'));
	const exitFile = path.join(dir, 'exit');
	const errFile = path.join(dir, 'stderr');
	const outFile = path.join(dir, 'output');
	const envs = Object.entries(env).map(([k, v]) => `${k}=${shq(v)}`).join(' ');
	// The pane stays after lair exits so the test can read the last screen;
	// stderr goes to a file (it would draw over the screen).
	const argv = [...wrap, LAIR, ...args].map(shq).join(' ');
	// With record, lair starts only once the pane's output is piped to a
	// file (the "go" file), so the recording misses nothing.
	const goFile = path.join(dir, 'go');
	const wait = record ? `while [ ! -e ${shq(goFile)} ]; do sleep 0.01; done; ` : '';
	const cmd = `${wait}env ${envs} ${argv} 2>${shq(errFile)}; ` +
		`echo $? > ${shq(exitFile)}; exec sleep 600`;
	const r = tmux(sock, ['-f', '/dev/null', 'new-session', '-d', '-x', String(cols),
		'-y', String(rows), '-s', 'lair', cmd]);
	if (r.status !== 0) throw new Error(`tmux new-session failed: ${r.stderr}`);
	tmux(sock, ['set-option', '-g', 'status', 'off']);
	if (record) {
		const p = tmux(sock, ['pipe-pane', '-t', 'lair', `cat >> ${shq(outFile)}`]);
		if (p.status !== 0) throw new Error(`tmux pipe-pane failed: ${p.stderr}`);
		fs.writeFileSync(goFile, '');
	}

	const t = {
		sock,
		screen() {
			const c = tmux(sock, ['capture-pane', '-p', '-t', 'lair']);
			return c.status === 0 ? c.stdout : '';
		},
		/* The screen with its attributes as escape sequences (colours...). */
		screenAnsi() {
			const c = tmux(sock, ['capture-pane', '-p', '-e', '-t', 'lair']);
			return c.status === 0 ? c.stdout : '';
		},
		drawn() {
			try {
				return stripEscapes(fs.readFileSync(outFile, 'latin1'));
			} catch {
				return '';
			}
		},
		async waitDrawn(re, ms = 5000, from = 0) {
			const deadline = Date.now() + ms;
			for (;;) {
				const d = t.drawn().slice(from);
				if (re.test(d)) return d;
				if (Date.now() > deadline) {
					throw new Error(`timeout after ${ms} ms waiting for ${re} in lair's ` +
						`output; the screen:\n${t.screen()}\n--- lair stderr ---\n${t.stderr()}`);
				}
				await new Promise((res) => setTimeout(res, 50)); // poll interval
			}
		},
		async press(key, re, ms = 5000) {
			const from = t.drawn().length;
			await t.keys(key);
			return t.waitDrawn(re, ms, from);
		},
		stderr() {
			try {
				return fs.readFileSync(errFile, 'utf8');
			} catch {
				return '';
			}
		},
		async keys(...ks) {
			for (const k of ks) {
				const c = tmux(sock, ['send-keys', '-t', 'lair', '-l', k]);
				if (c.status !== 0) throw new Error(`send-keys failed: ${c.stderr}`);
			}
		},
		/* Polls the screen until pred (a RegExp or a function of the text) holds. */
		async waitScreen(pred, ms = 5000, what) {
			const test = typeof pred === 'function' ? pred : (s) => pred.test(s);
			const deadline = Date.now() + ms;
			for (;;) {
				const s = t.screen();
				if (test(s)) return s;
				if (Date.now() > deadline) {
					throw new Error(`timeout after ${ms} ms waiting for ${what || pred} ` +
						`on the screen:\n${s}\n--- lair stderr ---\n${t.stderr()}`);
				}
				await new Promise((res) => setTimeout(res, 50)); // poll interval
			}
		},
		async waitExit(ms = 5000) {
			const deadline = Date.now() + ms;
			for (;;) {
				try {
					const v = fs.readFileSync(exitFile, 'utf8').trim();
					if (v !== '') return Number(v);
				} catch { /* not yet */ }
				if (Date.now() > deadline) {
					throw new Error(`lair did not exit within ${ms} ms; screen:\n${t.screen()}`);
				}
				await new Promise((res) => setTimeout(res, 50)); // poll interval
			}
		},
		/* Quits as a person does (Q, or `key`); resolves with the exit code. */
		async quit(key = 'Q', ms = 5000) {
			await t.keys(key);
			return t.waitExit(ms);
		},
		async kill() {
			tmux(sock, ['kill-server']);
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
	return t;
}

function runLair(args, { env = {}, timeoutMs = 10000 } = {}) {
	return new Promise((resolve, reject) => {
		const proc = spawn(LAIR, args, { env: { ...process.env, ...env } });
		let stdout = '';
		let stderr = '';
		const timer = setTimeout(() => {
			proc.kill('SIGKILL');
			reject(new Error(`lair ${args.join(' ')}: no exit within ${timeoutMs} ms`));
		}, timeoutMs);
		proc.stdout.on('data', (d) => (stdout += d));
		proc.stderr.on('data', (d) => (stderr += d));
		proc.on('error', reject);
		proc.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
	});
}

function tcpProxy(targetPort) {
	let target = targetPort;
	const pairs = new Set();
	let refusing = false;
	const server = net.createServer((client) => {
		if (refusing) {
			client.destroy();
			return;
		}
		const upstream = net.connect(target, '127.0.0.1');
		const pair = { client, upstream };
		pairs.add(pair);
		client.pipe(upstream);
		upstream.pipe(client);
		const end = () => {
			pairs.delete(pair);
			client.destroy();
			upstream.destroy();
		};
		client.on('error', end);
		upstream.on('error', end);
		client.on('close', end);
		upstream.on('close', end);
	});
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () => {
			resolve({
				port: server.address().port,
				url: `ws://127.0.0.1:${server.address().port}/`,
				connections: () => pairs.size,
				/* New connections go to this port from now on (a restarted laird). */
				retarget(port) {
					target = port;
				},
				/* While on, new connections are cut at once (the network is down). */
				refuse(on) {
					refusing = on;
				},
				dropAll() {
					for (const p of [...pairs]) {
						p.client.destroy();
						p.upstream.destroy();
					}
					pairs.clear();
				},
				close() {
					this.dropAll();
					return new Promise((res) => server.close(() => res()));
				},
			});
		});
	});
}

module.exports = { startLair, runLair, tcpProxy, LAIR };
