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
 * on any error.
 */
const WebSocket = require('ws');

const args = process.argv.slice(2);
let url = 'ws://127.0.0.1:7777/';
let name = `bot${process.pid}${Math.floor(Math.random() * 1000)}`;
let seats = 3;
for (let i = 0; i < args.length; i++) {
	if (args[i] === '--name') name = args[++i];
	else if (args[i] === '--seats') seats = Number(args[++i]);
	else url = args[i];
}

const ws = new WebSocket(url);
let nextId = 1;
const waiting = new Map(); // id -> handler of the reply
let table = null;
let mySeat = null;

function request(type, fields, onReply) {
	const id = nextId++;
	waiting.set(id, onReply);
	ws.send(JSON.stringify({ type, id, ...fields }));
}

function fail(why) {
	console.error(`bot: ${why}`);
	process.exit(1);
}

// The bot's policy: read what its view offers. It only needs the option
// ids ("stay"/"leave" and the adventure choices); anything it does not
// understand it answers with the first option offered.
function decide(options, view) {
	const ids = options.map((o) => o.id);
	const me = view && Array.isArray(view.players) ? view.players[mySeat] : null;
	const hand = me && typeof me.hand === 'number' ? me.hand : 0;
	if (ids.includes('leave') && hand >= 10) return 'leave';
	const stay = options.find((o) => o.id !== 'leave');
	return stay ? stay.id : options[0].id;
}

ws.on('open', () => {
	request('hello', { protocol: 1, name, client: 'bot.js' }, (welcome) => {
		console.log(`hello: I am ${welcome.player.name} (player ${welcome.player.id})`);
		request('table_create', { kind: 'gems', seats, ai: seats - 1, start: true }, (snap) => {
			table = snap.table;
			mySeat = snap.you;
			console.log(`table ${table}: seat ${mySeat} of ${seats}, ${seats - 1} AI`);
		});
	});
});

let lastView = null;
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
	if (m.view) lastView = m.view;
	switch (m.type) {
	case 'options':
		// Options addressed to us carry our seat and the list to pick from.
		if (m.seat === mySeat && Array.isArray(m.options)) {
			const choice = decide(m.options, lastView);
			request('choose', { table, decision: m.decision, choice }, () => {});
		}
		break;
	case 'reveal':
		process.stdout.write('.');
		break;
	case 'result': {
		const r = m.result;
		console.log(`\ngame over after ${m.decisions} decisions`);
		for (const s of r.seats) {
			const who = s.seat === mySeat ? 'me' : 'AI';
			console.log(`  seat ${s.seat} (${who}): ${s.score}${s.winner ? '  WINNER' : ''}`);
		}
		console.log(JSON.stringify({ table, seat: mySeat, scores: r.seats.map((s) => s.score),
			winners: r.winners }));
		ws.close(1000);
		break;
	}
	default:
		break;
	}
});

ws.on('close', () => process.exit(table !== null ? 0 : 1));
ws.on('error', (e) => fail(e.message));
