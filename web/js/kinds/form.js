// kinds/form.js — a choice form drawn from a kind's option descriptor (as
// deepfall sends: {target:{min,max}, press:{min,max}, recruit:[false,true],
// exit:["persist",...]}): a number field per range, a checkbox per boolean
// pair, radio buttons per list of words. A field the kind adds later shows
// up without a change here. Labels and help come from `words` when given.

import { h } from '../dom.js';

function human(k) {
	return k.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

// desc: the descriptor; current: the choice to show (or null); words:
// {field: {label, help, values: {value: label}}}; prefix: ids.
export function choiceForm(desc, current, onSubmit, { words = {}, prefix = 'f', submitLabel = 'Choose' } = {}) {
	const read = [];
	const fields = [];
	for (const [k, d] of Object.entries(desc || {})) {
		const w = words[k] || {};
		const id = `${prefix}-${k}`;
		const label = w.label || human(k);
		const help = w.help ? h('span', { class: 'help', id: `${id}-help` }, w.help) : null;
		const cur = current && current[k] !== undefined ? current[k] : undefined;
		if (d && typeof d === 'object' && !Array.isArray(d) && Number.isInteger(d.min) && Number.isInteger(d.max)) {
			const input = h('input', { id, type: 'number', min: d.min, max: d.max, step: 1, required: true,
				value: cur !== undefined ? cur : (w.initial !== undefined ? Math.min(d.max, Math.max(d.min, w.initial(d))) : d.min),
				'aria-describedby': help ? `${id}-help` : null, 'data-focus': id });
			fields.push(h('div', { class: 'field' }, h('label', { for: id }, `${label} (${d.min}–${d.max})`), input, help));
			read.push(() => [k, Number(input.value)]);
		} else if (Array.isArray(d) && d.length && d.every((x) => typeof x === 'boolean')) {
			const input = h('input', { id, type: 'checkbox', checked: cur === true, 'data-focus': id,
				'aria-describedby': help ? `${id}-help` : null });
			fields.push(h('div', { class: 'field check' }, input, h('label', { for: id }, label), help));
			read.push(() => [k, input.checked]);
		} else if (Array.isArray(d) && d.length && d.every((x) => typeof x === 'string')) {
			const name = id;
			const radios = d.map((v, i) => {
				const rid = `${id}-${i}`;
				const r = h('input', { type: 'radio', id: rid, name, value: v, 'data-focus': rid,
					checked: cur !== undefined ? cur === v : i === 0 });
				return h('span', { class: 'radio' }, r, h('label', { for: rid },
					(w.values && w.values[v]) || human(v)));
			});
			fields.push(h('fieldset', { class: 'field' }, h('legend', {}, label), radios, help));
			read.push(() => {
				const on = radios.map((r) => r.querySelector('input')).find((r) => r.checked);
				return [k, on ? on.value : d[0]];
			});
		}
	}
	const form = h('form', { class: 'choice-form', onsubmit: (ev) => {
		ev.preventDefault();
		if (!form.reportValidity()) return;
		onSubmit(Object.fromEntries(read.map((f) => f())));
	} }, fields, h('button', { type: 'submit', class: 'primary', 'data-focus': `${prefix}-submit` }, submitLabel));
	return form;
}

// The same form node across re-renders of one decision (what the player is
// typing survives a status update); a new decision gets a fresh one.
export function keptForm(ui, key, make) {
	ui.forms = ui.forms || new Map();
	if (!ui.forms.has(key)) {
		ui.forms.clear();
		ui.forms.set(key, make());
	}
	return ui.forms.get(key);
}
