/* API keys: format, checksum, hashing and the shown prefix (src/auth/apikey.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "auth/apikey.h"

#include <stdlib.h>
#include <string.h>

static const char B62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static int is_b62(char c) { return c && strchr(B62, c) != NULL; }

/* A different base62 character than c. */
static char other_b62(char c) { return c == 'A' ? 'B' : 'A'; }

static void test_generated_keys_are_wellformed(void **state)
{
    (void)state;
    char k[BW_KEY_LEN + 1];
    memset(k, 'X', sizeof k);
    bw_apikey_generate(k);
    assert_int_equal(BW_KEY_LEN, 42);
    assert_int_equal(strlen(k), 42);
    assert_memory_equal(k, "svc_", 4);
    for (size_t i = 4; i < 42; i++)
        assert_true(is_b62(k[i]));
    assert_true(bw_apikey_wellformed(k));
    assert_true(bw_apikey_wellformed_n(k, 42));
}

static int cmp_keys(const void *a, const void *b) { return strcmp(a, b); }

static void test_generated_keys_are_unique(void **state)
{
    (void)state;
    enum { N = 1000 };
    char(*keys)[BW_KEY_LEN + 1] = calloc(N, sizeof *keys);
    assert_non_null(keys);
    for (int i = 0; i < N; i++) {
        bw_apikey_generate(keys[i]);
        assert_true(bw_apikey_wellformed(keys[i]));
    }
    qsort(keys, N, sizeof *keys, cmp_keys);
    for (int i = 1; i < N; i++)
        assert_string_not_equal(keys[i - 1], keys[i]);
    free(keys);
}

static void test_one_flipped_char_is_rejected(void **state)
{
    (void)state;
    /* every position of the random part and of the checksum, over several keys */
    for (int round = 0; round < 20; round++) {
        char k[BW_KEY_LEN + 1];
        bw_apikey_generate(k);
        for (size_t i = 4; i < BW_KEY_LEN; i++) {
            char m[BW_KEY_LEN + 1];
            memcpy(m, k, sizeof m);
            m[i] = other_b62(m[i]);
            if (bw_apikey_wellformed(m)) {
                /* CRC32 detects every single-character change of the 36-byte head; a change in
                 * the checksum itself can never match */
                fail_msg("key %s with position %zu changed (%s) still passes", k, i, m);
            }
        }
        /* swapping case of a letter is a different key too */
        char m[BW_KEY_LEN + 1];
        memcpy(m, k, sizeof m);
        for (size_t i = 4; i < 4 + BW_KEY_RANDOM_LEN; i++) {
            if (m[i] >= 'a' && m[i] <= 'z') {
                m[i] = (char)(m[i] - 'a' + 'A');
                assert_false(bw_apikey_wellformed(m));
                break;
            }
        }
    }
}

static void test_known_key_checksum(void **state)
{
    (void)state;
    /* head "svc_" + 32 x '0': the checksum is the CRC32 of these 36 bytes in 6 base62 digits,
     * most significant first. Computed independently here. */
    char head[37];
    memcpy(head, "svc_", 4);
    memset(head + 4, '0', 32);
    head[36] = '\0';
    /* bitwise CRC32 (IEEE 802.3, reflected, as zlib) */
    uint32_t crc = 0xFFFFFFFFu;
    for (int i = 0; i < 36; i++) {
        crc ^= (unsigned char)head[i];
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    crc ^= 0xFFFFFFFFu;
    char key[43];
    memcpy(key, head, 36);
    unsigned long c = crc;
    for (int i = 5; i >= 0; i--) {
        key[36 + i] = B62[c % 62];
        c /= 62;
    }
    key[42] = '\0';
    assert_true(bw_apikey_wellformed(key));
    key[41] = other_b62(key[41]);
    assert_false(bw_apikey_wellformed(key));
}

static void test_wrong_shapes_are_rejected(void **state)
{
    (void)state;
    char k[BW_KEY_LEN + 1];
    bw_apikey_generate(k);
    char m[64];

    /* wrong prefix, same length, checksum recomputed would not matter: prefix checked first */
    const char *prefixes[] = {"SVC_", "svc-", "sk__", "svc:", "xvc_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
        memcpy(m, k, sizeof k);
        memcpy(m, prefixes[i], 4);
        assert_false(bw_apikey_wellformed(m));
    }

    /* too short, too long */
    memcpy(m, k, sizeof k);
    m[41] = '\0';
    assert_false(bw_apikey_wellformed(m));
    memcpy(m, k, sizeof k);
    m[42] = 'a';
    m[43] = '\0';
    assert_false(bw_apikey_wellformed(m));
    assert_false(bw_apikey_wellformed(""));
    assert_false(bw_apikey_wellformed("svc_"));
    assert_false(bw_apikey_wellformed(NULL));

    /* the _n form looks at exactly n bytes */
    assert_true(bw_apikey_wellformed_n(k, 42));
    assert_false(bw_apikey_wellformed_n(k, 41));
    memcpy(m, k, sizeof k);
    m[42] = 'Z';
    assert_true(bw_apikey_wellformed_n(m, 42));
    assert_false(bw_apikey_wellformed_n(m, 43));
    assert_false(bw_apikey_wellformed_n(k, 0));

    /* non-base62 characters anywhere after the prefix */
    const char bad[] = {'-', '_', '+', '/', '=', ' ', '.', '\0', (char)0xC3, '\n'};
    for (size_t b = 0; b < sizeof bad; b++) {
        for (size_t i = 4; i < BW_KEY_LEN; i += 7) {
            memcpy(m, k, sizeof k);
            m[i] = bad[b];
            assert_false(bw_apikey_wellformed_n(m, 42));
        }
    }
}

static int is_lower_hex(const char *s)
{
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return 0;
    return 1;
}

static void test_hash(void **state)
{
    (void)state;
    char k[BW_KEY_LEN + 1], h1[65], h2[65], h3[65];
    bw_apikey_generate(k);
    memset(h1, 'x', sizeof h1);
    bw_apikey_hash(k, h1);
    assert_int_equal(strlen(h1), 64);
    assert_true(is_lower_hex(h1));
    bw_apikey_hash(k, h2);
    assert_string_equal(h1, h2);

    char k2[BW_KEY_LEN + 1];
    bw_apikey_generate(k2);
    bw_apikey_hash(k2, h3);
    assert_string_not_equal(h1, h3);

    /* it is SHA-256: the known digest of "abc" */
    bw_apikey_hash("abc", h3);
    assert_string_equal(h3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    bw_apikey_hash("", h3);
    assert_string_equal(h3, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_prefix(void **state)
{
    (void)state;
    char k[BW_KEY_LEN + 1], p[BW_KEY_SHOWN_PREFIX + 1];
    bw_apikey_generate(k);
    memset(p, 'x', sizeof p);
    bw_apikey_prefix(k, p);
    assert_int_equal(strlen(p), 12);
    assert_memory_equal(p, k, 12);
    assert_memory_equal(p, "svc_", 4);

    /* shorter input is copied whole */
    bw_apikey_prefix("svc_ab", p);
    assert_string_equal(p, "svc_ab");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_keys_are_wellformed),
        cmocka_unit_test(test_generated_keys_are_unique),
        cmocka_unit_test(test_one_flipped_char_is_rejected),
        cmocka_unit_test(test_known_key_checksum),
        cmocka_unit_test(test_wrong_shapes_are_rejected),
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
