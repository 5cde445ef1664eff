/* The access decision for every access level and kind of principal (tests/unit mirrors
 * src/auth/policy.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "auth/policy.h"

#include <string.h>

static struct bw_principal who(enum bw_auth_kind k, enum bw_tier t, enum bw_role r)
{
    struct bw_principal p;
    memset(&p, 0, sizeof p);
    p.kind = k;
    p.tier = t;
    p.role = r;
    if (k == BW_AUTH_JWT || k == BW_AUTH_APIKEY)
        strcpy(p.user_id, "usr_test");
    return p;
}

static enum bw_err check(enum bw_access a, struct bw_principal p) { return bw_policy_check(a, &p).err; }

static void test_public_levels_admit_everyone(void **state)
{
    (void)state;
    enum bw_access levels[] = {BW_ACCESS_OPEN, BW_ACCESS_PUBLIC, BW_ACCESS_LOGIN};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(check(levels[i], who(BW_AUTH_ANON, BW_TIER_FREE, BW_ROLE_USER)), BW_OK);
        assert_int_equal(check(levels[i], who(BW_AUTH_APIKEY, BW_TIER_FREE, BW_ROLE_USER)), BW_OK);
        assert_int_equal(check(levels[i], who(BW_AUTH_ADMINKEY, BW_TIER_ENTERPRISE, BW_ROLE_ADMIN)), BW_OK);
    }
}

static void test_session_needs_a_jwt(void **state)
{
    (void)state;
    assert_int_equal(check(BW_ACCESS_SESSION, who(BW_AUTH_JWT, BW_TIER_FREE, BW_ROLE_USER)), BW_OK);
    assert_int_equal(check(BW_ACCESS_SESSION, who(BW_AUTH_APIKEY, BW_TIER_ENTERPRISE, BW_ROLE_ADMIN)), BW_E_AUTH_REQUIRED);
    /* the admin key authenticated but may not act for an account: 403, not 401 */
    assert_int_equal(check(BW_ACCESS_SESSION, who(BW_AUTH_ADMINKEY, BW_TIER_ENTERPRISE, BW_ROLE_ADMIN)), BW_E_FORBIDDEN);
    assert_int_equal(check(BW_ACCESS_SESSION, who(BW_AUTH_ANON, BW_TIER_FREE, BW_ROLE_USER)), BW_E_AUTH_REQUIRED);
}

static void test_signed_in_takes_tokens_and_keys(void **state)
{
    (void)state;
    assert_int_equal(check(BW_ACCESS_SIGNED_IN, who(BW_AUTH_JWT, BW_TIER_FREE, BW_ROLE_USER)), BW_OK);
    assert_int_equal(check(BW_ACCESS_SIGNED_IN, who(BW_AUTH_APIKEY, BW_TIER_FREE, BW_ROLE_USER)), BW_OK);
    assert_int_equal(check(BW_ACCESS_SIGNED_IN, who(BW_AUTH_ANON, BW_TIER_FREE, BW_ROLE_USER)), BW_E_AUTH_REQUIRED);
    struct bw_principal adm = who(BW_AUTH_ADMINKEY, BW_TIER_ENTERPRISE, BW_ROLE_ADMIN);
    struct bw_decision d = bw_policy_check(BW_ACCESS_SIGNED_IN, &adm);
    assert_int_equal(d.err, BW_E_FORBIDDEN);
    assert_non_null(strstr(d.message, "X-API-Key")); /* says which credential the route takes */
}

static void test_tier_order(void **state)
{
    (void)state;
    struct {
        enum bw_access a;
        enum bw_tier need;
    } cases[] = {{BW_ACCESS_STARTER, BW_TIER_STARTER}, {BW_ACCESS_PRO, BW_TIER_PRO}};
    for (size_t c = 0; c < 2; c++) {
        for (int t = BW_TIER_FREE; t <= BW_TIER_ENTERPRISE; t++) {
            enum bw_err want = t >= (int)cases[c].need ? BW_OK : BW_E_TIER_REQUIRED;
            assert_int_equal(check(cases[c].a, who(BW_AUTH_JWT, (enum bw_tier)t, BW_ROLE_USER)), want);
            assert_int_equal(check(cases[c].a, who(BW_AUTH_APIKEY, (enum bw_tier)t, BW_ROLE_USER)), want);
        }
        struct bw_principal p = who(BW_AUTH_JWT, BW_TIER_FREE, BW_ROLE_USER);
        struct bw_decision d = bw_policy_check(cases[c].a, &p);
        assert_int_equal(d.required_tier, cases[c].need);
        assert_non_null(d.message);
        /* anonymous: 401, not 403 */
        assert_int_equal(check(cases[c].a, who(BW_AUTH_ANON, BW_TIER_FREE, BW_ROLE_USER)), BW_E_AUTH_REQUIRED);
        /* the admin key is not an account: 403 FORBIDDEN (it did authenticate) */
        assert_int_equal(check(cases[c].a, who(BW_AUTH_ADMINKEY, BW_TIER_ENTERPRISE, BW_ROLE_ADMIN)), BW_E_FORBIDDEN);
    }
}

static void test_privileged(void **state)
{
    (void)state;
    assert_int_equal(check(BW_ACCESS_PRIVILEGED, who(BW_AUTH_ADMINKEY, BW_TIER_ENTERPRISE, BW_ROLE_ADMIN)), BW_OK);
    assert_int_equal(check(BW_ACCESS_PRIVILEGED, who(BW_AUTH_JWT, BW_TIER_ENTERPRISE, BW_ROLE_USER)), BW_OK);
    assert_int_equal(check(BW_ACCESS_PRIVILEGED, who(BW_AUTH_APIKEY, BW_TIER_FREE, BW_ROLE_MSSP)), BW_OK);
    assert_int_equal(check(BW_ACCESS_PRIVILEGED, who(BW_AUTH_JWT, BW_TIER_STARTER, BW_ROLE_ADMIN)), BW_OK);
    assert_int_equal(check(BW_ACCESS_PRIVILEGED, who(BW_AUTH_JWT, BW_TIER_PRO, BW_ROLE_USER)), BW_E_TIER_REQUIRED);
    assert_int_equal(check(BW_ACCESS_PRIVILEGED, who(BW_AUTH_ANON, BW_TIER_FREE, BW_ROLE_USER)), BW_E_AUTH_REQUIRED);
    struct bw_principal p = who(BW_AUTH_APIKEY, BW_TIER_PRO, BW_ROLE_USER);
    assert_int_equal(bw_policy_check(BW_ACCESS_PRIVILEGED, &p).required_tier, BW_TIER_ENTERPRISE);
}

static void test_admin(void **state)
{
    (void)state;
    assert_int_equal(check(BW_ACCESS_ADMIN, who(BW_AUTH_ADMINKEY, BW_TIER_ENTERPRISE, BW_ROLE_ADMIN)), BW_OK);
    assert_int_equal(check(BW_ACCESS_ADMIN, who(BW_AUTH_JWT, BW_TIER_FREE, BW_ROLE_ADMIN)), BW_OK);
    assert_int_equal(check(BW_ACCESS_ADMIN, who(BW_AUTH_JWT, BW_TIER_ENTERPRISE, BW_ROLE_MSSP)), BW_E_FORBIDDEN);
    assert_int_equal(check(BW_ACCESS_ADMIN, who(BW_AUTH_ANON, BW_TIER_FREE, BW_ROLE_USER)), BW_E_AUTH_REQUIRED);
}

/* managed accounts: a session of role mssp or admin, whatever the tier; nothing else */
static void test_manager(void **state)
{
    (void)state;
    assert_int_equal(check(BW_ACCESS_MANAGER, who(BW_AUTH_JWT, BW_TIER_FREE, BW_ROLE_MSSP)), BW_OK);
    assert_int_equal(check(BW_ACCESS_MANAGER, who(BW_AUTH_JWT, BW_TIER_FREE, BW_ROLE_ADMIN)), BW_OK);
    assert_int_equal(check(BW_ACCESS_MANAGER, who(BW_AUTH_JWT, BW_TIER_ENTERPRISE, BW_ROLE_USER)), BW_E_FORBIDDEN);
    assert_int_equal(check(BW_ACCESS_MANAGER, who(BW_AUTH_APIKEY, BW_TIER_ENTERPRISE, BW_ROLE_ADMIN)), BW_E_AUTH_REQUIRED);
    assert_int_equal(check(BW_ACCESS_MANAGER, who(BW_AUTH_ADMINKEY, BW_TIER_ENTERPRISE, BW_ROLE_ADMIN)), BW_E_FORBIDDEN);
    assert_int_equal(check(BW_ACCESS_MANAGER, who(BW_AUTH_ANON, BW_TIER_FREE, BW_ROLE_USER)), BW_E_AUTH_REQUIRED);
    assert_string_equal(bw_access_name(BW_ACCESS_MANAGER), "manager");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_public_levels_admit_everyone),
        cmocka_unit_test(test_session_needs_a_jwt),
        cmocka_unit_test(test_manager),
        cmocka_unit_test(test_signed_in_takes_tokens_and_keys),
        cmocka_unit_test(test_tier_order),
        cmocka_unit_test(test_privileged),
        cmocka_unit_test(test_admin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
