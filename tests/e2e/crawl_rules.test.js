'use strict';
/*
 * crawl_rules.test.js — crawl's rules live in the repository: every decision
 * id of docs/rules/crawl.md (C1…) is cited by crawl's code and named by a
 * unit test (crawl_C12_…), every id the code or the tests cite is defined,
 * and proto/kinds/crawl.md points at the page.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const read = (f) => fs.readFileSync(path.join(ROOT, f), 'utf8');
const list = (dir, re) => fs.readdirSync(path.join(ROOT, dir)).filter((f) => re.test(f))
	.map((f) => path.join(dir, f));

test('every crawl rule id is in the code and in a test named after it', () => {
	const doc = read('docs/rules/crawl.md');
	const ids = [...doc.matchAll(/^\*\*(C\d+) — /gm)].map((m) => m[1]);
	assert.ok(ids.length >= 49, `only ${ids.length} rule ids in docs/rules/crawl.md`);
	assert.deepStrictEqual(ids, ids.map((_, i) => `C${i + 1}`), 'ids run C1, C2, … in order');
	const codeFiles = [...list('server/games/crawl', /\.[ch]$/),
		...list('client-cli', /(crawl|cmd_map).*\.[ch]$/)];
	const code = codeFiles.map(read).join('\n');
	const testFiles = list('tests/unit', /^test_crawl.*\.c$/);
	const tests = testFiles.map(read).join('\n');
	const names = [...tests.matchAll(/^TEST\((\w+)\)/gm)].map((m) => m[1]);
	for (const id of ids) {
		assert.ok(new RegExp(`\\b${id}(?!\\d)`).test(code), `${id}: no crawl code cites it`);
		assert.ok(names.some((n) => new RegExp(`_${id}_`).test(n)),
			`${id}: no unit test is named after it`);
	}
	for (const m of (code + tests).matchAll(/\bC(\d+)(?!\d)/g))
		assert.ok(Number(m[1]) >= 1 && Number(m[1]) <= ids.length, `C${m[1]} cited, not defined`);
	assert.match(read('proto/kinds/crawl.md'), /docs\/rules\/crawl\.md/);
});
