/* libmicrohttpd glue and the middleware that runs before every handler. */
#include "common/config.h"
#include "common/ids.h"
#include "common/jsonx.h"
#include "common/log.h"
#include "common/sbuf.h"
#include "common/pool.h"
#include "common/timeutil.h"
#include "common/vec.h"
#include "http/framing.h"
#include "http/http.h"
#include "http/metrics.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sodium.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static atomic_long g_inflight;
static bool g_tls; /* serving TLS natively: responses carry HSTS */

/* Sent with every response, errors included; string literals, so nothing is formatted per request.
 * (libmicrohttpd's own replies to unparsable requests, e.g. 400 for a malformed request line, do
 * not pass through here.) */
enum { SH_CACHE, SH_CSP = 3 }; /* the two a response may replace (bw_req csp, cache_control) */
static const char *const g_security_headers[][2] = {
    {"Cache-Control", "no-store"},
    {"X-Content-Type-Options", "nosniff"},
    {"X-Frame-Options", "DENY"},
    {"Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"},
    {"Referrer-Policy", "no-referrer"},
    {"Cross-Origin-Resource-Policy", "same-origin"},
};

long bw_http_in_flight(void) { return atomic_load(&g_inflight); }

/* The first value of name among a synthetic request's pairs (header names case-insensitively). */
static const char *synth_lookup(const char *const (*kv)[2], size_t n, const char *name, bool nocase)
{
    for (size_t i = 0; i < n; i++)
        if (nocase ? strcasecmp(kv[i][0], name) == 0 : strcmp(kv[i][0], name) == 0)
            return kv[i][1];
    return NULL;
}

const char *bw_query(struct bw_req *r, const char *name)
{
    if (!r->conn)
        return synth_lookup(r->synth->query, r->synth->nquery, name, false);
    return MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name);
}

const char *bw_req_header_in(const struct bw_req *r, const char *name)
{
    if (!r->conn)
        return synth_lookup(r->synth->headers, r->synth->nheaders, name, true);
    return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

/* ---- responses ---------------------------------------------------------------------------------- */

/* The response hook (audit events), where the status is final and the request headers are still
 * readable. */
static void responded(const struct bw_req *r)
{
    const struct bw_http_ctx *h = r->http;
    if (h->on_response.fn)
        h->on_response.fn(h->on_response.arg, r, r->status);
}

static enum MHD_Result queue(struct bw_req *r)
{
    responded(r);
    struct MHD_Response *resp;
    if (r->resp_static)
        resp = MHD_create_response_from_buffer(r->resp_len, r->resp, MHD_RESPMEM_PERSISTENT);
    else
        resp = MHD_create_response_from_buffer_with_free_callback(r->resp_len, r->resp, free);
    if (!resp)
        return MHD_NO;
    r->resp = NULL; /* MHD owns it now */
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
                            r->content_type ? r->content_type : "application/json; charset=utf-8");
    MHD_add_response_header(resp, "x-request-id", r->request_id);
    MHD_add_response_header(resp, "API-Version", "1");
    for (size_t i = 0; i < sizeof g_security_headers / sizeof g_security_headers[0]; i++) {
        const char *v = g_security_headers[i][1];
        if (i == SH_CSP && r->csp)
            v = r->csp;
        else if (i == SH_CACHE && r->cache_control)
            v = r->cache_control;
        MHD_add_response_header(resp, g_security_headers[i][0], v);
    }
    if (g_tls)
        MHD_add_response_header(resp, "Strict-Transport-Security", "max-age=31536000");
    for (int i = 0; i < r->nhdrs; i++)
        MHD_add_response_header(resp, r->hdrs[i].name, r->hdrs[i].value);
    if (r->body_too_large || r->close_after || atomic_load_explicit(&r->http->stopping, memory_order_relaxed))
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    enum MHD_Result ret = MHD_queue_response(r->conn, r->status, resp);
    MHD_destroy_response(resp);
    r->state = BW_RS_QUEUED;
    return ret;
}

/* libmicrohttpd 0.9.75 cannot queue a response while a body is still arriving, so a chunked body
 * found too large mid-way is answered by writing the response to the socket directly (plain HTTP
 * only: under TLS the bytes would need GnuTLS's session). The write side is then shut, and the
 * guard keeps the socket open and drains it (bw_guard_linger) after libmicrohttpd closes its
 * descriptor, so an ordinary client reads the answer instead of a connection reset. True when the
 * answer went out. */
static _Thread_local bool t_quiet_close; /* the next "application reported internal error" is ours */

static bool answer_on_socket(struct bw_req *r)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (g_tls || !ci)
        return false;
    responded(r);
    char date[40];
    time_t now = (time_t)bw_now_s();
    struct tm tm;
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", gmtime_r(&now, &tm));
    struct bw_sb b = {0};
    bw_sb_printf(&b, "HTTP/1.1 %u %s\r\nDate: %s\r\nConnection: close\r\nContent-Type: %s\r\n"
                     "x-request-id: %s\r\nAPI-Version: 1\r\n",
                 r->status, r->status == 413 ? "Content Too Large" : "Bad Request" /* only 413 comes here */, date,
                 r->content_type ? r->content_type : "application/json; charset=utf-8", r->request_id);
    for (size_t i = 0; i < sizeof g_security_headers / sizeof g_security_headers[0]; i++)
        bw_sb_printf(&b, "%s: %s\r\n", g_security_headers[i][0], g_security_headers[i][1]);
    for (int i = 0; i < r->nhdrs; i++)
        bw_sb_printf(&b, "%s: %s\r\n", r->hdrs[i].name, r->hdrs[i].value);
    bw_sb_printf(&b, "Content-Length: %zu\r\n\r\n", r->resp_len);
    bw_sb_putn(&b, r->resp, r->resp_len);
    bool ok = !b.oom;
    /* a few hundred bytes into an idle send buffer: one send, non-blocking, nearly always whole */
    size_t off = 0;
    while (ok && off < b.len) {
        ssize_t n = send(ci->connect_fd, b.p + off, b.len - off, MSG_NOSIGNAL);
        if (n > 0)
            off += (size_t)n;
        else if (n < 0 && errno == EINTR)
            continue;
        else
            ok = false;
    }
    free(b.p);
    if (ok)
        bw_guard_linger(r->conn, true);
    r->state = BW_RS_QUEUED;
    return ok;
}

/* ---- blocking work ---------------------------------------------------------------------------- */

/* A request without a connection (bw_http_synthetic) and what its caller waits on while the
 * request's deferred work runs; r comes first, so a struct bw_req * of one converts back. */
struct synth {
    struct bw_req r;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done;
};

static void suspend(struct bw_req *r)
{
    if (r->conn)
        MHD_suspend_connection(r->conn);
}

/* Deferred work has replied: the connection goes on, or the synthetic request's caller wakes. */
static void resume(struct bw_req *r)
{
    if (r->conn) {
        MHD_resume_connection(r->conn);
        return;
    }
    struct synth *s = (struct synth *)r;
    pthread_mutex_lock(&s->mu);
    s->done = true;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

static void run_deferred(void *arg)
{
    struct bw_req *r = arg;
    r->deferred(r);
    if (r->state != BW_RS_READY)
        bw_reply_internal(r, "deferred handler did not reply");
    resume(r);
}

bool bw_req_defer(struct bw_req *r, bw_handler_fn fn)
{
    return bw_req_defer_on(r, r->http->blocking, fn);
}

bool bw_req_defer_on(struct bw_req *r, struct bw_pool *pool, bw_handler_fn fn)
{
    r->deferred = fn;
    r->state = BW_RS_SUSPENDED;
    /* suspend before queueing the job: the job may finish and resume before we return */
    suspend(r);
    if (bw_pool_submit(pool, run_deferred, r) != 0) {
        bw_reply_error(r, BW_E_UNAVAILABLE, "server busy, try again", NULL);
        bw_req_header(r, "Retry-After", "1");
        resume(r);
        return false;
    }
    return true;
}

/* ---- middleware -------------------------------------------------------------------------------- */

/* An IPv4 address as dotted decimal, as inet_ntop writes it (which goes through sprintf: a
 * measurable part of a small request). */
static void ipv4_text(const struct in_addr *a, char out[16])
{
    const unsigned char *b = (const unsigned char *)&a->s_addr;
    char *p = out;
    for (int i = 0; i < 4; i++) {
        unsigned v = b[i];
        if (v >= 100)
            *p++ = (char)('0' + v / 100);
        if (v >= 10)
            *p++ = (char)('0' + v / 10 % 10);
        *p++ = (char)('0' + v % 10);
        *p++ = i < 3 ? '.' : '\0';
    }
}

/* The peer's address, or behind a trusted proxy the client it forwarded for (xff: every
 * X-Forwarded-For line joined; bw_forwarded_client picks the right-most untrusted hop). */
static void client_ip(struct bw_req *r, const struct bw_framing *f)
{
    const union MHD_ConnectionInfo *ci =
        r->conn ? MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS) : NULL;
    r->ip[0] = '\0';
    if (!r->conn && r->synth->ip)
        snprintf(r->ip, sizeof r->ip, "%s", r->synth->ip);
    if (ci && ci->client_addr) {
        const struct sockaddr *sa = ci->client_addr;
        if (sa->sa_family == AF_INET)
            ipv4_text(&((const struct sockaddr_in *)(const void *)sa)->sin_addr, r->ip);
        else if (sa->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, r->ip, sizeof r->ip);
    }
    const struct bw_http_ctx *h = r->http;
    if (!h->ntrusted || !f->xff_len || f->xff_too_long)
        return;
    bool trusted = false;
    for (int i = 0; i < h->ntrusted; i++)
        if (strcmp(r->ip, h->trusted[i]) == 0)
            trusted = true;
    char client[INET6_ADDRSTRLEN];
    if (trusted && bw_forwarded_client(f->xff, f->xff_len, h->trusted, h->ntrusted, client, sizeof client))
        snprintf(r->ip, sizeof r->ip, "%s", client);
}

static long limit_for(const struct bw_config *cfg, const struct bw_principal *p)
{
    switch (p->kind) {
    case BW_AUTH_ANON:
        return cfg->rate_anon;
    case BW_AUTH_ADMINKEY:
        return 0;
    default:
        return cfg->rate_tier[p->tier];
    }
}

/* Counts the request against the caller's budget; false after answering 429. */
static bool rate_limit(struct bw_req *r)
{
    long limit = limit_for(r->http->cfg, &r->principal);
    if (limit <= 0)
        return true;
    char key[96];
    if (r->principal.kind == BW_AUTH_ANON)
        snprintf(key, sizeof key, "ip:%s", r->ip);
    else
        snprintf(key, sizeof key, "u:%s", r->principal.user_id);
    struct bw_limit_result lr;
    bw_limiter_take(r->http->rate, key, limit, bw_mono_us(), &lr);
    bw_req_header_num(r, "RateLimit-Limit", lr.limit);
    bw_req_header_num(r, "RateLimit-Remaining", lr.remaining);
    bw_req_header_num(r, "RateLimit-Reset", lr.reset_s);
    if (lr.allowed)
        return true;
    bw_http_metrics_rate_limited(r->principal.kind != BW_AUTH_ANON);
    bw_req_header_num(r, "Retry-After", lr.retry_after_s);
    bw_reply_error(r, BW_E_RATE_LIMITED, "rate limit exceeded; retry after the number of seconds in Retry-After",
                   json_pack("{s:i}", "retry_after", (json_int_t)lr.retry_after_s));
    return false;
}

/* Whether the principal may use a route of this access level; false after answering. */
static bool check_access(struct bw_req *r, enum bw_access access)
{
    struct bw_decision d = bw_policy_check(access, &r->principal);
    if (d.err == BW_OK)
        return true;
    bw_http_metrics_denied(&d, &r->principal);
    json_t *extra = NULL;
    if (d.err == BW_E_TIER_REQUIRED)
        extra = json_pack("{s:s,s:s}", "required_tier", bw_tier_name(d.required_tier), "current_tier",
                          bw_tier_name(r->principal.tier));
    bw_reply_error(r, d.err, d.message, extra);
    return false;
}

static bool is_json_type(const char *ct)
{
    if (!ct)
        return false;
    while (*ct == ' ')
        ct++;
    if (strncasecmp(ct, "application/json", 16) != 0)
        return false;
    char c = ct[16];
    return c == '\0' || c == ';' || c == ' ';
}

/* ---- query string: each parameter once, no NUL, a bounded number -------------------------------- */

struct query_scan {
    const char *keys[BW_MAX_QUERY_PARAMS];
    size_t n;
    const char *bad; /* the first offending key */
    const char *why;
};

static bool query_pair(struct query_scan *q, const char *key, size_t key_len, bool value_has_nul)
{
    if (!key)
        return true;
    /* MHD's decoded strings stop at an escaped %00; the sizes tell that something followed */
    if (strlen(key) != key_len || value_has_nul) {
        q->bad = key, q->why = "must not contain NUL bytes (%00)";
        return false;
    }
    for (size_t i = 0; i < q->n; i++)
        if (strcmp(q->keys[i], key) == 0) {
            q->bad = key, q->why = "must be given at most once";
            return false;
        }
    if (q->n == BW_MAX_QUERY_PARAMS) {
        q->bad = "query", q->why = "has more than 32 parameters";
        return false;
    }
    q->keys[q->n++] = key;
    return true;
}

static enum MHD_Result query_iter(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                  const char *value, size_t value_size)
{
    (void)kind;
    bool nul = value && strlen(value) != value_size; /* no value at all ("?flag") is NULL */
    return query_pair(cls, key, key_size, nul) ? MHD_YES : MHD_NO;
}

/* Answers 400 and returns false when the query string is not one a handler can read faithfully. */
static bool query_ok(struct bw_req *r)
{
    struct query_scan q = {.n = 0};
    if (r->conn) {
        MHD_get_connection_values_n(r->conn, MHD_GET_ARGUMENT_KIND, query_iter, &q);
    } else {
        for (size_t i = 0; i < r->synth->nquery && !q.bad; i++)
            query_pair(&q, r->synth->query[i][0], r->synth->query[i][0] ? strlen(r->synth->query[i][0]) : 0, false);
    }
    if (!q.bad)
        return true;
    char field[80];
    snprintf(field, sizeof field, "%.64s", q.bad);
    /* the name is echoed only when it is a plain word (no control bytes, no invalid UTF-8) */
    if (strspn(field, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-[]") != strlen(field))
        snprintf(field, sizeof field, "query");
    struct bw_verr v = {0};
    bw_verr_add(&v, field, q.why);
    bw_verr_reply(r, &v);
    return false;
}

/* Everything between "the request is complete" and the handler. */
static void process(struct bw_req *r)
{
    struct bw_http_ctx *h = r->http;
    if (r->bad_err != BW_OK) { /* RFC 9112 6.3: framing that cannot be trusted is 400, and the connection closes */
        r->close_after = true;
        if (r->bad_err == BW_E_HEADERS_TOO_LARGE) {
            bw_reply_error(r, r->bad_err, r->bad_why, NULL);
            return;
        }
        struct bw_verr v = {0};
        bw_verr_add(&v, r->bad_header, r->bad_why);
        bw_verr_reply(r, &v);
        return;
    }
    if (r->method == BW_OTHER) { /* RFC 9110 9.1: an unrecognised method is 501, whatever the path */
        bw_reply_error(r, BW_E_NOT_IMPLEMENTED,
                       "method not implemented; this server knows GET, HEAD, POST, PUT, PATCH, DELETE, "
                       "OPTIONS, TRACE and CONNECT",
                       NULL);
        return;
    }
    if (!r->route && h->fallback && (r->method == BW_GET || r->method == BW_HEAD) && strncmp(r->path, "/api/", 5) != 0 &&
        strcmp(r->path, "/api") != 0) {
        h->fallback(r);
        if (r->state == BW_RS_NEW)
            bw_reply_internal(r, "fallback did not reply");
        return;
    }
    if (!r->route) {
        char allow[128];
        bw_router_match(NULL, r->method, r->path, allow, sizeof allow);
        if (allow[0]) {
            bw_req_header(r, "Allow", "%s", allow);
            char msg[192];
            snprintf(msg, sizeof msg, "method %s is not allowed here; allowed: %s", r->method_str, allow);
            bw_reply_error(r, BW_E_METHOD_NOT_ALLOWED, msg, NULL);
        } else {
            bw_reply_error(r, BW_E_NOT_FOUND, "no such endpoint", NULL);
        }
        return;
    }
    if (r->body_too_large) {
        char msg[96];
        snprintf(msg, sizeof msg, "request body exceeds %ld bytes", h->cfg->max_body);
        bw_reply_error(r, BW_E_PAYLOAD_TOO_LARGE, msg, NULL);
        return;
    }
    enum bw_access access = r->route->access;
    if ((r->route->flags & BW_ROUTE_METRICS) && h->cfg->metrics_public)
        access = BW_ACCESS_OPEN;
    if (atomic_load_explicit(&h->stopping, memory_order_relaxed) && access != BW_ACCESS_OPEN) {
        bw_req_header(r, "Retry-After", "1");
        bw_reply_error(r, BW_E_UNAVAILABLE, "shutting down", NULL);
        return;
    }
    if (access != BW_ACCESS_OPEN) {
        const char *why = NULL;
        enum bw_auth_fail fail = BW_AUTH_FAIL_INVALID;
        const char *authz = bw_req_header_in(r, MHD_HTTP_HEADER_AUTHORIZATION), *xkey = bw_req_header_in(r, "X-API-Key");
        char basic[BW_MAX_TOKEN_LEN + 1];
        enum bw_err e;
        if ((r->route->flags & BW_ROUTE_BASIC) && !xkey && bw_auth_basic_password(authz, basic, sizeof basic)) {
            /* Basic: the password is the key (admin key included); an empty one is a bad credential */
            e = basic[0] ? bw_auth_resolve(h->auth, NULL, basic, &r->principal, &why, &fail) : BW_E_AUTH_REQUIRED;
            if (!basic[0])
                why = "HTTP Basic credentials must carry an API key as the password";
            sodium_memzero(basic, sizeof basic);
        } else if (!authz && !xkey) {
            /* the web console's cookie counts only together with its X-CSRF-Token header */
            e = bw_auth_console_resolve(h->auth, bw_req_header_in(r, "Cookie"), bw_req_header_in(r, "X-CSRF-Token"),
                                        &r->principal, &why, &fail);
        } else {
            e = bw_auth_resolve(h->auth, authz, xkey, &r->principal, &why, &fail);
        }
        if (e == BW_E_UNAVAILABLE) {
            bw_reply_error(r, BW_E_UNAVAILABLE, BW_MSG_STORAGE_UNAVAILABLE, NULL);
            return;
        }
        if (e != BW_OK) {
            bw_http_metrics_auth_failure(fail);
            bw_reply_error(r, e, why, NULL);
            return;
        }
        if (access != BW_ACCESS_LOGIN && !(r->route->flags & BW_ROUTE_UNLIMITED) && !rate_limit(r))
            return;
        if (!check_access(r, access))
            return;
    }
    if (!query_ok(r))
        return;
    /* a route that takes no body still refuses one it cannot read, rather than ignoring it */
    if ((r->route->flags & BW_ROUTE_BODY) || r->body_len > 0) {
        if (r->body_len > 0) {
            if (!is_json_type(bw_req_header_in(r, MHD_HTTP_HEADER_CONTENT_TYPE))) {
                bw_reply_error(r, BW_E_UNSUPPORTED_MEDIA_TYPE, "request body must be application/json", NULL);
                return;
            }
            const char *why = NULL;
            r->json = bw_json_parse_body(r->body, r->body_len, &why);
            if (!r->json) {
                struct bw_verr v = {0};
                bw_verr_add(&v, "body", why);
                bw_verr_reply(r, &v);
                return;
            }
        }
    }
    r->route->handler(r);
    if (r->state == BW_RS_NEW)
        bw_reply_internal(r, "handler did not reply");
}

/* ---- one request: start, body, end (shared by connections and synthetic requests) ------------- */

/* What the first call knows: method, target, request id, client address, route. r->conn or
 * r->synth is set. */
static void req_start(struct bw_req *r, struct bw_http_ctx *h, const char *url, const char *method,
                      const struct bw_framing *f)
{
    atomic_fetch_add(&g_inflight, 1);
    r->http = h;
    r->ctx = h->handler_ctx;
    r->start_us = bw_mono_us();
    r->method = bw_method_parse(method);
    r->method_str = r->method == BW_OTHER ? "OTHER" : bw_method_name(r->method);
    bw_request_id(bw_req_header_in(r, "x-request-id"), r->request_id);
    size_t ulen = strnlen(url, BW_MAX_PATH + 1);
    if (ulen > BW_MAX_PATH) /* too long for any route (no route is matched below), kept cut short */
        ulen = BW_MAX_PATH;
    memcpy(r->path, url, ulen);
    r->path[ulen] = '\0';
    client_ip(r, f);
    char allow[8];
    r->route = strlen(url) <= BW_MAX_PATH ? bw_router_match(r, r->method, r->path, allow, 0) : NULL;
}

/* Appends a body chunk up to the limit. -1 when the connection should be cut (out of memory, or
 * far too much body past the limit). */
static int req_body(struct bw_req *r, const char *upload, size_t n)
{
    size_t max = (size_t)r->http->cfg->max_body;
    if (r->body_too_large || r->body_len + n > max) {
        /* a chunked body past the limit: over plain HTTP the caller answers at once (on the
         * socket); under TLS the rest is read and dropped (413 at the end), up to 4x the limit,
         * past which the connection is cut */
        r->body_too_large = true;
        r->body_discarded += n;
        return r->body_discarded > 4 * max ? -1 : 0;
    }
    if (!BW_VEC_RESERVE(r->body, r->body_cap, r->body_len + n + 1, max + 1))
        return -1;
    memcpy(r->body + r->body_len, upload, n);
    r->body_len += n;
    r->body[r->body_len] = '\0';
    return 0;
}

/* The access log line's builder: appends that stop (and mark the line full) at the capacity. */
struct logline {
    char *p;
    size_t n, cap;
    bool full;
};

static void put_n(struct logline *l, const char *s, size_t k)
{
    if (l->full || l->n + k > l->cap) {
        l->full = true;
        return;
    }
    memcpy(l->p + l->n, s, k);
    l->n += k;
}

static void put(struct logline *l, const char *s) { put_n(l, s, strlen(s)); }
static void put_c(struct logline *l, char c) { put_n(l, &c, 1); }

static void put_u(struct logline *l, uint64_t v)
{
    char d[20];
    size_t k = sizeof d;
    do
        d[--k] = (char)('0' + v % 10);
    while ((v /= 10) && k);
    put_n(l, d + k, sizeof d - k);
}

/* JSON-escaped, within max bytes of the line (bw_json_escape: U+FFFD for what is not UTF-8). */
static void put_esc(struct logline *l, const char *s, size_t max)
{
    if (l->full)
        return;
    bw_json_escape(l->p, &l->n, max < l->cap ? max : l->cap, s);
}

/* Now as ISO 8601, formatted once a second per thread. */
static const char *now_iso8601(void)
{
    static _Thread_local int64_t sec = -1;
    static _Thread_local char ts[21];
    int64_t now = bw_now_s();
    if (now != sec) {
        bw_iso8601(now, ts);
        sec = now;
    }
    return ts;
}

/* Metrics, the access log line, and the request's memory. */
static void req_end(struct bw_req *r, bool aborted)
{
    uint64_t dur_us = (uint64_t)(bw_mono_us() - r->start_us);
    bw_http_metrics_request(r->route ? bw_router_index(r->route) : BW_HTTP_ROUTE_UNMATCHED, r->method,
                            r->status, dur_us);
    if (bw_log_enabled(BW_LOG_INFO)) {
        /* built by hand, without printf: this runs for every request (a fifth of a small
         * request's time went to snprintf and strftime). The principal is a label that is never
         * a secret (bw_principal_label): a key prefix, an account id, admin_key or anonymous */
        char line[1024], plab[64];
        struct logline l = {line, 0, sizeof line - 2, false};
        put(&l, "{\"ts\":\"");
        put(&l, now_iso8601());
        put(&l, "\",\"level\":\"info\",\"msg\":\"request\",\"request_id\":\"");
        put_esc(&l, r->request_id, sizeof line);
        put(&l, "\",\"method\":\"");
        put(&l, r->method_str);
        put(&l, "\",\"path\":\"");
        put_esc(&l, r->path, sizeof line - 200);
        put(&l, "\",\"route\":\"");
        put_esc(&l, r->route ? r->route->pattern : "unmatched", sizeof line - 180);
        put(&l, "\",\"status\":");
        put_u(&l, r->status);
        put(&l, ",");
        if (r->err) {
            put(&l, "\"error\":\"");
            put(&l, bw_err_code(r->err));
            put(&l, "\",");
        }
        put(&l, "\"duration_ms\":");
        put_u(&l, dur_us / 1000);
        put(&l, ".");
        put_c(&l, (char)('0' + dur_us / 100 % 10));
        put_c(&l, (char)('0' + dur_us / 10 % 10));
        put_c(&l, (char)('0' + dur_us % 10));
        put(&l, ",\"principal\":\"");
        put(&l, bw_principal_label(&r->principal, plab));
        put(&l, "\",");
        if (r->principal.kind == BW_AUTH_APIKEY) { /* its account too */
            put(&l, "\"account\":\"");
            put(&l, r->principal.user_id);
            put(&l, "\",");
        }
        put(&l, "\"ip\":\"");
        put(&l, r->ip);
        put(&l, aborted ? "\",\"aborted\":true}" : "\"}");
        if (!l.full)
            bw_log_raw(BW_LOG_INFO, line, l.n);
    }
    json_decref(r->json);
    free(r->body);
    if (r->resp && !r->resp_static)
        free(r->resp);
    atomic_fetch_sub(&g_inflight, 1);
}

/* ---- MHD callbacks ----------------------------------------------------------------------------- */

/* Each libmicrohttpd thread keeps the last request it finished for the next one: a request is a
 * few KiB, and a malloc/free pair of that size per request showed in the profile (the free path
 * consolidates). A connection's callbacks all run on its thread, so the one spare needs no lock;
 * the key's destructor frees it when the thread ends. */
static pthread_key_t g_spare_key;
static pthread_once_t g_spare_once = PTHREAD_ONCE_INIT;
static void spare_key_init(void) { (void)pthread_key_create(&g_spare_key, free); }

static struct bw_req *req_alloc(void)
{
    pthread_once(&g_spare_once, spare_key_init);
    struct bw_req *r = pthread_getspecific(g_spare_key);
    if (r)
        pthread_setspecific(g_spare_key, NULL);
    else if (!(r = malloc(sizeof *r)))
        return NULL;
    memset(r, 0, BW_REQ_ZEROED);
    return r;
}

static void req_release(struct bw_req *r)
{
    if (!pthread_getspecific(g_spare_key) && pthread_setspecific(g_spare_key, r) == 0)
        return;
    free(r);
}

static enum MHD_Result framing_iter(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    bw_framing_add(cls, key, value);
    return MHD_YES;
}

static enum MHD_Result on_access(void *cls, struct MHD_Connection *conn, const char *url,
                                 const char *method, const char *version, const char *upload,
                                 size_t *upload_size, void **con_cls)
{
    struct bw_http_ctx *h = cls;
    struct bw_req *r = *con_cls;
    if (!r) {
        r = req_alloc();
        if (!r)
            return MHD_NO;
        *con_cls = r;
        r->conn = conn;
        struct bw_framing f; /* every member but the 2 KiB xff buffer, which xff_len guards */
        f.host = f.content_length = f.transfer_encoding = 0;
        f.content_length_value = f.transfer_encoding_value = NULL;
        f.xff_len = f.bytes = 0;
        f.xff[0] = '\0';
        f.xff_too_long = f.bad_name = false;
        MHD_get_connection_values(conn, MHD_HEADER_KIND, framing_iter, &f);
        req_start(r, h, url, method, &f);
        bw_guard_await(conn); /* headers are in; a body, if any, has the timeout to follow */
        r->bad_err = bw_framing_check(&f, strcmp(version, MHD_HTTP_VERSION_1_0) != 0, &r->bad_header, &r->bad_why);
        if (r->bad_err != BW_OK) {
            /* answered before any body is read; Connection: close ends what follows on the socket */
            process(r);
            return queue(r);
        }
        const char *cl = f.content_length ? f.content_length_value : NULL;
        if (cl) {
            char *end;
            unsigned long long n = strtoull(cl, &end, 10);
            if (*end == '\0' && n > (unsigned long long)h->cfg->max_body) {
                /* answer before reading the body; MHD closes the connection afterwards, and the
                 * guard drains what the client still sends so the close resets nothing */
                r->body_too_large = true;
                process(r);
                bw_guard_linger(conn, false);
                return queue(r);
            }
        }
        return MHD_YES;
    }
    if (*upload_size) {
        size_t n = *upload_size;
        *upload_size = 0;
        if (r->state != BW_RS_NEW)
            return MHD_YES;
        if (req_body(r, upload, n) != 0)
            return MHD_NO;
        if (r->body_too_large) {
            /* a chunked body past the limit: answered at once (not after reading the rest), then
             * the connection is closed gracefully; under TLS the rest is read and dropped as far
             * as req_body allows, and the 413 follows the body */
            process(r);
            if (!g_tls) {
                if (!answer_on_socket(r))
                    bw_logf(BW_LOG_INFO, r->request_id, "could not send the 413 before closing");
                t_quiet_close = true;
                return MHD_NO;
            }
            r->state = BW_RS_NEW;
        }
        return MHD_YES;
    }
    if (r->state == BW_RS_NEW) {
        bw_guard_received(conn); /* the request is complete: no deadline while it is handled */
        process(r);
    }
    if (r->state == BW_RS_READY)
        return queue(r);
    return MHD_YES; /* suspended: called again after resume */
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    struct bw_req *r = *con_cls;
    if (!r)
        return;
    *con_cls = NULL;
    bw_guard_await(conn); /* a kept-alive connection's next request has the timeout to arrive */
    req_end(r, toe != MHD_REQUEST_TERMINATED_COMPLETED_OK);
    req_release(r);
}

/* ---- requests without a connection -------------------------------------------------------------- */

int bw_http_synthetic(struct bw_http_ctx *h, const struct bw_synth_req *in, struct bw_synth_resp *out)
{
    memset(out, 0, sizeof *out);
    struct synth *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    struct bw_req *r = &s->r;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    r->synth = in;
    /* no framing of its own (there is no wire), but forwarded addresses are read as from a socket */
    struct bw_framing *f = calloc(1, sizeof *f);
    if (!f) {
        pthread_cond_destroy(&s->cv);
        pthread_mutex_destroy(&s->mu);
        free(s);
        return -1;
    }
    for (size_t i = 0; i < in->nheaders; i++)
        bw_framing_add(f, in->headers[i][0], in->headers[i][1]);
    req_start(r, h, in->url, in->method, f);
    free(f);
    int rc = in->body_len ? req_body(r, in->body, in->body_len) : 0;
    if (rc == 0) {
        process(r);
        if (r->deferred) { /* handed to a pool: wait for its reply */
            pthread_mutex_lock(&s->mu);
            while (!s->done)
                pthread_cond_wait(&s->cv, &s->mu);
            pthread_mutex_unlock(&s->mu);
        }
        responded(r); /* as queue() does */
        out->status = r->status;
        out->content_type = r->content_type ? r->content_type : "application/json; charset=utf-8";
        out->body = malloc(r->resp_len + 1);
        if (out->body) {
            memcpy(out->body, r->resp, r->resp_len);
            out->body[r->resp_len] = '\0';
            out->len = r->resp_len;
        } else {
            rc = -1;
        }
        for (int i = 0; i < r->nhdrs; i++)
            if (strcasecmp(r->hdrs[i].name, "Allow") == 0)
                snprintf(out->allow, sizeof out->allow, "%s", r->hdrs[i].value);
        snprintf(out->request_id, sizeof out->request_id, "%s", r->request_id);
    }
    req_end(r, rc != 0);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
    return rc;
}

/* ---- readiness ----------------------------------------------------------------------------------- */

void bw_http_readyz(struct bw_req *r)
{
    const struct bw_http_ctx *h = r->http;
    /* a draining instance says so, so that a balancer stops sending it new work */
    if (atomic_load_explicit(&h->stopping, memory_order_relaxed)) {
        bw_req_header(r, "Retry-After", "1");
        bw_reply_error(r, BW_E_UNAVAILABLE, "shutting down", NULL);
        return;
    }
    const char *why = h->ready.fn ? h->ready.fn(h->ready.arg) : NULL;
    if (why) {
        bw_reply_error(r, BW_E_UNAVAILABLE, why, NULL);
        return;
    }
    bw_reply_json(r, 200, json_pack("{s:s,s:s}", "status", "ready", "database", h->backend ? h->backend : ""));
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    (void)cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        *socket_context = bw_guard_open(conn);
    } else {
        bw_guard_close(*socket_context);
        *socket_context = NULL;
    }
}

__attribute__((format(printf, 2, 0))) static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r'))
        msg[--n] = '\0';
    if (t_quiet_close) { /* the close that follows an answer written on the socket: expected */
        t_quiet_close = false;
        return;
    }
    bw_log_json(BW_LOG_WARN, NULL, "http", json_pack("{s:s}", "detail", msg));
}

/* ---- the acceptor ------------------------------------------------------------------------------ */

/* One thread accepts and hands each connection to libmicrohttpd (MHD_add_connection), which puts
 * it on the worker its descriptor number names modulo the pool: descriptors come lowest-free, so
 * the connections spread evenly and a closed one's successor lands where it was. When every
 * worker accepted from the shared socket itself, a burst went to whichever woke first (measured:
 * 2 to 24 of 64 connections per worker of 8), and on a busy worker the connections queued behind
 * each other while others idled: the p99 grew with the pool. */
struct acceptor {
    int fd;             /* the listening socket (non-blocking) */
    int stop;           /* eventfd: written to end the thread */
    struct MHD_Daemon *d;
    pthread_t th;
    bool running;
};

static void *accept_main(void *arg)
{
    struct acceptor *a = arg;
    struct pollfd p[2] = {{.fd = a->fd, .events = POLLIN}, {.fd = a->stop, .events = POLLIN}};
    int64_t last_warn = 0;
    for (;;) {
        if (poll(p, 2, -1) < 0) { /* EINTR, or ENOMEM for a moment: never stop accepting */
            if (errno != EINTR) {
                bw_logf(BW_LOG_WARN, NULL, "accept: poll failed: %s", strerror(errno));
                struct timespec ts = {0, BW_ACCEPT_BACKOFF_MS * 1000L * 1000};
                nanosleep(&ts, NULL);
            }
            continue;
        }
        if (p[1].revents)
            break;
        for (int i = 0; i < BW_ACCEPT_BATCH; i++) {
            struct sockaddr_storage ss;
            socklen_t len = sizeof ss;
            int c = accept4(a->fd, (struct sockaddr *)&ss, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (c >= 0) {
                /* refused at a connection limit, MHD closes it and logs why */
                (void)MHD_add_connection(a->d, c, (struct sockaddr *)&ss, len);
                continue;
            }
            if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                /* out of descriptors or memory: the connection stays in the backlog, and a poll
                 * would report it at once again; back off instead of spinning */
                int64_t now = bw_mono_us();
                if (now - last_warn >= 1000000) {
                    bw_logf(BW_LOG_WARN, NULL, "accept failed: %s", strerror(errno));
                    last_warn = now;
                }
                struct timespec ts = {0, BW_ACCEPT_BACKOFF_MS * 1000L * 1000};
                nanosleep(&ts, NULL);
            }
            break;
        }
    }
    return NULL;
}

static int acceptor_start(struct acceptor *a, int fd, struct MHD_Daemon *d)
{
    a->fd = fd;
    a->d = d;
    a->running = false;
    a->stop = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (a->stop < 0)
        return -1;
    if (pthread_create(&a->th, NULL, accept_main, a) != 0) {
        close(a->stop);
        return -1;
    }
    a->running = true;
    return 0;
}

/* Ends the thread; the listening socket stays open (the caller closes it). */
static void acceptor_stop(struct acceptor *a)
{
    if (!a->running)
        return;
    uint64_t one = 1;
    ssize_t n = write(a->stop, &one, sizeof one);
    (void)n; /* an eventfd write fails only on overflow, which one write cannot reach */
    pthread_join(a->th, NULL);
    close(a->stop);
    a->running = false;
}

/* ---- lifecycle ---------------------------------------------------------------------------------- */

static int parse_listen(const char *s, struct sockaddr_storage *ss, bool *v6)
{
    char host[256];
    const char *port;
    if (s[0] == '[') {
        const char *e = strchr(s, ']');
        if (!e || e[1] != ':' || (size_t)(e - s - 1) >= sizeof host)
            return -1;
        memcpy(host, s + 1, (size_t)(e - s - 1));
        host[e - s - 1] = '\0';
        port = e + 2;
    } else {
        const char *c = strrchr(s, ':');
        if (!c || (size_t)(c - s) >= sizeof host)
            return -1;
        memcpy(host, s, (size_t)(c - s));
        host[c - s] = '\0';
        port = c + 1;
    }
    char *end;
    long p = strtol(port, &end, 10);
    if (!*port || *end || p < 0 || p > 65535)
        return -1;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res;
    if (getaddrinfo(host[0] ? host : NULL, port, &hints, &res) != 0)
        return -1;
    memcpy(ss, res->ai_addr, res->ai_addrlen);
    *v6 = res->ai_family == AF_INET6;
    freeaddrinfo(res);
    return 0;
}

int bw_http_listen(const struct bw_config *cfg, const struct bw_route *routes, size_t nroutes,
                   struct bw_listener *out)
{
    memset(out, 0, sizeof *out);
    out->fd = -1;
    if (bw_router_init(routes, nroutes) != 0 || nroutes > BW_METRICS_ROUTES_MAX) {
        bw_logf(BW_LOG_ERROR, NULL, "route table is invalid (or longer than BW_METRICS_ROUTES_MAX)");
        return -1;
    }
    struct sockaddr_storage ss;
    if (parse_listen(cfg->listen, &ss, &out->v6) != 0) {
        bw_logf(BW_LOG_ERROR, NULL, "BULWARK_LISTEN must be HOST:PORT (got '%s')", cfg->listen);
        return -1;
    }
    if (bw_tls_load(cfg->tls_cert, cfg->tls_key, &out->tls) != 0)
        return -1;
    /* SO_REUSEADDR (a restart binds past connections in TIME_WAIT) but never SO_REUSEPORT: a
     * second server on the port must fail, not silently share the connections */
    int one = 1;
    socklen_t len = out->v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        (out->v6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) != 0) ||
        bind(fd, (struct sockaddr *)&ss, len) != 0 || listen(fd, SOMAXCONN) != 0) {
        bw_logf(BW_LOG_ERROR, NULL, "cannot listen on %s: %s", cfg->listen, strerror(errno));
        if (fd >= 0)
            close(fd);
        bw_tls_free(&out->tls);
        return -1;
    }
    struct sockaddr_storage bound;
    socklen_t blen = sizeof bound;
    if (getsockname(fd, (struct sockaddr *)&bound, &blen) == 0)
        out->port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                      : ((struct sockaddr_in *)&bound)->sin_port);
    out->fd = fd;
    return 0;
}

void bw_http_listener_close(struct bw_listener *l)
{
    if (l->fd >= 0)
        close(l->fd);
    l->fd = -1;
    bw_tls_free(&l->tls);
}

int bw_http_serve(struct bw_http_ctx *h, struct bw_listener *l)
{
    const struct bw_config *cfg = h->cfg;
    g_tls = l->tls.cert != NULL;
    bw_guard_init(cfg->conn_timeout_s);
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_TURBO | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ERROR_LOG | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC | (l->v6 ? MHD_USE_IPv6 : 0) | (g_tls ? MHD_USE_TLS : 0);
    struct bw_tls tls = l->tls;
    /* the TLS options go last: without TLS the list ends before them */
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_access, h,
        MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)cfg->threads,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, NULL,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->conn_timeout_s,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)cfg->max_connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)cfg->max_conn_per_ip,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(2 * BW_MAX_HEADER_BYTES),
        /* libmicrohttpd's default level, not its strict one (which in 0.9.75 answers a missing Host
         * with two 400s, docs/operations.md): the RFC 9112 rules a server must apply (Host, one
         * Content-Length, Transfer-Encoding, field names) are bw_framing_check's, in the envelope */
        MHD_OPTION_STRICT_FOR_CLIENT, (int)0,
        g_tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, tls.cert,
        MHD_OPTION_HTTPS_MEM_KEY, tls.key,
        MHD_OPTION_HTTPS_PRIORITIES, BW_TLS_PRIORITIES,
        MHD_OPTION_END);
    if (!d) {
        bw_logf(BW_LOG_ERROR, NULL, "cannot listen on %s%s", cfg->listen,
                g_tls ? " with TLS (is the key the certificate's, both PEM?)" : "");
        bw_http_listener_close(l);
        return -1;
    }
    struct acceptor acc;
    if (acceptor_start(&acc, l->fd, d) != 0) {
        bw_logf(BW_LOG_ERROR, NULL, "cannot start the accepting thread: %s", strerror(errno));
        MHD_stop_daemon(d);
        bw_http_listener_close(l);
        return -1;
    }
    char host[128];
    snprintf(host, sizeof host, "%s", cfg->listen);
    char *colon = strrchr(host, ':');
    if (colon)
        *colon = '\0';
    bw_log_json(BW_LOG_INFO, NULL, "listening",
                json_pack("{s:s,s:i,s:s,s:i,s:s,s:b}", "address", host, "port", l->port,
                          "backend", h->backend, "threads", (int)cfg->threads,
                          "version", BULWARK_VERSION, "tls", g_tls));

    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    int sig = 0;
    while (sig != SIGINT && sig != SIGTERM) { /* between signals: the connection guard's sweep */
        struct timespec tick = {0, BW_SIGNAL_TICK_MS * 1000L * 1000};
        sig = sigtimedwait(&set, NULL, &tick);
        bw_guard_sweep(bw_mono_us());
    }
    bw_log_json(BW_LOG_INFO, NULL, "shutting down",
                json_pack("{s:s,s:i}", "signal", sig == SIGINT ? "SIGINT" : "SIGTERM", "in_flight",
                          (int)atomic_load(&g_inflight)));
    atomic_store(&h->stopping, true);
    /* no new connections (the socket is ours again, closed: a balancer's connect fails at once);
     * open ones finish what they started */
    acceptor_stop(&acc);
    close(l->fd);
    l->fd = -1;
    int64_t deadline = bw_mono_us() + (int64_t)cfg->shutdown_grace_s * 1000000;
    while (atomic_load(&g_inflight) > 0 && bw_mono_us() < deadline) {
        struct timespec ts = {0, BW_DRAIN_POLL_MS * 1000L * 1000};
        nanosleep(&ts, NULL);
    }
    long left = atomic_load(&g_inflight);
    if (left > 0) {
        /* past the grace a request is still running (a suspended connection with work on a pool):
         * libmicrohttpd aborts when stopped with one, and the work would resume a freed
         * connection. The process ends here instead; the kernel closes the sockets. */
        bw_log_json(BW_LOG_WARN, NULL, "stopped", json_pack("{s:i,s:i}", "abandoned", (int)left, "grace_s",
                                                           (int)cfg->shutdown_grace_s));
        bw_log_shutdown();
        _exit(0);
    }
    MHD_stop_daemon(d);
    bw_http_listener_close(l); /* the TLS key, wiped */
    bw_log_json(BW_LOG_INFO, NULL, "stopped", json_pack("{s:i}", "abandoned", (int)left));
    return 0;
}
