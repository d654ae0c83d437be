'use strict';
/*
 * lib/store_lock.js — laird's database from the outside, through sqlite3's
 * shell: run a statement on it (sql), or hold the store still to make a
 * race with the store deterministic: sqlite3's shell takes the database's
 * write lock, the store's one thread then waits on its next write (within
 * its busy timeout, 5 s), every request behind it waits too, in order, and
 * the test lets them all go at once.
 *
 *   const { sql, lockDatabase, storeQueued } = require('./lib/store_lock');
 *   sql(srv.dbPath, 'SELECT count(*) FROM games')  // its output, trimmed
 *   const lock = await lockDatabase(srv.dbPath); // BEGIN IMMEDIATE held
 *   ...                                          // requests that write
 *   await storeQueued(srv, 1);  // /metrics: the store holds >= 1 request
 *   await lock.release();       // COMMIT: the store goes on
 */
const { execFileSync, spawn } = require('node:child_process');
const { metric } = require('./laird');

/* Runs SQL on the database with sqlite3's shell (stopping at the first
 * error, which throws); returns what it printed, trimmed. */
function sql(db, text) {
	return execFileSync('sqlite3', ['-bail', db, text], { encoding: 'utf8' }).trim();
}

/* Polls /metrics until the store has at least n requests in hand. */
async function storeQueued(srv, n, ms = 10000) {
	const deadline = Date.now() + ms;
	while ((await metric(srv, 'lair_store_queue_depth')) < n) {
		if (Date.now() > deadline) throw new Error(`the store never held ${n} requests`);
		await new Promise((r) => setTimeout(r, 10)); // poll interval
	}
}

/* Holds the database's write lock until release() (sqlite3's shell). */
async function lockDatabase(dbPath) {
	const sh = spawn('sqlite3', [dbPath], { stdio: ['pipe', 'pipe', 'pipe'] });
	let out = '';
	const locked = new Promise((resolve, reject) => {
		sh.stdout.on('data', (d) => {
			out += d;
			if (/locked-now/.test(out)) resolve();
		});
		sh.on('exit', (code) => reject(new Error(`sqlite3 exited ${code}: ${out}`)));
	});
	sh.stdin.write("BEGIN IMMEDIATE;\nSELECT 'locked-now';\n");
	await locked;
	return {
		release: () => new Promise((resolve) => {
			sh.removeAllListeners('exit');
			sh.on('exit', resolve);
			sh.stdin.end('COMMIT;\n');
		}),
	};
}

module.exports = { sql, lockDatabase, storeQueued };
