/* The orchestrator run as a job of kind "orchestrator" on the durable queue (src/jobs): the job's
 * ref is the run (orch_runs.job_id, the same id). */
#ifndef BW_JOBS_ORCH_JOB_H
#define BW_JOBS_ORCH_JOB_H
#include "jobs/jobs.h"

extern const struct bw_job_kind bw_orch_job_kind;

#endif
