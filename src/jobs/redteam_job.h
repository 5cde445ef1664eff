/* The red-team engagement as a job (kind "redteam", ref = the engagement id): run the selected
 * attacks that have no result row yet, one after the other, checking the lease and a cancel
 * between attacks, then score and store the report (rendered by src/engine/redteam/report.c). */
#ifndef BW_JOBS_REDTEAM_JOB_H
#define BW_JOBS_REDTEAM_JOB_H
#include "jobs/jobs.h"

#include <stdint.h>

extern const struct bw_job_kind bw_redteam_job_kind;

/* The per-attack timeout for a lease: BW_RT_ATTACK_TIMEOUT_MS, or a third of the lease when
 * shorter (target detection, two exchanges, must end before the lease it runs under). */
long bw_redteam_attack_timeout(int64_t lease_ms);

/* bw_jobs_opts.rt_turns_retention_ms of BULWARK_RT_TURNS_RETENTION_DAYS (0 days: at once). */
int64_t bw_rt_turns_retention_ms(long days);

#endif
