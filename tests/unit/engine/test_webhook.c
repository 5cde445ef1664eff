/* Webhooks, the pure part: the signature against an independent HMAC-SHA256 (Python's hmac), the
 * retry schedule and its scale, endpoint URL acceptance under the egress policy, the event sets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/webhook.h"
#include "net/egress.h"

#include <sodium.h>
#include <string.h>

static void signature(void **state)
{
    (void)state;
    char sig[BW_WEBHOOK_SIG_MAX];
    const char *body = "{\"a\":1}";
    /* python3: hmac.new(b'whsec_test', b'1700000000.{"a":1}', hashlib.sha256).hexdigest() */
    bw_webhook_sign("whsec_test", 10, 1700000000, body, strlen(body), sig);
    assert_string_equal(sig, "v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789");
    /* an empty body: the timestamp and the dot only */
    bw_webhook_sign("whsec_test", 10, 1700000000, "", 0, sig);
    assert_string_equal(sig, "v1=5967f3c560522fa40cf2876ebc3c3a08551dd6959aaade3b413460591895bdcc");
    /* any change to the timestamp, the body or the secret changes it */
    char other[BW_WEBHOOK_SIG_MAX];
    bw_webhook_sign("whsec_test", 10, 1700000001, body, strlen(body), other);
    assert_string_not_equal(sig, other);
    bw_webhook_sign("whsec_tesT", 10, 1700000000, body, strlen(body), other);
    assert_string_not_equal(other, "v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789");
    assert_int_equal(strlen(sig), 67);
}

static void backoff(void **state)
{
    (void)state;
    /* 1, 5, 15, 40 minutes: the fifth try about an hour after the first */
    assert_int_equal(bw_webhook_backoff_ms(1, 1000), 60000);
    assert_int_equal(bw_webhook_backoff_ms(2, 1000), 300000);
    assert_int_equal(bw_webhook_backoff_ms(3, 1000), 900000);
    assert_int_equal(bw_webhook_backoff_ms(4, 1000), 2400000);
    int64_t total = 0;
    for (int t = 1; t < BW_WEBHOOK_TRIES; t++)
        total += bw_webhook_backoff_ms(t, 1000);
    assert_true(total >= 55 * 60000 && total <= 65 * 60000);
    assert_int_equal(bw_webhook_backoff_ms(5, 1000), -1); /* no sixth try */
    assert_int_equal(bw_webhook_backoff_ms(0, 1000), -1);
    /* scaled down for tests, never up */
    assert_int_equal(bw_webhook_backoff_ms(1, 1), 60);
    assert_int_equal(bw_webhook_backoff_ms(4, 1), 2400);
    assert_int_equal(bw_webhook_backoff_ms(1, 5000), 60000);
    assert_int_equal(bw_webhook_backoff_ms(1, 0), 60);
    assert_int_equal(bw_webhook_backoff_ms(2, 500), 150000);
}

static void urls(void **state)
{
    (void)state;
    char why[256];
    unsigned lo = BW_EGRESS_ALLOW_LOOPBACK, pr = BW_EGRESS_ALLOW_PRIVATE;
    assert_true(bw_webhook_url_ok("https://hooks.example.com/bulwark", 0, why, sizeof why));
    assert_true(bw_webhook_url_ok("https://hooks.example.com:8443/x?y=1", 0, why, sizeof why));
    /* plain http only to a local receiver the policy opens */
    assert_false(bw_webhook_url_ok("http://hooks.example.com/bulwark", lo | pr, why, sizeof why));
    assert_non_null(strstr(why, "https"));
    assert_false(bw_webhook_url_ok("http://127.0.0.1:9000/hook", 0, why, sizeof why));
    assert_true(bw_webhook_url_ok("http://127.0.0.1:9000/hook", lo, why, sizeof why));
    assert_true(bw_webhook_url_ok("http://localhost:9000/hook", lo, why, sizeof why));
    assert_false(bw_webhook_url_ok("http://10.0.0.5/hook", lo, why, sizeof why));
    assert_true(bw_webhook_url_ok("http://10.0.0.5/hook", pr, why, sizeof why));
    /* https to an address the guard refuses is refused now */
    assert_false(bw_webhook_url_ok("https://127.0.0.1/hook", 0, why, sizeof why));
    assert_false(bw_webhook_url_ok("https://169.254.169.254/latest", lo | pr, why, sizeof why));
    assert_false(bw_webhook_url_ok("https://[fe80::1]/", lo | pr, why, sizeof why));
    assert_false(bw_webhook_url_ok("https://0x7f.1/", 0, why, sizeof why));
    /* the rest of the URL */
    assert_false(bw_webhook_url_ok("https://u:p@hooks.example.com/", 0, why, sizeof why));
    assert_false(bw_webhook_url_ok("https://hooks.example.com/#frag", 0, why, sizeof why));
    assert_false(bw_webhook_url_ok("ftp://hooks.example.com/", lo | pr, why, sizeof why));
    assert_false(bw_webhook_url_ok("hooks.example.com/x", 0, why, sizeof why));
    assert_false(bw_webhook_url_ok("https://exa mple.com/", 0, why, sizeof why));
    char longurl[BW_WEBHOOK_URL_MAX + 32];
    memset(longurl, 'a', sizeof longurl - 1);
    memcpy(longurl, "https://e.com/", 14);
    longurl[sizeof longurl - 1] = '\0';
    assert_false(bw_webhook_url_ok(longurl, 0, why, sizeof why));
}

static void events(void **state)
{
    (void)state;
    char why[256], text[BW_WH_EVENTS_TEXT_MAX];
    unsigned mask = 0;
    json_t *a = json_pack("[s,s]", "orchestrator.run.completed", "engagement.completed");
    assert_int_equal(bw_webhook_events_read(a, &mask, why, sizeof why), 0);
    assert_int_equal(mask, (1u << BW_WH_ENGAGEMENT_COMPLETED) | (1u << BW_WH_ORCH_RUN_COMPLETED));
    bw_webhook_events_text(mask, text);
    assert_string_equal(text, ",engagement.completed,orchestrator.run.completed,");
    assert_int_equal(bw_webhook_events_from_text(text), mask);
    json_t *back = bw_webhook_events_json(mask);
    assert_string_equal(json_string_value(json_array_get(back, 0)), "engagement.completed");
    json_decref(back);
    json_decref(a);
    bw_webhook_events_text((1u << BW_WH__EVENTS) - 1, text); /* all of them fit */
    assert_int_equal(bw_webhook_events_from_text(text), (1u << BW_WH__EVENTS) - 1);
    const char *bad[] = {"[]", "{}", "[\"ping\"]", "[\"intel.kev_match\",\"intel.kev_match\"]", "[1]",
                         "[\"asset_scan.completed \"]", "[\"asset-scan.completed\"]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *j = json_loads(bad[i], 0, NULL);
        if (bw_webhook_events_read(j, &mask, why, sizeof why) == 0)
            fail_msg("%s accepted", bad[i]);
        json_decref(j);
    }
    assert_int_equal(bw_webhook_events_read(NULL, &mask, why, sizeof why), -1);
    assert_int_equal(bw_webhook_event_parse("ping"), -1);
}

static void secret_and_envelope(void **state)
{
    (void)state;
    char a[BW_WEBHOOK_SECRET_LEN + 1], b[BW_WEBHOOK_SECRET_LEN + 1];
    bw_webhook_secret_new(a);
    bw_webhook_secret_new(b);
    assert_int_equal(strlen(a), BW_WEBHOOK_SECRET_LEN);
    assert_memory_equal(a, "whsec_", 6);
    assert_string_not_equal(a, b);
    json_t *e = bw_webhook_envelope("evt_1", "ping", "2026-11-26T00:00:00Z", json_pack("{s:i}", "n", 1));
    assert_non_null(e);
    assert_string_equal(json_string_value(json_object_get(e, "type")), "ping");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(e, "data"), "n")), 1);
    json_decref(e);
    assert_null(bw_webhook_envelope("evt_1", "ping", "t", NULL));
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(signature),
        cmocka_unit_test(backoff),
        cmocka_unit_test(urls),
        cmocka_unit_test(events),
        cmocka_unit_test(secret_and_envelope),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
