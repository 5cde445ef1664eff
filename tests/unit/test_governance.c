/* The governance assessment engine: met/gap logic, ordering, score and risk classification. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/governance.h"

#include <string.h>

static const char CATALOG[] =
    "{\"id\":\"t\",\"name\":\"T\",\"controls\":["
    "{\"id\":\"C1\",\"title\":\"Human oversight of decisions\",\"severity\":\"high\",\"recommendation\":\"r1\",\"keywords\":[]},"
    "{\"id\":\"C2\",\"title\":\"Technical documentation\",\"severity\":\"medium\",\"recommendation\":\"r2\",\"keywords\":[\"hiring\"]},"
    "{\"id\":\"C3\",\"title\":\"Record keeping and logging\",\"severity\":\"low\",\"recommendation\":\"r3\",\"keywords\":[\"drones\"]},"
    "{\"id\":\"C4\",\"title\":\"Prohibited manipulation\",\"severity\":\"critical\",\"recommendation\":\"r4\",\"keywords\":[]}"
    "]}";

static json_t *assess(const char *ctx, const char *uc)
{
    json_t *fw = json_loads(CATALOG, 0, NULL);
    json_t *ucs = json_pack("[s]", uc);
    json_t *out = bw_governance_assess(fw, ctx, ucs);
    json_decref(fw);
    json_decref(ucs);
    assert_non_null(out);
    return out;
}

static void met_gaps_and_score(void **state)
{
    (void)state;
    json_t *r = assess("Every decision has human oversight by a reviewer.", "CV screening for hiring");
    assert_int_equal(json_integer_value(json_object_get(r, "controls_total")), 4);
    assert_int_equal(json_integer_value(json_object_get(r, "controls_met")), 1);
    assert_int_equal(json_integer_value(json_object_get(r, "score")), 25);
    json_t *gaps = json_object_get(r, "gaps");
    /* C4 (critical, always applies), C2 (keyword hiring); C3 does not apply (drones) */
    assert_int_equal(json_array_size(gaps), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(gaps, 0), "control_id")), "C4");
    assert_string_equal(json_string_value(json_object_get(json_array_get(gaps, 0), "severity")), "CRITICAL");
    assert_string_equal(json_string_value(json_object_get(json_array_get(gaps, 1), "control_id")), "C2");
    assert_string_equal(json_string_value(json_object_get(r, "risk_classification")), "high");
    assert_int_equal(json_array_size(json_object_get(r, "recommendations")), 2);
    json_decref(r);
}

static void deterministic(void **state)
{
    (void)state;
    json_t *a = assess("logging and record keeping", "a chatbot"), *b = assess("logging and record keeping", "a chatbot");
    assert_true(json_equal(a, b));
    assert_string_equal(json_string_value(json_object_get(a, "risk_classification")), "limited");
    json_decref(a);
    json_decref(b);
}

static void risk_classes(void **state)
{
    (void)state;
    assert_string_equal(bw_governance_risk_class("Social scoring of citizens"), "unacceptable");
    assert_string_equal(bw_governance_risk_class("credit scoring for loans"), "high");
    assert_string_equal(bw_governance_risk_class("customer support chatbot"), "limited");
    assert_string_equal(bw_governance_risk_class("spam filter for internal mail"), "minimal");
    assert_string_equal(bw_governance_risk_class(""), "minimal");
}

static void malformed_catalog(void **state)
{
    (void)state;
    json_t *fw = json_loads("{\"controls\":[]}", 0, NULL), *uc = json_pack("[s]", "x");
    assert_null(bw_governance_assess(fw, "", uc));
    json_decref(fw);
    json_decref(uc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(met_gaps_and_score),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(risk_classes),
        cmocka_unit_test(malformed_catalog),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
