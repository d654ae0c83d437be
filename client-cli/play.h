/*
 * play.h — the interactive client behind `lair play` and `lair watch`: a
 * small state machine (lobby → create form → table → game → result) that
 * turns keys into requests and server messages into screens.
 *
 * It owns the terminal while it runs (raw mode, alternate screen) and its
 * loop handles (stdin poll, tick and animation timers, signals); the
 * session (lsess.h) resumes the seat after a dropped connection.
 */
#ifndef LAIR_PLAY_H
#define LAIR_PLAY_H

struct play_opts {
	const char *url;   /* NULL: default */
	const char *name;  /* new player's name */
	const char *token; /* explicit token */
	long long watch;   /* > 0: spectate this table and nothing else */
	long long join;    /* > 0: join this table at once */
	const char *password;
};

/* Runs until the user quits; returns lair's exit code (cmd.h). */
int play_run(const struct play_opts *o);

#endif
