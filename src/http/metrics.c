#include "http/metrics.h"

#include "common/metrics.h"

#include <stdatomic.h>
#include <string.h>

#define NMETHODS (BW_OTHER + 1)
/* request series keys: two per route (its own method, and HEAD on a GET route), then one per
 * method for requests that matched no route */
#define NKEYS (2 * BW_METRICS_ROUTES_MAX + NMETHODS)
#define NROUTES (BW_METRICS_ROUTES_MAX + 1) /* histograms: the routes and "unmatched" */

typedef _Atomic uint64_t counter;

struct slot {
    _Alignas(64) counter req[NKEYS][BW_METRICS_NSTATUS];
    counter bucket[NROUTES][BW_METRICS_NBUCKETS + 1]; /* not cumulative: summed at scrape */
    counter dur_us[NROUTES];
    counter rate_limited[2]; /* anonymous, account */
    counter auth_fail[BW_AUTH_FAIL__COUNT];
    counter tier_denied[BW_TIER__COUNT];
    counter forbidden;
};

static struct slot g_slots[BW_METRICS_SLOTS];
static atomic_uint g_next;
static _Thread_local struct slot *t_slot;

static struct slot *my_slot(void)
{
    if (!t_slot)
        t_slot = &g_slots[atomic_fetch_add_explicit(&g_next, 1, memory_order_relaxed) % BW_METRICS_SLOTS];
    return t_slot;
}

static void add(counter *c, uint64_t v) { atomic_fetch_add_explicit(c, v, memory_order_relaxed); }

void bw_http_metrics_request(size_t route, enum bw_method m, unsigned status, uint64_t dur_us)
{
    struct slot *s = my_slot();
    unsigned mi = (unsigned)m < NMETHODS ? (unsigned)m : BW_OTHER;
    size_t key, h;
    if (route < BW_METRICS_ROUTES_MAX) {
        key = 2 * route + (m == BW_HEAD);
        h = route;
    } else {
        key = 2 * BW_METRICS_ROUTES_MAX + mi;
        h = BW_METRICS_ROUTES_MAX;
    }
    add(&s->req[key][bw_metrics_status_index(status)], 1);
    add(&s->bucket[h][bw_metrics_bucket_index(dur_us)], 1);
    add(&s->dur_us[h], dur_us);
}

void bw_http_metrics_rate_limited(bool account) { add(&my_slot()->rate_limited[account], 1); }

void bw_http_metrics_auth_failure(enum bw_auth_fail why)
{
    add(&my_slot()->auth_fail[(unsigned)why < BW_AUTH_FAIL__COUNT ? why : BW_AUTH_FAIL_INVALID], 1);
}

void bw_http_metrics_denied(const struct bw_decision *d, const struct bw_principal *p)
{
    struct slot *s = my_slot();
    if (d->err == BW_E_AUTH_REQUIRED)
        add(&s->auth_fail[p->kind == BW_AUTH_ANON ? BW_AUTH_FAIL_MISSING : BW_AUTH_FAIL_WRONG_KIND], 1);
    else if (d->err == BW_E_TIER_REQUIRED && (unsigned)d->required_tier < BW_TIER__COUNT)
        add(&s->tier_denied[d->required_tier], 1);
    else
        add(&s->forbidden, 1);
}

/* ---- scrape ---- */

/* The sum of one counter over every slot; c names it in the first slot. */
static uint64_t total(const counter *c)
{
    size_t off = (size_t)((const char *)c - (const char *)&g_slots[0]);
    uint64_t t = 0;
    for (int i = 0; i < BW_METRICS_SLOTS; i++)
        t += atomic_load_explicit((const counter *)(const void *)((const char *)&g_slots[i] + off),
                                  memory_order_relaxed);
    return t;
}

#define TOTAL(member) total(&g_slots[0].member)

static void write_requests(FILE *f, const struct bw_route *routes, size_t n)
{
    bw_prom_family(f, "bulwark_http_requests_total", "counter",
                   "Requests answered, by route template (\"unmatched\" when no route matched), method and status.");
    for (size_t key = 0; key < NKEYS; key++) {
        size_t route = key < 2 * BW_METRICS_ROUTES_MAX ? key / 2 : BW_HTTP_ROUTE_UNMATCHED;
        if (route != BW_HTTP_ROUTE_UNMATCHED && route >= n)
            continue;
        const char *pattern = route == BW_HTTP_ROUTE_UNMATCHED ? "unmatched" : routes[route].pattern;
        const char *method = route == BW_HTTP_ROUTE_UNMATCHED ? bw_method_name((enum bw_method)(key - 2 * BW_METRICS_ROUTES_MAX))
                             : key % 2                       ? "HEAD"
                                                             : bw_method_name(routes[route].method);
        for (unsigned st = 0; st < BW_METRICS_NSTATUS; st++) {
            uint64_t v = TOTAL(req[key][st]);
            if (v)
                bw_prom_sample_u(f, "bulwark_http_requests_total",
                                 BW_PROM_L3("route", pattern, "method", method, "status", bw_metrics_status_label(st)), v);
        }
    }
}

/* Whether entry i of the table is the first with its pattern (GET and POST of one path are two
 * entries and one histogram). */
static bool first_of_pattern(const struct bw_route *routes, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (strcmp(routes[j].pattern, routes[i].pattern) == 0)
            return false;
    return true;
}

static void write_latency(FILE *f, const struct bw_route *routes, size_t n)
{
    bw_prom_family(f, "bulwark_http_request_duration_seconds", "histogram",
                   "Time from the request's first byte to the end of its answer, by route template.");
    for (size_t route = 0; route < NROUTES; route++) {
        if (route != BW_HTTP_ROUTE_UNMATCHED && (route >= n || !first_of_pattern(routes, route)))
            continue;
        const char *pattern = route == BW_HTTP_ROUTE_UNMATCHED ? "unmatched" : routes[route].pattern;
        uint64_t b[BW_METRICS_NBUCKETS + 1] = {0}, count = 0, dur = 0;
        for (size_t k = route; k < NROUTES; k++) { /* every entry of this pattern */
            if (k != route && (k >= n || strcmp(routes[k].pattern, pattern) != 0))
                continue;
            for (unsigned i = 0; i <= BW_METRICS_NBUCKETS; i++)
                b[i] += TOTAL(bucket[k][i]);
            dur += TOTAL(dur_us[k]);
        }
        for (unsigned i = 0; i <= BW_METRICS_NBUCKETS; i++)
            count += b[i];
        if (!count)
            continue;
        uint64_t cum = 0;
        for (unsigned i = 0; i <= BW_METRICS_NBUCKETS; i++) {
            cum += b[i];
            bw_prom_sample_u(f, "bulwark_http_request_duration_seconds_bucket",
                             BW_PROM_L2("route", pattern, "le", bw_metrics_bucket_le(i)), cum);
        }
        bw_prom_sample_d(f, "bulwark_http_request_duration_seconds_sum", BW_PROM_L1("route", pattern), (double)dur / 1e6);
        bw_prom_sample_u(f, "bulwark_http_request_duration_seconds_count", BW_PROM_L1("route", pattern), cum);
    }
}

void bw_http_metrics_write(FILE *f, const struct bw_route *routes, size_t n)
{
    write_requests(f, routes, n);
    write_latency(f, routes, n);

    bw_prom_family(f, "bulwark_http_rate_limited_total", "counter",
                   "Requests refused with 429 by the per-hour limit, by principal kind (anonymous: per client IP).");
    bw_prom_sample_u(f, "bulwark_http_rate_limited_total", BW_PROM_L1("principal", "anonymous"), TOTAL(rate_limited[0]));
    bw_prom_sample_u(f, "bulwark_http_rate_limited_total", BW_PROM_L1("principal", "account"), TOTAL(rate_limited[1]));

    bw_prom_family(f, "bulwark_http_auth_failures_total", "counter",
                   "Requests refused with 401, by reason: missing (no credential where one is needed), invalid, "
                   "expired (token), revoked (API key), wrong_kind (an API key where a session is needed, the admin "
                   "key where an account is).");
    for (unsigned i = 0; i < BW_AUTH_FAIL__COUNT; i++)
        bw_prom_sample_u(f, "bulwark_http_auth_failures_total", BW_PROM_L1("reason", bw_auth_fail_name((enum bw_auth_fail)i)),
                         TOTAL(auth_fail[i]));

    bw_prom_family(f, "bulwark_http_tier_denials_total", "counter",
                   "Requests refused with 403 TIER_REQUIRED, by the tier the endpoint needs.");
    for (unsigned t = BW_TIER_STARTER; t < BW_TIER__COUNT; t++)
        bw_prom_sample_u(f, "bulwark_http_tier_denials_total", BW_PROM_L1("required_tier", bw_tier_name((enum bw_tier)t)),
                         TOTAL(tier_denied[t]));

    bw_prom_family(f, "bulwark_http_forbidden_total", "counter",
                   "Requests refused with 403 FORBIDDEN (admin-only endpoints called by other accounts).");
    bw_prom_sample_u(f, "bulwark_http_forbidden_total", NULL, TOTAL(forbidden));
}
