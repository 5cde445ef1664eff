/* Secrets sealed at rest: round trips, a wrong key or an altered value opens nothing, the key
 * formats, the key file (created 0600, a readable one refused) and the check value. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/seal.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void key(struct bw_seal *k, unsigned char b)
{
    memset(k->key, b, sizeof k->key);
}

static void round_trip_and_wrong_key(void **state)
{
    (void)state;
    struct bw_seal a, b;
    key(&a, 1);
    key(&b, 2);
    const char *secret = "sk-ant-api03-secret-value";
    char *s1 = bw_seal_text(&a, secret, strlen(secret)), *s2 = bw_seal_text(&a, secret, strlen(secret));
    assert_non_null(s1);
    assert_non_null(strstr(s1, "v1.") == s1 ? s1 : NULL);
    assert_null(strstr(s1, "secret-value"));
    assert_string_not_equal(s1, s2); /* a fresh nonce each time */
    size_t n = 0;
    char *p = bw_unseal_text(&a, s1, &n);
    assert_string_equal(p, secret);
    assert_int_equal(n, strlen(secret));
    bw_unsealed_free(p);
    assert_null(bw_unseal_text(&b, s1, NULL)); /* another key opens nothing */
    /* one altered character anywhere is refused */
    for (size_t i = 3; s1[i]; i++) {
        char save = s1[i];
        s1[i] = save == 'A' ? 'B' : 'A';
        char *q = bw_unseal_text(&a, s1, NULL);
        assert_null(q);
        s1[i] = save;
    }
    assert_null(bw_unseal_text(&a, "v1.", NULL));
    assert_null(bw_unseal_text(&a, "plaintext", NULL));
    assert_null(bw_unseal_text(&a, NULL, NULL));
    free(s1);
    free(s2);
    /* the check value */
    char *chk = bw_seal_text(&a, BW_SEAL_CHECK_TEXT, strlen(BW_SEAL_CHECK_TEXT));
    assert_true(bw_seal_check_ok(&a, chk));
    assert_false(bw_seal_check_ok(&b, chk));
    free(chk);
    char *other = bw_seal_text(&a, "something else", 14);
    assert_false(bw_seal_check_ok(&a, other));
    free(other);
}

static void key_formats(void **state)
{
    (void)state;
    unsigned char k[BW_SEAL_KEY_BYTES];
    assert_int_equal(bw_seal_key_parse("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n", k), 0);
    assert_int_equal(k[31], 0x1f);
    assert_int_equal(bw_seal_key_parse("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", k), 0);
    assert_int_equal(k[5], 5);
    assert_int_equal(bw_seal_key_parse("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", k), 0);
    assert_int_equal(bw_seal_key_parse("too short", k), -1);
    assert_int_equal(bw_seal_key_parse("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e", k), -1);
    assert_int_equal(bw_seal_key_parse("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gIQ==", k), -1); /* 34 bytes */
    assert_int_equal(bw_seal_key_parse(NULL, k), -1);
}

static void key_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/bw-seal-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[64], path[128];
    snprintf(sub, sizeof sub, "%s/data", dir);
    snprintf(path, sizeof path, "%s/%s", sub, BW_SEAL_KEY_FILE);
    struct bw_seal a, b;
    bool insecure = true;
    char why[512];
    /* first start: created, 0600, in a 0700 directory */
    assert_int_equal(bw_seal_key_load(NULL, sub, false, &a, &insecure, why, sizeof why), 0);
    assert_false(insecure);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(stat(sub, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    /* the next start reads the same key */
    assert_int_equal(bw_seal_key_load("", sub, false, &b, &insecure, why, sizeof why), 0);
    assert_memory_equal(a.key, b.key, sizeof a.key);
    /* the environment wins over the file */
    assert_int_equal(bw_seal_key_load("0101010101010101010101010101010101010101010101010101010101010101", sub, false, &b,
                                      &insecure, why, sizeof why),
                     0);
    assert_int_equal(b.key[0], 1);
    assert_int_equal(bw_seal_key_load("nope", sub, false, &b, &insecure, why, sizeof why), -1);
    assert_non_null(strstr(why, "BULWARK_SECRET_KEY"));
    /* readable by others: refused, or a warning when allowed */
    assert_int_equal(chmod(path, 0644), 0);
    assert_int_equal(bw_seal_key_load(NULL, sub, false, &b, &insecure, why, sizeof why), -1);
    assert_non_null(strstr(why, "chmod 600"));
    assert_int_equal(bw_seal_key_load(NULL, sub, true, &b, &insecure, why, sizeof why), 0);
    assert_true(insecure);
    /* a broken file is refused, not replaced */
    FILE *f = fopen(path, "w");
    fputs("garbage\n", f);
    fclose(f);
    assert_int_equal(chmod(path, 0600), 0);
    assert_int_equal(bw_seal_key_load(NULL, sub, false, &b, &insecure, why, sizeof why), -1);
    /* bw_seal_key_write replaces it whole, 0600 */
    assert_int_equal(bw_seal_key_write(path, a.key), 0);
    assert_int_equal(bw_seal_key_load(NULL, sub, false, &b, &insecure, why, sizeof why), 0);
    assert_memory_equal(a.key, b.key, sizeof a.key);
    unlink(path);
    rmdir(sub);
    rmdir(dir);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_and_wrong_key),
        cmocka_unit_test(key_formats),
        cmocka_unit_test(key_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
