/* Webhooks in the store (src/store/store_webhooks.c, migration 0031), on SQLite in a temp
 * directory and, when BULWARK_TEST_PG_HOST/PORT name a cluster, on a fresh PostgreSQL database:
 * the per-account cap, subscribers by exact event name, another account seeing nothing, a
 * delivery and its job queued together, a try recorded, the log paged newest first, and a delete
 * taking the log and the queued jobs with it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/ids.h"
#include "common/log.h"
#include "store/db.h"
#include "store/store.h"
#include "store/store_jobs.h"
#include "store/store_webhooks.h"
#include "db_fixture.h"

#include <stdio.h>
#include <string.h>

static struct db_fixture g_fx;

static void add_hook(struct db *db, const char *user, const char *events, long max, int want, char id[BW_ID_MAX])
{
    struct store_webhook w = {0};
    bw_id_new("whk_", w.id);
    snprintf(w.user_id, sizeof w.user_id, "%s", user);
    snprintf(w.url, sizeof w.url, "https://hooks.example.com/x");
    snprintf(w.events, sizeof w.events, "%s", events);
    snprintf(w.created_at, sizeof w.created_at, "2026-11-26T00:00:00Z");
    static int64_t us = 1;
    w.created_us = us++;
    w.secret_sealed = "v1.sealed";
    assert_int_equal(store_webhook_insert(db, &w, max), want);
    if (id)
        snprintf(id, BW_ID_MAX, "%s", w.id);
}

static void queue_one(struct db *db, const char *user, const char *hook, int64_t us, char id[BW_ID_MAX],
                      char job[BW_ID_MAX])
{
    struct store_webhook_delivery d = {0};
    char jobs[1][BW_ID_MAX];
    bw_id_new("whd_", d.id);
    bw_id_new("job_", jobs[0]);
    snprintf(d.webhook_id, sizeof d.webhook_id, "%s", hook);
    snprintf(d.user_id, sizeof d.user_id, "%s", user);
    snprintf(d.event, sizeof d.event, "ping");
    snprintf(d.event_id, sizeof d.event_id, "evt_x");
    snprintf(d.created_at, sizeof d.created_at, "2026-11-26T00:00:00Z");
    d.created_us = us;
    d.body = "{\"type\":\"ping\"}";
    assert_int_equal(store_webhook_deliveries_enqueue(db, &d, jobs, 1, "webhook", 5, 1000), ST_OK);
    snprintf(id, BW_ID_MAX, "%s", d.id);
    snprintf(job, BW_ID_MAX, "%s", jobs[0]);
}

static void webhooks(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    char u1[BW_ID_MAX], u2[BW_ID_MAX], h1[BW_ID_MAX], h2[BW_ID_MAX], h3[BW_ID_MAX];
    dbfx_add_user(db, u1);
    dbfx_add_user(db, u2);
    add_hook(db, u1, ",asset_scan.completed,", 2, ST_OK, h1);
    add_hook(db, u1, ",engagement.completed,intel.kev_match,", 2, ST_OK, h2);
    add_hook(db, u1, ",intel.kev_match,", 2, ST_LIMIT, NULL); /* the cap */
    add_hook(db, u2, ",intel.kev_match,", 2, ST_OK, h3);
    add_hook(db, "usr_nobody", ",intel.kev_match,", 2, ST_NOTFOUND, NULL);

    char ids[4][BW_ID_MAX];
    size_t n = 0;
    assert_int_equal(store_webhook_subscribers(db, u1, "intel.kev_match", BW_TIER_PRO, ids, 4, &n), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(ids[0], h2);
    assert_int_equal(store_webhook_subscribers(db, u1, "asset_scan.completed", BW_TIER_PRO, ids, 4, &n), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(ids[0], h1);
    /* a part of a name is not the name */
    assert_int_equal(store_webhook_subscribers(db, u1, "intel", BW_TIER_PRO, ids, 4, &n), ST_OK);
    assert_int_equal(n, 0);
    assert_int_equal(store_webhook_subscribers(db, u2, "asset_scan.completed", BW_TIER_PRO, ids, 4, &n), ST_OK);
    assert_int_equal(n, 0);
    /* the tier is the caller's: a PRO account has no subscribers when ENTERPRISE is needed, every
     * tier from the one named up counts, and an unknown account is not subscribed */
    assert_int_equal(store_webhook_subscribers(db, u1, "intel.kev_match", BW_TIER_ENTERPRISE, ids, 4, &n), ST_OK);
    assert_int_equal(n, 0);
    assert_int_equal(store_webhook_subscribers(db, u1, "intel.kev_match", BW_TIER_FREE, ids, 4, &n), ST_OK);
    assert_int_equal(n, 1);
    bool yes = true;
    assert_int_equal(store_webhook_owner_subscribed(db, u1, BW_TIER_PRO, &yes), ST_OK);
    assert_true(yes);
    assert_int_equal(store_webhook_owner_subscribed(db, u1, BW_TIER_ENTERPRISE, &yes), ST_OK);
    assert_false(yes);
    assert_int_equal(store_webhook_owner_subscribed(db, "usr_nobody", BW_TIER_FREE, &yes), ST_OK);
    assert_false(yes);

    struct store_webhook w;
    assert_int_equal(store_webhook_get(db, u2, h1, &w), ST_NOTFOUND); /* another account's */
    assert_int_equal(store_webhook_get(db, NULL, h1, &w), ST_OK);     /* the job reads any */
    assert_string_equal(w.secret_sealed, "v1.sealed");
    store_webhook_clear(&w);
    struct store_webhook *list = NULL;
    assert_int_equal(store_webhook_list(db, u1, &list, &n), ST_OK);
    assert_int_equal(n, 2);
    assert_string_equal(list[0].id, h1); /* oldest first */
    store_webhook_list_free(list, n);

    /* three deliveries; a try recorded on the newest */
    char d[3][BW_ID_MAX], j[3][BW_ID_MAX];
    for (int i = 0; i < 3; i++)
        queue_one(db, u1, h2, 100 + i, d[i], j[i]);
    struct store_webhook_delivery got;
    assert_int_equal(store_webhook_delivery_get(db, d[2], &got), ST_OK);
    assert_int_equal(got.status, STORE_DELIVERY_PENDING);
    assert_string_equal(got.body, "{\"type\":\"ping\"}");
    got.tries = 1;
    got.last_status = 500;
    snprintf(got.error, sizeof got.error, "HTTP 500");
    snprintf(got.next_try_at, sizeof got.next_try_at, "2026-11-26T00:01:00Z");
    assert_int_equal(store_webhook_delivery_update(db, &got), ST_OK);
    store_webhook_delivery_clear(&got);
    struct store_job job;
    assert_int_equal(store_job_get(db, j[0], &job), ST_OK);
    assert_string_equal(job.kind, "webhook");
    assert_string_equal(job.ref, d[0]);

    struct store_page pg = {.limit = 2};
    struct store_webhook_delivery *page = NULL;
    int64_t total = 0;
    assert_int_equal(store_webhook_delivery_list(db, u1, h2, &pg, &page, &n, &total), ST_OK);
    assert_int_equal(n, 2);
    assert_int_equal(total, 3);
    assert_true(pg.more);
    assert_string_equal(page[0].id, d[2]); /* newest first */
    assert_int_equal(page[0].tries, 1);
    assert_int_equal(page[0].last_status, 500);
    assert_null(page[0].body); /* the log never carries bodies */
    store_webhook_delivery_list_free(page, n);
    struct store_page next = {.limit = 2, .after_id = pg.last_id, .after_int = pg.last_int};
    assert_int_equal(store_webhook_delivery_list(db, u1, h2, &next, &page, &n, &total), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(page[0].id, d[0]);
    assert_false(next.more);
    store_webhook_delivery_list_free(page, n);
    /* another account's webhook id lists nothing */
    struct store_page p2 = {.limit = 5};
    assert_int_equal(store_webhook_delivery_list(db, u2, h2, &p2, &page, &n, &total), ST_OK);
    assert_int_equal(n, 0);
    store_webhook_delivery_list_free(page, n);

    /* a delete: not another account's; then the log and the queued jobs go with it */
    assert_int_equal(store_webhook_delete(db, u2, h2), ST_NOTFOUND);
    assert_int_equal(store_webhook_delete(db, u1, h2), ST_OK);
    assert_int_equal(store_webhook_delivery_get(db, d[1], &got), ST_NOTFOUND);
    assert_int_equal(store_job_get(db, j[1], &job), ST_NOTFOUND);
    assert_int_equal(store_webhook_delete(db, u1, h2), ST_NOTFOUND);
    assert_int_equal(store_webhook_get(db, NULL, h3, &w), ST_OK); /* the other account's stays */
    store_webhook_clear(&w);
}

static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "webhooks", NULL, 2); }
static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(*state); }
static int pg_setup(void **state) { return dbfx_pg_setup(&g_fx, state, "webhooks", 2); }
static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }

PG_TEST(webhooks)

int main(void)
{
    bw_log_set_level(BW_LOG_ERROR + 1);
    const struct CMUnitTest sqlite[] = {cmocka_unit_test(webhooks)};
    const struct CMUnitTest pg[] = {cmocka_unit_test(pg_webhooks)};
    int failed = cmocka_run_group_tests_name("store_webhooks_sqlite", sqlite, sqlite_setup, sqlite_teardown);
    failed += cmocka_run_group_tests_name("store_webhooks_postgres", pg, pg_setup, pg_teardown);
    return failed ? 1 : 0;
}
