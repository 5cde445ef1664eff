/* The bounded byte cache (src/common/bcache.c): hits copy out, replacement, both bounds, the
 * least recently used going first, and many threads at once. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/bcache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_get_put_replace(void **state)
{
    (void)state;
    struct bw_bcache *c = bw_bcache_new(64, 1 << 20);
    assert_non_null(c);
    char *v = NULL, tag[BW_BCACHE_TAG_MAX];
    size_t n = 0;
    assert_false(bw_bcache_get(c, "a 1", &v, &n, tag));
    assert_null(v);
    bw_bcache_put(c, "a 1", "hello", 5, "t1");
    assert_true(bw_bcache_get(c, "a 1", &v, &n, tag));
    assert_int_equal(n, 5);
    assert_string_equal(v, "hello"); /* NUL-terminated copy */
    assert_string_equal(tag, "t1");
    v[0] = 'X'; /* a copy: the cached value is untouched */
    free(v);
    assert_true(bw_bcache_get(c, "a 1", &v, &n, NULL));
    assert_string_equal(v, "hello");
    free(v);
    bw_bcache_put(c, "a 1", "bye", 3, "t2");
    assert_true(bw_bcache_get(c, "a 1", &v, &n, tag));
    assert_string_equal(v, "bye");
    assert_string_equal(tag, "t2");
    free(v);
    assert_false(bw_bcache_get(c, "a 2", &v, &n, NULL)); /* another version is another key */
    struct bw_bcache_stats st;
    bw_bcache_stats(c, &st);
    assert_int_equal(st.entries, 1);
    assert_int_equal(st.bytes, 3);
    assert_int_equal(st.hits, 3);
    assert_int_equal(st.misses, 2);
    bw_bcache_free(c);
}

/* Entries and bytes stay within their bounds; what goes is what was used least recently. */
static void test_bounds(void **state)
{
    (void)state;
    struct bw_bcache *c = bw_bcache_new(16 * 4, 16 * 1000); /* per shard: 4 entries, 1000 bytes */
    char key[32], val[300];
    memset(val, 'v', sizeof val);
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "k%d", i);
        bw_bcache_put(c, key, val, (size_t)(i % 3) * 100 + 1, NULL);
        /* k0 is read after every write: always the most recently used of its shard */
        char *v = NULL;
        size_t n;
        assert_true(bw_bcache_get(c, "k0", &v, &n, NULL));
        free(v);
    }
    struct bw_bcache_stats st;
    bw_bcache_stats(c, &st);
    assert_true(st.entries <= 64);
    assert_true(st.bytes <= 16000);
    assert_true(st.evictions > 0);
    /* a value larger than a shard's share is not kept */
    char *big = calloc(1, 2000);
    bw_bcache_put(c, "big", big, 2000, NULL);
    free(big);
    char *v = NULL;
    size_t n;
    assert_false(bw_bcache_get(c, "big", &v, &n, NULL));
    bw_bcache_free(c);
}

/* A full cache: every key kept answers its own value (keys share shards and hash buckets), every
 * replaced or evicted one is gone from its bucket, whatever its place in it. */
static void test_full(void **state)
{
    (void)state;
    enum { N = 4096 };
    struct bw_bcache *c = bw_bcache_new(N, 64L * N);
    char key[32], val[32], *v = NULL;
    size_t n;
    for (int i = 0; i < N; i++) {
        snprintf(key, sizeof key, "SYN-%07d %d", i, i % 7);
        int len = snprintf(val, sizeof val, "v%d", i);
        bw_bcache_put(c, key, val, (size_t)len, NULL);
    }
    struct bw_bcache_stats st;
    bw_bcache_stats(c, &st);
    int kept = (int)st.entries;
    assert_true(kept > N / 2); /* a shard holds a sixteenth: the uneven ones lost a few */
    int hits = 0;
    for (int i = 0; i < N; i++) { /* a third replaced: each then answers its new value */
        snprintf(key, sizeof key, "SYN-%07d %d", i, i % 7);
        if (!bw_bcache_get(c, key, &v, &n, NULL))
            continue;
        hits++;
        snprintf(val, sizeof val, "v%d", i);
        assert_string_equal(v, val);
        free(v);
        if (i % 3 == 0) {
            int len = snprintf(val, sizeof val, "w%d", i);
            bw_bcache_put(c, key, val, (size_t)len, NULL);
        }
    }
    assert_int_equal(hits, kept);
    for (int i = 0; i < 2 * N; i++) { /* twice as many new keys (every shard gets its share) */
        snprintf(key, sizeof key, "new %d", i);
        bw_bcache_put(c, key, "n", 1, NULL);
    }
    for (int i = 0; i < N; i++) { /* push every old one out, replaced or not */
        snprintf(key, sizeof key, "SYN-%07d %d", i, i % 7);
        assert_false(bw_bcache_get(c, key, &v, &n, NULL));
    }
    bw_bcache_stats(c, &st);
    assert_true(st.entries <= N);
    bw_bcache_free(c);
}

static void *hammer(void *arg)
{
    struct bw_bcache *c = arg;
    char key[32], val[64];
    for (int i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "r%d", i % 500);
        int len = snprintf(val, sizeof val, "value of %s", key);
        char *v = NULL;
        size_t n;
        if (bw_bcache_get(c, key, &v, &n, NULL)) {
            if (n != (size_t)len || memcmp(v, val, n) != 0)
                return (void *)1; /* a value under the wrong key, or torn */
            free(v);
        } else {
            bw_bcache_put(c, key, val, (size_t)len, NULL);
        }
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    struct bw_bcache *c = bw_bcache_new(256, 1 << 20);
    pthread_t t[8];
    for (int i = 0; i < 8; i++)
        assert_int_equal(pthread_create(&t[i], NULL, hammer, c), 0);
    for (int i = 0; i < 8; i++) {
        void *res = NULL;
        pthread_join(t[i], &res);
        assert_null(res);
    }
    bw_bcache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_get_put_replace),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_full),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
