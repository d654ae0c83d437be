#!/usr/bin/env node
'use strict';
/*
 * deepfall_bot.js — a DEEPFALL bot written from proto/PROTOCOL.md and
 * proto/kinds/deepfall.md alone.
 *
 *   NODE_PATH=tests/e2e/node_modules node proto/examples/deepfall_bot.js \
 *       [ws://127.0.0.1:7777/] [--name NAME] [--seats N]
 *
 * It says hello, creates a deepfall table with N-1 AI seats (one of each
 * built-in strategy) and starts it, then plays its seat. Each round it
 * looks at its turn after every hand: it presses while no Setback is
 * coming and it has pressed fewer than two hands this round; then it acts: it stays one floor above the Maw's frontier,
 * always recruits, declares a Last Stand when it is offered and the Maw is
 * coming, banks when the Maw would take it, and banks in the last round.
 * Prints the result: one line per seat, then a JSON line. Exits 0 after
 * the result, 1 on any error. The connection, the table and the messages
 * around the policy are one_table_bot.js's, which bot.js shares.
 */
const { playOneTable } = require('./one_table_bot');

// The policy, from the options form and the view alone (proto/kinds/deepfall.md).
let presses = 0;
function decide(form, view, mySeat) {
	const frontier = form.target.max;
	const me = view ? view.players.find((p) => p.seat === mySeat) : null;
	const party = me ? me.party : null;
	const turn = party ? party.turn : null;
	// Push your luck: another hand while no Setback is coming (at most two).
	if (form.press && turn && turn.setbacks === 0 && turn.hands < 3) {
		presses++;
		return { press: true };
	}
	const act = { target: Math.max(1, frontier - 1), recruit: true, exit: 'persist' };
	if (!party) return act;
	if (party.last_stand) return { ...act, target: frontier }; // ride it down
	const falls = view.maw.falls > 0; // the frontier falls if nothing more is rolled
	const stuck = frontier === 1 || party.floor - party.moves >= frontier;
	if (falls && form.exit.includes('last_stand') && party.deepest >= frontier - 1)
		return { ...act, target: frontier, exit: 'last_stand' };
	if (falls && (stuck || party.unbanked >= 10)) return { ...act, exit: 'cash_out' };
	if (party.unbanked >= 30) return { ...act, exit: 'cash_out' };
	return act;
}

playOneTable({
	client: 'deepfall_bot.js',
	name: 'delver',
	seats: 4,
	create(seats) {
		const ai = ['balanced', 'cashout', 'presson', 'worthyend', 'balanced', 'cashout',
			'presson', 'worthyend', 'balanced'].slice(0, seats);
		return { kind: 'deepfall', config: { ai } };
	},
	choose(m, view) {
		return decide(m.options[0], view, this.seat);
	},
	report(r) {
		console.log(`\ngame over after ${r.rounds} rounds`);
		r.scores.forEach((s, seat) => {
			const who = seat === this.seat ? 'me' : 'AI';
			const won = r.winners.includes(seat) ? '  WINNER' : '';
			console.log(`  seat ${seat} (${who}): ${s}${won}`);
		});
		console.log(JSON.stringify({ table: this.table, seat: this.seat, scores: r.scores,
			winners: r.winners, rounds: r.rounds, presses }));
	},
});
