/* Request framing checks and the forwarded client address (src/http/framing.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "http/framing.h"

#include <stdio.h>
#include <string.h>

/* Checks the framing of a header list ("Name", "value", ..., NULL); returns the field at fault or
 * NULL when the request may be read. */
static const char *verdict(int http11, ...)
{
    static struct bw_framing f;
    memset(&f, 0, sizeof f);
    va_list ap;
    va_start(ap, http11);
    for (const char *n; (n = va_arg(ap, const char *));)
        bw_framing_add(&f, n, va_arg(ap, const char *));
    va_end(ap);
    const char *field = NULL, *why = NULL;
    if (bw_framing_check(&f, http11 != 0, &field, &why) == BW_OK)
        return NULL;
    assert_non_null(why);
    return field;
}

static void framing_verdicts(void **state)
{
    (void)state;
    assert_null(verdict(1, "Host", "x", NULL));
    assert_null(verdict(0, NULL)); /* HTTP/1.0 health checks send no Host */
    assert_null(verdict(1, "host", "x", "content-length", "12", NULL));
    assert_null(verdict(1, "Host", "x", "Transfer-Encoding", "CHUNKED", NULL));
    assert_string_equal(verdict(1, NULL), "Host");
    assert_string_equal(verdict(1, "Host", "a", "HOST", "b", NULL), "Host");
    assert_string_equal(verdict(0, "Host", "a", "Host", "a", NULL), "Host");
    assert_string_equal(verdict(1, "Host", "x", "Content-Length", "2", "Content-Length", "60", NULL), "Content-Length");
    assert_string_equal(verdict(1, "Host", "x", "Content-Length", "2", "Content-Length", "2", NULL), "Content-Length");
    const char *bad_cl[] = {"", "+5", "-1", "5, 5", " 5", "0x10", "5 "};
    for (size_t i = 0; i < sizeof bad_cl / sizeof *bad_cl; i++)
        assert_string_equal(verdict(1, "Host", "x", "Content-Length", bad_cl[i], NULL), "Content-Length");
    assert_string_equal(verdict(1, "Host", "x", "Content-Length", "5", "Transfer-Encoding", "chunked", NULL),
                        "Transfer-Encoding");
    const char *bad_te[] = {"xchunked", "chunked, identity", "gzip, chunked", "chunked ", " chunked", "identity", ""};
    for (size_t i = 0; i < sizeof bad_te / sizeof *bad_te; i++)
        assert_string_equal(verdict(1, "Host", "x", "Transfer-Encoding", bad_te[i], NULL), "Transfer-Encoding");
    assert_string_equal(verdict(1, "Host", "x", "Transfer-Encoding", "chunked", "Transfer-Encoding", "chunked", NULL),
                        "Transfer-Encoding");
    assert_string_equal(verdict(0, "Transfer-Encoding", "chunked", NULL), "Transfer-Encoding");
    assert_string_equal(verdict(1, "Host ", "x", NULL), "headers");
    assert_string_equal(verdict(1, "Host", "x", "Content-Length ", "5", NULL), "headers");
    assert_string_equal(verdict(1, "Host", "x", "X\tA", "1", NULL), "headers");
}

static void xff_lines_joined_and_bounded(void **state)
{
    (void)state;
    struct bw_framing f;
    memset(&f, 0, sizeof f);
    bw_framing_add(&f, "X-Forwarded-For", "6.6.6.6");
    bw_framing_add(&f, "x-forwarded-for", "9.9.9.9");
    assert_string_equal(f.xff, "6.6.6.6, 9.9.9.9");
    assert_false(f.xff_too_long);
    /* past the bound: refused as a whole, never cut */
    char big[BW_MAX_FORWARDED_FOR];
    memset(big, '1', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    bw_framing_add(&f, "X-Forwarded-For", big);
    assert_true(f.xff_too_long);
    const char *field = NULL, *why = NULL;
    bw_framing_add(&f, "Host", "x");
    assert_int_equal(bw_framing_check(&f, true, &field, &why), BW_E_VALIDATION_ERROR);
    assert_string_equal(field, "X-Forwarded-For");
    /* header fields past BW_MAX_HEADER_BYTES: 431 */
    struct bw_framing g;
    memset(&g, 0, sizeof g);
    static char v[1024];
    memset(v, 'v', sizeof v - 1);
    for (int i = 0; i < 31; i++)
        bw_framing_add(&g, "X-Pad", v);
    assert_int_equal(bw_framing_check(&g, false, &field, &why), BW_OK);
    bw_framing_add(&g, "X-Pad", v);
    assert_int_equal(bw_framing_check(&g, false, &field, &why), BW_E_HEADERS_TOO_LARGE);
}

static const char *client(const char *xff)
{
    static const char trusted[3][64] = {"127.0.0.1", "10.0.0.7", "::1"};
    static char out[64];
    return bw_forwarded_client(xff, strlen(xff), trusted, 3, out, sizeof out) ? out : NULL;
}

static void forwarded_client(void **state)
{
    (void)state;
    assert_string_equal(client("9.9.9.9"), "9.9.9.9");
    assert_string_equal(client("6.6.6.6, 9.9.9.9"), "9.9.9.9");
    assert_string_equal(client("6.6.6.6, 9.9.9.9, 10.0.0.7"), "9.9.9.9");
    assert_string_equal(client("6.6.6.6,9.9.9.9,10.0.0.7,127.0.0.1"), "9.9.9.9");
    assert_string_equal(client(" 9.9.9.9 ,\t,, 10.0.0.7 "), "9.9.9.9");
    assert_string_equal(client("9.9.9.9:4711"), "9.9.9.9");
    assert_string_equal(client("[2001:DB8::1]:443"), "2001:db8::1");
    assert_string_equal(client("2001:db8:0::1"), "2001:db8::1");
    assert_string_equal(client("::ffff:9.9.9.9"), "9.9.9.9"); /* one address, one spelling */
    assert_string_equal(client("1.1.1.1, ::ffff:10.0.0.7"), "1.1.1.1"); /* a trusted proxy, mapped */
    assert_string_equal(client("1.1.1.1, [::1]"), "1.1.1.1");
    /* the nearest untrusted hop is not an address: nothing is believed */
    assert_null(client("9.9.9.9, unknown"));
    assert_null(client("9.9.9.9, 10.0.0.7, 999.1.1.1"));
    assert_null(client("[::1"));
    assert_null(client("1.2.3.4:5:6"));
    /* only proxies, or nothing at all */
    assert_null(client("10.0.0.7, 127.0.0.1"));
    assert_null(client(""));
    assert_null(client(" , ,"));
    /* a forged hop left of a real one never wins */
    assert_string_equal(client("127.0.0.1, 9.9.9.9"), "9.9.9.9");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(framing_verdicts),
        cmocka_unit_test(xff_lines_joined_and_bounded),
        cmocka_unit_test(forwarded_client),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
