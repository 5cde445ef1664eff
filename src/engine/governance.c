#include "engine/governance.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Lower-cased copy with every non-alphanumeric byte turned into a space and spaces around, so a
 * phrase matches at word boundaries with a plain substring search for " phrase ". */
static char *normalise(const char *a, const char *b)
{
    size_t la = a ? strlen(a) : 0, lb = b ? strlen(b) : 0;
    char *out = malloc(la + lb + 4);
    if (!out)
        return NULL;
    size_t n = 0;
    out[n++] = ' ';
    const char *parts[2] = {a, b};
    size_t lens[2] = {la, lb};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < lens[k]; i++) {
            unsigned char c = (unsigned char)parts[k][i];
            out[n++] = isalnum(c) ? (char)tolower(c) : ' ';
        }
        out[n++] = ' ';
    }
    out[n] = '\0';
    return out;
}

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

static int sev_rank(const char *s)
{
    if (!s)
        return 0;
    if (strcasecmp(s, "critical") == 0)
        return 4;
    if (strcasecmp(s, "high") == 0)
        return 3;
    if (strcasecmp(s, "medium") == 0)
        return 2;
    return 1;
}

const char *bw_governance_risk_class(const char *text)
{
    char *norm = normalise(text, NULL);
    if (!norm)
        return "minimal";
    /* Art. 5 practices, then Annex III areas, then Art. 50 transparency cases */
    static const char *const prohibited[] = {"social scoring", "social score", "subliminal", "manipulat",
                                             "exploit vulnerab", "emotion recognition in the workplace",
                                             "emotion recognition at work", "untargeted scraping of facial",
                                             "predictive policing", "biometric categorisation",
                                             "biometric categorization", "real time remote biometric"};
    static const char *const high[] = {"credit", "creditworth", "loan", "hiring", "recruit", "employment",
                                       "employee", "candidate", "cv screening", "resume", "education", "examination",
                                       "student", "admission", "law enforcement", "police", "migration",
                                       "asylum", "border", "visa", "critical infrastructure", "biometric",
                                       "facial recognition", "face recognition", "medical", "diagnos",
                                       "health", "insurance", "justice", "court", "judicial", "election",
                                       "voting", "welfare", "benefit eligibility", "emergency"};
    static const char *const limited[] = {"chatbot", "chat bot", "assistant", "customer support",
                                          "customer service", "conversational", "generat", "deepfake",
                                          "synthetic", "content creation", "copilot", "virtual agent"};
    const char *out = "minimal";
    for (size_t i = 0; i < sizeof prohibited / sizeof prohibited[0] && !strcmp(out, "minimal"); i++)
        if (strstr(norm, prohibited[i]))
            out = "unacceptable";
    for (size_t i = 0; i < sizeof high / sizeof high[0] && !strcmp(out, "minimal"); i++)
        if (strstr(norm, high[i]))
            out = "high";
    for (size_t i = 0; i < sizeof limited / sizeof limited[0] && !strcmp(out, "minimal"); i++)
        if (strstr(norm, limited[i]))
            out = "limited";
    free(norm);
    return out;
}

struct gap {
    json_t *control;
    int rank;
    size_t order;
};

static int cmp_gap(const void *a, const void *b)
{
    const struct gap *x = a, *y = b;
    if (x->rank != y->rank)
        return y->rank - x->rank;
    return x->order < y->order ? -1 : x->order > y->order;
}

json_t *bw_governance_assess(const json_t *framework, const char *org_context, const json_t *use_cases)
{
    json_t *controls = json_object_get(framework, "controls");
    if (!json_is_array(controls) || json_array_size(controls) == 0)
        return NULL;
    /* the use cases joined, for keyword relevance and risk classification */
    size_t cap = 1;
    size_t i;
    json_t *uc;
    json_array_foreach(use_cases, i, uc) cap += json_string_length(uc) + 2;
    char *joined = malloc(cap);
    if (!joined)
        return NULL;
    size_t n = 0;
    json_array_foreach(use_cases, i, uc) {
        size_t l = json_string_length(uc);
        memcpy(joined + n, json_string_value(uc), l);
        n += l;
        joined[n++] = '\n';
    }
    joined[n] = '\0';
    char *ctx_norm = normalise(org_context, NULL);
    char *all_norm = normalise(joined, org_context);
    size_t total = json_array_size(controls);
    struct gap *gaps = calloc(total, sizeof *gaps);
    json_t *out = NULL;
    if (!ctx_norm || !all_norm || !gaps)
        goto done;
    size_t met = 0, ngaps = 0;
    json_t *c;
    json_array_foreach(controls, i, c) {
        const char *title = json_string_value(json_object_get(c, "title"));
        if (!title || !json_is_string(json_object_get(c, "id")))
            goto done;
        if (control_met(ctx_norm, title)) {
            met++;
            continue;
        }
        int rank = sev_rank(json_string_value(json_object_get(c, "severity")));
        bool applies = rank >= 3;
        size_t k;
        json_t *kw;
        json_array_foreach(json_object_get(c, "keywords"), k, kw) {
            if (applies)
                break;
            applies = json_is_string(kw) && has_word(all_norm, json_string_value(kw));
        }
        if (applies)
            gaps[ngaps++] = (struct gap){c, rank, i};
    }
    qsort(gaps, ngaps, sizeof *gaps, cmp_gap);
    json_t *garr = json_array(), *recs = json_array();
    static const char *const sev_names[] = {"LOW", "LOW", "MEDIUM", "HIGH", "CRITICAL"};
    for (size_t g = 0; g < ngaps; g++) {
        json_t *ctl = gaps[g].control;
        const char *rec = json_string_value(json_object_get(ctl, "recommendation"));
        json_array_append_new(garr, json_pack("{s:O,s:O,s:s,s:s}", "control_id", json_object_get(ctl, "id"),
                                              "title", json_object_get(ctl, "title"), "severity",
                                              sev_names[gaps[g].rank], "recommendation", rec ? rec : ""));
        if (rec && json_array_size(recs) < BW_ASSESS_MAX_RECOMMENDATIONS)
            json_array_append_new(recs, json_string(rec));
    }
    int score = (int)((100 * met + total / 2) / total);
    out = json_pack("{s:i,s:s,s:i,s:i,s:o,s:o}", "score", score, "risk_classification",
                    bw_governance_risk_class(joined), "controls_total", (json_int_t)total, "controls_met",
                    (json_int_t)met, "gaps", garr, "recommendations", recs);
done:
    free(gaps);
    free(ctx_norm);
    free(all_norm);
    free(joined);
    return out;
}
