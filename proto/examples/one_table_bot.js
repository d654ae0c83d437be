'use strict';
/*
 * one_table_bot.js — what each example bot here does around its policy,
 * written from proto/PROTOCOL.md alone: read its arguments
 * ([ws://HOST:PORT/] [--name NAME] [--seats N]), say hello, create and
 * start one table with N-1 AI seats, answer the options addressed to its
 * seat with the policy's choice, and print the result. Exits 0 after the
 * result, 1 on any error.
 *
 *   playOneTable({
 *     client,            // the hello's client name, e.g. 'bot.js'
 *     name, seats,       // the defaults of --name and --seats
 *     create(seats),     // table_create's kind and config fields
 *     choose(m, view),   // the choice for options message m (view: the latest)
 *     report(result, m), // prints the result message m's lines
 *   });
 * report and choose get the bot's table and seat in this.table, this.seat.
 */
const WebSocket = require('ws');

function playOneTable(bot) {
	const args = process.argv.slice(2);
	let url = 'ws://127.0.0.1:7777/';
	let name = `${bot.name}${process.pid}${Math.floor(Math.random() * 1000)}`;
	let seats = bot.seats;
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '--name') name = args[++i];
		else if (args[i] === '--seats') seats = Number(args[++i]);
		else url = args[i];
	}

	const ws = new WebSocket(url);
	let nextId = 1;
	const waiting = new Map(); // id -> handler of the reply
	const me = { table: null, seat: null };
	let view = null;

	function request(type, fields, onReply) {
		const id = nextId++;
		waiting.set(id, onReply);
		ws.send(JSON.stringify({ type, id, ...fields }));
	}

	function fail(why) {
		console.error(`${bot.client.replace(/\.js$/, '')}: ${why}`);
		process.exit(1);
	}

	ws.on('open', () => {
		request('hello', { protocol: 1, name, client: bot.client }, (welcome) => {
			console.log(`hello: I am ${welcome.player.name} (player ${welcome.player.id})`);
			const create = { ...bot.create(seats), seats, ai: seats - 1, start: true };
			request('table_create', create, (snap) => {
				me.table = snap.table;
				me.seat = snap.you;
				console.log(`table ${me.table}: seat ${me.seat} of ${seats}, ${seats - 1} AI`);
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
		if (m.table !== me.table) return;
		if (m.view) view = m.view;
		switch (m.type) {
		case 'options':
			// Options addressed to us carry our seat and the list to pick from.
			if (m.seat === me.seat && Array.isArray(m.options)) {
				const choice = bot.choose.call(me, m, view);
				request('choose', { table: me.table, decision: m.decision, choice }, () => {});
			}
			break;
		case 'reveal':
			process.stdout.write('.');
			break;
		case 'result':
			bot.report.call(me, m.result, m);
			ws.close(1000);
			break;
		default:
			break;
		}
	});

	ws.on('close', () => process.exit(me.table !== null ? 0 : 1));
	ws.on('error', (e) => fail(e.message));
}

module.exports = { playOneTable };
