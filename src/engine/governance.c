#include "engine/governance.h"

#include "common/sbuf.h"
#include "engine/risk.h"
#include "engine/usecase.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool has_word(const char *norm, const char *phrase)
{
    char buf[128];
    size_t n = 0;
    buf[n++] = ' ';
    for (const char *p = phrase; *p && n < sizeof buf - 2; p++)
        buf[n++] = isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : ' ';
    buf[n++] = ' ';
    buf[n] = '\0';
    return strstr(norm, buf) != NULL;
}

/* Words that say nothing about a control's subject. */
static bool stopword(const char *w, size_t n)
{
    static const char *const s[] = {"and", "the", "for", "with", "from", "that", "into", "are", "its", "their",
                                    "ai", "system", "systems", "of", "to", "in", "on", "or", "a", "an", "is",
                                    "be", "by", "as", "all", "other", "when", "where", "within", "about"};
    if (n < 3)
        return true;
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        if (strlen(s[i]) == n && strncasecmp(s[i], w, n) == 0)
            return true;
    return false;
}

static bool control_met(const char *ctx_norm, const char *title)
{
    int words = 0, found = 0;
    const char *p = title;
    while (*p) {
        while (*p && !isalnum((unsigned char)*p))
            p++;
        const char *w = p;
        while (isalnum((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - w);
        if (n == 0 || stopword(w, n) || n >= 60)
            continue;
        char word[64];
        memcpy(word, w, n);
        word[n] = '\0';
        words++;
        found += has_word(ctx_norm, word);
    }
    return words > 0 && found * 2 >= words && found >= 1;
}

/* ---- use-case classification ------------------------------------------------------------------ */

enum tier { TIER_MINIMAL, TIER_LIMITED, TIER_HIGH, TIER_UNACCEPTABLE };
static const char *const TIER_NAME[] = {"minimal", "limited", "high", "unacceptable"};

static enum tier kind_tier(enum bw_uc_kind k)
{
    return k == BW_UC_PRACTICE ? TIER_UNACCEPTABLE : k == BW_UC_HIGH_RISK ? TIER_HIGH
                                                   : k == BW_UC_TRANSPARENCY ? TIER_LIMITED
                                                                             : TIER_MINIMAL;
}

/* What the use cases (and, for traits, org_context) say, per category of the catalog. */
struct cls {
    const struct bw_uc_catalog *uc;
    size_t n;
    struct bw_uc_hit *hit; /* affirmed: by a use case, or for a trait by org_context */
    int *src;              /* the use case that affirmed it, -1 for org_context */
    struct bw_uc_hit *org; /* what org_context says (ruled_out closes a gap) */
    bool tier_seen[4];
    enum tier tier;
};

static void cls_free(struct cls *k)
{
    free(k->hit);
    free(k->src);
    free(k->org);
}

static int classify(const struct bw_uc_catalog *uc, const json_t *use_cases, const char *org, struct cls *k)
{
    *k = (struct cls){.uc = uc, .n = bw_uc_count(uc)};
    k->hit = calloc(k->n, sizeof *k->hit);
    k->org = calloc(k->n, sizeof *k->org);
    k->src = calloc(k->n, sizeof *k->src);
    struct bw_uc_hit *tmp = calloc(k->n, sizeof *tmp);
    int rc = k->hit && k->org && k->src && tmp ? 0 : -1;
    size_t i;
    json_t *u;
    json_array_foreach(use_cases, i, u) {
        if (rc || bw_uc_classify(uc, json_string_value(u), json_string_length(u), tmp) != 0) {
            rc = -1;
            break;
        }
        for (size_t c = 0; c < k->n; c++)
            if (tmp[c].affirmed && !k->hit[c].affirmed) {
                k->hit[c] = tmp[c];
                k->src[c] = (int)i;
            }
    }
    if (!rc && org && bw_uc_classify(uc, org, strlen(org), k->org) != 0)
        rc = -1;
    for (size_t c = 0; !rc && c < k->n; c++) {
        const struct bw_uc_category *cat = bw_uc_at(uc, c);
        if (org && cat->kind == BW_UC_TRAIT && !k->hit[c].affirmed && k->org[c].affirmed) {
            k->hit[c] = k->org[c];
            k->src[c] = -1;
        }
        if (k->hit[c].affirmed && cat->kind != BW_UC_TRAIT && cat->kind != BW_UC_GPAI) {
            enum tier t = kind_tier(cat->kind);
            k->tier_seen[t] = true;
            if (t > k->tier)
                k->tier = t;
        }
    }
    free(tmp);
    if (rc)
        cls_free(k);
    return rc;
}

/* "ai_use_cases[2]" or "org_context". */
static void source_name(int src, char *buf, size_t cap)
{
    if (src < 0)
        snprintf(buf, cap, "org_context");
    else
        snprintf(buf, cap, "ai_use_cases[%d]", src);
}

/* The first affirmed category of a tier, or -1. */
static int first_of_tier(const struct cls *k, enum tier t)
{
    for (size_t c = 0; c < k->n; c++) {
        const struct bw_uc_category *cat = bw_uc_at(k->uc, c);
        if (k->hit[c].affirmed && cat->kind != BW_UC_TRAIT && cat->kind != BW_UC_GPAI && kind_tier(cat->kind) == t)
            return (int)c;
    }
    return -1;
}

/* Appends "<ref> (<title>): "words" in ai_use_cases[0]" for category c (a trait: its title only).
 * The words are whole quotes of the text (bounded by BW_UC_WORDS_MAX and BW_UC_QUOTE_MAX), so the
 * result stays valid UTF-8. */
static void category_basis(const struct cls *k, size_t c, struct bw_sb *b)
{
    const struct bw_uc_category *cat = bw_uc_at(k->uc, c);
    char src[32];
    source_name(k->src[c], src, sizeof src);
    if (cat->kind == BW_UC_TRAIT)
        bw_sb_printf(b, "%s: ", cat->title);
    else
        bw_sb_printf(b, "%s (%s): ", cat->ref, cat->title);
    for (size_t i = 0; i < k->hit[c].nwords; i++)
        bw_sb_printf(b, "%s\"%s\"", i ? ", " : "", k->hit[c].words[i]);
    bw_sb_printf(b, " in %s", src);
}

static void risk_basis(const struct cls *k, struct bw_sb *b)
{
    int c = first_of_tier(k, k->tier);
    if (c < 0) {
        bw_sb_puts(b, "no use case describes an EU AI Act Art. 5 practice, an Annex III or Annex I high-risk use or "
                      "an Art. 50 transparency case");
        return;
    }
    bw_sb_printf(b, "%s: ", TIER_NAME[k->tier]);
    category_basis(k, (size_t)c, b);
}

const char *bw_governance_risk_class(const struct bw_uc_catalog *uc, const char *text)
{
    json_t *one = json_pack("[s]", text ? text : "");
    struct cls k;
    const char *out = "minimal";
    if (one && classify(uc, one, NULL, &k) == 0) {
        out = TIER_NAME[k.tier];
        cls_free(&k);
    }
    json_decref(one);
    return out;
}

/* One part of a condition ("always", "risk:high", "category:<id>", "trait:<id>", "not:category:<id>",
 * n bytes of cond): whether it holds, with its basis appended to b. *c_out gets the category or trait that
 * decided it, *spec how specific it is (2 a category or trait, 1 a risk tier, 0 always). */
static bool part_holds(const char *cond, size_t n, const struct cls *k, struct bw_sb *b, int *c_out, int *spec)
{
    char buf[96];
    if (n >= sizeof buf)
        return false;
    memcpy(buf, cond, n);
    buf[n] = '\0';
    if (strcmp(buf, "always") == 0) {
        bw_sb_puts(b, "applies to every AI system and organisation in scope");
        return true;
    }
    if (strncmp(buf, "risk:", 5) == 0) {
        for (int t = TIER_LIMITED; t <= TIER_UNACCEPTABLE; t++)
            if (strcmp(buf + 5, TIER_NAME[t]) == 0 && k->tier_seen[t]) {
                bw_sb_printf(b, "%s-risk use: ", TIER_NAME[t]);
                category_basis(k, (size_t)first_of_tier(k, (enum tier)t), b);
                *spec = *spec > 1 ? *spec : 1;
                return true;
            }
        return false;
    }
    if (strncmp(buf, "not:", 4) == 0) { /* an exclusion the text makes: holds unless the use cases name it */
        const char *id = strchr(buf + 4, ':');
        int c = id ? bw_uc_find(k->uc, id + 1) : -1;
        return c >= 0 && !k->hit[c].affirmed; /* the basis is what holds, not what is absent */
    }
    const char *id = strchr(buf, ':');
    int c = id ? bw_uc_find(k->uc, id + 1) : -1;
    if (c < 0 || !k->hit[c].affirmed)
        return false;
    category_basis(k, (size_t)c, b);
    if (*c_out < 0)
        *c_out = c;
    *spec = 2;
    return true;
}

/* Whether a control's applies_when holds: one of its conditions, each a "+"-joined list of parts
 * that must all hold. b gets why (the first condition that holds, its parts joined by "; "); c_out
 * the first category or trait that decided it (-1: always or a risk tier); *spec how specific that
 * condition is, for ranking gaps (the use case named it: 2; its risk tier: 1; always: 0). A
 * control without applies_when applies always. */
static bool applies(const json_t *ctl, const struct cls *k, struct bw_sb *b, int *c_out, int *spec)
{
    const json_t *aw = json_object_get(ctl, "applies_when");
    *c_out = -1;
    *spec = 0;
    if (!json_is_array(aw) || json_array_size(aw) == 0) {
        bw_sb_puts(b, "applies to every AI system and organisation in scope");
        return true;
    }
    size_t i;
    json_t *x;
    json_array_foreach(aw, i, x) {
        const char *cond = json_string_value(x);
        bool all = cond != NULL;
        *c_out = -1;
        *spec = 0;
        bw_sb_reset(b);
        for (const char *p = cond; all && p;) {
            const char *plus = strchr(p, '+');
            size_t n = plus ? (size_t)(plus - p) : strlen(p);
            if (p != cond && strncmp(p, "not:", 4) != 0)
                bw_sb_puts(b, "; ");
            all = part_holds(p, n, k, b, c_out, spec);
            p = plus ? plus + 1 : NULL;
        }
        if (all)
            return true;
    }
    bw_sb_reset(b);
    return false;
}

/* The classification object: {risk, basis, categories, traits, ruled_out}. */
static json_t *classification_json(const struct cls *k)
{
    struct bw_sb basis = {0};
    risk_basis(k, &basis);
    json_t *cats = json_array(), *traits = json_array(), *ruled = json_array();
    static const char *const KIND[] = {"practice", "high_risk_area", "transparency", "gpai", "trait"};
    for (size_t c = 0; cats && traits && ruled && c < k->n; c++) {
        const struct bw_uc_category *cat = bw_uc_at(k->uc, c);
        /* what the use cases (or org_context, for traits) affirm, then what org_context rules out */
        for (int pass = 0; pass < 2; pass++) {
            const struct bw_uc_hit *h = pass == 0 ? (k->hit[c].affirmed ? &k->hit[c] : NULL)
                                                  : (k->org[c].ruled_out ? &k->org[c] : NULL);
            if (!h)
                continue;
            json_t *words = json_array();
            for (size_t w = 0; words && w < h->nwords; w++)
                json_array_append_new(words, json_string(h->words[w]));
            char src[32];
            source_name(pass == 0 ? k->src[c] : -1, src, sizeof src);
            json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:s}", "id", cat->id, "kind", KIND[cat->kind], "title",
                                  cat->title, "ref", cat->ref, "words", words ? words : json_array(), "source", src);
            json_array_append_new(pass == 1 ? ruled : cat->kind == BW_UC_TRAIT ? traits : cats, o);
        }
    }
    json_t *out = json_pack("{s:s,s:s,s:o,s:o,s:o}", "risk", TIER_NAME[k->tier], "basis",
                            basis.oom ? "" : bw_sb_str(&basis), "categories", cats ? cats : json_array(), "traits",
                            traits ? traits : json_array(), "ruled_out", ruled ? ruled : json_array());
    free(basis.p);
    return out;
}

/* ---- platform evidence ------------------------------------------------------------------------ */

enum ev_outcome { EV_SILENT, EV_SATISFIED, EV_UNSATISFIED, EV_CONTRADICTED };

static json_int_t ev_int(const json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    return json_is_integer(v) ? json_integer_value(v) : 0;
}

static const char *plural(json_int_t n) { return n == 1 ? "" : "s"; }

/* Each kind reads the evidence object and writes the platform fact behind its outcome into why;
 * control_id matters to owasp_risk only. */
typedef enum ev_outcome (*ev_kind_fn)(const json_t *ev, const char *control_id, char *why, size_t cap);

/* A kind met by a count above zero: "<n> <noun>[s] <rest>", else the none text. */
static enum ev_outcome some_of(const json_t *ev, const char *key, const char *none, const char *noun,
                               const char *rest, char *why, size_t cap)
{
    json_int_t n = ev_int(ev, key);
    if (n <= 0) {
        snprintf(why, cap, "%s", none);
        return EV_UNSATISFIED;
    }
    snprintf(why, cap, "%" JSON_INTEGER_FORMAT " %s%s %s", n, noun, plural(n), rest);
    return EV_SATISFIED;
}

static enum ev_outcome k_asset_inventory(const json_t *ev, const char *control_id, char *why, size_t cap)
{
    (void)control_id;
    return some_of(ev, "assets_registered", "no AI asset is registered on the platform", "AI asset",
                   "registered on the platform", why, cap);
}

static enum ev_outcome k_posture_scanned_90d(const json_t *ev, const char *control_id, char *why, size_t cap)
{
    (void)control_id;
    json_int_t reg = ev_int(ev, "assets_registered"), recent = ev_int(ev, "assets_scanned_90d");
    if (reg <= 0) {
        snprintf(why, cap, "no AI asset is registered, so none has a live scan");
        return EV_UNSATISFIED;
    }
    if (recent < reg) {
        snprintf(why, cap, "%" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT
                 " registered AI asset%s have no live scan from the last 90 days",
                 reg - recent, reg, plural(reg));
        return EV_UNSATISFIED;
    }
    snprintf(why, cap, "all %" JSON_INTEGER_FORMAT " registered AI asset%s have a live scan from the last 90 days",
             reg, plural(reg));
    return EV_SATISFIED;
}

static enum ev_outcome open_findings(const json_t *ev, const char *sev, enum ev_outcome bad, char *why, size_t cap)
{
    json_int_t n = ev_int(json_object_get(ev, "open_findings"), sev);
    if (n <= 0)
        return EV_SILENT; /* no such finding is not, alone, proof of security */
    snprintf(why, cap, "%" JSON_INTEGER_FORMAT " %s finding%s open in the assets' latest live scans", n, sev,
             plural(n));
    return bad;
}

static enum ev_outcome k_no_open_critical(const json_t *ev, const char *control_id, char *why, size_t cap)
{
    (void)control_id;
    return open_findings(ev, "CRITICAL", EV_CONTRADICTED, why, cap);
}

static enum ev_outcome k_no_open_high(const json_t *ev, const char *control_id, char *why, size_t cap)
{
    (void)control_id;
    return open_findings(ev, "HIGH", EV_UNSATISFIED, why, cap);
}

static enum ev_outcome k_owasp_risk(const json_t *ev, const char *control_id, char *why, size_t cap)
{
    const json_t *risk = json_object_get(json_object_get(ev, "owasp_llm"), control_id);
    json_int_t hit = ev_int(risk, "hit"), tested = ev_int(risk, "tested");
    if (hit > 0) {
        char ids[160] = "";
        size_t i, n = 0;
        json_t *f;
        json_array_foreach(json_object_get(risk, "findings"), i, f) {
            const char *id = json_string_value(f);
            if (id && n + strlen(id) + 3 < sizeof ids)
                n += (size_t)snprintf(ids + n, sizeof ids - n, "%s%s", n ? ", " : "", id);
        }
        snprintf(why, cap, "%s found by the latest live scan of %" JSON_INTEGER_FORMAT " asset%s%s%s%s", control_id,
                 hit, plural(hit), n ? " (" : "", ids, n ? ")" : "");
        return EV_CONTRADICTED;
    }
    if (tested > 0) {
        snprintf(why, cap, "%s probed by the latest live scans of %" JSON_INTEGER_FORMAT
                 " asset%s in the last 90 days and not found",
                 control_id, tested, plural(tested));
        return EV_SATISFIED;
    }
    return EV_SILENT;
}

static enum ev_outcome k_keys_rotated(const json_t *ev, const char *control_id, char *why, size_t cap)
{
    (void)control_id;
    return some_of(ev, "keys_rotated", "no API key of the account has ever been rotated", "API key rotation",
                   "recorded", why, cap);
}

static enum ev_outcome k_keys_fresh(const json_t *ev, const char *control_id, char *why, size_t cap)
{
    (void)control_id;
    json_t *age = json_object_get(ev, "oldest_active_key_days");
    if (ev_int(ev, "keys_active") <= 0 || !json_is_integer(age))
        return EV_SILENT; /* no live credential: nothing to judge */
    json_int_t d = json_integer_value(age);
    if (d > BW_ASSESS_KEY_MAX_AGE_DAYS) {
        snprintf(why, cap, "an active API key is %" JSON_INTEGER_FORMAT " days old (more than %d)", d,
                 BW_ASSESS_KEY_MAX_AGE_DAYS);
        return EV_UNSATISFIED;
    }
    snprintf(why, cap, "no active API key is older than %d days (oldest: %" JSON_INTEGER_FORMAT " day%s)",
             BW_ASSESS_KEY_MAX_AGE_DAYS, d, plural(d));
    return EV_SATISFIED;
}

/* Adversarial testing: silent without a completed engagement in the window; a HIGH or CRITICAL
 * attack that succeeded contradicts the control, none satisfies it. */
static enum ev_outcome k_redteam_resilience(const json_t *ev, const char *control_id, char *why, size_t cap)
{
    (void)control_id;
    json_int_t n = ev_int(ev, "redteam_completed_90d"), bad = ev_int(ev, "redteam_high_successes_90d");
    if (n <= 0)
        return EV_SILENT;
    if (bad > 0) {
        snprintf(why, cap,
                 "%" JSON_INTEGER_FORMAT " HIGH or CRITICAL red-team attack%s succeeded in the last %d days",
                 bad, plural(bad), BW_EVIDENCE_WINDOW_DAYS);
        return EV_CONTRADICTED;
    }
    snprintf(why, cap,
             "%" JSON_INTEGER_FORMAT " red-team engagement%s completed in the last %d days without a HIGH or "
             "CRITICAL attack succeeding",
             n, plural(n), BW_EVIDENCE_WINDOW_DAYS);
    return EV_SATISFIED;
}

static const struct {
    const char *name;
    ev_kind_fn fn;
} KINDS[] = {
    {"asset_inventory", k_asset_inventory}, {"posture_scanned_90d", k_posture_scanned_90d},
    {"no_open_critical", k_no_open_critical}, {"no_open_high", k_no_open_high},
    {"owasp_risk", k_owasp_risk}, {"keys_rotated", k_keys_rotated},
    {"keys_fresh", k_keys_fresh}, {"redteam_resilience", k_redteam_resilience},
};

static ev_kind_fn kind_fn(const char *name)
{
    for (size_t i = 0; name && i < sizeof KINDS / sizeof KINDS[0]; i++)
        if (strcmp(KINDS[i].name, name) == 0)
            return KINDS[i].fn;
    return NULL;
}

/* What the evidence says about one control, accumulated over the kinds mapped to it. */
struct ctl_ev {
    bool satisfied, unsatisfied, contradicted;
    char contra[BW_ASSESS_EVIDENCE_WHY]; /* the contradicting facts, "; "-joined */
    char unmet[BW_ASSESS_EVIDENCE_WHY];  /* the facts that kept evidence from meeting it */
};

static void append(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf);
    if (!*s || n + strlen(s) + 3 > cap)
        return;
    snprintf(buf + n, cap - n, "%s%s", n ? "; " : "", s);
}

static size_t control_index(const json_t *controls, const char *id)
{
    size_t i;
    json_t *c;
    json_array_foreach(controls, i, c) {
        const char *cid = json_string_value(json_object_get(c, "id"));
        if (cid && strcmp(cid, id) == 0)
            return i;
    }
    return (size_t)-1;
}

/* Evaluates every mapping entry for this framework, in document order, into cev[control]. */
static void apply_evidence(const json_t *framework, const json_t *controls, const json_t *mapping,
                           const json_t *evidence, struct ctl_ev *cev)
{
    const char *fw = json_string_value(json_object_get(framework, "id"));
    if (!fw)
        return;
    size_t k, e;
    json_t *kind, *entry;
    json_array_foreach(json_object_get(mapping, "kinds"), k, kind) {
        ev_kind_fn fn = kind_fn(json_string_value(json_object_get(kind, "kind")));
        if (!fn)
            continue;
        json_array_foreach(json_object_get(json_object_get(kind, "controls"), fw), e, entry) {
            const char *id = json_string_value(json_object_get(entry, "id"));
            size_t at = id ? control_index(controls, id) : (size_t)-1;
            if (at == (size_t)-1)
                continue;
            const char *decides = json_string_value(json_object_get(entry, "decides"));
            bool gaps_only = decides && strcmp(decides, "gaps_only") == 0;
            char why[BW_ASSESS_EVIDENCE_WHY] = "";
            struct ctl_ev *s = &cev[at];
            switch (fn(evidence, id, why, sizeof why)) {
            case EV_SATISFIED:
                s->satisfied |= !gaps_only;
                break;
            case EV_UNSATISFIED:
                s->unsatisfied = true;
                append(s->unmet, sizeof s->unmet, why);
                break;
            case EV_CONTRADICTED:
                s->contradicted = true;
                append(s->contra, sizeof s->contra, why);
                break;
            case EV_SILENT:
                break;
            }
        }
    }
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The ids of owasp_llm whose member `field` is positive, ascending. */
static json_t *owasp_ids(json_t *owasp, const char *field)
{
    json_t *out = json_array();
    size_t n = json_object_size(owasp), k = 0;
    const char **ids = n ? malloc(n * sizeof *ids) : NULL;
    if (n && !ids)
        return out;
    const char *key;
    json_t *v;
    json_object_foreach(owasp, key, v) {
        if (ev_int(v, field) > 0)
            ids[k++] = key;
    }
    if (k)
        qsort(ids, k, sizeof *ids, cmp_str);
    for (size_t i = 0; i < k; i++)
        json_array_append_new(out, json_string(ids[i]));
    free(ids);
    return out;
}

/* The response's evidence object: the facts, then the controls they decided. Steals the lists. */
static json_t *evidence_summary(const json_t *ev, json_t *met_ids, json_t *contra_ids)
{
    const json_t *of = json_object_get(ev, "open_findings");
    json_t *owasp = json_object_get(ev, "owasp_llm");
    const json_t *types = json_object_get(ev, "assets_by_type");
    json_t *age = json_object_get(ev, "oldest_active_key_days");
    return json_pack("{s:I,s:o,s:I,s:I,s:{s:I,s:I,s:I,s:I},s:o,s:o,s:I,s:I,s:o,s:I,s:I,s:o,s:o}",
                     "assets_registered",
                     ev_int(ev, "assets_registered"), "assets_by_type",
                     json_is_object(types) ? json_deep_copy(types) : json_object(), "assets_scanned",
                     ev_int(ev, "assets_scanned"), "assets_scanned_90d", ev_int(ev, "assets_scanned_90d"),
                     "open_findings", "CRITICAL", ev_int(of, "CRITICAL"), "HIGH", ev_int(of, "HIGH"), "MEDIUM",
                     ev_int(of, "MEDIUM"), "LOW", ev_int(of, "LOW"), "owasp_llm_hits", owasp_ids(owasp, "hit"),
                     "owasp_llm_tested", owasp_ids(owasp, "tested"), "keys_active", ev_int(ev, "keys_active"),
                     "keys_rotated", ev_int(ev, "keys_rotated"), "oldest_active_key_days",
                     json_is_integer(age) ? json_integer(json_integer_value(age)) : json_null(),
                     "redteam_completed_90d", ev_int(ev, "redteam_completed_90d"), "redteam_high_successes_90d",
                     ev_int(ev, "redteam_high_successes_90d"), "controls_met_by_evidence", met_ids,
                     "controls_contradicted", contra_ids);
}

static const char *str_or(const json_t *v)
{
    const char *s = json_string_value(v);
    return s ? s : "";
}

int bw_governance_evidence_check(const json_t *mapping, const json_t *const *frameworks, size_t n, char *err,
                                 size_t errlen)
{
    json_t *kinds = json_object_get(mapping, "kinds");
    if (!json_is_array(kinds) || json_array_size(kinds) == 0) {
        snprintf(err, errlen, "evidence mapping: no kinds");
        return -1;
    }
    size_t k;
    json_t *kind;
    json_array_foreach(kinds, k, kind) {
        const char *name = json_string_value(json_object_get(kind, "kind"));
        if (!kind_fn(name)) {
            snprintf(err, errlen, "evidence mapping: kind %zu: unknown kind \"%s\"", k, name ? name : "");
            return -1;
        }
        const char *cond = json_string_value(json_object_get(kind, "condition"));
        json_t *per_fw = json_object_get(kind, "controls");
        if (!cond || !*cond || !json_is_object(per_fw)) {
            snprintf(err, errlen, "evidence mapping: %s: needs a condition and a controls object", name);
            return -1;
        }
        const char *fw_id;
        json_t *list;
        json_object_foreach(per_fw, fw_id, list) {
            const json_t *fw = NULL;
            for (size_t f = 0; f < n && !fw; f++)
                if (strcmp(str_or(json_object_get(frameworks[f], "id")), fw_id) == 0)
                    fw = frameworks[f];
            if (!fw || !json_is_array(list)) {
                snprintf(err, errlen, "evidence mapping: %s: unknown framework \"%s\"", name, fw_id);
                return -1;
            }
            json_t *controls = json_object_get(fw, "controls");
            size_t e;
            json_t *entry;
            json_array_foreach(list, e, entry) {
                const char *id = json_string_value(json_object_get(entry, "id"));
                const char *reason = json_string_value(json_object_get(entry, "reason"));
                const char *decides = json_string_value(json_object_get(entry, "decides"));
                if (!id || control_index(controls, id) == (size_t)-1) {
                    snprintf(err, errlen, "evidence mapping: %s: %s has no control \"%s\"", name, fw_id,
                             id ? id : "");
                    return -1;
                }
                if (!reason || !*reason) {
                    snprintf(err, errlen, "evidence mapping: %s: %s %s needs a reason", name, fw_id, id);
                    return -1;
                }
                if (json_object_get(entry, "decides") &&
                    (!decides || (strcmp(decides, "both") != 0 && strcmp(decides, "gaps_only") != 0))) {
                    snprintf(err, errlen, "evidence mapping: %s: %s %s: decides must be both or gaps_only", name,
                             fw_id, id);
                    return -1;
                }
                for (size_t d = 0; d < e; d++)
                    if (strcmp(str_or(json_object_get(json_array_get(list, d), "id")), id) == 0) {
                        snprintf(err, errlen, "evidence mapping: %s: %s %s is listed twice", name, fw_id, id);
                        return -1;
                    }
            }
        }
    }
    return 0;
}

/* ---- the catalogs ------------------------------------------------------------------------------- */

const char *const bw_governance_framework_ids[BW_FRAMEWORKS] = {"nist-ai-rmf", "iso-42001", "eu-ai-act",
                                                                "owasp-llm"};

static json_t *parse(const struct bw_embedded *f)
{
    return f ? json_loadb((const char *)f->data, f->len, 0, NULL) : NULL;
}

/* Each control's applies_when: a non-empty array of "always", "risk:<limited|high|unacceptable>",
 * "category:<id>" (a category that is not a trait) or "trait:<id>" (a trait), the last two
 * possibly negated ("not:category:<id>"), joined by "+". */
static int check_applies_when(const json_t *fw, const struct bw_uc_catalog *uc, char *err, size_t errlen)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(fw, "controls"), i, c) {
        const char *id = str_or(json_object_get(c, "id"));
        const json_t *aw = json_object_get(c, "applies_when");
        if (!json_is_array(aw) || json_array_size(aw) == 0) {
            snprintf(err, errlen, "framework catalog %s: %s: applies_when must be a non-empty array",
                     str_or(json_object_get(fw, "id")), id);
            return -1;
        }
        size_t k;
        json_t *x;
        json_array_foreach(aw, k, x) {
            const char *cond = str_or(x);
            bool ok = *cond != '\0';
            for (const char *p = cond; ok && p;) {
                const char *plus = strchr(p, '+');
                char part[96];
                size_t n = plus ? (size_t)(plus - p) : strlen(p);
                ok = n < sizeof part;
                if (!ok)
                    break;
                memcpy(part, p, n);
                part[n] = '\0';
                const char *q = strncmp(part, "not:", 4) == 0 ? part + 4 : part; /* not:category:<id> */
                bool trait = strncmp(q, "trait:", 6) == 0, category = strncmp(q, "category:", 9) == 0;
                int at = trait ? bw_uc_find(uc, q + 6) : category ? bw_uc_find(uc, q + 9) : -1;
                ok = strcmp(part, "always") == 0 || strcmp(part, "risk:limited") == 0 ||
                     strcmp(part, "risk:high") == 0 || strcmp(part, "risk:unacceptable") == 0 ||
                     (at >= 0 && (bw_uc_at(uc, (size_t)at)->kind == BW_UC_TRAIT) == trait);
                p = plus ? plus + 1 : NULL;
            }
            if (!ok) {
                snprintf(err, errlen, "framework catalog %s: %s: applies_when[%zu] \"%s\" is not always, "
                                      "risk:<tier>, category:<category id> or trait:<trait id> of the use-case catalog (the "
                                      "last two may be preceded by not:), or such parts joined by +",
                         str_or(json_object_get(fw, "id")), id, k, cond);
                return -1;
            }
        }
    }
    return 0;
}

int bw_governance_catalogs_load(const struct bw_embedded *const framework[BW_FRAMEWORKS],
                                const struct bw_embedded *evidence_map, const struct bw_embedded *usecases,
                                struct bw_gov_catalogs *out, char *err, size_t errlen)
{
    struct bw_gov_catalogs c = {.evidence_map = NULL};
    char why[192] = "missing";
    c.usecases = usecases ? bw_uc_catalog_parse((const char *)usecases->data, usecases->len, why, sizeof why) : NULL;
    if (!c.usecases) {
        snprintf(err, errlen, "use-case catalog: %s", why);
        goto fail;
    }
    for (size_t i = 0; i < BW_FRAMEWORKS; i++) {
        json_t *doc = c.framework[i] = parse(framework[i]);
        json_t *controls = json_object_get(doc, "controls");
        if (!json_is_array(controls) || json_array_size(controls) == 0 ||
            !json_is_string(json_object_get(doc, "name")) ||
            strcmp(str_or(json_object_get(doc, "id")), bw_governance_framework_ids[i]) != 0) {
            snprintf(err, errlen, "framework catalog %s is missing or malformed", bw_governance_framework_ids[i]);
            goto fail;
        }
        if (check_applies_when(doc, c.usecases, err, errlen) != 0)
            goto fail;
    }
    c.evidence_map = parse(evidence_map);
    if (!c.evidence_map) {
        snprintf(err, errlen, "evidence mapping: missing or not JSON");
        goto fail;
    }
    if (bw_governance_evidence_check(c.evidence_map, (const json_t *const *)c.framework, BW_FRAMEWORKS, err,
                                     errlen) != 0)
        goto fail;
    *out = c;
    return 0;
fail:
    bw_governance_catalogs_free(&c);
    return -1;
}

void bw_governance_catalogs_free(struct bw_gov_catalogs *c)
{
    for (size_t i = 0; i < BW_FRAMEWORKS; i++) {
        json_decref(c->framework[i]);
        c->framework[i] = NULL;
    }
    json_decref(c->evidence_map);
    c->evidence_map = NULL;
    bw_uc_catalog_free(c->usecases);
    c->usecases = NULL;
}

/* ---- the assessment ---------------------------------------------------------------------------- */

struct gap {
    json_t *control;
    int rank;
    int spec; /* how specifically the use cases call for it (applies) */
    size_t order;
    bool claimed; /* org_context names it (a contradicted control can still be a gap) */
    char *basis; /* why the control applies (owned) */
};

static int cmp_gap(const void *a, const void *b)
{
    const struct gap *x = a, *y = b;
    if (x->rank != y->rank)
        return y->rank - x->rank;
    if (x->spec != y->spec) /* within a severity, what the use cases name before what always applies */
        return y->spec - x->spec;
    return x->order < y->order ? -1 : x->order > y->order;
}

json_t *bw_governance_assess(const json_t *framework, const struct bw_uc_catalog *uc, const char *org_context,
                             const json_t *use_cases)
{
    return bw_governance_assess_evidence(framework, uc, org_context, use_cases, NULL, NULL);
}

json_t *bw_governance_assess_evidence(const json_t *framework, const struct bw_uc_catalog *uc, const char *org_context,
                                      const json_t *use_cases, const json_t *mapping, const json_t *evidence)
{
    json_t *controls = json_object_get(framework, "controls");
    if (!json_is_array(controls) || json_array_size(controls) == 0 || !uc)
        return NULL;
    size_t i;
    json_t *c;
    json_array_foreach(controls, i, c) {
        if (!json_is_string(json_object_get(c, "title")) || !json_is_string(json_object_get(c, "id")))
            return NULL;
    }
    const char *org = org_context ? org_context : "";
    struct cls k;
    if (classify(uc, use_cases, org, &k) != 0)
        return NULL;
    /* what org_context affirms: a statement that rules something out meets nothing */
    char *ctx_norm = bw_uc_affirmed_words(uc, org, strlen(org));
    size_t total = json_array_size(controls);
    struct gap *gaps = calloc(total, sizeof *gaps);
    bool with_evidence = mapping && evidence;
    struct ctl_ev *cev = with_evidence ? calloc(total, sizeof *cev) : NULL;
    json_t *out = NULL, *met_ids = NULL, *contra_ids = NULL;
    if (!ctx_norm || !gaps || (with_evidence && !cev))
        goto done;
    if (with_evidence)
        apply_evidence(framework, controls, mapping, evidence, cev);
    met_ids = json_array();
    contra_ids = json_array();
    size_t met = 0, ngaps = 0, applicable = 0, applicable_met = 0;
    json_array_foreach(controls, i, c) {
        json_t *id = json_object_get(c, "id");
        bool claimed = control_met(ctx_norm, json_string_value(json_object_get(c, "title")));
        bool contradicted = cev && cev[i].contradicted;
        bool by_evidence = cev && !contradicted && cev[i].satisfied && !cev[i].unsatisfied;
        struct bw_sb basis = {0};
        int cat = -1, spec = 0;
        bool app = applies(c, &k, &basis, &cat, &spec);
        /* org_context that rules out what made the control apply ("no crime prediction") closes it */
        bool closed = app && cat >= 0 && k.org[cat].ruled_out && !contradicted;
        if (!app && contradicted) {
            app = true;
            bw_sb_printf(&basis, "platform evidence: %s", cev[i].contra);
        }
        if (by_evidence)
            json_array_append(met_ids, id);
        if (contradicted)
            json_array_append(contra_ids, id);
        bool is_met = !contradicted && (claimed || by_evidence || closed);
        met += is_met;
        applicable += app;
        applicable_met += app && is_met;
        if (!app || is_met || basis.oom) {
            free(basis.p);
            continue;
        }
        int rank = bw_sev_parse(json_string_value(json_object_get(c, "severity")));
        gaps[ngaps++] = (struct gap){c, rank, spec, i, claimed, bw_sb_take(&basis)};
    }
    qsort(gaps, ngaps, sizeof *gaps, cmp_gap);
    json_t *garr = json_array(), *recs = json_array();
    static const char *const sev_names[] = {"LOW", "LOW", "MEDIUM", "HIGH", "CRITICAL"};
    for (size_t g = 0; g < ngaps; g++) {
        json_t *ctl = gaps[g].control;
        const char *rec = json_string_value(json_object_get(ctl, "recommendation"));
        json_t *item = json_pack("{s:O,s:O,s:s,s:s,s:s}", "control_id", json_object_get(ctl, "id"), "title",
                                 json_object_get(ctl, "title"), "severity", sev_names[gaps[g].rank], "recommendation",
                                 rec ? rec : "", "basis", gaps[g].basis ? gaps[g].basis : "");
        const struct ctl_ev *s = cev ? &cev[gaps[g].order] : NULL;
        if (s && (s->contradicted || s->unmet[0])) {
            char why[3 * BW_ASSESS_EVIDENCE_WHY] = "";
            append(why, sizeof why, s->contra);
            append(why, sizeof why, s->unmet);
            if (s->contradicted && gaps[g].claimed)
                append(why, sizeof why, "org_context claims this control but the platform evidence contradicts it");
            json_object_set_new(item, "evidence", json_string(why));
        }
        json_array_append_new(garr, item);
        if (rec && json_array_size(recs) < BW_ASSESS_MAX_RECOMMENDATIONS)
            json_array_append_new(recs, json_string(rec));
    }
    /* score keeps its meaning (met of all controls, as before applicability); the applicable
     * counts say how much of what applies is met */
    int score = (int)((100 * met + total / 2) / total);
    out = json_pack("{s:i,s:s,s:o,s:i,s:i,s:i,s:i,s:o,s:o}", "score", score, "risk_classification",
                    TIER_NAME[k.tier], "classification", classification_json(&k), "controls_total", (json_int_t)total,
                    "controls_met", (json_int_t)met, "controls_applicable", (json_int_t)applicable,
                    "controls_applicable_met", (json_int_t)applicable_met, "gaps", garr, "recommendations", recs);
    if (out && with_evidence) {
        json_object_set_new(out, "evidence", evidence_summary(evidence, met_ids, contra_ids));
        met_ids = contra_ids = NULL;
    }
done:
    json_decref(met_ids);
    json_decref(contra_ids);
    free(cev);
    for (size_t g = 0; gaps && g < total; g++)
        free(gaps[g].basis);
    free(gaps);
    free(ctx_norm);
    cls_free(&k);
    return out;
}
