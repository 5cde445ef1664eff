/* Intra-procedural taint over a syntax tree (engine/code/syntax.h): whether a sink call's argument
 * holds data from a request (or another untrusted source) of the same function, and the path it
 * took. Works on the tree tree-sitter recovered, so fragments that do not parse (no imports, a
 * stray line, unbalanced brackets) are analysed as far as their statements go.
 *
 * The model, deliberately simple and fast (one walk of the sink's function per sink):
 *  - scope: the outermost function around the sink (its nested lambdas and callbacks included),
 *    or, in a fragment with no function, the text parsed;
 *  - sources: per language, expressions that read a request (request.args, req.query, $_GET,
 *    params, r.URL.Query(), Request.Query, ...) or return a language model's text
 *    (client.chat.completions.create(...), completion.choices[0].message.content, ...), matched
 *    at the start of an expression's text (catalog data: data/taint/LANG.json, with the route
 *    heads and the cleaners below);
 *    and the function's parameters: from a route handler (a route decorator, annotation,
 *    attribute, a request/context type, an extractor in its head) they are request data, else
 *    data of unknown origin (the rule's severity then drops to MEDIUM at most);
 *  - propagation, in text order up to the sink: assignment (also augmented, declarations,
 *    destructuring, for-in over a tainted value), through any expression holding a tainted value
 *    (concatenation, formatting, f-strings and template literals, collections, unknown calls:
 *    conservative), into a container by append/add/push/put-style calls, into a variable
 *    passed by address to a request-binding call (Gin's c.ShouldBindJSON(&body));
 *  - cleansing: an assignment of an untainted value; a sanitizer call (integer conversion,
 *    quoting and escaping, basename; per rule more); a condition that validates the variable
 *    (per rule: an allow-list, a prefix or host check) before the sink;
 *  - sinks: per rule and language, calls whose callee text (whitespace collapsed) ends with a
 *    regex, and the argument that must not be tainted; or assignments whose target ends with one
 *    (el.innerHTML = v, cmd.CommandText = v), and the value assigned.
 * Cross-function flow is not followed. */
#ifndef BW_ENGINE_CODE_TAINT_H
#define BW_ENGINE_CODE_TAINT_H
#include "common/limits.h"
#include "engine/code/syntax.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The per-language tables: sources, route heads and cleaners (data/taint/LANG.json: each entry a
 * regex with positive and negative examples). Immutable once loaded, shared by every thread. */
struct bw_taint_tables;

/* Loads ndocs table documents (names[i] is docs[i]'s file name, for messages). Every entry is
 * checked: its pattern compiles, matches each positive example and no negative one (a source or
 * a model output anchored at the example's start, a sanitizer as the whole example, a route anywhere in it);
 * the document's members and sizes are within limits.h's BW_TAINT_TABLE_*; a language has one
 * document at most. NULL with "FILE:LINE: what" in err (the line of the entry at fault). */
struct bw_taint_tables *bw_taint_tables_new(const char *const *names, const char *const *docs, const size_t *lens,
                                            size_t ndocs, char *err, size_t errlen);
/* The tables embedded at build time (every data/taint/LANG.json). */
struct bw_taint_tables *bw_taint_tables_embedded(char *err, size_t errlen);
void bw_taint_tables_free(struct bw_taint_tables *t);

/* One rule's taint form for one language, compiled (bw_taint_spec_new). Immutable, shared; it
 * borrows the tables it was made with, which must outlive it. */
struct bw_taint_spec;

/* An args[i] value: the sink is an assignment's target, not a call (el.innerHTML = v,
 * cmd.CommandText = v, a JSX attribute dangerouslySetInnerHTML={...}); the value assigned is
 * what must not be tainted. */
#define BW_TAINT_ARG_ASSIGN (-3)

/* nsinks sinks: callees[i], a regex the end of a call's callee text must match (for an
 * assignment sink, the end of its target's text); args[i], the argument that must not be tainted
 * (0-based; -1: any; -2: the receiver, url in url.openStream(); BW_TAINT_ARG_ASSIGN); whens[i], NULL or a regex the whole call's text must match
 * (header("Location: ...")); unlesses[i], NULL or a regex it must not match
 * (sendFile(name, {root: dir})). sanitizers: a regex for whole callees whose result is clean, or
 * NULL; guard: a regex that a condition's text must match to validate the names it mentions,
 * or NULL. NULL with a message on error. */
struct bw_taint_spec *bw_taint_spec_new(const struct bw_taint_tables *tab, enum bw_lang l, const char *const *callees,
                                        const int *args, const char *const *whens, const char *const *unlesses,
                                        size_t nsinks, const char *sanitizers, const char *guard, char *err,
                                        size_t errlen);
void bw_taint_spec_free(struct bw_taint_spec *s);

enum bw_taint_origin {
    BW_TAINT_SOURCE = 1,  /* a request read in the function (or a route handler's parameter) */
    BW_TAINT_PARAM = 2,   /* a parameter of a function with no route context: unknown origin */
    BW_TAINT_MODEL = 3,   /* the text a language model returned (OWASP LLM05: improper output handling) */
};

enum bw_step_kind { BW_STEP_SOURCE = 1, BW_STEP_PROPAGATE, BW_STEP_SINK };

struct bw_taint_step {
    uint32_t start, end; /* bytes in the tree's text */
    uint8_t kind;        /* enum bw_step_kind */
};

/* A tainted sink: the steps from the source (first) to the sink call (last). */
struct bw_taint_flow {
    enum bw_taint_origin origin;
    uint32_t nsteps;
    struct bw_taint_step steps[BW_TAINT_MAX_STEPS];
};

/* Called per tainted sink; nonzero stops the run and is returned. */
typedef int (*bw_taint_fn)(void *ctx, const struct bw_taint_flow *flow);

/* Scratch for one thread (regex match data); reused across runs. */
struct bw_taint;
struct bw_taint *bw_taint_new(void);
void bw_taint_free(struct bw_taint *x);

/* Whether text s of language l can hold a flow: it reads a request (a source) or has a route
 * (whose parameters are sources). Parsing is what costs; a file with sinks but neither is not
 * parsed for taint (a parameter of a plain function, of unknown origin, is then not followed). */
bool bw_taint_gate(struct bw_taint *x, const struct bw_taint_tables *tab, enum bw_lang l, const char *s, size_t len);

/* Checks every call of t that starts in bytes [from, to) and matches one of spec's sinks.
 * 0, fn's nonzero value, or -1 on an internal error. */
int bw_taint_run(struct bw_taint *x, const struct bw_taint_spec *spec, const struct bw_syn_tree *t, uint32_t from,
                 uint32_t to, bw_taint_fn fn, void *ctx);

#endif
