/*
 * origin.h — which web pages may open a WebSocket to laird.
 *
 * A browser sends the page's origin ("https://lair.example.org") in the
 * Origin header of every WebSocket upgrade, and lets any page open a socket
 * to any server. Without a check another site could open a socket to laird
 * in its visitor's browser and play with that visitor's token if it could
 * read it (cross-site WebSocket hijacking); refusing foreign origins at the
 * upgrade closes that door. Programs that are not browsers send no Origin
 * and are not affected.
 *
 * allowed (the allowed_origins setting) is a list of origins separated by
 * commas or spaces, compared without regard to case and default ports, or
 * "*" for any origin. Empty (the default): only the server's own origin, the
 * one whose host[:port] is the Host header the browser sent, over http or
 * https (so it also holds behind a TLS proxy that passes Host on).
 */
#ifndef LAIR_ORIGIN_H
#define LAIR_ORIGIN_H

#include <stdbool.h>
#include <stddef.h>

/* origin: the Origin header, NULL when absent (then: allowed). host: the
 * Host header, or NULL. */
bool origin_allowed(const char *origin, const char *host, const char *allowed);

/* True when allowed is a list origin_allowed accepts: "", "*", or origins
 * like scheme://host[:port] (what --allowed-origins checks at start). */
bool origin_list_valid(const char *allowed, char *err, size_t errlen);

#endif
