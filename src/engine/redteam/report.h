/* The red-team report documents, rendered in one place from plain structs (no storage, no HTTP):
 * the scored document stored with a completed engagement, and the report the API answers at every
 * status (GET .../redteam/{id}/report, and the answer to a cancel). The job stores the first
 * (src/jobs/redteam_job.c); src/services/redteam.c loads what the second needs.
 *
 * Ownership: documents are returned as new references (json_decref them); bw_rt_report_render
 * steals `scored`. The strings of struct bw_rt_engagement are borrowed. */
#ifndef BW_ENGINE_REDTEAM_REPORT_H
#define BW_ENGINE_REDTEAM_REPORT_H
#include "common/states.h"
#include "engine/redteam/redteam.h"

#include <jansson.h>
#include <stddef.h>

/* An engagement as its report shows it, field by field from the caller's row. */
struct bw_rt_engagement {
    const char *id, *asset_id, *intensity;
    enum bw_run_status status;
    const char *categories; /* JSON array text */
    int attack_count, attacks_done, attacks_succeeded, eta_seconds;
    const char *overall_risk;                                  /* "" until completed */
    const char *error, *created_at, *started_at, *finished_at; /* "" when none */
    const char *report; /* the stored scored document (JSON text), or NULL */
    int budget_requests, budget_seconds; /* the escalation budget; 0: none (before adaptive attacks) */
};

/* The scored document of a completed engagement: bw_rt_report() of its outcomes plus
 * overall_risk (bw_rt_overall_risk, also put in *risk, a static string). NULL when out of memory. */
json_t *bw_rt_report_final(const struct bw_rt_library *lib, const struct bw_rt_outcome *o, size_t n,
                           const char **risk);

/* A completed engagement's stored scored document, parsed; NULL when the engagement is not
 * completed or has none readable: then score its attack rows with bw_rt_report(). */
json_t *bw_rt_report_stored(const struct bw_rt_engagement *e);

/* The report at the engagement's current status: the scored document (stolen; NULL gives NULL)
 * with {engagement_id, target_asset_id, status, intensity, attack_categories, attack_count,
 * eta_seconds, budget:{requests,seconds}, progress:{done,total}, attacks_total, attacks_succeeded (the row's counter),
 * overall_risk (null until completed), error, created_at, started_at, finished_at}; before
 * completion the plan's summary says how far the run got rather than judge a partial run. */
json_t *bw_rt_report_render(const struct bw_rt_engagement *e, json_t *scored);

#endif
