/* The registry of job kinds this build runs: one line per kind, kept apart from any one kind's
 * code so that adding a kind touches its own files and this list only. */
#include "jobs/jobs.h"
#include "jobs/redteam_job.h"
#include "jobs/orch_job.h"
#include "jobs/intel_sync_job.h"
#include "jobs/webhook_job.h"

void bw_jobs_register_all(void)
{
    /* registering twice fails harmlessly (the kind exists): idempotent */
    (void)bw_jobs_register(&bw_redteam_job_kind);
    (void)bw_jobs_register(&bw_orch_job_kind);
    (void)bw_jobs_register(&bw_intel_sync_job_kind);
    (void)bw_jobs_register(&bw_webhook_job_kind);
}
