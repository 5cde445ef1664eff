/* The HTTP layer: libmicrohttpd glue, the route table types, the per-request state, and the
 * one path for replies (errors included).
 *
 * Request lifecycle: MHD calls the access handler once when headers are in (route matching,
 * early 413), then once per body chunk (accumulated up to the configured limit), then a last
 * time; only then the middleware runs (credentials, rate limit, access level, media type, JSON)
 * and the route's handler. A handler answers with one of the bw_reply_* calls, or hands the
 * request to the blocking pool with bw_req_defer and answers from there.
 *
 * The layer serves what it is handed and includes nothing of the application: a context
 * (struct bw_http_ctx: configuration, credentials, the rate limiter, the blocking pool, trusted
 * proxies, hooks), the route table (bw_http_listen, bw_router_init), and an opaque pointer it
 * passes to the handlers (r->ctx) without reading it. */
#ifndef BW_HTTP_HTTP_H
#define BW_HTTP_HTTP_H
#include "auth/auth.h"
#include "auth/policy.h"
#include "auth/ratelimit.h"
#include "common/errors.h"
#include "common/limits.h"

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bw_config;
struct bw_pool;
struct bw_req;
struct MHD_Connection;

/* The methods of RFC 9110 (and PATCH); BW_OTHER is any other token: 501 before routing. TRACE and
 * CONNECT are recognised only to be refused (no route has them: 405 with Allow, or 404). */
enum bw_method { BW_GET, BW_POST, BW_PUT, BW_PATCH, BW_DELETE, BW_HEAD, BW_OPTIONS, BW_TRACE, BW_CONNECT, BW_OTHER };


typedef void (*bw_handler_fn)(struct bw_req *r);
/* A route's own rendering of error replies (a protocol with its own error document, such as
 * TAXII): called by bw_reply_error instead of writing the JSON envelope, with the same arguments
 * (extra stolen); it answers with bw_reply_text and must not call bw_reply_error. */
typedef void (*bw_error_fn)(struct bw_req *r, enum bw_err e, const char *msg, json_t *extra);

#define BW_ROUTE_BODY 1u /* the handler takes a JSON object body (may be required by it) */
#define BW_ROUTE_UNLIMITED 2u /* never rate limited (monitoring) */
#define BW_ROUTE_METRICS 4u   /* open instead of its access level when BULWARK_METRICS_PUBLIC is set */
#define BW_ROUTE_BASIC 8u     /* also reads HTTP Basic credentials, an API key as the password (TAXII
                                 clients send that); a 401 then names Basic too */

struct bw_route {
    enum bw_method method;
    const char *pattern; /* "/api/developer/keys/{id}/rotate" */
    enum bw_access access;
    bw_handler_fn handler;
    unsigned flags;
    bw_error_fn error; /* NULL: the JSON error envelope */
};

/* Called once per answered request where its final status is known: before the response is
 * queued (a synthetic request: once its work is done). Runs on the request's thread, on every
 * request: it must neither block nor take long. */
typedef void (*bw_http_response_fn)(void *arg, const struct bw_req *r, unsigned status);
/* Readiness (GET /readyz, bw_http_readyz): NULL when what the application needs to serve
 * answers, else why not (a literal: the 503's message). */
typedef const char *(*bw_http_ready_fn)(void *arg);

/* What the HTTP layer is handed by the composition root: filled before bw_http_serve (or the
 * first bw_http_synthetic) and read-only after, except `stopping`. Every pointer is borrowed. */
struct bw_http_ctx {
    const struct bw_config *cfg; /* limits, rate budgets, timeouts, threads, the listen address */
    struct bw_auth *auth;        /* resolves credentials */
    struct bw_limiter *rate;     /* the per-hour budget per account / anonymous IP */
    struct bw_pool *blocking;    /* bw_req_defer's pool */
    char trusted[BW_MAX_TRUSTED_PROXIES][64]; /* trusted proxy addresses (exact IPs) */
    int ntrusted;
    const char *backend; /* the storage backend's name: the "listening" line, /readyz */
    struct {
        bw_http_response_fn fn; /* NULL: none */
        void *arg;
    } on_response; /* audit events (src/audit/audit.h bw_audit_register) */
    struct {
        bw_http_ready_fn fn; /* NULL: always ready */
        void *arg;
    } ready;
    void *handler_ctx;    /* given to every handler as r->ctx */
    /* Answers GET and HEAD requests for paths no route has outside /api/ (the web console's
     * files); NULL: those are 404 like any other unknown path. It runs without credentials and
     * outside the rate limit, and must answer. */
    bw_handler_fn fallback;
    atomic_bool stopping; /* set by bw_http_serve on SIGINT/SIGTERM: draining */
};

struct bw_synth_req;

struct bw_req {
    struct MHD_Connection *conn;       /* NULL for a synthetic request (bw_http_synthetic) */
    const struct bw_synth_req *synth;  /* its headers and query, when conn is NULL */
    struct bw_http_ctx *http;          /* what the server was handed */
    void *ctx; /* the handlers' context (http->handler_ctx); never dereferenced by this layer */
    const struct bw_route *route;
    enum bw_method method;
    const char *method_str;
    int nparams;
    struct bw_principal principal;
    int64_t start_us;

    /* body */
    char *body;
    size_t body_len, body_cap;
    bool body_too_large;
    bool close_after;          /* answer with Connection: close (framing that cannot be trusted) */
    enum bw_err bad_err;       /* a framing fault found with the headers (BW_OK: none) */
    const char *bad_header;    /* ... the header at fault */
    const char *bad_why;       /* ... and why (static strings) */
    size_t body_discarded; /* bytes dropped after the limit (chunked bodies) */
    json_t *json; /* the parsed object when the route takes a body; owned */

    /* response */
    unsigned status;
    enum bw_err err; /* the error code answered, for logs */
    char *resp;      /* malloc'ed unless resp_static */
    size_t resp_len;
    bool resp_static;
    const char *content_type; /* NULL: application/json; charset=utf-8 */
    const char *csp;           /* NULL: the API's Content-Security-Policy (nothing may load) */
    const char *cache_control; /* NULL: no-store */
    int nhdrs;
    enum { BW_RS_NEW, BW_RS_SUSPENDED, BW_RS_READY, BW_RS_QUEUED } state;
    bw_handler_fn deferred; /* what runs on the blocking pool */
    bool first_done;        /* the headers-only first call has happened */

    /* Buffers from here on are not zeroed when a request starts (BW_REQ_ZEROED): each is written
     * before it is read (path and ids at the start, params by the router up to nparams, hdrs up
     * to nhdrs), and clearing 3 KiB per request showed in the profile. */
    char path[BW_MAX_PATH + 1];
    char params[BW_MAX_PATH_PARAMS][BW_MAX_PATH_PARAM_LEN + 1];
    char request_id[BW_REQUEST_ID_MAX + 1];
    char ip[64];
    struct {
        const char *name;
        char value[192]; /* a Link header with a cursor fits */
    } hdrs[8];
};
/* The part of a request cleared when it starts. */
#define BW_REQ_ZEROED offsetof(struct bw_req, path)

/* The challenge every 401 carries: the two credential schemes the server reads. */
#define BW_WWW_AUTHENTICATE "Bearer realm=\"bulwark\", ApiKey realm=\"bulwark\", header=\"X-API-Key\""

/* ---- replies: exactly one per request ---- */

/* Serialises and frees body (stolen). */
void bw_reply_json(struct bw_req *r, unsigned status, json_t *body);
/* Bytes that outlive the request (precomputed documents). */
void bw_reply_static(struct bw_req *r, unsigned status, const char *body, size_t len);
/* A non-JSON body (malloc'ed, stolen) with its content type (a string literal). */
void bw_reply_text(struct bw_req *r, unsigned status, const char *content_type, char *body, size_t len);
/* The error envelope; msg NULL = the table's default; extra (stolen, may be NULL) adds members
 * to the error object. */
void bw_reply_error(struct bw_req *r, enum bw_err e, const char *msg, json_t *extra);
/* 500 INTERNAL_ERROR, logged with the request id. */
void bw_reply_internal(struct bw_req *r, const char *what);
/* Adds a response header whose value is a number (name must be a literal). */
void bw_req_header_num(struct bw_req *r, const char *name, long v);
/* Adds a response header (name must be a literal). */
void bw_req_header(struct bw_req *r, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- validation errors: collected, then answered once as 400 VALIDATION_ERROR ---- */
struct bw_verr {
    json_t *errors; /* array of {field, message} */
};
void bw_verr_add(struct bw_verr *v, const char *field, const char *msg);
/* Answers 400 when errors were added (and returns true); frees the list either way. */
bool bw_verr_reply(struct bw_req *r, struct bw_verr *v);

/* Body field helpers: on a problem they add to v and return false. A string member: absent or
 * null is fine unless required, and a required one must not be empty (common/jsoncheck.h words
 * the message). */
bool bw_body_string(struct bw_req *r, struct bw_verr *v, const char *field, bool required,
                    size_t max_chars, const char **out);

/* Query parameter (NULL when absent). */
const char *bw_query(struct bw_req *r, const char *name);
/* Request header, name case-insensitive (NULL when absent). */
const char *bw_req_header_in(const struct bw_req *r, const char *name);
/* `limit`-style integer query parameter: absent -> def; out of min..max or not an integer ->
 * adds a validation error. */
bool bw_query_int(struct bw_req *r, struct bw_verr *v, const char *name, long def, long min,
                  long max, long *out);

/* Runs fn(r) on the blocking pool with the connection suspended; fn must reply. Returns false
 * (after answering 503) when the pool is full. */
bool bw_req_defer(struct bw_req *r, bw_handler_fn fn);
/* The same on a given pool (outbound probes have their own, so a slow target cannot delay logins). */
bool bw_req_defer_on(struct bw_req *r, struct bw_pool *pool, bw_handler_fn fn);

/* ---- the server ---- */

/* Compiles the route table (checks patterns). 0 or -1. */
int bw_router_init(const struct bw_route *routes, size_t n);
/* Matches method+path. Returns the route or NULL; on NULL, *allow gets the methods that exist for
 * the path ("GET, POST") or "" when no route has this path. Captures go to r->params. */
const struct bw_route *bw_router_match(struct bw_req *r, enum bw_method m, const char *path,
                                       char *allow, size_t allow_cap);
/* The position in the table of a route bw_router_match returned (metrics are kept by it). */
size_t bw_router_index(const struct bw_route *route);
enum bw_method bw_method_parse(const char *m);
const char *bw_method_name(enum bw_method m);

/* Native TLS (tls.c): the PEM certificate chain and private key, read at start. Both paths NULL:
 * plain HTTP (0, nothing loaded). Otherwise 0 with both loaded, or -1 after logging why (no TLS in
 * this libmicrohttpd, unreadable file, not PEM). bw_tls_free wipes the key. */
struct bw_tls {
    char *cert;
    char *key;
    size_t key_len;
};
int bw_tls_load(const char *cert_path, const char *key_path, struct bw_tls *out);
void bw_tls_free(struct bw_tls *t);

/* The listening socket, bound before anything else starts (storage, migrations, the bootstrap
 * account, workers): a port in use or a bad address or TLS file stops the start before any side
 * effect, and connections arriving during the rest of the start wait in the backlog. */
struct bw_listener {
    int fd;
    int port; /* the bound one (BULWARK_LISTEN may say 0) */
    bool v6;
    struct bw_tls tls;
};
/* Checks and compiles the route table (routes, borrowed for the life of the process), parses
 * cfg->listen, loads the TLS files and binds. 0, or -1 after logging why. */
int bw_http_listen(const struct bw_config *cfg, const struct bw_route *routes, size_t nroutes,
                   struct bw_listener *out);
/* Closes a listener bw_http_serve did not take (a start that failed in between). */
void bw_http_listener_close(struct bw_listener *l);

/* Runs the server on l until SIGINT/SIGTERM, then drains in-flight requests; takes l over in any
 * case. Returns 0 on a clean stop. The log line {"msg":"listening","port":N} tells the bound port. */
int bw_http_serve(struct bw_http_ctx *h, struct bw_listener *l);

/* GET /readyz, a handler for the route table: 503 while draining (so a balancer stops sending new
 * work), 503 when the readiness hook says why not, else 200 {"status":"ready","database":backend}. */
void bw_http_readyz(struct bw_req *r);

/* The connection guard (guard.c): a deadline for each request to arrive in full, which
 * libmicrohttpd's idle timeout alone does not give (a client trickling bytes restarts it).
 * open/close from MHD's connection notifications (open returns the socket context, freed by
 * close); await when something is expected from the client (after the headers: the body; after a
 * response: the next request); received when the request is complete; sweep from one thread a few
 * times a second shuts down connections past their deadline. */
void bw_guard_init(long timeout_s);
void *bw_guard_open(struct MHD_Connection *conn);
void bw_guard_close(void *guard);
void bw_guard_await(struct MHD_Connection *conn);
void bw_guard_received(struct MHD_Connection *conn);
void bw_guard_sweep(int64_t now_us);
/* Keeps the connection's socket open past libmicrohttpd's close, draining what the client still
 * sends for up to BW_LINGER_MS (the sweep drains and closes it), for a connection answered before
 * its request was read in full. shut_write: the answer is out, shut the write side now (otherwise
 * libmicrohttpd sends its queued answer and shuts it). False when none can be kept (then
 * libmicrohttpd's close is the only one). */
bool bw_guard_linger(struct MHD_Connection *conn, bool shut_write);
unsigned long bw_guard_cut_total(void); /* connections shut down so far */

/* TLS 1.2 and 1.3 only, GnuTLS's NORMAL cipher suites otherwise */
#define BW_TLS_PRIORITIES "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

/* A request without a socket, for fuzzers and tests: bw_http_synthetic runs it through exactly
 * the steps a request from a connection takes once it has arrived in full (routing, body limit,
 * credentials, rate limit, access level, media type, JSON, the handler, work handed to a pool,
 * the response hook, metrics and the access log) and returns the reply. Work on a pool is waited
 * for, so the request is over when it returns. Query values are as libmicrohttpd would hand them
 * over (already decoded); header names match case-insensitively. Everything in the request is
 * borrowed; the reply's body is malloc'ed (NUL-terminated) and the caller frees it. */
struct bw_synth_req {
    const char *method;               /* any token ("GET", "BREW") */
    const char *url;                  /* the path, without the query */
    const char *const (*headers)[2];  /* name, value */
    size_t nheaders;
    const char *const (*query)[2];    /* name, value */
    size_t nquery;
    const char *ip;                   /* the peer address; NULL = none */
    const char *body;
    size_t body_len;
};
struct bw_synth_resp {
    unsigned status;
    char *body;
    size_t len;
    const char *content_type; /* a literal */
    char allow[128];          /* the Allow header, "" when none */
    char request_id[BW_REQUEST_ID_MAX + 1];
};
/* 0, or -1 when out of memory (*out then holds no body). The route table must be initialised
 * (bw_router_init). */
int bw_http_synthetic(struct bw_http_ctx *h, const struct bw_synth_req *in, struct bw_synth_resp *out);

/* Requests being processed now, for /metrics (the counters are in http/metrics.h). */
long bw_http_in_flight(void);

#endif
