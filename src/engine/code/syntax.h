/* Syntax trees for the code scanner, on tree-sitter: the grammars (compiled once into one static
 * library by scripts/grammars.sh), a parse per buffer under a time budget, and a query runner that
 * EVALUATES predicates. The tree-sitter 0.20 C API parses `#eq?`, `#match?` and `#any-of?` (and
 * their `#not-` forms) but does not apply them, so an unevaluated query matches everything; here
 * every predicate is checked before a match is handed out (PCRE2 for #match?, compiled once per
 * query), and a query naming any other predicate does not compile.
 *
 * Threads: a struct bw_syn_query is immutable once made and shared read-only by every thread; a
 * struct bw_syntax (one parser per grammar, a query cursor, PCRE2 match data) belongs to one
 * thread at a time and is reused from scan to scan.
 * Ownership: bw_syn_query_new/bw_syn_query_free; bw_syntax_new/bw_syntax_free; a struct bw_syn_tree filled by
 * bw_syntax_parse is freed with bw_syn_tree_free and borrows the text it was parsed from (which must
 * outlive it). Node byte offsets are offsets in that text, windows or not. */
#ifndef BW_ENGINE_CODE_SYNTAX_H
#define BW_ENGINE_CODE_SYNTAX_H
#include "engine/code/lang.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

/* The parsers: a language may have two (ts: typescript and tsx; php: php with its HTML text
 * around `<?php ... ?>`, and php_only for code without tags, fragments included). */
enum bw_grammar {
    BW_GRAMMAR_JS, BW_GRAMMAR_TS, BW_GRAMMAR_TSX, BW_GRAMMAR_PY, BW_GRAMMAR_GO, BW_GRAMMAR_JAVA,
    BW_GRAMMAR_PHP, BW_GRAMMAR_PHP_ONLY, BW_GRAMMAR_RB, BW_GRAMMAR_CS, BW_GRAMMAR_RS, BW_GRAMMAR_COUNT
};

const char *bw_grammar_name(enum bw_grammar g);
const TSLanguage *bw_grammar_language(enum bw_grammar g);
/* The language a grammar parses. */
enum bw_lang bw_grammar_lang(enum bw_grammar g);
/* The grammars a query written for language l must compile for (1 or 2, into out). */
size_t bw_grammars_of(enum bw_lang l, enum bw_grammar out[2]);
/* The grammar that parses this text as language l: TypeScript with JSX in it ("</" or "/>") is
 * tsx, PHP with a closing tag ("?>", so HTML around it) is php, other PHP php_only. */
enum bw_grammar bw_grammar_pick(enum bw_lang l, const char *src, size_t len);

/* ---- queries ------------------------------------------------------------------------------------ */

struct bw_syn_query;

/* Compiles an S-expression query for grammar g, with its predicates. NULL on error, with a
 * message in err and, when the error is at a place in src, its byte offset in *err_off (else
 * UINT32_MAX). */
struct bw_syn_query *bw_syn_query_new(enum bw_grammar g, const char *src, size_t len, char *err, size_t errlen,
                              uint32_t *err_off);
void bw_syn_query_free(struct bw_syn_query *q);
const TSQuery *bw_syn_query_ts(const struct bw_syn_query *q);
uint32_t bw_syn_query_pattern_count(const struct bw_syn_query *q);
/* Byte offset in the query text where pattern i starts (to map patterns to their source). */
uint32_t bw_syn_query_pattern_start(const struct bw_syn_query *q, uint32_t i);
/* A regular expression (PCRE2 and Hyperscan syntax) that matches the text wherever pattern i can
 * match, derived from its predicates: the longest #eq? string, else the #any-of? strings, else
 * the #match? regex without its anchors. NULL when the pattern has none of them (or out of
 * memory). The caller frees it. */
char *bw_syn_query_prefilter(const struct bw_syn_query *q, uint32_t pattern);
/* The id of capture @name, or -1 when the query has none. */
int bw_syn_query_capture_id(const struct bw_syn_query *q, const char *name);

/* ---- parsing and running ------------------------------------------------------------------------ */

struct bw_syntax;
struct bw_syntax *bw_syntax_new(void);
void bw_syntax_free(struct bw_syntax *s);

struct bw_syn_tree {
    TSTree *tree;
    const char *src; /* borrowed */
    size_t len;
    enum bw_grammar grammar;
};

enum { BW_PARSE_OK = 0, BW_PARSE_LIMIT = 1 }; /* bw_syntax_parse: -1 on an internal error */

/* Parses src[0..len) with grammar g into out, or only the byte ranges given (sorted, disjoint,
 * with their points; nranges 0: everything). A parse that takes more than timeout_us (0: no
 * limit) or text past BW_SYNTAX_MAX_PARSE_BYTES is BW_PARSE_LIMIT with no tree. Text that does
 * not parse still gives a tree: tree-sitter recovers locally (ERROR nodes), so a fragment with
 * unbalanced brackets yields the statements around them. */
int bw_syntax_parse(struct bw_syntax *s, enum bw_grammar g, const char *src, size_t len, const TSRange *ranges,
                    uint32_t nranges, uint64_t timeout_us, struct bw_syn_tree *out);
void bw_syn_tree_free(struct bw_syn_tree *t);

/* One match whose predicates all hold: the pattern it is of and its captures (valid during the
 * callback only). */
struct bw_syn_match {
    uint32_t pattern;
    uint16_t ncaptures;
    const TSQueryCapture *captures;
};
/* Called for each match; a nonzero return stops the run and is returned by bw_syn_query_run. */
typedef int (*bw_syn_match_fn)(void *ctx, const struct bw_syn_match *m);

/* Runs q (made for t's grammar) on the nodes of t that intersect bytes [from, to) (to 0: the
 * end). 0 when every match was handed out, fn's nonzero value, or -1 on an internal error. */
int bw_syn_query_run(struct bw_syntax *s, const struct bw_syn_query *q, const struct bw_syn_tree *t, uint32_t from, uint32_t to,
                 bw_syn_match_fn fn, void *ctx);

/* The first node of capture id in m; false when it captured none. */
bool bw_syn_match_capture(const struct bw_syn_match *m, int id, TSNode *out);

/* A node's text in its tree's source. */
static inline const char *bw_syn_node_text(const struct bw_syn_tree *t, TSNode n, size_t *len)
{
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    *len = b > a && b <= t->len ? b - a : 0;
    return t->src + (a <= t->len ? a : t->len);
}

#endif
