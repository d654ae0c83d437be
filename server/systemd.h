/*
 * systemd.h — readiness for a Type=notify service (deploy/laird.service):
 * the sd_notify(3) protocol, one datagram of "KEY=value" lines sent to the
 * AF_UNIX socket named by $NOTIFY_SOCKET ("@name": the abstract namespace).
 *
 * Written here rather than linked from libsystemd: the protocol is these
 * few lines and stable (systemd documents it for exactly this), and laird
 * then needs no libsystemd at build or run time, also on hosts without
 * systemd, where $NOTIFY_SOCKET is unset and this does nothing.
 *
 * laird sends READY=1 once it listens and its database is open (systemd
 * then starts what comes After=laird, and `systemctl start` returns), and
 * STOPPING=1 when a signal begins the drain.
 */
#ifndef LAIR_SYSTEMD_H
#define LAIR_SYSTEMD_H

/* Sends state (e.g. "READY=1\nSTATUS=serving") without blocking. Returns 1
 * when sent, 0 when $NOTIFY_SOCKET is unset (not under systemd), -1 on an
 * error (errno set; the caller logs it, the service carries on). */
int systemd_notify(const char *state);

#endif
