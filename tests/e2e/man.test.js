'use strict';
/*
 * man.test.js — the manual pages (docs/man/laird.8, docs/man/lair.1) keep up
 * with the programs: every flag that `laird --help` lists is in laird(8)
 * with the same default; every command of `lair --help` and every flag of
 * `lair COMMAND --help` (and of `lair sim KIND --help`, and the admin
 * subcommands) is in lair(1); both render without a groff warning.
 * A new flag fails this test until its line is added to the page.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { LAIRD } = require('./lib/laird');

const ROOT = path.resolve(__dirname, '..', '..');
const LAIR = process.env.LAIR || path.join(ROOT, 'build', 'lair');
const MAN = path.join(ROOT, 'docs', 'man');

function run(cmd, args) {
	const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 20000 });
	assert.strictEqual(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stderr}`);
	return r.stdout;
}

/* roff source -> plain words: \- is -, font escapes go. */
function roffText(src) {
	return src.replace(/\\-/g, '-').replace(/\\f[BIRP]/g, '').replace(/\\\(dq/g, '"');
}

const flagsOf = (help) => [...new Set(help.match(/--[a-z][a-z0-9-]*/g) || [])];

test('laird(8) lists every flag of laird --help, with its default', () => {
	const help = run(LAIRD, ['--help']);
	const src = fs.readFileSync(path.join(MAN, 'laird.8'), 'utf8');
	const text = roffText(src);
	const flags = flagsOf(help);
	assert.ok(flags.length > 20, 'laird --help lists its flags');
	for (const f of flags)
		assert.ok(text.includes(f), `laird --help lists ${f}; add it to docs/man/laird.8 OPTIONS`);
	assert.ok(text.includes('admin-token') && text.includes('--create'));

	// Each option's entry (.TP to the next .TP/.SH) and its "(default X)".
	const entries = new Map();
	for (const part of roffText(src).split(/\n\.(?:TP|SH)\b/)) {
		const m = part.match(/^\n\.B[IR]? (--[a-z0-9-]+)/);
		if (m) entries.set(m[1], part);
	}
	// --help: "  --flag ARG   help ... (default: X)", wrapped onto indented lines.
	const blocks = help.split(/\n(?= {2}-)/);
	let checked = 0;
	for (const b of blocks) {
		const flag = (b.match(/^ {2}(--[a-z0-9-]+)/) || [])[1];
		const def = (b.replace(/\s+/g, ' ').match(/\(default: ([^)]*)\)/) || [])[1];
		if (!flag || def === undefined) continue;
		const entry = entries.get(flag);
		assert.ok(entry, `docs/man/laird.8 has no OPTIONS entry for ${flag}`);
		const manDef = (entry.replace(/\s+/g, ' ').match(/\(default ([^)]*)\)/) || [])[1];
		assert.strictEqual(manDef, def, `the default of ${flag} in docs/man/laird.8`);
		checked++;
	}
	assert.ok(checked > 20, `defaults compared: ${checked}`);
});

test('lair(1) lists every command, subcommand and flag of lair --help', () => {
	const text = roffText(fs.readFileSync(path.join(MAN, 'lair.1'), 'utf8'));
	const top = run(LAIR, ['--help']);
	const commands = [...top.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]);
	assert.ok(commands.includes('play') && commands.includes('admin'), top);
	const helps = [];
	for (const c of commands) {
		assert.match(text, new RegExp(`\\b${c}\\b`), `command ${c} missing from docs/man/lair.1`);
		const h = run(LAIR, [c, '--help']);
		helps.push([c, h]);
		// sim KIND: the kinds from its usage line, each with its own flags
		const kinds = (h.match(/^usage: lair sim ([a-z|]+)/m) || [])[1];
		if (kinds)
			for (const k of kinds.split('|')) {
				assert.ok(text.includes(`sim ${k}`), `lair sim ${k} missing from docs/man/lair.1`);
				helps.push([`sim ${k}`, run(LAIR, ['sim', k, '--help'])]);
			}
	}
	for (const [c, h] of helps)
		for (const f of flagsOf(h))
			assert.ok(text.includes(f), `lair ${c} --help lists ${f}; add it to docs/man/lair.1`);
	// admin's subcommands: the words of its left column
	const admin = helps.find(([c]) => c === 'admin')[1];
	for (const m of admin.matchAll(/^ {2}([a-z][a-z-]*)(?: \[?([a-z][a-z-]*)\]?)?/gm))
		for (const w of [m[1], m[2]].filter(Boolean))
			assert.ok(text.includes(w), `lair admin ${w} missing from docs/man/lair.1`);
});

test('both pages render without a groff warning', (t) => {
	if (spawnSync('groff', ['--version']).status !== 0) {
		t.skip('groff not found (Debian package groff-base; tests/deps installs it)');
		return;
	}
	for (const page of ['laird.8', 'lair.1']) {
		const r = spawnSync('groff', ['-man', '-ww', '-z', path.join(MAN, page)], { encoding: 'utf8' });
		assert.strictEqual(r.status, 0);
		assert.strictEqual(r.stderr, '', `${page}: ${r.stderr}`);
	}
});
