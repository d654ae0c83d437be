// table.js — one table as this client sees it (proto/table.md): the
// snapshot, then every update folded in by seq. A seq at or below the last
// is a resend (ignored); a seq more than one above is a gap: the caller asks
// `table_sync {since}` and the updates come again in order (or a snapshot).
// Tolerant like the protocol asks: unknown fields and update types are
// ignored, a missing field keeps what we had.

import { applyViewPatch } from './patch.js';

export const F = {
	CHANGED: 1, GAP: 2, OPTIONS: 4, REVEAL: 8, RESULT: 16, CLOSED: 32, START: 64, SEATS: 128,
};

const LOG_MAX = 200;

export class Table {
	constructor(id) {
		this.id = id;
		this.seq = 0;
		this.kind = '';
		this.name = '';
		this.state = 'waiting';
		this.host = null;
		this.private = false;
		this.you = null;             // our seat, or null (watching)
		this.seats = [];
		this.spectators = 0;
		this.config = {};
		this.turnTimeoutMs = 0;
		this.windowMs = 1000;
		this.decision = 0;
		this.pending = [];
		this.status = [];
		this.options = null;         // ours, while our seat is asked
		this.choice = null;          // our current choice (server's word)
		this.firstChoice = null;     // what we chose first this decision
		this.deadlineAt = 0;         // performance.now() ms, 0: none
		this.windowAt = 0;
		this.view = null;
		this.reveal = null;          // the last reveal message
		this.revealChanged = null;   // {from, to} when we changed our mind in it
		this.result = null;          // the result message's result
		this.seed = null;
		this.closed = false;
		this.log = [];               // {text, kind} lines, newest last
		this.events = [];            // the last update's events
		this.snapshotAt = 0;
	}

	// Folds m in; returns F flags (0: not ours or already seen).
	apply(m, eventLine) {
		if (m.table !== undefined && m.table !== this.id) return 0;
		const snap = m.type === 'table';
		if (Number.isInteger(m.seq) && !snap && this.seq > 0) {
			if (m.seq <= this.seq) return 0;
			if (m.seq > this.seq + 1) return F.GAP;
		}
		// A reveal with view_patch (we ask for it in hello): the changes to
		// our view. One that does not apply is not folded: like a gap,
		// table_sync resends it whole.
		let patched = null;
		if (m.view_patch !== undefined && !snap) {
			patched = this.view ? applyViewPatch(this.view, m.view_patch) : null;
			if (patched === null) return F.GAP;
		}
		if (Number.isInteger(m.seq)) this.seq = m.seq;
		let f = F.CHANGED;
		if (m.state === 'waiting' && this.state === 'finished') {
			// A rematch: the same seats, a game not started yet.
			this.result = this.reveal = this.view = null;
			this.seed = null;
			this.decision = 0;
			this.addLog('Rematch: waiting for the host to start.', 'info');
		}
		if (typeof m.state === 'string') this.state = m.state;
		if (Array.isArray(m.seats)) {
			this.seats = m.seats;
			this.status = m.seats.map((s) => s.status || 'idle');
			f |= F.SEATS;
		}
		if (m.host !== undefined) this.host = m.host;
		if (Number.isInteger(m.spectators)) this.spectators = m.spectators;
		if (Array.isArray(m.status)) this.status = m.status.slice();
		if (m.view !== undefined && m.view !== null) this.view = m.view;
		if (patched !== null) this.view = patched;
		if (m.type === 'start') this.addLog('A new game begins.', 'info');
		this.events = Array.isArray(m.events) ? m.events : [];
		for (const ev of this.events) {
			const line = eventLine ? eventLine(ev, this) : null;
			if (line) this.addLog(line, 'event');
		}
		switch (m.type) {
		case 'table':
			f |= this.takeSnapshot(m);
			break;
		case 'start':
			this.state = 'playing';
			this.result = null;
			this.reveal = null;
			this.seed = null;
			f |= F.START;
			break;
		case 'options':
			this.takeOptions(m);
			if (this.options) f |= F.OPTIONS;
			break;
		case 'status':
			this.takeChoice(m);
			break;
		case 'window':
			this.windowAt = performance.now() +
				(Number.isInteger(m.closes_in_ms) ? m.closes_in_ms : this.windowMs);
			this.takeChoice(m);
			break;
		case 'reveal':
			this.revealChanged = null;
			if (this.you !== null && this.firstChoice !== null) {
				const mine = (m.choices || []).find((c) => c.seat === this.you);
				if (mine && key(mine.choice) !== key(this.firstChoice))
					this.revealChanged = { from: this.firstChoice, to: mine.choice };
			}
			this.reveal = m;
			this.options = null;
			this.choice = null;
			this.firstChoice = null;
			this.deadlineAt = this.windowAt = 0;
			this.pending = [];
			this.status = this.status.map(() => 'idle'); // until the next options
			f |= F.REVEAL;
			break;
		case 'result':
			this.takeResult(m);
			f |= F.RESULT;
			break;
		case 'table_closed':
			this.closed = true;
			f |= F.CLOSED;
			break;
		default:
			break;
		}
		return f;
	}

	takeSnapshot(m) {
		let f = 0;
		this.snapshotAt = performance.now();
		if (typeof m.kind === 'string') this.kind = m.kind;
		if (typeof m.name === 'string') this.name = m.name;
		this.private = !!m.private;
		this.you = Number.isInteger(m.you) ? m.you : null;
		this.config = m.config || {};
		if (Number.isInteger(m.turn_timeout_ms)) this.turnTimeoutMs = m.turn_timeout_ms;
		if (Number.isInteger(m.window_ms)) this.windowMs = m.window_ms;
		this.options = null;
		this.choice = null;
		this.deadlineAt = this.windowAt = 0;
		this.result = null;
		this.seed = null;
		const g = m.game;
		if (g && typeof g === 'object') {
			this.takeOptions(g);
			if (this.options) f |= F.OPTIONS;
			this.takeChoice(g);
			if (this.choice !== null && this.firstChoice === null) this.firstChoice = this.choice;
			if (Number.isInteger(g.closes_in_ms)) this.windowAt = performance.now() + g.closes_in_ms;
			if (Array.isArray(g.status)) this.status = g.status.slice();
			if (g.view) this.view = g.view;
		} else {
			this.view = null;
			this.decision = 0;
		}
		if (m.result) {
			this.takeResult(m);
			f |= F.RESULT;
		}
		return f;
	}

	takeOptions(m) {
		const newDecision = Number.isInteger(m.decision) && m.decision !== this.decision;
		if (Number.isInteger(m.decision)) this.decision = m.decision;
		this.options = Array.isArray(m.options) ? m.options : null;
		this.pending = Array.isArray(m.pending) ? m.pending : [];
		this.deadlineAt = Number.isInteger(m.deadline) ? performance.now() + m.deadline : 0;
		this.windowAt = 0;
		if (newDecision) {
			this.choice = null;
			this.firstChoice = null;
		}
		this.takeChoice(m);
	}

	takeChoice(m) {
		if (m.choice === undefined || m.choice === null) return;
		this.choice = m.choice;
		if (this.firstChoice === null) this.firstChoice = m.choice;
	}

	takeResult(m) {
		// lean (we ask for it): no `result` when the view we hold has it
		this.result = m.result || (this.view && this.view.result) || null;
		if (typeof m.seed === 'string') this.seed = m.seed;
		this.state = 'finished';
		this.options = null;
		this.deadlineAt = this.windowAt = 0;
		this.pending = [];
	}

	addLog(text, kind) {
		this.log.push({ text, kind });
		if (this.log.length > LOG_MAX) this.log.splice(0, this.log.length - LOG_MAX);
	}

	// A seat's display name: the player's, "AI n", or "empty".
	seatName(i) {
		const s = this.seats[i];
		if (!s) return `seat ${i + 1}`;
		if (s.kind === 'human') return s.name || `seat ${i + 1}`;
		if (s.kind === 'ai') return `AI ${i + 1}`;
		return 'empty';
	}

	// Our player is the host (host is a player id).
	isHost(playerId) { return this.host !== null && this.host === playerId; }

	// Our seat is asked now.
	get asked() { return this.you !== null && Array.isArray(this.options) && this.options.length > 0; }
}

// A choice as a comparable key ("stay" and {id:"stay"} alike; other objects
// by their fields in name order, so the server's echo in another order is
// the same choice).
export function key(choice) {
	if (typeof choice === 'string') return choice;
	if (choice && typeof choice === 'object' && typeof choice.id === 'string') return choice.id;
	if (choice && typeof choice === 'object' && !Array.isArray(choice))
		return JSON.stringify(Object.keys(choice).sort().map((k) => [k, choice[k]]));
	return JSON.stringify(choice);
}
