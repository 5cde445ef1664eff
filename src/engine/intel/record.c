/* Records: construction, merging, canonical text, feed entries, validation (intel.h), and the
 * typed access to source trees the normalisers share (normalize.h). */
#include "engine/intel/intel.h"
#include "common/jsonx.h"
#include "engine/intel/epss.h"
#include "engine/intel/normalize.h"
#include "engine/intel/risk.h"

#include "common/limits.h"
#include "common/timeutil.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const bw_intel_types[BW_INTEL_NTYPES] = {"prompt_attack", "agent_threat", "ai_cve", "model_advisory"};
const char *const bw_intel_type_filters[BW_INTEL_NTYPES] = {"prompt_attacks", "agent_threats", "ai_cves",
                                                            "model_advisories"};
const char *const bw_intel_severities[4] = {"CRITICAL", "HIGH", "MEDIUM", "LOW"};

/* Array members, every one a sorted set. */
static const char *const SETS[] = {"cve",      "aliases",    "cwe",     "attack_techniques", "atlas_techniques",
                                   "affected", "ai_impact", "references", "sources"};
#define NSETS (sizeof SETS / sizeof SETS[0])

/* Members that are not facts: set by bw_intel_finalize. */
static const char *const DERIVED[] = {"version",   "enriched_at", "risk_score", "risk_tier",
                                      "changed_at", "epss",        "epss_history"};

bool bw_intel_id_valid(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > BW_INTEL_ID_MAX || !isalnum((unsigned char)s[0]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
            return false;
    return true;
}

/* ---- construction ------------------------------------------------------------------------------ */

json_t *bw_rec_new(const char *id, const char *type, const char *source)
{
    return json_pack("{s:s,s:s,s:s,s:s,s:s,s:n,s:[],s:[],s:b,s:n,s:[],s:[],s:[],s:[],s:b,s:[],s:[],"
                     "s:s,s:s,s:s,s:[s],s:i,s:s,s:i,s:s}",
                     "id", id, "type", type, "title", "", "summary", "", "severity", "MEDIUM", "cvss", "cve",
                     "aliases", "kev", 0, "kev_details", "cwe", "attack_techniques", "atlas_techniques",
                     "affected", "exploit_available", 0, "ai_impact", "references", "published", "", "updated",
                     "", "source", source, "sources", source, "version", 0, "enriched_at", "", "risk_score", 0,
                     "risk_tier", "LOW");
}

void bw_rec_str(json_t *rec, const char *member, const char *value)
{
    json_object_set_new(rec, member, json_string(value ? value : ""));
}

void bw_rec_add(json_t *rec, const char *member, const char *value)
{
    if (value && *value)
        json_array_append_new(json_object_get(rec, member), json_string(value));
}

void bw_rec_add_ref(json_t *rec, const char *url, const char *kind)
{
    if (url && (strncmp(url, "https://", 8) == 0 || strncmp(url, "http://", 7) == 0))
        json_array_append_new(json_object_get(rec, "references"), json_pack("{s:s,s:s}", "url", url, "kind", kind));
}

void bw_rec_add_affected(json_t *rec, const char *vendor, const char *product, const char *ecosystem,
                         const char *package, const char *introduced, const char *fixed)
{
#define S(x) ((x) ? (x) : "")
    json_array_append_new(json_object_get(rec, "affected"),
                          json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "vendor", S(vendor), "product", S(product),
                                    "ecosystem", S(ecosystem), "package", S(package), "introduced",
                                    S(introduced), "fixed", S(fixed)));
#undef S
}

struct keyed {
    json_t *v;
    char *key; /* the string itself, or an object's canonical text */
};

static int cmp_keyed(const void *a, const void *b)
{
    return strcmp(((const struct keyed *)a)->key, ((const struct keyed *)b)->key);
}

/* Sorted set: objects are ordered by their canonical text, which is a total order independent
 * of how they were built. */
static void normalise_array(json_t *arr)
{
    size_t n = json_array_size(arr);
    if (n == 0)
        return;
    struct keyed *k = calloc(n, sizeof *k);
    if (!k)
        return;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(arr, i);
        char *key = json_is_string(v) ? strdup(json_string_value(v)) : json_dumps(v, BW_INTEL_DUMP_FLAGS);
        if (!key)
            continue;
        k[m++] = (struct keyed){json_incref(v), key};
    }
    qsort(k, m, sizeof *k, cmp_keyed);
    json_array_clear(arr);
    for (size_t i = 0; i < m; i++)
        if (i == 0 || strcmp(k[i].key, k[i - 1].key) != 0)
            json_array_append(arr, k[i].v);
    for (size_t i = 0; i < m; i++) {
        json_decref(k[i].v);
        free(k[i].key);
    }
    free(k);
}

void bw_rec_normalise(json_t *rec)
{
    for (size_t i = 0; i < NSETS; i++)
        normalise_array(json_object_get(rec, SETS[i]));
}

/* ---- severities -------------------------------------------------------------------------------- */

int bw_sev_rank(const char *sev)
{
    for (int i = 0; sev && i < 4; i++)
        if (strcmp(sev, bw_intel_severities[i]) == 0)
            return 3 - i;
    return -1;
}

const char *bw_sev_max(const char *a, const char *b) { return bw_sev_rank(a) >= bw_sev_rank(b) ? a : b; }

const char *bw_sev_up(const char *sev)
{
    int r = bw_sev_rank(sev);
    return r < 0 ? "MEDIUM" : bw_intel_severities[r >= 3 ? 0 : 3 - (r + 1)];
}

/* ---- merge ------------------------------------------------------------------------------------- */

static int source_rank(const char *s)
{
    static const char *const order[] = {"osv", "kev", "atlas"};
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, order[i]) == 0)
            return i;
    return 3;
}

/* The preferred source among a record's sources. */
static const char *primary(const json_t *sources)
{
    const char *best = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(sources, i, v) {
        const char *s = json_string_value(v);
        if (s && (!best || source_rank(s) < source_rank(best)))
            best = s;
    }
    return best;
}

static void unite(json_t *into, const json_t *from, const char *member)
{
    json_t *a = json_object_get(into, member);
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(from, member), i, v)
        json_array_append(a, v);
    normalise_array(a);
}

/* The smallest of a record's aliases (its id when it has none): which of several advisories of
 * one source a record shows, whatever order they arrive in. */
static const char *min_alias(const json_t *r)
{
    const char *m = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(r, "aliases"), i, v) {
        const char *a = json_string_value(v);
        if (a && (!m || strcmp(a, m) < 0))
            m = a;
    }
    return m ? m : bw_json_str(r, "id");
}

/* Whether every alias of b is among a's: a restates everything b was built from. */
static bool covers(const json_t *a, const json_t *b)
{
    size_t i, j;
    json_t *x, *y;
    json_array_foreach(json_object_get(b, "aliases"), i, x) {
        bool found = false;
        json_array_foreach(json_object_get(a, "aliases"), j, y) found |= json_equal(x, y);
        if (!found)
            return false;
    }
    return true;
}

/* Facts of several contributions united (see bw_intel_merge). */
static json_t *unite_records(const json_t *existing, const json_t *incoming)
{
    const char *src = bw_json_str(incoming, "source");
    json_t *r = json_deep_copy(existing);
    if (!r)
        return NULL;
    for (size_t i = 0; i < NSETS; i++)
        unite(r, incoming, SETS[i]);
    /* title, summary and type: from the preferred source; among contributions of that one
     * source, from the one with the smallest alias */
    const char *pri = primary(json_object_get(r, "sources"));
    bool shown_src = strcmp(bw_json_str(existing, "source"), src) == 0;
    if (pri && strcmp(pri, src) == 0 && (!shown_src || strcmp(min_alias(incoming), min_alias(r)) <= 0)) {
        static const char *const shown[] = {"type", "title", "summary", "source"};
        for (size_t i = 0; i < 4; i++)
            json_object_set(r, shown[i], json_object_get(incoming, shown[i]));
    }
    if (strcmp(src, "kev") == 0) {
        json_object_set(r, "kev", json_object_get(incoming, "kev"));
        json_object_set(r, "kev_details", json_object_get(incoming, "kev_details"));
    }
    if (!json_is_null(json_object_get(incoming, "cvss")))
        json_object_set(r, "cvss", json_object_get(incoming, "cvss"));
    if (json_is_true(json_object_get(incoming, "exploit_available")))
        json_object_set(r, "exploit_available", json_true());
    const char *ep = bw_json_str(existing, "published"), *ip = bw_json_str(incoming, "published");
    if (*ip && (!*ep || strcmp(ip, ep) < 0))
        bw_rec_str(r, "published", ip);
    const char *eu = bw_json_str(existing, "updated"), *iu = bw_json_str(incoming, "updated");
    if (strcmp(iu, eu) > 0)
        bw_rec_str(r, "updated", iu);
    const json_t *bs = json_object_get(json_object_get(r, "cvss"), "base_score");
    const char *sev;
    if (json_is_number(bs)) {
        double b = json_number_value(bs);
        sev = b >= 9.0 ? "CRITICAL" : b >= 7.0 ? "HIGH" : b >= 4.0 ? "MEDIUM" : "LOW";
    } else {
        sev = bw_sev_max(bw_json_str(existing, "severity"), bw_json_str(incoming, "severity"));
    }
    if (json_is_true(json_object_get(r, "kev")))
        sev = bw_sev_max(sev, "HIGH");
    bw_rec_str(r, "severity", sev);
    return r;
}

json_t *bw_intel_merge(const json_t *existing, const json_t *incoming)
{
    const char *src = bw_json_str(incoming, "source");
    const json_t *es = json_object_get(existing, "sources");
    const char *only = json_array_size(es) == 1 ? json_string_value(json_array_get(es, 0)) : NULL;
    if (existing && !(only && strcmp(only, src) == 0 && covers(incoming, existing)))
        return unite_records(existing, incoming);
    json_t *r = json_deep_copy(incoming);
    if (r && existing)
        for (size_t i = 0; i < sizeof DERIVED / sizeof DERIVED[0]; i++)
            json_object_set(r, DERIVED[i], json_object_get(existing, DERIVED[i]));
    return r;
}

json_t *bw_intel_combine(const json_t *first, const json_t *second) { return unite_records(first, second); }

bool bw_intel_same_facts(const json_t *a, const json_t *b)
{
    json_t *x = json_copy((json_t *)a), *y = json_copy((json_t *)b); /* shallow: members shared */
    bool same = false;
    if (x && y) {
        for (size_t i = 0; i < sizeof DERIVED / sizeof DERIVED[0]; i++) {
            json_object_del(x, DERIVED[i]);
            json_object_del(y, DERIVED[i]);
        }
        same = json_equal(x, y);
    }
    json_decref(x);
    json_decref(y);
    return same;
}

void bw_intel_finalize(json_t *record, int64_t version, int64_t enriched_s)
{
    char ts[21];
    bw_iso8601(enriched_s, ts);
    json_object_set_new(record, "version", json_integer(version));
    json_object_set_new(record, "enriched_at", json_string(ts));
    /* a change of facts is the record's last change: changed_at absent means enriched_at (and
     * the seed stays the bytes it was) */
    json_object_del(record, "changed_at");
    int score = bw_risk_score(record, enriched_s);
    json_object_set_new(record, "risk_score", json_integer(score));
    json_object_set_new(record, "risk_tier", json_string(bw_risk_tier(score)));
}

int bw_intel_rescore(json_t *record, int64_t changed_s)
{
    int64_t ref;
    if (bw_parse_iso8601(json_string_value(json_object_get(record, "enriched_at")), &ref) != 0)
        return -1;
    char ts[21];
    bw_iso8601(changed_s, ts);
    int score = bw_risk_score(record, ref);
    if (json_object_set_new(record, "changed_at", json_string(ts)) != 0 ||
        json_object_set_new(record, "risk_score", json_integer(score)) != 0 ||
        json_object_set_new(record, "risk_tier", json_string(bw_risk_tier(score))) != 0)
        return -1;
    return 0;
}

char *bw_intel_dump(const json_t *record) { return json_dumps(record, BW_INTEL_DUMP_FLAGS); }

char *bw_intel_entry(const json_t *r)
{
    static const char *const members[] = {"id",      "type", "title", "severity",          "published",
                                          "summary", "cve",  "cvss",  "kev",               "attack_techniques",
                                          "atlas_techniques", "references"};
    json_t *e = json_object();
    if (!e)
        return NULL;
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++) {
        json_t *v = json_object_get(r, members[i]);
        json_object_set(e, members[i], v ? v : json_null());
    }
    json_t *changed = json_object_get(r, "changed_at"), *epss = json_object_get(r, "epss");
    json_object_set(e, "updated_at", changed ? changed : json_object_get(r, "enriched_at"));
    json_object_set(e, "risk_score", json_object_get(r, "risk_score"));
    json_object_set(e, "risk_tier", json_object_get(r, "risk_tier"));
    json_object_set(e, "epss", epss ? epss : json_null());
    char *s = json_dumps(e, JSON_COMPACT | JSON_REAL_PRECISION(15));
    json_decref(e);
    return s;
}

/* ---- validation of complete records ------------------------------------------------------------ */

static bool one_of(const char *v, const char *const *set, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        if (strcmp(v, set[i]) == 0)
            return true;
    return false;
}

static bool iso(const json_t *v)
{
    int64_t t;
    return json_is_string(v) && bw_parse_iso8601(json_string_value(v), &t) == 0;
}

int bw_intel_check(const json_t *r, char *why, size_t cap)
{
#define FAIL(...) return (snprintf(why, cap, __VA_ARGS__), -1)
    if (!json_is_object(r))
        FAIL("a record must be an object");
    const char *id = json_string_value(json_object_get(r, "id"));
    if (!bw_intel_id_valid(id))
        FAIL("id is not a valid record id");
    if (!one_of(json_string_value(json_object_get(r, "type")), bw_intel_types, BW_INTEL_NTYPES))
        FAIL("%s: type is not one of the record types", id);
    if (!one_of(json_string_value(json_object_get(r, "severity")), bw_intel_severities, 4) ||
        !one_of(json_string_value(json_object_get(r, "risk_tier")), bw_intel_severities, 4))
        FAIL("%s: severity and risk_tier must be CRITICAL, HIGH, MEDIUM or LOW", id);
    static const char *const strings[] = {"title", "summary", "source"};
    for (size_t i = 0; i < 3; i++)
        if (!json_is_string(json_object_get(r, strings[i])))
            FAIL("%s: %s must be a string", id, strings[i]);
    if (!json_string_length(json_object_get(r, "title")))
        FAIL("%s: title must not be empty", id);
    static const char *const times[] = {"published", "updated", "enriched_at"};
    for (size_t i = 0; i < 3; i++)
        if (!iso(json_object_get(r, times[i])))
            FAIL("%s: %s must be an ISO 8601 UTC time", id, times[i]);
    for (size_t i = 0; i < NSETS; i++)
        if (!json_is_array(json_object_get(r, SETS[i])))
            FAIL("%s: %s must be an array", id, SETS[i]);
    if (!json_is_boolean(json_object_get(r, "kev")) || !json_is_boolean(json_object_get(r, "exploit_available")))
        FAIL("%s: kev and exploit_available must be booleans", id);
    const json_t *cvss = json_object_get(r, "cvss"), *kd = json_object_get(r, "kev_details");
    if (!cvss || (!json_is_null(cvss) && !json_is_number(json_object_get(cvss, "base_score"))))
        FAIL("%s: cvss must be null or carry a base_score", id);
    if (!kd || (!json_is_null(kd) && !json_is_object(kd)))
        FAIL("%s: kev_details must be null or an object", id);
    /* EPSS members and changed_at came later: absent is null (records of older stores, the seed) */
    const json_t *ep = json_object_get(r, "epss"), *eh = json_object_get(r, "epss_history"),
                 *ch = json_object_get(r, "changed_at");
    if (ep && !json_is_null(ep) && (bw_epss_of(r) < 0 || !json_is_string(json_object_get(ep, "date"))))
        FAIL("%s: epss must be null or carry a score from 0 to 1 and a date", id);
    if (eh && (!json_is_array(eh) || json_array_size(eh) > BW_INTEL_EPSS_HISTORY_MAX))
        FAIL("%s: epss_history must be an array of at most %d scores", id, BW_INTEL_EPSS_HISTORY_MAX);
    if (ch && !iso(ch))
        FAIL("%s: changed_at must be an ISO 8601 UTC time", id);
    json_int_t version = json_integer_value(json_object_get(r, "version"));
    json_int_t score = json_integer_value(json_object_get(r, "risk_score"));
    if (!json_is_integer(json_object_get(r, "version")) || version < 1)
        FAIL("%s: version must be an integer from 1", id);
    if (!json_is_integer(json_object_get(r, "risk_score")) || score < 0 || score > 100)
        FAIL("%s: risk_score must be an integer from 0 to 100", id);
    return 0;
#undef FAIL
}

/* ---- dates ------------------------------------------------------------------------------------- */

int bw_intel_date(const char *in, char out[21])
{
    if (!in)
        return -1;
    int y, mo, d, h = 0, mi = 0, s = 0, used = 0;
    size_t n = strlen(in);
    if (n < 10 || sscanf(in, "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3 || used != 10 || !isdigit((unsigned char)in[0]))
        return -1;
    const char *p = in + 10;
    if (*p == 'T' || *p == ' ') {
        int u2 = 0;
        if (sscanf(p + 1, "%2d:%2d:%2d%n", &h, &mi, &s, &u2) != 3 || u2 != 8)
            return -1;
        p += 1 + 8;
        if (*p == '.') {
            p++;
            size_t f = strspn(p, "0123456789");
            if (!f)
                return -1;
            p += f;
        }
        if (strcmp(p, "Z") != 0 && strcmp(p, "+00:00") != 0 && strcmp(p, "+0000") != 0)
            return -1;
    } else if (*p) {
        return -1;
    }
    for (size_t i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)in[i]))
            return -1;
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || s > 60 ||
        h < 0 || mi < 0 || s < 0)
        return -1;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo == 2 && d == 29 && !leap)
        return -1;
    char buf[80]; /* the ranges are checked above; the size keeps the compiler's bound check quiet */
    snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h, mi, s > 59 ? 59 : s);
    memcpy(out, buf, 21);
    out[20] = '\0';
    return 0;
}

/* ---- source trees ------------------------------------------------------------------------------ */

int bw_src_fail(struct bw_src *s, const json_t *node, const json_t *container, const char *fmt, ...)
{
    s->rej->at = bw_tree_pos(s->t, node, container);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->rej->msg, sizeof s->rej->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "a mapping";
    case JSON_ARRAY: return "a list";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

static int member(struct bw_src *s, const json_t *obj, const char *key, bool required, const char *where,
                  json_type want, const char *want_name, json_t **out)
{
    *out = NULL;
    json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v)) {
        if (required)
            return bw_src_fail(s, v, obj, "%s: '%s' is required", where, key);
        return 0;
    }
    if (json_typeof(v) != want)
        return bw_src_fail(s, v, obj, "%s: '%s' must be %s, not %s", where, key, want_name, type_name(v));
    *out = v;
    return 0;
}

int bw_src_str(struct bw_src *s, const json_t *obj, const char *key, bool required, const char *where,
               const char **out)
{
    json_t *v;
    int rc = member(s, obj, key, required, where, JSON_STRING, "a string", &v);
    *out = v ? json_string_value(v) : NULL;
    if (rc == 0 && v && required && !**out)
        return bw_src_fail(s, v, obj, "%s: '%s' must not be empty", where, key);
    if (rc == 0 && v && strlen(*out) != json_string_length(v))
        return bw_src_fail(s, v, obj, "%s: '%s' contains a NUL character", where, key);
    return rc;
}

int bw_src_arr(struct bw_src *s, const json_t *obj, const char *key, bool required, const char *where,
               json_t **out)
{
    return member(s, obj, key, required, where, JSON_ARRAY, "a list", out);
}

int bw_src_obj(struct bw_src *s, const json_t *obj, const char *key, bool required, const char *where,
               json_t **out)
{
    return member(s, obj, key, required, where, JSON_OBJECT, "a mapping", out);
}

int bw_src_item(struct bw_src *s, const json_t *list, size_t i, const char *prefix, char *where, size_t cap)
{
    snprintf(where, cap, "%s[%zu]", prefix, i);
    const json_t *v = json_array_get(list, i);
    return json_is_object(v) ? 0 : bw_src_fail(s, v, list, "%s must be a mapping", where);
}

int bw_src_date(struct bw_src *s, const json_t *obj, const char *key, bool required, const char *where,
                char out[21])
{
    const char *v;
    out[0] = '\0';
    if (bw_src_str(s, obj, key, required, where, &v) != 0)
        return -1;
    if (v && bw_intel_date(v, out) != 0)
        return bw_src_fail(s, json_object_get(obj, key), obj, "%s: '%s' is not a date (YYYY-MM-DD or ISO 8601 UTC)",
                           where, key);
    return 0;
}
