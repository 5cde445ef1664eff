#include "jobs/orch_job.h"

#include "common/errors.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "services/orch.h"
#include "services/webhooks.h"
#include "store/store.h"
#include "store/store_orch.h"

#include <stdio.h>
#include <string.h>

struct progress {
    struct bw_job_ctx *ctx;
    const char *job_id;
};

/* Before each phase: keep the lease, and publish how far the run got. */
static bool on_phase(void *arg, int index)
{
    struct progress *p = arg;
    if (!bw_job_heartbeat(p->ctx))
        return false;
    (void)store_orch_run_progress(p->ctx->db, p->job_id, index, index - 1);
    return true;
}

static void now_iso(char out[21]) { bw_iso8601(bw_now_s(), out); }

/* orchestrator.run.completed for the webhooks of the account that asked for the run. */
static void ended(struct db *db, const struct store_orch_run *run, const char *status, const char *error,
                  const char *finished_at)
{
    json_t *data = json_pack("{s:s,s:s,s:s,s:s?,s:s}", "job_id", run->job_id, "scope", run->scope_key, "status",
                             status, "error", error, "finished_at", finished_at);
    if (data)
        (void)bw_webhooks_emit(db, run->requested_by, BW_WH_ORCH_RUN_COMPLETED, data);
    json_decref(data);
}

static enum bw_job_result orch_run(struct bw_job_ctx *ctx)
{
    const char *id = ctx->job->ref;
    struct store_orch_run run;
    int rc = store_orch_run_get(ctx->db, id, &run);
    if (rc == ST_NOTFOUND)
        return BW_JOB_DONE; /* nothing to do: the run row is gone */
    if (rc != ST_OK) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        return BW_JOB_RETRY;
    }
    if (!bw_run_active(run.status))
        return BW_JOB_DONE;
    char ts[21];
    now_iso(ts);
    if (store_orch_run_start(ctx->db, id, ts) == ST_ERROR) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        return BW_JOB_RETRY;
    }
    struct bw_orch_scope scope;
    rc = bw_orch_scope_from_key(ctx->db, run.scope_key, &scope);
    if (rc == ST_NOTFOUND) {
        now_iso(ts);
        (void)store_orch_run_finish(ctx->db, id, BW_RUN_FAILED, "the account of this run no longer exists", ts);
        return BW_JOB_DONE;
    }
    if (rc != ST_OK) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        return BW_JOB_RETRY;
    }
    struct progress pr = {ctx, id};
    struct bw_orch_opts o = {.max_items = run.max_items, .now_s = bw_now_s(), .job_id = id, .phase = on_phase,
                             .arg = &pr};
    struct bw_orch_packs packs;
    char why[256] = "";
    rc = bw_orch_compute(ctx->db, &scope, &o, &packs, why, sizeof why);
    bw_orch_scope_free(&scope);
    if (rc == 1)
        return BW_JOB_INTERRUPTED;
    if (rc != 0) {
        snprintf(ctx->error, sizeof ctx->error, "%s", why[0] ? why : "the pipeline failed");
        return BW_JOB_RETRY;
    }
    bw_orch_packs_free(&packs);
    (void)store_orch_run_progress(ctx->db, id, BW_ORCH_PHASES, BW_ORCH_PHASES);
    now_iso(ts);
    if (store_orch_run_finish(ctx->db, id, BW_RUN_COMPLETED, NULL, ts) == ST_ERROR) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        return BW_JOB_RETRY;
    }
    bw_logf(BW_LOG_INFO, NULL, "orchestrator run %s completed (%s, max_items %ld)", id, run.scope_key, run.max_items);
    ended(ctx->db, &run, "completed", NULL, ts);
    return BW_JOB_DONE;
}

static void orch_failed(struct db *db, const struct store_job *job, const char *error)
{
    char ts[21];
    now_iso(ts);
    const char *why = error && *error ? error : "the run failed";
    struct store_orch_run run;
    if (store_orch_run_finish(db, job->ref, BW_RUN_FAILED, why, ts) == ST_OK &&
        store_orch_run_get(db, job->ref, &run) == ST_OK)
        ended(db, &run, "failed", why, ts);
}

const struct bw_job_kind bw_orch_job_kind = {.kind = "orchestrator", .run = orch_run, .failed = orch_failed};
