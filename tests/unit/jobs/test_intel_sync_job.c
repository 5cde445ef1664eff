/* The scheduled intel sync's claim logic (src/jobs/intel_sync_job.c, store_job_enqueue_once) on
 * SQLite and, when BULWARK_TEST_PG_HOST/PORT name a cluster, PostgreSQL: the slot ids, one job per
 * slot however many schedulers tick on it (threads standing in for instances), the next tick at
 * the next slot, nothing scheduled when off, the job claimed once, finished jobs pruned to the
 * newest few, and a sync with every source off ending done. The clock is passed in. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/limits.h"
#include "common/log.h"
#include "jobs/intel_sync_job.h"
#include "jobs/jobs.h"
#include "services/intel_sync.h"
#include "store/store.h"
#include "store/store_jobs.h"
#include "db_fixture.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

static struct db_fixture g_fx;
static const int64_t T0 = 1764115200000; /* 2025-11-26T00:00:00Z, a day boundary, in ms */
static const int64_t IV = 3600000;       /* an hour */

static int64_t count(struct db *db, const char *sql)
{
    struct db_conn *c = db_acquire(db);
    int64_t n = -1;
    struct db_rows *r = NULL;
    assert_int_equal(db_query(c, sql, NULL, 0, &r), DB_OK);
    if (db_rows_next(r))
        n = db_rows_int(r, 0);
    db_rows_free(r);
    db_release(c);
    return n;
}

static void clear_jobs(struct db *db)
{
    struct db_conn *c = db_acquire(db);
    assert_int_equal(db_exec(c, "DELETE FROM jobs", NULL, 0, NULL), DB_OK);
    db_release(c);
}

static void test_slot_ids(void **state)
{
    (void)state;
    char id[BW_ID_MAX];
    int64_t start = 0;
    bw_intel_sync_slot(T0 + 1234567, IV, id, &start);
    assert_int_equal(start, T0);
    assert_string_equal(id, "job_intelsync_1764115200");
    bw_intel_sync_slot(T0 + IV - 1, IV, id, &start);
    assert_int_equal(start, T0);
    bw_intel_sync_slot(T0 + IV, IV, id, &start);
    assert_int_equal(start, T0 + IV);
    assert_string_equal(id, "job_intelsync_1764118800");
    /* a day's slots start at midnight UTC */
    bw_intel_sync_slot(T0 + 5 * 3600000, 86400000, id, &start);
    assert_int_equal(start, T0);
    /* a download gets a third of a short lease, never more than the limit */
    assert_int_equal(bw_intel_sync_timeout(60000), 20000);
    assert_int_equal(bw_intel_sync_timeout(3600000), BW_INTEL_SYNC_TIMEOUT_MS);
}

static const struct bw_sync_opts NO_SOURCES = {.url = {NULL, NULL, NULL}};

static void test_tick_once_per_slot(void **state)
{
    struct db_fixture *fx = *state;
    clear_jobs(fx->db);
    bw_jobs_register_all();
    struct bw_jobs_opts off = {.lease_ms = 60000, .intel_sync = &NO_SOURCES};
    /* sync off: nothing of it is due; the next due tick is another kind's (the red-team turns
     * sweep, hourly) */
    assert_true(bw_jobs_tick(fx->db, T0, &off) == T0 + BW_RT_TURNS_SWEEP_MS);
    assert_int_equal(count(fx->db, "SELECT count(*) FROM jobs"), 0);

    struct bw_jobs_opts o = {.lease_ms = 60000, .intel_sync = &NO_SOURCES, .intel_sync_interval_ms = IV};
    /* two instances tick on the slot, twice each: one job; the next tick is due at the next slot */
    for (int i = 0; i < 4; i++)
        assert_true(bw_jobs_tick(fx->db, T0 + 10 + i, &o) == T0 + IV);
    assert_int_equal(count(fx->db, "SELECT count(*) FROM jobs WHERE kind = 'intel_sync'"), 1);
    /* claimed once; a second claimer finds nothing */
    atomic_bool stop = false;
    assert_int_equal(bw_jobs_run_one_opts(fx->db, "A", T0 + 20, &o, &stop), ST_OK);
    assert_int_equal(bw_jobs_run_one_opts(fx->db, "B", T0 + 20, &o, &stop), ST_NOTFOUND);
    assert_int_equal(count(fx->db, "SELECT count(*) FROM jobs WHERE state = 'done'"), 1);
    /* a restart later in the slot: the durable row says it ran */
    assert_true(bw_jobs_tick(fx->db, T0 + IV - 1, &o) == T0 + IV);
    assert_int_equal(count(fx->db, "SELECT count(*) FROM jobs"), 1);
    /* the next slot: a new job */
    assert_true(bw_jobs_tick(fx->db, T0 + IV, &o) == T0 + 2 * IV);
    assert_int_equal(count(fx->db, "SELECT count(*) FROM jobs WHERE state = 'queued'"), 1);
}

static void test_prune(void **state)
{
    struct db_fixture *fx = *state;
    clear_jobs(fx->db);
    struct bw_jobs_opts o = {.lease_ms = 60000, .intel_sync = &NO_SOURCES, .intel_sync_interval_ms = IV};
    atomic_bool stop = false;
    for (int i = 0; i < BW_INTEL_SYNC_JOBS_KEPT + 5; i++) {
        int64_t now = T0 + i * IV;
        (void)bw_jobs_tick(fx->db, now, &o);
        assert_int_equal(bw_jobs_run_one_opts(fx->db, "A", now + 1, &o, &stop), ST_OK);
    }
    /* pruned when a slot's job is created: the newest kept (the last one just ran) */
    assert_int_equal(count(fx->db, "SELECT count(*) FROM jobs"), BW_INTEL_SYNC_JOBS_KEPT);
    assert_int_equal(count(fx->db, "SELECT count(*) FROM jobs WHERE id = 'job_intelsync_1764115200'"), 0);
}

/* ---- instances racing for one slot ---- */

#define RACERS 6
struct racer {
    struct db *db;
    int created;
};

static void *racer(void *arg)
{
    struct racer *r = arg;
    bool created = false;
    if (store_job_enqueue_once(r->db, "job_intelsync_race", "intel_sync", "intel", 3, T0, &created) == ST_OK &&
        created)
        r->created = 1;
    return NULL;
}

static void test_enqueue_race(void **state)
{
    struct db_fixture *fx = *state;
    clear_jobs(fx->db);
    pthread_t th[RACERS];
    struct racer rs[RACERS];
    for (int i = 0; i < RACERS; i++) {
        rs[i] = (struct racer){fx->db, 0};
        assert_int_equal(pthread_create(&th[i], NULL, racer, &rs[i]), 0);
    }
    int created = 0;
    for (int i = 0; i < RACERS; i++) {
        pthread_join(th[i], NULL);
        created += rs[i].created;
    }
    assert_int_equal(created, 1);
    assert_int_equal(count(fx->db, "SELECT count(*) FROM jobs"), 1);
}

static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "isync", NULL, 8); }
static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(*state); }
static int pg_setup(void **state) { return dbfx_pg_setup(&g_fx, state, "isync", 8); }
static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }

PG_TEST(test_tick_once_per_slot)
PG_TEST(test_prune)
PG_TEST(test_enqueue_race)

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    bw_log_set_level(BW_LOG_ERROR + 1);
    const struct CMUnitTest sqlite[] = {
        cmocka_unit_test(test_slot_ids),
        cmocka_unit_test(test_tick_once_per_slot),
        cmocka_unit_test(test_prune),
        cmocka_unit_test(test_enqueue_race),
    };
    const struct CMUnitTest pg[] = {
        cmocka_unit_test(pg_test_tick_once_per_slot),
        cmocka_unit_test(pg_test_prune),
        cmocka_unit_test(pg_test_enqueue_race),
    };
    int failed = cmocka_run_group_tests_name("intel_sync_job_sqlite", sqlite, sqlite_setup, sqlite_teardown);
    failed += cmocka_run_group_tests_name("intel_sync_job_postgres", pg, pg_setup, pg_teardown);
    return failed ? 1 : 0;
}
