/* The AI asset register: POST /api/ai-security/assets/register and GET /api/ai-security/assets
 * (STARTER+). The registration score is static (src/engine/posture.c); live scans come with the
 * egress layer. */
#include "api/app.h"

#include "common/ids.h"
#include "common/timeutil.h"
#include "engine/posture.h"
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
    return json_pack("{s:s,s:s,s:s,s:s?,s:s,s:s,s:i,s:s,s:s}", "asset_id", a->id, "name", a->name, "type", a->type,
                     "provider", a->provider[0] ? a->provider : NULL, "endpoint", a->endpoint, "env", a->env,
                     "security_score", a->security_score, "risk_level", a->risk_level, "created_at", a->created_at);
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
        bw_body_string(r, &v, "name", true, 128, &name);
        if (bw_body_string(r, &v, "type", true, 16, &type) && type &&
            !one_of(type, TYPES, sizeof TYPES / sizeof TYPES[0]))
            bw_verr_add(&v, "type", "must be one of model, agent, rag, api, pipeline");
        bw_body_string(r, &v, "provider", false, 128, &provider);
        if (bw_body_string(r, &v, "endpoint", true, 2048, &endpoint) && endpoint && !bw_posture_url_ok(endpoint))
            bw_verr_add(&v, "endpoint", "must be an http or https URL");
        bw_body_string(r, &v, "env", false, 64, &env);
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
    int rc = store_asset_insert(r->app->db, a);
    if (rc == ST_OK)
        bw_reply_json(r, 201, asset_json(a));
    else
        bw_reply_error(r, BW_E_UNAVAILABLE, "storage unavailable", NULL);
    free(a);
}

void api_assets_list(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *type = bw_query(r, "type"), *risk = bw_query(r, "risk");
    long limit = 20;
    if (type && !one_of(type, TYPES, sizeof TYPES / sizeof TYPES[0]))
        bw_verr_add(&v, "type", "must be one of model, agent, rag, api, pipeline");
    if (risk && !one_of(risk, RISKS, sizeof RISKS / sizeof RISKS[0]))
        bw_verr_add(&v, "risk", "must be one of CRITICAL, HIGH, MEDIUM, LOW");
    bw_query_int(r, &v, "limit", 20, 1, 100, &limit);
    if (bw_verr_reply(r, &v))
        return;
    struct store_asset *list = NULL;
    size_t n = 0;
    int64_t total = 0;
    if (store_asset_list(r->app->db, r->principal.user_id, type, risk, limit, &list, &n, &total) != ST_OK) {
        bw_reply_error(r, BW_E_UNAVAILABLE, "storage unavailable", NULL);
        return;
    }
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, asset_json(&list[i]));
    free(list);
    bw_reply_json(r, 200, json_pack("{s:o,s:I,s:i}", "assets", arr, "total", (json_int_t)total, "limit", (int)limit));
}
