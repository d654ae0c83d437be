/*
 * admin_token.h — the command `laird admin-token [NAME] [--create] [flags]`:
 * where the admin token of deploy/README.md comes from, and how it is
 * rotated (a new token for the same NAME; the old one stops working).
 *
 * It must act on the database the service uses, so it reads the settings as
 * the service does: --config FILE, else default_config when that file
 * exists (the installed service's, LAIRD_CONFIG_PATH), else the defaults;
 * other flags (--db-path) win. A database that does not exist is an error
 * unless --create: a typo or the wrong directory would otherwise make a new
 * database nobody uses and print a token for it. Run as root on a database
 * another user owns, it refuses (files SQLite makes beside it, the WAL,
 * would belong to root and lock the service out).
 */
#ifndef LAIR_ADMIN_TOKEN_H
#define LAIR_ADMIN_TOKEN_H

#include "config.h"

/* argv[0] is "admin-token"; argv may be reordered. Prints the token on
 * stdout, what it did on stderr. Returns the exit code: 0, 1 (no database,
 * store failure), 2 (bad flags or settings). */
int admin_token_cli(laird_config *cfg, int argc, char **argv, const char *default_config);

#endif
