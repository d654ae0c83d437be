/*
 * screen.h — lair's small terminal renderer: an 80×24 grid of ASCII cells
 * with colour attributes, drawn by the views and written to the terminal
 * as the difference from the previous frame.
 *
 * The grid part (scr_clear, scr_put, scr_row) is pure and is what the unit
 * tests check; the terminal part (scr_term_*) switches the tty to raw mode
 * (termios) and the alternate screen, writes frames with ANSI sequences
 * (colour only when scr_color_wanted() said so) and restores the tty.
 * No ncurses. Keys are single bytes read from the tty by the caller.
 */
#ifndef LAIR_SCREEN_H
#define LAIR_SCREEN_H

#include <stddef.h>
#include <stdint.h>

#define SCR_W 80
#define SCR_H 24
#define SCR_OUT_WAIT_MS 5000

/* Attributes: a colour in the low 4 bits, flags above. */
enum scr_color {
	SC_DEFAULT,
	SC_RED,
	SC_GREEN,
	SC_YELLOW,
	SC_BLUE,
	SC_MAGENTA,
	SC_CYAN,
	SC_WHITE,
};
#define SA_BOLD 0x10
#define SA_REVERSE 0x20
#define SA_DIM 0x40

struct scr_cell {
	char ch;
	uint8_t attr;
};

struct scr {
	struct scr_cell cur[SCR_H][SCR_W];  /* being drawn */
	struct scr_cell shown[SCR_H][SCR_W]; /* on the terminal */
	int full;          /* the next flush redraws everything */
	int color;         /* emit colours */
	int fd;            /* terminal output; -1: none (tests) */
	int raw;           /* the tty is in raw mode (scr_term_leave restores) */
	int cols, rows;    /* the terminal's size; 0: unknown (taken to fit) */
	int small_shown;   /* cols << 16 | rows the "too small" notice is up for */
	int out_wait_ms;   /* a flush waits this long for a slow terminal at most
			    * (SCR_OUT_WAIT_MS; tests set less) */
	char row_buf[SCR_W + 1];
};

/* Colour policy: NO_COLOR set (to anything) → no; TERM unset, "dumb" → no;
 * otherwise yes when out is a terminal. Pure apart from its arguments. */
int scr_color_wanted(const char *no_color, const char *term, int is_tty);

/* An empty grid; fd -1 for tests. */
void scr_init(struct scr *s, int fd, int color);
void scr_clear(struct scr *s);
/* Writes text at (row, col), clipped to the grid; non-printable bytes show
 * as '?'. Returns the column after the text. */
int scr_put(struct scr *s, int row, int col, uint8_t attr, const char *text);
int scr_printf(struct scr *s, int row, int col, uint8_t attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Fills a row from col to the end with spaces in attr. */
void scr_fill(struct scr *s, int row, int col, uint8_t attr);
/* The text of a drawn row without trailing spaces (a static buffer in s). */
const char *scr_row(struct scr *s, int row);
/* Non-zero if any row reads (contains) text. */
int scr_contains(struct scr *s, const char *text);

/* Terminal: raw mode + alternate screen + hidden cursor. Returns 0, or -1
 * when fd is not a terminal. */
int scr_term_enter(struct scr *s, int in_fd);
/* Restores the tty (cursor, main screen, cooked mode). Safe to call twice. */
void scr_term_leave(struct scr *s);
/* Forces a full redraw next flush (after a resize). */
void scr_invalidate(struct scr *s);
/* The terminal's size: reads it from the tty of fd (TIOCGWINSZ) into *cols
 * and *rows; 0, or -1 when fd is not a terminal. */
int scr_term_size(int fd, int *cols, int *rows);
/* Tells the renderer the terminal's size (at start and on SIGWINCH). */
void scr_set_size(struct scr *s, int cols, int rows);
/* Writes what changed since the last flush. A terminal smaller than
 * SCR_W × SCR_H gets, instead of a garbled frame, a cleared screen saying
 * so (once per size); the frame is redrawn whole once it is large enough. */
void scr_flush(struct scr *s);

#endif
