/* STIX objects (src/engine/intel/stix.c) and TAXII query parameters (taxii.c): version-5 UUIDs
 * against RFC 9562's and Python's known values, deterministic ids, the objects of a CVE record
 * (vulnerability with its extension, EPSS only when the record has it, course of action,
 * indicators, relationships) and of an ATLAS case study, timestamps with milliseconds, and the
 * query parser's acceptances and refusals. (Schema validation of every object is in
 * tests/api/stix.test.mjs.) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/jsonx.h"
#include "engine/intel/stix.h"
#include "engine/intel/taxii.h"

#include <stdlib.h>
#include <string.h>

static void uuid5_known_values(void **state)
{
    (void)state;
    /* RFC 4122's DNS namespace: uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org') */
    static const unsigned char dns[16] = {0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1,
                                          0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};
    char u[37];
    bw_stix_uuid5(dns, "python.org", 10, u);
    assert_string_equal(u, "886313e1-3b8a-5372-9b90-0c9aee199e5d");
    /* RFC 9562 appendix A.4: "www.example.com" in the DNS namespace */
    bw_stix_uuid5(dns, "www.example.com", 15, u);
    assert_string_equal(u, "2ed6657d-e927-568b-95e1-2665a8aea6a2");
    /* a name longer than one SHA-1 block */
    char longname[200];
    memset(longname, 'a', sizeof longname);
    bw_stix_uuid5(dns, longname, sizeof longname, u);
    assert_int_equal(u[14], '5');
    assert_true(strchr("89ab", u[19]) != NULL);
}

static void ids_are_deterministic(void **state)
{
    (void)state;
    char a[BW_STIX_ID_MAX], b[BW_STIX_ID_MAX];
    bw_stix_id("vulnerability", "CVE-2024-3568", a);
    bw_stix_id("vulnerability", "CVE-2024-3568", b);
    assert_string_equal(a, b);
    assert_int_equal(strncmp(a, "vulnerability--", 15), 0);
    assert_int_equal(strlen(a), 15 + 36);
    bw_stix_id("course-of-action", "CVE-2024-3568", b);
    assert_string_not_equal(a + strlen("vulnerability--"), b + strlen("course-of-action--"));
    /* the namespace is bulwark's: type "/" name under f994bf3d-... (python: uuid5(ns, 'identity/bulwark')) */
    assert_string_equal(bw_stix_identity_id(), "identity--7852bb29-1239-51d8-97a8-63e25eac2aa7");
}

static void times_with_milliseconds(void **state)
{
    (void)state;
    char t[32];
    assert_true(bw_stix_time("2024-04-10T17:15:00Z", t));
    assert_string_equal(t, "2024-04-10T17:15:00.000Z");
    assert_true(bw_stix_time("2024-04-10T17:15:00.123456Z", t));
    assert_string_equal(t, "2024-04-10T17:15:00.123456Z");
    assert_false(bw_stix_time("2024-04-10", t));
    assert_false(bw_stix_time("2024-04-10T17:15:00+00:00", t));
    assert_false(bw_stix_time("2024-04-10T17:15:00.Z", t));
    assert_false(bw_stix_time(NULL, t));
}

static json_t *cve_record(bool with_epss)
{
    json_t *r = json_pack(
        "{s:s,s:s,s:s,s:s,s:s,s:{s:s,s:s,s:f},s:[s],s:[],s:b,s:{s:s,s:s,s:s,s:s,s:s,s:s},s:[s],s:[s],s:[s],"
        "s:[{s:s,s:s}],s:s,s:s,s:i,s:s,s:s,s:b}",
        "id", "CVE-2024-3568", "type", "ai_cve", "title", "transformers: code execution", "summary",
        "Deserialisation of checkpoints.", "severity", "HIGH", "cvss", "version", "3.1", "vector",
        "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H", "base_score", 8.8, "cve", "CVE-2024-3568", "aliases", "kev", 1,
        "kev_details", "date_added", "2024-05-01", "due_date", "2024-05-22", "required_action", "patch",
        "ransomware_use", "Unknown", "vendor", "huggingface", "product", "transformers", "cwe", "CWE-502",
        "attack_techniques", "T1059.006", "atlas_techniques", "AML.T0010", "references", "url",
        "https://nvd.nist.gov/vuln/detail/CVE-2024-3568", "kind", "nvd", "published", "2024-04-10T17:15:00Z",
        "enriched_at", "2026-04-30T00:00:00Z", "risk_score", 80, "risk_tier", "CRITICAL", "updated",
        "2024-04-10T17:15:00Z", "exploit_available", 1);
    if (with_epss)
        json_object_set_new(r, "epss", json_pack("{s:f,s:f,s:s}", "score", 0.5, "percentile", 0.97, "date", "2026-11-25"));
    return r;
}

static const json_t *find_type(const json_t *objs, const char *type, size_t nth)
{
    size_t i;
    json_t *o;
    json_array_foreach(objs, i, o) if (strcmp(bw_json_str(o, "type"), type) == 0 && nth-- == 0) return o;
    return NULL;
}

static void cve_record_objects(void **state)
{
    (void)state;
    json_t *rec = cve_record(false);
    json_t *pb = json_pack("{s:s,s:[s,s]}", "executive_advisory", "Patch now.", "immediate_actions", "Upgrade", "Block");
    json_t *hunt = json_pack("{s:s,s:s}", "sigma_yaml", "title: x\ndetection: {}\n", "yara", "rule bulwark_x { condition: true }");
    json_t *out = json_array();
    assert_int_equal(bw_stix_record(rec, pb, hunt, out), 0);
    const json_t *v = find_type(out, "vulnerability", 0);
    assert_non_null(v);
    char id[BW_STIX_ID_MAX];
    bw_stix_id("vulnerability", "CVE-2024-3568", id);
    assert_string_equal(bw_json_str(v, "id"), id);
    assert_string_equal(bw_json_str(v, "created"), "2024-04-10T17:15:00.000Z");
    assert_string_equal(bw_json_str(v, "modified"), "2026-04-30T00:00:00.000Z");
    assert_string_equal(bw_json_str(v, "created_by_ref"), bw_stix_identity_id());
    assert_null(json_object_get(v, "severity")); /* not a top-level STIX property */
    const json_t *ref0 = json_array_get(json_object_get(v, "external_references"), 0);
    assert_string_equal(bw_json_str(ref0, "source_name"), "cve");
    assert_string_equal(bw_json_str(ref0, "external_id"), "CVE-2024-3568");
    const json_t *ext = json_object_get(json_object_get(v, "extensions"), bw_stix_extension_id());
    assert_string_equal(bw_json_str(ext, "extension_type"), "property-extension");
    assert_true(json_is_true(json_object_get(ext, "kev")));
    assert_string_equal(bw_json_str(ext, "kev_date_added"), "2024-05-01");
    assert_null(json_object_get(ext, "epss")); /* absent when the record has none */
    assert_int_equal(json_integer_value(json_object_get(ext, "risk_score")), 80);
    assert_non_null(find_type(out, "course-of-action", 0));
    const json_t *s = find_type(out, "indicator", 0), *y = find_type(out, "indicator", 1);
    assert_string_equal(bw_json_str(s, "pattern_type"), "sigma");
    assert_string_equal(bw_json_str(y, "pattern_type"), "yara");
    assert_string_equal(bw_json_str(s, "valid_from"), "2024-04-10T17:15:00.000Z");
    /* relationships: mitigates, two techniques target it, two indicators relate to it */
    size_t rels = 0, i;
    json_t *o;
    json_array_foreach(out, i, o) if (strcmp(bw_json_str(o, "type"), "relationship") == 0) {
        rels++;
        assert_string_equal(bw_json_str(o, "target_ref"), id);
    }
    assert_int_equal(rels, 1 + 2 + 2);
    /* the same record: the same bytes */
    json_t *again = json_array();
    bw_stix_record(rec, pb, hunt, again);
    char *a = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER), *b = json_dumps(again, JSON_COMPACT | JSON_PRESERVE_ORDER);
    assert_string_equal(a, b);
    free(a);
    free(b);
    json_decref(again);
    /* with EPSS: carried in the extension, and a score that changed after the facts (changed_at)
     * is a new version of the objects */
    json_t *rec2 = cve_record(true), *out2 = json_array();
    json_object_set_new(rec2, "changed_at", json_string("2026-11-26T06:00:00Z"));
    assert_int_equal(bw_stix_record(rec2, NULL, NULL, out2), 0);
    const json_t *ext2 = json_object_get(json_object_get(find_type(out2, "vulnerability", 0), "extensions"), bw_stix_extension_id());
    assert_true(json_real_value(json_object_get(json_object_get(ext2, "epss"), "score")) == 0.5);
    assert_string_equal(bw_json_str(find_type(out2, "vulnerability", 0), "modified"), "2026-11-26T06:00:00.000Z");
    assert_null(find_type(out2, "course-of-action", 0)); /* no playbook given */
    assert_null(find_type(out2, "indicator", 0));
    json_decref(out2);
    json_decref(rec2);
    json_decref(out);
    json_decref(hunt);
    json_decref(pb);
    json_decref(rec);
}

static void case_study_is_a_report(void **state)
{
    (void)state;
    json_t *rec = json_pack("{s:s,s:s,s:s,s:s,s:[s,s],s:[],s:s,s:s}", "id", "AML.CS0016", "type", "agent_threat",
                            "title", "MathGPT", "summary", "exercise", "atlas_techniques", "AML.T0051.000", "AML.T9999",
                            "attack_techniques", "published", "2023-01-28T00:00:00Z", "enriched_at", "2026-04-30T00:00:00Z");
    json_t *out = json_array();
    assert_int_equal(bw_stix_record(rec, NULL, NULL, out), 0);
    const json_t *r = find_type(out, "report", 0);
    assert_non_null(r);
    assert_null(find_type(out, "vulnerability", 0));
    /* AML.T9999 is in no table: left out; AML.T0051.000 is */
    assert_int_equal(json_array_size(json_object_get(r, "object_refs")), 1);
    char ap[BW_STIX_ID_MAX];
    bw_stix_id("attack-pattern", "AML.T0051.000", ap);
    assert_string_equal(json_string_value(json_array_get(json_object_get(r, "object_refs"), 0)), ap);
    assert_non_null(bw_stix_shared_find(ap));
    json_decref(out);
    json_decref(rec);
    /* a record without an id gives nothing */
    json_t *bad = json_object(), *o2 = json_array();
    assert_int_equal(bw_stix_record(bad, NULL, NULL, o2), -1);
    json_decref(bad);
    json_decref(o2);
}

/* Long texts are clipped on a UTF-8 boundary, never cut inside a character. */
static void long_texts_clipped(void **state)
{
    (void)state;
    char *big = malloc(3 * 3000 + 1);
    for (int i = 0; i < 3000; i++)
        memcpy(big + 3 * i, "\xe2\x82\xac", 3); /* the euro sign */
    big[3 * 3000] = '\0';
    json_t *rec = cve_record(false);
    json_object_set_new(rec, "summary", json_string(big));
    json_t *pb = json_pack("{s:s,s:[s]}", "executive_advisory", big, "immediate_actions", big);
    json_t *out = json_array();
    assert_int_equal(bw_stix_record(rec, pb, NULL, out), 0);
    const char *types[] = {"vulnerability", "course-of-action"};
    for (int i = 0; i < 2; i++) {
        const char *d = bw_json_str(find_type(out, types[i], 0), "description");
        assert_true(strlen(d) > 3000 && strlen(d) <= BW_STIX_MAX_TEXT);
        assert_int_equal(strlen(d) % 3, 0); /* whole characters ("ai_cve..." prefix aside) */
    }
    json_decref(out);
    json_decref(pb);
    json_decref(rec);
    free(big);
}

static void shared_objects(void **state)
{
    (void)state;
    const json_t *s = bw_stix_shared();
    assert_non_null(s);
    assert_string_equal(bw_json_str(json_array_get(s, 0), "type"), "identity");
    assert_string_equal(bw_json_str(json_array_get(s, 1), "type"), "extension-definition");
    assert_true(json_array_size(s) > 800); /* every ATLAS and ATT&CK technique */
}

static int parse(const char *const (*kv)[2], size_t n, struct bw_taxii_query *q)
{
    json_t *errors = NULL;
    int rc = bw_taxii_query_parse(kv, n, q, &errors);
    assert_true(rc == 0 ? errors == NULL : json_array_size(errors) > 0);
    json_decref(errors);
    return rc;
}

static void taxii_query(void **state)
{
    (void)state;
    struct bw_taxii_query q;
    assert_int_equal(parse(NULL, 0, &q), 0);
    assert_int_equal(q.limit, BW_TAXII_LIMIT_DEFAULT);
    assert_true(q.any_version && q.spec_21 && !q.has_added_after);
    bw_taxii_query_free(&q);

    const char *const ok[][2] = {{"limit", "5000"},
                                 {"added_after", "2026-04-30T00:00:00.5Z"},
                                 {"match[type]", "vulnerability,indicator"},
                                 {"match[id]", "vulnerability--886313e1-3b8a-5372-9b90-0c9aee199e5d"},
                                 {"match[version]", "2026-04-30T00:00:00Z"},
                                 {"match[spec_version]", "2.0,2.1"},
                                 {"unknown", "ignored"}};
    assert_int_equal(parse(ok, 7, &q), 0);
    assert_int_equal(q.limit, BW_TAXII_LIMIT_MAX); /* lowered, as TAXII allows */
    assert_true(q.has_added_after);
    assert_true(q.added_after_us == 1777507200LL * 1000000 + 500000);
    assert_int_equal(q.ntypes, 2);
    assert_false(q.any_version);
    json_t *o = json_pack("{s:s,s:s,s:s}", "type", "vulnerability", "id",
                          "vulnerability--886313e1-3b8a-5372-9b90-0c9aee199e5d", "modified", "2026-04-30T00:00:00.000Z");
    assert_true(bw_taxii_match(&q, o));
    json_object_set_new(o, "modified", json_string("2026-05-01T00:00:00.000Z"));
    assert_false(bw_taxii_match(&q, o));
    json_decref(o);
    assert_true(bw_taxii_wants_type(&q, "vulnerability"));
    assert_false(bw_taxii_wants_type(&q, "indicator")); /* the ids name only vulnerabilities */
    char canon[sizeof q.canon];
    memcpy(canon, q.canon, sizeof canon);
    bw_taxii_query_free(&q);
    /* the canonical text does not depend on the order of a list's values */
    const char *const swapped[][2] = {{"match[type]", "indicator,vulnerability"},
                                      {"added_after", "2026-04-30T00:00:00.500000Z"},
                                      {"match[id]", "vulnerability--886313e1-3b8a-5372-9b90-0c9aee199e5d"},
                                      {"match[version]", "2026-04-30T00:00:00Z"},
                                      {"match[spec_version]", "2.1"}};
    assert_int_equal(parse(swapped, 5, &q), 0);
    assert_string_equal(q.canon, canon);
    bw_taxii_query_free(&q);

    static const char *const bad[][2] = {
        {"limit", "0"},          {"limit", "-1"},         {"limit", "1.5"},          {"limit", NULL},
        {"limit", ""},           {"added_after", "2026"}, {"added_after", "2026-04-30T00:00:00.1234567Z"},
        {"added_after", "2026-04-30T00:00:00+01:00"},     {"match[type]", ""},       {"match[type]", "a,,b"},
        {"match[type]", "Vulnerability"},                 {"match[id]", "vulnerability--nope"},
        {"match[version]", "newest"},                     {"match[spec_version]", "3.0"},
        {"next", ""},            {"match[type]", "aaa,bbb,ccc,ddd,eee,fff,ggg,hhh,iii,jjj,kkk,lll,mmm,nnn,ooo,ppp,qqq"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (parse(&bad[i], 1, &q) != -1)
            fail_msg("accepted %s=%s", bad[i][0], bad[i][1] ? bad[i][1] : "(none)");
    }
    /* spec_version 2.0 alone matches nothing (every object is 2.1) */
    const char *const v20[][2] = {{"match[spec_version]", "2.0"}};
    assert_int_equal(parse(v20, 1, &q), 0);
    assert_false(bw_taxii_wants_type(&q, "vulnerability"));
    bw_taxii_query_free(&q);
}

static void taxii_times(void **state)
{
    (void)state;
    char t[32];
    bw_taxii_time(1777507200LL * 1000000 + 42, t);
    assert_string_equal(t, "2026-04-30T00:00:00.000042Z");
    int64_t us;
    assert_int_equal(bw_taxii_parse_time(t, &us), 0);
    assert_true(us == 1777507200LL * 1000000 + 42);
    json_t *e = bw_taxii_error(406, "not acceptable", "why", "NOT_ACCEPTABLE", NULL);
    assert_string_equal(bw_json_str(e, "http_status"), "406");
    assert_string_equal(bw_json_str(e, "title"), "not acceptable");
    json_decref(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uuid5_known_values), cmocka_unit_test(ids_are_deterministic),
        cmocka_unit_test(times_with_milliseconds), cmocka_unit_test(cve_record_objects),
        cmocka_unit_test(case_study_is_a_report), cmocka_unit_test(shared_objects),
        cmocka_unit_test(long_texts_clipped),
        cmocka_unit_test(taxii_query),         cmocka_unit_test(taxii_times),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
