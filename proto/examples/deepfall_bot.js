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
 * the result, 1 on any error.
 */
const WebSocket = require('ws');

const args = process.argv.slice(2);
let url = 'ws://127.0.0.1:7777/';
let name = `delver${process.pid}${Math.floor(Math.random() * 1000)}`;
let seats = 4;
for (let i = 0; i < args.length; i++) {
	if (args[i] === '--name') name = args[++i];
	else if (args[i] === '--seats') seats = Number(args[++i]);
	else url = args[i];
}

const ws = new WebSocket(url);
let nextId = 1;
const waiting = new Map();
let table = null;
let mySeat = null;
let view = null;

function request(type, fields, onReply) {
	const id = nextId++;
	waiting.set(id, onReply);
	ws.send(JSON.stringify({ type, id, ...fields }));
}

function fail(why) {
	console.error(`deepfall_bot: ${why}`);
	process.exit(1);
}

// The policy, from the options form and the view alone (proto/kinds/deepfall.md).
let presses = 0;
function decide(form) {
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

ws.on('open', () => {
	request('hello', { protocol: 1, name, client: 'deepfall_bot.js' }, (welcome) => {
		console.log(`hello: I am ${welcome.player.name} (player ${welcome.player.id})`);
		const ai = ['balanced', 'cashout', 'presson', 'worthyend', 'balanced', 'cashout',
			'presson', 'worthyend', 'balanced'].slice(0, seats);
		request('table_create', { kind: 'deepfall', seats, ai: seats - 1, start: true,
			config: { ai } }, (snap) => {
			table = snap.table;
			mySeat = snap.you;
			console.log(`table ${table}: seat ${mySeat} of ${seats}, ${seats - 1} AI`);
		});
	});
});

ws.on('message', (data) => {
	const m = JSON.parse(data.toString());
	if (m.id !== undefined && waiting.has(m.id)) {
		const handler = waiting.get(m.id);
		waiting.delete(m.id);
		if (m.type === 'error') fail(`${m.code}: ${m.message}`);
		handler(m);
		return;
	}
	if (m.type === 'error') fail(`${m.code}: ${m.message}`);
	if (m.table !== table) return;
	if (m.view) view = m.view;
	switch (m.type) {
	case 'options':
		if (m.seat === mySeat && Array.isArray(m.options)) {
			const choice = decide(m.options[0]);
			request('choose', { table, decision: m.decision, choice }, () => {});
		}
		break;
	case 'reveal':
		process.stdout.write('.');
		break;
	case 'result': {
		const r = m.result;
		console.log(`\ngame over after ${r.rounds} rounds`);
		r.scores.forEach((s, seat) => {
			const who = seat === mySeat ? 'me' : 'AI';
			const won = r.winners.includes(seat) ? '  WINNER' : '';
			console.log(`  seat ${seat} (${who}): ${s}${won}`);
		});
		console.log(JSON.stringify({ table, seat: mySeat, scores: r.scores,
			winners: r.winners, rounds: r.rounds, presses }));
		ws.close(1000);
		break;
	}
	default:
		break;
	}
});

ws.on('close', () => process.exit(table !== null ? 0 : 1));
ws.on('error', (e) => fail(e.message));
