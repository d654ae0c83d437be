'use strict';
/*
 * lib/jschema.js — a small JSON Schema checker for the keywords
 * proto/schema.json uses: $ref (local), type, const, enum, required,
 * properties, additionalProperties, items, minimum, maximum, minLength,
 * maxLength, pattern, oneOf. Returns a list of errors ([] = valid).
 *
 *   check(schema, { $ref: '#/$defs/server_message' }, m)  // -> [] or errors
 *   assertValid(m)            // throws unless m is a valid server message
 *   assertValid(v, 'view')    // ... a valid $defs/view of proto/schema.json
 */
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

function typeOk(t, v) {
	switch (t) {
	case 'null': return v === null;
	case 'boolean': return typeof v === 'boolean';
	case 'integer': return Number.isInteger(v);
	case 'number': return typeof v === 'number';
	case 'string': return typeof v === 'string';
	case 'array': return Array.isArray(v);
	case 'object': return v !== null && typeof v === 'object' && !Array.isArray(v);
	default: return false;
	}
}

function check(root, s, v, at = '$', errs = []) {
	if (s === true || s === undefined) return errs;
	if (s.$ref) {
		const name = s.$ref.replace('#/$defs/', '');
		return check(root, root.$defs[name], v, at, errs);
	}
	if (s.type) {
		const ts = Array.isArray(s.type) ? s.type : [s.type];
		if (!ts.some((t) => typeOk(t, v))) {
			errs.push(`${at}: not ${ts.join('|')}`);
			return errs;
		}
	}
	if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v))
		errs.push(`${at}: not ${JSON.stringify(s.const)}`);
	if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v)))
		errs.push(`${at}: ${JSON.stringify(v)} not in enum`);
	if (typeof v === 'number') {
		if (s.minimum !== undefined && v < s.minimum) errs.push(`${at}: < ${s.minimum}`);
		if (s.maximum !== undefined && v > s.maximum) errs.push(`${at}: > ${s.maximum}`);
	}
	if (typeof v === 'string') {
		const n = Buffer.byteLength(v);
		if (s.minLength !== undefined && n < s.minLength) errs.push(`${at}: too short`);
		if (s.maxLength !== undefined && n > s.maxLength) errs.push(`${at}: too long`);
		if (s.pattern && !new RegExp(s.pattern).test(v)) errs.push(`${at}: !~ ${s.pattern}`);
	}
	if (typeOk('object', v)) {
		for (const r of s.required || []) if (!(r in v)) errs.push(`${at}: missing ${r}`);
		for (const [k, sub] of Object.entries(s.properties || {}))
			if (k in v) check(root, sub, v[k], `${at}.${k}`, errs);
		if (s.additionalProperties && typeof s.additionalProperties === 'object')
			for (const [k, x] of Object.entries(v))
				if (!(s.properties && k in s.properties))
					check(root, s.additionalProperties, x, `${at}.${k}`, errs);
	}
	if (Array.isArray(v) && s.items) v.forEach((x, i) => check(root, s.items, x, `${at}[${i}]`, errs));
	if (s.oneOf) {
		const ok = s.oneOf.filter((sub) => check(root, sub, v, at, []).length === 0).length;
		if (ok !== 1) errs.push(`${at}: matches ${ok} of oneOf`);
	}
	return errs;
}

let protoSchema; // proto/schema.json, read on first use

/* Asserts v is a valid `def` of proto/schema.json's $defs. */
function assertValid(v, def = 'server_message') {
	protoSchema = protoSchema || JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..',
		'proto', 'schema.json'), 'utf8'));
	assert.deepStrictEqual(check(protoSchema, { $ref: `#/$defs/${def}` }, v), [],
		JSON.stringify(v));
}

module.exports = { check, assertValid };
