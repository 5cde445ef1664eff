/* The states of queued work, one name table each: a job of the durable queue (jobs.state,
 * src/store/store_jobs.h) and the run it works on, a red-team engagement (engagements.status) or
 * an orchestrator run (orch_runs.status); and the status of what is done at once: a live asset
 * scan (asset_scans.status) and a governance assessment. The names are what the database stores and what the API
 * shows; C code compares and sets the enums. Here, below every layer, because the store reads the
 * columns and the jobs, services and API layers act on them.
 *
 * SQL statements keep the names as literals; the store tests read them back through these tables. */
#ifndef BW_COMMON_STATES_H
#define BW_COMMON_STATES_H
#include <stdbool.h>
#include <stddef.h>

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

/* a live asset scan: completed, or incomplete when part of it could not be assessed */
enum bw_scan_status { BW_SCAN_COMPLETED, BW_SCAN_INCOMPLETE };
#define BW_SCAN__STATUSES 2

/* a governance assessment is computed in the request, so it is always completed */
enum bw_assessment_status { BW_ASSESSMENT_COMPLETED };
#define BW_ASSESSMENT__STATUSES 1

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
/* The run statuses as a list for a message: "queued, running, completed, failed, cancelled"
 * (cut to fit n bytes, always terminated). */
void bw_run_status_list(char *out, size_t n);

/* "completed", "incomplete"; NULL for a value outside the enum. */
const char *bw_scan_status_name(enum bw_scan_status s);
/* "completed"; NULL for a value outside the enum. */
const char *bw_assessment_status_name(enum bw_assessment_status s);

#endif
