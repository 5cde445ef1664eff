/* SARIF pieces (engine/code/sarif.c): levels by severity; a rule's descriptor with its tags and
 * security-severity; the one-text log lists each named rule once, in first-use order, results
 * pointing at them in the findings' order, codeFlows only for traced findings, the run's
 * properties, and snippets kept valid UTF-8. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/code/sarif.h"

#include <stdlib.h>
#include <string.h>

static const struct bw_rule SSRF = {.id = "BW-SSRF-025", .title = "Server-side request", .category = "ssrf",
                                    .cwe = "CWE-918", .description = "d", .remediation = "r", .severity = BW_SEV_HIGH};
static const struct bw_rule EVAL = {.id = "BW-AI-001", .title = "LLM output executed", .category = "ai_llm",
                                    .cwe = "CWE-95", .description = "d", .remediation = "r", .owasp_llm = "LLM05",
                                    .severity = BW_SEV_CRITICAL};

static void levels(void **state)
{
    (void)state;
    assert_string_equal(bw_sarif_level(BW_SEV_CRITICAL), "error");
    assert_string_equal(bw_sarif_level(BW_SEV_HIGH), "error");
    assert_string_equal(bw_sarif_level(BW_SEV_MEDIUM), "warning");
    assert_string_equal(bw_sarif_level(BW_SEV_LOW), "note");
}

static void rule_descriptor(void **state)
{
    (void)state;
    json_t *r = bw_sarif_rule(&EVAL);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(r, "id")), "BW-AI-001");
    json_t *props = json_object_get(r, "properties");
    assert_string_equal(json_string_value(json_object_get(props, "security-severity")), "9.5");
    json_t *tags = json_object_get(props, "tags");
    assert_int_equal(json_array_size(tags), 4);
    assert_string_equal(json_string_value(json_array_get(tags, 2)), "external/cwe/cwe-95");
    assert_string_equal(json_string_value(json_array_get(tags, 3)), "owasp-llm-2025/LLM05");
    assert_non_null(strstr(json_string_value(json_object_get(r, "helpUri")), "docs/rules/ai_llm.md#bw-ai-001"));
    json_decref(r);
}

/* A finding's own OWASP LLM tag: only where it differs from its rule's (a model's reply reached
 * the SSRF rule's sink); none for the rule's own mapping or a finding without one. */
static void finding_tags(void **state)
{
    (void)state;
    struct bw_finding x = {.rule = &SSRF, .severity = BW_SEV_HIGH, .line = 2, .column = 1, .end_line = 2,
                           .owasp_llm = "LLM05"};
    json_t *t = bw_sarif_finding_tags(&x);
    assert_non_null(t);
    assert_int_equal(json_array_size(t), 1);
    assert_string_equal(json_string_value(json_array_get(t, 0)), "owasp-llm-2025/LLM05");
    json_decref(t);
    x.rule = &EVAL; /* the rule says LLM05 already */
    assert_null(bw_sarif_finding_tags(&x));
    x.rule = &SSRF;
    x.owasp_llm = NULL;
    assert_null(bw_sarif_finding_tags(&x));
}

static void one_text_log(void **state)
{
    (void)state;
    struct bw_finding v[3];
    memset(v, 0, sizeof v);
    v[0] = (struct bw_finding){.rule = &EVAL, .severity = BW_SEV_CRITICAL, .line = 2, .column = 1, .end_line = 2};
    strcpy(v[0].snippet, "exec(out)");
    v[1] = (struct bw_finding){.rule = &SSRF, .severity = BW_SEV_HIGH, .line = 9, .column = 12, .end_line = 9, .ntrace = 2};
    v[1].trace[0] = (struct bw_trace_step){8, 11, 8, 1};
    v[1].trace[1] = (struct bw_trace_step){9, 12, 9, 3};
    strcpy(v[1].snippet, "requests.get(url) \xff"); /* not UTF-8: the log must stay valid */
    v[2] = (struct bw_finding){.rule = &EVAL, .severity = BW_SEV_CRITICAL, .line = 5, .column = 3, .end_line = 6};
    json_t *log = bw_sarif_log_one(v, 3, "input.py", json_pack("{s:b}", "gated", 0));
    assert_non_null(log);
    assert_string_equal(json_string_value(json_object_get(log, "version")), "2.1.0");
    json_t *run = json_array_get(json_object_get(log, "runs"), 0);
    json_t *rules = json_object_get(json_object_get(json_object_get(run, "tool"), "driver"), "rules");
    assert_int_equal(json_array_size(rules), 2); /* each rule once, in first-use order */
    assert_string_equal(json_string_value(json_object_get(json_array_get(rules, 0), "id")), "BW-AI-001");
    assert_string_equal(json_string_value(json_object_get(json_array_get(rules, 1), "id")), "BW-SSRF-025");
    json_t *res = json_object_get(run, "results");
    assert_int_equal(json_array_size(res), 3);
    const int idx[3] = {0, 1, 0}, line[3] = {2, 9, 5};
    for (size_t i = 0; i < 3; i++) {
        json_t *x = json_array_get(res, i);
        assert_int_equal(json_integer_value(json_object_get(x, "ruleIndex")), idx[i]);
        json_t *pl = json_object_get(json_array_get(json_object_get(x, "locations"), 0), "physicalLocation");
        assert_string_equal(json_string_value(json_object_get(json_object_get(pl, "artifactLocation"), "uri")), "input.py");
        assert_int_equal(json_integer_value(json_object_get(json_object_get(pl, "region"), "startLine")), line[i]);
        assert_int_equal(json_object_get(x, "codeFlows") != NULL, i == 1);
    }
    json_t *flow = json_object_get(json_array_get(json_object_get(json_array_get(json_object_get(json_array_get(res, 1), "codeFlows"), 0), "threadFlows"), 0), "locations");
    assert_int_equal(json_array_size(flow), 2);
    assert_string_equal(json_string_value(json_array_get(json_object_get(json_array_get(flow, 0), "kinds"), 0)), "source");
    assert_string_equal(json_string_value(json_array_get(json_object_get(json_array_get(flow, 1), "kinds"), 0)), "sink");
    assert_false(json_is_true(json_object_get(json_object_get(run, "properties"), "gated")));
    char *s = json_dumps(log, 0);
    assert_non_null(s); /* json_dumps refuses invalid UTF-8 */
    free(s);
    json_decref(log);

    /* no findings: a run with no rules and no results */
    log = bw_sarif_log_one(NULL, 0, "input.js", NULL);
    assert_non_null(log);
    run = json_array_get(json_object_get(log, "runs"), 0);
    assert_int_equal(json_array_size(json_object_get(run, "results")), 0);
    assert_null(json_object_get(run, "properties"));
    json_decref(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(levels),
        cmocka_unit_test(rule_descriptor),
        cmocka_unit_test(one_text_log),
        cmocka_unit_test(finding_tags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
