/* The generators' reading of a record (src/engine/intel/facts.c): types, severity words, AI
 * impacts, KEV facts and lists read as stated, members of the wrong type read as missing, and
 * the id picker keeps the well-formed, distinct ids within its caps in list order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/intel/attack.h"
#include "engine/intel/facts.h"
#include "engine/intel/ids.h"
#include "engine/intel/intel.h"

#include <stdint.h>
#include <string.h>

/* Test JSON, any value (a record, a list). */
static json_t *parse(const char *text)
{
    json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
    assert_non_null(v);
    return v;
}

static void reads_a_record(void **state)
{
    (void)state;
    json_t *rec = parse("{\"id\":\"CVE-2025-3248\",\"type\":\"ai_cve\",\"title\":\"Langflow code injection\","
                        "\"summary\":\"s\",\"severity\":\"critical\",\"risk_tier\":\"High\",\"published\":\"2025-04-07T00:00:00Z\","
                        "\"updated\":\"2025-05-05T00:00:00Z\",\"kev\":true,\"exploit_available\":false,"
                        "\"kev_details\":{\"vendor\":\"Langflow\",\"product\":\"Langflow\",\"date_added\":\"2025-05-05T00:00:00Z\","
                        "\"due_date\":\"2025-05-26T00:00:00Z\",\"required_action\":\"patch\",\"ransomware_use\":\"Unknown\"},"
                        "\"ai_impact\":[\"tool_execution\",\"agentic\",\"nonsense\",7,\"availability\"],"
                        "\"cve\":[\"CVE-2025-3248\"],\"cwe\":[\"CWE-94\"],\"attack_techniques\":[\"T1190\"],"
                        "\"atlas_techniques\":[],\"affected\":[{\"product\":\"Langflow\"}],\"references\":[],\"aliases\":[]}");
    struct bw_facts f;
    bw_facts_read(&f, rec);
    assert_string_equal(f.id, "CVE-2025-3248");
    assert_string_equal(f.title, "Langflow code injection");
    assert_string_equal(f.summary, "s");
    assert_string_equal(f.published, "2025-04-07T00:00:00Z");
    assert_string_equal(f.updated, "2025-05-05T00:00:00Z");
    assert_int_equal(f.type, BW_FACTS_AI_CVE);
    assert_string_equal(bw_intel_severities[f.severity], "CRITICAL");
    assert_string_equal(bw_intel_severities[f.risk_tier], "HIGH");
    assert_int_equal(f.impacts, BW_IMPACT_TOOL | BW_IMPACT_AGENTIC | BW_IMPACT_AVAIL);
    assert_true(f.kev);
    assert_true(f.exploit); /* KEV membership is an exploit */
    assert_non_null(f.kev_details);
    assert_string_equal(f.kev_vendor, "Langflow");
    assert_string_equal(f.kev_product, "Langflow");
    assert_string_equal(f.kev_added, "2025-05-05T00:00:00Z");
    assert_string_equal(f.kev_due, "2025-05-26T00:00:00Z");
    assert_string_equal(f.kev_action, "patch");
    assert_string_equal(f.kev_ransomware, "Unknown");
    assert_ptr_equal(f.cve, json_object_get(rec, "cve"));
    assert_ptr_equal(f.cwe, json_object_get(rec, "cwe"));
    assert_ptr_equal(f.attack, json_object_get(rec, "attack_techniques"));
    assert_ptr_equal(f.atlas, json_object_get(rec, "atlas_techniques"));
    assert_ptr_equal(f.affected, json_object_get(rec, "affected"));
    assert_ptr_equal(f.references, json_object_get(rec, "references"));
    assert_ptr_equal(f.aliases, json_object_get(rec, "aliases"));
    json_decref(rec);
}

static void types_and_words(void **state)
{
    (void)state;
    static const struct {
        const char *type;
        enum bw_facts_type want;
    } types[] = {{"prompt_attack", BW_FACTS_PROMPT_ATTACK}, {"agent_threat", BW_FACTS_AGENT_THREAT},
                 {"ai_cve", BW_FACTS_AI_CVE},               {"model_advisory", BW_FACTS_MODEL_ADVISORY},
                 {"AI_CVE", BW_FACTS_OTHER},                {"", BW_FACTS_OTHER},
                 {"ai_cve ", BW_FACTS_OTHER}};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        json_t *rec = json_pack("{s:s}", "type", types[i].type);
        struct bw_facts f;
        bw_facts_read(&f, rec);
        assert_int_equal(f.type, types[i].want);
        json_decref(rec);
    }
    /* severity words ignoring ASCII case only; anything else is none */
    static const struct {
        const char *word;
        int want;
    } sev[] = {{"CRITICAL", 0}, {"high", 1}, {"Medium", 2}, {"lOw", 3}, {"moderate", -1}, {"", -1}, {"HIGH ", -1},
               {"HIGHER", -1}};
    for (size_t i = 0; i < sizeof sev / sizeof *sev; i++) {
        json_t *rec = json_pack("{s:s,s:s}", "severity", sev[i].word, "risk_tier", sev[i].word);
        struct bw_facts f;
        bw_facts_read(&f, rec);
        assert_int_equal(f.severity, sev[i].want);
        assert_int_equal(f.risk_tier, sev[i].want);
        json_decref(rec);
    }
}

static void impact_names_and_cap(void **state)
{
    (void)state;
    /* one bit per name, in the schema's order */
    for (unsigned k = 0; k < BW_FACTS_NIMPACTS; k++) {
        json_t *rec = json_pack("{s:[s]}", "ai_impact", bw_facts_impact_names[k]);
        struct bw_facts f;
        bw_facts_read(&f, rec);
        assert_int_equal(f.impacts, 1u << k);
        json_decref(rec);
    }
    assert_string_equal(bw_facts_impact_names[4], "prompt_injection");
    assert_int_equal(BW_IMPACT_PROMPT, 1u << 4);
    /* entries past the cap are not read */
    json_t *rec = json_pack("{s:[]}", "ai_impact");
    json_t *a = json_object_get(rec, "ai_impact");
    for (int i = 0; i < BW_INTEL_FACTS_MAX_IMPACTS; i++)
        json_array_append_new(a, json_string("noise"));
    json_array_append_new(a, json_string("model_theft"));
    struct bw_facts f;
    bw_facts_read(&f, rec);
    assert_int_equal(f.impacts, 0);
    json_array_set_new(a, BW_INTEL_FACTS_MAX_IMPACTS - 1, json_string("model_theft"));
    bw_facts_read(&f, rec);
    assert_int_equal(f.impacts, BW_IMPACT_THEFT);
    json_decref(rec);
}

static void wrong_types_read_as_missing(void **state)
{
    (void)state;
    json_t *rec = parse("{\"id\":5,\"title\":null,\"type\":[],\"severity\":3,\"kev\":\"yes\",\"exploit_available\":1,"
                        "\"kev_details\":[\"product\"],\"ai_impact\":\"agentic\",\"cve\":\"CVE-2025-3248\",\"cwe\":{},"
                        "\"attack_techniques\":null,\"affected\":{\"product\":\"x\"},\"references\":7}");
    struct bw_facts f;
    bw_facts_read(&f, rec);
    assert_string_equal(f.id, "");
    assert_string_equal(f.title, "");
    assert_int_equal(f.type, BW_FACTS_OTHER);
    assert_int_equal(f.severity, -1);
    assert_false(f.kev);
    assert_false(f.exploit);
    assert_null(f.kev_details);
    assert_string_equal(f.kev_product, "");
    assert_int_equal(f.impacts, 0);
    assert_null(f.cve);
    assert_null(f.cwe);
    assert_null(f.attack);
    assert_null(f.affected);
    assert_null(f.references);
    json_decref(rec);

    /* exploit_available alone makes an exploit, not a KEV entry */
    rec = parse("{\"exploit_available\":true}");
    bw_facts_read(&f, rec);
    assert_false(f.kev);
    assert_true(f.exploit);
    json_decref(rec);

    /* not an object at all: an empty record */
    rec = parse("[1,2]");
    bw_facts_read(&f, rec);
    assert_string_equal(f.id, "");
    assert_int_equal(f.type, BW_FACTS_OTHER);
    assert_null(f.cve);
    json_decref(rec);
    bw_facts_read(&f, NULL);
    assert_string_equal(f.summary, "");
}

static void picks_ids(void **state)
{
    (void)state;
    json_t *list = parse("[\"CVE-2024-1111\",\"cve-2024-2222\",7,null,\"CVE-2024-1111\",\"CVE-2024-3333\","
                         "\"CVE-2024-12\",\"CVE-2024-4444\",\"CVE-2024-5555\"]");
    const char *out[8];
    size_t n = bw_facts_ids(list, bw_cve_valid, SIZE_MAX, 8, out);
    assert_int_equal(n, 4); /* malformed, non-strings and the repeat left out, order kept */
    assert_string_equal(out[0], "CVE-2024-1111");
    assert_string_equal(out[1], "CVE-2024-3333");
    assert_string_equal(out[2], "CVE-2024-4444");
    assert_string_equal(out[3], "CVE-2024-5555");
    assert_ptr_equal(out[0], json_string_value(json_array_get(list, 0))); /* borrowed */

    /* at most max */
    assert_int_equal(bw_facts_ids(list, bw_cve_valid, SIZE_MAX, 2, out), 2);
    assert_string_equal(out[1], "CVE-2024-3333");
    /* only the first scan entries are looked at, whether or not they are kept */
    assert_int_equal(bw_facts_ids(list, bw_cve_valid, 6, 8, out), 2);
    assert_int_equal(bw_facts_ids(list, bw_cve_valid, 5, 8, out), 1);
    assert_int_equal(bw_facts_ids(list, bw_cve_valid, 0, 8, out), 0);
    assert_int_equal(bw_facts_ids(list, bw_cve_valid, SIZE_MAX, 0, out), 0);
    /* no list, or not an array */
    assert_int_equal(bw_facts_ids(NULL, bw_cve_valid, SIZE_MAX, 8, out), 0);
    json_t *obj = parse("{\"a\":\"CVE-2024-1111\"}");
    assert_int_equal(bw_facts_ids(obj, bw_cve_valid, SIZE_MAX, 8, out), 0);
    json_decref(obj);
    json_decref(list);

    /* the caller's own test: ATT&CK ids */
    list = parse("[\"T1059.006\",\"T1059\",\"T105\",\"T1059.6\",\"T1059.006\"]");
    n = bw_facts_ids(list, bw_attack_id_valid, SIZE_MAX, 8, out);
    assert_int_equal(n, 2);
    assert_string_equal(out[0], "T1059.006");
    assert_string_equal(out[1], "T1059");
    json_decref(list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_a_record),          cmocka_unit_test(types_and_words),
        cmocka_unit_test(impact_names_and_cap),    cmocka_unit_test(wrong_types_read_as_missing),
        cmocka_unit_test(picks_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
