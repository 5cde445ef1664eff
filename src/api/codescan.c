/* The code scanner API: POST /api/vibe-code/scan (?format=sarif: the same findings as a SARIF
 * 2.1.0 log) and GET /api/vibe-code/patterns.
 * FREE and anonymous callers get the gated view (gated:true, the top 3 findings, locked_count,
 * upgrade) whatever the number of findings; STARTER and above see all (gated:false, tier).
 * Score and grade always come from all findings, so both views agree on them. */
#include "api/api.h"

#include "common/jsonx.h"
#include "common/limits.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "engine/code/sarif.h"
#include "engine/code/scanner.h"

#include <stdio.h>
#include <string.h>

void api_vibe_patterns(struct bw_req *r)
{
    size_t len;
    const char *body = bw_scanner_catalog_json(api_ctx(r)->scanner, &len);
    bw_reply_static(r, 200, body, len);
}

static json_t *finding_json(const struct bw_finding *x)
{
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:s,s:s}", "rule_id", x->rule->id, "title",
                          x->rule->title, "severity", bw_sev_name(x->severity), "category", x->rule->category, "cwe",
                          x->rule->cwe, "line", (json_int_t)x->line, "column", (json_int_t)x->column, "end_line",
                          (json_int_t)x->end_line, "snippet", x->snippet, "remediation", x->rule->remediation);
    if (o && x->owasp_llm)
        json_object_set_new(o, "owasp_llm", json_string(x->owasp_llm));
    json_t *trace = bw_finding_trace_json(x);
    if (o && trace)
        json_object_set_new(o, "trace", trace);
    else
        json_decref(trace);
    return o;
}

/* Whether the caller sees every finding: accounts at STARTER or above, and the admin key. */
static bool full_view(const struct bw_principal *p)
{
    if (p->kind == BW_AUTH_ADMINKEY)
        return true;
    return (p->kind == BW_AUTH_JWT || p->kind == BW_AUTH_APIKEY) && p->tier >= BW_TIER_STARTER;
}

static void run_scan(struct bw_req *r)
{
    const char *code = json_string_value(json_object_get(r->json, "code"));
    size_t len = json_string_length(json_object_get(r->json, "code"));
    int lang = bw_lang_parse(json_string_value(json_object_get(r->json, "language")));
    const char *context = json_string_value(json_object_get(r->json, "context"));
    struct bw_findings f;
    if (bw_scan(api_ctx(r)->scanner, (enum bw_lang)lang, code, len, bw_context_is_test(context), &f) != 0) {
        bw_reply_internal(r, "scan failed");
        return;
    }
    int counts[5] = {0};
    for (size_t i = 0; i < f.n; i++)
        counts[f.v[i].severity]++;
    bool full = full_view(&r->principal);
    const char *tier = r->principal.kind == BW_AUTH_ADMINKEY ? "ENTERPRISE" : bw_tier_name(r->principal.tier);
    const char *format = bw_query(r, "format");
    bool sarif = format && strcmp(format, "sarif") == 0;
    size_t shown = full ? f.n : (f.n < BW_FREE_VISIBLE_FINDINGS ? f.n : BW_FREE_VISIBLE_FINDINGS);
    if (sarif) { /* the same findings as SARIF 2.1.0, the view (gated or not) in run.properties */
        char uri[16];
        snprintf(uri, sizeof uri, "input.%s", bw_lang_name((enum bw_lang)lang));
        json_t *props = full ? json_pack("{s:b,s:s,s:i}", "gated", 0, "tier", tier, "total_findings", (json_int_t)f.n)
                             : json_pack("{s:b,s:i,s:i}", "gated", 1, "locked_count", (json_int_t)(f.n - shown),
                                         "total_findings", (json_int_t)f.n);
        json_t *log = bw_sarif_log_one(f.v, shown, uri, props);
        bw_findings_free(&f);
        size_t blen = 0;
        char *body = log ? bw_json_dump(log, 0, &blen) : NULL;
        json_decref(log);
        if (!body) {
            bw_reply_internal(r, "the SARIF log cannot be built");
            return;
        }
        bw_reply_text(r, 200, "application/sarif+json", body, blen);
        return;
    }
    json_t *items = json_array();
    for (size_t i = 0; i < shown; i++) /* findings are sorted worst first: the top N are the worst */
        json_array_append_new(items, finding_json(&f.v[i]));
    uint32_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += code[i] == '\n';
    char grade[2] = {bw_scan_grade(&f), 0}, ts[21];
    bw_iso8601(bw_now_s(), ts);
    json_t *out = json_pack("{s:b,s:s,s:i,s:o,s:b}", "ok", 1, "risk_grade", grade, "risk_score",
                            (json_int_t)bw_scan_score(&f), "findings", items, "gated", (int)!full);
    if (full) {
        json_object_set_new(out, "tier", json_string(tier));
    } else {
        json_object_set_new(out, "locked_count", json_integer((json_int_t)(f.n - shown)));
        const struct bw_config *cfg = api_ctx(r)->cfg;
        json_object_set_new(out, "upgrade", json_pack("{s:s,s:s,s:s}", "tier", "STARTER", "price",
                                                      cfg->upgrade_price ? cfg->upgrade_price : "",
                                                      "url", cfg->upgrade_url ? cfg->upgrade_url : ""));
    }
    json_object_set_new(out, "total_findings", json_integer((json_int_t)f.n));
    json_object_set_new(out, "summary", json_pack("{s:i,s:i,s:i,s:i}", "critical", counts[4], "high", counts[3],
                                                  "medium", counts[2], "low", counts[1]));
    json_object_set_new(out, "language", json_string(bw_lang_name((enum bw_lang)lang)));
    json_object_set_new(out, "lines", json_integer(lines));
    json_object_set_new(out, "truncated", json_boolean(f.truncated));
    json_object_set_new(out, "time_limited", json_boolean(f.time_limited));
    json_object_set_new(out, "scanned_at", json_string(ts));
    bw_findings_free(&f);
    bw_reply_json(r, 200, out);
}

void api_vibe_scan(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *lang = NULL, *context = NULL;
    json_t *jc = r->json ? json_object_get(r->json, "code") : NULL;
    if (!r->json || !jc || json_is_null(jc))
        bw_verr_add(&v, "code", "is required");
    else if (!json_is_string(jc))
        bw_verr_add(&v, "code", "must be a string");
    else if (json_string_length(jc) == 0)
        bw_verr_add(&v, "code", "must not be empty");
    if (r->json && bw_body_string(r, &v, "language", true, BW_LANGUAGE_MAX, &lang) && lang && bw_lang_parse(lang) < 0)
        bw_verr_add(&v, "language", "must be one of js, ts, py, go, java, php, rb, cs, rs");
    if (!r->json)
        bw_verr_add(&v, "language", "is required");
    if (r->json)
        bw_body_string(r, &v, "context", false, BW_CONTEXT_MAX, &context);
    const char *format = bw_query(r, "format");
    if (format && strcmp(format, "json") != 0 && strcmp(format, "sarif") != 0)
        bw_verr_add(&v, "format", "must be json or sarif");
    if (bw_verr_reply(r, &v))
        return;
    long max_code = api_ctx(r)->cfg->max_code;
    if (json_string_length(jc) > (size_t)max_code) {
        char msg[96];
        snprintf(msg, sizeof msg, "code exceeds %ld bytes", max_code);
        bw_reply_error(r, BW_E_PAYLOAD_TOO_LARGE, msg, json_pack("{s:i}", "max_bytes", (json_int_t)max_code));
        return;
    }
    /* small inputs scan in microseconds on the event thread; large ones go to the pool */
    if (json_string_length(jc) > BW_SCAN_INLINE_BYTES) {
        bw_req_defer(r, run_scan); /* answers 503 itself when the pool is full */
        return;
    }
    run_scan(r);
}
