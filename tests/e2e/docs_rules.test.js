'use strict';
/*
 * docs_rules.test.js — the repository carries its own rules: every decision
 * id of docs/rules/gems.md (G1…) is cited by the gems code and named by a
 * unit test, every id of docs/rules/deepfall.md (DF1…) and crawl.md (C1…)
 * is cited by the kind's code and a unit test, and every id the code cites
 * exists in its page: `grep -rn ID .` lands on the rule, its code and its
 * test. (No file pointing outside the repository: self_contained.test.js.)
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

// deepfall's and crawl's ids: each cited by the kind's code (or lair's
// simulator and screen of the kind, for the balance figures) and by a unit
// test, in its name or a comment; nothing cites an id the page lacks.
for (const [kind, prefix, def, code] of [
	['deepfall', 'DF', /^- \*\*(DF\d+) — /gm, ['server/games/deepfall', 'client-cli']],
	['crawl', 'C', /^\*\*(C\d+) — /gm, ['server/games/crawl', 'client-cli']],
]) {
	test(`every ${kind} rule id is in the code and in a unit test`, () => {
		const doc = read(`docs/rules/${kind}.md`);
		const ids = [...doc.matchAll(def)].map((m) => m[1]);
		assert.ok(ids.length >= 40, `only ${ids.length} rule ids in docs/rules/${kind}.md`);
		const src = code.flatMap((d) => files(d, ['.c', '.h']))
			.filter((f) => !f.startsWith('client-cli') || f.includes(kind)).map(read).join('\n');
		const tests = files('tests/unit', ['.c']).map(read).join('\n');
		const cited = (id, text) => new RegExp(`(?<![A-Za-z0-9])${id}(?!\\d)`).test(text);
		for (const id of ids) {
			assert.ok(cited(id, src), `${id}: no ${kind} code cites it`);
			assert.ok(cited(id, tests), `${id}: no unit test cites it`);
		}
		const known = new Set(ids);
		for (const m of src.matchAll(new RegExp(`(?<![A-Za-z0-9])${prefix}(\\d+)(?!\\d)`, 'g')))
			assert.ok(known.has(`${prefix}${m[1]}`), `${prefix}${m[1]} cited, not defined`);
	});
}
