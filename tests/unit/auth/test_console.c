/* The web console's credential pieces (src/auth/console.c): the Cookie header parser, session ids
 * and their hashes, CSRF tokens; and the Accept-Encoding reading the console's files are served by
 * (src/common/gzip.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "auth/console.h"
#include "common/gzip.h"

#include <stdlib.h>
#include <string.h>

static void test_cookie_found_among_others(void **state)
{
    (void)state;
    char v[64];
    assert_true(bw_cookie_value("a=1; bulwark_console=abc-_9; b=2", "bulwark_console", v, sizeof v));
    assert_string_equal(v, "abc-_9");
    assert_true(bw_cookie_value("bulwark_console=x", "bulwark_console", v, sizeof v));
    assert_string_equal(v, "x");
    /* whitespace around pairs and around '=' is not part of name or value; quotes are dropped */
    assert_true(bw_cookie_value("  a=1 ;\tbulwark_console = \"q1\" ;", "bulwark_console", v, sizeof v));
    assert_string_equal(v, "q1");
    /* the first of two wins (the browser sends the most specific path first) */
    assert_true(bw_cookie_value("bulwark_console=first; bulwark_console=second", "bulwark_console", v, sizeof v));
    assert_string_equal(v, "first");
}

static void test_cookie_absent_or_bad(void **state)
{
    (void)state;
    char v[8];
    assert_false(bw_cookie_value(NULL, "n", v, sizeof v));
    assert_false(bw_cookie_value("", "n", v, sizeof v));
    assert_false(bw_cookie_value("nn=1; xn=2", "n", v, sizeof v)); /* names match whole */
    assert_false(bw_cookie_value("n", "n", v, sizeof v));          /* no '=' */
    assert_false(bw_cookie_value("n=", "n", v, sizeof v));         /* empty */
    assert_false(bw_cookie_value("n=a b", "n", v, sizeof v));      /* space inside */
    assert_false(bw_cookie_value("n=a\\b", "n", v, sizeof v));     /* backslash */
    assert_false(bw_cookie_value("n=a,b", "n", v, sizeof v));      /* comma */
    assert_false(bw_cookie_value("n=\x01", "n", v, sizeof v));     /* control */
    assert_false(bw_cookie_value("n=\xc3\xa9", "n", v, sizeof v)); /* not ASCII */
    assert_false(bw_cookie_value("n=12345678", "n", v, sizeof v)); /* does not fit 8 - 1 */
    assert_string_equal(v, "");
    assert_true(bw_cookie_value("n=1234567", "n", v, sizeof v));
    /* a header past the limit is not read at all */
    size_t big = BW_COOKIE_HEADER_MAX + 10;
    char *h = malloc(big + 1);
    assert_non_null(h);
    memcpy(h, "n=1; ", 5);
    memset(h + 5, 'x', big - 5);
    h[big] = '\0';
    assert_false(bw_cookie_value(h, "n", v, sizeof v));
    free(h);
}

static void test_ids_and_hashes(void **state)
{
    (void)state;
    char a[BW_CONSOLE_ID_LEN + 1], b[BW_CONSOLE_ID_LEN + 1], ha[65], ha2[65], hb[65];
    bw_console_new_id(a);
    bw_console_new_id(b);
    assert_int_equal(strlen(a), BW_CONSOLE_ID_LEN);
    assert_true(bw_console_token_wellformed(a));
    assert_string_not_equal(a, b);
    bw_console_id_hash(a, ha);
    bw_console_id_hash(a, ha2);
    bw_console_id_hash(b, hb);
    assert_int_equal(strlen(ha), 64);
    assert_string_equal(ha, ha2);
    assert_string_not_equal(ha, hb);
    assert_null(strstr(ha, a));
    assert_false(bw_console_token_wellformed(NULL));
    assert_false(bw_console_token_wellformed("short"));
    char bad[BW_CONSOLE_ID_LEN + 1];
    memcpy(bad, a, sizeof bad);
    bad[5] = '+'; /* base64, not base64url */
    assert_false(bw_console_token_wellformed(bad));
    char longer[BW_CONSOLE_ID_LEN + 2];
    memcpy(longer, a, BW_CONSOLE_ID_LEN);
    longer[BW_CONSOLE_ID_LEN] = 'A';
    longer[BW_CONSOLE_ID_LEN + 1] = '\0';
    assert_false(bw_console_token_wellformed(longer));
}

static void test_csrf_is_bound_to_session_and_key(void **state)
{
    (void)state;
    const unsigned char k1[] = "server secret one", k2[] = "server secret two";
    char a[BW_CONSOLE_ID_LEN + 1], b[BW_CONSOLE_ID_LEN + 1], ta[BW_CONSOLE_CSRF_LEN + 1], tb[BW_CONSOLE_CSRF_LEN + 1];
    bw_console_new_id(a);
    bw_console_new_id(b);
    bw_console_csrf(k1, sizeof k1, a, ta);
    bw_console_csrf(k1, sizeof k1, b, tb);
    assert_int_equal(strlen(ta), BW_CONSOLE_CSRF_LEN);
    assert_true(bw_console_token_wellformed(ta));
    assert_true(bw_console_csrf_ok(k1, sizeof k1, a, ta));
    assert_false(bw_console_csrf_ok(k1, sizeof k1, a, tb)); /* another session's token */
    assert_false(bw_console_csrf_ok(k2, sizeof k2, a, ta)); /* another server's key */
    assert_false(bw_console_csrf_ok(k1, sizeof k1, a, a));  /* the id itself is no token */
    assert_false(bw_console_csrf_ok(k1, sizeof k1, a, NULL));
    assert_false(bw_console_csrf_ok(k1, sizeof k1, a, ""));
    char flip[BW_CONSOLE_CSRF_LEN + 1];
    memcpy(flip, ta, sizeof flip);
    flip[10] = flip[10] == 'A' ? 'B' : 'A';
    assert_false(bw_console_csrf_ok(k1, sizeof k1, a, flip));
}

static void test_accept_encoding(void **state)
{
    (void)state;
    assert_false(bw_accepts_gzip(NULL));
    assert_false(bw_accepts_gzip(""));
    assert_false(bw_accepts_gzip("identity"));
    assert_false(bw_accepts_gzip("br, deflate"));
    assert_true(bw_accepts_gzip("gzip"));
    assert_true(bw_accepts_gzip("gzip, deflate, br, zstd"));
    assert_true(bw_accepts_gzip("br;q=1.0, GZIP;q=0.5"));
    assert_true(bw_accepts_gzip("x-gzip"));
    assert_true(bw_accepts_gzip("*"));
    assert_false(bw_accepts_gzip("gzip;q=0"));
    assert_false(bw_accepts_gzip("gzip; q=0.000, br"));
    assert_true(bw_accepts_gzip("gzip;q=0.001"));
    assert_false(bw_accepts_gzip("*, gzip;q=0")); /* refused by name beats the wildcard */
    assert_false(bw_accepts_gzip("*;q=0"));
    assert_false(bw_accepts_gzip("gzipx, xgzip"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cookie_found_among_others),
        cmocka_unit_test(test_cookie_absent_or_bad),
        cmocka_unit_test(test_ids_and_hashes),
        cmocka_unit_test(test_csrf_is_bound_to_session_and_key),
        cmocka_unit_test(test_accept_encoding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
