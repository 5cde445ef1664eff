/* Compliance mapping (contract in compliance.h): the mapping document is parsed and checked once
 * into index tables (controls numbered across frameworks, themes as lists of control links,
 * triggers sorted for binary search); mapping records is then table lookups and accumulation
 * per control. The parsed document is kept: every string of the tables points into it. */
#include "engine/intel/compliance.h"

#include "common/embedded.h"
#include "engine/intel/attack.h"
#include "engine/intel/facts.h"
#include "engine/intel/ids.h"
#include "engine/intel/intel.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *const bw_compliance_framework_ids[BW_COMPLIANCE_FRAMEWORKS] = {
    "iso_27001_2022", "soc2_tsc", "nist_csf_2.0", "gdpr", "dpdp_2023", "owasp_llm_2025",
};

static const char *const AI_IMPACTS[] = {"agentic", "tool_execution", "model_supply_chain", "data_exposure",
                                         "prompt_injection", "model_theft", "availability"};

struct ctl {
    const char *id, *title;
};

struct fw {
    const char *name, *version;
    struct ctl *ctl; /* sorted by natcmp of id */
    size_t nctl;
    size_t base; /* number of the first control in the numbering across frameworks */
};

struct link {
    size_t ctl; /* across frameworks */
    const char *rationale;
};

struct theme {
    const char *name;
    struct link *links;
    size_t nlinks;
};

struct trig {
    const char *key;
    size_t *themes;
    size_t nthemes;
};

struct trigmap {
    struct trig *v; /* sorted by strcmp of key */
    size_t n;
};

struct bw_compliance {
    json_t *doc;
    const char *version;
    struct fw fw[BW_COMPLIANCE_FRAMEWORKS];
    size_t nctl;
    struct theme *themes; /* sorted by name */
    size_t nthemes;
    struct trig baseline, kev, exploit, atlas_any;
    struct trigmap type, cwe, attack, atlas, impact;
};

/* ---- shared helpers ----------------------------------------------------------------------- */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Compares ids with digit runs taken as numbers: A.8.8 < A.8.28, LLM2 < LLM10. */
static int natcmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (is_digit(*a) && is_digit(*b)) {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t na = 0, nb = 0;
            while (is_digit(a[na]))
                na++;
            while (is_digit(b[nb]))
                nb++;
            if (na != nb)
                return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c)
                return c;
            a += na;
            b += nb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int ctl_cmp(const void *x, const void *y)
{
    return natcmp(((const struct ctl *)x)->id, ((const struct ctl *)y)->id);
}

static int theme_cmp(const void *x, const void *y)
{
    return strcmp(((const struct theme *)x)->name, ((const struct theme *)y)->name);
}

static int trig_cmp(const void *x, const void *y)
{
    return strcmp(((const struct trig *)x)->key, ((const struct trig *)y)->key);
}

static int fw_index(const char *id)
{
    for (int i = 0; i < BW_COMPLIANCE_FRAMEWORKS; i++)
        if (strcmp(id, bw_compliance_framework_ids[i]) == 0)
            return i;
    return -1;
}

/* ---- loading ---------------------------------------------------------------------------- */

static void trig_free(struct trig *t)
{
    free(t->themes);
}

static void trigmap_free(struct trigmap *m)
{
    for (size_t i = 0; i < m->n; i++)
        trig_free(&m->v[i]);
    free(m->v);
}

void bw_compliance_free(struct bw_compliance *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < BW_COMPLIANCE_FRAMEWORKS; i++)
        free(c->fw[i].ctl);
    for (size_t i = 0; i < c->nthemes; i++)
        free(c->themes[i].links);
    free(c->themes);
    trig_free(&c->baseline);
    trig_free(&c->kev);
    trig_free(&c->exploit);
    trig_free(&c->atlas_any);
    trigmap_free(&c->type);
    trigmap_free(&c->cwe);
    trigmap_free(&c->attack);
    trigmap_free(&c->atlas);
    trigmap_free(&c->impact);
    json_decref(c->doc);
    free(c);
}

static const char *nonempty(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s && *s ? s : NULL;
}

static int load_frameworks(struct bw_compliance *c, const json_t *arr, char *why, size_t cap)
{
    if (!json_is_array(arr)) {
        snprintf(why, cap, "frameworks: not an array");
        return -1;
    }
    size_t i;
    const json_t *f;
    json_array_foreach(arr, i, f) {
        const char *id = nonempty(f, "id");
        int k = id ? fw_index(id) : -1;
        if (k < 0) {
            snprintf(why, cap, "frameworks[%zu]: unknown or missing id", i);
            return -1;
        }
        struct fw *w = &c->fw[k];
        if (w->name) {
            snprintf(why, cap, "frameworks[%zu]: %s listed twice", i, id);
            return -1;
        }
        w->name = nonempty(f, "name");
        w->version = nonempty(f, "version");
        const json_t *ctls = json_object_get(f, "controls");
        if (!w->name || !w->version || !json_is_array(ctls) || json_array_size(ctls) == 0) {
            snprintf(why, cap, "framework %s: name, version and a non-empty controls array are required", id);
            return -1;
        }
        w->nctl = json_array_size(ctls);
        w->ctl = calloc(w->nctl, sizeof *w->ctl);
        if (!w->ctl) {
            snprintf(why, cap, "out of memory");
            return -1;
        }
        size_t j;
        const json_t *ct;
        json_array_foreach(ctls, j, ct) {
            w->ctl[j].id = nonempty(ct, "id");
            w->ctl[j].title = nonempty(ct, "title");
            if (!w->ctl[j].id || !w->ctl[j].title) {
                snprintf(why, cap, "framework %s: control %zu needs an id and a title", id, j);
                return -1;
            }
        }
        qsort(w->ctl, w->nctl, sizeof *w->ctl, ctl_cmp);
        for (j = 1; j < w->nctl; j++)
            if (natcmp(w->ctl[j - 1].id, w->ctl[j].id) == 0) {
                snprintf(why, cap, "framework %s: control %s listed twice", id, w->ctl[j].id);
                return -1;
            }
    }
    for (size_t k = 0; k < BW_COMPLIANCE_FRAMEWORKS; k++) {
        if (!c->fw[k].name) {
            snprintf(why, cap, "framework %s is missing", bw_compliance_framework_ids[k]);
            return -1;
        }
        c->fw[k].base = c->nctl;
        c->nctl += c->fw[k].nctl;
    }
    return 0;
}

/* The number across frameworks of control id in framework k, or -1. */
static long ctl_find(const struct bw_compliance *c, size_t k, const char *id)
{
    const struct fw *w = &c->fw[k];
    size_t lo = 0, hi = w->nctl;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = natcmp(id, w->ctl[mid].id);
        if (r == 0)
            return strcmp(id, w->ctl[mid].id) == 0 ? (long)(w->base + mid) : -1;
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

static int load_themes(struct bw_compliance *c, const json_t *obj, char *why, size_t cap)
{
    if (!json_is_object(obj) || json_object_size(obj) == 0) {
        snprintf(why, cap, "themes: not a non-empty object");
        return -1;
    }
    c->themes = calloc(json_object_size(obj), sizeof *c->themes);
    if (!c->themes) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    const char *name;
    const json_t *th;
    json_object_foreach((json_t *)obj, name, th) {
        struct theme *t = &c->themes[c->nthemes++];
        t->name = name;
        const json_t *ctls = json_object_get(th, "controls");
        if (!nonempty(th, "label") || !json_is_object(ctls)) {
            snprintf(why, cap, "theme %s: a label and a controls object are required", name);
            return -1;
        }
        size_t total = 0;
        const char *fid;
        const json_t *links;
        json_object_foreach((json_t *)ctls, fid, links) {
            if (fw_index(fid) < 0 || !json_is_array(links)) {
                snprintf(why, cap, "theme %s: unknown framework %s or not an array", name, fid);
                return -1;
            }
            total += json_array_size(links);
        }
        if (total == 0) {
            snprintf(why, cap, "theme %s maps to no control", name);
            return -1;
        }
        t->links = calloc(total, sizeof *t->links);
        if (!t->links) {
            snprintf(why, cap, "out of memory");
            return -1;
        }
        /* links in framework order, whatever the order of the file */
        for (size_t k = 0; k < BW_COMPLIANCE_FRAMEWORKS; k++) {
            size_t i;
            const json_t *l;
            json_array_foreach(json_object_get(ctls, bw_compliance_framework_ids[k]), i, l) {
                const char *id = nonempty(l, "control"), *rat = nonempty(l, "rationale");
                long n = id ? ctl_find(c, k, id) : -1;
                if (n < 0 || !rat) {
                    snprintf(why, cap, "theme %s: %s control %s is not in the catalog or has no rationale", name,
                             bw_compliance_framework_ids[k], id ? id : "(none)");
                    return -1;
                }
                for (size_t j = 0; j < t->nlinks; j++)
                    if (t->links[j].ctl == (size_t)n) {
                        snprintf(why, cap, "theme %s: control %s listed twice", name, id);
                        return -1;
                    }
                t->links[t->nlinks++] = (struct link){(size_t)n, rat};
            }
        }
    }
    qsort(c->themes, c->nthemes, sizeof *c->themes, theme_cmp);
    return 0;
}

static long theme_find(const struct bw_compliance *c, const char *name)
{
    struct theme key = {.name = name};
    const struct theme *t = bsearch(&key, c->themes, c->nthemes, sizeof key, theme_cmp);
    return t ? t - c->themes : -1;
}

/* A list of theme names into t; used marks the themes referenced. */
static int load_trig(struct bw_compliance *c, struct trig *t, const char *key, const json_t *names, bool *used,
                     const char *where, char *why, size_t cap)
{
    t->key = key;
    if (!json_is_array(names) || json_array_size(names) == 0) {
        snprintf(why, cap, "triggers.%s: not a non-empty array of themes", where);
        return -1;
    }
    t->themes = calloc(json_array_size(names), sizeof *t->themes);
    if (!t->themes) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    size_t i;
    const json_t *v;
    json_array_foreach(names, i, v) {
        long n = json_is_string(v) ? theme_find(c, json_string_value(v)) : -1;
        if (n < 0) {
            snprintf(why, cap, "triggers.%s: unknown theme %s", where,
                     json_is_string(v) ? json_string_value(v) : "(not a string)");
            return -1;
        }
        used[n] = true;
        t->themes[t->nthemes++] = (size_t)n;
    }
    return 0;
}

enum keykind { K_TYPE, K_CWE, K_ATTACK, K_ATLAS, K_IMPACT };

static bool key_ok(enum keykind k, const char *s)
{
    switch (k) {
    case K_TYPE:
        for (size_t i = 0; i < BW_INTEL_NTYPES; i++)
            if (strcmp(s, bw_intel_types[i]) == 0)
                return true;
        return false;
    case K_CWE:
        return bw_cwe_number(s) >= 0;
    case K_ATTACK:
        return bw_attack_id_valid(s);
    case K_ATLAS:
        return bw_atlas_id_valid(s);
    case K_IMPACT:
        for (size_t i = 0; i < NELEM(AI_IMPACTS); i++)
            if (strcmp(s, AI_IMPACTS[i]) == 0)
                return true;
        return false;
    }
    return false;
}

static int load_trigmap(struct bw_compliance *c, struct trigmap *m, const json_t *obj, enum keykind kind,
                        bool *used, const char *where, char *why, size_t cap)
{
    if (!json_is_object(obj)) {
        snprintf(why, cap, "triggers.%s: not an object", where);
        return -1;
    }
    m->v = calloc(json_object_size(obj) + 1, sizeof *m->v);
    if (!m->v) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    const char *key;
    const json_t *names;
    json_object_foreach((json_t *)obj, key, names) {
        if (!key_ok(kind, key)) {
            snprintf(why, cap, "triggers.%s: %s is not a valid key", where, key);
            return -1;
        }
        char sub[96];
        snprintf(sub, sizeof sub, "%s.%.60s", where, key);
        if (load_trig(c, &m->v[m->n++], key, names, used, sub, why, cap) != 0)
            return -1;
    }
    qsort(m->v, m->n, sizeof *m->v, trig_cmp);
    return 0;
}

static int load_triggers(struct bw_compliance *c, const json_t *tr, char *why, size_t cap)
{
    static const char *const KNOWN[] = {"baseline", "kev", "exploit_available", "atlas", "type",
                                        "cwe", "attack", "atlas_techniques", "ai_impact"};
    if (!json_is_object(tr)) {
        snprintf(why, cap, "triggers: not an object");
        return -1;
    }
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)tr, k, v) {
        bool known = false;
        for (size_t i = 0; i < NELEM(KNOWN) && !known; i++)
            known = strcmp(k, KNOWN[i]) == 0;
        if (!known) {
            snprintf(why, cap, "triggers: unknown kind %s", k);
            return -1;
        }
    }
    bool *used = calloc(c->nthemes, sizeof *used);
    if (!used) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    int rc = -1;
    if (load_trig(c, &c->baseline, "baseline", json_object_get(tr, "baseline"), used, "baseline", why, cap) ||
        load_trig(c, &c->kev, "kev", json_object_get(tr, "kev"), used, "kev", why, cap) ||
        load_trig(c, &c->exploit, "exploit_available", json_object_get(tr, "exploit_available"), used,
                  "exploit_available", why, cap) ||
        load_trig(c, &c->atlas_any, "atlas", json_object_get(tr, "atlas"), used, "atlas", why, cap) ||
        load_trigmap(c, &c->type, json_object_get(tr, "type"), K_TYPE, used, "type", why, cap) ||
        load_trigmap(c, &c->cwe, json_object_get(tr, "cwe"), K_CWE, used, "cwe", why, cap) ||
        load_trigmap(c, &c->attack, json_object_get(tr, "attack"), K_ATTACK, used, "attack", why, cap) ||
        load_trigmap(c, &c->atlas, json_object_get(tr, "atlas_techniques"), K_ATLAS, used, "atlas_techniques",
                     why, cap) ||
        load_trigmap(c, &c->impact, json_object_get(tr, "ai_impact"), K_IMPACT, used, "ai_impact", why, cap))
        goto out;
    /* a theme nothing leads to is dead data, most likely a typo in a trigger */
    for (size_t i = 0; i < c->nthemes; i++)
        if (!used[i]) {
            snprintf(why, cap, "theme %s is not used by any trigger", c->themes[i].name);
            goto out;
        }
    rc = 0;
out:
    free(used);
    return rc;
}

int bw_compliance_load_text(const char *text, size_t len, struct bw_compliance **out, char *why, size_t cap)
{
    *out = NULL;
    json_error_t e;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
    if (!doc) {
        snprintf(why, cap, "mapping: %d:%d: %s", e.line, e.column, e.text);
        return -1;
    }
    struct bw_compliance *c = calloc(1, sizeof *c);
    if (!c) {
        json_decref(doc);
        snprintf(why, cap, "out of memory");
        return -1;
    }
    c->doc = doc;
    c->version = nonempty(doc, "mapping_version");
    if (!json_is_object(doc) || !c->version) {
        snprintf(why, cap, "mapping: not an object with a mapping_version");
        goto fail;
    }
    if (load_frameworks(c, json_object_get(doc, "frameworks"), why, cap) ||
        load_themes(c, json_object_get(doc, "themes"), why, cap) ||
        load_triggers(c, json_object_get(doc, "triggers"), why, cap))
        goto fail;
    *out = c;
    return 0;
fail:
    bw_compliance_free(c);
    return -1;
}

int bw_compliance_load(struct bw_compliance **out, char *why, size_t cap)
{
    const struct bw_embedded *f = bw_embedded_find(BW_COMPLIANCE_FILE);
    if (!f) {
        *out = NULL;
        snprintf(why, cap, "%s is not embedded", BW_COMPLIANCE_FILE);
        return -1;
    }
    char inner[224];
    if (bw_compliance_load_text((const char *)f->data, f->len, out, inner, sizeof inner) != 0) {
        snprintf(why, cap, "%s: %s", BW_COMPLIANCE_FILE, inner);
        return -1;
    }
    return 0;
}

/* ---- mapping ------------------------------------------------------------------------------ */

struct rec {
    const json_t *r;
    const char *id;
    size_t pos;
};

static int rec_cmp(const void *x, const void *y)
{
    const struct rec *a = x, *b = y;
    int c = strcmp(a->id, b->id);
    return c ? c : a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* What one control gathered over all records. */
struct acc {
    json_t *cves, *tids, *why; /* NULL until first used */
    const char *last_tid;      /* the record that touched it last */
    size_t why_start;          /* first why entry of that record */
};

struct run {
    const struct bw_compliance *c;
    struct acc *acc;
    bool *touched; /* by the current record */
    const char *tid;
    const json_t *rec_cves;
    bool fail;
};

/* Appends v (stolen, also on failure, as jansson does). */
static void push(struct run *r, json_t *a, json_t *v)
{
    if (!v || json_array_append_new(a, v) != 0)
        r->fail = true;
}

static json_t *new_array(struct run *r)
{
    json_t *a = json_array();
    if (!a)
        r->fail = true;
    return a;
}

/* Every control of the trigger's themes, with via as the reason. */
static void apply(struct run *r, const struct trig *t, const char *via)
{
    for (size_t i = 0; t && i < t->nthemes; i++) {
        const struct theme *th = &r->c->themes[t->themes[i]];
        for (size_t j = 0; j < th->nlinks; j++) {
            size_t k = th->links[j].ctl;
            struct acc *a = &r->acc[k];
            if (!a->why) {
                a->cves = new_array(r);
                a->tids = new_array(r);
                a->why = new_array(r);
                if (r->fail)
                    return;
            }
            if (!r->touched[k]) {
                r->touched[k] = true;
                if (!a->last_tid || strcmp(a->last_tid, r->tid) != 0)
                    push(r, a->tids, json_string(r->tid));
                a->last_tid = r->tid;
                a->why_start = json_array_size(a->why);
                size_t n;
                json_t *cv;
                json_array_foreach(r->rec_cves, n, cv) push(r, a->cves, json_incref(cv));
            }
            bool dup = false;
            for (size_t w = a->why_start; w < json_array_size(a->why) && !dup; w++)
                dup = strcmp(json_string_value(json_object_get(json_array_get(a->why, w), "via")), via) == 0;
            if (dup)
                continue;
            json_t *e = json_pack("{s:s, s:s, s:s}", "threat_id", r->tid, "via", via, "rationale",
                                  th->links[j].rationale);
            push(r, a->why, e);
        }
    }
}

static const struct trig *trig_find(const struct trigmap *m, const char *key)
{
    struct trig k = {.key = key};
    return m->n ? bsearch(&k, m->v, m->n, sizeof k, trig_cmp) : NULL;
}

/* Exact id, else its parent (T1059.006 -> T1059, AML.T0051.000 -> AML.T0051). */
static const struct trig *trig_find_parent(const struct trigmap *m, const char *id)
{
    const struct trig *t = trig_find(m, id);
    const char *dot = strrchr(id, '.');
    if (t || !dot || (size_t)(dot - id) >= 32)
        return t;
    char parent[32];
    memcpy(parent, id, (size_t)(dot - id));
    parent[dot - id] = '\0';
    return trig_find(m, parent);
}

static void map_record(struct run *r, const json_t *rec)
{
    const struct bw_compliance *c = r->c;
    size_t i;
    const json_t *v;
    char via[64];

    json_array_foreach(json_object_get(rec, "cwe"), i, v) {
        const char *s = json_string_value(v);
        if (i >= BW_COMPLIANCE_MAX_ITEMS)
            break;
        if (bw_cwe_number(s) >= 0)
            apply(r, trig_find(&c->cwe, s), s);
    }
    json_array_foreach(json_object_get(rec, "attack_techniques"), i, v) {
        const char *s = json_string_value(v);
        if (i >= BW_COMPLIANCE_MAX_ITEMS)
            break;
        if (s && bw_attack_id_valid(s))
            apply(r, trig_find_parent(&c->attack, s), s);
    }
    bool atlas = false;
    json_array_foreach(json_object_get(rec, "atlas_techniques"), i, v) {
        const char *s = json_string_value(v);
        if (i >= BW_COMPLIANCE_MAX_ITEMS)
            break;
        if (s && bw_atlas_id_valid(s)) {
            atlas = true;
            apply(r, trig_find_parent(&c->atlas, s), s);
        }
    }
    json_array_foreach(json_object_get(rec, "ai_impact"), i, v) {
        const char *s = json_string_value(v);
        if (i >= BW_COMPLIANCE_MAX_ITEMS)
            break;
        const struct trig *t = s ? trig_find(&c->impact, s) : NULL;
        if (t) {
            snprintf(via, sizeof via, "ai_impact:%s", t->key);
            apply(r, t, via);
        }
    }
    if (atlas)
        apply(r, &c->atlas_any, "atlas");
    const char *type = json_string_value(json_object_get(rec, "type"));
    const struct trig *tt = type ? trig_find(&c->type, type) : NULL;
    if (tt) {
        snprintf(via, sizeof via, "type:%s", tt->key);
        apply(r, tt, via);
    }
    if (json_is_true(json_object_get(rec, "kev")))
        apply(r, &c->kev, "kev");
    if (json_is_true(json_object_get(rec, "exploit_available")))
        apply(r, &c->exploit, "exploit_available");
    /* every vulnerability needs patching, whatever else is known about it */
    if (json_array_size(r->rec_cves) || json_array_size(json_object_get(rec, "affected")))
        apply(r, &c->baseline, "baseline");
}

static int str_natcmp(const void *x, const void *y)
{
    return natcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The strings of a, sorted naturally and unique, as a new array. */
static json_t *sorted_unique(struct run *r, const json_t *a)
{
    size_t n = json_array_size(a);
    json_t *out = new_array(r);
    const char **v = n ? malloc(n * sizeof *v) : NULL;
    if (n && !v) {
        r->fail = true;
        return out;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = json_string_value(json_array_get(a, i));
    if (n > 1)
        qsort(v, n, sizeof *v, str_natcmp);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
            push(r, out, json_string(v[i]));
    free(v);
    return out;
}

/* Sets o[k] = v (stolen, also on failure: json_object_set_new releases v when o is NULL). */
static void set(struct run *r, json_t *o, const char *k, json_t *v)
{
    if (!v || json_object_set_new(o, k, v) != 0)
        r->fail = true;
}

json_t *bw_compliance_map(const struct bw_compliance *c, const json_t *const *records, size_t n)
{
    struct run r = {.c = c};
    struct rec *recs = calloc(n ? n : 1, sizeof *recs);
    r.acc = calloc(c->nctl, sizeof *r.acc);
    r.touched = calloc(c->nctl, sizeof *r.touched);
    json_t *out = json_object(), *per = json_array(), *fws = json_array();
    if (!recs || !r.acc || !r.touched || !out || !per || !fws)
        r.fail = true;

    size_t nrec = 0;
    for (size_t i = 0; !r.fail && i < n; i++) {
        const char *id = json_string_value(json_object_get(records[i], "id"));
        if (json_is_object(records[i]) && id && bw_intel_id_valid(id))
            recs[nrec++] = (struct rec){records[i], id, i};
    }
    if (!r.fail)
        qsort(recs, nrec, sizeof *recs, rec_cmp);

    for (size_t i = 0; !r.fail && i < nrec; i++) {
        memset(r.touched, 0, c->nctl * sizeof *r.touched);
        r.tid = recs[i].id;
        json_t *cves = new_array(&r);
        const char *cve_ids[BW_COMPLIANCE_MAX_ITEMS];
        size_t ncve = bw_facts_ids(json_object_get(recs[i].r, "cve"), bw_cve_valid, BW_COMPLIANCE_MAX_ITEMS,
                                   BW_COMPLIANCE_MAX_ITEMS, cve_ids);
        for (size_t k = 0; k < ncve; k++)
            push(&r, cves, json_string(cve_ids[k]));
        r.rec_cves = cves;
        map_record(&r, recs[i].r);

        json_t *gaps = json_object(), *entry = json_object();
        for (size_t f = 0; f < BW_COMPLIANCE_FRAMEWORKS; f++) {
            json_t *ids = new_array(&r);
            const struct fw *w = &c->fw[f];
            for (size_t k = 0; k < w->nctl; k++)
                if (r.touched[w->base + k])
                    push(&r, ids, json_string(w->ctl[k].id));
            set(&r, gaps, bw_compliance_framework_ids[f], ids);
        }
        set(&r, entry, "threat_id", json_string(r.tid));
        set(&r, entry, "cve", cves);
        set(&r, entry, "gaps", gaps);
        push(&r, per, entry);
    }

    for (size_t f = 0; !r.fail && f < BW_COMPLIANCE_FRAMEWORKS; f++) {
        const struct fw *w = &c->fw[f];
        json_t *ctls = new_array(&r);
        for (size_t k = 0; k < w->nctl; k++) {
            struct acc *a = &r.acc[w->base + k];
            if (!a->why || json_array_size(a->why) == 0)
                continue;
            json_t *o = json_object();
            set(&r, o, "control_id", json_string(w->ctl[k].id));
            set(&r, o, "title", json_string(w->ctl[k].title));
            set(&r, o, "cves", sorted_unique(&r, a->cves));
            set(&r, o, "threat_ids", json_incref(a->tids));
            set(&r, o, "why", json_incref(a->why));
            push(&r, ctls, o);
        }
        json_t *fo = json_object();
        set(&r, fo, "id", json_string(bw_compliance_framework_ids[f]));
        set(&r, fo, "name", json_string(w->name));
        set(&r, fo, "version", json_string(w->version));
        set(&r, fo, "controls_affected", json_integer((json_int_t)json_array_size(ctls)));
        set(&r, fo, "controls", ctls);
        push(&r, fws, fo);
    }
    set(&r, out, "mapping_version", json_string(c->version));
    set(&r, out, "frameworks", fws);
    fws = NULL;
    set(&r, out, "cves", per);
    per = NULL;

    for (size_t k = 0; r.acc && k < c->nctl; k++) {
        json_decref(r.acc[k].cves);
        json_decref(r.acc[k].tids);
        json_decref(r.acc[k].why);
    }
    free(r.acc);
    free(r.touched);
    free(recs);
    if (r.fail) {
        json_decref(out);
        return NULL;
    }
    return out;
}
