/* UTF-8 helpers (src/common/utf8.c): well-formedness as strict as jansson, and JSON strings of
 * text that is not UTF-8 (Latin-1 file names and source lines). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/log.h"
#include "common/utf8.h"

#include <string.h>

static void valid_is_as_strict_as_jansson(void **state)
{
    (void)state;
    const char *good[] = {"", "abc", "\xC3\xA4", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xEF\xBF\xBD"};
    const char *bad[] = {"\xE9", "a\xC3", "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\x80"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        assert_true(bw_utf8_valid(good[i], strlen(good[i])));
        json_t *j = json_string(good[i]);
        assert_non_null(j);
        json_decref(j);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_false(bw_utf8_valid(bad[i], strlen(bad[i])));
        assert_null(json_string(bad[i])); /* what bw_utf8_json is for */
    }
}

/* The eight-bytes-at-a-time ASCII path: a bad or a good sequence at every offset of a long ASCII
 * run, and at its end, is judged as the byte-by-byte walk judges it (against jansson). */
static void valid_after_ascii_runs(void **state)
{
    (void)state;
    const char *seqs[] = {"\xE9", "\xC3\xA4", "\xE2\x82", "\xF0\x9F\x98\x80", "\xED\xA0\x80", "\x80", "\xC3"};
    char buf[64];
    for (size_t k = 0; k < sizeof seqs / sizeof *seqs; k++)
        for (size_t at = 0; at < 24; at++)
            for (size_t tail = 0; tail < 10; tail += 9) {
                size_t sl = strlen(seqs[k]), n = at + sl + tail;
                memset(buf, 'a', sizeof buf);
                memcpy(buf + at, seqs[k], sl);
                buf[n] = '\0';
                json_t *j = json_string(buf);
                assert_int_equal(bw_utf8_valid(buf, n), j != NULL);
                json_decref(j);
            }
}

/* The access log's escaper: a percent-decoded path may hold any bytes (C0 AE is the classic
 * overlong '.'); every line must stay valid UTF-8 JSON, and truncation never splits a character
 * or an escape. */
static void log_escape_is_utf8(void **state)
{
    (void)state;
    char out[64];
    size_t n = 0;
    bw_json_escape(out, &n, sizeof out, "/a\xC0\xAE/\xC3\xA4\"\\\x01\xE2\x82");
    out[n] = '\0';
    assert_string_equal(out, "/a\xEF\xBF\xBD\xEF\xBF\xBD/\xC3\xA4\\\"\\\\\\u0001\xEF\xBF\xBD\xEF\xBF\xBD");
    assert_true(bw_utf8_valid(out, n));
    json_error_t e;
    char doc[80];
    snprintf(doc, sizeof doc, "\"%s\"", out);
    json_t *j = json_loads(doc, JSON_DECODE_ANY, &e);
    assert_non_null(j);
    json_decref(j);
    /* cut short: whole characters only, for every capacity */
    for (size_t cap = 1; cap < 16; cap++) {
        n = 0;
        bw_json_escape(out, &n, cap, "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\"\xFF");
        assert_true(n < cap);
        assert_true(bw_utf8_valid(out, n));
        assert_true(n == 0 || n == 3 || n == 6 || n == 9 || n == 11 || n == 14);
    }
}

static void json_replaces_each_bad_byte(void **state)
{
    (void)state;
    json_t *j = bw_utf8_json("caf\xE9 \xC3\xA4 \xE2\x82");
    assert_non_null(j);
    assert_string_equal(json_string_value(j), "caf\xEF\xBF\xBD \xC3\xA4 \xEF\xBF\xBD\xEF\xBF\xBD");
    json_decref(j);
    j = bw_utf8_json("plain");
    assert_string_equal(json_string_value(j), "plain");
    json_decref(j);
    assert_null(bw_utf8_json(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valid_is_as_strict_as_jansson),
        cmocka_unit_test(valid_after_ascii_runs),
        cmocka_unit_test(json_replaces_each_bad_byte),
        cmocka_unit_test(log_escape_is_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
