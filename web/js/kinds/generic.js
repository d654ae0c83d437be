// kinds/generic.js — a kind this client has no drawing for: its options
// (buttons for a list of {id, label}, a form for a descriptor object), the
// view's top-level numbers, and the result as scores. Enough to play.

import { h, fmt } from '../dom.js';
import { key } from '../table.js';
import { choiceForm, keptForm } from './form.js';

export function optionButtons(t, app, keys = () => null) {
	if (!t.asked) return null;
	const opts = t.options;
	if (opts.length === 1 && opts[0] && typeof opts[0] === 'object' && opts[0].id === undefined)
		return keptForm(app.ui, `${t.id}/${t.decision}`,
			() => choiceForm(opts[0], t.choice, (c) => app.choose(c), { prefix: `d${t.decision}` }));
	return h('div', { class: 'options', role: 'group', 'aria-label': 'Your options' },
		opts.map((o, i) => {
			const id = typeof o === 'string' ? o : o.id;
			const k = keys(id, i);
			const chosen = t.choice !== null && key(t.choice) === id;
			return h('button', { class: `opt ${chosen ? 'chosen' : ''}`, 'aria-pressed': chosen ? 'true' : 'false',
				'aria-keyshortcuts': k || null, 'data-focus': `opt-${id}`, dataset: { choice: id },
				onclick: () => app.choose(id) },
			k ? h('kbd', {}, k) : null, (o && o.label) || id);
		}));
}

export default {
	label: 'Game',
	eventLine(ev) {
		const t = ev.type || ev.event;
		return typeof t === 'string' ? t.replace(/_/g, ' ') : null;
	},
	render(t, app) {
		const v = t.view || {};
		const nums = Object.entries(v).filter(([, x]) => typeof x === 'number');
		return h('section', { class: 'card', 'aria-label': 'The game' },
			h('dl', { class: 'facts' }, nums.map(([k, x]) => [h('dt', {}, k), h('dd', {}, fmt(x))])),
			optionButtons(t, app, (id, i) => (i < 9 ? String(i + 1) : null)));
	},
	renderResult(t) {
		const r = t.result || {};
		const scores = Array.isArray(r.scores) ? r.scores : [];
		return h('ol', {}, scores.map((s, i) => h('li', {}, `${t.seatName(i)}: ${s}`)));
	},
	choiceLabel(c) {
		return typeof c === 'string' ? c : JSON.stringify(c);
	},
	onKey(ev, t, app) {
		if (!t.asked) return false;
		const n = Number(ev.key);
		if (n >= 1 && n <= t.options.length && t.options[n - 1] && t.options[n - 1].id) {
			app.choose(t.options[n - 1].id);
			return true;
		}
		return false;
	},
};
