/* Prometheus text helpers (src/common/metrics.c) and the HTTP counters (src/http/metrics.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "api/api.h"
#include "common/metrics.h"
#include "http/metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What fn wrote to a memory stream, malloc'ed. */
#define CAPTURE(out, stmt)                                                                         \
    do {                                                                                           \
        size_t cap_len_ = 0;                                                                       \
        FILE *f = open_memstream(&(out), &cap_len_);                                               \
        assert_non_null(f);                                                                        \
        stmt;                                                                                      \
        assert_int_equal(fclose(f), 0);                                                            \
    } while (0)

static void test_status_index(void **state)
{
    (void)state;
    /* every index names a distinct status that maps back to it */
    for (unsigned i = 1; i < BW_METRICS_NSTATUS; i++) {
        const char *l = bw_metrics_status_label(i);
        unsigned code = (unsigned)strtoul(l, NULL, 10);
        assert_true(code >= 100 && code <= 599);
        assert_int_equal(bw_metrics_status_index(code), i);
        for (unsigned j = 1; j < i; j++)
            assert_string_not_equal(bw_metrics_status_label(j), l);
    }
    /* every status the error table answers has an index of its own */
    for (int e = 1; e < BW_E__COUNT; e++)
        assert_int_not_equal(bw_metrics_status_index(bw_err_status((enum bw_err)e)), 0);
    unsigned others[] = {0, 100, 199, 302, 418, 421, 502, 599, 1000};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        assert_int_equal(bw_metrics_status_index(others[i]), 0);
    assert_string_equal(bw_metrics_status_label(0), "other");
    assert_string_equal(bw_metrics_status_label(BW_METRICS_NSTATUS), "other");
}

static void test_buckets(void **state)
{
    (void)state;
    for (unsigned i = 0; i < BW_METRICS_NBUCKETS; i++) {
        uint64_t b = bw_metrics_bucket_us(i);
        if (i)
            assert_true(b > bw_metrics_bucket_us(i - 1));
        /* the le text says the same bound in seconds */
        double le = strtod(bw_metrics_bucket_le(i), NULL);
        assert_true((uint64_t)(le * 1e6 + 0.5) == b);
        /* le is inclusive: the bound itself is in the bucket, one microsecond more is not */
        assert_int_equal(bw_metrics_bucket_index(b), i);
        assert_int_equal(bw_metrics_bucket_index(b + 1), i + 1);
    }
    assert_int_equal(bw_metrics_bucket_index(0), 0);
    assert_int_equal(bw_metrics_bucket_us(0), 500);
    assert_int_equal(bw_metrics_bucket_us(BW_METRICS_NBUCKETS - 1), 10000000);
    assert_int_equal(bw_metrics_bucket_index(UINT64_MAX), BW_METRICS_NBUCKETS);
    assert_string_equal(bw_metrics_bucket_le(BW_METRICS_NBUCKETS), "+Inf");
}

static void test_escaping(void **state)
{
    (void)state;
    char *out = NULL;
    CAPTURE(out, bw_prom_label_value(f, "a\\b\"c\nd{}=,é"));
    assert_string_equal(out, "a\\\\b\\\"c\\nd{}=,é");
    free(out);
    out = NULL;
    CAPTURE(out, bw_prom_label_value(f, ""));
    assert_string_equal(out, "");
    free(out);
    out = NULL;
    /* HELP text escapes backslash and line feed, not quotes */
    CAPTURE(out, bw_prom_family(f, "x_total", "counter", "say \"hi\"\\\nbye"));
    assert_string_equal(out, "# HELP x_total say \"hi\"\\\\\\nbye\n# TYPE x_total counter\n");
    free(out);
    out = NULL;
    CAPTURE(out, (bw_prom_sample_u(f, "x_total", NULL, 42), bw_prom_sample_u(f, "x_total", BW_PROM_L1("a", "1"), 0),
                  bw_prom_sample_d(f, "y", BW_PROM_L3("a", "\"", "b", "\\", "c", "\n"), 1.5)));
    assert_string_equal(out, "x_total 42\nx_total{a=\"1\"} 0\ny{a=\"\\\"\",b=\"\\\\\",c=\"\\n\"} 1.500000\n");
    free(out);
}

static void h(struct bw_req *r) { (void)r; }

static const struct bw_route routes[] = {
    {BW_GET, "/a/{id}", BW_ACCESS_PUBLIC, h, 0, NULL},
    {BW_POST, "/b", BW_ACCESS_PUBLIC, h, 0, NULL},
    {BW_DELETE, "/a/{id}", BW_ACCESS_PUBLIC, h, 0, NULL}, /* a second entry of one template */
};

/* The value of the sample line that starts with prefix (followed by a space), or -1. */
static long long sample(const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, prefix, n) == 0 && p[n] == ' ')
            return strtoll(p + n + 1, NULL, 10);
    return -1;
}

static void test_http_counters(void **state)
{
    (void)state;
    bw_http_metrics_request(0, BW_GET, 200, 400);      /* first bucket */
    bw_http_metrics_request(0, BW_GET, 200, 3000);     /* le=0.005 */
    bw_http_metrics_request(0, BW_HEAD, 200, 3000);    /* HEAD on the GET route: its own series */
    bw_http_metrics_request(0, BW_GET, 418, 20000000); /* other status, beyond 10 s */
    bw_http_metrics_request(1, BW_POST, 201, 1000);
    bw_http_metrics_request(2, BW_DELETE, 200, 1000000); /* le=1, in the histogram of /a/{id} */
    bw_http_metrics_request(BW_HTTP_ROUTE_UNMATCHED, BW_DELETE, 405, 10);
    bw_http_metrics_request(BW_HTTP_ROUTE_UNMATCHED, (enum bw_method)99, 404, 10);
    bw_http_metrics_rate_limited(false);
    bw_http_metrics_rate_limited(true);
    bw_http_metrics_rate_limited(true);
    bw_http_metrics_auth_failure(BW_AUTH_FAIL_EXPIRED);
    bw_http_metrics_auth_failure(BW_AUTH_FAIL_REVOKED);
    struct bw_principal anon = {.kind = BW_AUTH_ANON}, key = {.kind = BW_AUTH_APIKEY, .tier = BW_TIER_FREE};
    struct bw_decision d = bw_policy_check(BW_ACCESS_PRO, &anon);
    bw_http_metrics_denied(&d, &anon); /* missing */
    d = bw_policy_check(BW_ACCESS_PRO, &key);
    bw_http_metrics_denied(&d, &key); /* tier PRO */
    d = bw_policy_check(BW_ACCESS_SESSION, &key);
    bw_http_metrics_denied(&d, &key); /* wrong kind */
    d = bw_policy_check(BW_ACCESS_ADMIN, &key);
    bw_http_metrics_denied(&d, &key); /* forbidden */

    char *out = NULL;
    CAPTURE(out, bw_http_metrics_write(f, routes, 3));
    static const struct {
        const char *series;
        long long want;
    } want[] = {
        {"bulwark_http_requests_total{route=\"/a/{id}\",method=\"GET\",status=\"200\"}", 2},
        {"bulwark_http_requests_total{route=\"/a/{id}\",method=\"HEAD\",status=\"200\"}", 1},
        {"bulwark_http_requests_total{route=\"/a/{id}\",method=\"GET\",status=\"other\"}", 1},
        {"bulwark_http_requests_total{route=\"/b\",method=\"POST\",status=\"201\"}", 1},
        {"bulwark_http_requests_total{route=\"/a/{id}\",method=\"DELETE\",status=\"200\"}", 1},
        {"bulwark_http_requests_total{route=\"unmatched\",method=\"DELETE\",status=\"405\"}", 1},
        {"bulwark_http_requests_total{route=\"unmatched\",method=\"OTHER\",status=\"404\"}", 1},
        /* GET, HEAD and DELETE of /a/{id} in one histogram; 20 s is beyond the last bound */
        {"bulwark_http_request_duration_seconds_bucket{route=\"/a/{id}\",le=\"0.0005\"}", 1},
        {"bulwark_http_request_duration_seconds_bucket{route=\"/a/{id}\",le=\"0.005\"}", 3},
        {"bulwark_http_request_duration_seconds_bucket{route=\"/a/{id}\",le=\"10\"}", 4},
        {"bulwark_http_request_duration_seconds_bucket{route=\"/a/{id}\",le=\"+Inf\"}", 5},
        {"bulwark_http_request_duration_seconds_count{route=\"/a/{id}\"}", 5},
        {"bulwark_http_request_duration_seconds_count{route=\"unmatched\"}", 2},
        {"bulwark_http_rate_limited_total{principal=\"anonymous\"}", 1},
        {"bulwark_http_rate_limited_total{principal=\"account\"}", 2},
        {"bulwark_http_auth_failures_total{reason=\"missing\"}", 1},
        {"bulwark_http_auth_failures_total{reason=\"invalid\"}", 0},
        {"bulwark_http_auth_failures_total{reason=\"expired\"}", 1},
        {"bulwark_http_auth_failures_total{reason=\"revoked\"}", 1},
        {"bulwark_http_auth_failures_total{reason=\"wrong_kind\"}", 1},
        {"bulwark_http_tier_denials_total{required_tier=\"PRO\"}", 1},
        {"bulwark_http_tier_denials_total{required_tier=\"STARTER\"}", 0},
        {"bulwark_http_forbidden_total", 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        long long got = sample(out, want[i].series);
        if (got != want[i].want)
            fail_msg("%s: %lld, expected %lld", want[i].series, got, want[i].want);
    }
    /* series that counted nothing are not written */
    assert_null(strstr(out, "status=\"500\""));
    /* histograms are cumulative */
    long long prev = 0;
    for (unsigned i = 0; i <= BW_METRICS_NBUCKETS; i++) {
        char line[256];
        snprintf(line, sizeof line, "bulwark_http_request_duration_seconds_bucket{route=\"/a/{id}\",le=\"%s\"}",
                 bw_metrics_bucket_le(i));
        long long v = sample(out, line);
        assert_true(v >= prev);
        prev = v;
    }
    assert_non_null(strstr(out, "bulwark_http_request_duration_seconds_sum{route=\"/a/{id}\"} 21.006400\n"));
    /* one histogram per template: the second entry's lines are in the first's */
    const char *first = strstr(out, "bulwark_http_request_duration_seconds_count{route=\"/a/{id}\"}");
    assert_null(strstr(first + 1, "bulwark_http_request_duration_seconds_count{route=\"/a/{id}\"}"));
    free(out);
}

static void test_route_table_fits(void **state)
{
    (void)state;
    /* the server refuses to start otherwise: grow BW_METRICS_ROUTES_MAX with the table */
    assert_true(bw_routes_count <= BW_METRICS_ROUTES_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_index),   cmocka_unit_test(test_buckets),
        cmocka_unit_test(test_escaping),       cmocka_unit_test(test_http_counters),
        cmocka_unit_test(test_route_table_fits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
