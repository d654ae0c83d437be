'use strict';
/*
 * lib/cluster.js — a whole lair cluster on one machine, for tests/cluster/run:
 * PostgreSQL 15, Redis, HAProxy (deploy/haproxy-lair.cfg with loopback
 * addresses) and N lairds, each on a free loopback port, everything in one
 * temporary directory, every process a child of ours, stopped by pid.
 *
 *   const c = await startCluster({ nodes: 3, lairdArgs: [...] });
 *   c.dir, c.pg.port, c.redis.port, c.haproxy.port, c.nodes[i] (lib/laird.js
 *   servers: .port, .get(), .stop(), .proc), each in cluster mode on
 *   c.storeUrl and c.redisAddr
 *   await c.haproxyStat()        -> { n1: 'UP', n2: 'DOWN', ... }
 *   await c.addNode()            // one more laird (not behind HAProxy)
 *   c.pg = await c.pg.restart(ms), c.redis = await c.redis.restart(ms)
 *                                // an outage of ms, same port
 *   await c.stop()               // everything, also after a failure
 *
 * PostgreSQL refuses to run as root: when we are root its processes run as
 * nobody, in a directory nobody owns. fsync stays on.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { startLaird } = require('../../e2e/lib/laird');
const { freePort } = require('../../e2e/lib/port');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PGBIN = process.env.PGBIN || '/usr/lib/postgresql/15/bin';

/* Resolves when fn() returns truthy; polls every 50 ms, up to ms. */
async function until(what, fn, ms) {
	const end = Date.now() + ms;
	for (;;) {
		const v = await fn();
		if (v) return v;
		if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

function tcpAnswers(port, probe, re) {
	return new Promise((resolve) => {
		const s = net.connect(port, '127.0.0.1');
		let data = '';
		const done = (v) => { s.destroy(); resolve(v); };
		s.setTimeout(1000, () => done(false));
		s.on('error', () => done(false));
		s.on('connect', () => { if (probe) s.write(probe); });
		s.on('data', (d) => { data += d; if (re.test(data)) done(true); });
	});
}

/* A child process whose output goes to a log file; exits are remembered. */
function child(name, cmd, args, dir, opts = {}) {
	const log = fs.openSync(path.join(dir, `${name}.log`), 'a');
	const p = spawn(cmd, args, { stdio: ['ignore', log, log], ...opts });
	fs.closeSync(log);
	const c = { name, proc: p, exit: null };
	c.exited = new Promise((resolve) => p.on('exit', (code, signal) => {
		c.exit = { code, signal };
		resolve(c.exit);
	}));
	p.on('error', (e) => { c.exit = { code: -1, error: e.message }; });
	return c;
}

async function kill(c, signal = 'SIGKILL', ms = 10000) {
	if (!c || c.exit) return;
	try { process.kill(c.proc.pid, 'SIGCONT'); } catch { /* gone */ }
	c.proc.kill(signal);
	await Promise.race([c.exited, new Promise((r) => setTimeout(r, ms))]);
	if (!c.exit) { c.proc.kill('SIGKILL'); await c.exited; }
}

/* postgres on its data directory and port, once it takes connections. */
async function runPostgres(dir, pgdir, port, env, ids) {
	const pg = child('postgres', path.join(PGBIN, 'postgres'), ['-D', path.join(pgdir, 'data'),
		'-p', String(port), '-k', pgdir, '-c', 'listen_addresses=127.0.0.1',
		'-c', 'fsync=on', '-c', 'synchronous_commit=on',
		'-c', 'tcp_keepalives_idle=5', '-c', 'tcp_keepalives_interval=1',
		'-c', 'tcp_keepalives_count=3'], dir, { cwd: pgdir, env, ...ids });
	pg.port = port;
	pg.dir = pgdir;
	pg.psql = (sql, db = 'postgres') => spawnSync(path.join(PGBIN, 'psql'),
		['-h', '127.0.0.1', '-p', String(port), '-U', 'lair', '-d', db, '-At', '-c', sql],
		{ encoding: 'utf8', env, timeout: 30000 });
	/* Stopped as a crash (SIGQUIT: immediate, no checkpoint), started
	 * again on the same data and port after downMs. */
	pg.restart = async (downMs) => {
		await kill(pg, 'SIGQUIT');
		await new Promise((r) => setTimeout(r, downMs)); // the outage itself
		/* On a loaded machine the old server's last processes may still
		 * hold its shared memory: the new one refuses to start (exit 1,
		 * said in its log); it is tried again, a few times. */
		for (let tries = 1; ; tries++) {
			try {
				return await runPostgres(dir, pgdir, port, env, ids);
			} catch (e) {
				if (tries === 5 || !/postgres exited/.test(e.message)) throw e;
				await new Promise((r) => setTimeout(r, 1000));
			}
		}
	};
	await until('PostgreSQL to accept connections', () => {
		if (pg.exit) {
			const log = fs.readFileSync(path.join(dir, 'postgres.log'), 'utf8');
			throw new Error(`postgres exited ${JSON.stringify(pg.exit)}: ${log.slice(-400)}`);
		}
		return spawnSync(path.join(PGBIN, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)],
			{ timeout: 5000 }).status === 0;
	}, 60000);
	return pg;
}

async function startPostgres(dir) {
	const pgdir = path.join(dir, 'pg');
	fs.mkdirSync(pgdir, { mode: 0o700 });
	const asRoot = process.getuid && process.getuid() === 0;
	const ids = asRoot ? { uid: 65534, gid: 65534 } : {};
	if (asRoot) fs.chownSync(pgdir, 65534, 65534);
	const env = { ...process.env, LC_ALL: 'C', HOME: pgdir };
	const init = spawnSync(path.join(PGBIN, 'initdb'),
		['-D', path.join(pgdir, 'data'), '-A', 'trust', '-U', 'lair', '--no-locale', '-E', 'UTF8'],
		{ cwd: pgdir, env, encoding: 'utf8', ...ids, timeout: 120000 });
	if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error}`);
	const port = await freePort();
	const pg = await runPostgres(dir, pgdir, port, env, ids);
	const mk = pg.psql('CREATE DATABASE lair');
	if (mk.status !== 0) throw new Error(`CREATE DATABASE: ${mk.stderr}`);
	return pg;
}

async function startRedis(dir, port) {
	port = port || await freePort();
	const r = child('redis', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1',
		'--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no',
		'--client-output-buffer-limit', 'pubsub 64mb 16mb 60'], dir);
	r.port = port;
	/* Killed (-9: it keeps nothing), started again on the same port. */
	r.restart = async (downMs) => {
		await kill(r);
		await new Promise((res) => setTimeout(res, downMs)); // the outage itself
		return startRedis(dir, port);
	};
	await until('Redis to answer', () => {
		if (r.exit) throw new Error(`redis-server exited ${JSON.stringify(r.exit)}`);
		return tcpAnswers(port, 'PING\r\n', /^\+PONG/);
	}, 20000);
	return r;
}

/* deploy/haproxy-lair.cfg with our ports: the bind line and the servers'
 * addresses change, and maxconn to what this machine's file limit allows
 * (two descriptors a connection); plus a stats socket for the checks. */
function haproxyConfig(port, nodes, sock) {
	let cfg = fs.readFileSync(path.join(ROOT, 'deploy', 'haproxy-lair.cfg'), 'utf8');
	let n = 0;
	cfg = cfg.replace(/^(\s*bind )\S+.*$/m, `$1127.0.0.1:${port}`);
	cfg = cfg.replace(/^(\s*server (\S+) )\S+( .*)$/mg, (all, head, name, tail) => {
		const node = nodes[n++];
		return node ? `${head}127.0.0.1:${node.port}${tail}` : `#${all}`;
	});
	if (n !== nodes.length && n < nodes.length)
		throw new Error(`deploy/haproxy-lair.cfg names ${n} servers, the test runs ${nodes.length}`);
	cfg = cfg.replace(/^(\s*maxconn )\d+/m, (all, head) => `${head}1000`);
	cfg = cfg.replace(/^global\n/m, `global\n    stats socket ${sock} level admin\n`);
	return cfg;
}

function haproxyCommand(sock, cmd) {
	return new Promise((resolve, reject) => {
		const s = net.connect(sock);
		let out = '';
		s.setTimeout(5000, () => { s.destroy(); reject(new Error('haproxy socket timeout')); });
		s.on('error', reject);
		s.on('connect', () => s.write(cmd + '\n'));
		s.on('data', (d) => (out += d));
		s.on('end', () => resolve(out));
	});
}

async function startHaproxy(dir, nodes) {
	const port = await freePort();
	const sock = path.join(dir, 'haproxy.sock');
	const file = path.join(dir, 'haproxy.cfg');
	fs.writeFileSync(file, haproxyConfig(port, nodes, sock));
	const check = spawnSync('haproxy', ['-c', '-f', file], { encoding: 'utf8' });
	if (check.status !== 0) throw new Error(`haproxy -c: ${check.stdout}${check.stderr}`);
	const h = child('haproxy', 'haproxy', ['-db', '-f', file], dir);
	h.log = () => fs.readFileSync(path.join(dir, 'haproxy.log'), 'utf8');
	h.port = port;
	h.sock = sock;
	h.file = file;
	await until('HAProxy to listen', async () => {
		if (h.exit) throw new Error(`haproxy exited ${JSON.stringify(h.exit)}: ${h.log().slice(-500)}`);
		return fs.existsSync(sock) && tcpAnswers(port, 'GET /healthz HTTP/1.0\r\n\r\n', /^HTTP\/1\.[01] \d/);
	}, 20000);
	return h;
}

async function startCluster({ nodes = 3, lairdArgs = [] } = {}) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-cluster-'));
	fs.chmodSync(dir, 0o755);
	const c = { dir, pg: null, redis: null, haproxy: null, nodes: [] };
	c.stop = async () => {
		await Promise.all(c.nodes.map((n) => n.proc.exitCode === null && n.proc.signalCode === null
			? n.stop({ signal: 'SIGKILL' }).catch(() => {}) : null));
		await kill(c.haproxy);
		await kill(c.redis);
		/* SIGQUIT: PostgreSQL's immediate shutdown. */
		await kill(c.pg, 'SIGQUIT');
		fs.rmSync(dir, { recursive: true, force: true });
	};
	try {
		[c.pg, c.redis] = await Promise.all([startPostgres(dir), startRedis(dir)]);
		c.storeUrl = `postgresql://lair@127.0.0.1:${c.pg.port}/lair`;
		c.redisAddr = `127.0.0.1:${c.redis.port}`;
		c.addNode = async () => {
			const n = await startLaird({ args: ['--trust-proxy', '--window-ms', '200',
				'--reveal-pause-ms', '0',
				'--store', c.storeUrl, '--redis', c.redisAddr, ...lairdArgs] });
			c.nodes.push(n);
			return n;
		};
		/* The first node issues the admin token before the others start:
		 * each node's store issues it on an empty database, and two doing
		 * so at once race (on a busy machine n1 once printed none). */
		for (let i = 0; i < nodes; i++) {
			const n = await c.addNode();
			if (i === 0) await n.waitForOutput(/ADMIN_TOKEN=[0-9a-f]{64}/, 60000);
		}
		c.haproxy = await startHaproxy(dir, c.nodes);
	} catch (e) {
		await c.stop();
		throw e;
	}
	c.haproxyStat = async () => {
		const csv = await haproxyCommand(c.haproxy.sock, 'show stat');
		const st = {};
		const lines = csv.split('\n');
		const head = lines[0].replace(/^# /, '').split(',');
		const px = head.indexOf('pxname'), sv = head.indexOf('svname'), status = head.indexOf('status');
		for (const l of lines.slice(1)) {
			const f = l.split(',');
			if (f[px] === 'lair' && /^n\d+$/.test(f[sv])) st[f[sv]] = f[status];
		}
		return st;
	};
	return c;
}

module.exports = { startCluster, until, freePort };
