'use strict';
/*
 * lib/rng.js — the seeded generator of the tests that choose at random
 * (recovery.test.js's kill points and choices, soak/soak.js's crowd):
 * mulberry32, small and the same on every machine, so a seed replays a
 * run exactly.
 *
 *   const R = rng(7); R()   // a number in [0, 1), the next of seed 7's
 */
function rng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

module.exports = { rng };
