/*
 * admin_token.c — see admin_token.h. The database work itself (open, issue,
 * close on a loop of its own) is admin_token_command in admin.c.
 */
#include "admin_token.h"

#include <errno.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/log.h"
#include "../common/util.h"
#include "admin.h"

static bool has_config_flag(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--config") || !strncmp(argv[i], "--config=", 9))
			return true;
	return false;
}

int admin_token_cli(laird_config *cfg, int argc, char **argv, const char *default_config)
{
	char err[512];
	const char *name = NULL;
	bool create = false;
	char **args = argv; /* argv less NAME and --create, in place */
	int n = 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--create"))
			create = true;
		else if (i == 1 && argv[i][0] != '-')
			name = argv[i];
		else
			args[n++] = argv[i];
	}
	args[n] = NULL;
	const char *from = "the defaults";
	if (!has_config_flag(n, args) && default_config &&
	    access(default_config, F_OK) == 0) {
		if (config_load_file(cfg, default_config, err, sizeof err) != 0) {
			fprintf(stderr, "laird admin-token: %s\n", err);
			return 2;
		}
		from = default_config;
	}
	int r = config_parse_args(cfg, n, args, err, sizeof err);
	if (r == 1)
		return 0;
	if (r < 0) {
		fprintf(stderr, "laird admin-token: %s\n", err);
		return 2;
	}
	if (has_config_flag(n, args))
		from = "--config";
	log_set_level((enum log_level)cfg->log_level);
	struct stat st;
	if (stat(cfg->db_path, &st) != 0) {
		if (errno != ENOENT) {
			fprintf(stderr, "laird admin-token: %s: %s (settings from %s)\n", cfg->db_path,
				strerror(errno), from);
			return 1;
		}
		if (!create) {
			fprintf(stderr,
				"laird admin-token: no database at %s (settings from %s).\n"
				"Give the service's settings (--config FILE) or its --db-path; "
				"--create makes a new database.\n",
				cfg->db_path, from);
			return 1;
		}
		if (mkdir_parent(cfg->db_path, err, sizeof err) < 0) {
			fprintf(stderr, "laird admin-token: %s\n", err);
			return 1;
		}
	} else if (geteuid() == 0 && st.st_uid != 0) {
		/* Files root makes beside it (the WAL) would lock the service out. */
		struct passwd *pw = getpwuid(st.st_uid);
		fprintf(stderr,
			"laird admin-token: %s belongs to %s: run this as that user "
			"(sudo -u %s laird admin-token ...)\n",
			cfg->db_path, pw ? pw->pw_name : "another user", pw ? pw->pw_name : "USER");
		return 1;
	}
	fprintf(stderr, "laird admin-token: database %s (settings from %s)\n", cfg->db_path,
		from);
	return admin_token_command(cfg, name);
}
