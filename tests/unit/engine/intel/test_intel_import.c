/* The intel importers without a database: the YAML/JSON trees with positions (src/engine/intel/yaml.c),
 * CVSS scores, the risk formula, the KEV/OSV/ATLAS normalisers on the real fixture files
 * (tests/fixtures/intel/) and on malformed ones, merging, and the embedded seed's consistency
 * with the code that generated it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/embedded.h"
#include "common/timeutil.h"
#include "engine/intel/cvss.h"
#include "services/intel_ingest.h"
#include "engine/intel/intel.h"
#include "engine/intel/risk.h"
#include "engine/intel/sources.h"
#include "engine/intel/yaml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIX BULWARK_SOURCE_DIR "/tests/fixtures/intel/"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    *len = fread(b, 1, (size_t)n, f);
    b[*len] = '\0';
    fclose(f);
    return b;
}

static void tree_of(const char *text, bool json, struct bw_tree *t)
{
    struct bw_parse_error e;
    int rc = json ? bw_tree_json(text, strlen(text), t, &e) : bw_tree_yaml(text, strlen(text), t, &e);
    if (rc != 0)
        fail_msg("parse failed at %d:%d: %s", e.at.line, e.at.column, e.msg);
}

static void tree_error(const char *text, bool json, int line, int column, const char *msg)
{
    struct bw_tree t;
    struct bw_parse_error e;
    int rc = json ? bw_tree_json(text, strlen(text), &t, &e) : bw_tree_yaml(text, strlen(text), &t, &e);
    assert_int_equal(rc, -1);
    assert_null(t.root);
    if (e.at.line != line || e.at.column != column || !strstr(e.msg, msg))
        fail_msg("expected %d:%d '%s', got %d:%d '%s'", line, column, msg, e.at.line, e.at.column, e.msg);
}

/* ---- trees ---------------------------------------------------------------------------------------- */

static void test_yaml_scalars(void **state)
{
    (void)state;
    struct bw_tree t;
    tree_of("a: 1\nb: -1.5e2\nc: true\nd: ~\ne: '1'\nf: 0x1F\ng: 1.2.3\nh: !!str 12\n"
            "i: 99999999999999999999\nj: .inf\nk: \"x\\u00e9\"\nl: 2021-05-13\nm: |\n  two\n  lines\nn:\no: False\n",
            false, &t);
    json_t *r = t.root;
    assert_int_equal(json_integer_value(json_object_get(r, "a")), 1);
    assert_true(fabs(json_real_value(json_object_get(r, "b")) + 150.0) < 1e-9);
    assert_true(json_is_true(json_object_get(r, "c")));
    assert_true(json_is_null(json_object_get(r, "d")));
    assert_string_equal(json_string_value(json_object_get(r, "e")), "1");
    assert_int_equal(json_integer_value(json_object_get(r, "f")), 31);
    assert_string_equal(json_string_value(json_object_get(r, "g")), "1.2.3");
    assert_string_equal(json_string_value(json_object_get(r, "h")), "12");
    assert_string_equal(json_string_value(json_object_get(r, "i")), "99999999999999999999");
    assert_string_equal(json_string_value(json_object_get(r, "j")), ".inf");
    assert_string_equal(json_string_value(json_object_get(r, "k")), "x\xc3\xa9");
    assert_string_equal(json_string_value(json_object_get(r, "l")), "2021-05-13");
    assert_string_equal(json_string_value(json_object_get(r, "m")), "two\nlines\n");
    assert_true(json_is_null(json_object_get(r, "n")));
    assert_true(json_is_false(json_object_get(r, "o")));
    bw_tree_free(&t);
}

static void test_yaml_positions_and_aliases(void **state)
{
    (void)state;
    struct bw_tree t;
    tree_of("top:\n  list:\n  - one\n  - {k: v}\n  anchored: &x [1, 2]\n  again: *x\n  flag: true\n", false, &t);
    json_t *top = json_object_get(t.root, "top"), *list = json_object_get(top, "list");
    struct bw_srcpos p = bw_tree_pos(&t, json_array_get(list, 0), list);
    assert_int_equal(p.line, 3);
    assert_int_equal(p.column, 5);
    p = bw_tree_pos(&t, json_object_get(json_array_get(list, 1), "k"), NULL);
    assert_int_equal(p.line, 4);
    assert_int_equal(p.column, 9);
    /* a singleton (true) has no position of its own: its container's is used */
    p = bw_tree_pos(&t, json_object_get(top, "flag"), top);
    assert_int_equal(p.line, 2);
    assert_int_equal(p.column, 3);
    assert_true(json_equal(json_object_get(top, "anchored"), json_object_get(top, "again")));
    bw_tree_free(&t);
}

static void test_yaml_errors(void **state)
{
    (void)state;
    tree_error("a: 1\nb: 2\na: 3\n", false, 3, 1, "duplicate mapping key 'a'");
    tree_error("a: 1\n---\nb: 2\n", false, 2, 1, "more than one YAML document");
    tree_error("a:\n  b: 1\n c: 2\n", false, 3, 2, "did not find expected key");
    tree_error("? [x]\n: 1\n", false, 1, 3, "mapping keys must be scalars");
    tree_error("a: *nope\n", false, 1, 4, "unknown alias");
    tree_error("", false, 1, 1, "empty document");
    tree_error("a: \"\xff\"\n", false, 1, 5, "invalid");
    char deep[400] = "";
    for (int i = 0; i < 70; i++)
        strcat(deep, "[");
    tree_error(deep, false, 1, 65, "nested deeper than 64");
    /* an alias bomb: 10 levels of 10 references each would expand to 10^10 nodes */
    char bomb[2000] = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i < 10; i++) {
        char line[200];
        snprintf(line, sizeof line, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i,
                 i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
        strcat(bomb, line);
    }
    struct bw_tree t;
    struct bw_parse_error e;
    assert_int_equal(bw_tree_yaml(bomb, strlen(bomb), &t, &e), -1);
    assert_non_null(strstr(e.msg, "document too large"));
}

static void test_json_positions(void **state)
{
    (void)state;
    struct bw_tree t;
    tree_of("{\n  \"a\": [1, {\"b\": \"x\"}],\n  \"c\": null,\n  \"d\": \"\\u00e9\\\"]}\", \"e\": 2\n}", true, &t);
    json_t *a = json_object_get(t.root, "a");
    struct bw_srcpos p = bw_tree_pos(&t, json_object_get(json_array_get(a, 1), "b"), NULL);
    assert_int_equal(p.line, 2);
    assert_int_equal(p.column, 18);
    p = bw_tree_pos(&t, json_object_get(t.root, "e"), NULL); /* after a string holding ]} and a quote */
    assert_int_equal(p.line, 4);
    assert_int_equal(p.column, 27);
    bw_tree_free(&t);
    tree_error("{\"a\": [1, 2}", true, 1, 12, "");
    tree_error("{\"a\": 1, \"a\": 2}", true, 1, 12, "duplicate");
    char deep[200] = "";
    for (int i = 0; i < 70; i++)
        strcat(deep, "[");
    for (int i = 0; i < 70; i++)
        strcat(deep, "]");
    tree_error(deep, true, 1, 65, "nested deeper than 64");
}

/* ---- CVSS and risk -------------------------------------------------------------------------------- */

static void test_cvss(void **state)
{
    (void)state;
    static const struct {
        const char *v;
        double score;
    } ok[] = {
        {"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8}, {"CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", 8.8},
        {"CVSS:3.1/AV:N/AC:H/PR:L/UI:N/S:U/C:H/I:H/A:H", 7.5}, {"CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", 6.1},
        {"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H", 10.0}, {"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N", 0.0},
        {"CVSS:3.0/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N", 5.5}, {"CVSS:3.1/AV:P/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N", 1.6},
        {"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/E:P/RL:O", 9.8},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        struct bw_cvss c;
        assert_int_equal(bw_cvss_parse(ok[i].v, &c), 0);
        if (fabs(c.base_score - ok[i].score) > 1e-9)
            fail_msg("%s: %.1f, expected %.1f", ok[i].v, c.base_score, ok[i].score);
    }
    static const char *const bad[] = {"CVSS:2.0/AV:N/AC:L/Au:N/C:P/I:P/A:P", "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H",
                                      "CVSS:3.1/AV:N/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
                                      "CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "CVSS:3.1/", "",
                                      "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:HH"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct bw_cvss c;
        if (bw_cvss_parse(bad[i], &c) != -1)
            fail_msg("accepted %s", bad[i]);
    }
    assert_string_equal(bw_cvss_severity(9.0), "CRITICAL");
    assert_string_equal(bw_cvss_severity(8.9), "HIGH");
    assert_string_equal(bw_cvss_severity(4.0), "MEDIUM");
    assert_string_equal(bw_cvss_severity(0.0), "LOW");
}

static void test_risk(void **state)
{
    (void)state;
    int64_t ref;
    assert_int_equal(bw_parse_iso8601("2026-01-01T00:00:00Z", &ref), 0);
    /* CVSS 9.8 code execution, years old: 59 + 6 */
    json_t *r = json_pack("{s:{s:f},s:b,s:b,s:[s],s:s,s:s,s:s}", "cvss", "base_score", 9.8, "kev", 0,
                          "exploit_available", 0, "ai_impact", "tool_execution", "severity", "CRITICAL", "published",
                          "2020-01-01T00:00:00Z", "updated", "2020-02-01T00:00:00Z");
    assert_int_equal(bw_risk_score(r, ref), 65);
    assert_string_equal(bw_risk_tier(65), "HIGH");
    json_object_set_new(r, "kev", json_true()); /* exploited in the wild */
    assert_int_equal(bw_risk_score(r, ref), 85);
    json_object_set_new(r, "updated", json_string("2025-12-20T00:00:00Z")); /* changed 12 days ago */
    assert_int_equal(bw_risk_score(r, ref), 93);
    /* no CVSS: the severity band; AI impacts capped at 12; an exploit without KEV */
    json_t *s = json_pack("{s:n,s:s,s:b,s:b,s:[s,s,s,s],s:s,s:s}", "cvss", "severity", "MEDIUM", "kev", 0,
                          "exploit_available", 1, "ai_impact", "tool_execution", "agentic", "model_supply_chain",
                          "prompt_injection", "published", "2025-11-01T00:00:00Z", "updated", "2025-11-01T00:00:00Z");
    assert_int_equal(bw_risk_score(s, ref), 30 + 10 + 12 + 6);
    json_object_set_new(s, "severity", json_string("CRITICAL"));
    json_object_set_new(s, "kev", json_true());
    json_object_set_new(s, "published", json_string("2026-06-01T00:00:00Z")); /* a future date is new */
    json_object_set_new(s, "updated", json_string("2026-06-01T00:00:00Z"));
    assert_int_equal(bw_risk_score(s, ref), 97);
    json_object_set_new(s, "ai_impact", json_pack("[s,s,s,s,s]", "tool_execution", "agentic", "model_theft",
                                                  "data_exposure", "availability"));
    json_object_set_new(s, "cvss", json_pack("{s:f}", "base_score", 10.0));
    assert_int_equal(bw_risk_score(s, ref), 100); /* 60 + 20 + 12 + 8 */
    assert_string_equal(bw_risk_tier(80), "CRITICAL");
    assert_string_equal(bw_risk_tier(79), "HIGH");
    assert_string_equal(bw_risk_tier(60), "HIGH");
    assert_string_equal(bw_risk_tier(59), "MEDIUM");
    assert_string_equal(bw_risk_tier(35), "MEDIUM");
    assert_string_equal(bw_risk_tier(34), "LOW");
    json_t *empty = json_object();
    assert_int_equal(bw_risk_score(empty, ref), 30); /* nothing known: MEDIUM's base */
    json_decref(empty);
    json_decref(r);
    json_decref(s);
}

/* ---- normalisers on the fixtures ----------------------------------------------------------------- */

static json_t *load(const char *fmt, const char *path, struct bw_intel_reject *rej)
{
    size_t len;
    char *buf = slurp(path, &len);
    struct bw_tree t;
    struct bw_parse_error e;
    bool json = strcmp(fmt, "kev") == 0 || strstr(path, ".json");
    memset(rej, 0, sizeof *rej);
    json_t *out = NULL;
    int rc = json ? bw_tree_json(buf, len, &t, &e) : bw_tree_yaml(buf, len, &t, &e);
    free(buf);
    if (rc != 0) {
        rej->at = e.at;
        snprintf(rej->msg, sizeof rej->msg, "%s", e.msg);
        return NULL;
    }
    if (strcmp(fmt, "kev") == 0)
        rc = bw_intel_kev(&t, &out, rej);
    else if (strcmp(fmt, "osv") == 0)
        rc = bw_intel_osv(&t, &out, rej);
    else
        rc = bw_intel_atlas(&t, &out, rej);
    bw_tree_free(&t);
    return rc == 0 ? out : NULL;
}

static json_t *load_ok(const char *fmt, const char *path)
{
    struct bw_intel_reject rej;
    json_t *r = load(fmt, path, &rej);
    if (!r)
        fail_msg("%s: %d:%d: %s", path, rej.at.line, rej.at.column, rej.msg);
    return r;
}

static const char *s_(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static bool has(const json_t *arr, const char *v)
{
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x) if (json_is_string(x) && strcmp(json_string_value(x), v) == 0) return true;
    return false;
}

static void test_kev_fixture(void **state)
{
    (void)state;
    json_t *all = load_ok("kev", FIX "kev-subset.json");
    assert_int_equal(json_array_size(all), 13);
    size_t i, ai = 0;
    json_t *r;
    json_array_foreach(all, i, r) {
        char why[200];
        bw_intel_finalize(r, 1, 1700000000);
        if (bw_intel_check(r, why, sizeof why) != 0)
            fail_msg("%s", why);
        if (!bw_intel_kev_is_ai(r))
            continue;
        ai++;
        assert_string_equal(s_(r, "id"), "CVE-2025-3248");
        assert_string_equal(s_(r, "type"), "ai_cve");
        assert_string_equal(s_(r, "severity"), "CRITICAL"); /* KEV + code execution */
        assert_true(json_is_true(json_object_get(r, "kev")));
        assert_string_equal(s_(json_object_get(r, "kev_details"), "vendor"), "Langflow");
        assert_string_equal(s_(json_object_get(r, "kev_details"), "date_added"), "2025-05-05T00:00:00Z");
        assert_true(has(json_object_get(r, "cwe"), "CWE-306"));
        assert_true(has(json_object_get(r, "attack_techniques"), "T1190"));
        assert_true(has(json_object_get(r, "ai_impact"), "agentic"));
        assert_string_equal(s_(r, "title"), "Langflow Missing Authentication Vulnerability");
        assert_non_null(strstr(s_(r, "summary"), "CISA KEV since 2025-05-05"));
    }
    assert_int_equal(ai, 1);
    json_decref(all);
    /* whole words only: "Ray" is not in "Array Networks" */
    json_t *fake = json_pack("{s:{s:s,s:s}}", "kev_details", "vendor", "Array Networks", "product", "ArrayOS");
    assert_false(bw_intel_kev_is_ai(fake));
    json_object_set_new(json_object_get(fake, "kev_details"), "product", json_string("Ray Dashboard"));
    assert_true(bw_intel_kev_is_ai(fake));
    json_decref(fake);
}

static void test_osv_fixtures(void **state)
{
    (void)state;
    static const struct {
        const char *file, *id, *type, *severity;
        double cvss; /* < 0: none */
        bool exploit;
        const char *impact, *atlas;
    } want[] = {
        {"PYSEC-2023-28.yaml", "CVE-2023-1176", "ai_cve", "HIGH", -1, true, "data_exposure", NULL},
        {"PYSEC-2020-132.yaml", "CVE-2020-15209", "model_advisory", "MEDIUM", -1, false, "model_supply_chain",
         "AML.T0010.003"},
        {"PYSEC-2023-18.yaml", "CVE-2023-29374", "ai_cve", "HIGH", -1, false, "prompt_injection", "AML.T0051"},
        {"PYSEC-2023-38.yaml", "CVE-2022-25882", "model_advisory", "HIGH", -1, false, "model_supply_chain", NULL},
        {"PYSEC-2023-249.yaml", "CVE-2023-51449", "ai_cve", "HIGH", 7.5, false, "data_exposure", NULL},
        {"PYSEC-2024-82.yaml", "CVE-2024-45852", "ai_cve", "HIGH", 8.8, true, "tool_execution", "AML.T0050"},
        {"PYSEC-2024-12.yaml", "CVE-2024-23751", "ai_cve", "HIGH", -1, false, "agentic", "AML.T0049"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, FIX "osv/%s", want[i].file);
        json_t *r = load_ok("osv", path);
        assert_string_equal(s_(r, "id"), want[i].id);
        assert_string_equal(s_(r, "type"), want[i].type);
        assert_string_equal(s_(r, "severity"), want[i].severity);
        assert_string_equal(s_(r, "source"), "osv");
        const json_t *bs = json_object_get(json_object_get(r, "cvss"), "base_score");
        if (want[i].cvss < 0)
            assert_true(json_is_null(json_object_get(r, "cvss")));
        else
            assert_true(fabs(json_real_value(bs) - want[i].cvss) < 1e-9);
        assert_int_equal(json_is_true(json_object_get(r, "exploit_available")), want[i].exploit);
        assert_true(has(json_object_get(r, "ai_impact"), want[i].impact));
        if (want[i].atlas)
            assert_true(has(json_object_get(r, "atlas_techniques"), want[i].atlas));
        char pysec[32];
        snprintf(pysec, sizeof pysec, "%.*s", (int)(strlen(want[i].file) - 5), want[i].file);
        assert_true(has(json_object_get(r, "aliases"), pysec)); /* the OSV id is kept as an alias */
        assert_true(has(json_object_get(r, "cve"), want[i].id));
        assert_true(json_array_size(json_object_get(r, "affected")) > 0);
        assert_true(strlen(s_(r, "summary")) > 40);
        json_decref(r);
    }
    /* the mlflow advisory: package, fixed version, references */
    json_t *r = load_ok("osv", FIX "osv/PYSEC-2023-28.yaml");
    json_t *aff = json_array_get(json_object_get(r, "affected"), 0);
    assert_string_equal(s_(aff, "package"), "mlflow");
    assert_string_equal(s_(aff, "ecosystem"), "PyPI");
    assert_string_equal(s_(aff, "fixed"), "2.2.2");
    assert_string_equal(s_(r, "title"), "mlflow: path traversal");
    assert_string_equal(s_(r, "published"), "2023-03-24T15:15:00Z");
    assert_string_equal(s_(r, "updated"), "2023-05-04T03:49:46Z");
    assert_non_null(strstr(s_(r, "summary"), "fixed in 2.2.2"));
    json_decref(r);
}

static void test_atlas_fixture(void **state)
{
    (void)state;
    json_t *all = load_ok("atlas", FIX "ATLAS.yaml");
    assert_int_equal(json_array_size(all), 80);
    size_t i, prompt = 0, agent = 0, studies = 0;
    json_t *r, *pi = NULL, *direct = NULL, *tool = NULL, *cs = NULL;
    json_array_foreach(all, i, r) {
        const char *id = s_(r, "id"), *type = s_(r, "type");
        prompt += strcmp(type, "prompt_attack") == 0;
        agent += strcmp(type, "agent_threat") == 0;
        studies += strncmp(id, "AML.CS", 6) == 0;
        assert_string_not_equal(id, "AML.T0000"); /* reconnaissance of papers: not an LLM/agent threat */
        if (strcmp(id, "AML.T0051") == 0)
            pi = r;
        if (strcmp(id, "AML.T0051.000") == 0)
            direct = r;
        if (strcmp(id, "AML.T0053") == 0)
            tool = r;
        if (strcmp(id, "AML.CS0016") == 0)
            cs = r;
    }
    assert_int_equal(prompt + agent, 80);
    assert_int_equal(prompt, 33);
    assert_int_equal(studies, 27);
    assert_non_null(pi);
    assert_string_equal(s_(pi, "type"), "prompt_attack");
    assert_string_equal(s_(pi, "published"), "2023-10-25T00:00:00Z");
    assert_true(json_is_true(json_object_get(pi, "exploit_available")));
    assert_string_equal(s_(direct, "title"), "LLM Prompt Injection: Direct");
    assert_true(has(json_object_get(direct, "atlas_techniques"), "AML.T0051"));
    assert_string_equal(s_(tool, "type"), "agent_threat");
    assert_true(has(json_object_get(tool, "ai_impact"), "tool_execution"));
    assert_string_equal(s_(cs, "type"), "agent_threat"); /* MathGPT: prompt injection driving tool use */
    assert_true(has(json_object_get(cs, "atlas_techniques"), "AML.T0051.000"));
    assert_true(has(json_object_get(cs, "attack_techniques"), "T1552"));
    json_decref(all);
}

static void test_malformed_fixtures(void **state)
{
    (void)state;
    static const struct {
        const char *fmt, *file;
        int line, column;
        const char *msg;
    } bad[] = {
        {"kev", "kev-truncated.json", 29, 208, "premature end of input"},
        {"kev", "kev-missing-cve.json", 22, 9, "vulnerabilities[1]: 'cveID' is required"},
        {"kev", "kev-wrong-type.json", 34, 21, "vulnerabilities[1]: 'cwes' must be a list, not a string"},
        {"osv", "osv-bad-indent.yaml", 6, 14, "mapping values are not allowed"},
        {"osv", "osv-wrong-type.yaml", 99, 12, "'published' must be a string, not a list"},
        {"osv", "osv-missing-id.yaml", 1, 1, "'id' is required"},
        {"osv", "osv-alias-not-string.yaml", 97, 3, "aliases[0] must be an advisory id"},
        {"atlas", "atlas-missing-name.yaml", 19, 5, "matrices[0].techniques[1]: 'name' is required"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, FIX "bad/%s", bad[i].file);
        struct bw_intel_reject rej;
        json_t *r = load(bad[i].fmt, path, &rej);
        if (r || rej.at.line != bad[i].line || rej.at.column != bad[i].column || !strstr(rej.msg, bad[i].msg))
            fail_msg("%s: expected %d:%d '%s', got %d:%d '%s'", bad[i].file, bad[i].line, bad[i].column, bad[i].msg,
                     rej.at.line, rej.at.column, rej.msg);
    }
}

/* ---- merging -------------------------------------------------------------------------------------- */

static void test_merge(void **state)
{
    (void)state;
    json_t *osv = load_ok("osv", FIX "osv/PYSEC-2023-28.yaml");
    /* the same CVE, as KEV would publish it */
    json_t *kev = json_deep_copy(osv);
    json_object_set_new(kev, "source", json_string("kev"));
    json_object_set_new(kev, "sources", json_pack("[s]", "kev"));
    json_object_set_new(kev, "title", json_string("MLflow Path Traversal Vulnerability"));
    json_object_set_new(kev, "kev", json_true());
    json_object_set_new(kev, "kev_details", json_pack("{s:s}", "date_added", "2025-01-01T00:00:00Z"));
    json_object_set_new(kev, "severity", json_string("MEDIUM"));
    json_object_set_new(kev, "cwe", json_pack("[s]", "CWE-22"));
    bw_intel_finalize(osv, 1, 1700000000);
    json_t *m = bw_intel_merge(osv, kev);
    json_t *both = json_pack("[s,s]", "kev", "osv");
    assert_true(json_equal(json_object_get(m, "sources"), both));
    json_decref(both);
    assert_string_equal(s_(m, "source"), "osv");
    assert_string_equal(s_(m, "title"), "mlflow: path traversal"); /* OSV's title wins over KEV's */
    assert_true(json_is_true(json_object_get(m, "kev")));
    assert_true(has(json_object_get(m, "cwe"), "CWE-22"));
    assert_string_equal(s_(m, "severity"), "HIGH");
    assert_int_equal(json_integer_value(json_object_get(m, "version")), 1); /* finalize sets it, not merge */
    assert_false(bw_intel_same_facts(osv, m));
    /* OSV restating its facts keeps what KEV contributed */
    json_t *again = load_ok("osv", FIX "osv/PYSEC-2023-28.yaml");
    json_t *m2 = bw_intel_merge(m, again);
    assert_true(bw_intel_same_facts(m, m2));
    /* a record from one source alone is replaced: facts the source dropped disappear */
    json_object_set_new(again, "cwe", json_array());
    json_t *fresh = load_ok("osv", FIX "osv/PYSEC-2023-28.yaml");
    json_object_set_new(fresh, "cwe", json_pack("[s]", "CWE-36"));
    json_t *m3 = bw_intel_merge(fresh, again);
    assert_int_equal(json_array_size(json_object_get(m3, "cwe")), 0);
    /* version, enriched_at and risk are not facts */
    json_t *v2 = json_deep_copy(osv);
    bw_intel_finalize(v2, 7, 1800000000);
    assert_true(bw_intel_same_facts(osv, v2));
    /* two advisories with one CVE alias: combined */
    json_t *a = load_ok("osv", FIX "osv/PYSEC-2024-43.yaml"), *b = load_ok("osv", FIX "osv/PYSEC-2024-45.yaml");
    json_t *idx = json_object();
    assert_int_equal(bw_intel_fold(idx, a), 0);
    assert_int_equal(bw_intel_fold(idx, b), 0);
    json_t *c = json_object_get(idx, "CVE-2024-28088");
    assert_true(has(json_object_get(c, "aliases"), "PYSEC-2024-43"));
    assert_true(has(json_object_get(c, "aliases"), "PYSEC-2024-45"));
    assert_int_equal(json_object_size(idx), 1);
    size_t i, packages = 0;
    json_t *x;
    json_array_foreach(json_object_get(c, "affected"), i, x) {
        if (strcmp(s_(x, "package"), "langchain") == 0)
            packages |= 1u;
        if (strcmp(s_(x, "package"), "langchain-core") == 0)
            packages |= 2u;
    }
    assert_int_equal(packages, 3);
    json_decref(idx);
    json_decref(a);
    json_decref(b);
    json_decref(v2);
    json_decref(m3);
    json_decref(fresh);
    json_decref(m2);
    json_decref(again);
    json_decref(m);
    json_decref(kev);
    json_decref(osv);
}

static void test_dates(void **state)
{
    (void)state;
    char out[21];
    assert_int_equal(bw_intel_date("2023-03-24", out), 0);
    assert_string_equal(out, "2023-03-24T00:00:00Z");
    assert_int_equal(bw_intel_date("2021-08-27T03:22:28.768951Z", out), 0);
    assert_string_equal(out, "2021-08-27T03:22:28Z");
    assert_int_equal(bw_intel_date("2025-08-25T17:04:19+00:00", out), 0);
    static const char *const bad[] = {"2023-02-30", "2023-13-01", "2023-1-01", "20230101", "2023-01-01T25:00:00Z",
                                      "2023-01-01T00:00:00+02:00", "2023-01-01x", "", "1969-12-31", "2023-02-29"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (bw_intel_date(bad[i], out) == 0)
            fail_msg("accepted %s", bad[i]);
    assert_int_equal(bw_intel_date("2024-02-29", out), 0);
}

/* ---- the embedded seed ---------------------------------------------------------------------------- */

/* Every seed record is valid, its risk is what the formula gives at the snapshot time, and the
 * records the fixture files produce are byte for byte the seed's: seed.json was generated by this
 * code from these sources (regenerate it when a normaliser changes; see data/intel/SOURCES.md). */
static void test_seed_consistent(void **state)
{
    (void)state;
    const struct bw_embedded *f = bw_embedded_find(BW_SEED_FILE);
    assert_non_null(f);
    json_t *seed = json_loadb((const char *)f->data, f->len, 0, NULL);
    assert_non_null(seed);
    int64_t at;
    assert_int_equal(bw_parse_iso8601(s_(seed, "generated_at"), &at), 0);
    json_t *records = json_object_get(seed, "records"), *by_id = json_object();
    size_t i;
    json_t *r;
    const char *prev = "";
    json_array_foreach(records, i, r) {
        char why[200];
        if (bw_intel_check(r, why, sizeof why) != 0)
            fail_msg("seed record %zu: %s", i, why);
        assert_int_equal(json_integer_value(json_object_get(r, "risk_score")), bw_risk_score(r, at));
        assert_int_equal(json_integer_value(json_object_get(r, "version")), 1);
        assert_string_equal(s_(r, "enriched_at"), s_(seed, "generated_at"));
        assert_true(strcmp(prev, s_(r, "id")) < 0); /* sorted, unique */
        prev = s_(r, "id");
        json_object_set(by_id, s_(r, "id"), r);
    }
    assert_true(json_array_size(records) >= 300);
    /* the fixtures, normalised now, against the seed */
    json_t *idx = json_object();
    static const char *const osv[] = {"PYSEC-2023-28", "PYSEC-2020-132", "PYSEC-2023-18",  "PYSEC-2023-38",
                                      "PYSEC-2023-249", "PYSEC-2024-82", "PYSEC-2024-12",  "PYSEC-2024-51",
                                      "PYSEC-2022-43015", "PYSEC-2024-45", "PYSEC-2024-43"};
    for (i = 0; i < sizeof osv / sizeof osv[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, FIX "osv/%s.yaml", osv[i]);
        json_t *x = load_ok("osv", path);
        assert_int_equal(bw_intel_fold(idx, x), 0);
        json_decref(x);
    }
    json_t *atlas = load_ok("atlas", FIX "ATLAS.yaml"), *kev = load_ok("kev", FIX "kev-subset.json");
    json_array_foreach(atlas, i, r) bw_intel_fold(idx, r);
    json_array_foreach(kev, i, r) if (bw_intel_kev_is_ai(r)) bw_intel_fold(idx, r);
    const char *id;
    json_object_foreach(idx, id, r) {
        json_t *want = json_object_get(by_id, id);
        if (!want)
            fail_msg("%s is not in the seed", id);
        bw_intel_finalize(r, 1, at);
        char *a = bw_intel_dump(r), *b = bw_intel_dump(want);
        if (strcmp(a, b) != 0)
            fail_msg("%s differs from the seed; regenerate data/intel/seed.json\n now:  %s\n seed: %s", id, a, b);
        free(a);
        free(b);
    }
    json_decref(atlas);
    json_decref(kev);
    json_decref(idx);
    json_decref(by_id);
    json_decref(seed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_yaml_scalars),     cmocka_unit_test(test_yaml_positions_and_aliases),
        cmocka_unit_test(test_yaml_errors),      cmocka_unit_test(test_json_positions),
        cmocka_unit_test(test_cvss),             cmocka_unit_test(test_risk),
        cmocka_unit_test(test_kev_fixture),      cmocka_unit_test(test_osv_fixtures),
        cmocka_unit_test(test_atlas_fixture),    cmocka_unit_test(test_malformed_fixtures),
        cmocka_unit_test(test_merge),            cmocka_unit_test(test_dates),
        cmocka_unit_test(test_seed_consistent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
