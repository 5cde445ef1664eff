/* Write-only JSON trees in an arena (src/common/jtree.c): the same tree built with jansson and
 * written by bw_json_write gives the same bytes; reading back, capacity past a chunk, and the
 * NULL and wrong-kind cases the playbook generator relies on. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/jsonx.h"
#include "common/jtree.h"
#include "common/limits.h"
#include "common/sbuf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *jt_text(const struct bw_jt *v, int precision)
{
    struct bw_sb b = {0};
    if (!bw_jt_write(&b, v, precision)) {
        free(b.p);
        return NULL;
    }
    return bw_sb_take(&b);
}

/* Every kind, escapes at the edges of strings, an embedded NUL, reals that jansson writes with
 * ".0" or an exponent, nesting and empty containers, members in insertion order. */
static void same_bytes_as_jansson(void **state)
{
    (void)state;
    struct bw_jt_arena a = {0};
    static const char nul[] = "a\0b";
    const char *strs[] = {"", "plain", "\"quoted\"", "back\\slash", "\x01\x1f ctl", "tab\there\n", "caf\xC3\xA9 \xE2\x82\xAC",
                          "/slash/", "exactly8", "seventeen bytes!!\""};
    double reals[] = {0.0, 9.8, 1e22, 1.5e-7, -2.0, 123456789.123, 0.1 + 0.2};
    json_t *j = json_object(), *ja = json_array();
    struct bw_jt *t = bw_jt_object(&a), *ta = bw_jt_array(&a);
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        json_array_append_new(ja, json_string(strs[i]));
        assert_true(bw_jt_append(ta, bw_jt_string(&a, strs[i])));
    }
    json_array_append_new(ja, json_stringn(nul, 3));
    assert_true(bw_jt_append(ta, bw_jt_stringn(&a, nul, 3)));
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++) {
        json_array_append_new(ja, json_real(reals[i]));
        assert_true(bw_jt_append(ta, bw_jt_real(&a, reals[i])));
    }
    json_object_set_new(j, "strings", ja);
    assert_true(bw_jt_set(t, "strings", ta));
    json_object_set_new(j, "int", json_integer(INT64_MIN));
    assert_true(bw_jt_set(t, "int", bw_jt_int(&a, INT64_MIN)));
    json_object_set_new(j, "yes", json_true());
    assert_true(bw_jt_set(t, "yes", bw_jt_bool(&a, true)));
    json_object_set_new(j, "no", json_false());
    assert_true(bw_jt_set(t, "no", bw_jt_bool(&a, false)));
    json_object_set_new(j, "nothing", json_null());
    assert_true(bw_jt_set(t, "nothing", bw_jt_null(&a)));
    json_object_set_new(j, "empty", json_object());
    assert_true(bw_jt_set(t, "empty", bw_jt_object(&a)));
    json_object_set_new(j, "none", json_array());
    assert_true(bw_jt_set(t, "none", bw_jt_array(&a)));
    const char key[] = "k\"ey\x02";
    json_object_setn_new(j, key, sizeof key - 1, json_pack("{s:[i,{s:s}]}", "deep", 1, "x", "y"));
    struct bw_jt *deep = bw_jt_object(&a), *arr = bw_jt_array(&a), *in = bw_jt_object(&a);
    assert_true(bw_jt_set(in, "x", bw_jt_string(&a, "y")));
    assert_true(bw_jt_append(arr, bw_jt_int(&a, 1)));
    assert_true(bw_jt_append(arr, in));
    assert_true(bw_jt_set(deep, "deep", arr));
    assert_true(bw_jt_setn_copy(&a, t, key, sizeof key - 1, deep));
    assert_false(a.oom);

    for (int p = 0; p <= 17; p += 5) {
        char *want = bw_json_dump(j, p, NULL), *got = jt_text(t, p);
        assert_non_null(want);
        assert_non_null(got);
        assert_string_equal(got, want);
        free(want);
        free(got);
    }
    json_decref(j);
    bw_jt_arena_free(&a);
    assert_null(a.chunks);
}

static void reading_back(void **state)
{
    (void)state;
    struct bw_jt_arena a = {0};
    struct bw_jt *o = bw_jt_object(&a), *arr = bw_jt_array(&a);
    assert_true(bw_jt_set(o, "name", bw_jt_string(&a, "first")));
    assert_true(bw_jt_set(o, "name2", bw_jt_string(&a, "second")));
    assert_string_equal(bw_jt_str(bw_jt_get(o, "name")), "first");
    assert_string_equal(bw_jt_str(bw_jt_get(o, "name2")), "second");
    assert_null(bw_jt_get(o, "nam"));
    assert_null(bw_jt_get(arr, "name"));
    assert_int_equal(bw_jt_size(o), 2);
    assert_int_equal(bw_jt_size(arr), 0);
    assert_int_equal(bw_jt_size(bw_jt_get(o, "name")), 0);
    assert_null(bw_jt_str(o));
    /* wrong kinds and NULLs fail instead of corrupting a tree */
    assert_false(bw_jt_append(o, bw_jt_null(&a)));
    assert_false(bw_jt_set(arr, "k", bw_jt_null(&a)));
    assert_false(bw_jt_set(o, "k", NULL));
    assert_false(bw_jt_append(NULL, bw_jt_null(&a)));
    assert_null(bw_jt_string(&a, NULL));
    assert_int_equal(bw_jt_size(NULL), 0);
    assert_false(bw_jt_write(&(struct bw_sb){0}, NULL, 0));
    bw_jt_arena_free(&a);
}

/* Strings larger than a chunk get a chunk of their own, and the chunk in use keeps serving the
 * small values after them; a real that is not finite cannot be written. */
static void large_values_and_bad_reals(void **state)
{
    (void)state;
    struct bw_jt_arena a = {0};
    size_t big = 3 * BW_JT_CHUNK + 5;
    char *s = malloc(big + 1);
    memset(s, 'x', big);
    s[big] = '\0';
    struct bw_jt *arr = bw_jt_array(&a);
    for (int i = 0; i < 3; i++) {
        assert_true(bw_jt_append(arr, bw_jt_string(&a, s)));
        for (int k = 0; k < 500; k++)
            assert_true(bw_jt_append(arr, bw_jt_int(&a, k)));
    }
    assert_false(a.oom);
    char *text = jt_text(arr, 0);
    assert_non_null(text);
    assert_int_equal(text[0], '[');
    assert_non_null(strstr(text, ",499,\"xxx"));
    assert_int_equal(strlen(text), 2 + 1502 + 3 * (big + 2) + 3 * 1390); /* 1,502 commas; 0..499 take 1,390 digits */
    free(text);
    free(s);
    struct bw_jt *r = bw_jt_array(&a);
    assert_true(bw_jt_append(r, bw_jt_real(&a, NAN)));
    assert_null(jt_text(r, 15));
    bw_jt_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_bytes_as_jansson),
        cmocka_unit_test(reading_back),
        cmocka_unit_test(large_values_and_bad_reals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
