/* Account management in the store (src/store/store.c): password changes against the token
 * generation, disable/enable, role changes, deletion of an account with everything it owns, and
 * the last enabled admin kept; each test on a fresh database, SQLite and (when configured)
 * PostgreSQL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/ids.h"
#include "common/log.h"
#include "db_fixture.h"
#include "store/db.h"
#include "store/store.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

static struct db_fixture g_fx;

static struct store_user add(struct db *db, const char *email, enum bw_role role)
{
    struct store_user u = dbfx_user(email, BW_TIER_PRO, role);
    assert_int_equal(store_user_insert(db, &u), ST_OK);
    return u;
}

static void exec(struct db *db, const char *sql)
{
    struct db_conn *c = db_acquire(db);
    assert_non_null(c);
    assert_int_equal(db_exec_script(c, sql), DB_OK);
    db_release(c);
}

/* sql: a literal (the backends cache prepared statements by its address), one parameter. */
static int64_t count(struct db *db, const char *sql, const char *arg)
{
    struct db_conn *c = db_acquire(db);
    assert_non_null(c);
    struct db_param p[] = {DBP_TEXT(arg)};
    struct db_rows *r = NULL;
    assert_int_equal(db_query(c, sql, p, 1, &r), DB_OK);
    assert_true(db_rows_next(r));
    int64_t n = db_rows_int(r, 0);
    db_rows_free(r);
    db_release(c);
    return n;
}

static void test_password_generation(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct store_user u = add(db, "pw@example.com", BW_ROLE_USER), got;
    assert_int_equal(store_user_by_id(db, u.id, &got), ST_OK);
    assert_int_equal(got.token_gen, 0);
    assert_false(got.disabled);
    int64_t gen = -1;
    /* a change made with an old generation in hand is refused: another came first */
    assert_int_equal(store_user_set_password(db, u.id, "new-hash", 3, &gen), ST_NOTFOUND);
    assert_int_equal(store_user_set_password(db, u.id, "new-hash", 0, &gen), ST_OK);
    assert_int_equal(gen, 1);
    assert_int_equal(store_user_set_password(db, u.id, "newer-hash", 0, &gen), ST_NOTFOUND);
    assert_int_equal(store_user_set_password(db, u.id, "newer-hash", -1, &gen), ST_OK); /* the CLI: any */
    assert_int_equal(gen, 2);
    assert_int_equal(store_user_by_email(db, "pw@example.com", &got), ST_OK);
    assert_string_equal(got.password_hash, "newer-hash");
    assert_int_equal(got.token_gen, 2);
    assert_int_equal(store_user_set_password(db, "usr_none", "x", -1, &gen), ST_NOTFOUND);
}

static void test_disable_enable(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    (void)add(db, "admin@example.com", BW_ROLE_ADMIN);
    struct store_user u = add(db, "d@example.com", BW_ROLE_USER), got;
    exec(db, "INSERT INTO api_keys (id, user_id, key_hash, key_prefix, label, active, created_at)"
             " SELECT 'key_d1', id, 'h-d1', 'svc_d1', 'a', 1, '2026-01-01T00:00:00Z' FROM users WHERE email = 'd@example.com';"
             "INSERT INTO api_keys (id, user_id, key_hash, key_prefix, label, active, created_at)"
             " SELECT 'key_d2', id, 'h-d2', 'svc_d2', 'b', 1, '2026-01-01T00:00:00Z' FROM users WHERE email = 'd@example.com';");
    assert_int_equal(store_user_disable(db, "d@example.com", &got), ST_OK);
    assert_true(got.disabled);
    assert_int_equal(got.token_gen, 1);
    assert_int_equal(count(db, "SELECT COUNT(*) FROM api_keys WHERE user_id = ? AND active = 1", u.id), 0);
    struct store_key k;
    assert_int_equal(store_key_by_hash_any(db, "h-d1", &k), ST_OK);
    assert_true(k.owner_disabled);
    assert_false(k.active);
    /* twice: no change */
    assert_int_equal(store_user_disable(db, "d@example.com", &got), ST_OK);
    assert_int_equal(got.token_gen, 1);
    /* enable: login again, the keys stay revoked and the old sessions ended */
    assert_int_equal(store_user_enable(db, "d@example.com", &got), ST_OK);
    assert_false(got.disabled);
    assert_int_equal(got.token_gen, 1);
    assert_int_equal(count(db, "SELECT COUNT(*) FROM api_keys WHERE user_id = ? AND active = 1", u.id), 0);
    assert_int_equal(store_user_disable(db, "nobody@example.com", &got), ST_NOTFOUND);
    assert_int_equal(store_user_enable(db, "nobody@example.com", &got), ST_NOTFOUND);
}

/* The last enabled admin cannot be disabled, demoted or deleted; with a second one it can, once. */
static void test_last_admin(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct store_user got;
    (void)add(db, "a1@example.com", BW_ROLE_ADMIN);
    (void)add(db, "user@example.com", BW_ROLE_USER);
    assert_int_equal(store_user_disable(db, "a1@example.com", &got), ST_CONFLICT);
    assert_int_equal(store_user_set_role(db, "a1@example.com", BW_ROLE_MSSP, &got), ST_CONFLICT);
    assert_int_equal(store_user_delete(db, "a1@example.com", &got), ST_CONFLICT);
    assert_int_equal(store_user_by_email(db, "a1@example.com", &got), ST_OK);
    assert_int_equal(got.role, BW_ROLE_ADMIN);
    assert_false(got.disabled);
    assert_int_equal(got.token_gen, 0);
    /* the same role again is no change, and allowed */
    assert_int_equal(store_user_set_role(db, "a1@example.com", BW_ROLE_ADMIN, &got), ST_OK);
    assert_int_equal(got.token_gen, 0);
    /* promote another: now one of the two may go */
    assert_int_equal(store_user_set_role(db, "user@example.com", BW_ROLE_ADMIN, &got), ST_OK);
    assert_int_equal(got.role, BW_ROLE_ADMIN);
    assert_int_equal(got.token_gen, 1);
    assert_int_equal(store_user_set_role(db, "a1@example.com", BW_ROLE_USER, &got), ST_OK);
    assert_int_equal(got.token_gen, 1);
    assert_int_equal(store_user_delete(db, "user@example.com", &got), ST_CONFLICT);
    /* a disabled admin does not count, and enabling one gives one back */
    (void)add(db, "a3@example.com", BW_ROLE_ADMIN);
    assert_int_equal(store_user_disable(db, "a3@example.com", &got), ST_OK);
    assert_int_equal(store_user_delete(db, "user@example.com", &got), ST_CONFLICT);
    assert_int_equal(store_user_enable(db, "a3@example.com", &got), ST_OK);
    assert_int_equal(store_user_delete(db, "user@example.com", &got), ST_OK);
    assert_int_equal(store_user_by_email(db, "user@example.com", &got), ST_NOTFOUND);
}

/* Deleting an account deletes what it owns in every table, and nothing of anyone else's. */
static void test_delete_everything_owned(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    (void)add(db, "admin@example.com", BW_ROLE_ADMIN);
    struct store_user v = add(db, "victim@example.com", BW_ROLE_MSSP), b = add(db, "bystander@example.com", BW_ROLE_USER);
    struct store_user m = add(db, "managed@example.com", BW_ROLE_USER), got;
    char sql[8192];
    exec(db, "INSERT INTO intel_records (id, type, title, severity, published, updated, enriched_at, enriched_us,"
             " version, risk_score, kev, source, doc, entry) VALUES ('CVE-2026-0001', 'ai_cve', 't', 'HIGH',"
             " '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 0, 1, 50, 0, 'kev', '{}', '{}')");
    const struct store_user *owners[] = {&v, &b};
    for (int i = 0; i < 2; i++) {
        const char *id = owners[i]->id;
        snprintf(sql, sizeof sql,
                 "INSERT INTO api_keys (id, user_id, key_hash, key_prefix, label, active, created_at)"
                 " VALUES ('key_%d', '%s', 'h%d', 'svc_%d', 'l', 1, 't');"
                 "INSERT INTO assets (id, user_id, name, type, endpoint, env, security_score, risk_level, created_at,"
                 " created_us) VALUES ('ast_%d', '%s', 'n', 'model', 'https://x', 'production', 50, 'HIGH', 't', 0);"
                 "INSERT INTO asset_scans (id, asset_id, user_id, score, risk_level, body, created_at, created_us)"
                 " VALUES ('scn_%d', 'ast_%d', '%s', 50, 'HIGH', '{}', 't', 0);"
                 "INSERT INTO assessments (id, user_id, framework_id, body, created_at) VALUES ('asm_%d', '%s', 'f', '{}', 't');"
                 "INSERT INTO playbooks (id, user_id, threat_id, record_version, risk_tier, playbook, generated_at,"
                 " generated_us) VALUES ('pbk_%d', '%s', 'CVE-2026-0001', 1, 'HIGH', '{}', 't', 0);"
                 "INSERT INTO engagements (id, user_id, asset_id, asset_type, target_url, categories, intensity, canary,"
                 " attack_ids, status, attack_count, eta_seconds, created_at, created_us) VALUES ('eng_%d', '%s',"
                 " 'ast_%d', 'model', 'https://x', '[]', 'light', 'c', '[]', 'running', 1, 1, 't', 0);"
                 "INSERT INTO engagement_attacks (engagement_id, attack_id, seq, succeeded, errored, severity, detector,"
                 " prompt, response_excerpt, elapsed_ms, created_us) VALUES ('eng_%d', 'a', 0, 0, 0, 'LOW', 'd', 'p', 'r',"
                 " 1, 0);"
                 "INSERT INTO jobs (id, kind, ref, state, max_attempts, run_after, created_ms, updated_ms)"
                 " VALUES ('job_e%d', 'redteam', 'eng_%d', 'queued', 5, 0, 0, 0);"
                 "INSERT INTO orch_runs (job_id, scope_key, requested_by, max_items, status, active, accepted_at,"
                 " accepted_us) VALUES ('job_o%d', 'acct:%s', '%s', 10, 'queued', 1, 't', 0);"
                 "INSERT INTO jobs (id, kind, ref, state, max_attempts, run_after, created_ms, updated_ms)"
                 " VALUES ('job_o%d', 'orchestrator', 'acct:%s', 'queued', 5, 0, 0, 0);"
                 "INSERT INTO orch_snapshots (id, scope_key, job_id, max_items, created_at, created_us, ciso, aspm,"
                 " compliance, hunt) VALUES ('snp_%d', 'acct:%s', 'job_o%d', 10, 't', 0, '{}', '{}', '{}', '{}');",
                 i, id, i, i, i, id, i, i, id, i, id, i, id, i, id, i, i, i, i, i, id, id, i, id, i, id, i);
        exec(db, sql);
    }
    snprintf(sql, sizeof sql, "UPDATE users SET managed_by = '%s' WHERE id = '%s'", v.id, m.id);
    exec(db, sql);

    assert_int_equal(store_user_delete(db, "victim@example.com", &got), ST_OK);
    assert_string_equal(got.id, v.id);
    static const char *const owned[] = {
        "SELECT COUNT(*) FROM users WHERE id = ?",
        "SELECT COUNT(*) FROM api_keys WHERE user_id = ?",
        "SELECT COUNT(*) FROM assets WHERE user_id = ?",
        "SELECT COUNT(*) FROM asset_scans WHERE user_id = ?",
        "SELECT COUNT(*) FROM assessments WHERE user_id = ?",
        "SELECT COUNT(*) FROM playbooks WHERE user_id = ?",
        "SELECT COUNT(*) FROM engagements WHERE user_id = ?",
        "SELECT COUNT(*) FROM engagement_attacks WHERE engagement_id IN (SELECT id FROM engagements WHERE user_id = ?)",
        "SELECT COUNT(*) FROM orch_runs WHERE requested_by = ?",
        "SELECT COUNT(*) FROM orch_snapshots WHERE scope_key = 'acct:' || ?",
    };
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++) {
        assert_int_equal(count(db, owned[i], v.id), 0);
        assert_int_equal(count(db, owned[i], b.id), 1); /* the bystander keeps everything */
    }
    assert_int_equal(count(db, "SELECT COUNT(*) FROM jobs WHERE id IN ('job_e0', 'job_o0') OR id = ?", "-"), 0);
    assert_int_equal(count(db, "SELECT COUNT(*) FROM jobs WHERE id IN ('job_e1', 'job_o1') OR id = ?", "-"), 2);
    /* the managed account stays, without a manager */
    assert_int_equal(store_user_by_id(db, m.id, &got), ST_OK);
    assert_string_equal(got.managed_by, "");
    assert_int_equal(store_user_delete(db, "victim@example.com", &got), ST_NOTFOUND);
}

static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "acct", NULL, 4); }
static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(*state); }
static int pg_setup(void **state) { return dbfx_pg_setup(&g_fx, state, "acct", 4); }
static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }

PG_TEST(test_password_generation)
PG_TEST(test_disable_enable)
PG_TEST(test_last_admin)
PG_TEST(test_delete_everything_owned)

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    bw_log_set_level(BW_LOG_ERROR + 1);
    const struct CMUnitTest sqlite[] = {
        cmocka_unit_test_setup_teardown(test_password_generation, sqlite_setup, sqlite_teardown),
        cmocka_unit_test_setup_teardown(test_disable_enable, sqlite_setup, sqlite_teardown),
        cmocka_unit_test_setup_teardown(test_last_admin, sqlite_setup, sqlite_teardown),
        cmocka_unit_test_setup_teardown(test_delete_everything_owned, sqlite_setup, sqlite_teardown),
    };
    const struct CMUnitTest pg[] = {
        cmocka_unit_test_setup_teardown(pg_test_password_generation, pg_setup, pg_teardown),
        cmocka_unit_test_setup_teardown(pg_test_disable_enable, pg_setup, pg_teardown),
        cmocka_unit_test_setup_teardown(pg_test_last_admin, pg_setup, pg_teardown),
        cmocka_unit_test_setup_teardown(pg_test_delete_everything_owned, pg_setup, pg_teardown),
    };
    int failed = cmocka_run_group_tests_name("account_sqlite", sqlite, NULL, NULL);
    failed += cmocka_run_group_tests_name("account_postgres", pg, NULL, NULL);
    return failed ? 1 : 0;
}
