/* The red-team engagement as a job (kind "redteam", ref = the engagement id): run the selected
 * attacks that have no result row yet, one after the other, checking the lease and a cancel
 * between attacks, then score and store the report. Also the report document the API answers at
 * every status. */
#ifndef BW_JOBS_REDTEAM_JOB_H
#define BW_JOBS_REDTEAM_JOB_H
#include "jobs/jobs.h"
#include "store/store_redteam.h"

#include <jansson.h>

extern const struct bw_job_kind bw_redteam_job_kind;

/* The per-attack timeout for a lease: BW_RT_ATTACK_TIMEOUT_MS, or a third of the lease when
 * shorter (target detection, two exchanges, must end before the lease it runs under). */
long bw_redteam_attack_timeout(int64_t lease_ms);

/* The engagement's report document at its current status (the stored one once completed):
 * {engagement_id, target_asset_id, status, intensity, attack_categories, attack_count,
 * eta_seconds, progress:{done,total}, overall_risk (null until completed), attacks_succeeded,
 * attacks_total, attacks_errored, weighted_success_rate, critical_findings, remediation_plan,
 * error, created_at, started_at, finished_at}. NULL on a storage error. */
json_t *bw_redteam_report(struct db *db, const struct store_engagement *e);

#endif
