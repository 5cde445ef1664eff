/* GET /metrics' limiter families (src/api/metrics.c): a limiter at its memory bound evicts, and
 * the scrape shows it per limiter, as Prometheus text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "api/api.h"
#include "auth/ratelimit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *render(const struct api_ctx *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    api_metrics_limiters(f, c);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void evictions_per_limiter(void **state)
{
    (void)state;
    /* the smallest table (16 entries a shard): 8192 live sources overflow every shard */
    struct api_ctx c = {.rate = bw_limiter_new(3600, 1), .login_email = bw_limiter_new(900, 1),
                        .login_ip = bw_limiter_new(900, 1)};
    assert_non_null(c.rate);
    assert_non_null(c.login_email);
    assert_non_null(c.login_ip);
    char *before = render(&c);
    assert_non_null(strstr(before, "# TYPE bulwark_ratelimit_evictions_total counter\n"));
    assert_non_null(strstr(before, "bulwark_ratelimit_evictions_total{limiter=\"rate\"} 0\n"));
    free(before);

    for (int i = 0; i < 8192; i++) {
        char key[32];
        snprintf(key, sizeof key, "ip:198.51.%d.%d", i / 256, i % 256);
        struct bw_limit_result r;
        bw_limiter_take(c.rate, key, 50, 1000000000LL, &r);
        assert_true(r.allowed); /* a full table never refuses a new source */
    }
    unsigned long ev = bw_limiter_evictions(c.rate);
    assert_true(ev > 0);
    char *after = render(&c);
    char want[128];
    snprintf(want, sizeof want, "bulwark_ratelimit_evictions_total{limiter=\"rate\"} %lu\n", ev);
    assert_non_null(strstr(after, want));
    assert_non_null(strstr(after, "bulwark_ratelimit_evictions_total{limiter=\"login_email\"} 0\n"));
    assert_non_null(strstr(after, "bulwark_ratelimit_evictions_total{limiter=\"login_ip\"} 0\n"));
    /* HELP and TYPE once, before the samples */
    const char *help = strstr(after, "# HELP bulwark_ratelimit_evictions_total ");
    assert_non_null(help);
    assert_true(help < strstr(after, "bulwark_ratelimit_evictions_total{"));
    assert_null(strstr(help + 1, "# HELP bulwark_ratelimit_evictions_total "));
    free(after);
    bw_limiter_free(c.rate);
    bw_limiter_free(c.login_email);
    bw_limiter_free(c.login_ip);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(evictions_per_limiter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
