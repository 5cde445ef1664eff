/* Red-team engagements between storage and the engine's report renderer
 * (src/engine/redteam/report.h): the stored attack rows as the engine's outcomes, and the report
 * document the API answers at every status. The attacks themselves run in the job kind
 * (src/jobs/redteam_job.c). */
#ifndef BW_SERVICES_REDTEAM_H
#define BW_SERVICES_REDTEAM_H
#include "engine/redteam/redteam.h"
#include "store/store_redteam.h"

#include <jansson.h>

/* The rows as the engine's outcomes (pointers into rows, which must outlive them). malloc'ed;
 * NULL only when out of memory. */
struct bw_rt_outcome *bw_redteam_outcomes(const struct store_attack_row *rows, size_t n);

/* The engagement's report at its current status (bw_rt_report_render): the stored scored
 * document once completed, else its attack rows scored now. NULL on a storage error. */
json_t *bw_redteam_report(struct db *db, const struct store_engagement *e);

#endif
