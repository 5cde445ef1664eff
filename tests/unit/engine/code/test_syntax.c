/* Syntax trees: every grammar loads, fragments that do not parse still yield what they can, the
 * query runner evaluates predicates (an unevaluated query would match everything), windows keep
 * the text's offsets, a parse past its time budget stops cleanly. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/code/syntax.h"
#include "common/limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bw_syntax *sx;

static int setup(void **state)
{
    (void)state;
    sx = bw_syntax_new();
    return sx ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    bw_syntax_free(sx);
    return 0;
}

static struct bw_syn_query *query(enum bw_grammar g, const char *src)
{
    char err[256];
    uint32_t off;
    struct bw_syn_query *q = bw_syn_query_new(g, src, strlen(src), err, sizeof err, &off);
    if (!q)
        fail_msg("%s: %s", src, err);
    return q;
}

static void every_grammar_loads(void **state)
{
    (void)state;
    for (int g = 0; g < BW_GRAMMAR_COUNT; g++) {
        const TSLanguage *l = bw_grammar_language((enum bw_grammar)g);
        assert_non_null(l);
        uint32_t v = ts_language_version(l);
        if (v < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION || v > TREE_SITTER_LANGUAGE_VERSION)
            fail_msg("%s: ABI %u", bw_grammar_name((enum bw_grammar)g), v);
        struct bw_syn_tree t;
        assert_int_equal(bw_syntax_parse(sx, (enum bw_grammar)g, "x", 1, NULL, 0, 0, &t), BW_PARSE_OK);
        assert_non_null(t.tree);
        bw_syn_tree_free(&t);
    }
    enum bw_grammar two[2];
    assert_int_equal(bw_grammars_of(BW_LANG_TS, two), 2);
    assert_int_equal(two[1], BW_GRAMMAR_TSX);
    assert_int_equal(bw_grammars_of(BW_LANG_PHP, two), 2);
    assert_int_equal(bw_grammars_of(BW_LANG_PY, two), 1);
    assert_int_equal(bw_grammar_lang(BW_GRAMMAR_PHP_ONLY), BW_LANG_PHP);
}

static void grammar_pick(void **state)
{
    (void)state;
    static const char tsx[] = "const a = <div>{x}</div>;", ts[] = "const a = <number>x;";
    assert_int_equal(bw_grammar_pick(BW_LANG_TS, tsx, strlen(tsx)), BW_GRAMMAR_TSX);
    assert_int_equal(bw_grammar_pick(BW_LANG_TS, ts, strlen(ts)), BW_GRAMMAR_TS);
    static const char tpl[] = "<p><?php echo $x; ?></p>", frag[] = "$x = exec($y);";
    assert_int_equal(bw_grammar_pick(BW_LANG_PHP, tpl, strlen(tpl)), BW_GRAMMAR_PHP);
    assert_int_equal(bw_grammar_pick(BW_LANG_PHP, frag, strlen(frag)), BW_GRAMMAR_PHP_ONLY);
    assert_int_equal(bw_grammar_pick(BW_LANG_CS, "", 0), BW_GRAMMAR_CS);
}

/* The runner's own collection of capture texts. */
struct texts {
    const struct bw_syn_tree *t;
    int id;
    size_t n;
    char v[8][64];
};

static int texts_fn(void *ctx, const struct bw_syn_match *m)
{
    struct texts *x = ctx;
    TSNode node;
    if (!bw_syn_match_capture(m, x->id, &node))
        return 0;
    if (x->n < 8) {
        size_t len;
        const char *s = bw_syn_node_text(x->t, node, &len);
        snprintf(x->v[x->n], sizeof x->v[x->n], "%.*s", (int)len, s);
    }
    x->n++;
    return 0;
}

/* Runs query q_src on code (grammar g) and collects the texts of capture @name. */
static size_t texts_of(enum bw_grammar g, const char *q_src, const char *code, const char *name, struct texts *x)
{
    struct bw_syn_query *q = query(g, q_src);
    struct bw_syn_tree t;
    assert_int_equal(bw_syntax_parse(sx, g, code, strlen(code), NULL, 0, 0, &t), BW_PARSE_OK);
    memset(x, 0, sizeof *x);
    x->t = &t;
    x->id = bw_syn_query_capture_id(q, name);
    assert_true(x->id >= 0);
    assert_int_equal(bw_syn_query_run(sx, q, &t, 0, 0, texts_fn, x), 0);
    x->t = NULL;
    bw_syn_tree_free(&t);
    bw_syn_query_free(q);
    return x->n;
}

static void fragments_still_yield(void **state)
{
    (void)state;
    /* unbalanced brackets on the first line, no imports: the call after them is still a call */
    static const char code[] = "x = foo(a, [1, 2\nrequests.get(url)\n";
    static const char q[] = "(call function: (attribute object: (identifier) @o attribute: (identifier) @m)"
                            " (#eq? @o \"requests\")) @finding";
    struct texts x;
    assert_int_equal(texts_of(BW_GRAMMAR_PY, q, code, "finding", &x), 1);
    assert_string_equal(x.v[0], "requests.get(url)");
    /* a PHP fragment without <?php, and the same with it */
    static const char pq[] = "(function_call_expression function: (name) @f (#eq? @f \"exec\")) @finding";
    assert_int_equal(texts_of(BW_GRAMMAR_PHP_ONLY, pq, "$out = exec($cmd);", "finding", &x), 1);
    assert_int_equal(texts_of(BW_GRAMMAR_PHP_ONLY, pq, "<?php\n$out = exec($cmd);\n", "finding", &x), 1);
    assert_int_equal(texts_of(BW_GRAMMAR_PHP, pq, "<b><?php $out = exec($cmd); ?></b>", "finding", &x), 1);
    /* a Java method with no class around it */
    static const char jq[] = "(method_invocation name: (identifier) @m (#eq? @m \"exec\")) @finding";
    assert_int_equal(texts_of(BW_GRAMMAR_JAVA, jq, "Runtime.getRuntime().exec(cmd);\n}}\n", "finding", &x), 1);
}

/* Each predicate rejects the calls it should: without the runner, every query here would match
 * all three calls. */
static void predicates_are_evaluated(void **state)
{
    (void)state;
    static const char code[] = "random.random()\nrandom.choice(xs)\nsecrets.token_hex(16)\n";
    struct texts x;
#define Q(PRED) "(call function: (attribute object: (identifier) @o attribute: (identifier) @m) " PRED ") @finding"
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q(""), code, "finding", &x), 3);
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q("(#eq? @o \"random\")"), code, "finding", &x), 2);
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q("(#eq? @m \"random\")"), code, "finding", &x), 1);
    assert_string_equal(x.v[0], "random.random()");
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q("(#not-eq? @o \"random\")"), code, "finding", &x), 1);
    assert_string_equal(x.v[0], "secrets.token_hex(16)");
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q("(#eq? @o @m)"), code, "finding", &x), 1);
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q("(#not-eq? @o @m)"), code, "finding", &x), 2);
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q("(#match? @m \"^(choice|token_.*)$\")"), code, "finding", &x), 2);
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q("(#not-match? @m \"^tok\")"), code, "finding", &x), 2);
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q("(#any-of? @m \"choice\" \"token_hex\")"), code, "finding", &x), 2);
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q("(#not-any-of? @m \"choice\" \"token_hex\")"), code, "finding", &x), 1);
    /* all predicates of a pattern must hold */
    assert_int_equal(texts_of(BW_GRAMMAR_PY, Q("(#eq? @o \"random\") (#eq? @m \"choice\")"), code, "finding", &x), 1);
    assert_string_equal(x.v[0], "random.choice(xs)");
#undef Q
}

static void bad_queries_are_refused(void **state)
{
    (void)state;
    static const struct {
        const char *q;
        const char *why;
    } bad[] = {
        {"(call", "syntax error"},
        {"(no_such_node) @x", "unknown node type"},
        {"(call nofield: (identifier)) @x", "unknown field"},
        {"((call) @x (#eq? @y \"a\"))", "unknown capture"},
        {"((call) @x (#is-ok? @x))", "unknown predicate"},
        {"((call) @x (#set! foo \"a\"))", "unknown predicate"},
        {"((call) @x (#match? @x \"a(b\"))", "PCRE2"},
        {"((call) @x (#eq? @x))", "takes a capture"},
        {"((call) @x (#eq? \"a\" @x))", "takes a capture"},
        {"((call) @x (#any-of? @x @x))", "must be a string"},
        /* at the top level a predicate would be a pattern of its own and (call) unchecked */
        {"(call) @x (#eq? @x \"a\")", "outside its pattern"},
        /* shapes tree-sitter 0.20's own compiler leaks on or crashes on: refused before it sees them */
        {"((#match? identifier)) @x", "predicate before the pattern"},
        {"((call fuction: (identifier) @f) (#eq? @f \"open\")) @finding", "unknown field"},
        {"((m!)) @x", "predicate before the pattern"},
        {"(eq? @x \"a\")", "outside its pattern"},
        {"(call function (identifier))", "bare name"},
        {"(call (identifier) @f (#eq? @f \"a\"", "syntax error"},
        {"[(call) (identifier)", "closing bracket"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[256] = "";
        uint32_t off = 0;
        struct bw_syn_query *q = bw_syn_query_new(BW_GRAMMAR_PY, bad[i].q, strlen(bad[i].q), err, sizeof err, &off);
        if (q)
            fail_msg("%s compiled", bad[i].q);
        if (!strstr(err, bad[i].why))
            fail_msg("%s: '%s' does not say %s", bad[i].q, err, bad[i].why);
    }
}

/* Nesting is bounded: the limit itself compiles, one more level is refused with its reason. */
static void query_depth_is_bounded(void **state)
{
    (void)state;
    for (int extra = 0; extra <= 1; extra++) {
        char src[4 * BW_SYNTAX_MAX_QUERY_DEPTH + 64] = "";
        size_t n = 0;
        int depth = BW_SYNTAX_MAX_QUERY_DEPTH + extra;
        for (int i = 0; i < depth; i++)
            n += (size_t)snprintf(src + n, sizeof src - n, "(_ ");
        for (int i = 0; i < depth; i++)
            n += (size_t)snprintf(src + n, sizeof src - n, ")");
        char err[256] = "";
        uint32_t off = 0;
        struct bw_syn_query *q = bw_syn_query_new(BW_GRAMMAR_PY, src, n, err, sizeof err, &off);
        if (extra) {
            assert_null(q);
            assert_non_null(strstr(err, "nested too deep"));
        } else {
            if (!q)
                fail_msg("depth %d refused: %s", depth, err);
            bw_syn_query_free(q);
        }
    }
}

/* Parsing windows only: the nodes keep their offsets in the whole text, the rest is not read. */
static void windows_keep_offsets(void **state)
{
    (void)state;
    static const char code[] = "a = eval(x)\nthis is ( not [ python\nb = eval(y)\n";
    const char *second = strstr(code, "b = ");
    uint32_t a = (uint32_t)(second - code), b = (uint32_t)strlen(code);
    TSRange r = {{2, 0}, {3, 0}, a, b};
    struct bw_syn_tree t;
    assert_int_equal(bw_syntax_parse(sx, BW_GRAMMAR_PY, code, strlen(code), &r, 1, 0, &t), BW_PARSE_OK);
    struct bw_syn_query *q = query(BW_GRAMMAR_PY, "(call function: (identifier) @f (#eq? @f \"eval\")) @finding");
    struct texts x = {.t = &t, .id = bw_syn_query_capture_id(q, "finding")};
    assert_int_equal(bw_syn_query_run(sx, q, &t, 0, 0, texts_fn, &x), 0);
    assert_int_equal(x.n, 1);
    assert_string_equal(x.v[0], "eval(y)");
    /* a byte range for the run: the first call only */
    bw_syn_tree_free(&t);
    assert_int_equal(bw_syntax_parse(sx, BW_GRAMMAR_PY, code, strlen(code), NULL, 0, 0, &t), BW_PARSE_OK);
    x = (struct texts){.t = &t, .id = x.id};
    assert_int_equal(bw_syn_query_run(sx, q, &t, 0, 11, texts_fn, &x), 0);
    assert_int_equal(x.n, 1);
    assert_string_equal(x.v[0], "eval(x)");
    bw_syn_tree_free(&t);
    bw_syn_query_free(q);
    /* a query made for another grammar is refused */
    q = query(BW_GRAMMAR_JS, "(call_expression) @finding");
    assert_int_equal(bw_syntax_parse(sx, BW_GRAMMAR_PY, code, strlen(code), NULL, 0, 0, &t), BW_PARSE_OK);
    assert_int_equal(bw_syn_query_run(sx, q, &t, 0, 0, texts_fn, &x), -1);
    bw_syn_tree_free(&t);
    bw_syn_query_free(q);
}

/* A parse past its budget gives no tree, and the parser is fine for the next text. */
static void time_budget(void **state)
{
    (void)state;
    size_t n = 4u << 20;
    char *code = malloc(n + 1);
    assert_non_null(code);
    for (size_t i = 0; i < n; i++)
        code[i] = "x = f(a, b)\n"[i % 12];
    code[n] = '\0';
    struct bw_syn_tree t;
    assert_int_equal(bw_syntax_parse(sx, BW_GRAMMAR_PY, code, n, NULL, 0, 1, &t), BW_PARSE_LIMIT);
    assert_null(t.tree);
    free(code);
    assert_int_equal(bw_syntax_parse(sx, BW_GRAMMAR_PY, "y = 1\n", 6, NULL, 0, 1000000, &t), BW_PARSE_OK);
    assert_string_equal(ts_node_type(ts_tree_root_node(t.tree)), "module");
    assert_false(ts_node_has_error(ts_tree_root_node(t.tree)));
    bw_syn_tree_free(&t);
}

/* The prefilter derived from one pattern's predicates, or NULL. */
static char *prefilter_of(const char *preds)
{
    char src[512];
    snprintf(src, sizeof src, "((call function: (identifier) @f arguments: (argument_list (identifier) @a)) @finding %s)",
             preds);
    struct bw_syn_query *q = query(BW_GRAMMAR_PY, src);
    char *p = bw_syn_query_prefilter(q, 0);
    bw_syn_query_free(q);
    return p;
}

static void expect_prefilter(const char *preds, const char *want)
{
    char *got = prefilter_of(preds);
    if (want == NULL ? got != NULL : got == NULL || strcmp(got, want) != 0)
        fail_msg("%s: got %s, want %s", preds, got ? got : "(none)", want ? want : "(none)");
    free(got);
}

/* A #match? regex counts by the literal every match of it must contain, never by its own length:
 * `^[a-z_]+$` requires nothing, so #eq? "os" is the prefilter (the old scoring took the regex,
 * which fires on every identifier); a regex without a usable literal gives none. */
static void prefilter_from_required_literals(void **state)
{
    (void)state;
    expect_prefilter("(#eq? @f \"os\") (#match? @a \"^[a-z_]+$\")", "(?:\\bos\\b)");
    expect_prefilter("(#match? @a \"^[a-z_]+$\")", NULL);
    expect_prefilter("(#match? @f \"^(?:get|post)_json$\")", "(?:_json)");
    expect_prefilter("(#match? @f \"^(exec|eval)$\")", "(?:exec|eval)");
    expect_prefilter("(#match? @f \"^\\\\w*Request\\\\.getParameter$\")", "(?:Request\\.getParameter)");
    expect_prefilter("(#match? @f \"^(?:ab?c|xyz)$\")", NULL);        /* a, c: too short */
    expect_prefilter("(#match? @f \"(?i)system\")", NULL);            /* an option: trust nothing */
    expect_prefilter("(#match? @f \"^(?:pickle)?loads$\")", "(?:loads)"); /* the optional group is not required */
    expect_prefilter("(#match? @f \"^(?:yaml|pickle)\\\\.(?:load|loads)$\")", "(?:yaml|pickle)");
    expect_prefilter("(#eq? @f \"eval\") (#match? @a \"^user_input_[0-9]+$\")", "(?:user_input_)");
    expect_prefilter("(#any-of? @f \"exec\" \"system\") (#match? @a \"[0-9]\")", "(?:\\bexec\\b|\\bsystem\\b)");
    /* what it derives matches the text wherever the pattern can match */
    char *p = prefilter_of("(#match? @f \"^sub(?:process)+_run$\")");
    assert_non_null(p);
    assert_string_equal(p, "(?:process)");
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_grammar_loads),
        cmocka_unit_test(grammar_pick),
        cmocka_unit_test(fragments_still_yield),
        cmocka_unit_test(predicates_are_evaluated),
        cmocka_unit_test(bad_queries_are_refused),
        cmocka_unit_test(query_depth_is_bounded),
        cmocka_unit_test(windows_keep_offsets),
        cmocka_unit_test(time_budget),
        cmocka_unit_test(prefilter_from_required_literals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
