'use strict';
/*
 * app_bot.test.js — proto/examples/bot.js, the bot written from the spec
 * alone, plays a whole game against a real laird and prints the result;
 * the server agrees (the game is in the bot's statistics).
 */
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { startLaird } = require('./lib/laird');
const { player } = require('./lib/app');

const BOT = path.resolve(__dirname, '..', '..', 'proto', 'examples', 'bot.js');

test('bot.js creates a table with AIs, plays a whole game and prints the result', async () => {
	const srv = await startLaird({ args: ['--window-ms', '50', '--reveal-pause-ms', '0'] });
	try {
		const out = await new Promise((resolve, reject) => {
			execFile('node', [BOT, srv.url, '--name', 'specbot', '--seats', '4'], {
				env: { ...process.env, NODE_PATH: path.join(__dirname, 'node_modules') },
				timeout: 90000,
			}, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`))
				: resolve(stdout)));
		});
		assert.match(out, /game over after \d+ decisions/);
		const last = JSON.parse(out.trim().split('\n').pop());
		assert.strictEqual(last.scores.length, 4);
		assert.ok(last.winners.length >= 1);
		const p = await player(srv, 'checker');
		const st = await p.ok('stats', { player: 'specbot' });
		assert.strictEqual(st.stats.find((s) => s.key === 'games_played').value, 1);
		p.c.close();
	} finally {
		await srv.stop();
	}
});
