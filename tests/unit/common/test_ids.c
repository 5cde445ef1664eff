/* Resource ids, request ids (src/common/ids.c) and ISO 8601 times (src/common/timeutil.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/ids.h"
#include "common/timeutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_b62(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static void test_id_new_shape(void **state)
{
    (void)state;
    const char *prefixes[] = {"usr_", "key_", "tok_", "x", ""};
    for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++) {
        char id[BW_ID_MAX];
        memset(id, 'Z', sizeof id);
        bw_id_new(prefixes[p], id);
        size_t pl = strlen(prefixes[p]);
        assert_int_equal(strlen(id), pl + BW_ID_RANDOM_LEN);
        assert_memory_equal(id, prefixes[p], pl);
        for (size_t i = pl; i < pl + BW_ID_RANDOM_LEN; i++)
            assert_true(is_b62(id[i]));
        if (pl)
            assert_true(bw_id_valid(id, prefixes[p]));
    }
    /* the longest allowed prefix (15) fits with the NUL */
    char id[BW_ID_MAX];
    bw_id_new("abcdefghijklmn_", id);
    assert_int_equal(strlen(id), 15 + 22);
    assert_true(bw_id_valid(id, "abcdefghijklmn_"));
}

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

static void test_id_new_unique(void **state)
{
    (void)state;
    enum { N = 2000 };
    char(*ids)[BW_ID_MAX] = calloc(N, sizeof *ids);
    assert_non_null(ids);
    for (int i = 0; i < N; i++)
        bw_id_new("usr_", ids[i]);
    qsort(ids, N, sizeof *ids, cmp_str);
    for (int i = 1; i < N; i++)
        assert_string_not_equal(ids[i - 1], ids[i]);
    /* all 62 characters show up over 44000 random characters */
    int seen[256] = {0};
    for (int i = 0; i < N; i++)
        for (int k = 4; k < 26; k++)
            seen[(unsigned char)ids[i][k]] = 1;
    int distinct = 0;
    for (int c = 0; c < 256; c++)
        distinct += seen[c];
    assert_int_equal(distinct, 62);
    free(ids);
}

static void test_id_valid(void **state)
{
    (void)state;
    assert_true(bw_id_valid("usr_a", "usr_"));
    assert_true(bw_id_valid("usr_0123456789ABCDEFGHIJkl", "usr_"));
    char forty[64] = "usr_", fortyone[64] = "usr_";
    memset(forty + 4, 'x', 40);
    forty[44] = '\0';
    memset(fortyone + 4, 'x', 41);
    fortyone[45] = '\0';
    assert_true(bw_id_valid(forty, "usr_"));
    assert_false(bw_id_valid(fortyone, "usr_"));

    const char *bad[] = {
        "usr_",                        /* nothing after the prefix */
        "usr",                         /* shorter than the prefix */
        "",                            /* empty */
        "key_0123456789ABCDEFGHIJkl", /* other prefix */
        "USR_0123456789ABCDEFGHIJkl", /* prefix is case-sensitive */
        "usr_0123456789-ABCDEFGHIJ",  /* '-' is not base62 */
        "usr_0123456789_ABCDEFGHIJ",  /* nor '_' */
        "usr_abc def",
        "usr_abc/../x",
        "usr_abc\n",
        "usr_\xc3\xa9t\xc3\xa9",
        " usr_abc",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (bw_id_valid(bad[i], "usr_"))
            fail_msg("'%s' accepted as a usr_ id", bad[i]);
}

static void test_request_id(void **state)
{
    (void)state;
    char out[65];
    bw_request_id("abc-DEF_12.3", out);
    assert_string_equal(out, "abc-DEF_12.3");
    char max[65];
    memset(max, 'r', 64);
    max[64] = '\0';
    bw_request_id(max, out);
    assert_string_equal(out, max);

    /* replaced: too long, empty, bad characters, NULL */
    char toolong[66];
    memset(toolong, 'r', 65);
    toolong[65] = '\0';
    const char *bad[] = {toolong, "", "a b", "a\"b", "a\nb", "<script>", NULL};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(out, 0, sizeof out);
        bw_request_id(bad[i], out);
        assert_int_equal(strlen(out), 24);
        assert_memory_equal(out, "req_", 4);
        for (int k = 4; k < 24; k++)
            assert_non_null(strchr("0123456789abcdef", out[k]));
    }
    char a[65], b[65];
    bw_request_id(NULL, a);
    bw_request_id(NULL, b);
    assert_string_not_equal(a, b);
}

static void test_iso8601_format(void **state)
{
    (void)state;
    char out[21];
    bw_iso8601(0, out);
    assert_string_equal(out, "1970-01-01T00:00:00Z");
    bw_iso8601(1767225600, out);
    assert_string_equal(out, "2026-01-01T00:00:00Z");
    bw_iso8601(951782400, out); /* leap day of a century divisible by 400 */
    assert_string_equal(out, "2000-02-29T00:00:00Z");
    bw_iso8601(1709251199, out);
    assert_string_equal(out, "2024-02-29T23:59:59Z");
    bw_iso8601(253402300799LL, out);
    assert_string_equal(out, "9999-12-31T23:59:59Z");
}

static void test_iso8601_roundtrip(void **state)
{
    (void)state;
    int64_t samples[] = {0, 1, 59, 60, 86399, 86400, 951782400, 1709251199, 1767225600,
                         1798761599, 4102444800LL, 253402300799LL};
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        char out[21];
        bw_iso8601(samples[i], out);
        int64_t back = -1;
        assert_int_equal(bw_parse_iso8601(out, &back), 0);
        assert_int_equal(back, samples[i]);
    }
    /* pseudo-random seconds across 1970..2100 */
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 5000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int64_t t = (int64_t)(x % 4102444800ull);
        char out[21];
        bw_iso8601(t, out);
        int64_t back = -1;
        assert_int_equal(bw_parse_iso8601(out, &back), 0);
        assert_int_equal(back, t);
    }
    int64_t v;
    assert_int_equal(bw_parse_iso8601("2024-02-29T12:34:56Z", &v), 0);
    assert_int_equal(v, 1709210096);
}

static void test_iso8601_rejects(void **state)
{
    (void)state;
    const char *bad[] = {
        "",
        "2026-01-01",
        "2026-01-01T00:00:00",   /* no Z */
        "2026-01-01T00:00:00z",  /* lower-case z */
        "2026-01-01T00:00:00ZZ", /* trailing */
        "2026-01-01T00:00:00+00:00",
        "2026-01-01T00:00:00.000Z",
        "2026-01-01 00:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-00-01T00:00:00Z",
        "2026-01-00T00:00:00Z",
        "2026-01-32T00:00:00Z",
        "2026-01-01T24:00:00Z",
        "2026-01-01T23:60:00Z",
        "2026-1-01T00:00:00Z0",
        "+026-01-01T00:00:00Z",
        "-001-01-01T00:00:00Z",
        "abcd-ef-ghTij:kl:mnZ",
        "20260101T000000Z",
        " 2026-01-01T00:00:00Z",
        "2026-01-01T00:00:0 Z",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int64_t v = 12345;
        if (bw_parse_iso8601(bad[i], &v) != -1)
            fail_msg("'%s' parsed as %lld", bad[i], (long long)v);
        assert_int_equal(v, 12345); /* untouched on failure */
    }
    int64_t v;
    assert_int_equal(bw_parse_iso8601(NULL, &v), -1);
}

/* Regression (src/common/timeutil.c, bw_parse_iso8601): glibc strptime checks each field's range
 * only (day 1..31, second 0..61) and skips spaces before numbers, and timegm then normalises, so
 * dates that do not exist and non-canonical spellings are accepted as other instants. */
static void test_iso8601_rejects_impossible_dates(void **state)
{
    (void)state;
    const char *bad[] = {
        "2026-02-30T00:00:00Z", /* -> 2026-03-02 */
        "2026-02-29T00:00:00Z", /* not a leap year -> 2026-03-01 */
        "2026-04-31T00:00:00Z", /* -> 2026-05-01 */
        "2026-01-01T23:59:60Z", /* -> 2026-01-02T00:00:00Z */
        "2026-01-01T23:59:61Z",
        "2026-01-01T 0:00:00Z", /* space instead of a digit */
        "2026- 1-01T00:00:00Z",
        "2026-01-01T00:00: 1Z",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int64_t v = 0;
        if (bw_parse_iso8601(bad[i], &v) != -1)
            fail_msg("'%s' parsed as %lld", bad[i], (long long)v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_id_new_shape),
        cmocka_unit_test(test_id_new_unique),
        cmocka_unit_test(test_id_valid),
        cmocka_unit_test(test_request_id),
        cmocka_unit_test(test_iso8601_format),
        cmocka_unit_test(test_iso8601_roundtrip),
        cmocka_unit_test(test_iso8601_rejects),
        cmocka_unit_test(test_iso8601_rejects_impossible_dates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
