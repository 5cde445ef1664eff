/* Outbound HTTP under the SSRF guard (contract in egress.h).
 *
 * One request is a loop over hops: the first URL, then each redirect that is followed. One hop:
 *   1. the URL is read by the shared parser (net/url.h: curl's URL API) and checked (http/https,
 *      a host, no credentials); IP literals, in every spelling, and names the classifier places
 *      (localhost, metadata names) are judged at once;
 *   2. a name is resolved (getaddrinfo on a helper thread, so the time budget holds) and EVERY
 *      address must pass;
 *   3. a fresh easy handle is pinned to one checked address with CURLOPT_CONNECT_TO, so curl does
 *      no resolving of its own, and CURLOPT_OPENSOCKETFUNCTION checks the address curl is about
 *      to connect to once more (if anything ever made curl connect elsewhere, it is still
 *      judged);
 *   4. redirects are never followed by curl: CURLINFO_REDIRECT_URL becomes the next hop, which
 *      goes through 1-3 again.
 * A fresh handle per hop means no connection is ever reused for a destination that was not
 * checked for this hop.
 *
 * Request headers and bodies are passed to curl and nowhere else: never logged, never copied
 * into the response (they may carry credentials). */
#include "net/egress.h"

#include "common/limits.h"
#include "common/vec.h"
#include "net/url.h"

#include <curl/curl.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* The limits of this module (timeouts, response and header caps, redirects, URL and host length)
 * are in common/limits.h. */
_Static_assert(BW_EGRESS_HOST_MAX > BW_URL_HOST_MAX, "a DNS name and its NUL fit the host buffer");

_Static_assert(BW_EGRESS_URL_MAX == sizeof(((struct bw_egress_resp *)0)->final_url), "final_url size");

/* ---- init, counters, names ------------------------------------------------------------------ */

static pthread_once_t eg_once = PTHREAD_ONCE_INIT;
static int eg_init_rc = -1;
static atomic_ulong eg_stats[BW_EG__COUNT];

static void eg_init(void)
{
    eg_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

int bw_egress_global_init(void)
{
    pthread_once(&eg_once, eg_init);
    return eg_init_rc;
}

void bw_egress_stats(unsigned long out[BW_EG__COUNT])
{
    for (int i = 0; i < BW_EG__COUNT; i++)
        out[i] = atomic_load_explicit(&eg_stats[i], memory_order_relaxed);
}

const char *bw_egress_outcome_name(enum bw_egress_outcome o)
{
    static const char *const names[BW_EG__COUNT] = {
        [BW_EG_OK] = "ok",           [BW_EG_BLOCKED] = "blocked", [BW_EG_BAD_URL] = "bad_url",
        [BW_EG_DNS] = "dns",         [BW_EG_CONNECT] = "connect", [BW_EG_TIMEOUT] = "timeout",
        [BW_EG_TLS] = "tls",         [BW_EG_ERROR] = "error",
    };
    return (unsigned)o < BW_EG__COUNT ? names[o] : "unknown";
}

/* ---- small helpers ------------------------------------------------------------------------- */

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

__attribute__((format(printf, 3, 4))) static void say(char *dst, size_t cap, const char *fmt, ...)
{
    if (!dst || !cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    say(dst, cap, "%s", src ? src : "");
}

/* Addresses live in sockaddr_storage and are copied in and out of the typed structs with memcpy
 * (no access through a differently typed pointer). */
static void fmt_ip(const struct sockaddr_storage *ss, char *out, size_t cap)
{
    struct sockaddr_in s4;
    struct sockaddr_in6 s6;
    const char *ok = NULL;
    if (ss->ss_family == AF_INET) {
        memcpy(&s4, ss, sizeof s4);
        ok = inet_ntop(AF_INET, &s4.sin_addr, out, (socklen_t)cap);
    } else if (ss->ss_family == AF_INET6) {
        memcpy(&s6, ss, sizeof s6);
        ok = inet_ntop(AF_INET6, &s6.sin6_addr, out, (socklen_t)cap);
    }
    if (!ok)
        copy_str(out, cap, "?");
}

static void set_port(struct sockaddr_storage *ss, long port)
{
    struct sockaddr_in s4;
    struct sockaddr_in6 s6;
    if (ss->ss_family == AF_INET) {
        memcpy(&s4, ss, sizeof s4);
        s4.sin_port = htons((uint16_t)port);
        memcpy(ss, &s4, sizeof s4);
    } else if (ss->ss_family == AF_INET6) {
        memcpy(&s6, ss, sizeof s6);
        s6.sin6_port = htons((uint16_t)port);
        memcpy(ss, &s6, sizeof s6);
    }
}

/* RFC 9110 token characters (methods, header names). */
static bool is_tchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* ---- URL check ------------------------------------------------------------------------------ */

struct eg_target {
    char url[BW_EGRESS_URL_MAX]; /* normalised, as given to curl */
    char host[BW_EGRESS_HOST_MAX];      /* the name to resolve, or the literal address (no brackets) */
    long port;
    bool https;
    bool literal;
    struct sockaddr_storage addr; /* the literal's address, port set */
};

/* Parses and checks url into *t; BW_EG_OK, BW_EG_BAD_URL, BW_EG_BLOCKED (an IP literal, or a name
 * the classifier places, refused under allow) or BW_EG_ERROR (out of memory), with the reason in
 * why. No network I/O. */
static enum bw_egress_outcome parse_target(const char *url, unsigned allow, struct eg_target *t, char *why,
                                           size_t cap)
{
    enum bw_egress_outcome rc = BW_EG_BAD_URL;
    struct bw_url u;

    memset(t, 0, sizeof *t);
    if (url && strnlen(url, BW_EGRESS_URL_MAX) >= BW_EGRESS_URL_MAX) {
        say(why, cap, "URL longer than %d bytes", BW_EGRESS_URL_MAX - 1);
        return BW_EG_BAD_URL;
    }
    switch (bw_url_parse(&u, url, why, cap)) {
    case BW_URL_OK:
        break;
    case BW_URL_NOMEM:
        rc = BW_EG_ERROR;
        goto out;
    default:
        goto out;
    }
    if (strcmp(u.scheme, "http") && strcmp(u.scheme, "https")) {
        say(why, cap, "scheme %s not allowed (http and https only)", u.scheme);
        goto out;
    }
    t->https = !strcmp(u.scheme, "https");
    /* user:password@ would be sent to the target as Basic credentials (and could end up in
     * logs as part of the URL): credentials belong in headers, so a URL carrying any userinfo,
     * even an empty one, is refused */
    if (u.userinfo) {
        say(why, cap, "credentials in the URL are not allowed");
        goto out;
    }
    t->port = u.port;
    if (!bw_url_get(&u, 0, t->url, sizeof t->url)) {
        say(why, cap, "URL longer than %d bytes", BW_EGRESS_URL_MAX - 1);
        goto out;
    }
    /* a name is resolved as written (a final dot keeps resolver search domains out of it) */
    say(t->host, sizeof t->host, "%s%s", u.host.name, u.host.trailing_dot ? "." : "");
    if (u.host.family == AF_INET6) {
        struct sockaddr_in6 s6;
        memset(&s6, 0, sizeof s6);
        s6.sin6_family = AF_INET6;
        memcpy(&s6.sin6_addr, u.host.addr, 16);
        memcpy(&t->addr, &s6, sizeof s6);
        t->literal = true;
    } else if (u.host.family == AF_INET) {
        struct sockaddr_in s4;
        memset(&s4, 0, sizeof s4);
        s4.sin_family = AF_INET;
        memcpy(&s4.sin_addr, u.host.addr, 4);
        memcpy(&t->addr, &s4, sizeof s4);
        t->literal = true;
    }

    if (t->literal) {
        const char *w = NULL;
        set_port(&t->addr, t->port);
        if (!bw_egress_addr_allowed((const struct sockaddr *)&t->addr, allow, &w)) {
            say(why, cap, "refused: %s %s", w, t->host);
            rc = BW_EG_BLOCKED;
            goto out;
        }
    } else if (!bw_egress_class_allowed(u.host.cls, allow)) {
        /* localhost, *.localhost, metadata names: refused before any lookup, whatever a resolver
         * would answer for them */
        if (allow & BW_EGRESS_NONE)
            say(why, cap, "refused: outbound connections are disabled (BULWARK_EGRESS_ALLOW=none)");
        else
            say(why, cap, "refused: %s %s", u.host.why, t->host);
        rc = BW_EG_BLOCKED;
        goto out;
    }
    rc = BW_EG_OK;
out:
    bw_url_free(&u);
    return rc;
}

enum bw_egress_outcome bw_egress_check_url(const char *url, unsigned allow, char *why, size_t cap)
{
    struct eg_target t;
    if (why && cap)
        why[0] = '\0';
    return parse_target(url, allow, &t, why, cap);
}

/* ---- resolving with a deadline -------------------------------------------------------------- */

/* getaddrinfo has no timeout, so it runs on a detached thread and the caller waits at most its
 * budget. Whoever of the two finishes last frees the job (refs), so a caller that gave up never
 * waits for a slow resolver and the thread never writes into freed memory. */
struct eg_gai {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int refs;
    bool done;
    int rc;
    struct addrinfo *res;
    char host[];
};

static void gai_release(struct eg_gai *j)
{
    pthread_mutex_lock(&j->mu);
    const int left = --j->refs;
    pthread_mutex_unlock(&j->mu);
    if (left)
        return;
    if (j->res)
        freeaddrinfo(j->res);
    pthread_cond_destroy(&j->cv);
    pthread_mutex_destroy(&j->mu);
    free(j);
}

static void gai_run(struct eg_gai *j)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    /* no AI_ADDRCONFIG: it hides 127.0.0.1 for "localhost" on hosts without another IPv4
     * address, and every answer is judged anyway */
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    const int rc = getaddrinfo(j->host, NULL, &hints, &res);
    pthread_mutex_lock(&j->mu);
    j->rc = rc;
    j->res = rc == 0 ? res : NULL;
    j->done = true;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

static void *gai_thread(void *arg)
{
    gai_run(arg);
    gai_release(arg);
    return NULL;
}

/* Resolves host within timeout_ms: BW_EG_OK with *res (the caller frees it), BW_EG_DNS,
 * BW_EG_TIMEOUT or BW_EG_ERROR, with the reason in why. */
static enum bw_egress_outcome eg_resolve(const char *host, long timeout_ms, struct addrinfo **res, char *why,
                                         size_t cap)
{
    const size_t n = strlen(host);
    struct eg_gai *j = calloc(1, sizeof *j + n + 1);
    pthread_condattr_t ca;
    pthread_attr_t ta;
    pthread_t th;

    if (!j) {
        say(why, cap, "out of memory");
        return BW_EG_ERROR;
    }
    memcpy(j->host, host, n + 1);
    pthread_mutex_init(&j->mu, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&j->cv, &ca);
    pthread_condattr_destroy(&ca);
    j->refs = 2;

    pthread_attr_init(&ta);
    pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &ta, gai_thread, j) != 0) {
        j->refs = 1; /* no thread: resolve here, without the deadline */
        gai_run(j);
    }
    pthread_attr_destroy(&ta);

    struct timespec dl;
    clock_gettime(CLOCK_MONOTONIC, &dl);
    dl.tv_sec += timeout_ms / 1000;
    dl.tv_nsec += (timeout_ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
        dl.tv_sec++;
        dl.tv_nsec -= 1000000000L;
    }
    enum bw_egress_outcome oc = BW_EG_TIMEOUT;
    pthread_mutex_lock(&j->mu);
    while (!j->done)
        if (pthread_cond_timedwait(&j->cv, &j->mu, &dl) == ETIMEDOUT)
            break;
    if (j->done) {
        if (j->rc == 0) {
            *res = j->res;
            j->res = NULL;
            oc = BW_EG_OK;
        } else {
            say(why, cap, "%s: %s", host, j->rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(j->rc));
            oc = j->rc == EAI_MEMORY || j->rc == EAI_SYSTEM ? BW_EG_ERROR : BW_EG_DNS;
        }
    } else {
        say(why, cap, "resolving %s timed out", host);
    }
    pthread_mutex_unlock(&j->mu);
    gai_release(j);
    return oc;
}

/* Resolves t->host and judges every address. On BW_EG_OK, cand[0] is the first address in
 * resolver order and cand[1] (when *ncand is 2) the first of the other family, to fall back to
 * when the first cannot be reached (a name with AAAA records on a host without IPv6 routes). */
static enum bw_egress_outcome eg_addresses(const struct eg_target *t, unsigned allow, long timeout_ms,
                                           struct sockaddr_storage cand[2], int *ncand, char *why, size_t cap)
{
    struct addrinfo *res = NULL;
    enum bw_egress_outcome oc;

    *ncand = 0;
    if (allow & BW_EGRESS_NONE) { /* not even a DNS query */
        say(why, cap, "refused: outbound connections are disabled (BULWARK_EGRESS_ALLOW=none)");
        return BW_EG_BLOCKED;
    }
    if (t->literal) {
        cand[0] = t->addr;
        *ncand = 1;
        return BW_EG_OK;
    }
    if ((oc = eg_resolve(t->host, timeout_ms, &res, why, cap)) != BW_EG_OK)
        return oc;
    /* Refuse when ANY address is forbidden, not just skip it: a name that mixes public and
     * internal answers is what DNS rebinding and split-horizon internal names look like; skipping
     * would make the outcome depend on answer order and let a name point part of its traffic
     * inside. The guard would rather refuse a strange but honest name. */
    for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        struct sockaddr_storage ss;
        const char *w = NULL;
        if ((ai->ai_family != AF_INET && ai->ai_family != AF_INET6) || ai->ai_addrlen > sizeof ss)
            continue;
        memset(&ss, 0, sizeof ss);
        memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
        if (!bw_egress_addr_allowed((const struct sockaddr *)&ss, allow, &w)) {
            /* the kind of address, not the address: a caller must not learn this server's DNS view */
            say(why, cap, "refused: %s resolves to a %s", t->host, w);
            freeaddrinfo(res);
            return BW_EG_BLOCKED;
        }
        set_port(&ss, t->port);
        if (*ncand == 0 || (*ncand == 1 && cand[0].ss_family != ss.ss_family))
            cand[(*ncand)++] = ss;
    }
    freeaddrinfo(res);
    if (!*ncand) {
        say(why, cap, "%s: no address", t->host);
        return BW_EG_DNS;
    }
    return BW_EG_OK;
}

/* ---- one attempt: an easy handle pinned to one address ----------------------------------- */

struct eg_xfer {
    unsigned allow;
    char refused[192]; /* the socket guard's reason, "" when it let the connect through */
    char *body;
    size_t body_len, body_cap, body_max;
    bool truncated;
    bool oom;
    char *hdr;
    size_t hdr_len;
    bool hdr_full;
    char tls_version[16];
    /* read back after the transfer, before the handle goes */
    CURLcode cc;
    char err[CURL_ERROR_SIZE];
    long status;
    long verify_result;
    char ip[64];
    char redirect[BW_EGRESS_URL_MAX];
    bool has_redirect;
    bool redirect_too_long;
    char cert_expires[32];
};

static void xfer_free(struct eg_xfer *x)
{
    free(x->body);
    free(x->hdr);
    x->body = x->hdr = NULL;
}

static curl_socket_t on_opensocket(void *clientp, curlsocktype purpose, struct curl_sockaddr *a)
{
    struct eg_xfer *x = clientp;
    struct sockaddr_storage ss;
    const char *w = "unsupported address";

    (void)purpose;
    memset(&ss, 0, sizeof ss);
    /* curl hands a struct sockaddr view of a larger object; addrlen says how much is there */
    if (a->addrlen <= sizeof ss) {
        memcpy(&ss, &a->addr, a->addrlen);
        if (bw_egress_addr_allowed((const struct sockaddr *)&ss, x->allow, &w))
            return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
    }
    say(x->refused, sizeof x->refused, "refused at connect: the address is now a %s", w);
    return CURL_SOCKET_BAD;
}

/* Keeps at most body_max bytes; past that, marks the body truncated and stops the transfer
 * (curl reports a write error, which the caller reads as a complete, cut response). */
static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    struct eg_xfer *x = ud;
    const size_t total = size * n; /* curl: size is always 1 */
    const size_t room = x->body_max - x->body_len;
    const size_t take = total < room ? total : room;

    if (!BW_VEC_RESERVE(x->body, x->body_cap, x->body_len + take + 1, x->body_max + 1)) {
        x->oom = true;
        return 0;
    }
    memcpy(x->body + x->body_len, p, take);
    x->body_len += take;
    x->body[x->body_len] = '\0';
    if (take < total) {
        x->truncated = true;
        return 0;
    }
    return total;
}

/* Keeps the header block of the final response: a status line starts a new block (after 1xx
 * interim responses), whole lines are kept until BW_EGRESS_MAX_HEADER_BLOCK, the rest is dropped
 * without failing the transfer. */
static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
    struct eg_xfer *x = ud;
    const size_t total = size * n;

    if (total >= 5 && !memcmp(p, "HTTP/", 5)) {
        x->hdr_len = 0;
        x->hdr_full = false;
        if (x->hdr)
            x->hdr[0] = '\0';
    }
    if (x->hdr_full || x->hdr_len + total > BW_EGRESS_MAX_HEADER_BLOCK) {
        x->hdr_full = true;
        return total;
    }
    if (!x->hdr && !(x->hdr = malloc(BW_EGRESS_MAX_HEADER_BLOCK + 1))) {
        x->oom = true;
        return 0;
    }
    memcpy(x->hdr + x->hdr_len, p, total);
    x->hdr_len += total;
    x->hdr[x->hdr_len] = '\0';
    return total;
}

/* Reads the negotiated TLS version from curl's informational text ("SSL connection using
 * TLSv1.3 / ..."): without linking OpenSSL there is no other way to ask. Only CURLINFO_TEXT is
 * looked at; request headers and data pass by untouched and are never stored. */
static int on_debug(CURL *h, curl_infotype type, char *data, size_t size, void *ud)
{
    static const char tag[] = "SSL connection using ";
    struct eg_xfer *x = ud;

    (void)h;
    if (type != CURLINFO_TEXT || size <= sizeof tag - 1 || memcmp(data, tag, sizeof tag - 1))
        return 0;
    size_t i = sizeof tag - 1, k = 0;
    while (i < size && k + 1 < sizeof x->tls_version && data[i] != ' ' && data[i] != '/' && data[i] != '\n')
        x->tls_version[k++] = data[i++];
    x->tls_version[k] = '\0';
    return 0;
}

/* "Dec  3 13:19:25 2026 GMT" (OpenSSL's notAfter as curl prints it) -> "2026-12-03T13:19:25Z". */
static void iso_expiry(const char *s, char *out, size_t cap)
{
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    char mon[4] = "";
    int d, hh, mm, ss, y;
    const char *m;

    out[0] = '\0';
    if (sscanf(s, "%3s %d %d:%d:%d %d", mon, &d, &hh, &mm, &ss, &y) != 6 || strlen(mon) != 3 ||
        !(m = strstr(months, mon)) || (m - months) % 3 || d < 1 || d > 31 || hh < 0 || hh > 23 || mm < 0 ||
        mm > 59 || ss < 0 || ss > 60 || y < 1950 || y > 9999)
        return;
    say(out, cap, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, (int)(m - months) / 3 + 1, d, hh, mm, ss);
}

struct eg_call {
    unsigned allow;
    const char *method;
    const char *body; /* NULL: no body */
    size_t body_len;
    struct curl_slist *headers;
    long connect_timeout_ms;
    long long deadline;
    size_t max_response;
};

/* Runs one exchange with t pinned to addr. Everything worth keeping is copied into *x before the
 * handle is cleaned up. */
static void eg_attempt(const struct eg_call *c, const struct eg_target *t, const struct sockaddr_storage *addr,
                       bool verify, struct eg_xfer *x)
{
    char ip[INET6_ADDRSTRLEN], pin[INET6_ADDRSTRLEN + 16];
    struct curl_slist *connect_to = NULL;
    CURL *h = NULL;

    memset(x, 0, sizeof *x);
    x->allow = c->allow;
    x->body_max = c->max_response;
    x->cc = CURLE_OUT_OF_MEMORY;

    const long long left = c->deadline - now_ms();
    if (left <= 0) {
        x->cc = CURLE_OPERATION_TIMEDOUT;
        copy_str(x->err, sizeof x->err, "timed out");
        return;
    }
    fmt_ip(addr, ip, sizeof ip);
    /* "::addr:port": every host and port of this handle connects to the checked address */
    say(pin, sizeof pin, addr->ss_family == AF_INET6 ? "::[%s]:%ld" : "::%s:%ld", ip, t->port);
    if (!(connect_to = curl_slist_append(NULL, pin)) || !(h = curl_easy_init()))
        goto out;

    const long timeout = (long)left;
    const long ctimeout = c->connect_timeout_ms < timeout ? c->connect_timeout_ms : timeout;
    /* the options the guard depends on: if any of them does not take, nothing is sent */
    if (curl_easy_setopt(h, CURLOPT_URL, t->url) || curl_easy_setopt(h, CURLOPT_CONNECT_TO, connect_to) ||
        curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, on_opensocket) ||
        curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, x) ||
        curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https") ||
        curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") ||
        curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L) ||
        curl_easy_setopt(h, CURLOPT_PROXY, "") || curl_easy_setopt(h, CURLOPT_NOPROXY, "*") ||
        curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) || curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout) ||
        curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, ctimeout) ||
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body) || curl_easy_setopt(h, CURLOPT_WRITEDATA, x) ||
        curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header) ||
        curl_easy_setopt(h, CURLOPT_HEADERDATA, x) || curl_easy_setopt(h, CURLOPT_ERRORBUFFER, x->err) ||
        curl_easy_setopt(h, CURLOPT_USERAGENT, "bulwark/" BULWARK_VERSION " (security scan)") ||
        curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, verify ? 1L : 0L) ||
        curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, verify ? 2L : 0L)) {
        copy_str(x->err, sizeof x->err, "libcurl refused an option the guard needs");
        x->cc = CURLE_FAILED_INIT;
        goto out;
    }
    if (c->headers)
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, c->headers);
    if (c->body) {
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)c->body_len);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, c->body);
        if (strcmp(c->method, "POST"))
            curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, c->method);
    } else if (!strcmp(c->method, "HEAD")) {
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (strcmp(c->method, "GET")) {
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, c->method);
    }
    if (t->https) {
        curl_easy_setopt(h, CURLOPT_CERTINFO, 1L);
        curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, on_debug);
        curl_easy_setopt(h, CURLOPT_DEBUGDATA, x);
        curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);
    }

    x->cc = curl_easy_perform(h);
    if (x->oom)
        x->cc = CURLE_OUT_OF_MEMORY;

    char *s = NULL;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &x->status);
    if (curl_easy_getinfo(h, CURLINFO_PRIMARY_IP, &s) == CURLE_OK && s)
        copy_str(x->ip, sizeof x->ip, s);
    s = NULL;
    if (curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &s) == CURLE_OK && s) {
        x->has_redirect = true;
        x->redirect_too_long = strlen(s) >= sizeof x->redirect;
        copy_str(x->redirect, sizeof x->redirect, s);
    }
    if (t->https) {
        struct curl_certinfo *ci = NULL;
        curl_easy_getinfo(h, CURLINFO_SSL_VERIFYRESULT, &x->verify_result);
        if (curl_easy_getinfo(h, CURLINFO_CERTINFO, &ci) == CURLE_OK && ci && ci->num_of_certs > 0)
            for (const struct curl_slist *e = ci->certinfo[0]; e; e = e->next)
                if (!strncmp(e->data, "Expire date:", 12))
                    iso_expiry(e->data + 12, x->cert_expires, sizeof x->cert_expires);
    }
out:
    if (h)
        curl_easy_cleanup(h);
    curl_slist_free_all(connect_to);
}

/* ---- the request ---------------------------------------------------------------------------- */

static bool is_tls_error(CURLcode cc)
{
    switch (cc) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CLIENTCERT:
    case CURLE_USE_SSL_FAILED:
        return true;
    default:
        return false;
    }
}

static enum bw_egress_outcome map_curl(const struct eg_xfer *x)
{
    if (is_tls_error(x->cc))
        return BW_EG_TLS;
    switch (x->cc) {
    case CURLE_OK:
        return BW_EG_OK;
    case CURLE_WRITE_ERROR:
        return x->truncated ? BW_EG_OK : BW_EG_ERROR;
    case CURLE_COULDNT_RESOLVE_HOST:
        return BW_EG_DNS;
    case CURLE_COULDNT_CONNECT:
        return x->refused[0] ? BW_EG_BLOCKED : BW_EG_CONNECT;
    case CURLE_OPERATION_TIMEDOUT:
        return BW_EG_TIMEOUT;
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
        return BW_EG_BAD_URL;
    default:
        return BW_EG_ERROR;
    }
}

/* A readable reason for a failed verification: curl's message without its prefix, or the
 * OpenSSL X509_V_ERR_* code named. */
static void tls_reason(const struct eg_xfer *x, char *out, size_t cap)
{
    static const struct {
        long code;
        const char *text;
    } codes[] = {
        {2, "unable to get issuer certificate"},    {9, "certificate is not yet valid"},
        {10, "certificate has expired"},            {18, "self-signed certificate"},
        {19, "self-signed certificate in certificate chain"},
        {20, "unable to get local issuer certificate"},
        {21, "unable to verify the first certificate"}, {23, "certificate revoked"},
        {62, "hostname mismatch"},
    };
    const char *e = x->err;
    if (!strncmp(e, "SSL certificate problem: ", 25))
        e += 25;
    else if (!strncmp(e, "SSL: ", 5))
        e += 5;
    if (*e) {
        copy_str(out, cap, e);
        return;
    }
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i].code == x->verify_result) {
            copy_str(out, cap, codes[i].text);
            return;
        }
    say(out, cap, x->verify_result ? "certificate verification failed (%ld)" : "certificate verification failed",
        x->verify_result);
}

static bool is_credential_header(const char *h)
{
    static const char *const names[] = {"authorization", "proxy-authorization", "cookie", "host"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const size_t n = strlen(names[i]);
        if (!strncasecmp(h, names[i], n) && (h[n] == ':' || h[n] == ';'))
            return true;
    }
    return false;
}

/* Whether header line h is one of names (case-insensitive). */
static bool named_header(const char *h, const char *const *names)
{
    for (const char *const *p = names; p && *p; p++) {
        const size_t n = strlen(*p);
        if (n && !strncasecmp(h, *p, n) && (h[n] == ':' || h[n] == ';'))
            return true;
    }
    return false;
}

/* Validates the caller's headers and builds curl's list; with strip, the credential-bearing
 * ones are left out (a redirect to another origin must not receive them). */
static enum bw_egress_outcome eg_headers(const char *const *in, bool strip, const char *const *extra,
                                         bool has_body, struct curl_slist **out, char *why, size_t cap)
{
    struct curl_slist *l = NULL, *n;
    size_t count = 0;

    *out = NULL;
    for (const char *const *p = in; p && *p; p++) {
        const char *h = *p, *q = h;
        if (++count > BW_EGRESS_MAX_REQ_HEADERS) {
            say(why, cap, "more than %d request headers", BW_EGRESS_MAX_REQ_HEADERS);
            goto bad;
        }
        while (is_tchar((unsigned char)*q))
            q++;
        /* "Name: value", or curl's "Name;" (send empty): CR or LF anywhere would let a caller
         * write extra headers or a second request */
        if (q == h || (*q != ':' && *q != ';') ||
            strnlen(h, BW_EGRESS_MAX_REQ_HEADER_LEN + 1) > BW_EGRESS_MAX_REQ_HEADER_LEN || strpbrk(h, "\r\n")) {
            say(why, cap, "bad request header #%zu", count);
            goto bad;
        }
        if (strip && (is_credential_header(h) || named_header(h, extra)))
            continue;
        if (!(n = curl_slist_append(l, h)))
            goto oom;
        l = n;
    }
    /* no "Expect: 100-continue" round trip (and its one-second wait) before a body */
    if (has_body) {
        if (!(n = curl_slist_append(l, "Expect:")))
            goto oom;
        l = n;
    }
    *out = l;
    return BW_EG_OK;
oom:
    say(why, cap, "out of memory");
    curl_slist_free_all(l);
    return BW_EG_ERROR;
bad:
    curl_slist_free_all(l);
    return BW_EG_ERROR;
}

static bool valid_method(const char *m)
{
    size_t n = 0;
    for (; m[n]; n++)
        if (!is_tchar((unsigned char)m[n]) || n >= 32)
            return false;
    return n > 0;
}

static bool same_origin(const struct eg_target *a, const struct eg_target *b)
{
    return a->https == b->https && a->port == b->port && !strcasecmp(a->host, b->host);
}

/* Moves what x received into out (replacing an earlier hop's response). */
static void take_response(struct eg_xfer *x, struct bw_egress_resp *out)
{
    free(out->body);
    free(out->headers);
    out->body = x->body ? x->body : calloc(1, 1);
    out->body_len = x->body ? x->body_len : 0;
    out->headers = x->hdr ? x->hdr : calloc(1, 1);
    out->headers_len = x->hdr ? x->hdr_len : 0;
    x->body = x->hdr = NULL;
    out->truncated = x->truncated;
    out->status = x->status;
    copy_str(out->ip, sizeof out->ip, x->ip);
}

static bool is_redirect(long status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

static enum bw_egress_outcome eg_run(unsigned allow, const struct bw_egress_req *rq, struct bw_egress_resp *out)
{
    enum bw_egress_outcome oc;
    struct eg_call c;
    struct eg_target first, t;
    struct eg_xfer *x = NULL;
    char *next = NULL;
    bool stripped = false;
    const char *url;

    memset(&c, 0, sizeof c);
    if (bw_egress_global_init() != 0) {
        copy_str(out->error, sizeof out->error, "libcurl did not initialise");
        return BW_EG_ERROR;
    }
    if (!rq || !rq->url) {
        copy_str(out->error, sizeof out->error, "no URL");
        return BW_EG_BAD_URL;
    }
    c.allow = allow;
    c.method = rq->method ? rq->method : "GET";
    if (!valid_method(c.method)) {
        copy_str(out->error, sizeof out->error, "bad method");
        return BW_EG_ERROR;
    }
    c.body = rq->body;
    c.body_len = rq->body ? rq->body_len : 0;
    if (!strcmp(c.method, "HEAD"))
        c.body = NULL, c.body_len = 0; /* a HEAD request carries no body */
    else if (!c.body && !strcmp(c.method, "POST"))
        c.body = ""; /* an explicit empty body: Content-Length: 0 */
    c.connect_timeout_ms = rq->connect_timeout_ms > 0 ? rq->connect_timeout_ms : BW_EGRESS_CONNECT_TIMEOUT_MS;
    const long timeout = rq->timeout_ms > 0 ? rq->timeout_ms : BW_EGRESS_TIMEOUT_MS;
    c.deadline = now_ms() + timeout;
    c.max_response = rq->max_response ? rq->max_response : BW_EGRESS_MAX_RESPONSE;
    if (c.max_response > BW_EGRESS_MAX_RESPONSE_CEILING)
        c.max_response = BW_EGRESS_MAX_RESPONSE_CEILING;
    const int max_redirects = rq->max_redirects < 0                         ? 0
                              : rq->max_redirects > BW_EGRESS_MAX_REDIRECTS ? BW_EGRESS_MAX_REDIRECTS
                                                                            : rq->max_redirects;
    if ((oc = eg_headers(rq->headers, false, NULL, c.body != NULL, &c.headers, out->error, sizeof out->error)))
        return oc;
    if (!(x = calloc(1, sizeof *x)) || !(next = malloc(BW_EGRESS_URL_MAX))) {
        copy_str(out->error, sizeof out->error, "out of memory");
        oc = BW_EG_ERROR;
        goto out;
    }

    url = rq->url;
    for (int hop = 0;; hop++) {
        oc = parse_target(url, allow, &t, out->error, sizeof out->error);
        /* t.url is set once the URL parsed (and never holds credentials); a refused Location is
         * shown as it came; the caller's own unparsable URL is not echoed (it may hold a password) */
        copy_str(out->final_url, sizeof out->final_url, t.url[0] ? t.url : hop > 0 ? url : "");
        if (oc != BW_EG_OK) {
            if (hop > 0 && oc == BW_EG_BAD_URL) {
                /* a Location the guard will not follow (file:, gopher:, credentials...) */
                char why[sizeof out->error];
                copy_str(why, sizeof why, out->error);
                say(out->error, sizeof out->error, "redirect refused: %s", why);
                oc = BW_EG_BLOCKED;
            }
            goto out;
        }
        if (hop == 0) {
            first = t;
        } else if (!stripped && !same_origin(&first, &t)) {
            /* the caller's credentials were meant for the first origin only */
            curl_slist_free_all(c.headers);
            stripped = true;
            if ((oc = eg_headers(rq->headers, true, rq->credential_headers, c.body != NULL, &c.headers, out->error, sizeof out->error)))
                goto out;
        }

        const long long left = c.deadline - now_ms();
        if (left <= 0) {
            copy_str(out->error, sizeof out->error, "timed out");
            oc = BW_EG_TIMEOUT;
            goto out;
        }
        struct sockaddr_storage cand[2];
        int ncand = 0;
        oc = eg_addresses(&t, allow, (long)(c.connect_timeout_ms < left ? c.connect_timeout_ms : left), cand,
                          &ncand, out->error, sizeof out->error);
        if (oc != BW_EG_OK)
            goto out;

        bool verified = false;
        char tls_err[sizeof out->tls_error] = "";
        for (int i = 0; i < ncand; i++) {
            xfer_free(x);
            eg_attempt(&c, &t, &cand[i], true, x);
            if (t.https && x->cc == CURLE_OK)
                verified = true;
            if (t.https && x->cc == CURLE_PEER_FAILED_VERIFICATION) {
                tls_reason(x, tls_err, sizeof tls_err);
                /* verification runs with the system CA store only when it is on (curl does not
                 * load it otherwise), so a probe that looks past a bad certificate first asks
                 * with verification and, when only the certificate failed, asks again without:
                 * the handshake failed before any HTTP was sent, so nothing is sent twice */
                if (!rq->verify_tls) {
                    xfer_free(x);
                    eg_attempt(&c, &t, &cand[i], false, x);
                }
            }
            if (x->cc == CURLE_COULDNT_CONNECT && !x->refused[0] && i + 1 < ncand)
                continue; /* unreachable: try the other address family */
            break;
        }

        oc = map_curl(x);
        if (x->status > 0 || oc == BW_EG_OK)
            take_response(x, out);
        else if (x->ip[0] && oc != BW_EG_BLOCKED)
            copy_str(out->ip, sizeof out->ip, x->ip); /* connected, then failed */
        /* the TLS fields describe this hop's exchange, also when it failed in the handshake */
        out->tls = t.https;
        out->tls_verify_ok = t.https && verified;
        copy_str(out->tls_error, sizeof out->tls_error, t.https && !verified ? tls_err : "");
        copy_str(out->tls_version, sizeof out->tls_version, x->tls_version);
        copy_str(out->cert_expires, sizeof out->cert_expires, x->cert_expires);
        if (oc != BW_EG_OK) {
            if (oc == BW_EG_BLOCKED)
                copy_str(out->error, sizeof out->error, x->refused);
            else if (x->cc == CURLE_OUT_OF_MEMORY)
                copy_str(out->error, sizeof out->error, "out of memory");
            else
                copy_str(out->error, sizeof out->error, x->err[0] ? x->err : curl_easy_strerror(x->cc));
            goto out;
        }
        if (!is_redirect(x->status) || !x->has_redirect || max_redirects == 0)
            goto out;
        if (hop >= max_redirects) {
            say(out->error, sizeof out->error, "too many redirects (more than %d)", max_redirects);
            oc = BW_EG_ERROR;
            goto out;
        }
        if (x->redirect_too_long) {
            copy_str(out->error, sizeof out->error, "redirect URL too long");
            oc = BW_EG_ERROR;
            goto out;
        }
        /* what browsers (and curl) do: 303 turns anything but HEAD into GET, 301/302 turn POST into
         * GET; 307/308 repeat the request as it was */
        if ((x->status == 303 && strcmp(c.method, "HEAD")) ||
            ((x->status == 301 || x->status == 302) && !strcmp(c.method, "POST"))) {
            c.method = "GET";
            c.body = NULL;
            c.body_len = 0;
        }
        copy_str(next, BW_EGRESS_URL_MAX, x->redirect);
        url = next;
    }
out:
    if (x)
        xfer_free(x);
    free(x);
    free(next);
    curl_slist_free_all(c.headers);
    return oc;
}

int bw_egress_request(unsigned allow, const struct bw_egress_req *rq, struct bw_egress_resp *out)
{
    if (!out)
        return -1;
    memset(out, 0, sizeof *out);
    const long long t0 = now_ms();
    enum bw_egress_outcome oc = eg_run(allow, rq, out);
    out->outcome = oc;
    out->elapsed_ms = (long)(now_ms() - t0);
    if (oc == BW_EG_OK)
        out->error[0] = '\0';
    else if (!out->error[0])
        copy_str(out->error, sizeof out->error, bw_egress_outcome_name(oc));
    atomic_fetch_add_explicit(&eg_stats[oc], 1, memory_order_relaxed);
    return oc == BW_EG_OK ? 0 : -1;
}

void bw_egress_resp_free(struct bw_egress_resp *r)
{
    if (!r)
        return;
    free(r->body);
    free(r->headers);
    r->body = r->headers = NULL;
    r->body_len = r->headers_len = 0;
}

bool bw_egress_header(const struct bw_egress_resp *r, const char *name, char *out, size_t cap)
{
    if (!r || !r->headers || !name || !*name)
        return false;
    const size_t n = strlen(name);
    /* the first line is the status line; each header line ends in CRLF (or LF) */
    for (const char *p = strchr(r->headers, '\n'); p; p = strchr(p, '\n')) {
        p++;
        if (strncasecmp(p, name, n) || p[n] != ':')
            continue;
        const char *v = p + n + 1, *e;
        while (*v == ' ' || *v == '\t')
            v++;
        e = v + strcspn(v, "\r\n");
        while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (out && cap) {
            size_t len = (size_t)(e - v);
            if (len >= cap)
                len = cap - 1;
            memcpy(out, v, len);
            out[len] = '\0';
        }
        return true;
    }
    return false;
}
