/* OSV sources as the sync fetches them (src/engine/intel/osvlist.c): OSV's all.zip layout read
 * through libzip (entries in order, non-JSON entries skipped), a JSON list or one advisory, and the
 * refusals: a truncated or damaged zip, a non-advisory in a list, malformed JSON; the package
 * filter's syntax and matching. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/intel/osvlist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIX BULWARK_SOURCE_DIR "/tests/fixtures/intel/osv-sync/"

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *b = malloc(1 << 20);
    assert_non_null(b);
    *n = fread(b, 1, 1 << 20, f);
    fclose(f);
    return b;
}

struct seen {
    int n;
    char names[8][64];
    int stop_at; /* answer 7 at this document (0: never) */
};

static int collect(const char *name, const char *json, size_t len, void *arg)
{
    struct seen *s = arg;
    json_t *doc = json_loadb(json, len, 0, NULL);
    assert_non_null(doc);
    assert_true(json_is_string(json_object_get(doc, "id")));
    json_decref(doc);
    if (s->n < 8)
        snprintf(s->names[s->n], sizeof s->names[0], "%s", name);
    s->n++;
    return s->n == s->stop_at ? 7 : 0;
}

static void test_zip(void **state)
{
    (void)state;
    size_t n = 0;
    char *zip = slurp(FIX "all.zip", &n);
    char msg[300];
    struct seen s = {0};
    assert_int_equal(bw_osv_list(zip, n, collect, &s, msg, sizeof msg), 0);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.names[0], "BWTEST-2026-0001.json");
    assert_string_equal(s.names[2], "PYSEC-2022-43015.json");
    /* the callback's answer stops the walk */
    struct seen stop = {.stop_at = 2};
    assert_int_equal(bw_osv_list(zip, n, collect, &stop, msg, sizeof msg), 7);
    assert_int_equal(stop.n, 2);
    /* cut short: the central directory is gone */
    struct seen t = {0};
    assert_int_equal(bw_osv_list(zip, n - 30, collect, &t, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "not a readable zip"));
    assert_int_equal(t.n, 0);
    /* a flipped byte inside the first entry's deflated data: the CRC check refuses it */
    char *bad = malloc(n);
    memcpy(bad, zip, n);
    bad[30 + strlen("BWTEST-2026-0001.json") + 20] ^= 0x55;
    struct seen u = {0};
    assert_int_equal(bw_osv_list(bad, n, collect, &u, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "BWTEST-2026-0001.json"));
    free(bad);
    free(zip);
}

static void test_json(void **state)
{
    (void)state;
    char msg[300];
    struct seen s = {0};
    const char *list = "[{\"id\":\"A-1\"},{\"id\":\"B-2\"}]";
    assert_int_equal(bw_osv_list(list, strlen(list), collect, &s, msg, sizeof msg), 0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.names[1], "[1]");
    struct seen one = {0};
    const char *adv = " {\"id\":\"A-1\"}";
    assert_int_equal(bw_osv_list(adv, strlen(adv), collect, &one, msg, sizeof msg), 0);
    assert_int_equal(one.n, 1);
    const char *bad[] = {"[{\"id\":\"A-1\"},3]", "\"x\"", "[{\"id\":", "{\"id\":\"a\",\"id\":\"b\"}", "PK"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct seen z = {0};
        assert_int_equal(bw_osv_list(bad[i], strlen(bad[i]), collect, &z, msg, sizeof msg), -1);
        assert_true(msg[0] != '\0');
    }
}

static void test_filter(void **state)
{
    (void)state;
    assert_true(bw_osv_filter_valid("torch, PyPI:transformers,npm:langchain"));
    assert_true(bw_osv_filter_valid(""));
    assert_true(bw_osv_filter_valid("@scope/pkg"));
    assert_false(bw_osv_filter_valid("PyPI:"));
    assert_false(bw_osv_filter_valid(":torch"));
    assert_false(bw_osv_filter_valid("to rch"));
    json_t *a = json_loads("{\"id\":\"X\",\"affected\":[{\"package\":{\"ecosystem\":\"PyPI\",\"name\":\"Torch\"}}]}", 0,
                           NULL);
    assert_non_null(a);
    assert_true(bw_osv_wanted(a, NULL));
    assert_true(bw_osv_wanted(a, " , "));
    assert_true(bw_osv_wanted(a, "numpy,torch"));
    assert_true(bw_osv_wanted(a, "pypi:TORCH"));
    assert_false(bw_osv_wanted(a, "npm:torch"));
    assert_false(bw_osv_wanted(a, "torchvision,tor"));
    json_decref(a);
    json_t *none = json_loads("{\"id\":\"X\"}", 0, NULL);
    assert_false(bw_osv_wanted(none, "torch"));
    json_decref(none);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zip),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_filter),
    };
    return cmocka_run_group_tests_name("osvlist", tests, NULL, NULL);
}
