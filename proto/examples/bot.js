#!/usr/bin/env node
'use strict';
/*
 * bot.js — a complete lair bot, written from proto/PROTOCOL.md alone.
 *
 *   npm install ws        (or NODE_PATH=tests/e2e/node_modules)
 *   node proto/examples/bot.js [ws://127.0.0.1:7777/] [--name NAME] [--seats N]
 *
 * It says hello with a new name, creates a gems table with N-1 AI seats
 * and starts it, plays its own seat (stays while the dungeon is young,
 * leaves when it holds a decent hand or things look risky), and prints the
 * result: one line per seat, then a JSON line. Exits 0 after the result, 1
 * on any error. The connection, the table and the messages around the
 * policy are one_table_bot.js's, which deepfall_bot.js shares.
 */
const { playOneTable } = require('./one_table_bot');

// The bot's policy: read what its view offers. It only needs the option
// ids ("stay"/"leave" and the adventure choices); anything it does not
// understand it answers with the first option offered.
function decide(options, view, mySeat) {
	const ids = options.map((o) => o.id);
	const me = view && Array.isArray(view.players) ? view.players[mySeat] : null;
	const hand = me && typeof me.hand === 'number' ? me.hand : 0;
	if (ids.includes('leave') && hand >= 10) return 'leave';
	const stay = options.find((o) => o.id !== 'leave');
	return stay ? stay.id : options[0].id;
}

playOneTable({
	client: 'bot.js',
	name: 'bot',
	seats: 3,
	create: () => ({ kind: 'gems' }),
	choose(m, view) {
		return decide(m.options, view, this.seat);
	},
	report(r, m) {
		console.log(`\ngame over after ${m.decisions} decisions`);
		for (const s of r.seats) {
			const who = s.seat === this.seat ? 'me' : 'AI';
			console.log(`  seat ${s.seat} (${who}): ${s.score}${s.winner ? '  WINNER' : ''}`);
		}
		console.log(JSON.stringify({ table: this.table, seat: this.seat,
			scores: r.seats.map((s) => s.score), winners: r.winners }));
	},
});
