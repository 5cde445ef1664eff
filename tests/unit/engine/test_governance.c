/* The governance assessment engine: met/gap logic, ordering, score and risk classification; the
 * platform evidence (met by evidence, contradicted, gaps_only) against the real catalogs and
 * mapping; the mapping's control ids against the catalogs; loading and checking the catalogs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/embedded.h"
#include "engine/governance.h"
#include "engine/usecase.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char CATALOG[] =
    "{\"id\":\"t\",\"name\":\"T\",\"controls\":["
    "{\"id\":\"C1\",\"title\":\"Human oversight of decisions\",\"severity\":\"high\",\"recommendation\":\"r1\",\"applies_when\":[\"always\"]},"
    "{\"id\":\"C2\",\"title\":\"Technical documentation\",\"severity\":\"medium\",\"recommendation\":\"r2\",\"applies_when\":[\"risk:high\"]},"
    "{\"id\":\"C3\",\"title\":\"Record keeping and logging\",\"severity\":\"low\",\"recommendation\":\"r3\",\"applies_when\":[\"trait:develops_model\"]},"
    "{\"id\":\"C4\",\"title\":\"Prohibited manipulation\",\"severity\":\"critical\",\"recommendation\":\"r4\",\"applies_when\":[\"category:art5_manipulation\"]},"
    "{\"id\":\"C5\",\"title\":\"Data governance\",\"severity\":\"high\",\"recommendation\":\"r5\"}"
    "]}";

/* The embedded use-case catalog, parsed once for the whole run. */
static const struct bw_uc_catalog *usecases(void)
{
    static struct bw_uc_catalog *c;
    if (!c) {
        const struct bw_embedded *f = bw_embedded_find("data/frameworks/usecases.json");
        char why[192];
        assert_non_null(f);
        c = bw_uc_catalog_parse((const char *)f->data, f->len, why, sizeof why);
        if (!c)
            fail_msg("usecases.json: %s", why);
    }
    return c;
}

static json_t *assess(const char *ctx, const char *uc)
{
    json_t *fw = json_loads(CATALOG, 0, NULL);
    json_t *ucs = json_pack("[s]", uc);
    json_t *out = bw_governance_assess(fw, usecases(), ctx, ucs);
    json_decref(fw);
    json_decref(ucs);
    assert_non_null(out);
    return out;
}

static void met_gaps_and_score(void **state)
{
    (void)state;
    json_t *r = assess("Every decision has human oversight by a reviewer. We have no data governance.",
                       "CV screening for hiring");
    assert_int_equal(json_integer_value(json_object_get(r, "controls_total")), 5);
    /* C1 always, C2 by the high-risk use, C5 without applies_when; C3 (no own model) and C4 (no
     * manipulation) do not apply */
    assert_int_equal(json_integer_value(json_object_get(r, "controls_applicable")), 3);
    assert_int_equal(json_integer_value(json_object_get(r, "controls_met")), 1);
    assert_int_equal(json_integer_value(json_object_get(r, "controls_applicable_met")), 1);
    assert_int_equal(json_integer_value(json_object_get(r, "score")), 20);
    json_t *gaps = json_object_get(r, "gaps");
    /* C5 (high; "no data governance" rules it out rather than meeting it), then C2 (medium) */
    assert_int_equal(json_array_size(gaps), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(gaps, 0), "control_id")), "C5");
    assert_string_equal(json_string_value(json_object_get(json_array_get(gaps, 0), "severity")), "HIGH");
    assert_string_equal(json_string_value(json_object_get(json_array_get(gaps, 1), "control_id")), "C2");
    assert_string_equal(json_string_value(json_object_get(json_array_get(gaps, 1), "basis")),
                        "high-risk use: EU AI Act Annex III point 4 (employment: recruitment, selection and decisions "
                        "on workers): \"CV screening\" in ai_use_cases[0]");
    assert_string_equal(json_string_value(json_object_get(r, "risk_classification")), "high");
    const json_t *cl = json_object_get(r, "classification");
    assert_string_equal(json_string_value(json_object_get(cl, "risk")), "high");
    assert_non_null(strstr(json_string_value(json_object_get(cl, "basis")), "\"CV screening\""));
    assert_int_equal(json_array_size(json_object_get(r, "recommendations")), 2);
    json_decref(r);
    /* a prohibited practice is a gap only where a use case describes it; org_context that rules it
     * out closes it */
    r = assess("", "nudging users with dark patterns to buy upgrades");
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(r, "gaps"), 0), "control_id")), "C4");
    assert_string_equal(json_string_value(json_object_get(r, "risk_classification")), "unacceptable");
    json_decref(r);
    r = assess("We never use dark patterns.", "nudging users with dark patterns to buy upgrades");
    assert_false(json_array_size(json_object_get(r, "gaps")) > 0 &&
                 strcmp(json_string_value(json_object_get(json_array_get(json_object_get(r, "gaps"), 0), "control_id")),
                        "C4") == 0);
    assert_int_equal(json_array_size(json_object_get(json_object_get(r, "classification"), "ruled_out")), 1);
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
    assert_string_equal(bw_governance_risk_class(usecases(), "Social scoring of citizens"), "unacceptable");
    assert_string_equal(bw_governance_risk_class(usecases(), "credit scoring for loans"), "high");
    assert_string_equal(bw_governance_risk_class(usecases(), "customer support chatbot"), "limited");
    assert_string_equal(bw_governance_risk_class(usecases(), "spam filter for internal mail"), "minimal");
    assert_string_equal(bw_governance_risk_class(usecases(), ""), "minimal");
}

static void malformed_catalog(void **state)
{
    (void)state;
    json_t *fw = json_loads("{\"controls\":[]}", 0, NULL), *uc = json_pack("[s]", "x");
    assert_null(bw_governance_assess(fw, usecases(), "", uc));
    json_decref(fw);
    json_decref(uc);
}

/* ---- platform evidence ------------------------------------------------------------------------ */

static const char *const FRAMEWORK_IDS[] = {"nist-ai-rmf", "iso-42001", "eu-ai-act", "owasp-llm"};

static json_t *embedded_json(const char *name)
{
    const struct bw_embedded *f = bw_embedded_find(name);
    assert_non_null(f);
    json_t *doc = json_loadb((const char *)f->data, f->len, 0, NULL);
    assert_non_null(doc);
    return doc;
}

static json_t *catalog(const char *id)
{
    char name[96];
    snprintf(name, sizeof name, "data/frameworks/%s.json", id);
    return embedded_json(name);
}

static json_t *mapping(void) { return embedded_json("data/frameworks/evidence.json"); }

/* An account with nothing on the platform; tests change what they need. */
static json_t *no_evidence(void)
{
    return json_pack("{s:i,s:{},s:i,s:i,s:{s:i,s:i,s:i,s:i},s:{},s:i,s:i,s:n}", "assets_registered", 0,
                     "assets_by_type", "assets_scanned", 0, "assets_scanned_90d", 0, "open_findings", "CRITICAL", 0,
                     "HIGH", 0, "MEDIUM", 0, "LOW", 0, "owasp_llm", "keys_active", 0, "keys_rotated", 0,
                     "oldest_active_key_days");
}

static json_t *assess_ev(const char *fw_id, const char *ctx, const char *uc, const json_t *ev)
{
    json_t *fw = catalog(fw_id), *map = mapping(), *ucs = json_pack("[s]", uc);
    json_t *out = bw_governance_assess_evidence(fw, usecases(), ctx, ucs, map, ev);
    json_decref(fw);
    json_decref(map);
    json_decref(ucs);
    assert_non_null(out);
    return out;
}

static json_t *find_gap(const json_t *r, const char *id)
{
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(r, "gaps"), i, g) {
        if (strcmp(json_string_value(json_object_get(g, "control_id")), id) == 0)
            return g;
    }
    return NULL;
}

static bool in_list(const json_t *r, const char *list, const char *id)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(json_object_get(r, "evidence"), list), i, v) {
        if (strcmp(json_string_value(v), id) == 0)
            return true;
    }
    return false;
}

static const char *gap_evidence(const json_t *r, const char *id)
{
    json_t *g = find_gap(r, id);
    assert_non_null(g);
    return json_string_value(json_object_get(g, "evidence"));
}

/* Every control id of the mapping exists in its catalog, checked here directly and by the
 * engine's own check (which the server runs at start). */
static void mapping_ids_exist(void **state)
{
    (void)state;
    json_t *map = mapping(), *fws[4];
    for (size_t f = 0; f < 4; f++)
        fws[f] = catalog(FRAMEWORK_IDS[f]);
    size_t k, e, checked = 0;
    json_t *kind, *entry;
    json_array_foreach(json_object_get(map, "kinds"), k, kind) {
        const char *fw_id;
        json_t *list;
        assert_non_null(json_string_value(json_object_get(kind, "condition")));
        json_object_foreach(json_object_get(kind, "controls"), fw_id, list) {
            json_t *fw = NULL;
            for (size_t f = 0; f < 4; f++)
                if (strcmp(fw_id, FRAMEWORK_IDS[f]) == 0)
                    fw = fws[f];
            if (!fw)
                fail_msg("unknown framework %s", fw_id);
            json_array_foreach(list, e, entry) {
                const char *id = json_string_value(json_object_get(entry, "id"));
                bool found = false;
                size_t c;
                json_t *ctl;
                json_array_foreach(json_object_get(fw, "controls"), c, ctl) {
                    found |= id && strcmp(json_string_value(json_object_get(ctl, "id")), id) == 0;
                }
                if (!found)
                    fail_msg("%s has no control %s", fw_id, id ? id : "(none)");
                assert_true(json_string_length(json_object_get(entry, "reason")) > 0);
                checked++;
            }
        }
    }
    assert_true(checked >= 10);
    char err[256] = "";
    assert_int_equal(bw_governance_evidence_check(map, (const json_t *const *)fws, 4, err, sizeof err), 0);

    /* the check refuses a control that is not in the catalog, and an unknown kind */
    json_t *bad = json_deep_copy(map);
    json_t *kind0 = json_array_get(json_object_get(bad, "kinds"), 0);
    json_t *first = json_array_get(json_object_get(json_object_get(kind0, "controls"), "nist-ai-rmf"), 0);
    assert_non_null(first);
    json_object_set_new(first, "id", json_string("GOVERN 99.9"));
    assert_int_equal(bw_governance_evidence_check(bad, (const json_t *const *)fws, 4, err, sizeof err), -1);
    assert_non_null(strstr(err, "GOVERN 99.9"));
    json_decref(bad);
    bad = json_deep_copy(map);
    json_object_set_new(json_array_get(json_object_get(bad, "kinds"), 0), "kind", json_string("vibes"));
    assert_int_equal(bw_governance_evidence_check(bad, (const json_t *const *)fws, 4, err, sizeof err), -1);
    json_decref(bad);

    json_decref(map);
    for (size_t f = 0; f < 4; f++)
        json_decref(fws[f]);
}

/* The loader the server runs at start: the embedded files load; a missing, misplaced or empty
 * catalog and a broken mapping are refused with a message naming what is wrong. */
static int load_with(const struct bw_embedded *const fw[BW_FRAMEWORKS], const struct bw_embedded *map, char *err,
                     size_t errlen)
{
    struct bw_gov_catalogs c;
    int rc = bw_governance_catalogs_load(fw, map, bw_embedded_find("data/frameworks/usecases.json"), &c, err, errlen);
    if (rc == 0)
        bw_governance_catalogs_free(&c);
    return rc;
}

static void catalogs_load(void **state)
{
    (void)state;
    const struct bw_embedded *fw[BW_FRAMEWORKS];
    for (size_t i = 0; i < BW_FRAMEWORKS; i++) {
        char name[96];
        assert_string_equal(bw_governance_framework_ids[i], FRAMEWORK_IDS[i]);
        snprintf(name, sizeof name, "data/frameworks/%s.json", bw_governance_framework_ids[i]);
        fw[i] = bw_embedded_find(name);
        assert_non_null(fw[i]);
    }
    const struct bw_embedded *map = bw_embedded_find("data/frameworks/evidence.json");
    struct bw_gov_catalogs c;
    char err[256] = "";
    const struct bw_embedded *uc = bw_embedded_find("data/frameworks/usecases.json");
    assert_int_equal(bw_governance_catalogs_load(fw, map, uc, &c, err, sizeof err), 0);
    assert_non_null(c.usecases);
    for (size_t i = 0; i < BW_FRAMEWORKS; i++)
        assert_string_equal(json_string_value(json_object_get(c.framework[i], "id")), FRAMEWORK_IDS[i]);
    assert_non_null(json_object_get(c.evidence_map, "kinds"));
    bw_governance_catalogs_free(&c);
    assert_null(c.framework[0]);
    assert_null(c.evidence_map);
    bw_governance_catalogs_free(&c); /* twice is harmless */

    const struct bw_embedded *misplaced[BW_FRAMEWORKS] = {fw[1], fw[1], fw[2], fw[3]};
    assert_int_equal(load_with(misplaced, map, err, sizeof err), -1);
    assert_string_equal(err, "framework catalog nist-ai-rmf is missing or malformed");
    const struct bw_embedded *missing[BW_FRAMEWORKS] = {fw[0], fw[1], fw[2], NULL};
    assert_int_equal(load_with(missing, map, err, sizeof err), -1);
    assert_string_equal(err, "framework catalog owasp-llm is missing or malformed");
    static const char EMPTY[] = "{\"id\":\"iso-42001\",\"name\":\"ISO\",\"controls\":[]}";
    const struct bw_embedded empty = {"empty", (const unsigned char *)EMPTY, sizeof EMPTY - 1};
    const struct bw_embedded *no_controls[BW_FRAMEWORKS] = {fw[0], &empty, fw[2], fw[3]};
    assert_int_equal(load_with(no_controls, map, err, sizeof err), -1);
    assert_string_equal(err, "framework catalog iso-42001 is missing or malformed");

    static const char JUNK[] = "{\"kinds\":";
    const struct bw_embedded junk = {"junk", (const unsigned char *)JUNK, sizeof JUNK - 1};
    assert_int_equal(load_with(fw, &junk, err, sizeof err), -1);
    assert_string_equal(err, "evidence mapping: missing or not JSON");
    assert_int_equal(load_with(fw, NULL, err, sizeof err), -1);
    static const char UNKNOWN[] = "{\"kinds\":[{\"kind\":\"asset_inventory\",\"condition\":\"c\",\"controls\":"
                                  "{\"nist-ai-rmf\":[{\"id\":\"NOPE\",\"reason\":\"r\"}]}}]}";
    const struct bw_embedded unknown = {"unknown", (const unsigned char *)UNKNOWN, sizeof UNKNOWN - 1};
    assert_int_equal(load_with(fw, &unknown, err, sizeof err), -1);
    assert_string_equal(err, "evidence mapping: asset_inventory: nist-ai-rmf has no control \"NOPE\"");
}

static void evidence_satisfies(void **state)
{
    (void)state;
    json_t *ev = no_evidence();
    json_t *none = assess_ev("nist-ai-rmf", "", "customer support chatbot", ev);
    /* nothing on the platform: the inventory is a gap and says why */
    assert_string_equal(gap_evidence(none, "GOVERN 1.6"), "no AI asset is registered on the platform");
    assert_non_null(strstr(gap_evidence(none, "MEASURE 2.7"), "no AI asset is registered"));
    assert_int_equal(json_array_size(json_object_get(json_object_get(none, "evidence"), "controls_met_by_evidence")),
                     0);

    json_object_set_new(ev, "assets_registered", json_integer(2));
    json_object_set_new(ev, "assets_scanned", json_integer(2));
    json_object_set_new(ev, "assets_scanned_90d", json_integer(2));
    json_object_set_new(json_object_get(ev, "open_findings"), "MEDIUM", json_integer(3));
    json_t *r = assess_ev("nist-ai-rmf", "", "customer support chatbot", ev);
    for (const char *const *id = (const char *const[]){"GOVERN 1.6", "MEASURE 2.7", "GOVERN 4.3", NULL}; *id; id++) {
        assert_null(find_gap(r, *id));
        assert_true(in_list(r, "controls_met_by_evidence", *id));
    }
    assert_int_equal(json_integer_value(json_object_get(r, "controls_met")),
                     json_integer_value(json_object_get(none, "controls_met")) + 3);
    json_t *e = json_object_get(r, "evidence");
    assert_int_equal(json_integer_value(json_object_get(e, "assets_registered")), 2);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(e, "open_findings"), "MEDIUM")), 3);
    assert_true(json_is_null(json_object_get(e, "oldest_active_key_days")));

    /* one asset not scanned for 90 days: scanning evidence no longer meets MEASURE 2.7 */
    json_object_set_new(ev, "assets_scanned_90d", json_integer(1));
    json_t *stale = assess_ev("nist-ai-rmf", "", "customer support chatbot", ev);
    assert_string_equal(gap_evidence(stale, "MEASURE 2.7"), "1 of 2 registered AI assets have no live scan from the last 90 days");
    assert_null(find_gap(stale, "GOVERN 1.6"));
    json_decref(stale);
    /* ...but org_context can still claim it: not contradicted, only not proven */
    stale = assess_ev("nist-ai-rmf", "Security and resilience are evaluated before each release.",
                      "customer support chatbot", ev);
    assert_null(find_gap(stale, "MEASURE 2.7"));
    json_decref(stale);
    json_decref(none);
    json_decref(r);
    json_decref(ev);
}

static void evidence_contradicts(void **state)
{
    (void)state;
    json_t *ev = no_evidence();
    json_object_set_new(ev, "assets_registered", json_integer(1));
    json_object_set_new(ev, "assets_scanned", json_integer(1));
    json_object_set_new(ev, "assets_scanned_90d", json_integer(1));
    json_object_set_new(json_object_get(ev, "open_findings"), "CRITICAL", json_integer(2));
    json_object_set_new(json_object_get(ev, "open_findings"), "HIGH", json_integer(1));
    const char *claim = "Security and resilience are evaluated before each release.";
    json_t *r = assess_ev("nist-ai-rmf", claim, "customer support chatbot", ev);
    const char *why = gap_evidence(r, "MEASURE 2.7");
    assert_non_null(strstr(why, "2 CRITICAL findings open"));
    assert_non_null(strstr(why, "1 HIGH finding open"));
    assert_non_null(strstr(why, "org_context claims this control"));
    assert_true(in_list(r, "controls_contradicted", "MEASURE 2.7"));
    assert_false(in_list(r, "controls_met_by_evidence", "MEASURE 2.7"));
    json_t *g = find_gap(r, "MEASURE 2.7");
    assert_string_equal(json_string_value(json_object_get(g, "severity")), "CRITICAL");
    json_decref(r);

    /* the same contradiction in the EU AI Act (Art. 15) */
    r = assess_ev("eu-ai-act", "accuracy, robustness and cybersecurity", "credit scoring", ev);
    assert_non_null(strstr(gap_evidence(r, "Art. 15"), "CRITICAL"));
    json_decref(r);

    /* OWASP: a risk found is a gap even when claimed; a risk probed and not found is met */
    json_object_set_new(ev, "owasp_llm",
                        json_pack("{s:{s:i,s:i,s:[]},s:{s:i,s:i,s:[s]}}", "LLM07", "hit", 0, "tested", 1, "findings",
                                  "LLM01", "hit", 1, "tested", 1, "findings", "PROMPT_INJECTION"));
    r = assess_ev("owasp-llm", "We defend against prompt injection.", "customer support chatbot", ev);
    why = gap_evidence(r, "LLM01");
    assert_non_null(strstr(why, "LLM01 found by the latest live scan of 1 asset (PROMPT_INJECTION)"));
    assert_true(in_list(r, "controls_contradicted", "LLM01"));
    assert_null(find_gap(r, "LLM07"));
    assert_true(in_list(r, "controls_met_by_evidence", "LLM07"));
    json_t *e = json_object_get(r, "evidence");
    assert_int_equal(json_array_size(json_object_get(e, "owasp_llm_hits")), 1);
    assert_string_equal(json_string_value(json_array_get(json_object_get(e, "owasp_llm_hits"), 0)), "LLM01");
    assert_int_equal(json_array_size(json_object_get(e, "owasp_llm_tested")), 2);
    assert_string_equal(json_string_value(json_array_get(json_object_get(e, "owasp_llm_tested"), 0)), "LLM01");
    assert_string_equal(json_string_value(json_array_get(json_object_get(e, "owasp_llm_tested"), 1)), "LLM07");
    json_decref(r);

    /* a contradicted control is a gap even when it would not apply (LLM08: medium, no keyword) */
    json_object_set_new(json_object_get(ev, "owasp_llm"), "LLM08",
                        json_pack("{s:i,s:i,s:[s]}", "hit", 2, "tested", 2, "findings", "X"));
    r = assess_ev("owasp-llm", "", "spam filter", ev);
    assert_non_null(strstr(gap_evidence(r, "LLM08"), "of 2 assets (X)"));
    json_decref(r);
    json_decref(ev);
}

/* gaps_only: scans cover part of Art. 15, so they can show a gap but never meet it */
static void evidence_gaps_only(void **state)
{
    (void)state;
    json_t *ev = no_evidence();
    json_object_set_new(ev, "assets_registered", json_integer(3));
    json_object_set_new(ev, "assets_scanned", json_integer(3));
    json_object_set_new(ev, "assets_scanned_90d", json_integer(3));
    json_t *r = assess_ev("eu-ai-act", "", "credit scoring", ev);
    json_t *g = find_gap(r, "Art. 15");
    assert_non_null(g);
    assert_null(json_object_get(g, "evidence"));
    assert_false(in_list(r, "controls_met_by_evidence", "Art. 15"));
    json_decref(r);
    json_object_set_new(ev, "assets_scanned_90d", json_integer(0));
    r = assess_ev("eu-ai-act", "", "credit scoring", ev);
    assert_non_null(strstr(gap_evidence(r, "Art. 15"), "3 of 3 registered AI assets have no live scan"));
    json_decref(r);
    json_decref(ev);
}

static void evidence_keys(void **state)
{
    (void)state;
    json_t *ev = no_evidence();
    json_object_set_new(ev, "keys_active", json_integer(1));
    json_object_set_new(ev, "oldest_active_key_days", json_integer(0));
    json_t *r = assess_ev("iso-42001", "", "customer support chatbot", ev);
    assert_string_equal(gap_evidence(r, "A.2.3"), "no API key of the account has ever been rotated");
    json_decref(r);
    json_object_set_new(ev, "keys_rotated", json_integer(1));
    r = assess_ev("iso-42001", "", "customer support chatbot", ev);
    assert_null(find_gap(r, "A.2.3"));
    assert_true(in_list(r, "controls_met_by_evidence", "A.2.3"));
    json_decref(r);
    json_object_set_new(ev, "oldest_active_key_days", json_integer(200));
    r = assess_ev("iso-42001", "", "customer support chatbot", ev);
    assert_string_equal(gap_evidence(r, "A.2.3"), "an active API key is 200 days old (more than 90)");
    json_decref(r);
    json_decref(ev);
}

static void evidence_redteam(void **state)
{
    (void)state;
    json_t *ev = no_evidence();
    json_t *r = assess_ev("nist-ai-rmf", "", "customer support chatbot", ev);
    assert_false(in_list(r, "controls_contradicted", "MEASURE 2.7")); /* no engagement: silent */
    json_decref(r);
    /* scanned assets so the scan kinds do not hold MEASURE 2.7 back */
    json_object_set_new(ev, "assets_registered", json_integer(1));
    json_object_set_new(ev, "assets_scanned", json_integer(1));
    json_object_set_new(ev, "assets_scanned_90d", json_integer(1));
    json_object_set_new(ev, "redteam_completed_90d", json_integer(2));
    r = assess_ev("nist-ai-rmf", "", "customer support chatbot", ev);
    assert_true(in_list(r, "controls_met_by_evidence", "MEASURE 2.7"));
    json_decref(r);
    json_object_set_new(ev, "redteam_high_successes_90d", json_integer(3));
    r = assess_ev("nist-ai-rmf", "We run security testing and red teaming every quarter.", "customer support chatbot",
                  ev);
    assert_true(in_list(r, "controls_contradicted", "MEASURE 2.7"));
    assert_non_null(strstr(gap_evidence(r, "MEASURE 2.7"), "3 HIGH or CRITICAL red-team attacks succeeded"));
    json_decref(r);
    r = assess_ev("owasp-llm", "", "customer support chatbot", ev);
    assert_true(in_list(r, "controls_contradicted", "LLM01"));
    json_decref(r);
    json_decref(ev);
}

/* Same facts, same document, whatever order the evidence members were built in. */
static void evidence_deterministic(void **state)
{
    (void)state;
    json_t *a = no_evidence(), *b = no_evidence();
    json_t *oa = json_pack("{s:{s:i,s:i,s:[]},s:{s:i,s:i,s:[s]}}", "LLM10", "hit", 0, "tested", 1, "findings", "LLM02",
                           "hit", 1, "tested", 1, "findings", "PLAINTEXT_TRANSPORT");
    json_t *ob = json_pack("{s:{s:i,s:i,s:[s]},s:{s:i,s:i,s:[]}}", "LLM02", "hit", 1, "tested", 1, "findings",
                           "PLAINTEXT_TRANSPORT", "LLM10", "hit", 0, "tested", 1, "findings");
    assert_non_null(oa);
    assert_non_null(ob);
    json_object_set_new(a, "assets_registered", json_integer(1));
    json_object_set_new(a, "owasp_llm", oa);
    json_object_set_new(b, "owasp_llm", ob);
    json_object_set_new(b, "assets_registered", json_integer(1));
    for (size_t f = 0; f < 4; f++) {
        json_t *x = assess_ev(FRAMEWORK_IDS[f], "logging", "a chatbot", a);
        json_t *y = assess_ev(FRAMEWORK_IDS[f], "logging", "a chatbot", b);
        char *sx = json_dumps(x, JSON_COMPACT | JSON_PRESERVE_ORDER), *sy = json_dumps(y, JSON_COMPACT | JSON_PRESERVE_ORDER);
        assert_string_equal(sx, sy);
        free(sx);
        free(sy);
        json_decref(x);
        json_decref(y);
    }
    json_decref(a);
    json_decref(b);
}

/* Without evidence the result has no evidence member, as before. */
static void no_evidence_member_without_evidence(void **state)
{
    (void)state;
    json_t *r = assess("x", "y");
    assert_null(json_object_get(r, "evidence"));
    json_decref(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(met_gaps_and_score),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(risk_classes),
        cmocka_unit_test(malformed_catalog),
        cmocka_unit_test(mapping_ids_exist),
        cmocka_unit_test(catalogs_load),
        cmocka_unit_test(evidence_satisfies),
        cmocka_unit_test(evidence_contradicts),
        cmocka_unit_test(evidence_gaps_only),
        cmocka_unit_test(evidence_keys),
        cmocka_unit_test(evidence_redteam),
        cmocka_unit_test(evidence_deterministic),
        cmocka_unit_test(no_evidence_member_without_evidence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
