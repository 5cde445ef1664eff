/* Audit events and zero-trust anomalies (src/audit/audit.c, src/store/store_audit.c) on SQLite
 * and, when BULWARK_TEST_PG_HOST/BULWARK_TEST_PG_PORT name a PostgreSQL cluster, on a fresh
 * database there: each rule fires at its threshold and not below it, windows slide across minute
 * buckets, scopes see only their accounts (IP-only events only `all`), counts add up across
 * flushes, key use is counted once per key, IP and minute, the in-memory bound drops and counts,
 * retention, the request mapping of bw_audit_record, the background flusher and concurrent
 * recorders. Event times are real (now minus hours), because retention follows the wall clock. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "audit/audit.h"
#include "common/limits.h"
#include "common/log.h"
#include "common/rng.h"
#include "common/timeutil.h"
#include "http/http.h"
#include "store/db.h"
#include "store/store.h"
#include "db_fixture.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct db_fixture g_fx;

#define MIN_MS 60000LL
#define HOUR_MS (60 * MIN_MS)

static int64_t g_now; /* "now" of a test: the wall clock at its start */
static int64_t g_base; /* a minute boundary three hours before it */

static struct bw_audit *begin(struct db_fixture *fx)
{
    struct db_conn *c = db_acquire(fx->db);
    assert_non_null(c);
    assert_int_equal(db_exec(c, "DELETE FROM audit_counts", NULL, 0, NULL), DB_OK);
    db_release(c);
    g_now = bw_now_us() / 1000;
    g_base = g_now - g_now % MIN_MS - 3 * HOUR_MS;
    struct bw_audit *a = bw_audit_start(fx->db);
    assert_non_null(a);
    return a;
}

/* n events at time t */
static void rec(struct bw_audit *a, enum bw_audit_kind k, const char *who, enum bw_audit_ptype pt, const char *acc,
                const char *detail, int64_t t, int n)
{
    for (int i = 0; i < n; i++)
        assert_true(bw_audit_record_event(a, k, who, pt, acc, detail, t));
}

static int64_t query_int(struct db *db, const char *sql, const struct db_param *p, int np)
{
    struct db_conn *c = db_acquire(db);
    assert_non_null(c);
    struct db_rows *r = NULL;
    assert_int_equal(db_query(c, sql, p, np, &r), DB_OK);
    int64_t v = db_rows_next(r) ? db_rows_int(r, 0) : -1;
    db_rows_free(r);
    db_release(c);
    return v;
}

static int64_t rows_total(struct db *db) { return query_int(db, "SELECT COUNT(*) FROM audit_counts", NULL, 0); }

static json_t *anomalies(struct db *db, const struct bw_audit_scope *s)
{
    json_t *out = NULL;
    assert_int_equal(bw_audit_anomalies(db, s, g_now, &out), 0);
    assert_true(json_is_array(out));
    return out;
}

static const struct bw_audit_scope ALL = {.all = true};

/* The anomaly of type for principal, or NULL. */
static json_t *find(json_t *arr, const char *type, const char *principal)
{
    size_t i;
    json_t *it;
    json_array_foreach(arr, i, it)
    {
        if (strcmp(json_string_value(json_object_get(it, "type")), type) == 0 &&
            strcmp(json_string_value(json_object_get(it, "principal")), principal) == 0)
            return it;
    }
    return NULL;
}

static int64_t jint(json_t *o, const char *k) { return (int64_t)json_integer_value(json_object_get(o, k)); }
static const char *jstr(json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

/* ---- the rules ---- */

static void test_auth_failure_threshold_and_upsert(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    int64_t t = g_base + 10 * MIN_MS;
    /* nine failures in one minute, written in two flushes: one row, counts added, below the rule */
    rec(a, BW_AUDIT_AUTH_FAILURE, "203.0.113.9", BW_AUDIT_P_IP, NULL, "POST /api/auth/login", t + 5000, 5);
    bw_audit_flush(a);
    rec(a, BW_AUDIT_AUTH_FAILURE, "203.0.113.9", BW_AUDIT_P_IP, NULL, "svc_AbCdEfGh", t + 1000, 2);
    rec(a, BW_AUDIT_AUTH_FAILURE, "203.0.113.9", BW_AUDIT_P_IP, NULL, "svc_AbCdEfGh", t + 40000, 2);
    bw_audit_flush(a);
    assert_int_equal(rows_total(fx->db), 1);
    struct db_param p[] = {DBP_TEXT("auth_failure"), DBP_TEXT("203.0.113.9")};
    assert_int_equal(query_int(fx->db, "SELECT n FROM audit_counts WHERE kind = ? AND principal = ?", p, 2), 9);
    assert_int_equal(query_int(fx->db, "SELECT first_ms FROM audit_counts WHERE kind = ? AND principal = ?", p, 2),
                     t + 1000);
    assert_int_equal(query_int(fx->db, "SELECT last_ms FROM audit_counts WHERE kind = ? AND principal = ?", p, 2),
                     t + 40000);
    assert_int_equal(query_int(fx->db, "SELECT bucket_ms FROM audit_counts WHERE kind = ? AND principal = ?", p, 2),
                     t);
    json_t *arr = anomalies(fx->db, &ALL);
    assert_int_equal(json_array_size(arr), 0);
    json_decref(arr);

    /* the tenth, four minutes later: inside one 5-minute window */
    rec(a, BW_AUDIT_AUTH_FAILURE, "203.0.113.9", BW_AUDIT_P_IP, NULL, "svc_AbCdEfGh", t + 4 * MIN_MS + 59000, 1);
    bw_audit_flush(a);
    arr = anomalies(fx->db, &ALL);
    assert_int_equal(json_array_size(arr), 1);
    json_t *x = find(arr, "AUTH_FAILURE_BURST", "203.0.113.9");
    assert_non_null(x);
    assert_int_equal(jint(x, "count"), 10);
    assert_int_equal(jint(x, "window_s"), 300);
    assert_string_equal(jstr(x, "severity"), "MEDIUM");
    assert_string_equal(jstr(x, "principal_type"), "ip");
    assert_true(json_is_null(json_object_get(x, "account_id")));
    char fs[21], ls[21];
    bw_iso8601((t + 1000) / 1000, fs);
    bw_iso8601((t + 4 * MIN_MS + 59000) / 1000, ls);
    assert_string_equal(jstr(x, "first_seen"), fs);
    assert_string_equal(jstr(x, "last_seen"), ls);
    assert_non_null(strstr(jstr(x, "detail"), "svc_AbCdEfGh"));
    json_decref(arr);

    /* 50 in a window: one severity up */
    rec(a, BW_AUDIT_AUTH_FAILURE, "203.0.113.9", BW_AUDIT_P_IP, NULL, NULL, t + 2 * MIN_MS, 40);
    bw_audit_flush(a);
    arr = anomalies(fx->db, &ALL);
    x = find(arr, "AUTH_FAILURE_BURST", "203.0.113.9");
    assert_int_equal(jint(x, "count"), 50);
    assert_string_equal(jstr(x, "severity"), "HIGH");
    json_decref(arr);
    bw_audit_stop(a);
}

static void test_sliding_windows(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    int64_t m = g_base + 30 * MIN_MS;
    /* across a bucket boundary: 5 at the end of one minute, 5 at the start of the next */
    rec(a, BW_AUDIT_AUTH_FAILURE, "198.51.100.1", BW_AUDIT_P_IP, NULL, NULL, m + 4 * MIN_MS + 59999, 5);
    rec(a, BW_AUDIT_AUTH_FAILURE, "198.51.100.1", BW_AUDIT_P_IP, NULL, NULL, m + 5 * MIN_MS, 5);
    /* first and fifth bucket: one window */
    rec(a, BW_AUDIT_AUTH_FAILURE, "198.51.100.2", BW_AUDIT_P_IP, NULL, NULL, m, 5);
    rec(a, BW_AUDIT_AUTH_FAILURE, "198.51.100.2", BW_AUDIT_P_IP, NULL, NULL, m + 4 * MIN_MS, 5);
    /* first and sixth bucket: never in one window */
    rec(a, BW_AUDIT_AUTH_FAILURE, "198.51.100.3", BW_AUDIT_P_IP, NULL, NULL, m, 5);
    rec(a, BW_AUDIT_AUTH_FAILURE, "198.51.100.3", BW_AUDIT_P_IP, NULL, NULL, m + 5 * MIN_MS, 5);
    /* three groups four minutes apart: the worst window holds two of them, never all three */
    for (int i = 0; i < 3; i++)
        rec(a, BW_AUDIT_AUTH_FAILURE, "198.51.100.4", BW_AUDIT_P_IP, NULL, NULL, m + 4 * i * MIN_MS, 5);
    /* the same rule for 429s */
    rec(a, BW_AUDIT_RATE_LIMITED, "198.51.100.5", BW_AUDIT_P_IP, NULL, NULL, m, 6);
    rec(a, BW_AUDIT_RATE_LIMITED, "198.51.100.5", BW_AUDIT_P_IP, NULL, NULL, m + 5 * MIN_MS, 6);
    /* older than the 24 hours: not looked at */
    rec(a, BW_AUDIT_AUTH_FAILURE, "198.51.100.6", BW_AUDIT_P_IP, NULL, NULL, g_now - 25 * HOUR_MS, 30);
    bw_audit_flush(a);
    json_t *arr = anomalies(fx->db, &ALL);
    assert_int_equal(jint(find(arr, "AUTH_FAILURE_BURST", "198.51.100.1"), "count"), 10);
    assert_int_equal(jint(find(arr, "AUTH_FAILURE_BURST", "198.51.100.2"), "count"), 10);
    assert_null(find(arr, "AUTH_FAILURE_BURST", "198.51.100.3"));
    assert_int_equal(jint(find(arr, "AUTH_FAILURE_BURST", "198.51.100.4"), "count"), 10);
    assert_null(find(arr, "RATE_LIMIT_BURST", "198.51.100.5"));
    assert_null(find(arr, "AUTH_FAILURE_BURST", "198.51.100.6"));
    assert_int_equal(json_array_size(arr), 3);
    json_decref(arr);
    bw_audit_stop(a);
}

static void test_rate_limit_burst(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    int64_t m = g_base + 60 * MIN_MS;
    rec(a, BW_AUDIT_RATE_LIMITED, "svc_RateKey1", BW_AUDIT_P_API_KEY, "usr_rate", "POST /api/x", m, 9);
    bw_audit_flush(a);
    json_t *arr = anomalies(fx->db, &ALL);
    assert_int_equal(json_array_size(arr), 0);
    json_decref(arr);
    rec(a, BW_AUDIT_RATE_LIMITED, "svc_RateKey1", BW_AUDIT_P_API_KEY, "usr_rate", "POST /api/x", m + 3 * MIN_MS, 1);
    bw_audit_flush(a);
    arr = anomalies(fx->db, &ALL);
    json_t *x = find(arr, "RATE_LIMIT_BURST", "svc_RateKey1");
    assert_non_null(x);
    assert_int_equal(jint(x, "count"), 10);
    assert_string_equal(jstr(x, "severity"), "LOW");
    assert_string_equal(jstr(x, "principal_type"), "api_key");
    assert_string_equal(jstr(x, "account_id"), "usr_rate");
    json_decref(arr);
    rec(a, BW_AUDIT_RATE_LIMITED, "svc_RateKey1", BW_AUDIT_P_API_KEY, "usr_rate", NULL, m + 3 * MIN_MS, 40);
    bw_audit_flush(a);
    arr = anomalies(fx->db, &ALL);
    assert_string_equal(jstr(find(arr, "RATE_LIMIT_BURST", "svc_RateKey1"), "severity"), "MEDIUM");
    json_decref(arr);
    bw_audit_stop(a);
}

static void test_key_multi_ip(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    int64_t m = g_base;
    char ip[32];
    /* four addresses within an hour, each many times: below the rule */
    for (int i = 0; i < 4; i++) {
        snprintf(ip, sizeof ip, "192.0.2.%d", i + 1);
        rec(a, BW_AUDIT_KEY_USE, "svc_MultiIp1", BW_AUDIT_P_API_KEY, "usr_keys", ip, m + i * 10 * MIN_MS, 20);
    }
    bw_audit_flush(a);
    json_t *arr = anomalies(fx->db, &ALL);
    assert_int_equal(json_array_size(arr), 0);
    json_decref(arr);
    /* one row per (key, IP, minute) */
    struct db_param p[] = {DBP_TEXT("key_use"), DBP_TEXT("svc_MultiIp1")};
    assert_int_equal(query_int(fx->db, "SELECT COUNT(*) FROM audit_counts WHERE kind = ? AND principal = ?", p, 2), 4);
    /* a fifth, 59 minutes after the first: 60 buckets hold all five */
    rec(a, BW_AUDIT_KEY_USE, "svc_MultiIp1", BW_AUDIT_P_API_KEY, "usr_keys", "192.0.2.99", m + 59 * MIN_MS, 1);
    /* another key: five addresses, but 20 minutes apart: at most three in any hour */
    for (int i = 0; i < 5; i++) {
        snprintf(ip, sizeof ip, "192.0.2.%d", 100 + i);
        rec(a, BW_AUDIT_KEY_USE, "svc_Spread01", BW_AUDIT_P_API_KEY, "usr_keys", ip, m + i * 20 * MIN_MS, 1);
    }
    bw_audit_flush(a);
    arr = anomalies(fx->db, &ALL);
    json_t *x = find(arr, "KEY_MULTI_IP", "svc_MultiIp1");
    assert_non_null(x);
    assert_int_equal(jint(x, "count"), 5);
    assert_int_equal(jint(x, "window_s"), 3600);
    assert_string_equal(jstr(x, "severity"), "HIGH");
    assert_string_equal(jstr(x, "account_id"), "usr_keys");
    assert_string_equal(jstr(x, "principal_type"), "api_key");
    assert_null(find(arr, "KEY_MULTI_IP", "svc_Spread01"));
    assert_int_equal(json_array_size(arr), 1);
    json_decref(arr);

    /* once per (key, IP, minute), also across flushes: in the current minute the entry stays in
     * memory after its flush to remember the use (past minutes are deduplicated within a flush) */
    int64_t now = bw_now_us() / 1000;
    rec(a, BW_AUDIT_KEY_USE, "svc_NowKey01", BW_AUDIT_P_API_KEY, "usr_keys", "192.0.2.200", now, 3);
    bw_audit_flush(a);
    rec(a, BW_AUDIT_KEY_USE, "svc_NowKey01", BW_AUDIT_P_API_KEY, "usr_keys", "192.0.2.200", now, 3);
    bw_audit_flush(a);
    struct db_param q[] = {DBP_TEXT("key_use"), DBP_TEXT("svc_NowKey01")};
    assert_int_equal(query_int(fx->db, "SELECT SUM(n) FROM audit_counts WHERE kind = ? AND principal = ?", q, 2), 1);
    bw_audit_stop(a);
}

static void test_privileged_probe(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    int64_t m = g_base + 5 * MIN_MS;
    const char *route = "GET /api/orchestrator/god-mode/aspm";
    rec(a, BW_AUDIT_PRIVILEGED_DENIED, "usr_prober", BW_AUDIT_P_ACCOUNT, "usr_prober", route, m, 1);
    rec(a, BW_AUDIT_PRIVILEGED_DENIED, "usr_prober", BW_AUDIT_P_ACCOUNT, "usr_prober", route, m + 30 * MIN_MS, 1);
    /* three, but the first and last 60 buckets apart */
    rec(a, BW_AUDIT_PRIVILEGED_DENIED, "usr_slow", BW_AUDIT_P_ACCOUNT, "usr_slow", route, m, 1);
    rec(a, BW_AUDIT_PRIVILEGED_DENIED, "usr_slow", BW_AUDIT_P_ACCOUNT, "usr_slow", route, m + 30 * MIN_MS, 1);
    rec(a, BW_AUDIT_PRIVILEGED_DENIED, "usr_slow", BW_AUDIT_P_ACCOUNT, "usr_slow", route, m + 60 * MIN_MS, 1);
    bw_audit_flush(a);
    json_t *arr = anomalies(fx->db, &ALL);
    assert_int_equal(json_array_size(arr), 0);
    json_decref(arr);
    rec(a, BW_AUDIT_PRIVILEGED_DENIED, "usr_prober", BW_AUDIT_P_ACCOUNT, "usr_prober", route, m + 59 * MIN_MS, 1);
    bw_audit_flush(a);
    arr = anomalies(fx->db, &ALL);
    json_t *x = find(arr, "PRIVILEGED_ROUTE_PROBE", "usr_prober");
    assert_non_null(x);
    assert_int_equal(jint(x, "count"), 3);
    assert_string_equal(jstr(x, "severity"), "HIGH");
    assert_string_equal(jstr(x, "principal_type"), "account");
    assert_string_equal(jstr(x, "account_id"), "usr_prober");
    assert_non_null(strstr(jstr(x, "detail"), route));
    assert_null(find(arr, "PRIVILEGED_ROUTE_PROBE", "usr_slow"));
    json_decref(arr);
    bw_audit_stop(a);
}

/* ---- scope and order ---- */

static void test_scope_and_order(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    int64_t m = g_base + 90 * MIN_MS;
    /* A: a key hitting its rate limit (LOW); B: a session probing privileged routes (HIGH), later
     * than C's; C: another account's probe; an address failing to authenticate (MEDIUM) */
    rec(a, BW_AUDIT_RATE_LIMITED, "svc_AcctA001", BW_AUDIT_P_API_KEY, "usr_A", NULL, m, 12);
    rec(a, BW_AUDIT_PRIVILEGED_DENIED, "usr_B", BW_AUDIT_P_ACCOUNT, "usr_B", NULL, m + 20 * MIN_MS, 3);
    rec(a, BW_AUDIT_PRIVILEGED_DENIED, "usr_C", BW_AUDIT_P_ACCOUNT, "usr_C", NULL, m + 10 * MIN_MS, 3);
    rec(a, BW_AUDIT_AUTH_FAILURE, "203.0.113.50", BW_AUDIT_P_IP, NULL, NULL, m, 10);
    /* an anonymous caller rate limited by address: no account, visible to `all` only */
    rec(a, BW_AUDIT_RATE_LIMITED, "203.0.113.51", BW_AUDIT_P_IP, NULL, NULL, m, 10);
    bw_audit_flush(a);

    json_t *arr = anomalies(fx->db, &ALL);
    assert_int_equal(json_array_size(arr), 5);
    /* severity first, then the latest last_seen */
    assert_string_equal(jstr(json_array_get(arr, 0), "principal"), "usr_B");
    assert_string_equal(jstr(json_array_get(arr, 1), "principal"), "usr_C");
    assert_string_equal(jstr(json_array_get(arr, 2), "type"), "AUTH_FAILURE_BURST");
    assert_string_equal(jstr(json_array_get(arr, 3), "severity"), "LOW");
    assert_string_equal(jstr(json_array_get(arr, 4), "severity"), "LOW");
    json_decref(arr);

    const char *only_a[] = {"usr_A"};
    struct bw_audit_scope sa = {.accounts = only_a, .naccounts = 1};
    arr = anomalies(fx->db, &sa);
    assert_int_equal(json_array_size(arr), 1);
    assert_string_equal(jstr(json_array_get(arr, 0), "principal"), "svc_AcctA001");
    assert_string_equal(jstr(json_array_get(arr, 0), "account_id"), "usr_A");
    json_decref(arr);

    const char *b_and_a[] = {"usr_B", "usr_A", "usr_B", "usr_nobody"};
    struct bw_audit_scope sb = {.accounts = b_and_a, .naccounts = 4};
    arr = anomalies(fx->db, &sb);
    assert_int_equal(json_array_size(arr), 2); /* usr_B listed twice is reported once */
    assert_string_equal(jstr(json_array_get(arr, 0), "principal"), "usr_B");
    assert_string_equal(jstr(json_array_get(arr, 1), "principal"), "svc_AcctA001");
    assert_null(find(arr, "PRIVILEGED_ROUTE_PROBE", "usr_C"));
    json_decref(arr);

    struct bw_audit_scope none = {0};
    arr = anomalies(fx->db, &none);
    assert_int_equal(json_array_size(arr), 0);
    json_decref(arr);
    bw_audit_stop(a);
}

/* ---- recording from a request ---- */

static void noop_handler(struct bw_req *r) { (void)r; }
static const struct bw_route R_PRIV = {BW_GET, "/api/orchestrator/god-mode/aspm", BW_ACCESS_PRIVILEGED, noop_handler, 0, NULL};
static const struct bw_route R_PRO = {BW_POST, "/api/assets", BW_ACCESS_PRO, noop_handler, BW_ROUTE_BODY, NULL};

static void request(struct bw_req *r, const struct bw_route *route, const char *ip, enum bw_auth_kind kind,
                    const char *user, const char *prefix)
{
    memset(r, 0, sizeof *r);
    r->route = route;
    r->method = route->method;
    r->method_str = bw_method_name(route->method);
    snprintf(r->ip, sizeof r->ip, "%s", ip);
    r->principal.kind = kind;
    r->principal.tier = BW_TIER_FREE;
    snprintf(r->principal.user_id, sizeof r->principal.user_id, "%s", user ? user : "");
    snprintf(r->principal.key_prefix, sizeof r->principal.key_prefix, "%s", prefix ? prefix : "");
}

/* The row of (kind, principal): n, and its principal_type, account_id, sub and detail into the
 * given buffers (64 bytes each). -1 when there is none. */
static int64_t row_of(struct db *db, const char *kind, const char *principal, char *ptype, char *acc, char *sub,
                      char *detail)
{
    struct db_conn *c = db_acquire(db);
    struct db_param p[] = {DBP_TEXT(kind), DBP_TEXT(principal)};
    struct db_rows *r = NULL;
    assert_int_equal(db_query(c,
                              "SELECT SUM(n), MAX(principal_type), MAX(account_id), MAX(sub), MAX(detail)"
                              " FROM audit_counts WHERE kind = ? AND principal = ?",
                              p, 2, &r),
                     DB_OK);
    int64_t n = -1;
    if (db_rows_next(r) && !db_rows_null(r, 0)) {
        n = db_rows_int(r, 0);
        snprintf(ptype, 64, "%s", db_rows_text(r, 1) ? db_rows_text(r, 1) : "");
        snprintf(acc, 64, "%s", db_rows_text(r, 2) ? db_rows_text(r, 2) : "");
        snprintf(sub, 64, "%s", db_rows_text(r, 3) ? db_rows_text(r, 3) : "");
        snprintf(detail, 64, "%s", db_rows_text(r, 4) ? db_rows_text(r, 4) : "");
    }
    db_rows_free(r);
    db_release(c);
    return n;
}

static void test_record_from_request(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    struct bw_req *r = calloc(1, sizeof *r);
    assert_non_null(r);
    char pt[64], acc[64], sub[64], det[64];

    /* not events: a 200 of an anonymous caller, a 404, a 403 of a session on a PRO route */
    request(r, &R_PRO, "192.0.2.1", BW_AUTH_ANON, NULL, NULL);
    bw_audit_record(a, r, 200);
    bw_audit_record(a, r, 404);
    request(r, &R_PRO, "192.0.2.1", BW_AUTH_JWT, "usr_free", NULL);
    bw_audit_record(a, r, 403);
    bw_audit_flush(a);
    assert_int_equal(rows_total(fx->db), 0);

    /* a bad credential on a privileged route: an auth failure and a privileged denial, by address */
    request(r, &R_PRIV, "192.0.2.7", BW_AUTH_ANON, NULL, NULL);
    bw_audit_record(a, r, 401);
    /* a FREE session on it: denied (403), by account */
    request(r, &R_PRIV, "192.0.2.8", BW_AUTH_JWT, "usr_free", NULL);
    bw_audit_record(a, r, 403);
    /* a key at its rate limit: rate limited by key, and a key use from its address */
    request(r, &R_PRO, "192.0.2.9", BW_AUTH_APIKEY, "usr_keyed", "svc_AbCdEfGh");
    bw_audit_record(a, r, 429);
    bw_audit_record(a, r, 200);
    /* a session at its rate limit: by account */
    request(r, &R_PRO, "192.0.2.10", BW_AUTH_JWT, "usr_busy", NULL);
    bw_audit_record(a, r, 429);
    /* IPv6 by /64, IPv4-mapped as IPv4 */
    request(r, &R_PRO, "2001:db8:1:2:aaaa:bbbb:cccc:dddd", BW_AUTH_ANON, NULL, NULL);
    bw_audit_record(a, r, 401);
    request(r, &R_PRO, "2001:db8:1:2::99", BW_AUTH_ANON, NULL, NULL);
    bw_audit_record(a, r, 401);
    request(r, &R_PRO, "::ffff:198.51.100.77", BW_AUTH_ANON, NULL, NULL);
    bw_audit_record(a, r, 429);
    /* a privileged caller is never a privileged denial, even on a 403 from the handler */
    request(r, &R_PRIV, "192.0.2.11", BW_AUTH_ADMINKEY, NULL, NULL);
    bw_audit_record(a, r, 403);
    bw_audit_flush(a);

    assert_int_equal(row_of(fx->db, "auth_failure", "192.0.2.7", pt, acc, sub, det), 1);
    assert_string_equal(pt, "ip");
    assert_string_equal(acc, "");
    assert_string_equal(det, "GET /api/orchestrator/god-mode/aspm");
    assert_int_equal(row_of(fx->db, "privileged_denied", "192.0.2.7", pt, acc, sub, det), 1);
    assert_int_equal(row_of(fx->db, "privileged_denied", "usr_free", pt, acc, sub, det), 1);
    assert_string_equal(pt, "account");
    assert_string_equal(acc, "usr_free");
    assert_int_equal(row_of(fx->db, "rate_limited", "svc_AbCdEfGh", pt, acc, sub, det), 1);
    assert_string_equal(pt, "api_key");
    assert_string_equal(acc, "usr_keyed");
    assert_string_equal(det, "POST /api/assets");
    assert_int_equal(row_of(fx->db, "key_use", "svc_AbCdEfGh", pt, acc, sub, det), 1); /* 429 and 200: one use */
    assert_string_equal(sub, "192.0.2.9");
    assert_string_equal(det, "192.0.2.9");
    assert_string_equal(acc, "usr_keyed");
    assert_int_equal(row_of(fx->db, "rate_limited", "usr_busy", pt, acc, sub, det), 1);
    assert_string_equal(pt, "account");
    assert_int_equal(row_of(fx->db, "auth_failure", "2001:db8:1:2::/64", pt, acc, sub, det), 2);
    assert_int_equal(row_of(fx->db, "rate_limited", "198.51.100.77", pt, acc, sub, det), 1);
    assert_int_equal(row_of(fx->db, "privileged_denied", "192.0.2.11", pt, acc, sub, det), -1);
    assert_int_equal(rows_total(fx->db), 8);
    free(r);
    bw_audit_stop(a);
}

/* ---- bounds, retention, the thread ---- */

static void test_bound_and_drops(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    int64_t t = g_base;
    /* four times the room: even if the background flusher empties the table once meanwhile, the
     * flood cannot all fit */
    const int total = 4 * BW_AUDIT_MAX_PENDING;
    int kept = 0, dropped = 0;
    char ip[32];
    /* a flood of distinct addresses between two flushes; repeats of a known one always fit */
    for (int i = 0; i < total; i++) {
        snprintf(ip, sizeof ip, "10.%d.%d.%d", (i >> 16) & 255, (i >> 8) & 255, i & 255);
        if (bw_audit_record_event(a, BW_AUDIT_AUTH_FAILURE, ip, BW_AUDIT_P_IP, NULL, NULL, t))
            kept++;
        else
            dropped++;
    }
    assert_true(dropped > 0);
    assert_true(kept <= 2 * BW_AUDIT_MAX_PENDING);
    assert_true(kept > BW_AUDIT_MAX_PENDING / 2); /* shards fill roughly evenly */
    assert_int_equal(bw_audit_dropped(a), dropped);
    bw_audit_flush(a);
    /* every kept event is a row, every other one is counted */
    assert_int_equal(rows_total(fx->db), kept);
    assert_int_equal(rows_total(fx->db) + (int64_t)bw_audit_dropped(a), total);
    assert_true(bw_audit_record_event(a, BW_AUDIT_AUTH_FAILURE, "10.0.0.0", BW_AUDIT_P_IP, NULL, NULL, t));
    bw_audit_flush(a);
    struct db_param p[] = {DBP_TEXT("auth_failure"), DBP_TEXT("10.0.0.0")};
    assert_int_equal(query_int(fx->db, "SELECT n FROM audit_counts WHERE kind = ? AND principal = ?", p, 2), 2);
    /* room again after the flush */
    assert_true(bw_audit_record_event(a, BW_AUDIT_AUTH_FAILURE, "10.255.255.255", BW_AUDIT_P_IP, NULL, NULL, t));
    bw_audit_stop(a);
}

static void test_retention(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    int64_t day = 24 * HOUR_MS;
    rec(a, BW_AUDIT_AUTH_FAILURE, "192.0.2.1", BW_AUDIT_P_IP, NULL, NULL, g_now - 8 * day, 3);
    rec(a, BW_AUDIT_KEY_USE, "svc_OldKey01", BW_AUDIT_P_API_KEY, "usr_x", "192.0.2.2", g_now - 8 * day, 1);
    rec(a, BW_AUDIT_RATE_LIMITED, "192.0.2.3", BW_AUDIT_P_IP, NULL, NULL, g_now - 6 * day, 1);
    rec(a, BW_AUDIT_KEY_USE, "svc_NewKey01", BW_AUDIT_P_API_KEY, "usr_x", "192.0.2.2", g_now - 1 * day, 1);
    bw_audit_flush(a);
    assert_int_equal(bw_audit_purge(fx->db, g_now), 2);
    assert_int_equal(rows_total(fx->db), 2);
    assert_int_equal(bw_audit_purge(fx->db, g_now), 0);
    assert_int_equal(bw_audit_purge(fx->db, g_now + 7 * day), 2);
    assert_int_equal(rows_total(fx->db), 0);
    bw_audit_stop(a);
}

static void test_flusher_and_stop(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    /* nobody calls flush: the thread writes within about a second */
    rec(a, BW_AUDIT_AUTH_FAILURE, "192.0.2.40", BW_AUDIT_P_IP, NULL, NULL, g_base, 2);
    int64_t deadline = bw_mono_us() + 5 * 1000000;
    while (rows_total(fx->db) == 0 && bw_mono_us() < deadline) {
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(rows_total(fx->db), 1);
    /* stop writes what is pending */
    rec(a, BW_AUDIT_AUTH_FAILURE, "192.0.2.41", BW_AUDIT_P_IP, NULL, NULL, g_base, 2);
    bw_audit_stop(a);
    assert_int_equal(rows_total(fx->db), 2);
    assert_int_equal(bw_audit_dropped(NULL), 0);
    bw_audit_stop(NULL);
    bw_audit_flush(NULL);
    bw_audit_record(NULL, NULL, 401);
}

#define RACE_THREADS 4
#define RACE_EVENTS 5000
struct race {
    struct bw_audit *a;
    int64_t t;
};

static void *racer(void *arg)
{
    struct race *rc = arg;
    char who[32];
    for (int i = 0; i < RACE_EVENTS; i++) {
        snprintf(who, sizeof who, "192.0.2.%d", i % 10);
        if (!bw_audit_record_event(rc->a, BW_AUDIT_RATE_LIMITED, who, BW_AUDIT_P_IP, NULL, NULL, rc->t + i % 3))
            return (void *)1;
        if (i % 1000 == 0)
            bw_audit_flush(rc->a); /* flushes from several threads meanwhile */
    }
    return NULL;
}

static void test_concurrent_recorders(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_audit *a = begin(fx);
    struct race rc = {a, g_base};
    pthread_t th[RACE_THREADS];
    for (int i = 0; i < RACE_THREADS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, racer, &rc), 0);
    for (int i = 0; i < RACE_THREADS; i++) {
        void *ret = NULL;
        pthread_join(th[i], &ret);
        assert_null(ret);
    }
    bw_audit_flush(a);
    assert_int_equal(query_int(fx->db, "SELECT SUM(n) FROM audit_counts", NULL, 0), RACE_THREADS * RACE_EVENTS);
    assert_int_equal(rows_total(fx->db), 10);
    assert_int_equal(bw_audit_dropped(a), 0);
    bw_audit_stop(a);
}

/* ---- backends ---- */

static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "audit", NULL, 8); }
static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(*state); }
static int pg_setup(void **state) { return dbfx_pg_setup(&g_fx, state, "audit", 8); }
static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }

PG_TEST(test_auth_failure_threshold_and_upsert)
PG_TEST(test_sliding_windows)
PG_TEST(test_rate_limit_burst)
PG_TEST(test_key_multi_ip)
PG_TEST(test_privileged_probe)
PG_TEST(test_scope_and_order)
PG_TEST(test_record_from_request)
PG_TEST(test_bound_and_drops)
PG_TEST(test_retention)
PG_TEST(test_flusher_and_stop)
PG_TEST(test_concurrent_recorders)

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    bw_log_set_level(BW_LOG_ERROR + 1);
    const struct CMUnitTest sqlite[] = {
        cmocka_unit_test(test_auth_failure_threshold_and_upsert),
        cmocka_unit_test(test_sliding_windows),
        cmocka_unit_test(test_rate_limit_burst),
        cmocka_unit_test(test_key_multi_ip),
        cmocka_unit_test(test_privileged_probe),
        cmocka_unit_test(test_scope_and_order),
        cmocka_unit_test(test_record_from_request),
        cmocka_unit_test(test_bound_and_drops),
        cmocka_unit_test(test_retention),
        cmocka_unit_test(test_flusher_and_stop),
        cmocka_unit_test(test_concurrent_recorders),
    };
    const struct CMUnitTest pg[] = {
        cmocka_unit_test(pg_test_auth_failure_threshold_and_upsert),
        cmocka_unit_test(pg_test_sliding_windows),
        cmocka_unit_test(pg_test_rate_limit_burst),
        cmocka_unit_test(pg_test_key_multi_ip),
        cmocka_unit_test(pg_test_privileged_probe),
        cmocka_unit_test(pg_test_scope_and_order),
        cmocka_unit_test(pg_test_record_from_request),
        cmocka_unit_test(pg_test_bound_and_drops),
        cmocka_unit_test(pg_test_retention),
        cmocka_unit_test(pg_test_flusher_and_stop),
        cmocka_unit_test(pg_test_concurrent_recorders),
    };
    int failed = cmocka_run_group_tests_name("audit_sqlite", sqlite, sqlite_setup, sqlite_teardown);
    failed += cmocka_run_group_tests_name("audit_postgres", pg, pg_setup, pg_teardown);
    return failed ? 1 : 0;
}
