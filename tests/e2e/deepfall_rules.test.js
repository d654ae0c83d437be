'use strict';
/*
 * deepfall_rules.test.js — docs/rules/deepfall.md is the rule book the code
 * and tests cite: its ids run DF1… in sections, every id is cited by the
 * deepfall code (the kind or its simulator) and by a unit test (in a test's
 * name, or in a comment for the simulator's measures), and every DF id the
 * code, the tests or the other pages cite is defined there. So `grep -rn
 * DF46 .` lands on the rule, its code and its test.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const read = (f) => fs.readFileSync(path.join(ROOT, f), 'utf8');
const list = (dir, re) => fs.readdirSync(path.join(ROOT, dir)).filter((f) => re.test(f))
	.map((f) => path.join(dir, f));

test('every deepfall rule id is in the code and in a test', () => {
	const doc = read('docs/rules/deepfall.md');
	const ids = [...doc.matchAll(/^- \*\*(DF\d+) — /gm)].map((m) => m[1]);
	assert.ok(ids.length >= 60, `only ${ids.length} rule ids`);
	assert.strictEqual(new Set(ids).size, ids.length, 'an id defined twice');
	const code = [...list('server/games/deepfall', /\.[ch]$/),
		...list('client-cli', /^sim_deepfall.*\.[ch]$/)].map(read).join('\n');
	const tests = list('tests/unit', /deepfall.*\.[ch]$/).map(read).join('\n');
	const names = [...tests.matchAll(/^TEST\((\w+)\)/gm)].map((m) => m[1]);
	const cited = (text, id) => new RegExp(`\\b${id}(?!\\d)`).test(text);
	for (const id of ids) {
		assert.ok(cited(code, id), `${id}: no deepfall code cites it`);
		const measure = Number(id.slice(2)) >= 80;
		assert.ok(names.some((n) => new RegExp(`_${id}_`).test(n)) ||
			(measure && cited(tests, id)), `${id}: no unit test names it`);
	}
	// and nothing cites an id the page does not define
	const others = [code, tests, read('proto/kinds/deepfall.md'),
		read('server/games/deepfall/CONFIG.md')].join('\n');
	for (const m of others.matchAll(/\bDF(\d+)(?!\d)/g))
		assert.ok(ids.includes(`DF${m[1]}`), `DF${m[1]} cited, not defined`);
});
