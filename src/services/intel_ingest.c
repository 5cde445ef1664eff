/* Records into the store (ingest.h). */
#include "services/intel_ingest.h"
#include "common/jsonx.h"

#include "common/embedded.h"
#include "common/gzip.h"
#include "common/limits.h"
#include "common/vec.h"
#include "common/timeutil.h"
#include "engine/intel/epss.h"
#include "engine/intel/intel.h"
#include "engine/intel/sources.h"
#include "engine/intel/yaml.h"
#include "services/webhooks.h"
#include "store/store_intel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bw_intel_parse_source(enum bw_intel_format fmt, const char *buf, size_t len, bool json, json_t *out,
                          struct bw_intel_reject *rej)
{
    struct bw_tree t;
    struct bw_parse_error pe;
    int rc = json ? bw_tree_json(buf, len, &t, &pe) : bw_tree_yaml(buf, len, &t, &pe);
    if (rc != 0) {
        rej->at = pe.at;
        snprintf(rej->msg, sizeof rej->msg, "%s", pe.msg);
        return -1;
    }
    json_t *recs = NULL;
    rc = fmt == BW_INTEL_KEV ? bw_intel_kev(&t, &recs, rej) : fmt == BW_INTEL_ATLAS ? bw_intel_atlas(&t, &recs, rej)
                                                                                    : bw_intel_osv(&t, &recs, rej);
    bw_tree_free(&t);
    if (rc != 0)
        return -1;
    if (json_is_array(recs))
        json_array_extend(out, recs);
    else if (recs)
        json_array_append(out, recs);
    json_decref(recs);
    return 0;
}

int bw_intel_fold(json_t *index, const json_t *rec)
{
    const char *id = bw_json_str(rec, "id");
    json_t *have = json_object_get(index, id);
    json_t *next;
    if (!have)
        next = json_deep_copy(rec);
    else if (strcmp(bw_json_str(have, "source"), bw_json_str(rec, "source")) == 0 && json_array_size(json_object_get(have, "sources")) == 1)
        next = bw_intel_combine(have, rec);
    else
        next = bw_intel_merge(have, rec);
    return next && json_object_set_new(index, id, next) == 0 ? 0 : -1;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The keys of an object, sorted: records are written in id order, whatever order they came in. */
static const char **sorted_keys(const json_t *obj, size_t *n)
{
    *n = json_object_size(obj);
    const char **keys = calloc(*n ? *n : 1, sizeof *keys);
    if (!keys)
        return NULL;
    size_t i = 0;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)obj, k, v) keys[i++] = k;
    qsort(keys, *n, sizeof *keys, cmp_str);
    return keys;
}

/* The record's changed_at in microseconds; fallback when it has none (seed records). A change
 * within the same second as its enriched_at keeps enriched_us's precision. */
static int64_t changed_us(const json_t *doc, int64_t fallback)
{
    int64_t s;
    if (bw_parse_iso8601(bw_json_str(doc, "changed_at"), &s) != 0 || s == fallback / 1000000)
        return fallback;
    return s * 1000000;
}

/* Writes a finalised record document: its columns, canonical text and feed entry. */
static int put_doc(struct store_intel_tx *tx, const json_t *doc, int64_t enriched_us, const json_t *old)
{
    char *text = bw_intel_dump(doc), *entry = bw_intel_entry(doc);
    int rc = ST_ERROR;
    if (text && entry) {
        struct store_intel_row row = {
            .id = bw_json_str(doc, "id"),
            .type = bw_json_str(doc, "type"),
            .title = bw_json_str(doc, "title"),
            .severity = bw_json_str(doc, "severity"),
            .published = bw_json_str(doc, "published"),
            .updated = bw_json_str(doc, "updated"),
            .enriched_at = bw_json_str(doc, "enriched_at"),
            .source = bw_json_str(doc, "source"),
            .enriched_us = enriched_us,
            .epss = bw_epss_of(doc),
            .changed_us = changed_us(doc, enriched_us),
            .version = json_integer_value(json_object_get(doc, "version")),
            .risk_score = (int)json_integer_value(json_object_get(doc, "risk_score")),
            .kev = json_is_true(json_object_get(doc, "kev")),
            .doc = text,
            .entry = entry,
        };
        rc = store_intel_tx_put(tx, &row, old ? bw_json_str(old, "type") : NULL, old ? bw_json_str(old, "severity") : NULL);
    }
    free(text);
    free(entry);
    return rc;
}

/* One record of an import: added, updated, unchanged or skipped. */
static int upsert(struct store_intel_tx *tx, const json_t *rec, bool kev_filter, int64_t now_us,
                  struct bw_ingest_report *rep, json_t *kev_new)
{
    char *stored = NULL;
    int rc = store_intel_tx_get(tx, bw_json_str(rec, "id"), &stored);
    if (rc == ST_NOTFOUND) {
        if (kev_filter && strcmp(bw_json_str(rec, "source"), "kev") == 0 && !bw_intel_kev_is_ai(rec)) {
            rep->skipped++;
            return ST_OK;
        }
        json_t *doc = json_deep_copy(rec);
        if (!doc)
            return ST_ERROR;
        bw_intel_finalize(doc, 1, now_us / 1000000);
        rc = put_doc(tx, doc, now_us, NULL);
        if (rc == ST_OK && json_is_true(json_object_get(doc, "kev")))
            json_array_append(kev_new, doc); /* a KEV entry new to the store: intel.kev_match */
        json_decref(doc);
        rep->added += rc == ST_OK;
        return rc;
    }
    if (rc != ST_OK)
        return rc;
    json_t *old = json_loads(stored, 0, NULL);
    free(stored);
    json_t *merged = old ? bw_intel_merge(old, rec) : NULL;
    if (!merged) {
        json_decref(old);
        return ST_ERROR;
    }
    if (bw_intel_same_facts(old, merged)) {
        rep->unchanged++;
    } else {
        bw_intel_finalize(merged, json_integer_value(json_object_get(old, "version")) + 1, now_us / 1000000);
        rc = put_doc(tx, merged, now_us, old);
        rep->updated += rc == ST_OK;
        if (rc == ST_OK && json_is_true(json_object_get(merged, "kev")) && !json_is_true(json_object_get(old, "kev")))
            json_array_append(kev_new, merged); /* a stored record that KEV now lists */
    }
    json_decref(merged);
    json_decref(old);
    return rc;
}

/* The batch, written in id order in one intel write. */
struct ingest {
    json_t *batch;
    const char **ids;
    size_t n;
    bool kev_filter;
    int64_t now_us;
    struct bw_ingest_report *rep;
    json_t *kev_new; /* the KEV entries new to the store, for intel.kev_match after the commit */
};

static int ingest_tx(struct store_intel_tx *tx, void *arg)
{
    const struct ingest *g = arg;
    int rc = ST_OK;
    for (size_t i = 0; rc == ST_OK && i < g->n; i++)
        rc = upsert(tx, json_object_get(g->batch, g->ids[i]), g->kev_filter, g->now_us, g->rep, g->kev_new);
    return rc;
}

int bw_ingest(struct db *db, const json_t *records, bool kev_filter, int64_t now_us, struct bw_ingest_report *rep)
{
    memset(rep, 0, sizeof *rep);
    json_t *batch = json_object();
    size_t i, n = 0;
    json_t *r;
    json_array_foreach(records, i, r)
        if (!batch || bw_intel_fold(batch, r) != 0) {
            json_decref(batch);
            return -1;
        }
    const char **ids = sorted_keys(batch, &n);
    rep->merged = (long)(json_array_size(records) - n);
    json_t *kev_new = json_array();
    struct ingest g = {batch, ids, n, kev_filter, now_us, rep, kev_new};
    int rc = ids && kev_new ? store_intel_write(db, ingest_tx, &g) : ST_ERROR;
    free(ids);
    json_decref(batch);
    if (rc != ST_OK)
        memset(rep, 0, sizeof *rep);
    else /* after the commit: the events name records that are stored */
        (void)bw_webhooks_kev_matches(db, kev_new);
    json_decref(kev_new);
    return rc == ST_OK ? 0 : -1;
}

/* The seed load's state: what it loaded, why it failed, and whether the store had records. */
struct seed_load {
    long *loaded;
    char *why;
    size_t cap;
    bool explained; /* why is written */
    bool had_records;
};

static int seed_tx(struct store_intel_tx *tx, void *arg)
{
    struct seed_load *s = arg;
    int64_t have = 0;
    if (store_intel_tx_count(tx, &have) != ST_OK)
        return ST_ERROR;
    if (have > 0) { /* seeded before, or imported into: never again */
        s->had_records = true;
        return ST_NOTFOUND; /* nothing written: roll back */
    }
    const struct bw_embedded *f = bw_embedded_find(BW_SEED_FILE);
    json_t *seed = f ? json_loadb((const char *)f->data, f->len, 0, NULL) : NULL;
    int64_t at = 0;
    if (!seed || bw_parse_iso8601(bw_json_str(seed, "generated_at"), &at) != 0 ||
        !json_is_array(json_object_get(seed, "records"))) {
        snprintf(s->why, s->cap, "%s is missing or malformed", BW_SEED_FILE);
        s->explained = true;
        json_decref(seed);
        return ST_ERROR;
    }
    size_t i;
    json_t *r;
    int rc = ST_OK;
    json_array_foreach(json_object_get(seed, "records"), i, r) {
        char w[200];
        if (bw_intel_check(r, w, sizeof w) != 0) {
            snprintf(s->why, s->cap, "%s: record %zu: %s", BW_SEED_FILE, i, w);
            rc = ST_ERROR;
            break;
        }
        if ((rc = put_doc(tx, r, at * 1000000, NULL)) != ST_OK) {
            snprintf(s->why, s->cap, "the database refused seed record %s", bw_json_str(r, "id"));
            break;
        }
        (*s->loaded)++;
    }
    json_decref(seed);
    s->explained = rc != ST_OK; /* every failure above wrote why */
    return rc;
}

int bw_intel_seed_load(struct db *db, long *loaded, char *why, size_t cap)
{
    *loaded = 0;
    struct seed_load s = {loaded, why, cap, false, false};
    int rc = store_intel_write(db, seed_tx, &s);
    if (rc == ST_OK || s.had_records)
        return 0;
    if (!s.explained)
        snprintf(why, cap, "the database failed");
    *loaded = 0;
    return -1;
}

json_t *bw_intel_seed_doc(const json_t *index, int64_t at_s)
{
    size_t n;
    const char **ids = sorted_keys(index, &n);
    json_t *records = json_array();
    char ts[21];
    bw_iso8601(at_s, ts);
    json_t *doc = json_pack("{s:s,s:o}", "generated_at", ts, "records", records);
    if (!ids || !doc) {
        free(ids);
        json_decref(doc);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *r = json_deep_copy(json_object_get(index, ids[i]));
        if (!r)
            break;
        bw_intel_finalize(r, 1, at_s);
        json_array_append_new(records, r);
    }
    free(ids);
    return doc;
}

/* ---- EPSS ---------------------------------------------------------------------------------------- */

struct epss_ingest {
    const struct bw_epss_file *f;
    int64_t now_us;
    struct bw_epss_report *rep;
    char **ids; /* the stored CVE ids */
    size_t n, cap;
};

static int keep_id(const char *id, void *arg)
{
    struct epss_ingest *g = arg;
    if (!BW_VEC_RESERVE(g->ids, g->cap, g->n + 1, BW_VEC_UNBOUNDED))
        return -1;
    return (g->ids[g->n] = strdup(id)) ? (g->n++, 0) : -1;
}

static int cmp_row_cve(const void *key, const void *row)
{
    return strcmp(key, ((const struct bw_epss_row *)row)->cve);
}

/* One stored record and its score: updated or unchanged. */
static int epss_one(struct store_intel_tx *tx, struct epss_ingest *g, const char *id, const struct bw_epss_row *row)
{
    char *stored = NULL;
    int rc = store_intel_tx_get(tx, id, &stored);
    if (rc != ST_OK)
        return rc == ST_NOTFOUND ? ST_ERROR : rc; /* listed a moment ago in this transaction */
    json_t *doc = json_loads(stored, 0, NULL);
    free(stored);
    if (!doc)
        return ST_ERROR;
    int ch = bw_epss_apply(doc, g->f->date, row->score, row->percentile);
    if (ch == 1 && bw_intel_rescore(doc, g->now_us / 1000000) == 0) {
        int64_t enriched = 0;
        (void)bw_parse_iso8601(bw_json_str(doc, "enriched_at"), &enriched);
        /* old == doc: same type and severity, so the counters stay */
        rc = put_doc(tx, doc, enriched * 1000000, doc);
        g->rep->updated += rc == ST_OK;
    } else if (ch == 0) {
        g->rep->unchanged++;
        rc = ST_OK;
    } else {
        rc = ST_ERROR;
    }
    json_decref(doc);
    return rc;
}

static int epss_tx(struct store_intel_tx *tx, void *arg)
{
    struct epss_ingest *g = arg;
    if (store_intel_tx_cves(tx, keep_id, g) != ST_OK)
        return ST_ERROR;
    int rc = ST_OK;
    long matched = 0;
    for (size_t i = 0; rc == ST_OK && i < g->n; i++) {
        const struct bw_epss_row *row = bsearch(g->ids[i], g->f->rows, g->f->n, sizeof *g->f->rows, cmp_row_cve);
        if (row) {
            matched++;
            rc = epss_one(tx, g, g->ids[i], row);
        }
    }
    g->rep->unknown = (long)g->f->n - matched;
    return rc;
}

int bw_ingest_epss(struct db *db, const struct bw_epss_file *f, int64_t now_us, struct bw_epss_report *rep)
{
    memset(rep, 0, sizeof *rep);
    struct epss_ingest g = {f, now_us, rep, NULL, 0, 0};
    int rc = store_intel_write(db, epss_tx, &g);
    for (size_t i = 0; i < g.n; i++)
        free(g.ids[i]);
    free(g.ids);
    if (rc != ST_OK)
        memset(rep, 0, sizeof *rep);
    return rc == ST_OK ? 0 : -1;
}

int bw_intel_epss_load(const char *buf, size_t len, struct bw_epss_file *out, struct bw_intel_reject *rej)
{
    memset(out, 0, sizeof *out);
    if (!bw_is_gzip(buf, len)) {
        if (len > BW_INTEL_EPSS_MAX_BYTES) {
            snprintf(rej->msg, sizeof rej->msg, "larger than %u bytes", BW_INTEL_EPSS_MAX_BYTES);
            return -1;
        }
        return bw_epss_parse(buf, len, out, rej);
    }
    char *plain = NULL;
    size_t n = 0;
    if (bw_gunzip(buf, len, BW_INTEL_EPSS_MAX_BYTES, &plain, &n, rej->msg, sizeof rej->msg) != 0)
        return -1;
    int rc = bw_epss_parse(plain, n, out, rej);
    free(plain);
    return rc;
}
