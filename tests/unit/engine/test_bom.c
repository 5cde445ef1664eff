/* The CycloneDX ML-BOM engine: a fixed inventory (tests/data/bom/inventory.json) gives the expected
 * components, services, dependencies and vulnerabilities (the whole document is compared with
 * tests/data/bom/expected.json; the facts that matter are also asserted one by one), the exact
 * name match (case aside, whole names only), and the components validator. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/limits.h"
#include "engine/bom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *load(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", BULWARK_SOURCE_DIR, rel);
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fail_msg("%s: %s (line %d)", path, e.text, e.line);
    return j;
}

static json_t *build(const json_t *inv)
{
    struct bw_bom_in in = {.assets = json_object_get(inv, "assets"),
                           .mcp_servers = json_object_get(inv, "mcp_servers"),
                           .records = json_object_get(inv, "records"),
                           .serial = "urn:uuid:00000000-0000-4000-8000-000000000000",
                           .timestamp = "2026-11-26T00:00:00Z",
                           .tool_version = "1.2.3"};
    json_t *bom = bw_bom_build(&in);
    assert_non_null(bom);
    return bom;
}

static const json_t *by_ref(const json_t *list, const char *ref)
{
    size_t i;
    const json_t *x;
    json_array_foreach(list, i, x) if (strcmp(json_string_value(json_object_get(x, "bom-ref")), ref) == 0) return x;
    fail_msg("no bom-ref %s", ref);
    return NULL;
}

static const char *prop(const json_t *o, const char *name)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(o, "properties"), i, p) {
        if (strcmp(json_string_value(json_object_get(p, "name")), name) == 0)
            return json_string_value(json_object_get(p, "value"));
    }
    return NULL;
}

static const char *str(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static void inventory(void **state)
{
    (void)state;
    json_t *inv = load("tests/data/bom/inventory.json");
    json_t *bom = build(inv);
    assert_string_equal(str(bom, "bomFormat"), "CycloneDX");
    assert_string_equal(str(bom, "specVersion"), "1.7");

    /* the model and the components of every asset; the other assets and the MCP server as services */
    const json_t *comps = json_object_get(bom, "components"), *svcs = json_object_get(bom, "services");
    assert_int_equal(json_array_size(comps), 4);
    const json_t *m = by_ref(comps, "ast_model1");
    assert_string_equal(str(m, "type"), "machine-learning-model");
    assert_string_equal(str(json_object_get(m, "supplier"), "name"), "Acme AI");
    assert_string_equal(prop(m, "bulwark:connection:model"), "acme-large");
    assert_string_equal(prop(m, "bulwark:last_scan:status"), "never_scanned");
    assert_string_equal(prop(m, "bulwark:endpoint"), "https://llm.example/v1");
    const json_t *tok = by_ref(comps, "ast_model1/component/tokenlib@1.0.0");
    assert_string_equal(str(tok, "type"), "library");
    assert_string_equal(str(tok, "purl"), "pkg:pypi/tokenlib@1.0.0");
    by_ref(comps, "ast_model1/component/serve-kit");
    by_ref(comps, "ast_rag1/component/serve-kit@2.0");
    assert_int_equal(json_array_size(svcs), 4);
    const json_t *agent = by_ref(svcs, "ast_agent1");
    assert_string_equal(json_string_value(json_array_get(json_object_get(agent, "endpoints"), 0)), "https://agent.example/run");
    assert_false(json_is_true(json_object_get(agent, "authenticated"))); /* a connection without auth */
    assert_true(json_is_false(json_object_get(agent, "authenticated")));
    assert_string_equal(prop(agent, "bulwark:last_scan:id"), "scn_1");
    assert_string_equal(prop(agent, "bulwark:last_scan:findings"), "2");
    assert_string_equal(prop(agent, "bulwark:last_scan:finding"), "HIGH LLM01_PROMPT_INJECTION");
    assert_null(json_object_get(by_ref(svcs, "ast_rag1"), "provider")); /* none given */
    assert_null(json_object_get(by_ref(svcs, "ast_api1"), "authenticated")); /* no connection: unknown */
    const json_t *mcp = by_ref(svcs, "mcp/0f0e");
    assert_int_equal(json_array_size(json_object_get(mcp, "services")), 2);
    assert_string_equal(str(json_array_get(json_object_get(mcp, "services"), 1), "bom-ref"), "mcp/0f0e/tool/get_forecast");
    assert_int_equal(json_array_size(json_object_get(bom, "dependencies")), 2);

    /* vulnerabilities by id; the prefix and the unrelated records are absent */
    const json_t *vulns = json_object_get(bom, "vulnerabilities");
    const char *want[] = {"CVE-2026-0001", "CVE-2026-0002", "CVE-2026-0003", "GHSA-helper"};
    assert_int_equal(json_array_size(vulns), 4);
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(str(json_array_get(vulns, i), "id"), want[i]);
    const json_t *v1 = json_array_get(vulns, 0), *v2 = json_array_get(vulns, 1), *v3 = json_array_get(vulns, 2),
                 *v4 = json_array_get(vulns, 3);
    assert_string_equal(str(json_object_get(v1, "analysis"), "state"), "exploitable");
    assert_string_equal(str(json_array_get(json_object_get(v1, "affects"), 0), "ref"), "ast_model1");
    assert_string_equal(str(json_array_get(json_object_get(v1, "ratings"), 0), "method"), "CVSSv31");
    assert_string_equal(str(v1, "recommendation"), "Apply the vendor's fix.");
    /* one record, two assets' components of the same name */
    assert_int_equal(json_array_size(json_object_get(v2, "affects")), 2);
    assert_string_equal(str(json_array_get(json_object_get(v2, "affects"), 1), "ref"), "ast_rag1/component/serve-kit@2.0");
    assert_int_equal(json_array_size(json_object_get(v2, "cwes")), 1); /* NVD-CWE-Other is no CWE id */
    assert_string_equal(str(json_array_get(json_object_get(v2, "ratings"), 0), "method"), "CVSSv4");
    assert_string_equal(str(json_object_get(v3, "analysis"), "state"), "in_triage");
    assert_string_equal(str(json_array_get(json_object_get(v3, "affects"), 0), "ref"), "ast_model1/component/tokenlib@1.0.0");
    assert_int_equal(json_array_size(json_object_get(v3, "advisories")), 1); /* the http reference is left out */
    assert_string_equal(prop(v3, "bulwark:epss"), "0.01230");
    assert_string_equal(str(json_array_get(json_object_get(v4, "affects"), 0), "ref"), "ast_agent1");
    assert_string_equal(str(json_object_get(v4, "source"), "name"), "OSV");

    /* the whole document, as reviewed (BULWARK_BOM_WRITE_EXPECTED=1 rewrites the file, to review
     * again with git diff) */
    if (getenv("BULWARK_BOM_WRITE_EXPECTED")) {
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/data/bom/expected.json", BULWARK_SOURCE_DIR);
        assert_int_equal(json_dump_file(bom, path, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(15)), 0);
    }
    json_t *expected = load("tests/data/bom/expected.json");
    if (!json_equal(bom, expected)) {
        char *got = json_dumps(bom, JSON_INDENT(1) | JSON_SORT_KEYS);
        print_message("got:\n%s\n", got);
        free(got);
        fail_msg("the BOM differs from tests/data/bom/expected.json");
    }
    json_decref(expected);

    /* the same input in another record order gives the same document */
    json_t *inv2 = json_deep_copy(inv);
    json_t *recs = json_object_get(inv2, "records");
    json_t *first = json_incref(json_array_get(recs, 0));
    json_array_remove(recs, 0);
    json_array_append_new(recs, first);
    json_t *bom2 = build(inv2);
    assert_true(json_equal(bom, bom2));
    json_decref(bom2);
    json_decref(inv2);
    json_decref(bom);
    json_decref(inv);
}

static void empty(void **state)
{
    (void)state;
    json_t *inv = json_pack("{s:[],s:[]}", "assets", "records");
    json_t *bom = build(inv);
    assert_int_equal(json_array_size(json_object_get(bom, "components")), 0);
    assert_int_equal(json_array_size(json_object_get(bom, "services")), 0);
    assert_int_equal(json_array_size(json_object_get(bom, "vulnerabilities")), 0);
    json_decref(bom);
    json_decref(inv);
}

/* A name holding '@' cannot pass for a name and a version: every component keeps its own bom-ref. */
static void refs_distinct(void **state)
{
    (void)state;
    json_t *inv = json_pack("{s:[{s:s,s:s,s:s,s:s,s:[{s:s,s:s},{s:s},{s:s}]}],s:[]}", "assets", "asset_id", "ast_a",
                            "name", "a", "type", "model", "endpoint", "https://a.example/", "components", "name", "x",
                            "version", "1", "name", "x@1", "name", "x%401", "records");
    json_t *bom = build(inv);
    const json_t *c = json_object_get(bom, "components");
    assert_int_equal(json_array_size(c), 4);
    assert_string_equal(str(json_array_get(c, 1), "bom-ref"), "ast_a/component/x@1");
    assert_string_equal(str(json_array_get(c, 2), "bom-ref"), "ast_a/component/x%401");
    assert_string_equal(str(json_array_get(c, 3), "bom-ref"), "ast_a/component/x%25401");
    json_decref(bom);
    json_decref(inv);
}

static void match_exact(void **state)
{
    (void)state;
    json_t *asset = json_pack("{s:s,s:{s:s},s:[{s:s}]}", "provider", "OpenAI", "connection", "model", "gpt-4o",
                              "components", "name", "langchain");
    json_t *keys = bw_bom_asset_keys(asset);
    assert_int_equal(json_array_size(keys), 3);
    const char *hits[] = {"{\"kev_details\":{\"vendor\":\"openai\",\"product\":\"x\"}}",
                          "{\"kev_details\":{\"vendor\":\"x\",\"product\":\"GPT-4O\"}}",
                          "{\"affected\":[{\"vendor\":\"\",\"product\":\"\",\"package\":\"LangChain\"}]}"};
    const char *misses[] = {"{\"kev_details\":{\"vendor\":\"open\",\"product\":\"openai-python\"}}",
                            "{\"affected\":[{\"vendor\":\"\",\"product\":\"gpt-4\",\"package\":\"langchain-core\"}]}",
                            "{\"title\":\"OpenAI langchain gpt-4o\",\"summary\":\"openai\"}",
                            "{\"affected\":[{\"ecosystem\":\"openai\",\"package\":\"\"}]}"};
    for (size_t i = 0; i < 3; i++) {
        json_t *r = json_loads(hits[i], 0, NULL);
        assert_true(bw_bom_record_matches(r, keys));
        json_decref(r);
    }
    for (size_t i = 0; i < 4; i++) {
        json_t *r = json_loads(misses[i], 0, NULL);
        assert_false(bw_bom_record_matches(r, keys));
        json_decref(r);
    }
    json_decref(keys);
    json_decref(asset);
}

static int parse(const char *text, json_t **doc, json_t *errs)
{
    json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
    int n = bw_bom_components_parse(v, doc, errs);
    json_decref(v);
    return n;
}

static void components(void **state)
{
    (void)state;
    json_t *errs = json_array(), *doc = NULL;
    assert_int_equal(parse("null", &doc, errs), 0);
    assert_null(doc);
    assert_int_equal(parse("[{\"name\":\"torch\",\"version\":\"2.3\",\"purl\":\"pkg:pypi/torch@2.3\",\"x\":1},"
                           "{\"name\":\"torch\"}]",
                           &doc, errs),
                     0);
    assert_int_equal(json_array_size(doc), 2);
    assert_null(json_object_get(json_array_get(doc, 0), "x"));
    json_decref(doc);
    struct {
        const char *text, *field;
    } bad[] = {
        {"{}", "components"},
        {"\"torch\"", "components"},
        {"[1]", "components[0]"},
        {"[{}]", "components[0].name"},
        {"[{\"name\":\" \"}]", "components[0].name"},
        {"[{\"name\":\"a\\u0007\"}]", "components[0].name"},
        {"[{\"name\":\"a\",\"version\":\"\"}]", "components[0].version"},
        {"[{\"name\":\"a\",\"version\":1}]", "components[0].version"},
        {"[{\"name\":\"a\",\"purl\":\"pkg:pypi\"}]", "components[0].purl"},
        {"[{\"name\":\"a\",\"purl\":\"pkg:/pypi/\"}]", "components[0].purl"},
        {"[{\"name\":\"a\",\"purl\":\"http://x/y\"}]", "components[0].purl"},
        {"[{\"name\":\"a\"},{\"name\":\"a\"}]", "components[1].name"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_array_clear(errs);
        assert_int_equal(parse(bad[i].text, &doc, errs), 1);
        assert_null(doc);
        assert_string_equal(json_string_value(json_object_get(json_array_get(errs, 0), "field")), bad[i].field);
    }
    /* the limits */
    json_t *many = json_array();
    for (int i = 0; i <= BW_ASSET_COMPONENTS_MAX; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%d", i);
        json_array_append_new(many, json_pack("{s:s}", "name", name));
    }
    json_array_clear(errs);
    assert_int_equal(bw_bom_components_parse(many, &doc, errs), 1);
    json_array_remove(many, 0);
    json_array_clear(errs);
    assert_int_equal(bw_bom_components_parse(many, &doc, errs), 0);
    json_decref(doc);
    json_decref(many);
    char long_name[BW_COMPONENT_NAME_MAX + 2];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    json_t *one = json_pack("[{s:s}]", "name", long_name);
    assert_int_equal(bw_bom_components_parse(one, &doc, errs), 1);
    json_decref(one);
    json_decref(errs);
}

/* One asset against a record, as intel.kev_match reads it: which name matched, in the order
 * provider, model, components; exact names only, as the BOM's vulnerabilities. */
static void asset_match(void **state)
{
    (void)state;
    json_t *rec = json_loads("{\"id\":\"CVE-2025-3248\",\"kev\":true,\"kev_details\":{\"vendor\":\"Langflow\","
                             "\"product\":\"Langflow\"},\"affected\":[{\"vendor\":\"\",\"product\":\"\","
                             "\"ecosystem\":\"PyPI\",\"package\":\"langchain-core\"}]}",
                             0, NULL);
    assert_non_null(rec);
    const char *m = NULL, *v = NULL;
    json_t *a = json_pack("{s:s}", "provider", "langflow");
    assert_true(bw_bom_asset_match(rec, a, &m, &v));
    assert_string_equal(m, "provider");
    assert_string_equal(v, "langflow");
    json_decref(a);
    a = json_pack("{s:s,s:{s:s}}", "provider", "openai", "connection", "model", "LangChain-Core");
    assert_true(bw_bom_asset_match(rec, a, &m, &v));
    assert_string_equal(m, "model");
    assert_string_equal(v, "LangChain-Core");
    json_decref(a);
    /* a component's name, after provider and model missed; the first component that matches */
    a = json_pack("{s:s,s:[{s:s},{s:s,s:s},{s:s}]}", "provider", "self-hosted", "components", "name", "torch", "name",
                  "LANGFLOW", "version", "1.2.0", "name", "langchain-core");
    assert_true(bw_bom_asset_match(rec, a, &m, &v));
    assert_string_equal(m, "component");
    assert_string_equal(v, "LANGFLOW");
    /* and the same asset is a vulnerability of the BOM: the two rules agree */
    json_t *keys = bw_bom_asset_keys(a);
    assert_true(bw_bom_record_matches(rec, keys));
    json_decref(keys);
    json_decref(a);
    /* exact names only: no substring, keyword or fuzzy guessing; empty never matches */
    const char *miss[] = {"lang", "langflow ", "Langflow AI", "flow", "langchain", "", "PyPI"};
    for (size_t i = 0; i < sizeof miss / sizeof miss[0]; i++) {
        a = json_pack("{s:s,s:{s:s},s:[{s:s}]}", "provider", miss[i], "connection", "model", miss[i], "components",
                      "name", miss[i]);
        if (bw_bom_asset_match(rec, a, &m, &v))
            fail_msg("%s matched", miss[i]);
        keys = bw_bom_asset_keys(a);
        assert_false(bw_bom_record_matches(rec, keys));
        json_decref(keys);
        json_decref(a);
    }
    a = json_object();
    assert_false(bw_bom_asset_match(rec, a, &m, &v));
    json_decref(rec);
    /* a record with empty names matches nothing */
    json_t *empty = json_loads("{\"kev_details\":{\"vendor\":\"\",\"product\":\"\"},\"affected\":[{}]}", 0, NULL);
    json_object_set_new(a, "provider", json_string("x"));
    assert_false(bw_bom_asset_match(empty, a, &m, &v));
    json_decref(empty);
    json_decref(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(inventory),
        cmocka_unit_test(empty),
        cmocka_unit_test(refs_distinct),
        cmocka_unit_test(match_exact),
        cmocka_unit_test(components),
        cmocka_unit_test(asset_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
