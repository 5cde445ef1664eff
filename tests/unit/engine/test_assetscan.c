/* What one live scan is evidence of (src/engine/assetscan.c, bw_assetscan_evidence*): counts from
 * the document, and the finding ids through the text of the asset_scans.owasp_findings column. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/assetscan.h"

#include <string.h>

static bool evidence(const char *text, struct bw_scan_evidence *ev)
{
    json_t *doc = json_loads(text, 0, NULL);
    bool ok = bw_assetscan_evidence(doc, ev);
    json_decref(doc);
    return ok;
}

static void test_counts(void **state)
{
    (void)state;
    struct bw_scan_evidence ev;
    assert_false(evidence("{\"score\":3}", &ev));
    assert_false(evidence("[1]", &ev));
    assert_true(evidence("{\"findings\":[{\"id\":\"P\",\"severity\":\"CRITICAL\",\"owasp_llm\":\"LLM01\"},"
                         "{\"id\":\"Q\",\"severity\":\"LOW\",\"owasp_llm\":\"LLM09\"},{\"severity\":\"nope\"}],"
                         "\"llm_api\":\"openai\"}",
                         &ev));
    assert_int_equal(ev.open_findings[BW_EV_CRITICAL], 1);
    assert_int_equal(ev.open_findings[BW_EV_LOW], 1);
    assert_int_equal(ev.open_findings[BW_EV_HIGH] + ev.open_findings[BW_EV_MEDIUM], 0);
    assert_int_equal(ev.owasp_hit, 1u << 0 | 1u << 8);
    /* the probes' contract (LLM01, 02, 07, 10) and what was found */
    assert_int_equal(ev.owasp_tested, 1u << 0 | 1u << 1 | 1u << 6 | 1u << 8 | 1u << 9);
    /* a declared list wins over the contract; a cut-short scan proves only what it found */
    assert_true(evidence("{\"findings\":[],\"owasp_llm_tested\":[\"LLM03\",\"LLM11\",3],\"llm_api\":\"openai\"}", &ev));
    assert_int_equal(ev.owasp_tested, 1u << 2);
    assert_true(evidence("{\"findings\":[],\"llm_api\":\"prompt\",\"incomplete\":true}", &ev));
    assert_int_equal(ev.owasp_tested, 0);
}

static void test_ids_text(void **state)
{
    (void)state;
    struct bw_scan_evidence ev, back;
    memset(&ev, 0, sizeof ev);
    char text[BW_EVIDENCE_IDS_TEXT];
    bw_assetscan_evidence_ids(&ev, text);
    assert_string_equal(text, "");
    assert_true(bw_assetscan_evidence_ids_parse("", &back));
    bw_assetscan_evidence_add_id(ev.owasp_findings[0], "PROMPT_INJECTION");
    bw_assetscan_evidence_add_id(ev.owasp_findings[9], "b,c");
    bw_assetscan_evidence_add_id(ev.owasp_findings[9], "a%;:\x01\xc3\xa9");
    bw_assetscan_evidence_ids(&ev, text);
    assert_string_equal(text, "01:PROMPT_INJECTION;10:a%25%3B%3A%01%C3%A9,b%2Cc");
    assert_true(bw_assetscan_evidence_ids_parse(text, &back));
    assert_string_equal(back.owasp_findings[0][0], "PROMPT_INJECTION");
    assert_string_equal(back.owasp_findings[0][1], "");
    assert_string_equal(back.owasp_findings[9][0], "a%;:\x01\xc3\xa9");
    assert_string_equal(back.owasp_findings[9][1], "b,c");
    /* the longest text fits: every risk with four ids of 39 bytes that all need escaping */
    memset(&ev, 0, sizeof ev);
    for (int r = 0; r < BW_EVIDENCE_OWASP; r++)
        for (int j = 0; j < BW_EVIDENCE_FINDING_IDS; j++) {
            char id[BW_EVIDENCE_ID_MAX];
            memset(id, ',', sizeof id - 1);
            id[0] = (char)('A' + j);
            id[sizeof id - 1] = '\0';
            bw_assetscan_evidence_add_id(ev.owasp_findings[r], id);
        }
    bw_assetscan_evidence_ids(&ev, text);
    assert_true(strlen(text) < sizeof text);
    assert_true(bw_assetscan_evidence_ids_parse(text, &back));
    assert_memory_equal(back.owasp_findings, ev.owasp_findings, sizeof ev.owasp_findings);
    /* not such a text */
    const char *bad[] = {"1:A", "00:A", "11:A", "01:", "01:A,", "01:A;", "01:%4", "01:%zz", "01:%00", "01A",
                         "01:0123456789012345678901234567890123456789"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(bw_assetscan_evidence_ids_parse(bad[i], &back));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_ids_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
