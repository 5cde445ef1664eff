/* KQL text pieces (src/engine/intel/kql.c): string literals that mean exactly their text (quotes,
 * backslashes, line breaks, control characters), verbatim literals, lists, the any-of filter,
 * comments that cannot end their line early, and the head of a query. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/intel/kql.h"

#include <stdlib.h>
#include <string.h>

struct text_case {
    const char *in, *want;
};

/* Each case through fn, on its own, into one reused buffer. */
static void check_cases(void (*fn)(struct bw_sb *, const char *), const struct text_case *cases, size_t n)
{
    struct bw_sb b = {0};
    for (size_t i = 0; i < n; i++) {
        bw_sb_reset(&b);
        fn(&b, cases[i].in);
        assert_false(b.oom);
        assert_string_equal(bw_sb_str(&b), cases[i].want);
    }
    free(b.p);
}

static void string_literals(void **state)
{
    (void)state;
    static const struct text_case cases[] = {
        {"", "\"\""},
        {"mlflow", "\"mlflow\""},
        {"say \"hi\"", "\"say \\\"hi\\\"\""},
        {"C:\\Windows\\", "\"C:\\\\Windows\\\\\""},
        /* a backslash before a quote stays two escapes, never one that eats the quote */
        {"\\\"", "\"\\\\\\\"\""},
        {"a\nb\rc\td", "\"a\\nb\\rc\\td\""},
        /* other controls have no escape: spaces, so the literal stays on one line */
        {"x\x01y\x1fz\x0b", "\"x y z \""},
        /* single quotes need nothing in a double-quoted literal; UTF-8 passes through */
        {"it's \xc3\xa9t\xc3\xa9 \xe2\x80\xa8", "\"it's \xc3\xa9t\xc3\xa9 \xe2\x80\xa8\""},
    };
    check_cases(bw_kql_str, cases, sizeof cases / sizeof *cases);
}

static void verbatim_literals(void **state)
{
    (void)state;
    static const struct text_case cases[] = {
        {"(?i)\\.\\./|%2e%2e", "@\"(?i)\\.\\./|%2e%2e\""},
        {"a\"b\"\"", "@\"a\"\"b\"\"\"\"\""},
        {"x\ny", "@\"x y\""},
        {"", "@\"\""},
    };
    check_cases(bw_kql_verbatim, cases, sizeof cases / sizeof *cases);
}

/* What b holds is want; then b is emptied for the next piece. */
static void expect(struct bw_sb *b, const char *want)
{
    assert_false(b->oom);
    assert_string_equal(bw_sb_str(b), want);
    bw_sb_reset(b);
}

static void lists_and_any(void **state)
{
    (void)state;
    struct bw_sb b = {0};
    static const char *const items[] = {"sh", "cmd.exe", "a\"b"};
    bw_kql_list(&b, items, 3);
    expect(&b, "(\"sh\", \"cmd.exe\", \"a\\\"b\")");
    bw_kql_list(&b, items, 1);
    expect(&b, "(\"sh\")");
    bw_kql_list(&b, NULL, 0);
    expect(&b, "()");

    static const char *const cols[] = {"csHost", "csUriStem"};
    static const char *const vals[] = {"ray", "x\\y"};
    bw_kql_any(&b, cols, 2, vals, 2);
    expect(&b, "(csHost contains \"ray\" or csUriStem contains \"ray\" or "
               "csHost contains \"x\\\\y\" or csUriStem contains \"x\\\\y\")");
    bw_kql_any(&b, cols, 1, vals, 1);
    expect(&b, "(csHost contains \"ray\")");
    free(b.p);
}

static void comments(void **state)
{
    (void)state;
    static const struct text_case cases[] = {
        {"Langflow: code injection", "Langflow: code injection"},
        /* every way to end a line: LF, CR, VT, FF, NEL, LS, PS */
        {"a\nb\rc\vd\fe\xc2\x85" "f\xe2\x80\xa8g\xe2\x80\xa9h", "a b c d e f g h"},
        /* other text of those lead bytes is kept */
        {"\xc2\xa9 \xe2\x80\x94 \xe2\x80", "\xc2\xa9 \xe2\x80\x94 \xe2\x80"},
        {"quote \" and \\ stay", "quote \" and \\ stay"},
    };
    check_cases(bw_kql_comment, cases, sizeof cases / sizeof *cases);
}

static void query_head(void **state)
{
    (void)state;
    struct bw_sb b = {0};
    bw_kql_from(&b, "DeviceProcessEvents", "Timestamp", "90d", 0);
    expect(&b, "DeviceProcessEvents\n| where Timestamp > ago(90d)");
    bw_kql_from(&b, "Syslog", "TimeGenerated", "lookback", 4);
    expect(&b, "Syslog\n    | where TimeGenerated > ago(lookback)");
    bw_kql_from(&b, "DeviceTvmSoftwareVulnerabilities", NULL, "30d", 4);
    expect(&b, "DeviceTvmSoftwareVulnerabilities");
    /* pieces append: a query is built from several */
    bw_kql_from(&b, "T", NULL, NULL, 0);
    bw_sb_puts(&b, "\n| where Name in~ ");
    static const char *const one[] = {"x"};
    bw_kql_list(&b, one, 1);
    expect(&b, "T\n| where Name in~ (\"x\")");
    free(b.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(string_literals), cmocka_unit_test(verbatim_literals), cmocka_unit_test(lists_and_any),
        cmocka_unit_test(comments),        cmocka_unit_test(query_head),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
