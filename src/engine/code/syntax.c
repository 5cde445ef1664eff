#define PCRE2_CODE_UNIT_WIDTH 8
#include "engine/code/syntax.h"

#include "common/limits.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the grammars' entry points, from libbw_grammars.a */
const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_go(void);
const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_php(void);
const TSLanguage *tree_sitter_php_only(void);
const TSLanguage *tree_sitter_ruby(void);
const TSLanguage *tree_sitter_c_sharp(void);
const TSLanguage *tree_sitter_rust(void);

static const struct {
    const char *name;
    const TSLanguage *(*language)(void);
    enum bw_lang lang;
} GRAMMARS[BW_GRAMMAR_COUNT] = {
    [BW_GRAMMAR_JS] = {"javascript", tree_sitter_javascript, BW_LANG_JS},
    [BW_GRAMMAR_TS] = {"typescript", tree_sitter_typescript, BW_LANG_TS},
    [BW_GRAMMAR_TSX] = {"tsx", tree_sitter_tsx, BW_LANG_TS},
    [BW_GRAMMAR_PY] = {"python", tree_sitter_python, BW_LANG_PY},
    [BW_GRAMMAR_GO] = {"go", tree_sitter_go, BW_LANG_GO},
    [BW_GRAMMAR_JAVA] = {"java", tree_sitter_java, BW_LANG_JAVA},
    [BW_GRAMMAR_PHP] = {"php", tree_sitter_php, BW_LANG_PHP},
    [BW_GRAMMAR_PHP_ONLY] = {"php_only", tree_sitter_php_only, BW_LANG_PHP},
    [BW_GRAMMAR_RB] = {"ruby", tree_sitter_ruby, BW_LANG_RB},
    [BW_GRAMMAR_CS] = {"c_sharp", tree_sitter_c_sharp, BW_LANG_CS},
    [BW_GRAMMAR_RS] = {"rust", tree_sitter_rust, BW_LANG_RS},
};

const char *bw_grammar_name(enum bw_grammar g) { return (unsigned)g < BW_GRAMMAR_COUNT ? GRAMMARS[g].name : "?"; }

const TSLanguage *bw_grammar_language(enum bw_grammar g)
{
    return (unsigned)g < BW_GRAMMAR_COUNT ? GRAMMARS[g].language() : NULL;
}

enum bw_lang bw_grammar_lang(enum bw_grammar g) { return GRAMMARS[(unsigned)g < BW_GRAMMAR_COUNT ? g : 0].lang; }

size_t bw_grammars_of(enum bw_lang l, enum bw_grammar out[2])
{
    size_t n = 0;
    for (int g = 0; g < BW_GRAMMAR_COUNT && n < 2; g++)
        if (GRAMMARS[g].lang == l)
            out[n++] = (enum bw_grammar)g;
    return n;
}

enum bw_grammar bw_grammar_pick(enum bw_lang l, const char *src, size_t len)
{
    switch (l) {
    case BW_LANG_TS: /* the typescript grammar reads `<T>x` as a cast, so JSX only parses as tsx */
        return memmem(src, len, "</", 2) || memmem(src, len, "/>", 2) ? BW_GRAMMAR_TSX : BW_GRAMMAR_TS;
    case BW_LANG_PHP: /* php_only reads code with or without `<?php`; only a template needs php */
        return memmem(src, len, "?>", 2) ? BW_GRAMMAR_PHP : BW_GRAMMAR_PHP_ONLY;
    default:
        for (int g = 0; g < BW_GRAMMAR_COUNT; g++)
            if (GRAMMARS[g].lang == l)
                return (enum bw_grammar)g;
        return BW_GRAMMAR_JS;
    }
}

/* ---- queries: compile, predicates ------------------------------------------------------------ */

enum pred_op { P_EQ, P_MATCH, P_ANY_OF };

struct pred {
    enum pred_op op;
    bool negate;
    uint32_t cap;    /* the capture tested */
    int64_t cap2;    /* #eq? @a @b: the other capture, else -1 */
    const char **strs; /* #eq?: one, #any-of?: several (the query's own strings) */
    uint32_t *lens;
    uint32_t nstrs;
    pcre2_code *re; /* #match? */
};

struct bw_syn_query {
    TSQuery *q;
    enum bw_grammar grammar;
    uint32_t npatterns;
    struct pattern_preds {
        struct pred *v;
        uint32_t n;
    } *preds; /* per pattern */
};

static void pred_free(struct pred *p)
{
    free(p->strs);
    free(p->lens);
    pcre2_code_free(p->re);
    *p = (struct pred){0};
}

static void preds_free(struct pattern_preds *p)
{
    for (uint32_t i = 0; i < p->n; i++)
        pred_free(&p->v[i]);
    free(p->v);
}

void bw_syn_query_free(struct bw_syn_query *q)
{
    if (!q)
        return;
    for (uint32_t i = 0; q->preds && i < q->npatterns; i++)
        preds_free(&q->preds[i]);
    free(q->preds);
    if (q->q)
        ts_query_delete(q->q);
    free(q);
}

/* Reads one predicate (steps up to a Done) into p. 0, or -1 with a message. */
static int pred_compile(const TSQuery *tq, const TSQueryPredicateStep *st, uint32_t n, struct pred *p, char *err,
                        size_t errlen)
{
    uint32_t len;
    const char *name = ts_query_string_value_for_id(tq, st[0].value_id, &len);
    memset(p, 0, sizeof *p);
    p->cap2 = -1;
    const char *base = name;
    if (strncmp(name, "not-", 4) == 0) {
        p->negate = true;
        base += 4;
    }
    if (strcmp(base, "eq?") == 0)
        p->op = P_EQ;
    else if (strcmp(base, "match?") == 0)
        p->op = P_MATCH;
    else if (strcmp(base, "any-of?") == 0)
        p->op = P_ANY_OF;
    else {
        snprintf(err, errlen, "unknown predicate #%s (the runner evaluates #eq?, #match?, #any-of? and their #not- forms)",
                 name);
        return -1;
    }
    if (n < 3 || st[1].type != TSQueryPredicateStepTypeCapture || (p->op != P_ANY_OF && n != 3)) {
        snprintf(err, errlen, "#%s takes a capture and %s", name, p->op == P_ANY_OF ? "one or more strings" : "one argument");
        return -1;
    }
    p->cap = st[1].value_id;
    if (p->op == P_EQ && st[2].type == TSQueryPredicateStepTypeCapture) {
        p->cap2 = st[2].value_id;
        return 0;
    }
    for (uint32_t i = 2; i < n; i++)
        if (st[i].type != TSQueryPredicateStepTypeString) {
            snprintf(err, errlen, "#%s: argument %u must be a string", name, i - 1);
            return -1;
        }
    p->nstrs = n - 2;
    p->strs = calloc(p->nstrs, sizeof *p->strs);
    p->lens = calloc(p->nstrs, sizeof *p->lens);
    if (!p->strs || !p->lens) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < p->nstrs; i++)
        p->strs[i] = ts_query_string_value_for_id(tq, st[i + 2].value_id, &p->lens[i]);
    if (p->op == P_MATCH) {
        int ec;
        PCRE2_SIZE eo;
        p->re = pcre2_compile((PCRE2_SPTR)p->strs[0], p->lens[0], 0, &ec, &eo, NULL);
        if (!p->re) {
            PCRE2_UCHAR msg[160];
            pcre2_get_error_message(ec, msg, sizeof msg);
            snprintf(err, errlen, "#%s: PCRE2: %s at offset %zu", name, (const char *)msg, (size_t)eo);
            return -1;
        }
        (void)pcre2_jit_compile(p->re, PCRE2_JIT_COMPLETE); /* an optimisation: the interpreter answers the same */
    }
    return 0;
}

static int pattern_preds(struct bw_syn_query *q, uint32_t pi, char *err, size_t errlen)
{
    uint32_t n;
    const TSQueryPredicateStep *st = ts_query_predicates_for_pattern(q->q, pi, &n);
    struct pattern_preds *pp = &q->preds[pi];
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i;
        while (j < n && st[j].type != TSQueryPredicateStepTypeDone)
            j++;
        if (j == i || st[i].type != TSQueryPredicateStepTypeString) {
            snprintf(err, errlen, "a predicate must start with its name");
            return -1;
        }
        if (pp->n >= BW_SYNTAX_MAX_PREDICATES) {
            snprintf(err, errlen, "more than %d predicates in one pattern", BW_SYNTAX_MAX_PREDICATES);
            return -1;
        }
        if (!pp->v && !(pp->v = calloc(BW_SYNTAX_MAX_PREDICATES, sizeof *pp->v))) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (pred_compile(q->q, st + i, j - i, &pp->v[pp->n], err, errlen) != 0) {
            pred_free(&pp->v[pp->n]); /* what it half built */
            return -1;
        }
        pp->n++;
        i = j + 1;
    }
    return 0;
}

/* ---- the query language we accept ------------------------------------------------------------------
 * tree-sitter 0.20.7 (Debian's) is not safe on every malformed query: it dereferences a missing step
 * for a capture on a group that holds only a predicate (`((#match? x)) @c`) and leaks a field's
 * capture list when the grammar has no such field. Catalogs are operator input (`bulwark rules
 * test FILE`), so a query is parsed here first, in the grammar tree-sitter documents, and only a
 * well-formed one reaches ts_query_new:
 *
 *   query     = { pattern }                        at the top level, no predicate and no anchor
 *   pattern   = element [ "*" | "+" | "?" ] { "@" ident }
 *   element   = "(" node { child } ")"             a named node: ident, "_", or ident "/" ident
 *             | "(" pattern { pattern | pred } ")" a group of siblings: at least one pattern
 *             | "[" pattern { pattern } "]"        alternatives
 *             | string | "_"
 *   child     = pattern | ident ":" pattern | "!" ident | "." | pred
 *   pred      = "(" "#" ident { "@" ident | string | ident } ")"
 *
 * with ";" comments and white space between tokens, nesting bounded by BW_SYNTAX_MAX_QUERY_DEPTH.
 * Field names must be the grammar's. A refusal gives the offset, as tree-sitter's errors do. */
struct qp {
    const TSLanguage *lang;
    const char *s;
    size_t len, i;
    const char *why;
};

static int is_ident_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c && strchr("_-.?!", c));
}

static void qp_space(struct qp *p)
{
    while (p->i < p->len) {
        char c = p->s[p->i];
        if (c == ';')
            while (p->i < p->len && p->s[p->i] != '\n')
                p->i++;
        else if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            p->i++;
        else
            break;
    }
}

static int qp_peek(struct qp *p)
{
    qp_space(p);
    return p->i < p->len ? (unsigned char)p->s[p->i] : -1;
}

static int qp_fail(struct qp *p, const char *why)
{
    p->why = why;
    return -1;
}

/* An identifier: letters, digits and _-.?! (not starting with '.', the anchor); its length. */
static size_t qp_ident(struct qp *p)
{
    size_t at = p->i;
    if (p->i < p->len && p->s[p->i] != '.')
        while (p->i < p->len && is_ident_char((unsigned char)p->s[p->i]))
            p->i++;
    return p->i - at;
}

static int qp_string(struct qp *p)
{
    for (p->i++; p->i < p->len; p->i++) {
        if (p->s[p->i] == '\\')
            p->i++;
        else if (p->s[p->i] == '"') {
            p->i++;
            return 0;
        }
    }
    return qp_fail(p, "a string without its closing quote");
}

static int qp_pattern(struct qp *p, int depth);

/* After "(": the predicate's optional "#", name and arguments, through its ")". */
static int qp_pred(struct qp *p)
{
    if (p->s[p->i] == '#')
        p->i++;
    if (!qp_ident(p))
        return qp_fail(p, "a predicate without a name");
    for (;;) {
        int c = qp_peek(p);
        if (c == ')') {
            p->i++;
            return 0;
        }
        if (c == '"') {
            if (qp_string(p))
                return -1;
        } else if (c == '@') {
            p->i++;
            if (!qp_ident(p))
                return qp_fail(p, "a capture without a name");
        } else if (c < 0 || !qp_ident(p)) {
            return qp_fail(p, "a predicate's arguments are captures, strings or names");
        }
    }
}

/* Whether "(" at p->i opens a predicate: "(" then "#", or a name ending in '?' or '!' (tree-sitter
 * still reads the older "(eq? @a @b)" as a predicate, so it must be checked as one). */
static bool qp_at_pred(struct qp *p)
{
    size_t save = p->i;
    p->i++;
    bool pred = qp_peek(p) == '#';
    if (!pred) {
        size_t at = p->i, n = qp_ident(p);
        pred = n && (p->s[at + n - 1] == '?' || p->s[at + n - 1] == '!');
    }
    p->i = save;
    return pred;
}

/* A named node's children, after its type, through its ")". */
static int qp_children(struct qp *p, int depth)
{
    for (;;) {
        int c = qp_peek(p);
        if (c == ')') {
            p->i++;
            return 0;
        }
        if (c == '.') {
            p->i++;
        } else if (c == '!') {
            p->i++;
            if (!qp_ident(p))
                return qp_fail(p, "a negated field without a name");
        } else if (c == '(' && qp_at_pred(p)) {
            qp_peek(p);
            p->i++;
            qp_peek(p);
            if (qp_pred(p))
                return -1;
        } else if (c >= 0 && c != '_' && is_ident_char((unsigned char)c)) {
            size_t at = p->i, n = qp_ident(p);
            if (n == 0 || qp_peek(p) != ':')
                return qp_fail(p, "a bare name among a node's children: write (name) or field: (name)");
            if (n > UINT32_MAX || !ts_language_field_id_for_name(p->lang, p->s + at, (uint32_t)n)) {
                p->i = at;
                return qp_fail(p, "unknown field");
            }
            p->i++;
            if (qp_pattern(p, depth + 1))
                return -1;
        } else if (c < 0) {
            return qp_fail(p, "a node without its closing parenthesis");
        } else if (qp_pattern(p, depth + 1)) {
            return -1;
        }
    }
}

static int qp_element(struct qp *p, int depth)
{
    if (depth >= BW_SYNTAX_MAX_QUERY_DEPTH) /* depth counts from 0: at most the limit's levels */
        return qp_fail(p, "patterns nested too deep");
    int c = qp_peek(p);
    if (c == '"')
        return qp_string(p);
    if (c == '_' && !(p->i + 1 < p->len && is_ident_char((unsigned char)p->s[p->i + 1]))) {
        p->i++;
        return 0;
    }
    if (c == '[') {
        p->i++;
        int n = 0;
        while (qp_peek(p) != ']') {
            if (qp_peek(p) < 0)
                return qp_fail(p, "alternatives without their closing bracket");
            if (qp_pattern(p, depth + 1))
                return -1;
            n++;
        }
        p->i++;
        return n ? 0 : qp_fail(p, "empty alternatives");
    }
    if (c != '(')
        return qp_fail(p, "expected a pattern: (node), [alternatives], \"string\" or _");
    if (qp_at_pred(p))
        return qp_fail(p, "a predicate outside its pattern: write ((node) @c (#eq? @c \"x\"))");
    p->i++;
    c = qp_peek(p);
    if (c == '(' || c == '[' || c == '"') { /* a group of siblings */
        int n = 0;
        for (;;) {
            c = qp_peek(p);
            if (c == ')') {
                p->i++;
                return n ? 0 : qp_fail(p, "a group of predicates only");
            }
            if (c < 0)
                return qp_fail(p, "a group without its closing parenthesis");
            if (c == '(' && qp_at_pred(p)) {
                if (!n)
                    return qp_fail(p, "a predicate before the pattern it checks");
                p->i++;
                qp_peek(p);
                if (qp_pred(p))
                    return -1;
            } else {
                if (qp_pattern(p, depth + 1))
                    return -1;
                n++;
            }
        }
    }
    if (!qp_ident(p))
        return qp_fail(p, "a node without a type: write (type), (_) or (\"text\")");
    if (p->i < p->len && p->s[p->i] == '/') { /* supertype/subtype */
        p->i++;
        if (!qp_ident(p))
            return qp_fail(p, "a supertype without its subtype");
    }
    return qp_children(p, depth);
}

static int qp_pattern(struct qp *p, int depth)
{
    if (qp_element(p, depth))
        return -1;
    int c = qp_peek(p);
    if (c == '*' || c == '+' || c == '?')
        p->i++;
    while (qp_peek(p) == '@') {
        p->i++;
        if (!qp_ident(p))
            return qp_fail(p, "a capture without a name");
    }
    return 0;
}

/* 0 when src is a query in the language above; else -1 with *off and *why. */
static int query_check(const TSLanguage *lang, const char *src, size_t len, uint32_t *off, const char **why)
{
    struct qp p = {lang, src, len, 0, NULL};
    while (qp_peek(&p) >= 0)
        if (qp_pattern(&p, 0))
            break;
    if (!p.why)
        return 0;
    *off = (uint32_t)(p.i < len ? p.i : len);
    *why = p.why;
    return -1;
}

struct bw_syn_query *bw_syn_query_new(enum bw_grammar g, const char *src, size_t len, char *err, size_t errlen,
                              uint32_t *err_off)
{
    *err_off = UINT32_MAX;
    if ((unsigned)g >= BW_GRAMMAR_COUNT || len > UINT32_MAX) {
        snprintf(err, errlen, "no such grammar, or a query too long");
        return NULL;
    }
    struct bw_syn_query *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    q->grammar = g;
    uint32_t off = 0;
    TSQueryError qe = TSQueryErrorNone;
    const char *why = NULL;
    if (query_check(bw_grammar_language(g), src, len, &off, &why) != 0) {
        /* an unknown field is a fact about the grammar, every other refusal a syntax error */
        snprintf(err, errlen, "%s query: %s%s (byte %u)", bw_grammar_name(g),
                 strcmp(why, "unknown field") ? "syntax error: " : "", why, off);
        *err_off = off;
        goto fail;
    }
    q->q = ts_query_new(bw_grammar_language(g), src, (uint32_t)len, &off, &qe);
    if (!q->q) {
        static const char *const what[] = {"", "syntax error", "unknown node type", "unknown field",
                                           "unknown capture", "impossible structure", "language"};
        snprintf(err, errlen, "%s query: %s", bw_grammar_name(g),
                 (unsigned)qe < sizeof what / sizeof what[0] ? what[qe] : "error");
        *err_off = off;
        goto fail;
    }
    q->npatterns = ts_query_pattern_count(q->q);
    q->preds = calloc(q->npatterns ? q->npatterns : 1, sizeof *q->preds);
    if (!q->preds) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < q->npatterns; i++) {
        char e[240];
        if (pattern_preds(q, i, e, sizeof e) != 0) {
            *err_off = ts_query_start_byte_for_pattern(q->q, i);
            snprintf(err, errlen, "%s query: %s", bw_grammar_name(g), e);
            goto fail;
        }
    }
    return q;
fail:
    bw_syn_query_free(q);
    return NULL;
}

const TSQuery *bw_syn_query_ts(const struct bw_syn_query *q) { return q->q; }
uint32_t bw_syn_query_pattern_count(const struct bw_syn_query *q) { return q->npatterns; }
uint32_t bw_syn_query_pattern_start(const struct bw_syn_query *q, uint32_t i) { return ts_query_start_byte_for_pattern(q->q, i); }

int bw_syn_query_capture_id(const struct bw_syn_query *q, const char *name)
{
    uint32_t n = ts_query_capture_count(q->q), k = (uint32_t)strlen(name), len;
    for (uint32_t i = 0; i < n; i++) {
        const char *c = ts_query_capture_name_for_id(q->q, i, &len);
        if (len == k && memcmp(c, name, k) == 0)
            return (int)i;
    }
    return -1;
}

/* ---- per thread: parsers, cursor ---------------------------------------------------------------- */

struct bw_syntax {
    TSParser *parser[BW_GRAMMAR_COUNT]; /* made on first use */
    TSQueryCursor *cursor;
    pcre2_match_data *md;
    pcre2_match_context *mctx;
};

struct bw_syntax *bw_syntax_new(void)
{
    struct bw_syntax *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cursor = ts_query_cursor_new();
    s->md = pcre2_match_data_create(1, NULL); /* predicates ask only whether a regex matches */
    s->mctx = pcre2_match_context_create(NULL);
    if (!s->cursor || !s->md || !s->mctx) {
        bw_syntax_free(s);
        return NULL;
    }
    pcre2_set_match_limit(s->mctx, BW_SCAN_MATCH_LIMIT);
    pcre2_set_depth_limit(s->mctx, BW_SCAN_DEPTH_LIMIT);
    ts_query_cursor_set_match_limit(s->cursor, BW_SYNTAX_MATCH_LIMIT);
    return s;
}

void bw_syntax_free(struct bw_syntax *s)
{
    if (!s)
        return;
    for (int g = 0; g < BW_GRAMMAR_COUNT; g++)
        if (s->parser[g])
            ts_parser_delete(s->parser[g]);
    if (s->cursor)
        ts_query_cursor_delete(s->cursor);
    pcre2_match_data_free(s->md);
    pcre2_match_context_free(s->mctx);
    free(s);
}

int bw_syntax_parse(struct bw_syntax *s, enum bw_grammar g, const char *src, size_t len, const TSRange *ranges,
                    uint32_t nranges, uint64_t timeout_us, struct bw_syn_tree *out)
{
    memset(out, 0, sizeof *out);
    if ((unsigned)g >= BW_GRAMMAR_COUNT)
        return -1;
    size_t parsed = len;
    if (nranges) {
        parsed = 0;
        for (uint32_t i = 0; i < nranges; i++)
            parsed += ranges[i].end_byte - ranges[i].start_byte;
    }
    if (parsed > BW_SYNTAX_MAX_PARSE_BYTES || len > UINT32_MAX)
        return BW_PARSE_LIMIT;
    TSParser *p = s->parser[g];
    if (!p) {
        p = ts_parser_new();
        if (!p)
            return -1;
        if (!ts_parser_set_language(p, bw_grammar_language(g))) { /* an ABI this runtime does not read */
            ts_parser_delete(p);
            return -1;
        }
        s->parser[g] = p;
    }
    ts_parser_set_timeout_micros(p, timeout_us);
    if (!ts_parser_set_included_ranges(p, nranges ? ranges : NULL, nranges)) /* 0: the whole text */
        return -1; /* ranges not sorted or overlapping: the caller's bug */
    TSTree *t = ts_parser_parse_string(p, NULL, src, (uint32_t)len);
    if (!t) {
        ts_parser_reset(p); /* or the next parse would resume this one */
        return BW_PARSE_LIMIT;
    }
    *out = (struct bw_syn_tree){t, src, len, g};
    return BW_PARSE_OK;
}

void bw_syn_tree_free(struct bw_syn_tree *t)
{
    if (t->tree)
        ts_tree_delete(t->tree);
    memset(t, 0, sizeof *t);
}

/* ---- running -------------------------------------------------------------------------------------- */

static bool text_is(const struct bw_syn_tree *t, TSNode n, const char *s, size_t k)
{
    size_t len;
    const char *x = bw_syn_node_text(t, n, &len);
    return len == k && memcmp(x, s, k) == 0;
}

/* Whether node n satisfies p (before negation). */
static bool pred_node(struct bw_syntax *s, const struct pred *p, const struct bw_syn_tree *t, TSNode n,
                      const struct bw_syn_match *m)
{
    switch (p->op) {
    case P_EQ:
        if (p->cap2 >= 0) {
            TSNode o;
            if (!bw_syn_match_capture(m, (int)p->cap2, &o))
                return false;
            size_t len;
            const char *x = bw_syn_node_text(t, o, &len);
            return text_is(t, n, x, len);
        }
        return text_is(t, n, p->strs[0], p->lens[0]);
    case P_ANY_OF:
        for (uint32_t i = 0; i < p->nstrs; i++)
            if (text_is(t, n, p->strs[i], p->lens[i]))
                return true;
        return false;
    case P_MATCH: {
        size_t len;
        const char *x = bw_syn_node_text(t, n, &len);
        /* a match limit (pathological regex or text) counts as no match */
        return pcre2_match(p->re, (PCRE2_SPTR)x, len, 0, 0, s->md, s->mctx) >= 0;
    }
    }
    return false;
}

/* Every node a predicate's capture holds must satisfy it (a capture with a quantifier holds
 * several); a capture that holds none passes, as in tree-sitter's own bindings. */
static bool preds_hold(struct bw_syntax *s, const struct pattern_preds *pp, const struct bw_syn_tree *t,
                       const struct bw_syn_match *m)
{
    for (uint32_t i = 0; i < pp->n; i++) {
        const struct pred *p = &pp->v[i];
        for (uint16_t c = 0; c < m->ncaptures; c++) {
            if (m->captures[c].index != p->cap)
                continue;
            if (pred_node(s, p, t, m->captures[c].node, m) == p->negate)
                return false;
        }
    }
    return true;
}

bool bw_syn_match_capture(const struct bw_syn_match *m, int id, TSNode *out)
{
    for (uint16_t c = 0; c < m->ncaptures; c++)
        if ((int)m->captures[c].index == id) {
            *out = m->captures[c].node;
            return true;
        }
    return false;
}

int bw_syn_query_run(struct bw_syntax *s, const struct bw_syn_query *q, const struct bw_syn_tree *t, uint32_t from, uint32_t to,
                 bw_syn_match_fn fn, void *ctx)
{
    if (!t->tree || t->grammar != q->grammar)
        return -1;
    ts_query_cursor_exec(s->cursor, q->q, ts_tree_root_node(t->tree));
    ts_query_cursor_set_byte_range(s->cursor, from, to ? to : UINT32_MAX);
    TSQueryMatch qm;
    while (ts_query_cursor_next_match(s->cursor, &qm)) {
        if (qm.pattern_index >= q->npatterns)
            continue;
        struct bw_syn_match m = {qm.pattern_index, qm.capture_count, qm.captures};
        if (!preds_hold(s, &q->preds[qm.pattern_index], t, &m))
            continue;
        int rc = fn(ctx, &m);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- prefilter derivation ---------------------------------------------------------------------- */

static bool word_char(char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); }

/* s[0..n) as a regular expression matching it literally; with bounds, \b on a side that is a
 * word character. */
static void put_literal(char *o, size_t *w, const char *s, size_t n, bool bounds)
{
    if (bounds && n && word_char(s[0]))
        o[(*w)++] = '\\', o[(*w)++] = 'b';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7f) { /* a NUL would end the expression; bytes, not characters */
            *w += (size_t)sprintf(o + *w, "\\x%02x", c);
            continue;
        }
        if (c && strchr("\\^$.|?*+()[]{}/-#", c))
            o[(*w)++] = '\\';
        o[(*w)++] = s[i];
    }
    if (bounds && n && word_char(s[n - 1]))
        o[(*w)++] = '\\', o[(*w)++] = 'b';
}

/* ---- a regex's required literals ----------------------------------------------------------------
 * What every match of a #match? regex must contain, as a set of literals (a match contains at
 * least one of them): the regex is read as a sequence of atoms; a run of literal characters is a
 * candidate, a group contributes the set its alternatives require (each alternative must give
 * one), and the sequence keeps its best candidate (the longest shortest member). Anything
 * optional (?, *, {0,n}), a class, an escape other than an escaped punctuation, a look-around or
 * an inline option such as (?i) gives nothing, so the answer is always a true necessity or
 * none at all. */

#define LIT_MAX 8   /* literals in one set */
#define LIT_LEN 64  /* bytes of one literal */

struct litset {
    uint32_t n;               /* 0: nothing required */
    char s[LIT_MAX][LIT_LEN]; /* not NUL-terminated */
    uint32_t len[LIT_MAX];
};

static size_t lit_score(const struct litset *l)
{
    size_t m = SIZE_MAX;
    for (uint32_t i = 0; i < l->n; i++)
        m = l->len[i] < m ? l->len[i] : m;
    return l->n ? m : 0;
}

struct rx {
    const char *s;
    size_t n, i;
    bool bad; /* an inline option or syntax this reader does not follow: no literal at all */
};

static void rx_alt(struct rx *r, int depth, struct litset *out);

/* A quantifier at r->i, consumed; whether it makes the atom before it optional. */
static bool rx_quant(struct rx *r, bool *repeats)
{
    *repeats = false;
    if (r->i >= r->n)
        return false;
    char c = r->s[r->i];
    bool optional = false;
    if (c == '?' || c == '*' || c == '+') {
        r->i++;
        optional = c != '+';
        *repeats = true;
    } else if (c == '{' && r->i + 1 < r->n && r->s[r->i + 1] >= '0' && r->s[r->i + 1] <= '9') {
        size_t j = r->i + 1;
        long lo = 0;
        while (j < r->n && r->s[j] >= '0' && r->s[j] <= '9')
            lo = lo * 10 + (r->s[j++] - '0'), lo = lo > 1000 ? 1000 : lo;
        while (j < r->n && r->s[j] != '}')
            j++;
        if (j >= r->n) /* not a quantifier: a literal { */
            return false;
        r->i = j + 1;
        optional = lo == 0;
        *repeats = true;
    } else {
        return false;
    }
    if (r->i < r->n && (r->s[r->i] == '?' || r->s[r->i] == '+')) /* lazy or possessive */
        r->i++;
    return optional;
}

/* One alternative: a sequence of atoms up to | or ) or the end. */
static void rx_seq(struct rx *r, int depth, struct litset *best)
{
    struct litset run = {0};
    run.n = 1;
    run.len[0] = 0;
    best->n = 0;
#define FLUSH()                                                                                   \
    do {                                                                                          \
        if (run.len[0] && lit_score(&run) > lit_score(best))                                     \
            *best = run;                                                                          \
        run.len[0] = 0;                                                                           \
    } while (0)
    while (r->i < r->n && !r->bad) {
        char c = r->s[r->i];
        if (c == '|' || c == ')')
            break;
        if (c == '(') {
            r->i++;
            bool skip = false;
            if (r->i < r->n && r->s[r->i] == '?') {
                char k = r->i + 1 < r->n ? r->s[r->i + 1] : 0;
                if (k == ':') {
                    r->i += 2;
                } else if (k == '=' || k == '!' || k == '<') { /* a look-around: nothing it holds is required text */
                    r->i += 2;
                    if (k == '<' && r->i < r->n && (r->s[r->i] == '=' || r->s[r->i] == '!'))
                        r->i++;
                    else if (k == '<') { /* (?<name> ... ): a named group */
                        while (r->i < r->n && r->s[r->i] != '>')
                            r->i++;
                        r->i++;
                        goto group;
                    }
                    skip = true;
                } else {
                    r->bad = true; /* (?i), (?x: ...), (?| ...): options change what a literal is */
                    break;
                }
            }
        group:;
            struct litset g;
            rx_alt(r, depth + 1, &g);
            if (r->i >= r->n || r->s[r->i] != ')') {
                r->bad = true;
                break;
            }
            r->i++;
            bool repeats;
            bool optional = rx_quant(r, &repeats);
            FLUSH();
            if (!skip && !optional && lit_score(&g) > lit_score(best))
                *best = g;
            continue;
        }
        if (c == '[' || c == '.' || c == '^' || c == '$') {
            FLUSH();
            if (c == '[') { /* skip the class: ] first is a literal, escapes skip a byte */
                size_t j = r->i + 1;
                if (j < r->n && r->s[j] == '^')
                    j++;
                if (j < r->n && r->s[j] == ']')
                    j++;
                while (j < r->n && r->s[j] != ']')
                    j += r->s[j] == '\\' ? 2 : 1;
                r->i = j < r->n ? j + 1 : r->n;
            } else {
                r->i++;
            }
            bool repeats;
            (void)rx_quant(r, &repeats);
            continue;
        }
        char lit;
        if (c == '\\') {
            char e = r->i + 1 < r->n ? r->s[r->i + 1] : 0;
            if (e && !((e | 0x20) >= 'a' && (e | 0x20) <= 'z') && !(e >= '0' && e <= '9')) {
                lit = e; /* escaped punctuation: itself */
                r->i += 2;
            } else { /* \w \d \s \b \z \x.. \Q ...: no literal here */
                if (e == 'Q' || e == 'E' || e == 'K') {
                    r->bad = true;
                    break;
                }
                FLUSH();
                r->i += e ? 2 : 1;
                bool repeats;
                (void)rx_quant(r, &repeats);
                continue;
            }
        } else {
            lit = c;
            r->i++;
        }
        bool repeats;
        bool optional = rx_quant(r, &repeats);
        if (optional) { /* this character may be absent: the run ends before it */
            FLUSH();
            continue;
        }
        if (run.len[0] < LIT_LEN)
            run.s[0][run.len[0]++] = lit;
        if (repeats) /* x+ or x{2,}: x is there, what follows it may not be next to it */
            FLUSH();
    }
    FLUSH();
#undef FLUSH
}

/* Alternatives up to ) or the end: the union of what each requires, or nothing when one
 * requires nothing or there are too many. */
static void rx_alt(struct rx *r, int depth, struct litset *out)
{
    out->n = 0;
    if (depth > 16) {
        r->bad = true;
        return;
    }
    bool none = false;
    for (;;) {
        struct litset one;
        rx_seq(r, depth, &one);
        if (r->bad)
            return;
        if (one.n == 0 || out->n + one.n > LIT_MAX)
            none = true;
        for (uint32_t k = 0; !none && k < one.n; k++) {
            memcpy(out->s[out->n], one.s[k], one.len[k]);
            out->len[out->n++] = one.len[k];
        }
        if (r->i < r->n && r->s[r->i] == '|') {
            r->i++;
            continue;
        }
        break;
    }
    if (none)
        out->n = 0;
}

/* The literals every match of regex s[0..n) contains; n == 0 in out when there are none. */
static void required_literals(const char *s, size_t n, struct litset *out)
{
    struct rx r = {s, n, 0, false};
    rx_alt(&r, 0, out);
    if (r.bad || r.i != n) /* an unbalanced ) or an option: trust nothing */
        out->n = 0;
}

/* The shortest literal a prefilter may rest on: shorter ones fire on nearly every file. */
#define PREFILTER_MIN_LITERAL 3

char *bw_syn_query_prefilter(const struct bw_syn_query *q, uint32_t pattern)
{
    if (pattern >= q->npatterns)
        return NULL;
    /* the rarest necessary text: #eq? with its longest string, else the #any-of? whose shortest
     * string is longest, else a #match? regex's required literals; each scored by the shortest
     * text it rests on. A regex is never a prefilter by its own length: `^[a-z_]+$` is 9 bytes
     * and requires nothing. */
    const struct pattern_preds *pp = &q->preds[pattern];
    const struct pred *best = NULL;
    struct litset best_re = {0};
    size_t best_score = 0;
    for (uint32_t i = 0; i < pp->n; i++) {
        const struct pred *p = &pp->v[i];
        if (p->negate || p->cap2 >= 0 || p->nstrs == 0)
            continue;
        size_t shortest = SIZE_MAX;
        struct litset ls = {0};
        if (p->op == P_MATCH) {
            if (memchr(p->strs[0], 0, p->lens[0]))
                continue;
            required_literals(p->strs[0], p->lens[0], &ls);
            shortest = lit_score(&ls);
        } else {
            for (uint32_t k = 0; k < p->nstrs; k++)
                shortest = p->lens[k] < shortest ? p->lens[k] : shortest;
        }
        if (shortest == 0 || (p->op == P_MATCH && shortest < PREFILTER_MIN_LITERAL))
            continue;
        /* at equal length an exact string wins: its \b bounds make it the rarer text */
        size_t score = shortest * 4 + (p->op == P_EQ ? 2 : p->op == P_ANY_OF ? 1 : 0);
        if (score > best_score) {
            best = p, best_score = score;
            best_re = ls;
        }
    }
    if (!best)
        return NULL;
    size_t cap = 16;
    if (best->op == P_MATCH)
        for (uint32_t k = 0; k < best_re.n; k++)
            cap += best_re.len[k] * 4 + 8;
    else
        for (uint32_t k = 0; k < best->nstrs; k++)
            cap += best->lens[k] * 4 + 8; /* \xHH per byte at worst */
    char *o = malloc(cap);
    if (!o)
        return NULL;
    size_t w = 0;
    memcpy(o + w, "(?:", 3);
    w += 3;
    if (best->op == P_MATCH) {
        /* a regex's literal may sit inside a word (`\w*Request`): no \b around it */
        for (uint32_t k = 0; k < best_re.n; k++) {
            if (k)
                o[w++] = '|';
            put_literal(o, &w, best_re.s[k], best_re.len[k], false);
        }
    } else {
        for (uint32_t k = 0; k < best->nstrs; k++) {
            if (k)
                o[w++] = '|';
            put_literal(o, &w, best->strs[k], best->lens[k], true);
        }
    }
    o[w++] = ')';
    o[w] = '\0';
    return o;
}
