/*
 * net_int.h — the network layer's internals, shared by its three files and
 * nobody else: net.c (the lws context, the listeners, lws's callback,
 * timers, shutdown, metrics), net_ws.c (WebSocket connections: laird's own
 * RFC 6455 on lws raw sockets) and net_http.c (the pre-stage that reads a
 * new connection's request head, and plain HTTP).
 */
#ifndef LAIR_NET_INT_H
#define LAIR_NET_INT_H

#include <uv.h>

#include <libwebsockets.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http_head.h"
#include "http_static.h"
#include "listener.h"
#include "net.h"
#include "netaddr.h"
#include "ws.h"

#define TICK_MS 250             /* loop-lag probe; every 4th tick sweeps timeouts */
#define LAG_WINDOW_TICKS 40     /* lag max is over the last 10-20 s */
#define CLOSE_GRACE_MS 2000     /* a closing connection's queue and close reply */
#define SHUTDOWN_POLL_MS 10
#define SHUTDOWN_WAIT_MS 5000   /* then the context is destroyed regardless */
#define IP_BUCKETS 4096
#define HEAD_MAX 8192           /* a longer request head: 431 */
#define HEAD_TIMEOUT_MS 10000   /* a connection that sends no whole head in this */
#define WRITE_CHUNK 65536       /* lws's tx_packet_size (plain HTTP replies) */
#define WRITE_IOV 64            /* queued frames gathered into one sendmsg() */
#define SLOW_READER_MS 5000     /* over max_send_queue this long: a slow reader */
#define SEND_QUEUE_HARD 16      /* ...or over this many times max_send_queue */
#define MSG_KEEP 4096           /* a message buffer larger is freed after use */
#define ID_PEEK_MAX 256         /* bytes scanned for a dropped message's id */
#define SHUTDOWN_REASON "server shutting down"

enum net_err {
	ERR_RATE_LIMITED,
	ERR_RATE_ABUSE,
	ERR_FRAME_TOO_BIG,
	ERR_BINARY_FRAME,
	ERR_PROTOCOL,
	ERR_BAD_UTF8,
	ERR_SLOW_READER,
	ERR_IDLE_TIMEOUT,
	ERR_COUNT
};

enum refusal {
	REFUSED_FULL,
	REFUSED_PER_IP,
	REFUSED_DRAINING,
	REFUSED_ORIGIN,
	REFUSED_HANDSHAKE,
	REFUSED_COUNT
};

/* What the pre-stage learnt of a plain HTTP connection's first request,
 * handed to lws as the connection's opaque user data. */
enum {
	HTTP_METRICS_PORT = 1,  /* accepted on the --metrics-bind listener */
	HTTP_EXACT_HEALTHZ = 2, /* the first request's path is exactly /healthz */
	HTTP_EXACT_METRICS = 4, /* ...exactly /metrics */
};

struct ip_entry {
	struct ip_entry *next;
	int count; /* accepted, not yet destroyed */
	char ip[48];
};

/* One frame (or the handshake's 101) ready for the wire. */
struct qmsg {
	struct qmsg *next;
	size_t len;
	bool is_close;        /* our close frame */
	bool counted;         /* a message (msgs_out) rather than a control frame */
	unsigned char data[];
};

struct conn {
	net *n;
	struct lws *wsi;       /* NULL until adopted, and once lws destroyed it */
	uint64_t id;
	void *user;
	struct conn *prev, *next;  /* n->conns: every conn lws has not destroyed */
	struct ip_entry *ip;       /* set when accepted */
	char peer[48];
	/* receiving */
	ws_parser parser;
	buf msg;                   /* the text message being received */
	uint64_t last_rx_ms;
	double tokens;
	uint64_t tokens_ms;
	int strikes;
	/* sending: frames go straight to the socket while nothing waits
	 * (net_ws.c); the rest waits here for RAW_WRITEABLE */
	int fd;                    /* the socket, once adopted */
	struct qmsg *q_head, *q_tail;
	size_t q_off;              /* bytes of q_head already written */
	size_t q_bytes;            /* bytes queued and not yet written */
	uint64_t over_since_ms;    /* when the queue went over max_send_queue, or 0 */
	/* state */
	bool opened;      /* on_open delivered */
	bool closed;      /* on_close delivered */
	bool closing;     /* a close began: no more messages in or out */
	bool close_sent;  /* our close frame is on the wire */
	bool peer_closed; /* the peer's close frame arrived */
	bool kill_sent;   /* lws was asked to drop the socket */
	bool lws_closed;  /* LWS_CALLBACK_RAW_CLOSE seen */
	bool rx_paused;
	bool write_failed; /* a write failed: RAW_WRITEABLE drops the socket */
	int close_code;       /* ours, or 0 */
	int peer_close_code;  /* from the peer's close frame (1005: it had none) */
	uint64_t close_deadline_ms; /* a closing conn is dropped at this time */
};

/* lws per-session data, for WebSocket and plain HTTP connections alike. */
struct pss {
	conn *c;
	char *http_reply;  /* LWS_PRE headroom + body, owned */
	size_t http_len;
	bool http_close;   /* close the connection once the reply is out */
	struct static_reply *sr; /* a web client file being sent (http_static.h) */
};

/* An accepted connection whose request head has not arrived whole yet. */
struct pending {
	uv_poll_t poll;
	net *n;
	int fd;
	bool metrics_port;
	int lowat;              /* SO_RCVLOWAT set while part of a head waits */
	netaddr peer;
	uint64_t deadline_ms;
	struct pending *prev, *next;
};

struct net {
	uv_loop_t *loop;
	const laird_config *cfg;
	net_callbacks cb;
	struct lws_context *ctx;
	struct lws_vhost *vh;
	http_static *statics;   /* the browser client's files at / */
	listener *pub;          /* the public port (WebSocket and HTTP) */
	listener *mon;          /* --metrics-bind: /metrics and /healthz only, or NULL */
	netaddr_list trusted;   /* proxies whose X-Forwarded-For is believed */
	int port;
	bool draining, shutting_down, finished;
	uint64_t next_id;

	conn *conns;            /* list of live WebSocket conns */
	size_t n_conns;         /* live, including closing ones */
	size_t n_accepted;      /* opened and not yet destroyed */
	struct pending *pending;
	conn *adopting;         /* the conn lws_adopt_* is called for */
	conn *batch;            /* the conn being read: its frames wait for the read's end */
	bool adopt_seen;        /* ...and its RAW_ADOPT arrived */
	struct ip_entry *ips[IP_BUCKETS];

	uv_timer_t tick, shutdown_timer;
	uint64_t last_tick_ns, shutdown_started_ms, last_full_log_ms;
	unsigned ticks;
	double lag_last_ms, lag_max_cur, lag_max_prev;
	void (*done)(void *ud);
	void *done_ud;

	/* counters for /metrics */
	uint64_t accepted, refused[REFUSED_COUNT], errors[ERR_COUNT];
	uint64_t msgs_in, msgs_out, msgs_queued, bytes_in, bytes_out, http_requests, control_in;
};

/* ---- net.c ---- */

struct ip_entry *net_ip_get(net *n, const char *ip, bool create);
void net_ip_release(net *n, struct ip_entry *e);
/* The network layer's /metrics lines. */
void net_metrics_text(net *n, buf *b);

/* ---- net_ws.c: WebSocket connections ---- */

/* A WebSocket upgrade read by the pre-stage: checked, its head consumed,
 * the socket adopted by lws as a raw socket with a new conn (or refused
 * with an HTTP status). head_bytes: room for the head. */
void net_ws_start(struct pending *pd, const http_head *h, char *head_bytes);
/* lws's raw-socket callbacks for a conn (-1: drop the socket). */
void net_conn_adopt(net *n, struct lws *wsi, struct pss *p);
int net_conn_rx(net *n, conn *c, uint8_t *in, size_t len);
int net_conn_writeable(net *n, conn *c);
void net_conn_destroy(net *n, struct pss *p);
/* Begins closing c with code/reason: no more messages in or out; the close
 * frame goes after the frames already queued (flush) or instead of them. */
void net_conn_close(conn *c, int code, const char *reason, bool flush);
/* Drops the socket now, from a uv timer only (c may be freed meanwhile). */
void net_conn_kill(conn *c);
/* on_close to the app, once (RAW_CLOSE, shutdown). */
void net_conn_deliver_close(conn *c);
void net_conn_queue_free(conn *c);

/* ---- net_http.c: the pre-stage and plain HTTP ---- */

/* A new connection (listener.h): its request head is awaited. */
void net_accept(void *ud, listener *l, int fd, const netaddr *peer);
/* Ends the pre-stage; the descriptor is closed unless keep_fd. */
void net_pending_end(struct pending *pd, bool keep_fd);
/* A short HTTP answer written straight to the socket, then the close. */
void net_pending_reply(struct pending *pd, const char *status, const char *extra);
/* LWS_CALLBACK_HTTP and LWS_CALLBACK_HTTP_WRITEABLE. */
int net_http_request(net *n, struct lws *wsi, struct pss *p, const char *uri, size_t len);
int net_http_writeable(struct lws *wsi, struct pss *p);

#endif
