/* The worker pool over the durable job queue (src/store/store_jobs.h), inside `bulwark serve`
 * (BULWARK_WORKERS threads) or as `bulwark worker`.
 *
 * Work is dispatched by kind through a registry: each kind has a handler that runs one claimed
 * job and says how it ended, and a hook run when a job of that kind fails for good (attempts
 * exhausted, or its worker died on the last one). Handlers must be resumable: a job whose worker
 * dies is claimed again once its lease expires, and runs from the start with whatever the
 * previous attempt stored (the red team stores one row per attack and skips those).
 *
 * A handler calls bw_job_heartbeat between steps: it extends the lease and tells the handler to
 * stop when the lease was lost (another worker reclaimed the job) or the process is stopping. A
 * step must end well within the lease (the red team bounds an exchange by a third of it).
 *
 * Ownership: registered kinds are static data; the pool owns its threads until bw_jobs_stop. */
#ifndef BW_JOBS_JOBS_H
#define BW_JOBS_JOBS_H
#include "common/limits.h"
#include "store/db.h"
#include "store/store_jobs.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BW_JOB_LEASE_MS_DEFAULT BW_JOB_LEASE_MS
#define BW_JOB_POLL_MS_DEFAULT BW_JOB_POLL_MS

enum bw_job_result {
    BW_JOB_DONE,        /* finished (its subject may record a domain failure of its own) */
    BW_JOB_CANCELLED,   /* its subject was cancelled */
    BW_JOB_RETRY,       /* a transient failure: again after a backoff while attempts are left */
    BW_JOB_FAILED,      /* a permanent failure: no retry */
    BW_JOB_INTERRUPTED, /* stopped at a heartbeat (shutdown or lease lost): not an attempt */
};
#define BW_JOB__RESULTS 5
/* "done", "cancelled", "retry", "failed", "interrupted". */
const char *bw_job_result_name(enum bw_job_result r);

struct bw_seal;
struct bw_sync_opts;
struct bw_jobs_opts;

struct bw_job_ctx {
    struct db *db;
    const struct store_job *job;
    const char *owner;
    int64_t lease_ms;
    unsigned egress_allow; /* BW_EGRESS_ALLOW_* for handlers that reach out */
    const struct bw_seal *seal; /* opens the secrets sealed at rest (an asset's credentials); may be NULL */
    const struct bw_sync_opts *intel_sync; /* the intel sources (scheduled sync); may be NULL */
    atomic_bool *stopping;
    long webhook_backoff_scale; /* per mille of the webhook retry schedule (src/engine/webhook.h) */
    char error[256]; /* the handler's reason for RETRY or FAILED */
    int64_t retry_ms; /* for RETRY: the wait before the next attempt; 0 = the queue's own backoff */
};

struct bw_job_kind {
    const char *kind;
    enum bw_job_result (*run)(struct bw_job_ctx *ctx);
    /* after the final failure; error is the job's last error */
    void (*failed)(struct db *db, const struct store_job *job, const char *error);
    /* optional, for kinds the pool enqueues itself on a schedule: called by one worker of each
     * process when due (first at start); enqueues what is due and returns when to be called
     * next (epoch ms). Instances sharing a database must enqueue each due job once. */
    int64_t (*tick)(struct db *db, int64_t now_ms, const struct bw_jobs_opts *o);
};

/* Adds a kind (static data) to the registry; -1 when full or the kind exists. Call before
 * bw_jobs_start. */
int bw_jobs_register(const struct bw_job_kind *k);
/* Registers every kind this build knows (the red team, ...). Idempotent. */
void bw_jobs_register_all(void);
/* The registered kinds' names in registry order (up to cap); how many. */
size_t bw_jobs_kinds(const char **names, size_t cap);

/* Jobs this process's workers ended, for /metrics: by registry index (BW_JOB_KINDS_MAX: kinds
 * with no handler) and result, where a RETRY that had no attempts left counts as FAILED and so do
 * jobs the reaper failed. Counted per process: `bulwark worker` processes keep their own. */
unsigned long bw_jobs_finished(size_t kind, enum bw_job_result r);

/* Extends the lease; false: stop now (lease lost, or the process is stopping). */
bool bw_job_heartbeat(struct bw_job_ctx *ctx);

struct bw_jobs_opts {
    int workers;          /* threads; 0 = none (the pool is not started) */
    int64_t lease_ms;     /* 0 = BW_JOB_LEASE_MS_DEFAULT */
    int64_t poll_ms;      /* idle wait between claims; 0 = BW_JOB_POLL_MS_DEFAULT */
    unsigned egress_allow;
    const struct bw_seal *seal; /* borrowed for the pool's life; may be NULL (nothing sealed is opened) */
    const struct bw_sync_opts *intel_sync; /* borrowed likewise: the intel sources; NULL: none */
    int64_t intel_sync_interval_ms;       /* the scheduled intel sync (BULWARK_INTEL_SYNC_INTERVAL); 0: off */
    long webhook_backoff_scale; /* BULWARK_WEBHOOK_BACKOFF_SCALE; 0 = BW_WEBHOOK_BACKOFF_SCALE */
    /* BULWARK_RT_TURNS_RETENTION_DAYS in ms: an ended engagement's stored requests are deleted this
     * long after its end; 0 = BW_RT_TURNS_RETENTION_DAYS, negative = at once */
    int64_t rt_turns_retention_ms;
};
struct bw_jobs;
/* Starts the workers. NULL when workers is 0 or on failure (logged). */
struct bw_jobs *bw_jobs_start(struct db *db, const struct bw_jobs_opts *o);
/* Asks the workers to stop (running jobs stop at their next heartbeat and go back to the queue),
 * joins them and frees the pool. NULL is fine. */
void bw_jobs_stop(struct bw_jobs *p);

/* One claim-and-run step, for tests: claims a job as owner and runs it. ST_NOTFOUND when nothing
 * was claimable. */
int bw_jobs_run_one(struct db *db, const char *owner, int64_t now_ms, int64_t lease_ms, unsigned egress_allow,
                    const struct bw_seal *seal, atomic_bool *stopping);
/* The same with the pool's options (lease_ms, egress_allow, seal, intel_sync, webhook_backoff_scale). */
int bw_jobs_run_one_opts(struct db *db, const char *owner, int64_t now_ms, const struct bw_jobs_opts *o,
                         atomic_bool *stopping);
/* Calls the tick of every registered kind that has one, for tests; returns the earliest next. */
int64_t bw_jobs_tick(struct db *db, int64_t now_ms, const struct bw_jobs_opts *o);
/* Fails every expired job that has no attempts left, BW_JOB_REAP_BATCH at a time until none is
 * left, and runs each one's failure hook. */
void bw_jobs_reap(struct db *db, int64_t now_ms);

#endif
