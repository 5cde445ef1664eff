/* The static posture score of a registered asset: each documented deduction, URL acceptance. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/posture.h"

static void urls(void **state)
{
    (void)state;
    assert_true(bw_posture_url_ok("https://api.example.com/v1"));
    assert_true(bw_posture_url_ok("http://localhost:8000"));
    assert_true(bw_posture_url_ok("HTTPS://EXAMPLE.COM"));
    assert_false(bw_posture_url_ok("ftp://example.com"));
    assert_false(bw_posture_url_ok("https://"));
    assert_false(bw_posture_url_ok("https:///path"));
    assert_false(bw_posture_url_ok("https://exa mple.com"));
    assert_false(bw_posture_url_ok("example.com"));
    assert_false(bw_posture_url_ok(NULL));
}

static void deductions(void **state)
{
    (void)state;
    assert_int_equal(bw_posture_score("model", "openai", "https://api.example.com", "production"), 100);
    assert_int_equal(bw_posture_score("model", "openai", "http://api.example.com", "staging"), 70);
    assert_int_equal(bw_posture_score("model", "openai", "http://api.example.com", "production"), 60);
    assert_int_equal(bw_posture_score("model", "openai", "http://localhost:8080", "production"), 90);
    assert_int_equal(bw_posture_score("model", "openai", "http://127.0.0.1:8080", "production"), 90);
    assert_int_equal(bw_posture_score("model", "openai", "https://u:p@api.example.com", "dev"), 70);
    assert_int_equal(bw_posture_score("model", "openai", "https://api.example.com/?api_key=x", "dev"), 75);
    assert_int_equal(bw_posture_score("model", "openai", "https://203.0.113.5/", "dev"), 90);
    assert_int_equal(bw_posture_score("model", "openai", "https://10.1.2.3/", "dev"), 100);
    assert_int_equal(bw_posture_score("model", "openai", "https://172.20.0.1/", "dev"), 100);
    assert_int_equal(bw_posture_score("agent", "openai", "https://api.example.com", "dev"), 90);
    assert_int_equal(bw_posture_score("model", "", "https://api.example.com", "dev"), 95);
    assert_int_equal(bw_posture_score("agent", NULL, "http://u:p@203.0.113.5/?token=1", "production"), 0);
}

/* The display form: no userinfo, credential query values REDACTED, other parameters kept, no
 * fragment; cut, never overflowing, when the buffer is short. */
static void display(void **state)
{
    (void)state;
    struct {
        const char *in, *out;
    } cases[] = {
        {"https://api.example.com/v1", "https://api.example.com/v1"},
        {"http://127.0.0.1:8080/v1?token=sk-SuperSecretValue123", "http://127.0.0.1:8080/v1?token=REDACTED"},
        {"https://u:p@api.example.com:8443/v1", "https://api.example.com:8443/v1"},
        {"https://a:b@c@h/x", "https://h/x"},
        {"https://h/v1?api-version=2&API_KEY=abc&Key=&sig=zz#access_token=t",
         "https://h/v1?api-version=2&API_KEY=REDACTED&Key=REDACTED&sig=REDACTED"},
        {"https://h/?keyring=1&monkey=2&secret", "https://h/?keyring=1&monkey=2&secret"},
        {"https://h/?x=1?password=p&y=2", "https://h/?x=1?password=REDACTED&y=2"},
        {"https://h/p#frag", "https://h/p"},
        {"https://h?access_token=a&apikey=b", "https://h?access_token=REDACTED&apikey=REDACTED"},
    };
    char out[128];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_string_equal(bw_posture_url_display(cases[i].in, out, sizeof out), cases[i].out);
    char small[20];
    assert_string_equal(bw_posture_url_display("http://h/v1?token=sk-SuperSecretValue123", small, sizeof small),
                        "http://h/v1?token=R");
    assert_string_equal(bw_posture_url_display(NULL, out, sizeof out), "");
}

static void levels(void **state)
{
    (void)state;
    assert_string_equal(bw_posture_level(100), "LOW");
    assert_string_equal(bw_posture_level(80), "LOW");
    assert_string_equal(bw_posture_level(79), "MEDIUM");
    assert_string_equal(bw_posture_level(60), "MEDIUM");
    assert_string_equal(bw_posture_level(59), "HIGH");
    assert_string_equal(bw_posture_level(40), "HIGH");
    assert_string_equal(bw_posture_level(39), "CRITICAL");
    assert_string_equal(bw_posture_level(0), "CRITICAL");
}

/* The host is judged by the shared URL model (net/url.h), as the egress guard judges it: every
 * spelling of a loopback address is this machine, an internal address is no "bare public IP",
 * and a URL the guard would not read is not accepted. */
static void hosts_as_the_guard_sees_them(void **state)
{
    (void)state;
    static const struct {
        const char *endpoint;
        int score; /* model, provider openai, production */
    } cases[] = {
        {"http://127.0.0.1:8080", 90},
        {"http://2130706433/", 90},
        {"http://0x7f.1/", 90},
        {"http://127.1:8080/", 90},
        {"http://127.0.0.1./", 90},
        {"http://[::ffff:127.0.0.1]:8080/", 90},
        {"http://[::1]/", 90},
        {"http://LOCALHOST./", 90},
        {"http://app.localhost:3000/", 90},
        {"http://%6c%6f%63%61%6c%68%6f%73%74/", 90},
        {"http://127.0.0.1#@public.example/", 90},
        {"http://localhost.example.com/", 60},
        {"https://10.0.0.1/", 100},
        {"https://167772161/", 100},         /* 10.0.0.1 */
        {"https://[::ffff:10.0.0.1]/", 100},
        {"https://[fd12::1]/", 100},
        {"https://169.254.1.1/", 100},
        {"https://203.0.113.5/", 90},
        {"https://134744072/", 90},          /* 8.8.8.8 */
        {"https://[2606:4700::1111]/", 90},
        {"https://169.254.169.254/", 90},    /* metadata: not an address an operator assigns */
        {"https://100.64.0.1/", 90},
        {"https://0/", 90},
        {"http://0.0.0.0:8000/", 50},        /* a wildcard bind is not this machine */
        {"https://metadata.google.internal/", 100}, /* a name: no IP-literal deduction */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int got = bw_posture_score("model", "openai", cases[i].endpoint, "production");
        if (got != cases[i].score)
            fail_msg("%s: %d, expected %d", cases[i].endpoint, got, cases[i].score);
    }
    /* userinfo is what the URL parser says it is */
    assert_int_equal(bw_posture_score("model", "openai", "http://public.example@127.0.0.1/", "dev"), 60);
    assert_int_equal(bw_posture_score("model", "openai", "https://@api.example.com/", "dev"), 70);
    /* an endpoint stored before the parser was strict: judged as harshly as its text allows */
    assert_int_equal(bw_posture_score("model", "openai", "http://u:p@b\303\274cher.example/", "dev"), 40);

    const char *refused[] = {"https://b\303\274cher.example/", "https://h:0/", "https://h:65536/",
                             "https://[fe80::1%25eth0]/", "https://a..example/", "http:/example.com",
                             "https://256.0.0.1/", "https://exa<mple.com/", "https://[::1/"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (bw_posture_url_ok(refused[i]))
            fail_msg("%s accepted", refused[i]);
    assert_true(bw_posture_url_ok("https://xn--bcher-kva.example/"));
    assert_true(bw_posture_url_ok("http://%6c%6f%63%61%6c%68%6f%73%74:8000/v1"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(urls),
        cmocka_unit_test(deductions),
        cmocka_unit_test(levels),
        cmocka_unit_test(display),
        cmocka_unit_test(hosts_as_the_guard_sees_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
