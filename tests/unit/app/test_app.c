/* The composition root's start checks (src/app/app.c): the sealing key a server opens with is the
 * one the database's secrets are sealed with. The first instance to start stores the check value;
 * the same key opens again (BULWARK_SECRET_KEY or the data directory's key file), any other key
 * is refused with a reason naming where it came from, and a refused start leaves the stored check
 * value as it was. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "app/app.h"
#include "common/seal.h"
#include "db_fixture.h"

#include <string.h>

#define KEY_A "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define KEY_B "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100"

static int setup(void **state)
{
    static struct db_fixture fx;
    return dbfx_sqlite_setup(&fx, state, "app", NULL, 2);
}

static int teardown(void **state) { return dbfx_sqlite_teardown(*state); }

static int open_with(struct db_fixture *fx, const char *key, struct bw_seal *seal, char *why, size_t cap)
{
    struct bw_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.secret_key = (char *)key;
    cfg.data_dir = fx->dir;
    why[0] = '\0';
    return bw_app_seal_open(&cfg, fx->db, seal, why, cap);
}

static void test_seal_key_checked(void **state)
{
    struct db_fixture *fx = *state;
    struct bw_seal seal, want;
    char why[512];
    assert_int_equal(bw_seal_key_parse(KEY_A, want.key), 0);

    /* the first start stores the check value of its key, and opens with that key */
    assert_int_equal(open_with(fx, KEY_A, &seal, why, sizeof why), 0);
    assert_memory_equal(seal.key, want.key, sizeof want.key);
    /* a restart with the same key opens */
    assert_int_equal(open_with(fx, KEY_A, &seal, why, sizeof why), 0);

    /* another key is refused, its source named, and nothing of it is kept */
    assert_int_equal(open_with(fx, KEY_B, &seal, why, sizeof why), -1);
    assert_non_null(strstr(why, "is not the key this database's secrets are sealed with"));
    assert_non_null(strstr(why, "BULWARK_SECRET_KEY"));
    static const struct bw_seal zero;
    assert_memory_equal(seal.key, zero.key, sizeof zero.key);

    /* without BULWARK_SECRET_KEY the data directory's key file is made (a new random key): refused
     * too, named as the file */
    assert_int_equal(open_with(fx, NULL, &seal, why, sizeof why), -1);
    assert_non_null(strstr(why, "the data directory's " BW_SEAL_KEY_FILE));

    /* the refusals changed nothing: the first key still opens */
    assert_int_equal(open_with(fx, KEY_A, &seal, why, sizeof why), 0);
    assert_memory_equal(seal.key, want.key, sizeof want.key);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_seal_key_checked, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
