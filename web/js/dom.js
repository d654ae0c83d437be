// dom.js — building the page without HTML strings: every text a player or
// the server sent goes in as text (a chat line can never become markup).
//
//   h('button', { class: 'opt', onclick: f, 'aria-pressed': 'true' }, 'Stay')
//
// attrs: `class`, `text`, `on<event>` (a listener), `dataset` ({k: v}),
// booleans (true: the attribute with no value; false/null/undefined: left
// out), anything else as an attribute. Children: nodes, strings, numbers,
// arrays of them; null/false are skipped.

export function h(tag, attrs = {}, ...children) {
	const el = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs || {})) {
		if (v === undefined || v === null || v === false) continue;
		if (k === 'class') el.className = v;
		else if (k === 'text') el.textContent = String(v);
		else if (k === 'dataset') Object.assign(el.dataset, v);
		else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
		else if (v === true) el.setAttribute(k, '');
		else el.setAttribute(k, String(v));
	}
	append(el, children);
	return el;
}

export function append(el, children) {
	for (const c of children.flat(Infinity)) {
		if (c === null || c === undefined || c === false) continue;
		el.append(c instanceof Node ? c : document.createTextNode(String(c)));
	}
	return el;
}

// Replaces el's children, keeping the focus on the element with the same
// data-focus key if the focus was inside el (a re-render must not throw the
// keyboard user back to the top of the page).
export function replace(el, ...children) {
	const active = document.activeElement;
	const key = active && el.contains(active) ? active.dataset.focus : undefined;
	el.replaceChildren();
	append(el, children);
	if (key !== undefined) {
		const again = el.querySelector(`[data-focus="${CSS.escape(key)}"]`);
		if (again) again.focus();
	}
	return el;
}

// A wide table's box: on a phone it scrolls sideways, so it takes the
// keyboard's focus (arrow keys scroll it; a redraw gives the focus back)
// and says what it holds.
export function scroller(label, child) {
	return h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': label,
		'data-focus': `scroll-${label}` }, child);
}

// Seconds left until a performance.now() deadline, for countdowns.
export function secondsLeft(at) {
	return Math.max(0, (at - performance.now()) / 1000);
}

// Numbers as the tables show them: integers plainly, fractions to one place.
export function fmt(v, digits = 1) {
	if (typeof v !== 'number' || !Number.isFinite(v)) return '–';
	return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}

// True while the keyboard is in a text field (shortcuts must not fire).
export function typing(ev) {
	const t = ev.target;
	return t instanceof HTMLElement &&
		(t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
}
