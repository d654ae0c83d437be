'use strict';
/*
 * architecture.test.js — docs/ARCHITECTURE.md stays true where a newcomer
 * leans on it: every request of the app's request table (handlers[] in
 * server/app.c) is in its table of requests, in the row of the file that
 * defines the request's handler, and every file the page names exists.
 * And every source file over 800 lines says at its top why it is long.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const read = (f) => fs.readFileSync(path.join(ROOT, f), 'utf8');
const doc = read('docs/ARCHITECTURE.md');

test('every request is in the table, in the row of the file that handles it', () => {
	const app = read('server/app.c');
	const entries = [...app.matchAll(/\[PROTO_(\w+)\] = \{(handle_\w+),/g)];
	assert.ok(entries.length >= 30, `only ${entries.length} requests in handlers[]`);
	const sources = fs.readdirSync(path.join(ROOT, 'server')).filter((f) => f.endsWith('.c'));
	const section = doc.slice(doc.indexOf('## 5. Where each request'), doc.indexOf('## 6.'));
	const rows = section.split('\n').filter((l) => l.startsWith('| `'));
	for (const [, type, fn] of entries) {
		const name = type.toLowerCase();
		const file = sources.find((f) =>
			new RegExp(`^void ${fn}\\(`, 'm').test(read(path.join('server', f))));
		assert.ok(file, `${fn} is defined in no server/*.c`);
		const row = rows.find((l) => l.includes(`\`${name}\``));
		assert.ok(row, `${name}: not in docs/ARCHITECTURE.md's table of requests`);
		assert.ok(row.includes(`server/${file}`), `${name}: its row does not name server/${file}`);
	}
});

test('every file the page names exists', () => {
	const named = new Set([...doc.matchAll(/`((?:server|client-cli|proto|common|web|tests|docs)\/[\w./<>-]+)`/g)]
		.map((m) => m[1]).filter((f) => !f.includes('<') && !f.includes('*')));
	assert.ok(named.size > 20);
	for (const f of named)
		assert.ok(fs.existsSync(path.join(ROOT, f)), `docs/ARCHITECTURE.md names ${f}`);
	// and the files of the module table, written without their directory
	const table = doc.slice(doc.indexOf('### server/'), doc.indexOf('### server/games/'));
	for (const m of table.matchAll(/`(\w+\.c)`/g))
		assert.ok(fs.existsSync(path.join(ROOT, 'server', m[1])), `server/${m[1]} is listed`);
});

test('every source file over 800 lines says at its top why it is long', () => {
	const SKIP = /^(build|node_modules|\.git|var)|^tests\/fuzz\/(corpus|regress|known)$/;
	const sources = [];
	const walk = (dir) => {
		for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
			const rel = path.join(dir, e.name);
			if (SKIP.test(e.name) || SKIP.test(rel)) continue;
			if (e.isDirectory()) walk(rel);
			else if (/\.(c|h|js|mjs|py|sh)$/.test(e.name)) sources.push(rel);
		}
	};
	walk('.');
	assert.ok(sources.length > 200, `only ${sources.length} sources read`);
	const silent = sources.filter((f) => {
		const lines = read(f).split('\n');
		// "Long (1,000 lines) on purpose: ..." within its opening comment
		return lines.length > 801 && !/\bLong \([\d,]+ lines\)/.test(lines.slice(0, 40).join('\n'));
	});
	assert.deepStrictEqual(silent, [], 'say at the top why (or split the file): ' +
		'"Long (N lines) on purpose: ..."');
});
