/* On-demand orchestrator packs (src/services/orch_cache.c) over the seed intel on SQLite: one
 * computation serves every pack of a scope until the ttl runs out; concurrent callers of a scope
 * share one computation (also with no ttl at all); scopes are apart; the number of scopes kept is
 * bounded; forgetting a scope computes it again. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "db_fixture.h"
#include "services/intel_ingest.h"
#include "services/orch_cache.h"
#include "store/store.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct db_fixture g_fx;
static const int64_t T = 1767225600; /* 2026-01-01T00:00:00Z */

static int setup(void **state)
{
    if (dbfx_sqlite_setup(&g_fx, state, "orchcache", NULL, 16) != 0)
        return -1;
    long loaded = 0;
    char why[256];
    if (bw_intel_seed_load(g_fx.db, &loaded, why, sizeof why) != 0 || loaded == 0) {
        print_error("seed: %s\n", why);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return dbfx_sqlite_teardown(&g_fx);
}

static void scope_of(struct bw_orch_scope *s, const char *owner)
{
    memset(s, 0, sizeof *s);
    if (!owner) {
        s->all = true;
        snprintf(s->kind, sizeof s->kind, "all");
        snprintf(s->key, sizeof s->key, "all");
        return;
    }
    snprintf(s->kind, sizeof s->kind, "account");
    snprintf(s->owner, sizeof s->owner, "%s", owner);
    snprintf(s->key, sizeof s->key, "acct:%s", owner);
    s->accounts = json_pack("[s]", owner);
}

/* The pack's text and its generated_at; the text is freed unless out is given. */
static void get(struct bw_orch_cache *c, const struct bw_orch_scope *s, enum store_orch_pack p, int64_t now,
                char at[32], char **out)
{
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(bw_orch_cache_get(c, s, p, now, &text, &len), ST_OK);
    assert_int_equal(strlen(text), len);
    json_t *j = json_loads(text, 0, NULL);
    assert_non_null(j);
    snprintf(at, 32, "%s", json_string_value(json_object_get(j, "generated_at")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "snapshot"), "source")), "on_demand");
    json_decref(j);
    if (out)
        *out = text;
    else
        free(text);
}

static void cached_until_the_ttl(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_orch_cache *c = bw_orch_cache_new(fx->db, NULL, 60);
    assert_non_null(c);
    struct bw_orch_scope all, acct;
    scope_of(&all, NULL);
    scope_of(&acct, "usr_cachetest1");
    char a1[32], a2[32], a3[32], b1[32];
    get(c, &all, STORE_PACK_HUNT, T, a1, NULL);
    assert_int_equal(bw_orch_cache_computations(c), 1);
    assert_string_equal(a1, "2026-01-01T00:00:00Z"); /* when it was computed */
    /* every pack of the scope, from that one computation, until the ttl is over */
    get(c, &all, STORE_PACK_CISO, T + 30, a2, NULL);
    get(c, &all, STORE_PACK_COMPLIANCE, T + 59, a3, NULL);
    assert_int_equal(bw_orch_cache_computations(c), 1);
    assert_string_equal(a2, a1);
    assert_string_equal(a3, a1);
    /* another scope is computed on its own */
    get(c, &acct, STORE_PACK_CISO, T + 59, b1, NULL);
    assert_int_equal(bw_orch_cache_computations(c), 2);
    /* the ttl is over: computed again */
    get(c, &all, STORE_PACK_ASPM, T + 60, a2, NULL);
    assert_int_equal(bw_orch_cache_computations(c), 3);
    assert_string_equal(a2, "2026-01-01T00:01:00Z");
    /* a clock stepped back does not make a computation from the future fresh */
    get(c, &all, STORE_PACK_ASPM, T + 10, a2, NULL);
    assert_int_equal(bw_orch_cache_computations(c), 4);
    /* forgotten (a run persisted a snapshot): computed again */
    bw_orch_cache_forget(c, "acct:usr_cachetest1");
    get(c, &acct, STORE_PACK_CISO, T + 61, b1, NULL);
    assert_int_equal(bw_orch_cache_computations(c), 5);
    get(c, &all, STORE_PACK_ASPM, T + 11, a2, NULL);
    assert_int_equal(bw_orch_cache_computations(c), 5);
    bw_orch_scope_free(&acct);
    bw_orch_cache_free(c);
}

static void an_mssp_with_other_accounts_is_another_scope(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_orch_cache *c = bw_orch_cache_new(fx->db, NULL, 60);
    struct bw_orch_scope m;
    scope_of(&m, "usr_mssp1");
    snprintf(m.kind, sizeof m.kind, "mssp");
    char at[32];
    get(c, &m, STORE_PACK_ASPM, T, at, NULL);
    json_array_append_new(m.accounts, json_string("usr_managed1")); /* it took on an account */
    get(c, &m, STORE_PACK_ASPM, T + 1, at, NULL);
    assert_int_equal(bw_orch_cache_computations(c), 2);
    char *text = NULL;
    get(c, &m, STORE_PACK_ASPM, T + 2, at, &text);
    assert_int_equal(bw_orch_cache_computations(c), 2);
    assert_non_null(strstr(text, "usr_managed1"));
    free(text);
    bw_orch_scope_free(&m);
    bw_orch_cache_free(c);
}

static void without_ttl_every_call_computes(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_orch_cache *c = bw_orch_cache_new(fx->db, NULL, 0);
    struct bw_orch_scope all;
    scope_of(&all, NULL);
    char at[32];
    get(c, &all, STORE_PACK_CISO, T, at, NULL);
    get(c, &all, STORE_PACK_CISO, T, at, NULL);
    assert_int_equal(bw_orch_cache_computations(c), 2);
    bw_orch_cache_free(c);
}

static void bounded_scopes(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_orch_cache *c = bw_orch_cache_new(fx->db, NULL, 3600);
    char at[32];
    struct bw_orch_scope s;
    /* one scope more than are kept: the oldest computation makes room */
    for (int i = 0; i <= BW_ORCH_PACK_CACHE_SCOPES; i++) {
        char owner[32];
        snprintf(owner, sizeof owner, "usr_bound%d", i);
        scope_of(&s, owner);
        get(c, &s, STORE_PACK_ASPM, T + i, at, NULL);
        bw_orch_scope_free(&s);
    }
    unsigned long n = bw_orch_cache_computations(c);
    assert_int_equal(n, BW_ORCH_PACK_CACHE_SCOPES + 1);
    scope_of(&s, "usr_bound1"); /* still kept */
    get(c, &s, STORE_PACK_ASPM, T + 100, at, NULL);
    bw_orch_scope_free(&s);
    assert_int_equal(bw_orch_cache_computations(c), n);
    scope_of(&s, "usr_bound0"); /* gone */
    get(c, &s, STORE_PACK_ASPM, T + 100, at, NULL);
    bw_orch_scope_free(&s);
    assert_int_equal(bw_orch_cache_computations(c), n + 1);
    bw_orch_cache_free(c);
}

#define CALLERS 8
struct caller {
    struct bw_orch_cache *c;
    pthread_barrier_t *go;
    int pack;
    char *text;
};

static void *call(void *arg)
{
    struct caller *k = arg;
    struct bw_orch_scope all;
    scope_of(&all, NULL);
    size_t len;
    pthread_barrier_wait(k->go);
    if (bw_orch_cache_get(k->c, &all, (enum store_orch_pack)k->pack, T, &k->text, &len) != ST_OK)
        k->text = NULL;
    return NULL;
}

/* No ttl, so only the sharing of a computation in progress can make these one computation (each
 * takes tenths of a second over the seed; the callers start together). */
static void concurrent_callers_share_one_computation(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_orch_cache *c = bw_orch_cache_new(fx->db, NULL, 0);
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, CALLERS);
    pthread_t th[CALLERS];
    struct caller k[CALLERS];
    for (int i = 0; i < CALLERS; i++) {
        k[i] = (struct caller){c, &go, i % 2 ? STORE_PACK_HUNT : STORE_PACK_CISO, NULL};
        assert_int_equal(pthread_create(&th[i], NULL, call, &k[i]), 0);
    }
    for (int i = 0; i < CALLERS; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&go);
    assert_int_equal(bw_orch_cache_computations(c), 1);
    for (int i = 0; i < CALLERS; i++) {
        assert_non_null(k[i].text);
        assert_string_equal(k[i].text, k[i % 2].text); /* the same bytes: one result */
    }
    for (int i = 0; i < CALLERS; i++)
        free(k[i].text);
    bw_orch_cache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cached_until_the_ttl),
        cmocka_unit_test(an_mssp_with_other_accounts_is_another_scope),
        cmocka_unit_test(without_ttl_every_call_computes),
        cmocka_unit_test(bounded_scopes),
        cmocka_unit_test(concurrent_callers_share_one_computation),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
