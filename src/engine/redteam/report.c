#include "engine/redteam/report.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

json_t *bw_rt_report_final(const struct bw_rt_library *lib, const struct bw_rt_outcome *o, size_t n,
                           const char **risk)
{
    json_t *doc = bw_rt_report(lib, o, n);
    *risk = bw_rt_overall_risk(lib, o, n, NULL);
    if (doc)
        json_object_set_new(doc, "overall_risk", json_string(*risk));
    return doc;
}

static bool completed(const struct bw_rt_engagement *e) { return e->status == BW_RUN_COMPLETED; }

json_t *bw_rt_report_stored(const struct bw_rt_engagement *e)
{
    return completed(e) && e->report ? json_loads(e->report, 0, NULL) : NULL;
}

static json_t *text_or_null(const char *s) { return s[0] ? json_string(s) : json_null(); }

json_t *bw_rt_report_render(const struct bw_rt_engagement *e, json_t *doc)
{
    if (!doc)
        return NULL;
    bool done = completed(e);
    if (!done) { /* the plan so far: say so rather than judge a partial run */
        char summary[160];
        snprintf(summary, sizeof summary, "Engagement %s: %d of %d attacks run, %d succeeded so far.",
                 bw_run_status_name(e->status),
                 e->attacks_done, e->attack_count, e->attacks_succeeded);
        json_object_set_new(json_object_get(doc, "remediation_plan"), "summary", json_string(summary));
    }
    json_t *cats = json_loads(e->categories, 0, NULL);
    json_object_set_new(doc, "engagement_id", json_string(e->id));
    json_object_set_new(doc, "target_asset_id", json_string(e->asset_id));
    json_object_set_new(doc, "status", json_string(bw_run_status_name(e->status)));
    json_object_set_new(doc, "intensity", json_string(e->intensity));
    json_object_set_new(doc, "attack_categories", cats ? cats : json_array());
    json_object_set_new(doc, "attack_count", json_integer(e->attack_count));
    json_object_set_new(doc, "eta_seconds", json_integer(e->eta_seconds));
    json_object_set_new(doc, "budget",
                        json_pack("{s:i,s:i}", "requests", e->budget_requests, "seconds", e->budget_seconds));
    json_object_set_new(doc, "progress", json_pack("{s:i,s:i}", "done", e->attacks_done, "total", e->attack_count));
    json_object_set_new(doc, "attacks_total", json_integer(e->attack_count));
    /* the counter of record is the engagement row's (recomputed from the rows on every save) */
    json_object_set_new(doc, "attacks_succeeded", json_integer(e->attacks_succeeded));
    json_object_set_new(doc, "overall_risk", done && e->overall_risk[0] ? json_string(e->overall_risk) : json_null());
    json_object_set_new(doc, "error", text_or_null(e->error));
    json_object_set_new(doc, "created_at", json_string(e->created_at));
    json_object_set_new(doc, "started_at", text_or_null(e->started_at));
    json_object_set_new(doc, "finished_at", text_or_null(e->finished_at));
    return doc;
}
