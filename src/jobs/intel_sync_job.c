#include "jobs/intel_sync_job.h"

#include "common/limits.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "services/intel_sync.h"
#include "store/store.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define KIND "intel_sync"

void bw_intel_sync_slot(int64_t now_ms, int64_t interval_ms, char out[BW_ID_MAX], int64_t *start)
{
    *start = now_ms - now_ms % interval_ms;
    snprintf(out, BW_ID_MAX, "job_intelsync_%" PRId64, *start / 1000);
}

long bw_intel_sync_timeout(int64_t lease_ms)
{
    return lease_ms / 3 < BW_INTEL_SYNC_TIMEOUT_MS ? (long)(lease_ms / 3) : BW_INTEL_SYNC_TIMEOUT_MS;
}

static bool keep_lease(void *arg) { return bw_job_heartbeat(arg); }

static enum bw_job_result sync_run(struct bw_job_ctx *ctx)
{
    if (!ctx->intel_sync) { /* a worker started without sources cannot do it; another may */
        snprintf(ctx->error, sizeof ctx->error, "this worker has no intel sources configured");
        return BW_JOB_RETRY;
    }
    struct bw_sync_opts so = *ctx->intel_sync;
    so.only = NULL;
    so.egress_allow = ctx->egress_allow;
    so.timeout_ms = bw_intel_sync_timeout(ctx->lease_ms);
    so.before_source = keep_lease;
    so.arg = ctx;
    struct bw_sync_outcome out[BW_SYNC_SOURCES];
    int rc = bw_intel_sync(ctx->db, &so, bw_now_us(), out);
    if (rc == -2)
        return BW_JOB_INTERRUPTED;
    json_t *list = json_array();
    for (int i = 0; i < BW_SYNC_SOURCES; i++) {
        const struct bw_sync_outcome *o = &out[i];
        json_array_append_new(list, json_pack("{s:s,s:s,s:I,s:I,s:I,s:I,s:s?}", "source", o->source, "status", bw_sync_status_name(o->status),
                                              "http_status", (json_int_t)o->http_status, "added", (json_int_t)o->added,
                                              "updated", (json_int_t)o->updated, "unknown", (json_int_t)o->unknown,
                                              "error", o->error[0] ? o->error : NULL));
    }
    bw_log_json(rc == 0 ? BW_LOG_INFO : BW_LOG_WARN, NULL, "intel sync",
                json_pack("{s:s,s:o}", "job_id", ctx->job->id, "sources", list));
    return BW_JOB_DONE;
}

/* Enqueues the slot's job when the slot is new; next: the next slot's start. */
static int64_t sync_tick(struct db *db, int64_t now_ms, const struct bw_jobs_opts *o)
{
    int64_t iv = o->intel_sync_interval_ms;
    if (iv <= 0 || !o->intel_sync)
        return INT64_MAX;
    char id[BW_ID_MAX];
    int64_t start = 0;
    bw_intel_sync_slot(now_ms, iv, id, &start);
    bool created = false;
    if (store_job_enqueue_once(db, id, KIND, "intel", BW_INTEL_SYNC_JOB_ATTEMPTS, now_ms, &created) != ST_OK)
        return now_ms + (o->poll_ms > 0 ? o->poll_ms : BW_JOB_POLL_MS); /* the database is away: soon again */
    if (created) {
        bw_log_json(BW_LOG_INFO, NULL, "intel sync scheduled", json_pack("{s:s,s:I}", "job_id", id, "interval_s",
                                                                         (json_int_t)(iv / 1000)));
        (void)store_job_prune_kind(db, KIND, BW_INTEL_SYNC_JOBS_KEPT);
    }
    return start + iv;
}

const struct bw_job_kind bw_intel_sync_job_kind = {.kind = KIND, .run = sync_run, .tick = sync_tick};
