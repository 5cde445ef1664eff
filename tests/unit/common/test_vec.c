/* The vector and its growth rule (src/common/vec.h): geometric growth, the caller's limit, the
 * overflow bound, and a failed reserve (past the limit, overflowing, out of memory) that leaves
 * the vector as it was. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Under ASan an impossible allocation is a report unless the allocator may answer NULL, which is
 * what the out-of-memory paths are about; other builds never call this. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static void grows_geometrically(void **state)
{
    (void)state;
    BW_VEC(int) v = {0};
    size_t grew = 0, last = 0;
    for (int i = 0; i < 1000; i++) {
        assert_true(bw_vec_reserve(&v, v.size + 1, BW_VEC_UNBOUNDED));
        v.entries[v.size++] = i;
        if (v.capacity != last) {
            assert_true(last == 0 ? v.capacity == 256 / sizeof(int) : v.capacity == 2 * last);
            last = v.capacity;
            grew++;
        }
    }
    assert_int_equal(v.size, 1000);
    assert_int_equal(v.capacity, 1024);
    assert_int_equal(grew, 5); /* 64, 128, 256, 512, 1024 */
    for (int i = 0; i < 1000; i++)
        assert_int_equal(v.entries[i], i);
    free(v.entries);
}

static void first_allocation_and_big_needs(void **state)
{
    (void)state;
    struct big {
        char b[1000];
    };
    BW_VEC(struct big) v = {0};
    assert_true(bw_vec_reserve(&v, 1, BW_VEC_UNBOUNDED));
    assert_int_equal(v.capacity, 16); /* never fewer than 16 elements */
    assert_true(bw_vec_reserve(&v, 100, BW_VEC_UNBOUNDED));
    assert_int_equal(v.capacity, 128);
    struct big *before = v.entries;
    assert_true(bw_vec_reserve(&v, 128, BW_VEC_UNBOUNDED)); /* room already: nothing moves */
    assert_ptr_equal(v.entries, before);
    assert_int_equal(v.capacity, 128);
    free(v.entries);

    BW_VEC(char) s = {0};
    assert_true(bw_vec_reserve(&s, 1000, BW_VEC_UNBOUNDED)); /* one step to the first fitting power */
    assert_int_equal(s.capacity, 1024);
    free(s.entries);
}

static void stops_at_the_limit(void **state)
{
    (void)state;
    BW_VEC(long) v = {0};
    for (size_t i = 0; i < 100; i++) {
        assert_true(bw_vec_reserve(&v, v.size + 1, 100));
        v.entries[v.size++] = (long)i;
    }
    assert_int_equal(v.capacity, 100); /* clamped to the limit, not doubled past it */
    long *before = v.entries;
    assert_false(bw_vec_reserve(&v, v.size + 1, 100));
    assert_ptr_equal(v.entries, before);
    assert_int_equal(v.size, 100);
    assert_int_equal(v.capacity, 100);
    assert_int_equal(v.entries[99], 99);
    free(v.entries);

    BW_VEC(int) z = {0};
    assert_false(bw_vec_reserve(&z, 1, 0)); /* a zero limit admits nothing */
    assert_null(z.entries);
    assert_int_equal(z.capacity, 0);
    assert_true(bw_vec_reserve(&z, 3, 5));
    assert_int_equal(z.capacity, 5); /* the first allocation is clamped too */
    free(z.entries);
}

static void refuses_sizes_that_overflow(void **state)
{
    (void)state;
    BW_VEC(uint64_t) v = {0};
    assert_true(bw_vec_reserve(&v, 4, BW_VEC_UNBOUNDED));
    v.entries[0] = 42;
    v.size = 1;
    uint64_t *before = v.entries;
    size_t cap = v.capacity;
    const size_t huge[] = {SIZE_MAX, SIZE_MAX / sizeof(uint64_t) + 1, (size_t)PTRDIFF_MAX / sizeof(uint64_t) + 1};
    for (size_t i = 0; i < sizeof huge / sizeof *huge; i++) {
        assert_false(bw_vec_reserve(&v, huge[i], BW_VEC_UNBOUNDED));
        assert_ptr_equal(v.entries, before);
        assert_int_equal(v.capacity, cap);
    }
    assert_int_equal(v.entries[0], 42);
    free(v.entries);
}

static void out_of_memory_leaves_it_as_it_was(void **state)
{
    (void)state;
    BW_VEC(char) v = {0};
    assert_true(bw_vec_reserve(&v, 3, BW_VEC_UNBOUNDED));
    memcpy(v.entries, "ab", 3);
    v.size = 3;
    char *before = v.entries;
    size_t cap = v.capacity;
    /* within the overflow bound, but more than any address space holds */
    assert_false(bw_vec_reserve(&v, (size_t)1 << 60, BW_VEC_UNBOUNDED));
    assert_ptr_equal(v.entries, before);
    assert_int_equal(v.capacity, cap);
    assert_string_equal(v.entries, "ab");
    assert_true(bw_vec_reserve(&v, 4, BW_VEC_UNBOUNDED)); /* and it still works */
    free(v.entries);
}

/* A struct that names its fields otherwise grows by the same rule. */
static void reserve_on_named_fields(void **state)
{
    (void)state;
    struct {
        short *v;
        size_t n, cap;
    } l = {0};
    for (short i = 0; i < 300; i++) {
        assert_true(BW_VEC_RESERVE(l.v, l.cap, l.n + 1, 1000));
        l.v[l.n++] = i;
    }
    assert_int_equal(l.cap, 512);
    assert_int_equal(l.v[299], 299);
    assert_false(BW_VEC_RESERVE(l.v, l.cap, 1001, 1000));
    assert_int_equal(l.cap, 512);
    free(l.v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grows_geometrically),
        cmocka_unit_test(first_allocation_and_big_needs),
        cmocka_unit_test(stops_at_the_limit),
        cmocka_unit_test(refuses_sizes_that_overflow),
        cmocka_unit_test(out_of_memory_leaves_it_as_it_was),
        cmocka_unit_test(reserve_on_named_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
