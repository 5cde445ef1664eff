/* Governance: the framework catalog listing (the control catalogs live in data/frameworks) and
 * assessments against one of them (src/engine/governance.c), kept per account. An assessment
 * weighs the platform evidence for the account (src/services/evidence.c) through the mapping
 * in data/frameworks/evidence.json. */
#include "api/api.h"
#include "api/api_util.h"
#include "common/ids.h"
#include "common/limits.h"
#include "common/states.h"
#include "common/timeutil.h"
#include "common/utf8.h"
#include "engine/governance.h"
#include "services/evidence.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The order the spec lists them in. */
static const char *const *const ORDER = bw_governance_framework_ids;

int api_frameworks_render(struct api_ctx *c)
{
    json_t *list = json_array();
    for (size_t i = 0; i < BW_FRAMEWORKS; i++) {
        const json_t *doc = c->gov->framework[i]; /* checked by bw_governance_catalogs_load */
        json_t *controls = json_object_get(doc, "controls");
        json_t *item = json_pack("{s:s,s:O,s:I}", "id", ORDER[i], "name", json_object_get(doc, "name"), "controls",
                                 (json_int_t)json_array_size(controls));
        json_t *ver = json_object_get(doc, "version");
        if (json_is_string(ver))
            json_object_set(item, "version", ver);
        json_t *unit = json_object_get(doc, "control_unit");
        if (json_is_string(unit))
            json_object_set(item, "control_unit", unit);
        /* the one-framework document: the listing's members plus every control */
        json_t *one = json_deep_copy(item);
        json_object_set(one, "controls_total", json_object_get(item, "controls"));
        json_object_set(one, "controls", controls);
        json_t *src = json_object_get(doc, "source");
        if (json_is_string(src))
            json_object_set(one, "source", src);
        c->framework_json[i] = json_dumps(one, JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_decref(one);
        if (!c->framework_json[i]) {
            json_decref(item);
            json_decref(list);
            return -1;
        }
        c->framework_len[i] = strlen(c->framework_json[i]);
        json_array_append_new(list, item);
    }
    json_t *out = json_pack("{s:o}", "frameworks", list);
    c->frameworks_json = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(out);
    if (!c->frameworks_json)
        return -1;
    c->frameworks_len = strlen(c->frameworks_json);
    return 0;
}

void api_frameworks_free(struct api_ctx *c)
{
    for (size_t i = 0; i < BW_FRAMEWORKS; i++) {
        free(c->framework_json[i]);
        c->framework_json[i] = NULL;
    }
    free(c->frameworks_json);
    c->frameworks_json = NULL;
}

void api_governance_frameworks(struct bw_req *r)
{
    bw_reply_static(r, 200, api_ctx(r)->frameworks_json, api_ctx(r)->frameworks_len);
}

void api_governance_framework_get(struct bw_req *r)
{
    for (size_t i = 0; i < BW_FRAMEWORKS; i++)
        if (strcmp(r->params[0], ORDER[i]) == 0) {
            bw_reply_static(r, 200, api_ctx(r)->framework_json[i], api_ctx(r)->framework_len[i]);
            return;
        }
    bw_reply_error(r, BW_E_NOT_FOUND, "no such framework; known: nist-ai-rmf, iso-42001, eu-ai-act, owasp-llm",
                   NULL);
}

/* The engine's evidence object (src/engine/governance.h) from what the service gathered. */
static json_t *evidence_json(const struct bw_evidence *e)
{
    json_t *types = json_object();
    for (int i = 0; i < e->ntypes; i++)
        json_object_set_new(types, e->by_type[i].type, json_integer(e->by_type[i].n));
    json_t *owasp = json_object();
    for (int k = 0; k < BW_EVIDENCE_OWASP; k++) {
        if (!e->owasp_hit[k] && !e->owasp_tested[k])
            continue;
        json_t *ids = json_array();
        for (int j = 0; j < BW_EVIDENCE_FINDING_IDS && e->owasp_findings[k][j][0]; j++)
            json_array_append_new(ids, json_string(e->owasp_findings[k][j]));
        char id[8];
        snprintf(id, sizeof id, "LLM%02d", k + 1);
        json_object_set_new(owasp, id, json_pack("{s:I,s:I,s:o}", "hit", (json_int_t)e->owasp_hit[k], "tested",
                                                 (json_int_t)e->owasp_tested[k], "findings", ids));
    }
    return json_pack("{s:I,s:o,s:I,s:I,s:{s:I,s:I,s:I,s:I},s:o,s:I,s:I,s:o,s:I,s:I}", "assets_registered",
                     (json_int_t)e->assets_registered, "assets_by_type", types, "assets_scanned",
                     (json_int_t)e->assets_scanned, "assets_scanned_90d", (json_int_t)e->assets_scanned_90d,
                     "open_findings", "CRITICAL", (json_int_t)e->open_findings[BW_EV_CRITICAL], "HIGH",
                     (json_int_t)e->open_findings[BW_EV_HIGH], "MEDIUM", (json_int_t)e->open_findings[BW_EV_MEDIUM],
                     "LOW", (json_int_t)e->open_findings[BW_EV_LOW], "owasp_llm", owasp, "keys_active",
                     (json_int_t)e->keys_active, "keys_rotated", (json_int_t)e->keys_rotated,
                     "oldest_active_key_days",
                     e->oldest_active_key_days >= 0 ? json_integer(e->oldest_active_key_days) : json_null(),
                     "redteam_completed_90d", (json_int_t)e->redteam_completed_90d, "redteam_high_successes_90d",
                     (json_int_t)e->redteam_high_successes_90d);
}

/* On the blocking pool: the evidence query reads up to BW_EVIDENCE_MAX_SCANS scan rows,
 * milliseconds of work that must not hold an HTTP thread. The body was validated already. */
static void assess_work(struct bw_req *r)
{
    const char *fw = json_string_value(json_object_get(r->json, "framework_id"));
    const char *org = json_string_value(json_object_get(r->json, "org_context"));
    int fwi = -1;
    for (int i = 0; fw && i < BW_FRAMEWORKS; i++)
        if (strcmp(fw, ORDER[i]) == 0)
            fwi = i;
    if (fwi < 0) {
        bw_reply_internal(r, "framework vanished after validation");
        return;
    }
    int64_t now = bw_now_s();
    struct bw_evidence *ev = malloc(sizeof *ev);
    if (!ev) {
        bw_reply_internal(r, "out of memory");
        return;
    }
    int rc = bw_evidence_gather(api_ctx(r)->db, r->principal.user_id, now, ev);
    json_t *evidence = rc == ST_OK ? evidence_json(ev) : NULL;
    free(ev);
    if (rc != ST_OK) {
        api_reply_storage(r);
        return;
    }
    json_t *result = evidence ? bw_governance_assess_evidence(api_ctx(r)->gov->framework[fwi],
                                                              api_ctx(r)->gov->usecases, org ? org : "",
                                                              json_object_get(r->json, "ai_use_cases"),
                                                              api_ctx(r)->gov->evidence_map, evidence)
                              : NULL;
    json_decref(evidence);
    if (!result) {
        bw_reply_internal(r, "assessment failed");
        return;
    }
    char id[BW_ID_MAX], ts[21];
    bw_id_new("asm_", id);
    bw_iso8601(now, ts);
    json_t *doc = json_pack("{s:s,s:s,s:s}", "assessment_id", id, "framework_id", ORDER[fwi], "status",
                            bw_assessment_status_name(BW_ASSESSMENT_COMPLETED));
    json_object_update(doc, result);
    json_decref(result);
    json_object_set_new(doc, "created_at", json_string(ts));
    char *body = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    rc = body ? store_assessment_insert(api_ctx(r)->db, id, r->principal.user_id, ORDER[fwi], body, ts) : ST_ERROR;
    free(body);
    if (rc != ST_OK) {
        json_decref(doc);
        api_reply_storage(r);
        return;
    }
    bw_reply_json(r, 201, doc);
}

void api_governance_assess(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *fw = NULL, *org = NULL;
    if (!r->json) {
        bw_verr_add(&v, "framework_id", "is required");
        bw_verr_add(&v, "ai_use_cases", "is required");
    } else {
        if (bw_body_string(r, &v, "framework_id", true, BW_ASSESS_FRAMEWORK_ID_MAX, &fw) && fw) {
            int fwi = -1;
            for (int i = 0; i < BW_FRAMEWORKS; i++)
                if (strcmp(fw, ORDER[i]) == 0)
                    fwi = i;
            if (fwi < 0)
                bw_verr_add(&v, "framework_id", "must be one of nist-ai-rmf, iso-42001, eu-ai-act, owasp-llm");
        }
        json_t *uc = json_object_get(r->json, "ai_use_cases");
        if (!uc || json_is_null(uc)) {
            bw_verr_add(&v, "ai_use_cases", "is required");
        } else if (!json_is_array(uc) || json_array_size(uc) < 1 || json_array_size(uc) > BW_ASSESS_USE_CASES_MAX) {
            bw_verr_add(&v, "ai_use_cases", "must be an array of 1 to 50 strings");
        } else {
            size_t i;
            json_t *s;
            json_array_foreach(uc, i, s) {
                if (!json_is_string(s) || json_string_length(s) == 0 ||
                    bw_utf8_chars(json_string_value(s), json_string_length(s)) > BW_ASSESS_USE_CASE_CHARS) {
                    char m[96];
                    snprintf(m, sizeof m, "items must be non-empty strings of at most %d characters",
                             BW_ASSESS_USE_CASE_CHARS);
                    bw_verr_add(&v, "ai_use_cases", m);
                    break;
                }
            }
        }
        bw_body_string(r, &v, "org_context", false, BW_ASSESS_ORG_CONTEXT_CHARS, &org);
    }
    if (bw_verr_reply(r, &v))
        return;
    bw_req_defer(r, assess_work);
}

void api_governance_assessment_get(struct bw_req *r)
{
    const char *id = r->params[0];
    char *body = NULL;
    int rc = bw_id_valid(id, "asm_") ? store_assessment_get(api_ctx(r)->db, r->principal.user_id, id, &body)
                                     : ST_NOTFOUND;
    if (rc == ST_NOTFOUND) {
        bw_reply_error(r, BW_E_NOT_FOUND, "no such assessment", NULL);
    } else if (rc != ST_OK) {
        api_reply_storage(r);
    } else {
        bw_reply_text(r, 200, "application/json; charset=utf-8", body, strlen(body));
    }
}

void api_governance_assessments(struct bw_req *r)
{
    struct api_page pg;
    if (!api_page_open(r, &pg, BW_CURSOR_ASSESSMENTS, true))
        return;
    struct store_doc *list = NULL;
    size_t n = 0;
    int64_t total = 0;
    if (store_assessment_list(api_ctx(r)->db, r->principal.user_id, &pg.page, &list, &n, &total) != ST_OK) {
        api_reply_storage(r);
        return;
    }
    api_reply_doc_page(r, "assessments", list, n, total, &pg);
}
