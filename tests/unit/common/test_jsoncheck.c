/* Checking string members of untrusted JSON (src/common/jsoncheck.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/jsoncheck.h"

#include <string.h>

static void test_check_string(void **state)
{
    (void)state;
    json_t *o = json_pack("{s:s,s:s,s:i,s:n,s:s}", "name", "caf\xc3\xa9", "empty", "", "num", 3, "nul", "wide",
                          "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac");
    assert_non_null(o);
    const char *s = "x";
    char m[64];
    /* present and acceptable: borrowed from the document */
    assert_true(bw_json_check_string(o, "name", true, true, 4, &s, m, sizeof m));
    assert_string_equal(s, "caf\xc3\xa9");
    assert_ptr_equal(s, json_string_value(json_object_get(o, "name")));
    /* limits count characters, not bytes */
    assert_true(bw_json_check_string(o, "wide", true, true, 3, &s, m, sizeof m));
    assert_false(bw_json_check_string(o, "wide", true, true, 2, &s, m, sizeof m));
    assert_null(s);
    assert_string_equal(m, "must be at most 2 characters");
    /* absent or null: fine unless required */
    assert_true(bw_json_check_string(o, "missing", false, true, 10, &s, m, sizeof m));
    assert_null(s);
    assert_true(bw_json_check_string(o, "nul", false, true, 10, &s, m, sizeof m));
    assert_null(s);
    assert_false(bw_json_check_string(o, "nul", true, true, 10, &s, m, sizeof m));
    assert_string_equal(m, "is required");
    assert_false(bw_json_check_string(NULL, "name", true, true, 10, &s, m, sizeof m));
    assert_string_equal(m, "is required");
    /* wrong type, empty */
    assert_false(bw_json_check_string(o, "num", false, false, 10, &s, m, sizeof m));
    assert_string_equal(m, "must be a string");
    assert_false(bw_json_check_string(o, "empty", false, true, 10, &s, m, sizeof m));
    assert_string_equal(m, "must not be empty");
    assert_true(bw_json_check_string(o, "empty", true, false, 10, &s, m, sizeof m));
    assert_string_equal(s, "");
    json_decref(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
