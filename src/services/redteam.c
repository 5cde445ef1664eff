#include "services/redteam.h"

#include "engine/redteam/report.h"
#include "store/store.h"

#include <stdlib.h>

struct bw_rt_outcome *bw_redteam_outcomes(const struct store_attack_row *rows, size_t n)
{
    struct bw_rt_outcome *o = calloc(n ? n : 1, sizeof *o);
    for (size_t i = 0; o && i < n; i++)
        o[i] = (struct bw_rt_outcome){rows[i].attack_id, rows[i].succeeded != 0, rows[i].errored != 0, rows[i].prompt,
                                      rows[i].response_excerpt, rows[i].findings, rows[i].path, rows[i].requests,
                                      rows[i].search};
    return o;
}

json_t *bw_redteam_report(struct db *db, const struct store_engagement *e)
{
    const struct bw_rt_engagement v = {
        .id = e->id,
        .asset_id = e->asset_id,
        .status = e->status,
        .intensity = e->intensity,
        .categories = e->categories,
        .attack_count = e->attack_count,
        .attacks_done = e->attacks_done,
        .attacks_succeeded = e->attacks_succeeded,
        .eta_seconds = e->eta_seconds,
        .overall_risk = e->overall_risk,
        .error = e->error,
        .created_at = e->created_at,
        .started_at = e->started_at,
        .finished_at = e->finished_at,
        .report = e->report,
        .budget_requests = e->budget_requests,
        .budget_seconds = e->budget_seconds,
    };
    json_t *scored = bw_rt_report_stored(&v);
    if (!scored) {
        const struct bw_rt_library *lib = bw_rt_library_get();
        struct store_attack_row *rows = NULL;
        size_t n = 0;
        if (!lib || store_engagement_attacks(db, e->id, &rows, &n) != ST_OK)
            return NULL;
        struct bw_rt_outcome *o = bw_redteam_outcomes(rows, n);
        scored = o ? bw_rt_report(lib, o, n) : NULL;
        free(o);
        free(rows);
    }
    return bw_rt_report_render(&v, scored);
}
