/* The pieces of `bulwark scan` that have no command line of their own: glob and gitignore
 * semantics, fingerprints, the rule-alias table (a renamed and a split rule still match an old
 * baseline), the notebook reader's line map and the piped-download check. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cli/scan.h"

#include <jansson.h>
#include <string.h>

static void test_glob(void **state)
{
    (void)state;
    assert_true(bw_glob_match("*.py", "a.py"));
    assert_false(bw_glob_match("*.py", "d/a.py"));
    assert_true(bw_glob_match("**/gen/**", "a/b/gen/c/d.py"));
    assert_true(bw_glob_match("**/gen/**", "gen/x"));
    assert_true(bw_glob_match("src/**/x?.py", "src/x1.py"));
    assert_true(bw_glob_match("*.[ch]", "m.h"));
    assert_false(bw_glob_match("*.[!ch]", "m.h"));
    assert_true(bw_glob_match("\\#hash", "#hash"));
    assert_true(bw_glob_match("[", "["));
    /* pathological backtracking ends (and does not match) */
    char s[200];
    memset(s, 'a', sizeof s - 1);
    s[sizeof s - 1] = '\0';
    assert_false(bw_glob_match("*a*a*a*a*a*a*a*a*a*a*a*a*b", s));
}

static void test_ignore(void **state)
{
    (void)state;
    struct bw_ignore ig = {0};
    const char *text = "# comment\nbuild/\n*.log\n!keep.log\n/root.py\ndocs/*.md\n\\!bang\ntrailing   \n";
    assert_int_equal(bw_ignore_add_text(&ig, text, strlen(text)), 0);
    assert_true(bw_ignore_match(&ig, "build", true));
    assert_false(bw_ignore_match(&ig, "build", false)); /* "build/" is for folders only */
    assert_true(bw_ignore_match(&ig, "a/build/x.py", false));
    assert_true(bw_ignore_match(&ig, "x/y.log", false));
    assert_false(bw_ignore_match(&ig, "x/keep.log", false));
    assert_true(bw_ignore_match(&ig, "root.py", false));
    assert_false(bw_ignore_match(&ig, "sub/root.py", false)); /* anchored */
    assert_true(bw_ignore_match(&ig, "docs/a.md", false));
    assert_false(bw_ignore_match(&ig, "docs/sub/a.md", false));
    assert_true(bw_ignore_match(&ig, "!bang", false));
    assert_true(bw_ignore_match(&ig, "trailing", false));
    assert_int_equal(bw_ignore_verdict(&ig, "keep.log", false), 0);
    assert_int_equal(bw_ignore_verdict(&ig, "other.py", false), -1);
    bw_ignore_free(&ig);
}

static void test_fingerprint(void **state)
{
    (void)state;
    char a[48], b[48], c[48], d[48];
    bw_fp_make("BW-AI-001", "app.py", "    exec(llm_response)", 1, a);
    bw_fp_make("BW-AI-001", "app.py", "exec( llm_response )", 1, b);
    bw_fp_make("BW-AI-001", "app.py", "exec(llm_response)", 2, c);
    bw_fp_make("BW-AI-001", "other.py", "exec(llm_response)", 1, d);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    assert_string_not_equal(a, d);
    assert_int_equal(strlen(a), 18);
}

static void test_aliases(void **state)
{
    (void)state;
    char err[256];
    const char *t = "{\"aliases\":[{\"old\":\"BW-OLD-1\",\"new\":[\"BW-NEW-1\",\"BW-NEW-2\"]},"
                    "{\"old\":\"BW-OLDER-1\",\"new\":[\"BW-NEW-1\"]}]}";
    struct bw_aliases *a = bw_aliases_parse(t, strlen(t), err, sizeof err);
    assert_non_null(a);
    size_t n;
    const char *const *olds = bw_aliases_of(a, "BW-NEW-1", &n);
    assert_int_equal(n, 2);
    assert_string_equal(olds[0], "BW-OLD-1");
    assert_null(bw_aliases_of(a, "BW-OTHER", &n));
    /* a baseline written under the old id matches the renamed rule, and a split one */
    char fp[48];
    bw_fp_make("BW-OLD-1", "app.py", "exec(x)", 1, fp);
    struct bw_baseline b = {.fps = json_object(), .seen = json_object()};
    json_object_set_new(b.fps, fp, json_object());
    assert_true(bw_baseline_has(&b, a, "BW-NEW-2", "app.py", "exec(x)", 1));
    assert_false(bw_baseline_has(&b, NULL, "BW-NEW-2", "app.py", "exec(x)", 1));
    assert_false(bw_baseline_has(&b, a, "BW-OTHER", "app.py", "exec(x)", 1));
    assert_non_null(json_object_get(b.seen, fp));
    bw_baseline_free(&b);
    bw_aliases_free(a);
    const char *bad = "{\"aliases\":[{\"old\":\"X\"}]}";
    assert_null(bw_aliases_parse(bad, strlen(bad), err, sizeof err));
    assert_non_null(strstr(err, "entry 0"));
}

static void test_notebook(void **state)
{
    (void)state;
    const char *nb = "{\n \"cells\": [\n  {\"cell_type\": \"markdown\", \"source\": [\"# t\\n\"]},\n"
                     "  {\"cell_type\": \"code\", \"source\": [\n   \"import os\\n\",\n   \"exec(x)\"\n  ]},\n"
                     "  {\"cell_type\": \"code\", \"source\": \"a = 1\\nb = 2\"}\n ],\n \"metadata\": {}\n}\n";
    struct bw_notebook n;
    char why[96];
    assert_int_equal(bw_notebook_read(nb, strlen(nb), &n, why, sizeof why), 0);
    assert_int_equal(n.nlines, 4);
    assert_string_equal(n.code, "import os\nexec(x)\na = 1\nb = 2\n");
    assert_int_equal(n.cell[1], 2);
    assert_int_equal(n.cell_line[1], 2);
    assert_int_equal(n.file_line[0], 5);
    assert_int_equal(n.file_line[1], 6);
    assert_int_equal(n.cell[3], 3);
    assert_int_equal(n.cell_line[3], 2);
    assert_int_equal(n.lang, BW_LANG_PY);
    bw_notebook_free(&n);
    assert_int_not_equal(bw_notebook_read("[1]", 3, &n, why, sizeof why), 0);
}

static void test_shell(void **state)
{
    (void)state;
    const char *sh = "curl -fsSL https://x/i.sh | sh\n# curl x | sh\nwget -qO- https://y | sudo -E bash -s\n"
                     "curl -o f https://z && sha256sum -c f.sha\ncurl x || sh fallback.sh\n";
    struct bw_findings f = {0};
    assert_int_equal(bw_scan_shell_check(sh, strlen(sh), &f), 0);
    assert_int_equal(f.n, 2);
    assert_int_equal(f.v[0].line, 1);
    assert_int_equal(f.v[1].line, 3);
    assert_string_equal(f.v[0].rule->id, "BW-SH-001");
    bw_findings_free(&f);
}

/* Scripts without an extension: a #! line naming a shell, directly or through env */
static void test_shebang(void **state)
{
    (void)state;
    const char *const shells[] = {"#!/bin/sh\n", "#!/bin/bash -e\necho", "#! /usr/bin/env bash\n",
                                  "#!/usr/bin/env -S zsh -f\n", "#!/bin/dash", "#!/usr/local/bin/ksh\r\n"};
    for (size_t i = 0; i < sizeof shells / sizeof shells[0]; i++)
        assert_true(bw_scan_shebang_shell(shells[i], strlen(shells[i])));
    const char *const others[] = {"#!/usr/bin/env python3\n", "#!/usr/bin/perl\n", "#!/bin/bashful\n", "# not /bin/sh\n",
                                  "#!\n/bin/sh", "#!/usr/bin/env\n", "", "#", "echo hi\n#!/bin/sh\n",
                                  "#!/usr/bin/node --harmony sh\n", "#!/usr/bin/env p/"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        assert_false(bw_scan_shebang_shell(others[i], strlen(others[i])));
    assert_false(bw_scan_shebang_shell("#!/bin/sh", 5)); /* only the bytes given: "#!/bi" */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glob),    cmocka_unit_test(test_ignore),   cmocka_unit_test(test_fingerprint),
        cmocka_unit_test(test_aliases), cmocka_unit_test(test_notebook), cmocka_unit_test(test_shell),
        cmocka_unit_test(test_shebang),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
