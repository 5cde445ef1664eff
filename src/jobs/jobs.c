#include "jobs/jobs.h"

#include "common/log.h"
#include "common/rng.h"
#include "common/timeutil.h"
#include "store/store.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the registry (filled before workers start, read-only afterwards) ---- */

static const struct bw_job_kind *g_kinds[BW_JOB_KINDS_MAX];
static int g_nkinds;
static pthread_mutex_t g_kinds_mu = PTHREAD_MUTEX_INITIALIZER;

int bw_jobs_register(const struct bw_job_kind *k)
{
    int rc = -1;
    pthread_mutex_lock(&g_kinds_mu);
    bool dup = false;
    for (int i = 0; i < g_nkinds; i++)
        dup = dup || strcmp(g_kinds[i]->kind, k->kind) == 0;
    if (!dup && g_nkinds < BW_JOB_KINDS_MAX) {
        g_kinds[g_nkinds++] = k;
        rc = 0;
    }
    pthread_mutex_unlock(&g_kinds_mu);
    return rc;
}

/* The registered kind of this name (and its index in the registry), or NULL (index
 * BW_JOB_KINDS_MAX). */
static const struct bw_job_kind *kind_of(const char *name, int *index)
{
    const struct bw_job_kind *k = NULL;
    int at = BW_JOB_KINDS_MAX;
    pthread_mutex_lock(&g_kinds_mu);
    for (int i = 0; i < g_nkinds && !k; i++)
        if (strcmp(g_kinds[i]->kind, name) == 0) {
            k = g_kinds[i];
            at = i;
        }
    pthread_mutex_unlock(&g_kinds_mu);
    if (index)
        *index = at;
    return k;
}

size_t bw_jobs_kinds(const char **names, size_t cap)
{
    size_t n = 0;
    pthread_mutex_lock(&g_kinds_mu);
    for (int i = 0; i < g_nkinds && n < cap; i++)
        names[n++] = g_kinds[i]->kind;
    pthread_mutex_unlock(&g_kinds_mu);
    return n;
}

/* ---- what this process's workers finished, for /metrics ---- */

static const char *const RESULT_NAMES[BW_JOB__RESULTS] = {"done", "cancelled", "retry", "failed", "interrupted"};
/* by registry index, the last row for kinds with no handler */
static atomic_ulong g_finished[BW_JOB_KINDS_MAX + 1][BW_JOB__RESULTS];

const char *bw_job_result_name(enum bw_job_result r)
{
    return (unsigned)r < BW_JOB__RESULTS ? RESULT_NAMES[r] : "failed";
}

static void count_finished(int kind, enum bw_job_result r)
{
    if (kind < 0 || kind > BW_JOB_KINDS_MAX)
        kind = BW_JOB_KINDS_MAX;
    atomic_fetch_add_explicit(&g_finished[kind][(unsigned)r < BW_JOB__RESULTS ? r : BW_JOB_FAILED], 1,
                              memory_order_relaxed);
}

unsigned long bw_jobs_finished(size_t kind, enum bw_job_result r)
{
    if (kind > BW_JOB_KINDS_MAX || (unsigned)r >= BW_JOB__RESULTS)
        return 0;
    return atomic_load_explicit(&g_finished[kind][r], memory_order_relaxed);
}

/* ---- running one job ---- */

bool bw_job_heartbeat(struct bw_job_ctx *ctx)
{
    if (ctx->stopping && atomic_load(ctx->stopping))
        return false;
    int rc = store_job_heartbeat(ctx->db, ctx->job->id, ctx->owner, bw_now_us() / 1000, ctx->lease_ms);
    if (rc == ST_NOTFOUND)
        bw_log_json(BW_LOG_WARN, NULL, "job lease lost",
                    json_pack("{s:s,s:s,s:s}", "job_id", ctx->job->id, "kind", ctx->job->kind, "owner", ctx->owner));
    /* a database hiccup is not a lost lease: carry on, the next heartbeat will tell */
    return rc != ST_NOTFOUND;
}

static int64_t backoff_ms(int attempts)
{
    int64_t b = BW_JOB_BACKOFF_BASE_MS;
    for (int i = 1; i < attempts && b < BW_JOB_BACKOFF_MAX_MS; i++)
        b *= 2;
    return b < BW_JOB_BACKOFF_MAX_MS ? b : BW_JOB_BACKOFF_MAX_MS;
}

static void run_claimed(struct db *db, const struct store_job *j, const char *owner, const struct bw_jobs_opts *o,
                        atomic_bool *stopping)
{
    int64_t lease_ms = o->lease_ms;
    int kind = 0;
    const struct bw_job_kind *k = kind_of(j->kind, &kind);
    int64_t now = bw_now_us() / 1000;
    if (!k) {
        bw_logf(BW_LOG_ERROR, NULL, "job %s: no handler for kind '%s'", j->id, j->kind);
        (void)store_job_finish(db, j->id, owner, BW_JOB_STATE_FAILED, "no handler for this kind", now);
        count_finished(kind, BW_JOB_FAILED);
        return;
    }
    struct bw_job_ctx ctx = {.db = db, .job = j, .owner = owner, .lease_ms = lease_ms,
                             .egress_allow = o->egress_allow, .seal = o->seal, .intel_sync = o->intel_sync,
                             .stopping = stopping,
                             .webhook_backoff_scale = o->webhook_backoff_scale > 0 ? o->webhook_backoff_scale
                                                                                   : BW_WEBHOOK_BACKOFF_SCALE};
    int64_t t0 = bw_mono_us();
    bw_log_json(BW_LOG_INFO, NULL, "job started",
                json_pack("{s:s,s:s,s:s,s:i}", "job_id", j->id, "kind", j->kind, "ref", j->ref, "attempt",
                          j->attempts));
    enum bw_job_result res = k->run(&ctx);
    now = bw_now_us() / 1000;
    bool failed = false;
    switch (res) {
    case BW_JOB_DONE:
        (void)store_job_finish(db, j->id, owner, BW_JOB_STATE_DONE, NULL, now);
        break;
    case BW_JOB_CANCELLED:
        (void)store_job_finish(db, j->id, owner, BW_JOB_STATE_CANCELLED, NULL, now);
        break;
    case BW_JOB_RETRY:
        (void)store_job_retry(db, j->id, owner, ctx.error, now, ctx.retry_ms > 0 ? ctx.retry_ms : backoff_ms(j->attempts),
                              &failed);
        break;
    case BW_JOB_FAILED:
        failed = store_job_finish(db, j->id, owner, BW_JOB_STATE_FAILED, ctx.error, now) == ST_OK;
        break;
    case BW_JOB_INTERRUPTED:
        (void)store_job_release(db, j->id, owner, now);
        break;
    }
    if (failed && k->failed)
        k->failed(db, j, ctx.error[0] ? ctx.error : "the job failed");
    count_finished(kind, failed ? BW_JOB_FAILED : res); /* a retry with no attempts left failed */
    bw_log_json(res == BW_JOB_DONE || res == BW_JOB_CANCELLED || res == BW_JOB_INTERRUPTED ? BW_LOG_INFO : BW_LOG_WARN,
                NULL, "job ended",
                json_pack("{s:s,s:s,s:s,s:s,s:I,s:s?}", "job_id", j->id, "kind", j->kind, "ref", j->ref, "result",
                          bw_job_result_name(res), "ms", (json_int_t)((bw_mono_us() - t0) / 1000), "error",
                          ctx.error[0] ? ctx.error : NULL));
}

int bw_jobs_run_one_opts(struct db *db, const char *owner, int64_t now_ms, const struct bw_jobs_opts *o,
                         atomic_bool *stopping)
{
    struct store_job j;
    int rc = store_job_claim(db, owner, now_ms, o->lease_ms, &j);
    if (rc != ST_OK)
        return rc;
    run_claimed(db, &j, owner, o, stopping);
    return ST_OK;
}

int bw_jobs_run_one(struct db *db, const char *owner, int64_t now_ms, int64_t lease_ms, unsigned egress_allow,
                    const struct bw_seal *seal, atomic_bool *stopping)
{
    struct bw_jobs_opts o = {.lease_ms = lease_ms, .egress_allow = egress_allow, .seal = seal};
    return bw_jobs_run_one_opts(db, owner, now_ms, &o, stopping);
}

int64_t bw_jobs_tick(struct db *db, int64_t now_ms, const struct bw_jobs_opts *o)
{
    const struct bw_job_kind *ks[BW_JOB_KINDS_MAX];
    int n = 0;
    pthread_mutex_lock(&g_kinds_mu);
    for (int i = 0; i < g_nkinds; i++)
        if (g_kinds[i]->tick)
            ks[n++] = g_kinds[i];
    pthread_mutex_unlock(&g_kinds_mu);
    int64_t next = INT64_MAX;
    for (int i = 0; i < n; i++) {
        int64_t t = ks[i]->tick(db, now_ms, o);
        next = t < next ? t : next;
    }
    return next;
}

void bw_jobs_reap(struct db *db, int64_t now_ms)
{
    struct store_job dead[BW_JOB_REAP_BATCH];
    size_t n = 0;
    /* a batch at a time until one comes back short: the store fails only the jobs it returns, so
     * every failure hook runs. Each batch fails its jobs for good, so the loop ends. */
    do {
        if (store_job_reap(db, now_ms, dead, BW_JOB_REAP_BATCH, &n) != ST_OK)
            return;
        for (size_t i = 0; i < n; i++) {
            int kind = 0;
            const struct bw_job_kind *k = kind_of(dead[i].kind, &kind);
            count_finished(kind, BW_JOB_FAILED);
            bw_log_json(BW_LOG_WARN, NULL, "job failed: attempts exhausted",
                        json_pack("{s:s,s:s,s:i}", "job_id", dead[i].id, "kind", dead[i].kind, "attempts",
                                  dead[i].attempts));
            if (k && k->failed)
                k->failed(db, &dead[i], "the worker running it stopped answering and no attempts are left");
        }
    } while (n == BW_JOB_REAP_BATCH);
}

/* ---- the pool ---- */

struct worker {
    struct bw_jobs *pool;
    pthread_t th;
    char owner[BW_JOB_OWNER_MAX];
    int index;
    bool started;
};

struct bw_jobs {
    struct db *db;
    struct bw_jobs_opts o;
    atomic_bool stopping;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct worker *w;
    int n;
};

/* Sleeps up to ms, woken early by bw_jobs_stop. */
static void idle(struct bw_jobs *p, int64_t ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += (time_t)(ms / 1000);
    ts.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&p->mu);
    if (!atomic_load(&p->stopping))
        pthread_cond_timedwait(&p->cv, &p->mu, &ts);
    pthread_mutex_unlock(&p->mu);
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct bw_jobs *p = w->pool;
    int64_t next_reap = 0, next_tick = 0;
    while (!atomic_load(&p->stopping)) {
        int64_t now = bw_now_us() / 1000;
        if (w->index == 0 && now >= next_reap) { /* one reaper per process is plenty */
            bw_jobs_reap(p->db, now);
            next_reap = now + p->o.lease_ms;
        }
        if (w->index == 0 && now >= next_tick) /* and one scheduler */
            next_tick = bw_jobs_tick(p->db, now, &p->o);
        int rc = bw_jobs_run_one_opts(p->db, w->owner, now, &p->o, &p->stopping);
        if (rc != ST_OK) /* nothing to do, or the database is away: wait a poll interval */
            idle(p, p->o.poll_ms);
    }
    return NULL;
}

struct bw_jobs *bw_jobs_start(struct db *db, const struct bw_jobs_opts *o)
{
    if (o->workers <= 0)
        return NULL;
    bw_jobs_register_all();
    struct bw_jobs *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->db = db;
    p->o = *o;
    if (p->o.lease_ms <= 0)
        p->o.lease_ms = BW_JOB_LEASE_MS_DEFAULT;
    if (p->o.poll_ms <= 0)
        p->o.poll_ms = BW_JOB_POLL_MS_DEFAULT;
    atomic_init(&p->stopping, false);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->w = calloc((size_t)o->workers, sizeof *p->w);
    if (!p->w) {
        bw_jobs_stop(p);
        return NULL;
    }
    /* owner: this process (random, so a restarted process never mistakes an old lease for its
     * own) and the worker's number */
    char inst[13];
    bw_random_base62(inst, 12);
    for (int i = 0; i < o->workers; i++) {
        struct worker *w = &p->w[i];
        w->pool = p;
        w->index = i;
        snprintf(w->owner, sizeof w->owner, "wrk_%s_%ld_%d", inst, (long)getpid(), i);
        if (pthread_create(&w->th, NULL, worker_main, w) != 0) {
            bw_logf(BW_LOG_ERROR, NULL, "cannot start job worker %d", i);
            bw_jobs_stop(p);
            return NULL;
        }
        w->started = true;
        p->n = i + 1;
    }
    bw_log_json(BW_LOG_INFO, NULL, "job workers started",
                json_pack("{s:i,s:I,s:I}", "workers", o->workers, "lease_ms", (json_int_t)p->o.lease_ms, "poll_ms",
                          (json_int_t)p->o.poll_ms));
    return p;
}

void bw_jobs_stop(struct bw_jobs *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->stopping, true);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n; i++)
        if (p->w[i].started)
            pthread_join(p->w[i].th, NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->w);
    free(p);
}
