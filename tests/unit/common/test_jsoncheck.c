/* Checking string members of untrusted JSON and the entries of embedded catalogs
 * (src/common/jsoncheck.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/jsoncheck.h"

#include <stdlib.h>
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

/* A catalog's own entry struct, the id not its first member. */
struct entry {
    int kind;
    char *id;
};

/* The message bw_cerr_entry gives for the JSON text j after the entries earlier, or "" when it
 * accepts it (the copied id then checked). */
static const char *entry(const char *j, bool all_required, const char *chars, struct entry *earlier, size_t n)
{
    static char msg[160];
    struct bw_cerr e = {msg, sizeof msg};
    static const char *const KEYS[] = {"id", "title", NULL};
    struct bw_cerr_ids ids = {earlier, n, sizeof *earlier, offsetof(struct entry, id)};
    json_t *o = json_loads(j, 0, NULL);
    char *id = NULL;
    msg[0] = '\0';
    bool ok = bw_cerr_entry(o, KEYS, all_required, "things[3]", chars, &ids, &id, &e);
    if (ok)
        assert_string_equal(id, json_string_value(json_object_get(o, "id")));
    assert_true(ok == (msg[0] == '\0'));
    free(id);
    json_decref(o);
    return msg;
}

static void test_catalog_entry(void **state)
{
    (void)state;
    struct entry earlier[] = {{1, "read_files"}, {2, NULL}, {3, "send_email"}};
    const char *snake = "abcdefghijklmnopqrstuvwxyz_";
    assert_string_equal(entry("{\"id\":\"run_code\",\"title\":\"t\"}", true, snake, earlier, 3), "");
    assert_string_equal(entry("{\"id\":\"run_code\"}", false, snake, earlier, 3), "");
    assert_string_equal(entry("{\"id\":\"run_code\"}", true, snake, earlier, 3),
                        "things[3]: member \"title\" is missing");
    assert_string_equal(entry("{\"id\":\"run_code\",\"titel\":\"t\"}", false, snake, earlier, 3),
                        "things[3]: unknown member \"titel\"");
    assert_string_equal(entry("[]", false, snake, earlier, 3), "things[3] must be an object");
    assert_string_equal(entry("{\"id\":\"\"}", false, snake, earlier, 3), "things[3].id must be a non-empty string");
    assert_string_equal(entry("{\"id\":7}", false, snake, earlier, 3), "things[3].id must be a non-empty string");
    assert_string_equal(entry("{\"id\":\"Run-Code\"}", false, snake, earlier, 3),
                        "things[3].id \"Run-Code\" must be lower_snake_case");
    assert_string_equal(entry("{\"id\":\"gpai2\"}", false, snake, earlier, 3), "things[3].id \"gpai2\" must be lower_snake_case");
    assert_string_equal(entry("{\"id\":\"gpai2\"}", false, "abcdefghijklmnopqrstuvwxyz0123456789_", earlier, 3), "");
    assert_string_equal(entry("{\"id\":\"Any Text\"}", false, NULL, earlier, 3), "");
    /* an id of an earlier entry, found through the entry's own struct; a slot without one skipped */
    assert_string_equal(entry("{\"id\":\"send_email\"}", false, snake, earlier, 3),
                        "things[3].id \"send_email\" is used twice");
    assert_string_equal(entry("{\"id\":\"send_email\"}", false, snake, earlier, 2), "");
    assert_string_equal(entry("{\"id\":\"read_files\"}", false, snake, NULL, 0), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_string),
        cmocka_unit_test(test_catalog_entry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
