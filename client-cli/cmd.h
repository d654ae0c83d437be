/*
 * cmd.h — lair's commands, one file each (cmd_<name>.c), as tmux does.
 * Each takes argv with argv[0] = the command's name and returns lair's exit
 * code: 0 ok, 1 server refused, 2 usage, 3 connection failed.
 */
#ifndef LAIR_CMD_H
#define LAIR_CMD_H

enum lair_exit { LAIR_OK = 0, LAIR_REFUSED = 1, LAIR_USAGE = 2, LAIR_CONNECT = 3 };

/* lair's version (`lair --version`; the hello's client string "lair/…"). */
#define LAIR_VERSION "0.1"

int cmd_sim(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_achievements(int argc, char **argv);
int cmd_records(int argc, char **argv);
int cmd_admin(int argc, char **argv);
int cmd_map(int argc, char **argv);

#include <stdio.h>
/* cmd_map with its output streams (tests). */
int cmd_map_to(int argc, char **argv, FILE *out, FILE *err);

#endif
