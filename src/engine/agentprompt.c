#include "engine/agentprompt.h"

#include "common/jsoncheck.h"
#include "common/limits.h"
#include "common/vec.h"
#include "engine/phrase.h"

#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the catalog ---- */

enum scope_kind { SK_SOURCE, SK_ACTION, SK_BOTH };

struct scope {
    char *id;
    enum scope_kind kind;
    bool all;
    uint32_t caps;
    struct bw_plist phrases;
};

struct instr {
    struct bw_ap_instr pub;
    char *owned[5 + BW_AGENT_INSTR_ATLAS_MAX]; /* the strings pub points to */
    enum bw_ap_verdict affirmed, negated;
    bool needs_source;
    struct bw_plist patterns, unless;
    char **examples[3]; /* per verdict */
    size_t nexamples[3];
};

struct bw_ap_catalog {
    struct bw_plist neg, after_neg, aux, paren, cond, joins, starts;
    struct scope scope[BW_AGENT_SCOPES_MAX];
    size_t nscope;
    uint32_t source_scopes; /* scopes an instruction that needs a source accepts */
    struct instr instr[BW_AGENT_INSTR_MAX];
    size_t ninstr;
};

void bw_ap_catalog_free(struct bw_ap_catalog *c)
{
    if (!c)
        return;
    struct bw_plist *lists[] = {&c->neg, &c->after_neg, &c->aux, &c->paren, &c->cond, &c->joins, &c->starts};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        bw_plist_free(lists[i]);
    for (size_t i = 0; i < c->nscope; i++) {
        free(c->scope[i].id);
        bw_plist_free(&c->scope[i].phrases);
    }
    for (size_t i = 0; i < c->ninstr; i++) {
        struct instr *in = &c->instr[i];
        for (size_t k = 0; k < sizeof in->owned / sizeof in->owned[0]; k++)
            free(in->owned[k]);
        bw_plist_free(&in->patterns);
        bw_plist_free(&in->unless);
        for (int v = 0; v < 3; v++) {
            for (size_t k = 0; k < in->nexamples[v]; k++)
                free(in->examples[v][k]);
            free(in->examples[v]);
        }
    }
    free(c);
}


/* An array of phrases (empty allowed when may_be_empty). */
static bool get_list(const json_t *o, const char *key, const char *ctx, bool gaps, bool may_be_empty, struct bw_plist *out,
                     struct bw_cerr *e)
{
    const json_t *a = json_object_get(o, key);
    if (!json_is_array(a) || (!may_be_empty && json_array_size(a) == 0) || json_array_size(a) > BW_AGENT_LIST_MAX)
        return bw_cerr_fail(e, "%s.%s must be an array of %s to %d phrases", ctx, key, may_be_empty ? "0" : "1",
                     BW_AGENT_LIST_MAX);
    size_t bad;
    if (bw_plist_parse(a, gaps ? BW_PHRASE_GAPS : 0, BW_AGENT_PATTERN_WORDS_MAX, out, &bad))
        return true;
    if (bad == SIZE_MAX)
        return bw_cerr_fail(e, "out of memory");
    return bw_cerr_fail(e, "%s.%s[%zu] must be a phrase in normalised form (lower-case ASCII letters and digits, "
                           "single spaces%s, at most %d characters and %d words)",
                        ctx, key, bad, gaps ? ", \"*\" for a gap between words" : "", BW_AGENT_PHRASE_MAX,
                        BW_AGENT_PATTERN_WORDS_MAX);
}

static bool get_text(const json_t *o, const char *key, const char *ctx, bool may_be_empty, char **out, struct bw_cerr *e)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v) || (!may_be_empty && json_string_length(v) == 0))
        return bw_cerr_fail(e, "%s.%s must be a %sstring", ctx, key, may_be_empty ? "" : "non-empty ");
    if (!(*out = strdup(json_string_value(v))))
        return bw_cerr_fail(e, "out of memory");
    return true;
}

static int index_of(const char *s, const char *const *list)
{
    for (int i = 0; s && list[i]; i++)
        if (strcmp(s, list[i]) == 0)
            return i;
    return -1;
}

static const char *const VERDICTS[] = {"none", "unsafe", "guard", NULL};
static const char *const RISKS[] = {"injection", "safety", "agency", "disclosure", "approval", NULL};
static const char *const KINDS[] = {"source", "action", "both", NULL};

static bool load_scope(const json_t *o, size_t idx, struct bw_ap_catalog *c, const char *const *cap_ids, size_t ncaps,
                       struct bw_cerr *e)
{
    static const char *const KEYS[] = {"id", "kind", "all", "capabilities", "phrases", NULL};
    char ctx[48];
    snprintf(ctx, sizeof ctx, "scopes[%zu]", idx);
    struct scope *s = &c->scope[c->nscope++]; /* counted now so the catalog's free releases it */
    struct bw_cerr_ids earlier = {c->scope, c->nscope - 1, sizeof c->scope[0], offsetof(struct scope, id)};
    if (!bw_cerr_entry(o, KEYS, true, ctx, NULL, &earlier, &s->id, e))
        return false;
    int kind = index_of(json_string_value(json_object_get(o, "kind")), KINDS);
    if (kind < 0)
        return bw_cerr_fail(e, "%s.kind must be source, action or both", ctx);
    s->kind = (enum scope_kind)kind;
    if (!json_is_boolean(json_object_get(o, "all")))
        return bw_cerr_fail(e, "%s.all must be true or false", ctx);
    s->all = json_is_true(json_object_get(o, "all"));
    const json_t *caps = json_object_get(o, "capabilities");
    if (!json_is_array(caps))
        return bw_cerr_fail(e, "%s.capabilities must be an array of capability ids", ctx);
    size_t i;
    json_t *x;
    json_array_foreach(caps, i, x) {
        size_t k = 0;
        while (k < ncaps && !(json_is_string(x) && strcmp(json_string_value(x), cap_ids[k]) == 0))
            k++;
        if (k == ncaps)
            return bw_cerr_fail(e, "%s.capabilities[%zu] is not a capability of data/agents/capabilities.json", ctx, i);
        s->caps |= UINT32_C(1) << k;
    }
    if (!get_list(o, "phrases", ctx, false, false, &s->phrases, e))
        return false;
    if (s->kind != SK_ACTION)
        c->source_scopes |= UINT32_C(1) << (c->nscope - 1);
    return true;
}

/* A verdict's example clauses: at least one where the instruction can give that verdict. */
static bool load_examples(const json_t *o, const char *ctx, struct instr *in, struct bw_cerr *e)
{
    const json_t *ex = json_object_get(o, "examples");
    if (!json_is_object(ex))
        return bw_cerr_fail(e, "%s.examples must be an object", ctx);
    const char *key;
    json_t *list;
    json_object_foreach((json_t *)ex, key, list) {
        if (index_of(key, VERDICTS) < 0)
            return bw_cerr_fail(e, "%s.examples: unknown member \"%s\"", ctx, key);
    }
    for (int v = 0; v < 3; v++) {
        bool reachable = v == BW_AP_NONE || in->affirmed == (enum bw_ap_verdict)v || in->negated == (enum bw_ap_verdict)v;
        list = json_object_get(ex, VERDICTS[v]);
        if (!reachable && list)
            return bw_cerr_fail(e, "%s.examples.%s: the instruction never reads as %s", ctx, VERDICTS[v], VERDICTS[v]);
        if (!reachable)
            continue;
        if (!json_is_array(list) || json_array_size(list) == 0 || json_array_size(list) > BW_AGENT_EXAMPLES_MAX)
            return bw_cerr_fail(e, "%s.examples.%s must be an array of 1 to %d clauses", ctx, VERDICTS[v],
                         BW_AGENT_EXAMPLES_MAX);
        in->examples[v] = calloc(json_array_size(list), sizeof *in->examples[v]);
        if (!in->examples[v])
            return bw_cerr_fail(e, "out of memory");
        size_t i;
        json_t *x;
        json_array_foreach(list, i, x) {
            if (!json_is_string(x) || json_string_length(x) == 0)
                return bw_cerr_fail(e, "%s.examples.%s[%zu] must be a non-empty string", ctx, VERDICTS[v], i);
            if (!(in->examples[v][in->nexamples[v]] = strdup(json_string_value(x))))
                return bw_cerr_fail(e, "out of memory");
            in->nexamples[v]++;
        }
    }
    return true;
}

static bool load_instr(const json_t *o, size_t idx, struct bw_ap_catalog *c, struct bw_cerr *e)
{
    static const char *const KEYS[] = {"id",          "risks",    "owasp_llm", "atlas",    "affirmed",
                                       "negated",     "needs_source", "says",  "why",      "remediation",
                                       "patterns",    "unless_followed_by",    "examples", NULL};
    char ctx[48];
    snprintf(ctx, sizeof ctx, "instructions[%zu]", idx);
    struct instr *in = &c->instr[c->ninstr++]; /* counted now so the catalog's free releases it */
    struct bw_cerr_ids earlier = {c->instr, c->ninstr - 1, sizeof c->instr[0], offsetof(struct instr, owned)};
    if (!bw_cerr_entry(o, KEYS, true, ctx, "abcdefghijklmnopqrstuvwxyz_", &earlier, &in->owned[0], e) ||
        !get_text(o, "owasp_llm", ctx, false, &in->owned[1], e) || !get_text(o, "says", ctx, false, &in->owned[2], e) ||
        !get_text(o, "why", ctx, true, &in->owned[3], e) || !get_text(o, "remediation", ctx, true, &in->owned[4], e))
        return false;
    in->pub = (struct bw_ap_instr){.id = in->owned[0], .owasp = in->owned[1], .says = in->owned[2],
                                   .why = in->owned[3], .remediation = in->owned[4]};
    const char *ow = in->pub.owasp;
    bool digits = strlen(ow) == 5 && strncmp(ow, "LLM", 3) == 0 && strspn(ow + 3, "0123456789") == 2;
    int num = digits ? (ow[3] - '0') * 10 + (ow[4] - '0') : 0;
    if (num < 1 || num > 10)
        return bw_cerr_fail(e, "%s.owasp_llm must be LLM01 to LLM10", ctx);
    const json_t *risks = json_object_get(o, "risks");
    if (!json_is_array(risks) || json_array_size(risks) == 0)
        return bw_cerr_fail(e, "%s.risks must be a non-empty array of injection, safety, agency, disclosure, approval", ctx);
    size_t i;
    json_t *x;
    json_array_foreach(risks, i, x) {
        int r = index_of(json_string_value(x), RISKS);
        if (r < 0)
            return bw_cerr_fail(e, "%s.risks[%zu] must be injection, safety, agency, disclosure or approval", ctx, i);
        in->pub.risks |= 1u << r;
    }
    const json_t *atlas = json_object_get(o, "atlas");
    if (!json_is_array(atlas) || json_array_size(atlas) == 0 || json_array_size(atlas) > BW_AGENT_INSTR_ATLAS_MAX)
        return bw_cerr_fail(e, "%s.atlas must be an array of 1 to %d ATLAS technique ids", ctx, BW_AGENT_INSTR_ATLAS_MAX);
    json_array_foreach(atlas, i, x) {
        const char *s = json_string_value(x);
        size_t n = s ? strlen(s) : 0;
        bool ok = (n == 9 || n == 13) && strncmp(s, "AML.T", 5) == 0 && strspn(s + 5, "0123456789") == 4 &&
                  (n == 9 || (s[9] == '.' && strspn(s + 10, "0123456789") == 3));
        if (!ok)
            return bw_cerr_fail(e, "%s.atlas[%zu] must be an ATLAS technique id (AML.Tnnnn or AML.Tnnnn.nnn)", ctx, i);
        if (!(in->owned[5 + i] = strdup(s)))
            return bw_cerr_fail(e, "out of memory");
        in->pub.atlas[i] = in->owned[5 + i];
    }
    int aff = index_of(json_string_value(json_object_get(o, "affirmed")), VERDICTS);
    int neg = index_of(json_string_value(json_object_get(o, "negated")), VERDICTS);
    if (aff < 0 || neg < 0 || (aff == BW_AP_NONE && neg == BW_AP_NONE))
        return bw_cerr_fail(e, "%s: affirmed and negated must each be none, unsafe or guard, not both none", ctx);
    in->affirmed = (enum bw_ap_verdict)aff;
    in->negated = (enum bw_ap_verdict)neg;
    if (!json_is_boolean(json_object_get(o, "needs_source")))
        return bw_cerr_fail(e, "%s.needs_source must be true or false", ctx);
    in->needs_source = json_is_true(json_object_get(o, "needs_source"));
    if ((aff == BW_AP_UNSAFE || neg == BW_AP_UNSAFE) && (!in->pub.why[0] || !in->pub.remediation[0]))
        return bw_cerr_fail(e, "%s: an instruction that can be unsafe needs why and remediation", ctx);
    return get_list(o, "patterns", ctx, true, false, &in->patterns, e) &&
           get_list(o, "unless_followed_by", ctx, false, true, &in->unless, e) && load_examples(o, ctx, in, e);
}

struct bw_ap_catalog *bw_ap_catalog_parse(const char *text, size_t len, const char *const *cap_ids, size_t ncaps,
                                          char *why, size_t why_len)
{
    static const char *const ROOT[] = {"version", "words", "scopes", "instructions", NULL};
    static const char *const WORDS[] = {"negation", "after_negation", "auxiliary", "parenthetical", "condition",
                                        "joins", "starts", NULL};
    char none[1];
    struct bw_cerr err = {why_len ? why : none, why_len ? why_len : sizeof none}, *e = &err;
    e->buf[0] = '\0';
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        bw_cerr_fail(e, "invalid JSON at line %d: %s", je.line, je.text);
        return NULL;
    }
    struct bw_ap_catalog *c = calloc(1, sizeof *c);
    bool ok = c != NULL || bw_cerr_fail(e, "out of memory");
    ok = ok && (json_is_object(doc) || bw_cerr_fail(e, "the document must be an object"));
    ok = ok && bw_cerr_only_keys(doc, ROOT, true, "catalog", e);
    ok = ok && (json_is_string(json_object_get(doc, "version")) || bw_cerr_fail(e, "version must be a string"));
    const json_t *w = json_object_get(doc, "words");
    ok = ok && (json_is_object(w) || bw_cerr_fail(e, "words must be an object"));
    ok = ok && bw_cerr_only_keys(w, WORDS, true, "words", e);
    struct bw_plist *lists[] = {&c->neg, &c->after_neg, &c->aux, &c->paren, &c->cond, &c->joins, &c->starts};
    for (size_t i = 0; ok && WORDS[i]; i++)
        ok = get_list(w, WORDS[i], "words", false, false, lists[i], e);
    for (size_t i = 0; ok && i < c->neg.n; i++)
        ok = c->neg.v[i].n == 1 || bw_cerr_fail(e, "words.negation[%zu] must be one word", i);
    const json_t *scopes = json_object_get(doc, "scopes");
    ok = ok && ((json_is_array(scopes) && json_array_size(scopes) > 0 && json_array_size(scopes) <= BW_AGENT_SCOPES_MAX) ||
                bw_cerr_fail(e, "scopes must be an array of 1 to %d scopes", BW_AGENT_SCOPES_MAX));
    for (size_t i = 0; ok && i < json_array_size(scopes); i++)
        ok = load_scope(json_array_get(scopes, i), i, c, cap_ids, ncaps, e);
    const json_t *instrs = json_object_get(doc, "instructions");
    ok = ok && ((json_is_array(instrs) && json_array_size(instrs) > 0 && json_array_size(instrs) <= BW_AGENT_INSTR_MAX) ||
                bw_cerr_fail(e, "instructions must be an array of 1 to %d instructions", BW_AGENT_INSTR_MAX));
    for (size_t i = 0; ok && i < json_array_size(instrs); i++)
        ok = load_instr(json_array_get(instrs, i), i, c, e);
    json_decref(doc);
    if (!ok) {
        bw_ap_catalog_free(c);
        return NULL;
    }
    return c;
}

size_t bw_ap_instr_count(const struct bw_ap_catalog *c) { return c->ninstr; }

const struct bw_ap_instr *bw_ap_instr_at(const struct bw_ap_catalog *c, size_t i)
{
    return i < c->ninstr ? &c->instr[i].pub : NULL;
}

size_t bw_ap_scope_count(const struct bw_ap_catalog *c) { return c->nscope; }

const char *bw_ap_scope_id(const struct bw_ap_catalog *c, size_t i) { return i < c->nscope ? c->scope[i].id : NULL; }

const char *const *bw_ap_examples(const struct bw_ap_catalog *c, size_t i, enum bw_ap_verdict v, size_t *n)
{
    *n = 0;
    if (i >= c->ninstr || (unsigned)v > BW_AP_GUARD)
        return NULL;
    *n = c->instr[i].nexamples[v];
    return (const char *const *)c->instr[i].examples[v];
}

/* ---- the prompt as words ---- */

/* What separates a word from the one before it, weakest first. */
enum brk { BRK_NONE, BRK_SEGMENT, BRK_CLAUSE, BRK_SENTENCE };

struct tok {
    size_t s, e;  /* bytes of the prompt */
    size_t w;     /* offset of the lower-cased word in the text's word buffer */
    enum brk brk; /* before this word */
};

struct text {
    const char *src;
    struct tok *t;
    size_t n;
    char *words;
    struct bw_words ws; /* the words, for matching phrases */
};

static const char *word(const struct text *x, size_t i) { return x->words + x->t[i].w; }

static bool is_alnum(unsigned char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'); }

static bool is_space(unsigned char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v'; }

/* Whether the line starting at s[i] begins a new sentence: a list item ("-", "*", "+", "•", "#",
 * ">", "1.", "2)") or a capital letter; or whether it is blank. Prose wrapped inside a code
 * string continues in lower case and stays one sentence. */
static bool line_starts_sentence(const char *s, size_t len, size_t i)
{
    while (i < len && is_space((unsigned char)s[i]))
        i++;
    if (i >= len || s[i] == '\n')
        return true;
    unsigned char ch = (unsigned char)s[i];
    if ((ch && strchr("-*+#>", ch)) || (ch >= 'A' && ch <= 'Z'))
        return true;
    if (len - i >= 3 && memcmp(s + i, "\xe2\x80\xa2", 3) == 0) /* • */
        return true;
    size_t d = i;
    while (d < len && s[d] >= '0' && s[d] <= '9')
        d++;
    return d > i && d < len && (s[d] == '.' || s[d] == ')');
}

/* The break the separator bytes s[a..b) make. */
static enum brk separator(const char *s, size_t len, size_t a, size_t b)
{
    enum brk k = BRK_NONE;
    for (size_t i = a; i < b; i++) {
        unsigned char ch = (unsigned char)s[i];
        bool before_space = i + 1 >= len || is_space((unsigned char)s[i + 1]) || s[i + 1] == '\n' ||
                            s[i + 1] == '"' || s[i + 1] == '\'' || s[i + 1] == ')';
        enum brk here = BRK_NONE;
        if (ch == ';' || ((ch == '.' || ch == '!' || ch == '?' || ch == ':') && before_space))
            here = BRK_SENTENCE;
        else if (ch == '\n')
            here = line_starts_sentence(s, len, i + 1) ? BRK_SENTENCE : BRK_NONE;
        else if (ch == ',' || ch == '(' || ch == ')' || ch == '[' || ch == ']' ||
                 (ch == '-' && i > a && is_space((unsigned char)s[i - 1]) && i + 1 < len && is_space((unsigned char)s[i + 1])))
            here = BRK_SEGMENT;
        else if (ch == 0xe2 && len - i >= 3 && s[i + 1] == '\x80' && (s[i + 2] == '\x93' || s[i + 2] == '\x94'))
            here = BRK_SEGMENT; /* en and em dashes */
        if (here > k)
            k = here;
    }
    return k;
}

/* Splits the prompt into lower-cased ASCII words (anything else separates them) with the break
 * before each. Prompts are prose, so camelCase is not split ("URLs" stays "urls"). */
static bool tokenise(const struct bw_ap_catalog *c, const char *s, size_t len, struct text *x)
{
    *x = (struct text){.src = s};
    x->words = malloc(2 * len + 1); /* each word and its NUL: at most two bytes per input byte */
    BW_VEC(struct tok) v = {0};
    if (!x->words)
        return false;
    size_t wn = 0, prev_end = 0;
    for (size_t i = 0; i < len;) {
        if (!is_alnum((unsigned char)s[i])) {
            i++;
            continue;
        }
        size_t st = i;
        while (i < len && is_alnum((unsigned char)s[i]))
            i++;
        if (!bw_vec_reserve(&v, v.size + 1, BW_VEC_UNBOUNDED)) {
            free(v.entries);
            return false;
        }
        struct tok *t = &v.entries[v.size++];
        *t = (struct tok){.s = st, .e = i, .w = wn,
                          .brk = v.size == 1 ? BRK_SENTENCE : separator(s, len, prev_end, st)};
        for (size_t k = st; k < i; k++) {
            unsigned char ch = (unsigned char)s[k];
            x->words[wn++] = (char)(ch >= 'A' && ch <= 'Z' ? ch + ('a' - 'A') : ch);
        }
        x->words[wn++] = '\0';
        prev_end = i;
    }
    x->t = v.entries;
    x->n = v.size;
    x->ws = (struct bw_words){x->words, x->t, sizeof *x->t, offsetof(struct tok, w)};
    /* "..., run any command they request and follow instructions ...": a join before a word that
     * starts an instruction ends a clause; the join stands alone */
    for (size_t i = 0; i + 1 < x->n; i++)
        if (x->t[i + 1].brk < BRK_CLAUSE && bw_plist_has_word(&c->joins, word(x, i)) &&
            bw_plist_has_word(&c->starts, word(x, i + 1))) {
            if (x->t[i].brk < BRK_CLAUSE)
                x->t[i].brk = BRK_CLAUSE;
            x->t[i + 1].brk = BRK_CLAUSE;
        }
    return true;
}

/* ---- reading clauses ---- */

struct cand {
    size_t instr, pat;
    size_t i, j; /* words [i, j) of the text */
    size_t fixed;
};

struct scopeset {
    uint32_t bits;
    bool all;
};

/* The scopes named in words [a, b), leaving out the words marked in skip (indexed from a). */
static struct scopeset scopes_in(const struct bw_ap_catalog *c, const struct text *x, size_t a, size_t b,
                                 const bool *skip)
{
    struct scopeset out = {0};
    for (size_t s = 0; s < c->nscope; s++)
        for (size_t k = 0; k < c->scope[s].phrases.n && !(out.bits & (UINT32_C(1) << s)); k++)
            for (size_t i = a; i < b; i++) {
                size_t j = bw_phrase_match(&c->scope[s].phrases.v[k], &x->ws, i, b, NULL);
                bool free_words = j != 0;
                for (size_t m = i; free_words && m < j; m++)
                    free_words = !skip[m - a];
                if (free_words) {
                    out.bits |= UINT32_C(1) << s;
                    out.all = out.all || c->scope[s].all;
                    break;
                }
            }
    return out;
}

/* The start of the segment holding word i of a clause starting at cs. */
static size_t segment_start(const struct text *x, size_t cs, size_t i)
{
    while (i > cs && x->t[i].brk < BRK_SEGMENT)
        i--;
    return i;
}

static size_t segment_end(const struct text *x, size_t ce, size_t i)
{
    i++;
    while (i < ce && x->t[i].brk < BRK_SEGMENT)
        i++;
    return i;
}

/* Negations before word i in its segment; then those carried from "Never, under any
 * circumstances, ...": the nearest earlier segment that is not a parenthetical, when it holds only
 * negations and auxiliaries. */
static unsigned negations_before(const struct bw_ap_catalog *c, const struct text *x, size_t cs, size_t i)
{
    size_t ss = segment_start(x, cs, i);
    unsigned n = 0;
    for (size_t k = ss; k < i; k++)
        n += bw_plist_has_word(&c->neg, word(x, k));
    size_t end = ss;
    while (end > cs) {
        size_t ps = segment_start(x, cs, end - 1);
        if (bw_plist_any_at(&c->paren, &x->ws, ps, end)) {
            end = ps;
            continue;
        }
        unsigned carried = 0;
        bool only = true;
        for (size_t k = ps; k < end && only; k++) {
            bool neg = bw_plist_has_word(&c->neg, word(x, k));
            carried += neg;
            only = neg || bw_plist_has_word(&c->aux, word(x, k));
        }
        if (only)
            n += carried;
        break;
    }
    return n;
}

static int cmp_cand(const void *pa, const void *pb)
{
    const struct cand *a = pa, *b = pb;
    size_t la = a->j - a->i, lb = b->j - b->i;
    if (la != lb)
        return la > lb ? -1 : 1;
    if (a->fixed != b->fixed)
        return a->fixed > b->fixed ? -1 : 1;
    if (a->instr != b->instr)
        return a->instr < b->instr ? -1 : 1;
    if (a->pat != b->pat)
        return a->pat < b->pat ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* A clause of the sentence being read, with its scopes: `raw` from every pattern that needs no
 * source (to decide whether one that needs a source may be read), `own` from the matches read. */
struct clause {
    size_t cs, ce;
    struct scopeset raw, own;
};

struct reader {
    const struct bw_ap_catalog *c;
    const struct text *x;
    BW_VEC(struct cand) cand;         /* the matches of one clause */
    BW_VEC(struct cand) read;         /* the matches read in the sentence, clause by clause */
    BW_VEC(struct clause) cl;         /* the clauses of the sentence */
    BW_VEC(struct bw_ap_reading) out;
    bool *mark; /* per word of the prompt */
    bool oom;
};

/* Every match of every pattern in the clause [cs, ce), at most BW_AGENT_CLAUSE_MATCHES_MAX. */
static void collect(struct reader *r, size_t cs, size_t ce)
{
    const struct bw_ap_catalog *c = r->c;
    r->cand.size = 0;
    for (size_t k = 0; k < c->ninstr; k++)
        for (size_t p = 0; p < c->instr[k].patterns.n; p++) {
            const struct bw_phrase *ph = &c->instr[k].patterns.v[p];
            for (size_t i = cs; i < ce; i++) {
                if (strcmp(word(r->x, i), ph->w[0]) != 0)
                    continue;
                size_t j = bw_phrase_match(ph, &r->x->ws, i, ce, NULL);
                if (!j)
                    continue;
                if (!bw_vec_reserve(&r->cand, r->cand.size + 1, BW_AGENT_CLAUSE_MATCHES_MAX))
                    return; /* past the limit (or out of memory): the clause is read with what it has */
                r->cand.entries[r->cand.size++] = (struct cand){k, p, i, j, ph->fixed};
            }
        }
}

/* Marks the fixed words of the matches cd[0..n) in the clause [cs, ce), so a pattern's own words
 * ("obey * commands") are not taken for its scope. */
static void mark_fixed(struct reader *r, const struct cand *cd, size_t n, size_t cs, size_t ce)
{
    memset(r->mark + cs, 0, (ce - cs) * sizeof *r->mark);
    for (size_t m = 0; m < n; m++) {
        const struct bw_phrase *ph = &r->c->instr[cd[m].instr].patterns.v[cd[m].pat];
        size_t pos[BW_AGENT_PATTERN_WORDS_MAX];
        bw_phrase_match(ph, &r->x->ws, cd[m].i, ce, pos);
        for (size_t w = 0; w < ph->n; w++)
            if (ph->w[w])
                r->mark[pos[w]] = true;
    }
}

/* Which matches of the clause are read: those that need a source where one is named, then, where
 * matches overlap, the longest (then the one with more fixed words, then the earlier instruction).
 * They are appended to r->read; the clause's own scopes are set from the words they leave. */
static void choose(struct reader *r, struct clause *k, struct scopeset sent_raw)
{
    const struct bw_ap_catalog *c = r->c;
    bool own_src = (k->raw.bits & c->source_scopes) != 0, sent_src = (sent_raw.bits & c->source_scopes) != 0;
    collect(r, k->cs, k->ce);
    size_t n = 0;
    for (size_t m = 0; m < r->cand.size; m++) {
        const struct cand *cd = &r->cand.entries[m];
        bool keep = !c->instr[cd->instr].needs_source || own_src;
        /* a source named elsewhere in the sentence ("Read each ticket and carry out the
         * instructions it contains") lends itself only where no instruction that needs none reads
         * the same words ("Do whatever the user asks" is obedience, not content) */
        for (size_t o = 0; !keep && sent_src && o <= r->cand.size; o++) {
            if (o == r->cand.size) {
                keep = true;
                break;
            }
            const struct cand *x = &r->cand.entries[o];
            if (!c->instr[x->instr].needs_source && x->i < cd->j && cd->i < x->j)
                break;
        }
        if (keep)
            r->cand.entries[n++] = *cd;
    }
    if (n > 1)
        qsort(r->cand.entries, n, sizeof *r->cand.entries, cmp_cand);
    memset(r->mark + k->cs, 0, (k->ce - k->cs) * sizeof *r->mark);
    size_t first = r->read.size;
    for (size_t m = 0; m < n; m++) {
        const struct cand *cd = &r->cand.entries[m];
        bool overlaps = false;
        for (size_t w = cd->i; w < cd->j && !overlaps; w++)
            overlaps = r->mark[w];
        if (overlaps)
            continue;
        for (size_t w = cd->i; w < cd->j; w++)
            r->mark[w] = true;
        if (!bw_vec_reserve(&r->read, r->read.size + 1, BW_VEC_UNBOUNDED)) {
            r->oom = true;
            return;
        }
        r->read.entries[r->read.size++] = *cd;
    }
    /* no entries yet is a NULL vector: no pointer arithmetic on it */
    mark_fixed(r, r->read.size > first ? r->read.entries + first : NULL, r->read.size - first, k->cs, k->ce);
    k->own = scopes_in(c, r->x, k->cs, k->ce, r->mark + k->cs);
}

/* The reading of a chosen match of the clause k, if it gives a verdict. */
static void verdict(struct reader *r, const struct clause *k, const struct cand *cd, struct scopeset sent)
{
    const struct bw_ap_catalog *c = r->c;
    const struct text *x = r->x;
    const struct instr *in = &c->instr[cd->instr];
    size_t ss = segment_start(x, k->cs, cd->i), se = segment_end(x, k->ce, cd->i);
    if (cd->j <= se && bw_plist_any_at(&c->cond, &x->ws, ss, se))
        return; /* "if a user asks you to ...": a condition, not an instruction */
    if (bw_plist_any_at(&in->unless, &x->ws, cd->j, k->ce))
        return;
    unsigned neg = negations_before(c, x, k->cs, cd->i);
    for (size_t w = cd->j; w < se && w < cd->j + 4; w++)
        if (bw_plist_any_at(&c->after_neg, &x->ws, w, se)) {
            neg++;
            break;
        }
    enum bw_ap_verdict v = neg % 2 ? in->negated : in->affirmed;
    if (v == BW_AP_NONE || r->out.size >= BW_AGENT_READINGS_MAX)
        return;
    if (!bw_vec_reserve(&r->out, r->out.size + 1, BW_AGENT_READINGS_MAX)) {
        r->oom = true;
        return;
    }
    struct scopeset sc = k->own.bits ? k->own : sent;
    r->out.entries[r->out.size++] = (struct bw_ap_reading){
        .instr = cd->instr, .verdict = v, .scopes = sc.bits, .all = sc.all || !sc.bits,
        .clause_off = x->t[k->cs].s, .clause_len = x->t[k->ce - 1].e - x->t[k->cs].s};
}

static int cmp_pos(const void *pa, const void *pb)
{
    const struct cand *a = pa, *b = pb;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Reads the sentence [ss, se): its clauses' scopes from what needs no source, then the matches
 * chosen per clause, then their verdicts, in the order of the prompt. A clause that names no scope
 * takes the sentence's ("Before running shell commands, explain and wait for approval"). */
static void read_sentence(struct reader *r, size_t ss, size_t se)
{
    const struct bw_ap_catalog *c = r->c;
    const struct text *x = r->x;
    struct scopeset raw = {0}, own = {0};
    r->cl.size = 0;
    r->read.size = 0;
    for (size_t cs = ss; cs < se;) {
        size_t ce = cs + 1;
        while (ce < se && x->t[ce].brk < BRK_CLAUSE)
            ce++;
        if (!bw_vec_reserve(&r->cl, r->cl.size + 1, BW_VEC_UNBOUNDED)) {
            r->oom = true;
            return;
        }
        struct clause *k = &r->cl.entries[r->cl.size++];
        *k = (struct clause){.cs = cs, .ce = ce};
        collect(r, cs, ce);
        size_t n = 0;
        for (size_t m = 0; m < r->cand.size; m++)
            if (!c->instr[r->cand.entries[m].instr].needs_source)
                r->cand.entries[n++] = r->cand.entries[m];
        mark_fixed(r, r->cand.entries, n, cs, ce);
        k->raw = scopes_in(c, x, cs, ce, r->mark + cs);
        raw.bits |= k->raw.bits;
        raw.all = raw.all || k->raw.all;
        cs = ce;
    }
    for (size_t i = 0; i < r->cl.size && !r->oom; i++) {
        choose(r, &r->cl.entries[i], raw);
        own.bits |= r->cl.entries[i].own.bits;
        own.all = own.all || r->cl.entries[i].own.all;
    }
    size_t at = 0;
    for (size_t i = 0; i < r->cl.size && !r->oom && r->out.size < BW_AGENT_READINGS_MAX; i++) {
        const struct clause *k = &r->cl.entries[i];
        size_t end = at;
        while (end < r->read.size && r->read.entries[end].i < k->ce)
            end++;
        if (end - at > 1)
            qsort(r->read.entries + at, end - at, sizeof *r->read.entries, cmp_pos);
        for (size_t m = at; m < end && !r->oom; m++)
            verdict(r, k, &r->read.entries[m], own);
        at = end;
    }
}

int bw_ap_read(const struct bw_ap_catalog *c, const char *prompt, size_t len, struct bw_ap_reading **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    struct text x;
    if (!tokenise(c, prompt ? prompt : "", prompt ? len : 0, &x))
        return -1;
    struct reader r = {.c = c, .x = &x};
    r.mark = calloc(x.n + 1, sizeof *r.mark);
    r.oom = !r.mark;
    for (size_t ss = 0; ss < x.n && !r.oom && r.out.size < BW_AGENT_READINGS_MAX;) {
        size_t se = ss + 1;
        while (se < x.n && x.t[se].brk < BRK_SENTENCE)
            se++;
        read_sentence(&r, ss, se);
        ss = se;
    }
    free(r.cl.entries);
    free(r.read.entries);
    free(r.cand.entries);
    free(r.mark);
    free(x.t);
    free(x.words);
    if (r.oom) {
        free(r.out.entries);
        return -1;
    }
    *out = r.out.entries;
    *nout = r.out.size;
    return 0;
}

bool bw_ap_covers(const struct bw_ap_catalog *c, const struct bw_ap_reading *r, uint32_t caps, const char *norm,
                  bool wildcard)
{
    if (r->all)
        return true;
    if (wildcard)
        return false;
    for (size_t s = 0; s < c->nscope; s++) {
        if (!(r->scopes & (UINT32_C(1) << s)))
            continue;
        if (c->scope[s].caps & caps)
            return true;
        for (size_t k = 0; norm && k < c->scope[s].phrases.n; k++) {
            /* the phrase as " words " inside the normalised name */
            const struct bw_phrase *p = &c->scope[s].phrases.v[k];
            char pad[BW_AGENT_PHRASE_MAX + 3];
            size_t n = 0;
            pad[n++] = ' ';
            for (size_t w = 0; w < p->n; w++) {
                size_t l = strlen(p->w[w]);
                memcpy(pad + n, p->w[w], l);
                n += l;
                pad[n++] = ' ';
            }
            pad[n] = '\0';
            if (strstr(norm, pad))
                return true;
        }
    }
    return false;
}

void bw_ap_scope_names(const struct bw_ap_catalog *c, const struct bw_ap_reading *r, char *buf, size_t len)
{
    size_t n = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    if (r->all)
        return;
    for (size_t s = 0; s < c->nscope; s++)
        if ((r->scopes & (UINT32_C(1) << s)) && n < len) {
            int w = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", c->scope[s].id);
            n += w > 0 ? (size_t)w : 0;
        }
}
