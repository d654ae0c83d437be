'use strict';
/*
 * self_contained.test.js — someone who clones the repository has all of
 * it: no file points at a document, a tracker or a machine outside it. No
 * issue numbers, no design notes the repository does not carry, no paths of
 * the machine it was written on (docs/ARCHITECTURE.md, "Self-contained").
 * Rules are cited by their ids in docs/rules/<kind>.md, the protocol by
 * proto/*.md sections.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const SELF = path.join('tests', 'e2e', 'self_contained.test.js');
// The file that names the forbidden strings to look for them (in pieces,
// so that a grep for them finds nothing here either).
const CHECKERS = [SELF];

// Text the repository is made of: sources, scripts, docs, data it embeds.
const TEXT = /\.(c|h|js|mjs|json|md|sh|sql|html|css|conf|service|[1-8])$|^(Makefile|run|deps|bench|load)$/;
// Not ours to read: build output, installed packages, fuzz inputs.
const SKIP = /^(build|var|node_modules|\.git)|^tests\/fuzz\/(corpus|regress|known)$/;

function files(dir) {
	const out = [];
	for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
		const rel = path.join(dir, e.name);
		if (SKIP.test(e.name) || SKIP.test(rel)) continue;
		if (e.isDirectory()) out.push(...files(rel));
		else if (e.isFile() && TEXT.test(e.name)) out.push(rel);
	}
	return out;
}

const FORBIDDEN = [
	[/\bissues? #?\d/i, 'an issue number'],
	[/\bDESIGN\b/, 'the design notes (DESIGN)'],
	[/NOTES[-]lws/, 'the libwebsockets notes (docs/libwebsockets.md is ours)'],
	[/RULES-\w+/, 'a rules document outside docs/rules'],
	[/SCALE-OUT/, 'the scale-out notes'],
	[/\bseeds?\/\d|\bseed 0\d\d\b/i, 'a seed document'],
	[/\.\.\/shared\b/, 'the briefing (.. /shared)'],
	[/\/wor[k]\//, 'a path of the machine'],
];

test('no file points at a document, tracker or machine outside the repository', () => {
	const all = files('.');
	assert.ok(all.length > 300, `only ${all.length} files read`);
	const found = [];
	for (const f of all) {
		if (CHECKERS.includes(f)) continue;
		const lines = fs.readFileSync(path.join(ROOT, f), 'utf8').split('\n');
		lines.forEach((line, i) => {
			for (const [re, what] of FORBIDDEN)
				if (re.test(line)) found.push(`${f}:${i + 1}: ${what}: ${line.trim()}`);
		});
	}
	assert.deepStrictEqual(found, []);
});

test('the check finds what it looks for', () => {
	// each pattern catches the form it was written against
	const samples = ['see iss' + 'ue 5', 'DESIGN' + ' §2', 'NOTES' + '-lws', 'RULES' + '-gems',
		'SCALE-OUT.md', 'seed 001 Part C', '..' + '/shared/DESIGN.md', '/wor' + 'k/main/server'];
	for (const s of samples)
		assert.ok(FORBIDDEN.some(([re]) => re.test(s)), `not caught: ${s}`);
	for (const s of ['the design of the table', 'a tiss' + 'ue 3', 'rng seed 42', '/tmp/lair-x'])
		assert.ok(!FORBIDDEN.some(([re]) => re.test(s)), `caught wrongly: ${s}`);
});
