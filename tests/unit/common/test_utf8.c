/* UTF-8 helpers (src/common/utf8.c): well-formedness as strict as jansson, and JSON strings of
 * text that is not UTF-8 (Latin-1 file names and source lines). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

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
        cmocka_unit_test(json_replaces_each_bad_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
