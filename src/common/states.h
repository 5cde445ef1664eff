/* The states of queued work, one name table each: a job of the durable queue (jobs.state,
 * src/store/store_jobs.h) and the run it works on, a red-team engagement (engagements.status) or
 * an orchestrator run (orch_runs.status). The names are what the database stores and what the API
 * shows; C code compares and sets the enums. Here, below every layer, because the store reads the
 * columns and the jobs, services and API layers act on them.
 *
 * SQL statements keep the names as literals; the store tests read them back through these tables. */
#ifndef BW_COMMON_STATES_H
#define BW_COMMON_STATES_H
#include <stdbool.h>

/* queued -> running -> done | failed | cancelled; running -> queued again on a retry */
enum bw_job_state {
    BW_JOB_STATE_QUEUED,
    BW_JOB_STATE_RUNNING,
    BW_JOB_STATE_DONE,
    BW_JOB_STATE_FAILED,
    BW_JOB_STATE_CANCELLED,
};
#define BW_JOB__STATES 5

/* queued -> running -> completed | failed | cancelled (orchestrator runs are never cancelled) */
enum bw_run_status { BW_RUN_QUEUED, BW_RUN_RUNNING, BW_RUN_COMPLETED, BW_RUN_FAILED, BW_RUN_CANCELLED };
#define BW_RUN__STATUSES 5

/* "queued", "running", "done", "failed", "cancelled"; NULL for a value outside the enum. */
const char *bw_job_state_name(enum bw_job_state s);
/* The state a name stands for; -1 when the name is unknown (or NULL). */
int bw_job_state_parse(const char *name);

/* The state of a name read from the database. Only this server writes those columns, so a name it
 * does not know (a newer version's) reads as failed: final, so no worker resumes what it cannot
 * follow. */
enum bw_job_state bw_job_state_stored(const char *name);

/* "queued", "running", "completed", "failed", "cancelled"; NULL for a value outside the enum. */
const char *bw_run_status_name(enum bw_run_status s);
/* The status a name stands for; -1 when the name is unknown (or NULL). */
int bw_run_status_parse(const char *name);
/* As bw_job_state_stored, for a run's status. */
enum bw_run_status bw_run_status_stored(const char *name);
/* Queued or running: not final yet. */
bool bw_run_active(enum bw_run_status s);

#endif
