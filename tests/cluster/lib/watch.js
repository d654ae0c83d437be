'use strict';
/*
 * lib/watch.js — what the cluster checks (tests/cluster/run) and the
 * takeover bench (tests/cluster/bench) watch at a table:
 *
 *   const w = watch(p, table)   // p: a lib/app.js player
 *   w.seq (highest), w.back (times seq went back), w.reveals (decision →
 *   its reveal), w.forks (decisions revealed twice, differently),
 *   w.lastOptions (highest decision offered), w.snapshots ({at, m} each
 *   `table` snapshot, at its arrival)
 *   autoplay(p, table, quick)   // short games: every seat leaves each dungeon
 */

/* Leaves each dungeon at once: short games (5 decisions when all leave). */
const quick = { pick: (opts) => (opts.find((o) => o.id === 'leave') || opts[opts.length - 1]).id };

/* Watches one player's messages of table t: the highest seq, the decision
 * of each reveal (two different reveals of one decision would be a fork),
 * and every seq going back. */
function watch(p, t) {
	const w = { seq: 0, back: 0, reveals: new Map(), forks: 0, lastOptions: 0, snapshots: [] };
	p.c.ws.on('message', (d) => {
		let m;
		try { m = JSON.parse(d.toString()); } catch { return; }
		if (m.table !== t || typeof m.seq !== 'number') return;
		if (m.seq < w.seq) w.back++;
		w.seq = Math.max(w.seq, m.seq);
		if (m.type === 'options') w.lastOptions = Math.max(w.lastOptions, m.decision);
		if (m.type === 'table') w.snapshots.push({ at: Date.now(), m });
		if (m.type === 'reveal') {
			const k = JSON.stringify({ choices: m.choices, events: m.events });
			const had = w.reveals.get(m.decision);
			if (had !== undefined && had !== k) w.forks++;
			w.reveals.set(m.decision, k);
		}
	});
	return w;
}

module.exports = { watch, quick };
