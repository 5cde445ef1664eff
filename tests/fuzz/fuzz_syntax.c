/* engine/code/syntax on arbitrary bytes. The first byte picks the grammar and the mode:
 *  - code: the rest is parsed (whole, or in windows cut at newlines when bit 6 is set) and a
 *    fixed query with every predicate form runs over it; every match must lie in the text and
 *    satisfy its predicates (what tree-sitter 0.20 would otherwise hand out unchecked);
 *  - query (bit 7): the rest is a query for that grammar; it either compiles, with a prefilter
 *    that PCRE2 accepts, or is refused with a message.
 * Invariants break with abort(), so libFuzzer reports them. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "engine/code/syntax.h"

#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bw_syntax *syn;
static struct bw_syn_query *q[BW_GRAMMAR_COUNT];

/* Any named node (grammars name their identifiers differently), and ERROR, which all have. */
static const char *const QUERY = "((_) @i (#match? @i \"^[a-z]{1,3}\\\\z\"))\n" /* $ would allow a final newline */
                                 "((_) @j (#any-of? @j \"request\" \"url\" \"path\"))\n"
                                 "((_) @k (#not-eq? @k \"x\"))\n"
                                 "(ERROR) @e\n";

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    syn = bw_syntax_new();
    if (!syn)
        abort();
    for (int g = 0; g < BW_GRAMMAR_COUNT; g++) {
        char err[300];
        uint32_t off;
        q[g] = bw_syn_query_new((enum bw_grammar)g, QUERY, strlen(QUERY), err, sizeof err, &off);
        if (!q[g]) {
            fprintf(stderr, "fuzz_syntax: %s: %s\n", bw_grammar_name((enum bw_grammar)g), err);
            abort();
        }
    }
    return 0;
}

struct check {
    const struct bw_syn_tree *t;
    int i, j, k;
};

static int on_match(void *ctx, const struct bw_syn_match *m)
{
    struct check *c = ctx;
    for (uint16_t n = 0; n < m->ncaptures; n++) {
        TSNode node = m->captures[n].node;
        if (ts_node_end_byte(node) > c->t->len || ts_node_start_byte(node) > ts_node_end_byte(node))
            abort();
    }
    TSNode x;
    size_t len;
    if (m->pattern == 0 && bw_syn_match_capture(m, c->i, &x)) {
        const char *s = bw_syn_node_text(c->t, x, &len);
        if (len < 1 || len > 3)
            abort();
        for (size_t i = 0; i < len; i++)
            if (s[i] < 'a' || s[i] > 'z')
                abort();
    }
    if (m->pattern == 1 && bw_syn_match_capture(m, c->j, &x)) {
        const char *s = bw_syn_node_text(c->t, x, &len);
        if (!((len == 7 && !memcmp(s, "request", 7)) || (len == 3 && !memcmp(s, "url", 3)) ||
              (len == 4 && !memcmp(s, "path", 4))))
            abort();
    }
    if (m->pattern == 2 && bw_syn_match_capture(m, c->k, &x)) {
        const char *s = bw_syn_node_text(c->t, x, &len);
        if (len == 1 && s[0] == 'x')
            abort();
    }
    return 0;
}

static void fuzz_query(enum bw_grammar g, const char *src, size_t len)
{
    char err[300];
    uint32_t off;
    struct bw_syn_query *fq = bw_syn_query_new(g, src, len, err, sizeof err, &off);
    if (!fq) {
        if (!err[0] || (off != UINT32_MAX && off > len))
            abort();
        return;
    }
    for (uint32_t p = 0; p < bw_syn_query_pattern_count(fq); p++) {
        char *re = bw_syn_query_prefilter(fq, p);
        if (re) { /* a derived prefilter must be a regex PCRE2 compiles */
            int ec;
            PCRE2_SIZE eo;
            pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL);
            if (!c)
                abort();
            pcre2_code_free(c);
            free(re);
        }
    }
    bw_syn_query_free(fq);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    enum bw_grammar g = (enum bw_grammar)((data[0] & 0x3f) % BW_GRAMMAR_COUNT);
    const char *src = (const char *)data + 1;
    size_t len = size - 1;
    if (data[0] & 0x80) {
        fuzz_query(g, src, len);
        return 0;
    }
    /* windows: the even lines (at most 8), sorted and disjoint, as the scanner's windows are */
    TSRange r[8];
    uint32_t nr = 0;
    if (data[0] & 0x40) {
        uint32_t row = 0;
        size_t start = 0;
        for (size_t i = 0; i <= len && nr < 8 && len <= UINT32_MAX; i++) {
            if (i < len && src[i] != '\n')
                continue;
            if (row % 2 == 0 && i > start)
                r[nr++] = (TSRange){{row, 0}, {row, (uint32_t)(i - start)}, (uint32_t)start, (uint32_t)i};
            row++;
            start = i + 1;
        }
    }
    struct bw_syn_tree t;
    int rc = bw_syntax_parse(syn, g, src, len, nr ? r : NULL, nr, 200000, &t);
    if (rc < 0)
        abort();
    if (rc != BW_PARSE_OK)
        return 0;
    if (ts_node_end_byte(ts_tree_root_node(t.tree)) > len)
        abort();
    struct check c = {&t, bw_syn_query_capture_id(q[g], "i"), bw_syn_query_capture_id(q[g], "j"),
                      bw_syn_query_capture_id(q[g], "k")};
    if (bw_syn_query_run(syn, q[g], &t, 0, 0, on_match, &c) < 0)
        abort();
    bw_syn_tree_free(&t);
    return 0;
}
