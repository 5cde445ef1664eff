/* The in-flight caps of password checks (src/auth/inflight.c): per key, bounded table. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "auth/inflight.h"

#include <sodium.h>
#include <stdio.h>

static void test_cap_per_key(void **state)
{
    (void)state;
    struct bw_inflight *f = bw_inflight_new(8);
    assert_non_null(f);
    assert_int_equal(BW_INFLIGHT_OK, bw_inflight_enter(f, "e:a@b.c", 2));
    assert_int_equal(BW_INFLIGHT_OK, bw_inflight_enter(f, "e:a@b.c", 2));
    assert_int_equal(bw_inflight_enter(f, "e:a@b.c", 2), BW_INFLIGHT_CAP);
    assert_int_equal(bw_inflight_count(f, "e:a@b.c"), 2);
    /* other keys are counted apart */
    assert_int_equal(BW_INFLIGHT_OK, bw_inflight_enter(f, "i:127.0.0.1", 2));
    bw_inflight_leave(f, "e:a@b.c");
    assert_int_equal(BW_INFLIGHT_OK, bw_inflight_enter(f, "e:a@b.c", 2));
    bw_inflight_leave(f, "e:a@b.c");
    bw_inflight_leave(f, "e:a@b.c");
    assert_int_equal(bw_inflight_count(f, "e:a@b.c"), 0);
    assert_int_equal(bw_inflight_count(f, "i:127.0.0.1"), 1);
    /* leaving a key that is not in flight is harmless */
    bw_inflight_leave(f, "e:nobody");
    assert_int_equal(bw_inflight_enter(f, "e:zero", 0), BW_INFLIGHT_CAP);
    bw_inflight_free(f);
}

/* The table holds `slots` keys at once and refuses more; keys that leave free their slot. */
static void test_bounded(void **state)
{
    (void)state;
    struct bw_inflight *f = bw_inflight_new(4);
    char k[32];
    for (int i = 0; i < 4; i++) {
        snprintf(k, sizeof k, "k%d", i);
        assert_int_equal(BW_INFLIGHT_OK, bw_inflight_enter(f, k, 1));
    }
    assert_int_equal(bw_inflight_enter(f, "k4", 1), BW_INFLIGHT_FULL);
    /* a key already held is still counted up to its cap */
    assert_int_equal(bw_inflight_enter(f, "k1", 2), BW_INFLIGHT_OK);
    bw_inflight_leave(f, "k2");
    assert_int_equal(BW_INFLIGHT_OK, bw_inflight_enter(f, "k4", 1));
    bw_inflight_free(f);
}

/* Many keys entering and leaving in a scrambled order: every count stays right (the deletion keeps
 * probe chains whole). */
static void test_churn(void **state)
{
    (void)state;
    enum { N = 3000 };
    struct bw_inflight *f = bw_inflight_new(N);
    static int have[N];
    char k[32];
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < N; i++) {
            snprintf(k, sizeof k, "i:10.0.%d.%d", i / 256, i % 256);
            if (randombytes_uniform(2)) {
                assert_int_equal(BW_INFLIGHT_OK, bw_inflight_enter(f, k, 3) == (have[i] < 3));
                if (have[i] < 3)
                    have[i]++;
            } else if (have[i]) {
                bw_inflight_leave(f, k);
                have[i]--;
            }
        }
        for (int i = 0; i < N; i++) {
            snprintf(k, sizeof k, "i:10.0.%d.%d", i / 256, i % 256);
            assert_int_equal(bw_inflight_count(f, k), have[i]);
        }
    }
    bw_inflight_free(f);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cap_per_key),
        cmocka_unit_test(test_bounded),
        cmocka_unit_test(test_churn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
