/* Keyset cursors (src/common/cursor.c): round trips, binding to list/sort/filters, forgery. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/cursor.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

static const unsigned char KEY[BW_CURSOR_KEY_BYTES] = "0123456789abcdef0123456789abcde";
static const unsigned char OTHER_KEY[BW_CURSOR_KEY_BYTES] = "0123456789abcdef0123456789abcdX";

static int setup(void **state)
{
    (void)state;
    return sodium_init() < 0 ? -1 : 0;
}

static void test_roundtrip_int_and_text(void **state)
{
    (void)state;
    char text[BW_CURSOR_MAX + 1];
    struct bw_cursor c = {.list = BW_CURSOR_ASSETS, .key_int = -1234567890123LL}, back;
    snprintf(c.id, sizeof c.id, "ast_0123456789abcdefABCDEF");
    int n = bw_cursor_encode(KEY, &c, "type=model", text, sizeof text);
    assert_true(n > 0);
    assert_int_equal((size_t)n, strlen(text));
    assert_null(strpbrk(text, "+/=")); /* base64url without padding: safe in a query string */
    assert_int_equal(bw_cursor_decode(KEY, text, BW_CURSOR_ASSETS, 0, "type=model", &back), BW_CURSOR_OK);
    assert_false(back.text);
    assert_true(back.key_int == c.key_int);
    assert_string_equal(back.id, c.id);

    struct bw_cursor t = {.list = BW_CURSOR_FEED, .sort = 2, .text = true};
    snprintf(t.key_text, sizeof t.key_text, "2024-05-01T00:00:00Z");
    snprintf(t.id, sizeof t.id, "CVE-2024-0001");
    assert_true(bw_cursor_encode(KEY, &t, "", text, sizeof text) > 0);
    assert_int_equal(bw_cursor_decode(KEY, text, BW_CURSOR_FEED, 2, "", &back), BW_CURSOR_OK);
    assert_true(back.text);
    assert_string_equal(back.key_text, t.key_text);
    assert_string_equal(back.id, t.id);
}

static void test_largest_fits(void **state)
{
    (void)state;
    struct bw_cursor c = {.list = BW_CURSOR_FEED, .text = true}, back;
    memset(c.key_text, 'k', BW_CURSOR_TEXT_MAX);
    memset(c.id, 'i', BW_CURSOR_ID_MAX);
    char text[BW_CURSOR_MAX + 1];
    int n = bw_cursor_encode(KEY, &c, "", text, sizeof text);
    assert_true(n > 0 && n <= BW_CURSOR_MAX);
    assert_int_equal(bw_cursor_decode(KEY, text, BW_CURSOR_FEED, 0, "", &back), BW_CURSOR_OK);
    assert_string_equal(back.key_text, c.key_text);
    /* too small a buffer, an empty id, an over-long key: refused, not cut */
    assert_int_equal(bw_cursor_encode(KEY, &c, "", text, 100), -1);
    struct bw_cursor empty = {.list = BW_CURSOR_FEED};
    assert_int_equal(bw_cursor_encode(KEY, &empty, "", text, sizeof text), -1);
    struct bw_cursor et = {.list = BW_CURSOR_FEED, .text = true, .id = "x"};
    assert_int_equal(bw_cursor_encode(KEY, &et, "", text, sizeof text), -1);
}

/* The same cursor with other filters, another sort or another list is OTHER_QUERY; with another
 * key it is not ours at all. */
static void test_bound_to_its_query(void **state)
{
    (void)state;
    char text[BW_CURSOR_MAX + 1];
    struct bw_cursor c = {.list = BW_CURSOR_FEED, .sort = 0, .text = true, .key_text = "2024", .id = "A"}, back;
    assert_true(bw_cursor_encode(KEY, &c, "type=ai_cve&severity=", text, sizeof text) > 0);
    assert_int_equal(bw_cursor_decode(KEY, text, BW_CURSOR_FEED, 0, "type=ai_cve&severity=", &back), BW_CURSOR_OK);
    assert_int_equal(bw_cursor_decode(KEY, text, BW_CURSOR_FEED, 0, "type=ai_cve&severity=HIGH", &back),
                     BW_CURSOR_OTHER_QUERY);
    assert_int_equal(bw_cursor_decode(KEY, text, BW_CURSOR_FEED, 0, "", &back), BW_CURSOR_OTHER_QUERY);
    assert_int_equal(bw_cursor_decode(KEY, text, BW_CURSOR_FEED, 1, "type=ai_cve&severity=", &back),
                     BW_CURSOR_OTHER_QUERY);
    assert_int_equal(bw_cursor_decode(KEY, text, BW_CURSOR_ASSETS, 0, "type=ai_cve&severity=", &back),
                     BW_CURSOR_OTHER_QUERY);
    assert_string_equal(back.id, ""); /* nothing is handed out on a refusal */
    assert_int_equal(bw_cursor_decode(OTHER_KEY, text, BW_CURSOR_FEED, 0, "type=ai_cve&severity=", &back),
                     BW_CURSOR_INVALID);
}

/* Every single-character change of a cursor, and every cut, is refused. */
static void test_tamper(void **state)
{
    (void)state;
    char text[BW_CURSOR_MAX + 1], t2[BW_CURSOR_MAX + 1];
    struct bw_cursor c = {.list = BW_CURSOR_PLAYBOOKS, .key_int = 1700000000000000LL, .id = "pbk_abc"}, back;
    int n = bw_cursor_encode(KEY, &c, "", text, sizeof text);
    assert_true(n > 0);
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (int i = 0; i < n; i++) {
        for (const char *a = alphabet; *a; a++) {
            if (*a == text[i])
                continue;
            memcpy(t2, text, (size_t)n + 1);
            t2[i] = *a;
            enum bw_cursor_rc rc = bw_cursor_decode(KEY, t2, BW_CURSOR_PLAYBOOKS, 0, "", &back);
            /* the last character carries 2 unused bits in base64url; libsodium refuses them set */
            assert_int_equal(rc, BW_CURSOR_INVALID);
        }
    }
    for (int cut = 0; cut < n; cut++) {
        memcpy(t2, text, (size_t)cut);
        t2[cut] = '\0';
        assert_int_equal(bw_cursor_decode(KEY, t2, BW_CURSOR_PLAYBOOKS, 0, "", &back), BW_CURSOR_INVALID);
    }
    /* a byte outside base64url where the text had '_' or any other letter: refused, though
     * libsodium 1.0.18 alone would decode some of them (0xe9) as '_' */
    for (int i = 0; i < n; i++)
        for (size_t k = 0; k < 4; k++) {
            static const unsigned char high[] = {0x80, 0xbf, 0xe9, 0xff};
            memcpy(t2, text, (size_t)n + 1);
            t2[i] = (char)high[k];
            assert_int_equal(bw_cursor_decode(KEY, t2, BW_CURSOR_PLAYBOOKS, 0, "", &back), BW_CURSOR_INVALID);
        }
    /* a cursor with '_' in it (0xff bytes: a negative key): each '_' spelt 0xe9 is refused */
    struct bw_cursor neg = {.list = BW_CURSOR_PLAYBOOKS, .key_int = -5, .id = "pbk_x"};
    n = bw_cursor_encode(KEY, &neg, "", text, sizeof text);
    assert_non_null(strchr(text, '_'));
    assert_int_equal(bw_cursor_decode(KEY, text, BW_CURSOR_PLAYBOOKS, 0, "", &back), BW_CURSOR_OK);
    for (int i = 0; i < n; i++) {
        if (text[i] != '_')
            continue;
        memcpy(t2, text, (size_t)n + 1);
        t2[i] = (char)0xe9;
        assert_int_equal(bw_cursor_decode(KEY, t2, BW_CURSOR_PLAYBOOKS, 0, "", &back), BW_CURSOR_INVALID);
    }
    const char *junk[] = {"", "=", "abc", "a+b/c==", "%00", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"};
    for (size_t i = 0; i < sizeof junk / sizeof *junk; i++)
        assert_int_equal(bw_cursor_decode(KEY, junk[i], BW_CURSOR_PLAYBOOKS, 0, "", &back), BW_CURSOR_INVALID);
    char longer[BW_CURSOR_MAX + 2];
    memset(longer, 'A', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    assert_int_equal(bw_cursor_decode(KEY, longer, BW_CURSOR_PLAYBOOKS, 0, "", &back), BW_CURSOR_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_int_and_text),
        cmocka_unit_test(test_largest_fits),
        cmocka_unit_test(test_bound_to_its_query),
        cmocka_unit_test(test_tamper),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
