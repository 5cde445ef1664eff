/* The use-case catalog (data/frameworks/usecases.json) against its own examples: every category
 * and trait lists use cases written from the framework texts (EU AI Act Art. 5, Annex III, Annex
 * I, Art. 50, Chapter V; NIST AI RMF and ISO/IEC 42001 notions) that it must affirm, and near
 * misses (negations, the same words in another sense) it must not. A failure names the category
 * and the example. Also: the loader refuses malformed examples. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/embedded.h"
#include "engine/usecase.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bw_uc_catalog *catalog(void)
{
    const struct bw_embedded *f = bw_embedded_find("data/frameworks/usecases.json");
    assert_non_null(f);
    char why[256];
    struct bw_uc_catalog *c = bw_uc_catalog_parse((const char *)f->data, f->len, why, sizeof why);
    if (!c)
        fail_msg("usecases.json: %s", why);
    return c;
}

static void catalog_examples(void **state)
{
    (void)state;
    struct bw_uc_catalog *c = catalog();
    size_t n = bw_uc_count(c), checked = 0;
    struct bw_uc_hit *h = calloc(n, sizeof *h);
    assert_non_null(h);
    /* every miss first, then one failure that lists them all */
    static char misses[16384];
    size_t ml = 0;
    int wrong = 0;
    for (size_t i = 0; i < n; i++) {
        const char *id = bw_uc_at(c, i)->id;
        for (int m = 1; m >= 0; m--) {
            size_t k;
            const char *const *ex = bw_uc_examples(c, i, m == 1, &k);
            if (k == 0)
                fail_msg("%s: no %s examples", id, m ? "match" : "no_match");
            for (size_t j = 0; j < k; j++) {
                assert_int_equal(bw_uc_classify(c, ex[j], strlen(ex[j]), h), 0);
                checked++;
                if (h[i].affirmed == (m == 1))
                    continue;
                wrong++;
                if (ml + 400 < sizeof misses)
                    ml += (size_t)snprintf(misses + ml, sizeof misses - ml, "  %s: \"%s\" should %s\n", id, ex[j],
                                           m ? "match" : "not match");
            }
        }
    }
    printf("usecases.json: %zu examples over %zu categories and traits, %d wrong\n", checked, n, wrong);
    free(h);
    bw_uc_catalog_free(c);
    /* printed whole: cmocka cuts a long failure message */
    if (wrong) {
        printf("examples that do not hold:\n%s", misses);
        fail_msg("%d examples do not hold (listed above)", wrong);
    }
}

/* The loader refuses examples that are missing, unknown, empty or too long, naming where. */
static void examples_loader(void **state)
{
    (void)state;
    static char longer[BW_UC_EXAMPLE_MAX + 2];
    memset(longer, 'a', sizeof longer - 1);
    struct {
        const char *examples, *want;
    } bad[] = {
        {NULL, "categories[0]: member \"examples\" is missing"},
        {"[]", "categories[0].examples must be an object"},
        {"{\"match\":[\"x\"]}", "categories[0].examples: member \"no_match\" is missing"},
        {"{\"match\":[\"x\"],\"no_match\":[\"y\"],\"maybe\":[]}", "categories[0].examples: unknown member \"maybe\""},
        {"{\"match\":[],\"no_match\":[\"y\"]}", "categories[0].examples.match must be an array of 1 to"},
        {"{\"match\":[\"x\"],\"no_match\":[\"\"]}", "categories[0].examples.no_match[0] must be a string of 1 to"},
        {"{\"match\":[\"x\",3],\"no_match\":[\"y\"]}", "categories[0].examples.match[1] must be a string of 1 to"},
        {longer, "categories[0].examples.match[0] must be a string of 1 to"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024], ex[600];
        if (bad[i].examples == longer)
            snprintf(ex, sizeof ex, ",\"examples\":{\"match\":[\"%s\"],\"no_match\":[\"y\"]}", longer);
        else if (bad[i].examples)
            snprintf(ex, sizeof ex, ",\"examples\":%s", bad[i].examples);
        else
            ex[0] = '\0';
        snprintf(text, sizeof text,
                 "{\"version\":\"1\",\"negation\":[\"no\"],\"categories\":[{\"id\":\"a\",\"kind\":\"trait\","
                 "\"title\":\"t\",\"ref\":\"r\",\"when\":[[[\"x\"]]]%s}]}",
                 ex);
        char why[192];
        struct bw_uc_catalog *c = bw_uc_catalog_parse(text, strlen(text), why, sizeof why);
        if (c || !strstr(why, bad[i].want))
            fail_msg("case %zu: wanted \"%s\", got \"%s\"", i, bad[i].want, c ? "(loaded)" : why);
    }
    /* and a well-formed one loads, its examples in order */
    const char *ok = "{\"version\":\"1\",\"negation\":[\"no\"],\"categories\":[{\"id\":\"a\",\"kind\":\"trait\","
                     "\"title\":\"t\",\"ref\":\"r\",\"when\":[[[\"x\"]]],\"examples\":{\"match\":[\"x y\",\"y x\"],"
                     "\"no_match\":[\"no x\"]}}]}";
    char why[192];
    struct bw_uc_catalog *c = bw_uc_catalog_parse(ok, strlen(ok), why, sizeof why);
    if (!c)
        fail_msg("%s", why);
    size_t n;
    const char *const *ex = bw_uc_examples(c, 0, true, &n);
    assert_int_equal(n, 2);
    assert_string_equal(ex[1], "y x");
    ex = bw_uc_examples(c, 0, false, &n);
    assert_int_equal(n, 1);
    assert_string_equal(ex[0], "no x");
    assert_null(bw_uc_examples(c, 1, true, &n));
    assert_int_equal(n, 0);
    bw_uc_catalog_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(catalog_examples),
        cmocka_unit_test(examples_loader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
