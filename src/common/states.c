#include "common/states.h"

#include <stdio.h>
#include <string.h>

_Static_assert(BW_JOB_STATE_CANCELLED + 1 == BW_JOB__STATES, "one name per job state");
_Static_assert(BW_RUN_CANCELLED + 1 == BW_RUN__STATUSES, "one name per run status");
_Static_assert(BW_SCAN_INCOMPLETE + 1 == BW_SCAN__STATUSES, "one name per scan status");
_Static_assert(BW_ASSESSMENT_COMPLETED + 1 == BW_ASSESSMENT__STATUSES, "one name per assessment status");

static const char *const JOB_STATES[BW_JOB__STATES] = {"queued", "running", "done", "failed", "cancelled"};
static const char *const RUN_STATUSES[BW_RUN__STATUSES] = {"queued", "running", "completed", "failed", "cancelled"};
static const char *const SCAN_STATUSES[BW_SCAN__STATUSES] = {"completed", "incomplete"};
static const char *const ASSESSMENT_STATUSES[BW_ASSESSMENT__STATUSES] = {"completed"};

static int find(const char *const *names, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

const char *bw_job_state_name(enum bw_job_state s) { return (unsigned)s < BW_JOB__STATES ? JOB_STATES[s] : NULL; }

int bw_job_state_parse(const char *name) { return find(JOB_STATES, BW_JOB__STATES, name); }

enum bw_job_state bw_job_state_stored(const char *name)
{
    int s = bw_job_state_parse(name);
    return s < 0 ? BW_JOB_STATE_FAILED : (enum bw_job_state)s;
}

const char *bw_run_status_name(enum bw_run_status s)
{
    return (unsigned)s < BW_RUN__STATUSES ? RUN_STATUSES[s] : NULL;
}

int bw_run_status_parse(const char *name) { return find(RUN_STATUSES, BW_RUN__STATUSES, name); }

enum bw_run_status bw_run_status_stored(const char *name)
{
    int s = bw_run_status_parse(name);
    return s < 0 ? BW_RUN_FAILED : (enum bw_run_status)s;
}

bool bw_run_active(enum bw_run_status s) { return s == BW_RUN_QUEUED || s == BW_RUN_RUNNING; }

void bw_run_status_list(char *out, size_t n)
{
    size_t w = 0;
    if (n == 0)
        return;
    out[0] = '\0';
    for (int i = 0; i < BW_RUN__STATUSES && w < n; i++) {
        int k = snprintf(out + w, n - w, "%s%s", i ? ", " : "", RUN_STATUSES[i]);
        if (k < 0)
            break;
        w += (size_t)k;
    }
}

const char *bw_scan_status_name(enum bw_scan_status s)
{
    return (unsigned)s < BW_SCAN__STATUSES ? SCAN_STATUSES[s] : NULL;
}

const char *bw_assessment_status_name(enum bw_assessment_status s)
{
    return (unsigned)s < BW_ASSESSMENT__STATUSES ? ASSESSMENT_STATUSES[s] : NULL;
}
