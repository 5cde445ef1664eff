/* The scan engine on a small catalog written here: scope (comments and strings), suppression,
 * secrets (entropy, placeholders, checksum), not_patterns, ordering, dedupe, columns, grade. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "auth/apikey.h"
#include "common/utf8.h"
#include "engine/code/scanner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char CATALOG[] =
    "{\"category\":\"injection\",\"rules\":["
    "{\"id\":\"T-EVAL\",\"title\":\"eval\",\"category\":\"injection\",\"severity\":\"HIGH\",\"cwe\":\"CWE-95\","
    " \"languages\":[\"py\",\"js\",\"rs\",\"go\"],\"patterns\":[\"\\\\beval\\\\s*\\\\(\"],"
    " \"not_patterns\":[\"eval\\\\(\\\\s*['\\\"]\"],"
    " \"description\":\"d\",\"remediation\":\"r\","
    " \"examples\":{\"positive\":[{\"lang\":\"py\",\"code\":\"eval(x)\"}],"
    "              \"negative\":[{\"lang\":\"py\",\"code\":\"# eval(x)\"}]}},"
    "{\"id\":\"T-SQL\",\"title\":\"sql\",\"category\":\"injection\",\"severity\":\"CRITICAL\",\"cwe\":\"CWE-89\","
    " \"languages\":[\"py\"],\"patterns\":[\"\\\\bexecute\\\\([^\\\\n]*\\\\+\",\"\\\\bexecute\\\\(f['\\\"]\"],"
    " \"description\":\"d\",\"remediation\":\"r\","
    " \"examples\":{\"positive\":[{\"lang\":\"py\",\"code\":\"c.execute('a' + b)\"}],"
    "              \"negative\":[{\"lang\":\"py\",\"code\":\"c.execute('a', b)\"}]}},"
    "{\"id\":\"T-KEY\",\"title\":\"key\",\"category\":\"injection\",\"severity\":\"MEDIUM\",\"cwe\":\"CWE-798\","
    " \"languages\":[\"py\",\"js\"],\"scope\":\"any\",\"patterns\":[\"\\\\b(?<secret>svc_[A-Za-z0-9]{38})\"],"
    " \"secret\":{\"group\":\"secret\",\"checksum\":\"svc\",\"min_entropy\":3.0},"
    " \"description\":\"d\",\"remediation\":\"r\","
    " \"examples\":{\"positive\":[{\"lang\":\"py\",\"code\":\"x\"}],\"negative\":[{\"lang\":\"py\",\"code\":\"y\"}]}},"
    "{\"id\":\"T-TOK\",\"title\":\"token\",\"category\":\"injection\",\"severity\":\"LOW\",\"cwe\":\"CWE-798\","
    " \"languages\":[\"py\"],\"scope\":\"any\",\"patterns\":[\"token\\\\s*=\\\\s*['\\\"](?<secret>[^'\\\"]{8,64})['\\\"]\"],"
    " \"secret\":{\"group\":\"secret\",\"min_entropy\":3.0},"
    " \"description\":\"d\",\"remediation\":\"r\","
    " \"examples\":{\"positive\":[{\"lang\":\"py\",\"code\":\"x\"}],\"negative\":[{\"lang\":\"py\",\"code\":\"y\"}]}}"
    "]}";

static struct bw_scanner *sc;

static int setup(void **state)
{
    (void)state;
    const char *docs[] = {CATALOG};
    size_t lens[] = {sizeof CATALOG - 1};
    char err[512];
    sc = bw_scanner_new(docs, lens, 1, err, sizeof err);
    if (!sc)
        fprintf(stderr, "%s\n", err);
    return sc ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    bw_scanner_free(sc);
    return 0;
}

static size_t scan(enum bw_lang l, const char *code, struct bw_findings *f)
{
    assert_int_equal(bw_scan(sc, l, code, strlen(code), false, f), 0);
    return f->n;
}

static void finds_and_locates(void **state)
{
    (void)state;
    struct bw_findings f;
    assert_int_equal(scan(BW_LANG_PY, "import os\n\n  y = eval(data)\n", &f), 1);
    assert_string_equal(f.v[0].rule->id, "T-EVAL");
    assert_int_equal(f.v[0].line, 3);
    assert_int_equal(f.v[0].column, 7);
    assert_string_equal(f.v[0].snippet, "y = eval(data)");
    bw_findings_free(&f);
    /* columns count code points, not bytes */
    assert_int_equal(scan(BW_LANG_PY, "s = 'é'; eval(x)\n", &f), 1);
    assert_int_equal(f.v[0].column, 10);
    bw_findings_free(&f);
}

static void comments_and_strings_are_not_code(void **state)
{
    (void)state;
    struct bw_findings f;
    assert_int_equal(scan(BW_LANG_PY, "# eval(x)\nmsg = 'do not eval(x)'\ndoc = \"\"\"\neval(x)\n\"\"\"\n", &f), 0);
    assert_int_equal(scan(BW_LANG_JS, "// eval(x)\n/* eval(y)\n */ const s = `eval(${a})`;\n", &f), 0);
    assert_int_equal(scan(BW_LANG_JS, "const s = `${eval(a)}`;\n", &f), 1); /* code inside ${} */
    bw_findings_free(&f);
    assert_int_equal(scan(BW_LANG_GO, "s := `eval(x)`\n", &f), 0);
    assert_int_equal(scan(BW_LANG_RS, "fn f<'a>(x: &'a str) { eval(x) }\nlet s = r#\"eval(x)\"#;\n", &f), 1);
    assert_int_equal(f.v[0].line, 1);
    bw_findings_free(&f);
}

static void not_patterns_and_suppression(void **state)
{
    (void)state;
    struct bw_findings f;
    assert_int_equal(scan(BW_LANG_PY, "eval('1+1')\n", &f), 0);
    assert_int_equal(scan(BW_LANG_PY, "eval(x)  # bulwark-ignore\n", &f), 0);
    assert_int_equal(scan(BW_LANG_PY, "eval(x)  # bulwark-ignore:T-EVAL\n", &f), 0);
    assert_int_equal(scan(BW_LANG_PY, "# bulwark-ignore:T-EVAL, T-SQL\neval(x)\n", &f), 0);
    /* a marker for another rule does not hide this one */
    assert_int_equal(scan(BW_LANG_PY, "eval(x)  # bulwark-ignore:T-SQL\n", &f), 1);
    bw_findings_free(&f);
    /* the line before only counts when it is a comment line */
    assert_int_equal(scan(BW_LANG_PY, "y = 1  # bulwark-ignore\neval(x)\n", &f), 1);
    bw_findings_free(&f);
    /* ... a comment alone on its line: one followed by code silences its own line only */
    assert_int_equal(scan(BW_LANG_JS, "/* bulwark-ignore */ eval(x)\neval(x)\n", &f), 1);
    assert_int_equal(f.v[0].line, 2);
    bw_findings_free(&f);
    assert_int_equal(scan(BW_LANG_JS, "  /* bulwark-ignore */  \neval(x)\n", &f), 0);
    assert_int_equal(scan(BW_LANG_JS, "// bulwark-ignore\neval(x)\neval(x)\n", &f), 1);
    assert_int_equal(f.v[0].line, 3);
    bw_findings_free(&f);
}

static void secrets_need_entropy_and_checksum(void **state)
{
    (void)state;
    char key[BW_KEY_LEN + 1], code[128];
    bw_apikey_generate(key);
    snprintf(code, sizeof code, "API_KEY = '%s'\n", key);
    struct bw_findings f;
    assert_int_equal(scan(BW_LANG_PY, code, &f), 1);
    assert_string_equal(f.v[0].rule->id, "T-KEY");
    assert_null(strstr(f.v[0].snippet, key)); /* the secret is masked in the snippet */
    assert_non_null(strstr(f.v[0].snippet, "svc_"));
    bw_findings_free(&f);
    key[BW_KEY_LEN - 1] = key[BW_KEY_LEN - 1] == 'A' ? 'B' : 'A'; /* checksum now wrong */
    snprintf(code, sizeof code, "API_KEY = '%s'\n", key);
    assert_int_equal(scan(BW_LANG_PY, code, &f), 0);
    assert_int_equal(scan(BW_LANG_PY, "token = 'YOUR_API_TOKEN_HERE'\n", &f), 0);
    assert_int_equal(scan(BW_LANG_PY, "token = 'aaaaaaaaaaaa'\n", &f), 0);
    assert_int_equal(scan(BW_LANG_PY, "token = 'abcdefghijkl'\n", &f), 0);
    assert_int_equal(scan(BW_LANG_PY, "token = 'q8Zr2LmX9vTw4KpB'\n", &f), 1);
    bw_findings_free(&f);
    /* scope any: a secret in a comment is still a leak */
    assert_int_equal(scan(BW_LANG_PY, "# token = 'q8Zr2LmX9vTw4KpB'\n", &f), 1);
    bw_findings_free(&f);
}

/* The mask starts four bytes into the secret; where that is inside a character the whole
 * character is masked, so the snippet stays UTF-8 (JSON replies and reports need it). */
static void secret_mask_keeps_utf8(void **state)
{
    (void)state;
    struct bw_findings f;
    /* q8Z then U+00E4 (C3 A4): byte 4 of the secret is A4, inside the character */
    assert_int_equal(scan(BW_LANG_PY, "token = 'q8Z\xC3\xA4r2LmX9vTw4KpB\xC3\xA4'\n", &f), 1);
    const char *sn = f.v[0].snippet;
    assert_true(bw_utf8_valid(sn, strlen(sn)));
    assert_non_null(strstr(sn, "'q8Z*"));
    assert_null(strstr(sn, "r2LmX"));
    bw_findings_free(&f);
}

static void test_context_lowers_secrets_only(void **state)
{
    (void)state;
    const char *code = "token = 'q8Zr2LmX9vTw4KpB'\neval(x)\n";
    struct bw_findings f;
    assert_int_equal(bw_scan(sc, BW_LANG_PY, code, strlen(code), true, &f), 0);
    assert_int_equal(f.n, 2);
    /* T-TOK is in category injection here, so nothing changes: only "secrets" rules drop */
    assert_int_equal(f.v[0].severity, BW_SEV_HIGH);
    bw_findings_free(&f);
    assert_true(bw_context_is_test("unit tests for the parser"));
    assert_true(bw_context_is_test("Example"));
    assert_false(bw_context_is_test("production payment service"));
    assert_false(bw_context_is_test("contest"));
    assert_false(bw_context_is_test(NULL));
}

static void ordering_dedupe_and_grade(void **state)
{
    (void)state;
    struct bw_findings f;
    const char *code = "eval(a)\nc.execute(f'select {x}' + y)\neval(b)\n";
    assert_int_equal(scan(BW_LANG_PY, code, &f), 3);
    /* worst first, then by line; the two SQL patterns on line 2 make one finding */
    assert_string_equal(f.v[0].rule->id, "T-SQL");
    assert_int_equal(f.v[1].line, 1);
    assert_int_equal(f.v[2].line, 3);
    assert_int_equal(bw_scan_grade(&f), 'F');
    assert_int_equal(bw_scan_score(&f), 80);
    bw_findings_free(&f);
    /* two matches of one rule on a line: one finding, the leftmost */
    assert_int_equal(scan(BW_LANG_PY, "y = 1; eval(a); eval(b)\n", &f), 1);
    assert_int_equal(f.v[0].column, 8);
    bw_findings_free(&f);
    assert_int_equal(scan(BW_LANG_PY, "x = 1\n", &f), 0);
    assert_int_equal(bw_scan_grade(&f), 'A');
    assert_int_equal(bw_scan_score(&f), 0);
}

static char *repeat(const char *line, size_t times, const char *tail)
{
    size_t ll = strlen(line), tl = strlen(tail);
    char *s = malloc(ll * times + tl + 1);
    assert_non_null(s);
    for (size_t i = 0; i < times; i++)
        memcpy(s + i * ll, line, ll);
    memcpy(s + ll * times, tail, tl + 1);
    return s;
}

/* The cap counts distinct (rule, line) findings: matches on adjacent lines are confirmed several
 * times (the windows overlap), which must neither use up the cap nor end the scan early. */
static void cap_counts_distinct_findings(void **state)
{
    (void)state;
    struct bw_findings f;
    char *code = repeat("eval(x)\n", 250, "c.execute('a' + b)\n");
    assert_int_equal(scan(BW_LANG_PY, code, &f), 251);
    assert_false(f.truncated);
    assert_string_equal(f.v[0].rule->id, "T-SQL");
    assert_int_equal(f.v[0].line, 251);
    for (size_t i = 1; i < f.n; i++) {
        assert_int_equal(f.v[i].line, i); /* each line once, in order */
        assert_int_equal(f.v[i].column, 1);
    }
    assert_int_equal(bw_scan_grade(&f), 'F');
    bw_findings_free(&f);
    free(code);
}

/* Past the cap findings are not kept, but a CRITICAL one there still makes the grade F. */
static void past_the_cap_still_grades(void **state)
{
    (void)state;
    struct bw_findings f;
    char *code = repeat("eval(x)\n", BW_SCAN_MAX_FINDINGS, "");
    assert_int_equal(scan(BW_LANG_PY, code, &f), BW_SCAN_MAX_FINDINGS);
    assert_false(f.truncated); /* exactly at the cap */
    bw_findings_free(&f);
    free(code);
    code = repeat("eval(x)\n", BW_SCAN_MAX_FINDINGS + 100, "c.execute('a' + b)\n");
    assert_int_equal(scan(BW_LANG_PY, code, &f), BW_SCAN_MAX_FINDINGS);
    assert_true(f.truncated);
    for (size_t i = 0; i < f.n; i++)
        assert_string_equal(f.v[i].rule->id, "T-EVAL");
    assert_int_equal(f.worst, BW_SEV_CRITICAL);
    assert_int_equal(bw_scan_grade(&f), 'F');
    assert_int_equal(bw_scan_score(&f), 100);
    bw_findings_free(&f);
    free(code);
}

static void language_filter_and_empty(void **state)
{
    (void)state;
    struct bw_findings f;
    assert_int_equal(scan(BW_LANG_JAVA, "eval(x)\n", &f), 0); /* no rule for java here */
    assert_int_equal(bw_scan(sc, BW_LANG_PY, "", 0, false, &f), 0);
    assert_int_equal(f.n, 0);
}

static void bad_catalogs_are_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "{\"rules\":[{\"id\":\"X\"}]}",
        /* no negative example */
        "{\"rules\":[{\"id\":\"X\",\"title\":\"t\",\"category\":\"auth\",\"severity\":\"LOW\",\"cwe\":\"CWE-1\","
        "\"languages\":[\"py\"],\"patterns\":[\"abc\"],\"description\":\"d\",\"remediation\":\"r\","
        "\"examples\":{\"positive\":[{\"lang\":\"py\",\"code\":\"abc\"}]}}]}",
        /* a regex PCRE2 rejects */
        "{\"rules\":[{\"id\":\"X\",\"title\":\"t\",\"category\":\"auth\",\"severity\":\"LOW\",\"cwe\":\"CWE-1\","
        "\"languages\":[\"py\"],\"patterns\":[\"a(b\"],\"description\":\"d\",\"remediation\":\"r\","
        "\"examples\":{\"positive\":[{\"lang\":\"py\",\"code\":\"ab\"}],\"negative\":[{\"lang\":\"py\",\"code\":\"c\"}]}}]}",
        /* unknown language */
        "{\"rules\":[{\"id\":\"X\",\"title\":\"t\",\"category\":\"auth\",\"severity\":\"LOW\",\"cwe\":\"CWE-1\","
        "\"languages\":[\"cobol\"],\"patterns\":[\"abc\"],\"description\":\"d\",\"remediation\":\"r\","
        "\"examples\":{\"positive\":[{\"lang\":\"py\",\"code\":\"ab\"}],\"negative\":[{\"lang\":\"py\",\"code\":\"c\"}]}}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[256] = "";
        size_t len = strlen(bad[i]);
        struct bw_scanner *s = bw_scanner_new(&bad[i], &len, 1, err, sizeof err);
        assert_null(s);
        assert_true(strlen(err) > 0);
    }
}


/* A look-ahead that reads to the end of the line makes every match cost the rest of the line: a
 * long line of matches would be quadratic, so once a rule has its leftmost finding on a line (or
 * the line is excluded) the rest of the line is skipped. The time budget stops whatever is left
 * slow and says so. */
static void long_lines_and_the_time_budget(void **state)
{
    (void)state;
    static const char cat[] =
        "{\"category\":\"injection\",\"rules\":["
        "{\"id\":\"T-LOAD\",\"title\":\"load\",\"category\":\"injection\",\"severity\":\"HIGH\",\"cwe\":\"CWE-502\","
        " \"languages\":[\"py\"],\"scope\":\"any\",\"patterns\":[\"\\\\bload\\\\((?![^\\\\n]*safe)\"],"
        " \"description\":\"d\",\"remediation\":\"r\","
        " \"examples\":{\"positive\":[{\"lang\":\"py\",\"code\":\"load(x)\"}],"
        "              \"negative\":[{\"lang\":\"py\",\"code\":\"load(x) # safe\"}]}}]}";
    const char *docs[] = {cat};
    size_t lens[] = {sizeof cat - 1};
    char err[512];
    struct bw_scanner *s2 = bw_scanner_new(docs, lens, 1, err, sizeof err);
    if (!s2)
        fail_msg("%s", err);
    size_t n = 4u << 20;
    char *code = malloc(n + 1);
    assert_non_null(code);
    for (size_t i = 0; i < n; i++)
        code[i] = "load(x) "[i % 8];
    code[n] = '\0';
    struct bw_findings f = {0};
    /* one 4 MiB line of matches: one finding, at the first, well inside the budget */
    assert_int_equal(bw_scan(s2, BW_LANG_PY, code, n, false, &f), 0);
    assert_false(f.time_limited);
    assert_false(f.truncated);
    assert_int_equal(f.n, 1);
    assert_int_equal(f.v[0].column, 1);
    bw_findings_free(&f);
    /* many lines with a budget already spent: the scan stops early and says so */
    for (size_t i = 0; i < n; i++)
        code[i] = "load(x)\n"[i % 8];
    bw_scanner_set_budget(s2, 0);
    assert_int_equal(bw_scan(s2, BW_LANG_PY, code, n, false, &f), 0);
    assert_true(f.time_limited);
    assert_true(f.truncated);
    assert_true(f.n >= 1 && f.n < 1000);
    bw_findings_free(&f);
    bw_scanner_set_budget(s2, 60000);
    assert_int_equal(bw_scan(s2, BW_LANG_PY, "load(x)\nload(y) # safe\n", 24, false, &f), 0);
    assert_false(f.time_limited);
    assert_int_equal(f.n, 1);
    bw_findings_free(&f);
    free(code);
    bw_scanner_free(s2);
}


/* A rule with a syntax form: confirmed on the tree (calls only, never comments or strings, with
 * its predicates), in fragments that do not parse, in windows of a large file, suppressed like
 * any other; its other languages keep their patterns. */
static const char SYN_CATALOG[] =
    "{\"category\":\"crypto\",\"rules\":["
    "{\"id\":\"T-RAND\",\"title\":\"rand\",\"category\":\"crypto\",\"severity\":\"LOW\",\"cwe\":\"CWE-338\","
    " \"languages\":[\"py\",\"js\"],\"patterns\":[\"\\\\bMath\\\\.random\\\\s*\\\\(\"],"
    " \"syntax\":{\"py\":\"(call function: (attribute object: (identifier) @o attribute: (identifier) @m)"
    "   (#eq? @o \\\"random\\\") (#any-of? @m \\\"random\\\" \\\"randint\\\")) @finding\"},"
    " \"description\":\"d\",\"remediation\":\"r\","
    " \"examples\":{\"positive\":[{\"lang\":\"py\",\"code\":\"random.random()\"},{\"lang\":\"js\",\"code\":\"Math.random()\"}],"
    "              \"negative\":[{\"lang\":\"py\",\"code\":\"random.choice(x)\"}]}}]}";

static void syntax_rules(void **state)
{
    (void)state;
    const char *docs[] = {SYN_CATALOG};
    size_t lens[] = {sizeof SYN_CATALOG - 1};
    char err[512];
    struct bw_scanner *s2 = bw_scanner_new(docs, lens, 1, err, sizeof err);
    if (!s2)
        fail_msg("%s", err);
    struct bw_findings f;
#define SCAN2(L, CODE) (assert_int_equal(bw_scan(s2, L, CODE, strlen(CODE), false, &f), 0), f.n)
    assert_int_equal(SCAN2(BW_LANG_PY, "import random\nx = random.random()\n"), 1);
    assert_string_equal(f.v[0].rule->id, "T-RAND");
    assert_int_equal(f.v[0].line, 2);
    assert_int_equal(f.v[0].column, 5);
    assert_string_equal(f.v[0].snippet, "x = random.random()");
    assert_true(f.parsed); /* the prefilter fired: a tree was built */
    bw_findings_free(&f);
    /* the predicates: another function of the module is not a finding */
    assert_int_equal(SCAN2(BW_LANG_PY, "x = random.choice(xs)\ny = secrets.random()\n"), 0);
    /* neither are the words in a comment or a string, nor the function named without a call */
    assert_int_equal(SCAN2(BW_LANG_PY, "# random.random()\ns = 'random.random()'\nf = random.random\n"), 0);
    /* no prefilter hit: no tree */
    assert_int_equal(SCAN2(BW_LANG_PY, "x = 1\n"), 0);
    assert_false(f.parsed);
    /* a fragment with unbalanced brackets still yields the call after them */
    assert_int_equal(SCAN2(BW_LANG_PY, "foo(a, [1, 2\nrandom.randint(1, 6)\n"), 1);
    assert_int_equal(f.v[0].line, 2);
    bw_findings_free(&f);
    assert_int_equal(SCAN2(BW_LANG_PY, "x = 1)\n    n = random.randint(1, 6)\n"), 1);
    assert_int_equal(f.v[0].line, 2);
    bw_findings_free(&f);
    /* suppression as for any rule */
    assert_int_equal(SCAN2(BW_LANG_PY, "x = random.random()  # bulwark-ignore:T-RAND\n"), 0);
    /* js has no query: its pattern serves it, and nothing is parsed */
    assert_int_equal(SCAN2(BW_LANG_JS, "const x = Math.random();\n"), 1);
    assert_false(f.parsed);
    bw_findings_free(&f);
    /* a large file is parsed in windows around the hits: the lines stay right */
    size_t n = 64u << 10;
    char *big = malloc(n + 64);
    assert_non_null(big);
    size_t w = 0;
    while (w < n)
        w += (size_t)sprintf(big + w, "def f%zu(a):\n    return [a, (a + 1)]\n\n", w);
    size_t lines = 0;
    for (size_t i = 0; i < w; i++)
        lines += big[i] == '\n';
    strcpy(big + w, "def g():\n    return random.randint(0, 9)\n");
    assert_int_equal(bw_scan(s2, BW_LANG_PY, big, strlen(big), false, &f), 0);
    assert_int_equal(f.n, 1);
    assert_int_equal(f.v[0].line, lines + 2);
    assert_int_equal(f.v[0].column, 12);
    bw_findings_free(&f);
    free(big);
#undef SCAN2
    bw_scanner_free(s2);
}

/* What the catalog refuses in a syntax form, each time naming the rule. */
static void bad_syntax_rules_are_refused(void **state)
{
    (void)state;
#define RULE(LANGS, SYNTAX, EXTRA)                                                                                    \
    "{\"rules\":[{\"id\":\"X-SYN\",\"title\":\"t\",\"category\":\"auth\",\"severity\":\"LOW\",\"cwe\":\"CWE-1\","       \
    "\"languages\":" LANGS ",\"syntax\":" SYNTAX EXTRA ",\"description\":\"d\",\"remediation\":\"r\","                  \
    "\"examples\":{\"positive\":[{\"lang\":\"py\",\"code\":\"a\"}],\"negative\":[{\"lang\":\"py\",\"code\":\"b\"}]}}]}"
    static const struct {
        const char *doc, *why;
    } bad[] = {
        {RULE("[\"py\"]", "{\"py\":\"(no_such_node) @finding\"}", ""), "unknown node type"},
        {RULE("[\"py\"]", "{\"py\":\"((call) @finding (#bogus? @finding))\"}", ""), "unknown predicate"},
        {RULE("[\"py\"]", "{\"py\":\"((call) @x (#eq? @x \\\"a\\\"))\"}", ""), "@finding"},
        {RULE("[\"py\"]", "{\"js\":\"(call_expression) @finding\"}", ""), "syntax.js"},
        {RULE("[\"py\",\"js\"]", "{\"py\":\"((call) @finding (#eq? @finding \\\"a\\\"))\",\"js\":\"((call_expression) @finding (#eq? @finding \\\"a\\\"))\"}", ""),
         "example in js"},
        {RULE("[\"py\"]", "{\"py\":\"(call) @finding\"}", ""), "prefilter"},
        {RULE("[\"py\",\"js\"]", "{\"py\":\"((call) @finding (#eq? @finding \\\"a\\\"))\"}", ""), "patterns must be"},
        {RULE("[\"py\"]", "{\"py\":\"((call) @finding (#eq? @finding \\\"a\\\"))\"}", ",\"patterns\":[\"a\"]"), "serve no language"},
    };
#undef RULE
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[512] = "";
        size_t len = strlen(bad[i].doc);
        struct bw_scanner *s = bw_scanner_new(&bad[i].doc, &len, 1, err, sizeof err);
        if (s)
            fail_msg("catalog %zu loaded", i);
        if (!strstr(err, "X-SYN") || !strstr(err, bad[i].why))
            fail_msg("catalog %zu: '%s' does not name the rule and say %s", i, err, bad[i].why);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_and_locates),
        cmocka_unit_test(comments_and_strings_are_not_code),
        cmocka_unit_test(not_patterns_and_suppression),
        cmocka_unit_test(secrets_need_entropy_and_checksum),
        cmocka_unit_test(secret_mask_keeps_utf8),
        cmocka_unit_test(test_context_lowers_secrets_only),
        cmocka_unit_test(ordering_dedupe_and_grade),
        cmocka_unit_test(cap_counts_distinct_findings),
        cmocka_unit_test(past_the_cap_still_grades),
        cmocka_unit_test(language_filter_and_empty),
        cmocka_unit_test(bad_catalogs_are_refused),
        cmocka_unit_test(long_lines_and_the_time_budget),
        cmocka_unit_test(syntax_rules),
        cmocka_unit_test(bad_syntax_rules_are_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
