'use strict';
/*
 * client_deepfall.test.js — a human plays a whole deepfall game from `lair
 * play` (an 80×24 tmux terminal: keys in, screen text out) against three
 * AI seats on a real laird. In the first round the human presses once with
 * P, sees the second hand on the screen, then acts with non-default values
 * on the form (target F3, recruit, cash out); a spectator checks that the
 * server applied exactly those choice objects (the reveals' choices, the
 * second hand's roll, the cash_out event); every later act is the form's
 * defaults. The result screen is checked against the result the server
 * holds.
 */
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startLaird } = require('./lib/laird');
const { player } = require('./lib/app');
const { startLair } = require('./lib/tmux');

const FAST = ['--window-ms', '100', '--reveal-pause-ms', '0', '--ai-pacing-ms', '0'];

/* Our turn: options on screen and the form not sent yet. */
const ourTurn = (x) => /Choose: \d+s left/.test(x) && /\[G\] act/.test(x);

test('lair play: a human plays a whole deepfall game with the choice form',
	{ timeout: 180000 }, async () => {
		const srv = await startLaird({ args: FAST });
		const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'lair-cfg-'));
		const t = await startLair(['play', '--server', srv.url, '--name', 'dee'],
			{ env: { XDG_CONFIG_HOME: cfg }, record: true });
		let spy;
		try {
			await t.waitScreen(/No tables yet: press C/, 8000);
			await t.keys('C');
			await t.waitScreen(/create a table/);
			await t.keys('K', 'S', 'A'); // deepfall, 4 seats, 3 AI seats
			// The keys act in order: the screen after the last one shows all three
			// (a screen drawn after K alone would not).
			let s = await t.waitScreen(/\[A\] AI seats +3/);
			assert.match(s, /\[K\] kind +deepfall/);
			assert.match(s, /\[S\] seats +4/);
			await t.keys('G'); // create and start
			s = await t.waitScreen(ourTurn, 8000, 'the first choice form');
			// Our own "selecting" comes back from the server a moment later
			// (lair reports it when the form opens): wait for it, not assume it.
			s = await t.waitScreen(/^>1 dee .* selecting/m, 8000, 'our status selecting');

			// The screen at a glance (deepfall.md's view, default config).
			const rows = s.split('\n');
			assert.ok(rows.every((r) => r.length <= 80));
			assert.match(rows[0], /table \d+ .*deepfall +round 1/);
			assert.match(rows[1], /Maw: frontier F6 +carried 0\.00 +speed \d\.\d\d/);
			for (let f = 1; f <= 6; f++)
				assert.ok(rows.slice(2, 10).some((r) => r.startsWith(`F${f}`)), s);
			assert.match(rows.find((r) => r.startsWith('F1')), /^F1 +1234 /); // all four on F1
			assert.match(rows[10], /# PLAYER +GLORY +PARTY +FLOOR +LOOT LS +STATUS/);
			assert.match(rows[11], /^>1 dee +0 +[a-z_]+\/[a-z]+ +F1 +0 +selecting/);
			assert.match(rows[20], /^You: deepest F1 hand \d+ moves \d+ bag [a-z]{3}\d/);
			assert.match(rows[21], /^Turn: 1 hand +St\d+ Cu\d+ Fa\d+ Gr\d+ Me\d+ +Dread \d+/);
			assert.match(rows[21], /\[P\] press/);
			assert.match(rows[22], /^Act: \[1-6\] F1 +\[R\] recruit no +\[K\] persist \[C\] cash out/);

			// A spectator sees the reveals of round 1.
			spy = await player(srv, 'spy');
			const list = await spy.req('table_list');
			const mine = list.tables.find((x) => x.host === 'dee');
			assert.ok(mine, JSON.stringify(list));
			const snap = await spy.req('table_spectate', { table: mine.id });
			assert.strictEqual(snap.kind, 'deepfall');
			const d1 = snap.game.decision;
			// Every room on the screen as the view has it (deepfall.md): its
			// value, what it pays when that differs (pN), its threat.
			for (const f of snap.game.view.floors) {
				const row = rows.slice(2, 10).find((r) => r.startsWith(`F${f.floor} `));
				for (const r of f.rooms) {
					const want = `${r.value}${r.pays === r.value ? '' : ` p${r.pays}`} t${r.threat}`;
					assert.ok(row.includes(want), `room ${r.id}: "${want}" in "${row}"`);
				}
			}

			// P: press one more hand; the screen shows the second hand.
			await t.keys('P');
			const pressed = await spy.c.waitFor((m) => m.type === 'reveal' && m.decision === d1,
				10000, 'the reveal of the press');
			assert.deepStrictEqual(pressed.choices.find((c) => c.seat === 0).choice,
				{ press: true });
			const hand2 = pressed.events.find((e) => e.event === 'roll' && e.seat === 0);
			assert.strictEqual(hand2.hand, 2);
			s = await t.waitScreen((x) => ourTurn(x) && /^Turn: 2 hands/m.test(x), 8000,
				'the second hand on screen');
			assert.match(s, /You roll hand 2 \(\d+ dic?e\): (nothing|(St|Cu|Fa|Gr|Me|Dread )\d)/);

			// Non-default act values, one key each; the form shows them.
			await t.keys('3', 'R', 'C');
			s = await t.waitScreen(/Act: \[1-6\] F3 +\[R\] recruit yes/);
			await t.keys('G');
			// The round resolves when the AIs stop pressing: maybe in a later
			// reveal than our act's.
			const co = await spy.c.waitFor((m) => m.type === 'reveal' &&
				m.events.some((e) => e.event === 'cash_out' && e.seat === 0), 10000,
				'our cash-out');
			const reveal = spy.c.received.find((m) => m.type === 'reveal' &&
				m.choices.some((c) => c.seat === 0 && c.choice.target));
			const ours = reveal.choices.find((c) => c.seat === 0);
			assert.deepStrictEqual(ours.choice, { target: 3, recruit: true, exit: 'cash_out' });
			assert.strictEqual(ours.ai, false);
			const cash = co.events.find((e) => e.event === 'cash_out' && e.seat === 0);
			const draft = co.events.find((e) => e.event === 'draft' && e.seat === 0);
			assert.ok(draft, JSON.stringify(co.events));
			// ... and the screen shows it: the banked glory, a fresh party.
			s = await t.waitScreen(ourTurn, 8000, 'round 2');
			s = await t.waitScreen(new RegExp(`^>1 dee +${cash.glory}  ${draft.lineage}/` +
				`${draft.calling} +F${draft.floor} +0 +selecting`, 'm'), 8000,
				'round 2: banked glory, the fresh party, selecting');

			// Every later round: the act's defaults, sent with G.
			let rounds = 1;
			const deadline = Date.now() + 150000;
			for (;;) {
				const left = deadline - Date.now();
				assert.ok(left > 0, 'no result in time');
				s = await t.waitScreen((x) => /GAME OVER/.test(x) || ourTurn(x), left,
					'our turn or the result');
				if (/GAME OVER/.test(s)) break;
				// Sent: lair draws the server's "chosen" (or, everyone
				// having chosen, the window) after the key; a poll of the
				// screen may see the next round's form already.
				await t.press('G', /Sent; change and send again|Everyone chose/, 10000);
				rounds++;
			}
			if (process.env.LAIR_E2E_SHOW) console.log(s);
			const result = await spy.c.waitFor((m) => m.type === 'result', 10000, 'result');
			const r = result.result;
			assert.strictEqual(r.rounds, rounds, `we acted once every round (${rounds})`);
			assert.match(s, new RegExp(`GAME OVER after ${r.rounds} rounds`));
			for (let seat = 0; seat < 4; seat++) {
				const name = seat === 0 ? '>1 dee' : ` ${seat + 1} AI ${seat + 1}`;
				const row = s.split('\n').find((l) => l.startsWith(name));
				assert.ok(row, `${name}:\n${s}`);
				const p = r.players.find((x) => x.seat === seat);
				assert.match(row, new RegExp(`^${name} +${r.scores[seat]} `));
				assert.strictEqual(/WINNER/.test(row), r.winners.includes(seat), row);
				assert.match(row, new RegExp(` ${p.glory_by_exit.cash_out} +` +
					`${p.glory_by_exit.press_on} +${p.glory_by_exit.worthy_end} +` +
					`${p.parties} +${p.cash_outs} +${p.worthy_ends} +${p.taken} +` +
					`${p.claims} +${p.deepest}$`));
			}
			assert.ok(r.players[0].cash_outs >= 1);
			assert.strictEqual(r.players[0].ai, false);
			assert.strictEqual(await t.quit(), 0);
		} finally {
			if (spy) spy.c.close();
			await t.kill();
			await srv.stop();
			fs.rmSync(cfg, { recursive: true, force: true });
		}
	});
