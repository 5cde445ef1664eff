#define PCRE2_CODE_UNIT_WIDTH 8
#include "engine/code/scanner.h"

#include "engine/code/syntax.h"
#include "engine/code/taint.h"

#include "common/embedded.h"
#include "common/keyformat.h"
#include "common/limits.h"
#include "common/sbuf.h"
#include "common/timeutil.h"
#include "common/vec.h"

#include <ctype.h>
#include <hs/hs.h>
#include <math.h>
#include <pcre2.h>
#include <limits.h>
#include <sys/mman.h>
#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const CATEGORIES[] = {"injection", "auth", "secrets", "crypto", "ssrf", "ai_llm"};
#define NCATEGORIES (sizeof CATEGORIES / sizeof CATEGORIES[0])

/* A Hyperscan expression: a rule's pattern pat, or (pat == PAT_SYNTAX) the prefilter of its
 * syntax form, for the languages in langs. */
struct pmap {
    uint32_t rule, pat;
    unsigned langs;
};
#define PAT_SYNTAX UINT32_MAX

struct bw_scanner {
    struct bw_taint_tables *taint_tables; /* sources, routes, cleaners (data/taint), for every taint spec */
    json_t **docs;
    size_t ndocs;
    json_t **rule_json; /* each rule's object in docs (borrowed) */
    struct bw_rule *rules;
    size_t nrules;
    struct pmap *pmap; /* Hyperscan id -> rule and pattern */
    size_t npmap;
    hs_database_t *db[BW_LANG_COUNT];
    hs_scratch_t *proto; /* scratch big enough for every database; cloned per thread */
    pthread_key_t tls;
    size_t max_ovec;
    char *catalog;
    size_t catalog_len;
    long budget_ms; /* BW_SCAN_TIME_BUDGET_MS unless set (bw_scanner_set_budget) */
    unsigned char digest[32]; /* of the catalog, for prebuilt databases */
    bool prebuilt;            /* databases came from the build, not compiled at start */
    const unsigned char *blob; /* prebuilt databases (static), loaded per language on first use */
    size_t seg_off[BW_LANG_COUNT], seg_len[BW_LANG_COUNT];
    atomic_bool loaded[BW_LANG_COUNT];
    bool db_owned[BW_LANG_COUNT]; /* db[l] is our aligned_alloc'ed memory, not Hyperscan's */
    atomic_uint scratch_gen; /* bumped whenever the scratch prototype grows */
    /* per grammar: every rule's query for its language as one TSQuery (one compile per grammar:
     * tree-sitter's analysis costs tens of ms per query on the large grammars), the rule of
     * each of its patterns, the @finding capture; compiled at start, or on first use when the
     * databases came prebuilt (the build compiled and checked them already) */
    struct bw_syn_query *sq[BW_GRAMMAR_COUNT];
    uint32_t *sq_rule[BW_GRAMMAR_COUNT];
    int sq_finding[BW_GRAMMAR_COUNT];
    atomic_bool sq_loaded[BW_GRAMMAR_COUNT];
    unsigned syntax_langs; /* languages any rule has a query for */
    atomic_bool *jitted;     /* per pattern id: PCRE2 JIT compiled */
    pthread_mutex_t db_mu;
    /* per language, since start (bw_scanner_stats) */
    _Atomic uint64_t st_scans[BW_LANG_COUNT], st_bytes[BW_LANG_COUNT], st_us[BW_LANG_COUNT];
};

struct tstate {
    hs_scratch_t *scratch;
    unsigned scratch_gen; /* the prototype generation it was cloned from */
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    pcre2_jit_stack *jit;
    struct bw_regions regions;
    size_t *win_end;  /* per pattern: end of the last confirmation window queued */
    struct hit {
        uint32_t id;
        size_t a, b; /* the lines to confirm in: [a, b) */
    } *hits;
    size_t nhits, hits_cap;
    size_t *lines; /* offsets of line starts */
    size_t nlines, lines_cap;
    /* (rule, line) -> index of the finding kept for it, so the cap counts distinct findings.
     * Open addressing, SEEN_SLOTS entries; an entry is live when its gen is this scan's. */
    struct seen {
        uint32_t gen, idx;
    } *seen;
    uint32_t seen_gen;
    /* per rule, the last line found excluded or suppressed in this scan (gen == seen_gen): its
     * other matches on that line are skipped without re-reading the line */
    struct rejected {
        uint32_t gen;
        size_t line;
    } *rejected;
    struct bw_syntax *syn; /* parsers and query cursor */
    struct bw_taint *taint; /* taint scratch */
    struct shit {
        uint32_t rule;
        size_t off; /* a syntax rule's prefilter hit (its end) */
    } *shits;
    size_t nshits, shits_cap;
    TSRange *ranges; /* parse windows */
    size_t ranges_cap;
    int64_t deadline_us; /* this scan's time budget (bw_mono_us) */
    uint32_t ticks;      /* matches confirmed; the clock is read every 64 */
};

static int ensure_grammar(const struct bw_scanner *csc, enum bw_grammar g);

/* At most half full, since it only holds the findings kept (BW_SCAN_MAX_FINDINGS). */
#define SEEN_BITS 11
#define SEEN_SLOTS (1u << SEEN_BITS)
_Static_assert(SEEN_SLOTS >= 2 * BW_SCAN_MAX_FINDINGS, "the findings table must stay at most half full");

/* ---- loading -------------------------------------------------------------------------------- */

static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static void *compile_pcre(const char *pat, char *err, size_t errlen)
{
    /* JIT happens on first use (ensure_jit): most patterns never fire in a given run */
    return bw_re_compile(pat, PCRE2_MULTILINE, err, errlen);
}

static int load_patterns(json_t *arr, bool required, void ***out, size_t *n, size_t *max_ovec, char *err,
                         size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (!arr && !required)
        return 0;
    if (!json_is_array(arr) || (required && json_array_size(arr) == 0)) {
        snprintf(err, errlen, "patterns must be a non-empty array of strings");
        return -1;
    }
    size_t k = json_array_size(arr);
    if (k == 0)
        return 0;
    *out = calloc(k, sizeof **out);
    if (!*out)
        return -1;
    for (size_t i = 0; i < k; i++) {
        const char *p = json_string_value(json_array_get(arr, i));
        if (!p || !*p) {
            snprintf(err, errlen, "pattern %zu is not a non-empty string", i);
            return -1;
        }
        char e[200];
        (*out)[i] = compile_pcre(p, e, sizeof e);
        if (!(*out)[i]) {
            snprintf(err, errlen, "pattern %zu: %s", i, e);
            return -1;
        }
        (*n)++;
        uint32_t cap = 0;
        pcre2_pattern_info((*out)[i], PCRE2_INFO_CAPTURECOUNT, &cap);
        if (cap + 1 > *max_ovec)
            *max_ovec = cap + 1;
    }
    return 0;
}

static bool valid_cwe(const char *s)
{
    if (!s || strncmp(s, "CWE-", 4) != 0 || !s[4])
        return false;
    for (const char *p = s + 4; *p; p++)
        if (!isdigit((unsigned char)*p))
            return false;
    return true;
}

static int check_examples(struct bw_rule *r, char *err, size_t errlen)
{
    static const char *const kinds[] = {"positive", "negative"};
    if (!json_is_object(r->examples)) {
        snprintf(err, errlen, "examples with positive and negative cases are required");
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        json_t *a = json_object_get(r->examples, kinds[k]);
        if (!json_is_array(a) || json_array_size(a) == 0) {
            snprintf(err, errlen, "at least one %s example is required", kinds[k]);
            return -1;
        }
        size_t i;
        json_t *ex;
        unsigned seen = 0;
        json_array_foreach(a, i, ex) {
            int l = bw_lang_parse(str(ex, "lang"));
            if (l < 0 || !(r->langs & (1u << l)) || !str(ex, "code")) {
                snprintf(err, errlen, "%s example %zu needs a code string and a lang among the rule's languages",
                         kinds[k], i);
                return -1;
            }
            seen |= 1u << l;
        }
        /* a query is proved per language: it must and must not match there */
        for (int l = 0; l < BW_LANG_COUNT; l++)
            if ((r->syntax_langs & (1u << l)) && !(seen & (1u << l))) {
                snprintf(err, errlen, "the %s query needs a %s example in %s", bw_lang_name((enum bw_lang)l), kinds[k],
                         bw_lang_name((enum bw_lang)l));
                return -1;
            }
    }
    return 0;
}

/* A rule's taint form: {"taint": {lang: {"sinks": [...], "sanitizers": regex}}, "guard": regex}
 * (engine/code/taint.h); its languages are confirmed on the syntax tree. */
static int load_taint(struct bw_scanner *sc, json_t *o, struct bw_rule *r, char *err, size_t errlen)
{
    json_t *tj = json_object_get(o, "taint");
    if (!tj)
        return 0;
    const char *guard = str(o, "guard");
    const char *k;
    json_t *v;
    if (!json_is_object(tj) || r->secret_group) {
        snprintf(err, errlen, "rule %s: taint must be an object by language (and not on a secret rule)", r->id);
        return -1;
    }
    json_object_foreach(tj, k, v) {
        int l = bw_lang_parse(k);
        json_t *sinks = json_object_get(v, "sinks");
        size_t n = json_array_size(sinks);
        if (l < 0 || !(r->langs & (1u << l)) || r->syntax[l] || n == 0 || n > 64) {
            snprintf(err, errlen, "rule %s: taint.%s needs 1 to 64 sinks, for one of the rule's languages without a query",
                     r->id, k);
            return -1;
        }
        const char *callees[64], *whens[64], *unlesses[64];
        int args[64];
        for (size_t i = 0; i < n; i++) {
            json_t *s = json_array_get(sinks, i);
            /* {"assign": regex}: an assignment's target (el.innerHTML = v), the value checked */
            const char *assign = json_is_string(s) ? NULL : str(s, "assign");
            callees[i] = json_is_string(s) ? json_string_value(s) : assign ? assign : str(s, "callee");
            whens[i] = json_is_string(s) ? NULL : str(s, "when");
            unlesses[i] = json_is_string(s) ? NULL : str(s, "unless");
            json_t *a = json_object_get(s, "arg");
            args[i] = assign ? BW_TAINT_ARG_ASSIGN : a ? (int)json_integer_value(a) : 0;
            bool mixed = assign && (a || str(s, "callee") || whens[i] || unlesses[i]);
            if (!callees[i] || !*callees[i] || mixed || (a && (!json_is_integer(a) || args[i] < -2 || args[i] > 16))) {
                snprintf(err, errlen,
                         "rule %s: taint.%s sink %zu: a callee regex, {callee, arg (-2..16), when, unless} or {assign}",
                         r->id, k, i);
                return -1;
            }
        }
        char e[240];
        r->taint[l] = bw_taint_spec_new(sc->taint_tables, (enum bw_lang)l, callees, args, whens, unlesses, n, str(v, "sanitizers"), guard, e,
                                        sizeof e);
        if (!r->taint[l]) {
            snprintf(err, errlen, "rule %s: taint.%s: %s", r->id, k, e);
            return -1;
        }
        r->syntax_langs |= 1u << l;
    }
    sc->syntax_langs |= r->syntax_langs;
    return 0;
}

static int load_rule(struct bw_scanner *sc, json_t *o, const char *doc_category, struct bw_rule *r, char *err,
                     size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->id = str(o, "id");
    r->title = str(o, "title");
    r->category = str(o, "category");
    r->cwe = str(o, "cwe");
    r->description = str(o, "description");
    r->remediation = str(o, "remediation");
    r->owasp_llm = str(o, "owasp_llm");
    r->severity = bw_sev_parse(str(o, "severity"));
    r->examples = json_object_get(o, "examples");
    if (!r->id || !*r->id) {
        snprintf(err, errlen, "a rule without id");
        return -1;
    }
    bool cat_ok = false;
    for (size_t i = 0; i < NCATEGORIES; i++)
        cat_ok |= r->category && strcmp(r->category, CATEGORIES[i]) == 0;
    char e[240];
    e[0] = '\0';
    if (!r->title || !*r->title || !r->description || !*r->description || !r->remediation || !*r->remediation)
        snprintf(e, sizeof e, "title, description and remediation are required");
    else if (!cat_ok || (doc_category && strcmp(doc_category, r->category) != 0))
        snprintf(e, sizeof e, "category must be one of the six and match the file's");
    else if (!r->severity)
        snprintf(e, sizeof e, "severity must be CRITICAL, HIGH, MEDIUM or LOW");
    else if (!valid_cwe(r->cwe))
        snprintf(e, sizeof e, "cwe must look like CWE-79");
    else if (r->owasp_llm && (strlen(r->owasp_llm) != 5 || strncmp(r->owasp_llm, "LLM", 3) != 0))
        snprintf(e, sizeof e, "owasp_llm must look like LLM01");
    if (e[0]) {
        snprintf(err, errlen, "rule %s: %s", r->id, e);
        return -1;
    }
    json_t *langs = json_object_get(o, "languages");
    size_t i;
    json_t *lv;
    json_array_foreach(langs, i, lv) {
        int l = bw_lang_parse(json_string_value(lv));
        if (l < 0) {
            snprintf(err, errlen, "rule %s: unknown language %s", r->id, json_string_value(lv) ? json_string_value(lv) : "?");
            return -1;
        }
        r->langs |= 1u << l;
    }
    if (!r->langs) {
        snprintf(err, errlen, "rule %s: languages must list at least one language", r->id);
        return -1;
    }
    json_t *pre = json_object_get(o, "prefilter");
    if (pre && (!json_is_string(pre) || !*json_string_value(pre))) {
        snprintf(err, errlen, "rule %s: prefilter must be a non-empty pattern", r->id);
        return -1;
    }
    const char *scope = str(o, "scope");
    if (scope && strcmp(scope, "any") != 0 && strcmp(scope, "code") != 0) {
        snprintf(err, errlen, "rule %s: scope must be code or any", r->id);
        return -1;
    }
    r->scope_any = scope && strcmp(scope, "any") == 0;
    json_t *sec = json_object_get(o, "secret");
    if (sec) {
        r->secret_group = str(sec, "group");
        r->min_entropy = json_number_value(json_object_get(sec, "min_entropy"));
        const char *ck = str(sec, "checksum");
        r->checksum_svc = ck && strcmp(ck, "svc") == 0;
        r->secret_generic = json_is_true(json_object_get(sec, "generic"));
        if (!r->secret_group || (ck && !r->checksum_svc)) {
            snprintf(err, errlen, "rule %s: secret needs a group name (and checksum, if any, \"svc\")", r->id);
            return -1;
        }
    }
    json_t *syn = json_object_get(o, "syntax");
    if (syn) {
        const char *k;
        json_t *q;
        if (!json_is_object(syn) || json_object_size(syn) == 0 || sec) {
            snprintf(err, errlen, "rule %s: syntax must be an object of queries by language (and not on a secret rule)",
                     r->id);
            return -1;
        }
        json_object_foreach(syn, k, q) {
            int l = bw_lang_parse(k);
            size_t ql = json_string_length(q);
            if (l < 0 || !(r->langs & (1u << l)) || !json_is_string(q) || ql == 0 || ql > BW_SYNTAX_MAX_QUERY_BYTES ||
                !strstr(json_string_value(q), "@finding")) {
                snprintf(err, errlen,
                         "rule %s: syntax.%s must be a query (at most %u bytes, capturing the reported node as @finding) "
                         "for one of the rule's languages",
                         r->id, k, BW_SYNTAX_MAX_QUERY_BYTES);
                return -1;
            }
            r->syntax[l] = json_string_value(q);
            r->syntax_langs |= 1u << l;
        }
        sc->syntax_langs |= r->syntax_langs;
    }
    if (load_taint(sc, o, r, err, errlen) != 0)
        return -1;
    /* patterns serve the languages without a query; a rule with a query for each needs none */
    bool need_patterns = (r->langs & ~r->syntax_langs) != 0;
    if (!need_patterns && json_object_get(o, "patterns")) {
        snprintf(err, errlen, "rule %s: patterns serve no language (every one has a syntax query)", r->id);
        return -1;
    }
    if (load_patterns(json_object_get(o, "patterns"), need_patterns, &r->pat, &r->npat, &sc->max_ovec, e, sizeof e) != 0 ||
        load_patterns(json_object_get(o, "not_patterns"), false, &r->nots, &r->nnot, &sc->max_ovec, e, sizeof e) != 0) {
        snprintf(err, errlen, "rule %s: %s", r->id, e);
        return -1;
    }
    r->code_group = str(o, "code_group");
    const char *groups[] = {r->secret_group, r->code_group};
    for (size_t k = 0; k < 2; k++)
        for (size_t p = 0; groups[k] && p < r->npat; p++)
            if (pcre2_substring_number_from_name(r->pat[p], (PCRE2_SPTR)groups[k]) < 0) {
                snprintf(err, errlen, "rule %s: pattern %zu has no group named %s", r->id, p, groups[k]);
                return -1;
            }
    if (check_examples(r, e, sizeof e) != 0) {
        snprintf(err, errlen, "rule %s: %s", r->id, e);
        return -1;
    }
    return 0;
}

/* The prefilter only has to match a superset of what the PCRE2 pattern matches, so bounded
 * repeats wider than a few items are widened to unbounded ones ({0,60} -> {0,}): the same
 * answers after confirmation, and a Hyperscan compile that is ten times cheaper
 * (BW_SCAN_RELAX_REPEAT). */
static char *relax_pattern(const char *p)
{
    size_t n = strlen(p), w = 0;
    char *o = malloc(n + 1);
    if (!o)
        return NULL;
    bool in_class = false;
    for (size_t i = 0; i < n;) {
        char c = p[i];
        if (c == '\\' && i + 1 < n) {
            o[w++] = c;
            o[w++] = p[i + 1];
            i += 2;
            continue;
        }
        if (in_class) {
            in_class = c != ']';
            o[w++] = c;
            i++;
            continue;
        }
        if (c == '[') {
            in_class = true;
            o[w++] = p[i++];
            if (i < n && p[i] == '^')
                o[w++] = p[i++];
            if (i < n && p[i] == ']') /* a leading ] is a literal */
                o[w++] = p[i++];
            continue;
        }
        if (c == '{' && i + 1 < n && isdigit((unsigned char)p[i + 1])) {
            size_t j = i + 1, a0 = j;
            while (j < n && isdigit((unsigned char)p[j]))
                j++;
            size_t a1 = j;
            if (j < n && p[j] == ',' && j + 1 < n && isdigit((unsigned char)p[j + 1])) {
                j++;
                long hi = strtol(p + j, NULL, 10);
                while (j < n && isdigit((unsigned char)p[j]))
                    j++;
                if (j < n && p[j] == '}' && hi > BW_SCAN_RELAX_REPEAT) {
                    o[w++] = '{';
                    memcpy(o + w, p + a0, a1 - a0);
                    w += a1 - a0;
                    o[w++] = ',';
                    o[w++] = '}';
                    i = j + 1;
                    continue;
                }
            }
        }
        o[w++] = c;
        i++;
    }
    o[w] = '\0';
    return o;
}

/* One compile job: the patterns of one language. Languages compile in parallel threads. */
struct compile_job {
    struct bw_scanner *sc;
    const char **texts; /* relaxed pattern text by global id */
    int lang;
    hs_database_t *db;
    char err[300];
};

static void *compile_lang(void *arg)
{
    struct compile_job *j = arg;
    struct bw_scanner *sc = j->sc;
    size_t cap = sc->npmap ? sc->npmap : 1;
    const char **exprs = calloc(cap, sizeof *exprs);
    unsigned *flags = calloc(cap, sizeof *flags), *ids = calloc(cap, sizeof *ids);
    unsigned n = 0;
    if (!exprs || !flags || !ids) {
        snprintf(j->err, sizeof j->err, "out of memory");
        goto out;
    }
    for (size_t k = 0; k < sc->npmap; k++) {
        if (!(sc->pmap[k].langs & (1u << j->lang)))
            continue;
        exprs[n] = j->texts[k];
        ids[n] = (unsigned)k;
        /* every match end is reported: each one queues only its own lines for confirmation */
        flags[n] = HS_FLAG_PREFILTER | HS_FLAG_MULTILINE;
        n++;
    }
    if (n == 0)
        goto out;
    hs_compile_error_t *ce = NULL;
    if (hs_compile_multi(exprs, flags, ids, n, HS_MODE_BLOCK, NULL, &j->db, &ce) != HS_SUCCESS) {
        if (ce && ce->expression >= 0 && (unsigned)ce->expression < n) {
            const struct pmap *pm = &sc->pmap[ids[ce->expression]];
            if (pm->pat == PAT_SYNTAX)
                snprintf(j->err, sizeof j->err, "rule %s: syntax prefilter (%s): Hyperscan: %s", sc->rules[pm->rule].id,
                         bw_lang_name((enum bw_lang)j->lang), ce->message);
            else
                snprintf(j->err, sizeof j->err, "rule %s: pattern %u: Hyperscan: %s", sc->rules[pm->rule].id, pm->pat,
                         ce->message);
        } else {
            snprintf(j->err, sizeof j->err, "Hyperscan (%s): %s", bw_lang_name((enum bw_lang)j->lang),
                     ce ? ce->message : "compile failed");
        }
        hs_free_compile_error(ce);
        j->db = NULL;
    }
out:
    free(exprs);
    free(flags);
    free(ids);
    return NULL;
}

/* Prebuilt databases: "BWHS" 1, the catalog digest, then per language (u32 lang, u64 size, bytes).
 * The digest covers the catalog text, the relaxation and the Hyperscan version, so a stale or
 * foreign blob is never used; a blob for another CPU fails to deserialise and is compiled instead. */
#define BLOB_MAGIC "BWHS\1\0\0\0"

static void catalog_digest(const char *const *docs, const size_t *lens, size_t ndocs, unsigned char out[32])
{
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, 32);
    for (size_t d = 0; d < ndocs; d++)
        crypto_generichash_update(&st, (const unsigned char *)docs[d], lens[d]);
    char extra[96];
    int n = snprintf(extra, sizeof extra, "relax=%d hs=%s syntax=1", BW_SCAN_RELAX_REPEAT, hs_version());
    crypto_generichash_update(&st, (const unsigned char *)extra, (unsigned long long)n);
    crypto_generichash_final(&st, out, 32);
}

/* Deserialises one language's database and grows the scratch prototype for it (under db_mu).
 * Databases load on first use, so `bulwark scan` of a Python tree never pays for the other eight. */
static int load_lang_locked(struct bw_scanner *sc, int l)
{
    if (atomic_load(&sc->loaded[l]))
        return 0;
    hs_database_t *db = NULL;
    if (sc->seg_len[l]) {
        /* into memory of our own on huge pages when the kernel offers them: a few MB per
         * language would otherwise cost thousands of page faults at load */
        const char *bytes = (const char *)sc->blob + sc->seg_off[l];
        size_t need = 0;
        if (hs_serialized_database_size(bytes, sc->seg_len[l], &need) != HS_SUCCESS)
            return -1;
        size_t huge = 2u << 20, rounded = (need + huge - 1) / huge * huge;
        void *mem = aligned_alloc(huge, rounded);
        if (!mem)
            return -1;
        (void)madvise(mem, rounded, MADV_HUGEPAGE);
        if (hs_deserialize_database_at(bytes, sc->seg_len[l], (hs_database_t *)mem) != HS_SUCCESS) {
            free(mem);
            return -1;
        }
        db = (hs_database_t *)mem;
        /* a database built for another CPU deserialises but cannot scan: this finds out */
        if (hs_alloc_scratch(db, &sc->proto) != HS_SUCCESS) {
            free(mem);
            return -1;
        }
        sc->db_owned[l] = true;
        atomic_fetch_add(&sc->scratch_gen, 1);
    }
    sc->db[l] = db;
    atomic_store(&sc->loaded[l], true);
    return 0;
}

static int ensure_lang(const struct bw_scanner *csc, int l)
{
    struct bw_scanner *sc = (struct bw_scanner *)csc; /* lazily filled cache, guarded by db_mu */
    if (atomic_load(&sc->loaded[l]))
        return 0;
    pthread_mutex_lock(&sc->db_mu);
    int rc = load_lang_locked(sc, l);
    pthread_mutex_unlock(&sc->db_mu);
    return rc;
}

int bw_scanner_load_all(struct bw_scanner *sc)
{
    for (int l = 0; l < BW_LANG_COUNT; l++)
        if (ensure_lang(sc, l) != 0)
            return -1;
    for (int g = 0; g < BW_GRAMMAR_COUNT; g++)
        if (ensure_grammar(sc, (enum bw_grammar)g) != 0)
            return -1;
    return 0;
}

/* Checks the blob's header and layout; loads the first database as a probe that it suits this
 * CPU; the others load on first use. */
static bool load_blob(struct bw_scanner *sc, const unsigned char *blob, size_t len)
{
    if (!blob || len < 8 + 32 || memcmp(blob, BLOB_MAGIC, 8) != 0 || memcmp(blob + 8, sc->digest, 32) != 0)
        return false;
    size_t off = 40;
    bool seen[BW_LANG_COUNT] = {0};
    while (off + 12 <= len) {
        uint32_t lang;
        uint64_t size;
        memcpy(&lang, blob + off, 4);
        memcpy(&size, blob + off + 4, 8);
        off += 12;
        if (lang >= BW_LANG_COUNT || size > len - off || seen[lang])
            return false;
        seen[lang] = true;
        sc->seg_off[lang] = off;
        sc->seg_len[lang] = (size_t)size;
        off += (size_t)size;
    }
    if (off != len)
        return false;
    sc->blob = blob;
    for (int l = 0; l < BW_LANG_COUNT; l++)
        if (sc->seg_len[l])
            return load_lang_locked(sc, l) == 0;
    return true;
}

int bw_scanner_serialize(const struct bw_scanner *sc, unsigned char **out, size_t *len)
{
    struct bw_sb b = {0};
    bw_sb_putn(&b, BLOB_MAGIC, 8);
    bw_sb_putn(&b, (const char *)sc->digest, 32);
    for (uint32_t l = 0; l < BW_LANG_COUNT; l++) {
        if (!sc->db[l])
            continue;
        char *bytes = NULL;
        size_t size = 0;
        if (hs_serialize_database(sc->db[l], &bytes, &size) != HS_SUCCESS) {
            free(b.p);
            return -1;
        }
        uint64_t sz = size;
        bw_sb_putn(&b, (const char *)&l, 4);
        bw_sb_putn(&b, (const char *)&sz, 8);
        bw_sb_putn(&b, bytes, size);
        free(bytes);
    }
    if (b.oom) {
        free(b.p);
        return -1;
    }
    *out = (unsigned char *)b.p;
    *len = b.len;
    return 0;
}

/* Compiles grammar g's query: the queries of every rule for g's language, one after the other,
 * as one TSQuery whose patterns are mapped back to their rules. 0, or -1 with a message naming
 * the rule whose query does not compile. Called at start or under db_mu. */
static int build_query(struct bw_scanner *sc, enum bw_grammar g, char *err, size_t errlen)
{
    enum bw_lang l = bw_grammar_lang(g);
    struct bw_sb b = {0};
    size_t *seg = calloc(sc->nrules ? sc->nrules : 1, sizeof *seg); /* where each rule's query starts */
    int rc = -1;
    if (!seg)
        goto out;
    for (size_t i = 0; i < sc->nrules; i++) {
        seg[i] = b.len;
        if (sc->rules[i].syntax[l]) {
            bw_sb_puts(&b, sc->rules[i].syntax[l]);
            bw_sb_putc(&b, '\n');
        }
    }
    if (b.oom)
        goto out;
    rc = 0;
    if (b.len == 0)
        goto out;
    char e[240];
    uint32_t off;
    struct bw_syn_query *q = bw_syn_query_new(g, b.p, b.len, e, sizeof e, &off);
    /* the rule a byte of the text belongs to: the last whose query starts at or before it */
    size_t ri = 0;
    for (size_t i = 0; q == NULL && i < sc->nrules; i++)
        if (sc->rules[i].syntax[l] && seg[i] <= off)
            ri = i;
    if (!q) {
        snprintf(err, errlen, "rule %s: syntax.%s: %s%s", sc->rules[ri].id, bw_lang_name(l), e,
                 g == BW_GRAMMAR_TSX || g == BW_GRAMMAR_PHP ? " (also compiled for this grammar)" : "");
        rc = -1;
        goto out;
    }
    uint32_t np = bw_syn_query_pattern_count(q);
    sc->sq_rule[g] = calloc(np ? np : 1, sizeof *sc->sq_rule[g]);
    if (!sc->sq_rule[g]) {
        bw_syn_query_free(q);
        rc = -1;
        goto out;
    }
    for (uint32_t p = 0, r = 0; p < np; p++) { /* patterns come in text order */
        uint32_t at = bw_syn_query_pattern_start(q, p);
        while (r + 1 < sc->nrules && (seg[r + 1] <= at || !sc->rules[r].syntax[l]))
            r++;
        sc->sq_rule[g][p] = r;
    }
    sc->sq[g] = q;
    sc->sq_finding[g] = bw_syn_query_capture_id(q, "finding");
out:
    free(b.p);
    free(seg);
    return rc;
}

static int ensure_grammar(const struct bw_scanner *csc, enum bw_grammar g)
{
    struct bw_scanner *sc = (struct bw_scanner *)csc; /* lazily filled cache, guarded by db_mu */
    if (atomic_load(&sc->sq_loaded[g]))
        return 0;
    pthread_mutex_lock(&sc->db_mu);
    int rc = 0;
    if (!atomic_load(&sc->sq_loaded[g])) {
        char err[300];
        rc = build_query(sc, g, err, sizeof err);
        if (rc == 0)
            atomic_store(&sc->sq_loaded[g], true);
    }
    pthread_mutex_unlock(&sc->db_mu);
    return rc;
}

/* The Hyperscan text of a syntax rule's prefilter in language l: its own prefilter, or the
 * alternation of what each of its query's patterns needs (bw_syn_query_prefilter). NULL with a
 * message when a pattern gives nothing to derive from. */
static char *syntax_prefilter(const struct bw_scanner *sc, uint32_t ri, enum bw_lang l, const char *own, char *err,
                              size_t errlen)
{
    if (own)
        return strdup(own);
    if (sc->rules[ri].taint[l]) { /* the sinks' callees: a file without one has no taint finding */
        json_t *sinks = json_object_get(json_object_get(json_object_get(sc->rule_json[ri], "taint"), bw_lang_name(l)), "sinks");
        struct bw_sb b = {0};
        size_t i;
        json_t *s;
        json_array_foreach(sinks, i, s) {
            const char *c = json_is_string(s) ? json_string_value(s) : str(s, "assign") ? str(s, "assign") : str(s, "callee");
            bw_sb_puts(&b, i ? "|(?:" : "(?:");
            bw_sb_puts(&b, c);
            bw_sb_putc(&b, ')');
        }
        if (b.oom) {
            free(b.p);
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        return bw_sb_take(&b);
    }
    enum bw_grammar gs[2];
    bw_grammars_of(l, gs);
    const struct bw_syn_query *q = sc->sq[gs[0]];
    struct bw_sb b = {0};
    for (uint32_t p = 0; q && p < bw_syn_query_pattern_count(q); p++) {
        if (sc->sq_rule[gs[0]][p] != ri)
            continue;
        char *one = bw_syn_query_prefilter(q, p);
        if (!one) {
            snprintf(err, errlen,
                     "rule %s: syntax.%s: pattern at byte %u has no #eq?, #any-of? or #match? to derive a prefilter "
                     "from; give the rule a prefilter",
                     sc->rules[ri].id, bw_lang_name(l), bw_syn_query_pattern_start(q, p));
            free(b.p);
            return NULL;
        }
        if (b.len)
            bw_sb_putc(&b, '|');
        bw_sb_puts(&b, one);
        free(one);
    }
    if (b.oom || !b.len) {
        snprintf(err, errlen, "rule %s: syntax.%s: no prefilter", sc->rules[ri].id, bw_lang_name(l));
        free(b.p);
        return NULL;
    }
    return bw_sb_take(&b);
}

static int build_databases(struct bw_scanner *sc, const unsigned char *blob, size_t blob_len, char *err,
                           size_t errlen)
{
    /* global ids in catalog order, so every language database reports the same id for a
     * pattern: a rule's patterns (for its languages without a query), then its syntax
     * prefilter (one for the languages with a query when it has its own prefilter, else one
     * per language, derived from that language's query) */
    size_t total = 0;
    for (size_t i = 0; i < sc->nrules; i++)
        total += sc->rules[i].npat + (size_t)__builtin_popcount(sc->rules[i].syntax_langs);
    size_t cap = total ? total : 1;
    sc->pmap = calloc(cap, sizeof *sc->pmap);
    const char **texts = calloc(cap, sizeof *texts); /* by global id */
    int rc = -1;
    if (!sc->pmap || !texts)
        goto out;
    size_t g = 0;
    for (size_t ri = 0; ri < sc->nrules; ri++) {
        const struct bw_rule *r = &sc->rules[ri];
        for (size_t pi = 0; pi < r->npat; pi++)
            sc->pmap[g++] = (struct pmap){(uint32_t)ri, (uint32_t)pi, r->langs & ~r->syntax_langs};
        if (r->syntax_langs && json_object_get(sc->rule_json[ri], "prefilter")) {
            sc->pmap[g++] = (struct pmap){(uint32_t)ri, PAT_SYNTAX, r->syntax_langs};
            continue;
        }
        for (int l = 0; l < BW_LANG_COUNT; l++)
            if (r->syntax_langs & (1u << l))
                sc->pmap[g++] = (struct pmap){(uint32_t)ri, PAT_SYNTAX, 1u << l};
    }
    sc->npmap = g;
    sc->jitted = calloc(cap, sizeof *sc->jitted);
    if (!sc->jitted)
        goto out;
    if (load_blob(sc, blob, blob_len)) {
        sc->prebuilt = true; /* the build compiled the queries too: they compile on first use */
        rc = 0;
        goto out;
    }
    /* compiled here, so every query is checked at start (and by tools/hsgen at build time) */
    for (int gr = 0; gr < BW_GRAMMAR_COUNT; gr++) {
        if (build_query(sc, (enum bw_grammar)gr, err, errlen) != 0)
            goto out;
        atomic_store(&sc->sq_loaded[gr], true);
    }
    for (size_t k = 0; k < sc->npmap; k++) {
        const struct pmap *pm = &sc->pmap[k];
        json_t *ro = sc->rule_json[pm->rule];
        const char *pre = json_string_value(json_object_get(ro, "prefilter"));
        if (pm->pat == PAT_SYNTAX) {
            char *t = syntax_prefilter(sc, pm->rule, (enum bw_lang)__builtin_ctz(pm->langs), pre, err, errlen);
            texts[k] = t ? relax_pattern(t) : NULL;
            free(t);
        } else {
            /* a rule's own prefilter (a rarer literal set) replaces its patterns in Hyperscan */
            texts[k] = relax_pattern(pre ? pre : json_string_value(json_array_get(json_object_get(ro, "patterns"), pm->pat)));
        }
        if (!texts[k])
            goto out;
    }
    struct compile_job jobs[BW_LANG_COUNT];
    pthread_t th[BW_LANG_COUNT];
    bool started[BW_LANG_COUNT] = {0};
    for (int l = 0; l < BW_LANG_COUNT; l++) {
        jobs[l] = (struct compile_job){.sc = sc, .texts = texts, .lang = l};
        started[l] = pthread_create(&th[l], NULL, compile_lang, &jobs[l]) == 0;
        if (!started[l])
            compile_lang(&jobs[l]);
    }
    rc = 0;
    for (int l = 0; l < BW_LANG_COUNT; l++) {
        if (started[l])
            pthread_join(th[l], NULL);
        sc->db[l] = jobs[l].db;
        if (jobs[l].err[0] && rc == 0) {
            snprintf(err, errlen, "%s", jobs[l].err);
            rc = -1;
        }
        if (rc == 0 && sc->db[l] && hs_alloc_scratch(sc->db[l], &sc->proto) != HS_SUCCESS) {
            snprintf(err, errlen, "Hyperscan: cannot allocate scratch");
            rc = -1;
        }
        atomic_store(&sc->loaded[l], true);
    }
out:
    for (size_t k = 0; texts && k < total; k++)
        free((char *)texts[k]);
    free(texts);
    return rc;
}

static void tstate_free(void *p)
{
    struct tstate *t = p;
    if (!t)
        return;
    hs_free_scratch(t->scratch);
    pcre2_match_data_free(t->md);
    pcre2_match_context_free(t->mctx);
    pcre2_jit_stack_free(t->jit);
    bw_regions_free(&t->regions);
    free(t->win_end);
    free(t->hits);
    free(t->lines);
    free(t->seen);
    free(t->rejected);
    bw_syntax_free(t->syn);
    bw_taint_free(t->taint);
    free(t->shits);
    free(t->ranges);
    free(t);
}

static int build_catalog(struct bw_scanner *sc)
{
    json_t *cats = json_array();
    for (size_t i = 0; i < NCATEGORIES; i++)
        json_array_append_new(cats, json_string(CATEGORIES[i]));
    json_t *items = json_array();
    for (size_t i = 0; i < sc->nrules; i++) {
        const struct bw_rule *r = &sc->rules[i];
        json_t *langs = json_array();
        for (int l = 0; l < BW_LANG_COUNT; l++)
            if (r->langs & (1u << l))
                json_array_append_new(langs, json_string(bw_lang_name((enum bw_lang)l)));
        json_t *it = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:s,s:s}", "rule_id", r->id, "title", r->title, "category",
                               r->category, "severity", bw_sev_name(r->severity), "cwe", r->cwe, "languages", langs,
                               "description", r->description, "remediation", r->remediation);
        if (!it)
            goto fail;
        if (r->owasp_llm)
            json_object_set_new(it, "owasp_llm", json_string(r->owasp_llm));
        json_array_append_new(items, it);
    }
    json_t *doc = json_pack("{s:i,s:o,s:o}", "total_rules", (json_int_t)sc->nrules, "categories", cats, "patterns",
                            items);
    sc->catalog = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(doc);
    if (!sc->catalog)
        return -1;
    sc->catalog_len = strlen(sc->catalog);
    return 0;
fail:
    json_decref(cats);
    json_decref(items);
    return -1;
}

struct bw_scanner *bw_scanner_new(const char *const *docs, const size_t *lens, size_t ndocs, char *err, size_t errlen)
{
    return bw_scanner_new_prebuilt(docs, lens, ndocs, NULL, 0, err, errlen);
}

struct bw_scanner *bw_scanner_new_prebuilt(const char *const *docs, const size_t *lens, size_t ndocs,
                                           const void *blob, size_t blob_len, char *err, size_t errlen)
{
    struct bw_scanner *sc = calloc(1, sizeof *sc);
    if (sc)
        sc->budget_ms = BW_SCAN_TIME_BUDGET_MS;
    if (!sc)
        return NULL;
    sc->max_ovec = 1;
    pthread_mutex_init(&sc->db_mu, NULL);
    sc->docs = calloc(ndocs ? ndocs : 1, sizeof *sc->docs);
    if (!sc->docs || pthread_key_create(&sc->tls, tstate_free) != 0) {
        free(sc->docs);
        free(sc);
        return NULL;
    }
    /* the taint tables first: every rule's taint form is made with them (a bad entry fails the
     * build in tools/hsgen, or the start, naming its file and line) */
    if (!(sc->taint_tables = bw_taint_tables_embedded(err, errlen)))
        goto fail;
    size_t total = 0;
    for (size_t d = 0; d < ndocs; d++) {
        json_error_t je;
        sc->docs[d] = json_loadb(docs[d], lens[d], JSON_REJECT_DUPLICATES, &je);
        sc->ndocs = d + 1;
        json_t *rules = json_object_get(sc->docs[d], "rules");
        if (!sc->docs[d] || !json_is_array(rules)) {
            snprintf(err, errlen, "catalog document %zu: %s", d, sc->docs[d] ? "no rules array" : je.text);
            goto fail;
        }
        total += json_array_size(rules);
    }
    sc->rules = calloc(total ? total : 1, sizeof *sc->rules);
    sc->rule_json = calloc(total ? total : 1, sizeof *sc->rule_json);
    if (!sc->rules || !sc->rule_json)
        goto fail;
    for (size_t d = 0; d < ndocs; d++) {
        const char *cat = str(sc->docs[d], "category");
        size_t i;
        json_t *ro;
        json_array_foreach(json_object_get(sc->docs[d], "rules"), i, ro) {
            sc->rule_json[sc->nrules] = ro;
            if (load_rule(sc, ro, cat, &sc->rules[sc->nrules], err, errlen) != 0) {
                sc->nrules++;
                goto fail;
            }
            for (size_t j = 0; j < sc->nrules; j++)
                if (strcmp(sc->rules[j].id, sc->rules[sc->nrules].id) == 0) {
                    snprintf(err, errlen, "rule id %s is used twice", sc->rules[j].id);
                    sc->nrules++;
                    goto fail;
                }
            sc->nrules++;
        }
    }
    catalog_digest(docs, lens, ndocs, sc->digest);
    if (build_databases(sc, blob, blob_len, err, errlen) != 0 || build_catalog(sc) != 0)
        goto fail;
    return sc;
fail:
    bw_scanner_free(sc);
    return NULL;
}

struct bw_scanner *bw_scanner_new_embedded(char *err, size_t errlen)
{
    const char *docs[32];
    size_t lens[32], n = 0;
    for (size_t i = 0; i < bw_embedded_count && n < 32; i++) {
        const char *name = bw_embedded_files[i].name;
        size_t nl = strlen(name);
        if (strncmp(name, "data/rules/", 11) == 0 && nl > 5 && strcmp(name + nl - 5, ".json") == 0) {
            docs[n] = (const char *)bw_embedded_files[i].data;
            lens[n++] = bw_embedded_files[i].len;
        }
    }
    if (n == 0) {
        snprintf(err, errlen, "no rule catalog embedded (data/rules/*.json)");
        return NULL;
    }
    size_t blob_len = 0;
    const void *blob = bw_prebuilt_blob(&blob_len);
    return bw_scanner_new_prebuilt(docs, lens, n, blob, blob_len, err, errlen);
}

bool bw_scanner_is_prebuilt(const struct bw_scanner *sc) { return sc->prebuilt; }

void bw_scanner_free(struct bw_scanner *sc)
{
    if (!sc)
        return;
    for (size_t i = 0; i < sc->nrules; i++) {
        struct bw_rule *r = &sc->rules[i];
        for (size_t p = 0; p < r->npat; p++)
            pcre2_code_free(r->pat[p]);
        for (size_t p = 0; p < r->nnot; p++)
            pcre2_code_free(r->nots[p]);
        free(r->pat);
        free(r->nots);
        for (int l = 0; l < BW_LANG_COUNT; l++)
            bw_taint_spec_free(r->taint[l]);
    }
    free(sc->rules);
    free(sc->rule_json);
    bw_taint_tables_free(sc->taint_tables); /* after the specs that borrow it */
    for (int gr = 0; gr < BW_GRAMMAR_COUNT; gr++) {
        bw_syn_query_free(sc->sq[gr]);
        free(sc->sq_rule[gr]);
    }
    for (int l = 0; l < BW_LANG_COUNT; l++)
        if (sc->db_owned[l])
            free(sc->db[l]); /* deserialised into our own memory */
        else
            hs_free_database(sc->db[l]);
    hs_free_scratch(sc->proto);
    /* the calling thread's state; other threads' states are freed when they exit */
    tstate_free(pthread_getspecific(sc->tls));
    pthread_setspecific(sc->tls, NULL);
    pthread_key_delete(sc->tls);
    for (size_t d = 0; d < sc->ndocs; d++)
        json_decref(sc->docs[d]);
    free(sc->docs);
    free(sc->pmap);
    free(sc->jitted);
    free(sc->catalog);
    pthread_mutex_destroy(&sc->db_mu);
    free(sc);
}

size_t bw_scanner_rule_count(const struct bw_scanner *sc) { return sc->nrules; }

const struct bw_rule *bw_scanner_rule(const struct bw_scanner *sc, size_t i)
{
    return i < sc->nrules ? &sc->rules[i] : NULL;
}

const char *bw_scanner_catalog_json(const struct bw_scanner *sc, size_t *len)
{
    *len = sc->catalog_len;
    return sc->catalog;
}

/* ---- scanning ------------------------------------------------------------------------------ */

static struct tstate *tstate_get(const struct bw_scanner *sc)
{
    struct tstate *t = pthread_getspecific(sc->tls);
    if (t)
        return t;
    t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->win_end = calloc(sc->npmap ? sc->npmap : 1, sizeof *t->win_end);
    t->md = pcre2_match_data_create((uint32_t)sc->max_ovec, NULL);
    t->mctx = pcre2_match_context_create(NULL);
    t->jit = pcre2_jit_stack_create(BW_SCAN_JIT_STACK_START, BW_SCAN_JIT_STACK_MAX, NULL);
    t->seen = calloc(SEEN_SLOTS, sizeof *t->seen);
    t->rejected = calloc(sc->nrules ? sc->nrules : 1, sizeof *t->rejected);
    if (!t->win_end || !t->md || !t->mctx || !t->jit || !t->seen || !t->rejected) {
        tstate_free(t);
        return NULL;
    }
    pcre2_jit_stack_assign(t->mctx, NULL, t->jit);
    pcre2_set_match_limit(t->mctx, BW_SCAN_MATCH_LIMIT);
    pcre2_set_depth_limit(t->mctx, BW_SCAN_DEPTH_LIMIT);
    if (pthread_setspecific(sc->tls, t) != 0) {
        tstate_free(t);
        return NULL;
    }
    return t;
}

struct hs_ctx {
    const struct bw_scanner *sc;
    struct tstate *t;
    const char *s;
    size_t len;
    unsigned lang_bit;
};

/* Each prefilter match queues the lines around its end for PCRE2, so confirmation costs the size
 * of those lines, not of the whole input, however many patterns fire. */
static int on_hs_match(unsigned int id, unsigned long long from, unsigned long long to, unsigned int flags, void *ctx)
{
    (void)from, (void)flags;
    struct hs_ctx *c = ctx;
    struct tstate *t = c->t;
    const struct pmap *pm = &c->sc->pmap[id];
    if (to <= t->win_end[id] || !(pm->langs & c->lang_bit))
        return 0;
    if (pm->pat == PAT_SYNTAX) { /* the tree confirms it, after the scan (syntax_confirm) */
        const char *nl = memchr(c->s + to - (to > 0), '\n', c->len - (size_t)(to - (to > 0)));
        if (!BW_VEC_RESERVE(t->shits, t->shits_cap, t->nshits + 1, BW_VEC_UNBOUNDED))
            return 1;
        t->shits[t->nshits++] = (struct shit){pm->rule, (size_t)to};
        t->win_end[id] = (nl ? (size_t)(nl - c->s) : c->len) + 1; /* one hit per line is enough */
        return 0;
    }
    size_t last = to ? (size_t)to - 1 : 0;
    const char *nl = last < c->len ? memchr(c->s + last, '\n', c->len - last) : NULL;
    size_t b = nl ? (size_t)(nl - c->s) : c->len;
    size_t a = last;
    for (int k = 0; k <= BW_SCAN_WINDOW_LINES_BEFORE && a > 0; k++) {
        const char *p = memrchr(c->s, '\n', a);
        a = p ? (size_t)(p - c->s) : 0;
        if (k == BW_SCAN_WINDOW_LINES_BEFORE && p)
            a++; /* start of that line */
    }
    if (!BW_VEC_RESERVE(t->hits, t->hits_cap, t->nhits + 1, BW_VEC_UNBOUNDED))
        return 1; /* stops the scan: reported as an error */
    t->hits[t->nhits++] = (struct hit){id, a, b};
    t->win_end[id] = b + 1;
    return 0;
}

static int index_lines(struct tstate *t, const char *s, size_t len)
{
    t->nlines = 0;
    size_t off = 0;
    for (;;) {
        if (!BW_VEC_RESERVE(t->lines, t->lines_cap, t->nlines + 1, BW_VEC_UNBOUNDED))
            return -1;
        t->lines[t->nlines++] = off;
        const char *p = off < len ? memchr(s + off, '\n', len - off) : NULL;
        if (!p)
            break;
        off = (size_t)(p - s) + 1;
    }
    return 0;
}

/* 0-based line index of offset off */
static size_t line_of(const struct tstate *t, size_t off)
{
    size_t lo = 0, hi = t->nlines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static size_t line_stop(const struct tstate *t, size_t li, size_t len)
{
    return li + 1 < t->nlines ? t->lines[li + 1] - 1 : len;
}

static double entropy(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned counts[256] = {0};
    for (size_t i = 0; i < n; i++)
        counts[(unsigned char)s[i]]++;
    double h = 0;
    for (int c = 0; c < 256; c++)
        if (counts[c]) {
            double p = (double)counts[c] / (double)n;
            h -= p * log2(p);
        }
    return h;
}

static bool ci_contains(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (strncasecmp(s + i, needle, k) == 0)
            return true;
    return false;
}

/* Values that are obviously not real secrets: documentation placeholders and templating. */
static bool placeholder(const char *s, size_t n)
{
    static const char *const words[] = {"your", "example", "xxxx", "changeme", "change_me", "placeholder", "dummy",
                                        "sample", "redacted", "insert", "replace", "fake", "<", ">", "${", "{{",
                                        "****", "...", "todo", "here"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (ci_contains(s, n, words[i]))
            return true;
    size_t same = 1, seq = 1;
    for (size_t i = 1; i < n; i++) {
        same += s[i] == s[0];
        seq += s[i] == s[i - 1] + 1;
    }
    return n > 0 && (same == n || seq * 2 > n);
}

bool bw_secret_plausible(const char *v, size_t n, double min_entropy)
{
    return n > 0 && !placeholder(v, n) && !(min_entropy > 0 && entropy(v, n) < min_entropy);
}

static bool secret_ok(const struct bw_rule *r, void *code, const char *s, PCRE2_SIZE *ov)
{
    int g = pcre2_substring_number_from_name(code, (PCRE2_SPTR)r->secret_group);
    if (g < 0 || ov[2 * g] == PCRE2_UNSET)
        return false;
    const char *v = s + ov[2 * g];
    size_t n = ov[2 * g + 1] - ov[2 * g];
    if (!bw_secret_plausible(v, n, r->min_entropy))
        return false;
    if (r->checksum_svc && !bw_apikey_wellformed_n(v, n))
        return false;
    return true;
}

static bool id_in_list(const char *list, size_t n, const char *id)
{
    size_t k = strlen(id), i = 0;
    while (i < n) {
        while (i < n && (list[i] == ',' || list[i] == ' '))
            i++;
        size_t j = i;
        while (j < n && (isalnum((unsigned char)list[j]) || list[j] == '-' || list[j] == '_' || list[j] == '.'))
            j++;
        if (j == i)
            return false;
        if (j - i == k && strncasecmp(list + i, id, k) == 0)
            return true;
        i = j;
    }
    return false;
}

/* A `bulwark-ignore` or `bulwark-ignore:ID[,ID]` marker in [a, b) covering rule id. */
static bool marker_covers(const char *s, size_t a, size_t b, const char *id)
{
    static const char M[] = "bulwark-ignore";
    const size_t mlen = sizeof M - 1;
    while (a < b) {
        const char *p = memmem(s + a, b - a, M, mlen);
        if (!p)
            return false;
        size_t at = (size_t)(p - s) + mlen;
        if (at >= b || s[at] != ':')
            return true;
        size_t e = at + 1;
        while (e < b && s[e] != '\n' && s[e] != '*' && s[e] != '#' && !(s[e] == '-' && e + 1 < b && s[e + 1] == '-'))
            e++;
        if (id_in_list(s + at + 1, e - at - 1, id))
            return true;
        a = at;
    }
    return false;
}

static bool suppressed(const struct tstate *t, const char *s, size_t len, size_t li, const char *id)
{
    if (marker_covers(s, t->lines[li], line_stop(t, li, len), id))
        return true;
    if (li == 0)
        return false;
    /* the line before, when it is only a comment: a block comment that code follows on its
     * line (a bulwark-ignore block comment, then a call) silences that line alone */
    size_t a = t->lines[li - 1], b = line_stop(t, li - 1, len);
    while (a < b && (s[a] == ' ' || s[a] == '\t'))
        a++;
    bool line_comment = (b - a >= 2 && ((s[a] == '/' && s[a + 1] == '/') || (s[a] == '-' && s[a + 1] == '-'))) ||
                        (b > a && s[a] == '#');
    bool alone = line_comment;
    if (!line_comment && b - a >= 2 && s[a] == '/' && s[a + 1] == '*') {
        const char *end = memmem(s + a + 2, b - a - 2, "*/", 2);
        size_t after = end ? (size_t)(end - s) + 2 : b; /* unclosed: the comment goes on */
        while (after < b && (s[after] == ' ' || s[after] == '\t' || s[after] == '\r'))
            after++;
        alone = after >= b;
    }
    return alone && marker_covers(s, a, b, id);
}

static uint32_t column_of(const char *s, size_t line_start, size_t off)
{
    uint32_t col = 1;
    for (size_t i = line_start; i < off; i++)
        col += ((unsigned char)s[i] & 0xC0) != 0x80; /* count code points, not bytes */
    return col;
}

static bool cont(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* The line's text, leading blanks trimmed, at most ~200 bytes cut on a UTF-8 boundary; a
 * secret's bytes after the first four are masked (whole characters, one '*' per byte) so the
 * response never repeats it. */

static void make_snippet(char *out, size_t cap, const char *s, size_t a, size_t b, size_t sec_a, size_t sec_b)
{
    while (a < b && (s[a] == ' ' || s[a] == '\t'))
        a++;
    while (b > a && (s[b - 1] == '\r' || s[b - 1] == ' ' || s[b - 1] == '\t'))
        b--;
    size_t n = b - a;
    if (n > cap - 4) {
        n = cap - 4;
        while (n > 0 && cont(s[a + n]))
            n--;
    }
    /* the mask covers whole characters: a character cut by it would leave bytes that are not UTF-8 */
    size_t mask_a = sec_a + 4, mask_b = sec_b;
    if (mask_a < mask_b) {
        while (mask_a > a && cont(s[mask_a]))
            mask_a--;
        while (mask_b < b && cont(s[mask_b]))
            mask_b++;
    }
    for (size_t i = 0; i < n; i++) {
        size_t o = a + i;
        char c = s[o];
        if (o >= mask_a && o < mask_b)
            c = '*';
        else if ((unsigned char)c < 0x20 && c != '\t')
            c = ' ';
        out[i] = c;
    }
    size_t k = n;
    if (n < b - a) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k] = '\0';
}

/* The slot of (r, line) in the table of findings kept: the slot of its finding when this scan
 * has one (slot->gen == t->seen_gen), else the free slot where it would go. */
static struct seen *seen_slot(const struct tstate *t, const struct bw_findings *f, const struct bw_rule *r,
                              uint32_t line)
{
    uint64_t k = ((uint64_t)(uintptr_t)r ^ (uint64_t)line * 0x9E3779B97F4A7C15u) * 0xBF58476D1CE4E5B9u;
    for (uint32_t i = (uint32_t)(k >> (64 - SEEN_BITS));; i = (i + 1) & (SEEN_SLOTS - 1)) {
        struct seen *e = &t->seen[i];
        if (e->gen != t->seen_gen || (f->v[e->idx].rule == r && f->v[e->idx].line == line))
            return e;
    }
}

/* Adds a finding for a (rule, line) that has none yet, in the free slot seen_slot gave. Past
 * BW_SCAN_MAX_FINDINGS distinct findings it is not kept, only counted in f->worst and
 * f->truncated. 0, or -1 when out of memory. */
static int push_finding(struct tstate *t, struct seen *slot, struct bw_findings *f, const struct bw_finding *x)
{
    if (x->severity > f->worst)
        f->worst = x->severity;
    if (f->n >= BW_SCAN_MAX_FINDINGS) {
        f->truncated = true;
        return 0;
    }
    if (!BW_VEC_RESERVE(f->v, f->cap, f->n + 1, BW_SCAN_MAX_FINDINGS))
        return -1;
    *slot = (struct seen){t->seen_gen, (uint32_t)f->n};
    f->v[f->n++] = *x;
    return 0;
}

static int cmp_finding(const void *a, const void *b)
{
    const struct bw_finding *x = a, *y = b;
    if (x->severity != y->severity)
        return y->severity - x->severity;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->column != y->column)
        return x->column < y->column ? -1 : 1;
    return strcmp(x->rule->id, y->rule->id);
}

bool bw_context_is_test(const char *ctx)
{
    if (!ctx)
        return false;
    static const char *const words[] = {"test", "tests", "testing", "example", "examples", "fixture", "fixtures"};
    const char *p = ctx;
    while (*p) {
        while (*p && !isalpha((unsigned char)*p))
            p++;
        const char *w = p;
        while (isalpha((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - w);
        for (size_t i = 0; n && i < sizeof words / sizeof words[0]; i++)
            if (strlen(words[i]) == n && strncasecmp(w, words[i], n) == 0)
                return true;
    }
    return false;
}

/* JIT-compiles a pattern the first time it has to confirm a match; matching waits for it, so no
 * thread matches a pattern while another compiles it. JIT is only an optimisation: if it fails
 * (no JIT on this CPU), the interpreter gives the same answers. */
static void ensure_jit(const struct bw_scanner *csc, uint32_t id, pcre2_code *code)
{
    struct bw_scanner *sc = (struct bw_scanner *)csc;
    if (atomic_load_explicit(&sc->jitted[id], memory_order_acquire))
        return;
    pthread_mutex_lock(&sc->db_mu);
    if (!atomic_load_explicit(&sc->jitted[id], memory_order_relaxed)) {
        (void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
        atomic_store_explicit(&sc->jitted[id], true, memory_order_release);
    }
    pthread_mutex_unlock(&sc->db_mu);
}

/* Whether line li needs no more work for rule r (index ri) at or after byte at: the line was
 * excluded or suppressed, or its finding (the leftmost so far) starts at or before at. */
static bool line_decided(const struct tstate *t, const struct bw_findings *out, const struct bw_rule *r, size_t ri,
                         size_t li, size_t at)
{
    const struct rejected *rj = &t->rejected[ri];
    if (rj->gen == t->seen_gen && rj->line == li)
        return true;
    const struct seen *sl = seen_slot(t, out, r, (uint32_t)li + 1);
    return sl->gen == t->seen_gen && out->v[sl->idx].offset <= at;
}

/* A rule's severity for this scan: secrets drop a level in test or example code. */
static int rule_severity(const struct bw_rule *r, bool test_ctx)
{
    return test_ctx && strcmp(r->category, "secrets") == 0 && r->severity > BW_SEV_LOW ? r->severity - 1 : r->severity;
}

/* Records rule ri's match [ms, me) (a secret in it at [sec_a, sec_b), sec_a (size_t)-1 when
 * none) as the rule's finding on the match's line. The line index must be ready. 0 when it is
 * recorded, 1 when the line needs no more work for this rule (it has a finding at or left of ms,
 * or is excluded or suppressed), -1 when out of memory. */
static int add_finding(const struct bw_scanner *sc, struct tstate *t, const char *s, size_t len, uint32_t ri, int sev,
                       size_t ms, size_t me, size_t sec_a, size_t sec_b, struct bw_findings *out)
{
    const struct bw_rule *r = &sc->rules[ri];
    size_t li = line_of(t, ms);
    size_t la = t->lines[li], lb = line_stop(t, li, len);
    /* One finding per rule and line, the leftmost match (several patterns of a rule, or
     * overlapping windows, find the same line again). A line with a finding is neither
     * excluded nor suppressed: both depend on the line only. Everything that reads the whole
     * line (exclusions, suppression, the column) runs at most once per rule and line, or a
     * long line with many matches would cost matches x line length. */
    if (line_decided(t, out, r, ri, li, ms))
        return 1;
    struct seen *slot = seen_slot(t, out, r, (uint32_t)li + 1);
    struct bw_finding *prev = slot->gen == t->seen_gen ? &out->v[slot->idx] : NULL; /* right of ms */
    bool excluded = false;
    for (size_t k = 0; k < r->nnot && !prev && !excluded; k++) {
        /* a separate match data: the ovector of the finding is still needed */
        pcre2_match_data *md2 = pcre2_match_data_create_from_pattern(r->nots[k], NULL);
        if (!md2)
            return -1;
        excluded = pcre2_match(r->nots[k], (PCRE2_SPTR)(s + la), lb - la, 0, 0, md2, t->mctx) >= 0;
        pcre2_match_data_free(md2);
    }
    if (excluded || (!prev && suppressed(t, s, len, li, r->id))) {
        t->rejected[ri] = (struct rejected){t->seen_gen, li};
        return 1;
    }
    struct bw_finding f = {.rule = r, .severity = sev, .line = (uint32_t)li + 1, .column = column_of(s, la, ms),
                           .offset = ms, .owasp_llm = r->owasp_llm};
    f.end_line = (uint32_t)line_of(t, me > ms ? me - 1 : ms) + 1;
    if (sec_a != (size_t)-1)
        f.secret_start = sec_a, f.secret_end = sec_b;
    make_snippet(f.snippet, sizeof f.snippet, s, la, lb, sec_a, sec_b);
    if (prev)
        *prev = f;
    else if (push_finding(t, slot, out, &f) != 0)
        return -1;
    return 0;
}

static bool key_char(char c) { return c == '_' || c == '-' || isalnum((unsigned char)c); }

/* Whether the word at off lies in a string literal that is a name only ('password',
 * "user_pwd"): a dictionary key or a form field, code in all but syntax; "/etc/passwd" is not. */
static bool key_string(const char *s, size_t len, size_t off)
{
    size_t a = off, b = off;
    while (a > 0 && key_char(s[a - 1]))
        a--;
    while (b < len && key_char(s[b]))
        b++;
    return a > 0 && b < len && strchr("'\"`", s[a - 1]) && s[b] == s[a - 1];
}

static int confirm(const struct bw_scanner *sc, struct tstate *t, enum bw_lang l, const char *s, size_t len,
                   bool test_ctx, const struct hit *h, bool *lines_ready, bool *regions_ready, struct bw_findings *out)
{
    const struct pmap *pm = &sc->pmap[h->id];
    const struct bw_rule *r = &sc->rules[pm->rule];
    int sev = rule_severity(r, test_ctx);
    if (out->truncated && sev <= out->worst)
        return 0; /* past the cap only a more severe finding changes the result (the grade) */
    pcre2_code *code = r->pat[pm->pat];
    ensure_jit(sc, h->id, code);
    PCRE2_SIZE off = h->a;
    /* matches start in the window; look-aheads may see a little past it */
    size_t subject = len - h->b > BW_SCAN_LOOKAHEAD ? h->b + BW_SCAN_LOOKAHEAD : len;
    while (off <= h->b) {
        if ((++t->ticks & 63) == 0 && bw_mono_us() > t->deadline_us) {
            out->truncated = out->time_limited = true;
            return 0;
        }
        if (*lines_ready) {
            /* the rest of a decided line is not searched again: windows of one long line would
             * each pay for a look-ahead or [^\n]* running to the line's end */
            size_t li = line_of(t, off);
            if (line_decided(t, out, r, pm->rule, li, off)) {
                off = line_stop(t, li, len) + 1;
                continue;
            }
        }
        /* A window can be a whole long line; a pattern with [^\n]* (or such a look-ahead) then costs
         * the rest of the subject at every start position it tries. Each call may start a match
         * only in the next BW_SCAN_CONFIRM_SPAN bytes and sees BW_SCAN_LOOKAHEAD past them, so the cost is
         * linear in the window; a match starting later is found by the next call. */
        size_t last = h->b - off > BW_SCAN_CONFIRM_SPAN ? off + BW_SCAN_CONFIRM_SPAN : h->b;
        size_t sub = subject - last > BW_SCAN_LOOKAHEAD ? last + BW_SCAN_LOOKAHEAD : subject;
        int rc = pcre2_match(code, (PCRE2_SPTR)s, sub, off, 0, t->md, t->mctx);
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(t->md);
        if ((rc == PCRE2_ERROR_NOMATCH || (rc >= 0 && ov[0] > last)) && last < h->b) {
            off = last + 1;
            continue;
        }
        if (rc < 0)
            break; /* no match, or a match limit: a pathological input is not a finding */
        size_t ms = ov[0], me = ov[1];
        if (ms > h->b)
            break;
        off = me > ms ? me : ms + 1;
        if (!r->scope_any) {
            if (!*regions_ready) {
                if (bw_lex_regions(l, s, len, &t->regions) != 0)
                    return -1;
                *regions_ready = true;
            }
            if (bw_region_at(&t->regions, ms))
                continue;
        }
        if (r->code_group) { /* e.g. the password word: "/etc/passwd" in a string is no password */
            int g = pcre2_substring_number_from_name(code, (PCRE2_SPTR)r->code_group);
            if (g >= 0 && ov[2 * g] != PCRE2_UNSET) {
                if (!*regions_ready) {
                    if (bw_lex_regions(l, s, len, &t->regions) != 0)
                        return -1;
                    *regions_ready = true;
                }
                if (bw_region_at(&t->regions, ov[2 * g]) && !key_string(s, len, ov[2 * g]))
                    continue;
            }
        }
        size_t sec_a = (size_t)-1, sec_b = 0;
        if (r->secret_group) {
            if (!secret_ok(r, code, s, ov))
                continue;
            int g = pcre2_substring_number_from_name(code, (PCRE2_SPTR)r->secret_group);
            sec_a = ov[2 * g];
            sec_b = ov[2 * g + 1];
        }
        if (!*lines_ready) {
            if (index_lines(t, s, len) != 0)
                return -1;
            *lines_ready = true;
        }
        int ar = add_finding(sc, t, s, len, pm->rule, sev, ms, me, sec_a, sec_b, out);
        if (ar < 0)
            return -1;
        if (ar > 0) {
            size_t lb = line_stop(t, line_of(t, ms), len);
            off = off > lb + 1 ? off : lb + 1;
            continue;
        }
        if (out->truncated && sev <= out->worst)
            break;
    }
    return 0;
}

/* ---- syntax rules ---------------------------------------------------------------------------- */

static int cmp_shit(const void *a, const void *b)
{
    const struct shit *x = a, *y = b;
    if (x->rule != y->rule)
        return x->rule < y->rule ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int cmp_range(const void *a, const void *b)
{
    const TSRange *x = a, *y = b;
    return x->start_byte < y->start_byte ? -1 : x->start_byte > y->start_byte;
}

/* A line that starts in column 0 with something other than a closing bracket: in a fragment,
 * the head of a function or class more often than not, so a window starting there parses. */
static bool head_line(const char *s, size_t len, size_t a) { return a < len && !strchr(" \t\r\n})]", s[a]); }

/* The windows to parse around the syntax hits (in t->ranges, merged, with their points), or 0
 * when the whole text is parsed: a small file, or windows covering half of it or more. */
static size_t syntax_windows(struct tstate *t, const char *s, size_t len)
{
    if (len <= BW_SYNTAX_WHOLE_FILE_BYTES)
        return 0;
    if (!BW_VEC_RESERVE(t->ranges, t->ranges_cap, t->nshits, BW_VEC_UNBOUNDED))
        return 0; /* the whole text, then: slower, not wrong */
    size_t n = 0;
    for (size_t i = 0; i < t->nshits; i++) {
        size_t li = line_of(t, t->shits[i].off ? t->shits[i].off - 1 : 0);
        size_t lim = li > BW_SYNTAX_WINDOW_LINES_BEFORE ? li - BW_SYNTAX_WINDOW_LINES_BEFORE : 0, a = li;
        while (a > lim && !head_line(s, len, t->lines[a]))
            a--;
        size_t b = li + BW_SYNTAX_WINDOW_LINES_AFTER < t->nlines ? li + BW_SYNTAX_WINDOW_LINES_AFTER : t->nlines - 1;
        TSRange r = {{(uint32_t)a, 0}, {(uint32_t)b + 1, 0}, (uint32_t)t->lines[a], 0};
        if (b + 1 < t->nlines)
            r.end_byte = (uint32_t)t->lines[b + 1];
        else
            r.end_point = (TSPoint){(uint32_t)b, (uint32_t)(len - t->lines[b])}, r.end_byte = (uint32_t)len;
        t->ranges[n++] = r;
    }
    qsort(t->ranges, n, sizeof *t->ranges, cmp_range);
    size_t m = 0, bytes = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && t->ranges[i].start_byte <= t->ranges[m - 1].end_byte) {
            if (t->ranges[i].end_byte > t->ranges[m - 1].end_byte) {
                t->ranges[m - 1].end_byte = t->ranges[i].end_byte;
                t->ranges[m - 1].end_point = t->ranges[i].end_point;
            }
            continue;
        }
        t->ranges[m++] = t->ranges[i];
    }
    for (size_t i = 0; i < m; i++)
        bytes += t->ranges[i].end_byte - t->ranges[i].start_byte;
    return bytes * 2 >= len || m > BW_SYNTAX_MAX_RANGES ? 0 : m;
}

struct syn_ctx {
    const struct bw_scanner *sc;
    struct tstate *t;
    const char *s;
    size_t len;
    enum bw_grammar g;
    uint32_t rule;
    int sev;
    struct bw_findings *out;
};

/* A match of the grammar's query: a finding when its pattern is the rule's (the query holds
 * every rule's patterns), located at its @finding node. */
static int on_syntax_match(void *ctx, const struct bw_syn_match *m)
{
    struct syn_ctx *c = ctx;
    if (c->sc->sq_rule[c->g][m->pattern] != c->rule)
        return 0;
    if ((++c->t->ticks & 63) == 0 && bw_mono_us() > c->t->deadline_us) {
        c->out->truncated = c->out->time_limited = true;
        return 1;
    }
    if (c->out->truncated && c->sev <= c->out->worst)
        return 1;
    TSNode n;
    if (!bw_syn_match_capture(m, c->sc->sq_finding[c->g], &n)) {
        if (!m->ncaptures)
            return 0;
        n = m->captures[0].node; /* a pattern of the query without @finding: its first capture */
    }
    size_t ms = ts_node_start_byte(n), me = ts_node_end_byte(n);
    if (ms >= c->len)
        return 0;
    return add_finding(c->sc, c->t, c->s, c->len, c->rule, c->sev, ms, me, (size_t)-1, 0, c->out) < 0 ? -1 : 0;
}

/* A tainted sink: a finding at the sink call, with its trace; a flow from a parameter of a
 * function with no route context is of unknown origin: MEDIUM at most. A model's reply is as
 * untrusted as a request (the finding keeps the rule's severity and carries LLM05). */
static int on_taint(void *ctx, const struct bw_taint_flow *flow)
{
    struct syn_ctx *c = ctx;
    if ((++c->t->ticks & 63) == 0 && bw_mono_us() > c->t->deadline_us) {
        c->out->truncated = c->out->time_limited = true;
        return 1;
    }
    const struct bw_taint_step *sink = &flow->steps[flow->nsteps - 1];
    int sev = flow->origin == BW_TAINT_PARAM && c->sev > BW_SEV_MEDIUM ? BW_SEV_MEDIUM : c->sev;
    if (c->out->truncated && sev <= c->out->worst)
        return 1;
    if (sink->start >= c->len)
        return 0;
    int rc = add_finding(c->sc, c->t, c->s, c->len, c->rule, sev, sink->start, sink->end, (size_t)-1, 0, c->out);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    struct seen *slot = seen_slot(c->t, c->out, &c->sc->rules[c->rule], (uint32_t)line_of(c->t, sink->start) + 1);
    if (slot->gen != c->t->seen_gen)
        return 0; /* past the cap: counted, not kept */
    struct bw_finding *f = &c->out->v[slot->idx];
    if (flow->origin == BW_TAINT_MODEL)
        f->owasp_llm = "LLM05"; /* a model's reply reached the sink: improper output handling */
    f->ntrace = 0;
    for (uint32_t i = 0; i < flow->nsteps && i < BW_TAINT_MAX_STEPS; i++) {
        const struct bw_taint_step *st = &flow->steps[i];
        size_t a = st->start < c->len ? st->start : c->len - 1, b = st->end > st->start ? st->end - 1 : a;
        size_t li = line_of(c->t, a);
        f->trace[f->ntrace++] = (struct bw_trace_step){(uint32_t)li + 1, column_of(c->s, c->t->lines[li], a),
                                                       (uint32_t)line_of(c->t, b < c->len ? b : a) + 1, st->kind};
    }
    return 0;
}

/* The syntax rules whose prefilter fired (t->shits): the text is parsed once, whole or in
 * windows around the hits, and each rule's query runs on the nodes around its own hits. A
 * parse past the time budget marks the scan time_limited, past the size bound truncated. */
static int syntax_confirm(const struct bw_scanner *sc, struct tstate *t, enum bw_lang l, const char *s, size_t len,
                          bool test_ctx, bool *lines_ready, struct bw_findings *out)
{
    enum bw_grammar g = bw_grammar_pick(l, s, len);
    if (ensure_grammar(sc, g) != 0)
        return -1;
    if (!t->syn && !(t->syn = bw_syntax_new()))
        return -1;
    if (!t->taint && !(t->taint = bw_taint_new()))
        return -1;
    if (!*lines_ready) {
        if (index_lines(t, s, len) != 0)
            return -1;
        *lines_ready = true;
    }
    /* taint rules' hits count only where a source or a route is: most files with an open()
     * or a .get() read no request, and parsing is the cost */
    bool gate_done = false, gate = true;
    size_t w = 0;
    for (size_t i = 0; i < t->nshits; i++) {
        if (sc->rules[t->shits[i].rule].taint[l]) {
            if (!gate_done)
                gate = bw_taint_gate(t->taint, sc->taint_tables, l, s, len), gate_done = true;
            if (!gate)
                continue;
        }
        t->shits[w++] = t->shits[i];
    }
    t->nshits = w;
    if (!w)
        return 0;
    qsort(t->shits, t->nshits, sizeof *t->shits, cmp_shit);
    size_t nr = syntax_windows(t, s, len);
    int64_t left = t->deadline_us - bw_mono_us();
    if (left <= 0) {
        out->truncated = out->time_limited = true;
        return 0;
    }
    struct bw_syn_tree tree;
    int rc = bw_syntax_parse(t->syn, g, s, len, nr ? t->ranges : NULL, (uint32_t)nr, (uint64_t)left, &tree);
    if (rc != BW_PARSE_OK) {
        if (rc < 0)
            return -1;
        out->truncated = true;
        out->time_limited = bw_mono_us() >= t->deadline_us;
        return 0;
    }
    out->parsed = true;
    struct syn_ctx c = {sc, t, s, len, g, 0, 0, out};
    for (size_t i = 0; i < t->nshits && rc == 0;) {
        c.rule = t->shits[i].rule;
        c.sev = rule_severity(&sc->rules[c.rule], test_ctx);
        /* this rule's hits, merged into runs of lines: from a few lines before a hit to its end */
        while (i < t->nshits && t->shits[i].rule == c.rule && rc == 0) {
            size_t li = line_of(t, t->shits[i].off ? t->shits[i].off - 1 : 0);
            size_t from = t->lines[li > BW_SYNTAX_QUERY_LINES_BEFORE ? li - BW_SYNTAX_QUERY_LINES_BEFORE : 0];
            size_t to = line_stop(t, li, len) + 1;
            for (i++; i < t->nshits && t->shits[i].rule == c.rule; i++) {
                size_t lj = line_of(t, t->shits[i].off ? t->shits[i].off - 1 : 0);
                size_t fj = t->lines[lj > BW_SYNTAX_QUERY_LINES_BEFORE ? lj - BW_SYNTAX_QUERY_LINES_BEFORE : 0];
                if (fj > to)
                    break;
                to = line_stop(t, lj, len) + 1;
            }
            const struct bw_taint_spec *ts = sc->rules[c.rule].taint[l];
            if (ts)
                rc = bw_taint_run(t->taint, ts, &tree, (uint32_t)from, (uint32_t)(to < len ? to : len), on_taint, &c);
            else if (sc->sq[g])
                rc = bw_syn_query_run(t->syn, sc->sq[g], &tree, (uint32_t)from, (uint32_t)(to < len ? to : len),
                                      on_syntax_match, &c);
        }
    }
    bw_syn_tree_free(&tree);
    return rc < 0 ? -1 : 0;
}

/* One finding per secret: a secret on a line that several secrets rules match (an AWS secret
 * key is also a password-named literal) is one finding, the specific rule's rather than the
 * generic one's (it names the service), then the most severe, then the catalog's first; it
 * carries the most severe of their severities. Findings are few (BW_SCAN_MAX_FINDINGS). */
static bool secret_beats(const struct bw_finding *y, const struct bw_finding *x)
{
    if (y->rule->secret_generic != x->rule->secret_generic)
        return !y->rule->secret_generic;
    return y->severity > x->severity || (y->severity == x->severity && y->rule < x->rule);
}

static void one_per_secret(struct bw_findings *out)
{
    /* decided on the findings as found, then compacted */
    unsigned char drop[BW_SCAN_MAX_FINDINGS] = {0}, sev[BW_SCAN_MAX_FINDINGS];
    size_t n = out->n < BW_SCAN_MAX_FINDINGS ? out->n : BW_SCAN_MAX_FINDINGS;
    for (size_t i = 0; i < n; i++) {
        const struct bw_finding *x = &out->v[i];
        sev[i] = (unsigned char)x->severity;
        for (size_t j = 0; x->secret_end && j < n && !drop[i]; j++) {
            const struct bw_finding *y = &out->v[j];
            if (j == i || !y->secret_end || y->line != x->line || y->secret_start >= x->secret_end ||
                x->secret_start >= y->secret_end)
                continue;
            if (secret_beats(y, x))
                drop[i] = 1;
            else if (y->severity > sev[i])
                sev[i] = (unsigned char)y->severity;
        }
    }
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (!drop[i]) {
            out->v[w] = out->v[i];
            out->v[w++].severity = sev[i];
        }
    out->n = w;
}

static int scan(const struct bw_scanner *sc, enum bw_lang l, const char *s, size_t len, bool test_ctx,
                struct bw_findings *out)
{
    memset(out, 0, sizeof *out);
    if ((unsigned)l >= BW_LANG_COUNT)
        return -1;
    if (len == 0)
        return 0;
    if (ensure_lang(sc, l) != 0)
        return -1;
    if (!sc->db[l] || len == 0)
        return 0;
    struct tstate *t = tstate_get(sc);
    if (!t)
        return -1;
    unsigned gen = atomic_load(&sc->scratch_gen);
    if (!t->scratch || t->scratch_gen != gen) { /* a database loaded since: the scratch must grow */
        struct bw_scanner *m = (struct bw_scanner *)sc;
        pthread_mutex_lock(&m->db_mu);
        hs_free_scratch(t->scratch);
        t->scratch = NULL;
        int rc = sc->proto ? hs_clone_scratch(sc->proto, &t->scratch) : HS_INVALID;
        t->scratch_gen = atomic_load(&sc->scratch_gen);
        pthread_mutex_unlock(&m->db_mu);
        if (rc != HS_SUCCESS)
            return -1;
    }
    memset(t->win_end, 0, sc->npmap * sizeof *t->win_end);
    t->nhits = t->nshits = 0;
    if (++t->seen_gen == 0) { /* wrapped: entries of 2^32 scans ago would look live */
        memset(t->seen, 0, SEEN_SLOTS * sizeof *t->seen);
        memset(t->rejected, 0, (sc->nrules ? sc->nrules : 1) * sizeof *t->rejected);
        t->seen_gen = 1;
    }
    struct hs_ctx c = {sc, t, s, len, 1u << l};
    if (len > UINT_MAX || hs_scan(sc->db[l], s, (unsigned)len, 0, t->scratch, on_hs_match, &c) != HS_SUCCESS)
        return -1;
    bool lines_ready = false, regions_ready = false;
    t->deadline_us = bw_mono_us() + (int64_t)sc->budget_ms * 1000;
    for (size_t i = 0; i < t->nhits && !out->time_limited; i++) {
        if (confirm(sc, t, l, s, len, test_ctx, &t->hits[i], &lines_ready, &regions_ready, out) != 0) {
            bw_findings_free(out);
            return -1;
        }
    }
    if (t->nshits && !out->time_limited && syntax_confirm(sc, t, l, s, len, test_ctx, &lines_ready, out) != 0) {
        bw_findings_free(out);
        return -1;
    }
    one_per_secret(out);
    if (out->n > 1)
        qsort(out->v, out->n, sizeof *out->v, cmp_finding);
    return 0;
}

void bw_scanner_set_budget(struct bw_scanner *sc, long ms) { sc->budget_ms = ms; }

int bw_scan(const struct bw_scanner *sc, enum bw_lang l, const char *s, size_t len, bool test_ctx,
            struct bw_findings *out)
{
    int64_t t0 = bw_mono_us();
    int rc = scan(sc, l, s, len, test_ctx, out);
    if ((unsigned)l < BW_LANG_COUNT) {
        struct bw_scanner *m = (struct bw_scanner *)sc; /* the counters are the only mutable part */
        atomic_fetch_add_explicit(&m->st_scans[l], 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&m->st_bytes[l], len, memory_order_relaxed);
        atomic_fetch_add_explicit(&m->st_us[l], (uint64_t)(bw_mono_us() - t0), memory_order_relaxed);
    }
    return rc;
}

void bw_scanner_stats(const struct bw_scanner *sc, enum bw_lang l, struct bw_scan_stats *out)
{
    memset(out, 0, sizeof *out);
    if ((unsigned)l >= BW_LANG_COUNT)
        return;
    out->scans = atomic_load_explicit(&sc->st_scans[l], memory_order_relaxed);
    out->bytes = atomic_load_explicit(&sc->st_bytes[l], memory_order_relaxed);
    out->us = atomic_load_explicit(&sc->st_us[l], memory_order_relaxed);
}

const char *bw_trace_kind_name(uint8_t kind)
{
    return kind == BW_STEP_SOURCE ? "source" : kind == BW_STEP_SINK ? "sink" : "step";
}

json_t *bw_finding_trace_json(const struct bw_finding *x)
{
    if (!x->ntrace)
        return NULL;
    json_t *a = json_array();
    for (uint8_t i = 0; a && i < x->ntrace; i++) {
        const struct bw_trace_step *st = &x->trace[i];
        if (json_array_append_new(a, json_pack("{s:s,s:i,s:i,s:i}", "kind", bw_trace_kind_name(st->kind), "line",
                                               (json_int_t)st->line, "column", (json_int_t)st->column, "end_line",
                                               (json_int_t)st->end_line)) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

void bw_findings_free(struct bw_findings *f)
{
    free(f->v);
    memset(f, 0, sizeof *f);
}

/* Past the cap the findings kept already score 100: the rest cannot change the score. */
_Static_assert(BW_SCAN_MAX_FINDINGS * 2 >= 100, "the findings kept must reach the top score");

int bw_scan_score(const struct bw_findings *f)
{
    static const int w[] = {0, 2, 8, 20, 40};
    int s = 0;
    for (size_t i = 0; i < f->n && s < 100; i++)
        s += w[f->v[i].severity];
    return s > 100 ? 100 : s;
}

char bw_scan_grade(const struct bw_findings *f)
{
    int worst = f->worst >= 0 && f->worst <= BW_SEV_CRITICAL ? f->worst : 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].severity > worst)
            worst = f->v[i].severity;
    static const char g[] = {'A', 'B', 'C', 'D', 'F'};
    return g[worst];
}
