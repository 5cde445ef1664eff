/* The one growable byte buffer (src/common/sbuf.h): appends, printf, reserving up front, handing
 * the text over, and the sticky out-of-memory state (an overflowing or impossible size). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/sbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Under ASan an impossible allocation is a report unless the allocator may answer NULL, which is
 * what the out-of-memory paths are about; other builds never call this. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static void appends_and_formats(void **state)
{
    (void)state;
    struct bw_sb b = {0};
    assert_string_equal(bw_sb_str(&b), "");
    bw_sb_puts(&b, "rule ");
    bw_sb_putn(&b, "idxx", 2);
    bw_sb_putc(&b, ':');
    bw_sb_printf(&b, " %d/%s", 42, "high");
    assert_string_equal(bw_sb_str(&b), "rule id: 42/high");
    assert_int_equal(b.len, strlen("rule id: 42/high"));
    for (int i = 0; i < 1000; i++) /* across several growths */
        bw_sb_printf(&b, "%03d", i % 1000);
    assert_int_equal(b.len, 16 + 3000);
    assert_memory_equal(b.p + 16 + 3 * 999, "999", 4); /* the NUL included */
    assert_false(b.oom);
    bw_sb_reset(&b);
    assert_string_equal(bw_sb_str(&b), "");
    assert_true(b.cap >= 3017); /* memory kept */
    free(b.p);
}

/* printf formats into the room left and formats again only when the text did not fit: each size
 * around the room (one short of it, exactly it with the NUL, one over) gives the whole text, and
 * nothing a cut first attempt wrote shows past the string. */
static void printf_around_the_room(void **state)
{
    (void)state;
    for (size_t extra = 0; extra < 3; extra++) {
        struct bw_sb b = {0};
        assert_true(bw_sb_grow(&b, 15));
        bw_sb_puts(&b, "ab");
        size_t room = b.cap - b.len; /* bytes free, the NUL's included */
        char want[1024];
        assert_true(room >= 2 && room < sizeof want - 2);
        size_t n = room - 2 + extra; /* fits with its NUL, fills the room exactly, one over */
        memset(want, 'x', n);
        want[n] = '\0';
        bw_sb_printf(&b, "%s", want);
        assert_false(b.oom);
        assert_int_equal(b.len, 2 + n);
        assert_memory_equal(b.p, "ab", 2);
        assert_memory_equal(b.p + 2, want, n + 1);
        bw_sb_putc(&b, '!');
        assert_int_equal(strlen(bw_sb_str(&b)), 3 + n);
        free(b.p);
    }
}

static void reserves_up_front(void **state)
{
    (void)state;
    struct bw_sb b = {0};
    assert_true(bw_sb_grow(&b, 10000));
    assert_true(b.cap >= 10001);
    char *p = b.p;
    for (int i = 0; i < 1000; i++)
        bw_sb_puts(&b, "0123456789");
    assert_ptr_equal(b.p, p); /* no reallocation within what was reserved */
    assert_int_equal(b.len, 10000);
    free(b.p);
}

static void takes_the_text(void **state)
{
    (void)state;
    struct bw_sb b = {0};
    char *s = bw_sb_take(&b);
    assert_non_null(s);
    assert_string_equal(s, ""); /* nothing appended: still a string to free */
    free(s);
    bw_sb_puts(&b, "payload");
    s = bw_sb_take(&b);
    assert_string_equal(s, "payload");
    assert_null(b.p);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 0);
    free(s);
}

static void out_of_memory_is_sticky(void **state)
{
    (void)state;
    /* a size that overflows, and one no address space holds */
    const size_t more[] = {SIZE_MAX, SIZE_MAX - 3, (size_t)1 << 60};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) {
        struct bw_sb b = {0};
        bw_sb_puts(&b, "kept");
        assert_false(bw_sb_grow(&b, more[i]));
        assert_true(b.oom);
        bw_sb_puts(&b, "more");
        bw_sb_printf(&b, "%d", 1);
        assert_int_equal(b.len, 4); /* later appends do nothing */
        assert_string_equal(bw_sb_str(&b), "");
        assert_false(bw_sb_grow(&b, 1));
        assert_null(bw_sb_take(&b)); /* frees what there was */
        assert_null(b.p);
        assert_false(b.oom); /* emptied: usable again */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(appends_and_formats),
        cmocka_unit_test(printf_around_the_room),
        cmocka_unit_test(reserves_up_front),
        cmocka_unit_test(takes_the_text),
        cmocka_unit_test(out_of_memory_is_sticky),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
