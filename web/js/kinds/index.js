// kinds/index.js — the game kinds this client draws. A kind's view is one
// module exporting an object:
//   label                      its name for people
//   eventLine(ev, table)       a log line for an event, or null
//   render(table, app)         the play area: the game and our options
//   renderResult(table, app)   the end summary
//   choiceLabel(choice, table) a choice in words (the reveal)
//   onKey(ev, table, app)      keyboard shortcuts; true when handled
//   tick(app, table), onReveal(table, ui), onUpdate(table, ui, flags): optional
// An unknown kind gets generic.js (the options as buttons or a form).

import gems from './gems.js';
import deepfall from './deepfall.js';
import crawl from './crawl.js';
import generic from './generic.js';

const kinds = { gems, deepfall, crawl };

export function kindView(name) {
	return kinds[name] || generic;
}

export function kindNames() {
	return Object.keys(kinds);
}
