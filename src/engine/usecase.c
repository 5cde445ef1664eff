#include "engine/usecase.h"

#include "common/jsoncheck.h"
#include "common/limits.h"
#include "common/vec.h"
#include "engine/phrase.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the catalog ---- */

/* Phrases (engine/phrase.h) of up to BW_UC_PHRASE_WORDS_MAX words, a word ending in "*" a prefix. */
struct alt {
    struct bw_plist group[BW_UC_GROUPS_MAX];
    size_t ngroups;
};

struct cat {
    struct bw_uc_category pub;
    char *owned[3];
    struct alt alt[BW_UC_ALTERNATIVES_MAX];
    size_t nalts;
    char **examples[2]; /* no_match, match */
    size_t nexamples[2];
};

struct bw_uc_catalog {
    struct bw_plist neg;
    struct cat cat[BW_UC_CATEGORIES_MAX];
    size_t ncat;
};

void bw_uc_catalog_free(struct bw_uc_catalog *c)
{
    if (!c)
        return;
    bw_plist_free(&c->neg);
    for (size_t i = 0; i < c->ncat; i++) {
        for (size_t k = 0; k < 3; k++)
            free(c->cat[i].owned[k]);
        for (size_t a = 0; a < c->cat[i].nalts; a++)
            for (size_t g = 0; g < c->cat[i].alt[a].ngroups; g++)
                bw_plist_free(&c->cat[i].alt[a].group[g]);
        for (size_t m = 0; m < 2; m++) {
            for (size_t k = 0; k < c->cat[i].nexamples[m]; k++)
                free(c->cat[i].examples[m][k]);
            free(c->cat[i].examples[m]);
        }
    }
    free(c);
}

static bool get_list(const json_t *a, const char *ctx, struct bw_plist *out, struct bw_cerr *e)
{
    if (!json_is_array(a) || json_array_size(a) == 0 || json_array_size(a) > BW_UC_PHRASES_MAX)
        return bw_cerr_fail(e, "%s must be an array of 1 to %d phrases", ctx, BW_UC_PHRASES_MAX);
    size_t bad;
    if (bw_plist_parse(a, BW_PHRASE_PREFIX, BW_UC_PHRASE_WORDS_MAX, out, &bad))
        return true;
    if (bad == SIZE_MAX)
        return bw_cerr_fail(e, "out of memory");
    return bw_cerr_fail(e, "%s[%zu] must be a phrase of 1 to %d lower-case ASCII words (letters and digits, "
                           "single spaces, \"*\" ending a word for a prefix)",
                        ctx, bad, BW_UC_PHRASE_WORDS_MAX);
}

static const char *const KINDS[] = {"practice", "high_risk_area", "transparency", "gpai", "trait", NULL};

static bool get_text(const json_t *o, const char *key, const char *ctx, char **out, struct bw_cerr *e)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s || !*s)
        return bw_cerr_fail(e, "%s.%s must be a non-empty string", ctx, key);
    if (!(*out = strdup(s)))
        return bw_cerr_fail(e, "out of memory");
    return true;
}

/* The example use cases a category must (match) and must not (no_match) be affirmed by: both
 * lists, so that every category is shown to hold and shown to stay silent on a near miss. */
static const char *const EXAMPLE_KEYS[] = {"no_match", "match", NULL};

static bool load_examples(const json_t *o, const char *ctx, struct cat *k, struct bw_cerr *e)
{
    const json_t *ex = json_object_get(o, "examples");
    char ectx[80];
    snprintf(ectx, sizeof ectx, "%s.examples", ctx);
    if (!bw_cerr_only_keys(ex, EXAMPLE_KEYS, true, ectx, e))
        return false;
    for (size_t m = 0; m < 2; m++) {
        const json_t *list = json_object_get(ex, EXAMPLE_KEYS[m]);
        if (!json_is_array(list) || json_array_size(list) == 0 || json_array_size(list) > BW_UC_EXAMPLES_MAX)
            return bw_cerr_fail(e, "%s.%s must be an array of 1 to %d use cases", ectx, EXAMPLE_KEYS[m],
                                BW_UC_EXAMPLES_MAX);
        if (!(k->examples[m] = calloc(json_array_size(list), sizeof *k->examples[m])))
            return bw_cerr_fail(e, "out of memory");
        size_t i;
        json_t *x;
        json_array_foreach(list, i, x) {
            if (!json_is_string(x) || json_string_length(x) == 0 || json_string_length(x) > BW_UC_EXAMPLE_MAX)
                return bw_cerr_fail(e, "%s.%s[%zu] must be a string of 1 to %d bytes", ectx, EXAMPLE_KEYS[m], i,
                                    BW_UC_EXAMPLE_MAX);
            if (!(k->examples[m][k->nexamples[m]] = strdup(json_string_value(x))))
                return bw_cerr_fail(e, "out of memory");
            k->nexamples[m]++;
        }
    }
    return true;
}

static bool load_cat(const json_t *o, size_t idx, struct bw_uc_catalog *c, struct bw_cerr *e)
{
    static const char *const KEYS[] = {"id", "kind", "title", "ref", "when", "examples", NULL};
    char ctx[64];
    snprintf(ctx, sizeof ctx, "categories[%zu]", idx);
    struct cat *k = &c->cat[c->ncat++]; /* counted now so the catalog's free releases it */
    struct bw_cerr_ids earlier = {c->cat, c->ncat - 1, sizeof c->cat[0], offsetof(struct cat, owned)};
    if (!bw_cerr_entry(o, KEYS, true, ctx, "abcdefghijklmnopqrstuvwxyz0123456789_", &earlier, &k->owned[0], e) ||
        !get_text(o, "title", ctx, &k->owned[1], e) || !get_text(o, "ref", ctx, &k->owned[2], e))
        return false;
    k->pub.id = k->owned[0];
    k->pub.title = k->owned[1];
    k->pub.ref = k->owned[2];
    const char *kind = json_string_value(json_object_get(o, "kind"));
    int ki = -1;
    for (int i = 0; kind && KINDS[i] && ki < 0; i++)
        ki = strcmp(kind, KINDS[i]) == 0 ? i : -1;
    if (ki < 0)
        return bw_cerr_fail(e, "%s.kind must be practice, high_risk_area, transparency, gpai or trait", ctx);
    k->pub.kind = (enum bw_uc_kind)ki;
    const json_t *when = json_object_get(o, "when");
    if (!json_is_array(when) || json_array_size(when) == 0 || json_array_size(when) > BW_UC_ALTERNATIVES_MAX)
        return bw_cerr_fail(e, "%s.when must be an array of 1 to %d alternatives", ctx, BW_UC_ALTERNATIVES_MAX);
    size_t a;
    json_t *alt;
    json_array_foreach(when, a, alt) {
        if (!json_is_array(alt) || json_array_size(alt) == 0 || json_array_size(alt) > BW_UC_GROUPS_MAX)
            return bw_cerr_fail(e, "%s.when[%zu] must be an array of 1 to %d groups", ctx, a, BW_UC_GROUPS_MAX);
        struct alt *al = &k->alt[k->nalts++];
        size_t g;
        json_t *grp;
        json_array_foreach(alt, g, grp) {
            char gctx[128];
            snprintf(gctx, sizeof gctx, "%s.when[%zu][%zu]", ctx, a, g);
            if (!get_list(grp, gctx, &al->group[al->ngroups++], e))
                return false;
        }
    }
    return load_examples(o, ctx, k, e);
}

struct bw_uc_catalog *bw_uc_catalog_parse(const char *text, size_t len, char *why, size_t why_len)
{
    static const char *const ROOT[] = {"version", "negation", "categories", NULL};
    struct bw_cerr e = {why, why_len};
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        bw_cerr_fail(&e, "invalid JSON at line %d: %s", je.line, je.text);
        return NULL;
    }
    struct bw_uc_catalog *c = calloc(1, sizeof *c);
    bool ok = c != NULL || bw_cerr_fail(&e, "out of memory");
    ok = ok && bw_cerr_only_keys(doc, ROOT, true, "catalog", &e);
    ok = ok && (json_is_string(json_object_get(doc, "version")) || bw_cerr_fail(&e, "version must be a string"));
    ok = ok && get_list(json_object_get(doc, "negation"), "negation", &c->neg, &e);
    const json_t *cats = json_object_get(doc, "categories");
    ok = ok && ((json_is_array(cats) && json_array_size(cats) > 0 && json_array_size(cats) <= BW_UC_CATEGORIES_MAX) ||
                bw_cerr_fail(&e, "categories must be an array of 1 to %d categories", BW_UC_CATEGORIES_MAX));
    for (size_t i = 0; ok && i < json_array_size(cats); i++)
        ok = load_cat(json_array_get(cats, i), i, c, &e);
    json_decref(doc);
    if (!ok) {
        bw_uc_catalog_free(c);
        return NULL;
    }
    return c;
}

size_t bw_uc_count(const struct bw_uc_catalog *c) { return c->ncat; }

const struct bw_uc_category *bw_uc_at(const struct bw_uc_catalog *c, size_t i)
{
    return i < c->ncat ? &c->cat[i].pub : NULL;
}

const char *const *bw_uc_examples(const struct bw_uc_catalog *c, size_t i, bool match, size_t *n)
{
    *n = i < c->ncat ? c->cat[i].nexamples[match] : 0;
    return i < c->ncat ? (const char *const *)c->cat[i].examples[match] : NULL;
}

int bw_uc_find(const struct bw_uc_catalog *c, const char *id)
{
    for (size_t i = 0; id && i < c->ncat; i++)
        if (strcmp(c->cat[i].pub.id, id) == 0)
            return (int)i;
    return -1;
}

/* ---- the text ---- */

struct word {
    size_t s, e;   /* bytes of the text */
    size_t clause; /* clauses are numbered in text order */
    size_t cend;   /* the end (exclusive) of its clause's words: a phrase matches inside a clause */
    size_t at;     /* the normalised word in text.buf */
};

struct text {
    const char *src;
    struct word *w;
    size_t n;
    char *buf;
    struct bw_words ws; /* the words, for matching phrases */
};

/* Latin-1 letters (U+00C0..U+00FF, UTF-8 C3 80..BF) folded to ASCII; ' ' for the two signs. */
static const char FOLD[] = "aaaaaaaceeeeiiiidnooooo ouuuuytsaaaaaaaceeeeiiiidnooooo ouuuuyty";

static bool clause_break(unsigned char ch) { return ch && strchr(".,;:!?()[]\n", ch) != NULL; }

/* The letter at s[i] (folded, lower-cased) or 0, and its length in bytes. */
static char letter(const char *s, size_t len, size_t i, size_t *adv)
{
    unsigned char ch = (unsigned char)s[i];
    *adv = 1;
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
        return (char)ch;
    if (ch >= 'A' && ch <= 'Z')
        return (char)(ch + ('a' - 'A'));
    if (ch == 0xc3 && i + 1 < len && ((unsigned char)s[i + 1] & 0xc0) == 0x80) {
        *adv = 2;
        char f = FOLD[(unsigned char)s[i + 1] - 0x80];
        return f == ' ' ? 0 : f;
    }
    return 0;
}

static bool tokenise(const char *s, size_t len, struct text *x)
{
    *x = (struct text){.src = s};
    BW_VEC(struct word) v = {0};
    if (!(x->buf = malloc(len + 1)))
        return false;
    size_t bn = 0, clause = 0;
    for (size_t i = 0; i < len;) {
        size_t adv;
        char ch = letter(s, len, i, &adv);
        if (!ch) {
            clause += clause_break((unsigned char)s[i]);
            i += adv;
            continue;
        }
        size_t st = i, at = bn;
        while (i < len && (ch = letter(s, len, i, &adv)) != 0) {
            x->buf[bn++] = ch;
            i += adv;
        }
        x->buf[bn++] = '\0';
        if (strcmp(x->buf + at, "but") == 0) { /* "CV screening but no emotion recognition" */
            clause++;
            continue;
        }
        if (!bw_vec_reserve(&v, v.size + 1, BW_VEC_UNBOUNDED)) {
            free(v.entries);
            free(x->buf);
            return false;
        }
        v.entries[v.size++] = (struct word){st, i, clause, 0, at};
    }
    x->w = v.entries;
    x->n = v.size;
    for (size_t k = x->n; k-- > 0;)
        x->w[k].cend = k + 1 < x->n && x->w[k + 1].clause == x->w[k].clause ? x->w[k + 1].cend : k + 1;
    x->ws = (struct bw_words){x->buf, x->w, sizeof *x->w, offsetof(struct word, at)};
    return true;
}

static void text_free(struct text *x)
{
    free(x->w);
    free(x->buf);
}

/* The end (exclusive) of a match of p at word i, within i's clause; 0 when none. */
static size_t match_at(const struct bw_phrase *p, const struct text *x, size_t i)
{
    return bw_phrase_match(p, &x->ws, i, x->w[i].cend, NULL);
}

/* Whether a negation phrase ends before word i, starting at most BW_UC_NEGATION_WINDOW words
 * before it in its clause. */
static bool negated(const struct bw_uc_catalog *c, const struct text *x, size_t i)
{
    size_t from = i > BW_UC_NEGATION_WINDOW ? i - BW_UC_NEGATION_WINDOW : 0;
    for (size_t j = from; j < i; j++) {
        if (x->w[j].clause != x->w[i].clause)
            continue;
        for (size_t k = 0; k < c->neg.n; k++) {
            size_t end = match_at(&c->neg.v[k], x, j);
            if (end && end <= i)
                return true;
        }
    }
    return false;
}

/* Copies bytes [s, e) of the text as quoted: whitespace runs as one space, cut before a UTF-8
 * continuation byte so the copy stays valid. */
static void quote(const struct text *x, size_t s, size_t e, char *out, size_t cap)
{
    size_t n = 0;
    bool space = false;
    for (size_t i = s; i < e; i++) {
        unsigned char ch = (unsigned char)x->src[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            space = true;
            continue;
        }
        size_t need = (space ? 1u : 0u) + 1;
        if (n + need + 1 > cap && (ch & 0xc0) != 0x80)
            break;
        if (n + need + 1 > cap) { /* a continuation byte that no longer fits: drop its lead byte too */
            while (n > 0 && ((unsigned char)out[n - 1] & 0xc0) == 0x80)
                n--;
            n -= n > 0;
            break;
        }
        if (space)
            out[n++] = ' ';
        space = false;
        out[n++] = (char)ch;
    }
    out[n] = '\0';
}

static void add_words(struct bw_uc_hit *h, const char *q)
{
    for (size_t i = 0; i < h->nwords; i++)
        if (strcmp(h->words[i], q) == 0)
            return;
    if (h->nwords < BW_UC_WORDS_MAX && q[0])
        snprintf(h->words[h->nwords++], BW_UC_QUOTE_MAX, "%s", q);
}

/* The first match of a group in the text: un-negated (*aff) when one is, else a negated one. */
struct gmatch {
    bool any, aff;
    size_t i, j; /* words [i, j) */
};

static struct gmatch group_match(const struct bw_uc_catalog *c, const struct bw_plist *g, const struct text *x)
{
    struct gmatch m = {0};
    for (size_t i = 0; i < x->n && !m.aff; i++) {
        const char *w = x->buf + x->w[i].at;
        size_t best = 0; /* the longest phrase at i ("cv screening" over "cv") */
        for (size_t k = 0; k < g->n; k++) {
            if (w[0] != g->v[k].w[0][0])
                continue;
            size_t j = match_at(&g->v[k], x, i);
            if (j > best)
                best = j;
        }
        if (!best)
            continue;
        bool neg = negated(c, x, i);
        if (!m.any || !neg)
            m = (struct gmatch){true, !neg, i, best};
    }
    return m;
}

/* The clause holding word i, quoted. */
static void quote_clause(const struct text *x, size_t i, char *out, size_t cap)
{
    size_t a = i, b = i;
    while (a > 0 && x->w[a - 1].clause == x->w[i].clause)
        a--;
    while (b + 1 < x->n && x->w[b + 1].clause == x->w[i].clause)
        b++;
    quote(x, x->w[a].s, x->w[b].e, out, cap);
}

int bw_uc_classify(const struct bw_uc_catalog *c, const char *text, size_t len, struct bw_uc_hit *out)
{
    struct text x;
    if (!tokenise(text ? text : "", text ? len : 0, &x))
        return -1;
    for (size_t k = 0; k < c->ncat; k++) {
        struct bw_uc_hit *h = &out[k];
        *h = (struct bw_uc_hit){0};
        bool seen_negated = false;
        for (size_t a = 0; a < c->cat[k].nalts && !h->affirmed; a++) {
            const struct alt *al = &c->cat[k].alt[a];
            struct gmatch m[BW_UC_GROUPS_MAX];
            bool all = true, aff = true;
            for (size_t g = 0; g < al->ngroups && all; g++) {
                m[g] = group_match(c, &al->group[g], &x);
                all = m[g].any;
                aff = aff && m[g].aff;
            }
            if (!all)
                continue;
            if (aff) {
                h->affirmed = true;
                h->nwords = 0;
                for (size_t g = 0; g < al->ngroups; g++) {
                    char q[BW_UC_QUOTE_MAX];
                    quote(&x, x.w[m[g].i].s, x.w[m[g].j - 1].e, q, sizeof q);
                    add_words(h, q);
                }
            } else if (!seen_negated) {
                seen_negated = true;
                char q[BW_UC_QUOTE_MAX];
                for (size_t g = 0; g < al->ngroups; g++)
                    if (!m[g].aff) {
                        quote_clause(&x, m[g].i, q, sizeof q);
                        add_words(h, q);
                        break;
                    }
            }
        }
        h->ruled_out = !h->affirmed && seen_negated;
        if (!h->affirmed && !h->ruled_out)
            h->nwords = 0;
    }
    text_free(&x);
    return 0;
}

char *bw_uc_affirmed_words(const struct bw_uc_catalog *c, const char *text, size_t len)
{
    struct text x;
    if (!tokenise(text ? text : "", text ? len : 0, &x))
        return NULL;
    char *out = malloc(x.n ? len * 2 + 3 : 3);
    bool *neg = calloc(x.n + 1, sizeof *neg);
    if (out && neg) {
        for (size_t j = 0; j < x.n; j++)
            for (size_t k = 0; k < c->neg.n; k++)
                if (match_at(&c->neg.v[k], &x, j)) {
                    for (size_t m = j; m < x.n && m < j + BW_UC_NEGATION_WINDOW + BW_UC_PHRASE_WORDS_MAX &&
                                       x.w[m].clause == x.w[j].clause;
                         m++)
                        neg[m] = true;
                    break;
                }
        size_t n = 0;
        out[n++] = ' ';
        for (size_t i = 0; i < x.n; i++) {
            if (neg[i])
                continue;
            size_t l = strlen(x.buf + x.w[i].at);
            memcpy(out + n, x.buf + x.w[i].at, l);
            n += l;
            out[n++] = ' ';
        }
        out[n] = '\0';
    } else {
        free(out);
        out = NULL;
    }
    free(neg);
    text_free(&x);
    return out;
}
