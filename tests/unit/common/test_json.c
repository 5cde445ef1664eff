/* Request body parsing: the nesting pre-check and the object-only parse (src/common/json.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/jsonx.h"
#include "common/limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* depth levels of arrays: "[[[...]]]" */
static char *arrays(int depth)
{
    char *s = malloc((size_t)depth * 2 + 1);
    for (int i = 0; i < depth; i++) {
        s[i] = '[';
        s[depth * 2 - 1 - i] = ']';
    }
    s[depth * 2] = '\0';
    return s;
}

/* depth levels of objects: {"a":{"a":...{}}} */
static char *objects(int depth)
{
    size_t cap = (size_t)depth * 6 + 16;
    char *s = malloc(cap);
    size_t n = 0;
    for (int i = 0; i < depth - 1; i++)
        n += (size_t)snprintf(s + n, cap - n, "{\"a\":");
    n += (size_t)snprintf(s + n, cap - n, "{}");
    for (int i = 0; i < depth - 1; i++)
        s[n++] = '}';
    s[n] = '\0';
    return s;
}

static bool depth_ok(const char *s, int max) { return bw_json_depth_ok(s, strlen(s), max); }

static void test_depth_counting(void **state)
{
    (void)state;
    for (int max = 1; max <= 40; max++) {
        char *a = arrays(max), *b = arrays(max + 1), *o = objects(max), *p = objects(max + 1);
        assert_true(depth_ok(a, max));
        assert_false(depth_ok(b, max));
        assert_true(depth_ok(o, max));
        assert_false(depth_ok(p, max));
        free(a);
        free(b);
        free(o);
        free(p);
    }
    /* siblings do not add up: depth is nesting, not count */
    assert_true(depth_ok("[[],[],[],[],[]]", 2));
    assert_true(depth_ok("{\"a\":[1],\"b\":{\"c\":2},\"d\":[]}", 2));
    assert_false(depth_ok("{\"a\":[1],\"b\":{\"c\":[2]},\"d\":[]}", 2));
    assert_true(depth_ok("", 0));
    assert_true(depth_ok("123", 0));
    assert_false(depth_ok("[]", 0));
    /* only n bytes are looked at */
    assert_true(bw_json_depth_ok("[[[", 2, 2));
    assert_false(bw_json_depth_ok("[[[", 3, 2));
}

static void test_depth_ignores_strings(void **state)
{
    (void)state;
    /* brackets inside strings do not count */
    assert_true(depth_ok("{\"a\":\"[[[[[[[[[[{{{{{{{{{{\"}", 1));
    assert_true(depth_ok("{\"[[[[[[\":1}", 1));
    /* escaped quotes do not end the string */
    assert_true(depth_ok("{\"a\":\"x\\\"[[[[[[[[\"}", 1));
    assert_true(depth_ok("{\"a\":\"\\\\\\\"[[[[[\"}", 1));
    /* an escaped backslash does end the escape: the quote after it closes the string and the
     * brackets after that are real */
    assert_false(depth_ok("{\"a\":\"x\\\\\",\"b\":[[1]]}", 2));
    assert_true(depth_ok("{\"a\":\"x\\\\\",\"b\":[[1]]}", 3));
    /* a string that is never closed hides everything after it (jansson rejects it anyway) */
    assert_true(depth_ok("\"[[[[[[", 1));
    /* backslash at the very end does not read past the buffer */
    assert_true(bw_json_depth_ok("\"\\", 2, 1));
}

static void test_parse_ok(void **state)
{
    (void)state;
    const char *why = NULL;
    const char *body = "{\"email\":\"a@b.c\",\"n\":3,\"x\":[1,{\"y\":null}]}";
    json_t *j = bw_json_parse_body(body, strlen(body), &why);
    assert_non_null(j);
    assert_true(json_is_object(j));
    assert_string_equal(json_string_value(json_object_get(j, "email")), "a@b.c");
    assert_int_equal(json_integer_value(json_object_get(j, "n")), 3);
    json_decref(j);

    j = bw_json_parse_body("{}", 2, &why);
    assert_non_null(j);
    assert_int_equal(json_object_size(j), 0);
    json_decref(j);

    /* whitespace around the object is fine */
    j = bw_json_parse_body(" \n{ \"a\" : 1 }\r\n", 15, &why);
    assert_non_null(j);
    json_decref(j);

    /* only len bytes: trailing garbage beyond len is not seen */
    j = bw_json_parse_body("{\"a\":1}garbage", 7, &why);
    assert_non_null(j);
    json_decref(j);
}

static void test_parse_depth_limit(void **state)
{
    (void)state;
    const char *why = NULL;
    /* exactly BW_JSON_MAX_DEPTH levels: accepted */
    char *at = objects(BW_JSON_MAX_DEPTH);
    json_t *j = bw_json_parse_body(at, strlen(at), &why);
    assert_non_null(j);
    json_decref(j);
    /* one more: rejected before parsing, with the depth message */
    char *over = objects(BW_JSON_MAX_DEPTH + 1);
    why = NULL;
    assert_null(bw_json_parse_body(over, strlen(over), &why));
    assert_non_null(why);
    assert_non_null(strstr(why, "deep"));
    free(at);
    free(over);

    /* mixed arrays in an object */
    char buf[256];
    char *arr = arrays(BW_JSON_MAX_DEPTH - 1);
    snprintf(buf, sizeof buf, "{\"a\":%s}", arr);
    j = bw_json_parse_body(buf, strlen(buf), &why);
    assert_non_null(j);
    json_decref(j);
    free(arr);
    arr = arrays(BW_JSON_MAX_DEPTH);
    snprintf(buf, sizeof buf, "{\"a\":%s}", arr);
    assert_null(bw_json_parse_body(buf, strlen(buf), &why));
    assert_non_null(strstr(why, "deep"));
    free(arr);

    /* brackets inside string values do not trip the limit */
    char big[512];
    size_t n = (size_t)snprintf(big, sizeof big, "{\"s\":\"");
    for (int i = 0; i < 100; i++)
        big[n++] = i % 2 ? '[' : '{';
    n += (size_t)snprintf(big + n, sizeof big - n, "\\\"]]\"}");
    j = bw_json_parse_body(big, n, &why);
    assert_non_null(j);
    assert_int_equal(json_string_length(json_object_get(j, "s")), 100 + 3);
    json_decref(j);
}

static void test_parse_rejects(void **state)
{
    (void)state;
    struct {
        const char *body;
        const char *why_has;
    } cases[] = {
        {"", "valid JSON"},
        {" ", "valid JSON"},
        {"{", "valid JSON"},
        {"{\"a\":}", "valid JSON"},
        {"{\"a\":1,}", "valid JSON"},
        {"{'a':1}", "valid JSON"},
        {"{\"a\":1}{\"b\":2}", "valid JSON"},
        {"{\"a\":1,\"a\":2}", "same member twice"}, /* duplicate keys are refused */
        {"{\"a\":NaN}", "valid JSON"},
        {"{\"a\":\"\\u0000\"}", "NUL"},
        {"[]", "object"},
        {"[{\"a\":1}]", "object"},
        /* scalars are JSON, only not objects */
        {"\"str\"", "object"},
        {"42", "object"},
        {"null", "object"},
        {"true", "object"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *why = NULL;
        json_t *j = bw_json_parse_body(cases[i].body, strlen(cases[i].body), &why);
        if (j) {
            json_decref(j);
            fail_msg("'%s' accepted", cases[i].body);
        }
        assert_non_null(why);
        if (cases[i].why_has && !strstr(why, cases[i].why_has))
            fail_msg("'%s': reason '%s' lacks '%s'", cases[i].body, why, cases[i].why_has);
    }
    /* a NUL byte inside the body */
    const char nul[] = "{\"a\":\"x\0y\"}";
    const char *why = NULL;
    assert_null(bw_json_parse_body(nul, sizeof nul - 1, &why));
    assert_non_null(why);
    /* invalid UTF-8 */
    const char bad_utf8[] = "{\"a\":\"\xff\xfe\"}";
    assert_null(bw_json_parse_body(bad_utf8, sizeof bad_utf8 - 1, &why));
    assert_non_null(strstr(why, "UTF-8"));
}

/* bw_json_write against jansson's own json_dumps, on the same documents. */
static void same_as_jansson(const json_t *v, int precision)
{
    size_t flags = JSON_COMPACT | JSON_ENCODE_ANY | (precision ? JSON_REAL_PRECISION(precision) : 0);
    char *want = json_dumps(v, flags);
    size_t len = 0;
    char *got = bw_json_dump(v, precision, &len);
    assert_non_null(want);
    assert_non_null(got);
    assert_string_equal(got, want);
    assert_int_equal(len, strlen(want));
    free(want);
    free(got);
}

static void test_write_matches_jansson(void **state)
{
    (void)state;
    const char *docs[] = {
        "{}", "[]", "{\"a\":[]}", "[{},[[]],null,true,false]", "\"\"", "0", "-9223372036854775808",
        "9223372036854775807", "{\"z\":1,\"a\":2,\"m\":{\"y\":[1,2,3],\"b\":null}}",
        "\"quote \\\" back \\\\ slash / tab \\t nl \\n cr \\r bs \\b ff \\f\"",
        "\"\\u0000\\u0001\\u001f\\u007f x\"", "\"caf\u00e9 \u2028 \u2029 \\ud83d\\ude00 \u00ff\"",
        "[0.1,1.0,-0.0,1e300,1e-300,123456789.123,0.5,2.5e-7,1e21,3.141592653589793,100.0,1e+20]",
        "{\"k\\u0001ey\":\"v\",\"\\\"\":\"q\"}",
    };
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        json_error_t err;
        json_t *v = json_loads(docs[i], JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
        if (!v)
            fail_msg("doc %zu: %s", i, err.text);
        same_as_jansson(v, 0);
        same_as_jansson(v, 15);
        same_as_jansson(v, 3);
        json_decref(v);
    }
    /* a built document with members added and removed (insertion order after deletion) */
    json_t *o = json_object();
    for (int i = 0; i < 50; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", (i * 37) % 50);
        json_object_set_new(o, k, json_real(i / 7.0));
    }
    json_object_del(o, "k3");
    json_object_set_new(o, "k3", json_string("back"));
    same_as_jansson(o, 15);
    /* every byte value below 0x80 in a string */
    char all[128];
    for (int c = 1; c < 128; c++)
        all[c - 1] = (char)c;
    json_object_set_new(o, "all", json_stringn(all, 127));
    same_as_jansson(o, 0);
    json_decref(o);
    /* each byte that needs an escape at each position of a 40-byte run, and UTF-8 around it */
    const char special[] = {'"', '\\', '\n', 0x1f, 0x01};
    for (size_t k = 0; k < sizeof special; k++)
        for (int pos = 0; pos < 40; pos++) {
            if (pos % 11 == 5 || pos % 11 == 6)
                continue; /* inside a two-byte character: not UTF-8, which jansson refuses to write */
            char str[41];
            for (int i = 0; i < 40; i++)
                str[i] = i % 11 == 5 ? (char)0xc3 : i % 11 == 6 ? (char)0xa9 : 'a';
            str[pos] = special[k];
            json_t *j = json_stringn_nocheck(str, 40);
            same_as_jansson(j, 0);
            json_decref(j);
        }
    /* what it refuses: nesting past the bound; NULL */
    json_t *deep = json_array(), *cur = deep;
    for (int i = 0; i < BW_JSON_DUMP_MAX_DEPTH + 1; i++) {
        json_t *n = json_array();
        json_array_append_new(cur, n);
        cur = n;
    }
    assert_null(bw_json_dump(deep, 0, NULL));
    json_decref(deep);
    assert_null(bw_json_dump(NULL, 0, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_depth_counting), cmocka_unit_test(test_depth_ignores_strings),
        cmocka_unit_test(test_parse_ok),       cmocka_unit_test(test_parse_depth_limit),
        cmocka_unit_test(test_parse_rejects),   cmocka_unit_test(test_write_matches_jansson),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
