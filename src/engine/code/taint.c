#define PCRE2_CODE_UNIT_WIDTH 8
#include "engine/code/taint.h"

#include "common/embedded.h"
#include "common/limits.h"
#include "common/sbuf.h"

#include <ctype.h>
#include <jansson.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- per language: where request data comes from, what makes a route, what cleans any value,
 * and which expressions give a language model's reply ---------------------------------------------
 * The tables are catalog data (data/taint/LANG.json), loaded and checked here: each entry is a
 * regex with positive and negative examples, and an entry that misses a positive or matches a
 * negative is refused at load, so a build (tools/hsgen) or a start with a bad table fails and
 * names the file and line. At run time each kind is one alternation per language. */

enum kind { K_SOURCES, K_ROUTES, K_SANITIZERS, K_MODEL, NKINDS };
static const char *const KIND_KEY[NKINDS] = {"sources", "routes", "sanitizers", "model_outputs"};
static const char *const KIND_ONE[NKINDS] = {"source", "route", "sanitizer", "model output"};

struct lang_tab {
    pcre2_code *src;   /* anchored at the start of an expression's text: a source or a model output */
    pcre2_code *model; /* ... a model output alone (the flow's origin is then BW_TAINT_MODEL) */
    pcre2_code *route; /* anywhere in a function's head */
    pcre2_code *clean; /* a whole callee */
    pcre2_code *gate;  /* a source or a route anywhere: the file is worth parsing for taint */
};

struct bw_taint_tables {
    struct lang_tab lang[BW_LANG_COUNT];
};

static pcre2_code *compile(const char *p, uint32_t flags, char *err, size_t errlen)
{
    pcre2_code *c = bw_re_compile(p, flags, err, errlen);
    if (c)
        (void)pcre2_jit_compile(c, PCRE2_JIT_COMPLETE); /* only an optimisation */
    return c;
}

void bw_taint_tables_free(struct bw_taint_tables *t)
{
    if (!t)
        return;
    for (int l = 0; l < BW_LANG_COUNT; l++) {
        pcre2_code_free(t->lang[l].src);
        pcre2_code_free(t->lang[l].model);
        pcre2_code_free(t->lang[l].route);
        pcre2_code_free(t->lang[l].clean);
        pcre2_code_free(t->lang[l].gate);
    }
    free(t);
}

/* The 1-based line where element idx of the top-level member key's array starts in the JSON
 * text s[0..n) (which jansson accepted, so strings and brackets balance); 1 when not found. */
static unsigned elem_line(const char *s, size_t n, const char *key, size_t idx)
{
    size_t kl = strlen(key), count = 0;
    const char *last = NULL; /* the last string read at depth 1: a member's key before its value */
    size_t lastlen = 0;
    int depth = 0;
    bool in_wanted = false, expect = false;
    unsigned line = 1;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\n') {
            line++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r')
            continue;
        if (expect && c != ']') {
            if (count++ == idx)
                return line;
            expect = false;
        }
        if (c == '"') {
            size_t a = ++i;
            while (i < n && s[i] != '"')
                i += s[i] == '\\' ? 2 : 1;
            if (depth == 1 && i <= n)
                last = s + a, lastlen = i - a;
        } else if (c == '{' || c == '[') {
            depth++;
            if (c == '[' && depth == 2 && last && lastlen == kl && memcmp(last, key, kl) == 0)
                in_wanted = expect = true;
        } else if (c == '}' || c == ']') {
            if (depth == 2)
                in_wanted = expect = false;
            depth--;
        } else if (c == ',' && depth == 2 && in_wanted) {
            expect = true;
        }
    }
    return 1;
}

/* Whether re matches s (anchoring is the regex's own). */
static bool re_matches(const pcre2_code *re, const char *s, pcre2_match_data *md, pcre2_match_context *mc)
{
    return pcre2_match(re, (PCRE2_SPTR)s, strlen(s), 0, 0, md, mc) >= 0;
}

/* A string array of at most BW_TAINT_TABLE_MAX_EXAMPLES strings of 1..BW_TAINT_TABLE_MAX_EXAMPLE bytes,
 * at least one. */
static bool examples_ok(json_t *a)
{
    if (!json_is_array(a) || json_array_size(a) == 0 || json_array_size(a) > BW_TAINT_TABLE_MAX_EXAMPLES)
        return false;
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        size_t n = json_string_length(v);
        if (!json_is_string(v) || n == 0 || n > BW_TAINT_TABLE_MAX_EXAMPLE)
            return false;
    }
    return true;
}

/* Checks entry e (kind k) and adds its pattern to the alternation b; a model output also adds
 * its gate (or its pattern) to gb. 0, or -1 with why. */
static int load_entry(json_t *e, enum kind k, struct bw_sb *b, struct bw_sb *gb, pcre2_match_data *md,
                      pcre2_match_context *mc, char *why, size_t whylen)
{
    const char *key;
    json_t *v;
    json_object_foreach(e, key, v) {
        if (strcmp(key, "id") != 0 && strcmp(key, "what") != 0 && strcmp(key, "pattern") != 0 &&
            strcmp(key, "examples") != 0 && (k != K_MODEL || strcmp(key, "gate") != 0)) {
            snprintf(why, whylen, "unknown member \"%s\" (id, what, pattern, examples%s)", key,
                     k == K_MODEL ? ", gate" : "");
            return -1;
        }
    }
    /* gate: a regex found anywhere in a file that can hold the output, led by a literal: a
     * pattern led by any dotted name (completion.choices[0]...) makes the file-wide gate search
     * try every word; every positive example must match it */
    json_t *gj = json_object_get(e, "gate");
    const char *gate = json_string_value(gj);
    if (gj && (!gate || json_string_length(gj) == 0 || json_string_length(gj) > BW_TAINT_TABLE_MAX_PATTERN ||
               strlen(gate) != json_string_length(gj))) {
        snprintf(why, whylen, "gate must be a regex of 1 to %d bytes", BW_TAINT_TABLE_MAX_PATTERN);
        return -1;
    }
    const char *pat = json_string_value(json_object_get(e, "pattern"));
    json_t *ex = json_object_get(e, "examples");
    json_t *pos = json_object_get(ex, "positive"), *neg = json_object_get(ex, "negative");
    size_t pl = json_string_length(json_object_get(e, "pattern"));
    if (!json_is_string(json_object_get(e, "what")) || !pat || pl == 0 || pl > BW_TAINT_TABLE_MAX_PATTERN ||
        strlen(pat) != pl) {
        snprintf(why, whylen, "needs what and a pattern of 1 to %d bytes", BW_TAINT_TABLE_MAX_PATTERN);
        return -1;
    }
    if (!json_is_object(ex) || json_object_size(ex) != 2 || !examples_ok(pos) || !examples_ok(neg)) {
        snprintf(why, whylen, "examples must be {\"positive\": [...], \"negative\": [...]}, 1 to %d strings each of "
                 "1 to %d bytes", BW_TAINT_TABLE_MAX_EXAMPLES, BW_TAINT_TABLE_MAX_EXAMPLE);
        return -1;
    }
    /* the entry alone, matched as the engine matches its kind */
    struct bw_sb p = {0};
    bw_sb_printf(&p, k == K_SANITIZERS ? "(?:%s)\\z" : "(?:%s)", pat);
    char e2[200];
    pcre2_code *re = p.oom ? NULL : compile(bw_sb_str(&p), k == K_ROUTES ? 0 : PCRE2_ANCHORED, e2, sizeof e2);
    free(p.p);
    if (!re) {
        snprintf(why, whylen, "pattern: %s", e2);
        return -1;
    }
    int rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        json_t *list = pass == 0 ? pos : neg;
        size_t i;
        json_t *x;
        json_array_foreach(list, i, x) {
            const char *t = json_string_value(x);
            if (strlen(t) != json_string_length(x) || re_matches(re, t, md, mc) != (pass == 0)) {
                snprintf(why, whylen, "%s example %zu (\"%.80s\") %s", pass == 0 ? "positive" : "negative", i + 1, t,
                         pass == 0 ? "does not match the pattern" : "matches the pattern");
                rc = -1;
                break;
            }
        }
    }
    pcre2_code_free(re);
    if (rc == 0 && gate) {
        pcre2_code *g = compile(gate, 0, e2, sizeof e2);
        if (!g) {
            snprintf(why, whylen, "gate: %s", e2);
            return -1;
        }
        size_t i;
        json_t *x;
        json_array_foreach(pos, i, x) {
            if (rc == 0 && !re_matches(g, json_string_value(x), md, mc)) {
                snprintf(why, whylen, "positive example %zu (\"%.80s\") does not match the gate", i + 1,
                         json_string_value(x));
                rc = -1;
            }
        }
        pcre2_code_free(g);
    }
    if (rc == 0)
        bw_sb_printf(b, "%s(?:%s)", b->len ? "|" : "", pat);
    if (rc == 0 && gb)
        bw_sb_printf(gb, "%s(?:%s)", gb->len ? "|" : "", gate ? gate : pat);
    return rc;
}

/* Loads one document (name: for messages) into t. 0, or -1 with "name:line: ..." in err. */
static int load_doc(struct bw_taint_tables *t, const char *name, const char *doc, size_t len, char *err,
                    size_t errlen)
{
    if (len > BW_TAINT_TABLE_MAX_BYTES) {
        snprintf(err, errlen, "%s:1: larger than %d bytes", name, BW_TAINT_TABLE_MAX_BYTES);
        return -1;
    }
    json_error_t je;
    json_t *o = json_loadb(doc, len, JSON_REJECT_DUPLICATES, &je);
    if (!o || !json_is_object(o)) {
        snprintf(err, errlen, "%s:%d: %s", name, o || je.line < 1 ? 1 : je.line, o ? "not a JSON object" : je.text);
        json_decref(o);
        return -1;
    }
    int rc = -1;
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    pcre2_match_context *mc = pcre2_match_context_create(NULL);
    struct bw_sb alt[NKINDS] = {{0}}, mgate = {0}; /* mgate: the model outputs' gates */
    if (!md || !mc) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    pcre2_set_match_limit(mc, BW_SCAN_MATCH_LIMIT);
    pcre2_set_depth_limit(mc, BW_SCAN_DEPTH_LIMIT);
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        bool known = strcmp(key, "languages") == 0 || strcmp(key, "about") == 0;
        for (int k = 0; k < NKINDS; k++)
            known |= strcmp(key, KIND_KEY[k]) == 0;
        if (!known) {
            snprintf(err, errlen,
                     "%s:1: unknown member \"%s\" (languages, about, sources, routes, sanitizers, model_outputs)",
                     name, key);
            goto out;
        }
    }
    unsigned langs = 0;
    json_t *la = json_object_get(o, "languages");
    size_t i;
    json_array_foreach(la, i, v) {
        int l = bw_lang_parse(json_string_value(v));
        if (l < 0 || (langs & (1u << l))) {
            snprintf(err, errlen, "%s:%u: languages: \"%s\" is no language or is named twice", name,
                     elem_line(doc, len, "languages", i), json_string_value(v) ? json_string_value(v) : "?");
            goto out;
        }
        if (t->lang[l].src) {
            snprintf(err, errlen, "%s:%u: languages: %s has tables in another file", name,
                     elem_line(doc, len, "languages", i), bw_lang_name((enum bw_lang)l));
            goto out;
        }
        langs |= 1u << l;
    }
    if (!langs) {
        snprintf(err, errlen, "%s:1: languages must name at least one language", name);
        goto out;
    }
    for (int k = 0; k < NKINDS; k++) {
        json_t *a = json_object_get(o, KIND_KEY[k]);
        if (k == K_MODEL && !a) /* optional: a language may have no model SDK worth naming */
            continue;
        if (!json_is_array(a) || json_array_size(a) == 0 || json_array_size(a) > BW_TAINT_TABLE_MAX_ENTRIES) {
            snprintf(err, errlen, "%s:1: %s must be an array of 1 to %d entries", name, KIND_KEY[k],
                     BW_TAINT_TABLE_MAX_ENTRIES);
            goto out;
        }
        json_t *e;
        json_array_foreach(a, i, e) {
            char why[300];
            const char *id = json_string_value(json_object_get(e, "id"));
            bool id_ok = id && *id && strlen(id) <= 64;
            for (size_t j = 0; id_ok && j < i; j++)
                id_ok = strcmp(id, json_string_value(json_object_get(json_array_get(a, j), "id"))) != 0;
            if (!json_is_object(e) || !id_ok)
                snprintf(why, sizeof why, "needs an id of 1 to 64 bytes, unique among the %s", KIND_KEY[k]);
            if (!json_is_object(e) || !id_ok ||
                load_entry(e, (enum kind)k, &alt[k], k == K_MODEL ? &mgate : NULL, md, mc, why, sizeof why) != 0) {
                snprintf(err, errlen, "%s:%u: %s %s: %s", name, elem_line(doc, len, KIND_KEY[k], i), KIND_ONE[k],
                         id ? id : "(no id)", why);
                goto out;
            }
        }
        if (alt[k].oom) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
    }
    /* one alternation per kind, compiled once per language it serves */
    /* a model's reply is untrusted data like a request's: one alternation finds both, a second
     * tells which (LLM05 on the finding) */
    struct bw_sb clean = {0}, gate = {0}, src = {0};
    bool model = alt[K_MODEL].len > 0;
    bw_sb_printf(&clean, "(?:%s)\\z", bw_sb_str(&alt[K_SANITIZERS]));
    bw_sb_printf(&src, "(?:%s)", bw_sb_str(&alt[K_SOURCES]));
    if (model)
        bw_sb_printf(&src, "|(?:%s)", bw_sb_str(&alt[K_MODEL]));
    bw_sb_printf(&gate, "(?:%s)|(?:%s)", bw_sb_str(&alt[K_SOURCES]), bw_sb_str(&alt[K_ROUTES]));
    if (model)
        bw_sb_printf(&gate, "|(?:%s)", bw_sb_str(&mgate));
    char e[200] = "out of memory";
    rc = clean.oom || gate.oom || src.oom || mgate.oom ? -1 : 0;
    for (int l = 0; l < BW_LANG_COUNT && rc == 0; l++) {
        if (!(langs & (1u << l)))
            continue;
        struct lang_tab *lt = &t->lang[l];
        if (!(lt->src = compile(bw_sb_str(&src), PCRE2_ANCHORED, e, sizeof e)) ||
            (model && !(lt->model = compile(bw_sb_str(&alt[K_MODEL]), PCRE2_ANCHORED, e, sizeof e))) ||
            !(lt->route = compile(bw_sb_str(&alt[K_ROUTES]), 0, e, sizeof e)) ||
            !(lt->clean = compile(bw_sb_str(&clean), PCRE2_ANCHORED, e, sizeof e)) ||
            !(lt->gate = compile(bw_sb_str(&gate), 0, e, sizeof e)))
            rc = -1;
    }
    if (rc != 0)
        snprintf(err, errlen, "%s:1: the tables together: %s", name, e);
    free(clean.p);
    free(gate.p);
    free(src.p);
out:
    for (int k = 0; k < NKINDS; k++)
        free(alt[k].p);
    free(mgate.p);
    pcre2_match_data_free(md);
    pcre2_match_context_free(mc);
    json_decref(o);
    return rc;
}

struct bw_taint_tables *bw_taint_tables_new(const char *const *names, const char *const *docs, const size_t *lens,
                                            size_t ndocs, char *err, size_t errlen)
{
    struct bw_taint_tables *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (size_t d = 0; d < ndocs; d++)
        if (load_doc(t, names[d], docs[d], lens[d], err, errlen) != 0) {
            bw_taint_tables_free(t);
            return NULL;
        }
    return t;
}

struct bw_taint_tables *bw_taint_tables_embedded(char *err, size_t errlen)
{
    const char *names[BW_LANG_COUNT], *docs[BW_LANG_COUNT];
    size_t lens[BW_LANG_COUNT], n = 0;
    for (size_t i = 0; i < bw_embedded_count; i++) {
        const char *name = bw_embedded_files[i].name;
        size_t nl = strlen(name);
        if (strncmp(name, "data/taint/", 11) != 0 || nl < 5 || strcmp(name + nl - 5, ".json") != 0)
            continue;
        if (n == BW_LANG_COUNT) {
            snprintf(err, errlen, "%s:1: more taint tables than languages", name);
            return NULL;
        }
        names[n] = name;
        docs[n] = (const char *)bw_embedded_files[i].data;
        lens[n++] = bw_embedded_files[i].len;
    }
    return bw_taint_tables_new(names, docs, lens, n, err, errlen);
}

struct sink {
    pcre2_code *callee; /* matched against the end of the callee's text */
    int arg;            /* argument index, -1: any, -2: the receiver (url.openStream()) */
    pcre2_code *when;   /* the call's text must match it (header("Location: ..."), or NULL */
    pcre2_code *unless; /* ... and must not match it (sendFile(name, {root: dir})), or NULL */
};

struct bw_taint_spec {
    enum bw_lang lang;
    const struct lang_tab *tab; /* the language's tables (borrowed from the tables it was made with) */
    struct sink *sinks;
    size_t nsinks;
    pcre2_code *sanitizer; /* the rule's own cleaners (anchored, whole callee), or NULL */
    pcre2_code *guard;     /* a condition that validates, or NULL */
};

void bw_taint_spec_free(struct bw_taint_spec *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nsinks; i++) {
        pcre2_code_free(s->sinks[i].callee);
        pcre2_code_free(s->sinks[i].when);
        pcre2_code_free(s->sinks[i].unless);
    }
    free(s->sinks);
    pcre2_code_free(s->sanitizer);
    pcre2_code_free(s->guard);
    free(s);
}

struct bw_taint_spec *bw_taint_spec_new(const struct bw_taint_tables *tab, enum bw_lang l, const char *const *callees,
                                        const int *args, const char *const *whens, const char *const *unlesses,
                                        size_t nsinks, const char *sanitizers, const char *guard, char *err,
                                        size_t errlen)
{
    if (!tab || (unsigned)l >= BW_LANG_COUNT || !tab->lang[l].src) {
        snprintf(err, errlen, "no taint tables for %s (data/taint)", (unsigned)l < BW_LANG_COUNT ? bw_lang_name(l) : "?");
        return NULL;
    }
    struct bw_taint_spec *s = calloc(1, sizeof *s);
    if (!s || !(s->sinks = calloc(nsinks ? nsinks : 1, sizeof *s->sinks))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->lang = l;
    s->tab = &tab->lang[l];
    char e[200];
    for (size_t i = 0; i < nsinks; i++, s->nsinks++) {
        size_t n = strlen(callees[i]);
        char *p = malloc(n + 16);
        if (!p) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        snprintf(p, n + 16, "(?:%s)\\z", callees[i]);
        s->sinks[i] = (struct sink){compile(p, 0, e, sizeof e), args[i], NULL, NULL};
        free(p);
        if (!s->sinks[i].callee || (whens[i] && !(s->sinks[i].when = compile(whens[i], 0, e, sizeof e))) ||
            (unlesses[i] && !(s->sinks[i].unless = compile(unlesses[i], 0, e, sizeof e)))) {
            snprintf(err, errlen, "sink %zu: %s", i, e);
            goto fail;
        }
    }
    if (sanitizers) {
        size_t n = strlen(sanitizers);
        char *p = malloc(n + 16);
        if (!p) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        snprintf(p, n + 16, "(?:%s)\\z", sanitizers);
        s->sanitizer = compile(p, PCRE2_ANCHORED, e, sizeof e);
        free(p);
        if (!s->sanitizer) {
            snprintf(err, errlen, "sanitizers: %s", e);
            goto fail;
        }
    }
    if (guard && !(s->guard = compile(guard, 0, e, sizeof e))) {
        snprintf(err, errlen, "guard: %s", e);
        goto fail;
    }
    return s;
fail:
    bw_taint_spec_free(s);
    return NULL;
}

/* ---- the walk ------------------------------------------------------------------------------------ */

struct var {
    char key[BW_TAINT_MAX_KEY];
    char parent[BW_TAINT_MAX_KEY]; /* the name it was derived from (parsed = urlparse(url): url) */
    uint8_t keylen, parentlen;
    uint8_t origin;
    uint8_t nsteps;
    struct bw_taint_step steps[BW_TAINT_MAX_STEPS];
};

struct bw_taint {
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    struct var vars[BW_TAINT_MAX_VARS];
    size_t nvars, next; /* next: the slot reused when full (the oldest) */
    uint32_t visited;
    /* this run */
    const struct bw_syn_tree *t;
    const struct bw_taint_spec *spec;
    const struct lang_tab *tab; /* the spec's language's tables */
    struct var tmp; /* a value's taint while it is judged */
    char callee[BW_TAINT_MAX_CALLEE + 1];
};

struct bw_taint *bw_taint_new(void)
{
    struct bw_taint *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->md = pcre2_match_data_create(1, NULL);
    x->mctx = pcre2_match_context_create(NULL);
    if (!x->md || !x->mctx) {
        bw_taint_free(x);
        return NULL;
    }
    pcre2_set_match_limit(x->mctx, BW_SCAN_MATCH_LIMIT);
    pcre2_set_depth_limit(x->mctx, BW_SCAN_DEPTH_LIMIT);
    return x;
}

void bw_taint_free(struct bw_taint *x)
{
    if (!x)
        return;
    pcre2_match_data_free(x->md);
    pcre2_match_context_free(x->mctx);
    free(x);
}

static bool re_at(struct bw_taint *x, const pcre2_code *re, const char *s, size_t n)
{
    return re && pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, x->md, x->mctx) >= 0;
}

static bool type_is(TSNode n, const char *const *types)
{
    const char *t = ts_node_type(n);
    for (; *types; types++)
        if (strcmp(t, *types) == 0)
            return true;
    return false;
}

static const char *const FUNCTIONS[] = {"function_definition", "function_declaration", "function_expression",
                                        "function", "arrow_function", "method_definition",
                                        "generator_function_declaration", "method_declaration",
                                        "constructor_declaration", "lambda_expression", "local_function_statement",
                                        "func_literal", "method", "singleton_method", "function_item",
                                        "closure_expression", "lambda", "anonymous_function",
                                        "anonymous_function_creation_expression", "arrow_function_expression", NULL};
static const char *const CLASSES[] = {"class_definition", "class_declaration", "class_body", "class", "module",
                                      "impl_item", "interface_declaration", "program", "source_file",
                                      "compilation_unit", NULL};
static const char *const CALLS[] = {"call", "call_expression", "new_expression", "method_invocation",
                                    "object_creation_expression", "invocation_expression",
                                    "function_call_expression", "member_call_expression", "scoped_call_expression",
                                    "nullsafe_member_call_expression", "include_expression",
                                    "include_once_expression", "require_expression", "require_once_expression",
                                    "echo_statement", NULL};
/* nodes whose text is not a value: a literal's text never names a variable nor reads a request */
static const char *const LITERALS[] = {"string_content", "string_fragment", "string_literal_content",
                                       "interpreted_string_literal_content", "escape_sequence", "comment",
                                       "line_comment", "block_comment", "integer", "number", "integer_literal",
                                       "float", "true", "false", "null", "none", "nil", NULL};
/* fields of a member access or call that hold a name, not a value */
static const char *const NAME_FIELDS[] = {"attribute", "property", "field", "name", "method", "type",
                                          "type_arguments", "return_type", NULL};

static bool name_field(TSNode parent, uint32_t i)
{
    const char *f = ts_node_field_name_for_child(parent, i);
    if (!f)
        return false;
    for (const char *const *p = NAME_FIELDS; *p; p++)
        if (strcmp(f, *p) == 0)
            return true;
    return false;
}

static const char *text(const struct bw_taint *x, TSNode n, size_t *len) { return bw_syn_node_text(x->t, n, len); }

static struct var *lookup(struct bw_taint *x, const char *s, size_t n)
{
    if (n == 0 || n >= BW_TAINT_MAX_KEY)
        return NULL;
    for (size_t i = 0; i < x->nvars; i++)
        if (x->vars[i].keylen == n && memcmp(x->vars[i].key, s, n) == 0 && x->vars[i].origin)
            return &x->vars[i];
    return NULL;
}

static void add_step(struct var *v, TSNode n, uint8_t kind)
{
    struct bw_taint_step st = {ts_node_start_byte(n), ts_node_end_byte(n), kind};
    if (v->nsteps < BW_TAINT_MAX_STEPS - 1) /* the last slot is the sink's */
        v->steps[v->nsteps++] = st;
    else
        v->steps[BW_TAINT_MAX_STEPS - 2] = st; /* the latest step replaces the one before */
}

/* Records (or clears, when from is NULL) the taint of the name s[0..n). */
static void set_var(struct bw_taint *x, const char *s, size_t n, const struct var *from, TSNode at)
{
    if (n == 0 || n >= BW_TAINT_MAX_KEY)
        return;
    struct var *v = NULL;
    for (size_t i = 0; i < x->nvars && !v; i++)
        if (x->vars[i].keylen == n && memcmp(x->vars[i].key, s, n) == 0)
            v = &x->vars[i];
    if (!from) {
        if (v)
            v->origin = 0;
        return;
    }
    if (!v) {
        if (x->nvars < BW_TAINT_MAX_VARS)
            v = &x->vars[x->nvars++];
        else
            v = &x->vars[x->next++ % BW_TAINT_MAX_VARS];
    }
    struct var nv = *from;
    memcpy(nv.parent, from->key, from->keylen);
    nv.parentlen = from->keylen;
    memcpy(nv.key, s, n);
    nv.keylen = (uint8_t)n;
    add_step(&nv, at, BW_STEP_PROPAGATE);
    *v = nv;
}

/* The callee's text of call node c: from its start to its arguments, whitespace collapsed (a
 * space kept only between two word characters: "new URL"). Empty when too long. */
static const char *callee_of(struct bw_taint *x, TSNode c, TSNode *args)
{
    *args = ts_node_child_by_field_name(c, "arguments", 9);
    uint32_t a = ts_node_start_byte(c), b = ts_node_is_null(*args) ? a : ts_node_start_byte(*args);
    static const char *const KEYWORDS[] = {"include_expression", "include_once_expression", "require_expression",
                                           "require_once_expression", "echo_statement", NULL};
    if (ts_node_is_null(*args) && !type_is(c, KEYWORDS)) {
        b = ts_node_end_byte(c); /* params[:n].to_i: the whole call is its callee */
    } else if (ts_node_is_null(*args)) {
        /* include "x" . $y, echo "<p>" . $y: the operand is the argument; the keyword is the callee */
        uint32_t nc = ts_node_named_child_count(c);
        if (nc) {
            *args = c; /* arguments are c's named children */
            b = ts_node_start_byte(ts_node_named_child(c, 0));
        }
    }
    size_t w = 0;
    const char *s = x->t->src;
    if (b > x->t->len || b - a > 4 * BW_TAINT_MAX_CALLEE) {
        x->callee[0] = '\0';
        return x->callee;
    }
    for (uint32_t i = a; i < b && w < BW_TAINT_MAX_CALLEE; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (isspace(ch)) {
            bool wl = w && (isalnum((unsigned char)x->callee[w - 1]) || x->callee[w - 1] == '_');
            uint32_t j = i;
            while (j < b && isspace((unsigned char)s[j]))
                j++;
            bool wr = j < b && (isalnum((unsigned char)s[j]) || s[j] == '_');
            if (wl && wr)
                x->callee[w++] = ' ';
            i = j - 1;
            continue;
        }
        x->callee[w++] = (char)ch;
    }
    x->callee[w] = '\0';
    return x->callee;
}

/* The n-th argument of a call (args: its arguments node, or the call itself for include). */
static bool arg_of(TSNode args, int n, TSNode *out)
{
    uint32_t k = 0, nc = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < nc; i++) {
        TSNode a = ts_node_named_child(args, i);
        const char *ty = ts_node_type(a);
        if (strstr(ty, "comment"))
            continue;
        if ((int)k++ == n) {
            *out = a;
            return true;
        }
    }
    return false;
}

static bool cleaned(struct bw_taint *x, const char *callee)
{
    size_t n = strlen(callee);
    return n && (re_at(x, x->tab->clean, callee, n) || re_at(x, x->spec->sanitizer, callee, n));
}

/* Whether value node n holds tainted data; its taint (origin and steps) in x->tmp. */
static bool tainted(struct bw_taint *x, TSNode n, int depth)
{
    if (depth > BW_TAINT_MAX_DEPTH || ++x->visited > BW_TAINT_MAX_NODES || !ts_node_is_named(n) ||
        type_is(n, LITERALS))
        return false;
    size_t len;
    const char *s = text(x, n, &len);
    struct var *v = lookup(x, s, len);
    if (v) {
        x->tmp = *v;
        return true;
    }
    if (type_is(n, CALLS)) { /* first: params[:n].to_i starts like a source */
        TSNode args;
        if (cleaned(x, callee_of(x, n, &args)))
            return false;
    }
    if (re_at(x, x->tab->src, s, len)) {
        memset(&x->tmp, 0, sizeof x->tmp);
        x->tmp.origin = re_at(x, x->tab->model, s, len) ? BW_TAINT_MODEL : BW_TAINT_SOURCE;
        add_step(&x->tmp, n, BW_STEP_SOURCE);
        return true;
    }
    /* table[key]: a tainted key picks one of the table's values, which are not tainted */
    static const char *const SUBSCRIPTS[] = {"subscript", "subscript_expression", "element_reference",
                                             "element_access_expression", "index_expression", "array_access",
                                             NULL};
    if (type_is(n, SUBSCRIPTS) && ts_node_named_child_count(n) > 0)
        return tainted(x, ts_node_named_child(n, 0), depth + 1);
    uint32_t nc = ts_node_child_count(n);
    for (uint32_t i = 0; i < nc; i++) {
        TSNode c = ts_node_child(n, i);
        if (!ts_node_is_named(c) || name_field(n, i))
            continue;
        if (tainted(x, c, depth + 1))
            return true;
    }
    return false;
}

/* The names an assignment's left side binds: an identifier, each name of a destructuring, a
 * member or element (self.url, $d['u']) as its whole text and its base. */
static void bind(struct bw_taint *x, TSNode lhs, const struct var *from, TSNode at, int depth)
{
    if (depth > 8 || ts_node_is_null(lhs))
        return;
    size_t len;
    const char *s = text(x, lhs, &len);
    const char *ty = ts_node_type(lhs);
    uint32_t nc = ts_node_named_child_count(lhs);
    if (nc == 0 || strcmp(ty, "variable_name") == 0 || strstr(ty, "identifier")) {
        set_var(x, s, len, from, at);
        return;
    }
    if (strstr(ty, "pattern") || strstr(ty, "list") || strstr(ty, "tuple") || strstr(ty, "array") ||
        strcmp(ty, "pair") == 0 || strstr(ty, "declaration")) {
        for (uint32_t i = 0; i < nc; i++) {
            TSNode c = ts_node_named_child(lhs, i);
            if (strstr(ts_node_type(c), "type"))
                continue;
            bind(x, c, from, at, depth + 1);
        }
        return;
    }
    /* a member or an element: the whole text; a container written into stays tainted */
    set_var(x, s, len, from, at);
    if (from) {
        TSNode base = ts_node_named_child(lhs, 0);
        size_t bl;
        const char *bs = text(x, base, &bl);
        if (!lookup(x, bs, bl))
            set_var(x, bs, bl, from, at);
    }
}

/* An assignment-like node's target and value, or false. */
static bool assignment(TSNode n, TSNode *lhs, TSNode *rhs)
{
    static const char *const LR[] = {"assignment", "augmented_assignment", "assignment_expression",
                                     "augmented_assignment_expression", "operator_assignment",
                                     "compound_assignment_expr", "short_var_declaration", "assignment_statement",
                                     "for_in_statement", "for_statement", "foreach_statement", "range_clause",
                                     NULL};
    static const char *const NV[] = {"variable_declarator", "var_spec", "named_expression",
                                     "enhanced_for_statement", "const_spec", NULL};
    static const char *const PV[] = {"let_declaration", NULL};
    if (type_is(n, LR)) {
        *lhs = ts_node_child_by_field_name(n, "left", 4);
        *rhs = ts_node_child_by_field_name(n, "right", 5);
        if (ts_node_is_null(*rhs)) /* php foreach ($x as $v) */
            return false;
    } else if (type_is(n, NV)) {
        *lhs = ts_node_child_by_field_name(n, "name", 4);
        *rhs = ts_node_child_by_field_name(n, "value", 5);
        if (ts_node_is_null(*rhs) && !ts_node_is_null(*lhs)) { /* C#: the value follows the name unnamed */
            uint32_t nc = ts_node_named_child_count(n);
            TSNode last = nc ? ts_node_named_child(n, nc - 1) : *lhs;
            if (!ts_node_eq(last, *lhs))
                *rhs = last;
        }
    } else if (type_is(n, PV)) {
        *lhs = ts_node_child_by_field_name(n, "pattern", 7);
        *rhs = ts_node_child_by_field_name(n, "value", 5);
    } else {
        return false;
    }
    return !ts_node_is_null(*lhs) && !ts_node_is_null(*rhs);
}

static bool identifier_like(TSNode n)
{
    const char *ty = ts_node_type(n);
    return strcmp(ty, "identifier") == 0 || strcmp(ty, "variable_name") == 0 ||
           strcmp(ty, "shorthand_property_identifier_pattern") == 0;
}

/* The parameters' names of function f (types skipped), tainted with origin. */
static void bind_params_in(struct bw_taint *x, TSNode n, const struct var *from, int depth)
{
    if (depth > 6)
        return;
    uint32_t nc = ts_node_child_count(n);
    if (identifier_like(n)) {
        size_t len;
        const char *s = text(x, n, &len);
        set_var(x, s, len, from, n);
        return;
    }
    for (uint32_t i = 0; i < nc; i++) {
        TSNode c = ts_node_child(n, i);
        const char *f = ts_node_field_name_for_child(n, i);
        if (!ts_node_is_named(c) || (f && (strcmp(f, "type") == 0 || strcmp(f, "value") == 0 ||
                                           strcmp(f, "default_value") == 0)))
            continue;
        if (strstr(ts_node_type(c), "type") || strstr(ts_node_type(c), "attribute") ||
            strstr(ts_node_type(c), "annotation") || strstr(ts_node_type(c), "modifier"))
            continue;
        bind_params_in(x, c, from, depth + 1);
    }
}

static void bind_params(struct bw_taint *x, TSNode f, uint8_t origin)
{
    TSNode p = ts_node_child_by_field_name(f, "parameters", 10);
    if (ts_node_is_null(p))
        p = ts_node_child_by_field_name(f, "parameter", 9);
    if (ts_node_is_null(p))
        return;
    struct var v = {0};
    v.origin = origin;
    add_step(&v, p, BW_STEP_SOURCE);
    uint32_t nc = ts_node_named_child_count(p);
    for (uint32_t i = 0; i < nc || identifier_like(p); i++) {
        TSNode c = identifier_like(p) ? p : ts_node_named_child(p, i);
        TSNode name = ts_node_child_by_field_name(c, "name", 4);
        if (ts_node_is_null(name))
            name = ts_node_child_by_field_name(c, "pattern", 7);
        v.steps[0] = (struct bw_taint_step){ts_node_start_byte(c), ts_node_end_byte(c), BW_STEP_SOURCE};
        bind_params_in(x, ts_node_is_null(name) ? c : name, &v, 0);
        if (identifier_like(p))
            break;
    }
}

/* Whether function f handles a route: its head (from the start of its line, decorators
 * included, to its body) names a route, a request type or an extractor. */
static bool route_context(struct bw_taint *x, TSNode f)
{
    uint32_t a = ts_node_start_byte(f);
    TSNode body = ts_node_child_by_field_name(f, "body", 4);
    uint32_t b = ts_node_is_null(body) ? ts_node_end_byte(f) : ts_node_start_byte(body);
    TSNode up = ts_node_parent(f);
    if (!ts_node_is_null(up) && strcmp(ts_node_type(up), "decorated_definition") == 0)
        a = ts_node_start_byte(up);
    while (a > 0 && x->t->src[a - 1] != '\n')
        a--;
    if (b > x->t->len || b < a)
        return false;
    return re_at(x, x->tab->route, x->t->src + a, b - a);
}

/* A call that writes its arguments' taint into its receiver (list.append(v), sb.append(v),
 * params.put(k, v)) or a request binding's out argument (c.ShouldBindJSON(&body)). */
static void call_effects(struct bw_taint *x, TSNode c, int depth)
{
    TSNode args;
    const char *callee = callee_of(x, c, &args);
    size_t n = strlen(callee);
    if (!n || ts_node_is_null(args) || ts_node_eq(args, c))
        return;
    const char *dot = NULL;
    for (const char *p = callee; *p; p++)
        if (*p == '.' || (*p == '-' && p[1] == '>'))
            dot = p;
    if (!dot)
        return;
    const char *m = dot + (*dot == '-' ? 2 : 1);
    static const char *const ADDS[] = {"append", "add", "push", "extend", "insert", "put", "set", "Add",
                                       "Append", "AppendFormat", "AppendLine", "push_str", "extend_from_slice",
                                       "concat", "update", "write", "WriteString", "setdefault", "unshift", NULL};
    bool adds = false;
    for (const char *const *p = ADDS; *p && !adds; p++)
        adds = strcmp(m, *p) == 0;
    size_t ctl;
    const char *ctx_text = text(x, c, &ctl);
    if (re_at(x, x->tab->src, ctx_text, ctl)) { /* c.ShouldBindJSON(&body): body is request data */
        uint32_t nc = ts_node_named_child_count(args);
        for (uint32_t i = 0; i < nc; i++) {
            TSNode a = ts_node_named_child(args, i);
            size_t al;
            const char *as = text(x, a, &al);
            if (al > 1 && as[0] == '&') {
                struct var v = {0};
                v.origin = BW_TAINT_SOURCE;
                add_step(&v, c, BW_STEP_SOURCE);
                size_t k = 1;
                while (k < al && (as[k] == ' ' || as[k] == '\t'))
                    k++;
                set_var(x, as + k, al - k, &v, c);
            }
        }
        return;
    }
    if (!adds || !tainted(x, args, depth))
        return;
    struct var v = x->tmp;
    set_var(x, callee, (size_t)(dot - callee), &v, c);
}

static bool word_in(const char *s, size_t len, const char *w, size_t wl)
{
    if (!wl)
        return false;
    for (const char *p = s; (p = memmem(p, len - (size_t)(p - s), w, wl)) != NULL; p++) {
        bool l = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        const char *e = p + wl;
        bool r = e >= s + len || !(isalnum((unsigned char)*e) || *e == '_');
        if (l && r)
            return true;
    }
    return false;
}

/* Clears name k and the names it was derived from (validating parsed = urlparse(url) validates
 * url). */
static void clear_chain(struct bw_taint *x, const char *k, size_t kl)
{
    for (int hop = 0; hop < 4 && kl; hop++) {
        struct var *v = NULL;
        for (size_t i = 0; i < x->nvars && !v; i++)
            if (x->vars[i].keylen == kl && memcmp(x->vars[i].key, k, kl) == 0)
                v = &x->vars[i];
        if (!v)
            return;
        v->origin = 0;
        k = v->parent;
        kl = v->parentlen;
    }
}

/* A condition that validates a tainted name (an allow-list, a prefix check): the name, and what
 * it came from, are clean from there on. */
static void guard_effects(struct bw_taint *x, TSNode cond)
{
    size_t len;
    const char *s = text(x, cond, &len);
    if (!x->spec->guard || !re_at(x, x->spec->guard, s, len))
        return;
    for (size_t i = 0; i < x->nvars; i++) {
        struct var *v = &x->vars[i];
        if (v->origin && word_in(s, len, v->key, v->keylen))
            clear_chain(x, v->key, v->keylen);
    }
}

/* Walks n in text order up to byte stop, recording what each statement does to the names. */
static void walk(struct bw_taint *x, TSNode n, uint32_t stop, int depth)
{
    if (depth > 200 || ts_node_start_byte(n) >= stop || ++x->visited > BW_TAINT_MAX_NODES)
        return;
    TSNode lhs, rhs;
    if (assignment(n, &lhs, &rhs) && ts_node_end_byte(rhs) <= stop) {
        walk(x, rhs, stop, depth + 1); /* effects inside the value come first */
        const char *ty = ts_node_type(n);
        bool augmented = strstr(ty, "augmented") || strstr(ty, "operator_assignment") || strstr(ty, "compound");
        size_t rl;
        const char *rs = text(x, rhs, &rl);
        /* a value that went through a validation on its way (match ... if p.starts_with(&base)) */
        bool checked = x->spec->guard && re_at(x, x->spec->guard, rs, rl);
        if (!checked && tainted(x, rhs, 0)) {
            struct var v = x->tmp;
            bind(x, lhs, &v, n, 0);
        } else if (!augmented) {
            bind(x, lhs, NULL, n, 0);
        }
        return;
    }
    if (type_is(n, CALLS))
        call_effects(x, n, 0);
    TSNode cond = ts_node_child_by_field_name(n, "condition", 9);
    if (!ts_node_is_null(cond) && ts_node_end_byte(cond) <= stop)
        guard_effects(x, cond);
    uint32_t nc = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < nc; i++)
        walk(x, ts_node_named_child(n, i), stop, depth + 1);
}

/* The function the sink is in: the outermost function below a class or the file. */
static TSNode scope_of(TSNode sink, TSNode root, bool *is_fn)
{
    TSNode best = root;
    *is_fn = false;
    for (TSNode p = ts_node_parent(sink); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (type_is(p, CLASSES) && *is_fn)
            break;
        if (type_is(p, FUNCTIONS)) {
            best = p;
            *is_fn = true;
        }
    }
    return best;
}

/* The object a method is called on: url in url.openStream(). */
static bool receiver_of(TSNode c, TSNode *out)
{
    static const char *const OBJ[] = {"object", "receiver", "expression", "operand", "value", NULL};
    TSNode f = ts_node_child_by_field_name(c, "function", 8);
    for (int pass = 0; pass < 2; pass++) {
        TSNode n = pass == 0 ? c : f;
        if (ts_node_is_null(n))
            continue;
        for (const char *const *p = OBJ; *p; p++) {
            TSNode o = ts_node_child_by_field_name(n, *p, (uint32_t)strlen(*p));
            if (!ts_node_is_null(o)) {
                *out = o;
                return true;
            }
        }
    }
    return false;
}

struct run {
    struct bw_taint *x;
    bw_taint_fn fn;
    void *ctx;
    uint32_t from, to;
    int rc;
    bool assigns; /* the spec has assignment sinks */
};

/* The sink of spec whose callee regex matches callee (a call's, or an assignment target's when
 * assign), or NULL. */
static const struct sink *sink_for(struct bw_taint *x, const char *callee, bool assign)
{
    size_t n = strlen(callee);
    for (size_t i = 0; n && i < x->spec->nsinks; i++)
        if ((x->spec->sinks[i].arg == BW_TAINT_ARG_ASSIGN) == assign && re_at(x, x->spec->sinks[i].callee, callee, n))
            return &x->spec->sinks[i];
    return NULL;
}

/* Whether value arg, given to a sink at node at, is tainted given the function around it;
 * reports the flow. */
static int judge(struct run *r, TSNode at, uint32_t at_end, TSNode arg)
{
    struct bw_taint *x = r->x;
    /* the names as the function leaves them just before the sink */
    x->nvars = x->next = 0;
    x->visited = 0;
    bool is_fn;
    TSNode scope = scope_of(at, ts_tree_root_node(x->t->tree), &is_fn);
    if (is_fn)
        bind_params(x, scope, route_context(x, scope) ? BW_TAINT_SOURCE : BW_TAINT_PARAM);
    walk(x, scope, ts_node_start_byte(at), 0);
    x->visited = 0;
    if (!tainted(x, arg, 0))
        return 0;
    struct bw_taint_flow flow = {.origin = x->tmp.origin};
    for (uint32_t i = 0; i < x->tmp.nsteps && i < BW_TAINT_MAX_STEPS - 1; i++)
        flow.steps[flow.nsteps++] = x->tmp.steps[i];
    flow.steps[flow.nsteps++] = (struct bw_taint_step){ts_node_start_byte(at), at_end, BW_STEP_SINK};
    return r->fn(r->ctx, &flow);
}

static int check_sink(struct run *r, TSNode c)
{
    struct bw_taint *x = r->x;
    TSNode args;
    const struct sink *hit = sink_for(x, callee_of(x, c, &args), false);
    /* "...".html_safe has no arguments: its receiver is what is checked */
    if (!hit || (ts_node_is_null(args) && hit->arg != -2))
        return 0;
    size_t cl;
    const char *ct = text(x, c, &cl);
    if ((hit->when && !re_at(x, hit->when, ct, cl)) || (hit->unless && re_at(x, hit->unless, ct, cl)))
        return 0;
    TSNode arg = args;
    if (hit->arg >= 0 && !arg_of(args, hit->arg, &arg))
        return 0;
    if (hit->arg == -2 && !receiver_of(c, &arg))
        return 0;
    return judge(r, c, ts_node_end_byte(c), arg);
}

/* Node n's text as x->callee, to be matched with the sinks; false when empty or too long. */
static bool node_as_callee(struct bw_taint *x, TSNode n)
{
    size_t len;
    const char *s = text(x, n, &len);
    if (len == 0 || len > BW_TAINT_MAX_CALLEE)
        return false;
    memcpy(x->callee, s, len);
    x->callee[len] = '\0';
    return true;
}

/* A call whose parenthesis never closes is no call node: tree-sitter leaves its callee and
 * first argument side by side in an ERROR (requests.get(url at the end of a fragment). f and a
 * are two consecutive named children of an ERROR. */
static int check_error_pair(struct run *r, TSNode f, TSNode a)
{
    struct bw_taint *x = r->x;
    static const char *const CALLEE[] = {"identifier", "attribute", "member_expression", "selector_expression",
                                         "field_access", "member_access_expression", "scoped_identifier",
                                         "name", "qualified_name", "scope_resolution", "call", NULL};
    if (!type_is(f, CALLEE) || ts_node_start_byte(f) < r->from || ts_node_start_byte(f) >= r->to)
        return 0;
    uint32_t fe = ts_node_end_byte(f), as = ts_node_start_byte(a);
    bool paren = false, other = false;
    for (uint32_t k = fe; k < as && k < x->t->len && !other; k++) {
        char ch = x->t->src[k];
        if (ch == '(' && !paren)
            paren = true;
        else if (!isspace((unsigned char)ch))
            other = true;
    }
    if (!paren || other)
        return 0;
    if (!node_as_callee(x, f))
        return 0;
    const struct sink *hit = sink_for(x, x->callee, false);
    if (!hit || hit->arg > 0 || hit->arg < -1 || hit->when)
        return 0;
    return judge(r, f, ts_node_end_byte(a), a);
}

/* Every pair of consecutive named children of an ERROR, read with a cursor: indexing them
 * (ts_node_named_child) is quadratic in a long ERROR. */
static int check_error_calls(struct run *r, TSNode err)
{
    TSTreeCursor cur = ts_tree_cursor_new(err);
    TSNode prev = {0};
    bool have = false;
    int rc = 0;
    for (bool more = ts_tree_cursor_goto_first_child(&cur); more && rc == 0;
         more = ts_tree_cursor_goto_next_sibling(&cur)) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (!ts_node_is_named(n))
            continue;
        if (have && ts_node_start_byte(prev) >= r->to)
            break;
        if (have)
            rc = check_error_pair(r, prev, n);
        prev = n;
        have = true;
    }
    ts_tree_cursor_delete(&cur);
    return rc;
}

/* An assignment to a sink (el.innerHTML = v, cmd.CommandText = v) or a JSX attribute naming one
 * (dangerouslySetInnerHTML={{__html: v}}): the value assigned is checked. */
static int check_assign(struct run *r, TSNode n)
{
    struct bw_taint *x = r->x;
    TSNode lhs, rhs;
    if (strcmp(ts_node_type(n), "jsx_attribute") == 0) {
        if (ts_node_named_child_count(n) != 2)
            return 0;
        lhs = ts_node_named_child(n, 0);
        rhs = ts_node_named_child(n, 1);
    } else if (!assignment(n, &lhs, &rhs)) {
        return 0;
    }
    if (!node_as_callee(x, lhs) || !sink_for(x, x->callee, true))
        return 0;
    return judge(r, n, ts_node_end_byte(n), rhs);
}

/* The checks at one node of the range. */
static int visit_one(struct run *r, TSNode n)
{
    int rc = 0;
    if (type_is(n, CALLS) && ts_node_start_byte(n) >= r->from)
        rc = check_sink(r, n);
    if (!rc && r->assigns && ts_node_start_byte(n) >= r->from)
        rc = check_assign(r, n);
    if (!rc && strcmp(ts_node_type(n), "ERROR") == 0)
        rc = check_error_calls(r, n);
    return rc;
}

/* Every named node that overlaps [from, to), in text order, with one cursor: indexing a node's
 * children (ts_node_named_child) walks them from the first each time, which is quadratic in the
 * statements of a long block (a library wrapped in one function), and a run starts at the root
 * for each rule's range. */
static int visit_calls(struct run *r, TSNode root)
{
    TSTreeCursor c = ts_tree_cursor_new(root);
    int rc = 0;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        bool past = ts_node_start_byte(n) >= r->to; /* so are the siblings after it */
        bool inside = !past && ts_node_end_byte(n) > r->from;
        if (inside && ts_node_is_named(n) && (rc = visit_one(r, n)) != 0)
            break;
        if (inside && ts_tree_cursor_goto_first_child(&c))
            continue;
        bool moved = false;
        while (!moved) {
            if (!past && ts_tree_cursor_goto_next_sibling(&c)) {
                moved = true;
            } else if (!ts_tree_cursor_goto_parent(&c)) {
                ts_tree_cursor_delete(&c);
                return rc;
            } else {
                past = false; /* the parent's next sibling may still be in range */
            }
        }
    }
    ts_tree_cursor_delete(&c);
    return rc;
}

bool bw_taint_gate(struct bw_taint *x, const struct bw_taint_tables *tab, enum bw_lang l, const char *s, size_t len)
{
    if (!tab || (unsigned)l >= BW_LANG_COUNT || !tab->lang[l].gate)
        return true; /* no tables: let the run decide */
    int rc = pcre2_match(tab->lang[l].gate, (PCRE2_SPTR)s, len, 0, 0, x->md, x->mctx);
    return rc >= 0 || rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT;
}

int bw_taint_run(struct bw_taint *x, const struct bw_taint_spec *spec, const struct bw_syn_tree *t, uint32_t from,
                 uint32_t to, bw_taint_fn fn, void *ctx)
{
    if (!t->tree)
        return -1;
    x->t = t;
    x->spec = spec;
    x->tab = spec->tab;
    struct run r = {x, fn, ctx, from, to ? to : UINT32_MAX, 0, false};
    for (size_t i = 0; i < spec->nsinks; i++)
        r.assigns |= spec->sinks[i].arg == BW_TAINT_ARG_ASSIGN;
    return visit_calls(&r, ts_tree_root_node(t->tree));
}
