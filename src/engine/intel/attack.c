/* ATT&CK and ATLAS tables: parsed once from the embedded JSON into id-sorted arrays. Names and ids
 * point into the parsed documents, which are kept for the life of the process; URLs are built
 * here (trailing '/', sub-technique as a path segment). Every record struct starts with its id,
 * so one bsearch/qsort comparator serves them all. */
#include "engine/intel/attack.h"

#include "common/embedded.h"

#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tables {
    json_t *attack_doc, *atlas_doc; /* own every name/id string below */
    const char *attack_source, *atlas_source;
    struct bw_attack_tactic *tactics;
    size_t n_tactics;
    struct bw_attack_mitigation *mits;
    size_t n_mits;
    struct bw_attack_technique *techs;
    size_t n_techs;
    struct bw_atlas_tactic *atactics;
    size_t n_atactics;
    struct bw_atlas_mitigation *amits;
    size_t n_amits;
    struct bw_atlas_technique *atechs;
    size_t n_atechs;
};

static struct tables T;
static int loaded_rc = -1;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* ---- small helpers ---------------------------------------------------------------------- */

static int by_id(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int key_by_id(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

static const void *find_id(const void *base, size_t n, size_t size, const char *id)
{
    if (!base || !id)
        return NULL;
    return bsearch(id, base, n, size, key_by_id);
}

/* A table as n records of size bytes from base, whatever their type. */
struct view {
    const char *base;
    size_t n, size;
};
#define VIEW(arr, count) ((struct view){(const char *)(arr), (count), sizeof *(arr)})

/* What one technique -> mitigation pair links: their places in their tables. */
struct pair {
    size_t tech, mit;
};

static int pair_cmp(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->tech != y->tech)
        return x->tech < y->tech ? -1 : 1;
    return (x->mit > y->mit) - (x->mit < y->mit);
}

/* The pairs of a table ([[technique id, mitigation id], ...]) as one call attach(technique, its
 * mitigations, n) per technique that has any: mitigations distinct and in table order, which is
 * id order (both tables are sorted by id). Pairs naming an unknown id are left out. ATT&CK and
 * ATLAS differ only in the types attach fills in. */
static int link_mitigations(const json_t *pairs, struct view techs, struct view mits,
                            int (*attach)(size_t tech, const size_t *mit, size_t n))
{
    size_t n = 0, i;
    const json_t *p;
    struct pair *v = calloc(json_array_size(pairs) + 1, sizeof *v);
    size_t *mit = calloc(json_array_size(pairs) + 1, sizeof *mit);
    int rc = v && mit ? 0 : -1;
    json_array_foreach(pairs, i, p) {
        const char *t = find_id(techs.base, techs.n, techs.size, json_string_value(json_array_get(p, 0)));
        const char *m = find_id(mits.base, mits.n, mits.size, json_string_value(json_array_get(p, 1)));
        if (rc == 0 && t && m)
            v[n++] = (struct pair){(size_t)(t - techs.base) / techs.size, (size_t)(m - mits.base) / mits.size};
    }
    if (n > 1)
        qsort(v, n, sizeof *v, pair_cmp);
    for (i = 0; rc == 0 && i < n;) {
        size_t k = 0, tech = v[i].tech;
        for (; i < n && v[i].tech == tech; i++)
            if (k == 0 || mit[k - 1] != v[i].mit)
                mit[k++] = v[i].mit;
        rc = attach(tech, mit, k);
    }
    free(v);
    free(mit);
    return rc;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

static const char *str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static bool digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* `prefix` + 4 digits, optionally "." + 3 digits */
static bool id_shape(const char *id, const char *prefix)
{
    if (!id)
        return false;
    size_t p = strlen(prefix), n = strlen(id);
    if (strncmp(id, prefix, p) != 0)
        return false;
    if (n == p + 4)
        return digits(id + p, 4);
    return n == p + 8 && digits(id + p, 4) && id[p + 4] == '.' && digits(id + p + 5, 3);
}

bool bw_attack_id_valid(const char *id)
{
    return id_shape(id, "T");
}

bool bw_atlas_id_valid(const char *id)
{
    return id_shape(id, "AML.T");
}

/* The parent id of a sub-technique id ("T1059.006" -> "T1059") in buf, or NULL. */
static const char *parent_id(const char *id, char *buf, size_t len)
{
    const char *dot = id ? strrchr(id, '.') : NULL;
    if (!dot || (size_t)(dot - id) >= len || strlen(dot) != 4)
        return NULL;
    memcpy(buf, id, (size_t)(dot - id));
    buf[dot - id] = '\0';
    return buf;
}

/* ---- ATT&CK --------------------------------------------------------------------------- */

static int tactic_order(const void *a, const void *b)
{
    const struct bw_attack_tactic *x = *(const struct bw_attack_tactic *const *)a;
    const struct bw_attack_tactic *y = *(const struct bw_attack_tactic *const *)b;
    return (x->order > y->order) - (x->order < y->order);
}

/* By id or shortname; usable while loading (the public getter would re-enter pthread_once). */
static const struct bw_attack_tactic *tactic_find(const char *key)
{
    for (size_t i = 0; key && i < T.n_tactics; i++)
        if (strcmp(T.tactics[i].id, key) == 0 || strcmp(T.tactics[i].shortname, key) == 0)
            return &T.tactics[i];
    return NULL;
}

static int load_attack_tactics(const json_t *arr)
{
    size_t n = json_array_size(arr), i;
    T.tactics = calloc(n ? n : 1, sizeof *T.tactics);
    if (!T.tactics)
        return -1;
    json_t *t;
    json_array_foreach(arr, i, t) {
        const char *id = str(t, "id"), *sn = str(t, "shortname"), *name = str(t, "name");
        if (!id || !sn || !name)
            continue;
        struct bw_attack_tactic *x = &T.tactics[T.n_tactics];
        x->id = id;
        x->shortname = sn;
        x->name = name;
        x->url = fmt("https://attack.mitre.org/tactics/%s/", id);
        x->order = (unsigned)T.n_tactics;
        if (!x->url)
            return -1;
        T.n_tactics++;
    }
    return T.n_tactics ? 0 : -1;
}

static int load_attack_mitigations(const json_t *arr)
{
    size_t n = json_array_size(arr), i;
    T.mits = calloc(n ? n : 1, sizeof *T.mits);
    if (!T.mits)
        return -1;
    json_t *m;
    json_array_foreach(arr, i, m) {
        const char *id = str(m, "id"), *name = str(m, "name");
        if (!id || !name)
            continue;
        struct bw_attack_mitigation *x = &T.mits[T.n_mits++];
        x->id = id;
        x->name = name;
        x->url = fmt("https://attack.mitre.org/mitigations/%s/", id);
        if (!x->url)
            return -1;
    }
    qsort(T.mits, T.n_mits, sizeof *T.mits, by_id);
    return 0;
}

static int load_attack_techniques(const json_t *arr)
{
    size_t n = json_array_size(arr), i;
    T.techs = calloc(n ? n : 1, sizeof *T.techs);
    if (!T.techs)
        return -1;
    json_t *t;
    json_array_foreach(arr, i, t) {
        const char *id = str(t, "id"), *name = str(t, "name");
        if (!bw_attack_id_valid(id) || !name)
            continue;
        struct bw_attack_technique *x = &T.techs[T.n_techs++];
        x->id = id;
        x->name = name;
        /* T1059.006 -> .../techniques/T1059/006/ */
        x->url = strlen(id) == 9 ? fmt("https://attack.mitre.org/techniques/%.5s/%s/", id, id + 6)
                                 : fmt("https://attack.mitre.org/techniques/%s/", id);
        if (!x->url)
            return -1;
        const json_t *tl = json_object_get(t, "tactics");
        const struct bw_attack_tactic **tac = calloc(json_array_size(tl) + 1, sizeof *tac);
        if (!tac)
            return -1;
        size_t k;
        json_t *tv;
        json_array_foreach(tl, k, tv) {
            const struct bw_attack_tactic *found = tactic_find(json_string_value(tv));
            bool dup = false;
            for (size_t j = 0; j < x->n_tactics; j++)
                dup |= tac[j] == found;
            if (found && !dup)
                tac[x->n_tactics++] = found;
        }
        qsort(tac, x->n_tactics, sizeof *tac, tactic_order);
        x->tactics = tac;
    }
    qsort(T.techs, T.n_techs, sizeof *T.techs, by_id);
    /* parents once sorted, so the pointers are final */
    json_array_foreach(arr, i, t) {
        const char *id = str(t, "id"), *pid = str(t, "subtechnique_of");
        struct bw_attack_technique *x = (struct bw_attack_technique *)find_id(T.techs, T.n_techs, sizeof *T.techs, id);
        if (x && pid)
            x->parent = find_id(T.techs, T.n_techs, sizeof *T.techs, pid);
    }
    return T.n_techs ? 0 : -1;
}

static int attach_attack(size_t tech, const size_t *mit, size_t n)
{
    const struct bw_attack_mitigation **v = calloc(n, sizeof *v);
    if (!v)
        return -1;
    for (size_t k = 0; k < n; k++)
        v[k] = &T.mits[mit[k]];
    T.techs[tech].mitigations = v;
    T.techs[tech].n_mitigations = n;
    return 0;
}

static int load_attack_pairs(const json_t *arr)
{
    if (link_mitigations(arr, VIEW(T.techs, T.n_techs), VIEW(T.mits, T.n_mits), attach_attack))
        return -1;
    /* a sub-technique without mitigations of its own shows its parent's */
    for (size_t i = 0; i < T.n_techs; i++) {
        struct bw_attack_technique *t = &T.techs[i];
        if (t->n_mitigations == 0 && t->parent && t->parent->n_mitigations) {
            t->mitigations = t->parent->mitigations;
            t->n_mitigations = t->parent->n_mitigations;
            t->mitigations_inherited = true;
        }
    }
    return 0;
}

/* ---- ATLAS ---------------------------------------------------------------------------- */

static int atlas_tactic_order(const void *a, const void *b)
{
    const struct bw_atlas_tactic *x = *(const struct bw_atlas_tactic *const *)a;
    const struct bw_atlas_tactic *y = *(const struct bw_atlas_tactic *const *)b;
    return (x->order > y->order) - (x->order < y->order);
}

static int attach_atlas(size_t tech, const size_t *mit, size_t n)
{
    const struct bw_atlas_mitigation **v = calloc(n, sizeof *v);
    if (!v)
        return -1;
    for (size_t k = 0; k < n; k++)
        v[k] = &T.amits[mit[k]];
    T.atechs[tech].mitigations = v;
    T.atechs[tech].n_mitigations = n;
    return 0;
}

static int load_atlas(const json_t *doc)
{
    const json_t *arr = json_object_get(doc, "tactics");
    size_t i, k;
    json_t *t, *v;
    T.atactics = calloc(json_array_size(arr) + 1, sizeof *T.atactics);
    if (!T.atactics)
        return -1;
    json_array_foreach(arr, i, t) {
        const char *id = str(t, "id"), *name = str(t, "name"), *url = str(t, "url");
        if (!id || !name || !url)
            continue;
        struct bw_atlas_tactic *x = &T.atactics[T.n_atactics];
        x->id = id;
        x->name = name;
        x->url = url;
        x->attack = tactic_find(str(t, "attack_tactic"));
        x->order = (unsigned)T.n_atactics++;
    }
    arr = json_object_get(doc, "mitigations");
    T.amits = calloc(json_array_size(arr) + 1, sizeof *T.amits);
    if (!T.amits)
        return -1;
    json_array_foreach(arr, i, t) {
        const char *id = str(t, "id"), *name = str(t, "name"), *url = str(t, "url");
        if (!id || !name || !url)
            continue;
        T.amits[T.n_amits++] = (struct bw_atlas_mitigation){id, name, url};
    }
    qsort(T.amits, T.n_amits, sizeof *T.amits, by_id);

    arr = json_object_get(doc, "techniques");
    T.atechs = calloc(json_array_size(arr) + 1, sizeof *T.atechs);
    if (!T.atechs)
        return -1;
    json_array_foreach(arr, i, t) {
        const char *id = str(t, "id"), *name = str(t, "name"), *url = str(t, "url");
        if (!bw_atlas_id_valid(id) || !name || !url)
            continue;
        struct bw_atlas_technique *x = &T.atechs[T.n_atechs++];
        x->id = id;
        x->name = name;
        x->url = url;
        x->attack_reference = find_id(T.techs, T.n_techs, sizeof *T.techs, str(t, "attack_reference"));
        const json_t *tl = json_object_get(t, "tactics");
        const struct bw_atlas_tactic **tac = calloc(json_array_size(tl) + 1, sizeof *tac);
        if (!tac)
            return -1;
        json_array_foreach(tl, k, v) {
            for (size_t j = 0; j < T.n_atactics; j++)
                if (json_string_value(v) && strcmp(T.atactics[j].id, json_string_value(v)) == 0) {
                    tac[x->n_tactics++] = &T.atactics[j];
                    break;
                }
        }
        qsort(tac, x->n_tactics, sizeof *tac, atlas_tactic_order);
        x->tactics = tac;
    }
    qsort(T.atechs, T.n_atechs, sizeof *T.atechs, by_id);
    json_array_foreach(arr, i, t) {
        struct bw_atlas_technique *x = (struct bw_atlas_technique *)find_id(T.atechs, T.n_atechs, sizeof *T.atechs, str(t, "id"));
        const char *pid = str(t, "subtechnique_of");
        if (x && pid)
            x->parent = find_id(T.atechs, T.n_atechs, sizeof *T.atechs, pid);
    }

    if (link_mitigations(json_object_get(doc, "technique_mitigations"), VIEW(T.atechs, T.n_atechs),
                         VIEW(T.amits, T.n_amits), attach_atlas))
        return -1;
    for (i = 0; i < T.n_atechs; i++) {
        struct bw_atlas_technique *x = &T.atechs[i];
        /* sub-techniques carry no tactics in ATLAS; they act under their parent's */
        if (x->parent && x->n_tactics == 0) {
            free((void *)x->tactics); /* its own, empty */
            x->tactics = x->parent->tactics;
            x->n_tactics = x->parent->n_tactics;
        }
    }
    for (i = 0; i < T.n_atechs; i++) {
        struct bw_atlas_technique *x = &T.atechs[i];
        if (x->parent && x->n_mitigations == 0 && x->parent->n_mitigations) {
            x->mitigations = x->parent->mitigations;
            x->n_mitigations = x->parent->n_mitigations;
        }
    }
    return 0;
}

/* ---- loading -------------------------------------------------------------------------- */

static json_t *load_embedded(const char *name)
{
    const struct bw_embedded *e = bw_embedded_find(name);
    if (!e)
        return NULL;
    return json_loadb((const char *)e->data, e->len, 0, NULL);
}

static void load_once(void)
{
    T.attack_doc = load_embedded(BW_ATTACK_FILE);
    if (!T.attack_doc)
        return;
    T.attack_source = str(T.attack_doc, "source");
    if (load_attack_tactics(json_object_get(T.attack_doc, "tactics")) ||
        load_attack_mitigations(json_object_get(T.attack_doc, "mitigations")) ||
        load_attack_techniques(json_object_get(T.attack_doc, "techniques")) ||
        load_attack_pairs(json_object_get(T.attack_doc, "technique_mitigations")))
        return;
    /* Published before ATLAS loads: ATLAS links into the ATT&CK tables through the getters. */
    loaded_rc = 0;
    T.atlas_doc = load_embedded(BW_ATLAS_FILE);
    if (T.atlas_doc) {
        T.atlas_source = str(T.atlas_doc, "source");
        if (load_atlas(T.atlas_doc))
            T.n_atechs = T.n_atactics = T.n_amits = 0; /* ATT&CK stays usable without ATLAS */
    }
}

int bw_attack_load(void)
{
    pthread_once(&once, load_once);
    return loaded_rc;
}

static bool ready(void)
{
    return bw_attack_load() == 0;
}

/* ---- getters ---------------------------------------------------------------------------- */

enum table { TACTICS, MITIGATIONS, TECHNIQUES, ATLAS_TACTICS, ATLAS_MITIGATIONS, ATLAS_TECHNIQUES };

/* One table; empty when the tables could not be loaded. */
static struct view view(enum table t)
{
    if (!ready()) /* also what makes T's fields safe to read (pthread_once) */
        return (struct view){NULL, 0, 1};
    switch (t) {
    case TACTICS: return VIEW(T.tactics, T.n_tactics);
    case MITIGATIONS: return VIEW(T.mits, T.n_mits);
    case TECHNIQUES: return VIEW(T.techs, T.n_techs);
    case ATLAS_TACTICS: return VIEW(T.atactics, T.n_atactics);
    case ATLAS_MITIGATIONS: return VIEW(T.amits, T.n_amits);
    case ATLAS_TECHNIQUES: return VIEW(T.atechs, T.n_atechs);
    }
    return (struct view){NULL, 0, 1};
}

static size_t count(enum table t)
{
    return view(t).n;
}

static const void *at(enum table t, size_t i)
{
    struct view v = view(t);
    return i < v.n ? v.base + i * v.size : NULL;
}

/* Exactly this id (tables sorted by id only: mitigations and techniques). */
static const void *find(enum table t, const char *id)
{
    struct view v = view(t);
    return find_id(v.base, v.n, v.size, id);
}

/* This id, or for an unknown sub-technique id (valid) its parent. */
static const void *resolve(enum table t, const char *id, bool (*valid)(const char *))
{
    const void *x = find(t, id);
    char buf[16];
    return x || !valid(id) ? x : find(t, parent_id(id, buf, sizeof buf));
}

size_t bw_attack_tactic_count(void) { return count(TACTICS); }
const struct bw_attack_tactic *bw_attack_tactic_at(size_t i) { return at(TACTICS, i); }

const struct bw_attack_tactic *bw_attack_tactic_find(const char *id_or_shortname)
{
    return ready() ? tactic_find(id_or_shortname) : NULL;
}

size_t bw_attack_technique_count(void) { return count(TECHNIQUES); }
const struct bw_attack_technique *bw_attack_technique_at(size_t i) { return at(TECHNIQUES, i); }
const struct bw_attack_technique *bw_attack_technique_find(const char *id) { return find(TECHNIQUES, id); }

const struct bw_attack_technique *bw_attack_technique_resolve(const char *id)
{
    return resolve(TECHNIQUES, id, bw_attack_id_valid);
}

size_t bw_attack_mitigation_count(void) { return count(MITIGATIONS); }
const struct bw_attack_mitigation *bw_attack_mitigation_at(size_t i) { return at(MITIGATIONS, i); }
const struct bw_attack_mitigation *bw_attack_mitigation_find(const char *id) { return find(MITIGATIONS, id); }

const char *bw_attack_source(void)
{
    return ready() && T.attack_source ? T.attack_source : "";
}

size_t bw_atlas_tactic_count(void) { return count(ATLAS_TACTICS); }
const struct bw_atlas_tactic *bw_atlas_tactic_at(size_t i) { return at(ATLAS_TACTICS, i); }

const struct bw_atlas_tactic *bw_atlas_tactic_find(const char *id)
{
    if (!id || !ready())
        return NULL;
    for (size_t i = 0; i < T.n_atactics; i++)
        if (strcmp(T.atactics[i].id, id) == 0)
            return &T.atactics[i];
    return NULL;
}

size_t bw_atlas_technique_count(void) { return count(ATLAS_TECHNIQUES); }
const struct bw_atlas_technique *bw_atlas_technique_at(size_t i) { return at(ATLAS_TECHNIQUES, i); }
const struct bw_atlas_technique *bw_atlas_technique_find(const char *id) { return find(ATLAS_TECHNIQUES, id); }

const struct bw_atlas_technique *bw_atlas_technique_resolve(const char *id)
{
    return resolve(ATLAS_TECHNIQUES, id, bw_atlas_id_valid);
}

const struct bw_atlas_mitigation *bw_atlas_mitigation_find(const char *id) { return find(ATLAS_MITIGATIONS, id); }

const char *bw_atlas_source(void)
{
    return ready() && T.atlas_source ? T.atlas_source : "";
}
