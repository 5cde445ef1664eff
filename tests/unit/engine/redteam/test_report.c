/* The red-team report renderer (src/engine/redteam/report.c): the scored document a completed
 * engagement stores, and the report the API answers before and after completion. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/redteam/report.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

static const struct bw_rt_outcome OUTCOMES[] = {
    {"pi-direct-override", true, false, "p1", "r1", NULL, NULL, 0, NULL},  /* HIGH: weight 4 of 12 succeeded */
    {"exf-markdown-image", false, false, "p2", "r2", NULL, NULL, 0, NULL}, /* CRITICAL, held */
};

static struct bw_rt_engagement engagement(enum bw_run_status status)
{
    return (struct bw_rt_engagement){.id = "eng_x",
                                     .asset_id = "ast_y",
                                     .status = status,
                                     .intensity = "light",
                                     .categories = "[\"jailbreak\",\"prompt_injection\"]",
                                     .attack_count = 4,
                                     .attacks_done = 2,
                                     .attacks_succeeded = 1,
                                     .eta_seconds = 9,
                                     .overall_risk = "",
                                     .error = "",
                                     .created_at = "2026-01-01T00:00:00Z",
                                     .started_at = "",
                                     .finished_at = ""};
}

static const char *str(const json_t *doc, const char *key) { return json_string_value(json_object_get(doc, key)); }

static void test_final(void **state)
{
    (void)state;
    const struct bw_rt_library *lib = bw_rt_library_get();
    assert_non_null(lib);
    const char *risk = NULL;
    json_t *doc = bw_rt_report_final(lib, OUTCOMES, 2, &risk);
    assert_non_null(doc);
    assert_string_equal(risk, "HIGH");
    assert_string_equal(str(doc, "overall_risk"), "HIGH");
    assert_int_equal(json_integer_value(json_object_get(doc, "attacks_succeeded")), 1);
    json_decref(doc);
}

static void test_partial(void **state)
{
    (void)state;
    const struct bw_rt_library *lib = bw_rt_library_get();
    struct bw_rt_engagement e = engagement(BW_RUN_RUNNING);
    e.started_at = "2026-01-01T00:00:01Z";
    e.report = "{\"ignored\":true}"; /* only a completed engagement's stored document is read */
    assert_null(bw_rt_report_stored(&e));
    assert_null(bw_rt_report_render(&e, NULL));
    json_t *doc = bw_rt_report_render(&e, bw_rt_report(lib, OUTCOMES, 2));
    assert_non_null(doc);
    assert_string_equal(str(json_object_get(doc, "remediation_plan"), "summary"),
                        "Engagement running: 2 of 4 attacks run, 1 succeeded so far.");
    assert_true(json_is_null(json_object_get(doc, "overall_risk")));
    assert_true(json_is_null(json_object_get(doc, "error")));
    assert_true(json_is_null(json_object_get(doc, "finished_at")));
    assert_string_equal(str(doc, "started_at"), "2026-01-01T00:00:01Z");
    assert_string_equal(str(doc, "engagement_id"), "eng_x");
    assert_string_equal(str(doc, "target_asset_id"), "ast_y");
    assert_int_equal(json_array_size(json_object_get(doc, "attack_categories")), 2);
    json_t *progress = json_object_get(doc, "progress");
    assert_int_equal(json_integer_value(json_object_get(progress, "done")), 2);
    assert_int_equal(json_integer_value(json_object_get(progress, "total")), 4);
    assert_int_equal(json_integer_value(json_object_get(doc, "attacks_total")), 4);
    json_decref(doc);
}

static void test_completed(void **state)
{
    (void)state;
    struct bw_rt_engagement e = engagement(BW_RUN_COMPLETED);
    e.overall_risk = "HIGH";
    e.finished_at = "2026-01-01T00:01:00Z";
    e.categories = "not json"; /* an unreadable list shows as empty */
    e.report = "{\"attacks_succeeded\":7,\"remediation_plan\":{\"summary\":\"as stored\",\"actions\":[]}}";
    json_t *scored = bw_rt_report_stored(&e);
    assert_non_null(scored);
    json_t *doc = bw_rt_report_render(&e, scored);
    assert_string_equal(str(json_object_get(doc, "remediation_plan"), "summary"), "as stored");
    assert_string_equal(str(doc, "overall_risk"), "HIGH");
    assert_string_equal(str(doc, "finished_at"), "2026-01-01T00:01:00Z");
    /* the row's counter is the one of record */
    assert_int_equal(json_integer_value(json_object_get(doc, "attacks_succeeded")), 1);
    assert_int_equal(json_array_size(json_object_get(doc, "attack_categories")), 0);
    json_decref(doc);
    e.report = "{";
    assert_null(bw_rt_report_stored(&e)); /* unreadable: the caller scores the rows instead */
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_final),
        cmocka_unit_test(test_partial),
        cmocka_unit_test(test_completed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
