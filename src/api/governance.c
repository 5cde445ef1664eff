/* Governance: the framework catalog listing (the control catalogs live in data/frameworks) and
 * assessments against one of them (src/engine/governance.c), kept per account. */
#include "api/app.h"
#include "common/embedded.h"
#include "common/ids.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "engine/governance.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The order the spec lists them in. */
static const char *const ORDER[BW_FRAMEWORKS] = {"nist-ai-rmf", "iso-42001", "eu-ai-act", "owasp-llm"};

#define USE_CASES_MAX 50
#define USE_CASE_CHARS 1000
#define ORG_CONTEXT_CHARS 8000

int api_frameworks_load(struct bw_app *app)
{
    json_t *list = json_array();
    for (size_t i = 0; i < BW_FRAMEWORKS; i++) {
        char name[96];
        snprintf(name, sizeof name, "data/frameworks/%s.json", ORDER[i]);
        const struct bw_embedded *f = bw_embedded_find(name);
        json_t *doc = f ? json_loadb((const char *)f->data, f->len, 0, NULL) : NULL;
        json_t *controls = json_object_get(doc, "controls");
        json_t *title = json_object_get(doc, "name");
        json_t *id = json_object_get(doc, "id");
        if (!json_is_array(controls) || !json_is_string(title) || !json_is_string(id) ||
            strcmp(json_string_value(id), ORDER[i]) != 0 || json_array_size(controls) == 0) {
            bw_logf(BW_LOG_ERROR, NULL, "framework catalog %s is missing or malformed", name);
            json_decref(doc);
            json_decref(list);
            return -1;
        }
        json_t *item = json_pack("{s:s,s:O,s:I}", "id", ORDER[i], "name", title, "controls",
                                 (json_int_t)json_array_size(controls));
        json_t *ver = json_object_get(doc, "version");
        if (json_is_string(ver))
            json_object_set(item, "version", ver);
        json_t *unit = json_object_get(doc, "control_unit");
        if (json_is_string(unit))
            json_object_set(item, "control_unit", unit);
        json_array_append_new(list, item);
        app->framework_docs[i] = doc; /* kept for assessments */
    }
    json_t *out = json_pack("{s:o}", "frameworks", list);
    app->frameworks_json = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(out);
    if (!app->frameworks_json)
        return -1;
    app->frameworks_len = strlen(app->frameworks_json);
    return 0;
}

void api_frameworks_free(struct bw_app *app)
{
    for (size_t i = 0; i < BW_FRAMEWORKS; i++) {
        json_decref(app->framework_docs[i]);
        app->framework_docs[i] = NULL;
    }
    free(app->frameworks_json);
    app->frameworks_json = NULL;
}

void api_governance_frameworks(struct bw_req *r)
{
    bw_reply_static(r, 200, r->app->frameworks_json, r->app->frameworks_len);
}

void api_governance_assess(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *fw = NULL, *org = NULL;
    int fwi = -1;
    if (!r->json) {
        bw_verr_add(&v, "framework_id", "is required");
        bw_verr_add(&v, "ai_use_cases", "is required");
    } else {
        if (bw_body_string(r, &v, "framework_id", true, 32, &fw) && fw) {
            for (int i = 0; i < BW_FRAMEWORKS; i++)
                if (strcmp(fw, ORDER[i]) == 0)
                    fwi = i;
            if (fwi < 0)
                bw_verr_add(&v, "framework_id", "must be one of nist-ai-rmf, iso-42001, eu-ai-act, owasp-llm");
        }
        json_t *uc = json_object_get(r->json, "ai_use_cases");
        if (!uc || json_is_null(uc)) {
            bw_verr_add(&v, "ai_use_cases", "is required");
        } else if (!json_is_array(uc) || json_array_size(uc) < 1 || json_array_size(uc) > USE_CASES_MAX) {
            bw_verr_add(&v, "ai_use_cases", "must be an array of 1 to 50 strings");
        } else {
            size_t i;
            json_t *s;
            json_array_foreach(uc, i, s) {
                if (!json_is_string(s) || json_string_length(s) == 0 || json_string_length(s) > USE_CASE_CHARS * 4) {
                    bw_verr_add(&v, "ai_use_cases", "items must be non-empty strings of at most 1000 characters");
                    break;
                }
            }
        }
        bw_body_string(r, &v, "org_context", false, ORG_CONTEXT_CHARS, &org);
    }
    if (bw_verr_reply(r, &v))
        return;
    json_t *result = bw_governance_assess(r->app->framework_docs[fwi], org ? org : "",
                                          json_object_get(r->json, "ai_use_cases"));
    if (!result) {
        bw_reply_internal(r, "assessment failed");
        return;
    }
    char id[BW_ID_MAX], ts[21];
    bw_id_new("asm_", id);
    bw_iso8601(bw_now_s(), ts);
    json_t *doc = json_pack("{s:s,s:s,s:s}", "assessment_id", id, "framework_id", ORDER[fwi], "status", "completed");
    json_object_update(doc, result);
    json_decref(result);
    json_object_set_new(doc, "created_at", json_string(ts));
    char *body = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    int rc = body ? store_assessment_insert(r->app->db, id, r->principal.user_id, ORDER[fwi], body, ts) : ST_ERROR;
    free(body);
    if (rc != ST_OK) {
        json_decref(doc);
        bw_reply_error(r, BW_E_UNAVAILABLE, "storage unavailable", NULL);
        return;
    }
    bw_reply_json(r, 201, doc);
}

void api_governance_assessment_get(struct bw_req *r)
{
    const char *id = r->params[0];
    char *body = NULL;
    int rc = bw_id_valid(id, "asm_") ? store_assessment_get(r->app->db, r->principal.user_id, id, &body) : ST_NOTFOUND;
    if (rc == ST_NOTFOUND) {
        bw_reply_error(r, BW_E_NOT_FOUND, "no such assessment", NULL);
    } else if (rc != ST_OK) {
        bw_reply_error(r, BW_E_UNAVAILABLE, "storage unavailable", NULL);
    } else {
        bw_reply_text(r, 200, "application/json; charset=utf-8", body, strlen(body));
    }
}
