/* OSV advisories (ossf.github.io/osv-schema; YAML or JSON, one advisory per document) ->
 * records. */
#include "engine/intel/cvss.h"
#include "engine/intel/normalize.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool is_cve(const char *s) { return s && strncmp(s, "CVE-", 4) == 0 && bw_intel_id_valid(s); }

/* The affected ranges of one package: introduced/fixed pairs of its ECOSYSTEM and SEMVER ranges,
 * in the order the events come; the fixed versions also go to fixed[] for the summary. */
static int ranges(struct bw_src *s, json_t *r, const json_t *aff, const char *where, const char *eco,
                  const char *pkg, json_t *fixed)
{
    json_t *rs;
    if (bw_src_arr(s, aff, "ranges", false, where, &rs) != 0)
        return -1;
    size_t i, k;
    json_t *range, *ev;
    bool any = false;
    json_array_foreach(rs, i, range) {
        char w[96], prefix[64];
        snprintf(prefix, sizeof prefix, "%s.ranges", where);
        const char *type;
        json_t *events;
        if (bw_src_item(s, rs, i, prefix, w, sizeof w) != 0)
            return -1;
        if (bw_src_str(s, range, "type", true, w, &type) || bw_src_arr(s, range, "events", true, w, &events))
            return -1;
        const char *intro = NULL;
        json_array_foreach(events, k, ev) {
            const char *key;
            json_t *val;
            if (!json_is_object(ev) || json_object_size(ev) != 1)
                return bw_src_fail(s, ev, events, "%s.events[%zu] must be a mapping with one member", w, k);
            json_object_foreach(ev, key, val) {
                if (!json_is_string(val))
                    return bw_src_fail(s, val, ev, "%s.events[%zu].%s must be a string", w, k, key);
                if (strcmp(type, "ECOSYSTEM") != 0 && strcmp(type, "SEMVER") != 0)
                    continue; /* GIT ranges name commits, not releases */
                const char *x = json_string_value(val);
                if (strcmp(key, "introduced") == 0) {
                    if (intro)
                        bw_rec_add_affected(r, "", "", eco, pkg, intro, "");
                    intro = x;
                } else if (strcmp(key, "fixed") == 0 || strcmp(key, "last_affected") == 0) {
                    bool f = key[0] == 'f';
                    bw_rec_add_affected(r, "", "", eco, pkg, intro ? intro : "0", f ? x : "");
                    if (f)
                        json_array_append_new(fixed, json_string(x));
                    intro = NULL;
                    any = true;
                }
            }
        }
        if (intro) {
            bw_rec_add_affected(r, "", "", eco, pkg, intro, "");
            any = true;
        }
    }
    if (!any)
        bw_rec_add_affected(r, "", "", eco, pkg, "", "");
    return 0;
}

static int affected(struct bw_src *s, json_t *r, const json_t *root, json_t *fixed, const char **pkg,
                    const char **eco)
{
    json_t *affs;
    if (bw_src_arr(s, root, "affected", false, "advisory", &affs) != 0)
        return -1;
    size_t i;
    json_t *a;
    json_array_foreach(affs, i, a) {
        char where[48];
        json_t *p;
        const char *name = NULL, *ecosystem = NULL;
        if (bw_src_item(s, affs, i, "affected", where, sizeof where) != 0)
            return -1;
        if (bw_src_obj(s, a, "package", false, where, &p) != 0)
            return -1;
        if (p && (bw_src_str(s, p, "name", true, where, &name) || bw_src_str(s, p, "ecosystem", true, where, &ecosystem)))
            return -1;
        if (!*pkg && name) {
            *pkg = name;
            *eco = ecosystem;
        }
        if (ranges(s, r, a, where, ecosystem ? ecosystem : "", name ? name : "", fixed) != 0)
            return -1;
    }
    return 0;
}

static int severity(struct bw_src *s, json_t *r, const json_t *root, const char **sev)
{
    json_t *list, *item, *dbs;
    *sev = NULL;
    if (bw_src_arr(s, root, "severity", false, "advisory", &list) != 0)
        return -1;
    size_t i;
    json_array_foreach(list, i, item) {
        char where[32];
        const char *type, *score;
        if (bw_src_item(s, list, i, "severity", where, sizeof where) != 0)
            return -1;
        if (bw_src_str(s, item, "type", true, where, &type) || bw_src_str(s, item, "score", true, where, &score))
            return -1;
        if (strcmp(type, "CVSS_V3") != 0 || !json_is_null(json_object_get(r, "cvss")))
            continue; /* v2 and v4 vectors are not scored here; the first v3 one counts */
        struct bw_cvss c;
        if (bw_cvss_parse(score, &c) != 0)
            return bw_src_fail(s, json_object_get(item, "score"), item, "%s: 'score' is not a CVSS v3 vector", where);
        json_object_set_new(r, "cvss", json_pack("{s:s,s:s,s:f}", "version", c.version, "vector", score,
                                                 "base_score", c.base_score));
        *sev = bw_cvss_severity(c.base_score);
    }
    /* GitHub-reviewed advisories carry a word instead of a vector */
    if (*sev)
        return 0;
    if (bw_src_obj(s, root, "database_specific", false, "advisory", &dbs) != 0)
        return -1;
    const char *w = json_string_value(json_object_get(dbs, "severity"));
    if (w && strcasecmp(w, "moderate") == 0)
        *sev = "MEDIUM";
    else
        for (size_t k = 0; w && k < 4; k++)
            if (strcasecmp(w, bw_intel_severities[k]) == 0)
                *sev = bw_intel_severities[k];
    return 0;
}

static int references(struct bw_src *s, json_t *r, const json_t *root)
{
    json_t *refs, *ref;
    if (bw_src_arr(s, root, "references", false, "advisory", &refs) != 0)
        return -1;
    size_t i;
    json_array_foreach(refs, i, ref) {
        char where[40];
        const char *type, *url;
        if (bw_src_item(s, refs, i, "references", where, sizeof where) != 0)
            return -1;
        if (bw_src_str(s, ref, "type", true, where, &type) || bw_src_str(s, ref, "url", true, where, &url))
            return -1;
        if (strcmp(type, "EVIDENCE") == 0 || strstr(url, "exploit-db.com"))
            json_object_set_new(r, "exploit_available", json_true());
        bw_rec_add_ref(r, url, strcmp(type, "ADVISORY") == 0 ? "advisory" : "web");
    }
    return 0;
}

/* ", fixed in 1.15.4, 2.0.3 and 2 more" */
static void fixed_phrase(const json_t *fixed, char *out, size_t cap)
{
    size_t n = json_array_size(fixed), shown = n > 3 ? 3 : n;
    if (!n) {
        snprintf(out, cap, ", no fixed version listed");
        return;
    }
    size_t len = (size_t)snprintf(out, cap, ", fixed in ");
    for (size_t i = 0; i < shown && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? (i + 1 == shown && n == shown ? " and " : ", ") : "",
                                json_string_value(json_array_get(fixed, i)));
    if (n > shown && len < cap)
        snprintf(out + len, cap - len, " and %zu more", n - shown);
}

/* fixed versions in first-seen order, without repeats */
static void unique(json_t *fixed)
{
    for (size_t i = 0; i < json_array_size(fixed); i++)
        for (size_t j = i + 1; j < json_array_size(fixed);)
            if (json_equal(json_array_get(fixed, i), json_array_get(fixed, j)))
                json_array_remove(fixed, j);
            else
                j++;
}

int bw_intel_osv(const struct bw_tree *t, json_t **out, struct bw_intel_reject *rej)
{
    struct bw_src s = {t, rej};
    const json_t *root = t->root;
    *out = NULL;
    if (!json_is_object(root))
        return bw_src_fail(&s, root, NULL, "an OSV advisory must be a mapping");
    const char *osv_id, *summary = NULL, *details = NULL, *withdrawn = NULL;
    char modified[21], published[21];
    json_t *aliases;
    if (bw_src_str(&s, root, "id", true, "advisory", &osv_id) ||
        bw_src_date(&s, root, "modified", true, "advisory", modified) ||
        bw_src_date(&s, root, "published", false, "advisory", published) ||
        bw_src_str(&s, root, "withdrawn", false, "advisory", &withdrawn) ||
        bw_src_str(&s, root, "summary", false, "advisory", &summary) ||
        bw_src_str(&s, root, "details", false, "advisory", &details) ||
        bw_src_arr(&s, root, "aliases", false, "advisory", &aliases))
        return -1;
    if (!bw_intel_id_valid(osv_id))
        return bw_src_fail(&s, json_object_get(root, "id"), root, "advisory: 'id' is not a valid advisory id");
    size_t i;
    json_t *a;
    const char *id = is_cve(osv_id) ? osv_id : NULL;
    json_array_foreach(aliases, i, a) {
        if (!json_is_string(a) || !bw_intel_id_valid(json_string_value(a)))
            return bw_src_fail(&s, a, aliases, "advisory: aliases[%zu] must be an advisory id", i);
        if (!id && is_cve(json_string_value(a)))
            id = json_string_value(a);
    }
    if (!id)
        id = osv_id;
    if (withdrawn)
        return 0;
    char text[8192];
    snprintf(text, sizeof text, "%s. %s", summary ? summary : "", details ? details : "");
    json_t *r = bw_rec_new(id, "ai_cve", "osv"), *fixed = json_array();
    const char *pkg = NULL, *eco = NULL, *sev = NULL;
    if (!r || !fixed || affected(&s, r, root, fixed, &pkg, &eco) || severity(&s, r, root, &sev) ||
        references(&s, r, root)) {
        if (!r || !fixed)
            bw_src_fail(&s, root, NULL, "out of memory");
        json_decref(r);
        json_decref(fixed);
        return -1;
    }
    if (strcmp(osv_id, id) != 0)
        bw_rec_add(r, "aliases", osv_id);
    json_array_foreach(aliases, i, a) {
        const char *x = json_string_value(a);
        if (strcmp(x, id) != 0)
            bw_rec_add(r, "aliases", x);
        if (is_cve(x))
            bw_rec_add(r, "cve", x);
    }
    if (is_cve(osv_id))
        bw_rec_add(r, "cve", osv_id);
    bool model = bw_model_artifact(text, pkg);
    bw_rec_str(r, "type", model ? "model_advisory" : "ai_cve");
    const char *est;
    struct bw_text_class cls = bw_classify(r, text, &est);
    if (bw_text_has(text, "remote")) {
        bw_rec_add(r, "attack_techniques", "T1190");
        bw_rec_add(r, "atlas_techniques", "AML.T0049");
    }
    if (model) {
        bw_rec_impact(r, "model_supply_chain");
        bw_rec_add(r, "attack_techniques", "T1204.002");
        bw_rec_add(r, "atlas_techniques", "AML.T0010.003");
        bw_rec_add(r, "atlas_techniques", "AML.T0011.000");
    }
    if (bw_llm_framework(pkg))
        bw_rec_impact(r, "agentic");
    bw_rec_str(r, "severity", sev ? sev : est);
    bw_rec_str(r, "published", published[0] ? published : modified);
    bw_rec_str(r, "updated", modified);
    char url[160];
    snprintf(url, sizeof url, "https://osv.dev/vulnerability/%s", osv_id);
    bw_rec_add_ref(r, url, "advisory");
    json_array_foreach(json_object_get(r, "cve"), i, a) {
        snprintf(url, sizeof url, "https://nvd.nist.gov/vuln/detail/%s", json_string_value(a));
        bw_rec_add_ref(r, url, "nvd");
    }
    /* the title: the advisory's own one-line summary when it has one, else what and where */
    char title[256], label[64], sym[64], fx[256], sum[1500];
    const char *name = pkg ? pkg : osv_id;
    snprintf(label, sizeof label, "%s", cls.label);
    bw_text_symbol(details, sym, sizeof sym);
    if (summary && *summary)
        snprintf(title, sizeof title, "%s: %.200s", name, summary);
    else if (sym[0])
        snprintf(title, sizeof title, "%s: %s in %s", name, label, sym);
    else
        snprintf(title, sizeof title, "%s: %s", name, label);
    unique(fixed);
    fixed_phrase(fixed, fx, sizeof fx);
    label[0] = (char)toupper((unsigned char)label[0]);
    snprintf(sum, sizeof sum, "%s in %s%s%s%s%s%s%s. %s%s%s", label, name, eco ? " (" : "", eco ? eco : "",
             eco ? ")" : "", sym[0] ? ", in " : "", sym, fx, cls.sentence,
             model ? " It is reached through a crafted or malicious model file." : "",
             bw_llm_framework(pkg) ? " The package orchestrates LLMs, so model output can reach the flaw." : "");
    bw_rec_str(r, "title", title);
    bw_rec_str(r, "summary", sum);
    bw_rec_normalise(r);
    json_decref(fixed);
    *out = r;
    return 0;
}
