'use strict';
/*
 * docs_rules.test.js — the repository carries its own rules: every decision
 * id of docs/rules/gems.md (G1…) is cited by the gems code and named by a
 * unit test, every id the code or tests cite exists in the page, and no
 * file points outside the repository for a rule or design document.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function files(dir, exts) {
	const out = [];
	for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
		const rel = path.join(dir, e.name);
		if (e.isDirectory()) {
			if (e.name !== 'node_modules' && !e.name.startsWith('.')) out.push(...files(rel, exts));
		} else if (exts.some((x) => e.name.endsWith(x))) {
			out.push(rel);
		}
	}
	return out;
}
const read = (f) => fs.readFileSync(path.join(ROOT, f), 'utf8');

test('every gems rule id is in the code and in a test named after it', () => {
	const doc = read('docs/rules/gems.md');
	const ids = [...doc.matchAll(/^\*\*(G\d+) — /gm)].map((m) => m[1]);
	assert.ok(ids.length >= 36, `only ${ids.length} rule ids in docs/rules/gems.md`);
	assert.deepStrictEqual(ids, ids.map((_, i) => `G${i + 1}`), 'ids run G1, G2, … in order');
	const code = files('server/games/gems', ['.c', '.h']).map(read).join('\n');
	const tests = files('tests/unit', ['.c']).map(read).join('\n');
	const names = [...tests.matchAll(/^TEST\((\w+)\)/gm)].map((m) => m[1]);
	for (const id of ids) {
		const cites = new RegExp(`\\b${id}(?!\\d)`);
		assert.ok(cites.test(code), `${id}: no gems code cites it`);
		assert.ok(names.some((n) => new RegExp(`_${id}_`).test(n)),
			`${id}: no unit test is named after it`);
	}
	// and nothing cites an id the page does not define
	for (const m of (code + tests).matchAll(/\bG(\d+)(?!\d)/g))
		assert.ok(Number(m[1]) >= 1 && Number(m[1]) <= ids.length, `G${m[1]} cited, not defined`);
});

test('no file points at documents outside the repository', () => {
	const all = [...files('.', ['.c', '.h', '.md', '.js', '.json', '.sh', '.sql'])]
		.filter((f) => !f.startsWith('build') && !f.includes('node_modules'));
	assert.ok(all.length > 100);
	for (const f of all) {
		if (f === path.join('tests', 'e2e', 'docs_rules.test.js')) continue;
		const s = read(f);
		for (const bad of ['../shared', 'RULES-gems'])
			assert.ok(!s.includes(bad), `${f} points at ${bad}`);
		// the client's, the protocol's and the kinds' comments explain themselves
		if (/^(client-cli|proto|docs|server\/games)\//.test(f))
			for (const bad of ['NOTES-lws', '/work/'])
				assert.ok(!s.includes(bad), `${f} points at ${bad}`);
	}
});
