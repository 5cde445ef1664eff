/* The durable job queue (src/store/store_jobs.c, src/jobs/jobs.c) on SQLite and, when
 * BULWARK_TEST_PG_HOST/BULWARK_TEST_PG_PORT name a PostgreSQL cluster, on a fresh database there:
 * claim order, leases that expire and are reclaimed, heartbeats and finishes that a lost lease
 * cannot make, retries with backoff until the attempts run out, reaping (every reaped job's failure
 * hook runs, however many expired at once), release on shutdown, the handler registry, and
 * concurrent claimers that never share a job. The clock is passed in. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/ids.h"
#include "common/log.h"
#include "common/rng.h"
#include "common/timeutil.h"
#include "jobs/jobs.h"
#include "store/db.h"
#include "store/store.h"
#include "db_fixture.h"
#include "store/store_jobs.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct db_fixture g_fx;

static const int64_t T0 = 1700000000000; /* ms */
static const int64_t LEASE = 1000;

static void enqueue(struct db *db, char id[BW_ID_MAX], const char *kind, int max_attempts, int64_t now)
{
    bw_id_new("job_", id);
    struct db_conn *c = db_acquire(db);
    assert_non_null(c);
    assert_int_equal(store_job_enqueue_conn(c, id, kind, "ref_x", max_attempts, now), ST_OK);
    db_release(c);
}

static void clear_jobs(struct db *db)
{
    struct db_conn *c = db_acquire(db);
    assert_int_equal(db_exec(c, "DELETE FROM jobs", NULL, 0, NULL), DB_OK);
    db_release(c);
}

static void test_claim_lease_retry(void **state)
{
    struct db_fixture *fx = *state;
    clear_jobs(fx->db);
    char j1[BW_ID_MAX], j2[BW_ID_MAX];
    enqueue(fx->db, j1, "unit", 3, T0);
    enqueue(fx->db, j2, "unit", 3, T0 + 1);
    struct store_job a, b, c;

    /* oldest first; one job per claim; nothing left for a third claimer */
    assert_int_equal(store_job_claim(fx->db, "A", T0 + 10, LEASE, &a), ST_OK);
    assert_string_equal(a.id, j1);
    assert_int_equal(a.state, BW_JOB_STATE_RUNNING);
    assert_string_equal(a.lease_owner, "A");
    assert_int_equal(a.attempts, 1);
    assert_int_equal(a.lease_until, T0 + 10 + LEASE);
    assert_int_equal(store_job_claim(fx->db, "B", T0 + 10, LEASE, &b), ST_OK);
    assert_string_equal(b.id, j2);
    assert_int_equal(store_job_claim(fx->db, "C", T0 + 10, LEASE, &c), ST_NOTFOUND);

    /* a heartbeat is the owner's only, and moves the lease */
    assert_int_equal(store_job_heartbeat(fx->db, j1, "B", T0 + 500, LEASE), ST_NOTFOUND);
    assert_int_equal(store_job_heartbeat(fx->db, j1, "A", T0 + 500, LEASE), ST_OK);
    assert_int_equal(store_job_heartbeat(fx->db, j2, "B", T0 + 900, LEASE), ST_OK);
    assert_int_equal(store_job_claim(fx->db, "C", T0 + 1200, LEASE, &c), ST_NOTFOUND); /* j1 alive until 1500 */

    /* A stops heart-beating (it died): after the lease, C reclaims j1 and A can change nothing */
    assert_int_equal(store_job_claim(fx->db, "C", T0 + 1600, LEASE, &c), ST_OK);
    assert_string_equal(c.id, j1);
    assert_int_equal(c.attempts, 2);
    assert_int_equal(store_job_heartbeat(fx->db, j1, "A", T0 + 1601, LEASE), ST_NOTFOUND);
    assert_int_equal(store_job_finish(fx->db, j1, "A", BW_JOB_STATE_DONE, NULL, T0 + 1601), ST_NOTFOUND);

    /* B finishes j2 */
    assert_int_equal(store_job_finish(fx->db, j2, "B", BW_JOB_STATE_DONE, NULL, T0 + 1700), ST_OK);
    assert_int_equal(store_job_get(fx->db, j2, &b), ST_OK);
    assert_int_equal(b.state, BW_JOB_STATE_DONE);

    /* C's attempt fails: back to the queue after the backoff, then claimed again (attempt 3) */
    bool failed = true;
    assert_int_equal(store_job_retry(fx->db, j1, "C", "flaky", T0 + 1700, 1000, &failed), ST_OK);
    assert_false(failed);
    assert_int_equal(store_job_get(fx->db, j1, &c), ST_OK);
    assert_int_equal(c.state, BW_JOB_STATE_QUEUED);
    assert_string_equal(c.last_error, "flaky");
    assert_int_equal(store_job_claim(fx->db, "D", T0 + 2000, LEASE, &c), ST_NOTFOUND);
    assert_int_equal(store_job_claim(fx->db, "D", T0 + 2700, LEASE, &c), ST_OK);
    assert_int_equal(c.attempts, 3);

    /* the last attempt fails too: failed for good */
    assert_int_equal(store_job_retry(fx->db, j1, "D", "flaky again", T0 + 2800, 1000, &failed), ST_OK);
    assert_true(failed);
    assert_int_equal(store_job_get(fx->db, j1, &c), ST_OK);
    assert_int_equal(c.state, BW_JOB_STATE_FAILED);
    assert_int_equal(store_job_claim(fx->db, "E", T0 + 99999, LEASE, &c), ST_NOTFOUND);
}

static void test_reap_and_release(void **state)
{
    struct db_fixture *fx = *state;
    clear_jobs(fx->db);
    char j[BW_ID_MAX], k[BW_ID_MAX];
    enqueue(fx->db, j, "unit", 1, T0);
    struct store_job a;
    assert_int_equal(store_job_claim(fx->db, "A", T0, LEASE, &a), ST_OK);
    /* its worker dies on the only attempt: not claimable again, and the reaper fails it */
    assert_int_equal(store_job_claim(fx->db, "B", T0 + 5000, LEASE, &a), ST_NOTFOUND);
    struct store_job dead[4];
    size_t n = 9;
    assert_int_equal(store_job_reap(fx->db, T0 + 500, dead, 4, &n), ST_OK);
    assert_int_equal(n, 0); /* the lease still runs */
    assert_int_equal(store_job_reap(fx->db, T0 + 5000, dead, 4, &n), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(dead[0].id, j);
    assert_int_equal(dead[0].state, BW_JOB_STATE_FAILED);

    /* a clean shutdown gives the job back without spending the attempt */
    enqueue(fx->db, k, "unit", 1, T0);
    assert_int_equal(store_job_claim(fx->db, "A", T0, LEASE, &a), ST_OK);
    assert_int_equal(store_job_release(fx->db, k, "B", T0 + 1), ST_NOTFOUND);
    assert_int_equal(store_job_release(fx->db, k, "A", T0 + 1), ST_OK);
    assert_int_equal(store_job_claim(fx->db, "B", T0 + 2, LEASE, &a), ST_OK);
    assert_string_equal(a.id, k);
    assert_int_equal(a.attempts, 1);

    /* cancelling by ref touches queued jobs only */
    char q[BW_ID_MAX];
    enqueue(fx->db, q, "unit", 1, T0);
    struct db_conn *c = db_acquire(fx->db);
    assert_int_equal(store_job_cancel_ref_conn(c, "ref_x", T0 + 3), ST_OK);
    db_release(c);
    assert_int_equal(store_job_get(fx->db, q, &a), ST_OK);
    assert_int_equal(a.state, BW_JOB_STATE_CANCELLED);
    assert_int_equal(store_job_get(fx->db, k, &a), ST_OK);
    assert_int_equal(a.state, BW_JOB_STATE_RUNNING);
}

/* ---- the registry and run_one ---- */

static int g_runs, g_failed_hooks;
static enum bw_job_result flaky_run(struct bw_job_ctx *ctx)
{
    g_runs++;
    assert_true(bw_job_heartbeat(ctx));
    snprintf(ctx->error, sizeof ctx->error, "try %d", ctx->job->attempts);
    return ctx->job->attempts < 2 ? BW_JOB_RETRY : BW_JOB_DONE;
}
static enum bw_job_result fatal_run(struct bw_job_ctx *ctx)
{
    snprintf(ctx->error, sizeof ctx->error, "broken input");
    return BW_JOB_FAILED;
}
static void count_failed(struct db *db, const struct store_job *j, const char *error)
{
    (void)db;
    (void)j;
    assert_string_equal(error, "broken input");
    g_failed_hooks++;
}
static const struct bw_job_kind FLAKY = {.kind = "unit-flaky", .run = flaky_run};
static const struct bw_job_kind FATAL = {.kind = "unit-fatal", .run = fatal_run, .failed = count_failed};

static void test_run_one(void **state)
{
    struct db_fixture *fx = *state;
    clear_jobs(fx->db);
    (void)bw_jobs_register(&FLAKY);
    (void)bw_jobs_register(&FATAL);
    assert_int_equal(bw_jobs_register(&FLAKY), -1); /* a kind registers once */
    atomic_bool stop;
    atomic_init(&stop, false);
    g_runs = g_failed_hooks = 0;
    char f[BW_ID_MAX], x[BW_ID_MAX], u[BW_ID_MAX];
    enqueue(fx->db, f, "unit-flaky", 3, T0);
    int64_t now = bw_now_us() / 1000; /* run_one's finishes use the real clock */
    assert_int_equal(bw_jobs_run_one(fx->db, "W", now, LEASE, 0, NULL, &stop), ST_OK);
    struct store_job j;
    assert_int_equal(store_job_get(fx->db, f, &j), ST_OK);
    assert_int_equal(j.state, BW_JOB_STATE_QUEUED); /* retried after a backoff of 1 s */
    assert_string_equal(j.last_error, "try 1");
    assert_int_equal(bw_jobs_run_one(fx->db, "W", now + 5000, LEASE, 0, NULL, &stop), ST_OK);
    assert_int_equal(store_job_get(fx->db, f, &j), ST_OK);
    assert_int_equal(j.state, BW_JOB_STATE_DONE);
    assert_int_equal(g_runs, 2);

    enqueue(fx->db, x, "unit-fatal", 3, T0);
    assert_int_equal(bw_jobs_run_one(fx->db, "W", now + 6000, LEASE, 0, NULL, &stop), ST_OK);
    assert_int_equal(store_job_get(fx->db, x, &j), ST_OK);
    assert_int_equal(j.state, BW_JOB_STATE_FAILED);
    assert_int_equal(g_failed_hooks, 1);

    enqueue(fx->db, u, "no-such-kind", 3, T0);
    assert_int_equal(bw_jobs_run_one(fx->db, "W", now + 7000, LEASE, 0, NULL, &stop), ST_OK);
    assert_int_equal(store_job_get(fx->db, u, &j), ST_OK);
    assert_int_equal(j.state, BW_JOB_STATE_FAILED);
    assert_int_equal(bw_jobs_run_one(fx->db, "W", now + 8000, LEASE, 0, NULL, &stop), ST_NOTFOUND);
}

/* ---- the reaper ---- */

static int g_reaped;
static void count_reaped(struct db *db, const struct store_job *j, const char *error)
{
    (void)db;
    assert_string_equal(j->kind, "unit-reap");
    assert_int_equal(j->state, BW_JOB_STATE_FAILED);
    assert_non_null(strstr(error, "stopped answering"));
    g_reaped++;
}
static const struct bw_job_kind REAPED = {.kind = "unit-reap", .run = fatal_run, .failed = count_reaped};

/* Enqueues n jobs of kind unit-reap with one attempt each into ids and claims them all at T0 (their
 * workers then die: the leases run out at T0 + LEASE). */
static void claim_doomed(struct db *db, int n, char ids[][BW_ID_MAX])
{
    struct store_job j;
    for (int i = 0; i < n; i++) {
        enqueue(db, ids[i], "unit-reap", 1, T0); /* claimed at once: the only one queued */
        assert_int_equal(store_job_claim(db, "A", T0, LEASE, &j), ST_OK);
        assert_string_equal(j.id, ids[i]);
    }
}

static int count_state(struct db *db, int n, char ids[][BW_ID_MAX], enum bw_job_state state)
{
    int k = 0;
    struct store_job j;
    for (int i = 0; i < n; i++) {
        assert_int_equal(store_job_get(db, ids[i], &j), ST_OK);
        k += j.state == state;
    }
    return k;
}

/* More expired jobs than a reaper batch: every one fails and its kind's failure hook runs, so no
 * engagement or orchestrator run is left "running" behind a job nobody will finish. */
static void test_reap_every_job(void **state)
{
    struct db_fixture *fx = *state;
    clear_jobs(fx->db);
    (void)bw_jobs_register(&REAPED);
    enum { N = BW_JOB_REAP_BATCH * 2 + 3 };
    char ids[N][BW_ID_MAX];
    claim_doomed(fx->db, N, ids);
    g_reaped = 0;
    bw_jobs_reap(fx->db, T0 + LEASE + 1);
    assert_int_equal(g_reaped, N);
    assert_int_equal(count_state(fx->db, N, ids, BW_JOB_STATE_FAILED), N);
    bw_jobs_reap(fx->db, T0 + LEASE + 2); /* nothing is left to reap */
    assert_int_equal(g_reaped, N);

    /* the store fails at most cap jobs per call and returns each one it failed */
    clear_jobs(fx->db);
    char few[6][BW_ID_MAX];
    claim_doomed(fx->db, 6, few);
    struct store_job dead[4];
    size_t n = 0;
    assert_int_equal(store_job_reap(fx->db, T0 + LEASE + 1, dead, 4, &n), ST_OK);
    assert_int_equal(n, 4);
    assert_int_equal(count_state(fx->db, 6, few, BW_JOB_STATE_RUNNING), 2);
    assert_int_equal(store_job_reap(fx->db, T0 + LEASE + 1, dead, 4, &n), ST_OK);
    assert_int_equal(n, 2);
    assert_int_equal(store_job_reap(fx->db, T0 + LEASE + 1, dead, 4, &n), ST_OK);
    assert_int_equal(n, 0);
    assert_int_equal(count_state(fx->db, 6, few, BW_JOB_STATE_FAILED), 6);
}

/* ---- concurrent claimers ---- */

#define RACE_JOBS 60
#define RACE_THREADS 4
struct race {
    struct db *db;
    int claimed; /* across threads (atomic builtins) */
    char ids[RACE_THREADS][RACE_JOBS][BW_ID_MAX];
    int n[RACE_THREADS];
};
struct race_arg {
    struct race *r;
    int t;
};

static void *claimer(void *p)
{
    struct race_arg *a = p;
    char owner[16];
    snprintf(owner, sizeof owner, "T%d", a->t);
    struct store_job j;
    /* SKIP LOCKED may answer "none" while others hold the rest: stop when all are taken, or
     * after a long run of misses (then the count check below fails) */
    int misses = 0;
    while (__atomic_load_n(&a->r->claimed, __ATOMIC_SEQ_CST) < RACE_JOBS && misses < 2000) {
        int rc = store_job_claim(a->r->db, owner, T0 + RACE_JOBS, 60000, &j);
        if (rc == ST_OK && a->r->n[a->t] < RACE_JOBS) {
            memcpy(a->r->ids[a->t][a->r->n[a->t]++], j.id, BW_ID_MAX);
            __atomic_add_fetch(&a->r->claimed, 1, __ATOMIC_SEQ_CST);
        }
        misses = rc == ST_OK ? 0 : misses + 1;
    }
    return NULL;
}

static void test_concurrent_claims(void **state)
{
    struct db_fixture *fx = *state;
    clear_jobs(fx->db);
    static struct race r;
    memset(&r, 0, sizeof r);
    r.db = fx->db;
    char id[BW_ID_MAX];
    for (int i = 0; i < RACE_JOBS; i++)
        enqueue(fx->db, id, "unit", 3, T0 + i);
    pthread_t th[RACE_THREADS];
    struct race_arg args[RACE_THREADS];
    for (int t = 0; t < RACE_THREADS; t++) {
        args[t] = (struct race_arg){&r, t};
        assert_int_equal(pthread_create(&th[t], NULL, claimer, &args[t]), 0);
    }
    for (int t = 0; t < RACE_THREADS; t++)
        pthread_join(th[t], NULL);
    /* every job claimed exactly once */
    int total = 0;
    for (int t = 0; t < RACE_THREADS; t++)
        total += r.n[t];
    assert_int_equal(total, RACE_JOBS);
    for (int t = 0; t < RACE_THREADS; t++)
        for (int i = 0; i < r.n[t]; i++)
            for (int u = 0; u < RACE_THREADS; u++)
                for (int k = 0; k < r.n[u]; k++)
                    if (u != t || k != i)
                        assert_string_not_equal(r.ids[t][i], r.ids[u][k]);
}

/* ---- backends ---- */

static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "jobs", NULL, 8); }
static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(*state); }
static int pg_setup(void **state) { return dbfx_pg_setup(&g_fx, state, "jobs", 8); }
static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }

PG_TEST(test_claim_lease_retry)
PG_TEST(test_reap_and_release)
PG_TEST(test_run_one)
PG_TEST(test_reap_every_job)
PG_TEST(test_concurrent_claims)

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    bw_log_set_level(BW_LOG_ERROR + 1);
    const struct CMUnitTest sqlite[] = {
        cmocka_unit_test(test_claim_lease_retry),
        cmocka_unit_test(test_reap_and_release),
        cmocka_unit_test(test_run_one),
        cmocka_unit_test(test_reap_every_job),
        cmocka_unit_test(test_concurrent_claims),
    };
    const struct CMUnitTest pg[] = {
        cmocka_unit_test(pg_test_claim_lease_retry),
        cmocka_unit_test(pg_test_reap_and_release),
        cmocka_unit_test(pg_test_run_one),
        cmocka_unit_test(pg_test_reap_every_job),
        cmocka_unit_test(pg_test_concurrent_claims),
    };
    int failed = cmocka_run_group_tests_name("jobs_sqlite", sqlite, sqlite_setup, sqlite_teardown);
    failed += cmocka_run_group_tests_name("jobs_postgres", pg, pg_setup, pg_teardown);
    return failed ? 1 : 0;
}
