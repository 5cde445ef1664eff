/* The durable job queue's table (migration 0006): enqueue, claim with a lease, heartbeat, finish,
 * retry with backoff, reap what ran out of attempts. The worker pool over it is src/jobs/jobs.h.
 *
 * States: queued -> running -> done | failed | cancelled; running -> queued again on a retry.
 * A job is claimable when it is queued and its run_after has passed, or when it is running and
 * its lease expired (the worker died) with attempts left. Every claim counts an attempt, so a job
 * that kills its worker every time ends failed instead of looping.
 *
 * Claiming is atomic on both backends: PostgreSQL selects the candidate with FOR UPDATE SKIP
 * LOCKED and updates it in one transaction (concurrent claimers skip each other's rows instead of
 * waiting); SQLite runs one UPDATE ... WHERE id = (SELECT ...) RETURNING under its database-wide
 * write lock. Times are epoch milliseconds passed in by the caller (tests move the clock).
 *
 * Every write that ends or extends a claim names the lease owner, so a worker that lost its lease
 * (it was too slow and another one reclaimed the job) changes nothing. */
#ifndef BW_STORE_STORE_JOBS_H
#define BW_STORE_STORE_JOBS_H
#include "common/ids.h"
#include "common/limits.h"
#include "common/states.h"
#include "store/db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store_job {
    char id[BW_ID_MAX];
    char kind[BW_JOB_KIND_MAX];
    char ref[BW_ID_MAX];
    enum bw_job_state state;
    int attempts, max_attempts;
    int64_t lease_until, run_after;
    char lease_owner[BW_JOB_OWNER_MAX];
    char last_error[256];
};

/* Inserts a queued job on an open connection, so the caller can enqueue in the same transaction
 * as the row the job works on. */
int store_job_enqueue_conn(struct db_conn *c, const char *id, const char *kind, const char *ref,
                           int max_attempts, int64_t now_ms);
/* Enqueues a job under an id its caller derives (a schedule's slot) unless a job of that id exists,
 * whatever its state: every instance that reaches the slot may call it and one job results.
 * *created: this call made it. */
int store_job_enqueue_once(struct db *db, const char *id, const char *kind, const char *ref, int max_attempts,
                           int64_t now_ms, bool *created);
/* Deletes the ended (done, failed, cancelled) jobs of kind but the keep newest. */
int store_job_prune_kind(struct db *db, const char *kind, int keep);
/* Claims the oldest claimable job for owner until now_ms + lease_ms. ST_NOTFOUND: none. */
int store_job_claim(struct db *db, const char *owner, int64_t now_ms, int64_t lease_ms, struct store_job *out);
/* Extends owner's lease on a running job. ST_NOTFOUND: the lease is no longer ours (or the job
 * ended, e.g. cancelled): stop working on it. */
int store_job_heartbeat(struct db *db, const char *id, const char *owner, int64_t now_ms, int64_t lease_ms);
/* Ends owner's claim: state done, failed or cancelled (error may be NULL). ST_NOTFOUND when the
 * lease was lost meanwhile. */
int store_job_finish(struct db *db, const char *id, const char *owner, enum bw_job_state state, const char *error,
                     int64_t now_ms);
/* A failed attempt: back to queued after backoff_ms, or failed when no attempts are left (*failed
 * tells which; the caller then runs the kind's failure hook). */
int store_job_retry(struct db *db, const char *id, const char *owner, const char *error, int64_t now_ms,
                    int64_t backoff_ms, bool *failed);
/* Gives owner's running job back to the queue without counting the attempt (a clean shutdown
 * stopped it between steps). */
int store_job_release(struct db *db, const char *id, const char *owner, int64_t now_ms);
/* Marks at most cap running jobs whose lease expired with no attempts left as failed (the oldest
 * first) and returns every one of them in out, *n of them; their failure hooks are the caller's to
 * run. *n == cap: more may be left, call again. */
int store_job_reap(struct db *db, int64_t now_ms, struct store_job *out, size_t cap, size_t *n);
/* Cancels the queued jobs working on ref (a running one is stopped by its handler, which sees its
 * subject cancelled). On an open connection, inside the caller's transaction. */
int store_job_cancel_ref_conn(struct db_conn *c, const char *ref, int64_t now_ms);
int store_job_get(struct db *db, const char *id, struct store_job *out);

/* The queue at a glance, for /metrics: per kind, the jobs queued and running and the creation
 * time of the oldest queued one (0 when none is queued). One grouped query over the claim index;
 * up to cap kinds go to out, *n says how many. */
struct store_job_queue {
    char kind[BW_JOB_KIND_MAX];
    int64_t queued, running;
    int64_t oldest_queued_ms; /* created_ms */
};
int store_job_queue_stats(struct db *db, struct store_job_queue *out, size_t cap, size_t *n);

#endif
