/* Credential resolution (src/auth/auth.c) on a SQLite store: API keys found through the
 * per-process cache (keyed by a SipHash of the presented key) and session tokens judged by the
 * account's token generation; what a revocation, a disable, a password change or a deletion does
 * to what is cached, at once when the instance is told (forget_*) and within the cache's TTL when
 * it is not. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "auth/apikey.h"
#include "auth/auth.h"
#include "common/ids.h"
#include "common/log.h"
#include "db_fixture.h"
#include "store/store.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static struct db_fixture g_fx;
static const unsigned char SECRET[] = "unit-test-jwt-secret-of-some-length";

static struct store_user add_user(struct db *db, const char *email, enum bw_role role)
{
    struct store_user u = dbfx_user(email, BW_TIER_PRO, role);
    assert_int_equal(store_user_insert(db, &u), ST_OK);
    return u;
}

/* A new active key of u into key; returns its id in k. */
static void add_key(struct db *db, const struct store_user *u, char key[BW_KEY_LEN + 1], struct store_key *k)
{
    memset(k, 0, sizeof *k);
    bw_apikey_generate(key);
    bw_id_new("key_", k->id);
    snprintf(k->user_id, sizeof k->user_id, "%s", u->id);
    bw_apikey_hash(key, k->hash);
    bw_apikey_prefix(key, k->prefix);
    snprintf(k->label, sizeof k->label, "t");
    snprintf(k->created_at, sizeof k->created_at, "2026-01-01T00:00:00Z");
    assert_int_equal(store_key_create(db, k, 10), ST_OK);
}

static struct bw_auth *new_auth(struct db *db, long cache_ms)
{
    unsigned char admin[32] = {0};
    struct bw_auth *a = bw_auth_new(db, SECRET, sizeof SECRET - 1, admin, cache_ms);
    assert_non_null(a);
    return a;
}

/* bw_auth_resolve of one credential: the error, the principal and the failure kind. */
static enum bw_err with_key(struct bw_auth *a, const char *key, struct bw_principal *p, enum bw_auth_fail *f)
{
    const char *why = NULL;
    return bw_auth_resolve(a, NULL, key, p, &why, f);
}

static enum bw_err with_token(struct bw_auth *a, const char *tok, struct bw_principal *p, enum bw_auth_fail *f)
{
    char h[1024];
    snprintf(h, sizeof h, "Bearer %s", tok);
    const char *why = NULL;
    return bw_auth_resolve(a, h, NULL, p, &why, f);
}

static char *token(struct bw_auth *a, const struct store_user *u, int64_t gen)
{
    char *t = NULL;
    long exp = 0;
    assert_int_equal(bw_auth_issue_token(a, u->id, u->tier, u->role, gen, &t, &exp), 0);
    return t;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A key resolves to its account; a second resolution is served from the cache (the database row
 * is revoked behind the cache's back and still accepted) until the instance is told. */
static void test_key_cache_and_revocation(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct bw_auth *a = new_auth(db, 60000);
    struct store_user u = add_user(db, "k@example.com", BW_ROLE_USER);
    char key[BW_KEY_LEN + 1], other[BW_KEY_LEN + 1];
    struct store_key k, ko;
    add_key(db, &u, key, &k);
    add_key(db, &u, other, &ko);
    struct bw_principal p;
    enum bw_auth_fail f;
    assert_int_equal(with_key(a, key, &p, &f), BW_OK);
    assert_int_equal(p.kind, BW_AUTH_APIKEY);
    assert_string_equal(p.user_id, u.id);
    assert_string_equal(p.key_id, k.id);
    assert_int_equal(p.tier, BW_TIER_PRO);
    /* the other key of the same account is its own entry */
    assert_int_equal(with_key(a, other, &p, &f), BW_OK);
    assert_string_equal(p.key_id, ko.id);

    struct store_key rk;
    assert_int_equal(store_key_revoke(db, u.id, k.id, &rk), ST_OK);
    assert_int_equal(with_key(a, key, &p, &f), BW_OK); /* cached: no database read */
    assert_string_equal(p.key_id, k.id);
    bw_auth_forget_key(a, k.id);
    assert_int_equal(with_key(a, key, &p, &f), BW_E_AUTH_REQUIRED);
    assert_int_equal(f, BW_AUTH_FAIL_REVOKED);
    assert_int_equal(with_key(a, other, &p, &f), BW_OK); /* only that key was forgotten */

    /* a well-formed key nobody issued, and one that differs from a cached one by a character */
    char unknown[BW_KEY_LEN + 1];
    bw_apikey_generate(unknown);
    assert_int_equal(with_key(a, unknown, &p, &f), BW_E_AUTH_REQUIRED);
    assert_int_equal(f, BW_AUTH_FAIL_INVALID);
    char near[BW_KEY_LEN + 1];
    memcpy(near, other, sizeof near);
    near[10] = near[10] == 'a' ? 'b' : 'a';
    assert_int_equal(with_key(a, near, &p, &f), BW_E_AUTH_REQUIRED);
    bw_auth_free(a);
}

/* Without a cache every request reads the database: a revocation holds at once. */
static void test_key_no_cache(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct bw_auth *a = new_auth(db, 0);
    struct store_user u = add_user(db, "n@example.com", BW_ROLE_USER);
    char key[BW_KEY_LEN + 1];
    struct store_key k, rk;
    add_key(db, &u, key, &k);
    struct bw_principal p;
    enum bw_auth_fail f;
    assert_int_equal(with_key(a, key, &p, &f), BW_OK);
    assert_int_equal(store_key_revoke(db, u.id, k.id, &rk), ST_OK);
    assert_int_equal(with_key(a, key, &p, &f), BW_E_AUTH_REQUIRED);
    assert_int_equal(f, BW_AUTH_FAIL_REVOKED);
    bw_auth_free(a);
}

/* Disabling an account ends its keys and sessions: at once when told, within the TTL when not
 * (the CLI on SQLite cannot tell a running server). */
static void test_disable_within_ttl(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct bw_auth *a = new_auth(db, 150);
    add_user(db, "admin@example.com", BW_ROLE_ADMIN);
    struct store_user u = add_user(db, "d@example.com", BW_ROLE_USER), got;
    char key[BW_KEY_LEN + 1];
    struct store_key k;
    add_key(db, &u, key, &k);
    char *t = token(a, &u, 0);
    struct bw_principal p;
    enum bw_auth_fail f;
    assert_int_equal(with_key(a, key, &p, &f), BW_OK);
    assert_int_equal(with_token(a, t, &p, &f), BW_OK);
    assert_int_equal(p.kind, BW_AUTH_JWT);
    assert_int_equal(p.token_gen, 0);
    assert_int_equal(store_user_disable(db, "d@example.com", &got), ST_OK);
    assert_int_equal(with_key(a, key, &p, &f), BW_OK); /* not told: cached */
    sleep_ms(200);                                     /* past the TTL */
    assert_int_equal(with_key(a, key, &p, &f), BW_E_AUTH_REQUIRED);
    assert_int_equal(f, BW_AUTH_FAIL_REVOKED);
    assert_int_equal(with_token(a, t, &p, &f), BW_E_AUTH_REQUIRED);
    assert_int_equal(f, BW_AUTH_FAIL_REVOKED);
    /* enabled again: a token of the current generation works, the old one and the key do not */
    assert_int_equal(store_user_enable(db, "d@example.com", &got), ST_OK);
    bw_auth_forget_user(a, u.id);
    char *t2 = token(a, &u, got.token_gen);
    assert_int_equal(with_token(a, t2, &p, &f), BW_OK);
    assert_int_equal(with_token(a, t, &p, &f), BW_E_AUTH_REQUIRED);
    assert_int_equal(with_key(a, key, &p, &f), BW_E_AUTH_REQUIRED);
    free(t);
    free(t2);
    bw_auth_free(a);
}

/* A password change moves the generation on: earlier tokens end once the instance knows (told,
 * or shown a token of the newer generation, which makes it read the account again). */
static void test_generation(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct bw_auth *a = new_auth(db, 60000);
    struct store_user u = add_user(db, "g@example.com", BW_ROLE_USER);
    char *t0 = token(a, &u, 0);
    struct bw_principal p;
    enum bw_auth_fail f;
    assert_int_equal(with_token(a, t0, &p, &f), BW_OK);
    int64_t gen = -1;
    assert_int_equal(store_user_set_password(db, u.id, "new", 0, &gen), ST_OK);
    assert_int_equal(gen, 1);
    assert_int_equal(with_token(a, t0, &p, &f), BW_OK); /* not told yet: the cached generation */
    char *t1 = token(a, &u, gen);
    assert_int_equal(with_token(a, t1, &p, &f), BW_OK); /* newer than cached: read again */
    assert_int_equal(p.token_gen, 1);
    assert_int_equal(with_token(a, t0, &p, &f), BW_E_AUTH_REQUIRED);
    assert_int_equal(f, BW_AUTH_FAIL_REVOKED);
    /* a role change, told: the generation-1 token ends at once */
    struct store_user got;
    assert_int_equal(store_user_set_role(db, "g@example.com", BW_ROLE_MSSP, &got), ST_OK);
    assert_int_equal(got.token_gen, 2);
    bw_auth_forget_user(a, u.id);
    assert_int_equal(with_token(a, t1, &p, &f), BW_E_AUTH_REQUIRED);
    char *t2 = token(a, &got, got.token_gen);
    assert_int_equal(with_token(a, t2, &p, &f), BW_OK);
    assert_int_equal(p.role, BW_ROLE_MSSP);
    /* deleted: no token of it is accepted */
    assert_int_equal(store_user_delete(db, "g@example.com", &got), ST_OK);
    bw_auth_forget_user(a, u.id);
    assert_int_equal(with_token(a, t2, &p, &f), BW_E_AUTH_REQUIRED);
    assert_int_equal(f, BW_AUTH_FAIL_INVALID);
    free(t0);
    free(t1);
    free(t2);
    bw_auth_free(a);
}

/* Many keys, ten per account: each resolves to its own key and account, the second time round
 * from the cache; none is confused with another. */
/* HTTP Basic (TAXII routes): the password is the credential; Basic that cannot be read is a
 * credential sent and wrong (true with ""), another scheme or none is not Basic (false). */
static void test_basic_password(void **state)
{
    (void)state;
    char out[64];
    /* "user:svc_abc" and ":p:w" (a colon in the password stays) */
    assert_true(bw_auth_basic_password("Basic dXNlcjpzdmNfYWJj", out, sizeof out));
    assert_string_equal(out, "svc_abc");
    assert_true(bw_auth_basic_password("  basic   OnA6dw==  ", out, sizeof out));
    assert_string_equal(out, "p:w");
    static const char *const wrong[] = {"Basic ", "Basic !!!!", "Basic bm9jb2xvbg==" /* no colon */,
                                        "Basic dXNlcjo=" /* empty password */, "Basic dXNlcjphAGI=" /* NUL */};
    for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++) {
        assert_true(bw_auth_basic_password(wrong[i], out, sizeof out));
        assert_string_equal(out, "");
    }
    /* longer than the buffer: refused, never cut */
    assert_true(bw_auth_basic_password("Basic dTphYmNkZWZnaGlq", out, 8));
    assert_string_equal(out, "");
    assert_false(bw_auth_basic_password(NULL, out, sizeof out));
    assert_false(bw_auth_basic_password("Bearer abc", out, sizeof out));
    assert_false(bw_auth_basic_password("Basically", out, sizeof out));
}

static void test_many_keys(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    struct bw_auth *a = new_auth(db, 60000);
    enum { N = 40 };
    struct store_user us[4];
    static char keys[N][BW_KEY_LEN + 1];
    struct store_key ks[N];
    for (int i = 0; i < 4; i++) {
        char e[32];
        snprintf(e, sizeof e, "m%d@example.com", i);
        us[i] = add_user(db, e, BW_ROLE_USER);
    }
    for (int i = 0; i < N; i++)
        add_key(db, &us[i % 4], keys[i], &ks[i]);
    struct bw_principal p;
    enum bw_auth_fail f;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < N; i++) {
            assert_int_equal(with_key(a, keys[i], &p, &f), BW_OK);
            assert_string_equal(p.key_id, ks[i].id);
            assert_string_equal(p.user_id, us[i % 4].id);
        }
    bw_auth_free(a);
}

static int setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "auth", NULL, 2); }
static int teardown(void **state) { return dbfx_sqlite_teardown(*state); }

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    bw_log_set_level(BW_LOG_ERROR + 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_key_cache_and_revocation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_key_no_cache, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disable_within_ttl, setup, teardown),
        cmocka_unit_test_setup_teardown(test_generation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_many_keys, setup, teardown),
        cmocka_unit_test(test_basic_password),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
