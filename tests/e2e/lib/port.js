'use strict';
/*
 * lib/port.js — a free loopback port, for a server a test must name the
 * port of before it starts (a config file, a proxy's upstream, a server
 * started again on the same port after an outage):
 *
 *   const port = await freePort();          // 127.0.0.1
 *   await freePort('::1')                   // rejects when there is no ::1
 *
 * The port is drawn below the kernel's ephemeral range
 * (/proc/sys/net/ipv4/ip_local_port_range). A port of that range (what
 * listen(0) returns) can be taken, between the check and the server's
 * bind, by any outgoing connection of the tests running beside this one
 * (tests/run runs several files at once: a deployment test lost its
 * laird's port that way); one below it only by a server binding that
 * very port.
 */
const fs = require('node:fs');
const net = require('node:net');

function ephemeralLow() {
	try {
		const lo = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]);
		if (lo > 11024) return lo;
	} catch { /* not Linux: its usual range */ }
	return 32768;
}

/* true when nothing holds port on host; rejects when host cannot be bound at all. */
function bindable(port, host) {
	return new Promise((resolve, reject) => {
		const s = net.createServer();
		s.once('error', (e) => (e.code === 'EADDRINUSE' || e.code === 'EACCES' ? resolve(false) : reject(e)));
		s.listen(port, host, () => s.close(() => resolve(true)));
	});
}

async function freePort(host = '127.0.0.1') {
	const hi = ephemeralLow(), lo = hi - 10000;
	for (let tries = 0; tries < 200; tries++) {
		const port = lo + Math.floor(Math.random() * (hi - lo));
		if (await bindable(port, host)) return port;
	}
	throw new Error(`no free port on ${host} in ${lo}-${hi - 1}`);
}

module.exports = { freePort };
