/*
 * screen.c — lair's terminal renderer (see screen.h). Frames are diffed row
 * by row: a changed row is rewritten whole (80 cells is cheap), an unchanged
 * one costs nothing, so a countdown ticking once a second writes one row.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "../common/util.h"
#include "screen.h"

static struct termios saved_tio;
static int saved_in_fd = -1;

int scr_color_wanted(const char *no_color, const char *term, int is_tty)
{
	if (no_color)
		return 0; /* https://no-color.org: present, whatever its value */
	if (!term || !*term || strcmp(term, "dumb") == 0)
		return 0;
	return is_tty != 0;
}

void scr_init(struct scr *s, int fd, int color)
{
	memset(s, 0, sizeof *s);
	s->fd = fd;
	s->color = color;
	s->full = 1;
	s->out_wait_ms = SCR_OUT_WAIT_MS;
	scr_clear(s);
}

void scr_clear(struct scr *s)
{
	for (int r = 0; r < SCR_H; r++)
		for (int c = 0; c < SCR_W; c++) {
			s->cur[r][c].ch = ' ';
			s->cur[r][c].attr = 0;
		}
}

int scr_put(struct scr *s, int row, int col, uint8_t attr, const char *text)
{
	if (row < 0 || row >= SCR_H)
		return col;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++, col++) {
		if (col < 0)
			continue;
		if (col >= SCR_W)
			break;
		s->cur[row][col].ch = (*p >= 32 && *p < 127) ? (char)*p : '?';
		s->cur[row][col].attr = attr;
	}
	return col;
}

int scr_printf(struct scr *s, int row, int col, uint8_t attr, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	return scr_put(s, row, col, attr, line);
}

void scr_fill(struct scr *s, int row, int col, uint8_t attr)
{
	if (row < 0 || row >= SCR_H)
		return;
	for (int c = col < 0 ? 0 : col; c < SCR_W; c++) {
		s->cur[row][c].ch = ' ';
		s->cur[row][c].attr = attr;
	}
}

const char *scr_row(struct scr *s, int row)
{
	int n = 0;
	if (row >= 0 && row < SCR_H) {
		for (int c = 0; c < SCR_W; c++)
			s->row_buf[c] = s->cur[row][c].ch;
		n = SCR_W;
		while (n > 0 && s->row_buf[n - 1] == ' ')
			n--;
	}
	s->row_buf[n] = '\0';
	return s->row_buf;
}

int scr_contains(struct scr *s, const char *text)
{
	for (int r = 0; r < SCR_H; r++)
		if (strstr(scr_row(s, r), text))
			return 1;
	return 0;
}

/* The terminal can take output slower than lair makes it (a busy machine, a
 * slow link), and its file description is non-blocking: stdin and stdout
 * of a terminal share one, and libuv's poll of stdin sets O_NONBLOCK on it.
 * So a write may fall short with EAGAIN: then wait for the terminal, up to
 * out_wait_ms in all. What is not written (that long a wait, a vanished
 * terminal) is not on screen, whatever `shown` says: the next flush
 * redraws everything (dropping the rest left a stale screen for good). */
static void out(struct scr *s, const char *p, size_t n)
{
	int waited = 0;
	while (n > 0 && s->fd >= 0) {
		ssize_t w = write(s->fd, p, n);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && waited < s->out_wait_ms) {
			struct pollfd pfd = {.fd = s->fd, .events = POLLOUT};
			int step = s->out_wait_ms - waited < 100 ? s->out_wait_ms - waited : 100;
			int r = poll(&pfd, 1, step);
			if (r == 0)
				waited += step;
			if (r >= 0 || errno == EINTR)
				continue;
		}
		s->full = 1;
		return;
	}
}

static void out_s(struct scr *s, const char *p)
{
	out(s, p, strlen(p));
}

int scr_term_enter(struct scr *s, int in_fd)
{
	if (s->fd < 0 || !isatty(s->fd) || !isatty(in_fd))
		return -1;
	struct termios t;
	if (tcgetattr(in_fd, &t) < 0)
		return -1;
	saved_tio = t;
	saved_in_fd = in_fd;
	/* Raw-ish: no echo, no line buffering, no signals from ^C (we read it
	 * as a key and quit cleanly), output processing kept for "\r\n". */
	t.c_lflag &= ~(tcflag_t)(ECHO | ICANON | ISIG | IEXTEN);
	t.c_iflag &= ~(tcflag_t)(IXON | ICRNL | BRKINT | INPCK | ISTRIP);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(in_fd, TCSAFLUSH, &t) < 0)
		return -1;
	s->raw = 1;
	out_s(s, "\033[?1049h\033[?25l\033[H\033[2J");
	s->full = 1;
	return 0;
}

void scr_term_leave(struct scr *s)
{
	if (!s->raw)
		return;
	s->raw = 0;
	out_s(s, "\033[0m\033[?25h\033[?1049l");
	if (saved_in_fd >= 0)
		tcsetattr(saved_in_fd, TCSAFLUSH, &saved_tio);
	saved_in_fd = -1;
}

void scr_invalidate(struct scr *s)
{
	s->full = 1;
}

static void attr_seq(struct scr *s, buf *b, uint8_t attr)
{
	buf_puts(b, "\033[0");
	if (s->color) {
		if (attr & 0x0f)
			buf_printf(b, ";%d", 30 + (attr & 0x0f));
		if (attr & SA_BOLD)
			buf_puts(b, ";1");
		if (attr & SA_DIM)
			buf_puts(b, ";2");
	}
	/* Reverse video carries meaning (the selected key) and is not colour. */
	if (attr & SA_REVERSE)
		buf_puts(b, ";7");
	buf_puts(b, "m");
}

int scr_term_size(int fd, int *cols, int *rows)
{
	struct winsize w;
	if (ioctl(fd, TIOCGWINSZ, &w) < 0 || w.ws_col == 0 || w.ws_row == 0)
		return -1;
	*cols = w.ws_col;
	*rows = w.ws_row;
	return 0;
}

void scr_set_size(struct scr *s, int cols, int rows)
{
	s->cols = cols;
	s->rows = rows;
}

/* The notice for a terminal under SCR_W × SCR_H: short lines, each cut to
 * the width, as many as there are rows. */
static void too_small(struct scr *s)
{
	char lines[4][64];
	snprintf(lines[0], sizeof lines[0], "terminal too small");
	snprintf(lines[1], sizeof lines[1], "lair needs %dx%d,", SCR_W, SCR_H);
	snprintf(lines[2], sizeof lines[2], "this one is %dx%d.", s->cols, s->rows);
	snprintf(lines[3], sizeof lines[3], "Enlarge it, or Q.");
	buf b = {0};
	buf_puts(&b, "\033[0m\033[H\033[2J");
	for (int i = 0; i < 4 && i < s->rows; i++)
		buf_printf(&b, "\033[%d;1H%.*s", i + 1, s->cols, lines[i]);
	out(s, b.data, b.len);
	buf_free(&b);
}

void scr_flush(struct scr *s)
{
	if (s->cols > 0 && s->rows > 0 && (s->cols < SCR_W || s->rows < SCR_H)) {
		int size = s->cols << 16 | s->rows;
		if (s->small_shown != size)
			too_small(s);
		s->small_shown = size;
		s->full = 1; /* whole again once it is large enough */
		return;
	}
	s->small_shown = 0;
	buf b = {0};
	if (s->full)
		buf_puts(&b, "\033[0m\033[H\033[2J");
	for (int r = 0; r < SCR_H; r++) {
		if (!s->full && memcmp(s->cur[r], s->shown[r], sizeof s->cur[r]) == 0)
			continue;
		buf_printf(&b, "\033[%d;1H", r + 1);
		int last = -1;
		for (int c = 0; c < SCR_W; c++) {
			uint8_t a = s->cur[r][c].attr;
			if (a != last) {
				attr_seq(s, &b, a);
				last = a;
			}
			buf_append(&b, &s->cur[r][c].ch, 1);
		}
		buf_puts(&b, "\033[0m");
		memcpy(s->shown[r], s->cur[r], sizeof s->cur[r]);
	}
	s->full = 0;
	if (b.len)
		out(s, b.data, b.len);
	buf_free(&b);
}
