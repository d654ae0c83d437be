/*
 * app.c — placeholder application layer: answers every frame with an
 * error until the real one lands (sessions, lobbies, tables).
 */
#include "app.h"

#include <stdlib.h>

struct app {
	uv_loop_t *loop;
};

app *app_new(uv_loop_t *loop, const laird_config *cfg, struct store *store, struct net *net)
{
	(void)cfg;
	(void)store;
	(void)net;
	app *a = xcalloc(1, sizeof *a);
	a->loop = loop;
	return a;
}

void app_free(app *a) { free(a); }
void app_on_open(app *a, struct conn *c) { (void)a, (void)c; }
void app_on_message(app *a, struct conn *c, const char *text, size_t len)
{
	(void)a, (void)c, (void)text, (void)len;
}
void app_on_close(app *a, struct conn *c) { (void)a, (void)c; }
void app_drain(app *a) { (void)a; }
void app_metrics(app *a, buf *out) { (void)a, (void)out; }
