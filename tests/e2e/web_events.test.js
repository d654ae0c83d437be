'use strict';
/*
 * web_events.test.js — the browser client's event log (web/js/kinds/*.js,
 * eventLine) against the event tables of proto/kinds/*.md, in node (no
 * browser: eventLine builds text, not DOM).
 *
 *   - the walk: every event type a kind's doc lists gets a log line, or is
 *     in tests/kind_events.json's quiet list (the screen shows it) or
 *     not_yet list (a known gap); a line never reads "undefined", "NaN",
 *     "null" or "[object Object]"; the lists name only types the doc has
 *     and the client leaves unsaid; eventLine handles no type the doc lacks;
 *   - deepfall in detail: every field of every event shows in its line (a
 *     number as itself, a seat by name, a room by floor, a flag by changing
 *     the words), written from deepfall.md alone.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const ROOT = path.resolve(__dirname, '..', '..');
const LISTS = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'kind_events.json'), 'utf8'));
const KINDS = fs.readdirSync(path.join(ROOT, 'proto', 'kinds')).filter((f) => f.endsWith('.md'))
	.map((f) => f.slice(0, -3)).sort();

const load = (f) => import(pathToFileURL(path.join(ROOT, 'web', 'js', f)));

/* A kind's Events table: its key ("type" or "event", the header's first
 * cell) and per row the types (first cell) and fields (second cell): the
 * names in backquotes outside parentheses, and whether a seat is named. */
function docEvents(kind) {
	const md = fs.readFileSync(path.join(ROOT, 'proto', 'kinds', `${kind}.md`), 'utf8');
	const sec = md.slice(md.indexOf('\n## Events'));
	const lines = sec.slice(0, sec.indexOf('\n## ', 5)).split('\n');
	const head = lines.findIndex((l) => /^\| (type|event) \|/.test(l));
	assert.ok(head >= 0, `${kind}.md has an Events table`);
	const key = lines[head].split('|')[1].trim();
	const names = (cell) => (cell.replace(/\([^)]*\)/g, '').match(/`[^`]+`/g) || [])
		.flatMap((x) => x.slice(1, -1).split(/\s+/));
	const rows = [];
	for (const l of lines.slice(head + 2)) {
		if (!l.startsWith('|')) break;
		const cells = l.split('|').slice(1, -1);
		const fields = cells[1].replace(/\([^)]*\)/g, '');
		for (const type of names(cells[0]))
			rows.push({ type, fields: names(cells[1]), seat: /\bseat\b/.test(fields) });
	}
	assert.ok(rows.length >= 10, `${kind}.md lists its events (${rows.length})`);
	return { key, rows };
}

/* deepfall.md's view (2 seats, 6 floors of 4 rooms, ids floor by floor),
 * enough for events to name their rooms. */
function deepfallView() {
	const themes = ['threshold', 'stone', 'cistern', 'den', 'crypt', 'hall', 'library', 'forge', 'vault', 'throne'];
	return { viewer: 0, round: 6, start_seat: 1, over: false,
		maw: { frontier: 5, accum: 0.235, last_speed: 0.25, speed: 0.23, falls: 0 },
		floors: [1, 2, 3, 4, 5, 6].map((f) => ({ floor: f, collapsed: f === 6, plunder: 0,
			rooms: [0, 1, 2, 3].map((k) => ({ id: (f - 1) * 4 + k, theme: themes[(f + k) % 10], value: 10, pays: 3,
				threat: 2, lock: 1, produces: 'greed', alive: f !== 6, markers: [] })) })),
		players: [] };
}

async function table(kind) {
	const { Table } = await load('table.js');
	const t = new Table(1);
	t.apply({ type: 'table', table: 1, seq: 1, kind, state: 'playing', you: 0,
		seats: [{ seat: 0, kind: 'human', name: 'dora', status: 'idle' }, { seat: 1, kind: 'ai', status: 'idle' },
			{ seat: 2, kind: 'human', name: 'ivan', status: 'idle' }],
		game: { decision: 1, status: ['idle', 'idle', 'idle'], view: kind === 'deepfall' ? deepfallView() : { kind } } });
	return t;
}

/* One event of a row: every field the doc names, a sample or a count. */
function sample(kind, key, row, seat = 1) {
	const ev = { [key]: row.type };
	if (row.seat) ev.seat = seat;
	let n = 11;
	for (const f of row.fields) {
		if (f === 'seat' || f in ev) continue;
		ev[f] = f in LISTS.samples[kind] ? LISTS.samples[kind][f] : n++;
	}
	return ev;
}

for (const kind of KINDS) {
	test(`${kind}: every event type of proto/kinds/${kind}.md has a line in web/js/kinds/${kind}.js, or is listed`, async () => {
		const kv = (await load(`kinds/${kind}.js`)).default;
		const { key, rows } = docEvents(kind);
		const t = await table(kind);
		const quiet = LISTS.quiet.web[kind] || {};
		const notYet = LISTS.not_yet.web[kind] || {};
		const types = new Set(rows.map((r) => r.type));
		for (const row of rows) {
			const line = kv.eventLine(sample(kind, key, row), t);
			if (row.type in quiet || row.type in notYet) {
				assert.equal(line, null, `${kind} ${row.type} is listed as without a line, yet it reads "${line}": ` +
					'take it off tests/kind_events.json');
				continue;
			}
			assert.ok(typeof line === 'string' && line.length > 0,
				`${kind}.md's event ${row.type} has no line in web/js/kinds/${kind}.js: draw it, or list it in ` +
				'tests/kind_events.json with where the screen shows it');
			assert.doesNotMatch(line, /undefined|NaN|null|\[object Object\]/, `${kind} ${row.type}: "${line}"`);
		}
		for (const ty of [...Object.keys(quiet), ...Object.keys(notYet)])
			assert.ok(types.has(ty), `tests/kind_events.json lists ${kind} ${ty}, which ${kind}.md does not have`);
		// The other way round: a case of eventLine the doc does not list is
		// a type renamed or removed.
		const cases = [...kv.eventLine.toString().matchAll(/case '([a-z_]+)'/g)].map((m) => m[1]);
		assert.ok(cases.length > 0);
		for (const c of cases) assert.ok(types.has(c), `web/js/kinds/${kind}.js draws ${c}, which ${kind}.md does not list`);
	});
}

test('deepfall: every field of every event of deepfall.md shows in its line', async () => {
	const kv = (await load('kinds/deepfall.js')).default;
	const { key, rows } = docEvents('deepfall');
	const t = await table('deepfall');
	const names = ['You', 'AI 2', 'ivan'];
	// Room 17 is the second room of floor 5 in deepfallView().
	const room = 'floor 5';
	for (const row of rows) {
		for (const seat of row.seat ? [0, 2] : [undefined]) {
			const ev = sample('deepfall', key, row, seat);
			const line = kv.eventLine(ev, t);
			assert.ok(line, `${row.type}: no line`);
			if (seat !== undefined) assert.ok(line.includes(names[seat]), `${row.type}: the seat's name in "${line}"`);
			for (const f of row.fields) {
				const v = ev[f];
				if (f === 'seat') continue;
				if (typeof v === 'boolean') {
					const other = kv.eventLine({ ...ev, [f]: !v }, t);
					assert.notEqual(other, line, `${row.type}.${f}: true and false read the same: "${line}"`);
				} else if (f === 'room') {
					assert.ok(line.includes(room), `${row.type}.room ${v}: "${room}" in "${line}"`);
				} else if (f === 'winners' || f === 'start_seat') {
					for (const s of [].concat(v)) assert.ok(line.includes(t.seatName(s)), `${row.type}.${f}: "${line}"`);
				} else if (typeof v === 'number') {
					assert.ok(line.includes(Number.isInteger(v) ? String(v) : v.toFixed(2)), `${row.type}.${f} ${v}: "${line}"`);
				} else {
					assert.ok(line.includes(String(v)), `${row.type}.${f} ${v}: "${line}"`);
				}
			}
		}
	}
	// A room nobody held (seat absent) is said too.
	assert.match(kv.eventLine({ event: 'room_scored', room: 17, glory: 0, holders: 0 }, t), /Nobody held .*floor 5/);
});
