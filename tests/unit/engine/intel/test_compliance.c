/* The compliance mapping (src/engine/intel/compliance.c, data/compliance/mapping.json): the embedded
 * mapping loads and agrees with the repository's other tables (OWASP LLM ids and titles, ATT&CK
 * and ATLAS ids, the CWEs and techniques of the seed); a fixture record gets exactly the expected
 * controls with their reasons; unknown facts fall back to the baseline; output order does not
 * depend on input order; the loader refuses a broken mapping. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/embedded.h"
#include "engine/intel/attack.h"
#include "services/intel_ingest.h"
#include "engine/intel/compliance.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct bw_compliance *g_c;

/* ---- helpers ------------------------------------------------------------------------------ */

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *v = json_loads(text, 0, &e);
    if (!v)
        fail_msg("bad test JSON: %s at %d:%d", e.text, e.line, e.column);
    return v;
}

static json_t *embedded_json(const char *name)
{
    const struct bw_embedded *f = bw_embedded_find(name);
    assert_non_null(f);
    json_t *v = json_loadb((const char *)f->data, f->len, 0, NULL);
    assert_non_null(v);
    return v;
}

static json_t *map1(const json_t *rec)
{
    const json_t *recs[] = {rec};
    json_t *m = bw_compliance_map(g_c, recs, 1);
    assert_non_null(m);
    return m;
}

static const json_t *framework(const json_t *m, const char *id)
{
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(m, "frameworks"), i, f)
        if (strcmp(json_string_value(json_object_get(f, "id")), id) == 0)
            return f;
    fail_msg("no framework %s", id);
    return NULL;
}

static const json_t *control(const json_t *m, const char *fw, const char *id)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(framework(m, fw), "controls"), i, c)
        if (strcmp(json_string_value(json_object_get(c, "control_id")), id) == 0)
            return c;
    return NULL;
}

/* The control ids of one framework, comma-joined, e.g. "A.5.7,A.8.8". */
static char *ids_of(const json_t *m, const char *fw)
{
    static char buf[2048];
    buf[0] = '\0';
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(framework(m, fw), "controls"), i, c) {
        if (i)
            strcat(buf, ",");
        strcat(buf, json_string_value(json_object_get(c, "control_id")));
    }
    return buf;
}

static char *gaps_of(const json_t *m, size_t rec, const char *fw)
{
    static char buf[2048];
    buf[0] = '\0';
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(json_object_get(json_array_get(json_object_get(m, "cves"), rec), "gaps"), fw),
                       i, c) {
        if (i)
            strcat(buf, ",");
        strcat(buf, json_string_value(c));
    }
    return buf;
}

static bool has_why(const json_t *ctl, const char *tid, const char *via)
{
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(ctl, "why"), i, w)
        if (strcmp(json_string_value(json_object_get(w, "threat_id")), tid) == 0 &&
            strcmp(json_string_value(json_object_get(w, "via")), via) == 0) {
            assert_true(json_string_length(json_object_get(w, "rationale")) > 10);
            return true;
        }
    return false;
}

static char *dump(const json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT);
    assert_non_null(s);
    return s;
}

/* Structure every mapping answer must have. */
static void check_shape(const json_t *m, size_t nrec)
{
    assert_true(json_is_string(json_object_get(m, "mapping_version")));
    const json_t *fws = json_object_get(m, "frameworks");
    assert_int_equal(json_array_size(fws), BW_COMPLIANCE_FRAMEWORKS);
    for (size_t f = 0; f < BW_COMPLIANCE_FRAMEWORKS; f++) {
        const json_t *fw = json_array_get(fws, f);
        assert_string_equal(json_string_value(json_object_get(fw, "id")), bw_compliance_framework_ids[f]);
        assert_true(json_string_length(json_object_get(fw, "name")) > 0);
        assert_true(json_string_length(json_object_get(fw, "version")) > 0);
        const json_t *ctls = json_object_get(fw, "controls");
        assert_int_equal(json_integer_value(json_object_get(fw, "controls_affected")), json_array_size(ctls));
        size_t i;
        json_t *c;
        json_array_foreach(ctls, i, c) {
            assert_int_equal(json_object_size(c), 5);
            assert_true(json_string_length(json_object_get(c, "title")) > 0);
            assert_true(json_array_size(json_object_get(c, "threat_ids")) > 0);
            assert_true(json_array_size(json_object_get(c, "why")) > 0);
            assert_true(json_is_array(json_object_get(c, "cves")));
            /* threat ids sorted and unique */
            const json_t *t = json_object_get(c, "threat_ids");
            for (size_t k = 1; k < json_array_size(t); k++)
                assert_true(strcmp(json_string_value(json_array_get(t, k - 1)), json_string_value(json_array_get(t, k))) < 0);
            /* one why per (threat, via) */
            const json_t *why = json_object_get(c, "why");
            for (size_t a = 0; a < json_array_size(why); a++)
                for (size_t b = 0; b < a; b++) {
                    const json_t *x = json_array_get(why, a), *y = json_array_get(why, b);
                    assert_false(json_equal(json_object_get(x, "threat_id"), json_object_get(y, "threat_id")) &&
                                 json_equal(json_object_get(x, "via"), json_object_get(y, "via")));
                }
        }
    }
    const json_t *per = json_object_get(m, "cves");
    assert_int_equal(json_array_size(per), nrec);
    size_t i;
    json_t *e;
    json_array_foreach(per, i, e) {
        const json_t *gaps = json_object_get(e, "gaps");
        assert_int_equal(json_object_size(gaps), BW_COMPLIANCE_FRAMEWORKS);
        const char *tid = json_string_value(json_object_get(e, "threat_id"));
        for (size_t f = 0; f < BW_COMPLIANCE_FRAMEWORKS; f++) {
            size_t k;
            json_t *g;
            json_array_foreach(json_object_get(gaps, bw_compliance_framework_ids[f]), k, g) {
                /* every gap shows in the framework's list with this threat among its reasons */
                const json_t *c = control(m, bw_compliance_framework_ids[f], json_string_value(g));
                assert_non_null(c);
                bool listed = false;
                size_t j;
                json_t *t;
                json_array_foreach(json_object_get(c, "threat_ids"), j, t) listed = listed || strcmp(json_string_value(t), tid) == 0;
                assert_true(listed);
            }
        }
    }
}

/* ---- tests --------------------------------------------------------------------------------- */

static void loads(void **state)
{
    (void)state;
    assert_non_null(g_c);
    json_t *m = bw_compliance_map(g_c, NULL, 0);
    assert_non_null(m);
    check_shape(m, 0);
    for (size_t f = 0; f < BW_COMPLIANCE_FRAMEWORKS; f++)
        assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(m, "frameworks"), f),
                                                            "controls_affected")),
                         0);
    json_decref(m);
}

/* The mapping's OWASP catalog is the repository's (data/frameworks/owasp-llm.json); every ATT&CK
 * and ATLAS id it names exists in the embedded tables; control ids have their framework's form. */
static void agrees_with_other_tables(void **state)
{
    (void)state;
    json_t *map = embedded_json(BW_COMPLIANCE_FILE), *owasp = embedded_json("data/frameworks/owasp-llm.json");
    size_t i;
    json_t *fw;
    json_array_foreach(json_object_get(map, "frameworks"), i, fw) {
        const char *id = json_string_value(json_object_get(fw, "id"));
        size_t j;
        json_t *c;
        json_array_foreach(json_object_get(fw, "controls"), j, c) {
            const char *cid = json_string_value(json_object_get(c, "id"));
            const char *prefix = strcmp(id, "iso_27001_2022") == 0 ? "A."
                                 : strcmp(id, "soc2_tsc") == 0     ? ""
                                 : strcmp(id, "gdpr") == 0         ? "Art. "
                                 : strcmp(id, "dpdp_2023") == 0    ? "Section "
                                 : strcmp(id, "owasp_llm_2025") == 0 ? "LLM"
                                                                     : "";
            assert_int_equal(strncmp(cid, prefix, strlen(prefix)), 0);
            if (strcmp(id, "nist_csf_2.0") == 0)
                assert_true(strlen(cid) == 8 && cid[2] == '.' && cid[5] == '-');
            if (strcmp(id, "owasp_llm_2025") == 0) {
                bool found = false;
                size_t k;
                json_t *o;
                json_array_foreach(json_object_get(owasp, "controls"), k, o)
                    if (strcmp(json_string_value(json_object_get(o, "id")), cid) == 0) {
                        assert_string_equal(json_string_value(json_object_get(o, "title")),
                                            json_string_value(json_object_get(c, "title")));
                        found = true;
                    }
                assert_true(found);
            }
        }
        if (strcmp(id, "owasp_llm_2025") == 0)
            assert_int_equal(json_array_size(json_object_get(fw, "controls")), 10);
    }
    const json_t *tr = json_object_get(map, "triggers");
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(tr, "attack"), k, v)
        if (!bw_attack_technique_find(k))
            fail_msg("ATT&CK technique %s is not in %s", k, BW_ATTACK_FILE);
    json_object_foreach(json_object_get(tr, "atlas_techniques"), k, v)
        if (!bw_atlas_technique_find(k))
            fail_msg("ATLAS technique %s is not in %s", k, BW_ATLAS_FILE);

    /* every CWE and ATT&CK technique of the seed leads somewhere (a sub-technique through its parent) */
    json_t *seed = embedded_json(BW_SEED_FILE);
    json_t *r;
    json_array_foreach(json_object_get(seed, "records"), i, r) {
        size_t j;
        json_t *x;
        json_array_foreach(json_object_get(r, "cwe"), j, x)
            if (!json_object_get(json_object_get(tr, "cwe"), json_string_value(x)))
                fail_msg("seed CWE %s is not mapped", json_string_value(x));
        json_array_foreach(json_object_get(r, "attack_techniques"), j, x) {
            char parent[16];
            snprintf(parent, sizeof parent, "%.5s", json_string_value(x));
            if (!json_object_get(json_object_get(tr, "attack"), json_string_value(x)) &&
                !json_object_get(json_object_get(tr, "attack"), parent))
                fail_msg("seed technique %s is not mapped", json_string_value(x));
        }
    }
    /* the common web weaknesses */
    const char *web[] = {"CWE-20", "CWE-22", "CWE-77", "CWE-78", "CWE-79", "CWE-89", "CWE-94", "CWE-200",
                         "CWE-287", "CWE-306", "CWE-352", "CWE-434", "CWE-502", "CWE-601", "CWE-611",
                         "CWE-798", "CWE-862", "CWE-863", "CWE-918", "CWE-1321", "CWE-1426", "CWE-1427"};
    for (size_t w = 0; w < sizeof web / sizeof web[0]; w++)
        if (!json_object_get(json_object_get(tr, "cwe"), web[w]))
            fail_msg("%s is not mapped", web[w]);
    json_decref(seed);
    json_decref(map);
    json_decref(owasp);
}

static const char FIXTURE[] =
    "{\"id\":\"CVE-2099-2222\",\"cve\":[\"CVE-2099-2222\"],\"cwe\":[\"CWE-22\"],\"attack_techniques\":[\"T1190\"],"
    "\"atlas_techniques\":[],\"ai_impact\":[],\"kev\":true,\"exploit_available\":false,\"affected\":[]}";

static void fixture_cwe22_t1190_kev(void **state)
{
    (void)state;
    json_t *rec = parse(FIXTURE);
    json_t *m = map1(rec);
    check_shape(m, 1);
    assert_string_equal(ids_of(m, "iso_27001_2022"), "A.5.7,A.5.24,A.5.25,A.8.3,A.8.8,A.8.16,A.8.20,A.8.28,A.8.32");
    assert_string_equal(ids_of(m, "soc2_tsc"), "CC6.1,CC6.6,CC7.1,CC7.2,CC7.3,CC8.1");
    assert_string_equal(ids_of(m, "nist_csf_2.0"),
                        "DE.AE-07,DE.CM-01,ID.AM-02,ID.RA-01,ID.RA-02,ID.RA-05,PR.AA-05,PR.IR-01,PR.PS-02,PR.PS-06");
    assert_string_equal(ids_of(m, "gdpr"), "Art. 32,Art. 33");
    assert_string_equal(ids_of(m, "dpdp_2023"), "Section 8(5),Section 8(6)");
    assert_string_equal(ids_of(m, "owasp_llm_2025"), "");
    assert_int_equal(json_integer_value(json_object_get(framework(m, "owasp_llm_2025"), "controls_affected")), 0);
    /* the per-record view says the same */
    assert_string_equal(gaps_of(m, 0, "iso_27001_2022"), ids_of(m, "iso_27001_2022"));
    assert_string_equal(gaps_of(m, 0, "gdpr"), "Art. 32,Art. 33");
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(m, "cves"), 0), "threat_id")),
                        "CVE-2099-2222");

    /* reasons */
    const char *t = "CVE-2099-2222";
    assert_true(has_why(control(m, "iso_27001_2022", "A.8.28"), t, "CWE-22"));
    assert_true(has_why(control(m, "iso_27001_2022", "A.8.20"), t, "T1190"));
    assert_true(has_why(control(m, "iso_27001_2022", "A.5.7"), t, "kev"));
    assert_true(has_why(control(m, "iso_27001_2022", "A.8.8"), t, "kev"));
    assert_true(has_why(control(m, "iso_27001_2022", "A.8.8"), t, "baseline"));
    assert_int_equal(json_array_size(json_object_get(control(m, "iso_27001_2022", "A.8.8"), "why")), 2);
    const json_t *art32 = control(m, "gdpr", "Art. 32");
    assert_true(has_why(art32, t, "CWE-22") && has_why(art32, t, "T1190") && has_why(art32, t, "kev") &&
                has_why(art32, t, "baseline"));
    assert_int_equal(json_array_size(json_object_get(art32, "why")), 4);
    /* why in trigger order: CWE, ATT&CK, KEV, baseline */
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(art32, "why"), 0), "via")), "CWE-22");
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(art32, "why"), 3), "via")), "baseline");
    assert_true(has_why(control(m, "soc2_tsc", "CC6.1"), t, "CWE-22"));
    assert_true(has_why(control(m, "nist_csf_2.0", "DE.CM-01"), t, "T1190"));
    assert_true(has_why(control(m, "dpdp_2023", "Section 8(6)"), t, "kev"));
    const json_t *cves = json_object_get(control(m, "soc2_tsc", "CC7.1"), "cves");
    assert_int_equal(json_array_size(cves), 1);
    assert_string_equal(json_string_value(json_array_get(cves, 0)), "CVE-2099-2222");
    assert_string_equal(json_string_value(json_object_get(control(m, "iso_27001_2022", "A.8.8"), "title")),
                        "Technical vulnerability management");
    json_decref(m);
    json_decref(rec);
}

static void unknown_facts_fall_back_to_baseline(void **state)
{
    (void)state;
    json_t *rec = parse("{\"id\":\"CVE-2099-3333\",\"cve\":[\"CVE-2099-3333\"],\"cwe\":[\"CWE-99999\",\"CWE-x\",7],"
                        "\"attack_techniques\":[\"T9999\",\"nope\"],\"atlas_techniques\":[\"AML.T9999\"],"
                        "\"ai_impact\":[\"unheard_of\"],\"type\":\"nonsense\",\"kev\":\"yes\"}");
    json_t *m = map1(rec);
    check_shape(m, 1);
    assert_string_equal(ids_of(m, "iso_27001_2022"), "A.5.7,A.8.8,A.8.32"); /* baseline + ATLAS presence */
    assert_string_equal(ids_of(m, "soc2_tsc"), "CC3.2,CC7.1,CC8.1");
    assert_string_equal(ids_of(m, "gdpr"), "Art. 32");
    assert_true(has_why(control(m, "iso_27001_2022", "A.8.8"), "CVE-2099-3333", "baseline"));
    assert_true(has_why(control(m, "iso_27001_2022", "A.5.7"), "CVE-2099-3333", "atlas"));
    assert_int_equal(json_array_size(json_object_get(control(m, "iso_27001_2022", "A.8.8"), "why")), 1);
    json_decref(m);
    json_decref(rec);

    /* nothing at all: no CVE, no package, no known fact -> no gap */
    rec = parse("{\"id\":\"X-1\",\"cwe\":[\"CWE-99999\"]}");
    m = map1(rec);
    check_shape(m, 1);
    for (size_t f = 0; f < BW_COMPLIANCE_FRAMEWORKS; f++)
        assert_string_equal(gaps_of(m, 0, bw_compliance_framework_ids[f]), "");
    json_decref(m);
    json_decref(rec);
}

static void ai_facts_reach_owasp(void **state)
{
    (void)state;
    json_t *rec = parse("{\"id\":\"AML.CS0099\",\"type\":\"agent_threat\",\"cve\":[],"
                        "\"attack_techniques\":[\"T1059.006\"],\"atlas_techniques\":[\"AML.T0051.001\",\"AML.T0056\"],"
                        "\"ai_impact\":[\"prompt_injection\",\"tool_execution\",\"model_theft\"],\"exploit_available\":true}");
    json_t *m = map1(rec);
    check_shape(m, 1);
    assert_string_equal(ids_of(m, "owasp_llm_2025"), "LLM01,LLM05,LLM06,LLM07,LLM10");
    const char *t = "AML.CS0099";
    assert_true(has_why(control(m, "owasp_llm_2025", "LLM01"), t, "AML.T0051.001")); /* through its parent */
    assert_true(has_why(control(m, "owasp_llm_2025", "LLM01"), t, "ai_impact:prompt_injection"));
    assert_true(has_why(control(m, "owasp_llm_2025", "LLM07"), t, "AML.T0056"));
    assert_true(has_why(control(m, "owasp_llm_2025", "LLM06"), t, "ai_impact:tool_execution"));
    assert_true(has_why(control(m, "owasp_llm_2025", "LLM06"), t, "type:agent_threat"));
    assert_true(has_why(control(m, "owasp_llm_2025", "LLM10"), t, "ai_impact:model_theft"));
    assert_true(has_why(control(m, "nist_csf_2.0", "PR.PS-05"), t, "T1059.006"));
    assert_true(has_why(control(m, "soc2_tsc", "CC3.2"), t, "exploit_available"));
    assert_true(has_why(control(m, "iso_27001_2022", "A.5.7"), t, "atlas"));
    /* no CVE, no package: no patching baseline */
    assert_false(has_why(control(m, "iso_27001_2022", "A.8.8"), t, "baseline"));
    assert_int_equal(json_array_size(json_object_get(control(m, "owasp_llm_2025", "LLM01"), "cves")), 0);
    json_decref(m);
    json_decref(rec);
}

static void order_independent(void **state)
{
    (void)state;
    json_t *a = parse(FIXTURE);
    json_t *b = parse("{\"id\":\"CVE-2099-0010\",\"cve\":[\"CVE-2099-0010\",\"CVE-2099-0009\"],\"cwe\":[\"CWE-78\"],"
                      "\"kev\":true,\"ai_impact\":[\"tool_execution\"]}");
    json_t *c = parse("{\"id\":\"CVE-2099-0100\",\"cve\":[\"CVE-2099-0100\"],\"cwe\":[\"CWE-22\",\"CWE-23\"]}");
    json_t *junk = parse("[1,2]"), *badid = parse("{\"id\":\"../x\",\"cve\":[\"CVE-2099-0001\"]}");
    const json_t *one[] = {a, junk, b, c, badid}, *two[] = {c, badid, b, junk, a};
    json_t *m1 = bw_compliance_map(g_c, one, 5), *m2 = bw_compliance_map(g_c, two, 5),
           *m3 = bw_compliance_map(g_c, one, 5);
    assert_non_null(m1);
    assert_non_null(m2);
    check_shape(m1, 3);
    char *d1 = dump(m1), *d2 = dump(m2), *d3 = dump(m3);
    assert_string_equal(d1, d2);
    assert_string_equal(d1, d3);
    /* records by id; CVE lists merged, sorted naturally and unique */
    const json_t *per = json_object_get(m1, "cves");
    assert_string_equal(json_string_value(json_object_get(json_array_get(per, 0), "threat_id")), "CVE-2099-0010");
    assert_string_equal(json_string_value(json_object_get(json_array_get(per, 1), "threat_id")), "CVE-2099-0100");
    assert_string_equal(json_string_value(json_object_get(json_array_get(per, 2), "threat_id")), "CVE-2099-2222");
    const json_t *a88 = control(m1, "iso_27001_2022", "A.8.8");
    char *cv = dump(json_object_get(a88, "cves")), *ti = dump(json_object_get(a88, "threat_ids"));
    assert_string_equal(cv, "[\"CVE-2099-0009\",\"CVE-2099-0010\",\"CVE-2099-0100\",\"CVE-2099-2222\"]");
    assert_string_equal(ti, "[\"CVE-2099-0010\",\"CVE-2099-0100\",\"CVE-2099-2222\"]");
    /* two CWEs of one theme: one control, one reason each */
    const json_t *a828 = control(m1, "iso_27001_2022", "A.8.28");
    assert_true(has_why(a828, "CVE-2099-0100", "CWE-22") && has_why(a828, "CVE-2099-0100", "CWE-23"));
    free(cv);
    free(ti);
    free(d1);
    free(d2);
    free(d3);
    json_decref(m1);
    json_decref(m2);
    json_decref(m3);
    json_decref(a);
    json_decref(b);
    json_decref(c);
    json_decref(junk);
    json_decref(badid);
}

static void whole_seed(void **state)
{
    (void)state;
    json_t *seed = embedded_json(BW_SEED_FILE);
    const json_t *recs = json_object_get(seed, "records");
    size_t n = json_array_size(recs);
    const json_t **v = calloc(n, sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = json_array_get(recs, i);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    json_t *m = bw_compliance_map(g_c, v, n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_non_null(m);
    print_message("compliance map of %zu records: %.1f ms\n", n,
                  (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    check_shape(m, n);
    /* the seed touches every framework */
    for (size_t f = 0; f < BW_COMPLIANCE_FRAMEWORKS; f++)
        assert_true(json_integer_value(json_object_get(json_array_get(json_object_get(m, "frameworks"), f),
                                                       "controls_affected")) > 0);
    /* the KEV record of the seed is a known-exploited gap */
    assert_true(has_why(control(m, "soc2_tsc", "CC7.3"), "CVE-2025-3248", "kev"));
    json_decref(m);
    free(v);
    json_decref(seed);
}

/* A copy of the embedded mapping changed by edit(), which must make the loader refuse it with a
 * message containing want. */
static void refuse(void (*edit)(json_t *), const char *want)
{
    json_t *doc = embedded_json(BW_COMPLIANCE_FILE);
    edit(doc);
    char *text = json_dumps(doc, 0);
    struct bw_compliance *c = (struct bw_compliance *)1;
    char why[256] = "";
    assert_int_equal(bw_compliance_load_text(text, strlen(text), &c, why, sizeof why), -1);
    assert_null(c);
    if (!strstr(why, want))
        fail_msg("loader said \"%s\", expected \"%s\"", why, want);
    free(text);
    json_decref(doc);
}

static json_t *theme_links(json_t *doc, const char *theme, const char *fw)
{
    return json_object_get(json_object_get(json_object_get(json_object_get(doc, "themes"), theme), "controls"), fw);
}

static void edit_unknown_control(json_t *doc)
{
    json_array_append_new(theme_links(doc, "path_traversal", "iso_27001_2022"),
                          json_pack("{s:s,s:s}", "control", "A.8.99", "rationale", "no such control"));
}
static void edit_control_of_other_framework(json_t *doc)
{
    json_array_append_new(theme_links(doc, "path_traversal", "gdpr"),
                          json_pack("{s:s,s:s}", "control", "A.8.28", "rationale", "an ISO id under GDPR"));
}
static void edit_missing_framework(json_t *doc)
{
    json_array_remove(json_object_get(doc, "frameworks"), 4);
}
static void edit_unknown_framework(json_t *doc)
{
    json_object_set_new(json_array_get(json_object_get(doc, "frameworks"), 4), "id", json_string("pci_dss_4"));
}
static void edit_duplicate_control(json_t *doc)
{
    json_t *ctls = json_object_get(json_array_get(json_object_get(doc, "frameworks"), 0), "controls");
    json_array_append(ctls, json_array_get(ctls, 0));
}
static void edit_unknown_theme(json_t *doc)
{
    json_array_append_new(json_object_get(json_object_get(json_object_get(doc, "triggers"), "cwe"), "CWE-22"),
                          json_string("no_such_theme"));
}
static void edit_unused_theme(json_t *doc)
{
    json_object_set_new(json_object_get(doc, "themes"), "orphan",
                        json_pack("{s:s,s:{s:[{s:s,s:s}]}}", "label", "orphan", "controls", "gdpr", "control",
                                  "Art. 32", "rationale", "nothing leads here"));
}
static void edit_bad_cwe_key(json_t *doc)
{
    json_object_set_new(json_object_get(json_object_get(doc, "triggers"), "cwe"), "CWE-2x",
                        json_pack("[s]", "path_traversal"));
}
static void edit_bad_attack_key(json_t *doc)
{
    json_object_set_new(json_object_get(json_object_get(doc, "triggers"), "attack"), "T190",
                        json_pack("[s]", "public_facing"));
}
static void edit_unknown_trigger_kind(json_t *doc)
{
    json_object_set_new(json_object_get(doc, "triggers"), "cvss", json_pack("[s]", "public_facing"));
}
static void edit_empty_rationale(json_t *doc)
{
    json_object_set_new(json_array_get(theme_links(doc, "path_traversal", "iso_27001_2022"), 0), "rationale",
                        json_string(""));
}
static void edit_no_version(json_t *doc)
{
    json_object_del(doc, "mapping_version");
}

static void loader_refuses_broken_mappings(void **state)
{
    (void)state;
    refuse(edit_unknown_control, "A.8.99");
    refuse(edit_control_of_other_framework, "gdpr control A.8.28");
    refuse(edit_missing_framework, "framework dpdp_2023 is missing");
    refuse(edit_unknown_framework, "unknown or missing id");
    refuse(edit_duplicate_control, "listed twice");
    refuse(edit_unknown_theme, "no_such_theme");
    refuse(edit_unused_theme, "orphan");
    refuse(edit_bad_cwe_key, "CWE-2x");
    refuse(edit_bad_attack_key, "T190");
    refuse(edit_unknown_trigger_kind, "cvss");
    refuse(edit_empty_rationale, "rationale");
    refuse(edit_no_version, "mapping_version");

    struct bw_compliance *c = NULL;
    char why[256] = "";
    assert_int_equal(bw_compliance_load_text("{\"a\":1,\"a\":2}", 13, &c, why, sizeof why), -1);
    assert_int_equal(bw_compliance_load_text("[", 1, &c, why, sizeof why), -1);
    assert_int_equal(bw_compliance_load_text("", 0, &c, why, sizeof why), -1);
    assert_null(c);
    /* the untouched text loads */
    const struct bw_embedded *f = bw_embedded_find(BW_COMPLIANCE_FILE);
    assert_int_equal(bw_compliance_load_text((const char *)f->data, f->len, &c, why, sizeof why), 0);
    bw_compliance_free(c);
    bw_compliance_free(NULL);
}

static int setup(void **state)
{
    (void)state;
    char why[256];
    if (bw_compliance_load(&g_c, why, sizeof why) != 0) {
        print_error("bw_compliance_load: %s\n", why);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    bw_compliance_free(g_c);
    g_c = NULL;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads),
        cmocka_unit_test(agrees_with_other_tables),
        cmocka_unit_test(fixture_cwe22_t1190_kev),
        cmocka_unit_test(unknown_facts_fall_back_to_baseline),
        cmocka_unit_test(ai_facts_reach_owasp),
        cmocka_unit_test(order_independent),
        cmocka_unit_test(whole_seed),
        cmocka_unit_test(loader_refuses_broken_mappings),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
