/* The playbook generator (src/engine/intel/playbook.c) and the ATT&CK/ATLAS tables it reads
 * (src/engine/intel/attack.c): shape of every member, the SP 800-61 entries, one architecture entry per
 * tactic, references, KQL, determinism, odd input, speed, and the golden files of
 * tests/golden/playbooks (BULWARK_UPDATE_GOLDEN=1 rewrites them; see tests/golden/README.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/intel/attack.h"
#include "common/sbuf.h"
#include "engine/intel/playbook.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- helpers ------------------------------------------------------------------------------ */

/* tests/golden/playbooks below the source tree (CMake passes BULWARK_SOURCE_DIR), or
 * BULWARK_GOLDEN_DIR. */
static const char *golden_dir(void)
{
    const char *env = getenv("BULWARK_GOLDEN_DIR");
    if (env && *env)
        return env;
    return BULWARK_SOURCE_DIR "/tests/golden/playbooks";
}

static json_t *load_golden_record(const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.record.json", golden_dir(), name);
    json_error_t e;
    json_t *r = json_load_file(path, 0, &e);
    if (!r)
        fail_msg("%s: %s", path, e.text);
    return r;
}

static json_t *build(const json_t *record)
{
    json_t *pb = bw_playbook_build(record);
    assert_non_null(pb);
    return pb;
}

static json_t *build_text(const char *text)
{
    json_error_t e;
    json_t *r = json_loads(text, JSON_ALLOW_NUL, &e);
    if (!r)
        fail_msg("bad test record: %s", e.text);
    json_t *pb = build(r);
    json_decref(r);
    return pb;
}

static const char *str_at(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s)
        fail_msg("member %s is not a string", key);
    return s;
}

static bool array_has_string(const json_t *a, const char *needle)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v)
        if (json_string_value(v) && strstr(json_string_value(v), needle))
            return true;
    return false;
}

static bool has_reference(const json_t *pb, const char *url)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(pb, "references"), i, r)
        if (strcmp(json_string_value(json_object_get(r, "url")), url) == 0)
            return true;
    return false;
}

static void assert_string_array(const json_t *a, bool nonempty)
{
    assert_true(json_is_array(a));
    if (nonempty)
        assert_true(json_array_size(a) > 0);
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        assert_true(json_is_string(v));
        assert_true(json_string_length(v) > 0);
    }
}

static const char *const GOLDEN[] = {"ai_cve_kev_langflow", "ai_cve_osv_mlflow", "model_advisory_onnx",
                                     "prompt_attack_atlas_t0051", "agent_threat_atlas_cs0045", "minimal_unknown"};
#define N_GOLDEN (sizeof GOLDEN / sizeof GOLDEN[0])

/* A record with T1190 + T1059.006 + T1005 and nothing from ATLAS. */
static const char THREE_TECHNIQUES[] =
    "{\"id\":\"CVE-2099-0001\",\"type\":\"ai_cve\",\"title\":\"t\",\"summary\":\"s\",\"severity\":\"HIGH\","
    "\"cvss\":{\"version\":\"3.1\",\"vector\":\"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H\",\"base_score\":9.8},"
    "\"cve\":[\"CVE-2099-0001\",\"CVE-2099-0002\"],\"kev\":false,\"kev_details\":null,\"cwe\":[\"CWE-94\"],"
    "\"attack_techniques\":[\"T1005\",\"T1059.006\",\"T1190\"],\"atlas_techniques\":[],"
    "\"affected\":[{\"vendor\":\"\",\"product\":\"\",\"ecosystem\":\"PyPI\",\"package\":\"somepkg\",\"introduced\":\"0\",\"fixed\":\"1.2.3\"}],"
    "\"exploit_available\":false,\"ai_impact\":[],\"references\":[],\"published\":\"2099-01-01T00:00:00Z\","
    "\"updated\":\"2099-01-01T00:00:00Z\",\"source\":\"osv\",\"sources\":[\"osv\"],\"version\":1,\"risk_score\":80,\"risk_tier\":\"HIGH\"}";

/* ---- the ATT&CK and ATLAS tables ---------------------------------------------------------- */

static void attack_table(void **state)
{
    (void)state;
    assert_int_equal(bw_attack_load(), 0);
    assert_int_equal(bw_attack_tactic_count(), 14);
    assert_string_equal(bw_attack_tactic_at(0)->shortname, "reconnaissance");
    assert_string_equal(bw_attack_tactic_at(13)->shortname, "impact");
    assert_ptr_equal(bw_attack_tactic_find("execution"), bw_attack_tactic_find("TA0002"));
    assert_null(bw_attack_tactic_find("TA9999"));
    assert_true(bw_attack_technique_count() > 600);
    for (size_t i = 1; i < bw_attack_technique_count(); i++)
        assert_true(strcmp(bw_attack_technique_at(i - 1)->id, bw_attack_technique_at(i)->id) < 0);

    const struct bw_attack_technique *py = bw_attack_technique_find("T1059.006");
    assert_non_null(py);
    assert_string_equal(py->name, "Python");
    assert_string_equal(py->url, "https://attack.mitre.org/techniques/T1059/006/");
    assert_string_equal(py->parent->id, "T1059");
    assert_int_equal(py->n_tactics, 1);
    assert_string_equal(py->tactics[0]->id, "TA0002");
    assert_string_equal(bw_attack_technique_find("T1190")->url, "https://attack.mitre.org/techniques/T1190/");

    /* tactics in matrix order even when the source lists them otherwise (T1078: four tactics) */
    const struct bw_attack_technique *va = bw_attack_technique_find("T1078");
    assert_true(va->n_tactics >= 2);
    for (size_t i = 1; i < va->n_tactics; i++)
        assert_true(va->tactics[i - 1]->order < va->tactics[i]->order);

    /* mitigations sorted; a sub-technique without its own shows its parent's */
    size_t inherited = 0;
    for (size_t i = 0; i < bw_attack_technique_count(); i++) {
        const struct bw_attack_technique *t = bw_attack_technique_at(i);
        for (size_t k = 1; k < t->n_mitigations; k++)
            assert_true(strcmp(t->mitigations[k - 1]->id, t->mitigations[k]->id) < 0);
        if (t->mitigations_inherited) {
            inherited++;
            assert_non_null(t->parent);
            assert_ptr_equal(t->mitigations, t->parent->mitigations);
        }
    }
    assert_true(inherited > 0);

    assert_null(bw_attack_technique_find("T1059.999"));
    assert_ptr_equal(bw_attack_technique_resolve("T1059.999"), bw_attack_technique_find("T1059"));
    assert_null(bw_attack_technique_resolve("T9999"));
    assert_null(bw_attack_technique_resolve("bogus"));
    assert_null(bw_attack_technique_find(NULL));
    assert_true(bw_attack_id_valid("T1059.006"));
    assert_false(bw_attack_id_valid("T1059.06"));
    assert_false(bw_attack_id_valid("t1059"));
    assert_string_equal(bw_attack_mitigation_find("M1016")->name, "Vulnerability Scanning");
    assert_string_equal(bw_attack_mitigation_find("M1016")->url, "https://attack.mitre.org/mitigations/M1016/");
    assert_true(strstr(bw_attack_source(), "mitre/cti") != NULL);

    /* ATLAS: tactics map to ATT&CK tactics, references to ATT&CK techniques */
    const struct bw_atlas_technique *pi = bw_atlas_technique_find("AML.T0051");
    assert_non_null(pi);
    assert_string_equal(pi->name, "LLM Prompt Injection");
    assert_string_equal(pi->tactics[0]->id, "AML.TA0005");
    assert_string_equal(pi->tactics[0]->attack->id, "TA0002");
    assert_true(pi->n_mitigations > 0);
    const struct bw_atlas_technique *indirect = bw_atlas_technique_find("AML.T0051.001");
    assert_ptr_equal(indirect->parent, pi);
    assert_ptr_equal(indirect->tactics, pi->tactics); /* sub-techniques act under the parent's */
    assert_string_equal(bw_atlas_technique_find("AML.T0049")->attack_reference->id, "T1190");
    assert_ptr_equal(bw_atlas_technique_resolve("AML.T0051.099"), pi);
    assert_null(bw_atlas_tactic_find("AML.TA0000")->attack); /* AI Model Access: no ATT&CK twin */
    assert_string_equal(bw_atlas_mitigation_find("AML.M0020")->name, "Generative AI Guardrails");
}

/* ---- shape ---------------------------------------------------------------------------------- */

static void check_shape(const json_t *pb)
{
    static const char *const members[] = {"risk_tier", "immediate_actions", "detection_guidance", "threat_hunting_guide",
                                          "soc_playbook", "incident_response_playbook", "executive_advisory",
                                          "security_architecture_guidance", "operational_checklist", "references",
                                          "supporting_evidence"};
    assert_true(json_is_object(pb));
    /* the spec's members, in this order, and nothing else */
    assert_int_equal(json_object_size(pb), sizeof members / sizeof members[0]);
    size_t k = 0;
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)pb, key, v)
        assert_string_equal(key, members[k++]);

    const char *tier = str_at(pb, "risk_tier");
    assert_true(!strcmp(tier, "CRITICAL") || !strcmp(tier, "HIGH") || !strcmp(tier, "MEDIUM") || !strcmp(tier, "LOW"));
    assert_string_array(json_object_get(pb, "immediate_actions"), true);
    assert_string_array(json_object_get(pb, "detection_guidance"), true);

    const json_t *g = json_object_get(pb, "threat_hunting_guide");
    assert_true(json_is_object(g));
    assert_true(strlen(str_at(g, "suggested_query")) > 0);
    assert_string_equal(str_at(g, "query_language"), "KQL");
    assert_string_array(json_object_get(g, "data_sources"), true);
    assert_true(strlen(str_at(g, "hypothesis")) > 0);
    assert_true(strlen(str_at(g, "timeframe")) > 0);
    assert_true(json_is_integer(json_object_get(g, "lookback_days")));
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(g, "additional_queries"), i, x) {
        assert_true(strlen(str_at(x, "name")) > 0);
        assert_true(strlen(str_at(x, "data_source")) > 0);
        assert_true(strlen(str_at(x, "query")) > 0);
    }

    const json_t *soc = json_object_get(pb, "soc_playbook");
    assert_true(json_array_size(soc) >= 5);
    json_array_foreach(soc, i, x) {
        assert_true(strlen(str_at(x, "stage")) > 0);
        assert_true(strlen(str_at(x, "action")) > 0);
    }
    assert_true(json_array_size(json_object_get(pb, "incident_response_playbook")) == 6);
    assert_true(strlen(str_at(pb, "executive_advisory")) > 40);

    json_array_foreach(json_object_get(pb, "security_architecture_guidance"), i, x) {
        assert_true(json_is_boolean(json_object_get(x, "inferred")));
        assert_non_null(bw_attack_tactic_find(str_at(x, "tactic_id")));
        assert_true(strlen(str_at(x, "guidance")) > 0);
        assert_true(json_is_array(json_object_get(x, "techniques")));
        assert_true(json_is_array(json_object_get(x, "mitigations")));
        assert_string_array(json_object_get(x, "basis"), true);
    }
    assert_true(json_is_array(json_object_get(pb, "security_architecture_guidance")));

    const json_t *cl = json_object_get(pb, "operational_checklist");
    assert_true(json_array_size(cl) >= 5);
    json_array_foreach(cl, i, x) {
        assert_true(strlen(str_at(x, "item")) > 0);
        assert_true(strlen(str_at(x, "owner")) > 0);
        assert_true(strlen(str_at(x, "due")) > 0);
        assert_true(json_is_false(json_object_get(x, "done")));
    }
    json_array_foreach(json_object_get(pb, "references"), i, x) {
        assert_true(strlen(str_at(x, "label")) > 0);
        assert_true(strncmp(str_at(x, "url"), "https://", 8) == 0 || strncmp(str_at(x, "url"), "http://", 7) == 0);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(str_at(json_array_get(json_object_get(pb, "references"), j), "url"), str_at(x, "url"));
    }
    assert_true(json_is_object(json_object_get(pb, "supporting_evidence")));
}

static void members_and_types(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_GOLDEN; i++) {
        json_t *r = load_golden_record(GOLDEN[i]);
        json_t *pb = build(r);
        check_shape(pb);
        /* evidence: the record's values */
        const json_t *ev = json_object_get(pb, "supporting_evidence");
        assert_true(json_equal(json_object_get(ev, "id"), json_object_get(r, "id")));
        if (json_object_get(r, "cwe"))
            assert_true(json_equal(json_object_get(ev, "cwe"), json_object_get(r, "cwe")));
        if (json_is_object(json_object_get(r, "cvss")))
            assert_true(json_equal(json_object_get(ev, "cvss"), json_object_get(r, "cvss")));
        json_decref(pb);
        json_decref(r);
    }
}

/* ---- content ---------------------------------------------------------------------------------- */

static void ir_functions(void **state)
{
    (void)state;
    static const char *const fn[6][3] = {
        {"Govern", "GV", "Preparation"},
        {"Identify", "ID", "Preparation"},
        {"Protect", "PR", "Preparation"},
        {"Detect", "DE", "Detection & Analysis"},
        {"Respond", "RS", "Containment, Eradication & Recovery"},
        {"Recover", "RC", "Containment, Eradication & Recovery"},
    };
    for (size_t g = 0; g < N_GOLDEN; g++) {
        json_t *r = load_golden_record(GOLDEN[g]);
        json_t *pb = build(r);
        const json_t *ir = json_object_get(pb, "incident_response_playbook");
        assert_int_equal(json_array_size(ir), 6);
        for (size_t i = 0; i < 6; i++) {
            const json_t *e = json_array_get(ir, i);
            assert_string_equal(str_at(e, "function"), fn[i][0]);
            assert_string_equal(str_at(e, "csf_id"), fn[i][1]);
            assert_string_equal(str_at(e, "rev2_phase"), fn[i][2]);
            assert_string_array(json_object_get(e, "actions"), true);
            assert_string_array(json_object_get(e, "categories"), true);
            assert_true(strncmp(json_string_value(json_array_get(json_object_get(e, "categories"), 0)), fn[i][1], 2) == 0);
        }
        /* every Rev. 2 phase is covered somewhere */
        assert_true(array_has_string(json_object_get(json_array_get(ir, 1), "rev2_related"), "Post-Incident Activity"));
        assert_true(array_has_string(json_object_get(json_array_get(ir, 4), "rev2_related"), "Detection & Analysis"));
        json_decref(pb);
        json_decref(r);
    }
}

static void architecture_one_entry_per_tactic(void **state)
{
    (void)state;
    json_t *pb = build_text(THREE_TECHNIQUES);
    const json_t *arch = json_object_get(pb, "security_architecture_guidance");

    /* expected: the distinct tactics of the three techniques, in matrix order */
    const char *ids[] = {"T1190", "T1059.006", "T1005"};
    const struct bw_attack_tactic *want[14] = {0};
    size_t nwant = 0;
    for (size_t o = 0; o < bw_attack_tactic_count(); o++)
        for (size_t i = 0; i < 3; i++) {
            const struct bw_attack_technique *t = bw_attack_technique_find(ids[i]);
            bool under = false;
            for (size_t k = 0; k < t->n_tactics; k++)
                under |= t->tactics[k] == bw_attack_tactic_at(o);
            if (under && (nwant == 0 || want[nwant - 1] != bw_attack_tactic_at(o)))
                want[nwant++] = bw_attack_tactic_at(o);
        }
    assert_int_equal(nwant, 3); /* Initial Access, Execution, Collection */
    assert_int_equal(json_array_size(arch), nwant);
    for (size_t i = 0; i < nwant; i++) {
        const json_t *e = json_array_get(arch, i);
        assert_string_equal(str_at(e, "tactic_id"), want[i]->id);
        assert_string_equal(str_at(e, "tactic"), want[i]->name);
        assert_true(json_is_false(json_object_get(e, "inferred")));
        /* mitigations: exactly the table's for the techniques under this tactic */
        const json_t *techs = json_object_get(e, "techniques");
        assert_int_equal(json_array_size(techs), 1);
        const struct bw_attack_technique *t = bw_attack_technique_find(str_at(json_array_get(techs, 0), "id"));
        assert_string_equal(str_at(json_array_get(techs, 0), "source"), "record");
        const json_t *mits = json_object_get(e, "mitigations");
        assert_int_equal(json_array_size(mits), t->n_mitigations);
        for (size_t k = 0; k < t->n_mitigations; k++) {
            assert_string_equal(str_at(json_array_get(mits, k), "id"), t->mitigations[k]->id);
            assert_string_equal(str_at(json_array_get(mits, k), "name"), t->mitigations[k]->name);
            assert_string_equal(str_at(json_array_get(mits, k), "url"), t->mitigations[k]->url);
        }
    }
    json_decref(pb);

    /* nothing from ATT&CK in the record: inferred entries that say so */
    pb = build_text("{\"id\":\"CVE-2099-0003\",\"type\":\"ai_cve\",\"cwe\":[\"CWE-22\"],"
                    "\"cvss\":{\"version\":\"3.1\",\"vector\":\"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N\",\"base_score\":7.5}}");
    arch = json_object_get(pb, "security_architecture_guidance");
    assert_int_equal(json_array_size(arch), 2);
    assert_string_equal(str_at(json_array_get(arch, 0), "tactic_id"), "TA0001"); /* T1190 from AV:N */
    assert_string_equal(str_at(json_array_get(arch, 1), "tactic_id"), "TA0009"); /* T1005 from CWE-22 */
    for (size_t i = 0; i < 2; i++) {
        assert_true(json_is_true(json_object_get(json_array_get(arch, i), "inferred")));
        assert_string_equal(str_at(json_array_get(json_object_get(json_array_get(arch, i), "techniques"), 0), "source"), "inferred");
    }
    json_decref(pb);

    /* ATLAS only: tactics through ATLAS's correspondence, ATLAS mitigations */
    pb = build_text("{\"id\":\"AML.T0051\",\"type\":\"prompt_attack\",\"atlas_techniques\":[\"AML.T0051\"]}");
    arch = json_object_get(pb, "security_architecture_guidance");
    assert_int_equal(json_array_size(arch), 1);
    assert_string_equal(str_at(json_array_get(arch, 0), "tactic_id"), "TA0002");
    assert_true(json_array_size(json_object_get(json_array_get(arch, 0), "atlas_mitigations")) > 0);
    assert_true(json_is_true(json_object_get(json_array_get(arch, 0), "inferred")));
    json_decref(pb);

    /* ATLAS techniques with an ATT&CK reference give that technique */
    pb = build_text("{\"id\":\"X\",\"type\":\"ai_cve\",\"atlas_techniques\":[\"AML.T0049\"]}");
    arch = json_object_get(pb, "security_architecture_guidance");
    assert_int_equal(json_array_size(arch), 1);
    const json_t *t0 = json_array_get(json_object_get(json_array_get(arch, 0), "techniques"), 0);
    assert_string_equal(str_at(t0, "id"), "T1190");
    assert_string_equal(str_at(t0, "source"), "atlas_reference");
    json_decref(pb);
}

static void references_are_real(void **state)
{
    (void)state;
    json_t *pb = build_text(THREE_TECHNIQUES);
    assert_true(has_reference(pb, "https://nvd.nist.gov/vuln/detail/CVE-2099-0001"));
    assert_true(has_reference(pb, "https://nvd.nist.gov/vuln/detail/CVE-2099-0002"));
    assert_true(has_reference(pb, "https://attack.mitre.org/techniques/T1059/006/"));
    assert_true(has_reference(pb, "https://attack.mitre.org/techniques/T1190/"));
    assert_true(has_reference(pb, "https://attack.mitre.org/techniques/T1005/"));
    assert_true(has_reference(pb, "https://cwe.mitre.org/data/definitions/94.html"));
    assert_false(has_reference(pb, "https://www.cisa.gov/known-exploited-vulnerabilities-catalog"));
    json_decref(pb);

    json_t *r = load_golden_record("ai_cve_kev_langflow");
    pb = build(r);
    assert_true(has_reference(pb, "https://www.cisa.gov/known-exploited-vulnerabilities-catalog"));
    assert_true(has_reference(pb, "https://nvd.nist.gov/vuln/detail/CVE-2025-3248"));
    assert_true(has_reference(pb, "https://atlas.mitre.org/techniques/AML.T0050"));
    assert_true(has_reference(pb, "https://github.com/advisories/GHSA-c995-4fw3-j39m"));
    /* the record lists the NVD and KEV pages too: one entry each, in our order (NVD first) */
    assert_string_equal(str_at(json_array_get(json_object_get(pb, "references"), 0), "url"), "https://nvd.nist.gov/vuln/detail/CVE-2025-3248");
    json_decref(pb);
    json_decref(r);

    /* record references that are not web URLs are dropped */
    pb = build_text("{\"id\":\"X\",\"type\":\"ai_cve\",\"references\":[{\"url\":\"javascript:alert(1)\",\"kind\":\"web\"},"
                    "{\"url\":\"https://example.org/a b\",\"kind\":\"web\"},{\"url\":\"https://example.org/ok\",\"kind\":\"advisory\"},{\"url\":7}]}");
    size_t i, kept = 0;
    json_t *x;
    json_array_foreach(json_object_get(pb, "references"), i, x) {
        const char *u = str_at(x, "url");
        assert_true(strncmp(u, "https://", 8) == 0);
        if (strstr(u, "example.org")) {
            kept++;
            assert_string_equal(u, "https://example.org/ok");
            assert_string_equal(str_at(x, "label"), "Advisory (example.org)");
        }
    }
    assert_int_equal(kept, 1);
    json_decref(pb);

    /* the label names the host as the shared URL parser reads it: no userinfo, no port */
    pb = build_text("{\"id\":\"X\",\"type\":\"ai_cve\",\"references\":[{\"url\":\"https://user:pw@Vendor.Example:8443/a\","
                    "\"kind\":\"advisory\"}]}");
    kept = 0;
    json_array_foreach(json_object_get(pb, "references"), i, x) {
        if (strstr(str_at(x, "url"), "Vendor.Example")) {
            kept++;
            assert_string_equal(str_at(x, "label"), "Advisory (vendor.example)");
        }
    }
    assert_int_equal(kept, 1);
    json_decref(pb);
}

/* Every string literal of a KQL query is closed: "..." with backslash escapes, @"..." with "". */
static bool kql_literals_balanced(const char *q)
{
    for (const char *p = q; *p; p++) {
        if (*p == '@' && p[1] == '"') {
            for (p += 2;; p++) {
                if (!*p)
                    return false;
                if (*p == '"' && p[1] == '"')
                    p++;
                else if (*p == '"')
                    break;
            }
        } else if (*p == '"') {
            for (p++;; p++) {
                if (!*p || *p == '\n')
                    return false;
                if (*p == '\\' && p[1])
                    p++;
                else if (*p == '"')
                    break;
            }
        }
    }
    return true;
}

static void check_query(const char *q)
{
    size_t n = strspn(q, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_");
    assert_true(n >= 6);               /* a table name */
    assert_true(q[n] == '\n');          /* then the pipeline */
    assert_non_null(strstr(q, "\n| where "));
    assert_true(kql_literals_balanced(q));
}

static void kql_queries(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_GOLDEN; i++) {
        json_t *r = load_golden_record(GOLDEN[i]);
        json_t *pb = build(r);
        const json_t *g = json_object_get(pb, "threat_hunting_guide");
        check_query(str_at(g, "suggested_query"));
        size_t k;
        json_t *x;
        json_array_foreach(json_object_get(g, "additional_queries"), k, x)
            check_query(str_at(x, "query"));
        json_decref(pb);
        json_decref(r);
    }

    /* by type: a prompt attack hunts in LLM traces, a package advisory checks versions */
    json_t *r = load_golden_record("prompt_attack_atlas_t0051");
    json_t *pb = build(r);
    const char *q = str_at(json_object_get(pb, "threat_hunting_guide"), "suggested_query");
    assert_true(strncmp(q, "AppTraces\n", 10) == 0);
    assert_non_null(strstr(q, "ignore|disregard"));
    json_decref(pb);
    json_decref(r);
    r = load_golden_record("model_advisory_onnx");
    pb = build(r);
    q = str_at(json_object_get(pb, "threat_hunting_guide"), "suggested_query");
    assert_true(strncmp(q, "DeviceProcessEvents\n", 20) == 0);
    assert_non_null(strstr(q, "parse_version(\"1.13.0\")"));
    json_decref(pb);
    json_decref(r);

    /* quotes and backslashes in a product name are escaped */
    pb = build_text("{\"id\":\"X\",\"type\":\"ai_cve\",\"cwe\":[\"CWE-78\"],\"affected\":[{\"vendor\":\"\",\"product\":"
                    "\"Acme \\\"Quoted\\\" \\\\ Tool\",\"ecosystem\":\"\",\"package\":\"\",\"introduced\":\"\",\"fixed\":\"\"}]}");
    q = str_at(json_object_get(pb, "threat_hunting_guide"), "suggested_query");
    check_query(q);
    assert_non_null(strstr(q, "\"Acme \\\"Quoted\\\" \\\\ Tool\""));
    json_decref(pb);
}

static void content_follows_the_record(void **state)
{
    (void)state;
    json_t *r = load_golden_record("ai_cve_kev_langflow");
    json_t *pb = build(r);
    const json_t *ia = json_object_get(pb, "immediate_actions");
    assert_true(array_has_string(ia, "2025-05-26"));          /* the KEV due date */
    assert_true(array_has_string(ia, "langflow>=1.3.0"));     /* the fixed version */
    assert_true(array_has_string(ia, "off the internet"));    /* exposed product */
    const char *adv = str_at(pb, "executive_advisory");
    assert_non_null(strstr(adv, "CVE-2025-3248"));
    assert_non_null(strstr(adv, "97/100"));
    assert_non_null(strstr(adv, "CRITICAL"));
    assert_non_null(strstr(adv, "2025-05-26"));
    assert_string_equal(str_at(pb, "risk_tier"), "CRITICAL");
    json_decref(pb);
    json_decref(r);

    r = load_golden_record("agent_threat_atlas_cs0045");
    pb = build(r);
    ia = json_object_get(pb, "immediate_actions");
    assert_true(array_has_string(ia, "Disable or restrict the affected tools"));
    assert_true(array_has_string(ia, "Rotate credentials"));
    assert_false(array_has_string(ia, "off the internet"));
    json_decref(pb);
    json_decref(r);

    /* the tier falls back to the severity, then MEDIUM */
    pb = build_text("{\"severity\":\"low\"}");
    assert_string_equal(str_at(pb, "risk_tier"), "LOW");
    json_decref(pb);
    pb = build_text("{\"risk_tier\":\"bogus\"}");
    assert_string_equal(str_at(pb, "risk_tier"), "MEDIUM");
    json_decref(pb);
}

/* ---- determinism ------------------------------------------------------------------------------ */

/* A copy with the members of every object inserted in reverse order. */
static json_t *reversed(const json_t *v)
{
    if (json_is_object(v)) {
        const char *keys[256];
        size_t n = 0;
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            assert_true(n < 256);
            keys[n++] = k;
        }
        json_t *o = json_object();
        while (n--)
            json_object_set_new(o, keys[n], reversed(json_object_get(v, keys[n])));
        return o;
    }
    if (json_is_array(v)) {
        json_t *a = json_array();
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x)
            json_array_append_new(a, reversed(x));
        return a;
    }
    return json_deep_copy(v);
}

static void deterministic(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_GOLDEN; i++) {
        json_t *r = load_golden_record(GOLDEN[i]), *rr = reversed(r);
        json_t *a = build(r), *b = build(r), *c = build(rr);
        char *sa = bw_playbook_dump(a), *sb = bw_playbook_dump(b), *sc = bw_playbook_dump(c);
        assert_non_null(sa);
        assert_string_equal(sa, sb);
        assert_string_equal(sa, sc);
        assert_null(strstr(sa, "9.8000000000000007")); /* reals printed as written */
        free(sa);
        free(sb);
        free(sc);
        json_decref(a);
        json_decref(b);
        json_decref(c);
        json_decref(r);
        json_decref(rr);
    }
}

/* ---- dates and long values ---------------------------------------------------------------------- */

/* The playbook as JSON text without supporting_evidence, which copies the record as it is. */
static char *prose_of(const json_t *pb)
{
    json_t *c = json_deep_copy(pb);
    assert_non_null(c);
    json_object_del(c, "supporting_evidence");
    char *s = json_dumps(c, 0);
    json_decref(c);
    assert_non_null(s);
    return s;
}

/* The store keeps KEV dates as timestamps ("2025-05-05T00:00:00Z", src/engine/intel/kev.c): the text and
 * the checklist's due dates name the whole day, never a cut timestamp ("added 2025-05-05T00:0)"). */
static void kev_dates_are_days(void **state)
{
    (void)state;
    static const char REC[] =
        "{\"id\":\"CVE-2099-0005\",\"type\":\"ai_cve\",\"kev\":true,\"kev_details\":{\"date_added\":"
        "\"2025-05-05T00:00:00Z\",\"due_date\":\"2025-05-26T00:00:00Z\",\"required_action\":\"Apply mitigations per "
        "vendor instructions.\",\"ransomware_use\":\"Unknown\",\"vendor\":\"Acme\",\"product\":\"Widget\"},"
        "\"published\":\"2025-05-05T00:00:00Z\"}";
    json_t *pb = build_text(REC);
    char *text = prose_of(pb);
    assert_non_null(strstr(text, "added 2025-05-05"));
    size_t days = 0;
    for (const char *p = text; (p = strstr(p, "2025-05-")) != NULL; p += 8, days++)
        assert_true(p[8] >= '0' && p[8] <= '9' && p[9] >= '0' && p[9] <= '9' && !(p[10] >= '0' && p[10] <= '9') &&
                    p[10] != 'T');
    assert_true(days >= 3);
    assert_null(strstr(text, "T00:0"));
    size_t i, dated = 0;
    json_t *item;
    json_array_foreach(json_object_get(pb, "operational_checklist"), i, item)
        dated += strstr(str_at(item, "due"), "no later than 2025-05-26 (CISA KEV due date)") != NULL;
    assert_true(dated > 0);
    free(text);
    json_decref(pb);

    /* a value that does not start with a real day is left out, not cut */
    pb = build_text("{\"id\":\"CVE-2099-0006\",\"type\":\"ai_cve\",\"kev\":true,\"kev_details\":{\"date_added\":"
                    "\"05/05/2025\",\"due_date\":\"2025-05-2600\",\"product\":\"Widget\"},\"published\":\"2025-13-01\"}");
    text = prose_of(pb);
    static const char *const absent[] = {"05/05", "2025-05-26", "2025-13"};
    for (size_t k = 0; k < sizeof absent / sizeof absent[0]; k++)
        assert_null(strstr(text, absent[k]));
    free(text);
    json_decref(pb);
}

/* Prose too long for its buffer ends in "..."; a version or package name too long is never
 * pasted cut into a command. */
static void long_values_are_not_cut_silently(void **state)
{
    (void)state;
    char action[400], name[140], fixed[120], rec[1200];
    memset(action, 'a', sizeof action - 1);
    action[sizeof action - 1] = '\0';
    memcpy(action, "Apply ", 6);
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    memset(fixed, '1', sizeof fixed - 1);
    fixed[sizeof fixed - 1] = '\0';
    snprintf(rec, sizeof rec,
             "{\"id\":\"CVE-2099-0007\",\"type\":\"ai_cve\",\"kev\":true,\"kev_details\":{\"required_action\":\"%s\","
             "\"product\":\"Widget\"},\"affected\":[{\"ecosystem\":\"PyPI\",\"package\":\"%s\",\"fixed\":\"2.0\"},"
             "{\"ecosystem\":\"PyPI\",\"package\":\"okpkg\",\"fixed\":\"%s\"}]}",
             action, name, fixed);
    json_t *pb = build_text(rec);
    char *text = prose_of(pb);
    assert_non_null(strstr(text, "CISA's required action: Apply aaa"));
    assert_non_null(strstr(text, "aaa..."));
    assert_null(strstr(text, "pip install"));  /* neither the cut name nor the overlong version */
    assert_null(strstr(text, "1111111111")); /* the version is left out, not cut */
    free(text);
    json_decref(pb);
}

/* ---- odd input ------------------------------------------------------------------------------- */

static void odd_inputs(void **state)
{
    (void)state;
    assert_null(bw_playbook_build(NULL));
    json_t *x = json_array();
    assert_null(bw_playbook_build(x));
    json_decref(x);
    x = json_string("CVE-2025-3248");
    assert_null(bw_playbook_build(x));
    json_decref(x);
    assert_null(bw_playbook_dump(NULL));

    static const char *const odd[] = {
        "{}",
        "{\"id\":5,\"type\":[],\"cve\":5,\"cwe\":{},\"affected\":\"x\",\"attack_techniques\":[1,null,\"T9999\",\"bogus\",\"T1059.999\"],"
        "\"atlas_techniques\":[\"AML.T9999\",{},\"AML.T0051.999\"],\"kev\":\"yes\",\"kev_details\":[],\"cvss\":\"9.8\","
        "\"risk_score\":1e308,\"references\":[1,[],{\"url\":null}],\"ai_impact\":[\"nope\",3],\"version\":\"1\"}",
        "{\"kev\":true,\"kev_details\":{\"date_added\":7,\"due_date\":null},\"cvss\":{\"base_score\":-3,\"vector\":5},\"risk_score\":-1}",
        "{\"type\":\"agent_threat\",\"affected\":[{},{\"package\":\"\\u0000evil\"},{\"product\":\"a\\u0000b\",\"fixed\":\"1\\u0000\"}]}",
        "{\"type\":\"model_advisory\",\"affected\":[{\"package\":\"x\\\";drop\",\"ecosystem\":\"PyPI\",\"fixed\":\"$(id)\"}],\"cwe\":[\"CWE-502\",\"CWE-\",\"CWE-99999999999\"]}",
    };
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        json_t *pb = build_text(odd[i]);
        check_shape(pb);
        char *s = bw_playbook_dump(pb);
        assert_non_null(s);
        free(s);
        json_decref(pb);
    }

    /* a value nested as deep as jansson parses: the evidence keeps BW_PLAYBOOK_EVIDENCE_DEPTH
     * levels of it and the text parses back */
    {
        enum { D = 2040 };
        char *text = malloc(2 * D + 64);
        size_t n = (size_t)sprintf(text, "{\"id\":\"X\",\"sources\":");
        for (int i = 0; i < D; i++)
            text[n++] = '[';
        for (int i = 0; i < D; i++)
            text[n++] = ']';
        memcpy(text + n, "}", 2);
        json_t *deep = json_loads(text, 0, NULL);
        assert_non_null(deep);
        json_t *pb = build(deep);
        const json_t *v = json_object_get(json_object_get(pb, "supporting_evidence"), "sources");
        int levels = 0;
        while (json_is_array(v) && json_array_size(v) == 1) {
            v = json_array_get(v, 0);
            levels++;
        }
        assert_true(json_is_null(v));
        assert_int_equal(levels, BW_PLAYBOOK_EVIDENCE_DEPTH);
        json_decref(pb);
        json_decref(deep);
        free(text);
    }

    /* long names are clipped on a UTF-8 boundary, huge lists are capped */
    char name[4000];
    size_t n = 0;
    while (n + 2 < 1000) {
        name[n++] = (char)0xC3;
        name[n++] = (char)0xA9; /* é */
    }
    name[n] = '\0';
    json_t *r = json_pack("{s:s, s:s, s:[{s:s, s:s}], s:s}", "id", "X", "type", "ai_cve", "affected", "product", name,
                          "fixed", "1.0", "title", name);
    json_t *cwe = json_array(), *att = json_array();
    for (int i = 0; i < 5000; i++) {
        json_array_append_new(cwe, json_string("CWE-22"));
        json_array_append_new(att, json_sprintf("T%04d", 1000 + i % 700));
    }
    json_object_set_new(r, "cwe", cwe);
    json_object_set_new(r, "attack_techniques", att);
    json_t *pb = build(r);
    check_shape(pb);
    const char *ia = json_string_value(json_array_get(json_object_get(pb, "immediate_actions"), 1));
    assert_non_null(ia);
    assert_true(strlen(ia) < 600);
    assert_true(json_array_size(json_object_get(json_object_get(pb, "supporting_evidence"), "cwe")) <= 64);
    char *s = bw_playbook_dump(pb);
    assert_true(strlen(s) < 512 * 1024);
    free(s);
    json_decref(pb);
    json_decref(r);
}

/* ---- speed --------------------------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: other load on the machine does not count */
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fast_enough(void **state)
{
    (void)state;
    json_t *r = load_golden_record("agent_threat_atlas_cs0045"); /* the largest playbook */
    json_decref(build(r));                                    /* tables loaded outside the timing */
    enum { N = 200 };
    double t0 = now_s();
    for (int i = 0; i < N; i++)
        free(bw_playbook_text(r, NULL, NULL)); /* the server's path */
    double per = (now_s() - t0) / N;
    print_message("playbook build: %.1f us\n", per * 1e6);
    double limit = 1e-3;
#if defined(__SANITIZE_ADDRESS__)
    limit *= 10;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    limit *= 10;
#endif
#endif
    assert_true(per < limit);
    json_decref(r);
}

/* The server writes the text straight after an envelope's head (bw_playbook_write): the same
 * bytes as the jansson object's dump, appended to what the buffer holds, with the tier; a record
 * that is not an object leaves the buffer as it was. */
static void text_is_the_dump(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof GOLDEN / sizeof GOLDEN[0]; i++) {
        json_t *r = load_golden_record(GOLDEN[i]), *pb = build(r);
        char *want = bw_playbook_dump(pb), tier[BW_PLAYBOOK_TIER_MAX] = "";
        size_t len = 0;
        char *text = bw_playbook_text(r, &len, tier);
        assert_non_null(text);
        assert_string_equal(text, want);
        assert_int_equal(len, strlen(want));
        assert_string_equal(tier, json_string_value(json_object_get(pb, "risk_tier")));
        struct bw_sb b = {0};
        bw_sb_puts(&b, "{\"playbook\":");
        assert_true(bw_playbook_write(&b, r, NULL));
        assert_int_equal(b.len, 12 + len);
        assert_memory_equal(b.p + 12, want, len);
        json_t *bad = json_array();
        assert_false(bw_playbook_write(&b, bad, NULL));
        assert_int_equal(b.len, 12 + len);
        json_decref(bad);
        free(b.p);
        free(text);
        free(want);
        json_decref(pb);
        json_decref(r);
    }
}

/* ---- golden files ------------------------------------------------------------------------------- */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* The golden file is the playbook indented for review (same member order), plus a newline; the
 * canonical bytes must equal the golden file re-serialised canonically. */
static void golden_files(void **state)
{
    (void)state;
    const char *dir = golden_dir();
    bool update = getenv("BULWARK_UPDATE_GOLDEN") && strcmp(getenv("BULWARK_UPDATE_GOLDEN"), "1") == 0;
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    size_t seen = 0;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        const char *suffix = ".record.json";
        if (n <= strlen(suffix) || strcmp(de->d_name + n - strlen(suffix), suffix) != 0)
            continue;
        char base[512], path[4800];
        snprintf(base, sizeof base, "%.*s", (int)(n - strlen(suffix)), de->d_name);
        json_t *r = load_golden_record(base);
        json_t *pb = build(r);
        char *pretty = json_dumps(pb, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
        char *canon = bw_playbook_dump(pb);
        assert_non_null(pretty);
        snprintf(path, sizeof path, "%s/%s.playbook.json", dir, base);
        if (update) {
            FILE *f = fopen(path, "wb");
            assert_non_null(f);
            fputs(pretty, f);
            fputs("\n", f);
            fclose(f);
            print_message("rewrote %s\n", path);
        } else {
            char *want = read_file(path);
            if (!want)
                fail_msg("%s is missing: run with BULWARK_UPDATE_GOLDEN=1 and review it", path);
            size_t wl = strlen(want);
            if (wl == 0 || want[wl - 1] != '\n' || strlen(pretty) != wl - 1 || memcmp(want, pretty, wl - 1) != 0) {
                size_t i = 0;
                while (want[i] && pretty[i] && want[i] == pretty[i])
                    i++;
                fail_msg("%s differs from the generated playbook at byte %zu (BULWARK_UPDATE_GOLDEN=1 rewrites it)", path, i);
            }
            json_t *g = json_loads(want, 0, NULL);
            assert_non_null(g);
            char *gc = bw_playbook_dump(g);
            assert_string_equal(gc, canon);
            free(gc);
            json_decref(g);
            free(want);
        }
        free(pretty);
        free(canon);
        json_decref(pb);
        json_decref(r);
        seen++;
    }
    closedir(d);
    assert_true(seen >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(attack_table),
        cmocka_unit_test(members_and_types),
        cmocka_unit_test(ir_functions),
        cmocka_unit_test(architecture_one_entry_per_tactic),
        cmocka_unit_test(references_are_real),
        cmocka_unit_test(kql_queries),
        cmocka_unit_test(content_follows_the_record),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(kev_dates_are_days),
        cmocka_unit_test(long_values_are_not_cut_silently),
        cmocka_unit_test(odd_inputs),
        cmocka_unit_test(fast_enough),
        cmocka_unit_test(text_is_the_dump),
        cmocka_unit_test(golden_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
