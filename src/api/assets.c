/* The AI asset register (STARTER+): register, list, get, delete; and the live posture scan (PRO+),
 * which probes the endpoint through the egress module on the probe pool (src/engine/assetscan.c),
 * stores the result and moves the asset's score to it. The registration score is static
 * (src/engine/posture.c). Another account's asset is 404 everywhere. */
#include "api/api.h"
#include "api/api_util.h"
#include "common/ids.h"
#include "common/limits.h"
#include "common/timeutil.h"
#include "engine/posture.h"
#include "engine/assetscan.h"
#include "services/evidence.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const TYPES[] = {"model", "agent", "rag", "api", "pipeline"};
static const char *const RISKS[] = {"CRITICAL", "HIGH", "MEDIUM", "LOW"};

static bool one_of(const char *v, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v, set[i]) == 0)
            return true;
    return false;
}

static json_t *asset_json(const struct store_asset *a)
{
    return json_pack("{s:s,s:s,s:s,s:s?,s:s,s:s,s:i,s:s,s:s,s:s?,s:s?}", "asset_id", a->id, "name", a->name, "type",
                     a->type, "provider", a->provider[0] ? a->provider : NULL, "endpoint", a->endpoint, "env", a->env,
                     "security_score", a->security_score, "risk_level", a->risk_level, "created_at", a->created_at,
                     "last_scan_id", a->last_scan_id[0] ? a->last_scan_id : NULL, "last_scanned_at",
                     a->last_scanned_at[0] ? a->last_scanned_at : NULL);
}

void api_assets_register(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *name = NULL, *type = NULL, *provider = NULL, *endpoint = NULL, *env = NULL;
    if (!r->json) {
        bw_verr_add(&v, "name", "is required");
        bw_verr_add(&v, "type", "is required");
        bw_verr_add(&v, "endpoint", "is required");
    } else {
        if (bw_body_string(r, &v, "name", true, BW_NAME_MAX, &name) && name && !name[strspn(name, " \t\r\n")])
            bw_verr_add(&v, "name", "must not be blank");
        if (bw_body_string(r, &v, "type", true, BW_ASSET_TYPE_MAX, &type) && type &&
            !one_of(type, TYPES, sizeof TYPES / sizeof TYPES[0]))
            bw_verr_add(&v, "type", "must be one of model, agent, rag, api, pipeline");
        bw_body_string(r, &v, "provider", false, BW_NAME_MAX, &provider);
        if (bw_body_string(r, &v, "endpoint", true, BW_ENDPOINT_MAX, &endpoint) && endpoint &&
            !bw_posture_url_ok(endpoint))
            bw_verr_add(&v, "endpoint", "must be an http or https URL");
        bw_body_string(r, &v, "env", false, BW_ASSET_ENV_MAX, &env);
    }
    if (bw_verr_reply(r, &v))
        return;
    struct store_asset *a = calloc(1, sizeof *a);
    if (!a) {
        bw_reply_internal(r, "out of memory");
        return;
    }
    bw_id_new("ast_", a->id);
    snprintf(a->user_id, sizeof a->user_id, "%s", r->principal.user_id);
    snprintf(a->name, sizeof a->name, "%s", name);
    snprintf(a->type, sizeof a->type, "%s", type);
    snprintf(a->provider, sizeof a->provider, "%s", provider ? provider : "");
    snprintf(a->endpoint, sizeof a->endpoint, "%s", endpoint);
    snprintf(a->env, sizeof a->env, "%s", env && *env ? env : "production");
    a->security_score = bw_posture_score(a->type, a->provider, a->endpoint, a->env);
    snprintf(a->risk_level, sizeof a->risk_level, "%s", bw_posture_level(a->security_score));
    a->created_us = bw_now_us();
    bw_iso8601(a->created_us / 1000000, a->created_at);
    int rc = store_asset_insert(api_ctx(r)->db, a);
    if (rc == ST_OK)
        bw_reply_json(r, 201, asset_json(a));
    else
        api_reply_storage(r);
    free(a);
}

void api_assets_list(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *type = bw_query(r, "type"), *risk = bw_query(r, "risk");
    bool type_ok = !type || one_of(type, TYPES, sizeof TYPES / sizeof TYPES[0]);
    bool risk_ok = !risk || one_of(risk, RISKS, sizeof RISKS / sizeof RISKS[0]);
    if (!type_ok)
        bw_verr_add(&v, "type", "must be one of model, agent, rag, api, pipeline");
    if (!risk_ok)
        bw_verr_add(&v, "risk", "must be one of CRITICAL, HIGH, MEDIUM, LOW");
    /* the cursor's filter text; validated values only, so it fits */
    char filters[64];
    snprintf(filters, sizeof filters, "type=%s&risk=%s", type && type_ok ? type : "", risk && risk_ok ? risk : "");
    struct api_page pg;
    api_page_query(r, &v, &pg, BW_CURSOR_ASSETS, 0, filters, false);
    if (bw_verr_reply(r, &v))
        return;
    struct store_asset *list = NULL;
    size_t n = 0;
    int64_t total = 0;
    if (store_asset_list(api_ctx(r)->db, r->principal.user_id, type, risk, &pg.page, &list, &n, &total) != ST_OK) {
        api_reply_storage(r);
        return;
    }
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, asset_json(&list[i]));
    free(list);
    bw_reply_json(r, 200, json_pack("{s:o,s:I,s:i,s:i,s:o}", "assets", arr, "total", (json_int_t)total, "limit",
                                    (int)pg.page.limit, "offset", (int)pg.page.offset, "next_cursor",
                                    api_next_cursor_json(r, &pg)));
}

/* The {id} path parameter: an asset id of ours, or 404 without a lookup. */
static bool asset_id_param(struct bw_req *r)
{
    if (bw_id_valid(r->params[0], "ast_"))
        return true;
    bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
    return false;
}

void api_assets_get(struct bw_req *r)
{
    if (!asset_id_param(r))
        return;
    struct store_asset *a = malloc(sizeof *a);
    if (!a) {
        bw_reply_internal(r, "out of memory");
        return;
    }
    int rc = store_asset_get(api_ctx(r)->db, r->principal.user_id, r->params[0], a);
    if (rc == ST_OK)
        bw_reply_json(r, 200, asset_json(a));
    else if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
    else
        api_reply_storage(r);
    free(a);
}

void api_assets_delete(struct bw_req *r)
{
    if (!asset_id_param(r))
        return;
    int64_t cancelled = 0;
    int rc = store_asset_delete(api_ctx(r)->db, r->principal.user_id, r->params[0], &cancelled);
    if (rc == ST_OK)
        bw_reply_json(r, 200, json_pack("{s:b,s:s,s:b,s:I}", "success", 1, "asset_id", r->params[0], "deleted", 1,
                                        "engagements_cancelled", (json_int_t)cancelled));
    else if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
    else
        api_reply_storage(r);
}

/* Runs on the probe pool: the asset is read here too, so a delete racing the scan is a 404. */
static void scan_work(struct bw_req *r)
{
    struct store_asset *a = malloc(sizeof *a);
    if (!a) {
        bw_reply_internal(r, "out of memory");
        return;
    }
    int rc = store_asset_get(api_ctx(r)->db, r->principal.user_id, r->params[0], a);
    if (rc != ST_OK) {
        if (rc == ST_NOTFOUND)
            bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
        else
            api_reply_storage(r);
        free(a);
        return;
    }
    struct bw_assetscan_opts o = {.egress_allow = api_ctx(r)->egress_allow,
                                  .static_score = bw_posture_score(a->type, a->provider, a->endpoint, a->env),
                                  .now_s = bw_now_s()};
    json_t *res = bw_assetscan_run(a->type, a->endpoint, &o);
    if (!res) {
        free(a);
        bw_reply_internal(r, "out of memory");
        return;
    }
    struct store_asset_scan sc = {0};
    bw_id_new("scn_", sc.id);
    snprintf(sc.asset_id, sizeof sc.asset_id, "%s", a->id);
    snprintf(sc.user_id, sizeof sc.user_id, "%s", a->user_id);
    sc.score = (int)json_integer_value(json_object_get(res, "score"));
    snprintf(sc.risk_level, sizeof sc.risk_level, "%s", json_string_value(json_object_get(res, "risk_level")));
    sc.created_us = bw_now_us();
    bw_iso8601(sc.created_us / 1000000, sc.created_at);
    json_object_set_new(res, "scan_id", json_string(sc.id));
    json_object_set_new(res, "asset_id", json_string(a->id));
    json_object_set_new(res, "scanned_at", json_string(sc.created_at));
    free(a);
    char *body = json_dumps(res, JSON_COMPACT);
    sc.body = body;
    rc = body ? bw_evidence_scan_save(api_ctx(r)->db, &sc, res) : ST_ERROR;
    free(body);
    if (rc == ST_OK)
        bw_reply_json(r, 200, res);
    else {
        json_decref(res);
        if (rc == ST_NOTFOUND)
            bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
        else
            api_reply_storage(r);
    }
}

void api_assets_scan(struct bw_req *r)
{
    if (!asset_id_param(r))
        return;
    bw_req_defer_on(r, api_ctx(r)->probes, scan_work);
}
