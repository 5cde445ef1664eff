/* Storage of users, API keys and settings (src/store/) against a real SQLite database in a temp
 * directory and, when BULWARK_TEST_PG_HOST/BULWARK_TEST_PG_PORT name a PostgreSQL cluster
 * (user postgres, trust auth), against a fresh randomly named database on it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "auth/apikey.h"
#include "common/ids.h"
#include "common/log.h"
#include "common/rng.h"
#include "store/db.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "db_fixture.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct db_fixture g_fx;

/* ---- helpers ------------------------------------------------------------------------------- */

static void ts(int sec, char out[21]) { snprintf(out, 21, "2026-01-01T00:%02u:%02uZ", (unsigned)(sec / 60) % 60u, (unsigned)sec % 60u); }

/* A new key for user_id; the plaintext goes to plain (optional). */
static struct store_key new_key(const char *user_id, const char *label, int sec, char *plain)
{
    struct store_key k;
    memset(&k, 0, sizeof k);
    char key[BW_KEY_LEN + 1];
    bw_apikey_generate(key);
    bw_id_new("key_", k.id);
    snprintf(k.user_id, sizeof k.user_id, "%s", user_id);
    bw_apikey_prefix(key, k.prefix);
    bw_apikey_hash(key, k.hash);
    snprintf(k.label, sizeof k.label, "%s", label);
    ts(sec, k.created_at);
    if (plain)
        memcpy(plain, key, sizeof key);
    return k;
}

/* ---- the suite, run once per backend --------------------------------------------------------- */

static void test_migrations(void **state)
{
    struct db_fixture *fx = *state;
    struct db_conn *c = db_acquire(fx->db);
    assert_non_null(c);
    struct db_rows *r = NULL;
    assert_int_equal(db_query(c, "SELECT version, name FROM schema_migrations ORDER BY version", NULL, 0, &r), DB_OK);
    assert_true(db_rows_next(r));
    assert_int_equal(db_rows_int(r, 0), 1);
    assert_string_equal(db_rows_text(r, 1), "0001_accounts.sql");
    db_rows_free(r);
    /* the tables exist and are empty */
    r = NULL;
    assert_int_equal(db_query(c, "SELECT COUNT(*) FROM api_keys", NULL, 0, &r), DB_OK);
    assert_true(db_rows_next(r));
    assert_int_equal(db_rows_int(r, 0), 0);
    db_rows_free(r);
    db_release(c);
    assert_true(db_ping(fx->db));
}

static void test_users(void **state)
{
    struct db_fixture *fx = *state;
    int64_t n = -1;
    assert_int_equal(store_user_count(fx->db, &n), ST_OK);
    assert_int_equal(n, 0);

    struct store_user a = dbfx_user("alice@example.com", BW_TIER_PRO, BW_ROLE_MSSP);
    struct store_user b = dbfx_user("bob@example.com", BW_TIER_FREE, BW_ROLE_USER);
    snprintf(b.managed_by, sizeof b.managed_by, "%s", a.id);
    snprintf(b.created_at, sizeof b.created_at, "2026-01-02T00:00:00Z");
    assert_int_equal(store_user_insert(fx->db, &a), ST_OK);
    assert_int_equal(store_user_insert(fx->db, &b), ST_OK);

    /* the email is unique; so is the id */
    struct store_user dup = dbfx_user("alice@example.com", BW_TIER_FREE, BW_ROLE_USER);
    assert_int_equal(store_user_insert(fx->db, &dup), ST_CONFLICT);
    struct store_user dup_id = dbfx_user("carol@example.com", BW_TIER_FREE, BW_ROLE_USER);
    memcpy(dup_id.id, a.id, sizeof a.id);
    assert_int_equal(store_user_insert(fx->db, &dup_id), ST_CONFLICT);
    /* managed_by must name a user */
    struct store_user orphan = dbfx_user("dan@example.com", BW_TIER_FREE, BW_ROLE_USER);
    snprintf(orphan.managed_by, sizeof orphan.managed_by, "usr_doesnotexist");
    assert_int_equal(store_user_insert(fx->db, &orphan), ST_CONFLICT);

    struct store_user got;
    memset(&got, 0x55, sizeof got);
    assert_int_equal(store_user_by_email(fx->db, "alice@example.com", &got), ST_OK);
    assert_string_equal(got.id, a.id);
    assert_string_equal(got.email, a.email);
    assert_string_equal(got.password_hash, a.password_hash);
    assert_int_equal(got.tier, BW_TIER_PRO);
    assert_int_equal(got.role, BW_ROLE_MSSP);
    assert_string_equal(got.managed_by, "");
    assert_string_equal(got.created_at, "2026-01-01T00:00:00Z");

    assert_int_equal(store_user_by_id(fx->db, b.id, &got), ST_OK);
    assert_string_equal(got.email, "bob@example.com");
    assert_string_equal(got.managed_by, a.id);

    assert_int_equal(store_user_by_email(fx->db, "ALICE@example.com", &got), ST_NOTFOUND);
    assert_int_equal(store_user_by_email(fx->db, "nobody@example.com", &got), ST_NOTFOUND);
    assert_int_equal(store_user_by_id(fx->db, "usr_nope", &got), ST_NOTFOUND);
    /* parameters are bound, not spliced */
    assert_int_equal(store_user_by_email(fx->db, "' OR '1'='1", &got), ST_NOTFOUND);

    assert_int_equal(store_user_count(fx->db, &n), ST_OK);
    assert_int_equal(n, 2);

    struct store_user *all = NULL;
    size_t cnt = 0;
    assert_int_equal(store_user_list(fx->db, &all, &cnt), ST_OK);
    assert_int_equal(cnt, 2);
    assert_string_equal(all[0].id, a.id); /* oldest first */
    assert_string_equal(all[1].id, b.id);
    free(all);

    assert_int_equal(store_user_set_tier(fx->db, "bob@example.com", BW_TIER_ENTERPRISE), ST_OK);
    assert_int_equal(store_user_by_id(fx->db, b.id, &got), ST_OK);
    assert_int_equal(got.tier, BW_TIER_ENTERPRISE);
    assert_int_equal(store_user_set_tier(fx->db, "nobody@example.com", BW_TIER_PRO), ST_NOTFOUND);
    assert_int_equal(store_user_set_tier(fx->db, "bob@example.com", BW_TIER_FREE), ST_OK);
}

static void test_keys_limit_list_revoke(void **state)
{
    struct db_fixture *fx = *state;
    struct store_user u = dbfx_user("keys@example.com", BW_TIER_STARTER, BW_ROLE_USER);
    struct store_user other = dbfx_user("other@example.com", BW_TIER_FREE, BW_ROLE_USER);
    assert_int_equal(store_user_insert(fx->db, &u), ST_OK);
    assert_int_equal(store_user_insert(fx->db, &other), ST_OK);

    enum { MAX = 3 };
    struct store_key k[MAX + 1];
    char plain[MAX + 1][BW_KEY_LEN + 1];
    for (int i = 0; i < MAX; i++) {
        char label[16];
        snprintf(label, sizeof label, "key %d", i);
        k[i] = new_key(u.id, label, i, plain[i]);
        assert_int_equal(store_key_create(fx->db, &k[i], MAX), ST_OK);
    }
    /* at the limit */
    k[MAX] = new_key(u.id, "one too many", 10, plain[MAX]);
    assert_int_equal(store_key_create(fx->db, &k[MAX], MAX), ST_LIMIT);
    /* the other user has their own count */
    struct store_key ok = new_key(other.id, "theirs", 5, NULL);
    assert_int_equal(store_key_create(fx->db, &ok, 1), ST_OK);
    struct store_key ok2 = new_key(other.id, "theirs 2", 6, NULL);
    assert_int_equal(store_key_create(fx->db, &ok2, 1), ST_LIMIT);
    /* unknown user */
    struct store_key ghost = new_key("usr_ghost", "x", 7, NULL);
    assert_int_equal(store_key_create(fx->db, &ghost, 10), ST_NOTFOUND);
    /* the same hash twice */
    struct store_key same = new_key(u.id, "copy", 8, NULL);
    memcpy(same.hash, k[0].hash, sizeof same.hash);
    assert_int_equal(store_key_create(fx->db, &same, 100), ST_CONFLICT);

    /* list: newest first, only the caller's */
    struct store_key *list = NULL;
    size_t n = 0;
    assert_int_equal(store_key_list(fx->db, u.id, &list, &n), ST_OK);
    assert_int_equal(n, MAX);
    for (int i = 0; i < MAX; i++) {
        const struct store_key *e = &list[i];
        const struct store_key *want = &k[MAX - 1 - i];
        assert_string_equal(e->id, want->id);
        assert_string_equal(e->user_id, u.id);
        assert_string_equal(e->prefix, want->prefix);
        assert_string_equal(e->label, want->label);
        assert_string_equal(e->created_at, want->created_at);
        assert_true(e->active);
        assert_string_equal(e->last_used_at, "");
        assert_string_equal(e->rotated_from, "");
        assert_int_equal(e->tier, BW_TIER_STARTER);
    }
    free(list);
    assert_int_equal(store_key_list(fx->db, "usr_nobody", &list, &n), ST_OK);
    assert_int_equal(n, 0);
    free(list);

    /* lookup by hash: the active key with its owner's tier and role */
    struct store_key got;
    char h[65];
    bw_apikey_hash(plain[1], h);
    assert_int_equal(store_key_by_hash(fx->db, h, &got), ST_OK);
    assert_string_equal(got.id, k[1].id);
    assert_string_equal(got.user_id, u.id);
    assert_int_equal(got.tier, BW_TIER_STARTER);
    assert_int_equal(got.role, BW_ROLE_USER);
    bw_apikey_hash(plain[MAX], h); /* the refused one was not stored */
    assert_int_equal(store_key_by_hash(fx->db, h, &got), ST_NOTFOUND);

    /* get by id and by prefix; not across users */
    assert_int_equal(store_key_get(fx->db, u.id, k[2].id, &got), ST_OK);
    assert_string_equal(got.prefix, k[2].prefix);
    assert_int_equal(store_key_get(fx->db, u.id, k[2].prefix, &got), ST_OK);
    assert_string_equal(got.id, k[2].id);
    assert_int_equal(store_key_get(fx->db, other.id, k[2].id, &got), ST_NOTFOUND);
    assert_int_equal(store_key_revoke(fx->db, other.id, k[2].id, &got), ST_NOTFOUND);

    /* revoke: inactive, idempotent, no longer found by hash, frees a slot */
    assert_int_equal(store_key_revoke(fx->db, u.id, k[0].prefix, &got), ST_OK);
    assert_string_equal(got.id, k[0].id);
    assert_false(got.active);
    assert_int_equal(store_key_revoke(fx->db, u.id, k[0].id, &got), ST_OK);
    assert_false(got.active);
    assert_int_equal(store_key_get(fx->db, u.id, k[0].id, &got), ST_OK);
    assert_false(got.active);
    bw_apikey_hash(plain[0], h);
    assert_int_equal(store_key_by_hash(fx->db, h, &got), ST_NOTFOUND);
    assert_int_equal(store_key_revoke(fx->db, u.id, "key_nothere", &got), ST_NOTFOUND);

    assert_int_equal(store_key_create(fx->db, &k[MAX], MAX), ST_OK);
    struct store_key k5 = new_key(u.id, "still too many", 11, NULL);
    assert_int_equal(store_key_create(fx->db, &k5, MAX), ST_LIMIT);
    assert_int_equal(store_key_list(fx->db, u.id, &list, &n), ST_OK);
    assert_int_equal(n, MAX + 1); /* revoked keys are still listed */
    int active = 0;
    for (size_t i = 0; i < n; i++)
        active += list[i].active;
    assert_int_equal(active, MAX);
    free(list);

    /* touch */
    assert_int_equal(store_key_touch(fx->db, k[1].id, "2026-02-03T04:05:06Z"), ST_OK);
    assert_int_equal(store_key_get(fx->db, u.id, k[1].id, &got), ST_OK);
    assert_string_equal(got.last_used_at, "2026-02-03T04:05:06Z");
}

static void test_rotate(void **state)
{
    struct db_fixture *fx = *state;
    struct store_user u = dbfx_user("rotate@example.com", BW_TIER_FREE, BW_ROLE_ADMIN);
    assert_int_equal(store_user_insert(fx->db, &u), ST_OK);
    char p_old[BW_KEY_LEN + 1], p_new[BW_KEY_LEN + 1];
    struct store_key old = new_key(u.id, "ci deploy", 1, p_old);
    assert_int_equal(store_key_create(fx->db, &old, 1), ST_OK);

    /* rotating works at the limit: one key out, one in */
    struct store_key nk = new_key("usr_ignored", "ignored", 2, p_new);
    assert_int_equal(store_key_rotate(fx->db, u.id, old.prefix, &nk), ST_OK);
    assert_string_equal(nk.user_id, u.id);
    assert_string_equal(nk.label, "ci deploy");
    assert_string_equal(nk.rotated_from, old.prefix);
    assert_true(nk.active);
    assert_int_equal(nk.role, BW_ROLE_ADMIN);

    struct store_key got;
    char h[65];
    bw_apikey_hash(p_old, h);
    assert_int_equal(store_key_by_hash(fx->db, h, &got), ST_NOTFOUND);
    bw_apikey_hash(p_new, h);
    assert_int_equal(store_key_by_hash(fx->db, h, &got), ST_OK);
    assert_string_equal(got.id, nk.id);
    assert_string_equal(got.rotated_from, old.prefix);
    assert_string_equal(got.label, "ci deploy");
    assert_int_equal(store_key_get(fx->db, u.id, old.id, &got), ST_OK);
    assert_false(got.active);

    /* the revoked key cannot be rotated again; unknown keys are not found */
    struct store_key again = new_key(u.id, "x", 3, NULL);
    assert_int_equal(store_key_rotate(fx->db, u.id, old.id, &again), ST_CONFLICT);
    assert_int_equal(store_key_rotate(fx->db, u.id, "key_nothere", &again), ST_NOTFOUND);
    assert_int_equal(store_key_rotate(fx->db, "usr_nobody", nk.id, &again), ST_NOTFOUND);

    /* the failed rotations changed nothing */
    struct store_key *list = NULL;
    size_t n = 0;
    assert_int_equal(store_key_list(fx->db, u.id, &list, &n), ST_OK);
    assert_int_equal(n, 2);
    assert_string_equal(list[0].id, nk.id);
    assert_true(list[0].active);
    assert_string_equal(list[1].id, old.id);
    assert_false(list[1].active);
    free(list);
}

static void test_settings(void **state)
{
    struct db_fixture *fx = *state;
    char v[128];
    assert_int_equal(store_setting_get(fx->db, "jwt_secret", v, sizeof v), ST_NOTFOUND);
    assert_int_equal(store_setting_put_if_absent(fx->db, "jwt_secret", "first"), ST_OK);
    assert_int_equal(store_setting_put_if_absent(fx->db, "jwt_secret", "second"), ST_OK);
    assert_int_equal(store_setting_get(fx->db, "jwt_secret", v, sizeof v), ST_OK);
    assert_string_equal(v, "first");
    /* truncated to the buffer */
    char small[4];
    assert_int_equal(store_setting_get(fx->db, "jwt_secret", small, sizeof small), ST_OK);
    assert_string_equal(small, "fir");
}

struct race {
    struct db *db;
    const char *user_id;
    int ok, limit, other;
};

static void *race_worker(void *arg)
{
    struct race *rc = arg;
    for (int i = 0; i < 4; i++) {
        struct store_key k = new_key(rc->user_id, "race", 30, NULL);
        int r = store_key_create(rc->db, &k, 5);
        __atomic_add_fetch(r == ST_OK ? &rc->ok : r == ST_LIMIT ? &rc->limit : &rc->other, 1, __ATOMIC_SEQ_CST);
    }
    return NULL;
}

static void test_key_limit_under_concurrency(void **state)
{
    struct db_fixture *fx = *state;
    struct store_user u = dbfx_user("race@example.com", BW_TIER_STARTER, BW_ROLE_USER);
    assert_int_equal(store_user_insert(fx->db, &u), ST_OK);
    struct race rc = {.db = fx->db, .user_id = u.id};
    pthread_t t[6];
    for (int i = 0; i < 6; i++)
        assert_int_equal(pthread_create(&t[i], NULL, race_worker, &rc), 0);
    for (int i = 0; i < 6; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(rc.other, 0);
    assert_int_equal(rc.ok, 5);
    assert_int_equal(rc.limit, 6 * 4 - 5);
    struct store_key *list = NULL;
    size_t n = 0;
    assert_int_equal(store_key_list(fx->db, u.id, &list, &n), ST_OK);
    assert_int_equal(n, 5);
    free(list);
}

/* The asset list: keyset pages (after each page's last row) give the rows offset pages give, for
 * every filter combination, with ties on created_us broken by id; and every page statement reads
 * its index in order (2,000 rows, fresh statistics on PostgreSQL). */
static void test_asset_pages(void **state)
{
    struct db_fixture *fx = *state;
    bool pg = strcmp(db_backend(fx->db), "postgres") == 0;
    struct store_user u = dbfx_user("pages@example.com", BW_TIER_PRO, BW_ROLE_USER);
    assert_int_equal(store_user_insert(fx->db, &u), ST_OK);
    char sql[2048];
    const char *cols = "INSERT INTO assets (id, user_id, name, type, provider, endpoint, env, security_score, "
                       "risk_level, created_at, created_us) ";
    if (pg)
        snprintf(sql, sizeof sql,
                 "%s SELECT 'ast_' || lpad(g::text, 6, '0'), '%s', 'n', (ARRAY['model','agent','rag','api'])[1 + g %% 4], "
                 "NULL, 'https://x', 'prod', 50, (ARRAY['CRITICAL','HIGH','MEDIUM','LOW'])[1 + (g / 4) %% 4], "
                 "'2026-01-01T00:00:00Z', g / 3 FROM generate_series(1, 2000) g; ANALYZE assets",
                 cols, u.id);
    else
        snprintf(sql, sizeof sql,
                 "WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 2000) %s "
                 "SELECT 'ast_' || substr('00000' || x, -6), '%s', 'n', CASE x %% 4 WHEN 0 THEN 'model' WHEN 1 THEN "
                 "'agent' WHEN 2 THEN 'rag' ELSE 'api' END, NULL, 'https://x', 'prod', 50, CASE (x / 4) %% 4 WHEN 0 "
                 "THEN 'CRITICAL' WHEN 1 THEN 'HIGH' WHEN 2 THEN 'MEDIUM' ELSE 'LOW' END, '2026-01-01T00:00:00Z', "
                 "x / 3 FROM g; ANALYZE",
                 cols, u.id);
    struct db_conn *c = db_acquire(fx->db);
    assert_int_equal(db_exec_script(c, sql), DB_OK);
    db_release(c);
    for (int k = 0; k < 4; k++) {
        const char *type = k & 1 ? "rag" : NULL, *risk = k & 2 ? "HIGH" : NULL;
        int64_t total = 0, seen = 0, want = 0;
        struct store_page off = {.limit = 37}, key = {.limit = 37};
        char after[BW_CURSOR_ID_MAX + 1];
        for (;;) {
            struct store_asset *a = NULL, *b = NULL;
            size_t na = 0, nb = 0;
            assert_int_equal(store_asset_list(fx->db, u.id, type, risk, &off, &a, &na, &want), ST_OK);
            assert_int_equal(store_asset_list(fx->db, u.id, type, risk, &key, &b, &nb, &total), ST_OK);
            assert_int_equal(total, want);
            assert_int_equal(na, nb);
            for (size_t i = 0; i < na; i++) {
                assert_string_equal(a[i].id, b[i].id);
                if (type)
                    assert_string_equal(b[i].type, type);
                if (risk)
                    assert_string_equal(b[i].risk_level, risk);
            }
            assert_int_equal(off.more, key.more);
            seen += (int64_t)nb;
            free(a);
            free(b);
            if (!key.more)
                break;
            off.offset += 37;
            memcpy(after, key.last_id, sizeof after);
            key = (struct store_page){.limit = 37, .after_id = after, .after_int = key.last_int};
        }
        assert_int_equal(seen, want);
        assert_true(want >= 2000 / 16);
        for (int keyset = 0; keyset < 2; keyset++) {
            char plan[4096];
            assert_int_equal(store_asset_list_plan(fx->db, k & 1, k & 2, keyset, plan, sizeof plan), ST_OK);
            bool ok = pg ? strstr(plan, "Index Scan Backward using assets_page") && !strstr(plan, "Sort") &&
                               !strstr(plan, "Seq Scan")
                         : strstr(plan, "USING INDEX assets_page") && !strstr(plan, "TEMP B-TREE") &&
                               !strstr(plan, "SCAN assets\n");
            if (!ok)
                fail_msg("%s asset list plan (type:%d risk:%d keyset:%d) does not read an index in order:\n%s",
                         db_backend(fx->db), k & 1, (k & 2) != 0, keyset, plan);
        }
    }
}

/* The account's active-key count (users.active_keys) is kept in step with the keys by every change
 * of a key's state: create, revoke (twice: once counted), rotate, a failed create (rolled back),
 * disable; and it is what the cap is checked against. */
static int64_t kept_count(struct db *db, const char *uid)
{
    int64_t n = -1;
    struct db_param p[] = {DBP_TEXT(uid)};
    assert_int_equal(store_query_int(db, "SELECT active_keys FROM users WHERE id = ?", p, 1, &n), ST_OK);
    return n;
}

static void assert_count(struct db *db, const char *uid, int64_t want)
{
    int64_t real = -1;
    struct db_param p[] = {DBP_TEXT(uid)};
    assert_int_equal(store_query_int(db, "SELECT COUNT(*) FROM api_keys WHERE user_id = ? AND active = 1", p, 1, &real),
                     ST_OK);
    assert_int_equal(real, want);
    assert_int_equal(kept_count(db, uid), want);
}

static void test_key_active_count(void **state)
{
    struct db_fixture *fx = *state;
    struct store_user u = dbfx_user("keycount@example.com", BW_TIER_PRO, BW_ROLE_USER);
    assert_int_equal(store_user_insert(fx->db, &u), ST_OK);
    enum { MAX = 4 };
    struct store_key k[MAX + 2];
    for (int i = 0; i < MAX; i++) {
        k[i] = new_key(u.id, "k", 100 + i, NULL);
        assert_int_equal(store_key_create(fx->db, &k[i], MAX), ST_OK);
        assert_count(fx->db, u.id, i + 1);
    }
    k[MAX] = new_key(u.id, "over", 200, NULL);
    assert_int_equal(store_key_create(fx->db, &k[MAX], MAX), ST_LIMIT);
    assert_count(fx->db, u.id, MAX);
    struct store_key out;
    assert_int_equal(store_key_revoke(fx->db, u.id, k[0].prefix, &out), ST_OK);
    assert_count(fx->db, u.id, MAX - 1);
    assert_int_equal(store_key_revoke(fx->db, u.id, k[0].prefix, &out), ST_OK); /* already revoked */
    assert_count(fx->db, u.id, MAX - 1);
    struct store_key nk = new_key(u.id, "ignored", 201, NULL);
    assert_int_equal(store_key_rotate(fx->db, u.id, k[1].prefix, &nk), ST_OK);
    assert_count(fx->db, u.id, MAX - 1);
    /* a create that fails after the count was raised (the same hash) leaves it as it was */
    struct store_key same = new_key(u.id, "copy", 202, NULL);
    memcpy(same.hash, k[2].hash, sizeof same.hash);
    assert_int_equal(store_key_create(fx->db, &same, MAX), ST_CONFLICT);
    assert_count(fx->db, u.id, MAX - 1);
    k[MAX + 1] = new_key(u.id, "last", 203, NULL);
    assert_int_equal(store_key_create(fx->db, &k[MAX + 1], MAX), ST_OK);
    assert_count(fx->db, u.id, MAX);
    struct store_user d;
    assert_int_equal(store_user_disable(fx->db, u.email, &d), ST_OK);
    assert_count(fx->db, u.id, 0);
    assert_int_equal(store_user_enable(fx->db, u.email, &d), ST_OK);
    for (int i = 0; i < MAX; i++) {
        struct store_key again = new_key(u.id, "again", 300 + i, NULL);
        assert_int_equal(store_key_create(fx->db, &again, MAX), ST_OK);
    }
    assert_count(fx->db, u.id, MAX);
}

/* ---- backends -------------------------------------------------------------------------------- */

static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "store", "data", 4); }

static int sqlite_teardown(void **state)
{
    struct db_fixture *fx = *state;
    db_close(fx->db);
    fx->db = NULL;
    /* reopening the same file finds the migrations applied and the data kept */
    char err[256] = "", data[300];
    snprintf(data, sizeof data, "%.255s/data", fx->dir);
    struct db *db = NULL;
    int rc = db_open(NULL, data, 0, 4, &db, err, sizeof err);
    int64_t n = 0;
    if (rc == 0) {
        if (store_user_count(db, &n) != ST_OK || n == 0)
            rc = -1;
        db_close(db);
    }
    dbfx_sqlite_teardown(fx);
    return rc;
}

static int pg_setup(void **state) { return dbfx_pg_setup(&g_fx, state, "store", 8); }
static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }

PG_TEST(test_migrations)
PG_TEST(test_users)
PG_TEST(test_keys_limit_list_revoke)
PG_TEST(test_rotate)
PG_TEST(test_settings)
PG_TEST(test_key_limit_under_concurrency)
PG_TEST(test_asset_pages)
PG_TEST(test_key_active_count)

static void test_open_rejects_other_urls(void **state)
{
    (void)state;
    struct db *db = NULL;
    char err[256] = "";
    assert_int_equal(db_open("mysql://root@localhost/x", "/tmp", 0, 2, &db, err, sizeof err), -1);
    assert_null(db);
    assert_non_null(strstr(err, "postgres://"));
    err[0] = '\0';
    /* an unreachable PostgreSQL fails cleanly */
    assert_int_equal(db_open("postgresql://postgres@127.0.0.1:1/none?connect_timeout=2", NULL, 0, 2, &db, err,
                             sizeof err),
                     -1);
    assert_null(db);
    assert_true(err[0] != '\0');
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    bw_log_set_level(BW_LOG_ERROR + 1); /* keep migration/connect logs out of the test output */
    const struct CMUnitTest common[] = {
        cmocka_unit_test(test_open_rejects_other_urls),
    };
    const struct CMUnitTest sqlite[] = {
        cmocka_unit_test(test_migrations),
        cmocka_unit_test(test_users),
        cmocka_unit_test(test_keys_limit_list_revoke),
        cmocka_unit_test(test_rotate),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_key_limit_under_concurrency),
        cmocka_unit_test(test_asset_pages),
        cmocka_unit_test(test_key_active_count),
    };
    const struct CMUnitTest pg[] = {
        cmocka_unit_test(pg_test_migrations),
        cmocka_unit_test(pg_test_users),
        cmocka_unit_test(pg_test_keys_limit_list_revoke),
        cmocka_unit_test(pg_test_rotate),
        cmocka_unit_test(pg_test_settings),
        cmocka_unit_test(pg_test_key_limit_under_concurrency),
        cmocka_unit_test(pg_test_asset_pages),
        cmocka_unit_test(pg_test_key_active_count),
    };
    int failed = cmocka_run_group_tests_name("store_common", common, NULL, NULL);
    failed += cmocka_run_group_tests_name("store_sqlite", sqlite, sqlite_setup, sqlite_teardown);
    failed += cmocka_run_group_tests_name("store_postgres", pg, pg_setup, pg_teardown);
    return failed ? 1 : 0;
}
