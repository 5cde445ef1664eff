/* Red-team engagements (PRO+): engage (202, queued as a job in the same transaction as the
 * engagement), the report at every status, cancel. The attacks run on the job workers
 * (src/jobs/redteam_job.c), never on a request thread. Another account's engagement is 404. */
#include "api/api.h"
#include "api/api_util.h"
#include "common/ids.h"
#include "common/timeutil.h"
#include "common/rng.h"
#include "engine/redteam/redteam.h"
#include "jobs/redteam_job.h"
#include "services/redteam.h"
#include "store/store.h"
#include "store/store_redteam.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *categories_json(unsigned mask)
{
    json_t *a = json_array();
    for (int i = 0; i < BW_RT_CATEGORIES; i++)
        if (mask & (1u << i))
            json_array_append_new(a, json_string(bw_rt_category_name(i)));
    return a;
}

/* Fills e from the request and the asset; false after replying. */
static bool build(struct bw_req *r, const struct bw_rt_library *lib, const struct bw_rt_engage_req *q,
                  const struct store_asset *a, struct store_engagement *e)
{
    size_t idx[BW_RT_MAX_ATTACKS];
    size_t n = bw_rt_select(lib, q->cat_mask, q->intensity, idx, BW_RT_MAX_ATTACKS);
    json_t *ids = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(ids, json_string(lib->attacks[idx[i]].id));
    json_t *cats = categories_json(q->cat_mask);
    char *ids_text = json_dumps(ids, JSON_COMPACT), *cats_text = json_dumps(cats, JSON_COMPACT);
    json_decref(ids);
    json_decref(cats);
    if (!ids_text || !cats_text || strlen(cats_text) >= sizeof e->categories) {
        free(ids_text);
        free(cats_text);
        bw_reply_internal(r, "out of memory");
        return false;
    }
    bw_id_new("eng_", e->id);
    snprintf(e->user_id, sizeof e->user_id, "%s", r->principal.user_id);
    snprintf(e->asset_id, sizeof e->asset_id, "%s", a->id);
    snprintf(e->asset_type, sizeof e->asset_type, "%s", a->type);
    snprintf(e->target_url, sizeof e->target_url, "%s", a->endpoint);
    snprintf(e->categories, sizeof e->categories, "%s", cats_text);
    free(cats_text);
    snprintf(e->intensity, sizeof e->intensity, "%s", bw_rt_intensity_name(q->intensity));
    memcpy(e->canary, "BWRT-", 5);
    bw_random_base62(e->canary + 5, 12);
    e->status = BW_RUN_QUEUED;
    e->attack_ids = ids_text;
    e->attack_count = (int)n;
    int avg = 0;
    if (store_engagement_avg_ms(api_ctx(r)->db, a->id, &avg) != ST_OK)
        avg = 0;
    e->eta_seconds = bw_rt_eta_seconds(n, avg, bw_redteam_attack_timeout(api_ctx(r)->cfg->job_lease_ms));
    /* the budget is fixed now: a resumed engagement searches within the same one */
    const struct bw_config *cfg = api_ctx(r)->cfg;
    e->budget_requests = (int)(q->budget_requests ? q->budget_requests : cfg->rt_budget_requests[q->intensity]);
    e->budget_seconds = (int)(q->budget_seconds ? q->budget_seconds : cfg->rt_budget_seconds[q->intensity]);
    e->created_us = bw_now_us();
    bw_iso8601(e->created_us / 1000000, e->created_at);
    return true;
}

void api_redteam_engage(struct bw_req *r)
{
    struct bw_verr v = {0};
    struct bw_rt_engage_req q = {0};
    json_t *errs = json_array();
    bw_rt_engage_parse(r->json, &q, errs);
    size_t i;
    json_t *it;
    json_array_foreach(errs, i, it) {
        bw_verr_add(&v, json_string_value(json_object_get(it, "field")),
                    json_string_value(json_object_get(it, "message")));
    }
    json_decref(errs);
    if (bw_verr_reply(r, &v))
        return;
    const struct bw_rt_library *lib = bw_rt_library_get();
    if (!lib) {
        bw_reply_internal(r, "the attack library is broken");
        return;
    }
    struct store_asset *a = api_asset_or_reply(r, q.asset_id);
    if (!a)
        return;
    struct store_engagement *e = calloc(1, sizeof *e);
    int rc;
    if (!e) {
        api_asset_free(a);
        bw_reply_internal(r, "out of memory");
        return;
    }
    if (!build(r, lib, &q, a, e))
        goto out;
    char job_id[BW_ID_MAX];
    bw_id_new("job_", job_id);
    long max = api_ctx(r)->cfg->redteam_max[r->principal.tier];
    int64_t active = 0;
    rc = store_engagement_create(api_ctx(r)->db, e, job_id, BW_JOB_MAX_ATTEMPTS, max, e->created_us / 1000, &active);
    if (rc == ST_LIMIT) {
        char msg[160];
        snprintf(msg, sizeof msg, "your tier allows %ld active red-team engagements; wait for one to finish or cancel one",
                 max);
        bw_reply_error(r, BW_E_ENGAGEMENT_LIMIT_REACHED, msg,
                       json_pack("{s:I,s:I}", "max_active", (json_int_t)max, "active", (json_int_t)active));
    } else if (rc != ST_OK) {
        api_reply_storage(r);
    } else {
        bw_reply_json(r, 202,
                      json_pack("{s:s,s:s,s:i,s:i,s:s,s:s,s:s,s:o,s:{s:i,s:i}}", "engagement_id", e->id, "status",
                                bw_run_status_name(e->status), "attack_count", e->attack_count, "eta_seconds",
                                e->eta_seconds, "created_at", e->created_at, "target_asset_id", e->asset_id,
                                "intensity", e->intensity, "attack_categories", categories_json(q.cat_mask), "budget",
                                "requests", e->budget_requests, "seconds", e->budget_seconds));
    }
out:
    store_engagement_clear(e);
    api_asset_free(a);
    free(e);
}

/* For the {id} routes: an engagement id (else 404 without a lookup) and room for the row; NULL
 * after replying. Free with store_engagement_clear + free. */
static struct store_engagement *engagement_for(struct bw_req *r)
{
    if (!bw_id_valid(r->params[0], "eng_")) {
        bw_reply_error(r, BW_E_NOT_FOUND, "no such engagement", NULL);
        return NULL;
    }
    struct store_engagement *e = calloc(1, sizeof *e);
    if (!e)
        bw_reply_internal(r, "out of memory");
    return e;
}

static void reply_report(struct bw_req *r, unsigned status, const struct store_engagement *e)
{
    json_t *doc = bw_redteam_report(api_ctx(r)->db, e);
    if (doc)
        bw_reply_json(r, status, doc);
    else
        api_reply_storage(r);
}

void api_redteam_report(struct bw_req *r)
{
    struct store_engagement *e = engagement_for(r);
    if (!e)
        return;
    int rc = store_engagement_get(api_ctx(r)->db, r->principal.user_id, r->params[0], e);
    if (rc == ST_OK)
        reply_report(r, 200, e);
    else if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such engagement", NULL);
    else
        api_reply_storage(r);
    store_engagement_clear(e);
    free(e);
}

void api_redteam_cancel(struct bw_req *r)
{
    struct store_engagement *e = engagement_for(r);
    if (!e)
        return;
    char ts[21];
    bw_iso8601(bw_now_s(), ts);
    int rc = store_engagement_cancel(api_ctx(r)->db, r->principal.user_id, r->params[0], ts, bw_now_us() / 1000, e);
    if (rc == ST_OK) {
        reply_report(r, 200, e);
    } else if (rc == ST_CONFLICT) {
        char msg[96];
        snprintf(msg, sizeof msg, "the engagement is already %s", bw_run_status_name(e->status));
        bw_reply_error(r, BW_E_CONFLICT, msg, json_pack("{s:s}", "status", bw_run_status_name(e->status)));
    } else if (rc == ST_NOTFOUND) {
        bw_reply_error(r, BW_E_NOT_FOUND, "no such engagement", NULL);
    } else {
        api_reply_storage(r);
    }
    store_engagement_clear(e);
    free(e);
}

void api_redteam_engagements(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *status = bw_query(r, "status"), *asset = bw_query(r, "asset_id");
    bool status_ok = !status || bw_run_status_parse(status) >= 0;
    if (!status_ok) {
        char names[96], m[128];
        bw_run_status_list(names, sizeof names);
        snprintf(m, sizeof m, "must be one of %s", names);
        bw_verr_add(&v, "status", m);
    }
    /* an asset id that cannot be one lists nothing, like another account's */
    bool asset_ok = !asset || strlen(asset) <= BW_RT_ASSET_ID_CHARS_MAX;
    if (!asset_ok) {
        char m[64];
        snprintf(m, sizeof m, "must be at most %d characters", BW_RT_ASSET_ID_CHARS_MAX);
        bw_verr_add(&v, "asset_id", m);
    }
    char filters[200];
    snprintf(filters, sizeof filters, "status=%s&asset_id=%s", status && status_ok ? status : "",
             asset && asset_ok ? asset : "");
    struct api_page pg;
    api_page_query(r, &v, &pg, BW_CURSOR_ENGAGEMENTS, 0, filters, false);
    if (bw_verr_reply(r, &v))
        return;
    struct store_engagement *list = NULL;
    size_t n = 0;
    int64_t total = 0;
    if (store_engagement_list(api_ctx(r)->db, r->principal.user_id, status, asset, &pg.page, &list, &n, &total) !=
        ST_OK) {
        api_reply_storage(r);
        return;
    }
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        const struct store_engagement *e = &list[i];
        json_t *cats = json_loads(e->categories, 0, NULL);
        json_array_append_new(
            arr, json_pack("{s:s,s:s,s:s,s:s,s:o,s:i,s:i,s:i,s:s?,s:s?,s:s,s:s?,s:s?}", "engagement_id", e->id, "status",
                           bw_run_status_name(e->status), "target_asset_id", e->asset_id, "intensity", e->intensity,
                           "attack_categories", json_is_array(cats) ? cats : json_array(), "attack_count",
                           e->attack_count, "attacks_done", e->attacks_done, "attacks_succeeded", e->attacks_succeeded,
                           "overall_risk", e->overall_risk[0] ? e->overall_risk : NULL, "error",
                           e->error[0] ? e->error : NULL, "created_at", e->created_at, "started_at",
                           e->started_at[0] ? e->started_at : NULL, "finished_at",
                           e->finished_at[0] ? e->finished_at : NULL));
        if (!json_is_array(cats))
            json_decref(cats);
    }
    free(list);
    bw_reply_json(r, 200, json_pack("{s:o,s:I,s:i,s:i,s:o}", "engagements", arr, "total", (json_int_t)total, "limit",
                                    (int)pg.page.limit, "offset", (int)pg.page.offset, "next_cursor",
                                    api_next_cursor_json(r, &pg)));
}
